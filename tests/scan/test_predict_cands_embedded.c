/*
 * test_predict_cands_embedded.c -- a prediction (lab_scan_predict_run) on billgen's data carries every
 * candidate: "predicted_candidates" names the sorted and clustered copies, buckets of --bucket-rows and
 * the fold with zstd blocks, each with a descriptor whose questions say what it is; every sweep point has
 * each one's bytes read and read amplification; the sizes hold what the candidates are (the clustered
 * collection has no index, buckets more documents than masters, zstd blocks fewer bytes than snappy's);
 * "predicted_workloads" has an append costing the fold more journal than a row; the terminal view shows
 * them; --bucket-rows without --predict, or not a count, is refused. The zstd candidate against the same
 * rows folded with zstd blocks: its leaf pages and bytes on disk as measured (WiredTiger caps a page's
 * records before compression at 4 x leaf_page_max: zstd pages hold what snappy's hold).
 */
#include "tests/testutil.h"

#include "core/layout.h"
#include "core/results.h"
#include "scan/predict/predict.h"
#include "scan/scan.h"
#include "store/store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BILLS 300

static const char *const g_names[] = { "sorted", "clustered", "buckets", "folded-zstd" };

/* cand_of -- candidate `name`'s entry of predicted_candidates into *d (a view), its index or -1. */
static int
cand_of (const bson_t *r, const char *name, bson_t *d)
{
   bson_iter_t it, arr, f;
   int i = 0;

   if (!bson_iter_init_find (&it, r, "predicted_candidates") || !bson_iter_recurse (&it, &arr)) {
      return -1;
   }
   while (bson_iter_next (&arr)) {
      uint32_t len;
      const uint8_t *data;
      bson_iter_document (&arr, &len, &data);
      bson_init_static (d, data, len);
      if (bson_iter_init_find (&f, d, "name") && strcmp (bson_iter_utf8 (&f, NULL), name) == 0) {
         return i;
      }
      i++;
   }
   return -1;
}

/* number -- the number at `path` of `doc` (the test fails without it). */
static double
number (const bson_t *doc, const char *path)
{
   double v = -1;

   if (!lab_results_get_number (doc, path, &v)) {
      fail_msg ("no number at %s", path);
   }
   return v;
}

/* zstd_measured -- fold the store's rows with zstd blocks into detail_zstd (fold-details, before the test
 * opens the store) and read its leaf pages and bytes on disk, and detail_coll's leaf pages. */
static void
zstd_measured (const char *uri, int64_t *zstd_pages, double *zstd_storage, int64_t *folded_pages)
{
   char *fold = lab_test_bin ("fold-details"), *err = NULL;
   char *cmd =
      bson_strdup_printf ("'%s' --uri '%s' --src bill_detail --dst detail_zstd --block-compressor zstd "
                          "--progress never -q",
                          fold, uri);
   lab_store_t *store;
   lab_store_session_t *s;
   lab_store_coll_stats_t st;
   bson_error_t e;
   int rc = lab_test_run (cmd, NULL, &err);

   if (rc != 0) {
      fail_msg ("%s: exit %d: %s", cmd, rc, err);
   }
   store = lab_test_store_open (uri);
   s = lab_store_session_open (store, &e);
   if (!s || !lab_store_leaf_pages (s, "detail_zstd", zstd_pages, &e) ||
       !lab_store_leaf_pages (s, "detail_coll", folded_pages, &e) ||
       !lab_store_stats (s, "detail_zstd", &st, &e)) {
      fail_msg ("detail_zstd's pages and storage: %s", e.message);
   }
   *zstd_storage = (double)st.storage_size_bytes;
   lab_store_session_close (s);
   lab_store_close (store);
   bson_free (cmd);
   bson_free (err);
   bson_free (fold);
}

/* test_candidates_recorded -- the prediction record's candidates, curves and workloads. */
static void
test_candidates_recorded (void **state)
{
   char *dir = lab_test_folded_store ("predict-cands", BILLS, 130, ""), *uri, *text;
   uint64_t sizes[2] = { 2 * 1024 * 1024, 256 * 1024 * 1024 };
   lab_scan_opts_t o;
   lab_store_t *store;
   bson_t r = BSON_INITIALIZER, d, desc;
   lab_layout_t l;
   bson_iter_t it;
   char path[160];
   size_t i, k;
   int64_t zstd_pages = 0, folded_pages = 0;
   double zstd_storage = 0;

   (void)state;
   uri = bson_strdup_printf ("wiredtiger:%s", dir);
   zstd_measured (uri, &zstd_pages, &zstd_storage, &folded_pages);
   store = lab_test_store_open (uri);
   lab_scan_opts_init (&o);
   o.predict = true;
   o.predict_bucket_rows = 50;
   o.cache_sizes.v = sizes;
   o.cache_sizes.n = 2;
   LAB_TEST_CHECK (lab_scan_predict_run (store, &o, &r, &e_));
   for (k = 0; k < sizeof g_names / sizeof g_names[0]; k++) {
      assert_int_equal (cand_of (&r, g_names[k], &d), (int)k);
      assert_true (bson_iter_init_find (&it, &d, "layout"));
      {
         uint32_t len;
         const uint8_t *data;
         bson_iter_document (&it, &len, &data);
         bson_init_static (&desc, data, len);
      }
      LAB_TEST_CHECK (lab_layout_from_bson (&desc, &l, &e_));
      assert_true (lab_layout_read_by_id_range (&l) == (k == 1));
      assert_true (lab_layout_bucketed (&l) == (k == 2));
      assert_true (lab_layout_key_contiguous (&l));
      for (i = 0; i < 2; i++) {
         snprintf (path, sizeof path, "sweep.%zu.candidates.%s.block_read_bytes", i, g_names[k]);
         assert_true (number (&r, path) > 0);
         snprintf (path, sizeof path, "sweep.%zu.candidates.%s.read_amplification", i, g_names[k]);
         assert_true (number (&r, path) > 0);
      }
      /* a cache holding everything reads the candidate about once: its storage, within a third */
      snprintf (path, sizeof path, "sweep.1.candidates.%s.block_read_bytes", g_names[k]);
      assert_true (fabs (number (&r, path) / number (&d, "storage_size_bytes") - 1) < 0.34);
   }
   cand_of (&r, "clustered", &d);
   assert_true (number (&d, "index_size_bytes") == 0);
   cand_of (&r, "buckets", &d);
   assert_true (number (&d, "documents") > BILLS);
   assert_int_equal (number (&d, "layout.bucket_rows"), 50);
   cand_of (&r, "folded-zstd", &d);
   /* zstd squeezes the documents well below snappy (the demo's data: 0.56 of the folded storage) */
   assert_true (number (&d, "storage_size_bytes") < 0.85 * number (&r, "dataset.folded.storage_size_bytes"));
   /* measured: zstd's leaf pages those of snappy's fold, their bytes on disk fewer; predicted: the folded
    * model's pages (pages as full on disk as the detail's predicted half of them; the folded model's own
    * pages are 17% over the measured on this data: a third is allowed), their bytes within 10% */
   printf ("folded-zstd: leaf pages %.0f predicted (folded %.0f), %lld measured (snappy fold %lld); storage "
           "%.0f predicted, %.0f measured\n",
           number (&d, "data_pages"), number (&r, "prediction.model.folded_pages"), (long long)zstd_pages,
           (long long)folded_pages, number (&d, "storage_size_bytes"), zstd_storage);
   assert_true (llabs (zstd_pages - folded_pages) <= folded_pages / 10);
   assert_true (fabs (number (&d, "data_pages") / number (&r, "prediction.model.folded_pages") - 1) < 0.1);
   assert_true (fabs (number (&d, "data_pages") / (double)zstd_pages - 1) < 0.34);
   /* and a zstd page's footprint in the cache a snappy one's (the old, scaled from a detail page of
    * hundreds of rows: +8%) */
   assert_true (
      fabs (number (&d, "data_page_cache_bytes") / number (&r, "prediction.model.folded_page_cache_bytes") -
            1) < 0.05);
   assert_true (fabs (number (&d, "storage_size_bytes") / zstd_storage - 1) < 0.1);
   assert_true (number (&r, "predicted_workloads.layouts.folded.append_journal_bytes_per_write") >
                2 * number (&r, "predicted_workloads.layouts.detail.append_journal_bytes_per_write"));
   /* a clustered copy's row read walks the {key, line} index the workload reads through, then the record
    * table: a leaf of each and the internal pages under the roots (read when the tables are opened) */
   assert_true (number (&r, "predicted_workloads.layouts.clustered.row_pages_per_read") >= 2);
   assert_true (number (&r, "predicted_workloads.layouts.clustered.index_pages") > 0);
   text = lab_scan_predict_table_render (&r);
   assert_non_null (strstr (text, "folded-zstd"));
   bson_free (text);
   bson_destroy (&r);
   lab_store_close (store);
   {
      /* refused, exit 2 naming it, nothing written: --bucket-rows without --predict, or not a count */
      static const char *const bad_args[] = { "--bucket-rows 50 --cold", "--predict --bucket-rows 0" };
      char *scan = lab_test_bin ("scancmp"), *cmd, *err = NULL;
      for (k = 0; k < sizeof bad_args / sizeof bad_args[0]; k++) {
         int rc;
         cmd =
            bson_strdup_printf ("'%s' --uri '%s' %s --cache-sizes 8MiB --progress never --out '%s/bad.json'",
                                scan, uri, bad_args[k], dir);
         rc = lab_test_run (cmd, NULL, &err);
         if (rc != 2 || !strstr (err, "--bucket-rows")) {
            fail_msg ("%s: exit %d, want 2 naming --bucket-rows: %s", cmd, rc, err);
         }
         snprintf (path, sizeof path, "%s/bad.json", dir);
         assert_false (access (path, F_OK) == 0);
         bson_free (cmd);
         bson_free (err);
         err = NULL;
      }
      bson_free (scan);
   }
   lab_test_rmtree (dir);
   bson_free (uri);
   bson_free (dir);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_candidates_recorded),
   };
   return lab_test_run_group ("predict_cands_embedded", tests, NULL, NULL);
}
