/*
 * predict_cost.c -- the prediction's load time from the probe's cost figures (predict_cost.h): the
 * combination (pure), the work of a layout's load at a point, the pages the workers share, the figures
 * recorded in "prediction.cost" and the terminal view of each point's "speed" (predict_speed.c).
 */
#include "scan/predict/predict_private.h"

#include "core/results.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* lab_scan_predict_cost_seconds -- see predict_cost.h. */
double
lab_scan_predict_cost_seconds (const lab_scan_predict_cost_t *c, const lab_scan_predict_work_t *w,
                               double *device_s, double *cpu_s)
{
   int par = c->parallel > 0 ? c->parallel : 1;
   int share = c->cores > 0 && c->cores < par ? c->cores : par;
   double first = w->first < w->misses ? w->first : w->misses, again = w->misses - first;
   double shared = w->shared < 0 ? 0 : w->shared > 1 ? 1 : w->shared;
   double per_read = w->misses > 0 ? w->read_bytes / w->misses : 0;
   double inflated = w->misses > 0 ? w->inflated / w->misses : 0;
   double cpu_first, cpu_again, wait, cpu, chain;

   if (!c->done) {
      return -1;
   }
   /* a page's CPU: the probe's own page reads; one read again reuses an evicted page's memory, and costs
    * at least its decompression */
   cpu_first = fmax (c->read_cpu_s, inflated * c->inflate_byte_s);
   cpu_again = fmax (c->read_cpu_s - w->page_mem * c->fresh_byte_s, inflated * c->inflate_byte_s);
   /* a read larger in memory than the probe's pages: its extra bytes' fresh memory and decompression */
   if (c->read_page_mem > 0 && inflated > c->read_page_mem) {
      double extra = (inflated - c->read_page_mem) * (c->fresh_byte_s + c->inflate_byte_s);
      cpu_first += extra;
      cpu_again += extra;
   }
   /* a read's wait on the device: its latency at `parallel` readers (--calibrate: the timed sample's page
    * read less its CPU) */
   wait = c->read_s + per_read * c->read_byte_s;
   if (c->calibrated) {
      wait = fmax (c->first_read_s - c->read_cpu_s, 0);
   }
   cpu = first * cpu_first + again * cpu_again + w->keys * c->lookup_s + w->docs * c->doc_s +
         w->bytes * c->copy_byte_s + w->rows * c->row_s[w->layout ? 1 : 0];
   /* each worker's reads and CPU one after the other; a first read of a page several workers walk is
    * read by one while the others wait on it */
   chain = first * (cpu_first + wait) / pow ((double)par, 1 - shared) +
           (cpu - first * cpu_first + again * wait) / par;
   if (device_s) {
      *device_s = w->misses * wait;
   }
   if (cpu_s) {
      *cpu_s = cpu;
   }
   /* the cores: at most min(workers, cores) of the CPU at once */
   return fmax (chain, cpu / share);
}

/* lab_scan_predict_cost_fit -- see predict_cost.h. */
void
lab_scan_predict_cost_fit (const double *x, const double *y, int n, double *a, double *b)
{
   double sx = 0, sy = 0, sxx = 0, sxy = 0, d;
   int i;

   for (i = 0; i < n; i++) {
      sx += x[i];
      sy += y[i];
      sxx += x[i] * x[i];
      sxy += x[i] * y[i];
   }
   d = n * sxx - sx * sx;
   *a = 0;
   *b = sx > 0 ? sy / sx : 0;
   if (n >= 2 && d > 0) {
      double slope = (n * sxy - sx * sy) / d, icpt = (sy - slope * sx) / n;
      if (slope >= 0 && icpt >= 0) {
         *a = icpt;
         *b = slope;
      }
   }
}

/* lab_scan_predict_shared -- see predict_private.h. */
double
lab_scan_predict_shared (const lab_scan_predict_input_t *in, int layout)
{
   int p = in->parallel > 0 ? in->parallel : 1, wk;
   int64_t *starts = bson_malloc0 ((size_t)(p + 1) * sizeof *starts), npages = 0, nshared = 0, k;
   int64_t *page_of = NULL, *owner = NULL, cap = 0;
   double rpp = in->rows_per_page > 0 ? in->rows_per_page : 1;
   size_t j;

   if (layout == 1) {
      /* the folded pages as the trace packs them: masters in key order */
      double *bytes = bson_malloc0 ((size_t)(in->nmasters + 1) * sizeof *bytes);
      page_of = bson_malloc0 ((size_t)(in->nmasters + 1) * sizeof *page_of);
      for (k = 0; k < in->nmasters; k++) {
         bytes[k] = in->folded_master_bytes + (double)in->nrids[k] * in->folded_row_bytes;
      }
      lab_scan_predict_pack_docs (bytes, in->nmasters, in->folded_page_max, in->folded_compress_ratio,
                                  page_of);
      bson_free (bytes);
   }
   lab_scan_keys_segment (in->nload, p, starts);
   for (wk = 0; wk < p; wk++) {
      int64_t first = starts[wk], end = starts[wk + 1], stride = 1;
      if (in->perm) {
         lab_scan_keys_share (LAB_LOAD_ORDER_RANDOM, in->nload, p, wk, &first, &end, &stride);
      }
      for (k = first; k < end; k += stride) {
         int64_t m = in->load[in->perm ? in->perm[k] : k];
         size_t n = layout == 1 ? 1 : in->nrids[m];
         for (j = 0; j < n && (layout == 1 || in->rids[m]); j++) {
            int64_t pg =
               layout == 1 ? page_of[m] : (int64_t)floor ((double)(in->rids[m][j] - in->min_rid) / rpp);
            if (pg < 0) {
               pg = 0;
            }
            if (pg >= cap) {
               int64_t ncap = pg * 2 + 64, q;
               owner = bson_realloc (owner, (size_t)ncap * sizeof *owner);
               for (q = cap; q < ncap; q++) {
                  owner[q] = -1; /* not touched yet; -2: touched by two workers or more */
               }
               cap = ncap;
            }
            if (owner[pg] == -1) {
               owner[pg] = wk;
               npages++;
            } else if (owner[pg] >= 0 && owner[pg] != wk) {
               owner[pg] = -2;
               nshared++;
            }
         }
      }
   }
   bson_free (starts);
   bson_free (page_of);
   bson_free (owner);
   return npages > 0 ? (double)nshared / (double)npages : 0;
}

/* lab_scan_predict_work_of -- see predict_private.h: the pages' bytes in memory from the layout's bytes on
 * disk to its documents' bytes; its first reads the trace's distinct pages (a sample's scaled up as
 * scaled_read_bytes scales them: at most the layout's pages). */
void
lab_scan_predict_work_of (const traces_t *tr, const layouts_t *l, int layout, int64_t nload, double misses,
                          double read_bytes, lab_scan_predict_work_t *w)
{
   double inflate = l->storage[layout] > 0 ? l->data_bytes[layout] / l->storage[layout] : 1;
   double rate = tr->mini.rate > 0 ? tr->mini.rate : 1;
   int cls;

   memset (w, 0, sizeof *w);
   w->layout = layout;
   w->misses = misses;
   for (cls = LAB_PREDICT_DATA; cls <= LAB_PREDICT_DATA_AGAIN; cls++) {
      double cold = lab_scan_stackdist_pages (tr->sd[layout], cls),
             whole = l->pages[layout][cls < 2 ? cls : 0];
      w->first += rate < 1 ? fmin (cold / rate, whole > 0 ? whole : cold / rate) : cold;
   }
   w->shared = tr->shared[layout];
   w->page_mem = layout == 0 ? tr->in.page_cache_bytes : tr->in.folded_page_cache_bytes;
   w->read_bytes = read_bytes;
   /* index pages are not block-compressed: their bytes count as read; data pages inflate */
   w->inflated = read_bytes * (inflate > 1 ? inflate : 1);
   w->keys = (double)nload;
   w->docs = l->docs[layout];
   w->rows = l->rows;
   w->bytes = l->bytes[layout];
}

/* lab_scan_predict_record_cost -- "cost" in `d`: the figures and where they come from. */
void
lab_scan_predict_record_cost (bson_t *d, const lab_scan_predict_cost_t *c)
{
   bson_t doc;
   char src[256];

   BSON_APPEND_DOCUMENT_BEGIN (d, "cost", &doc);
   if (!c->done) {
      BSON_APPEND_UTF8 (&doc, "not_measured", c->not_measured ? c->not_measured : "not measured");
      bson_append_document_end (d, &doc);
      return;
   }
   BSON_APPEND_UTF8 (
      &doc, "method",
      "elapsed = max(CPU / min(parallel, cores), a worker's chain); CPU = misses x read_cpu_s "
      "(a page read again: less page_mem x fresh_byte_s; a read larger in memory than read_page_mem: its "
      "extra bytes x (fresh_byte_s + inflate_byte_s) more) + keys x lookup_s + documents x doc_s + "
      "bytes returned x copy_byte_s + rows x row_s; chain = (CPU + misses x (read_s + bytes "
      "per read x read_byte_s)) / parallel, a first read of a page the workers share not shared "
      "out");
   BSON_APPEND_UTF8 (&doc, "model_version", LAB_PREDICT_COST_VERSION);
   bson_snprintf (src, sizeof src, "measured by the probe: %lld pages, %lld rows%s",
                  (long long)(c->device_reads + c->first_pages), (long long)c->cpu_rows,
                  c->calibrated ? " (the first read refined by --calibrate)" : "");
   BSON_APPEND_UTF8 (&doc, "source", src);
   BSON_APPEND_INT32 (&doc, "parallel", c->parallel);
   BSON_APPEND_INT32 (&doc, "cores", c->cores);
   BSON_APPEND_DOUBLE (&doc, "first_read_s", c->first_read_s);
   BSON_APPEND_UTF8 (&doc, "first_read_source",
                     c->calibrated
                        ? "refined by --calibrate: a sample of masters loaded cold minus warm, per "
                          "page read"
                     : c->first_pages > 0 ? "measured by the probe: its leaf count's seconds per page read "
                                            "into the cache (one reader)"
                                          : "default: read_s x parallel (the leaf count read no page)");
   BSON_APPEND_INT64 (&doc, "first_pages", c->first_pages);
   BSON_APPEND_DOUBLE (&doc, "read_cpu_s", c->read_cpu_s);
   BSON_APPEND_DOUBLE (&doc, "read_page_mem", c->read_page_mem);
   BSON_APPEND_UTF8 (&doc, "read_cpu_source",
                     "measured by the probe: its leaf count's process CPU seconds per page read into the "
                     "cache (decompression, the page built; CPU, not wall)");
   BSON_APPEND_DOUBLE (&doc, "fresh_byte_s", c->fresh_byte_s);
   BSON_APPEND_DOUBLE (&doc, "read_s", c->read_s);
   BSON_APPEND_DOUBLE (&doc, "read_byte_s", c->read_byte_s);
   BSON_APPEND_DOUBLE (&doc, "inflate_byte_s", c->inflate_byte_s);
   BSON_APPEND_DOUBLE (&doc, "lookup_s", c->lookup_s);
   BSON_APPEND_DOUBLE (&doc, "doc_s", c->doc_s);
   BSON_APPEND_DOUBLE (&doc, "copy_byte_s", c->copy_byte_s);
   BSON_APPEND_DOUBLE (&doc, "row_s_detail", c->row_s[0]);
   BSON_APPEND_DOUBLE (&doc, "row_s_folded", c->row_s[1]);
   BSON_APPEND_UTF8 (&doc, "device_source",
                     "measured by the probe: the collection's file read at random pages, the median read's "
                     "latency");
   BSON_APPEND_INT64 (&doc, "device_reads", c->device_reads);
   BSON_APPEND_INT64 (&doc, "device_bytes", c->device_bytes);
   BSON_APPEND_UTF8 (&doc, "device_how", c->device_how ? c->device_how : "");
   BSON_APPEND_UTF8 (&doc, "cpu_source",
                     "measured by the probe: the sample fold's masters found again warm (engine), their rows "
                     "and their folded documents decoded and digested in memory (the load's work)");
   BSON_APPEND_INT64 (&doc, "cpu_masters", c->cpu_masters);
   BSON_APPEND_INT64 (&doc, "cpu_rows", c->cpu_rows);
   BSON_APPEND_INT32 (&doc, "cpu_repetitions", c->cpu_reps);
   BSON_APPEND_DOUBLE (&doc, "elapsed_s", c->probe_s);
   bson_append_document_end (d, &doc);
}

/* lab_scan_predict_speed_render -- see predict_private.h. */
bool
lab_scan_predict_speed_render (const bson_t *results, bson_string_t *s)
{
   static const char *const orders[2] = { "key", "random" };
   const char *src = lab_results_get_string (results, "prediction.cost.source");
   size_t n = lab_results_sweep_n (results), i;
   double v;
   int k;

   if (!src || !lab_results_get_number (results, "sweep.0.speed.key.detail_s", &v)) {
      return false;
   }
   bson_string_append_printf (s, "Predicted load time (cost %s):\n", src);
   bson_string_append_printf (s, "%10s %6s  %-8s %10s %10s %8s\n", "cache MiB", "ratio", "order", "detail s",
                              "folded s", "speedup");
   for (i = 0; i < n; i++) {
      char path[96];
      double c = 0, r = 0, d, f, x;
      snprintf (path, sizeof path, "sweep.%zu.cache_size_bytes", i);
      lab_results_get_number (results, path, &c);
      snprintf (path, sizeof path, "sweep.%zu.cache_ratio", i);
      lab_results_get_number (results, path, &r);
      for (k = 0; k < 2; k++) {
         snprintf (path, sizeof path, "sweep.%zu.speed.%s.detail_s", i, orders[k]);
         if (!lab_results_get_number (results, path, &d)) {
            continue;
         }
         snprintf (path, sizeof path, "sweep.%zu.speed.%s.folded_s", i, orders[k]);
         lab_results_get_number (results, path, &f);
         snprintf (path, sizeof path, "sweep.%zu.speed.%s.speedup", i, orders[k]);
         if (!lab_results_get_number (results, path, &x)) {
            x = 0;
         }
         bson_string_append_printf (s, "%10.1f %6.2f  %-8s %10.3f %10.3f %7.2fx\n", c / 1048576.0, r,
                                    orders[k], d, f, x);
      }
   }
   return true;
}
