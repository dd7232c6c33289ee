/* keyenc_decode.c -- reading an encoded index key back into its values, types exact (see keyenc.c). */
#include "keyenc.h"
#include "keyenc_private.h"

#include "core/error.h"

#include <math.h>
#include <string.h>

static bool
bad_key (bson_error_t *error, const char *what, size_t pos)
{
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC, "malformed index key: %s at byte %zu", what,
                  pos);
   return false;
}

/* get_be -- read n big-endian bytes, optionally inverted. */
static uint64_t
get_be (const uint8_t *p, int n, bool invert)
{
   uint64_t v = 0;
   int i;

   for (i = 0; i < n; i++) {
      v = (v << 8) | (uint8_t)(invert ? ~p[i] : p[i]);
   }
   return v;
}

/* decode_number -- parse a numeric body at key[0..len); *used gets its length; *is_int tells whether it
 * is integral with *ival set (else *dval). */
static bool
decode_number (const uint8_t *key, size_t len, size_t *used, double *dval, bool *is_int, int64_t *ival,
               bool *huge_neg, bson_error_t *error)
{
   uint8_t ct = key[0];
   bool negative;
   int nbytes;
   uint64_t pre, ipart, bits;

   *huge_neg = false;
   *is_int = false;
   if (ct == CT_NAN) {
      *dval = NAN;
      *used = 1;
      return true;
   }
   if (ct == CT_ZERO) {
      *is_int = true;
      *ival = 0;
      *dval = 0.0;
      *used = 1;
      return true;
   }
   if (ct == CT_NEG_LARGE || ct == CT_POS_LARGE || ct == CT_NEG_SMALL || ct == CT_POS_SMALL) {
      uint64_t enc;

      negative = ct == CT_NEG_LARGE || ct == CT_NEG_SMALL;
      if (len < 9) {
         return bad_key (error, "truncated double", 1);
      }
      enc = get_be (key + 1, 8, negative);
      if (ct == CT_NEG_SMALL || ct == CT_POS_SMALL) {
         if (enc >> 62 == 3) {
            bits = enc >> 2;
            memcpy (dval, &bits, sizeof bits);
         } else {
            bits = (enc - (1ULL << 62)) >> 1;
            memcpy (dval, &bits, sizeof bits);
            *dval = ldexp (*dval, -256);
         }
      } else if (enc == ~0ULL) {
         *dval = INFINITY;
      } else {
         bits = (enc | (1ULL << 63)) >> 1;
         memcpy (dval, &bits, sizeof bits);
      }
      if (negative) {
         *dval = -*dval;
      }
      if (ct == CT_NEG_LARGE && *dval == -TWO_E63) {
         *huge_neg = true;
      }
      *used = 9;
      return true;
   }
   negative = ct >= CT_NEG_8 && ct <= CT_NEG_1;
   if (negative) {
      nbytes = CT_NEG_1 - ct + 1;
   } else if (ct >= CT_POS_1 && ct <= CT_POS_8) {
      nbytes = ct - CT_POS_1 + 1;
   } else {
      return bad_key (error, "unknown numeric type byte", 0);
   }
   if (len < (size_t)nbytes + 1) {
      return bad_key (error, "truncated integer", 1);
   }
   pre = get_be (key + 1, nbytes, negative);
   ipart = pre >> 1;
   *used = 1 + (size_t)nbytes;
   if (!(pre & 1)) {
      *is_int = true;
      *ival = negative ? -(int64_t)ipart : (int64_t)ipart;
      *dval = negative ? -(double)ipart : (double)ipart;
      return true;
   } else {
      /* a fraction: the 8 bytes are (2 * ipart + 1) << 8fb | fraction * 256^fb */
      int fb = 8 - nbytes;
      uint64_t frac, scaled;

      if (fb < 1 || ipart >= (1ULL << 53)) {
         return bad_key (error, "fraction on an out-of-range integer part", 1);
      }
      if (len < 9) {
         return bad_key (error, "truncated fraction", *used);
      }
      frac = get_be (key + *used, fb, negative) & ~3ULL;
      scaled = (ipart << (8 * fb)) + frac;
      *dval = ldexp ((double)scaled, -8 * fb);
      if (negative) {
         *dval = -*dval;
      }
      *used = 9;
      return true;
   }
}

/* lab_store_key_decode -- decode body + tag into *v. */
bool
lab_store_key_decode (const uint8_t *key, size_t len, bson_value_t *v, bson_error_t *error)
{
   size_t used = 0;
   uint8_t tag;

   memset (v, 0, sizeof *v);
   if (len < 2) {
      return bad_key (error, "too short", 0);
   }
   switch (key[0]) {
   case CT_MINKEY:
      v->value_type = BSON_TYPE_MINKEY;
      used = 1;
      break;
   case CT_MAXKEY:
      v->value_type = BSON_TYPE_MAXKEY;
      used = 1;
      break;
   case CT_NULL:
      v->value_type = BSON_TYPE_NULL;
      used = 1;
      break;
   case CT_UNDEFINED:
      v->value_type = BSON_TYPE_UNDEFINED;
      used = 1;
      break;
   case CT_FALSE:
   case CT_TRUE:
      v->value_type = BSON_TYPE_BOOL;
      v->value.v_bool = key[0] == CT_TRUE;
      used = 1;
      break;
   case CT_OID:
      if (len < 14) {
         return bad_key (error, "truncated objectId", 1);
      }
      v->value_type = BSON_TYPE_OID;
      memcpy (v->value.v_oid.bytes, key + 1, 12);
      used = 13;
      break;
   case CT_DATE:
      if (len < 10) {
         return bad_key (error, "truncated date", 1);
      }
      v->value_type = BSON_TYPE_DATE_TIME;
      v->value.v_datetime = (int64_t)(get_be (key + 1, 8, false) ^ (1ULL << 63));
      used = 9;
      break;
   case CT_STRING: {
      size_t i = 1, n = 0;
      char *s = bson_malloc (len);
      for (;;) {
         if (i >= len) {
            bson_free (s);
            return bad_key (error, "unterminated string", i);
         }
         if (key[i] == 0x00) {
            if (i + 1 < len && key[i + 1] == 0xFF) {
               s[n++] = 0;
               i += 2;
               continue;
            }
            i++;
            break;
         }
         s[n++] = (char)key[i++];
      }
      s[n] = '\0';
      v->value_type = BSON_TYPE_UTF8;
      v->value.v_utf8.str = s;
      v->value.v_utf8.len = (uint32_t)n;
      used = i;
      break;
   }
   default: {
      double d;
      bool is_int, huge_neg;
      int64_t iv = 0;

      if (!decode_number (key, len, &used, &d, &is_int, &iv, &huge_neg, error)) {
         return false;
      }
      if (used >= len) {
         return bad_key (error, "missing type tag", used);
      }
      tag = key[used];
      if (tag == TAG_DOUBLE || tag == TAG_NEGZERO) {
         v->value_type = BSON_TYPE_DOUBLE;
         v->value.v_double = tag == TAG_NEGZERO ? -0.0 : d;
      } else if (tag == TAG_INT64 && (is_int || huge_neg)) {
         v->value_type = BSON_TYPE_INT64;
         v->value.v_int64 = huge_neg ? INT64_MIN : iv;
      } else if (tag == TAG_DEFAULT && is_int && iv >= INT32_MIN && iv <= INT32_MAX) {
         v->value_type = BSON_TYPE_INT32;
         v->value.v_int32 = (int32_t)iv;
      } else {
         return bad_key (error, "number does not match its type tag", used);
      }
      if (used + 1 != len) {
         return bad_key (error, "trailing bytes", used + 1);
      }
      return true;
   }
   }
   if (used >= len || key[used] != TAG_DEFAULT || used + 1 != len) {
      if (v->value_type == BSON_TYPE_UTF8) {
         bson_free (v->value.v_utf8.str);
      }
      memset (v, 0, sizeof *v);
      return bad_key (error, "bad type tag or trailing bytes", used);
   }
   return true;
}
