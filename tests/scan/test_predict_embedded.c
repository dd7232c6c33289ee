/*
 * test_predict_embedded.c -- the prediction against the tool's own measurements, on the real
 * tools' small data in three shapes (billgen's default interleaved open bills, clustered, a heavy-tailed
 * zipf row distribution): `scancmp --predict` on the detail collection alone, then a measured cold
 * `--direct-io` sweep of the same points, keys and workers. Per point the predicted read amplification of
 * each layout is within a stated band of the measured one (TOL_REL of it where a scattered layout's load
 * rereads; elsewhere LRU's floor: not above the measured + TOL_ABS). And the probe reads no document: its
 * results say 0 fetched and the engine read, for the index walk, less than half the collection's size (a walk
 * fetching each document would read it all and more). And the record says which engine gave each point's
 * figures (check_models: the LRU or the miniature of WiredTiger's eviction, with the model's version). And
 * the folded layout's leaf pages are within FOLD_PAGES_TOL of the folded copy's (check_folded_pages).
 *
 * Read amplifications are byte counts of a deterministic load (fixed data, fixed keys, fixed workers'
 * segments): the figures move only with the workers' interleaving and WiredTiger's eviction, which the
 * band absorbs. No timing is asserted.
 */
#include "tests/testutil.h"

#include "scan/predict/predict.h"
#include "store/store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BILLS 2000
#define MEAN_ROWS 40
#define RATIOS "0.2,0.5,1,4"
#define NPOINTS 4
#define KEYS_LIMIT 400

/* The band the prediction holds (docs/results.md "Predicted before folding"). Where the measured load
 * rereads (read amplification above 2) on a shape whose rows are scattered: within TOL_REL of it (seen
 * -9% to -31% with the LRU alone: WiredTiger rereads more than LRU would; -2% to -13% with the eviction
 * miniature). Elsewhere the model gives LRU's floor, every page
 * touched read once, and WiredTiger's figure varies from run to run above it (the clustered shape's
 * detail layout at ratio 4 measured 0.85, 1.72 and 3.20 in three runs): there the prediction must not be
 * more than TOL_ABS above the measured one, and on the clustered shape it must say the load does not
 * reread (at most 2 at every point). */
#define TOL_REL 0.40
#define TOL_ABS 0.25
/* Where the model ran its held "no keep" episodes (an in-order load: sim_held_wakes > 0) it gives the
 * rereads' typical figure, not LRU's floor, and a run that does not reread lies under it (the clustered
 * shape's ratio 4 read 0.85 twice, and 4.65 another time; the medians of 3-12 runs on --order
 * clustered, 1,000 bills, 4 workers: 1.26-2.18): there the prediction must be within TOL_HELD of the
 * measured one, either side, and at most 2 where the load does not reread. */
#define TOL_HELD 0.60

/* The folded layout's leaf pages predicted (WiredTiger 3.2.1's reconciliation of the fold's in-order insert,
 * scan/predict/predict_pack.c) against the folded copy's: seen -1% to +4% on five shapes; the old rule, whole
 * documents at the detail's average fill, +8% to +25%. */
#define FOLD_PAGES_TOL 0.10

static char *g_bin;

/* make_data -- billgen generate with `shape` (its options), folded by fold-details. */
static char *
make_data (const char *tag, const char *shape)
{
   return lab_test_folded_store (tag, BILLS, MEAN_ROWS, shape);
}

/* scancmp -- run it on dir with args, failing the test on a non-zero exit. */
static void
scancmp (const char *dir, const char *args)
{
   char *cmd = bson_strdup_printf ("'%s' --uri 'wiredtiger:%s' --parallel 2 --keys-limit %d --interval 100ms "
                                   "--progress never -q --cache-ratios " RATIOS " %s",
                                   g_bin, dir, KEYS_LIMIT, args);
   lab_test_run_ok (cmd, NULL);
   bson_free (cmd);
}

/* num -- a number of the results, failing when it is missing. */
static double
num (const bson_t *r, const char *path)
{
   if (!lab_test_json_has (r, path)) {
      fail_msg ("results lack %s", path);
   }
   return lab_test_json_num (r, path);
}

/* count_lines -- lines of `s` that start with `prefix`. */
static int
count_lines (const char *s, const char *prefix)
{
   int n = 0;
   const char *p = s;

   while (p && *p) {
      n += strncmp (p, prefix, strlen (prefix)) == 0;
      p = strchr (p, '\n');
      p = p ? p + 1 : NULL;
   }
   return n;
}

/* band_row -- whether a table row of `md` (a line starting "| ") shows a band, "| A to B |". */
static bool
band_row (const char *md)
{
   const char *line;

   for (line = md; line && *line; line = strchr (line, '\n') ? strchr (line, '\n') + 1 : NULL) {
      const char *end = strchr (line, '\n'), *to = strstr (line, " to ");
      if (strncmp (line, "| ", 2) == 0 && to && (!end || to < end)) {
         return true;
      }
   }
   return false;
}

/* check_report -- layout-report renders the predicted file as a prediction, and a measured sweep with
 * --prediction gets the section with one row per point, the bands of `pred` (its results) in them. */
static void
check_report (const char *dir, const char *pred_path, const char *meas_path, const bson_t *pred)
{
   char *bin = lab_test_bin ("layout-report"), *cmd, *out = NULL, *sec;

   (void)dir;
   cmd = bson_strdup_printf ("'%s' '%s' --charts none", bin, pred_path);
   lab_test_run_ok (cmd, &out);
   assert_non_null (strstr (out, "## This is a prediction"));
   bson_free (cmd);
   bson_free (out);
   out = NULL;
   cmd = bson_strdup_printf ("'%s' '%s' --prediction '%s' --charts none", bin, meas_path, pred_path);
   lab_test_run_ok (cmd, &out);
   sec = strstr (out, "## Predicted beside measured");
   if (!sec) {
      fail_msg ("no section \"Predicted beside measured\" in:\n%s", out);
   }
   /* the header, its rule and one row per point, up to the next section */
   {
      const char *next = strstr (sec + 1, "\n## ");
      char *part = next ? bson_strndup (sec, (size_t)(next - sec)) : bson_strdup (sec);
      assert_int_equal (count_lines (part, "| "), 1 + NPOINTS);
      assert_null (strstr (part, "No point of the prediction"));
      /* this shape's load is not in order: the detail layout's band is shown in a row, "| A to B |" */
      if (!band_row (part)) {
         fail_msg ("the report shows no band (\"A to B\") for a load not in order:\n%s", part);
      }
      /* at 2 workers, not the band's measured 4: the report says so under the table */
      if (!strstr (part, "Note: the band's held \"no keep\" episodes were measured at 4 workers and are "
                         "scaled to 2 here, not measured: one worker's loads read over")) {
         fail_msg ("the report does not say the band was measured at 4 workers:\n%s", part);
      }
      /* the speedup's band in the row of a point whose folded layout states one: from its lower edge
       * (speedup_low) to the detail's held edge, or to the figure */
      {
         int i;
         for (i = 0; i < NPOINTS; i++) {
            char path[128], cell[96], a[32], b[32];
            double lo, hi;
            snprintf (path, sizeof path, "sweep.%d.speed.key.speedup_low", i);
            if (!lab_test_json_has (pred, path)) {
               continue;
            }
            lo = num (pred, path);
            snprintf (path, sizeof path, "sweep.%d.speed.key.speedup_held", i);
            if (!lab_test_json_has (pred, path)) {
               snprintf (path, sizeof path, "sweep.%d.speed.key.speedup", i);
            }
            hi = num (pred, path);
            snprintf (a, sizeof a, "%.2f", lo);
            snprintf (b, sizeof b, "%.2f", hi);
            /* edges that show the same are shown as the one figure */
            if (strcmp (a, b) != 0) {
               snprintf (cell, sizeof cell, "| %s to %s |", a, b);
            } else {
               snprintf (cell, sizeof cell, "| %s |", a);
            }
            if (!strstr (part, cell)) {
               fail_msg ("point %d: the report shows no speedup band \"%s\":\n%s", i, cell, part);
            }
         }
      }
      bson_free (part);
   }
   bson_free (cmd);
   bson_free (out);
   bson_free (bin);
}

/* check_held_band -- where the miniature gave point i's `layout` figure: the detail layout of a load not in
 * order (no held wakes: a scattered shape) and the folded layout's load, in key order, state the band's
 * upper edge, the same run with the eviction threads' held "no keep" episodes (docs/results.md, "No keep at
 * twice the file"), not under the figure itself, and the speedup's edge at those reads (the detail's over
 * the speedup, the folded layout's under it); the detail layout of an in-order load (its episodes are in
 * the figure) states none. */
static void
check_held_band (const char *tag, const bson_t *pred, int i, const char *layout, bool scattered)
{
   bool detail = strcmp (layout, "detail") == 0;
   bool want = !detail || scattered;
   char path[128], held[128];

   snprintf (path, sizeof path, "sweep.%d.%s.read_amplification", i, layout);
   snprintf (held, sizeof held, "sweep.%d.%s.read_amplification_held", i, layout);
   if (want != lab_test_json_has (pred, held)) {
      fail_msg ("%s: %s is %s", tag, held, want ? "missing" : "there, for a layout that states no band");
   }
   if (want) {
      print_message ("%s point %d %s: read amplification %.2f, held band to %.2f\n", tag, i, layout,
                     num (pred, path), num (pred, held));
      if (!(num (pred, held) >= num (pred, path))) {
         fail_msg ("%s: %s %.2f under the figure %.2f", tag, held, num (pred, held), num (pred, path));
      }
      /* the speedup's band: the layout's load timed at the held edge's reads; the detail's raises the
       * speedup, the folded layout's lowers it */
      snprintf (path, sizeof path, "sweep.%d.speed.key.speedup", i);
      snprintf (held, sizeof held, "sweep.%d.speed.key.%s", i, detail ? "speedup_held" : "speedup_low");
      if (lab_test_json_has (pred, path) &&
          (!lab_test_json_has (pred, held) ||
           !(detail ? num (pred, held) >= num (pred, path) : num (pred, held) <= num (pred, path)))) {
         fail_msg ("%s: %s missing or %s the speedup %.2f", tag, held, detail ? "under" : "over",
                   num (pred, path));
      }
   }
}

/* check_models -- the record names its model's version, and each point's layouts the engine that gave
 * their figure: "lru", or "wt-evict-sim" with LRU's figure beside it; a scattered shape's load rereads at
 * some point where the two can differ, so the miniature gives at least one of its figures. */
static void
check_models (const char *tag, const bson_t *pred, bool scattered)
{
   static const char *const layouts[] = { "detail", "folded" };
   const char *v = lab_test_json_str (pred, "prediction.model.model_version");
   char path[128];
   int i, l, sims = 0;

   if (!v || !*v) {
      fail_msg ("%s: the prediction has no prediction.model.model_version", tag);
   }
   for (i = 0; i < NPOINTS; i++) {
      for (l = 0; l < 2; l++) {
         const char *m;
         snprintf (path, sizeof path, "sweep.%d.%s.model", i, layouts[l]);
         m = lab_test_json_str (pred, path);
         if (!m || (strcmp (m, "lru") != 0 && strcmp (m, "wt-evict-sim") != 0)) {
            fail_msg ("%s: %s is %s, not lru or wt-evict-sim", tag, path, m ? m : "missing");
         }
         if (strcmp (m, "wt-evict-sim") == 0) {
            sims++;
            snprintf (path, sizeof path, "sweep.%d.%s.lru_read_amplification", i, layouts[l]);
            (void)num (pred, path);
            check_held_band (tag, pred, i, layouts[l], scattered);
         }
      }
   }
   print_message ("%s: model %s, %d of %d figures from the eviction miniature\n", tag, v, sims, 2 * NPOINTS);
   if (scattered && sims == 0) {
      fail_msg ("%s: a scattered shape rereads, yet no point ran the eviction miniature", tag);
   }
}

/* check_speed -- a prediction without --calibrate carries its cost figures' source and, per point, each
 * layout's load seconds and the speedup in both load orders, and its runs an elapsed time (the speedup
 * beside the measured one is printed, not asserted: timings). */
static void
check_speed (const char *tag, const bson_t *pred, const bson_t *meas)
{
   static const char *const orders[] = { "key", "random" };
   const char *src = lab_test_json_str (pred, "prediction.cost.source");
   char path[128];
   int i, k;

   if (!src || strncmp (src, "measured by the probe: ", 23) != 0) {
      fail_msg ("%s: prediction.cost.source is \"%s\", not the probe's measure", tag,
                src ? src : "(missing)");
   }
   assert_true (num (pred, "prediction.cost.first_read_s") > 0);
   assert_true (num (pred, "prediction.cost.cpu_rows") > 0);
   for (i = 0; i < NPOINTS; i++) {
      double d, f, x, m;
      for (k = 0; k < 2; k++) {
         snprintf (path, sizeof path, "sweep.%d.speed.%s.detail_s", i, orders[k]);
         d = num (pred, path);
         snprintf (path, sizeof path, "sweep.%d.speed.%s.folded_s", i, orders[k]);
         f = num (pred, path);
         snprintf (path, sizeof path, "sweep.%d.speed.%s.speedup", i, orders[k]);
         x = num (pred, path);
         assert_true (d > 0 && f > 0 && fabs (x - d / f) <= 1e-9 * x);
      }
      snprintf (path, sizeof path, "sweep.%d.runs.0.elapsed_s", i);
      assert_true (num (pred, path) > 0);
      /* key order's load times read the point's own bytes (the eviction miniature's where it ran) */
      for (k = 0; k < 2; k++) {
         double sb, eb;
         snprintf (path, sizeof path, "sweep.%d.speed.key.%s_read_bytes", i, k == 0 ? "detail" : "folded");
         sb = num (pred, path);
         snprintf (path, sizeof path, "sweep.%d.runs.%d.engine.block_read_bytes", i, k);
         eb = num (pred, path);
         if (!(fabs (sb - eb) <= 1 + 1e-9 * eb)) { /* the point records whole bytes */
            fail_msg ("%s point %d: the load time read %.0f bytes, the point %.0f", tag, i, sb, eb);
         }
      }
      snprintf (path, sizeof path, "sweep.%d.speed.key.speedup", i);
      x = num (pred, path);
      snprintf (path, sizeof path, "sweep.%d.summary.detail.elapsed_s.median", i);
      m = num (meas, path);
      snprintf (path, sizeof path, "sweep.%d.summary.folded.elapsed_s.median", i);
      m = num (meas, path) > 0 ? m / num (meas, path) : 0;
      print_message ("%s point %d: speedup predicted %.2f (no --calibrate), measured %.2f\n", tag, i, x, m);
   }
}

/* outside_band -- the predicted read amplifications of `pred` outside the band of `meas`'s, each printed. */
static int
outside_band (const char *tag, const bson_t *pred, const bson_t *meas, bool scattered)
{
   static const char *const layouts[] = { "detail", "folded" };
   char path[128];
   int i, l, bad = 0;

   for (i = 0; i < NPOINTS; i++) {
      for (l = 0; l < 2; l++) {
         double p, m, ratio;
         bool held;
         snprintf (path, sizeof path, "sweep.%d.cache_ratio", i);
         ratio = num (meas, path);
         snprintf (path, sizeof path, "sweep.%d.%s.read_amplification", i, layouts[l]);
         p = num (pred, path);
         m = num (meas, path);
         snprintf (path, sizeof path, "sweep.%d.%s.sim_held_wakes", i, layouts[l]);
         held = lab_test_json_has (pred, path) && num (pred, path) > 0;
         print_message ("%s ratio %.2f %s: read amplification predicted %.2f, measured %.2f (%+.0f%%)%s\n",
                        tag, ratio, layouts[l], p, m, m > 0 ? 100 * (p - m) / m : 0, held ? " (held)" : "");
         if (held && !(scattered && m > 2)) {
            if (!(fabs (p - m) <= TOL_HELD && (scattered || p <= 2))) {
               print_message ("  ^ outside the band (held: within %.2f%s)\n", TOL_HELD,
                              scattered ? "" : " and at most 2");
               bad++;
            }
         } else if (scattered && m > 2 ? !(fabs (p - m) <= TOL_REL * m)
                                       : !(p <= m + TOL_ABS && (scattered || p <= 2))) {
            print_message ("  ^ outside the band (rereads: %.0f%%; else at most +%.2f%s)\n", TOL_REL * 100,
                           TOL_ABS, scattered ? "" : " and at most 2");
            bad++;
         }
      }
   }
   return bad;
}

/* check_folded_pages -- the folded layout's leaf pages predicted within FOLD_PAGES_TOL of the folded copy's
 * (detail_coll's, counted by the engine). */
static void
check_folded_pages (const char *tag, const char *dir, const bson_t *pred)
{
   char *uri = bson_strdup_printf ("wiredtiger:%s", dir);
   lab_store_t *store = lab_test_store_open (uri);
   lab_store_session_t *s;
   bson_error_t e;
   int64_t pages = 0;
   double p = num (pred, "prediction.model.folded_pages");

   s = lab_store_session_open (store, &e);
   if (!s || !lab_store_leaf_pages (s, "detail_coll", &pages, &e) || pages <= 0) {
      fail_msg ("%s: detail_coll's leaf pages: %s", tag, s ? e.message : "no session");
   }
   print_message ("%s: folded leaf pages predicted %.0f, measured %lld (%+.1f%%)\n", tag, p, (long long)pages,
                  100 * (p / (double)pages - 1));
   if (!(fabs (p / (double)pages - 1) <= FOLD_PAGES_TOL)) {
      fail_msg ("%s: folded leaf pages predicted %.0f, measured %lld: outside %.0f%%", tag, p,
                (long long)pages, 100 * FOLD_PAGES_TOL);
   }
   lab_store_session_close (s);
   lab_store_close (store);
   bson_free (uri);
}

/* check_shape -- predict, measure, compare per point and layout; the probe read no document. */
static void
check_shape (const char *tag, const char *shape, bool scattered, bool report)
{
   char *dir = make_data (tag, shape);
   char *pred_path = bson_strdup_printf ("%s/pred.json", dir),
        *meas_path = bson_strdup_printf ("%s/meas.json", dir);
   char *args, path[128];
   bson_t *pred, *meas;
   int i, bad = 0;

   args = bson_strdup_printf ("--predict --out '%s'", pred_path);
   scancmp (dir, args);
   bson_free (args);
   args = bson_strdup_printf ("--cold --direct-io --out '%s'", meas_path);
   scancmp (dir, args);
   bson_free (args);
   pred = lab_test_json_load (pred_path);
   meas = lab_test_json_load (meas_path);
   assert_non_null (pred);
   assert_non_null (meas);

   /* a predicted file; the only documents read are the sample fold's (a few masters' rows), the index
    * walk far below the collection's size */
   assert_true (lab_test_json_bool (pred, "predicted"));
   /* 2 workers: the band's holds were measured at 4 (check_knee: at 4 the record says nothing) */
   assert_int_equal (num (pred, "prediction.model.band_holds_workers"), 4);
   assert_true (lab_test_json_has (pred, "prediction.model.band_warning"));
   {
      /* and scancmp's table says it under the points, where one states a band (every shape here does) */
      char *text = lab_scan_predict_table_render (pred);
      if (!strstr (text, "Warning: the band's held \"no keep\" episodes were measured at 4 workers")) {
         fail_msg ("%s: scancmp's table does not say the band was measured at 4 workers:\n%s", tag, text);
      }
      bson_free (text);
   }
   assert_true (num (pred, "prediction.model.fold_sample_rows") > 0 &&
                num (pred, "prediction.model.fold_sample_rows") <= 8000);
   assert_true (num (pred, "prediction.probe.documents_fetched") ==
                num (pred, "prediction.model.fold_sample_rows"));
   if (!(num (pred, "prediction.probe.index_walk_read_bytes") <
         num (pred, "dataset.detail.storage_size_bytes") / 2)) {
      fail_msg ("%s: the probe's index walk read %.0f bytes, the collection is %.0f on disk: it read "
                "documents",
                tag, num (pred, "prediction.probe.index_walk_read_bytes"),
                num (pred, "dataset.detail.storage_size_bytes"));
   }
   /* the same points */
   for (i = 0; i < NPOINTS; i++) {
      snprintf (path, sizeof path, "sweep.%d.cache_size_bytes", i);
      assert_true (num (pred, path) == num (meas, path));
   }
   check_models (tag, pred, scattered);
   bad = outside_band (tag, pred, meas, scattered);
   for (i = 2; bad && i <= 3; i++) {
      /* WiredTiger's rereads under a cold load vary from run to run (the zipf shape's ratio 4 measured 2.08
       * once and 0.93 the next; the clustered shape's in-order load 1.2x in one run and 3.2x and 4.2x on a
       * loaded machine, its held episodes' timers against other processes): measure the sweep again, up to
       * three measurements, and fail only if the prediction misses every one */
      char *again = bson_strdup_printf ("%s/meas%d.json", dir, i);
      bson_t *meas2;

      print_message ("%s: %d point(s) outside the band: measuring the sweep again (%d of 3)\n", tag, bad, i);
      args = bson_strdup_printf ("--cold --direct-io --out '%s'", again);
      scancmp (dir, args);
      bson_free (args);
      meas2 = lab_test_json_load (again);
      assert_non_null (meas2);
      bad = outside_band (tag, pred, meas2, scattered);
      bson_destroy (meas2);
      bson_free (again);
   }
   if (bad) {
      fail_msg ("%s: %d predicted read amplification(s) outside the band, in three measurements", tag, bad);
   }
   check_speed (tag, pred, meas);
   check_folded_pages (tag, dir, pred);
   if (report) {
      check_report (dir, pred_path, meas_path, pred);
   }
   bson_destroy (pred);
   bson_destroy (meas);
   bson_free (pred_path);
   bson_free (meas_path);
   lab_test_rmtree (dir);
   bson_free (dir);
}

static void
test_interleaved (void **state)
{
   (void)state;
   check_shape ("predict-inter", "--order interleaved", true, true);
}

static void
test_clustered (void **state)
{
   (void)state;
   check_shape ("predict-clustered", "--order clustered", false, false);
}

static void
test_zipf (void **state)
{
   (void)state;
   check_shape ("predict-zipf", "--order interleaved --dist zipf", true, false);
}

/* Refused: --predict with --layout (exit 2, naming both), and on a collection that does not exist (exit
 * 1, naming it); no results file either way. */
static void
test_refusals (void **state)
{
   char *billgen = lab_test_bin ("billgen"), *dir = lab_test_tmpdir ("predict-bad");
   char *out = bson_strdup_printf ("%s/pred.json", dir), *cmd, *err = NULL;
   int rc;

   (void)state;
   cmd = bson_strdup_printf ("'%s' generate --uri 'wiredtiger:%s' --dst bill_detail --bills 20 --mean-rows 5 "
                             "--drop --progress never -q",
                             billgen, dir);
   assert_int_equal (lab_test_run (cmd, NULL, NULL), 0);
   bson_free (cmd);
   cmd =
      bson_strdup_printf ("'%s' --uri 'wiredtiger:%s' --predict --layout a=bill_detail --layout b=x:folded "
                          "--cache-sizes 8MiB --progress never --out '%s'",
                          g_bin, dir, out);
   rc = lab_test_run (cmd, NULL, &err);
   assert_int_equal (rc, 2);
   assert_non_null (strstr (err, "--predict with --layout"));
   assert_false (access (out, F_OK) == 0);
   bson_free (cmd);
   bson_free (err);
   err = NULL;
   cmd = bson_strdup_printf ("'%s' --uri 'wiredtiger:%s' --predict --detail nosuch --cache-sizes 8MiB "
                             "--progress never --out '%s'",
                             g_bin, dir, out);
   rc = lab_test_run (cmd, NULL, &err);
   assert_int_equal (rc, 1);
   assert_non_null (strstr (err, "nosuch"));
   assert_false (access (out, F_OK) == 0);
   bson_free (cmd);
   bson_free (err);
   bson_free (out);
   lab_test_rmtree (dir);
   bson_free (dir);
   bson_free (billgen);
}

/* --sample: the probe reads the RecordIds of SAMPLE_F of the masters, chosen by a hash of the
 * key, and the prediction from that sample is within TOL_SAMPLE of the one from every master (a fraction of
 * the F=1 figure, plus 0.05 for figures near 1), at every point and for both layouts, on the default
 * interleaved shape (every master loaded, 4 workers). Seen on these data: -1% to -3% at F=0.25 (the
 * estimator's bias: a sampled master's reuses see slightly longer distances), -12% at F=0.1; the band is
 * 0.10. The sample is the same every time (the same figures twice), holds about F of the masters and
 * states each figure's sampling error, nonzero where the load rereads; too small a sample (few sampled
 * masters per page, where the estimator's bias can exceed that error) is warned of; bad values are
 * refused. */
#define SAMPLE_F "0.25"
#define TOL_SAMPLE 0.10

/* predict_at -- scancmp --predict on dir at `ratios` with `extra`, its results file loaded. */
static bson_t *
predict_at (const char *dir, const char *name, const char *ratios, const char *extra)
{
   char *path = bson_strdup_printf ("%s/%s", dir, name);
   char *cmd = bson_strdup_printf ("'%s' --uri 'wiredtiger:%s' --predict --parallel 4 --progress never -q "
                                   "--cache-ratios %s %s --out '%s'",
                                   g_bin, dir, ratios, extra, path);
   char *err = NULL;
   bson_t *r;

   if (lab_test_run (cmd, NULL, &err) != 0) {
      fail_msg ("%s: %s", cmd, err);
   }
   r = lab_test_json_load (path);
   assert_non_null (r);
   bson_free (err);
   bson_free (cmd);
   bson_free (path);
   return r;
}

/* predict_to -- predict_at RATIOS. */
static bson_t *
predict_to (const char *dir, const char *name, const char *extra)
{
   return predict_at (dir, name, RATIOS, extra);
}

/* The knee's error in cache: at F = 0.02 the sample's curve fits from ratio ~2.8 where every master's
 * rereads to ~3.4 (22x at ratio 3: its four groups fit there too, so the figure's own jackknife says
 * 0.9 +- 0); the knee's jackknife moves the sample's knee up (on these data: it need not move towards
 * every master's on others, docs/results.md) and the error at 3 covers the figure read at the cache it
 * moves the point to (5.4 on these data). */
static void
check_knee (const char *dir)
{
   bson_t *all = predict_at (dir, "all3.json", "3", ""),
          *tiny = predict_at (dir, "tiny3.json", "3", "--sample 0.02");
   double a = num (all, "sweep.0.detail.read_amplification"),
          f = num (tiny, "sweep.0.detail.read_amplification"),
          e = num (tiny, "sweep.0.detail.read_amplification_sampling_error"),
          kb = num (tiny, "sweep.0.detail.read_amplification_at_knee_bias"),
          ks = num (tiny, "prediction.sample.knee.detail.sample_cache_ratio"),
          kw = num (tiny, "prediction.sample.knee.detail.moved_cache_ratio");

   print_message ("--sample 0.02 at ratio 3: %.2f +- %.2f (%.2f at the knee's bias), every master %.2f; "
                  "knee at ratio %.2f in the sample, moved to %.2f by its jackknife\n",
                  f, e, kb, a, ks, kw);
   /* 4 workers, the band's own: no warning (check_shape: at 2 there is one) */
   assert_false (lab_test_json_has (all, "prediction.model.band_warning"));
   if (!(a > 2 && f < 2)) {
      fail_msg ("the data no longer put the thin sample's knee under ratio 3 (%.2f) and every master's "
                "over it (%.2f): the check below has nothing to see",
                f, a);
   }
   if (!(e > 1 && e >= fabs (kb - f) - 1e-9 && kb > f)) {
      fail_msg ("--sample 0.02 at ratio 3: %.2f +- %.2f where every master reads %.2f: the knee's bias "
                "(%.2f there) is not in the error",
                f, e, a, kb);
   }
   if (!(kw > ks && ks < 3 && kw <= 4)) {
      fail_msg ("--sample 0.02: the knee at ratio %.2f in the sample, moved to %.2f by its jackknife: want "
                "it moved up, under 4 (every master's lies near 3.4 on these data)",
                ks, kw);
   }
   bson_destroy (all);
   bson_destroy (tiny);
}

static void
test_sample (void **state)
{
   static const char *const layouts[] = { "detail", "folded" };
   char *billgen = lab_test_bin ("billgen"), *dir = lab_test_tmpdir ("predict-sample"), *cmd, *err = NULL;
   char path[128];
   bson_t *all, *part, *again;
   double masters, sampled;
   int i, l, bad = 0, rc;

   (void)state;
   cmd =
      bson_strdup_printf ("'%s' generate --uri 'wiredtiger:%s' --dst bill_detail --bills 4000 --mean-rows 40 "
                          "--seed 11 --drop --progress never -q",
                          billgen, dir);
   assert_int_equal (lab_test_run (cmd, NULL, NULL), 0);
   bson_free (cmd);
   all = predict_to (dir, "all.json", "");
   part = predict_to (dir, "part.json", "--sample " SAMPLE_F);
   again = predict_to (dir, "again.json", "--sample " SAMPLE_F);

   masters = num (part, "prediction.probe.masters");
   sampled = num (part, "prediction.sample.masters");
   assert_true (num (part, "prediction.sample.fraction") == atof (SAMPLE_F));
   if (!(fabs (sampled / masters - atof (SAMPLE_F)) < 0.05)) {
      fail_msg ("the sample holds %.0f of %.0f masters, not about " SAMPLE_F, sampled, masters);
   }
   assert_false (lab_test_json_has (all, "prediction.sample"));
   /* the bias guard: enough sampled masters per page at F = 0.25, too few (a warning) at F = 0.02 */
   if (!(num (part, "prediction.sample.masters_per_page") >= 10) ||
       lab_test_json_has (part, "prediction.sample.warning")) {
      fail_msg ("--sample " SAMPLE_F ": %.1f sampled masters per page, warned: %d",
                num (part, "prediction.sample.masters_per_page"),
                (int)lab_test_json_has (part, "prediction.sample.warning"));
   }
   {
      bson_t *tiny = predict_to (dir, "tiny.json", "--sample 0.02");
      if (!(num (tiny, "prediction.sample.masters_per_page") < 10) ||
          !lab_test_json_has (tiny, "prediction.sample.warning")) {
         fail_msg ("--sample 0.02: %.1f sampled masters per page and no warning",
                   num (tiny, "prediction.sample.masters_per_page"));
      }
      /* even a sample this thin states an error where the load rereads: never 0 where its own estimate
       * differs from every master's (its groups alone could agree exactly, each capped) */
      for (i = 0; i < NPOINTS; i++) {
         snprintf (path, sizeof path, "sweep.%d.detail.read_amplification", i);
         if (num (all, path) > 2 && fabs (num (tiny, path) - num (all, path)) > 0.01 * num (all, path)) {
            snprintf (path, sizeof path, "sweep.%d.detail.read_amplification_sampling_error", i);
            if (!(num (tiny, path) > 0)) {
               fail_msg ("--sample 0.02 point %d: a sampling error of %g where the load rereads", i,
                         num (tiny, path));
            }
         }
      }
      /* the error carries the jackknife's bias: a thin sample's curve moves with its size, and where it
       * rereads the stated error is at least that move */
      {
         int moved = 0;
         for (i = 0; i < NPOINTS; i++) {
            double b, e;
            snprintf (path, sizeof path, "sweep.%d.detail.read_amplification_sampling_bias", i);
            b = num (tiny, path);
            snprintf (path, sizeof path, "sweep.%d.detail.read_amplification_sampling_error", i);
            e = num (tiny, path);
            moved += fabs (b) > 0.01;
            if (!(e >= fabs (b) - 1e-9)) {
               fail_msg ("--sample 0.02 point %d: a sampling error of %g under its bias %g", i, e, b);
            }
         }
         if (moved == 0) {
            fail_msg ("--sample 0.02: no point's estimate moved with the sample's size (bias 0 everywhere)");
         }
      }
      bson_destroy (tiny);
      check_knee (dir);
   }
   assert_true (num (part, "prediction.probe.documents_fetched") ==
                num (part, "prediction.model.fold_sample_rows"));
   for (i = 0; i < NPOINTS; i++) {
      for (l = 0; l < 2; l++) {
         double a, p, e;
         snprintf (path, sizeof path, "sweep.%d.%s.read_amplification", i, layouts[l]);
         a = num (all, path);
         p = num (part, path);
         assert_true (p == num (again, path)); /* the same sample every time */
         snprintf (path, sizeof path, "sweep.%d.%s.read_amplification_sampling_error", i, layouts[l]);
         assert_false (lab_test_json_has (all, path));
         e = num (part, path);
         print_message ("sample " SAMPLE_F " point %d %s: read amplification %.2f ± %.2f, every master %.2f "
                        "(%+.1f%%)\n",
                        i, layouts[l], p, e, a, a > 0 ? 100 * (p - a) / a : 0);
         if (!(fabs (p - a) <= TOL_SAMPLE * a + 0.05)) {
            print_message ("  ^ outside the band (%.0f%% + 0.05)\n", TOL_SAMPLE * 100);
            bad++;
         }
         if (a > 2 && !(e > 0)) {
            print_message ("  ^ no sampling error stated where the load rereads\n");
            bad++;
         }
      }
   }
   if (bad) {
      fail_msg ("--sample " SAMPLE_F ": %d figure(s) outside the band or without their error", bad);
   }
   /* refused: F out of (0, 1], or without --predict; nothing written */
   {
      static const char *const bad_args[] = { "--predict --sample 0", "--predict --sample 1.5",
                                              "--predict --sample -0.1", "--sample 0.5 --cold" };
      size_t k;
      for (k = 0; k < sizeof bad_args / sizeof bad_args[0]; k++) {
         cmd = bson_strdup_printf ("'%s' --uri 'wiredtiger:%s' %s --cache-sizes 8MiB --progress never "
                                   "--out '%s/bad.json'",
                                   g_bin, dir, bad_args[k], dir);
         rc = lab_test_run (cmd, NULL, &err);
         if (rc != 2 || !strstr (err, "--sample")) {
            fail_msg ("%s: exit %d, want 2 naming --sample: %s", cmd, rc, err);
         }
         snprintf (path, sizeof path, "%s/bad.json", dir);
         assert_false (access (path, F_OK) == 0);
         bson_free (cmd);
         bson_free (err);
         err = NULL;
      }
   }
   bson_destroy (all);
   bson_destroy (part);
   bson_destroy (again);
   lab_test_rmtree (dir);
   bson_free (dir);
   bson_free (billgen);
}

static int
setup (void **state)
{
   (void)state;
   g_bin = lab_test_bin ("scancmp");
   return 0;
}

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
      cmocka_unit_test (test_refusals),  cmocka_unit_test (test_sample), cmocka_unit_test (test_interleaved),
      cmocka_unit_test (test_clustered), cmocka_unit_test (test_zipf),
   };
   return lab_test_run_group ("predict_embedded", tests, setup, teardown);
}
