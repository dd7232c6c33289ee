/*
 * test_cmp.c -- unit tests of layout-report's library: results validation (truncated, invalid, wrong
 * shape), summary-vs-runs precedence and the median run, Markdown escaping, and rendering of a file whose
 * optional fields are all missing. The arithmetic and formatting are tested in tests/core/test_results.c.
 */
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
      cmocka_unit_test (test_metric_stat_runs_and_summary),
      cmocka_unit_test (test_md_escape),
      cmocka_unit_test (test_render_minimal),
      cmocka_unit_test (test_render_verdict_directions),
   };
   return cmocka_run_group_tests_name ("compare", tests, NULL, NULL);
}
