/*
 * keyenc.c -- order-preserving index keys, a faithful subset of mongod's KeyString V1.
 *
 * An encoded value is `body` + `tag`:
 *   body  the KeyString V1 bytes of the value: a CType byte (minKey 10, null 20, numbers 30..51,
 *         string 60, ObjectId 100, bool 110/111, date 120, maxKey 240) and its payload. Integers and
 *         integral doubles share one encoding (magnitude << 1, big-endian, in as few bytes as needed,
 *         the byte count folded into the CType; negatives inverted); doubles with a fraction set the low
 *         bit and carry the fraction in the remaining bytes of an 8-byte word; |x| < 1 and |x| >= 2^63
 *         carry shifted IEEE bits.
 *         Strings are their bytes with 0x00 escaped as 0x00 0xFF and a 0x00 terminator. Bodies are
 *         self-delimiting: no body is a proper prefix of another (except a string before the same
 *         string continued by an escaped NUL: 0x00 vs 0x00 0xFF), so memcmp order of bodies is MongoDB
 *         order and a body is a usable prefix for "all keys equal to v". Doubles follow V1 exactly
 *         (see put_double); the bits mongod reserves for decimal continuations stay zero.
 *   tag   one byte standing where KeyString puts its kEnd (0x04) discriminator, so keys have exactly
 *         mongod's length: 0x04 for every non-number and for int32 (byte-identical to mongod), 0x05
 *         int64, 0x01 double, 0x02 double -0.0. mongod keeps this type information in the index value
 *         (TypeBits); we keep it in the key so lab_store_key_decode gives back the exact type from the key
 *         alone. Effect on order: values that MongoDB calls equal but that differ in type (3, 3L, 3.0)
 *         sort by tag before RecordId; equal values are still adjacent.
 * The RecordId follows, in KeyString's RecordId encoding (readable from either end: the low 3 bits of
 * the last byte and the high 3 bits of the first byte give the number of bytes in between).
 * A unique index (the store's _id index) keeps mongod's unique format instead: key = body + kEnd (0x04),
 * value = RecordId + tag, so equal values collide on the key (lab_store_key_encode_unique and friends).
 * This file encodes; keyenc_decode.c reads a key back, keyenc_compare.c is MongoDB's order of values.
 */
#include "keyenc.h"
#include "keyenc_private.h"

#include "core/error.h"

#include <math.h>
#include <string.h>

static inline void
put_byte (lab_buf_t *b, uint8_t c)
{
   if (b->len < b->cap) {
      b->data[b->len++] = c;
   } else {
      lab_buf_append (b, &c, 1);
   }
}

/* put_be -- append the low `n` bytes of v big-endian, optionally inverted. */
static void
put_be (lab_buf_t *b, uint64_t v, int n, bool invert)
{
   uint8_t tmp[8];
   int i;

   for (i = 0; i < n; i++) {
      uint8_t c = (uint8_t)(v >> (8 * (n - 1 - i)));
      tmp[i] = invert ? (uint8_t)~c : c;
   }
   lab_buf_append (b, tmp, (size_t)n);
}

static int
bit_length (uint64_t v)
{
   return v ? 64 - __builtin_clzll (v) : 0;
}

/* ---- encoding ----------------------------------------------------------------------------------- */

/* lab_store_key_type_supported -- the BSON types lab_store_key_encode accepts. */
bool
lab_store_key_type_supported (bson_type_t t)
{
   switch (t) {
   case BSON_TYPE_INT32:
   case BSON_TYPE_INT64:
   case BSON_TYPE_DOUBLE:
   case BSON_TYPE_UTF8:
   case BSON_TYPE_OID:
   case BSON_TYPE_DATE_TIME:
   case BSON_TYPE_BOOL:
   case BSON_TYPE_NULL:
   case BSON_TYPE_MINKEY:
   case BSON_TYPE_MAXKEY:
      return true;
   default:
      return false;
   }
}

/* type_name -- a human name for a BSON type, for error messages. */
static const char *
type_name (bson_type_t t)
{
   switch (t) {
   case BSON_TYPE_DOCUMENT:
      return "object";
   case BSON_TYPE_ARRAY:
      return "array";
   case BSON_TYPE_BINARY:
      return "binData";
   case BSON_TYPE_UNDEFINED:
      return "undefined";
   case BSON_TYPE_REGEX:
      return "regex";
   case BSON_TYPE_DBPOINTER:
      return "dbPointer";
   case BSON_TYPE_CODE:
      return "javascript";
   case BSON_TYPE_SYMBOL:
      return "symbol";
   case BSON_TYPE_CODEWSCOPE:
      return "javascriptWithScope";
   case BSON_TYPE_TIMESTAMP:
      return "timestamp";
   case BSON_TYPE_DECIMAL128:
      return "decimal";
   default:
      return "unknown";
   }
}

/* put_integer_portion -- KeyString's preshifted integer: CType carries sign and byte count. */
static void
put_integer_portion (lab_buf_t *b, uint64_t preshifted, bool negative)
{
   int nbytes = (bit_length (preshifted) + 7) / 8;

   put_byte (b, (uint8_t)(negative ? CT_NEG_1 - (nbytes - 1) : CT_POS_1 + (nbytes - 1)));
   put_be (b, preshifted, nbytes, negative);
}

/* put_double -- a double's body (not NaN, not zero: the caller handles those), KeyString V1:
 *   |x| < 1         CType small magnitude + 8 bytes: the IEEE bits << 2 for |x| >= 2^-255 (prefix 0b11),
 *                   else (|x| * 2^256)'s bits << 1 plus 2^62 (prefix 0b01/0b10), so subnormals order too;
 *   integral        exactly as the integer of the same value (3.0 encodes as 3);
 *   with fraction   CType of an integer whose byte count leaves `fb` low bytes for the fraction, then 8
 *                   bytes: (2 * int part + 1) in the high bytes and the fraction scaled by 256^fb below;
 *   |x| >= 2^63     CType large magnitude + 8 bytes: the IEEE bits << 1 without the top bit; inf = ~0.
 * Negative values invert the 8 bytes, so larger magnitudes sort first. The low bits that mongod keeps
 * for decimal continuations are zero here (no decimal128 keys). */
static void
put_double (lab_buf_t *b, double d)
{
   bool negative = d < 0;
   double mag = negative ? -d : d;
   uint64_t bits, enc;

   if (mag < 1.0) {
      if (mag >= ldexp (1.0, -255)) {
         memcpy (&bits, &mag, sizeof bits);
         enc = bits << 2;
      } else {
         double scaled = mag * ldexp (1.0, 256);
         memcpy (&bits, &scaled, sizeof bits);
         enc = (bits << 1) + (1ULL << 62);
      }
      put_byte (b, negative ? CT_NEG_SMALL : CT_POS_SMALL);
      put_be (b, enc, 8, negative);
      return;
   }
   if (mag < TWO_E63) {
      uint64_t ipart = (uint64_t)mag;
      int fb;

      if ((double)ipart == mag) {
         put_integer_portion (b, ipart << 1, negative);
         return;
      }
      fb = __builtin_clzll (ipart << 1) / 8;
      enc = (uint64_t)ldexp (mag, 8 * fb) + ((ipart + 1) << (8 * fb));
      put_byte (b, (uint8_t)(negative ? CT_NEG_8 + fb : CT_POS_8 - fb));
      put_be (b, enc, 8, negative);
      return;
   }
   if (isinf (mag)) {
      enc = ~0ULL;
   } else {
      memcpy (&bits, &mag, sizeof bits);
      enc = (bits << 1) & ~(1ULL << 63);
   }
   put_byte (b, negative ? CT_NEG_LARGE : CT_POS_LARGE);
   put_be (b, enc, 8, negative);
}

/* put_int64 -- an integer value (integral doubles share it, so 3 and 3.0 encode alike). */
static void
put_int64 (lab_buf_t *b, int64_t v)
{
   uint64_t mag;

   if (v == 0) {
      put_byte (b, CT_ZERO);
      return;
   }
   if (v == INT64_MIN) {
      /* -2^63 has no positive int64 magnitude: KeyString encodes it as the double -2^63 */
      put_double (b, -TWO_E63);
      return;
   }
   mag = v < 0 ? (uint64_t)(-v) : (uint64_t)v;
   put_integer_portion (b, mag << 1, v < 0);
}

/* lab_store_key_encode -- append body + tag for v. */
bool
lab_store_key_encode (const bson_value_t *v, lab_buf_t *out, bson_error_t *error)
{
   const uint8_t *s;
   size_t i, len;

   switch (v->value_type) {
   case BSON_TYPE_MINKEY:
      put_byte (out, CT_MINKEY);
      break;
   case BSON_TYPE_MAXKEY:
      put_byte (out, CT_MAXKEY);
      break;
   case BSON_TYPE_NULL:
      put_byte (out, CT_NULL);
      break;
   case BSON_TYPE_UNDEFINED:
      /* only as a multikey index's key of an empty array (mongod's BtreeKeyGenerator) */
      put_byte (out, CT_UNDEFINED);
      break;
   case BSON_TYPE_INT32:
      put_int64 (out, v->value.v_int32);
      break;
   case BSON_TYPE_INT64:
      put_int64 (out, v->value.v_int64);
      put_byte (out, TAG_INT64);
      return true;
   case BSON_TYPE_DOUBLE: {
      double d = v->value.v_double;
      if (isnan (d)) {
         put_byte (out, CT_NAN);
      } else if (d == 0.0) {
         put_byte (out, CT_ZERO);
         put_byte (out, signbit (d) ? TAG_NEGZERO : TAG_DOUBLE);
         return true;
      } else {
         put_double (out, d);
      }
      put_byte (out, TAG_DOUBLE);
      return true;
   }
   case BSON_TYPE_UTF8:
      put_byte (out, CT_STRING);
      s = (const uint8_t *)v->value.v_utf8.str;
      len = v->value.v_utf8.len;
      for (i = 0; i < len;) {
         const uint8_t *nul = memchr (s + i, 0, len - i);
         size_t run = nul ? (size_t)(nul - (s + i)) : len - i;
         lab_buf_append (out, s + i, run);
         i += run;
         if (nul) {
            put_byte (out, 0x00);
            put_byte (out, 0xFF);
            i++;
         }
      }
      put_byte (out, 0x00);
      break;
   case BSON_TYPE_OID:
      put_byte (out, CT_OID);
      lab_buf_append (out, v->value.v_oid.bytes, 12);
      break;
   case BSON_TYPE_BOOL:
      put_byte (out, v->value.v_bool ? CT_TRUE : CT_FALSE);
      break;
   case BSON_TYPE_DATE_TIME:
      put_byte (out, CT_DATE);
      put_be (out, (uint64_t)v->value.v_datetime ^ (1ULL << 63), 8, false);
      break;
   default:
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "key value of type %s (BSON type 0x%02x) cannot be an index key here; supported: "
                     "int32, int64, double, string, objectId, date, bool, null, minKey, maxKey",
                     type_name (v->value_type), (unsigned)v->value_type);
      return false;
   }
   put_byte (out, TAG_DEFAULT);
   return true;
}

/* lab_store_key_encode_compound -- one value: lab_store_key_encode; several: their bodies in order, then
 * kEnd, as KeyString appends each element of a compound key and its discriminator once at the end. */
bool
lab_store_key_encode_compound (const bson_value_t *const *v, int n, lab_buf_t *out, bson_error_t *error)
{
   int i;

   if (n == 1) {
      return lab_store_key_encode (v[0], out, error);
   }
   for (i = 0; i < n; i++) {
      if (!lab_store_key_encode_body (v[i], out, error)) {
         return false;
      }
   }
   put_byte (out, KEY_END);
   return true;
}

/* lab_store_key_append_recordid -- KeyString's RecordId encoding (count of middle bytes in both ends). */
void
lab_store_key_append_recordid (lab_buf_t *out, int64_t record_id)
{
   uint64_t v = record_id < 0 ? 0 : (uint64_t)record_id;
   int bits = bit_length (v);
   int extra = bits <= 10 ? 0 : ((bits - 10) + 7) / 8;

   put_byte (out, (uint8_t)((extra << 5) | (v >> (5 + extra * 8))));
   if (extra) {
      put_be (out, v >> 5, extra, false);
   }
   put_byte (out, (uint8_t)((v << 3) | (uint64_t)extra));
}

/* lab_store_key_split_recordid -- read the RecordId from the end of a full key. */
bool
lab_store_key_split_recordid (const uint8_t *key, size_t len, size_t *value_len, int64_t *record_id)
{
   size_t extra, total, i;
   uint64_t v;

   if (len < 2) {
      return false;
   }
   extra = key[len - 1] & 7;
   total = extra + 2;
   if (len < total + 1 || (size_t)(key[len - total] >> 5) != extra) {
      return false;
   }
   v = key[len - total] & 0x1F;
   for (i = 1; i <= extra; i++) {
      v = (v << 8) | key[len - total + i];
   }
   v = (v << 5) | (uint64_t)(key[len - 1] >> 3);
   *value_len = len - total;
   *record_id = (int64_t)v;
   return true;
}

/* lab_store_key_recordid_decode -- read a RecordId from the front: the high 3 bits of the first byte and
 * the low 3 bits of the last give the number of bytes in between. */
bool
lab_store_key_recordid_decode (const uint8_t *p, size_t len, int64_t *record_id, size_t *used)
{
   size_t extra, i;
   uint64_t v;

   if (len < 2) {
      return false;
   }
   extra = p[0] >> 5;
   if (len < extra + 2 || (size_t)(p[extra + 1] & 7) != extra) {
      return false;
   }
   v = p[0] & 0x1F;
   for (i = 1; i <= extra; i++) {
      v = (v << 8) | p[i];
   }
   v = (v << 5) | (uint64_t)(p[extra + 1] >> 3);
   *record_id = (int64_t)v;
   *used = extra + 2;
   return true;
}

/* ---- clustered RecordIds ------------------------------------------------------------------------ */

/* The CType of an object (KeyString's kObject), between strings (60) and ObjectIds (100). */
enum { CT_OBJECT = 70 };

/* generic_ctype -- KeyString's bsonTypeToGenericKeyStringType: the byte before each element of an object
 * (every number is kNumeric, 30); 0 for a type this encoding does not hold. */
static uint8_t
generic_ctype (bson_type_t t)
{
   switch (t) {
   case BSON_TYPE_MINKEY:
      return CT_MINKEY;
   case BSON_TYPE_NULL:
      return CT_NULL;
   case BSON_TYPE_INT32:
   case BSON_TYPE_INT64:
   case BSON_TYPE_DOUBLE:
      return CT_NAN; /* kNumeric */
   case BSON_TYPE_UTF8:
      return CT_STRING;
   case BSON_TYPE_DOCUMENT:
      return CT_OBJECT;
   case BSON_TYPE_OID:
      return CT_OID;
   case BSON_TYPE_BOOL:
      return CT_FALSE; /* kBool */
   case BSON_TYPE_DATE_TIME:
      return CT_DATE;
   case BSON_TYPE_MAXKEY:
      return CT_MAXKEY;
   default:
      return 0;
   }
}

/* encode_rid_value -- the KeyString body of v, embedded documents included (depth-limited as BSON is). */
static bool
encode_rid_value (const bson_value_t *v, lab_buf_t *out, int depth, bson_error_t *error)
{
   bson_iter_t it;
   bson_t doc;

   if (v->value_type != BSON_TYPE_DOCUMENT) {
      return lab_store_key_encode_body (v, out, error);
   }
   if (depth > 100 || !bson_init_static (&doc, v->value.v_doc.data, v->value.v_doc.data_len) ||
       !bson_iter_init (&it, &doc)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "a cluster key document is malformed or nested more than 100 deep");
      return false;
   }
   put_byte (out, CT_OBJECT);
   while (bson_iter_next (&it)) {
      uint8_t g = generic_ctype (bson_iter_type (&it));
      if (g == 0) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                        "field '%s' of a cluster key is of type %s (BSON type 0x%02x); supported: int32, "
                        "int64, double, string, object, objectId, date, bool, null, minKey, maxKey",
                        bson_iter_key (&it), type_name (bson_iter_type (&it)),
                        (unsigned)bson_iter_type (&it));
         return false;
      }
      put_byte (out, g);
      lab_buf_append (out, bson_iter_key (&it), bson_iter_key_len (&it) + 1);
      if (!encode_rid_value (bson_iter_value (&it), out, depth + 1, error)) {
         return false;
      }
   }
   put_byte (out, 0x00);
   return true;
}

/* lab_store_key_encode_record_id -- keyForElem: the value's KeyString without discriminator. */
bool
lab_store_key_encode_record_id (const bson_value_t *v, lab_buf_t *out, bson_error_t *error)
{
   return encode_rid_value (v, out, 0, error);
}

/* ---- body, tag and the unique-index format ------------------------------------------------------ */

/* lab_store_key_encode_body -- the encoding without its one tag byte. */
bool
lab_store_key_encode_body (const bson_value_t *v, lab_buf_t *out, bson_error_t *error)
{
   if (!lab_store_key_encode (v, out, error)) {
      return false;
   }
   out->len--;
   return true;
}

/* lab_store_key_body_len -- every encoded value ends in exactly one tag byte. */
size_t
lab_store_key_body_len (size_t value_len)
{
   return value_len - 1;
}

/* lab_store_key_has_body -- body, then a tag (1..5; a string body continues with 0xFF after an escaped NUL).
 */
bool
lab_store_key_has_body (const uint8_t *key, size_t len, const uint8_t *body, size_t body_len)
{
   return len > body_len && memcmp (key, body, body_len) == 0 && key[body_len] >= TAG_DOUBLE &&
          key[body_len] <= TAG_INT64;
}

/* lab_store_key_encode_unique -- encode, then swap the tag for kEnd. */
bool
lab_store_key_encode_unique (const bson_value_t *v, lab_buf_t *key, uint8_t *tag, bson_error_t *error)
{
   if (!lab_store_key_encode (v, key, error)) {
      return false;
   }
   *tag = key->data[key->len - 1];
   key->data[key->len - 1] = KEY_END;
   return true;
}

/* lab_store_key_unique_key -- body + kEnd. */
void
lab_store_key_unique_key (lab_buf_t *out, const uint8_t *body, size_t body_len)
{
   lab_buf_append (out, body, body_len);
   put_byte (out, KEY_END);
}

/* lab_store_key_unique_value -- RecordId + tag. */
void
lab_store_key_unique_value (lab_buf_t *out, int64_t record_id, uint8_t tag)
{
   lab_store_key_append_recordid (out, record_id);
   put_byte (out, tag);
}

/* lab_store_key_unique_join -- the key with its kEnd replaced by the tag that ends the value. */
bool
lab_store_key_unique_join (const uint8_t *key, size_t key_len, const uint8_t *val, size_t val_len,
                           lab_buf_t *out)
{
   if (key_len < 2 || val_len < 3) {
      return false;
   }
   lab_buf_reset (out);
   lab_buf_append (out, key, key_len);
   out->data[out->len - 1] = val[val_len - 1];
   return true;
}

/* lab_store_key_type_bracket -- the CType bytes of the type bracket of the value whose body starts with
 * `ctype`: numbers [CT_NEG_LARGE, CT_POS_LARGE] (NaN, CT_NAN, is below every bound, as mongod's
 * [-inf, inf]), booleans both CTypes, every other type its own byte. */
void
lab_store_key_type_bracket (uint8_t ctype, uint8_t *first, uint8_t *end)
{
   if (ctype >= CT_NAN && ctype <= CT_POS_LARGE) {
      *first = CT_NEG_LARGE;
      *end = CT_POS_LARGE + 1;
   } else if (ctype == CT_FALSE || ctype == CT_TRUE) {
      *first = CT_FALSE;
      *end = CT_TRUE + 1;
   } else {
      *first = ctype;
      *end = (uint8_t)(ctype + 1);
   }
}

/* ---- string-format RecordIds in index keys ------------------------------------------------------ */

/* lab_store_key_append_recordid_str -- the bytes, then the size: group 0 first without the continuation
 * bit, the higher groups after it with 0x80 (mongod's _appendRecordIdStr). */
void
lab_store_key_append_recordid_str (lab_buf_t *out, const uint8_t *rid, size_t len)
{
   uint8_t size[5];
   int n = 0, i;

   lab_buf_append (out, rid, len);
   do {
      size[n++] = (uint8_t)(len & 0x7F);
      len >>= 7;
   } while (len > 0 && n < 5);
   for (i = 0; i < n; i++) {
      put_byte (out, (uint8_t)(size[i] | (i > 0 ? 0x80 : 0)));
   }
}

/* lab_store_key_split_recordid_str -- the size read right to left while the continuation bit is set
 * (decodeRecordIdStrAtEnd), then the bytes before it. */
bool
lab_store_key_split_recordid_str (const uint8_t *key, size_t len, size_t *value_len, const uint8_t **rid,
                                  size_t *rid_len)
{
   size_t size = 0, nsize = 0;

   for (;;) {
      uint8_t b;
      if (nsize >= len || nsize >= 5) {
         return false;
      }
      b = key[len - 1 - nsize];
      size = (size << 7) | (b & 0x7F);
      nsize++;
      if (!(b & 0x80)) {
         break;
      }
   }
   if (size == 0 || size + nsize > len) {
      return false;
   }
   *rid_len = size;
   *value_len = len - nsize - size;
   *rid = key + *value_len;
   return true;
}
