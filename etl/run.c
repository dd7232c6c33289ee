/*
 * run.c -- fold-details' store-driven half (see run.h): one worker per key range, each with its own
 * session, sorted cursor, folder and write batch; the checkpoint after every written batch; resume;
 * the reject file.
 */
#include "run.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/keyenc.h"
#include "core/opts.h"
#include "core/workers.h"
#include "retry.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_BATCH_DOCS 1000
#define DEFAULT_BATCH_BYTES (16 * 1024 * 1024)
#define DEFAULT_SAMPLE_MASTERS 200
#define MAX_PARALLEL 64
#define WRITE_ERRORS_SHOWN 10

typedef struct run run_t;

typedef struct {
   run_t *run;
   int index;
   const bson_value_t *lo; /* range [lo, hi); NULL: unbounded */
   const bson_value_t *hi;
   lab_session_t *sess;
   bson_t **batch;
   size_t nbatch;
   size_t batch_cap;
   size_t batch_len;
   bson_value_t candidate; /* last master whose documents are all in the batch or written */
   bool have_candidate;
   lab_fold_stats_t stats;
   int64_t write_errors;
   int64_t batches;
   char **rejected;
   size_t nrejected;
   lab_fold_t *fold;          /* NULL in --copy-only runs */
   int64_t peak_buffer_bytes; /* most bytes held at once: write batch + one master (rows and documents) */
   bool skipped;              /* the range was done before this (resumed) run */
   /* retries: the fold's counters at the candidate master and at the last checkpoint of this try, and
    * the counters kept from earlier tries (up to their checkpoints) */
   lab_fold_stats_t cand_stats;
   lab_fold_stats_t ck_stats;
   lab_fold_stats_t base_stats;
   size_t cand_nrejected;
   size_t ck_nrejected;
} worker_t;

struct run {
   lab_store_t *store;
   const lab_foldrun_opts_t *o;
   char *state_coll;
   lab_fold_opts_t fold_opts;
   char *bucket_field; /* owned: fold_opts.bucket_field */
   char **hoist;
   bson_value_t *bounds;
   int nbounds;
   int64_t batch_docs;
   int64_t batch_bytes;
   bool resume;
   FILE *reject;
   pthread_mutex_t reject_lock;
   atomic_int stop;
   atomic_llong masters_done;
   atomic_llong batches_done;
   lab_progress_t *progress;
   int64_t src_rows; /* the source's count for the progress bar's ETA (0: not counted) */
   uint64_t t0_ns;
   /* the plan's findings, for --plan */
   bool dst_exists;
   int64_t dst_count;    /* exact: a non-empty destination is refused */
   bool index_missing;   /* the source lacks the key index (plan_only with create_index) */
   double index_build_s; /* -1: not built */
   atomic_llong retries;
};

char *
lab_foldrun_state_coll (const char *dst)
{
   return bson_strdup_printf ("%s%s", dst, LAB_FOLD_STATE_SUFFIX);
}

static const char *
oversize_name (lab_fold_oversize_t m)
{
   return m == LAB_FOLD_OVERSIZE_SPLIT ? "split" : m == LAB_FOLD_OVERSIZE_REJECT ? "reject" : "fail";
}

/* ---- small store helpers -------------------------------------------------------------------------- */

typedef struct {
   bson_t *doc;
} one_doc_t;

static bool
keep_first (const bson_t *doc, void *ctx)
{
   one_doc_t *o = ctx;

   if (!o->doc) {
      o->doc = bson_copy (doc);
   }
   return false;
}

/* find_state -- the state document with this _id, or *doc = NULL. */
static bool
find_state (lab_session_t *sess, const char *state_coll, const char *id, bson_t **doc, bson_error_t *error)
{
   one_doc_t o = { NULL };
   bson_value_t v;
   bool exists;

   *doc = NULL;
   if (!lab_store_exists (sess, state_coll, &exists, error)) {
      return false;
   }
   if (!exists) {
      return true;
   }
   v.value_type = BSON_TYPE_UTF8;
   v.value.v_utf8.str = (char *)id;
   v.value.v_utf8.len = (uint32_t)strlen (id);
   if (!lab_store_find_eq (sess, state_coll, "_id", &v, keep_first, &o, NULL, error)) {
      bson_destroy (o.doc);
      return false;
   }
   *doc = o.doc;
   return true;
}

bool
lab_foldrun_dst_status (lab_store_t *store, const char *dst, lab_foldrun_dst_status_t *st,
                        bson_error_t *error)
{
   lab_session_t *sess = lab_session_open (store, error);
   char *sc = lab_foldrun_state_coll (dst);
   bson_t *settings = NULL;
   bson_iter_t it;
   bool ok = false;

   memset (st, 0, sizeof *st);
   if (!sess) {
      goto done;
   }
   if (!lab_store_exists (sess, dst, &st->exists, error)) {
      goto done;
   }
   if (st->exists && !lab_store_count (sess, dst, &st->count, error)) {
      goto done;
   }
   if (!find_state (sess, sc, "settings", &settings, error)) {
      goto done;
   }
   if (settings) {
      st->has_state = true;
      st->complete = bson_iter_init_find (&it, settings, "complete") && bson_iter_as_bool (&it);
      st->bucket_rows =
         bson_iter_init_find (&it, settings, "bucket_rows") ? (int32_t)bson_iter_as_int64 (&it) : 0;
      if (bson_iter_init_find (&it, settings, "bucket_by") && BSON_ITER_HOLDS_UTF8 (&it)) {
         bson_strncpy (st->bucket_by, bson_iter_utf8 (&it, NULL), sizeof st->bucket_by);
      }
   }
   ok = true;
done:
   bson_destroy (settings);
   bson_free (sc);
   lab_session_close (sess);
   return ok;
}

/* ---- settings ----------------------------------------------------------------------------------- */

static bson_t *
settings_doc (const run_t *r, int nranges, bool complete)
{
   const lab_foldrun_opts_t *o = r->o;
   bson_t *d = bson_new ();
   bson_t arr;
   char idx[16];
   const char *k;
   int i;

   BSON_APPEND_UTF8 (d, "_id", "settings");
   BSON_APPEND_UTF8 (d, "tool", "fold-details " LAB_VERSION);
   BSON_APPEND_UTF8 (d, "src", o->src);
   BSON_APPEND_UTF8 (d, "key", r->fold_opts.key);
   BSON_APPEND_UTF8 (d, "array_field", r->fold_opts.array_field);
   BSON_APPEND_UTF8 (d, "hoist_spec", o->hoist_spec ? o->hoist_spec : "auto");
   BSON_APPEND_ARRAY_BEGIN (d, "hoist", &arr);
   for (i = 0; r->hoist && r->hoist[i]; i++) {
      bson_uint32_to_string ((uint32_t)i, &k, idx, sizeof idx);
      BSON_APPEND_UTF8 (&arr, k, r->hoist[i]);
   }
   bson_append_array_end (d, &arr);
   BSON_APPEND_INT64 (d, "max_doc_bytes", r->fold_opts.max_doc_bytes);
   BSON_APPEND_UTF8 (d, "on_oversize", oversize_name (r->fold_opts.on_oversize));
   BSON_APPEND_INT32 (d, "bucket_rows", r->fold_opts.bucket_rows);
   BSON_APPEND_UTF8 (d, "bucket_by", o->bucket_by ? o->bucket_by : "");
   BSON_APPEND_INT32 (d, "parallel", o->parallel > 0 ? o->parallel : 1);
   BSON_APPEND_INT32 (d, "ranges", nranges);
   BSON_APPEND_ARRAY_BEGIN (d, "bounds", &arr);
   for (i = 0; i < r->nbounds; i++) {
      bson_uint32_to_string ((uint32_t)i, &k, idx, sizeof idx);
      bson_append_value (&arr, k, -1, &r->bounds[i]);
   }
   bson_append_array_end (d, &arr);
   BSON_APPEND_BOOL (d, "complete", complete);
   return d;
}

/* resume_found -- what a --resume run found in the checkpoint, for its refusals: a finished fold (the run
 * meant to replace it with --drop-dst was stopped before it dropped it) or an interrupted one. */
static const char *
resume_found (bool complete)
{
   return complete ? "a finished fold (a --drop-dst run meant to replace it stopped before dropping it?)"
                   : "an interrupted fold";
}

/* resume_remedy -- what recovers from a --resume refusal over that state. */
static const char *
resume_remedy (bool complete)
{
   return complete ? "there is nothing to resume: start over with --drop-dst"
                   : "rerun with its settings to continue it, or start over with --drop-dst";
}

/* settings_differ -- the refusal of a setting that differs from the checkpoint's (usage error). */
static bool
settings_differ (const run_t *r, bool complete, const char *name, const char *now, const char *was,
                 bson_error_t *error)
{
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                  "--resume: '%s' holds %s whose %s is '%s' but this run's is '%s'; %s", r->o->dst,
                  resume_found (complete), name, was, now, resume_remedy (complete));
   return false;
}

/* settings_match -- the checkpoint's settings agree with this run's (usage error otherwise, naming what
 * the checkpoint describes: `complete` a finished fold, else an interrupted one). */
static bool
settings_match (const run_t *r, const bson_t *saved, bool complete, bson_error_t *error)
{
   const lab_foldrun_opts_t *o = r->o;
   struct {
      const char *name; /* in the checkpoint */
      const char *option;
      const char *now;
   } strs[] = {
      { "src", "--src", o->src },
      { "key", "--key", r->fold_opts.key },
      { "array_field", "--array-field", r->fold_opts.array_field },
      { "hoist_spec", "--hoist", o->hoist_spec ? o->hoist_spec : "auto" },
      { "on_oversize", "--on-oversize", oversize_name (r->fold_opts.on_oversize) },
      { "bucket_by", "--bucket-by", o->bucket_by ? o->bucket_by : "" },
   };
   bson_iter_t it;
   size_t i;
   int64_t mdb;
   int32_t n;
   char now[32], was[32];

   for (i = 0; i < sizeof strs / sizeof strs[0]; i++) {
      const char *w = bson_iter_init_find (&it, saved, strs[i].name) && BSON_ITER_HOLDS_UTF8 (&it)
                         ? bson_iter_utf8 (&it, NULL)
                      : strcmp (strs[i].name, "bucket_by") == 0 ? "" /* a checkpoint from before buckets */
                                                                : "(unknown)";
      if (strcmp (w, strs[i].now) != 0) {
         return settings_differ (r, complete, strs[i].option, strs[i].now, w, error);
      }
   }
   mdb = bson_iter_init_find (&it, saved, "max_doc_bytes") ? bson_iter_as_int64 (&it) : -1;
   if (mdb != r->fold_opts.max_doc_bytes) {
      snprintf (now, sizeof now, "%lld", (long long)r->fold_opts.max_doc_bytes);
      snprintf (was, sizeof was, "%lld", (long long)mdb);
      return settings_differ (r, complete, "--max-doc-bytes", now, was, error);
   }
   n = bson_iter_init_find (&it, saved, "bucket_rows") ? (int32_t)bson_iter_as_int64 (&it) : 0;
   if (n != r->fold_opts.bucket_rows) {
      snprintf (now, sizeof now, "%d", r->fold_opts.bucket_rows);
      snprintf (was, sizeof was, "%d", n);
      return settings_differ (r, complete, "--bucket-rows", now, was, error);
   }
   n = bson_iter_init_find (&it, saved, "parallel") ? (int32_t)bson_iter_as_int64 (&it) : -1;
   if (n != (o->parallel > 0 ? o->parallel : 1)) {
      snprintf (now, sizeof now, "%d", o->parallel > 0 ? o->parallel : 1);
      snprintf (was, sizeof was, "%d", n);
      return settings_differ (r, complete, "--parallel", now, was, error);
   }
   return true;
}

/* settings_load -- hoist list and bounds of the interrupted run. */
static bool
settings_load (run_t *r, const bson_t *saved, bson_error_t *error)
{
   bson_iter_t it, ai;
   size_t n = 0;

   if (!bson_iter_init_find (&it, saved, "hoist") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &ai)) {
      goto bad;
   }
   r->hoist = bson_malloc0 (sizeof (char *));
   while (bson_iter_next (&ai)) {
      if (!BSON_ITER_HOLDS_UTF8 (&ai)) {
         goto bad;
      }
      r->hoist = bson_realloc (r->hoist, (n + 2) * sizeof (char *));
      r->hoist[n++] = bson_strdup (bson_iter_utf8 (&ai, NULL));
      r->hoist[n] = NULL;
   }
   if (!bson_iter_init_find (&it, saved, "bounds") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &ai)) {
      goto bad;
   }
   while (bson_iter_next (&ai)) {
      r->bounds = bson_realloc (r->bounds, (size_t)(r->nbounds + 1) * sizeof (bson_value_t));
      bson_value_copy (bson_iter_value (&ai), &r->bounds[r->nbounds++]);
   }
   return true;
bad:
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                  "--resume: the checkpoint in '%s' is damaged (settings without hoist/bounds arrays), so "
                  "nothing can be continued from it: start over with --drop-dst",
                  r->state_coll);
   return false;
}

/* ---- hoisting ----------------------------------------------------------------------------------- */

/* resolve_hoist -- the hoist list: none, an explicit list, or sampled from the first masters. */
static bool
resolve_hoist (run_t *r, lab_session_t *sess, bson_error_t *error)
{
   const lab_foldrun_opts_t *o = r->o;
   const char *spec = o->hoist_spec ? o->hoist_spec : "auto";
   lab_hoist_sampler_t *smp;
   lab_sorted_opts_t so = { 0 };
   lab_cursor_t *cur;
   const bson_t *row;
   int rc;
   int64_t nm = 0;
   size_t nf = 0, i;
   char **parts;
   size_t n = 0;

   if (strcmp (spec, "none") == 0 || o->copy_only) {
      r->hoist = bson_malloc0 (sizeof (char *));
      return true;
   }
   if (strcmp (spec, "auto") != 0) {
      parts = bson_malloc0 ((strlen (spec) + 2) * sizeof (char *));
      {
         char *copy = bson_strdup (spec), *save = NULL, *tok;
         for (tok = strtok_r (copy, ",", &save); tok; tok = strtok_r (NULL, ",", &save)) {
            while (*tok == ' ') {
               tok++;
            }
            if (*tok) {
               parts[n++] = bson_strdup (tok);
            }
         }
         bson_free (copy);
      }
      if (n == 0) {
         bson_strfreev (parts);
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--hoist '%s' names no field (use auto, none or f1,f2,...)", spec);
         return false;
      }
      r->hoist = parts;
      return true;
   }
   smp =
      lab_hoist_sampler_new (r->fold_opts.key, r->fold_opts.array_field,
                             o->hoist_sample_masters > 0 ? o->hoist_sample_masters : DEFAULT_SAMPLE_MASTERS);
   so.batch_docs = o->cursor_batch_docs;
   cur = lab_store_sorted_open (sess, o->src, r->fold_opts.key, &so, error);
   if (!cur) {
      lab_hoist_sampler_destroy (smp);
      lab_error_prefix (error, "--hoist auto: sampling '%s'", o->src);
      return false;
   }
   while ((rc = lab_cursor_next (cur, &row, error)) == 1) {
      if (!lab_hoist_sampler_push (smp, row)) {
         break;
      }
   }
   lab_cursor_close (cur);
   if (rc < 0) {
      lab_hoist_sampler_destroy (smp);
      lab_error_prefix (error, "--hoist auto: sampling '%s'", o->src);
      return false;
   }
   lab_hoist_sampler_result (smp, &r->hoist, &nf, &nm);
   lab_hoist_sampler_destroy (smp);
   {
      char list[512] = "";
      for (i = 0; i < nf; i++) {
         bson_strncpy (list + strlen (list), i ? "," : "", sizeof list - strlen (list));
         bson_strncpy (list + strlen (list), r->hoist[i], sizeof list - strlen (list));
      }
      lab_log_info ("--hoist auto: %zu field(s) constant within each of %lld sampled masters: %s", nf,
                    (long long)nm, nf ? list : "(none)");
   }
   return true;
}

/* ---- the worker --------------------------------------------------------------------------------- */

static void
free_batch (worker_t *w)
{
   size_t i;

   for (i = 0; i < w->nbatch; i++) {
      bson_destroy (w->batch[i]);
   }
   w->nbatch = 0;
   w->batch_len = 0;
}

/* checkpoint -- record the range's last fully written master (and whether the range is done). */
static bool
checkpoint (worker_t *w, bool done, bson_error_t *error)
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

/* flush -- write the batch (unordered); per-document errors are reported and fail the worker. */
static bool
flush (worker_t *w, bson_error_t *error)
{
   run_t *r = w->run;
   lab_insert_result_t res = { 0 };
   size_t i;
   char *idt;
   bool ok = false;
   long long total;

   if (w->nbatch == 0) {
      return true;
   }
   if (!lab_store_insert_many (w->sess, r->o->dst, (const bson_t *const *)w->batch, w->nbatch, &res, error)) {
      lab_error_prefix (error, "writing %zu documents to '%s'", w->nbatch, r->o->dst);
      goto done;
   }
   if (res.nerrors > 0) {
      for (i = 0; i < res.nerrors && i < WRITE_ERRORS_SHOWN; i++) {
         idt =
            res.errors[i].index < w->nbatch ? doc_id_text (w->batch[res.errors[i].index]) : bson_strdup ("?");
         lab_log_error ("'%s': document _id %s not written: %s (code %u)", r->o->dst, idt,
                        res.errors[i].message, res.errors[i].code);
         bson_free (idt);
      }
      if (res.nerrors > WRITE_ERRORS_SHOWN) {
         lab_log_error ("'%s': ... and %zu more documents of that batch not written", r->o->dst,
                        res.nerrors - WRITE_ERRORS_SHOWN);
      }
      w->write_errors += (int64_t)res.nerrors;
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "%zu of %zu documents of a batch were refused by '%s' (first: %s); the checkpoint stays "
                     "before them, so --resume retries them",
                     res.nerrors, w->nbatch, r->o->dst, res.errors[0].message);
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
   if (!r->o->copy_only && !checkpoint (w, false, error)) {
      goto done;
   }
   w->ck_stats = w->cand_stats;
   w->ck_nrejected = w->cand_nrejected;
   ok = true;
done:
   lab_insert_result_cleanup (&res);
   free_batch (w);
   return ok;
}

/* add_doc -- queue a document (the batch takes it), flushing first when it would overflow. */
static bool
add_doc (worker_t *w, bson_t *doc, bson_error_t *error)
{
   run_t *r = w->run;

   if (w->nbatch > 0 &&
       ((int64_t)w->nbatch >= r->batch_docs || (int64_t)(w->batch_len + doc->len) > r->batch_bytes)) {
      if (!flush (w, error)) {
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

static void
set_candidate (worker_t *w, const bson_value_t *key)
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

static void
note_master (worker_t *w)
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

/* emit_cb -- a finished master: queue its documents, then it may be checkpointed. */
static bool
emit_cb (void *ctx, const bson_value_t *key, bson_t **docs, size_t ndocs, int64_t nrows, bson_error_t *error)
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
      if (!add_doc (w, docs[i], error)) {
         for (i++; i < ndocs; i++) {
            bson_destroy (docs[i]);
         }
         return false;
      }
   }
   set_candidate (w, key);
   snapshot_candidate (w);
   note_master (w);
   return true;
}

/* reject_cb -- one JSON line per row: {key, reason, row}. */
static bool
reject_cb (void *ctx, const bson_value_t *key, const bson_t *const *rows, size_t nrows, const char *reason,
           bson_error_t *error)
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
   set_candidate (w, key);
   snapshot_candidate (w);
   note_master (w);
   return true;
}

/* cleanup_beyond -- resume: delete the documents of masters in this range past the checkpoint. */
static bool
cleanup_beyond (worker_t *w, const bson_value_t *last, bson_error_t *error)
{
   run_t *r = w->run;
   lab_sorted_opts_t so = { 0 };
   lab_cursor_t *cur;
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
   cur = lab_store_sorted_open (w->sess, r->o->dst, r->fold_opts.key, &so, error);
   if (!cur) {
      goto done;
   }
   while ((rc = lab_cursor_next (cur, &doc, error)) == 1) {
      if (!bson_iter_init_find (&it, doc, r->fold_opts.key)) {
         continue;
      }
      if (last && lab_value_compare (bson_iter_value (&it), last) <= 0) {
         continue;
      }
      if (nkeys > 0 && lab_value_compare (bson_iter_value (&it), &keys[nkeys - 1]) == 0) {
         continue;
      }
      keys = bson_realloc (keys, (nkeys + 1) * sizeof *keys);
      bson_value_copy (bson_iter_value (&it), &keys[nkeys++]);
   }
   lab_cursor_close (cur);
   if (rc < 0) {
      goto done;
   }
   for (i = 0; i < nkeys; i++) {
      if (!lab_store_delete_eq (w->sess, r->o->dst, r->fold_opts.key, &keys[i], &deleted, error)) {
         goto done;
      }
      total += deleted;
   }
   if (nkeys > 0) {
      lab_log_info ("--resume: range %d: removed %lld documents of %zu masters written after the checkpoint",
                    w->index, (long long)total, nkeys);
   }
   ok = true;
done:
   if (!ok) {
      lab_error_prefix (error, "--resume: cleaning range %d of '%s'", w->index, r->o->dst);
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
   if (!find_state (w->sess, r->state_coll, id, &ck, error)) {
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
      set_candidate (w, last);
   }
   ok = cleanup_beyond (w, *have_last ? last : NULL, error);
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
   return add_doc (w, bson_copy (row), error);
}

/* worker_read -- the range's rows in key order (from past `last` when resuming) into the fold or, with
 * --copy-only, the batch; *stopped when another worker failed (it reports). */
static bool
worker_read (worker_t *w, lab_fold_t *fold, const bson_value_t *last, bool *stopped, bson_error_t *error)
{
   run_t *r = w->run;
   lab_sorted_opts_t so = { 0 };
   lab_cursor_t *cur;
   const bson_t *row;
   bson_iter_t it;
   int64_t pending_rows = 0, pending_bytes = 0;
   bool ok = false;
   int rc;

   so.lo = last ? last : w->lo;
   so.hi = w->hi;
   so.batch_docs = r->o->cursor_batch_docs;
   cur = lab_store_sorted_open (w->sess, r->o->src, r->fold_opts.key, &so, error);
   if (!cur) {
      lab_error_prefix (error, "reading '%s' sorted by '%s'", r->o->src, r->fold_opts.key);
      return false;
   }
   while ((rc = lab_cursor_next (cur, &row, error)) == 1) {
      if (atomic_load (&r->stop)) {
         *stopped = true;
         ok = true;
         goto done;
      }
      if (last && bson_iter_init_find (&it, row, r->fold_opts.key) &&
          lab_value_compare (bson_iter_value (&it), last) == 0) {
         continue; /* the checkpointed master is written */
      }
      if (fold && !lab_fold_push_row (fold, row, error)) {
         lab_error_prefix (error, "folding '%s'", r->o->src);
         goto done;
      }
      if (!fold && !copy_row (w, row, error)) {
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
      lab_error_prefix (error, "reading '%s' sorted by '%s'", r->o->src, r->fold_opts.key);
      goto done;
   }
   ok = true;
done:
   lab_progress_add (r->progress, (uint64_t)pending_rows, (uint64_t)pending_bytes);
   lab_cursor_close (cur);
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

/* worker_try -- one try at a key range, start (or its checkpoint, `from_checkpoint`) to end: resume
 * point, read and fold, the last batch, the range's checkpoint. */
static bool
worker_try (worker_t *w, bool from_checkpoint, bson_error_t *error)
{
   run_t *r = w->run;
   lab_fold_t *fold = NULL;
   bson_value_t last;
   bool have_last = false, stopped = false, ok = false;

   w->sess = lab_session_open (r->store, error);
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
   if (!r->o->copy_only) {
      fold = lab_fold_new (&r->fold_opts, emit_cb, reject_cb, w, error);
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
      lab_error_prefix (error, "folding '%s'", r->o->src);
      goto done;
   }
   if (!flush (w, error)) {
      goto done;
   }
   if (!r->o->copy_only && !checkpoint (w, true, error)) {
      goto done;
   }
   ok = true;
done:
   if (fold) {
      w->stats = stats_add (w->base_stats, lab_fold_stats (fold));
   }
   free_batch (w);
   bson_free (w->batch);
   w->batch = NULL;
   w->batch_cap = 0; /* a retry starts with a new batch */
   lab_fold_destroy (fold);
   w->fold = NULL;
   if (have_last) {
      bson_value_destroy (&last);
   }
   lab_session_close (w->sess);
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
      if (r->o->copy_only || attempt >= r->o->retries || !lab_retry_transient (error)) {
         if (attempt > 0 && lab_retry_transient (error)) {
            lab_log_error ("range %d: still failing after %d retries: %s", w->index, attempt, error->message);
         }
         return false;
      }
      delay = lab_retry_delay_ms (attempt + 1, first, LAB_RETRY_MAX_DELAY_MS);
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

/* ---- the run ------------------------------------------------------------------------------------ */

/* lab_foldrun_opts_check -- see run.h. */
bool
lab_foldrun_opts_check (const lab_foldrun_opts_t *o, bson_error_t *error)
{
   if (!o->src || !o->src[0] || !o->dst || !o->dst[0]) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING, "--src and --dst are required");
      return false;
   }
   if (strcmp (o->src, o->dst) == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--dst '%s' is the same collection as --src: folding in place would destroy the source; "
                     "name another destination",
                     o->dst);
      return false;
   }
   if (o->parallel < 0 || o->parallel > MAX_PARALLEL) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--parallel %d is out of range [1, %d]",
                     o->parallel, MAX_PARALLEL);
      return false;
   }
   if (o->max_doc_bytes < 0 || o->max_doc_bytes > INT32_MAX) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--max-doc-bytes %lld is out of range",
                     (long long)o->max_doc_bytes);
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
   if (o->bucket_rows < 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--bucket-rows %d must be 1 or more",
                     o->bucket_rows);
      return false;
   }
   if (o->bucket_by) {
      char *field;
      lab_bucket_unit_t unit;

      if (!lab_bucket_spec_parse (o->bucket_by, &field, &unit, error)) {
         return false;
      }
      bson_free (field);
   }
   if (o->copy_only && (o->bucket_rows > 0 || o->bucket_by)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--copy-only writes rows unchanged: --bucket-rows and --bucket-by do not apply");
      return false;
   }
   return true;
}

void
lab_foldrun_result_cleanup (lab_foldrun_result_t *result)
{
   if (result->plan) {
      bson_destroy (result->plan);
      result->plan = NULL;
   }
   bson_strfreev (result->hoisted);
   bson_strfreev (result->rejected_key_ids);
   result->hoisted = NULL;
   result->rejected_key_ids = NULL;
}

static int
strp_cmp (const void *a, const void *b)
{
   return strcmp (*(char *const *)a, *(char *const *)b);
}

/* ---- plan: limits, the destination, resume or fresh ---------------------------------------------- */

/* plan_limits -- the document cap and the batch sizes under the server's limits. */
static bool
plan_limits (run_t *r, bson_error_t *error)
{
   const lab_foldrun_opts_t *o = r->o;
   lab_server_info_t info;
   int64_t max_batch;

   if (!lab_store_server_info (r->store, &info, error)) {
      return false;
   }
   if (o->max_doc_bytes > info.max_bson_bytes) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
         "--max-doc-bytes %lld is above the server's maxBsonObjectSize %lld: it would refuse such "
         "documents",
         (long long)o->max_doc_bytes, (long long)info.max_bson_bytes);
      return false;
   }
   r->fold_opts.max_doc_bytes = o->max_doc_bytes > 0 ? o->max_doc_bytes : info.max_bson_bytes;
   /* check names and the cap now, before anything is written (hoist names are checked after resolving) */
   if (!lab_fold_opts_check (&r->fold_opts, error)) {
      return false;
   }
   r->batch_docs = o->batch_docs > 0 ? o->batch_docs : DEFAULT_BATCH_DOCS;
   r->batch_bytes = o->batch_bytes > 0 ? (int64_t)o->batch_bytes : DEFAULT_BATCH_BYTES;
   max_batch = lab_store_write_budget_bytes (info.max_message_bytes);
   if (r->batch_bytes > max_batch) {
      lab_log_info ("--batch-bytes lowered to %lld: the server's messages are limited to %lld bytes",
                    (long long)max_batch, (long long)info.max_message_bytes);
      r->batch_bytes = max_batch;
   }
   return true;
}

/* plan_dst -- the source exists; what is at the destination: exists, its count, the checkpoint's
 * settings (NULL: none; caller destroys). */
static bool
plan_dst (run_t *r, lab_session_t *sess, bool *exists, int64_t *count, bson_t **settings, bson_error_t *error)
{
   const lab_foldrun_opts_t *o = r->o;

   if (!lab_store_exists (sess, o->src, exists, error)) {
      return false;
   }
   if (!*exists) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                     "source collection '%s' does not exist in %s (database '%s')", o->src,
                     lab_store_uri_redacted (r->store), lab_store_db (r->store));
      return false;
   }
   if (!lab_store_exists (sess, o->dst, exists, error)) {
      return false;
   }
   if (*exists && !lab_store_count (sess, o->dst, count, error)) {
      return false;
   }
   return find_state (sess, r->state_coll, "settings", settings, error);
}

/* plan_index -- the source's index on the key, which every sorted read walks: present; or missing and
 * built now (--create-index, timed); or missing and the run stops before writing anything (NO_INDEX
 * naming --create-index). --plan builds nothing: it notes that the run would. */
static bool
plan_index (run_t *r, lab_session_t *sess, bson_error_t *error)
{
   const lab_foldrun_opts_t *o = r->o;
   const char *key = r->fold_opts.key;
   uint64_t t0;
   bool has;

   if (!lab_store_has_index (sess, o->src, key, &has, error)) {
      return false;
   }
   if (has) {
      return true;
   }
   if (!o->create_index) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
                     "source '%s' has no index on '%s': the fold reads it in '%s' order through that index "
                     "(without one the server would sort the whole collection before the first row). Nothing "
                     "has been written. Rerun with --create-index to build it first, or build it yourself: "
                     "db.%s.createIndex({%s: 1})",
                     o->src, key, key, o->src, key);
      return false;
   }
   r->index_missing = true;
   if (o->plan_only) {
      lab_log_info ("--plan: '%s' has no index on '%s': --create-index would build it first", o->src, key);
      return true;
   }
   lab_log_info ("--create-index: building the index %s_1 on '%s' (the whole collection is read once)", key,
                 o->src);
   t0 = lab_now_ns ();
   if (!lab_store_create_index (sess, o->src, key, error)) {
      lab_error_prefix (error, "--create-index: building %s_1 on '%s'", key, o->src);
      return false;
   }
   r->index_build_s = (double)(lab_now_ns () - t0) / 1e9;
   r->index_missing = false;
   lab_log_info ("--create-index: index %s_1 on '%s' built in %.1f s", key, o->src, r->index_build_s);
   return true;
}

/* plan_fresh -- a fresh run: the destination empty or to be replaced, the source's key index, the hoist
 * list and the key ranges. */
static bool
plan_fresh (run_t *r, lab_session_t *sess, int64_t count, bson_error_t *error)
{
   const lab_foldrun_opts_t *o = r->o;

   if (count > 0 && !o->drop_dst) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
         "destination '%s' already holds %lld documents: use --drop-dst to replace it, or --resume "
         "to continue an interrupted fold",
         o->dst, (long long)count);
      return false;
   }
   if (!plan_index (r, sess, error)) {
      return false;
   }
   if (r->index_missing) {
      /* --plan --create-index: without the index there is nothing to sample or split yet */
      r->hoist = bson_malloc0 (sizeof (char *));
      return true;
   }
   if (!resolve_hoist (r, sess, error)) {
      return false;
   }
   if (o->parallel > 1 &&
       !lab_store_partition (sess, o->src, r->fold_opts.key, o->parallel, &r->bounds, &r->nbounds, error)) {
      lab_error_prefix (error, "--parallel %d: splitting '%s' into key ranges", o->parallel, o->src);
      return false;
   }
   return true;
}

/* resume_dst_check -- --resume over a checkpoint whose destination is gone: refused when the checkpoint
 * says the fold completed or wrote anything (those documents went with the destination, and continuing
 * after the checkpoints would leave them out); fine when no range had reached its first checkpoint. This
 * is the state a --drop-dst run leaves when stopped between dropping the destination and its checkpoint
 * collection (prepare drops them in that order). */
static bool
resume_dst_check (run_t *r, lab_session_t *sess, const bson_t *settings, bool complete, bson_error_t *error)
{
   bson_iter_t it;
   bson_t *ck;
   int32_t nranges, i, started = 0;
   char id[32], found[96];

   if (r->dst_exists) {
      return true;
   }
   nranges = bson_iter_init_find (&it, settings, "ranges") ? (int32_t)bson_iter_as_int64 (&it) : 0;
   for (i = 0; !complete && i < nranges; i++) {
      snprintf (id, sizeof id, "range-%d", (int)i);
      if (!find_state (sess, r->state_coll, id, &ck, error)) {
         return false;
      }
      if (ck && (bson_iter_init_find (&it, ck, "last_key") ||
                 (bson_iter_init_find (&it, ck, "done") && bson_iter_as_bool (&it)))) {
         started++;
      }
      bson_destroy (ck);
   }
   if (!complete && started == 0) {
      return true;
   }
   if (complete) {
      bson_snprintf (found, sizeof found, "had completed");
   } else {
      bson_snprintf (found, sizeof found, "had written documents in %d of its %d key range(s)", (int)started,
                     (int)nranges);
   }
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                  "--resume: '%s' does not exist but its checkpoint '%s' says the fold %s: a --drop-dst run "
                  "stopped between dropping '%s' and its checkpoint; the documents are gone, nothing can "
                  "be resumed: start over with --drop-dst",
                  r->o->dst, r->state_coll, found, r->o->dst);
   return false;
}

/* plan_resume -- a --resume run over a checkpoint: its state and settings fit this run; the hoist list and
 * ranges from it; *complete: the fold had already finished. Refusals set result->resume_refused. */
static bool
plan_resume (run_t *r, lab_session_t *sess, const bson_t *settings, lab_foldrun_result_t *result,
             bool *complete, bson_error_t *error)
{
   bson_iter_t it;

   *complete = bson_iter_init_find (&it, settings, "complete") && bson_iter_as_bool (&it);
   if (!resume_dst_check (r, sess, settings, *complete, error)) {
      result->resume_refused = error->domain == LAB_ERROR_USAGE; /* not a store error */
      return false;
   }
   if (!settings_match (r, settings, *complete, error) || !settings_load (r, settings, error)) {
      result->resume_refused = true;
      return false;
   }
   result->resumed = true;
   if (*complete) {
      lab_log_info ("--resume: the fold into '%s' had already completed: nothing to do", r->o->dst);
      return true;
   }
   return plan_index (r, sess, error);
}

/* plan_mode -- resume (from the checkpoint's settings and ranges) or start fresh; *complete: the resumed
 * fold had already finished. */
static bool
plan_mode (run_t *r, lab_session_t *sess, int64_t count, const bson_t *settings, lab_foldrun_result_t *result,
           bool *complete, bson_error_t *error)
{
   const lab_foldrun_opts_t *o = r->o;

   if (r->resume && !settings) {
      if (count > 0) {
         lab_error_set (
            error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
            "--resume: '%s' holds %lld documents but no fold checkpoint ('%s' is missing): it was "
            "not written by an interrupted fold-details run (a --copy-only run keeps none), so "
            "there is nothing to resume; use --drop-dst to replace it",
            o->dst, (long long)count, r->state_coll);
         result->resume_refused = true;
         return false;
      }
      lab_log_info ("--resume: no checkpoint for '%s': starting from the beginning", o->dst);
      r->resume = false;
   }
   if (!r->resume) {
      return plan_fresh (r, sess, count, error);
   }
   return plan_resume (r, sess, settings, result, complete, error);
}

/* plan -- everything checked and decided before anything is written. *dst_exists: the destination is
 * there now; *complete: a resumed fold that had already finished (nothing more is checked then). */
static bool
plan (run_t *r, lab_session_t *sess, lab_foldrun_result_t *result, bool *dst_exists, bool *complete,
      bson_error_t *error)
{
   bson_t *settings = NULL;
   int64_t count = 0;
   size_t k;
   bool ok = false;

   if (!plan_limits (r, error) || !plan_dst (r, sess, dst_exists, &count, &settings, error)) {
      goto done;
   }
   r->dst_exists = *dst_exists;
   r->dst_count = count;
   if (!plan_mode (r, sess, count, settings, result, complete, error)) {
      goto done;
   }
   if (*complete) {
      ok = true;
      goto done;
   }
   for (k = 0; r->hoist[k]; k++) {
   }
   r->fold_opts.hoist = (const char *const *)r->hoist;
   r->fold_opts.nhoist = k;
   if (!lab_fold_opts_check (&r->fold_opts, error)) {
      lab_error_prefix (error, "--hoist");
      goto done;
   }
   ok = true;
done:
   bson_destroy (settings);
   return ok;
}

/* ---- --plan: what the run would send ------------------------------------------------------------- */

/* plan_decision -- one line: what the run would do with the destination. */
static void
plan_decision (const run_t *r, bool complete, char *buf, size_t len)
{
   const lab_foldrun_opts_t *o = r->o;

   if (complete) {
      bson_snprintf (buf, len, "resume: the fold into '%s' had already completed: nothing to do", o->dst);
   } else if (r->resume) {
      bson_snprintf (buf, len,
                     "resume: each unfinished range continues after its checkpoint in '%s'; "
                     "documents written after it are deleted first",
                     r->state_coll);
   } else if (r->dst_exists && r->dst_count > 0) {
      bson_snprintf (buf, len, "fresh: drop '%s' (%lld documents) and '%s', then fold", o->dst,
                     (long long)r->dst_count, r->state_coll);
   } else {
      bson_snprintf (buf, len, "fresh: %s '%s'%s, then fold", r->dst_exists ? "reuse the empty" : "create",
                     o->dst, o->resume ? " (--resume found no checkpoint)" : "");
   }
}

/* plan_range -- one range of the plan: bounds, estimate, resume point, the read's description; adds to
 * *temp the bytes a blocking sort of the range would hold. */
static bool
plan_range (run_t *r, lab_session_t *sess, int i, int nranges, int64_t est, double avg_bytes, bson_t *arr,
            int64_t *temp, bool *blocking, bson_error_t *error)
{
   lab_sorted_opts_t so = { 0 };
   bson_t *ck = NULL, d, rd;
   bson_iter_t it;
   char idx[16], id[32];
   const char *k;
   int64_t range_est = nranges > 0 ? est / nranges : est;
   bool done = false, ok = false;

   bson_uint32_to_string ((uint32_t)i, &k, idx, sizeof idx);
   BSON_APPEND_DOCUMENT_BEGIN (arr, k, &d);
   BSON_APPEND_INT32 (&d, "range", i);
   so.lo = i > 0 ? &r->bounds[i - 1] : NULL;
   so.hi = i < r->nbounds ? &r->bounds[i] : NULL;
   so.batch_docs = r->o->cursor_batch_docs;
   if (so.lo) { /* absent: unbounded */
      bson_append_value (&d, "lo", -1, so.lo);
   }
   if (so.hi) {
      bson_append_value (&d, "hi", -1, so.hi);
   }
   BSON_APPEND_INT64 (&d, "estimated_documents", range_est);
   if (r->resume) {
      snprintf (id, sizeof id, "range-%d", i);
      if (!find_state (sess, r->state_coll, id, &ck, error)) {
         goto done;
      }
      done = ck && bson_iter_init_find (&it, ck, "done") && bson_iter_as_bool (&it);
      BSON_APPEND_BOOL (&d, "done", done);
      if (ck && bson_iter_init_find (&it, ck, "last_key")) {
         bson_append_value (&d, "resume_after", -1, bson_iter_value (&it));
         so.lo = bson_iter_value (&it);
      }
   }
   if (!done && !r->index_missing) {
      BSON_APPEND_DOCUMENT_BEGIN (&d, "read", &rd);
      ok = lab_store_sorted_describe (sess, r->o->src, r->fold_opts.key, &so, &rd, error);
      bson_append_document_end (&d, &rd);
      if (!ok) {
         goto done;
      }
      ok = false;
      if (bson_iter_init_find (&it, &rd, "blocking_sort") && bson_iter_as_bool (&it)) {
         *blocking = true;
         *temp += (int64_t)((double)range_est * avg_bytes);
      }
   }
   ok = true;
done:
   bson_append_document_end (arr, &d);
   bson_destroy (ck);
   return ok;
}

/* plan_describe -- result->plan: the decision, the source and its index, the destination, the writes,
 * each range's read, the temporary space. Reads only. */
static bool
plan_describe (run_t *r, lab_session_t *sess, bool complete, lab_foldrun_result_t *result,
               bson_error_t *error)
{
   const lab_foldrun_opts_t *o = r->o;
   bson_t *p = bson_new (), d, arr;
   lab_coll_stats_t cs;
   char line[512], idx[16];
   const char *k;
   int64_t est = 0, temp = 0;
   double avg = 0;
   bool blocking = false;
   int i, nranges = r->nbounds + 1;
   size_t h;

   result->plan = p;
   plan_decision (r, complete, line, sizeof line);
   BSON_APPEND_UTF8 (p, "decision", line);
   BSON_APPEND_BOOL (p, "writes_nothing", true);
   if (!lab_store_count_estimated (sess, o->src, &est, error)) {
      return false;
   }
   if (lab_store_stats (sess, o->src, &cs, error)) {
      avg = cs.avg_obj_size_bytes;
   }
   BSON_APPEND_DOCUMENT_BEGIN (p, "source", &d);
   BSON_APPEND_UTF8 (&d, "collection", o->src);
   BSON_APPEND_INT64 (&d, "estimated_documents", est);
   BSON_APPEND_DOUBLE (&d, "avg_document_bytes", avg);
   BSON_APPEND_UTF8 (&d, "key", r->fold_opts.key);
   BSON_APPEND_BOOL (&d, "key_index_exists", !r->index_missing);
   BSON_APPEND_BOOL (&d, "create_index", r->index_missing);
   bson_append_document_end (p, &d);
   BSON_APPEND_DOCUMENT_BEGIN (p, "destination", &d);
   BSON_APPEND_UTF8 (&d, "collection", o->dst);
   BSON_APPEND_BOOL (&d, "exists", r->dst_exists);
   BSON_APPEND_INT64 (&d, "documents", r->dst_count);
   BSON_APPEND_UTF8 (&d, "checkpoint_collection", r->state_coll);
   bson_append_document_end (p, &d);
   if (complete) {
      return true;
   }
   BSON_APPEND_ARRAY_BEGIN (p, "hoist", &arr);
   for (h = 0; r->hoist && r->hoist[h]; h++) {
      bson_uint32_to_string ((uint32_t)h, &k, idx, sizeof idx);
      BSON_APPEND_UTF8 (&arr, k, r->hoist[h]);
   }
   bson_append_array_end (p, &arr);
   if (r->index_missing) {
      BSON_APPEND_UTF8 (p, "note",
                        "the key index is built first (--create-index); the hoist sample and the "
                        "--parallel ranges are taken from it then, so neither is shown");
   }
   BSON_APPEND_DOCUMENT_BEGIN (p, "writes", &d);
   BSON_APPEND_UTF8 (&d, "command", o->copy_only ? "insert (rows unchanged)" : "insert (folded documents)");
   BSON_APPEND_BOOL (&d, "ordered", false);
   BSON_APPEND_INT64 (&d, "batch_docs", r->batch_docs);
   BSON_APPEND_INT64 (&d, "batch_bytes", r->batch_bytes);
   BSON_APPEND_INT64 (&d, "max_doc_bytes", r->fold_opts.max_doc_bytes);
   BSON_APPEND_INT32 (&d, "bucket_rows", r->fold_opts.bucket_rows);
   BSON_APPEND_UTF8 (&d, "bucket_by", o->bucket_by ? o->bucket_by : "");
   BSON_APPEND_UTF8 (&d, "write_concern",
                     "the server's default (the tool sets none: w:1 before MongoDB 5.0, "
                     "majority from 5.0 on a replica set)");
   BSON_APPEND_UTF8 (&d, "checkpoint",
                     o->copy_only ? "none (--copy-only)"
                                  : "upsert {_id: \"range-<i>\"} into the checkpoint "
                                    "collection after every batch");
   BSON_APPEND_UTF8 (&d, "destination_index", "{<key>: 1} (createIndexes before the first batch)");
   BSON_APPEND_INT32 (&d, "retries", o->copy_only ? 0 : o->retries);
   bson_append_document_end (p, &d);
   BSON_APPEND_ARRAY_BEGIN (p, "ranges", &arr);
   for (i = 0; i < nranges; i++) {
      if (!plan_range (r, sess, i, nranges, est, avg, &arr, &temp, &blocking, error)) {
         bson_append_array_end (p, &arr);
         return false;
      }
   }
   bson_append_array_end (p, &arr);
   BSON_APPEND_BOOL (p, "blocking_sort", blocking);
   BSON_APPEND_INT64 (p, "estimated_temp_bytes", temp);
   BSON_APPEND_UTF8 (p, "temp_note",
                     blocking ? "the server sorts each range before its first batch (it says blocking_sort: "
                                "FerretDB ignores hint): up to the range's data in memory, then in temporary "
                                "files (allowDiskUse) in the server's dbPath"
                     : r->index_missing
                        ? "none once the index is built (the index build itself sorts the keys)"
                        : "none: every read walks the key index (no sort)");
   return true;
}

/* prepare -- only now replace what a fresh run replaces; the settings checkpoint, the destination and
 * its key index, the reject file; count the source when a progress bar wants a total. */
static bool
prepare (run_t *r, lab_session_t *sess, bool dst_exists, int nranges, bson_error_t *error)
{
   const lab_foldrun_opts_t *o = r->o;

   if (!r->resume) {
      /* the destination first, then its checkpoint: a run stopped between the two leaves a checkpoint
       * without its destination, which --resume refuses by name (resume_dst_check) */
      if (dst_exists && !lab_store_drop (sess, o->dst, error)) {
         return false;
      }
      if (o->kill_after_drop && dst_exists) {
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
      bson_t *sdoc;
      bool ok;

      if (!lab_store_create (sess, r->state_coll, error)) {
         return false;
      }
      sdoc = settings_doc (r, nranges, false);
      ok = lab_store_upsert_by_id (sess, r->state_coll, sdoc, error);
      bson_destroy (sdoc);
      if (!ok) {
         return false;
      }
   }
   if (!lab_store_create (sess, o->dst, error) ||
       !lab_store_create_index (sess, o->dst, r->fold_opts.key, error)) {
      lab_error_prefix (error, "preparing '%s'", o->dst);
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
                  o->src, o->dst, r->fold_opts.key, nranges, (long long)r->fold_opts.max_doc_bytes,
                  (long long)r->batch_docs, (long long)r->batch_bytes);
   /* the total only feeds the progress bar's ETA: the metadata's estimate, no scan */
   if (lab_progress_enabled (o->progress) && !lab_store_count_estimated (sess, o->src, &r->src_rows, error)) {
      return false;
   }
   return true;
}

/* ---- execute: one worker per key range ----------------------------------------------------------- */

/* workers_new -- one worker per key range [bounds[i-1], bounds[i]). */
static worker_t *
workers_new (run_t *r, int nranges)
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

/* workers_free -- what the workers still hold after the merge. */
static void
workers_free (worker_t *ws, int nranges)
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

/* execute -- the workers through the pool (core/workers.h), under one progress bar; the first failure
 * by range names its range when there are several. */
static bool
execute (run_t *r, worker_t *ws, int nranges, bson_error_t *error)
{
   lab_workers_t pool = { worker_main, ws, sizeof *ws, stop_workers, r, NULL };
   int failed;
   bool ok;

   r->progress = lab_progress_new (r->o->progress, r->o->copy_only ? "copying" : "folding", "rows",
                                   (uint64_t)r->src_rows);
   ok = lab_workers_run (&pool, nranges, &failed, error);
   lab_progress_done (r->progress);
   r->progress = NULL;
   if (!ok && r->nbounds > 0) {
      lab_error_prefix (error, "range %d", failed);
   }
   return ok;
}

/* ---- merge: the workers' totals, the reject file, the checkpoint --------------------------------- */

/* merge_totals -- the workers' counts into *result (also after a failure: filled as far as the run got)
 * and the rejected masters' ids, sorted (taken from the workers). */
static void
merge_totals (worker_t *ws, int nranges, lab_foldrun_result_t *result)
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
finish (run_t *r, lab_session_t *sess, int nranges, bson_error_t *error)
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
   sdoc = settings_doc (r, nranges, true);
   ok = lab_store_upsert_by_id (sess, r->state_coll, sdoc, error) && lab_store_flush (r->store, error);
   bson_destroy (sdoc);
   return ok;
}

/* lab_foldrun -- see run.h: plan, prepare, execute, merge. */
bool
lab_foldrun (lab_store_t *store, const lab_foldrun_opts_t *o, lab_foldrun_result_t *result,
             bson_error_t *error)
{
   run_t r;
   lab_session_t *sess = NULL;
   worker_t *ws = NULL;
   bool dst_exists = false, complete = false, ran, ok = false;
   int nranges = 1;

   memset (result, 0, sizeof *result);
   memset (&r, 0, sizeof r);
   r.store = store;
   r.o = o;
   r.t0_ns = lab_now_ns ();
   pthread_mutex_init (&r.reject_lock, NULL);
   if (!lab_foldrun_opts_check (o, error)) {
      goto done;
   }
   r.state_coll = lab_foldrun_state_coll (o->dst);
   r.fold_opts.key = o->key ? o->key : "bill_id";
   r.fold_opts.array_field = o->array_field ? o->array_field : "details";
   r.fold_opts.on_oversize = o->on_oversize;
   r.fold_opts.bucket_rows = o->bucket_rows;
   if (o->bucket_by) {
      if (!lab_bucket_spec_parse (o->bucket_by, &r.bucket_field, &r.fold_opts.bucket_unit, error)) {
         goto done;
      }
      r.fold_opts.bucket_field = r.bucket_field;
   }
   r.resume = o->resume;
   r.index_build_s = -1;

   sess = lab_session_open (store, error);
   if (!sess || !plan (&r, sess, result, &dst_exists, &complete, error)) {
      goto done;
   }
   nranges = r.nbounds + 1;
   if (o->plan_only) {
      ok = plan_describe (&r, sess, complete, result, error);
      goto done;
   }
   if (complete) {
      ok = true; /* the hoist list and ranges are reported below */
      goto done;
   }
   if (!prepare (&r, sess, dst_exists, nranges, error)) {
      goto done;
   }
   ws = workers_new (&r, nranges);
   ran = execute (&r, ws, nranges, error);
   merge_totals (ws, nranges, result);
   if (!ran || !finish (&r, sess, nranges, error)) {
      goto done;
   }
   ok = true;
done:
   nranges = r.nbounds + 1; /* also when the plan stopped after reading or splitting the ranges */
   result->elapsed_s = (double)(lab_now_ns () - r.t0_ns) / 1e9;
   result->max_doc_bytes = r.fold_opts.max_doc_bytes;
   result->batch_bytes = r.batch_bytes;
   result->retries = atomic_load (&r.retries);
   result->index_build_s = r.index_build_s;
   result->gave_up_transient = !ok && !o->plan_only && !o->copy_only && lab_retry_transient (error);
   if (!result->ranges) {
      result->ranges = nranges;
   }
   if (!result->hoisted && r.hoist) {
      result->hoisted = r.hoist;
      r.hoist = NULL;
   }
   lab_progress_done (r.progress);
   if (r.reject) {
      fclose (r.reject);
   }
   workers_free (ws, nranges);
   lab_session_close (sess);
   bson_strfreev (r.hoist);
   lab_values_free (r.bounds, r.nbounds);
   bson_free (r.state_coll);
   bson_free (r.bucket_field);
   pthread_mutex_destroy (&r.reject_lock);
   return ok;
}

/* ---- the plan as text ---------------------------------------------------------------------------- */

/* plan_str -- a string field of d, or "?". */
static const char *
plan_str (const bson_t *d, const char *path)
{
   bson_iter_t it, f;

   if (bson_iter_init (&it, d) && bson_iter_find_descendant (&it, path, &f) && BSON_ITER_HOLDS_UTF8 (&f)) {
      return bson_iter_utf8 (&f, NULL);
   }
   return "?";
}

/* plan_int -- an integer field of d, or -1. */
static int64_t
plan_int (const bson_t *d, const char *path)
{
   bson_iter_t it, f;

   if (bson_iter_init (&it, d) && bson_iter_find_descendant (&it, path, &f)) {
      return bson_iter_as_int64 (&f);
   }
   return -1;
}

/* plan_json -- field `path` of d as relaxed JSON (caller bson_free()s), or NULL. */
static char *
plan_json (const bson_t *d, const char *path)
{
   bson_iter_t it, f;

   if (bson_iter_init (&it, d) && bson_iter_find_descendant (&it, path, &f)) {
      return lab_value_to_text (bson_iter_value (&f));
   }
   return NULL;
}

/* lab_foldrun_plan_print -- see run.h. */
void
lab_foldrun_plan_print (const bson_t *plan, FILE *out)
{
   bson_iter_t it, ai;
   char *a, *b, *c;

   fprintf (out, "fold-details --plan: what the run would send (nothing has been written)\n");
   fprintf (out, "decision:    %s\n", plan_str (plan, "decision"));
   fprintf (
      out, "source:      '%s', about %lld documents (estimated from metadata), key '%s', key index %s\n",
      plan_str (plan, "source.collection"), (long long)plan_int (plan, "source.estimated_documents"),
      plan_str (plan, "source.key"),
      plan_int (plan, "source.key_index_exists") ? "present" : "missing: --create-index builds it first");
   fprintf (out, "destination: '%s', %s%lld documents; checkpoints in '%s'\n",
            plan_str (plan, "destination.collection"),
            plan_int (plan, "destination.exists") ? "exists, " : "absent, ",
            (long long)plan_int (plan, "destination.documents"),
            plan_str (plan, "destination.checkpoint_collection"));
   if (!bson_iter_init_find (&it, plan, "ranges")) {
      return;
   }
   a = plan_json (plan, "hoist");
   fprintf (out, "hoist:       %s\n", a ? a : "[]");
   bson_free (a);
   if (bson_iter_init_find (&it, plan, "note")) {
      fprintf (out, "note:        %s\n", plan_str (plan, "note"));
   }
   fprintf (out,
            "writes:      %s, unordered, batches of at most %lld documents and %lld bytes; documents at most "
            "%lld bytes\n",
            plan_str (plan, "writes.command"), (long long)plan_int (plan, "writes.batch_docs"),
            (long long)plan_int (plan, "writes.batch_bytes"),
            (long long)plan_int (plan, "writes.max_doc_bytes"));
   if (plan_int (plan, "writes.bucket_rows") > 0 || plan_str (plan, "writes.bucket_by")[0]) {
      char rows[64] = "no row limit";

      if (plan_int (plan, "writes.bucket_rows") > 0) {
         bson_snprintf (rows, sizeof rows, "%lld rows at most per document",
                        (long long)plan_int (plan, "writes.bucket_rows"));
      }
      fprintf (out, "             buckets: %s; %s%s\n", rows,
               plan_str (plan, "writes.bucket_by")[0] ? "one document per master and time window of "
                                                      : "no time windows",
               plan_str (plan, "writes.bucket_by"));
   }
   fprintf (out, "             write concern: %s\n", plan_str (plan, "writes.write_concern"));
   fprintf (out, "             checkpoint: %s; destination index %s\n", plan_str (plan, "writes.checkpoint"),
            plan_str (plan, "writes.destination_index"));
   fprintf (out,
            "             a range failing with a transient error retries from its checkpoint up to %lld "
            "times\n",
            (long long)plan_int (plan, "writes.retries"));
   fprintf (out, "temporary:   %lld bytes: %s\n", (long long)plan_int (plan, "estimated_temp_bytes"),
            plan_str (plan, "temp_note"));
   if (!bson_iter_init_find (&it, plan, "ranges") || !bson_iter_recurse (&it, &ai)) {
      return;
   }
   while (bson_iter_next (&ai)) {
      bson_t rg;
      uint32_t len;
      const uint8_t *data;

      bson_iter_document (&ai, &len, &data);
      if (!bson_init_static (&rg, data, len)) {
         continue;
      }
      a = plan_json (&rg, "lo");
      b = plan_json (&rg, "hi");
      fprintf (out, "range %lld:    [%s, %s), about %lld documents", (long long)plan_int (&rg, "range"),
               a ? a : "MinKey", b ? b : "MaxKey", (long long)plan_int (&rg, "estimated_documents"));
      bson_free (a);
      bson_free (b);
      a = plan_json (&rg, "resume_after");
      if (a) {
         fprintf (out, "; resumes after key %s", a);
         bson_free (a);
      }
      if (plan_int (&rg, "done") > 0) {
         fprintf (out, "; done before: skipped");
      }
      fputc ('\n', out);
      a = plan_json (&rg, "read.command");
      if (!a) {
         a = plan_json (&rg, "read.walk");
      }
      if (a) {
         b = plan_json (&rg, "read.index");
         c = plan_json (&rg, "read.blocking_sort");
         fprintf (out, "  read:      %s\n  index:     %s, blocking sort: %s; ties: %s\n", a, b ? b : "?",
                  c ? c : "?", plan_str (&rg, "read.ties"));
         bson_free (b);
         bson_free (c);
         bson_free (a);
      }
   }
}
