/*
 * verify.h -- prove that a folded collection holds exactly the rows of its source.
 *
 * Both collections are streamed sorted by the key, in step (a merge join). One thread reads -- both
 * streams, in step, copying each document into batches -- and the calling thread hashes, unfolds and
 * accounts them in the same order, so the verify runs at the pace of the bare read while the hashing
 * overlaps it; memory stays bounded by the batches in flight (at most 8 of about 2 MiB, plus one
 * document), whatever the size of a master. Each stream walks its collection's key index (the
 * index-served sorted read, store.h), and
 * the join advances whichever side is behind one master at a time, so both cursors fetch batches
 * (getMore) all along: neither waits for the other to be read to the end, and neither idles long
 * enough for the server to kill it (10 minutes). Per master: the row count and an order-independent checksum
 * (sum of each row's XXH3-128 over its canonical form: field order may differ, values and types may not).
 * Also checks every folded document's shape, its parts (0..parts-1, each once) and the size cap, and for
 * a bucketed fold the buckets: at most bucket_rows rows per document, and (bucket_by) a bucket_start date
 * that starts a window of the unit with every row's date field inside that window.
 *
 * Retries: a transient error (etl/retry.h: a failover, a restart, a dropped connection or cursor) ends
 * the try; after 1 s, 2 s, 4 s, ... (at most 16 s; each try logged) both streams open again from the last
 * fully verified key L (every master with a key <= L is accounted on both sides, nothing after it), with
 * the range bound key >= L sent to the server and the masters <= L skipped as they arrive, so nothing is
 * counted twice or lost. The bound assumes the key's values share one BSON type bracket, as the fold's
 * ranges and --resume do; when L is null (source rows without the key, which sort first) no bound is sent
 * (a {$gte: null} would match only null) and the prefix is skipped client-side. After `retries` tries
 * lab_verify fails with the last transient error and result->gave_up_transient set.
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
   int32_t batch_docs;      /* cursor batch size of both streams (0: the backend's) */
   size_t pipe_batch_bytes; /* bytes of documents per batch from the reader thread to the hashing (0: 2 MiB;
                             * tests use a tiny one so that batches hand over all along and fill up) */
   lab_progress_mode_t progress;
   int retries;                  /* tries after a transient error (see above); 0: none */
   int64_t retry_first_delay_ms; /* 0: LAB_RETRY_FIRST_DELAY_MS */
   /* test hook: called before each document is taken from a stream (`dst`: the destination's; `nth`:
    * 1-based, counted over both streams and every try); returning false fails the read with *error */
   bool (*fault) (void *ctx, bool dst, int64_t nth, bson_error_t *error);
   void *fault_ctx;
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
   int64_t retries;        /* tries after a transient error (both streams reopened past the last key) */
   bool gave_up_transient; /* failed on a transient error after every retry: rerunning --verify may pass */
} lab_verify_result_t;

/* lab_verify -- compare; returns true when the comparison ran (result->equal tells the outcome), false
 * with *error when it could not (missing collection, a read error). */
bool lab_verify (lab_store_t *store, const lab_verify_opts_t *opts, lab_verify_result_t *result,
                 bson_error_t *error);

#endif
