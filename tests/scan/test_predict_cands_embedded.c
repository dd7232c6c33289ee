/*
 * test_predict_cands_embedded.c -- a prediction (lab_scan_predict_run) on billgen's data carries every
 * candidate: "predicted_candidates" names the sorted and clustered copies, buckets of --bucket-rows and
 * the fold with zstd blocks, each with a descriptor whose questions say what it is; every sweep point has
 * each one's bytes read and read amplification; the sizes hold what the candidates are (the clustered
 * collection has no index, buckets more documents than masters, zstd blocks fewer bytes than snappy's);
 * "predicted_workloads" has an append costing the fold more journal than a row; the terminal view shows
 * them; --bucket-rows without --predict, or not a count, is refused. The folded layout, the zstd, sorted,
 * bucket and clustered candidates against the same rows copied so: their leaf pages and bytes on disk as
 * measured within 10% (WiredTiger 3.2.1's reconciliation: predict_pack.c).
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

/* The copies measured against the prediction: the fold (detail_coll, made with the store), and made here
 * before the test opens the store, the fold with zstd blocks, the sorted copy, buckets of 50 rows and the
 * clustered copy (written in the rows' arrival order: its pages split under scattered inserts). */
#define NCOPIES 5
static const char *const g_copies[NCOPIES] = { "detail_coll", "detail_zstd", "detail_sorted", "detail_b50",
                                               "detail_clustered" };
static const char *const g_copy_args[NCOPIES] = { NULL, "--block-compressor zstd", "--shape sorted",
                                                  "--bucket-rows 50", "--shape clustered" };

/* Each copy's leaf pages and bytes on disk predicted are within PACK_TOL of the measured (WiredTiger 3.2.1's
 * reconciliation of an in-order insert, predict_pack.c: seen -1% to +1% on the pages of the first four,
 * -7% to +6% on their sizes, on six data shapes; the clustered copy's pages from the simulated tree of its
 * arrival-order inserts -5% to +2%, its size -4% to +2%; the old rule, whole documents at the detail's
 * average fill, put the folded pages 8-25% over, the clustered copy's 10-27% under). */
#define PACK_TOL 0.10

/* copies_measured -- fold the store's rows into the copies of g_copies (fold-details, before the test opens
 * the store) and read each one's leaf pages and bytes on disk. */
static void
copies_measured (const char *uri, int64_t *pages, double *storage)
{
   char *fold = lab_test_bin ("fold-details"), *cmd;
   lab_store_t *store;
   lab_store_session_t *s;
   lab_store_coll_stats_t st;
   bson_error_t e;
   int k;

   for (k = 1; k < NCOPIES; k++) {
      cmd = bson_strdup_printf ("'%s' --uri '%s' --src bill_detail --dst %s %s --progress never -q", fold,
                                uri, g_copies[k], g_copy_args[k]);
      lab_test_run_ok (cmd, NULL);
      bson_free (cmd);
   }
   store = lab_test_store_open (uri);
   s = lab_store_session_open (store, &e);
   for (k = 0; k < NCOPIES; k++) {
      if (!s || !lab_store_leaf_pages (s, g_copies[k], &pages[k], &e) ||
          !lab_store_stats (s, g_copies[k], &st, &e)) {
         fail_msg ("%s's pages and storage: %s", g_copies[k], e.message);
      }
      storage[k] = (double)st.storage_size_bytes;
   }
   lab_store_session_close (s);
   lab_store_close (store);
   bson_free (fold);
}

/* check_sizes -- each copy's leaf pages and bytes on disk, predicted (the folded layout's in the model, the
 * others' in predicted_candidates) against the measured, within PACK_TOL. */
static void
check_sizes (const bson_t *r, const int64_t *pages, const double *storage)
{
   static const char *const names[NCOPIES] = { NULL, "folded-zstd", "sorted", "buckets", "clustered" };
   bson_t d;
   int k, bad = 0;

   for (k = 0; k < NCOPIES; k++) {
      double pp, ps;
      if (k == 0) {
         pp = number (r, "prediction.model.folded_pages");
         ps = number (r, "dataset.folded.storage_size_bytes");
      } else {
         assert_true (cand_of (r, names[k], &d) >= 0);
         pp = number (&d, "data_pages");
         ps = number (&d, "storage_size_bytes");
      }
      printf ("%s: leaf pages predicted %.0f, measured %lld (%+.1f%%); bytes on disk %.0f, %.0f (%+.1f%%)\n",
              g_copies[k], pp, (long long)pages[k], 100 * (pp / (double)pages[k] - 1), ps, storage[k],
              100 * (ps / storage[k] - 1));
      if (!(fabs (pp / (double)pages[k] - 1) <= PACK_TOL) || !(fabs (ps / storage[k] - 1) <= PACK_TOL)) {
         printf ("  ^ outside %.0f%%\n", 100 * PACK_TOL);
         bad++;
      }
   }
   if (bad) {
      fail_msg ("%d copies' predicted pages or sizes outside %.0f%% of the measured", bad, 100 * PACK_TOL);
   }
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
   int64_t pages[NCOPIES] = { 0 };
   double storage[NCOPIES] = { 0 };

   (void)state;
   uri = bson_strdup_printf ("wiredtiger:%s", dir);
   copies_measured (uri, pages, storage);
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
   /* measured: zstd's leaf pages those of snappy's fold (WiredTiger caps a page's image before
    * compression); predicted: the same */
   assert_true (llabs (pages[1] - pages[0]) <= pages[0] / 10);
   assert_true (fabs (number (&d, "data_pages") / number (&r, "prediction.model.folded_pages") - 1) < 0.1);
   /* and a zstd page's footprint in the cache a snappy one's, within 25%: the zstd fold's comes from its
    * own pages (its sample pack's), the folded layout's from the detail's mean page (predict.c model_input).
    * The detail's tree is not the same from run to run: billgen's parallel batches and the engine's
    * eviction leave 125-149 leaf pages for these rows (prediction.model.leaf_pages), and the folded
    * footprint follows their mean, 122,127 to 103,316 bytes where the zstd one stays at 123.5k (a 10% band
    * failed once, at 149 pages). Taking the folded footprint from the sample fold's pages
    * instead would not move with them, but it predicted zipf's folded load at ratio 0.2 1.39 where the
    * engine read 0.96-1.27 (test_predict_embedded), and the mean page 1.06: not taken. The pages themselves
    * are held within 10% of the measured by check_sizes. */
   printf ("folded-zstd page footprint %.0f, folded %.0f (the detail's leaf pages: %.0f)\n",
           number (&d, "data_page_cache_bytes"), number (&r, "prediction.model.folded_page_cache_bytes"),
           number (&r, "prediction.model.leaf_pages"));
   assert_true (
      fabs (number (&d, "data_page_cache_bytes") / number (&r, "prediction.model.folded_page_cache_bytes") -
            1) < 0.25);
   /* a page is held in the cache uncompressed: a zstd page takes more than twice its block on disk (the
    * demo's data compresses below 0.3) */
   assert_true (number (&d, "data_page_cache_bytes") > 2 * number (&d, "data_page_disk_bytes"));
   check_sizes (&r, pages, storage);
   {
      /* from a sample of half the masters: each candidate's pages still near the measured, and a cache
       * holding everything still reads it about once (the clustered copy's arrival-order tree needs every
       * row's RecordId: a sample's unsampled masters have none, and it falls back to the key-order rule) */
      static const char *const copy_of[] = { "folded-zstd", "clustered", "buckets", "sorted" };
      static const int copy_at[] = { 1, 4, 3, 2 };
      bson_t sr = BSON_INITIALIZER;
      o.predict_sample = 0.5;
      LAB_TEST_CHECK (lab_scan_predict_run (store, &o, &sr, &e_));
      for (k = 0; k < sizeof copy_of / sizeof copy_of[0]; k++) {
         double pp;
         assert_true (cand_of (&sr, copy_of[k], &d) >= 0);
         pp = number (&d, "data_pages");
         snprintf (path, sizeof path, "sweep.1.candidates.%s.read_amplification", copy_of[k]);
         printf (
            "--sample 0.5: %s leaf pages predicted %.0f, measured %lld; read amplification at %s: %.2f\n",
            copy_of[k], pp, (long long)pages[copy_at[k]], "256 MiB", number (&sr, path));
         if (!(fabs (pp / (double)pages[copy_at[k]] - 1) <= 0.25) ||
             !(fabs (number (&sr, path) - 1) < 0.34)) {
            fail_msg (
               "--sample 0.5: %s's pages %.0f (measured %lld) or its read amplification %.2f in a cache "
               "holding it off",
               copy_of[k], pp, (long long)pages[copy_at[k]], number (&sr, path));
         }
      }
      bson_destroy (&sr);
      o.predict_sample = 1;
   }
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
