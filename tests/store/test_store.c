/*
 * test_store.c -- the store interface (store/store.h only), the same tests on both backends.
 *
 * The backend comes from $LAB_STORE_BACKEND ("wiredtiger": a fresh temporary directory; "mongodb": the
 * test server of the ctest fixture, or $LAYOUTLAB_TEST_URI, in a database of its own), or argv[1].
 * tests/store/mongo.cmake registers this program once per backend (labels embedded / server).
 *
 * Covered: create/exists/indexes/drop, 12,000-document inserts (2,400 on the server), count, stats, find_eq,
 * the sorted stream (whole and [lo, hi)), partition, distinct keys for int32, string, int64, ObjectId and
 * date keys, upsert, delete, duplicate _id and oversized documents refused per document (the rest of the
 * batch written), missing collections and fields without an index (LAB_STORE_ERR_NO_INDEX for every sorted
 * read), the description of a sorted read, natural-order reads (whole, ranges, description), the server
 * selection timeout, server facts and a cold cycle.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/store.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 1000

/* the main collection: nkeys keys x 12 rows. 1000 keys embedded; 200 on the test server, which reads
 * every document through JSON for each query (FerretDB on SQLite): 2,400 documents there, not 12,000,
 * a third of its CPU for this test, every check the same (nkeys stays a multiple of 4 and of 10) */
static int ndocs = 12000;
static int nkeys = 1000;

static const char *backend;

typedef struct {
   lab_store_t *store;
   lab_store_session_t *sess;
   char *uri;
   char *db;
} fx_t;

#define ASSERT_OK(expr, err)                                                                                 \
   do {                                                                                                      \
      if (!(expr)) {                                                                                         \
         fail_msg ("%s failed: %s (domain %u, code %u)", #expr, (err).message, (err).domain, (err).code);    \
      }                                                                                                      \
   } while (0)

/* ---- fixtures ----------------------------------------------------------------------------------- */

static int
setup (void **state)
{
   fx_t *fx = bson_malloc0 (sizeof *fx);
   lab_store_opts_t opts = { 0 };
   bson_error_t err;

   fx->uri = lab_test_store_uri (backend, "store", &fx->db);
   if (!fx->uri) {
      fprintf (stderr, "no store URI for backend '%s'\n", backend);
      return -1;
   }
   opts.db = fx->db;
   opts.create = true;
   opts.cache_size_bytes = 256 * 1024 * 1024;
   fx->store = lab_store_open (fx->uri, &opts, &err);
   if (!fx->store) {
      fprintf (stderr, "cannot open the %s store: %s\n", backend, err.message);
      return -1;
   }
   fx->sess = lab_store_session_open (fx->store, &err);
   if (!fx->sess) {
      fprintf (stderr, "cannot open a session: %s\n", err.message);
      return -1;
   }
   *state = fx;
   return 0;
}

static int
teardown (void **state)
{
   fx_t *fx = *state;

   if (!fx) {
      return 0;
   }
   /* fx->sess stays open on purpose: lab_store_close closes the sessions left open (store.h) */
   lab_store_close (fx->store);
   if (strcmp (backend, "wiredtiger") == 0) {
      lab_test_rmtree (fx->uri + strlen ("wiredtiger:"));
   }
   bson_free (fx->uri);
   bson_free (fx->db);
   bson_free (fx);
   return 0;
}

/* fresh -- drop `coll` so every test starts from nothing (also on a reused server database). */
static void
fresh (fx_t *fx, const char *coll)
{
   bson_error_t err;
   ASSERT_OK (lab_store_drop (fx->sess, coll, &err), err);
}

/* insert_all -- insert docs in batches of BATCH, asserting no per-document error. */
static void
insert_all (fx_t *fx, const char *coll, bson_t **docs, size_t n)
{
   size_t i;

   for (i = 0; i < n; i += BATCH) {
      size_t m = n - i < BATCH ? n - i : BATCH;
      lab_store_insert_result_t res;
      bson_error_t err;

      ASSERT_OK (lab_store_insert_many (fx->sess, coll, (const bson_t *const *)docs + i, m, &res, &err), err);
      if (res.nerrors) {
         fail_msg ("insert into %s: %zu per-document errors, first: %s", coll, res.nerrors,
                   res.errors[0].message);
      }
      assert_int_equal (res.inserted, (int64_t)m);
      lab_store_insert_result_cleanup (&res);
   }
}

static void
free_docs (bson_t **docs, size_t n)
{
   size_t i;
   for (i = 0; i < n; i++) {
      bson_destroy (docs[i]);
   }
   bson_free (docs);
}

static int32_t
get_i32 (const bson_t *doc, const char *field)
{
   bson_iter_t it;
   if (!bson_iter_init_find (&it, doc, field) || !BSON_ITER_HOLDS_INT32 (&it)) {
      fail_msg ("document has no int32 '%s'", field);
   }
   return bson_iter_int32 (&it);
}

static const char *
get_str (const bson_t *doc, const char *field)
{
   bson_iter_t it;
   if (!bson_iter_init_find (&it, doc, field) || !BSON_ITER_HOLDS_UTF8 (&it)) {
      fail_msg ("document has no string '%s'", field);
   }
   return bson_iter_utf8 (&it, NULL);
}

/* key_of -- the int key of document i: interleaved, so one key's rows are spread over the collection. */
static int32_t
key_of (int i)
{
   return (int32_t)(((int64_t)i * 7919) % nkeys);
}

/* make_main_docs -- ndocs rows {seq, k (int), s (string), pad}, without _id (the store assigns one). */
static bson_t **
make_main_docs (void)
{
   bson_t **docs = bson_malloc (ndocs * sizeof *docs);
   char s[32], pad[201];
   int i;

   memset (pad, 'p', 200);
   pad[200] = '\0';
   for (i = 0; i < ndocs; i++) {
      docs[i] = bson_new ();
      BSON_APPEND_INT32 (docs[i], "seq", i);
      BSON_APPEND_INT32 (docs[i], "k", key_of (i));
      bson_snprintf (s, sizeof s, "key%04d", key_of (i));
      BSON_APPEND_UTF8 (docs[i], "s", s);
      BSON_APPEND_UTF8 (docs[i], "pad", pad);
   }
   return docs;
}

/* load_main -- the main collection, indexed on k and s. */
static void
load_main (fx_t *fx, const char *coll)
{
   bson_t **docs = make_main_docs ();
   bson_error_t err;
   bool has;

   fresh (fx, coll);
   ASSERT_OK (lab_store_create (fx->sess, coll, &err), err);
   insert_all (fx, coll, docs, ndocs);
   free_docs (docs, ndocs);
   ASSERT_OK (lab_store_has_index (fx->sess, coll, "k", &has, &err), err);
   assert_false (has);
   ASSERT_OK (lab_store_create_index (fx->sess, coll, "k", &err), err);
   ASSERT_OK (lab_store_create_index (fx->sess, coll, "s", &err), err);
   ASSERT_OK (lab_store_create_index (fx->sess, coll, "k", &err), err); /* existing is fine */
}

/* ensure_main -- "c_main", loaded once per run and only read by the tests that use it. */
static void
ensure_main (fx_t *fx)
{
   static bool loaded;

   if (!loaded) {
      load_main (fx, "c_main");
      loaded = true;
   }
}

/* ---- collections -------------------------------------------------------------------------------- */

static void
test_collections (void **state)
{
   fx_t *fx = *state;
   bson_error_t err;
   bool exists, has;
   int64_t n;

   fresh (fx, "c_life");
   ASSERT_OK (lab_store_exists (fx->sess, "c_life", &exists, &err), err);
   assert_false (exists);
   ASSERT_OK (lab_store_create (fx->sess, "c_life", &err), err);
   ASSERT_OK (lab_store_create (fx->sess, "c_life", &err), err); /* existing is fine */
   ASSERT_OK (lab_store_exists (fx->sess, "c_life", &exists, &err), err);
   assert_true (exists);
   ASSERT_OK (lab_store_has_index (fx->sess, "c_life", "_id", &has, &err), err);
   assert_true (has);
   ASSERT_OK (lab_store_has_index (fx->sess, "c_life", "bill_id", &has, &err), err);
   assert_false (has);
   ASSERT_OK (lab_store_create_index (fx->sess, "c_life", "bill_id", &err), err);
   ASSERT_OK (lab_store_has_index (fx->sess, "c_life", "bill_id", &has, &err), err);
   assert_true (has);
   ASSERT_OK (lab_store_count (fx->sess, "c_life", &n, &err), err);
   assert_int_equal (n, 0);
   ASSERT_OK (lab_store_drop (fx->sess, "c_life", &err), err);
   ASSERT_OK (lab_store_exists (fx->sess, "c_life", &exists, &err), err);
   assert_false (exists);
   ASSERT_OK (lab_store_drop (fx->sess, "c_life", &err), err); /* missing is not an error */
   assert_false (lab_store_count (fx->sess, "c_life", &n, &err));
   assert_true (lab_error_is (&err, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION));
}

/* ---- bulk data: count, stats, find, sorted stream, partition, distinct --------------------------- */

static void
test_count_stats (void **state)
{
   fx_t *fx = *state;
   lab_store_coll_stats_t st;
   bson_error_t err;
   int64_t n;

   ensure_main (fx);
   ASSERT_OK (lab_store_count (fx->sess, "c_main", &n, &err), err);
   assert_int_equal (n, ndocs);
   n = -1;
   ASSERT_OK (lab_store_count_estimated (fx->sess, "c_main", &n, &err), err);
   assert_int_equal (n, ndocs); /* metadata: exact after clean writes */
   ASSERT_OK (lab_store_stats (fx->sess, "c_main", &st, &err), err);
   /* FerretDB estimates; the embedded store and mongod count exactly */
   assert_true (st.count > 0 && st.count <= 2 * ndocs);
   assert_true (st.avg_obj_size_bytes > 200 && st.avg_obj_size_bytes < 1000);
   assert_true (st.data_size_bytes > 200 * (int64_t)ndocs / 2);
   assert_true (st.nindexes >= 3);
   assert_true (st.storage_size_bytes >= 0 && st.index_size_bytes >= 0);
}

typedef struct {
   int64_t n;
   int32_t key;
   int32_t last_seq;
   bool ordered;
   int64_t stop_after;
} find_ctx_t;

static bool
find_cb (const bson_t *doc, void *p)
{
   find_ctx_t *c = p;
   int32_t seq = get_i32 (doc, "seq");

   assert_int_equal (get_i32 (doc, "k"), c->key);
   c->ordered = c->ordered && seq > c->last_seq;
   c->last_seq = seq;
   c->n++;
   return c->stop_after == 0 || c->n < c->stop_after;
}

static void
test_find_eq (void **state)
{
   fx_t *fx = *state;
   find_ctx_t c = { 0 };
   bson_value_t v;
   bson_error_t err;
   int64_t nd;

   ensure_main (fx);
   v.value_type = BSON_TYPE_INT32;
   v.value.v_int32 = 7;
   c.key = 7;
   c.last_seq = -1;
   c.ordered = true;
   ASSERT_OK (lab_store_find_eq (fx->sess, "c_main", "k", &v, find_cb, &c, &nd, &err), err);
   assert_int_equal (c.n, ndocs / nkeys);
   assert_int_equal (nd, ndocs / nkeys);
   assert_true (c.ordered); /* equal keys come in insertion (RecordId / _id) order */

   /* early stop is not an error */
   memset (&c, 0, sizeof c);
   c.key = 7;
   c.last_seq = -1;
   c.ordered = true;
   c.stop_after = 3;
   ASSERT_OK (lab_store_find_eq (fx->sess, "c_main", "k", &v, find_cb, &c, &nd, &err), err);
   assert_int_equal (c.n, 3);

   /* no such value */
   memset (&c, 0, sizeof c);
   v.value.v_int32 = nkeys + 5;
   ASSERT_OK (lab_store_find_eq (fx->sess, "c_main", "k", &v, find_cb, &c, &nd, &err), err);
   assert_int_equal (nd, 0);

   /* the same key as int64 and double matches numerically, as in MongoDB */
   memset (&c, 0, sizeof c);
   c.key = 9;
   c.last_seq = -1;
   c.ordered = true;
   v.value_type = BSON_TYPE_INT64;
   v.value.v_int64 = 9;
   ASSERT_OK (lab_store_find_eq (fx->sess, "c_main", "k", &v, find_cb, &c, &nd, &err), err);
   assert_int_equal (nd, ndocs / nkeys);

   /* a field without an index */
   v.value_type = BSON_TYPE_INT32;
   v.value.v_int32 = 1;
   assert_false (lab_store_find_eq (fx->sess, "c_main", "seq", &v, find_cb, &c, &nd, &err));
   assert_true (lab_error_is (&err, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX));
   assert_non_null (strstr (err.message, "seq"));
}

/* stream_check -- read the sorted stream of `field` over [lo, hi), check the order (field, then insertion
 * order for ties) and return how many documents came; with `seen` (ndocs flags), check that no document
 * was seen before and flag each. */
static int64_t
stream_check_seen (fx_t *fx, const char *coll, const char *field, const bson_value_t *lo,
                   const bson_value_t *hi, int32_t batch, char *seen)
{
   lab_store_sorted_opts_t so = { 0 };
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bson_error_t err;
   int64_t n = 0;
   int32_t prev_k = -1, prev_seq = -1;
   char prev_s[32] = "";
   int r;

   so.lo = lo;
   so.hi = hi;
   so.batch_docs = batch;
   cur = lab_store_sorted_open (fx->sess, coll, field, &so, &err);
   if (!cur) {
      fail_msg ("sorted_open %s.%s: %s", coll, field, err.message);
   }
   while ((r = lab_store_cursor_next (cur, &doc, &err)) == 1) {
      int32_t k = get_i32 (doc, "k"), seq = get_i32 (doc, "seq");
      const char *s = get_str (doc, "s");

      if (strcmp (field, "k") == 0) {
         assert_true (k >= prev_k);
         if (k == prev_k) {
            assert_true (seq > prev_seq);
         }
         if (lo) {
            assert_true (k >= lo->value.v_int32);
         }
         if (hi) {
            assert_true (k < hi->value.v_int32);
         }
      } else {
         assert_true (strcmp (s, prev_s) >= 0);
         if (strcmp (s, prev_s) == 0) {
            assert_true (seq > prev_seq);
         }
         if (lo) {
            assert_true (strcmp (s, lo->value.v_utf8.str) >= 0);
         }
         if (hi) {
            assert_true (strcmp (s, hi->value.v_utf8.str) < 0);
         }
      }
      if (seen) {
         assert_true (seq >= 0 && seq < ndocs);
         assert_false (seen[seq]);
         seen[seq] = 1;
      }
      prev_k = k;
      prev_seq = seq;
      bson_strncpy (prev_s, s, sizeof prev_s);
      n++;
   }
   if (r < 0) {
      fail_msg ("cursor on %s.%s: %s", coll, field, err.message);
   }
   /* the end stays the end: a caller may ask again (a server cursor refuses a second read once done) */
   if ((r = lab_store_cursor_next (cur, &doc, &err)) != 0) {
      fail_msg ("cursor on %s.%s after its end: %d (%s)", coll, field, r, r < 0 ? err.message : "a document");
   }
   lab_store_cursor_close (cur);
   return n;
}

static int64_t
stream_check (fx_t *fx, const char *coll, const char *field, const bson_value_t *lo, const bson_value_t *hi,
              int32_t batch)
{
   return stream_check_seen (fx, coll, field, lo, hi, batch, NULL);
}

static void
test_sorted_stream (void **state)
{
   fx_t *fx = *state;
   bson_value_t lo, hi;
   char slo[32], shi[32];

   char *seen = bson_malloc0 (ndocs);

   ensure_main (fx);
   /* every row exactly once, ties in insertion order (so two reads agree, ties included) */
   assert_int_equal (stream_check_seen (fx, "c_main", "k", NULL, NULL, 0, seen), ndocs);
   bson_free (seen);
   assert_int_equal (stream_check (fx, "c_main", "k", NULL, NULL, 7), ndocs); /* small batches */
   lo.value_type = hi.value_type = BSON_TYPE_INT32;
   lo.value.v_int32 = nkeys / 10;
   hi.value.v_int32 = nkeys / 5;
   assert_int_equal (stream_check (fx, "c_main", "k", &lo, &hi, 0), (nkeys / 10) * ndocs / nkeys);
   assert_int_equal (stream_check (fx, "c_main", "k", NULL, &hi, 0), (nkeys / 5) * ndocs / nkeys);
   assert_int_equal (stream_check (fx, "c_main", "k", &lo, NULL, 0), (nkeys - nkeys / 10) * ndocs / nkeys);
   hi.value.v_int32 = nkeys / 10;
   assert_int_equal (stream_check (fx, "c_main", "k", &lo, &hi, 0), 0); /* empty range */

   /* string keys */
   assert_int_equal (stream_check (fx, "c_main", "s", NULL, NULL, 0), ndocs);
   lo.value_type = hi.value_type = BSON_TYPE_UTF8;
   bson_snprintf (slo, sizeof slo, "key%04d", nkeys - 10); /* key0990 .. key0995 of 1000 keys */
   bson_snprintf (shi, sizeof shi, "key%04d", nkeys - 5);
   lo.value.v_utf8.str = slo;
   lo.value.v_utf8.len = (uint32_t)strlen (slo);
   hi.value.v_utf8.str = shi;
   hi.value.v_utf8.len = (uint32_t)strlen (shi);
   assert_int_equal (stream_check (fx, "c_main", "s", &lo, &hi, 0), 5 * ndocs / nkeys);
}

static void
test_partition_distinct (void **state)
{
   fx_t *fx = *state;
   bson_value_t *bounds = NULL, *keys = NULL;
   bson_error_t err;
   int nb, i;
   int64_t nk, total = 0;
   char *seen;

   ensure_main (fx);
   ASSERT_OK (lab_store_partition (fx->sess, "c_main", "k", 4, &bounds, &nb, &err), err);
   /* nkeys keys x 12 rows: the quartiles fall exactly on keys nkeys/4, nkeys/2, 3 nkeys/4 (250, 500, 750) */
   assert_int_equal (nb, 3);
   for (i = 0; i < nb; i++) {
      assert_int_equal (bounds[i].value_type, BSON_TYPE_INT32);
      assert_int_equal (bounds[i].value.v_int32, nkeys / 4 * (i + 1));
   }
   /* the ranges cover every document exactly once */
   seen = bson_malloc0 (ndocs);
   for (i = 0; i <= nb; i++) {
      total += stream_check_seen (fx, "c_main", "k", i > 0 ? &bounds[i - 1] : NULL,
                                  i < nb ? &bounds[i] : NULL, 0, seen);
   }
   assert_int_equal (total, ndocs);
   bson_free (seen);
   lab_store_values_free (bounds, nb);

   ASSERT_OK (lab_store_partition (fx->sess, "c_main", "s", 3, &bounds, &nb, &err), err);
   assert_true (nb >= 1 && nb <= 2);
   for (i = 0; i < nb; i++) {
      assert_int_equal (bounds[i].value_type, BSON_TYPE_UTF8);
      if (i > 0) {
         assert_true (strcmp (bounds[i - 1].value.v_utf8.str, bounds[i].value.v_utf8.str) < 0);
      }
   }
   lab_store_values_free (bounds, nb);

   ASSERT_OK (lab_store_partition (fx->sess, "c_main", "k", 1, &bounds, &nb, &err), err);
   assert_int_equal (nb, 0);

   ASSERT_OK (lab_store_distinct_keys (fx->sess, "c_main", "k", &keys, &nk, &err), err);
   assert_int_equal (nk, nkeys);
   for (i = 0; i < nk; i++) {
      assert_int_equal (keys[i].value_type, BSON_TYPE_INT32);
      assert_int_equal (keys[i].value.v_int32, i);
   }
   lab_store_values_free (keys, (int)nk);

   ASSERT_OK (lab_store_distinct_keys (fx->sess, "c_main", "s", &keys, &nk, &err), err);
   assert_int_equal (nk, nkeys);
   for (i = 0; i < nk; i++) {
      char want[32];
      bson_snprintf (want, sizeof want, "key%04d", i);
      assert_int_equal (keys[i].value_type, BSON_TYPE_UTF8);
      assert_string_equal (keys[i].value.v_utf8.str, want);
   }
   lab_store_values_free (keys, (int)nk);
}

/* few keys: partition into more ranges than there are keys never splits one */
static void
test_partition_few_keys (void **state)
{
   fx_t *fx = *state;
   bson_t **docs = bson_malloc (300 * sizeof *docs);
   bson_value_t *bounds = NULL;
   bson_error_t err;
   int i, nb;

   fresh (fx, "c_few");
   for (i = 0; i < 300; i++) {
      docs[i] = bson_new ();
      BSON_APPEND_INT32 (docs[i], "k", i % 3);
   }
   insert_all (fx, "c_few", docs, 300);
   free_docs (docs, 300);
   ASSERT_OK (lab_store_create_index (fx->sess, "c_few", "k", &err), err);
   ASSERT_OK (lab_store_partition (fx->sess, "c_few", "k", 10, &bounds, &nb, &err), err);
   assert_int_equal (nb, 2);
   assert_int_equal (bounds[0].value.v_int32, 1);
   assert_int_equal (bounds[1].value.v_int32, 2);
   lab_store_values_free (bounds, nb);
}

/* ---- threads: one session each, as scancmp's workers ------------------------------------------ */

typedef struct {
   lab_store_t *store;
   int first_key, nkeys;
   int64_t docs;
   bool ok;
   char message[512];
} worker_t;

static bool
count_cb (const bson_t *doc, void *p)
{
   (*(int64_t *)p)++;
   return true;
}

/* worker -- open a session, look up its share of the keys, keep the first error. */
static void *
worker (void *p)
{
   worker_t *w = p;
   bson_error_t err;
   lab_store_session_t *sess = lab_store_session_open (w->store, &err);
   int k;

   w->ok = sess != NULL;
   for (k = w->first_key; w->ok && k < w->first_key + w->nkeys; k++) {
      bson_value_t v;
      v.value_type = BSON_TYPE_INT32;
      v.value.v_int32 = k;
      w->ok = lab_store_find_eq (sess, "c_threads", "k", &v, count_cb, &w->docs, NULL, &err);
   }
   if (!w->ok) {
      bson_strncpy (w->message, err.message, sizeof w->message);
   }
   lab_store_session_close (sess);
   return NULL;
}

/* test_threads -- 4 workers, 10 keys each, on a small collection of their own: FerretDB answers every
 * find with a full scan (no index pushdown on SQLite), so the 12,000-row collection would be slow. */
static void
test_threads (void **state)
{
   fx_t *fx = *state;
   bson_t **docs = bson_malloc (400 * sizeof *docs);
   pthread_t th[4];
   worker_t w[4];
   bson_error_t err;
   int64_t total = 0;
   int i;

   fresh (fx, "c_threads");
   for (i = 0; i < 400; i++) {
      docs[i] = BCON_NEW ("k", BCON_INT32 (i % 40), "i", BCON_INT32 (i));
   }
   insert_all (fx, "c_threads", docs, 400);
   free_docs (docs, 400);
   ASSERT_OK (lab_store_create_index (fx->sess, "c_threads", "k", &err), err);
   for (i = 0; i < 4; i++) {
      memset (&w[i], 0, sizeof w[i]);
      w[i].store = fx->store;
      w[i].first_key = i * 10;
      w[i].nkeys = 10;
      assert_int_equal (pthread_create (&th[i], NULL, worker, &w[i]), 0);
   }
   for (i = 0; i < 4; i++) {
      pthread_join (th[i], NULL);
   }
   for (i = 0; i < 4; i++) {
      if (!w[i].ok) {
         fail_msg ("worker %d: %s", i, w[i].message);
      }
      total += w[i].docs;
   }
   assert_int_equal (total, 400);
   fresh (fx, "c_threads");
}

/* ---- key types ---------------------------------------------------------------------------------- */

/* typed_value -- value number j (0..9, ascending in MongoDB order) of a key type. */
static void
typed_value (bson_type_t t, int j, bson_value_t *v, char *strbuf)
{
   memset (v, 0, sizeof *v);
   v->value_type = t;
   switch (t) {
   case BSON_TYPE_INT32:
      v->value.v_int32 = (j - 5) * 1000;
      break;
   case BSON_TYPE_INT64:
      v->value.v_int64 = (int64_t)(j - 5) * INT64_C (1000000000000);
      break;
   case BSON_TYPE_DATE_TIME:
      v->value.v_datetime =
         INT64_C (1600000000000) + (int64_t)(j - 5) * INT64_C (400000000000); /* < and > epoch */
      break;
   case BSON_TYPE_OID: {
      uint8_t b[12] = { 0x65, 0x00, 0x00, 0x01, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0x00, 0x00, 0x00 };
      b[3] = (uint8_t)(j * 20);
      b[11] = (uint8_t)(255 - j);
      bson_oid_init_from_data (&v->value.v_oid, b);
      break;
   }
   case BSON_TYPE_UTF8:
      bson_snprintf (strbuf, 16, j == 0 ? "" : "%c-%d", 'A' + j * 3, j);
      v->value.v_utf8.str = strbuf;
      v->value.v_utf8.len = (uint32_t)strlen (strbuf);
      break;
   default:
      fail_msg ("unexpected type");
   }
}

/* values_equal -- same type and same bytes. */
static bool
values_equal (const bson_value_t *a, const bson_value_t *b)
{
   bson_t da = BSON_INITIALIZER, db = BSON_INITIALIZER;
   bool eq;

   BSON_APPEND_VALUE (&da, "v", a);
   BSON_APPEND_VALUE (&db, "v", b);
   eq = da.len == db.len && memcmp (bson_get_data (&da), bson_get_data (&db), da.len) == 0;
   bson_destroy (&da);
   bson_destroy (&db);
   return eq;
}

typedef struct {
   int64_t n;
   int32_t j;
} jctx_t;

static bool
j_cb (const bson_t *doc, void *p)
{
   jctx_t *c = p;
   assert_int_equal (get_i32 (doc, "j"), c->j);
   c->n++;
   return true;
}

static void
check_key_type (fx_t *fx, bson_type_t t, const char *coll)
{
   bson_t **docs = bson_malloc (50 * sizeof *docs);
   bson_value_t v, *keys = NULL, *bounds = NULL;
   lab_store_sorted_opts_t so = { 0 };
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bson_error_t err;
   char buf[16];
   int i, nb, r, prev = -1;
   int64_t nk, n = 0;
   jctx_t jc = { 0 };

   fresh (fx, coll);
   for (i = 0; i < 50; i++) {
      int j = (i * 7) % 10; /* interleaved */
      typed_value (t, j, &v, buf);
      docs[i] = bson_new ();
      BSON_APPEND_INT32 (docs[i], "_id", i);
      BSON_APPEND_VALUE (docs[i], "key", &v);
      BSON_APPEND_INT32 (docs[i], "j", j);
   }
   insert_all (fx, coll, docs, 50);
   free_docs (docs, 50);
   ASSERT_OK (lab_store_create_index (fx->sess, coll, "key", &err), err);

   /* sorted stream in the type's order */
   cur = lab_store_sorted_open (fx->sess, coll, "key", &so, &err);
   if (!cur) {
      fail_msg ("sorted_open %s: %s", coll, err.message);
   }
   while ((r = lab_store_cursor_next (cur, &doc, &err)) == 1) {
      int j = get_i32 (doc, "j");
      assert_true (j >= prev);
      prev = j;
      n++;
   }
   assert_int_equal (r, 0);
   assert_int_equal (n, 50);
   lab_store_cursor_close (cur);

   /* find_eq on each value */
   for (i = 0; i < 10; i++) {
      typed_value (t, i, &v, buf);
      jc.n = 0;
      jc.j = i;
      ASSERT_OK (lab_store_find_eq (fx->sess, coll, "key", &v, j_cb, &jc, NULL, &err), err);
      assert_int_equal (jc.n, 5);
   }

   /* distinct keys come back ascending, with their type */
   ASSERT_OK (lab_store_distinct_keys (fx->sess, coll, "key", &keys, &nk, &err), err);
   assert_int_equal (nk, 10);
   for (i = 0; i < 10; i++) {
      typed_value (t, i, &v, buf);
      if (!values_equal (&keys[i], &v)) {
         fail_msg ("%s: distinct key %d differs from the value inserted", coll, i);
      }
   }
   lab_store_values_free (keys, (int)nk);

   /* two ranges split at value 5 */
   ASSERT_OK (lab_store_partition (fx->sess, coll, "key", 2, &bounds, &nb, &err), err);
   assert_int_equal (nb, 1);
   typed_value (t, 5, &v, buf);
   assert_true (values_equal (&bounds[0], &v));
   lab_store_values_free (bounds, nb);
   fresh (fx, coll);
}

static void
test_key_types (void **state)
{
   fx_t *fx = *state;

   check_key_type (fx, BSON_TYPE_INT32, "t_int32");
   check_key_type (fx, BSON_TYPE_INT64, "t_int64");
   check_key_type (fx, BSON_TYPE_OID, "t_oid");
   check_key_type (fx, BSON_TYPE_DATE_TIME, "t_date");
   check_key_type (fx, BSON_TYPE_UTF8, "t_string");
}

/* ---- writes ------------------------------------------------------------------------------------- */

typedef struct {
   int64_t n;
   int32_t v;
   uint32_t len;
} one_ctx_t;

static bool
one_cb (const bson_t *doc, void *p)
{
   one_ctx_t *c = p;
   bson_iter_t it;

   c->n++;
   c->len = doc->len;
   if (bson_iter_init_find (&it, doc, "v")) {
      c->v = bson_iter_int32 (&it);
   }
   return true;
}

static void
test_upsert_delete (void **state)
{
   fx_t *fx = *state;
   bson_t *doc;
   bson_value_t id, k;
   bson_error_t err;
   one_ctx_t c = { 0 };
   int64_t n, deleted;

   load_main (fx, "c_write");
   doc = BCON_NEW ("_id", BCON_UTF8 ("checkpoint"), "v", BCON_INT32 (1));
   ASSERT_OK (lab_store_upsert_by_id (fx->sess, "c_write", doc, &err), err);
   bson_destroy (doc);
   doc = BCON_NEW ("_id", BCON_UTF8 ("checkpoint"), "v", BCON_INT32 (2));
   ASSERT_OK (lab_store_upsert_by_id (fx->sess, "c_write", doc, &err), err);
   bson_destroy (doc);
   ASSERT_OK (lab_store_count (fx->sess, "c_write", &n, &err), err);
   assert_int_equal (n, ndocs + 1);
   id.value_type = BSON_TYPE_UTF8;
   id.value.v_utf8.str = "checkpoint";
   id.value.v_utf8.len = 10;
   ASSERT_OK (lab_store_find_eq (fx->sess, "c_write", "_id", &id, one_cb, &c, NULL, &err), err);
   assert_int_equal (c.n, 1);
   assert_int_equal (c.v, 2);

   /* upsert into a collection that does not exist yet creates it */
   fresh (fx, "c_upsert_new");
   doc = BCON_NEW ("_id", BCON_INT32 (1), "v", BCON_INT32 (3));
   ASSERT_OK (lab_store_upsert_by_id (fx->sess, "c_upsert_new", doc, &err), err);
   bson_destroy (doc);
   ASSERT_OK (lab_store_count (fx->sess, "c_upsert_new", &n, &err), err);
   assert_int_equal (n, 1);
   fresh (fx, "c_upsert_new");

   k.value_type = BSON_TYPE_INT32;
   k.value.v_int32 = 5;
   ASSERT_OK (lab_store_delete_eq (fx->sess, "c_write", "k", &k, &deleted, &err), err);
   assert_int_equal (deleted, ndocs / nkeys);
   ASSERT_OK (lab_store_count (fx->sess, "c_write", &n, &err), err);
   assert_int_equal (n, ndocs + 1 - ndocs / nkeys);
   memset (&c, 0, sizeof c);
   ASSERT_OK (lab_store_find_eq (fx->sess, "c_write", "k", &k, one_cb, &c, NULL, &err), err);
   assert_int_equal (c.n, 0);
   ASSERT_OK (lab_store_delete_eq (fx->sess, "c_write", "_id", &id, &deleted, &err), err);
   assert_int_equal (deleted, 1);
   ASSERT_OK (lab_store_delete_eq (fx->sess, "c_write", "_id", &id, NULL, &err), err); /* nothing left */
   ASSERT_OK (lab_store_flush (fx->store, &err), err);
}

static void
test_duplicate_id (void **state)
{
   fx_t *fx = *state;
   bson_t *docs[4];
   lab_store_insert_result_t res;
   bson_error_t err;
   int64_t n;
   int i;
   const int ids[4] = { 1, 2, 1, 3 };

   fresh (fx, "c_dup");
   for (i = 0; i < 4; i++) {
      docs[i] = BCON_NEW ("_id", BCON_INT32 (ids[i]), "i", BCON_INT32 (i));
   }
   ASSERT_OK (lab_store_insert_many (fx->sess, "c_dup", (const bson_t *const *)docs, 4, &res, &err), err);
   assert_int_equal (res.inserted, 3);
   assert_int_equal (res.nerrors, 1);
   assert_int_equal (res.errors[0].index, 2);
   assert_int_equal (res.errors[0].domain, LAB_ERROR_STORE);
   assert_int_equal (res.errors[0].code, LAB_STORE_ERR_DUPLICATE_KEY);
   lab_store_insert_result_cleanup (&res);
   /* the same _id in a later batch, first position */
   ASSERT_OK (lab_store_insert_many (fx->sess, "c_dup", (const bson_t *const *)docs + 1, 1, &res, &err), err);
   assert_int_equal (res.inserted, 0);
   assert_int_equal (res.nerrors, 1);
   assert_int_equal (res.errors[0].index, 0);
   assert_int_equal (res.errors[0].code, LAB_STORE_ERR_DUPLICATE_KEY);
   lab_store_insert_result_cleanup (&res);
   for (i = 0; i < 4; i++) {
      bson_destroy (docs[i]);
   }
   ASSERT_OK (lab_store_count (fx->sess, "c_dup", &n, &err), err);
   assert_int_equal (n, 3);
   fresh (fx, "c_dup");
}

/* sized_doc -- {_id: id, blob: <binary>} of exactly `len` bytes. */
static bson_t *
sized_doc (int32_t id, uint32_t len)
{
   const uint32_t overhead = 4 + (1 + 4 + 4) + (1 + 5 + 4 + 1) + 1; /* header, _id, blob, terminator */
   uint32_t n = len - overhead;
   uint8_t *blob = bson_malloc0 (n);
   bson_t *d = bson_new ();

   blob[0] = 0x5a;
   blob[n - 1] = 0xa5;
   BSON_APPEND_INT32 (d, "_id", id);
   bson_append_binary (d, "blob", 4, BSON_SUBTYPE_BINARY, blob, n);
   bson_free (blob);
   assert_int_equal (d->len, len);
   return d;
}

static void
test_doc_size_limit (void **state)
{
   fx_t *fx = *state;
   bson_t *docs[4];
   lab_store_insert_result_t res;
   lab_store_server_info_t info;
   bson_value_t id;
   one_ctx_t c = { 0 };
   bson_error_t err;
   int64_t n;
   int i;

   ASSERT_OK (lab_store_server_info (fx->store, &info, &err), err);
   assert_int_equal (info.max_bson_bytes, LAB_BSON_MAX_BYTES);
   fresh (fx, "c_big");
   docs[0] = BCON_NEW ("_id", BCON_INT32 (0));
   docs[1] = sized_doc (1, LAB_BSON_MAX_BYTES);     /* exactly the cap: accepted */
   docs[2] = sized_doc (2, LAB_BSON_MAX_BYTES + 1); /* one byte over: refused */
   docs[3] = BCON_NEW ("_id", BCON_INT32 (3));
   ASSERT_OK (lab_store_insert_many (fx->sess, "c_big", (const bson_t *const *)docs, 4, &res, &err), err);
   assert_int_equal (res.inserted, 3);
   assert_int_equal (res.nerrors, 1);
   assert_int_equal (res.errors[0].index, 2);
   assert_int_equal (res.errors[0].domain, LAB_ERROR_STORE);
   assert_int_equal (res.errors[0].code, LAB_STORE_ERR_DOC_TOO_LARGE);
   assert_non_null (strstr (res.errors[0].message, "16777217"));
   lab_store_insert_result_cleanup (&res);
   for (i = 0; i < 4; i++) {
      bson_destroy (docs[i]);
   }
   ASSERT_OK (lab_store_count (fx->sess, "c_big", &n, &err), err);
   assert_int_equal (n, 3);
   id.value_type = BSON_TYPE_INT32;
   id.value.v_int32 = 1;
   ASSERT_OK (lab_store_find_eq (fx->sess, "c_big", "_id", &id, one_cb, &c, NULL, &err), err);
   assert_int_equal (c.n, 1);
   assert_int_equal (c.len, LAB_BSON_MAX_BYTES);
   /* the sorted stream copes with 16 MiB documents (its batch size follows the average size) */
   {
      lab_store_cursor_t *cur = lab_store_sorted_open (fx->sess, "c_big", "_id", NULL, &err);
      const bson_t *doc;
      int r, k = 0;

      if (!cur) {
         fail_msg ("sorted_open c_big: %s", err.message);
      }
      while ((r = lab_store_cursor_next (cur, &doc, &err)) == 1) {
         k++;
      }
      if (r < 0) {
         fail_msg ("sorted stream of c_big: %s", err.message);
      }
      assert_int_equal (k, 3);
      lab_store_cursor_close (cur);
   }
   fresh (fx, "c_big");
}

/* ---- errors ------------------------------------------------------------------------------------- */

static bool
never_cb (const bson_t *doc, void *ctx)
{
   fail_msg ("a missing collection returned a document");
   return false;
}

static void
test_missing_collection (void **state)
{
   fx_t *fx = *state;
   lab_store_coll_stats_t st;
   bson_value_t v, *vals;
   bson_error_t err;
   int64_t n;
   int nb;

   fresh (fx, "no_such_coll");
   v.value_type = BSON_TYPE_INT32;
   v.value.v_int32 = 1;
   assert_false (lab_store_count (fx->sess, "no_such_coll", &n, &err));
   assert_true (lab_error_is (&err, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION));
   assert_non_null (strstr (err.message, "no_such_coll"));
   assert_false (lab_store_stats (fx->sess, "no_such_coll", &st, &err));
   assert_true (lab_error_is (&err, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION));
   assert_null (lab_store_sorted_open (fx->sess, "no_such_coll", "k", NULL, &err));
   assert_true (lab_error_is (&err, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION));
   assert_non_null (strstr (err.message, "no_such_coll"));
   assert_false (lab_store_find_eq (fx->sess, "no_such_coll", "_id", &v, never_cb, NULL, NULL, &err));
   assert_true (lab_error_is (&err, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION));
   assert_false (lab_store_partition (fx->sess, "no_such_coll", "k", 4, &vals, &nb, &err));
   assert_true (lab_error_is (&err, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION));
   assert_false (lab_store_distinct_keys (fx->sess, "no_such_coll", "k", &vals, &n, &err));
   assert_true (lab_error_is (&err, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION));
   /* a bad name is a usage error, before any backend call */
   assert_false (lab_store_count (fx->sess, "bad$name", &n, &err));
   assert_int_equal (err.domain, LAB_ERROR_USAGE);
}

/* ---- sorted reads need the field's index ------------------------------------------------------ */

/* assert_no_index -- err is LAB_STORE_ERR_NO_INDEX naming the collection and the field */
static void
assert_no_index (const bson_error_t *err, const char *coll, const char *field)
{
   if (!lab_error_is (err, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX)) {
      fail_msg ("expected NO_INDEX, got domain %u code %u: %s", err->domain, err->code, err->message);
   }
   assert_non_null (strstr (err->message, coll));
   assert_non_null (strstr (err->message, field));
   assert_non_null (strstr (err->message, "index"));
}

/* test_no_index -- every sorted read of a field without an index fails before reading, with the code */
static void
test_no_index (void **state)
{
   fx_t *fx = *state;
   bson_value_t *vals = NULL;
   bson_t out = BSON_INITIALIZER;
   bson_error_t err;
   int64_t n;
   int nb;

   ensure_main (fx);
   assert_null (lab_store_sorted_open (fx->sess, "c_main", "seq", NULL, &err));
   assert_no_index (&err, "c_main", "seq");
   if (strcmp (backend, "mongodb") == 0) {
      /* the remedy, as the tools offer it */
      assert_non_null (strstr (err.message, "--create-index"));
      assert_non_null (strstr (err.message, "db.c_main.createIndex({seq: 1})"));
   }
   assert_false (lab_store_partition (fx->sess, "c_main", "seq", 4, &vals, &nb, &err));
   assert_no_index (&err, "c_main", "seq");
   assert_false (lab_store_distinct_keys (fx->sess, "c_main", "seq", &vals, &n, &err));
   assert_no_index (&err, "c_main", "seq");
   assert_false (lab_store_sorted_describe (fx->sess, "c_main", "seq", NULL, &out, &err));
   assert_no_index (&err, "c_main", "seq");
   assert_false (lab_store_sorted_describe (fx->sess, "no_such_coll", "k", NULL, &out, &err));
   assert_true (lab_error_is (&err, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION));
   bson_destroy (&out);
}

/* doc_at -- the sub-document at a dotted path of d (fails the test when absent). */
static void
doc_at (const bson_t *d, const char *path, bson_t *sub)
{
   bson_iter_t it, child;
   const uint8_t *data;
   uint32_t len;

   if (!bson_iter_init (&it, d) || !bson_iter_find_descendant (&it, path, &child) ||
       !BSON_ITER_HOLDS_DOCUMENT (&child)) {
      fail_msg ("no document at '%s'", path);
   }
   bson_iter_document (&child, &len, &data);
   assert_true (bson_init_static (sub, data, len));
}

/* test_sorted_describe -- the description names the index walked; on MongoDB it is the command itself:
 * hint to {k: 1}, sort on k first, and _id in the sort only where the server sorts anyway (FerretDB) */
static void
test_sorted_describe (void **state)
{
   fx_t *fx = *state;
   lab_store_sorted_opts_t so = { 0 };
   bson_t *want_index = BCON_NEW ("k", BCON_INT32 (1));
   bson_t out = BSON_INITIALIZER, sub, sort;
   bson_value_t lo;
   bson_iter_t it;
   bson_error_t err;
   bool blocking;

   ensure_main (fx);
   lo.value_type = BSON_TYPE_INT32;
   lo.value.v_int32 = 100;
   so.lo = &lo;
   so.batch_docs = 50;
   ASSERT_OK (lab_store_sorted_describe (fx->sess, "c_main", "k", &so, &out, &err), err);
   assert_true (bson_iter_init_find (&it, &out, "backend"));
   assert_string_equal (bson_iter_utf8 (&it, NULL), backend);
   doc_at (&out, "index", &sub);
   assert_true (bson_equal (&sub, want_index));
   assert_true (bson_iter_init_find (&it, &out, "blocking_sort") && BSON_ITER_HOLDS_BOOL (&it));
   blocking = bson_iter_bool (&it);
   assert_true (bson_iter_init_find (&it, &out, "ties") && BSON_ITER_HOLDS_UTF8 (&it));
   if (strcmp (backend, "mongodb") == 0) {
      lab_store_server_info_t info;

      doc_at (&out, "command.hint", &sub);
      assert_true (bson_equal (&sub, want_index));
      doc_at (&out, "command.pipeline.1.$sort", &sort);
      assert_true (bson_iter_init (&it, &sort) && bson_iter_next (&it));
      assert_string_equal (bson_iter_key (&it), "k");
      /* _id joins the sort exactly when the server sorts in memory anyway */
      assert_true (bson_iter_init_find (&it, &sort, "_id") == blocking);
      assert_int_equal (bson_count_keys (&sort), blocking ? 2 : 1);
      doc_at (&out, "command.pipeline.0.$match.k", &sub);
      assert_true (bson_iter_init_find (&it, &sub, "$gte") && bson_iter_int32 (&it) == 100);
      assert_false (bson_iter_init_find (&it, &sub, "$lt"));
      doc_at (&out, "command.cursor", &sub);
      assert_true (bson_iter_init_find (&it, &sub, "batchSize") && bson_iter_int32 (&it) == 50);
      assert_true (bson_iter_init_find (&it, &out, "command") && bson_iter_recurse (&it, &it));
      assert_true (bson_iter_find (&it, "aggregate"));
      assert_string_equal (bson_iter_utf8 (&it, NULL), "c_main");
      ASSERT_OK (lab_store_server_info (fx->store, &info, &err), err);
      /* the test server is FerretDB: it ignores hint, so it sorts (unless a real mongod is given) */
      if (!getenv ("LAYOUTLAB_TEST_URI") || !*getenv ("LAYOUTLAB_TEST_URI")) {
         assert_true (blocking);
      }
   } else {
      assert_false (blocking);
      doc_at (&out, "walk.index", &sub);
      assert_true (bson_equal (&sub, want_index));
      assert_true (bson_iter_init (&it, &out) && bson_iter_find_descendant (&it, "walk.lo", &it));
      assert_int_equal (bson_iter_int32 (&it), 100);
   }
   bson_destroy (&out);
   bson_destroy (want_index);
}

/* natural_read -- read `coll` in natural order over `r` ({0, 0}: whole) with cursor batches of `batch`,
 * marking each row's seq in seen[] (a row read twice fails); the number of rows read. */
static int
natural_read (fx_t *fx, const char *coll, lab_store_natural_range_t r, int32_t batch, char *seen)
{
   lab_store_natural_opts_t no = { 0 };
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bson_error_t err;
   int n = 0, rc;

   no.range = r;
   no.batch_docs = batch;
   cur = lab_store_natural_open (fx->sess, coll, &no, &err);
   ASSERT_OK (cur != NULL, err);
   while ((rc = lab_store_cursor_next (cur, &doc, &err)) == 1) {
      int32_t seq = get_i32 (doc, "seq");
      assert_true (seq >= 0 && seq < ndocs);
      if (seen[seq]) {
         fail_msg ("row seq %d read twice in natural order", seq);
      }
      seen[seq] = 1;
      n++;
   }
   ASSERT_OK (rc == 0, err);
   lab_store_cursor_close (cur);
   return n;
}

/* test_natural -- a natural-order read returns every row once, with no index (a collection without
 * one reads the same), small batches included; ranges tile the collection (embedded: several, each
 * row in exactly one; a server: one, and a part is refused as not supported); the description says no
 * index and no sort (the find with hint $natural on MongoDB); a missing collection is NO_COLLECTION. */
static void
test_natural (void **state)
{
   fx_t *fx = *state;
   lab_store_natural_range_t *ranges = NULL, whole = { 0, 0 }, part = { 1, 100 };
   lab_store_natural_opts_t no = { 0 };
   char *seen = bson_malloc0 (ndocs);
   bson_t out = BSON_INITIALIZER, sub;
   bson_iter_t it;
   bson_error_t err;
   int nranges = 0, i, total = 0;
   bool mongo = strcmp (backend, "mongodb") == 0;

   ensure_main (fx);
   assert_int_equal (natural_read (fx, "c_main", whole, 0, seen), ndocs);
   memset (seen, 0, ndocs);
   assert_int_equal (natural_read (fx, "c_main", whole, 7, seen), ndocs); /* small batches */

   /* ranges: together every row exactly once */
   ASSERT_OK (lab_store_natural_ranges (fx->sess, "c_main", 5, &ranges, &nranges, &err), err);
   assert_int_equal (nranges, mongo ? 1 : 5);
   assert_true (ranges[0].rid_lo == 0 && ranges[nranges - 1].rid_hi == 0);
   memset (seen, 0, ndocs);
   for (i = 0; i < nranges; i++) {
      int n = natural_read (fx, "c_main", ranges[i], 0, seen);
      assert_true (n > 0);
      if (!mongo) {
         /* equal RecordId spans of a dense collection: equal counts within one */
         assert_true (n >= ndocs / 5 - 1 && n <= ndocs / 5 + 1);
      }
      total += n;
   }
   assert_int_equal (total, ndocs);
   bson_free (ranges);
   ranges = NULL;
   /* more ranges than documents: at most one per document */
   fresh (fx, "c_nat_few");
   {
      bson_t *few[3];
      for (i = 0; i < 3; i++) {
         few[i] = BCON_NEW ("seq", BCON_INT32 (i));
      }
      insert_all (fx, "c_nat_few", few, 3);
      for (i = 0; i < 3; i++) {
         bson_destroy (few[i]);
      }
   }
   ASSERT_OK (lab_store_natural_ranges (fx->sess, "c_nat_few", 16, &ranges, &nranges, &err), err);
   assert_int_equal (nranges, mongo ? 1 : 3);
   memset (seen, 0, ndocs);
   for (i = 0, total = 0; i < nranges; i++) {
      total += natural_read (fx, "c_nat_few", ranges[i], 0, seen);
   }
   assert_int_equal (total, 3);
   bson_free (ranges);

   /* a part of the collection: a server cannot bound a find by RecordId */
   no.range = part;
   if (mongo) {
      assert_null (lab_store_natural_open (fx->sess, "c_main", &no, &err));
      assert_int_equal (err.code, LAB_STORE_ERR_NOT_SUPPORTED);
   } else {
      memset (seen, 0, ndocs);
      assert_int_equal (natural_read (fx, "c_main", part, 0, seen), 99);
   }
   /* a range backwards is a usage error, on both */
   no.range.rid_lo = 10;
   no.range.rid_hi = 5;
   assert_null (lab_store_natural_open (fx->sess, "c_main", &no, &err));
   assert_int_equal (err.domain, LAB_ERROR_USAGE);

   /* the description: no index, no sort */
   no.range = whole;
   no.batch_docs = 50;
   ASSERT_OK (lab_store_natural_describe (fx->sess, "c_main", &no, &out, &err), err);
   assert_true (bson_iter_init_find (&it, &out, "backend"));
   assert_string_equal (bson_iter_utf8 (&it, NULL), backend);
   assert_true (bson_iter_init_find (&it, &out, "index") && BSON_ITER_HOLDS_NULL (&it));
   assert_true (bson_iter_init_find (&it, &out, "blocking_sort") && !bson_iter_bool (&it));
   if (mongo) {
      doc_at (&out, "command.hint", &sub);
      assert_true (bson_iter_init_find (&it, &sub, "$natural") && bson_iter_as_int64 (&it) == 1);
      assert_true (bson_iter_init (&it, &out) && bson_iter_find_descendant (&it, "command.batchSize", &it));
      assert_int_equal (bson_iter_int32 (&it), 50);
   } else {
      doc_at (&out, "walk", &sub);
      assert_true (bson_iter_init_find (&it, &sub, "collection"));
      assert_string_equal (bson_iter_utf8 (&it, NULL), "c_main");
   }
   bson_destroy (&out);

   /* missing */
   assert_null (lab_store_natural_open (fx->sess, "c_no_such", NULL, &err));
   assert_int_equal (err.code, LAB_STORE_ERR_NO_COLLECTION);
   assert_false (lab_store_natural_ranges (fx->sess, "c_no_such", 2, &ranges, &nranges, &err));
   assert_int_equal (err.code, LAB_STORE_ERR_NO_COLLECTION);
   bson_free (seen);
}

/* test_selection_timeout -- 30 s unless the URI sets one (or the caller's connect_timeout_ms) */
static void
test_selection_timeout (void **state)
{
   fx_t *fx = *state;
   lab_store_opts_t opts = { 0 };
   lab_store_t *st;
   bson_error_t err;
   char *uri;

   if (strcmp (backend, "mongodb") != 0) {
      assert_int_equal (lab_store_selection_timeout_ms (fx->store), 0);
      return;
   }
   if (strstr (fx->uri, "serverSelectionTimeoutMS") || strstr (fx->uri, "serverselectiontimeoutms")) {
      lab_test_skip ("the server's URI ($LAYOUTLAB_TEST_URI) sets serverSelectionTimeoutMS itself: the "
                     "default cannot be checked");
   }
   assert_int_equal (lab_store_selection_timeout_ms (fx->store), LAB_SELECTION_TIMEOUT_MS);
   assert_int_equal (LAB_SELECTION_TIMEOUT_MS, 30000);
   uri = bson_strdup_printf ("%s%s%sserverSelectionTimeoutMS=12345", fx->uri,
                             strchr (fx->uri + strlen ("mongodb://"), '/') ? "" : "/",
                             strchr (fx->uri, '?') ? "&" : "?");
   opts.db = fx->db;
   opts.connect_timeout_ms = 7000; /* the URI's own wins */
   st = lab_store_open (uri, &opts, &err);
   if (!st) {
      fail_msg ("open %s: %s", uri, err.message);
   }
   assert_int_equal (lab_store_selection_timeout_ms (st), 12345);
   lab_store_close (st);
   st = lab_store_open (fx->uri, &opts, &err);
   if (!st) {
      fail_msg ("open %s: %s", fx->uri, err.message);
   }
   assert_int_equal (lab_store_selection_timeout_ms (st), 7000);
   lab_store_close (st);
   bson_free (uri);
}

/* ---- server facts and the cold cycle ------------------------------------------------------------ */

static bool
cycle_hook (lab_store_t *store, void *ctx, bson_error_t *error)
{
   (*(int *)ctx)++;
   return true;
}

static bool
failing_hook (lab_store_t *store, void *ctx, bson_error_t *error)
{
   lab_error_set (error, LAB_ERROR_SCAN, 1, "restart command failed (test)");
   return false;
}

/* test_sweep_ops -- what the cache sweep needs from the store: a key's RecordIds (ascending, one per
 * matching document), the collection's leaf pages, and the engine cache set (1MiB minimum). The test
 * server (FerretDB) has no RecordIds, leaf page counts or cache parameter: NOT_SUPPORTED, clearly. */
static void
test_sweep_ops (void **state)
{
   fx_t *fx = *state;
   bool embedded = strcmp (backend, "wiredtiger") == 0;
   bool own_server = !getenv ("LAYOUTLAB_TEST_URI") || !*getenv ("LAYOUTLAB_TEST_URI");
   lab_store_engine_stats_t es;
   bson_value_t v;
   bson_error_t err;
   int64_t *rids = NULL, pages = 0;
   size_t n = 0, i;
   bool ok;

   ensure_main (fx);
   v.value_type = BSON_TYPE_INT32;
   v.value.v_int32 = 7;
   ok = lab_store_record_ids (fx->sess, "c_main", "k", &v, &rids, &n, &err);
   if (ok) {
      assert_int_equal (n, ndocs / nkeys);
      for (i = 1; i < n; i++) {
         if (!(rids[i] > rids[i - 1])) {
            fail_msg ("RecordIds not ascending: [%zu] %lld, [%zu] %lld", i - 1, (long long)rids[i - 1], i,
                      (long long)rids[i]);
         }
      }
      assert_true (rids[0] > 0);
   } else {
      assert_false (embedded);
      assert_int_equal (err.code, LAB_STORE_ERR_NOT_SUPPORTED);
      assert_non_null (strstr (err.message, "RecordIds"));
   }
   bson_free (rids);
   v.value.v_int32 = nkeys + 5; /* no such key: none, not an error */
   if (ok) {
      ASSERT_OK (lab_store_record_ids (fx->sess, "c_main", "k", &v, &rids, &n, &err), err);
      assert_int_equal (n, 0);
      bson_free (rids);
   }

   ok = lab_store_leaf_pages (fx->sess, "c_main", &pages, &err);
   if (ok) {
      assert_true (pages > 0 && pages < ndocs);
   } else {
      assert_false (embedded);
      assert_int_equal (err.code, LAB_STORE_ERR_NOT_SUPPORTED);
   }
   if (embedded) {
      /* the statistics walk leaves the connection as it was: fast statistics still read */
      ASSERT_OK (lab_store_engine_stats (fx->store, &es, &err), err);
   }

   assert_false (lab_store_set_cache_size (fx->store, 512 * 1024, &err));
   assert_int_equal (err.domain, LAB_ERROR_USAGE);
   assert_non_null (strstr (err.message, "minimum of 1MiB"));
   if (embedded) {
      ASSERT_OK (lab_store_set_cache_size (fx->store, 32u << 20, &err), err);
      ASSERT_OK (lab_store_engine_stats (fx->store, &es, &err), err);
      assert_int_equal (es.cache_max_bytes, 32 << 20);
      ASSERT_OK (lab_store_set_cache_size (fx->store, 256u << 20, &err), err);
   } else if (own_server) {
      /* FerretDB: refused, and nothing changed (a real mongod is not reconfigured by the tests) */
      assert_false (lab_store_set_cache_size (fx->store, 64u << 20, &err));
      assert_int_equal (err.code, LAB_STORE_ERR_NOT_SUPPORTED);
      assert_non_null (strstr (err.message, "wiredTigerEngineRuntimeConfig"));
   }
}

static void
test_info_and_cycle (void **state)
{
   fx_t *fx = *state;
   lab_store_server_info_t info;
   lab_store_engine_stats_t es;
   bson_error_t err;
   bson_t *docs[1];
   lab_store_insert_result_t res;
   int calls = 0;
   int64_t n;

   ASSERT_OK (lab_store_server_info (fx->store, &info, &err), err);
   assert_string_equal (info.backend, backend);
   assert_true (info.version[0] != '\0');
   assert_int_equal (info.max_bson_bytes, LAB_BSON_MAX_BYTES);
   assert_true (info.max_message_bytes >= LAB_BSON_MAX_BYTES);
   ASSERT_OK (lab_store_engine_stats (fx->store, &es, &err), err);
   if (info.pid_local) {
      assert_true (info.local && info.pid > 0);
      assert_true (es.server_rss_bytes > 0); /* FerretDB has no mem.resident: this came from /proc */
   }
   /* embedded: this process; the fixture's test server runs here under a trusted name */
   if (strcmp (backend, "wiredtiger") == 0 || !getenv ("LAYOUTLAB_TEST_URI") ||
       !*getenv ("LAYOUTLAB_TEST_URI")) {
      assert_true (info.pid_local);
   }

   fresh (fx, "c_cycle");
   docs[0] = BCON_NEW ("_id", BCON_INT32 (1));
   ASSERT_OK (lab_store_insert_many (fx->sess, "c_cycle", (const bson_t *const *)docs, 1, &res, &err), err);
   bson_destroy (docs[0]);
   lab_store_insert_result_cleanup (&res);

   lab_store_session_close (fx->sess);
   fx->sess = NULL;
   ASSERT_OK (lab_store_cycle (fx->store, cycle_hook, &calls, 30000, &err), err);
   assert_int_equal (calls, 1);
   assert_false (lab_store_cycle (fx->store, failing_hook, NULL, 30000, &err));
   assert_non_null (strstr (err.message, "restart command failed"));
   ASSERT_OK (lab_store_cycle (fx->store, NULL, NULL, 30000, &err), err);
   fx->sess = lab_store_session_open (fx->store, &err);
   if (!fx->sess) {
      fail_msg ("session after cycle: %s", err.message);
   }
   ASSERT_OK (lab_store_count (fx->sess, "c_cycle", &n, &err), err);
   assert_int_equal (n, 1);
   fresh (fx, "c_cycle");
}

/* ---- a real restart (server only) --------------------------------------------------------------- */

typedef struct {
   const char *script;
   const char *dir;
   int calls;
} restart_ctx_t;

/* restart_hook -- what scancmp's --restart-cmd does: restart the server while the pool is down. */
static bool
restart_hook (lab_store_t *store, void *p, bson_error_t *error)
{
   restart_ctx_t *rc = p;
   char *cmd = bson_strdup_printf ("'%s' restart --dir '%s'", rc->script, rc->dir);
   char *err_text = NULL;
   int code = lab_test_run (cmd, NULL, &err_text);

   rc->calls++;
   bson_free (cmd);
   if (code != 0) {
      lab_error_set (error, LAB_ERROR_SCAN, 1, "restart failed (exit %d): %s", code, err_text);
   }
   bson_free (err_text);
   return code == 0;
}

/* test_cycle_restart -- a private test server (so the shared fixture is never restarted under other
 * tests): cycle with a restart in the hook keeps the data and the port, and the server facts show the
 * new process. Registered for the server backend only (the embedded store's cycle is tested above);
 * skipped on a real mongod ($LAYOUTLAB_TEST_URI). */
static void
test_cycle_restart (void **state)
{
   const char *src = getenv ("LAB_SOURCE_DIR");
   char *dir, *script, *cmd, *out = NULL, *uri;
   restart_ctx_t rc = { 0 };
   lab_store_opts_t opts = { 0 };
   lab_store_server_info_t before, after;
   lab_store_t *store;
   lab_store_session_t *sess;
   bson_t *docs[2];
   lab_store_insert_result_t res;
   bson_error_t err;
   int64_t n;

   assert_string_equal (backend, "mongodb");
   if (getenv ("LAYOUTLAB_TEST_URI") && *getenv ("LAYOUTLAB_TEST_URI")) {
      lab_test_skip ("$LAYOUTLAB_TEST_URI names a real server: mongo-test-server.sh then starts no private "
                     "server, and a real one cannot be restarted from here");
   }
   assert_non_null (src);
   dir = lab_test_tmpdir ("restart");
   script = bson_strdup_printf ("%s/scripts/mongo-test-server.sh", src);
   cmd = bson_strdup_printf ("'%s' start --dir '%s'", script, dir);
   assert_int_equal (lab_test_run (cmd, &out, NULL), 0);
   bson_free (cmd);
   uri = bson_strdup (strtok (out, "\n"));
   assert_non_null (strstr (uri, "mongodb://127.0.0.1:"));

   opts.db = "restart_test";
   store = lab_store_open (uri, &opts, &err);
   if (!store) {
      fail_msg ("open %s: %s", uri, err.message);
   }
   sess = lab_store_session_open (store, &err);
   docs[0] = BCON_NEW ("_id", BCON_INT32 (1));
   docs[1] = BCON_NEW ("_id", BCON_INT32 (2));
   ASSERT_OK (lab_store_insert_many (sess, "kept", (const bson_t *const *)docs, 2, &res, &err), err);
   lab_store_insert_result_cleanup (&res);
   bson_destroy (docs[0]);
   bson_destroy (docs[1]);
   lab_store_session_close (sess);
   ASSERT_OK (lab_store_server_info (store, &before, &err), err);

   rc.script = script;
   rc.dir = dir;
   ASSERT_OK (lab_store_cycle (store, restart_hook, &rc, 60000, &err), err);
   assert_int_equal (rc.calls, 1);
   ASSERT_OK (lab_store_server_info (store, &after, &err), err);
   if (before.pid > 0) {
      assert_true (after.pid != before.pid); /* a new process ... */
   }
   sess = lab_store_session_open (store, &err);
   ASSERT_OK (lab_store_count (sess, "kept", &n, &err), err);
   assert_int_equal (n, 2); /* ... on the same port, with the same data */
   lab_store_session_close (sess);
   lab_store_close (store);

   /* stop is graceful and idempotent; status then says it is not running */
   cmd = bson_strdup_printf ("'%s' stop --dir '%s'", script, dir);
   assert_int_equal (lab_test_run (cmd, NULL, NULL), 0);
   assert_int_equal (lab_test_run (cmd, NULL, NULL), 0);
   bson_free (cmd);
   cmd = bson_strdup_printf ("'%s' status --dir '%s'", script, dir);
   assert_int_equal (lab_test_run (cmd, NULL, NULL), 1);
   bson_free (cmd);
   lab_test_rmtree (dir);
   bson_free (uri);
   bson_free (out);
   bson_free (script);
   bson_free (dir);
}

/* The tests of both backends; the server's add a real restart of a private test server. */
#define LAB_STORE_TESTS                                                                                      \
   cmocka_unit_test (test_collections), cmocka_unit_test (test_count_stats),                                 \
      cmocka_unit_test (test_find_eq), cmocka_unit_test (test_sorted_stream),                                \
      cmocka_unit_test (test_no_index), cmocka_unit_test (test_sorted_describe),                             \
      cmocka_unit_test (test_natural), cmocka_unit_test (test_selection_timeout),                            \
      cmocka_unit_test (test_partition_distinct), cmocka_unit_test (test_partition_few_keys),                \
      cmocka_unit_test (test_threads), cmocka_unit_test (test_key_types),                                    \
      cmocka_unit_test (test_upsert_delete), cmocka_unit_test (test_duplicate_id),                           \
      cmocka_unit_test (test_doc_size_limit), cmocka_unit_test (test_missing_collection),                    \
      cmocka_unit_test (test_info_and_cycle), cmocka_unit_test (test_sweep_ops)

int
main (int argc, char **argv)
{
   const struct CMUnitTest embedded_tests[] = { LAB_STORE_TESTS };
   const struct CMUnitTest server_tests[] = { LAB_STORE_TESTS, cmocka_unit_test (test_cycle_restart) };

   backend = argc > 1 ? argv[1] : getenv ("LAB_STORE_BACKEND");
   if (!backend || (strcmp (backend, "wiredtiger") != 0 && strcmp (backend, "mongodb") != 0)) {
      fprintf (stderr, "usage: %s wiredtiger|mongodb (or set LAB_STORE_BACKEND)\n", argv[0]);
      return 2;
   }
   if (strcmp (backend, "mongodb") == 0) {
      nkeys = 200;
      ndocs = 12 * nkeys;
      return lab_test_run_group (backend, server_tests, setup, teardown);
   }
   return lab_test_run_group (backend, embedded_tests, setup, teardown);
}
