/*
 * keyenc_typebits.c -- the value of a standard index entry as mongod writes it: the key's TypeBits when
 * they are not all zero (WiredTigerIndexStandard::_insert; key_string.h TypeBits getBuffer/getSize),
 * from the key's values as the key generator has them (wt_keygen.c), compound keys included.
 */
#include "keyenc.h"

#include <math.h>

/* A TypeBits being built: bits packed from the low end of each byte. */
typedef struct {
   uint8_t b[32];
   int nbits;
   bool any;
} tbits_t;

/* put_bit -- append one bit. */
static void
put_bit (tbits_t *t, int bit)
{
   if (t->nbits < (int)sizeof t->b * 8) {
      if (bit) {
         t->b[t->nbits / 8] |= (uint8_t)(1u << (t->nbits % 8));
         t->any = true;
      }
      t->nbits++;
   }
}

/* lab_store_key_typebits_values -- see keyenc.h. */
void
lab_store_key_typebits_values (const bson_value_t *const *v, int n, lab_buf_t *out)
{
   tbits_t t = { { 0 }, 0, false };
   uint8_t size;
   int i;

   for (i = 0; i < n; i++) {
      switch (v[i]->value_type) {
      case BSON_TYPE_INT32:
         put_bit (&t, 0);
         put_bit (&t, 0);
         break;
      case BSON_TYPE_INT64:
         put_bit (&t, 0);
         put_bit (&t, 1);
         break;
      case BSON_TYPE_DOUBLE:
         if (v[i]->value.v_double == 0 && signbit (v[i]->value.v_double)) {
            put_bit (&t, 1); /* kV1NegativeDoubleZero, 0b11000, high bit first */
            put_bit (&t, 1);
            put_bit (&t, 0);
            put_bit (&t, 0);
            put_bit (&t, 0);
         } else {
            put_bit (&t, 1);
            put_bit (&t, 0);
         }
         break;
      case BSON_TYPE_UTF8:
         put_bit (&t, 0);
         break;
      default:
         break; /* no type bits: dates, ObjectIds, booleans, null, minKey, maxKey */
      }
   }
   if (!t.any) {
      return;
   }
   size = (uint8_t)((t.nbits + 7) / 8);
   if (size == 1 && !(t.b[0] & 0x80)) {
      lab_buf_append (out, t.b, 1);
      return;
   }
   size |= 0x80;
   lab_buf_append (out, &size, 1);
   lab_buf_append (out, t.b, (size_t)(size & 0x7f));
}
