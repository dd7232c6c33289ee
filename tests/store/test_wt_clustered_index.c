/*
 * test_wt_clustered_index.c -- secondary indexes of a clustered collection on the embedded store
 * (docs/mongodb-compat.md §23): the string-RecordId bytes (mongod's _appendRecordIdStr: the bytes, then
 * their size in 7-bit groups, continuation bits on all but the first, read back from the end); an index
 * entry of one document is its key fields' KeyString then the KeyString of its _id in that form (read from
 * the index table itself); an index built over existing rows (bulk) and one kept by later inserts give the
 * right documents through lab_store_index_find and lab_store_find_eq; deletes and upserts keep them
 * (an upsert that changes the key moves the entry); a multikey index fetches each document once; the
 * indexes and their entries survive a reopen; lab_store_index_info gives a size.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/keyenc.h"
#include "store/store.h"
#include "store/wt_private.h"

#include <stdio.h>
#include <string.h>

#define NBILLS 10
#define NROWS 500

typedef lab_test_store_fx_t fx_t;

#define CHECK(call) LAB_TEST_CHECK (call)

/* setup -- a fresh store in a temporary directory. */
static int
setup (void **state)
{
   *state = lab_test_store_fx_new ("wt-clustered-index");
   return 0;
}

/* teardown -- close and remove the store. */
static int
teardown (void **state)
{
   lab_test_store_fx_free (*state);
   return 0;
}

/* row -- row i: bill (i * 7) % NBILLS (interleaved), line i, _id {bill_id, id: i}, tags [i % 3, 9]. */
static bson_t *
row (int i)
{
   bson_t *d = bson_new (), id, tags;
   int bill = (i * 7) % NBILLS;

   BSON_APPEND_DOCUMENT_BEGIN (d, "_id", &id);
   BSON_APPEND_INT32 (&id, "bill_id", bill);
   BSON_APPEND_INT64 (&id, "id", i);
   bson_append_document_end (d, &id);
   BSON_APPEND_INT32 (d, "bill_id", bill);
   BSON_APPEND_INT32 (d, "line_no", i);
   BSON_APPEND_ARRAY_BEGIN (d, "tags", &tags);
   BSON_APPEND_INT32 (&tags, "0", i % 3);
   BSON_APPEND_INT32 (&tags, "1", 9);
   bson_append_array_end (d, &tags);
   return d;
}

/* insert -- rows [a, b) into the clustered "clus". */
static void
insert (lab_store_session_t *s, int a, int b)
{
   bson_t *docs[NROWS] = { 0 };
   lab_store_insert_result_t r = { 0 };
   bson_error_t e;
   int i;

   for (i = a; i < b; i++) {
      docs[i - a] = row (i);
   }
   if (!lab_store_insert_many (s, "clus", (const bson_t *const *)docs, (size_t)(b - a), &r, &e)) {
      fail_msg ("insert: %s", e.message);
   }
   assert_int_equal (r.nerrors, 0);
   assert_int_equal (r.inserted, b - a);
   lab_store_insert_result_cleanup (&r);
   for (i = a; i < b; i++) {
      bson_destroy (docs[i - a]);
   }
}

/* A find's results: how many, and whether each matched. */
typedef struct {
   const char *field;
   int32_t want;
   int64_t n, wrong;
   int64_t seen_line[NROWS + 10];
} found_t;

/* found_cb -- count the document; wrong when its field is not `want` (tags: not among them). */
static bool
found_cb (const bson_t *doc, void *ctx)
{
   found_t *f = ctx;
   bson_iter_t it, a;
   bool ok = false;

   if (bson_iter_init_find (&it, doc, f->field)) {
      if (BSON_ITER_HOLDS_ARRAY (&it) && bson_iter_recurse (&it, &a)) {
         while (bson_iter_next (&a)) {
            ok = ok || bson_iter_int32 (&a) == f->want;
         }
      } else {
         ok = bson_iter_int32 (&it) == f->want;
      }
   }
   f->wrong += !ok;
   if (bson_iter_init_find (&it, doc, "line_no") && bson_iter_int32 (&it) >= 0 &&
       bson_iter_int32 (&it) < NROWS + 10) {
      f->seen_line[bson_iter_int32 (&it)]++;
   }
   f->n++;
   return true;
}

/* find -- lab_store_index_find on {field: 1} equal to v; the count (every document checked). */
static int64_t
find (lab_store_session_t *s, const char *field, int32_t v)
{
   lab_store_index_spec_t spec = { { field }, 1 };
   bson_value_t val = { .value_type = BSON_TYPE_INT32, .value.v_int32 = v };
   found_t *f = bson_malloc0 (sizeof *f);
   int64_t keys, docs, n, eqn = 0, i;

   f->field = field;
   f->want = v;
   CHECK (lab_store_index_find (s, "clus", &spec, &val, 1, NULL, NULL, found_cb, f, &keys, &docs, &e_));
   assert_int_equal (f->wrong, 0);
   assert_int_equal (docs, f->n);
   if (strcmp (field, "bill_id") == 0) {
      assert_int_equal (keys, f->n); /* one entry per document: none left behind by a delete or a move */
   }
   for (i = 0; i < NROWS + 10; i++) {
      assert_true (f->seen_line[i] <= 1); /* a multikey index fetches a document once */
   }
   n = f->n;
   memset (f, 0, sizeof *f);
   f->field = field;
   f->want = v;
   CHECK (lab_store_find_eq (s, "clus", field, &val, found_cb, f, &eqn, &e_));
   assert_int_equal (eqn, n);
   assert_int_equal (f->wrong, 0);
   bson_free (f);
   return n;
}

/* want_bill -- rows of [0, n) with bill b. */
static int64_t
want_bill (int n, int b)
{
   int64_t c = 0;
   int i;

   for (i = 0; i < n; i++) {
      c += (i * 7) % NBILLS == b;
   }
   return c;
}

/* test_rid_str_bytes -- the string RecordId's size bytes: 3 bytes -> 03; 200 -> C8 81 (200 = 0x48 + 1*128:
 * 0x48 first, then 0x01|0x80), read back from the end. */
static void
test_rid_str_bytes (void **state)
{
   uint8_t rid[200];
   lab_buf_t b;
   const uint8_t *p;
   size_t vlen, rlen;

   (void)state;
   memset (rid, 0xAB, sizeof rid);
   lab_buf_init (&b);
   lab_buf_append (&b, "K", 1);
   lab_store_key_append_recordid_str (&b, rid, 3);
   assert_int_equal (b.len, 1 + 3 + 1);
   assert_int_equal (b.data[4], 3);
   assert_true (lab_store_key_split_recordid_str (b.data, b.len, &vlen, &p, &rlen));
   assert_int_equal (vlen, 1);
   assert_int_equal (rlen, 3);
   lab_buf_reset (&b);
   lab_buf_append (&b, "KK", 2);
   lab_store_key_append_recordid_str (&b, rid, 200);
   assert_int_equal (b.len, 2 + 200 + 2);
   assert_int_equal (b.data[202], 0x48);
   assert_int_equal (b.data[203], 0x81);
   assert_true (lab_store_key_split_recordid_str (b.data, b.len, &vlen, &p, &rlen));
   assert_int_equal (vlen, 2);
   assert_int_equal (rlen, 200);
   assert_true (p == b.data + 2);
   lab_buf_destroy (&b);
}

/* index_uri -- the table of c's index whose first field is `field`. */
static const char *
index_uri (lab_store_t *st, const char *coll, const char *field)
{
   wt_store_t *w = st->impl;
   wt_coll_t *c = lab_wt_coll_find (w, coll);
   int i;

   assert_non_null (c);
   for (i = 0; i < c->nindexes; i++) {
      if (strcmp (c->indexes[i].fields[0], field) == 0) {
         return c->indexes[i].uri;
      }
   }
   fail_msg ("no index on %s", field);
   return NULL;
}

/* test_entry_bytes -- the one entry of the document with line_no 0 in {bill_id: 1, line_no: 1}: the
 * compound KeyString of (0, 0), then the KeyString of its _id {bill_id: 0, id: 0} and that length, value
 * empty; read straight from the index table. */
static void
test_entry_bytes (void **state)
{
   fx_t *fx = *state;
   lab_store_session_t *s;
   lab_store_index_spec_t spec = { { "bill_id", "line_no" }, 2 };
   bson_error_t e;
   bson_t *r0 = row (0);
   bson_iter_t it;
   bson_value_t zero = { .value_type = BSON_TYPE_INT32 };
   const bson_value_t *kv[2] = { &zero, &zero };
   lab_buf_t want, rid;
   WT_SESSION *ws;
   WT_CURSOR *ic;
   WT_ITEM k, v;
   wt_store_t *w = fx->store->impl;

   s = lab_store_session_open (fx->store, &e);
   CHECK (lab_store_create_clustered (s, "clus", &e_));
   insert (s, 0, 1);
   CHECK (lab_store_create_index_spec (s, "clus", &spec, &e_));
   lab_store_session_close (s);
   lab_buf_init (&want);
   lab_buf_init (&rid);
   CHECK (lab_store_key_encode_compound (kv, 2, &want, &e_));
   assert_true (bson_iter_init_find (&it, r0, "_id"));
   CHECK (lab_store_key_encode_record_id (bson_iter_value (&it), &rid, &e_));
   lab_buf_append (&want, rid.data, rid.len);
   {
      uint8_t n = (uint8_t)rid.len;
      assert_true (rid.len < 128);
      lab_buf_append (&want, &n, 1);
   }
   assert_int_equal (w->conn->open_session (w->conn, NULL, NULL, &ws), 0);
   assert_int_equal (ws->open_cursor (ws, index_uri (fx->store, "clus", "bill_id"), NULL, NULL, &ic), 0);
   assert_int_equal (ic->next (ic), 0);
   assert_int_equal (ic->get_key (ic, &k), 0);
   assert_int_equal (ic->get_value (ic, &v), 0);
   assert_int_equal (k.size, want.len);
   assert_memory_equal (k.data, want.data, want.len);
   assert_int_equal (v.size, 0);
   assert_int_equal (ic->next (ic), WT_NOTFOUND);
   ws->close (ws, NULL);
   lab_buf_destroy (&want);
   lab_buf_destroy (&rid);
   bson_destroy (r0);
}

/* test_maintained -- an index built over 300 existing rows (bulk) and a multikey one, then 200 rows
 * inserted: finds return every row of a bill, each once; a delete and an upsert that moves a row to
 * another bill keep them; after a reopen the same; index_info gives a size. */
static void
test_maintained (void **state)
{
   fx_t *fx = *state;
   lab_store_session_t *s;
   lab_store_index_spec_t bl = { { "bill_id", "line_no" }, 2 }, tags = { { "tags" }, 1 },
                          bill = { { "bill_id" }, 1 };
   bson_error_t e;
   bson_value_t idv;
   bson_iter_t it;
   bson_t *d;
   int64_t nd, size = 0;
   bool exists = false, mk = false;
   int b;

   s = lab_store_session_open (fx->store, &e);
   CHECK (lab_store_create_clustered (s, "clus", &e_));
   insert (s, 0, 300);
   CHECK (lab_store_create_index_spec (s, "clus", &bl, &e_));
   CHECK (lab_store_create_index_spec (s, "clus", &bill, &e_));
   CHECK (lab_store_create_index_spec (s, "clus", &tags, &e_));
   insert (s, 300, NROWS);
   for (b = 0; b < NBILLS; b++) {
      assert_int_equal (find (s, "bill_id", b), want_bill (NROWS, b));
   }
   assert_int_equal (find (s, "tags", 9), NROWS);
   assert_int_equal (find (s, "tags", 1), (NROWS + 1) / 3);
   {
      /* a range over both of every document's tags: each document once (the multikey dedup) */
      lab_store_index_spec_t t = { { "tags" }, 1 };
      bson_value_t lo = { .value_type = BSON_TYPE_INT32, .value.v_int32 = 0 };
      bson_value_t hi = { .value_type = BSON_TYPE_INT32, .value.v_int32 = 10 };
      found_t *f = bson_malloc0 (sizeof *f);
      int64_t keys, docs;
      f->field = "line_no";
      CHECK (lab_store_index_find (s, "clus", &t, NULL, 0, &lo, &hi, found_cb, f, &keys, &docs, &e_));
      assert_int_equal (keys, 2 * NROWS);
      assert_int_equal (docs, NROWS);
      bson_free (f);
   }
   CHECK (lab_store_index_info (s, "clus", &tags, &exists, &mk, &size, &e_));
   assert_true (exists && mk);
   CHECK (lab_store_index_info (s, "clus", &bl, &exists, &mk, &size, &e_));
   assert_true (exists && !mk);
   /* delete row 7 (bill 9): bill 9 has one row fewer */
   d = row (7);
   assert_true (bson_iter_init_find (&it, d, "_id"));
   bson_value_copy (bson_iter_value (&it), &idv);
   CHECK (lab_store_delete_eq (s, "clus", "_id", &idv, &nd, &e_));
   assert_int_equal (nd, 1);
   assert_int_equal (find (s, "bill_id", 9), want_bill (NROWS, 9) - 1);
   bson_value_destroy (&idv);
   bson_destroy (d);
   /* upsert row 1 (bill 7) with bill_id 0: it moves from bill 7 to bill 0 */
   d = row (1);
   {
      bson_t *u = bson_new ();
      bson_iter_t x;
      assert_true (bson_iter_init (&x, d));
      while (bson_iter_next (&x)) {
         if (strcmp (bson_iter_key (&x), "bill_id") == 0) {
            BSON_APPEND_INT32 (u, "bill_id", 0);
         } else {
            bson_append_iter (u, NULL, 0, &x);
         }
      }
      CHECK (lab_store_upsert_by_id (s, "clus", u, &e_));
      bson_destroy (u);
   }
   bson_destroy (d);
   assert_int_equal (find (s, "bill_id", 7), want_bill (NROWS, 7) - 1);
   assert_int_equal (find (s, "bill_id", 0), want_bill (NROWS, 0) + 1);
   /* an upsert of a new row inserts its entries */
   d = row (NROWS + 3);
   CHECK (lab_store_upsert_by_id (s, "clus", d, &e_));
   bson_destroy (d);
   assert_int_equal (find (s, "bill_id", (NROWS + 3) * 7 % NBILLS),
                     want_bill (NROWS, (NROWS + 3) * 7 % NBILLS) + 1);
   lab_store_session_close (s);
   /* a reopen: the catalog keeps the indexes, the tables their entries */
   lab_store_close (fx->store);
   fx->store = lab_test_store_open (fx->uri);
   s = lab_store_session_open (fx->store, &e);
   assert_int_equal (find (s, "bill_id", 7), want_bill (NROWS, 7) - 1);
   assert_int_equal (find (s, "bill_id", 9), want_bill (NROWS, 9) - 1);
   assert_int_equal (find (s, "tags", 9), NROWS - 1 + 1);
   CHECK (lab_store_index_info (s, "clus", &bl, &exists, &mk, &size, &e_));
   assert_true (exists && size > 0);
   lab_store_session_close (s);
}

/* main -- the group. */
int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_rid_str_bytes),
      cmocka_unit_test_setup_teardown (test_entry_bytes, setup, teardown),
      cmocka_unit_test_setup_teardown (test_maintained, setup, teardown),
   };

   return lab_test_run_group ("wt_clustered_index", tests, NULL, NULL);
}
