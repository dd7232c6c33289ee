/*
 * test_verify_diff.c -- `fold-details --verify` catches each kind of difference, by both methods, on one
 * backend ($LAB_FOLD_BACKEND: wiredtiger, or mongodb on the test server): a small source folded once
 * (one master split into parts by a small --max-doc-bytes, nothing hoisted) verifies equal by both
 * methods with the same checksums; then, one at a time and undone after, a damage made through the store:
 *   - a changed value: one field of one source row;
 *   - a changed type with the same printed value: an int32 3 that becomes a double 3.0 in a folded row;
 *   - a row moved to another master: one element taken from a folded document into another's;
 *   - a duplicated row: one element of a folded document twice;
 *   - a row dropped from a split part: one element less in part 1 of the split master;
 * each must exit 3 with the JSON summary's verify not equal, its method the one asked for, and the first
 * difference naming the damaged master (the smaller one when two are). Every count a folded document
 * carries is kept consistent (row_count), so only the rows' counts and digests can tell.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "core/store.h"

#include <stdio.h>
#include <string.h>

#define BILLS 12
#define BIG 100 /* the master split into parts */
#define BIG_ROWS 40
#define CAP "1500"

static const char *backend;
static char *uri;
static char *db;
static char *bin;
static lab_store_t *store; /* open only between the tool's runs: an embedded home has one owner */
static lab_store_session_t *sess;

#define ASSERT_OK(expr, err)                                                                                 \
   do {                                                                                                      \
      if (!(expr)) {                                                                                         \
         fail_msg ("%s failed: %s", #expr, (err).message);                                                   \
      }                                                                                                      \
   } while (0)

/* store_open -- the store and a session, for a damage or its repair. */
static bool
store_open (bson_error_t *error)
{
   lab_store_opts_t o = { 0 };

   o.db = db;
   o.create = true;
   o.cache_size_bytes = 64 * 1024 * 1024;
   store = lab_store_open (uri, &o, error);
   sess = store ? lab_store_session_open (store, error) : NULL;
   return sess != NULL;
}

/* begin -- the store open for a damage or its repair (get, put); end -- closed again before the tool
 * runs. */
static void
begin (void)
{
   bson_error_t error;

   ASSERT_OK (store_open (&error), error);
}

static void end (void);

/* store_close -- before the tool runs. */
static void
store_close (void)
{
   lab_store_session_close (sess);
   lab_store_close (store);
   sess = NULL;
   store = NULL;
}

static void
end (void)
{
   store_close ();
}

/* tool -- run fold-details on this backend with `args` and --json -: the exit code, the summary (caller
 * destroys) in *sum; its stderr is printed when the exit code is not `expect`. */
static int
tool (const char *args, bson_t **sum, int expect)
{
   char *cmd, *out = NULL, *err = NULL;
   bson_error_t error;
   int rc;

   cmd = bson_strdup_printf ("%s --uri '%s' %s%s%s --cache-size 64M --progress never --json - %s", bin, uri,
                             db ? "--db '" : "", db ? db : "", db ? "'" : "", args);
   rc = lab_test_run (cmd, &out, &err);
   *sum = bson_new_from_json ((const uint8_t *)out, -1, &error);
   if (!*sum) {
      fail_msg ("%s: exit %d, no JSON summary (%s)\nstdout: %s\nstderr: %s", cmd, rc, error.message, out,
                err);
   }
   if (rc != expect) {
      fprintf (stderr, "%s: exit %d\n%s", cmd, rc, err);
   }
   bson_free (cmd);
   bson_free (out);
   bson_free (err);
   return rc;
}

/* str_at -- the string at `path` of a summary ("" when missing). */
static const char *
str_at (const bson_t *b, const char *path)
{
   bson_iter_t it, d;

   if (bson_iter_init (&it, b) && bson_iter_find_descendant (&it, path, &d) && BSON_ITER_HOLDS_UTF8 (&d)) {
      return bson_iter_utf8 (&d, NULL);
   }
   return "";
}

/* verify -- --verify=method on vd_src/vd_dst: the exit code; the summary in *sum (caller destroys). */
static int
verify (const char *method, bson_t **sum, int expect)
{
   char *args = bson_strdup_printf ("--src vd_src --dst vd_dst --max-doc-bytes " CAP " --verify=%s", method);
   int rc = tool (args, sum, expect);

   bson_free (args);
   assert_string_equal (str_at (*sum, "verify.method"), method);
   return rc;
}

/* expect_difference -- both methods exit 3, not equal, the first difference about master `key`. */
static void
expect_difference (const char *what, int key)
{
   const char *methods[] = { "multiset", "ordered" };
   char want[64];
   bson_t *sum;
   int i, rc;

   bson_snprintf (want, sizeof want, "master bill_id=%d:", key);
   for (i = 0; i < 2; i++) {
      rc = verify (methods[i], &sum, 3);
      print_message ("%s, %s: exit %d: %s\n", what, methods[i], rc, str_at (sum, "verify.first_difference"));
      if (rc != 3) {
         fail_msg ("%s, --verify=%s: exit %d, wanted 3", what, methods[i], rc);
      }
      assert_false (lab_test_json_bool (sum, "verify.equal"));
      if (strncmp (str_at (sum, "verify.first_difference"), want, strlen (want)) != 0) {
         fail_msg ("%s, --verify=%s: the first difference does not start with '%s': %s", what, methods[i],
                   want, str_at (sum, "verify.first_difference"));
      }
      bson_destroy (sum);
   }
}

/* ---- the store side: documents of a master, rebuilt ----------------------------------------------- */

typedef struct {
   bson_t *docs[16];
   int n;
} docs_t;

static bool
collect (const bson_t *doc, void *ctx)
{
   docs_t *d = ctx;

   if (d->n < 16) {
      d->docs[d->n++] = bson_copy (doc);
   }
   return true;
}

static void
docs_free (docs_t *d)
{
   while (d->n) {
      bson_destroy (d->docs[--d->n]);
   }
}

/* get -- the documents of `coll` whose bill_id is `key`, folded ones ordered by part. */
static void
get (const char *coll, int key, docs_t *d)
{
   bson_value_t v = { .value_type = BSON_TYPE_INT32, .value.v_int32 = key };
   bson_error_t error;
   bson_iter_t it;
   int i, j;

   memset (d, 0, sizeof *d);
   ASSERT_OK (lab_store_find_eq (sess, coll, "bill_id", &v, collect, d, NULL, &error), error);
   assert_true (d->n > 0);
   for (i = 1; i < d->n; i++) { /* by part (source rows have none: their order stays) */
      for (j = i; j > 0; j--) {
         int32_t a = bson_iter_init_find (&it, d->docs[j - 1], "part") ? bson_iter_int32 (&it) : 0;
         int32_t b = bson_iter_init_find (&it, d->docs[j], "part") ? bson_iter_int32 (&it) : 0;
         if (a <= b) {
            break;
         }
         bson_t *t = d->docs[j];
         d->docs[j] = d->docs[j - 1];
         d->docs[j - 1] = t;
      }
   }
}

/* put -- replace the document with doc's _id: deleted, then inserted (a replace may be skipped by a
 * server that finds the new document equal to the old one by value, as FerretDB does for 3 vs 3.0). */
static void
put (const char *coll, const bson_t *doc)
{
   lab_store_insert_result_t res = { 0 };
   bson_error_t error;
   bson_iter_t it;
   int64_t deleted = 0;

   assert_true (bson_iter_init_find (&it, doc, "_id"));
   ASSERT_OK (lab_store_delete_eq (sess, coll, "_id", bson_iter_value (&it), &deleted, &error), error);
   assert_int_equal (deleted, 1);
   ASSERT_OK (lab_store_insert_many (sess, coll, &doc, 1, &res, &error), error);
   assert_int_equal (res.nerrors, 0);
   lab_store_insert_result_cleanup (&res);
}

/* rows_of -- the elements of a folded document's details (pointing into it). */
static int
rows_of (const bson_t *doc, bson_t *rows, int max)
{
   bson_iter_t it, a;
   const uint8_t *data;
   uint32_t len;
   int n = 0;

   assert_true (bson_iter_init_find (&it, doc, "details") && bson_iter_recurse (&it, &a));
   while (bson_iter_next (&a) && n < max) {
      bson_iter_document (&a, &len, &data);
      assert_true (bson_init_static (&rows[n++], data, len));
   }
   return n;
}

/* rebuilt -- doc with its details replaced by rows[0..n) and row_count n (the other fields as they are). */
static bson_t *
rebuilt (const bson_t *doc, const bson_t *rows, int n)
{
   bson_t *out = bson_new ();
   bson_t arr;
   bson_iter_t it;
   char idx[16];
   const char *k;
   int i;

   assert_true (bson_iter_init (&it, doc));
   while (bson_iter_next (&it)) {
      if (strcmp (bson_iter_key (&it), "row_count") == 0) {
         BSON_APPEND_INT32 (out, "row_count", n);
      } else if (strcmp (bson_iter_key (&it), "details") == 0) {
         BSON_APPEND_ARRAY_BEGIN (out, "details", &arr);
         for (i = 0; i < n; i++) {
            bson_uint32_to_string ((uint32_t)i, &k, idx, sizeof idx);
            BSON_APPEND_DOCUMENT (&arr, k, &rows[i]);
         }
         bson_append_array_end (out, &arr);
      } else {
         assert_true (bson_append_iter (out, NULL, 0, &it));
      }
   }
   return out;
}

/* with_field -- a copy of row whose `field` is replaced by `v` (same position). */
static bson_t *
with_field (const bson_t *row, const char *field, const bson_value_t *v)
{
   bson_t *out = bson_new ();
   bson_iter_t it;

   assert_true (bson_iter_init (&it, row));
   while (bson_iter_next (&it)) {
      if (strcmp (bson_iter_key (&it), field) == 0) {
         assert_true (bson_append_value (out, field, -1, v));
      } else {
         assert_true (bson_append_iter (out, NULL, 0, &it));
      }
   }
   return out;
}

/* ---- fixtures ------------------------------------------------------------------------------------- */

static int
setup (void **state)
{
   bson_error_t error;
   bson_t *rows[BILLS * 6 + BIG_ROWS], *sum;
   char note[64];
   int64_t id = 1;
   int n = 0, b, r, rc;

   (void)state;
   uri = lab_test_store_uri (backend, "verifydiff", &db);
   bin = lab_test_bin ("fold-details");
   if (!uri || !bin) {
      fprintf (stderr, "no store URI or no fold-details for backend '%s'\n", backend);
      return -1;
   }
   if (!store_open (&error)) {
      fprintf (stderr, "cannot open %s: %s\n", uri, error.message);
      return -1;
   }
   if (!lab_store_drop (sess, "vd_src", &error) || !lab_store_drop (sess, "vd_dst", &error) ||
       !lab_store_create (sess, "vd_src", &error) ||
       !lab_store_create_index (sess, "vd_src", "bill_id", &error)) {
      fprintf (stderr, "cannot prepare vd_src: %s\n", error.message);
      return -1;
   }
   /* bills 1..BILLS of 3..6 rows, interleaved; every row has an int32 qty 3; then the big one */
   for (r = 0; r < 6; r++) {
      for (b = 1; b <= BILLS; b++) {
         if (r >= 3 + b % 4) {
            continue;
         }
         rows[n++] = BCON_NEW ("_id", BCON_INT64 (id), "bill_id", BCON_INT32 (b), "line", BCON_INT32 (r),
                               "qty", BCON_INT32 (3), "amount", BCON_DOUBLE (r * 1.5 + b));
         id++;
      }
   }
   for (r = 0; r < BIG_ROWS; r++) {
      bson_snprintf (note, sizeof note, "a note long enough to split the master: %d", r);
      rows[n++] = BCON_NEW ("_id", BCON_INT64 (id), "bill_id", BCON_INT32 (BIG), "line", BCON_INT32 (r),
                            "qty", BCON_INT32 (3), "note", BCON_UTF8 (note));
      id++;
   }
   {
      lab_store_insert_result_t res = { 0 };
      if (!lab_store_insert_many (sess, "vd_src", (const bson_t *const *)rows, (size_t)n, &res, &error) ||
          res.nerrors) {
         fprintf (stderr, "cannot fill vd_src: %s\n", error.message);
         return -1;
      }
      lab_store_insert_result_cleanup (&res);
   }
   while (n) {
      bson_destroy (rows[--n]);
   }
   store_close ();
   rc = tool ("--src vd_src --dst vd_dst --drop-dst --hoist none --max-doc-bytes " CAP " --verify", &sum, 0);
   if (rc != 0) {
      fprintf (stderr, "the fold failed (exit %d)\n", rc);
      return -1;
   }
   bson_destroy (sum);
   return 0;
}

static int
teardown (void **state)
{
   bson_error_t error;

   (void)state;
   if (uri && store_open (&error)) {
      (void)lab_store_drop (sess, "vd_src", &error);
      (void)lab_store_drop (sess, "vd_dst", &error);
   }
   store_close ();
   if (uri && strcmp (backend, "wiredtiger") == 0) {
      lab_test_rmtree (uri + strlen ("wiredtiger:"));
   }
   bson_free (uri);
   bson_free (db);
   bson_free (bin);
   return 0;
}

/* ---- the cases -------------------------------------------------------------------------------------- */

/* test_equal -- the fold verifies equal by both methods, with the same figures; the big master is split. */
static void
test_equal (void **state)
{
   bson_t *m, *o;
   docs_t big;

   (void)state;
   begin ();
   get ("vd_dst", BIG, &big);
   end ();
   assert_true (big.n >= 3);
   docs_free (&big);
   assert_int_equal (verify ("multiset", &m, 0), 0);
   assert_int_equal (verify ("ordered", &o, 0), 0);
   assert_true (lab_test_json_bool (m, "verify.equal") && lab_test_json_bool (o, "verify.equal"));
   assert_string_equal (str_at (m, "verify.src_checksum"), str_at (o, "verify.src_checksum"));
   assert_string_equal (str_at (m, "verify.dst_checksum"), str_at (m, "verify.src_checksum"));
   bson_destroy (m);
   bson_destroy (o);
}

/* test_changed_value -- one source row's amount changed */
static void
test_changed_value (void **state)
{
   bson_value_t v = { .value_type = BSON_TYPE_DOUBLE, .value.v_double = 999.25 };
   docs_t src;
   bson_t *bad;

   (void)state;
   begin ();
   get ("vd_src", 3, &src);
   bad = with_field (src.docs[0], "amount", &v);
   put ("vd_src", bad);
   end ();
   expect_difference ("a changed value", 3);
   begin ();
   put ("vd_src", src.docs[0]);
   end ();
   bson_destroy (bad);
   docs_free (&src);
}

/* test_changed_type -- qty int32 3 becomes double 3.0 in one folded row of master 5 */
static void
test_changed_type (void **state)
{
   bson_value_t v = { .value_type = BSON_TYPE_DOUBLE, .value.v_double = 3.0 };
   bson_t rows[16], *row, *bad;
   docs_t dst;
   int n;

   (void)state;
   begin ();
   get ("vd_dst", 5, &dst);
   n = rows_of (dst.docs[0], rows, 16);
   row = with_field (&rows[1], "qty", &v);
   rows[1] = *row;
   bad = rebuilt (dst.docs[0], rows, n);
   put ("vd_dst", bad);
   end ();
   expect_difference ("int32 3 turned double 3.0", 5);
   begin ();
   put ("vd_dst", dst.docs[0]);
   end ();
   bson_destroy (bad);
   bson_destroy (row);
   docs_free (&dst);
}

/* test_moved_row -- the last row of master 7 moved into master 8's document */
static void
test_moved_row (void **state)
{
   bson_t r7[16], r8[17], *b7, *b8;
   docs_t d7, d8;
   int n7, n8;

   (void)state;
   begin ();
   get ("vd_dst", 7, &d7);
   get ("vd_dst", 8, &d8);
   n7 = rows_of (d7.docs[0], r7, 16);
   n8 = rows_of (d8.docs[0], r8, 16);
   r8[n8] = r7[n7 - 1];
   b7 = rebuilt (d7.docs[0], r7, n7 - 1);
   b8 = rebuilt (d8.docs[0], r8, n8 + 1);
   put ("vd_dst", b7);
   put ("vd_dst", b8);
   end ();
   expect_difference ("a row moved to another master", 7);
   begin ();
   put ("vd_dst", d7.docs[0]);
   put ("vd_dst", d8.docs[0]);
   end ();
   bson_destroy (b7);
   bson_destroy (b8);
   docs_free (&d7);
   docs_free (&d8);
}

/* test_duplicated_row -- the first row of master 9 twice */
static void
test_duplicated_row (void **state)
{
   bson_t rows[17], *bad;
   docs_t dst;
   int n;

   (void)state;
   begin ();
   get ("vd_dst", 9, &dst);
   n = rows_of (dst.docs[0], rows, 16);
   rows[n] = rows[0];
   bad = rebuilt (dst.docs[0], rows, n + 1);
   put ("vd_dst", bad);
   end ();
   expect_difference ("a duplicated row", 9);
   begin ();
   put ("vd_dst", dst.docs[0]);
   end ();
   bson_destroy (bad);
   docs_free (&dst);
}

/* test_dropped_from_part -- part 1 of the split master loses a row */
static void
test_dropped_from_part (void **state)
{
   bson_t rows[BIG_ROWS], *bad;
   docs_t big;
   bson_iter_t it;
   int n;

   (void)state;
   begin ();
   get ("vd_dst", BIG, &big);
   assert_true (big.n >= 3);
   assert_true (bson_iter_init_find (&it, big.docs[1], "part") && bson_iter_int32 (&it) == 1);
   n = rows_of (big.docs[1], rows, BIG_ROWS);
   assert_true (n >= 2);
   rows[0] = rows[n - 1]; /* the first row dropped (the last takes its place) */
   bad = rebuilt (big.docs[1], rows, n - 1);
   put ("vd_dst", bad);
   end ();
   expect_difference ("a row dropped from a split part", BIG);
   begin ();
   put ("vd_dst", big.docs[1]);
   end ();
   bson_destroy (bad);
   docs_free (&big);
}

int
main (int argc, char **argv)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_equal),          cmocka_unit_test (test_changed_value),
      cmocka_unit_test (test_changed_type),   cmocka_unit_test (test_moved_row),
      cmocka_unit_test (test_duplicated_row), cmocka_unit_test (test_dropped_from_part),
      cmocka_unit_test (test_equal), /* every damage undone */
   };

   backend = argc > 1 ? argv[1] : getenv ("LAB_FOLD_BACKEND");
   if (!backend || (strcmp (backend, "wiredtiger") != 0 && strcmp (backend, "mongodb") != 0)) {
      fprintf (stderr, "usage: %s wiredtiger|mongodb (or set LAB_FOLD_BACKEND)\n", argv[0]);
      return 2;
   }
   return lab_test_run_group (backend, tests, setup, teardown);
}
