/*
 * cmp.c -- the comparison arithmetic of layout-report: which figures the table shows and which direction
 * is better for each, medians and spreads over runs, ratios and winners, and number formatting. Pure
 * functions of the results document.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"

/* The table's rows: the original experiment's (time, peak read requests/s, peak read MB/s, data
 * returned, memory, cache) and more. Names follow the schema's flattening rule for summary.<layout>.
 * Bytes returned per second is descriptive: hoisting makes the folded layout return fewer bytes for the
 * same rows, so rows per second is the fair throughput. */
static const lab_cmp_metric_t metrics[] = {
   { "elapsed_s", "elapsed_s", "parallel load time", LAB_CMP_UNIT_SECONDS, LAB_CMP_LOWER_BETTER },
   { "keys", "keys", "masters loaded", LAB_CMP_UNIT_COUNT, LAB_CMP_NEUTRAL },
   { "docs", "docs", "documents read", LAB_CMP_UNIT_COUNT, LAB_CMP_NEUTRAL },
   { "rows", "rows", "detail rows returned", LAB_CMP_UNIT_COUNT, LAB_CMP_NEUTRAL },
   { "read_requests", "read_requests", "disk read requests", LAB_CMP_UNIT_COUNT, LAB_CMP_LOWER_BETTER },
   { "read_bytes", "read_bytes", "disk bytes read", LAB_CMP_UNIT_BYTES, LAB_CMP_LOWER_BETTER },
   { "avg_read_request_bytes", "rates.avg_read_request_bytes", "average read request size",
     LAB_CMP_UNIT_BYTES, LAB_CMP_HIGHER_BETTER },
   { "read_requests_per_s_peak", "rates.read_requests_per_s_peak", "peak disk read requests/s",
     LAB_CMP_UNIT_RATE, LAB_CMP_LOWER_BETTER },
   { "read_requests_per_s_mean", "rates.read_requests_per_s_mean", "mean disk read requests/s",
     LAB_CMP_UNIT_RATE, LAB_CMP_LOWER_BETTER },
   { "read_mb_s_peak", "rates.read_mb_s_peak", "peak disk read throughput", LAB_CMP_UNIT_MB_S,
     LAB_CMP_NEUTRAL },
   { "read_mb_s_mean", "rates.read_mb_s_mean", "mean disk read throughput", LAB_CMP_UNIT_MB_S,
     LAB_CMP_NEUTRAL },
   { "read_await_ms", "rates.read_await_ms", "mean read wait (r_await)", LAB_CMP_UNIT_MS,
     LAB_CMP_LOWER_BETTER },
   { "util_pct_mean", "rates.util_pct_mean", "device busy (%util, mean)", LAB_CMP_UNIT_PCT, LAB_CMP_NEUTRAL },
   { "bytes_returned", "bytes_returned", "data returned by the store", LAB_CMP_UNIT_BYTES, LAB_CMP_NEUTRAL },
   { "returned_mb_s", "rates.returned_mb_s", "data returned per second", LAB_CMP_UNIT_MB_S,
     LAB_CMP_NEUTRAL },
   { "rows_per_s", "rates.rows_per_s", "detail rows per second", LAB_CMP_UNIT_RATE, LAB_CMP_HIGHER_BETTER },
   { "docs_per_s", "rates.docs_per_s", "documents per second", LAB_CMP_UNIT_RATE, LAB_CMP_NEUTRAL },
   { "server_rss_peak_bytes", "memory.server_rss_peak_bytes", "server memory (peak RSS)", LAB_CMP_UNIT_BYTES,
     LAB_CMP_LOWER_BETTER },
   { "cache_peak_bytes", "memory.cache_peak_bytes", "engine cache used (peak)", LAB_CMP_UNIT_BYTES,
     LAB_CMP_LOWER_BETTER },
   { "cache_peak_pct", "memory.cache_peak_pct", "engine cache used (peak, % of max)", LAB_CMP_UNIT_PCT,
     LAB_CMP_LOWER_BETTER },
   { "block_reads", "engine.block_reads", "engine block reads", LAB_CMP_UNIT_COUNT, LAB_CMP_LOWER_BETTER },
   { "cache_read_bytes", "engine.cache_read_bytes", "bytes read into engine cache", LAB_CMP_UNIT_BYTES,
     LAB_CMP_LOWER_BETTER },
   { "latency_p50_ms", "latency_ms.p50", "per-master latency p50", LAB_CMP_UNIT_MS, LAB_CMP_LOWER_BETTER },
   { "latency_p95_ms", "latency_ms.p95", "per-master latency p95", LAB_CMP_UNIT_MS, LAB_CMP_LOWER_BETTER },
   { "latency_p99_ms", "latency_ms.p99", "per-master latency p99", LAB_CMP_UNIT_MS, LAB_CMP_LOWER_BETTER },
   { "latency_max_ms", "latency_ms.max", "per-master latency max", LAB_CMP_UNIT_MS, LAB_CMP_LOWER_BETTER },
};

/* lab_cmp_metrics -- see cmp.h. */
const lab_cmp_metric_t *
lab_cmp_metrics (size_t *n)
{
   *n = sizeof metrics / sizeof metrics[0];
   return metrics;
}

/* lab_cmp_metric_find -- see cmp.h. */
const lab_cmp_metric_t *
lab_cmp_metric_find (const char *name)
{
   size_t i;

   for (i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
      if (strcmp (metrics[i].name, name) == 0) {
         return &metrics[i];
      }
   }
   return NULL;
}

/* cmp_double -- qsort order for doubles. */
static int
cmp_double (const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;

   return (x > y) - (x < y);
}

/* lab_cmp_stat_of -- see cmp.h. */
lab_cmp_stat_t
lab_cmp_stat_of (const double *v, size_t n)
{
   lab_cmp_stat_t s = { 0 };
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

/* runs_iter -- an iterator positioned before runs[0]. */
static bool
runs_iter (const lab_cmp_results_t *r, bson_iter_t *runs)
{
   bson_iter_t it;

   return bson_iter_init_find (&it, &r->doc, "runs") && BSON_ITER_HOLDS_ARRAY (&it) &&
          bson_iter_recurse (&it, runs);
}

/* lab_cmp_runs_n -- see cmp.h. */
int
lab_cmp_runs_n (const lab_cmp_results_t *r)
{
   bson_iter_t runs;
   int n = 0;

   if (runs_iter (r, &runs)) {
      while (bson_iter_next (&runs)) {
         n++;
      }
   }
   return n;
}

/* lab_cmp_run_get -- see cmp.h. */
bool
lab_cmp_run_get (const lab_cmp_results_t *r, int i, bson_t *run)
{
   bson_iter_t runs;
   const uint8_t *data;
   uint32_t len;
   int k = 0;

   if (!runs_iter (r, &runs)) {
      return false;
   }
   while (bson_iter_next (&runs)) {
      if (k++ == i) {
         if (!BSON_ITER_HOLDS_DOCUMENT (&runs)) {
            return false;
         }
         bson_iter_document (&runs, &len, &data);
         return bson_init_static (run, data, len);
      }
   }
   return false;
}

/* run_is -- true when the run entry's layout is `layout`. */
static bool
run_is (const bson_t *run, const char *layout)
{
   const char *l = lab_cmp_get_string (run, "layout");

   return l && strcmp (l, layout) == 0;
}

/* lab_cmp_run_count -- see cmp.h. */
int
lab_cmp_run_count (const lab_cmp_results_t *r, const char *layout)
{
   int i, n = lab_cmp_runs_n (r), c = 0;
   bson_t run;

   for (i = 0; i < n; i++) {
      if (lab_cmp_run_get (r, i, &run) && run_is (&run, layout)) {
         c++;
      }
   }
   return c;
}

/* lab_cmp_median_run -- see cmp.h. */
int
lab_cmp_median_run (const lab_cmp_results_t *r, const char *layout)
{
   int i, n = lab_cmp_runs_n (r), c = 0, j, k;
   int *idx = bson_malloc0 (sizeof (int) * (size_t)(n + 1));
   double *el = bson_malloc0 (sizeof (double) * (size_t)(n + 1));
   bson_t run;
   int best;

   for (i = 0; i < n; i++) {
      double v = 0;
      if (lab_cmp_run_get (r, i, &run) && run_is (&run, layout)) {
         lab_cmp_get_number (&run, "elapsed_s", &v);
         /* insertion sort by elapsed, stable on file order */
         for (j = c; j > 0 && el[j - 1] > v; j--) {
            el[j] = el[j - 1];
            idx[j] = idx[j - 1];
         }
         el[j] = v;
         idx[j] = i;
         c++;
      }
   }
   k = (c - 1) / 2;
   best = c ? idx[k] : -1;
   bson_free (idx);
   bson_free (el);
   return best;
}

/* lab_cmp_metric_stat -- see cmp.h. */
lab_cmp_stat_t
lab_cmp_metric_stat (const lab_cmp_results_t *r, const char *layout, const lab_cmp_metric_t *m)
{
   lab_cmp_stat_t s = { 0 };
   char path[256];
   double v, nruns;
   int i, n = lab_cmp_runs_n (r);
   size_t c = 0;
   double *vals;
   bson_t run;

   snprintf (path, sizeof path, "summary.%s.%s.median", layout, m->name);
   if (lab_cmp_get_number (&r->doc, path, &s.median)) {
      s.present = true;
      s.min = s.max = s.median;
      snprintf (path, sizeof path, "summary.%s.%s.min", layout, m->name);
      lab_cmp_get_number (&r->doc, path, &s.min);
      snprintf (path, sizeof path, "summary.%s.%s.max", layout, m->name);
      lab_cmp_get_number (&r->doc, path, &s.max);
      snprintf (path, sizeof path, "summary.%s.runs", layout);
      s.n = lab_cmp_get_number (&r->doc, path, &nruns) ? (int)nruns : lab_cmp_run_count (r, layout);
      return s;
   }
   vals = bson_malloc0 (sizeof (double) * (size_t)(n + 1));
   for (i = 0; i < n; i++) {
      if (lab_cmp_run_get (r, i, &run) && run_is (&run, layout) &&
          lab_cmp_get_number (&run, m->run_path, &v)) {
         vals[c++] = v;
      }
   }
   s = lab_cmp_stat_of (vals, c);
   bson_free (vals);
   return s;
}

/* lab_cmp_ratio -- see cmp.h. */
bool
lab_cmp_ratio (const lab_cmp_stat_t *detail, const lab_cmp_stat_t *folded, double *ratio)
{
   if (!detail->present || !folded->present || detail->median == 0.0) {
      return false;
   }
   *ratio = folded->median / detail->median;
   return true;
}

/* lab_cmp_winner -- see cmp.h. */
lab_cmp_winner_t
lab_cmp_winner (lab_cmp_better_t better, const lab_cmp_stat_t *detail, const lab_cmp_stat_t *folded,
                double *factor)
{
   double d, f, lo, hi;

   if (factor) {
      *factor = 0.0;
   }
   if (better == LAB_CMP_NEUTRAL || !detail->present || !folded->present) {
      return LAB_CMP_WIN_NONE;
   }
   d = detail->median;
   f = folded->median;
   lo = fmin (fabs (d), fabs (f));
   hi = fmax (fabs (d), fabs (f));
   if (hi - lo <= 0.02 * hi) {
      return LAB_CMP_WIN_TIE;
   }
   if (factor && lo > 0.0) {
      *factor = hi / lo;
   }
   if (better == LAB_CMP_LOWER_BETTER) {
      return f < d ? LAB_CMP_WIN_FOLDED : LAB_CMP_WIN_DETAIL;
   }
   return f > d ? LAB_CMP_WIN_FOLDED : LAB_CMP_WIN_DETAIL;
}

/* ---- formatting -------------------------------------------------------------------------------- */

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
choose_scale (lab_cmp_unit_t unit, double v)
{
   static const char *const byte_units[] = { " B", " KB", " MB", " GB", " TB" };
   static const char *const rate_units[] = { " B/s", " KB/s", " MB/s", " GB/s", " TB/s" };
   scale_t s = { 1.0, 0, "" };
   int k = 0;
   double a;

   switch (unit) {
   case LAB_CMP_UNIT_COUNT:
      s.decimals = (v == floor (v) || fabs (v) >= 100) ? 0 : (fabs (v) < 10 ? 2 : 1);
      return s;
   case LAB_CMP_UNIT_RATE:
      s.suffix = "/s";
      s.decimals = fabs (v) >= 99.95 ? 0 : (fabs (v) < 9.995 ? 2 : 1);
      return s;
   case LAB_CMP_UNIT_SECONDS:
      s.suffix = " s";
      s.decimals = (v != 0.0 && fabs (v) < 0.995) ? 3 : decimals_for (v);
      return s;
   case LAB_CMP_UNIT_MS:
      s.suffix = " ms";
      /* sub-millisecond latencies (a folded master in cache) keep three decimals: 0.004 ms, not 0.00 */
      s.decimals = (v != 0.0 && fabs (v) < 0.995) ? 3 : decimals_for (v);
      return s;
   case LAB_CMP_UNIT_PCT:
      s.suffix = "%";
      s.decimals = 1;
      return s;
   case LAB_CMP_UNIT_BYTES:
   case LAB_CMP_UNIT_MB_S:
      a = fabs (v) * (unit == LAB_CMP_UNIT_MB_S ? 1e6 : 1.0);
      while (k < 4 && a >= 999.5) {
         a /= 1000.0;
         k++;
      }
      s.div = pow (1000.0, k) / (unit == LAB_CMP_UNIT_MB_S ? 1e6 : 1.0);
      s.suffix = unit == LAB_CMP_UNIT_MB_S ? rate_units[k] : byte_units[k];
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

/* lab_cmp_format -- see cmp.h. */
char *
lab_cmp_format (lab_cmp_unit_t unit, double v)
{
   bson_string_t *s = bson_string_new (NULL);
   scale_t sc = choose_scale (unit, v);

   append_number (s, v / sc.div, sc.decimals);
   bson_string_append (s, sc.suffix);
   return bson_string_free (s, false);
}

/* lab_cmp_format_stat -- see cmp.h. */
char *
lab_cmp_format_stat (lab_cmp_unit_t unit, const lab_cmp_stat_t *st)
{
   bson_string_t *s;
   scale_t sc;
   char a[64], b[64];
   bson_string_t *t;
   char *tmp;

   if (!st->present) {
      return bson_strdup ("n/a");
   }
   sc = choose_scale (unit, st->median);
   if (unit == LAB_CMP_UNIT_COUNT && (st->min != floor (st->min) || st->max != floor (st->max)) &&
       sc.decimals == 0 && fabs (st->median) < 100) {
      sc.decimals = 1;
   }
   s = bson_string_new (NULL);
   append_number (s, st->median / sc.div, sc.decimals);
   bson_string_append (s, sc.suffix);
   if (st->n > 1) {
      t = bson_string_new (NULL);
      append_number (t, st->min / sc.div, sc.decimals);
      tmp = bson_string_free (t, false);
      bson_strncpy (a, tmp, sizeof a);
      bson_free (tmp);
      t = bson_string_new (NULL);
      append_number (t, st->max / sc.div, sc.decimals);
      tmp = bson_string_free (t, false);
      bson_strncpy (b, tmp, sizeof b);
      bson_free (tmp);
      if (strcmp (a, b) != 0) {
         bson_string_append_printf (s, " (%s–%s)", a, b);
      }
   }
   return bson_string_free (s, false);
}

/* lab_cmp_md_escape -- see cmp.h. */
char *
lab_cmp_md_escape (const char *s)
{
   bson_string_t *out;
   const char *p;

   if (!s) {
      return bson_strdup ("n/a");
   }
   out = bson_string_new (NULL);
   for (p = s; *p; p++) {
      unsigned char c = (unsigned char)*p;
      if (c == '\n' || c == '\r' || c == '\t' || c < 0x20) {
         bson_string_append_c (out, ' ');
      } else if (strchr ("\\`*_{}[]<>#!|~&", c)) {
         bson_string_append_c (out, '\\');
         bson_string_append_c (out, (char)c);
      } else {
         bson_string_append_c (out, (char)c);
      }
   }
   return bson_string_free (out, false);
}
