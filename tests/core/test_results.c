/*
 * test_results.c -- unit tests of the one results model (core/results.h): median, min and max of odd
 * and even counts, the ratio with a zero or missing side, the winner and its tie rule, descriptive
 * metrics giving no winner, the catalogue's names against the schema's flattening rule, the summary
 * scancmp writes, number formatting and the cells every table prints; the cache sweep: speedup, read
 * amplification, cache ratio, the production estimate (interpolation, refusal to extrapolate), the
 * reference point and the sweep file rules.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/error.h"
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

/* three -- three runs that agreed exactly (no spread): only the 2% rule can make them "same" */
static lab_stat_t
three (double v)
{
   lab_stat_t s = { true, 3, v, v, v };

   return s;
}

static void
test_winner_and_tie_rule (void **state)
{
   lab_stat_t d = three (100), f = three (40), zero = three (0);
   lab_stat_t at_floor = three (99.6), past_floor = three (99.4), up_floor = three (100.4),
              up_past = three (100.6);
   double factor = -1;
   lab_tie_t why;

   (void)state;
   /* medians without per-run values: one run's rule (the ratio as measured) */
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &f, NULL, &factor, NULL), LAB_WIN_FOLDED);
   assert_true (fabs (factor - 2.5) < 1e-9);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &f, &d, NULL, &factor, NULL), LAB_WIN_DETAIL);
   assert_int_equal (lab_results_winner (LAB_BETTER_HIGHER, &d, &f, NULL, &factor, NULL), LAB_WIN_DETAIL);
   assert_true (fabs (factor - 2.5) < 1e-9);
   assert_int_equal (lab_results_winner (LAB_BETTER_HIGHER, &f, &d, NULL, NULL, NULL), LAB_WIN_FOLDED);
   /* the floor: under 0.5% of the larger (it prints as 1.00x), in either direction; no more */
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &at_floor, NULL, &factor, &why), LAB_WIN_TIE);
   assert_true (factor == 0.0);
   assert_int_equal (why, LAB_TIE_CLOSE);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &past_floor, NULL, NULL, &why),
                     LAB_WIN_FOLDED);
   assert_int_equal (why, LAB_TIE_NO);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &up_floor, NULL, NULL, NULL), LAB_WIN_TIE);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &up_past, NULL, NULL, NULL), LAB_WIN_DETAIL);
   assert_int_equal (lab_results_winner (LAB_BETTER_HIGHER, &at_floor, &d, NULL, NULL, NULL), LAB_WIN_TIE);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &zero, &zero, NULL, NULL, NULL), LAB_WIN_TIE);
   /* a zero on one side: a winner, but no factor */
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &zero, NULL, &factor, NULL), LAB_WIN_FOLDED);
   assert_true (factor == 0.0);
   /* descriptive metrics and missing figures: no winner */
   assert_int_equal (lab_results_winner (LAB_DESCRIPTIVE, &d, &f, NULL, &factor, NULL), LAB_WIN_NONE);
   assert_true (factor == 0.0);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &d, &none, NULL, NULL, NULL), LAB_WIN_NONE);
   assert_int_equal (lab_results_winner (LAB_BETTER_HIGHER, &none, &f, NULL, NULL, NULL), LAB_WIN_NONE);
}

/* test_winner_one_run -- one run: no sampling-interval floor for a clock reading (the audit's report
 * called 0.252 s vs 0.055 s "not a measured difference" with a 1 s interval), the timer's resolution and
 * the 0.5% floor only; the note says there is no spread */
static void
test_winner_one_run (void **state)
{
   bson_t d;
   bson_error_t e;
   lab_results_noise_t timed;
   lab_stat_t a = lab_results_stat_runs ((double[]){ 0.252 }, NULL, 1),
              b = lab_results_stat_runs ((double[]){ 0.055 }, NULL, 1);
   lab_stat_t c = lab_results_stat_runs ((double[]){ 0.012 }, NULL, 1),
              c2 = lab_results_stat_runs ((double[]){ 0.011 }, NULL, 1);
   lab_stat_t t1 = lab_results_stat_runs ((double[]){ 1e-4 }, NULL, 1),
              t2 = lab_results_stat_runs ((double[]){ 1e-4 + 5e-7 }, NULL, 1);
   lab_verdict_t v;
   char *note;

   (void)state;
   assert_true (bson_init_from_json (&d, "{\"config\": {\"interval_s\": 1.0}}", -1, &e));
   timed = lab_results_noise_of (&d, lab_results_metric_find ("elapsed_s"));
   assert_true (timed.measured && fabs (timed.resolution - 1e-6) < 1e-15);
   v = lab_results_verdict (LAB_BETTER_LOWER, &a, &b, &timed);
   assert_int_equal (v.winner, LAB_WIN_FOLDED);
   assert_true (fabs (v.factor - 0.252 / 0.055) < 1e-9);
   assert_int_equal (v.npairs, 1);
   assert_false (v.has_ci);
   note = lab_results_verdict_note (&v);
   assert_string_equal (note, "1 run: no spread");
   bson_free (note);
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &c, &c2, &timed, NULL, NULL), LAB_WIN_FOLDED);
   /* within the timer's resolution (0.5 us on a 100 us time: 0.5%, but under 1 us) */
   assert_int_equal (lab_results_winner (LAB_BETTER_LOWER, &t1, &t2, &timed, NULL, NULL), LAB_WIN_TIE);
   /* the noise of other figures: a size is a fact, a wait in ms has the timer's resolution too */
   assert_false (lab_results_noise_of (&d, lab_results_metric_find ("storage_size_bytes")).measured);
   assert_true (lab_results_noise_of (&d, lab_results_metric_find ("read_await_ms")).resolution > 0);
   bson_destroy (&d);
}

/* test_winner_paired -- two runs or more: the 95% interval of the ratio over runs paired by number */
static void
test_winner_paired (void **state)
{
   /* the audit's 7 runs of a reproducible 5.0-5.2x */
   double det[7] = { 0.252, 0.260, 0.249, 0.255, 0.251, 0.258, 0.250 };
   double fol[7] = { 0.050, 0.051, 0.049, 0.050, 0.049, 0.050, 0.048 };
   /* the update winner that flipped between runs (detail 1.48x, then folded 1.33x, then even) */
   double ud[3] = { 1.0, 1.33, 1.0 }, uf[3] = { 1.48, 1.0, 1.0 };
   /* exact figures: log ratios 0, 0.1, 0.2 -> mean 0.1, sd 0.1, half 4.303 x 0.1 / sqrt 3 */
   double xa[3] = { 1, 1, 1 }, xb[3] = { 1, 1.10517091807564771, 1.22140275816016983 };
   /* run numbers out of order pair by number, not position */
   double pa[3] = { 10, 20, 30 }, pb[3] = { 15, 5, 10 };
   int pa_no[3] = { 1, 2, 3 }, pb_no[3] = { 3, 1, 2 };
   /* a count with a 0 in a run: the paired differences */
   double za[3] = { 0, 2, 4 }, zb[3] = { 10, 12, 14 };
   lab_stat_t a, b;
   lab_verdict_t v;
   char *note;

   (void)state;
   a = lab_results_stat_runs (det, NULL, 7);
   b = lab_results_stat_runs (fol, NULL, 7);
   v = lab_results_verdict (LAB_BETTER_LOWER, &a, &b, NULL);
   assert_int_equal (v.winner, LAB_WIN_FOLDED);
   assert_true (v.has_ci && v.npairs == 7 && v.hi < 1.0 && v.lo < v.ratio && v.ratio < v.hi);
   assert_true (v.factor > 4.9 && v.factor < 5.3);
   note = lab_results_verdict_note (&v);
   assert_non_null (strstr (note, "95% CI"));
   assert_non_null (strstr (note, "7 runs"));
   bson_free (note);

   a = lab_results_stat_runs (ud, NULL, 3);
   b = lab_results_stat_runs (uf, NULL, 3);
   v = lab_results_verdict (LAB_BETTER_LOWER, &a, &b, NULL);
   assert_int_equal (v.winner, LAB_WIN_TIE);
   assert_int_equal (v.why, LAB_TIE_INTERVAL);
   assert_true (v.lo < 1.0 && v.hi > 1.0);

   a = lab_results_stat_runs (xa, NULL, 3);
   b = lab_results_stat_runs (xb, NULL, 3);
   v = lab_results_verdict (LAB_BETTER_LOWER, &a, &b, NULL);
   assert_true (fabs (v.ratio - exp (0.1)) < 1e-9);
   assert_true (fabs (v.lo - exp (0.1 - 4.303 * 0.1 / sqrt (3.0))) < 1e-9);
   assert_true (fabs (v.hi - exp (0.1 + 4.303 * 0.1 / sqrt (3.0))) < 1e-9);
   assert_int_equal (v.winner, LAB_WIN_TIE);
   /* the same three ratios as a higher-is-better figure: still no winner */
   assert_int_equal (lab_results_verdict (LAB_BETTER_HIGHER, &a, &b, NULL).winner, LAB_WIN_TIE);

   a = lab_results_stat_runs (pa, pa_no, 3);
   b = lab_results_stat_runs (pb, pb_no, 3);
   v = lab_results_verdict (LAB_BETTER_LOWER, &a, &b, NULL);
   /* paired: run 1 10 vs 5, run 2 20 vs 10, run 3 30 vs 15: exactly 0.5 every run */
   assert_true (v.has_ci && fabs (v.ratio - 0.5) < 1e-12 && fabs (v.lo - 0.5) < 1e-12);
   assert_int_equal (v.winner, LAB_WIN_FOLDED);

   a = lab_results_stat_runs (za, NULL, 3);
   b = lab_results_stat_runs (zb, NULL, 3);
   v = lab_results_verdict (LAB_BETTER_LOWER, &a, &b, NULL);
   assert_false (v.has_ci);
   assert_int_equal (v.winner, LAB_WIN_DETAIL); /* +10 every run: an interval of [10, 10] */
   /* identical counts every run: the same */
   v = lab_results_verdict (LAB_BETTER_LOWER, &b, &b, NULL);
   assert_int_equal (v.winner, LAB_WIN_TIE);
   assert_int_equal (v.why, LAB_TIE_CLOSE);
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
   /* the CPU figures keep their object's name: "cores" alone would not say whose */
   lab_results_flat_name ("cpu.process_s", flat, sizeof flat);
   assert_string_equal (flat, "cpu_process_s");
   lab_results_flat_name ("cpu.busy_pct_mean", flat, sizeof flat);
   assert_string_equal (flat, "cpu_busy_pct_mean");
   assert_int_equal (lab_results_metric_find ("cpu_process_s")->better, LAB_BETTER_LOWER);
   assert_int_equal (lab_results_metric_find ("cpu_process_s")->unit, LAB_UNIT_SECONDS);
   assert_int_equal (lab_results_metric_find ("cpu_busy_pct_mean")->better, LAB_DESCRIPTIVE);
   assert_int_equal (lab_results_metric_find ("cpu_busy_pct_mean")->unit, LAB_UNIT_PCT);
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
   const lab_metric_t *cpu = lab_results_metric_find ("cpu_process_s");
   const lab_metric_t *busy = lab_results_metric_find ("cpu_busy_pct_mean");
   lab_stat_t s;
   double v;
   int i;

   (void)state;
   entry (&entries[0],
          "{\"run\": 1, \"layout\": \"detail\", \"order_in_run\": 1, \"elapsed_s\": 10,"
          " \"latency_ms\": {\"count\": 5, \"p99\": 8}, \"cold\": {\"server_pid\": 42,"
          " \"resident_pct_before\": 0.5}, \"rates\": {\"rows_per_s\": 100},"
          " \"cpu\": {\"process_s\": 9, \"cores\": 2, \"busy_pct_mean\": 45, \"busy_pct_peak\": 60}}");
   entry (&entries[1], "{\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": 4}");
   entry (&entries[2], "{\"run\": 2, \"layout\": \"detail\", \"elapsed_s\": 14,"
                       " \"latency_ms\": {\"count\": 5, \"p99\": 6},"
                       " \"cpu\": {\"process_s\": 13, \"cores\": 2, \"busy_pct_mean\": 46.4}}");
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
   /* the CPU figures get medians like the others, under their catalogue names; a layout whose runs
    * lack them (a remote server) has none */
   assert_true (lab_results_get_number (&results, "summary.detail.cpu_cores.median", &v) && v == 2);
   assert_true (lab_results_get_number (&results, "summary.detail.cpu_busy_pct_peak.max", &v) && v == 60);
   s = lab_results_metric_stat (&results, LAB_RESULTS_DETAIL, cpu);
   assert_true (s.present && s.n == 2 && s.median == 11 && s.min == 9 && s.max == 13);
   s = lab_results_metric_stat (&results, LAB_RESULTS_DETAIL, busy);
   assert_true (s.present && s.n == 2 && fabs (s.median - 45.7) < 1e-9);
   s = lab_results_metric_stat (&results, LAB_RESULTS_FOLDED, cpu);
   assert_false (s.present);
   assert_false (lab_results_get_number (&results, "summary.folded.cpu_process_s.median", &v));
   for (i = 0; i < 3; i++) {
      bson_destroy (&entries[i]);
   }
   bson_destroy (&results);
}

static void
test_layouts (void **state)
{
   bson_t v1, v2, bad;
   lab_results_layouts_t ls;

   (void)state;
   /* version 1: detail and folded, the collections from the dataset, detail the reference */
   entry (&v1, "{\"schema_version\": 1, \"dataset\": {\"detail\": {\"collection\": \"bd\"}}}");
   lab_results_layouts (&v1, &ls);
   assert_int_equal (ls.n, 2);
   assert_string_equal (ls.l[0].name, "detail");
   assert_string_equal (ls.l[0].kind, "rows");
   assert_string_equal (ls.l[0].collection, "bd");
   assert_string_equal (ls.l[1].kind, "folded");
   assert_null (ls.l[1].collection);
   assert_int_equal (ls.reference, 0);
   /* version 2: the order given; the reference named, else the first of kind rows */
   entry (&v2,
          "{\"schema_version\": 2, \"layouts\": [{\"name\": \"f\", \"collection\": \"fc\", \"kind\": "
          "\"folded\"}, {\"name\": \"b\", \"collection\": \"bc\", \"kind\": \"buckets\"}, {\"name\": \"r\", "
          "\"collection\": \"rc\", \"kind\": \"rows\"}]}");
   lab_results_layouts (&v2, &ls);
   assert_int_equal (ls.n, 3);
   assert_string_equal (ls.l[1].name, "b");
   assert_string_equal (ls.l[1].collection, "bc");
   assert_int_equal (ls.reference, 2);
   assert_int_equal (lab_results_layout_find (&ls, "b"), 1);
   assert_int_equal (lab_results_layout_find (&ls, "x"), -1);
   assert_int_equal (lab_results_layout_find (&ls, NULL), -1);
   BSON_APPEND_UTF8 (&v2, LAB_RESULTS_KEY_REFERENCE_LAYOUT, "b");
   lab_results_layouts (&v2, &ls);
   assert_int_equal (ls.reference, 1);
   /* a repeated name counts once, a nameless entry not at all, no kind is rows */
   entry (&bad,
          "{\"layouts\": [{\"name\": \"a\"}, {\"kind\": \"rows\"}, {\"name\": \"a\"}, {\"name\": \"c\", "
          "\"kind\": \"folded\"}]}");
   lab_results_layouts (&bad, &ls);
   assert_int_equal (ls.n, 2);
   assert_string_equal (ls.l[0].kind, "rows");
   assert_string_equal (ls.l[1].name, "c");
   /* the writer's list reads back */
   {
      bson_t w = BSON_INITIALIZER;
      lab_results_layouts_t back;
      lab_results_layouts (&v2, &ls);
      lab_results_layouts_append (&w, &ls);
      lab_results_layouts (&w, &back);
      assert_int_equal (back.n, 3);
      assert_int_equal (back.reference, 1);
      assert_string_equal (back.l[2].collection, "rc");
      bson_destroy (&w);
   }
   bson_destroy (&v1);
   bson_destroy (&v2);
   bson_destroy (&bad);
}

/* The file behind the layouts nrow_of returns: *ls is a view into it (lab_results_layouts), so it lives
 * until the next nrow_of or nrow_done. */
static bson_t nrow_doc;
static bool nrow_have;

/* nrow_done -- free the last nrow_of's file. */
static void
nrow_done (void)
{
   if (nrow_have) {
      bson_destroy (&nrow_doc);
      nrow_have = false;
   }
}

/* nrow_of -- the row of metric `name` in a three-layout file of medians a, b, c (a the reference). */
static lab_results_nrow_t
nrow_of (const char *name, double a, double b, double c, lab_results_layouts_t *ls)
{
   bson_t *d = &nrow_doc;
   lab_results_nrow_t row;
   char *json = bson_strdup_printf (
      "{\"layouts\": [{\"name\": \"a\", \"kind\": \"rows\"}, {\"name\": \"b\", \"kind\": \"folded\"}, "
      "{\"name\": \"c\", \"kind\": \"buckets\"}], \"summary\": {\"a\": {\"runs\": 1, \"%s\": {\"median\": "
      "%g}}, "
      "\"b\": {\"runs\": 1, \"%s\": {\"median\": %g}}, \"c\": {\"runs\": 1, \"%s\": {\"median\": %g}}}}",
      name, a, name, b, name, c);

   nrow_done ();
   entry (d, json);
   nrow_have = true;
   lab_results_layouts (d, ls);
   assert_true (lab_results_nrow (d, ls, lab_results_metric_find (name), &row));
   bson_free (json);
   return row;
}

static void
test_nrow (void **state)
{
   lab_results_layouts_t ls;
   lab_results_nrow_t row;
   lab_results_ncells_t c;

   (void)state;
   /* a single best: its advantage over the runner-up, ratios against the reference */
   row = nrow_of ("elapsed_s", 100, 40, 50, &ls);
   assert_int_equal (row.winner, LAB_WIN_ONE);
   assert_int_equal (row.best, 1);
   assert_float_equal (row.factor, 1.25, 1e-12);
   assert_true (row.has_ratio[1] && row.has_ratio[2]);
   assert_float_equal (row.ratio[2], 0.5, 1e-12);
   lab_results_nrow_cells (&row, &ls, false, &c);
   assert_string_equal (c.better, "b 1.25x");
   assert_string_equal (c.ratio[0], ""); /* the reference has no ratio column */
   assert_string_equal (c.ratio[1], "40%");
   assert_string_equal (c.value[2], "50.0 s");
   lab_results_ncells_cleanup (&c);
   /* higher is better */
   row = nrow_of ("rows_per_s", 4000, 20000, 16000, &ls);
   assert_int_equal (row.best, 1);
   /* the best two within 0.5% (one run): a tie of those, named */
   row = nrow_of ("elapsed_s", 100, 40, 40.15, &ls);
   assert_int_equal (row.winner, LAB_WIN_TIE);
   assert_true (!row.tied[0] && row.tied[1] && row.tied[2]);
   lab_results_nrow_cells (&row, &ls, false, &c);
   assert_string_equal (c.better, "b = c");
   lab_results_ncells_cleanup (&c);
   /* all within 0.5%: same */
   row = nrow_of ("elapsed_s", 40.1, 40, 40.15, &ls);
   lab_results_nrow_cells (&row, &ls, false, &c);
   assert_string_equal (c.better, "same");
   lab_results_ncells_cleanup (&c);
   /* descriptive: no winner */
   row = nrow_of ("docs", 100, 1, 3, &ls);
   assert_int_equal (row.winner, LAB_WIN_NONE);
   /* a reference of 0: no ratios */
   row = nrow_of ("read_requests", 0, 5, 6, &ls);
   assert_false (row.has_ratio[1]);
   assert_int_equal (row.best, 0);
   nrow_done ();
}

/* test_nrow_pair -- with two layouts the N-layout row says what the pairwise rule says. */
static void
test_nrow_pair (void **state)
{
   static const double pairs[][2] = { { 93.2, 41.3 }, { 41.3, 93.2 }, { 10, 10.1 }, { 0, 0 }, { 5, 0 } };
   const lab_metric_t *el = lab_results_metric_find ("elapsed_s");
   size_t i;

   (void)state;
   for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
      bson_t d;
      lab_results_layouts_t ls;
      lab_results_nrow_t row;
      lab_stat_t a = { true, 1, pairs[i][0], pairs[i][0], pairs[i][0] };
      lab_stat_t b = { true, 1, pairs[i][1], pairs[i][1], pairs[i][1] };
      double factor;
      lab_winner_t w = lab_results_winner (el->better, &a, &b, NULL, &factor, NULL);
      char *json =
         bson_strdup_printf ("{\"summary\": {\"detail\": {\"runs\": 1, \"elapsed_s\": {\"median\": %g}}, "
                             "\"folded\": {\"runs\": 1, \"elapsed_s\": {\"median\": %g}}}}",
                             pairs[i][0], pairs[i][1]);
      entry (&d, json);
      lab_results_layouts (&d, &ls);
      assert_true (lab_results_nrow (&d, &ls, el, &row));
      if (w == LAB_WIN_TIE) {
         assert_int_equal (row.winner, LAB_WIN_TIE);
      } else {
         assert_int_equal (row.winner, LAB_WIN_ONE);
         assert_int_equal (row.best, w == LAB_WIN_DETAIL ? 0 : 1);
         assert_float_equal (row.factor, factor, 1e-12);
      }
      bson_destroy (&d);
      bson_free (json);
   }
}

/* test_summary_three -- the summary has every layout of the entries, in order of first appearance. */
static void
test_summary_three (void **state)
{
   bson_t entries[4], results = BSON_INITIALIZER;
   bson_iter_t it, sum;
   const char *want[] = { "b", "c", "a" };
   double v;
   int i = 0;

   (void)state;
   entry (&entries[0], "{\"run\": 1, \"layout\": \"b\", \"elapsed_s\": 1}");
   entry (&entries[1], "{\"run\": 1, \"layout\": \"c\", \"elapsed_s\": 2}");
   entry (&entries[2], "{\"run\": 1, \"layout\": \"a\", \"elapsed_s\": 3}");
   entry (&entries[3], "{\"run\": 2, \"layout\": \"c\", \"elapsed_s\": 4}");
   lab_results_summary_append (&results, entries, 4);
   assert_true (bson_iter_init_find (&it, &results, "summary") && bson_iter_recurse (&it, &sum));
   while (bson_iter_next (&sum)) {
      assert_true (i < 3);
      assert_string_equal (bson_iter_key (&sum), want[i++]);
   }
   assert_int_equal (i, 3);
   assert_true (lab_results_get_number (&results, "summary.c.runs", &v) && v == 2);
   assert_true (lab_results_get_number (&results, "summary.c.elapsed_s.median", &v) && v == 3);
   for (i = 0; i < 4; i++) {
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

/* test_row_cells -- the two-layout row is the N-layout row with n = 2 (detail the reference, folded). */
static void
test_row_cells (void **state)
{
   bson_t *r;
   bson_error_t e;
   lab_results_layouts_t ls;
   lab_results_nrow_t row;
   lab_results_ncells_t c;

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
   lab_results_layouts (r, &ls);
   assert_int_equal (ls.n, 2);
   assert_string_equal (ls.l[0].name, "detail");
   assert_string_equal (ls.l[1].name, "folded");
   assert_int_equal (ls.reference, 0);
   assert_true (lab_results_nrow (r, &ls, lab_results_metric_find ("elapsed_s"), &row));
   lab_results_nrow_cells (&row, &ls, true, &c);
   assert_int_equal (c.n, 2);
   assert_string_equal (c.value[0], "10.0 s (9.0–12.0)");
   assert_string_equal (c.value[1], "0.00 s");
   assert_string_equal (c.ratio[0], ""); /* the reference */
   assert_string_equal (c.ratio[1], "0.0%");
   assert_string_equal (c.better, "folded"); /* a winner without a factor against zero */
   lab_results_ncells_cleanup (&c);
   lab_results_nrow_cells (&row, &ls, false, &c);
   assert_string_equal (c.value[0], "10.0 s");
   lab_results_ncells_cleanup (&c);
   /* a rate: descriptive, no winner */
   assert_true (lab_results_nrow (r, &ls, lab_results_metric_find ("read_requests_per_s_peak"), &row));
   lab_results_nrow_cells (&row, &ls, true, &c);
   assert_string_equal (c.ratio[1], "33%");
   assert_string_equal (c.better, "");
   lab_results_ncells_cleanup (&c);
   /* a dataset figure: one value each, descriptive */
   assert_true (lab_results_nrow (r, &ls, lab_results_metric_find ("count"), &row));
   lab_results_nrow_cells (&row, &ls, true, &c);
   assert_string_equal (c.value[0], "520,000");
   assert_string_equal (c.ratio[1], "0.8%");
   assert_string_equal (c.better, "");
   lab_results_ncells_cleanup (&c);
   /* a figure neither layout has: no row */
   assert_false (lab_results_nrow (r, &ls, lab_results_metric_find ("read_bytes"), &row));
   lab_results_ncells_cleanup (&c); /* safe on a cleaned struct */
   bson_destroy (r);
}

static void
test_speedup_amplification_ratio (void **state)
{
   lab_stat_t d = one (166.5), f = one (1.94), zero = one (0);
   double v = -1;

   (void)state;
   assert_true (lab_results_speedup (&d, &f, &v));
   assert_true (fabs (v - 166.5 / 1.94) < 1e-9);
   v = -1;
   assert_false (lab_results_speedup (&d, &zero, &v)); /* folded 0: no speedup */
   assert_false (lab_results_speedup (&none, &f, &v));
   assert_false (lab_results_speedup (&d, &none, &v));
   assert_true (v == -1);
   assert_true (lab_results_read_amplification (61.8e9, 659562496, &v));
   assert_true (fabs (v - 61.8e9 / 659562496) < 1e-9);
   assert_true (lab_results_read_amplification (0, 1000, &v) && v == 0);
   assert_false (lab_results_read_amplification (1000, 0, &v));
   assert_false (lab_results_read_amplification (-1, 1000, &v));
   assert_true (lab_results_cache_ratio_of (268435456, 659562496, &v));
   assert_true (fabs (v - 0.40699) < 1e-4);
   assert_false (lab_results_cache_ratio_of (0, 659562496, &v));
   assert_false (lab_results_cache_ratio_of (268435456, 0, &v));
   assert_string_equal (lab_results_regime (1.0), LAB_RESULTS_REGIME_FITS);
   assert_string_equal (lab_results_regime (3.2), "fits in cache");
   assert_string_equal (lab_results_regime (0.999), "rereads");
   {
      /* a measured point: its read amplification decides, whatever the ratio */
      lab_sweep_point_t p;
      memset (&p, 0, sizeof p);
      p.cache_ratio = 1.5;
      p.read_amplification[0] = 10.9; /* the 5 M-row run at ratio 1.5: still rereads */
      assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_REREADS);
      p.read_amplification[0] = 0.99;
      assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_FITS);
      p.cache_ratio = 0.5;
      p.read_amplification[0] = LAB_RESULTS_FITS_MAX_AMPLIFICATION;
      assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_FITS);
      p.read_amplification[0] = 0; /* unknown: the ratio */
      assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_REREADS);
      p.cache_ratio = 0;
      assert_string_equal (lab_results_point_regime (&p), "unknown");
   }
}

static void
test_point_regime_buffered (void **state)
{
   lab_sweep_point_t p;

   (void)state;
   memset (&p, 0, sizeof p);
   p.cache_ratio = 1.6;
   p.has_amplification[0] = true;
   p.has_disk_amplification[0] = true;
   /* buffered (mongod's way): the engine rereads 6.1x, the disk read each byte about once */
   p.buffered_io = true;
   p.read_amplification[0] = 6.1;
   p.disk_read_amplification[0] = 1.02;
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_MEMORY);
   assert_string_equal (lab_results_point_regime (&p), "fits in memory");
   p.disk_read_amplification[0] = LAB_RESULTS_FITS_MAX_AMPLIFICATION; /* the bound is inclusive */
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_MEMORY);
   p.disk_read_amplification[0] = 0; /* the page cache held it all before the run */
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_MEMORY);
   /* buffered, and the disk paid for the rereads too */
   p.disk_read_amplification[0] = 5.9;
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_REREADS);
   /* buffered, the engine read each page about once: the disk figure does not matter */
   p.read_amplification[0] = 1.3;
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_FITS);
   p.disk_read_amplification[0] = 1.0;
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_FITS);
   /* buffered without a disk figure (no disk source): the engine's figure alone, as before */
   p.read_amplification[0] = 6.1;
   p.has_disk_amplification[0] = false;
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_REREADS);
   /* only the reference (detail) layout's disk figure counts */
   p.has_disk_amplification[1] = true;
   p.disk_read_amplification[1] = 1.0;
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_REREADS);
   /* --direct-io (or a file that does not say): nothing changes, the disk figure is never consulted */
   p.has_disk_amplification[0] = true;
   p.disk_read_amplification[0] = 1.02;
   p.buffered_io = false;
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_REREADS);
   p.read_amplification[0] = 1.3;
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_FITS);
   /* no engine figure: the ratio, whatever the disk read */
   p.buffered_io = true;
   p.read_amplification[0] = 0;
   p.has_amplification[0] = false;
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_FITS);
   p.cache_ratio = 0.5;
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_REREADS);
}

static void
test_cache_ratio_single_point (void **state)
{
   bson_t *r;
   bson_error_t e;
   double v;

   (void)state;
   /* stored wins */
   r = bson_new_from_json ((const uint8_t *)"{\"config\": {\"cache_ratio\": 0.5, \"cache_size_bytes\": 100},"
                                            " \"dataset\": {\"detail\": {\"storage_size_bytes\": 150,"
                                            " \"index_size_bytes\": 50}}}",
                           -1, &e);
   assert_true (lab_results_cache_ratio (r, &v) && v == 0.5);
   bson_destroy (r);
   /* computed: the engine's own maximum before the configured size; data + indexes */
   r = bson_new_from_json ((const uint8_t *)"{\"backend\": {\"cache_max_bytes\": 300},"
                                            " \"config\": {\"cache_size_bytes\": 100},"
                                            " \"dataset\": {\"detail\": {\"storage_size_bytes\": 150,"
                                            " \"index_size_bytes\": 50}}}",
                           -1, &e);
   assert_true (lab_results_cache_ratio (r, &v) && v == 1.5);
   assert_true (lab_results_on_disk_bytes (r, LAB_RESULTS_DETAIL, &v) && v == 200);
   assert_false (lab_results_on_disk_bytes (r, LAB_RESULTS_FOLDED, &v));
   bson_destroy (r);
   /* no index size: the on-disk size is unknown, so is the ratio */
   r = bson_new_from_json ((const uint8_t *)"{\"config\": {\"cache_size_bytes\": 100},"
                                            " \"dataset\": {\"detail\": {\"storage_size_bytes\": 150}}}",
                           -1, &e);
   assert_false (lab_results_cache_ratio (r, &v));
   bson_destroy (r);
}

static void
test_estimate_speedup (void **state)
{
   const double ratio[] = { 0.407, 0.814, 3.256 }, speedup[] = { 85.8, 33.8, 9.15 };
   lab_estimate_t e;
   double t;

   (void)state;
   /* between two points: linear in ln(ratio) */
   e = lab_results_estimate_speedup (ratio, speedup, 3, 0.5);
   assert_int_equal (e.status, LAB_ESTIMATE_INTERPOLATED);
   assert_true (e.lo == 0 && e.hi == 1);
   t = log (0.5 / 0.407) / log (0.814 / 0.407);
   assert_true (fabs (e.speedup - (85.8 + (33.8 - 85.8) * t)) < 1e-9);
   assert_true (fabs (e.speedup - 70.37) < 0.01);
   /* the geometric mean of two ratios lies half way on a log scale */
   e = lab_results_estimate_speedup (ratio, speedup, 3, sqrt (0.814 * 3.256));
   assert_int_equal (e.status, LAB_ESTIMATE_INTERPOLATED);
   assert_true (e.lo == 1 && e.hi == 2);
   assert_true (fabs (e.speedup - (33.8 + 9.15) / 2) < 1e-9);
   /* a measured ratio, including both ends: that point */
   e = lab_results_estimate_speedup (ratio, speedup, 3, 0.814);
   assert_int_equal (e.status, LAB_ESTIMATE_MEASURED);
   assert_true (e.lo == 1 && e.hi == 1 && e.speedup == 33.8);
   e = lab_results_estimate_speedup (ratio, speedup, 3, 0.407);
   assert_int_equal (e.status, LAB_ESTIMATE_MEASURED);
   e = lab_results_estimate_speedup (ratio, speedup, 3, 3.256);
   assert_true (e.status == LAB_ESTIMATE_MEASURED && e.speedup == 9.15);
   /* outside: no estimate, never extrapolated; the range is reported */
   e = lab_results_estimate_speedup (ratio, speedup, 3, 0.1);
   assert_int_equal (e.status, LAB_ESTIMATE_OUTSIDE);
   assert_true (e.range_lo == 0.407 && e.range_hi == 3.256);
   e = lab_results_estimate_speedup (ratio, speedup, 3, 0.4069);
   assert_int_equal (e.status, LAB_ESTIMATE_OUTSIDE);
   e = lab_results_estimate_speedup (ratio, speedup, 3, 4);
   assert_int_equal (e.status, LAB_ESTIMATE_OUTSIDE);
   /* too few points for a curve */
   e = lab_results_estimate_speedup (ratio, speedup, 1, 0.5);
   assert_int_equal (e.status, LAB_ESTIMATE_TOO_FEW);
   e = lab_results_estimate_speedup (ratio, speedup, 1, 0.407); /* but a single measured point is one */
   assert_int_equal (e.status, LAB_ESTIMATE_MEASURED);
   e = lab_results_estimate_speedup (NULL, NULL, 0, 0.5);
   assert_int_equal (e.status, LAB_ESTIMATE_TOO_FEW);
}

static void
test_sweep_reference_of (void **state)
{
   const double r3[] = { 0.407, 0.814, 3.256 }, tie[] = { 0.5, 2.0 }, big[] = { 2, 4 },
                one_at[] = { 0.5, 1, 2 };

   (void)state;
   assert_int_equal (lab_results_sweep_reference_of (r3, 3), 1);
   assert_int_equal (lab_results_sweep_reference_of (tie, 2), 1); /* |ln 0.5| == |ln 2|: the larger cache */
   assert_int_equal (lab_results_sweep_reference_of (big, 2), 0);
   assert_int_equal (lab_results_sweep_reference_of (one_at, 3), 1);
   assert_int_equal (lab_results_sweep_reference_of (NULL, 0), 0);
}

#define PT_RUNS                                                                                              \
   "\"runs\": [{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": 20, \"engine\": {\"block_read_bytes\": "  \
   "4000}},"                                                                                                 \
   " {\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": 2, \"engine\": {\"block_read_bytes\": 300}}]"
#define SWEEP_DATASET                                                                                        \
   "\"dataset\": {\"detail\": {\"storage_size_bytes\": 800, \"index_size_bytes\": 200},"                     \
   " \"folded\": {\"storage_size_bytes\": 290, \"index_size_bytes\": 10}}"

/* check_fails -- lab_results_sweep_check must refuse `json` with a message containing `needle`. */
static void
check_fails (const char *json, const char *needle)
{
   bson_error_t e = { 0 };
   bson_t *r = bson_new_from_json ((const uint8_t *)json, -1, &e);

   if (!r) {
      fail_msg ("bad test JSON: %s", e.message);
   }
   if (lab_results_sweep_check (r, &e)) {
      fail_msg ("accepted: %s", json);
   }
   if (!strstr (e.message, needle)) {
      fail_msg ("error '%s' lacks '%s'", e.message, needle);
   }
   if (!lab_error_is (&e, LAB_ERROR_IO, EINVAL)) { /* not a sweep results document */
      fail_msg ("'%s': domain %u code %u, want IO EINVAL", e.message, e.domain, e.code);
   }
   bson_destroy (r);
}

static void
test_sweep_check (void **state)
{
   bson_error_t e;
   bson_t *r;

   (void)state;
   r = bson_new_from_json ((const uint8_t *)"{" SWEEP_DATASET ", \"sweep\": ["
                                            "{\"cache_size_bytes\": 500, " PT_RUNS "},"
                                            "{\"cache_size_bytes\": 2000, \"cache_ratio\": 2, " PT_RUNS "}]}",
                           -1, &e);
   assert_true (lab_results_sweep_check (r, &e));
   bson_destroy (r);
   r = bson_new_from_json ((const uint8_t *)"{\"runs\": []}", -1, &e); /* single point: nothing to check */
   assert_true (lab_results_sweep_check (r, &e));
   bson_destroy (r);
   check_fails ("{" SWEEP_DATASET ", \"sweep\": [{\"cache_size_bytes\": 2000, " PT_RUNS "},"
                " {\"cache_size_bytes\": 500, " PT_RUNS "}]}",
                "sweep[1] (500 B): a smaller cache than sweep[0] (1.95 KiB): points must be in strictly "
                "increasing cache size");
   check_fails ("{" SWEEP_DATASET ", \"sweep\": [{\"cache_size_bytes\": 268435456, " PT_RUNS "},"
                " {\"cache_size_bytes\": 268435456, " PT_RUNS "}]}",
                "sweep[1] (256 MiB): the same cache size as sweep[0] (256 MiB): one point per cache size");
   check_fails (
      "{" SWEEP_DATASET ", \"sweep\": [{\"cache_size_bytes\": 500, " PT_RUNS "},"
      " {\"cache_size_bytes\": 2048, \"runs\": [{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": 1}]}]}",
      "sweep[1] (2 KiB): runs[] has 1 detail and 0 folded entries; every point needs both layouts");
   check_fails ("{" SWEEP_DATASET ", \"sweep\": [{\"cache_size_bytes\": 500}]}",
                "sweep[0] (500 B): runs[] has 0 detail and 0 folded entries");
   check_fails ("{" SWEEP_DATASET ", \"sweep\": [{" PT_RUNS "}]}",
                "sweep[0]: missing or non-positive \"cache_size_bytes\"");
   check_fails ("{" SWEEP_DATASET ", \"sweep\": [{\"cache_size_bytes\": 0, " PT_RUNS "}]}",
                "non-positive \"cache_size_bytes\"");
   check_fails ("{\"sweep\": [{\"cache_size_bytes\": 500, " PT_RUNS "}]}",
                "no \"cache_ratio\" and no dataset.detail storage and index sizes");
   check_fails ("{" SWEEP_DATASET ", \"sweep\": [{\"cache_size_bytes\": 500, \"cache_ratio\": 0.9, " PT_RUNS
                "}, {\"cache_size_bytes\": 600, \"cache_ratio\": 0.8, " PT_RUNS "}]}",
                "must be positive and larger than the previous point's");
   check_fails ("{\"sweep\": []}", "\"sweep\" has no points");
   check_fails ("{\"sweep\": {}}", "\"sweep\" is not an array");
   check_fails ("{\"sweep\": [3]}", "sweep[0] is not an object");
   check_fails ("{" SWEEP_DATASET ", \"sweep_reference\": 1, \"sweep\": [{\"cache_size_bytes\": 500, " PT_RUNS
                "}]}",
                "\"sweep_reference\" must be the index of a point (0 to 0)");
}

static void
test_sweep_point (void **state)
{
   bson_t *r;
   bson_error_t e;
   lab_sweep_point_t p;

   (void)state;
   r =
      bson_new_from_json ((const uint8_t *)"{" SWEEP_DATASET ", \"sweep\": ["
                                           "{\"cache_size_bytes\": 500, " PT_RUNS "},"
                                           "{\"cache_size_bytes\": 2000, \"cache_ratio\": 2.1, " PT_RUNS ","
                                           " \"detail\": {\"read_amplification\": 7.5, \"locality\": "
                                           "{\"pages_per_master_mean\": 118.4, \"pages_per_master_p95\": 171,"
                                           " \"masters_sampled\": 1000, \"method\": \"record_ids\"}}}]}",
                          -1, &e);
   assert_non_null (r);
   assert_int_equal (lab_results_sweep_n (r), 2);
   /* point 0: ratio and amplification computed (data + indexes; block bytes over on-disk size) */
   assert_true (lab_results_sweep_point (r, 0, &p));
   assert_true (p.cache_size_bytes == 500 && p.cache_ratio == 0.5);
   assert_true (p.has_speedup && p.speedup == 10);
   assert_true (p.elapsed[0].median == 20 && p.elapsed[1].median == 2);
   assert_true (p.has_amplification[0] && p.read_amplification[0] == 4);
   assert_true (p.has_amplification[1] && p.read_amplification[1] == 1);
   assert_false (p.locality[0].present);
   /* point 1: stored values win */
   assert_true (lab_results_sweep_point (r, 1, &p));
   assert_true (p.cache_ratio == 2.1 && p.read_amplification[0] == 7.5 && p.read_amplification[1] == 1);
   assert_true (p.locality[0].present && p.locality[0].pages_per_master_mean == 118.4 &&
                p.locality[0].pages_per_master_p95 == 171 && p.locality[0].masters_sampled == 1000);
   assert_string_equal (p.locality[0].method, "record_ids");
   assert_false (p.locality[1].present);
   assert_false (lab_results_sweep_point (r, 2, &p));
   /* no sweep_reference: the point nearest ratio 1 on a log scale (|ln 0.5| = 0.69 < |ln 2.1| = 0.74) */
   assert_int_equal (lab_results_sweep_reference (r), 0);
   bson_destroy (r);
   r = bson_new_from_json ((const uint8_t *)"{\"sweep_reference\": 1, " SWEEP_DATASET ", \"sweep\": ["
                                            "{\"cache_size_bytes\": 500, " PT_RUNS "},"
                                            "{\"cache_size_bytes\": 2000, " PT_RUNS "}]}",
                           -1, &e);
   assert_int_equal (lab_results_sweep_reference (r), 1); /* named in the file (the rule would say 0) */
   bson_destroy (r);
   r = bson_new_from_json ((const uint8_t *)"{\"runs\": []}", -1, &e);
   assert_int_equal (lab_results_sweep_n (r), 0);
   assert_false (lab_results_sweep_point (r, 0, &p));
   bson_destroy (r);
}

/* Runs with the device's bytes read (read_bytes) as well as the engine's. */
#define PT_RUNS_DISK                                                                                         \
   "\"runs\": [{\"run\": 1, \"layout\": \"detail\", \"elapsed_s\": 20, \"read_bytes\": 1020, "               \
   "\"engine\": {\"block_read_bytes\": 6100}},"                                                              \
   " {\"run\": 1, \"layout\": \"folded\", \"elapsed_s\": 2, \"read_bytes\": 330, \"engine\": "               \
   "{\"block_read_bytes\": 300}}]"

static void
test_sweep_point_disk (void **state)
{
   bson_t *r;
   bson_error_t e;
   lab_sweep_point_t p;

   (void)state;
   /* buffered: disk amplification computed from read_bytes, or stored; the regime follows */
   r = bson_new_from_json (
      (const uint8_t *)"{\"config\": {\"direct_io\": false, \"cache_size_bytes\": 1600}, " SWEEP_DATASET
                       ", " PT_RUNS_DISK ", \"sweep\": ["
                       "{\"cache_size_bytes\": 500, " PT_RUNS "},"
                       "{\"cache_size_bytes\": 1600, " PT_RUNS_DISK "},"
                       "{\"cache_size_bytes\": 2000, " PT_RUNS_DISK ", \"detail\": "
                       "{\"disk_read_amplification\": 6.5}}]}",
      -1, &e);
   assert_non_null (r);
   assert_true (lab_results_sweep_point (r, 0, &p));
   assert_true (p.buffered_io);
   assert_false (p.has_disk_amplification[0] || p.has_disk_amplification[1]); /* no read_bytes */
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_REREADS);
   assert_true (lab_results_sweep_point (r, 1, &p));
   assert_true (p.has_amplification[0] && fabs (p.read_amplification[0] - 6.1) < 1e-12);
   assert_true (p.has_disk_amplification[0] && fabs (p.disk_read_amplification[0] - 1.02) < 1e-12);
   assert_true (p.has_disk_amplification[1] && fabs (p.disk_read_amplification[1] - 1.1) < 1e-12);
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_MEMORY);
   assert_true (lab_results_sweep_point (r, 2, &p));
   assert_true (p.disk_read_amplification[0] == 6.5); /* stored wins */
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_REREADS);
   /* the top level as a point: the single-point path */
   lab_results_top_point (r, &p);
   assert_true (p.buffered_io && p.cache_size_bytes == 1600 && p.cache_ratio == 1.6);
   assert_true (p.has_disk_amplification[0] && fabs (p.disk_read_amplification[0] - 1.02) < 1e-12);
   assert_true (p.has_speedup && p.speedup == 10);
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_MEMORY);
   bson_destroy (r);
   /* direct_io true, or not said: the same figures, the engine's regime */
   r = bson_new_from_json (
      (const uint8_t *)"{\"config\": {\"direct_io\": true}, " SWEEP_DATASET ", " PT_RUNS_DISK "}", -1, &e);
   assert_non_null (r);
   lab_results_top_point (r, &p);
   assert_false (p.buffered_io);
   assert_true (p.has_disk_amplification[0] && p.cache_ratio == 0 && p.cache_size_bytes == 0);
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_REREADS);
   bson_destroy (r);
   r = bson_new_from_json ((const uint8_t *)"{" SWEEP_DATASET ", " PT_RUNS_DISK "}", -1, &e);
   assert_non_null (r);
   lab_results_top_point (r, &p);
   assert_false (p.buffered_io);
   assert_string_equal (lab_results_point_regime (&p), LAB_RESULTS_REGIME_REREADS);
   bson_destroy (r);
}

static void
test_format_binary (void **state)
{
   (void)state;
   expect_str (lab_results_format_binary (268435456), "256 MiB");
   expect_str (lab_results_format_binary (2147483648.0), "2 GiB");
   expect_str (lab_results_format_binary (1.5 * 1073741824), "1.5 GiB");
   expect_str (lab_results_format_binary (64 * 1024), "64 KiB");
   expect_str (lab_results_format_binary (512), "512 B");
   expect_str (lab_results_format_binary (1000 * 1048576.0), "1000 MiB");
   expect_str (lab_results_format_binary (12.25 * 1073741824), "12.2 GiB");
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_stat_of),
      cmocka_unit_test (test_ratio),
      cmocka_unit_test (test_winner_and_tie_rule),
      cmocka_unit_test (test_winner_one_run),
      cmocka_unit_test (test_winner_paired),
      cmocka_unit_test (test_catalogue),
      cmocka_unit_test (test_summary_append),
      cmocka_unit_test (test_layouts),
      cmocka_unit_test (test_nrow),
      cmocka_unit_test (test_nrow_pair),
      cmocka_unit_test (test_summary_three),
      cmocka_unit_test (test_format),
      cmocka_unit_test (test_row_cells),
      cmocka_unit_test (test_speedup_amplification_ratio),
      cmocka_unit_test (test_point_regime_buffered),
      cmocka_unit_test (test_cache_ratio_single_point),
      cmocka_unit_test (test_estimate_speedup),
      cmocka_unit_test (test_sweep_reference_of),
      cmocka_unit_test (test_sweep_check),
      cmocka_unit_test (test_sweep_point),
      cmocka_unit_test (test_sweep_point_disk),
      cmocka_unit_test (test_format_binary),
   };
   return lab_test_run_group ("results", tests, NULL, NULL);
}
