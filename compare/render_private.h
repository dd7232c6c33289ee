/*
 * render_private.h -- what the files of the Markdown report (cmp.h: lab_cmp_render_md) share: a sweep's
 * points, the runs' cold facts, and the helpers and sections one file calls in another. Not part of the
 * compare library's interface.
 *
 *   render.c               the driver: the title, then each section in the report's order
 *   render_util.c          shared helpers: headings, collections, names, cold facts, a point in words
 *   render_recommend.c     the first section: the recommendation, its costs, the cheaper change
 *   render_thrash.c        writes in a cache smaller than the indexes: the test and the ledger's note
 *   render_verdict.c       a single-point file's verdict (two layouts or N), what the layouts did not share
 *   render_sweep.c         a sweep's points, the production estimate, the sweep's verdict, --json's sweep
 *   render_sweep_tables.c  the Cache sweep section and the baseline sweep section
 *   render_table.c         the Comparison section and the baseline experiment section
 *   render_sections.c      charts, environment, dataset, cold procedure, per-run figures, device ceiling
 *   render_workloads.c     the workloads: the ledger, the trade-off, each workload in detail
 *   render_wl_sweep.c      the workloads at each point of a cache sweep
 *   render_decompose.c     the speedup taken apart: locality and fewer documents
 *   render_mix.c           the user's mix, measured or estimated
 *   render_state.c         the state measured: the writes before, the documents each measurement started on
 */
#ifndef LAB_CMP_RENDER_PRIVATE_H
#define LAB_CMP_RENDER_PRIVATE_H

#include "compare/cmp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A sweep's points, loaded once per report (lab_cmp_sweep_load). */
typedef struct {
   lab_sweep_point_t *p; /* filled in place (views into the results document) */
   size_t n;
   size_t ref; /* the point the top level repeats */
   size_t nl;  /* layouts */
   /* sweep order, as the points' arrays (lab_results_sweep_order): [0] the reference layout */
   const char *names[LAB_RESULTS_MAX_LAYOUTS];
   size_t cand; /* the candidate lab_cmp_md_sw_text names for "folded": 1 unless a per-candidate line */
   lab_results_layouts_t ls; /* the file's layouts, for the winner of a point (lab_results_nrow) */
   const char *load_order;   /* the headline load's order, "key" or "random" (lab_results_load_order) */
} lab_cmp_sweep_t;

/* How cold the runs really were (lab_cmp_gather_cold). */
typedef struct {
   int runs, dropped, drop_known, engine_restarted, server_restarted;
   int not_cold;             /* runs scancmp recorded as not cold (cold.started_cold false) */
   const char *not_cold_why; /* the first one's cold.reason (a view) */
   bool resident_known;
   double resident_max_pct;
} lab_cmp_cold_facts_t;

/* ---- render_util.c ---------------------------------------------------------------------------- */

/* lab_cmp_classic_pair -- whether the file compares exactly "detail" (the reference) and "folded": the
 * two-layout report of schema version 1, whose wording (one document per row vs folded) is kept. */
bool lab_cmp_classic_pair (const lab_results_layouts_t *ls);

/* lab_cmp_layout_heading -- a layout's column heading: "one doc per row (detail)" for the classic pair's
 * detail, else its name. */
const char *lab_cmp_layout_heading (const lab_results_layouts_t *ls, size_t i);

/* lab_cmp_md_backend -- "wiredtiger 3.2.1", "mongodb 7.0.4". */
void lab_cmp_md_backend (bson_string_t *o, const bson_t *doc);

/* lab_cmp_md_tool -- "scancmp 0.1.0": the tool that wrote the file, its version under any schema's name. */
void lab_cmp_md_tool (bson_string_t *o, const bson_t *doc);

/* lab_cmp_gather_cold -- how cold the runs really were. */
lab_cmp_cold_facts_t lab_cmp_gather_cold (const lab_cmp_results_t *r);

/* lab_cmp_md_all_runs -- "All 6 runs", "Both runs", "The one run" (lowercase within a sentence: `start`
 * false). */
void lab_cmp_md_all_runs (bson_string_t *o, int n, bool start);

/* lab_cmp_md_ratio -- a cache ratio as the options take it: "0.41", "3.26", "0.012". */
void lab_cmp_md_ratio (bson_string_t *o, double ratio);

/* lab_cmp_md_value -- a recorded setting or parameter's value in prose, outside a table: a string as it
 * is, a count with separators, a date in UTC, an array as its items in parentheses ("none" when empty;
 * more than 8 as the first, the count and the last), never JSON with escaped braces. */
void lab_cmp_md_value (bson_string_t *o, const bson_iter_t *it);

/* lab_cmp_md_point -- "256 MiB, ratio 0.41". */
void lab_cmp_md_point (bson_string_t *o, const lab_sweep_point_t *p);

/* lab_cmp_md_cache_over_note -- why an engine cache can be used beyond its configured size (peak `pct` >
 * 100%): WiredTiger's cache size is the level its eviction works to keep memory under, not a hard cap; pages
 * being read in and the pages the workers' cursors hold cannot be evicted meanwhile, so a cache smaller
 * than the pages a load holds at once runs over it (docs/mongodb-compat.md, "engine cache over 100%"). */
void lab_cmp_md_cache_over_note (bson_string_t *o, double pct);

/* lab_cmp_md_production_given -- how the production ratio was given: "0.50" or "0.50 = 64 GiB ÷ 128 GiB". */
void lab_cmp_md_production_given (bson_string_t *o, const lab_cmp_production_t *prod);

/* lab_cmp_run_counts -- the runs per layout; true when every layout has the same number (*n1 gets it). */
bool lab_cmp_run_counts (const lab_cmp_results_t *r, const lab_results_layouts_t *ls, int *counts, int *n1);

/* ---- render_recommend.c ------------------------------------------------------------------------ */

/* lab_cmp_render_recommend -- the first section, "Recommendation": per candidate its load gain at the
 * caches measured (and at production's, when marked), the workloads it loses against the reference (by
 * the rule), its size and largest document; the cheaper change (an unfolded layout in key order against
 * folding); the user's mix (measured, else `estimate`); what the run count allows to claim. Nothing for a
 * prediction or a single layout. `sw` NULL or empty: a single-point file. */
void lab_cmp_render_recommend (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *sw,
                               const lab_cmp_workloads_t *wl, const lab_cmp_mix_t *mix,
                               const lab_cmp_mix_t *estimate, const lab_cmp_production_t *prod);

/* lab_cmp_writes_thrash -- whether the writes of this file ran in an engine cache (config.cache_size_bytes,
 * into *cache) smaller than `layout`'s indexes (into *indexes): every insert then evicts index pages the
 * next one needs, and a write factor measures that pressure. */
bool lab_cmp_writes_thrash (const lab_cmp_results_t *r, const char *layout, double *cache, double *indexes);

/* lab_cmp_render_thrash_note -- under the ledger, when the file has writes: the layouts whose indexes the
 * writes' cache could not hold, and what that means for the write factors. Nothing otherwise. */
void lab_cmp_render_thrash_note (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_workloads_t *wl);

/* ---- render_verdict.c ------------------------------------------------------------------------- */

/* lab_cmp_render_match_verdict -- the verdict's lines on what the layouts did not share: keys that matched no
 * document, and runs whose layouts returned different rows. Nothing when all read the same rows. */
void lab_cmp_render_match_verdict (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m);

/* lab_cmp_render_match_note -- the line under the comparison table on the same facts. */
void lab_cmp_render_match_note (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m);

/* lab_cmp_render_trust_line -- the verdict's line saying the figures are not mongod's when the file's
 * backend.product is another server (core/results.h, lab_results_product_warning); nothing otherwise. */
void lab_cmp_render_trust_line (bson_string_t *o, const lab_cmp_results_t *r);

/* lab_cmp_render_verdict -- three lines computed from the medians: time, read requests, how trustworthy. */
void lab_cmp_render_verdict (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_production_t *prod);

/* lab_cmp_render_verdict_n -- the verdict over N layouts (or a pair other than detail and folded): which
 * loads fastest and by what factor over the runner-up, each layout's read requests against the
 * reference, and how cold and consistent the runs were. */
void lab_cmp_render_verdict_n (bson_string_t *o, const lab_cmp_results_t *r, const lab_results_layouts_t *ls,
                               const lab_cmp_production_t *prod);

/* ---- render_sweep.c --------------------------------------------------------------------------- */

/* lab_cmp_sweep_load -- the points of r's sweep (n == 0 for a single-point file); free with
 * lab_cmp_sweep_free. */
void lab_cmp_sweep_load (const lab_cmp_results_t *r, lab_cmp_sweep_t *s);

/* lab_cmp_md_sw_text -- append `text` (a literal naming the reference "detail" and a candidate "folded") with
 * their names: as is for detail and folded, else each whole word replaced by sw->names[0] / [sw->cand]. */
void lab_cmp_md_sw_text (bson_string_t *o, const lab_cmp_sweep_t *sw, const char *text);

/* lab_cmp_sweep_free -- free what lab_cmp_sweep_load allocated. */
void lab_cmp_sweep_free (lab_cmp_sweep_t *s);

/* lab_cmp_render_sweep_verdict -- the verdict of a sweep file: each candidate's speedup curve first (its
 * range and the cache ratios at its ends) and, with more than two layouts, the fastest layout per point; what
 * the cache reread, the production point, how cold the runs were, and which point the single-point sections
 * below show. */
void lab_cmp_render_sweep_verdict (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s,
                                   const lab_cmp_production_t *prod);

/* ---- render_sweep_tables.c -------------------------------------------------------------------- */

/* lab_cmp_render_sweep -- the sweep tables (load time and speedups, reads and read amplification, memory,
 * locality when measured), then how to read them. */
void lab_cmp_render_sweep (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s,
                           const lab_cmp_production_t *prod);

/* lab_cmp_render_sweep_baseline -- two sweeps point by point where their cache sizes match: for two sweeps of
 * the same pair the speedup before and after, else every layout both hold (render_sweep_baseline_n); the
 * unmatched sizes listed. */
void lab_cmp_render_sweep_baseline (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s,
                                    const lab_cmp_results_t *b);

/* ---- render_table.c --------------------------------------------------------------------------- */

/* lab_cmp_render_table -- the comparison table of the metric catalogue, a column per layout; rows no run
 * measured are listed below it instead. */
void lab_cmp_render_table (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s);

/* lab_cmp_render_baseline -- deltas between a baseline experiment and this one, per layout of this experiment
 * (a layout the baseline lacks shows n/a there). */
void lab_cmp_render_baseline (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *b);

/* ---- render_sections.c ------------------------------------------------------------------------ */

/* lab_cmp_render_charts -- links to the SVG files, or why there are none. */
void lab_cmp_render_charts (bson_string_t *o, const lab_cmp_render_opts_t *opts, const lab_cmp_sweep_t *s);

/* lab_cmp_render_environment -- host, kernel, CPU, RAM, device, backend and version. */
void lab_cmp_render_environment (bson_string_t *o, const lab_cmp_results_t *r);

/* lab_cmp_render_dataset -- documents, sizes per layout. */
void lab_cmp_render_dataset (bson_string_t *o, const lab_cmp_results_t *r);

/* ---- render_state.c --------------------------------------------------------------------------- */

/* The writes recorded in a layout's provenance (dataset.<layout>.provenance.writes), summed. */
typedef struct {
   int runs;                 /* entries (one per write workload or mix, per collection) */
   double appended, updated; /* rows */
   int failed;               /* entries of runs that failed part way */
   const char *last_at;      /* the newest entry's time (points into the document), NULL unknown */
} lab_cmp_writes_sum_t;

/* lab_cmp_writes_since -- the writes of `layout`'s provenance recorded at or after `since` (UTC ISO-8601;
 * NULL: all) into *w; false when there are none. */
bool lab_cmp_writes_since (const bson_t *doc, const char *layout, const char *since, lab_cmp_writes_sum_t *w);

/* lab_cmp_md_writes_sum -- "2 later write runs: +26,000 rows appended, 3,000 corrected". */
void lab_cmp_md_writes_sum (bson_string_t *o, const lab_cmp_writes_sum_t *w);

/* lab_cmp_render_state -- the Dataset section's lines on the state measured: the writes each layout had
 * before this measurement, and a table of the documents each measurement (the load's runs, each workload,
 * the mix) started on when they are not the dataset's counts (this run's own writes changed them). */
void lab_cmp_render_state (bson_string_t *o, const lab_cmp_results_t *r);

/* lab_cmp_render_cold -- the cold procedure as executed, per run. */
void lab_cmp_render_cold (bson_string_t *o, const lab_cmp_results_t *r);

/* lab_cmp_render_runs -- per-run figures. */
void lab_cmp_render_runs (bson_string_t *o, const lab_cmp_results_t *r);

/* lab_cmp_render_ceiling -- the device's own limits from --calibrate, and how close each layout came. */
void lab_cmp_render_ceiling (bson_string_t *o, const lab_cmp_results_t *r);

/* ---- render_workloads.c ----------------------------------------------------------------------- */

/* lab_cmp_md_wl_winner -- workload w's winner by the one rule: "folded 1.33x (1 run: no spread)",
 * "folded 5.10x (95% CI 4.90x–5.30x, 3 runs)", or "same (95% CI 0.70x–1.45x, 3 runs)". */
void lab_cmp_md_wl_winner (bson_string_t *o, const lab_cmp_workload_t *w);

/* lab_cmp_md_rule_note -- " (1 run: no spread)" / " (95% CI ..., 3 runs)" of a rank, or for a tie "(the 95%
 * interval 0.70x–1.45x over 3 runs holds 1)" / "(within 0.5%)": what a winner or a "same" rests on. */
void lab_cmp_md_rule_note (bson_string_t *o, const lab_results_rank_t *rk, bool tie);

/* lab_cmp_render_verdict_tradeoff -- with workloads, the verdict's last line (inserted before the blank
 * line that ends the verdict in `o`): the trade-off of the layout that wins load, "folded wins load 9.10x,
 * loses row 3.20x and aggregate 1.40x". Nothing without workloads. */
void lab_cmp_render_verdict_tradeoff (bson_string_t *o, const lab_cmp_workloads_t *wl,
                                      const lab_results_layouts_t *ls);

/* lab_cmp_render_ledger -- the section "What each query costs": a row per workload, per layout (the file's
 * order) its time with the factor over the winner's, documents and disk bytes read per row returned, then
 * the winner; a warning per workload whose layouts returned different rows; the trade-off sentence.
 * Nothing without workloads. */
void lab_cmp_render_ledger (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_workloads_t *wl,
                            const lab_results_layouts_t *ls);

/* lab_cmp_render_workloads -- the section "Each workload in detail": per workload its parameters, winner
 * and a table with a column per layout (time, collection, plan and its source, where filtering happened,
 * indexes, cold, digest, queries, rows, documents and bytes read, disk reads, CPU, latency), and an
 * aggregate's result. Nothing without workloads. */
void lab_cmp_render_workloads (bson_string_t *o, const lab_cmp_workloads_t *wl,
                               const lab_results_layouts_t *ls);

/* lab_cmp_render_workloads_sweep -- a sweep whose every point carries "workloads": a table of each
 * workload's winner (and by how much) per cache; nothing otherwise. */
void lab_cmp_render_workloads_sweep (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *sw,
                                     const lab_cmp_workloads_t *ref);
/* ---- render_decompose.c ---------------------------------------------------------------------- */

/* lab_cmp_render_decompose -- the section "The speedup taken apart": with a rows layout in arrival order, a
 * rows layout in key order (its provenance: fold-details --shape sorted or clustered; or layouts[].order
 * "key") and a folded layout, per point (each of a sweep, else the file's one) the load speedup of the
 * folded layout over the arrival-order rows, split into locality (arrival -> key order) and fewer documents
 * (key order -> folded), with each layout's read requests, bytes read and CPU, and a sentence per point
 * naming what changed in each step. Without a key-ordered layout a note saying how to measure one; nothing
 * without both a rows layout in arrival order and a folded one. `sw` may be NULL or empty. */
void lab_cmp_render_decompose (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *sw);

/* lab_cmp_md_code -- `s` as a code span (a plan, a key pattern, a digest, a mix's spec), or escaped text
 * when it holds a backquote, a pipe or a line break; n/a for NULL (render_util.c). */
void lab_cmp_md_code (bson_string_t *o, const char *s);

/* lab_cmp_md_known -- v in `form`, or n/a when unknown (below 0: the workloads' and the mix's -1)
 * (render_util.c). */
void lab_cmp_md_known (bson_string_t *o, lab_cmp_form_t form, double v);

/* ---- render_mix.c ---------------------------------------------------------------------------- */

/* lab_cmp_render_mix -- the section "The user's mix": the measured mix (the file's, may be NULL or not
 * present) with its verdict, how it ran, a table per layout and one per op type; the estimate (--mix, may be
 * NULL) the same way with how it was made and what it ignores, alone or, beside a measured mix, with its
 * error per layout. Nothing when neither is given. `measured_in` (may be NULL): the file the measured mix
 * came from when not this one (layout-report --mix-file), said first. */
void lab_cmp_render_mix (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_mix_t *measured,
                         const lab_cmp_mix_t *estimate, const char *measured_in);

/* lab_cmp_render_verdict_mix -- with a mix, the verdict's last line (inserted before the blank line that
 * ends the verdict in `o`): the measured mix's verdict sentence, else the estimate's. Nothing without. */
void lab_cmp_render_verdict_mix (bson_string_t *o, const lab_cmp_mix_t *measured,
                                 const lab_cmp_mix_t *estimate);

/* lab_cmp_mix_explain_needed -- whether measured mix `m` and its estimate `e` (both present) name different
 * winners or the estimate is far off for a layout: page one says why. */
bool lab_cmp_mix_explain_needed (const lab_cmp_mix_t *m, const lab_cmp_mix_t *e);

/* lab_cmp_mix_explain -- append why the stream differs from the estimate: per layout its ops' time both
 * ways, the types that made the difference with their cost per op both ways, its bytes read both ways.
 * `brief` (page one): nothing unless lab_cmp_mix_explain_needed, and only the two winners and the layouts
 * far off; else every layout (mix_explain.c). */
void lab_cmp_mix_explain (bson_string_t *o, const lab_cmp_mix_t *m, const lab_cmp_mix_t *e, bool brief);

#endif
