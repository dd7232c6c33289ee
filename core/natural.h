/*
 * natural.h -- several collections read in natural order at once by N threads: the store's collection
 * scans (store.h, the natural-order contract) as one parallel job.
 *
 * Each collection is split into ranges (lab_store_natural_ranges: several on the embedded store, one on a
 * server), the ranges of all the collections go into one queue, interleaved by collection so that the
 * collections are read at the same time, and each thread -- with its own session -- takes the next
 * range until none is left. What to do with a document is the caller's: a function called with the
 * thread's own context, so nothing is locked per document. Memory: one cursor batch per thread.
 *
 * The reads of fold-details --verify (the multiset method), of its benchmark ceiling (bench_natural_read)
 * and of any whole-collection scan.
 */
#ifndef LAB_NATURAL_H
#define LAB_NATURAL_H

#include "progress.h"
#include "store.h"

/* lab_store_natural_doc_fn -- one document of collection colls[coll] (valid only during the call), in the
 * context of the thread reading it (`wctx`, worker `worker`). Return false with *error to stop the job. */
typedef bool (*lab_store_natural_doc_fn) (void *wctx, int worker, size_t coll, const bson_t *doc,
                                          bson_error_t *error);

typedef struct {
   const char *const *colls; /* the collections (each must exist: NO_COLLECTION otherwise) */
   size_t ncolls;
   int workers;         /* threads (>= 1); each opens its own session */
   int ranges_per_coll; /* ranges asked of each collection (0: 4 per worker, for balance) */
   int32_t batch_docs;  /* cursor batch size (0: the backend's) */
   lab_store_natural_doc_fn fn;
   void *wctx;               /* the first of `workers` contexts, laid out wctx_size bytes apart */
   size_t wctx_size;         /* 0: every worker gets wctx itself */
   lab_progress_t *progress; /* documents and their bytes, added every few hundred documents (may be NULL) */
   /* test hook: called before each document is taken (`nth`: 1-based over the whole job, every thread;
    * one call at a time, none after a failure); returning false fails the read with *error */
   bool (*fault) (void *ctx, size_t coll, int64_t nth, bson_error_t *error);
   void *fault_ctx;
} lab_store_natural_scan_t;

typedef struct {
   int64_t docs[8];  /* documents read, per collection (the first 8) */
   int64_t bytes[8]; /* their BSON bytes */
   int ranges;       /* ranges read in all */
} lab_store_natural_scan_stats_t;

/* lab_store_natural_scan -- run the job; true when every range was read to its end and every call of fn
 * returned true. Else *error is the failure (the first by worker index when several threads failed on
 * their own; a thread stopped by another's failure reports nothing), and the other threads stop within a
 * few hundred documents. `stats` may be NULL. */
bool lab_store_natural_scan (lab_store_t *store, const lab_store_natural_scan_t *job,
                             lab_store_natural_scan_stats_t *stats, bson_error_t *error);

#endif
