/*
 * fold_run_private.h -- what the files of fold-details' store-driven half (fold_run.h) share: the run and its
 * workers, and the functions one phase calls in another. Not part of the etl library's interface.
 *
 *   fold_run.c             the driver: option checks, prepare, merge, lab_fold_run
 *   fold_run_plan.c        plan: limits, source and index, destination, resume or fresh, hoist, ranges
 *   fold_run_describe.c    --plan: what the run would send (document and text)
 *   fold_run_checkpoint.c  the checkpoint collection: settings written, read back, what --resume accepts
 *   fold_run_range.c       execute: one worker per key range, each range's tries (retry, resume)
 *   fold_run_write.c       a range's write batches, checkpoints and the fold's callbacks
 *   fold_run_rows.c        --shape sorted: a range's rows copied unchanged, checkpointed master by master;
 *                          --shape clustered: the rows in arrival order with their clustered _id
 *   fold_run_copy.c        --shape copy: the source's indexes listed, reported and built on the copy
 */
#ifndef LAB_ETL_FOLD_RUN_PRIVATE_H
#define LAB_ETL_FOLD_RUN_PRIVATE_H

#include "fold_run.h"

#include "core/cli.h"
#include "core/error.h"
#include "store/keyenc.h"
#include "core/opts.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_BATCH_DOCS 1000
#define DEFAULT_BATCH_BYTES (16 * 1024 * 1024)
#define DEFAULT_SAMPLE_MASTERS 200
#define WRITE_ERRORS_SHOWN 10

typedef struct run run_t;

typedef struct {
   run_t *run;
   int index;
   const bson_value_t *lo; /* range [lo, hi); NULL: unbounded */
   const bson_value_t *hi;
   lab_store_session_t *sess;
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
   /* --shape sorted (fold_run_rows.c): this try's counters and the master whose rows are being copied */
   lab_fold_stats_t rows_stats;
   bson_value_t rows_key;
   bool have_rows_key;
} worker_t;

struct run {
   lab_store_t *store;
   const lab_fold_run_opts_t *o;
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
   /* the server's plan of the read (MongoDB): its explain reply and what it means */
   bool observed;
   bson_t explain;              /* the unbounded read's explain reply (empty when not observed) */
   lab_store_facts_plan_t plan; /* lab_store_facts_explain_parse of it */
   lab_fold_run_sort_verdict_t verdict;
   lab_store_key_types_t
      key_types;           /* the source key's BSON types (lab_store_key_types); nclasses 0: not read */
   bool key_types_refused; /* several type classes without --allow-mixed-key-types */
   int64_t src_est;        /* the source's estimated count */
   double src_avg;         /* its average document size (0 unknown) */
   /* --shape copy (fold_run_copy.c): the source's indexes the copy gets, {name, key} each, and those the
    * store cannot build, {name, key, why} each (arrays; empty for the other shapes) */
   bson_t copy_build;
   bson_t copy_skip;
};

/* ---- fold_run_checkpoint.c -------------------------------------------------------------------------- */

/* lab_fold_run_find_state -- the state document with this _id in state_coll, or *doc = NULL (caller
 * destroys). */
bool lab_fold_run_find_state (lab_store_session_t *sess, const char *state_coll, const char *id, bson_t **doc,
                              bson_error_t *error);

/* lab_fold_run_settings_doc -- the {_id: "settings"} checkpoint document of this run (caller destroys). */
bson_t *lab_fold_run_settings_doc (const run_t *r, int nranges, bool complete);

/* lab_fold_run_settings_match -- the checkpoint's settings agree with this run's (usage error otherwise). */
bool lab_fold_run_settings_match (const run_t *r, const bson_t *saved, bool complete, bson_error_t *error);

/* lab_fold_run_settings_load -- hoist list and bounds of the interrupted run into r. */
bool lab_fold_run_settings_load (run_t *r, const bson_t *saved, bson_error_t *error);

/* lab_fold_run_resume_dst_check -- --resume over a checkpoint whose destination is gone: refused unless
 * nothing had been written (usage error naming what the checkpoint says). */
bool lab_fold_run_resume_dst_check (run_t *r, lab_store_session_t *sess, const bson_t *settings,
                                    bool complete, bson_error_t *error);

/* ---- fold_run_plan.c, fold_run_describe.c ----------------------------------------------------------------
 */

/* lab_fold_run_plan -- everything checked and decided before anything is written. */
bool lab_fold_run_plan (run_t *r, lab_store_session_t *sess, lab_fold_run_result_t *result, bool *dst_exists,
                        bool *complete, bson_error_t *error);

/* lab_fold_run_observe -- ask the server how it would run the read of [lo, hi) (explain), parse it; *plan and
 * *reply (initialized here, caller destroys) filled; false on the server's refusal (a hidden index) or a
 * reply of no known shape. */
bool lab_fold_run_observe (run_t *r, lab_store_session_t *sess, const bson_value_t *lo,
                           const bson_value_t *hi, bson_t *reply, lab_store_facts_plan_t *plan,
                           bson_error_t *error);

/* lab_fold_run_key_types_append -- "key_types" in `d`: {classes, first, last, rows: {TYPE: N, ...} (when
 * counted), allowed, refused} of r->key_types; nothing when they were not read. */
void lab_fold_run_key_types_append (const run_t *r, bson_t *d);

/* lab_fold_run_provenance -- the destination's marker: o->provenance plus source and params (caller
 * destroys); NULL when o->provenance is NULL. `state` (the checkpoint collection's): checkpoint_of. */
bson_t *lab_fold_run_provenance (const run_t *r, bool state);

/* lab_fold_run_plan_observed -- a parsed plan as the --plan document shows it (read.observed). */
void lab_fold_run_plan_observed (const lab_store_facts_plan_t *plan, bson_t *out);

/* lab_fold_run_plan_describe -- result->plan of a --plan run. */
bool lab_fold_run_plan_describe (run_t *r, lab_store_session_t *sess, bool complete,
                                 lab_fold_run_result_t *result, bson_error_t *error);

/* ---- fold_run_range.c ------------------------------------------------------------------------------- */

/* lab_fold_run_workers_new -- one worker per key range (lab_fold_run_workers_free frees them). */
worker_t *lab_fold_run_workers_new (run_t *r, int nranges);

/* lab_fold_run_workers_free -- what the workers still hold after the merge; NULL is fine. */
void lab_fold_run_workers_free (worker_t *ws, int nranges);

/* lab_fold_run_execute -- the workers through the pool; the first failure, naming its range. */
bool lab_fold_run_execute (run_t *r, worker_t *ws, int nranges, bson_error_t *error);

/* ---- fold_run_write.c ------------------------------------------------------------------------------- */

/* lab_fold_run_free_batch -- drop the documents of the write batch. */
void lab_fold_run_free_batch (worker_t *w);

/* lab_fold_run_checkpoint -- record the range's last fully written master (and whether the range is done). */
bool lab_fold_run_checkpoint (worker_t *w, bool done, bson_error_t *error);

/* lab_fold_run_flush -- write the batch, then checkpoint it. */
bool lab_fold_run_flush (worker_t *w, bson_error_t *error);

/* lab_fold_run_add_doc -- queue a document (the batch takes it), flushing first when it would overflow. */
bool lab_fold_run_add_doc (worker_t *w, bson_t *doc, bson_error_t *error);

/* lab_fold_run_set_candidate -- the master a checkpoint may name once the batch holding it is written. */
void lab_fold_run_set_candidate (worker_t *w, const bson_value_t *key);

/* lab_fold_run_emit_cb, lab_fold_run_reject_cb -- the fold's callbacks (fold.h), ctx the worker. */
bool lab_fold_run_emit_cb (void *ctx, const bson_value_t *key, bson_t **docs, size_t ndocs, int64_t nrows,
                           bson_error_t *error);
bool lab_fold_run_reject_cb (void *ctx, const bson_value_t *key, const bson_t *const *rows, size_t nrows,
                             const char *reason, bson_error_t *error);

/* lab_fold_run_note_master -- count a finished master for the progress bar. */
void lab_fold_run_note_master (worker_t *w);

/* ---- fold_run_rows.c -------------------------------------------------------------------------------- */

/* lab_fold_run_rows_push -- --shape sorted: the range's next row (in key order) to the write batch,
 * unchanged; a change of key makes the previous master the candidate a checkpoint may name (all its rows
 * are in the batch or written). Errors: a row without a usable key, keys out of order, a write error. */
bool lab_fold_run_rows_push (worker_t *w, const bson_t *row, bson_error_t *error);

/* lab_fold_run_rows_finish -- the range's last master is complete: the candidate (call before the last
 * flush); frees the worker's current key. */
void lab_fold_run_rows_finish (worker_t *w);

/* lab_fold_run_clustered_push -- --shape clustered: the next row (in the source's natural order) to the
 * write batch with its clustered _id {<key>: K, id: <original _id>}, the other fields unchanged. Errors: a
 * row without the key, a write error. */
bool lab_fold_run_clustered_push (worker_t *w, const bson_t *row, bson_error_t *error);

/* lab_fold_run_shape_check -- the store can hold the shape: --shape clustered needs the embedded store or
 * a MongoDB 5.3+ server (clusteredIndex); FerretDB and older servers are refused
 * (LAB_STORE_ERR_NOT_SUPPORTED naming the reason and --shape sorted). Folded and sorted: true. */
bool lab_fold_run_shape_check (run_t *r, bson_error_t *error);

/* lab_fold_run_natural_push -- --shape clustered (lab_fold_run_clustered_push) or copy: the row as it
 * is, each its own master (the copy's master key is _id), to the write batch. */
bool lab_fold_run_natural_push (worker_t *w, const bson_t *row, bson_error_t *error);

/* ---- fold_run_copy.c -------------------------------------------------------------------------------- */

/* lab_fold_run_copy_opts_check -- --shape copy's option checks (no --key but _id, no --parallel,
 * --create-index or --hoist list): LAB_ERROR_USAGE naming why. */
bool lab_fold_run_copy_opts_check (const lab_fold_run_opts_t *o, bson_error_t *error);

/* lab_fold_run_copy_plan -- --shape copy, before anything is written: the source's indexes into
 * r->copy_build and r->copy_skip (a warning logged for each one skipped, naming why); a clustered source
 * is refused (LAB_STORE_ERR_NOT_SUPPORTED). */
bool lab_fold_run_copy_plan (run_t *r, lab_store_session_t *sess, bson_error_t *error);

/* lab_fold_run_copy_build -- build r->copy_build's indexes on the destination (after its data; existing
 * ones are fine, so a resumed copy builds what is missing). */
bool lab_fold_run_copy_build (run_t *r, lab_store_session_t *sess, bson_error_t *error);

/* lab_fold_run_copy_describe -- doc.copy = {read, indexes, indexes_not_built}, each index {name, key (the
 * pattern as text)[, why]}: for the marker and --plan. */
void lab_fold_run_copy_describe (const run_t *r, bson_t *doc);

/* lab_fold_run_copy_print -- the plan's copy section as text (nothing when it has none). */
void lab_fold_run_copy_print (const bson_t *plan, FILE *out);

/* lab_fold_run_rows_reset -- forget the current master (a new try); the try's counters cleared. */
void lab_fold_run_rows_reset (worker_t *w);

#endif
