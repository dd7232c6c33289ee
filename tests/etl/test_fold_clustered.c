/*
 * test_fold_clustered.c -- fold-details --shape clustered end to end on the embedded store, on
 * billgen's interleaved data: the copy is a clustered collection holding exactly the source's rows
 * (--verify equal, the same count, every original _id back from _id.id), in _id order {bill_id, id}; a
 * changed row fails --verify (exit 3); a run killed midway then --resume gives the same rows, none twice;
 * --plan says what it would do; scancmp loads it as a rows layout through _id ranges, the same rows as
 * the source, and its locality (pages per master) is within 2x of the folded layout's while the source's
 * is far higher; the row, range, append and update workloads run on it (secondary indexes on the clustered
 * collection) with the same rows as the source's and the folded layout's.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/keyenc.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BILLS 1500
#define MEAN_ROWS 40

static lab_test_tools_fx_t *fx;

/* setup -- billgen's interleaved bills in bill_detail, folded into detail_coll. */
static int
setup (void **state)
{
   (void)state;
   fx = lab_test_tools_fx_new ("fold-clustered", BILLS, MEAN_ROWS, "--order interleaved");
   return 0;
}

/* teardown -- the store and the names. */
static int
teardown (void **state)
{
   (void)state;
   lab_test_tools_fx_free (fx);
   return 0;
}

/* ids_t -- the original _ids of a collection's rows, as text, and the order check of a clustered one. */
typedef struct {
   char **id;
   size_t n, cap;
   bool clustered;   /* read _id.id and check _id order */
   bson_value_t key; /* the previous row's key (clustered) */
   bool have_key;
   int64_t out_of_order;
} ids_t;

/* on_row -- the row's original _id into the list; a clustered row's key must not go down in _id order
 * and its _id.bill_id must be its bill_id. */
static void
on_row (ids_t *ids, const bson_t *doc)
{
   bson_iter_t it, id, k;

   if (ids->n == ids->cap) {
      ids->cap = ids->cap ? 2 * ids->cap : 4096;
      ids->id = bson_realloc (ids->id, ids->cap * sizeof *ids->id);
   }
   assert_true (bson_iter_init_find (&it, doc, "_id"));
   if (ids->clustered) {
      assert_true (BSON_ITER_HOLDS_DOCUMENT (&it) && bson_iter_recurse (&it, &id));
      assert_true (bson_iter_find (&id, "bill_id"));
      assert_true (bson_iter_init_find (&k, doc, "bill_id"));
      assert_int_equal (lab_store_value_compare (bson_iter_value (&id), bson_iter_value (&k)), 0);
      if (ids->have_key && lab_store_value_compare (&ids->key, bson_iter_value (&k)) > 0) {
         ids->out_of_order++;
      }
      if (ids->have_key) {
         bson_value_destroy (&ids->key);
      }
      bson_value_copy (bson_iter_value (&k), &ids->key);
      ids->have_key = true;
      assert_true (bson_iter_find (&id, "id"));
      ids->id[ids->n++] = lab_value_to_text (bson_iter_value (&id));
   } else {
      ids->id[ids->n++] = lab_value_to_text (bson_iter_value (&it));
   }
}

/* read_ids -- every row of `coll` in natural order into *ids. */
static void
read_ids (lab_store_t *s, const char *coll, ids_t *ids)
{
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   lab_store_cursor_t *cur;
   const bson_t *doc;
   int rc;

   assert_non_null (sess);
   cur = lab_store_natural_open (sess, coll, NULL, &error);
   if (!cur) {
      fail_msg ("natural %s: %s", coll, error.message);
   }
   while ((rc = lab_store_cursor_next (cur, &doc, &error)) == 1) {
      on_row (ids, doc);
   }
   assert_int_equal (rc, 0);
   lab_store_cursor_close (cur);
   lab_store_session_close (sess);
}

/* ids_free -- what read_ids kept. */
static void
ids_free (ids_t *ids)
{
   size_t i;

   for (i = 0; i < ids->n; i++) {
      bson_free (ids->id[i]);
   }
   bson_free (ids->id);
   if (ids->have_key) {
      bson_value_destroy (&ids->key);
   }
}

/* strp_cmp -- qsort order of C strings. */
static int
strp_cmp (const void *a, const void *b)
{
   return strcmp (*(char *const *)a, *(char *const *)b);
}

/* assert_clustered_copy -- `coll` is clustered, holds bill_detail's rows (every original _id once, from
 * _id.id) in _id order (keys never go down). */
static void
assert_clustered_copy (const char *coll)
{
   lab_store_t *s = lab_test_store_open (fx->uri);
   lab_store_coll_stats_t st;
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   ids_t src = { 0 }, dst = { .clustered = true };
   size_t i;

   assert_non_null (sess);
   assert_true (lab_store_stats (sess, coll, &st, &error));
   assert_true (st.clustered);
   lab_store_session_close (sess);
   read_ids (s, "bill_detail", &src);
   read_ids (s, coll, &dst);
   lab_store_close (s);
   assert_true (src.n > (size_t)BILLS * 10);
   assert_int_equal (dst.n, src.n);
   assert_int_equal (dst.out_of_order, 0);
   qsort (src.id, src.n, sizeof *src.id, strp_cmp);
   qsort (dst.id, dst.n, sizeof *dst.id, strp_cmp);
   for (i = 0; i < src.n; i++) {
      if (strcmp (src.id[i], dst.id[i]) != 0) {
         fail_msg ("%s: original _id %s where the source has %s", coll, dst.id[i], src.id[i]);
      }
   }
   ids_free (&src);
   ids_free (&dst);
}

/* test_clustered_copy_verifies -- the copy verifies, counts every row and master, and holds the source's
 * rows with their original _ids, in _id order. */
static void
test_clustered_copy_verifies (void **state)
{
   char *out = NULL, *err = NULL;
   bson_error_t error;
   bson_t *s;

   (void)state;
   assert_int_equal (
      lab_test_tools_fold (fx, NULL,
                           "--src bill_detail --dst detail_clustered --shape clustered --verify --json -",
                           &out, &err),
      0);
   s = bson_new_from_json ((const uint8_t *)out, -1, &error);
   assert_non_null (s);
   assert_string_equal (lab_test_json_str (s, "shape"), "clustered");
   assert_true (lab_test_json_bool (s, "verify.equal"));
   assert_true (lab_test_json_num (s, "docs_out") == lab_test_json_num (s, "rows_in"));
   assert_true (lab_test_json_num (s, "verify.dst_docs") == lab_test_json_num (s, "verify.src_rows"));
   assert_int_equal ((int)lab_test_json_num (s, "masters"), BILLS);
   bson_destroy (s);
   bson_free (out);
   bson_free (err);
   assert_clustered_copy ("detail_clustered");
   /* the ordered method agrees (the copy's natural order is key order) */
   assert_int_equal (
      lab_test_tools_fold (
         fx, NULL, "--src bill_detail --dst detail_clustered --shape clustered --verify=ordered", NULL, NULL),
      0);
}

/* test_clustered_damage_fails_verify -- one row given one more field (same _id, same key): exit 3. */
static void
test_clustered_damage_fails_verify (void **state)
{
   lab_store_t *s;
   lab_store_session_t *sess;
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bson_t *changed;
   bson_error_t error;
   char *err = NULL;

   (void)state;
   assert_int_equal (
      lab_test_tools_fold (fx, NULL, "--src bill_detail --dst detail_cdmg --shape clustered", NULL, NULL), 0);
   s = lab_test_store_open (fx->uri);
   sess = lab_store_session_open (s, &error);
   assert_non_null (sess);
   cur = lab_store_natural_open (sess, "detail_cdmg", NULL, &error);
   assert_non_null (cur);
   assert_int_equal (lab_store_cursor_next (cur, &doc, &error), 1);
   changed = bson_copy (doc);
   BSON_APPEND_INT32 (changed, "tampered", 1);
   lab_store_cursor_close (cur);
   if (!lab_store_upsert_by_id (sess, "detail_cdmg", changed, &error)) {
      fail_msg ("upsert: %s", error.message);
   }
   bson_destroy (changed);
   lab_store_session_close (sess);
   lab_store_close (s);
   assert_int_equal (lab_test_tools_fold (fx, NULL,
                                          "--src bill_detail --dst detail_cdmg --shape clustered --verify",
                                          NULL, &err),
                     3);
   assert_non_null (strstr (err, "contents differ"));
   bson_free (err);
   assert_int_equal (
      lab_test_tools_fold (fx, NULL, "--src bill_detail --dst detail_cdmg --shape clustered --verify=ordered",
                           NULL, NULL),
      3);
}

/* test_clustered_kill_then_resume -- killed after a few batches, then --resume --verify: equal, every row
 * once. */
static void
test_clustered_kill_then_resume (void **state)
{
   char *err = NULL;
   int rc;

   (void)state;
   rc = lab_test_tools_fold (fx, "LAYOUTLAB_FOLD_KILL_AFTER_BATCHES=5",
                             "--src bill_detail --dst detail_cres --shape clustered --batch-docs 500", NULL,
                             NULL);
   assert_int_not_equal (rc, 0);
   /* a resume with another shape is refused by name */
   assert_int_equal (lab_test_tools_fold (fx, NULL,
                                          "--src bill_detail --dst detail_cres --resume --batch-docs 500",
                                          NULL, &err),
                     2);
   assert_non_null (strstr (err, "--shape"));
   bson_free (err);
   err = NULL;
   rc = lab_test_tools_fold (
      fx, NULL, "--src bill_detail --dst detail_cres --shape clustered --batch-docs 500 --resume --verify",
      NULL, &err);
   if (rc != 0) {
      fail_msg ("resume: exit %d: %s", rc, err);
   }
   bson_free (err);
   assert_clustered_copy ("detail_cres");
}

/* test_clustered_plan -- --plan describes the copy (arrival order, a clustered destination), writes
 * nothing. */
static void
test_clustered_plan (void **state)
{
   char *out = NULL;
   lab_store_t *s;
   lab_store_session_t *sess;
   bson_error_t error;
   bool exists = true;

   (void)state;
   assert_int_equal (lab_test_tools_fold (fx, NULL,
                                          "--src bill_detail --dst detail_cplan --shape clustered --plan",
                                          &out, NULL),
                     0);
   assert_non_null (strstr (out, "in arrival order, into a clustered collection"));
   assert_non_null (strstr (out, "COLLSCAN"));
   bson_free (out);
   s = lab_test_store_open (fx->uri);
   sess = lab_store_session_open (s, &error);
   assert_true (lab_store_exists (sess, "detail_cplan", &exists, &error));
   assert_false (exists);
   lab_store_session_close (sess);
   lab_store_close (s);
}

/* scan -- scancmp on the store with `args`, its results file loaded. */
static bson_t *
scan (const char *args)
{
   char *path = bson_strdup_printf ("%s/scan.json", fx->dir);
   char *cmd = bson_strdup_printf ("'%s' --uri '%s' --progress never --interval 100ms %s --out '%s'",
                                   fx->scan, fx->uri, args, path);
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

/* test_clustered_load_same_rows -- scancmp's load of the clustered layout (by _id ranges) returns the same
 * documents and rows as the source's, every key matched. */
static void
test_clustered_load_same_rows (void **state)
{
   bson_t *r = scan ("--keys-limit 400 --layout detail=bill_detail:rows --layout "
                     "clustered=detail_clustered:rows");
   double rows[2] = { -1, -1 }, docs[2] = { -1, -1 };
   char p[64];
   int i, l;

   (void)state;
   for (i = 0;; i++) {
      bson_snprintf (p, sizeof p, "runs.%d.layout", i);
      if (!lab_test_json_has (r, p)) {
         break;
      }
      l = strcmp (lab_test_json_str (r, p), "clustered") == 0;
      bson_snprintf (p, sizeof p, "runs.%d.rows", i);
      rows[l] = lab_test_json_num (r, p);
      bson_snprintf (p, sizeof p, "runs.%d.docs", i);
      docs[l] = lab_test_json_num (r, p);
      bson_snprintf (p, sizeof p, "runs.%d.keys_unmatched", i);
      assert_true (lab_test_json_num (r, p) == 0);
   }
   fprintf (stderr, "load rows: detail %.0f, clustered %.0f\n", rows[0], rows[1]);
   assert_true (rows[0] > 400 * 10);
   assert_true (rows[0] == rows[1]);
   assert_true (docs[0] == docs[1]);
   bson_destroy (r);
}

/* test_clustered_locality -- scancmp's sweep: the clustered copy's pages per master within 2x of the
 * folded layout's, the interleaved source's far above both. */
static void
test_clustered_locality (void **state)
{
   bson_t *r = scan ("--cold --cache-ratios 1,2 --keys-limit 300 --layout detail=bill_detail:rows --layout "
                     "clustered=detail_clustered:rows --layout folded=detail_coll:folded");
   double d, c, f;

   (void)state;
   d = lab_test_json_num (r, "sweep.0.detail.locality.pages_per_master_mean");
   c = lab_test_json_num (r, "sweep.0.clustered.locality.pages_per_master_mean");
   f = lab_test_json_num (r, "sweep.0.folded.locality.pages_per_master_mean");
   fprintf (stderr, "pages per master: detail %.2f, clustered %.2f, folded %.2f\n", d, c, f);
   if (!(c <= 2 * f && d > 5 * c)) {
      fail_msg ("pages per master: detail %.2f, clustered %.2f, folded %.2f", d, c, f);
   }
   bson_destroy (r);
}

/* test_clustered_workloads -- scancmp's load, row, range, append and update workloads on the detail,
 * clustered and folded layouts, the workload indexes built by --create-workload-indexes (on the clustered
 * copy: secondary indexes whose entries end in its string RecordId): every workload returns the same rows
 * on every layout (rows_equal), the row workload every row asked for, the clustered plan naming the FETCH
 * by the clustered RecordId. It writes the same rows to all three. */
static void
test_clustered_workloads (void **state)
{
   bson_t *r =
      scan ("--keys-limit 200 --workload load,row,range,append,update --create-workload-indexes "
            "--row-keys 300 --range-windows 4 --range-window 6h --append-rows 200 --update-rows 200 "
            "--seed 3 --layout detail=bill_detail:rows --layout clustered=detail_clustered:rows --layout "
            "folded=detail_coll:folded");
   char p[96];
   int i, l, n = 0, plans = 0;

   (void)state;
   for (i = 0;; i++) {
      bson_snprintf (p, sizeof p, "workloads.%d.workload", i);
      if (!lab_test_json_has (r, p)) {
         break;
      }
      n++;
      bson_snprintf (p, sizeof p, "workloads.%d.rows_equal", i);
      if (!lab_test_json_bool (r, p)) {
         bson_snprintf (p, sizeof p, "workloads.%d.workload", i);
         fail_msg ("workload %s: the layouts returned different rows", lab_test_json_str (r, p));
      }
      bson_snprintf (p, sizeof p, "workloads.%d.workload", i);
      if (strcmp (lab_test_json_str (r, p), "row") != 0 && strcmp (lab_test_json_str (r, p), "range") != 0) {
         continue;
      }
      for (l = 0; l < 3; l++) {
         bson_snprintf (p, sizeof p, "workloads.%d.layouts.%d.layout", i, l);
         if (strcmp (lab_test_json_str (r, p), "clustered") == 0) {
            bson_snprintf (p, sizeof p, "workloads.%d.layouts.%d.plan", i, l);
            plans += strstr (lab_test_json_str (r, p), "by the clustered RecordId") != NULL;
            bson_snprintf (p, sizeof p, "workloads.%d.layouts.%d.rows_returned", i, l);
            assert_true (lab_test_json_num (r, p) > 0);
         }
      }
   }
   assert_int_equal (n, 6); /* load, row, range, append, the load after the writes, update */
   assert_int_equal (plans, 2);
   bson_destroy (r);
}

/* test_clustered_mix -- scancmp --mix of loads, rows, windows, appends and corrections on the detail and
 * clustered layouts: the mix reads the clustered layout's masters by their _id range (it has no key
 * index) and both layouts return the same rows (rows_equal). */
static void
test_clustered_mix (void **state)
{
   bson_t *r = scan ("--keys-limit 100 --mix load=20,row=40,range=10,append=20,update=10 --mix-ops 400 "
                     "--parallel 2 --seed 4 --create-workload-indexes --layout detail=bill_detail:rows "
                     "--layout clustered=detail_clustered:rows");
   char p[64];
   int l;

   (void)state;
   assert_true (lab_test_json_bool (r, "mix.rows_equal"));
   assert_true (lab_test_json_num (r, "mix.ops") == 400);
   for (l = 0; l < 2; l++) { /* each layout's loads returned rows */
      bson_snprintf (p, sizeof p, "mix.layouts.%d.by_type.0.op", l);
      assert_string_equal (lab_test_json_str (r, p), "load");
      bson_snprintf (p, sizeof p, "mix.layouts.%d.by_type.0.rows", l);
      assert_true (lab_test_json_num (r, p) > 0);
   }
   bson_destroy (r);
}

/* test_clustered_appends -- scancmp's append workload on a clustered copy: every appended row gets the
 * clustered _id {bill_id, id}, so it sits in its bill's _id range (the natural scan, which is _id order,
 * sees every row's _id.bill_id equal to its bill_id, keys never going down), and the count grows by the
 * rows appended. Last: it appends to bill_detail too. */
static void
test_clustered_appends (void **state)
{
   lab_store_t *s;
   lab_store_session_t *sess;
   bson_error_t error;
   ids_t dst = { .clustered = true };
   int64_t before = 0, after = 0;
   bson_t *r;

   (void)state;
   assert_int_equal (
      lab_test_tools_fold (fx, NULL, "--src bill_detail --dst detail_capp --shape clustered", NULL, NULL), 0);
   s = lab_test_store_open (fx->uri);
   sess = lab_store_session_open (s, &error);
   assert_true (lab_store_count (sess, "detail_capp", &before, &error));
   lab_store_session_close (sess);
   lab_store_close (s);
   r = scan ("--keys-limit 100 --workload append --append-rows 300 --layout detail=bill_detail:rows --layout "
             "capp=detail_capp:rows");
   bson_destroy (r);
   s = lab_test_store_open (fx->uri);
   sess = lab_store_session_open (s, &error);
   assert_true (lab_store_count (sess, "detail_capp", &after, &error));
   lab_store_session_close (sess);
   read_ids (s, "detail_capp", &dst);
   lab_store_close (s);
   fprintf (stderr, "clustered copy: %lld rows before the appends, %lld after\n", (long long)before,
            (long long)after);
   assert_true (after == before + 300);
   assert_int_equal (dst.n, (size_t)after);
   assert_int_equal (dst.out_of_order, 0);
   ids_free (&dst);
}

/* main -- the group, in order: the copy first (the scans read it), the appends last (they change the
 * source). */
int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_clustered_copy_verifies),
      cmocka_unit_test (test_clustered_damage_fails_verify),
      cmocka_unit_test (test_clustered_kill_then_resume),
      cmocka_unit_test (test_clustered_plan),
      cmocka_unit_test (test_clustered_load_same_rows),
      cmocka_unit_test (test_clustered_locality),
      cmocka_unit_test (test_clustered_workloads),
      cmocka_unit_test (test_clustered_mix),
      cmocka_unit_test (test_clustered_appends),
   };

   return lab_test_run_group ("fold_clustered", tests, setup, teardown);
}
