/*
 * run_rows.c -- --shape sorted (fold.h): a key range's rows copied unchanged, one document each, in the
 * order the sorted read returns them -- key order, and within a key the source's own (its index entries
 * for one key follow the record ids, that is arrival order) -- with the fold's checkpoints: a master whose
 * rows are all in the write batch becomes the candidate the next checkpoint names, so --resume and the
 * retries continue after it exactly as they do for folded documents.
 */
#include "run_private.h"

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

/* lab_fold_run_rows_push -- see run_private.h. */
bool
lab_fold_run_rows_push (worker_t *w, const bson_t *row, bson_error_t *error)
{
   run_t *r = w->run;
   bson_value_t kv;
   int c = 1;
   int64_t held;

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
   w->rows_stats.rows_in++;
   w->rows_stats.docs_out++;
   if ((int64_t)row->len > w->rows_stats.largest_doc_bytes) {
      w->rows_stats.largest_doc_bytes = row->len;
   }
   held = (int64_t)(w->batch_len + row->len);
   if (held > w->peak_buffer_bytes) {
      w->peak_buffer_bytes = held;
   }
   return lab_fold_run_add_doc (w, bson_copy (row), error);
}

/* lab_fold_run_rows_finish -- see run_private.h. */
void
lab_fold_run_rows_finish (worker_t *w)
{
   if (w->have_rows_key) {
      master_done (w);
      bson_value_destroy (&w->rows_key);
      w->have_rows_key = false;
   }
}

/* lab_fold_run_rows_reset -- see run_private.h. */
void
lab_fold_run_rows_reset (worker_t *w)
{
   if (w->have_rows_key) {
      bson_value_destroy (&w->rows_key);
      w->have_rows_key = false;
   }
   memset (&w->rows_stats, 0, sizeof w->rows_stats);
}
