/*
 * charts_sweep.c -- the sweep chart's data (lab_cmp_sweep_chart_plot): per layout the speedup and read
 * amplification against the cache ratio, the regimes either side of ratio 1, the production point, and a
 * prediction's curves beside the measured ones. Pure: charts.c turns it into a gnuplot script.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "core/cli.h"
#include "core/error.h"

/* lab_cmp_bold_colors -- see cmp.h: the first two are detail's and folded's as before, then a
 * colour-blind-safe sequence (Dark2). */
const char *const lab_cmp_bold_colors[LAB_RESULTS_MAX_LAYOUTS] = {
   "#d95f02", "#1b7e9e", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
};

/* regime_marks -- gnuplot commands for the measured regimes of points p[0..n) (ascending ratio): a dashed
 * line halfway (on the log scale) between neighbours whose regimes differ, and each run of points of one
 * regime labelled above its middle. */
static void
regime_marks (const lab_sweep_point_t *p, size_t n, bson_string_t *out)
{
   size_t i, start = 0;

   for (i = 1; i <= n; i++) {
      const char *prev = lab_results_point_regime (&p[i - 1]);
      if (i < n && strcmp (lab_results_point_regime (&p[i]), prev) == 0) {
         continue;
      }
      /* points start..i-1 share `prev`: its label at their middle */
      bson_string_append_printf (out,
                                 "set label '%s' at first %.6g, graph 0.95 center textcolor rgb '#555555'\n",
                                 prev, sqrt (p[start].cache_ratio * p[i - 1].cache_ratio));
      if (i < n) {
         bson_string_append_printf (
            out, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead dt 2 lw 1.5 lc rgb '#777777'\n",
            sqrt (p[i - 1].cache_ratio * p[i].cache_ratio), sqrt (p[i - 1].cache_ratio * p[i].cache_ratio));
      }
      start = i;
   }
}

/* measured_scale -- the measured file's ratio per byte of cache (1 / the detail layout's size on disk),
 * from its first point that has both; 0 when none has. */
static double
measured_scale (const bson_t *doc)
{
   size_t n = lab_results_sweep_n (doc), i;

   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;
      if (lab_results_sweep_point (doc, i, &p) && p.cache_ratio > 0 && p.cache_size_bytes > 0) {
         return p.cache_ratio / p.cache_size_bytes;
      }
   }
   return 0;
}

/* name_in -- the index of layout `name` in point q's sweep order, or -1. */
static int
name_in (const lab_sweep_point_t *q, const char *name)
{
   size_t k;

   for (k = 0; k < q->n; k++) {
      if (q->names[k] && name && strcmp (q->names[k], name) == 0) {
         return (int)k;
      }
   }
   return -1;
}

/* predicted_series -- predicted.dat and its series (see lab_cmp_sweep_chart_t): each predicted point at
 * its cache on the measured axis, a speedup column per candidate (the prediction's speedup of the layout
 * of the same name over the same reference) and an amplification column per layout; a series is drawn
 * only when its column has a figure, its plot command appended to `plot`. nl layouts, names[] in the
 * measured sweep order. */
static void
predicted_series (const lab_cmp_results_t *pred, const lab_cmp_results_t *r, const char *const *names,
                  size_t nl, const lab_results_layouts_t *ls, lab_cmp_sweep_chart_t *chart,
                  bson_string_t *plot)
{
   size_t n = lab_results_sweep_n (&pred->doc), i, c, l;
   double scale = measured_scale (&r->doc), xlo = INFINITY, xhi = -INFINITY;
   double ylo = INFINITY, yhi = -INFINITY;
   bool has[1 + 2 * LAB_RESULTS_MAX_LAYOUTS] = { false };

   chart->predicted = bson_string_new (NULL);
   for (i = 0; i < n; i++) {
      lab_sweep_point_t q;
      double x;
      if (!lab_results_sweep_point (&pred->doc, i, &q)) {
         continue;
      }
      x = scale > 0 && q.cache_size_bytes > 0 ? q.cache_size_bytes * scale : q.cache_ratio;
      if (!(x > 0)) {
         continue;
      }
      xlo = fmin (xlo, x);
      xhi = fmax (xhi, x);
      bson_string_append_printf (chart->predicted, "%.6g", x);
      for (c = 1; c < nl; c++) {
         int k = name_in (&q, names[c]);
         bool ok = k >= 1 && name_in (&q, names[0]) == 0 && q.has_speedup_of[k] && q.speedup_of[k] > 0;
         if (ok) {
            ylo = fmin (ylo, q.speedup_of[k]);
            yhi = fmax (yhi, q.speedup_of[k]);
            has[c] = true;
         }
         bson_string_append_printf (chart->predicted, " %.6g", ok ? q.speedup_of[k] : NAN);
      }
      for (l = 0; l < nl; l++) {
         int k = name_in (&q, names[l]);
         bool ok = k >= 0 && q.has_amplification[k] && q.read_amplification[k] > 0;
         if (ok) {
            ylo = fmin (ylo, q.read_amplification[k]);
            yhi = fmax (yhi, q.read_amplification[k]);
            has[nl + l] = true;
         }
         bson_string_append_printf (chart->predicted, " %.6g", ok ? q.read_amplification[k] : NAN);
      }
      bson_string_append (chart->predicted, "\n");
      chart->n_predicted_points++;
   }
   /* the same colours as the measured series, dash-dotted with hollow marks */
   for (c = 1; c < nl; c++) {
      int fi = lab_results_layout_find (ls, names[c]);
      if (!has[c]) {
         continue;
      }
      bson_string_append_printf (
         plot,
         ", \\\n     'predicted.dat' using 1:%zu with linespoints lw 2 dt (10,4,2,4) pt 6 ps "
         "1.0 lc rgb '%s' title \"speedup (%s load time ÷ %s), predicted\" noenhanced",
         c + 1, nl == 2 ? "#333333" : lab_cmp_bold_colors[fi < 0 ? 0 : fi], names[0], names[c]);
      chart->n_predicted++;
   }
   for (l = 0; l < nl; l++) {
      int fi = lab_results_layout_find (ls, names[l]);
      if (!has[nl + l]) {
         continue;
      }
      bson_string_append_printf (
         plot,
         ", \\\n     'predicted.dat' using 1:%zu with linespoints lw 1.5 dt (10,4,2,4) pt 4 ps "
         "0.9 lc rgb '%s' title \"read amplification, %s, predicted\" noenhanced",
         1 + nl + l, lab_cmp_bold_colors[fi < 0 ? 0 : fi], names[l]);
      chart->n_predicted++;
   }
   if (chart->n_predicted > 0) {
      /* the axes take the predicted points in only when something of them is drawn */
      chart->xmin = fmin (chart->xmin, xlo);
      chart->xmax = fmax (chart->xmax, xhi);
      chart->ymin = fmin (chart->ymin, ylo);
      chart->ymax = fmax (chart->ymax, yhi);
   }
}

/* lab_cmp_sweep_chart_plot -- see cmp.h. */
size_t
lab_cmp_sweep_chart_plot (const lab_cmp_results_t *r, const lab_cmp_production_t *production,
                          const lab_cmp_results_t *prediction, lab_cmp_sweep_chart_t *chart)
{
   const char *measured = "";
   bson_string_t *predicted_plot = NULL;
   size_t n = lab_results_sweep_n (&r->doc), i, l, c, nl, col;
   bool random[LAB_RESULTS_MAX_LAYOUTS] = { false }, any_random = false;
   const char *names[LAB_RESULTS_MAX_LAYOUTS];
   lab_results_layouts_t ls;
   lab_sweep_point_t *p;

   memset (chart, 0, sizeof *chart);
   chart->xmin = chart->xmax = 1.0;
   chart->ymin = INFINITY;
   chart->ymax = -INFINITY;
   if (n == 0) {
      return 0;
   }
   nl = lab_results_sweep_order (&r->doc, &ls, names);
   chart->data = bson_string_new (NULL);
   chart->plot = bson_string_new (NULL);
   chart->production = bson_string_new (NULL);
   chart->regimes = bson_string_new (NULL);
   if (prediction) {
      predicted_plot = bson_string_new (NULL);
      predicted_series (prediction, r, names, nl, &ls, chart, predicted_plot);
      /* with a prediction drawn, the measured series say so */
      measured = chart->n_predicted > 0 ? ", measured" : "";
   }
   p = bson_malloc0 (n * sizeof *p);
   for (i = 0; i < n; i++) {
      lab_results_sweep_point (&r->doc, i, &p[i]);
      for (c = 1; c < p[i].n && c < nl; c++) {
         any_random = any_random || p[i].has_speedup_random[c];
      }
   }
   for (i = 0; i < n; i++) {
      char *cache;
      if (!(p[i].cache_ratio > 0)) {
         continue;
      }
      chart->xmin = fmin (chart->xmin, p[i].cache_ratio);
      chart->xmax = fmax (chart->xmax, p[i].cache_ratio);
      /* ratio, each candidate's speedup, each layout's amplification, the cache size (nan: missing, or not
       * drawable on a log scale) */
      bson_string_append_printf (chart->data, "%.6g", p[i].cache_ratio);
      for (c = 1; c < nl; c++) {
         bool ok = p[i].has_speedup_of[c] && p[i].speedup_of[c] > 0;
         if (ok) {
            chart->ymin = fmin (chart->ymin, p[i].speedup_of[c]);
            chart->ymax = fmax (chart->ymax, p[i].speedup_of[c]);
         }
         bson_string_append_printf (chart->data, " %.6g", ok ? p[i].speedup_of[c] : NAN);
      }
      for (l = 0; l < nl; l++) {
         bool ok = p[i].has_amplification[l] && p[i].read_amplification[l] > 0;
         if (ok) {
            chart->ymin = fmin (chart->ymin, p[i].read_amplification[l]);
            chart->ymax = fmax (chart->ymax, p[i].read_amplification[l]);
         }
         bson_string_append_printf (chart->data, " %.6g", ok ? p[i].read_amplification[l] : NAN);
      }
      cache = lab_results_format_binary (p[i].cache_size_bytes);
      bson_string_append_printf (chart->data, " \"%s\"", cache);
      bson_free (cache);
      /* --load-order both: each candidate's random-order speedup, after the cache size */
      for (c = 1; any_random && c < nl; c++) {
         bool ok = p[i].has_speedup_random[c] && p[i].speedup_random[c] > 0;
         if (ok) {
            chart->ymin = fmin (chart->ymin, p[i].speedup_random[c]);
            chart->ymax = fmax (chart->ymax, p[i].speedup_random[c]);
         }
         random[c] = random[c] || ok;
         bson_string_append_printf (chart->data, " %.6g", ok ? p[i].speedup_random[c] : NAN);
      }
      bson_string_append (chart->data, "\n");
   }
   regime_marks (p, n, chart->regimes);
   bson_free (p);

   /* the speedups (the first one labelled at each point, the cache sizes under it), then the
    * amplifications dashed, each in its layout's colour (two layouts: detail's and folded's as before) */
   col = 2 + (nl - 1) + nl; /* the cache size column */
   for (c = 1; c < nl; c++) {
      int fi = lab_results_layout_find (&ls, names[c]);
      bson_string_append_printf (
         chart->plot,
         "%s using 1:%zu with linespoints lw 3 pt 7 ps 1.0 lc rgb '%s' title "
         "\"speedup (%s load time ÷ %s, %s order)%s\" noenhanced, \\\n"
         "     '' using 1:%zu:(sprintf('%%.3gx', $%zu)) with labels offset 0,1.1 notitle",
         c == 1 ? "'sweep.dat'" : ", \\\n     ''", c + 1,
         nl == 2 ? "#333333" : lab_cmp_bold_colors[fi < 0 ? 0 : fi], names[0], names[c],
         lab_results_load_order (&r->doc), measured, c + 1, c + 1);
      if (c == 1) {
         bson_string_append_printf (
            chart->plot,
            ", \\\n     '' using 1:(YLAB):%zu with labels textcolor rgb '#777777' font 'sans,9' "
            "notitle",
            col);
      }
   }
   for (l = 0; l < nl; l++) {
      int fi = lab_results_layout_find (&ls, names[l]);
      bson_string_append_printf (chart->plot,
                                 ", \\\n     '' using 1:%zu with linespoints lw 2 dt 2 pt 5 ps 0.9 lc "
                                 "rgb '%s' title \"read amplification, %s%s\" noenhanced",
                                 1 + nl + l, lab_cmp_bold_colors[fi < 0 ? 0 : fi], names[l], measured);
   }
   for (c = 1; c < nl; c++) {
      int fi = lab_results_layout_find (&ls, names[c]);
      if (random[c]) {
         bson_string_append_printf (chart->plot,
                                    ", \\\n     '' using 1:%zu with linespoints lw 2 dt 3 pt 9 ps 1.0 lc rgb "
                                    "'%s' title \"speedup (%s load time ÷ %s, random order)\" noenhanced",
                                    col + c, nl == 2 ? "#333333" : lab_cmp_bold_colors[fi < 0 ? 0 : fi],
                                    names[0], names[c]);
      }
   }
   chart->n_speedup = nl - 1;
   chart->n_amplification = nl;
   if (predicted_plot) {
      bson_string_append (chart->plot, predicted_plot->str);
      bson_string_free (predicted_plot, true);
   }
   if (production) {
      for (c = 1; c < nl; c++) {
         lab_estimate_t e = lab_cmp_sweep_estimate_of (r, production, c);
         if (e.status == LAB_ESTIMATE_INTERPOLATED || e.status == LAB_ESTIMATE_MEASURED) {
            bson_string_append_printf (chart->production, "%.6g %.6g\n", production->ratio, e.speedup);
            chart->ymin = fmin (chart->ymin, e.speedup);
            chart->ymax = fmax (chart->ymax, e.speedup);
         }
      }
   }
   return n;
}

/* lab_cmp_sweep_chart_cleanup -- see cmp.h. */
void
lab_cmp_sweep_chart_cleanup (lab_cmp_sweep_chart_t *chart)
{
   if (chart->data) {
      bson_string_free (chart->data, true);
   }
   if (chart->plot) {
      bson_string_free (chart->plot, true);
   }
   if (chart->production) {
      bson_string_free (chart->production, true);
   }
   if (chart->regimes) {
      bson_string_free (chart->regimes, true);
   }
   if (chart->predicted) {
      bson_string_free (chart->predicted, true);
   }
   memset (chart, 0, sizeof *chart);
}
