/*
 * sweep.c -- the cache sweep (issue 11): one full comparison per engine cache size, all in one results
 * file (docs/results-schema.md, "Cache sweep"). The plan resolves the caches from --cache-sizes or
 * --cache-ratios (x the detail layout's on-disk size, measured once before any point), refuses a server
 * that cannot set its cache before anything is measured, and measures each layout's locality once (a
 * property of the data). Each point then sets the cache, runs the usual runs (run.c) and records
 * runs[], summary and, per layout, the read amplification and locality.
 */
#include "scan/measure.h"

#include "core/error.h"
#include "core/opts.h"
#include "core/results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- options (pure) ------------------------------------------------------------------------------ */

/* next_item -- the next comma-separated item of *s into buf; false at the end. Empty items are kept
 * (as "") so the caller can refuse them. */
static bool
next_item (const char **s, char *buf, size_t len, bool *done)
{
   const char *comma;
   size_t n;

   if (*done) {
      return false;
   }
   comma = strchr (*s, ',');
   n = comma ? (size_t)(comma - *s) : strlen (*s);
   if (n >= len) {
      n = len - 1;
   }
   memcpy (buf, *s, n);
   buf[n] = '\0';
   if (comma) {
      *s = comma + 1;
   } else {
      *done = true;
   }
   return true;
}

/* lab_scan_sweep_parse_sizes -- see scan.h. */
bool
lab_scan_sweep_parse_sizes (const char *s, const char *what, uint64_t **out, size_t *n, bson_error_t *error)
{
   char item[64];
   bool done = false;
   size_t cap = 4;

   *n = 0;
   *out = bson_malloc (cap * sizeof **out);
   while (next_item (&s, item, sizeof item, &done)) {
      uint64_t v;
      if (!item[0]) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "%s: empty item in the list (give e.g. 64MiB,256MiB,1GiB)", what);
         goto fail;
      }
      if (!lab_parse_size (item, what, &v, error)) {
         goto fail;
      }
      if (*n > 0 && v <= (*out)[*n - 1]) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "%s: %s is %s the one before it: give the cache sizes once each, smallest first",
                        what, item, v == (*out)[*n - 1] ? "the same as" : "smaller than");
         goto fail;
      }
      if (*n == cap) {
         cap *= 2;
         *out = bson_realloc (*out, cap * sizeof **out);
      }
      (*out)[(*n)++] = v;
   }
   return true;
fail:
   bson_free (*out);
   *out = NULL;
   *n = 0;
   return false;
}

/* lab_scan_sweep_parse_ratios -- see scan.h. */
bool
lab_scan_sweep_parse_ratios (const char *s, const char *what, double **out, size_t *n, bson_error_t *error)
{
   char item[64];
   bool done = false;
   size_t cap = 4;

   *n = 0;
   *out = bson_malloc (cap * sizeof **out);
   while (next_item (&s, item, sizeof item, &done)) {
      char *end;
      double v;

      errno = 0;
      v = strtod (item, &end);
      if (!item[0] || *end || errno || !isfinite (v) || v <= 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "%s: \"%s\" is not a positive number (a cache as a fraction of the detail layout's "
                        "on-disk size, e.g. 0.25,1,2)",
                        what, item);
         goto fail;
      }
      if (*n > 0 && v <= (*out)[*n - 1]) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "%s: %s is %s the one before it: give the ratios once each, smallest first", what,
                        item, v == (*out)[*n - 1] ? "the same as" : "smaller than");
         goto fail;
      }
      if (*n == cap) {
         cap *= 2;
         *out = bson_realloc (*out, cap * sizeof **out);
      }
      (*out)[(*n)++] = v;
   }
   return true;
fail:
   bson_free (*out);
   *out = NULL;
   *n = 0;
   return false;
}

/* lab_scan_sweep_opts_check -- see scan.h. */
bool
lab_scan_sweep_opts_check (const lab_scan_opts_t *o, const char *uri, bson_error_t *error)
{
   if (o->cache_sizes && o->cache_ratios) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--cache-sizes and --cache-ratios: give one of them");
      return false;
   }
   if (o->server_cache_sweep && o->nsweep == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--server-cache-sweep needs --cache-sizes or --cache-ratios");
      return false;
   }
   if (o->nsweep > 0 && uri && strncmp (uri, "wiredtiger:", 11) != 0 && o->server_cache_sweep &&
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
   if (o->nsweep > 0 && uri && strncmp (uri, "wiredtiger:", 11) != 0 && !o->server_cache_sweep) {
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
lab_scan_sweep_resolve (const uint64_t *sizes, const double *ratios, size_t n, double detail_on_disk,
                        uint64_t *out, bson_error_t *error)
{
   size_t i;

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
   size_t i, l;

   memset (sw, 0, sizeof *sw);
   for (l = 0; l < LAB_RESULTS_MAX_LAYOUTS; l++) {
      bson_init (&sw->locality[l]);
   }
   sw->n = o->nsweep;
   sw->cache_bytes = bson_malloc0 (sw->n * sizeof *sw->cache_bytes);
   sw->ratios = bson_malloc0 (sw->n * sizeof *sw->ratios);
   if (!lab_scan_sweep_resolve (o->cache_sizes, o->cache_ratios, sw->n, ref_on_disk, sw->cache_bytes,
                                error)) {
      return false;
   }
   for (i = 0; i < sw->n; i++) {
      if (!lab_results_cache_ratio_of ((double)sw->cache_bytes[i], ref_on_disk, &sw->ratios[i])) {
         sw->ratios[i] = 0;
      }
   }
   sw->reference = lab_results_sweep_reference_of (sw->ratios, sw->n);
   if (p->backend == LAB_BACKEND_MONGO) {
      /* refused before anything is measured: FerretDB has no such parameter */
      if (!lab_scan_set_cache_size (p->topo, p->store, sw->cache_bytes[0], NULL, error)) {
         lab_error_prefix (error, "--server-cache-sweep");
         return false;
      }
      lab_scan_say (o, false, "the server accepted setParameter wiredTigerEngineRuntimeConfig cache_size");
   }
   for (l = 0; l < p->layouts.n; l++) {
      const char *coll = p->layouts.l[l].collection;
      bson_error_t err;

      if (lab_scan_locality (sess, o, coll, p->keys, p->nkeys, &sw->locality[l], &err)) {
         bson_iter_t a, b;
         if (bson_iter_init_find (&a, &sw->locality[l], "pages_per_master_mean") &&
             bson_iter_init_find (&b, &sw->locality[l], "pages_per_master_p95")) {
            lab_scan_say (o, false,
                          "locality of %s (%s): a master's rows on %.1f data pages (mean), %.0f (p95)", coll,
                          p->layouts.l[l].name, bson_iter_as_double (&a), bson_iter_as_double (&b));
         }
      } else {
         bson_reinit (&sw->locality[l]);
         snprintf (sw->locality_note[l], sizeof sw->locality_note[l], "locality not measured: %s",
                   err.message);
         lab_scan_say (o, false, "%s: %s", coll, sw->locality_note[l]);
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

/* run_point -- set the cache, run every run, record the point into *point. */
static bool
run_point (lab_scan_plan_t *p, const lab_scan_sweep_t *sw, size_t i, bson_t *point, bson_error_t *error)
{
   const lab_scan_opts_t *o = p->opts;
   bson_t *entries = bson_malloc0 ((size_t)o->runs * p->layouts.n * sizeof *entries);
   uint64_t per_server = 0;
   size_t l;
   int nentries = 0, k;
   bool ok = false;

   lab_scan_say (o, false,
                 "sweep point %zu of %zu: engine cache %.1f MiB (%.3g x the reference layout on disk)", i + 1,
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
      lab_scan_say (o, true, "sweep point %zu: engine reopened with an empty cache", i + 1);
   }
   if (!lab_scan_runs (p, entries, &nentries, error)) {
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
   for (l = 0; l < p->layouts.n; l++) {
      append_layout (p, sw, l, point);
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
   size_t i, made = 0;
   bson_iter_t it;
   bson_t arr;
   bool ok = false;

   for (i = 0; i < sw->n; i++) {
      bson_init (&points[i]);
      made++;
      if (!run_point (p, sw, i, &points[i], error)) {
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
done:
   for (i = 0; i < made; i++) {
      bson_destroy (&points[i]);
   }
   bson_free (points);
   return ok;
}

/* ---- the sweep table ----------------------------------------------------------------------------- */

#define SWEEP_FMT "%12s  %7s  %-*s  %10s  %10s  %9s  %10s  %10s  %13s\n"
/* the same without the locality column (said once under the table when it is the same at every point) */
#define SWEEP_FMT_NOLOC "%12s  %7s  %-*s  %10s  %10s  %9s  %10s  %10s%s\n"

/* regime_width -- the regime column's width: 13 ("fits in cache"), wider when a point's regime is. */
static int
regime_width (const bson_t *results, size_t n)
{
   size_t i, w = 13;

   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;
      if (lab_results_sweep_point (results, i, &p) && strlen (lab_results_point_regime (&p)) > w) {
         w = strlen (lab_results_point_regime (&p));
      }
   }
   return (int)w;
}

/* buffered_note -- for a sweep read without --direct-io, what the engine's read amplification does not
 * say: per point the reference layout's engine and disk read amplifications, and where the page cache
 * held what the engine cache reread (the "fits in memory" regime). Nothing for --direct-io. */
static void
buffered_note (bson_string_t *s, const bson_t *results, size_t n, const char *ref)
{
   bool any = false;
   size_t i;

   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;

      if (!lab_results_sweep_point (results, i, &p) || !p.buffered_io || !p.has_amplification[0] ||
          !p.has_disk_amplification[0]) {
         continue;
      }
      if (!any) {
         bson_string_append_printf (
            s,
            "Read without --direct-io (an engine cache miss the OS page cache holds costs no "
            "disk read), the %s layout's\nread amp by the engine and by the disk (the "
            "device's bytes read during its load / its size on disk):\n",
            ref);
         any = true;
      }
      bson_string_append_printf (s, "  %.1f MiB, %s: ", p.cache_size_bytes / 1048576.0,
                                 lab_results_point_regime (&p));
      lab_results_app_engine_disk (s, &p, ref);
      bson_string_append (s, "\n");
   }
}

/* fmt_num -- v with 3 significant digits and a suffix, or "n/a". */
static void
fmt_num (char *buf, size_t len, bool have, double v, const char *suffix)
{
   if (!have) {
      snprintf (buf, len, "n/a");
   } else if (v >= 100) {
      snprintf (buf, len, "%.0f%s", v, suffix);
   } else {
      snprintf (buf, len, "%.3g%s", v, suffix);
   }
}

/* locality_once -- when every point measured the same locality for every layout (it depends on where the
 * rows lie, not on the cache), the line that says it once: "pages/master (...): detail 87.3, folded 1.3";
 * false (nothing appended) when the points differ or none measured it. */
static bool
locality_once (bson_string_t *s, const bson_t *results, size_t n, const lab_results_layouts_t *ls)
{
   lab_sweep_point_t first, p;
   char path[160];
   size_t i, l;
   double v0, v;

   if (n == 0 || !lab_results_sweep_point (results, 0, &first)) {
      return false;
   }
   for (l = 0; l < ls->n; l++) {
      snprintf (path, sizeof path, "%s." LAB_RESULTS_KEY_LOCALITY "." LAB_RESULTS_KEY_PAGES_PER_MASTER_MEAN,
                ls->l[l].name);
      if (!lab_results_get_number (&first.doc, path, &v0)) {
         return false;
      }
      for (i = 1; i < n; i++) {
         if (!lab_results_sweep_point (results, i, &p) || !lab_results_get_number (&p.doc, path, &v) ||
             v != v0) {
            return false;
         }
      }
   }
   if (s) {
      bson_string_append (s,
                          "pages/master (distinct data pages one master's rows occupy, mean; where the rows "
                          "lie, the same at every point):");
      for (l = 0; l < ls->n; l++) {
         snprintf (path, sizeof path,
                   "%s." LAB_RESULTS_KEY_LOCALITY "." LAB_RESULTS_KEY_PAGES_PER_MASTER_MEAN, ls->l[l].name);
         lab_results_get_number (&first.doc, path, &v0);
         bson_string_append_printf (s, "%s %s %.1f", l ? "," : "", ls->l[l].name, v0);
      }
      bson_string_append (s, "\n");
   }
   return true;
}

/* sweep_table_layouts -- the sweep table of a file whose layouts are not exactly detail and folded: per
 * point and layout the median load time, and in brackets the read amplification and the data pages per
 * master (mean); the speedups are the reference's load time over each layout's. */
static char *
sweep_table_layouts (const bson_t *results, const lab_results_layouts_t *ls, size_t n)
{
   const lab_metric_t *el = lab_results_metric_find ("elapsed_s");
   const char *ref = ls->l[ls->reference].name;
   bson_string_t *s = bson_string_new (NULL);
   char path[160], cell[128];
   size_t i, l;
   int rw = regime_width (results, n);
   bool once = locality_once (NULL, results, n, ls);

   bson_string_append_printf (s, "\nCache sweep, %zu points, %zu layouts (medians per point)\n", n, ls->n);
   bson_string_append_printf (s, "%12s  %7s  %-*s", "engine cache", "ratio", rw, "regime");
   for (l = 0; l < ls->n; l++) {
      snprintf (cell, sizeof cell, once ? "%s: load (read amp)" : "%s: load (read amp, pages/master)",
                ls->l[l].name);
      bson_string_append_printf (s, "  %-36s", cell);
   }
   bson_string_append (s, "\n");
   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;

      if (!lab_results_sweep_point (results, i, &p)) {
         continue;
      }
      snprintf (cell, sizeof cell, "%.1f MiB", p.cache_size_bytes / 1048576.0);
      bson_string_append_printf (s, "%12s  %7.2f  %-*s", cell, p.cache_ratio, rw,
                                 lab_results_point_regime (&p));
      for (l = 0; l < ls->n; l++) {
         lab_stat_t st = lab_results_metric_stat (&p.doc, ls->l[l].name, el);
         double amp = 0, pages = 0;
         bool has_amp, has_pages;
         char t[32], a[32], g[32];
         snprintf (path, sizeof path, "%s." LAB_RESULTS_KEY_READ_AMPLIFICATION, ls->l[l].name);
         has_amp = lab_results_get_number (&p.doc, path, &amp);
         fmt_num (a, sizeof a, has_amp, amp, "x");
         snprintf (path, sizeof path,
                   "%s." LAB_RESULTS_KEY_LOCALITY "." LAB_RESULTS_KEY_PAGES_PER_MASTER_MEAN, ls->l[l].name);
         has_pages = lab_results_get_number (&p.doc, path, &pages);
         fmt_num (g, sizeof g, has_pages, pages, "");
         fmt_num (t, sizeof t, st.present, st.median, " s");
         if (once) {
            snprintf (cell, sizeof cell, "%s (%s)", t, a);
         } else {
            snprintf (cell, sizeof cell, "%s (%s, %s)", t, a, g);
         }
         bson_string_append_printf (s, "  %-36s", cell);
      }
      bson_string_append (s, "\n");
   }
   bson_string_append_printf (
      s,
      "ratio = engine cache / %s's data + indexes on disk; read amp = bytes the engine read from disk / the "
      "layout's size on disk;\n%sThe table above shows the reference point; layout-report draws the curve\n",
      ref, once ? "" : "pages/master = distinct data pages one master's rows occupy (mean). ");
   locality_once (s, results, n, ls);
   buffered_note (s, results, n, ref);
   return bson_string_free (s, false);
}

/* lab_scan_sweep_table_render -- see scan.h. */
char *
lab_scan_sweep_table_render (const bson_t *results)
{
   size_t n = lab_results_sweep_n (results), i;
   lab_results_layouts_t ls;
   bson_string_t *s;
   bool once;
   int rw;

   if (n == 0) {
      return NULL;
   }
   rw = regime_width (results, n);
   lab_results_layouts (results, &ls);
   if (!(ls.n == 2 && ls.reference == 0 && strcmp (ls.l[0].name, LAB_RESULTS_DETAIL) == 0 &&
         strcmp (ls.l[1].name, LAB_RESULTS_FOLDED) == 0)) {
      return sweep_table_layouts (results, &ls, n);
   }
   s = bson_string_new (NULL);
   once = locality_once (NULL, results, n, &ls);
   bson_string_append_printf (s, "\nCache sweep, %zu points (medians per point)\n", n);
   bson_string_append_printf (s, once ? SWEEP_FMT_NOLOC : SWEEP_FMT, "engine cache", "ratio", rw, "regime",
                              "detail", "folded", "speedup", "read amp", "read amp",
                              once ? "" : "pages/master");
   bson_string_append_printf (s, once ? SWEEP_FMT_NOLOC : SWEEP_FMT, "", "", rw, "", "load", "load", "",
                              "detail", "folded", once ? "" : "detail/folded");
   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;
      char cache[32], ratio[32], d[32], f[32], sp[32], ad[32], af[32], loc[48];

      if (!lab_results_sweep_point (results, i, &p)) {
         continue;
      }
      snprintf (cache, sizeof cache, "%.1f MiB", p.cache_size_bytes / 1048576.0);
      snprintf (ratio, sizeof ratio, "%.2f", p.cache_ratio);
      fmt_num (d, sizeof d, p.elapsed[0].present, p.elapsed[0].median, " s");
      fmt_num (f, sizeof f, p.elapsed[1].present, p.elapsed[1].median, " s");
      fmt_num (sp, sizeof sp, p.has_speedup, p.speedup, "x");
      fmt_num (ad, sizeof ad, p.has_amplification[0], p.read_amplification[0], "x");
      fmt_num (af, sizeof af, p.has_amplification[1], p.read_amplification[1], "x");
      if (once) {
         loc[0] = '\0';
      } else if (p.locality[0].present && p.locality[1].present) {
         snprintf (loc, sizeof loc, "%.1f / %.1f", p.locality[0].pages_per_master_mean,
                   p.locality[1].pages_per_master_mean);
      } else {
         snprintf (loc, sizeof loc, "n/a");
      }
      bson_string_append_printf (s, once ? SWEEP_FMT_NOLOC : SWEEP_FMT, cache, ratio, rw,
                                 lab_results_point_regime (&p), d, f, sp, ad, af, loc);
   }
   bson_string_append_printf (
      s,
      "ratio = engine cache / the detail layout's data + indexes on disk; speedup = detail load / folded "
      "load;\nread amp = bytes the engine read from disk / the layout's size on disk%s. The table above "
      "shows the reference point; layout-report draws the curve\n",
      once ? "" : "; pages/master = distinct data pages\none master's rows occupy (mean)");
   locality_once (s, results, n, &ls);
   buffered_note (s, results, n, LAB_RESULTS_DETAIL);
   return bson_string_free (s, false);
}
