/*
 * fold_run.h -- fold-details' store-driven half: sorted reads, the fold, batched unordered writes, parallel
 * key ranges, the resume checkpoint and the reject file. The pure logic is in fold.h; checking the
 * result against the source is in verify.h.
 *
 * Checkpoint: the collection "<dst>.fold_state" in the destination database holds {_id: "settings"}
 * (the run's settings, resolved hoist list and range bounds, and `complete`) and one {_id: "range-<i>"}
 * per key range with the last master whose documents are all written (`last_key`) and `done`. A resumed
 * run deletes the documents of masters past the checkpoint in each range and folds on from there; since
 * `_id`s are deterministic, nothing is duplicated or lost.
 */
#ifndef LAB_ETL_FOLD_RUN_H
#define LAB_ETL_FOLD_RUN_H

#include "core/progress.h"
#include "store/serverfacts.h"
#include "store/store.h"
#include "fold.h"

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define LAB_FOLD_STATE_SUFFIX ".fold_state"

/* The most key ranges (workers) a fold runs: --parallel's bound, in the option table and the check. */
#define LAB_FOLD_MAX_PARALLEL 64

/* A fold whose read the server would sort, of more documents than this, is refused before it starts
 * (--allow-blocking-sort overrides): such a sort holds the collection in memory or temporary files before
 * the first document is folded. */
#define LAB_FOLD_BLOCKING_SORT_MAX_DOCS INT64_C (1000000)

/* mongod's limit on a blocking sort's memory before it spills (allowDiskUse) or fails:
 * internalQueryMaxBlockingSortMemoryUsageBytes, 100 MiB (docs reference/explain-results "Sort Stage"). */
#define LAB_FOLD_SORT_MEMORY_BYTES INT64_C (104857600)

typedef struct {
   lab_fold_target_t target;     /* source, destination, key, array field, cap, buckets (fold.h) */
   const char *hoist_spec;       /* "auto", "none" or "f1,f2,..." */
   int64_t hoist_sample_masters; /* masters sampled by --hoist auto (0: 200) */
   lab_fold_oversize_t on_oversize;
   const char *reject_path; /* JSON lines; required for REJECT */
   int64_t batch_docs;      /* 0: 1000 */
   uint64_t batch_bytes;    /* 0: 16 MiB; capped below the server's message size */
   int parallel;            /* key ranges / workers (0: 1) */
   bool resume;
   bool drop_dst;
   bool copy_only;                  /* benchmark ceiling: same sorted read, rows written as they are */
   bool create_index;               /* build the source's {key: 1} index when missing (else NO_INDEX) */
   const char *const *allow_writes; /* --allow-writes: collections layoutlab did not write that the user
                                     * named for index builds (NULL-terminated; NULL: none) */
   bool plan_only;                  /* --plan: decide and describe (result->plan), write nothing */
   bool allow_blocking_sort;       /* --allow-blocking-sort: start even when the server's plan sorts more than
                                    * blocking_sort_max_docs documents before the first one */
   int64_t blocking_sort_max_docs; /* 0: LAB_FOLD_BLOCKING_SORT_MAX_DOCS */
   bool allow_mixed_key_types;     /* --allow-mixed-key-types: fold a key of several BSON type classes (7 and
                                    * "7" become two masters) instead of refusing it */
   const bson_t *provenance;     /* the destination's marker fields (store/mark.h: tool, version, written_at,
                                  * command_line); the run adds source and params and writes it before the
                                  * first document. NULL: no marker is written */
   int32_t cursor_batch_docs;    /* sorted reads' cursor batch size (0: the backend's) */
   int32_t fetch_ahead_rows;     /* the fold's sorted read: index entries whose rows the embedded store
                                  * fetches ahead in RecordId order (lab_store_sorted_opts_t; 0: one at a
                                  * time; fold-details' default LAB_FOLD_FETCH_AHEAD_ROWS) */
   bool defer_journal;           /* a complete run leaves its tables as the store made them (fold-details
                                  * opens it unlogged) for the caller's lab_fold_run_journal: journaling
                                  * closes the destination's table, so a verification right after would
                                  * read it again from disk */
   int retries;                  /* tries of a range after a transient error (retry.h); 0: none */
   int64_t retry_first_delay_ms; /* 0: LAB_RETRY_FIRST_DELAY_MS */
   lab_progress_mode_t progress;
   int64_t kill_after_batches; /* test hook: SIGKILL self after this many written batches (0: off) */
   bool kill_after_drop;       /* test hook: SIGKILL self once --drop-dst has dropped dst, before its
                                * checkpoint collection is dropped and rewritten */
} lab_fold_run_opts_t;

/* fold-details' --fetch-ahead default: windows of up to 256 Ki index entries (64 MiB of rows at most). */
#define LAB_FOLD_FETCH_AHEAD_ROWS 262144

typedef struct {
   int64_t rows_in;
   int64_t docs_out;
   int64_t masters;
   int64_t masters_split;
   int64_t masters_rejected;
   int64_t rows_rejected;
   int64_t largest_doc_bytes;
   int64_t write_errors; /* documents the server refused */
   int64_t batches;
   int64_t peak_buffer_bytes; /* the fold's own memory: sum over workers of their largest write batch +
                               * one master's rows and documents held at once */
   int64_t max_doc_bytes;     /* the cap in force */
   int64_t batch_bytes;       /* the batch byte limit in force */
   int ranges;                /* key ranges actually used */
   bool resumed;
   double elapsed_s;
   char **hoisted;          /* resolved hoist list (NULL-terminated) */
   char **rejected_key_ids; /* lab_fold_key_id of each rejected master in this run (NULL-terminated) */
   int64_t retries;         /* ranges restarted from their checkpoint after a transient error */
   bool gave_up_transient;  /* the run failed on a transient error after every retry: --resume may finish
                             * it once the server is back */
   bool resume_refused;     /* --resume found a destination it cannot continue (the error names what it
                             * found); only --drop-dst (start over) recovers, or for settings that differ
                             * from an interrupted run's, rerunning with that run's settings */
   double index_build_s;    /* --create-index: seconds the source index took to build (-1: not built) */
   bson_t *plan;            /* plan_only: what the run would send (see lab_fold_run_plan_print) */
   bson_t *key_types;       /* the key's BSON types when it has several (allowed), for the summary; NULL */
} lab_fold_run_result_t;

/* lab_fold_run_state_coll -- "<dst>.fold_state" (caller bson_free()s). */
char *lab_fold_run_state_coll (const char *dst);

/* lab_fold_run_opts_check -- the option checks that need no store (src and dst given and different,
 * ranges, contradicting options); lab_fold_run runs them too. LAB_ERROR_USAGE. */
bool lab_fold_run_opts_check (const lab_fold_run_opts_t *o, bson_error_t *error);

/* lab_fold_run -- fold `src` into `dst` as described in fold-details --help. Usage problems (dst == src,
 * a non-empty dst without --drop-dst/--resume, settings differing from the interrupted run's) are
 * LAB_ERROR_USAGE; write errors are counted in result->write_errors and fail the run. The result is
 * filled as far as the run got.
 * Index: the source needs an index on the key (the sorted read walks it); without one the run fails
 * before writing anything with LAB_STORE_ERR_NO_INDEX naming --create-index, or builds it (create_index).
 * Retries: a range that fails with a transient error (lab_store_error_transient) starts again from its last
 * checkpoint (as --resume would) after 1 s, 2 s, 4 s, ... (at most 16 s), up to `retries` times, each
 * try logged; then the run fails with result->gave_up_transient set.
 * Resume refusals (LAB_ERROR_USAGE, result->resume_refused): settings other than those of the fold the
 * checkpoint describes, a damaged checkpoint, a non-empty destination without one, and a checkpoint that
 * says the fold completed or got under way while the destination is gone (a --drop-dst run stopped between
 * dropping the destination and replacing the checkpoint); each message names the state found.
 * plan_only: every check and decision of a run (limits, destination, resume or fresh, index, hoist
 * sample, ranges), then result->plan describes what it would send; nothing is written. */
bool lab_fold_run (lab_store_t *store, const lab_fold_run_opts_t *opts, lab_fold_run_result_t *result,
                   bson_error_t *error);

/* lab_fold_run_journal -- the destination, its checkpoint collection and the marker collection journaled
 * (lab_store_set_journaled; those that exist): what a complete lab_fold_run does last unless
 * opts->defer_journal. No session may hold a cursor on them. MongoDB: nothing. */
bool lab_fold_run_journal (lab_store_t *store, const lab_fold_run_opts_t *opts, bson_error_t *error);

void lab_fold_run_result_cleanup (lab_fold_run_result_t *result);

/* What the server's own plan of the fold's read means (lab_fold_run_sort_verdict). */
typedef struct {
   bool observed;  /* the server was asked (false: the embedded store, which walks the index itself) */
   bool sorts;     /* it sorts before the first document */
   bool spills;    /* ... more than LAB_FOLD_SORT_MEMORY_BYTES: to temporary files (allowDiskUse) */
   bool refuse;    /* more than the limit of documents, without --allow-blocking-sort */
   char say[1024]; /* in words, for a DBA */
} lab_fold_run_sort_verdict_t;

/* lab_fold_run_sort_verdict -- what `plan` (lab_store_facts_explain_parse of the read's explain; NULL: not
 * observed) means for a read of about est_docs documents of avg_bytes each: whether the server sorts
 * them (and where), and whether the fold refuses to start (est_docs over `max_docs`, 0 meaning
 * LAB_FOLD_BLOCKING_SORT_MAX_DOCS, unless `allow`). Pure. */
void lab_fold_run_sort_verdict (const lab_store_facts_plan_t *plan, int64_t est_docs, double avg_bytes,
                                bool allow, int64_t max_docs, lab_fold_run_sort_verdict_t *v);

/* lab_fold_run_plan_print -- the plan (result->plan of a plan_only run) as text for a DBA. */
void lab_fold_run_plan_print (const bson_t *plan, FILE *out);

typedef struct {
   bool exists;         /* dst exists */
   int64_t count;       /* its documents */
   bool has_state;      /* a fold_state settings document exists */
   bool complete;       /* ... and says the run completed */
   int32_t bucket_rows; /* the run's --bucket-rows (0: none) */
   char bucket_by[128]; /* the run's --bucket-by ("": none) */
   /* the run's other settings that decide what the destination holds ("" / -1 when not recorded) */
   char src[256];
   char key[256];
   char array_field[256];
   int64_t max_doc_bytes;
   char shape[16]; /* the run's --shape ("folded" for a checkpoint from before shapes) */
} lab_fold_run_dst_status_t;

/* lab_fold_run_dst_status -- what is at `dst` now and, from its checkpoint, the settings that made it (for
 * --verify on a finished collection). */
bool lab_fold_run_dst_status (lab_store_t *store, const char *dst, lab_fold_run_dst_status_t *st,
                              bson_error_t *error);

/* The settings of a fold that decide what its destination holds: a verification with other ones would
 * count every master they change as a difference. */
typedef enum {
   LAB_FOLD_SETTING_SRC,
   LAB_FOLD_SETTING_KEY,
   LAB_FOLD_SETTING_ARRAY_FIELD,
   LAB_FOLD_SETTING_BUCKET_ROWS,
   LAB_FOLD_SETTING_BUCKET_BY,
   LAB_FOLD_SETTING_MAX_DOC_BYTES,
   LAB_FOLD_SETTING_SHAPE,
   LAB_FOLD_NSETTINGS
} lab_fold_setting_t;

/* What a verification without --drop-dst or --resume found at its destination (lab_fold_run_verify_only). */
typedef struct {
   lab_fold_run_dst_status_t st; /* the destination and its checkpoint (opts may point into it) */
   bool only;                    /* a finished fold with these settings: verify it, fold nothing */
   bool interrupted;             /* a fold its checkpoint says is incomplete: to be continued first */
   size_t ndiffer;               /* a finished fold made with other settings than opts' ... */
   struct {
      lab_fold_setting_t setting;
      char there[256];           /* the fold's ("": none) */
      char here[256];            /* opts' */
   } differ[LAB_FOLD_NSETTINGS]; /* ... these, in lab_fold_setting_t order */
} lab_fold_run_verify_only_t;

/* lab_fold_run_verify_only -- the driver's decision for a verification of `opts->dst` that neither drops
 * nor resumes it: a destination absent or empty is folded first (v->only false); a non-empty one whose
 * checkpoint says incomplete is v->interrupted; one made with other settings (source, key, array field, a
 * bucket limit or the cap this command sets; v->differ) is neither folded nor verified; otherwise the fold
 * is finished and only verified (v->only): the bucket limits opts leaves out then take the fold's (opts
 * points into v->st, which must outlive it). The caller turns the refusals into messages. */
bool lab_fold_run_verify_only (lab_store_t *store, lab_fold_run_opts_t *opts, lab_fold_run_verify_only_t *v,
                               bson_error_t *error);

#endif
