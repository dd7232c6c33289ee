/*
 * sweep.c -- the cache sweep: one full comparison per engine cache size, all in one results
 * file (docs/results-schema.md, "Cache sweep"). The plan resolves the caches from the --cache-sizes or
 * --cache-ratios list the main's option table parsed and checked (lab_scan_opts_t), converting it once
 * into bytes and ratios (lab_scan_sweep_resolve: x the detail layout's on-disk size, measured once before any
 * point), refuses a server that cannot set its cache before anything is measured, and measures each
 * layout's locality once (a property of the data). Each point then sets the cache, runs the usual runs
 * (run.c) and records runs[], summary and, per layout, the read amplification and locality. The sweep's
 * terminal table is table.c's.
 */
#include "scan/measure/measure.h"
#include "scan/workloads/workload.h"

#include "core/error.h"
#include "core/log.h"
#include "core/opts.h"
#include "core/results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- options (pure) ------------------------------------------------------------------------------ */

/* lab_scan_sweep_points -- see scan.h. */
size_t
lab_scan_sweep_points (const lab_scan_opts_t *o)
{
   return o->cache_sizes.n > 0 ? o->cache_sizes.n : o->cache_ratios.n;
}

/* lab_scan_sweep_opts_check -- see scan.h. */
bool
lab_scan_sweep_opts_check (const lab_scan_opts_t *o, const char *uri, bson_error_t *error)
{
   size_t nsweep = lab_scan_sweep_points (o);

   if (o->cache_sizes.n > 0 && o->cache_ratios.n > 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--cache-sizes and --cache-ratios: give one of them");
      return false;
   }
   if (o->server_cache_sweep && nsweep == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--server-cache-sweep needs --cache-sizes or --cache-ratios");
      return false;
   }
   if (nsweep > 0 && uri && strncmp (uri, "wiredtiger:", 11) != 0 && o->server_cache_sweep &&
       (!o->cold || !o->restart_cmd)) {
      /* the server's engine cache keeps what each point read: at the next (larger) point the pages are
       * still there and the point's read amplification says nothing about its cache */
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--server-cache-sweep without %s: the server's engine cache keeps what one point read "
                     "(setParameter only resizes it), so the next point would start warm and its read "
                     "amplification would not be a cold one. Give --cold --restart-cmd CMD (a restart "
                     "empties the cache before each layout; the cache size is set again after it)",
                     !o->cold ? "--cold" : "--restart-cmd");
      return false;
   }
   /* --predict models the caches and never sets one: its cache sizes touch nothing on a server */
   if (nsweep > 0 && uri && strncmp (uri, "wiredtiger:", 11) != 0 && !o->server_cache_sweep && !o->predict) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
         "a cache sweep against a MongoDB server changes the server's own engine cache (setParameter "
         "wiredTigerEngineRuntimeConfig) for every client: add --server-cache-sweep to allow it "
         "(the server keeps the last size until it restarts), or sweep on the embedded store "
         "(--uri wiredtiger:DIR)");
      return false;
   }
   return true;
}

/* lab_scan_sweep_resolve -- see scan.h. */
bool
lab_scan_sweep_resolve (const lab_sizes_t *sizes_list, const lab_ratios_t *ratios_list, double detail_on_disk,
                        uint64_t *out, double *ratio, bson_error_t *error)
{
   const uint64_t *sizes = sizes_list->n > 0 ? sizes_list->v : NULL;
   const double *ratios = sizes ? NULL : ratios_list->v;
   size_t i, n = sizes ? sizes_list->n : ratios_list->n;

   for (i = 0; i < n; i++) {
      if (sizes) {
         out[i] = sizes[i];
      } else {
         if (detail_on_disk <= 0) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                           "--cache-ratios needs the detail layout's on-disk size, which this store does not "
                           "give: use --cache-sizes");
            return false;
         }
         out[i] = (uint64_t)llround (ratios[i] * detail_on_disk);
      }
      if (out[i] < LAB_STORE_MIN_CACHE_BYTES) {
         if (sizes) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                           "--cache-sizes: %llu bytes is below the engine's minimum cache of 1MiB",
                           (unsigned long long)out[i]);
         } else {
            lab_error_set (
               error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
               "--cache-ratios: %g x the detail layout's %.0f bytes on disk is a cache of %llu bytes, "
               "below the engine's minimum of 1MiB: use a larger ratio (at least %.3g)",
               ratios[i], detail_on_disk, (unsigned long long)out[i],
               (double)LAB_STORE_MIN_CACHE_BYTES / detail_on_disk);
         }
         return false;
      }
      if (i > 0 && out[i] <= out[i - 1]) {
         lab_error_set (
            error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
            "--cache-ratios: %g and %g both give a cache of %llu bytes: space the ratios further apart",
            ratios[i - 1], ratios[i], (unsigned long long)out[i]);
         return false;
      }
      if (ratio && !lab_results_cache_ratio_of ((double)out[i], detail_on_disk, &ratio[i])) {
         ratio[i] = 0;
      }
   }
   return true;
}

/* ---- the plan ------------------------------------------------------------------------------------ */

/* lab_scan_sweep_plan -- see measure.h. */
bool
lab_scan_sweep_plan (lab_scan_plan_t *p, lab_store_session_t *sess, lab_scan_sweep_t *sw, bson_error_t *error)
{
   const lab_scan_opts_t *o = p->opts;
   double ref_on_disk = p->on_disk_bytes[p->layouts.reference];
   size_t l;

   memset (sw, 0, sizeof *sw);
   for (l = 0; l < LAB_RESULTS_MAX_LAYOUTS; l++) {
      bson_init (&sw->locality[l]);
   }
   sw->n = lab_scan_sweep_points (o);
   sw->cache_bytes = bson_malloc0 (sw->n * sizeof *sw->cache_bytes);
   sw->ratios = bson_malloc0 (sw->n * sizeof *sw->ratios);
   if (!lab_scan_sweep_resolve (&o->cache_sizes, &o->cache_ratios, ref_on_disk, sw->cache_bytes, sw->ratios,
                                error)) {
      return false;
   }
   sw->reference = lab_results_sweep_reference_of (sw->ratios, sw->n);
   if (p->backend == LAB_BACKEND_MONGO) {
      /* refused before anything is measured: FerretDB has no such parameter */
      if (!lab_scan_set_cache_size (p->topo, p->store, sw->cache_bytes[0], NULL, error)) {
         lab_error_prefix (error, "--server-cache-sweep");
         return false;
      }
      lab_log_info ("the server accepted setParameter wiredTigerEngineRuntimeConfig cache_size");
   }
   for (l = 0; l < p->layouts.n; l++) {
      const char *coll = p->layouts.l[l].collection;
      bson_error_t err;

      if (lab_scan_locality (sess, o, coll, p->keys, p->nkeys, &sw->locality[l], &err)) {
         bson_iter_t a, b;
         if (bson_iter_init_find (&a, &sw->locality[l], "pages_per_master_mean") &&
             bson_iter_init_find (&b, &sw->locality[l], "pages_per_master_p95")) {
            lab_log_info ("locality of %s (%s): a master's rows on %.1f data pages (mean), %.0f (p95)", coll,
                          p->layouts.l[l].name, bson_iter_as_double (&a), bson_iter_as_double (&b));
         }
      } else {
         bson_reinit (&sw->locality[l]);
         snprintf (sw->locality_note[l], sizeof sw->locality_note[l], "locality not measured: %s",
                   err.message);
         lab_log_info ("%s: %s", coll, sw->locality_note[l]);
      }
   }
   return true;
}

/* lab_scan_sweep_cleanup -- see measure.h. */
void
lab_scan_sweep_cleanup (lab_scan_sweep_t *sw)
{
   bson_free (sw->cache_bytes);
   bson_free (sw->ratios);
   size_t l;

   for (l = 0; l < LAB_RESULTS_MAX_LAYOUTS; l++) {
      bson_destroy (&sw->locality[l]);
   }
   sw->cache_bytes = NULL;
   sw->ratios = NULL;
}

/* ---- the points ---------------------------------------------------------------------------------- */

/* append_layout -- "<layout>": read_amplification (median engine.block_read_bytes of the point's runs ÷
 * the on-disk size; left out when the engine gives no block bytes), disk_read_amplification (median
 * read_bytes, the device's bytes read during the layout's load, ÷ the on-disk size; left out without disk
 * figures) and locality (or its note). */
static void
append_layout (const lab_scan_plan_t *p, const lab_scan_sweep_t *sw, size_t l, bson_t *point)
{
   const char *layout = p->layouts.l[l].name;
   lab_stat_t s = lab_results_metric_stat (point, layout, &lab_results_block_read_bytes);
   lab_stat_t disk = lab_results_metric_stat (point, layout, lab_results_metric_find ("read_bytes"));
   double amp;
   bson_t d;

   bson_append_document_begin (point, layout, -1, &d);
   if (s.present && lab_results_read_amplification (s.median, p->on_disk_bytes[l], &amp)) {
      BSON_APPEND_DOUBLE (&d, LAB_RESULTS_KEY_READ_AMPLIFICATION, amp);
   }
   if (disk.present && lab_results_read_amplification (disk.median, p->on_disk_bytes[l], &amp)) {
      BSON_APPEND_DOUBLE (&d, LAB_RESULTS_KEY_DISK_READ_AMPLIFICATION, amp);
   }
   if (!bson_empty (&sw->locality[l])) {
      BSON_APPEND_DOCUMENT (&d, LAB_RESULTS_KEY_LOCALITY, &sw->locality[l]);
   } else if (sw->locality_note[l][0]) {
      BSON_APPEND_UTF8 (&d, "locality_note", sw->locality_note[l]);
   }
   bson_append_document_end (point, &d);
}

/* measure_point -- set the cache, run every run, record the point into *point, then the workloads besides
 * the load (their "workloads" array in the point) as lab_scan_point_plan says: the writes (append, update)
 * change the data, so they run at the reference point only, which lab_scan_sweep_run measures last; every
 * other point reads the data as it was, and the ledger (the reference point's) has the writes; the
 * reference point's runs are --reference-runs when given. Layouts whose workloads returned different
 * results leave the point recorded and the error in *differ (the first only), and so do runs whose digests
 * differ. */
static bool
measure_point (lab_scan_plan_t *p, const lab_scan_sweep_t *sw, size_t i, bson_t *point, bson_error_t *differ,
               bson_error_t *error)
{
   const lab_scan_opts_t *o = p->opts;
   lab_scan_point_t pt;
   bson_t *entries;
   uint64_t per_server = 0;
   size_t l, la, lb;
   uint64_t da, db;
   int nentries = 0, k;
   bool ok = false;

   lab_scan_point_plan (o, true, i == sw->reference, &pt);
   entries = bson_malloc0 ((size_t)pt.runs * p->layouts.n * sizeof *entries);
   lab_log_info ("sweep point %zu of %zu: engine cache %.1f MiB (%.3g x the reference layout on disk)", i + 1,
                 sw->n, (double)sw->cache_bytes[i] / 1048576.0, sw->ratios[i]);
   if (!lab_scan_set_cache_size (p->topo, p->store, sw->cache_bytes[i], &per_server, error)) {
      lab_error_prefix (error, "sweep point %zu (cache %llu bytes)", i + 1,
                        (unsigned long long)sw->cache_bytes[i]);
      goto done;
   }
   /* Embedded without --cold: reopen the engine, so the point starts from an empty cache of its own
    * size. A reconfigured cache keeps what the previous point (or the locality sample before the first)
    * read, and a layout still held there reads nothing from disk: read amplification 0, and a point's
    * figures that depend on the order of the points. (--cold reopens before every layout anyway.) */
   if (p->backend == LAB_BACKEND_WT && !o->cold) {
      if (!lab_store_cycle (p->store, NULL, NULL, o->ready_timeout_ms, error)) {
         lab_error_prefix (error, "sweep point %zu (cache %llu bytes): reopen the engine", i + 1,
                           (unsigned long long)sw->cache_bytes[i]);
         goto done;
      }
      lab_log_debug ("sweep point %zu: engine reopened with an empty cache", i + 1);
   }
   if (!lab_scan_runs (p, pt.runs, entries, &nentries, error)) {
      lab_error_prefix (error, "sweep point %zu (cache %llu bytes)", i + 1,
                        (unsigned long long)sw->cache_bytes[i]);
      goto done;
   }
   BSON_APPEND_INT64 (point, LAB_RESULTS_KEY_CACHE_SIZE, (int64_t)sw->cache_bytes[i]);
   if (sw->ratios[i] > 0) {
      BSON_APPEND_DOUBLE (point, LAB_RESULTS_KEY_CACHE_RATIO, sw->ratios[i]);
   }
   if (p->backend == LAB_BACKEND_MONGO) {
      BSON_APPEND_UTF8 (point, "cache_set_by", "setParameter wiredTigerEngineRuntimeConfig");
   }
   if (p->topo->kind == LAB_TOPO_MONGOS) {
      /* each shard's primary got its share; together they are the point's cache */
      bson_t arr, sd;
      char idx[16];
      const char *ik;
      size_t t;
      BSON_APPEND_ARRAY_BEGIN (point, "shards", &arr);
      for (t = 0; t < p->topo->ntargets; t++) {
         bson_uint32_to_string ((uint32_t)t, &ik, idx, sizeof idx);
         BSON_APPEND_DOCUMENT_BEGIN (&arr, ik, &sd);
         BSON_APPEND_UTF8 (&sd, "name", p->topo->targets[t].name);
         BSON_APPEND_UTF8 (&sd, "host", p->topo->targets[t].host);
         BSON_APPEND_INT64 (&sd, "cache_size_bytes", (int64_t)per_server);
         bson_append_document_end (&arr, &sd);
      }
      bson_append_array_end (point, &arr);
   }
   lab_scan_runs_record (p, point, entries, nentries);
   if (!lab_scan_runs_digests (&p->layouts, point, NULL, &la, &lb, &da, &db) && !differ->domain) {
      /* the runs read other rows on some layout: the point recorded, exit 3 at the end */
      lab_scan_digest_differ (p->store, o, &p->layouts, la, lb, p->keys, p->nkeys, "load", differ);
   }
   for (l = 0; l < p->layouts.n; l++) {
      append_layout (p, sw, l, point);
   }
   if (p->wl && !lab_scan_workloads_run (p, p->wl, &pt, point, error)) {
      if (error->domain != LAB_ERROR_VERIFY) {
         lab_error_prefix (error, "sweep point %zu (cache %llu bytes)", i + 1,
                           (unsigned long long)sw->cache_bytes[i]);
         goto done;
      }
      if (!differ->domain) {
         *differ = *error;
      }
   }
   ok = true;
done:
   for (k = 0; k < nentries; k++) {
      bson_destroy (&entries[k]);
   }
   bson_free (entries);
   return ok;
}

/* lab_scan_sweep_run -- see measure.h. */
bool
lab_scan_sweep_run (lab_scan_plan_t *p, const lab_scan_sweep_t *sw, bson_t *results, bson_error_t *error)
{
   bson_t *points = bson_malloc0 (sw->n * sizeof *points);
   size_t i, k, made = 0;
   lab_scan_point_t ref;
   bool writes;
   bson_iter_t it;
   bson_t arr;
   bson_error_t differ = { 0 };
   bool ok = false;

   lab_scan_point_plan (p->opts, true, true, &ref);
   writes = p->wl && (ref.set & LAB_WL_MASK_WRITES);
   for (i = 0; i < sw->n; i++) {
      bson_init (&points[i]);
   }
   made = sw->n;
   for (k = 0; k < sw->n; k++) {
      /* with writes, the reference point last (measure_point): the points before it read unchanged data */
      i = !writes ? k : k < sw->reference ? k : k + 1 < sw->n ? k + 1 : sw->reference;
      if (!measure_point (p, sw, i, &points[i], &differ, error)) {
         goto done;
      }
   }
   /* the top level repeats the reference point, so a sweep file is also a single-point file */
   if (bson_iter_init_find (&it, &points[sw->reference], "runs")) {
      bson_append_iter (results, "runs", -1, &it);
   }
   if (bson_iter_init_find (&it, &points[sw->reference], "summary")) {
      bson_append_iter (results, "summary", -1, &it);
   }
   if (bson_iter_init_find (&it, &points[sw->reference], "workloads")) {
      bson_append_iter (results, "workloads", -1, &it);
   }
   BSON_APPEND_INT64 (results, LAB_RESULTS_KEY_SWEEP_REFERENCE, (int64_t)sw->reference);
   BSON_APPEND_ARRAY_BEGIN (results, LAB_RESULTS_KEY_SWEEP, &arr);
   for (i = 0; i < sw->n; i++) {
      char idx[16];
      const char *ik;
      bson_uint32_to_string ((uint32_t)i, &ik, idx, sizeof idx);
      bson_append_document (&arr, ik, -1, &points[i]);
   }
   bson_append_array_end (results, &arr);
   ok = lab_results_sweep_check (results, error);
   if (ok && differ.domain) {
      *error = differ;
      ok = false;
   }
done:
   for (i = 0; i < made; i++) {
      bson_destroy (&points[i]);
   }
   bson_free (points);
   return ok;
}
