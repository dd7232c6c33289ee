/*
 * results.h -- the one results model of layoutlab (docs/results-schema.md): the schema version and the
 * key names scancmp writes and layout-report reads, the layouts a file compares (any number from schema
 * version 2; detail and folded in version 1), the metric catalogue (name, place in the file, label, unit
 * and which way is better), the arithmetic over runs (median, min, max; each layout's ratio to the
 * reference; winner with one tie rule) and the value formatting every renderer prints.
 *
 * scancmp's terminal table and layout-report's Markdown table are both built from lab_results_nrow and
 * lab_results_nrow_cells, so the same results file gives the same labels, values and winners in both.
 * lab_results_winner is the two-layout rule the N-layout row reduces to; with the two layouts detail and
 * folded, lab_results_nrow and lab_results_nrow_cells are the two-layout row and cells (n = 2).
 * Everything here is a pure function of its arguments; nothing prints.
 */
#ifndef LAB_RESULTS_H
#define LAB_RESULTS_H

#include "core/layout.h"

#include <bson/bson.h>
#include <stdbool.h>
#include <stddef.h>

/* ---- schema ------------------------------------------------------------------------------------- */

/* The version scancmp writes. Version 3 names the header's facts as the tools' --json summaries do
 * (version, started, finished, command_line; version 2 had tool_version, started_at, finished_at and no
 * command line). Version 2 names any number of layouts (layouts[], reference_layout); version 1 files
 * hold exactly the two layouts "detail" (rows) and "folded". Every version is still read. */
#define LAB_RESULTS_SCHEMA_VERSION 3
#define LAB_RESULTS_SCHEMA_VERSION_MIN 1 /* the oldest version the readers accept */

#define LAB_RESULTS_KEY_SCHEMA_VERSION "schema_version"
/* The header: the same names as every tool's --json summary (docs/json-summary.md) */
#define LAB_RESULTS_KEY_VERSION "version"           /* the tool's version (schema 1-2: tool_version) */
#define LAB_RESULTS_KEY_STARTED "started"           /* UTC ISO-8601 (schema 1-2: started_at) */
#define LAB_RESULTS_KEY_FINISHED "finished"         /* UTC ISO-8601 (schema 1-2: finished_at) */
#define LAB_RESULTS_KEY_COMMAND_LINE "command_line" /* [argv...], URIs redacted (from schema 3) */
#define LAB_RESULTS_KEY_RUNS "runs"                 /* runs[]: one entry per (run, layout) */
#define LAB_RESULTS_KEY_LAYOUT "layout"             /* runs[].layout: the name of one of layouts[] */
#define LAB_RESULTS_KEY_LAYOUTS "layouts" /* layouts[]: {name, collection, kind} as given (version 2) */
#define LAB_RESULTS_KEY_LAYOUT_NAME "name"
#define LAB_RESULTS_KEY_LAYOUT_COLLECTION "collection"
#define LAB_RESULTS_KEY_LAYOUT_KIND "kind"
#define LAB_RESULTS_KEY_LAYOUT_DESCRIPTOR "descriptor"      /* layouts[].descriptor: layout.h's JSON form */
#define LAB_RESULTS_KEY_REFERENCE_LAYOUT "reference_layout" /* the name every ratio is against */
#define LAB_RESULTS_KEY_SUMMARY "summary"                   /* summary.<layout>.<figure>.{median,min,max} */
#define LAB_RESULTS_KEY_DATASET "dataset" /* dataset.<layout>.<field>: one value per layout */
#define LAB_RESULTS_KEY_NRUNS "runs"      /* summary.<layout>.runs: how many runs the figures cover */
#define LAB_RESULTS_KEY_MEDIAN "median"
#define LAB_RESULTS_KEY_MIN "min"
#define LAB_RESULTS_KEY_MAX "max"

/* The deployment (scancmp; docs/results-schema.md "topology" and "disk_source") */
#define LAB_RESULTS_KEY_TOPOLOGY "topology"          /* {kind, set_name, member, shards: [...], note} */
#define LAB_RESULTS_KEY_TOPOLOGY_KIND "kind"         /* "standalone", "replset", "mongos" */
#define LAB_RESULTS_KEY_TOPOLOGY_SET_NAME "set_name" /* replica set name ("" otherwise) */
#define LAB_RESULTS_KEY_TOPOLOGY_MEMBER "member"     /* the member the reads and statistics follow */
#define LAB_RESULTS_KEY_TOPOLOGY_SHARDS "shards"     /* mongos: [{name, host, uri}] in listShards order */
#define LAB_RESULTS_KEY_TOPOLOGY_NOTE "note"         /* what the figures follow, in words */
#define LAB_RESULTS_KEY_DISK_SOURCE "disk_source"    /* {source, device, reason} */
#define LAB_RESULTS_KEY_DISK_SOURCE_SOURCE "source"  /* "local", "ftdc" or "none" */
#define LAB_RESULTS_KEY_SERVER_DISK "server_disk"    /* runs[].server_disk: FTDC figures per server */
#define LAB_RESULTS_KEY_COLD_SHARDS "shards" /* runs[].cold.shards: per shard pid, uptime, restarted */

#define LAB_RESULTS_DETAIL "detail" /* one document per row (the name of a version 1 file's layout) */
#define LAB_RESULTS_FOLDED "folded" /* one document per master */

/* The kinds of layout: how a master's rows are stored, so how a loaded document counts its rows. */
#define LAB_RESULTS_KIND_ROWS "rows"       /* one document per row */
#define LAB_RESULTS_KIND_FOLDED "folded"   /* one document per master, its rows in an array */
#define LAB_RESULTS_KIND_BUCKETS "buckets" /* several documents per master, each an array of rows */

/* The most layouts one comparison holds. */
#define LAB_RESULTS_MAX_LAYOUTS 8

/* One layout of a comparison. The strings point into the results document (or are static). */
typedef struct {
   const char *name;       /* runs[].layout, summary.<name>, dataset.<name> */
   const char *collection; /* NULL when the file does not say */
   const char *kind;       /* LAB_RESULTS_KIND_* (a version 1 file: rows, folded) */
   lab_layout_t desc;      /* what it is (layout.h): the tools ask it, not the name or kind */
} lab_results_layout_t;

typedef struct {
   size_t n;
   lab_results_layout_t l[LAB_RESULTS_MAX_LAYOUTS];
   size_t reference; /* index of the layout every ratio is against */
} lab_results_layouts_t;

/* lab_results_layouts -- the layouts of a results file, in their order: layouts[] when the file has it
 * (version 2), else "detail" (rows) and "folded" (version 1). The reference is reference_layout when it
 * names one of them, else the first of kind rows, else the first. Collections come from layouts[], else
 * dataset.<name>.collection. A view: valid while `results` is. */
void lab_results_layouts (const bson_t *results, lab_results_layouts_t *out);

/* lab_results_layout_find -- the index of layout `name` in *ls, or -1. */
int lab_results_layout_find (const lab_results_layouts_t *ls, const char *name);

/* lab_results_layouts_append -- append layouts[] and reference_layout of *ls to `results` (writers). */
void lab_results_layouts_append (bson_t *results, const lab_results_layouts_t *ls);

/* lab_results_get_number -- the number (int32, int64 or double) at dotted `path` of `doc`; false when
 * absent, null or not a number. */
bool lab_results_get_number (const bson_t *doc, const char *path, double *out);

/* lab_results_sample_knee -- a sampled prediction's detail knee (prediction.sample.knee.detail: the
 * sample's cache ratio and the one its jackknife moves it to); false when the prediction states none. */
bool lab_results_sample_knee (const bson_t *doc, double *sample_ratio, double *moved_ratio);

/* lab_results_get_int -- lab_results_get_number rounded to an integer (counts stored as any number type). */
bool lab_results_get_int (const bson_t *doc, const char *path, int64_t *out);

/* lab_results_get_string -- the UTF-8 string at dotted `path` (points into doc), or NULL. */
const char *lab_results_get_string (const bson_t *doc, const char *path);

/* lab_results_get_bool -- the boolean at dotted `path`; false when absent. */
bool lab_results_get_bool (const bson_t *doc, const char *path, bool *out);

/* lab_results_header -- a header string of any schema version: `key` (LAB_RESULTS_KEY_VERSION, _STARTED,
 * _FINISHED), else its schema 1-2 name (tool_version, started_at, finished_at); NULL when neither. */
const char *lab_results_header (const bson_t *results, const char *key);

/* lab_results_flat_name -- the summary name of a run entry's figure at dotted `run_path` (the schema's
 * flattening rule): "elapsed_s" -> "elapsed_s", "rates.read_mb_s_peak" -> "read_mb_s_peak",
 * "latency_ms.p99" -> "latency_p99_ms", "cpu.process_s" -> "cpu_process_s". */
void lab_results_flat_name (const char *run_path, char *buf, size_t len);

/* lab_results_summary_append -- append "summary" to `results`: per layout (every name of the entries'
 * "layout", in order of first appearance) the number of runs and
 * {median, min, max} of every numeric figure of its `n` run entries, named by lab_results_flat_name
 * (run numbers, order and server process facts left out). */
void lab_results_summary_append (bson_t *results, const bson_t *entries, int n);

/* ---- the metric catalogue ------------------------------------------------------------------------ */

typedef enum {
   LAB_BETTER_LOWER,  /* less is better: time, read requests, memory */
   LAB_BETTER_HIGHER, /* more is better: useful work per second, request size */
   LAB_DESCRIPTIVE,   /* shown for understanding, no winner */
} lab_better_t;

typedef enum {
   LAB_UNIT_COUNT,   /* plain count: 55,357,286 */
   LAB_UNIT_RATE,    /* per second: 3,917/s */
   LAB_UNIT_SECONDS, /* 932 s */
   LAB_UNIT_MS,      /* 12.5 ms */
   LAB_UNIT_BYTES,   /* SI: 15.9 MB */
   LAB_UNIT_MB_S,    /* value in MB/s (10^6 B/s) */
   LAB_UNIT_PCT,     /* 66.0% */
} lab_unit_t;

typedef struct {
   const char *name;     /* summary.<layout>.<name>; for a dataset figure dataset.<layout>.<name> */
   const char *run_path; /* dotted path inside a runs[] entry; NULL for a dataset figure */
   const char *label;    /* the row label of every table */
   lab_unit_t unit;
   lab_better_t better;
} lab_metric_t;

/* lab_results_metrics -- the catalogue: every comparison table's rows, in order; *n gets their number. */
const lab_metric_t *lab_results_metrics (size_t *n);

/* lab_results_metric_find -- the metric called `name`, or NULL. */
const lab_metric_t *lab_results_metric_find (const char *name);

/* ---- arithmetic ---------------------------------------------------------------------------------- */

/* The per-run values a stat keeps for the rule (lab_results_verdict pairs them by run number); a file
 * with more runs keeps its first LAB_RESULTS_MAX_RUNS for the interval (the median is of all). */
#define LAB_RESULTS_MAX_RUNS 64

typedef struct {
   bool present; /* false: no run had the figure ("n/a") */
   int n;        /* how many runs had it */
   double median, min, max;
   int nrun;                           /* per-run values known (0: the medians only, an old summary) */
   double run_v[LAB_RESULTS_MAX_RUNS]; /* each run's value, in the file's order */
   int run_no[LAB_RESULTS_MAX_RUNS];   /* its run number (1-based; 0: unknown, paired by position) */
} lab_stat_t;

/* lab_results_stat_of -- median (mean of the two middle values when n is even), min and max of
 * v[0..n); v is not modified. n == 0 gives present = false. */
lab_stat_t lab_results_stat_of (const double *v, size_t n);

/* lab_results_stat_runs -- lab_results_stat_of, keeping each value with its run number run[i] (run may be
 * NULL: numbered by position) for the paired rule. */
lab_stat_t lab_results_stat_runs (const double *v, const int *run, size_t n);

/* lab_results_metric_stat -- metric `m` for `layout` in `results`: a dataset figure as a one-run stat;
 * otherwise summary.<layout>.<name> when the file has it, else computed from the layout's runs[]. */
lab_stat_t lab_results_metric_stat (const bson_t *results, const char *layout, const lab_metric_t *m);

/* lab_results_ratio -- folded / detail of the medians; false when either is missing or detail is 0. */
bool lab_results_ratio (const lab_stat_t *detail, const lab_stat_t *folded, double *ratio);

/* lab_results_shows_zero -- whether `v` prints as zero in `unit` (lab_results_format: "0.0%", "0 B"). */
bool lab_results_shows_zero (lab_unit_t unit, double v);

typedef enum {
   LAB_WIN_NONE, /* descriptive metric, or a figure missing */
   LAB_WIN_TIE,  /* no difference the runs can tell (lab_tie_t says why): "same" */
   LAB_WIN_DETAIL,
   LAB_WIN_FOLDED,
   LAB_WIN_ONE, /* lab_results_nrow: a single best layout, named by the row's `best` */
} lab_winner_t;

/* The one rule that names a winner (every table, verdict, sweep point, workload, the mix and the
 * baseline change use it: core/verdict.c, documented in docs/results.md "The rule"). Elapsed times are
 * compared as clock readings; the sampling interval bounds nothing about them.
 *  - Two runs or more of both layouts, paired by run number (the layouts alternate in order per run): the
 *    95% confidence interval of the ratio b/a is a Student-t interval of the mean of the paired log
 *    ratios (their geometric mean is the ratio shown); "same" only when the interval holds 1. Values
 *    that are not all positive (a count that is 0 in some run) use the paired differences instead: "same"
 *    when their interval holds 0.
 *  - One run (or figures without per-run values): no spread to judge by. The ratio is shown as measured
 *    with "1 run: no spread", and it is "same" only when the difference is within the timer's resolution
 *    (LAB_RESULTS_TIMER_RES_S, a time) or under LAB_RESULTS_FLOOR of the larger: a difference that small
 *    prints as 1.00x, and a winner "1.00x" would contradict itself.
 *  - Dataset figures (sizes, counts: facts, not measurements of a run): "same" only under the same floor.
 *  - Two experiments (a baseline change, noise->unpaired): their runs are independent, so the interval is
 *    Welch's (unequal variances) over each side's log values instead of the paired one. */
#define LAB_RESULTS_FLOOR 0.005
#define LAB_RESULTS_TIMER_RES_S 1e-6
#define LAB_RESULTS_CI_LEVEL 0.95

/* Why two figures are "same" (LAB_TIE_NO: they are not). */
typedef enum {
   LAB_TIE_NO,
   LAB_TIE_CLOSE,    /* within LAB_RESULTS_FLOOR or the timer's resolution (one run, or a fact) */
   LAB_TIE_INTERVAL, /* two runs or more: the 95% interval of the ratio holds 1 */
} lab_tie_t;

/* The noise a difference of one metric must clear (lab_results_noise_of). */
typedef struct {
   bool measured;     /* a figure of the runs (false: a dataset fact, only LAB_RESULTS_FLOOR applies) */
   double resolution; /* the smallest difference the instrument tells, in the metric's unit (0: none) */
   bool unpaired;     /* two experiments (a baseline change): their runs are not paired: a Welch interval */
} lab_results_noise_t;

/* lab_results_noise_of -- the noise of metric `m` in `results`: measured unless a dataset figure; a time
 * (LAB_UNIT_SECONDS, LAB_UNIT_MS) has the timer's resolution. */
lab_results_noise_t lab_results_noise_of (const bson_t *results, const lab_metric_t *m);

/* The whole judgement of b against a under the rule. */
typedef struct {
   lab_winner_t winner; /* NONE (descriptive, or a figure missing), TIE, DETAIL (a), FOLDED (b) */
   lab_tie_t why;       /* winner TIE: why */
   int npairs;          /* runs compared pairwise (< 2: no interval; the "1 run: no spread" case) */
   bool has_ratio;      /* a > 0 */
   double ratio;        /* b / a: the paired runs' geometric mean ratio, else the medians' ratio */
   bool has_ci;         /* npairs >= 2 and every value positive */
   double lo, hi;       /* the 95% interval of b / a */
   double factor;       /* a winner's advantage, >= 1 (0 when a figure is 0 or there is none) */
} lab_verdict_t;

/* lab_results_verdict -- b against a (two layouts' stats of one metric) under the rule above, with `noise`
 * (NULL: a measured figure without a resolution). */
lab_verdict_t lab_results_verdict (lab_better_t better, const lab_stat_t *a, const lab_stat_t *b,
                                   const lab_results_noise_t *noise);

/* lab_results_verdict_note -- what the verdict rests on, for a cell or a sentence: "95% CI 4.9–5.3x, 3
 * runs" / "1 run: no spread" (factor-style, the winner's advantage), "" without a winner or tie. Caller
 * bson_free()s. */
char *lab_results_verdict_note (const lab_verdict_t *v);

/* The rule over N layouts' figures of one metric. */
typedef struct {
   size_t best;            /* the best layout: by median, unless its paired runs rank the runner-up first */
   size_t runner;          /* the runner-up (== best when fewer than two layouts have the figure) */
   lab_verdict_t decisive; /* the runner-up (a) against the best (b): what the winner rests on */
   bool tied[LAB_RESULTS_MAX_LAYOUTS]; /* LAB_WIN_TIE: the layouts "same" as the best (the best included) */
   size_t ntied;
} lab_results_rank_t;

/* lab_results_rank -- who wins among st[0..n) (absent figures skipped): LAB_WIN_ONE (rk->best, by
 * rk->decisive.factor over the runner-up), LAB_WIN_TIE (the runner-up is "same" as the best: rk->tied
 * names every layout "same" as it), or LAB_WIN_NONE (descriptive, or fewer than two figures). Every
 * table row, workload, the mix and the sweep points rank through it. */
lab_winner_t lab_results_rank (lab_better_t better, const lab_stat_t *st, size_t n,
                               const lab_results_noise_t *noise, lab_results_rank_t *rk);

/* lab_results_winner -- lab_results_verdict's winner, for callers that need no interval (`noise` NULL:
 * a measured figure without a resolution); *factor (may be NULL) gets the winner's advantage as a factor
 * >= 1 (larger / smaller; 0 when the smaller is 0 or there is none); *why (may be NULL) why a tie is one. */
lab_winner_t lab_results_winner (lab_better_t better, const lab_stat_t *detail, const lab_stat_t *folded,
                                 const lab_results_noise_t *noise, double *factor, lab_tie_t *why);

/* One comparison row over N layouts: what every N-column table shows for a metric. */
typedef struct {
   const lab_metric_t *metric;
   size_t n;         /* layouts */
   size_t reference; /* the layout the ratios are against */
   lab_stat_t stat[LAB_RESULTS_MAX_LAYOUTS];
   bool has_ratio[LAB_RESULTS_MAX_LAYOUTS];
   double ratio[LAB_RESULTS_MAX_LAYOUTS]; /* layout / reference of the medians */
   bool zero_ref;                         /* no ratios: the reference's median shows as zero */
   lab_winner_t winner;                   /* NONE (descriptive or fewer than two figures), TIE, or ONE */
   size_t best;                           /* winner != NONE: the best layout (the first one on a tie) */
   bool tied[LAB_RESULTS_MAX_LAYOUTS];    /* winner TIE: the layouts "same" as the best */
   size_t ntied;
   lab_tie_t tie; /* winner TIE: why the runner-up is "same" as the best */
   double factor; /* single best: its advantage over the runner-up (lab_results_winner's factor) */
   lab_verdict_t
      vs_ref[LAB_RESULTS_MAX_LAYOUTS]; /* each layout against the reference: its ratio's interval */
   lab_verdict_t decisive;             /* the runner-up against the best: what the winner rests on */
} lab_results_nrow_t;

/* lab_results_nrow -- the row of metric `m` over the layouts *ls of `results`. The best layout is the
 * one with the best median under m->better; when the runner-up is "same" as it (lab_results_winner) the
 * row is a tie of every layout "same" as the best (with two layouts this is exactly lab_results_winner).
 * No ratios against a reference whose median shows as zero (a ratio of two figures shown as 0.0% says
 * nothing). False when no layout has the figure (tables leave such a row out). */
bool lab_results_nrow (const bson_t *results, const lab_results_layouts_t *ls, const lab_metric_t *m,
                       lab_results_nrow_t *row);

/* lab_results_nrow_at -- lab_results_nrow of the figures in `point` (a sweep point's view), judged with the
 * noise of the whole file `results` (its sampling interval). */
bool lab_results_nrow_at (const bson_t *results, const bson_t *point, const lab_results_layouts_t *ls,
                          const lab_metric_t *m, lab_results_nrow_t *row);

/* lab_results_same_rule -- what "same" means, as the notes under every table say it: "no difference the
 * runs can tell: medians within 2%, ..." (the rule above, with the file's sampling interval when it has
 * one). Caller bson_free()s. */
char *lab_results_same_rule (const bson_t *results);

/* The cells of an N-layout row (each bson_free()d by lab_results_ncells_cleanup). */
typedef struct {
   size_t n;
   char *value[LAB_RESULTS_MAX_LAYOUTS]; /* lab_results_format_stat */
   char *ratio[LAB_RESULTS_MAX_LAYOUTS]; /* vs the reference; "n/a" when none, "–" against a reference
                                          * shown as zero ("" for the reference itself) */
   char *better; /* "folded 2.16x", "same" (all layouts tie), "a = b" (some tie), or "" */
} lab_results_ncells_t;

/* lab_results_nrow_cells -- fill *cells from `row`, naming layouts by ls; `range` adds min–max. */
void lab_results_nrow_cells (const lab_results_nrow_t *row, const lab_results_layouts_t *ls, bool range,
                             lab_results_ncells_t *cells);

/* lab_results_ncells_cleanup -- free the cells; safe on a zeroed struct. */
void lab_results_ncells_cleanup (lab_results_ncells_t *cells);

/* ---- the cache sweep (docs/results-schema.md, "Cache sweep") ------------------------------------ */

/* A sweep file holds one point per engine cache size, in increasing cache size. Each point has the shape
 * of a single-point file's body (runs[], summary), so every reader of runs/summary reads a point too.
 * The top-level runs[] and summary repeat the point named by sweep_reference, so a sweep file is also a
 * valid single-point file. The presence of "sweep" is what tells the two apart (same schema version). */
#define LAB_RESULTS_KEY_SWEEP "sweep"                     /* sweep[]: the points, cache size ascending */
#define LAB_RESULTS_KEY_SWEEP_REFERENCE "sweep_reference" /* index of the point the top level repeats */
#define LAB_RESULTS_KEY_CACHE_SIZE "cache_size_bytes"     /* sweep[].cache_size_bytes: engine cache */
#define LAB_RESULTS_KEY_CACHE_RATIO "cache_ratio"         /* sweep[].cache_ratio; config.cache_ratio */
#define LAB_RESULTS_KEY_READ_AMPLIFICATION "read_amplification" /* sweep[].<layout>.read_amplification */
/* sweep[].<layout>.disk_read_amplification: the device's bytes read / the layout's on-disk size */
#define LAB_RESULTS_KEY_DISK_READ_AMPLIFICATION "disk_read_amplification"
#define LAB_RESULTS_KEY_LOCALITY "locality" /* sweep[].<layout>.locality.{...} */
#define LAB_RESULTS_KEY_PAGES_PER_MASTER_MEAN "pages_per_master_mean"
#define LAB_RESULTS_KEY_PAGES_PER_MASTER_P95 "pages_per_master_p95"
#define LAB_RESULTS_KEY_MASTERS_SAMPLED "masters_sampled"
/* how the pages were counted: "record_ids" (each sampled master's RecordIds, grouped into leaf pages) */
#define LAB_RESULTS_KEY_LOCALITY_METHOD "method"
#define LAB_RESULTS_KEY_CONFIG_CACHE_RATIO "config.cache_ratio" /* a single-point file's ratio */

/* The two regimes a cache ratio falls in (ratio >= 1: the detail layout fits in the engine cache). */
#define LAB_RESULTS_REGIME_FITS "fits in cache"
#define LAB_RESULTS_REGIME_REREADS "rereads"
/* A third regime only a measured point without --direct-io can be in (config.direct_io false, mongod's
 * way): the engine cache rereads (engine read amplification > LAB_RESULTS_FITS_MAX_AMPLIFICATION) but the
 * OS page cache serves its misses, so the disk reads each byte about once (disk read amplification <=
 * LAB_RESULTS_FITS_MAX_AMPLIFICATION). The rereads cost copies and decompression, not disk reads. */
#define LAB_RESULTS_REGIME_MEMORY "fits in memory"

/* lab_results_regime -- LAB_RESULTS_REGIME_FITS for ratio >= 1, else LAB_RESULTS_REGIME_REREADS: the
 * regime a cache ratio suggests before anything is measured (a production point). */
const char *lab_results_regime (double cache_ratio);

/* A measured point "fits in cache" when the detail layout's engine read at most this many times its
 * on-disk size from disk (each page about once). The ratio alone cannot tell: it compares the cache with
 * the compressed size on disk while WiredTiger's cache holds pages uncompressed (~3x larger with snappy
 * on billgen data), so at ratio 1-1.5 the detail layout can still reread each page 10-100x. */
#define LAB_RESULTS_FITS_MAX_AMPLIFICATION 2.0

/* lab_results_on_disk_bytes -- a layout's on-disk size, dataset.<layout>.storage_size_bytes +
 * index_size_bytes (data + indexes: what a cache would have to hold); false when either is missing. */
bool lab_results_on_disk_bytes (const bson_t *results, const char *layout, double *bytes);

/* lab_results_cache_ratio_of -- cache_bytes / on_disk_bytes; false when either is not positive. */
bool lab_results_cache_ratio_of (double cache_bytes, double on_disk_bytes, double *ratio);

/* lab_results_cache_bytes -- the engine cache of a single-point file: backend.cache_max_bytes (what the
 * engine had), else config.cache_size_bytes (what was asked for); false when neither is there. */
bool lab_results_cache_bytes (const bson_t *results, double *bytes);

/* lab_results_cache_ratio -- a single-point file's cache ratio: config.cache_ratio, else
 * lab_results_cache_bytes / the detail layout's on-disk size; false when unknown. */
bool lab_results_cache_ratio (const bson_t *results, double *ratio);

/* lab_results_speedup -- detail / folded load time by the one rule (lab_results_verdict): with paired runs
 * the inverse of their geometric mean ratio, else of the medians (> 1 means folded is faster);
 * false when either is missing or folded is 0. */
bool lab_results_speedup (const lab_stat_t *detail, const lab_stat_t *folded, double *speedup);

/* lab_results_read_amplification -- bytes_read / on_disk_bytes: how many times over the engine read the
 * layout's files (1: each on-disk byte once); false when on_disk_bytes is not positive or bytes_read is
 * negative. */
bool lab_results_read_amplification (double bytes_read, double on_disk_bytes, double *amplification);

typedef struct {
   bool present;
   double pages_per_master_mean, pages_per_master_p95, masters_sampled;
   const char *method; /* NULL when not given; points into the results document */
} lab_locality_t;

/* engine.block_read_bytes (flat name block_read_bytes): the bytes the engine read from the layout's
 * files into its cache, in on-disk (compressed) bytes, the numerator of the read amplification. Not a
 * row of the comparison tables (bytes read into the cache, uncompressed, is). */
extern const lab_metric_t lab_results_block_read_bytes;

/* One point of a sweep, as every renderer reads it. Holds a bson_t view that points into itself: fill it
 * in place with lab_results_sweep_point and never copy the struct. The per-layout arrays are in sweep
 * order (lab_results_sweep_order): [0] the reference layout, then every other layout in the file's order,
 * so with two layouts [0] is detail and [1] folded. */
typedef struct {
   bson_t doc; /* read-only view of sweep[i]: lab_results_metric_stat(&p.doc, ...) reads its figures */
   double cache_size_bytes;
   double cache_ratio; /* stored, else computed from the cache size and the detail on-disk size */
   size_t n;           /* layouts */
   const char *names[LAB_RESULTS_MAX_LAYOUTS];  /* in sweep order; point into the results document */
   lab_stat_t elapsed[LAB_RESULTS_MAX_LAYOUTS]; /* load time */
   bool has_speedup;
   double speedup; /* lab_results_speedup of [0] over [1]: the first candidate's (= speedup_of[1]) */
   bool has_speedup_of[LAB_RESULTS_MAX_LAYOUTS];
   double speedup_of[LAB_RESULTS_MAX_LAYOUTS];             /* [l], l >= 1: reference load time / layout l's */
   lab_verdict_t speedup_verdict[LAB_RESULTS_MAX_LAYOUTS]; /* [l]: the rule's judgement of that speedup */
   bool has_amplification[LAB_RESULTS_MAX_LAYOUTS];
   double read_amplification[LAB_RESULTS_MAX_LAYOUTS]; /* stored, else block_read_bytes / on-disk size */
   lab_locality_t locality[LAB_RESULTS_MAX_LAYOUTS];
   /* the disk's: stored, else read_bytes median (the device's bytes read during the layout's load) /
    * on-disk size. The counter is the whole device's: meaningful per layout because layouts load one at
    * a time. With --direct-io it matches the engine's; without, the OS page cache can make it smaller. */
   bool has_disk_amplification[LAB_RESULTS_MAX_LAYOUTS];
   double disk_read_amplification[LAB_RESULTS_MAX_LAYOUTS];
   bool buffered_io; /* config.direct_io recorded false: engine misses may hit the OS page cache */
   /* --load-order both: the point's random-order load (its workloads' "load_random"), one measurement per
    * layout (the median of its --runs); speedup_random[l] = the reference's time / layout l's */
   bool has_speedup_random[LAB_RESULTS_MAX_LAYOUTS];
   double speedup_random[LAB_RESULTS_MAX_LAYOUTS]; /* by the one rule, as speedup_of */
   lab_verdict_t speedup_random_verdict[LAB_RESULTS_MAX_LAYOUTS];
} lab_sweep_point_t;

/* lab_results_sweep_order -- the layouts of a sweep in the order of lab_sweep_point_t's arrays: the
 * reference layout first, then the others in the file's order; returns their number. *ls gets the
 * layouts as the file lists them. */
size_t lab_results_sweep_order (const bson_t *results, lab_results_layouts_t *ls,
                                const char *names[LAB_RESULTS_MAX_LAYOUTS]);

/* lab_results_sweep_pair -- the first two of lab_results_sweep_order: the reference layout and the first
 * other layout (with two layouts: detail and folded). */
void lab_results_sweep_pair (const bson_t *results, lab_results_layouts_t *ls, const char *names[2]);

/* lab_results_sweep_n -- the number of points of a sweep file; 0 for a single-point file. */
size_t lab_results_sweep_n (const bson_t *results);

/* lab_results_sweep_point -- fill *p from sweep[i] of `results` (a view: valid while results is);
 * false when out of range or not an object. */
bool lab_results_sweep_point (const bson_t *results, size_t i, lab_sweep_point_t *p);

/* lab_results_top_point -- fill *p from the top level of `results` as from a sweep point (a view: valid
 * while results is): a single-point file's figures (for a sweep file, its reference point's runs and
 * summary, without the point's stored figures). cache_size_bytes and cache_ratio are 0 when unknown. */
void lab_results_top_point (const bson_t *results, lab_sweep_point_t *p);

/* lab_results_point_regime -- the regime a measured point was in, from the detail (reference) layout's
 * engine read amplification when known: <= LAB_RESULTS_FITS_MAX_AMPLIFICATION fits in cache; above it,
 * LAB_RESULTS_REGIME_MEMORY when the reads were buffered (p->buffered_io) and the disk read amplification
 * is known and <= LAB_RESULTS_FITS_MAX_AMPLIFICATION, else rereads. Without an engine read amplification,
 * lab_results_regime of its ratio ("unknown" without one). With --direct-io the disk figure is never
 * consulted: every engine miss is a disk read. */
const char *lab_results_point_regime (const lab_sweep_point_t *p);

/* lab_results_app_engine_disk -- append to `o` point p's two read amplifications of its reference layout,
 * named `layout` (as given: a Markdown caller escapes it first): "the engine read 6.10x the detail
 * layout, the disk 1.02x", and for a point in LAB_RESULTS_REGIME_MEMORY ": the page cache held it".
 * Nothing without the engine's figure; the disk's only when known. scancmp's sweep note and
 * layout-report's sentences both say it so. */
void lab_results_app_engine_disk (bson_string_t *o, const lab_sweep_point_t *p, const char *layout);

/* lab_results_sweep_reference_of -- the point a writer repeats at the top level: the one whose ratio is
 * nearest 1 on a log scale (smallest |ln ratio|; on a tie the larger cache). n == 0 gives 0. */
size_t lab_results_sweep_reference_of (const double *cache_ratio, size_t n);

/* lab_results_sweep_reference -- the index the file names in sweep_reference, else
 * lab_results_sweep_reference_of its points' ratios. */
size_t lab_results_sweep_reference (const bson_t *results);

/* lab_results_sweep_check -- the rules a sweep file must keep: sweep is a non-empty array of objects,
 * cache sizes positive and strictly increasing (no duplicates), every ratio known, positive and
 * increasing with the cache, every point's runs[] holding both layouts, sweep_reference in range.
 * True for a file without "sweep". Errors (LAB_ERROR_IO, EINVAL) name the point: "sweep[2] (1 GiB)". */
bool lab_results_sweep_check (const bson_t *results, bson_error_t *error);

typedef enum {
   LAB_ESTIMATE_INTERPOLATED, /* between two measured points */
   LAB_ESTIMATE_MEASURED,     /* the ratio of a measured point: its speedup */
   LAB_ESTIMATE_OUTSIDE,      /* outside the measured range: no estimate (never extrapolated) */
   LAB_ESTIMATE_TOO_FEW,      /* fewer than two points with a speedup: no curve */
} lab_estimate_status_t;

typedef struct {
   lab_estimate_status_t status;
   double speedup;            /* INTERPOLATED or MEASURED */
   size_t lo, hi;             /* the points used (lo == hi when MEASURED) */
   double range_lo, range_hi; /* the measured range of ratios (n >= 1) */
} lab_estimate_t;

/* lab_results_estimate_speedup -- the speedup at cache ratio `r` from n measured (ratio, speedup) pairs
 * in strictly increasing ratio: linear in ln(ratio) between the two nearest points,
 * s = s_lo + (s_hi - s_lo) * (ln r - ln r_lo) / (ln r_hi - ln r_lo); a ratio within 1e-9 (relative) of
 * a measured one gives that point; outside [ratio[0], ratio[n-1]] gives LAB_ESTIMATE_OUTSIDE. */
lab_estimate_t lab_results_estimate_speedup (const double *ratio, const double *speedup, size_t n, double r);

/* ---- formatting ---------------------------------------------------------------------------------- */

/* lab_results_format -- `v` in `unit` with thousands separators and 2-3 significant decimals: "932 s",
 * "15.9 MB", "3,917/s". Caller bson_free()s. */
char *lab_results_format (lab_unit_t unit, double v);

/* lab_results_format_stat -- "median (min–max)" in one scale ("932 s (905–950)"); just the median when
 * all runs agree, there is one, or `range` is false; "n/a" when absent. Caller bson_free()s. */
char *lab_results_format_stat (lab_unit_t unit, const lab_stat_t *s, bool range);

/* lab_results_format_ratio -- a ratio as a percentage: "7.7%", "46%", "1,230%", "<0.1%". Caller
 * bson_free()s. */
char *lab_results_format_ratio (double ratio);

/* lab_results_format_factor -- "2.16x", "12.3x", "1,230x". Caller bson_free()s. */
char *lab_results_format_factor (double factor);

/* lab_results_format_binary -- a cache size in binary units, as given on a command line: "256 MiB",
 * "1.5 GiB", "2 GiB", "512 B". Caller bson_free()s. */
char *lab_results_format_binary (double bytes);

/* ---- whether the figures stand for mongod's, cold (results_trust.c) -------------------------------- */

/* A run is cold when at most this share of its layout's data files was resident in the page cache before
 * it (runs[].cold.resident_pct_before, mincore): at 10% at least 90% of the pages the load touches must
 * come from the disk, so its time is a disk-bound time; above it the resident part is read at memory speed
 * and the ratio between layouts measures what the cache happened to hold (docs/results.md, "Cold"). */
#define LAB_RESULTS_COLD_MAX_RESIDENT_PCT 10.0

/* lab_results_product_warning -- a sentence (lowercase, no final stop) saying the figures are not mongod's
 * when `product` (backend.product: "embedded", "mongod", "mongos", "ferretdb", "unknown") is neither the
 * embedded engine nor mongod/mongos; NULL for those and for NULL (a file from before the field). Static. */
const char *lab_results_product_warning (const char *product);

/* lab_results_product -- the file's backend.product, NULL when not recorded. */
const char *lab_results_product (const bson_t *results);

/* lab_results_cold_check -- whether every run of `layout` (NULL: of every layout; a sweep: at every point)
 * started cold: its
 * resident_pct_before at most LAB_RESULTS_COLD_MAX_RESIDENT_PCT, or, not measured, the cold procedure done
 * in full (caches dropped and the engine or server restarted). False with `why` (len bytes) saying so for
 * the worst run: "not cold: 99.8% of the data files were resident before the run", "not cold: scancmp ran
 * without `--cold`", "cold could not be established: ...". The one rule for bold speedups. */
bool lab_results_cold_check (const bson_t *results, const char *layout, char *why, size_t len);

/* ---- the load's order (results_order.c) ------------------------------------------------------- */

/* lab_results_load_order -- the order of the headline load (runs, summary, the workloads' "load"):
 * "random" when config.load_order says so, else "key" (both: the headline is key order; a file without
 * the field loaded contiguous segments of the sorted keys). */
const char *lab_results_load_order (const bson_t *results);

/* lab_results_workload_label -- the one name of a workload row in every table: "load (key order)",
 * "load (random order)" (load_random), "load_after_writes (key order)"; `load_order` is the entry's (NULL
 * or empty: key); any other workload its own name. */
void lab_results_workload_label (const char *workload, const char *load_order, char *buf, size_t len);

/* lab_results_load_random_elapsed -- the elapsed_s of `layout` in the "load_random" entry of doc's
 * "workloads" (a results file or a sweep point); false when there is none. */
bool lab_results_load_random_elapsed (const bson_t *doc, const char *layout, double *elapsed_s,
                                      lab_stat_t *stat);

#endif
