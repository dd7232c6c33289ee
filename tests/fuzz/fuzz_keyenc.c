/*
 * fuzz_keyenc.c -- libFuzzer harness of the KeyString encoding (core/keyenc.h). Two values of every
 * supported type are built from the input (doubles from raw bits: NaN, infinities, -0.0, subnormals,
 * integral values; strings with NUL bytes) and checked:
 *   round trip  lab_store_key_decode (lab_store_key_encode (v)) is v, with its exact type;
 *   RecordId    value + RecordId splits back into both; the unique-index form joins back to the key;
 *   order       memcmp order of the encodings is the order of a reference comparison written here
 *               (MongoDB's canonical type order, numbers by exact value, strings bytewise), and values
 *               the reference calls equal have equal bodies; lab_store_value_compare agrees with it.
 */
#include "core/keyenc.h"
#include "tests/fuzz/fuzz_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* make_value -- a supported value from the input bytes (strings point into buf). */
static void
make_value (lab_fuzz_bytes_t *b, bson_value_t *v, char *buf, size_t cap)
{
   uint8_t t = lab_fuzz_u8 (b) % 11;
   memset (v, 0, sizeof *v);
   switch (t) {
   case 0:
      v->value_type = BSON_TYPE_MINKEY;
      break;
   case 1:
      v->value_type = BSON_TYPE_MAXKEY;
      break;
   case 2:
      v->value_type = BSON_TYPE_NULL;
      break;
   case 3:
      v->value_type = BSON_TYPE_BOOL;
      v->value.v_bool = lab_fuzz_u8 (b) & 1;
      break;
   case 4:
      v->value_type = BSON_TYPE_INT32;
      v->value.v_int32 = (int32_t)lab_fuzz_u32 (b);
      break;
   case 5:
      v->value_type = BSON_TYPE_INT64;
      v->value.v_int64 = (int64_t)lab_fuzz_u64 (b);
      break;
   case 6: {
      uint64_t bits = lab_fuzz_u64 (b);
      v->value_type = BSON_TYPE_DOUBLE;
      memcpy (&v->value.v_double, &bits, 8);
      break;
   }
   case 7: {
      /* doubles near integers and powers of two, where the encoding changes form */
      int64_t i = (int64_t)lab_fuzz_u64 (b);
      int e = (int8_t)lab_fuzz_u8 (b);
      v->value_type = BSON_TYPE_DOUBLE;
      v->value.v_double = ldexp ((double)(i >> (lab_fuzz_u8 (b) % 64)), e % 80);
      break;
   }
   case 8: {
      size_t n;
      const uint8_t *p = lab_fuzz_take (b, lab_fuzz_u8 (b) % (cap - 1), &n);
      memcpy (buf, p, n);
      buf[n] = '\0';
      v->value_type = BSON_TYPE_UTF8;
      v->value.v_utf8.str = buf;
      v->value.v_utf8.len = (uint32_t)n;
      break;
   }
   case 9: {
      size_t n;
      const uint8_t *p = lab_fuzz_take (b, 12, &n);
      v->value_type = BSON_TYPE_OID;
      memcpy (v->value.v_oid.bytes, p, n);
      break;
   }
   default:
      v->value_type = BSON_TYPE_DATE_TIME;
      v->value.v_datetime = (int64_t)lab_fuzz_u64 (b);
      break;
   }
}

/* rank -- MongoDB's canonical type order of the supported types. */
static int
rank (bson_type_t t)
{
   switch (t) {
   case BSON_TYPE_MINKEY:
      return 0;
   case BSON_TYPE_NULL:
      return 1;
   case BSON_TYPE_INT32:
   case BSON_TYPE_INT64:
   case BSON_TYPE_DOUBLE:
      return 2;
   case BSON_TYPE_UTF8:
      return 3;
   case BSON_TYPE_OID:
      return 4;
   case BSON_TYPE_BOOL:
      return 5;
   case BSON_TYPE_DATE_TIME:
      return 6;
   default:
      return 7; /* maxKey */
   }
}

/* num -- a number as a long double (exact for every int64 and double on x86-64's 64-bit mantissa). */
static long double
num (const bson_value_t *v)
{
   switch (v->value_type) {
   case BSON_TYPE_INT32:
      return v->value.v_int32;
   case BSON_TYPE_INT64:
      return v->value.v_int64;
   default:
      return v->value.v_double;
   }
}

/* sign -- -1, 0 or 1. */
static int
sign (long long x)
{
   return x < 0 ? -1 : x > 0;
}

/* ref_compare -- the reference order of two values. */
static int
ref_compare (const bson_value_t *a, const bson_value_t *b)
{
   int ra = rank (a->value_type), rb = rank (b->value_type);
   if (ra != rb) {
      return ra < rb ? -1 : 1;
   }
   switch (ra) {
   case 2: {
      long double x = num (a), y = num (b);
      bool nx = isnan (x), ny = isnan (y);
      if (nx || ny) {
         return nx && ny ? 0 : nx ? -1 : 1; /* NaN sorts below every number */
      }
      return x < y ? -1 : x > y;
   }
   case 3: {
      uint32_t la = a->value.v_utf8.len, lb = b->value.v_utf8.len;
      int c = memcmp (a->value.v_utf8.str, b->value.v_utf8.str, la < lb ? la : lb);
      return c ? sign (c) : la < lb ? -1 : la > lb;
   }
   case 4:
      return sign (memcmp (a->value.v_oid.bytes, b->value.v_oid.bytes, 12));
   case 5:
      return (int)a->value.v_bool - (int)b->value.v_bool;
   case 6:
      return a->value.v_datetime < b->value.v_datetime ? -1 : a->value.v_datetime > b->value.v_datetime;
   default:
      return 0;
   }
}

/* same_value -- exactly the same value and type (NaNs of any payload are the same value). */
static bool
same_value (const bson_value_t *a, const bson_value_t *b)
{
   if (a->value_type != b->value_type) {
      return false;
   }
   switch (a->value_type) {
   case BSON_TYPE_BOOL:
      return a->value.v_bool == b->value.v_bool;
   case BSON_TYPE_INT32:
      return a->value.v_int32 == b->value.v_int32;
   case BSON_TYPE_INT64:
      return a->value.v_int64 == b->value.v_int64;
   case BSON_TYPE_DOUBLE:
      if (isnan (a->value.v_double)) {
         return isnan (b->value.v_double);
      }
      return memcmp (&a->value.v_double, &b->value.v_double, 8) == 0;
   case BSON_TYPE_UTF8:
      return a->value.v_utf8.len == b->value.v_utf8.len &&
             memcmp (a->value.v_utf8.str, b->value.v_utf8.str, a->value.v_utf8.len) == 0;
   case BSON_TYPE_OID:
      return memcmp (a->value.v_oid.bytes, b->value.v_oid.bytes, 12) == 0;
   case BSON_TYPE_DATE_TIME:
      return a->value.v_datetime == b->value.v_datetime;
   default:
      return true;
   }
}

/* check_one -- round trips of one value; its encoding is left in `enc`. */
static void
check_one (const bson_value_t *v, int64_t rid, lab_buf_t *enc)
{
   bson_error_t error;
   bson_value_t back;
   lab_buf_t full = { 0 }, ukey = { 0 }, uval = { 0 }, joined = { 0 }, body = { 0 };
   size_t value_len, used;
   int64_t rid_back;
   uint8_t tag;

   if (!lab_store_key_encode (v, enc, &error)) {
      abort (); /* every generated type is supported */
   }
   memset (&back, 0, sizeof back);
   if (!lab_store_key_decode (enc->data, enc->len, &back, &error) || !same_value (v, &back)) {
      abort (); /* the round trip lost the value or its type */
   }
   bson_value_destroy (&back);

   if (!lab_store_key_encode_body (v, &body, &error) || body.len != lab_store_key_body_len (enc->len) ||
       memcmp (body.data, enc->data, body.len) != 0 ||
       !lab_store_key_has_body (enc->data, enc->len, body.data, body.len)) {
      abort (); /* the body is not the key's prefix */
   }

   lab_buf_append (&full, enc->data, enc->len);
   lab_store_key_append_recordid (&full, rid);
   if (!lab_store_key_split_recordid (full.data, full.len, &value_len, &rid_back) || value_len != enc->len ||
       rid_back != rid) {
      abort (); /* value + RecordId does not split back */
   }

   if (!lab_store_key_encode_unique (v, &ukey, &tag, &error)) {
      abort ();
   }
   lab_store_key_unique_value (&uval, rid, tag);
   if (!lab_store_key_recordid_decode (uval.data, uval.len, &rid_back, &used) || rid_back != rid ||
       used + 1 != uval.len) {
      abort (); /* the unique value's RecordId does not read back */
   }
   if (!lab_store_key_unique_join (ukey.data, ukey.len, uval.data, uval.len, &joined) ||
       joined.len != enc->len || memcmp (joined.data, enc->data, enc->len) != 0) {
      abort (); /* the unique-index entry does not join back to the key */
   }
   lab_buf_destroy (&full);
   lab_buf_destroy (&ukey);
   lab_buf_destroy (&uval);
   lab_buf_destroy (&joined);
   lab_buf_destroy (&body);
}

/* LLVMFuzzerTestOneInput -- two values: round trips of each, then their order. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   lab_fuzz_bytes_t b = { data, len };
   char sa[64], sb[64];
   bson_value_t va, vb;
   lab_buf_t ea = { 0 }, eb = { 0 };
   int64_t rid;
   int ref, got;
   size_t n;

   lab_fuzz_setup ();
   rid = (int64_t)(lab_fuzz_u64 (&b) >> 1);
   if (rid == 0) {
      rid = 1;
   }
   make_value (&b, &va, sa, sizeof sa);
   make_value (&b, &vb, sb, sizeof sb);
   check_one (&va, rid, &ea);
   check_one (&vb, rid, &eb);

   ref = ref_compare (&va, &vb);
   if (sign (lab_store_value_compare (&va, &vb)) != ref) {
      abort (); /* lab_store_value_compare disagrees with the reference */
   }
   n = ea.len < eb.len ? ea.len : eb.len;
   got = memcmp (ea.data, eb.data, n);
   got = got ? sign (got) : ea.len < eb.len ? -1 : ea.len > eb.len;
   if (ref != 0 && got != ref) {
      abort (); /* byte order differs from value order */
   }
   if (ref == 0 && (lab_store_key_body_len (ea.len) != lab_store_key_body_len (eb.len) ||
                    memcmp (ea.data, eb.data, lab_store_key_body_len (ea.len)) != 0)) {
      abort (); /* equal values with different bodies */
   }
   lab_buf_destroy (&ea);
   lab_buf_destroy (&eb);
   return 0;
}
