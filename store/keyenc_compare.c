/* keyenc_compare.c -- MongoDB's order of BSON values (lab_store_value_compare), the order the keys keep. */
#include "keyenc.h"
#include "keyenc_private.h"

#include <math.h>
#include <string.h>

/* canon_rank -- MongoDB's canonical type order (numbers share one rank). */
static int
canon_rank (bson_type_t t)
{
   switch (t) {
   case BSON_TYPE_MINKEY:
      return -1;
   case BSON_TYPE_UNDEFINED:
      return 0;
   case BSON_TYPE_NULL:
      return 5;
   case BSON_TYPE_DOUBLE:
   case BSON_TYPE_INT32:
   case BSON_TYPE_INT64:
   case BSON_TYPE_DECIMAL128:
      return 10;
   case BSON_TYPE_SYMBOL:
   case BSON_TYPE_UTF8:
      return 15;
   case BSON_TYPE_DOCUMENT:
      return 20;
   case BSON_TYPE_ARRAY:
      return 25;
   case BSON_TYPE_BINARY:
      return 30;
   case BSON_TYPE_OID:
      return 35;
   case BSON_TYPE_BOOL:
      return 40;
   case BSON_TYPE_DATE_TIME:
      return 45;
   case BSON_TYPE_TIMESTAMP:
      return 47;
   case BSON_TYPE_REGEX:
      return 50;
   case BSON_TYPE_DBPOINTER:
      return 55;
   case BSON_TYPE_CODE:
      return 60;
   case BSON_TYPE_CODEWSCOPE:
      return 65;
   case BSON_TYPE_MAXKEY:
      return 127;
   default:
      return 100;
   }
}

static int
cmp_i64 (int64_t a, int64_t b)
{
   return a < b ? -1 : a > b ? 1 : 0;
}

/* cmp_i64_double -- exact comparison of an int64 with a double (NaN is below every number). */
static int
cmp_i64_double (int64_t l, double d)
{
   int64_t t;
   double frac;

   if (isnan (d)) {
      return 1;
   }
   if (d >= TWO_E63) {
      return -1;
   }
   if (d < -TWO_E63) {
      return 1;
   }
   t = (int64_t)d;
   if (l != t) {
      return l < t ? -1 : 1;
   }
   frac = d - (double)t;
   return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}

static int
cmp_double (double a, double b)
{
   if (isnan (a) || isnan (b)) {
      return isnan (a) ? (isnan (b) ? 0 : -1) : 1;
   }
   return a < b ? -1 : a > b ? 1 : 0;
}

/* lab_store_value_compare -- MongoDB order: by canonical type, then value. */
int
lab_store_value_compare (const bson_value_t *a, const bson_value_t *b)
{
   int ra = canon_rank (a->value_type), rb = canon_rank (b->value_type);

   if (ra != rb) {
      return ra < rb ? -1 : 1;
   }
   switch (ra) {
   case 10: {
      bool ai = a->value_type != BSON_TYPE_DOUBLE, bi = b->value_type != BSON_TYPE_DOUBLE;
      int64_t x = a->value_type == BSON_TYPE_INT32 ? a->value.v_int32 : a->value.v_int64;
      int64_t y = b->value_type == BSON_TYPE_INT32 ? b->value.v_int32 : b->value.v_int64;
      if (a->value_type == BSON_TYPE_DECIMAL128 || b->value_type == BSON_TYPE_DECIMAL128) {
         return 0; /* not a supported key type */
      }
      if (ai && bi) {
         return cmp_i64 (x, y);
      }
      if (ai) {
         return cmp_i64_double (x, b->value.v_double);
      }
      if (bi) {
         return -cmp_i64_double (y, a->value.v_double);
      }
      return cmp_double (a->value.v_double, b->value.v_double);
   }
   case 15: {
      uint32_t la = a->value_type == BSON_TYPE_UTF8 ? a->value.v_utf8.len : a->value.v_symbol.len;
      uint32_t lb = b->value_type == BSON_TYPE_UTF8 ? b->value.v_utf8.len : b->value.v_symbol.len;
      const char *sa = a->value_type == BSON_TYPE_UTF8 ? a->value.v_utf8.str : a->value.v_symbol.symbol;
      const char *sb = b->value_type == BSON_TYPE_UTF8 ? b->value.v_utf8.str : b->value.v_symbol.symbol;
      int c = memcmp (sa, sb, la < lb ? la : lb);
      if (c) {
         return c < 0 ? -1 : 1;
      }
      return la < lb ? -1 : la > lb ? 1 : 0;
   }
   case 35: {
      int c = memcmp (a->value.v_oid.bytes, b->value.v_oid.bytes, 12);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
   }
   case 40:
      return (int)a->value.v_bool - (int)b->value.v_bool;
   case 45:
      return cmp_i64 (a->value.v_datetime, b->value.v_datetime);
   default:
      return 0;
   }
}
