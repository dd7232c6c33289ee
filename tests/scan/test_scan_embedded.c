/*
 * test_scan_embedded.c -- scancmp end to end on the embedded store: the cold step really leaves the data
 * files with zero resident pages (as root), the interleaved one-doc-per-row layout needs more read
 * requests than the folded one, the results file carries the documented fields, both layouts return the
 * same rows; warm runs, --keys-limit/--keys-file, --calibrate; and the bad-input cases (unknown
 * collection, key without index, drop caches not permitted, bad options). A comparison of nothing (issue
 * 12): keys that match no document in either layout, or in one, fail before anything is measured; keys
 * that match in part, and layouts that return different rows, are warned about, recorded and reported.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "core/results.h"
#include "store/store.h"
#include "tests/scan/scan_testdata.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BILLS 600
#define ROWS 20
/* the pair whose detail side lost rows: PART_LOST bills whole, and line 1 of every bill */
#define PART_BILLS 40
#define PART_ROWS 5
#define PART_LOST 5

static char *g_dir;    /* the store's home */
static char *g_tmp;    /* scratch for results files */
static char *g_bin;    /* scancmp */
static int64_t g_rows; /* detail documents */

static int
setup (void **state)
{
   lab_store_opts_t so = { 0 };
   lab_store_t *store;
   bson_error_t e;
   char *uri;
   lab_store_session_t *sess;

   g_dir = lab_test_tmpdir ("scan-embedded");
   g_tmp = lab_test_tmpdir ("scan-embedded-out");
   g_bin = lab_test_bin ("scancmp");
   uri = bson_strdup_printf ("wiredtiger:%s", g_dir);
   so.create = true;
   store = lab_store_open (uri, &so, &e);
   if (!store) {
      fail_msg ("open %s: %s", uri, e.message);
   }
   if (!scan_testdata_build (store, "bill_detail", "detail_coll", BILLS, ROWS, &g_rows, &e)) {
      fail_msg ("build: %s", e.message);
   }
   /* a collection without an index on bill_id, for the bad-input case */
   sess = lab_store_session_open (store, &e);
   assert_non_null (sess);
   assert_true (lab_store_create (sess, "noindex", &e));
   {
      bson_t *d = BCON_NEW ("bill_id", BCON_INT32 (1));
      lab_store_insert_result_t r = { 0 };
      assert_true (lab_store_insert_many (sess, "noindex", (const bson_t *const *)&d, 1, &r, &e));
      lab_store_insert_result_cleanup (&r);
      bson_destroy (d);
   }
   /* a pair whose detail collection lost rows: the first PART_LOST bills whole, and the
    * second row (line 1) of every other bill */
   if (!scan_testdata_build (store, "part_detail", "part_coll", PART_BILLS, PART_ROWS, &(int64_t){ 0 }, &e)) {
      fail_msg ("build part: %s", e.message);
   }
   assert_true (lab_store_create_index (sess, "part_detail", "line", &e));
   {
      bson_value_t v = { .value_type = BSON_TYPE_INT32 };
      int64_t deleted = 0;
      int b;
      v.value.v_int32 = 1;
      assert_true (lab_store_delete_eq (sess, "part_detail", "line", &v, &deleted, &e));
      assert_true (deleted > 0);
      for (b = 0; b < PART_LOST; b++) {
         v.value.v_int32 = 1000 + b;
         assert_true (lab_store_delete_eq (sess, "part_detail", "bill_id", &v, &deleted, &e));
      }
   }
   lab_store_session_close (sess);
   lab_store_close (store);
   bson_free (uri);
   return 0;
}

static int
teardown (void **state)
{
   lab_test_rmtree (g_dir);
   lab_test_rmtree (g_tmp);
   bson_free (g_dir);
   bson_free (g_tmp);
   bson_free (g_bin);
   return 0;
}

/* scancmp -- run the tool on the test store with extra arguments; returns the exit code. */
static int
scancmp (const char *env, const char *args, char **out, char **err)
{
   char *cmd =
      bson_strdup_printf ("%s '%s' --uri 'wiredtiger:%s' --cache-size 1MiB --parallel 2 --interval 100ms "
                          "--progress never %s",
                          env ? env : "", g_bin, g_dir, args);
   int rc = lab_test_run (cmd, out, err);
   bson_free (cmd);
   return rc;
}

static int
nruns (const bson_t *d)
{
   int n = 0;
   char p[32];
   for (;;) {
      snprintf (p, sizeof p, "runs.%d.layout", n);
      if (!lab_test_json_has (d, p)) {
         return n;
      }
      n++;
   }
}

/* entry -- "runs.<i>.<field>" for the i-th entry. */
static const char *
entry (int i, const char *field)
{
   static char p[8][128];
   static int k;
   k = (k + 1) % 8;
   snprintf (p[k], sizeof p[k], "runs.%d.%s", i, field);
   return p[k];
}

/* check_schema -- the documented fields (docs/results-schema.md) are all there with the right types. */
static void
check_schema (const bson_t *r)
{
   static const char *top_num[] = { "schema_version",
                                    "host.cores",
                                    "host.ram_bytes",
                                    "config.parallel",
                                    "config.runs",
                                    "config.keys_limit",
                                    "config.interval_s",
                                    "dataset.keys",
                                    "dataset.detail.count",
                                    "dataset.detail.avg_obj_size_bytes",
                                    "dataset.detail.storage_size_bytes",
                                    "dataset.detail.index_size_bytes",
                                    "dataset.detail.nindexes",
                                    "dataset.folded.count",
                                    "dataset.folded.storage_size_bytes",
                                    "device.sector_bytes" };
   static const char *top_str[] = { "tool",
                                    "version",
                                    "started",
                                    "finished",
                                    "command_line.0",
                                    "host.hostname",
                                    "host.kernel",
                                    "backend.name",
                                    "backend.version",
                                    "backend.product",
                                    "backend.uri",
                                    "backend.db",
                                    "config.detail",
                                    "config.folded",
                                    "config.key",
                                    "config.array_field",
                                    "config.order",
                                    "config.drop_caches",
                                    "config.dbpath",
                                    "config.device",
                                    "device.name",
                                    "dataset.detail.collection",
                                    "dataset.folded.collection" };
   static const char *run_num[] = { "run",
                                    "order_in_run",
                                    "elapsed_s",
                                    "docs",
                                    "rows",
                                    "keys",
                                    "bytes_returned",
                                    "read_requests",
                                    "read_bytes",
                                    "read_time_ms",
                                    "io_ticks_ms",
                                    "cold.resident_bytes_before",
                                    "cold.file_bytes",
                                    "cold.resident_pct_before",
                                    "engine.block_reads",
                                    "engine.block_read_bytes",
                                    "rates.read_requests_per_s_mean",
                                    "rates.read_requests_per_s_peak",
                                    "rates.read_mb_s_mean",
                                    "rates.read_mb_s_peak",
                                    "rates.docs_per_s",
                                    "rates.returned_mb_s",
                                    "memory.server_rss_peak_bytes",
                                    "memory.cache_peak_bytes",
                                    "memory.cache_peak_pct",
                                    "cpu.process_s",
                                    "cpu.cores",
                                    "cpu.busy_pct_mean",
                                    "latency_ms.count",
                                    "latency_ms.min",
                                    "latency_ms.mean",
                                    "latency_ms.p50",
                                    "latency_ms.p90",
                                    "latency_ms.p95",
                                    "latency_ms.p99",
                                    "latency_ms.max",
                                    "latency_ms.histogram.0.le_ms",
                                    "latency_ms.histogram.0.count",
                                    "workers.0.worker",
                                    "workers.0.keys",
                                    "workers.0.docs",
                                    "workers.0.elapsed_s",
                                    "workers.1.keys" };
   static const char *sum_fig[] = {
      "elapsed_s",           "docs",           "read_requests",         "read_bytes",
      "read_mb_s_peak",      "latency_p99_ms", "server_rss_peak_bytes", "block_reads",
      "resident_pct_before", "cpu_process_s",  "cpu_busy_pct_mean"
   };
   size_t i;
   int e, n = nruns (r);

   for (i = 0; i < sizeof top_num / sizeof top_num[0]; i++) {
      (void)lab_test_json_num (r, top_num[i]);
   }
   for (i = 0; i < sizeof top_str / sizeof top_str[0]; i++) {
      (void)lab_test_json_str (r, top_str[i]);
   }
   assert_int_equal ((int)lab_test_json_num (r, "schema_version"), LAB_RESULTS_SCHEMA_VERSION);
   /* --detail/--folded are the shorthand of two --layout: named, with their kinds and the reference */
   assert_string_equal (lab_test_json_str (r, "layouts.0.name"), "detail");
   assert_string_equal (lab_test_json_str (r, "layouts.0.kind"), "rows");
   assert_string_equal (lab_test_json_str (r, "layouts.1.name"), "folded");
   assert_string_equal (lab_test_json_str (r, "layouts.1.kind"), "folded");
   assert_string_equal (lab_test_json_str (r, "reference_layout"), "detail");
   assert_string_equal (lab_test_json_str (r, "tool"), "scancmp");
   assert_string_equal (lab_test_json_str (r, "backend.name"), "wiredtiger");
   /* the embedded engine, not another server; its directory absolute (the report's commands name it) */
   assert_string_equal (lab_test_json_str (r, "backend.product"), "embedded");
   assert_true (strncmp (lab_test_json_str (r, "backend.uri"), "wiredtiger:/", 12) == 0);
   /* the engine's memory is the tool's: the allocator it ran on is recorded (tcmalloc unless sanitized) */
#ifdef LAB_TCMALLOC
   assert_string_equal (lab_test_json_str (r, "backend.allocator"), "tcmalloc");
#else
   assert_string_equal (lab_test_json_str (r, "backend.allocator"), "glibc");
#endif
   assert_true (n >= 2 && n % 2 == 0);
   for (e = 0; e < n; e++) {
      const char *layout = lab_test_json_str (r, entry (e, "layout"));
      assert_true (strcmp (layout, "detail") == 0 || strcmp (layout, "folded") == 0);
      for (i = 0; i < sizeof run_num / sizeof run_num[0]; i++) {
         (void)lab_test_json_num (r, entry (e, run_num[i]));
      }
      /* %util: known unless the device read with no busy tick counted (a load shorter than the tick) */
      if (lab_test_json_num (r, entry (e, "io_ticks_ms")) > 0 ||
          lab_test_json_num (r, entry (e, "read_requests")) == 0) {
         (void)lab_test_json_num (r, entry (e, "rates.util_pct_mean"));
      } else {
         assert_false (lab_test_json_has (r, entry (e, "rates.util_pct_mean")));
      }
      (void)lab_test_json_str (r, entry (e, "started_at"));
      (void)lab_test_json_bool (r, entry (e, "cold.requested"));
      (void)lab_test_json_bool (r, entry (e, "cold.caches_dropped"));
      (void)lab_test_json_str (r, entry (e, "cold.drop_caches_note"));
      /* at 100 ms intervals a run this size has at least one sample */
      (void)lab_test_json_num (r, entry (e, "samples.0.t_s"));
      (void)lab_test_json_num (r, entry (e, "samples.0.keys_done"));
      /* the embedded engine runs in scancmp's process: its CPU time is measured, over the CPUs it may
       * use (the mean may pass 100% by a sampling granularity: the clock ticks and the two readings) */
      {
         double busy = lab_test_json_num (r, entry (e, "cpu.busy_pct_mean"));
         assert_true (lab_test_json_num (r, entry (e, "cpu.process_s")) > 0);
         assert_true (lab_test_json_num (r, entry (e, "cpu.cores")) >= 1);
         if (!(busy > 0 && busy <= 100 * 1.05)) {
            fail_msg ("run entry %d: cpu.busy_pct_mean %g", e, busy);
         }
      }
      /* percentiles are ordered */
      assert_true (lab_test_json_num (r, entry (e, "latency_ms.p50")) <=
                   lab_test_json_num (r, entry (e, "latency_ms.p95")));
      assert_true (lab_test_json_num (r, entry (e, "latency_ms.p95")) <=
                   lab_test_json_num (r, entry (e, "latency_ms.p99")));
      assert_true (lab_test_json_num (r, entry (e, "latency_ms.p99")) <=
                   lab_test_json_num (r, entry (e, "latency_ms.max")));
   }
   for (i = 0; i < sizeof sum_fig / sizeof sum_fig[0]; i++) {
      char p[128];
      snprintf (p, sizeof p, "summary.detail.%s.median", sum_fig[i]);
      (void)lab_test_json_num (r, p);
      snprintf (p, sizeof p, "summary.folded.%s.min", sum_fig[i]);
      (void)lab_test_json_num (r, p);
   }
   assert_int_equal ((int)lab_test_json_num (r, "summary.detail.runs"), n / 2);
   /* credentials never appear; the device figures are plain numbers */
}

static void
test_cold_interleaved (void **state)
{
   char *out_path = bson_strdup_printf ("%s/cold.json", g_tmp);
   /* --direct-io: every engine cache miss is a device read, so the device-level comparison does not
    * hinge on this machine's page cache and 8 MiB readahead swallowing the small test files */
   char *args = bson_strdup_printf ("--cold --direct-io --runs 2 --out '%s'", out_path);
   char *out = NULL, *err = NULL;
   bson_t *r;
   int rc = scancmp (NULL, args, &out, &err);
   int e, n;
   int64_t detail_reads = 0, folded_reads = 0, detail_blocks = 0, folded_blocks = 0;

   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   /* the table is on stdout */
   assert_non_null (strstr (out, "one doc per row"));
   assert_non_null (strstr (out, "disk read requests"));
   assert_non_null (strstr (out, "per-master latency p99"));
   assert_non_null (strstr (out, "CPU time of the store's process"));
   assert_non_null (strstr (err, "device "));
   r = lab_test_json_load (out_path);
   check_schema (r);
   assert_true (lab_test_json_bool (r, "config.cold"));
   assert_true (lab_test_json_bool (r, "config.direct_io"));
   n = nruns (r);
   assert_int_equal (n, 4);
   /* alternate: run 1 detail first, run 2 folded first */
   assert_string_equal (lab_test_json_str (r, "runs.0.layout"), "detail");
   assert_string_equal (lab_test_json_str (r, "runs.2.layout"), "folded");
   assert_int_equal ((int)lab_test_json_num (r, "dataset.detail.count"), (int)g_rows);
   assert_int_equal ((int)lab_test_json_num (r, "dataset.folded.count"), BILLS);
   assert_int_equal ((int)lab_test_json_num (r, "dataset.keys"), BILLS);
   for (e = 0; e < n; e++) {
      const char *layout = lab_test_json_str (r, entry (e, "layout"));
      bool detail = strcmp (layout, "detail") == 0;

      assert_true (lab_test_json_bool (r, entry (e, "cold.requested")));
      assert_true (lab_test_json_bool (r, entry (e, "cold.engine_restarted")));
      if (lab_test_is_root ("cold loads drop the page cache (writing /proc/sys/vm/drop_caches needs root)")) {
         assert_true (lab_test_json_bool (r, entry (e, "cold.caches_dropped")));
      }
      /* zero resident pages of the layout's files after the cold step: its fdatasync + posix_fadvise
       * (DONTNEED) of every file of the home needs no privilege */
      assert_int_equal ((int64_t)lab_test_json_num (r, entry (e, "cold.resident_bytes_before")), 0);
      assert_true (lab_test_json_num (r, entry (e, "cold.file_bytes")) > 0);
      /* both layouts return every row */
      assert_int_equal ((int64_t)lab_test_json_num (r, entry (e, "rows")), g_rows);
      assert_int_equal ((int64_t)lab_test_json_num (r, entry (e, "docs")), detail ? g_rows : BILLS);
      assert_int_equal ((int64_t)lab_test_json_num (r, entry (e, "keys")), BILLS);
      assert_int_equal ((int64_t)lab_test_json_num (r, entry (e, "latency_ms.count")), BILLS);
      assert_int_equal ((int64_t)lab_test_json_num (r, entry (e, "workers.0.keys")) +
                           (int64_t)lab_test_json_num (r, entry (e, "workers.1.keys")),
                        BILLS);
      if (detail) {
         detail_reads += (int64_t)lab_test_json_num (r, entry (e, "read_requests"));
         detail_blocks += (int64_t)lab_test_json_num (r, entry (e, "engine.block_reads"));
      } else {
         folded_reads += (int64_t)lab_test_json_num (r, entry (e, "read_requests"));
         folded_blocks += (int64_t)lab_test_json_num (r, entry (e, "engine.block_reads"));
      }
   }
   /* the summary holds the median (of two runs: their mean), min and max of each layout's figures */
   {
      int dl[2], k = 0;
      double a, b;
      for (e = 0; e < n; e++) {
         if (strcmp (lab_test_json_str (r, entry (e, "layout")), "detail") == 0) {
            dl[k++] = e;
         }
      }
      assert_int_equal (k, 2);
      a = lab_test_json_num (r, entry (dl[0], "elapsed_s"));
      b = lab_test_json_num (r, entry (dl[1], "elapsed_s"));
      assert_true (fabs (lab_test_json_num (r, "summary.detail.elapsed_s.median") - (a + b) / 2) < 1e-9);
      assert_true (lab_test_json_num (r, "summary.detail.elapsed_s.min") == (a < b ? a : b));
      assert_true (lab_test_json_num (r, "summary.detail.elapsed_s.max") == (a > b ? a : b));
      a = lab_test_json_num (r, entry (dl[0], "latency_ms.p99"));
      b = lab_test_json_num (r, entry (dl[1], "latency_ms.p99"));
      assert_true (fabs (lab_test_json_num (r, "summary.detail.latency_p99_ms.median") - (a + b) / 2) < 1e-9);
      a = lab_test_json_num (r, entry (dl[0], "rates.read_mb_s_peak"));
      b = lab_test_json_num (r, entry (dl[1], "rates.read_mb_s_peak"));
      assert_true (lab_test_json_num (r, "summary.detail.read_mb_s_peak.max") == (a > b ? a : b));
   }
   /* the scattered rows cost more reads, at the device and in the engine */
   if (!(detail_reads > folded_reads)) {
      fail_msg ("device read requests: detail %lld, folded %lld", (long long)detail_reads,
                (long long)folded_reads);
   }
   assert_true (detail_blocks > folded_blocks);
   /* and the folded documents hold exactly the detail rows */
   {
      char *uri = bson_strdup_printf ("wiredtiger:%s", g_dir);
      assert_int_equal (lab_test_folded_rows (uri, "detail_coll", NULL, NULL), g_rows);
      bson_free (uri);
   }
   bson_destroy (r);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (out_path);
}

static void
test_warm_and_keys (void **state)
{
   char *out_path = bson_strdup_printf ("%s/warm.json", g_tmp);
   char *keys_path = bson_strdup_printf ("%s/keys.txt", g_tmp);
   char *args;
   char *out = NULL, *err = NULL;
   bson_t *r;
   FILE *f;
   int rc;

   /* warm, 25 keys spread over the range, detail first */
   args = bson_strdup_printf ("--keys-limit 25 --order detail-first --out '%s'", out_path);
   rc = scancmp (NULL, args, &out, &err);
   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   assert_non_null (strstr (out, "Warm load"));
   r = lab_test_json_load (out_path);
   check_schema (r);
   assert_false (lab_test_json_bool (r, "config.cold"));
   assert_false (lab_test_json_bool (r, "runs.0.cold.requested"));
   assert_non_null (strstr (lab_test_json_str (r, "runs.0.cold.drop_caches_note"), "warm"));
   assert_int_equal ((int)lab_test_json_num (r, "dataset.keys"), 25);
   assert_int_equal ((int)lab_test_json_num (r, "runs.0.keys"), 25);
   assert_int_equal ((int)lab_test_json_num (r, "runs.1.docs"), 25);
   assert_int_equal ((int64_t)lab_test_json_num (r, "runs.0.rows"),
                     (int64_t)lab_test_json_num (r, "runs.1.rows"));
   bson_destroy (r);
   bson_free (out);
   bson_free (err);
   bson_free (args);

   /* --out -: stdout is exactly the results JSON, the table goes to stderr */
   /* ... and --json FILE: the common summary header with the same results under "results" */
   {
      char *jpath = bson_strdup_printf ("%s/summary.json", g_tmp);
      char *a = bson_strdup_printf ("--keys-limit 3 -o - --json '%s'", jpath);
      bson_error_t je;
      bson_t *j, *sj;

      rc = scancmp (NULL, a, &out, &err);
      assert_int_equal (rc, 0);
      j = bson_new_from_json ((const uint8_t *)out, -1, &je);
      if (!j) {
         fail_msg ("stdout is not JSON (%s): %.200s", je.message, out);
      }
      assert_int_equal ((int)lab_test_json_num (j, "dataset.keys"), 3);
      sj = lab_test_json_load (jpath);
      assert_string_equal (lab_test_json_str (sj, "tool"), "scancmp");
      assert_int_equal ((int)lab_test_json_num (sj, "exit_code"), 0);
      assert_true (lab_test_json_has (sj, "started") && lab_test_json_has (sj, "elapsed_s"));
      assert_int_equal ((int)lab_test_json_num (sj, "results.dataset.keys"), 3);
      assert_int_equal ((int)lab_test_json_num (sj, "results.schema_version"),
                        (int)lab_test_json_num (j, "schema_version"));
      /* the summary and the results file name the same facts the same way */
      assert_string_equal (lab_test_json_str (sj, "version"), lab_test_json_str (j, "version"));
      assert_string_equal (lab_test_json_str (sj, "command_line.1"), lab_test_json_str (j, "command_line.1"));
      assert_string_equal (lab_test_json_str (j, "command_line.13"), "-o"); /* after the 11 of scancmp () */
      assert_true (lab_test_json_has (j, "started") && lab_test_json_has (j, "finished"));
      assert_false (lab_test_json_has (j, "tool_version") || lab_test_json_has (j, "started_at"));
      bson_destroy (sj);
      bson_destroy (j);
      bson_free (a);
      bson_free (jpath);
   }
   assert_non_null (strstr (err, "one doc per row"));
   bson_free (out);
   bson_free (err);

   /* a keys file: 3 keys (one twice, one unknown: loads nothing), folded first */
   f = fopen (keys_path, "w");
   fputs ("1005\n1000\n1005\n999999\n1599\n", f);
   fclose (f);
   args = bson_strdup_printf ("--keys-file '%s' --order folded-first --parallel 3 --out '%s'", keys_path,
                              out_path);
   rc = scancmp (NULL, args, &out, &err);
   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   r = lab_test_json_load (out_path);
   assert_int_equal ((int)lab_test_json_num (r, "dataset.keys"), 4);
   assert_string_equal (lab_test_json_str (r, "runs.0.layout"), "folded");
   assert_int_equal ((int)lab_test_json_num (r, "runs.0.docs"), 3);
   assert_int_equal ((int64_t)lab_test_json_num (r, "runs.0.rows"),
                     (int64_t)lab_test_json_num (r, "runs.1.rows"));
   assert_int_equal ((int64_t)lab_test_json_num (r, "runs.1.docs"),
                     (int64_t)lab_test_json_num (r, "runs.1.rows"));
   bson_destroy (r);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (keys_path);
   bson_free (out_path);
}

static void
test_calibrate (void **state)
{
   char *out_path = bson_strdup_printf ("%s/cal.json", g_tmp);
   char *args =
      bson_strdup_printf ("--keys-limit 5 --calibrate --calibrate-size 16MiB --calibrate-time 200ms "
                          "--out '%s'",
                          out_path);
   char *out = NULL, *err = NULL;
   bson_t *r;
   int rc = scancmp (NULL, args, &out, &err);
   char *cmd;

   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   r = lab_test_json_load (out_path);
   assert_true (lab_test_json_num (r, "calibration.seq_read_mb_s") > 0);
   assert_true (lab_test_json_num (r, "calibration.rand_read_4k_iops") > 0);
   assert_int_equal ((int64_t)lab_test_json_num (r, "calibration.file_bytes"), 16 << 20);
   /* the temporary file is gone */
   cmd = bson_strdup_printf ("ls -a '%s' | grep -c layoutlab-calibrate", g_dir);
   bson_free (out);
   lab_test_run (cmd, &out, NULL);
   assert_int_equal (atoi (out), 0);
   bson_free (cmd);
   bson_destroy (r);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (out_path);
}

static void
test_drop_caches_not_permitted (void **state)
{
   char *out_path = bson_strdup_printf ("%s/nodrop.json", g_tmp);
   char *args;
   char *out = NULL, *err = NULL;
   bson_t *r;
   int rc;
   const char *env = "LAYOUTLAB_DROP_CACHES_PATH=/nonexistent-dir/drop_caches";

   unlink (out_path);
   args = bson_strdup_printf ("--cold --drop-caches yes --keys-limit 5 --out '%s'", out_path);
   rc = scancmp (env, args, &out, &err);
   assert_int_equal (rc, 1);
   assert_non_null (strstr (err, "cannot drop the page cache"));
   assert_non_null (strstr (err, "--drop-caches auto"));
   assert_int_equal (access (out_path, F_OK), -1); /* no partial output */
   assert_null (strstr (out, "one doc per row"));
   bson_free (out);
   bson_free (err);
   bson_free (args);

   args = bson_strdup_printf ("--cold --drop-caches auto --keys-limit 5 --out '%s'", out_path);
   rc = scancmp (env, args, &out, &err);
   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   r = lab_test_json_load (out_path);
   assert_false (lab_test_json_bool (r, "runs.0.cold.caches_dropped"));
   assert_non_null (strstr (lab_test_json_str (r, "runs.0.cold.drop_caches_note"), "not permitted"));
   /* the files were still flushed out of the page cache by the engine cycle */
   assert_int_equal ((int64_t)lab_test_json_num (r, "runs.0.cold.resident_bytes_before"), 0);
   bson_destroy (r);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (out_path);
}

static void
test_bad_input (void **state)
{
   char *out_path = bson_strdup_printf ("%s/bad.json", g_tmp);
   char *args;
   char *out = NULL, *err = NULL;
   int rc;

   unlink (out_path);
   /* unknown collection */
   args = bson_strdup_printf ("--detail nosuch --out '%s'", out_path);
   rc = scancmp (NULL, args, &out, &err);
   assert_int_equal (rc, 1);
   assert_non_null (strstr (err, "\"nosuch\" does not exist"));
   assert_non_null (strstr (err, "--detail"));
   assert_int_equal (access (out_path, F_OK), -1);
   bson_free (out);
   bson_free (err);
   bson_free (args);

   /* a key field without an index: names the fix */
   args = bson_strdup_printf ("--folded noindex --out '%s'", out_path);
   rc = scancmp (NULL, args, &out, &err);
   assert_int_equal (rc, 1);
   assert_non_null (strstr (err, "\"noindex\" has no index on the key field \"bill_id\""));
   assert_non_null (strstr (err, "--create-index"));
   assert_non_null (strstr (err, "createIndex"));
   assert_int_equal (access (out_path, F_OK), -1);
   bson_free (out);
   bson_free (err);
   bson_free (args);

   /* usage errors: exit 2 */
   rc = scancmp (NULL, "--order sideways", &out, &err);
   assert_int_equal (rc, 2);
   assert_non_null (strstr (err, "--order"));
   bson_free (out);
   bson_free (err);
   rc = scancmp (NULL, "--parallel 0", &out, &err);
   assert_int_equal (rc, 2);
   bson_free (out);
   bson_free (err);
   rc = scancmp (NULL, "--detail same --folded same", &out, &err);
   assert_int_equal (rc, 2);
   assert_non_null (strstr (err, "same collection"));
   bson_free (out);
   bson_free (err);
   rc = scancmp (NULL, "--device nosuchdisk0", &out, &err);
   assert_int_equal (rc, 2);
   assert_non_null (strstr (err, "nosuchdisk0"));
   bson_free (out);
   bson_free (err);
   rc = scancmp (NULL, "--cold --restart-cmd true", &out, &err);
   assert_int_equal (rc, 2);
   assert_non_null (strstr (err, "--restart-cmd is for a MongoDB server"));
   bson_free (out);
   bson_free (err);
   rc = scancmp (NULL, "--direct-io --uri mongodb://127.0.0.1:1/x", &out, &err);
   assert_int_equal (rc, 2);
   assert_non_null (strstr (err, "--direct-io applies to the embedded store"));
   bson_free (out);
   bson_free (err);
   rc = scancmp (NULL, "--bogus", &out, &err);
   assert_int_equal (rc, 2);
   assert_non_null (strstr (err, "unknown option '--bogus'"));
   bson_free (out);
   bson_free (err);
   /* a usage error of the option check: before any work, so no summary */
   {
      char *jpath = bson_strdup_printf ("%s/usage-summary.json", g_tmp);
      unlink (jpath);
      args = bson_strdup_printf ("--interval 5ms --json '%s'", jpath);
      rc = scancmp (NULL, args, &out, &err);
      assert_int_equal (rc, 2);
      assert_non_null (strstr (err, "below 10ms"));
      assert_int_equal (access (jpath, F_OK), -1);
      bson_free (args);
      bson_free (jpath);
      bson_free (out);
      bson_free (err);
   }
   /* a failed run: the --json summary carries the common header and the error, no results */
   {
      char *jpath = bson_strdup_printf ("%s/fail-summary.json", g_tmp);
      bson_t *j;
      args = bson_strdup_printf ("--detail nosuch --json '%s'", jpath);
      rc = scancmp (NULL, args, &out, &err);
      assert_int_equal (rc, 1);
      j = lab_test_json_load (jpath);
      assert_string_equal (lab_test_json_str (j, "tool"), "scancmp");
      assert_int_equal ((int)lab_test_json_num (j, "exit_code"), 1);
      assert_false (lab_test_json_bool (j, "ok"));
      assert_non_null (strstr (lab_test_json_str (j, "error"), "\"nosuch\" does not exist"));
      assert_false (lab_test_json_has (j, "results"));
      bson_destroy (j);
      bson_free (args);
      bson_free (jpath);
      bson_free (out);
      bson_free (err);
   }
   /* --help has worked examples */
   rc = scancmp (NULL, "--help", &out, &err);
   assert_int_equal (rc, 0);
   assert_non_null (strstr (out, "Examples:"));
   assert_non_null (strstr (out, "--restart-cmd"));
   bson_free (out);
   bson_free (err);
   bson_free (out_path);
}

/* write_keys -- a keys file holding `text`; returns its path (caller frees). */
static char *
write_keys (const char *name, const char *text)
{
   char *path = bson_strdup_printf ("%s/%s", g_tmp, name);
   FILE *f = fopen (path, "w");

   assert_non_null (f);
   fputs (text, f);
   fclose (f);
   return path;
}

/* refused_no_match -- scancmp with `args` (and --out, --json) must exit 1 with LAB_SCAN_ERR_NO_MATCH's
 * message holding each of needles[] (NULL-terminated), write no results file, and a summary without
 * results. */
static void
refused_no_match (const char *args, const char *const *needles)
{
   char *out_path = bson_strdup_printf ("%s/nothing.json", g_tmp);
   char *json_path = bson_strdup_printf ("%s/nothing-summary.json", g_tmp);
   char *a = bson_strdup_printf ("%s --out '%s' --json '%s'", args, out_path, json_path);
   char *out = NULL, *err = NULL;
   bson_t *j;
   int rc;

   unlink (out_path);
   unlink (json_path);
   rc = scancmp (NULL, a, &out, &err);
   if (rc != 1) {
      fail_msg ("%s: exit %d, want 1: %s", args, rc, err);
   }
   for (; *needles; needles++) {
      if (!strstr (err, *needles)) {
         fail_msg ("%s: stderr lacks '%s': %s", args, *needles, err);
      }
   }
   assert_int_equal (access (out_path, F_OK), -1); /* no results file comparing nothing */
   assert_null (strstr (out, "one doc per row"));  /* no table */
   assert_null (strstr (err, "run 1 "));           /* nothing was measured */
   j = lab_test_json_load (json_path);
   assert_int_equal ((int)lab_test_json_num (j, "exit_code"), 1);
   assert_false (lab_test_json_has (j, "results"));
   bson_destroy (j);
   bson_free (out);
   bson_free (err);
   bson_free (a);
   bson_free (json_path);
   bson_free (out_path);
}

/* test_keys_match_nothing -- keys that match no document in either layout, or in one: exit 1 before
 * anything is measured, naming the count, the collection(s) and the key field; a hint when the keys are
 * of another type than the field. */
static void
test_keys_match_nothing (void **state)
{
   char *strings = write_keys ("strings.txt", "\"1000\"\n\"1001\"\n\"1002\"\n");
   char *absent = write_keys ("absent.txt", "5\n6\n7\n8\n");
   char *lost = write_keys ("lost.txt", "1000\n1001\n1002\n1003\n1004\n");
   char *args;

   (void)state;
   /* strings against an int32 field: the hint says so and how to fix it */
   args = bson_strdup_printf ("--keys-file '%s'", strings);
   refused_no_match (args,
                     (const char *const[]){ "none of the 3 keys in", "strings.txt",
                                            "matched a document in bill_detail or detail_coll (key "
                                            "field bill_id)",
                                            "The keys are strings (\"1000\") but bill_id in bill_detail "
                                            "holds numbers (1000): write the keys without quotes",
                                            NULL });
   bson_free (args);
   /* numbers no document holds: no type to blame, what to check instead */
   args = bson_strdup_printf ("--keys-file '%s' --cold", absent);
   refused_no_match (args, (const char *const[]){ "none of the 4 keys in",
                                                  "matched a document in bill_detail or "
                                                  "detail_coll (key field bill_id)",
                                                  "Check --key", NULL });
   bson_free (args);
   /* keys that only one layout holds: that collection is named, the other said to hold some */
   args = bson_strdup_printf ("--detail part_detail --folded part_coll --keys-file '%s'", lost);
   refused_no_match (args, (const char *const[]){ "none of the 5 keys in",
                                                  "matched a document in part_detail "
                                                  "(while part_coll holds some of them) (key field bill_id)",
                                                  NULL });
   bson_free (args);
   /* a key field only the folded documents have: no document of detail has it, so the --key is wrong
    * for that layout (exit 2, the fields it does have named) before an index is built on it */
   {
      char *out = NULL, *err = NULL;
      int rc = scancmp (
         NULL, "--detail part_detail --folded part_coll --key row_count --create-index --keys-limit 3", &out,
         &err);
      if (rc != 2 ||
          !strstr (err, "no document of part_detail has a field row_count (fields seen: bill_id, ")) {
         fail_msg ("a key only the folded documents have: exit %d, want 2 naming the fields seen: %s", rc,
                   err);
      }
      assert_null (strstr (err, "run 1 ")); /* nothing was measured */
      bson_free (out);
      bson_free (err);
   }
   bson_free (strings);
   bson_free (absent);
   bson_free (lost);
}

/* test_keys_match_partly -- keys that match in one layout only and rows that differ: warned with the
 * counts, recorded per run (runs[].keys_unmatched) and shown by layout-report; the layouts do not hold the
 * same rows, so exit 3 naming a master whose rows differ, the file written. */
static void
test_keys_match_partly (void **state)
{
   char *out_path = bson_strdup_printf ("%s/partly.json", g_tmp);
   char *report = lab_test_bin ("layout-report");
   char *args, *cmd, *md, *keys;
   char *out = NULL, *err = NULL;
   bson_t *r;
   int rc, e;

   (void)state;
   /* the default keys (part_coll's index): PART_LOST of them are gone from part_detail */
   args = bson_strdup_printf ("--detail part_detail --folded part_coll --runs 2 --out '%s'", out_path);
   rc = scancmp (NULL, args, &out, &err);
   if (rc != LAB_EXIT_DIFFERENT) {
      fail_msg ("scancmp exit %d, wanted %d: %s", rc, LAB_EXIT_DIFFERENT, err);
   }
   assert_non_null (strstr (err, "error: load: layouts detail and folded returned different rows"));
   assert_non_null (strstr (err, "the first master whose rows differ: bill_id "));
   assert_non_null (strstr (err,
                            "warning: run 1: 5 of 40 keys matched no document in part_detail (detail), 0 "
                            "in part_coll (folded)"));
   assert_null (strstr (err, "warning: run 2: 5 of 40")); /* the same counts: said once */
   assert_non_null (strstr (err, "warning: run 1: the layouts returned different row counts"));
   assert_non_null (strstr (err, "warning: run 2: the layouts returned different row counts"));
   r = lab_test_json_load (out_path);
   assert_int_equal ((int)lab_test_json_num (r, "schema_version"), LAB_RESULTS_SCHEMA_VERSION);
   for (e = 0; e < 4; e++) {
      bool detail = strcmp (lab_test_json_str (r, entry (e, "layout")), "detail") == 0;
      assert_int_equal ((int)lab_test_json_num (r, entry (e, "keys")), PART_BILLS);
      assert_int_equal ((int)lab_test_json_num (r, entry (e, "keys_unmatched")), detail ? PART_LOST : 0);
      assert_int_equal ((int)lab_test_json_num (r, entry (e, "docs")) > 0, 1);
   }
   assert_true (lab_test_json_num (r, "summary.detail.keys_unmatched.median") == PART_LOST);
   assert_true (lab_test_json_num (r, "summary.detail.rows.median") <
                lab_test_json_num (r, "summary.folded.rows.median"));
   bson_destroy (r);
   /* layout-report says both in its verdict and under the table */
   cmd = bson_strdup_printf ("'%s' '%s' --charts none -q", report, out_path);
   bson_free (out);
   bson_free (err);
   assert_int_equal (lab_test_run (cmd, &md, &err), 0);
   assert_non_null (strstr (md, "- **Some keys matched no document**: 5 of 40 keys in part_detail (detail), "
                                "none in part_coll (folded)"));
   assert_non_null (strstr (md, "- **The layouts returned different rows**: "));
   assert_non_null (strstr (md, "(2 of 2 runs differ)"));
   assert_non_null (strstr (md, "Keys that matched no document: 5 of 40 keys in part_detail"));
   bson_free (md);
   bson_free (cmd);
   bson_free (err);
   bson_free (args);

   /* keys every layout holds, rows that differ (line 1 is gone from part_detail): no key warning, the
    * row warning still, and exit 3 naming the first key's master */
   keys = write_keys ("held.txt", "1010\n1011\n1012\n1013\n1014\n1015\n1016\n1017\n1018\n1019\n");
   args = bson_strdup_printf ("--detail part_detail --folded part_coll --keys-file '%s' --out '%s'", keys,
                              out_path);
   rc = scancmp (NULL, args, &out, &err);
   if (rc != LAB_EXIT_DIFFERENT) {
      fail_msg ("scancmp exit %d, wanted %d: %s", rc, LAB_EXIT_DIFFERENT, err);
   }
   assert_non_null (strstr (err, "the first master whose rows differ: bill_id 1010 "));
   assert_null (strstr (err, "matched no document"));
   assert_non_null (strstr (err, "warning: run 1: the layouts returned different row counts"));
   r = lab_test_json_load (out_path);
   assert_int_equal ((int)lab_test_json_num (r, "runs.0.keys_unmatched"), 0);
   assert_int_equal ((int)lab_test_json_num (r, "runs.1.keys_unmatched"), 0);
   assert_true (lab_test_json_num (r, "runs.0.rows") != lab_test_json_num (r, "runs.1.rows"));
   bson_destroy (r);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (keys);

   /* the main pair with every key held: no warning at all */
   args = bson_strdup_printf ("--keys-limit 10 --out '%s'", out_path);
   rc = scancmp (NULL, args, &out, &err);
   assert_int_equal (rc, 0);
   assert_null (strstr (err, "warning: run"));
   r = lab_test_json_load (out_path);
   assert_int_equal ((int)lab_test_json_num (r, "runs.0.keys_unmatched"), 0);
   bson_destroy (r);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (report);
   bson_free (out_path);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_cold_interleaved),  cmocka_unit_test (test_warm_and_keys),
      cmocka_unit_test (test_calibrate),         cmocka_unit_test (test_drop_caches_not_permitted),
      cmocka_unit_test (test_bad_input),         cmocka_unit_test (test_keys_match_nothing),
      cmocka_unit_test (test_keys_match_partly),
   };
   return lab_test_run_group ("scan_embedded", tests, setup, teardown);
}
