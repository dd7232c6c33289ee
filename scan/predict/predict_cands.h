/*
 * predict_cands.h -- the prediction of the other candidates from the same probe (predict.h's model),
 * beside detail and folded: the sorted copy (the detail trace with the rows renumbered in key order, into
 * pages as full on disk as the detail's), the clustered collection (the same, its rows a little larger by
 * their _id {<key>, id}, and no key index to walk: a master is an _id range of the record table), buckets
 * of --bucket-rows rows (several documents per master packed in key order, one index entry each) and the
 * folded layout with zstd blocks; each candidate's bytes on disk from the sample fold's masters packed as
 * it would hold them (predict_fold.c). Each is a lab_layout_t descriptor and the model asks it the
 * descriptor's questions (core/layout.h), never its name. And per layout the other workloads' figures the
 * same model gives: an append's bytes written per row, the pages a row read and a range read touch.
 *
 * The traces are pure and unit-tested on hand-made layouts (tests/scan/test_predict.c).
 */
#ifndef LAB_PREDICT_CANDS_H
#define LAB_PREDICT_CANDS_H

#include "core/layout.h"
#include "scan/predict/predict_private.h"

#define LAB_PREDICT_CANDS 4

/* lab_scan_predict_trace_key_order -- the load of the rows written in key order: master m's row j is
 * record first[m] + j (first[m] the rows of the masters before it), in->rows_per_page to a page of
 * in->page_cache_bytes; with key_index each row's key index entry first (as the detail trace), without it
 * (a clustered collection) the data pages alone. Caller destroys. */
lab_scan_stackdist_t *lab_scan_predict_trace_key_order (const lab_scan_predict_input_t *in, bool key_index);

/* lab_scan_predict_trace_buckets -- the load of documents of at most bucket_rows rows per master (0: one
 * per master, the folded trace), each in->folded_master_bytes + its rows x in->folded_row_bytes, packed in
 * key order into pages of in->folded_page_bytes (a document that does not fit starts the next page); each
 * document an index entry then its page, the workers one document each in turn. *pages (may be NULL) the
 * pages packed, *docs (may be NULL) the documents. Caller destroys. */
lab_scan_stackdist_t *lab_scan_predict_trace_buckets (const lab_scan_predict_input_t *in, int32_t bucket_rows,
                                                      int64_t *pages, int64_t *docs);

/* One predicted candidate. */
typedef struct {
   lab_layout_t desc;
   lab_scan_stackdist_t *sd;
   layouts_t l;             /* slot 0 its figures: pages, bytes per miss, sizes on disk */
   double rows_per_page;    /* rows a page holds (key-ordered rows) */
   double page_bytes;       /* its records' bytes per page */
   double compress_ratio;   /* documents: its blocks' compressed bytes per image byte (its sample pack) */
   double page_cache_bytes; /* a page's footprint in the cache */
   double disk_per_byte;    /* on disk per byte of records (its sample pack) */
   double docs;             /* documents of the whole collection */
   double doc_bytes;        /* its mean document */
   const char *source;      /* where disk_per_byte comes from */
} lab_scan_predict_cand_t;

typedef struct lab_scan_predict_wl_layout lab_scan_predict_wl_layout_t;

typedef struct {
   size_t n;
   lab_scan_predict_cand_t c[LAB_PREDICT_CANDS];
   double rate;      /* the sample's (1: every master) */
   double row_reads; /* the row workload's reads (--row-keys) */
   double appends;   /* the append workload's rows (--append-rows) */
   bool append_any;  /* --append-to random (else the last tenth of the keys) */
   double fill;      /* the share of a cache pages fill (layouts_t's) */
   size_t nwl;       /* the other workloads' figures: detail, folded, then each candidate */
   lab_scan_predict_wl_layout_t *wl;
} lab_scan_predict_cands_t;

/* lab_scan_predict_cands_build -- the candidates (sorted, clustered, buckets of o's --bucket-rows, folded
 * with zstd) predicted from the probe `p` and the detail and folded model `tr`, `l`. */
void lab_scan_predict_cands_build (const lab_scan_opts_t *o, const probe_t *p, const traces_t *tr,
                                   const layouts_t *l, lab_scan_predict_cands_t *c);

/* lab_scan_predict_cands_cleanup -- free what build made; safe on a zeroed one. */
void lab_scan_predict_cands_cleanup (lab_scan_predict_cands_t *c);

/* lab_scan_predict_cands_point -- "candidates" of one sweep point: per candidate the engine bytes read and
 * page reads of its load at `cache`, and its read amplification; and every layout's row reads at `cache`
 * (lab_scan_predict_cands_wl_point). */
void lab_scan_predict_cands_point (bson_t *point, const lab_scan_predict_cands_t *c, uint64_t cache);

/* lab_scan_predict_cands_record -- "predicted_candidates": each candidate's descriptor and model figures;
 * "predicted_workloads": the other workloads' figures per layout (docs/results-schema.md). */
void lab_scan_predict_cands_record (bson_t *results, const lab_scan_predict_cands_t *c, const probe_t *p,
                                    const traces_t *tr, const layouts_t *l);

/* lab_scan_predict_cands_table -- the terminal view of a predicted file's candidates and workloads (empty
 * when it has none). Caller bson_free()s. */
char *lab_scan_predict_cands_table (const bson_t *results);

/* ---- the other workloads' model (predict_cands_wl.c) ---------------------------------------------- */

#define LAB_PREDICT_TREE_LEVELS 8
/* WiredTiger's internal_page_max of the tables mongod makes: a collection's is WiredTiger's default (4 KiB,
 * mongod's collection configuration does not set it), an index's 16 KiB (store/wt_private.h). */
#define LAB_PREDICT_COLL_INTERNAL_PAGE_MAX 4096.0
#define LAB_PREDICT_INDEX_INTERNAL_PAGE_MAX 16384.0

/* One B-tree as a row read walks it: its leaves and the internal levels above them. */
typedef struct {
   double leaves, leaf_disk;                   /* leaf pages, bytes of one on disk */
   double fanout;                              /* children per internal page */
   int levels;                                 /* internal levels (the root's included: at least 1) */
   double level[LAB_PREDICT_TREE_LEVELS];      /* pages per level, [0] just above the leaves */
   double level_disk[LAB_PREDICT_TREE_LEVELS]; /* bytes of one of its pages on disk */
   double internal;                            /* internal pages in all */
} lab_scan_predict_tree_t;

/* lab_scan_predict_tree_shape -- the internal pages over `leaves` leaf pages of `leaf_disk` bytes whose
 * separator keys are `key_bytes` long, in internal pages of at most `internal_page_max`: the fan-out is
 * what fits in split_pct of the page, a cell per child (the key and the child's address cookie). */
void lab_scan_predict_tree_shape (lab_scan_predict_tree_t *t, double leaves, double leaf_disk,
                                  double key_bytes, double internal_page_max);

/* lab_scan_predict_tree_read -- the bytes a read of one random leaf reads cold (*cold: the path from
 * below the root to the leaf; the root is read when the table is opened) and `reads` of them into a cache
 * that keeps what they read (*over_reads: the distinct pages of each level, pages(1 - (1 - 1/pages)^reads));
 * *internal_over_reads (may be NULL) the internal pages' share of it. */
void lab_scan_predict_tree_read (const lab_scan_predict_tree_t *t, double reads, double *cold,
                                 double *over_reads, double *internal_over_reads);

/* The appends to a layout of many rows per document (the fold, buckets). */
typedef struct {
   const size_t *nrids; /* [nkeys] each master's rows, the keys ascending */
   int64_t nkeys;
   bool random;        /* --append-to random: any master; else the last tenth of the keys (open) */
   double appends;     /* --append-rows */
   double bucket_rows; /* rows per document (0: one document per master) */
   double master_bytes, row_bytes; /* a document: master_bytes + its rows x row_bytes */
   double key_bytes;               /* the record's key */
   double compress;                /* the log compressor's bytes per byte (0: none) */
} lab_scan_predict_append_t;

/* lab_scan_predict_journal_bytes -- the journal bytes of one commit holding a `value` bytes record under a
 * `key` bytes key and `entries` index entries, compressed at `compress` (0: not) as the log compressor
 * does when that saves a unit: WiredTiger's log records in 128-byte units. */
double lab_scan_predict_journal_bytes (double value, double key, double entries, double compress);

/* lab_scan_predict_append_journal -- the mean journal bytes per append as the workload writes them: each
 * master of the drawn span gets its share of the appends, one at a time, each rewriting its last document
 * whole; in buckets a row past the last one's bucket_rows starts a new document and rewrites the master's
 * earlier ones (their parts count). *doc_bytes (may be NULL) the mean document written. */
double lab_scan_predict_append_journal (const lab_scan_predict_append_t *a, double *doc_bytes);

/* One layout's figures for the other workloads (lab_scan_predict_cands_wl_build). */
struct lab_scan_predict_wl_layout {
   const char *name;
   double doc_bytes;               /* the document an append writes (a row; a fold's: the mean rewritten) */
   double journal;                 /* an append's journal bytes */
   lab_scan_predict_tree_t data;   /* the record table */
   lab_scan_predict_tree_t index;  /* the index the row read walks (leaves 0: none) */
   double data_cache, index_cache; /* a leaf's footprint in the cache */
   lab_scan_stackdist_t *rows;     /* the row reads' trace */
   double trace_reads;             /* the reads it replays */
};

/* lab_scan_predict_cands_wl_build -- (predict_cands_rows.c) c->wl: per layout (detail, folded, then each
 * candidate of c) the trees a row read walks, an append's journal and the row reads' trace. */
void lab_scan_predict_cands_wl_build (lab_scan_predict_cands_t *c, const probe_t *p, const traces_t *tr,
                                      const layouts_t *l);

/* lab_scan_predict_cands_wl_point -- (predict_cands_rows.c) "row_read_bytes_per_query" of one sweep point:
 * per layout the engine bytes per row read of the row workload's reads through an LRU cache of `cache`
 * (filled to c->fill), cold at the start. */
void lab_scan_predict_cands_wl_point (bson_t *point, const lab_scan_predict_cands_t *c, uint64_t cache);

#endif
