/*
 * fold_rows.c -- unfolding a folded document back into its rows, the rows' order-independent hashes, and the
 * hoist sampler (fold.h); the fold itself is fold.c
 */
#include "fold.h"
#include "fold_private.h"

#include "core/error.h"
#include "store/keyenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- unfolding ---------------------------------------------------------------------------------- */

/* unfold -- lab_fold_unfold, or with `acc` lab_fold_unfold_hash (each row hashed, never built). */
static bool
unfold (const bson_t *doc, const char *key, const char *array_field, lab_fold_row_cb_t cb, void *ctx,
        lab_fold_hash_t *acc, lab_fold_doc_info_t *info, bson_error_t *error)
{
   bson_iter_t it, ait, eit, hit;
   range_t hoisted[64]; /* offset and key length of each hoisted field in doc */
   range_t *hs = hoisted;
   size_t nh = 0, hcap = 64, i;
   bool have_key = false, have_arr = false, have_rc = false, have_part = false, have_parts = false;
   lab_fold_doc_info_t di;
   int32_t n = 0;
   bson_t elem;
   const uint8_t *data;
   uint32_t len;
   char *idt = NULL;
   bool ok = false;
   lab_rowhash_hoisted_t *hf = NULL; /* the hoisted fields, prepared for hashing (acc) */
   const char *name;

   memset (&di, 0, sizeof di);
   BSON_ASSERT (bson_iter_init (&it, doc));
   while (bson_iter_next (&it)) {
      name = bson_iter_key (&it);
      if (strcmp (name, "_id") == 0) {
         continue;
      } else if (strcmp (name, LAB_FOLD_ROW_COUNT) == 0 && BSON_ITER_HOLDS_INT32 (&it)) {
         di.row_count = bson_iter_int32 (&it);
         have_rc = true;
      } else if (strcmp (name, LAB_FOLD_PART) == 0 && BSON_ITER_HOLDS_INT32 (&it)) {
         di.part = bson_iter_int32 (&it);
         have_part = true;
      } else if (strcmp (name, LAB_FOLD_PARTS) == 0 && BSON_ITER_HOLDS_INT32 (&it)) {
         di.parts = bson_iter_int32 (&it);
         have_parts = true;
      } else if (strcmp (name, LAB_FOLD_BUCKET_START) == 0 && BSON_ITER_HOLDS_DATE_TIME (&it)) {
         di.has_bucket_start = true;
         di.bucket_start_ms = bson_iter_date_time (&it);
      } else if (strcmp (name, array_field) == 0 && BSON_ITER_HOLDS_ARRAY (&it)) {
         ait = it;
         have_arr = true;
      } else {
         if (strcmp (name, key) == 0) {
            di.key = *bson_iter_value (&it);
            have_key = true;
         }
         if (nh == hcap) {
            hcap *= 2;
            if (hs == hoisted) {
               hs = bson_malloc (hcap * sizeof *hs);
               memcpy (hs, hoisted, sizeof hoisted);
            } else {
               hs = bson_realloc (hs, hcap * sizeof *hs);
            }
         }
         hs[nh].off = it.off;
         hs[nh].len = bson_iter_key_len (&it);
         nh++;
      }
   }
   if (!have_key || !have_arr || !have_rc || !have_part || !have_parts || di.parts < 1 || di.part < 0 ||
       di.part >= di.parts) {
      idt = lab_fold_row_id_text (doc);
      lab_error_set (
         error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_NOT_FOLDED,
         "document %s is not a folded document: it needs '%s', an array '%s', and int32 row_count, "
         "part and parts with 0 <= part < parts",
         idt, key, array_field);
      goto done;
   }
   bson_iter_array (&ait, &len, &data);
   if (!bson_iter_init_from_data (&eit, data, len)) {
      idt = lab_fold_row_id_text (doc);
      lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_CORRUPT, "document %s: array '%s' is corrupt",
                     idt, array_field);
      goto done;
   }
   while (bson_iter_next (&eit)) {
      bson_t row;
      const uint8_t *edata;
      uint32_t elen;

      if (!BSON_ITER_HOLDS_DOCUMENT (&eit)) {
         idt = lab_fold_row_id_text (doc);
         lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_CORRUPT,
                        "document %s: element %s of '%s' is not a document", idt, bson_iter_key (&eit),
                        array_field);
         goto done;
      }
      bson_iter_document (&eit, &elen, &edata);
      if (acc) {
         if (!hf) {
            hf = lab_rowhash_hoisted_new (doc, hs, nh);
         }
         lab_fold_hash_add (acc, lab_rowhash_merged (edata, elen, hf));
         n++;
         continue;
      }
      BSON_ASSERT (bson_init_static (&elem, edata, elen));
      bson_copy_to (&elem, &row);
      for (i = 0; i < nh; i++) {
         bson_iter_init_from_data_at_offset (&hit, bson_get_data (doc), doc->len, hs[i].off, hs[i].len);
         if (!bson_has_field (&elem, bson_iter_key (&hit))) {
            bson_append_iter (&row, NULL, 0, &hit);
         }
      }
      ok = cb ? cb (ctx, &row, error) : true;
      bson_destroy (&row);
      if (!ok) {
         goto done;
      }
      n++;
   }
   if (n != di.row_count) {
      idt = lab_fold_row_id_text (doc);
      lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_ROW_COUNT,
                     "document %s: row_count says %d but '%s' holds %d rows", idt, di.row_count, array_field,
                     n);
      ok = false;
      goto done;
   }
   if (info) {
      *info = di;
   }
   ok = true;
done:
   lab_rowhash_hoisted_free (hf);
   if (hs != hoisted) {
      bson_free (hs);
   }
   bson_free (idt);
   return ok;
}

/* lab_fold_unfold -- see fold.h. */
bool
lab_fold_unfold (const bson_t *doc, const char *key, const char *array_field, lab_fold_row_cb_t cb, void *ctx,
                 lab_fold_doc_info_t *info, bson_error_t *error)
{
   return unfold (doc, key, array_field, cb, ctx, NULL, info, error);
}

/* lab_fold_unfold_hash -- see fold.h. */
bool
lab_fold_unfold_hash (const bson_t *doc, const char *key, const char *array_field, lab_fold_hash_t *acc,
                      lab_fold_doc_info_t *info, bson_error_t *error)
{
   return unfold (doc, key, array_field, NULL, NULL, acc, info, error);
}

/* ---- row hashes (core/rowhash.c) ------------------------------------------------------------- */

/* lab_fold_row_hash -- see fold.h. */
lab_fold_hash_t
lab_fold_row_hash (const bson_t *row)
{
   return lab_rowhash_row (row);
}

/* lab_fold_hash_add -- see fold.h. */
void
lab_fold_hash_add (lab_fold_hash_t *acc, lab_fold_hash_t h)
{
   lab_rowhash_add (acc, h);
}

/* ---- hoist sampler ------------------------------------------------------------------------------ */

typedef struct {
   char *name;
   bool alive;
} cand_t;

struct lab_fold_hoist_sampler {
   char *key;
   char *array_field;
   int64_t max_masters;
   int64_t masters;
   bool multi_seen; /* some master had two rows or more */
   bool started;
   bool full;
   cand_t *cands;
   size_t ncands;
   bson_t *first; /* first row of the current master */
   size_t cur_rows;
};

lab_fold_hoist_sampler_t *
lab_fold_hoist_sampler_new (const char *key, const char *array_field, int64_t max_masters)
{
   lab_fold_hoist_sampler_t *s = bson_malloc0 (sizeof *s);

   s->key = bson_strdup (key);
   s->array_field = bson_strdup (array_field);
   s->max_masters = max_masters > 0 ? max_masters : 1;
   return s;
}

/* lab_fold_hoist_sampler_push -- candidates die when a row lacks them or a master disagrees on them. */
bool
lab_fold_hoist_sampler_push (lab_fold_hoist_sampler_t *s, const bson_t *row)
{
   bson_iter_t it, fi, ki;
   size_t i;
   const char *name;
   bool new_master;

   if (s->full) {
      return false;
   }
   if (!bson_iter_init_find (&ki, row, s->key)) {
      return true;
   }
   if (!s->started) {
      BSON_ASSERT (bson_iter_init (&it, row));
      while (bson_iter_next (&it)) {
         name = bson_iter_key (&it);
         if (!lab_fold_name_plain (name) || strcmp (name, s->key) == 0 ||
             lab_fold_name_reserved (name, s->array_field)) {
            continue;
         }
         s->cands = bson_realloc (s->cands, (s->ncands + 1) * sizeof *s->cands);
         s->cands[s->ncands].name = bson_strdup (name);
         s->cands[s->ncands].alive = true;
         s->ncands++;
      }
      s->started = true;
   }
   new_master = true;
   if (s->first) {
      BSON_ASSERT (bson_iter_init_find (&fi, s->first, s->key));
      new_master = lab_store_value_compare (bson_iter_value (&ki), bson_iter_value (&fi)) != 0;
   }
   if (new_master) {
      if (s->masters == s->max_masters) {
         s->full = true;
         return false;
      }
      s->masters++;
      bson_destroy (s->first);
      s->first = bson_copy (row);
      s->cur_rows = 0;
   }
   s->cur_rows++;
   if (s->cur_rows == 2) {
      s->multi_seen = true;
   }
   for (i = 0; i < s->ncands; i++) {
      if (!s->cands[i].alive) {
         continue;
      }
      if (!bson_iter_init_find (&it, row, s->cands[i].name)) {
         s->cands[i].alive = false;
         continue;
      }
      if (!new_master) {
         BSON_ASSERT (bson_iter_init_find (&fi, s->first, s->cands[i].name));
         if (it.next_off - it.off != fi.next_off - fi.off ||
             memcmp (it.raw + it.off, fi.raw + fi.off, it.next_off - it.off) != 0) {
            s->cands[i].alive = false;
         }
      }
   }
   return true;
}

void
lab_fold_hoist_sampler_result (lab_fold_hoist_sampler_t *s, char ***fields, size_t *nfields,
                               int64_t *nmasters)
{
   size_t i, n = 0;

   *fields = bson_malloc0 ((s->ncands + 1) * sizeof (char *));
   for (i = 0; s->multi_seen && i < s->ncands; i++) {
      if (s->cands[i].alive) {
         (*fields)[n++] = bson_strdup (s->cands[i].name);
      }
   }
   if (nfields) {
      *nfields = n;
   }
   if (nmasters) {
      *nmasters = s->masters;
   }
}

void
lab_fold_hoist_sampler_destroy (lab_fold_hoist_sampler_t *s)
{
   size_t i;

   if (!s) {
      return;
   }
   for (i = 0; i < s->ncands; i++) {
      bson_free (s->cands[i].name);
   }
   bson_free (s->cands);
   bson_destroy (s->first);
   bson_free (s->key);
   bson_free (s->array_field);
   bson_free (s);
}
