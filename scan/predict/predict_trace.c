/*
 * predict_trace.c -- the prediction's traces (predict.h; pure): each layout's load as the page accesses it
 * makes, in the order the workers make them, their LRU stack distances, and a cache's capacity in pages
 * and the bytes it reads. The probe, the model and the run: predict.c.
 */
#include "scan/predict/predict_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the traces (pure) --------------------------------------------------------------------------- */

/* lab_scan_predict_workers_new -- see predict_private.h. */
lab_scan_predict_worker_t *
lab_scan_predict_workers_new (const lab_scan_predict_input_t *in, int *n)
{
   int p = in->parallel > 0 ? in->parallel : 1, i;
   int64_t *starts = bson_malloc0 ((size_t)(p + 1) * sizeof *starts);
   lab_scan_predict_worker_t *ws = bson_malloc0 ((size_t)p * sizeof *ws);

   lab_scan_keys_segment (in->nload, p, starts);
   for (i = 0; i < p; i++) {
      ws[i].k = starts[i];
      ws[i].end = starts[i + 1];
      ws[i].stride = 1;
      if (in->perm) {
         /* random order: every p-th position of the shuffle, as scancmp deals it */
         lab_scan_keys_share (LAB_LOAD_ORDER_RANDOM, in->nload, p, i, &ws[i].k, &ws[i].end, &ws[i].stride);
      }
      ws[i].last_index_page = -1;
      ws[i].last_data_page = -1;
   }
   bson_free (starts);
   *n = p;
   return ws;
}

/* lab_scan_predict_worker_next -- see predict_private.h. */
bool
lab_scan_predict_worker_next (const lab_scan_predict_input_t *in, lab_scan_predict_worker_t *t,
                              const size_t *units)
{
   while (t->k < t->end && t->j >= units[lab_scan_predict_master_at (in, t->k)]) {
      t->k += t->stride;
      t->j = 0;
      t->last_index_page = -1; /* the next master is a new search from the root */
      t->last_data_page = -1;
   }
   return t->k < t->end;
}

/* lab_scan_predict_master_at -- see predict_private.h. */
int64_t
lab_scan_predict_master_at (const lab_scan_predict_input_t *in, int64_t k)
{
   return in->load[in->perm ? in->perm[k] : k];
}

/* index_page -- the key index leaf page of index entry `ordinal`. */
static int64_t
index_page (double ordinal, double entries_per_page)
{
   return (int64_t)floor (ordinal / (entries_per_page >= 1 ? entries_per_page : 1));
}

/* lab_scan_predict_trace_detail -- see predict.h. Page ids: data page p is 2p, index leaf page q is 2q + 1.
 */
lab_scan_stackdist_t *
lab_scan_predict_trace_detail (const lab_scan_predict_input_t *in)
{
   lab_scan_stackdist_t *sd = lab_scan_stackdist_new (1.0);
   int64_t *first = bson_malloc0 ((size_t)(in->nmasters + 1) * sizeof *first), m;
   uint64_t dbytes = (uint64_t)llround (in->page_cache_bytes > 1 ? in->page_cache_bytes : 1);
   uint64_t ibytes = (uint64_t)llround (in->index_page_cache_bytes > 1 ? in->index_page_cache_bytes : 1);
   double rpp = in->rows_per_page > 0 ? in->rows_per_page : 1;
   lab_scan_predict_worker_t *ws;
   int nw, w, active;

   /* each master's first index entry: the entries before it in key order */
   for (m = 0; m < in->nmasters; m++) {
      first[m + 1] = first[m] + (int64_t)in->nrids[m];
   }
   ws = lab_scan_predict_workers_new (in, &nw);
   do {
      active = 0;
      for (w = 0; w < nw; w++) {
         lab_scan_predict_worker_t *t = &ws[w];
         int64_t ip, p, last;
         double off;

         if (!lab_scan_predict_worker_next (in, t, in->nrids)) {
            continue;
         }
         active++;
         m = lab_scan_predict_master_at (in, t->k);
         /* the index entry of the row, then its document (IXSCAN + FETCH) */
         ip = index_page ((double)(first[m] + (int64_t)t->j), in->index_entries_per_page);
         if (ip != t->last_index_page) {
            lab_scan_stackdist_access (sd, 2 * (uint64_t)ip + 1, ibytes, LAB_PREDICT_INDEX, true);
            if (in->record) {
               lab_scan_evictsim_trace_add (in->record, w, 2 * (uint64_t)ip + 1, ibytes, LAB_PREDICT_INDEX,
                                            LAB_EVICTSIM_INDEX);
            }
            t->last_index_page = ip;
         }
         off = (double)(in->rids[m][t->j] - in->min_rid);
         if (off < 0) {
            off = 0;
         }
         /* a document larger than a page (rows_per_page < 1) reads every page it spans */
         p = (int64_t)floor (off / rpp);
         /* a row lies in one page; only a document larger than a page spans several */
         last = rpp >= 1 ? p : (int64_t)ceil ((off + 1) / rpp) - 1;
         if (last < p) {
            last = p;
         }
         for (; p <= last; p++) {
            /* a master's rows come in RecordId order: a page it touched is its previous row's */
            int cls = in->again_class && p == t->last_data_page ? LAB_PREDICT_DATA_AGAIN : LAB_PREDICT_DATA;
            lab_scan_stackdist_access (sd, 2 * (uint64_t)p, dbytes, cls, true);
            if (in->record) {
               lab_scan_evictsim_trace_add (in->record, w, 2 * (uint64_t)p, dbytes, cls,
                                            p == last ? LAB_EVICTSIM_ROW_END : 0);
            }
            t->last_data_page = p;
         }
         t->j++;
      }
   } while (active > 0);
   bson_free (ws);
   bson_free (first);
   return sd;
}

/* lab_scan_predict_trace_folded -- see predict.h: the masters packed in key order as WiredTiger packs an
 * in-order insert (lab_scan_predict_pack_docs), then one index entry and one document per master. */
lab_scan_stackdist_t *
lab_scan_predict_trace_folded (const lab_scan_predict_input_t *in, int64_t *pages)
{
   lab_scan_stackdist_t *sd = lab_scan_stackdist_new (1.0);
   int64_t *page_of = bson_malloc0 ((size_t)(in->nmasters + 1) * sizeof *page_of), m, page;
   uint64_t dbytes = (uint64_t)llround (in->folded_page_cache_bytes > 1 ? in->folded_page_cache_bytes : 1);
   uint64_t ibytes = (uint64_t)llround (in->index_page_cache_bytes > 1 ? in->index_page_cache_bytes : 1);
   lab_scan_predict_worker_t *ws;
   uint64_t ip;
   int nw, w, active;

   double *bytes = bson_malloc0 ((size_t)(in->nmasters + 1) * sizeof *bytes);

   for (m = 0; m < in->nmasters; m++) {
      bytes[m] = in->folded_master_bytes + (double)in->nrids[m] * in->folded_row_bytes;
   }
   page = lab_scan_predict_pack_docs (bytes, in->nmasters, in->folded_page_max, in->folded_compress_ratio,
                                      page_of);
   bson_free (bytes);
   if (pages) {
      *pages = page;
   }
   ws = lab_scan_predict_workers_new (in, &nw);
   do {
      active = 0;
      for (w = 0; w < nw; w++) {
         lab_scan_predict_worker_t *t = &ws[w];
         if (t->k >= t->end) {
            continue;
         }
         active++;
         m = lab_scan_predict_master_at (in, t->k);
         t->k += t->stride;
         ip = 2 * (uint64_t)index_page ((double)m, in->folded_index_entries_per_page) + 1;
         lab_scan_stackdist_access (sd, ip, ibytes, LAB_PREDICT_INDEX, true);
         lab_scan_stackdist_access (sd, 2 * (uint64_t)page_of[m], dbytes, LAB_PREDICT_DATA, true);
         if (in->record) {
            /* a master's one document: its index entry's page, then its data page */
            lab_scan_evictsim_trace_add (in->record, w, ip, ibytes, LAB_PREDICT_INDEX, LAB_EVICTSIM_INDEX);
            lab_scan_evictsim_trace_add (in->record, w, 2 * (uint64_t)page_of[m], dbytes, LAB_PREDICT_DATA,
                                         LAB_EVICTSIM_ROW_END);
         }
      }
   } while (active > 0);
   bson_free (ws);
   bson_free (page_of);
   return sd;
}

/* lab_scan_predict_capacity -- see predict.h. */
uint64_t
lab_scan_predict_capacity (uint64_t cache_bytes)
{
   return lab_scan_predict_capacity_at (cache_bytes, LAB_PREDICT_CACHE_FILL);
}

/* lab_scan_predict_capacity_at -- see predict.h. */
uint64_t
lab_scan_predict_capacity_at (uint64_t cache_bytes, double fill)
{
   return (uint64_t)llround ((double)cache_bytes * (fill > 0 && fill <= 1 ? fill : LAB_PREDICT_CACHE_FILL));
}

/* lab_scan_predict_read_bytes -- see predict.h. */
double
lab_scan_predict_read_bytes (lab_scan_stackdist_t *sd, uint64_t capacity, double data_disk_bytes,
                             double index_disk_bytes, double *misses)
{
   double d = lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA, capacity) +
              lab_scan_stackdist_misses (sd, LAB_PREDICT_DATA_AGAIN, capacity);
   double i = lab_scan_stackdist_misses (sd, LAB_PREDICT_INDEX, capacity);

   if (misses) {
      *misses = d + i;
   }
   return d * data_disk_bytes + i * index_disk_bytes;
}
