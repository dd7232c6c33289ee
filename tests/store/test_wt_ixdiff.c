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

/* tb -- the TypeBits value of a key of the values v[0..n); its first bytes in byte[0..1]. */
static size_t
tb (const bson_value_t *const *v, int n, uint8_t *byte)
{
   lab_buf_t out;
   size_t len;

   lab_buf_init (&out);
   lab_store_key_typebits_values (v, n, &out);
   len = out.len;
   byte[0] = len > 0 ? out.data[0] : 0;
   byte[1] = len > 1 ? out.data[1] : 0;
   lab_buf_destroy (&out);
   return len;
}

/* tb1 -- tb of one value. */
static size_t
tb1 (const bson_value_t *v, uint8_t *byte)
{
   return tb (&v, 1, byte);
}

/* test_typebits -- mongod's bytes (key_string.h TypeBits, bits packed from the low end):
 * appendNumberLong (kLong 0x1: bits 0,1 -> 0x02), appendNumberDouble (kDouble 0x2: bits 1,0 -> 0x01),
 * appendZero(kNegativeDoubleZero) in V1 (0b11000, high bit first -> 0x03); int32 (kInt 0x0), strings
 * (kString 0), dates all zero: no value. Compound: the bits one value after the other; a byte with its
 * high bit set takes a size byte (0x80 | 1) first (getSize's case 3). */
static void
test_typebits (void **state)
{
   bson_value_t l = { .value_type = BSON_TYPE_INT64, .value.v_int64 = 123456789 };
   bson_value_t l0 = { .value_type = BSON_TYPE_INT64, .value.v_int64 = 0 };
   bson_value_t d = { .value_type = BSON_TYPE_DOUBLE, .value.v_double = 2.5 };
   bson_value_t d7 = { .value_type = BSON_TYPE_DOUBLE, .value.v_double = 7.0 };
   bson_value_t nz = { .value_type = BSON_TYPE_DOUBLE, .value.v_double = -0.0 };
   bson_value_t i = { .value_type = BSON_TYPE_INT32, .value.v_int32 = 7 };
   bson_value_t s = { .value_type = BSON_TYPE_UTF8, .value.v_utf8 = { "abc", 3 } };
   bson_value_t t = { .value_type = BSON_TYPE_DATE_TIME, .value.v_datetime = 1700000000000 };
   const bson_value_t *li[2] = { &l, &i }, *sl[2] = { &s, &l }, *id[2] = { &i, &d }, *tl[2] = { &t, &l };
   const bson_value_t *llll[4] = { &l, &l, &l, &l };
   uint8_t b[2];

   (void)state;
   assert_int_equal (tb1 (&l, b), 1);
   assert_int_equal (b[0], 0x02);
   assert_int_equal (tb1 (&l0, b), 1);
   assert_int_equal (b[0], 0x02);
   assert_int_equal (tb1 (&d, b), 1);
   assert_int_equal (b[0], 0x01);
   assert_int_equal (tb1 (&d7, b), 1);
   assert_int_equal (b[0], 0x01);
   assert_int_equal (tb1 (&nz, b), 1);
   assert_int_equal (b[0], 0x03);
   assert_int_equal (tb1 (&i, b), 0);
   assert_int_equal (tb1 (&s, b), 0);
   assert_int_equal (tb1 (&t, b), 0);
   assert_int_equal (tb (li, 2, b), 1); /* 0,1 0,0 */
   assert_int_equal (b[0], 0x02);
   assert_int_equal (tb (sl, 2, b), 1); /* 0 0,1 */
   assert_int_equal (b[0], 0x04);
   assert_int_equal (tb (id, 2, b), 1); /* 0,0 1,0 */
   assert_int_equal (b[0], 0x04);
   assert_int_equal (tb (tl, 2, b), 1); /* (none) 0,1 */
   assert_int_equal (b[0], 0x02);
   assert_int_equal (tb (llll, 4, b), 2); /* 0,1 x 4 = 0xAA: high bit set, so 0x81 0xAA */
   assert_int_equal (b[0], 0x81);
   assert_int_equal (b[1], 0xAA);
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
   BSON_APPEND_INT64 (d, "kc", k);
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
   lab_store_index_spec_t kt = { .fields = { "kc", "tags" }, .n = 2 };
   int i;

   if (clustered) {
      LAB_TEST_CHECK (lab_store_create_clustered (s, coll, &e_));
   }
   LAB_TEST_CHECK (lab_store_create_index_spec (s, coll, &k, &e_));
   LAB_TEST_CHECK (lab_store_create_index_spec (s, coll, &t, &e_));
   LAB_TEST_CHECK (lab_store_create_index_spec (s, coll, &kt, &e_));
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

/* check_ix_values -- every entry of coll's index whose first field is `field` is valued `want` (0: empty);
 * n entries. */
static void
check_ix_values (fx_t *fx, const char *coll, const char *field, uint8_t want, int n)
{
   wt_store_t *w = fx->store->impl;
   WT_SESSION *ws;
   WT_CURSOR *ic;
   WT_ITEM v;
   int seen = 0, ret;

   assert_int_equal (w->conn->open_session (w->conn, NULL, NULL, &ws), 0);
   assert_int_equal (ws->open_cursor (ws, ix_uri (coll_of (fx->store, coll), field), NULL, NULL, &ic), 0);
   while ((ret = ic->next (ic)) == 0) {
      assert_int_equal (ic->get_value (ic, &v), 0);
      assert_int_equal (v.size, want ? 1 : 0);
      if (want) {
         assert_int_equal (((const uint8_t *)v.data)[0], want);
      }
      seen++;
   }
   assert_int_equal (ret, WT_NOTFOUND);
   assert_int_equal (seen, n);
   ws->close (ws, NULL);
}

/* check_values -- k (int64) entries 0x02, tags (int32) empty, {kc, tags} (int64, int32) 0x02 one per
 * element; and an index built over the documents (bulk) on amount (double) 0x01. */
static void
check_values (fx_t *fx, const char *coll)
{
   lab_store_index_spec_t a = { .fields = { "amount" }, .n = 1 };
   lab_store_session_t *s;

   check_ix_values (fx, coll, "k", 0x02, NDOCS);
   check_ix_values (fx, coll, "tags", 0, 2 * NDOCS);
   check_ix_values (fx, coll, "kc", 0x02, 2 * NDOCS);
   LAB_TEST_CHECK (s = lab_store_session_open (fx->store, &e_));
   LAB_TEST_CHECK (lab_store_create_index_spec (s, coll, &a, &e_));
   lab_store_session_close (s);
   check_ix_values (fx, coll, "amount", 0x01, NDOCS);
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
