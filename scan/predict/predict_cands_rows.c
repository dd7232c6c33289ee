/*
 * predict_cands_rows.c -- the other workloads' figures per layout (predict_cands.h), made once from the
 * probe beside the candidates: the trees a row read walks (the index it reads through and the record
 * table, their internal pages), an append's journal, and the row workload's reads as an LRU trace that
 * each sweep point evaluates at its cache. predict_cands_record.c records them.
 */
#include "scan/predict/predict_cands.h"

#include "core/results.h"
#include "scan/hash.h"

#include <math.h>
#include <string.h>

/* A RecordId as a record's key (a packed int64) and in an index entry; a clustered _id's key in the journal
 * (its KeyString). */
#define RECORD_ID_BYTES 4.0
#define CLUSTERED_KEY_BYTES 30.0
/* The row reads a trace replays at most (more reads: the figure per read of the first ones): a trace's
 * memory is a few words per read. */
#define ROW_TRACE_READS 20000
/* The trace's classes: the record table's leaves and internal pages, the index's. */
enum { ROW_DATA, ROW_INDEX, ROW_DATA_INTERNAL, ROW_INDEX_INTERNAL };

/* keystring_int_bytes -- a positive integer below `max` in a KeyString: its type byte and its bytes. */
static double
keystring_int_bytes (double max)
{
   double b = 1;

   while (max >= 256 && b < 8) {
      max /= 256;
      b++;
   }
   return 1 + b;
}

/* separator_bytes -- an index's key on an internal page: reconciliation keeps of the first key of a page
 * only the prefix that sorts it after the previous page's last (__rec_split_row_promote), which is where
 * neighbouring keys differ, as prefix compression keeps of an entry on a leaf: the key index's bytes per
 * entry on disk (6.8 on 263,661 rows: its {key, line} index, 165 leaves, has one internal page as the
 * model's, and so has the clustered copy's, 760 leaves). */
static double
separator_bytes (const probe_t *p)
{
   return p->entries_est > 0 ? lab_scan_predict_key_index_bytes (p) / p->entries_est : RECORD_ID_BYTES;
}

/* row_index -- the index a rows layout's row read walks, {key, line}: the key index's leaves grown by
 * the line's KeyString in every entry (and a clustered collection's RecordId, its _id's KeyString, in
 * place of the int64 one: `rid_extra` bytes more), the key index's page bytes. */
static void
row_index (lab_scan_predict_tree_t *t, const probe_t *p, const layouts_t *l, double rid_extra)
{
   double entries = p->entries_est > 0 ? p->entries_est : 1;
   double e = lab_scan_predict_key_index_bytes (p) / entries, max_rows = 1;
   double line, grow;
   int64_t m;

   for (m = 0; m < p->nkeys; m++) {
      max_rows = fmax (max_rows, (double)p->nrids[m]);
   }
   line = keystring_int_bytes (max_rows + 1);
   grow = e > 0 ? (e + line + rid_extra) / e : 1;
   lab_scan_predict_tree_shape (t, ceil (l->pages[0][LAB_PREDICT_INDEX] * grow), l->index_disk,
                                separator_bytes (p), LAB_PREDICT_INDEX_INTERNAL_PAGE_MAX);
}

/* docs_journal -- the mean journal of an append to a layout of documents of `bucket_rows` rows (0: one
 * per master) compressed at `compress`. */
static double
docs_journal (const lab_scan_predict_cands_t *c, const probe_t *p, const traces_t *tr, double bucket_rows,
              double compress, double *doc_bytes)
{
   lab_scan_predict_append_t a = { tr->mini.nrids,
                                   p->nkeys,
                                   c->append_any,
                                   c->appends,
                                   bucket_rows,
                                   tr->in.folded_master_bytes,
                                   tr->in.folded_row_bytes,
                                   RECORD_ID_BYTES,
                                   compress };
   return lab_scan_predict_append_journal (&a, doc_bytes);
}

/* tree_access -- one read's walk of tree `t` (pages of class `leaf_cls`, its internal ones `int_cls`) to
 * leaf `leaf`: the levels under the root (read when the table opened, it stays) then the leaf. */
static void
tree_access (lab_scan_stackdist_t *sd, const lab_scan_predict_tree_t *t, uint64_t leaf, int leaf_cls,
             int int_cls, double leaf_cache)
{
   int k;

   for (k = t->levels - 2; k >= 0; k--) {
      /* the level's page over this leaf: its index among the level's pages, the leaves dealt in order */
      double per = t->leaves / t->level[k];
      uint64_t id = (uint64_t)floor ((double)leaf / per);
      /* an internal page in the cache: its children's references (about 100 bytes each: WT_REF) */
      lab_scan_stackdist_access (sd, ((uint64_t)(int_cls * 8 + k) << 48) | id, (uint64_t)(100 * per + 1024),
                                 int_cls, true);
   }
   lab_scan_stackdist_access (sd, ((uint64_t)leaf_cls << 56) | leaf,
                              (uint64_t)(leaf_cache > 0 ? leaf_cache : 1), leaf_cls, true);
}

/* row_trace -- the row workload's reads of layout `w` as an LRU trace: each read a random row, its index
 * entry's walk then its record's (uniformly random leaves: rows spread evenly over the pages). */
static void
row_trace (lab_scan_predict_wl_layout_t *w, double reads)
{
   uint64_t state = 0x726f772d72656164ull; /* "row-read" */
   double n = fmin (reads, ROW_TRACE_READS), r;

   w->rows = lab_scan_stackdist_new (1);
   w->trace_reads = n;
   for (r = 0; r < n; r++) {
      if (w->index.leaves > 0) {
         tree_access (w->rows, &w->index, lab_scan_rand64 (&state) % (uint64_t)w->index.leaves, ROW_INDEX,
                      ROW_INDEX_INTERNAL, w->index_cache);
      }
      tree_access (w->rows, &w->data, lab_scan_rand64 (&state) % (uint64_t)w->data.leaves, ROW_DATA,
                   ROW_DATA_INTERNAL, w->data_cache);
   }
}

/* lab_scan_predict_cands_wl_build -- see predict_cands.h. */
void
lab_scan_predict_cands_wl_build (lab_scan_predict_cands_t *c, const probe_t *p, const traces_t *tr,
                                 const layouts_t *l)
{
   /* the log compressor on one document alone (the sample fold's), else the folded pages' ratio */
   double fold_c = p->cf.fold_log_raw > 0 ? p->cf.fold_log_comp / p->cf.fold_log_raw
                   : l->data_bytes[1] > 0 ? l->storage[1] / l->data_bytes[1]
                                          : 0;
   double bkt_c = p->cf.bkt_log_raw > 0 ? p->cf.bkt_log_comp / p->cf.bkt_log_raw : fold_c;
   double row_j =
      lab_scan_predict_journal_bytes (p->st.avg_obj_size_bytes, RECORD_ID_BYTES, (double)p->st.nindexes, 0);
   lab_scan_predict_wl_layout_t *w;
   size_t i;

   w = &c->wl[c->nwl++];
   w->name = LAB_RESULTS_DETAIL;
   w->doc_bytes = p->st.avg_obj_size_bytes;
   w->journal = row_j;
   lab_scan_predict_tree_shape (&w->data, l->pages[0][LAB_PREDICT_DATA], l->data_disk[0], RECORD_ID_BYTES,
                                LAB_PREDICT_COLL_INTERNAL_PAGE_MAX);
   row_index (&w->index, p, l, 0);
   w->data_cache = tr->in.page_cache_bytes;
   w = &c->wl[c->nwl++];
   w->name = LAB_RESULTS_FOLDED;
   w->journal = docs_journal (c, p, tr, 0, fold_c, &w->doc_bytes);
   lab_scan_predict_tree_shape (&w->data, l->pages[1][LAB_PREDICT_DATA], l->data_disk[1], RECORD_ID_BYTES,
                                LAB_PREDICT_COLL_INTERNAL_PAGE_MAX);
   lab_scan_predict_tree_shape (&w->index, l->pages[1][LAB_PREDICT_INDEX], l->index_disk, separator_bytes (p),
                                LAB_PREDICT_INDEX_INTERNAL_PAGE_MAX);
   w->data_cache = tr->in.folded_page_cache_bytes;
   for (i = 0; i < c->n; i++) {
      const lab_scan_predict_cand_t *k = &c->c[i];
      double rid = RECORD_ID_BYTES;
      w = &c->wl[c->nwl++];
      w->name = k->desc.name;
      w->doc_bytes = k->doc_bytes;
      if (lab_layout_reads_rows (&k->desc)) {
         /* a row's insert: the _id index's entry and the key index's (a clustered _id is the record's key);
          * the row read walks {key, line}, whose entries end in the record's key */
         bool clus = lab_layout_read_by_id_range (&k->desc);
         double extra = p->cf.clus_row_extra > 0 ? p->cf.clus_row_extra : 26.0;
         /* a clustered RecordId is the _id's KeyString, about the _id's BSON: the ObjectId it holds and what
          * the clustered _id adds to a row */
         rid = clus ? 12 + extra : RECORD_ID_BYTES;
         w->journal = lab_scan_predict_journal_bytes (
            k->doc_bytes, clus ? CLUSTERED_KEY_BYTES : RECORD_ID_BYTES, clus ? 0 : (double)p->st.nindexes, 0);
         row_index (&w->index, p, l, rid - RECORD_ID_BYTES);
      } else {
         bool bkt = lab_layout_bucketed (&k->desc);
         w->journal =
            docs_journal (c, p, tr, bkt ? k->desc.bucket_rows : 0, bkt ? bkt_c : fold_c, &w->doc_bytes);
         lab_scan_predict_tree_shape (&w->index, k->l.pages[0][LAB_PREDICT_INDEX], k->l.index_disk,
                                      separator_bytes (p), LAB_PREDICT_INDEX_INTERNAL_PAGE_MAX);
      }
      lab_scan_predict_tree_shape (&w->data, k->l.pages[0][LAB_PREDICT_DATA], k->l.data_disk[0], rid,
                                   LAB_PREDICT_COLL_INTERNAL_PAGE_MAX);
      w->data_cache = k->page_cache_bytes;
   }
   for (i = 0; i < c->nwl; i++) {
      c->wl[i].index_cache = tr->in.index_page_cache_bytes;
      row_trace (&c->wl[i], c->row_reads);
   }
}

/* lab_scan_predict_cands_wl_point -- see predict_cands.h. */
void
lab_scan_predict_cands_wl_point (bson_t *point, const lab_scan_predict_cands_t *c, uint64_t cache)
{
   bson_t d;
   size_t i;

   if (c->nwl == 0) {
      return;
   }
   BSON_APPEND_DOCUMENT_BEGIN (point, "row_read_bytes_per_query", &d);
   for (i = 0; i < c->nwl; i++) {
      const lab_scan_predict_wl_layout_t *w = &c->wl[i];
      /* the pages fill the cache to the model's fill, as in the load */
      uint64_t cap = (uint64_t)((double)cache * (c->fill > 0 ? c->fill : 1));
      double b = lab_scan_stackdist_misses (w->rows, ROW_DATA, cap) * w->data.leaf_disk +
                 lab_scan_stackdist_misses (w->rows, ROW_INDEX, cap) * w->index.leaf_disk +
                 lab_scan_stackdist_misses (w->rows, ROW_DATA_INTERNAL, cap) * w->data.level_disk[0] +
                 lab_scan_stackdist_misses (w->rows, ROW_INDEX_INTERNAL, cap) * w->index.level_disk[0];
      BSON_APPEND_DOUBLE (&d, w->name, w->trace_reads > 0 ? b / w->trace_reads : 0);
   }
   bson_append_document_end (point, &d);
}
