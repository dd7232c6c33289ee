/*
 * test_predict_cost.c -- the pure part of the prediction's load time (scan/predict/predict_cost.h): the
 * combination of hand-made cost figures with a load's work, worked out by hand (each page read's CPU, less
 * fresh memory when read again, at least its decompression, more for a read larger than the probe's
 * pages; the workers' chains of CPU and device waits,
 * a first read of a shared page one worker's at a time; the CPU over min(workers, cores)); one recorded
 * prediction's figures against its measured load's CPU; the line fit of the CPU sample; the share of pages
 * several workers touch, in key order and in the shuffle's order; and the random order's trace.
 */
#include "tests/testutil.h"

#include "scan/predict/predict_private.h"

#include <math.h>

/* figures -- hand-made cost figures: 4 workers on 2 cores, a page read 0.1 ms of CPU and 0.1 ms of wait. */
static lab_scan_predict_cost_t
figures (void)
{
   lab_scan_predict_cost_t c;

   memset (&c, 0, sizeof c);
   c.done = true;
   c.parallel = 4;
   c.cores = 2;
   c.first_read_s = 1e-3;
   c.read_cpu_s = 1e-4;
   c.read_s = 1e-4;
   c.lookup_s = 1e-6;
   c.doc_s = 2e-6;
   c.row_s[0] = 1e-7;
   c.row_s[1] = 2e-7;
   return c;
}

/* near -- a and b within a relative 1e-12. */
static bool
near (double a, double b)
{
   return fabs (a - b) <= 1e-12 * fmax (fabs (a), fabs (b)) + 1e-15;
}

/* test_seconds -- each term of the combination, by hand. */
static void
test_seconds (void **state)
{
   lab_scan_predict_cost_t c = figures ();
   lab_scan_predict_work_t w;
   double dev, cpu, s, rest = 10 * 1e-6 + 500 * 2e-6 + 500 * 1e-7;

   (void)state;
   memset (&w, 0, sizeof w);
   w.misses = 1000;
   w.first = 100;
   w.keys = 10;
   w.docs = 500;
   w.rows = 500;
   w.bytes = 1000;
   /* CPU: 1000 page reads x 0.1 ms + the rest; waits: 1000 x 0.1 ms; the chain: 100 first reads x 0.2 ms
    * shared out over the 4 workers, then the other CPU and waits over them: below the CPU over 2 cores */
   s = lab_scan_predict_cost_seconds (&c, &w, &dev, &cpu);
   assert_true (near (cpu, 0.1 + rest));
   assert_true (near (dev, 0.1));
   assert_true (near (s, (0.1 + rest) / 2));
   /* a slow device: the chain is longer than the CPU over the cores */
   c.read_s = 1e-3;
   s = lab_scan_predict_cost_seconds (&c, &w, &dev, &cpu);
   assert_true (near (dev, 1.0));
   assert_true (near (s, 100 * 1.1e-3 / 4 + (0.1 + rest - 0.01 + 900 * 1e-3) / 4));
   /* every page shared by the workers: its first reads are one worker's at a time */
   w.shared = 1;
   s = lab_scan_predict_cost_seconds (&c, &w, NULL, NULL);
   assert_true (near (s, 100 * 1.1e-3 + (0.1 + rest - 0.01 + 900 * 1e-3) / 4));
   w.shared = 0;
   c.read_s = 1e-4;
   /* a per-byte wait: 10 KB a read at 10 ns a byte is 0.1 ms more each */
   c.read_byte_s = 1e-8;
   w.read_bytes = 1000 * 10000.0;
   lab_scan_predict_cost_seconds (&c, &w, &dev, NULL);
   assert_true (near (dev, 1000 * 2e-4));
   c.read_byte_s = 0;
   w.read_bytes = 0;
   /* a page read again reuses an evicted page's memory: 400 KB less of fresh memory at 0.1 ns a byte */
   c.fresh_byte_s = 1e-10;
   w.page_mem = 400000;
   lab_scan_predict_cost_seconds (&c, &w, NULL, &cpu);
   assert_true (near (cpu, 100 * 1e-4 + 900 * 6e-5 + rest));
   /* ... but at least its decompression: 1 MB inflated a read at 0.1 ns a byte */
   c.inflate_byte_s = 1e-10;
   w.inflated = 1000 * 1e6;
   lab_scan_predict_cost_seconds (&c, &w, NULL, &cpu);
   assert_true (near (cpu, 1000 * 1e-4 + rest));
   /* a read of 300 KB in memory where the probe's pages held 100 KB: 200 KB more of fresh memory and
    * decompression, 0.2 ns a byte */
   c.read_page_mem = 100000;
   w.page_mem = 0;
   w.inflated = 1000 * 300000.0;
   lab_scan_predict_cost_seconds (&c, &w, NULL, &cpu);
   assert_true (near (cpu, 1000 * (1e-4 + 200000 * 2e-10) + rest));
   c.read_page_mem = 0;
   c.fresh_byte_s = c.inflate_byte_s = 0;
   w.page_mem = w.inflated = 0;
   /* the folded rows' CPU */
   w.layout = 1;
   lab_scan_predict_cost_seconds (&c, &w, NULL, &cpu);
   assert_true (near (cpu, 0.1 + 10 * 1e-6 + 500 * 2e-6 + 500 * 2e-7));
   w.layout = 0;
   /* more cores than workers: the CPU over the workers, and the chain above it */
   c.cores = 8;
   s = lab_scan_predict_cost_seconds (&c, &w, NULL, NULL);
   assert_true (near (s, 100 * 2e-4 / 4 + (0.1 + rest - 0.01 + 900 * 1e-4) / 4));
   c.cores = 2;
   /* --calibrate: the timed sample's page read less its CPU is the wait */
   c.calibrated = true;
   lab_scan_predict_cost_seconds (&c, &w, &dev, NULL);
   assert_true (near (dev, 1000 * 9e-4));
   c.calibrated = false;
   /* no figures, no time */
   c.done = false;
   assert_true (lab_scan_predict_cost_seconds (&c, &w, NULL, NULL) < 0);
}

/* test_recorded -- the figures and the work of one recorded prediction (2,000 bills, billgen's default
 * shape, cache ratio 1, 4 workers on 2 cores), with the measured run's own misses and bytes read: the
 * CPU the model gives each layout against the CPU the measured load took (cpu.process_s: 20.15 s detail,
 * 0.183 s folded), within 25%, and the speedup of the CPU within a factor 1.5 (the load times' were
 * measured on a shared machine: 24.4 s and 0.488 s). */
static void
test_recorded (void **state)
{
   lab_scan_predict_cost_t c;
   lab_scan_predict_work_t d, f;
   double dc, fc, ds, fs;

   (void)state;
   memset (&c, 0, sizeof c);
   c.done = true;
   c.parallel = 4;
   c.cores = 2;
   c.first_read_s = 7.177e-4;
   c.read_cpu_s = 1.5836e-4;
   c.fresh_byte_s = 3.850e-10;
   c.read_s = 7.375e-5;
   c.read_byte_s = 1.3672e-9;
   c.inflate_byte_s = 3.4586e-10;
   c.lookup_s = 1.4919e-6;
   c.doc_s = 8.3963e-7;
   c.copy_byte_s = 3.4251e-11;
   c.row_s[0] = 2.3318e-7;
   c.row_s[1] = 2.0783e-7;
   memset (&d, 0, sizeof d);
   d.layout = 0;
   d.misses = 148945; /* measured: engine.block_reads, block_read_bytes */
   d.read_bytes = 4526329856.0;
   d.first = 1057;
   d.shared = 0.9419;
   d.page_mem = 118592;
   d.inflated = d.read_bytes * 3.592; /* the detail's bytes in memory / on disk */
   d.keys = 2000;
   d.docs = 263661;
   d.rows = 263661;
   d.bytes = 100211404;
   f = d;
   f.layout = 1;
   f.misses = 942;
   f.read_bytes = 27070464;
   f.first = 584;
   f.shared = 0.0051;
   f.page_mem = 111612;
   f.inflated = f.read_bytes * 3.667;
   f.docs = 2000;
   f.bytes = 53398558;
   ds = lab_scan_predict_cost_seconds (&c, &d, NULL, &dc);
   fs = lab_scan_predict_cost_seconds (&c, &f, NULL, &fc);
   print_message ("recorded: CPU detail %.2f s (measured 20.15), folded %.3f s (0.183); speedup %.1f, of the "
                  "CPU %.1f (measured 110.0)\n",
                  dc, fc, ds / fs, dc / fc);
   assert_true (dc > 20.15 / 1.25 && dc < 20.15 * 1.25);
   assert_true (fc > 0.183 / 1.25 && fc < 0.183 * 1.25);
   assert_true (dc / fc > 110.0 / 1.5 && dc / fc < 110.0 * 1.5);
   assert_true (ds > 0 && fs > 0 && ds / fs > 110.0 / 1.5 / 1.5);
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
 * 3), 2 workers; folded documents of 10 + 10 per row bytes one to a page but the last two (a 100-byte page
 * maximum: the last two chunks of a reconciliation merge when they fit one page). */
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
   in->folded_page_max = 100; /* split at 90: the header and one record of 33 bytes (cells included) */
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
      cmocka_unit_test (test_seconds), cmocka_unit_test (test_recorded),     cmocka_unit_test (test_fit),
      cmocka_unit_test (test_shared),  cmocka_unit_test (test_random_trace),
   };
   return lab_test_run_group ("predict_cost", tests, NULL, NULL);
}
