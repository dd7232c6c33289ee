/*
 * render.c -- the Markdown report layout-report writes: verdict, comparison table, charts, environment,
 * dataset, cold procedure, per-run figures, device ceiling and the optional baseline deltas, with a
 * column per layout (a file of exactly detail and folded keeps the wording of the two-layout report,
 * byte for byte); for a cache sweep the verdict leads with each candidate's speedup curve (and, with
 * more than two layouts, the fastest layout per point) and a Cache sweep section (load time, reads,
 * memory, locality per point and layout, the production point marked) comes before the reference
 * point's sections. Built into a
 * growing string from the results document only, so the same file always renders the same bytes.
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "compare/cmp.h"

/* classic_pair -- whether the file compares exactly "detail" (the reference) and "folded": the
 * two-layout report of schema version 1, whose wording (one document per row vs folded) is kept. */
static bool
classic_pair (const lab_results_layouts_t *ls)
{
   return ls->n == 2 && ls->reference == 0 && strcmp (ls->l[0].name, LAB_RESULTS_DETAIL) == 0 &&
          strcmp (ls->l[1].name, LAB_RESULTS_FOLDED) == 0;
}

/* layout_heading -- a layout's column heading: "one doc per row (detail)" for the classic pair's
 * detail, else its name. */
static const char *
layout_heading (const lab_results_layouts_t *ls, size_t i)
{
   return classic_pair (ls) && i == 0 ? "one doc per row (detail)" : ls->l[i].name;
}

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

/* app_name_version -- "name version", either part left out when absent, "n/a" when both are; a version
 * that repeats the name and carries a build date (WiredTiger's own string, which older results files
 * hold: "WiredTiger 3.2.1: (August 27, 2019)") is shown as its number. */
static void
app_name_version (bson_string_t *o, const char *n, const char *v)
{
   char *tidy = NULL;

   if (n && v && strncasecmp (v, n, strlen (n)) == 0 && v[strlen (n)] == ' ') {
      const char *num = v + strlen (n) + 1;
      tidy = bson_strndup (num, strcspn (num, ":"));
      v = tidy;
   }
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
   bson_free (tidy);
}

/* app_backend -- "wiredtiger 3.2.1", "mongodb 7.0.4". */
static void
app_backend (bson_string_t *o, const bson_t *doc)
{
   app_name_version (o, lab_results_get_string (doc, "backend.name"),
                     lab_results_get_string (doc, "backend.version"));
}

/* app_tool -- "scancmp 0.1.0": the tool that wrote the file, its version under any schema's name. */
static void
app_tool (bson_string_t *o, const bson_t *doc)
{
   app_name_version (o, lab_results_get_string (doc, "tool"),
                     lab_results_header (doc, LAB_RESULTS_KEY_VERSION));
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

/* lab_cmp_app_engine_disk -- see cmp.h. */
void
lab_cmp_app_engine_disk (bson_string_t *o, const lab_sweep_point_t *p, const char *layout)
{
   char *e = lab_cmp_md_escape (layout);

   lab_results_app_engine_disk (o, p, e);
   bson_free (e);
}

/* collection_name -- the collection of a layout: layouts[].collection, else dataset.<l>.collection
 * (lab_results_layouts), else config.<l>. */
static const char *
collection_name (const lab_cmp_results_t *r, const char *layout)
{
   char path[64];
   const char *s = NULL;
   lab_results_layouts_t ls;
   int l;

   lab_results_layouts (&r->doc, &ls);
   if ((l = lab_results_layout_find (&ls, layout)) >= 0) {
      s = ls.l[l].collection;
   }
   if (!s) {
      snprintf (path, sizeof path, "dataset.%s.collection", layout);
      s = lab_results_get_string (&r->doc, path);
   }
   if (!s) {
      snprintf (path, sizeof path, "config.%s", layout);
      s = lab_results_get_string (&r->doc, path);
   }
   return s;
}

/* ---- verdict ----------------------------------------------------------------------------------- */

/* app_unmatched -- "5 of 40 keys in bill_detail (detail)" or "none in ... (folded)"; "3–5" when runs
 * differ. */
static void
app_unmatched (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m, size_t l)
{
   const char *coll = collection_name (r, m->names[l]);

   if (m->unmatched_max[l] == 0) {
      bson_string_append (o, "none");
   } else {
      if (m->unmatched_min[l] != m->unmatched_max[l]) {
         app_fmt (o, LAB_UNIT_COUNT, (double)m->unmatched_min[l]);
         bson_string_append (o, "–");
      }
      app_fmt (o, LAB_UNIT_COUNT, (double)m->unmatched_max[l]);
      if (m->keys >= 0) {
         bson_string_append (o, " of ");
         app_fmt (o, LAB_UNIT_COUNT, (double)m->keys);
      }
      bson_string_append (o, m->unmatched_max[l] == 1 && m->keys < 0 ? " key" : " keys");
   }
   bson_string_append (o, " in ");
   app_esc (o, coll ? coll : m->names[l]);
   bson_string_append (o, " (");
   app_esc (o, m->names[l]);
   bson_string_append (o, ")");
}

/* app_unmatched_all -- every layout's unmatched keys, those recorded, joined by ", ". */
static void
app_unmatched_all (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m)
{
   size_t l;
   bool first = true;

   for (l = 0; l < m->n; l++) {
      if (m->has_unmatched[l]) {
         bson_string_append (o, first ? "" : ", ");
         app_unmatched (o, r, m, l);
         first = false;
      }
   }
}

/* app_rows_of -- "80 rows from bill_detail": layout l's rows in the first run that differed. */
static void
app_rows_of (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m, size_t l, bool first)
{
   const char *coll = collection_name (r, m->names[l]);

   app_fmt (o, LAB_UNIT_COUNT, (double)m->first_differ_rows[l]);
   bson_string_append (o, first ? " rows from " : " from ");
   app_esc (o, coll ? coll : m->names[l]);
}

/* render_match_verdict -- the verdict's lines on what the layouts did not share: keys that matched no
 * document, and runs whose layouts returned different rows. Nothing when all read the same rows. */
static void
render_match_verdict (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m)
{
   size_t l;
   bool first = true;

   if (lab_cmp_match_partial (m)) {
      bson_string_append (o, "- **Some keys matched no document**: ");
      app_unmatched_all (o, r, m);
      bson_string_append (o, "; each layout's figures cover only the keys that matched it.\n");
   }
   if (m->rows_differ > 0) {
      bson_string_append (o, "- **The layouts returned different rows**: ");
      app_rows_of (o, r, m, m->reference, true);
      for (l = 0; l < m->n; l++) {
         if (l != m->reference && m->first_differ_rows[l] >= 0) {
            bson_string_append (o, first ? " vs " : ", ");
            app_rows_of (o, r, m, l, false);
            first = false;
         }
      }
      bson_string_append_printf (o, " in run %d (%d of %d runs differ): ", m->first_differ_run,
                                 m->rows_differ, m->row_pairs);
      bson_string_append (o, "the collections do not hold the same rows for these keys, so the figures "
                             "below do not compare like with like; check the folded collection "
                             "(`fold-details --verify`) before trusting them.\n");
   }
}

/* render_match_note -- the line under the comparison table on the same facts. */
static void
render_match_note (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m)
{
   bool partial = lab_cmp_match_partial (m);

   if (!partial && m->rows_differ == 0) {
      return;
   }
   if (partial) {
      bson_string_append (o, "Keys that matched no document: ");
      app_unmatched_all (o, r, m);
      bson_string_append (o, m->rows_differ > 0 ? ". " : ".");
   }
   if (m->rows_differ > 0) {
      bson_string_append_printf (o,
                                 "The layouts returned different row counts in %d of %d runs (*detail rows "
                                 "returned* above): not the same rows.",
                                 m->rows_differ, m->row_pairs);
   }
   bson_string_append (o, "\n\n");
}

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

/* app_all_runs -- "All 6 runs", "Both runs", "The one run" (lowercase within a sentence: `start` false). */
static void
app_all_runs (bson_string_t *o, int n, bool start)
{
   if (n == 1) {
      bson_string_append (o, start ? "The one run" : "the one run");
   } else if (n == 2) {
      bson_string_append (o, start ? "Both runs" : "both runs");
   } else {
      bson_string_append_printf (o, "%s %d runs", start ? "All" : "all", n);
   }
}

/* ---- the cache sweep --------------------------------------------------------------------------- */

typedef struct {
   lab_sweep_point_t *p; /* filled in place (views into the results document) */
   size_t n;
   size_t ref; /* the point the top level repeats */
   size_t nl;  /* layouts */
   /* sweep order, as the points' arrays (lab_results_sweep_order): [0] the reference layout */
   const char *names[LAB_RESULTS_MAX_LAYOUTS];
   size_t cand;              /* the candidate app_sw names for "folded": 1 unless a per-candidate line */
   lab_results_layouts_t ls; /* the file's layouts, for the winner of a point (lab_results_nrow) */
} sweep_t;

/* sweep_load -- the points of r's sweep (n == 0 for a single-point file); free with sweep_free. */
static void
sweep_load (const lab_cmp_results_t *r, sweep_t *s)
{
   size_t i;

   memset (s, 0, sizeof *s);
   s->nl = lab_results_sweep_order (&r->doc, &s->ls, s->names);
   s->cand = 1;
   s->n = lab_results_sweep_n (&r->doc);
   s->p = bson_malloc0 ((s->n + 1) * sizeof *s->p);
   for (i = 0; i < s->n; i++) {
      lab_results_sweep_point (&r->doc, i, &s->p[i]);
   }
   s->ref = lab_results_sweep_reference (&r->doc);
}

/* app_sw -- append `text` (a literal naming the reference "detail" and a candidate "folded") with their
 * names: as is for detail and folded, else each whole word replaced by sw->names[0] / [sw->cand]. */
static void
app_sw (bson_string_t *o, const sweep_t *sw, const char *text)
{
   const char *p = text;
   const char *cand = sw->names[sw->cand];

   if (strcmp (sw->names[0], LAB_RESULTS_DETAIL) == 0 && strcmp (cand, LAB_RESULTS_FOLDED) == 0) {
      bson_string_append (o, text);
      return;
   }
   while (*p) {
      bool word_start = p == text || !(isalnum ((unsigned char)p[-1]) || p[-1] == '_');
      if (word_start && strncmp (p, "detail", 6) == 0 && !(isalnum ((unsigned char)p[6]) || p[6] == '_')) {
         bson_string_append (o, sw->names[0]);
         p += 6;
      } else if (word_start && strncmp (p, "folded", 6) == 0 &&
                 !(isalnum ((unsigned char)p[6]) || p[6] == '_')) {
         bson_string_append (o, cand);
         p += 6;
      } else {
         bson_string_append_c (o, *p++);
      }
   }
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
   return lab_cmp_sweep_estimate_of (r, production, 1);
}

/* lab_cmp_sweep_estimate_of -- see cmp.h. */
lab_estimate_t
lab_cmp_sweep_estimate_of (const lab_cmp_results_t *r, const lab_cmp_production_t *production, size_t cand)
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
      if (cand > 0 && cand < s.nl && s.p[i].has_speedup_of[cand]) {
         ratio[n] = s.p[i].cache_ratio;
         speedup[n] = s.p[i].speedup_of[cand];
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

/* app_pct -- a ratio of two medians as a percentage: "46%" (lab_results_format_ratio). */
static void
app_pct (bson_string_t *o, double ratio)
{
   char *t = lab_results_format_ratio (ratio);

   bson_string_append (o, t);
   bson_free (t);
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

   if (strcmp (lab_results_point_regime (p), LAB_RESULTS_REGIME_MEMORY) == 0) {
      /* the engine cache rereads, the OS page cache serves it: say both caches */
      bson_string_append (o, "when the engine cache rereads the data from the OS page cache");
   } else if (ratio >= 1.0 && strcmp (lab_results_point_regime (p), LAB_RESULTS_REGIME_FITS) == 0) {
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

/* app_disk_amp -- "; the disk 1.02x" for a point read without --direct-io whose disk figure is known
 * (with --direct-io the disk read what the engine read: nothing added). */
static void
app_disk_amp (bson_string_t *o, const lab_sweep_point_t *p)
{
   if (p->buffered_io && p->has_disk_amplification[0]) {
      bson_string_append (o, "; the disk ");
      app_factor (o, p->disk_read_amplification[0]);
   }
}

/* app_cache_over_note -- why an engine cache can be used beyond its configured size (peak `pct` > 100%):
 * WiredTiger's cache size is the level its eviction works to keep memory under, not a hard cap; pages
 * being read in and the pages the workers' cursors hold cannot be evicted meanwhile, so a cache smaller
 * than the pages a load holds at once runs over it (docs/mongodb-compat.md, "engine cache over 100%"). */
static void
app_cache_over_note (bson_string_t *o, double pct)
{
   bson_string_append_printf (o,
                              "An engine cache used at %.0f%% of its maximum is not a measuring error: "
                              "WiredTiger's cache size is the level its eviction works to keep memory "
                              "under, not a hard cap, and the pages being read in and those the workers' "
                              "cursors hold cannot be evicted meanwhile, so a cache this small runs over "
                              "it.",
                              pct);
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
   lab_estimate_t e = lab_cmp_sweep_estimate_of (r, prod, s->cand);
   size_t c = s->cand;

   app_sw (o, s, "- ");
   switch (e.status) {
   case LAB_ESTIMATE_INTERPOLATED:
      app_sw (o, s, "**At the production cache ratio (");
      app_production_given (o, prod);
      app_sw (o, s, ") the folded layout would load about ");
      app_factor (o, e.speedup);
      app_sw (o, s, s->nl > 2 ? " faster than detail: an interpolation" : " faster: an interpolation");
      app_sw (o, s, ", not a measurement**, between the measured ");
      app_factor (o, s->p[e.lo].speedup_of[c]);
      app_sw (o, s, " at ");
      app_binary (o, s->p[e.lo].cache_size_bytes);
      app_sw (o, s, " (ratio ");
      app_ratio (o, s->p[e.lo].cache_ratio);
      app_sw (o, s, ") and ");
      app_factor (o, s->p[e.hi].speedup_of[c]);
      app_sw (o, s, " at ");
      app_binary (o, s->p[e.hi].cache_size_bytes);
      app_sw (o, s, " (ratio ");
      app_ratio (o, s->p[e.hi].cache_ratio);
      app_sw (o, s, "), linear in log(ratio).\n");
      break;
   case LAB_ESTIMATE_MEASURED:
      app_sw (o, s, "**At the production cache ratio (");
      app_production_given (o, prod);
      app_sw (o, s, ") the folded layout loads ");
      app_factor (o, e.speedup);
      app_sw (o, s, s->nl > 2 ? " faster than detail" : " faster");
      app_sw (o, s, "**: a measured point (");
      app_point (o, &s->p[e.lo]);
      app_sw (o, s, "), no interpolation needed.\n");
      break;
   case LAB_ESTIMATE_OUTSIDE:
      app_sw (o, s, "**The production cache ratio ");
      app_production_given (o, prod);
      app_sw (o, s, " is outside the measured range ");
      app_ratio (o, e.range_lo);
      app_sw (o, s, "–");
      app_ratio (o, e.range_hi);
      app_sw (o, s,
              "; no estimate**: layout-report does not extrapolate (the speedup changes most "
              "where the cache stops holding the data). Measure a sweep that reaches it "
              "(`scancmp --cache-ratios`).\n");
      break;
   case LAB_ESTIMATE_TOO_FEW:
   default:
      app_sw (o, s, "**No estimate at the production cache ratio ");
      app_production_given (o, prod);
      app_sw (o, s,
              "**: the sweep has fewer than two points with both load times, so there is no "
              "curve to read it from.\n");
      break;
   }
}

/* render_curve_line -- the verdict's line on candidate s->cand's speedup curve: its range and the cache
 * ratios at its ends. */
static void
render_curve_line (bson_string_t *o, const sweep_t *s)
{
   size_t i, lo = SIZE_MAX, hi = SIZE_MAX, n_speedup = 0, c = s->cand;
   /* with more than two layouts every candidate's line says what it is faster than */
   const char *than = s->nl > 2 ? " than detail" : "";

   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      if (p->has_speedup_of[c]) {
         n_speedup++;
         if (lo == SIZE_MAX || p->speedup_of[c] < s->p[lo].speedup_of[c]) {
            lo = i;
         }
         if (hi == SIZE_MAX || p->speedup_of[c] > s->p[hi].speedup_of[c]) {
            hi = i;
         }
      }
   }
   app_sw (o, s, "- ");
   if (n_speedup == 0) {
      app_sw (o, s,
              s->nl > 2 ? "**The folded layout's load time could not be compared with detail's** at any "
                          "cache size.\n"
                        : "**Load time could not be compared** at any cache size.\n");
   } else if (n_speedup == 1 || lo == hi) {
      double sp = s->p[hi].speedup_of[c];
      app_sw (o, s, sp >= 1 ? "**The folded layout loads " : "**The speedup is ");
      app_factor (o, sp);
      if (sp >= 1) {
         app_sw (o, s, " faster");
         app_sw (o, s, than);
      }
      bson_string_append_printf (
         o, " at the %s measured**: ", n_speedup == 1 ? "one cache size" : "cache sizes");
      app_holds (o, &s->p[hi]);
      app_sw (o, s, " (");
      app_point (o, &s->p[hi]);
      app_sw (o, s, "); a curve needs more points.\n");
   } else {
      if (s->p[lo].speedup_of[c] >= 1) {
         app_sw (o, s, "**The folded layout loads ");
         app_factor (o, s->p[lo].speedup_of[c]);
         app_sw (o, s, "–");
         app_factor (o, s->p[hi].speedup_of[c]);
         app_sw (o, s, " faster");
         app_sw (o, s, than);
         app_sw (o, s, ", depending on the engine cache**: ");
      } else {
         app_sw (o, s, "**The speedup (detail load time ÷ folded load time) ranges from ");
         app_factor (o, s->p[lo].speedup_of[c]);
         app_sw (o, s, " to ");
         app_factor (o, s->p[hi].speedup_of[c]);
         app_sw (o, s, " with the engine cache** (below 1x the detail layout is faster): ");
      }
      app_factor (o, s->p[lo].speedup_of[c]);
      app_sw (o, s, " ");
      app_holds (o, &s->p[lo]);
      app_sw (o, s, " (");
      app_point (o, &s->p[lo]);
      app_sw (o, s, "), ");
      app_factor (o, s->p[hi].speedup_of[c]);
      app_sw (o, s, " ");
      app_holds (o, &s->p[hi]);
      app_sw (o, s, " (");
      app_point (o, &s->p[hi]);
      if (c == 1) {
         bson_string_append_printf (o,
                                    "). %zu cache sizes measured; the data is the detail layout's data and "
                                    "indexes on disk.\n",
                                    s->n);
      } else {
         app_sw (o, s, ").\n");
      }
   }
}

/* render_best_line -- with more than two layouts, the verdict's line naming the fastest layout at each
 * point (and its regime), ties by the one rule of lab_results_nrow. */
static void
render_best_line (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s)
{
   const lab_metric_t *el = lab_results_metric_find ("elapsed_s");
   size_t i;

   bson_string_append (o,
                       "- **Fastest layout at each cache size** (load time; ties as *same* is defined under "
                       "the comparison table): ");
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      lab_results_nrow_t row;
      lab_results_ncells_t cells = { 0 };

      bson_string_append (o, i ? "; " : "");
      app_point (o, p);
      bson_string_append_printf (o, " (%s): ", lab_results_point_regime (p));
      if (lab_results_nrow_at (&r->doc, &p->doc, &s->ls, el, &row) && row.winner != LAB_WIN_NONE) {
         lab_results_nrow_cells (&row, &s->ls, false, &cells);
         bson_string_append (o, "**");
         app_esc (o, row.winner == LAB_WIN_TIE && row.ntied == row.n ? "all the same" : cells.better);
         bson_string_append (o, "**");
         lab_results_ncells_cleanup (&cells);
      } else {
         bson_string_append (o, "n/a");
      }
   }
   bson_string_append (o, ".\n");
}

/* render_noise_points -- the verdict's line on the points whose load times the runs cannot tell apart
 * (the one rule of core/results.h: a tie of every layout or of the fastest ones): their speedups are
 * ratios of noise, not measured differences. Nothing when every point names a winner. */
static void
render_noise_points (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s)
{
   const lab_metric_t *el = lab_results_metric_find ("elapsed_s");
   lab_results_noise_t noise = lab_results_noise_of (&r->doc, el);
   bson_string_t *pts = bson_string_new (NULL);
   size_t i, n = 0, nmin = SIZE_MAX;

   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      lab_results_nrow_t row;
      /* only a tie that takes in the reference makes its speedups noise */
      if (!lab_results_nrow_at (&r->doc, &p->doc, &s->ls, el, &row) || row.winner != LAB_WIN_TIE ||
          !row.tied[row.reference]) {
         continue;
      }
      for (size_t l = 0; l < row.n; l++) {
         nmin = (size_t)row.stat[l].n < nmin ? (size_t)row.stat[l].n : nmin;
      }
      bson_string_append (pts, n++ ? "; " : "");
      app_point (pts, p);
      bson_string_append (pts, ": ");
      for (size_t l = 0, k = 0; l < row.n; l++) {
         if (row.tied[l]) {
            bson_string_append (pts, k++ ? ", " : "");
            app_stat (pts, LAB_UNIT_SECONDS, &row.stat[l]);
            bson_string_append (pts, " ");
            app_esc (pts, s->ls.l[l].name);
         }
      }
   }
   if (n > 0) {
      bson_string_append_printf (o,
                                 "- **No load-time winner at %s**: ", n == 1 ? "one point" : "some points");
      bson_string_append (o, pts->str);
      bson_string_append (o, nmin < 2 ? ". With one run a difference under "
                                      : ". A difference within the runs' "
                                        "ranges, or under ");
      bson_string_append_printf (o, "%.0f%%", (nmin < 2 ? LAB_RESULTS_TIE_ONE_RUN : LAB_RESULTS_TIE) * 100);
      if (nmin < 2 && noise.time_floor > 0) {
         bson_string_append_printf (o, " or %d sampling intervals (", LAB_RESULTS_FLOOR_INTERVALS);
         app_fmt (o, LAB_UNIT_SECONDS, noise.time_floor);
         bson_string_append (o, ")");
      }
      bson_string_append (o, nmin < 2
                                ? " is within noise: the speedup there is not a measured difference "
                                  "(`--runs 3` measures the spread).\n"
                                : " is within noise: the speedup there is not a measured difference.\n");
   }
   bson_string_free (pts, true);
}

/* render_sweep_verdict -- the verdict of a sweep file: each candidate's speedup curve first (its range and
 * the cache ratios at its ends) and, with more than two layouts, the fastest layout per point; what the
 * cache reread, the production point, how cold the runs were, and which point the single-point sections
 * below show. */
static void
render_sweep_verdict (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s,
                      const lab_cmp_production_t *prod)
{
   size_t i, c, first = SIZE_MAX, last = SIZE_MAX, overlap = 0, spread = 0;
   double famp_lo[LAB_RESULTS_MAX_LAYOUTS], famp_hi[LAB_RESULTS_MAX_LAYOUTS];
   cold_facts_t cf = { 0 };
   bool cold_requested = false;
   lab_cmp_match_t match;
   sweep_t sc = *s; /* the same sweep, its app_sw candidate set per line */

   for (c = 0; c < LAB_RESULTS_MAX_LAYOUTS; c++) {
      famp_lo[c] = INFINITY;
      famp_hi[c] = -INFINITY;
   }
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      lab_cmp_results_t pr;
      cold_facts_t pc;
      bool all_spread = p->elapsed[0].n >= 2, any_overlap = false;

      if (p->has_amplification[0]) {
         if (first == SIZE_MAX) {
            first = i;
         }
         last = i;
      }
      for (c = 1; c < s->nl; c++) {
         if (p->has_amplification[c]) {
            famp_lo[c] = fmin (famp_lo[c], p->read_amplification[c]);
            famp_hi[c] = fmax (famp_hi[c], p->read_amplification[c]);
         }
         all_spread = all_spread && p->elapsed[c].n >= 2;
         any_overlap =
            any_overlap || !(p->elapsed[0].max < p->elapsed[c].min || p->elapsed[c].max < p->elapsed[0].min);
      }
      if (all_spread) {
         spread++;
         overlap += any_overlap;
      }
      point_as_results (p, &pr);
      pc = gather_cold (&pr);
      cf.runs += pc.runs;
      cf.dropped += pc.dropped;
      cf.drop_known += pc.drop_known;
      if (pc.resident_known && (!cf.resident_known || pc.resident_max_pct > cf.resident_max_pct)) {
         cf.resident_max_pct = pc.resident_max_pct;
      }
      cf.resident_known = cf.resident_known || pc.resident_known;
   }

   app_sw (o, s, "## Verdict\n\n");
   lab_cmp_match_of (r, &match);
   render_match_verdict (o, r, &match);

   /* 1: the curve of every candidate, then (more than two layouts) the best one per point */
   for (c = 1; c < s->nl; c++) {
      sc.cand = c;
      render_curve_line (o, &sc);
   }
   if (s->nl > 2) {
      render_best_line (o, r, s);
   }
   render_noise_points (o, r, s);

   /* 2: what the cache reread */
   app_sw (o, s, "- ");
   if (first == SIZE_MAX) {
      app_sw (o, s,
              "Read amplification could not be computed (no engine block read bytes in the "
              "file).\n");
   } else {
      const lab_sweep_point_t *a = &s->p[first], *b = &s->p[last];
      app_sw (o, s,
              a->read_amplification[0] >= 2.0 ? "**The detail layout rereads its pages when the "
                                                "cache cannot hold them**: the engine read "
                                              : "The detail layout's engine read ");
      app_factor (o, a->read_amplification[0]);
      /* buffered reads: the engine's reads are not the disk's, so say the disk's beside them */
      app_sw (o, s, a->buffered_io ? " its on-disk size at " : " its on-disk size from disk at ");
      app_binary (o, a->cache_size_bytes);
      app_sw (o, s, " (ratio ");
      app_ratio (o, a->cache_ratio);
      app_disk_amp (o, a);
      app_sw (o, s, ")");
      if (last != first) {
         app_sw (o, s, " and ");
         app_factor (o, b->read_amplification[0]);
         app_sw (o, s, " at ");
         app_binary (o, b->cache_size_bytes);
         app_sw (o, s, " (ratio ");
         app_ratio (o, b->cache_ratio);
         app_disk_amp (o, b);
         app_sw (o, s, ")");
      }
      for (c = 1; c < s->nl; c++) {
         if (famp_hi[c] >= famp_lo[c]) {
            sc.cand = c;
            app_sw (o, &sc, "; the folded layout's engine read ");
            app_factor (o, famp_lo[c]);
            if (famp_hi[c] > famp_lo[c]) {
               app_sw (o, &sc, "–");
               app_factor (o, famp_hi[c]);
            }
            app_sw (o, &sc, " its size");
         }
      }
      app_sw (o, s, ".");
      for (i = 0; i < s->n; i++) {
         const lab_sweep_point_t *p = &s->p[i];
         if (strcmp (lab_results_point_regime (p), LAB_RESULTS_REGIME_MEMORY) != 0) {
            continue;
         }
         app_sw (o, s, " At ");
         app_binary (o, p->cache_size_bytes);
         app_sw (o, s, " (ratio ");
         app_ratio (o, p->cache_ratio);
         app_sw (o, s, ", **" LAB_RESULTS_REGIME_MEMORY "**) ");
         lab_cmp_app_engine_disk (o, p, s->names[0]);
         app_sw (o, s,
                 " (reads without `--direct-io` go through the OS page cache: those rereads cost "
                 "copies and decompression, not disk reads).");
      }
      app_sw (o, s, "\n");
   }

   /* 3: production, per candidate */
   if (prod) {
      for (c = 1; c < s->nl; c++) {
         sc.cand = c;
         render_production_line (o, r, &sc, prod);
      }
   }

   /* 4: how cold, how consistent */
   app_sw (o, s, "- ");
   lab_results_get_bool (&r->doc, "config.cold", &cold_requested);
   if (!cold_requested) {
      app_sw (o, s,
              "**Not a cold experiment** (scancmp ran without `--cold`): caches may have "
              "served part of the data");
   } else if (cf.drop_known == cf.runs && cf.dropped == cf.runs) {
      app_all_runs (o, cf.runs, true);
      bson_string_append_printf (o, " of the %zu points started with caches dropped", s->n);
      if (cf.resident_known) {
         bson_string_append_printf (o, " (at most %.1f%% of the data files resident)", cf.resident_max_pct);
      }
   } else {
      bson_string_append_printf (o, "**Caution**: caches were dropped before %d of the %d runs", cf.dropped,
                                 cf.runs);
   }
   if (spread == 0) {
      app_sw (o, s, "; with one run per layout there is no spread: use `--runs 3` or more.\n");
   } else if (overlap == 0) {
      bson_string_append_printf (o, "; at %s the %s load-time ranges do not overlap.\n",
                                 spread == s->n ? "every point" : "every point with two runs or more",
                                 s->nl > 2 ? "reference's and each candidate's" : "two layouts'");
   } else {
      bson_string_append_printf (o,
                                 "; at %zu of %zu points the %s load-time ranges overlap (the "
                                 "difference there is within run-to-run noise).\n",
                                 overlap, spread,
                                 s->nl > 2 ? "reference's and some candidate's" : "two layouts'");
   }

   /* 5: what the rest of the report shows */
   if (s->ref < s->n) {
      app_sw (o, s,
              "- The Comparison, Cold procedure and Per-run sections below show one point, "
              "the sweep's reference (");
      app_point (o, &s->p[s->ref]);
      app_sw (o, s, ", ");
      bson_string_append (o, lab_results_point_regime (&s->p[s->ref]));
      app_sw (o, s, ").\n");
   }
   app_sw (o, s, "\n");
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

/* app_production_row -- the production point's row of the load-time table: every layout not measured,
 * each candidate's speedup estimated. */
static void
app_production_row (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s,
                    const lab_cmp_production_t *prod)
{
   size_t l, c;

   bson_string_append (o, "| **production** ");
   if (prod->cache_bytes > 0) {
      bson_string_append (o, "(");
      app_binary (o, prod->cache_bytes);
      bson_string_append (o, ") ");
   }
   bson_string_append (o, "| **");
   app_ratio (o, prod->ratio);
   bson_string_append_printf (o, "** | %s | ", lab_results_regime (prod->ratio));
   for (l = 0; l < s->nl; l++) {
      bson_string_append (o, "not measured | ");
   }
   for (c = 1; c < s->nl; c++) {
      lab_estimate_t e = lab_cmp_sweep_estimate_of (r, prod, c);
      bson_string_append (o, c > 1 ? " | " : "");
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
   }
   bson_string_append (o, " |\n");
}

/* app_group_header -- " | label: a | b | c" (a column per layout, the label on the first). */
static void
app_group_header (bson_string_t *o, const sweep_t *s, const char *label)
{
   size_t l;

   for (l = 0; l < s->nl; l++) {
      if (l == 0) {
         bson_string_append_printf (o, " | %s: %s", label, s->names[l]);
      } else {
         bson_string_append_printf (o, " | %s", s->names[l]);
      }
   }
}

/* app_align -- the alignment row: "|--:|" then `k` more right-aligned columns. */
static void
app_align (bson_string_t *o, const char *first, size_t k)
{
   bson_string_append (o, first);
   while (k-- > 0) {
      bson_string_append (o, "--:|");
   }
   bson_string_append (o, "\n");
}

/* render_sweep_load -- the load-time table: per point its cache, ratio, measured regime, every layout's load
 * time and each candidate's speedup (the production point marked where its ratio falls). */
static void
render_sweep_load (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s,
                   const lab_cmp_production_t *prod)
{
   size_t i, l, nl = s->nl;
   bool prod_done = !prod;

   app_sw (o, s, "## Cache sweep\n\n### Load time\n\n");
   bson_string_append_printf (o, "| engine cache | cache ÷ %s on disk | regime | ", s->names[0]);
   for (l = 0; l < nl; l++) {
      bson_string_append_printf (o, "%s load time | ", s->names[l]);
   }
   for (l = 1; l < nl; l++) {
      bson_string_append_printf (o, "speedup (%s ÷ %s) |%s", s->names[0], s->names[l], l + 1 < nl ? " " : "");
   }
   bson_string_append (o, "\n");
   app_align (o, "|--:|--:|---|", nl + nl - 1);
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      if (!prod_done && prod->ratio < p->cache_ratio) {
         app_production_row (o, r, s, prod);
         prod_done = true;
      }
      bson_string_append (o, "| ");
      app_binary (o, p->cache_size_bytes);
      bson_string_append (o, " | ");
      app_ratio (o, p->cache_ratio);
      bson_string_append_printf (o, " | %s", lab_results_point_regime (p));
      for (l = 0; l < nl; l++) {
         bson_string_append (o, " | ");
         app_stat (o, LAB_UNIT_SECONDS, &p->elapsed[l]);
      }
      for (l = 1; l < nl; l++) {
         bson_string_append (o, " | ");
         if (p->has_speedup_of[l]) {
            app_factor (o, p->speedup_of[l]);
         } else {
            bson_string_append (o, "n/a");
         }
      }
      bson_string_append (o, " |\n");
   }
   if (!prod_done) {
      app_production_row (o, r, s, prod);
   }
}

/* render_sweep_reads -- the reads table: disk read requests, disk bytes read, the engine's bytes read from
 * disk and the read amplification per point and layout. When the file records --direct-io and the
 * engine's bytes read from disk match the device's at every point, they count the same reads: that group
 * is left out and a note says so. Returns whether any point was read without --direct-io. */
static bool
render_sweep_reads (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s)
{
   const lab_metric_t *m_rr = lab_results_metric_find ("read_requests");
   const lab_metric_t *m_rb = lab_results_metric_find ("read_bytes");
   size_t i, l, nl = s->nl;
   bool any_buffered = false, direct = false, engine_col;

   for (i = 0; i < s->n; i++) {
      any_buffered = any_buffered || s->p[i].buffered_io;
   }
   /* one column when the file records --direct-io and the two counts agree (within LAB_RESULTS_TIE) at every
    * point: then they count the same reads */
   engine_col = !(lab_results_get_bool (&r->doc, "config.direct_io", &direct) && direct);
   for (i = 0; !engine_col && i < s->n; i++) {
      for (l = 0; l < nl; l++) {
         lab_stat_t dev = lab_results_metric_stat (&s->p[i].doc, s->names[l], m_rb);
         lab_stat_t eng = lab_results_metric_stat (&s->p[i].doc, s->names[l], &lab_results_block_read_bytes);
         if (dev.present != eng.present ||
             (dev.present &&
              fabs (dev.median - eng.median) > LAB_RESULTS_TIE * fmax (dev.median, eng.median))) {
            engine_col = true;
         }
      }
   }
   bson_string_append (o, "\n### Reads\n\n| engine cache");
   app_group_header (o, s, "disk read requests");
   app_group_header (o, s, "disk bytes read");
   if (engine_col) {
      app_group_header (o, s, "engine read from disk");
   }
   app_group_header (o, s, "read amplification");
   bson_string_append (o, " |\n");
   app_align (o, "|--:|", (engine_col ? 4 : 3) * nl);
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      bson_string_append (o, "| ");
      app_binary (o, p->cache_size_bytes);
      for (l = 0; l < nl; l++) {
         bson_string_append (o, " | ");
         app_point_stat (o, p, s->names[l], m_rr, false);
      }
      for (l = 0; l < nl; l++) {
         bson_string_append (o, " | ");
         app_point_stat (o, p, s->names[l], m_rb, false);
      }
      for (l = 0; engine_col && l < nl; l++) {
         bson_string_append (o, " | ");
         app_point_stat (o, p, s->names[l], &lab_results_block_read_bytes, false);
      }
      for (l = 0; l < nl; l++) {
         bson_string_append (o, " | ");
         if (p->has_amplification[l]) {
            app_factor (o, p->read_amplification[l]);
         } else {
            bson_string_append (o, "n/a");
         }
         if (p->buffered_io && p->has_disk_amplification[l]) {
            bson_string_append (o, " (disk ");
            app_factor (o, p->disk_read_amplification[l]);
            bson_string_append (o, ")");
         }
      }
      bson_string_append (o, " |\n");
   }
   if (!engine_col) {
      app_sw (o, s,
              "\nWith `--direct-io` every engine cache miss is a read of the device: the engine's bytes read "
              "from disk (the numerator of the read amplification) matched the device's bytes read within 2% "
              "at every point, so the table shows them once, as *disk bytes read*.\n");
   }
   return any_buffered;
}

/* render_sweep_memory -- engine cache used (and its share of the maximum) and server memory per point and
 * layout; a share over 100% explained under the table. */
static void
render_sweep_memory (bson_string_t *o, const sweep_t *s)
{
   const lab_metric_t *m_cp = lab_results_metric_find ("cache_peak_bytes");
   const lab_metric_t *m_cpp = lab_results_metric_find ("cache_peak_pct");
   const lab_metric_t *m_rss = lab_results_metric_find ("server_rss_peak_bytes");
   size_t i, l, nl = s->nl;
   double over = 0;

   bson_string_append (o, "\n### Memory\n\n| engine cache");
   app_group_header (o, s, "engine cache used (peak)");
   app_group_header (o, s, "server memory (peak RSS)");
   bson_string_append (o, " |\n");
   app_align (o, "|--:|", 2 * nl);
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      bson_string_append (o, "| ");
      app_binary (o, p->cache_size_bytes);
      for (l = 0; l < nl; l++) {
         lab_stat_t pct = lab_results_metric_stat (&p->doc, s->names[l], m_cpp);
         bson_string_append (o, " | ");
         app_point_stat (o, p, s->names[l], m_cp, false);
         if (pct.present) {
            bson_string_append_printf (o, " (%.0f%%)", pct.median);
            over = fmax (over, pct.median);
         }
      }
      for (l = 0; l < nl; l++) {
         bson_string_append (o, " | ");
         app_point_stat (o, p, s->names[l], m_rss, false);
      }
      bson_string_append (o, " |\n");
   }
   if (over >= 100.5) {
      bson_string_append (o, "\n");
      app_cache_over_note (o, over);
      bson_string_append (o, "\n");
   }
}

/* locality_same -- whether every point measured the same locality for every layout: it depends on where
 * the rows lie in the collection, not on the cache, so a sweep repeats one figure. */
static bool
locality_same (const sweep_t *s)
{
   size_t i, l;

   for (i = 1; i < s->n; i++) {
      for (l = 0; l < s->nl; l++) {
         const lab_locality_t *a = &s->p[0].locality[l], *b = &s->p[i].locality[l];
         if (a->present != b->present ||
             (a->present && (a->pages_per_master_mean != b->pages_per_master_mean ||
                             a->pages_per_master_p95 != b->pages_per_master_p95 ||
                             a->masters_sampled != b->masters_sampled))) {
            return false;
         }
      }
   }
   return true;
}

/* render_sweep_locality -- data pages per master per layout: one row when every point measured the same
 * (the usual case), else a row per point. Nothing when no point measured it; returns whether one did. */
static bool
render_sweep_locality (bson_string_t *o, const sweep_t *s)
{
   size_t i, l, nl = s->nl, rows;
   bool any = false, once;

   for (i = 0; i < s->n; i++) {
      for (l = 0; l < nl; l++) {
         any = any || s->p[i].locality[l].present;
      }
   }
   if (!any) {
      return false;
   }
   once = locality_same (s);
   rows = once ? 1 : s->n;
   bson_string_append_printf (
      o, "\n### Locality\n\n| %s | data pages per master: ", once ? "measured at" : "engine cache");
   for (l = 0; l < nl; l++) {
      bson_string_append_printf (o, "%s mean | %s p95 | ", s->names[l], s->names[l]);
   }
   bson_string_append (o, "masters sampled (");
   for (l = 0; l < nl; l++) {
      bson_string_append_printf (o, "%s%s", l ? " / " : "", s->names[l]);
   }
   bson_string_append (o, ") |\n");
   app_align (o, once ? "|---|" : "|--:|", 2 * nl + 1);
   for (i = 0; i < rows; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      bson_string_append (o, "| ");
      if (once) {
         bson_string_append_printf (o, "every cache size (%zu)", s->n);
      } else {
         app_binary (o, p->cache_size_bytes);
      }
      for (l = 0; l < nl; l++) {
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
      for (l = 0; l < nl; l++) {
         bson_string_append (o, l ? " / " : "");
         if (p->locality[l].present && p->locality[l].masters_sampled >= 0) {
            app_fmt (o, LAB_UNIT_COUNT, p->locality[l].masters_sampled);
         } else {
            bson_string_append (o, "n/a");
         }
      }
      bson_string_append (o, " |\n");
   }
   return true;
}

/* render_sweep -- the sweep tables (load time and speedups, reads and read amplification, memory, locality
 * when measured), then how to read them. */
static void
render_sweep (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s,
              const lab_cmp_production_t *prod)
{
   bool any_buffered, any_locality;
   double disk;

   render_sweep_load (o, r, s, prod);
   any_buffered = render_sweep_reads (o, r, s);
   render_sweep_memory (o, s);
   any_locality = render_sweep_locality (o, s);

   app_sw (o, s,
           "\nThe cache ratio is the engine cache ÷ the detail layout's size on disk (data + "
           "indexes");
   if (lab_results_on_disk_bytes (&r->doc, s->names[0], &disk)) {
      app_sw (o, s, ": ");
      app_fmt (o, LAB_UNIT_BYTES, disk);
   }
   app_sw (o, s,
           "). The regime is named from what was measured, not from the ratio: where the "
           "detail layout's read amplification is at most 2x it *fits in cache* (each page "
           "is read about once); above that the cache evicts pages it needs again and "
           "*rereads* them. The cache holds pages uncompressed, so a ratio somewhat above 1 "
           "can still reread. ");
   app_sw (o, s,
           s->nl > 2 ? "Each candidate's speedup is the detail median load time ÷ its own. "
                     : "The speedup is the detail median load time ÷ the folded one. ");
   app_sw (o, s,
           "Read amplification is what the engine "
           "read from disk into its cache (block manager bytes, compressed as on disk) ÷ the "
           "layout's size on disk: 1x means each on-disk byte once. ");
   if (any_buffered) {
      app_sw (
         o, s,
         "These loads ran without `--direct-io` (as mongod reads): an engine cache miss that the "
         "OS page cache holds costs no disk read, so the engine's figure counts reads from the "
         "page cache too, and the disk's (\"disk\" in the Reads table: the device's bytes read "
         "during the layout's load ÷ its size on disk) says what the disk paid. Where the detail layout's "
         "engine rereads (above 2x) but its disk read at most 2x, the regime is *fits in "
         "memory*: the page cache held what the engine cache could not. ");
   }
   if (any_locality) {
      app_sw (o, s,
              "Locality counts the distinct data pages one master's rows occupy, over a "
              "sample of masters: where the rows lie, which no cache size changes. ");
   }
   app_sw (o, s,
           "Load times are medians with the min–max range of the runs; other figures are "
           "medians. Sizes are SI (1 MB = 10^6 bytes); cache sizes binary, as configured.");
   if (prod) {
      app_sw (o, s,
              " The production row is not measured: its speedup is interpolated between the "
              "two nearest measured points, linearly in log(ratio), and never extrapolated "
              "beyond them.");
   }
   app_sw (o, s, "\n\n");
}

/* app_change_pct -- "+12.5%", "−3.0%", "0.0%": `cur` relative to `base`; "n/a" without both. */
static void
app_change_pct (bson_string_t *o, bool have, double base, double cur)
{
   double ch;

   if (!have || !(base > 0)) {
      bson_string_append (o, "n/a");
      return;
   }
   ch = (cur - base) / base * 100.0;
   if (fabs (ch) < 0.05) {
      bson_string_append (o, "0.0%");
   } else {
      bson_string_append_printf (o, "%s%.1f%%", ch > 0 ? "+" : "−", fabs (ch));
   }
}

/* find_name -- the index of `name` in names[0..n), or -1. */
static int
find_name (const char *const *names, size_t n, const char *name)
{
   size_t i;

   for (i = 0; i < n; i++) {
      if (strcmp (names[i], name) == 0) {
         return (int)i;
      }
   }
   return -1;
}

/* baseline_point -- the point of sweep bs measured at cache size `cache` (the last one when repeated);
 * NULL when bs has none. */
static const lab_sweep_point_t *
baseline_point (const sweep_t *bs, double cache)
{
   const lab_sweep_point_t *q = NULL;

   for (size_t j = 0; j < bs->n; j++) {
      if (bs->p[j].cache_size_bytes == cache) {
         q = &bs->p[j];
      }
   }
   return q;
}

/* render_sweep_baseline_n -- the baseline table of sweeps that are not both the same pair: one row per
 * matched cache size and layout both sweeps hold, its load time and (a candidate measured against the
 * same reference in both) its speedup, before and after. */
static void
render_sweep_baseline_n (bson_string_t *o, const sweep_t *s, const sweep_t *bs)
{
   size_t i, l, matched = 0, nshared = 0;
   bool same_ref = strcmp (s->names[0], bs->names[0]) == 0;
   bson_string_t *only = bson_string_new (NULL);

   bson_string_append (o, "| engine cache | layout | load time: baseline | load time: this | change | "
                          "speedup: baseline | speedup: this | change |\n"
                          "|--:|---|--:|--:|--:|--:|--:|--:|\n");
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i], *q = baseline_point (bs, p->cache_size_bytes);
      if (!q) {
         continue;
      }
      matched++;
      for (l = 0; l < s->nl; l++) {
         int bl = find_name (bs->names, bs->nl, s->names[l]);
         if (bl < 0) {
            continue;
         }
         bson_string_append (o, "| ");
         app_binary (o, p->cache_size_bytes);
         bson_string_append (o, " | ");
         app_esc (o, s->names[l]);
         bson_string_append (o, " | ");
         app_stat (o, LAB_UNIT_SECONDS, &q->elapsed[bl]);
         bson_string_append (o, " | ");
         app_stat (o, LAB_UNIT_SECONDS, &p->elapsed[l]);
         bson_string_append (o, " | ");
         app_change_pct (o, q->elapsed[bl].present && p->elapsed[l].present, q->elapsed[bl].median,
                         p->elapsed[l].median);
         if (l == 0 && same_ref) {
            bson_string_append (o, " | reference | reference | |\n");
            continue;
         }
         bson_string_append (o, " | ");
         if (same_ref && bl > 0 && q->has_speedup_of[bl]) {
            app_factor (o, q->speedup_of[bl]);
         } else {
            bson_string_append (o, "n/a");
         }
         bson_string_append (o, " | ");
         if (same_ref && l > 0 && p->has_speedup_of[l]) {
            app_factor (o, p->speedup_of[l]);
         } else {
            bson_string_append (o, "n/a");
         }
         bson_string_append (o, " | ");
         app_change_pct (o, same_ref && bl > 0 && l > 0 && q->has_speedup_of[bl] && p->has_speedup_of[l],
                         q->speedup_of[bl], p->speedup_of[l]);
         bson_string_append (o, " |\n");
      }
   }
   if (matched == 0) {
      bson_string_append (o, "| (no cache size in common) | | | | | | | |\n");
   }
   bson_string_append (o, "\nPoints are matched by engine cache size and layouts by name; *change* is this "
                          "sweep's figure relative to the baseline's (load time: negative is faster; "
                          "speedup: positive means the candidate gains more over ");
   app_esc (o, s->names[0]);
   bson_string_append (o, same_ref ? ")."
                                   : "; the two sweeps have different reference layouts, so no speedup is "
                                     "compared).");
   for (l = 0; l < s->nl; l++) {
      if (find_name (bs->names, bs->nl, s->names[l]) >= 0) {
         nshared++;
      } else {
         bson_string_append (only, only->len ? ", " : "");
         app_esc (only, s->names[l]);
      }
   }
   if (only->len) {
      bson_string_append_printf (o, " Layouts only in this sweep: %s.", only->str);
   }
   bson_string_truncate (only, 0);
   for (l = 0; l < bs->nl; l++) {
      if (find_name (s->names, s->nl, bs->names[l]) < 0) {
         bson_string_append (only, only->len ? ", " : "");
         app_esc (only, bs->names[l]);
      }
   }
   if (only->len) {
      bson_string_append_printf (o, " Layouts only in the baseline: %s.", only->str);
   }
   if (nshared == 0) {
      bson_string_append (o, " The two sweeps share no layout.");
   }
   bson_string_free (only, true);
}

/* render_sweep_baseline_pair -- the baseline table of two sweeps of the same pair: per matched cache
 * size the ratios and the speedup before and after. */
static void
render_sweep_baseline_pair (bson_string_t *o, const sweep_t *s, const sweep_t *bs)
{
   size_t i, matched = 0;

   bson_string_append (o, "| engine cache | ratio: baseline | ratio: this | speedup: baseline | speedup: "
                          "this | change |\n|--:|--:|--:|--:|--:|--:|\n");
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i], *q = baseline_point (bs, p->cache_size_bytes);
      if (!q) {
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
   if (matched == 0) {
      bson_string_append (o, "| (no cache size in common) | | | | | |\n");
   }
   bson_string_append (o, "\nPoints are matched by engine cache size; *change* is this sweep's speedup "
                          "relative to the baseline's (positive: folding gains more). The ratios differ when "
                          "the data did.");
}

/* render_sweep_baseline -- two sweeps point by point where their cache sizes match: for two sweeps of
 * the same pair the speedup before and after, else every layout both hold (render_sweep_baseline_n); the
 * unmatched sizes listed. */
static void
render_sweep_baseline (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s,
                       const lab_cmp_results_t *b)
{
   sweep_t bs;
   size_t i, j;
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
      app_backend (o, &both[l]->doc);
      bson_string_append_printf (o, ", %zu points, started ", l == 0 ? bs.n : s->n);
      app_esc (o, lab_results_header (&both[l]->doc, LAB_RESULTS_KEY_STARTED));
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n");
   if (s->nl == 2 && bs.nl == 2 && strcmp (s->names[0], bs.names[0]) == 0 &&
       strcmp (s->names[1], bs.names[1]) == 0) {
      render_sweep_baseline_pair (o, s, &bs);
   } else {
      render_sweep_baseline_n (o, s, &bs);
   }
   for (i = 0; i < s->n; i++) {
      bool found = false;
      for (j = 0; j < bs.n; j++) {
         found = found || s->p[i].cache_size_bytes == bs.p[j].cache_size_bytes;
      }
      if (!found) {
         if (only_r->len) {
            bson_string_append (only_r, ", ");
         }
         app_binary (only_r, s->p[i].cache_size_bytes);
      }
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
   lab_results_layouts_t ls;
   lab_sweep_point_t top;
   const char *regime;
   bool memory;

   lab_results_layouts (&r->doc, &ls);
   lab_results_top_point (&r->doc, &top);
   /* the regime of a measured point is what its reads were (lab_results_point_regime: the detail layout's
    * read amplification), never the ratio alone: a cache 1.57x the data on disk can reread each page
    * dozens of times, since the cache holds pages uncompressed */
   regime = lab_results_point_regime (&top);
   memory = strcmp (regime, LAB_RESULTS_REGIME_MEMORY) == 0;
   if (has_ratio) {
      bson_string_append (o, "- Measured in the **");
      bson_string_append (o, regime);
      bson_string_append (o, "** regime: ");
      if (lab_results_cache_bytes (&r->doc, &cache)) {
         bson_string_append (o, "an engine cache of ");
         app_binary (o, cache);
         bson_string_append (o, " is ");
      } else {
         bson_string_append (o, "the engine cache is ");
      }
      app_ratio (o, ratio);
      bson_string_append (o, "x the ");
      app_esc (o, ls.l[ls.reference].name);
      bson_string_append (o, " layout's size on disk");
      if (lab_results_on_disk_bytes (&r->doc, ls.l[ls.reference].name, &disk)) {
         bson_string_append (o, " (");
         app_fmt (o, LAB_UNIT_BYTES, disk);
         bson_string_append (o, ", data + indexes)");
      }
      if (memory) {
         bson_string_append (o, "; ");
         lab_cmp_app_engine_disk (o, &top, ls.l[ls.reference].name);
         bson_string_append (o, " (reads without `--direct-io` go through the OS page cache: the engine's "
                                "rereads cost copies and decompression, not disk reads). ");
      } else if (top.has_amplification[0]) {
         bson_string_append (o, "; the engine read it ");
         app_factor (o, top.read_amplification[0]);
         bson_string_append (o, top.buffered_io ? " its on-disk size" : " its on-disk size from disk");
         if (strcmp (regime, LAB_RESULTS_REGIME_FITS) == 0) {
            bson_string_append (o, ", so each page was read about once. ");
         } else if (ratio >= 1.0) {
            bson_string_append (o, ": the cache evicted and reread pages although it is larger than the data "
                                   "on disk (it holds pages uncompressed). ");
         } else {
            bson_string_append (o, ": the cache evicted and reread pages. ");
         }
      } else {
         /* no engine read figures: the ratio is all there is, and says so */
         bson_string_append (o, ratio >= 1.0 ? ", so each page should be read once (the ratio says so; no "
                                               "engine read figures confirm it). "
                                             : ", so the cache evicts and rereads pages (the ratio says so; "
                                               "no engine read figures confirm it). ");
      }
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

/* verdict_cold -- the start of the verdict's third line: how cold the runs were (the caller ends it with
 * what the spread says). */
static void
verdict_cold (bson_string_t *o, const lab_cmp_results_t *r, const cold_facts_t *cf)
{
   cold_facts_t c = *cf;
   bool cold_requested = false;

   bson_string_append (o, "- ");
   lab_results_get_bool (&r->doc, "config.cold", &cold_requested);
   if (!cold_requested) {
      bson_string_append (o, "**Not a cold experiment** (scancmp ran without `--cold`): caches may have "
                             "served part of the data");
   } else if (c.drop_known == c.runs && c.dropped == c.runs && c.resident_known &&
              c.resident_max_pct <= 1.0) {
      app_all_runs (o, c.runs, true);
      bson_string_append_printf (
         o, " started cold (caches dropped, at most %.1f%% of the data files resident)", c.resident_max_pct);
   } else if (c.dropped == c.runs && c.drop_known == c.runs) {
      if (c.resident_known) {
         bson_string_append (o, "Caches were dropped before ");
         app_all_runs (o, c.runs, false);
         bson_string_append_printf (o, ", yet up to %.1f%% of the data files were resident before one",
                                    c.resident_max_pct);
      } else {
         bson_string_append (o, "Caches were dropped before ");
         app_all_runs (o, c.runs, false);
         bson_string_append (o, " (residency not measured)");
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
}

/* app_tie_why -- why two load times are "same" by the rule of core/results.h, for the verdict: "the
 * load-time ranges of the runs overlap ...", "with one run a difference of 0.001 s is under 2 sampling
 * intervals (0.2 s), within noise; `--runs 3` measures the spread". */
static void
app_tie_why (bson_string_t *o, lab_tie_t tie, const lab_results_noise_t *noise, const lab_stat_t *a,
             const lab_stat_t *b)
{
   switch (tie) {
   case LAB_TIE_SPREAD:
      bson_string_append (o, "the load-time ranges of the runs overlap, so the difference is within "
                             "run-to-run noise");
      return;
   case LAB_TIE_ONE_RUN:
      bson_string_append_printf (o,
                                 "with one run a difference under %.0f%% is within noise; `--runs 3` "
                                 "measures the spread",
                                 LAB_RESULTS_TIE_ONE_RUN * 100);
      return;
   case LAB_TIE_INTERVALS:
      bson_string_append (o, "with one run a difference of ");
      app_fmt (o, LAB_UNIT_SECONDS, fabs (a->median - b->median));
      bson_string_append_printf (o, " is under %d sampling intervals (", LAB_RESULTS_FLOOR_INTERVALS);
      app_fmt (o, LAB_UNIT_SECONDS, noise->time_floor);
      bson_string_append (o, "), within noise; `--runs 3` measures the spread");
      return;
   default:
      bson_string_append (o, "within 2%");
      return;
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
   lab_tie_t tie;
   lab_results_noise_t noise;
   lab_cmp_match_t match;

   bson_string_append (o, "## Verdict\n\n");
   lab_cmp_match_of (r, &match);
   render_match_verdict (o, r, &match);

   /* 1: load time, by the one rule of core/results.h */
   noise = lab_results_noise_of (&r->doc, m_el);
   w = lab_results_winner (m_el->better, &ed, &ef, &noise, &factor, &tie);
   bson_string_append (o, "- ");
   if (w == LAB_WIN_FOLDED || w == LAB_WIN_DETAIL) {
      bson_string_append_printf (o, "**The folded layout loads ");
      app_factor (o, factor);
      bson_string_append (o, w == LAB_WIN_FOLDED ? " faster**: " : " slower**: ");
   } else if (w == LAB_WIN_TIE && tie == LAB_TIE_CLOSE) {
      bson_string_append (o, "**Both layouts load in about the same time** (within 2%): ");
   } else if (w == LAB_WIN_TIE) {
      bson_string_append (o, "**No winner on load time**: ");
   } else {
      bson_string_append (o, "**Load time could not be compared**: ");
   }
   app_stat (o, LAB_UNIT_SECONDS, &ef);
   bson_string_append (o, " folded vs ");
   app_stat (o, LAB_UNIT_SECONDS, &ed);
   if (nd == nf) {
      bson_string_append_printf (o, " one document per row (%s%d run%s each)", nd == 1 ? "" : "median of ",
                                 nd, nd == 1 ? "" : "s");
   } else {
      bson_string_append_printf (o, " one document per row (median of %d and %d runs)", nf, nd);
   }
   if (w == LAB_WIN_TIE && tie != LAB_TIE_CLOSE) {
      bson_string_append (o, ": ");
      app_tie_why (o, tie, &noise, &ed, &ef);
   }
   bson_string_append (o, ".\n");
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
   verdict_cold (o, r, &c);
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

/* run_counts -- the runs per layout; true when every layout has the same number (*n1 gets it). */
static bool
run_counts (const lab_cmp_results_t *r, const lab_results_layouts_t *ls, int *counts, int *n1)
{
   size_t i;
   bool same = true;

   for (i = 0; i < ls->n; i++) {
      counts[i] = lab_cmp_run_count (r, ls->l[i].name);
      same = same && counts[i] == counts[0];
   }
   *n1 = counts[0];
   return same;
}

/* render_verdict_n -- the verdict over N layouts (or a pair other than detail and folded): which
 * loads fastest and by what factor over the runner-up, each layout's read requests against the
 * reference, and how cold and consistent the runs were. */
static void
render_verdict_n (bson_string_t *o, const lab_cmp_results_t *r, const lab_results_layouts_t *ls,
                  const lab_cmp_production_t *prod)
{
   const lab_metric_t *m_el = lab_results_metric_find ("elapsed_s");
   const lab_metric_t *m_rr = lab_results_metric_find ("read_requests");
   const char *ref = ls->l[ls->reference].name;
   lab_results_nrow_t el, rr;
   cold_facts_t c = gather_cold (r);
   int counts[LAB_RESULTS_MAX_LAYOUTS], n1, nmin;
   size_t i, runner = ls->n;
   bool same = run_counts (r, ls, counts, &n1);
   lab_cmp_match_t match;

   lab_results_nrow (&r->doc, ls, m_el, &el);
   lab_results_nrow (&r->doc, ls, m_rr, &rr);
   bson_string_append (o, "## Verdict\n\n");
   lab_cmp_match_of (r, &match);
   render_match_verdict (o, r, &match);
   bson_string_append (o, "- ");

   /* 1: load time */
   if (el.winner == LAB_WIN_ONE) {
      for (i = 0; i < ls->n; i++) {
         if (i != el.best && el.stat[i].present &&
             (runner == ls->n || el.stat[i].median < el.stat[runner].median)) {
            runner = i;
         }
      }
      bson_string_append (o, "**");
      app_esc (o, ls->l[el.best].name);
      bson_string_append (o, " loads fastest");
      if (el.factor > 0 && runner < ls->n) {
         bson_string_append (o, ", ");
         app_factor (o, el.factor);
         bson_string_append (o, " faster than the runner-up ");
         app_esc (o, ls->l[runner].name);
      }
      bson_string_append (o, "**: ");
   } else if (el.winner == LAB_WIN_TIE && el.ntied == ls->n) {
      bson_string_append_printf (o,
                                 el.tie == LAB_TIE_CLOSE ? "**All %zu layouts load in about the same time**: "
                                                         : "**No winner on load time among the %zu layouts** "
                                                           "(no difference the runs can tell): ",
                                 ls->n);
   } else if (el.winner == LAB_WIN_TIE) {
      bson_string_append (o, "**");
      for (i = 0, n1 = 0; i < ls->n; i++) {
         if (el.tied[i]) {
            bson_string_append (o, n1++ ? " and " : "");
            app_esc (o, ls->l[i].name);
         }
      }
      bson_string_append (o, el.tie == LAB_TIE_CLOSE
                                ? " load fastest, within 2% of each other**: "
                                : " load fastest, no difference the runs can tell between "
                                  "them**: ");
   } else {
      bson_string_append (o, "**Load time could not be compared**: ");
   }
   for (i = 0; i < ls->n; i++) {
      bson_string_append (o, i ? ", " : "");
      app_stat (o, LAB_UNIT_SECONDS, &el.stat[i]);
      bson_string_append (o, " ");
      app_esc (o, ls->l[i].name);
      if (i != ls->reference && el.has_ratio[i]) {
         bson_string_append (o, " (");
         app_pct (o, el.ratio[i]);
         bson_string_append (o, " of ");
         app_esc (o, ref);
         bson_string_append (o, ")");
      }
   }
   nmin = counts[0];
   for (i = 0; i < ls->n; i++) {
      nmin = counts[i] < nmin ? counts[i] : nmin;
   }
   if (same) {
      bson_string_append_printf (o, " (median of %d run%s each).\n", counts[0], counts[0] == 1 ? "" : "s");
   } else {
      bson_string_append_printf (o, " (medians of %d to %d runs).\n", nmin, n1 > nmin ? n1 : nmin);
   }
   render_regime_line (o, r, prod);

   /* 2: disk read requests against the reference */
   bson_string_append (o, "- ");
   if (rr.stat[ls->reference].present && rr.stat[ls->reference].median > 0) {
      bson_string_append (o, "Disk read requests: ");
      for (i = 0; i < ls->n; i++) {
         bson_string_append (o, i ? ", " : "");
         app_esc (o, ls->l[i].name);
         bson_string_append (o, " ");
         if (!rr.stat[i].present) {
            bson_string_append (o, "n/a");
            continue;
         }
         app_fmt (o, LAB_UNIT_COUNT, rr.stat[i].median);
         if (i != ls->reference && rr.has_ratio[i]) {
            bson_string_append (o, " (");
            app_pct (o, rr.ratio[i]);
            bson_string_append (o, ")");
         }
      }
      bson_string_append (o, "; percentages are of ");
      app_esc (o, ref);
      bson_string_append (o, "'s.\n");
   } else {
      bson_string_append (o, "Disk read requests could not be compared (n/a: the device was not sampled).\n");
   }

   /* 3: how cold, how consistent */
   verdict_cold (o, r, &c);
   if (nmin < 2) {
      bson_string_append (o, "; with one run per layout there is no spread: use `--runs 3` or more.\n");
   } else if (el.winner == LAB_WIN_ONE && runner < ls->n) {
      const lab_stat_t *a = &el.stat[el.best], *b = &el.stat[runner];
      bson_string_append (o, a->max < b->min || b->max < a->min ? "; the load-time ranges of the two fastest "
                                                                  "layouts do not overlap.\n"
                                                                : "; the load-time ranges of the two fastest "
                                                                  "layouts overlap, so their difference is "
                                                                  "within run-to-run noise.\n");
   } else {
      bson_string_append (o, ".\n");
   }
   bson_string_append (o, "\n");
}

/* ---- comparison table -------------------------------------------------------------------------- */

/* table_row -- one row of the comparison table: label, one value per layout, the ratio of each other
 * layout to the reference, better, as the shared cells of core/results.h (scancmp's table prints the same
 * cells). */
static void
table_row (bson_string_t *o, const lab_results_layouts_t *ls, const lab_results_nrow_t *row)
{
   lab_results_ncells_t c;
   size_t i;

   lab_results_nrow_cells (row, ls, true, &c);
   bson_string_append (o, "| ");
   app_esc (o, row->metric->label);
   for (i = 0; i < ls->n; i++) {
      bson_string_append_printf (o, " | %s", c.value[i]);
   }
   for (i = 0; i < ls->n; i++) {
      if (i != ls->reference) {
         bson_string_append_printf (o, " | %s", c.ratio[i]);
      }
   }
   bson_string_append_printf (o, " | %s |\n", c.better);
   lab_results_ncells_cleanup (&c);
}

/* list_sep -- what goes before item i of n in a running list: "", ", " ... " and " before the last. */
static const char *
list_sep (size_t i, size_t n)
{
   return i == 0 ? "" : i + 1 == n ? " and " : ", ";
}

/* The mean share of its cores at or above which a load counts as bound by the CPU: the process had
 * (almost) no core left to wait on the disk with. */
#define CPU_BOUND_PCT 90.0

/* render_cpu_bound -- under the table, one sentence naming every layout whose load kept the store's
 * process at or above CPU_BOUND_PCT of its cores (the medians of cpu.busy_pct_mean and cpu.cores): their
 * disk rates show what the CPU let through, not what the disk can do. Nothing when no layout is. */
static void
render_cpu_bound (bson_string_t *o, const lab_cmp_results_t *r, const lab_results_layouts_t *ls)
{
   const lab_metric_t *busy = lab_results_metric_find ("cpu_busy_pct_mean");
   const lab_metric_t cores_m = { "cpu_cores", "cpu.cores", "cores", LAB_UNIT_COUNT, LAB_DESCRIPTIVE };
   size_t idx[LAB_RESULTS_MAX_LAYOUTS];
   double pct[LAB_RESULTS_MAX_LAYOUTS], cores = -1;
   bool same_cores = true;
   size_t i, n = 0;

   for (i = 0; i < ls->n; i++) {
      lab_stat_t b = lab_results_metric_stat (&r->doc, ls->l[i].name, busy);
      lab_stat_t c = lab_results_metric_stat (&r->doc, ls->l[i].name, &cores_m);
      double ci = c.present && c.median >= 1 ? c.median : -1;
      if (!b.present || b.median < CPU_BOUND_PCT) {
         continue;
      }
      if (n > 0 && ci != cores) {
         same_cores = false;
      }
      cores = ci;
      idx[n] = i;
      pct[n++] = b.median;
   }
   if (n == 0) {
      return;
   }
   bson_string_append (o, "The ");
   for (i = 0; i < n; i++) {
      bson_string_append (o, list_sep (i, n));
      app_esc (o, ls->l[idx[i]].name);
   }
   bson_string_append (o, n == 1 ? " load kept " : " loads kept ");
   for (i = 0; i < n; i++) {
      bson_string_append_printf (o, "%s%.0f%%", list_sep (i, n), pct[i]);
   }
   if (same_cores && cores >= 1) {
      bson_string_append_printf (o, " of %s %.0f core%s", n == 1 ? "its" : "their", cores,
                                 cores >= 2 ? "s" : "");
   } else {
      bson_string_append (o, n == 1 ? " of its cores" : " of their cores");
   }
   bson_string_append_printf (o,
                              " busy (the store's process, mean over the load): %s bound by the CPU "
                              "(decompression, BSON), a faster disk would have changed little, and %s disk "
                              "rates show what the CPU let through, not what the disk can do.\n\n",
                              n == 1 ? "it was" : "they were", n == 1 ? "its" : "their");
}

/* render_table -- the comparison table of the metric catalogue, a column per layout; rows no run
 * measured are listed below it instead. */
static void
render_table (bson_string_t *o, const lab_cmp_results_t *r, const sweep_t *s)
{
   const lab_metric_t *m;
   lab_results_layouts_t ls;
   size_t n, i;
   bson_string_t *missing = bson_string_new (NULL);
   int counts[LAB_RESULTS_MAX_LAYOUTS], nd, nf;
   bool same, zero_ref = false;
   lab_cmp_match_t match;
   double cache_over = 0;
   char *rule;

   lab_results_layouts (&r->doc, &ls);
   same = run_counts (r, &ls, counts, &nd);
   nf = counts[1];
   bson_string_append (o, "## Comparison\n\n| metric");
   for (i = 0; i < ls.n; i++) {
      bson_string_append (o, " | ");
      app_esc (o, layout_heading (&ls, i));
   }
   for (i = 0; i < ls.n; i++) {
      if (i != ls.reference) {
         bson_string_append (o, " | ");
         app_esc (o, ls.l[i].name);
         bson_string_append (o, " / ");
         app_esc (o, ls.l[ls.reference].name);
      }
   }
   bson_string_append (o, " | better |\n|---|");
   for (i = 0; i < 2 * ls.n - 1; i++) {
      bson_string_append (o, "--:|");
   }
   bson_string_append (o, "---|\n");
   m = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_results_nrow_t row;
      if (!lab_results_nrow (&r->doc, &ls, &m[i], &row)) {
         bson_string_append_printf (missing, "%s%s", missing->len ? ", " : "", m[i].label);
         continue;
      }
      table_row (o, &ls, &row);
      zero_ref = zero_ref || row.zero_ref;
      for (size_t l = 0; strcmp (m[i].name, "cache_peak_pct") == 0 && l < ls.n; l++) {
         cache_over = row.stat[l].present ? fmax (cache_over, row.stat[l].median) : cache_over;
      }
   }
   bson_string_append (o, "\n");
   lab_cmp_match_of (r, &match);
   render_match_note (o, r, &match);
   if (same) {
      bson_string_append_printf (o,
                                 "Figures are medians over %d run%s per layout, with the min–max range in "
                                 "parentheses when runs differ. ",
                                 nd, nd == 1 ? "" : "s");
   } else if (ls.n == 2) {
      bson_string_append_printf (o,
                                 "Figures are medians over %d %s and %d %s runs, with the "
                                 "min–max range in parentheses when runs differ. ",
                                 nd, ls.l[0].name, nf, ls.l[1].name);
   } else {
      bson_string_append (o, "Figures are medians over ");
      for (i = 0; i < ls.n; i++) {
         bson_string_append_printf (o, "%s%d %s", list_sep (i, ls.n), counts[i], ls.l[i].name);
      }
      bson_string_append (o, " runs, with the min–max range in parentheses when runs differ. ");
   }
   rule = lab_results_same_rule (&r->doc);
   if (classic_pair (&ls)) {
      bson_string_append_printf (
         o,
         "The ratio is folded ÷ detail. *better* names the layout with the better "
         "median and by what factor (less time, fewer and larger read requests, less "
         "memory); descriptive rows have none (rates per second among them: the totals "
         "decide), and *same* means %s.",
         rule);
   } else {
      bson_string_append (o, "Each ratio is that layout ÷ ");
      app_esc (o, ls.l[ls.reference].name);
      bson_string_append_printf (o,
                                 " (the reference). *better* names the layout with the best median and by "
                                 "what factor it beats the runner-up (less time, fewer and larger read "
                                 "requests, less memory), or the layouts the same as the best joined by =; "
                                 "descriptive rows have none (rates per second among them: the totals "
                                 "decide), and *same* (every layout) means %s.",
                                 rule);
   }
   bson_free (rule);
   if (zero_ref) {
      bson_string_append (o, " A ratio to a reference figure shown as zero is left out (–).");
   }
   bson_string_append (o, " Sizes are SI (1 MB = 10^6 bytes).");
   if (s && s->ref < s->n) {
      bson_string_append (o, " In this sweep the table shows its reference point, ");
      app_point (o, &s->p[s->ref]);
      bson_string_append (o, "; the Cache sweep section above has every point.");
   }
   bson_string_append (o, "\n\n");
   if (cache_over >= 100.5) {
      app_cache_over_note (o, cache_over);
      bson_string_append (o, "\n\n");
   }
   render_cpu_bound (o, r, &ls);
   if (missing->len) {
      bson_string_append (o, ls.n == 2 ? "Not measured in this experiment (n/a for both layouts): "
                                       : "Not measured in this experiment (n/a for every layout): ");
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
   size_t i, n_sweep = 0, n_totals = 0, n_latency = 0;

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
      bson_string_append (o,
                          "The sweep chart has every point (log scales; a dashed line separates "
                          "neighbouring points measured in different regimes, each named above its points)");
      if (s && s->ref < s->n && opts->n_charts > n_sweep) {
         bson_string_append (o, "; the other charts show the reference point, ");
         app_point (o, &s->p[s->ref]);
      }
      bson_string_append (o, opts->n_charts > n_sweep ? ". " : ".\n\n");
   }
   for (i = 0; i < opts->n_charts; i++) {
      size_t len = strlen (opts->charts[i].file);
      n_totals += opts->charts[i].totals;
      n_latency += len >= 12 && strcmp (opts->charts[i].file + len - 12, "-latency.svg") == 0;
   }
   if (opts->n_charts > n_sweep + n_totals + n_latency) {
      bson_string_append (o, "Both layouts start at 0 s. The thick line is each layout's median run "
                             "(by load time); thin lines are its other runs.");
      bson_string_append (o, n_totals ? " " : "\n\n");
   }
   if (n_totals) {
      bson_string_append_printf (o,
                                 "A load sampled fewer than %d times would be a dot on a time chart: those "
                                 "charts show each layout's total (or peak) of its median run instead.\n\n",
                                 LAB_CMP_SHORT_LOAD_SAMPLES);
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
   app_backend (o, d);
   bson_string_append (o, " |\n");
   kv_str (o, "URI (redacted)", lab_results_get_string (d, "backend.uri"));
   if (lab_results_get_string (d, "backend.allocator")) {
      kv_str (o, "allocator (embedded engine)", lab_results_get_string (d, "backend.allocator"));
   }
   kv_str (o, "database", lab_results_get_string (d, "backend.db"));
   bson_string_append (o, "| server on this host | ");
   bson_string_append (o, lab_results_get_bool (d, "backend.server_local", &b) ? (b ? "yes" : "no") : "n/a");
   bson_string_append (o, " |\n| engine cache maximum | ");
   app_num (o, d, "backend.cache_max_bytes", LAB_UNIT_BYTES);
   bson_string_append (o, " |\n| measured by | ");
   app_tool (o, d);
   bson_string_append (o, " |\n");
   render_deployment (o, r);
   kv_str (o, "started", lab_results_header (d, LAB_RESULTS_KEY_STARTED));
   kv_str (o, "finished", lab_results_header (d, LAB_RESULTS_KEY_FINISHED));
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
   lab_results_layouts_t ls;
   double dc, fc, keys;
   size_t i, l;
   char path[160];

   lab_results_layouts (d, &ls);
   bson_string_append (o, "## Dataset\n\n|");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, " | ");
      app_esc (o, layout_heading (&ls, l));
   }
   bson_string_append (o, " |\n|---|");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, "--:|");
   }
   bson_string_append (o, "\n| collection |");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, " ");
      app_esc (o, collection_name (r, ls.l[l].name));
      bson_string_append (o, " |");
   }
   bson_string_append (o, "\n");
   if (!classic_pair (&ls)) {
      bson_string_append (o, "| kind |");
      for (l = 0; l < ls.n; l++) {
         bson_string_append (o, " ");
         app_esc (o, ls.l[l].kind);
         bson_string_append (o, " |");
      }
      bson_string_append (o, "\n");
   }
   for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
      bson_string_append_printf (o, "| %s |", rows[i].label);
      for (l = 0; l < ls.n; l++) {
         snprintf (path, sizeof path, "dataset.%s.%s", ls.l[l].name, rows[i].field);
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
   if (classic_pair (&ls)) {
      bson_string_append (o, "\n- rows per master (detail documents ÷ folded documents): ");
      if (lab_results_get_number (d, "dataset.detail.count", &dc) &&
          lab_results_get_number (d, "dataset.folded.count", &fc) && fc > 0) {
         bson_string_append_printf (o, "%.1f", dc / fc);
      } else {
         bson_string_append (o, "n/a");
      }
   } else {
      /* a buckets layout's documents per master is its point: how many reads one master costs */
      bson_string_append (o, "\n- documents per master (documents ÷ masters in the collection's key "
                             "index when every master was loaded): ");
      for (l = 0; l < ls.n; l++) {
         snprintf (path, sizeof path, "dataset.%s.count", ls.l[l].name);
         bson_string_append (o, l ? ", " : "");
         app_esc (o, ls.l[l].name);
         bson_string_append (o, " ");
         if (lab_results_get_number (d, path, &dc) && lab_results_get_number (d, "dataset.keys", &keys) &&
             keys > 0) {
            bson_string_append_printf (o, "%.1f", dc / keys);
         } else {
            bson_string_append (o, "n/a");
         }
      }
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
   } else if (lab_results_get_bool (d, "config.direct_io", &b)) {
      bson_string_append (
         o, "\n- data files read through the OS page cache (no `--direct-io`, as mongod reads): "
            "an engine cache miss the page cache holds costs no disk read");
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
   lab_results_layouts_t ls;
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
   lab_results_layouts (&r->doc, &ls);
   for (l = 0; l < (int)ls.n; l++) {
      lab_stat_t rr = lab_results_metric_stat (&r->doc, ls.l[l].name,
                                               lab_results_metric_find ("read_requests_per_s_peak"));
      lab_stat_t mb =
         lab_results_metric_stat (&r->doc, ls.l[l].name, lab_results_metric_find ("read_mb_s_peak"));
      bson_string_append (o, "- ");
      app_esc (o, ls.l[l].name);
      bson_string_append (o, " peaks: ");
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

/* app_change -- "+12.3% worse" between the baseline's and this median: marked better or worse only when
 * the one rule of core/results.h (lab_results_winner, with this file's noise) tells them apart, the same
 * rule as *same* in the tables; a marked change that one decimal would show as 2.0% gets two decimals. */
static void
app_change (bson_string_t *o, const lab_cmp_results_t *r, const lab_metric_t *m, const lab_stat_t *base,
            const lab_stat_t *cur)
{
   lab_results_noise_t noise = lab_results_noise_of (&r->doc, m);
   lab_winner_t w;
   double ch;

   if (!base->present || !cur->present || base->median == 0.0) {
      bson_string_append (o, "n/a");
      return;
   }
   ch = (cur->median - base->median) / fabs (base->median) * 100.0;
   w = lab_results_winner (m->better, base, cur, &noise, NULL, NULL);
   if (fabs (ch) < 0.05) {
      bson_string_append (o, "0.0%");
      return;
   }
   bson_string_append_printf (
      o,
      (w == LAB_WIN_DETAIL || w == LAB_WIN_FOLDED) && round (fabs (ch) * 10) <= 20 ? "%s%.2f%%" : "%s%.1f%%",
      ch > 0 ? "+" : "−", fabs (ch));
   /* lab_results_winner's "detail" is its first argument, the baseline */
   if (w == LAB_WIN_FOLDED) {
      bson_string_append (o, " better");
   } else if (w == LAB_WIN_DETAIL) {
      bson_string_append (o, " worse");
   }
}

/* render_baseline -- deltas between a baseline experiment and this one, per layout of this experiment
 * (a layout the baseline lacks shows n/a there). */
static void
render_baseline (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *b)
{
   const lab_metric_t *m;
   lab_results_layouts_t ls, bls;
   size_t n, i, l, k;
   const lab_cmp_results_t *both[2] = { b, r };
   const lab_results_layouts_t *both_ls[2] = { &bls, &ls };
   const char *what[2] = { "baseline", "this experiment" };
   char *rule;

   lab_results_layouts (&r->doc, &ls);
   lab_results_layouts (&b->doc, &bls);
   bson_string_append (o, "## Against the baseline\n\n");
   for (k = 0; k < 2; k++) {
      const bson_t *d = &both[k]->doc;
      bson_string_append_printf (o, "- %s: ", what[k]);
      app_esc (o, both[k]->name);
      bson_string_append (o, " — ");
      app_backend (o, d);
      bson_string_append (o, " on ");
      app_esc (o, lab_results_get_string (d, "host.hostname"));
      bson_string_append (o, ", ");
      for (l = 0; l < both_ls[k]->n; l++) {
         bson_string_append_printf (o, "%s%d", l ? "+" : "",
                                    lab_cmp_run_count (both[k], both_ls[k]->l[l].name));
      }
      bson_string_append (o, " runs, started ");
      app_esc (o, lab_results_header (d, LAB_RESULTS_KEY_STARTED));
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n| metric |");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, " ");
      app_esc (o, ls.l[l].name);
      bson_string_append (o, ": baseline | ");
      app_esc (o, ls.l[l].name);
      bson_string_append (o, ": this | change |");
   }
   bson_string_append (o, "\n|---|");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, "--:|--:|--:|");
   }
   bson_string_append (o, "\n");
   m = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_stat_t st[LAB_RESULTS_MAX_LAYOUTS][2]; /* [layout][baseline, this] */
      bool any = false;
      for (l = 0; l < ls.n; l++) {
         st[l][0] = lab_results_metric_stat (&b->doc, ls.l[l].name, &m[i]);
         st[l][1] = lab_results_metric_stat (&r->doc, ls.l[l].name, &m[i]);
         any = any || st[l][0].present || st[l][1].present;
      }
      if (!any) {
         continue;
      }
      bson_string_append (o, "| ");
      app_esc (o, m[i].label);
      for (l = 0; l < ls.n; l++) {
         lab_stat_t bm = st[l][0], cm = st[l][1];
         /* medians only: the spreads are in each experiment's own report */
         bm.n = cm.n = 1;
         bson_string_append (o, " | ");
         app_stat (o, m[i].unit, &bm);
         bson_string_append (o, " | ");
         app_stat (o, m[i].unit, &cm);
         bson_string_append (o, " | ");
         app_change (o, r, &m[i], &st[l][0], &st[l][1]);
      }
      bson_string_append (o, " |\n");
   }
   rule = lab_results_same_rule (&r->doc);
   bson_string_append_printf (o,
                              "\nMedians of each experiment; *change* is this experiment relative to the "
                              "baseline, marked better or worse on a metric with a direction unless the two "
                              "are the same, as in the tables: %s.\n\n",
                              rule);
   bson_free (rule);
}

/* lab_cmp_sweep_json_append -- see cmp.h. */
void
lab_cmp_sweep_json_append (const lab_cmp_results_t *r, const lab_cmp_production_t *production, bson_t *out)
{
   static const char *const status[] = { "interpolated", "measured", "outside", "too_few" };
   sweep_t s;
   bson_t arr, pt, ld, loc, pd, cands, cd;
   char key[16];
   size_t i, l;

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
         for (l = 0; l < s.nl; l++) {
            bson_append_document_begin (&pt, s.names[l], -1, &ld);
            if (p->elapsed[l].present) {
               BSON_APPEND_DOUBLE (&ld, "elapsed_s_median", p->elapsed[l].median);
            }
            if (l > 0 && p->has_speedup_of[l]) {
               BSON_APPEND_DOUBLE (&ld, "speedup", p->speedup_of[l]);
            }
            if (p->has_amplification[l]) {
               BSON_APPEND_DOUBLE (&ld, LAB_RESULTS_KEY_READ_AMPLIFICATION, p->read_amplification[l]);
            }
            if (p->has_disk_amplification[l]) {
               BSON_APPEND_DOUBLE (&ld, LAB_RESULTS_KEY_DISK_READ_AMPLIFICATION,
                                   p->disk_read_amplification[l]);
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
      if (s.n > 0) {
         BSON_APPEND_DOCUMENT_BEGIN (&pd, "candidates", &cands);
         for (l = 1; l < s.nl; l++) {
            lab_estimate_t ce = lab_cmp_sweep_estimate_of (r, production, l);
            bson_append_document_begin (&cands, s.names[l], -1, &cd);
            BSON_APPEND_UTF8 (&cd, "estimate", status[ce.status]);
            if (ce.status == LAB_ESTIMATE_INTERPOLATED || ce.status == LAB_ESTIMATE_MEASURED) {
               BSON_APPEND_DOUBLE (&cd, "speedup", ce.speedup);
            }
            bson_append_document_end (&cands, &cd);
         }
         bson_append_document_end (&pd, &cands);
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
   lab_results_layouts_t ls;
   sweep_t sw;
   size_t l;

   lab_results_layouts (&r->doc, &ls);
   bson_string_append (o, "# ");
   if (opts && opts->title) {
      app_esc (o, opts->title);
   } else if (!classic_pair (&ls)) {
      bson_string_append (o, "Layout comparison: ");
      for (l = 0; l < ls.n; l++) {
         bson_string_append (o, l ? " vs " : "");
         app_esc (o, ls.l[l].collection ? ls.l[l].collection : ls.l[l].name);
         bson_string_append (o, " (");
         app_esc (o, ls.l[l].name);
         if (strcmp (ls.l[l].name, ls.l[l].kind) != 0) {
            bson_string_append (o, ", ");
            app_esc (o, ls.l[l].kind);
         }
         bson_string_append (o, ")");
      }
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
   app_tool (o, &r->doc);
   bson_string_append (o, ".\n\n");
   lab_cmp_render_predicted_note (o, r);

   sweep_load (r, &sw);
   prod = opts ? opts->production : NULL;
   if (sw.n > 0) {
      render_sweep_verdict (o, r, &sw, prod);
      render_sweep (o, r, &sw, prod);
   } else if (!classic_pair (&ls)) {
      render_verdict_n (o, r, &ls, prod);
   } else {
      render_verdict (o, r, prod);
   }
   lab_cmp_render_measured (o, r);
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
   lab_cmp_render_prediction (o, r, opts ? opts->prediction : NULL);
   render_charts (o, opts, sw.n > 0 ? &sw : NULL);
   render_environment (o, r);
   render_dataset (o, r);
   lab_cmp_render_reproduce (o, r);
   render_cold (o, r);
   render_runs (o, r);
   render_ceiling (o, r);
   sweep_free (&sw);
   return bson_string_free (o, false);
}
