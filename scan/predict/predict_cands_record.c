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

/* append_levels -- `key`: the internal levels of tree `t` a row read walks (those under the root, the
 * leaves' parents first), each {pages, page_disk_bytes}: a reader evaluates them at its own reads. */
static void
append_levels (bson_t *e, const char *key, const lab_scan_predict_tree_t *t)
{
   bson_t arr, lv;
   char idx[16];
   const char *ik;
   int k;

   bson_append_array_begin (e, key, -1, &arr);
   for (k = 0; k + 1 < t->levels; k++) {
      bson_uint32_to_string ((uint32_t)k, &ik, idx, sizeof idx);
      bson_append_document_begin (&arr, ik, -1, &lv);
      BSON_APPEND_DOUBLE (&lv, "pages", t->level[k]);
      BSON_APPEND_DOUBLE (&lv, "page_disk_bytes", t->level_disk[k]);
      bson_append_document_end (&arr, &lv);
   }
   bson_append_array_end (e, &arr);
}

/* append_layout -- one layout's "append" and "row" figures into `d` (`reads` row reads). */
static void
append_layout (bson_t *d, const lab_scan_predict_wl_layout_t *w, double reads)
{
   double dc = 0, dr = 0, di = 0, ic = 0, ir = 0, ii = 0;
   bson_t e;

   lab_scan_predict_tree_read (&w->data, reads, &dc, &dr, &di);
   if (w->index.leaves > 0) {
      lab_scan_predict_tree_read (&w->index, reads, &ic, &ir, &ii);
   }
   bson_append_document_begin (d, w->name, -1, &e);
   BSON_APPEND_DOUBLE (&e, "append_doc_bytes_written", w->doc_bytes);
   BSON_APPEND_DOUBLE (&e, "append_journal_bytes_per_write", w->journal);
   /* a row read cold: below the root to the leaf in the index it walks, then in the record table (a
    * tree's levels: its internal ones, the root's in place of the leaf's) */
   BSON_APPEND_DOUBLE (&e, "row_pages_per_read",
                       w->data.levels + (w->index.leaves > 0 ? w->index.levels : 0));
   BSON_APPEND_DOUBLE (&e, "row_read_bytes_cold", dc + ic);
   BSON_APPEND_DOUBLE (&e, "data_pages", w->data.leaves);
   BSON_APPEND_DOUBLE (&e, "index_pages", w->index.leaves);
   BSON_APPEND_DOUBLE (&e, "data_page_disk_bytes", w->data.leaf_disk);
   BSON_APPEND_DOUBLE (&e, "index_page_disk_bytes", w->index.leaf_disk);
   BSON_APPEND_DOUBLE (&e, "data_internal_pages", w->data.internal);
   BSON_APPEND_DOUBLE (&e, "index_internal_pages", w->index.leaves > 0 ? w->index.internal : 0);
   append_levels (&e, "data_levels", &w->data);
   if (w->index.leaves > 0) {
      append_levels (&e, "index_levels", &w->index);
   }
   /* `reads` random rows: a page read once stays (the cache holding what they touch), so each read
    * costs the distinct pages over the reads, each level's */
   BSON_APPEND_DOUBLE (&e, "row_read_bytes_per_query", reads > 0 ? (dr + ir) / reads : 0);
   BSON_APPEND_DOUBLE (&e, "row_read_internal_bytes_per_query", reads > 0 ? (di + ii) / reads : 0);
   bson_append_document_end (d, &e);
}

/* record_workloads -- "predicted_workloads": per layout an append's bytes (a row for a rows layout; the
 * master's document rewritten whole for a fold, its last bucket for buckets) and a row read's pages and
 * bytes, the trees' internal pages included (the figures lab_scan_predict_cands_build made). */
static void
record_workloads (bson_t *results, const lab_scan_predict_cands_t *c)
{
   bson_t d, ls;
   size_t i;

   BSON_APPEND_DOCUMENT_BEGIN (results, "predicted_workloads", &d);
   BSON_APPEND_UTF8 (&d, "append_method",
                     "--append-rows rows appended to the masters --append-to draws (the last tenth of the "
                     "keys, or any), one write each: a rows layout inserts the row (its index entries beside "
                     "it), a fold rewrites the master's document whole (its last bucket for buckets, every "
                     "earlier bucket too when a row starts a new one), the documents as they grow; journal = "
                     "the commit's log record, compressed as the log compressor does when that saves a "
                     "128-byte unit, in 128-byte units");
   BSON_APPEND_UTF8 (
      &d, "row_method",
      "a row read walks root to leaf the index it reads through ({key, line} for a rows layout, "
      "{key} for documents) and the record table, the roots read when the tables were opened: cold, each "
      "level's page below the root a miss of its bytes on disk (row_read_bytes_cold); over row_reads "
      "random rows into a cache that keeps them, each level's distinct pages, pages(1 - (1 - "
      "1/pages)^reads), "
      "per read (row_read_bytes_per_query; each point's row_read_bytes_per_query at its cache: the same "
      "reads through an LRU cache of the point's size); internal pages at WiredTiger's fan-out "
      "(internal_page_max 4 KiB for a collection, 16 KiB for an index, split at 90%, a key and an address "
      "cell per child)");
   BSON_APPEND_INT64 (&d, "row_reads", (int64_t)c->row_reads);
   BSON_APPEND_DOCUMENT_BEGIN (&d, "layouts", &ls);
   for (i = 0; i < c->nwl; i++) {
      append_layout (&ls, &c->wl[i], c->row_reads);
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
   record_workloads (results, c);
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
      "Other workloads, predicted per layout: an append's journal bytes per write (--append-rows "
      "rows to the masters --append-to draws); a row read's pages and KiB cold, and per read "
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
