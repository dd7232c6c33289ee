/*
 * test_predict_cands.c -- the other candidates' traces (scan/predict/predict_cands_trace.c) on hand-made
 * layouts whose misses can be worked out by hand: rows renumbered in key order read the pages once however
 * the rows arrived, with or without a key index to walk (sorted, clustered), a page shared by two masters
 * straddling it; documents of a bucket's rows packed into pages, the same trace as the folded one with no
 * bucket limit, and a master's later buckets counted apart in a sample's trace.
 */
#include "tests/testutil.h"

#include "scan/predict/predict_cands.h"

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

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_key_order),
      cmocka_unit_test (test_key_order_straddle),
      cmocka_unit_test (test_buckets_as_folded),
      cmocka_unit_test (test_buckets),
   };
   return lab_test_run_group ("predict_cands", tests, NULL, NULL);
}
