/*
 * fold_run_rows.c -- --shape sorted (fold.h): a key range's rows copied unchanged, one document each, in the
 * order the sorted read returns them -- key order, and within a key the source's own (its index entries
 * for one key follow the record ids, that is arrival order) -- with the fold's checkpoints: a master whose
 * rows are all in the write batch becomes the candidate the next checkpoint names, so --resume and the
 * retries continue after it exactly as they do for folded documents. --shape clustered: the rows in the
 * source's natural (arrival) order, each with its clustered _id (lab_store_clustered_row), into a clustered
 * collection whose _id order keeps a master's rows together. --shape copy: the rows in natural order as
 * they are (fold_run_copy.c has the rest of it).
 */
#include "fold_run_private.h"

/* master_done -- the current master's rows are all queued: it may be checkpointed once written. */
static void
master_done (worker_t *w)
{
   lab_fold_run_set_candidate (w, &w->rows_key);
   w->rows_stats.masters++;
   w->cand_stats = w->rows_stats;
   w->cand_nrejected = w->nrejected;
   lab_fold_run_note_master (w);
}

/* row_out -- one document of a rows shape into the write batch (a copy), counted: rows in, documents out,
 * the largest document and the batch's peak bytes. */
static bool
row_out (worker_t *w, const bson_t *doc, bson_error_t *error)
{
   int64_t held = (int64_t)(w->batch_len + doc->len);

   w->rows_stats.rows_in++;
   w->rows_stats.docs_out++;
   if ((int64_t)doc->len > w->rows_stats.largest_doc_bytes) {
      w->rows_stats.largest_doc_bytes = doc->len;
   }
   if (held > w->peak_buffer_bytes) {
      w->peak_buffer_bytes = held;
   }
   return lab_fold_run_add_doc (w, bson_copy (doc), error);
}

/* lab_fold_run_rows_push -- see fold_run_private.h. */
bool
lab_fold_run_rows_push (worker_t *w, const bson_t *row, bson_error_t *error)
{
   run_t *r = w->run;
   bson_value_t kv;
   int c = 1;
   if (!lab_fold_row_key (r->fold_opts.key, row, &kv, error)) {
      return false;
   }
   if (w->have_rows_key) {
      c = lab_store_value_compare (&kv, &w->rows_key);
      if (c < 0) {
         char *now = lab_value_to_text (&kv), *was = lab_value_to_text (&w->rows_key);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "rows out of key order: %s=%s after %s=%s (the key index returned them so)",
                        r->fold_opts.key, now, r->fold_opts.key, was);
         bson_free (now);
         bson_free (was);
         return false;
      }
      if (c > 0) {
         master_done (w);
         bson_value_destroy (&w->rows_key);
         w->have_rows_key = false;
      }
   }
   if (!w->have_rows_key) {
      bson_value_copy (&kv, &w->rows_key);
      w->have_rows_key = true;
   }
   return row_out (w, row, error);
}

/* lab_fold_run_rows_finish -- see fold_run_private.h. */
void
lab_fold_run_rows_finish (worker_t *w)
{
   if (w->have_rows_key) {
      master_done (w);
      bson_value_destroy (&w->rows_key);
      w->have_rows_key = false;
   }
}

/* lab_fold_run_rows_reset -- see fold_run_private.h. */
void
lab_fold_run_rows_reset (worker_t *w)
{
   if (w->have_rows_key) {
      bson_value_destroy (&w->rows_key);
      w->have_rows_key = false;
   }
   memset (&w->rows_stats, 0, sizeof w->rows_stats);
}

/* lab_fold_run_clustered_push -- see fold_run_private.h. */
bool
lab_fold_run_clustered_push (worker_t *w, const bson_t *row, bson_error_t *error)
{
   bson_t doc;
   bool ok;

   if (!lab_store_clustered_row (row, w->run->fold_opts.key, &doc, error)) {
      return false;
   }
   ok = row_out (w, &doc, error);
   bson_destroy (&doc);
   return ok;
}

/* lab_fold_run_natural_push -- see fold_run_private.h. */
bool
lab_fold_run_natural_push (worker_t *w, const bson_t *row, bson_error_t *error)
{
   if (w->run->o->target.shape == LAB_FOLD_SHAPE_CLUSTERED) {
      return lab_fold_run_clustered_push (w, row, error);
   }
   w->rows_stats.masters++;
   return row_out (w, row, error);
}

/* lab_fold_run_shape_check -- see fold_run_private.h. A clustered collection (MongoDB 5.3+: create with
 * clusteredIndex {key: {_id: 1}, unique: true}) keeps documents in _id order in its record table; the
 * embedded store lays one out as mongod does (docs/mongodb-compat.md §23); FerretDB has no such
 * collection and servers before 5.3 refuse the option. */
bool
lab_fold_run_shape_check (run_t *r, bson_error_t *error)
{
   lab_store_server_info_t si;
   int major = 0, minor = 0;
   char why[160];

   if (r->o->target.shape != LAB_FOLD_SHAPE_CLUSTERED) {
      return true;
   }
   if (!lab_store_server_info (r->store, &si, error)) {
      lab_error_prefix (error, "--shape clustered: asking the server what it is");
      return false;
   }
   if (strcmp (si.backend, "mongodb") != 0) {
      return true;
   }
   if (si.query_subset) {
      bson_snprintf (why, sizeof why,
                     "this server (%s, FerretDB) has no clustered collections (create's clusteredIndex)",
                     si.version);
   } else if (sscanf (si.version, "%d.%d", &major, &minor) != 2 || major < 5 || (major == 5 && minor < 3)) {
      bson_snprintf (why, sizeof why, "clustered collections need MongoDB 5.3 or later; this server is %s",
                     si.version[0] ? si.version : "of an unknown version");
   } else {
      return true;
   }
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                  "--shape clustered refused: %s. Nothing was written. For the rows in key order without "
                  "folding, use --shape sorted",
                  why);
   return false;
}
