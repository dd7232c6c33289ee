/* keyenc_private.h -- what the key encoding's files share: KeyString's CType bytes, the type tags, kEnd. */
#pragma once

#include "keyenc.h"

enum {
   CT_MINKEY = 10,
   CT_UNDEFINED = 15,
   CT_NULL = 20,
   CT_NAN = 30,
   CT_NEG_LARGE = 31,
   CT_NEG_8 = 32,
   CT_NEG_1 = 39,
   CT_NEG_SMALL = 40,
   CT_ZERO = 41,
   CT_POS_SMALL = 42,
   CT_POS_1 = 43,
   CT_POS_8 = 50,
   CT_POS_LARGE = 51,
   CT_STRING = 60,
   CT_OID = 100,
   CT_FALSE = 110,
   CT_TRUE = 111,
   CT_DATE = 120,
   CT_MAXKEY = 240,
};

enum {
   TAG_DOUBLE = LAB_STORE_KEY_TAG_DOUBLE,
   TAG_NEGZERO = LAB_STORE_KEY_TAG_NEGZERO,
   TAG_DEFAULT = LAB_STORE_KEY_TAG_DEFAULT,
   TAG_INT64 = LAB_STORE_KEY_TAG_INT64
};

/* KeyString's end discriminator: closes a unique-index key, whose type tag moves to the value. */
enum { KEY_END = 0x04 };

#define TWO_E63 9223372036854775808.0
