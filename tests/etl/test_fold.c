/*
 * test_fold.c -- unit tests of the pure fold logic (etl/fold.c): hoisting with conflicting values, the
 * split at exactly the cap, one-row masters, an empty source, every supported key type, and fold then
 * unfold giving back the input (as multisets of canonical row hashes, per master).
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "etl/fold.h"

#include <string.h>

/* What the emit callback collected. */
typedef struct {
   bson_t **docs;
   size_t ndocs;
   size_t cap;
   int64_t masters;
   int64_t rows;
   /* rejected rows */
   int64_t rejected_rows;
   char reason[512];
   bool fail_emit;
} sink_t;

static bool
sink_emit (void *ctx, const bson_value_t *key, bson_t **docs, size_t ndocs, int64_t nrows,
           bson_error_t *error)
{
   sink_t *s = ctx;
   size_t i;

   if (s->fail_emit) {
      for (i = 0; i < ndocs; i++) {
         bson_destroy (docs[i]);
      }
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC, "sink refuses");
      return false;
   }
   for (i = 0; i < ndocs; i++) {
      if (s->ndocs == s->cap) {
         s->cap = s->cap ? 2 * s->cap : 16;
         s->docs = bson_realloc (s->docs, s->cap * sizeof (bson_t *));
      }
      s->docs[s->ndocs++] = docs[i];
   }
   s->masters++;
   s->rows += nrows;
   return true;
}

static bool
sink_reject (void *ctx, const bson_value_t *key, const bson_t *const *rows, size_t nrows, const char *reason,
             bson_error_t *error)
{
   sink_t *s = ctx;

   s->rejected_rows += (int64_t)nrows;
   bson_strncpy (s->reason, reason, sizeof s->reason);
   return true;
}

static void
sink_free (sink_t *s)
{
   size_t i;

   for (i = 0; i < s->ndocs; i++) {
      bson_destroy (s->docs[i]);
   }
   bson_free (s->docs);
   memset (s, 0, sizeof *s);
}

static lab_fold_opts_t
opts_default (const char *const *hoist, size_t nhoist)
{
   lab_fold_opts_t o;

   memset (&o, 0, sizeof o);
   o.key = "bill_id";
   o.array_field = "details";
   o.hoist = hoist;
   o.nhoist = nhoist;
   o.max_doc_bytes = 16 * 1024 * 1024;
   o.on_oversize = LAB_FOLD_OVERSIZE_SPLIT;
   return o;
}

/* fold_all -- fold `rows` into the sink; asserts success. */
static lab_fold_stats_t
fold_all (const lab_fold_opts_t *o, bson_t **rows, size_t n, sink_t *s)
{
   bson_error_t error;
   lab_fold_t *f = lab_fold_new (o, sink_emit, sink_reject, s, &error);
   lab_fold_stats_t st;
   size_t i;

   assert_non_null (f);
   for (i = 0; i < n; i++) {
      if (!lab_fold_push_row (f, rows[i], &error)) {
         fail_msg ("push row %zu: %s", i, error.message);
      }
   }
   if (!lab_fold_finish (f, &error)) {
      fail_msg ("finish: %s", error.message);
   }
   st = *lab_fold_stats (f);
   lab_fold_destroy (f);
   return st;
}

static void
free_rows (bson_t **rows, size_t n)
{
   size_t i;

   for (i = 0; i < n; i++) {
      bson_destroy (rows[i]);
   }
   bson_free (rows);
}

/* Collected hashes of unfolded rows. */
typedef struct {
   lab_fold_hash_t *h;
   size_t n;
   size_t cap;
} hashes_t;

static bool
collect_hash (void *ctx, const bson_t *row, bson_error_t *error)
{
   hashes_t *hs = ctx;

   if (hs->n == hs->cap) {
      hs->cap = hs->cap ? 2 * hs->cap : 64;
      hs->h = bson_realloc (hs->h, hs->cap * sizeof *hs->h);
   }
   hs->h[hs->n++] = lab_fold_row_hash (row);
   return true;
}

static int
hash_cmp (const void *a, const void *b)
{
   const lab_fold_hash_t *x = a, *y = b;

   if (x->lo != y->lo) {
      return x->lo < y->lo ? -1 : 1;
   }
   if (x->hi != y->hi) {
      return x->hi < y->hi ? -1 : 1;
   }
   return 0;
}

/* assert_unfold_equals -- the unfolded rows of the sink's documents are exactly `rows` (as a multiset
 * of canonical hashes); every document is within `max` bytes. */
static void
assert_unfold_equals (sink_t *s, bson_t **rows, size_t n, int64_t max)
{
   hashes_t got = { 0 };
   lab_fold_hash_t *want = bson_malloc ((n + 1) * sizeof *want);
   bson_error_t error;
   size_t i;

   lab_fold_hash_t sum_in_place = { 0, 0 }, sum_want = { 0, 0 };
   for (i = 0; i < s->ndocs; i++) {
      lab_fold_doc_info_t info;
      assert_true ((int64_t)s->docs[i]->len <= max);
      if (!lab_fold_unfold (s->docs[i], "bill_id", "details", collect_hash, &got, NULL, &error)) {
         fail_msg ("unfold: %s", error.message);
      }
      /* verify's way: the same row hashes computed in place, no row built */
      if (!lab_fold_unfold_hash (s->docs[i], "bill_id", "details", &sum_in_place, &info, &error)) {
         fail_msg ("unfold_hash: %s", error.message);
      }
   }
   for (i = 0; i < n; i++) {
      want[i] = lab_fold_row_hash (rows[i]);
      lab_fold_hash_add (&sum_want, want[i]);
   }
   assert_true (sum_in_place.lo == sum_want.lo && sum_in_place.hi == sum_want.hi);
   assert_int_equal (got.n, n);
   qsort (want, n, sizeof *want, hash_cmp);
   qsort (got.h, got.n, sizeof *got.h, hash_cmp);
   for (i = 0; i < n; i++) {
      assert_int_equal (hash_cmp (&want[i], &got.h[i]), 0);
   }
   bson_free (want);
   bson_free (got.h);
}

static bson_t *
json (const char *js)
{
   bson_error_t error;
   bson_t *b = bson_new_from_json ((const uint8_t *)js, -1, &error);

   if (!b) {
      fail_msg ("bad test JSON %s: %s", js, error.message);
   }
   return b;
}

/* element_has -- element i of the array of doc has field `name`. */
static bool
element_has (const bson_t *doc, size_t i, const char *name)
{
   bson_iter_t it;
   char path[64];

   snprintf (path, sizeof path, "details.%zu.%s", i, name);
   return bson_iter_init (&it, doc) && bson_iter_find_descendant (&it, path, &it);
}

static int32_t
get_int32 (const bson_t *doc, const char *name)
{
   bson_iter_t it;

   assert_true (bson_iter_init_find (&it, doc, name));
   assert_true (BSON_ITER_HOLDS_INT32 (&it));
   return bson_iter_int32 (&it);
}

static const char *
get_utf8 (const bson_t *doc, const char *name)
{
   bson_iter_t it;

   assert_true (bson_iter_init_find (&it, doc, name));
   assert_true (BSON_ITER_HOLDS_UTF8 (&it));
   return bson_iter_utf8 (&it, NULL);
}

/* ---- tests ---------------------------------------------------------------------------------------- */

static void
test_hoist_conflicting (void **state)
{
   const char *hoist[] = { "patient", "currency", "ward" };
   lab_fold_opts_t o = opts_default (hoist, 3);
   bson_t **rows = bson_malloc (4 * sizeof (bson_t *));
   sink_t s = { 0 };
   bson_iter_t it;

   rows[0] = json (
      "{\"_id\": 1, \"bill_id\": 7, \"patient\": \"P1\", \"currency\": \"EUR\", \"ward\": 3, \"amt\": 1.5}");
   rows[1] = json (
      "{\"_id\": 2, \"bill_id\": 7, \"patient\": \"P1\", \"currency\": \"USD\", \"ward\": 3, \"amt\": 2.5}");
   /* ward absent here: ward is not hoisted for this master */
   rows[2] = json ("{\"_id\": 3, \"bill_id\": 7, \"currency\": \"EUR\", \"patient\": \"P1\", \"amt\": 3.5}");
   /* same value, other type: keeps its own patient */
   rows[3] = json ("{\"_id\": 4, \"bill_id\": 7, \"patient\": \"P1\", \"currency\": \"EUR\", \"ward\": "
                   "{\"$numberLong\": \"3\"}}");
   fold_all (&o, rows, 4, &s);
   assert_int_equal (s.ndocs, 1);
   assert_string_equal (get_utf8 (s.docs[0], "patient"), "P1");
   assert_string_equal (get_utf8 (s.docs[0], "currency"), "EUR");
   assert_false (bson_iter_init_find (&it, s.docs[0], "ward"));
   assert_int_equal (get_int32 (s.docs[0], "bill_id"), 7);
   assert_int_equal (get_int32 (s.docs[0], "row_count"), 4);
   assert_int_equal (get_int32 (s.docs[0], "part"), 0);
   assert_int_equal (get_int32 (s.docs[0], "parts"), 1);
   assert_string_equal (get_utf8 (s.docs[0], "_id"), "n:7#0");
   /* the key and equal hoisted values leave the elements; the conflicting value stays */
   assert_false (element_has (s.docs[0], 0, "bill_id"));
   assert_false (element_has (s.docs[0], 0, "currency"));
   assert_true (element_has (s.docs[0], 1, "currency"));
   assert_false (element_has (s.docs[0], 1, "patient"));
   assert_true (element_has (s.docs[0], 0, "ward"));
   assert_true (element_has (s.docs[0], 3, "ward"));
   /* every row keeps its own _id */
   assert_true (element_has (s.docs[0], 2, "_id"));
   assert_unfold_equals (&s, rows, 4, o.max_doc_bytes);
   sink_free (&s);
   free_rows (rows, 4);
}

/* rows_of_size -- n rows of master `key`, each with a filler string of `pad` bytes. */
static bson_t **
rows_of_size (int32_t key, size_t n, size_t pad)
{
   bson_t **rows = bson_malloc (n * sizeof (bson_t *));
   char *filler = bson_malloc (pad + 1);
   size_t i;

   memset (filler, 'x', pad);
   filler[pad] = '\0';
   for (i = 0; i < n; i++) {
      rows[i] = bson_new ();
      BSON_APPEND_INT64 (rows[i], "_id", (int64_t)(key * 100000 + (int32_t)i));
      BSON_APPEND_INT32 (rows[i], "bill_id", key);
      BSON_APPEND_UTF8 (rows[i], "payer", "ACME");
      BSON_APPEND_UTF8 (rows[i], "filler", filler);
      BSON_APPEND_INT32 (rows[i], "line", (int32_t)i);
   }
   bson_free (filler);
   return rows;
}

static void
test_split_exactly_at_cap (void **state)
{
   const char *hoist[] = { "payer" };
   lab_fold_opts_t o = opts_default (hoist, 1);
   size_t n = 40;
   bson_t **rows = rows_of_size (5, n, 1000);
   sink_t s = { 0 };
   int64_t whole;
   lab_fold_stats_t st;
   size_t i;

   /* 1. unconstrained: one document of `whole` bytes */
   fold_all (&o, rows, n, &s);
   assert_int_equal (s.ndocs, 1);
   whole = s.docs[0]->len;
   sink_free (&s);

   /* 2. cap == the exact size: still one document, exactly at the cap */
   o.max_doc_bytes = whole;
   st = fold_all (&o, rows, n, &s);
   assert_int_equal (s.ndocs, 1);
   assert_int_equal (s.docs[0]->len, whole);
   assert_int_equal (st.largest_doc_bytes, whole);
   assert_int_equal (st.masters_split, 0);
   sink_free (&s);

   /* 3. one byte less: two parts, both under the cap, the first as full as it can be */
   o.max_doc_bytes = whole - 1;
   st = fold_all (&o, rows, n, &s);
   assert_int_equal (s.ndocs, 2);
   assert_int_equal (st.masters_split, 1);
   assert_int_equal (st.docs_out, 2);
   assert_int_equal (get_int32 (s.docs[0], "row_count"), (int32_t)n - 1);
   assert_int_equal (get_int32 (s.docs[1], "row_count"), 1);
   for (i = 0; i < 2; i++) {
      assert_true ((int64_t)s.docs[i]->len <= whole - 1);
      assert_int_equal (get_int32 (s.docs[i], "part"), (int32_t)i);
      assert_int_equal (get_int32 (s.docs[i], "parts"), 2);
      assert_int_equal (get_int32 (s.docs[i], "bill_id"), 5);
      assert_string_equal (get_utf8 (s.docs[i], "payer"), "ACME");
   }
   assert_string_equal (get_utf8 (s.docs[0], "_id"), "n:5#0");
   assert_string_equal (get_utf8 (s.docs[1], "_id"), "n:5#1");
   assert_unfold_equals (&s, rows, n, whole - 1);
   sink_free (&s);

   /* 4. a cap of about 3.5 rows: many parts, each exactly full or the last */
   o.max_doc_bytes = 3600;
   st = fold_all (&o, rows, n, &s);
   assert_true (s.ndocs > 10);
   for (i = 0; i < s.ndocs; i++) {
      assert_true (s.docs[i]->len <= 3600);
      /* a non-last part could not take one more ~1080-byte element */
      if (i + 1 < s.ndocs) {
         assert_true (s.docs[i]->len + 1080 > 3600);
      }
      assert_int_equal (get_int32 (s.docs[i], "parts"), (int32_t)s.ndocs);
   }
   assert_unfold_equals (&s, rows, n, 3600);
   sink_free (&s);
   free_rows (rows, n);
}

static void
test_oversize_reject_and_fail (void **state)
{
   lab_fold_opts_t o = opts_default (NULL, 0);
   size_t n = 10;
   bson_t **rows = rows_of_size (9, n, 500);
   bson_t **big;
   sink_t s = { 0 };
   lab_fold_t *f;
   bson_error_t error;
   lab_fold_stats_t st;
   size_t i;
   bool ok = true;

   o.max_doc_bytes = 2048;
   o.on_oversize = LAB_FOLD_OVERSIZE_REJECT;
   st = fold_all (&o, rows, n, &s);
   assert_int_equal (s.ndocs, 0);
   assert_int_equal (s.rejected_rows, (int64_t)n);
   assert_int_equal (st.masters_rejected, 1);
   assert_non_null (strstr (s.reason, "bill_id=9"));
   sink_free (&s);

   o.on_oversize = LAB_FOLD_OVERSIZE_FAIL;
   f = lab_fold_new (&o, sink_emit, NULL, &s, &error);
   assert_non_null (f);
   for (i = 0; i < n && ok; i++) {
      ok = lab_fold_push_row (f, rows[i], &error);
   }
   assert_true (ok);
   assert_false (lab_fold_finish (f, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_STORE, LAB_STORE_ERR_DOC_TOO_LARGE));
   assert_non_null (strstr (error.message, "bill_id=9"));
   lab_fold_destroy (f);

   /* reject mode needs a reject callback */
   o.on_oversize = LAB_FOLD_OVERSIZE_REJECT;
   assert_null (lab_fold_new (&o, sink_emit, NULL, &s, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING));

   /* a row that cannot fit even alone is an error in split mode */
   o.on_oversize = LAB_FOLD_OVERSIZE_SPLIT;
   o.max_doc_bytes = 1024;
   big = rows_of_size (9, 1, 1100);
   f = lab_fold_new (&o, sink_emit, NULL, &s, &error);
   assert_true (lab_fold_push_row (f, big[0], &error));
   assert_false (lab_fold_finish (f, &error));
   assert_non_null (strstr (error.message, "even alone"));
   lab_fold_destroy (f);
   free_rows (big, 1);
   sink_free (&s);
   free_rows (rows, n);
}

/* test_oversize_row_after_split -- a row too large for any document that comes after rows which filled a
 * part is an error in split mode too (found by fuzz_fold: it was put alone into the next part, over the
 * cap). */
static void
test_oversize_row_after_split (void **state)
{
   lab_fold_opts_t o = opts_default (NULL, 0);
   bson_t **small = rows_of_size (9, 1, 100);
   bson_t **big = rows_of_size (9, 2, 1100);
   sink_t s = { 0 };
   bson_error_t error;
   lab_fold_t *f;

   o.max_doc_bytes = 1024;
   f = lab_fold_new (&o, sink_emit, NULL, &s, &error);
   assert_non_null (f);
   assert_true (lab_fold_push_row (f, small[0], &error));
   assert_true (lab_fold_push_row (f, big[1], &error));
   assert_false (lab_fold_finish (f, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_STORE, LAB_STORE_ERR_DOC_TOO_LARGE));
   assert_non_null (strstr (error.message, "even alone"));
   assert_int_equal (s.ndocs, 0);
   lab_fold_destroy (f);
   free_rows (small, 1);
   free_rows (big, 2);
   sink_free (&s);
}

static void
test_one_row_master (void **state)
{
   const char *hoist[] = { "payer" };
   lab_fold_opts_t o = opts_default (hoist, 1);
   bson_t **rows = bson_malloc (3 * sizeof (bson_t *));
   sink_t s = { 0 };
   lab_fold_stats_t st;

   rows[0] = json ("{\"_id\": \"a\", \"bill_id\": \"B1\", \"payer\": \"X\", \"amt\": 1}");
   rows[1] = json ("{\"_id\": \"b\", \"bill_id\": \"B2\", \"payer\": \"Y\", \"amt\": 2}");
   rows[2] = json ("{\"_id\": \"c\", \"bill_id\": \"B2\", \"payer\": \"Y\", \"amt\": 3}");
   st = fold_all (&o, rows, 1, &s);
   assert_int_equal (st.masters, 1);
   assert_int_equal (st.rows_in, 1);
   assert_int_equal (s.ndocs, 1);
   assert_int_equal (get_int32 (s.docs[0], "row_count"), 1);
   assert_string_equal (get_utf8 (s.docs[0], "_id"), "s:B1#0");
   assert_unfold_equals (&s, rows, 1, o.max_doc_bytes);
   sink_free (&s);

   st = fold_all (&o, rows, 3, &s);
   assert_int_equal (st.masters, 2);
   assert_int_equal (s.masters, 2);
   assert_int_equal (s.ndocs, 2);
   assert_int_equal (get_int32 (s.docs[1], "row_count"), 2);
   assert_unfold_equals (&s, rows, 3, o.max_doc_bytes);
   sink_free (&s);
   free_rows (rows, 3);
}

static void
test_empty_source (void **state)
{
   lab_fold_opts_t o = opts_default (NULL, 0);
   sink_t s = { 0 };
   lab_fold_stats_t st = fold_all (&o, NULL, 0, &s);

   assert_int_equal (s.ndocs, 0);
   assert_int_equal (s.masters, 0);
   assert_int_equal (st.rows_in, 0);
   assert_int_equal (st.masters, 0);
   assert_int_equal (st.docs_out, 0);
   assert_int_equal (st.largest_doc_bytes, 0);
}

static void
test_key_types (void **state)
{
   lab_fold_opts_t o = opts_default (NULL, 0);
   bson_oid_t oid;
   bson_t **rows = bson_malloc (16 * sizeof (bson_t *));
   size_t n = 0, i;
   sink_t s = { 0 };
   lab_fold_stats_t st;
   const char *ids[16];
   bson_error_t error;
   bson_value_t v;
   char *kid;

   /* in MongoDB order: numbers, strings, ObjectId, bool, date */
   rows[n] = bson_new ();
   BSON_APPEND_INT32 (rows[n], "_id", (int32_t)n);
   BSON_APPEND_INT32 (rows[n++], "bill_id", -3);
   rows[n] = bson_new ();
   BSON_APPEND_INT32 (rows[n], "_id", (int32_t)n);
   BSON_APPEND_DOUBLE (rows[n++], "bill_id", 0.5);
   rows[n] = bson_new ();
   BSON_APPEND_INT32 (rows[n], "_id", (int32_t)n);
   BSON_APPEND_INT32 (rows[n++], "bill_id", 1);
   /* same master as int32 1: keeps its own key in its element */
   rows[n] = bson_new ();
   BSON_APPEND_INT32 (rows[n], "_id", (int32_t)n);
   BSON_APPEND_INT64 (rows[n++], "bill_id", 1);
   rows[n] = bson_new ();
   BSON_APPEND_INT32 (rows[n], "_id", (int32_t)n);
   BSON_APPEND_INT64 (rows[n++], "bill_id", INT64_C (5000000000));
   rows[n] = bson_new ();
   BSON_APPEND_INT32 (rows[n], "_id", (int32_t)n);
   BSON_APPEND_UTF8 (rows[n++], "bill_id", "B#1");
   bson_oid_init_from_string (&oid, "5f1d7a0000000000000000aa");
   rows[n] = bson_new ();
   BSON_APPEND_INT32 (rows[n], "_id", (int32_t)n);
   BSON_APPEND_OID (rows[n++], "bill_id", &oid);
   rows[n] = bson_new ();
   BSON_APPEND_INT32 (rows[n], "_id", (int32_t)n);
   BSON_APPEND_BOOL (rows[n++], "bill_id", true);
   rows[n] = bson_new ();
   BSON_APPEND_INT32 (rows[n], "_id", (int32_t)n);
   BSON_APPEND_DATE_TIME (rows[n++], "bill_id", INT64_C (1700000000000));

   st = fold_all (&o, rows, n, &s);
   assert_int_equal (st.masters, (int64_t)n - 1);
   assert_int_equal (s.ndocs, n - 1);
   for (i = 0; i < s.ndocs; i++) {
      ids[i] = get_utf8 (s.docs[i], "_id");
   }
   assert_string_equal (ids[0], "n:-3#0");
   assert_string_equal (ids[1], "n:0.5#0");
   assert_string_equal (ids[2], "n:1#0");
   assert_string_equal (ids[3], "n:5000000000#0");
   assert_string_equal (ids[4], "s:B#1#0");
   assert_string_equal (ids[5], "o:5f1d7a0000000000000000aa#0");
   assert_string_equal (ids[6], "b:true#0");
   assert_string_equal (ids[7], "d:1700000000000#0");
   assert_int_equal (get_int32 (s.docs[2], "row_count"), 2);
   assert_false (element_has (s.docs[2], 0, "bill_id"));
   assert_true (element_has (s.docs[2], 1, "bill_id"));
   assert_unfold_equals (&s, rows, n, o.max_doc_bytes);
   sink_free (&s);

   /* 1, 1L and 1.0 name the same master; other types are refused */
   v.value_type = BSON_TYPE_DOUBLE;
   v.value.v_double = 1.0;
   kid = lab_fold_key_id (&v, &error);
   assert_string_equal (kid, "n:1");
   bson_free (kid);
   v.value_type = BSON_TYPE_DECIMAL128;
   assert_null (lab_fold_key_id (&v, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE));
   free_rows (rows, n);
}

static void
test_bad_input (void **state)
{
   lab_fold_opts_t o = opts_default (NULL, 0);
   sink_t s = { 0 };
   bson_error_t error;
   lab_fold_t *f = lab_fold_new (&o, sink_emit, NULL, &s, &error);
   bson_t *a = json ("{\"_id\": 1, \"bill_id\": 5}");
   bson_t *b = json ("{\"_id\": 2, \"bill_id\": 4}");
   bson_t *c = json ("{\"_id\": 3, \"other\": 4}");
   bson_t *d = json ("{\"_id\": 4, \"bill_id\": [1, 2]}");

   assert_true (lab_fold_push_row (f, a, &error));
   assert_false (lab_fold_push_row (f, b, &error));
   assert_non_null (strstr (error.message, "not in key order"));
   assert_false (lab_fold_push_row (f, c, &error));
   assert_non_null (strstr (error.message, "no key field 'bill_id'"));
   assert_false (lab_fold_push_row (f, d, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE));
   lab_fold_destroy (f);

   /* an emit error stops the fold */
   s.fail_emit = true;
   f = lab_fold_new (&o, sink_emit, NULL, &s, &error);
   assert_true (lab_fold_push_row (f, a, &error));
   assert_false (lab_fold_finish (f, &error));
   assert_string_equal (error.message, "sink refuses");
   lab_fold_destroy (f);
   bson_destroy (a);
   bson_destroy (b);
   bson_destroy (c);
   bson_destroy (d);
}

static void
test_opts_check (void **state)
{
   const char *bad1[] = { "row_count" };
   const char *bad2[] = { "bill_id" };
   const char *bad3[] = { "a", "a" };
   const char *bad4[] = { "a.b" };
   lab_fold_opts_t o = opts_default (NULL, 0);
   bson_error_t error;

   assert_true (lab_fold_opts_check (&o, &error));
   o.key = "_id";
   assert_false (lab_fold_opts_check (&o, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME));
   o.key = "a.b";
   assert_false (lab_fold_opts_check (&o, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME));
   o = opts_default (bad1, 1);
   assert_false (lab_fold_opts_check (&o, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME));
   o = opts_default (bad2, 1);
   assert_false (lab_fold_opts_check (&o, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME));
   o = opts_default (bad3, 2);
   assert_false (lab_fold_opts_check (&o, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME));
   o = opts_default (bad4, 1);
   assert_false (lab_fold_opts_check (&o, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME));
   o = opts_default (NULL, 0);
   o.array_field = "part";
   assert_false (lab_fold_opts_check (&o, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME));
   o = opts_default (NULL, 0);
   o.max_doc_bytes = 100;
   assert_false (lab_fold_opts_check (&o, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
}

/* simple deterministic generator */
static uint64_t
next_rand (uint64_t *s)
{
   *s ^= *s << 13;
   *s ^= *s >> 7;
   *s ^= *s << 17;
   return *s;
}

static void
test_fold_unfold_roundtrip (void **state)
{
   const char *hoist[] = { "patient", "hospital", "currency" };
   lab_fold_opts_t o = opts_default (hoist, 3);
   size_t cap = 3000, n = 0, i, j, k;
   bson_t **rows = bson_malloc (cap * sizeof (bson_t *));
   uint64_t seed = 42;
   sink_t s = { 0 };
   lab_fold_stats_t st;
   bson_t sub, arr;
   char name[32];

   for (i = 0; i < 200 && n < cap; i++) {
      size_t nr = 1 + next_rand (&seed) % 25;
      for (j = 0; j < nr && n < cap; j++) {
         bson_t *r = bson_new ();
         BSON_APPEND_INT64 (r, "_id", (int64_t)n);
         /* alternate key types between masters: strings */
         snprintf (name, sizeof name, "BILL%06zu", i);
         if (next_rand (&seed) % 2) {
            BSON_APPEND_UTF8 (r, "patient", "P");
            BSON_APPEND_UTF8 (r, "bill_id", name);
         } else {
            BSON_APPEND_UTF8 (r, "bill_id", name);
            BSON_APPEND_UTF8 (r, "patient", "P");
         }
         if (next_rand (&seed) % 10) {
            BSON_APPEND_INT32 (r, "hospital", (int32_t)(i % 7));
         }
         BSON_APPEND_UTF8 (r, "currency", next_rand (&seed) % 17 ? "EUR" : "CHF");
         BSON_APPEND_DOUBLE (r, "amount", (double)(next_rand (&seed) % 100000) / 100.0);
         BSON_APPEND_DATE_TIME (r, "at", (int64_t)(1600000000000 + next_rand (&seed) % 1000000));
         BSON_APPEND_DOCUMENT_BEGIN (r, "item", &sub);
         BSON_APPEND_UTF8 (&sub, "code", "X1");
         BSON_APPEND_INT32 (&sub, "qty", (int32_t)(next_rand (&seed) % 5));
         bson_append_document_end (r, &sub);
         BSON_APPEND_ARRAY_BEGIN (r, "tags", &arr);
         for (k = 0; k < next_rand (&seed) % 3; k++) {
            BSON_APPEND_UTF8 (&arr, k ? "1" : "0", "t");
         }
         bson_append_array_end (r, &arr);
         if (next_rand (&seed) % 50 == 0) {
            BSON_APPEND_NULL (r, "note");
         }
         rows[n++] = r;
      }
   }
   st = fold_all (&o, rows, n, &s);
   assert_int_equal (st.rows_in, (int64_t)n);
   assert_int_equal (st.masters, 200);
   assert_int_equal (s.rows, (int64_t)n);
   assert_unfold_equals (&s, rows, n, o.max_doc_bytes);
   sink_free (&s);

   /* the same data with a small cap splits often and still unfolds to the input */
   o.max_doc_bytes = 1500;
   st = fold_all (&o, rows, n, &s);
   assert_true (st.masters_split > 0);
   assert_unfold_equals (&s, rows, n, 1500);
   sink_free (&s);

   /* and with nothing hoisted */
   o = opts_default (NULL, 0);
   fold_all (&o, rows, n, &s);
   assert_unfold_equals (&s, rows, n, o.max_doc_bytes);
   sink_free (&s);
   free_rows (rows, n);
}

static void
test_row_hash (void **state)
{
   bson_t *a = json ("{\"a\": 1, \"b\": {\"y\": 2, \"x\": [ {\"q\": 1, \"p\": 2}, 3 ]}}");
   bson_t *b = json ("{\"b\": {\"x\": [ {\"p\": 2, \"q\": 1}, 3 ], \"y\": 2}, \"a\": 1}");
   bson_t *c = json ("{\"b\": {\"x\": [ 3, {\"p\": 2, \"q\": 1} ], \"y\": 2}, \"a\": 1}");
   bson_t *d =
      json ("{\"a\": {\"$numberLong\": \"1\"}, \"b\": {\"y\": 2, \"x\": [ {\"q\": 1, \"p\": 2}, 3 ]}}");
   lab_fold_hash_t ha = lab_fold_row_hash (a), hb = lab_fold_row_hash (b), hc = lab_fold_row_hash (c),
                   hd = lab_fold_row_hash (d);
   lab_fold_hash_t acc1 = { 0, 0 }, acc2 = { 0, 0 };

   assert_int_equal (hash_cmp (&ha, &hb), 0);     /* field order may differ */
   assert_int_not_equal (hash_cmp (&ha, &hc), 0); /* array order may not */
   assert_int_not_equal (hash_cmp (&ha, &hd), 0); /* nor types */
   lab_fold_hash_add (&acc1, ha);
   lab_fold_hash_add (&acc1, hc);
   lab_fold_hash_add (&acc2, hc);
   lab_fold_hash_add (&acc2, hb);
   assert_int_equal (hash_cmp (&acc1, &acc2), 0); /* sums do not depend on order */
   lab_fold_hash_add (&acc2, hb);
   assert_int_not_equal (hash_cmp (&acc1, &acc2), 0); /* duplicates count */
   {
      /* values swapped between two rows: each row's digest changes, and so does their sum (a sum of the
       * fields of every row would not see it); a value moved into a subdocument is another row too */
      bson_t *r1 = json ("{\"a\": 1, \"b\": 2}"), *r2 = json ("{\"a\": 3, \"b\": 4}");
      bson_t *s1 = json ("{\"a\": 1, \"b\": 4}"), *s2 = json ("{\"a\": 3, \"b\": 2}");
      bson_t *n1 = json ("{\"a\": 1, \"s\": {\"b\": 2}}"), *n2 = json ("{\"a\": 1, \"s\": {}, \"b\": 2}");
      bson_t *i3 = json ("{\"v\": 3}"), *d3 = json ("{\"v\": 3.0}");
      lab_fold_hash_t x = { 0, 0 }, y = { 0, 0 }, hi3 = lab_fold_row_hash (i3), hd3 = lab_fold_row_hash (d3);

      lab_fold_hash_add (&x, lab_fold_row_hash (r1));
      lab_fold_hash_add (&x, lab_fold_row_hash (r2));
      lab_fold_hash_add (&y, lab_fold_row_hash (s1));
      lab_fold_hash_add (&y, lab_fold_row_hash (s2));
      assert_int_not_equal (hash_cmp (&x, &y), 0);
      x = lab_fold_row_hash (n1);
      y = lab_fold_row_hash (n2);
      assert_int_not_equal (hash_cmp (&x, &y), 0);
      assert_int_not_equal (hash_cmp (&hi3, &hd3), 0); /* int32 3 is not double 3.0 */
      bson_destroy (r1);
      bson_destroy (r2);
      bson_destroy (s1);
      bson_destroy (s2);
      bson_destroy (n1);
      bson_destroy (n2);
      bson_destroy (i3);
      bson_destroy (d3);
   }
   bson_destroy (a);
   bson_destroy (b);
   bson_destroy (c);
   bson_destroy (d);
}

static void
test_unfold_rejects_bad_docs (void **state)
{
   bson_t *nokey = json ("{\"_id\": \"x\", \"row_count\": 0, \"part\": 0, \"parts\": 1, \"details\": []}");
   bson_t *badcount = json (
      "{\"_id\": \"x\", \"bill_id\": 1, \"row_count\": 2, \"part\": 0, \"parts\": 1, \"details\": [{}]}");
   bson_t *badpart = json (
      "{\"_id\": \"x\", \"bill_id\": 1, \"row_count\": 1, \"part\": 1, \"parts\": 1, \"details\": [{}]}");
   bson_t *badrow = json (
      "{\"_id\": \"x\", \"bill_id\": 1, \"row_count\": 1, \"part\": 0, \"parts\": 1, \"details\": [7]}");
   bson_error_t error;

   assert_false (lab_fold_unfold (nokey, "bill_id", "details", NULL, NULL, NULL, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_NOT_FOLDED));
   assert_false (lab_fold_unfold (badcount, "bill_id", "details", NULL, NULL, NULL, &error));
   assert_non_null (strstr (error.message, "row_count says 2"));
   assert_true (lab_error_is (&error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_ROW_COUNT));
   assert_false (lab_fold_unfold (badpart, "bill_id", "details", NULL, NULL, NULL, &error));
   assert_true (lab_error_is (&error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_NOT_FOLDED));
   assert_false (lab_fold_unfold (badrow, "bill_id", "details", NULL, NULL, NULL, &error));
   assert_non_null (strstr (error.message, "element 0 of 'details' is not a document"));
   assert_true (lab_error_is (&error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_CORRUPT));
   assert_int_equal (lab_error_exit_code (&error), 3);
   bson_destroy (badrow);
   bson_destroy (nokey);
   bson_destroy (badcount);
   bson_destroy (badpart);
}

static void
test_hoist_sampler (void **state)
{
   lab_fold_hoist_sampler_t *smp = lab_fold_hoist_sampler_new ("bill_id", "details", 2);
   bson_t *r[5];
   char **fields;
   size_t nf, i;
   int64_t nm;

   r[0] =
      json ("{\"_id\": 1, \"bill_id\": 1, \"patient\": \"A\", \"amt\": 1, \"ward\": 1, \"row_count\": 1}");
   r[1] =
      json ("{\"_id\": 2, \"bill_id\": 1, \"patient\": \"A\", \"amt\": 2, \"ward\": 1, \"row_count\": 1}");
   r[2] = json ("{\"_id\": 3, \"bill_id\": 2, \"patient\": \"B\", \"amt\": 3, \"row_count\": 1}");
   r[3] = json ("{\"_id\": 4, \"bill_id\": 2, \"patient\": \"B\", \"amt\": 3, \"row_count\": 1}");
   r[4] = json ("{\"_id\": 5, \"bill_id\": 3, \"patient\": \"C\", \"amt\": 9, \"row_count\": 2}");
   for (i = 0; i < 4; i++) {
      assert_true (lab_fold_hoist_sampler_push (smp, r[i]));
   }
   assert_false (lab_fold_hoist_sampler_push (smp, r[4])); /* a third master: enough */
   lab_fold_hoist_sampler_result (smp, &fields, &nf, &nm);
   /* patient: same within each master; amt differs in master 1; ward missing in master 2;
    * row_count is reserved; _id and the key are never candidates */
   assert_int_equal (nf, 1);
   assert_string_equal (fields[0], "patient");
   assert_int_equal (nm, 2);
   bson_strfreev (fields);
   lab_fold_hoist_sampler_destroy (smp);

   /* only one-row masters: no evidence, nothing hoisted */
   smp = lab_fold_hoist_sampler_new ("bill_id", "details", 10);
   lab_fold_hoist_sampler_push (smp, r[0]);
   lab_fold_hoist_sampler_push (smp, r[2]);
   lab_fold_hoist_sampler_result (smp, &fields, &nf, NULL);
   assert_int_equal (nf, 0);
   assert_null (fields[0]);
   bson_strfreev (fields);
   lab_fold_hoist_sampler_destroy (smp);
   for (i = 0; i < 5; i++) {
      bson_destroy (r[i]);
   }
}

/* ---- buckets -------------------------------------------------------------------------------------- */

static void
test_bucket_window (void **state)
{
   const int64_t t = INT64_C (1710510300000); /* 2024-03-15T13:45:00Z, a Friday */
   int64_t end;

   assert_true (lab_fold_bucket_window (t, LAB_BUCKET_HOUR, &end) == INT64_C (1710507600000));
   assert_true (end == INT64_C (1710507600000) + 3600000);
   assert_true (lab_fold_bucket_window (t, LAB_BUCKET_DAY, &end) == INT64_C (1710460800000));
   assert_true (end == INT64_C (1710460800000) + 86400000);
   /* ISO week: Monday 2024-03-11 */
   assert_true (lab_fold_bucket_window (t, LAB_BUCKET_WEEK, &end) == INT64_C (1710115200000));
   assert_true (end == INT64_C (1710115200000) + 7 * INT64_C (86400000));
   /* a Monday at midnight starts its own week */
   assert_true (lab_fold_bucket_window (INT64_C (1710115200000), LAB_BUCKET_WEEK, NULL) ==
                INT64_C (1710115200000));
   assert_true (lab_fold_bucket_window (INT64_C (1710115200000) - 1, LAB_BUCKET_WEEK, NULL) ==
                INT64_C (1710115200000) - 7 * INT64_C (86400000));
   /* months: March 2024, a leap February, December into the next year */
   assert_true (lab_fold_bucket_window (t, LAB_BUCKET_MONTH, &end) == INT64_C (1709251200000));
   assert_true (end == INT64_C (1711929600000));
   assert_true (lab_fold_bucket_window (INT64_C (1707523200000), LAB_BUCKET_MONTH, &end) ==
                INT64_C (1706745600000));
   assert_true (end == INT64_C (1709251200000));
   assert_true (lab_fold_bucket_window (INT64_C (1703030400000), LAB_BUCKET_MONTH, &end) ==
                INT64_C (1701388800000));
   assert_true (end == INT64_C (1704067200000));
   /* before the epoch: floors, not truncation */
   assert_true (lab_fold_bucket_window (-3600000, LAB_BUCKET_DAY, &end) == -86400000);
   assert_true (end == 0);
   assert_true (lab_fold_bucket_window (-3600000, LAB_BUCKET_MONTH, &end) == INT64_C (-2678400000));
   assert_true (end == 0);
   assert_true (lab_fold_bucket_window (0, LAB_BUCKET_WEEK, &end) == INT64_C (-259200000));
   assert_true (end == INT64_C (345600000));
   /* the extremes do not overflow */
   assert_true (lab_fold_bucket_window (INT64_MAX, LAB_BUCKET_DAY, &end) <= INT64_MAX);
   assert_true (end == INT64_MAX);
   assert_true (lab_fold_bucket_window (INT64_MIN, LAB_BUCKET_WEEK, &end) == INT64_MIN);
}

static void
test_bucket_spec (void **state)
{
   bson_error_t error;
   char *field;
   lab_fold_bucket_unit_t unit;

   assert_true (lab_fold_bucket_spec_parse ("charge_time:day", &field, &unit, &error));
   assert_string_equal (field, "charge_time");
   assert_int_equal (unit, LAB_BUCKET_DAY);
   assert_string_equal (lab_fold_bucket_unit_name (unit), "day");
   bson_free (field);
   assert_true (lab_fold_bucket_spec_parse ("t:month", &field, &unit, &error));
   assert_int_equal (unit, LAB_BUCKET_MONTH);
   bson_free (field);
   assert_false (lab_fold_bucket_spec_parse ("charge_time", &field, &unit, &error));
   assert_int_equal (error.domain, LAB_ERROR_USAGE);
   assert_non_null (strstr (error.message, "FIELD:UNIT"));
   assert_false (lab_fold_bucket_spec_parse ("charge_time:year", &field, &unit, &error));
   assert_non_null (strstr (error.message, "year"));
   assert_false (lab_fold_bucket_spec_parse (":day", &field, &unit, &error));
}

/* test_bucket_rows -- at most N rows per document, a master continuing in parts as an oversize split. */
static void
test_bucket_rows (void **state)
{
   const char *hoist[] = { "payer" };
   lab_fold_opts_t o = opts_default (hoist, 1);
   bson_t **a = rows_of_size (1, 250, 10);
   bson_t **b = rows_of_size (2, 5, 10);
   bson_t **rows = bson_malloc (255 * sizeof (bson_t *));
   lab_fold_doc_info_t info;
   bson_error_t error;
   sink_t s = { 0 };
   size_t i;

   memcpy (rows, a, 250 * sizeof (bson_t *));
   memcpy (rows + 250, b, 5 * sizeof (bson_t *));
   bson_free (a);
   bson_free (b);
   o.bucket_rows = 100;
   fold_all (&o, rows, 255, &s);
   assert_int_equal (s.ndocs, 4);
   assert_int_equal (get_int32 (s.docs[0], "row_count"), 100);
   assert_int_equal (get_int32 (s.docs[1], "row_count"), 100);
   assert_int_equal (get_int32 (s.docs[2], "row_count"), 50);
   assert_int_equal (get_int32 (s.docs[3], "row_count"), 5);
   assert_string_equal (get_utf8 (s.docs[2], "_id"), "n:1#2");
   for (i = 0; i < 3; i++) {
      assert_int_equal (get_int32 (s.docs[i], "part"), (int32_t)i);
      assert_int_equal (get_int32 (s.docs[i], "parts"), 3);
      assert_true (lab_fold_unfold (s.docs[i], "bill_id", "details", NULL, NULL, &info, &error));
      assert_false (info.has_bucket_start);
   }
   assert_int_equal (get_int32 (s.docs[3], "parts"), 1);
   assert_unfold_equals (&s, rows, 255, o.max_doc_bytes);
   sink_free (&s);
   free_rows (rows, 255);
}

/* date_row -- a row of master `key` with date field t (ms). */
static bson_t *
date_row (int64_t id, int32_t key, int64_t t)
{
   bson_t *r = bson_new ();

   BSON_APPEND_INT64 (r, "_id", id);
   BSON_APPEND_INT32 (r, "bill_id", key);
   BSON_APPEND_DATE_TIME (r, "t", t);
   BSON_APPEND_UTF8 (r, "item", "x-ray");
   return r;
}

/* test_bucket_by_day -- one document per master and day, days ascending, rows inside their window; with
 * --bucket-rows too, a day continues in a further part. */
static void
test_bucket_by_day (void **state)
{
   const int64_t day = 86400000, d0 = INT64_C (1710460800000); /* 2024-03-15 */
   const int64_t when[] = { d0 + 2 * day + 5, d0 + 10, d0 + day, d0 + 2 * day + 7, d0 + 20, d0 + 2 * day };
   const int64_t want_start[] = { d0, d0 + day, d0 + 2 * day, d0 + 2 * day };
   const int32_t want_rows[] = { 2, 1, 2, 1 };
   lab_fold_opts_t o = opts_default (NULL, 0);
   bson_t **rows = bson_malloc (7 * sizeof (bson_t *));
   lab_fold_doc_info_t info;
   bson_error_t error;
   bson_iter_t it;
   sink_t s = { 0 };
   size_t i;

   for (i = 0; i < 6; i++) {
      rows[i] = date_row ((int64_t)i, 1, when[i]);
   }
   rows[6] = date_row (6, 2, d0 - 1); /* another master, the day before */
   o.bucket_field = "t";
   o.bucket_unit = LAB_BUCKET_DAY;
   o.bucket_rows = 2;
   fold_all (&o, rows, 7, &s);
   assert_int_equal (s.ndocs, 5);
   for (i = 0; i < 4; i++) {
      assert_true (bson_iter_init_find (&it, s.docs[i], "bucket_start"));
      assert_true (BSON_ITER_HOLDS_DATE_TIME (&it));
      assert_true (bson_iter_date_time (&it) == want_start[i]);
      assert_int_equal (get_int32 (s.docs[i], "row_count"), want_rows[i]);
      assert_int_equal (get_int32 (s.docs[i], "part"), (int32_t)i);
      assert_int_equal (get_int32 (s.docs[i], "parts"), 4);
      assert_true (lab_fold_unfold (s.docs[i], "bill_id", "details", NULL, NULL, &info, &error));
      assert_true (info.has_bucket_start);
      assert_true (info.bucket_start_ms == want_start[i]);
   }
   /* the third day's rows keep their input order: ids 0, 3 then 5 */
   assert_true (bson_iter_init (&it, s.docs[2]) && bson_iter_find_descendant (&it, "details.0._id", &it));
   assert_true (bson_iter_as_int64 (&it) == 0);
   assert_true (bson_iter_init (&it, s.docs[3]) && bson_iter_find_descendant (&it, "details.0._id", &it));
   assert_true (bson_iter_as_int64 (&it) == 5);
   assert_true (bson_iter_init_find (&it, s.docs[4], "bucket_start"));
   assert_true (bson_iter_date_time (&it) == d0 - day);
   /* bucket_start is not a row field: unfolding gives back exactly the rows */
   assert_unfold_equals (&s, rows, 7, o.max_doc_bytes);
   sink_free (&s);
   free_rows (rows, 7);
}

/* test_bucket_by_bad_rows -- a row without the date, or with a string, stops the fold naming the row. */
static void
test_bucket_by_bad_rows (void **state)
{
   lab_fold_opts_t o = opts_default (NULL, 0);
   const char *bad[] = { "{\"_id\": 42, \"bill_id\": 1, \"item\": \"x\"}",
                         "{\"_id\": 42, \"bill_id\": 1, \"t\": \"2024-03-15\"}" };
   bson_error_t error;
   sink_t s = { 0 };
   lab_fold_t *f;
   bson_t *good, *b;
   size_t i;

   o.bucket_field = "t";
   o.bucket_unit = LAB_BUCKET_HOUR;
   for (i = 0; i < 2; i++) {
      f = lab_fold_new (&o, sink_emit, sink_reject, &s, &error);
      assert_non_null (f);
      good = date_row (1, 1, 0);
      b = json (bad[i]);
      assert_true (lab_fold_push_row (f, good, &error));
      assert_true (lab_fold_push_row (f, b, &error));
      assert_false (lab_fold_finish (f, &error));
      assert_non_null (strstr (error.message, "42"));
      assert_non_null (strstr (error.message, "'t'"));
      assert_non_null (strstr (error.message, i == 0 ? "has no bucket field" : "not a date"));
      assert_int_equal (s.ndocs, 0);
      bson_destroy (good);
      bson_destroy (b);
      lab_fold_destroy (f);
   }
   /* names the folded document uses itself cannot be the bucket field */
   o.bucket_field = "bucket_start";
   assert_false (lab_fold_opts_check (&o, &error));
   o.bucket_field = "t";
   o.bucket_unit = LAB_BUCKET_NONE;
   assert_false (lab_fold_opts_check (&o, &error));
   o.bucket_unit = LAB_BUCKET_DAY;
   o.bucket_rows = -1;
   assert_false (lab_fold_opts_check (&o, &error));
   sink_free (&s);
}

/* test_bucket_oversize_per_bucket -- under --on-oversize fail, a master over the cap whose buckets each
 * fit is folded, and a bucket over the cap fails the run. */
static void
test_bucket_oversize_per_bucket (void **state)
{
   lab_fold_opts_t o = opts_default (NULL, 0);
   bson_t **rows = rows_of_size (1, 40, 100);
   bson_error_t error;
   sink_t s = { 0 };
   lab_fold_t *f;
   size_t i;

   o.max_doc_bytes = 2048; /* about 15 rows of ~130 bytes */
   o.on_oversize = LAB_FOLD_OVERSIZE_FAIL;
   o.bucket_rows = 10;
   fold_all (&o, rows, 40, &s);
   assert_int_equal (s.ndocs, 4);
   assert_unfold_equals (&s, rows, 40, o.max_doc_bytes);
   sink_free (&s);
   o.bucket_rows = 20;
   f = lab_fold_new (&o, sink_emit, sink_reject, &s, &error);
   for (i = 0; i < 40; i++) {
      assert_true (lab_fold_push_row (f, rows[i], &error));
   }
   assert_false (lab_fold_finish (f, &error));
   assert_int_equal (error.code, LAB_STORE_ERR_DOC_TOO_LARGE);
   assert_non_null (strstr (error.message, "a bucket of master"));
   lab_fold_destroy (f);
   sink_free (&s);
   free_rows (rows, 40);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_hoist_conflicting),
      cmocka_unit_test (test_split_exactly_at_cap),
      cmocka_unit_test (test_oversize_reject_and_fail),
      cmocka_unit_test (test_oversize_row_after_split),
      cmocka_unit_test (test_one_row_master),
      cmocka_unit_test (test_empty_source),
      cmocka_unit_test (test_key_types),
      cmocka_unit_test (test_bad_input),
      cmocka_unit_test (test_opts_check),
      cmocka_unit_test (test_fold_unfold_roundtrip),
      cmocka_unit_test (test_row_hash),
      cmocka_unit_test (test_unfold_rejects_bad_docs),
      cmocka_unit_test (test_hoist_sampler),
      cmocka_unit_test (test_bucket_window),
      cmocka_unit_test (test_bucket_spec),
      cmocka_unit_test (test_bucket_rows),
      cmocka_unit_test (test_bucket_by_day),
      cmocka_unit_test (test_bucket_by_bad_rows),
      cmocka_unit_test (test_bucket_oversize_per_bucket),
   };

   return lab_test_run_group ("fold", tests, NULL, NULL);
}
