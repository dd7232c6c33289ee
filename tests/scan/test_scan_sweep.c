/*
 * test_scan_sweep.c -- the cache sweep on the embedded store, on the real tools' data
 * (billgen generate, fold-details): three cold points with --direct-io on interleaved data hold their
 * points in order, the detail layout's read amplification falls as the cache grows, the speedup at the
 * smallest cache exceeds the one at the largest (a margin of tens of times: 0.15x the data rereads it
 * ~100x over, 4x holds it), folded locality is 1-2 pages per master while detail's is far higher; on
 * clustered data detail's locality comes close to folded's. Bad input (unsorted or duplicate lists, a
 * cache under 1MiB, a server sweep without --server-cache-sweep) ends with exit 2 and no results file.
 *
 * Nothing asserts on a time: the speedup comparison is between figures tens of times apart, the rest
 * are byte counts and page counts.
 */
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BILLS 2000
#define MEAN_ROWS 40

static char *g_inter;     /* interleaved data */
static char *g_clustered; /* clustered data */
static char *g_bin;

/* make_data -- billgen generate --order ORDER, folded by fold-details. */
static char *
make_data (const char *tag, const char *order)
{
   char *args = bson_strdup_printf ("--order %s", order);
   char *dir = lab_test_folded_store (tag, BILLS, MEAN_ROWS, args);

   bson_free (args);
   return dir;
}

static int
setup (void **state)
{
   g_bin = lab_test_bin ("scancmp");
   g_inter = make_data ("sweep-inter", "interleaved");
   g_clustered = make_data ("sweep-clustered", "clustered");
   return 0;
}

static int
teardown (void **state)
{
   lab_test_rmtree (g_inter);
   lab_test_rmtree (g_clustered);
   bson_free (g_inter);
   bson_free (g_clustered);
   bson_free (g_bin);
   return 0;
}

/* scancmp -- run it on dir with args; the results go to dir/NAME. */
static int
scancmp (const char *dir, const char *args, char **err)
{
   char *cmd = bson_strdup_printf (
      "'%s' --uri 'wiredtiger:%s' --parallel 2 --interval 100ms --progress never %s", g_bin, dir, args);
   int rc = lab_test_run (cmd, NULL, err);
   bson_free (cmd);
   return rc;
}

/* num -- sweep.<i>.<path> */
static double
num (const bson_t *r, int i, const char *path)
{
   char p[256];
   snprintf (p, sizeof p, "sweep.%d.%s", i, path);
   if (!lab_test_json_has (r, p)) {
      fail_msg ("results lack %s", p);
   }
   return lab_test_json_num (r, p);
}

static void
test_three_points_interleaved (void **state)
{
   char *out_path = bson_strdup_printf ("%s/sweep.json", g_inter);
   char *args =
      bson_strdup_printf ("--cold --direct-io --cache-ratios 0.15,1,4 --keys-limit 400 --out '%s'", out_path);
   char *err = NULL;
   double amp[3], speedup[3], loc_detail, loc_folded;
   bson_t *r;
   int i, rc;

   rc = scancmp (g_inter, args, &err);
   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   r = lab_test_json_load (out_path);
   assert_non_null (r);
   /* three points, cache ascending, the reference repeated at the top */
   assert_true (lab_test_json_has (r, "sweep.2") && !lab_test_json_has (r, "sweep.3"));
   assert_true (num (r, 0, "cache_size_bytes") < num (r, 1, "cache_size_bytes"));
   assert_true (num (r, 1, "cache_size_bytes") < num (r, 2, "cache_size_bytes"));
   assert_true (num (r, 0, "cache_ratio") > 0.14 && num (r, 0, "cache_ratio") < 0.16);
   assert_true (num (r, 2, "cache_ratio") > 3.9 && num (r, 2, "cache_ratio") < 4.1);
   i = (int)lab_test_json_num (r, "sweep_reference");
   assert_true (i >= 0 && i < 3);
   assert_true (lab_test_json_num (r, "config.cache_size_bytes") == num (r, i, "cache_size_bytes"));
   assert_true (lab_test_json_num (r, "backend.cache_max_bytes") == num (r, i, "cache_size_bytes"));
   assert_true (lab_test_json_has (r, "config.cache_ratio"));
   assert_true (lab_test_json_has (r, "runs.1.layout") && lab_test_json_has (r, "summary.detail"));
   for (i = 0; i < 3; i++) {
      char p[64];
      snprintf (p, sizeof p, "sweep.%d.runs.1.run", i);
      assert_int_equal ((int)lab_test_json_num (r, p), 1); /* runs numbered within the point */
      amp[i] = num (r, i, "detail.read_amplification");
      /* the disk's amplification beside it: the device's bytes read over the same on-disk size, stored
       * exactly when the runs have disk figures (none without a device to read) */
      snprintf (p, sizeof p, "sweep.%d.summary.detail.read_bytes.median", i);
      if (lab_test_json_has (r, p)) {
         double disk = lab_test_json_num (r, "dataset.detail.storage_size_bytes") +
                       lab_test_json_num (r, "dataset.detail.index_size_bytes");
         double want = lab_test_json_num (r, p) / disk, got = num (r, i, "detail.disk_read_amplification");
         if (!(fabs (got - want) <= 1e-9 * (want > 1 ? want : 1))) {
            fail_msg ("point %d: disk read amplification %g, read_bytes / on-disk size %g", i, got, want);
         }
      } else {
         snprintf (p, sizeof p, "sweep.%d.detail.disk_read_amplification", i);
         assert_false (lab_test_json_has (r, p));
      }
      speedup[i] =
         num (r, i, "summary.detail.elapsed_s.median") / num (r, i, "summary.folded.elapsed_s.median");
   }
   /* the detail layout rereads less as the cache grows */
   if (!(amp[0] > amp[1] && amp[1] > amp[2])) {
      fail_msg ("detail read amplification %.2f, %.2f, %.2f does not fall", amp[0], amp[1], amp[2]);
   }
   if (!(amp[0] > 5 * amp[2])) {
      fail_msg ("detail read amplification at 0.15 (%.2f) not far above at 4 (%.2f)", amp[0], amp[2]);
   }
   /* the speedup follows it (margin: tens of times; a ratio of timings, so only the order is checked) */
   if (!(speedup[0] > speedup[2])) {
      fail_msg ("speedup at the smallest cache %.1f not above at the largest %.1f", speedup[0], speedup[2]);
   }
   /* locality: a folded bill on 1-2 pages, an interleaved detail bill on many */
   loc_folded = num (r, 0, "folded.locality.pages_per_master_mean");
   loc_detail = num (r, 0, "detail.locality.pages_per_master_mean");
   assert_true (loc_folded >= 1 && loc_folded <= 2);
   if (!(loc_detail > 5 * loc_folded)) {
      fail_msg ("interleaved detail locality %.2f pages per master, folded %.2f", loc_detail, loc_folded);
   }
   assert_string_equal (lab_test_json_str (r, "sweep.0.detail.locality.method"), "record_ids");
   assert_int_equal ((int)num (r, 0, "detail.locality.masters_sampled"), 400);
   bson_destroy (r);
   bson_free (err);
   bson_free (args);
   bson_free (out_path);
}

static void
test_locality_clustered (void **state)
{
   char *out_path = bson_strdup_printf ("%s/sweep.json", g_clustered);
   char *args = bson_strdup_printf ("--cache-sizes 8MiB,64MiB --keys-limit 200 --out '%s'", out_path);
   char *err = NULL;
   double loc_detail, loc_folded;
   bson_t *r;
   int rc;

   rc = scancmp (g_clustered, args, &err);
   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   r = lab_test_json_load (out_path);
   assert_non_null (r);
   assert_int_equal ((int)num (r, 0, "cache_size_bytes"), 8 << 20);
   assert_int_equal ((int)num (r, 1, "cache_size_bytes"), 64 << 20);
   loc_folded = num (r, 1, "folded.locality.pages_per_master_mean");
   loc_detail = num (r, 1, "detail.locality.pages_per_master_mean");
   /* a clustered bill's rows are consecutive: a page or two, as folded */
   if (!(loc_detail >= 1 && loc_detail <= loc_folded + 1.5)) {
      fail_msg ("clustered detail locality %.2f pages per master, folded %.2f", loc_detail, loc_folded);
   }
   bson_destroy (r);
   bson_free (err);
   bson_free (args);
   bson_free (out_path);
}

/* bad -- scancmp with args exits 2 naming `want`, and writes no results file. */
static void
bad (const char *args, const char *want)
{
   char *out_path = bson_strdup_printf ("%s/bad.json", g_inter);
   char *all = bson_strdup_printf ("%s --out '%s'", args, out_path);
   char *err = NULL;
   int rc;

   unlink (out_path);
   rc = scancmp (g_inter, all, &err);
   if (rc != 2 || !strstr (err, want)) {
      fail_msg ("%s: exit %d (want 2), stderr lacks \"%s\": %s", args, rc, want, err);
   }
   assert_true (access (out_path, F_OK) != 0);
   bson_free (err);
   bson_free (all);
   bson_free (out_path);
}

static void
test_bad_input (void **state)
{
   bad ("--cache-sizes 256MiB,64MiB", "smaller than the one before");
   bad ("--cache-sizes 64MiB,64MiB", "the same as the one before");
   bad ("--cache-ratios 0.5,0.25", "smaller than the one before");
   bad ("--cache-ratios 1,1", "the same as the one before");
   bad ("--cache-ratios 0.5,,1", "not a positive number");
   bad ("--cache-ratios 0,1", "not a positive number");
   bad ("--cache-sizes 512KiB,64MiB", "below the engine's minimum cache of 1MiB");
   bad ("--cache-ratios 0.0001,1", "below the engine's minimum of 1MiB");
   bad ("--cache-ratios 0.50000000001,0.50000000002", "both give a cache of");
   bad ("--cache-sizes 8MiB --cache-ratios 1", "give one of them");
   bad ("--server-cache-sweep", "needs --cache-sizes or --cache-ratios");
}

static void
test_server_sweep_needs_flag (void **state)
{
   /* refused before any connection: the URI's scheme decides */
   char *cmd = bson_strdup_printf (
      "'%s' --uri 'mongodb://127.0.0.1:1/x' --cache-ratios 0.5,1 --progress never", g_bin);
   char *err = NULL;
   int rc = lab_test_run (cmd, NULL, &err);

   if (rc != 2 || !strstr (err, "--server-cache-sweep")) {
      fail_msg ("exit %d (want 2): %s", rc, err);
   }
   bson_free (err);
   bson_free (cmd);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_bad_input),
      cmocka_unit_test (test_server_sweep_needs_flag),
      cmocka_unit_test (test_three_points_interleaved),
      cmocka_unit_test (test_locality_clustered),
   };
   return lab_test_run_group ("scan_sweep", tests, setup, teardown);
}
