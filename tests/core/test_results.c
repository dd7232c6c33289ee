/*
 * test_results.c -- unit tests of the one results model (core/results.h): median, min and max of odd
 * and even counts, the ratio with a zero or missing side, the winner and its tie rule, descriptive
 * metrics giving no winner, the catalogue's names against the schema's flattening rule, the summary
 * scancmp writes, number formatting and the cells every table prints.
 */
#include <math.h>
#include <string.h>

#include "core/results.h"
#include "tests/testutil.h"

static const lab_stat_t none = { 0 };

/* one -- a present one-run stat of value v. */
static lab_stat_t
one (double v)
{
   lab_stat_t s = { true, 1, v, v, v };

   return s;
}

static void
test_stat_of (void **state)
{
   double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, single[] = { 7 }, two[] = { 10, 14 };
   lab_stat_t s;

   (void)state;
   s = lab_results_stat_of (odd, 3);
   assert_true (s.present);
   assert_int_equal (s.n, 3);
   assert_true (s.median == 3 && s.min == 1 && s.max == 5);
   assert_true (odd[0] == 5 && odd[1] == 1); /* input untouched */
   s = lab_results_stat_of (even, 4);        /* even: mean of the two middle values */
   assert_true (s.median == 2.5 && s.min == 1 && s.max == 4 && s.n == 4);
   s = lab_results_stat_of (two, 2);
   assert_true (s.median == 12);
   s = lab_results_stat_of (single, 1);
   assert_true (s.median == 7 && s.min == 7 && s.max == 7 && s.n == 1);
   s = lab_results_stat_of (NULL, 0);
   assert_false (s.present);
}

static void
test_ratio (void **state)
{
   lab_stat_t d = one (100), f = one (40), zero = one (0);
   double ratio = -1;

   (void)state;
   assert_true (lab_results_ratio (&d, &f, &ratio));
   assert_true (fabs (ratio - 0.4) < 1e-12);
   assert_true (lab_results_ratio (&d, &zero, &ratio)); /* folded 0: a ratio of 0 */
   assert_true (ratio == 0.0);
   ratio = -1;
   assert_false (lab_results_ratio (&zero, &f, &ratio)); /* detail 0: no ratio */
   assert_false (lab_results_ratio (&zero, &zero, &ratio));
   assert_false (lab_results_ratio (&none, &f, &ratio));
   assert_false (lab_results_ratio (&d, &none, &ratio));
   assert_true (ratio == -1); /* untouched when there is none */
}

static void
test_winner_and_tie_rule (void **state)
{
   lab_stat_t d = one (100), f = one (40), zero = one (0);
   lab_stat_t at_tie = one (98), past_tie = one (97.9), up_tie = one (102), up_past = one (102.1);
   double factor = -1;

   (void)state;
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &f, &factor), LAB_WIN_FOLDED);
   assert_true (fabs (factor - 2.5) < 1e-9);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &f, &d, &factor), LAB_WIN_DETAIL);
   assert_int_equal (lab_results_winner (LAB_BETTER_HIGHER, &d, &f, &factor), LAB_WIN_DETAIL);
   assert_true (fabs (factor - 2.5) < 1e-9);
   assert_int_equal (lab_results_winner (LAB_BETTER_HIGHER, &f, &d, NULL), LAB_WIN_FOLDED);
   /* the tie rule: a difference of at most 2% of the larger median, in either direction */
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &at_tie, &factor), LAB_WIN_TIE);
   assert_true (factor == 0.0);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &past_tie, NULL), LAB_WIN_FOLDED);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &up_tie, NULL), LAB_WIN_TIE);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &up_past, NULL), LAB_WIN_DETAIL);
   assert_int_equal (lab_results_winner (LAB_BETTER_HIGHER, &at_tie, &d, NULL), LAB_WIN_TIE);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &zero, &zero, NULL), LAB_WIN_TIE);
   /* a zero on one side: a winner, but no factor */
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &zero, &factor), LAB_WIN_FOLDED);
   assert_true (factor == 0.0);
   /* descriptive metrics and missing figures: no winner */
   assert_int_equal (lab_results_winner (LAB_DESCRIPTIVE, &d, &f, &factor), LAB_WIN_NONE);
   assert_true (factor == 0.0);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &none, NULL), LAB_WIN_NONE);
   assert_int_equal (lab_results_winner (LAB_BETTER_HIGHER, &none, &f, NULL), LAB_WIN_NONE);
}

static void
test_catalogue (void **state)
{
   const lab_metric_t *m;
   size_t n, i, j;
   char flat[64];

   (void)state;
   m = lab_results_metrics (&n);
   assert_true (n > 20);
   for (i = 0; i < n; i++) {
      assert_non_null (m[i].name);
      assert_non_null (m[i].label);
      assert_ptr_equal (lab_results_metric_find (m[i].name), &m[i]);
      /* the summary name is the schema's flattening of the run entry's path */
      if (m[i].run_path) {
         lab_results_flat_name (m[i].run_path, flat, sizeof flat);
         if (strcmp (flat, m[i].name) != 0) {
            fail_msg ("metric %s: run path %s flattens to %s", m[i].name, m[i].run_path, flat);
         }
      }
      /* labels are unique and never hold two spaces in a row (scancmp's columns are split on those) */
      assert_null (strstr (m[i].label, "  "));
      for (j = 0; j < i; j++) {
         assert_true (strcmp (m[i].label, m[j].label) != 0);
      }
   }
   assert_null (lab_results_metric_find ("no_such_metric"));
   /* the decisions both renderers follow: totals decide, rates per second are descriptive */
   assert_int_equal (lab_results_metric_find ("read_requests")->better, LAB_BETTER_LOWER);
   assert_int_equal (lab_results_metric_find ("read_bytes")->better, LAB_BETTER_LOWER);
   assert_int_equal (lab_results_metric_find ("elapsed_s")->better, LAB_BETTER_LOWER);
   assert_int_equal (lab_results_metric_find ("read_requests_per_s_peak")->better, LAB_DESCRIPTIVE);
   assert_int_equal (lab_results_metric_find ("read_requests_per_s_mean")->better, LAB_DESCRIPTIVE);
   assert_int_equal (lab_results_metric_find ("read_mb_s_peak")->better, LAB_DESCRIPTIVE);
   assert_int_equal (lab_results_metric_find ("returned_mb_s")->better, LAB_DESCRIPTIVE);
   assert_int_equal (lab_results_metric_find ("count")->better, LAB_DESCRIPTIVE);
   assert_null (lab_results_metric_find ("count")->run_path); /* a dataset figure */
   lab_results_flat_name ("latency_ms.p99", flat, sizeof flat);
   assert_string_equal (flat, "latency_p99_ms");
   lab_results_flat_name ("rates.read_mb_s_peak", flat, sizeof flat);
   assert_string_equal (flat, "read_mb_s_peak");
   lab_results_flat_name ("elapsed_s", flat, sizeof flat);
   assert_string_equal (flat, "elapsed_s");
}

/* entry -- a run entry from JSON; asserts it parses. */
static void
entry (bson_t *b, const char *json)
{
   bson_error_t e;

   if (!bson_init_from_json (b, json, -1, &e)) {
      fail_msg ("bad JSON: %s", e.message);
   }
}

static void
test_summary_append (void **state)
{
   bson_t entries[3], results = BSON_INITIALIZER;
   const lab_metric_t *el = lab_results_metric_find ("elapsed_s");
   const lab_metric_t *p99 = lab_results_metric_find ("latency_p99_ms");
   lab_stat_t s;
   double v;
   int i;

   (void)state;
   entry (&entries[0], "{\"run\": 1, \"layout\": \"detail\", \"order_in_run\": 1, \"elapsed_s\": 10,"
                       " \"latency_ms\": {\"count\": 5, \"p99\": 8}, \"cold\": {\"server_pid\": 42,"
                       " \"resident_pct_before\": 0.5}, \"rates\": {\"rows_per_s\": 100}}");
   entry (&entries[1], "{\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": 4}");
   entry (&entries[2], "{\"run\": 2, \"layout\": \"detail\", \"elapsed_s\": 14,"
                       " \"latency_ms\": {\"count\": 5, \"p99\": 6}}");
   lab_results_summary_append (&results, entries, 3);
   assert_true (lab_results_get_number (&results, "summary.detail.runs", &v) && v == 2);
   assert_true (lab_results_get_number (&results, "summary.folded.runs", &v) && v == 1);
   assert_true (lab_results_get_number (&results, "summary.detail.rows_per_s.median", &v) && v == 100);
   assert_true (lab_results_get_number (&results, "summary.detail.resident_pct_before.max", &v) && v == 0.5);
   /* run numbers, order, latency sample counts and process ids are not figures */
   assert_false (lab_results_get_number (&results, "summary.detail.run.median", &v));
   assert_false (lab_results_get_number (&results, "summary.detail.order_in_run.median", &v));
   assert_false (lab_results_get_number (&results, "summary.detail.latency_count_ms.median", &v));
   assert_false (lab_results_get_number (&results, "summary.detail.server_pid.median", &v));
   /* the reader finds what the writer wrote: even count, mean of the middle two */
   s = lab_results_metric_stat (&results, LAB_RESULTS_DETAIL, el);
   assert_true (s.present && s.n == 2 && s.median == 12 && s.min == 10 && s.max == 14);
   s = lab_results_metric_stat (&results, LAB_RESULTS_DETAIL, p99);
   assert_true (s.median == 7 && s.min == 6 && s.max == 8);
   s = lab_results_metric_stat (&results, LAB_RESULTS_FOLDED, p99);
   assert_false (s.present);
   for (i = 0; i < 3; i++) {
      bson_destroy (&entries[i]);
   }
   bson_destroy (&results);
}

/* expect_fmt -- lab_results_format(unit, v) must be `want`. */
static void
expect_fmt (lab_unit_t unit, double v, const char *want)
{
   char *got = lab_results_format (unit, v);

   if (strcmp (got, want) != 0) {
      fail_msg ("format(%d, %g) = '%s', want '%s'", (int)unit, v, got, want);
   }
   bson_free (got);
}

/* expect_str -- `got` (freed here) must be `want`. */
static void
expect_str (char *got, const char *want)
{
   if (strcmp (got, want) != 0) {
      fail_msg ("got '%s', want '%s'", got, want);
   }
   bson_free (got);
}

static void
test_format (void **state)
{
   lab_stat_t s = { true, 3, 932.4, 905.0, 950.2 }, same = { true, 3, 12, 12, 12 };
   lab_stat_t b = { true, 3, 15880000, 15200000, 16420000 };

   (void)state;
   expect_fmt (LAB_UNIT_COUNT, 55357286, "55,357,286");
   expect_fmt (LAB_UNIT_COUNT, 0, "0");
   expect_fmt (LAB_UNIT_COUNT, 2.5, "2.50");
   expect_fmt (LAB_UNIT_RATE, 3917, "3,917/s");
   expect_fmt (LAB_UNIT_RATE, 60, "60.0/s");
   expect_fmt (LAB_UNIT_SECONDS, 932, "932 s");
   expect_fmt (LAB_UNIT_SECONDS, 4.321, "4.32 s");
   expect_fmt (LAB_UNIT_SECONDS, 1234.6, "1,235 s");
   expect_fmt (LAB_UNIT_MS, 12.54, "12.5 ms");
   expect_fmt (LAB_UNIT_MS, 0.0042, "0.004 ms");
   expect_fmt (LAB_UNIT_BYTES, 512, "512 B");
   expect_fmt (LAB_UNIT_BYTES, 52400000000.0, "52.4 GB");
   expect_fmt (LAB_UNIT_BYTES, 999600, "1.00 MB"); /* rounds up into the next unit */
   expect_fmt (LAB_UNIT_MB_S, 15.88, "15.9 MB/s");
   expect_fmt (LAB_UNIT_MB_S, 0.0234, "23.4 KB/s");
   expect_fmt (LAB_UNIT_PCT, 66, "66.0%");
   expect_str (lab_results_format_stat (LAB_UNIT_SECONDS, &s, true), "932 s (905–950)");
   expect_str (lab_results_format_stat (LAB_UNIT_SECONDS, &s, false), "932 s");
   expect_str (lab_results_format_stat (LAB_UNIT_COUNT, &same, true), "12");
   expect_str (lab_results_format_stat (LAB_UNIT_BYTES, &b, true), "15.9 MB (15.2–16.4)");
   expect_str (lab_results_format_stat (LAB_UNIT_BYTES, &none, true), "n/a");
   expect_str (lab_results_format_ratio (0.077), "7.7%");
   expect_str (lab_results_format_ratio (0.46), "46%");
   expect_str (lab_results_format_ratio (12.3), "1,230%");
   expect_str (lab_results_format_ratio (0.0001), "<0.1%");
   expect_str (lab_results_format_ratio (0), "0.0%");
   expect_str (lab_results_format_factor (2.157), "2.16x");
   expect_str (lab_results_format_factor (12.34), "12.3x");
   expect_str (lab_results_format_factor (1230.4), "1,230x");
}

static void
test_row_cells (void **state)
{
   bson_t *r;
   bson_error_t e;
   lab_results_row_t row;
   lab_results_cells_t c;

   (void)state;
   r = bson_new_from_json ((const uint8_t *)"{\"dataset\": {\"detail\": {\"count\": 520000},"
                                            " \"folded\": {\"count\": 4000}},"
                                            " \"summary\": {\"detail\": {\"runs\": 3,"
                                            "  \"elapsed_s\": {\"median\": 10, \"min\": 9, \"max\": 12},"
                                            "  \"read_requests_per_s_peak\": {\"median\": 900}},"
                                            " \"folded\": {\"runs\": 3, \"elapsed_s\": {\"median\": 0},"
                                            "  \"read_requests_per_s_peak\": {\"median\": 300}}}}",
                           -1, &e);
   assert_non_null (r);
   assert_true (lab_results_row (r, lab_results_metric_find ("elapsed_s"), &row));
   lab_results_row_cells (&row, true, &c);
   assert_string_equal (c.detail, "10.0 s (9.0–12.0)");
   assert_string_equal (c.folded, "0.00 s");
   assert_string_equal (c.ratio, "0.0%");
   assert_string_equal (c.better, "folded"); /* a winner without a factor against zero */
   lab_results_cells_cleanup (&c);
   lab_results_row_cells (&row, false, &c);
   assert_string_equal (c.detail, "10.0 s");
   lab_results_cells_cleanup (&c);
   /* a rate: descriptive, no winner */
   assert_true (lab_results_row (r, lab_results_metric_find ("read_requests_per_s_peak"), &row));
   lab_results_row_cells (&row, true, &c);
   assert_string_equal (c.ratio, "33%");
   assert_string_equal (c.better, "");
   lab_results_cells_cleanup (&c);
   /* a dataset figure: one value each, descriptive */
   assert_true (lab_results_row (r, lab_results_metric_find ("count"), &row));
   lab_results_row_cells (&row, true, &c);
   assert_string_equal (c.detail, "520,000");
   assert_string_equal (c.ratio, "0.8%");
   assert_string_equal (c.better, "");
   lab_results_cells_cleanup (&c);
   /* a figure neither layout has: no row */
   assert_false (lab_results_row (r, lab_results_metric_find ("read_bytes"), &row));
   lab_results_cells_cleanup (&c); /* safe on a cleaned struct */
   bson_destroy (r);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_stat_of),        cmocka_unit_test (test_ratio),
      cmocka_unit_test (test_winner_and_tie_rule),
      cmocka_unit_test (test_catalogue),      cmocka_unit_test (test_summary_append),
      cmocka_unit_test (test_format),         cmocka_unit_test (test_row_cells),
   };
   return cmocka_run_group_tests_name ("results", tests, NULL, NULL);
}
