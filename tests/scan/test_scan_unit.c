/*
 * test_scan_unit.c -- unit tests of scan/'s pure parts: diskstats parsing and the iostat arithmetic on
 * recorded snapshots, device resolution on sysfs/mountinfo fixtures, key spreading/segmentation/parsing,
 * percentiles and the histogram; plus the small effectful helpers (drop-caches hook, restart command,
 * residency) and the table renderer.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "core/opts.h"
#include "scan/measure/measure.h"
#include "scan/topology.h"
#include "scan/scan.h"
#include "store/deploy.h"

#include <errno.h>
#include <mongoc/mongoc.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

static char *
slurp (const char *name)
{
   char *path = bson_strdup_printf ("%s/%s", getenv ("LAB_SCAN_DATA"), name);
   FILE *f = fopen (path, "r");
   char *buf = bson_malloc0 (65536);
   assert_non_null (f);
   fread (buf, 1, 65535, f);
   fclose (f);
   bson_free (path);
   return buf;
}

static void
write_file (const char *path, const char *text)
{
   FILE *f = fopen (path, "w");
   assert_non_null (f);
   fputs (text, f);
   fclose (f);
}

/* ---- diskstats ---- */

static void
test_diskstats_parse (void **state)
{
   char *a = slurp ("diskstats-a.txt");
   lab_scan_diskstats_t d;
   bson_error_t e;

   assert_true (lab_scan_diskstats_parse (a, "vda", &d, &e));
   assert_int_equal (d.reads, 34248);
   assert_int_equal (d.reads_merged, 6927);
   assert_int_equal (d.read_sectors, 1906042);
   assert_int_equal (d.read_time_ms, 19759);
   assert_int_equal (d.writes, 8875);
   assert_int_equal (d.io_ticks_ms, 10636);
   /* vda1 is its own line, not a prefix match of vda */
   assert_true (lab_scan_diskstats_parse (a, "vda1", &d, &e));
   assert_int_equal (d.reads, 30000);
   assert_false (lab_scan_diskstats_parse (a, "sdq", &d, &e));
   assert_non_null (strstr (e.message, "sdq"));
   assert_non_null (strstr (e.message, "--device"));
   assert_true (lab_error_is (&e, LAB_ERROR_SCAN, LAB_SCAN_ERR_NOT_IN_DISKSTATS));
   assert_false (lab_scan_diskstats_parse (" 8 0 sda 1 2 3\n", "sda", &d, &e));
   assert_non_null (strstr (e.message, "fields"));
   assert_true (lab_error_is (&e, LAB_ERROR_SCAN, LAB_SCAN_ERR_BAD_DISKSTATS));
   bson_free (a);
}

static void
test_diskstats_delta (void **state)
{
   char *a = slurp ("diskstats-a.txt");
   char *b = slurp ("diskstats-b.txt");
   lab_scan_diskstats_t sa, sb;
   lab_scan_diskstats_delta_t d;
   bson_error_t e;

   assert_true (lab_scan_diskstats_parse (a, "vda", &sa, &e));
   assert_true (lab_scan_diskstats_parse (b, "vda", &sb, &e));
   lab_scan_diskstats_delta (&sa, &sb, 2.0, &d);
   /* 2000 reads, 80000 sectors, 4000 ms of read time, 500 ms of io ticks in 2 s */
   assert_int_equal (d.reads, 2000);
   assert_int_equal (d.read_bytes, 80000ull * 512);
   assert_true (d.reads_per_s == 1000.0);
   assert_true (d.read_kb_s == 20000.0);                 /* iostat: Δ sectors / Δt / 2 */
   assert_true (d.read_mb_s == 80000.0 * 512 / 2 / 1e6); /* 10.24 MB/s */
   assert_true (d.read_await_ms == 2.0);
   assert_true (d.avg_read_bytes == 20480.0);
   assert_true (d.util_pct == 25.0);
   /* no reads: await and request size unknown */
   lab_scan_diskstats_delta (&sa, &sa, 1.0, &d);
   assert_true (d.read_await_ms < 0 && d.avg_read_bytes < 0);
   assert_true (d.reads_per_s == 0.0);
   /* a 32-bit counter that wrapped */
   {
      lab_scan_diskstats_t w1 = sa, w2 = sa;
      w1.reads = UINT32_MAX - 9;
      w2.reads = 10;
      lab_scan_diskstats_delta (&w1, &w2, 1.0, &d);
      assert_int_equal (d.reads, 20);
      /* a 64-bit counter that went backwards: a reset, not a huge delta */
      w1.reads = 1ull << 40;
      lab_scan_diskstats_delta (&w1, &w2, 1.0, &d);
      assert_int_equal (d.reads, 0);
   }
   /* util is capped at 100% (io_ticks can run slightly ahead of wall time) */
   {
      lab_scan_diskstats_t u2 = sa;
      u2.io_ticks_ms += 1500;
      lab_scan_diskstats_delta (&sa, &u2, 1.0, &d);
      assert_true (d.util_pct == 100.0);
   }
   bson_free (a);
   bson_free (b);
}

/* ---- device resolution ---- */

typedef struct {
   char *root, *sysfs;
   unsigned major, minor; /* st_dev of root */
} fx_t;

static void
mk (const char *sysfs, const char *sub)
{
   char *cmd = bson_strdup_printf ("mkdir -p '%s%s'", sysfs, sub);
   assert_int_equal (system (cmd), 0);
   bson_free (cmd);
}

static fx_t *
fixture (void)
{
   fx_t *fx = bson_malloc0 (sizeof *fx);
   struct stat st;
   char *p;

   fx->root = lab_test_tmpdir ("scan-device");
   fx->sysfs = bson_strdup_printf ("%s/sys", fx->root);
   assert_int_equal (stat (fx->root, &st), 0);
   fx->major = major (st.st_dev);
   fx->minor = minor (st.st_dev);
   mk (fx->sysfs, "/devices/pci0/block/fakedisk/fakedisk3");
   mk (fx->sysfs, "/devices/virtual/block/wholedisk");
   mk (fx->sysfs, "/dev/block");
   mk (fx->sysfs, "/class/block");
   p = bson_strdup_printf ("%s/devices/pci0/block/fakedisk/dev", fx->sysfs);
   write_file (p, "8:0\n");
   bson_free (p);
   p = bson_strdup_printf ("%s/devices/pci0/block/fakedisk/fakedisk3/dev", fx->sysfs);
   write_file (p, "8:3\n");
   bson_free (p);
   p = bson_strdup_printf ("%s/devices/pci0/block/fakedisk/fakedisk3/partition", fx->sysfs);
   write_file (p, "3\n");
   bson_free (p);
   p = bson_strdup_printf ("%s/devices/virtual/block/wholedisk/dev", fx->sysfs);
   write_file (p, "9:0\n");
   bson_free (p);
   p = bson_strdup_printf ("%s/class/block/fakedisk", fx->sysfs);
   assert_int_equal (symlink ("../../devices/pci0/block/fakedisk", p), 0);
   bson_free (p);
   p = bson_strdup_printf ("%s/class/block/fakedisk3", fx->sysfs);
   assert_int_equal (symlink ("../../devices/pci0/block/fakedisk/fakedisk3", p), 0);
   bson_free (p);
   p = bson_strdup_printf ("%s/class/block/wholedisk", fx->sysfs);
   assert_int_equal (symlink ("../../devices/virtual/block/wholedisk", p), 0);
   bson_free (p);
   return fx;
}

static void
link_devnum (fx_t *fx, unsigned ma, unsigned mi, const char *target)
{
   char *p = bson_strdup_printf ("%s/dev/block/%u:%u", fx->sysfs, ma, mi);
   assert_int_equal (symlink (target, p), 0);
   bson_free (p);
}

static void
fixture_free (fx_t *fx)
{
   lab_test_rmtree (fx->root);
   bson_free (fx->root);
   bson_free (fx->sysfs);
   bson_free (fx);
}

static void
test_device_partition (void **state)
{
   fx_t *fx = fixture ();
   lab_scan_device_t d;
   bson_error_t e;

   link_devnum (fx, fx->major, fx->minor, "../../devices/pci0/block/fakedisk/fakedisk3");
   assert_true (lab_scan_device_resolve (fx->root, NULL, fx->sysfs, "/nonexistent", &d, &e));
   assert_string_equal (d.name, "fakedisk");
   assert_int_equal (d.major, 8);
   assert_int_equal (d.minor, 0);
   assert_non_null (strstr (d.reason, "partition fakedisk3 of disk fakedisk"));
   fixture_free (fx);
}

static void
test_device_whole_disk (void **state)
{
   fx_t *fx = fixture ();
   lab_scan_device_t d;
   bson_error_t e;

   link_devnum (fx, fx->major, fx->minor, "../../devices/virtual/block/wholedisk");
   assert_true (lab_scan_device_resolve (fx->root, NULL, fx->sysfs, "/nonexistent", &d, &e));
   assert_string_equal (d.name, "wholedisk");
   assert_non_null (strstr (d.reason, "is block device wholedisk"));
   fixture_free (fx);
}

static void
test_device_mountinfo_fallback (void **state)
{
   fx_t *fx = fixture ();
   lab_scan_device_t d;
   bson_error_t e;
   char *mi = bson_strdup_printf ("%s/mountinfo", fx->root);
   char *text;

   /* st_dev is not in the fixture's dev/block: an overlay root whose source is /dev/fakedisk3, and a deeper
    * tmpfs mount elsewhere that must not match */
   text = bson_strdup_printf ("22 1 0:21 / /proc rw - proc proc rw\n"
                              "27 1 0:99 / / rw,relatime - overlay /dev/fakedisk3 rw,lowerdir=/a\n"
                              "28 27 0:98 / %s/other rw - tmpfs tmpfs rw\n",
                              fx->root);
   write_file (mi, text);
   bson_free (text);
   assert_true (lab_scan_device_resolve (fx->root, NULL, fx->sysfs, mi, &d, &e));
   assert_string_equal (d.name, "fakedisk");
   assert_non_null (strstr (d.reason, "not a block device"));
   assert_non_null (strstr (d.reason, "/dev/fakedisk3"));

   /* the mount's own M:m resolves: that wins */
   text = bson_strdup_printf ("27 1 0:99 / / rw - ext4 /dev/whatever rw\n"
                              "30 27 9:0 / %s rw - ext4 something rw\n",
                              fx->root);
   write_file (mi, text);
   bson_free (text);
   link_devnum (fx, 9, 0, "../../devices/virtual/block/wholedisk");
   assert_true (lab_scan_device_resolve (fx->root, NULL, fx->sysfs, mi, &d, &e));
   assert_string_equal (d.name, "wholedisk");

   /* nothing names a disk: a clear error naming --device */
   write_file (mi, "27 1 0:99 / / rw - overlay overlay rw,lowerdir=/a\n");
   assert_false (lab_scan_device_resolve (fx->root, NULL, fx->sysfs, mi, &d, &e));
   assert_non_null (strstr (e.message, "--device"));
   assert_non_null (strstr (e.message, "overlay"));
   assert_true (lab_error_is (&e, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_DEVICE));
   bson_free (mi);
   fixture_free (fx);
}

static void
test_device_override (void **state)
{
   fx_t *fx = fixture ();
   lab_scan_device_t d;
   bson_error_t e;

   assert_true (lab_scan_device_resolve (fx->root, "/dev/wholedisk", fx->sysfs, "/nonexistent", &d, &e));
   assert_string_equal (d.name, "wholedisk");
   assert_int_equal (d.major, 9);
   assert_non_null (strstr (d.reason, "--device"));
   assert_false (lab_scan_device_resolve (fx->root, "nosuchdisk", fx->sysfs, "/nonexistent", &d, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_non_null (strstr (e.message, "nosuchdisk"));
   fixture_free (fx);
}

static void
test_device_this_machine (void **state)
{
   lab_scan_device_t d;
   lab_scan_diskstats_t s;
   bson_error_t e;
   char *dir = lab_test_tmpdir ("scan-device-real");

   /* whatever this machine's disk is, the resolved name must be a line of /proc/diskstats */
   assert_true (lab_scan_device_resolve (dir, NULL, NULL, NULL, &d, &e));
   assert_true (d.name[0] != '\0');
   if (!lab_scan_diskstats_read (NULL, d.name, &s, &e)) {
      fail_msg ("resolved %s (%s) but: %s", d.name, d.reason, e.message);
   }
   lab_test_rmtree (dir);
   bson_free (dir);
}

/* ---- keys ---- */

static void
ints (bson_value_t *v, int n)
{
   int i;
   for (i = 0; i < n; i++) {
      v[i].value_type = BSON_TYPE_INT32;
      v[i].value.v_int32 = i * 10;
   }
}

static void
test_keys_segment (void **state)
{
   int64_t s[5];
   int64_t t[4];
   int64_t u[2];

   lab_scan_keys_segment (10, 4, s);
   assert_int_equal (s[0], 0);
   assert_int_equal (s[1], 2);
   assert_int_equal (s[2], 5);
   assert_int_equal (s[3], 7);
   assert_int_equal (s[4], 10);
   /* fewer keys than workers: some segments are empty, none overlaps */
   lab_scan_keys_segment (2, 3, t);
   assert_int_equal (t[0], 0);
   assert_int_equal (t[1], 0);
   assert_int_equal (t[2], 1);
   assert_int_equal (t[3], 2);
   lab_scan_keys_segment (7, 1, u);
   assert_int_equal (u[0], 0);
   assert_int_equal (u[1], 7);
}

/* test_keys_load_order -- the shuffle is a permutation, the same for the same seed and another for another
 * seed; every order deals each key to exactly one worker (key order: the contiguous segments of
 * lab_scan_keys_segment; random: every parallel-th position of the shuffle). */
static void
test_keys_load_order (void **state)
{
   enum { N = 1003, P = 4 };
   int64_t a[N], b[N], c[N], seg[P + 1];
   int seen[N], differ = 0, o, w, i;

   (void)state;
   lab_scan_keys_shuffle (N, 7, a);
   lab_scan_keys_shuffle (N, 7, b);
   lab_scan_keys_shuffle (N, 8, c);
   memset (seen, 0, sizeof seen);
   for (i = 0; i < N; i++) {
      assert_true (a[i] >= 0 && a[i] < N);
      seen[a[i]]++;
      assert_int_equal (a[i], b[i]);
      differ += a[i] != c[i];
   }
   for (i = 0; i < N; i++) {
      assert_int_equal (seen[i], 1);
   }
   assert_true (differ > N / 2);
   for (i = 0, differ = 0; i < N; i++) { /* a shuffle, not the identity */
      differ += a[i] != i;
   }
   assert_true (differ > N / 2);
   lab_scan_keys_segment (N, P, seg);
   for (o = LAB_LOAD_ORDER_KEY; o <= LAB_LOAD_ORDER_RANDOM; o++) {
      memset (seen, 0, sizeof seen);
      for (w = 0; w < P; w++) {
         int64_t first, end, stride, k, n = 0;
         lab_scan_keys_share ((lab_scan_load_order_t)o, N, P, w, &first, &end, &stride);
         if (o == LAB_LOAD_ORDER_KEY) {
            assert_int_equal (first, seg[w]);
            assert_int_equal (end, seg[w + 1]);
            assert_int_equal (stride, 1);
         }
         for (k = first; k < end; k += stride, n++) {
            seen[o == LAB_LOAD_ORDER_RANDOM ? a[k] : k]++;
         }
         assert_true (n == N / P || n == N / P + 1); /* shares differ by at most one */
      }
      for (i = 0; i < N; i++) {
         assert_int_equal (seen[i], 1);
      }
   }
   assert_string_equal (lab_scan_load_order_names ()[LAB_LOAD_ORDER_BOTH], "both");
}

static void
test_keys_spread (void **state)
{
   bson_value_t v[10];
   int64_t n = 10;

   ints (v, 10);
   lab_scan_keys_spread (v, &n, 4);
   assert_int_equal (n, 4);
   /* first and last kept, evenly spread: indexes 0, 3, 6, 9 */
   assert_int_equal (v[0].value.v_int32, 0);
   assert_int_equal (v[1].value.v_int32, 30);
   assert_int_equal (v[2].value.v_int32, 60);
   assert_int_equal (v[3].value.v_int32, 90);
   n = 10;
   ints (v, 10);
   lab_scan_keys_spread (v, &n, 0);
   assert_int_equal (n, 10);
   lab_scan_keys_spread (v, &n, 11);
   assert_int_equal (n, 10);
   lab_scan_keys_spread (v, &n, 1);
   assert_int_equal (n, 1);
   assert_int_equal (v[0].value.v_int32, 0);
   /* strings are freed when dropped (ASan checks the ownership) */
   {
      bson_value_t s[5];
      int i;
      n = 5;
      for (i = 0; i < 5; i++) {
         s[i].value_type = BSON_TYPE_UTF8;
         s[i].value.v_utf8.str = bson_strdup_printf ("k%d", i);
         s[i].value.v_utf8.len = 2;
      }
      lab_scan_keys_spread (s, &n, 2);
      assert_int_equal (n, 2);
      assert_string_equal (s[0].value.v_utf8.str, "k0");
      assert_string_equal (s[1].value.v_utf8.str, "k4");
      bson_value_destroy (&s[0]);
      bson_value_destroy (&s[1]);
   }
}

static void
test_keys_parse (void **state)
{
   bson_value_t v;
   bool skip;
   bson_error_t e;

   assert_true (lab_scan_keys_parse_line ("42\n", &v, &skip, &e));
   assert_false (skip);
   assert_int_equal (v.value_type, BSON_TYPE_INT32);
   assert_int_equal (v.value.v_int32, 42);
   assert_true (lab_scan_keys_parse_line ("9007199254740993", &v, &skip, &e));
   assert_int_equal (v.value_type, BSON_TYPE_INT64);
   assert_true (v.value.v_int64 == 9007199254740993ll);
   assert_true (lab_scan_keys_parse_line ("  \"A-1\"  \r\n", &v, &skip, &e));
   assert_int_equal (v.value_type, BSON_TYPE_UTF8);
   assert_string_equal (v.value.v_utf8.str, "A-1");
   bson_value_destroy (&v);
   assert_true (lab_scan_keys_parse_line ("B-2 unquoted", &v, &skip, &e));
   assert_int_equal (v.value_type, BSON_TYPE_UTF8);
   assert_string_equal (v.value.v_utf8.str, "B-2 unquoted");
   bson_value_destroy (&v);
   assert_true (lab_scan_keys_parse_line ("{\"$oid\": \"5f1d7a0b2c3e4f5a6b7c8d9e\"}", &v, &skip, &e));
   assert_int_equal (v.value_type, BSON_TYPE_OID);
   assert_true (lab_scan_keys_parse_line ("   \n", &v, &skip, &e));
   assert_true (skip);
   assert_false (lab_scan_keys_parse_line ("[1, 2]", &v, &skip, &e));
   assert_non_null (strstr (e.message, "[1, 2]"));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
}

static void
test_keys_file (void **state)
{
   char *dir = lab_test_tmpdir ("scan-keys");
   char *p = bson_strdup_printf ("%s/keys.txt", dir);
   bson_value_t *k;
   int64_t n;
   bson_error_t e;

   /* unsorted, with a duplicate across int32/int64/double (MongoDB compares numbers by value) */
   write_file (p, "30\n10\n\n20\n10.0\n5000000000\n");
   assert_true (lab_scan_keys_read_file (p, &k, &n, &e));
   assert_int_equal (n, 4);
   assert_int_equal (k[0].value.v_int32, 10);
   assert_int_equal (k[1].value.v_int32, 20);
   assert_int_equal (k[2].value.v_int32, 30);
   assert_true (k[3].value.v_int64 == 5000000000ll);
   lab_store_values_free (k, (int)n);

   write_file (p, "1\n2\n[3]\n");
   assert_false (lab_scan_keys_read_file (p, &k, &n, &e));
   assert_non_null (strstr (e.message, "line 3"));
   assert_non_null (strstr (e.message, p));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   write_file (p, "\n\n");
   assert_false (lab_scan_keys_read_file (p, &k, &n, &e));
   assert_non_null (strstr (e.message, "no key"));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_false (lab_scan_keys_read_file ("/nonexistent/keys", &k, &n, &e));
   assert_non_null (strstr (e.message, "/nonexistent/keys"));
   assert_true (lab_error_is (&e, LAB_ERROR_IO, ENOENT));
   lab_test_rmtree (dir);
   bson_free (p);
   bson_free (dir);
}

/* ---- latency ---- */

static void
test_percentiles (void **state)
{
   double v[100];
   lab_scan_latency_summary_t s;
   int i;

   for (i = 0; i < 100; i++) {
      v[i] = 100 - i; /* 100 .. 1, unsorted */
   }
   lab_scan_latency_summarize (v, 100, &s);
   assert_int_equal (s.count, 100);
   assert_true (s.min_ms == 1 && s.max_ms == 100);
   assert_true (s.mean_ms == 50.5);
   assert_true (s.p50_ms == 50.5);
   assert_true (fabs (s.p90_ms - 90.1) < 1e-9);
   assert_true (fabs (s.p95_ms - 95.05) < 1e-9);
   assert_true (fabs (s.p99_ms - 99.01) < 1e-9);
   {
      double one[1] = { 7 };
      double two[2] = { 1, 3 };
      assert_true (lab_scan_percentile (one, 1, 99) == 7);
      assert_true (lab_scan_percentile (two, 2, 50) == 2);
      assert_true (lab_scan_percentile (two, 2, 0) == 1);
      assert_true (lab_scan_percentile (two, 2, 100) == 3);
      assert_true (lab_scan_percentile (two, 0, 50) == 0);
   }
   lab_scan_latency_summarize (v, 0, &s);
   assert_int_equal (s.count, 0);
}

static void
test_histogram (void **state)
{
   double v[] = { 0.005, 0.01, 0.011, 0.7, 1.0, 1.5, 250, 1e9 };
   int64_t c[LAB_LATENCY_NBUCKETS];
   int64_t total = 0;
   int i;

   assert_true (lab_scan_latency_bucket_le (0) == 0.01);
   assert_true (fabs (lab_scan_latency_bucket_le (1) - 0.02) < 1e-12);
   assert_true (fabs (lab_scan_latency_bucket_le (2) - 0.05) < 1e-12);
   assert_true (fabs (lab_scan_latency_bucket_le (6) - 1.0) < 1e-12);
   assert_true (fabs (lab_scan_latency_bucket_le (LAB_LATENCY_NBUCKETS - 1) - 100000.0) < 1e-6);
   lab_scan_latency_histogram (v, 8, c);
   assert_int_equal (c[0], 2); /* 0.005 and 0.01 (le is inclusive) */
   assert_int_equal (c[1], 1); /* 0.011 */
   assert_int_equal (c[5], 0); /* (0.2, 0.5] */
   assert_int_equal (c[6], 2); /* (0.5, 1]: 0.7 and 1.0 */
   assert_int_equal (c[7], 1); /* (1, 2]: 1.5 */
   for (i = 0; i < LAB_LATENCY_NBUCKETS; i++) {
      total += c[i];
   }
   assert_int_equal (total, 8);
   assert_int_equal (c[LAB_LATENCY_NBUCKETS - 1], 1); /* 1e9 lands in the last bucket */
}

/* ---- cold helpers ---- */

static void
test_drop_caches_hook (void **state)
{
   char *dir = lab_test_tmpdir ("scan-drop");
   char *p = bson_strdup_printf ("%s/drop_caches", dir);
   char note[256];
   bool dropped;
   bson_error_t e;
   char buf[8] = "";
   FILE *f;

   write_file (p, "");
   setenv ("LAYOUTLAB_DROP_CACHES_PATH", p, 1);
   assert_true (lab_scan_drop_caches (LAB_DROP_YES, &dropped, note, sizeof note, &e));
   assert_true (dropped);
   assert_non_null (strstr (note, "dropped"));
   f = fopen (p, "r");
   assert_non_null (fgets (buf, sizeof buf, f));
   fclose (f);
   assert_string_equal (buf, "1");

   setenv ("LAYOUTLAB_DROP_CACHES_PATH", "/nonexistent-dir/drop_caches", 1);
   assert_true (lab_scan_drop_caches (LAB_DROP_AUTO, &dropped, note, sizeof note, &e));
   assert_false (dropped);
   assert_non_null (strstr (note, "not permitted"));
   assert_false (lab_scan_drop_caches (LAB_DROP_YES, &dropped, note, sizeof note, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_PERMISSION));
   assert_non_null (strstr (e.message, "--drop-caches"));
   assert_true (lab_scan_drop_caches (LAB_DROP_NO, &dropped, note, sizeof note, &e));
   assert_false (dropped);
   assert_non_null (strstr (note, "not requested"));
   unsetenv ("LAYOUTLAB_DROP_CACHES_PATH");
   lab_test_rmtree (dir);
   bson_free (p);
   bson_free (dir);
}

static void
test_run_command (void **state)
{
   bson_error_t e;

   assert_true (lab_scan_run_command ("true", "true", 5000, &e));
   assert_false (lab_scan_run_command ("exit 3", "exit 3", 5000, &e));
   assert_non_null (strstr (e.message, "exit code 3"));
   assert_non_null (strstr (e.message, "\"exit 3\""));
   assert_true (lab_error_is (&e, LAB_ERROR_SCAN, LAB_SCAN_ERR_RESTART_FAILED));
   assert_false (lab_scan_run_command ("sleep 30", "sleep 30", 300, &e));
   assert_non_null (strstr (e.message, "did not finish"));
   assert_non_null (strstr (e.message, "--restart-timeout"));
   assert_true (lab_error_is (&e, LAB_ERROR_SCAN, LAB_SCAN_ERR_RESTART_TIMEOUT));
}

static void
test_residency (void **state)
{
   char *dir = lab_test_tmpdir ("scan-resident");
   char *p = bson_strdup_printf ("%s/data.wt", dir);
   char *paths[3] = { p, NULL, NULL };
   int64_t res, total;
   bson_error_t e;
   char block[4096];
   int fd, i;

   memset (block, 'x', sizeof block);
   fd = open (p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
   assert_true (fd >= 0);
   for (i = 0; i < 64; i++) {
      assert_int_equal (write (fd, block, sizeof block), sizeof block);
   }
   fdatasync (fd);
   close (fd);
   assert_true (lab_scan_resident_bytes (paths, &res, &total, &e));
   assert_int_equal (total, 64 * 4096);
   assert_int_equal (res, 64 * 4096); /* just written: in the page cache */
   fd = open (p, O_RDONLY);
   assert_int_equal (posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED), 0);
   close (fd);
   assert_true (lab_scan_resident_bytes (paths, &res, &total, &e));
   assert_int_equal (res, 0);
   /* a missing file is skipped */
   paths[1] = "/nonexistent/file.wt";
   assert_true (lab_scan_resident_bytes (paths, &res, &total, &e));
   assert_int_equal (total, 64 * 4096);
   {
      char **files = NULL;
      assert_true (lab_scan_dir_files (dir, &files, &e));
      assert_non_null (files[0]);
      assert_null (files[1]);
      bson_strfreev (files);
   }
   lab_test_rmtree (dir);
   bson_free (p);
   bson_free (dir);
}

static void
test_read_ahead (void **state)
{
   fx_t *fx = fixture ();
   char *p;
   int kb = 0;

   (void)state;
   mk (fx->sysfs, "/block/fakedisk/queue");
   p = bson_strdup_printf ("%s/block/fakedisk/queue/read_ahead_kb", fx->sysfs);
   write_file (p, "128\n");
   assert_true (lab_scan_device_read_ahead_kb (fx->sysfs, "fakedisk", &kb));
   assert_int_equal (kb, 128);
   write_file (p, "garbage\n");
   assert_false (lab_scan_device_read_ahead_kb (fx->sysfs, "fakedisk", &kb));
   assert_false (lab_scan_device_read_ahead_kb (fx->sysfs, "nosuchdisk", &kb));
   bson_free (p);
   fixture_free (fx);
}

/* ---- the results entry of one measured layout ---- */

/* count_keys -- how many fields the document at dotted `path` of d has (-1: not a document or array). */
static int
count_keys (const bson_t *d, const char *path)
{
   bson_iter_t it, child;
   int n = 0;

   if (!bson_iter_init (&it, d) || !bson_iter_find_descendant (&it, path, &child) ||
       !(BSON_ITER_HOLDS_DOCUMENT (&child) || BSON_ITER_HOLDS_ARRAY (&child)) ||
       !bson_iter_recurse (&child, &it)) {
      return -1;
   }
   while (bson_iter_next (&it)) {
      n++;
   }
   return n;
}

/* measured -- a hand-filled measurement: a server run with device and engine counters, 2 workers, 2
 * samples. */
static void
measured (lab_scan_layout_measure_t *m, lab_scan_worker_totals_t *w, lab_scan_sample_t *smp)
{
   memset (m, 0, sizeof *m);
   m->run = 2;
   m->layout = "folded";
   m->collection = "detail_coll";
   m->order_in_run = 1;
   bson_strncpy (m->started_at, "2026-01-02T03:04:05Z", sizeof m->started_at);
   m->elapsed_s = 4.0;
   m->cold_requested = true;
   m->engine_restarted = true;
   m->server_restarted = true;
   m->caches_dropped = true;
   bson_strncpy (m->drop_caches_note, "dropped (root)", sizeof m->drop_caches_note);
   m->server_facts = true;
   m->server_pid = 4242;
   m->server_uptime_s = -1;
   m->server_start_ms = INT64_C (1764536400123);
   bson_strncpy (m->member, "db1.example.net:27017", sizeof m->member);
   m->restart = "restarted";
   bson_strncpy (m->restart_reason, "db1 started 90 s after", sizeof m->restart_reason);
   m->resident_bytes_before = 25;
   m->file_bytes = 200;
   m->keys = 10;
   m->keys_unmatched = 2;
   m->docs = 10;
   m->rows = 1300;
   m->bytes_returned = 8000000;
   m->digest = 1234;
   m->have_disk = true;
   m->disk.reads = 400;
   m->disk.read_bytes = 4096000;
   m->disk.read_time_ms = 800;
   m->disk.io_ticks_ms = 3000;
   m->disk.reads_per_s = 100;
   m->disk.read_mb_s = 1.024;
   m->disk.avg_read_bytes = 10240;
   m->disk.read_await_ms = 2;
   m->disk.util_pct = 75;
   m->have_engine = true;
   m->engine_before = (lab_store_engine_stats_t){
      .block_reads = 5, .block_read_bytes = 100, .cache_read_bytes = -1, .cache_pages_read = -1
   };
   m->engine_after = (lab_store_engine_stats_t){
      .block_reads = 45, .block_read_bytes = 900, .cache_read_bytes = 7, .cache_pages_read = -1
   };
   m->server_rss_peak_bytes = 1000;
   m->cache_peak_bytes = 50;
   m->cache_max_bytes = 200;
   m->cpu_s = 3.0;
   m->cpu_cores = 2;
   m->state = (lab_scan_state_t){ 520000, 177000000 };
   m->latency = (lab_scan_latency_summary_t){ 10, 0.5, 1.5, 1.0, 2.0, 3.0, 4.0, 5.0 };
   m->histogram[3] = 4;
   m->histogram[5] = 6;
   w[0] = (lab_scan_worker_totals_t){ 6, 6, 700, 3.5 };
   w[1] = (lab_scan_worker_totals_t){ 4, 4, 600, 4.0 };
   m->workers = w;
   m->nworkers = 2;
   memset (smp, 0, 2 * sizeof *smp);
   smp[0].t_s = 1.0;
   smp[0].have_disk = true;
   smp[0].disk.reads_per_s = 150;
   smp[0].disk.read_mb_s = 0.9;
   smp[0].disk.reads = 150;
   smp[0].disk.read_await_ms = 1.5;
   smp[0].rss_bytes = 900;
   smp[0].cache_bytes = -1;
   smp[0].engine_block_reads_per_s = -1;
   smp[0].engine_read_mb_s = 2.5;
   smp[0].cpu_cores_busy = 1.5;
   smp[0].docs_per_s = 3;
   smp[0].keys_done = 3;
   smp[1].t_s = 4.0;
   smp[1].have_disk = true;
   smp[1].disk.reads_per_s = 90;
   smp[1].disk.read_mb_s = 1.6;
   smp[1].rss_bytes = -1;
   smp[1].cache_bytes = 40;
   smp[1].engine_block_reads_per_s = -1;
   smp[1].engine_read_mb_s = -1;
   smp[1].cpu_cores_busy = -1;
   smp[1].keys_done = 10;
   m->samples = smp;
   m->nsamples = 2;
}

static void
test_layout_entry (void **state)
{
   lab_scan_layout_measure_t m;
   lab_scan_worker_totals_t w[2];
   lab_scan_sample_t smp[2];
   bson_t e = BSON_INITIALIZER;
   const char *order[] = { "run",
                           "layout",
                           "collection",
                           "order_in_run",
                           "load_order",
                           "started_at",
                           "elapsed_s",
                           "state",
                           "cold",
                           "docs",
                           "rows",
                           "keys",
                           "keys_unmatched",
                           "bytes_returned",
                           "digest",
                           "read_requests",
                           "read_bytes",
                           "read_time_ms",
                           "io_ticks_ms",
                           "engine",
                           "rates",
                           "memory",
                           "cpu",
                           "latency_ms",
                           "workers",
                           "samples" };
   bson_iter_t it;
   size_t i = 0;

   (void)state;
   measured (&m, w, smp);
   lab_scan_layout_entry (&m, &e);
   /* the top-level fields, in the schema's order */
   assert_true (bson_iter_init (&it, &e));
   while (bson_iter_next (&it)) {
      assert_true (i < sizeof order / sizeof *order);
      assert_string_equal (bson_iter_key (&it), order[i++]);
   }
   assert_int_equal (i, sizeof order / sizeof *order);

   assert_int_equal (lab_test_json_num (&e, "run"), 2);
   assert_string_equal (lab_test_json_str (&e, "layout"), "folded");
   assert_string_equal (lab_test_json_str (&e, "collection"), "detail_coll");
   assert_int_equal (lab_test_json_num (&e, "order_in_run"), 1);
   assert_string_equal (lab_test_json_str (&e, "started_at"), "2026-01-02T03:04:05Z");
   assert_true (lab_test_json_num (&e, "elapsed_s") == 4.0);
   assert_string_equal (lab_test_json_str (&e, "digest"), "00000000000004d2"); /* m.digest 1234, hex */
   /* the collection when the measurement started (before the cold step) */
   assert_int_equal (lab_test_json_num (&e, "state.count"), 520000);
   assert_int_equal (lab_test_json_num (&e, "state.data_size_bytes"), 177000000);

   assert_true (lab_test_json_bool (&e, "cold.requested"));
   assert_true (lab_test_json_bool (&e, "cold.engine_restarted"));
   assert_true (lab_test_json_bool (&e, "cold.server_restarted"));
   assert_true (lab_test_json_bool (&e, "cold.caches_dropped"));
   assert_string_equal (lab_test_json_str (&e, "cold.drop_caches_note"), "dropped (root)");
   assert_int_equal (lab_test_json_num (&e, "cold.server_pid"), 4242);
   assert_false (lab_test_json_has (&e, "cold.server_uptime_s")); /* unknown: left out */
   /* which member served the run, when its process started, and what the cold step found */
   assert_string_equal (lab_test_json_str (&e, "cold.server_started_at"), "2025-11-30T21:00:00.123Z");
   assert_string_equal (lab_test_json_str (&e, "cold.member"), "db1.example.net:27017");
   assert_string_equal (lab_test_json_str (&e, "cold.restart"), "restarted");
   assert_string_equal (lab_test_json_str (&e, "cold.restart_reason"), "db1 started 90 s after");
   assert_false (lab_test_json_bool (&e, "cold.member_changed"));
   assert_int_equal (lab_test_json_num (&e, "cold.resident_bytes_before"), 25);
   assert_int_equal (lab_test_json_num (&e, "cold.file_bytes"), 200);
   assert_true (lab_test_json_num (&e, "cold.resident_pct_before") == 12.5);

   assert_int_equal (lab_test_json_num (&e, "docs"), 10);
   assert_int_equal (lab_test_json_num (&e, "rows"), 1300);
   assert_int_equal (lab_test_json_num (&e, "keys"), 10);
   assert_int_equal (lab_test_json_num (&e, "keys_unmatched"), 2);
   assert_int_equal (lab_test_json_num (&e, "bytes_returned"), 8000000);
   assert_int_equal (lab_test_json_num (&e, "read_requests"), 400);
   assert_int_equal (lab_test_json_num (&e, "read_bytes"), 4096000);
   assert_int_equal (lab_test_json_num (&e, "read_time_ms"), 800);
   assert_int_equal (lab_test_json_num (&e, "io_ticks_ms"), 3000);
   /* only the engine counters known at both ends */
   assert_int_equal (count_keys (&e, "engine"), 2);
   assert_int_equal (lab_test_json_num (&e, "engine.block_reads"), 40);
   assert_int_equal (lab_test_json_num (&e, "engine.block_read_bytes"), 800);

   assert_true (lab_test_json_num (&e, "rates.read_requests_per_s_mean") == 100);
   assert_true (lab_test_json_num (&e, "rates.read_requests_per_s_peak") == 150); /* the busiest sample */
   assert_true (lab_test_json_num (&e, "rates.read_mb_s_mean") == 1.024);
   assert_true (lab_test_json_num (&e, "rates.read_mb_s_peak") == 1.6);
   assert_true (lab_test_json_num (&e, "rates.avg_read_request_bytes") == 10240);
   assert_true (lab_test_json_num (&e, "rates.read_await_ms") == 2);
   assert_true (lab_test_json_num (&e, "rates.util_pct_mean") == 75);
   assert_true (lab_test_json_num (&e, "rates.docs_per_s") == 2.5);
   assert_true (lab_test_json_num (&e, "rates.rows_per_s") == 325);
   assert_true (lab_test_json_num (&e, "rates.returned_mb_s") == 2.0);

   assert_int_equal (lab_test_json_num (&e, "memory.server_rss_peak_bytes"), 1000);
   assert_int_equal (lab_test_json_num (&e, "memory.cache_peak_bytes"), 50);
   assert_int_equal (lab_test_json_num (&e, "memory.cache_max_bytes"), 200);
   assert_true (lab_test_json_num (&e, "memory.cache_peak_pct") == 25);

   /* 3 CPU seconds over 4 s on 2 cores: 37.5% busy; the busiest interval kept 1.5 cores busy */
   assert_int_equal (count_keys (&e, "cpu"), 4);
   assert_true (lab_test_json_num (&e, "cpu.process_s") == 3.0);
   assert_int_equal (lab_test_json_num (&e, "cpu.cores"), 2);
   assert_true (lab_test_json_num (&e, "cpu.busy_pct_mean") == 37.5);
   assert_true (lab_test_json_num (&e, "cpu.busy_pct_peak") == 75);

   assert_int_equal (lab_test_json_num (&e, "latency_ms.count"), 10);
   assert_true (lab_test_json_num (&e, "latency_ms.min") == 0.5);
   assert_true (lab_test_json_num (&e, "latency_ms.mean") == 1.5);
   assert_true (lab_test_json_num (&e, "latency_ms.p50") == 1.0);
   assert_true (lab_test_json_num (&e, "latency_ms.p99") == 4.0);
   assert_true (lab_test_json_num (&e, "latency_ms.max") == 5.0);
   /* the histogram runs from the first to the last non-empty bucket */
   assert_int_equal (count_keys (&e, "latency_ms.histogram"), 3);
   assert_true (lab_test_json_num (&e, "latency_ms.histogram.0.le_ms") == lab_scan_latency_bucket_le (3));
   assert_int_equal (lab_test_json_num (&e, "latency_ms.histogram.0.count"), 4);
   assert_int_equal (lab_test_json_num (&e, "latency_ms.histogram.1.count"), 0);
   assert_int_equal (lab_test_json_num (&e, "latency_ms.histogram.2.count"), 6);

   assert_int_equal (count_keys (&e, "workers"), 2);
   assert_int_equal (lab_test_json_num (&e, "workers.1.worker"), 1);
   assert_int_equal (lab_test_json_num (&e, "workers.1.keys"), 4);
   assert_int_equal (lab_test_json_num (&e, "workers.1.docs"), 4);
   assert_int_equal (lab_test_json_num (&e, "workers.1.rows"), 600);
   assert_true (lab_test_json_num (&e, "workers.0.elapsed_s") == 3.5);

   assert_int_equal (count_keys (&e, "samples"), 2);
   assert_true (lab_test_json_num (&e, "samples.0.t_s") == 1.0);
   assert_true (lab_test_json_num (&e, "samples.0.read_requests_per_s") == 150);
   assert_true (lab_test_json_num (&e, "samples.0.read_await_ms") == 1.5);
   assert_false (lab_test_json_has (&e, "samples.1.read_await_ms")); /* no reads in that interval */
   assert_int_equal (lab_test_json_num (&e, "samples.0.server_rss_bytes"), 900);
   assert_false (lab_test_json_has (&e, "samples.0.cache_bytes"));
   assert_false (lab_test_json_has (&e, "samples.1.server_rss_bytes"));
   assert_int_equal (lab_test_json_num (&e, "samples.1.cache_bytes"), 40);
   assert_true (lab_test_json_num (&e, "samples.0.cpu_busy_pct") == 75);
   assert_false (lab_test_json_has (&e, "samples.1.cpu_busy_pct")); /* unknown in that interval */
   assert_false (lab_test_json_has (&e, "samples.0.engine_block_reads_per_s"));
   assert_true (lab_test_json_num (&e, "samples.0.engine_read_mb_s") == 2.5);
   assert_int_equal (lab_test_json_num (&e, "samples.1.keys_done"), 10);
   /* reads but no io_ticks (a load shorter than the kernel's busy-time tick): %util unknown, not 0% */
   bson_reinit (&e);
   m.disk.io_ticks_ms = 0;
   m.disk.util_pct = 0;
   lab_scan_layout_entry (&m, &e);
   assert_false (lab_test_json_has (&e, "rates.util_pct_mean"));
   assert_true (lab_test_json_num (&e, "rates.read_requests_per_s_mean") == 100);
   /* no reads, no ticks: idle, 0% */
   bson_reinit (&e);
   m.disk.reads = 0;
   lab_scan_layout_entry (&m, &e);
   assert_true (lab_test_json_num (&e, "rates.util_pct_mean") == 0);
   bson_destroy (&e);
}

static void
test_layout_entry_unknowns (void **state)
{
   lab_scan_layout_measure_t m;
   lab_scan_worker_totals_t w[2];
   lab_scan_sample_t smp[2];
   bson_t e = BSON_INITIALIZER;

   (void)state;
   /* embedded, warm, no device, no engine counters, nothing resident known, no sample */
   measured (&m, w, smp);
   m.cold_requested = m.server_restarted = m.caches_dropped = false;
   m.server_facts = false;
   m.resident_bytes_before = m.file_bytes = -1;
   m.have_disk = false;
   m.have_engine = false;
   m.server_rss_peak_bytes = m.cache_peak_bytes = m.cache_max_bytes = -1;
   m.cpu_s = -1;
   m.state = (lab_scan_state_t){ -1, -1 }; /* the store could not tell */
   m.nsamples = 0;
   m.latency.count = 0;
   memset (m.histogram, 0, sizeof m.histogram);
   m.elapsed_s = 0;
   lab_scan_layout_entry (&m, &e);
   assert_false (lab_test_json_bool (&e, "cold.requested"));
   assert_false (lab_test_json_has (&e, "cold.server_pid"));
   assert_false (lab_test_json_has (&e, "cold.resident_bytes_before"));
   assert_false (lab_test_json_has (&e, "cold.resident_pct_before"));
   assert_false (lab_test_json_has (&e, "read_requests"));
   assert_false (lab_test_json_has (&e, "engine"));
   assert_false (lab_test_json_has (&e, "state"));
   assert_int_equal (count_keys (&e, "rates"), 0); /* no device, no elapsed time */
   assert_int_equal (count_keys (&e, "memory"), 0);
   assert_false (lab_test_json_has (&e, "cpu"));        /* no process measured (a remote server) */
   assert_int_equal (count_keys (&e, "latency_ms"), 2); /* count and the (empty) histogram */
   assert_int_equal (count_keys (&e, "latency_ms.histogram"), 0);
   assert_int_equal (count_keys (&e, "samples"), 0);
   /* a file size known as 0: the percentage is 0, not NaN */
   bson_reinit (&e);
   m.resident_bytes_before = m.file_bytes = 0;
   lab_scan_layout_entry (&m, &e);
   assert_true (lab_test_json_num (&e, "cold.resident_pct_before") == 0.0);
   /* CPU time known, but no elapsed time and no interval: no share of the cores */
   bson_reinit (&e);
   m.cpu_s = 0.25;
   lab_scan_layout_entry (&m, &e);
   assert_int_equal (count_keys (&e, "cpu"), 2);
   assert_true (lab_test_json_num (&e, "cpu.process_s") == 0.25);
   assert_int_equal (lab_test_json_num (&e, "cpu.cores"), 2);
   /* nor without the number of cores */
   bson_reinit (&e);
   m.cpu_cores = -1;
   m.elapsed_s = 1;
   lab_scan_layout_entry (&m, &e);
   assert_int_equal (count_keys (&e, "cpu"), 1);
   bson_destroy (&e);
}

/* spin -- use 30 ms of this thread's CPU (a count of CPU time, not of wall time). */
static void *
spin (void *arg)
{
   struct timespec ts;

   (void)arg;
   do {
      clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
   } while (ts.tv_sec == 0 && ts.tv_nsec < 30000000);
   return NULL;
}

/* test_stat_cpu -- utime + stime from /proc/PID/stat lines, counted after the last ')' (the command
 * name may hold spaces and parentheses); this process's own figures. */
static void
test_stat_cpu (void **state)
{
   const char *plain = "4242 (mongod) S 1 4242 4242 0 -1 4194560 120 0 3 0 250 130 0 0 20 0 33 0 "
                       "1234 5678 90 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0\n";
   const char *odd = "77 (a) S (b) c) R 1 77 77 0 -1 4194560 5 0 0 0 7 3 0 0 20 0 1 0 1 2 3\n";
   double cpu = -1;

   (void)state;
   assert_true (lab_parse_stat_cpu (plain, 100, &cpu));
   assert_true (fabs (cpu - 3.8) < 1e-9); /* (250 + 130) ticks at 100 Hz */
   assert_true (lab_parse_stat_cpu (odd, 100, &cpu));
   assert_true (fabs (cpu - 0.1) < 1e-9); /* 7 + 3: fields counted after "c)", not "(a)" */
   assert_true (lab_parse_stat_cpu (plain, 1000, &cpu) && fabs (cpu - 0.38) < 1e-9);
   /* cut short, no parenthesis, a field that is not a number, no clock rate */
   assert_false (lab_parse_stat_cpu ("4242 (mongod) S 1 4242 4242 0 -1 4194560 120 0 3 0 250", 100, &cpu));
   assert_false (lab_parse_stat_cpu ("4242 mongod S 1 2 3 4 5 6 7 8 9 10 11 12 13", 100, &cpu));
   assert_false (lab_parse_stat_cpu ("1 (x) S 1 1 1 0 -1 0 0 0 0 0 -5 3 0", 100, &cpu));
   assert_false (lab_parse_stat_cpu ("1 (x) S 1 1 1 0 -1 0 0 0 0 0 5x 3 0", 100, &cpu));
   assert_false (lab_parse_stat_cpu (plain, 0, &cpu));
   /* this process: some CPU spent, at least one core; no pid is not measured */
   assert_true (lab_process_cpu_s ((int64_t)getpid ()) >= 0);
   assert_true (lab_scan_sampler_cpu_cores ((int64_t)getpid ()) >= 1);
   /* another process (as a local server is); a worker's CPU still counts after it exited (the workers of
    * a load are joined before the last reading) */
   assert_true (lab_process_cpu_s ((int64_t)getppid ()) >= 0);
   {
      double before = lab_process_cpu_s ((int64_t)getpid ());
      pthread_t t;
      assert_int_equal (pthread_create (&t, NULL, spin, NULL), 0);
      pthread_join (t, NULL);
      cpu = lab_process_cpu_s ((int64_t)getpid ()) - before;
      if (!(cpu >= 0.03)) {
         fail_msg ("a thread that used 30 ms of CPU and exited added %g s", cpu);
      }
   }
   assert_true (lab_process_cpu_s (0) == -1);
   assert_int_equal (lab_scan_sampler_cpu_cores (0), -1);
}

/* ---- deployment (topology.c, record.c) ---- */

/* shard_of -- a listShards entry for the URI tests. */
static void
shard_of (lab_store_facts_shard_t *sh, const char *id, const char *host)
{
   bson_error_t e;

   memset (sh, 0, sizeof *sh);
   sh->id = bson_strdup (id);
   sh->host = bson_strdup (host);
   assert_true (lab_store_facts_parse_seed_list (host, &sh->set_name, &sh->seeds, &sh->nseeds, &e));
}

static void
shard_free (lab_store_facts_shard_t *sh)
{
   bson_free (sh->id);
   bson_free (sh->host);
   bson_free (sh->set_name);
   bson_free (sh->seeds);
}

static void
test_shard_uri (void **state)
{
   lab_store_facts_shard_t a, b, v6, none;
   const char *over[] = { "shB=mongodb://b-direct:1/", "mongodb://first-positional:2/" };
   bson_error_t e;
   char *u;

   (void)state;
   shard_of (&a, "shA", "rsA/a1.example:27018,a2.example:27018");
   shard_of (&b, "shB", "b1.example:27019");
   shard_of (&v6, "sh6", "[::1]:27020");
   /* no override: the first seed, direct, with the router's credentials carried over */
   u = lab_scan_shard_uri (&a, 0, NULL, 0, "mongodb://u:p@router:27017/", &e);
   assert_string_equal (u, "mongodb://u:p@a1.example:27018/?directConnection=true&authSource=admin");
   bson_free (u);
   u = lab_scan_shard_uri (&v6, 2, NULL, 0, NULL, &e);
   assert_string_equal (u, "mongodb://[::1]:27020/?directConnection=true");
   bson_free (u);
   /* NAME=URI wins for that shard; bare URIs go by position among the bare ones */
   u = lab_scan_shard_uri (&b, 1, over, 2, NULL, &e);
   assert_string_equal (u, "mongodb://b-direct:1/");
   bson_free (u);
   u = lab_scan_shard_uri (&a, 0, over, 2, NULL, &e);
   assert_string_equal (u, "mongodb://first-positional:2/");
   bson_free (u);
   u = lab_scan_shard_uri (&v6, 2, over, 2, "mongodb://router/", &e);
   assert_string_equal (u, "mongodb://[::1]:27020/?directConnection=true"); /* only one bare URI */
   bson_free (u);
   /* a shard without a host, a router URI that does not parse: NULL and why */
   memset (&none, 0, sizeof none);
   none.id = "shX";
   none.host = "";
   assert_null (lab_scan_shard_uri (&none, 0, NULL, 0, NULL, &e));
   assert_non_null (strstr (e.message, "--shard-uri shX=URI"));
   assert_null (lab_scan_shard_uri (&a, 0, NULL, 0, "mongodb://router:99999/", &e));
   assert_int_equal (e.domain, LAB_ERROR_SCAN);
   assert_non_null (strstr (e.message, "router URI"));
   shard_free (&a);
   shard_free (&b);
   shard_free (&v6);
}

/* direct_uri -- lab_store_direct_uri to shard1:27018 of `router`, checked against `want` and parsed back
 * by libmongoc (caller destroys). */
static mongoc_uri_t *
direct_uri (const char *router, const char *want)
{
   bson_error_t e;
   char *u = lab_store_direct_uri (router, "shard1", 27018, &e);
   mongoc_uri_t *m;

   if (!u) {
      fail_msg ("lab_store_direct_uri (%s): %s", router, e.message);
   }
   if (want) {
      assert_string_equal (u, want);
   }
   m = mongoc_uri_new_with_error (u, &e);
   if (!m) {
      fail_msg ("%s does not parse: %s", u, e.message);
   }
   bson_free (u);
   assert_true (mongoc_uri_get_option_as_bool (m, MONGOC_URI_DIRECTCONNECTION, false));
   assert_string_equal (mongoc_uri_get_hosts (m)->host, "shard1");
   assert_int_equal (mongoc_uri_get_hosts (m)->port, 27018);
   assert_null (mongoc_uri_get_hosts (m)->next);
   return m;
}

/* same_props -- the shard URI lab_store_direct_uri builds from `router` carries exactly the
 * authMechanismProperties libmongoc read from `router` (same keys, values and order), checked against
 * `want` (the shard URI) when given; `key` must be among them with the value `value`. */
static void
same_props (const char *router, const char *want, const char *key, const char *value)
{
   bson_error_t e;
   mongoc_uri_t *r = mongoc_uri_new_with_error (router, &e);
   mongoc_uri_t *m;
   bson_t rp, mp;
   bson_iter_t it;

   if (!r) {
      fail_msg ("%s does not parse: %s", router, e.message);
   }
   m = direct_uri (router, want);
   assert_true (mongoc_uri_get_mechanism_properties (r, &rp));
   assert_true (mongoc_uri_get_mechanism_properties (m, &mp));
   if (!bson_equal (&rp, &mp)) {
      char *a = bson_as_relaxed_extended_json (&rp, NULL), *b = bson_as_relaxed_extended_json (&mp, NULL);
      fail_msg ("router %s: properties %s, shard %s", router, a, b);
   }
   assert_true (bson_iter_init_find (&it, &mp, key));
   assert_string_equal (bson_iter_utf8 (&it, NULL), value);
   bson_destroy (&rp);
   bson_destroy (&mp);
   mongoc_uri_destroy (m);
   mongoc_uri_destroy (r);
}

/* test_direct_uri -- which options of the router's URI a shard's direct connection keeps (topology.h):
 * each decision, and the result as libmongoc reads it back. */
static void
test_direct_uri (void **state)
{
   mongoc_uri_t *m;
   bson_t props;
   bson_iter_t it;

   (void)state;
   /* everything at once: kept, dropped, encoded, authSource resolved from the path's database */
   m = direct_uri ("mongodb://us%20er:p%40ss@r1:27017,r2:27017/billing?replicaSet=rs&readPreference=secondary"
                   "&readPreferenceTags=dc:a&maxStalenessSeconds=120&tls=true&tlsCAFile=/etc/ca%20x.pem"
                   "&tlsAllowInvalidHostnames=true&appName=lab%20x&compressors=zstd,snappy"
                   "&zlibCompressionLevel=5&serverSelectionTimeoutMS=30000&connectTimeoutMS=2000"
                   "&socketTimeoutMS=600000&authMechanism=SCRAM-SHA-256&w=majority&journal=true"
                   "&readConcernLevel=majority&maxPoolSize=3&retryWrites=false&localThresholdMS=30",
                   "mongodb://us%20er:p%40ss@shard1:27018/?directConnection=true&authSource=billing"
                   "&authMechanism=SCRAM-SHA-256&tls=true&tlscafile=%2Fetc%2Fca%20x.pem"
                   "&tlsallowinvalidhostnames=true&connecttimeoutms=2000&sockettimeoutms=600000"
                   "&serverselectiontimeoutms=30000&zlibcompressionlevel=5&retrywrites=false&appName=lab%20x"
                   "&compressors=zstd,snappy");
   assert_string_equal (mongoc_uri_get_username (m), "us er");
   assert_string_equal (mongoc_uri_get_password (m), "p@ss");
   assert_string_equal (mongoc_uri_get_auth_source (m), "billing");
   assert_string_equal (mongoc_uri_get_auth_mechanism (m), "SCRAM-SHA-256");
   assert_true (mongoc_uri_get_tls (m));
   assert_string_equal (mongoc_uri_get_option_as_utf8 (m, MONGOC_URI_TLSCAFILE, ""), "/etc/ca x.pem");
   assert_string_equal (mongoc_uri_get_appname (m), "lab x");
   assert_true (bson_has_field (mongoc_uri_get_compressors (m), "zstd"));
   assert_int_equal (mongoc_uri_get_option_as_int32 (m, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, 0), 30000);
   assert_int_equal (mongoc_uri_get_option_as_int32 (m, MONGOC_URI_CONNECTTIMEOUTMS, 0), 2000);
   assert_false (mongoc_uri_get_option_as_bool (m, MONGOC_URI_RETRYWRITES, true));
   /* dropped: the set, the read preference (direct: the member itself), concerns, pool, threshold */
   assert_null (mongoc_uri_get_replica_set (m));
   assert_int_equal (mongoc_read_prefs_get_mode (mongoc_uri_get_read_prefs_t (m)), MONGOC_READ_PRIMARY);
   assert_false (mongoc_uri_has_option (m, MONGOC_URI_READPREFERENCE));
   assert_false (mongoc_uri_has_option (m, MONGOC_URI_MAXSTALENESSSECONDS));
   assert_false (mongoc_uri_has_option (m, MONGOC_URI_W));
   assert_false (mongoc_uri_has_option (m, MONGOC_URI_JOURNAL));
   assert_false (mongoc_uri_has_option (m, MONGOC_URI_READCONCERNLEVEL));
   assert_false (mongoc_uri_has_option (m, MONGOC_URI_MAXPOOLSIZE));
   assert_false (mongoc_uri_has_option (m, MONGOC_URI_LOCALTHRESHOLDMS));
   assert_null (mongoc_uri_get_database (m));
   mongoc_uri_destroy (m);

   /* mongodb+srv: TLS is implied there and must be explicit on the shard; authSource default admin */
   m = direct_uri (
      "mongodb+srv://u:p@cluster0.example.net/?retryWrites=true",
      "mongodb://u:p@shard1:27018/?directConnection=true&authSource=admin&tls=true&retrywrites=true");
   assert_true (mongoc_uri_get_tls (m));
   mongoc_uri_destroy (m);

   /* legacy ssl* spellings arrive as tls*; X.509 without a user name: authSource $external */
   m = direct_uri ("mongodb://r1/?ssl=true&sslClientCertificateKeyFile=/c.pem&authMechanism=MONGODB-X509",
                   "mongodb://shard1:27018/?directConnection=true&authSource=%24external"
                   "&authMechanism=MONGODB-X509&tls=true&tlscertificatekeyfile=%2Fc.pem");
   assert_string_equal (mongoc_uri_get_auth_source (m), "$external");
   mongoc_uri_destroy (m);

   /* GSSAPI with its properties */
   m = direct_uri ("mongodb://alice%40EXAMPLE.COM@r1/?authMechanism=GSSAPI"
                   "&authMechanismProperties=SERVICE_NAME:mongo2,CANONICALIZE_HOST_NAME:true",
                   NULL);
   assert_string_equal (mongoc_uri_get_username (m), "alice@EXAMPLE.COM");
   assert_null (mongoc_uri_get_password (m));
   assert_string_equal (mongoc_uri_get_auth_mechanism (m), "GSSAPI");
   assert_true (mongoc_uri_get_mechanism_properties (m, &props));
   assert_true (bson_iter_init_find_case (&it, &props, "SERVICE_NAME"));
   assert_string_equal (bson_iter_utf8 (&it, NULL), "mongo2");
   bson_destroy (&props);
   mongoc_uri_destroy (m);

   /* ',' and ':' inside property values. libmongoc 1.23 (mongoc-uri.c) percent-decodes the whole option
    * value before it splits the properties: on ',' between pairs, the key up to the first ':', and a value
    * that meets a ':' before any ',' runs to the end of the string; a backslash keeps the character after
    * it (and stays in the value). So %2C/%3A in the shard URI are read as ',' and ':' again, and the
    * properties come out the same as long as their order is kept: an AWS session token (base64: '+',
    * '/', '='; here also ':', '&' and '%') */
   same_props ("mongodb://AKIA:s%2Fk@r1/?authMechanism=MONGODB-AWS"
               "&authMechanismProperties=AWS_SESSION_TOKEN:IQo%2Bb3/Jp==:x%26y%25z",
               "mongodb://AKIA:s%2Fk@shard1:27018/?directConnection=true&authSource=admin"
               "&authMechanism=MONGODB-AWS"
               "&authMechanismProperties=AWS_SESSION_TOKEN:IQo%2Bb3%2FJp%3D%3D%3Ax%26y%25z",
               "AWS_SESSION_TOKEN", "IQo+b3/Jp==:x&y%z");
   /* a last value holding ':' and ',' (the earlier ones stay before it) */
   same_props ("mongodb://u@r1/?authMechanism=GSSAPI"
               "&authMechanismProperties=CANONICALIZE_HOST_NAME:true,SERVICE_NAME:mongo:db,east",
               "mongodb://u@shard1:27018/?directConnection=true&authSource=%24external&authMechanism=GSSAPI"
               "&authMechanismProperties=CANONICALIZE_HOST_NAME:true,SERVICE_NAME:mongo%3Adb%2Ceast",
               "SERVICE_NAME", "mongo:db,east");
   same_props ("mongodb://u@r1/?authMechanism=MONGODB-AWS"
               "&authMechanismProperties=AWS_SESSION_TOKEN:a%3Ab%2Cc",
               NULL, "AWS_SESSION_TOKEN", "a:b,c");
   /* a backslash-escaped ',' in a value that is not the last: the backslash stays, as libmongoc read it */
   same_props ("mongodb://u@r1/?authMechanism=GSSAPI"
               "&authMechanismProperties=SERVICE_NAME:a%5C%2Cb,CANONICALIZE_HOST_NAME:true",
               NULL, "SERVICE_NAME", "a\\,b");
   /* a percent-encoded ',' in a value that is not the last splits it in the router already: the shard
    * gets what libmongoc read there, no more and no less */
   same_props ("mongodb://u@r1/?authMechanism=GSSAPI"
               "&authMechanismProperties=SERVICE_NAME:a%2Cb,CANONICALIZE_HOST_NAME:true",
               NULL, "b,CANONICALIZE_HOST_NAME", "true");
   /* an empty value, and a ':' in the value of another property after it */
   same_props (
      "mongodb://u@r1/?authMechanism=GSSAPI&authMechanismProperties=SERVICE_NAME:,SERVICE_REALM:X%3AY", NULL,
      "SERVICE_REALM", "X:Y");

   /* no router URI, or an embedded one: nothing to carry */
   m = direct_uri (NULL, "mongodb://shard1:27018/?directConnection=true");
   mongoc_uri_destroy (m);
   m = direct_uri ("wiredtiger:/tmp/x", "mongodb://shard1:27018/?directConnection=true");
   mongoc_uri_destroy (m);
}

/* test_primary_uri -- which member a shard's statistics follow, from hello replies shaped as mongod's
 * (src/mongo/db/repl/hello_response.cpp: setName, isWritablePrimary, secondary, primary, me). */
static void
test_primary_uri (void **state)
{
   const char *shard = "mongodb://u:p@a1.example:27018/?directConnection=true&authSource=admin&tls=true";
   bson_error_t e;
   bson_t *h;
   char *u;

   (void)state;
   /* a secondary naming its primary: the primary, with the same options */
   h = BCON_NEW ("setName", BCON_UTF8 ("rsA"), "isWritablePrimary", BCON_BOOL (false), "secondary",
                 BCON_BOOL (true), "primary", BCON_UTF8 ("a2.example:27019"), "me",
                 BCON_UTF8 ("a1.example:27018"), "ok", BCON_DOUBLE (1));
   assert_true (lab_store_primary_uri (shard, h, &u, &e));
   assert_string_equal (u, "mongodb://u:p@a2.example:27019/?directConnection=true&authSource=admin&tls=true");
   bson_free (u);
   bson_destroy (h);
   /* IPv6 primary */
   h = BCON_NEW ("setName", BCON_UTF8 ("rsA"), "isWritablePrimary", BCON_BOOL (false), "secondary",
                 BCON_BOOL (true), "primary", BCON_UTF8 ("[::1]:27019"), "ok", BCON_DOUBLE (1));
   assert_true (lab_store_primary_uri (NULL, h, &u, &e));
   assert_string_equal (u, "mongodb://[::1]:27019/?directConnection=true");
   bson_free (u);
   bson_destroy (h);
   /* the primary itself, a secondary during an election (no primary named), a standalone: stay */
   h = BCON_NEW ("setName", BCON_UTF8 ("rsA"), "isWritablePrimary", BCON_BOOL (true), "primary",
                 BCON_UTF8 ("a1.example:27018"), "me", BCON_UTF8 ("a1.example:27018"), "ok", BCON_DOUBLE (1));
   assert_true (lab_store_primary_uri (shard, h, &u, &e));
   assert_null (u);
   bson_destroy (h);
   h = BCON_NEW ("setName", BCON_UTF8 ("rsA"), "isWritablePrimary", BCON_BOOL (false), "secondary",
                 BCON_BOOL (true), "ok", BCON_DOUBLE (1));
   assert_true (lab_store_primary_uri (shard, h, &u, &e));
   assert_null (u);
   bson_destroy (h);
   h = BCON_NEW ("isWritablePrimary", BCON_BOOL (true), "ok", BCON_DOUBLE (1));
   assert_true (lab_store_primary_uri (shard, h, &u, &e));
   assert_null (u);
   bson_destroy (h);
   /* a malformed reply */
   h = BCON_NEW ("setName", BCON_UTF8 ("rsA"), "isWritablePrimary", BCON_BOOL (false), "primary",
                 BCON_INT32 (3), "ok", BCON_DOUBLE (1));
   assert_false (lab_store_primary_uri (shard, h, &u, &e));
   assert_null (u);
   bson_destroy (h);
}

static void
test_server_disk_names (void **state)
{
   lab_scan_server_disk_t d;

   (void)state;
   assert_true (lab_scan_server_disk_parse ("ftdc", &d) && d == LAB_SERVER_DISK_FTDC);
   assert_true (lab_scan_server_disk_parse ("auto", &d) && d == LAB_SERVER_DISK_AUTO);
   assert_false (lab_scan_server_disk_parse ("iostat", &d));
   assert_string_equal (lab_scan_server_disk_name (LAB_SERVER_DISK_NONE), "none");
}

static void
test_layout_entry_server_disk (void **state)
{
   lab_scan_layout_measure_t m;
   lab_scan_worker_totals_t w[2];
   lab_scan_sample_t smp[2];
   bson_t e = BSON_INITIALIZER;

   (void)state;
   measured (&m, w, smp);
   m.disk_source = "ftdc";
   m.ftdc_samples = 7;
   m.topology_targets = true;
   m.ntargets = 1;
   memset (&m.targets[0], 0, sizeof m.targets[0]);
   bson_strncpy (m.targets[0].name, "shard0", sizeof m.targets[0].name);
   bson_strncpy (m.targets[0].host, "db1:27018", sizeof m.targets[0].host);
   m.targets[0].pid = 4242;
   m.targets[0].uptime_s = 3;
   m.targets[0].restarted = true;
   m.targets[0].have_disk = true;
   bson_strncpy (m.targets[0].device, "nvme0n1", sizeof m.targets[0].device);
   bson_strncpy (m.targets[0].device_reason, "most sectors read", sizeof m.targets[0].device_reason);
   m.targets[0].disk.reads = 1234;
   m.targets[0].disk.read_bytes = 1234 * 4096;
   m.targets[0].disk.elapsed_s = 2;
   m.targets[0].disk.avg_read_bytes = 4096;
   lab_scan_layout_entry (&m, &e);
   assert_string_equal (lab_test_json_str (&e, "disk_source"), "ftdc");
   assert_string_equal (lab_test_json_str (&e, "server_disk.source"), "ftdc");
   assert_true (lab_test_json_num (&e, "server_disk.ftdc_samples") == 7);
   assert_string_equal (lab_test_json_str (&e, "server_disk.servers.0.device"), "nvme0n1");
   assert_true (lab_test_json_num (&e, "server_disk.servers.0.read_requests") == 1234);
   assert_true (lab_test_json_num (&e, "server_disk.servers.0.avg_read_request_bytes") == 4096);
   /* a shard (not the store's own "server"): cold.shards carries its pid and its restart */
   assert_true (lab_test_json_num (&e, "cold.shards.0.server_pid") == 4242);
   assert_true (lab_test_json_bool (&e, "cold.shards.0.restarted"));
   bson_destroy (&e);
}

/* ---- table ---- */

static void
test_table (void **state)
{
   bson_error_t e;
   bson_t *r = bson_new_from_json (
      (const uint8_t *)"{\"config\": {\"cold\": true},"
                       " \"dataset\": {\"detail\": {\"count\": 520000, \"storage_size_bytes\": 100000000},"
                       "               \"folded\": {\"count\": 4000, \"storage_size_bytes\": 50000000}},"
                       " \"summary\": {\"detail\": {\"runs\": 3, \"elapsed_s\": {\"median\": 10.0},"
                       "                            \"read_requests\": {\"median\": 4000},"
                       "                            \"avg_read_request_bytes\": {\"median\": 4096}},"
                       "               \"folded\": {\"runs\": 3, \"elapsed_s\": {\"median\": 5.0},"
                       "                            \"read_requests\": {\"median\": 1000},"
                       "                            \"avg_read_request_bytes\": {\"median\": 16384}}}}",
      -1, &e);
   char *t;

   assert_non_null (r);
   t = lab_scan_table_render (r);
   assert_non_null (strstr (t, "Cold load of both layouts, 3 runs (medians)"));
   assert_non_null (strstr (t, "520,000"));
   assert_non_null (strstr (t, "0.8%")); /* 4000 / 520000 */
   assert_non_null (strstr (t, "50%"));  /* load time */
   assert_non_null (strstr (t, "25%"));  /* read requests */
   assert_non_null (strstr (t, "400%"));
   /* lower load time: folded better by 2x; bigger requests: folded better; documents: no winner */
   {
      const char *line = strstr (t, "parallel load time");
      assert_non_null (line);
      assert_true (strstr (line, "folded 2.00x") < strchr (line, '\n'));
      line = strstr (t, "average read request size");
      assert_non_null (line);
      assert_true (strstr (line, "folded 4.00x") < strchr (line, '\n'));
      line = strstr (t, "documents in collection");
      assert_non_null (line);
      assert_true (strstr (line, "0.8%  \n") == strchr (line, '\n') - 6); /* no winner */
   }
   /* absent figures are not printed as zero */
   assert_null (strstr (t, "read await"));
   bson_free (t);
   bson_destroy (r);
}

/* test_no_match_hint -- the hint of a comparison of nothing: only when every key is of one class and the
 * field's sample of another; numbers of any type are one class (MongoDB compares them by value). */
static void
test_no_match_hint (void **state)
{
   bson_value_t keys[3], sample;
   char *h;

   (void)state;
   keys[0].value_type = BSON_TYPE_UTF8;
   keys[0].value.v_utf8.str = "1000";
   keys[0].value.v_utf8.len = 4;
   keys[1] = keys[0];
   sample.value_type = BSON_TYPE_INT32;
   sample.value.v_int32 = 1000;
   /* strings against numbers: say so, with an example of each and the fix */
   h = lab_scan_no_match_hint (keys, 2, "bill_id", "bill_detail", &sample);
   assert_non_null (h);
   assert_string_equal (h, "The keys are strings (\"1000\") but bill_id in bill_detail holds numbers (1000): "
                           "write the keys without quotes");
   bson_free (h);
   /* numbers against strings: quote them */
   h = lab_scan_no_match_hint (&sample, 1, "bill_id", "bill_detail", &keys[0]);
   assert_non_null (h);
   assert_non_null (strstr (h, "The keys are numbers (1000) but bill_id in bill_detail holds strings"));
   assert_non_null (strstr (h, "quote the keys"));
   bson_free (h);
   /* int64 keys, a double in the field: the same class, no hint */
   keys[2].value_type = BSON_TYPE_INT64;
   keys[2].value.v_int64 = 5000000000LL;
   sample.value_type = BSON_TYPE_DOUBLE;
   sample.value.v_double = 1.5;
   assert_null (lab_scan_no_match_hint (&keys[2], 1, "k", "c", &sample));
   /* mixed keys (strings and a number): no single type to blame */
   assert_null (lab_scan_no_match_hint (keys, 3, "k", "c", &sample));
   /* ObjectIds against numbers: the generic sentence */
   sample.value_type = BSON_TYPE_OID;
   bson_oid_init_from_string (&sample.value.v_oid, "5f0c6a3e1c9d440000a1b2c3");
   h = lab_scan_no_match_hint (&keys[2], 1, "k", "c", &sample);
   assert_non_null (h);
   assert_non_null (strstr (h, "The keys are numbers (5000000000) but k in c holds ObjectIds"));
   bson_free (h);
   /* no sample, no keys: nothing to say */
   assert_null (lab_scan_no_match_hint (keys, 2, "k", "c", NULL));
   assert_null (lab_scan_no_match_hint (keys, 0, "k", "c", &sample));
}

/* test_layout_parse -- --layout NAME=COLLECTION[:KIND]: the kinds, the default, and what is refused. */
static void
test_layout_parse (void **state)
{
   static const char *const bad[] = {
      "nocollection", "=coll", "name=", "name=:rows", "a b=coll", "a.b=coll", "name=coll:stacked"
   };
   lab_results_layout_t l;
   bson_error_t e;
   char buf[64];
   size_t i;

   (void)state;
   bson_strncpy (buf, "buckets=bill_buckets:buckets", sizeof buf);
   assert_true (lab_scan_layout_parse (buf, &l, &e));
   assert_string_equal (l.name, "buckets");
   assert_string_equal (l.collection, "bill_buckets");
   assert_string_equal (l.kind, LAB_RESULTS_KIND_BUCKETS);
   bson_strncpy (buf, "d-1=bill_detail", sizeof buf);
   assert_true (lab_scan_layout_parse (buf, &l, &e));
   assert_string_equal (l.collection, "bill_detail");
   assert_string_equal (l.kind, LAB_RESULTS_KIND_ROWS);
   /* the last ':' separates the kind: a collection name may hold one */
   bson_strncpy (buf, "f=a:b:folded", sizeof buf);
   assert_true (lab_scan_layout_parse (buf, &l, &e));
   assert_string_equal (l.collection, "a:b");
   assert_string_equal (l.kind, LAB_RESULTS_KIND_FOLDED);
   for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      bson_strncpy (buf, bad[i], sizeof buf);
      if (lab_scan_layout_parse (buf, &l, &e)) {
         fail_msg ("--layout %s was accepted", bad[i]);
      }
      assert_int_equal (e.domain, LAB_ERROR_USAGE);
      assert_string_equal (buf, bad[i]); /* the value is left as given, for the message */
   }
}

/* test_layouts_resolve -- the shorthand, the reference, and the conflicts. */
static void
test_layouts_resolve (void **state)
{
   lab_scan_opts_t o;
   lab_results_layouts_t ls;
   bson_error_t e;

   (void)state;
   lab_scan_opts_init (&o);
   assert_true (lab_scan_layouts_resolve (&o, &ls, &e));
   assert_int_equal (ls.n, 2);
   assert_string_equal (ls.l[0].name, "detail");
   assert_string_equal (ls.l[0].collection, "bill_detail");
   assert_string_equal (ls.l[1].collection, "detail_coll");
   assert_int_equal (ls.reference, 0);
   o.layouts[0] = (lab_results_layout_t){ "f", "fc", LAB_RESULTS_KIND_FOLDED };
   o.layouts[1] = (lab_results_layout_t){ "b", "bc", LAB_RESULTS_KIND_BUCKETS };
   o.layouts[2] = (lab_results_layout_t){ "r", "rc", LAB_RESULTS_KIND_ROWS };
   o.nlayouts = 3;
   assert_true (lab_scan_layouts_resolve (&o, &ls, &e));
   assert_int_equal (ls.n, 3);
   assert_int_equal (ls.reference, 2); /* the first of kind rows */
   o.reference_layout = "b";
   assert_true (lab_scan_layouts_resolve (&o, &ls, &e));
   assert_int_equal (ls.reference, 1);
   o.reference_layout = "x";
   assert_false (lab_scan_layouts_resolve (&o, &ls, &e));
   assert_non_null (strstr (e.message, "--reference-layout x"));
   o.reference_layout = NULL;
   o.layouts[2].collection = "fc";
   assert_false (lab_scan_layouts_resolve (&o, &ls, &e));
   assert_non_null (strstr (e.message, "its own name and collection"));
   o.nlayouts = 1;
   assert_false (lab_scan_layouts_resolve (&o, &ls, &e));
   o.nlayouts = 0;
   o.folded = o.detail;
   assert_false (lab_scan_layouts_resolve (&o, &ls, &e));
   assert_non_null (strstr (e.message, "the same collection"));
}

/* test_run_order -- alternate rotates the first layout each run; two layouts alternate as before. */
static void
test_run_order (void **state)
{
   size_t o[4];

   (void)state;
   lab_scan_run_order (LAB_ORDER_ALTERNATE, 1, 3, o);
   assert_true (o[0] == 0 && o[1] == 1 && o[2] == 2);
   lab_scan_run_order (LAB_ORDER_ALTERNATE, 2, 3, o);
   assert_true (o[0] == 1 && o[1] == 2 && o[2] == 0);
   lab_scan_run_order (LAB_ORDER_ALTERNATE, 3, 3, o);
   assert_true (o[0] == 2 && o[1] == 0 && o[2] == 1);
   lab_scan_run_order (LAB_ORDER_ALTERNATE, 4, 3, o);
   assert_true (o[0] == 0);
   lab_scan_run_order (LAB_ORDER_ALTERNATE, 2, 2, o);
   assert_true (o[0] == 1 && o[1] == 0); /* run 2: folded first */
   lab_scan_run_order (LAB_ORDER_DETAIL_FIRST, 2, 4, o);
   assert_true (o[0] == 0 && o[1] == 1 && o[2] == 2 && o[3] == 3);
   lab_scan_run_order (LAB_ORDER_FOLDED_FIRST, 1, 2, o);
   assert_true (o[0] == 1 && o[1] == 0);
}

/* test_engine_sum -- a deployment's engine figures over its shards: gauges summed over what is known,
 * cumulative counters only when every shard gives them */
static void
test_engine_sum (void **state)
{
   lab_store_engine_stats_t each[3], out;

   (void)state;
   each[0] = (lab_store_engine_stats_t){ .cache_bytes = 10,
                                         .cache_max_bytes = 100,
                                         .block_reads = 5,
                                         .block_read_bytes = 500,
                                         .cache_read_bytes = 7,
                                         .cache_pages_read = 3,
                                         .server_rss_bytes = 1000 };
   each[1] = (lab_store_engine_stats_t){ .cache_bytes = 20,
                                         .cache_max_bytes = 200,
                                         .block_reads = 6,
                                         .block_read_bytes = 600,
                                         .cache_read_bytes = -1,
                                         .cache_pages_read = 4,
                                         .server_rss_bytes = 2000 };
   each[2] = (lab_store_engine_stats_t){ .cache_bytes = -1,
                                         .cache_max_bytes = 300,
                                         .block_reads = 7,
                                         .block_read_bytes = 700,
                                         .cache_read_bytes = 9,
                                         .cache_pages_read = 5,
                                         .server_rss_bytes = -1 };
   lab_scan_engine_sum (each, 3, true, &out);
   assert_int_equal (out.block_reads, 18);
   assert_int_equal (out.block_read_bytes, 1800);
   assert_int_equal (out.cache_max_bytes, 600);
   assert_int_equal (out.cache_pages_read, 12);
   assert_int_equal (out.cache_read_bytes, -1); /* shard 1 does not give it: no total */
   assert_int_equal (out.cache_bytes, -1);
   assert_int_equal (out.server_rss_bytes, -1);
   lab_scan_engine_sum (each, 3, false, &out);
   assert_int_equal (out.cache_bytes, 30); /* a gauge: what the shards that answered hold */
   assert_int_equal (out.cache_read_bytes, 16);
   assert_int_equal (out.server_rss_bytes, 3000);
   lab_scan_engine_sum (each, 0, true, &out);
   assert_int_equal (out.block_reads, -1);
}

/* test_auth_failed -- the errors a refused login gives */
static void
test_auth_failed (void **state)
{
   bson_error_t e;

   (void)state;
   memset (&e, 0, sizeof e);
   e.domain = MONGOC_ERROR_CLIENT;
   e.code = MONGOC_ERROR_CLIENT_AUTHENTICATE;
   assert_true (lab_store_error_auth (&e));
   e.domain = MONGOC_ERROR_SERVER;
   e.code = 18; /* AuthenticationFailed */
   assert_true (lab_store_error_auth (&e));
   e.code = 13; /* Unauthorized: logged in, but lacking a role */
   assert_false (lab_store_error_auth (&e));
   e.domain = MONGOC_ERROR_SERVER_SELECTION;
   e.code = MONGOC_ERROR_SERVER_SELECTION_FAILURE;
   assert_false (lab_store_error_auth (&e));
}

/* test_rereads_cached -- 5x faster rereads are a cache below the machine; the audit's VM figures are. */
static void
test_rereads_cached (void **state)
{
   (void)state;
   assert_true (lab_scan_rereads_cached (17.7, 0.17));
   assert_true (lab_scan_rereads_cached (5.0, 1.0));
   assert_false (lab_scan_rereads_cached (0.058, 0.055));
   assert_false (lab_scan_rereads_cached (0, 0));
}

/* test_background_delta -- /proc/stat's cpu line, and the other processes' CPU: the machine's busy time
 * minus ours and the server's; busy beyond the ticks' rounding only. */
static void
test_background_delta (void **state)
{
   lab_scan_bg_point_t a, b;
   lab_scan_background_t bg;

   (void)state;
   memset (&a, 0, sizeof a);
   memset (&b, 0, sizeof b);
   assert_true (lab_scan_bg_parse_stat ("cpu  100 0 50 800 10 0 0 40 0 0\ncpu0 1\ncpu1 2\nintr 5\n", &a));
   assert_int_equal (a.ticks_total, 1000);
   assert_int_equal (a.ticks_idle, 810);
   assert_int_equal (a.ticks_steal, 40);
   assert_int_equal (a.ncpus, 2);
   assert_false (lab_scan_bg_parse_stat ("intr 5\n", &b));
   /* 2 s on 2 CPUs at 100 ticks/s: 400 ticks, 150 busy (1.5 s), ours 0.4 s and the server's 0.1 s */
   assert_true (lab_scan_bg_parse_stat ("cpu  220 0 80 1050 10 0 0 40 0 0\ncpu0 1\ncpu1 2\n", &b));
   a.have = b.have = true;
   a.t_ns = 1000000000ull;
   b.t_ns = 3000000000ull;
   a.load1 = 1.5;
   b.load1 = 2.5;
   a.self_cpu_s = 1.0;
   b.self_cpu_s = 1.4;
   a.server_cpu_s = 0;
   b.server_cpu_s = 0.1;
   a.self_read_bytes = 0;
   b.self_read_bytes = 4096;
   a.server_read_bytes = b.server_read_bytes = 0;
   lab_scan_bg_delta (&a, &b, 100, 8192, &bg);
   assert_true (bg.have);
   assert_true (bg.other_cpu_s > 0.99 && bg.other_cpu_s < 1.01);
   assert_true (bg.other_cores > 0.49 && bg.other_cores < 0.51);
   assert_int_equal (bg.other_read_bytes, 4096);
   assert_true (bg.busy);
   assert_non_null (strstr (bg.busy_note, "other processes used 0.50 cores"));
   /* the same in 0.02 s: within the counters' rounding, never busy */
   b.t_ns = a.t_ns + 20000000ull;
   b.ticks_total = a.ticks_total + 4;
   b.ticks_idle = a.ticks_idle;
   b.ticks_steal = a.ticks_steal;
   b.self_cpu_s = a.self_cpu_s;
   b.server_cpu_s = a.server_cpu_s;
   lab_scan_bg_delta (&a, &b, 100, -1, &bg);
   assert_false (bg.busy);
   assert_int_equal (bg.other_read_bytes, -1);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_diskstats_parse),
      cmocka_unit_test (test_layout_parse),
      cmocka_unit_test (test_layouts_resolve),
      cmocka_unit_test (test_run_order),
      cmocka_unit_test (test_diskstats_delta),
      cmocka_unit_test (test_device_partition),
      cmocka_unit_test (test_device_whole_disk),
      cmocka_unit_test (test_device_mountinfo_fallback),
      cmocka_unit_test (test_device_override),
      cmocka_unit_test (test_device_this_machine),
      cmocka_unit_test (test_keys_segment),
      cmocka_unit_test (test_keys_load_order),
      cmocka_unit_test (test_keys_spread),
      cmocka_unit_test (test_keys_parse),
      cmocka_unit_test (test_keys_file),
      cmocka_unit_test (test_percentiles),
      cmocka_unit_test (test_histogram),
      cmocka_unit_test (test_drop_caches_hook),
      cmocka_unit_test (test_run_command),
      cmocka_unit_test (test_residency),
      cmocka_unit_test (test_table),
      cmocka_unit_test (test_read_ahead),
      cmocka_unit_test (test_layout_entry),
      cmocka_unit_test (test_layout_entry_unknowns),
      cmocka_unit_test (test_stat_cpu),
      cmocka_unit_test (test_layout_entry_server_disk),
      cmocka_unit_test (test_shard_uri),
      cmocka_unit_test (test_direct_uri),
      cmocka_unit_test (test_primary_uri),
      cmocka_unit_test (test_server_disk_names),
      cmocka_unit_test (test_no_match_hint),
      cmocka_unit_test (test_engine_sum),
      cmocka_unit_test (test_auth_failed),
      cmocka_unit_test (test_rereads_cached),
      cmocka_unit_test (test_background_delta),
   };
   return lab_test_run_group ("scan", tests, NULL, NULL);
}
