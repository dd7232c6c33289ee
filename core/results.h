/*
 * results.h -- the one results model of layoutlab (docs/results-schema.md): the schema version and the
 * key names scancmp writes and layout-report reads, the metric catalogue (name, place in the file,
 * label, unit and which way is better), the arithmetic over runs (median, min, max; folded / detail
 * ratio; winner with one tie rule) and the value formatting every renderer prints.
 *
 * scancmp's terminal table and layout-report's Markdown table are both built from lab_results_row and
 * lab_results_row_cells, so the same results file gives the same labels, values and winners in both.
 * Everything here is a pure function of its arguments; nothing prints.
 */
#ifndef LAB_RESULTS_H
#define LAB_RESULTS_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stddef.h>

/* ---- schema ------------------------------------------------------------------------------------- */

/* The version scancmp writes and the only one layout-report reads. */
#define LAB_RESULTS_SCHEMA_VERSION 1

#define LAB_RESULTS_KEY_SCHEMA_VERSION "schema_version"
#define LAB_RESULTS_KEY_RUNS "runs"       /* runs[]: one entry per (run, layout) */
#define LAB_RESULTS_KEY_LAYOUT "layout"   /* runs[].layout: LAB_RESULTS_DETAIL or LAB_RESULTS_FOLDED */
#define LAB_RESULTS_KEY_SUMMARY "summary" /* summary.<layout>.<figure>.{median,min,max} */
#define LAB_RESULTS_KEY_DATASET "dataset" /* dataset.<layout>.<field>: one value per layout */
#define LAB_RESULTS_KEY_NRUNS "runs"      /* summary.<layout>.runs: how many runs the figures cover */
#define LAB_RESULTS_KEY_MEDIAN "median"
#define LAB_RESULTS_KEY_MIN "min"
#define LAB_RESULTS_KEY_MAX "max"

#define LAB_RESULTS_DETAIL "detail" /* one document per row */
#define LAB_RESULTS_FOLDED "folded" /* one document per master */

/* lab_results_get_number -- the number (int32, int64 or double) at dotted `path` of `doc`; false when
 * absent, null or not a number. */
bool lab_results_get_number (const bson_t *doc, const char *path, double *out);

/* lab_results_get_string -- the UTF-8 string at dotted `path` (points into doc), or NULL. */
const char *lab_results_get_string (const bson_t *doc, const char *path);

/* lab_results_get_bool -- the boolean at dotted `path`; false when absent. */
bool lab_results_get_bool (const bson_t *doc, const char *path, bool *out);

/* lab_results_flat_name -- the summary name of a run entry's figure at dotted `run_path` (the schema's
 * flattening rule): "elapsed_s" -> "elapsed_s", "rates.read_mb_s_peak" -> "read_mb_s_peak",
 * "latency_ms.p99" -> "latency_p99_ms". */
void lab_results_flat_name (const char *run_path, char *buf, size_t len);

/* lab_results_summary_append -- append "summary" to `results`: per layout the number of runs and
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

typedef struct {
   bool present; /* false: no run had the figure ("n/a") */
   int n;        /* how many runs had it */
   double median, min, max;
} lab_stat_t;

/* lab_results_stat_of -- median (mean of the two middle values when n is even), min and max of
 * v[0..n); v is not modified. n == 0 gives present = false. */
lab_stat_t lab_results_stat_of (const double *v, size_t n);

/* lab_results_metric_stat -- metric `m` for `layout` in `results`: a dataset figure as a one-run stat;
 * otherwise summary.<layout>.<name> when the file has it, else computed from the layout's runs[]. */
lab_stat_t lab_results_metric_stat (const bson_t *results, const char *layout, const lab_metric_t *m);

/* lab_results_ratio -- folded / detail of the medians; false when either is missing or detail is 0. */
bool lab_results_ratio (const lab_stat_t *detail, const lab_stat_t *folded, double *ratio);

typedef enum {
   LAB_WIN_NONE, /* descriptive metric, or a figure missing */
   LAB_WIN_TIE,  /* within LAB_RESULTS_TIE of each other */
   LAB_WIN_DETAIL,
   LAB_WIN_FOLDED,
} lab_winner_t;

/* The tie rule: medians whose difference is at most this share of the larger one are "same". */
#define LAB_RESULTS_TIE 0.02

/* lab_results_winner -- which layout's median is better under `better`; *factor (may be NULL) gets the
 * winner's advantage as a factor >= 1 (larger / smaller; 0 when the smaller is 0 or there is none). */
lab_winner_t lab_results_winner (lab_better_t better, const lab_stat_t *detail, const lab_stat_t *folded,
                                 double *factor);

/* One comparison row: what every table shows for a metric. */
typedef struct {
   const lab_metric_t *metric;
   lab_stat_t detail, folded;
   bool has_ratio;
   double ratio; /* folded / detail */
   lab_winner_t winner;
   double factor; /* see lab_results_winner */
} lab_results_row_t;

/* lab_results_row -- the row of metric `m` in `results`; false when neither layout has the figure
 * (tables leave such a row out). */
bool lab_results_row (const bson_t *results, const lab_metric_t *m, lab_results_row_t *row);

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

/* The cells of one row as every table prints them (each bson_free()d by lab_results_cells_cleanup). */
typedef struct {
   char *detail; /* lab_results_format_stat */
   char *folded;
   char *ratio;  /* lab_results_format_ratio, "n/a" when there is none */
   char *better; /* "folded 2.16x", "detail", "same", or "" (descriptive or a figure missing) */
} lab_results_cells_t;

/* lab_results_row_cells -- fill *cells from `row`; `range` adds the runs' min–max to the values. */
void lab_results_row_cells (const lab_results_row_t *row, bool range, lab_results_cells_t *cells);

/* lab_results_cells_cleanup -- free the cells; safe on a zeroed struct. */
void lab_results_cells_cleanup (lab_results_cells_t *cells);

#endif
