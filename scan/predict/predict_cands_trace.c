/*
 * predict_cands_trace.c -- the other candidates' traces (predict_cands.h; pure): rows written in key order
 * (sorted, clustered) and documents of a bucket's rows (buckets, or one per master), each load's page
 * accesses in the order the workers make them, as predict_trace.c's detail and folded ones.
 */
#include "scan/predict/predict_cands.h"

#include <math.h>
#include <string.h>

/* weight -- a page's footprint as the stack distances count it (at least a byte). */
static uint64_t
weight (double bytes)
{
   return (uint64_t)llround (bytes > 1 ? bytes : 1);
}

/* data_access -- the data page `page` touched by worker t: LAB_PREDICT_DATA_AGAIN when its master touched it
 * last and the trace counts those apart (a sample's), else LAB_PREDICT_DATA. */
static void
data_access (lab_scan_stackdist_t *sd, const lab_scan_predict_input_t *in, lab_scan_predict_worker_t *t,
             int64_t page, uint64_t bytes)
{
   int cls = in->again_class && page == t->last_data_page ? LAB_PREDICT_DATA_AGAIN : LAB_PREDICT_DATA;
   lab_scan_stackdist_access (sd, 2 * (uint64_t)page, bytes, cls, true);
   t->last_data_page = page;
}

/* lab_scan_predict_trace_key_order -- see predict_cands.h. Page ids: data page p is 2p, index page q 2q + 1.
 */
lab_scan_stackdist_t *
lab_scan_predict_trace_key_order (const lab_scan_predict_input_t *in, bool key_index)
{
   lab_scan_stackdist_t *sd = lab_scan_stackdist_new (1.0);
   int64_t *first = bson_malloc0 ((size_t)(in->nmasters + 1) * sizeof *first), m;
   uint64_t dbytes = weight (in->page_cache_bytes), ibytes = weight (in->index_page_cache_bytes);
   double rpp = in->rows_per_page > 0 ? in->rows_per_page : 1;
   double ipp = in->index_entries_per_page >= 1 ? in->index_entries_per_page : 1;
   lab_scan_predict_worker_t *ws;
   int nw, w, active;

   for (m = 0; m < in->nmasters; m++) {
      first[m + 1] = first[m] + (int64_t)in->nrids[m];
   }
   ws = lab_scan_predict_workers_new (in, &nw);
   do {
      active = 0;
      for (w = 0; w < nw; w++) {
         lab_scan_predict_worker_t *t = &ws[w];
         double ord;
         int64_t p, last;
         if (!lab_scan_predict_worker_next (in, t, in->nrids)) {
            continue;
         }
         active++;
         m = lab_scan_predict_master_at (in, t->k);
         ord = (double)(first[m] + (int64_t)t->j);
         if (key_index && (int64_t)floor (ord / ipp) != t->last_index_page) {
            t->last_index_page = (int64_t)floor (ord / ipp);
            lab_scan_stackdist_access (sd, 2 * (uint64_t)t->last_index_page + 1, ibytes, LAB_PREDICT_INDEX,
                                       true);
         }
         /* a row lies in one page; only a row larger than a page (rpp < 1) spans several */
         p = (int64_t)floor (ord / rpp);
         last = rpp >= 1 ? p : (int64_t)ceil ((ord + 1) / rpp) - 1;
         if (last < p) {
            last = p;
         }
         for (; p <= last; p++) {
            data_access (sd, in, t, p, dbytes);
         }
         t->j++;
      }
   } while (active > 0);
   bson_free (ws);
   bson_free (first);
   return sd;
}

/* lab_scan_predict_trace_buckets -- see predict_cands.h. */
lab_scan_stackdist_t *
lab_scan_predict_trace_buckets (const lab_scan_predict_input_t *in, int32_t bucket_rows, int64_t *pages,
                                int64_t *docs)
{
   lab_scan_stackdist_t *sd = lab_scan_stackdist_new (1.0);
   size_t *nb = bson_malloc0 ((size_t)(in->nmasters + 1) * sizeof *nb);
   int64_t *first = bson_malloc0 ((size_t)(in->nmasters + 1) * sizeof *first), m, page, *page_of;
   uint64_t dbytes = weight (in->folded_page_cache_bytes), ibytes = weight (in->index_page_cache_bytes);
   double *bytes;
   size_t b;
   lab_scan_predict_worker_t *ws;
   int nw, w, active;

   for (m = 0; m < in->nmasters; m++) {
      size_t n = in->nrids[m];
      nb[m] = bucket_rows > 0 ? (n + (size_t)bucket_rows - 1) / (size_t)bucket_rows : 1;
      if (nb[m] == 0) {
         nb[m] = 1;
      }
      first[m + 1] = first[m] + (int64_t)nb[m];
   }
   page_of = bson_malloc0 ((size_t)(first[in->nmasters] + 1) * sizeof *page_of);
   bytes = bson_malloc0 ((size_t)(first[in->nmasters] + 1) * sizeof *bytes);
   for (m = 0; m < in->nmasters; m++) {
      for (b = 0; b < nb[m]; b++) {
         size_t rows = bucket_rows > 0 ? in->nrids[m] - b * (size_t)bucket_rows : in->nrids[m];
         if (bucket_rows > 0 && rows > (size_t)bucket_rows) {
            rows = (size_t)bucket_rows;
         }
         bytes[first[m] + (int64_t)b] = in->folded_master_bytes + (double)rows * in->folded_row_bytes;
      }
   }
   page = lab_scan_predict_pack_docs (bytes, first[in->nmasters], in->folded_page_max,
                                      in->folded_compress_ratio, page_of);
   bson_free (bytes);
   if (pages) {
      *pages = page;
   }
   if (docs) {
      *docs = first[in->nmasters];
   }
   ws = lab_scan_predict_workers_new (in, &nw);
   do {
      active = 0;
      for (w = 0; w < nw; w++) {
         lab_scan_predict_worker_t *t = &ws[w];
         double ipp = in->folded_index_entries_per_page >= 1 ? in->folded_index_entries_per_page : 1;
         int64_t d, ip;
         if (!lab_scan_predict_worker_next (in, t, nb)) {
            continue;
         }
         active++;
         d = first[lab_scan_predict_master_at (in, t->k)] + (int64_t)t->j;
         /* the key's index entries are adjacent: a master's next document is on the cursor's page */
         ip = (int64_t)floor ((double)d / ipp);
         if (ip != t->last_index_page) {
            lab_scan_stackdist_access (sd, 2 * (uint64_t)ip + 1, ibytes, LAB_PREDICT_INDEX, true);
            t->last_index_page = ip;
         }
         data_access (sd, in, t, page_of[d], dbytes);
         t->j++;
      }
   } while (active > 0);
   bson_free (ws);
   bson_free (page_of);
   bson_free (first);
   bson_free (nb);
   return sd;
}
