/*
 * rowhash.h -- the canonical digest of a row, shared by fold-details --verify (etl/) and scancmp's
 * digests (scan/): a row is the set of its (name, typed value) fields, as the detail layout stores it.
 * Each field alone is hashed (XXH3-128 of its BSON element: type byte, name, value; a document or array
 * value through its own digest), the fields' hashes are summed (their order does not matter) and the sum
 * mixed by a seeded XXH3-128 (a value moved from one row to another changes both rows). Rows combine by
 * lab_rowhash_add (a sum: order-independent). An int32 3 and a double 3.0 differ (the fold copies values
 * with their types, so the same row hashes the same in every layout); an array's order matters.
 *
 * A folded document's row is rebuilt as fold-details does it: the element's fields, plus the document's
 * hoisted fields the element lacks (every top-level field but _id and the fold's own: row_count, part,
 * parts, bucket_start and the array). Pure; no allocation but lab_rowhash_hoisted_new's.
 */
#ifndef LAB_CORE_ROWHASH_H
#define LAB_CORE_ROWHASH_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

/* Top-level names a folded document uses itself (besides the key and the array field). */
#define LAB_FOLD_ROW_COUNT "row_count"
#define LAB_FOLD_PART "part"
#define LAB_FOLD_PARTS "parts"
#define LAB_FOLD_BUCKET_START "bucket_start"

typedef struct {
   uint64_t lo; /* sums (mod 2^64) of the two halves of each row's 128-bit digest: order-independent */
   uint64_t hi;
} lab_rowhash_t;

/* a byte range of a document: an element's offset and its name's length */
typedef struct {
   uint32_t off;
   uint32_t len;
} lab_rowhash_range_t;

/* lab_rowhash_add -- acc += h (each half mod 2^64). */
static inline void
lab_rowhash_add (lab_rowhash_t *acc, lab_rowhash_t h)
{
   acc->lo += h.lo;
   acc->hi += h.hi;
}

/* lab_rowhash_doc -- the digest of the row raw[0..len) (BSON bytes). Bytes that do not walk as BSON are
 * hashed whole (never dropped). No allocation: --verify's inner loop. */
lab_rowhash_t lab_rowhash_doc (const uint8_t *raw, uint32_t len);

/* lab_rowhash_row -- lab_rowhash_doc of a bson_t. */
lab_rowhash_t lab_rowhash_row (const bson_t *row);

/* lab_rowhash_doc_id -- lab_rowhash_doc of the row raw[0..len) whose _id is replaced by the value at `id`
 * (a clustered collection's row keeps {<key>: K, id: X} as its _id: its detail row's _id is X). */
lab_rowhash_t lab_rowhash_doc_id (const uint8_t *raw, uint32_t len, const bson_iter_t *id);

/* A folded document's hoisted fields, each with its hash (prepared once per document). */
typedef struct lab_rowhash_hoisted lab_rowhash_hoisted_t;

/* lab_rowhash_hoisted_new -- the fields of doc at hs[0..nh) (the elements' offsets and name lengths, as
 * a bson_iter_t walk gives them) with their hashes. `doc` must stay alive while the result is used; free
 * with lab_rowhash_hoisted_free. */
lab_rowhash_hoisted_t *lab_rowhash_hoisted_new (const bson_t *doc, const lab_rowhash_range_t *hs, size_t nh);

/* lab_rowhash_hoisted_of -- the hoisted fields of folded document doc: every top-level field but _id, the
 * array field (an array, or a document: a server's $unwind leaves one element) and the fold's own
 * (row_count, part, parts of type int32, bucket_start of type date). */
lab_rowhash_hoisted_t *lab_rowhash_hoisted_of (const bson_t *doc, const char *array_field);

void lab_rowhash_hoisted_free (lab_rowhash_hoisted_t *h);

/* lab_rowhash_merged -- lab_rowhash_doc of the row made of element edata[0..elen) of a folded document
 * and the document's hoisted fields `h` (NULL: none) that the element lacks, without building it. */
lab_rowhash_t lab_rowhash_merged (const uint8_t *edata, uint32_t elen, const lab_rowhash_hoisted_t *h);

#endif
