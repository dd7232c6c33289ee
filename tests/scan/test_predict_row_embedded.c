/*
 * test_predict_row_embedded.c -- the other workloads' prediction ("predicted_workloads") against a measured
 * cold run of them on the same small store: a row read's engine bytes per read (row_read_bytes_per_query,
 * the reads into a cache that keeps them, and each point's through an LRU cache of its size, one below what
 * the reads touch) and an append's journal bytes per write, on the detail layout, the fold, a clustered
 * copy (its row read walks a {key, line} index whose entries end in the _id's KeyString) and buckets of 10
 * rows (20 appends per master: past a bucket a new one starts and the earlier ones are rewritten).
 * Predicted first, on the data as it is (no {key, line} index yet), then measured. Bytes only, never times.
 */
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define BILLS 300
#define MEAN_ROWS 40
#define CACHES "4MiB,16MiB" /* below the pages the reads touch, then holding them */
#define NPOINTS 2
#define ROW_KEYS "200"
#define APPENDS "600"
#define BUCKET_ROWS "10"

/* The bands: seen within 10% (row reads) and 7% (journal) on this data; the journal's goes red with the
 * appends not growing the documents (-14%, -30%) or no bucket rewritten (-41%). The row reads through the
 * cache below the pages they touch (4MiB) depend on the eviction threads' timing: with other processes
 * keeping the cores busy the engine reads more than the LRU cache predicted (the detail layout -22% once
 * alone, -6% to -24% beside four busy loops, -27% once in a CI run beside a cold measurement), never less:
 * that point's band is wider under the figure, not over it. */
#define TOL_ROW 0.25
#define TOL_ROW_SHORT 0.35 /* the figure under the measured, at the cache below the pages touched */
#define TOL_JOURNAL 0.12

static char *g_bin;

/* measured_of -- in the measured file's point `pt`, workload `wl`'s layout `layout`: its field `field`
 * (a dotted path inside the layout's entry); -1 when absent. */
static double
measured_of (const bson_t *meas, int pt, const char *wl, const char *layout, const char *field)
{
   char path[128];
   int w, l;

   for (w = 0; w < 8; w++) {
      const char *name;
      snprintf (path, sizeof path, "sweep.%d.workloads.%d.workload", pt, w);
      if (!lab_test_json_has (meas, path)) {
         break;
      }
      name = lab_test_json_str (meas, path);
      if (strcmp (name, wl) != 0) {
         continue;
      }
      for (l = 0; l < 8; l++) {
         snprintf (path, sizeof path, "sweep.%d.workloads.%d.layouts.%d.layout", pt, w, l);
         if (!lab_test_json_has (meas, path)) {
            break;
         }
         if (strcmp (lab_test_json_str (meas, path), layout) == 0) {
            snprintf (path, sizeof path, "sweep.%d.workloads.%d.layouts.%d.%s", pt, w, l, field);
            return lab_test_json_has (meas, path) ? lab_test_json_num (meas, path) : -1;
         }
      }
   }
   return -1;
}

/* check -- one figure within its band, `under` below the measured to `over` above it; prints it either way
 * (the errors seen are the test's record). */
static int
check (const char *what, const char *layout, double p, double m, double under, double over)
{
   double err = m > 0 ? (p - m) / m : NAN;

   print_message ("%-10s %-9s predicted %10.0f measured %10.0f error %+6.1f%% (band -%.0f%% to +%.0f%%)\n",
                  what, layout, p, m, 100 * err, 100 * under, 100 * over);
   if (p < 0 || m <= 0 || !(err >= -under && err <= over)) {
      print_message ("  ^ outside the band\n");
      return 1;
   }
   return 0;
}

/* test_row_and_append -- predict, measure cold at the same cache, compare per layout. */
static void
test_row_and_append (void **state)
{
   static const char *const layouts[] = { "detail", "folded", "clustered", "buckets" };
   char *dir = lab_test_folded_store ("predict-row", BILLS, MEAN_ROWS, "");
   char *fold = lab_test_bin ("fold-details");
   char *pp = bson_strdup_printf ("%s/pred.json", dir), *mp = bson_strdup_printf ("%s/meas.json", dir);
   char *cmd;
   bson_t *pred, *meas;
   int bad = 0;
   size_t l;

   (void)state;
   cmd = bson_strdup_printf ("'%s' --uri 'wiredtiger:%s' --src bill_detail --dst detail_clustered --shape "
                             "clustered --progress never -q",
                             fold, dir);
   lab_test_run_ok (cmd, NULL);
   bson_free (cmd);
   cmd = bson_strdup_printf ("'%s' --uri 'wiredtiger:%s' --src bill_detail --dst detail_b20 --bucket-rows "
                             "%s --progress never -q",
                             fold, dir, BUCKET_ROWS);
   lab_test_run_ok (cmd, NULL);
   bson_free (cmd);
   /* predicted first: the data as the measured run finds it */
   cmd = bson_strdup_printf (
      "'%s' --uri 'wiredtiger:%s' --parallel 2 --progress never -q --cache-sizes " CACHES
      " --predict --row-keys " ROW_KEYS " --append-rows " APPENDS " --bucket-rows %s --out '%s'",
      g_bin, dir, BUCKET_ROWS, pp);
   lab_test_run_ok (cmd, NULL);
   bson_free (cmd);
   cmd = bson_strdup_printf (
      "'%s' --uri 'wiredtiger:%s' --parallel 2 --progress never -q --layout detail=bill_detail:rows --layout "
      "folded=detail_coll:folded --layout clustered=detail_clustered:rows --layout "
      "buckets=detail_b20:buckets "
      "--cache-sizes " CACHES " --cold --direct-io --workload load,append,row --create-workload-indexes "
      "--row-keys " ROW_KEYS " --append-rows " APPENDS " --out '%s'",
      g_bin, dir, mp);
   lab_test_run_ok (cmd, NULL);
   bson_free (cmd);
   pred = lab_test_json_load (pp);
   meas = lab_test_json_load (mp);
   assert_int_equal ((int)lab_test_json_num (pred, "predicted_workloads.row_reads"), 200);
   for (l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
      char path[160], what[32];
      double j = -1;
      int pt;
      for (pt = 0; pt < NPOINTS; pt++) {
         /* each point's row reads through a cache of its size */
         double m = measured_of (meas, pt, "row", layouts[l], "engine_read_bytes");
         double q = measured_of (meas, pt, "row", layouts[l], "queries");
         snprintf (path, sizeof path, "sweep.%d.row_read_bytes_per_query.%s", pt, layouts[l]);
         snprintf (what, sizeof what, "row@%s", pt == 0 ? "4MiB" : "16MiB");
         bad += check (what, layouts[l], lab_test_json_num (pred, path), q > 0 ? m / q : -1,
                       pt == 0 ? TOL_ROW_SHORT : TOL_ROW, TOL_ROW);
         if (j < 0) {
            j = measured_of (meas, pt, "append", layouts[l], "write.journal_bytes_per_write");
         }
      }
      /* with a cache that keeps them, the distinct pages (and the one figure of the layout) */
      snprintf (path, sizeof path, "predicted_workloads.layouts.%s.row_read_bytes_per_query", layouts[l]);
      bad += check ("row", layouts[l], lab_test_json_num (pred, path),
                    measured_of (meas, 1, "row", layouts[l], "engine_read_bytes") /
                       measured_of (meas, 1, "row", layouts[l], "queries"),
                    TOL_ROW, TOL_ROW);
      /* the trees' internal pages are counted: every tree has one at least (its root) */
      snprintf (path, sizeof path, "predicted_workloads.layouts.%s.data_internal_pages", layouts[l]);
      assert_true (lab_test_json_num (pred, path) >= 1);
      snprintf (path, sizeof path, "predicted_workloads.layouts.%s.append_journal_bytes_per_write",
                layouts[l]);
      bad += check ("journal", layouts[l], lab_test_json_num (pred, path), j, TOL_JOURNAL, TOL_JOURNAL);
   }
   if (bad > 0) {
      fail_msg ("%d predicted figure(s) outside their band", bad);
   }
   bson_destroy (pred);
   bson_destroy (meas);
   bson_free (pp);
   bson_free (mp);
   bson_free (fold);
   lab_test_rmtree (dir);
   bson_free (dir);
}

/* setup -- the scancmp binary. */
static int
setup (void **state)
{
   (void)state;
   g_bin = lab_test_bin ("scancmp");
   return 0;
}

/* teardown -- free it. */
static int
teardown (void **state)
{
   (void)state;
   bson_free (g_bin);
   return 0;
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_row_and_append),
   };
   return lab_test_run_group ("predict_row_embedded", tests, setup, teardown);
}
