/*
 * fold.c -- the pure fold logic (see fold.h): rows in key order in, array documents out, sized exactly
 * while they are built (a document's bytes: fold_doc.c; the options checked and the documents' ids:
 * fold_names.c; unfolding: fold_rows.c).
 */
#include "fold.h"
#include "fold_private.h"

#include "core/error.h"
#include "store/keyenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
/* xxhash inlined: the verify hashes every field of every row, a few dozen bytes at a time, where a call
 * into the shared library costs as much as the hash */
#define XXH_INLINE_ALL
#include <xxhash.h>

/* lab_fold_new -- copy the options and set up empty buffers. */
lab_fold_t *
lab_fold_new (const lab_fold_opts_t *opts, lab_fold_emit_cb_t emit, lab_fold_reject_cb_t reject, void *ctx,
              bson_error_t *error)
{
   lab_fold_t *f;
   size_t i;

   if (!lab_fold_opts_check (opts, error)) {
      return NULL;
   }
   if (opts->on_oversize == LAB_FOLD_OVERSIZE_REJECT && !reject) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "on-oversize reject needs a reject destination");
      return NULL;
   }
   f = bson_malloc0 (sizeof *f);
   f->opts = *opts;
   f->key = bson_strdup (opts->key);
   f->array_field = bson_strdup (opts->array_field);
   f->hoist = bson_malloc0 ((opts->nhoist + 1) * sizeof (char *));
   for (i = 0; i < opts->nhoist; i++) {
      f->hoist[i] = bson_strdup (opts->hoist[i]);
   }
   f->opts.key = f->key;
   f->opts.array_field = f->array_field;
   if (opts->bucket_field) {
      f->bucket_field = bson_strdup (opts->bucket_field);
      f->opts.bucket_field = f->bucket_field;
   }
   f->opts.hoist = (const char *const *)f->hoist;
   f->nslots = 1 + opts->nhoist;
   f->hoisted = bson_malloc0 (f->nslots * sizeof (bool));
   f->emit = emit;
   f->reject = reject;
   f->ctx = ctx;
   return f;
}

const lab_fold_stats_t *
lab_fold_stats (const lab_fold_t *f)
{
   return &f->stats;
}

/* lab_fold_buffered_bytes -- buffered rows plus documents built for the current master. */
size_t
lab_fold_buffered_bytes (const lab_fold_t *f)
{
   return f->buf_len + f->docs_bytes;
}

/* clear_docs -- drop documents not handed over (after an error). */
static void
clear_docs (lab_fold_t *f)
{
   size_t i;

   for (i = 0; i < f->ndocs; i++) {
      bson_destroy (f->docs[i]);
   }
   f->ndocs = 0;
   f->docs_bytes = 0;
}

/* lab_fold_destroy -- free everything, including a master never finished. */
void
lab_fold_destroy (lab_fold_t *f)
{
   if (!f) {
      return;
   }
   clear_docs (f);
   bson_free (f->docs);
   bson_free (f->buf);
   bson_free (f->row_off);
   bson_free (f->slots);
   bson_free (f->hoisted);
   bson_free (f->elem);
   bson_strfreev (f->hoist);
   bson_free (f->key);
   bson_free (f->array_field);
   bson_free (f->bucket_field);
   bson_free (f->ord);
   bson_free (f);
}

/* master_key -- the current master's key value (points into the buffer). */
static void
master_key (const lab_fold_t *f, bson_value_t *key)
{
   bson_t row;
   bson_iter_t it;

   lab_fold_row_at (f, 0, &row);
   BSON_ASSERT (bson_iter_init (&it, &row));
   BSON_ASSERT (f->slots[0].len > 0);
   /* slot 0 is the first occurrence of the key */
   bson_iter_init_from_data_at_offset (&it, bson_get_data (&row), row.len, f->slots[0].off,
                                       (uint32_t)strlen (f->key));
   *key = *bson_iter_value (&it);
}

/* reject_master -- hand the master's original rows to the reject callback. */
static bool
reject_master (lab_fold_t *f, const bson_value_t *key, const char *reason, bson_error_t *error)
{
   bson_t **rows = bson_malloc (f->nrows * sizeof (bson_t *));
   bson_t view;
   size_t i;
   bool ok;

   /* heap copies: bson_t wants a 128-byte alignment an array of them would not give */
   for (i = 0; i < f->nrows; i++) {
      lab_fold_row_at (f, i, &view);
      rows[i] = bson_copy (&view);
   }
   ok = f->reject (f->ctx, key, (const bson_t *const *)rows, f->nrows, reason, error);
   for (i = 0; i < f->nrows; i++) {
      bson_destroy (rows[i]);
   }
   bson_free (rows);
   f->stats.masters_rejected++;
   f->stats.rows_rejected += (int64_t)f->nrows;
   return ok;
}

/* bucketed -- documents are bucketed (by rows or by time). */
static bool
bucketed (const lab_fold_t *f)
{
   return f->opts.bucket_rows > 0 || f->bucket_field;
}

/* bucket_break -- row position i (in f->ord) starts a new document although the current one, holding
 * in_part > 0 rows, has room: --bucket-rows is reached or the time window changes. */
static bool
bucket_break (const lab_fold_t *f, size_t i, int32_t in_part)
{
   if (f->opts.bucket_rows > 0 && in_part >= f->opts.bucket_rows) {
      return true;
   }
   return f->bucket_field && i > 0 && f->ord[i].win_ms != f->ord[i - 1].win_ms;
}

static int
ord_cmp (const void *a, const void *b)
{
   const ord_t *x = a, *y = b;

   if (x->win_ms != y->win_ms) {
      return x->win_ms < y->win_ms ? -1 : 1;
   }
   return x->r < y->r ? -1 : x->r > y->r;
}

/* order_rows -- f->ord: the rows in input order, or (--bucket-by) stably sorted by their time window.
 * A row without the bucket field or with a value that is not a date stops the fold, naming the row. */
static bool
order_rows (lab_fold_t *f, const bson_value_t *key, bson_error_t *error)
{
   bson_t row;
   bson_iter_t it;
   size_t r;
   char *rt, *kt;

   lab_fold_grow ((void **)&f->ord, &f->ord_cap, f->nrows, sizeof (ord_t));
   for (r = 0; r < f->nrows; r++) {
      f->ord[r].r = r;
      f->ord[r].win_ms = 0;
      if (!f->bucket_field) {
         continue;
      }
      lab_fold_row_at (f, r, &row);
      if (!bson_iter_init_find (&it, &row, f->bucket_field) || !BSON_ITER_HOLDS_DATE_TIME (&it)) {
         bool present = bson_iter_init_find (&it, &row, f->bucket_field);
         rt = lab_fold_row_id_text (&row);
         kt = lab_value_to_text (key);
         if (present) {
            lab_error_set (
               error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
               "row %s of master %s=%s: bucket field '%s' holds BSON type 0x%02x, not a date; "
               "--bucket-by needs a date in every row (bucket by rows with --bucket-rows instead)",
               rt, f->key, kt, f->bucket_field, (unsigned)bson_iter_type (&it));
         } else {
            lab_error_set (
               error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
               "row %s of master %s=%s has no bucket field '%s': --bucket-by needs a date in every "
               "row (bucket by rows with --bucket-rows instead)",
               rt, f->key, kt, f->bucket_field);
         }
         bson_free (rt);
         bson_free (kt);
         return false;
      }
      f->ord[r].win_ms = lab_fold_bucket_window (bson_iter_date_time (&it), f->opts.bucket_unit, NULL);
   }
   if (f->bucket_field) {
      qsort (f->ord, f->nrows, sizeof (ord_t), ord_cmp);
   }
   return true;
}

/* hoist_slots -- which slots go to top level: slot 0 (the key) always, a hoist field only when every row
 * has it (with one value); returns their bytes. */
static size_t
hoist_slots (lab_fold_t *f)
{
   size_t r, s, hoisted_bytes = 0;

   for (s = 0; s < f->nslots; s++) {
      f->hoisted[s] = f->slots[s].len > 0;
      for (r = 0; s > 0 && f->hoisted[s] && r < f->nrows; r++) {
         if (f->slots[r * f->nslots + s].len == 0 || f->slots[r * f->nslots + s].dup) {
            f->hoisted[s] = false;
         }
      }
      if (f->hoisted[s]) {
         hoisted_bytes += f->slots[s].len;
      }
   }
   return hoisted_bytes;
}

/* over_cap -- with --on-oversize reject or fail, whether the master's largest bucket (the whole master
 * without buckets) folds to more than the cap: then the master is rejected (*ok: whether that worked) or
 * the run fails (*ok false, *error set). False (nothing done) when it fits or splitting is allowed. */
static bool
over_cap (lab_fold_t *f, const bson_value_t *key, size_t kid_len, size_t hoisted_bytes, bool *ok,
          bson_error_t *error)
{
   size_t max = (size_t)f->opts.max_doc_bytes, gsize = 0, grows = 0, total = 0, nbig = 0, i;
   char *ktext, *reason;

   if (f->opts.on_oversize == LAB_FOLD_OVERSIZE_SPLIT) {
      return false;
   }
   for (i = 0; i <= f->nrows; i++) {
      if (i == f->nrows || (grows > 0 && bucket_break (f, i, (int32_t)grows))) {
         if (gsize > total) {
            total = gsize;
            nbig = grows;
         }
         grows = 0;
         if (i == f->nrows) {
            break;
         }
      }
      if (grows == 0) {
         gsize = lab_fold_doc_header_bytes (f, kid_len, 0, hoisted_bytes);
      }
      gsize += 1 + lab_fold_doc_digits (grows) + 1 + lab_fold_doc_elem_bytes (f, f->ord[i].r);
      grows++;
   }
   if (total <= max) {
      return false;
   }
   ktext = lab_value_to_text (key);
   if (bucketed (f)) {
      reason = bson_strdup_printf (
         "a bucket of master %s=%s folds to %zu bytes, over the %zu-byte document cap (%zu rows)", f->key,
         ktext, total, max, nbig);
   } else {
      reason =
         bson_strdup_printf ("master %s=%s folds to %zu bytes, over the %zu-byte document cap (%zu rows)",
                             f->key, ktext, total, max, f->nrows);
   }
   if (f->opts.on_oversize == LAB_FOLD_OVERSIZE_REJECT) {
      *ok = reject_master (f, key, reason, error);
   } else {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_DOC_TOO_LARGE,
                     "%s; use --on-oversize split or reject", reason);
      *ok = false;
   }
   bson_free (ktext);
   bson_free (reason);
   return true;
}

/* build_docs -- the master's documents into f->docs, rows in f->ord's order: a part ends when the next
 * row would take it over the cap or its bucket ends. A row over the cap even alone in a part fails. */
static bool
build_docs (lab_fold_t *f, const bson_value_t *key, size_t kid_len, size_t hoisted_bytes, bson_error_t *error)
{
   size_t max = (size_t)f->opts.max_doc_bytes, size, r, ebytes, i, elen;
   int32_t part = 0, in_part = 0;
   bson_t *doc = NULL;
   bson_t arr, row, elem;
   const char *idx;
   char idxbuf[16];

   size = lab_fold_doc_header_bytes (f, kid_len, 0, hoisted_bytes);
   if (!lab_fold_doc_start (f, key, 0, f->ord[0].win_ms, &doc, &arr, error)) {
      return false;
   }
   for (i = 0; i < f->nrows; i++) {
      r = f->ord[i].r;
      ebytes = lab_fold_doc_elem_bytes (f, r);
      if (in_part > 0 && (bucket_break (f, i, in_part) ||
                          size + 1 + lab_fold_doc_digits ((size_t)in_part) + 1 + ebytes > max)) {
         /* the part is full, or its bucket ends: close it and start the next one */
         if (!lab_fold_doc_end (f, doc, &arr, in_part, size, error)) {
            return false;
         }
         part++;
         in_part = 0;
         size = lab_fold_doc_header_bytes (f, kid_len, part, hoisted_bytes);
         if (!lab_fold_doc_start (f, key, part, f->ord[i].win_ms, &doc, &arr, error)) {
            return false;
         }
      }
      if (size + 1 + lab_fold_doc_digits ((size_t)in_part) + 1 + ebytes > max) {
         /* alone in a part and still over the cap (checked after the split too: the row that did not
          * fit the full part must fit an empty one) */
         char *ktext = lab_value_to_text (key), *rtext;
         lab_fold_row_at (f, r, &row);
         rtext = lab_fold_row_id_text (&row);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_DOC_TOO_LARGE,
                        "row %s of master %s=%s is %zu bytes: even alone in a folded document it exceeds "
                        "the %zu-byte cap",
                        rtext, f->key, ktext, (size_t)row.len, max);
         bson_free (ktext);
         bson_free (rtext);
         bson_destroy (doc);
         return false;
      }
      bson_uint32_to_string ((uint32_t)in_part, &idx, idxbuf, sizeof idxbuf);
      elen = lab_fold_doc_build_elem (f, r);
      BSON_ASSERT (elen == ebytes);
      BSON_ASSERT (bson_init_static (&elem, f->elem, elen));
      bson_append_document (&arr, idx, -1, &elem);
      size += 1 + lab_fold_doc_digits ((size_t)in_part) + 1 + ebytes;
      in_part++;
   }
   return lab_fold_doc_end (f, doc, &arr, in_part, size, error);
}

/* finish_master -- decide what is hoisted, build the documents (split at the cap, and at each bucket's
 * end), emit them. */
static bool
finish_master (lab_fold_t *f, bson_error_t *error)
{
   bson_value_t key;
   char *kid = NULL;
   size_t kid_len, hoisted_bytes, i;
   bool ok = false;

   if (f->nrows == 0) {
      return true;
   }
   master_key (f, &key);
   kid = lab_fold_key_id (&key, error);
   if (!kid) {
      goto done;
   }
   kid_len = strlen (kid);
   hoisted_bytes = hoist_slots (f);
   /* the order rows go into documents: by time window (--bucket-by), else as they came */
   if (!order_rows (f, &key, error)) {
      goto done;
   }
   /* the size of each bucket (the whole master without buckets) decides split / reject / fail */
   if (over_cap (f, &key, kid_len, hoisted_bytes, &ok, error) ||
       !build_docs (f, &key, kid_len, hoisted_bytes, error)) {
      goto done;
   }
   for (i = 0; i < f->ndocs; i++) {
      lab_fold_doc_set_int32 (f->docs[i], LAB_FOLD_PARTS, (int32_t)f->ndocs);
   }
   f->stats.docs_out += (int64_t)f->ndocs;
   if (f->ndocs > 1) {
      f->stats.masters_split++;
   }
   {
      size_t n = f->ndocs;
      f->ndocs = 0; /* the callback owns them now */
      f->docs_bytes = 0;
      ok = f->emit (f->ctx, &key, f->docs, n, (int64_t)f->nrows, error);
   }

done:
   clear_docs (f);
   f->stats.masters++;
   f->nrows = 0;
   f->buf_len = 0;
   bson_free (kid);
   return ok;
}

/* lab_fold_row_key -- see fold.h. */
bool
lab_fold_row_key (const char *key, const bson_t *row, bson_value_t *kv, bson_error_t *error)
{
   bson_iter_t it;
   char *t;

   if (!bson_iter_init_find (&it, row, key)) {
      t = lab_fold_row_id_text (row);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "row %s has no key field '%s': every row needs one to be folded", t, key);
      bson_free (t);
      return false;
   }
   /* a shallow copy: the iterator's value does not outlive this call, the row's bytes do */
   *kv = *bson_iter_value (&it);
   if (!lab_store_key_type_supported (kv->value_type) || kv->value_type == BSON_TYPE_NULL) {
      t = lab_fold_row_id_text (row);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "row %s: key field '%s' holds a value of BSON type 0x%02x, which cannot be a fold key "
                     "(use string, int32, int64, double, ObjectId, date or bool)",
                     t, key, (unsigned)kv->value_type);
      bson_free (t);
      return false;
   }
   return true;
}

/* slot_of -- the tracked slot (0 the key, 1 + h hoist[h]) named `name` (len bytes), or -1: the slot
 * remembered for field position pos when the name is the one remembered there, else by comparing it with
 * every tracked name (and remembered). */
static int
slot_of (lab_fold_t *f, size_t pos, const char *name, size_t len)
{
   name_cache_t *c = pos < LAB_FOLD_NAME_CACHE ? &f->names[pos] : NULL;
   size_t s;

   if (c && c->len == len && memcmp (c->name, name, len) == 0) {
      return c->slot;
   }
   for (s = 0; s < f->nslots && strcmp (name, s == 0 ? f->key : f->hoist[s - 1]) != 0; s++) {
   }
   if (c && len > 0 && len < sizeof c->name) {
      c->slot = s < f->nslots ? (int)s : -1;
      c->len = len;
      memcpy (c->name, name, len);
   }
   return s < f->nslots ? (int)s : -1;
}

/* lab_fold_push_row -- buffer the row; a new key finishes the previous master first. */
bool
lab_fold_push_row (lab_fold_t *f, const bson_t *row, bson_error_t *error)
{
   bson_iter_t it;
   bson_value_t cur, key;
   const bson_value_t *kv = &key;
   slot_t *sl;
   size_t s, pos;
   int cmp;
   char *t1, *t2, *t3;

   if (!lab_fold_row_key (f->key, row, &key, error)) {
      return false;
   }
   if (f->nrows > 0) {
      master_key (f, &cur);
      cmp = lab_store_value_compare (kv, &cur);
      if (cmp < 0) {
         t1 = lab_fold_row_id_text (row);
         t2 = lab_value_to_text (kv);
         t3 = lab_value_to_text (&cur);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "rows are not in key order: row %s has %s=%s after %s", t1, f->key, t2, t3);
         bson_free (t1);
         bson_free (t2);
         bson_free (t3);
         return false;
      }
      if (cmp > 0 && !finish_master (f, error)) {
         return false;
      }
   }

   /* buffer the row and note where the key and the hoist fields are */
   lab_fold_grow ((void **)&f->buf, &f->buf_cap, f->buf_len + row->len, 1);
   lab_fold_grow ((void **)&f->row_off, &f->rows_cap, f->nrows + 1, sizeof (size_t));
   lab_fold_grow ((void **)&f->slots, &f->slots_cap, (f->nrows + 1) * f->nslots, sizeof (slot_t));
   memcpy (f->buf + f->buf_len, bson_get_data (row), row->len);
   f->row_off[f->nrows] = f->buf_len;
   f->buf_len += row->len;
   sl = &f->slots[f->nrows * f->nslots];
   memset (sl, 0, f->nslots * sizeof (slot_t));
   BSON_ASSERT (bson_iter_init (&it, row));
   for (pos = 0; bson_iter_next (&it); pos++) {
      int t = slot_of (f, pos, bson_iter_key (&it), bson_iter_key_len (&it));
      if (t < 0) {
         continue;
      }
      s = (size_t)t;
      if (sl[s].len) {
         sl[s].dup = true;
      } else {
         sl[s].off = it.off;
         sl[s].len = it.next_off - it.off;
      }
   }
   f->nrows++;
   f->stats.rows_in++;
   return true;
}

/* lab_fold_finish -- the last master. */
bool
lab_fold_finish (lab_fold_t *f, bson_error_t *error)
{
   return finish_master (f, error);
}
