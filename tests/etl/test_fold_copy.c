/*
 * test_fold_copy.c -- fold-details --shape copy end to end on one backend ($LAB_FOLD_BACKEND: wiredtiger
 * or mongodb, the latter on the test server), from a collection layoutlab did not write (embedded: made
 * through the store API without a marker; on the server: test-mongo-cmd's inserts and createIndexes, a
 * client that is not layoutlab): the copy holds the same documents in the same natural order, the same
 * index key patterns (the server's descending index named as not built, in a warning and in the marker), a
 * marker with shape copy and the source, --verify equal; a copy changed behind its back fails --verify
 * (exit 3); a copy killed midway then --resume --verify is whole; --plan describes it and writes nothing;
 * the refusals (--parallel, --key, --create-index, a clustered source); and the source stays byte for
 * byte as it was (its documents in natural order, its index list, no marker).
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/store.h"

#include <stdio.h>
#include <string.h>

#define DOCS 600

static const char *backend;
static char *uri;
static char *db;
static char *bin;

/* embedded -- the backend is the embedded store. */
static bool
embedded (void)
{
   return strcmp (backend, "wiredtiger") == 0;
}

/* open_store -- the test's store (its own database on the server). */
static lab_store_t *
open_store (void)
{
   lab_store_opts_t o = { .create = true, .cache_size_bytes = 128 * 1024 * 1024, .db = db };
   bson_error_t error;
   lab_store_t *s = lab_store_open (uri, &o, &error);

   if (!s) {
      fail_msg ("open %s: %s", uri, error.message);
   }
   return s;
}

/* fold -- run fold-details on the test's store with `args` (env before it); the exit code, *err its stderr
 * (may be NULL; caller bson_free()s). */
static int
fold (const char *env, const char *args, char **err)
{
   char *cmd = bson_strdup_printf ("%s %s --uri '%s' %s%s%s --progress never %s", env ? env : "", bin, uri,
                                   db ? "--db '" : "", db ? db : "", db ? "'" : "", args);
   char *e = NULL;
   int rc = lab_test_run (cmd, NULL, &e);

   if (getenv ("LAB_TEST_VERBOSE")) {
      fprintf (stderr, "$ %s\n-> %d\n%s", cmd, rc, e);
   }
   bson_free (cmd);
   if (err) {
      *err = e;
   } else {
      bson_free (e);
   }
   return rc;
}

/* mongo_cmd -- a command on the server through test-mongo-cmd (not layoutlab); fails the test on error. */
static void
mongo_cmd (const char *json)
{
   char *tool = lab_test_bin ("test-mongo-cmd");
   char *cmd = bson_strdup_printf ("%s '%s' '%s' '%s'", tool, uri, db, json), *err = NULL;

   if (lab_test_run (cmd, NULL, &err) != 0) {
      fail_msg ("test-mongo-cmd %s: %s", json, err);
   }
   bson_free (err);
   bson_free (cmd);
   bson_free (tool);
}

/* doc_json -- the i-th document of the user's collection: _ids scattered (not in arrival order), masters
 * interleaved, a nested document, an array, a double. */
static char *
doc_json (int i)
{
   return bson_strdup_printf ("{\"_id\": %d, \"bill_id\": %d, \"amt\": {\"$numberDouble\": \"%d.25\"}, "
                              "\"sub\": {\"x\": %d, \"s\": \"r%d\"}, \"tags\": [%d, \"t\"]}",
                              (i * 389) % DOCS, i % 37, i, i % 11, i, i % 3);
}

/* make_source -- the user's collection `coll`, written by something that is not layoutlab: DOCS documents
 * and the indexes {bill_id: 1}, {bill_id: 1, sub.x: 1} (and, on the server, {amt: -1}, which the store
 * cannot build). */
static void
make_source (const char *coll)
{
   int i;

   if (embedded ()) {
      lab_store_t *s = open_store ();
      bson_error_t error;
      lab_store_session_t *sess = lab_store_session_open (s, &error);
      lab_store_index_spec_t one = { { "bill_id" }, 1 }, two = { { "bill_id", "sub.x" }, 2 };
      lab_store_insert_result_t res = { 0 };
      bson_t *docs[DOCS];

      assert_non_null (sess);
      for (i = 0; i < DOCS; i++) {
         char *j = doc_json (i);
         docs[i] = bson_new_from_json ((const uint8_t *)j, -1, &error);
         assert_non_null (docs[i]);
         bson_free (j);
      }
      LAB_TEST_CHECK (lab_store_create (sess, coll, &e_));
      LAB_TEST_CHECK (lab_store_insert_many (sess, coll, (const bson_t *const *)docs, DOCS, &res, &e_));
      assert_int_equal (res.nerrors, 0);
      lab_store_insert_result_cleanup (&res);
      LAB_TEST_CHECK (lab_store_create_index_spec (sess, coll, &one, &e_));
      LAB_TEST_CHECK (lab_store_create_index_spec (sess, coll, &two, &e_));
      for (i = 0; i < DOCS; i++) {
         bson_destroy (docs[i]);
      }
      lab_store_session_close (sess);
      lab_store_close (s);
      return;
   }
   for (i = 0; i < DOCS; i += 100) {
      bson_string_t *cmd = bson_string_new ("{\"insert\": \"");
      int k;

      bson_string_append_printf (cmd, "%s\", \"documents\": [", coll);
      for (k = i; k < i + 100 && k < DOCS; k++) {
         char *j = doc_json (k);
         bson_string_append_printf (cmd, "%s%s", k > i ? ", " : "", j);
         bson_free (j);
      }
      bson_string_append (cmd, "]}");
      mongo_cmd (cmd->str);
      bson_string_free (cmd, true);
   }
   {
      char *cmd = bson_strdup_printf (
         "{\"createIndexes\": \"%s\", \"indexes\": [{\"key\": {\"bill_id\": 1}, \"name\": \"bill_id_1\"}, "
         "{\"key\": {\"bill_id\": 1, \"sub.x\": 1}, \"name\": \"bill_id_1_sub.x_1\"}, "
         "{\"key\": {\"amt\": -1}, \"name\": \"amt_-1\"}]}",
         coll);
      mongo_cmd (cmd);
      bson_free (cmd);
   }
}

/* natural_text -- every document of `coll` in natural order, canonical extended JSON, one a line (caller
 * bson_free()s): the content and the order, byte for byte. */
static char *
natural_text (const char *coll)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   lab_store_cursor_t *cur;
   bson_string_t *out = bson_string_new ("");
   const bson_t *doc;
   int rc;

   assert_non_null (sess);
   cur = lab_store_natural_open (sess, coll, NULL, &error);
   if (!cur) {
      fail_msg ("natural %s: %s", coll, error.message);
   }
   while ((rc = lab_store_cursor_next (cur, &doc, &error)) == 1) {
      char *j = bson_as_canonical_extended_json (doc, NULL);
      bson_string_append_printf (out, "%s\n", j);
      bson_free (j);
   }
   assert_int_equal (rc, 0);
   lab_store_cursor_close (cur);
   lab_store_session_close (sess);
   lab_store_close (s);
   return bson_string_free (out, false);
}

/* index_text -- what lab_store_list_indexes says of `coll`, the descriptions as given (caller
 * bson_free()s). */
static char *
index_text (const char *coll)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   bson_t list;
   bool clustered;
   char *j;

   assert_non_null (sess);
   LAB_TEST_CHECK (lab_store_list_indexes (sess, coll, &list, &clustered, &e_));
   j = bson_as_canonical_extended_json (&list, NULL);
   bson_destroy (&list);
   lab_store_session_close (sess);
   lab_store_close (s);
   return j;
}

/* patterns_text -- the key patterns of `coll`'s indexes the store can build, sorted by name, one a line
 * (caller bson_free()s): what a copy must have. */
static char *
patterns_text (const char *coll)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   bson_string_t *out = bson_string_new ("");
   bson_iter_t it, f;
   bson_t list;
   char *lines[16];
   size_t n = 0, i, k;
   bool clustered;

   assert_non_null (sess);
   LAB_TEST_CHECK (lab_store_list_indexes (sess, coll, &list, &clustered, &e_));
   assert_true (bson_iter_init (&it, &list));
   while (bson_iter_next (&it) && n < 16) {
      lab_store_index_spec_t spec;
      const uint8_t *data;
      uint32_t len;
      bson_t desc;
      char why[128];

      bson_iter_document (&it, &len, &data);
      assert_true (bson_init_static (&desc, data, len));
      if (lab_store_index_spec_from_desc (&desc, &spec, why, sizeof why)) {
         assert_true (bson_iter_init_find (&f, &desc, "key"));
         lines[n++] = lab_value_to_text (bson_iter_value (&f));
      }
   }
   for (i = 0; i < n; i++) { /* a few lines: insertion sort */
      for (k = i; k > 0 && strcmp (lines[k - 1], lines[k]) > 0; k--) {
         char *t = lines[k];
         lines[k] = lines[k - 1];
         lines[k - 1] = t;
      }
   }
   for (i = 0; i < n; i++) {
      bson_string_append_printf (out, "%s\n", lines[i]);
      bson_free (lines[i]);
   }
   bson_destroy (&list);
   lab_store_session_close (sess);
   lab_store_close (s);
   return bson_string_free (out, false);
}

/* mark_of -- the marker of `coll` (NULL: none; caller destroys). */
static bson_t *
mark_of (const char *coll)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   bson_t *mark = NULL;

   assert_non_null (sess);
   LAB_TEST_CHECK (lab_store_mark_get (sess, coll, &mark, NULL, &e_));
   lab_store_session_close (sess);
   lab_store_close (s);
   return mark;
}

/* exists -- `coll` exists. */
static bool
exists (const char *coll)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   bool there = false;

   assert_non_null (sess);
   LAB_TEST_CHECK (lab_store_exists (sess, coll, &there, &e_));
   lab_store_session_close (sess);
   lab_store_close (s);
   return there;
}

/* source_t -- the source as it was before a test: documents in natural order, index list, no marker. */
typedef struct {
   char *docs;
   char *indexes;
} source_t;

/* source_take -- the source now. */
static void
source_take (source_t *src)
{
   src->docs = natural_text ("user_src");
   src->indexes = index_text ("user_src");
   assert_null (mark_of ("user_src"));
}

/* source_unchanged -- the source is byte for byte as `was` (and still has no marker); frees `was`. */
static void
source_unchanged (source_t *was)
{
   source_t now;

   source_take (&now);
   assert_string_equal (now.docs, was->docs);
   assert_string_equal (now.indexes, was->indexes);
   bson_free (now.docs);
   bson_free (now.indexes);
   bson_free (was->docs);
   bson_free (was->indexes);
}

/* ---- tests --------------------------------------------------------------------------------------- */

/* test_copy -- the copy: same documents in the same natural order, the same buildable key patterns, the
 * marker, --verify equal; the unbuildable index named; the source unchanged. */
static void
test_copy (void **state)
{
   source_t was;
   bson_t *mark;
   char *err = NULL, *a, *b;
   bson_iter_t it;
   int rc;

   (void)state;
   source_take (&was);
   rc = fold (NULL, "--src user_src --dst user_copy --shape copy --batch-docs 64 --verify", &err);
   if (rc != 0) {
      fail_msg ("copy: exit %d: %s", rc, err);
   }
   if (!embedded ()) {
      /* the server's descending index: named in a warning, not built, not silently dropped */
      assert_non_null (strstr (err, "warning: --shape copy: the index"));
      assert_non_null (strstr (err, "amt_-1"));
      assert_non_null (strstr (err, "descending key 'amt: -1'"));
   }
   bson_free (err);
   a = natural_text ("user_src");
   b = natural_text ("user_copy");
   assert_int_equal (strlen (a), strlen (b));
   assert_string_equal (b, a); /* same documents, same natural order */
   bson_free (a);
   bson_free (b);
   a = patterns_text ("user_src");
   b = patterns_text ("user_copy");
   assert_string_equal (a, "{ \"bill_id\" : 1 }\n{ \"bill_id\" : 1, \"sub.x\" : 1 }\n");
   assert_string_equal (b, a);
   bson_free (a);
   bson_free (b);
   mark = mark_of ("user_copy");
   assert_non_null (mark);
   assert_true (bson_iter_init (&it, mark) && bson_iter_find_descendant (&it, "params.shape", &it));
   assert_string_equal (bson_iter_utf8 (&it, NULL), "copy");
   assert_true (bson_iter_init_find (&it, mark, "source"));
   assert_string_equal (bson_iter_utf8 (&it, NULL), "user_src");
   assert_true (bson_iter_init (&it, mark) && bson_iter_find_descendant (&it, "copy.indexes.1.name", &it));
   assert_true (bson_iter_init (&it, mark));
   if (!embedded ()) {
      assert_true (bson_iter_find_descendant (&it, "copy.indexes_not_built.0.name", &it));
      assert_string_equal (bson_iter_utf8 (&it, NULL), "amt_-1");
   } else {
      assert_false (bson_iter_find_descendant (&it, "copy.indexes_not_built.0", &it));
   }
   bson_destroy (mark);
   source_unchanged (&was);
}

/* test_copy_damaged -- a copy whose row was changed behind its back fails --verify (exit 3). */
static void
test_copy_damaged (void **state)
{
   lab_store_t *s;
   lab_store_session_t *sess;
   bson_error_t error;
   bson_t *row;
   char *err = NULL;
   int rc;

   (void)state;
   rc = fold (NULL, "--src user_src --dst user_dmg --shape copy --verify", &err);
   if (rc != 0) {
      fail_msg ("copy: exit %d: %s", rc, err);
   }
   bson_free (err);
   s = open_store ();
   sess = lab_store_session_open (s, &error);
   assert_non_null (sess);
   row = BCON_NEW ("_id", BCON_INT32 (389), "bill_id", BCON_INT32 (1), "amt", BCON_DOUBLE (1.5), "sub", "{",
                   "x", BCON_INT32 (1), "s", "r1", "}", "tags", "[", BCON_INT32 (1), "t", "]");
   LAB_TEST_CHECK (lab_store_upsert_by_id (sess, "user_dmg", row, &e_)); /* amt was 1.25 */
   bson_destroy (row);
   lab_store_session_close (sess);
   lab_store_close (s);
   rc = fold (NULL, "--src user_src --dst user_dmg --shape copy --verify", &err);
   if (rc != 3) {
      fail_msg ("--verify of a changed copy: exit %d, wanted 3: %s", rc, err);
   }
   bson_free (err);
}

/* test_copy_resume -- killed after two batches, then --resume --verify: the whole copy, nothing twice, in
 * the source's natural order; the indexes built. */
static void
test_copy_resume (void **state)
{
   source_t was;
   char *err = NULL, *a, *b;
   int rc;

   (void)state;
   source_take (&was);
   rc = fold ("LAYOUTLAB_FOLD_KILL_AFTER_BATCHES=2",
              "--src user_src --dst user_res --shape copy --batch-docs 50", NULL);
   assert_int_not_equal (rc, 0);
   rc = fold (NULL, "--src user_src --dst user_res --shape copy --batch-docs 50 --resume --verify", &err);
   if (rc != 0) {
      fail_msg ("--resume: exit %d: %s", rc, err);
   }
   bson_free (err);
   a = natural_text ("user_src");
   b = natural_text ("user_res");
   assert_string_equal (b, a);
   bson_free (a);
   bson_free (b);
   a = patterns_text ("user_src");
   b = patterns_text ("user_res");
   assert_string_equal (b, a);
   bson_free (a);
   bson_free (b);
   source_unchanged (&was);
}

/* test_copy_plan -- --plan: natural order, no index needed on the source, the indexes the copy would get;
 * nothing written. */
static void
test_copy_plan (void **state)
{
   source_t was;
   char *cmd, *out = NULL;

   (void)state;
   source_take (&was);
   cmd =
      bson_strdup_printf ("%s --uri '%s' %s%s%s --progress never --src user_src --dst user_plan --shape copy "
                          "--plan",
                          bin, uri, db ? "--db '" : "", db ? db : "", db ? "'" : "");
   assert_int_equal (lab_test_run (cmd, &out, NULL), 0);
   assert_non_null (strstr (out, "in the source's natural order: no index needed on the source"));
   assert_non_null (strstr (out, "built on the copy after the data: bill_id_1"));
   assert_non_null (strstr (out, "bill_id_1_sub.x_1"));
   if (!embedded ()) {
      assert_non_null (strstr (out, "not built (the store cannot build them): amt_-1 (descending key"));
   }
   assert_false (exists ("user_plan"));
   bson_free (out);
   bson_free (cmd);
   source_unchanged (&was);
}

/* test_copy_refusals -- what a copy does not take, refused (exit 2) before anything is written; a clustered
 * source (embedded) refused naming why. */
static void
test_copy_refusals (void **state)
{
   source_t was;
   char *err = NULL;

   (void)state;
   source_take (&was);
   assert_int_equal (fold (NULL, "--src user_src --dst user_ref --shape copy --parallel 2", &err), 2);
   assert_non_null (strstr (err, "--parallel 2 does not apply"));
   bson_free (err);
   assert_int_equal (fold (NULL, "--src user_src --dst user_ref --shape copy --key bill_id", &err), 2);
   assert_non_null (strstr (err, "--key bill_id does not apply"));
   bson_free (err);
   assert_int_equal (fold (NULL, "--src user_src --dst user_ref --shape copy --create-index", &err), 2);
   assert_non_null (strstr (err, "--create-index does not apply"));
   bson_free (err);
   assert_false (exists ("user_ref"));
   if (embedded ()) {
      lab_store_t *s = open_store ();
      bson_error_t error;
      lab_store_session_t *sess = lab_store_session_open (s, &error);
      bson_t *row = BCON_NEW ("_id", BCON_INT32 (1), "bill_id", BCON_INT32 (1));
      lab_store_insert_result_t res = { 0 };
      int rc;

      assert_non_null (sess);
      LAB_TEST_CHECK (lab_store_create_clustered (sess, "user_clu", &e_));
      LAB_TEST_CHECK (lab_store_insert_many (sess, "user_clu", (const bson_t *const *)&row, 1, &res, &e_));
      lab_store_insert_result_cleanup (&res);
      bson_destroy (row);
      lab_store_session_close (sess);
      lab_store_close (s);
      rc = fold (NULL, "--src user_clu --dst user_ref --shape copy", &err);
      assert_int_not_equal (rc, 0);
      assert_non_null (strstr (err, "'user_clu' is a clustered collection"));
      bson_free (err);
      assert_false (exists ("user_ref"));
   }
   source_unchanged (&was);
}

/* ---- setup --------------------------------------------------------------------------------------- */

static int
setup (void **state)
{
   (void)state;
   backend = getenv ("LAB_FOLD_BACKEND");
   if (!backend) {
      backend = "wiredtiger";
   }
   uri = lab_test_store_uri (backend, "fold-copy", &db);
   if (!uri) {
      return -1;
   }
   bin = lab_test_bin ("fold-details");
   make_source ("user_src");
   return 0;
}

static int
teardown (void **state)
{
   (void)state;
   if (embedded ()) {
      lab_test_rmtree (uri + strlen ("wiredtiger:"));
   } else {
      char *cmd = bson_strdup_printf ("{\"dropDatabase\": 1}");
      mongo_cmd (cmd);
      bson_free (cmd);
   }
   bson_free (uri);
   bson_free (db);
   bson_free (bin);
   return 0;
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_copy),          cmocka_unit_test (test_copy_damaged),
      cmocka_unit_test (test_copy_resume),   cmocka_unit_test (test_copy_plan),
      cmocka_unit_test (test_copy_refusals),
   };

   return lab_test_run_group ("fold_copy", tests, setup, teardown);
}
