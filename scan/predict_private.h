/*
 * predict_private.h -- what predict.c (the model and the results) and predict_probe.c (the read-only probe
 * of the detail collection and the timed sample) share; private to scan/ and its tests.
 */
#ifndef LAB_SCAN_PREDICT_PRIVATE_H
#define LAB_SCAN_PREDICT_PRIVATE_H

#include "scan/predict.h"
#include "scan/scan.h"
#include "store/store.h"

/* Below this size on disk the collection's leaf pages are counted exactly (a walk of its tree), above it
 * sampled (lab_store_leaf_pages_estimate, keys only): the same rule as the locality figures. probe_t's
 * exact_below_bytes overrides it (tests). */
#define PROBE_EXACT_BELOW_BYTES (256.0 * 1024 * 1024)
/* mongod's collection leaf_page_max: the page assumed when the engine gives no leaf page count. */
#define PROBE_LEAF_PAGE_BYTES (32.0 * 1024)

typedef struct {
   lab_store_coll_stats_t st;
   bson_value_t *keys; /* every key of the collection, ascending */
   int64_t nkeys;
   int64_t **rids; /* per key, its RecordIds ascending */
   size_t *nrids;
   int64_t entries, min_rid;
   /* data leaf pages */
   int64_t leaf_pages; /* 0: not known (the fallback below) */
   double leaf_error_pct;
   const char *leaf_source;
   int64_t leaf_rows_read;   /* records the sampled count stepped over by key (no document read) */
   int64_t leaf_pages_read;  /* pages the count read into the engine cache (-1 unknown) */
   const char *leaf_how;     /* what the count read */
   double exact_below_bytes; /* 0: PROBE_EXACT_BELOW_BYTES */
   lab_store_leaf_sample_opts_t leaf_opts; /* the sampled count's size (zeros: the store's defaults) */
   /* cost */
   double walk_s, leaf_s;
   int64_t walk_read_bytes, leaf_read_bytes; /* engine block bytes (-1 unknown) */
   int64_t documents_fetched;                /* embedded: measured (the store's documents-read counter) */
   const char *documents_how;
   const char *walk_how;
   /* --sample: each key's place in [0, 1) by its hash; a master is probed when it is under `sample` */
   double sample;
   double *u;
   int64_t nsampled;       /* masters probed */
   double entries_est;     /* the collection's index entries: counted, or (sampled) its document count */
   double sample_per_page; /* sampled masters that touch a data page, on average (its first touches) */
} probe_t;

typedef struct {
   bool done;
   int64_t masters, docs, block_reads;
   double cold_s, warm_s;
   double doc_s;  /* per document, warm: CPU */
   double miss_s; /* per page read from disk, cold minus warm */
} timing_t;

/* lab_predict_probe_walk -- every key of the key index, then each key's RecordIds (embedded: index entries
 * only). */
bool lab_predict_probe_walk (lab_store_session_t *sess, lab_store_t *store, const lab_scan_opts_t *o,
                             probe_t *p, bson_error_t *error);

/* lab_predict_probe_leaf_pages -- the collection's data leaf pages: exact below PROBE_EXACT_BELOW_BYTES,
 * sampled above it (falling back to exact), or unknown (0: the model then assumes full 32 KiB pages); its
 * cost: seconds, bytes and pages read, and (embedded) the documents read by the store's counter added to
 * documents_fetched. */
void lab_predict_probe_leaf_pages (lab_store_session_t *sess, lab_store_t *store, const lab_scan_opts_t *o,
                                   probe_t *p);

/* lab_predict_probe_cleanup -- free what the probe holds. */
void lab_predict_probe_cleanup (probe_t *p);

/* lab_predict_calibrate -- a few masters loaded cold (the engine reopened, its files out of the page cache)
 * then again warm, on the embedded store: per document CPU (warm) and per page read (cold minus warm, over
 * the blocks read). It reads documents: only with --calibrate. */
bool lab_predict_calibrate (lab_store_t *store, const lab_scan_opts_t *o, const probe_t *p, timing_t *t,
                            bson_error_t *error);

/* lab_predict_elapsed -- the model's load time: page reads overlap across the workers, documents cost CPU
 * on at most the machine's cores. */
double lab_predict_elapsed (const timing_t *t, int parallel, double misses, double docs);

#endif
