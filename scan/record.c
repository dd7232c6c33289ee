/*
 * record.c -- the results entry of one measured (run, layout): a pure function of the
 * lab_scan_layout_measure_t that measure.c filled (docs/results-schema.md, "runs"). Unknown figures
 * (-1, or no device / engine counters) are left out rather than written as zero.
 */
#include "scan/measure/measure.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* append_opt_double -- a figure that may be unknown (absent when not known or not finite). */
static void
append_opt_double (bson_t *d, const char *k, double v, bool known)
{
   if (known && isfinite (v)) {
      BSON_APPEND_DOUBLE (d, k, v);
   }
}

/* append_opt_int -- a count that may be unknown (absent when negative). */
static void
append_opt_int (bson_t *d, const char *k, int64_t v)
{
   if (v >= 0) {
      BSON_APPEND_INT64 (d, k, v);
   }
}

/* append_start -- a process start time (ms since the epoch) as RFC 3339 UTC with ms; absent when unknown. */
static void
append_start (bson_t *d, const char *k, int64_t ms)
{
   time_t t;
   struct tm tm;
   char day[32], buf[48];

   if (ms < 0) {
      return;
   }
   t = (time_t)(ms / 1000);
   gmtime_r (&t, &tm);
   strftime (day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm);
   bson_snprintf (buf, sizeof buf, "%s.%03dZ", day, (int)(ms % 1000));
   BSON_APPEND_UTF8 (d, k, buf);
}

/* append_cold -- "cold": what the cold step did and how much of the layout was resident before. */
static void
append_cold (bson_t *entry, const lab_scan_layout_measure_t *m)
{
   bson_t cold;

   BSON_APPEND_DOCUMENT_BEGIN (entry, "cold", &cold);
   BSON_APPEND_BOOL (&cold, "requested", m->cold_requested);
   BSON_APPEND_BOOL (&cold, "started_cold", m->cold);
   if (!m->cold) {
      BSON_APPEND_UTF8 (&cold, "reason", m->cold_reason);
   }
   append_opt_int (&cold, "engine_cache_bytes_before", m->engine_cache_bytes_before);
   BSON_APPEND_BOOL (&cold, "engine_restarted", m->engine_restarted);
   BSON_APPEND_BOOL (&cold, "server_restarted", m->server_restarted);
   BSON_APPEND_BOOL (&cold, "caches_dropped", m->caches_dropped);
   BSON_APPEND_UTF8 (&cold, "drop_caches_note", m->drop_caches_note);
   if (m->server_facts) {
      append_opt_int (&cold, "server_pid", m->server_pid);
      append_opt_int (&cold, "server_uptime_s", m->server_uptime_s);
      append_start (&cold, "server_started_at", m->server_start_ms);
      if (m->member[0]) {
         BSON_APPEND_UTF8 (&cold, "member", m->member);
      }
      if (m->restart) {
         BSON_APPEND_UTF8 (&cold, "restart", m->restart);
         BSON_APPEND_UTF8 (&cold, "restart_reason", m->restart_reason);
      }
      BSON_APPEND_BOOL (&cold, "member_changed", m->member_changed);
   }
   if (m->topology_targets && m->ntargets > 0 && strcmp (m->targets[0].name, "server") != 0) {
      /* mongos: the shards' own processes */
      bson_t arr;
      size_t i;
      BSON_APPEND_ARRAY_BEGIN (&cold, "shards", &arr);
      for (i = 0; i < m->ntargets; i++) {
         bson_t sd;
         char idx[16];
         const char *ik;
         bson_uint32_to_string ((uint32_t)i, &ik, idx, sizeof idx);
         bson_append_document_begin (&arr, ik, -1, &sd);
         BSON_APPEND_UTF8 (&sd, "name", m->targets[i].name);
         BSON_APPEND_UTF8 (&sd, "host", m->targets[i].host);
         append_opt_int (&sd, "server_pid", m->targets[i].pid);
         append_opt_int (&sd, "server_uptime_s", m->targets[i].uptime_s);
         append_start (&sd, "server_started_at", m->targets[i].start_ms);
         BSON_APPEND_BOOL (&sd, "restarted", m->targets[i].restarted);
         BSON_APPEND_BOOL (&sd, "member_changed", m->targets[i].member_changed);
         bson_append_document_end (&arr, &sd);
      }
      bson_append_array_end (&cold, &arr);
   }
   append_opt_int (&cold, "resident_bytes_before", m->resident_bytes_before);
   append_opt_int (&cold, "file_bytes", m->file_bytes);
   append_opt_double (&cold, "resident_pct_before",
                      m->file_bytes > 0 ? 100.0 * (double)m->resident_bytes_before / (double)m->file_bytes
                                        : 0.0,
                      m->file_bytes >= 0);
   bson_append_document_end (entry, &cold);
}

/* append_totals -- counts, the device's counters and the engine's (only those it reports). */
static void
append_totals (bson_t *entry, const lab_scan_layout_measure_t *m)
{
   const lab_store_engine_stats_t *a = &m->engine_before, *b = &m->engine_after;
   bson_t eng;

   BSON_APPEND_INT64 (entry, "docs", m->docs);
   BSON_APPEND_INT64 (entry, "rows", m->rows);
   BSON_APPEND_INT64 (entry, "keys", m->keys);
   BSON_APPEND_INT64 (entry, "keys_unmatched", m->keys_unmatched);
   BSON_APPEND_INT64 (entry, "bytes_returned", m->bytes_returned);
   {
      char dig[24];
      bson_snprintf (dig, sizeof dig, "%016llx", (unsigned long long)m->digest);
      BSON_APPEND_UTF8 (entry, "digest", dig);
   }
   if (m->have_disk) {
      BSON_APPEND_INT64 (entry, "read_requests", (int64_t)m->disk.reads);
      BSON_APPEND_INT64 (entry, "read_bytes", (int64_t)m->disk.read_bytes);
      BSON_APPEND_INT64 (entry, "read_time_ms", (int64_t)m->disk.read_time_ms);
      BSON_APPEND_INT64 (entry, "io_ticks_ms", (int64_t)m->disk.io_ticks_ms);
   }
   if (!m->have_engine) {
      return;
   }
   /* no "engine" object at all when the engine reports none of these */
   bson_init (&eng);
   if (a->block_reads >= 0 && b->block_reads >= 0) {
      BSON_APPEND_INT64 (&eng, "block_reads", b->block_reads - a->block_reads);
   }
   if (a->block_read_bytes >= 0 && b->block_read_bytes >= 0) {
      BSON_APPEND_INT64 (&eng, "block_read_bytes", b->block_read_bytes - a->block_read_bytes);
   }
   if (a->cache_read_bytes >= 0 && b->cache_read_bytes >= 0) {
      BSON_APPEND_INT64 (&eng, "cache_read_bytes", b->cache_read_bytes - a->cache_read_bytes);
   }
   if (a->cache_pages_read >= 0 && b->cache_pages_read >= 0) {
      BSON_APPEND_INT64 (&eng, "cache_pages_read", b->cache_pages_read - a->cache_pages_read);
   }
   if (!bson_empty (&eng)) {
      BSON_APPEND_DOCUMENT (entry, "engine", &eng);
   }
   bson_destroy (&eng);
}

/* append_server_disk -- "disk_source", and "server_disk": the getDiagnosticData figures of each followed
 * server (mongos: each shard), with the disk chosen and why. */
static void
append_server_disk (bson_t *entry, const lab_scan_layout_measure_t *m)
{
   bson_t sd, arr;
   size_t i, n = 0;

   if (m->disk_source) {
      BSON_APPEND_UTF8 (entry, "disk_source", m->disk_source);
   }
   for (i = 0; i < m->ntargets; i++) {
      n += m->targets[i].have_disk;
   }
   if (n == 0) {
      return;
   }
   BSON_APPEND_DOCUMENT_BEGIN (entry, "server_disk", &sd);
   BSON_APPEND_UTF8 (&sd, "source", "ftdc");
   BSON_APPEND_INT64 (&sd, "ftdc_samples", (int64_t)m->ftdc_samples);
   BSON_APPEND_ARRAY_BEGIN (&sd, "servers", &arr);
   for (i = 0, n = 0; i < m->ntargets; i++) {
      const lab_scan_target_measure_t *t = &m->targets[i];
      bson_t d;
      char idx[16];
      const char *ik;
      if (!t->have_disk) {
         continue;
      }
      bson_uint32_to_string ((uint32_t)n++, &ik, idx, sizeof idx);
      bson_append_document_begin (&arr, ik, -1, &d);
      BSON_APPEND_UTF8 (&d, "name", t->name);
      BSON_APPEND_UTF8 (&d, "host", t->host);
      BSON_APPEND_UTF8 (&d, "device", t->device);
      BSON_APPEND_UTF8 (&d, "device_reason", t->device_reason);
      BSON_APPEND_DOUBLE (&d, "elapsed_s", t->disk.elapsed_s);
      BSON_APPEND_INT64 (&d, "read_requests", (int64_t)t->disk.reads);
      BSON_APPEND_INT64 (&d, "read_bytes", (int64_t)t->disk.read_bytes);
      BSON_APPEND_INT64 (&d, "read_time_ms", (int64_t)t->disk.read_time_ms);
      BSON_APPEND_INT64 (&d, "io_ticks_ms", (int64_t)t->disk.io_ticks_ms);
      BSON_APPEND_DOUBLE (&d, "read_requests_per_s", t->disk.reads_per_s);
      BSON_APPEND_DOUBLE (&d, "read_mb_s", t->disk.read_mb_s);
      append_opt_double (&d, "avg_read_request_bytes", t->disk.avg_read_bytes, t->disk.reads > 0);
      append_opt_double (&d, "read_await_ms", t->disk.read_await_ms, t->disk.reads > 0);
      BSON_APPEND_DOUBLE (&d, "util_pct", t->disk.util_pct);
      bson_append_document_end (&arr, &d);
   }
   bson_append_array_end (&sd, &arr);
   bson_append_document_end (entry, &sd);
}

/* append_rates -- "rates": device means and peaks (peaks over the samples, else the mean), load rates. */
static void
append_rates (bson_t *entry, const lab_scan_layout_measure_t *m)
{
   const lab_scan_diskstats_delta_t *dd = &m->disk;
   double rps_peak = -1, mbs_peak = -1;
   bson_t rates;
   size_t j;

   for (j = 0; j < m->nsamples; j++) {
      if (m->samples[j].have_disk) {
         if (m->samples[j].disk.reads_per_s > rps_peak) {
            rps_peak = m->samples[j].disk.reads_per_s;
         }
         if (m->samples[j].disk.read_mb_s > mbs_peak) {
            mbs_peak = m->samples[j].disk.read_mb_s;
         }
      }
   }
   BSON_APPEND_DOCUMENT_BEGIN (entry, "rates", &rates);
   if (m->have_disk) {
      BSON_APPEND_DOUBLE (&rates, "read_requests_per_s_mean", dd->reads_per_s);
      BSON_APPEND_DOUBLE (&rates, "read_requests_per_s_peak", rps_peak >= 0 ? rps_peak : dd->reads_per_s);
      BSON_APPEND_DOUBLE (&rates, "read_mb_s_mean", dd->read_mb_s);
      BSON_APPEND_DOUBLE (&rates, "read_mb_s_peak", mbs_peak >= 0 ? mbs_peak : dd->read_mb_s);
      append_opt_double (&rates, "avg_read_request_bytes", dd->avg_read_bytes, dd->reads > 0);
      append_opt_double (&rates, "read_await_ms", dd->read_await_ms, dd->reads > 0);
      /* reads with no io_ticks: the load was shorter than the kernel's busy-time tick, so 0% would be
       * false (unknown, absent; the report says n/a) */
      append_opt_double (&rates, "util_pct_mean", dd->util_pct, dd->reads == 0 || dd->io_ticks_ms > 0);
   }
   if (m->elapsed_s > 0) {
      BSON_APPEND_DOUBLE (&rates, "docs_per_s", (double)m->docs / m->elapsed_s);
      BSON_APPEND_DOUBLE (&rates, "rows_per_s", (double)m->rows / m->elapsed_s);
      BSON_APPEND_DOUBLE (&rates, "returned_mb_s", (double)m->bytes_returned / m->elapsed_s / 1e6);
   }
   bson_append_document_end (entry, &rates);
}

/* append_memory -- "memory": the sampler's peaks. */
static void
append_memory (bson_t *entry, const lab_scan_layout_measure_t *m)
{
   bson_t mem;

   BSON_APPEND_DOCUMENT_BEGIN (entry, "memory", &mem);
   append_opt_int (&mem, "server_rss_peak_bytes", m->server_rss_peak_bytes);
   append_opt_int (&mem, "cache_peak_bytes", m->cache_peak_bytes);
   append_opt_int (&mem, "cache_max_bytes", m->cache_max_bytes);
   append_opt_double (
      &mem, "cache_peak_pct",
      m->cache_max_bytes > 0 ? 100.0 * (double)m->cache_peak_bytes / (double)m->cache_max_bytes : 0,
      m->cache_max_bytes > 0 && m->cache_peak_bytes >= 0);
   bson_append_document_end (entry, &mem);
}

/* busy_pct -- the share of `cores` CPUs that `cores_busy` CPUs' worth of time is, in percent (-1 unknown). */
static double
busy_pct (double cores_busy, int cores)
{
   return cores_busy >= 0 && cores > 0 ? 100.0 * cores_busy / (double)cores : -1;
}

/* append_cpu -- "cpu": the CPU time of the store's process over the load, and how busy it kept the CPUs
 * it may use (mean over the load, the busiest interval); absent when that process was not measured. */
static void
append_cpu (bson_t *entry, const lab_scan_layout_measure_t *m)
{
   double peak = -1;
   bson_t cpu;
   size_t j;

   if (m->cpu_s < 0) {
      return;
   }
   for (j = 0; j < m->nsamples; j++) {
      double pct = busy_pct (m->samples[j].cpu_cores_busy, m->cpu_cores);
      if (pct > peak) {
         peak = pct;
      }
   }
   BSON_APPEND_DOCUMENT_BEGIN (entry, "cpu", &cpu);
   BSON_APPEND_DOUBLE (&cpu, "process_s", m->cpu_s);
   if (m->cpu_cores > 0) {
      BSON_APPEND_INT32 (&cpu, "cores", m->cpu_cores);
   }
   append_opt_double (&cpu, "busy_pct_mean",
                      m->elapsed_s > 0 ? busy_pct (m->cpu_s / m->elapsed_s, m->cpu_cores) : -1,
                      m->elapsed_s > 0 && m->cpu_cores > 0);
   append_opt_double (&cpu, "busy_pct_peak", peak, peak >= 0);
   bson_append_document_end (entry, &cpu);
}

/* append_latency -- "latency_ms": the summary and the histogram from the first to the last non-empty
 * bucket. */
static void
append_latency (bson_t *entry, const lab_scan_layout_measure_t *m)
{
   const lab_scan_latency_summary_t *ls = &m->latency;
   int lo = 0, hi = LAB_LATENCY_NBUCKETS - 1, b, n = 0;
   bson_t latd, harr;

   BSON_APPEND_DOCUMENT_BEGIN (entry, "latency_ms", &latd);
   BSON_APPEND_INT64 (&latd, "count", ls->count);
   if (ls->count > 0) {
      BSON_APPEND_DOUBLE (&latd, "min", ls->min_ms);
      BSON_APPEND_DOUBLE (&latd, "mean", ls->mean_ms);
      BSON_APPEND_DOUBLE (&latd, "p50", ls->p50_ms);
      BSON_APPEND_DOUBLE (&latd, "p90", ls->p90_ms);
      BSON_APPEND_DOUBLE (&latd, "p95", ls->p95_ms);
      BSON_APPEND_DOUBLE (&latd, "p99", ls->p99_ms);
      BSON_APPEND_DOUBLE (&latd, "max", ls->max_ms);
   }
   while (lo < LAB_LATENCY_NBUCKETS && m->histogram[lo] == 0) {
      lo++;
   }
   while (hi >= 0 && m->histogram[hi] == 0) {
      hi--;
   }
   BSON_APPEND_ARRAY_BEGIN (&latd, "histogram", &harr);
   for (b = lo; b <= hi; b++) {
      bson_t hb;
      char idx[16];
      const char *ik;
      bson_uint32_to_string ((uint32_t)n++, &ik, idx, sizeof idx);
      bson_append_document_begin (&harr, ik, -1, &hb);
      BSON_APPEND_DOUBLE (&hb, "le_ms", lab_scan_latency_bucket_le (b));
      BSON_APPEND_INT64 (&hb, "count", m->histogram[b]);
      bson_append_document_end (&harr, &hb);
   }
   bson_append_array_end (&latd, &harr);
   bson_append_document_end (entry, &latd);
}

/* append_workers -- "workers": each worker's keys, docs, rows and time. */
static void
append_workers (bson_t *entry, const lab_scan_layout_measure_t *m)
{
   bson_t warr;
   int i;

   BSON_APPEND_ARRAY_BEGIN (entry, "workers", &warr);
   for (i = 0; i < m->nworkers; i++) {
      bson_t wd;
      char idx[16];
      const char *ik;
      bson_uint32_to_string ((uint32_t)i, &ik, idx, sizeof idx);
      bson_append_document_begin (&warr, ik, -1, &wd);
      BSON_APPEND_INT32 (&wd, "worker", i);
      BSON_APPEND_INT64 (&wd, "keys", m->workers[i].keys);
      BSON_APPEND_INT64 (&wd, "docs", m->workers[i].docs);
      BSON_APPEND_INT64 (&wd, "rows", m->workers[i].rows);
      BSON_APPEND_DOUBLE (&wd, "elapsed_s", m->workers[i].elapsed_s);
      bson_append_document_end (&warr, &wd);
   }
   bson_append_array_end (entry, &warr);
}

/* append_samples -- "samples": the sampler's intervals. */
static void
append_samples (bson_t *entry, const lab_scan_layout_measure_t *m)
{
   bson_t sarr;
   size_t j;

   BSON_APPEND_ARRAY_BEGIN (entry, "samples", &sarr);
   for (j = 0; j < m->nsamples; j++) {
      const lab_scan_sample_t *x = &m->samples[j];
      bson_t sd;
      char idx[16];
      const char *ik;
      bson_uint32_to_string ((uint32_t)j, &ik, idx, sizeof idx);
      bson_append_document_begin (&sarr, ik, -1, &sd);
      BSON_APPEND_DOUBLE (&sd, "t_s", x->t_s);
      if (x->have_disk) {
         BSON_APPEND_DOUBLE (&sd, "read_requests_per_s", x->disk.reads_per_s);
         BSON_APPEND_DOUBLE (&sd, "read_mb_s", x->disk.read_mb_s);
         append_opt_double (&sd, "read_await_ms", x->disk.read_await_ms, x->disk.reads > 0);
         BSON_APPEND_DOUBLE (&sd, "util_pct", x->disk.util_pct);
      }
      append_opt_int (&sd, "server_rss_bytes", x->rss_bytes);
      append_opt_int (&sd, "cache_bytes", x->cache_bytes);
      append_opt_double (&sd, "cpu_busy_pct", busy_pct (x->cpu_cores_busy, m->cpu_cores),
                         x->cpu_cores_busy >= 0 && m->cpu_cores > 0);
      BSON_APPEND_DOUBLE (&sd, "docs_per_s", x->docs_per_s);
      BSON_APPEND_DOUBLE (&sd, "returned_mb_s", x->returned_mb_s);
      append_opt_double (&sd, "engine_block_reads_per_s", x->engine_block_reads_per_s,
                         x->engine_block_reads_per_s >= 0);
      append_opt_double (&sd, "engine_read_mb_s", x->engine_read_mb_s, x->engine_read_mb_s >= 0);
      BSON_APPEND_INT64 (&sd, "keys_done", x->keys_done);
      bson_append_document_end (&sarr, &sd);
   }
   bson_append_array_end (entry, &sarr);
}

/* lab_scan_layout_entry -- see measure.h. */
void
lab_scan_layout_entry (const lab_scan_layout_measure_t *m, bson_t *entry)
{
   BSON_APPEND_INT32 (entry, "run", m->run);
   BSON_APPEND_UTF8 (entry, "layout", m->layout);
   BSON_APPEND_UTF8 (entry, "collection", m->collection);
   BSON_APPEND_INT32 (entry, "order_in_run", m->order_in_run);
   BSON_APPEND_UTF8 (entry, "load_order", lab_scan_load_order_names ()[m->load_order]);
   BSON_APPEND_UTF8 (entry, "started_at", m->started_at);
   BSON_APPEND_DOUBLE (entry, "elapsed_s", m->elapsed_s);
   lab_scan_state_append (entry, &m->state);
   append_cold (entry, m);
   append_totals (entry, m);
   append_server_disk (entry, m);
   append_rates (entry, m);
   append_memory (entry, m);
   append_cpu (entry, m);
   lab_scan_bg_append (entry, &m->background);
   append_latency (entry, m);
   append_workers (entry, m);
   append_samples (entry, m);
}
