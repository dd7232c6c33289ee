/*
 * predict_fold.c -- the folded layout's size from a sample fold: a few masters' rows read and folded in
 * memory into the document fold-details writes by default (--hoist auto: the fields constant within every
 * sampled master at top level with the key, row_count, part and parts, the rows without them in the
 * array), whose sizes replace the rows' BSON less _id and key (no hoisting) that over-predicted the folded
 * layout by half or more; and its bytes on disk from those documents packed into leaf pages as
 * WiredTiger 3.2.1 packs an in-order insert and compressed with snappy (predict_pack.c). etl/fold.c builds
 * the real document, but scan may not use etl (both sit on core and store: scripts/check-layers.sh), so the
 * shape is rebuilt here from etl/fold.h's description. The same masters packed as the other candidates hold
 * them (rows in key order, a clustered collection's rows, buckets, zstd blocks) size those (predict_cands.h).
 */
#include "scan/predict/predict_private.h"

#include "core/error.h"
#include "core/log.h"
#include "store/keyenc.h"

#include <math.h>
#include <string.h>

/* Masters the sample fold reads at most, and rows it stops after. */
#define FOLD_MASTERS 48
#define FOLD_ROWS 8000

/* same_value -- the two fields' values are the same: type and bytes. */
static bool
same_value (const bson_iter_t *a, const bson_iter_t *b)
{
   bson_t x = BSON_INITIALIZER, y = BSON_INITIALIZER;
   bool same;

   bson_append_iter (&x, "v", 1, a);
   bson_append_iter (&y, "v", 1, b);
   same = x.len == y.len && memcmp (bson_get_data (&x), bson_get_data (&y), x.len) == 0;
   bson_destroy (&x);
   bson_destroy (&y);
   return same;
}

/* constant_in -- field `name` is in every row of `r` with the first row's value (type and bytes). */
static bool
constant_in (const lab_store_docs_t *r, const char *name)
{
   bson_iter_t a, b;
   size_t i;

   if (r->n == 0 || !bson_iter_init_find (&a, r->docs[0], name)) {
      return false;
   }
   for (i = 1; i < r->n; i++) {
      if (!bson_iter_init_find (&b, r->docs[i], name) || !same_value (&a, &b)) {
         return false;
      }
   }
   return true;
}

/* hoisted -- `name` is hoisted: a field of the first master's first row, not _id, the key or a name the
 * folded document keeps for itself, constant within every sampled master (--hoist auto). */
static bool
hoisted (const lab_scan_opts_t *o, const lab_store_docs_t *ms, size_t nm, const char *name)
{
   static const char *const own[] = { "_id", "row_count", "part", "parts", "bucket_start" };
   size_t i;

   for (i = 0; i < sizeof own / sizeof own[0]; i++) {
      if (strcmp (name, own[i]) == 0) {
         return false;
      }
   }
   if (strcmp (name, o->key) == 0 || strcmp (name, o->array_field) == 0) {
      return false;
   }
   for (i = 0; i < nm; i++) {
      if (ms[i].n > 0 && !constant_in (&ms[i], name)) {
         return false;
      }
   }
   return true;
}

/* lab_scan_predict_fold_doc -- see predict_private.h. */
void
lab_scan_predict_fold_doc (const lab_scan_opts_t *o, const bson_value_t *key, const lab_store_docs_t *r,
                           char **h, size_t nh, double *head, double *body, bson_t **image)
{
   bson_t doc = BSON_INITIALIZER, arr, el;
   char id[64];
   bson_iter_t it;
   size_t i, k;
   uint32_t empty;

   if (key->value_type == BSON_TYPE_INT32 || key->value_type == BSON_TYPE_INT64) {
      bson_snprintf (
         id, sizeof id, "%lld#0",
         (long long)(key->value_type == BSON_TYPE_INT32 ? key->value.v_int32 : key->value.v_int64));
   } else {
      bson_snprintf (id, sizeof id, "%024d#0", 0); /* an ObjectId's or a string's hex: 24 characters */
   }
   BSON_APPEND_UTF8 (&doc, "_id", id);
   BSON_APPEND_VALUE (&doc, o->key, key);
   for (k = 0; k < nh; k++) {
      if (r->n > 0 && bson_iter_init_find (&it, r->docs[0], h[k])) {
         BSON_APPEND_VALUE (&doc, h[k], bson_iter_value (&it));
      }
   }
   BSON_APPEND_INT32 (&doc, "row_count", (int32_t)r->n);
   BSON_APPEND_INT32 (&doc, "part", 0);
   BSON_APPEND_INT32 (&doc, "parts", 1);
   empty = doc.len + (uint32_t)strlen (o->array_field) + 2 + 5;
   BSON_APPEND_ARRAY_BEGIN (&doc, o->array_field, &arr);
   for (i = 0; i < r->n; i++) {
      char idx[16];
      const char *ik;
      bson_uint32_to_string ((uint32_t)i, &ik, idx, sizeof idx);
      BSON_APPEND_DOCUMENT_BEGIN (&arr, ik, &el);
      if (bson_iter_init (&it, r->docs[i])) {
         while (bson_iter_next (&it)) {
            const char *name = bson_iter_key (&it);
            bool drop = strcmp (name, o->key) == 0;
            for (k = 0; !drop && k < nh; k++) {
               /* a hoisted field leaves the row (constant within the master: its value is the top's) */
               drop = strcmp (name, h[k]) == 0;
            }
            if (!drop) {
               bson_append_iter (&el, NULL, 0, &it);
            }
         }
      }
      bson_append_document_end (&arr, &el);
   }
   bson_append_array_end (&doc, &arr);
   *head = empty;
   *body = (double)doc.len - empty;
   *image = bson_copy (&doc);
   bson_destroy (&doc);
}

/* ---- the other candidates' pages from the same sample: the same rows written in key order (a sorted copy),
 * as a clustered collection writes them (the _id {<key>: K, id: <_id>}), folded into buckets of
 * --bucket-rows rows, and the folded documents with the zstd block compressor -- each packed and compressed
 * as WiredTiger would, giving each candidate's bytes on disk per byte of its records. Rows in key order
 * compress better than the detail collection's interleaved ones (a master's rows repeat its fields): the
 * demo's sorted copy took 0.63 of the detail's storage. ---- */

/* Rows per bucket document when --bucket-rows is not given (the demo's buckets of 100). */
#define CANDS_BUCKET_ROWS 100

/* clustered_row -- row `row` as a clustered collection holds it: _id {<key>: K, id: <its _id>} first,
 * the rest unchanged. Caller destroys. */
static bson_t *
clustered_row (const lab_scan_opts_t *o, const bson_value_t *key, const bson_t *row)
{
   bson_t *out = bson_new (), id;
   bson_iter_t it;

   BSON_APPEND_DOCUMENT_BEGIN (out, "_id", &id);
   BSON_APPEND_VALUE (&id, o->key, key);
   if (bson_iter_init_find (&it, row, "_id")) {
      BSON_APPEND_VALUE (&id, "id", bson_iter_value (&it));
   }
   bson_append_document_end (out, &id);
   if (bson_iter_init (&it, row)) {
      while (bson_iter_next (&it)) {
         if (strcmp (bson_iter_key (&it), "_id") != 0) {
            bson_append_iter (out, NULL, 0, &it);
         }
      }
   }
   return out;
}

/* clustered_keys -- each of `docs`' key in a clustered collection's record table: the RecordId mongod makes
 * of its _id (store/keyenc.h; empty when it does not encode) into keys[i]; returns their mean bytes. */
static double
clustered_keys (bson_t *const *docs, size_t n, lab_buf_t *keys)
{
   double sum = 0;
   size_t i;
   bson_iter_t it;

   for (i = 0; i < n; i++) {
      bson_error_t e;
      lab_buf_init (&keys[i]);
      if (bson_iter_init_find (&it, docs[i], "_id")) {
         (void)lab_store_key_encode_record_id (bson_iter_value (&it), &keys[i], &e);
      }
      sum += (double)keys[i].len;
   }
   return n > 0 ? sum / (double)n : 0;
}

/* lab_scan_predict_cands_fold -- see predict_private.h. */
void
lab_scan_predict_cands_fold (const lab_scan_opts_t *o, probe_t *p, const lab_store_docs_t *ms,
                             const int64_t *pick, size_t nm, char **h, size_t nh, bson_t *const *docs)
{
   size_t rows = 0, i, j, n = 0, nb = 0;
   bson_t **rdocs, **cdocs, **bdocs;
   lab_buf_t *keys;
   int32_t br = p->cf.bucket_rows =
      (int32_t)(o->predict_bucket_rows > 0 ? o->predict_bucket_rows : CANDS_BUCKET_ROWS);
   double extra = 0, head, body;

   for (i = 0; i < nm; i++) {
      rows += ms[i].n;
      nb += (ms[i].n + (size_t)br - 1) / (size_t)br;
   }
   if (rows == 0) {
      return;
   }
   rdocs = bson_malloc0 (rows * sizeof *rdocs);
   cdocs = bson_malloc0 (rows * sizeof *cdocs);
   bdocs = bson_malloc0 ((nb > 0 ? nb : 1) * sizeof *bdocs);
   nb = 0;
   for (i = 0; i < nm; i++) {
      for (j = 0; j < ms[i].n; j++, n++) {
         rdocs[n] = ms[i].docs[j];
         cdocs[n] = clustered_row (o, &p->keys[pick[i]], ms[i].docs[j]);
         extra += (double)cdocs[n]->len - (double)ms[i].docs[j]->len;
      }
      for (j = 0; j < ms[i].n; j += (size_t)br) {
         /* a bucket: the master's next br rows, folded as fold-details --bucket-rows folds them */
         lab_store_docs_t part = { ms[i].docs + j, ms[i].n - j < (size_t)br ? ms[i].n - j : (size_t)br, 0 };
         lab_scan_predict_fold_doc (o, &p->keys[pick[i]], &part, h, nh, &head, &body, &bdocs[nb++]);
      }
   }
   p->cf.rows_compress_ratio = lab_scan_predict_pack_pages (
      rdocs, rows, LAB_PREDICT_SNAPPY, NULL, &p->cf.rows_raw, &p->cf.rows_disk, &p->cf.rows_pages);
   keys = bson_malloc0 (rows * sizeof *keys);
   p->cf.clus_key_bytes = clustered_keys (cdocs, rows, keys);
   p->cf.clus_compress_ratio = lab_scan_predict_pack_pages (
      cdocs, rows, LAB_PREDICT_SNAPPY, keys, &p->cf.clus_raw, &p->cf.clus_disk, &p->cf.clus_pages);
   p->cf.bkt_compress_ratio = lab_scan_predict_pack_pages (bdocs, nb, LAB_PREDICT_SNAPPY, NULL,
                                                           &p->cf.bkt_raw, &p->cf.bkt_disk, &p->cf.bkt_pages);
   p->cf.zstd_compress_ratio = lab_scan_predict_pack_pages (docs, nm, LAB_PREDICT_ZSTD, NULL, &p->cf.zstd_raw,
                                                            &p->cf.zstd_disk, &p->cf.zstd_pages);
   lab_scan_predict_log_compress (docs, nm, &p->cf.fold_log_raw, &p->cf.fold_log_comp);
   lab_scan_predict_log_compress (bdocs, nb, &p->cf.bkt_log_raw, &p->cf.bkt_log_comp);
   p->cf.clus_row_extra = extra / (double)rows;
   p->cf.bkt_docs = (int64_t)nb;
   for (i = 0; i < rows; i++) {
      bson_destroy (cdocs[i]);
      lab_buf_destroy (&keys[i]);
   }
   bson_free (keys);
   for (i = 0; i < nb; i++) {
      bson_destroy (bdocs[i]);
   }
   bson_free (rdocs);
   bson_free (cdocs);
   bson_free (bdocs);
}

/* lab_scan_predict_probe_fold -- see predict_private.h. */
bool
lab_scan_predict_probe_fold (lab_store_session_t *sess, const lab_scan_opts_t *o, probe_t *p,
                             bson_error_t *error)
{
   lab_store_docs_t ms[FOLD_MASTERS];
   int64_t pick[FOLD_MASTERS];
   char *h[64];
   size_t nm = 0, nh = 0, i;
   int64_t rows = 0, k;
   double head = 0, body = 0, hd, bd;
   bson_t *docs[FOLD_MASTERS] = { NULL };
   bson_iter_t it;
   bool ok = false;

   memset (ms, 0, sizeof ms);
   for (i = 0; i < FOLD_MASTERS && rows < FOLD_ROWS && p->nkeys > 0; i++) {
      k = (int64_t)((double)i * (double)(p->nkeys - 1) / (FOLD_MASTERS - 1) + 0.5);
      if (nm > 0 && pick[nm - 1] == k) {
         continue;
      }
      pick[nm] = k;
      if (!lab_store_find_eq (sess, o->detail, o->key, &p->keys[k], lab_store_docs_keep, &ms[nm], NULL,
                              error)) {
         lab_error_prefix (error, "the sample fold of %s", o->detail);
         nm++;
         goto done;
      }
      rows += (int64_t)ms[nm].n;
      nm++;
   }
   if (rows == 0) {
      ok = true; /* nothing to fold: the model's estimate stands */
      goto done;
   }
   i = 0;
   while (ms[i].n == 0) {
      i++; /* the first master with rows: rows > 0, so there is one */
   }
   if (bson_iter_init (&it, ms[i].docs[0])) {
      while (bson_iter_next (&it) && nh < sizeof h / sizeof h[0]) {
         if (hoisted (o, ms, nm, bson_iter_key (&it))) {
            h[nh++] = bson_strdup (bson_iter_key (&it));
         }
      }
   }
   for (i = 0; i < nm; i++) {
      lab_scan_predict_fold_doc (o, &p->keys[pick[i]], &ms[i], h, nh, &hd, &bd, &docs[i]);
      head += hd;
      body += bd;
   }
   p->fold_compress_ratio = lab_scan_predict_pack_pages (
      docs, nm, LAB_PREDICT_SNAPPY, NULL, &p->fold_page_raw, &p->fold_page_disk, &p->fold_pages);
   /* the other candidates' documents from the same sample: the rows in key order, clustered, buckets, zstd */
   lab_scan_predict_cands_fold (o, p, ms, pick, nm, h, nh, docs);
   /* the load time's CPU figures from the same masters, their rows and folded documents */
   ok = lab_scan_predict_cost_cpu (sess, o, p, pick, ms, nm, docs, error);
   for (i = 0; i < nm; i++) {
      bson_destroy (docs[i]);
   }
   if (!ok) {
      goto done;
   }
   p->fold_masters = (int64_t)nm;
   p->fold_rows = rows;
   p->fold_hoisted = (int64_t)nh;
   p->fold_master_bytes = head / (double)nm;
   p->fold_row_bytes = body / (double)rows;
   p->documents_fetched += rows;
   ok = true;
done:
   for (i = 0; i < nm; i++) {
      lab_store_docs_clear (&ms[i]);
   }
   for (i = 0; i < nh; i++) {
      bson_free (h[i]);
   }
   return ok;
}
