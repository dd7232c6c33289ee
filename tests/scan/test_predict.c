/*
 * test_predict.c -- the pure part of scan/predict/predict.c: the page traces of both layouts'
 * loads on hand-made layouts whose misses can be worked out by hand -- clustered rows (one page per master),
 * interleaved rows read by one worker (LRU's sequential-scan collapse below the working set) and by two
 * workers in step (the second reader of a page hits), the folded layout's packing, --keys-limit's
 * subset, and the bytes a miss reads; the range workload's sampled figures (predict_wl_sample.c): the find a
 * server answers for a master's rows' times (read-only: a filter, a projection, a hint) and the chance a
 * sample sees a page.
 */
#include "tests/testutil.h"

#include "scan/predict/predict.h"
#include "scan/predict/predict_wl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MASTERS 4
#define ROWS 10
#define PAGE 100 /* a data page's footprint in the cache */

static int64_t g_rid_store[MASTERS][ROWS];
static int64_t *g_rids[MASTERS];
static size_t g_nrids[MASTERS];
static int64_t g_all[MASTERS] = { 0, 1, 2, 3 };

/* layout -- MASTERS masters of ROWS rows; interleaved: row j of master m has RecordId 1 + j*MASTERS + m
 * (page j holds row j of every master), else clustered: 1 + m*ROWS + j. rows_per_page as given. */
static void
layout (lab_scan_predict_input_t *in, bool interleaved, double rows_per_page, int parallel)
{
   int m, j;

   memset (in, 0, sizeof *in);
   for (m = 0; m < MASTERS; m++) {
      for (j = 0; j < ROWS; j++) {
         g_rid_store[m][j] = interleaved ? 1 + j * MASTERS + m : 1 + m * ROWS + j;
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
   /* one index page of one byte: it barely weighs on the distances */
   in->index_entries_per_page = 1e9;
   in->index_page_cache_bytes = 1;
   in->folded_row_bytes = 10;
   in->folded_master_bytes = 0;
   in->folded_page_bytes = 200;
   in->folded_page_max = 300; /* split at 270: two 104-byte records (cells included) and the header */
   in->folded_page_cache_bytes = PAGE;
   in->folded_index_entries_per_page = 1e9;
}

/* Clustered: a master's rows on one page; every page read once whatever the cache (above one page). */
static void
test_clustered (void **state)
{
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *sd;

   (void)state;
   layout (&in, false, ROWS, 1);
   sd = lab_scan_predict_trace_detail (&in);
   assert_true (lab_scan_stackdist_accesses (sd, LAB_PREDICT_DATA) == MASTERS * ROWS);
   assert_true (lab_scan_stackdist_pages (sd, LAB_PREDICT_DATA) == MASTERS);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, PAGE + 1) == MASTERS);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, 1000 * PAGE) == MASTERS);
   /* one index page, searched once per master, read once */
   assert_true (lab_scan_stackdist_accesses (sd, LAB_PREDICT_INDEX) == MASTERS);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_INDEX, 1000 * PAGE) == 1);
   lab_scan_stackdist_destroy (sd);
}

/* Interleaved, one worker: each master reads pages 0..9 in turn. A cache of the 10 pages (and the index
 * page) reads each once; half of it rereads every page at every master (LRU's sequential collapse). */
static void
test_interleaved_one_worker (void **state)
{
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *sd;

   (void)state;
   layout (&in, true, MASTERS, 1);
   sd = lab_scan_predict_trace_detail (&in);
   assert_true (lab_scan_stackdist_pages (sd, LAB_PREDICT_DATA) == ROWS);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, ROWS * PAGE + 1) == ROWS);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, ROWS / 2 * PAGE) == MASTERS * ROWS);
   lab_scan_stackdist_destroy (sd);
}

/* Interleaved, two workers in step (masters 0-1 and 2-3): the second worker's read of page j comes right
 * after the first's and hits, even in a cache of two pages: 10 misses per pair of masters. */
static void
test_interleaved_two_workers (void **state)
{
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *sd;

   (void)state;
   layout (&in, true, MASTERS, 2);
   sd = lab_scan_predict_trace_detail (&in);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, 2 * PAGE + 1) == 2 * ROWS);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, ROWS * PAGE + 1) == ROWS);
   lab_scan_stackdist_destroy (sd);
}

/* --keys-limit: only the masters loaded are in the trace (0 and 3 here). */
static void
test_subset (void **state)
{
   static int64_t some[] = { 0, 3 };
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *sd;

   (void)state;
   layout (&in, false, ROWS, 1);
   in.load = some;
   in.nload = 2;
   sd = lab_scan_predict_trace_detail (&in);
   assert_true (lab_scan_stackdist_accesses (sd, LAB_PREDICT_DATA) == 2 * ROWS);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, 1000 * PAGE) == 2);
   lab_scan_stackdist_destroy (sd);
}

/* Folded: documents of 10 rows x 10 bytes packed two to a page (a 300-byte page maximum splits at 270: two
 * records of 104 bytes with their cells, and the page header): 2 pages, each read once. */
static void
test_folded (void **state)
{
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *sd;
   int64_t pages = 0;
   double misses = 0;

   (void)state;
   layout (&in, true, MASTERS, 2);
   sd = lab_scan_predict_trace_folded (&in, &pages);
   assert_int_equal (pages, 2);
   assert_true (lab_scan_stackdist_accesses (sd, LAB_PREDICT_DATA) == MASTERS);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, 1000 * PAGE) == 2);
   /* read bytes: 2 data misses x 4096 + 1 index miss x 16384 */
   assert_true (lab_scan_predict_read_bytes (sd, 1000 * PAGE, 4096, 16384, &misses) == 2 * 4096 + 16384);
   assert_true (misses == 3);
   lab_scan_stackdist_destroy (sd);
}

/* The cache the model fills: WiredTiger's eviction trigger (95%) of the configured size. */
static void
test_capacity (void **state)
{
   (void)state;
   assert_int_equal (lab_scan_predict_capacity (1000000), 950000);
}

/* A smaller capacity -- a lower fill, or a larger footprint per page as the probe measures them -- moves
 * the knee: interleaved rows read by one worker fit 10 pages of 100 bytes (plus a 1-byte index page) in a
 * cache of 1,100 bytes at 95% (1,045) and read each page once; at 87.5% (963), or with pages of 110
 * bytes, LRU collapses and every one of the 40 row accesses misses. */
static void
test_capacity_moves_knee (void **state)
{
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *sd;

   (void)state;
   assert_int_equal (lab_scan_predict_capacity_at (1000000, 0.875), 875000);
   assert_int_equal (lab_scan_predict_capacity_at (1000000, 0), 950000); /* no fill known: the default */
   layout (&in, true, MASTERS, 1);
   sd = lab_scan_predict_trace_detail (&in);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, lab_scan_predict_capacity_at (1100, 0.95)) ==
                ROWS);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA,
                                           lab_scan_predict_capacity_at (1100, 0.875)) == MASTERS * ROWS);
   lab_scan_stackdist_destroy (sd);
   in.page_cache_bytes = 110;
   sd = lab_scan_predict_trace_detail (&in);
   assert_true (lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, lab_scan_predict_capacity_at (1100, 0.95)) ==
                MASTERS * ROWS);
   lab_scan_stackdist_destroy (sd);
}

/* The find a server answers for one master's rows' times: the key matched as a value ($eq), the time alone
 * projected with the RecordId, the key index hinted; nothing else (no write, no sort, no limit). */
static void
test_wl_server_find (void **state)
{
   lab_scan_opts_t o;
   bson_value_t key;
   bson_t filter, opts;
   char *f, *q;

   (void)state;
   memset (&o, 0, sizeof o);
   o.key = "bill_id";
   o.wl.time_field = "charge_time";
   key.value_type = BSON_TYPE_INT32;
   key.value.v_int32 = 42;
   lab_scan_predict_wl_server_find (&o, &key, &filter, &opts);
   f = bson_as_relaxed_extended_json (&filter, NULL);
   q = bson_as_relaxed_extended_json (&opts, NULL);
   assert_string_equal (f, "{ \"bill_id\" : { \"$eq\" : 42 } }");
   assert_string_equal (q,
                        "{ \"projection\" : { \"_id\" : 0, \"charge_time\" : 1 }, \"showRecordId\" : true, "
                        "\"hint\" : { \"bill_id\" : 1 } }");
   bson_free (f);
   bson_free (q);
   bson_destroy (&filter);
   bson_destroy (&opts);
}

/* The chance a sample at rate F holds one of n masters: F for one, 1 - (1 - F)^n for n. */
static void
test_wl_seen_chance (void **state)
{
   (void)state;
   assert_true (fabs (lab_scan_predict_wl_seen_chance (0.1, 1) - 0.1) < 1e-12);
   assert_true (fabs (lab_scan_predict_wl_seen_chance (0.5, 2) - 0.75) < 1e-12);
   assert_true (fabs (lab_scan_predict_wl_seen_chance (0.1, 10) - (1 - pow (0.9, 10))) < 1e-12);
}

/* Each master's donor (lab_scan_predict_wl_donors): a traced master is its own; another's is traced, at
 * least LAB_PREDICT_WL_DONOR_GAP keys away, and masters nearer than LAB_PREDICT_WL_DONORS apart (a page's)
 * get different ones; nothing traced, no donor. */
static void
test_wl_donors (void **state)
{
   enum { N = 400 };
   bool in[N];
   int64_t donor[N], k, j;

   (void)state;
   for (k = 0; k < N; k++) {
      in[k] = k % 10 == 3; /* a tenth of the masters */
   }
   lab_scan_predict_wl_donors (in, N, donor);
   for (k = 0; k < N; k++) {
      assert_true (donor[k] >= 0 && donor[k] < N && in[donor[k]]);
      if (in[k]) {
         assert_int_equal (donor[k], k);
         continue;
      }
      assert_true (llabs (donor[k] - k) >= LAB_PREDICT_WL_DONOR_GAP);
      for (j = k + 1; j < N && j < k + LAB_PREDICT_WL_DONORS; j++) {
         if (!in[j]) {
            assert_true (donor[j] != donor[k]);
         }
      }
   }
   memset (in, 0, sizeof in);
   lab_scan_predict_wl_donors (in, N, donor);
   assert_int_equal (donor[0], -1);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_clustered),
      cmocka_unit_test (test_interleaved_one_worker),
      cmocka_unit_test (test_interleaved_two_workers),
      cmocka_unit_test (test_subset),
      cmocka_unit_test (test_folded),
      cmocka_unit_test (test_capacity),
      cmocka_unit_test (test_capacity_moves_knee),
      cmocka_unit_test (test_wl_server_find),
      cmocka_unit_test (test_wl_seen_chance),
      cmocka_unit_test (test_wl_donors),
   };
   return lab_test_run_group ("predict", tests, NULL, NULL);
}
