/*
 * predict_wl.h -- the prediction of the range and aggregate workloads (workload.h) beside the load's,
 * from the same probe: per cache point the engine bytes each of detail and folded reads, cold.
 *
 * Aggregate is a collection scan (COLLSCAN of the natural order, o->parallel ranges): every leaf page of
 * the collection read once whatever the cache, i.e. the layout's data on disk (detail: measured; folded:
 * the sample fold's). Range is IXSCAN + FETCH through the time index, the windows drawn as scancmp draws
 * them (the same seed, keys and reservoir pick of a row per drawn master): the probe reads every row's time
 * in one pass of the natural order (documents read: only when --workload asks for range), and the windows'
 * entries in (time, RecordId) order give the time index's leaf pages and the documents fetched -- detail:
 * the row's data page; folded: the whole document of each master with a row in the window, once per window
 * -- the windows dealt to the workers in contiguous segments and interleaved entry by entry, as the load.
 * The pages' LRU stack distances (stackdist.h) give the misses at every cache.
 */
#ifndef LAB_PREDICT_WL_H
#define LAB_PREDICT_WL_H

#include "scan/predict/predict_cands.h"
#include "scan/predict/predict_private.h"

/* The layouts predicted: detail, folded, then the other candidates (predict_cands.h). */
#define LAB_PREDICT_WL_LAYOUTS (2 + LAB_PREDICT_CANDS)

/* What the range and aggregate predictions need beyond the load's probe. */
typedef struct {
   bool range, aggregate;   /* asked for (--workload) */
   const char *range_why;   /* range not predicted: why (NULL: it is) */
   int64_t **times;         /* [p->nkeys][p->nrids[k]]: each row's time (ms), aligned with p->rids */
   int64_t docs_read;       /* rows the time pass read */
   double time_index_bytes; /* the detail time index on disk (0: not there, the key index's figures) */
   int64_t *win_lo;         /* the windows drawn */
   int64_t nwin;
   int64_t range_ms; /* a window's length */
   /* per layout slot */
   int nl;
   char name[LAB_PREDICT_WL_LAYOUTS][64], kind[LAB_PREDICT_WL_LAYOUTS][16];
   double storage[LAB_PREDICT_WL_LAYOUTS];                /* its data on disk: what a collection scan reads */
   double data_disk[LAB_PREDICT_WL_LAYOUTS];              /* bytes one data page read reads */
   double page_cache[LAB_PREDICT_WL_LAYOUTS];             /* a data page's footprint in the cache */
   lab_scan_stackdist_t *sd[LAB_PREDICT_WL_LAYOUTS];      /* range */
   lab_scan_evictsim_trace_t *ev[LAB_PREDICT_WL_LAYOUTS]; /* ... each worker's accesses, for the miniature */
   double range_docs[LAB_PREDICT_WL_LAYOUTS];             /* documents fetched */
   double index_disk, index_epp;
   double range_rows; /* rows in the windows */
} lab_scan_predict_wl_t;

/* lab_scan_predict_wl_probe -- with range in o->wl.set (and no --sample): every row's time from one pass of
 * o->detail's natural order, the time index's size, the windows drawn from the loaded masters
 * (load[0..nload): indexes into p->keys, as scancmp's keys); read-only. A row without a date in
 * the time field never falls in a window. */
bool lab_scan_predict_wl_probe (lab_store_t *store, const lab_scan_opts_t *o, const probe_t *p,
                                const int64_t *load, int64_t nload, lab_scan_predict_wl_t *w,
                                bson_error_t *error);

/* lab_scan_predict_wl_build -- the layouts (detail and folded from the load's model `tr`, `l`; the
 * candidates of `c`, may be NULL) and their range traces: a layout of rows in key order (sorted, clustered)
 * has its rows renumbered so, one of documents (folded, buckets, zstd) its documents packed in key order. */
void lab_scan_predict_wl_build (const lab_scan_opts_t *o, const probe_t *p, const traces_t *tr,
                                const layouts_t *l, const lab_scan_predict_cands_t *c,
                                lab_scan_predict_wl_t *w);

/* lab_scan_predict_wl_point -- "workload_reads" of one sweep point (docs/results-schema.md). */
void lab_scan_predict_wl_point (bson_t *point, const lab_scan_predict_wl_t *w, const layouts_t *l,
                                uint64_t cache);

/* lab_scan_predict_wl_render -- the terminal lines of a predicted file's "workload_reads" appended to `s`
 * (nothing without them). */
void lab_scan_predict_wl_render (const bson_t *results, bson_string_t *s);

/* lab_scan_predict_wl_cleanup -- free it; safe on a zeroed one. */
void lab_scan_predict_wl_cleanup (lab_scan_predict_wl_t *w, int64_t nkeys);

#endif
