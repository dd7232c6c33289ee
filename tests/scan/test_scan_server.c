/*
 * test_scan_server.c -- scancmp against the MongoDB-compatible test server (FerretDB), with
 * `--restart-cmd "scripts/mongo-test-server.sh restart --dir DIR"`: the server really restarts between
 * layouts (a new pid each time) and the run completes; a restart command that fails, and a server that
 * never comes back, end with clear errors and no results file. A cache sweep is refused: FerretDB has
 * no setParameter wiredTigerEngineRuntimeConfig. The prediction (--predict, with the range workload and
 * --sample as a DBA would run it) is refused by its probe: FerretDB gives no RecordIds.
 *
 * The test runs its own server instance (same script, its own DIR and port) rather than restarting the
 * shared fixture server under other tests running in parallel. With LAYOUTLAB_TEST_URI (a real mongod)
 * the script cannot restart it (and a real mongod has the parameter the sweep check needs FerretDB to
 * lack), so every test is skipped: the program exits 77, which ctest reports as skipped.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/store.h"
#include "tests/scan/scan_testdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BILLS 60
#define ROWS 6

static char *g_dir;    /* the private server's DIR */
static char *g_tmp;    /* results files */
static char *g_script; /* scripts/mongo-test-server.sh */
static char *g_uri;
static char *g_bin;
static int64_t g_rows;

static char *
server_cmd (const char *verb)
{
   return bson_strdup_printf ("'%s' %s --dir '%s'", g_script, verb, g_dir);
}

static int
setup (void **state)
{
   char *cmd, *out = NULL;
   lab_store_opts_t so = { 0 };
   lab_store_t *store;
   bson_error_t e;

   if (getenv ("LAYOUTLAB_TEST_URI") && *getenv ("LAYOUTLAB_TEST_URI")) {
      return 0;
   }
   g_dir = lab_test_tmpdir ("scan-server");
   g_tmp = lab_test_tmpdir ("scan-server-out");
   g_bin = lab_test_bin ("scancmp");
   g_script = bson_strdup_printf ("%s/scripts/mongo-test-server.sh", getenv ("LAB_SOURCE_DIR"));
   cmd = server_cmd ("start");
   lab_test_run_ok (cmd, &out);
   out[strcspn (out, "\n")] = '\0';
   g_uri = bson_strdup (out);
   bson_free (cmd);
   bson_free (out);

   so.db = "scantest";
   store = lab_store_open (g_uri, &so, &e);
   if (!store) {
      fail_msg ("open %s: %s", g_uri, e.message);
   }
   if (!scan_testdata_build (store, "bill_detail", "detail_coll", BILLS, ROWS, &g_rows, &e)) {
      fail_msg ("build: %s", e.message);
   }
   lab_store_close (store);
   return 0;
}

static int
teardown (void **state)
{
   if (g_dir) {
      char *cmd = server_cmd ("stop");
      lab_test_run (cmd, NULL, NULL);
      bson_free (cmd);
      lab_test_rmtree (g_dir);
      lab_test_rmtree (g_tmp);
   }
   bson_free (g_dir);
   bson_free (g_tmp);
   bson_free (g_script);
   bson_free (g_uri);
   bson_free (g_bin);
   return 0;
}

static int
scancmp (const char *args, char **out, char **err)
{
   char *cmd = bson_strdup_printf (
      "'%s' --uri '%s' --db scantest --parallel 2 --interval 100ms --progress never %s", g_bin, g_uri, args);
   int rc = lab_test_run (cmd, out, err);
   bson_free (cmd);
   return rc;
}

static int64_t
pid_file (void)
{
   char *p = bson_strdup_printf ("%s/pid", g_dir);
   FILE *f = fopen (p, "r");
   long long pid = 0;
   assert_non_null (f);
   assert_int_equal (fscanf (f, "%lld", &pid), 1);
   fclose (f);
   bson_free (p);
   return pid;
}

static void
test_restart_between_layouts (void **state)
{
   char *out_path, *restart, *args, *out = NULL, *err = NULL;
   int64_t pid0, pid1, pid2;
   bson_t *r;
   int rc;

   if (!g_dir) {
      lab_test_skip ("LAYOUTLAB_TEST_URI names a real server, which this test cannot restart");
   }
   out_path = bson_strdup_printf ("%s/server.json", g_tmp);
   restart = server_cmd ("restart");
   pid0 = pid_file ();
   args = bson_strdup_printf ("--cold --restart-cmd \"%s\" --dbpath '%s/data' --ready-timeout 60s --out '%s'",
                              restart, g_dir, out_path);
   rc = scancmp (args, &out, &err);
   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   assert_non_null (strstr (out, "one doc per row"));
   /* FerretDB says so in buildInfo: warned before the first run and under the table, recorded */
   assert_non_null (strstr (err, "warning: the server is ferretdb: these figures are not mongod's"));
   assert_non_null (strstr (out, "server: ferretdb -- these figures are not mongod's"));
   r = lab_test_json_load (out_path);
   assert_string_equal (lab_test_json_str (r, "backend.product"), "ferretdb");
   pid1 = (int64_t)lab_test_json_num (r, "runs.0.cold.server_pid");
   pid2 = (int64_t)lab_test_json_num (r, "runs.1.cold.server_pid");
   /* a new server process before each layout */
   assert_true (pid1 != pid0);
   assert_true (pid2 != pid1);
   assert_int_equal (pid2, pid_file ());
   assert_true (lab_test_json_bool (r, "runs.0.cold.server_restarted"));
   assert_true (lab_test_json_bool (r, "runs.1.cold.server_restarted"));
   assert_true (lab_test_json_num (r, "runs.1.cold.server_uptime_s") < 60);
   /* the run completed with every row from both layouts */
   assert_int_equal ((int64_t)lab_test_json_num (r, "runs.0.rows"), g_rows);
   assert_int_equal ((int64_t)lab_test_json_num (r, "runs.1.rows"), g_rows);
   assert_int_equal ((int64_t)lab_test_json_num (r, "runs.0.keys"), BILLS);
   assert_int_equal ((int64_t)lab_test_json_num (r, "dataset.keys"), BILLS);
   /* local server with --dbpath: its disk was sampled and its files' residency recorded */
   (void)lab_test_json_num (r, "runs.0.read_requests");
   (void)lab_test_json_num (r, "runs.0.cold.file_bytes");
   assert_true (lab_test_json_bool (r, "backend.server_local"));
   /* the server's pid is known and on this machine (pid_file): its RSS and its CPU time come from its
    * /proc, both present in every run (a remote server's CPU is absent: deploy.sh) */
   {
      int e;
      for (e = 0; e < 2; e++) {
         char p[64];
         double busy;
         snprintf (p, sizeof p, "runs.%d.memory.server_rss_peak_bytes", e);
         assert_true (lab_test_json_num (r, p) > 0);
         snprintf (p, sizeof p, "runs.%d.cpu.process_s", e);
         assert_true (lab_test_json_num (r, p) > 0);
         snprintf (p, sizeof p, "runs.%d.cpu.cores", e);
         assert_true (lab_test_json_num (r, p) >= 1);
         snprintf (p, sizeof p, "runs.%d.cpu.busy_pct_mean", e);
         busy = lab_test_json_num (r, p);
         if (!(busy > 0 && busy <= 100 * 1.05)) {
            fail_msg ("runs.%d.cpu.busy_pct_mean %g", e, busy);
         }
      }
   }
   /* a server's memory is not this process's: no allocator recorded */
   assert_false (lab_test_json_has (r, "backend.allocator"));
   bson_destroy (r);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (restart);
   bson_free (out_path);
}

static void
test_restart_failures (void **state)
{
   char *out_path, *args, *out = NULL, *err = NULL, *cmd;
   int rc;

   if (!g_dir) {
      lab_test_skip ("LAYOUTLAB_TEST_URI names a real server, which this test cannot restart");
   }
   out_path = bson_strdup_printf ("%s/fail.json", g_tmp);
   unlink (out_path);

   /* the command fails */
   args =
      bson_strdup_printf ("--cold --restart-cmd 'echo restarting; : mongodb://admin:s3cret@db1/x; exit 7' "
                          "--keys-limit 3 --out '%s'",
                          out_path);
   rc = scancmp (args, &out, &err);
   assert_int_equal (rc, 1);
   assert_non_null (strstr (err, "restart command"));
   assert_non_null (strstr (err, "exit code 7"));
   /* the command is shown redacted */
   assert_null (strstr (err, "s3cret"));
   assert_non_null (strstr (err, "db1/x"));
   assert_null (strstr (out, "restarting")); /* its output went to stderr, not into our stdout */
   assert_int_equal (access (out_path, F_OK), -1);
   bson_free (out);
   bson_free (err);
   bson_free (args);

   /* a restart command without --cold is a usage error */
   rc = scancmp ("--restart-cmd true --keys-limit 3", &out, &err);
   assert_int_equal (rc, 2);
   assert_non_null (strstr (err, "add --cold"));
   bson_free (out);
   bson_free (err);

   /* the command hangs */
   args = bson_strdup_printf (
      "--cold --restart-cmd 'sleep 30' --restart-timeout 1s --keys-limit 3 --out '%s'", out_path);
   rc = scancmp (args, &out, &err);
   assert_int_equal (rc, 1);
   assert_non_null (strstr (err, "did not finish within 1.0 s"));
   assert_int_equal (access (out_path, F_OK), -1);
   bson_free (out);
   bson_free (err);
   bson_free (args);

   /* the server never comes back: the "restart" only stops it */
   cmd = server_cmd ("stop");
   args = bson_strdup_printf ("--cold --restart-cmd \"%s\" --ready-timeout 2s --keys-limit 3 --out '%s'", cmd,
                              out_path);
   rc = scancmp (args, &out, &err);
   assert_int_equal (rc, 1);
   assert_non_null (strstr (err, "did not answer ping within 2 s"));
   assert_int_equal (access (out_path, F_OK), -1);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (cmd);
   cmd = server_cmd ("start");
   assert_int_equal (lab_test_run (cmd, NULL, NULL), 0);
   bson_free (cmd);
   bson_free (out_path);
}

/* test_server_cache_sweep_refused -- FerretDB has no wiredTigerEngineRuntimeConfig: --server-cache-sweep
 * (with the --cold --restart-cmd it needs) is refused by the probe before anything is measured (exit 1,
 * no results file, the reason naming FerretDB); without --cold, and without the flag, a sweep against a
 * server is a usage error (exit 2). */
static void
test_server_cache_sweep_refused (void **state)
{
   char *out_path, *args, *out = NULL, *err = NULL;
   int rc;

   if (!g_dir) {
      lab_test_skip ("LAYOUTLAB_TEST_URI names a real server: this check needs the test server, which "
                     "lacks wiredTigerEngineRuntimeConfig");
   }
   out_path = bson_strdup_printf ("%s/sweep.json", g_tmp);
   args = bson_strdup_printf ("--cache-sizes 64MiB,256MiB --server-cache-sweep --cold --restart-cmd true "
                              "--drop-caches no --keys-limit 3 --out '%s'",
                              out_path);
   rc = scancmp (args, &out, &err);
   if (rc != 1 || !strstr (err, "wiredTigerEngineRuntimeConfig") || !strstr (err, "--server-cache-sweep") ||
       !strstr (err, "FerretDB")) {
      fail_msg ("exit %d (want 1): %s", rc, err);
   }
   assert_null (strstr (err, "run 1 detail")); /* refused before measuring */
   assert_int_equal (access (out_path, F_OK), -1);
   bson_free (out);
   bson_free (err);
   bson_free (args);

   /* without --cold the points would inherit each other's cache: refused before anything */
   args = bson_strdup_printf ("--cache-sizes 64MiB,256MiB --server-cache-sweep --keys-limit 3 --out '%s'",
                              out_path);
   rc = scancmp (args, &out, &err);
   assert_int_equal (rc, 2);
   assert_non_null (strstr (err, "--cold"));
   assert_int_equal (access (out_path, F_OK), -1);
   bson_free (out);
   bson_free (err);
   bson_free (args);

   args = bson_strdup_printf ("--cache-ratios 0.5,1 --keys-limit 3 --out '%s'", out_path);
   rc = scancmp (args, &out, &err);
   assert_int_equal (rc, 2);
   assert_non_null (strstr (err, "add --server-cache-sweep"));
   assert_int_equal (access (out_path, F_OK), -1);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (out_path);
}

/* test_predict_range_refused -- --predict --workload range --sample 0.5 on the test server, its caches
 * given without --server-cache-sweep (a prediction sets none): the probe stops at the RecordIds FerretDB
 * lacks (exit 1, the reason named, no results file) -- the server's side of the sampled range (a find per
 * sampled master, hinted, projected) runs only against a mongod. */
static void
test_predict_range_refused (void **state)
{
   char *out_path, *args, *out = NULL, *err = NULL;
   int rc;

   (void)state;
   if (!g_dir) {
      lab_test_skip ("LAYOUTLAB_TEST_URI names a real server: this check needs the test server, which "
                     "returns no RecordIds");
   }
   out_path = bson_strdup_printf ("%s/pred.json", g_tmp);
   args = bson_strdup_printf ("--predict --cache-sizes 8MiB,32MiB --workload range,aggregate --sample 0.5 "
                              "--out '%s'",
                              out_path);
   rc = scancmp (args, &out, &err);
   if (rc != 1 || !strstr (err, "returns no usable RecordIds")) {
      fail_msg ("exit %d (want 1): %s", rc, err);
   }
   assert_int_equal (access (out_path, F_OK), -1);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (out_path);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_restart_between_layouts),
      cmocka_unit_test (test_server_cache_sweep_refused),
      cmocka_unit_test (test_restart_failures),
      cmocka_unit_test (test_predict_range_refused),
   };
   return lab_test_run_group ("scan_server", tests, setup, teardown);
}
