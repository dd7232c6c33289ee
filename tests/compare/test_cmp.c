/*
 * test_cmp.c -- unit tests of layout-report's library: results validation (truncated, invalid, wrong
 * shape), summary-vs-runs precedence and the median run, Markdown escaping, and rendering of a file whose
 * optional fields are all missing; cache sweeps: their rules, the curve verdict, the production point
 * (interpolated, or refused outside the measured range) and two sweeps against each other. The
 * arithmetic and formatting are tested in tests/core/test_results.c.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "compare/cmp.h"
#include "core/error.h"
#include "tests/testutil.h"

/* load -- parse a JSON literal; asserts success. */
static void
load (const char *json, lab_cmp_results_t *r)
{
   bson_error_t error;
   bool ok = lab_cmp_results_load_json (json, strlen (json), "t.json", r, &error);

   if (!ok) {
      fail_msg ("load failed: %s", error.message);
   }
}

/* refuse -- parse a JSON literal that must be refused with a message containing `needle`. */
static void
refuse (const char *json, const char *needle)
{
   lab_cmp_results_t r;
   bson_error_t error = { 0 };

   assert_false (lab_cmp_results_load_json (json, strlen (json), "t.json", &r, &error));
   if (!strstr (error.message, needle)) {
      fail_msg ("error '%s' lacks '%s'", error.message, needle);
   }
   assert_non_null (strstr (error.message, "t.json"));
   assert_true (lab_error_is (&error, LAB_ERROR_IO, EINVAL)); /* a file that is not a results file */
   assert_int_equal (lab_error_exit_code (&error), 1);
   lab_cmp_results_cleanup (&r); /* safe on a refused load */
}

#define RUN_D                                                                                                \
   "{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": 10, \"docs\": 100, \"bytes_returned\": 1000"
#define RUN_F "{\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": 4, \"docs\": 1, \"bytes_returned\": 900"

static void
test_refuses_bad_files (void **state)
{
   (void)state;
   refuse ("", "empty");
   refuse ("   \n ", "empty");
   refuse ("{\"schema_version\": 1, \"runs\": [" RUN_D, "truncated");
   refuse ("{\"schema_version\": 1,\n \"runs\": [\n  {\"run\": x}]}", "line 3");
   refuse ("[1, 2]", "expected a JSON object");
   refuse ("{\"schema_version\": 1, \"runs\": [" RUN_D "}, " RUN_F "}]} {\"x\": 1}", "after the results");
   refuse ("{\"runs\": []}", "schema_version");
   refuse ("{\"schema_version\": 4, \"runs\": []}", "schema_version 4");
   refuse ("{\"schema_version\": 1.5, \"runs\": []}", "schema_version 1.5");
   refuse ("{\"schema_version\": 1}", "runs");
   refuse ("{\"schema_version\": 1, \"runs\": [" RUN_D "}]}", "at least one of each");
   refuse ("{\"schema_version\": 1, \"runs\": [" RUN_D "}, {\"run\": 1, \"layout\": \"folded\"}]}",
           "runs[1] (folded): missing or non-numeric \"elapsed_s\"");
   refuse ("{\"schema_version\": 1, \"runs\": [{\"run\": 1, \"layout\": \"sideways\"}]}", "\"sideways\"");
   refuse ("{\"schema_version\": 1, \"runs\": [3]}", "runs[0] is not an object");
}

static void
test_load_file_errors_name_path (void **state)
{
   lab_cmp_results_t r;
   bson_error_t error;

   (void)state;
   assert_false (lab_cmp_results_load_file ("/nonexistent/dir/run.json", &r, &error));
   assert_non_null (strstr (error.message, "/nonexistent/dir/run.json"));
   assert_true (lab_error_is (&error, LAB_ERROR_IO, ENOENT));
}

static void
test_metric_stat_runs_and_summary (void **state)
{
   lab_cmp_results_t r;
   lab_stat_t s;
   const lab_metric_t *el = lab_results_metric_find ("elapsed_s");
   const lab_metric_t *p99 = lab_results_metric_find ("latency_p99_ms");

   (void)state;
   assert_non_null (el);
   assert_non_null (p99);
   /* no summary: computed from runs[], even count -> mean of the middle two */
   load ("{\"schema_version\": 1, \"runs\": ["
         "{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": 10, \"docs\": 1, \"bytes_returned\": 1,"
         " \"latency_ms\": {\"p99\": 8}},"
         "{\"run\": 2, \"layout\": \"detail\", \"elapsed_s\": 14, \"docs\": 1, \"bytes_returned\": 1},"
         "{\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": 5, \"docs\": 1, \"bytes_returned\": 1},"
         "{\"run\": 2, \"layout\": \"folded\", \"elapsed_s\": 3, \"docs\": 1, \"bytes_returned\": 1},"
         "{\"run\": 3, \"layout\": \"folded\", \"elapsed_s\": 4, \"docs\": 1, \"bytes_returned\": 1}]}",
         &r);
   s = lab_results_metric_stat (&r.doc, "detail", el);
   assert_true (s.present && s.n == 2 && s.median == 12 && s.min == 10 && s.max == 14);
   s = lab_results_metric_stat (&r.doc, "folded", el);
   assert_true (s.median == 4 && s.min == 3 && s.max == 5 && s.n == 3);
   s = lab_results_metric_stat (&r.doc, "detail", p99); /* nested path, one run has it */
   assert_true (s.present && s.n == 1 && s.median == 8);
   s = lab_results_metric_stat (&r.doc, "folded", p99);
   assert_false (s.present);
   assert_int_equal (lab_cmp_median_run (&r, "folded"), 4); /* elapsed 4 is runs[4] */
   assert_int_equal (lab_cmp_median_run (&r, "detail"), 0); /* lower middle of two */
   assert_int_equal (lab_cmp_run_count (&r, "folded"), 3);
   lab_cmp_results_cleanup (&r);

   /* summary present: it wins over runs[] */
   load ("{\"schema_version\": 1, \"runs\": [" RUN_D "}, " RUN_F "}],"
         " \"summary\": {\"detail\": {\"runs\": 1, \"elapsed_s\": {\"median\": 99, \"min\": 98, \"max\": "
         "100}}}}",
         &r);
   s = lab_results_metric_stat (&r.doc, "detail", el);
   assert_true (s.median == 99 && s.min == 98 && s.max == 100 && s.n == 1);
   s = lab_results_metric_stat (&r.doc, "folded", el); /* no summary for folded: from runs */
   assert_true (s.median == 4);
   lab_cmp_results_cleanup (&r);
}

static void
test_md_escape (void **state)
{
   char *e;

   (void)state;
   e = lab_cmp_md_escape ("bill_detail|*x*\n[a](b) `c` <d> #1 ~e~ !f & g");
   assert_string_equal (e, "bill_detail\\|\\*x\\* \\[a\\](b) \\`c\\` \\<d\\> \\#1 \\~e\\~ \\!f \\& g");
   bson_free (e);
   /* an underscore that could open or close emphasis is escaped; one inside a word cannot */
   e = lab_cmp_md_escape ("_lead trail_ a_b _x_ a__b 9_z");
   assert_string_equal (e, "\\_lead trail\\_ a_b \\_x\\_ a\\_\\_b 9_z");
   bson_free (e);
   e = lab_cmp_md_escape ("plain-name.v2");
   assert_string_equal (e, "plain-name.v2");
   bson_free (e);
   e = lab_cmp_md_escape (NULL);
   assert_string_equal (e, "n/a");
   bson_free (e);
}

/* md_number_is -- lab_cmp_md_number (form, v) appends what `expect` (a core/results.h formatter's string)
 * says. */
static void
md_number_is (lab_cmp_form_t form, double v, char *expect)
{
   bson_string_t *o = bson_string_new ("> ");

   lab_cmp_md_number (o, form, v);
   assert_string_equal (o->str + 2, expect);
   bson_string_free (o, true);
   bson_free (expect);
}

/* test_app_forms -- the one table-driven helper: each catalogue unit through lab_results_format, each of
 * the report's forms through its own formatter. */
static void
test_app_forms (void **state)
{
   bson_string_t *o = bson_string_new (NULL);
   lab_stat_t st = { .present = true, .median = 932, .min = 905, .max = 950, .n = 3 };
   int u;

   (void)state;
   for (u = LAB_UNIT_COUNT; u <= LAB_UNIT_PCT; u++) {
      md_number_is (LAB_CMP_UNIT (u), 55357286.5, lab_results_format ((lab_unit_t)u, 55357286.5));
   }
   md_number_is (LAB_CMP_SECONDS, 932, bson_strdup ("932 s"));
   md_number_is (LAB_CMP_FACTOR, 2.1649, lab_results_format_factor (2.1649));
   md_number_is (LAB_CMP_RATIO_PCT, 0.4613, lab_results_format_ratio (0.4613));
   md_number_is (LAB_CMP_BINARY, 268435456, bson_strdup ("256 MiB"));
   lab_cmp_md_stat (o, LAB_UNIT_SECONDS, &st, true);
   bson_string_append (o, " / ");
   lab_cmp_md_stat (o, LAB_UNIT_SECONDS, &st, false);
   assert_string_equal (o->str, "932 s (905–950) / 932 s");
   bson_string_free (o, true);
}

static void
test_render_minimal (void **state)
{
   lab_cmp_results_t r;
   lab_cmp_render_opts_t o = { 0 };
   char *md;

   (void)state;
   /* only the required figures: every optional one renders as n/a, nothing crashes */
   load ("{\"schema_version\": 1, \"runs\": [" RUN_D "}, " RUN_F "}]}", &r);
   o.charts_note = "test";
   md = lab_cmp_render_md (&r, &o);
   /* no --cold recorded: the factor without bold, saying why (core/results.h, lab_results_cold_check) */
   assert_non_null (strstr (md, "The folded layout loads 2.50x faster in key order (1 run: no spread; not "
                                "cold: scancmp ran without `--cold`): "
                                "4.00 s folded vs 10.0 s"));
   assert_null (strstr (md, "**The folded layout loads"));
   assert_non_null (strstr (md, "Disk read requests could not be compared"));
   assert_non_null (strstr (md, "| host | n/a |"));
   assert_non_null (strstr (md, "Charts were skipped: test."));
   assert_non_null (strstr (md, "| 1 | folded | 4.00 s | 1 | n/a |"));
   assert_non_null (strstr (md, "Not measured: run scancmp with `--calibrate`"));
   assert_null (strstr (md, "(null)"));
   bson_free (md);
   /* and with itself as a baseline */
   o.baseline = &r;
   md = lab_cmp_render_md (&r, &o);
   assert_non_null (strstr (md, "| parallel load time | 10.0 s | 10.0 s | 0.0% | 4.00 s | 4.00 s | 0.0% |"));
   bson_free (md);
   lab_cmp_results_cleanup (&r);
}

static void
test_render_verdict_directions (void **state)
{
   lab_cmp_results_t r;
   char *md;

   (void)state;
   /* folded slower and needing more reads: the verdict must say so, not assume folding wins */
   load ("{\"schema_version\": 1, \"config\": {\"cold\": true}, \"runs\": ["
         "{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": 10, \"docs\": 100, \"bytes_returned\": 1,"
         " \"read_requests\": 100, \"read_bytes\": 409600,"
         " \"cold\": {\"caches_dropped\": false, \"server_restarted\": true}},"
         "{\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": 20, \"docs\": 1, \"bytes_returned\": 1,"
         " \"read_requests\": 150, \"read_bytes\": 614400, \"cold\": {\"caches_dropped\": true}}]}",
         &r);
   md = lab_cmp_render_md (&r, NULL);
   /* residency not measured and the cold procedure not done in full: no bold factor */
   assert_non_null (strstr (md, "The folded layout loads 2.00x slower in key order (1 run: no spread; cold "
                                "could not be established: the data "
                                "files' residency was not measured and the page cache was not dropped)"));
   assert_non_null (strstr (md, "It needs 50% more disk read requests (150 vs 100)"));
   assert_non_null (strstr (md, "**Caution**: caches were dropped before 1 of 2 runs (the server was "
                                "restarted before 1, emptying its cache"));
   assert_non_null (strstr (md, "| disk read requests | 100 | 150 | 150% | detail 1.50x |"));
   bson_free (md);
   lab_cmp_results_cleanup (&r);

   /* a reduction that rounds to 100% is stated as a factor, never as "100% fewer" */
   load ("{\"schema_version\": 1, \"runs\": ["
         "{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": 10, \"docs\": 100, \"bytes_returned\": 1,"
         " \"read_requests\": 219139, \"read_bytes\": 409600},"
         "{\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": 1, \"docs\": 1, \"bytes_returned\": 1,"
         " \"read_requests\": 757, \"read_bytes\": 40960}]}",
         &r);
   md = lab_cmp_render_md (&r, NULL);
   assert_non_null (strstr (md, "It needs 289x fewer disk read requests (757 vs 219,139)"));
   assert_null (strstr (md, "100% fewer"));
   bson_free (md);
   lab_cmp_results_cleanup (&r);
}

/* A sweep of two or three points: the dataset gives the detail layout 1,000 bytes on disk. */
#define SW_DATASET                                                                                           \
   "\"dataset\": {\"detail\": {\"storage_size_bytes\": 800, \"index_size_bytes\": 200},"                     \
   " \"folded\": {\"storage_size_bytes\": 290, \"index_size_bytes\": 10}}"
#define SW_RUNS(d, f)                                                                                        \
   "\"runs\": [{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": " #d                                      \
   ", \"docs\": 100, \"bytes_returned\": 1,"                                                                 \
   " \"cold\": {\"resident_pct_before\": 0}, \"engine\": {\"block_read_bytes\": 4000}},"                     \
   " {\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": " #f ", \"docs\": 1, \"bytes_returned\": 1,"        \
   " \"cold\": {\"resident_pct_before\": 0}, \"engine\": {\"block_read_bytes\": 300}}]"
#define SW_FILE(points)                                                                                      \
   "{\"schema_version\": 1, \"config\": {\"cold\": true}, " SW_DATASET                                       \
   ", " SW_RUNS (20, 2) ", \"sweep\": [" points "]}"

static void
test_sweep_refused (void **state)
{
   (void)state;
   /* the rules of core/results.h, named by the file */
   refuse (SW_FILE ("{\"cache_size_bytes\": 2048, " SW_RUNS (
              20, 2) "}, {\"cache_size_bytes\": 1024, " SW_RUNS (20, 2) "}"),
           "t.json: sweep[1] (1 KiB): a smaller cache than sweep[0] (2 KiB): points must be in strictly "
           "increasing cache size");
   refuse (SW_FILE ("{\"cache_size_bytes\": 1024, " SW_RUNS (
              20, 2) "}, {\"cache_size_bytes\": 1024, " SW_RUNS (20, 2) "}"),
           "the same cache size as sweep[0] (1 KiB)");
   refuse (
      SW_FILE ("{\"cache_size_bytes\": 1024, \"runs\": [{\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": "
               "1, \"docs\": 1, \"bytes_returned\": 1}]}"),
      "t.json: sweep[0] (1 KiB): runs[] has 0 detail and 1 folded entries; every point needs both layouts");
   /* and each point's run entries keep the top level's rules */
   refuse (
      SW_FILE ("{\"cache_size_bytes\": 512, " SW_RUNS (
         20,
         2) "}, {\"cache_size_bytes\": 1024, \"runs\": "
            "[{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": 3, \"docs\": 1}, {\"run\": 1, \"layout\": "
            "\"folded\", \"elapsed_s\": 1, \"docs\": 1, \"bytes_returned\": 1}]}"),
      "t.json: sweep[1] (1 KiB): runs[0] (detail): missing or non-numeric \"bytes_returned\"");
}

/* the sweep chart names the regimes as measured: a dashed line between the last point that reread and the
 * first that fit (halfway on its log scale), not at ratio 1 */
static void
test_sweep_chart_regimes (void **state)
{
   lab_cmp_results_t r;
   lab_cmp_sweep_chart_t ch;

   (void)state;
   load (SW_FILE ("{\"cache_size_bytes\": 500, " SW_RUNS (80, 2) "}, {\"cache_size_bytes\": 1000, " SW_RUNS (
            20,
            2) "}, {\"cache_size_bytes\": 4000, \"detail\": {\"read_amplification\": 1.0}, " SW_RUNS (10,
                                                                                                      2) "}"),
         &r);
   assert_int_equal (lab_cmp_sweep_chart_plot (&r, NULL, NULL, &ch), 3);
   assert_string_equal (ch.regimes->str,
                        "set label 'rereads' at first 0.707107, graph 0.95 center textcolor rgb '#555555'\n"
                        "set arrow from 2, graph 0 to 2, graph 1 nohead dt 2 lw 1.5 lc rgb '#777777'\n"
                        "set label 'fits in cache' at first 4, graph 0.95 center textcolor rgb '#555555'\n");
   lab_cmp_sweep_chart_cleanup (&ch);
   lab_cmp_results_cleanup (&r);
}

/* A predicted sweep (scancmp --predict): its own dataset (the detail layout 2,000 bytes on disk, so its
 * stored ratios are half the measured file's for the same cache), every entry "predicted"; PR_RUNS(d, f)
 * timed, PR_UNTIMED without load times (a prediction without --calibrate). */
#define PR_RUNS(d, f)                                                                                        \
   "\"runs\": [{\"run\": 1, \"layout\": \"detail\", \"predicted\": true, \"elapsed_s\": " #d                 \
   ", \"docs\": 100, \"bytes_returned\": 1}, {\"run\": 1, \"layout\": \"folded\", \"predicted\": true, "     \
   "\"elapsed_s\": " #f ", \"docs\": 1, \"bytes_returned\": 1}]"
#define PR_UNTIMED                                                                                           \
   "\"runs\": [{\"run\": 1, \"layout\": \"detail\", \"predicted\": true, \"docs\": 100, "                    \
   "\"bytes_returned\": "                                                                                    \
   "1}, {\"run\": 1, \"layout\": \"folded\", \"predicted\": true, \"docs\": 1, \"bytes_returned\": 1}]"
#define PR_POINT(cache, da, fa, runs)                                                                        \
   "{\"cache_size_bytes\": " #cache ", \"predicted\": true, \"detail\": {\"read_amplification\": " #da       \
   "}, \"folded\": {\"read_amplification\": " #fa "}, " runs "}"
#define PR_FILE(runs, points)                                                                                \
   "{\"schema_version\": 3, \"predicted\": true, \"config\": {\"cold\": true}, \"dataset\": {\"detail\": "   \
   "{\"storage_size_bytes\": 1800, \"index_size_bytes\": 200}, \"folded\": {\"storage_size_bytes\": 290, "   \
   "\"index_size_bytes\": 10}}, " runs ", \"sweep\": [" points "]}"

/* cut -- s with every `what` removed and cut before `end` (when present). Caller bson_free()s. */
static char *
cut (const char *s, const char *what, const char *end)
{
   bson_string_t *o = bson_string_new (NULL);
   const char *stop = end ? strstr (s, end) : NULL, *p = s, *q;
   size_t wl = strlen (what);

   if (!stop) {
      stop = s + strlen (s);
   }
   while ((q = strstr (p, what)) && q < stop) {
      bson_string_append_printf (o, "%.*s", (int)(q - p), p);
      p = q + wl;
   }
   bson_string_append_printf (o, "%.*s", (int)(stop - p), p);
   return bson_string_free (o, false);
}

/* test_sweep_chart_prediction -- a prediction beside the measured sweep. Each predicted point at
 * its cache over the measured detail layout's size on disk (not the prediction's own ratio), the speedup
 * and both amplifications in the measured columns' order, dash-dotted with hollow marks and titled
 * "predicted"; the measured series then say "measured" and are otherwise the same commands as without a
 * prediction; an untimed prediction draws no speedup; and without one nothing of it is there. */
static void
test_sweep_chart_prediction (void **state)
{
   lab_cmp_results_t r, pr, pu;
   lab_cmp_sweep_chart_t ch0, ch;
   char *measured_only;

   (void)state;
   /* measured: ratios 0.5, 1, 4; speedups 40, 10, 5; detail read 4x, folded 1x */
   load (SW_FILE ("{\"cache_size_bytes\": 500, " SW_RUNS (80, 2) "}, {\"cache_size_bytes\": 1000, " SW_RUNS (
            20, 2) "}, {\"cache_size_bytes\": 4000, " SW_RUNS (10, 2) "}"),
         &r);
   load (
      PR_FILE (PR_RUNS (30, 2), PR_POINT (250, 5, 1.2, PR_RUNS (30, 2)) ", " PR_POINT (
                                   1000, 3, 1.1, PR_RUNS (16, 2)) ", " PR_POINT (8000, 1, 1, PR_RUNS (8, 2))),
      &pr);
   load (PR_FILE (PR_UNTIMED, PR_POINT (500, 5, 1.2, PR_UNTIMED) ", " PR_POINT (4000, 1, 1, PR_UNTIMED)),
         &pu);

   assert_int_equal (lab_cmp_sweep_chart_plot (&r, NULL, NULL, &ch0), 3);
   assert_null (ch0.predicted);
   assert_int_equal (ch0.n_predicted, 0);
   assert_null (strstr (ch0.plot->str, "predicted"));
   assert_null (strstr (ch0.plot->str, "measured"));

   assert_int_equal (lab_cmp_sweep_chart_plot (&r, NULL, &pr, &ch), 3);
   /* x: 250 / 1000 (the measured detail layout's size), not the prediction's ratio 0.125 */
   assert_string_equal (ch.predicted->str, "0.25 15 5 1.2\n1 8 3 1.1\n8 4 1 1\n");
   assert_int_equal (ch.n_predicted_points, 3);
   assert_int_equal (ch.n_predicted, 3);
   assert_true (ch.xmin == 0.25 && ch.xmax == 8);
   assert_true (ch.ymin == 1 && ch.ymax == 40);
   assert_non_null (strstr (ch.plot->str,
                            "'predicted.dat' using 1:2 with linespoints lw 2 dt (10,4,2,4) pt 6 "
                            "ps 1.0 lc rgb '#333333' title \"speedup (detail load time ÷ "
                            "folded), predicted\""));
   assert_non_null (strstr (ch.plot->str,
                            "'predicted.dat' using 1:3 with linespoints lw 1.5 dt (10,4,2,4) pt "
                            "4 ps 0.9 lc rgb '#d95f02' title \"read amplification, detail, "
                            "predicted\""));
   assert_non_null (strstr (ch.plot->str,
                            "'predicted.dat' using 1:4 with linespoints lw 1.5 dt (10,4,2,4) pt "
                            "4 ps 0.9 lc rgb '#1b7e9e' title \"read amplification, folded, "
                            "predicted\""));
   assert_non_null (
      strstr (ch.plot->str, "title \"speedup (detail load time ÷ folded, key order), measured\""));
   assert_non_null (strstr (ch.plot->str, "title \"read amplification, detail, measured\""));
   /* the measured series are the same commands as without a prediction, and their data too */
   measured_only = cut (ch.plot->str, ", measured", ", \\\n     'predicted.dat'");
   assert_string_equal (measured_only, ch0.plot->str);
   assert_string_equal (ch.data->str, ch0.data->str);
   assert_string_equal (ch.regimes->str, ch0.regimes->str);
   bson_free (measured_only);
   lab_cmp_sweep_chart_cleanup (&ch);

   /* untimed: the amplifications only, at the same cache as measured */
   assert_int_equal (lab_cmp_sweep_chart_plot (&r, NULL, &pu, &ch), 3);
   assert_string_equal (ch.predicted->str, "0.5 nan 5 1.2\n4 nan 1 1\n");
   assert_int_equal (ch.n_predicted, 2);
   assert_null (strstr (ch.plot->str, "), predicted"));
   assert_non_null (strstr (ch.plot->str, "read amplification, folded, predicted"));
   lab_cmp_sweep_chart_cleanup (&ch);
   lab_cmp_sweep_chart_cleanup (&ch0);
   lab_cmp_results_cleanup (&pu);
   lab_cmp_results_cleanup (&pr);
   lab_cmp_results_cleanup (&r);
}

static void
test_render_sweep (void **state)
{
   lab_cmp_results_t r, b;
   lab_cmp_render_opts_t o = { 0 };
   lab_cmp_production_t prod = { 0 };
   lab_estimate_t e;
   char *md;

   (void)state;
   /* ratios 0.5, 1, 4 (of 1,000 bytes on disk); speedups 40x, 10x, 5x */
   load (SW_FILE ("{\"cache_size_bytes\": 500, " SW_RUNS (
            80, 2) "},"
                   " {\"cache_size_bytes\": 1000, " SW_RUNS (20, 2) "},"
                                                                    " {\"cache_size_bytes\": 4000, " SW_RUNS (
                                                                       10, 2) "}"),
         &r);
   md = lab_cmp_render_md (&r, NULL);
   assert_non_null (strstr (
      md, "**The folded layout loads 5.00x–40.0x faster in key order, depending on the engine cache**: "
          "5.00x when the cache is 4.00x the data's size on disk but still rereads it (it "
          "holds pages uncompressed) (3.91 KiB, ratio 4.00), 40.0x when the cache holds 50% "
          "of the data (500 B, ratio 0.50)."));
   assert_non_null (strstr (md, "the engine read 4.00x its on-disk size from disk at 500 B (ratio 0.50) and "
                                "4.00x at 3.91 KiB (ratio 4.00)"));
   assert_non_null (strstr (md, "| 500 B | 0.50 | rereads | 80.0 s | 2.00 s | 40.0x |"));
   /* the detail layout read 4x its size at every point: a ratio of 1 or 4 still rereads (the regime of a
    * measured point comes from its read amplification, not from its ratio) */
   assert_non_null (strstr (md, "| 1000 B | 1.00 | rereads | 20.0 s | 2.00 s | 10.0x |"));
   assert_non_null (strstr (md, "the sweep's reference (1000 B, ratio 1.00, rereads)"));
   assert_null (strstr (md, "### Locality")); /* none measured: no table */
   /* no production given: the recommendation says so, and nothing is estimated there */
   assert_non_null (strstr (md, "production not marked"));
   assert_null (strstr (md, "production's cache"));
   assert_null (strstr (md, "Production"));
   bson_free (md);

   /* production between 0.5 and 1: interpolated, said so, row placed in order */
   prod.ratio = sqrt (0.5);
   o.production = &prod;
   e = lab_cmp_sweep_estimate (&r, &prod);
   assert_int_equal (e.status, LAB_ESTIMATE_INTERPOLATED);
   assert_true (fabs (e.speedup - 25.0) < 1e-9); /* half way on a log scale between 40x and 10x */
   md = lab_cmp_render_md (&r, &o);
   assert_non_null (strstr (md,
                            "**At the production cache ratio (0.71) the folded layout would load about 25.0x "
                            "faster: an interpolation, not a measurement**, between the measured 40.0x at "
                            "500 B (ratio 0.50) and 10.0x at 1000 B (ratio 1.00), linear in log(ratio)."));
   assert_non_null (
      strstr (md, "| 500 B | 0.50 | rereads | 80.0 s | 2.00 s | 40.0x |\n"
                  "| **production** | **0.71** | rereads | not measured | not measured | **≈ 25.0x** "
                  "(interpolated) |\n| 1000 B |"));
   bson_free (md);

   /* outside the measured range: refused, report still written */
   prod.ratio = 8;
   prod.cache_bytes = 8192;
   prod.data_bytes = 1024;
   md = lab_cmp_render_md (&r, &o);
   assert_non_null (strstr (md,
                            "**The production cache ratio 8.00 = 8 KiB of cache ÷ 1 KiB of detail data and "
                            "indexes is outside the measured range 0.50–4.00; no estimate**"));
   assert_non_null (strstr (md, "| **production** (8 KiB) | **8.00** | fits in cache | not measured | not "
                                "measured | no estimate (outside 0.50–4.00) |\n\n"));
   bson_free (md);

   /* two sweeps: matched by cache size, the others listed */
   load (SW_FILE ("{\"cache_size_bytes\": 250, " SW_RUNS (90, 2) "},"
                                                                 " {\"cache_size_bytes\": 1000, " SW_RUNS (
                                                                    24, 2) "}"),
         &b);
   o.production = NULL;
   o.baseline = &b;
   md = lab_cmp_render_md (&r, &o);
   assert_non_null (strstr (md, "## Against the baseline sweep"));
   assert_non_null (strstr (md, "| 1000 B | 1.00 | 1.00 | 12.0x | 10.0x | −16.7% |"));
   assert_null (strstr (md, "| 500 B | 0.50 | 0.50 |"));
   assert_non_null (strstr (md,
                            "Unmatched cache sizes: only in the baseline, 250 B; only in this sweep, 500 B, "
                            "3.91 KiB."));
   bson_free (md);
   lab_cmp_results_cleanup (&b);
   lab_cmp_results_cleanup (&r);

   /* a cache just short of the data is never said to hold 100% of it */
   load (SW_FILE ("{\"cache_size_bytes\": 999, " SW_RUNS (30, 2) "}, {\"cache_size_bytes\": 4000, " SW_RUNS (
            10, 2) "}"),
         &r);
   md = lab_cmp_render_md (&r, NULL);
   assert_non_null (strstr (md, "15.0x when the cache holds 99.9% of the data (999 B, ratio 0.999)"));
   bson_free (md);
   lab_cmp_results_cleanup (&r);

   /* a single-point file names its regime when the ratio is known, and gives no production estimate */
   load ("{\"schema_version\": 1, \"backend\": {\"cache_max_bytes\": 268435456}, \"dataset\": {\"detail\": "
         "{\"storage_size_bytes\": 536412160, \"index_size_bytes\": 123150336}}, \"runs\": [" RUN_D
         "}, " RUN_F "}]}",
         &r);
   prod.ratio = 0.5;
   prod.cache_bytes = prod.data_bytes = 0;
   o.production = &prod;
   o.baseline = NULL;
   md = lab_cmp_render_md (&r, &o);
   assert_non_null (strstr (md,
                            "- Measured in the **rereads** regime: an engine cache of 256 MiB is 0.41x the "
                            "detail layout's size on disk (660 MB, data + indexes), so the cache evicts and "
                            "rereads pages (the ratio says so; no engine read figures confirm it)."));
   assert_non_null (strstr (md, "**No estimate at the production cache ratio 0.50**: this file holds one "
                                "measured point (ratio 0.41)"));
   bson_free (md);
   lab_cmp_results_cleanup (&r);

   /* the regime of a measured point is its reads, not its ratio (a 6 MiB cache 1.57x the
    * detail layout on disk, read 66x from disk, was called "fits in cache ... each page is read once") */
   load (
      "{\"schema_version\": 1, \"backend\": {\"cache_max_bytes\": 6291456}, \"config\": {\"direct_io\": "
      "true}, \"dataset\": {\"detail\": {\"storage_size_bytes\": 3000000, \"index_size_bytes\": 1007232}}, "
      "\"runs\": [" RUN_D ", \"engine\": {\"block_read_bytes\": 264477312}}, " RUN_F
      ", \"engine\": {\"block_read_bytes\": 2000000}}]}",
      &r);
   o.production = NULL;
   md = lab_cmp_render_md (&r, &o);
   assert_non_null (strstr (md,
                            "- Measured in the **rereads** regime: an engine cache of 6 MiB is 1.57x the "
                            "detail layout's size on disk (4.01 MB, data + indexes); the engine read it "
                            "66.0x its on-disk size from disk: the cache evicted and reread pages although "
                            "it is larger than the data on disk (it holds pages uncompressed)."));
   assert_null (strstr (md, "fits in cache"));
   assert_null (strstr (md, "read once"));
   bson_free (md);
   lab_cmp_results_cleanup (&r);
}

/* A sweep of three layouts (schema version 2), listed folded first: the reference (detail) still leads
 * the sweep order. On disk: detail 1,000 bytes, folded 300, buckets 400. */
#define SW3_RUNS(d, f, b)                                                                                    \
   "\"runs\": [{\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": " #f ", \"docs\": 1,"                     \
   " \"bytes_returned\": 1, \"cold\": {\"resident_pct_before\": 0}, \"engine\": {\"block_read_bytes\": "     \
   "300}},"                                                                                                  \
   " {\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": " #d ", \"docs\": 100, \"bytes_returned\": 1,"      \
   " \"cold\": {\"resident_pct_before\": 0}, \"engine\": {\"block_read_bytes\": 4000}},"                     \
   " {\"run\": 1, \"layout\": \"buckets\", \"elapsed_s\": " #b ", \"docs\": 3, \"bytes_returned\": 1,"       \
   " \"cold\": {\"resident_pct_before\": 0}, \"engine\": {\"block_read_bytes\": 800}}]"
#define SW3_FILE(points)                                                                                     \
   "{\"schema_version\": 2, \"layouts\": [{\"name\": \"folded\", \"collection\": \"fc\", \"kind\": "         \
   "\"folded\"}, {\"name\": \"detail\", \"collection\": \"dc\", \"kind\": \"rows\"}, {\"name\": "            \
   "\"buckets\", \"collection\": \"bc\", \"kind\": \"buckets\"}], \"reference_layout\": \"detail\", "        \
   "\"config\": {\"cold\": true}, \"dataset\": {\"detail\": {\"storage_size_bytes\": 800, "                  \
   "\"index_size_bytes\": 200}, \"folded\": {\"storage_size_bytes\": 290, \"index_size_bytes\": 10}, "       \
   "\"buckets\": {\"storage_size_bytes\": 390, \"index_size_bytes\": 10}}, " SW3_RUNS (                      \
      20, 2, 2) ", \"sweep\": [" points "]}"

/* test_sweep_three -- a sweep of three layouts: every point holds every layout's figures in sweep order,
 * the chart has a speedup series per candidate and an amplification series per layout, the tables a
 * column per layout, the verdict every candidate's curve and production estimate and the fastest layout
 * per point (a tie by the 2% rule named as such), and a point without a layout is refused. */
static void
test_sweep_three (void **state)
{
   lab_cmp_results_t r;
   lab_cmp_render_opts_t o = { 0 };
   lab_cmp_production_t prod = { 0 };
   lab_cmp_sweep_chart_t ch;
   lab_sweep_point_t p;
   lab_estimate_t e;
   char *md, *line;
   const char *names[] = { "detail", "folded", "buckets" };
   int l, lines = 0;

   (void)state;
   /* ratios 0.5 and 1; folded 40x and 10x, buckets 20x and 10x (tied with folded at the second) */
   load (SW3_FILE ("{\"cache_size_bytes\": 500, " SW3_RUNS (
            80, 2, 4) "}, "
                      "{\"cache_size_bytes\": 1000, " SW3_RUNS (20, 2, 2.02) "}"),
         &r);
   assert_true (lab_results_sweep_point (&r.doc, 0, &p));
   assert_int_equal (p.n, 3);
   for (l = 0; l < 3; l++) {
      assert_string_equal (p.names[l], names[l]);
      assert_true (p.has_amplification[l]);
   }
   assert_true (p.elapsed[0].median == 80 && p.elapsed[1].median == 2 && p.elapsed[2].median == 4);
   assert_true (p.has_speedup_of[1] && p.speedup_of[1] == 40);
   assert_true (p.has_speedup_of[2] && p.speedup_of[2] == 20);
   assert_false (p.has_speedup_of[0]);
   assert_true (p.has_speedup && p.speedup == 40); /* the first candidate's, as two-layout readers read it */
   assert_true (p.read_amplification[0] == 4 && p.read_amplification[1] == 1);
   assert_true (p.read_amplification[2] == 2);

   /* the chart: every layout's series, titled by name, in the colour of its place in the file (as the
    * other charts: folded, listed first, gets the first colour), and a data column for each */
   assert_int_equal (lab_cmp_sweep_chart_plot (&r, NULL, NULL, &ch), 2);
   assert_int_equal (ch.n_speedup, 2);
   assert_int_equal (ch.n_amplification, 3);
   assert_non_null (strstr (ch.plot->str, "using 1:2 with linespoints lw 3 pt 7 ps 1.0 lc rgb '#d95f02' "
                                          "title \"speedup (detail load time ÷ folded, key order)\""));
   assert_non_null (strstr (ch.plot->str, "using 1:3 with linespoints lw 3 pt 7 ps 1.0 lc rgb '#7570b3' "
                                          "title \"speedup (detail load time ÷ buckets, key order)\""));
   assert_non_null (strstr (ch.plot->str, "using 1:4 with linespoints lw 2 dt 2 pt 5 ps 0.9 lc rgb '#1b7e9e' "
                                          "title \"read amplification, detail\""));
   assert_non_null (strstr (ch.plot->str, "using 1:5 with linespoints lw 2 dt 2 pt 5 ps 0.9 lc rgb '#d95f02' "
                                          "title \"read amplification, folded\""));
   assert_non_null (strstr (ch.plot->str, "using 1:6 with linespoints lw 2 dt 2 pt 5 ps 0.9 lc rgb '#7570b3' "
                                          "title \"read amplification, buckets\""));
   assert_non_null (strstr (ch.plot->str, "using 1:(YLAB):7 with labels"));
   assert_string_equal (ch.data->str, "0.5 40 20 4 1 2 \"500 B\"\n1 10 9.90099 4 1 2 \"1000 B\"\n");
   for (line = ch.data->str; (line = strchr (line, '\n')); line++) {
      lines++;
   }
   assert_int_equal (lines, 2);
   assert_int_equal (ch.production->len, 0);
   /* both points reread (detail read 4x): one label over both, no boundary */
   assert_string_equal (ch.regimes->str,
                        "set label 'rereads' at first 0.707107, graph 0.95 center textcolor rgb '#555555'\n");
   lab_cmp_sweep_chart_cleanup (&ch);

   md = lab_cmp_render_md (&r, NULL);
   assert_non_null (
      strstr (md, "| engine cache | cache ÷ detail on disk | regime | detail load time (key order) | "
                  "folded load time (key order) | buckets load time (key order) | "
                  "speedup (key order, detail ÷ folded) | "
                  "speedup (key order, detail ÷ buckets) |\n|--:|--:|---|--:|--:|--:|--:|--:|\n"
                  "| 500 B | 0.50 | rereads | 80.0 s | 2.00 s | 4.00 s | 40.0x | 20.0x |\n"));
   assert_non_null (
      strstr (md, "**The folded layout loads 10.0x–40.0x faster than detail in key order, depending on "
                  "the engine cache**"));
   assert_non_null (
      strstr (md, "**The buckets layout loads 9.90x–20.0x faster than detail in key order, depending on "
                  "the engine cache**"));
   assert_non_null (strstr (md,
                            "- **Fastest layout at each cache size** (key-order load time; ties as *same* is "
                            "defined under the comparison table): "
                            "500 B, ratio 0.50 (rereads): **folded 2.00x** (1 run: no spread); 1000 B, ratio "
                            "1.00 (rereads): **folded 1.01x** (1 run: no spread).\n"));
   assert_non_null (strstr (md, "; the folded layout's engine read 1.00x its size; the buckets layout's "
                                "engine read 2.00x its size."));
   assert_non_null (strstr (md, "| read amplification: detail | folded | buckets |"));
   assert_null (strstr (md, "### Locality")); /* none measured */
   assert_null (strstr (md, "(null)"));
   bson_free (md);

   /* production between the points: an estimate per candidate, in the verdict, the table and the chart */
   prod.ratio = sqrt (0.5);
   o.production = &prod;
   e = lab_cmp_sweep_estimate_of (&r, &prod, 2);
   assert_int_equal (e.status, LAB_ESTIMATE_INTERPOLATED);
   assert_true (fabs (e.speedup - (20 + (20 / 2.02 - 20) * 0.5)) < 1e-9);
   assert_int_equal (lab_cmp_sweep_estimate_of (&r, &prod, 3).status, LAB_ESTIMATE_TOO_FEW); /* no 4th */
   md = lab_cmp_render_md (&r, &o);
   assert_non_null (strstr (md, "the folded layout would load about 25.0x faster than detail: an "
                                "interpolation"));
   assert_non_null (strstr (md, "the buckets layout would load about 15.0x faster than detail: an "
                                "interpolation"));
   assert_non_null (strstr (md, "| **production** | **0.71** | rereads | not measured | not measured | "
                                "not measured | **≈ 25.0x** (interpolated) | **≈ 15.0x** "
                                "(interpolated) |\n"));
   bson_free (md);
   assert_int_equal (lab_cmp_sweep_chart_plot (&r, &prod, NULL, &ch), 2);
   assert_string_equal (ch.production->str, "0.707107 25\n0.707107 14.9505\n");
   lab_cmp_sweep_chart_cleanup (&ch);
   lab_cmp_results_cleanup (&r);

   /* every point needs every layout */
   refuse (SW3_FILE ("{\"cache_size_bytes\": 500, " SW_RUNS (80, 2) "}"),
           "t.json: sweep[0] (500 B): runs[] has no entry of layout buckets; every point needs every layout");
}

/* production_refused -- the option values must be a usage error with this code naming `needle`. */
static void
production_refused (const char *ratio, const char *cache, const char *data, uint32_t code, const char *needle)
{
   lab_cmp_production_t p;
   bson_error_t error = { 0 };

   assert_false (lab_cmp_production_parse (ratio, cache, data, &p, &error));
   if (!strstr (error.message, needle)) {
      fail_msg ("error '%s' lacks '%s'", error.message, needle);
   }
   if (!lab_error_is (&error, LAB_ERROR_USAGE, code)) {
      fail_msg ("'%s': domain %u code %u, want usage code %u", error.message, error.domain, error.code, code);
   }
   assert_int_equal (lab_error_exit_code (&error), 2);
}

/* test_match -- keys that matched no document and runs whose layouts returned different rows: the facts
 * (ranges over runs, run numbers paired whatever the entries' order), the verdict and the note under the
 * table; a sweep's verdict says it too; a file without the figures says nothing. */
static void
test_match (void **state)
{
   lab_cmp_results_t r;
   lab_cmp_match_t m;
   char *md;

   (void)state;
   load ("{\"schema_version\": 1, \"runs\": ["
         "{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": 10, \"docs\": 90, \"bytes_returned\": 1,"
         " \"keys\": 40, \"keys_unmatched\": 3, \"rows\": 90},"
         "{\"run\": 2, \"layout\": \"folded\", \"elapsed_s\": 4, \"docs\": 40, \"bytes_returned\": 1,"
         " \"keys\": 40, \"keys_unmatched\": 0, \"rows\": 100},"
         "{\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": 4, \"docs\": 40, \"bytes_returned\": 1,"
         " \"keys\": 40, \"keys_unmatched\": 0, \"rows\": 90},"
         "{\"run\": 2, \"layout\": \"detail\", \"elapsed_s\": 10, \"docs\": 80, \"bytes_returned\": 1,"
         " \"keys\": 40, \"keys_unmatched\": 5, \"rows\": 80}]}",
         &r);
   lab_cmp_match_of (&r, &m);
   assert_true (lab_cmp_match_partial (&m));
   assert_true (m.has_unmatched[0] && m.has_unmatched[1]);
   assert_int_equal (m.unmatched_min[0], 3);
   assert_int_equal (m.unmatched_max[0], 5);
   assert_int_equal (m.unmatched_max[1], 0);
   assert_int_equal (m.keys, 40); /* no dataset.keys: the runs' */
   assert_int_equal (m.row_pairs, 2);
   assert_int_equal (m.rows_differ, 1); /* run 1 agrees (90, 90), run 2 does not (80, 100) */
   assert_int_equal (m.first_differ_run, 2);
   assert_int_equal (m.first_differ_rows[0], 80);
   assert_int_equal (m.first_differ_rows[1], 100);
   md = lab_cmp_render_md (&r, NULL);
   assert_non_null (strstr (md,
                            "- **Some keys matched no document**: 3–5 of 40 keys in detail (detail), none in "
                            "folded (folded); each layout's figures cover only the keys that matched it.\n"));
   assert_non_null (strstr (md, "- **The layouts returned different rows**: 80 rows from detail vs 100 from "
                                "folded in run 2 (1 of 2 runs differ)"));
   assert_non_null (strstr (md, "Keys that matched no document: 3–5 of 40 keys in detail (detail), none in "
                                "folded (folded). The layouts returned different row counts in 1 of 2 runs"));
   /* the caution comes before the load time */
   assert_true (strstr (md, "different rows") < strstr (md, "loads 2.50x faster"));
   bson_free (md);
   lab_cmp_results_cleanup (&r);

   /* three layouts (the reference listed second): every layout's unmatched keys, and the rows of each
    * compared with the reference's in the same run */
   load ("{\"schema_version\": 2, \"layouts\": [{\"name\": \"folded\", \"collection\": \"fc\", \"kind\": "
         "\"folded\"}, {\"name\": \"detail\", \"collection\": \"dc\", \"kind\": \"rows\"}, {\"name\": "
         "\"buckets\", \"collection\": \"bc\", \"kind\": \"buckets\"}], \"reference_layout\": \"detail\", "
         "\"runs\": ["
         "{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": 10, \"docs\": 90, \"bytes_returned\": 1,"
         " \"keys\": 40, \"keys_unmatched\": 0, \"rows\": 90},"
         "{\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": 4, \"docs\": 40, \"bytes_returned\": 1,"
         " \"keys\": 40, \"keys_unmatched\": 0, \"rows\": 90},"
         "{\"run\": 1, \"layout\": \"buckets\", \"elapsed_s\": 5, \"docs\": 60, \"bytes_returned\": 1,"
         " \"keys\": 40, \"keys_unmatched\": 1, \"rows\": 90},"
         "{\"run\": 2, \"layout\": \"buckets\", \"elapsed_s\": 5, \"docs\": 60, \"bytes_returned\": 1,"
         " \"keys\": 40, \"keys_unmatched\": 4, \"rows\": 70},"
         "{\"run\": 2, \"layout\": \"folded\", \"elapsed_s\": 4, \"docs\": 40, \"bytes_returned\": 1,"
         " \"keys\": 40, \"keys_unmatched\": 0, \"rows\": 90},"
         "{\"run\": 2, \"layout\": \"detail\", \"elapsed_s\": 10, \"docs\": 90, \"bytes_returned\": 1,"
         " \"keys\": 40, \"keys_unmatched\": 0, \"rows\": 90}]}",
         &r);
   lab_cmp_match_of (&r, &m);
   assert_int_equal (m.n, 3);
   assert_int_equal (m.reference, 1);
   assert_string_equal (m.names[2], "buckets");
   assert_true (lab_cmp_match_partial (&m)); /* only buckets missed keys */
   assert_true (m.has_unmatched[0] && m.has_unmatched[1] && m.has_unmatched[2]);
   assert_int_equal (m.unmatched_max[0], 0);
   assert_int_equal (m.unmatched_max[1], 0);
   assert_int_equal (m.unmatched_min[2], 1);
   assert_int_equal (m.unmatched_max[2], 4);
   assert_int_equal (m.row_pairs, 2);
   assert_int_equal (m.rows_differ, 1); /* run 2: buckets 70 against detail's 90 */
   assert_int_equal (m.first_differ_run, 2);
   assert_int_equal (m.first_differ_rows[0], 90);
   assert_int_equal (m.first_differ_rows[1], 90);
   assert_int_equal (m.first_differ_rows[2], 70);
   md = lab_cmp_render_md (&r, NULL);
   assert_non_null (strstr (md, "- **Some keys matched no document**: none in fc (folded), none in dc "
                                "(detail), 1–4 of 40 keys in bc (buckets); each layout's figures cover only "
                                "the keys that matched it.\n"));
   assert_non_null (strstr (md, "- **The layouts returned different rows**: 90 rows from dc vs 90 from fc, "
                                "70 from bc in run 2 (1 of 2 runs differ)"));
   bson_free (md);
   {
      bson_t out = BSON_INITIALIZER;
      int64_t v = -1;
      lab_cmp_match_json_append (&m, &out);
      assert_true (lab_results_get_int (&out, "match.keys_unmatched.buckets", &v) && v == 4);
      assert_true (lab_results_get_int (&out, "match.keys_unmatched.folded", &v) && v == 0);
      assert_true (lab_results_get_int (&out, "match.rows_differ_runs", &v) && v == 1);
      bson_destroy (&out);
   }
   lab_cmp_results_cleanup (&r);

   /* every key matched and the rows agree: nothing said */
   load ("{\"schema_version\": 1, \"runs\": [" RUN_D ", \"keys_unmatched\": 0, \"rows\": 100}, " RUN_F
         ", \"keys_unmatched\": 0, \"rows\": 100}]}",
         &r);
   lab_cmp_match_of (&r, &m);
   assert_false (lab_cmp_match_partial (&m));
   assert_int_equal (m.rows_differ, 0);
   assert_int_equal (m.row_pairs, 1);
   md = lab_cmp_render_md (&r, NULL);
   assert_null (strstr (md, "matched no document"));
   assert_null (strstr (md, "different row"));
   bson_free (md);
   lab_cmp_results_cleanup (&r);

   /* a sweep whose reference point's layouts returned different rows: its verdict says so */
   load ("{\"schema_version\": 1, \"config\": {\"cold\": true}, " SW_DATASET ", \"runs\": ["
         "{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": 20, \"docs\": 100, \"bytes_returned\": 1,"
         " \"rows\": 100, \"keys_unmatched\": 2},"
         "{\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": 2, \"docs\": 1, \"bytes_returned\": 1,"
         " \"rows\": 120, \"keys_unmatched\": 0}],"
         " \"sweep\": [{\"cache_size_bytes\": 500, " SW_RUNS (
            80, 2) "}, {\"cache_size_bytes\": 1000, " SW_RUNS (20, 2) "}]}",
         &r);
   md = lab_cmp_render_md (&r, NULL);
   assert_non_null (strstr (md, "- **The layouts returned different rows**: 100 rows from"));
   assert_non_null (strstr (md, "- **Some keys matched no document**: 2 keys in"));
   bson_free (md);
   lab_cmp_results_cleanup (&r);
}

static void
test_production_parse (void **state)
{
   lab_cmp_production_t p;
   bson_error_t error;

   (void)state;
   assert_true (lab_cmp_production_parse (NULL, NULL, NULL, &p, &error));
   assert_true (p.ratio == 0); /* none given: no production point */
   assert_true (lab_cmp_production_parse ("0.25", NULL, NULL, &p, &error));
   assert_true (p.ratio == 0.25 && p.cache_bytes == 0 && p.data_bytes == 0);
   assert_true (lab_cmp_production_parse (NULL, "64GiB", "256GiB", &p, &error));
   assert_true (p.ratio == 0.25 && p.cache_bytes == 64.0 * 1073741824 && p.data_bytes == 256.0 * 1073741824);
   assert_true (lab_cmp_production_parse (NULL, "48G", "310GB", &p, &error)); /* GB is GiB, as G */
   assert_true (fabs (p.ratio - 48.0 / 310.0) < 1e-12);
   production_refused ("0", NULL, NULL, LAB_USAGE_ERR_BAD_VALUE, "'0' is not a ratio above 0");
   production_refused ("-1", NULL, NULL, LAB_USAGE_ERR_BAD_VALUE, "'-1' is not a ratio above 0");
   production_refused ("0.5x", NULL, NULL, LAB_USAGE_ERR_BAD_VALUE, "'0.5x' is not a ratio");
   production_refused ("inf", NULL, NULL, LAB_USAGE_ERR_BAD_VALUE, "'inf' is not a ratio");
   production_refused ("", NULL, NULL, LAB_USAGE_ERR_BAD_VALUE, "'' is not a ratio");
   production_refused (NULL, "64GiB", NULL, LAB_USAGE_ERR_MISSING,
                       "--production-cache needs --production-data too");
   production_refused (NULL, NULL, "1T", LAB_USAGE_ERR_MISSING,
                       "--production-data needs --production-cache too");
   production_refused ("0.5", "64GiB", "1T", LAB_USAGE_ERR_CONFLICT, "give either");
   production_refused (NULL, "0", "1T", LAB_USAGE_ERR_BAD_VALUE,
                       "--production-cache: the size must be above 0");
   production_refused (NULL, "1G", "lots", LAB_USAGE_ERR_BAD_VALUE,
                       "--production-data: cannot read 'lots' as a size");
}

/* reference files: units convert exactly (SI and binary kept apart), a figure may be not given, a unit
 * that does not fit the metric is refused */
static void
test_reference_units (void **state)
{
   (void)state;
   double f;
   bson_error_t e;
   lab_cmp_reference_t ref;

   assert_true (lab_cmp_unit_factor ("GB", LAB_UNIT_BYTES, &f));
   assert_true (f == 1e9);
   assert_true (lab_cmp_unit_factor ("GiB", LAB_UNIT_BYTES, &f));
   assert_true (f == 1073741824.0);
   assert_true (lab_cmp_unit_factor ("KiB/s", LAB_UNIT_MB_S, &f));
   assert_true (f == 1024.0 / 1e6);
   assert_true (lab_cmp_unit_factor ("min", LAB_UNIT_SECONDS, &f));
   assert_true (f == 60.0);
   assert_false (lab_cmp_unit_factor ("GB", LAB_UNIT_MB_S, &f));
   assert_false (lab_cmp_unit_factor ("s", LAB_UNIT_BYTES, &f));

   static const char ok[] =
      "{\"reference_version\": 1, \"metrics\": ["
      "{\"metric\": \"server_rss_peak_bytes\", \"unit\": \"GiB\", \"detail\": 2, \"folded\": 1},"
      "{\"metric\": \"returned_mb_s\", \"unit\": \"KB/s\", \"detail\": null},"
      "{\"metric\": \"elapsed_s\", \"unit\": \"min\", \"detail\": 2, \"folded\": 0.5}]}";
   assert_true (lab_cmp_reference_load_json (ok, strlen (ok), "ok.json", &ref, &e));
   assert_int_equal (ref.n, 3);
   assert_true (ref.m[0].detail == 2.0 * 1073741824.0 && ref.m[0].folded == 1073741824.0);
   assert_false (ref.m[1].has_detail);
   assert_false (ref.m[1].has_folded);
   assert_true (ref.m[2].detail == 120.0 && ref.m[2].folded == 30.0);
   lab_cmp_reference_cleanup (&ref);

   static const char bad[] = "{\"reference_version\": 1, \"metrics\": ["
                             "{\"metric\": \"elapsed_s\", \"unit\": \"GB\", \"detail\": 1}]}";
   assert_false (lab_cmp_reference_load_json (bad, strlen (bad), "bad.json", &ref, &e));
   assert_non_null (strstr (e.message, "unit 'GB' cannot be converted"));
   static const char str[] = "{\"reference_version\": 1, \"metrics\": ["
                             "{\"metric\": \"elapsed_s\", \"unit\": \"s\", \"detail\": \"932\"}]}";
   assert_false (lab_cmp_reference_load_json (str, strlen (str), "str.json", &ref, &e));
   assert_non_null (strstr (e.message, "metrics[0].detail is not a number"));
   lab_cmp_reference_cleanup (&ref); /* safe after a failed load */
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_refuses_bad_files),
      cmocka_unit_test (test_load_file_errors_name_path),
      cmocka_unit_test (test_metric_stat_runs_and_summary),
      cmocka_unit_test (test_md_escape),
      cmocka_unit_test (test_app_forms),
      cmocka_unit_test (test_render_minimal),
      cmocka_unit_test (test_render_verdict_directions),
      cmocka_unit_test (test_sweep_refused),
      cmocka_unit_test (test_render_sweep),
      cmocka_unit_test (test_sweep_chart_regimes),
      cmocka_unit_test (test_sweep_chart_prediction),
      cmocka_unit_test (test_sweep_three),
      cmocka_unit_test (test_production_parse),
      cmocka_unit_test (test_match),
      cmocka_unit_test (test_reference_units),
   };
   return lab_test_run_group ("compare", tests, NULL, NULL);
}
