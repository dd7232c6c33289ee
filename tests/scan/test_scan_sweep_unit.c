/*
 * test_scan_sweep_unit.c -- the pure parts of the cache sweep (scan/sweep.c, scan/measure/locality.c): the
 * --cache-sizes / --cache-ratios lists (parsed by core/opts.c from scancmp's option table), the caches they
 * resolve to (and what is refused), the pages a master's RecordIds occupy, and the fixed-seed sample of
 * masters.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/store.h"
#include "scan/scan.h"

#include <string.h>

/* the lists as scancmp's option table parses them (core/opts.h) */
#define PARSE_SIZES(s)                                                                                       \
   lab_parse_sizes (s, "--cache-sizes", "cache sizes", "give e.g. 64MiB,256MiB,1GiB", &sizes, &e)
#define PARSE_RATIOS(s)                                                                                      \
   lab_parse_ratios (s, "--cache-ratios", "ratios", "a cache as a fraction, e.g. 0.25,1,2", &ratios, &e)

static void
test_parse_lists (void **state)
{
   lab_sizes_t sizes = { 0 };
   lab_ratios_t ratios = { 0 };
   bson_error_t e;

   assert_true (PARSE_SIZES ("64MiB,256MiB,1GiB"));
   assert_int_equal (sizes.n, 3);
   assert_true (sizes.v[0] == 64ull << 20 && sizes.v[1] == 256ull << 20 && sizes.v[2] == 1ull << 30);
   assert_true (PARSE_SIZES ("8M"));
   assert_int_equal (sizes.n, 1);

   assert_false (PARSE_SIZES ("1GiB,256MiB"));
   assert_int_equal (e.domain, LAB_ERROR_USAGE);
   assert_non_null (strstr (e.message, "256MiB is smaller than the one before it"));
   assert_null (sizes.v);
   assert_int_equal (sizes.n, 0);
   assert_false (PARSE_SIZES ("64MiB,64M"));
   assert_non_null (strstr (e.message, "the same as"));
   assert_false (PARSE_SIZES ("64MiB,"));
   assert_non_null (strstr (e.message, "empty item"));
   assert_false (PARSE_SIZES ("64Mo"));
   assert_int_equal (e.domain, LAB_ERROR_USAGE);

   assert_true (PARSE_RATIOS ("0.1,0.5,1,2"));
   assert_int_equal (ratios.n, 4);
   assert_true (ratios.v[0] == 0.1 && ratios.v[3] == 2);
   assert_false (PARSE_RATIOS ("1,0.5"));
   assert_non_null (strstr (e.message, "smaller than"));
   assert_false (PARSE_RATIOS ("0.5,0.5"));
   assert_non_null (strstr (e.message, "the same as"));
   assert_false (PARSE_RATIOS ("-1"));
   assert_false (PARSE_RATIOS ("nan"));
   assert_false (PARSE_RATIOS ("1x"));
   assert_non_null (strstr (e.message, "\"1x\" is not a positive number"));
   lab_sizes_free (&sizes);
   lab_ratios_free (&ratios);
}

static void
test_resolve (void **state)
{
   double r[] = { 0.25, 1.5 };
   double c[] = { 0.5, 0.5000000001 };
   uint64_t s[] = { 512 * 1024, 64 << 20 };
   const lab_ratios_t ratios = { r, 2 }, close = { c, 2 }, no_ratios = { 0 };
   const lab_sizes_t sizes = { s, 2 }, size1 = { s + 1, 1 }, no_sizes = { 0 };
   uint64_t out[2];
   double ratio[2];
   bson_error_t e;

   /* round(ratio x on-disk), and the ratio of that cache, converted once */
   assert_true (lab_scan_sweep_resolve (&no_sizes, &ratios, 659e6, out, ratio, &e));
   assert_true (out[0] == 164750000ull && out[1] == 988500000ull);
   assert_true (ratio[0] == 164750000.0 / 659e6 && ratio[1] == 988500000.0 / 659e6);
   assert_true (
      lab_scan_sweep_resolve (&size1, &no_ratios, 0, out, ratio, &e)); /* sizes need no on-disk size */
   assert_true (out[0] == 64ull << 20);
   assert_true (ratio[0] == 0); /* ... and have no ratio without it */
   /* under the engine's minimum */
   assert_false (lab_scan_sweep_resolve (&sizes, &no_ratios, 0, out, NULL, &e));
   assert_int_equal (e.domain, LAB_ERROR_USAGE);
   assert_non_null (strstr (e.message, "minimum cache of 1MiB"));
   assert_false (lab_scan_sweep_resolve (&no_sizes, &ratios, 2e6, out, NULL, &e));
   assert_non_null (strstr (e.message, "at least 0.524"));
   /* two ratios, one cache */
   assert_false (lab_scan_sweep_resolve (&no_sizes, &close, 100e6, out, NULL, &e));
   assert_non_null (strstr (e.message, "both give a cache of 50000000 bytes"));
   /* ratios need the size */
   assert_false (lab_scan_sweep_resolve (&no_sizes, &ratios, 0, out, NULL, &e));
   assert_non_null (strstr (e.message, "use --cache-sizes"));
}

static void
test_opts_check (void **state)
{
   lab_scan_opts_t o;
   uint64_t sizes[] = { 64 << 20 };
   double ratios[] = { 1 };
   bson_error_t e;

   lab_scan_opts_init (&o);
   assert_int_equal (o.locality_sample, 1000);
   assert_true (lab_scan_sweep_opts_check (&o, "mongodb://h/db", &e)); /* no sweep */
   o.cache_sizes = (lab_sizes_t){ sizes, 1 };
   assert_true (lab_scan_sweep_opts_check (&o, "wiredtiger:/tmp/x", &e));
   assert_false (lab_scan_sweep_opts_check (&o, "mongodb://h/db", &e));
   assert_non_null (strstr (e.message, "add --server-cache-sweep"));
   /* a prediction's caches are modelled, none is set: it needs no leave to sweep a server */
   o.predict = true;
   assert_true (lab_scan_sweep_opts_check (&o, "mongodb://h/db", &e));
   o.predict = false;
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
   o.cache_ratios = (lab_ratios_t){ ratios, 1 };
   assert_false (lab_scan_sweep_opts_check (&o, "wiredtiger:/tmp/x", &e));
   assert_non_null (strstr (e.message, "give one of them"));
   o.cache_ratios = (lab_ratios_t){ 0 };
   o.cache_sizes = (lab_sizes_t){ 0 };
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
