/*
 * run_record.c -- the results document around the runs (run_private.h; docs/results-schema.md): the
 * header (tool, host, backend, config, device, dataset), the calibration, one collection's dataset figures.
 */
#include "scan/run_private.h"
#include "scan/measure/measure.h"
#include "scan/mix/wl_mix.h"
#include "scan/topology.h"
#include "scan/workloads/workload.h"
#include "store/mark.h"

#include "core/alloc.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"
#include "core/results.h"
#include "core/uri.h"

#include <ctype.h>
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

static const char *order_names[] = { "alternate", "detail-first", "folded-first" };
static const char *drop_names[] = { "auto", "yes", "no" };

/* append_opt_int -- a count that may be unknown (absent when negative). */
static void
append_opt_int (bson_t *d, const char *k, int64_t v)
{
   if (v >= 0) {
      BSON_APPEND_INT64 (d, k, v);
   }
}

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
   BSON_APPEND_INT32 (&h, "cores", (int32_t)sysconf (_SC_NPROCESSORS_ONLN));
   BSON_APPEND_INT64 (&h, "ram_bytes", (int64_t)sysconf (_SC_PHYS_PAGES) * (int64_t)sysconf (_SC_PAGESIZE));
   bson_append_document_end (results, &h);
}

/* ---- the record: the results document around the runs --------------------------------------------- */

/* record_backend -- "backend": the server or engine, where, and its cache. */
static void
record_backend (const lab_scan_run_plan_t *sp, bson_t *results)
{
   lab_store_t *store = sp->p.store;
   lab_store_engine_stats_t es;
   bson_error_t err;
   bson_t doc;

   BSON_APPEND_DOCUMENT_BEGIN (results, "backend", &doc);
   BSON_APPEND_UTF8 (&doc, "name", sp->p.info.backend);
   BSON_APPEND_UTF8 (&doc, "version", sp->p.info.version);
   if (sp->p.info.product[0]) {
      BSON_APPEND_UTF8 (&doc, "product", sp->p.info.product);
   }
   {
      /* the embedded store's directory made absolute: the report's suggested commands name it, and run
       * from another directory a relative one would open (and create) another, empty store */
      const char *home = lab_store_home (store);
      char *abs = home && home[0] != '/' ? realpath (home, NULL) : NULL;
      if (abs) {
         char *u = bson_strdup_printf ("wiredtiger:%s", abs);
         BSON_APPEND_UTF8 (&doc, "uri", u);
         bson_free (u);
         free (abs);
      } else {
         BSON_APPEND_UTF8 (&doc, "uri", lab_store_uri_redacted (store));
      }
   }
   BSON_APPEND_UTF8 (&doc, "db", lab_store_db (store));
   BSON_APPEND_BOOL (&doc, "server_local", sp->p.info.local);
   if (sp->p.info.host[0]) {
      BSON_APPEND_UTF8 (&doc, "server_host", sp->p.info.host);
   }
   if (strcmp (sp->p.info.backend, "wiredtiger") == 0) {
      /* the embedded engine's memory is this process's: its allocator shapes the peak RSS */
      BSON_APPEND_UTF8 (&doc, "allocator", lab_alloc_name ());
   }
   if (sp->sweep) {
      BSON_APPEND_INT64 (&doc, "cache_max_bytes", (int64_t)sp->sw.cache_bytes[sp->sw.reference]);
   } else if (lab_scan_engine_stats (&sp->topo, store, &es, &err)) {
      /* through mongos: the shards' caches together */
      append_opt_int (&doc, "cache_max_bytes", es.cache_max_bytes);
   }
   bson_append_document_end (results, &doc);
}

/* record_config -- "config": the options as run. */
static void
record_config (const lab_scan_run_plan_t *sp, bson_t *results)
{
   const lab_scan_opts_t *o = sp->p.opts;
   bson_t doc;

   BSON_APPEND_DOCUMENT_BEGIN (results, "config", &doc);
   if (o->nlayouts == 0) {
      BSON_APPEND_UTF8 (&doc, "detail", o->detail);
      BSON_APPEND_UTF8 (&doc, "folded", o->folded);
   }
   BSON_APPEND_UTF8 (&doc, "key", o->key);
   BSON_APPEND_UTF8 (&doc, "key_source", sp->ks.key_source);
   BSON_APPEND_UTF8 (&doc, "array_field", o->array_field);
   BSON_APPEND_UTF8 (&doc, "array_field_source", sp->ks.array_source);
   BSON_APPEND_BOOL (&doc, "cold", o->cold);
   BSON_APPEND_INT32 (&doc, "parallel", o->parallel);
   BSON_APPEND_UTF8 (&doc, "decode", lab_scan_decode_names ()[o->decode]);
   BSON_APPEND_INT32 (&doc, "runs", o->runs);
   if (o->reference_runs > 0) {
      BSON_APPEND_INT32 (&doc, "reference_runs", o->reference_runs);
   }
   BSON_APPEND_UTF8 (&doc, "order", order_names[o->order]);
   BSON_APPEND_UTF8 (&doc, "load_order", lab_scan_load_order_names ()[o->load_order]);
   if (o->load_order != LAB_LOAD_ORDER_KEY) { /* the shuffle's seed: the same seed deals the same keys */
      BSON_APPEND_INT64 (&doc, "load_seed", (int64_t)o->wl.seed);
   }
   BSON_APPEND_INT64 (&doc, "keys_limit", o->keys_limit);
   if (o->allow_writes) { /* collections layoutlab did not write that the user named for writes */
      bson_t arr;
      char idx[16];
      const char *k;
      uint32_t n = 0;
      BSON_APPEND_ARRAY_BEGIN (&doc, "allow_writes", &arr);
      for (const char *const *a = o->allow_writes; *a; a++, n++) {
         bson_uint32_to_string (n, &k, idx, sizeof idx);
         BSON_APPEND_UTF8 (&arr, k, *a);
      }
      bson_append_array_end (&doc, &arr);
   }
   if (o->keys_file) {
      BSON_APPEND_UTF8 (&doc, "keys_file", o->keys_file);
   } else {
      BSON_APPEND_NULL (&doc, "keys_file");
   }
   if (sp->restart_shown) {
      BSON_APPEND_UTF8 (&doc, "restart_cmd", sp->restart_shown);
   } else {
      BSON_APPEND_NULL (&doc, "restart_cmd");
   }
   BSON_APPEND_UTF8 (&doc, "drop_caches", drop_names[o->drop_caches]);
   if (sp->datadir) {
      BSON_APPEND_UTF8 (&doc, "dbpath", sp->datadir);
   } else {
      BSON_APPEND_NULL (&doc, "dbpath");
   }
   if (sp->have_dev) {
      BSON_APPEND_UTF8 (&doc, "device", sp->dev.name);
      BSON_APPEND_UTF8 (&doc, "device_reason", sp->dev.reason);
   } else {
      BSON_APPEND_NULL (&doc, "device");
   }
   BSON_APPEND_UTF8 (&doc, "server_disk", lab_scan_server_disk_name (o->server_disk));
   if (o->server_device) {
      BSON_APPEND_UTF8 (&doc, "server_device", o->server_device);
   }
   BSON_APPEND_BOOL (&doc, "restart_drops_caches", o->restart_drops_caches);
   BSON_APPEND_DOUBLE (&doc, "interval_s", (double)o->interval_ns / 1e9);
   if (sp->sweep) {
      /* the point the top level repeats */
      BSON_APPEND_INT64 (&doc, "cache_size_bytes", (int64_t)sp->sw.cache_bytes[sp->sw.reference]);
      if (sp->sw.ratios[sp->sw.reference] > 0) {
         BSON_APPEND_DOUBLE (&doc, LAB_RESULTS_KEY_CACHE_RATIO, sp->sw.ratios[sp->sw.reference]);
      }
   } else {
      if (o->cache_size_bytes) {
         BSON_APPEND_INT64 (&doc, "cache_size_bytes", (int64_t)o->cache_size_bytes);
      }
      if (sp->cache_ratio > 0) {
         BSON_APPEND_DOUBLE (&doc, LAB_RESULTS_KEY_CACHE_RATIO, sp->cache_ratio);
      }
   }
   BSON_APPEND_BOOL (&doc, "direct_io", o->direct_io);
   bson_append_document_end (results, &doc);
}

/* lab_scan_run_record_header -- see run_private.h. */
bool
lab_scan_run_record_header (lab_scan_run_plan_t *sp, bson_t *results, bson_error_t *error)
{
   char ts[32];
   bson_t doc;

   lab_scan_utc_now (ts, sizeof ts);
   BSON_APPEND_INT32 (results, LAB_RESULTS_KEY_SCHEMA_VERSION, LAB_RESULTS_SCHEMA_VERSION);
   BSON_APPEND_UTF8 (results, "tool", "scancmp");
   /* the header's names are the --json summaries' (docs/json-summary.md) */
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_VERSION, LAB_VERSION);
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_STARTED, ts);
   if (sp->p.opts->argc > 0) {
      lab_cli_command_line_append (results, LAB_RESULTS_KEY_COMMAND_LINE, sp->p.opts->argc, sp->p.opts->argv);
   }
   lab_results_layouts_append (results, &sp->p.layouts);
   append_host (results);
   record_backend (sp, results);
   record_config (sp, results);
   lab_scan_topology_record (&sp->topo, sp->have_dev ? sp->dev.name : NULL, results);
   if (sp->have_dev) {
      BSON_APPEND_DOCUMENT_BEGIN (results, "device", &doc);
      BSON_APPEND_UTF8 (&doc, "name", sp->dev.name);
      BSON_APPEND_INT32 (&doc, "sector_bytes", LAB_DISKSTATS_SECTOR_BYTES);
      /* MongoDB's production notes ask for 8-32 KiB of readahead under WiredTiger: a larger window
       * turns each random page read into a large request, so the report shows it */
      if (sp->read_ahead_kb >= 0) {
         BSON_APPEND_INT32 (&doc, "read_ahead_kb", sp->read_ahead_kb);
      }
      bson_append_document_end (results, &doc);
   }
   BSON_APPEND_DOCUMENT (results, "dataset", &sp->dataset);
   return true;
}

/* lab_scan_run_record_calibration -- see run_private.h. */
bool
lab_scan_run_record_calibration (const lab_scan_run_plan_t *sp, bson_t *results, bson_error_t *error)
{
   const lab_scan_opts_t *o = sp->p.opts;
   lab_scan_calibration_t cal;
   bson_t doc;

   if (!o->calibrate) {
      return true;
   }
   if (!sp->datadir) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--calibrate needs the data directory of the server: give --dbpath (a local server)");
      return false;
   }
   lab_log_info ("calibrating %s: %llu MiB sequential, then random 4 KiB reads", sp->datadir,
                 (unsigned long long)(o->calibrate_bytes >> 20));
   if (!lab_scan_calibrate (sp->datadir, o->calibrate_bytes, o->calibrate_rand_ns, o->parallel, &cal,
                            error)) {
      return false;
   }
   {
      /* never-read blocks: the raw device where it may be read, else the data's own files (before any run
       * reads them), else the test file's (just written: a write cache below may hold them) */
      bson_error_t err, err2;
      char **paths = NULL;
      if (!sp->p.device || !lab_scan_reread_device (sp->p.device, &cal, &err)) {
         if (!lab_scan_dir_files (sp->datadir, &paths, &err2) ||
             !lab_scan_reread_files (paths, &cal, &err2)) {
            lab_log_info ("the reread probe stays on the test file: %s", err2.message);
         }
         bson_strfreev (paths);
      }
   }
   lab_log_info ("device limit: %.1f MB/s sequential, %.0f random 4 KiB reads/s (%d readers)",
                 cal.seq_read_mb_s, cal.rand_read_4k_iops, cal.rand_threads);
   BSON_APPEND_DOCUMENT_BEGIN (results, "calibration", &doc);
   BSON_APPEND_DOUBLE (&doc, "seq_read_mb_s", cal.seq_read_mb_s);
   BSON_APPEND_DOUBLE (&doc, "rand_read_4k_iops", cal.rand_read_4k_iops);
   BSON_APPEND_INT32 (&doc, "rand_threads", cal.rand_threads);
   BSON_APPEND_INT64 (&doc, "file_bytes", (int64_t)cal.file_bytes);
   BSON_APPEND_DOUBLE (&doc, "elapsed_s", cal.elapsed_s);
   BSON_APPEND_INT32 (&doc, "reread_blocks", cal.reread_blocks);
   BSON_APPEND_UTF8 (&doc, "reread_source", cal.reread_source);
   BSON_APPEND_DOUBLE (&doc, "first_read_p50_ms", cal.first_p50_ms);
   BSON_APPEND_DOUBLE (&doc, "first_read_p90_ms", cal.first_p90_ms);
   BSON_APPEND_DOUBLE (&doc, "reread_p50_ms", cal.reread_p50_ms);
   BSON_APPEND_DOUBLE (&doc, "reread_p90_ms", cal.reread_p90_ms);
   BSON_APPEND_BOOL (&doc, "rereads_cached", cal.rereads_cached);
   bson_append_document_end (results, &doc);
   if (cal.rereads_cached) {
      lab_log_info ("warning: a cache below this machine served re-reads (4 KiB O_DIRECT: p50 %.2f ms "
                    "never read, %.2f ms read again): absolute times are not cold; the ratios between "
                    "layouts hold",
                    cal.first_p50_ms, cal.reread_p50_ms);
   }
   return true;
}

/* append_built_indexes -- "layoutlab_indexes": the indexes a layoutlab tool built on `coll`, from their
 * records in LAB_MARK_COLL (name, key pattern, size, when, by which tool, on a collection layoutlab did
 * not write), so the report names every index a tool added to what it measured. */
static bool
append_built_indexes (lab_store_session_t *sess, bson_t *d, const char *coll, bson_error_t *error)
{
   lab_store_mark_index_t *recs = NULL;
   size_t n = 0, i;
   uint32_t k = 0;
   bson_t arr;

   if (!lab_store_mark_indexes (sess, &recs, &n, error)) {
      lab_error_prefix (error, "the index records of %s in %s", coll, LAB_MARK_COLL);
      return false;
   }
   BSON_APPEND_ARRAY_BEGIN (d, "layoutlab_indexes", &arr);
   for (i = 0; i < n; i++) {
      char idx[16];
      const char *key;
      bson_t e;

      if (strcmp (recs[i].collection, coll) != 0) {
         continue;
      }
      bson_uint32_to_string (k++, &key, idx, sizeof idx);
      BSON_APPEND_DOCUMENT_BEGIN (&arr, key, &e);
      BSON_APPEND_UTF8 (&e, "name", recs[i].name);
      BSON_APPEND_INT64 (&e, "size_bytes", recs[i].size_bytes);
      BSON_APPEND_UTF8 (&e, "created_at", recs[i].created_at);
      BSON_APPEND_UTF8 (&e, "tool", recs[i].tool);
      BSON_APPEND_BOOL (&e, "on_foreign", recs[i].on_foreign);
      bson_append_document_end (&arr, &e);
   }
   bson_append_array_end (d, &arr);
   lab_store_mark_indexes_free (recs, n);
   return true;
}

/* lab_scan_run_dataset_coll -- see run_private.h. */
bool
lab_scan_run_dataset_coll (lab_store_session_t *sess, bson_t *ds, const char *name, const char *coll,
                           bson_error_t *error)
{
   lab_store_coll_stats_t st;
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
   if (st.clustered) { /* records in _id order (a server: listCollections); the report's environment names it
                        */
      BSON_APPEND_BOOL (&d, "clustered", true);
   }
   {
      /* who wrote it and how (store.h, the marker): the report's "Reproduce" section reads it */
      bson_t *mark = NULL;
      bool foreign = false;
      if (!lab_store_mark_get (sess, coll, &mark, &foreign, error)) {
         lab_error_prefix (error, "the provenance of %s in %s", coll, LAB_MARK_COLL);
         bson_append_document_end (ds, &d);
         return false;
      }
      if (mark) {
         BSON_APPEND_DOCUMENT (&d, "provenance", mark);
         bson_destroy (mark);
      }
   }
   if (!append_built_indexes (sess, &d, coll, error)) {
      bson_append_document_end (ds, &d);
      return false;
   }
   bson_append_document_end (ds, &d);
   return true;
}
