/*
 * render_sweep.c -- a cache sweep in the report: its points (lab_cmp_sweep_t), the speedup estimate at the
 * production point, the sweep's verdict (each candidate's curve, the fastest layout per point, the points
 * within noise, what the cache reread, production, how cold) and the sweep for layout-report --json.
 */
#include <ctype.h>
#include <stdint.h>

#include "compare/render_private.h"

/* lab_cmp_sweep_load -- see render_private.h. */
void
lab_cmp_sweep_load (const lab_cmp_results_t *r, lab_cmp_sweep_t *s)
{
   size_t i;

   memset (s, 0, sizeof *s);
   s->nl = lab_results_sweep_order (&r->doc, &s->ls, s->names);
   s->cand = 1;
   s->load_order = lab_results_load_order (&r->doc);
   s->n = lab_results_sweep_n (&r->doc);
   s->p = bson_malloc0 ((s->n + 1) * sizeof *s->p);
   for (i = 0; i < s->n; i++) {
      lab_results_sweep_point (&r->doc, i, &s->p[i]);
   }
   s->ref = lab_results_sweep_reference (&r->doc);
}

/* lab_cmp_md_sw_text -- see render_private.h. */
void
lab_cmp_md_sw_text (bson_string_t *o, const lab_cmp_sweep_t *sw, const char *text)
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

/* lab_cmp_sweep_free -- see render_private.h. */
void
lab_cmp_sweep_free (lab_cmp_sweep_t *s)
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
   lab_cmp_sweep_t s;
   double *ratio, *speedup;
   size_t i, n = 0, *idx;
   lab_estimate_t e;

   lab_cmp_sweep_load (r, &s);
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
   lab_cmp_sweep_free (&s);
   return e;
}

/* md_holds -- how much of the data the cache of point `p` holds, for the verdict. */
static void
md_holds (bson_string_t *o, const lab_sweep_point_t *p)
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

/* md_disk_amp -- "; the disk 1.02x" for a point read without --direct-io whose disk figure is known
 * (with --direct-io the disk read what the engine read: nothing added). */
static void
md_disk_amp (bson_string_t *o, const lab_sweep_point_t *p)
{
   if (p->buffered_io && p->has_disk_amplification[0]) {
      bson_string_append (o, "; the disk ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, p->disk_read_amplification[0]);
   }
}

/* render_production_line -- the verdict's line on the production point: the interpolated speedup, the
 * measured one, or why there is none. */
static void
render_production_line (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s,
                        const lab_cmp_production_t *prod)
{
   lab_estimate_t e = lab_cmp_sweep_estimate_of (r, prod, s->cand);
   size_t c = s->cand;

   lab_cmp_md_sw_text (o, s, "- ");
   switch (e.status) {
   case LAB_ESTIMATE_INTERPOLATED:
      lab_cmp_md_sw_text (o, s, "**At the production cache ratio (");
      lab_cmp_md_production_given (o, prod);
      lab_cmp_md_sw_text (o, s, ") the folded layout would load about ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, e.speedup);
      lab_cmp_md_sw_text (o, s,
                          s->nl > 2 ? " faster than detail: an interpolation" : " faster: an interpolation");
      lab_cmp_md_sw_text (o, s, ", not a measurement**, between the measured ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, s->p[e.lo].speedup_of[c]);
      lab_cmp_md_sw_text (o, s, " at ");
      lab_cmp_md_number (o, LAB_CMP_BINARY, s->p[e.lo].cache_size_bytes);
      lab_cmp_md_sw_text (o, s, " (ratio ");
      lab_cmp_md_ratio (o, s->p[e.lo].cache_ratio);
      lab_cmp_md_sw_text (o, s, ") and ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, s->p[e.hi].speedup_of[c]);
      lab_cmp_md_sw_text (o, s, " at ");
      lab_cmp_md_number (o, LAB_CMP_BINARY, s->p[e.hi].cache_size_bytes);
      lab_cmp_md_sw_text (o, s, " (ratio ");
      lab_cmp_md_ratio (o, s->p[e.hi].cache_ratio);
      lab_cmp_md_sw_text (o, s, "), linear in log(ratio).\n");
      break;
   case LAB_ESTIMATE_MEASURED:
      lab_cmp_md_sw_text (o, s, "**At the production cache ratio (");
      lab_cmp_md_production_given (o, prod);
      lab_cmp_md_sw_text (o, s, ") the folded layout loads ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, e.speedup);
      lab_cmp_md_sw_text (o, s, s->nl > 2 ? " faster than detail" : " faster");
      lab_cmp_md_sw_text (o, s, "**: a measured point (");
      lab_cmp_md_point (o, &s->p[e.lo]);
      lab_cmp_md_sw_text (o, s, "), no interpolation needed.\n");
      break;
   case LAB_ESTIMATE_OUTSIDE:
      lab_cmp_md_sw_text (o, s, "**The production cache ratio ");
      lab_cmp_md_production_given (o, prod);
      lab_cmp_md_sw_text (o, s, " is outside the measured range ");
      lab_cmp_md_ratio (o, e.range_lo);
      lab_cmp_md_sw_text (o, s, "–");
      lab_cmp_md_ratio (o, e.range_hi);
      lab_cmp_md_sw_text (o, s,
                          "; no estimate**: layout-report does not extrapolate (the speedup changes most "
                          "where the cache stops holding the data). Measure a sweep that reaches it (");
      lab_cmp_md_suggest_scan (o, r, LAB_CMP_SWEEP_ARGS);
      bson_string_append (o, ").\n");
      break;
   case LAB_ESTIMATE_TOO_FEW:
   default:
      lab_cmp_md_sw_text (o, s, "**No estimate at the production cache ratio ");
      lab_cmp_md_production_given (o, prod);
      lab_cmp_md_sw_text (o, s,
                          "**: the sweep has fewer than two points with both load times, so there is no "
                          "curve to read it from.\n");
      break;
   }
}

/* render_random_line -- with --load-order both, the verdict's line on candidate s->cand's speedup in random
 * order at every point that measured it: "In random order the folded layout loads 1.60x at ..., 77.2x at
 * ...". Nothing without a random-order load. */
static void
render_random_line (bson_string_t *o, const lab_cmp_sweep_t *s)
{
   size_t i, k = 0, c = s->cand;

   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      if (!p->has_speedup_random[c]) {
         continue;
      }
      lab_cmp_md_sw_text (o, s, k++ == 0 ? "- **In random order the folded layout loads " : ", ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, p->speedup_random[c]);
      lab_cmp_md_sw_text (o, s,
                          k == 1 ? (s->nl > 2 ? " faster than detail** at " : " faster** at ") : " at ");
      lab_cmp_md_number (o, LAB_CMP_BINARY, p->cache_size_bytes);
      lab_cmp_md_sw_text (o, s, " (ratio ");
      lab_cmp_md_ratio (o, p->cache_ratio);
      lab_cmp_md_sw_text (o, s, ")");
   }
   if (k > 0) {
      bson_string_append_printf (o,
                                 ": the keys shuffled by --seed and dealt round-robin to the workers, as an "
                                 "application opens bills (the \"load (random order)\" row of each point); "
                                 "the line above is %s order%s.\n",
                                 s->load_order,
                                 strcmp (s->load_order, "key") == 0
                                    ? ", each worker a contiguous segment of the sorted keys as the original "
                                      "batch loaders read them"
                                    : "");
   }
}

/* md_not_cold -- the end of a bold speedup ("**: "), or, the runs not cold, its reason instead of the
 * bold (core/results.h, lab_results_cold_check). */
static void
md_not_cold (bson_string_t *o, const char *not_cold)
{
   if (not_cold) {
      bson_string_append_printf (o, " (%s): ", not_cold);
   } else {
      bson_string_append (o, "**: ");
   }
}

/* render_curve_line -- the verdict's line on candidate s->cand's speedup curve: its range and the cache
 * ratios at its ends. */
static void
render_curve_line (bson_string_t *o, const lab_cmp_sweep_t *s, const char *not_cold)
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
   lab_cmp_md_sw_text (o, s, "- ");
   if (n_speedup == 0) {
      lab_cmp_md_sw_text (o, s,
                          s->nl > 2
                             ? "**The folded layout's load time could not be compared with detail's** at any "
                               "cache size.\n"
                             : "**Load time could not be compared** at any cache size.\n");
   } else if (n_speedup == 1 || lo == hi) {
      double sp = s->p[hi].speedup_of[c];
      bson_string_append (o, not_cold ? "" : "**");
      lab_cmp_md_sw_text (o, s, sp >= 1 ? "The folded layout loads " : "The speedup is ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, sp);
      if (sp >= 1) {
         lab_cmp_md_sw_text (o, s, " faster");
         lab_cmp_md_sw_text (o, s, than);
      }
      bson_string_append_printf (o, " in %s order", s->load_order);
      bson_string_append_printf (o, " at the %s measured", n_speedup == 1 ? "one cache size" : "cache sizes");
      md_not_cold (o, not_cold);
      md_holds (o, &s->p[hi]);
      lab_cmp_md_sw_text (o, s, " (");
      lab_cmp_md_point (o, &s->p[hi]);
      lab_cmp_md_sw_text (o, s, "); a curve needs more points.\n");
   } else {
      if (s->p[lo].speedup_of[c] >= 1) {
         bson_string_append (o, not_cold ? "" : "**");
         lab_cmp_md_sw_text (o, s, "The folded layout loads ");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, s->p[lo].speedup_of[c]);
         lab_cmp_md_sw_text (o, s, "–");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, s->p[hi].speedup_of[c]);
         lab_cmp_md_sw_text (o, s, " faster");
         lab_cmp_md_sw_text (o, s, than);
         bson_string_append_printf (o, " in %s order, depending on the engine cache", s->load_order);
         md_not_cold (o, not_cold);
      } else {
         bson_string_append (o, not_cold ? "" : "**");
         lab_cmp_md_sw_text (o, s, "The speedup (detail load time ÷ folded load time) ranges from ");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, s->p[lo].speedup_of[c]);
         lab_cmp_md_sw_text (o, s, " to ");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, s->p[hi].speedup_of[c]);
         bson_string_append_printf (o, " in %s order with the engine cache", s->load_order);
         bson_string_append (o, not_cold ? "" : "**");
         if (not_cold) {
            bson_string_append_printf (o, " (%s)", not_cold);
         }
         lab_cmp_md_sw_text (o, s, " (below 1x the detail layout is faster): ");
      }
      lab_cmp_md_number (o, LAB_CMP_FACTOR, s->p[lo].speedup_of[c]);
      lab_cmp_md_sw_text (o, s, " ");
      md_holds (o, &s->p[lo]);
      lab_cmp_md_sw_text (o, s, " (");
      lab_cmp_md_point (o, &s->p[lo]);
      lab_cmp_md_sw_text (o, s, "), ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, s->p[hi].speedup_of[c]);
      lab_cmp_md_sw_text (o, s, " ");
      md_holds (o, &s->p[hi]);
      lab_cmp_md_sw_text (o, s, " (");
      lab_cmp_md_point (o, &s->p[hi]);
      if (c == 1) {
         bson_string_append_printf (o,
                                    "). %zu cache sizes measured; the data is the detail layout's data and "
                                    "indexes on disk.\n",
                                    s->n);
      } else {
         lab_cmp_md_sw_text (o, s, ").\n");
      }
   }
}

/* render_best_line -- with more than two layouts, the verdict's line naming the fastest layout at each
 * point (and its regime), ties by the one rule of lab_results_nrow. */
static void
render_best_line (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s)
{
   const lab_metric_t *el = lab_results_metric_find ("elapsed_s");
   size_t i;

   bson_string_append_printf (
      o,
      "- **Fastest layout at each cache size** (%s-order load time; ties as *same* is "
      "defined under the comparison table): ",
      s->load_order);
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      lab_results_nrow_t row;
      lab_results_ncells_t cells = { 0 };

      bson_string_append (o, i ? "; " : "");
      lab_cmp_md_point (o, p);
      bson_string_append_printf (o, " (%s): ", lab_results_point_regime (p));
      if (lab_results_nrow_at (&r->doc, &p->doc, &s->ls, el, &row) && row.winner != LAB_WIN_NONE) {
         lab_results_nrow_cells (&row, &s->ls, false, &cells);
         bson_string_append (o, "**");
         lab_cmp_md_text (o, row.winner == LAB_WIN_TIE && row.ntied == row.n ? "all the same" : cells.better);
         bson_string_append (o, "**");
         if (row.winner == LAB_WIN_ONE) {
            char *note = lab_results_verdict_note (&row.decisive);
            bson_string_append_printf (o, " (%s)", note);
            bson_free (note);
         }
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
render_noise_points (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s)
{
   const lab_metric_t *el = lab_results_metric_find ("elapsed_s");
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
      lab_cmp_md_point (pts, p);
      bson_string_append (pts, ": ");
      for (size_t l = 0, k = 0; l < row.n; l++) {
         if (row.tied[l]) {
            bson_string_append (pts, k++ ? ", " : "");
            lab_cmp_md_stat (pts, LAB_UNIT_SECONDS, &row.stat[l], true);
            bson_string_append (pts, " ");
            lab_cmp_md_text (pts, s->ls.l[l].name);
         }
      }
   }
   if (n > 0) {
      bson_string_append_printf (o, "- **No %s-order load-time winner at %s**: ", s->load_order,
                                 n == 1 ? "one point" : "some points");
      bson_string_append (o, pts->str);
      bson_string_append (o, nmin < 2 ? ". With one run a difference under "
                                      : ". The 95% interval of the ratio over the paired runs holds 1, "
                                        "or the difference is under ");
      bson_string_append_printf (o, "%.1f%% or the timer's resolution", LAB_RESULTS_FLOOR * 100);
      bson_string_append (o, nmin < 2 ? " is no difference (it prints as 1.00x).\n"
                                      : ": the runs cannot tell the layouts apart there.\n");
   }
   bson_string_free (pts, true);
}

/* What the sweep verdict says of all the points together. */
typedef struct {
   size_t first, last; /* the first and last point with the reference's read amplification (SIZE_MAX: none) */
   double famp_lo[LAB_RESULTS_MAX_LAYOUTS], famp_hi[LAB_RESULTS_MAX_LAYOUTS]; /* each candidate's range */
   size_t spread;           /* points where every layout has two runs or more */
   size_t overlap;          /* ... of which some candidate's load time ties the reference's (the rule) */
   lab_cmp_cold_facts_t cf; /* how cold the runs of every point were */
} sweep_facts_t;

/* sweep_facts -- the facts above from the points of s. */
static void
sweep_facts (const lab_cmp_sweep_t *s, sweep_facts_t *f)
{
   size_t i, c;

   memset (f, 0, sizeof *f);
   f->first = f->last = SIZE_MAX;
   for (c = 0; c < LAB_RESULTS_MAX_LAYOUTS; c++) {
      f->famp_lo[c] = INFINITY;
      f->famp_hi[c] = -INFINITY;
   }
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      lab_cmp_results_t pr;
      lab_cmp_cold_facts_t pc;
      bool all_spread = p->elapsed[0].n >= 2, any_overlap = false;

      if (p->has_amplification[0]) {
         if (f->first == SIZE_MAX) {
            f->first = i;
         }
         f->last = i;
      }
      for (c = 1; c < s->nl; c++) {
         if (p->has_amplification[c]) {
            f->famp_lo[c] = fmin (f->famp_lo[c], p->read_amplification[c]);
            f->famp_hi[c] = fmax (f->famp_hi[c], p->read_amplification[c]);
         }
         all_spread = all_spread && p->elapsed[c].n >= 2;
         /* the one rule: a point where the runs cannot tell a candidate from the reference */
         any_overlap = any_overlap ||
                       lab_results_verdict (LAB_BETTER_LOWER, &p->elapsed[0], &p->elapsed[c], NULL).winner ==
                          LAB_WIN_TIE;
      }
      if (all_spread) {
         f->spread++;
         f->overlap += any_overlap;
      }
      point_as_results (p, &pr);
      pc = lab_cmp_gather_cold (&pr);
      f->cf.runs += pc.runs;
      f->cf.dropped += pc.dropped;
      f->cf.drop_known += pc.drop_known;
      if (pc.resident_known && (!f->cf.resident_known || pc.resident_max_pct > f->cf.resident_max_pct)) {
         f->cf.resident_max_pct = pc.resident_max_pct;
      }
      f->cf.resident_known = f->cf.resident_known || pc.resident_known;
   }
}

/* render_reread_line -- the sweep verdict's line on what the cache reread: the reference's engine read
 * amplification at the first and last point that has it, each candidate's range, and the points where
 * the OS page cache served the engine's rereads. */
static void
render_reread_line (bson_string_t *o, const lab_cmp_sweep_t *s, const sweep_facts_t *f)
{
   lab_cmp_sweep_t sc = *s; /* the same sweep, its lab_cmp_md_sw_text candidate set per candidate */
   size_t i, c;

   lab_cmp_md_sw_text (o, s, "- ");
   if (f->first == SIZE_MAX) {
      lab_cmp_md_sw_text (o, s,
                          "Read amplification could not be computed (no engine block read bytes in the "
                          "file).\n");
      return;
   }
   const lab_sweep_point_t *a = &s->p[f->first], *b = &s->p[f->last];
   lab_cmp_md_sw_text (o, s,
                       a->read_amplification[0] >= 2.0 ? "**The detail layout rereads its pages when the "
                                                         "cache cannot hold them**: the engine read "
                                                       : "The detail layout's engine read ");
   lab_cmp_md_number (o, LAB_CMP_FACTOR, a->read_amplification[0]);
   /* buffered reads: the engine's reads are not the disk's, so say the disk's beside them */
   lab_cmp_md_sw_text (o, s, a->buffered_io ? " its on-disk size at " : " its on-disk size from disk at ");
   lab_cmp_md_number (o, LAB_CMP_BINARY, a->cache_size_bytes);
   lab_cmp_md_sw_text (o, s, " (ratio ");
   lab_cmp_md_ratio (o, a->cache_ratio);
   md_disk_amp (o, a);
   lab_cmp_md_sw_text (o, s, ")");
   if (f->last != f->first) {
      lab_cmp_md_sw_text (o, s, " and ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, b->read_amplification[0]);
      lab_cmp_md_sw_text (o, s, " at ");
      lab_cmp_md_number (o, LAB_CMP_BINARY, b->cache_size_bytes);
      lab_cmp_md_sw_text (o, s, " (ratio ");
      lab_cmp_md_ratio (o, b->cache_ratio);
      md_disk_amp (o, b);
      lab_cmp_md_sw_text (o, s, ")");
   }
   for (c = 1; c < s->nl; c++) {
      if (f->famp_hi[c] >= f->famp_lo[c]) {
         sc.cand = c;
         lab_cmp_md_sw_text (o, &sc, "; the folded layout's engine read ");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, f->famp_lo[c]);
         if (f->famp_hi[c] > f->famp_lo[c]) {
            lab_cmp_md_sw_text (o, &sc, "–");
            lab_cmp_md_number (o, LAB_CMP_FACTOR, f->famp_hi[c]);
         }
         lab_cmp_md_sw_text (o, &sc, " its size");
      }
   }
   lab_cmp_md_sw_text (o, s, ".");
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      if (strcmp (lab_results_point_regime (p), LAB_RESULTS_REGIME_MEMORY) != 0) {
         continue;
      }
      lab_cmp_md_sw_text (o, s, " At ");
      lab_cmp_md_number (o, LAB_CMP_BINARY, p->cache_size_bytes);
      lab_cmp_md_sw_text (o, s, " (ratio ");
      lab_cmp_md_ratio (o, p->cache_ratio);
      lab_cmp_md_sw_text (o, s, ", **" LAB_RESULTS_REGIME_MEMORY "**) ");
      lab_cmp_md_engine_disk (o, p, s->names[0]);
      lab_cmp_md_sw_text (o, s,
                          " (reads without `--direct-io` go through the OS page cache: those rereads cost "
                          "copies and decompression, not disk reads).");
   }
   lab_cmp_md_sw_text (o, s, "\n");
}

/* render_sweep_cold_line -- the sweep verdict's line on how cold the runs were and what the load-time
 * ranges say. */
static void
render_sweep_cold_line (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s,
                        const sweep_facts_t *f)
{
   const lab_cmp_cold_facts_t *cf = &f->cf;
   bool cold_requested = false;

   lab_cmp_md_sw_text (o, s, "- ");
   lab_results_get_bool (&r->doc, "config.cold", &cold_requested);
   if (!cold_requested) {
      lab_cmp_md_sw_text (o, s,
                          "**Not a cold experiment** (scancmp ran without `--cold`): caches may have "
                          "served part of the data");
   } else if (cf->drop_known == cf->runs && cf->dropped == cf->runs) {
      lab_cmp_md_all_runs (o, cf->runs, true);
      bson_string_append_printf (o, " of the %zu points started with caches dropped", s->n);
      if (cf->resident_known) {
         bson_string_append_printf (o, " (at most %.1f%% of the data files resident)", cf->resident_max_pct);
      }
   } else {
      bson_string_append_printf (o, "**Caution**: caches were dropped before %d of the %d runs", cf->dropped,
                                 cf->runs);
   }
   if (f->spread == 0) {
      lab_cmp_md_sw_text (
         o, s,
         "; 1 run per point: no spread, every ratio is as measured (`--runs 3` gives each a 95% "
         "interval).\n");
   } else if (f->overlap == 0) {
      bson_string_append_printf (o, "; at %s the 95%% interval of the %s load-time ratio excludes 1.\n",
                                 f->spread == s->n ? "every point" : "every point with two runs or more",
                                 s->nl > 2 ? "reference's and each candidate's" : "two layouts'");
   } else {
      bson_string_append_printf (o,
                                 "; at %zu of %zu points with two runs or more the 95%% interval of the %s "
                                 "load-time ratio holds 1 (no difference the runs can tell there).\n",
                                 f->overlap, f->spread,
                                 s->nl > 2 ? "reference's and some candidate's" : "two layouts'");
   }
}

/* lab_cmp_render_sweep_verdict -- see render_private.h. */
void
lab_cmp_render_sweep_verdict (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s,
                              const lab_cmp_production_t *prod)
{
   size_t c;
   sweep_facts_t f;
   lab_cmp_match_t match;
   lab_cmp_sweep_t sc = *s; /* the same sweep, its lab_cmp_md_sw_text candidate set per line */
   char why[200];
   bool cold = lab_results_cold_check (&r->doc, NULL, why, sizeof why);

   sweep_facts (s, &f);
   lab_cmp_md_sw_text (o, s, "## Verdict\n\n");
   lab_cmp_match_of (r, &match);
   lab_cmp_render_match_verdict (o, r, &match);
   lab_cmp_render_trust_line (o, r);

   /* 1: the curve of every candidate, then (more than two layouts) the best one per point */
   for (c = 1; c < s->nl; c++) {
      sc.cand = c;
      render_curve_line (o, &sc, cold ? NULL : why);
      render_random_line (o, &sc);
   }
   if (s->nl > 2) {
      render_best_line (o, r, s);
   }
   render_noise_points (o, r, s);

   /* 2: what the cache reread */
   render_reread_line (o, s, &f);

   /* 3: production, per candidate */
   if (prod) {
      for (c = 1; c < s->nl; c++) {
         sc.cand = c;
         render_production_line (o, r, &sc, prod);
      }
   }

   /* 4: how cold, how consistent */
   render_sweep_cold_line (o, r, s, &f);

   /* 5: what the rest of the report shows */
   if (s->ref < s->n) {
      lab_cmp_md_sw_text (o, s,
                          "- The Comparison, Cold procedure and Per-run sections below show one point, "
                          "the sweep's reference (");
      lab_cmp_md_point (o, &s->p[s->ref]);
      lab_cmp_md_sw_text (o, s, ", ");
      bson_string_append (o, lab_results_point_regime (&s->p[s->ref]));
      lab_cmp_md_sw_text (o, s, ").\n");
   }
   lab_cmp_md_sw_text (o, s, "\n");
}

/* lab_cmp_sweep_json_append -- see cmp.h. */
void
lab_cmp_sweep_json_append (const lab_cmp_results_t *r, const lab_cmp_production_t *production, bson_t *out)
{
   static const char *const status[] = { "interpolated", "measured", "outside", "too_few" };
   lab_cmp_sweep_t s;
   bson_t arr, pt, ld, loc, pd, cands, cd;
   char key[16];
   size_t i, l;

   lab_cmp_sweep_load (r, &s);
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
               const lab_verdict_t *v = &p->speedup_verdict[l];
               BSON_APPEND_DOUBLE (&ld, "speedup", p->speedup_of[l]);
               /* what the rule rests on: the runs paired, and with two or more the speedup's 95% interval */
               BSON_APPEND_INT32 (&ld, "runs_paired", v->npairs);
               if (v->has_ci && v->lo > 0) {
                  bson_t ci;
                  BSON_APPEND_ARRAY_BEGIN (&ld, "speedup_ci_95", &ci);
                  BSON_APPEND_DOUBLE (&ci, "0", 1.0 / v->hi);
                  BSON_APPEND_DOUBLE (&ci, "1", 1.0 / v->lo);
                  bson_append_array_end (&ld, &ci);
               }
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
   lab_cmp_sweep_free (&s);
}
