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

typedef struct {
   size_t n;
   lab_scan_predict_cand_t c[LAB_PREDICT_CANDS];
   double rate;      /* the sample's (1: every master) */
   double row_reads; /* the row workload's reads (--row-keys) */
} lab_scan_predict_cands_t;

/* lab_scan_predict_cands_build -- the candidates (sorted, clustered, buckets of o's --bucket-rows, folded
 * with zstd) predicted from the probe `p` and the detail and folded model `tr`, `l`. */
void lab_scan_predict_cands_build (const lab_scan_opts_t *o, const probe_t *p, const traces_t *tr,
                                   const layouts_t *l, lab_scan_predict_cands_t *c);

/* lab_scan_predict_cands_cleanup -- free what build made; safe on a zeroed one. */
void lab_scan_predict_cands_cleanup (lab_scan_predict_cands_t *c);

/* lab_scan_predict_cands_point -- "candidates" of one sweep point: per candidate the engine bytes read and
 * page reads of its load at `cache`, and its read amplification. */
void lab_scan_predict_cands_point (bson_t *point, const lab_scan_predict_cands_t *c, uint64_t cache);

/* lab_scan_predict_cands_record -- "predicted_candidates": each candidate's descriptor and model figures;
 * "predicted_workloads": the other workloads' figures per layout (docs/results-schema.md). */
void lab_scan_predict_cands_record (bson_t *results, const lab_scan_predict_cands_t *c, const probe_t *p,
                                    const traces_t *tr, const layouts_t *l);

/* lab_scan_predict_cands_table -- the terminal view of a predicted file's candidates and workloads (empty
 * when it has none). Caller bson_free()s. */
char *lab_scan_predict_cands_table (const bson_t *results);

#endif
