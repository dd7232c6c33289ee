/*
 * sampler.c -- the sampler thread of a run: every interval, the device's /proc/diskstats (iostat
 * figures), server RSS and CPU time, engine cache use, and what the workers have returned so far; a final
 * partial interval is sampled at stop. Internal to scan/ (sampler.h).
 */
#include "scan/measure/sampler.h"

#include "core/error.h"
#include "core/opts.h"

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* lab_scan_sampler_rss -- VmRSS of pid in bytes, -1 when unknown. */
int64_t
lab_scan_sampler_rss (int64_t pid)
{
   char path[64];
   char line[256];
   FILE *f;
   int64_t rss = -1;

   if (pid <= 0) {
      return -1;
   }
   snprintf (path, sizeof path, "/proc/%lld/status", (long long)pid);
   f = fopen (path, "r");
   if (!f) {
      return -1;
   }
   while (fgets (line, sizeof line, f)) {
      long long kb;
      if (sscanf (line, "VmRSS: %lld kB", &kb) == 1) {
         rss = kb * 1024;
         break;
      }
   }
   fclose (f);
   return rss;
}

/* lab_scan_sampler_cpu_cores -- see sampler.h. */
int
lab_scan_sampler_cpu_cores (int64_t pid)
{
   cpu_set_t set;
   long online;

   if (pid <= 0) {
      return -1;
   }
   CPU_ZERO (&set);
   if (sched_getaffinity ((pid_t)pid, sizeof set, &set) == 0 && CPU_COUNT (&set) > 0) {
      return CPU_COUNT (&set);
   }
   online = sysconf (_SC_NPROCESSORS_ONLN);
   return online > 0 ? (int)online : -1;
}

/* lab_scan_sampler_open_fds -- how many file descriptors this process holds (entries of /proc/self/fd, less
 * the one reading it), -1 when unknown. */
int
lab_scan_sampler_open_fds (void)
{
   DIR *d = opendir ("/proc/self/fd");
   struct dirent *e;
   int n = 0;

   if (!d) {
      return -1;
   }
   while ((e = readdir (d))) {
      if (e->d_name[0] != '.') {
         n++;
      }
   }
   closedir (d);
   return n - 1;
}

/* engine_stats -- the engine statistics of s->store, or summed over s->stat_stores (a figure known by
 * none stays -1). */
static bool
engine_stats (lab_scan_sampler_t *s, lab_store_engine_stats_t *es)
{
   bson_error_t err;
   size_t i;
   bool any = false;

   if (s->nstat_stores == 0) {
      return lab_store_engine_stats (s->store, es, &err);
   }
   {
      lab_store_engine_stats_t each[LAB_SCAN_MAX_TARGETS];
      size_t n = 0;
      for (i = 0; i < s->nstat_stores && n < LAB_SCAN_MAX_TARGETS; i++) {
         if (lab_store_engine_stats (s->stat_stores[i], &each[n], &err)) {
            n++;
            any = true;
         }
      }
      /* gauges for the peaks: a shard that did not answer this sample is left out */
      lab_scan_engine_sum (each, n, false, es);
   }
   return any;
}

/* take_ftdc -- one getDiagnosticData round into `into` (one point per store); a failed sample keeps the
 * store's previous point. */
static void
take_ftdc (lab_scan_sampler_t *s, lab_scan_ftdc_point_t *into)
{
   size_t i;

   for (i = 0; i < s->nftdc; i++) {
      lab_scan_ftdc_point_t p;
      bson_error_t err;
      if (lab_scan_ftdc_take (s->ftdc_stores[i], &p, &err)) {
         into[i] = p;
      }
   }
   if (s->nftdc > 0) {
      s->ftdc_samples++;
   }
}

/* take -- one reading of every source. */
static void
take (lab_scan_sampler_t *s, lab_scan_sampler_point_t *p)
{
   lab_store_engine_stats_t es;
   bson_error_t err;

   memset (p, 0, sizeof *p);
   p->t_ns = lab_now_ns ();
   if (s->device) {
      p->have_disk = lab_scan_diskstats_read (s->diskstats_path, s->device, &p->disk, &err);
   }
   p->rss_bytes = -1;
   p->cpu_s = lab_process_cpu_s (s->rss_pid);
   p->cache_bytes = -1;
   p->cache_max_bytes = -1;
   p->block_reads = -1;
   p->block_read_bytes = -1;
   if (engine_stats (s, &es)) {
      p->block_reads = es.block_reads;
      p->block_read_bytes = es.block_read_bytes;
      p->cache_bytes = es.cache_bytes;
      p->cache_max_bytes = es.cache_max_bytes;
      p->rss_bytes = es.server_rss_bytes;
   }
   if (s->rss_pid > 0) {
      /* an unreadable /proc file keeps the engine's figure (mem.resident) */
      int64_t rss = lab_scan_sampler_rss (s->rss_pid);
      if (rss >= 0) {
         p->rss_bytes = rss;
      }
   }
   p->keys = atomic_load (&s->live->keys);
   p->docs = atomic_load (&s->live->docs);
   p->bytes = atomic_load (&s->live->bytes);
}

/* ftdc_interval -- the interval's server-side disk figures (ftdc_prev -> ftdc_last), summed over the
 * followed servers, of --server-device (or a server's only disk); false when no server has two distinct
 * samples of it (FTDC samples once a second: a shorter interval may see the same sample twice). */
static bool
ftdc_interval (const lab_scan_sampler_t *s, lab_scan_diskstats_delta_t *out)
{
   size_t i;
   bool any = false;

   memset (out, 0, sizeof *out);
   for (i = 0; i < s->nftdc; i++) {
      lab_store_facts_disks_t a, b;
      const lab_store_facts_disk_t *da, *db;
      lab_store_facts_disk_delta_t d;
      double dt;

      if (!s->ftdc_prev[i].have || !s->ftdc_last[i].have) {
         continue;
      }
      lab_scan_ftdc_view (&s->ftdc_prev[i], &a);
      lab_scan_ftdc_view (&s->ftdc_last[i], &b);
      db = s->ftdc_device  ? lab_store_facts_disks_find (&b, s->ftdc_device)
           : b.ndisks == 1 ? &b.disks[0]
                           : NULL;
      dt = lab_store_facts_disks_elapsed_s (&a, &b);
      if (!db || dt <= 0) {
         continue;
      }
      da = lab_store_facts_disks_find (&a, db->name);
      lab_store_facts_disk_delta (da, db, dt, &d);
      out->reads += d.reads;
      out->read_bytes += d.read_bytes;
      out->read_time_ms += d.read_time_ms;
      out->io_ticks_ms += d.io_ticks_ms;
      out->elapsed_s = d.elapsed_s > out->elapsed_s ? d.elapsed_s : out->elapsed_s;
      out->util_pct = d.util_pct > out->util_pct ? d.util_pct : out->util_pct;
      any = true;
   }
   if (!any) {
      return false;
   }
   out->reads_per_s = (double)out->reads / out->elapsed_s;
   out->read_kb_s = (double)out->read_bytes / 1024.0 / out->elapsed_s;
   out->read_mb_s = (double)out->read_bytes / 1e6 / out->elapsed_s;
   out->read_await_ms = out->reads > 0 ? (double)out->read_time_ms / (double)out->reads : -1;
   out->avg_read_bytes = out->reads > 0 ? (double)out->read_bytes / (double)out->reads : -1;
   return true;
}

/* record -- turn two readings into a sample and track the peaks. */
static void
record (lab_scan_sampler_t *s, const lab_scan_sampler_point_t *a, const lab_scan_sampler_point_t *b)
{
   lab_scan_sample_t *x;
   double dt = (double)(b->t_ns - a->t_ns) / 1e9;

   if (b->rss_bytes > s->rss_peak_bytes) {
      s->rss_peak_bytes = b->rss_bytes;
   }
   if (b->cache_bytes > s->cache_peak_bytes) {
      s->cache_peak_bytes = b->cache_bytes;
   }
   if (b->cache_max_bytes > 0) {
      s->cache_max_bytes = b->cache_max_bytes;
   }
   if (dt <= 0) {
      return;
   }
   if (s->nsamples == s->cap) {
      s->cap = s->cap ? s->cap * 2 : 64;
      s->samples = bson_realloc (s->samples, s->cap * sizeof *s->samples);
   }
   x = &s->samples[s->nsamples++];
   memset (x, 0, sizeof *x);
   x->t_s = (double)(b->t_ns - s->start.t_ns) / 1e9;
   x->dt_s = dt;
   x->have_disk = a->have_disk && b->have_disk;
   if (x->have_disk) {
      lab_scan_diskstats_delta (&a->disk, &b->disk, dt, &x->disk);
   } else if (s->nftdc > 0) {
      x->have_disk = ftdc_interval (s, &x->disk);
   }
   x->rss_bytes = b->rss_bytes;
   x->cache_bytes = b->cache_bytes;
   x->docs_per_s = (double)(b->docs - a->docs) / dt;
   x->returned_mb_s = (double)(b->bytes - a->bytes) / dt / 1e6;
   x->keys_done = b->keys;
   x->engine_block_reads_per_s =
      a->block_reads >= 0 && b->block_reads >= 0 ? (double)(b->block_reads - a->block_reads) / dt : -1;
   x->engine_read_mb_s = a->block_read_bytes >= 0 && b->block_read_bytes >= 0
                            ? (double)(b->block_read_bytes - a->block_read_bytes) / dt / 1e6
                            : -1;
   x->cpu_cores_busy = a->cpu_s >= 0 && b->cpu_s >= a->cpu_s ? (b->cpu_s - a->cpu_s) / dt : -1;
   if (x->have_disk && s->progress) {
      char extra[64];
      snprintf (extra, sizeof extra, "r/s %.0f, %.1f MB/s read", x->disk.reads_per_s, x->disk.read_mb_s);
      lab_progress_set_extra (s->progress, extra);
   }
}

/* sampler_main -- wait one interval (or the stop signal), sample, repeat; a final partial sample. */
static void *
sampler_main (void *arg)
{
   lab_scan_sampler_t *s = arg;
   lab_scan_sampler_point_t prev = s->start, cur;
   uint64_t next = s->start.t_ns + s->interval_ns;

   pthread_mutex_lock (&s->mu);
   for (;;) {
      struct timespec ts;
      bool stopping;

      clock_gettime (CLOCK_MONOTONIC, &ts);
      {
         uint64_t now = lab_now_ns ();
         uint64_t wait = next > now ? next - now : 0;
         uint64_t ns = (uint64_t)ts.tv_nsec + wait % 1000000000ull;
         ts.tv_sec += (time_t)(wait / 1000000000ull + ns / 1000000000ull);
         ts.tv_nsec = (long)(ns % 1000000000ull);
      }
      while (!s->stop && lab_now_ns () < next) {
         if (pthread_cond_timedwait (&s->cv, &s->mu, &ts) != 0) {
            break;
         }
      }
      stopping = s->stop;
      pthread_mutex_unlock (&s->mu);
      take (s, &cur);
      memcpy (s->ftdc_prev, s->ftdc_last, sizeof s->ftdc_prev);
      take_ftdc (s, s->ftdc_last);
      if (!stopping || s->nsamples == 0 || cur.t_ns - prev.t_ns >= s->interval_ns / 4) {
         record (s, &prev, &cur);
      } else {
         /* a sliver of an interval makes noisy rates: keep only its peaks */
         lab_scan_sampler_point_t tmp = cur;
         tmp.t_ns = prev.t_ns;
         record (s, &prev, &tmp);
      }
      s->last = cur;
      prev = cur;
      next += s->interval_ns;
      if (next < cur.t_ns) {
         next = cur.t_ns + s->interval_ns;
      }
      pthread_mutex_lock (&s->mu);
      if (stopping) {
         break;
      }
   }
   pthread_mutex_unlock (&s->mu);
   return NULL;
}

/* lab_scan_sampler_start -- take the baseline reading (s->start) and start the thread. */
bool
lab_scan_sampler_start (lab_scan_sampler_t *s, bson_error_t *error)
{
   pthread_mutex_init (&s->mu, NULL);
   s->inited = true;
   {
      pthread_condattr_t ca;
      pthread_condattr_init (&ca);
      pthread_condattr_setclock (&ca, CLOCK_MONOTONIC);
      pthread_cond_init (&s->cv, &ca);
      pthread_condattr_destroy (&ca);
   }
   s->rss_peak_bytes = -1;
   s->cache_peak_bytes = -1;
   s->cache_max_bytes = -1;
   s->cpu_cores = lab_scan_sampler_cpu_cores (s->rss_pid);
   lab_scan_bg_take (s->rss_pid, &s->bg_start);
   take (s, &s->start);
   take_ftdc (s, s->ftdc_start);
   memcpy (s->ftdc_last, s->ftdc_start, sizeof s->ftdc_last);
   if (s->device && !s->start.have_disk) {
      bson_error_t err;
      if (!lab_scan_diskstats_read (s->diskstats_path, s->device, &s->start.disk, &err)) {
         *error = err;
         return false;
      }
      s->start.have_disk = true;
   }
   record (s, &s->start, &s->start); /* peaks only: dt is 0 */
   s->last = s->start;
   if (pthread_create (&s->thread, NULL, sampler_main, s) != 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_THREAD, "cannot start the sampler thread");
      return false;
   }
   s->running = true;
   return true;
}

/* lab_scan_sampler_stop -- signal, join; s->last is the final reading. */
void
lab_scan_sampler_stop (lab_scan_sampler_t *s)
{
   if (s->running) {
      pthread_mutex_lock (&s->mu);
      s->stop = true;
      pthread_cond_signal (&s->cv);
      pthread_mutex_unlock (&s->mu);
      pthread_join (s->thread, NULL);
      s->running = false;
      lab_scan_bg_take (s->rss_pid, &s->bg_last);
   }
}

/* lab_scan_sampler_destroy -- free the samples and the sync objects. */
void
lab_scan_sampler_destroy (lab_scan_sampler_t *s)
{
   lab_scan_sampler_stop (s);
   if (s->inited) {
      pthread_mutex_destroy (&s->mu);
      pthread_cond_destroy (&s->cv);
      s->inited = false;
   }
   bson_free (s->samples);
   s->samples = NULL;
}
