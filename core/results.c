/*
 * results.c -- the one results model: schema key access, the summary writer, the metric catalogue,
 * the median/ratio/winner arithmetic and the value formatting shared by scancmp's table and
 * layout-report. Pure functions of the results document.
 */
#include "core/results.h"

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
   }
   ref = lab_results_layout_find (out, lab_results_get_string (results, LAB_RESULTS_KEY_REFERENCE_LAYOUT));
   for (i = 0; ref < 0 && i < out->n; i++) {
      if (strcmp (out->l[i].kind, LAB_RESULTS_KIND_ROWS) == 0) {
         ref = (int)i;
      }
   }
   out->reference = ref < 0 ? 0 : (size_t)ref;
}

/* reference_name -- the name of the file's reference layout (lab_results_layouts). */
static const char *
reference_name (const bson_t *results)
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
      bson_append_document_end (&arr, &d);
   }
   bson_append_array_end (results, &arr);
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_REFERENCE_LAYOUT, ls->l[ls->reference].name);
}

/* ---- arithmetic ---------------------------------------------------------------------------------- */

/* cmp_double -- qsort order for doubles. */
static int
cmp_double (const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;

   return (x > y) - (x < y);
}

/* lab_results_stat_of -- see results.h. */
lab_stat_t
lab_results_stat_of (const double *v, size_t n)
{
   lab_stat_t s = { 0 };
   double *c;

   if (n == 0) {
      return s;
   }
   c = bson_malloc (n * sizeof *c);
   memcpy (c, v, n * sizeof *c);
   qsort (c, n, sizeof *c, cmp_double);
   s.present = true;
   s.n = (int)n;
   s.min = c[0];
   s.max = c[n - 1];
   s.median = (n % 2) ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2.0;
   bson_free (c);
   return s;
}

/* runs_stat -- the stat of `run_path` over the runs[] entries of `layout`. */
static lab_stat_t
runs_stat (const bson_t *results, const char *layout, const char *run_path)
{
   bson_iter_t it, runs;
   double *vals = NULL, v;
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
         }
         vals[c++] = v;
      }
   }
   s = lab_results_stat_of (vals, c);
   bson_free (vals);
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

/* lab_results_noise_of -- see results.h. */
lab_results_noise_t
lab_results_noise_of (const bson_t *results, const lab_metric_t *m)
{
   lab_results_noise_t n = { true, 0.0 };
   double interval;

   n.measured = m->run_path != NULL;
   if (n.measured && m->unit == LAB_UNIT_SECONDS &&
       lab_results_get_number (results, "config.interval_s", &interval) && interval > 0) {
      n.time_floor = LAB_RESULTS_FLOOR_INTERVALS * interval;
   }
   return n;
}

/* tie_of -- why the medians a and b are "same" (see results.h), or LAB_TIE_NO. */
static lab_tie_t
tie_of (const lab_stat_t *a, const lab_stat_t *b, const lab_results_noise_t *noise)
{
   double lo = fmin (fabs (a->median), fabs (b->median)), hi = fmax (fabs (a->median), fabs (b->median));
   bool measured = !noise || noise->measured;

   if (hi - lo <= LAB_RESULTS_TIE * hi) {
      return LAB_TIE_CLOSE;
   }
   if (!measured) {
      return LAB_TIE_NO;
   }
   if (a->n >= 2 && b->n >= 2) {
      return a->max < b->min || b->max < a->min ? LAB_TIE_NO : LAB_TIE_SPREAD;
   }
   if (hi - lo < LAB_RESULTS_TIE_ONE_RUN * hi) {
      return LAB_TIE_ONE_RUN;
   }
   if (noise && hi - lo < noise->time_floor) {
      return LAB_TIE_INTERVALS;
   }
   return LAB_TIE_NO;
}

/* lab_results_winner -- see results.h. */
lab_winner_t
lab_results_winner (lab_better_t better, const lab_stat_t *detail, const lab_stat_t *folded,
                    const lab_results_noise_t *noise, double *factor, lab_tie_t *why)
{
   double d, f, lo, hi;
   lab_tie_t tie;

   if (factor) {
      *factor = 0.0;
   }
   if (why) {
      *why = LAB_TIE_NO;
   }
   if (better == LAB_DESCRIPTIVE || !detail->present || !folded->present) {
      return LAB_WIN_NONE;
   }
   d = detail->median;
   f = folded->median;
   lo = fmin (fabs (d), fabs (f));
   hi = fmax (fabs (d), fabs (f));
   if ((tie = tie_of (detail, folded, noise)) != LAB_TIE_NO) {
      if (why) {
         *why = tie;
      }
      return LAB_WIN_TIE;
   }
   if (factor && lo > 0.0) {
      *factor = hi / lo;
   }
   if (better == LAB_BETTER_LOWER) {
      return f < d ? LAB_WIN_FOLDED : LAB_WIN_DETAIL;
   }
   return f > d ? LAB_WIN_FOLDED : LAB_WIN_DETAIL;
}

/* better_than -- whether median a is better than b under `better` (strictly). */
static bool
better_than (lab_better_t better, double a, double b)
{
   return better == LAB_BETTER_HIGHER ? a > b : a < b;
}

/* lab_results_shows_zero -- see results.h. */
bool
lab_results_shows_zero (lab_unit_t unit, double v)
{
   char *s = lab_results_format (unit, v);
   bool zero = true;
   const char *p;

   for (p = s; *p; p++) {
      if (*p >= '1' && *p <= '9') {
         zero = false;
      }
   }
   bson_free (s);
   return zero;
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
   size_t i, npresent = 0, runner = 0;
   bool any = false, have_runner = false;

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
      if (!row->stat[i].present) {
         continue;
      }
      if (npresent++ == 0 || better_than (m->better, row->stat[i].median, row->stat[row->best].median)) {
         row->best = i;
      }
   }
   row->winner = LAB_WIN_NONE;
   if (m->better == LAB_DESCRIPTIVE || npresent < 2) {
      return any;
   }
   /* the runner-up: the best of the others; the pairwise rule between it and the best decides */
   for (i = 0; i < ls->n; i++) {
      if (i != row->best && row->stat[i].present &&
          (!have_runner || better_than (m->better, row->stat[i].median, row->stat[runner].median))) {
         runner = i;
         have_runner = true;
      }
   }
   if (lab_results_winner (m->better, &row->stat[row->best], &row->stat[runner], &noise, &row->factor,
                           &row->tie) == LAB_WIN_TIE) {
      lab_stat_t *b = &row->stat[row->best];
      row->winner = LAB_WIN_TIE;
      row->factor = 0;
      for (i = 0; i < ls->n; i++) {
         if (row->stat[i].present &&
             (i == row->best ||
              lab_results_winner (m->better, b, &row->stat[i], &noise, NULL, NULL) == LAB_WIN_TIE)) {
            row->tied[i] = true;
            row->ntied++;
         }
      }
   } else {
      row->winner = LAB_WIN_ONE;
   }
   return any;
}

/* ---- the cache sweep ----------------------------------------------------------------------------- */

/* lab_results_regime -- see results.h. */
const char *
lab_results_regime (double cache_ratio)
{
   return cache_ratio >= 1.0 ? LAB_RESULTS_REGIME_FITS : LAB_RESULTS_REGIME_REREADS;
}

/* lab_results_point_regime -- see results.h. */
const char *
lab_results_point_regime (const lab_sweep_point_t *p)
{
   if (p->read_amplification[0] > 0) {
      if (p->read_amplification[0] <= LAB_RESULTS_FITS_MAX_AMPLIFICATION) {
         return LAB_RESULTS_REGIME_FITS;
      }
      /* buffered reads: the engine's misses cost a disk read only when the page cache lacked them */
      if (p->buffered_io && p->has_disk_amplification[0] &&
          p->disk_read_amplification[0] <= LAB_RESULTS_FITS_MAX_AMPLIFICATION) {
         return LAB_RESULTS_REGIME_MEMORY;
      }
      return LAB_RESULTS_REGIME_REREADS;
   }
   return p->cache_ratio > 0 ? lab_results_regime (p->cache_ratio) : "unknown";
}

/* lab_results_on_disk_bytes -- see results.h. */
bool
lab_results_on_disk_bytes (const bson_t *results, const char *layout, double *bytes)
{
   char path[96];
   double data, index;

   snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.storage_size_bytes", layout);
   if (!lab_results_get_number (results, path, &data)) {
      return false;
   }
   snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.index_size_bytes", layout);
   if (!lab_results_get_number (results, path, &index)) {
      return false;
   }
   *bytes = data + index;
   return true;
}

/* lab_results_cache_ratio_of -- see results.h. */
bool
lab_results_cache_ratio_of (double cache_bytes, double on_disk_bytes, double *ratio)
{
   if (!(cache_bytes > 0) || !(on_disk_bytes > 0)) {
      return false;
   }
   *ratio = cache_bytes / on_disk_bytes;
   return true;
}

/* lab_results_cache_bytes -- see results.h. */
bool
lab_results_cache_bytes (const bson_t *results, double *bytes)
{
   return (lab_results_get_number (results, "backend.cache_max_bytes", bytes) && *bytes > 0) ||
          (lab_results_get_number (results, "config." LAB_RESULTS_KEY_CACHE_SIZE, bytes) && *bytes > 0);
}

/* lab_results_cache_ratio -- see results.h. */
bool
lab_results_cache_ratio (const bson_t *results, double *ratio)
{
   double cache, disk;

   if (lab_results_get_number (results, LAB_RESULTS_KEY_CONFIG_CACHE_RATIO, ratio) && *ratio > 0) {
      return true;
   }
   return lab_results_cache_bytes (results, &cache) &&
          lab_results_on_disk_bytes (results, reference_name (results), &disk) &&
          lab_results_cache_ratio_of (cache, disk, ratio);
}

/* lab_results_speedup -- see results.h. */
bool
lab_results_speedup (const lab_stat_t *detail, const lab_stat_t *folded, double *speedup)
{
   if (!detail->present || !folded->present || !(folded->median > 0)) {
      return false;
   }
   *speedup = detail->median / folded->median;
   return true;
}

/* lab_results_read_amplification -- see results.h. */
bool
lab_results_read_amplification (double bytes_read, double on_disk_bytes, double *amplification)
{
   if (!(on_disk_bytes > 0) || bytes_read < 0) {
      return false;
   }
   *amplification = bytes_read / on_disk_bytes;
   return true;
}

/* Not a table row (the bytes read into the cache are): the read amplification's numerator, in the same
 * compressed bytes as the on-disk size it is divided by, so that 1 means each on-disk byte read once. */
const lab_metric_t lab_results_block_read_bytes = { "block_read_bytes", "engine.block_read_bytes",
                                                    "bytes the engine read from disk", LAB_UNIT_BYTES,
                                                    LAB_BETTER_LOWER };

/* sweep_iter -- an iterator positioned before sweep[0]; false when the file has no sweep array. */
static bool
sweep_iter (const bson_t *results, bson_iter_t *points)
{
   bson_iter_t it;

   return bson_iter_init_find (&it, results, LAB_RESULTS_KEY_SWEEP) && BSON_ITER_HOLDS_ARRAY (&it) &&
          bson_iter_recurse (&it, points);
}

/* lab_results_sweep_n -- see results.h. */
size_t
lab_results_sweep_n (const bson_t *results)
{
   bson_iter_t points;
   size_t n = 0;

   if (sweep_iter (results, &points)) {
      while (bson_iter_next (&points)) {
         n++;
      }
   }
   return n;
}

/* sweep_view -- a read-only view of sweep[i] in *point. */
static bool
sweep_view (const bson_t *results, size_t i, bson_t *point)
{
   bson_iter_t points;
   const uint8_t *data;
   uint32_t len;
   size_t k = 0;

   if (!sweep_iter (results, &points)) {
      return false;
   }
   while (bson_iter_next (&points)) {
      if (k++ == i) {
         if (!BSON_ITER_HOLDS_DOCUMENT (&points)) {
            return false;
         }
         bson_iter_document (&points, &len, &data);
         return bson_init_static (point, data, len);
      }
   }
   return false;
}

/* point_ratio -- a point's cache ratio: stored, else its cache size over the reference on-disk size. */
static bool
point_ratio (const bson_t *results, const bson_t *point, double *ratio)
{
   double cache, disk;

   if (lab_results_get_number (point, LAB_RESULTS_KEY_CACHE_RATIO, ratio)) {
      return true;
   }
   return lab_results_get_number (point, LAB_RESULTS_KEY_CACHE_SIZE, &cache) &&
          lab_results_on_disk_bytes (results, reference_name (results), &disk) &&
          lab_results_cache_ratio_of (cache, disk, ratio);
}

/* lab_results_sweep_order -- see results.h. */
size_t
lab_results_sweep_order (const bson_t *results, lab_results_layouts_t *ls,
                         const char *names[LAB_RESULTS_MAX_LAYOUTS])
{
   size_t i, n = 0;

   lab_results_layouts (results, ls);
   names[n++] = ls->l[ls->reference].name;
   for (i = 0; i < ls->n; i++) {
      if (i != ls->reference) {
         names[n++] = ls->l[i].name;
      }
   }
   return n;
}

/* lab_results_sweep_pair -- see results.h. */
void
lab_results_sweep_pair (const bson_t *results, lab_results_layouts_t *ls, const char *names[2])
{
   const char *all[LAB_RESULTS_MAX_LAYOUTS] = { NULL };

   lab_results_sweep_order (results, ls, all);
   names[0] = all[0];
   names[1] = all[1];
}

/* stored_or_ratio -- *out from the point's stored `key` of `layout` (when `stored`), else the median of
 * metric m over the layout's on-disk size; false when neither is known. */
static bool
stored_or_ratio (const bson_t *results, const bson_t *point, bool stored, const char *layout, const char *key,
                 const lab_metric_t *m, double *out)
{
   char path[128];
   double disk;
   lab_stat_t s;

   snprintf (path, sizeof path, "%s.%s", layout, key);
   if (stored && lab_results_get_number (point, path, out)) {
      return true;
   }
   if (!lab_results_on_disk_bytes (results, layout, &disk)) {
      return false;
   }
   s = lab_results_metric_stat (point, layout, m);
   return s.present && lab_results_read_amplification (s.median, disk, out);
}

/* fill_point -- the figures of *p whose runs and summary are in p->doc; `stored` reads the point's own
 * per-layout figures (a sweep point) before computing them. */
static void
fill_point (const bson_t *results, lab_sweep_point_t *p, bool stored)
{
   const lab_metric_t *el = lab_results_metric_find ("elapsed_s");
   const lab_metric_t *rb = lab_results_metric_find ("read_bytes");
   lab_results_layouts_t ls;
   char path[128];
   bool direct_io;
   size_t l;

   p->n = lab_results_sweep_order (results, &ls, p->names);
   p->buffered_io = lab_results_get_bool (results, "config.direct_io", &direct_io) && !direct_io;
   for (l = 0; l < p->n; l++) {
      lab_locality_t *loc = &p->locality[l];
      const char *name = p->names[l];

      p->elapsed[l] = lab_results_metric_stat (&p->doc, name, el);
      p->has_amplification[l] =
         stored_or_ratio (results, &p->doc, stored, name, LAB_RESULTS_KEY_READ_AMPLIFICATION,
                          &lab_results_block_read_bytes, &p->read_amplification[l]);
      p->has_disk_amplification[l] =
         stored_or_ratio (results, &p->doc, stored, name, LAB_RESULTS_KEY_DISK_READ_AMPLIFICATION, rb,
                          &p->disk_read_amplification[l]);
      if (!stored) {
         continue;
      }
      snprintf (path, sizeof path, "%s." LAB_RESULTS_KEY_LOCALITY "." LAB_RESULTS_KEY_PAGES_PER_MASTER_MEAN,
                name);
      loc->present = lab_results_get_number (&p->doc, path, &loc->pages_per_master_mean);
      if (loc->present) {
         snprintf (path, sizeof path, "%s." LAB_RESULTS_KEY_LOCALITY "." LAB_RESULTS_KEY_PAGES_PER_MASTER_P95,
                   name);
         if (!lab_results_get_number (&p->doc, path, &loc->pages_per_master_p95)) {
            loc->pages_per_master_p95 = -1;
         }
         snprintf (path, sizeof path, "%s." LAB_RESULTS_KEY_LOCALITY "." LAB_RESULTS_KEY_MASTERS_SAMPLED,
                   name);
         if (!lab_results_get_number (&p->doc, path, &loc->masters_sampled)) {
            loc->masters_sampled = -1;
         }
         snprintf (path, sizeof path, "%s." LAB_RESULTS_KEY_LOCALITY "." LAB_RESULTS_KEY_LOCALITY_METHOD,
                   name);
         loc->method = lab_results_get_string (&p->doc, path);
      }
   }
   for (l = 1; l < p->n; l++) {
      p->has_speedup_of[l] = lab_results_speedup (&p->elapsed[0], &p->elapsed[l], &p->speedup_of[l]);
   }
   p->has_speedup = p->has_speedup_of[1];
   p->speedup = p->speedup_of[1];
}

/* lab_results_sweep_point -- see results.h. */
bool
lab_results_sweep_point (const bson_t *results, size_t i, lab_sweep_point_t *p)
{
   memset (p, 0, sizeof *p);
   if (!sweep_view (results, i, &p->doc)) {
      return false;
   }
   lab_results_get_number (&p->doc, LAB_RESULTS_KEY_CACHE_SIZE, &p->cache_size_bytes);
   if (!point_ratio (results, &p->doc, &p->cache_ratio)) {
      p->cache_ratio = 0;
   }
   fill_point (results, p, true);
   return true;
}

/* lab_results_app_engine_disk -- see results.h. */
void
lab_results_app_engine_disk (bson_string_t *o, const lab_sweep_point_t *p, const char *layout)
{
   char *f;

   if (!p->has_amplification[0]) {
      return;
   }
   f = lab_results_format_factor (p->read_amplification[0]);
   bson_string_append_printf (o, "the engine read %s the %s layout", f, layout);
   bson_free (f);
   if (p->has_disk_amplification[0]) {
      f = lab_results_format_factor (p->disk_read_amplification[0]);
      bson_string_append_printf (o, ", the disk %s", f);
      bson_free (f);
   }
   if (strcmp (lab_results_point_regime (p), LAB_RESULTS_REGIME_MEMORY) == 0) {
      bson_string_append (o, ": the page cache held it");
   }
}

/* lab_results_top_point -- see results.h. */
void
lab_results_top_point (const bson_t *results, lab_sweep_point_t *p)
{
   memset (p, 0, sizeof *p);
   if (!bson_init_static (&p->doc, bson_get_data (results), results->len)) {
      bson_init (&p->doc); /* cannot fail for a valid bson_t; an empty view keeps the struct usable */
   }
   if (!lab_results_cache_bytes (results, &p->cache_size_bytes)) {
      p->cache_size_bytes = 0;
   }
   if (!lab_results_cache_ratio (results, &p->cache_ratio)) {
      p->cache_ratio = 0;
   }
   fill_point (results, p, false);
}

/* lab_results_sweep_reference_of -- see results.h. */
size_t
lab_results_sweep_reference_of (const double *cache_ratio, size_t n)
{
   size_t i, best = 0;
   double d, best_d = INFINITY;

   for (i = 0; i < n; i++) {
      if (!(cache_ratio[i] > 0)) {
         continue;
      }
      d = fabs (log (cache_ratio[i]));
      if (d <= best_d) { /* <=: on a tie the later point, the larger cache */
         best_d = d;
         best = i;
      }
   }
   return best;
}

/* lab_results_sweep_reference -- see results.h. */
size_t
lab_results_sweep_reference (const bson_t *results)
{
   size_t n = lab_results_sweep_n (results), i, ref;
   double v, *ratios;
   bson_t point;

   if (lab_results_get_number (results, LAB_RESULTS_KEY_SWEEP_REFERENCE, &v) && v >= 0 && v < (double)n &&
       v == floor (v)) {
      return (size_t)v;
   }
   if (n == 0) {
      return 0;
   }
   ratios = bson_malloc0 (n * sizeof *ratios);
   for (i = 0; i < n; i++) {
      if (sweep_view (results, i, &point) && !point_ratio (results, &point, &ratios[i])) {
         ratios[i] = 0;
      }
   }
   ref = lab_results_sweep_reference_of (ratios, n);
   bson_free (ratios);
   return ref;
}

/* point_name -- "sweep[2] (1 GiB)" for messages. */
static void
point_name (size_t i, double cache, char *buf, size_t len)
{
   char *c;

   if (cache > 0) {
      c = lab_results_format_binary (cache);
      snprintf (buf, len, LAB_RESULTS_KEY_SWEEP "[%zu] (%s)", i, c);
      bson_free (c);
   } else {
      snprintf (buf, len, LAB_RESULTS_KEY_SWEEP "[%zu]", i);
   }
}

/* lab_results_sweep_check -- see results.h. */
bool
lab_results_sweep_check (const bson_t *results, bson_error_t *error)
{
   bson_iter_t it, points, runs;
   size_t i = 0;
   double prev_cache = 0, prev_ratio = 0, cache, ratio, v;
   char name[96], prev_name[96] = "";
   lab_results_layouts_t ls;

   lab_results_layouts (results, &ls);
   if (!bson_iter_init_find (&it, results, LAB_RESULTS_KEY_SWEEP)) {
      return true;
   }
   if (!BSON_ITER_HOLDS_ARRAY (&it) || !bson_iter_recurse (&it, &points)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "\"sweep\" is not an array of points");
      return false;
   }
   while (bson_iter_next (&points)) {
      const uint8_t *data;
      uint32_t len;
      bson_t point;
      int n_layout[LAB_RESULTS_MAX_LAYOUTS] = { 0 };
      size_t li;

      if (!BSON_ITER_HOLDS_DOCUMENT (&points)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, LAB_RESULTS_KEY_SWEEP "[%zu] is not an object", i);
         return false;
      }
      bson_iter_document (&points, &len, &data);
      if (!bson_init_static (&point, data, len)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, LAB_RESULTS_KEY_SWEEP "[%zu] is not a valid document",
                        i);
         return false;
      }
      if (!lab_results_get_number (&point, LAB_RESULTS_KEY_CACHE_SIZE, &cache) || !(cache > 0)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL,
                        LAB_RESULTS_KEY_SWEEP "[%zu]: missing or non-positive \"" LAB_RESULTS_KEY_CACHE_SIZE
                                              "\": every point names its engine cache size",
                        i);
         return false;
      }
      point_name (i, cache, name, sizeof name);
      if (i > 0 && cache == prev_cache) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL,
                        "%s: the same cache size as %s: one point per cache size (merge or drop the "
                        "repeated measurement)",
                        name, prev_name);
         return false;
      }
      if (i > 0 && cache < prev_cache) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL,
                        "%s: a smaller cache than %s: points must be in strictly increasing cache size", name,
                        prev_name);
         return false;
      }
      if (!point_ratio (results, &point, &ratio)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL,
                        "%s: no \"" LAB_RESULTS_KEY_CACHE_RATIO
                        "\" and no dataset.%s storage and index sizes to compute it from",
                        name, ls.l[ls.reference].name);
         return false;
      }
      if (!(ratio > 0) || (i > 0 && !(ratio > prev_ratio))) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL,
                        "%s: cache_ratio %g must be positive and larger than the previous point's (%g): "
                        "the ratio is the cache size over one fixed data size",
                        name, ratio, prev_ratio);
         return false;
      }
      if (bson_iter_init_find (&it, &point, LAB_RESULTS_KEY_RUNS) && BSON_ITER_HOLDS_ARRAY (&it) &&
          bson_iter_recurse (&it, &runs)) {
         while (bson_iter_next (&runs)) {
            bson_iter_t l;
            if (BSON_ITER_HOLDS_DOCUMENT (&runs) && bson_iter_recurse (&runs, &l) &&
                bson_iter_find (&l, LAB_RESULTS_KEY_LAYOUT) && BSON_ITER_HOLDS_UTF8 (&l)) {
               int k = lab_results_layout_find (&ls, bson_iter_utf8 (&l, NULL));
               if (k >= 0) {
                  n_layout[k]++;
               }
            }
         }
      }
      if (ls.n == 2 && (n_layout[0] == 0 || n_layout[1] == 0)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL,
                        "%s: runs[] has %d %s and %d %s entries; every point needs both layouts", name,
                        n_layout[0], ls.l[0].name, n_layout[1], ls.l[1].name);
         return false;
      }
      for (li = 0; li < ls.n; li++) {
         if (n_layout[li] == 0) {
            lab_error_set (error, LAB_ERROR_IO, EINVAL,
                           "%s: runs[] has no entry of layout %s; every point needs every layout", name,
                           ls.l[li].name);
            return false;
         }
      }
      prev_cache = cache;
      prev_ratio = ratio;
      bson_strncpy (prev_name, name, sizeof prev_name);
      i++;
   }
   if (i == 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "\"sweep\" has no points");
      return false;
   }
   if (bson_iter_init_find (&it, results, LAB_RESULTS_KEY_SWEEP_REFERENCE) &&
       (!lab_results_get_number (results, LAB_RESULTS_KEY_SWEEP_REFERENCE, &v) || v < 0 || v >= (double)i ||
        v != floor (v))) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "\"" LAB_RESULTS_KEY_SWEEP_REFERENCE "\" must be the index of a point (0 to %zu)",
                     i - 1);
      return false;
   }
   return true;
}

/* lab_results_estimate_speedup -- see results.h. */
lab_estimate_t
lab_results_estimate_speedup (const double *ratio, const double *speedup, size_t n, double r)
{
   lab_estimate_t e = { LAB_ESTIMATE_TOO_FEW, 0, 0, 0, 0, 0 };
   size_t i;
   double t;

   if (n == 0) {
      return e;
   }
   e.range_lo = ratio[0];
   e.range_hi = ratio[n - 1];
   for (i = 0; i < n; i++) {
      if (fabs (r - ratio[i]) <= 1e-9 * ratio[i]) {
         e.status = LAB_ESTIMATE_MEASURED;
         e.speedup = speedup[i];
         e.lo = e.hi = i;
         return e;
      }
   }
   if (n < 2) {
      return e;
   }
   if (!(r > ratio[0]) || !(r < ratio[n - 1])) {
      e.status = LAB_ESTIMATE_OUTSIDE;
      return e;
   }
   for (i = 0; i + 1 < n && !(r < ratio[i + 1]); i++) {
   }
   t = (log (r) - log (ratio[i])) / (log (ratio[i + 1]) - log (ratio[i]));
   e.status = LAB_ESTIMATE_INTERPOLATED;
   e.speedup = speedup[i] + (speedup[i + 1] - speedup[i]) * t;
   e.lo = i;
   e.hi = i + 1;
   return e;
}

/* ---- formatting ---------------------------------------------------------------------------------- */

typedef struct {
   double div;
   int decimals;
   const char *suffix;
} scale_t;

/* decimals_for -- 2 decimals below 10, 1 below 100, none above: three significant digits or more. */
static int
decimals_for (double v)
{
   v = fabs (v);
   if (v < 9.995) {
      return 2;
   }
   if (v < 99.95) {
      return 1;
   }
   return 0;
}

/* choose_scale -- the divisor, decimals and suffix for showing `v` in `unit`. */
static scale_t
choose_scale (lab_unit_t unit, double v)
{
   static const char *const byte_units[] = { " B", " KB", " MB", " GB", " TB" };
   static const char *const rate_units[] = { " B/s", " KB/s", " MB/s", " GB/s", " TB/s" };
   scale_t s = { 1.0, 0, "" };
   int k = 0;
   double a;

   switch (unit) {
   case LAB_UNIT_COUNT:
      s.decimals = (v == floor (v) || fabs (v) >= 100) ? 0 : (fabs (v) < 10 ? 2 : 1);
      return s;
   case LAB_UNIT_RATE:
      s.suffix = "/s";
      s.decimals = fabs (v) >= 99.95 ? 0 : (fabs (v) < 9.995 ? 2 : 1);
      return s;
   case LAB_UNIT_SECONDS:
      s.suffix = " s";
      s.decimals = (v != 0.0 && fabs (v) < 0.995) ? 3 : decimals_for (v);
      return s;
   case LAB_UNIT_MS:
      s.suffix = " ms";
      /* sub-millisecond latencies (a folded master in cache) keep three decimals: 0.004 ms, not 0.00 */
      s.decimals = (v != 0.0 && fabs (v) < 0.995) ? 3 : decimals_for (v);
      return s;
   case LAB_UNIT_PCT:
      s.suffix = "%";
      s.decimals = 1;
      return s;
   case LAB_UNIT_BYTES:
   case LAB_UNIT_MB_S:
      a = fabs (v) * (unit == LAB_UNIT_MB_S ? 1e6 : 1.0);
      while (k < 4 && a >= 999.5) {
         a /= 1000.0;
         k++;
      }
      s.div = pow (1000.0, k) / (unit == LAB_UNIT_MB_S ? 1e6 : 1.0);
      s.suffix = unit == LAB_UNIT_MB_S ? rate_units[k] : byte_units[k];
      s.decimals = k == 0 ? 0 : decimals_for (a);
      return s;
   }
   return s;
}

/* append_number -- v with `decimals` decimals and thousands separators in its integer part. */
static void
append_number (bson_string_t *out, double v, int decimals)
{
   char buf[64];
   char *p, *dot;
   size_t int_len, i;

   if (v == 0.0) {
      v = 0.0; /* no "-0" */
   }
   snprintf (buf, sizeof buf, "%.*f", decimals, v);
   if (strcmp (buf, "-0") == 0 || strncmp (buf, "-0.", 3) == 0) {
      /* a tiny negative rounded to zero prints without its sign */
      bool all_zero = true;
      for (p = buf + 1; *p; p++) {
         if (*p != '0' && *p != '.') {
            all_zero = false;
         }
      }
      if (all_zero) {
         memmove (buf, buf + 1, strlen (buf));
      }
   }
   p = buf;
   if (*p == '-') {
      bson_string_append_c (out, '-');
      p++;
   }
   dot = strchr (p, '.');
   int_len = dot ? (size_t)(dot - p) : strlen (p);
   for (i = 0; i < int_len; i++) {
      if (i > 0 && (int_len - i) % 3 == 0) {
         bson_string_append_c (out, ',');
      }
      bson_string_append_c (out, p[i]);
   }
   if (dot) {
      bson_string_append (out, dot);
   }
}

/* number_string -- append_number into a fresh string. Caller bson_free()s. */
static char *
number_string (double v, int decimals)
{
   bson_string_t *s = bson_string_new (NULL);

   append_number (s, v, decimals);
   return bson_string_free (s, false);
}

/* lab_results_format -- see results.h. */
char *
lab_results_format (lab_unit_t unit, double v)
{
   bson_string_t *s = bson_string_new (NULL);
   scale_t sc = choose_scale (unit, v);

   append_number (s, v / sc.div, sc.decimals);
   bson_string_append (s, sc.suffix);
   return bson_string_free (s, false);
}

/* lab_results_format_stat -- see results.h. */
char *
lab_results_format_stat (lab_unit_t unit, const lab_stat_t *st, bool range)
{
   bson_string_t *s;
   scale_t sc;
   char *a, *b;

   if (!st->present) {
      return bson_strdup ("n/a");
   }
   sc = choose_scale (unit, st->median);
   if (unit == LAB_UNIT_COUNT && (st->min != floor (st->min) || st->max != floor (st->max)) &&
       sc.decimals == 0 && fabs (st->median) < 100) {
      sc.decimals = 1;
   }
   s = bson_string_new (NULL);
   append_number (s, st->median / sc.div, sc.decimals);
   bson_string_append (s, sc.suffix);
   if (range && st->n > 1) {
      a = number_string (st->min / sc.div, sc.decimals);
      b = number_string (st->max / sc.div, sc.decimals);
      if (strcmp (a, b) != 0) {
         bson_string_append_printf (s, " (%s–%s)", a, b);
      }
      bson_free (a);
      bson_free (b);
   }
   return bson_string_free (s, false);
}

/* lab_results_format_ratio -- see results.h. */
char *
lab_results_format_ratio (double ratio)
{
   double p = ratio * 100.0;
   bson_string_t *s;

   if (p > 0 && p < 0.05) {
      return bson_strdup ("<0.1%");
   }
   if (p < 9.95) {
      return bson_strdup_printf ("%.1f%%", p);
   }
   s = bson_string_new (NULL);
   append_number (s, round (p), 0);
   bson_string_append_c (s, '%');
   return bson_string_free (s, false);
}

/* lab_results_format_factor -- see results.h. */
char *
lab_results_format_factor (double f)
{
   bson_string_t *s;

   if (f < 99.95) {
      return bson_strdup_printf (f < 9.995 ? "%.2fx" : "%.1fx", f);
   }
   s = bson_string_new (NULL);
   append_number (s, round (f), 0);
   bson_string_append_c (s, 'x');
   return bson_string_free (s, false);
}

/* lab_results_format_binary -- see results.h. */
char *
lab_results_format_binary (double bytes)
{
   static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
   double v = bytes;
   int k = 0;

   while (k < 4 && fabs (v) >= 1024.0) {
      v /= 1024.0;
      k++;
   }
   if (v == floor (v) || fabs (v) >= 99.5) {
      return bson_strdup_printf ("%.0f %s", v, u[k]);
   }
   return bson_strdup_printf (fabs (v) < 9.995 ? "%.3g %s" : "%.1f %s", v, u[k]);
}

/* lab_results_nrow_cells -- see results.h. */
void
lab_results_nrow_cells (const lab_results_nrow_t *row, const lab_results_layouts_t *ls, bool range,
                        lab_results_ncells_t *cells)
{
   bson_string_t *b;
   size_t i;
   char *f;

   memset (cells, 0, sizeof *cells);
   cells->n = row->n;
   for (i = 0; i < row->n; i++) {
      cells->value[i] = lab_results_format_stat (row->metric->unit, &row->stat[i], range);
      cells->ratio[i] = i == row->reference                     ? bson_strdup ("")
                        : row->has_ratio[i]                     ? lab_results_format_ratio (row->ratio[i])
                        : row->zero_ref && row->stat[i].present ? bson_strdup ("–")
                                                                : bson_strdup ("n/a");
   }
   switch (row->winner) {
   case LAB_WIN_ONE:
      if (row->factor > 0) {
         f = lab_results_format_factor (row->factor);
         cells->better = bson_strdup_printf ("%s %s", ls->l[row->best].name, f);
         bson_free (f);
      } else {
         cells->better = bson_strdup (ls->l[row->best].name);
      }
      break;
   case LAB_WIN_TIE:
      if (row->ntied == row->n) {
         cells->better = bson_strdup ("same");
         break;
      }
      b = bson_string_new (NULL);
      for (i = 0; i < row->n; i++) {
         if (row->tied[i]) {
            bson_string_append_printf (b, "%s%s", b->len ? " = " : "", ls->l[i].name);
         }
      }
      cells->better = bson_string_free (b, false);
      break;
   case LAB_WIN_NONE:
   default:
      cells->better = bson_strdup ("");
      break;
   }
}

/* lab_results_same_rule -- see results.h. */
char *
lab_results_same_rule (const bson_t *results)
{
   double interval;
   char *floor_s = NULL, *s;

   if (lab_results_get_number (results, "config.interval_s", &interval) && interval > 0) {
      char *t = lab_results_format (LAB_UNIT_SECONDS, LAB_RESULTS_FLOOR_INTERVALS * interval);
      floor_s = bson_strdup_printf (" (here %s)", t);
      bson_free (t);
   }
   s = bson_strdup_printf ("no difference the runs can tell: medians within %.0f%%, or within the "
                           "runs' ranges (they overlap), or, with one run, within %.0f%% or, for a time, "
                           "within %d sampling intervals%s",
                           LAB_RESULTS_TIE * 100, LAB_RESULTS_TIE_ONE_RUN * 100, LAB_RESULTS_FLOOR_INTERVALS,
                           floor_s ? floor_s : "");
   bson_free (floor_s);
   return s;
}

/* lab_results_ncells_cleanup -- see results.h. */
void
lab_results_ncells_cleanup (lab_results_ncells_t *cells)
{
   size_t i;

   for (i = 0; i < LAB_RESULTS_MAX_LAYOUTS; i++) {
      bson_free (cells->value[i]);
      bson_free (cells->ratio[i]);
   }
   bson_free (cells->better);
   memset (cells, 0, sizeof *cells);
}
