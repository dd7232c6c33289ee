/*
 * run.c -- lab_scan_run: the whole comparison. Read the keys (before anything is made cold), then per
 * run and layout: make it cold (or not), record how cold it really was, start the sampler and the
 * workers (one contiguous key segment and one store session each), drain every document, and build
 * the results document of docs/results-schema.md.
 */
#include "scan/sampler.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"
#include "core/results.h"
#include "core/uri.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* lab_scan_opts_init -- see scan.h. */
void
lab_scan_opts_init (lab_scan_opts_t *o)
{
   memset (o, 0, sizeof *o);
   o->detail = "bill_detail";
   o->folded = "detail_coll";
   o->key = "bill_id";
   o->array_field = "details";
   o->parallel = 4;
   o->runs = 1;
   o->order = LAB_ORDER_ALTERNATE;
   o->drop_caches = LAB_DROP_AUTO;
   o->interval_ns = 1000000000ull;
   o->restart_timeout_ms = 120000;
   o->ready_timeout_ms = 60000;
   o->calibrate_bytes = 1ull << 30;
   o->calibrate_rand_ns = 3000000000ull;
   o->progress = LAB_PROGRESS_AUTO;
}

/* lab_scan_order_parse -- see scan.h. */
bool
lab_scan_order_parse (const char *s, lab_scan_order_t *out)
{
   if (strcmp (s, "alternate") == 0) {
      *out = LAB_ORDER_ALTERNATE;
   } else if (strcmp (s, "detail-first") == 0) {
      *out = LAB_ORDER_DETAIL_FIRST;
   } else if (strcmp (s, "folded-first") == 0) {
      *out = LAB_ORDER_FOLDED_FIRST;
   } else {
      return false;
   }
   return true;
}

/* lab_drop_mode_parse -- see scan.h. */
bool
lab_drop_mode_parse (const char *s, lab_drop_mode_t *out)
{
   if (strcmp (s, "auto") == 0) {
      *out = LAB_DROP_AUTO;
   } else if (strcmp (s, "yes") == 0) {
      *out = LAB_DROP_YES;
   } else if (strcmp (s, "no") == 0) {
      *out = LAB_DROP_NO;
   } else {
      return false;
   }
   return true;
}

/* lab_scan_opts_check -- see scan.h. */
bool
lab_scan_opts_check (const lab_scan_opts_t *o, const char *uri, bson_error_t *error)
{
   if (o->interval_ns < 10000000ull) {
      lab_error_set (error, LAB_ERROR_USAGE, 1, "--interval %.3gs is below 10ms", (double) o->interval_ns / 1e9);
      return false;
   }
   if (o->calibrate_bytes < (1u << 20)) {
      lab_error_set (error, LAB_ERROR_USAGE, 1, "--calibrate-size %llu bytes is below 1MiB",
                     (unsigned long long) o->calibrate_bytes);
      return false;
   }
   if (o->direct_io && uri && strncmp (uri, "wiredtiger:", 11) != 0) {
      lab_error_set (error, LAB_ERROR_USAGE, 1, "--direct-io applies to the embedded store (wiredtiger:DIR) only");
      return false;
   }
   return true;
}

static const char *order_names[] = {"alternate", "detail-first", "folded-first"};
static const char *drop_names[] = {"auto", "yes", "no"};

static void
say (const lab_scan_opts_t *o, bool debug, const char *fmt, ...) BSON_GNUC_PRINTF (3, 4);
/* say -- a log line through the caller's callback. */
static void
say (const lab_scan_opts_t *o, bool debug, const char *fmt, ...)
{
   va_list ap;
   char *msg;

   if (!o->log) {
      return;
   }
   va_start (ap, fmt);
   msg = bson_strdupv_printf (fmt, ap);
   va_end (ap);
   o->log (o->log_ctx, debug, msg);
   bson_free (msg);
}

/* utc_now -- RFC 3339 UTC time. */
static void
utc_now (char *buf, size_t len)
{
   time_t t = time (NULL);
   struct tm tm;
   gmtime_r (&t, &tm);
   strftime (buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- workers ------------------------------------------------------------------------------------- */

typedef struct {
   lab_store_t *store;
   const lab_scan_opts_t *opts;
   const char *coll;
   bool folded;
   const bson_value_t *keys;
   int64_t first, end;
   lab_scan_live_t *live;
   lab_progress_t *progress;
   /* results */
   double *lat_ms;
   int64_t nlat;
   int64_t docs, rows, bytes;
   uint64_t elapsed_ns;
   bool failed;
   bson_error_t error;
} worker_t;

typedef struct {
   worker_t *w;
   int64_t docs, rows, bytes;
} doc_ctx_t;

/* on_doc -- count a document, its bytes and its rows (the folded array's elements). */
static bool
on_doc (const bson_t *doc, void *ctx)
{
   doc_ctx_t *c = ctx;

   c->docs++;
   c->bytes += doc->len;
   if (c->w->folded) {
      bson_iter_t it, child;
      if (bson_iter_init_find (&it, doc, c->w->opts->array_field) && BSON_ITER_HOLDS_ARRAY (&it) &&
          bson_iter_recurse (&it, &child)) {
         while (bson_iter_next (&child)) {
            c->rows++;
         }
      }
   } else {
      c->rows++;
   }
   return true;
}

/* worker_main -- query {key: value} for each key of the segment and drain every document. */
static void *
worker_main (void *arg)
{
   worker_t *w = arg;
   lab_session_t *sess;
   uint64_t t_start = lab_now_ns ();
   int64_t k;

   sess = lab_session_open (w->store, &w->error);
   if (!sess) {
      w->failed = true;
      atomic_store (&w->live->stop, true);
      return NULL;
   }
   for (k = w->first; k < w->end; k++) {
      doc_ctx_t c = {w, 0, 0, 0};
      uint64_t t0;

      if (atomic_load (&w->live->stop)) {
         break;
      }
      t0 = lab_now_ns ();
      if (!lab_store_find_eq (sess, w->coll, w->opts->key, &w->keys[k], on_doc, &c, NULL, &w->error)) {
         char kb[128];
         lab_value_text (&w->keys[k], kb, sizeof kb);
         lab_error_prefix (&w->error, "collection %s, %s %s", w->coll, w->opts->key, kb);
         w->failed = true;
         atomic_store (&w->live->stop, true);
         break;
      }
      w->lat_ms[w->nlat++] = (double) (lab_now_ns () - t0) / 1e6;
      w->docs += c.docs;
      w->rows += c.rows;
      w->bytes += c.bytes;
      atomic_fetch_add (&w->live->keys, 1);
      atomic_fetch_add (&w->live->docs, c.docs);
      atomic_fetch_add (&w->live->rows, c.rows);
      atomic_fetch_add (&w->live->bytes, c.bytes);
      lab_progress_add (w->progress, 1, (uint64_t) c.bytes);
   }
   w->elapsed_ns = lab_now_ns () - t_start;
   lab_session_close (sess);
   return NULL;
}

/* ---- the cold step ------------------------------------------------------------------------------- */

typedef struct {
   const lab_scan_opts_t *opts;
   lab_backend_t backend;
   bool server_local;
   char *restart_shown;
   bool dropped;
   bool restarted_cmd;
   char drop_note[512];
} cycle_ctx_t;

/* cycle_hook -- while the store is closed: run the restart command, drop the page cache. */
static bool
cycle_hook (lab_store_t *store, void *arg, bson_error_t *error)
{
   cycle_ctx_t *c = arg;

   if (c->backend == LAB_BACKEND_MONGO && c->opts->restart_cmd) {
      say (c->opts, true, "running the restart command: %s", c->restart_shown);
      if (!lab_run_command (c->opts->restart_cmd, c->restart_shown, c->opts->restart_timeout_ms, error)) {
         return false;
      }
      c->restarted_cmd = true;
   }
   if (c->backend == LAB_BACKEND_MONGO && !c->server_local) {
      snprintf (c->drop_note, sizeof c->drop_note, "not possible: the server is not on this machine");
      if (c->opts->drop_caches == LAB_DROP_YES) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_PERMISSION,
                        "--drop-caches yes: the server is not on this machine, so its page cache cannot be "
                        "dropped from here; drop it in --restart-cmd and use --drop-caches no");
         return false;
      }
      if (c->opts->drop_caches == LAB_DROP_NO) {
         snprintf (c->drop_note, sizeof c->drop_note, "not requested (--drop-caches no)");
      }
      return true;
   }
   return lab_drop_caches (c->opts->drop_caches, &c->dropped, c->drop_note, sizeof c->drop_note, error);
}

/* ---- one (run, layout) --------------------------------------------------------------------------- */

typedef struct {
   lab_store_t *store;
   const lab_scan_opts_t *opts;
   lab_backend_t backend;
   bson_value_t *keys;
   int64_t nkeys;
   const char *device;  /* NULL: unknown */
   lab_server_info_t info;
   char *restart_shown;
} scan_t;

/* append_opt_double -- a figure that may be unknown (absent when negative / not finite). */
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

/* residency -- resident and total bytes of the layout's data files; false when unknown. */
static bool
residency (scan_t *s, const char *coll, int64_t *resident, int64_t *total, bson_error_t *error)
{
   char **paths = NULL;
   bool ok;

   if (s->backend == LAB_BACKEND_WT) {
      if (!lab_store_data_files (s->store, coll, &paths, error)) {
         return false;
      }
   } else if (s->opts->dbpath && s->info.local) {
      if (!lab_dir_files (s->opts->dbpath, &paths, error)) {
         return false;
      }
   } else {
      *resident = *total = -1;
      return true;
   }
   ok = lab_resident_bytes (paths, resident, total, error);
   bson_strfreev (paths);
   return ok;
}

/* run_layout -- one layout of one run; appends its entry to `runs`. */
static bool
run_layout (scan_t *s, int run, const char *layout, int order_in_run, bson_t *entry, bson_error_t *error)
{
   const lab_scan_opts_t *o = s->opts;
   bool folded = strcmp (layout, "folded") == 0;
   const char *coll = folded ? o->folded : o->detail;
   cycle_ctx_t cc;
   lab_server_info_t after;
   int64_t resident = -1, file_bytes = -1;
   lab_engine_stats_t es0, es1;
   bool have_es0 = false, have_es1 = false;
   lab_sampler_t smp;
   lab_scan_live_t live;
   worker_t *workers = NULL;
   pthread_t *tids = NULL;
   int64_t *starts = NULL;
   int i, started = 0;
   uint64_t t0, t1;
   char started_at[32];
   char label[96];
   lab_progress_t *progress = NULL;
   bool ok = false;
   bson_error_t err;

   memset (&cc, 0, sizeof cc);
   memset (&smp, 0, sizeof smp);
   memset (&live, 0, sizeof live);
   after = s->info;

   /* 1. cold */
   if (o->cold) {
      cc.opts = o;
      cc.backend = s->backend;
      cc.server_local = s->info.local;
      cc.restart_shown = s->restart_shown;
      say (o, false, "run %d %s: making it cold", run, layout);
      if (!lab_store_cycle (s->store, cycle_hook, &cc, o->ready_timeout_ms, error)) {
         if (lab_error_is (error, LAB_ERROR_STORE, LAB_STORE_ERR_UNREACHABLE)) {
            lab_error_prefix (error, "run %d %s: the server did not answer ping within %.0f s after the cold "
                              "step%s (raise --ready-timeout or fix --restart-cmd)",
                              run, layout, o->ready_timeout_ms / 1000.0, cc.restarted_cmd ? " and the restart command" : "");
         } else {
            lab_error_prefix (error, "run %d %s: cold step", run, layout);
         }
         goto done;
      }
      if (!lab_store_server_info (s->store, &after, error)) {
         lab_error_prefix (error, "run %d %s: after the cold step", run, layout);
         goto done;
      }
      say (o, true, "run %d %s: page cache %s", run, layout, cc.drop_note);
   }
   if (!residency (s, coll, &resident, &file_bytes, error)) {
      lab_error_prefix (error, "run %d %s: residency of %s", run, layout, coll);
      goto done;
   }
   if (resident >= 0) {
      say (o, true, "run %d %s: %lld of %lld bytes of %s resident before the run", run, layout,
           (long long) resident, (long long) file_bytes,
           s->backend == LAB_BACKEND_WT ? coll : "the files under --dbpath");
   }

   /* 2. measure */
   workers = bson_malloc0 ((size_t) o->parallel * sizeof *workers);
   tids = bson_malloc0 ((size_t) o->parallel * sizeof *tids);
   starts = bson_malloc0 ((size_t) (o->parallel + 1) * sizeof *starts);
   lab_keys_segment (s->nkeys, o->parallel, starts);
   snprintf (label, sizeof label, "run %d %s", run, layout);
   progress = lab_progress_new (o->progress, label, "keys", (uint64_t) s->nkeys);

   smp.store = s->store;
   smp.device = s->device;
   smp.rss_pid = s->info.local ? after.pid : 0;
   smp.interval_ns = o->interval_ns;
   smp.live = &live;
   smp.progress = progress;
   have_es0 = lab_store_engine_stats (s->store, &es0, &err);
   utc_now (started_at, sizeof started_at);
   if (!lab_sampler_start (&smp, error)) {
      goto done;
   }
   t0 = smp.start.t_ns;
   for (i = 0; i < o->parallel; i++) {
      worker_t *w = &workers[i];
      w->store = s->store;
      w->opts = o;
      w->coll = coll;
      w->folded = folded;
      w->keys = s->keys;
      w->first = starts[i];
      w->end = starts[i + 1];
      w->live = &live;
      w->progress = progress;
      w->lat_ms = bson_malloc0 ((size_t) (w->end - w->first + 1) * sizeof (double));
      if (pthread_create (&tids[i], NULL, worker_main, w) != 0) {
         lab_error_set (error, LAB_ERROR_SCAN, 1, "cannot start worker thread %d", i);
         atomic_store (&live.stop, true);
         break;
      }
      started++;
   }
   for (i = 0; i < started; i++) {
      pthread_join (tids[i], NULL);
   }
   lab_sampler_stop (&smp);
   t1 = smp.last.t_ns;
   have_es1 = lab_store_engine_stats (s->store, &es1, &err);
   lab_progress_done (progress);
   progress = NULL;
   if (started < o->parallel) {
      goto done;
   }
   for (i = 0; i < o->parallel; i++) {
      if (workers[i].failed) {
         *error = workers[i].error;
         lab_error_prefix (error, "run %d %s, worker %d", run, layout, i);
         goto done;
      }
   }

   /* 3. the entry */
   {
      double elapsed_s = (double) (t1 - t0) / 1e9;
      int64_t docs = 0, rows = 0, bytes = 0, nlat = 0;
      double *lat;
      lab_latency_summary_t ls;
      int64_t hist[LAB_LATENCY_NBUCKETS];
      lab_diskstats_delta_t dd;
      bool have_disk = smp.start.have_disk && smp.last.have_disk;
      bson_t cold, eng, rates, mem, latd, harr, warr, sarr;
      double rps_peak = -1, mbs_peak = -1;
      size_t j;

      for (i = 0; i < o->parallel; i++) {
         docs += workers[i].docs;
         rows += workers[i].rows;
         bytes += workers[i].bytes;
         nlat += workers[i].nlat;
      }
      lat = bson_malloc0 ((size_t) (nlat + 1) * sizeof *lat);
      nlat = 0;
      for (i = 0; i < o->parallel; i++) {
         memcpy (lat + nlat, workers[i].lat_ms, (size_t) workers[i].nlat * sizeof *lat);
         nlat += workers[i].nlat;
      }
      lab_latency_summarize (lat, (size_t) nlat, &ls);
      lab_latency_histogram (lat, (size_t) nlat, hist);
      bson_free (lat);
      if (have_disk) {
         lab_diskstats_delta (&smp.start.disk, &smp.last.disk, elapsed_s, &dd);
      }
      for (j = 0; j < smp.nsamples; j++) {
         if (smp.samples[j].have_disk) {
            if (smp.samples[j].disk.reads_per_s > rps_peak) {
               rps_peak = smp.samples[j].disk.reads_per_s;
            }
            if (smp.samples[j].disk.read_mb_s > mbs_peak) {
               mbs_peak = smp.samples[j].disk.read_mb_s;
            }
         }
      }

      BSON_APPEND_INT32 (entry, "run", run);
      BSON_APPEND_UTF8 (entry, "layout", layout);
      BSON_APPEND_UTF8 (entry, "collection", coll);
      BSON_APPEND_INT32 (entry, "order_in_run", order_in_run);
      BSON_APPEND_UTF8 (entry, "started_at", started_at);
      BSON_APPEND_DOUBLE (entry, "elapsed_s", elapsed_s);

      BSON_APPEND_DOCUMENT_BEGIN (entry, "cold", &cold);
      BSON_APPEND_BOOL (&cold, "requested", o->cold);
      {
         /* embedded: the cold step closes and reopens the engine; a server restarted when its pid changed
          * or its uptime went back */
         bool server_restarted = o->cold && s->backend == LAB_BACKEND_MONGO &&
                                 ((after.pid > 0 && after.pid != s->info.pid) ||
                                  (after.uptime_s >= 0 && s->info.uptime_s >= 0 && after.uptime_s < s->info.uptime_s));
         BSON_APPEND_BOOL (&cold, "engine_restarted", s->backend == LAB_BACKEND_WT ? o->cold : server_restarted);
         BSON_APPEND_BOOL (&cold, "server_restarted", server_restarted);
      }
      BSON_APPEND_BOOL (&cold, "caches_dropped", cc.dropped);
      BSON_APPEND_UTF8 (&cold, "drop_caches_note", o->cold ? cc.drop_note : "warm run: no cold step (--cold not given)");
      if (s->backend == LAB_BACKEND_MONGO) {
         append_opt_int (&cold, "server_pid", after.pid > 0 ? after.pid : -1);
         append_opt_int (&cold, "server_uptime_s", after.uptime_s);
      }
      append_opt_int (&cold, "resident_bytes_before", resident);
      append_opt_int (&cold, "file_bytes", file_bytes);
      append_opt_double (&cold, "resident_pct_before", file_bytes > 0 ? 100.0 * (double) resident / (double) file_bytes : 0.0,
                         file_bytes >= 0);
      bson_append_document_end (entry, &cold);

      BSON_APPEND_INT64 (entry, "docs", docs);
      BSON_APPEND_INT64 (entry, "rows", rows);
      BSON_APPEND_INT64 (entry, "keys", nlat);
      BSON_APPEND_INT64 (entry, "bytes_returned", bytes);
      if (have_disk) {
         BSON_APPEND_INT64 (entry, "read_requests", (int64_t) dd.reads);
         BSON_APPEND_INT64 (entry, "read_bytes", (int64_t) dd.read_bytes);
         BSON_APPEND_INT64 (entry, "read_time_ms", (int64_t) dd.read_time_ms);
         BSON_APPEND_INT64 (entry, "io_ticks_ms", (int64_t) dd.io_ticks_ms);
      }
      if (have_es0 && have_es1) {
         /* only the counters this engine reports; no "engine" object at all when it reports none */
         bson_init (&eng);
         if (es0.block_reads >= 0 && es1.block_reads >= 0) {
            BSON_APPEND_INT64 (&eng, "block_reads", es1.block_reads - es0.block_reads);
         }
         if (es0.block_read_bytes >= 0 && es1.block_read_bytes >= 0) {
            BSON_APPEND_INT64 (&eng, "block_read_bytes", es1.block_read_bytes - es0.block_read_bytes);
         }
         if (es0.cache_read_bytes >= 0 && es1.cache_read_bytes >= 0) {
            BSON_APPEND_INT64 (&eng, "cache_read_bytes", es1.cache_read_bytes - es0.cache_read_bytes);
         }
         if (es0.cache_pages_read >= 0 && es1.cache_pages_read >= 0) {
            BSON_APPEND_INT64 (&eng, "cache_pages_read", es1.cache_pages_read - es0.cache_pages_read);
         }
         if (!bson_empty (&eng)) {
            BSON_APPEND_DOCUMENT (entry, "engine", &eng);
         }
         bson_destroy (&eng);
      }

      BSON_APPEND_DOCUMENT_BEGIN (entry, "rates", &rates);
      if (have_disk) {
         BSON_APPEND_DOUBLE (&rates, "read_requests_per_s_mean", dd.reads_per_s);
         BSON_APPEND_DOUBLE (&rates, "read_requests_per_s_peak", rps_peak >= 0 ? rps_peak : dd.reads_per_s);
         BSON_APPEND_DOUBLE (&rates, "read_mb_s_mean", dd.read_mb_s);
         BSON_APPEND_DOUBLE (&rates, "read_mb_s_peak", mbs_peak >= 0 ? mbs_peak : dd.read_mb_s);
         append_opt_double (&rates, "avg_read_request_bytes", dd.avg_read_bytes, dd.reads > 0);
         append_opt_double (&rates, "read_await_ms", dd.read_await_ms, dd.reads > 0);
         BSON_APPEND_DOUBLE (&rates, "util_pct_mean", dd.util_pct);
      }
      if (elapsed_s > 0) {
         BSON_APPEND_DOUBLE (&rates, "docs_per_s", (double) docs / elapsed_s);
         BSON_APPEND_DOUBLE (&rates, "rows_per_s", (double) rows / elapsed_s);
         BSON_APPEND_DOUBLE (&rates, "returned_mb_s", (double) bytes / elapsed_s / 1e6);
      }
      bson_append_document_end (entry, &rates);

      BSON_APPEND_DOCUMENT_BEGIN (entry, "memory", &mem);
      append_opt_int (&mem, "server_rss_peak_bytes", smp.rss_peak_bytes);
      append_opt_int (&mem, "cache_peak_bytes", smp.cache_peak_bytes);
      append_opt_int (&mem, "cache_max_bytes", smp.cache_max_bytes);
      append_opt_double (&mem, "cache_peak_pct",
                         smp.cache_max_bytes > 0 ? 100.0 * (double) smp.cache_peak_bytes / (double) smp.cache_max_bytes
                                                 : 0,
                         smp.cache_max_bytes > 0 && smp.cache_peak_bytes >= 0);
      bson_append_document_end (entry, &mem);

      BSON_APPEND_DOCUMENT_BEGIN (entry, "latency_ms", &latd);
      BSON_APPEND_INT64 (&latd, "count", ls.count);
      if (ls.count > 0) {
         BSON_APPEND_DOUBLE (&latd, "min", ls.min_ms);
         BSON_APPEND_DOUBLE (&latd, "mean", ls.mean_ms);
         BSON_APPEND_DOUBLE (&latd, "p50", ls.p50_ms);
         BSON_APPEND_DOUBLE (&latd, "p90", ls.p90_ms);
         BSON_APPEND_DOUBLE (&latd, "p95", ls.p95_ms);
         BSON_APPEND_DOUBLE (&latd, "p99", ls.p99_ms);
         BSON_APPEND_DOUBLE (&latd, "max", ls.max_ms);
      }
      BSON_APPEND_ARRAY_BEGIN (&latd, "histogram", &harr);
      {
         int lo = 0, hi = LAB_LATENCY_NBUCKETS - 1, b, n = 0;
         while (lo < LAB_LATENCY_NBUCKETS && hist[lo] == 0) {
            lo++;
         }
         while (hi >= 0 && hist[hi] == 0) {
            hi--;
         }
         for (b = lo; b <= hi; b++) {
            bson_t hb;
            char idx[16];
            const char *ik;
            bson_uint32_to_string ((uint32_t) n++, &ik, idx, sizeof idx);
            bson_append_document_begin (&harr, ik, -1, &hb);
            BSON_APPEND_DOUBLE (&hb, "le_ms", lab_latency_bucket_le (b));
            BSON_APPEND_INT64 (&hb, "count", hist[b]);
            bson_append_document_end (&harr, &hb);
         }
      }
      bson_append_array_end (&latd, &harr);
      bson_append_document_end (entry, &latd);

      BSON_APPEND_ARRAY_BEGIN (entry, "workers", &warr);
      for (i = 0; i < o->parallel; i++) {
         bson_t wd;
         char idx[16];
         const char *ik;
         bson_uint32_to_string ((uint32_t) i, &ik, idx, sizeof idx);
         bson_append_document_begin (&warr, ik, -1, &wd);
         BSON_APPEND_INT32 (&wd, "worker", i);
         BSON_APPEND_INT64 (&wd, "keys", workers[i].nlat);
         BSON_APPEND_INT64 (&wd, "docs", workers[i].docs);
         BSON_APPEND_INT64 (&wd, "rows", workers[i].rows);
         BSON_APPEND_DOUBLE (&wd, "elapsed_s", (double) workers[i].elapsed_ns / 1e9);
         bson_append_document_end (&warr, &wd);
      }
      bson_append_array_end (entry, &warr);

      BSON_APPEND_ARRAY_BEGIN (entry, "samples", &sarr);
      for (j = 0; j < smp.nsamples; j++) {
         const lab_scan_sample_t *x = &smp.samples[j];
         bson_t sd;
         char idx[16];
         const char *ik;
         bson_uint32_to_string ((uint32_t) j, &ik, idx, sizeof idx);
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
         BSON_APPEND_DOUBLE (&sd, "docs_per_s", x->docs_per_s);
         BSON_APPEND_DOUBLE (&sd, "returned_mb_s", x->returned_mb_s);
         append_opt_double (&sd, "engine_block_reads_per_s", x->engine_block_reads_per_s,
                            x->engine_block_reads_per_s >= 0);
         append_opt_double (&sd, "engine_read_mb_s", x->engine_read_mb_s, x->engine_read_mb_s >= 0);
         BSON_APPEND_INT64 (&sd, "keys_done", x->keys_done);
         bson_append_document_end (&sarr, &sd);
      }
      bson_append_array_end (entry, &sarr);

      say (o, false, "run %d %s: %lld keys, %lld docs, %lld rows in %.2f s", run, layout, (long long) nlat,
           (long long) docs, (long long) rows, elapsed_s);
   }
   s->info = after; /* the next cold step compares against this server process */
   ok = true;
done:
   lab_progress_done (progress);
   lab_sampler_destroy (&smp);
   if (workers) {
      for (i = 0; i < o->parallel; i++) {
         bson_free (workers[i].lat_ms);
      }
   }
   bson_free (workers);
   bson_free (tids);
   bson_free (starts);
   return ok;
}

/* ---- the whole comparison ------------------------------------------------------------------------ */

/* append_host -- hostname, kernel, CPU, cores, RAM. */
static void
append_host (bson_t *results)
{
   bson_t h;
   char hn[256] = "";
   struct utsname u;
   char cpu[256] = "";
   FILE *f;

   gethostname (hn, sizeof hn - 1);
   BSON_APPEND_DOCUMENT_BEGIN (results, "host", &h);
   BSON_APPEND_UTF8 (&h, "hostname", hn);
   if (uname (&u) == 0) {
      char k[512];
      snprintf (k, sizeof k, "%s %s %s", u.sysname, u.release, u.machine);
      BSON_APPEND_UTF8 (&h, "kernel", k);
   }
   f = fopen ("/proc/cpuinfo", "r");
   if (f) {
      char line[512];
      while (fgets (line, sizeof line, f)) {
         char *colon = strchr (line, ':');
         if (strncmp (line, "model name", 10) == 0 && colon) {
            colon++;
            while (*colon == ' ' || *colon == '\t') {
               colon++;
            }
            colon[strcspn (colon, "\n")] = '\0';
            bson_strncpy (cpu, colon, sizeof cpu);
            break;
         }
      }
      fclose (f);
   }
   if (cpu[0]) {
      BSON_APPEND_UTF8 (&h, "cpu_model", cpu);
   }
   BSON_APPEND_INT32 (&h, "cores", (int32_t) sysconf (_SC_NPROCESSORS_ONLN));
   BSON_APPEND_INT64 (&h, "ram_bytes", (int64_t) sysconf (_SC_PHYS_PAGES) * (int64_t) sysconf (_SC_PAGESIZE));
   bson_append_document_end (results, &h);
}

/* check_collection -- exists and has an index on the key (or create it with --create-index). */
static bool
check_collection (lab_session_t *sess, const lab_scan_opts_t *o, const char *coll, const char *which,
                  const char *where, bson_error_t *error)
{
   bool exists = false, has = false;

   if (!lab_store_exists (sess, coll, &exists, error)) {
      lab_error_prefix (error, "checking %s collection %s", which, coll);
      return false;
   }
   if (!exists) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                     "%s collection \"%s\" does not exist in %s; check --%s (and --uri/--db)", which, coll, where,
                     which);
      return false;
   }
   if (!lab_store_has_index (sess, coll, o->key, &has, error)) {
      lab_error_prefix (error, "checking the index on %s of %s", o->key, coll);
      return false;
   }
   if (!has) {
      if (!o->create_index) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
                        "collection \"%s\" has no index on the key field \"%s\": every key lookup would scan the "
                        "whole collection. Rerun with --create-index (builds it before measuring), or create it "
                        "yourself (mongosh: db.%s.createIndex({%s: 1}))",
                        coll, o->key, coll, o->key);
         return false;
      }
      if (!lab_store_create_index (sess, coll, o->key, error)) {
         lab_error_prefix (error, "--create-index on %s.%s", coll, o->key);
         return false;
      }
   }
   return true;
}

/* append_dataset_coll -- count, sizes and index facts of one collection. */
static bool
append_dataset_coll (lab_session_t *sess, bson_t *ds, const char *name, const char *coll, bson_error_t *error)
{
   lab_coll_stats_t st;
   bson_t d;

   if (!lab_store_stats (sess, coll, &st, error)) {
      lab_error_prefix (error, "statistics of %s", coll);
      return false;
   }
   bson_append_document_begin (ds, name, -1, &d);
   BSON_APPEND_UTF8 (&d, "collection", coll);
   BSON_APPEND_INT64 (&d, "count", st.count);
   BSON_APPEND_DOUBLE (&d, "avg_obj_size_bytes", st.avg_obj_size_bytes);
   append_opt_int (&d, "data_size_bytes", st.data_size_bytes);
   append_opt_int (&d, "storage_size_bytes", st.storage_size_bytes);
   append_opt_int (&d, "index_size_bytes", st.index_size_bytes);
   BSON_APPEND_INT32 (&d, "nindexes", st.nindexes);
   bson_append_document_end (ds, &d);
   return true;
}

/* lab_scan_run -- see scan.h. */
bool
lab_scan_run (lab_store_t *store, const lab_scan_opts_t *o, bson_t *results, bson_error_t *error)
{
   scan_t s;
   lab_session_t *sess = NULL;
   lab_device_t dev;
   bool have_dev = false;
   const char *datadir = NULL;
   char *where = NULL;
   char ts[32];
   bson_t *entries = NULL;
   int nentries = 0;
   lab_engine_stats_t es;
   bson_error_t err;
   lab_calibration_t cal;
   bson_t doc, arr;
   int run, k;
   bool ok = false;

   memset (&s, 0, sizeof s);
   s.store = store;
   s.opts = o;
   s.backend = lab_store_backend (store);
   if (o->restart_cmd) {
      s.restart_shown = lab_uri_redact (o->restart_cmd);
   }
   if (!lab_scan_opts_check (o, NULL, error)) {
      goto done;
   }
   if (strcmp (o->detail, o->folded) == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, 1, "--detail and --folded name the same collection \"%s\"", o->detail);
      goto done;
   }
   if (o->parallel < 1 || o->runs < 1) {
      lab_error_set (error, LAB_ERROR_USAGE, 1, "--parallel and --runs must be at least 1");
      goto done;
   }
   if (o->restart_cmd && s.backend == LAB_BACKEND_WT) {
      lab_error_set (error, LAB_ERROR_USAGE, 1,
                     "--restart-cmd is for a MongoDB server: on the embedded store (%s) the cold step closes and "
                     "reopens the engine itself",
                     lab_store_uri_redacted (store));
      goto done;
   }
   if (o->restart_cmd && !o->cold) {
      lab_error_set (error, LAB_ERROR_USAGE, 1, "--restart-cmd is run by the cold step: add --cold");
      goto done;
   }
   if (!lab_store_server_info (store, &s.info, error)) {
      goto done;
   }
   where = bson_strdup_printf ("%s (database %s)", lab_store_uri_redacted (store), lab_store_db (store));
   if (s.backend == LAB_BACKEND_MONGO && o->cold && !o->restart_cmd) {
      say (o, false, "warning: --cold without --restart-cmd: the server's own cache stays warm; only the OS "
                     "page cache can be dropped");
   }

   /* Keys and dataset, before anything is made cold. */
   sess = lab_session_open (store, error);
   if (!sess) {
      goto done;
   }
   if (!check_collection (sess, o, o->detail, "detail", where, error) ||
       !check_collection (sess, o, o->folded, "folded", where, error)) {
      goto done;
   }
   if (o->keys_file) {
      if (!lab_keys_read_file (o->keys_file, &s.keys, &s.nkeys, error)) {
         goto done;
      }
   } else if (!lab_store_distinct_keys (sess, o->folded, o->key, &s.keys, &s.nkeys, error)) {
      lab_error_prefix (error, "reading the keys of %s from its %s index", o->folded, o->key);
      goto done;
   }
   if (s.nkeys == 0) {
      lab_error_set (error, LAB_ERROR_SCAN, 1, "no key to load: %s has no %s values", o->keys_file ? o->keys_file : o->folded,
                     o->key);
      goto done;
   }
   lab_keys_spread (s.keys, &s.nkeys, o->keys_limit);
   say (o, false, "%lld keys to load per layout, %d workers", (long long) s.nkeys, o->parallel);

   utc_now (ts, sizeof ts);
   BSON_APPEND_INT32 (results, LAB_RESULTS_KEY_SCHEMA_VERSION, LAB_RESULTS_SCHEMA_VERSION);
   BSON_APPEND_UTF8 (results, "tool", "scancmp");
   BSON_APPEND_UTF8 (results, "tool_version", LAB_VERSION);
   BSON_APPEND_UTF8 (results, "started_at", ts);
   append_host (results);

   BSON_APPEND_DOCUMENT_BEGIN (results, "backend", &doc);
   BSON_APPEND_UTF8 (&doc, "name", s.info.backend);
   BSON_APPEND_UTF8 (&doc, "version", s.info.version);
   BSON_APPEND_UTF8 (&doc, "uri", lab_store_uri_redacted (store));
   BSON_APPEND_UTF8 (&doc, "db", lab_store_db (store));
   BSON_APPEND_BOOL (&doc, "server_local", s.info.local);
   if (s.info.host[0]) {
      BSON_APPEND_UTF8 (&doc, "server_host", s.info.host);
   }
   if (lab_store_engine_stats (store, &es, &err)) {
      append_opt_int (&doc, "cache_max_bytes", es.cache_max_bytes);
   }
   bson_append_document_end (results, &doc);

   /* The device. */
   datadir = s.backend == LAB_BACKEND_WT ? lab_store_home (store) : o->dbpath;
   if (datadir || o->device) {
      if (!lab_device_resolve (datadir ? datadir : "/", o->device, NULL, NULL, &dev, error)) {
         goto done;
      }
      have_dev = true;
      s.device = dev.name;
      say (o, false, "device %s: %s", dev.name, dev.reason);
      if (!lab_diskstats_read (NULL, dev.name, &(lab_diskstats_t){0}, error)) {
         goto done;
      }
   } else {
      say (o, false, "no --dbpath or --device for this server: device figures (read requests, MB read) are "
                     "not measured");
   }

   BSON_APPEND_DOCUMENT_BEGIN (results, "config", &doc);
   BSON_APPEND_UTF8 (&doc, "detail", o->detail);
   BSON_APPEND_UTF8 (&doc, "folded", o->folded);
   BSON_APPEND_UTF8 (&doc, "key", o->key);
   BSON_APPEND_UTF8 (&doc, "array_field", o->array_field);
   BSON_APPEND_BOOL (&doc, "cold", o->cold);
   BSON_APPEND_INT32 (&doc, "parallel", o->parallel);
   BSON_APPEND_INT32 (&doc, "runs", o->runs);
   BSON_APPEND_UTF8 (&doc, "order", order_names[o->order]);
   BSON_APPEND_INT64 (&doc, "keys_limit", o->keys_limit);
   if (o->keys_file) {
      BSON_APPEND_UTF8 (&doc, "keys_file", o->keys_file);
   } else {
      BSON_APPEND_NULL (&doc, "keys_file");
   }
   if (s.restart_shown) {
      BSON_APPEND_UTF8 (&doc, "restart_cmd", s.restart_shown);
   } else {
      BSON_APPEND_NULL (&doc, "restart_cmd");
   }
   BSON_APPEND_UTF8 (&doc, "drop_caches", drop_names[o->drop_caches]);
   if (datadir) {
      BSON_APPEND_UTF8 (&doc, "dbpath", datadir);
   } else {
      BSON_APPEND_NULL (&doc, "dbpath");
   }
   if (have_dev) {
      BSON_APPEND_UTF8 (&doc, "device", dev.name);
      BSON_APPEND_UTF8 (&doc, "device_reason", dev.reason);
   } else {
      BSON_APPEND_NULL (&doc, "device");
   }
   BSON_APPEND_DOUBLE (&doc, "interval_s", (double) o->interval_ns / 1e9);
   if (o->cache_size_bytes) {
      BSON_APPEND_INT64 (&doc, "cache_size_bytes", (int64_t) o->cache_size_bytes);
   }
   BSON_APPEND_BOOL (&doc, "direct_io", o->direct_io);
   bson_append_document_end (results, &doc);

   if (have_dev) {
      BSON_APPEND_DOCUMENT_BEGIN (results, "device", &doc);
      BSON_APPEND_UTF8 (&doc, "name", dev.name);
      BSON_APPEND_INT32 (&doc, "sector_bytes", LAB_DISKSTATS_SECTOR_BYTES);
      {
         /* MongoDB's production notes ask for 8-32 KiB of readahead under WiredTiger: a larger
          * window turns each random page read into a large request, so the report shows it */
         char path[300];
         FILE *f;
         int ra_kb;

         bson_snprintf (path, sizeof path, "/sys/block/%s/queue/read_ahead_kb", dev.name);
         f = fopen (path, "r");
         if (f && fscanf (f, "%d", &ra_kb) == 1) {
            BSON_APPEND_INT32 (&doc, "read_ahead_kb", ra_kb);
         }
         if (f) {
            fclose (f);
         }
      }
      bson_append_document_end (results, &doc);
   }

   BSON_APPEND_DOCUMENT_BEGIN (results, "dataset", &doc);
   BSON_APPEND_INT64 (&doc, "keys", s.nkeys);
   if (!append_dataset_coll (sess, &doc, "detail", o->detail, error) ||
       !append_dataset_coll (sess, &doc, "folded", o->folded, error)) {
      bson_append_document_end (results, &doc);
      goto done;
   }
   bson_append_document_end (results, &doc);
   lab_session_close (sess);
   sess = NULL;

   /* Calibration, before the runs (its file must not sit in the page cache during them). */
   if (o->calibrate) {
      if (!datadir) {
         lab_error_set (error, LAB_ERROR_USAGE, 1,
                        "--calibrate needs the data directory of the server: give --dbpath (a local server)");
         goto done;
      }
      say (o, false, "calibrating %s: %llu MiB sequential, then random 4 KiB reads", datadir,
           (unsigned long long) (o->calibrate_bytes >> 20));
      if (!lab_calibrate (datadir, o->calibrate_bytes, o->calibrate_rand_ns, o->parallel, &cal, error)) {
         goto done;
      }
      say (o, false, "device limit: %.1f MB/s sequential, %.0f random 4 KiB reads/s (%d readers)", cal.seq_read_mb_s,
           cal.rand_read_4k_iops, cal.rand_threads);
      BSON_APPEND_DOCUMENT_BEGIN (results, "calibration", &doc);
      BSON_APPEND_DOUBLE (&doc, "seq_read_mb_s", cal.seq_read_mb_s);
      BSON_APPEND_DOUBLE (&doc, "rand_read_4k_iops", cal.rand_read_4k_iops);
      BSON_APPEND_INT32 (&doc, "rand_threads", cal.rand_threads);
      BSON_APPEND_INT64 (&doc, "file_bytes", (int64_t) cal.file_bytes);
      BSON_APPEND_DOUBLE (&doc, "elapsed_s", cal.elapsed_s);
      bson_append_document_end (results, &doc);
   }

   /* The runs. */
   entries = bson_malloc0 ((size_t) o->runs * 2 * sizeof *entries);
   for (run = 1; run <= o->runs; run++) {
      bool detail_first = o->order == LAB_ORDER_DETAIL_FIRST || (o->order == LAB_ORDER_ALTERNATE && run % 2 == 1);
      for (k = 0; k < 2; k++) {
         const char *layout = (k == 0) == detail_first ? "detail" : "folded";
         bson_init (&entries[nentries]);
         nentries++;
         if (!run_layout (&s, run, layout, k + 1, &entries[nentries - 1], error)) {
            goto done;
         }
      }
   }
   /* Both layouts must have returned the same rows: anything else means the collections differ. */
   for (k = 0; k + 1 < nentries; k += 2) {
      bson_iter_t a, b;
      if (bson_iter_init_find (&a, &entries[k], "rows") && bson_iter_init_find (&b, &entries[k + 1], "rows") &&
          bson_iter_as_int64 (&a) != bson_iter_as_int64 (&b)) {
         say (o, false, "warning: run %d: the layouts returned different row counts (%lld vs %lld): %s and %s do "
                        "not hold the same rows for these keys",
              k / 2 + 1, (long long) bson_iter_as_int64 (&a), (long long) bson_iter_as_int64 (&b), o->detail,
              o->folded);
      }
   }
   BSON_APPEND_ARRAY_BEGIN (results, "runs", &arr);
   for (k = 0; k < nentries; k++) {
      char idx[16];
      const char *ik;
      bson_uint32_to_string ((uint32_t) k, &ik, idx, sizeof idx);
      bson_append_document (&arr, ik, -1, &entries[k]);
   }
   bson_append_array_end (results, &arr);
   lab_results_summary_append (results, entries, nentries);
   utc_now (ts, sizeof ts);
   BSON_APPEND_UTF8 (results, "finished_at", ts);
   ok = true;
done:
   if (sess) {
      lab_session_close (sess);
   }
   for (k = 0; k < nentries; k++) {
      bson_destroy (&entries[k]);
   }
   bson_free (entries);
   if (s.keys) {
      lab_values_free (s.keys, (int) s.nkeys);
   }
   bson_free (s.restart_shown);
   bson_free (where);
   return ok;
}
