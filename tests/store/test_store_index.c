/*
 * test_store_index.c -- compound and multikey indexes (lab_store_index_spec_t) through store/store.h, on
 * the backend named by $LAB_STORE_BACKEND ("wiredtiger": a fresh temporary directory; "mongodb": the test
 * server). Embedded, the index tables are also read directly through WiredTiger (store/wt_private.h): one
 * entry per distinct key of a document, the entries maintained by inserts, upserts and deletes equal to
 * those of a build over existing documents, the catalog entry of a single-field index as it always was.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/keyenc.h"
#include "store/store.h"
#include "store/wt_private.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *backend;

typedef struct {
   char *uri;
   char *db;
   lab_store_t *store;
   lab_store_session_t *s;
} fx_t;

#define CHECK(call) LAB_TEST_CHECK (call)

/* embedded -- the backend is the embedded store. */
static bool
embedded (void)
{
   return strcmp (backend, "wiredtiger") == 0;
}

/* ordered -- results come in index order: embedded, or a real server ($LAYOUTLAB_TEST_URI); the test
 * server (FerretDB) ignores hint and returns its own order. */
static bool
ordered (void)
{
   return embedded () || (getenv ("LAYOUTLAB_TEST_URI") && *getenv ("LAYOUTLAB_TEST_URI"));
}

/* cmp_desc -- descending int32 for qsort. */
static int
cmp_desc (const void *a, const void *b)
{
   int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
   return x > y ? -1 : x < y;
}

/* open_fx -- open the store of fx->uri and a session. */
static void
open_fx (fx_t *fx)
{
   lab_store_opts_t o = { .create = true, .cache_size_bytes = 64 * 1024 * 1024, .db = fx->db };
   bson_error_t e;

   fx->store = lab_store_open (fx->uri, &o, &e);
   if (!fx->store) {
      fail_msg ("open the store: %s", e.message);
   }
   fx->s = lab_store_session_open (fx->store, &e);
   if (!fx->s) {
      fail_msg ("session: %s", e.message);
   }
}

/* close_fx -- close the session and the store. */
static void
close_fx (fx_t *fx)
{
   lab_store_session_close (fx->s);
   lab_store_close (fx->store);
   fx->s = NULL;
   fx->store = NULL;
}

/* setup -- a fresh embedded home, or a database of its own on the test server. */
static int
setup (void **state)
{
   fx_t *fx = bson_malloc0 (sizeof *fx);

   fx->uri = lab_test_store_uri (backend, "store-index", &fx->db);
   assert_non_null (fx->uri);
   open_fx (fx);
   *state = fx;
   return 0;
}

/* teardown -- drop what a server test wrote, remove an embedded home. */
static int
teardown (void **state)
{
   fx_t *fx = *state;
   const char *colls[] = { "mk",    "mk2",  "mk_whole", "rng", "cmp",   "pa",
                           "built", "kept", "single",   "li",  "dropix" };
   size_t i;

   if (!embedded ()) {
      for (i = 0; i < sizeof colls / sizeof colls[0]; i++) {
         lab_store_drop (fx->s, colls[i], NULL);
      }
   }
   close_fx (fx);
   if (embedded ()) {
      lab_test_rmtree (fx->uri + strlen ("wiredtiger:"));
   }
   bson_free (fx->uri);
   bson_free (fx->db);
   bson_free (fx);
   return 0;
}

/* insert -- the documents, every one written (fails the test otherwise). */
static void
insert (fx_t *fx, const char *coll, bson_t **docs, size_t n)
{
   lab_store_insert_result_t r = { 0 };

   CHECK (lab_store_insert_many (fx->s, coll, (const bson_t *const *)docs, n, &r, &e_));
   if (r.nerrors) {
      fail_msg ("insert into %s: %s", coll, r.errors[0].message);
   }
   assert_int_equal (r.inserted, (int64_t)n);
   lab_store_insert_result_cleanup (&r);
}

/* free_docs -- destroy n documents. */
static void
free_docs (bson_t **docs, size_t n)
{
   size_t i;

   for (i = 0; i < n; i++) {
      bson_destroy (docs[i]);
   }
}

/* ---- the index table, read directly (embedded) ------------------------------------------------------ */

/* index_of -- the store's entry of coll's index with spec's key pattern. */
static wt_index_t *
index_of (fx_t *fx, const char *coll, const lab_store_index_spec_t *spec)
{
   wt_store_t *st = fx->store->impl;
   wt_coll_t *c = lab_wt_coll_find (st, coll);
   wt_index_t *ix;

   assert_non_null (c);
   ix = lab_wt_coll_index_spec (c, spec);
   assert_non_null (ix);
   return ix;
}

/* index_keys -- every key of the index table, in order, each as "<hex>\n" in one string (caller frees);
 * *n the number of entries. */
static char *
index_keys (fx_t *fx, const char *coll, const lab_store_index_spec_t *spec, int64_t *n)
{
   wt_store_t *st = fx->store->impl;
   wt_index_t *ix = index_of (fx, coll, spec);
   bson_string_t *out = bson_string_new (NULL);
   WT_SESSION *s;
   WT_CURSOR *c;
   WT_ITEM k;
   size_t i;
   int ret;

   *n = 0;
   assert_int_equal (st->conn->open_session (st->conn, NULL, NULL, &s), 0);
   assert_int_equal (s->open_cursor (s, ix->uri, NULL, NULL, &c), 0);
   while ((ret = c->next (c)) == 0) {
      assert_int_equal (c->get_key (c, &k), 0);
      for (i = 0; i < k.size; i++) {
         bson_string_append_printf (out, "%02x", ((const uint8_t *)k.data)[i]);
      }
      bson_string_append (out, "\n");
      (*n)++;
   }
   assert_int_equal (ret, WT_NOTFOUND);
   s->close (s, NULL);
   return bson_string_free (out, false);
}

/* index_count -- the number of entries of the index table. */
static int64_t
index_count (fx_t *fx, const char *coll, const lab_store_index_spec_t *spec)
{
   int64_t n;
   char *keys = index_keys (fx, coll, spec, &n);

   bson_free (keys);
   return n;
}

/* ---- lookups ------------------------------------------------------------------------------------- */

#define MAXDOCS 4096

/* The _ids (int32) of the documents a lookup returned, in order. */
typedef struct {
   int32_t ids[MAXDOCS];
   int n;
} got_t;

/* got_cb -- keep the document's _id. */
static bool
got_cb (const bson_t *doc, void *ctx)
{
   got_t *g = ctx;
   bson_iter_t it;

   assert_true (bson_iter_init_find (&it, doc, "_id"));
   assert_true (g->n < MAXDOCS);
   g->ids[g->n++] = bson_iter_as_int64 (&it);
   return true;
}

/* find -- index_find into *g (reset first). */
static void
find (fx_t *fx, const char *coll, const lab_store_index_spec_t *spec, const bson_value_t *eq, int neq,
      const bson_value_t *lo, const bson_value_t *hi, got_t *g, int64_t *keys, int64_t *docs)
{
   g->n = 0;
   CHECK (lab_store_index_find (fx->s, coll, spec, eq, neq, lo, hi, got_cb, g, keys, docs, &e_));
}

/* i32 -- an int32 value. */
static bson_value_t
i32 (int32_t v)
{
   bson_value_t x = { .value_type = BSON_TYPE_INT32 };

   x.value.v_int32 = v;
   return x;
}

/* ---- tests --------------------------------------------------------------------------------------- */

/* test_names -- mongod's default names and the shell command. */
static void
test_names (void **state)
{
   lab_store_index_spec_t cmp = { { "bill_id", "line_no" }, 2 }, mk = { { "details.charge_time" }, 1 };
   char name[64], *shell;

   (void)state;
   lab_store_index_spec_name (&cmp, name, sizeof name);
   assert_string_equal (name, "bill_id_1_line_no_1");
   lab_store_index_spec_name (&mk, name, sizeof name);
   assert_string_equal (name, "details.charge_time_1");
   shell = lab_store_index_spec_shell ("detail_coll", &cmp);
   assert_string_equal (shell, "db.detail_coll.createIndex({ bill_id: 1, line_no: 1 })");
   bson_free (shell);
   shell = lab_store_index_spec_shell ("detail_coll", &mk);
   assert_string_equal (shell, "db.detail_coll.createIndex({ \"details.charge_time\": 1 })");
   bson_free (shell);
}

/* test_multikey_entries -- one entry per distinct key of a document (duplicates once, 3 and 3.0 once, []
 * undefined, a missing field null), the multikey flag (kept across a reopen), and the entries replaced
 * by an upsert with a changed array and removed with the document. */
static void
test_multikey_entries (void **state)
{
   fx_t *fx = *state;
   lab_store_index_spec_t spec = { { "details.charge_time" }, 1 }, whole = { { "details" }, 1 };
   bson_t *docs[6];
   bool exists, multikey;
   int64_t size, keys, ndocs, deleted;
   bson_value_t v;
   got_t g;

   CHECK (lab_store_create_index_spec (fx->s, "mk", &spec, &e_));
   docs[0] = BCON_NEW ("_id", BCON_INT32 (1), "details", "[", "{", "charge_time", BCON_INT32 (7), "}", "]");
   insert (fx, "mk", docs, 1);
   CHECK (lab_store_index_info (fx->s, "mk", &spec, &exists, &multikey, &size, &e_));
   assert_true (exists);
   if (embedded ()) {
      /* one key, but through an array: multikey (mongod's isMultikeyFromPaths) */
      assert_true (multikey);
      assert_true (size > 0);
   }
   free_docs (docs, 1);
   docs[0] = BCON_NEW ("_id", BCON_INT32 (2), "details", "[", "{", "charge_time", BCON_INT32 (10), "}", "{",
                       "charge_time", BCON_INT32 (20), "}", "{", "charge_time", BCON_INT32 (10), "}", "]");
   docs[1] = BCON_NEW ("_id", BCON_INT32 (3), "details", "[", "{", "charge_time", BCON_INT32 (30), "}", "]");
   docs[2] = BCON_NEW ("_id", BCON_INT32 (4), "details", "[", "]");
   docs[3] = BCON_NEW ("_id", BCON_INT32 (5), "other", BCON_INT32 (1));
   docs[4] = BCON_NEW ("_id", BCON_INT32 (6), "details", "[", "{", "x", BCON_INT32 (1), "}", "{",
                       "charge_time", BCON_DOUBLE (3.0), "}", "{", "charge_time", BCON_INT32 (3), "}", "]");
   docs[5] = BCON_NEW ("_id", BCON_INT32 (7), "details", "{", "charge_time", BCON_INT32 (10), "}");
   insert (fx, "mk", docs, 6);
   free_docs (docs, 6);
   if (embedded ()) {
      /* 1 + 2 (10 twice) + 1 + 1 (null: [] mid-path) + 1 (null) + 2 (null, 3 and 3.0 once) + 1 */
      assert_int_equal (index_count (fx, "mk", &spec), 9);
      /* an index on the array itself: its elements (subdocuments are not keys the embedded store encodes,
       * so only over the documents whose details are scalars or empty) */
      CHECK (lab_store_create_index_spec (fx->s, "mk_whole", &whole, &e_));
      docs[0] = BCON_NEW ("_id", BCON_INT32 (4), "details", "[", "]");
      docs[1] = BCON_NEW ("_id", BCON_INT32 (5), "details", "[", BCON_INT32 (1), BCON_INT32 (1),
                          BCON_INT32 (2), "]");
      insert (fx, "mk_whole", docs, 2);
      free_docs (docs, 2);
      assert_int_equal (index_count (fx, "mk_whole", &whole), 3); /* undefined, 1, 2 */
   }
   v = i32 (10);
   find (fx, "mk", &spec, &v, 1, NULL, NULL, &g, &keys, &ndocs);
   assert_int_equal (g.n, 2);
   assert_int_equal (g.ids[0], 2);
   assert_int_equal (g.ids[1], 7);
   assert_int_equal (ndocs, 2);
   if (embedded ()) {
      assert_int_equal (keys, 2);
      /* null: the missing field, the element without it, and the path going on into an empty array
       * (mongod recurses into it with an empty object); undefined only where the array ends the path */
      v.value_type = BSON_TYPE_NULL;
      find (fx, "mk", &spec, &v, 1, NULL, NULL, &g, &keys, &ndocs);
      assert_int_equal (g.n, 3);
      assert_int_equal (g.ids[0], 4);
      assert_int_equal (g.ids[1], 5);
      assert_int_equal (g.ids[2], 6);
      v.value_type = BSON_TYPE_UNDEFINED;
      find (fx, "mk", &spec, &v, 1, NULL, NULL, &g, &keys, &ndocs);
      assert_int_equal (g.n, 0);
      find (fx, "mk_whole", &whole, &v, 1, NULL, NULL, &g, &keys, &ndocs);
      assert_int_equal (g.n, 1);
      assert_int_equal (g.ids[0], 4);
   }

   /* an upsert with a changed array: the old entries go, the new ones come */
   docs[0] = BCON_NEW ("_id", BCON_INT32 (2), "details", "[", "{", "charge_time", BCON_INT32 (40), "}", "{",
                       "charge_time", BCON_INT32 (41), "}", "{", "charge_time", BCON_INT32 (42), "}", "]");
   CHECK (lab_store_upsert_by_id (fx->s, "mk", docs[0], &e_));
   free_docs (docs, 1);
   if (embedded ()) {
      assert_int_equal (index_count (fx, "mk", &spec), 10);
   }
   v = i32 (20);
   find (fx, "mk", &spec, &v, 1, NULL, NULL, &g, &keys, &ndocs);
   assert_int_equal (g.n, 0);
   v = i32 (41);
   find (fx, "mk", &spec, &v, 1, NULL, NULL, &g, &keys, &ndocs);
   assert_int_equal (g.n, 1);
   assert_int_equal (g.ids[0], 2);

   /* a delete removes every entry of the document */
   v = i32 (2);
   CHECK (lab_store_delete_eq (fx->s, "mk", "_id", &v, &deleted, &e_));
   assert_int_equal (deleted, 1);
   if (embedded ()) {
      assert_int_equal (index_count (fx, "mk", &spec), 7);
   }
   v = i32 (41);
   find (fx, "mk", &spec, &v, 1, NULL, NULL, &g, &keys, &ndocs);
   assert_int_equal (g.n, 0);

   /* an index whose documents hold no array is not multikey; the flag survives a reopen */
   docs[0] = BCON_NEW ("_id", BCON_INT32 (1), "details", "{", "charge_time", BCON_INT32 (7), "}");
   insert (fx, "mk2", docs, 1);
   free_docs (docs, 1);
   CHECK (lab_store_create_index_spec (fx->s, "mk2", &spec, &e_));
   CHECK (lab_store_index_info (fx->s, "mk2", &spec, &exists, &multikey, &size, &e_));
   assert_true (exists);
   assert_false (multikey);
   if (embedded ()) {
      close_fx (fx);
      open_fx (fx);
      CHECK (lab_store_index_info (fx->s, "mk", &spec, &exists, &multikey, &size, &e_));
      assert_true (exists && multikey);
      CHECK (lab_store_index_info (fx->s, "mk2", &spec, &exists, &multikey, &size, &e_));
      assert_true (exists);
      assert_false (multikey);
   }
}

/* rng_docs -- n documents {_id: i, details: [{charge_time: t}, ...]}: 0 to 6 elements of 0..999 (some
 * equal in one document, some elements without charge_time), from a fixed LCG. */
static void
rng_docs (bson_t **docs, int n)
{
   uint32_t x = 12345;
   int i, j;

   for (i = 0; i < n; i++) {
      bson_t arr, el;
      int k;

      docs[i] = bson_new ();
      BSON_APPEND_INT32 (docs[i], "_id", i);
      x = x * 1103515245u + 12345u;
      k = (int)((x >> 16) % 7);
      BSON_APPEND_ARRAY_BEGIN (docs[i], "details", &arr);
      for (j = 0; j < k; j++) {
         char key[8];
         x = x * 1103515245u + 12345u;
         bson_snprintf (key, sizeof key, "%d", j);
         BSON_APPEND_DOCUMENT_BEGIN (&arr, key, &el);
         if ((x >> 16) % 11 != 0) {
            BSON_APPEND_INT32 (&el, "charge_time",
                               j > 0 && (x >> 16) % 5 == 0 ? 500 : (int32_t)((x >> 8) % 1000));
         }
         BSON_APPEND_INT32 (&el, "line", j);
         bson_append_document_end (&arr, &el);
      }
      bson_append_array_end (docs[i], &arr);
   }
}

/* in_range -- the least numeric charge_time of doc's details in [lo, hi) (hi < 0: unbounded), or -1. */
static int32_t
in_range (const bson_t *doc, int32_t lo, int32_t hi)
{
   bson_iter_t it, arr, el;
   int32_t best = -1;

   assert_true (bson_iter_init_find (&it, doc, "details") && bson_iter_recurse (&it, &arr));
   while (bson_iter_next (&arr)) {
      if (bson_iter_recurse (&arr, &el) && bson_iter_find (&el, "charge_time") &&
          BSON_ITER_HOLDS_INT32 (&el)) {
         int32_t t = bson_iter_int32 (&el);
         if (t >= lo && (hi < 0 || t < hi) && (best < 0 || t < best)) {
            best = t;
         }
      }
   }
   return best;
}

/* test_multikey_range -- a range through the multikey index returns exactly the documents a full scan
 * (lab_store_natural_open) with "some element in [lo, hi)" finds ($elemMatch), each once, in index order (by
 * the least element in range); keys examined >= documents. Embedded: both bounds; the server (where {$gte,
 * $lt} on an array may be met by two different elements) gets one-sided ranges, which mean the same there. */
static void
test_multikey_range (void **state)
{
   fx_t *fx = *state;
   lab_store_index_spec_t spec = { { "details.charge_time" }, 1 };
   enum { N = 300 };
   bson_t *docs[N];
   int32_t ranges[][2] = { { 0, 1000 }, { 100, 200 }, { 500, 501 }, { 990, 2000 }, { 7, 7 }, { 250, -1 } };
   size_t r;
   int i;

   rng_docs (docs, N);
   insert (fx, "rng", docs, N);
   CHECK (lab_store_create_index_spec (fx->s, "rng", &spec, &e_));
   for (r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
      bson_value_t lo = i32 (ranges[r][0]), hi = i32 (ranges[r][1]);
      bool one_sided = ranges[r][1] < 0;
      bool seen[N] = { false };
      int32_t last = -1;
      int64_t keys, ndocs;
      int want = 0;
      got_t g;

      if (!embedded () && !one_sided) {
         continue;
      }
      find (fx, "rng", &spec, NULL, 0, &lo, one_sided ? NULL : &hi, &g, &keys, &ndocs);
      for (i = 0; i < g.n; i++) {
         int32_t m;
         assert_true (g.ids[i] >= 0 && g.ids[i] < N);
         assert_false (seen[g.ids[i]]); /* each document once */
         seen[g.ids[i]] = true;
         m = in_range (docs[g.ids[i]], ranges[r][0], ranges[r][1]);
         assert_true (m >= 0);
         assert_true (m >= last || !ordered ()); /* index order: by the least key in range */
         last = m;
      }
      {
         /* the full scan (COLLSCAN through the store) with the same predicate */
         lab_store_cursor_t *cur;
         const bson_t *doc;
         bson_error_t e;
         bson_iter_t it;
         int rc;

         cur = lab_store_natural_open (fx->s, "rng", NULL, &e);
         if (!cur) {
            fail_msg ("natural scan: %s", e.message);
         }
         while ((rc = lab_store_cursor_next (cur, &doc, &e)) == 1) {
            if (in_range (doc, ranges[r][0], ranges[r][1]) >= 0) {
               want++;
               assert_true (bson_iter_init_find (&it, doc, "_id"));
               assert_true (seen[bson_iter_int32 (&it)]);
            }
         }
         assert_int_equal (rc, 0);
         lab_store_cursor_close (cur);
      }
      assert_int_equal (g.n, want);
      assert_int_equal (ndocs, want);
      if (embedded ()) {
         assert_true (keys >= ndocs);
      }
   }
   free_docs (docs, N);
}

/* test_compound -- {bill_id: 1, line_no: 1}: the key is both values' KeyString bodies, kEnd and the
 * RecordId; a lookup by both finds the one document, by bill_id alone its lines in line_no order, with a
 * range on line_no the lines in it; a key pattern in another order is another index (NO_INDEX naming the
 * command). */
static void
test_compound (void **state)
{
   fx_t *fx = *state;
   lab_store_index_spec_t spec = { { "bill_id", "line_no" }, 2 }, other = { { "line_no", "bill_id" }, 2 };
   enum { N = 100 };
   bson_t *docs[N];
   bson_value_t eq[2], lo, hi;
   int64_t keys, ndocs;
   bson_error_t e;
   bool exists, multikey;
   int64_t size;
   got_t g;
   int i;

   for (i = 0; i < N; i++) {
      /* lines of a bill inserted in descending line order: index order is not insertion order */
      docs[i] =
         BCON_NEW ("_id", BCON_INT32 (i), "bill_id", BCON_INT32 (i / 10), "line_no", BCON_INT32 (9 - i % 10));
   }
   CHECK (lab_store_create_index_spec (fx->s, "cmp", &spec, &e_));
   CHECK (lab_store_create_index_spec (fx->s, "cmp", &spec, &e_)); /* the same again: fine */
   insert (fx, "cmp", docs, N);
   free_docs (docs, N);
   CHECK (lab_store_index_info (fx->s, "cmp", &spec, &exists, &multikey, &size, &e_));
   assert_true (exists);
   assert_false (multikey);
   eq[0] = i32 (3);
   eq[1] = i32 (7);
   find (fx, "cmp", &spec, eq, 2, NULL, NULL, &g, &keys, &ndocs);
   assert_int_equal (g.n, 1);
   assert_int_equal (g.ids[0], 32); /* bill 3, line 9 - 2 = 7 */
   assert_int_equal (ndocs, 1);
   find (fx, "cmp", &spec, eq, 1, NULL, NULL, &g, &keys, &ndocs);
   assert_int_equal (g.n, 10);
   if (!ordered ()) {
      qsort (g.ids, (size_t)g.n, sizeof g.ids[0], cmp_desc);
   }
   for (i = 0; i < 10; i++) {
      assert_int_equal (g.ids[i], 39 - i); /* line_no 0..9 */
   }
   lo = i32 (2);
   hi = i32 (5);
   find (fx, "cmp", &spec, eq, 1, &lo, &hi, &g, &keys, &ndocs);
   assert_int_equal (g.n, 3);
   if (!ordered ()) {
      qsort (g.ids, (size_t)g.n, sizeof g.ids[0], cmp_desc);
   }
   assert_int_equal (g.ids[0], 37);
   assert_int_equal (g.ids[1], 36);
   assert_int_equal (g.ids[2], 35);
   if (embedded ()) {
      int64_t n;
      char *all = index_keys (fx, "cmp", &spec, &n);
      lab_buf_t want;
      bson_value_t a = i32 (3), b = i32 (7);
      char hex[128] = "";
      size_t j;

      assert_int_equal (keys, 3);
      assert_int_equal (n, N);
      /* mongod's compound KeyString: each value's body, one kEnd (0x04), the RecordId (33: _id 32) */
      lab_buf_init (&want);
      CHECK (lab_store_key_encode_body (&a, &want, &e_));
      CHECK (lab_store_key_encode_body (&b, &want, &e_));
      lab_buf_append (&want, "\x04", 1);
      lab_store_key_append_recordid (&want, 33);
      for (j = 0; j < want.len; j++) {
         bson_snprintf (hex + 2 * j, 3, "%02x", want.data[j]);
      }
      assert_non_null (strstr (all, hex));
      assert_int_equal (want.data[0], 43); /* 3: KeyString's CType of a 1-byte positive integer */
      lab_buf_destroy (&want);
      bson_free (all);
   }
   if (embedded ()) {
      /* the catalog keeps the key pattern across a reopen */
      close_fx (fx);
      open_fx (fx);
      CHECK (lab_store_index_info (fx->s, "cmp", &spec, &exists, &multikey, &size, &e_));
      assert_true (exists);
      assert_false (multikey);
      find (fx, "cmp", &spec, eq, 2, NULL, NULL, &g, &keys, &ndocs);
      assert_int_equal (g.n, 1);
      assert_int_equal (g.ids[0], 32);
   }
   assert_false (lab_store_index_find (fx->s, "cmp", &other, eq, 1, NULL, NULL, got_cb, &g, NULL, NULL, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX));
   assert_non_null (strstr (e.message, "db.cmp.createIndex({ line_no: 1, bill_id: 1 })"));
   /* a missing collection */
   assert_false (lab_store_index_info (fx->s, "nope", &spec, &exists, &multikey, &size, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION));
   /* a range needs a field after the equality prefix */
   assert_false (lab_store_index_find (fx->s, "cmp", &spec, eq, 2, &lo, NULL, got_cb, &g, NULL, NULL, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISUSE));
}

/* mixed_docs -- n documents with a bill_id and an array of details (0 to 4 elements with charge_time,
 * repeated values within a document), for builds against maintained indexes. */
static void
mixed_docs (bson_t **docs, int n)
{
   int i, j;

   for (i = 0; i < n; i++) {
      bson_t arr, el;
      docs[i] = bson_new ();
      BSON_APPEND_INT32 (docs[i], "_id", i);
      BSON_APPEND_INT32 (docs[i], "bill_id", i % 17);
      BSON_APPEND_ARRAY_BEGIN (docs[i], "details", &arr);
      for (j = 0; j < i % 5; j++) {
         char key[8];
         bson_snprintf (key, sizeof key, "%d", j);
         BSON_APPEND_DOCUMENT_BEGIN (&arr, key, &el);
         BSON_APPEND_INT64 (&el, "charge_time", (int64_t)((i * 7 + j * 13) % 50));
         bson_append_document_end (&arr, &el);
      }
      bson_append_array_end (docs[i], &arr);
   }
}

/* test_build_equals_maintained -- an index built over existing documents (split over 3 readers, spilled
 * sorted runs) holds exactly the entries that inserts maintained in an index created first, for a
 * multikey and a compound multikey key pattern, and the same multikey flag (embedded). */
static void
test_build_equals_maintained (void **state)
{
   fx_t *fx = *state;
   lab_store_index_spec_t specs[] = { { { "details.charge_time" }, 1 },
                                      { { "bill_id", "details.charge_time" }, 2 } };
   enum { N = 400 };
   bson_t *docs[N];
   size_t k;

   mixed_docs (docs, N);
   for (k = 0; k < 2; k++) {
      CHECK (lab_store_create_index_spec (fx->s, "kept", &specs[k], &e_));
   }
   insert (fx, "kept", docs, N);
   insert (fx, "built", docs, N);
   setenv ("LAB_WT_BUILD_THREADS", "3", 1);
   setenv ("LAB_WT_SORT_BUDGET", "4096", 1);
   for (k = 0; k < 2; k++) {
      CHECK (lab_store_create_index_spec (fx->s, "built", &specs[k], &e_));
   }
   unsetenv ("LAB_WT_BUILD_THREADS");
   unsetenv ("LAB_WT_SORT_BUDGET");
   for (k = 0; k < 2; k++) {
      int64_t n1, n2;
      char *a = index_keys (fx, "kept", &specs[k], &n1), *b = index_keys (fx, "built", &specs[k], &n2);
      bool m1, m2, exists;
      int64_t size;

      assert_true (n1 > N); /* multikey: more entries than documents */
      assert_int_equal (n1, n2);
      assert_string_equal (a, b);
      CHECK (lab_store_index_info (fx->s, "kept", &specs[k], &exists, &m1, &size, &e_));
      CHECK (lab_store_index_info (fx->s, "built", &specs[k], &exists, &m2, &size, &e_));
      assert_true (m1 && m2);
      bson_free (a);
      bson_free (b);
   }
   free_docs (docs, N);
}

/* test_parallel_arrays -- a compound key through two different arrays is refused as mongod refuses it
 * ("cannot index parallel arrays"): the document at insert, the build over such a document (no index
 * left); two fields through one array are fine. */
static void
test_parallel_arrays (void **state)
{
   fx_t *fx = *state;
   lab_store_index_spec_t ab = { { "a", "b" }, 2 }, xab = { { "x.a", "x.b" }, 2 };
   lab_store_insert_result_t r = { 0 };
   bson_t *docs[3];
   bool exists, multikey;
   int64_t size, keys, ndocs;
   bson_value_t eq[2];
   bson_error_t e;
   got_t g;

   docs[0] = BCON_NEW ("_id", BCON_INT32 (1), "a", "[", BCON_INT32 (1), BCON_INT32 (2), "]", "b", "[",
                       BCON_INT32 (3), BCON_INT32 (4), "]");
   docs[1] =
      BCON_NEW ("_id", BCON_INT32 (2), "a", "[", BCON_INT32 (1), BCON_INT32 (2), "]", "b", BCON_INT32 (5));
   docs[2] = BCON_NEW ("_id", BCON_INT32 (3), "x", "[", "{", "a", BCON_INT32 (1), "b", BCON_INT32 (2), "}",
                       "{", "a", BCON_INT32 (3), "b", BCON_INT32 (4), "}", "]");
   CHECK (lab_store_create_index_spec (fx->s, "pa", &ab, &e_));
   CHECK (lab_store_create_index_spec (fx->s, "pa", &xab, &e_));
   CHECK (lab_store_insert_many (fx->s, "pa", (const bson_t *const *)docs, 3, &r, &e_));
   assert_int_equal (r.inserted, 2);
   assert_int_equal (r.nerrors, 1);
   assert_int_equal (r.errors[0].index, 0);
   assert_non_null (strstr (r.errors[0].message, "cannot index parallel arrays"));
   lab_store_insert_result_cleanup (&r);
   /* the pairs of one array: (1, 2) and (3, 4), not (1, 4) */
   eq[0] = i32 (3);
   eq[1] = i32 (4);
   find (fx, "pa", &xab, eq, 2, NULL, NULL, &g, &keys, &ndocs);
   assert_int_equal (g.n, 1);
   assert_int_equal (g.ids[0], 3);
   if (embedded ()) {
      /* embedded: an entry holds the pair of one element; (3, 2) is none (mongod's find, without
       * $elemMatch, would also match the document through two elements) */
      eq[1] = i32 (2);
      find (fx, "pa", &xab, eq, 2, NULL, NULL, &g, &keys, &ndocs);
      assert_int_equal (g.n, 0);
   }
   if (embedded ()) {
      /* a build over a document with parallel arrays fails and leaves no index */
      lab_store_index_spec_t ba = { { "b", "a" }, 2 };
      wt_store_t *st = fx->store->impl;
      wt_coll_t *c = lab_wt_coll_find (st, "pa");
      wt_index_t *ix = lab_wt_coll_index_spec (c, &ab);
      WT_SESSION *s;
      WT_CURSOR *cc;
      WT_ITEM v;
      /* put the refused document in under the index's nose, as a build would find it */
      assert_int_equal (st->conn->open_session (st->conn, NULL, NULL, &s), 0);
      assert_int_equal (s->open_cursor (s, c->uri, NULL, NULL, &cc), 0);
      cc->set_key (cc, (int64_t)100);
      v.data = bson_get_data (docs[0]);
      v.size = docs[0]->len;
      cc->set_value (cc, &v);
      assert_int_equal (cc->insert (cc), 0);
      s->close (s, NULL);
      assert_non_null (ix);
      assert_false (lab_store_create_index_spec (fx->s, "pa", &ba, &e));
      assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE));
      assert_non_null (strstr (e.message, "cannot index parallel arrays [a] [b]"));
      CHECK (lab_store_index_info (fx->s, "pa", &ba, &exists, &multikey, &size, &e_));
      assert_false (exists);
   }
   free_docs (docs, 3);
}

/* test_single_field_catalog -- a single-field index made through either call keeps the catalog entry
 * of every earlier store ({field, ident}); it is the n == 1 spec of lab_store_has_index / find_eq. */
static void
test_single_field_catalog (void **state)
{
   fx_t *fx = *state;
   lab_store_index_spec_t spec = { { "bill_id" }, 1 };
   bson_t *docs[2];
   bool has, exists, multikey;
   int64_t size, n;
   bson_value_t v = i32 (4);

   docs[0] = BCON_NEW ("_id", BCON_INT32 (1), "bill_id", BCON_INT32 (4));
   docs[1] = BCON_NEW ("_id", BCON_INT32 (2), "bill_id", BCON_INT32 (5));
   insert (fx, "single", docs, 2);
   free_docs (docs, 2);
   CHECK (lab_store_create_index (fx->s, "single", "bill_id", &e_));
   CHECK (lab_store_index_info (fx->s, "single", &spec, &exists, &multikey, &size, &e_));
   assert_true (exists);
   assert_false (multikey);
   CHECK (lab_store_create_index_spec (fx->s, "single", &spec, &e_)); /* the same index */
   CHECK (lab_store_has_index (fx->s, "single", "bill_id", &has, &e_));
   assert_true (has);
   CHECK (lab_store_find_eq (fx->s, "single", "bill_id", &v, got_cb, &(got_t){ 0 }, &n, &e_));
   assert_int_equal (n, 1);
   if (embedded ()) {
      wt_store_t *st = fx->store->impl;
      WT_SESSION *s;
      WT_CURSOR *c;
      WT_ITEM item;
      bson_t doc;
      bson_iter_t it, arr, ix;
      int found = 0;

      assert_int_equal (lab_wt_coll_find (st, "single")->nindexes, 2);
      assert_int_equal (st->conn->open_session (st->conn, NULL, NULL, &s), 0);
      assert_int_equal (s->open_cursor (s, WT_CATALOG_URI, NULL, NULL, &c), 0);
      c->set_key (c, "c/single");
      assert_int_equal (c->search (c), 0);
      assert_int_equal (c->get_value (c, &item), 0);
      assert_true (bson_init_static (&doc, item.data, item.size));
      assert_true (bson_iter_init_find (&it, &doc, "indexes") && bson_iter_recurse (&it, &arr));
      while (bson_iter_next (&arr)) {
         assert_true (bson_iter_recurse (&arr, &ix));
         assert_true (bson_iter_next (&ix));
         assert_string_equal (bson_iter_key (&ix), "field");
         assert_true (bson_iter_next (&ix));
         assert_string_equal (bson_iter_key (&ix), "ident");
         assert_false (bson_iter_next (&ix)); /* nothing else: an older build reads it as it always did */
         found++;
      }
      assert_int_equal (found, 2);
      s->close (s, NULL);
   }
}

/* test_spec_from_desc -- what the store can build from an index description, and why not. */
static void
test_spec_from_desc (void **state)
{
   lab_store_index_spec_t spec;
   char why[128];
   bson_t *d;

   (void)state;
   d = BCON_NEW ("v", BCON_INT32 (2), "key", "{", "a", BCON_INT32 (1), "b.c", BCON_DOUBLE (1), "}", "name",
                 "a_1_b.c_1");
   assert_true (lab_store_index_spec_from_desc (d, &spec, why, sizeof why));
   assert_int_equal (spec.n, 2);
   assert_string_equal (spec.fields[0], "a");
   assert_string_equal (spec.fields[1], "b.c");
   bson_destroy (d);
   d = BCON_NEW ("key", "{", "a", BCON_INT32 (1), "d", BCON_INT32 (-1), "}", "name", "x");
   assert_false (lab_store_index_spec_from_desc (d, &spec, why, sizeof why));
   assert_string_equal (why, "descending key 'd: -1'");
   bson_destroy (d);
   d = BCON_NEW ("key", "{", "body", "text", "}", "name", "x");
   assert_false (lab_store_index_spec_from_desc (d, &spec, why, sizeof why));
   assert_string_equal (why, "key 'body: text'");
   bson_destroy (d);
   d = BCON_NEW ("key", "{", "a", BCON_INT32 (1), "b", BCON_INT32 (1), "c", BCON_INT32 (1), "d",
                 BCON_INT32 (1), "e", BCON_INT32 (1), "}", "name", "x");
   assert_false (lab_store_index_spec_from_desc (d, &spec, why, sizeof why));
   assert_string_equal (why, "5 fields (at most 4)");
   bson_destroy (d);
   d = BCON_NEW ("key", "{", "a", BCON_INT32 (1), "}", "name", "x", "unique", BCON_BOOL (true));
   assert_false (lab_store_index_spec_from_desc (d, &spec, why, sizeof why));
   assert_string_equal (why, "option 'unique'");
   bson_destroy (d);
}

/* test_list_indexes -- a collection's secondary indexes (in the store's order), `_id`'s left out, each one's
 * name and key pattern; on a server also the ones the store cannot build (descending, unique), listed as
 * they are; a missing collection is NO_COLLECTION. */
static void
test_list_indexes (void **state)
{
   fx_t *fx = *state;
   lab_store_index_spec_t cmp = { { "a", "c.d" }, 2 }, spec;
   bson_t *docs[1], list;
   bson_iter_t it, sub;
   bson_error_t e;
   char why[128];
   bool clustered = true;
   int n = 0;

   docs[0] =
      BCON_NEW ("_id", BCON_INT32 (1), "a", BCON_INT32 (1), "b", "x", "c", "{", "d", BCON_INT32 (2), "}");
   insert (fx, "li", docs, 1);
   free_docs (docs, 1);
   CHECK (lab_store_create_index (fx->s, "li", "b", &e_));
   CHECK (lab_store_create_index_spec (fx->s, "li", &cmp, &e_));
   if (!embedded ()) {
      bson_t *cmd = BCON_NEW ("createIndexes", "li", "indexes", "[", "{", "key", "{", "b", BCON_INT32 (-1),
                              "}", "name", "b_-1", "}", "{", "key", "{", "a", BCON_INT32 (1), "b",
                              BCON_INT32 (1), "}", "name", "a_1_b_1", "unique", BCON_BOOL (true), "}", "]");
      bson_t reply;
      CHECK (lab_store_command_simple (fx->store, fx->db, cmd, &reply, &e_));
      bson_destroy (&reply);
      bson_destroy (cmd);
   }
   CHECK (lab_store_list_indexes (fx->s, "li", &list, &clustered, &e_));
   assert_false (clustered);
   assert_true (bson_iter_init (&it, &list));
   while (bson_iter_next (&it)) {
      bson_t desc;
      const uint8_t *data;
      uint32_t len;
      const char *name;
      bool ok;

      assert_true (BSON_ITER_HOLDS_DOCUMENT (&it));
      bson_iter_document (&it, &len, &data);
      assert_true (bson_init_static (&desc, data, len));
      ok = lab_store_index_spec_from_desc (&desc, &spec, why, sizeof why);
      assert_true (bson_iter_init_find (&sub, &desc, "name"));
      name = bson_iter_utf8 (&sub, NULL);
      if (strcmp (name, "b_1") == 0) {
         assert_true (ok);
         assert_int_equal (spec.n, 1);
         assert_string_equal (spec.fields[0], "b");
      } else if (strcmp (name, "a_1_c.d_1") == 0) {
         assert_true (ok);
         assert_int_equal (spec.n, 2);
         assert_string_equal (spec.fields[0], "a");
         assert_string_equal (spec.fields[1], "c.d");
      } else if (strcmp (name, "b_-1") == 0) {
         assert_false (ok);
         assert_string_equal (why, "descending key 'b: -1'");
      } else if (strcmp (name, "a_1_b_1") == 0) {
         assert_false (ok);
         assert_string_equal (why, "option 'unique'");
      } else {
         fail_msg ("an index not created here: %s", name);
      }
      n++;
   }
   assert_int_equal (n, embedded () ? 2 : 4);
   bson_destroy (&list);
   assert_false (lab_store_list_indexes (fx->s, "nope", &list, &clustered, &e));
   assert_int_equal (e.code, LAB_STORE_ERR_NO_COLLECTION);
   bson_destroy (&list);
}

/* catalog_nindexes -- the indexes the embedded catalog's record of `coll` lists, read from its table. */
static int
catalog_nindexes (fx_t *fx, const char *coll)
{
   wt_store_t *st = fx->store->impl;
   WT_SESSION *s;
   WT_CURSOR *c;
   WT_ITEM item;
   bson_t doc;
   bson_iter_t it, arr;
   char *key = bson_strdup_printf ("c/%s", coll);
   int n = 0;

   assert_int_equal (st->conn->open_session (st->conn, NULL, NULL, &s), 0);
   assert_int_equal (s->open_cursor (s, WT_CATALOG_URI, NULL, NULL, &c), 0);
   c->set_key (c, key);
   assert_int_equal (c->search (c), 0);
   assert_int_equal (c->get_value (c, &item), 0);
   assert_true (bson_init_static (&doc, item.data, item.size));
   assert_true (bson_iter_init_find (&it, &doc, "indexes") && bson_iter_recurse (&it, &arr));
   while (bson_iter_next (&arr)) {
      n++;
   }
   s->close (s, NULL);
   bson_free (key);
   return n;
}

/* test_drop_index -- lab_store_drop_index drops exactly the index of that key pattern: the others stay,
 * finds by it fail with NO_INDEX, a missing index or collection is no error (*dropped false), the _id
 * index is refused. Embedded: after a reopen the catalog no longer lists it and its table is gone. */
static void
test_drop_index (void **state)
{
   fx_t *fx = *state;
   lab_store_index_spec_t spec = { { "bill_id", "line_no" }, 2 }, line = { { "line_no" }, 1 };
   lab_store_index_spec_t id = { { "_id" }, 1 };
   enum { N = 20 };
   bson_t *docs[N];
   bson_value_t eq[2] = { i32 (1), i32 (3) };
   bson_error_t e;
   bool exists, multikey, dropped = true;
   int64_t size, keys, ndocs;
   char *uri = NULL, *file = NULL;
   got_t g;
   int i;

   for (i = 0; i < N; i++) {
      docs[i] =
         BCON_NEW ("_id", BCON_INT32 (i), "bill_id", BCON_INT32 (i / 10), "line_no", BCON_INT32 (i % 10));
   }
   insert (fx, "dropix", docs, N);
   free_docs (docs, N);
   CHECK (lab_store_create_index_spec (fx->s, "dropix", &spec, &e_));
   CHECK (lab_store_create_index_spec (fx->s, "dropix", &line, &e_));
   if (embedded ()) {
      wt_index_t *ix = lab_wt_coll_index_spec (lab_wt_coll_find (fx->store->impl, "dropix"), &spec);
      assert_non_null (ix);
      uri = bson_strdup (ix->uri);
      file = bson_strdup_printf ("%s/%s.wt", lab_store_home (fx->store), ix->ident);
      assert_int_equal (access (file, F_OK), 0);
   }
   /* the _id index never goes */
   assert_false (lab_store_drop_index (fx->s, "dropix", &id, &dropped, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISUSE));
   assert_false (dropped);
   CHECK (lab_store_drop_index (fx->s, "dropix", &spec, &dropped, &e_));
   assert_true (dropped);
   if (embedded ()) {
      assert_int_equal (catalog_nindexes (fx, "dropix"), 2); /* written at once, not only at close */
      close_fx (fx);
      open_fx (fx);
      assert_int_equal (catalog_nindexes (fx, "dropix"), 2); /* _id, line_no */
      assert_int_equal (lab_wt_coll_find (fx->store->impl, "dropix")->nindexes, 2);
      assert_int_not_equal (access (file, F_OK), 0);
      {
         wt_store_t *st = fx->store->impl;
         WT_SESSION *s;
         WT_CURSOR *c = NULL;
         assert_int_equal (st->conn->open_session (st->conn, NULL, NULL, &s), 0);
         assert_int_not_equal (s->open_cursor (s, uri, NULL, NULL, &c), 0); /* the table is gone */
         s->close (s, NULL);
      }
   }
   CHECK (lab_store_index_info (fx->s, "dropix", &spec, &exists, &multikey, &size, &e_));
   assert_false (exists);
   assert_false (
      lab_store_index_find (fx->s, "dropix", &spec, eq, 2, NULL, NULL, got_cb, &g, NULL, NULL, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX));
   /* the other index and the documents stay */
   CHECK (lab_store_index_info (fx->s, "dropix", &line, &exists, &multikey, &size, &e_));
   assert_true (exists);
   find (fx, "dropix", &line, &eq[1], 1, NULL, NULL, &g, &keys, &ndocs);
   assert_int_equal (g.n, 2);
   /* again, and on a missing collection: nothing to drop, no error */
   CHECK (lab_store_drop_index (fx->s, "dropix", &spec, &dropped, &e_));
   assert_false (dropped);
   CHECK (lab_store_drop_index (fx->s, "nope", &spec, &dropped, &e_));
   assert_false (dropped);
   bson_free (uri);
   bson_free (file);
}

int
main (int argc, char **argv)
{
#define COMMON_TESTS                                                                                         \
   cmocka_unit_test (test_names), cmocka_unit_test_setup_teardown (test_multikey_entries, setup, teardown),  \
      cmocka_unit_test_setup_teardown (test_multikey_range, setup, teardown),                                \
      cmocka_unit_test_setup_teardown (test_compound, setup, teardown),                                      \
      cmocka_unit_test_setup_teardown (test_single_field_catalog, setup, teardown),                          \
      cmocka_unit_test (test_spec_from_desc),                                                                \
      cmocka_unit_test_setup_teardown (test_list_indexes, setup, teardown),                                  \
      cmocka_unit_test_setup_teardown (test_drop_index, setup, teardown)
   const struct CMUnitTest embedded_tests[] = {
      COMMON_TESTS,
      cmocka_unit_test_setup_teardown (test_parallel_arrays, setup, teardown),
      /* reads the index tables through WiredTiger */
      cmocka_unit_test_setup_teardown (test_build_equals_maintained, setup, teardown),
   };
   /* the test server (FerretDB) generates no index keys, so it accepts parallel arrays: only a real
    * server ($LAYOUTLAB_TEST_URI) is asked to refuse them */
   const struct CMUnitTest server_tests[] = { COMMON_TESTS };
   const struct CMUnitTest real_server_tests[] = {
      COMMON_TESTS,
      cmocka_unit_test_setup_teardown (test_parallel_arrays, setup, teardown),
   };

   backend = argc > 1 ? argv[1] : getenv ("LAB_STORE_BACKEND");
   if (!backend || (strcmp (backend, "wiredtiger") != 0 && strcmp (backend, "mongodb") != 0)) {
      fprintf (stderr, "usage: %s wiredtiger|mongodb (or set LAB_STORE_BACKEND)\n", argv[0]);
      return 2;
   }
   if (embedded ()) {
      return lab_test_run_group (backend, embedded_tests, NULL, NULL);
   }
   if (getenv ("LAYOUTLAB_TEST_URI") && *getenv ("LAYOUTLAB_TEST_URI")) {
      return lab_test_run_group (backend, real_server_tests, NULL, NULL);
   }
   return lab_test_run_group (backend, server_tests, NULL, NULL);
}
