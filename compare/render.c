/*
 * render.c -- the Markdown report layout-report writes: verdict, comparison table, charts, environment,
 * dataset, cold procedure, per-run figures, device ceiling and the optional baseline deltas; for a cache
 * sweep the verdict leads with the speedup curve and a Cache sweep section (load time, reads, memory,
 * locality per point, the production point marked) comes before the reference point's sections. Built into a
 * growing string from the results document only, so the same file always renders the same bytes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compare/cmp.h"

static const char *const layouts[2] = { "detail", "folded" };

/* app_esc -- append `s` Markdown-escaped ("n/a" for NULL). */
static void
app_esc (bson_string_t *o, const char *s)
{
   char *e = lab_cmp_md_escape (s);

   bson_string_append (o, e);
   bson_free (e);
}

/* app_fmt -- append v in unit. */
static void
app_fmt (bson_string_t *o, lab_unit_t unit, double v)
{
   char *s = lab_results_format (unit, v);

   bson_string_append (o, s);
   bson_free (s);
}

/* app_name_version -- "name version", either part left out when absent, "n/a" when both are. */
static void
app_name_version (bson_string_t *o, const bson_t *doc, const char *name_path, const char *version_path)
{
   const char *n = lab_results_get_string (doc, name_path), *v = lab_results_get_string (doc, version_path);

   if (!n && !v) {
      bson_string_append (o, "n/a");
      return;
   }
   if (n) {
      app_esc (o, n);
   }
   if (n && v) {
      bson_string_append (o, " ");
   }
   if (v) {
      app_esc (o, v);
   }
}

/* app_num -- append the number at `path` of doc in unit, or "n/a". */
static void
app_num (bson_string_t *o, const bson_t *doc, const char *path, lab_unit_t unit)
{
   double v;

   if (lab_results_get_number (doc, path, &v)) {
      app_fmt (o, unit, v);
   } else {
      bson_string_append (o, "n/a");
   }
}

/* app_bool -- append yes / no / n/a for the boolean at path. */
static void
app_bool (bson_string_t *o, const bson_t *doc, const char *path)
{
   bool b;

   bson_string_append (o, lab_results_get_bool (doc, path, &b) ? (b ? "yes" : "no") : "n/a");
}

/* app_stat -- append "median (min–max)". */
static void
app_stat (bson_string_t *o, lab_unit_t unit, const lab_stat_t *s)
{
   char *t = lab_results_format_stat (unit, s, true);

   bson_string_append (o, t);
   bson_free (t);
}

/* app_factor -- append "2.16x" / "12.3x". */
static void
app_factor (bson_string_t *o, double f)
{
   char *s = lab_results_format_factor (f);

   bson_string_append (o, s);
   bson_free (s);
}

/* collection_name -- the collection of a layout: dataset.<l>.collection, else config.<l>. */
static const char *
collection_name (const lab_cmp_results_t *r, const char *layout)
{
   char path[64];
   const char *s;

   snprintf (path, sizeof path, "dataset.%s.collection", layout);
   s = lab_results_get_string (&r->doc, path);
   if (!s) {
      snprintf (path, sizeof path, "config.%s", layout);
      s = lab_results_get_string (&r->doc, path);
   }
   return s;
}

/* ---- verdict ----------------------------------------------------------------------------------- */

typedef struct {
   int runs, dropped, drop_known, engine_restarted, server_restarted;
   bool resident_known;
   double resident_max_pct;
} cold_facts_t;

/* gather_cold -- how cold the runs really were. */
static cold_facts_t
gather_cold (const lab_cmp_results_t *r)
{
   cold_facts_t c = { 0 };
   int i, n = lab_cmp_runs_n (r);
   bson_t run;
   bool b;
   double v;

   for (i = 0; i < n; i++) {
      if (!lab_cmp_run_get (r, i, &run)) {
         continue;
      }
      c.runs++;
      if (lab_results_get_bool (&run, "cold.caches_dropped", &b)) {
         c.drop_known++;
         c.dropped += b;
      }
      if (lab_results_get_bool (&run, "cold.engine_restarted", &b)) {
         c.engine_restarted += b;
      }
      if (lab_results_get_bool (&run, "cold.server_restarted", &b)) {
         c.server_restarted += b;
      }
      if (lab_results_get_number (&run, "cold.resident_pct_before", &v)) {
         if (!c.resident_known || v > c.resident_max_pct) {
            c.resident_max_pct = v;
         }
         c.resident_known = true;
      }
   }
   return c;
}

/* ---- the cache sweep --------------------------------------------------------------------------- */

typedef struct {
   lab_sweep_point_t *p; /* filled in place (views into the results document) */
   size_t n;
   size_t ref; /* the point the top level repeats */
} sweep_t;

/* sweep_load -- the points of r's sweep (n == 0 for a single-point file); free with sweep_free. */
static void
sweep_load (const lab_cmp_results_t *r, sweep_t *s)
{
   size_t i;

   s->n = lab_results_sweep_n (&r->doc);
   s->p = bson_malloc0 ((s->n + 1) * sizeof *s->p);
   for (i = 0; i < s->n; i++) {
      lab_results_sweep_point (&r->doc, i, &s->p[i]);
   }
   s->ref = lab_results_sweep_reference (&r->doc);
}

/* sweep_free -- free what sweep_load allocated. */
static void
sweep_free (sweep_t *s)
{
   bson_free (s->p);
   memset (s, 0, sizeof *s);
}

/* point_as_results -- a point viewed as a results file (its runs and summary), for the per-run helpers. */
static void
point_as_results (const lab_sweep_point_t *p, lab_cmp_results_t *out)
{
   memset (out, 0, sizeof *out);
   bson_init_static (&out->doc, bson_get_data (&p->doc), p->doc.len);
}

/* lab_cmp_sweep_estimate -- see cmp.h. */
lab_estimate_t
lab_cmp_sweep_estimate (const lab_cmp_results_t *r, const lab_cmp_production_t *production)
{
   sweep_t s;
   double *ratio, *speedup;
   size_t i, n = 0, *idx;
   lab_estimate_t e;

   sweep_load (r, &s);
   ratio = bson_malloc0 ((s.n + 1) * sizeof *ratio);
   speedup = bson_malloc0 ((s.n + 1) * sizeof *speedup);
   idx = bson_malloc0 ((s.n + 1) * sizeof *idx);
   for (i = 0; i < s.n; i++) {
      if (s.p[i].has_speedup) {
         ratio[n] = s.p[i].cache_ratio;
         speedup[n] = s.p[i].speedup;
         idx[n++] = i;
      }
   }
   e = lab_results_estimate_speedup (ratio, speedup, n, production ? production->ratio : 0);
   if (n > 0) {
      /* the points used, as indices of sweep[] rather than of the points with a speedup */
      e.lo = idx[e.lo];
      e.hi = idx[e.hi];
   }
   bson_free (ratio);
   bson_free (speedup);
   bson_free (idx);
   sweep_free (&s);
   return e;
}

/* app_ratio -- a cache ratio as the options take it: "0.41", "3.26", "0.012". */
static void
app_ratio (bson_string_t *o, double ratio)
{
   if (ratio < 1.0 && ratio >= 0.995) {
      /* "1.00" would put a cache that rereads on the wrong side of 1 */
      bson_string_append_printf (o, "%.4g", floor (ratio * 1000.0) / 1000.0);
   } else {
      bson_string_append_printf (o, ratio >= 0.095 ? "%.2f" : "%.2g", ratio);
   }
}

/* app_binary -- a cache size in binary units: "256 MiB". */
static void
app_binary (bson_string_t *o, double bytes)
{
   char *s = lab_results_format_binary (bytes);

   bson_string_append (o, s);
   bson_free (s);
}

/* app_holds -- how much of the data the cache of point `p` holds, for the verdict. */
static void
app_holds (bson_string_t *o, const lab_sweep_point_t *p)
{
   double ratio = p->cache_ratio;

   if (ratio >= 1.0 && strcmp (lab_results_point_regime (p), LAB_RESULTS_REGIME_FITS) == 0) {
      bson_string_append (o, "when the cache holds all the data");
   } else if (ratio >= 1.0) {
      /* larger than the data on disk, yet it rereads: the cache holds pages uncompressed */
      bson_string_append_printf (o,
                                 "when the cache is %.2fx the data's size on disk but still rereads it "
                                 "(it holds pages uncompressed)",
                                 ratio);
   } else {
      /* never "100%" for a cache that does not hold it all */
      bson_string_append_printf (o,
                                 ratio < 0.995 ? "when the cache holds %.0f%% of the data"
                                               : "when the cache holds %.1f%% of the data",
                                 ratio < 0.995 ? ratio * 100.0 : floor (ratio * 1000.0) / 10.0);
   }
}

/* app_point -- "256 MiB, ratio 0.41". */
static void
app_point (bson_string_t *o, const lab_sweep_point_t *p)
{
   app_binary (o, p->cache_size_bytes);
   bson_string_append (o, ", ratio ");
   app_ratio (o, p->cache_ratio);
}

/* app_production_given -- how the production ratio was given: "0.50" or "0.50 = 64 GiB ÷ 128 GiB". */
static void
app_production_given (bson_string_t *o, const lab_cmp_production_t *prod)
{
   app_ratio (o, prod->ratio);
   if (prod->cache_bytes > 0 && prod->data_bytes > 0) {
      bson_string_append (o, " = ");
      app_binary (o, prod->cache_bytes);
      bson_string_append (o, " of cache ÷ ");
      app_binary (o, prod->data_bytes);
      bson_string_append (o, " of detail data and indexes");
   }
}

/* render_production_line -- the verdict's line on the production point: the interpolated speedup, the
 * measured one, or why there is none. */
static void
render_production_line (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s,
                        const lab_cmp_production_t *prod)
{
   lab_estimate_t e = lab_cmp_sweep_estimate (r, prod);

   bson_string_append (o, "- ");
   switch (e.status) {
   case LAB_ESTIMATE_INTERPOLATED:
      bson_string_append (o, "**At the production cache ratio (");
      app_production_given (o, prod);
      bson_string_append (o, ") the folded layout would load about ");
      app_factor (o, e.speedup);
      bson_string_append (o, " faster: an interpolation, not a measurement**, between the measured ");
      app_factor (o, s->p[e.lo].speedup);
      bson_string_append (o, " at ");
      app_binary (o, s->p[e.lo].cache_size_bytes);
      bson_string_append (o, " (ratio ");
      app_ratio (o, s->p[e.lo].cache_ratio);
      bson_string_append (o, ") and ");
      app_factor (o, s->p[e.hi].speedup);
      bson_string_append (o, " at ");
      app_binary (o, s->p[e.hi].cache_size_bytes);
      bson_string_append (o, " (ratio ");
      app_ratio (o, s->p[e.hi].cache_ratio);
      bson_string_append (o, "), linear in log(ratio).\n");
      break;
   case LAB_ESTIMATE_MEASURED:
      bson_string_append (o, "**At the production cache ratio (");
      app_production_given (o, prod);
      bson_string_append (o, ") the folded layout loads ");
      app_factor (o, e.speedup);
      bson_string_append (o, " faster**: a measured point (");
      app_point (o, &s->p[e.lo]);
      bson_string_append (o, "), no interpolation needed.\n");
      break;
   case LAB_ESTIMATE_OUTSIDE:
      bson_string_append (o, "**The production cache ratio ");
      app_production_given (o, prod);
      bson_string_append (o, " is outside the measured range ");
      app_ratio (o, e.range_lo);
      bson_string_append (o, "–");
      app_ratio (o, e.range_hi);
      bson_string_append (o, "; no estimate**: layout-report does not extrapolate (the speedup changes most "
                             "where the cache stops holding the data). Measure a sweep that reaches it "
                             "(`scancmp --cache-ratios`).\n");
      break;
   case LAB_ESTIMATE_TOO_FEW:
   default:
      bson_string_append (o, "**No estimate at the production cache ratio ");
      app_production_given (o, prod);
      bson_string_append (o, "**: the sweep has fewer than two points with both load times, so there is no "
                             "curve to read it from.\n");
      break;
   }
}

/* render_sweep_verdict -- the verdict of a sweep file: the speedup curve first (its range and the cache
 * ratios at its ends), what the cache reread, the production point, how cold the runs were, and which
 * point the single-point sections below show. */
static void
render_sweep_verdict (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s,
                      const lab_cmp_production_t *prod)
{
   size_t i, lo = SIZE_MAX, hi = SIZE_MAX, first = SIZE_MAX, last = SIZE_MAX, n_speedup = 0, overlap = 0,
             spread = 0;
   double famp_lo = INFINITY, famp_hi = -INFINITY;
   cold_facts_t c = { 0 };
   bool cold_requested = false;

   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      lab_cmp_results_t pr;
      cold_facts_t pc;

      if (p->has_speedup) {
         n_speedup++;
         if (lo == SIZE_MAX || p->speedup < s->p[lo].speedup) {
            lo = i;
         }
         if (hi == SIZE_MAX || p->speedup > s->p[hi].speedup) {
            hi = i;
         }
      }
      if (p->has_amplification[0]) {
         if (first == SIZE_MAX) {
            first = i;
         }
         last = i;
      }
      if (p->has_amplification[1]) {
         famp_lo = fmin (famp_lo, p->read_amplification[1]);
         famp_hi = fmax (famp_hi, p->read_amplification[1]);
      }
      if (p->elapsed[0].n >= 2 && p->elapsed[1].n >= 2) {
         spread++;
         overlap += !(p->elapsed[0].max < p->elapsed[1].min || p->elapsed[1].max < p->elapsed[0].min);
      }
      point_as_results (p, &pr);
      pc = gather_cold (&pr);
      c.runs += pc.runs;
      c.dropped += pc.dropped;
      c.drop_known += pc.drop_known;
      if (pc.resident_known && (!c.resident_known || pc.resident_max_pct > c.resident_max_pct)) {
         c.resident_max_pct = pc.resident_max_pct;
      }
      c.resident_known = c.resident_known || pc.resident_known;
   }

   bson_string_append (o, "## Verdict\n\n");

   /* 1: the curve */
   bson_string_append (o, "- ");
   if (n_speedup == 0) {
      bson_string_append (o, "**Load time could not be compared** at any cache size.\n");
   } else if (n_speedup == 1 || lo == hi) {
      bson_string_append (o, s->p[hi].speedup >= 1 ? "**The folded layout loads " : "**The speedup is ");
      app_factor (o, s->p[hi].speedup);
      bson_string_append_printf (o, "%s at the %s measured**: ", s->p[hi].speedup >= 1 ? " faster" : "",
                                 n_speedup == 1 ? "one cache size" : "cache sizes");
      app_holds (o, &s->p[hi]);
      bson_string_append (o, " (");
      app_point (o, &s->p[hi]);
      bson_string_append (o, "); a curve needs more points.\n");
   } else {
      if (s->p[lo].speedup >= 1) {
         bson_string_append (o, "**The folded layout loads ");
         app_factor (o, s->p[lo].speedup);
         bson_string_append (o, "–");
         app_factor (o, s->p[hi].speedup);
         bson_string_append (o, " faster, depending on the engine cache**: ");
      } else {
         bson_string_append (o, "**The speedup (detail load time ÷ folded load time) ranges from ");
         app_factor (o, s->p[lo].speedup);
         bson_string_append (o, " to ");
         app_factor (o, s->p[hi].speedup);
         bson_string_append (o, " with the engine cache** (below 1x the detail layout is faster): ");
      }
      app_factor (o, s->p[lo].speedup);
      bson_string_append (o, " ");
      app_holds (o, &s->p[lo]);
      bson_string_append (o, " (");
      app_point (o, &s->p[lo]);
      bson_string_append (o, "), ");
      app_factor (o, s->p[hi].speedup);
      bson_string_append (o, " ");
      app_holds (o, &s->p[hi]);
      bson_string_append (o, " (");
      app_point (o, &s->p[hi]);
      bson_string_append_printf (o,
                                 "). %zu cache sizes measured; the data is the detail layout's data and "
                                 "indexes on disk.\n",
                                 s->n);
   }

   /* 2: what the cache reread */
   bson_string_append (o, "- ");
   if (first == SIZE_MAX) {
      bson_string_append (o, "Read amplification could not be computed (no engine block read bytes in the "
                             "file).\n");
   } else {
      const lab_sweep_point_t *a = &s->p[first], *b = &s->p[last];
      bson_string_append (o, a->read_amplification[0] >= 2.0
                                ? "**The detail layout rereads its pages when the "
                                  "cache cannot hold them**: the engine read "
                                : "The detail layout's engine read ");
      app_factor (o, a->read_amplification[0]);
      bson_string_append (o, " its on-disk size from disk at ");
      app_binary (o, a->cache_size_bytes);
      bson_string_append (o, " (ratio ");
      app_ratio (o, a->cache_ratio);
      bson_string_append (o, ")");
      if (last != first) {
         bson_string_append (o, " and ");
         app_factor (o, b->read_amplification[0]);
         bson_string_append (o, " at ");
         app_binary (o, b->cache_size_bytes);
         bson_string_append (o, " (ratio ");
         app_ratio (o, b->cache_ratio);
         bson_string_append (o, ")");
      }
      if (famp_hi >= famp_lo) {
         bson_string_append (o, "; the folded layout's engine read ");
         app_factor (o, famp_lo);
         if (famp_hi > famp_lo) {
            bson_string_append (o, "–");
            app_factor (o, famp_hi);
         }
         bson_string_append (o, " its size");
      }
      bson_string_append (o, ".\n");
   }

   /* 3: production */
   if (prod) {
      render_production_line (o, r, s, prod);
   }

   /* 4: how cold, how consistent */
   bson_string_append (o, "- ");
   lab_results_get_bool (&r->doc, "config.cold", &cold_requested);
   if (!cold_requested) {
      bson_string_append (o, "**Not a cold experiment** (scancmp ran without `--cold`): caches may have "
                             "served part of the data");
   } else if (c.drop_known == c.runs && c.dropped == c.runs) {
      bson_string_append_printf (o, "All %d runs of the %zu points started with caches dropped", c.runs,
                                 s->n);
      if (c.resident_known) {
         bson_string_append_printf (o, " (at most %.1f%% of the data files resident)", c.resident_max_pct);
      }
   } else {
      bson_string_append_printf (o, "**Caution**: caches were dropped before %d of the %d runs", c.dropped,
                                 c.runs);
   }
   if (spread == 0) {
      bson_string_append (o, "; with one run per layout there is no spread: use `--runs 3` or more.\n");
   } else if (overlap == 0) {
      bson_string_append_printf (o, "; at %s the two layouts' load-time ranges do not overlap.\n",
                                 spread == s->n ? "every point" : "every point with two runs or more");
   } else {
      bson_string_append_printf (o,
                                 "; at %zu of %zu points the two layouts' load-time ranges overlap (the "
                                 "difference there is within run-to-run noise).\n",
                                 overlap, spread);
   }

   /* 5: what the rest of the report shows */
   if (s->ref < s->n) {
      bson_string_append (o, "- The Comparison, Cold procedure and Per-run sections below show one point, "
                             "the sweep's reference (");
      app_point (o, &s->p[s->ref]);
      bson_string_append (o, ", ");
      bson_string_append (o, lab_results_point_regime (&s->p[s->ref]));
      bson_string_append (o, ").\n");
   }
   bson_string_append (o, "\n");
}

/* app_point_stat -- metric `m` of `layout` at point p: the median, or with its range. */
static void
app_point_stat (bson_string_t *o, const lab_sweep_point_t *p, const char *layout, const lab_metric_t *m,
                bool range)
{
   lab_stat_t st = lab_results_metric_stat (&p->doc, layout, m);
   char *t = lab_results_format_stat (m->unit, &st, range);

   bson_string_append (o, t);
   bson_free (t);
}

/* app_production_row -- the production point's row of the load-time table. */
static void
app_production_row (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_production_t *prod)
{
   lab_estimate_t e = lab_cmp_sweep_estimate (r, prod);

   bson_string_append (o, "| **production** ");
   if (prod->cache_bytes > 0) {
      bson_string_append (o, "(");
      app_binary (o, prod->cache_bytes);
      bson_string_append (o, ") ");
   }
   bson_string_append (o, "| **");
   app_ratio (o, prod->ratio);
   bson_string_append_printf (o, "** | %s | not measured | not measured | ",
                              lab_results_regime (prod->ratio));
   switch (e.status) {
   case LAB_ESTIMATE_INTERPOLATED:
      bson_string_append (o, "**≈ ");
      app_factor (o, e.speedup);
      bson_string_append (o, "** (interpolated)");
      break;
   case LAB_ESTIMATE_MEASURED:
      app_factor (o, e.speedup);
      bson_string_append (o, " (a measured point)");
      break;
   case LAB_ESTIMATE_OUTSIDE:
      bson_string_append (o, "no estimate (outside ");
      app_ratio (o, e.range_lo);
      bson_string_append (o, "–");
      app_ratio (o, e.range_hi);
      bson_string_append (o, ")");
      break;
   default:
      bson_string_append (o, "no estimate (too few points)");
      break;
   }
   bson_string_append (o, " |\n");
}

/* render_sweep -- the sweep tables: load time and speedup, reads and read amplification, memory, and
 * locality when measured, one row per point (the production point marked in the first), then how to
 * read them. */
static void
render_sweep (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s,
              const lab_cmp_production_t *prod)
{
   const lab_metric_t *m_rr = lab_results_metric_find ("read_requests");
   const lab_metric_t *m_rb = lab_results_metric_find ("read_bytes");
   const lab_metric_t *m_cp = lab_results_metric_find ("cache_peak_bytes");
   const lab_metric_t *m_cpp = lab_results_metric_find ("cache_peak_pct");
   const lab_metric_t *m_rss = lab_results_metric_find ("server_rss_peak_bytes");
   size_t i;
   int l;
   bool prod_done = !prod, any_locality = false;
   double disk;

   bson_string_append (o, "## Cache sweep\n\n### Load time\n\n");
   bson_string_append (o, "| engine cache | cache ÷ detail on disk | regime | detail load time | folded load "
                          "time | speedup (detail ÷ folded) |\n|--:|--:|---|--:|--:|--:|\n");
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      if (!prod_done && prod->ratio < p->cache_ratio) {
         app_production_row (o, r, prod);
         prod_done = true;
      }
      bson_string_append (o, "| ");
      app_binary (o, p->cache_size_bytes);
      bson_string_append (o, " | ");
      app_ratio (o, p->cache_ratio);
      bson_string_append_printf (o, " | %s | ", lab_results_point_regime (p));
      app_stat (o, LAB_UNIT_SECONDS, &p->elapsed[0]);
      bson_string_append (o, " | ");
      app_stat (o, LAB_UNIT_SECONDS, &p->elapsed[1]);
      bson_string_append (o, " | ");
      if (p->has_speedup) {
         app_factor (o, p->speedup);
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " |\n");
   }
   if (!prod_done) {
      app_production_row (o, r, prod);
   }

   bson_string_append (o, "\n### Reads\n\n");
   bson_string_append (o, "| engine cache | disk read requests: detail | folded | disk bytes read: detail | "
                          "folded | engine read from disk: detail | folded | read amplification: detail | "
                          "folded |\n|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      bson_string_append (o, "| ");
      app_binary (o, p->cache_size_bytes);
      for (l = 0; l < 2; l++) {
         bson_string_append (o, " | ");
         app_point_stat (o, p, layouts[l], m_rr, false);
      }
      for (l = 0; l < 2; l++) {
         bson_string_append (o, " | ");
         app_point_stat (o, p, layouts[l], m_rb, false);
      }
      for (l = 0; l < 2; l++) {
         bson_string_append (o, " | ");
         app_point_stat (o, p, layouts[l], &lab_results_block_read_bytes, false);
      }
      for (l = 0; l < 2; l++) {
         bson_string_append (o, " | ");
         if (p->has_amplification[l]) {
            app_factor (o, p->read_amplification[l]);
         } else {
            bson_string_append (o, "n/a");
         }
      }
      bson_string_append (o, " |\n");
      any_locality = any_locality || p->locality[0].present || p->locality[1].present;
   }

   bson_string_append (o, "\n### Memory\n\n");
   bson_string_append (o, "| engine cache | engine cache used (peak): detail | folded | server memory (peak "
                          "RSS): detail | folded |\n|--:|--:|--:|--:|--:|\n");
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      bson_string_append (o, "| ");
      app_binary (o, p->cache_size_bytes);
      for (l = 0; l < 2; l++) {
         lab_stat_t pct = lab_results_metric_stat (&p->doc, layouts[l], m_cpp);
         bson_string_append (o, " | ");
         app_point_stat (o, p, layouts[l], m_cp, false);
         if (pct.present) {
            bson_string_append_printf (o, " (%.0f%%)", pct.median);
         }
      }
      for (l = 0; l < 2; l++) {
         bson_string_append (o, " | ");
         app_point_stat (o, p, layouts[l], m_rss, false);
      }
      bson_string_append (o, " |\n");
   }

   if (any_locality) {
      bson_string_append (o, "\n### Locality\n\n");
      bson_string_append (o,
                          "| engine cache | data pages per master: detail mean | detail p95 | folded mean | "
                          "folded p95 | masters sampled (detail / folded) |\n|--:|--:|--:|--:|--:|--:|\n");
      for (i = 0; i < s->n; i++) {
         const lab_sweep_point_t *p = &s->p[i];
         bson_string_append (o, "| ");
         app_binary (o, p->cache_size_bytes);
         for (l = 0; l < 2; l++) {
            const lab_locality_t *loc = &p->locality[l];
            bson_string_append (o, " | ");
            if (loc->present) {
               app_fmt (o, LAB_UNIT_COUNT, loc->pages_per_master_mean);
            } else {
               bson_string_append (o, "n/a");
            }
            bson_string_append (o, " | ");
            if (loc->present && loc->pages_per_master_p95 >= 0) {
               app_fmt (o, LAB_UNIT_COUNT, loc->pages_per_master_p95);
            } else {
               bson_string_append (o, "n/a");
            }
         }
         bson_string_append (o, " | ");
         for (l = 0; l < 2; l++) {
            if (l) {
               bson_string_append (o, " / ");
            }
            if (p->locality[l].present && p->locality[l].masters_sampled >= 0) {
               app_fmt (o, LAB_UNIT_COUNT, p->locality[l].masters_sampled);
            } else {
               bson_string_append (o, "n/a");
            }
         }
         bson_string_append (o, " |\n");
      }
   }

   bson_string_append (o, "\nThe cache ratio is the engine cache ÷ the detail layout's size on disk (data + "
                          "indexes");
   if (lab_results_on_disk_bytes (&r->doc, "detail", &disk)) {
      bson_string_append (o, ": ");
      app_fmt (o, LAB_UNIT_BYTES, disk);
   }
   bson_string_append (o,
                       "). At 1 or more the detail layout *fits in cache*: each page is read once. Below 1 "
                       "the cache evicts pages it needs again and *rereads* them. The speedup is the "
                       "detail median load time ÷ the folded one. Read amplification is what the engine "
                       "read from disk into its cache (block manager bytes, compressed as on disk) ÷ the "
                       "layout's size on disk: 1x means each on-disk byte once. ");
   if (any_locality) {
      bson_string_append (o, "Locality counts the distinct data pages one master's rows occupy, over a "
                             "sample of masters. ");
   }
   bson_string_append (o, "Load times are medians with the min–max range of the runs; other figures are "
                          "medians. Sizes are SI (1 MB = 10^6 bytes); cache sizes binary, as configured.");
   if (prod) {
      bson_string_append (o, " The production row is not measured: its speedup is interpolated between the "
                             "two nearest measured points, linearly in log(ratio), and never extrapolated "
                             "beyond them.");
   }
   bson_string_append (o, "\n\n");
}

/* render_sweep_baseline -- two sweeps point by point where their cache sizes match: the speedup before
 * and after; the unmatched sizes listed. */
static void
render_sweep_baseline (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s,
                       const lab_cmp_results_t *b)
{
   sweep_t bs;
   size_t i, j, matched = 0;
   bson_string_t *only_b = bson_string_new (NULL), *only_r = bson_string_new (NULL);
   const lab_cmp_results_t *both[2] = { b, r };
   const char *what[2] = { "baseline", "this sweep" };
   int l;

   sweep_load (b, &bs);
   bson_string_append (o, "## Against the baseline sweep\n\n");
   for (l = 0; l < 2; l++) {
      bson_string_append_printf (o, "- %s: ", what[l]);
      app_esc (o, both[l]->name);
      bson_string_append (o, " — ");
      app_name_version (o, &both[l]->doc, "backend.name", "backend.version");
      bson_string_append_printf (o, ", %zu points, started ", l == 0 ? bs.n : s->n);
      app_esc (o, lab_results_get_string (&both[l]->doc, "started_at"));
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n| engine cache | ratio: baseline | ratio: this | speedup: baseline | speedup: "
                          "this | change |\n|--:|--:|--:|--:|--:|--:|\n");
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i], *q = NULL;
      for (j = 0; j < bs.n; j++) {
         if (bs.p[j].cache_size_bytes == p->cache_size_bytes) {
            q = &bs.p[j];
         }
      }
      if (!q) {
         if (only_r->len) {
            bson_string_append (only_r, ", ");
         }
         app_binary (only_r, p->cache_size_bytes);
         continue;
      }
      matched++;
      bson_string_append (o, "| ");
      app_binary (o, p->cache_size_bytes);
      bson_string_append (o, " | ");
      app_ratio (o, q->cache_ratio);
      bson_string_append (o, " | ");
      app_ratio (o, p->cache_ratio);
      bson_string_append (o, " | ");
      if (q->has_speedup) {
         app_factor (o, q->speedup);
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " | ");
      if (p->has_speedup) {
         app_factor (o, p->speedup);
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " | ");
      if (p->has_speedup && q->has_speedup && q->speedup > 0) {
         double ch = (p->speedup - q->speedup) / q->speedup * 100.0;
         if (fabs (ch) < 0.05) {
            bson_string_append (o, "0.0%");
         } else {
            bson_string_append_printf (o, "%s%.1f%%", ch > 0 ? "+" : "−", fabs (ch));
         }
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " |\n");
   }
   for (j = 0; j < bs.n; j++) {
      bool found = false;
      for (i = 0; i < s->n; i++) {
         found = found || s->p[i].cache_size_bytes == bs.p[j].cache_size_bytes;
      }
      if (!found) {
         if (only_b->len) {
            bson_string_append (only_b, ", ");
         }
         app_binary (only_b, bs.p[j].cache_size_bytes);
      }
   }
   if (matched == 0) {
      bson_string_append (o, "| (no cache size in common) | | | | | |\n");
   }
   bson_string_append (o, "\nPoints are matched by engine cache size; *change* is this sweep's speedup "
                          "relative to the baseline's (positive: folding gains more). The ratios differ when "
                          "the data did.");
   if (only_b->len || only_r->len) {
      bson_string_append (o, " Unmatched cache sizes:");
      if (only_b->len) {
         bson_string_append_printf (o, " only in the baseline, %s%s", only_b->str, only_r->len ? ";" : ".");
      }
      if (only_r->len) {
         bson_string_append_printf (o, " only in this sweep, %s.", only_r->str);
      }
   } else {
      bson_string_append (o, " Every cache size was measured in both.");
   }
   bson_string_append (o, "\n\n");
   bson_string_free (only_b, true);
   bson_string_free (only_r, true);
   sweep_free (&bs);
}

/* render_regime_line -- a single-point file's verdict line on the regime it was measured in, and on the
 * production point when one was given. */
static void
render_regime_line (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_production_t *prod)
{
   double ratio, cache, disk;
   bool has_ratio = lab_results_cache_ratio (&r->doc, &ratio);

   if (has_ratio) {
      bson_string_append (o, "- Measured in the **");
      bson_string_append (o, lab_results_regime (ratio));
      bson_string_append (o, "** regime: ");
      if (lab_results_cache_bytes (&r->doc, &cache)) {
         bson_string_append (o, "an engine cache of ");
         app_binary (o, cache);
         bson_string_append (o, " is ");
      } else {
         bson_string_append (o, "the engine cache is ");
      }
      app_ratio (o, ratio);
      bson_string_append (o, " of the detail layout's size on disk");
      if (lab_results_on_disk_bytes (&r->doc, "detail", &disk)) {
         bson_string_append (o, " (");
         app_fmt (o, LAB_UNIT_BYTES, disk);
         bson_string_append (o, ", data + indexes)");
      }
      bson_string_append (o, ratio >= 1.0 ? ", so each page is read once. "
                                          : ", so the cache evicts and rereads pages. ");
      bson_string_append (o, "The speedup depends mostly on this ratio: one point is not the curve "
                             "(`scancmp --cache-ratios` measures it).\n");
   }
   if (prod) {
      bson_string_append (o, "- **No estimate at the production cache ratio ");
      app_production_given (o, prod);
      bson_string_append (o, "**: this file holds one measured point");
      if (has_ratio) {
         bson_string_append (o, " (ratio ");
         app_ratio (o, ratio);
         bson_string_append (o, ")");
      }
      bson_string_append (o,
                          ", not a curve to interpolate on; measure a sweep (`scancmp --cache-ratios`).\n");
   }
}

/* render_verdict -- three lines computed from the medians: time, read requests, how trustworthy. */
static void
render_verdict (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_production_t *prod)
{
   const lab_metric_t *m_el = lab_results_metric_find ("elapsed_s");
   const lab_metric_t *m_rr = lab_results_metric_find ("read_requests");
   const lab_metric_t *m_sz = lab_results_metric_find ("avg_read_request_bytes");
   lab_stat_t ed = lab_results_metric_stat (&r->doc, "detail", m_el),
              ef = lab_results_metric_stat (&r->doc, "folded", m_el);
   lab_stat_t rd = lab_results_metric_stat (&r->doc, "detail", m_rr),
              rf = lab_results_metric_stat (&r->doc, "folded", m_rr);
   lab_stat_t sd = lab_results_metric_stat (&r->doc, "detail", m_sz),
              sf = lab_results_metric_stat (&r->doc, "folded", m_sz);
   int nd = lab_cmp_run_count (r, "detail"), nf = lab_cmp_run_count (r, "folded");
   cold_facts_t c = gather_cold (r);
   double factor;
   lab_winner_t w;
   bool cold_requested = false;

   bson_string_append (o, "## Verdict\n\n");

   /* 1: load time */
   w = lab_results_winner (m_el->better, &ed, &ef, &factor);
   bson_string_append (o, "- ");
   if (w == LAB_WIN_FOLDED || w == LAB_WIN_DETAIL) {
      bson_string_append_printf (o, "**The folded layout loads ");
      app_factor (o, factor);
      bson_string_append (o, w == LAB_WIN_FOLDED ? " faster**: " : " slower**: ");
   } else if (w == LAB_WIN_TIE) {
      bson_string_append (o, "**Both layouts load in about the same time**: ");
   } else {
      bson_string_append (o, "**Load time could not be compared**: ");
   }
   app_stat (o, LAB_UNIT_SECONDS, &ef);
   bson_string_append (o, " folded vs ");
   app_stat (o, LAB_UNIT_SECONDS, &ed);
   if (nd == nf) {
      bson_string_append_printf (o, " one document per row (median of %d run%s each).\n", nd,
                                 nd == 1 ? "" : "s");
   } else {
      bson_string_append_printf (o, " one document per row (median of %d and %d runs).\n", nf, nd);
   }
   render_regime_line (o, r, prod);

   /* 2: disk read requests and their size */
   bson_string_append (o, "- ");
   if (rd.present && rf.present && rd.median > 0) {
      double change = (rf.median - rd.median) / rd.median * 100.0;
      if (fabs (change) < 0.5) {
         bson_string_append (o, "It needs about as many disk read requests (");
      } else if (change <= -99.5 && rf.median > 0) {
         /* "100% fewer" would claim none at all: say the factor instead */
         bson_string_append_printf (o, "It needs %.0fx fewer disk read requests (", rd.median / rf.median);
      } else {
         bson_string_append_printf (o, "It needs %.0f%% %s disk read requests (", fabs (change),
                                    change < 0 ? "fewer" : "more");
      }
      app_fmt (o, LAB_UNIT_COUNT, rf.median);
      bson_string_append (o, " vs ");
      app_fmt (o, LAB_UNIT_COUNT, rd.median);
      bson_string_append (o, ")");
      if (sd.present && sf.present) {
         bson_string_append (o, ", of ");
         app_fmt (o, LAB_UNIT_BYTES, sf.median);
         bson_string_append (o, " on average instead of ");
         app_fmt (o, LAB_UNIT_BYTES, sd.median);
      }
      bson_string_append (o, ".\n");
   } else {
      bson_string_append (o, "Disk read requests could not be compared (n/a: the device was not sampled).\n");
   }

   /* 3: how cold, how consistent */
   bson_string_append (o, "- ");
   lab_results_get_bool (&r->doc, "config.cold", &cold_requested);
   if (!cold_requested) {
      bson_string_append (o, "**Not a cold experiment** (scancmp ran without `--cold`): caches may have "
                             "served part of the data");
   } else if (c.drop_known == c.runs && c.dropped == c.runs && c.resident_known &&
              c.resident_max_pct <= 1.0) {
      bson_string_append_printf (o,
                                 "All %d runs started cold (caches dropped, at most %.1f%% of the data "
                                 "files resident)",
                                 c.runs, c.resident_max_pct);
   } else if (c.dropped == c.runs && c.drop_known == c.runs) {
      if (c.resident_known) {
         bson_string_append_printf (o,
                                    "Caches were dropped before all %d runs, yet up to %.1f%% of the "
                                    "data files were resident before one",
                                    c.runs, c.resident_max_pct);
      } else {
         bson_string_append_printf (o, "Caches were dropped before all %d runs (residency not measured)",
                                    c.runs);
      }
   } else {
      bson_string_append_printf (o, "**Caution**: caches were dropped before %d of %d runs", c.dropped,
                                 c.runs);
      if (c.resident_known) {
         bson_string_append_printf (o, " and up to %.1f%% of the data files were resident before a run",
                                    c.resident_max_pct);
      }
      if (c.server_restarted > 0) {
         bson_string_append_printf (o,
                                    " (the server was restarted before %d, emptying its cache; the OS "
                                    "page cache may still have held data)",
                                    c.server_restarted);
      }
      bson_string_append (o, ": some runs were partly warm");
   }
   if (nd < 2 || nf < 2) {
      bson_string_append (o, "; with one run per layout there is no spread: use `--runs 3` or more.\n");
   } else if (ed.present && ef.present) {
      bool overlap = !(ed.max < ef.min || ef.max < ed.min);
      bson_string_append (o, overlap ? "; the load-time ranges of the two layouts overlap, so the time "
                                       "difference is within run-to-run noise.\n"
                                     : "; the load-time ranges of the two layouts do not overlap.\n");
   } else {
      bson_string_append (o, ".\n");
   }
   bson_string_append (o, "\n");
}

/* ---- comparison table -------------------------------------------------------------------------- */

/* table_row -- one row of the comparison table: label, detail, folded, ratio, better, as the shared
 * cells of core/results.h (scancmp's table prints the same cells). */
static void
table_row (bson_string_t *o, const lab_results_row_t *row)
{
   lab_results_cells_t c;

   lab_results_row_cells (row, true, &c);
   bson_string_append (o, "| ");
   app_esc (o, row->metric->label);
   bson_string_append_printf (o, " | %s | %s | %s | %s |\n", c.detail, c.folded, c.ratio, c.better);
   lab_results_cells_cleanup (&c);
}

/* render_table -- the comparison table of the metric catalogue; rows no run measured are listed below
 * it instead. */
static void
render_table (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s)
{
   const lab_metric_t *m;
   size_t n, i;
   bson_string_t *missing = bson_string_new (NULL);
   int nd = lab_cmp_run_count (r, "detail"), nf = lab_cmp_run_count (r, "folded");

   bson_string_append (o, "## Comparison\n\n");
   bson_string_append (o, "| metric | one doc per row (detail) | folded | folded / detail | better |\n");
   bson_string_append (o, "|---|--:|--:|--:|---|\n");
   m = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_results_row_t row;
      if (!lab_results_row (&r->doc, &m[i], &row)) {
         bson_string_append_printf (missing, "%s%s", missing->len ? ", " : "", m[i].label);
         continue;
      }
      table_row (o, &row);
   }
   bson_string_append (o, "\n");
   if (nd == nf) {
      bson_string_append_printf (o,
                                 "Figures are medians over %d run%s per layout, with the min–max range in "
                                 "parentheses when runs differ. ",
                                 nd, nd == 1 ? "" : "s");
   } else {
      bson_string_append_printf (o,
                                 "Figures are medians over %d detail and %d folded runs, with the "
                                 "min–max range in parentheses when runs differ. ",
                                 nd, nf);
   }
   bson_string_append (o, "The ratio is folded ÷ detail. *better* names the layout with the better median "
                          "and by what factor (less time, fewer and larger read requests, less memory); "
                          "descriptive rows have none (rates per second among them: the totals decide), "
                          "and *same* means within 2%. Sizes are SI (1 MB = 10^6 bytes).");
   if (s && s->ref < s->n) {
      bson_string_append (o, " In this sweep the table shows its reference point, ");
      app_point (o, &s->p[s->ref]);
      bson_string_append (o, "; the Cache sweep section above has every point.");
   }
   bson_string_append (o, "\n\n");
   if (missing->len) {
      bson_string_append (o, "Not measured in this experiment (n/a for both layouts): ");
      app_esc (o, missing->str);
      bson_string_append (o, ".\n\n");
   }
   bson_string_free (missing, true);
}

/* ---- sections ---------------------------------------------------------------------------------- */

/* render_charts -- links to the SVG files, or why there are none. */
static void
render_charts (bson_string_t *o, const lab_cmp_render_opts_t *opts, const sweep_t *s)
{
   size_t i, n_sweep = 0;

   bson_string_append (o, "## Charts\n\n");
   if (!opts || opts->n_charts == 0) {
      bson_string_append (o, "Charts were skipped: ");
      app_esc (o, opts && opts->charts_note ? opts->charts_note : "none were requested");
      bson_string_append (o, ".\n\n");
      return;
   }
   for (i = 0; i < opts->n_charts; i++) {
      size_t len = strlen (opts->charts[i].file);
      if (len >= 10 && strcmp (opts->charts[i].file + len - 10, "-sweep.svg") == 0) {
         n_sweep++;
      }
   }
   if (n_sweep > 0) {
      bson_string_append (o, "The sweep chart has every point (log scales; the dashed line at ratio 1 "
                             "separates the two regimes)");
      if (s && s->ref < s->n && opts->n_charts > n_sweep) {
         bson_string_append (o, "; the other charts show the reference point, ");
         app_point (o, &s->p[s->ref]);
      }
      bson_string_append (o, opts->n_charts > n_sweep ? ". " : ".\n\n");
   }
   if (opts->n_charts > n_sweep) {
      bson_string_append (o, "Both layouts start at 0 s. The thick line is each layout's median run "
                             "(by load time); thin lines are its other runs.\n\n");
   }
   for (i = 0; i < opts->n_charts; i++) {
      bson_string_append (o, "![");
      app_esc (o, opts->charts[i].caption);
      bson_string_append (o, "](");
      /* file names are ours (stem + fixed suffix); escape only what would end the link */
      for (const char *p = opts->charts[i].file; *p; p++) {
         if (*p == ' ') {
            bson_string_append (o, "%20");
         } else if (*p == '(' || *p == ')') {
            bson_string_append_printf (o, "%%%02X", (unsigned)*p);
         } else {
            bson_string_append_c (o, *p);
         }
      }
      bson_string_append (o, ")\n\n");
   }
}

/* kv_str -- "| key | value |" with the value escaped. */
static void
kv_str (bson_string_t *o, const char *key, const char *value)
{
   bson_string_append_printf (o, "| %s | ", key);
   app_esc (o, value);
   bson_string_append (o, " |\n");
}

#define LAB_SCAN_REPORT_MAX_SERVERS 16

/* render_deployment -- the topology (kind, set, member or shards, what the figures follow) and where the
 * disk figures come from (source, device and why), when the results record them. */
static void
render_deployment (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   const char *kind = lab_results_get_string (d, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_KIND);
   const char *src =
      lab_results_get_string (d, LAB_RESULTS_KEY_DISK_SOURCE "." LAB_RESULTS_KEY_DISK_SOURCE_SOURCE);
   const char *s;
   bson_t run;
   bson_iter_t it, arr;
   char path[64];
   int i;

   if (kind) {
      bson_string_append (o, "| topology | ");
      app_esc (o, kind);
      s = lab_results_get_string (d, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_SET_NAME);
      if (s && *s) {
         bson_string_append (o, " (set ");
         app_esc (o, s);
         bson_string_append (o, ")");
      }
      s = lab_results_get_string (d, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_MEMBER);
      if (s && *s) {
         bson_string_append (o, ", member ");
         app_esc (o, s);
      }
      if (bson_iter_init_find (&it, d, LAB_RESULTS_KEY_TOPOLOGY) && BSON_ITER_HOLDS_DOCUMENT (&it) &&
          bson_iter_recurse (&it, &arr) && bson_iter_find (&arr, LAB_RESULTS_KEY_TOPOLOGY_SHARDS) &&
          BSON_ITER_HOLDS_ARRAY (&arr)) {
         bson_iter_t sh;
         bool first = true;
         bson_iter_recurse (&arr, &sh);
         while (bson_iter_next (&sh)) {
            bson_iter_t f;
            if (BSON_ITER_HOLDS_DOCUMENT (&sh) && bson_iter_recurse (&sh, &f) &&
                bson_iter_find (&f, "name") && BSON_ITER_HOLDS_UTF8 (&f)) {
               bson_string_append (o, first ? ", shards: " : ", ");
               app_esc (o, bson_iter_utf8 (&f, NULL));
               first = false;
            }
         }
      }
      bson_string_append (o, " |\n");
      kv_str (o, "server figures follow",
              lab_results_get_string (d, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_NOTE));
   }
   if (src) {
      bson_string_append (o, "| disk figures from | ");
      app_esc (o, !strcmp (src, "ftdc")    ? "the server's getDiagnosticData (FTDC)"
                  : !strcmp (src, "local") ? "this machine's /proc/diskstats"
                                           : "nowhere (not measured)");
      s = lab_results_get_string (d, LAB_RESULTS_KEY_DISK_SOURCE ".device");
      if (s) {
         bson_string_append (o, ", device ");
         app_esc (o, s);
      }
      bson_string_append (o, ": ");
      app_esc (o, lab_results_get_string (d, LAB_RESULTS_KEY_DISK_SOURCE ".reason"));
      s = lab_results_get_string (d, LAB_RESULTS_KEY_DISK_SOURCE ".local_device");
      if (s) {
         bson_string_append (o, "; the tables' device figures are this machine's /proc/diskstats of ");
         app_esc (o, s);
         bson_string_append (o, ", the server's beside them in the results (runs[].server_disk)");
      }
      bson_string_append (o, " |\n");
   }
   /* FTDC: the disk each server's figures were read from in the first run, and why */
   if (lab_cmp_run_get (r, 0, &run)) {
      for (i = 0; i < LAB_SCAN_REPORT_MAX_SERVERS; i++) {
         const char *name, *dev, *why;
         snprintf (path, sizeof path, LAB_RESULTS_KEY_SERVER_DISK ".servers.%d.name", i);
         if (!(name = lab_results_get_string (&run, path))) {
            break;
         }
         snprintf (path, sizeof path, LAB_RESULTS_KEY_SERVER_DISK ".servers.%d.device", i);
         dev = lab_results_get_string (&run, path);
         snprintf (path, sizeof path, LAB_RESULTS_KEY_SERVER_DISK ".servers.%d.device_reason", i);
         why = lab_results_get_string (&run, path);
         bson_string_append (o, "| server disk (FTDC) of ");
         app_esc (o, name);
         bson_string_append (o, " | ");
         app_esc (o, dev);
         bson_string_append (o, " (");
         app_esc (o, why);
         bson_string_append (o, ") |\n");
      }
   }
}

/* render_environment -- host, kernel, CPU, RAM, device, backend and version. */
static void
render_environment (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   const char *dev = lab_results_get_string (d, "device.name");
   double ra;
   bool b;

   if (!dev) {
      dev = lab_results_get_string (d, "config.device");
   }
   bson_string_append (o, "## Environment\n\n| | |\n|---|---|\n");
   kv_str (o, "host", lab_results_get_string (d, "host.hostname"));
   kv_str (o, "kernel", lab_results_get_string (d, "host.kernel"));
   kv_str (o, "CPU", lab_results_get_string (d, "host.cpu_model"));
   bson_string_append (o, "| cores | ");
   app_num (o, d, "host.cores", LAB_UNIT_COUNT);
   bson_string_append (o, " |\n| RAM | ");
   app_num (o, d, "host.ram_bytes", LAB_UNIT_BYTES);
   bson_string_append (o, " |\n");
   kv_str (o, "data device", dev);
   if (lab_results_get_number (d, "device.read_ahead_kb", &ra)) {
      /* MongoDB's production notes: 8-32 KiB of readahead under WiredTiger */
      bson_string_append_printf (o, "| device readahead | %.0f KiB%s |\n", ra,
                                 ra > 32
                                    ? " (MongoDB recommends 8–32 KiB for WiredTiger: larger windows inflate "
                                      "each random read)"
                                    : "");
   }
   bson_string_append (o, "| backend | ");
   app_name_version (o, d, "backend.name", "backend.version");
   bson_string_append (o, " |\n");
   kv_str (o, "URI (redacted)", lab_results_get_string (d, "backend.uri"));
   kv_str (o, "database", lab_results_get_string (d, "backend.db"));
   bson_string_append (o, "| server on this host | ");
   bson_string_append (o, lab_results_get_bool (d, "backend.server_local", &b) ? (b ? "yes" : "no") : "n/a");
   bson_string_append (o, " |\n| engine cache maximum | ");
   app_num (o, d, "backend.cache_max_bytes", LAB_UNIT_BYTES);
   bson_string_append (o, " |\n| measured by | ");
   app_name_version (o, d, "tool", "tool_version");
   bson_string_append (o, " |\n");
   render_deployment (o, r);
   kv_str (o, "started", lab_results_get_string (d, "started_at"));
   kv_str (o, "finished", lab_results_get_string (d, "finished_at"));
   bson_string_append (o, "\n");
}

/* render_dataset -- documents, sizes per layout. */
static void
render_dataset (bson_string_t *o, const lab_cmp_results_t *r)
{
   static const struct {
      const char *field, *label;
      lab_unit_t unit;
   } rows[] = {
      { "count", "documents", LAB_UNIT_COUNT },
      { "avg_obj_size_bytes", "average document size", LAB_UNIT_BYTES },
      { "data_size_bytes", "data size (uncompressed)", LAB_UNIT_BYTES },
      { "storage_size_bytes", "storage size (on disk)", LAB_UNIT_BYTES },
      { "index_size_bytes", "index size", LAB_UNIT_BYTES },
      { "nindexes", "indexes", LAB_UNIT_COUNT },
   };
   const bson_t *d = &r->doc;
   double dc, fc;
   size_t i;
   int l;
   char path[96];

   bson_string_append (o, "## Dataset\n\n| | one doc per row (detail) | folded |\n|---|--:|--:|\n");
   bson_string_append (o, "| collection | ");
   app_esc (o, collection_name (r, "detail"));
   bson_string_append (o, " | ");
   app_esc (o, collection_name (r, "folded"));
   bson_string_append (o, " |\n");
   for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
      bson_string_append_printf (o, "| %s |", rows[i].label);
      for (l = 0; l < 2; l++) {
         snprintf (path, sizeof path, "dataset.%s.%s", layouts[l], rows[i].field);
         bson_string_append (o, " ");
         app_num (o, d, path, rows[i].unit);
         bson_string_append (o, " |");
      }
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n- masters (distinct ");
   app_esc (o, lab_results_get_string (d, "config.key") ? lab_results_get_string (d, "config.key") : "key");
   bson_string_append (o, " values) loaded per layout and run: ");
   app_num (o, d, "dataset.keys", LAB_UNIT_COUNT);
   bson_string_append (o, "\n- rows per master (detail documents ÷ folded documents): ");
   if (lab_results_get_number (d, "dataset.detail.count", &dc) &&
       lab_results_get_number (d, "dataset.folded.count", &fc) && fc > 0) {
      bson_string_append_printf (o, "%.1f", dc / fc);
   } else {
      bson_string_append (o, "n/a");
   }
   bson_string_append (o, "\n- array field of the folded documents: ");
   app_esc (o, lab_results_get_string (d, "config.array_field"));
   bson_string_append (o, "\n\n");
}

/* render_cold -- the cold procedure as executed, per run. */
static void
render_cold (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   int i, n = lab_cmp_runs_n (r);
   bson_t run;
   double v;
   bool b;

   bson_string_append (o, "## Cold procedure\n\n");
   bson_string_append (o, "- cold runs requested (`--cold`): ");
   app_bool (o, d, "config.cold");
   bson_string_append (o, "\n- drop the OS page cache (`--drop-caches`): ");
   app_esc (o, lab_results_get_string (d, "config.drop_caches"));
   if (lab_results_get_bool (d, "config.direct_io", &b) && b) {
      bson_string_append (o,
                          "\n- data files read with O_DIRECT (`--direct-io`): every engine cache miss is a "
                          "disk read, as on a server whose RAM is far smaller than its data");
   }
   bson_string_append (o, "\n- restart command: ");
   if (lab_results_get_string (d, "config.restart_cmd")) {
      bson_string_append (o, "`");
      /* inside a code span only a backtick needs care */
      for (const char *p = lab_results_get_string (d, "config.restart_cmd"); *p; p++) {
         bson_string_append_c (o, (*p == '`' || *p == '\n') ? '\'' : *p);
      }
      bson_string_append (o, "`");
   } else {
      bson_string_append (o, "none");
   }
   bson_string_append (o, "\n- order of layouts: ");
   app_esc (o, lab_results_get_string (d, "config.order"));
   bson_string_append (o, "; parallel workers: ");
   app_num (o, d, "config.parallel", LAB_UNIT_COUNT);
   bson_string_append (o, "; runs: ");
   app_num (o, d, "config.runs", LAB_UNIT_COUNT);
   bson_string_append (o, "; sampling interval: ");
   app_num (o, d, "config.interval_s", LAB_UNIT_SECONDS);
   bson_string_append (o, "\n\n");
   bson_string_append (o, "| run | layout | went | engine restarted | server restarted | caches dropped | "
                          "resident before | note |\n|--:|---|--:|---|---|---|--:|---|\n");
   for (i = 0; i < n; i++) {
      if (!lab_cmp_run_get (r, i, &run)) {
         continue;
      }
      bson_string_append (o, "| ");
      app_num (o, &run, "run", LAB_UNIT_COUNT);
      bson_string_append (o, " | ");
      app_esc (o, lab_results_get_string (&run, "layout"));
      bson_string_append (o, " | ");
      if (lab_results_get_number (&run, "order_in_run", &v)) {
         bson_string_append (o, v == 1 ? "first" : v == 2 ? "second" : "later");
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " | ");
      app_bool (o, &run, "cold.engine_restarted");
      bson_string_append (o, " | ");
      app_bool (o, &run, "cold.server_restarted");
      bson_string_append (o, " | ");
      app_bool (o, &run, "cold.caches_dropped");
      bson_string_append (o, " | ");
      if (lab_results_get_number (&run, "cold.resident_pct_before", &v)) {
         bson_string_append_printf (o, "%.1f%%", v);
         if (lab_results_get_number (&run, "cold.resident_bytes_before", &v)) {
            bson_string_append (o, " (");
            app_fmt (o, LAB_UNIT_BYTES, v);
            if (lab_results_get_number (&run, "cold.file_bytes", &v)) {
               bson_string_append (o, " of ");
               app_fmt (o, LAB_UNIT_BYTES, v);
            }
            bson_string_append (o, ")");
         }
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " | ");
      app_esc (o, lab_results_get_string (&run, "cold.drop_caches_note"));
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, "\n");
}

/* render_runs -- per-run figures. */
static void
render_runs (bson_string_t *o, const lab_cmp_results_t *r)
{
   static const struct {
      const char *path;
      lab_unit_t unit;
   } cols[] = {
      { "elapsed_s", LAB_UNIT_SECONDS },
      { "docs", LAB_UNIT_COUNT },
      { "read_requests", LAB_UNIT_COUNT },
      { "read_bytes", LAB_UNIT_BYTES },
      { "rates.read_requests_per_s_peak", LAB_UNIT_RATE },
      { "rates.read_mb_s_peak", LAB_UNIT_MB_S },
      { "rates.avg_read_request_bytes", LAB_UNIT_BYTES },
      { "latency_ms.p95", LAB_UNIT_MS },
      { "memory.server_rss_peak_bytes", LAB_UNIT_BYTES },
   };
   int i, n = lab_cmp_runs_n (r);
   size_t c;
   bson_t run;

   bson_string_append (o, "## Per-run figures\n\n");
   bson_string_append (o, "| run | layout | load time | documents | read requests | disk read | peak read "
                          "req/s | peak read MB/s | avg request | latency p95 | peak RSS |\n"
                          "|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
   for (i = 0; i < n; i++) {
      if (!lab_cmp_run_get (r, i, &run)) {
         continue;
      }
      bson_string_append (o, "| ");
      app_num (o, &run, "run", LAB_UNIT_COUNT);
      bson_string_append (o, " | ");
      app_esc (o, lab_results_get_string (&run, "layout"));
      for (c = 0; c < sizeof cols / sizeof cols[0]; c++) {
         bson_string_append (o, " | ");
         app_num (o, &run, cols[c].path, cols[c].unit);
      }
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, "\n");
}

/* render_ceiling -- the device's own limits from --calibrate, and how close each layout came. */
static void
render_ceiling (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   double seq, iops, v;
   bool has_seq = lab_results_get_number (d, "calibration.seq_read_mb_s", &seq);
   bool has_iops = lab_results_get_number (d, "calibration.rand_read_4k_iops", &iops);
   int l;

   bson_string_append (o, "## Device ceiling\n\n");
   if (!has_seq && !has_iops) {
      bson_string_append (o, "Not measured: run scancmp with `--calibrate` to record the device's sequential "
                             "and random read limits next to the figures above.\n\n");
      return;
   }
   bson_string_append (o, "- sequential reads: ");
   app_num (o, d, "calibration.seq_read_mb_s", LAB_UNIT_MB_S);
   bson_string_append (o, "\n- random 4 KiB reads: ");
   app_num (o, d, "calibration.rand_read_4k_iops", LAB_UNIT_RATE);
   bson_string_append (o, "\n- measured on a file of ");
   app_num (o, d, "calibration.file_bytes", LAB_UNIT_BYTES);
   bson_string_append (o, " in ");
   app_num (o, d, "calibration.elapsed_s", LAB_UNIT_SECONDS);
   bson_string_append (o, "\n");
   for (l = 0; l < 2; l++) {
      lab_stat_t rr =
         lab_results_metric_stat (&r->doc, layouts[l], lab_results_metric_find ("read_requests_per_s_peak"));
      lab_stat_t mb =
         lab_results_metric_stat (&r->doc, layouts[l], lab_results_metric_find ("read_mb_s_peak"));
      bson_string_append_printf (o, "- %s peaks: ", layouts[l]);
      if (rr.present && has_iops && iops > 0) {
         v = rr.median / iops * 100.0;
         bson_string_append_printf (
            o, v < 9.95 ? "%.1f%% of the random-read ceiling" : "%.0f%% of the random-read ceiling", v);
      } else {
         bson_string_append (o, "n/a of the random-read ceiling");
      }
      if (mb.present && has_seq && seq > 0) {
         v = mb.median / seq * 100.0;
         bson_string_append_printf (
            o, v < 9.95 ? ", %.1f%% of the sequential throughput" : ", %.0f%% of the sequential throughput",
            v);
      } else {
         bson_string_append (o, ", n/a of the sequential throughput");
      }
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n");
}

/* app_change -- "+12.3% (worse)" between baseline and this median. */
static void
app_change (bson_string_t *o, lab_better_t better, const lab_stat_t *base, const lab_stat_t *cur)
{
   double ch;

   if (!base->present || !cur->present || base->median == 0.0) {
      bson_string_append (o, "n/a");
      return;
   }
   ch = (cur->median - base->median) / fabs (base->median) * 100.0;
   if (fabs (ch) < 0.05) {
      bson_string_append (o, "0.0%");
      return;
   }
   bson_string_append_printf (o, "%s%.1f%%", ch > 0 ? "+" : "−", fabs (ch));
   if (better != LAB_DESCRIPTIVE && fabs (ch) > 2.0) {
      bool up_good = better == LAB_BETTER_HIGHER;
      bson_string_append (o, ((ch > 0) == up_good) ? " better" : " worse");
   }
}

/* render_baseline -- deltas between a baseline experiment and this one, per layout. */
static void
render_baseline (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *b)
{
   const lab_metric_t *m;
   size_t n, i;
   int l;
   const lab_cmp_results_t *both[2] = { b, r };
   const char *what[2] = { "baseline", "this experiment" };

   bson_string_append (o, "## Against the baseline\n\n");
   for (l = 0; l < 2; l++) {
      const bson_t *d = &both[l]->doc;
      bson_string_append_printf (o, "- %s: ", what[l]);
      app_esc (o, both[l]->name);
      bson_string_append (o, " — ");
      app_name_version (o, d, "backend.name", "backend.version");
      bson_string_append (o, " on ");
      app_esc (o, lab_results_get_string (d, "host.hostname"));
      bson_string_append_printf (o, ", %d+%d runs, started ", lab_cmp_run_count (both[l], "detail"),
                                 lab_cmp_run_count (both[l], "folded"));
      app_esc (o, lab_results_get_string (d, "started_at"));
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n| metric | detail: baseline | detail: this | change | folded: baseline | "
                          "folded: this | change |\n|---|--:|--:|--:|--:|--:|--:|\n");
   m = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_stat_t s[2][2]; /* [layout][baseline, this] */
      bool any = false;
      for (l = 0; l < 2; l++) {
         s[l][0] = lab_results_metric_stat (&b->doc, layouts[l], &m[i]);
         s[l][1] = lab_results_metric_stat (&r->doc, layouts[l], &m[i]);
         any = any || s[l][0].present || s[l][1].present;
      }
      if (!any) {
         continue;
      }
      bson_string_append (o, "| ");
      app_esc (o, m[i].label);
      for (l = 0; l < 2; l++) {
         lab_stat_t bm = s[l][0], cm = s[l][1];
         /* medians only: the spreads are in each experiment's own report */
         bm.n = cm.n = 1;
         bson_string_append (o, " | ");
         app_stat (o, m[i].unit, &bm);
         bson_string_append (o, " | ");
         app_stat (o, m[i].unit, &cm);
         bson_string_append (o, " | ");
         app_change (o, m[i].better, &s[l][0], &s[l][1]);
      }
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, "\nMedians of each experiment; *change* is this experiment relative to the "
                          "baseline, marked better or worse when it moves by more than 2% on a metric "
                          "with a direction.\n\n");
}

/* lab_cmp_sweep_json_append -- see cmp.h. */
void
lab_cmp_sweep_json_append (const lab_cmp_results_t *r, const lab_cmp_production_t *production, bson_t *out)
{
   static const char *const status[] = { "interpolated", "measured", "outside", "too_few" };
   sweep_t s;
   bson_t arr, pt, ld, loc, pd;
   char key[16];
   size_t i;
   int l;

   sweep_load (r, &s);
   if (s.n > 0) {
      BSON_APPEND_ARRAY_BEGIN (out, LAB_RESULTS_KEY_SWEEP, &arr);
      for (i = 0; i < s.n; i++) {
         const lab_sweep_point_t *p = &s.p[i];
         const char *k;
         bson_uint32_to_string ((uint32_t)i, &k, key, sizeof key);
         bson_append_document_begin (&arr, k, -1, &pt);
         BSON_APPEND_INT64 (&pt, LAB_RESULTS_KEY_CACHE_SIZE, (int64_t)p->cache_size_bytes);
         BSON_APPEND_DOUBLE (&pt, LAB_RESULTS_KEY_CACHE_RATIO, p->cache_ratio);
         BSON_APPEND_UTF8 (&pt, "regime", lab_results_point_regime (p));
         BSON_APPEND_BOOL (&pt, "reference", i == s.ref);
         if (p->has_speedup) {
            BSON_APPEND_DOUBLE (&pt, "speedup", p->speedup);
         }
         for (l = 0; l < 2; l++) {
            bson_append_document_begin (&pt, layouts[l], -1, &ld);
            if (p->elapsed[l].present) {
               BSON_APPEND_DOUBLE (&ld, "elapsed_s_median", p->elapsed[l].median);
            }
            if (p->has_amplification[l]) {
               BSON_APPEND_DOUBLE (&ld, LAB_RESULTS_KEY_READ_AMPLIFICATION, p->read_amplification[l]);
            }
            if (p->locality[l].present) {
               const lab_locality_t *pl = &p->locality[l];
               BSON_APPEND_DOCUMENT_BEGIN (&ld, LAB_RESULTS_KEY_LOCALITY, &loc);
               BSON_APPEND_DOUBLE (&loc, LAB_RESULTS_KEY_PAGES_PER_MASTER_MEAN, pl->pages_per_master_mean);
               if (pl->pages_per_master_p95 >= 0) {
                  BSON_APPEND_DOUBLE (&loc, LAB_RESULTS_KEY_PAGES_PER_MASTER_P95, pl->pages_per_master_p95);
               }
               if (pl->masters_sampled >= 0) {
                  BSON_APPEND_INT64 (&loc, LAB_RESULTS_KEY_MASTERS_SAMPLED, (int64_t)pl->masters_sampled);
               }
               bson_append_document_end (&ld, &loc);
            }
            bson_append_document_end (&pt, &ld);
         }
         bson_append_document_end (&arr, &pt);
      }
      bson_append_array_end (out, &arr);
   }
   if (production && production->ratio > 0) {
      lab_estimate_t e = lab_cmp_sweep_estimate (r, production);
      BSON_APPEND_DOCUMENT_BEGIN (out, "production", &pd);
      BSON_APPEND_DOUBLE (&pd, LAB_RESULTS_KEY_CACHE_RATIO, production->ratio);
      BSON_APPEND_UTF8 (&pd, "estimate", s.n > 0 ? status[e.status] : "single_point");
      if (s.n > 0 && (e.status == LAB_ESTIMATE_INTERPOLATED || e.status == LAB_ESTIMATE_MEASURED)) {
         BSON_APPEND_DOUBLE (&pd, "speedup", e.speedup);
      }
      if (s.n > 0 && e.status != LAB_ESTIMATE_TOO_FEW) {
         BSON_APPEND_DOUBLE (&pd, "measured_ratio_min", e.range_lo);
         BSON_APPEND_DOUBLE (&pd, "measured_ratio_max", e.range_hi);
      }
      bson_append_document_end (out, &pd);
   }
   sweep_free (&s);
}

/* lab_cmp_render_md -- see cmp.h. */
char *
lab_cmp_render_md (const lab_cmp_results_t *r, const lab_cmp_render_opts_t *opts)
{
   bson_string_t *o = bson_string_new (NULL);
   const char *dn = collection_name (r, "detail"), *fn = collection_name (r, "folded");
   const lab_cmp_production_t *prod;
   sweep_t sw;

   bson_string_append (o, "# ");
   if (opts && opts->title) {
      app_esc (o, opts->title);
   } else {
      bson_string_append (o, "Layout comparison: ");
      app_esc (o, dn ? dn : "detail");
      bson_string_append (o, " (one document per row) vs ");
      app_esc (o, fn ? fn : "folded");
      bson_string_append (o, " (folded)");
   }
   bson_string_append (o, "\n\nSource: ");
   app_esc (o, r->name);
   bson_string_append (o, ", written by ");
   app_name_version (o, &r->doc, "tool", "tool_version");
   bson_string_append (o, ".\n\n");

   sweep_load (r, &sw);
   prod = opts ? opts->production : NULL;
   if (sw.n > 0) {
      render_sweep_verdict (o, r, &sw, prod);
      render_sweep (o, r, &sw, prod);
   } else {
      render_verdict (o, r, prod);
   }
   render_table (o, r, sw.n > 0 ? &sw : NULL);
   if (opts && opts->baseline) {
      if (sw.n > 0 && lab_results_sweep_n (&opts->baseline->doc) > 0) {
         render_sweep_baseline (o, r, &sw, opts->baseline);
      } else {
         render_baseline (o, r, opts->baseline);
         if (sw.n > 0 || lab_results_sweep_n (&opts->baseline->doc) > 0) {
            bson_string_append (o, "One of the two files is a cache sweep and the other a single point: the "
                                   "sweep's figures above are those of its reference point; compare two "
                                   "sweeps to see the curves side by side.\n\n");
         }
      }
   }
   if (opts && opts->reference) {
      lab_cmp_render_reference (o, r, opts->reference);
   }
   render_charts (o, opts, sw.n > 0 ? &sw : NULL);
   render_environment (o, r);
   render_dataset (o, r);
   render_cold (o, r);
   render_runs (o, r);
   render_ceiling (o, r);
   sweep_free (&sw);
   return bson_string_free (o, false);
}
