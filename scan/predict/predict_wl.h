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
 * The pages' LRU stack distances (stackdist.h) give the misses at every cache. With --sample F only the
 * sampled masters' rows are read (by the key) and traced, the windows still drawn exactly, and the bytes
 * scaled back from a census of the sample's trace (predict_wl_sample.c); on a server range needs --sample.
 */
#ifndef LAB_PREDICT_WL_H
#define LAB_PREDICT_WL_H

#include "scan/predict/predict_cands.h"
#include "scan/predict/predict_private.h"

/* The layouts predicted: detail, folded, then the other candidates (predict_cands.h). */
#define LAB_PREDICT_WL_LAYOUTS (2 + LAB_PREDICT_CANDS)
/* Under this share of the whole windows' data pages seen by the sample, a layout's sampled range figure
 * can be under its unsampled one by more than its sampling error (2,000 bills: a folded layout seeing
 * 0.98 and 0.83 of its pages came within 9% of the measured, 0.72 and 0.66 were 19-50% under). */
#define LAB_PREDICT_WL_SEEN_MIN 0.75
#define LAB_PREDICT_WL_SAMPLE_WARNING                                                                        \
   "the sample saw under three quarters of the pages the windows touch on this layout: its range is "        \
   "likely under-predicted by more than the sampling error (its pages' other masters reread them); "         \
   "sample a larger share of the masters"
/* ... on a layout of documents traced over every master (w->imputed): most of its pages' masters on their
 * donors' times (2,000 bills, F = 0.1, seeing 0.70: -7% to +27% of the unsampled figure, beyond the error) */
#define LAB_PREDICT_WL_DONOR_WARNING                                                                         \
   "the sample saw under three quarters of the pages the windows touch on this layout: most of their "       \
   "masters were traced on the times of sampled masters near them in key order, and its range can be off "   \
   "by more than the sampling error either way; sample a larger share of the masters"
/* The sampled range's jackknife groups: SAMPLE_GROUPS (predict_private.h), the load's. */
#define LAB_PREDICT_WL_GROUPS 4
/* With --sample, a master outside the sample takes the times of one of this many sampled masters nearest
 * in key order (lab_scan_predict_wl_donors): at least a folded page's masters (4-5), so that a page's get
 * distinct ones, and no more, so that they stay near. */
#define LAB_PREDICT_WL_DONORS 5
/* ... none within this many keys of the master: a donor on its own page (or the next) would put two of the
 * page's documents in one run of the same times, a page read once where the whole reads it twice */
#define LAB_PREDICT_WL_DONOR_GAP 16

/* The census of a sampled range trace, per class of page ([0] data, [1] index; predict_wl.c's pages_seen):
 * the distinct pages it touched and the whole's estimated (Horvitz-Thompson); its accesses and its runs
 * (a window's consecutive accesses to a page: a run's first access is the one a cache can miss); the
 * whole's visits of a page (a window's accesses to it) estimated the same way; and the share of the
 * sample's visits of two accesses or more that are one run (a page of consecutive times, which a window
 * reads in one run: the detail's, the time index's; a page in key order is read one master at a time). */
typedef struct {
   double rate; /* the sample's share of the masters */
   double seen[2], est[2];
   double acc[2], runs[2], visits[2];
   double one_run[2];
} lab_scan_predict_wl_census_t;

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
   /* --sample (predict_wl_sample.c): the traces hold the sampled masters' rows only */
   double rate;                     /* the sample's share F (1: every row, exact) */
   double index_cache;              /* an index page's footprint in the cache */
   double u_sample;                 /* the sample's hash bound: masters with u < it */
   const double *u;                 /* each master's hash place (the probe's) */
   int64_t docs_by_key, docs_drawn; /* documents the time reads fetched: by key, the draw's */
   const char *range_how;           /* what the time reads read */
   lab_scan_predict_wl_census_t census[LAB_PREDICT_WL_LAYOUTS]; /* each slot's sampled trace's */
   int ngroups;                                                 /* the jackknife's groups (0: exact) */
   lab_scan_stackdist_t *gsd[LAB_PREDICT_WL_GROUPS][LAB_PREDICT_WL_LAYOUTS];
   lab_scan_predict_wl_census_t gcensus[LAB_PREDICT_WL_GROUPS][LAB_PREDICT_WL_LAYOUTS];
   double grate[LAB_PREDICT_WL_GROUPS];
   /* a layout of documents with --sample: its traces (sd, ev, gsd) run over every master, those outside
    * the sample (or the group) on their donor's times (lab_scan_predict_wl_donors): figured as the exact */
   bool imputed[LAB_PREDICT_WL_LAYOUTS];
} lab_scan_predict_wl_t;

/* lab_scan_predict_wl_probe -- with range in o->wl.set: the rows' times and the windows drawn from the
 * loaded masters (load[0..nload): indexes into p->keys, as scancmp's keys), the time index's size;
 * read-only. Exact (no --sample, the embedded store): every row's time from one pass of o->detail's natural
 * order. With --sample (either store): the sampled masters' rows read by the key, the windows' drawn rows of
 * the other masters by their RecordId (lab_scan_predict_wl_read_sampled). On a server without --sample
 * range is not predicted (w->range_why says why). A row without a date in the time field never falls in a
 * window. */
bool lab_scan_predict_wl_probe (lab_store_t *store, const lab_scan_opts_t *o, const probe_t *p,
                                const int64_t *load, int64_t nload, lab_scan_predict_wl_t *w,
                                bson_error_t *error);

/* Where the window draw gets a drawn master's rows: their number (rows) and the time of its row `pick` in
 * RecordId order (time; INT64_MIN: not a date). */
typedef struct {
   bool (*rows) (void *ctx, int64_t k, size_t *n, bson_error_t *error);
   bool (*time) (void *ctx, int64_t k, size_t pick, int64_t *t, bson_error_t *error);
   void *ctx;
} lab_scan_predict_wl_rows_t;

/* lab_scan_predict_wl_draw -- the range windows as lab_scan_wl_inputs_draw draws them, into w->win_lo: from
 * o->wl.seed, a master of load[0..nload), then one of its rows by reservoir sampling (a draw per row: the
 * master's row count is needed, the time of the row picked only), the window centred on its time. */
bool lab_scan_predict_wl_draw (const lab_scan_opts_t *o, const int64_t *load, int64_t nload,
                               const lab_scan_predict_wl_rows_t *src, lab_scan_predict_wl_t *w,
                               bson_error_t *error);

/* lab_scan_predict_wl_read_sampled -- (predict_wl_sample.c) with --sample: each sampled master's rows'
 * times in RecordId order into w->times (embedded: its documents by the key index, IXSCAN+FETCH; a server:
 * lab_scan_predict_wl_server_find), then the windows drawn, a drawn master outside the sample counted by
 * its key index entries and its drawn row fetched alone (embedded: by its RecordId; a server: its rows'
 * times by the key); the documents read into w->docs_by_key, w->docs_drawn and w->docs_read. Read-only. */
bool lab_scan_predict_wl_read_sampled (lab_store_session_t *sess, lab_store_t *store,
                                       const lab_scan_opts_t *o, const probe_t *p, const int64_t *load,
                                       int64_t nload, lab_scan_predict_wl_t *w, bson_error_t *error);

/* lab_scan_predict_wl_server_find -- the find a server answers for one master's rows' times (pure):
 * `filter` {key: {$eq: v}}, `opts` {projection: {_id: 0, time: 1}, showRecordId: true, hint: {key: 1}}:
 * the key index walked, each row fetched once, its time alone returned with its RecordId. Both
 * initialized here (caller destroys). */
void lab_scan_predict_wl_server_find (const lab_scan_opts_t *o, const bson_value_t *key, bson_t *filter,
                                      bson_t *opts);

/* lab_scan_predict_wl_seen_chance -- (predict_wl_sample.c) the chance 1 - (1 - rate)^n that a sample of
 * the masters at `rate` holds one of n masters. */
double lab_scan_predict_wl_seen_chance (double rate, double n);

/* lab_scan_predict_wl_sampled_reads -- (predict_wl_sample.c) a sample's range reads (*bytes, *misses) of
 * slot s at `cache`, from its trace `sd` (`ev`: its accesses for the eviction miniature, may be NULL: LRU)
 * and its census `cs`: the sample's trace run at the cache scaled by its share of the whole's page bytes
 * (SHARDS' scaled-down cache, Waldspurger et al., FAST 2015, for pages sampled through the masters that
 * touch them), then per class the whole's distinct pages plus the share of the sample's later runs that
 * miss applied to the whole's: a visit that is one run in the sample is one in the whole (a detail page,
 * rows of many masters in time order: its cache and misses are about the sample's own), any other access
 * its own run, the sample's / rate (a folded page's document: each miss stands for 1 / rate). Returns the
 * engine's name (LAB_PREDICT_MODEL_*). */
const char *lab_scan_predict_wl_sampled_reads (lab_scan_stackdist_t *sd, lab_scan_evictsim_trace_t *ev,
                                               const lab_scan_predict_wl_census_t *cs,
                                               const lab_scan_predict_wl_t *w, int s, const layouts_t *l,
                                               uint64_t cache, double *bytes, double *misses);

/* lab_scan_predict_wl_sampling_error -- (predict_wl_sample.c) the sampling error of slot s's sampled range
 * bytes `b` at `cache` (its LRU's `lru`): the delete-a-group jackknife's, as the load's (predict_record.c):
 * sqrt((G - 1) / G x the sum of the squared deviations of the estimates made without one group each); the
 * groups run the LRU, their spread carried to the miniature's figure in proportion. */
double lab_scan_predict_wl_sampling_error (const lab_scan_predict_wl_t *w, int s, const layouts_t *l,
                                           uint64_t cache, double b, double lru);

/* lab_scan_predict_wl_donors -- (predict_wl_impute.c) each master's donor for a trace of every master:
 * itself where in[k] (traced), else one of the LAB_PREDICT_WL_DONORS traced masters nearest k in key order
 * (index order), the (k mod that count)-th: consecutive masters get different ones; -1 when none is traced.
 */
void lab_scan_predict_wl_donors (const bool *in, int64_t nkeys, int64_t *donor);

/* lab_scan_predict_wl_build -- the layouts (detail and folded from the load's model `tr`, `l`; the
 * candidates of `c`, may be NULL) and their range traces: a layout of rows in key order (sorted, clustered)
 * has its rows renumbered so, one of documents (folded, buckets, zstd) its documents packed in key order. */
void lab_scan_predict_wl_build (const lab_scan_opts_t *o, const probe_t *p, const traces_t *tr,
                                const layouts_t *l, const lab_scan_predict_cands_t *c,
                                lab_scan_predict_wl_t *w);

/* lab_scan_predict_wl_point -- "workload_reads" of one sweep point (docs/results-schema.md). */
void lab_scan_predict_wl_point (bson_t *point, const lab_scan_predict_wl_t *w, const layouts_t *l,
                                uint64_t cache);

/* lab_scan_predict_wl_render -- (predict_wl_render.c) the terminal lines of a predicted file's
 * "workload_reads" appended to `s` (nothing without them). */
void lab_scan_predict_wl_render (const bson_t *results, bson_string_t *s);

/* lab_scan_predict_wl_cleanup -- free it; safe on a zeroed one. */
void lab_scan_predict_wl_cleanup (lab_scan_predict_wl_t *w, int64_t nkeys);

#endif
