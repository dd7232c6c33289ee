/*
 * keyenc_typebits.c -- the value of a standard index entry as mongod writes it: the key's TypeBits when
 * they are not all zero (WiredTigerIndexStandard::_insert; key_string.h TypeBits getBuffer/getSize),
 * rebuilt from the type tag that the store keeps in the key (keyenc.c).
 */
#include "keyenc.h"

/* lab_store_key_typebits -- see keyenc.h. */
void
lab_store_key_typebits (const uint8_t *value, size_t len, lab_buf_t *out)
{
   uint8_t bits;

   if (len == 0) {
      return;
   }
   switch (value[len - 1]) {
   case LAB_STORE_KEY_TAG_INT64:
      bits = 0x02;
      break;
   case LAB_STORE_KEY_TAG_DOUBLE:
      bits = 0x01;
      break;
   case LAB_STORE_KEY_TAG_NEGZERO:
      bits = 0x03;
      break;
   default:
      return; /* all zeros: mongod writes an empty value */
   }
   lab_buf_append (out, &bits, 1);
}
