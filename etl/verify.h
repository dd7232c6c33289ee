/*
 * verify.h -- prove that a folded collection holds exactly the rows of its source.
 *
 * What is proved, by either method: per master (the rows sharing one key value; numerically equal keys of
 * different types are one master, as in the fold) the same number of rows on both sides and the same
 * order-independent checksum -- the sum of each row's 128-bit digest (lab_fold_row_hash, fold.h: the XXH3 of
 * each of its typed fields, summed and mixed; field order may differ, values and types may not, so an
 * int32 3 and a double 3.0 differ). Also every folded document's shape, its parts (0..parts-1, each
 * once), the size cap, and for a bucketed fold the buckets: at most bucket_rows rows per document, and
 * (bucket_by) a bucket_start date that starts a window of the unit with every row's date field inside
 * that window. The result's figures (rows, masters, checksums, differences) are the same by both methods;
 * the first difference reported is the one at the smallest differing key.
 *
 * Two methods read the collections differently:
 *
 * multiset (the default) -- two natural-order scans (store.h: collection scans, no index, each data page
 * read once), run concurrently by `workers` threads over ranges of both collections (store/natural.h):
 * each thread adds every row it reads to its own map of master -> {rows, checksum} (the source's rows
 * under their key; a destination document's rows under its key, with its parts, size and buckets), the
 * maps are merged, and the masters are then accounted in key order. Independent of the fold's own read
 * path (a key range or an index the fold misread cannot hide a row from it), and on a production server
 * the cheapest full read there is. Memory: a map entry per master per thread (about 200 bytes with the
 * table's slack, plus the key: 209 measured with 16-byte keys); when the masters would need more than
 * `memory_bytes`, the masters are split by a hash of their key into passes, each pass scanning both
 * collections again and holding only its share of the masters (a first estimate from the destination's
 * document count; a pass whose maps outgrow the bound starts again with twice the passes, logged). A
 * transient error (etl/retry.h) starts the pass again from its beginning after 1 s, 2 s, 4 s, ... (at most 16
 * s; each try logged); the passes done stay done.
 *
 * ordered -- both collections streamed sorted by the key, in step (a merge join). One thread reads --
 * both streams, in step, copying each document into batches -- and the calling thread hashes, unfolds
 * and accounts them in the same order, so the verify runs at the pace of the bare read while the hashing
 * overlaps it; memory stays bounded by the batches in flight (at most 8 of about 2 MiB, plus one
 * document), whatever the size of a master or their number. Each stream walks its collection's key index
 * (the index-served sorted read, store.h: on a server an IXSCAN+FETCH, a random read per row when a
 * master's rows are scattered), and the join advances whichever side is behind one master at a time, so
 * both cursors fetch batches (getMore) all along: neither waits for the other to be read to the end, and
 * neither idles long enough for the server to kill it (10 minutes). Retries: a transient error ends the
 * try; after the same back-off both streams open again from the last fully verified key L (every master
 * with a key <= L is accounted on both sides, nothing after it), with the range bound key >= L sent to
 * the server and the masters <= L skipped as they arrive, so nothing is counted twice or lost. The bound
 * assumes the key's values share one BSON type bracket, as the fold's ranges and --resume do; when L is
 * null (source rows without the key, which sort first) no bound is sent (a {$gte: null} would match only
 * null) and the prefix is skipped client-side.
 *
 * After `retries` tries lab_fold_verify fails with the last transient error and result->gave_up_transient
 * set.
 */
#ifndef LAB_ETL_VERIFY_H
#define LAB_ETL_VERIFY_H

#include "core/progress.h"
#include "store/store.h"
#include "fold.h"

/* The two methods (see above). */
typedef enum {
   LAB_VERIFY_MULTISET = 0, /* natural-order scans and per-master multiset hashes (the default) */
   LAB_VERIFY_ORDERED,      /* the merge join of both collections read in key order */
} lab_fold_verify_method_t;

/* lab_fold_verify_method_name -- "multiset" or "ordered" (the names of --verify=METHOD and of the summaries).
 */
const char *lab_fold_verify_method_name (lab_fold_verify_method_t m);

/* The multiset method's memory bound when none is given: --verify-memory's default. */
#define LAB_VERIFY_MEMORY_DEFAULT (1024ull * 1024 * 1024)

typedef struct {
   lab_fold_verify_method_t method;
   /* what was folded, as the fold had it (fold.h): documents over target.max_doc_bytes or with more rows
    * than target.bucket_rows, and rows outside their document's target.bucket_by window, are differences */
   lab_fold_target_t target;
   const char *const *skip_key_ids; /* masters rejected by this run: expected missing (sorted, may be NULL) */
   size_t nskip;
   int32_t batch_docs;      /* cursor batch size of both streams (0: the backend's) */
   size_t pipe_batch_bytes; /* bytes of documents per batch from the reader thread to the hashing (0: 2 MiB;
                             * tests use a tiny one so that batches hand over all along and fill up) */
   lab_progress_mode_t progress;
   int workers;                  /* multiset: threads reading both collections (0: 2) */
   uint64_t memory_bytes;        /* multiset: bound on the per-master maps (0: LAB_VERIFY_MEMORY_DEFAULT) */
   int retries;                  /* tries after a transient error (see above); 0: none */
   int64_t retry_first_delay_ms; /* 0: LAB_RETRY_FIRST_DELAY_MS */
   /* test hook: called before each document is taken from a stream (`dst`: the destination's; `nth`:
    * 1-based, counted over both streams, every thread and every try); returning false fails the read
    * with *error */
   bool (*fault) (void *ctx, bool dst, int64_t nth, bson_error_t *error);
   void *fault_ctx;
} lab_fold_verify_opts_t;

typedef struct {
   lab_fold_verify_method_t method;
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
   lab_fold_hash_t src_hash;
   lab_fold_hash_t dst_hash;
   char first_difference[768]; /* empty when equal */
   double elapsed_s;
   int passes;        /* multiset: passes over both collections (1 when the masters fit the memory bound) */
   int workers;       /* multiset: threads that read them */
   int64_t map_bytes; /* multiset: the largest size the maps of one pass reached, all threads together */
   int64_t retries;   /* tries after a transient error (both streams reopened past the last key) */
   bool gave_up_transient; /* failed on a transient error after every retry: rerunning --verify may pass */
} lab_fold_verify_result_t;

/* lab_fold_verify -- compare by o->method; returns true when the comparison ran (result->equal tells the
 * outcome), false with *error when it could not (missing collection, a read error, a malformed folded
 * document: LAB_ERROR_VERIFY naming its _id). */
bool lab_fold_verify (lab_store_t *store, const lab_fold_verify_opts_t *opts,
                      lab_fold_verify_result_t *result, bson_error_t *error);

#endif
