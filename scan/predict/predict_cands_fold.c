/*
 * predict_cands_fold.c -- the other candidates' pages from the sample fold's masters (predict_fold.c reads
 * them): the same rows written in key order (a sorted copy), as a clustered collection writes them (the
 * _id {<key>: K, id: <_id>}), folded into buckets of --bucket-rows rows, and the folded documents with the
 * zstd block compressor -- each packed into leaf pages and compressed as WiredTiger would
 * (lab_scan_predict_pack_pages), giving each candidate's bytes on disk per byte of its records. Rows in key
 * order compress better than the detail collection's interleaved ones (a master's rows repeat its fields):
 * the demo's sorted copy took 0.63 of the detail's storage.
 */
#include "scan/predict/predict_private.h"

#include <string.h>

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

/* lab_scan_predict_cands_fold -- see predict_private.h. */
void
lab_scan_predict_cands_fold (const lab_scan_opts_t *o, probe_t *p, const lab_store_docs_t *ms,
                             const int64_t *pick, size_t nm, char **h, size_t nh, bson_t *const *docs)
{
   size_t rows = 0, i, j, n = 0, nb = 0;
   bson_t **rdocs, **cdocs, **bdocs;
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
   lab_scan_predict_pack_pages (rdocs, rows, LAB_PREDICT_SNAPPY, &p->cf.rows_raw, &p->cf.rows_disk,
                                &p->cf.rows_pages);
   lab_scan_predict_pack_pages (cdocs, rows, LAB_PREDICT_SNAPPY, &p->cf.clus_raw, &p->cf.clus_disk,
                                &p->cf.clus_pages);
   lab_scan_predict_pack_pages (bdocs, nb, LAB_PREDICT_SNAPPY, &p->cf.bkt_raw, &p->cf.bkt_disk,
                                &p->cf.bkt_pages);
   lab_scan_predict_pack_pages (docs, nm, LAB_PREDICT_ZSTD, &p->cf.zstd_raw, &p->cf.zstd_disk,
                                &p->cf.zstd_pages);
   p->cf.clus_row_extra = extra / (double)rows;
   p->cf.bkt_docs = (int64_t)nb;
   for (i = 0; i < rows; i++) {
      bson_destroy (cdocs[i]);
   }
   for (i = 0; i < nb; i++) {
      bson_destroy (bdocs[i]);
   }
   bson_free (rdocs);
   bson_free (cdocs);
   bson_free (bdocs);
}
