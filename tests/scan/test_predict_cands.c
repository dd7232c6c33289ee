/*
 * test_predict_cands.c -- the other candidates' traces (scan/predict/predict_cands_trace.c) on hand-made
 * layouts whose misses can be worked out by hand: rows renumbered in key order read the pages once however
 * the rows arrived, with or without a key index to walk (sorted, clustered), a page shared by two masters
 * straddling it; documents of a bucket's rows packed into pages, the same trace as the folded one with no
 * bucket limit, and a master's later buckets counted apart in a sample's trace.
 */
#include "tests/testutil.h"

#include "scan/predict/predict_cands.h"

#include <math.h>

#define MASTERS 4
#define ROWS 10
#define PAGE 100 /* a data page's footprint in the cache */

static int64_t g_rid_store[MASTERS][ROWS];
static int64_t *g_rids[MASTERS];
static size_t g_nrids[MASTERS];
static int64_t g_all[MASTERS] = { 0, 1, 2, 3 };

/* layout -- MASTERS masters of ROWS rows interleaved (row j of master m is RecordId 1 + j*MASTERS + m:
 * the detail trace reads every page for every master), rows_per_page as given. */
static void
layout (lab_scan_predict_input_t *in, double rows_per_page, int parallel)
{
   int m, j;

   memset (in, 0, sizeof *in);
   for (m = 0; m < MASTERS; m++) {
      for (j = 0; j < ROWS; j++) {
         g_rid_store[m][j] = 1 + j * MASTERS + m;
      }
      g_rids[m] = g_rid_store[m];
      g_nrids[m] = ROWS;
   }
   in->nmasters = MASTERS;
   in->rids = g_rids;
   in->nrids = g_nrids;
   in->load = g_all;
   in->nload = MASTERS;
   in->parallel = parallel;
   in->min_rid = 1;
   in->rows_per_page = rows_per_page;
   in->page_cache_bytes = PAGE;
   in->index_entries_per_page = 1e9; /* one index page of one byte */
   in->index_page_cache_bytes = 1;
   in->folded_row_bytes = 10;
   in->folded_master_bytes = 0;
   in->folded_page_bytes = 200;
   in->folded_page_max = 300; /* split at 270: the page header and 230 bytes of records */
   in->folded_page_cache_bytes = PAGE;
   in->folded_index_entries_per_page = 1e9;
}

/* Key order: the interleaved rows renumbered, a master's 10 rows fill one page of 10: 4 pages each read
 * once in a cache of one page, where the detail trace of the same rows reads each master's 4 pages. The key
 * index is searched once per master; a clustered collection walks none. */
static void
test_key_order (void **state)
{
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *sd;

   (void)state;
   layout (&in, ROWS, 1);
   sd = lab_scan_predict_trace_detail (&in);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, PAGE + 2) == MASTERS * 4);
   lab_scan_stackdist_destroy (sd);
   sd = lab_scan_predict_trace_key_order (&in, true);
   assert_true (lab_scan_stackdist_accesses (sd, LAB_PREDICT_DATA) == MASTERS * ROWS);
   assert_true (lab_scan_stackdist_pages (sd, LAB_PREDICT_DATA) == MASTERS);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, PAGE + 2) == MASTERS);
   assert_true (lab_scan_stackdist_accesses (sd, LAB_PREDICT_INDEX) == MASTERS);
   lab_scan_stackdist_destroy (sd);
   sd = lab_scan_predict_trace_key_order (&in, false);
   assert_true (lab_scan_stackdist_accesses (sd, LAB_PREDICT_INDEX) == 0);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, PAGE + 1) == MASTERS);
   lab_scan_stackdist_destroy (sd);
}

/* Key order, 4 rows per page: 40 rows on 10 pages, masters straddling pages (master 1's rows 10-19 on
 * pages 2-4). One worker reads each page once in a cache of one page; four workers in step (one master
 * each, pages 0, 2, 5, 7 first) need the 10 pages, and in a cache of two pages reread the shared ones. */
static void
test_key_order_straddle (void **state)
{
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *sd;

   (void)state;
   layout (&in, 4, 1);
   sd = lab_scan_predict_trace_key_order (&in, false);
   assert_true (lab_scan_stackdist_pages (sd, LAB_PREDICT_DATA) == 10);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, PAGE) == 10);
   lab_scan_stackdist_destroy (sd);
   layout (&in, 4, 4);
   sd = lab_scan_predict_trace_key_order (&in, false);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, 10 * PAGE) == 10);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, 2 * PAGE) > 10);
   lab_scan_stackdist_destroy (sd);
}

/* No bucket limit: one document per master, the folded trace's pages and misses at every cache. */
static void
test_buckets_as_folded (void **state)
{
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *a, *b;
   int64_t pa = 0, pb = 0, docs = 0;
   uint64_t cap;

   (void)state;
   layout (&in, MASTERS, 2);
   a = lab_scan_predict_trace_folded (&in, &pa);
   b = lab_scan_predict_trace_buckets (&in, 0, &pb, &docs);
   assert_int_equal (pa, pb);
   assert_int_equal (docs, MASTERS);
   for (cap = 1; cap < 1000; cap += 50) {
      assert_true (lab_scan_stackdist_misses (a, LAB_PREDICT_DATA, cap) ==
                   lab_scan_stackdist_misses (b, LAB_PREDICT_DATA, cap));
      assert_true (lab_scan_stackdist_misses (a, LAB_PREDICT_INDEX, cap) ==
                   lab_scan_stackdist_misses (b, LAB_PREDICT_INDEX, cap));
   }
   lab_scan_stackdist_destroy (a);
   lab_scan_stackdist_destroy (b);
}

/* Buckets of 4 rows: 10 rows are 3 documents (40, 40, 20 bytes; 44, 44, 24 with their cells), two masters
 * to a page of a 300-byte page maximum (its split at 270 holds the header and 224 bytes): 12 documents on 2
 * pages; the index searched once per master (its entries adjacent). In a
 * sample's trace a master's second and third documents, on the page its first touched, count apart. */
static void
test_buckets (void **state)
{
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *sd;
   int64_t pages = 0, docs = 0;

   (void)state;
   layout (&in, MASTERS, 1);
   sd = lab_scan_predict_trace_buckets (&in, 4, &pages, &docs);
   assert_int_equal (docs, 12);
   assert_int_equal (pages, 2);
   assert_true (lab_scan_stackdist_accesses (sd, LAB_PREDICT_DATA) == 12);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, 1000 * PAGE) == 2);
   assert_true (lab_scan_stackdist_accesses (sd, LAB_PREDICT_INDEX) == MASTERS);
   lab_scan_stackdist_destroy (sd);
   in.again_class = true;
   sd = lab_scan_predict_trace_buckets (&in, 4, NULL, NULL);
   assert_true (lab_scan_stackdist_accesses (sd, LAB_PREDICT_DATA) == MASTERS);
   assert_true (lab_scan_stackdist_accesses (sd, LAB_PREDICT_DATA_AGAIN) == 8);
   lab_scan_stackdist_destroy (sd);
}

/* test_tree_shape -- internal pages at WiredTiger's fan-out (a RecordId key: 245 children in 4 KiB, as
 * WiredTiger counted 5 internal pages over the 933 leaves of a detail collection); the root read at open
 * is not a row read's, the level under it is; many reads share it. */
static void
test_tree_shape (void **state)
{
   lab_scan_predict_tree_t t;
   double cold, over, internal;

   (void)state;
   lab_scan_predict_tree_shape (&t, 933, 30000, 4, LAB_PREDICT_COLL_INTERNAL_PAGE_MAX);
   assert_int_equal (t.levels, 2);
   assert_true (t.level[0] == 4 && t.level[1] == 1 && t.internal == 5);
   assert_true (t.level_disk[0] == 4096 && t.level_disk[1] == 4096);
   lab_scan_predict_tree_read (&t, 1, &cold, &over, &internal);
   assert_true (cold == 30000 + 4096); /* the leaf and the page above it */
   assert_true (fabs (over - cold) < 1e-6 && fabs (internal - 4096) < 1e-6);
   lab_scan_predict_tree_read (&t, 500, &cold, &over, &internal);
   assert_true (internal > 4 * 4096 * 0.99 && internal <= 4 * 4096); /* the 4 pages, once each */
   /* one leaf, or a few: the root alone above them, read at open */
   lab_scan_predict_tree_shape (&t, 65, 30000, 4, LAB_PREDICT_COLL_INTERNAL_PAGE_MAX);
   assert_true (t.levels == 1 && t.internal == 1);
   lab_scan_predict_tree_read (&t, 1, &cold, &over, &internal);
   assert_true (cold == 30000 && internal == 0);
}

/* test_append_journal -- an append rewrites the master's last document as it grows; a row past a bucket
 * starts a new one and rewrites the earlier ones; the log compressor keeps what saves a unit. */
static void
test_append_journal (void **state)
{
   size_t nrids[10] = { 5, 5, 5, 5, 5, 5, 5, 5, 5, 9 };
   lab_scan_predict_append_t a = { nrids, 10, false, 4, 0, 100, 1000, 4, 0 };
   double doc = 0, j;

   (void)state;
   /* the last tenth: master 9 (9 rows) takes the 4 appends, its document of 10, 11, 12, 13 rows */
   j = lab_scan_predict_append_journal (&a, &doc);
   assert_true (doc == 100 + 11.5 * 1000);
   assert_true (j >= 11500 && j <= 13700);
   /* buckets of 10: the appends make rows 10 (a full last bucket), then 11: a new bucket of 1 row and the
    * first rewritten whole, 12 and 13 in the new one */
   a.bucket_rows = 10;
   j = lab_scan_predict_append_journal (&a, &doc);
   assert_true (doc == 100 + (10 + 1 + 2 + 3) / 4.0 * 1000);
   assert_true (j > lab_scan_predict_journal_bytes (doc, 4, 0, 0));
   /* a large record compressed when it saves a 128-byte unit, a small one not */
   assert_true (lab_scan_predict_journal_bytes (1000, 4, 0, 0.5) == 640);
   assert_true (lab_scan_predict_journal_bytes (100, 4, 0, 0.9) == 128); /* 140 bytes in 128 */
   assert_true (lab_scan_predict_journal_bytes (200, 4, 0, 0.9) == 256); /* 240 in 218: no unit saved */
   assert_true (lab_scan_predict_journal_bytes (1000, 4, 0, 0) == 1152);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_key_order),         cmocka_unit_test (test_key_order_straddle),
      cmocka_unit_test (test_buckets_as_folded), cmocka_unit_test (test_buckets),
      cmocka_unit_test (test_tree_shape),        cmocka_unit_test (test_append_journal),
   };
   return lab_test_run_group ("predict_cands", tests, NULL, NULL);
}
