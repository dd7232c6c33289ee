/*
 * fold_run_write.c -- a key range's writes: the write batch (flushed as one unordered insert), the
 * checkpoint after every written batch, the fold's callbacks (a finished master queued, a rejected
 * one written to the reject file) and the candidate master a checkpoint may name.
 */
#include "fold_run_private.h"

/* lab_fold_run_free_batch -- see fold_run_private.h. */
void
lab_fold_run_free_batch (worker_t *w)
{
   size_t i;

   for (i = 0; i < w->nbatch; i++) {
      bson_destroy (w->batch[i]);
   }
   w->nbatch = 0;
   w->batch_len = 0;
}

/* lab_fold_run_checkpoint -- record the range's last fully written master (and whether the range is done). */
bool
lab_fold_run_checkpoint (worker_t *w, bool done, bson_error_t *error)
{
   bson_t *d = bson_new ();
   char id[32];
   bool ok;

   snprintf (id, sizeof id, "range-%d", w->index);
   BSON_APPEND_UTF8 (d, "_id", id);
   BSON_APPEND_INT32 (d, "range", w->index);
   if (w->have_candidate) {
      bson_append_value (d, "last_key", -1, &w->candidate);
   }
   BSON_APPEND_BOOL (d, "done", done);
   ok = lab_store_upsert_by_id (w->sess, w->run->state_coll, d, error);
   bson_destroy (d);
   if (!ok) {
      lab_error_prefix (error, "checkpoint of range %d in '%s'", w->index, w->run->state_coll);
   }
   return ok;
}

/* doc_id_text -- a batch document's _id for messages (caller bson_free()s). */
static char *
doc_id_text (const bson_t *doc)
{
   bson_iter_t it;

   if (bson_iter_init_find (&it, doc, "_id")) {
      return lab_value_to_text (bson_iter_value (&it));
   }
   return bson_strdup ("(no _id)");
}

/* dups_written -- --shape clustered or copy: a row whose _id ({key, id}, or the source's own) is taken is
 * that row, written by an earlier try or run (a resumed copy starts again from the first row): not an error.
 * The other errors stay in *res. */
static void
dups_written (worker_t *w, lab_store_insert_result_t *res)
{
   size_t i, kept = 0;
   int64_t dups = 0;

   for (i = 0; i < res->nerrors; i++) {
      if (res->errors[i].domain == LAB_ERROR_STORE && res->errors[i].code == LAB_STORE_ERR_DUPLICATE_KEY) {
         dups++;
      } else if (res->errors[i].domain != LAB_ERROR_STORE && res->errors[i].code == 11000) {
         dups++;
      } else {
         res->errors[kept++] = res->errors[i];
      }
   }
   res->nerrors = kept;
   if (dups > 0) {
      lab_log_debug ("resume: %lld rows of '%s' were written before", (long long)dups, w->run->o->target.dst);
   }
}

/* lab_fold_run_flush -- write the batch (unordered); per-document errors are reported and fail the worker. */
bool
lab_fold_run_flush (worker_t *w, bson_error_t *error)
{
   run_t *r = w->run;
   lab_store_insert_result_t res = { 0 };
   size_t i;
   char *idt;
   bool ok = false;
   long long total;

   if (w->nbatch == 0) {
      return true;
   }
   if (!lab_store_insert_many (w->sess, r->o->target.dst, (const bson_t *const *)w->batch, w->nbatch, &res,
                               error)) {
      lab_error_prefix (error, "writing %zu documents to '%s'", w->nbatch, r->o->target.dst);
      goto done;
   }
   if (res.nerrors > 0 && lab_fold_shape_natural (r->o->target.shape)) {
      dups_written (w, &res);
   }
   if (res.nerrors > 0) {
      for (i = 0; i < res.nerrors && i < WRITE_ERRORS_SHOWN; i++) {
         idt =
            res.errors[i].index < w->nbatch ? doc_id_text (w->batch[res.errors[i].index]) : bson_strdup ("?");
         lab_log_error ("'%s': document _id %s not written: %s (code %u)", r->o->target.dst, idt,
                        res.errors[i].message, res.errors[i].code);
         bson_free (idt);
      }
      if (res.nerrors > WRITE_ERRORS_SHOWN) {
         lab_log_error ("'%s': ... and %zu more documents of that batch not written", r->o->target.dst,
                        res.nerrors - WRITE_ERRORS_SHOWN);
      }
      w->write_errors += (int64_t)res.nerrors;
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "%zu of %zu documents of a batch were refused by '%s' (first: %s); the checkpoint stays "
                     "before them, so --resume retries them",
                     res.nerrors, w->nbatch, r->o->target.dst, res.errors[0].message);
      goto done;
   }
   w->batches++;
   total = atomic_fetch_add (&r->batches_done, 1) + 1;
   if (r->o->kill_after_batches > 0 && total == r->o->kill_after_batches) {
      /* test hook: die between a written batch and its checkpoint, the worst moment. The batch is made
       * durable first (embedded: a WiredTiger checkpoint), as it would be on a server that acknowledged
       * it; without this an embedded run this short loses everything since its last checkpoint. */
      bson_error_t ignored;
      lab_store_flush (r->store, &ignored);
      raise (SIGKILL);
   }
   if (!r->o->copy_only && !lab_fold_run_checkpoint (w, false, error)) {
      goto done;
   }
   w->ck_stats = w->cand_stats;
   w->ck_nrejected = w->cand_nrejected;
   ok = true;
done:
   lab_store_insert_result_cleanup (&res);
   lab_fold_run_free_batch (w);
   return ok;
}

/* lab_fold_run_add_doc -- queue a document (the batch takes it), flushing first when it would overflow. */
bool
lab_fold_run_add_doc (worker_t *w, bson_t *doc, bson_error_t *error)
{
   run_t *r = w->run;

   if (w->nbatch > 0 &&
       ((int64_t)w->nbatch >= r->batch_docs || (int64_t)(w->batch_len + doc->len) > r->batch_bytes)) {
      if (!lab_fold_run_flush (w, error)) {
         bson_destroy (doc);
         return false;
      }
   }
   if (w->nbatch == w->batch_cap) {
      w->batch_cap = w->batch_cap ? 2 * w->batch_cap : 64;
      w->batch = bson_realloc (w->batch, w->batch_cap * sizeof (bson_t *));
   }
   w->batch[w->nbatch++] = doc;
   w->batch_len += doc->len;
   return true;
}

/* lab_fold_run_set_candidate -- see fold_run_private.h (a copy of key). */
void
lab_fold_run_set_candidate (worker_t *w, const bson_value_t *key)
{
   if (w->have_candidate) {
      bson_value_destroy (&w->candidate);
   }
   bson_value_copy (key, &w->candidate);
   w->have_candidate = true;
}

/* snapshot_candidate -- the fold's counters through the candidate master (the emit and reject callbacks
 * run inside the fold's finish of a master, which counts the master only after them). */
static void
snapshot_candidate (worker_t *w)
{
   if (w->fold) {
      w->cand_stats = *lab_fold_stats (w->fold);
      w->cand_stats.masters++;
   }
   w->cand_nrejected = w->nrejected;
}

/* lab_fold_run_note_master -- count a finished master; every 1024th updates the progress bar's masters/s. */
void
lab_fold_run_note_master (worker_t *w)
{
   run_t *r = w->run;
   long long m = atomic_fetch_add (&r->masters_done, 1) + 1;
   double s;
   char extra[96];

   if ((m & 1023) == 0) {
      s = (double)(lab_now_ns () - r->t0_ns) / 1e9;
      snprintf (extra, sizeof extra, "masters %lld (%.0f/s)", m, s > 0 ? (double)m / s : 0.0);
      lab_progress_set_extra (r->progress, extra);
   }
}

/* lab_fold_run_emit_cb -- a finished master: queue its documents, then it may be checkpointed. */
bool
lab_fold_run_emit_cb (void *ctx, const bson_value_t *key, bson_t **docs, size_t ndocs, int64_t nrows,
                      bson_error_t *error)
{
   worker_t *w = ctx;
   size_t i;
   int64_t held = (int64_t)w->batch_len + (int64_t)lab_fold_buffered_bytes (w->fold);

   for (i = 0; i < ndocs; i++) {
      held += docs[i]->len;
   }
   if (held > w->peak_buffer_bytes) {
      w->peak_buffer_bytes = held;
   }
   for (i = 0; i < ndocs; i++) {
      if (!lab_fold_run_add_doc (w, docs[i], error)) {
         for (i++; i < ndocs; i++) {
            bson_destroy (docs[i]);
         }
         return false;
      }
   }
   lab_fold_run_set_candidate (w, key);
   snapshot_candidate (w);
   lab_fold_run_note_master (w);
   return true;
}

/* lab_fold_run_reject_cb -- one JSON line per row: {key, reason, row}. */
bool
lab_fold_run_reject_cb (void *ctx, const bson_value_t *key, const bson_t *const *rows, size_t nrows,
                        const char *reason, bson_error_t *error)
{
   worker_t *w = ctx;
   run_t *r = w->run;
   size_t i;
   bool ok = true;
   char *line, *kid;
   bson_t d;

   pthread_mutex_lock (&r->reject_lock);
   for (i = 0; i < nrows && ok; i++) {
      bson_init (&d);
      bson_append_value (&d, "key", 3, key);
      BSON_APPEND_UTF8 (&d, "reason", reason);
      BSON_APPEND_DOCUMENT (&d, "row", rows[i]);
      line = bson_as_relaxed_extended_json (&d, NULL);
      if (fputs (line, r->reject) == EOF || fputc ('\n', r->reject) == EOF) {
         lab_error_set_errno (error, errno, "writing the reject file '%s'", r->o->reject_path);
         ok = false;
      }
      bson_free (line);
      bson_destroy (&d);
   }
   if (ok && fflush (r->reject) != 0) {
      lab_error_set_errno (error, errno, "writing the reject file '%s'", r->o->reject_path);
      ok = false;
   }
   pthread_mutex_unlock (&r->reject_lock);
   if (!ok) {
      return false;
   }
   kid = lab_fold_key_id (key, error);
   if (!kid) {
      return false;
   }
   w->rejected = bson_realloc (w->rejected, (w->nrejected + 2) * sizeof (char *));
   w->rejected[w->nrejected++] = kid;
   w->rejected[w->nrejected] = NULL;
   lab_log_info ("rejected: %s", reason);
   lab_fold_run_set_candidate (w, key);
   snapshot_candidate (w);
   lab_fold_run_note_master (w);
   return true;
}
