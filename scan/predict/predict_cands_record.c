/*
 * predict_cands_record.c -- the candidates' and the other workloads' part of a predicted results file
 * (predict_cands.h): "predicted_candidates" (each candidate's descriptor and model figures, its curve in
 * every sweep point's "candidates"), "predicted_workloads" (an append's journal bytes per write, a row
 * read's pages and bytes, per layout) and their terminal view.
 */
#include "scan/predict/predict_cands.h"

#include "core/results.h"

#include <math.h>
#include <string.h>

/* The journal: WiredTiger's log records are written in 128-byte units; a record's header and a commit's,
 * and what each operation adds beyond its key and value (its type, file id, lengths). */
#define JOURNAL_UNIT 128.0
#define JOURNAL_RECORD_BYTES 24.0
#define JOURNAL_OP_BYTES 12.0
/* An index entry: the key's KeyString and the RecordId; a RecordId as a record's key. */
#define INDEX_ENTRY_BYTES 18.0
#define RECORD_ID_BYTES 4.0

/* journal_of -- the journal bytes of one commit holding `value` bytes (compressed at `compress` when the
 * record is large enough for the log compressor to pay) and `entries` index entries. */
static double
journal_of (double value, double key, double entries, double compress)
{
   double rec = JOURNAL_RECORD_BYTES + JOURNAL_OP_BYTES + key + value +
                entries * (JOURNAL_OP_BYTES + INDEX_ENTRY_BYTES);
   if (compress > 0 && compress < 1 && rec > 4 * JOURNAL_UNIT) {
      /* a large record goes through the log compressor (snappy, as the collection's pages) */
      rec = JOURNAL_RECORD_BYTES + rec * compress;
   }
   return ceil (rec / JOURNAL_UNIT) * JOURNAL_UNIT;
}

/* One layout's figures for the workloads. */
typedef struct {
   const char *name;
   bool rows;                      /* one document per row */
   double doc_bytes;               /* the document an append writes (a row, the master's last document) */
   double index_entries;           /* index entries an append adds */
   double key_bytes;               /* the record's key */
   double compress;                /* on disk per byte */
   double data_disk;               /* a data page miss */
   double index_disk;              /* an index page miss (0: no index walked) */
   double data_pages, index_pages; /* the data pages and the key index's leaf pages */
} wl_layout_t;

/* distinct_pages -- the pages of `pages` that `reads` reads of uniformly random ones touch: each read once
 * into a cache that keeps them. */
static double
distinct_pages (double pages, double reads)
{
   return pages >= 1 && reads > 0 ? pages * (1 - pow (1 - 1 / pages, reads)) : 0;
}

/* append_layout -- one layout's "append" and "row" figures into `d` (`reads` row reads). */
static void
append_layout (bson_t *d, const wl_layout_t *w, double reads)
{
   double idx = w->index_disk > 0 ? distinct_pages (w->index_pages, reads) * w->index_disk : 0;
   bson_t e;

   bson_append_document_begin (d, w->name, -1, &e);
   BSON_APPEND_DOUBLE (&e, "append_doc_bytes_written", w->doc_bytes);
   BSON_APPEND_DOUBLE (&e, "append_journal_bytes_per_write",
                       journal_of (w->doc_bytes, w->key_bytes, w->index_entries, w->compress));
   /* a row read cold: the key index's leaf page (a clustered collection: none) and the page of the
    * document holding the row (the tree's internal pages aside) */
   BSON_APPEND_DOUBLE (&e, "row_pages_per_read", w->index_disk > 0 ? 2 : 1);
   BSON_APPEND_DOUBLE (&e, "row_read_bytes_cold", w->index_disk + w->data_disk);
   /* `reads` random rows: a page read once stays (the cache holding what they touch), so each read
    * costs the distinct pages over the reads */
   BSON_APPEND_DOUBLE (&e, "data_pages", w->data_pages);
   BSON_APPEND_DOUBLE (&e, "index_pages", w->index_disk > 0 ? w->index_pages : 0);
   BSON_APPEND_DOUBLE (&e, "data_page_disk_bytes", w->data_disk);
   BSON_APPEND_DOUBLE (&e, "index_page_disk_bytes", w->index_disk);
   BSON_APPEND_DOUBLE (&e, "row_read_bytes_per_query",
                       reads > 0 ? (distinct_pages (w->data_pages, reads) * w->data_disk + idx) / reads : 0);
   bson_append_document_end (d, &e);
}

/* record_workloads -- "predicted_workloads": per layout an append's bytes (a row for a rows layout; the
 * master's document rewritten whole for a fold, its last bucket for buckets: a master of the mean rows)
 * and a cold row read's pages and bytes. */
static void
record_workloads (bson_t *results, const lab_scan_predict_cands_t *c, const probe_t *p, const traces_t *tr,
                  const layouts_t *l)
{
   double mean = p->nkeys > 0 ? p->entries_est / (double)p->nkeys : 0;
   double fold_c = l->data_bytes[1] > 0 ? l->storage[1] / l->data_bytes[1] : 0;
   wl_layout_t w;
   bson_t d, ls;
   size_t i;

   BSON_APPEND_DOCUMENT_BEGIN (results, "predicted_workloads", &d);
   BSON_APPEND_UTF8 (&d, "append_method",
                     "one row appended to a master of the mean rows: a rows layout inserts the row (its "
                     "index entries beside it), a fold rewrites the master's document whole (its last "
                     "bucket for buckets); journal = the commit's log record, compressed when large, in "
                     "128-byte units");
   BSON_APPEND_UTF8 (
      &d, "row_method",
      "a row read by key and line reads the key index's leaf page and the data page of the "
      "document holding it: cold, each a miss of its bytes on disk (row_read_bytes_cold); over "
      "row_reads random rows, the distinct pages they touch, pages(1 - (1 - 1/pages)^reads), "
      "per read (row_read_bytes_per_query)");
   BSON_APPEND_INT64 (&d, "row_reads", (int64_t)c->row_reads);
   BSON_APPEND_DOCUMENT_BEGIN (&d, "layouts", &ls);
   w = (wl_layout_t){ LAB_RESULTS_DETAIL,
                      true,
                      p->st.avg_obj_size_bytes,
                      (double)p->st.nindexes,
                      RECORD_ID_BYTES,
                      0,
                      l->data_disk[0],
                      l->index_disk,
                      l->pages[0][LAB_PREDICT_DATA],
                      l->pages[0][LAB_PREDICT_INDEX] };
   append_layout (&ls, &w, c->row_reads);
   w = (wl_layout_t){ LAB_RESULTS_FOLDED,
                      false,
                      tr->in.folded_master_bytes + (mean + 1) * tr->in.folded_row_bytes,
                      0,
                      RECORD_ID_BYTES,
                      fold_c,
                      l->data_disk[1],
                      l->index_disk,
                      l->pages[1][LAB_PREDICT_DATA],
                      l->pages[1][LAB_PREDICT_INDEX] };
   append_layout (&ls, &w, c->row_reads);
   for (i = 0; i < c->n; i++) {
      const lab_scan_predict_cand_t *k = &c->c[i];
      w = (wl_layout_t){ k->desc.name,
                         lab_layout_reads_rows (&k->desc),
                         k->doc_bytes,
                         0,
                         RECORD_ID_BYTES,
                         fold_c,
                         k->l.data_disk[0],
                         k->l.index_disk,
                         k->l.pages[0][LAB_PREDICT_DATA],
                         k->l.pages[0][LAB_PREDICT_INDEX] };
      if (w.rows) {
         /* a row's insert: the _id index's entry and the key index's (a clustered _id is the record's key) */
         w.index_entries = lab_layout_read_by_id_range (&k->desc) ? 0 : (double)p->st.nindexes;
         w.key_bytes = lab_layout_read_by_id_range (&k->desc) ? INDEX_ENTRY_BYTES + 12 : RECORD_ID_BYTES;
         w.compress = 0;
      } else if (lab_layout_bucketed (&k->desc)) {
         /* the last bucket of a master: half full on average, at most the master's rows */
         double rows = fmin (mean, k->desc.bucket_rows / 2.0) + 1;
         w.doc_bytes = tr->in.folded_master_bytes + rows * tr->in.folded_row_bytes;
      } else {
         w.doc_bytes = tr->in.folded_master_bytes + (mean + 1) * tr->in.folded_row_bytes;
      }
      append_layout (&ls, &w, c->row_reads);
   }
   bson_append_document_end (&d, &ls);
   bson_append_document_end (results, &d);
}

/* lab_scan_predict_cands_record -- see predict_cands.h. */
void
lab_scan_predict_cands_record (bson_t *results, const lab_scan_predict_cands_t *c, const probe_t *p,
                               const traces_t *tr, const layouts_t *l)
{
   bson_t arr, e;
   size_t i;

   BSON_APPEND_ARRAY_BEGIN (results, "predicted_candidates", &arr);
   for (i = 0; i < c->n; i++) {
      const lab_scan_predict_cand_t *k = &c->c[i];
      char idx[16];
      const char *ik;
      bson_uint32_to_string ((uint32_t)i, &ik, idx, sizeof idx);
      BSON_APPEND_DOCUMENT_BEGIN (&arr, ik, &e);
      BSON_APPEND_UTF8 (&e, "name", k->desc.name);
      lab_layout_append (&e, "layout", &k->desc);
      BSON_APPEND_DOUBLE (&e, "documents", k->docs);
      BSON_APPEND_DOUBLE (&e, "data_size_bytes", k->l.data_bytes[0]);
      BSON_APPEND_DOUBLE (&e, "storage_size_bytes", k->l.storage[0]);
      BSON_APPEND_DOUBLE (&e, "index_size_bytes", k->l.index[0]);
      BSON_APPEND_DOUBLE (&e, "on_disk_bytes", k->l.on_disk[0]);
      BSON_APPEND_DOUBLE (&e, "data_pages", k->l.pages[0][LAB_PREDICT_DATA]);
      BSON_APPEND_DOUBLE (&e, "data_page_disk_bytes", k->l.data_disk[0]);
      BSON_APPEND_DOUBLE (&e, "data_page_cache_bytes", k->page_cache_bytes);
      BSON_APPEND_DOUBLE (&e, "disk_per_byte", k->disk_per_byte);
      BSON_APPEND_UTF8 (&e, "disk_per_byte_source", k->source);
      if (k->rows_per_page > 0) {
         BSON_APPEND_DOUBLE (&e, "rows_per_page", k->rows_per_page);
      }
      bson_append_document_end (&arr, &e);
   }
   bson_append_array_end (results, &arr);
   record_workloads (results, c, p, tr, l);
}

/* lab_scan_predict_cands_table -- see predict_cands.h. */
char *
lab_scan_predict_cands_table (const bson_t *results)
{
   bson_string_t *s = bson_string_new (NULL);
   size_t n = lab_results_sweep_n (results), i, k;
   bson_iter_t it, arr;
   const char *names[LAB_PREDICT_CANDS + 2] = { LAB_RESULTS_DETAIL, LAB_RESULTS_FOLDED };
   size_t nn = 2;
   char path[160];
   double v;

   if (bson_iter_init_find (&it, results, "predicted_candidates") && BSON_ITER_HOLDS_ARRAY (&it) &&
       bson_iter_recurse (&it, &arr)) {
      while (bson_iter_next (&arr) && nn < LAB_PREDICT_CANDS + 2) {
         bson_iter_t f;
         if (BSON_ITER_HOLDS_DOCUMENT (&arr) && bson_iter_recurse (&arr, &f) && bson_iter_find (&f, "name") &&
             BSON_ITER_HOLDS_UTF8 (&f)) {
            names[nn++] = bson_iter_utf8 (&f, NULL);
         }
      }
   }
   if (nn == 2) {
      return bson_string_free (s, false);
   }
   bson_string_append (s, "\nEvery candidate, predicted: MiB read from disk (read amplification)\n");
   bson_string_append_printf (s, "%10s", "cache MiB");
   for (k = 0; k < nn; k++) {
      bson_string_append_printf (s, " %18s", names[k]);
   }
   bson_string_append (s, "\n");
   for (i = 0; i < n; i++) {
      snprintf (path, sizeof path, "sweep.%zu.cache_size_bytes", i);
      lab_results_get_number (results, path, &v);
      bson_string_append_printf (s, "%10.1f", v / 1048576.0);
      for (k = 0; k < nn; k++) {
         double b = -1, a = -1;
         char cell[40];
         if (k < 2) {
            snprintf (path, sizeof path, "sweep.%zu.summary.%s.block_read_bytes.median", i, names[k]);
            lab_results_get_number (results, path, &b);
            snprintf (path, sizeof path, "sweep.%zu.%s.read_amplification", i, names[k]);
         } else {
            snprintf (path, sizeof path, "sweep.%zu.candidates.%s.block_read_bytes", i, names[k]);
            lab_results_get_number (results, path, &b);
            snprintf (path, sizeof path, "sweep.%zu.candidates.%s.read_amplification", i, names[k]);
         }
         lab_results_get_number (results, path, &a);
         snprintf (cell, sizeof cell, "%.1f (%.2f)", b / 1048576.0, a);
         bson_string_append_printf (s, " %18s", b >= 0 ? cell : "n/a");
      }
      bson_string_append (s, "\n");
   }
   v = 0;
   lab_results_get_number (results, "predicted_workloads.row_reads", &v);
   bson_string_append_printf (
      s,
      "Other workloads, predicted per layout: an append's journal bytes per write (one "
      "row to a master of the mean rows); a row read's pages and KiB cold, and per read "
      "over %.0f random rows (--row-keys)\n",
      v);
   for (k = 0; k < nn; k++) {
      double j = 0, pg = 0, rb = 0, rq = 0;
      snprintf (path, sizeof path, "predicted_workloads.layouts.%s.append_journal_bytes_per_write", names[k]);
      lab_results_get_number (results, path, &j);
      snprintf (path, sizeof path, "predicted_workloads.layouts.%s.row_pages_per_read", names[k]);
      lab_results_get_number (results, path, &pg);
      snprintf (path, sizeof path, "predicted_workloads.layouts.%s.row_read_bytes_cold", names[k]);
      lab_results_get_number (results, path, &rb);
      snprintf (path, sizeof path, "predicted_workloads.layouts.%s.row_read_bytes_per_query", names[k]);
      lab_results_get_number (results, path, &rq);
      bson_string_append_printf (
         s, "  %-12s append %8.0f B/write   row read %.0f pages, %.1f KiB cold, %.1f KiB per read\n",
         names[k], j, pg, rb / 1024.0, rq / 1024.0);
   }
   return bson_string_free (s, false);
}
