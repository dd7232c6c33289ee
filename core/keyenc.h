/*
 * keyenc.h -- order-preserving encoding of index keys, a faithful subset of mongod's KeyString (V1).
 *
 * memcmp order of encodings equals MongoDB's comparison order of the values for the supported types:
 * numbers (int32, int64, double, compared by value across types), strings (UTF-8, binary order as mongod
 * without collation), ObjectId, date, bool, null, minKey/maxKey. An index entry is the encoded value
 * followed by the RecordId (lab_key_append_recordid), so equal values sort by RecordId.
 */
#ifndef LAB_KEYENC_H
#define LAB_KEYENC_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

#include "buf.h"


/* lab_key_type_supported -- true for the value types an index key may hold. */
bool lab_key_type_supported (bson_type_t t);

/* lab_key_encode -- append the encoding of `v` to `out`; LAB_STORE_ERR_KEY_TYPE for unsupported types
 * (arrays, documents, binary, decimal128, regex ...), naming the type. */
bool lab_key_encode (const bson_value_t *v, lab_buf_t *out, bson_error_t *error);

/* lab_key_append_recordid -- append a RecordId (int64 > 0) so that (value, id) pairs sort by id. */
void lab_key_append_recordid (lab_buf_t *out, int64_t record_id);

/* lab_key_split_recordid -- given a full index key (value + RecordId), *value_len gets the length of
 * the value part and *record_id the RecordId. False when the key is malformed. */
bool lab_key_split_recordid (const uint8_t *key, size_t len, size_t *value_len, int64_t *record_id);

/* lab_key_decode -- decode one encoded value (without RecordId) back into *v (strings are allocated:
 * free with bson_value_destroy). Doubles with integral values decode as the type they were encoded from
 * only when the encoder kept a type byte, so decoding is exact for every supported type. */
bool lab_key_decode (const uint8_t *key, size_t len, bson_value_t *v, bson_error_t *error);

/* lab_value_compare -- MongoDB comparison order of two supported values (<0, 0, >0). */
int lab_value_compare (const bson_value_t *a, const bson_value_t *b);

#endif
