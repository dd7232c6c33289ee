/*
 * predict.h -- predict before folding: the curve of read amplification (and, calibrated,
 * load time and speedup) against the engine cache, from a read-only probe of the one-document-per-row
 * collection, without folding anything and without loading the collection.
 *
 * The model in two sentences. The probe walks the key index and keeps, per master, the RecordIds of its
 * rows; with the rows per data page it turns them into the page accesses the parallel load of every
 * master would make (the same key segments per worker as scancmp, the workers interleaved row by row:
 * each row an index leaf page when it changes, then the data page of its RecordId), and the folded
 * layout's from a sample fold's document sizes (one document per master, masters packed in key order into
 * pages as WiredTiger 3.2.1 reconciles an in-order insert: predict_pack.c; its bytes on disk from the
 * sample's pages compressed: predict_fold.c). One pass
 * of byte-weighted stack distances over each trace (scan/predict/stackdist.h) gives the misses of an LRU
 * cache of every size at once, the cache holding pages of their in-memory footprint (measured by the probe on
 * the embedded store: predict_probe.c) up to WiredTiger's eviction trigger, and each miss reads the page's
 * on-disk bytes: read amplification = those bytes / the layout's data + indexes on disk, as measured.
 * WiredTiger does not evict in LRU order: where the two can differ (predict_evict.c: the trace's pages do
 * not fit under eviction_target and some reuse hits the LRU cache) a miniature of its eviction
 * (scan/predict/evictsim.h: read generations, the walk's queue of the oldest pages it meets, eviction from
 * the trigger down to the target, pages read past midway evicted when their cursor lets them go) runs over
 * the same trace at that cache, and each point says which engine gave it (LAB_PREDICT_MODEL_*).
 *
 * With a sample (--sample F) the probe reads the RecordIds of the masters whose key hashes under F only;
 * their accesses keep their real pages and order, and the misses are scaled up (predict.c
 * scaled_read_bytes: first touches / F capped at the layout's pages, the sample's share of missing reuses
 * applied to the whole load's, a master's repeated touches of its own pages / F); the sample split four
 * ways by the same hash, each estimate made again without one group, gives each figure's sampling error
 * (the delete-a-group jackknife).
 *
 * With --workload range,aggregate the same probe predicts those workloads' bytes read per layout
 * (predict_wl.h).
 *
 * The pure part (lab_scan_predict_trace_*, lab_scan_predict_read_bytes) is unit-tested on hand-made layouts
 * (tests/scan/test_predict.c); the probe and the results document (lab_scan_predict_run) are checked against
 * measured cold sweeps on the same data (tests/scan/test_predict_embedded.c, scripts/bench-predict.sh).
 * Library code never prints.
 */
#ifndef LAB_PREDICT_H
#define LAB_PREDICT_H

#include "scan/scan.h"
#include "scan/predict/evictsim.h"
#include "scan/predict/stackdist.h"

/* The share of the cache the model lets pages fill: WiredTiger's default eviction_trigger (95%; the
 * eviction threads start at eviction_target, 80%, but under a read load the cache runs at the trigger:
 * measured peaks of 95% of a 28.4 MiB cache holding every page, and 100% at the small caches, on the
 * test's data). */
#define LAB_PREDICT_CACHE_FILL 0.95
/* WiredTiger's default eviction_target (percent): where the eviction miniature (evictsim.h) starts to evict
 * when the probe read no configuration. */
#define LAB_PREDICT_EVICT_TARGET 80.0
/* In-memory bytes a data row costs beyond its BSON (WT_ROW slot, key and value cells). */
#define LAB_PREDICT_ROW_CACHE_OVERHEAD 24.0
/* In-memory bytes of a page beyond its rows (WT_PAGE, its index array, allocation slack). */
#define LAB_PREDICT_PAGE_CACHE_OVERHEAD 1024.0
/* mongod's key index leaf_page_max: an index leaf page's bytes on disk (no block compressor). */
#define LAB_PREDICT_INDEX_PAGE_BYTES 16384.0

/* Stack-distance classes of the traces. */
#define LAB_PREDICT_DATA 0
#define LAB_PREDICT_INDEX 1
/* With again_class: a data page touched again by the master that touched it last (its rows' pages come
 * in RecordId order), apart from the pages' first touches by each master (--sample scales them apart). */
#define LAB_PREDICT_DATA_AGAIN 2

/* Where the rows lie and how the load goes: the model's whole input. */
typedef struct {
   int64_t nmasters;        /* every master of the collection, in key order */
   int64_t *const *rids;    /* rids[m]: master m's RecordIds, ascending */
   const size_t *nrids;     /* nrids[m] */
   const int64_t *load;     /* the masters loaded: indexes into rids, ascending */
   int64_t nload;           /* (every master without --keys-limit) */
   int parallel;            /* workers: contiguous segments of `load` (lab_scan_keys_segment) */
   const int64_t *perm;     /* NULL: key order; random order: positions into `load` in the order of the
                             * shuffle, dealt round-robin to the workers (lab_scan_keys_share) */
   int64_t min_rid;         /* the collection's first RecordId */
   double rows_per_page;    /* detail rows per data leaf page */
   double page_cache_bytes; /* a data page's footprint in the cache */
   double index_entries_per_page;
   double index_page_cache_bytes;
   /* the folded layout: a master's document is folded_master_bytes + rows x folded_row_bytes; a page holds
    * folded_page_bytes of documents on average (a document never spans pages), packed as WiredTiger packs
    * an in-order insert (lab_scan_predict_pack_docs) whose blocks compress to folded_compress_ratio of their
    * images; folded_page_max a fixed page maximum before compression instead of WiredTiger's (0; tests) */
   double folded_master_bytes, folded_row_bytes, folded_page_bytes, folded_page_max, folded_compress_ratio;
   double folded_page_cache_bytes;
   double folded_index_entries_per_page;
   bool again_class; /* the detail trace counts a master's repeated touches as LAB_PREDICT_DATA_AGAIN */
   lab_scan_evictsim_trace_t
      *record; /* (may be NULL) gets each worker's accesses, for the eviction miniature */
} lab_scan_predict_input_t;

/* lab_scan_predict_trace_detail -- the stack-distance analysis of the detail layout's load: class
 * LAB_PREDICT_DATA the collection's leaf pages, LAB_PREDICT_INDEX the key index's. Caller destroys. */
lab_scan_stackdist_t *lab_scan_predict_trace_detail (const lab_scan_predict_input_t *in);

/* lab_scan_predict_trace_folded -- the same for the folded layout (one document per master, in key order);
 * *pages (may be NULL) gets the folded layout's data pages. Caller destroys. */
lab_scan_stackdist_t *lab_scan_predict_trace_folded (const lab_scan_predict_input_t *in, int64_t *pages);

/* lab_scan_predict_capacity -- the bytes of pages a cache of `cache_bytes` holds in the model at the default
 * fill (LAB_PREDICT_CACHE_FILL); lab_scan_predict_capacity_at at `fill` (a share of the cache: the probe's
 * measured one). */
uint64_t lab_scan_predict_capacity (uint64_t cache_bytes);
uint64_t lab_scan_predict_capacity_at (uint64_t cache_bytes, double fill);

/* lab_scan_predict_read_bytes -- the bytes read from disk at `capacity`: data misses x data_disk_bytes +
 * index misses x index_disk_bytes; *misses (may be NULL) the page misses. */
double lab_scan_predict_read_bytes (lab_scan_stackdist_t *sd, uint64_t capacity, double data_disk_bytes,
                                    double index_disk_bytes, double *misses);

/* lab_scan_predict_run -- `scancmp --predict`: probe o->detail on `store` (reads index entries and the
 * engine's statistics; no document unless o->calibrate asks for a timed sample on the embedded store),
 * predict every point of o->cache_sizes / o->cache_ratios (default ratios 0.1, 0.25, 0.5, 1, 2, 4), and
 * fill *results (initialized by the caller) with a results document of docs/results-schema.md marked
 * "predicted": true, holding the model's inputs and the probe's cost under "prediction". */
bool lab_scan_predict_run (lab_store_t *store, const lab_scan_opts_t *o, bson_t *results,
                           bson_error_t *error);

/* lab_scan_predict_table_render -- the terminal text of a predicted results document: what the probe read,
 * then the sweep table (lab_scan_sweep_table_render) headed as a prediction. Caller bson_free()s. */
char *lab_scan_predict_table_render (const bson_t *results);

#endif
