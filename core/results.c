/*
 * results.c -- the one results model: schema key access, the summary writer, the metric catalogue,
 * the median/ratio/winner arithmetic and the value formatting shared by scancmp's table and
 * layout-report. Pure functions of the results document.
 */
#include "core/results.h"
#include "core/results_private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* ---- the metric catalogue ------------------------------------------------------------------------ */

/* Every comparison table's rows, in order: the original experiment's (documents, parallel load time,
 * peak read requests/s, peak read throughput, data returned, memory, cache) and more. Names follow the
 * schema's flattening rule (lab_results_flat_name of run_path; the unit test checks it).
 *
 * Rates of the device (read requests/s, MB/s, %util) are descriptive, never a winner. The original
 * experiment read a lower peak of read requests/s as the goal, but a rate is work divided by time: a
 * layout that issues the same requests in half the time shows twice the rate, and a layout that
 * finishes sooner because it reads less can still peak higher. The totals (disk read requests, disk
 * bytes read, engine block reads) and the load time answer "which layout costs the disk less" without
 * that ambiguity, so they carry the direction; the rates stay in the table to show how hard the device
 * was driven. */
static const lab_metric_t metrics[] = {
   /* dataset.<layout>: the collections as measured before the runs */
   /* descriptive: folding makes fewer documents by construction; that is the change, not an outcome */
   { "count", NULL, "documents in collection", LAB_UNIT_COUNT, LAB_DESCRIPTIVE },
   /* lower: fewer bytes on disk to read cold and to hold in cache */
   { "storage_size_bytes", NULL, "storage size (on disk)", LAB_UNIT_BYTES, LAB_BETTER_LOWER },
   /* lower: the key index is read before the documents on every lookup */
   { "index_size_bytes", NULL, "index size", LAB_UNIT_BYTES, LAB_BETTER_LOWER },

   /* lower: the experiment's question is how long loading every master's rows takes */
   { "elapsed_s", "elapsed_s", "parallel load time", LAB_UNIT_SECONDS, LAB_BETTER_LOWER },
   /* descriptive: the same masters are loaded from both layouts (the work, not a result) */
   { "keys", "keys", "masters loaded", LAB_UNIT_COUNT, LAB_DESCRIPTIVE },
   /* descriptive: one per row vs one per master follows from the layout */
   { "docs", "docs", "documents read", LAB_UNIT_COUNT, LAB_DESCRIPTIVE },
   /* descriptive: both layouts must return the same rows; a difference is an error, not a win */
   { "rows", "rows", "detail rows returned", LAB_UNIT_COUNT, LAB_DESCRIPTIVE },
   /* lower: total device requests for the same rows, the unambiguous cost of scattered rows */
   { "read_requests", "read_requests", "disk read requests", LAB_UNIT_COUNT, LAB_BETTER_LOWER },
   /* lower: total device bytes for the same rows */
   { "read_bytes", "read_bytes", "disk bytes read", LAB_UNIT_BYTES, LAB_BETTER_LOWER },
   /* higher: the same bytes in larger requests means fewer seeks; a mean of the totals above */
   { "avg_read_request_bytes", "rates.avg_read_request_bytes", "average read request size", LAB_UNIT_BYTES,
     LAB_BETTER_HIGHER },
   /* descriptive: a rate (see above); the total read requests decide */
   { "read_requests_per_s_peak", "rates.read_requests_per_s_peak", "peak disk read requests/s", LAB_UNIT_RATE,
     LAB_DESCRIPTIVE },
   /* descriptive: a rate (see above) */
   { "read_requests_per_s_mean", "rates.read_requests_per_s_mean", "mean disk read requests/s", LAB_UNIT_RATE,
     LAB_DESCRIPTIVE },
   /* descriptive: a rate (see above); the total bytes read decide */
   { "read_mb_s_peak", "rates.read_mb_s_peak", "peak disk read throughput", LAB_UNIT_MB_S, LAB_DESCRIPTIVE },
   /* descriptive: a rate (see above) */
   { "read_mb_s_mean", "rates.read_mb_s_mean", "mean disk read throughput", LAB_UNIT_MB_S, LAB_DESCRIPTIVE },
   /* lower: time each read request waited on the device (queueing behind scattered reads) */
   { "read_await_ms", "rates.read_await_ms", "mean read wait (r_await)", LAB_UNIT_MS, LAB_BETTER_LOWER },
   /* descriptive: how saturated the device was, a rate like the ones above */
   { "util_pct_mean", "rates.util_pct_mean", "device busy (%util, mean)", LAB_UNIT_PCT, LAB_DESCRIPTIVE },
   /* descriptive: hoisting makes the folded layout return fewer bytes for the same rows */
   { "bytes_returned", "bytes_returned", "data returned by the store", LAB_UNIT_BYTES, LAB_DESCRIPTIVE },
   /* descriptive: bytes per second depend on hoisting (above); rows per second is the fair throughput */
   { "returned_mb_s", "rates.returned_mb_s", "data returned per second", LAB_UNIT_MB_S, LAB_DESCRIPTIVE },
   /* higher: the useful work (the same rows on both sides) per second */
   { "rows_per_s", "rates.rows_per_s", "detail rows per second", LAB_UNIT_RATE, LAB_BETTER_HIGHER },
   /* descriptive: documents per second differ by the layout's rows per document */
   { "docs_per_s", "rates.docs_per_s", "documents per second", LAB_UNIT_RATE, LAB_DESCRIPTIVE },
   /* lower: memory the server needed for the same rows */
   { "server_rss_peak_bytes", "memory.server_rss_peak_bytes", "server memory (peak RSS)", LAB_UNIT_BYTES,
     LAB_BETTER_LOWER },
   /* lower: engine cache the load occupied */
   { "cache_peak_bytes", "memory.cache_peak_bytes", "engine cache used (peak)", LAB_UNIT_BYTES,
     LAB_BETTER_LOWER },
   /* lower: the same, as a share of the configured maximum */
   { "cache_peak_pct", "memory.cache_peak_pct", "engine cache used (peak, % of max)", LAB_UNIT_PCT,
     LAB_BETTER_LOWER },
   /* lower: the same rows for less CPU is a real saving on a shared server (this process when embedded,
    * a server on this machine; absent for a remote one) */
   { "cpu_process_s", "cpu.process_s", "CPU time of the store's process", LAB_UNIT_SECONDS,
     LAB_BETTER_LOWER },
   /* descriptive: how busy that process kept the CPUs it may use, a rate like the device's; near 100% the
    * load was bound by the CPU, not the disk */
   { "cpu_busy_pct_mean", "cpu.busy_pct_mean", "CPU busy (% of its cores, mean)", LAB_UNIT_PCT,
     LAB_DESCRIPTIVE },
   /* lower: a total, the engine's count of blocks it had to read */
   { "block_reads", "engine.block_reads", "engine block reads", LAB_UNIT_COUNT, LAB_BETTER_LOWER },
   /* lower: a total, bytes the engine brought into its cache */
   { "cache_read_bytes", "engine.cache_read_bytes", "bytes read into engine cache", LAB_UNIT_BYTES,
     LAB_BETTER_LOWER },
   /* lower: time to load one master's rows, as a client sees it */
   { "latency_p50_ms", "latency_ms.p50", "per-master latency p50", LAB_UNIT_MS, LAB_BETTER_LOWER },
   { "latency_p95_ms", "latency_ms.p95", "per-master latency p95", LAB_UNIT_MS, LAB_BETTER_LOWER },
   { "latency_p99_ms", "latency_ms.p99", "per-master latency p99", LAB_UNIT_MS, LAB_BETTER_LOWER },
   { "latency_max_ms", "latency_ms.max", "per-master latency max", LAB_UNIT_MS, LAB_BETTER_LOWER },
   /* descriptive: how cold the run started, a check of the procedure, not a result of the layout */
   { "resident_pct_before", "cold.resident_pct_before", "data files resident before the run", LAB_UNIT_PCT,
     LAB_DESCRIPTIVE },
};

/* lab_results_metrics -- see results.h. */
const lab_metric_t *
lab_results_metrics (size_t *n)
{
   *n = sizeof metrics / sizeof metrics[0];
   return metrics;
}

/* lab_results_metric_find -- see results.h. */
const lab_metric_t *
lab_results_metric_find (const char *name)
{
   size_t i;

   for (i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
      if (strcmp (metrics[i].name, name) == 0) {
         return &metrics[i];
      }
   }
   return NULL;
}

/* ---- key access ---------------------------------------------------------------------------------- */

/* lab_results_get_number -- see results.h. */
bool
lab_results_get_number (const bson_t *doc, const char *path, double *out)
{
   bson_iter_t it, child;

   if (!bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &child)) {
      return false;
   }
   switch (bson_iter_type (&child)) {
   case BSON_TYPE_INT32:
   case BSON_TYPE_INT64:
   case BSON_TYPE_DOUBLE:
      *out = bson_iter_as_double (&child);
      return true;
   default:
      return false;
   }
}

/* lab_results_sample_knee -- see results.h. */
bool
lab_results_sample_knee (const bson_t *doc, double *sample_ratio, double *moved_ratio)
{
   return lab_results_get_number (doc, "prediction.sample.knee.detail.sample_cache_ratio", sample_ratio) &&
          lab_results_get_number (doc, "prediction.sample.knee.detail.moved_cache_ratio", moved_ratio);
}

/* lab_results_get_int -- see results.h. */
bool
lab_results_get_int (const bson_t *doc, const char *path, int64_t *out)
{
   double v;

   if (!lab_results_get_number (doc, path, &v)) {
      return false;
   }
   *out = (int64_t)llround (v);
   return true;
}

/* lab_results_get_string -- see results.h. */
const char *
lab_results_get_string (const bson_t *doc, const char *path)
{
   bson_iter_t it, child;

   if (!bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &child) ||
       !BSON_ITER_HOLDS_UTF8 (&child)) {
      return NULL;
   }
   return bson_iter_utf8 (&child, NULL);
}

/* lab_results_get_bool -- see results.h. */
bool
lab_results_get_bool (const bson_t *doc, const char *path, bool *out)
{
   bson_iter_t it, child;

   if (!bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &child) ||
       !BSON_ITER_HOLDS_BOOL (&child)) {
      return false;
   }
   *out = bson_iter_bool (&child);
   return true;
}

/* lab_results_header -- see results.h. */
const char *
lab_results_header (const bson_t *results, const char *key)
{
   static const char *const old[][2] = { { LAB_RESULTS_KEY_VERSION, "tool_version" },
                                         { LAB_RESULTS_KEY_STARTED, "started_at" },
                                         { LAB_RESULTS_KEY_FINISHED, "finished_at" } };
   const char *v = lab_results_get_string (results, key);
   size_t i;

   for (i = 0; !v && i < sizeof old / sizeof old[0]; i++) {
      if (strcmp (key, old[i][0]) == 0) {
         v = lab_results_get_string (results, old[i][1]);
      }
   }
   return v;
}

/* lab_results_flat_name -- see results.h. */
void
lab_results_flat_name (const char *run_path, char *buf, size_t len)
{
   const char *dot = strchr (run_path, '.');

   if (!dot) {
      bson_strncpy (buf, run_path, len);
   } else if (strncmp (run_path, "latency_ms.", strlen ("latency_ms.")) == 0) {
      snprintf (buf, len, "latency_%s_ms", dot + 1);
   } else if (strncmp (run_path, "cpu.", strlen ("cpu.")) == 0) {
      /* "cores" and "process_s" alone would not say whose */
      snprintf (buf, len, "cpu_%s", dot + 1);
   } else {
      bson_strncpy (buf, dot + 1, len);
   }
}

/* ---- summary: medians over runs ------------------------------------------------------------------ */

typedef struct {
   char name[64];
   double *v;
   size_t n, cap;
} figure_t;

typedef struct {
   figure_t *f;
   size_t n, cap;
} figures_t;

/* figures_add -- add one value of the named figure (created on first use, in order of appearance). */
static void
figures_add (figures_t *fs, const char *name, double v)
{
   size_t i;
   figure_t *f = NULL;

   for (i = 0; i < fs->n; i++) {
      if (strcmp (fs->f[i].name, name) == 0) {
         f = &fs->f[i];
         break;
      }
   }
   if (!f) {
      if (fs->n == fs->cap) {
         fs->cap = fs->cap ? fs->cap * 2 : 64;
         fs->f = bson_realloc (fs->f, fs->cap * sizeof *fs->f);
      }
      f = &fs->f[fs->n++];
      memset (f, 0, sizeof *f);
      bson_strncpy (f->name, name, sizeof f->name);
   }
   if (f->n == f->cap) {
      f->cap = f->cap ? f->cap * 2 : 8;
      f->v = bson_realloc (f->v, f->cap * sizeof *f->v);
   }
   f->v[f->n++] = v;
}

/* iter_number -- the iterator's value as a double when it is a number. */
static bool
iter_number (const bson_iter_t *it, double *v)
{
   switch (bson_iter_type (it)) {
   case BSON_TYPE_DOUBLE:
   case BSON_TYPE_INT32:
   case BSON_TYPE_INT64:
      *v = bson_iter_as_double (it);
      return true;
   default:
      return false;
   }
}

/* summarized -- whether a run entry's figure at parent.key (parent NULL: top level) goes into the
 * summary: run numbers and order, the latency sample count and the server process facts do not. */
static bool
summarized (const char *parent, const char *key)
{
   if (!parent) {
      return strcmp (key, "run") != 0 && strcmp (key, "order_in_run") != 0;
   }
   if (strcmp (parent, "latency_ms") == 0) {
      return strcmp (key, "count") != 0;
   }
   if (strcmp (parent, "cold") == 0) {
      return strcmp (key, "server_pid") != 0 && strcmp (key, "server_uptime_s") != 0;
   }
   return strcmp (parent, "rates") == 0 || strcmp (parent, "memory") == 0 || strcmp (parent, "engine") == 0 ||
          strcmp (parent, "cpu") == 0;
}

/* collect_entry -- the numeric figures of one run entry, under their flat names. */
static void
collect_entry (const bson_t *entry, figures_t *fs)
{
   bson_iter_t it, child;
   char path[160], name[64];
   double v;

   if (!bson_iter_init (&it, entry)) {
      return;
   }
   while (bson_iter_next (&it)) {
      const char *k = bson_iter_key (&it);
      if (iter_number (&it, &v)) {
         if (summarized (NULL, k)) {
            figures_add (fs, k, v);
         }
         continue;
      }
      if (!BSON_ITER_HOLDS_DOCUMENT (&it) || !bson_iter_recurse (&it, &child)) {
         continue;
      }
      while (bson_iter_next (&child)) {
         const char *ck = bson_iter_key (&child);
         if (!iter_number (&child, &v) || !summarized (k, ck)) {
            continue;
         }
         snprintf (path, sizeof path, "%s.%s", k, ck);
         lab_results_flat_name (path, name, sizeof name);
         figures_add (fs, name, v);
      }
   }
}

/* summary_layouts -- the distinct "layout" names of entries[0..n), in order of first appearance (at most
 * LAB_RESULTS_MAX_LAYOUTS; pointers into the entries). */
static size_t
summary_layouts (const bson_t *entries, int n, const char **names)
{
   size_t k = 0, j;
   int e;

   for (e = 0; e < n; e++) {
      const char *layout = lab_results_get_string (&entries[e], LAB_RESULTS_KEY_LAYOUT);
      if (!layout) {
         continue;
      }
      for (j = 0; j < k && strcmp (names[j], layout) != 0; j++) {
      }
      if (j == k && k < LAB_RESULTS_MAX_LAYOUTS) {
         names[k++] = layout;
      }
   }
   return k;
}

/* lab_results_summary_append -- see results.h. */
void
lab_results_summary_append (bson_t *results, const bson_t *entries, int n)
{
   const char *layouts[LAB_RESULTS_MAX_LAYOUTS];
   size_t nlayouts = summary_layouts (entries, n, layouts), l;
   bson_t sum;
   int e;

   BSON_APPEND_DOCUMENT_BEGIN (results, LAB_RESULTS_KEY_SUMMARY, &sum);
   for (l = 0; l < nlayouts; l++) {
      figures_t fs = { 0 };
      int nruns = 0;
      bson_t ld;
      size_t i;

      for (e = 0; e < n; e++) {
         const char *layout = lab_results_get_string (&entries[e], LAB_RESULTS_KEY_LAYOUT);
         if (layout && strcmp (layout, layouts[l]) == 0) {
            collect_entry (&entries[e], &fs);
            nruns++;
         }
      }
      bson_append_document_begin (&sum, layouts[l], -1, &ld);
      BSON_APPEND_INT32 (&ld, LAB_RESULTS_KEY_NRUNS, nruns);
      for (i = 0; i < fs.n; i++) {
         lab_stat_t s = lab_results_stat_of (fs.f[i].v, fs.f[i].n);
         bson_t fd;
         bson_append_document_begin (&ld, fs.f[i].name, -1, &fd);
         BSON_APPEND_DOUBLE (&fd, LAB_RESULTS_KEY_MEDIAN, s.median);
         BSON_APPEND_DOUBLE (&fd, LAB_RESULTS_KEY_MIN, s.min);
         BSON_APPEND_DOUBLE (&fd, LAB_RESULTS_KEY_MAX, s.max);
         bson_append_document_end (&ld, &fd);
         bson_free (fs.f[i].v);
      }
      bson_free (fs.f);
      bson_append_document_end (&sum, &ld);
   }
   bson_append_document_end (results, &sum);
}

/* ---- the layouts --------------------------------------------------------------------------------- */

/* lab_results_layout_find -- see results.h. */
int
lab_results_layout_find (const lab_results_layouts_t *ls, const char *name)
{
   size_t i;

   for (i = 0; name && i < ls->n; i++) {
      if (strcmp (ls->l[i].name, name) == 0) {
         return (int)i;
      }
   }
   return -1;
}

/* layout_desc -- l->desc: the descriptor of layouts[i] (`entry`, NULL for a version 1 file) when the file
 * carries one; else, for an older file, what its kind, its provenance and layouts[].order "key" said: a rows
 * layout fold-details wrote with --shape sorted or clustered holds its rows in key order. */
static void
layout_desc (const bson_t *results, const bson_t *entry, size_t i, lab_results_layout_t *l)
{
   bson_iter_t it;
   bson_error_t error;
   char path[200];
   const char *s;

   if (entry && bson_iter_init_find (&it, entry, LAB_RESULTS_KEY_LAYOUT_DESCRIPTOR) &&
       BSON_ITER_HOLDS_DOCUMENT (&it)) {
      uint32_t len;
      const uint8_t *data;
      bson_t d;
      bson_iter_document (&it, &len, &data);
      if (bson_init_static (&d, data, len) && lab_layout_from_bson (&d, &l->desc, &error)) {
         return;
      }
   }
   lab_layout_init (&l->desc, l->name, l->collection, l->kind);
   if (!lab_layout_reads_rows (&l->desc)) {
      return;
   }
   snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.provenance.params.shape", l->name);
   s = lab_results_get_string (results, path);
   if (s && (strcmp (s, "sorted") == 0 || strcmp (s, "clustered") == 0)) {
      lab_layout_shape_parse (s, &l->desc.shape);
      l->desc.clustered = strcmp (s, "clustered") == 0;
      l->desc.recorded = true;
      return;
   }
   snprintf (path, sizeof path, LAB_RESULTS_KEY_LAYOUTS ".%zu.order", i);
   s = entry ? lab_results_get_string (results, path) : NULL;
   if (s && strcmp (s, "key") == 0) {
      l->desc.shape = LAB_LAYOUT_SORTED; /* in key order, by a writer that did not say how */
   }
}

/* lab_results_layouts -- see results.h. */
void
lab_results_layouts (const bson_t *results, lab_results_layouts_t *out)
{
   bson_iter_t it, arr;
   char path[160];
   size_t i;
   int ref = -1;

   memset (out, 0, sizeof *out);
   if (bson_iter_init_find (&it, results, LAB_RESULTS_KEY_LAYOUTS) && BSON_ITER_HOLDS_ARRAY (&it) &&
       bson_iter_recurse (&it, &arr)) {
      while (bson_iter_next (&arr) && out->n < LAB_RESULTS_MAX_LAYOUTS) {
         const uint8_t *data;
         uint32_t len;
         bson_t l;
         const char *name;

         if (!BSON_ITER_HOLDS_DOCUMENT (&arr)) {
            continue;
         }
         bson_iter_document (&arr, &len, &data);
         if (!bson_init_static (&l, data, len) ||
             !(name = lab_results_get_string (&l, LAB_RESULTS_KEY_LAYOUT_NAME)) ||
             lab_results_layout_find (out, name) >= 0) {
            continue;
         }
         out->l[out->n].name = name;
         out->l[out->n].collection = lab_results_get_string (&l, LAB_RESULTS_KEY_LAYOUT_COLLECTION);
         out->l[out->n].kind = lab_results_get_string (&l, LAB_RESULTS_KEY_LAYOUT_KIND);
         if (!out->l[out->n].kind) {
            out->l[out->n].kind = LAB_RESULTS_KIND_ROWS;
         }
         layout_desc (results, &l, out->n, &out->l[out->n]);
         out->n++;
      }
   }
   if (out->n == 0) {
      out->l[0] = (lab_results_layout_t){ LAB_RESULTS_DETAIL, NULL, LAB_RESULTS_KIND_ROWS };
      out->l[1] = (lab_results_layout_t){ LAB_RESULTS_FOLDED, NULL, LAB_RESULTS_KIND_FOLDED };
      out->n = 2;
   }
   for (i = 0; i < out->n; i++) {
      if (!out->l[i].collection) {
         snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.collection", out->l[i].name);
         out->l[i].collection = lab_results_get_string (results, path);
      }
      if (!out->l[i].desc.name[0]) {
         layout_desc (results, NULL, i, &out->l[i]);
      } else if (!out->l[i].desc.collection[0] && out->l[i].collection) {
         bson_strncpy (out->l[i].desc.collection, out->l[i].collection, sizeof out->l[i].desc.collection);
      }
   }
   ref = lab_results_layout_find (out, lab_results_get_string (results, LAB_RESULTS_KEY_REFERENCE_LAYOUT));
   for (i = 0; ref < 0 && i < out->n; i++) {
      if (lab_layout_reads_rows (&out->l[i].desc)) {
         ref = (int)i;
      }
   }
   out->reference = ref < 0 ? 0 : (size_t)ref;
}

/* lab_results_reference_name -- the name of the file's reference layout (lab_results_layouts). */
const char *
lab_results_reference_name (const bson_t *results)
{
   lab_results_layouts_t ls;

   lab_results_layouts (results, &ls);
   return ls.l[ls.reference].name;
}

/* lab_results_layouts_append -- see results.h. */
void
lab_results_layouts_append (bson_t *results, const lab_results_layouts_t *ls)
{
   bson_t arr, d;
   char key[16];
   size_t i;

   BSON_APPEND_ARRAY_BEGIN (results, LAB_RESULTS_KEY_LAYOUTS, &arr);
   for (i = 0; i < ls->n; i++) {
      const char *k;
      bson_uint32_to_string ((uint32_t)i, &k, key, sizeof key);
      BSON_APPEND_DOCUMENT_BEGIN (&arr, k, &d);
      BSON_APPEND_UTF8 (&d, LAB_RESULTS_KEY_LAYOUT_NAME, ls->l[i].name);
      if (ls->l[i].collection) {
         BSON_APPEND_UTF8 (&d, LAB_RESULTS_KEY_LAYOUT_COLLECTION, ls->l[i].collection);
      }
      BSON_APPEND_UTF8 (&d, LAB_RESULTS_KEY_LAYOUT_KIND, ls->l[i].kind);
      if (ls->l[i].desc.name[0]) {
         lab_layout_append (&d, LAB_RESULTS_KEY_LAYOUT_DESCRIPTOR, &ls->l[i].desc);
      }
      bson_append_document_end (&arr, &d);
   }
   bson_append_array_end (results, &arr);
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_REFERENCE_LAYOUT, ls->l[ls->reference].name);
}

/* ---- arithmetic ---------------------------------------------------------------------------------- */

/* runs_stat -- the stat of `run_path` over the runs[] entries of `layout`. */
static lab_stat_t
runs_stat (const bson_t *results, const char *layout, const char *run_path)
{
   bson_iter_t it, runs;
   double *vals = NULL, v, no;
   int *nos = NULL;
   size_t c = 0, cap = 0;
   lab_stat_t s;

   if (bson_iter_init_find (&it, results, LAB_RESULTS_KEY_RUNS) && BSON_ITER_HOLDS_ARRAY (&it) &&
       bson_iter_recurse (&it, &runs)) {
      while (bson_iter_next (&runs)) {
         const uint8_t *data;
         uint32_t len;
         bson_t run;
         const char *l;

         if (!BSON_ITER_HOLDS_DOCUMENT (&runs)) {
            continue;
         }
         bson_iter_document (&runs, &len, &data);
         if (!bson_init_static (&run, data, len)) {
            continue;
         }
         l = lab_results_get_string (&run, LAB_RESULTS_KEY_LAYOUT);
         if (!l || strcmp (l, layout) != 0 || !lab_results_get_number (&run, run_path, &v)) {
            continue;
         }
         if (c == cap) {
            cap = cap ? cap * 2 : 8;
            vals = bson_realloc (vals, cap * sizeof *vals);
            nos = bson_realloc (nos, cap * sizeof *nos);
         }
         nos[c] = lab_results_get_number (&run, "run", &no) ? (int)no : 0;
         vals[c++] = v;
      }
   }
   s = lab_results_stat_runs (vals, nos, c);
   bson_free (vals);
   bson_free (nos);
   return s;
}

/* lab_results_metric_stat -- see results.h. */
lab_stat_t
lab_results_metric_stat (const bson_t *results, const char *layout, const lab_metric_t *m)
{
   lab_stat_t s = { 0 };
   char path[256];
   double nruns;

   if (!m->run_path) {
      snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.%s", layout, m->name);
      if (lab_results_get_number (results, path, &s.median)) {
         s.present = true;
         s.n = 1;
         s.min = s.max = s.median;
      }
      return s;
   }
   snprintf (path, sizeof path, LAB_RESULTS_KEY_SUMMARY ".%s.%s." LAB_RESULTS_KEY_MEDIAN, layout, m->name);
   if (!lab_results_get_number (results, path, &s.median)) {
      return runs_stat (results, layout, m->run_path);
   }
   {
      /* the summary's figures, with the runs' own values for the paired rule */
      lab_stat_t r = runs_stat (results, layout, m->run_path);
      memcpy (s.run_v, r.run_v, sizeof s.run_v);
      memcpy (s.run_no, r.run_no, sizeof s.run_no);
      s.nrun = r.nrun;
   }
   s.present = true;
   s.min = s.max = s.median;
   snprintf (path, sizeof path, LAB_RESULTS_KEY_SUMMARY ".%s.%s." LAB_RESULTS_KEY_MIN, layout, m->name);
   lab_results_get_number (results, path, &s.min);
   snprintf (path, sizeof path, LAB_RESULTS_KEY_SUMMARY ".%s.%s." LAB_RESULTS_KEY_MAX, layout, m->name);
   lab_results_get_number (results, path, &s.max);
   snprintf (path, sizeof path, LAB_RESULTS_KEY_SUMMARY ".%s." LAB_RESULTS_KEY_NRUNS, layout);
   s.n = lab_results_get_number (results, path, &nruns) ? (int)nruns
                                                        : runs_stat (results, layout, m->run_path).n;
   return s;
}

/* lab_results_ratio -- see results.h. */
bool
lab_results_ratio (const lab_stat_t *detail, const lab_stat_t *folded, double *ratio)
{
   if (!detail->present || !folded->present || detail->median == 0.0) {
      return false;
   }
   *ratio = folded->median / detail->median;
   return true;
}

/* lab_results_nrow -- see results.h. */
bool
lab_results_nrow (const bson_t *results, const lab_results_layouts_t *ls, const lab_metric_t *m,
                  lab_results_nrow_t *row)
{
   return lab_results_nrow_at (results, results, ls, m, row);
}

/* lab_results_nrow_at -- see results.h. */
bool
lab_results_nrow_at (const bson_t *results, const bson_t *point, const lab_results_layouts_t *ls,
                     const lab_metric_t *m, lab_results_nrow_t *row)
{
   lab_results_noise_t noise = lab_results_noise_of (results, m);
   size_t i;
   bool any = false;

   memset (row, 0, sizeof *row);
   row->metric = m;
   row->n = ls->n;
   row->reference = ls->reference;
   for (i = 0; i < ls->n; i++) {
      row->stat[i] = lab_results_metric_stat (point, ls->l[i].name, m);
      any = any || row->stat[i].present;
   }
   /* a ratio against a figure shown as zero (0.0% resident) would be a ratio of rounding noise */
   row->zero_ref =
      row->stat[ls->reference].present && lab_results_shows_zero (m->unit, row->stat[ls->reference].median);
   for (i = 0; i < ls->n; i++) {
      row->has_ratio[i] =
         !row->zero_ref && lab_results_ratio (&row->stat[ls->reference], &row->stat[i], &row->ratio[i]);
      if (i != ls->reference) {
         row->vs_ref[i] = lab_results_verdict (m->better, &row->stat[ls->reference], &row->stat[i], &noise);
         if (row->has_ratio[i] && row->vs_ref[i].has_ci) {
            /* paired runs: the ratio shown is the one its interval is of (the paired geometric mean) */
            row->ratio[i] = row->vs_ref[i].ratio;
         }
      }
   }
   if (m->better != LAB_DESCRIPTIVE) {
      lab_results_rank_t rk;
      row->winner = lab_results_rank (m->better, row->stat, ls->n, &noise, &rk);
      row->best = rk.best;
      row->decisive = rk.decisive;
      row->tie = rk.decisive.why;
      row->factor = row->winner == LAB_WIN_ONE ? rk.decisive.factor : 0;
      memcpy (row->tied, rk.tied, sizeof row->tied);
      row->ntied = rk.ntied;
   }
   return any;
}

/* lab_results_same_rule -- see results.h. */
char *
lab_results_same_rule (const bson_t *results)
{
   int64_t runs = 0, ref_runs = 0;
   char *one, *many, *s;

   lab_results_get_int (results, "config.runs", &runs);
   lab_results_get_int (results, "config.reference_runs", &ref_runs);
   one = bson_strdup_printf (
      "1 run: no spread: every ratio is as measured, with no interval, and \"same\" means "
      "within %.1f%% (it would print as 1.00x) or, for a time, within the timer's "
      "resolution (1 µs); `--runs 3` gives each ratio a 95%% interval",
      LAB_RESULTS_FLOOR * 100);
   many =
      bson_strdup_printf ("%lld runs, the layouts alternating in order per run: a ratio is the geometric "
                          "mean of the runs' paired ratios, [in brackets] its 95%% interval (Student t over "
                          "the paired log ratios), and \"same\" means the interval holds 1: no difference "
                          "the runs can tell",
                          (long long)(runs > ref_runs ? runs : ref_runs));
   if (runs < 2 && ref_runs >= 2) {
      /* a sweep whose reference point was measured more often (--reference-runs) */
      s = bson_strdup_printf ("at the reference point, %s; at the other points, %s", many, one);
   } else {
      s = bson_strdup (runs < 2 ? one : many);
   }
   bson_free (one);
   bson_free (many);
   return s;
}
