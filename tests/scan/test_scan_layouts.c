/*
 * test_scan_layouts.c -- scancmp with more than two candidates on the embedded store: three
 * and four layouts (one document per row, folded, a copy of the folded collection, buckets of at most
 * BUCKET_ROWS rows) in one cold, order-rotated run; every layout returns the same rows per master (read
 * back through the store and as scancmp counted them); the table and layout-report's comparison have a
 * column per layout; cache sweeps of three layouts (cold, and points that start from an empty engine
 * cache without --cold); and the --layout usage errors.
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
#include <unistd.h>

#define BILLS 200
#define ROWS 12
#define BUCKET_ROWS 5

static char *g_dir;    /* the store's home */
static char *g_tmp;    /* scratch for results files */
static char *g_bin;    /* scancmp */
static char *g_report; /* layout-report */
static int64_t g_rows; /* detail documents */
static int64_t g_buckets;

static int
setup (void **state)
{
   lab_store_opts_t so = { 0 };
   lab_store_t *store;
   bson_error_t e;
   char *uri;
   int64_t copies = 0;

   g_dir = lab_test_tmpdir ("scan-layouts");
   g_tmp = lab_test_tmpdir ("scan-layouts-out");
   g_bin = lab_test_bin ("scancmp");
   g_report = lab_test_bin ("layout-report");
   uri = bson_strdup_printf ("wiredtiger:%s", g_dir);
   so.create = true;
   store = lab_store_open (uri, &so, &e);
   if (!store) {
      fail_msg ("open %s: %s", uri, e.message);
   }
   if (!scan_testdata_build (store, "bill_detail", "detail_coll", BILLS, ROWS, &g_rows, &e) ||
       !scan_testdata_rebucket (store, "detail_coll", "bill_buckets", BUCKET_ROWS, &g_buckets, &e) ||
       !scan_testdata_rebucket (store, "detail_coll", "folded_copy", 1 << 30, &copies, &e)) {
      fail_msg ("build: %s", e.message);
   }
   assert_int_equal (copies, BILLS);
   /* buckets of at most BUCKET_ROWS rows: more documents than masters, fewer than rows */
   assert_true (g_buckets > BILLS && g_buckets < g_rows);
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
   bson_free (g_report);
   return 0;
}

/* scancmp -- run the tool on the test store with extra arguments; returns the exit code. */
static int
scancmp (const char *args, char **out, char **err)
{
   char *cmd =
      bson_strdup_printf ("'%s' --uri 'wiredtiger:%s' --cache-size 1MiB --parallel 2 --interval 100ms "
                          "--progress never %s",
                          g_bin, g_dir, args);
   int rc = lab_test_run (cmd, out, err);
   bson_free (cmd);
   return rc;
}

typedef struct {
   int64_t rows;
   int64_t docs;
   int max_rows; /* the most rows one document held */
} count_t;

/* count_rows -- a loaded document's rows: one for a row document, else its details array. */
static bool
count_rows (const bson_t *doc, void *ctx)
{
   count_t *c = ctx;
   bson_iter_t it, child;
   int n = 0;

   c->docs++;
   if (bson_iter_init_find (&it, doc, "details") && BSON_ITER_HOLDS_ARRAY (&it) &&
       bson_iter_recurse (&it, &child)) {
      while (bson_iter_next (&child)) {
         n++;
      }
   } else {
      n = 1;
   }
   c->rows += n;
   c->max_rows = n > c->max_rows ? n : c->max_rows;
   return true;
}

/* test_same_rows_per_master -- the store gives every master the same rows in every layout, each bucket
 * holds at most BUCKET_ROWS, and a master's buckets are all found by its key. */
static void
test_same_rows_per_master (void **state)
{
   static const char *colls[] = { "bill_detail", "detail_coll", "folded_copy", "bill_buckets" };
   char *uri = bson_strdup_printf ("wiredtiger:%s", g_dir);
   lab_store_opts_t so = { 0 };
   lab_store_t *store;
   lab_store_session_t *sess;
   bson_value_t *keys = NULL;
   int64_t nkeys = 0, k, multi = 0;
   bson_error_t e;
   size_t c;

   store = lab_store_open (uri, &so, &e);
   assert_non_null (store);
   sess = lab_store_session_open (store, &e);
   assert_non_null (sess);
   assert_true (lab_store_distinct_keys (sess, "detail_coll", "bill_id", &keys, &nkeys, &e));
   assert_int_equal (nkeys, BILLS);
   for (k = 0; k < nkeys; k++) {
      count_t n[4] = { { 0 } };
      for (c = 0; c < 4; c++) {
         if (!lab_store_find_eq (sess, colls[c], "bill_id", &keys[k], count_rows, &n[c], NULL, &e)) {
            fail_msg ("%s: %s", colls[c], e.message);
         }
         assert_int_equal (n[c].rows, n[0].rows);
      }
      assert_int_equal (n[0].docs, n[0].rows); /* one document per row */
      assert_int_equal (n[1].docs, 1);         /* one per master */
      assert_int_equal (n[2].docs, 1);
      assert_true (n[3].max_rows <= BUCKET_ROWS);
      assert_int_equal (n[3].docs, (n[0].rows + BUCKET_ROWS - 1) / BUCKET_ROWS);
      multi += n[3].docs > 1;
   }
   assert_true (multi > 0); /* some masters span several buckets: the test exercises them */
   lab_store_values_free (keys, (int)nkeys);
   lab_store_session_close (sess);
   lab_store_close (store);
   bson_free (uri);
}

/* check_entries -- r holds `runs` runs of the nl layouts `names`, each run rotated one further (--order
 * alternate), and every entry loaded every key and every row. */
static void
check_entries (const bson_t *r, int runs, int nl, const char *const *names)
{
   int run, k;
   char p[96];

   for (run = 0; run < runs; run++) {
      for (k = 0; k < nl; k++) {
         int e = run * nl + k;
         const char *layout;
         /* alternate: run 1 as given, each further run starts one later */
         snprintf (p, sizeof p, "runs.%d.layout", e);
         layout = lab_test_json_str (r, p);
         assert_string_equal (layout, names[(k + run) % nl]);
         snprintf (p, sizeof p, "runs.%d.order_in_run", e);
         assert_int_equal ((int)lab_test_json_num (r, p), k + 1);
         snprintf (p, sizeof p, "runs.%d.run", e);
         assert_int_equal ((int)lab_test_json_num (r, p), run + 1);
         /* every layout returns every row of every master */
         snprintf (p, sizeof p, "runs.%d.rows", e);
         assert_int_equal ((int64_t)lab_test_json_num (r, p), g_rows);
         snprintf (p, sizeof p, "runs.%d.keys", e);
         assert_int_equal ((int64_t)lab_test_json_num (r, p), BILLS);
      }
   }
   snprintf (p, sizeof p, "runs.%d.layout", runs * nl);
   assert_false (lab_test_json_has (r, p));
}

/* line_cells -- the number of cells of the table line starting with `prefix` (split on 2+ spaces). */
static int
line_cells (const char *text, const char *prefix)
{
   const char *p = strstr (text, prefix), *end;
   int n = 0;

   assert_non_null (p);
   end = strchr (p, '\n');
   while (p < end) {
      while (p < end && *p == ' ') {
         p++;
      }
      if (p == end) {
         break;
      }
      n++;
      while (p < end && !(p[0] == ' ' && p[1] == ' ')) {
         p++;
      }
   }
   return n;
}

/* read_text -- the whole of a (small) file. Caller bson_free()s. */
static char *
read_text (const char *path)
{
   FILE *f = fopen (path, "r");
   char *t = bson_malloc0 (1 << 20);
   size_t len;

   assert_non_null (f);
   len = fread (t, 1, (1 << 20) - 1, f);
   t[len] = '\0';
   fclose (f);
   return t;
}

/* md_cells -- the number of cells of the Markdown table line starting with `prefix`. */
static int
md_cells (const char *md, const char *prefix)
{
   const char *p = strstr (md, prefix), *end;
   int n = -1;

   assert_non_null (p);
   end = strchr (p, '\n');
   for (; p < end; p++) {
      n += *p == '|' && (p == md || p[-1] != '\\');
   }
   return n;
}

static void
test_three_layouts (void **state)
{
   static const char *const names[] = { "detail", "folded", "copy" };
   char *out_path = bson_strdup_printf ("%s/three.json", g_tmp);
   char *args = bson_strdup_printf (
      "--cold --runs 3 --layout detail=bill_detail:rows --layout folded=detail_coll:folded "
      "--layout copy=folded_copy:folded --out '%s'",
      out_path);
   char *out = NULL, *err = NULL;
   bson_t *r;
   int rc = scancmp (args, &out, &err);
   size_t i;

   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   r = lab_test_json_load (out_path);
   assert_int_equal ((int)lab_test_json_num (r, "schema_version"), LAB_RESULTS_SCHEMA_VERSION);
   assert_string_equal (lab_test_json_str (r, "reference_layout"), "detail");
   assert_string_equal (lab_test_json_str (r, "layouts.2.name"), "copy");
   assert_string_equal (lab_test_json_str (r, "layouts.2.collection"), "folded_copy");
   assert_string_equal (lab_test_json_str (r, "layouts.2.kind"), "folded");
   assert_false (lab_test_json_has (r, "layouts.3"));
   assert_false (lab_test_json_has (r, "config.detail")); /* the shorthand's fields only with it */
   check_entries (r, 3, 3, names);
   for (i = 0; i < 3; i++) {
      char p[96];
      snprintf (p, sizeof p, "summary.%s.runs", names[i]);
      assert_int_equal ((int)lab_test_json_num (r, p), 3);
      snprintf (p, sizeof p, "summary.%s.elapsed_s.median", names[i]);
      assert_true (lab_test_json_num (r, p) > 0);
   }
   assert_int_equal ((int64_t)lab_test_json_num (r, "dataset.copy.count"), BILLS);
   assert_int_equal ((int64_t)lab_test_json_num (r, "dataset.detail.count"), g_rows);
   /* the table: label, three values, two ratios against detail, better */
   assert_non_null (strstr (out, "load of 3 layouts, 3 runs"));
   assert_int_equal (line_cells (out, "metric "), 7);
   assert_non_null (strstr (out, "folded/ref"));
   assert_non_null (strstr (out, "copy/ref"));
   assert_non_null (strstr (out, "ratio = layout / detail (the reference)"));
   /* no warning about different row counts */
   assert_null (strstr (err, "different row counts"));
   bson_destroy (r);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (out_path);
}

static void
test_four_layouts_and_report (void **state)
{
   static const char *const names[] = { "detail", "folded", "copy", "buckets" };
   char *out_path = bson_strdup_printf ("%s/four.json", g_tmp);
   char *md_path = bson_strdup_printf ("%s/four.md", g_tmp);
   char *args =
      bson_strdup_printf ("--cold --runs 2 --reference-layout folded --layout detail=bill_detail:rows "
                          "--layout folded=detail_coll:folded --layout copy=folded_copy:folded "
                          "--layout buckets=bill_buckets:buckets --out '%s'",
                          out_path);
   char *out = NULL, *err = NULL, *cmd, *md = NULL;
   bson_t *r;
   int rc = scancmp (args, &out, &err);
   char p[96];
   int e;

   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   r = lab_test_json_load (out_path);
   assert_string_equal (lab_test_json_str (r, "reference_layout"), "folded");
   assert_string_equal (lab_test_json_str (r, "layouts.3.kind"), "buckets");
   check_entries (r, 2, 4, names);
   /* the buckets layout loads every document of a key: all of them, and the same rows */
   for (e = 0; e < 8; e++) {
      snprintf (p, sizeof p, "runs.%d.layout", e);
      if (strcmp (lab_test_json_str (r, p), "buckets") == 0) {
         snprintf (p, sizeof p, "runs.%d.docs", e);
         assert_int_equal ((int64_t)lab_test_json_num (r, p), g_buckets);
      }
   }
   assert_int_equal ((int64_t)lab_test_json_num (r, "dataset.buckets.count"), g_buckets);
   assert_int_equal (line_cells (out, "metric "), 9); /* label, 4 values, 3 ratios, better */
   assert_non_null (strstr (out, "detail/ref"));
   assert_null (strstr (out, "folded/ref"));
   bson_free (out);
   bson_free (err);

   /* layout-report: a column per layout, a ratio per other layout, every layout in the dataset */
   cmd = bson_strdup_printf ("'%s' '%s' --charts none -q -o '%s'", g_report, out_path, md_path);
   rc = lab_test_run (cmd, &out, &err);
   if (rc != 0) {
      fail_msg ("layout-report exit %d: %s", rc, err);
   }
   md = read_text (md_path);
   assert_int_equal (
      md_cells (
         md,
         "| metric (key-order load) | detail | folded | copy | buckets | detail / folded | copy / folded | "
         "buckets / folded | better |"),
      9);
   assert_non_null (strstr (md, "| kind | rows | folded | folded | buckets |"));
   assert_non_null (strstr (md, "## Verdict"));
   assert_null (strstr (md, "(null)"));
   bson_destroy (r);
   bson_free (md);
   bson_free (cmd);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (md_path);
   bson_free (out_path);
}

/* test_sweep_three -- a cold cache sweep of three layouts: every point holds every layout's runs and a
 * read amplification above 0 (each layout starts from an empty engine cache and, with --direct-io, reads
 * its pages from disk; the OS page cache is left alone), scancmp's sweep table a column per layout, and
 * layout-report's sweep tables a column per layout, every candidate's curve and the fastest per point. */
static void
test_sweep_three (void **state)
{
   static const char *const names[] = { "folded", "detail", "buckets" };
   char *out_path = bson_strdup_printf ("%s/sweep3.json", g_tmp);
   char *md_path = bson_strdup_printf ("%s/sweep3.md", g_tmp);
   char *args =
      bson_strdup_printf ("--cold --direct-io --drop-caches no --cache-sizes 1MiB,4MiB --layout "
                          "folded=detail_coll:folded --layout "
                          "detail=bill_detail:rows --layout buckets=bill_buckets:buckets --out '%s'",
                          out_path);
   char *out = NULL, *err = NULL, *cmd, *md;
   bson_t *r;
   char p[128];
   int rc = scancmp (args, &out, &err), pt, e, l;

   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   r = lab_test_json_load (out_path);
   assert_string_equal (lab_test_json_str (r, "reference_layout"), "detail"); /* the rows layout */
   for (pt = 0; pt < 2; pt++) {
      for (e = 0; e < 3; e++) {
         snprintf (p, sizeof p, "sweep.%d.runs.%d.layout", pt, e);
         assert_string_equal (lab_test_json_str (r, p), names[e]);
         snprintf (p, sizeof p, "sweep.%d.runs.%d.rows", pt, e);
         assert_int_equal ((int64_t)lab_test_json_num (r, p), g_rows);
      }
      for (l = 0; l < 3; l++) {
         /* a cold run starts from an empty engine cache: every layout reads its pages from disk */
         snprintf (p, sizeof p, "sweep.%d.%s.read_amplification", pt, names[l]);
         if (!(lab_test_json_num (r, p) > 0)) {
            fail_msg ("%s = %g, want > 0", p, lab_test_json_num (r, p));
         }
         snprintf (p, sizeof p, "sweep.%d.%s.locality.masters_sampled", pt, names[l]);
         assert_int_equal ((int)lab_test_json_num (r, p), BILLS);
         snprintf (p, sizeof p, "sweep.%d.summary.%s.runs", pt, names[l]);
         assert_int_equal ((int)lab_test_json_num (r, p), 1);
      }
   }
   /* the ratio is against the reference layout's on-disk size */
   assert_true (fabs (lab_test_json_num (r, "sweep.0.cache_ratio") *
                         (lab_test_json_num (r, "dataset.detail.storage_size_bytes") +
                          lab_test_json_num (r, "dataset.detail.index_size_bytes")) -
                      1048576.0) < 1.0);
   assert_non_null (strstr (out, "Cache sweep, 2 points, 3 layouts"));
   /* the locality is where the rows lie: said once under the table, not at every cache size */
   assert_non_null (strstr (out, "buckets: key-order load (read amp)"));
   {
      const char *line =
         strstr (out, "pages/master (distinct data pages one master's rows occupy, mean; where "
                      "the rows lie, the same at every point): ");
      assert_non_null (line);
      /* every layout named on that one line, in the file's order */
      assert_non_null (strstr (line, "detail "));
      assert_non_null (strstr (line, "buckets "));
      assert_true (strchr (line, '\n') > strstr (line, "buckets "));
   }
   bson_free (out);
   bson_free (err);
   cmd = bson_strdup_printf ("'%s' '%s' --charts none -q -o '%s'", g_report, out_path, md_path);
   rc = lab_test_run (cmd, &out, &err);
   if (rc != 0) {
      fail_msg ("layout-report exit %d: %s", rc, err);
   }
   md = read_text (md_path);
   assert_non_null (strstr (md, "## Cache sweep"));
   /* every candidate's speedup against the reference, and the fastest layout at each point */
   assert_non_null (
      strstr (md, "| speedup (key order, detail ÷ folded) | speedup (key order, detail ÷ buckets) |"));
   assert_non_null (strstr (md, "| read amplification: detail | folded | buckets |"));
   assert_non_null (strstr (md, "- **Fastest layout at each cache size**"));
   assert_non_null (strstr (md, "| metric (key-order load) | folded | detail | buckets |"));
   assert_null (strstr (md, "(null)"));
   bson_destroy (r);
   bson_free (md);
   bson_free (cmd);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (md_path);
   bson_free (out_path);
}

/* test_sweep_points_start_empty -- without --cold, each point of an embedded sweep still starts from an
 * empty engine cache: every layout reads its pages from disk at every point (a cache reconfigured from
 * the previous point kept the last layout's pages, which then read nothing: amplification 0). */
static void
test_sweep_points_start_empty (void **state)
{
   static const char *const names[] = { "folded", "detail", "buckets" };
   char *out_path = bson_strdup_printf ("%s/sweep3-warm.json", g_tmp);
   char *args = bson_strdup_printf ("--direct-io --cache-sizes 1MiB,4MiB --layout folded=detail_coll:folded "
                                    "--layout detail=bill_detail:rows --layout buckets=bill_buckets:buckets "
                                    "--out '%s'",
                                    out_path);
   char *out = NULL, *err = NULL;
   bson_t *r;
   char p[128];
   int rc = scancmp (args, &out, &err), pt, l;

   if (rc != 0) {
      fail_msg ("scancmp exit %d: %s", rc, err);
   }
   r = lab_test_json_load (out_path);
   assert_false (lab_test_json_bool (r, "config.cold"));
   for (pt = 0; pt < 2; pt++) {
      for (l = 0; l < 3; l++) {
         snprintf (p, sizeof p, "sweep.%d.%s.read_amplification", pt, names[l]);
         if (!(lab_test_json_num (r, p) > 0)) {
            fail_msg ("%s = %g, want > 0: the point did not start from an empty engine cache", p,
                      lab_test_json_num (r, p));
         }
      }
   }
   bson_destroy (r);
   bson_free (out);
   bson_free (err);
   bson_free (args);
   bson_free (out_path);
}

/* refused -- scancmp with `args` exits 2 (a usage error) saying `message`. */
static void
refused (const char *args, const char *message)
{
   char *out = NULL, *err = NULL;
   int rc = scancmp (args, &out, &err);

   if (rc != 2 || !strstr (err, message)) {
      fail_msg ("'%s': exit %d, stderr '%s'; want 2 and '%s'", args, rc, err, message);
   }
   bson_free (out);
   bson_free (err);
}

static void
test_layout_usage (void **state)
{
   refused ("--layout a=bill_detail", "at least two layouts");
   refused ("--layout a=bill_detail --layout b=detail_coll:stacked", "unknown kind \"stacked\"");
   refused ("--layout a=bill_detail --layout =detail_coll", "NAME=COLLECTION");
   refused ("--layout a=bill_detail --layout 'b c=detail_coll'", "letters, digits");
   refused ("--layout a=bill_detail --layout a=detail_coll", "its own name and collection");
   refused ("--layout a=bill_detail --layout b=bill_detail", "its own name and collection");
   refused ("--detail bill_detail --layout a=bill_detail --layout b=detail_coll", "--detail with --layout");
   refused ("--layout a=bill_detail --layout b=detail_coll --reference-layout c", "--reference-layout c");
   refused ("--reference-layout detail", "give the layouts with --layout");
   refused (
      "--layout a=bill_detail --layout b=detail_coll --layout c=folded_copy:folded --order folded-first",
      "folded-first is for two layouts");
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_same_rows_per_master),     cmocka_unit_test (test_three_layouts),
      cmocka_unit_test (test_four_layouts_and_report),  cmocka_unit_test (test_sweep_three),
      cmocka_unit_test (test_sweep_points_start_empty), cmocka_unit_test (test_layout_usage),
   };
   return lab_test_run_group ("scan_layouts", tests, setup, teardown);
}
