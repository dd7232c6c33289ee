/*
 * test_keyenc.c -- the index key encoding: byte order of encodings equals MongoDB's value order (a
 * hand-checked ladder of tricky values, then thousands of random values of every supported type),
 * exact decode round trips (type and value), RecordId suffixes read from either end, the body/tag split
 * and mongod's unique-index format the embedded store uses, and refusal of unsupported types.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "core/keyenc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* values are built in a static pool so strings stay alive for the whole test */
#define POOL 8192
static bson_value_t pool[POOL];
static char *strings[POOL];
static int npool;

static bson_value_t *
v_new (bson_type_t t)
{
   bson_value_t *v;

   assert_true (npool < POOL);
   v = &pool[npool++];
   memset (v, 0, sizeof *v);
   v->value_type = t;
   return v;
}

static bson_value_t *
v_i32 (int32_t x)
{
   bson_value_t *v = v_new (BSON_TYPE_INT32);
   v->value.v_int32 = x;
   return v;
}

static bson_value_t *
v_i64 (int64_t x)
{
   bson_value_t *v = v_new (BSON_TYPE_INT64);
   v->value.v_int64 = x;
   return v;
}

static bson_value_t *
v_dbl (double x)
{
   bson_value_t *v = v_new (BSON_TYPE_DOUBLE);
   v->value.v_double = x;
   return v;
}

static bson_value_t *
v_str (const char *s, size_t len)
{
   bson_value_t *v = v_new (BSON_TYPE_UTF8);
   char *copy = bson_malloc (len + 1);

   memcpy (copy, s, len);
   copy[len] = '\0';
   strings[npool - 1] = copy;
   v->value.v_utf8.str = copy;
   v->value.v_utf8.len = (uint32_t)len;
   return v;
}

static bson_value_t *
v_oid (uint8_t fill, uint8_t last)
{
   bson_value_t *v = v_new (BSON_TYPE_OID);
   memset (v->value.v_oid.bytes, fill, 12);
   v->value.v_oid.bytes[11] = last;
   return v;
}

static bson_value_t *
v_date (int64_t ms)
{
   bson_value_t *v = v_new (BSON_TYPE_DATE_TIME);
   v->value.v_datetime = ms;
   return v;
}

static bson_value_t *
v_bool (bool b)
{
   bson_value_t *v = v_new (BSON_TYPE_BOOL);
   v->value.v_bool = b;
   return v;
}

static void
pool_free (void)
{
   int i;

   for (i = 0; i < npool; i++) {
      bson_free (strings[i]);
      strings[i] = NULL;
   }
   npool = 0;
}

/* enc -- encode v into a fresh buffer (fails the test on error). */
static void
enc (const bson_value_t *v, lab_buf_t *b)
{
   bson_error_t e;

   lab_buf_reset (b);
   if (!lab_store_key_encode (v, b, &e)) {
      fail_msg ("encode: %s", e.message);
   }
}

/* body_cmp -- memcmp order of the bodies (encodings without their trailing type tag). */
static int
body_cmp (const lab_buf_t *a, const lab_buf_t *b)
{
   size_t la = a->len - 1, lb = b->len - 1, n = la < lb ? la : lb;
   int c = memcmp (a->data, b->data, n);

   if (c) {
      return c < 0 ? -1 : 1;
   }
   return la < lb ? -1 : la > lb ? 1 : 0;
}

static int
full_cmp (const lab_buf_t *a, const lab_buf_t *b)
{
   size_t n = a->len < b->len ? a->len : b->len;
   int c = memcmp (a->data, b->data, n);

   if (c) {
      return c < 0 ? -1 : 1;
   }
   return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

static char *
show (const bson_value_t *v)
{
   bson_t d = BSON_INITIALIZER;
   char *s;

   bson_append_value (&d, "v", 1, v);
   s = bson_as_canonical_extended_json (&d, NULL);
   bson_destroy (&d);
   return s;
}

/* check_pair -- encodings order like lab_store_value_compare, and equal values have equal bodies. */
static void
check_pair (const bson_value_t *a, const bson_value_t *b, int expect)
{
   lab_buf_t ea, eb;
   int vc = lab_store_value_compare (a, b), bc, fc;

   lab_buf_init (&ea);
   lab_buf_init (&eb);
   enc (a, &ea);
   enc (b, &eb);
   bc = body_cmp (&ea, &eb);
   fc = full_cmp (&ea, &eb);
   vc = vc < 0 ? -1 : vc > 0 ? 1 : 0;
   if (expect != 2 && vc != expect) {
      char *sa = show (a), *sb = show (b);
      fail_msg ("lab_store_value_compare(%s, %s) = %d, expected %d", sa, sb, vc, expect);
   }
   if (bc != vc || (vc != 0 && fc != vc)) {
      char *sa = show (a), *sb = show (b);
      fail_msg ("encodings of %s and %s: body order %d, key order %d, value order %d", sa, sb, bc, fc, vc);
   }
   lab_buf_destroy (&ea);
   lab_buf_destroy (&eb);
}

/* check_roundtrip -- decode(encode(v)) has v's type and value (bitwise for doubles but NaN). */
static void
check_roundtrip (const bson_value_t *v)
{
   lab_buf_t b;
   bson_value_t d;
   bson_error_t e;

   lab_buf_init (&b);
   enc (v, &b);
   if (!lab_store_key_decode (b.data, b.len, &d, &e)) {
      char *s = show (v);
      fail_msg ("decode %s: %s", s, e.message);
   }
   if (d.value_type != v->value_type) {
      char *s = show (v);
      fail_msg ("decode %s: type 0x%x, expected 0x%x", s, d.value_type, v->value_type);
   }
   switch (v->value_type) {
   case BSON_TYPE_DOUBLE:
      if (isnan (v->value.v_double)) {
         assert_true (isnan (d.value.v_double));
      } else if (memcmp (&d.value.v_double, &v->value.v_double, 8) != 0) {
         fail_msg ("double %.17g decoded as %.17g", v->value.v_double, d.value.v_double);
      }
      break;
   case BSON_TYPE_INT32:
      assert_int_equal (d.value.v_int32, v->value.v_int32);
      break;
   case BSON_TYPE_INT64:
      assert_int_equal (d.value.v_int64, v->value.v_int64);
      break;
   case BSON_TYPE_UTF8:
      assert_int_equal (d.value.v_utf8.len, v->value.v_utf8.len);
      assert_memory_equal (d.value.v_utf8.str, v->value.v_utf8.str, v->value.v_utf8.len);
      break;
   case BSON_TYPE_OID:
      assert_memory_equal (d.value.v_oid.bytes, v->value.v_oid.bytes, 12);
      break;
   case BSON_TYPE_DATE_TIME:
      assert_int_equal (d.value.v_datetime, v->value.v_datetime);
      break;
   case BSON_TYPE_BOOL:
      assert_int_equal (d.value.v_bool, v->value.v_bool);
      break;
   default:
      break;
   }
   bson_value_destroy (&d);
   lab_buf_destroy (&b);
}

/* expect_bytes -- the encoding of v is exactly the given bytes (mongod's KeyString V1 + our tag). */
static void
expect_bytes (const bson_value_t *v, const char *hex)
{
   lab_buf_t b;
   char got[128];
   size_t i;

   lab_buf_init (&b);
   enc (v, &b);
   for (i = 0; i < b.len && 2 * i + 2 < sizeof got; i++) {
      snprintf (got + 2 * i, 3, "%02x", b.data[i]);
   }
   got[2 * i] = '\0';
   if (strcmp (got, hex) != 0) {
      char *sv = show (v);
      fail_msg ("encoding of %s is %s, expected %s", sv, got, hex);
   }
   lab_buf_destroy (&b);
}

/* test_vectors -- known KeyString V1 bytes (the last byte is our type tag: 04 where mongod has kEnd). */
static void
test_vectors (void **state)
{
   (void)state;
   expect_bytes (v_i32 (0), "2904");
   expect_bytes (v_i32 (1), "2b0204");
   expect_bytes (v_i32 (-1), "27fd04");
   expect_bytes (v_i32 (300), "2c025804");
   expect_bytes (v_i64 (1), "2b0205");
   expect_bytes (v_dbl (1.0), "2b0201");
   expect_bytes (v_dbl (-0.0), "2902");
   expect_bytes (v_dbl (1.5), "2b038000000000000001");
   expect_bytes (v_dbl (-1.5), "27fc7fffffffffffff01");
   expect_bytes (v_dbl (0.5), "2aff8000000000000001");
   expect_bytes (v_dbl (INFINITY), "33ffffffffffffffff01");
   expect_bytes (v_dbl (NAN), "1e01");
   expect_bytes (v_str ("ab", 2), "3c61620004");
   expect_bytes (v_str ("a\0b", 3), "3c6100ff620004");
   expect_bytes (v_new (BSON_TYPE_NULL), "1404");
   expect_bytes (v_new (BSON_TYPE_MINKEY), "0a04");
   expect_bytes (v_new (BSON_TYPE_MAXKEY), "f004");
   expect_bytes (v_bool (true), "6f04");
   expect_bytes (v_date (0), "78800000000000000004");
   expect_bytes (v_oid (0x11, 0x22), "6411111111111111111111112204");
   pool_free ();
}

/* test_ladder -- a hand-ordered list of tricky values: each strictly below the next, except the
 * groups marked equal (numbers of different types with one value). */
static void
test_ladder (void **state)
{
   const double two63 = 9223372036854775808.0;
   struct {
      bson_value_t *v;
      bool eq_next; /* equal to the next value */
   } L[80];
   int n = 0, i, j;

   (void)state;
#define ADD(val) (L[n].v = (val), L[n].eq_next = false, n++)
#define ADD_EQ(val) (L[n].v = (val), L[n].eq_next = true, n++)
   ADD (v_new (BSON_TYPE_MINKEY));
   ADD (v_new (BSON_TYPE_NULL));
   ADD (v_dbl (NAN));
   ADD (v_dbl (-INFINITY));
   ADD (v_dbl (-1e300));
   ADD_EQ (v_i64 (INT64_MIN));
   ADD (v_dbl (-two63));
   ADD (v_i64 (INT64_MIN + 1));
   ADD (v_dbl (-4503599627370497.0)); /* -(2^52 + 1) */
   ADD (v_dbl (-4503599627370496.5));
   ADD_EQ (v_i32 (INT32_MIN));
   ADD (v_dbl (-2147483648.0));
   ADD (v_dbl (-3.5));
   ADD_EQ (v_i32 (-3));
   ADD_EQ (v_i64 (-3));
   ADD (v_dbl (-3.0));
   ADD (v_dbl (-2.9999999999999996));
   ADD (v_dbl (-1.0));
   ADD (v_dbl (-0.5));
   ADD (v_dbl (-1e-300));
   ADD (v_dbl (-4.9e-324));
   ADD_EQ (v_i32 (0));
   ADD_EQ (v_i64 (0));
   ADD_EQ (v_dbl (0.0));
   ADD (v_dbl (-0.0));
   ADD (v_dbl (4.9e-324));
   ADD (v_dbl (1e-300));
   ADD (v_dbl (0.5));
   ADD (v_dbl (0.9999999999999999));
   ADD_EQ (v_i32 (1));
   ADD (v_dbl (1.0));
   ADD (v_dbl (1.0000000000000002));
   ADD (v_dbl (2.9999));
   ADD (v_dbl (2.9999999999999996));
   ADD_EQ (v_i32 (3));
   ADD_EQ (v_i64 (3));
   ADD (v_dbl (3.0));
   ADD (v_dbl (3.25));
   ADD (v_dbl (3.5));
   ADD (v_i32 (255));
   ADD (v_i32 (256));
   ADD_EQ (v_i32 (INT32_MAX));
   ADD (v_i64 (INT32_MAX));
   ADD (v_i64 ((int64_t)INT32_MAX + 1));
   ADD_EQ (v_dbl (9007199254740992.0)); /* 2^53 */
   ADD (v_i64 (9007199254740992LL));
   ADD (v_i64 (9007199254740993LL)); /* 2^53 + 1: no double has this value */
   ADD (v_dbl (9007199254740994.0));
   ADD (v_i64 (INT64_MAX - 1));
   ADD (v_i64 (INT64_MAX));
   ADD (v_dbl (two63));
   ADD (v_dbl (1e300));
   ADD (v_dbl (INFINITY));
   ADD (v_str ("", 0));
   ADD (v_str ("\0", 1));
   ADD (v_str ("\0\0", 2));
   ADD (v_str ("\0\x01", 2));
   ADD (v_str ("\x01", 1));
   ADD (v_str ("a", 1));
   ADD (v_str ("a\0", 2));
   ADD (v_str ("a\0b", 3));
   ADD (v_str ("a\x01", 2));
   ADD (v_str ("ab", 2));
   ADD (v_str ("b", 1));
   ADD (v_str ("\x7f", 1));
   ADD (v_str ("\xc3\xa9", 2)); /* é */
   ADD (v_str ("\xe4\xb8\xad\xe6\x96\x87", 6));
   ADD (v_str ("\xff", 1));
   ADD (v_oid (0, 0));
   ADD (v_oid (0, 1));
   ADD (v_oid (0xff, 0xff));
   ADD (v_bool (false));
   ADD (v_bool (true));
   ADD (v_date (INT64_MIN));
   ADD (v_date (-1));
   ADD (v_date (0));
   ADD (v_date (1));
   ADD (v_date (INT64_MAX));
   ADD (v_new (BSON_TYPE_MAXKEY));
   assert_true (n <= 80);
   for (i = 0; i < n; i++) {
      check_roundtrip (L[i].v);
      for (j = i + 1; j < n; j++) {
         bool all_eq = true;
         int k;
         for (k = i; k < j; k++) {
            all_eq = all_eq && L[k].eq_next;
         }
         check_pair (L[i].v, L[j].v, all_eq ? 0 : -1);
         check_pair (L[j].v, L[i].v, all_eq ? 0 : 1);
      }
   }
   pool_free ();
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t
rnd (void)
{
   /* xorshift64*: deterministic, so a failure reproduces */
   rng ^= rng >> 12;
   rng ^= rng << 25;
   rng ^= rng >> 27;
   return rng * 2685821657736338717ULL;
}

/* random_value -- any supported type, biased to the hard cases. */
static bson_value_t *
random_value (void)
{
   static const struct {
      const char *s;
      size_t len;
   } alphabet[] = { { "", 0 },     { "\0", 1 },   { "a", 1 }, { "b", 1 }, { "\xc3\xa9", 2 },
                    { "\xff", 1 }, { "\x01", 1 }, { "z", 1 }, { "ab", 2 } };
   static const double specials[] = { 0.0,
                                      -0.0,
                                      1.0,
                                      -1.0,
                                      0.5,
                                      -0.5,
                                      3.0,
                                      2.9999,
                                      3.0000001,
                                      1e-310,
                                      -1e-310,
                                      1e308,
                                      -1e308,
                                      9223372036854775808.0,
                                      -9223372036854775808.0,
                                      9223372036854774784.0,
                                      4294967296.5,
                                      1e15 + 0.25 };
   switch (rnd () % 12) {
   case 0:
      return v_i32 ((int32_t)(rnd () % 2001) - 1000);
   case 1:
      return v_i32 ((int32_t)rnd ());
   case 2: {
      int shift = (int)(rnd () % 64);
      int64_t x = (int64_t)(rnd () >> shift);
      return v_i64 (rnd () & 1 ? -x : x);
   }
   case 3:
      return v_i64 ((int64_t)(rnd () % 2001) - 1000);
   case 4: {
      /* random bits: every exponent, subnormals, infinities, NaNs */
      uint64_t bits = rnd ();
      double d;
      memcpy (&d, &bits, sizeof d);
      return v_dbl (d);
   }
   case 5: {
      /* near integers and halves */
      double d = (double)((int64_t)(rnd () % 2001) - 1000) / (double)(1 << (rnd () % 4));
      return v_dbl (rnd () % 3 == 0 ? nextafter (d, rnd () & 1 ? INFINITY : -INFINITY) : d);
   }
   case 6:
      return v_dbl (specials[rnd () % (sizeof specials / sizeof specials[0])]);
   case 7:
   case 8: {
      char buf[16];
      size_t len = 0;
      int parts = (int)(rnd () % 5), p;
      for (p = 0; p < parts; p++) {
         size_t k = rnd () % (sizeof alphabet / sizeof alphabet[0]);
         memcpy (buf + len, alphabet[k].s, alphabet[k].len);
         len += alphabet[k].len;
      }
      return v_str (buf, len);
   }
   case 9:
      return v_oid ((uint8_t)(rnd () % 3), (uint8_t)rnd ());
   case 10:
      return v_date ((int64_t)rnd () >> (rnd () % 40));
   default:
      switch (rnd () % 4) {
      case 0:
         return v_bool (rnd () & 1);
      case 1:
         return v_new (BSON_TYPE_NULL);
      case 2:
         return v_new (BSON_TYPE_MINKEY);
      default:
         return v_new (BSON_TYPE_MAXKEY);
      }
   }
}

typedef struct {
   lab_buf_t key;
   bson_value_t *v;
} item_t;

static int
item_cmp (const void *a, const void *b)
{
   return full_cmp (&((const item_t *)a)->key, &((const item_t *)b)->key);
}

/* test_random -- thousands of random values: pairwise order agreement, round trips, and a sort by
 * encoded bytes that is in value order. */
static void
test_random (void **state)
{
   enum { N = 6000 };
   item_t *items = bson_malloc0 (N * sizeof *items);
   int i;

   (void)state;
   for (i = 0; i < N; i++) {
      items[i].v = random_value ();
      lab_buf_init (&items[i].key);
      enc (items[i].v, &items[i].key);
      check_roundtrip (items[i].v);
   }
   for (i = 0; i + 1 < N; i++) {
      check_pair (items[i].v, items[i + 1].v, 2);
      check_pair (items[i].v, items[(i * 7919) % N].v, 2);
   }
   qsort (items, N, sizeof *items, item_cmp);
   for (i = 0; i + 1 < N; i++) {
      if (lab_store_value_compare (items[i].v, items[i + 1].v) > 0) {
         char *a = show (items[i].v), *b = show (items[i + 1].v);
         fail_msg ("sorted by bytes but %s > %s", a, b);
      }
   }
   for (i = 0; i < N; i++) {
      lab_buf_destroy (&items[i].key);
   }
   bson_free (items);
   pool_free ();
}

/* test_recordid -- (value, id) keys sort by id within a value, and the id splits back off. */
static void
test_recordid (void **state)
{
   static const int64_t ids[] = {
      1, 2, 31, 32, 1023, 1024, 1025, 65535, 1LL << 20, (1LL << 40) + 7, INT64_MAX - 1, INT64_MAX
   };
   size_t n = sizeof ids / sizeof ids[0], i;
   lab_buf_t prev, cur;
   bson_value_t v;

   (void)state;
   lab_buf_init (&prev);
   lab_buf_init (&cur);
   v.value_type = BSON_TYPE_UTF8;
   v.value.v_utf8.str = "bill";
   v.value.v_utf8.len = 4;
   for (i = 0; i < n; i++) {
      size_t vlen = 0;
      int64_t rid = 0;

      enc (&v, &cur);
      lab_store_key_append_recordid (&cur, ids[i]);
      assert_true (lab_store_key_split_recordid (cur.data, cur.len, &vlen, &rid));
      assert_int_equal (rid, ids[i]);
      assert_int_equal (vlen, 4 + 3); /* type byte, "bill", terminator, tag */
      if (i) {
         assert_int_equal (full_cmp (&prev, &cur), -1);
      }
      lab_buf_reset (&prev);
      lab_buf_append (&prev, cur.data, cur.len);
   }
   /* a greater value sorts after, whatever the ids */
   v.value.v_utf8.str = "bilm";
   enc (&v, &cur);
   lab_store_key_append_recordid (&cur, 1);
   assert_int_equal (full_cmp (&prev, &cur), -1);
   {
      size_t vl;
      int64_t r;
      assert_false (lab_store_key_split_recordid ((const uint8_t *)"\x01", 1, &vl, &r));
   }
   lab_buf_destroy (&prev);
   lab_buf_destroy (&cur);
}

/* check_rid -- rid written after `prefix` bytes and before `suffix` bytes decodes from the front (at
 * the offset the prefix ends) and from the back (when no suffix follows), with the length KeyString
 * gives it: 2 bytes up to 10 bits, one more byte per 8 bits beyond. */
static void
check_rid (int64_t id, const uint8_t *prefix, size_t plen, const uint8_t *suffix, size_t slen)
{
   lab_buf_t b;
   size_t used = 0, vlen = 0, want;
   int64_t rid = -1;
   int bits = id ? 64 - __builtin_clzll ((uint64_t)id) : 0;

   want = 2 + (bits <= 10 ? 0 : (size_t)((bits - 10) + 7) / 8);
   lab_buf_init (&b);
   lab_buf_append (&b, prefix, plen);
   lab_store_key_append_recordid (&b, id);
   assert_int_equal (b.len - plen, want);
   lab_buf_append (&b, suffix, slen);
   if (!lab_store_key_recordid_decode (b.data + plen, b.len - plen, &rid, &used)) {
      fail_msg ("RecordId %lld does not decode from the front", (long long)id);
   }
   assert_int_equal (rid, id);
   assert_int_equal (used, want);
   if (slen == 0 && plen > 0) {
      rid = -1;
      assert_true (lab_store_key_split_recordid (b.data, b.len, &vlen, &rid));
      assert_int_equal (rid, id);
      assert_int_equal (vlen, plen);
   }
   lab_buf_destroy (&b);
}

/* test_recordid_codec -- append + decode round trips of many RecordIds: every id up to 2^12, both
 * sides of every byte-count boundary, powers of two, the int64 limits and random ids; read from the
 * front (the _id index value, a tag following) and from the back (a full index key); encodings in id
 * order; truncated and inconsistent encodings refused. */
static void
test_recordid_codec (void **state)
{
   static const uint8_t value[] = { 60, 'b', 'i', 'l', 'l', 0, 4 }, tag[] = { 5 };
   lab_buf_t prev, cur;
   int64_t id, rid, prev_id;
   size_t used;
   int i, k;

   (void)state;
   for (id = 1; id <= 4096; id++) {
      check_rid (id, NULL, 0, NULL, 0);
      check_rid (id, value, sizeof value, NULL, 0);
      check_rid (id, NULL, 0, tag, sizeof tag);
   }
   for (k = 0; k <= 6; k++) {
      int64_t edge = (int64_t)1 << (10 + 8 * k); /* the first id needing k + 1 middle bytes */
      for (i = -2; i <= 2; i++) {
         check_rid (edge + i, value, sizeof value, NULL, 0);
         check_rid (edge + i, NULL, 0, tag, sizeof tag);
      }
   }
   for (k = 0; k < 63; k++) {
      check_rid ((int64_t)1 << k, value, sizeof value, NULL, 0);
      check_rid (((int64_t)1 << k) + 1, NULL, 0, tag, sizeof tag);
   }
   check_rid (INT64_MAX, value, sizeof value, NULL, 0);
   check_rid (INT64_MAX, NULL, 0, tag, sizeof tag);
   check_rid (INT64_MAX - 1, value, sizeof value, NULL, 0);
   for (i = 0; i < 20000; i++) {
      id = (int64_t)(rnd () >> (1 + rnd () % 63));
      check_rid (id ? id : 1, value, sizeof value, tag, i % 2 ? sizeof tag : 0);
   }
   /* memcmp order of the encodings is id order, across every byte-count change */
   lab_buf_init (&prev);
   lab_buf_init (&cur);
   for (k = 1, prev_id = 0; k < 63; k++) {
      for (i = -1; i <= 1; i++) {
         id = ((int64_t)1 << k) + i;
         lab_buf_reset (&cur);
         lab_store_key_append_recordid (&cur, id);
         if (prev_id) {
            assert_int_equal (full_cmp (&prev, &cur), prev_id < id ? -1 : prev_id > id ? 1 : 0);
         }
         lab_buf_reset (&prev);
         lab_buf_append (&prev, cur.data, cur.len);
         prev_id = id;
      }
   }
   /* refusals: too short, truncated, and a byte count that the two ends disagree on */
   lab_buf_reset (&cur);
   lab_store_key_append_recordid (&cur, (int64_t)1 << 40);
   assert_false (lab_store_key_recordid_decode (cur.data, 1, &rid, &used));
   assert_false (lab_store_key_recordid_decode (cur.data, cur.len - 1, &rid, &used));
   cur.data[cur.len - 1] ^= 1;
   assert_false (lab_store_key_recordid_decode (cur.data, cur.len, &rid, &used));
   assert_false (lab_store_key_recordid_decode ((const uint8_t *)"", 0, &rid, &used));
   lab_buf_destroy (&prev);
   lab_buf_destroy (&cur);
}

/* check_parts -- body, tag and the unique-index format of v agree with lab_store_key_encode: the body is the
 * encoding minus its last byte, the unique key is body + 0x04 (also when built from the body), the
 * unique value is RecordId + tag, and key + value join back into the encoding. */
static void
check_parts (const bson_value_t *v, int64_t id)
{
   lab_buf_t full, body, ukey, ukey2, uval, joined;
   bson_error_t e;
   uint8_t tag = 0;
   int64_t rid = 0;
   size_t used = 0;

   lab_buf_init (&full);
   lab_buf_init (&body);
   lab_buf_init (&ukey);
   lab_buf_init (&ukey2);
   lab_buf_init (&uval);
   lab_buf_init (&joined);
   enc (v, &full);
   assert_true (lab_store_key_encode_body (v, &body, &e));
   assert_int_equal (body.len, full.len - 1);
   assert_int_equal (lab_store_key_body_len (full.len), body.len);
   assert_memory_equal (body.data, full.data, body.len);
   assert_true (lab_store_key_has_body (full.data, full.len, body.data, body.len));
   lab_store_key_append_recordid (&full, id);
   assert_true (lab_store_key_has_body (full.data, full.len, body.data, body.len));
   full.len = body.len + 1; /* back to the encoded value */
   assert_true (lab_store_key_encode_unique (v, &ukey, &tag, &e));
   assert_int_equal (ukey.len, full.len);
   assert_memory_equal (ukey.data, body.data, body.len);
   assert_int_equal (ukey.data[ukey.len - 1], 0x04);
   assert_int_equal (tag, full.data[full.len - 1]);
   lab_store_key_unique_key (&ukey2, body.data, body.len);
   assert_int_equal (ukey2.len, ukey.len);
   assert_memory_equal (ukey2.data, ukey.data, ukey.len);
   lab_store_key_unique_value (&uval, id, tag);
   assert_int_equal (uval.data[uval.len - 1], tag);
   assert_true (lab_store_key_recordid_decode (uval.data, uval.len, &rid, &used));
   assert_int_equal (rid, id);
   assert_int_equal (used, uval.len - 1);
   assert_true (lab_store_key_unique_join (ukey.data, ukey.len, uval.data, uval.len, &joined));
   assert_int_equal (joined.len, full.len);
   assert_memory_equal (joined.data, full.data, full.len);
   lab_buf_destroy (&full);
   lab_buf_destroy (&body);
   lab_buf_destroy (&ukey);
   lab_buf_destroy (&ukey2);
   lab_buf_destroy (&uval);
   lab_buf_destroy (&joined);
}

/* test_body_and_unique -- the body/tag split and mongod's unique-index format, for the ladder's kinds
 * of values and random ones; a body matches only keys of its own value. */
static void
test_body_and_unique (void **state)
{
   lab_buf_t a, b;
   bson_error_t e;
   int i;

   (void)state;
   check_parts (v_i32 (3), 1);
   check_parts (v_i64 (3), 1023);
   check_parts (v_dbl (3.0), 1024);
   check_parts (v_dbl (-0.0), 7);
   check_parts (v_dbl (2.5), INT64_MAX);
   check_parts (v_str ("bill", 4), 42);
   check_parts (v_str ("a\0b", 3), 42);
   check_parts (v_new (BSON_TYPE_NULL), 1);
   check_parts (v_new (BSON_TYPE_MINKEY), 1);
   check_parts (v_new (BSON_TYPE_MAXKEY), 1);
   check_parts (v_bool (true), 5);
   check_parts (v_oid (0xAB, 1), 6);
   check_parts (v_date (-1), 9);
   for (i = 0; i < 2000; i++) {
      check_parts (random_value (), (int64_t)(rnd () >> 1) | 1);
   }
   /* "a" is not "a\0b" (its body continues with an escaped NUL), 3 is not 4 */
   lab_buf_init (&a);
   lab_buf_init (&b);
   assert_true (lab_store_key_encode_body (v_str ("a", 1), &a, &e));
   enc (v_str ("a\0b", 3), &b);
   assert_false (lab_store_key_has_body (b.data, b.len, a.data, a.len));
   lab_buf_reset (&a);
   assert_true (lab_store_key_encode_body (v_i32 (3), &a, &e));
   enc (v_i32 (4), &b);
   assert_false (lab_store_key_has_body (b.data, b.len, a.data, a.len));
   assert_false (lab_store_key_has_body (a.data, a.len, a.data, a.len)); /* no tag after the body */
   /* refusals: unsupported types, malformed unique entries */
   memset (&e, 0, sizeof e);
   assert_false (lab_store_key_encode_body (v_new (BSON_TYPE_ARRAY), &a, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE));
   assert_false (lab_store_key_unique_join (a.data, 1, b.data, b.len, &b));
   assert_false (lab_store_key_unique_join (a.data, a.len, b.data, 2, &b));
   lab_buf_destroy (&a);
   lab_buf_destroy (&b);
   pool_free ();
}

/* test_unsupported -- arrays, documents, decimals ... are refused with KEY_TYPE naming the type;
 * corrupt keys are refused by the decoder. */
static void
test_unsupported (void **state)
{
   bson_value_t v, d;
   bson_error_t e;
   lab_buf_t b;
   static const uint8_t bad_tag[] = { 41, 9 };
   static const uint8_t unterminated[] = { 60, 'a', 'b' };
   static const uint8_t int_as_i32_too_big[] = { 50, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 4 };

   (void)state;
   lab_buf_init (&b);
   memset (&v, 0, sizeof v);
   v.value_type = BSON_TYPE_DECIMAL128;
   assert_false (lab_store_key_encode (&v, &b, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE));
   assert_non_null (strstr (e.message, "decimal"));
   v.value_type = BSON_TYPE_ARRAY;
   assert_false (lab_store_key_encode (&v, &b, &e));
   assert_non_null (strstr (e.message, "array"));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE));
   assert_false (lab_store_key_type_supported (BSON_TYPE_DOCUMENT));
   assert_true (lab_store_key_type_supported (BSON_TYPE_OID));
   assert_false (lab_store_key_decode (bad_tag, sizeof bad_tag, &d, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC)); /* a malformed key */
   assert_false (lab_store_key_decode (unterminated, sizeof unterminated, &d, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC)); /* a malformed key */
   assert_false (lab_store_key_decode (int_as_i32_too_big, sizeof int_as_i32_too_big, &d, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC)); /* a malformed key */
   lab_buf_destroy (&b);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_vectors),        cmocka_unit_test (test_ladder),
      cmocka_unit_test (test_random),         cmocka_unit_test (test_recordid),
      cmocka_unit_test (test_recordid_codec), cmocka_unit_test (test_body_and_unique),
      cmocka_unit_test (test_unsupported),
   };
   return lab_test_run_group ("keyenc", tests, NULL, NULL);
}
