/*
 * test_scan_billgen.c -- scancmp on the real tools' data: `billgen generate --order interleaved` (each
 * bill's rows scattered in time order) folded by `fold-details --verify`, loaded cold on the embedded
 * store with a 1 MiB engine cache: the one-doc-per-row layout needs more device read requests (and engine
 * block reads) than the folded one, both return every row, and the folded row counts add up to the
 * detail documents.
 */
#include "tests/testutil.h"

#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BILLS 500

static char *g_dir;

static int
setup (void **state)
{
   char *billgen = lab_test_bin ("billgen"), *fold = lab_test_bin ("fold-details");
   char *cmd;

   g_dir = lab_test_tmpdir ("scan-billgen");
   cmd =
      bson_strdup_printf ("'%s' generate --uri 'wiredtiger:%s' --dst bill_detail --bills %d --mean-rows 20 "
                          "--order interleaved --seed 11 --drop --progress never -q",
                          billgen, g_dir, BILLS);
   lab_test_run_ok (cmd, NULL);
   bson_free (cmd);
   cmd = bson_strdup_printf (
      "'%s' --uri 'wiredtiger:%s' --src bill_detail --dst detail_coll --verify --progress never -q", fold,
      g_dir);
   lab_test_run_ok (cmd, NULL);
   bson_free (cmd);
   bson_free (billgen);
   bson_free (fold);
   return 0;
}

static int
teardown (void **state)
{
   lab_test_rmtree (g_dir);
   bson_free (g_dir);
   return 0;
}

static void
test_interleaved_cold (void **state)
{
   char *bin = lab_test_bin ("scancmp");
   char *out_path = bson_strdup_printf ("%s/run.json", g_dir);
   char *cmd = bson_strdup_printf (
      "'%s' --uri 'wiredtiger:%s' --cache-size 1MiB --cold --direct-io --runs 2 --parallel 2 "
      "--interval 100ms --progress never --out '%s'",
      bin, g_dir, out_path);
   char *out = NULL, *err = NULL;
   bson_json_reader_t *jr;
   bson_t r = BSON_INITIALIZER;
   bson_error_t e;
   int64_t detail_reads = 0, folded_reads = 0, detail_blocks = 0, folded_blocks = 0, detail_count = 0;
   int i, rc;

   rc = lab_test_run (cmd, &out, &err);
   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   jr = bson_json_reader_new_from_file (out_path, &e);
   assert_non_null (jr);
   assert_int_equal (bson_json_reader_read (jr, &r, &e), 1);
   bson_json_reader_destroy (jr);

   assert_int_equal ((int64_t)lab_test_json_num (&r, "dataset.keys"), BILLS);
   {
      char *uri = bson_strdup_printf ("wiredtiger:%s", g_dir);
      int64_t rows = lab_test_folded_rows (uri, "detail_coll", "bill_detail", &detail_count);
      assert_int_equal (rows, detail_count);
      bson_free (uri);
   }
   assert_int_equal ((int64_t)lab_test_json_num (&r, "dataset.detail.count"), detail_count);
   for (i = 0; i < 4; i++) {
      char p[64];
      const char *layout;
      int64_t reads, blocks;

      snprintf (p, sizeof p, "runs.%d.layout", i);
      layout = lab_test_json_str (&r, p);
      snprintf (p, sizeof p, "runs.%d.rows", i);
      assert_int_equal ((int64_t)lab_test_json_num (&r, p), detail_count);
      /* zero resident pages of the data files after the cold step, root or not: its fdatasync +
       * posix_fadvise (DONTNEED) of every file of the home needs no privilege */
      snprintf (p, sizeof p, "runs.%d.cold.resident_bytes_before", i);
      assert_int_equal ((int64_t)lab_test_json_num (&r, p), 0);
      snprintf (p, sizeof p, "runs.%d.read_requests", i);
      reads = (int64_t)lab_test_json_num (&r, p);
      snprintf (p, sizeof p, "runs.%d.engine.block_reads", i);
      blocks = (int64_t)lab_test_json_num (&r, p);
      if (strcmp (layout, "detail") == 0) {
         detail_reads += reads;
         detail_blocks += blocks;
      } else {
         folded_reads += reads;
         folded_blocks += blocks;
      }
   }
   if (!(detail_reads > folded_reads)) {
      fail_msg ("device read requests: detail %lld, folded %lld", (long long)detail_reads,
                (long long)folded_reads);
   }
   assert_true (detail_blocks > folded_blocks);
   bson_destroy (&r);
   bson_free (out);
   bson_free (err);
   bson_free (cmd);
   bson_free (out_path);
   bson_free (bin);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_interleaved_cold),
   };
   return lab_test_run_group ("scan_billgen", tests, setup, teardown);
}
