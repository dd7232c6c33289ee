/*
 * cmp.h -- layout-report's library: reading a scancmp results file (docs/results-schema.md), the
 * Markdown rendering of the report, and the gnuplot charts. The metric catalogue and the comparison
 * arithmetic (medians, spreads, ratios, which layout wins each metric) are core/results.h, shared with
 * scancmp's table.
 *
 * Everything except lab_cmp_charts_write is a pure function of the results document, so the report is
 * deterministic (no clock, no absolute path) and golden-testable. Library code never prints or exits.
 */
#ifndef LAB_CMP_H
#define LAB_CMP_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/results.h"

/* ---- results files ----------------------------------------------------------------------------- */

typedef struct {
   bson_t doc;        /* the whole results document */
   char *name;        /* the file's base name, for headings (never an absolute path) */
   bool from_summary; /* the file was scancmp's --json summary: doc is its "results" */
} lab_cmp_results_t;

/* lab_cmp_results_load_json -- parse and validate one results document held in `data`; `name` labels
 * errors and headings. scancmp's --json summary holds the same results under "results": it is read
 * from there (out->from_summary); another tool's summary, or scancmp's of a failed run, is refused in one
 * line naming the file to give instead. Refuses empty, truncated or invalid JSON (with line and column),
 * a top-level array, trailing content, an unknown schema_version and run entries lacking a required
 * figure. On success fill *out (free with lab_cmp_results_cleanup). */
bool lab_cmp_results_load_json (const char *data, size_t len, const char *name, lab_cmp_results_t *out,
                                bson_error_t *error);

/* lab_cmp_results_load_file -- read `path` whole and call lab_cmp_results_load_json; errors name it. */
bool lab_cmp_results_load_file (const char *path, lab_cmp_results_t *out, bson_error_t *error);

/* lab_cmp_results_cleanup -- free what a load filled; safe on a zeroed struct. */
void lab_cmp_results_cleanup (lab_cmp_results_t *r);

/* ---- workloads (docs/results-schema.md, "Workloads") -------------------------------------------- */

/* A figure of a workload entry the file did not know (-1, null or absent) is LAB_CMP_WL_UNKNOWN: the
 * report shows it as n/a. A flag (multikey, created, cold, rows_equal) is 1, 0 or -1 (unknown). */
#define LAB_CMP_WL_UNKNOWN (-1.0)

/* One index a workload's query used. */
typedef struct {
   const char *name; /* or NULL (points into the results document, as every string below) */
   bson_t keys;      /* a view of its key pattern; empty when not recorded */
   int multikey, created;
   double size_bytes;
} lab_cmp_wl_index_t;

/* One layout's measurement of one workload. */
typedef struct {
   const char *layout, *collection, *kind, *plan, *plan_source, *where, *digest;
   lab_cmp_wl_index_t *indexes; /* n_indexes of them; has_indexes false: not recorded */
   size_t n_indexes;
   bool has_indexes;
   double elapsed_s;   /* always known: the median of its runs */
   lab_stat_t elapsed; /* elapsed_s over its runs (runs[]; one run without them): what the rule judges */
   double queries, rows_returned, docs_read, doc_bytes_read, disk_read_bytes, disk_reads, cpu_s;
   double p50_ms, p95_ms, p99_ms, max_ms, mean_ms;
   double lat_count; /* the latencies behind the percentiles (latency_ms.count; unknown in older files) */
   double docs_per_row, disk_bytes_per_row; /* computed from the counts when the file lacks them */
   double x_vs_winner;                      /* elapsed_s / the winner's: computed when the file lacks it */
   int cold;
   const char *cold_reason;     /* why not cold (NULL: cold, or not recorded) */
   double device_bytes_per_row; /* the whole device's bytes per row, beside the engine's (unknown: n/a) */
   double other_cores;          /* background.other_cores: other processes' CPU over the measurement */
   int busy;                    /* background.busy: 1, 0 or -1 */
   const char *busy_note;
   /* a write workload's "write" object (unknown for the reads) */
   double writes, writes_per_s, docs_written, parts_created, new_data_bytes, journal_bytes, checkpoint_bytes;
   double journal_per_write, checkpoint_per_write, engine_per_write, write_amplification;
   double avg_doc_before, avg_doc_after;
   double oplog_per_write; /* replica set oplog bytes per write (docs/mongodb-compat.md §26) */
} lab_cmp_wl_layout_t;

/* lab_cmp_wl_is_write -- the workload writes (append, update: its layouts carry "write"). */
bool lab_cmp_wl_is_write (const char *workload);

/* One group of an aggregate's result. */
typedef struct {
   const char *group;
   double value;
} lab_cmp_wl_group_t;

/* One workload: workloads[i] of the results file. */
typedef struct {
   const char *workload, *title; /* "row", "each row fetched by (bill_id, line_no)" (title may be NULL) */
   const char *load_order;       /* a load's "key" or "random" (NULL: not recorded, key order) */
   char label[64];               /* the row's name in every table: "load (key order)", "row" */
   bson_t params;                /* a view; empty when not recorded */
   int rows_equal;
   lab_cmp_wl_layout_t *layouts; /* n_layouts of them, in the file's order */
   size_t n_layouts;
   size_t winner; /* index in layouts: the best by the one rule (lab_results_rank of their elapsed) */
   bool tie;      /* the rule cannot tell the winner from the runner-up: "same" (rank.tied says who) */
   lab_results_rank_t rank; /* what the winner rests on (rank.decisive: its interval or "1 run") */
   bool has_result;         /* aggregate: "result" */
   double groups;           /* LAB_CMP_WL_UNKNOWN when not recorded */
   bool has_total;          /* total: the sum over every group, any sign */
   double total;
   lab_cmp_wl_group_t *by_group;
   size_t n_groups;
} lab_cmp_workload_t;

typedef struct {
   lab_cmp_workload_t *w; /* n of them, in the order run; n == 0: the file has no "workloads" */
   size_t n;
} lab_cmp_workloads_t;

/* lab_cmp_workloads_of -- the "workloads" of results document `doc` into *out (views into doc: valid while
 * it is; n == 0 when absent). Refuses, naming the file (`name`), the entry and the field, a "workloads"
 * that is not an array, an entry without a "workload" name or a non-empty "layouts" array, a workload
 * named twice, a layout without its name or elapsed_s, a layout named twice in an entry, a "winner" that
 * names none of its layouts, and any figure, flag or string of the wrong type (a figure may be -1 or
 * null: unknown). Free with lab_cmp_workloads_cleanup (also after a failure). */
bool lab_cmp_workloads_of (const bson_t *doc, const char *name, lab_cmp_workloads_t *out,
                           bson_error_t *error);

/* lab_cmp_workloads_cleanup -- free what lab_cmp_workloads_of filled; safe on a zeroed struct. */
void lab_cmp_workloads_cleanup (lab_cmp_workloads_t *wl);

/* lab_cmp_workload_find -- the workload named `workload`, or NULL. */
const lab_cmp_workload_t *lab_cmp_workload_find (const lab_cmp_workloads_t *wl, const char *workload);

/* lab_cmp_wl_layout_find -- the index of `layout` in w->layouts, or -1. */
int lab_cmp_wl_layout_find (const lab_cmp_workload_t *w, const char *layout);

/* ---- the user's mix (docs/results-schema.md: the top-level "mix") ------------------------------ */

/* The op types of a mix, in their canonical order (a spec's, a table's); aggregate is never one. */
typedef enum {
   LAB_CMP_MIX_LOAD,
   LAB_CMP_MIX_ROW,
   LAB_CMP_MIX_RANGE,
   LAB_CMP_MIX_APPEND,
   LAB_CMP_MIX_UPDATE,
   LAB_CMP_MIX_TYPES
} lab_cmp_mix_type_t;

/* lab_cmp_mix_type_names -- "load", "row", "range", "append", "update" (lab_cmp_mix_type_t order). */
extern const char *const lab_cmp_mix_type_names[LAB_CMP_MIX_TYPES];

/* lab_cmp_mix_type_of -- the lab_cmp_mix_type_t named by the first `len` bytes of `s`, or -1. */
int lab_cmp_mix_type_of (const char *s, size_t len);

/* One op type of one layout's stream: by_type[] of the file (ops 0: not in the stream). A figure the file
 * did not know (-1, null or absent; every latency of an estimate) is LAB_CMP_WL_UNKNOWN. */
typedef struct {
   double ops, time_s; /* time_s: the ops' latencies summed (an estimate: ops x the workload's mean latency
                        * per op), so time_s / ops is the mean latency in both */
   double p50_ms, p95_ms, p99_ms, max_ms, mean_ms, rows; /* latency (an open loop: from the intended start) */
   double svc_p50_ms, svc_p95_ms, svc_p99_ms;            /* service time (from the actual start) */
} lab_cmp_mix_op_t;

/* One layout's run of the stream. Strings point into the results document. */
typedef struct {
   const char *layout, *collection, *kind, *digest;
   double elapsed_s, ops_per_s, x_vs_winner; /* the last two computed when the file lacks them */
   lab_stat_t elapsed; /* elapsed_s over its runs (runs[]; one run without them): what the rule judges */
   double disk_read_bytes, disk_reads, disk_write_bytes, engine_write_bytes, journal_bytes, cpu_s;
   double latency_s;                  /* every op's latency summed (an open loop's winner: the least) */
   double achieved_ops_s, max_lag_ms; /* an open loop's schedule */
   int behind, saturated;             /* 1, 0 or -1 (unknown) */
   double client_cores, store_cores;  /* CPU: cores busy over the stream */
   double machine_busy_cores, machine_cores;
   const char *store_cpu; /* whose the store's CPU is ("the same process ...") */
   lab_cmp_mix_op_t by_type[LAB_CMP_MIX_TYPES];
   double state_count; /* the collection's documents when the stream started (measured only; -1 unknown) */
} lab_cmp_mix_layout_t;

/* A mix: measured (read from the file) or estimated (lab_cmp_mix_estimate). */
typedef struct {
   bool present;                     /* false: no mix (nothing rendered) */
   bool estimated;                   /* re-weighted from the separate workloads */
   char *spec;                       /* canonical "load=5,row=60,..." (owned) */
   double weight[LAB_CMP_MIX_TYPES]; /* the proportions as given; 0: not in the mix */
   double ops, seed, workers;        /* seed, workers: LAB_CMP_WL_UNKNOWN when not recorded */
   int cold, rows_equal;             /* 1, 0 or -1 (unknown) */
   bool open;                        /* "mode": "open" (--mix-rate); else a closed loop */
   double rate_ops_s;                /* an open loop's rate; LAB_CMP_WL_UNKNOWN otherwise */
   int behind, saturated;            /* some layout's schedule fell behind / saturated the machine */
   const char *source;               /* how it was made (a view, or static for an estimate) */
   size_t winner; /* index in layouts: the best by the one rule (lab_results_rank of lab_cmp_mix_score) */
   bool tie;      /* the rule cannot tell the winner from the runner-up: "same" */
   lab_results_rank_t rank;       /* what the winner rests on */
   lab_cmp_mix_layout_t *layouts; /* n_layouts of them (owned array) */
   size_t n_layouts;
   bool read_bytes_scaled; /* an estimate: read bytes scaled from every type's disk_read_bytes per op */
} lab_cmp_mix_t;

/* lab_cmp_mix_spec_parse -- `spec` ("load=5,row=60,range=5,append=25,update=5") into weight[] (absent
 * types 0), by core/mix_spec.h's grammar (the one scancmp --mix uses). False with *error (LAB_ERROR_USAGE)
 * naming the item that is wrong and its position. */
bool lab_cmp_mix_spec_parse (const char *spec, double weight[LAB_CMP_MIX_TYPES], bson_error_t *error);

/* lab_cmp_mix_spec_text -- the canonical spec of weight[]: the types above 0 in canonical order,
 * "load=5,row=60". Caller bson_free()s. */
char *lab_cmp_mix_spec_text (const double weight[LAB_CMP_MIX_TYPES]);

/* lab_cmp_mix_of -- the measured "mix" of results document `doc` (views into doc: valid while it is;
 * out->present false when absent or null). Refuses, naming the file (`name`), the entry and the field: a
 * mix that is not an object; a missing or wrong "spec", "proportions" (an object of types, each a number
 * of at least 0), "ops" (above 0) or "layouts" (a non-empty array); a layout without its name, elapsed_s
 * or by_type, or named twice; a by_type entry without a known "op", its "ops" or "time_s", or an op twice;
 * a "winner" naming none of its layouts; any figure, flag or string of the wrong type (a figure may be -1 or
 * null: unknown). Fields it does not know are ignored. Free with lab_cmp_mix_cleanup (also after a failure).
 */
bool lab_cmp_mix_of (const bson_t *doc, const char *name, lab_cmp_mix_t *out, bson_error_t *error);

/* lab_cmp_mix_estimate -- the mix of weight[] over `ops` operations estimated from the separate workloads
 * `wl` of results document `doc` (named `name`), for each layout of `ls` (docs/results-schema.md, "Estimated
 * mix"): per layout and type the cost of one op = the workload's elapsed_s / its ops (load: queries, else
 * runs[0].keys; row: queries x params.row_batch (1 when absent); range: queries; append, update:
 * write.writes), by_type ops = ops x share, elapsed_s = the sum of ops x share x cost, time_s = ops x share
 * x the workload's mean latency per op (unknown when not recorded) and mean_ms that latency; the load ops
 * from "load_random" when the file has it (the mix picks masters at random), else "load", `source` saying
 * which; the write bytes from write.engine_bytes_per_write of the writes (the reads write nothing), the read
 * bytes from every type's disk_read_bytes per op when each is known (else unknown); the other latencies,
 * disk reads and CPU unknown. False
 * with *error (LAB_ERROR_USAGE) naming the type, the layout and the file when a type in the mix has no
 * measured workload for a layout, or its op count is unknown. Free with lab_cmp_mix_cleanup. */
bool lab_cmp_mix_estimate (const lab_cmp_workloads_t *wl, const bson_t *doc, const lab_results_layouts_t *ls,
                           const char *name, const double weight[LAB_CMP_MIX_TYPES], double ops,
                           lab_cmp_mix_t *out, bson_error_t *error);

/* lab_cmp_mix_score -- what names a mix's winner (the least): a closed loop's elapsed_s; an open loop's
 * elapsed time is its schedule's, so its latency_s (every op's latency summed). */
double lab_cmp_mix_score (const lab_cmp_mix_t *m, const lab_cmp_mix_layout_t *l);

/* lab_cmp_mix_rank -- m->winner, m->tie and m->rank by the one rule (lab_results_rank) over the layouts'
 * scores (lab_cmp_mix_score: their runs' elapsed_s when closed; an estimate's one figure each). */
void lab_cmp_mix_rank (lab_cmp_mix_t *m);

/* lab_cmp_collection_name -- the collection of a layout: layouts[].collection, else dataset.<l>.collection
 * (lab_results_layouts), else config.<l>. */
const char *lab_cmp_collection_name (const lab_cmp_results_t *r, const char *layout);

/* lab_cmp_mix_layout_find -- the index of `layout` in m->layouts, or -1. */
int lab_cmp_mix_layout_find (const lab_cmp_mix_t *m, const char *layout);

/* lab_cmp_mix_cleanup -- free what lab_cmp_mix_of or lab_cmp_mix_estimate filled; safe on a zeroed struct. */
void lab_cmp_mix_cleanup (lab_cmp_mix_t *m);

/* lab_cmp_mix_json_append -- for scripts (layout-report --json): append `key` (m not present: nothing):
 * {spec, estimated, ops, winner, layouts: {<name>: {elapsed_s, ops_per_s, x_vs_winner, write_bytes (the
 * engine's, else the device's), read_bytes (each absent when unknown), by_type: {<op>: {ops, time_s}}, and
 * with `against` (a measured mix; may be NULL) error: this elapsed_s over its, minus 1}}}. */
void lab_cmp_mix_json_append (const lab_cmp_mix_t *m, const lab_cmp_mix_t *against, const char *key,
                              bson_t *out);

/* lab_cmp_mix_verdict -- append the verdict sentence of m (docs/results-schema.md): "Under this mix (load 5%,
 * ...) the folded layout is 1.8x faster overall than detail: it wins load (9.1x) and range (2.0x), loses row
 * (1.3x) and writes 4.1x the bytes."; with more than two layouts one clause per other layout; an estimate
 * starts "Estimated from separate runs: under this mix". Names Markdown-escaped. */
void lab_cmp_mix_verdict (bson_string_t *o, const lab_cmp_mix_t *m);

/* ---- runs (the metric catalogue and its arithmetic live in core/results.h) ---------------------- */

/* lab_cmp_runs_n -- number of runs[] entries (both layouts). */
int lab_cmp_runs_n (const lab_cmp_results_t *r);

/* lab_cmp_run_get -- a read-only view of runs[i] in *run (no copy: valid while r is); false when out of
 * range. */
bool lab_cmp_run_get (const lab_cmp_results_t *r, int i, bson_t *run);

/* lab_cmp_run_count -- number of runs[] entries of `layout`. */
int lab_cmp_run_count (const lab_cmp_results_t *r, const char *layout);

/* lab_cmp_median_run -- the runs[] index of `layout`'s median run by elapsed_s (the lower middle one
 * for an even count), or -1 when the layout has no run. */
int lab_cmp_median_run (const lab_cmp_results_t *r, const char *layout);

/* ---- what the layouts matched ------------------------------------------------------------------ */

/* Whether the layouts compared the same thing: keys that matched no document (runs[].keys_unmatched,
 * absent in older files) and runs whose layouts returned different row counts (runs[].rows). The arrays
 * are in the file's layout order (lab_results_layouts: a version 1 file's [0] detail, [1] folded). */
typedef struct {
   size_t n;                                   /* layouts */
   size_t reference;                           /* index of the reference layout: rows are compared with its */
   const char *names[LAB_RESULTS_MAX_LAYOUTS]; /* the layouts' names (point into the results document) */
   bool has_unmatched[LAB_RESULTS_MAX_LAYOUTS]; /* a run of the layout recorded keys_unmatched */
   int64_t unmatched_min[LAB_RESULTS_MAX_LAYOUTS], unmatched_max[LAB_RESULTS_MAX_LAYOUTS]; /* over its runs */
   int64_t keys;         /* keys per layout: dataset.keys, else runs[].keys; -1 */
   int row_pairs;        /* reference entries with the rows of another layout in the same run number */
   int rows_differ;      /* of which some other layout's rows differ from the reference's */
   int first_differ_run; /* the first such run number (0: none) */
   int64_t first_differ_rows[LAB_RESULTS_MAX_LAYOUTS]; /* its rows per layout; -1: none recorded */
} lab_cmp_match_t;

/* lab_cmp_match_of -- the facts above from the top-level runs[] of `r` (a sweep: its reference point). */
void lab_cmp_match_of (const lab_cmp_results_t *r, lab_cmp_match_t *m);

/* lab_cmp_match_partial -- some key matched no document in some layout. */
bool lab_cmp_match_partial (const lab_cmp_match_t *m);

/* lab_cmp_match_json_append -- for scripts (layout-report --json): "match": {keys, keys_unmatched:
 * {<layout>: the largest over its runs, for every layout that recorded it}, rows_differ_runs, row_pairs}. */
void lab_cmp_match_json_append (const lab_cmp_match_t *m, bson_t *out);

/* ---- formatting -------------------------------------------------------------------------------- */

/* lab_cmp_md_escape -- `s` with Markdown-special characters backslash-escaped and line breaks turned
 * into spaces, safe inside a table cell or heading; NULL gives "n/a". Caller bson_free()s. */
char *lab_cmp_md_escape (const char *s);

/* lab_cmp_md_text -- append lab_cmp_md_escape (s) to `o`. */
void lab_cmp_md_text (bson_string_t *o, const char *s);

/* lab_cmp_md_suggest -- a command the report suggests, as inline code: "`TOOL --uri URI --db DB ARGS`"
 * with the store the file measured (backend.uri, already redacted, and backend.db; "URI" when the file
 * does not record it), built by core/suggest.h. `args` are shell words. */
void lab_cmp_md_suggest (bson_string_t *o, const lab_cmp_results_t *r, const char *tool, const char *args);

/* The arguments of the sweep the report suggests (as scancmp --help's example). */
#define LAB_CMP_SWEEP_ARGS "--cold --direct-io --cache-ratios 0.25,0.7,1.5 --out sweep.json"

/* lab_cmp_md_suggest_verify -- the fold-details command that verifies the file's folded layout against its
 * reference (--src and --dst from their collections), by lab_cmp_md_suggest. */
void lab_cmp_md_suggest_verify (bson_string_t *o, const lab_cmp_results_t *r);

/* lab_cmp_md_suggest_scan -- the scancmp command that measures the file's layouts again (--detail and
 * --folded, or a --layout each) with `args` after them, by lab_cmp_md_suggest. */
void lab_cmp_md_suggest_scan (bson_string_t *o, const lab_cmp_results_t *r, const char *args);

/* The forms lab_cmp_md_number appends a number in: each catalogue unit (the same values as lab_unit_t,
 * formatted by lab_results_format), then the report's own forms. One table in cmp.c maps each to its
 * formatter of core/results.h. */
typedef enum {
   LAB_CMP_COUNT = LAB_UNIT_COUNT,     /* 55,357,286 */
   LAB_CMP_RATE = LAB_UNIT_RATE,       /* 3,917/s */
   LAB_CMP_SECONDS = LAB_UNIT_SECONDS, /* 932 s */
   LAB_CMP_MS = LAB_UNIT_MS,           /* 12.5 ms */
   LAB_CMP_BYTES = LAB_UNIT_BYTES,     /* SI: 15.9 MB */
   LAB_CMP_MB_S = LAB_UNIT_MB_S,       /* 10^6 B/s */
   LAB_CMP_PCT = LAB_UNIT_PCT,         /* 66.0% */
   LAB_CMP_FACTOR,                     /* "2.16x" (lab_results_format_factor) */
   LAB_CMP_RATIO_PCT,                  /* a ratio of two medians as a percentage: "46%" */
   LAB_CMP_BINARY,                     /* a cache size in binary units: "256 MiB" */
} lab_cmp_form_t;

/* LAB_CMP_UNIT -- the form of catalogue unit `u` (a metric's m->unit). */
#define LAB_CMP_UNIT(u) ((lab_cmp_form_t)(u))

/* lab_cmp_md_number -- append `v` to `o` in `form`. */
void lab_cmp_md_number (bson_string_t *o, lab_cmp_form_t form, double v);

/* lab_cmp_md_stat -- append s in `unit`: "median (min–max)", or the median alone when `range` is false
 * (lab_results_format_stat). */
void lab_cmp_md_stat (bson_string_t *o, lab_unit_t unit, const lab_stat_t *s, bool range);

/* lab_cmp_md_engine_disk -- append to `o` the two read amplifications of point p's reference layout
 * (named `layout`, Markdown-escaped): "the engine read 6.1x the detail layout, the disk 1.02x", and for
 * a point in LAB_RESULTS_REGIME_MEMORY ": the page cache held it". Nothing without the engine's figure;
 * the disk's only when known. */
void lab_cmp_md_engine_disk (bson_string_t *o, const lab_sweep_point_t *p, const char *layout);

/* ---- rendering --------------------------------------------------------------------------------- */

typedef struct {
   const char *file;    /* relative to the report: "report-read-requests.svg" */
   const char *caption; /* "Disk read requests per second, engine cache 64 MiB" */
   bool totals;         /* a bar per layout of its median run's total: a load too short for a time chart */
} lab_cmp_chart_t;

/* A load sampled fewer times than this is a dot or a short stub on a time chart: its time charts show
 * each layout's total (or peak) instead, which one sample cannot misrepresent. */
#define LAB_CMP_SHORT_LOAD_SAMPLES 10

/* The production point a sweep report marks (layout-report --production-cache-ratio R, or
 * --production-cache SIZE --production-data SIZE): the cache ratio R = cache / the detail layout's
 * on-disk size (data + indexes) in production. */
typedef struct {
   double ratio;       /* > 0 */
   double cache_bytes; /* both > 0 when the ratio was given as two sizes; 0 when given as a ratio */
   double data_bytes;
} lab_cmp_production_t;

/* lab_cmp_production_parse -- *out from the option values (each NULL when not given): `ratio` (above 0),
 * or `cache` and `data` sizes (lab_parse_size; both or neither, each above 0). Nothing given leaves
 * out->ratio 0 (no production point). False with *error (LAB_ERROR_USAGE) on a bad or lone value. */
bool lab_cmp_production_parse (const char *ratio, const char *cache, const char *data,
                               lab_cmp_production_t *out, bson_error_t *error);

/* ---- a reference experiment (layout-report --reference; datasets/reference/README.md) ------------- */

/* One published metric of a reference experiment, converted into the catalogue's unit. */
typedef struct {
   const lab_metric_t *metric;  /* the catalogue entry it names */
   const char *label;           /* the reference's own label, or NULL (points into the document) */
   const char *unit;            /* the unit as published ("GB", "MB/s", "s", ...) */
   const char *note;            /* or NULL */
   bool has_detail, has_folded; /* false: not given (null or absent in the file) */
   double published_detail, published_folded; /* as published, in `unit` */
   double detail, folded;                     /* converted into metric->unit */
} lab_cmp_ref_metric_t;

typedef struct {
   bson_t doc;              /* the whole reference document */
   char *name;              /* the file's base name */
   lab_cmp_ref_metric_t *m; /* metrics[], in the file's order */
   size_t n;
} lab_cmp_reference_t;

/* lab_cmp_unit_factor -- the factor turning a value published in `published` ("GB", "GiB", "KB/s", "min",
 * ...) into catalogue unit `unit` (bytes for sizes, MB/s = 10^6 B/s for throughputs, seconds, ...); SI
 * and binary prefixes stay distinct as written. False when the unit does not convert into `unit`. */
bool lab_cmp_unit_factor (const char *published, lab_unit_t unit, double *factor);

/* lab_cmp_reference_load_json -- parse a reference file held in `data` (reference_version 1; every
 * metrics[] entry a catalogue name, its values numbers or null, its unit convertible); `name` labels
 * errors. Free with lab_cmp_reference_cleanup. */
bool lab_cmp_reference_load_json (const char *data, size_t len, const char *name, lab_cmp_reference_t *out,
                                  bson_error_t *error);

/* lab_cmp_reference_load_file -- read `path` whole and call lab_cmp_reference_load_json. */
bool lab_cmp_reference_load_file (const char *path, lab_cmp_reference_t *out, bson_error_t *error);

/* lab_cmp_reference_cleanup -- free what a load filled; safe on a zeroed struct. */
void lab_cmp_reference_cleanup (lab_cmp_reference_t *ref);

/* lab_cmp_render_measured -- append the section "What was measured": the one workload (each master loaded
 * whole by its key, the workers, cold, the runs) and what the report does not measure (writes, single
 * rows, ranges across masters, aggregates; with "workloads": the load workload, the others in
 * their own sections, and writes not measured). */
void lab_cmp_render_measured (bson_string_t *o, const lab_cmp_results_t *r);

/* lab_cmp_render_reproduce -- append the section "Reproduce": the commands that made each layout (from
 * dataset.<layout>.provenance) and the measurement (command_line), each layout's recorded settings and a
 * fold's --verify outcome, the versions and the host; whatever is not recorded said so. */
void lab_cmp_render_reproduce (bson_string_t *o, const lab_cmp_results_t *r);

/* lab_cmp_render_reference -- append the section "Beside <name>" to `o`: one row per reference metric
 * (the reference's detail, folded and ratio, then this run's), the unit conversions spelt out, and
 * sentences on what the differences come from (size, cache regime, client, machine). For a sweep, this
 * run's figures are those of the largest-cache point in the reference's regime. */
void lab_cmp_render_reference (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_reference_t *ref);

typedef struct {
   const char *title;                 /* NULL: "Layout comparison: <collection> (<layout>) vs ..." */
   const lab_cmp_results_t *baseline; /* NULL: no baseline section */
   const lab_cmp_chart_t *charts;     /* the charts written, linked from the report */
   size_t n_charts;
   const char *charts_note;                /* why charts were skipped, when n_charts == 0 */
   const lab_cmp_production_t *production; /* NULL: none; marked in a sweep's table, verdict and chart */
   const lab_cmp_reference_t *reference;   /* NULL: no "Beside ..." section */
   const lab_cmp_results_t *prediction;    /* --prediction: NULL: no "Predicted beside measured" */
   const lab_cmp_mix_t *mix_estimate;      /* --mix: NULL: the file's measured mix alone, if any */
   const lab_cmp_results_t *mix_file;      /* --mix-file: the measured mix's file (NULL: this one's) */
} lab_cmp_render_opts_t;

/* lab_cmp_render_predicted_note -- (compare/prediction.c) when `r` is a prediction (scancmp
 * --predict), the section "This is a prediction" with the probe's cost; nothing otherwise. */
void lab_cmp_render_predicted_note (bson_string_t *o, const lab_cmp_results_t *r);

/* lab_cmp_render_prediction -- (compare/prediction.c) with `pred` (may be NULL: nothing), the section
 * "Predicted beside measured": per measured point of `r` of the same cache, each layout's predicted and
 * measured read amplification and the speedups, with the error. */
void lab_cmp_render_prediction (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *pred);

/* lab_cmp_render_prediction_wl -- (compare/prediction_wl.c) the range and aggregate workloads' predicted
 * engine bytes read beside the measured ones of the same cache size, per layout, with the error. */
void lab_cmp_render_prediction_wl (bson_string_t *o, const lab_cmp_results_t *r,
                                   const lab_cmp_results_t *pred);

/* lab_cmp_render_prediction_cands -- (compare/prediction_cands.c) the rest of "Predicted beside measured":
 * the other candidates the prediction carries beside the measured ones of the same nature (by their
 * descriptors) at the same caches, and an append's journal bytes and a row read's bytes beside the
 * measured workloads. Nothing when `pred` is NULL or carries none of them. */
void lab_cmp_render_prediction_cands (bson_string_t *o, const lab_cmp_results_t *r,
                                      const lab_cmp_results_t *pred);

/* lab_cmp_sweep_estimate -- the speedup at the production point from the sweep of `r` (its points with
 * a speedup), per lab_results_estimate_speedup: the first candidate's (lab_cmp_sweep_estimate_of 1). */
lab_estimate_t lab_cmp_sweep_estimate (const lab_cmp_results_t *r, const lab_cmp_production_t *production);

/* lab_cmp_sweep_estimate_of -- the same for candidate `cand`, an index in sweep order
 * (lab_results_sweep_order: 1 the first layout after the reference); LAB_ESTIMATE_TOO_FEW when there is
 * no such candidate. */
lab_estimate_t lab_cmp_sweep_estimate_of (const lab_cmp_results_t *r, const lab_cmp_production_t *production,
                                          size_t cand);

/* lab_cmp_sweep_json_append -- for scripts (layout-report --json): append "sweep" (per point: cache size,
 * ratio, regime, reference, speedup of the first candidate, and per layout the median load time, its
 * speedup (the candidates), read amplification, disk read amplification and locality) when r is a sweep,
 * and "production" (ratio, "estimate": interpolated | measured | outside | too_few | single_point, the
 * speedup when there is one, the measured ratio range, all of the first candidate; "candidates": {name:
 * {estimate, speedup}} for every candidate) when given. */
void lab_cmp_sweep_json_append (const lab_cmp_results_t *r, const lab_cmp_production_t *production,
                                bson_t *out);

/* lab_cmp_render_md -- the whole Markdown report. Caller bson_free()s. */
char *lab_cmp_render_md (const lab_cmp_results_t *r, const lab_cmp_render_opts_t *opts);

/* ---- charts ------------------------------------------------------------------------------------ */

#define LAB_CMP_MAX_CHARTS 5

typedef struct {
   lab_cmp_chart_t charts[LAB_CMP_MAX_CHARTS];
   size_t n;
   char *owned[2 * LAB_CMP_MAX_CHARTS];
   size_t n_owned;
} lab_cmp_chart_set_t;

/* lab_cmp_gnuplot_path -- the gnuplot executable found on $PATH, or NULL. Caller bson_free()s. */
char *lab_cmp_gnuplot_path (void);

/* lab_cmp_charts_write -- write the SVG charts for `r` as <dir>/<stem>-<chart>.svg using `gnuplot`
 * (scripts and data in a temporary directory, removed afterwards). Charts whose data the file lacks
 * (no samples, no histogram) are left out. A sweep file first gets <stem>-sweep.svg: speedup and read
 * amplification against the cache ratio, with `production` (may be NULL) marked when it is inside the
 * measured range and `prediction` (may be NULL: the chart as without it, byte for byte) drawn beside the
 * measured curves (lab_cmp_sweep_chart_plot). Each SVG replaces its file atomically. On success *set lists
 * the charts written, with names relative to dir (free with lab_cmp_chart_set_cleanup). */
bool lab_cmp_charts_write (const lab_cmp_results_t *r, const lab_cmp_production_t *production,
                           const lab_cmp_results_t *prediction, const char *gnuplot, const char *dir,
                           const char *stem, lab_cmp_chart_set_t *set, bson_error_t *error);

/* The sweep chart's data and series, built apart from gnuplot so a test can read them. */
typedef struct {
   /* sweep.dat: per point the ratio, each candidate's speedup, each layout's read amplification (sweep
    * order) and the cache size in quotes; nan when missing */
   bson_string_t *data;
   bson_string_t *plot;       /* the plot command's series over 'sweep.dat' (after "plot ") */
   bson_string_t *production; /* production.dat: "ratio speedup" per candidate with an estimate */
   /* gnuplot commands naming the measured regimes (lab_results_point_regime): a dashed line between two
    * neighbouring points of different regimes, each run of points labelled with its regime */
   bson_string_t *regimes;
   size_t n_speedup;       /* speedup series: one per candidate */
   size_t n_amplification; /* read amplification series: one per layout */
   /* predicted.dat (with a prediction): per predicted point its x on this chart's axis (its
    * cache over the measured detail layout's size on disk), then the columns of sweep.dat (each
    * candidate's speedup, each layout's read amplification: the prediction's figures of the layouts of
    * the same name, nan when it has none); NULL without a prediction */
   bson_string_t *predicted;
   size_t n_predicted_points; /* rows of predicted.dat */
   size_t n_predicted;        /* predicted series drawn (dashed, hollow marks; only columns with a figure) */
   double xmin, xmax, ymin, ymax; /* the ratios and factors drawn (ymin > ymax: none) */
} lab_cmp_sweep_chart_t;

/* lab_cmp_bold_colors -- one chart colour per layout, in the file's layout order (charts_sweep.c). */
extern const char *const lab_cmp_bold_colors[LAB_RESULTS_MAX_LAYOUTS];

/* lab_cmp_sweep_chart_plot -- the sweep chart of `r`: one speedup series per candidate (the reference's
 * load time over the candidate's) and one read amplification series per layout, each titled with its
 * layout's name; `production` (may be NULL) adds each candidate's estimate when there is one.
 * `prediction` (may be NULL: nothing of this) is a `scancmp --predict` file: each of its series that
 * names a layout of `r` (a speedup: the same reference and candidate) is drawn beside the measured one
 * in the same colour, dashed with hollow marks and titled "predicted", and the measured series' titles
 * say "measured". Returns the number of points (0 for a single-point file: nothing filled). Free with
 * lab_cmp_sweep_chart_cleanup. */
size_t lab_cmp_sweep_chart_plot (const lab_cmp_results_t *r, const lab_cmp_production_t *production,
                                 const lab_cmp_results_t *prediction, lab_cmp_sweep_chart_t *chart);

/* lab_cmp_sweep_chart_cleanup -- free what lab_cmp_sweep_chart_plot filled; safe on a zeroed struct. */
void lab_cmp_sweep_chart_cleanup (lab_cmp_sweep_chart_t *chart);

/* lab_cmp_chart_set_cleanup -- free the names a chart set owns. */
void lab_cmp_chart_set_cleanup (lab_cmp_chart_set_t *set);

#endif
