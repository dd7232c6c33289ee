/*
 * results_sweep.c -- the cache sweep of the results model (results.h): its points, regimes, read
 * amplification, ordering and the speedup estimate at a production cache.
 */
#include "core/results.h"
#include "core/results_private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

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
          lab_results_on_disk_bytes (results, lab_results_reference_name (results), &disk) &&
          lab_results_cache_ratio_of (cache, disk, ratio);
}

/* lab_results_speedup -- see results.h. */
bool
lab_results_speedup (const lab_stat_t *detail, const lab_stat_t *folded, double *speedup)
{
   lab_results_noise_t noise = { true, LAB_RESULTS_TIMER_RES_S };
   lab_verdict_t v;

   if (!detail->present || !folded->present || !(folded->median > 0)) {
      return false;
   }
   /* the rule's ratio: with paired runs the geometric mean its interval is of, so the sweep table and the
    * comparison table print one figure */
   v = lab_results_verdict (LAB_BETTER_LOWER, detail, folded, &noise);
   *speedup = v.has_ci && v.ratio > 0 ? 1.0 / v.ratio : detail->median / folded->median;
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
          lab_results_on_disk_bytes (results, lab_results_reference_name (results), &disk) &&
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
      lab_results_noise_t noise = { true, LAB_RESULTS_TIMER_RES_S };
      p->has_speedup_of[l] = lab_results_speedup (&p->elapsed[0], &p->elapsed[l], &p->speedup_of[l]);
      p->speedup_verdict[l] = lab_results_verdict (LAB_BETTER_LOWER, &p->elapsed[0], &p->elapsed[l], &noise);
   }
   p->has_speedup = p->has_speedup_of[1];
   p->speedup = p->speedup_of[1];
   for (l = 1; l < p->n; l++) {
      double ref, t;
      lab_stat_t sr, st;
      if (lab_results_load_random_elapsed (&p->doc, p->names[0], &ref, &sr) &&
          lab_results_load_random_elapsed (&p->doc, p->names[l], &t, &st)) {
         lab_results_noise_t noise = { true, LAB_RESULTS_TIMER_RES_S };
         p->has_speedup_random[l] = lab_results_speedup (&sr, &st, &p->speedup_random[l]);
         p->speedup_random_verdict[l] = lab_results_verdict (LAB_BETTER_LOWER, &sr, &st, &noise);
      }
   }
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
