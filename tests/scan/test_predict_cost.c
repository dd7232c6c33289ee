/*
 * test_predict_cost.c -- the pure part of the prediction's load time (scan/predict/predict_cost.h): the
 * combination of hand-made cost figures with a load's work, worked out by hand (first reads shared out over
 * the cores or, on pages the workers share, not; pages read again shared by every worker with the device
 * as their floor; the CPU over min(workers, cores)); the line fit of the CPU sample; the share of pages
 * several workers touch, in key order and in the shuffle's order; and the random order's trace.
 */
#include "tests/testutil.h"

#include "scan/predict/predict_private.h"

#include <math.h>

/* figures -- hand-made cost figures: 4 workers on 2 cores. */
static lab_scan_predict_cost_t
figures (void)
{
   lab_scan_predict_cost_t c;

   memset (&c, 0, sizeof c);
   c.done = true;
   c.parallel = 4;
   c.cores = 2;
   c.first_read_s = 1e-3;
   c.read_s = 1e-4;
   c.lookup_s = 1e-6;
   c.doc_s = 2e-6;
   c.row_s[0] = 1e-7;
   c.row_s[1] = 2e-7;
   return c;
}

/* test_seconds -- each term of the combination, by hand. */
static void
test_seconds (void **state)
{
   lab_scan_predict_cost_t c = figures ();
   lab_scan_predict_work_t w;
   double dev, cpu, s;

   (void)state;
   memset (&w, 0, sizeof w);
   w.misses = 1000;
   w.first = 100;
   w.keys = 10;
   w.docs = 500;
   w.rows = 500;
   w.bytes = 1000;
   /* first reads over 2 cores: 100 x 1 ms / 2; again: 900 x max(1 ms / 4, 0.1 ms); CPU over 2 cores */
   s = lab_scan_predict_cost_seconds (&c, &w, &dev, &cpu);
   assert_true (fabs (dev - (0.05 + 0.225)) < 1e-12);
   assert_true (fabs (cpu - (10 * 1e-6 + 500 * 2e-6 + 500 * 1e-7) / 2) < 1e-12);
   assert_true (fabs (s - dev - cpu) < 1e-12);
   /* every page shared by the workers: its first reads are not shared out */
   w.shared = 1;
   lab_scan_predict_cost_seconds (&c, &w, &dev, NULL);
   assert_true (fabs (dev - (0.1 + 0.225)) < 1e-12);
   /* a page read again reuses an evicted page's memory: 400 KB less of fresh memory at 1 ns a byte */
   c.fresh_byte_s = 1e-9;
   w.page_mem = 400000;
   lab_scan_predict_cost_seconds (&c, &w, &dev, NULL);
   assert_true (fabs (dev - (0.1 + 900 * (1e-3 - 4e-4) / 4)) < 1e-12);
   /* more fresh memory than the first read's time: the device's floor */
   w.page_mem = 4e6;
   lab_scan_predict_cost_seconds (&c, &w, &dev, NULL);
   assert_true (fabs (dev - (0.1 + 900 * 1e-4)) < 1e-12);
   c.fresh_byte_s = 0;
   w.page_mem = 0;
   /* the folded rows' CPU */
   w.layout = 1;
   lab_scan_predict_cost_seconds (&c, &w, NULL, &cpu);
   assert_true (fabs (cpu - (10 * 1e-6 + 500 * 2e-6 + 500 * 2e-7) / 2) < 1e-12);
   /* the device slower than the engine's share: its time is the floor of a page read again */
   c.read_s = 1e-3;
   w.shared = 0;
   lab_scan_predict_cost_seconds (&c, &w, &dev, NULL);
   assert_true (fabs (dev - (0.05 + 0.9)) < 1e-12);
   /* more cores than workers: the CPU over the workers */
   c.cores = 8;
   w.layout = 0;
   lab_scan_predict_cost_seconds (&c, &w, &dev, &cpu);
   assert_true (fabs (cpu - (10 * 1e-6 + 500 * 2e-6 + 500 * 1e-7) / 4) < 1e-12);
   assert_true (fabs (dev - (100 * 1e-3 / 4 + 0.9)) < 1e-12);
   /* no figures, no time */
   c.done = false;
   assert_true (lab_scan_predict_cost_seconds (&c, &w, NULL, NULL) < 0);
}

/* test_fit -- an exact line, and a falling one (noise) that falls back to the mean ratio. */
static void
test_fit (void **state)
{
   double x[3] = { 1, 2, 4 }, y[3] = { 3, 5, 9 }, a, b;

   (void)state;
   lab_scan_predict_cost_fit (x, y, 3, &a, &b);
   assert_true (fabs (a - 1) < 1e-12 && fabs (b - 2) < 1e-12);
   y[0] = 9;
   y[2] = 3;
   lab_scan_predict_cost_fit (x, y, 3, &a, &b);
   assert_true (a == 0 && fabs (b - 17.0 / 7) < 1e-12);
}

static int64_t g_r0[] = { 0, 1 }, g_r1[] = { 2, 3 }, g_r2[] = { 0, 4 }, g_r3[] = { 5 };
static int64_t *g_rids[] = { g_r0, g_r1, g_r2, g_r3 };
static size_t g_nrids[] = { 2, 2, 2, 1 };
static int64_t g_load[] = { 0, 1, 2, 3 };

/* input -- 4 masters, 2 rows a page (page 0: rows of masters 0 and 2; page 1: master 1; page 2: masters 2 and
 * 3), 2 workers; folded documents of 10 + 10 per row bytes in pages of 45. */
static void
input (lab_scan_predict_input_t *in, const int64_t *perm)
{
   memset (in, 0, sizeof *in);
   in->nmasters = 4;
   in->rids = g_rids;
   in->nrids = g_nrids;
   in->load = g_load;
   in->nload = 4;
   in->parallel = 2;
   in->perm = perm;
   in->rows_per_page = 2;
   in->page_cache_bytes = 100;
   in->index_page_cache_bytes = 100;
   in->index_entries_per_page = 1000;
   in->folded_master_bytes = 10;
   in->folded_row_bytes = 10;
   in->folded_page_bytes = 45;
   in->folded_page_cache_bytes = 100;
   in->folded_index_entries_per_page = 1000;
}

/* test_shared -- key order: worker 0 loads masters 0, 1 and worker 1 masters 2, 3: page 0 is both's (1 of 3);
 * the shuffle dealt round-robin (identity: 0, 2 and 1, 3): page 2 is both's; the folded pages one master
 * each: none. */
static void
test_shared (void **state)
{
   static const int64_t perm[] = { 0, 1, 2, 3 };
   lab_scan_predict_input_t in;

   (void)state;
   input (&in, NULL);
   assert_true (fabs (lab_scan_predict_shared (&in, 0) - 1.0 / 3) < 1e-12);
   assert_true (lab_scan_predict_shared (&in, 1) == 0);
   input (&in, perm);
   assert_true (fabs (lab_scan_predict_shared (&in, 0) - 1.0 / 3) < 1e-12);
   /* one worker: nothing shared */
   in.parallel = 1;
   assert_true (lab_scan_predict_shared (&in, 0) == 0);
}

/* test_random_trace -- the shuffle's order changes which worker reads a page first: with one worker and the
 * masters reversed the trace still touches every row once, and a cache of two pages misses more. */
static void
test_random_trace (void **state)
{
   static const int64_t rev[] = { 3, 2, 1, 0 };
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *a, *b;
   double ma, mb;

   (void)state;
   input (&in, NULL);
   in.parallel = 1;
   a = lab_scan_predict_trace_detail (&in);
   in.perm = rev;
   b = lab_scan_predict_trace_detail (&in);
   assert_true (lab_scan_stackdist_accesses (a, LAB_PREDICT_DATA) ==
                lab_scan_stackdist_accesses (b, LAB_PREDICT_DATA));
   /* at two pages, the index page I (one, searched again at each master) in the same LRU: key order
    * I 0 0 I 1 1 I 0 2 I 2 misses data pages 0, 1, 0, 2 (4); reversed I 2 I 0 2 I 1 1 I 0 0 misses 2, 0, 2,
    * 1, 0 (5) */
   ma = lab_scan_stackdist_misses (a, LAB_PREDICT_DATA, 200);
   mb = lab_scan_stackdist_misses (b, LAB_PREDICT_DATA, 200);
   assert_true (ma == 4);
   assert_true (mb == 5);
   assert_true (lab_scan_stackdist_pages (b, LAB_PREDICT_DATA) == 3);
   lab_scan_stackdist_destroy (a);
   lab_scan_stackdist_destroy (b);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_seconds),
      cmocka_unit_test (test_fit),
      cmocka_unit_test (test_shared),
      cmocka_unit_test (test_random_trace),
   };
   return lab_test_run_group ("predict_cost", tests, NULL, NULL);
}
