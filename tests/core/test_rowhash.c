/*
 * test_rowhash.c -- pins the canonical row digest (core/rowhash.h) to golden values: the results files of
 * earlier runs carry these digests (fold-details --verify, scancmp's content digests) and are compared
 * with new ones, so a faster hash must give the same bits. The rows cover every BSON type the walk knows,
 * nested documents and arrays, long names and values (each of XXH3's length paths), a row with its _id
 * replaced, a folded document's elements merged with its hoisted fields (fewer and more than 64), and
 * bytes that are not BSON. A mismatch prints the value computed, so the table can be read off a run of
 * the code the values were pinned by (and only then).
 */
#include <stdio.h>
#include <string.h>

#include "core/rowhash.h"
#include "tests/testutil.h"

/* One golden digest: what it is of and its two halves. */
typedef struct {
   const char *what;
   uint64_t lo, hi;
} golden_t;

static const golden_t goldens[] = {
#include "rowhash_golden.inc"
};

/* The digests computed by this run, in the order of goldens[]. */
typedef struct {
   const char *what[64];
   lab_rowhash_t h[64];
   size_t n;
} got_t;

/* got_push -- record digest h of `what`. */
static void
got_push (got_t *g, const char *what, lab_rowhash_t h)
{
   assert_true (g->n < 64);
   g->what[g->n] = what;
   g->h[g->n++] = h;
}

/* all_types -- a row with one field of every type the walk knows. */
static void
all_types (bson_t *b)
{
   bson_oid_t oid;
   bson_decimal128_t dec = { 0x3040000000000000ull, 12345 };
   bson_t scope = BSON_INITIALIZER;
   uint8_t bin[7] = { 1, 2, 3, 0, 5, 6, 7 };

   bson_oid_init_from_string (&oid, "5f1e2d3c4b5a697887960504");
   BSON_APPEND_DOUBLE (b, "dbl", 3.0);
   BSON_APPEND_UTF8 (b, "str", "hello");
   BSON_APPEND_INT32 (b, "i32", 3);
   BSON_APPEND_INT64 (b, "i64", -3);
   BSON_APPEND_BOOL (b, "yes", true);
   BSON_APPEND_NULL (b, "nul");
   BSON_APPEND_UNDEFINED (b, "und");
   BSON_APPEND_MINKEY (b, "min");
   BSON_APPEND_MAXKEY (b, "max");
   BSON_APPEND_OID (b, "oid", &oid);
   BSON_APPEND_DATE_TIME (b, "date", 1700000000123);
   BSON_APPEND_TIMESTAMP (b, "ts", 1700000000, 7);
   BSON_APPEND_DECIMAL128 (b, "dec", &dec);
   BSON_APPEND_BINARY (b, "bin", BSON_SUBTYPE_BINARY, bin, sizeof bin);
   BSON_APPEND_BINARY (b, "bin0", BSON_SUBTYPE_UUID, bin, 0);
   BSON_APPEND_REGEX (b, "re", "^a.*b$", "im");
   BSON_APPEND_CODE (b, "code", "function () { return 1; }");
   BSON_APPEND_SYMBOL (b, "sym", "symbol");
   BSON_APPEND_DBPOINTER (b, "dbp", "db.coll", &oid);
   BSON_APPEND_INT32 (&scope, "x", 1);
   BSON_APPEND_CODE_WITH_SCOPE (b, "cws", "x + 1", &scope);
   bson_destroy (&scope);
}

/* nested -- a row with documents and arrays inside documents and arrays. */
static void
nested (bson_t *b)
{
   bson_t d, a, dd, ad;

   BSON_APPEND_INT32 (b, "_id", 9);
   BSON_APPEND_DOCUMENT_BEGIN (b, "addr", &d);
   BSON_APPEND_UTF8 (&d, "city", "Lyon");
   BSON_APPEND_DOCUMENT_BEGIN (&d, "geo", &dd);
   BSON_APPEND_DOUBLE (&dd, "lat", 45.76);
   BSON_APPEND_DOUBLE (&dd, "lon", 4.84);
   bson_append_document_end (&d, &dd);
   BSON_APPEND_ARRAY_BEGIN (&d, "zip", &a);
   BSON_APPEND_INT32 (&a, "0", 69001);
   BSON_APPEND_INT32 (&a, "1", 69002);
   bson_append_array_end (&d, &a);
   bson_append_document_end (b, &d);
   BSON_APPEND_ARRAY_BEGIN (b, "tags", &a);
   BSON_APPEND_UTF8 (&a, "0", "x");
   BSON_APPEND_DOCUMENT_BEGIN (&a, "1", &ad);
   BSON_APPEND_BOOL (&ad, "ok", false);
   bson_append_document_end (&a, &ad);
   BSON_APPEND_ARRAY_BEGIN (&a, "2", &dd);
   bson_append_array_end (&a, &dd);
   bson_append_array_end (b, &a);
   BSON_APPEND_DOCUMENT_BEGIN (b, "empty", &d);
   bson_append_document_end (b, &d);
}

/* long_fields -- names and values of every XXH3 length path (0-16, 17-128, 129-240, longer). */
static void
long_fields (bson_t *b)
{
   char s[1200];
   static const size_t lens[] = { 10, 13, 100, 200, 1100 };

   memset (s, 'v', sizeof s);
   for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
      char name[40];
      snprintf (name, sizeof name, "field_%zu", lens[i]);
      bson_append_utf8 (b, name, -1, s, (int)lens[i]);
   }
   memset (s, 'n', 150);
   bson_append_int32 (b, s, 150, 1);
}

/* bill_row -- a row as billgen's detail collection holds it. */
static void
bill_row (bson_t *b, int line)
{
   BSON_APPEND_INT64 (b, "_id", 1000 + line);
   BSON_APPEND_UTF8 (b, "ETL_Patient_IDStr", "P-0000042");
   BSON_APPEND_INT32 (b, "line_no", line);
   BSON_APPEND_UTF8 (b, "item_code", line % 2 ? "A123" : "B45678");
   BSON_APPEND_DOUBLE (b, "amount", 12.5 * line);
   BSON_APPEND_DATE_TIME (b, "billed_at", 1600000000000 + line);
   if (line == 2) {
      BSON_APPEND_UTF8 (b, "ward", "own ward"); /* the element's own value wins over the hoisted one */
   }
}

/* folded_doc -- a folded document: its key, nh hoisted fields (ward among them), the fold's own fields
 * and the array "lines" of 3 elements (bill_row without its key). */
static void
folded_doc (bson_t *b, int nh)
{
   bson_t a, e;

   BSON_APPEND_UTF8 (b, "_id", "P-0000042");
   BSON_APPEND_INT32 (b, LAB_FOLD_ROW_COUNT, 3);
   BSON_APPEND_UTF8 (b, "ward", "hoisted ward");
   BSON_APPEND_UTF8 (b, "hospital_name", "hoisted hospital"); /* a name past 8 bytes */
   for (int i = 1; i < nh; i++) {
      char name[16];
      snprintf (name, sizeof name, "h%d", i);
      bson_append_int32 (b, name, -1, i);
   }
   BSON_APPEND_INT32 (b, LAB_FOLD_PART, 0);
   BSON_APPEND_ARRAY_BEGIN (b, "lines", &a);
   for (int l = 1; l <= 3; l++) {
      char idx[4];
      snprintf (idx, sizeof idx, "%d", l - 1);
      bson_append_document_begin (&a, idx, -1, &e);
      bill_row (&e, l);
      if (l == 1) {
         BSON_APPEND_UTF8 (&e, "hospital_name", "own hospital");
      }
      if (l == 3) {
         BSON_APPEND_INT32 (&e, "h66", -66);                    /* a hoisted name past the first 64 */
         BSON_APPEND_UTF8 (&e, "hospital_nama", "not hoisted"); /* its first 8 bytes a hoisted name's */
      }
      bson_append_document_end (&a, &e);
   }
   bson_append_array_end (b, &a);
}

/* push_folded -- the merged digests of folded_doc (b, nh)'s elements, and of a corrupt element. */
static void
push_folded (got_t *g, const char *what[4], int nh)
{
   bson_t b = BSON_INITIALIZER;
   lab_rowhash_hoisted_t *h;
   bson_iter_t it, arr;
   int i = 0;

   folded_doc (&b, nh);
   h = lab_rowhash_hoisted_of (&b, "lines");
   assert_true (bson_iter_init_find (&it, &b, "lines") && bson_iter_recurse (&it, &arr));
   while (bson_iter_next (&arr)) {
      uint32_t len;
      const uint8_t *data;
      bson_iter_document (&arr, &len, &data);
      got_push (g, what[i++], lab_rowhash_merged (data, len, h));
   }
   {
      uint8_t tiny[] = { 12, 0, 0, 0, 0x10, 'a', 0, 1, 0, 0, 0, 0 }; /* {a: 1}: 8 bytes load past its name */
      got_push (g, what[3], lab_rowhash_merged (tiny, sizeof tiny, h));
   }
   lab_rowhash_hoisted_free (h);
   bson_destroy (&b);
}

/* compute -- every digest of goldens[], in its order. */
static void
compute (got_t *g)
{
   bson_t b = BSON_INITIALIZER, n = BSON_INITIALIZER, l = BSON_INITIALIZER, r = BSON_INITIALIZER;
   bson_t e = BSON_INITIALIZER, idd = BSON_INITIALIZER;
   bson_iter_t id;
   static const char *f1[4] = { "merged 1 line 1", "merged 1 line 2", "merged 1 line 3", "merged 1 tiny" };
   static const char *f8[4] = { "merged 8 line 1", "merged 8 line 2", "merged 8 line 3", "merged 8 tiny" };
   static const char *f70[4] = { "merged 70 line 1", "merged 70 line 2", "merged 70 line 3",
                                 "merged 70 tiny" };

   all_types (&b);
   got_push (g, "all types", lab_rowhash_row (&b));
   nested (&n);
   got_push (g, "nested", lab_rowhash_row (&n));
   long_fields (&l);
   got_push (g, "long fields", lab_rowhash_row (&l));
   bill_row (&r, 1);
   got_push (g, "bill row", lab_rowhash_doc (bson_get_data (&r), r.len));
   got_push (g, "empty", lab_rowhash_row (&e));
   {
      lab_rowhash_t m = lab_rowhash_merged (bson_get_data (&r), r.len, NULL), d = lab_rowhash_row (&r);
      assert_true (m.lo == d.lo && m.hi == d.hi); /* no hoisted fields: the row itself */
   }
   BSON_APPEND_DOUBLE (&idd, "id", 77.0);
   assert_true (bson_iter_init_find (&id, &idd, "id"));
   got_push (g, "bill row, _id replaced", lab_rowhash_doc_id (bson_get_data (&r), r.len, &id));
   push_folded (g, f1, 1); /* two hoisted fields: a filter with few bits set */
   push_folded (g, f8, 8);
   push_folded (g, f70, 70);
   {
      uint8_t *raw = bson_malloc (b.len);
      memcpy (raw, bson_get_data (&b), b.len);
      raw[4] = 0x7f; /* a maxkey in place of the double: its value's bytes walked as elements */
      got_push (g, "maxkey in place of a double", lab_rowhash_doc (raw, b.len));
      raw[4] = 0x20; /* a type byte no BSON has */
      got_push (g, "bad type", lab_rowhash_doc (raw, b.len));
      raw[4] = BSON_TYPE_DOUBLE;
      got_push (g, "length prefix short", lab_rowhash_doc (raw, b.len - 1));
      memcpy (raw, bson_get_data (&n), 4);
      got_push (g, "length prefix of another row", lab_rowhash_doc (raw, b.len));
      bson_free (raw);
   }
   {
      uint8_t bad[] = { 16, 0, 0, 0, 0x02, 's', 0, 200, 0, 0, 0, 'a', 'b', 'c', 0, 0 }; /* string overruns */
      got_push (g, "string overruns", lab_rowhash_doc (bad, sizeof bad));
      got_push (g, "too short", lab_rowhash_doc (bad, 3));
      bad[15] = 1; /* no NUL at its end */
      got_push (g, "merged, no NUL at the end", lab_rowhash_merged (bad, sizeof bad, NULL));
   }
   bson_destroy (&b);
   bson_destroy (&n);
   bson_destroy (&l);
   bson_destroy (&r);
   bson_destroy (&e);
   bson_destroy (&idd);
}

/* test_golden -- every digest equals the one pinned (printed in the table's form when one differs). */
static void
test_golden (void **state)
{
   got_t g = { .n = 0 };
   size_t bad = 0;

   (void)state;
   compute (&g);
   assert_int_equal (g.n, sizeof goldens / sizeof goldens[0]);
   for (size_t i = 0; i < g.n; i++) {
      assert_string_equal (g.what[i], goldens[i].what);
      if (g.h[i].lo != goldens[i].lo || g.h[i].hi != goldens[i].hi) {
         printf ("DIFFERS: { \"%s\", 0x%016llxull, 0x%016llxull },\n", g.what[i],
                 (unsigned long long)g.h[i].lo, (unsigned long long)g.h[i].hi);
         bad++;
      }
   }
   assert_int_equal (bad, 0);
}

/* test_distinct -- the pinned digests differ from one another (a table of equal values pins nothing). */
static void
test_distinct (void **state)
{
   size_t n = sizeof goldens / sizeof goldens[0];

   (void)state;
   for (size_t i = 0; i < n; i++) {
      for (size_t j = i + 1; j < n; j++) {
         assert_false (goldens[i].lo == goldens[j].lo && goldens[i].hi == goldens[j].hi);
      }
   }
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_golden),
      cmocka_unit_test (test_distinct),
   };

   return lab_test_run_group ("rowhash", tests, NULL, NULL);
}
