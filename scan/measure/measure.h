/*
 * measure.h -- one run of one layout, in two steps (private to scan/ and its tests):
 *   measure (measure.c): make the layout cold (or not), load every key with the workers while the
 *     sampler runs, and keep what was seen in a plain lab_scan_layout_measure_t;
 *   record (record.c): a pure function turns that struct into the run's entry of the results document
 *     (docs/results-schema.md), so the entry's field names and values are unit-tested on a hand-filled
 *     struct.
 * lab_scan_run (run.c) plans (options, keys, device, collections), runs measure + record per (run,
 * layout), and records the whole results document.
 */
#ifndef LAB_SCAN_MEASURE_H
#define LAB_SCAN_MEASURE_H

/* A load's progress lines where no bar is drawn (core/progress.h, lab_progress_lines): none for a load
 * under 5 s, then one every 10 s. */
#define LAB_SCAN_PROGRESS_AFTER_NS 5000000000ull
#define LAB_SCAN_PROGRESS_PERIOD_NS 10000000000ull

#include "scan/measure/sampler.h"
#include "scan/workloads/workload.h"

/* What every measured layout shares, resolved once by lab_scan_run's plan step. */
typedef struct {
   lab_store_t *store;
   const lab_scan_opts_t *opts;
   lab_store_backend_t backend;
   const bson_value_t *keys; /* sorted, spread */
   int64_t nkeys;
   /* how the loads measured now share the keys out (lab_scan_keys_share): key (a contiguous segment each)
    * or random (perm, the seeded shuffle of the keys' indexes, dealt round-robin); lab_scan_run sets it
    * per measurement with --load-order both */
   lab_scan_load_order_t load_order;
   const int64_t *perm;           /* NULL: no random order asked for */
   const char *device;            /* NULL: no device figures */
   lab_store_server_info_t info;  /* the server as last seen: updated after each measured layout */
   const char *restart_shown;     /* --restart-cmd redacted (NULL: none) */
   lab_scan_topology_t *topo;     /* the servers whose statistics are followed, and the disk source */
   lab_results_layouts_t layouts; /* the candidates (lab_scan_layouts_resolve) */
   double on_disk_bytes[LAB_RESULTS_MAX_LAYOUTS]; /* per layout: data + indexes; 0 unknown */
   const struct lab_scan_wl_prep *wl; /* the workloads besides the load (NULL: none), run after the load's
                                       * runs: once, or at every point of a sweep */
} lab_scan_plan_t;

/* A layout's collection as a measurement found it (wl_state.c): -1 unknown. */
typedef struct {
   int64_t count;           /* documents (lab_store_stats: the store's metadata, no scan) */
   int64_t data_size_bytes; /* their uncompressed size */
} lab_scan_state_t;

/* One followed server (the store's own, or a shard) as one layout's run saw it. */
typedef struct {
   char name[128];
   char host[LAB_FACTS_HOST_MAX];
   int64_t pid, uptime_s; /* -1 unknown */
   int64_t start_ms;      /* when its process started (serverStatus localTime - uptimeMillis); -1 unknown */
   bool restarted;        /* the same member, a new process (lab_store_facts_restart_of) in the cold step */
   bool member_changed;   /* another member answered after the cold step: not a restart of this one */
   /* server-side disk (FTDC) */
   bool have_disk;
   char device[64];
   char device_reason[256];
   lab_store_facts_disk_delta_t disk;
} lab_scan_target_measure_t;

/* One worker's totals. */
typedef struct {
   int64_t keys, docs, rows;
   double elapsed_s;
} lab_scan_worker_totals_t;

/* One (run, layout), as measured. Counts of -1 are unknown (left out of the entry). */
typedef struct {
   int run;
   const char *layout; /* the layout's name */
   const char *collection;
   const char *kind;         /* LAB_RESULTS_KIND_*: rows count one per document, else the array's elements */
   const lab_layout_t *desc; /* what the layout is (the plan's descriptor) */
   int order_in_run;         /* 1 .. the number of layouts */
   lab_scan_load_order_t load_order; /* how the keys were shared out (the load; key for a workload) */
   char started_at[32];              /* RFC 3339 UTC */
   double elapsed_s;                 /* first to last sample */
   lab_scan_state_t state;           /* the collection before the cold step: what this measurement measured */

   /* cold facts */
   bool cold_requested;
   bool engine_restarted;
   bool server_restarted;
   bool caches_dropped;
   char drop_caches_note[512];
   bool server_facts;               /* a server: report its pid and uptime */
   int64_t server_pid;              /* -1 unknown */
   int64_t server_uptime_s;         /* -1 unknown */
   int64_t server_start_ms;         /* when its process started; -1 unknown */
   char member[LAB_FACTS_HOST_MAX]; /* the member that served the run (serverStatus.host) */
   const char *restart;             /* lab_store_facts_restart_name of the cold step (NULL: no step) */
   char restart_reason[512];        /* lab_store_facts_restart_of's words */
   bool member_changed;             /* another member served this run than the one before: its
                                     * cache is its own, so the run is not cold (said in
                                     * restart_reason) */
   int64_t resident_bytes_before, file_bytes; /* -1 unknown */
   bool cold;                                 /* both caches started empty, as far as the step can tell */
   char cold_reason[256];                     /* why not ("" when cold) */
   int64_t engine_cache_bytes_before;         /* the collection's bytes in the engine cache just before the
                                               * load (lab_store_coll_cache_bytes); -1 unknown */

   /* followed servers (mongos: the shards) and where the disk figures came from */
   bool topology_targets; /* a server: record targets[] */
   lab_scan_target_measure_t targets[LAB_SCAN_MAX_TARGETS];
   size_t ntargets;
   const char *disk_source; /* "local", "ftdc" or "none" */
   size_t ftdc_samples;

   /* totals */
   int64_t keys, docs, rows, bytes_returned;
   int64_t keys_unmatched; /* keys whose lookup returned no document */
   uint64_t digest;        /* the load: the sum of every returned row's content digest (lab_scan_rowhash) */
   bool have_disk;         /* the device's counters at both ends */
   lab_scan_diskstats_delta_t disk;
   bool have_engine; /* engine counters at both ends */
   lab_store_engine_stats_t engine_before, engine_after;

   /* memory (sampler peaks) */
   int64_t server_rss_peak_bytes, cache_peak_bytes, cache_max_bytes; /* -1 unknown */

   /* CPU of the store's process (the one whose RSS is sampled: this one when embedded, a local server's) */
   double cpu_s;  /* utime + stime over the load, seconds; -1 unknown */
   int cpu_cores; /* the CPUs that process may run on; -1 unknown */

   lab_scan_background_t background; /* what else ran on this machine over the load */

   /* latency of every key lookup */
   lab_scan_latency_summary_t latency;
   int64_t histogram[LAB_LATENCY_NBUCKETS];

   lab_scan_wl_acc_t wl; /* a workload's queries: what they returned (owned) */

   lab_scan_worker_totals_t *workers; /* owned */
   int nworkers;
   lab_scan_sample_t *samples; /* owned */
   size_t nsamples;
} lab_scan_layout_measure_t;

/* lab_scan_guard_writes -- before anything is sent or built: the writes (append, update, a --mix with
 * either) on every layout of p, --create-index where a key index is missing, --create-workload-indexes
 * where a workload index is, each only on a collection layoutlab wrote or one --allow-writes names
 * (lab_store_mark_write_guard: LAB_ERROR_USAGE naming it). A key no document has is left to the collection
 * check, which says so with the fields it saw. */
bool lab_scan_guard_writes (const lab_scan_plan_t *p, lab_store_session_t *sess, bson_error_t *error);

/* lab_scan_workloads_index_builds -- builds[i] (one per layout of p) = --create-workload-indexes would
 * build a missing index on layout i for the workloads and the mix o asks for; nothing is built (the
 * guard of what a tool may write runs on these before the first build). */
bool lab_scan_workloads_index_builds (const lab_scan_plan_t *p, lab_store_session_t *sess, bool *builds,
                                      bson_error_t *error);

/* lab_scan_workloads_prepare -- with workloads besides the load (o->wl.set): before anything is made cold,
 * the inputs drawn (lab_scan_wl_inputs_draw: a field the rows lack fails here, before any index is built
 * for it), then every layout's workload index checked, or created with --create-workload-indexes (missing
 * and not asked: LAB_ERROR_USAGE naming each index's createIndex command). The mode: the real commands on
 * a MongoDB server, the tool's plan on the embedded store and on a server with a subset of the query
 * language (FerretDB). wp is initialized even on failure. */
bool lab_scan_workloads_prepare (const lab_scan_plan_t *p, lab_store_session_t *sess, lab_scan_wl_prep_t *wp,
                                 bson_error_t *error);

/* What runs at one measurement point (the single point, or one cache of a sweep), decided once by
 * lab_scan_point_plan (scan/point.c); the runs and the workloads take it instead of reading the options. */
typedef struct {
   int runs;               /* the load's runs and each workload's: --runs (--reference-runs at a sweep's
                              reference point) */
   bool load;              /* the load's runs (lab_scan_runs) and the load's "workloads" entry */
   unsigned set;           /* the workloads, bit k kind k (a sweep's other points: without the writes) */
   bool load_random;       /* --load-order both: the load again in seeded random order beside it */
   bool load_after_writes; /* the load again after the appends (both asked) */
   bool workloads;         /* a "workloads" array: a workload besides the load, or load_random */
   bool mix;               /* the user's mix (--mix; never in a sweep) */
} lab_scan_point_t;

/* lab_scan_point_plan -- what runs at a point under o into *pt: sweep false for the single point; in a sweep
 * `reference` says whether this is the reference point (the only one with the writes, which change the
 * data the other points read). Pure. */
void lab_scan_point_plan (const lab_scan_opts_t *o, bool sweep, bool reference, lab_scan_point_t *pt);

/* lab_scan_workloads_run -- after the load's runs (their summary already in results): the workloads of
 * point pt, each cold on every layout in run 1's order, pt->runs times, appended as "workloads" (the load's
 * entry from the summary). Nothing when !pt->workloads. Layouts that returned different rows or totals:
 * LAB_ERROR_VERIFY / LAB_VERIFY_ERR_RESULTS_DIFFER after the array is appended (exit 3). */
bool lab_scan_workloads_run (lab_scan_plan_t *p, const lab_scan_wl_prep_t *wp, const lab_scan_point_t *pt,
                             bson_t *results, bson_error_t *error);

/* lab_scan_workloads_cleanup -- free what wp owns. */
void lab_scan_workloads_cleanup (lab_scan_wl_prep_t *wp);

/* lab_scan_utc_now -- the time now, RFC 3339 UTC ("2026-01-02T03:04:05Z"). */
void lab_scan_utc_now (char *buf, size_t len);

/* lab_scan_state_read -- the collection's documents and data size now, from the store's statistics (cheap:
 * no scan; estimates on FerretDB); unknown (-1) when the store cannot tell, never an error. */
void lab_scan_state_read (const lab_scan_plan_t *p, const char *coll, lab_scan_state_t *st);

/* lab_scan_state_append -- `state: {count, data_size_bytes}` into d (nothing when unknown). */
void lab_scan_state_append (bson_t *d, const lab_scan_state_t *st);

/* lab_scan_state_of_run1 -- the state run 1 of the load's runs recorded for `layout` in results' "runs"
 * (-1: none recorded). */
void lab_scan_state_of_run1 (const bson_t *results, const char *layout, lab_scan_state_t *st);

/* lab_scan_wl_cold_append -- beside a workload or mix layout's "cold": "cold_reason" (when not cold),
 * "engine_cache_bytes_before" (when known) and "background" (bg; NULL: none) (cold_facts.c). */
void lab_scan_wl_cold_append (bson_t *d, bool cold, const char *reason, int64_t engine_cache_before,
                              const lab_scan_background_t *bg);

/* lab_scan_wl_per_row_append -- "disk_bytes_per_row_source" ("engine": the engine's own block reads;
 * "device": the whole device's, other processes and the journal too) and "device_bytes_per_row" (-1
 * unknown) beside a layout's disk_bytes_per_row. */
void lab_scan_wl_per_row_append (bson_t *d, int64_t engine_bytes, int64_t device_bytes, int64_t rows);

/* lab_scan_runs_cold_of -- whether every run of `layout` in results' "runs" started cold
 * (runs[].cold.started_cold); else false with the first reason in reason (len bytes). */
bool lab_scan_runs_cold_of (const bson_t *results, const char *layout, char *reason, size_t len);

/* lab_scan_writes_mark -- right after a write workload (`workload` "append" / "update") or a mix ("mix")
 * wrote to `coll`: {tool "scancmp", workload, rows_appended, rows_updated, at (now, UTC), command_line
 * (opts->argv, URIs redacted), failed (only when the run failed during the writes)} appended to the
 * collection's marker "writes" (lab_store_mark_write_add), its other fields kept. Nothing written, or no
 * marker (a collection layoutlab did not write): nothing recorded, true. */
bool lab_scan_writes_mark (const lab_scan_plan_t *p, const char *coll, const char *workload, int64_t appended,
                           int64_t updated, bool failed, bson_error_t *error);

/* lab_scan_layout_measure -- the collection's state (lab_scan_state_read, into m->state), the cold step (with
 * --cold) and the load of every key of plan->keys from `layout`'s collection (every document of a key: a
 * buckets layout holds several) by opts->parallel workers, into *m (the caller frees it with
 * lab_scan_layout_measure_cleanup, also on failure). plan->info becomes the server seen after the cold step.
 * Errors name the run and layout ("run 2 folded, worker 1: ..."). */
bool lab_scan_layout_measure (lab_scan_plan_t *plan, int run, const lab_results_layout_t *layout,
                              int order_in_run, lab_scan_layout_measure_t *m, bson_error_t *error);

/* lab_scan_layout_measure_wl -- the same for the items of a workload (wl; NULL: the load): its queries
 * shared out over the workers as the keys are, what they returned in m->wl. */
bool lab_scan_layout_measure_wl (lab_scan_plan_t *plan, int run, const lab_results_layout_t *layout,
                                 int order_in_run, const lab_scan_wl_layout_t *wl,
                                 lab_scan_layout_measure_t *m, bson_error_t *error);

/* lab_scan_layout_measure_cleanup -- free what *m owns. */
void lab_scan_layout_measure_cleanup (lab_scan_layout_measure_t *m);

/* lab_scan_layout_entry -- append the results entry of *m to `entry` (pure: no clock, no I/O). */
void lab_scan_layout_entry (const lab_scan_layout_measure_t *m, bson_t *entry);

/* lab_scan_runs -- every run (`runs` of them: lab_scan_point_t's), every layout in the run's order
 * (lab_scan_run_order), measured and recorded into entries[*nentries...] (room for layouts x runs; each is
 * bson_init'ed before use, the caller destroys the first *nentries also on failure). */
bool lab_scan_runs (lab_scan_plan_t *p, int runs, bson_t *entries, int *nentries, bson_error_t *error);

/* lab_scan_runs_record -- "runs" and "summary" of entries[0..n) into doc, after lab_scan_match_warn's
 * warnings (keys that matched nothing in a layout, a run whose layouts returned different row counts). */
void lab_scan_runs_record (const lab_scan_plan_t *p, bson_t *doc, const bson_t *entries, int n);

/* ---- do the keys match anything? (match.c) ------------------------------------------------------- */

/* lab_scan_key_class -- the class a value compares in, as a plural noun for messages: "numbers" (int32,
 * int64, double and decimal compare by value), "strings", "ObjectIds", "dates", ... */
const char *lab_scan_key_class (const bson_value_t *v);

/* lab_scan_no_match_hint -- why keys may match nothing in `coll`: when every key is of one class and
 * `sample` (a value of `field` in coll) of another, a sentence saying so with an example of each and the
 * fix ("The keys are strings ("42") but bill_id in bill_detail holds numbers (42): write the keys without
 * quotes"); else NULL. Pure. Caller bson_free()s. */
char *lab_scan_no_match_hint (const bson_value_t *keys, int64_t nkeys, const char *field, const char *coll,
                              const bson_value_t *sample);

/* lab_scan_keys_match -- *any = some key of keys[0..nkeys) matches a document of `coll` on `field`: one
 * indexed lookup per key, stopping at the first match (one lookup when the first key matches). */
bool lab_scan_keys_match (lab_store_session_t *sess, const char *coll, const char *field,
                          const bson_value_t *keys, int64_t nkeys, bool *any, bson_error_t *error);

/* lab_scan_match_check -- before anything is made cold: fail with LAB_ERROR_SCAN / LAB_SCAN_ERR_NO_MATCH
 * when no key matches a document in some layout of *ls (or in all), naming how many keys, where they
 * came from (keys_coll: whose index gave them), the collection(s) and the key field, with
 * lab_scan_no_match_hint's sentence when the keys' type differs from the field's (sampled from the first
 * documents in key order). */
bool lab_scan_match_check (lab_store_session_t *sess, const lab_scan_opts_t *o,
                           const lab_results_layouts_t *ls, const char *keys_coll, const bson_value_t *keys,
                           int64_t nkeys, bson_error_t *error);

/* lab_scan_match_warn -- the warnings on the runs' entries[0..n) (ls->n entries per run): keys that
 * matched no document in a layout (runs[].keys_unmatched, once per run whose counts changed), and a run
 * whose layouts returned different row counts. */
void lab_scan_match_warn (const lab_scan_opts_t *o, const lab_results_layouts_t *ls, const bson_t *entries,
                          int n);

/* ---- the cache sweep (sweep.c) ------------------------------------------------------------------ */

/* What the sweep resolves before anything is measured. */
typedef struct {
   size_t n;
   uint64_t *cache_bytes; /* per point, ascending */
   double *ratios;        /* per point: cache / detail on-disk size (0 unknown) */
   size_t reference;      /* the point the top level repeats (lab_results_sweep_reference_of) */
   bson_t locality[LAB_RESULTS_MAX_LAYOUTS]; /* per layout: locality (empty: not measured, see note) */
   char locality_note[LAB_RESULTS_MAX_LAYOUTS][600];
} lab_scan_sweep_t;

/* lab_scan_sweep_plan -- resolve the caches (lab_scan_sweep_resolve on plan->on_disk_bytes), refuse a server
 * that cannot set its cache (one setParameter up front), and measure each layout's locality with
 * `sess` (scan/measure/locality.c). Nothing is measured cold yet. sw is initialized even on failure. */
bool lab_scan_sweep_plan (lab_scan_plan_t *p, lab_store_session_t *sess, lab_scan_sweep_t *sw,
                          bson_error_t *error);

/* lab_scan_sweep_run -- per point: set the engine cache, lab_scan_runs, and append the point to
 * results' "sweep"; then "sweep_reference" and the reference point's runs and summary at the top. */
bool lab_scan_sweep_run (lab_scan_plan_t *p, const lab_scan_sweep_t *sw, bson_t *results,
                         bson_error_t *error);

/* lab_scan_sweep_cleanup -- free what sw owns. */
void lab_scan_sweep_cleanup (lab_scan_sweep_t *sw);

/* lab_scan_locality -- the locality object of `coll` (pages_per_master_mean, _p95, masters_sampled,
 * method "record_ids", rows_per_leaf_page, leaf_pages_source) from the RecordIds of a fixed sample of
 * `keys`; false with LAB_STORE_ERR_NOT_SUPPORTED where the store has no RecordIds. */
bool lab_scan_locality (lab_store_session_t *sess, const lab_scan_opts_t *o, const char *coll,
                        const bson_value_t *keys, int64_t nkeys, bson_t *out, bson_error_t *error);

#endif
