/*
 * table.c -- the comparison table printed when scancmp is done, rendered from the results document
 * (the same figures the JSON holds: medians over runs from `summary`, sizes from `dataset`).
 */
#include "scan/scan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef enum { LOWER = -1, NEUTRAL = 0, HIGHER = 1 } better_t;
typedef enum { F_COUNT, F_BYTES_MB, F_SECONDS, F_MS, F_RATE, F_MBS, F_BYTES, F_PCT } fmt_t;

typedef struct {
   const char *label;
   const char *where;  /* "dataset" or "summary" */
   const char *figure; /* dataset: field of dataset.<layout>; summary: figure name */
   fmt_t fmt;
   better_t better;
} row_t;

static const row_t rows[] = {
   {"documents", "dataset", "count", F_COUNT, LOWER},
   {"storage size (MB)", "dataset", "storage_size_bytes", F_BYTES_MB, LOWER},
   {"index size (MB)", "dataset", "index_size_bytes", F_BYTES_MB, LOWER},
   {"load time (s)", "summary", "elapsed_s", F_SECONDS, LOWER},
   {"rows returned", "summary", "rows", F_COUNT, NEUTRAL},
   {"read requests (total)", "summary", "read_requests", F_COUNT, LOWER},
   {"read requests/s (mean)", "summary", "read_requests_per_s_mean", F_RATE, NEUTRAL},
   {"read requests/s (peak)", "summary", "read_requests_per_s_peak", F_RATE, NEUTRAL},
   {"MB read (total)", "summary", "read_bytes", F_BYTES_MB, LOWER},
   {"MB read/s (mean)", "summary", "read_mb_s_mean", F_MBS, NEUTRAL},
   {"MB read/s (peak)", "summary", "read_mb_s_peak", F_MBS, NEUTRAL},
   {"average read request (KB)", "summary", "avg_read_request_bytes", F_BYTES, HIGHER},
   {"read await (ms)", "summary", "read_await_ms", F_MS, LOWER},
   {"device busy (%)", "summary", "util_pct_mean", F_PCT, NEUTRAL},
   {"engine blocks read", "summary", "block_reads", F_COUNT, LOWER},
   {"documents returned/s", "summary", "docs_per_s", F_RATE, NEUTRAL},
   {"rows returned/s", "summary", "rows_per_s", F_RATE, HIGHER},
   {"MB returned/s", "summary", "returned_mb_s", F_MBS, HIGHER},
   {"per-key latency p50 (ms)", "summary", "latency_p50_ms", F_MS, LOWER},
   {"per-key latency p95 (ms)", "summary", "latency_p95_ms", F_MS, LOWER},
   {"per-key latency p99 (ms)", "summary", "latency_p99_ms", F_MS, LOWER},
   {"peak server memory (MB)", "summary", "server_rss_peak_bytes", F_BYTES_MB, LOWER},
   {"peak cache use (MB)", "summary", "cache_peak_bytes", F_BYTES_MB, LOWER},
   {"peak cache use (% of max)", "summary", "cache_peak_pct", F_PCT, LOWER},
   {"data resident before (%)", "summary", "resident_pct_before", F_PCT, NEUTRAL},
};

/* lookup -- the figure for one layout; false when absent. */
static bool
lookup (const bson_t *results, const row_t *r, const char *layout, double *v)
{
   bson_iter_t it, f;
   char path[160];

   if (strcmp (r->where, "dataset") == 0) {
      snprintf (path, sizeof path, "dataset.%s.%s", layout, r->figure);
   } else {
      snprintf (path, sizeof path, "summary.%s.%s.median", layout, r->figure);
   }
   if (!bson_iter_init (&it, results) || !bson_iter_find_descendant (&it, path, &f)) {
      return false;
   }
   if (!BSON_ITER_HOLDS_NUMBER (&f)) {
      return false;
   }
   *v = bson_iter_as_double (&f);
   return true;
}

/* group -- thousands separators for an integer. */
static void
group (double v, char *buf, size_t len)
{
   char tmp[64];
   int n, i, j = 0, lead;
   bool neg = v < 0;

   snprintf (tmp, sizeof tmp, "%.0f", fabs (v));
   n = (int) strlen (tmp);
   lead = n % 3 ? n % 3 : 3;
   if (neg && j < (int) len - 1) {
      buf[j++] = '-';
   }
   for (i = 0; i < n && j < (int) len - 2; i++) {
      if (i > 0 && (i - lead) % 3 == 0) {
         buf[j++] = ',';
      }
      buf[j++] = tmp[i];
   }
   buf[j] = '\0';
}

/* format -- one value in its row's unit. */
static void
format (double v, fmt_t f, char *buf, size_t len)
{
   switch (f) {
   case F_COUNT:
      group (v, buf, len);
      break;
   case F_BYTES_MB:
      snprintf (buf, len, "%.2f", v / 1e6);
      break;
   case F_SECONDS:
      snprintf (buf, len, "%.2f", v);
      break;
   case F_MS:
      snprintf (buf, len, v < 10 ? "%.3f" : "%.1f", v);
      break;
   case F_RATE:
      if (v >= 100) {
         group (v, buf, len);
      } else {
         snprintf (buf, len, "%.1f", v);
      }
      break;
   case F_MBS:
      snprintf (buf, len, "%.2f", v);
      break;
   case F_BYTES:
      snprintf (buf, len, "%.1f", v / 1e3);
      break;
   case F_PCT:
      snprintf (buf, len, "%.1f", v);
      break;
   }
}

/* lab_scan_table_render -- see scan.h. */
char *
lab_scan_table_render (const bson_t *results)
{
   bson_string_t *s = bson_string_new (NULL);
   bson_iter_t it, f;
   int nruns = 0;
   size_t i;
   bool cold = false;

   if (bson_iter_init (&it, results) && bson_iter_find_descendant (&it, "summary.detail.runs", &f)) {
      nruns = (int) bson_iter_as_int64 (&f);
   }
   if (bson_iter_init (&it, results) && bson_iter_find_descendant (&it, "config.cold", &f)) {
      cold = bson_iter_as_bool (&f);
   }
   bson_string_append_printf (s, "%s load of both layouts, %d run%s%s\n", cold ? "Cold" : "Warm", nruns,
                              nruns == 1 ? "" : "s", nruns > 1 ? " (medians)" : "");
   bson_string_append_printf (s, "%-28s %16s %16s %9s  %s\n", "metric", "one doc per row", "folded", "ratio",
                              "better");
   bson_string_append_printf (s, "%-28s %16s %16s %9s  %s\n", "----------------------------", "---------------",
                              "---------------", "--------", "------");
   for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
      const row_t *r = &rows[i];
      double d, fo;
      bool hd = lookup (results, r, "detail", &d);
      bool hf = lookup (results, r, "folded", &fo);
      char bd[32] = "n/a", bf[32] = "n/a", ratio[32] = "", better[16] = "";

      if (!hd && !hf) {
         continue;
      }
      if (hd) {
         format (d, r->fmt, bd, sizeof bd);
      }
      if (hf) {
         format (fo, r->fmt, bf, sizeof bf);
      }
      if (hd && hf && d != 0) {
         double q = fo / d;
         snprintf (ratio, sizeof ratio, "%.1f%%", q * 100.0);
         if (r->better != NEUTRAL) {
            if (fabs (q - 1.0) < 0.02) {
               snprintf (better, sizeof better, "~ same");
            } else if ((q < 1.0) == (r->better == LOWER)) {
               snprintf (better, sizeof better, "folded");
            } else {
               snprintf (better, sizeof better, "detail");
            }
         }
      } else if (hd && hf) {
         snprintf (ratio, sizeof ratio, fo == 0 ? "=" : "-");
      }
      bson_string_append_printf (s, "%-28s %16s %16s %9s  %s\n", r->label, bd, bf, ratio, better);
   }
   bson_string_append (s, "ratio = folded / one doc per row; MB = 10^6 bytes; n/a = not measured here\n");
   return bson_string_free (s, false);
}
