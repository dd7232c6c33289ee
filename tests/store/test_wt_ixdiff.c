/*
 * test_wt_ixdiff.c -- the embedded store writes an update's index entries as mongod's
 * SortedDataIndexAccessMethod::update (index_access_method.cpp prepareUpdate: the set difference of the
 * old and new keys), for plain and clustered collections alike: counted by WiredTiger's per-table
 * statistics (cursor insert and remove calls of each index table), an update of an unindexed field
 * writes no index entry, one that moves a key writes one remove and one insert, a multikey array that
 * trades one element writes one of each. Index values are mongod's TypeBits (key_string.h: int64 0x02,
 * double 0x01, -0.0 0x03, none for int32 and strings), read back from the index table. Each collection's
 * own logging setting picks the record update (WiredTigerRecordStore::updateRecord's _isLogged): a
 * store opened unlogged writes a modify, a logged one the whole record, for both kinds of collection.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/keyenc.h"
#include "store/store.h"
#include "store/wt_private.h"

#include <stdio.h>
#include <string.h>

#define NDOCS 40

typedef lab_test_store_fx_t fx_t;

/* setup -- a fresh (logged) store in a temporary directory. */
static int
setup (void **state)
{
   *state = lab_test_store_fx_new ("wt-ixdiff");
   return 0;
}

/* teardown -- close and remove the store. */
static int
teardown (void **state)
{
   lab_test_store_fx_free (*state);
   return 0;
}

/* tb -- the TypeBits value of the single-field key of v. */
static size_t
tb (const bson_value_t *v, uint8_t *byte)
{
   lab_buf_t k, out;
   bson_error_t e;
   size_t n;

   lab_buf_init (&k);
   lab_buf_init (&out);
   assert_true (lab_store_key_encode (v, &k, &e));
   lab_store_key_typebits (k.data, k.len, &out);
   n = out.len;
   *byte = n ? out.data[0] : 0;
   lab_buf_destroy (&k);
   lab_buf_destroy (&out);
   return n;
}

/* test_typebits -- mongod's bytes: appendNumberLong (kLong 0x1: bits 0,1 -> 0x02), appendNumberDouble
 * (kDouble 0x2: bits 1,0 -> 0x01), appendZero(kNegativeDoubleZero) in V1 (0b11000 -> 0x03); int32
 * (kInt 0x0), strings (kString 0), dates and ObjectIds all zero: no value. */
static void
test_typebits (void **state)
{
   bson_value_t v = { 0 };
   uint8_t b;

   (void)state;
   v.value_type = BSON_TYPE_INT64;
   v.value.v_int64 = 123456789;
   assert_int_equal (tb (&v, &b), 1);
   assert_int_equal (b, 0x02);
   v.value.v_int64 = 0;
   assert_int_equal (tb (&v, &b), 1);
   assert_int_equal (b, 0x02);
   v.value_type = BSON_TYPE_DOUBLE;
   v.value.v_double = 2.5;
   assert_int_equal (tb (&v, &b), 1);
   assert_int_equal (b, 0x01);
   v.value.v_double = 7.0;
   assert_int_equal (tb (&v, &b), 1);
   assert_int_equal (b, 0x01);
   v.value.v_double = -0.0;
   assert_int_equal (tb (&v, &b), 1);
   assert_int_equal (b, 0x03);
   v.value_type = BSON_TYPE_INT32;
   v.value.v_int32 = 7;
   assert_int_equal (tb (&v, &b), 0);
   v.value_type = BSON_TYPE_UTF8;
   v.value.v_utf8.str = "abc";
   v.value.v_utf8.len = 3;
   assert_int_equal (tb (&v, &b), 0);
   v.value_type = BSON_TYPE_DATE_TIME;
   v.value.v_datetime = 1700000000000;
   assert_int_equal (tb (&v, &b), 0);
}

/* coll_of -- the store's collection `name`. */
static wt_coll_t *
coll_of (lab_store_t *st, const char *name)
{
   wt_coll_t *c = lab_wt_coll_find (st->impl, name);

   assert_non_null (c);
   return c;
}

/* ix_uri -- the table of c's index on `field`. */
static const char *
ix_uri (wt_coll_t *c, const char *field)
{
   int i;

   for (i = 0; i < c->nindexes; i++) {
      if (strcmp (c->indexes[i].fields[0], field) == 0) {
         return c->indexes[i].uri;
      }
   }
   fail_msg ("no index on %s", field);
   return NULL;
}

/* tstat -- one data-source statistic of the table uri. */
static int64_t
tstat (lab_store_t *st, const char *uri, int key)
{
   wt_store_t *w = st->impl;
   WT_SESSION *s;
   WT_CURSOR *sc;
   const char *desc, *pv;
   int64_t v = -1;
   char su[256];

   snprintf (su, sizeof su, "statistics:%s", uri);
   assert_int_equal (w->conn->open_session (w->conn, NULL, NULL, &s), 0);
   assert_int_equal (s->open_cursor (s, su, NULL, NULL, &sc), 0);
   sc->set_key (sc, key);
   assert_int_equal (sc->search (sc), 0);
   assert_int_equal (sc->get_value (sc, &desc, &pv, &v), 0);
   s->close (s, NULL);
   return v;
}

/* writes -- index entry inserts + removes of the table uri so far. */
static int64_t
writes (lab_store_t *st, const char *uri)
{
   return tstat (st, uri, WT_STAT_DSRC_CURSOR_INSERT) + tstat (st, uri, WT_STAT_DSRC_CURSOR_REMOVE);
}

/* doc -- document i: _id i (int64), k (int64), tags [t, t + 1], amount, a pad of padlen bytes. */
static bson_t *
doc (int i, int64_t k, int t, double amount, size_t padlen)
{
   bson_t *d = bson_new (), tags;
   char pad[4096];

   memset (pad, 'x', padlen);
   pad[padlen] = '\0';
   BSON_APPEND_INT64 (d, "_id", i);
   BSON_APPEND_INT64 (d, "k", k);
   BSON_APPEND_ARRAY_BEGIN (d, "tags", &tags);
   BSON_APPEND_INT32 (&tags, "0", t);
   BSON_APPEND_INT32 (&tags, "1", t + 1);
   bson_append_array_end (d, &tags);
   BSON_APPEND_DOUBLE (d, "amount", amount);
   BSON_APPEND_UTF8 (d, "pad", pad);
   return d;
}

/* upsert -- lab_store_upsert_by_id of doc(...), which must succeed. */
static void
upsert (lab_store_session_t *s, const char *coll, int i, int64_t k, int t, double amount, size_t padlen)
{
   bson_t *d = doc (i, k, t, amount, padlen);
   bson_error_t e;

   if (!lab_store_upsert_by_id (s, coll, d, &e)) {
      fail_msg ("upsert into %s: %s", coll, e.message);
   }
   bson_destroy (d);
}

/* fill -- coll (clustered or not) with NDOCS documents and indexes on k and tags. */
static void
fill (lab_store_session_t *s, const char *coll, bool clustered, size_t padlen)
{
   lab_store_index_spec_t k = { .fields = { "k" }, .n = 1 }, t = { .fields = { "tags" }, .n = 1 };
   int i;

   if (clustered) {
      LAB_TEST_CHECK (lab_store_create_clustered (s, coll, &e_));
   }
   LAB_TEST_CHECK (lab_store_create_index_spec (s, coll, &k, &e_));
   LAB_TEST_CHECK (lab_store_create_index_spec (s, coll, &t, &e_));
   for (i = 0; i < NDOCS; i++) {
      upsert (s, coll, i, 1000 + i, i, 1.5, padlen);
   }
}

/* check_diff -- on coll: amount corrections write no index entry; moving k writes one remove and one
 * insert in k's index and none in tags'; trading one array element writes one of each in tags'. */
static void
check_diff (fx_t *fx, lab_store_session_t *s, const char *coll)
{
   wt_coll_t *c = coll_of (fx->store, coll);
   const char *ku = ix_uri (c, "k"), *tu = ix_uri (c, "tags");
   int64_t k0 = writes (fx->store, ku), t0 = writes (fx->store, tu);
   int i;

   for (i = 0; i < NDOCS; i++) {
      upsert (s, coll, i, 1000 + i, i, 2.5, 10);
   }
   assert_int_equal (writes (fx->store, ku) - k0, 0);
   assert_int_equal (writes (fx->store, tu) - t0, 0);
   for (i = 0; i < 10; i++) {
      upsert (s, coll, i, 5000 + i, i, 2.5, 10);
   }
   assert_int_equal (writes (fx->store, ku) - k0, 20);
   assert_int_equal (writes (fx->store, tu) - t0, 0);
   upsert (s, coll, 20, 1020, 21, 2.5, 10); /* tags [20, 21] -> [21, 22] */
   assert_int_equal (writes (fx->store, ku) - k0, 20);
   assert_int_equal (writes (fx->store, tu) - t0, 2);
}

/* check_values -- every entry of coll's k index (int64 keys) is valued 0x02, tags' (int32) empty. */
static void
check_values (fx_t *fx, const char *coll)
{
   wt_store_t *w = fx->store->impl;
   wt_coll_t *c = coll_of (fx->store, coll);
   WT_SESSION *ws;
   WT_CURSOR *ic;
   WT_ITEM v;
   int n = 0, ret;

   assert_int_equal (w->conn->open_session (w->conn, NULL, NULL, &ws), 0);
   assert_int_equal (ws->open_cursor (ws, ix_uri (c, "k"), NULL, NULL, &ic), 0);
   while ((ret = ic->next (ic)) == 0) {
      assert_int_equal (ic->get_value (ic, &v), 0);
      assert_int_equal (v.size, 1);
      assert_int_equal (((const uint8_t *)v.data)[0], 0x02);
      n++;
   }
   assert_int_equal (ret, WT_NOTFOUND);
   assert_int_equal (n, NDOCS);
   ic->close (ic);
   assert_int_equal (ws->open_cursor (ws, ix_uri (c, "tags"), NULL, NULL, &ic), 0);
   while ((ret = ic->next (ic)) == 0) {
      assert_int_equal (ic->get_value (ic, &v), 0);
      assert_int_equal (v.size, 0);
   }
   ws->close (ws, NULL);
}

/* test_update_writes -- the key difference and the values, on a plain and a clustered collection. */
static void
test_update_writes (void **state)
{
   fx_t *fx = *state;
   lab_store_session_t *s;
   bson_error_t e;

   s = lab_store_session_open (fx->store, &e);
   assert_non_null (s);
   fill (s, "plain", false, 10);
   fill (s, "clus", true, 10);
   check_values (fx, "plain");
   check_values (fx, "clus");
   check_diff (fx, s, "plain");
   check_diff (fx, s, "clus");
   check_values (fx, "plain");
   check_values (fx, "clus");
   lab_store_session_close (s);
}

/* modifies -- the modify calls on coll's record table after an amount correction of every document
 * (records of 2,000 bytes: over mongod's 1024-byte floor, a change far under a tenth). */
static int64_t
modifies (lab_store_t *st, lab_store_session_t *s, const char *coll, double amount)
{
   const char *uri = coll_of (st, coll)->uri;
   int64_t m0 = tstat (st, uri, WT_STAT_DSRC_CURSOR_MODIFY);
   int i;

   for (i = 0; i < NDOCS; i++) {
      upsert (s, coll, i, 1000 + i, i, amount, 2000);
   }
   return tstat (st, uri, WT_STAT_DSRC_CURSOR_MODIFY) - m0;
}

/* test_logging -- a logged store's updates are whole records; an unlogged store's are modifies, on a
 * plain and a clustered collection; journaling a table back makes its updates whole records again. */
static void
test_logging (void **state)
{
   fx_t *fx = *state;
   lab_store_opts_t o = { .create = true, .cache_size_bytes = 64 * 1024 * 1024, .unlogged = true };
   lab_store_session_t *s;
   lab_store_t *un;
   bson_error_t e;
   char *uri;

   s = lab_store_session_open (fx->store, &e);
   fill (s, "plain", false, 2000);
   fill (s, "clus", true, 2000);
   assert_int_equal (modifies (fx->store, s, "plain", 9.25), 0);
   assert_int_equal (modifies (fx->store, s, "clus", 9.25), 0);
   lab_store_session_close (s);

   uri = bson_strdup_printf ("wiredtiger:%s/unlogged", fx->dir);
   un = lab_store_open (uri, &o, &e);
   if (!un) {
      fail_msg ("open %s: %s", uri, e.message);
   }
   s = lab_store_session_open (un, &e);
   fill (s, "plain", false, 2000);
   fill (s, "clus", true, 2000);
   assert_int_equal (modifies (un, s, "plain", 9.25), NDOCS);
   assert_int_equal (modifies (un, s, "clus", 9.25), NDOCS);
   lab_store_session_close (s);
   LAB_TEST_CHECK (lab_store_set_journaled (un, "clus", &e_));
   s = lab_store_session_open (un, &e);
   assert_int_equal (modifies (un, s, "clus", 11.5), 0);
   lab_store_session_close (s);
   lab_store_close (un);
   bson_free (uri);
}

/* main -- the group. */
int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_typebits),
      cmocka_unit_test_setup_teardown (test_update_writes, setup, teardown),
      cmocka_unit_test_setup_teardown (test_logging, setup, teardown),
   };

   return lab_test_run_group ("wt_ixdiff", tests, NULL, NULL);
}
