/*
 * cmp.h -- layout-report's library: reading a scancmp results file (docs/results-schema.md), the
 * comparison arithmetic (medians, spreads, ratios, which layout wins each metric), the Markdown
 * rendering of the report, and the gnuplot charts.
 *
 * Everything except lab_cmp_charts_write is a pure function of the results document, so the report is
 * deterministic (no clock, no absolute path) and golden-testable. Library code never prints or exits.
 */
#ifndef LAB_CMP_H
#define LAB_CMP_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stddef.h>

#define LAB_CMP_SCHEMA_VERSION 1

/* ---- results files ----------------------------------------------------------------------------- */

typedef struct {
   bson_t doc; /* the whole results document */
   char *name; /* the file's base name, for headings (never an absolute path) */
} lab_cmp_results_t;

/* lab_cmp_results_load_json -- parse and validate one results document held in `data`; `name` labels
 * errors and headings. Refuses empty, truncated or invalid JSON (with line and column), a top-level
 * array, trailing content, an unknown schema_version and run entries lacking a required figure.
 * On success fill *out (free with lab_cmp_results_cleanup). */
bool lab_cmp_results_load_json (const char *data, size_t len, const char *name, lab_cmp_results_t *out,
                                bson_error_t *error);

/* lab_cmp_results_load_file -- read `path` whole and call lab_cmp_results_load_json; errors name it. */
bool lab_cmp_results_load_file (const char *path, lab_cmp_results_t *out, bson_error_t *error);

/* lab_cmp_results_cleanup -- free what a load filled; safe on a zeroed struct. */
void lab_cmp_results_cleanup (lab_cmp_results_t *r);

/* lab_cmp_get_number -- the number (int32, int64 or double) at dotted `path` of `doc`; false when absent,
 * null or not a number. */
bool lab_cmp_get_number (const bson_t *doc, const char *path, double *out);

/* lab_cmp_get_string -- the UTF-8 string at dotted `path` (points into doc), or NULL. */
const char *lab_cmp_get_string (const bson_t *doc, const char *path);

/* lab_cmp_get_bool -- the boolean at dotted `path`; false when absent. */
bool lab_cmp_get_bool (const bson_t *doc, const char *path, bool *out);

/* ---- metrics and arithmetic -------------------------------------------------------------------- */

typedef enum {
   LAB_CMP_LOWER_BETTER,  /* time, read requests, memory */
   LAB_CMP_HIGHER_BETTER, /* throughput of useful work, request size */
   LAB_CMP_NEUTRAL,       /* descriptive: no winner */
} lab_cmp_better_t;

typedef enum {
   LAB_CMP_UNIT_COUNT,   /* plain count: 55,357,286 */
   LAB_CMP_UNIT_RATE,    /* per second: 3,917/s */
   LAB_CMP_UNIT_SECONDS, /* 932 s */
   LAB_CMP_UNIT_MS,      /* 12.5 ms */
   LAB_CMP_UNIT_BYTES,   /* SI: 15.9 MB */
   LAB_CMP_UNIT_MB_S,    /* value in MB/s (10^6 B/s) */
   LAB_CMP_UNIT_PCT,     /* 66.0% */
} lab_cmp_unit_t;

typedef struct {
   const char *name;     /* the figure's name in summary.<layout> */
   const char *run_path; /* dotted path inside a runs[] entry */
   const char *label;    /* the table's row label */
   lab_cmp_unit_t unit;
   lab_cmp_better_t better;
} lab_cmp_metric_t;

/* lab_cmp_metrics -- the comparison table's rows, in order; *n gets their number. */
const lab_cmp_metric_t *lab_cmp_metrics (size_t *n);

/* lab_cmp_metric_find -- the metric called `name`, or NULL. */
const lab_cmp_metric_t *lab_cmp_metric_find (const char *name);

typedef struct {
   bool present; /* false: no run had the figure ("n/a") */
   int n;        /* how many runs had it */
   double median, min, max;
} lab_cmp_stat_t;

/* lab_cmp_stat_of -- median (mean of the two middle values when n is even), min and max of v[0..n);
 * v is not modified. n == 0 gives present = false. */
lab_cmp_stat_t lab_cmp_stat_of (const double *v, size_t n);

/* lab_cmp_metric_stat -- a metric for one layout ("detail" / "folded"): summary.<layout>.<name>
 * {median,min,max} when the file has it, else computed from the runs[] entries of that layout. */
lab_cmp_stat_t lab_cmp_metric_stat (const lab_cmp_results_t *r, const char *layout,
                                    const lab_cmp_metric_t *m);

/* lab_cmp_ratio -- folded / detail; false when either is missing or detail is 0. */
bool lab_cmp_ratio (const lab_cmp_stat_t *detail, const lab_cmp_stat_t *folded, double *ratio);

typedef enum {
   LAB_CMP_WIN_NONE, /* neutral metric, or a figure missing */
   LAB_CMP_WIN_TIE,  /* within 2% of each other */
   LAB_CMP_WIN_DETAIL,
   LAB_CMP_WIN_FOLDED,
} lab_cmp_winner_t;

/* lab_cmp_winner -- which layout's median is better under `better`; *factor (may be NULL) gets the
 * winner's advantage as a factor >= 1 (larger / smaller). */
lab_cmp_winner_t lab_cmp_winner (lab_cmp_better_t better, const lab_cmp_stat_t *detail,
                                 const lab_cmp_stat_t *folded, double *factor);

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

/* ---- formatting -------------------------------------------------------------------------------- */

/* lab_cmp_format -- `v` in `unit` with thousands separators and 2-3 significant decimals: "932 s",
 * "15.9 MB", "3,917/s". Caller bson_free()s. */
char *lab_cmp_format (lab_cmp_unit_t unit, double v);

/* lab_cmp_format_stat -- "median (min–max)" in one scale ("932 s (905–950)"); just the median when all
 * runs agree or there is one; "n/a" when absent. Caller bson_free()s. */
char *lab_cmp_format_stat (lab_cmp_unit_t unit, const lab_cmp_stat_t *s);

/* lab_cmp_md_escape -- `s` with Markdown-special characters backslash-escaped and line breaks turned
 * into spaces, safe inside a table cell or heading; NULL gives "n/a". Caller bson_free()s. */
char *lab_cmp_md_escape (const char *s);

/* ---- rendering --------------------------------------------------------------------------------- */

typedef struct {
   const char *file;    /* relative to the report: "report-read-requests.svg" */
   const char *caption; /* "Disk read requests per second" */
} lab_cmp_chart_t;

typedef struct {
   const char *title;                 /* NULL: "Layout comparison: <detail> vs <folded>" */
   const lab_cmp_results_t *baseline; /* NULL: no baseline section */
   const lab_cmp_chart_t *charts;     /* the charts written, linked from the report */
   size_t n_charts;
   const char *charts_note; /* why charts were skipped, when n_charts == 0 */
} lab_cmp_render_opts_t;

/* lab_cmp_render_md -- the whole Markdown report. Caller bson_free()s. */
char *lab_cmp_render_md (const lab_cmp_results_t *r, const lab_cmp_render_opts_t *opts);

/* ---- charts ------------------------------------------------------------------------------------ */

#define LAB_CMP_MAX_CHARTS 4

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
 * (no samples, no histogram) are left out. Each SVG replaces its file atomically. On success *set lists
 * the charts written, with names relative to dir (free with lab_cmp_chart_set_cleanup). */
bool lab_cmp_charts_write (const lab_cmp_results_t *r, const char *gnuplot, const char *dir, const char *stem,
                           lab_cmp_chart_set_t *set, bson_error_t *error);

/* lab_cmp_chart_set_cleanup -- free the names a chart set owns. */
void lab_cmp_chart_set_cleanup (lab_cmp_chart_set_t *set);

#endif
