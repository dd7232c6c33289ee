/*
 * verify.h -- prove that a folded collection holds exactly the rows of its source.
 *
 * Both collections are streamed sorted by the key, in step (a merge join), so memory stays bounded by
 * one master. Each stream walks its collection's key index (the index-served sorted read, store.h), and
 * the join advances whichever side is behind one master at a time, so both cursors fetch batches
 * (getMore) all along: neither waits for the other to be read to the end, and neither idles long
 * enough for the server to kill it (10 minutes). Per master: the row count and an order-independent checksum
 * (sum of each row's XXH3-128 over its canonical form: field order may differ, values and types may not).
 * Also checks every folded document's shape, its parts (0..parts-1, each once) and the size cap, and for
 * a bucketed fold the buckets: at most bucket_rows rows per document, and (bucket_by) a bucket_start date
 * that starts a window of the unit with every row's date field inside that window.
 */
#ifndef LAB_ETL_VERIFY_H
#define LAB_ETL_VERIFY_H

#include "core/progress.h"
#include "core/store.h"
#include "fold.h"

typedef struct {
   const char *src;
   const char *dst;
   const char *key;
   const char *array_field;
   int64_t max_doc_bytes;           /* documents above are a difference (0: the server's) */
   int32_t bucket_rows;             /* documents with more rows are a difference (0: no limit) */
   const char *bucket_by;           /* "FIELD:UNIT" of a --bucket-by fold (NULL: none) */
   const char *const *skip_key_ids; /* masters rejected by this run: expected missing (sorted, may be NULL) */
   size_t nskip;
   int32_t batch_docs; /* cursor batch size of both streams (0: the backend's) */
   lab_progress_mode_t progress;
} lab_verify_opts_t;

typedef struct {
   bool equal;
   int64_t src_rows;
   int64_t dst_rows;
   int64_t src_masters;
   int64_t dst_masters;
   int64_t dst_docs;
   int64_t differing_masters;
   int64_t skipped_masters; /* rejected masters, absent as expected */
   int64_t oversize_docs;
   int64_t largest_doc_bytes;
   lab_hash_t src_hash;
   lab_hash_t dst_hash;
   char first_difference[768]; /* empty when equal */
   double elapsed_s;
} lab_verify_result_t;

/* lab_verify -- compare; returns true when the comparison ran (result->equal tells the outcome), false
 * with *error when it could not (missing collection, a read error). */
bool lab_verify (lab_store_t *store, const lab_verify_opts_t *opts, lab_verify_result_t *result,
                 bson_error_t *error);

#endif
