/*
 * latency.c -- per-key latency: exact percentiles from every stored time, and a log-spaced histogram
 * (1-2-5 per decade) for the report's distribution chart.
 */
#include "scan/scan.h"

#include "core/percentile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* lab_scan_percentile -- linear interpolation between closest ranks. */
double
lab_scan_percentile (const double *sorted, size_t n, double p)
{
   double pos, frac;
   size_t lo;

   if (n == 0) {
      return 0;
   }
   if (p <= 0) {
      return sorted[0];
   }
   if (p >= 100) {
      return sorted[n - 1];
   }
   pos = p / 100.0 * (double)(n - 1);
   lo = (size_t)pos;
   frac = pos - (double)lo;
   if (lo + 1 >= n) {
      return sorted[n - 1];
   }
   return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * frac;
}

/* cmp_double -- ascending doubles for qsort. */
static int
cmp_double (const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y ? 1 : 0;
}

/* lab_scan_latency_summarize -- sort, then read min/max/percentiles off the sorted array. */
void
lab_scan_latency_summarize (double *ms, size_t n, lab_scan_latency_summary_t *out)
{
   double sum = 0;
   size_t i;

   memset (out, 0, sizeof *out);
   out->count = (int64_t)n;
   if (n == 0) {
      return;
   }
   qsort (ms, n, sizeof *ms, cmp_double);
   for (i = 0; i < n; i++) {
      sum += ms[i];
   }
   out->min_ms = ms[0];
   out->max_ms = ms[n - 1];
   out->mean_ms = sum / (double)n;
   out->p50_ms = lab_scan_percentile (ms, n, 50);
   out->p90_ms = lab_scan_percentile (ms, n, 90);
   out->p95_ms = lab_scan_percentile (ms, n, 95);
   out->p99_ms = lab_scan_percentile (ms, n, 99);
}

/* ms3 -- v rounded to the microsecond. */
static double
ms3 (double v)
{
   return round (v * 1e3) / 1e3;
}

/* lab_scan_latency_append -- see scan.h. */
void
lab_scan_latency_append (bson_t *parent, const char *key, const lab_scan_latency_summary_t *s)
{
   static const double pct[3] = { 50, 95, 99 };
   static const char *const names[3] = { "p50", "p95", "p99" };
   const double v[3] = { s->p50_ms, s->p95_ms, s->p99_ms };
   bson_t lat;
   int i;

   bson_append_document_begin (parent, key, -1, &lat);
   BSON_APPEND_INT64 (&lat, "count", s->count);
   for (i = 0; i < 3; i++) {
      if (lab_percentile_supported (pct[i], s->count)) {
         BSON_APPEND_DOUBLE (&lat, names[i], ms3 (v[i]));
      } else {
         BSON_APPEND_NULL (&lat, names[i]); /* too few observations: n/a, not a number that looks like one */
      }
   }
   BSON_APPEND_DOUBLE (&lat, "max", ms3 (s->max_ms));
   BSON_APPEND_DOUBLE (&lat, "mean", ms3 (s->mean_ms));
   bson_append_document_end (parent, &lat);
}

/* lab_scan_latency_bucket_le -- 0.01, 0.02, 0.05, 0.1, ... 100000 ms. */
double
lab_scan_latency_bucket_le (int i)
{
   static const double steps[3] = { 1, 2, 5 };
   double decade = 0.01;
   int k;

   for (k = 0; k < i / 3; k++) {
      decade *= 10;
   }
   return decade * steps[i % 3];
}

/* lab_scan_latency_histogram -- count each value into the first bucket whose bound is >= it. */
void
lab_scan_latency_histogram (const double *ms, size_t n, int64_t counts[LAB_LATENCY_NBUCKETS])
{
   size_t i;

   memset (counts, 0, sizeof (int64_t) * LAB_LATENCY_NBUCKETS);
   for (i = 0; i < n; i++) {
      int b = 0;
      while (b < LAB_LATENCY_NBUCKETS - 1 && ms[i] > lab_scan_latency_bucket_le (b)) {
         b++;
      }
      counts[b]++;
   }
}
