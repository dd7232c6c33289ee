/*
 * test_wt_clustered.c -- clustered collections on the embedded store (docs/mongodb-compat.md
 * §23): the RecordId is the KeyString of _id (bytes of mongod's keyForElem for a document _id), the
 * record table has key_format=u and there is no _id index table (read from WiredTiger's own metadata);
 * documents written in arrival order come back in _id order, a range on an _id prefix ({bill_id: K} to
 * {bill_id: K, id: MaxKey}) returns one master's rows in order, a taken _id is E11000, a find on a field
 * without an index and RecordId ranges are refused, and the catalog keeps the kind across a reopen; drop
 * removes the table.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/keyenc.h"
#include "store/store.h"
#include "store/wt_private.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NBILLS 12
#define NROWS 600

typedef lab_test_store_fx_t fx_t;

/* setup -- a fresh store in a temporary directory. */
static int
setup (void **state)
{
   *state = lab_test_store_fx_new ("wt-clustered");
   return 0;
}

/* teardown -- close and remove the store. */
static int
teardown (void **state)
{
   lab_test_store_fx_free (*state);
   return 0;
}

#define CHECK(call) LAB_TEST_CHECK (call)

/* row -- the row of arrival i: bill (i * 7) % NBILLS (bills interleaved), _id {bill_id, id: i}. */
static bson_t *
row (int i)
{
   bson_t *d = bson_new (), id;
   int bill = (i * 7) % NBILLS;

   BSON_APPEND_DOCUMENT_BEGIN (d, "_id", &id);
   BSON_APPEND_INT32 (&id, "bill_id", bill);
   BSON_APPEND_INT64 (&id, "id", i);
   bson_append_document_end (d, &id);
   BSON_APPEND_INT32 (d, "bill_id", bill);
   BSON_APPEND_UTF8 (d, "item", "a line of the bill, some text to fill the record");
   return d;
}

/* fill -- NROWS rows in arrival order into the clustered collection `coll`. */
static void
fill (lab_store_session_t *s, const char *coll)
{
   bson_t *docs[NROWS];
   lab_store_insert_result_t r = { 0 };
   bson_error_t e;
   int i;

   for (i = 0; i < NROWS; i++) {
      docs[i] = row (i);
   }
   if (!lab_store_insert_many (s, coll, (const bson_t *const *)docs, NROWS, &r, &e)) {
      fail_msg ("insert: %s", e.message);
   }
   assert_int_equal (r.nerrors, 0);
   assert_int_equal (r.inserted, NROWS);
   lab_store_insert_result_cleanup (&r);
   for (i = 0; i < NROWS; i++) {
      bson_destroy (docs[i]);
   }
}

/* test_record_id_bytes -- keyForElem of {a: 1}: kObject 70, kNumeric 30, "a" NUL, 1 as KeyString (43 02),
 * the object's 0; and memcmp order of the encodings is MongoDB's order of the documents. */
static void
test_record_id_bytes (void **state)
{
   static const uint8_t want[] = { 70, 30, 'a', 0, 43, 0x02, 0 };
   bson_t *a = BCON_NEW ("a", BCON_INT32 (1));
   bson_t *docs[5];
   bson_value_t v;
   lab_buf_t b[5];
   bson_error_t e;
   int i;

   (void)state;
   v.value_type = BSON_TYPE_DOCUMENT;
   v.value.v_doc.data = (uint8_t *)bson_get_data (a);
   v.value.v_doc.data_len = a->len;
   lab_buf_init (&b[0]);
   CHECK (lab_store_key_encode_record_id (&v, &b[0], &e_));
   assert_int_equal (b[0].len, sizeof want);
   assert_memory_equal (b[0].data, want, sizeof want);
   lab_buf_destroy (&b[0]);
   bson_destroy (a);
   /* ascending in MongoDB's order: a prefix first, then by the id, then a later key, then MaxKey's id */
   docs[0] = BCON_NEW ("k", BCON_INT32 (5));
   docs[1] = BCON_NEW ("k", BCON_INT32 (5), "id", BCON_INT32 (-3));
   docs[2] = BCON_NEW ("k", BCON_INT32 (5), "id", BCON_UTF8 ("x"));
   docs[3] = BCON_NEW ("k", BCON_INT32 (5), "id", BCON_MAXKEY);
   docs[4] = BCON_NEW ("k", BCON_DOUBLE (5.5));
   for (i = 0; i < 5; i++) {
      v.value.v_doc.data = (uint8_t *)bson_get_data (docs[i]);
      v.value.v_doc.data_len = docs[i]->len;
      lab_buf_init (&b[i]);
      CHECK (lab_store_key_encode_record_id (&v, &b[i], &e_));
   }
   for (i = 1; i < 5; i++) {
      size_t n = b[i - 1].len < b[i].len ? b[i - 1].len : b[i].len;
      int c = memcmp (b[i - 1].data, b[i].data, n);
      assert_true (c < 0 || (c == 0 && b[i - 1].len < b[i].len));
   }
   for (i = 0; i < 5; i++) {
      lab_buf_destroy (&b[i]);
      bson_destroy (docs[i]);
   }
   /* an array in a cluster key is refused (mongod refuses an array _id) */
   a = BCON_NEW ("k", "[", BCON_INT32 (1), "]");
   v.value.v_doc.data = (uint8_t *)bson_get_data (a);
   v.value.v_doc.data_len = a->len;
   lab_buf_init (&b[0]);
   assert_false (lab_store_key_encode_record_id (&v, &b[0], &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE));
   lab_buf_destroy (&b[0]);
   bson_destroy (a);
}

/* table_config -- WiredTiger's own metadata entry of uri (caller frees), NULL when there is none. */
static char *
table_config (lab_store_t *store, const char *uri)
{
   wt_store_t *st = store->impl;
   WT_SESSION *s = NULL;
   WT_CURSOR *mc = NULL;
   const char *v;
   char *out = NULL;

   assert_int_equal (st->conn->open_session (st->conn, NULL, NULL, &s), 0);
   assert_int_equal (s->open_cursor (s, "metadata:", NULL, NULL, &mc), 0);
   mc->set_key (mc, uri);
   if (mc->search (mc) == 0 && mc->get_value (mc, &v) == 0) {
      out = bson_strdup (v);
   }
   s->close (s, NULL);
   return out;
}

/* count_tables -- entries of WiredTiger's metadata whose key starts with "table:" */
static int
count_tables (lab_store_t *store)
{
   wt_store_t *st = store->impl;
   WT_SESSION *s = NULL;
   WT_CURSOR *mc = NULL;
   const char *k;
   int n = 0;

   assert_int_equal (st->conn->open_session (st->conn, NULL, NULL, &s), 0);
   assert_int_equal (s->open_cursor (s, "metadata:", NULL, NULL, &mc), 0);
   while (mc->next (mc) == 0) {
      mc->get_key (mc, &k);
      n += strncmp (k, "table:", 6) == 0;
   }
   s->close (s, NULL);
   return n;
}

/* test_layout -- the record table is key_format=u and the only table of the collection (a plain one has
 * key_format=q and an _id index table); stats say clustered, one index (the table). */
static void
test_layout (void **state)
{
   fx_t *fx = *state;
   lab_store_session_t *s;
   lab_store_coll_stats_t st;
   char **files = NULL, *cfg, *table;
   int before, after_plain, after_clustered;

   CHECK (s = lab_store_session_open (fx->store, &e_));
   before = count_tables (fx->store);
   CHECK (lab_store_create (s, "plain", &e_));
   after_plain = count_tables (fx->store);
   CHECK (lab_store_create_clustered (s, "clus", &e_));
   CHECK (lab_store_create_clustered (s, "clus", &e_)); /* existing is fine */
   after_clustered = count_tables (fx->store);
   assert_int_equal (after_plain - before, 2);          /* records + _id index */
   assert_int_equal (after_clustered - after_plain, 1); /* records alone */
   CHECK (lab_store_data_files (fx->store, "clus", &files, &e_));
   assert_non_null (files[0]);
   assert_null (files[1]);
   table = bson_strdup_printf ("table:%s", strrchr (files[0], '/') + 1);
   table[strlen (table) - 3] = '\0'; /* without ".wt" */
   cfg = table_config (fx->store, table);
   assert_non_null (cfg);
   assert_non_null (strstr (cfg, "key_format=u"));
   assert_non_null (strstr (cfg, "value_format=u"));
   bson_free (cfg);
   bson_free (table);
   bson_strfreev (files);
   fill (s, "clus");
   CHECK (lab_store_stats (s, "clus", &st, &e_));
   assert_true (st.clustered);
   assert_int_equal (st.count, NROWS);
   assert_int_equal (st.nindexes, 1);
   assert_int_equal (st.index_size_bytes, 0);
   CHECK (lab_store_stats (s, "plain", &st, &e_));
   assert_false (st.clustered);
   lab_store_session_close (s);
}

typedef struct {
   int n;
   int32_t bill; /* -1: any */
   int64_t last_id;
   bson_t last; /* the previous _id, for the order check */
   bool have_last;
} seen_t;

/* seen_cb -- the rows come in _id order (MongoDB order of {bill_id, id}), of one bill when asked. */
static bool
seen_cb (const bson_t *doc, void *ctx)
{
   seen_t *sn = ctx;
   bson_iter_t it, id;
   int32_t bill;
   int64_t rid;

   assert_true (bson_iter_init_find (&it, doc, "_id") && bson_iter_recurse (&it, &id));
   assert_true (bson_iter_find (&id, "bill_id"));
   bill = bson_iter_int32 (&id);
   assert_true (bson_iter_find (&id, "id"));
   rid = bson_iter_int64 (&id);
   if (sn->bill >= 0) {
      assert_int_equal (bill, sn->bill);
   }
   if (sn->have_last) {
      bson_iter_t l;
      int32_t lb;
      assert_true (bson_iter_init_find (&l, &sn->last, "bill_id"));
      lb = bson_iter_int32 (&l);
      assert_true (lb < bill || (lb == bill && sn->last_id < rid));
      bson_destroy (&sn->last);
   }
   bson_init (&sn->last);
   BSON_APPEND_INT32 (&sn->last, "bill_id", bill);
   sn->last_id = rid;
   sn->have_last = true;
   sn->n++;
   return true;
}

/* seen_done -- free what seen_cb kept. */
static void
seen_done (seen_t *sn)
{
   if (sn->have_last) {
      bson_destroy (&sn->last);
   }
}

/* range_bill -- the rows of one bill through index_find on {_id: 1} from {bill_id: b} to
 * {bill_id: b, id: MaxKey}; *n the rows. */
static void
range_bill (lab_store_session_t *s, const char *coll, int32_t b, int *n)
{
   lab_store_index_spec_t spec = { { "_id" }, 1 };
   bson_t *lo = BCON_NEW ("bill_id", BCON_INT32 (b));
   bson_t *hi = BCON_NEW ("bill_id", BCON_INT32 (b), "id", BCON_MAXKEY);
   bson_value_t lv = { .value_type = BSON_TYPE_DOCUMENT }, hv = { .value_type = BSON_TYPE_DOCUMENT };
   seen_t sn = { .bill = b };
   int64_t keys = 0, docs = 0;

   lv.value.v_doc.data = (uint8_t *)bson_get_data (lo);
   lv.value.v_doc.data_len = lo->len;
   hv.value.v_doc.data = (uint8_t *)bson_get_data (hi);
   hv.value.v_doc.data_len = hi->len;
   CHECK (lab_store_index_find (s, coll, &spec, NULL, 0, &lv, &hv, seen_cb, &sn, &keys, &docs, &e_));
   assert_int_equal (docs, sn.n);
   *n = sn.n;
   seen_done (&sn);
   bson_destroy (lo);
   bson_destroy (hi);
}

/* count_cb -- count a document. */
static bool
count_cb (const bson_t *doc, void *ctx)
{
   (void)doc;
   (*(int64_t *)ctx)++;
   return true;
}

/* range_count -- the documents index_find on {_id: 1} gives for bounds lo, hi (NULL: one-sided). */
static int64_t
range_count (lab_store_session_t *s, const char *coll, const bson_t *lo, const bson_t *hi)
{
   lab_store_index_spec_t spec = { { "_id" }, 1 };
   bson_value_t lv = { .value_type = BSON_TYPE_DOCUMENT }, hv = { .value_type = BSON_TYPE_DOCUMENT };
   int64_t keys = 0, docs = 0, n = 0;

   if (lo) {
      lv.value.v_doc.data = (uint8_t *)bson_get_data (lo);
      lv.value.v_doc.data_len = lo->len;
   }
   if (hi) {
      hv.value.v_doc.data = (uint8_t *)bson_get_data (hi);
      hv.value.v_doc.data_len = hi->len;
   }
   CHECK (lab_store_index_find (s, coll, &spec, NULL, 0, lo ? &lv : NULL, hi ? &hv : NULL, count_cb, &n,
                                &keys, &docs, &e_));
   assert_int_equal (n, docs);
   return docs;
}

/* test_reads -- _id order in a natural scan, one bill by an _id prefix range (each bill's NROWS/NBILLS
 * rows in order), find_eq by _id, E11000, refusals, the kind kept across a reopen, drop. */
static void
test_reads (void **state)
{
   fx_t *fx = *state;
   lab_store_session_t *s;
   lab_store_cursor_t *cur;
   lab_store_insert_result_t r = { 0 };
   lab_store_natural_opts_t no = { { 5, 0 }, 0 };
   const bson_t *doc;
   seen_t sn = { .bill = -1 };
   bson_t *dup = row (3), *id = BCON_NEW ("bill_id", BCON_INT32 ((3 * 7) % NBILLS), "id", BCON_INT64 (3));
   bson_value_t idv = { .value_type = BSON_TYPE_DOCUMENT };
   bson_error_t e;
   int64_t nd = 0, cnt = 0;
   int n, b, total = 0, rc;
   bool exists;

   CHECK (s = lab_store_session_open (fx->store, &e_));
   CHECK (lab_store_create_clustered (s, "clus", &e_));
   fill (s, "clus");
   CHECK (cur = lab_store_natural_open (s, "clus", NULL, &e_));
   while ((rc = lab_store_cursor_next (cur, &doc, &e)) == 1) {
      seen_cb (doc, &sn);
   }
   assert_int_equal (rc, 0);
   lab_store_cursor_close (cur);
   assert_int_equal (sn.n, NROWS);
   seen_done (&sn);
   for (b = 0; b < NBILLS; b++) {
      range_bill (s, "clus", b, &n);
      assert_int_equal (n, NROWS / NBILLS);
      total += n;
   }
   assert_int_equal (total, NROWS);
   {
      /* one-sided bounds stop at the objects' type bracket, as a query's: a string _id sorts before every
       * object, an ObjectId after */
      bson_t *lo = BCON_NEW ("bill_id", BCON_INT32 (0)), *hi = BCON_NEW ("bill_id", BCON_INT32 (2));
      bson_oid_t oid;
      bson_t *mixed[3];
      lab_store_insert_result_t mr = { 0 };
      bson_oid_init (&oid, NULL);
      mixed[0] = BCON_NEW ("_id", "{", "bill_id", BCON_INT32 (1), "id", BCON_INT32 (1), "}");
      mixed[1] = BCON_NEW ("_id", BCON_UTF8 ("s"));
      mixed[2] = BCON_NEW ("_id", BCON_OID (&oid));
      CHECK (lab_store_create_clustered (s, "mixed", &e_));
      CHECK (lab_store_insert_many (s, "mixed", (const bson_t *const *)mixed, 3, &mr, &e_));
      assert_int_equal (mr.inserted, 3);
      lab_store_insert_result_cleanup (&mr);
      assert_int_equal (range_count (s, "mixed", NULL, NULL), 3);
      assert_int_equal (range_count (s, "mixed", lo, NULL), 1);
      assert_int_equal (range_count (s, "mixed", NULL, hi), 1);
      bson_destroy (lo);
      bson_destroy (hi);
      bson_destroy (mixed[0]);
      bson_destroy (mixed[1]);
      bson_destroy (mixed[2]);
   }
   idv.value.v_doc.data = (uint8_t *)bson_get_data (id);
   idv.value.v_doc.data_len = id->len;
   CHECK (lab_store_find_eq (s, "clus", "_id", &idv, seen_cb, &(seen_t){ .bill = -1 }, &nd, &e_));
   assert_int_equal (nd, 1);
   /* a taken _id: E11000 on the clustered index, nothing written */
   CHECK (lab_store_insert_many (s, "clus", (const bson_t *const *)&dup, 1, &r, &e_));
   assert_int_equal (r.inserted, 0);
   assert_int_equal (r.nerrors, 1);
   assert_non_null (strstr (r.errors[0].message, "E11000"));
   lab_store_insert_result_cleanup (&r);
   /* refusals: a find on a field without an index, a RecordId range, a plain collection asked to be
    * clustered (secondary indexes: test_wt_clustered_index.c) */
   assert_false (lab_store_find_eq (s, "clus", "bill_id", &idv, seen_cb, &sn, &nd, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX));
   assert_null (lab_store_natural_open (s, "clus", &no, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED));
   CHECK (lab_store_create (s, "plain", &e_));
   assert_false (lab_store_create_clustered (s, "plain", &e));
   assert_non_null (strstr (e.message, "not clustered"));
   lab_store_session_close (s);
   /* the kind survives a reopen (the catalog's clusteredIndex) */
   lab_store_close (fx->store);
   fx->store = lab_test_store_open (fx->uri);
   CHECK (s = lab_store_session_open (fx->store, &e_));
   range_bill (s, "clus", 5, &n);
   assert_int_equal (n, NROWS / NBILLS);
   CHECK (lab_store_count (s, "clus", &cnt, &e_));
   assert_int_equal (cnt, NROWS);
   CHECK (lab_store_delete_eq (s, "clus", "_id", &idv, &nd, &e_));
   assert_int_equal (nd, 1);
   CHECK (lab_store_count (s, "clus", &cnt, &e_));
   assert_int_equal (cnt, NROWS - 1);
   CHECK (lab_store_drop (s, "clus", &e_));
   CHECK (lab_store_exists (s, "clus", &exists, &e_));
   assert_false (exists);
   lab_store_session_close (s);
   bson_destroy (dup);
   bson_destroy (id);
}

/* test_crash_recount -- a process that dies without closing the store: the next open recounts the
 * clustered table (its keys are KeyStrings, not RecordIds) and the count is what the records say. */
static void
test_crash_recount (void **state)
{
   fx_t *fx = *state;
   lab_store_session_t *s;
   lab_store_coll_stats_t st;
   lab_store_cursor_t *cur;
   const bson_t *doc;
   int64_t streamed = 0;
   int status, rc;
   pid_t pid;

   lab_store_close (fx->store);
   fx->store = NULL;
   pid = fork ();
   assert_true (pid >= 0);
   if (pid == 0) {
      lab_store_t *cs = lab_test_store_open (fx->uri);
      lab_store_session_t *x = lab_store_session_open (cs, NULL);
      bson_error_t e;
      if (!x || !lab_store_create_clustered (x, "clus", &e)) {
         _exit (1);
      }
      fill (x, "clus");
      lab_store_flush (cs, NULL);
      _exit (0); /* no close: counts in the catalog are stale */
   }
   assert_int_equal (waitpid (pid, &status, 0), pid);
   assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
   fx->store = lab_test_store_open (fx->uri);
   CHECK (s = lab_store_session_open (fx->store, &e_));
   CHECK (lab_store_stats (s, "clus", &st, &e_));
   assert_true (st.clustered);
   CHECK (cur = lab_store_natural_open (s, "clus", NULL, &e_));
   while ((rc = lab_store_cursor_next (cur, &doc, NULL)) == 1) {
      streamed++;
   }
   assert_int_equal (rc, 0);
   lab_store_cursor_close (cur);
   assert_int_equal (streamed, NROWS);
   assert_int_equal (st.count, streamed);
   lab_store_session_close (s);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_record_id_bytes),
      cmocka_unit_test_setup_teardown (test_layout, setup, teardown),
      cmocka_unit_test_setup_teardown (test_reads, setup, teardown),
      cmocka_unit_test_setup_teardown (test_crash_recount, setup, teardown),
   };
   return lab_test_run_group ("wt_clustered", tests, NULL, NULL);
}
