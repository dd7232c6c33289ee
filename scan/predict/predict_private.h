/*
 * predict_private.h -- what predict.c (the model and the results) and predict_probe.c (the read-only probe
 * of the detail collection and the timed sample) share; private to scan/ and its tests.
 */
#ifndef LAB_SCAN_PREDICT_PRIVATE_H
#define LAB_SCAN_PREDICT_PRIVATE_H

#include "core/buf.h"
#include "scan/predict/predict.h"
#include "scan/predict/predict_cost.h"
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
   double leaf_cpu_s; /* the process's CPU seconds over the leaf count (the engine's threads in it) */
   int64_t walk_read_bytes, leaf_read_bytes; /* engine block bytes (-1 unknown) */
   int64_t documents_fetched;                /* embedded: measured (the store's documents-read counter) */
   const char *documents_how;
   const char *walk_how;
   int64_t range_documents; /* of documents_fetched, the range workload's reads of the rows' times */
   const char *range_how;   /* what they read (NULL: range not asked for or not predicted) */
   /* --sample: each key's place in [0, 1) by its hash; a master is probed when it is under `sample` */
   double sample;
   double *u;
   int64_t nsampled;       /* masters probed */
   double entries_est;     /* the collection's index entries: counted, or (sampled) its document count */
   double sample_per_page; /* sampled masters that touch a data page, on average (its first touches) */
   /* the cache's real capacity (embedded: lab_scan_predict_probe_footprint), 0 where not measured */
   double data_page_mem;  /* in-memory bytes per data page the probe read (cache_overhead included) */
   double index_page_mem; /* ... per key index page */
   int64_t data_pages_in, index_pages_in;
   double key_index_bytes;             /* on disk: the key index's own file */
   double evict_target, evict_trigger; /* percent (0: not known: LAB_PREDICT_CACHE_FILL) */
   bool evict_configured;              /* from the connection's configuration, not WiredTiger's defaults */
   const char *foot_why;               /* why the footprint is not measured (NULL: it is) */
   /* the sample fold (lab_scan_predict_probe_fold), 0 where not done */
   int64_t fold_masters, fold_rows, fold_hoisted;
   double fold_master_bytes, fold_row_bytes; /* a folded document: head + rows x row bytes */
   double fold_page_raw, fold_page_disk;     /* the sample's full pages: records' bytes, bytes on disk */
   int64_t fold_pages;
   double fold_compress_ratio; /* its pack's compressed bytes per image byte (predict_pack.c) */
   /* the other candidates' pages from the same sample (lab_scan_predict_cands_fold), 0 where not done */
   struct {
      int32_t bucket_rows;        /* the buckets' rows per document */
      double rows_raw, rows_disk; /* the rows in key order (sorted): records' bytes, bytes on disk */
      double clus_raw, clus_disk; /* ... as a clustered collection's (_id {key, id}) */
      double clus_row_extra;      /* bytes a row's clustered _id adds to its document */
      double bkt_raw, bkt_disk;   /* buckets of bucket_rows rows */
      double zstd_raw, zstd_disk; /* the folded documents compressed with zstd */
      int64_t rows_pages, clus_pages, bkt_pages, zstd_pages, bkt_docs;
      /* each folded document and each bucket alone through the log compressor (snappy): an append's
       * journal record holds one document (lab_scan_predict_log_compress) */
      double fold_log_raw, fold_log_comp, bkt_log_raw, bkt_log_comp;
      double bkt_compress_ratio, zstd_compress_ratio; /* compressed bytes per image byte (predict_pack.c) */
      double clus_compress_ratio, clus_key_bytes;     /* ... and the clustered rows' keys' mean bytes */
      double rows_compress_ratio;
   } cf;
   lab_scan_predict_cost_t cost; /* the load time's figures (predict_cost_probe.c) */
} probe_t;

typedef struct {
   bool done;
   int64_t masters, docs, block_reads;
   double cold_s, warm_s;
   double doc_s;                 /* per document, warm: CPU */
   double miss_s;                /* per page read from disk, cold minus warm */
   lab_scan_predict_cost_t cost; /* the load time's figures: the probe's, the per page read refined here */
} timing_t;

/* lab_scan_predict_probe_walk -- every key of the key index, then each key's RecordIds (embedded: index
 * entries only). */
bool lab_scan_predict_probe_walk (lab_store_session_t *sess, lab_store_t *store, const lab_scan_opts_t *o,
                                  probe_t *p, bson_error_t *error);

/* lab_scan_predict_probe_leaf_pages -- the collection's data leaf pages: exact below PROBE_EXACT_BELOW_BYTES,
 * sampled above it (falling back to exact), or unknown (0: the model then assumes full 32 KiB pages); its
 * cost: seconds, bytes and pages read, and (embedded) the documents read by the store's counter added to
 * documents_fetched. */
void lab_scan_predict_probe_leaf_pages (lab_store_session_t *sess, lab_store_t *store,
                                        const lab_scan_opts_t *o, probe_t *p);

/* lab_scan_predict_probe_footprint -- the cache's real capacity on the embedded store: the in-memory bytes
 * per page of the collection and of its key index, from what the probe's own reads (the index walk, the leaf
 * count) left in the engine cache (the tables' "bytes currently in the cache" / "pages read into cache":
 * no further read), the key index's size from its own file, and the eviction thresholds. Not measured
 * (p->foot_why says why) on a server, when the probe read too few pages, or when its reads filled the
 * cache (pages evicted: the bytes per page would be low). */
void lab_scan_predict_probe_footprint (lab_store_session_t *sess, lab_store_t *store,
                                       const lab_scan_opts_t *o, probe_t *p);

/* lab_scan_predict_key_index_bytes -- the key index on disk: its own file (measured), else the indexes' mean.
 */
double lab_scan_predict_key_index_bytes (const probe_t *p);

/* lab_scan_predict_cache_fill -- the share of the cache pages fill in the model: the eviction trigger (pages
 * fill the cache up to it before the application threads evict; midway between target and trigger, the
 * measured mean use, put the knee lower than WiredTiger's on the zipf shape at ratio 4, where every page
 * fit), else LAB_PREDICT_CACHE_FILL. */
double lab_scan_predict_cache_fill (const probe_t *p);

/* lab_scan_predict_record_capacity -- "capacity" in `d`: the figures that make the cache's capacity in the
 * model (the pages' footprints the model used, the fill, the key index), each with whether the probe
 * measured it on this store or it is a default. */
void lab_scan_predict_record_capacity (bson_t *d, const probe_t *p, double data_page_cache_bytes,
                                       double index_page_cache_bytes, double fill);

/* lab_scan_predict_probe_fold -- (predict_fold.c) the folded document's size from a sample fold: up to 48
 * masters spread over the keys (8,000 rows at most) read and folded in memory as fold-details --hoist auto
 * would, giving fold_master_bytes (the document with an empty array) and fold_row_bytes (what a row adds);
 * the rows read are added to documents_fetched. */
bool lab_scan_predict_probe_fold (lab_store_session_t *sess, const lab_scan_opts_t *o, probe_t *p,
                                  bson_error_t *error);

/* A collection's leaf page as WiredTiger 3.2 writes it with a block compressor (mongod's leaf_page_max,
 * 32 KiB): reconciliation grows the records' bytes a page takes before compression in 10% steps while
 * the compressed image stays under leaf_page_max, but never past memory_page_image_max (4 x leaf_page_max)
 * and splits at split_pct (90%) of that, to the 4 KiB allocation unit (src/btree/bt_handle.c and
 * __rec_compression_adjust in src/reconcile/rec_write.c). Records compressing beyond 4:1 (billgen's
 * documents with zstd: 0.15 on disk per byte) meet the image cap first: a zstd page holds the records a
 * snappy page holds, only smaller on disk. */
#define LAB_PREDICT_LEAF_PAGE_MAX 32768.0
#define LAB_PREDICT_PAGE_IMAGE_MAX (4 * LAB_PREDICT_LEAF_PAGE_MAX)
#define LAB_PREDICT_PAGE_IMAGE_SPLIT 118784.0 /* 90% of the image cap, to the allocation unit */

/* The block compressors the sample packs model. */
typedef enum { LAB_PREDICT_SNAPPY = 0, LAB_PREDICT_ZSTD } lab_predict_compressor_t;

/* lab_scan_predict_fold_doc -- (predict_fold.c) the folded document of master `r` (key `key`) in *image
 * (caller destroys): *head its bytes with an empty array, *body what its rows add; the hoisted fields (the
 * first master's first row's, in `h`) leave the rows. */
void lab_scan_predict_fold_doc (const lab_scan_opts_t *o, const bson_value_t *key, const lab_store_docs_t *r,
                                char **h, size_t nh, double *head, double *body, bson_t **image);

/* lab_scan_predict_pack_pages -- (predict_pack.c) the records `docs` in order packed into leaf pages as
 * WiredTiger 3.2.1 reconciles an in-order insert with block compressor `c` (keys[j] the j-th's key, NULL:
 * packed RecordIds); *raw the documents' bytes in the full pages, *disk those pages' bytes on disk (the
 * sample's last two pages, which its end cuts, are left out when there are others), *pages the full pages.
 * Returns the blocks' compressed bytes per byte of their images (0: none compressed). */
double lab_scan_predict_pack_pages (bson_t *const *docs, size_t n, lab_predict_compressor_t c,
                                    const lab_buf_t *keys, double *raw, double *disk, int64_t *pages);

/* lab_scan_predict_cell_bytes -- (predict_pack.c) a leaf page's bytes for one record: its key cell (a packed
 * RecordId `recno`, or a key of `key_bytes` when positive) and its value cell holding `value_bytes`. */
double lab_scan_predict_cell_bytes (int64_t recno, double key_bytes, double value_bytes);

/* lab_scan_predict_pack_records -- (predict_pack.c) records of rec[i] bytes each (cells included), inserted
 * in key order, into leaf pages: at page maximum `pmax` before compression, or when 0 at WiredTiger's own,
 * from the image cap moved after each block its images compressed at `ratio` give (0: not moved); each
 * one's page into page_of[i]; returns the pages; *full (may be NULL) the pages no reconciliation's finish
 * cut. */
int64_t lab_scan_predict_pack_records (const double *rec, int64_t n, double pmax, double ratio,
                                       int64_t *page_of, int64_t *full);

/* lab_scan_predict_pack_disk -- (predict_pack.c) the bytes on disk of `pages` leaf pages holding
 * `records` records of `data_bytes` in all (keys of `key_bytes`, 0: packed RecordIds) whose blocks
 * compress to `ratio` of their images (lab_scan_predict_pack_pages): each block rounded up to the
 * allocation unit by half a unit on average, so that a layout of smaller pages (the clustered copy's) pays
 * more per byte, and the sample's own few blocks' round-ups do not count. */
double lab_scan_predict_pack_disk (double data_bytes, double records, double key_bytes, double pages,
                                   double ratio);

/* Below this many full pages a sample pack's own blocks' round-ups are noise (a zstd fold's 16 KB blocks:
 * -7% to +6% on its size from one or two pages), and a layout's bytes on disk are the expected ones
 * (lab_scan_predict_pack_disk); from it on, the sample's pages are the layout's and their round-ups its
 * (the sorted copy's blocks just over or under 20 KB: the expected round-up put it 4-6% over). */
#define LAB_PREDICT_PACK_MIN_PAGES 5

/* lab_scan_predict_pack_docs -- (predict_pack.c) the one packing of every layout of documents: documents of
 * doc_bytes[d] BSON bytes in key order (RecordIds 1, 2, ...) into leaf pages as
 * lab_scan_predict_pack_records packs them (`pmax` and `ratio` its), each one's page into page_of[d];
 * returns the pages. */
int64_t lab_scan_predict_pack_docs (const double *doc_bytes, int64_t n, double pmax, double ratio,
                                    int64_t *page_of);

/* lab_scan_predict_pack_arrival -- (predict_pack.c) the leaf pages of a table whose n records (of `rec`
 * bytes each, cells included; keys 0..n-1 in key order) are inserted in the order key_of gives (key_of[t]
 * the key of the t-th insert), as WiredTiger 3.2.1 grows the tree: a page past memory_page_max split in
 * memory once if it was appended to, then reconciled into pages on disk, which later inserts read back and
 * grow; at the end every page with inserts reconciled (the page maximum walked at `ratio` as
 * lab_scan_predict_pack_records walks it). A clustered collection copied in the source's arrival order. */
int64_t lab_scan_predict_pack_arrival (const int64_t *key_of, int64_t n, double rec, double ratio);

/* lab_scan_predict_clustered_pages -- (predict_pack.c) the leaf pages of the clustered copy of the probed
 * collection: its rows (of `row_bytes`, keys of `key_bytes`) inserted in their RecordIds' order, clustered
 * by key then arrival (lab_scan_predict_pack_arrival); 0 when not every row's RecordId is known (a sample)
 * or the rows are too many to simulate. */
int64_t lab_scan_predict_clustered_pages (const probe_t *p, double row_bytes, double key_bytes, double ratio);

/* lab_scan_predict_log_compress -- (predict_cands_wl.c) the bytes of the documents `docs` (*raw) and
 * their sum compressed one at a time by snappy, as the journal's log compressor compresses a record
 * holding one of them (*comp). */
void lab_scan_predict_log_compress (bson_t *const *docs, size_t n, double *raw, double *comp);

/* lab_scan_predict_cands_fold -- (predict_fold.c) the sample fold's masters (ms[i], key
 * p->keys[pick[i]], folded into docs[i]) packed as each other candidate would hold them, into p->cf. */
void lab_scan_predict_cands_fold (const lab_scan_opts_t *o, probe_t *p, const lab_store_docs_t *ms,
                                  const int64_t *pick, size_t nm, char **h, size_t nh, bson_t *const *docs);

/* lab_scan_predict_probe_cleanup -- free what the probe holds. */
void lab_scan_predict_probe_cleanup (probe_t *p);

/* lab_scan_predict_calibrate -- a few masters loaded cold (the engine reopened, its files out of the page
 * cache) then again warm, on the embedded store: per document CPU (warm) and per page read (cold minus warm,
 * over the blocks read). It reads documents: only with --calibrate. */
bool lab_scan_predict_calibrate (lab_store_t *store, const lab_scan_opts_t *o, const probe_t *p, timing_t *t,
                                 bson_error_t *error);

/* lab_scan_predict_elapsed -- the model's load time: page reads overlap across the workers, documents cost
 * CPU on at most the machine's cores. */
double lab_scan_predict_elapsed (const timing_t *t, int parallel, double misses, double docs);

/* ---- predict.c's model, shared with the record (predict_record.c) -------------------------------- */

/* The masters a trace is built from: every master (rate 1: the probe's arrays as they are), or with a
 * sample those whose key falls in [lo, hi) (rate = hi - lo): they keep their real RecordIds, so they touch
 * the pages they would touch in the whole load, in the same order; a master outside the sample is not
 * loaded and counts, for the index entries before it and the folded layout's packing, the mean rows. */
typedef struct {
   double rate;
   int64_t n;      /* masters: all of the collection's */
   int64_t **rids; /* [n] RecordIds (NULL outside the sample) */
   size_t *nrids;  /* [n] rows: counted, or outside the sample the mean */
   int64_t *load;  /* the loaded masters of the sample: indexes into rids, ascending */
   int64_t nload;
   int64_t min_rid;
   double rows_loaded; /* rows of the loaded masters of the sample */
   size_t *own_nrids;  /* owned (NULL at rate 1) */
   int64_t *perm;      /* random order: positions into load in the order they are dealt (owned; NULL key) */
} mini_t;

/* The sample is split this many ways by the same hash to state its error. */
#define SAMPLE_GROUPS 4
/* Below this many sampled masters per data page the estimate's bias can exceed its sampling error (seen
 * at 4.9 M rows, ratio 1.5: 2.9 sampled masters per page (F = 0.01) gave +59% with a stated error of
 * 0.2%; 29 (F = 0.1) +20% within one stated error). */
#define SAMPLE_MIN_PER_PAGE 10.0
#define SAMPLE_WARNING                                                                                       \
   "few sampled masters touch each page: the estimate can be off by more than its sampling error, most "     \
   "near the knee of the curve; sample a larger share of the masters"

/* The sample's knee and its error in cache (lab_scan_predict_knee_of), per layout (0 detail, 1 folded): the
 * cache at which the sample's LRU curve first reads at most twice what it reads when everything fits, and
 * the delete-a-group jackknife of its logarithm. A thin sample moves the knee to smaller caches (fewer
 * sampled masters share a page), and where every group fits a cache the read amplification's own
 * jackknife is 0 however far the whole collection's knee lies beyond it: the knee's is not. */
typedef struct {
   bool known[2];        /* false: no groups, or the curve has no knee in the caches looked at */
   double knee[2];       /* bytes of cache: the whole sample's knee */
   double log_bias[2];   /* (G - 1) x (the groups' mean log knee - the sample's): the jackknife's estimate
                          * of the sample's knee over every master's (used as an error: on eight shapes no
                          * better an estimate than the sample's own, docs/results.md) */
   double log_spread[2]; /* the jackknife's standard error of the log knee */
} lab_scan_predict_knee_t;

/* What the predicted layouts look like on disk. */
typedef struct {
   double on_disk[2]; /* detail, folded: data + indexes */
   double storage[2], index[2];
   double data_bytes[2]; /* uncompressed: the documents' BSON */
   double data_disk[2];  /* bytes one data page miss reads */
   double index_disk;    /* bytes one index page miss reads */
   double docs[2];       /* documents each load returns */
   double bytes[2];      /* their bytes */
   double rows;          /* rows each load returns */
   int64_t folded_pages;
   double pages[2][2];                 /* [layout][LAB_PREDICT_DATA / _INDEX]: the pages of each kind */
   double fill;                        /* the share of a cache pages fill (cache_fill) */
   double evict_target, evict_trigger; /* percent: the eviction miniature's thresholds */
} layouts_t;

/* The traces of one set of masters (all, a sample, or a part of it): the detail and folded layouts' stack
 * distances, the folded pages packed. */
typedef struct {
   mini_t mini;
   lab_scan_predict_input_t in;
   lab_scan_stackdist_t *sd[2];
   lab_scan_evictsim_trace_t *ev[2]; /* the whole sample's: each worker's accesses (NULL in the groups) */
   int64_t folded_pages;
   double shared[2]; /* lab_scan_predict_shared of each layout */
} traces_t;

/* The engines a point's bytes read come from (the "model" of each layout in a predicted point). */
#define LAB_PREDICT_MODEL_LRU "lru"
#define LAB_PREDICT_MODEL_SIM "wt-evict-sim"
/* The workers the band's held "no keep" episodes were measured at (predict_evict.c): at another count they
 * are scaled, not measured, and the record says so (prediction.model.band_warning). */
#define LAB_PREDICT_HOLD_WORKERS 4
/* The version of the model as a whole, in the prediction record: bump it when a point's figures or their
 * stated errors change. */
#define LAB_PREDICT_MODEL_VERSION "8-knee-error"

/* WiredTiger 3.2's page format as mongod's tables use it, one place for the models that build pages
 * (predict_pack.c: leaf pages; predict_cands_wl.c: internal pages): the allocation unit a block is written
 * in (allocation_size, the default), a page's header and its block's (WT_PAGE_HEADER_BYTE_SIZE), and the
 * share of a page's maximum at which reconciliation splits (split_pct, 90: WiredTiger's default and
 * mongod's). */
#define LAB_PREDICT_WT_ALLOC 4096.0
#define LAB_PREDICT_WT_PAGE_HEADER 40.0
#define LAB_PREDICT_WT_SPLIT_PCT 90

/* One layout's engine at one cache point. */
typedef struct {
   const char *model;                    /* LAB_PREDICT_MODEL_* */
   const char *why;                      /* why LRU (NULL: the miniature ran) */
   double misses[LAB_STACKDIST_CLASSES]; /* the miniature's page reads per class */
   lab_scan_evictsim_result_t sim;
   /* the band's upper edge (predict_evict.c: the detail layout's load not in order, the folded layout's in
    * order): the miniature again with the eviction threads' held "no keep" episodes at every look, the
    * page reads per class (held_band: set) */
   bool held_band;
   double held_misses[LAB_STACKDIST_CLASSES];
} lab_scan_predict_model_t;

/* lab_scan_predict_point_model -- (predict_evict.c) the engine of `layout` (0 detail, 1 folded) at `cache`:
 * LRU (the stack distances) where the trace fits under eviction_target or almost no reuse hits an LRU cache
 * (the policies cannot differ), else the eviction miniature run over tr->ev[layout]. */
void lab_scan_predict_point_model (const traces_t *tr, int layout, uint64_t cache, const layouts_t *l,
                                   lab_scan_predict_model_t *pm);

/* lab_scan_predict_scaled_read_bytes -- (predict_record.c) the bytes a cache of `cache` reads in the load
 * of layouts_t slot `layout` from its trace `sd` of a sample at `rate` (1: every master, exactly the
 * trace's misses); *misses (may be NULL) its page misses. LRU only: the candidates' curves and the random
 * order's load times (predict_speed.c) do not run the eviction miniature (the detail and folded bytes do
 * where it can differ: lab_scan_predict_point_model). */
double lab_scan_predict_scaled_read_bytes (lab_scan_stackdist_t *sd, uint64_t cache, double rate,
                                           const layouts_t *l, int layout, double *misses);

/* One worker of a predicted load: its share of the loaded masters (a contiguous segment in key order, every
 * p-th position of the shuffle in random order) and where it is in it. */
typedef struct {
   int64_t k, end, stride;  /* the next master (a position in in->load or in->perm), the share's end */
   size_t j;                /* the next row (or a candidate's document) of the master at k */
   int64_t last_index_page; /* the index leaf page its cursor holds (-1: none, a new search) */
   int64_t last_data_page;  /* the data page its master's previous row lay in (-1: none) */
} lab_scan_predict_worker_t;

/* lab_scan_predict_workers_new -- (predict_trace.c) one worker per share of in->load, as scancmp deals
 * them (lab_scan_keys_segment; lab_scan_keys_share when in->perm is a shuffle); *n of them. bson_free. */
lab_scan_predict_worker_t *lab_scan_predict_workers_new (const lab_scan_predict_input_t *in, int *n);

/* lab_scan_predict_worker_next -- (predict_trace.c) move worker t past the masters whose `units` (rows, or
 * a candidate's documents) it has done, each next one a new search: false when its share is done. */
bool lab_scan_predict_worker_next (const lab_scan_predict_input_t *in, lab_scan_predict_worker_t *t,
                                   const size_t *units);

/* lab_scan_predict_master_at -- (predict_trace.c) the master (an index into in->rids) at position `k` of
 * the load's order. */
int64_t lab_scan_predict_master_at (const lab_scan_predict_input_t *in, int64_t k);

/* One point's bytes read and page misses per layout (0 detail, 1 folded) in key order, from the engine that
 * gave the point's figures (the eviction miniature or LRU): the load times use the same. */
typedef struct {
   double bytes[2], misses[2];
   /* each layout's band edge where the point states one (read_amplification_held; predict_evict.c says
    * where): its bytes and misses with the eviction threads' held "no keep" episodes at every look (held[i]:
    * set) */
   bool held[2];
   double held_bytes[2], held_misses[2];
} lab_scan_predict_point_reads_t;

/* lab_scan_predict_append_point -- (predict_record.c) one predicted sweep point: its runs, summary and per
 * layout read amplification; *reads (may be NULL) gets its key-order reads. */
void lab_scan_predict_append_point (bson_t *point, uint64_t cache, double ratio, const traces_t *tr,
                                    const traces_t *groups, int ngroups, const lab_scan_predict_knee_t *knee,
                                    const layouts_t *l, const lab_scan_opts_t *o, int64_t nload,
                                    const timing_t *t, lab_scan_predict_point_reads_t *reads);

/* lab_scan_predict_knee_of -- (predict_record.c) *k from the whole sample's traces `tr` and its `ngroups`
 * groups' (each the sample less one group); all unknown where ngroups < 2. */
void lab_scan_predict_knee_of (const traces_t *tr, const traces_t *groups, int ngroups, const layouts_t *l,
                               lab_scan_predict_knee_t *k);

/* lab_scan_predict_record_prediction -- (predict_record.c) "prediction": the model, its inputs and the
 * probe's cost; with --sample, the sample's knee from `knee`. */
void lab_scan_predict_record_prediction (bson_t *results, const lab_scan_opts_t *o, const probe_t *p,
                                         const lab_scan_predict_input_t *in, const layouts_t *l,
                                         const lab_scan_predict_knee_t *knee, const timing_t *t,
                                         double elapsed_s);

/* lab_scan_predict_record_dataset -- (predict_record.c) "dataset": the detail collection as it is, the folded
 * layout as predicted. */
void lab_scan_predict_record_dataset (bson_t *results, const lab_scan_opts_t *o, const probe_t *p,
                                      int64_t nload, const layouts_t *l);

/* lab_scan_predict_append_header -- (predict_record.c) a predicted results file's header, backend and config,
 * as a measured file's: the reference point's cache `cache` (ratio `ratio`), started at `ts`. */
void lab_scan_predict_append_header (bson_t *results, lab_store_t *store, const lab_scan_opts_t *o,
                                     const char *ts, uint64_t cache, double ratio);

/* ---- the load time (predict_cost.c, predict_cost_probe.c; the model in predict_cost.h) ----------- */

/* lab_scan_predict_work_of -- what `layout`'s load (traces `tr`) does at a point of `misses` reading
 * `read_bytes`. */
void lab_scan_predict_work_of (const traces_t *tr, const layouts_t *l, int layout, int64_t nload,
                               double misses, double read_bytes, lab_scan_predict_work_t *w);

/* lab_scan_predict_shared -- the share of `layout`'s (0 detail, 1 folded) data pages that more than one
 * worker touches in the load `in` describes (its order: key segments, or the shuffle dealt round-robin). */
double lab_scan_predict_shared (const lab_scan_predict_input_t *in, int layout);

/* lab_scan_predict_record_cost -- "cost" in `d`: the figures and their source. */
void lab_scan_predict_record_cost (bson_t *d, const lab_scan_predict_cost_t *c);

/* lab_scan_predict_append_speed -- "speed" in `point`: per load order (key, and random when `random` has
 * traces) each layout's predicted load seconds and bytes read, and the speedup. Key order reads `reads`
 * (the point's own: the miniature's where it ran); random order its traces' LRU. Nothing without figures. */
void lab_scan_predict_append_speed (bson_t *point, uint64_t cache, const traces_t *key,
                                    const traces_t *random, const layouts_t *l, int64_t nload,
                                    const lab_scan_predict_cost_t *c,
                                    const lab_scan_predict_point_reads_t *reads);

/* lab_scan_predict_speed_render -- (predict_cost.c) the predicted load seconds and speedup per point and load
 * order of `results` appended to `s`, with the cost figures' source; false (nothing appended) without them.
 */
bool lab_scan_predict_speed_render (const bson_t *results, bson_string_t *s);

/* lab_scan_predict_cpu_ns -- (predict_cost_probe.c) the process's CPU time in nanoseconds, every thread's
 * (the engine's eviction and reads in it). */
uint64_t lab_scan_predict_cpu_ns (void);

/* lab_scan_predict_cost_device -- (predict_cost_probe.c) the device figures on the embedded store: random
 * pages of the collection's file read by o->parallel threads at once (O_DIRECT, else after fadvise
 * DONTNEED), at two sizes (read_s and read_byte_s); on a server p->cost.not_measured says why. */
void lab_scan_predict_cost_device (lab_store_t *store, const lab_scan_opts_t *o, probe_t *p);

/* lab_scan_predict_cost_cpu -- (predict_cost_probe.c) the CPU figures from the sample fold: its masters
 * (keys[pick[i]], rows ms[i]) found again warm, their rows and folded documents `docs` processed as the
 * load processes them, pages of both shapes decompressed; repeated, the fastest kept. */
bool lab_scan_predict_cost_cpu (lab_store_session_t *sess, const lab_scan_opts_t *o, probe_t *p,
                                const int64_t *pick, const lab_store_docs_t *ms, size_t nm,
                                bson_t *const *docs, bson_error_t *error);

#endif
