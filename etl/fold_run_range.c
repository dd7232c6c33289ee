/*
 * fold_run_range.c -- the execute phase: one worker per key range through the pool (core/workers.h), each
 * with its own session, sorted cursor and folder; a range's tries, each after a transient error
 * (retry.h) starting again from its last checkpoint, as --resume does (documents written past the
 * checkpoint deleted first).
 */
#include "fold_run_private.h"

#include "core/workers.h"
#include "retry.h"

#include <unistd.h>

/* cleanup_beyond -- resume: delete the documents of masters in this range past the checkpoint. */
static bool
cleanup_beyond (worker_t *w, const bson_value_t *last, bson_error_t *error)
{
   run_t *r = w->run;
   lab_store_sorted_opts_t so = { 0 };
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bson_iter_t it;
   bson_value_t *keys = NULL;
   size_t nkeys = 0, i;
   int rc;
   bool ok = false;
   int64_t deleted, total = 0;

   so.lo = last ? last : w->lo;
   so.hi = w->hi;
   so.batch_docs = r->o->cursor_batch_docs;
   cur = lab_store_sorted_open (w->sess, r->o->target.dst, r->fold_opts.key, &so, error);
   if (!cur) {
      goto done;
   }
   while ((rc = lab_store_cursor_next (cur, &doc, error)) == 1) {
      if (!bson_iter_init_find (&it, doc, r->fold_opts.key)) {
         continue;
      }
      if (last && lab_store_value_compare (bson_iter_value (&it), last) <= 0) {
         continue;
      }
      if (nkeys > 0 && lab_store_value_compare (bson_iter_value (&it), &keys[nkeys - 1]) == 0) {
         continue;
      }
      keys = bson_realloc (keys, (nkeys + 1) * sizeof *keys);
      bson_value_copy (bson_iter_value (&it), &keys[nkeys++]);
   }
   lab_store_cursor_close (cur);
   if (rc < 0) {
      goto done;
   }
   for (i = 0; i < nkeys; i++) {
      if (!lab_store_delete_eq (w->sess, r->o->target.dst, r->fold_opts.key, &keys[i], &deleted, error)) {
         goto done;
      }
      total += deleted;
   }
   if (nkeys > 0) {
      lab_log_info ("resume: range %d: removed %lld documents of %zu masters written after the checkpoint",
                    w->index, (long long)total, nkeys);
   }
   ok = true;
done:
   if (!ok) {
      lab_error_prefix (error, "--resume: cleaning range %d of '%s'", w->index, r->o->target.dst);
   }
   for (i = 0; i < nkeys; i++) {
      bson_value_destroy (&keys[i]);
   }
   bson_free (keys);
   return ok;
}

/* worker_resume -- resume: a range done before is skipped (*skip); else the master it had written last
 * (*last, *have_last) and the documents written past it removed. */
static bool
worker_resume (worker_t *w, bson_value_t *last, bool *have_last, bool *skip, bson_error_t *error)
{
   run_t *r = w->run;
   bson_t *ck = NULL;
   bson_iter_t it;
   char id[32];
   bool ok = false;

   snprintf (id, sizeof id, "range-%d", w->index);
   if (!lab_fold_run_find_state (w->sess, r->state_coll, id, &ck, error)) {
      goto done;
   }
   if (ck && bson_iter_init_find (&it, ck, "done") && bson_iter_as_bool (&it)) {
      *skip = true;
      ok = true;
      goto done;
   }
   if (ck && bson_iter_init_find (&it, ck, "last_key")) {
      bson_value_copy (bson_iter_value (&it), last);
      *have_last = true;
      lab_fold_run_set_candidate (w, last);
   }
   /* clustered, copy: the copy starts again from the first row, the rows written before taking their place
    * again (a taken _id is that same row: lab_fold_run_flush counts it as written) */
   ok = lab_fold_shape_natural (r->o->target.shape) || cleanup_beyond (w, *have_last ? last : NULL, error);
done:
   bson_destroy (ck);
   return ok;
}

/* copy_row -- --copy-only: the row goes to the write batch as it is. */
static bool
copy_row (worker_t *w, const bson_t *row, bson_error_t *error)
{
   w->stats.rows_in++;
   w->stats.docs_out++;
   if ((int64_t)row->len > w->stats.largest_doc_bytes) {
      w->stats.largest_doc_bytes = row->len;
   }
   if ((int64_t)(w->batch_len + row->len) > w->peak_buffer_bytes) {
      w->peak_buffer_bytes = (int64_t)(w->batch_len + row->len);
   }
   return lab_fold_run_add_doc (w, bson_copy (row), error);
}

/* worker_read -- the range's rows in key order (from past `last` when resuming) into the fold or, with
 * --copy-only or --shape sorted, the batch (--shape clustered, copy: the whole source in natural order);
 * *stopped when another worker failed (it reports). */
static bool
worker_read (worker_t *w, lab_fold_t *fold, const bson_value_t *last, bool *stopped, bson_error_t *error)
{
   run_t *r = w->run;
   lab_store_sorted_opts_t so = { 0 };
   lab_store_cursor_t *cur;
   const bson_t *row;
   bson_iter_t it;
   int64_t pending_rows = 0, pending_bytes = 0;
   bool ok = false, natural = lab_fold_shape_natural (r->o->target.shape);
   int rc;

   so.lo = last ? last : w->lo;
   so.hi = w->hi;
   so.batch_docs = r->o->cursor_batch_docs;
   so.fetch_ahead_rows = r->o->fetch_ahead_rows;
   if (natural) {
      lab_store_natural_opts_t no = { { 0, 0 }, r->o->cursor_batch_docs };
      cur = lab_store_natural_open (w->sess, r->o->target.src, &no, error);
   } else {
      cur = lab_store_sorted_open (w->sess, r->o->target.src, r->fold_opts.key, &so, error);
   }
   if (!cur) {
      lab_error_prefix (error, "reading '%s' %s '%s'", r->o->target.src,
                        natural ? "in natural order, not by" : "sorted by", r->fold_opts.key);
      return false;
   }
   while ((rc = lab_store_cursor_next (cur, &row, error)) == 1) {
      if (atomic_load (&r->stop)) {
         *stopped = true;
         ok = true;
         goto done;
      }
      if (last && bson_iter_init_find (&it, row, r->fold_opts.key) &&
          lab_store_value_compare (bson_iter_value (&it), last) == 0) {
         continue; /* the checkpointed master is written */
      }
      if (fold && !lab_fold_push_row (fold, row, error)) {
         lab_error_prefix (error, "folding '%s'", r->o->target.src);
         goto done;
      }
      if (!fold && r->o->copy_only && !copy_row (w, row, error)) {
         goto done;
      }
      if (natural) {
         if (!lab_fold_run_natural_push (w, row, error)) {
            lab_error_prefix (error, "copying '%s' in arrival order", r->o->target.src);
            goto done;
         }
      } else if (!fold && !r->o->copy_only && !lab_fold_run_rows_push (w, row, error)) {
         lab_error_prefix (error, "copying '%s' in '%s' order", r->o->target.src, r->fold_opts.key);
         goto done;
      }
      pending_rows++;
      pending_bytes += row->len;
      if (pending_rows == 512) {
         lab_progress_add (r->progress, (uint64_t)pending_rows, (uint64_t)pending_bytes);
         pending_rows = pending_bytes = 0;
      }
   }
   if (rc < 0) {
      lab_error_prefix (error, "reading '%s' sorted by '%s'", r->o->target.src, r->fold_opts.key);
      goto done;
   }
   ok = true;
done:
   lab_progress_add (r->progress, (uint64_t)pending_rows, (uint64_t)pending_bytes);
   lab_store_cursor_close (cur);
   return ok;
}

/* stats_add -- a + b (the largest document: the larger). */
static lab_fold_stats_t
stats_add (lab_fold_stats_t a, const lab_fold_stats_t *b)
{
   a.rows_in += b->rows_in;
   a.masters += b->masters;
   a.docs_out += b->docs_out;
   a.masters_split += b->masters_split;
   a.masters_rejected += b->masters_rejected;
   a.rows_rejected += b->rows_rejected;
   if (b->largest_doc_bytes > a.largest_doc_bytes) {
      a.largest_doc_bytes = b->largest_doc_bytes;
   }
   return a;
}

/* count_masters -- --shape clustered: the rows came in arrival order, so the masters are counted from the
 * source's key index (its distinct keys) rather than as the read crossed them. */
static bool
count_masters (worker_t *w, bson_error_t *error)
{
   bson_value_t *keys = NULL;
   int64_t n = 0;

   if (!lab_store_distinct_keys (w->sess, w->run->o->target.src, w->run->fold_opts.key, &keys, &n, error)) {
      lab_error_prefix (error, "counting the masters of '%s'", w->run->o->target.src);
      return false;
   }
   lab_store_values_free (keys, (int)n);
   w->rows_stats.masters = n;
   atomic_fetch_add (&w->run->masters_done, n);
   return true;
}

/* worker_try -- one try at a key range, start (or its checkpoint, `from_checkpoint`) to end: resume
 * point, read and fold, the last batch, the range's checkpoint. */
static bool
worker_try (worker_t *w, bool from_checkpoint, bson_error_t *error)
{
   run_t *r = w->run;
   lab_fold_t *fold = NULL;
   bson_value_t last;
   bool have_last = false, stopped = false, ok = false;

   w->sess = lab_store_session_open (r->store, error);
   if (!w->sess) {
      return false;
   }
   if (from_checkpoint && !worker_resume (w, &last, &have_last, &w->skipped, error)) {
      goto done;
   }
   if (w->skipped) {
      ok = true;
      goto done;
   }
   lab_fold_run_rows_reset (w);
   if (!r->o->copy_only && !lab_fold_shape_rows (r->o->target.shape)) {
      fold = lab_fold_new (&r->fold_opts, lab_fold_run_emit_cb, lab_fold_run_reject_cb, w, error);
      if (!fold) {
         goto done;
      }
      w->fold = fold;
   }
   if (!worker_read (w, fold, have_last ? &last : NULL, &stopped, error)) {
      goto done;
   }
   if (stopped) {
      ok = true; /* another worker failed; it reports */
      goto done;
   }
   if (fold && !lab_fold_finish (fold, error)) {
      lab_error_prefix (error, "folding '%s'", r->o->target.src);
      goto done;
   }
   if (!fold) {
      lab_fold_run_rows_finish (w); /* --shape sorted: the last master is complete */
   }
   if (r->o->target.shape == LAB_FOLD_SHAPE_CLUSTERED && !count_masters (w, error)) {
      goto done;
   }
   if (!lab_fold_run_flush (w, error)) {
      goto done;
   }
   if (!r->o->copy_only && !lab_fold_run_checkpoint (w, true, error)) {
      goto done;
   }
   ok = true;
done:
   if (fold) {
      w->stats = stats_add (w->base_stats, lab_fold_stats (fold));
   } else if (!r->o->copy_only) {
      w->stats = stats_add (w->base_stats, &w->rows_stats);
   }
   lab_fold_run_rows_reset (w);
   lab_fold_run_free_batch (w);
   bson_free (w->batch);
   w->batch = NULL;
   w->batch_cap = 0; /* a retry starts with a new batch */
   lab_fold_destroy (fold);
   w->fold = NULL;
   if (have_last) {
      bson_value_destroy (&last);
   }
   lab_store_session_close (w->sess);
   w->sess = NULL;
   return ok;
}

/* retry_reset -- after a failed try: keep the counters up to its last checkpoint, forget what came after
 * (the next try reads it again from the checkpoint). */
static void
retry_reset (worker_t *w)
{
   size_t k;

   w->base_stats = stats_add (w->base_stats, &w->ck_stats);
   memset (&w->ck_stats, 0, sizeof w->ck_stats);
   memset (&w->cand_stats, 0, sizeof w->cand_stats);
   w->stats = w->base_stats;
   for (k = w->ck_nrejected; k < w->nrejected; k++) {
      bson_free (w->rejected[k]);
      w->rejected[k] = NULL;
   }
   w->nrejected = w->ck_nrejected;
   w->cand_nrejected = w->ck_nrejected;
   if (w->have_candidate) {
      bson_value_destroy (&w->candidate);
      w->have_candidate = false;
   }
}

/* retry_wait -- sleep `ms`, waking early when another worker failed; false then. */
static bool
retry_wait (run_t *r, int64_t ms)
{
   int64_t slept;

   for (slept = 0; slept < ms; slept += 100) {
      if (atomic_load (&r->stop)) {
         return false;
      }
      usleep (100 * 1000);
   }
   return !atomic_load (&r->stop);
}

/* worker_run -- the range's tries: after a transient error (retry.h) it starts again from its last
 * checkpoint, up to o->retries times with a growing wait, each logged. --copy-only keeps no checkpoint,
 * so it does not retry. */
static bool
worker_run (worker_t *w, bson_error_t *error)
{
   run_t *r = w->run;
   int64_t first = r->o->retry_first_delay_ms > 0 ? r->o->retry_first_delay_ms : LAB_RETRY_FIRST_DELAY_MS;
   int64_t delay;
   int attempt;

   for (attempt = 0;; attempt++) {
      if (worker_try (w, r->resume || attempt > 0, error)) {
         if (attempt > 0) {
            lab_log_info ("range %d: finished after %d retr%s", w->index, attempt,
                          attempt == 1 ? "y" : "ies");
         }
         return true;
      }
      if (r->o->copy_only || attempt >= r->o->retries || !lab_store_error_transient (error)) {
         if (attempt > 0 && lab_store_error_transient (error)) {
            lab_log_error ("range %d: still failing after %d retries: %s", w->index, attempt, error->message);
         }
         return false;
      }
      delay = lab_fold_retry_delay_ms (attempt + 1, first, LAB_RETRY_MAX_DELAY_MS);
      lab_log_info ("retry: range %d failed with a transient error (domain %u, code %u): %s; try %d of %d "
                    "from its checkpoint in %.1f s",
                    w->index, error->domain, error->code, error->message, attempt + 1, r->o->retries,
                    (double)delay / 1000.0);
      if (!retry_wait (r, delay)) {
         return false;
      }
      retry_reset (w);
      atomic_fetch_add (&r->retries, 1);
   }
}

/* worker_main -- one key range as a worker of the pool (core/workers.h). */
static bool
worker_main (void *arg, int index, bson_error_t *error)
{
   (void)index;
   return worker_run (arg, error);
}

/* stop_workers -- the pool's stop callback: a worker failed, the others end at their next row. */
static void
stop_workers (void *ctx)
{
   run_t *r = ctx;
   atomic_store (&r->stop, 1);
}

/* lab_fold_run_workers_new -- one worker per key range [bounds[i-1], bounds[i]). */
worker_t *
lab_fold_run_workers_new (run_t *r, int nranges)
{
   worker_t *ws = bson_malloc0 ((size_t)nranges * sizeof *ws);
   int i;

   for (i = 0; i < nranges; i++) {
      ws[i].run = r;
      ws[i].index = i;
      ws[i].lo = i > 0 ? &r->bounds[i - 1] : NULL;
      ws[i].hi = i < r->nbounds ? &r->bounds[i] : NULL;
   }
   return ws;
}

/* lab_fold_run_workers_free -- what the workers still hold after the merge. */
void
lab_fold_run_workers_free (worker_t *ws, int nranges)
{
   int i;

   if (!ws) {
      return;
   }
   for (i = 0; i < nranges; i++) {
      if (ws[i].have_candidate) {
         bson_value_destroy (&ws[i].candidate);
      }
      bson_strfreev (ws[i].rejected);
   }
   bson_free (ws);
}

/* lab_fold_run_execute -- the workers through the pool (core/workers.h), under one progress bar; the first
 * failure by range names its range when there are several. */
bool
lab_fold_run_execute (run_t *r, worker_t *ws, int nranges, bson_error_t *error)
{
   lab_workers_t pool = { worker_main, ws, sizeof *ws, stop_workers, r, NULL };
   int failed;
   bool ok;

   r->progress = lab_progress_new (
      r->o->progress, r->o->copy_only || lab_fold_shape_rows (r->o->target.shape) ? "copying" : "folding",
      "rows", (uint64_t)r->src_rows);
   ok = lab_workers_run (&pool, nranges, &failed, error);
   lab_progress_done (r->progress);
   r->progress = NULL;
   if (!ok && r->nbounds > 0) {
      lab_error_prefix (error, "range %d", failed);
   }
   return ok;
}
