/*
 * test_fold_sorted.c -- fold-details --shape sorted end to end on the embedded store, on billgen's
 * interleaved data: the copy holds exactly the source's rows (--verify by both methods equal, the same count,
 * every original _id) in (key, original order); a changed row in it fails --verify (exit 3); a run killed
 * midway then --resume gives the same rows, none twice; scancmp measures it as a rows layout whose locality
 * (pages per master) is within 2x of the folded layout's while the source's is far higher.
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
   fx = lab_test_tools_fx_new ("fold-sorted", BILLS, MEAN_ROWS, "--order interleaved");
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

/* row_t -- a row as the test compares it: its key, its _id as text, its place in its collection. */
typedef struct {
   bson_value_t key;
   char *id;
   int64_t pos;
} row_t;

/* read_natural -- every document of `coll` in natural order (*n of them; caller frees with rows_free). */
static row_t *
read_natural (lab_store_t *s, const char *coll, size_t *n)
{
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   lab_store_natural_opts_t no = { 0 };
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bson_iter_t it;
   row_t *rows = NULL;
   size_t cap = 0;
   int rc;

   assert_non_null (sess);
   cur = lab_store_natural_open (sess, coll, &no, &error);
   if (!cur) {
      fail_msg ("natural %s: %s", coll, error.message);
   }
   *n = 0;
   while ((rc = lab_store_cursor_next (cur, &doc, &error)) == 1) {
      if (*n == cap) {
         cap = cap ? 2 * cap : 4096;
         rows = bson_realloc (rows, cap * sizeof *rows);
      }
      assert_true (bson_iter_init_find (&it, doc, "bill_id"));
      bson_value_copy (bson_iter_value (&it), &rows[*n].key);
      assert_true (bson_iter_init_find (&it, doc, "_id"));
      rows[*n].id = lab_value_to_text (bson_iter_value (&it));
      rows[*n].pos = (int64_t)*n;
      (*n)++;
   }
   assert_int_equal (rc, 0);
   lab_store_cursor_close (cur);
   lab_store_session_close (sess);
   return rows;
}

/* rows_free -- what read_natural returned. */
static void
rows_free (row_t *rows, size_t n)
{
   size_t i;

   for (i = 0; i < n; i++) {
      bson_value_destroy (&rows[i].key);
      bson_free (rows[i].id);
   }
   bson_free (rows);
}

/* key_then_pos -- qsort order (key, original place): the order --shape sorted writes. */
static int
key_then_pos (const void *a, const void *b)
{
   const row_t *x = a, *y = b;
   int c = lab_store_value_compare (&x->key, &y->key);

   return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* assert_sorted_copy -- `coll` holds the rows of bill_detail, the same _ids, in (key, original order). */
static void
assert_sorted_copy (const char *coll)
{
   lab_store_t *s = lab_test_store_open (fx->uri);
   size_t ns, nd, i;
   row_t *src = read_natural (s, "bill_detail", &ns);
   row_t *dst = read_natural (s, coll, &nd);

   lab_store_close (s);
   assert_true (ns > (size_t)BILLS * 10);
   assert_int_equal (nd, ns);
   qsort (src, ns, sizeof *src, key_then_pos);
   for (i = 0; i < ns; i++) {
      if (strcmp (src[i].id, dst[i].id) != 0) {
         fail_msg ("%s: document %zu in natural order is _id %s, the source in (key, original order) has %s",
                   coll, i, dst[i].id, src[i].id);
      }
   }
   rows_free (src, ns);
   rows_free (dst, nd);
}

/* assert_marker_shape -- the copy's marker records params.shape "sorted", once (a server refuses a marker
 * with a duplicate field). */
static void
assert_marker_shape (const char *coll)
{
   lab_store_t *s = lab_test_store_open (fx->uri);
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   bson_t *mark = NULL, params;
   bson_iter_t it;
   bool foreign = false;
   int n = 0;

   assert_non_null (sess);
   if (!lab_store_mark_get (sess, coll, &mark, &foreign, &error)) {
      fail_msg ("marker of %s: %s", coll, error.message);
   }
   assert_non_null (mark);
   assert_true (bson_iter_init_find (&it, mark, "params") && BSON_ITER_HOLDS_DOCUMENT (&it));
   {
      const uint8_t *data;
      uint32_t len;
      bson_iter_document (&it, &len, &data);
      assert_true (bson_init_static (&params, data, len));
   }
   assert_true (bson_iter_init (&it, &params));
   while (bson_iter_next (&it)) {
      if (strcmp (bson_iter_key (&it), "shape") == 0) {
         n++;
         assert_string_equal (bson_iter_utf8 (&it, NULL), "sorted");
      }
   }
   assert_int_equal (n, 1);
   bson_destroy (mark);
   lab_store_session_close (sess);
   lab_store_close (s);
}

/* test_sorted_copy_verifies -- the copy verifies by both methods and holds the source's rows in order. */
static void
test_sorted_copy_verifies (void **state)
{
   char *out = NULL, *err = NULL;
   bson_error_t error;
   bson_t *s;

   (void)state;
   assert_int_equal (
      lab_test_tools_fold (fx, NULL, "--src bill_detail --dst detail_sorted --shape sorted --verify --json -",
                           &out, &err),
      0);
   s = bson_new_from_json ((const uint8_t *)out, -1, &error);
   assert_non_null (s);
   assert_string_equal (lab_test_json_str (s, "shape"), "sorted");
   assert_true (lab_test_json_bool (s, "verify.equal"));
   assert_true (lab_test_json_num (s, "docs_out") == lab_test_json_num (s, "rows_in"));
   assert_true (lab_test_json_num (s, "verify.dst_docs") == lab_test_json_num (s, "verify.src_rows"));
   assert_int_equal ((int)lab_test_json_num (s, "masters"), BILLS);
   bson_destroy (s);
   bson_free (out);
   bson_free (err);
   assert_sorted_copy ("detail_sorted");
   assert_marker_shape ("detail_sorted");
   /* the multiset verify plans its passes by masters, not by the copy's rows: 60,000 rows would need 14
    * passes in a 2 MiB bound, its 1,500 masters fit in one */
   assert_int_equal (lab_test_tools_fold (fx, NULL,
                                          "--src bill_detail --dst detail_sorted --shape sorted --verify "
                                          "--verify-memory 2MiB --json -",
                                          &out, &err),
                     0);
   s = bson_new_from_json ((const uint8_t *)out, -1, &error);
   assert_non_null (s);
   assert_true (lab_test_json_bool (s, "verify.equal"));
   assert_int_equal ((int)lab_test_json_num (s, "verify.passes"), 1);
   bson_destroy (s);
   bson_free (out);
   bson_free (err);
   /* the ordered method agrees; verify alone on the finished copy */
   assert_int_equal (
      lab_test_tools_fold (fx, NULL, "--src bill_detail --dst detail_sorted --shape sorted --verify=ordered",
                           NULL, NULL),
      0);
   /* a fold's verification of the copy is refused by name: its shape is not this command's */
   err = NULL;
   assert_int_equal (
      lab_test_tools_fold (fx, NULL, "--src bill_detail --dst detail_sorted --verify", NULL, &err), 2);
   assert_non_null (strstr (err, "--shape: sorted there, folded here"));
   bson_free (err);
}

/* test_sorted_damage_fails_verify -- one value changed in one row of a copy: --verify exits 3. */
static void
test_sorted_damage_fails_verify (void **state)
{
   lab_store_t *s;
   lab_store_session_t *sess;
   lab_store_sorted_opts_t so = { 0 };
   lab_store_cursor_t *cur;
   lab_store_insert_result_t res = { 0 };
   const bson_t *doc;
   bson_t *changed;
   bson_iter_t it;
   bson_value_t id;
   bson_error_t error;
   int64_t deleted = 0;
   char *err = NULL;

   (void)state;
   assert_int_equal (
      lab_test_tools_fold (fx, NULL, "--src bill_detail --dst detail_dmg --shape sorted", NULL, NULL), 0);
   s = lab_test_store_open (fx->uri);
   sess = lab_store_session_open (s, &error);
   assert_non_null (sess);
   cur = lab_store_sorted_open (sess, "detail_dmg", "bill_id", &so, &error);
   assert_non_null (cur);
   assert_int_equal (lab_store_cursor_next (cur, &doc, &error), 1);
   /* the same row with one more field: same key, same _id, same count, another checksum */
   changed = bson_copy (doc);
   BSON_APPEND_INT32 (changed, "tampered", 1);
   assert_true (bson_iter_init_find (&it, doc, "_id"));
   bson_value_copy (bson_iter_value (&it), &id);
   lab_store_cursor_close (cur);
   assert_true (lab_store_delete_eq (sess, "detail_dmg", "_id", &id, &deleted, &error));
   assert_int_equal (deleted, 1);
   assert_true (lab_store_insert_many (sess, "detail_dmg", (const bson_t *const *)&changed, 1, &res, &error));
   assert_int_equal (res.nerrors, 0);
   lab_store_insert_result_cleanup (&res);
   bson_destroy (changed);
   bson_value_destroy (&id);
   lab_store_session_close (sess);
   lab_store_close (s);
   assert_int_equal (lab_test_tools_fold (
                        fx, NULL, "--src bill_detail --dst detail_dmg --shape sorted --verify", NULL, &err),
                     3);
   assert_non_null (strstr (err, "contents differ"));
   bson_free (err);
   err = NULL;
   assert_int_equal (
      lab_test_tools_fold (fx, NULL, "--src bill_detail --dst detail_dmg --shape sorted --verify=ordered",
                           NULL, &err),
      3);
   bson_free (err);
}

/* test_sorted_kill_then_resume -- killed after a few batches, then --resume --verify: equal, in order. */
static void
test_sorted_kill_then_resume (void **state)
{
   char *err = NULL;
   int rc;

   (void)state;
   rc = lab_test_tools_fold (fx, "LAYOUTLAB_FOLD_KILL_AFTER_BATCHES=5",
                             "--src bill_detail --dst detail_res --shape sorted "
                             "--batch-docs 500",
                             NULL, NULL);
   assert_int_not_equal (rc, 0);
   /* a resume with another shape is refused by name */
   assert_int_equal (lab_test_tools_fold (
                        fx, NULL, "--src bill_detail --dst detail_res --resume --batch-docs 500", NULL, &err),
                     2);
   assert_non_null (strstr (err, "--shape"));
   bson_free (err);
   assert_int_equal (
      lab_test_tools_fold (fx, NULL,
                           "--src bill_detail --dst detail_res --shape sorted --batch-docs 500 "
                           "--resume --verify",
                           NULL, NULL),
      0);
   assert_sorted_copy ("detail_res");
}

/* test_sorted_plan -- --plan describes the copy and writes nothing. */
static void
test_sorted_plan (void **state)
{
   char *out = NULL;

   (void)state;
   assert_int_equal (
      lab_test_tools_fold (fx, NULL, "--src bill_detail --dst detail_plan --shape sorted --plan", &out, NULL),
      0);
   assert_non_null (strstr (out, "rows unchanged, in key order"));
   bson_free (out);
}

/* test_sorted_locality -- scancmp's sweep: the sorted copy's pages per master within 2x of the folded
 * layout's, the interleaved source's far above both. */
static void
test_sorted_locality (void **state)
{
   char *path = bson_strdup_printf ("%s/loc.json", fx->dir);
   char *cmd = bson_strdup_printf (
      "'%s' --uri '%s' --cold --cache-ratios 0.5,2 --keys-limit 300 --interval 100ms --progress never "
      "--layout detail=bill_detail:rows --layout sorted=detail_sorted:rows --layout "
      "folded=detail_coll:folded "
      "--out '%s'",
      fx->scan, fx->uri, path);
   char *err = NULL;
   double d, so, f;
   bson_t *r;

   (void)state;
   if (lab_test_run (cmd, NULL, &err) != 0) {
      fail_msg ("%s: %s", cmd, err);
   }
   r = lab_test_json_load (path);
   assert_non_null (r);
   d = lab_test_json_num (r, "sweep.0.detail.locality.pages_per_master_mean");
   so = lab_test_json_num (r, "sweep.0.sorted.locality.pages_per_master_mean");
   f = lab_test_json_num (r, "sweep.0.folded.locality.pages_per_master_mean");
   fprintf (stderr, "pages per master: detail %.2f, sorted %.2f, folded %.2f\n", d, so, f);
   if (!(so <= 2 * f && d > 5 * so)) {
      fail_msg ("pages per master: detail %.2f, sorted %.2f, folded %.2f", d, so, f);
   }
   bson_destroy (r);
   bson_free (err);
   bson_free (cmd);
   bson_free (path);
}

/* main -- the group, in order: the copy first (the locality test measures it). */
int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_sorted_copy_verifies),    cmocka_unit_test (test_sorted_damage_fails_verify),
      cmocka_unit_test (test_sorted_kill_then_resume), cmocka_unit_test (test_sorted_plan),
      cmocka_unit_test (test_sorted_locality),
   };

   return lab_test_run_group ("fold_sorted", tests, setup, teardown);
}
