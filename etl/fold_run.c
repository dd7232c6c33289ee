/*
 * fold_run.c -- fold-details' store-driven half (see fold_run.h), its driver: the option checks, then the
 * phases plan (fold_run_plan.c, and fold_run_describe.c for --plan), prepare (here: replace what a fresh run
 * replaces), execute (fold_run_range.c: one worker per key range, each range's tries; fold_run_write.c: its
 * write batches and checkpoints) and merge (here: the workers' totals, the reject file, the checkpoint marked
 * complete). The checkpoint collection's documents are read and written in fold_run_checkpoint.c.
 */
#include "fold_run_private.h"

#include "retry.h"

#include "core/layout.h"

/* lab_fold_run_opts_check -- see fold_run.h. */
bool
lab_fold_run_opts_check (const lab_fold_run_opts_t *o, bson_error_t *error)
{
   if (!o->target.src || !o->target.src[0] || !o->target.dst || !o->target.dst[0]) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING, "--src and --dst are required");
      return false;
   }
   if (strcmp (o->target.src, o->target.dst) == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--dst '%s' is the same collection as --src: folding in place would destroy the source; "
                     "name another destination",
                     o->target.dst);
      return false;
   }
   if (o->parallel < 0 || o->parallel > LAB_FOLD_MAX_PARALLEL) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--parallel %d is out of range [1, %d]",
                     o->parallel, LAB_FOLD_MAX_PARALLEL);
      return false;
   }
   if (o->target.max_doc_bytes < 0 || o->target.max_doc_bytes > INT32_MAX) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--max-doc-bytes %lld is out of range",
                     (long long)o->target.max_doc_bytes);
      return false;
   }
   if (o->batch_bytes > 0 && o->batch_bytes < 1024) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--batch-bytes %llu is below 1 KiB",
                     (unsigned long long)o->batch_bytes);
      return false;
   }
   if (o->resume && o->drop_dst) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--resume and --drop-dst contradict each other: pick one");
      return false;
   }
   if (o->on_oversize == LAB_FOLD_OVERSIZE_REJECT && !o->reject_path) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--on-oversize reject needs --reject FILE for the rejected rows");
      return false;
   }
   if (o->copy_only && o->resume) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT, "--copy-only runs cannot be resumed");
      return false;
   }
   if (o->target.bucket_rows < 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--bucket-rows %d must be 1 or more",
                     o->target.bucket_rows);
      return false;
   }
   if (o->target.bucket_by) {
      char *field;
      lab_fold_bucket_unit_t unit;

      if (!lab_fold_bucket_spec_parse (o->target.bucket_by, &field, &unit, error)) {
         return false;
      }
      bson_free (field);
   }
   if (lab_fold_shape_rows (o->target.shape) && o->copy_only) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--shape %s already writes the rows unchanged: --copy-only (the ceiling without "
                     "checkpoints) does not combine with it",
                     lab_fold_shape_name (o->target.shape));
      return false;
   }
   if (lab_fold_shape_rows (o->target.shape) && (o->target.bucket_rows > 0 || o->target.bucket_by)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--shape %s writes one document per row: --bucket-rows and --bucket-by do not apply",
                     lab_fold_shape_name (o->target.shape));
      return false;
   }
   if (o->target.shape == LAB_FOLD_SHAPE_COPY && !lab_fold_run_copy_opts_check (o, error)) {
      return false;
   }
   if (o->copy_only && (o->target.bucket_rows > 0 || o->target.bucket_by)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--copy-only writes rows unchanged: --bucket-rows and --bucket-by do not apply");
      return false;
   }
   return true;
}

/* lab_fold_run_result_cleanup -- see fold_run.h. */
void
lab_fold_run_result_cleanup (lab_fold_run_result_t *result)
{
   if (result->plan) {
      bson_destroy (result->plan);
      result->plan = NULL;
   }
   if (result->key_types) {
      bson_destroy (result->key_types);
      result->key_types = NULL;
   }
   bson_strfreev (result->hoisted);
   bson_strfreev (result->rejected_key_ids);
   result->hoisted = NULL;
   result->rejected_key_ids = NULL;
}

/* lab_fold_run_provenance -- see fold_run_private.h: the caller's fields, source, and the run's settings as
 * params (those of the checkpoint's settings document, plus the store's block compressor). */
bson_t *
lab_fold_run_provenance (const run_t *r, bool state)
{
   bson_t *doc, *settings, params;
   const char *bc;
   lab_layout_t layout;
   bson_error_t error;

   if (!r->o->provenance) {
      return NULL;
   }
   doc = bson_copy (r->o->provenance);
   BSON_APPEND_UTF8 (doc, "source", r->o->target.src);
   if (state) {
      BSON_APPEND_UTF8 (doc, "checkpoint_of", r->o->target.dst);
   }
   settings = lab_fold_run_settings_doc (r, r->nbounds + 1, false);
   bson_init (&params);
   bson_copy_to_excluding_noinit (settings, &params, "_id", "tool", "src", "bounds", "complete", NULL);
   bc = lab_store_block_compressor (r->store);
   BSON_APPEND_UTF8 (&params, "block_compressor", bc ? bc : "server default");
   BSON_APPEND_BOOL (&params, "copy_only", r->o->copy_only);
   if (r->key_types.counted) {
      /* allowed mixed key types: scancmp and a reader of the marker see why masters outnumber keys */
      lab_fold_run_key_types_append (r, &params);
   }
   if (lab_layout_from_fold (&params, NULL, r->o->target.dst, &layout, &error)) {
      /* what the destination is, in one value (core/layout.h): scancmp reads it instead of the settings */
      lab_layout_append (&params, "descriptor", &layout);
   } else {
      lab_log_debug ("no layout descriptor for %s: %s", r->o->target.dst, error.message);
   }
   BSON_APPEND_DOCUMENT (doc, "params", &params);
   bson_destroy (&params);
   if (r->o->target.shape == LAB_FOLD_SHAPE_COPY) {
      lab_fold_run_copy_describe (r, doc); /* the indexes the copy gets, and those it does not */
   }
   bson_destroy (settings);
   return doc;
}

/* strp_cmp -- qsort order of C strings (the rejected masters' ids). */
static int
strp_cmp (const void *a, const void *b)
{
   return strcmp (*(char *const *)a, *(char *const *)b);
}

/* lost_marker -- *mark: the destination's marker to write (caller destroys; NULL: none): a fresh run's;
 * on --resume, the run's when the destination is not there (the run stopped before creating it: this one
 * creates it), or when the run that created it stopped before its marker was written (a full disk, a
 * kill) while its checkpoint collection, written first and marked, says this fold made it. */
static bool
lost_marker (run_t *r, lab_store_session_t *sess, bool dst_exists, bson_t **mark, bson_error_t *error)
{
   bson_t *dm = NULL, *sm = NULL;
   bool ok;

   *mark = NULL;
   if (!r->resume || !dst_exists) {
      *mark = lab_fold_run_provenance (r, false);
      return true;
   }
   ok = lab_store_mark_get (sess, r->o->target.dst, &dm, NULL, error) &&
        lab_store_mark_get (sess, r->state_coll, &sm, NULL, error);
   if (ok && !dm && sm) {
      lab_log_info ("'%s' has no _layoutlab record (the run that created it stopped before writing it); its "
                    "checkpoint collection '%s' is this fold's: recorded again",
                    r->o->target.dst, r->state_coll);
      *mark = lab_fold_run_provenance (r, false);
   }
   bson_destroy (dm);
   bson_destroy (sm);
   return ok;
}

/* prepare -- only now replace what a fresh run replaces; the settings checkpoint, the destination and
 * its key index, the reject file; count the source when a progress bar wants a total. */
static bool
prepare (run_t *r, lab_store_session_t *sess, bool dst_exists, int nranges, bson_error_t *error)
{
   const lab_fold_run_opts_t *o = r->o;

   if (!r->resume) {
      /* the destination first, then its checkpoint: a run stopped between the two leaves a checkpoint
       * without its destination, which --resume refuses by name (resume_dst_check) */
      if (dst_exists && o->drop_dst && !lab_store_drop (sess, o->target.dst, error)) {
         return false;
      }
      if (o->kill_after_drop && dst_exists && o->drop_dst) {
         /* test hook: die in that window, the drop made durable first (as kill_after_batches does) */
         bson_error_t ignored;
         lab_store_flush (r->store, &ignored);
         raise (SIGKILL);
      }
      if (!lab_store_drop (sess, r->state_coll, error)) {
         return false;
      }
   }
   if (!o->copy_only && !r->resume) {
      bson_t *sdoc, *mark = lab_fold_run_provenance (r, true);
      bool ok;

      ok = lab_store_create (sess, r->state_coll, error) &&
           (!mark || lab_store_mark_put (sess, r->state_coll, mark, error));
      bson_destroy (mark);
      if (!ok) {
         return false;
      }
      sdoc = lab_fold_run_settings_doc (r, nranges, false);
      ok = lab_store_upsert_by_id (sess, r->state_coll, sdoc, error);
      bson_destroy (sdoc);
      if (!ok) {
         return false;
      }
   }
   {
      /* the marker before the first document: a killed run's partial destination is still layoutlab's
       * (a resumed one keeps its own, unless it was lost) */
      bson_t *mark = NULL;
      bool clustered = o->target.shape == LAB_FOLD_SHAPE_CLUSTERED;
      if (!lost_marker (r, sess, dst_exists, &mark, error)) {
         return false;
      }
      /* a clustered destination: its _id index is the record table, led by the key; no key index. A copy:
       * the source's own indexes, built after the data (lab_fold_run_copy_build) */
      bool key_index = !clustered && o->target.shape != LAB_FOLD_SHAPE_COPY;
      bool ok = (clustered ? lab_store_create_clustered (sess, o->target.dst, error)
                           : lab_store_create (sess, o->target.dst, error)) &&
                (!mark || lab_store_mark_put (sess, o->target.dst, mark, error)) &&
                (!key_index || lab_store_create_index (sess, o->target.dst, r->fold_opts.key, error));
      bson_destroy (mark);
      if (!ok) {
         lab_error_prefix (error, "preparing '%s'", o->target.dst);
         return false;
      }
   }
   /* fold-details opens the embedded store unlogged (journal_tables): the settings, the destination, its
    * marker and key index durable before the first row, so that a kill at any later point leaves what
    * --resume continues */
   if (!lab_store_flush (r->store, error)) {
      return false;
   }
   if (o->reject_path) {
      r->reject = fopen (o->reject_path, r->resume ? "a" : "w");
      if (!r->reject) {
         lab_error_set_errno (error, errno, "opening the reject file '%s'", o->reject_path);
         return false;
      }
   }
   lab_log_debug ("folding '%s' into '%s': key %s, %d range(s), cap %lld bytes, batches of %lld "
                  "docs / %lld bytes",
                  o->target.src, o->target.dst, r->fold_opts.key, nranges,
                  (long long)r->fold_opts.max_doc_bytes, (long long)r->batch_docs, (long long)r->batch_bytes);
   /* the total only feeds the progress bar's ETA: the metadata's estimate, no scan */
   if (lab_progress_enabled (o->progress) &&
       !lab_store_count_estimated (sess, o->target.src, &r->src_rows, error)) {
      return false;
   }
   return true;
}

/* merge_totals -- the workers' counts into *result (also after a failure: filled as far as the run got)
 * and the rejected masters' ids, sorted (taken from the workers). */
static void
merge_totals (worker_t *ws, int nranges, lab_fold_run_result_t *result)
{
   size_t nrej = 0, k;
   int i;

   for (i = 0; i < nranges; i++) {
      worker_t *w = &ws[i];
      result->rows_in += w->stats.rows_in;
      result->docs_out += w->stats.docs_out;
      result->masters += w->stats.masters;
      result->masters_split += w->stats.masters_split;
      result->masters_rejected += w->stats.masters_rejected;
      result->rows_rejected += w->stats.rows_rejected;
      if (w->stats.largest_doc_bytes > result->largest_doc_bytes) {
         result->largest_doc_bytes = w->stats.largest_doc_bytes;
      }
      result->write_errors += w->write_errors;
      result->peak_buffer_bytes += w->peak_buffer_bytes; /* workers hold theirs at the same time */
      result->batches += w->batches;
      nrej += w->nrejected;
   }
   result->rejected_key_ids = bson_malloc0 ((nrej + 1) * sizeof (char *));
   nrej = 0;
   for (i = 0; i < nranges; i++) {
      for (k = 0; k < ws[i].nrejected; k++) {
         result->rejected_key_ids[nrej++] = ws[i].rejected[k];
      }
      bson_free (ws[i].rejected);
      ws[i].rejected = NULL;
   }
   qsort (result->rejected_key_ids, nrej, sizeof (char *), strp_cmp);
   result->ranges = nranges;
}

/* finish -- close the reject file, make everything durable, and mark the checkpoint complete. */
static bool
finish (run_t *r, lab_store_session_t *sess, int nranges, bson_error_t *error)
{
   bson_t *sdoc;
   bool ok;

   if (r->reject && fclose (r->reject) != 0) {
      r->reject = NULL;
      lab_error_set_errno (error, errno, "closing the reject file '%s'", r->o->reject_path);
      return false;
   }
   r->reject = NULL;
   if (!lab_store_flush (r->store, error)) {
      return false;
   }
   if (r->o->copy_only) {
      return true;
   }
   sdoc = lab_fold_run_settings_doc (r, nranges, true);
   ok = lab_store_upsert_by_id (sess, r->state_coll, sdoc, error) && lab_store_flush (r->store, error);
   bson_destroy (sdoc);
   return ok;
}

/* run_init -- the run of options `o` on `store`: the fold's options, the checkpoint collection. */
static bool
run_init (run_t *r, lab_store_t *store, const lab_fold_run_opts_t *o, bson_error_t *error)
{
   memset (r, 0, sizeof *r);
   bson_init (&r->explain);
   bson_init (&r->copy_build);
   bson_init (&r->copy_skip);
   r->store = store;
   r->o = o;
   r->t0_ns = lab_now_ns ();
   pthread_mutex_init (&r->reject_lock, NULL);
   if (!lab_fold_run_opts_check (o, error)) {
      return false;
   }
   r->state_coll = lab_fold_run_state_coll (o->target.dst);
   /* a copy's every document is its own master: --verify sums each by its _id */
   r->fold_opts.key = o->target.shape == LAB_FOLD_SHAPE_COPY ? "_id"
                      : o->target.key                        ? o->target.key
                                                             : "bill_id";
   r->fold_opts.array_field = o->target.array_field ? o->target.array_field : "details";
   r->fold_opts.on_oversize = o->on_oversize;
   r->fold_opts.bucket_rows = o->target.bucket_rows;
   if (o->target.bucket_by) {
      if (!lab_fold_bucket_spec_parse (o->target.bucket_by, &r->bucket_field, &r->fold_opts.bucket_unit,
                                       error)) {
         return false;
      }
      r->fold_opts.bucket_field = r->bucket_field;
   }
   r->resume = o->resume;
   r->index_build_s = -1;
   return true;
}

/* run_result -- what the run found into *result, also after a failure (`ok` false, `error` set): the
 * limits in force, the retries, the ranges and the hoist list (taken from the run). */
static void
run_result (run_t *r, bool ok, const bson_error_t *error, lab_fold_run_result_t *result)
{
   const lab_fold_run_opts_t *o = r->o;

   result->elapsed_s = (double)(lab_now_ns () - r->t0_ns) / 1e9;
   result->max_doc_bytes = r->fold_opts.max_doc_bytes;
   result->batch_bytes = r->batch_bytes;
   result->retries = atomic_load (&r->retries);
   result->index_build_s = r->index_build_s;
   result->gave_up_transient = !ok && !o->plan_only && !o->copy_only && lab_store_error_transient (error);
   if (!result->ranges) {
      result->ranges = r->nbounds + 1; /* also when the plan stopped after reading or splitting the ranges */
   }
   if (!result->hoisted && r->hoist) {
      result->hoisted = r->hoist;
      r->hoist = NULL;
   }
}

/* lab_fold_run_journal -- see fold_run.h. fold-details opens the embedded store unlogged, as billgen
 * generate does and as mongod creates a replica set member's tables: the fold's rows are not compressed
 * and written a second time into the journal, and a kill loses only what came after the last checkpoint
 * (WiredTiger's every 60 s, prepare's, finish's), whose state the checkpoint collection, in the same
 * checkpoint, records for --resume. Once the fold is complete and flushed, its tables are journaled. */
bool
lab_fold_run_journal (lab_store_t *store, const lab_fold_run_opts_t *o, bson_error_t *error)
{
   char *state = lab_fold_run_state_coll (o->target.dst);
   const char *colls[] = { o->target.dst, state, LAB_MARK_COLL };
   lab_store_session_t *sess = lab_store_session_open (store, error);
   bool exists[3], ok = sess != NULL;
   size_t i;

   for (i = 0; ok && i < 3; i++) {
      ok = lab_store_exists (sess, colls[i], &exists[i], error);
   }
   lab_store_session_close (sess); /* before the alters: no cursor may stay open on the tables */
   for (i = 0; ok && i < 3; i++) {
      if (exists[i] && !lab_store_set_journaled (store, colls[i], error)) {
         lab_error_prefix (error, "the fold is complete and durable, but '%s' stays unjournaled", colls[i]);
         ok = false;
      }
   }
   bson_free (state);
   return ok;
}

/* journal_tables -- a complete run's last step (also when a resumed fold had completed: its run may have
 * stopped before this): the session closed, lab_fold_run_journal, unless the caller defers it. */
static bool
journal_tables (run_t *r, lab_store_session_t **sess, bson_error_t *error)
{
   if (r->o->defer_journal) {
      return true;
   }
   lab_store_session_close (*sess);
   *sess = NULL;
   return lab_fold_run_journal (r->store, r->o, error);
}

/* run_release -- what the run and its workers hold. */
static void
run_release (run_t *r, worker_t *ws, lab_store_session_t *sess)
{
   lab_progress_done (r->progress);
   if (r->reject) {
      fclose (r->reject);
   }
   lab_fold_run_workers_free (ws, r->nbounds + 1);
   lab_store_session_close (sess);
   bson_strfreev (r->hoist);
   lab_store_values_free (r->bounds, r->nbounds);
   bson_free (r->state_coll);
   bson_free (r->bucket_field);
   bson_destroy (&r->explain);
   bson_destroy (&r->copy_build);
   bson_destroy (&r->copy_skip);
   pthread_mutex_destroy (&r->reject_lock);
}

/* lab_fold_run -- see fold_run.h: plan, prepare, execute, merge. */
bool
lab_fold_run (lab_store_t *store, const lab_fold_run_opts_t *o, lab_fold_run_result_t *result,
              bson_error_t *error)
{
   run_t r;
   lab_store_session_t *sess = NULL;
   worker_t *ws = NULL;
   bool dst_exists = false, complete = false, ran, ok = false;
   int nranges;

   memset (result, 0, sizeof *result);
   if (!run_init (&r, store, o, error)) {
      goto done;
   }
   sess = lab_store_session_open (store, error);
   if (!sess || !lab_fold_run_plan (&r, sess, result, &dst_exists, &complete, error)) {
      goto done;
   }
   nranges = r.nbounds + 1;
   if (r.key_types.counted && !o->plan_only) {
      result->key_types = bson_new ();
      lab_fold_run_key_types_append (&r, result->key_types);
   }
   if (o->plan_only) {
      ok = lab_fold_run_plan_describe (&r, sess, complete, result, error);
      goto done;
   }
   if (complete) {
      ok = journal_tables (&r, &sess, error); /* the hoist list and ranges are reported below */
      goto done;
   }
   if (!prepare (&r, sess, dst_exists, nranges, error)) {
      goto done;
   }
   ws = lab_fold_run_workers_new (&r, nranges);
   ran = lab_fold_run_execute (&r, ws, nranges, error);
   merge_totals (ws, nranges, result);
   /* a copy's indexes after its data, before the checkpoint says complete (a resumed copy builds them) */
   if (ran && o->target.shape == LAB_FOLD_SHAPE_COPY) {
      ran = lab_fold_run_copy_build (&r, sess, error);
   }
   if (!ran || !finish (&r, sess, nranges, error) || !journal_tables (&r, &sess, error)) {
      goto done;
   }
   ok = true;
done:
   run_result (&r, ok, error, result);
   run_release (&r, ws, sess);
   return ok;
}
