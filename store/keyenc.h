/*
 * keyenc.h -- order-preserving encoding of index keys, a faithful subset of mongod's KeyString (V1).
 *
 * memcmp order of encodings equals MongoDB's comparison order of the values for the supported types:
 * numbers (int32, int64, double, compared by value across types), strings (UTF-8, binary order as mongod
 * without collation), ObjectId, date, bool, null, minKey/maxKey. An index entry is the encoded value
 * followed by the RecordId (lab_store_key_append_recordid), so equal values sort by RecordId.
 */
#ifndef LAB_KEYENC_H
#define LAB_KEYENC_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"

/* lab_store_key_type_supported -- true for the value types an index key may hold. */
bool lab_store_key_type_supported (bson_type_t t);

/* lab_store_key_encode -- append the encoding of `v` to `out`; LAB_STORE_ERR_KEY_TYPE for unsupported types
 * (arrays, documents, binary, decimal128, regex ...), naming the type. */
bool lab_store_key_encode (const bson_value_t *v, lab_buf_t *out, bson_error_t *error);

/* lab_store_key_encode_compound -- append the key of a compound index entry of values v[0..n) (without its
 * RecordId): n == 1 is lab_store_key_encode (body + type tag); n > 1 is mongod's KeyString layout, each
 * value's body in order and one kEnd (0x04) after the last, byte-identical to mongod's key (the types
 * mongod keeps in the value's TypeBits are in the entry's value too: lab_store_key_typebits_values). */
bool lab_store_key_encode_compound (const bson_value_t *const *v, int n, lab_buf_t *out, bson_error_t *error);

/* lab_store_key_append_recordid -- append a RecordId (int64 > 0) so that (value, id) pairs sort by id. */
void lab_store_key_append_recordid (lab_buf_t *out, int64_t record_id);

/* lab_store_key_split_recordid -- given a full index key (value + RecordId), *value_len gets the length of
 * the value part and *record_id the RecordId. False when the key is malformed. */
bool lab_store_key_split_recordid (const uint8_t *key, size_t len, size_t *value_len, int64_t *record_id);

/* ---- the byte rules of the store's index entries ------------------------------------------------
 * An encoded value is `body` + one type tag byte; a standard index key is that + a RecordId. The _id
 * index uses mongod's unique-index format: key = body + kEnd (0x04), value = RecordId + type tag. */

/* lab_store_key_encode_body -- append the body of `v` (its encoding without the type tag): the prefix of the
 * key of every value that encodes to the same body. Errors as lab_store_key_encode. */
bool lab_store_key_encode_body (const bson_value_t *v, lab_buf_t *out, bson_error_t *error);

/* lab_store_key_body_len -- the body length of an encoded value of `value_len` bytes (body + tag). */
size_t lab_store_key_body_len (size_t value_len);

/* lab_store_key_has_body -- true when `key` (an encoded value, perhaps followed by a RecordId) is `body`
 * followed by a type tag, i.e. the key holds that value (a string body continued by an escaped NUL is
 * a longer string, not a match). */
bool lab_store_key_has_body (const uint8_t *key, size_t len, const uint8_t *body, size_t body_len);

/* lab_store_key_recordid_decode -- a RecordId written by lab_store_key_append_recordid at the start of
 * p[0..len): *record_id gets it and *used its length in bytes. False when malformed. */
bool lab_store_key_recordid_decode (const uint8_t *p, size_t len, int64_t *record_id, size_t *used);

/* lab_store_key_encode_unique -- append the unique-index key of `v` (body + kEnd) to `key`; *tag gets the
 * type tag, which belongs in the value (lab_store_key_unique_value). Errors as lab_store_key_encode. */
bool lab_store_key_encode_unique (const bson_value_t *v, lab_buf_t *key, uint8_t *tag, bson_error_t *error);

/* lab_store_key_unique_key -- append the unique-index key of the value whose body is body[0..body_len). */
void lab_store_key_unique_key (lab_buf_t *out, const uint8_t *body, size_t body_len);

/* lab_store_key_unique_value -- append a unique-index value: the RecordId, then the type tag. Its RecordId
 * reads back with lab_store_key_recordid_decode. */
void lab_store_key_unique_value (lab_buf_t *out, int64_t record_id, uint8_t tag);

/* lab_store_key_unique_join -- the encoded value (body + tag, as lab_store_key_encode writes it) of a
 * unique-index entry, rebuilt from its key and value into `out` (reset first). False when the entry is
 * malformed. */
bool lab_store_key_unique_join (const uint8_t *key, size_t key_len, const uint8_t *val, size_t val_len,
                                lab_buf_t *out);

/* lab_store_key_type_bracket -- for a body whose first byte is `ctype`, the byte range [*first, *end) of
 * the first bytes of every body of the same type bracket (all numbers; both booleans; else that type):
 * the other end of a one-sided range, as a query's bounds ({$gte: 5} is [5, inf]). Undefined (only
 * an empty array's multikey key, never a value to search) encodes as CType 15, between minKey and null. */
void lab_store_key_type_bracket (uint8_t ctype, uint8_t *first, uint8_t *end);

/* lab_store_key_decode -- decode one encoded value (without RecordId) back into *v (strings are allocated:
 * free with bson_value_destroy). Doubles with integral values decode as the type they were encoded from
 * only when the encoder kept a type byte, so decoding is exact for every supported type. */
bool lab_store_key_decode (const uint8_t *key, size_t len, bson_value_t *v, bson_error_t *error);

/* lab_store_key_encode_record_id -- append the RecordId of a clustered collection's document whose cluster
 * key (`_id`) is `v`: mongod's record_id_helpers::keyForElem, the KeyString V1 of the value without end
 * discriminator or type bits (docs/mongodb-compat.md §23). The scalar types are their body
 * (lab_store_key_encode_body); an embedded document is CType kObject (70), then per element its generic
 * CType (numbers 30, strings 60, objects 70, ...), its field name and NUL, its value's encoding, and a
 * 0x00 after the last element, so memcmp order is MongoDB's order of documents. Other types (arrays,
 * binary, ...): LAB_STORE_ERR_KEY_TYPE. */
bool lab_store_key_encode_record_id (const bson_value_t *v, lab_buf_t *out, bson_error_t *error);

/* lab_store_key_append_recordid_str -- append a string-format RecordId (a clustered collection's, the
 * KeyString of its _id) to an index key as mongod's KeyString appendRecordId does for it
 * (_appendRecordIdStr): the bytes as they are, then their size in 7-bit groups, least significant first,
 * the 0x80 continuation bit on every size byte but the first, so the size reads back from the key's end
 * (decodeRecordIdStrAtEnd; docs/mongodb-compat.md §23). len > 0. */
void lab_store_key_append_recordid_str (lab_buf_t *out, const uint8_t *rid, size_t len);

/* lab_store_key_split_recordid_str -- given an index key ending in a string-format RecordId, *value_len
 * gets the length of the key before it, *rid / *rid_len the RecordId's bytes (inside key). False when the
 * size bytes are malformed or larger than the key. */
bool lab_store_key_split_recordid_str (const uint8_t *key, size_t len, size_t *value_len, const uint8_t **rid,
                                       size_t *rid_len);

/* The type tags that end an encoded value (keyenc.c): double, double -0.0, int32 and every non-number, int64.
 */
enum {
   LAB_STORE_KEY_TAG_DOUBLE = 1,
   LAB_STORE_KEY_TAG_NEGZERO = 2,
   LAB_STORE_KEY_TAG_DEFAULT = 4,
   LAB_STORE_KEY_TAG_INT64 = 5
};

/* lab_store_key_typebits_values -- append to out the TypeBits of a key of the values v[0..n) as mongod's
 * KeyString builder appends them, value after value (int32 0,0; int64 0,1; double 1,0, -0.0 1,1,0,0,0;
 * a string 0; other supported types none), serialized as TypeBits::getBuffer: nothing when all zero, one
 * byte when the bits fit in 7, else a size byte 0x80 | n and the n data bytes. At most 5 bytes for the
 * LAB_STORE_INDEX_MAX_FIELDS values of an index key. */
void lab_store_key_typebits_values (const bson_value_t *const *v, int n, lab_buf_t *out);

/* lab_store_value_compare -- MongoDB comparison order of two supported values (<0, 0, >0). */
int lab_store_value_compare (const bson_value_t *a, const bson_value_t *b);

#endif
