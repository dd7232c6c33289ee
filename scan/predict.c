/*
 * predict.c -- predict before folding (issue 26; the model is in predict.h): the traces of both layouts'
 * loads, the read-only probe of the detail collection, the optional timed sample, and the predicted
 * results document.
 */
#include "scan/predict_private.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/log.h"
#include "core/opts.h"
#include "core/results.h"
#include "scan/measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the traces (pure) --------------------------------------------------------------------------- */

/* One worker of a trace: its segment of the loaded masters and where it is in it. */
typedef struct {
   int64_t k, end;          /* the next master (index into in->load) and the segment's end */
   size_t j;                /* the next row of master load[k] */
   int64_t last_index_page; /* the index leaf page its cursor holds (-1: none, a new search) */
   int64_t last_data_page;  /* the data page its master's previous row lay in (-1: none) */
} trace_worker_t;

/* workers_new -- one worker per segment of in->load, as scancmp's (lab_scan_keys_segment). */
static trace_worker_t *
workers_new (const lab_predict_input_t *in, int *n)
{
   int p = in->parallel > 0 ? in->parallel : 1, i;
   int64_t *starts = bson_malloc0 ((size_t)(p + 1) * sizeof *starts);
   trace_worker_t *ws = bson_malloc0 ((size_t)p * sizeof *ws);

   lab_scan_keys_segment (in->nload, p, starts);
   for (i = 0; i < p; i++) {
      ws[i].k = starts[i];
      ws[i].end = starts[i + 1];
      ws[i].last_index_page = -1;
      ws[i].last_data_page = -1;
   }
   bson_free (starts);
   *n = p;
   return ws;
}

/* index_page -- the key index leaf page of index entry `ordinal`. */
static int64_t
index_page (double ordinal, double entries_per_page)
{
   return (int64_t)floor (ordinal / (entries_per_page >= 1 ? entries_per_page : 1));
}

/* lab_predict_trace_detail -- see predict.h. Page ids: data page p is 2p, index leaf page q is 2q + 1. */
lab_stackdist_t *
lab_predict_trace_detail (const lab_predict_input_t *in)
{
   lab_stackdist_t *sd = lab_stackdist_new (1.0);
   int64_t *first = bson_malloc0 ((size_t)(in->nmasters + 1) * sizeof *first), m;
   uint64_t dbytes = (uint64_t)llround (in->page_cache_bytes > 1 ? in->page_cache_bytes : 1);
   uint64_t ibytes = (uint64_t)llround (in->index_page_cache_bytes > 1 ? in->index_page_cache_bytes : 1);
   double rpp = in->rows_per_page > 0 ? in->rows_per_page : 1;
   trace_worker_t *ws;
   int nw, w, active;

   /* each master's first index entry: the entries before it in key order */
   for (m = 0; m < in->nmasters; m++) {
      first[m + 1] = first[m] + (int64_t)in->nrids[m];
   }
   ws = workers_new (in, &nw);
   do {
      active = 0;
      for (w = 0; w < nw; w++) {
         trace_worker_t *t = &ws[w];
         int64_t ip, p, last;
         double off;

         while (t->k < t->end && t->j >= in->nrids[in->load[t->k]]) {
            t->k++;
            t->j = 0;
            t->last_index_page = -1; /* the next master is a new search from the root */
            t->last_data_page = -1;
         }
         if (t->k >= t->end) {
            continue;
         }
         active++;
         m = in->load[t->k];
         /* the index entry of the row, then its document (IXSCAN + FETCH) */
         ip = index_page ((double)(first[m] + (int64_t)t->j), in->index_entries_per_page);
         if (ip != t->last_index_page) {
            lab_stackdist_access (sd, 2 * (uint64_t)ip + 1, ibytes, LAB_PREDICT_INDEX, true);
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
            lab_stackdist_access (sd, 2 * (uint64_t)p, dbytes, cls, true);
            t->last_data_page = p;
         }
         t->j++;
      }
   } while (active > 0);
   bson_free (ws);
   bson_free (first);
   return sd;
}

/* lab_predict_trace_folded -- see predict.h: the masters packed in key order (a document that does not
 * fit in the page's room starts the next page), then one index entry and one document per master. */
lab_stackdist_t *
lab_predict_trace_folded (const lab_predict_input_t *in, int64_t *pages)
{
   lab_stackdist_t *sd = lab_stackdist_new (1.0);
   int64_t *page_of = bson_malloc0 ((size_t)(in->nmasters + 1) * sizeof *page_of), m, page = 0;
   uint64_t dbytes = (uint64_t)llround (in->folded_page_cache_bytes > 1 ? in->folded_page_cache_bytes : 1);
   uint64_t ibytes = (uint64_t)llround (in->index_page_cache_bytes > 1 ? in->index_page_cache_bytes : 1);
   double fill = 0;
   trace_worker_t *ws;
   int nw, w, active;

   for (m = 0; m < in->nmasters; m++) {
      double doc = in->folded_master_bytes + (double)in->nrids[m] * in->folded_row_bytes;
      if (fill > 0 && fill + doc > in->folded_page_bytes) {
         page++;
         fill = 0;
      }
      page_of[m] = page;
      fill += doc;
   }
   if (pages) {
      *pages = in->nmasters > 0 ? page + 1 : 0;
   }
   ws = workers_new (in, &nw);
   do {
      active = 0;
      for (w = 0; w < nw; w++) {
         trace_worker_t *t = &ws[w];
         if (t->k >= t->end) {
            continue;
         }
         active++;
         m = in->load[t->k++];
         lab_stackdist_access (sd,
                               2 * (uint64_t)index_page ((double)m, in->folded_index_entries_per_page) + 1,
                               ibytes, LAB_PREDICT_INDEX, true);
         lab_stackdist_access (sd, 2 * (uint64_t)page_of[m], dbytes, LAB_PREDICT_DATA, true);
      }
   } while (active > 0);
   bson_free (ws);
   bson_free (page_of);
   return sd;
}

/* lab_predict_capacity -- see predict.h. */
uint64_t
lab_predict_capacity (uint64_t cache_bytes)
{
   return lab_predict_capacity_at (cache_bytes, LAB_PREDICT_CACHE_FILL);
}

/* lab_predict_capacity_at -- see predict.h. */
uint64_t
lab_predict_capacity_at (uint64_t cache_bytes, double fill)
{
   return (uint64_t)llround ((double)cache_bytes * (fill > 0 && fill <= 1 ? fill : LAB_PREDICT_CACHE_FILL));
}

/* lab_predict_read_bytes -- see predict.h. */
double
lab_predict_read_bytes (lab_stackdist_t *sd, uint64_t capacity, double data_disk_bytes,
                        double index_disk_bytes, double *misses)
{
   double d = lab_stackdist_misses (sd, LAB_PREDICT_DATA, capacity) +
              lab_stackdist_misses (sd, LAB_PREDICT_DATA_AGAIN, capacity);
   double i = lab_stackdist_misses (sd, LAB_PREDICT_INDEX, capacity);

   if (misses) {
      *misses = d + i;
   }
   return d * data_disk_bytes + i * index_disk_bytes;
}

/* ---- the sample (--sample) ----------------------------------------------------------------------- */

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
} mini_t;

/* mini_build -- the masters in [lo, hi) (see mini_t) of the `nload` loaded ones. */
static void
mini_build (const probe_t *p, const int64_t *load, int64_t nload, double lo, double hi, mini_t *m)
{
   bool all = lo <= 0 && hi >= 1;
   double mean = p->nkeys > 0 ? p->entries_est / (double)p->nkeys : 0;
   int64_t k;

   memset (m, 0, sizeof *m);
   m->rate = all ? 1.0 : hi - lo;
   m->n = p->nkeys;
   m->rids = p->rids;
   m->nrids = p->nrids;
   m->min_rid = p->min_rid;
   if (!all) {
      m->own_nrids = bson_malloc0 ((size_t)(p->nkeys > 0 ? p->nkeys : 1) * sizeof *m->own_nrids);
      for (k = 0; k < p->nkeys; k++) {
         bool in = p->rids[k] && p->u[k] >= lo && p->u[k] < hi;
         m->own_nrids[k] = in ? p->nrids[k] : (size_t)llround (mean);
      }
      m->nrids = m->own_nrids;
   }
   m->load = bson_malloc0 ((size_t)(nload > 0 ? nload : 1) * sizeof *m->load);
   for (k = 0; k < nload; k++) {
      int64_t j = load[k];
      if (all || (p->rids[j] && p->u[j] >= lo && p->u[j] < hi)) {
         m->load[m->nload++] = j;
         m->rows_loaded += (double)p->nrids[j];
      }
   }
}

/* mini_cleanup -- free what mini_build allocated. */
static void
mini_cleanup (mini_t *m)
{
   bson_free (m->own_nrids);
   bson_free (m->load);
   memset (m, 0, sizeof *m);
}

/* The sample is split this many ways by the same hash to state its error. */
#define SAMPLE_GROUPS 4
/* Below this many sampled masters per data page the estimate's bias can exceed its sampling error (seen
 * at 4.9 M rows, ratio 1.5: 2.9 sampled masters per page (F = 0.01) gave +59% with a stated error of
 * 0.2%; 29 (F = 0.1) +20% within one stated error). */
#define SAMPLE_MIN_PER_PAGE 10.0
#define SAMPLE_WARNING                                                                                       \
   "few sampled masters touch each page: the estimate can be off by more than its sampling error, most "     \
   "near the knee of the curve; sample a larger share of the masters"

/* ---- the prediction ------------------------------------------------------------------------------ */

/* Default points without --cache-sizes / --cache-ratios. */
static const double default_ratios[] = { 0.1, 0.25, 0.5, 1, 2, 4 };

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
   double pages[2][2]; /* [layout][LAB_PREDICT_DATA / _INDEX]: the pages of each kind */
   double fill;        /* the share of a cache pages fill (cache_fill) */
} layouts_t;

/* model_input -- the model's input from the probe (see predict.h for the constants). */
static void
model_input (const lab_scan_opts_t *o, const probe_t *p, const mini_t *mi, lab_predict_input_t *in)
{
   const lab_store_coll_stats_t *st = &p->st;
   double leaf = p->leaf_pages > 0
                    ? (double)p->leaf_pages
                    : ceil ((double)st->count * st->avg_obj_size_bytes / PROBE_LEAF_PAGE_BYTES);
   double data =
      st->data_size_bytes > 0 ? (double)st->data_size_bytes : (double)st->count * st->avg_obj_size_bytes;
   double key_index = lab_predict_key_index_bytes (p);
   double ipages = ceil (key_index / LAB_PREDICT_INDEX_PAGE_BYTES);
   double modelled;
   double key_elem = 1 + strlen (o->key) + 1 + 8;        /* type, name, an 8-byte value at most */
   double id_elem = 1 + 4 + 12;                          /* _id: ObjectId */
   double arr = 1 + strlen (o->array_field) + 1 + 4 + 1; /* the array's element and header */

   memset (in, 0, sizeof *in);
   if (leaf < 1) {
      leaf = 1;
   }
   if (ipages < 1) {
      ipages = 1;
   }
   in->nmasters = mi->n;
   in->rids = mi->rids;
   in->nrids = mi->nrids;
   in->load = mi->load;
   in->nload = mi->nload;
   in->parallel = o->parallel;
   in->min_rid = mi->min_rid;
   in->again_class = mi->rate < 1;
   in->rows_per_page = p->entries_est / leaf;
   modelled =
      data / leaf + in->rows_per_page * LAB_PREDICT_ROW_CACHE_OVERHEAD + LAB_PREDICT_PAGE_CACHE_OVERHEAD;
   /* measured (embedded): what a page the probe read holds in the cache, allocator overhead and the
    * internal pages read with it included */
   in->page_cache_bytes = p->data_page_mem > 0 ? p->data_page_mem : modelled;
   in->index_entries_per_page = p->entries_est / ipages;
   in->index_page_cache_bytes =
      p->index_page_mem > 0 ? p->index_page_mem : key_index / ipages + LAB_PREDICT_PAGE_CACHE_OVERHEAD;
   /* folded: a row loses its _id and key and becomes an array element ("N": about 5 bytes of name);
    * the master's document has its _id, the key and the array */
   in->folded_row_bytes = st->avg_obj_size_bytes - id_elem - key_elem + 5;
   if (in->folded_row_bytes < 1) {
      in->folded_row_bytes = 1;
   }
   in->folded_master_bytes = 5 + id_elem + key_elem + arr;
   if (p->fold_row_bytes > 0) {
      /* measured: a sample of masters folded in memory, hoisting as fold-details does */
      in->folded_row_bytes = p->fold_row_bytes;
      in->folded_master_bytes = p->fold_master_bytes;
   }
   in->folded_page_bytes = data / leaf;
   /* the folded page's modelled footprint, scaled as the detail page's measured one is to its modelled */
   in->folded_page_cache_bytes =
      (in->folded_page_bytes + LAB_PREDICT_PAGE_CACHE_OVERHEAD) * (in->page_cache_bytes / modelled);
   in->folded_index_entries_per_page = in->index_entries_per_page;
}

/* layouts_of -- sizes on disk of both layouts and bytes per miss. */
static void
layouts_of (const probe_t *p, const lab_predict_input_t *in, int64_t folded_pages, const mini_t *mi,
            int64_t nload, layouts_t *l)
{
   const lab_store_coll_stats_t *st = &p->st;
   double leaf = p->entries_est / in->rows_per_page;
   double data = in->folded_page_bytes * leaf;
   double compress = data > 0 && st->storage_size_bytes > 0 ? (double)st->storage_size_bytes / data : 1;
   double ipages = p->entries_est / in->index_entries_per_page;
   double key_index = lab_predict_key_index_bytes (p);

   memset (l, 0, sizeof *l);
   l->storage[0] = (double)st->storage_size_bytes;
   l->index[0] = (double)st->index_size_bytes;
   l->data_disk[0] = (double)st->storage_size_bytes / leaf;
   l->index_disk = key_index / ipages;
   l->folded_pages = folded_pages;
   l->fill = lab_predict_cache_fill (p);
   /* folded: its pages at the detail's compression; indexes of one entry per master */
   /* the documents' bytes at the detail's compression (whole documents packed into pages of the detail's
    * bytes over-predicted the demo's folded copy by 16%: a page grows until its compressed image fills) */
   l->data_bytes[0] = data;
   l->data_bytes[1] = (double)p->nkeys * in->folded_master_bytes + p->entries_est * in->folded_row_bytes;
   l->storage[1] = l->data_bytes[1] * compress;
   if (p->fold_page_raw > 0) {
      /* measured: the sample's folded documents packed into pages and compressed as the fold would */
      l->storage[1] = l->data_bytes[1] * p->fold_page_disk / p->fold_page_raw;
   }
   l->index[1] = (double)st->index_size_bytes * (double)p->nkeys / p->entries_est;
   l->data_disk[1] =
      folded_pages > 0 ? l->storage[1] / (double)folded_pages : in->folded_page_bytes * compress;
   l->pages[0][LAB_PREDICT_DATA] = leaf;
   l->pages[0][LAB_PREDICT_INDEX] = ipages;
   l->pages[1][LAB_PREDICT_DATA] = (double)folded_pages;
   l->pages[1][LAB_PREDICT_INDEX] = ceil (
      (double)p->nkeys / (in->folded_index_entries_per_page > 1 ? in->folded_index_entries_per_page : 1));
   l->on_disk[0] = l->storage[0] + l->index[0];
   l->on_disk[1] = l->storage[1] + l->index[1];
   /* the loaded masters' rows (a sample's scaled up) */
   l->rows = mi->rows_loaded / mi->rate;
   l->docs[0] = l->rows;
   l->docs[1] = (double)nload;
   l->bytes[0] = l->rows * st->avg_obj_size_bytes;
   l->bytes[1] = (double)nload * in->folded_master_bytes + l->rows * in->folded_row_bytes;
}

/* The traces of one set of masters (all, a sample, or a part of it): the detail and folded layouts' stack
 * distances, the folded pages packed. */
typedef struct {
   mini_t mini;
   lab_predict_input_t in;
   lab_stackdist_t *sd[2];
   int64_t folded_pages;
} traces_t;

/* traces_build -- the masters in [lo, hi) of the loaded ones (mini_build), their model input and both
 * layouts' traces. */
static void
traces_build (const lab_scan_opts_t *o, const probe_t *p, const int64_t *load, int64_t nload, double lo,
              double hi, traces_t *tr)
{
   mini_build (p, load, nload, lo, hi, &tr->mini);
   model_input (o, p, &tr->mini, &tr->in);
   tr->sd[0] = lab_predict_trace_detail (&tr->in);
   tr->sd[1] = lab_predict_trace_folded (&tr->in, &tr->folded_pages);
}

/* traces_cleanup -- free a traces_build's; safe on a zeroed one. */
static void
traces_cleanup (traces_t *tr)
{
   lab_stackdist_destroy (tr->sd[0]);
   lab_stackdist_destroy (tr->sd[1]);
   mini_cleanup (&tr->mini);
   memset (tr, 0, sizeof *tr);
}

/* scaled_read_bytes -- the bytes a cache of `cache` reads in the load of `layout` (0 detail, 1 folded),
 * estimated from a sample at `rate`; *misses (may be NULL) its page misses. Every access of a sampled
 * master is a sampled access, with about the reuse distance it has in the whole load when the masters
 * between two uses of a page touch pages of their own (a master's pages are spread wider than the masters
 * that share them): the share of the sample's reuses that miss is taken for the whole load's reuses
 * (its accesses, the sample's / rate, less its first touches). Its first touches are not scaled so
 * simply: a page holding rows of k masters is touched first once in the whole load but about once per
 * rate x k sampled ones, so they are the sample's / rate, at most the layout's pages of that kind. At rate
 * 1 these are the trace's misses, exactly. */
static double
scaled_read_bytes (lab_stackdist_t *sd, uint64_t cache, double rate, const layouts_t *l, int layout,
                   double *misses)
{
   uint64_t cap = lab_predict_capacity_at (cache, l->fill);
   double bytes = 0, total = 0;
   int cls;

   for (cls = LAB_PREDICT_DATA; cls <= LAB_PREDICT_DATA_AGAIN; cls++) {
      double m = lab_stackdist_misses (sd, cls, cap);
      if (rate < 1 && cls == LAB_PREDICT_DATA_AGAIN) {
         /* a master's own repeated touches: every sampled master keeps them all */
         m /= rate;
      } else if (rate < 1) {
         double cold = lab_stackdist_pages (sd, cls), whole = l->pages[layout][cls];
         double acc = lab_stackdist_accesses (sd, cls),
                first = fmin (cold / rate, whole > 0 ? whole : cold / rate);
         /* the share of the sample's reuses that miss, applied to the whole load's reuses */
         double share = acc > cold ? (m - cold) / (acc - cold) : 0;
         m = first + share * fmax (acc / rate - first, 0);
      }
      total += m;
      bytes += m * (cls == LAB_PREDICT_INDEX ? l->index_disk : l->data_disk[layout]);
   }
   if (misses) {
      *misses = total;
   }
   return bytes;
}

/* append_entry -- one predicted run entry (run 1) of `layout`. */
static void
append_entry (bson_t *arr, const char *ik, const char *layout, const layouts_t *l, int i, double read_bytes,
              double misses, int64_t nload, const timing_t *t, int parallel)
{
   bson_t e, eng;

   BSON_APPEND_DOCUMENT_BEGIN (arr, ik, &e);
   BSON_APPEND_INT32 (&e, "run", 1);
   BSON_APPEND_UTF8 (&e, LAB_RESULTS_KEY_LAYOUT, layout);
   BSON_APPEND_BOOL (&e, "predicted", true);
   BSON_APPEND_INT64 (&e, "keys", nload);
   BSON_APPEND_INT64 (&e, "docs", (int64_t)llround (l->docs[i]));
   BSON_APPEND_INT64 (&e, "rows", (int64_t)llround (l->rows));
   BSON_APPEND_INT64 (&e, "bytes_returned", (int64_t)llround (l->bytes[i]));
   if (t->done) {
      BSON_APPEND_DOUBLE (&e, "elapsed_s", lab_predict_elapsed (t, parallel, misses, l->docs[i]));
   }
   BSON_APPEND_DOCUMENT_BEGIN (&e, "engine", &eng);
   BSON_APPEND_INT64 (&eng, "block_reads", (int64_t)llround (misses));
   BSON_APPEND_INT64 (&eng, "block_read_bytes", (int64_t)llround (read_bytes));
   bson_append_document_end (&e, &eng);
   bson_append_document_end (arr, &e);
}

/* append_point -- one predicted sweep point: its runs, summary and per layout read amplification. */
static void
append_point (bson_t *point, uint64_t cache, double ratio, const traces_t *tr, const traces_t *groups,
              int ngroups, const layouts_t *l, const lab_scan_opts_t *o, int64_t nload, const timing_t *t)
{
   static const char *const names[2] = { LAB_RESULTS_DETAIL, LAB_RESULTS_FOLDED };
   double rb[2], misses[2], amp;
   bson_t runs = BSON_INITIALIZER, arr, d;
   bson_iter_t it;
   int i, g;

   for (i = 0; i < 2; i++) {
      rb[i] = scaled_read_bytes (tr->sd[i], cache, tr->mini.rate, l, i, &misses[i]);
   }
   BSON_APPEND_INT64 (point, LAB_RESULTS_KEY_CACHE_SIZE, (int64_t)cache);
   BSON_APPEND_DOUBLE (point, LAB_RESULTS_KEY_CACHE_RATIO, ratio);
   BSON_APPEND_BOOL (point, "predicted", true);
   BSON_APPEND_ARRAY_BEGIN (&runs, LAB_RESULTS_KEY_RUNS, &arr);
   append_entry (&arr, "0", names[0], l, 0, rb[0], misses[0], nload, t, o->parallel);
   append_entry (&arr, "1", names[1], l, 1, rb[1], misses[1], nload, t, o->parallel);
   bson_append_array_end (&runs, &arr);
   if (bson_iter_init_find (&it, &runs, LAB_RESULTS_KEY_RUNS)) {
      bson_append_iter (point, LAB_RESULTS_KEY_RUNS, -1, &it);
   }
   {
      /* the summary of the point's (one) run per layout, as a measured point has */
      bson_t entries[2];
      bson_iter_t a;
      for (i = 0; i < 2; i++) {
         const uint8_t *data;
         uint32_t len;
         char key[8];
         snprintf (key, sizeof key, "runs.%d", i);
         bson_iter_init (&a, &runs);
         bson_iter_find_descendant (&a, key, &it);
         bson_iter_document (&it, &len, &data);
         bson_init_static (&entries[i], data, len);
      }
      lab_results_summary_append (point, entries, 2);
   }
   for (i = 0; i < 2; i++) {
      bson_append_document_begin (point, names[i], -1, &d);
      if (lab_results_read_amplification (rb[i], l->on_disk[i], &amp)) {
         BSON_APPEND_DOUBLE (&d, LAB_RESULTS_KEY_READ_AMPLIFICATION, amp);
      }
      if (ngroups > 1) {
         /* the sampling error: the standard error of the groups' estimates (each from a
          * disjoint part of the sample, scaled by its own rate), which the whole sample's estimate averages
          */
         double a[SAMPLE_GROUPS], mean = 0, ss = 0;
         for (g = 0; g < ngroups; g++) {
            double b = scaled_read_bytes (groups[g].sd[i], cache, groups[g].mini.rate, l, i, NULL);
            a[g] = l->on_disk[i] > 0 ? b / l->on_disk[i] : 0;
            mean += a[g] / ngroups;
         }
         for (g = 0; g < ngroups; g++) {
            ss += (a[g] - mean) * (a[g] - mean);
         }
         BSON_APPEND_DOUBLE (&d, "read_amplification_sampling_error",
                             sqrt (ss / (ngroups - 1)) / sqrt (ngroups));
      }
      bson_append_document_end (point, &d);
   }
   bson_destroy (&runs);
}

/* resolve_points -- the caches of the points: the user's list as scancmp resolves it, or the default
 * ratios, leaving out those under the engine's minimum cache (the log says so). */
static bool
resolve_points (const lab_scan_opts_t *o, double on_disk, uint64_t **caches, size_t *n, bson_error_t *error)
{
   size_t i;

   if (lab_scan_sweep_points (o) > 0) {
      *n = lab_scan_sweep_points (o);
      *caches = bson_malloc0 (*n * sizeof **caches);
      return lab_scan_sweep_resolve (&o->cache_sizes, &o->cache_ratios, on_disk, *caches, NULL, error);
   }
   *caches = bson_malloc0 (sizeof default_ratios / sizeof default_ratios[0] * sizeof **caches);
   *n = 0;
   for (i = 0; i < sizeof default_ratios / sizeof default_ratios[0]; i++) {
      uint64_t c = (uint64_t)llround (default_ratios[i] * on_disk);
      if (c < LAB_STORE_MIN_CACHE_BYTES) {
         lab_log_info ("ratio %g (a cache of %llu bytes) is under the engine's minimum cache: left out",
                       default_ratios[i], (unsigned long long)c);
         continue;
      }
      (*caches)[(*n)++] = c;
   }
   if (*n == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s is so small (%.0f bytes on disk) that every default ratio gives a cache under 1MiB: "
                     "give --cache-sizes",
                     o->detail, on_disk);
      return false;
   }
   return true;
}

/* record_prediction -- "prediction": the model, its inputs and the probe's cost. */
static void
record_prediction (bson_t *results, const lab_scan_opts_t *o, const probe_t *p, const lab_predict_input_t *in,
                   const layouts_t *l, const timing_t *t, double elapsed_s)
{
   bson_t d, m, pr, c;

   BSON_APPEND_DOCUMENT_BEGIN (results, "prediction", &d);
   BSON_APPEND_UTF8 (&d, "source_collection", o->detail);
   BSON_APPEND_DOCUMENT_BEGIN (&d, "model", &m);
   BSON_APPEND_UTF8 (&m, "method", "stack distances (LRU, byte-weighted) over the page trace of the load");
   BSON_APPEND_DOUBLE (&m, "cache_fill", l->fill);
   BSON_APPEND_INT32 (&m, "parallel", in->parallel);
   BSON_APPEND_UTF8 (&m, "interleaving", "workers round-robin, one row each");
   BSON_APPEND_DOUBLE (&m, "rows_per_leaf_page", in->rows_per_page);
   BSON_APPEND_DOUBLE (&m, "data_page_cache_bytes", in->page_cache_bytes);
   BSON_APPEND_DOUBLE (&m, "data_page_disk_bytes", l->data_disk[0]);
   BSON_APPEND_DOUBLE (&m, "index_entries_per_page", in->index_entries_per_page);
   BSON_APPEND_DOUBLE (&m, "index_page_cache_bytes", in->index_page_cache_bytes);
   BSON_APPEND_DOUBLE (&m, "index_page_disk_bytes", l->index_disk);
   BSON_APPEND_DOUBLE (&m, "folded_row_bytes", in->folded_row_bytes);
   BSON_APPEND_DOUBLE (&m, "folded_master_bytes", in->folded_master_bytes);
   BSON_APPEND_INT64 (&m, "folded_pages", l->folded_pages);
   BSON_APPEND_UTF8 (&m, "folded_bytes_source",
                     p->fold_masters > 0 ? "measured: a sample of masters folded in memory (hoist auto)"
                                         : "default: the rows' BSON less _id and key, nothing hoisted");
   if (p->fold_masters > 0) {
      BSON_APPEND_INT64 (&m, "fold_sample_masters", p->fold_masters);
      BSON_APPEND_INT64 (&m, "fold_sample_rows", p->fold_rows);
      BSON_APPEND_INT64 (&m, "fold_sample_hoisted", p->fold_hoisted);
      BSON_APPEND_INT64 (&m, "fold_sample_pages", p->fold_pages);
      BSON_APPEND_DOUBLE (&m, "fold_sample_disk_per_byte",
                          p->fold_page_raw > 0 ? p->fold_page_disk / p->fold_page_raw : 0);
   }
   BSON_APPEND_UTF8 (&m, "leaf_pages_source", p->leaf_source);
   if (p->leaf_pages > 0) {
      BSON_APPEND_INT64 (&m, "leaf_pages", p->leaf_pages);
   }
   if (p->leaf_error_pct > 0) {
      BSON_APPEND_DOUBLE (&m, "leaf_pages_error_pct", p->leaf_error_pct);
   }
   bson_append_document_end (&d, &m);
   lab_predict_record_capacity (&d, p, in->page_cache_bytes, in->index_page_cache_bytes, l->fill);
   BSON_APPEND_DOCUMENT_BEGIN (&d, "probe", &pr);
   BSON_APPEND_DOUBLE (&pr, "elapsed_s", elapsed_s);
   BSON_APPEND_INT64 (&pr, "masters", p->nkeys);
   BSON_APPEND_INT64 (&pr, "index_entries", p->entries);
   BSON_APPEND_UTF8 (&pr, "walk", p->walk_how);
   BSON_APPEND_DOUBLE (&pr, "index_walk_s", p->walk_s);
   if (p->walk_read_bytes >= 0) {
      BSON_APPEND_INT64 (&pr, "index_walk_read_bytes", p->walk_read_bytes);
   }
   BSON_APPEND_DOUBLE (&pr, "leaf_count_s", p->leaf_s);
   if (p->leaf_read_bytes >= 0) {
      BSON_APPEND_INT64 (&pr, "leaf_count_read_bytes", p->leaf_read_bytes);
   }
   if (p->leaf_pages_read >= 0) {
      BSON_APPEND_INT64 (&pr, "leaf_count_pages_read", p->leaf_pages_read);
   }
   BSON_APPEND_UTF8 (&pr, "leaf_count", p->leaf_how);
   if (p->leaf_rows_read > 0) {
      BSON_APPEND_INT64 (&pr, "leaf_count_records_stepped", p->leaf_rows_read);
   }
   BSON_APPEND_INT64 (&pr, "documents_fetched", p->documents_fetched);
   BSON_APPEND_UTF8 (&pr, "documents_fetched_how", p->documents_how ? p->documents_how : "");
   bson_append_document_end (&d, &pr);
   if (p->sample < 1) {
      BSON_APPEND_DOCUMENT_BEGIN (&d, "sample", &c);
      BSON_APPEND_DOUBLE (&c, "fraction", p->sample);
      BSON_APPEND_INT64 (&c, "masters", p->nsampled);
      BSON_APPEND_INT64 (&c, "index_entries", p->entries);
      BSON_APPEND_UTF8 (
         &c, "method",
         "masters whose key hashes under the fraction (FNV-1a of the key's BSON value); their rows "
         "packed into pages of the collection's rows per page, every cache scaled by the "
         "fraction and the misses by its inverse (SHARDS, Waldspurger et al. FAST 2015)");
      BSON_APPEND_UTF8 (&c, "error",
                        "read_amplification_sampling_error per point and layout: the standard error of the "
                        "estimates of the sample split four ways by the same hash");
      BSON_APPEND_INT32 (&c, "groups", SAMPLE_GROUPS);
      BSON_APPEND_DOUBLE (&c, "masters_per_page", p->sample_per_page);
      if (p->sample_per_page < SAMPLE_MIN_PER_PAGE) {
         BSON_APPEND_UTF8 (&c, "warning", SAMPLE_WARNING);
      }
      bson_append_document_end (&d, &c);
   }
   if (t->done) {
      BSON_APPEND_DOCUMENT_BEGIN (&d, "timing", &c);
      BSON_APPEND_UTF8 (&c, "method",
                        "a sample of masters loaded cold then warm on this store (--calibrate): elapsed = "
                        "page reads x miss_s / workers + documents x doc_s / min(workers, cores)");
      BSON_APPEND_INT64 (&c, "masters", t->masters);
      BSON_APPEND_INT64 (&c, "documents", t->docs);
      BSON_APPEND_INT64 (&c, "block_reads", t->block_reads);
      BSON_APPEND_DOUBLE (&c, "cold_s", t->cold_s);
      BSON_APPEND_DOUBLE (&c, "warm_s", t->warm_s);
      BSON_APPEND_DOUBLE (&c, "doc_s", t->doc_s);
      BSON_APPEND_DOUBLE (&c, "miss_s", t->miss_s);
      bson_append_document_end (&d, &c);
   }
   bson_append_document_end (results, &d);
}

/* record_dataset -- "dataset": the detail collection as it is, the folded layout as predicted. */
static void
record_dataset (bson_t *results, const lab_scan_opts_t *o, const probe_t *p, int64_t nload,
                const layouts_t *l)
{
   const lab_store_coll_stats_t *st = &p->st;
   bson_t ds, d;

   BSON_APPEND_DOCUMENT_BEGIN (results, LAB_RESULTS_KEY_DATASET, &ds);
   BSON_APPEND_INT64 (&ds, "keys", nload);
   BSON_APPEND_DOCUMENT_BEGIN (&ds, LAB_RESULTS_DETAIL, &d);
   BSON_APPEND_UTF8 (&d, "collection", o->detail);
   BSON_APPEND_INT64 (&d, "count", st->count);
   BSON_APPEND_DOUBLE (&d, "avg_obj_size_bytes", st->avg_obj_size_bytes);
   BSON_APPEND_INT64 (&d, "data_size_bytes", st->data_size_bytes);
   BSON_APPEND_INT64 (&d, "storage_size_bytes", st->storage_size_bytes);
   BSON_APPEND_INT64 (&d, "index_size_bytes", st->index_size_bytes);
   BSON_APPEND_INT32 (&d, "nindexes", st->nindexes);
   bson_append_document_end (&ds, &d);
   BSON_APPEND_DOCUMENT_BEGIN (&ds, LAB_RESULTS_FOLDED, &d);
   BSON_APPEND_UTF8 (&d, "collection", o->folded);
   BSON_APPEND_BOOL (&d, "predicted", true);
   BSON_APPEND_INT64 (&d, "count", p->nkeys);
   BSON_APPEND_INT64 (&d, "data_size_bytes", (int64_t)llround (l->data_bytes[1]));
   BSON_APPEND_INT64 (&d, "storage_size_bytes", (int64_t)llround (l->storage[1]));
   BSON_APPEND_INT64 (&d, "index_size_bytes", (int64_t)llround (l->index[1]));
   bson_append_document_end (&ds, &d);
   bson_append_document_end (results, &ds);
}

/* loaded_masters -- the masters scancmp would load: every key, or --keys-limit spread as
 * lab_scan_keys_spread spreads them (applied to the keys' positions). */
static int64_t *
loaded_masters (const lab_scan_opts_t *o, int64_t nkeys, int64_t *nload)
{
   bson_value_t *pos = bson_malloc0 ((size_t)nkeys * sizeof *pos);
   int64_t *load = bson_malloc0 ((size_t)nkeys * sizeof *load), k, n = nkeys;

   for (k = 0; k < nkeys; k++) {
      pos[k].value_type = BSON_TYPE_INT64;
      pos[k].value.v_int64 = k;
   }
   lab_scan_keys_spread (pos, &n, o->keys_limit);
   for (k = 0; k < n; k++) {
      load[k] = pos[k].value.v_int64;
   }
   bson_free (pos);
   *nload = n;
   return load;
}

/* append_header -- a predicted results file's header, backend and config, as a measured file's: the
 * reference point's cache `cache` (ratio `ratio`), started at `ts`. */
static void
append_header (bson_t *results, lab_store_t *store, const lab_scan_opts_t *o, const char *ts, uint64_t cache,
               double ratio)
{
   lab_store_server_info_t info;
   bson_error_t err;
   bson_t doc;

   BSON_APPEND_INT32 (results, LAB_RESULTS_KEY_SCHEMA_VERSION, LAB_RESULTS_SCHEMA_VERSION);
   BSON_APPEND_UTF8 (results, "tool", "scancmp");
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_VERSION, LAB_VERSION);
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_STARTED, ts);
   if (o->argc > 0) {
      lab_cli_command_line_append (results, LAB_RESULTS_KEY_COMMAND_LINE, o->argc, o->argv);
   }
   BSON_APPEND_BOOL (results, "predicted", true);
   {
      lab_results_layouts_t ls = { 0 };
      ls.n = 2;
      ls.reference = 0;
      ls.l[0] = (lab_results_layout_t){ LAB_RESULTS_DETAIL, o->detail, LAB_RESULTS_KIND_ROWS };
      ls.l[1] = (lab_results_layout_t){ LAB_RESULTS_FOLDED, o->folded, LAB_RESULTS_KIND_FOLDED };
      lab_results_layouts_append (results, &ls);
   }
   BSON_APPEND_DOCUMENT_BEGIN (results, "backend", &doc);
   if (lab_store_server_info (store, &info, &err)) {
      BSON_APPEND_UTF8 (&doc, "name", info.backend);
      BSON_APPEND_UTF8 (&doc, "version", info.version);
   }
   BSON_APPEND_UTF8 (&doc, "uri", lab_store_uri_redacted (store));
   BSON_APPEND_UTF8 (&doc, "db", lab_store_db (store));
   BSON_APPEND_INT64 (&doc, "cache_max_bytes", (int64_t)cache);
   bson_append_document_end (results, &doc);
   BSON_APPEND_DOCUMENT_BEGIN (results, "config", &doc);
   BSON_APPEND_UTF8 (&doc, "detail", o->detail);
   BSON_APPEND_UTF8 (&doc, "folded", o->folded);
   BSON_APPEND_UTF8 (&doc, "key", o->key);
   BSON_APPEND_UTF8 (&doc, "array_field", o->array_field);
   BSON_APPEND_BOOL (&doc, "cold", true);
   BSON_APPEND_INT32 (&doc, "parallel", o->parallel);
   BSON_APPEND_INT32 (&doc, "runs", 1);
   BSON_APPEND_INT64 (&doc, "keys_limit", o->keys_limit);
   BSON_APPEND_INT64 (&doc, "cache_size_bytes", (int64_t)cache);
   BSON_APPEND_DOUBLE (&doc, LAB_RESULTS_KEY_CACHE_RATIO, ratio);
   BSON_APPEND_BOOL (&doc, "predict", true);
   bson_append_document_end (results, &doc);
}

/* lab_predict_run -- see predict.h. */
bool
lab_predict_run (lab_store_t *store, const lab_scan_opts_t *o, bson_t *results, bson_error_t *error)
{
   lab_store_session_t *sess = NULL;
   probe_t p;
   timing_t t;
   layouts_t l;
   traces_t tr, groups[SAMPLE_GROUPS];
   int64_t *load = NULL, nload = 0;
   uint64_t *caches = NULL, t0 = lab_now_ns ();
   double *ratios = NULL, probe_s;
   size_t n = 0, i, ref;
   int ngroups = 0, g;
   char ts[32];
   bson_t arr;
   bool ok = false;

   memset (&p, 0, sizeof p);
   memset (&t, 0, sizeof t);
   memset (&tr, 0, sizeof tr);
   memset (groups, 0, sizeof groups);
   p.sample = o->predict_sample > 0 && o->predict_sample < 1 ? o->predict_sample : 1.0;
   if (o->nlayouts > 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--predict with --layout: the prediction probes one collection of one document per row, "
                     "named by --detail (the folded layout is predicted, not read)");
      return false;
   }
   lab_scan_utc_now (ts, sizeof ts);
   if (!(sess = lab_store_session_open (store, error))) {
      goto done;
   }
   if (!lab_store_stats (sess, o->detail, &p.st, error)) {
      lab_error_prefix (error, "statistics of %s", o->detail);
      goto done;
   }
   /* the index walk first, on an engine that has read nothing yet: its bytes read are its own */
   if (!lab_predict_probe_walk (sess, store, o, &p, error)) {
      goto done;
   }
   lab_predict_probe_leaf_pages (sess, store, o, &p);
   lab_predict_probe_footprint (sess, store, o, &p);
   /* after the footprint: the sample fold's pages must not count in it */
   if (!lab_predict_probe_fold (sess, o, &p, error)) {
      goto done;
   }
   probe_s = (double)(lab_now_ns () - t0) / 1e9;
   lab_store_session_close (sess);
   sess = NULL;
   lab_log_info ("probe of %s: %lld masters, %lld index entries in %.2f s (%lld documents fetched)",
                 o->detail, (long long)p.nkeys, (long long)p.entries, probe_s,
                 (long long)p.documents_fetched);
   if (o->calibrate) {
      if (lab_store_backend (store) != LAB_BACKEND_WT) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                        "--predict --calibrate times a sample loaded cold, which needs the embedded store "
                        "(a server would have to be restarted): leave --calibrate out for read "
                        "amplification only");
         goto done;
      }
      if (!lab_predict_calibrate (store, o, &p, &t, error)) {
         goto done;
      }
      lab_log_info ("timed sample: %lld documents, %.4f ms per document warm, %.4f ms per page read",
                    (long long)t.docs, t.doc_s * 1e3, t.miss_s * 1e3);
   }

   load = loaded_masters (o, p.nkeys, &nload);
   traces_build (o, &p, load, nload, 0, p.sample, &tr);
   if (tr.mini.nload == 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_KEYS,
                     "nothing to predict: none of the %lld masters loaded is in the sample of %s (sample a "
                     "larger share, or load more masters)",
                     (long long)nload, o->detail);
      goto done;
   }
   if (p.sample < 1) {
      double pages = lab_stackdist_pages (tr.sd[0], LAB_PREDICT_DATA);
      p.sample_per_page = pages > 0 ? lab_stackdist_accesses (tr.sd[0], LAB_PREDICT_DATA) / pages : 0;
      if (p.sample_per_page < SAMPLE_MIN_PER_PAGE) {
         lab_log_info ("sample of %g: %.1f sampled masters per page: %s", p.sample, p.sample_per_page,
                       SAMPLE_WARNING);
      }
      /* the sample split four ways by the same hash: each an estimate of its own, their spread the error */
      ngroups = SAMPLE_GROUPS;
      for (g = 0; g < ngroups; g++) {
         traces_build (o, &p, load, nload, p.sample * g / ngroups, p.sample * (g + 1) / ngroups, &groups[g]);
      }
   }
   layouts_of (&p, &tr.in, tr.folded_pages, &tr.mini, nload, &l);
   if (!resolve_points (o, l.on_disk[0], &caches, &n, error)) {
      goto done;
   }
   ratios = bson_malloc0 (n * sizeof *ratios);
   for (i = 0; i < n; i++) {
      ratios[i] = (double)caches[i] / l.on_disk[0];
   }
   ref = lab_results_sweep_reference_of (ratios, n);

   append_header (results, store, o, ts, caches[ref], ratios[ref]);
   record_dataset (results, o, &p, nload, &l);
   record_prediction (results, o, &p, &tr.in, &l, &t, probe_s);

   BSON_APPEND_INT64 (results, LAB_RESULTS_KEY_SWEEP_REFERENCE, (int64_t)ref);
   BSON_APPEND_ARRAY_BEGIN (results, LAB_RESULTS_KEY_SWEEP, &arr);
   for (i = 0; i < n; i++) {
      char idx[16];
      const char *ik;
      bson_t point;
      bson_uint32_to_string ((uint32_t)i, &ik, idx, sizeof idx);
      BSON_APPEND_DOCUMENT_BEGIN (&arr, ik, &point);
      append_point (&point, caches[i], ratios[i], &tr, groups, ngroups, &l, o, nload, &t);
      bson_append_document_end (&arr, &point);
   }
   bson_append_array_end (results, &arr);
   {
      /* the top level repeats the reference point, as a measured sweep's does: from a copy, since
       * appending to `results` may move the bytes a view of its point would read */
      lab_sweep_point_t rp;
      bson_iter_t it;
      if (lab_results_sweep_point (results, ref, &rp)) {
         bson_t *copy = bson_copy (&rp.doc);
         if (bson_iter_init_find (&it, copy, LAB_RESULTS_KEY_RUNS)) {
            bson_append_iter (results, LAB_RESULTS_KEY_RUNS, -1, &it);
         }
         if (bson_iter_init_find (&it, copy, LAB_RESULTS_KEY_SUMMARY)) {
            bson_append_iter (results, LAB_RESULTS_KEY_SUMMARY, -1, &it);
         }
         bson_destroy (copy);
      }
   }
   lab_scan_utc_now (ts, sizeof ts);
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_FINISHED, ts);
   ok = lab_results_sweep_check (results, error);
done:
   lab_store_session_close (sess);
   traces_cleanup (&tr);
   for (g = 0; g < SAMPLE_GROUPS; g++) {
      traces_cleanup (&groups[g]);
   }
   lab_predict_probe_cleanup (&p);
   bson_free (load);
   bson_free (caches);
   bson_free (ratios);
   return ok;
}

/* lab_predict_table_render -- see predict.h. */
char *
lab_predict_table_render (const bson_t *results)
{
   bson_string_t *s = bson_string_new (NULL);
   char *sweep = lab_scan_sweep_table_render (results);
   const char *coll = lab_results_get_string (results, "prediction.source_collection");
   double v, docs = 0, walk = 0;

   lab_results_get_number (results, "prediction.probe.documents_fetched", &docs);
   bson_string_append_printf (s, "\nPREDICTED from a read-only probe of %s (nothing folded, nothing loaded)",
                              coll ? coll : "the detail collection");
   if (lab_results_get_number (results, "prediction.probe.elapsed_s", &v)) {
      bson_string_append_printf (s, ": %.2f s", v);
   }
   if (lab_results_get_number (results, "prediction.probe.index_walk_read_bytes", &walk)) {
      bson_string_append_printf (s, ", %.1f MiB of index read", walk / 1048576.0);
   }
   bson_string_append_printf (s, ", %.0f documents fetched\n", docs);
   if (sweep) {
      bson_string_append (s, sweep);
      bson_free (sweep);
   }
   if (lab_results_get_number (results, "prediction.sample.fraction", &v)) {
      /* --sample: each figure's sampling error, point by point */
      size_t n = lab_results_sweep_n (results), i;
      double m = 0;
      lab_results_get_number (results, "prediction.sample.masters", &m);
      bson_string_append_printf (s,
                                 "Sampled %.3g%% of the masters (%.0f, by a hash of the key); read "
                                 "amplification ± its sampling error:",
                                 v * 100, m);
      for (i = 0; i < n; i++) {
         char path[96];
         double r = 0, a[2] = { 0, 0 }, e[2] = { 0, 0 };
         int l;
         snprintf (path, sizeof path, "sweep.%zu.cache_ratio", i);
         lab_results_get_number (results, path, &r);
         for (l = 0; l < 2; l++) {
            const char *name = l == 0 ? LAB_RESULTS_DETAIL : LAB_RESULTS_FOLDED;
            snprintf (path, sizeof path, "sweep.%zu.%s.read_amplification", i, name);
            lab_results_get_number (results, path, &a[l]);
            snprintf (path, sizeof path, "sweep.%zu.%s.read_amplification_sampling_error", i, name);
            lab_results_get_number (results, path, &e[l]);
         }
         bson_string_append_printf (s, "%s ratio %.2f: detail %.3g ± %.2g, folded %.3g ± %.2g", i ? ";" : "",
                                    r, a[0], e[0], a[1], e[1]);
      }
      bson_string_append (s, "\n");
      if (lab_results_get_string (results, "prediction.sample.warning")) {
         bson_string_append_printf (s, "Warning: %s.\n",
                                    lab_results_get_string (results, "prediction.sample.warning"));
      }
   }
   if (!lab_results_get_number (results, "prediction.timing.doc_s", &v)) {
      bson_string_append (s, "Load times and speedups need --calibrate (a timed sample of masters on the "
                             "embedded store); read amplification needs nothing more.\n");
   }
   return bson_string_free (s, false);
}
