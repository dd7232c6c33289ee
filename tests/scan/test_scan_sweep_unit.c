/*
 * test_scan_sweep_unit.c -- the pure parts of the cache sweep (scan/sweep.c, scan/locality.c): the
 * --cache-sizes / --cache-ratios lists, the caches they resolve to (and what is refused), the pages a
 * master's RecordIds occupy, and the fixed-seed sample of masters.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "core/store.h"
#include "scan/scan.h"

#include <string.h>

static void
test_parse_lists (void **state)
{
   uint64_t *sizes = NULL;
   double *ratios = NULL;
   size_t n = 0;
   bson_error_t e;

   assert_true (lab_scan_sweep_parse_sizes ("64MiB,256MiB,1GiB", "--cache-sizes", &sizes, &n, &e));
   assert_int_equal (n, 3);
   assert_true (sizes[0] == 64ull << 20 && sizes[1] == 256ull << 20 && sizes[2] == 1ull << 30);
   bson_free (sizes);
   assert_true (lab_scan_sweep_parse_sizes ("8M", "--cache-sizes", &sizes, &n, &e));
   assert_int_equal (n, 1);
   bson_free (sizes);

   assert_false (lab_scan_sweep_parse_sizes ("1GiB,256MiB", "--cache-sizes", &sizes, &n, &e));
   assert_int_equal (e.domain, LAB_ERROR_USAGE);
   assert_non_null (strstr (e.message, "256MiB is smaller than the one before it"));
   assert_null (sizes);
   assert_false (lab_scan_sweep_parse_sizes ("64MiB,64M", "--cache-sizes", &sizes, &n, &e));
   assert_non_null (strstr (e.message, "the same as"));
   assert_false (lab_scan_sweep_parse_sizes ("64MiB,", "--cache-sizes", &sizes, &n, &e));
   assert_non_null (strstr (e.message, "empty item"));
   assert_false (lab_scan_sweep_parse_sizes ("64Mo", "--cache-sizes", &sizes, &n, &e));
   assert_int_equal (e.domain, LAB_ERROR_USAGE);

   assert_true (lab_scan_sweep_parse_ratios ("0.1,0.5,1,2", "--cache-ratios", &ratios, &n, &e));
   assert_int_equal (n, 4);
   assert_true (ratios[0] == 0.1 && ratios[3] == 2);
   bson_free (ratios);
   assert_false (lab_scan_sweep_parse_ratios ("1,0.5", "--cache-ratios", &ratios, &n, &e));
   assert_non_null (strstr (e.message, "smaller than"));
   assert_false (lab_scan_sweep_parse_ratios ("0.5,0.5", "--cache-ratios", &ratios, &n, &e));
   assert_non_null (strstr (e.message, "the same as"));
   assert_false (lab_scan_sweep_parse_ratios ("-1", "--cache-ratios", &ratios, &n, &e));
   assert_false (lab_scan_sweep_parse_ratios ("nan", "--cache-ratios", &ratios, &n, &e));
   assert_false (lab_scan_sweep_parse_ratios ("1x", "--cache-ratios", &ratios, &n, &e));
   assert_non_null (strstr (e.message, "\"1x\" is not a positive number"));
}

static void
test_resolve (void **state)
{
   const double ratios[] = { 0.25, 1.5 };
   const double close[] = { 0.5, 0.5000000001 };
   const uint64_t sizes[] = { 512 * 1024, 64 << 20 };
   uint64_t out[2];
   bson_error_t e;

   /* round(ratio x on-disk) */
   assert_true (lab_scan_sweep_resolve (NULL, ratios, 2, 659e6, out, &e));
   assert_true (out[0] == 164750000ull && out[1] == 988500000ull);
   assert_true (lab_scan_sweep_resolve (sizes + 1, NULL, 1, 0, out, &e)); /* sizes need no on-disk size */
   assert_true (out[0] == 64ull << 20);
   /* under the engine's minimum */
   assert_false (lab_scan_sweep_resolve (sizes, NULL, 2, 0, out, &e));
   assert_int_equal (e.domain, LAB_ERROR_USAGE);
   assert_non_null (strstr (e.message, "minimum cache of 1MiB"));
   assert_false (lab_scan_sweep_resolve (NULL, ratios, 2, 2e6, out, &e));
   assert_non_null (strstr (e.message, "at least 0.524"));
   /* two ratios, one cache */
   assert_false (lab_scan_sweep_resolve (NULL, close, 2, 100e6, out, &e));
   assert_non_null (strstr (e.message, "both give a cache of 50000000 bytes"));
   /* ratios need the size */
   assert_false (lab_scan_sweep_resolve (NULL, ratios, 2, 0, out, &e));
   assert_non_null (strstr (e.message, "use --cache-sizes"));
}

static void
test_opts_check (void **state)
{
   lab_scan_opts_t o;
   const uint64_t sizes[] = { 64 << 20 };
   const double ratios[] = { 1 };
   bson_error_t e;

   lab_scan_opts_init (&o);
   assert_int_equal (o.locality_sample, 1000);
   assert_true (lab_scan_sweep_opts_check (&o, "mongodb://h/db", &e)); /* no sweep */
   o.cache_sizes = sizes;
   o.nsweep = 1;
   assert_true (lab_scan_sweep_opts_check (&o, "wiredtiger:/tmp/x", &e));
   assert_false (lab_scan_sweep_opts_check (&o, "mongodb://h/db", &e));
   assert_non_null (strstr (e.message, "add --server-cache-sweep"));
   o.server_cache_sweep = true;
   /* a server's points must start cold: without --cold and --restart-cmd a point inherits the cache */
   assert_false (lab_scan_sweep_opts_check (&o, "mongodb://h/db", &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING));
   assert_non_null (strstr (e.message, "--cold"));
   o.cold = true;
   assert_false (lab_scan_sweep_opts_check (&o, "mongodb://h/db", &e));
   assert_non_null (strstr (e.message, "--restart-cmd"));
   o.restart_cmd = "systemctl restart mongod";
   assert_true (lab_scan_sweep_opts_check (&o, "mongodb://h/db", &e));
   assert_true (lab_scan_sweep_opts_check (&o, "wiredtiger:/tmp/x", &e)); /* the embedded store reopens */
   o.cache_ratios = ratios;
   assert_false (lab_scan_sweep_opts_check (&o, "wiredtiger:/tmp/x", &e));
   assert_non_null (strstr (e.message, "give one of them"));
   o.cache_ratios = NULL;
   o.cache_sizes = NULL;
   o.nsweep = 0;
   assert_false (lab_scan_sweep_opts_check (&o, "wiredtiger:/tmp/x", &e));
   assert_non_null (strstr (e.message, "needs --cache-sizes or --cache-ratios"));
}

static void
test_locality_pages (void **state)
{
   const int64_t clustered[] = { 101, 102, 103, 104, 105 };
   const int64_t scattered[] = { 1, 150, 300, 450, 900 };
   const int64_t one[] = { 7 };

   /* 100 rows per page from RecordId 1: rows 101..105 all on page 1 */
   assert_int_equal (lab_scan_locality_pages (clustered, 5, 1, 100), 1);
   /* ... and across a boundary: 98..102 on pages 0 and 1 */
   assert_int_equal (lab_scan_locality_pages ((const int64_t[]){ 98, 99, 100, 101, 102 }, 5, 1, 100), 2);
   assert_int_equal (lab_scan_locality_pages (scattered, 5, 1, 100), 5);
   /* a document bigger than a page (a quarter of a row per page) spans 4 pages */
   assert_int_equal (lab_scan_locality_pages (one, 1, 7, 0.25), 4);
   /* two consecutive big documents: 8 pages, none counted twice */
   assert_int_equal (lab_scan_locality_pages ((const int64_t[]){ 7, 8 }, 2, 7, 0.25), 8);
   /* 1.5 documents per page: documents 0 and 1 share page 0, document 1 reaches page 1 */
   assert_int_equal (lab_scan_locality_pages ((const int64_t[]){ 1, 2 }, 2, 1, 1.5), 2);
   assert_int_equal (lab_scan_locality_pages (clustered, 0, 1, 100), 0);
   assert_int_equal (lab_scan_locality_pages (clustered, 5, 1, 0), 0);
}

static void
test_locality_sample (void **state)
{
   int64_t a[1000], b[1000], small[10];
   int64_t i, n;

   n = lab_scan_locality_sample (38000, 1000, a);
   assert_int_equal (n, 1000);
   for (i = 1; i < n; i++) {
      assert_true (a[i] > a[i - 1]);
   }
   assert_true (a[0] >= 0 && a[n - 1] < 38000);
   /* spread over the whole range, not the first keys */
   assert_true (a[n - 1] > 30000 && a[0] < 1000);
   /* the same masters every time */
   assert_int_equal (lab_scan_locality_sample (38000, 1000, b), 1000);
   assert_memory_equal (a, b, sizeof a);
   /* fewer keys than the sample: all of them */
   assert_int_equal (lab_scan_locality_sample (10, 1000, small), 10);
   for (i = 0; i < 10; i++) {
      assert_int_equal (small[i], i);
   }
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_parse_lists),     cmocka_unit_test (test_resolve),
      cmocka_unit_test (test_opts_check),      cmocka_unit_test (test_locality_pages),
      cmocka_unit_test (test_locality_sample),
   };
   return lab_test_run_group ("scan_sweep_unit", tests, NULL, NULL);
}
