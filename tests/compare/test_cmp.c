/*
 * test_cmp.c -- unit tests of layout-report's library: results validation (truncated, invalid, wrong
 * shape), medians and spreads, summary-vs-runs precedence, winners and ratios, number formatting,
 * Markdown escaping, and rendering of a file whose optional fields are all missing.
 */
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
   refuse ("{\"schema_version\": 2, \"runs\": []}", "schema_version 2");
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
}

static void
test_stat_of (void **state)
{
   double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
   lab_cmp_stat_t s;

   (void)state;
   s = lab_cmp_stat_of (odd, 3);
   assert_true (s.present);
   assert_int_equal (s.n, 3);
   assert_true (s.median == 3 && s.min == 1 && s.max == 5);
   assert_true (odd[0] == 5); /* input untouched */
   s = lab_cmp_stat_of (even, 4);
   assert_true (s.median == 2.5 && s.min == 1 && s.max == 4);
   s = lab_cmp_stat_of (one, 1);
   assert_true (s.median == 7 && s.n == 1);
   s = lab_cmp_stat_of (NULL, 0);
   assert_false (s.present);
}

static void
test_metric_stat_runs_and_summary (void **state)
{
   lab_cmp_results_t r;
   lab_cmp_stat_t s;
   const lab_cmp_metric_t *el = lab_cmp_metric_find ("elapsed_s");
   const lab_cmp_metric_t *p99 = lab_cmp_metric_find ("latency_p99_ms");

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
   s = lab_cmp_metric_stat (&r, "detail", el);
   assert_true (s.present && s.n == 2 && s.median == 12 && s.min == 10 && s.max == 14);
   s = lab_cmp_metric_stat (&r, "folded", el);
   assert_true (s.median == 4 && s.min == 3 && s.max == 5 && s.n == 3);
   s = lab_cmp_metric_stat (&r, "detail", p99); /* nested path, one run has it */
   assert_true (s.present && s.n == 1 && s.median == 8);
   s = lab_cmp_metric_stat (&r, "folded", p99);
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
   s = lab_cmp_metric_stat (&r, "detail", el);
   assert_true (s.median == 99 && s.min == 98 && s.max == 100 && s.n == 1);
   s = lab_cmp_metric_stat (&r, "folded", el); /* no summary for folded: from runs */
   assert_true (s.median == 4);
   lab_cmp_results_cleanup (&r);
}

static void
test_winner_and_ratio (void **state)
{
   lab_cmp_stat_t d = { true, 1, 100, 100, 100 }, f = { true, 1, 40, 40, 40 }, none = { 0 };
   lab_cmp_stat_t zero = { true, 1, 0, 0, 0 }, near = { true, 1, 101, 101, 101 };
   double factor, ratio;

   (void)state;
   assert_int_equal (lab_cmp_winner (LAB_CMP_LOWER_BETTER, &d, &f, &factor), LAB_CMP_WIN_FOLDED);
   assert_true (fabs (factor - 2.5) < 1e-9);
   assert_int_equal (lab_cmp_winner (LAB_CMP_HIGHER_BETTER, &d, &f, &factor), LAB_CMP_WIN_DETAIL);
   assert_int_equal (lab_cmp_winner (LAB_CMP_NEUTRAL, &d, &f, NULL), LAB_CMP_WIN_NONE);
   assert_int_equal (lab_cmp_winner (LAB_CMP_LOWER_BETTER, &d, &none, NULL), LAB_CMP_WIN_NONE);
   assert_int_equal (lab_cmp_winner (LAB_CMP_LOWER_BETTER, &d, &near, NULL), LAB_CMP_WIN_TIE);
   assert_int_equal (lab_cmp_winner (LAB_CMP_LOWER_BETTER, &zero, &zero, NULL), LAB_CMP_WIN_TIE);
   assert_true (lab_cmp_ratio (&d, &f, &ratio));
   assert_true (fabs (ratio - 0.4) < 1e-12);
   assert_false (lab_cmp_ratio (&zero, &f, &ratio));
   assert_false (lab_cmp_ratio (&none, &f, &ratio));
}

/* expect_fmt -- lab_cmp_format(unit, v) must be `want`. */
static void
expect_fmt (lab_cmp_unit_t unit, double v, const char *want)
{
   char *got = lab_cmp_format (unit, v);

   if (strcmp (got, want) != 0) {
      fail_msg ("format(%d, %g) = '%s', want '%s'", (int)unit, v, got, want);
   }
   bson_free (got);
}

static void
test_format (void **state)
{
   lab_cmp_stat_t s = { true, 3, 932.4, 905.0, 950.2 }, same = { true, 3, 12, 12, 12 };
   lab_cmp_stat_t b = { true, 3, 15880000, 15200000, 16420000 }, none = { 0 };
   char *t;

   (void)state;
   expect_fmt (LAB_CMP_UNIT_COUNT, 55357286, "55,357,286");
   expect_fmt (LAB_CMP_UNIT_COUNT, 0, "0");
   expect_fmt (LAB_CMP_UNIT_COUNT, 2.5, "2.50");
   expect_fmt (LAB_CMP_UNIT_RATE, 3917, "3,917/s");
   expect_fmt (LAB_CMP_UNIT_RATE, 60, "60.0/s");
   expect_fmt (LAB_CMP_UNIT_SECONDS, 932, "932 s");
   expect_fmt (LAB_CMP_UNIT_SECONDS, 4.321, "4.32 s");
   expect_fmt (LAB_CMP_UNIT_SECONDS, 1234.6, "1,235 s");
   expect_fmt (LAB_CMP_UNIT_MS, 12.54, "12.5 ms");
   expect_fmt (LAB_CMP_UNIT_BYTES, 512, "512 B");
   expect_fmt (LAB_CMP_UNIT_BYTES, 52400000000.0, "52.4 GB");
   expect_fmt (LAB_CMP_UNIT_BYTES, 999600, "1.00 MB"); /* rounds up into the next unit */
   expect_fmt (LAB_CMP_UNIT_MB_S, 15.88, "15.9 MB/s");
   expect_fmt (LAB_CMP_UNIT_MB_S, 0.0234, "23.4 KB/s");
   expect_fmt (LAB_CMP_UNIT_PCT, 66, "66.0%");
   t = lab_cmp_format_stat (LAB_CMP_UNIT_SECONDS, &s);
   assert_string_equal (t, "932 s (905–950)");
   bson_free (t);
   t = lab_cmp_format_stat (LAB_CMP_UNIT_COUNT, &same);
   assert_string_equal (t, "12");
   bson_free (t);
   t = lab_cmp_format_stat (LAB_CMP_UNIT_BYTES, &b); /* one scale for median and range */
   assert_string_equal (t, "15.9 MB (15.2–16.4)");
   bson_free (t);
   t = lab_cmp_format_stat (LAB_CMP_UNIT_BYTES, &none);
   assert_string_equal (t, "n/a");
   bson_free (t);
}

static void
test_md_escape (void **state)
{
   char *e;

   (void)state;
   e = lab_cmp_md_escape ("bill_detail|*x*\n[a](b) `c` <d> #1 ~e~ !f & g");
   assert_string_equal (e, "bill\\_detail\\|\\*x\\* \\[a\\](b) \\`c\\` \\<d\\> \\#1 \\~e\\~ \\!f \\& g");
   bson_free (e);
   e = lab_cmp_md_escape ("plain-name.v2");
   assert_string_equal (e, "plain-name.v2");
   bson_free (e);
   e = lab_cmp_md_escape (NULL);
   assert_string_equal (e, "n/a");
   bson_free (e);
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
   assert_non_null (strstr (md, "**The folded layout loads 2.50x faster**: 4.00 s folded vs 10.0 s"));
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
   assert_non_null (strstr (md, "**The folded layout loads 2.00x slower**"));
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

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_refuses_bad_files),
      cmocka_unit_test (test_load_file_errors_name_path),
      cmocka_unit_test (test_stat_of),
      cmocka_unit_test (test_metric_stat_runs_and_summary),
      cmocka_unit_test (test_winner_and_ratio),
      cmocka_unit_test (test_format),
      cmocka_unit_test (test_md_escape),
      cmocka_unit_test (test_render_minimal),
      cmocka_unit_test (test_render_verdict_directions),
   };
   return cmocka_run_group_tests_name ("compare", tests, NULL, NULL);
}
