/*
 * prediction.c -- the report's section "Predicted beside measured": a results file written by
 * `scancmp --predict` (marked "predicted": true) says what its figures are and what the probe cost; given
 * with `layout-report run.json --prediction pred.json`, each point of the measured sweep gets the
 * predicted read amplification of both layouts (and the speedup when the prediction was timed) beside
 * the measured one, with the error per point.
 */
#include "compare/cmp.h"

#include <math.h>
#include <string.h>

/* is_predicted -- the file says it is a prediction. */
static bool
is_predicted (const bson_t *doc)
{
   bool v = false;
   return lab_results_get_bool (doc, "predicted", &v) && v;
}

/* md_probe -- one sentence on what the probe read and cost: its time, the index bytes its walk read,
 * the collection's pages its leaf count read, and the documents it fetched. */
static void
md_probe (bson_string_t *o, const bson_t *doc)
{
   double s = 0, walk = -1, walk_s = -1, leaf = -1, leaf_s = -1, docs = 0, masters = 0, frac = 1, sampled = 0;
   const char *coll = lab_results_get_string (doc, "prediction.source_collection");
   bool has_walk = lab_results_get_number (doc, "prediction.probe.index_walk_read_bytes", &walk) && walk >= 0;
   bool has_leaf = lab_results_get_number (doc, "prediction.probe.leaf_count_read_bytes", &leaf) && leaf > 0;

   lab_results_get_number (doc, "prediction.probe.elapsed_s", &s);
   lab_results_get_number (doc, "prediction.probe.documents_fetched", &docs);
   lab_results_get_number (doc, "prediction.probe.masters", &masters);
   bson_string_append (o, "The probe of ");
   lab_cmp_md_text (o, coll ? coll : "the detail collection");
   bson_string_append_printf (o, " took %.2f s: it walked %.0f masters' index entries", s, masters);
   if (lab_results_get_number (doc, "prediction.probe.index_walk_s", &walk_s) || has_walk) {
      bson_string_append (o, " (");
      if (walk_s >= 0) {
         bson_string_append_printf (o, "%.2f s%s", walk_s, has_walk ? ", " : "");
      }
      if (has_walk) {
         bson_string_append_printf (o, "%.1f MiB of index read from disk", walk / 1048576.0);
      }
      bson_string_append (o, ")");
   }
   if (has_leaf) {
      /* the engine's leaf page count walks the collection's tree: pages come in, no document goes out */
      bson_string_append (o, ", counted the collection's leaf pages (");
      if (lab_results_get_number (doc, "prediction.probe.leaf_count_s", &leaf_s)) {
         bson_string_append_printf (o, "%.2f s, ", leaf_s);
      }
      bson_string_append_printf (o, "%.1f MiB of its pages read, no document returned)", leaf / 1048576.0);
   }
   bson_string_append_printf (o, " and fetched %.0f documents", docs);
   if (lab_results_get_number (doc, "prediction.sample.fraction", &frac)) {
      lab_results_get_number (doc, "prediction.sample.masters", &sampled);
      bson_string_append_printf (
         o,
         "; it read the RecordIds of a sample of %.3g%% of the masters (%.0f, chosen by "
         "a hash of the key), so each predicted read amplification is an estimate "
         "(± its sampling error: the jackknife's, the sample split four ways)",
         frac * 100, sampled);
      {
         /* the knee in cache, what a cache is sized by: a thin sample's lies at smaller caches */
         double ks = 0, kw = 0;
         if (lab_results_sample_knee (doc, &ks, &kw)) {
            bson_string_append_printf (o,
                                       "; the detail layout's knee (the cache where it first reads at most "
                                       "twice its fitting reads) lies at cache ratio %.2f in the sample, "
                                       "the same jackknife of its cache moves it to %.2f, and each error "
                                       "covers the figure read at the cache so moved",
                                       ks, kw);
         }
      }
      if (lab_results_get_string (doc, "prediction.sample.warning")) {
         bson_string_append (o, " (**");
         lab_cmp_md_text (o, lab_results_get_string (doc, "prediction.sample.warning"));
         bson_string_append (o, "**)");
      }
   }
   if (lab_results_get_number (doc, "prediction.timing.documents", &docs)) {
      bson_string_append_printf (o, " (the timed sample then loaded %.0f, cold and warm)", docs);
   }
   if (lab_results_get_string (doc, "prediction.cost.source")) {
      /* the load time's figures (scan/predict/predict_cost.h): no --calibrate needed */
      bson_string_append (o, "; the load times and speedups from cost figures ");
      lab_cmp_md_text (o, lab_results_get_string (doc, "prediction.cost.source"));
   }
   bson_string_append (o, ".\n\n");
}

/* Caches closer than this share are the same cache (a size written through a double may lose a byte). */
#define SAME_CACHE 1e-6

/* point_of -- the point of `doc` with the cache size of `want`; -1: none. By size only: a ratio's
 * denominator is each file's own detail size (measured, or as the probe predicts it), so two points of one
 * ratio can be caches a tenth apart, whose read amplifications have different denominators. */
static int
point_of (const bson_t *doc, const lab_sweep_point_t *want)
{
   size_t n = lab_results_sweep_n (doc), i;

   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;
      if (lab_results_sweep_point (doc, i, &p) &&
          fabs (p.cache_size_bytes - want->cache_size_bytes) <= SAME_CACHE * want->cache_size_bytes) {
         return (int)i;
      }
   }
   return -1;
}

/* The largest error of the rows shown, and where. */
typedef struct {
   double err; /* largest |relative error| of the engine bytes read (-1: none) */
   double p, m, signed_err;
   int runs;          /* the measured figure's runs, */
   double m_lo, m_hi; /* their fewest and most bytes */
   const char *layout;
   int at; /* the measured point's index (-1: the file's single point) */
   double cache, ratio;
   double sp_dev; /* the speedup factor furthest from 1, as |log| (-1: none) */
   double sp_factor, sp_cache;
   bool band; /* a row showed a band ("A to B") */
} worst_t;

/* band_cell -- one cell of a prediction's band, "lo to hi" (`scale` > 1: one decimal, of lo / scale and
 * hi / scale; else two); a band whose edges show the same is shown as the one figure. */
static void
band_cell (bson_string_t *o, double lo, double hi, double scale)
{
   char a[32], b[32];

   snprintf (a, sizeof a, scale > 1 ? "%.1f" : "%.2f", lo / scale);
   snprintf (b, sizeof b, scale > 1 ? "%.1f" : "%.2f", hi / scale);
   if (strcmp (a, b) != 0) {
      bson_string_append_printf (o, " %s to %s |", a, b);
   } else {
      bson_string_append_printf (o, " %s |", a);
   }
}

/* md_pair -- "| predicted | measured | error |" cells of one figure (error in percent of the measured,
 * or as a factor for a speedup; `scale` divides both figures as shown; `lo`, `edge` >= 0 the edges of the
 * prediction's band, shown "lo to edge", a missing edge the figure p, the error still the figure's; `runs`
 * (may be NULL) the measured figure's runs: more than one that differ, their range follows the median); the
 * error is also returned in *err (NAN: none). */
static void
md_pair (bson_string_t *o, bool hp, double p, double lo, double edge, bool hm, double m,
         const lab_stat_t *runs, bool factor, double scale, double *err)
{
   *err = NAN;
   if (hp && (lo >= 0 || edge >= 0)) {
      band_cell (o, lo >= 0 ? lo : p, edge >= 0 ? edge : p, scale);
   } else if (hp) {
      bson_string_append_printf (o, scale > 1 ? " %.1f |" : " %.2f |", p / scale);
   } else {
      bson_string_append (o, " n/a |");
   }
   if (hm && runs && runs->n > 1 && runs->max > runs->min) {
      /* the engine's own spread: at the knee one point's runs can differ several times over */
      bson_string_append_printf (o, scale > 1 ? " %.1f (runs %.1f to %.1f) |" : " %.2f (runs %.2f to %.2f) |",
                                 m / scale, runs->min / scale, runs->max / scale);
   } else if (hm) {
      bson_string_append_printf (o, scale > 1 ? " %.1f |" : " %.2f |", m / scale);
   } else {
      bson_string_append (o, " n/a |");
   }
   if (hp && hm && m > 0) {
      if (factor) {
         *err = p / m;
         bson_string_append_printf (o, " %.2fx |", *err);
      } else {
         *err = (p - m) / m;
         bson_string_append_printf (o, " %+.0f%% |", 100 * *err);
      }
   } else {
      bson_string_append (o, " n/a |");
   }
}

/* read_bytes -- the engine's bytes read from disk into its cache by `layout` at point `pt` (the median of
 * its runs: engine.block_read_bytes), *runs (may be NULL) all of its runs; false when the point does not
 * have it. */
static bool
read_bytes (const lab_sweep_point_t *pt, const char *layout, double *v, lab_stat_t *runs)
{
   lab_stat_t s;

   if (!layout) {
      return false;
   }
   s = lab_results_metric_stat (&pt->doc, layout, &lab_results_block_read_bytes);
   *v = s.median;
   if (runs) {
      *runs = s;
   }
   return s.present;
}

/* md_row -- one table row: measured point m (index `at` of the measured sweep, -1 a single point)
 * beside predicted point p, of the same cache, the speedup of load order `order`; per layout the engine bytes
 * read (the error) and the read amplifications beside them; the largest errors so far in *w. */
static void
md_row (bson_string_t *o, const lab_sweep_point_t *m, const lab_sweep_point_t *p, int at, const char *order,
        worst_t *w)
{
   double err, pb = 0, mb = 0;
   int l;

   bson_string_append_printf (o, "| %.1f MiB | %.2f |", m->cache_size_bytes / 1048576.0, m->cache_ratio);
   for (l = 0; l < 2; l++) {
      const char *pn = p->names[l] ? p->names[l] : (l == 0 ? "detail" : "folded");
      double se = -1;
      char path[64];
      lab_stat_t runs = { 0 };
      bool hp = read_bytes (p, p->names[l], &pb, NULL), hm = read_bytes (m, m->names[l], &mb, &runs);
      double held = -1, edge = -1;
      snprintf (path, sizeof path, "%s.read_amplification_held", pn);
      if (hp && p->has_amplification[l] && p->read_amplification[l] > 0 &&
          lab_results_get_number (&p->doc, path, &held)) {
         edge = pb * held / p->read_amplification[l]; /* the band: the layout's held edge */
         w->band = true;
      }
      md_pair (o, hp, pb, -1, edge, hm, mb, &runs, false, 1048576.0, &err);
      if (!isnan (err) && fabs (err) > w->err) {
         w->err = fabs (err);
         w->signed_err = err;
         w->p = pb;
         w->m = mb;
         w->runs = runs.n;
         w->m_lo = runs.min;
         w->m_hi = runs.max;
         w->layout = m->names[l] ? m->names[l] : pn;
         w->at = at;
         w->cache = m->cache_size_bytes;
         w->ratio = m->cache_ratio;
      }
      snprintf (path, sizeof path, "%s.read_amplification_sampling_error", pn);
      if (!lab_results_get_number (&p->doc, path, &se)) {
         se = -1;
      }
      if (p->has_amplification[l] && se >= 0) {
         bson_string_append_printf (o, " %.2f ± %.2f |", p->read_amplification[l], se);
      } else if (p->has_amplification[l] && edge >= 0) {
         band_cell (o, p->read_amplification[l], held, 1);
      } else {
         bson_string_append_printf (o, p->has_amplification[l] ? " %.2f |" : " n/a |",
                                    p->read_amplification[l]);
      }
      bson_string_append_printf (o, m->has_amplification[l] ? " %.2f |" : " n/a |", m->read_amplification[l]);
   }
   {
      char path[64];
      double edge = -1, lo = -1;
      /* the speedup's band: the detail layout's held edge raises it, the folded layout's lowers it */
      snprintf (path, sizeof path, "speed.%s.speedup_held", order);
      if (!p->has_speedup || !lab_results_get_number (&p->doc, path, &edge)) {
         edge = -1;
      }
      snprintf (path, sizeof path, "speed.%s.speedup_low", order);
      if (!p->has_speedup || !lab_results_get_number (&p->doc, path, &lo)) {
         lo = -1;
      }
      md_pair (o, p->has_speedup, p->speedup, lo, edge, m->has_speedup, m->speedup, NULL, true, 1, &err);
   }
   if (!isnan (err) && err > 0 && fabs (log (err)) > w->sp_dev) {
      w->sp_dev = fabs (log (err));
      w->sp_factor = err;
      w->sp_cache = m->cache_size_bytes;
   }
   bson_string_append (o, "\n");
}

/* knee_of -- whether measured point `at` of `doc` is next to the knee of the curve: a neighbour measured
 * in another regime (lab_results_point_regime: rereads, fits in cache, ...); *other gets that neighbour's
 * regime and *other_cache its cache. */
static bool
knee_of (const bson_t *doc, int at, const char **here, const char **other, double *other_cache)
{
   size_t n = lab_results_sweep_n (doc);
   lab_sweep_point_t p, q;
   int d;

   if (at < 0 || (size_t)at >= n || !lab_results_sweep_point (doc, (size_t)at, &p)) {
      return false;
   }
   *here = lab_results_point_regime (&p);
   for (d = 1; d >= -1; d -= 2) {
      int k = at + d;
      if (k >= 0 && (size_t)k < n && lab_results_sweep_point (doc, (size_t)k, &q) &&
          strcmp (lab_results_point_regime (&q), *here) != 0) {
         *other = lab_results_point_regime (&q);
         *other_cache = q.cache_size_bytes;
         return true;
      }
   }
   return false;
}

/* md_worst -- the sentence under the table: the largest read amplification error and where (near the
 * knee of the curve when it is), and the speedup furthest from the measured one. */
static void
md_worst (bson_string_t *o, const lab_cmp_results_t *r, const worst_t *w)
{
   const char *here = NULL, *other = NULL;
   double other_cache = 0;

   if (w->err < 0 && w->sp_dev < 0) {
      return;
   }
   bson_string_append (o, "\n");
   if (w->err >= 0) {
      bson_string_append (o, "The largest error is the ");
      lab_cmp_md_text (o, w->layout);
      bson_string_append_printf (o,
                                 " layout's engine bytes read at %.1f MiB (ratio %.2f): %.1f MiB predicted "
                                 "against %.1f MiB measured, %+.0f%%",
                                 w->cache / 1048576.0, w->ratio, w->p / 1048576.0, w->m / 1048576.0,
                                 100 * w->signed_err);
      if (w->runs > 1 && w->m_hi > w->m_lo) {
         /* the error is to the median; whether the figure lies among the runs is the other half */
         bson_string_append_printf (o, " (its %d runs read %.1f to %.1f MiB: the figure lies %s them)",
                                    w->runs, w->m_lo / 1048576.0, w->m_hi / 1048576.0,
                                    w->p < w->m_lo ? "under" : (w->p > w->m_hi ? "over" : "among"));
      }
      if (knee_of (&r->doc, w->at, &here, &other, &other_cache)) {
         bson_string_append_printf (
            o,
            ", near the knee of the curve (measured: %s here, %s at %.1f MiB), where a "
            "few percent of the cache's capacity decide between reading the data once "
            "and rereading it",
            here, other, other_cache / 1048576.0);
      }
   }
   if (w->sp_dev >= 0) {
      bson_string_append_printf (o, "%s speedup is furthest off at %.1f MiB: %.2fx the measured",
                                 w->err >= 0 ? "; the" : "The", w->sp_cache / 1048576.0, w->sp_factor);
   }
   bson_string_append (o, ".\n");
}

/* lab_cmp_render_predicted_note -- see cmp.h. */
void
lab_cmp_render_predicted_note (bson_string_t *o, const lab_cmp_results_t *r)
{
   if (!is_predicted (&r->doc)) {
      return;
   }
   bson_string_append (o, "## This is a prediction\n\nEvery figure of this report comes from scancmp's "
                          "`--predict`, not from a load (nothing was made cold, no cache dropped: the notes "
                          "below on runs and cold procedure do not apply): LRU stack distances over the page "
                          "accesses the parallel load would make, from where the rows lie (their RecordIds) "
                          "and how big they are; the folded layout's from the rows' sizes. ");
   md_probe (o, &r->doc);
}

/* folded_first -- point m (of results `doc`) with its first folded layout in slot [1], where md_row reads
 * the measured "folded" figures: with more candidates (sorted, clustered, buckets) the file's second layout
 * need not be the folded one the prediction predicts. Unchanged when [1] is folded or none is. */
static void
folded_first (const bson_t *doc, lab_sweep_point_t *m)
{
   lab_results_layouts_t ls;
   size_t l, k;

   lab_results_layouts (doc, &ls);
   for (l = 0; l < ls.n; l++) {
      if (lab_layout_one_doc_per_master (&ls.l[l].desc)) {
         break;
      }
   }
   if (l == ls.n) {
      return;
   }
   for (k = 1; k < m->n; k++) {
      if (m->names[k] && strcmp (m->names[k], ls.l[l].name) == 0) {
         break;
      }
   }
   if (k == m->n || k == 1) {
      return;
   }
   m->names[1] = m->names[k];
   m->has_amplification[1] = m->has_amplification[k];
   m->read_amplification[1] = m->read_amplification[k];
   m->has_speedup = m->has_speedup_of[k];
   m->speedup = m->speedup_of[k];
}

/* md_caches -- "a, b and c MiB": the caches of `doc`'s points (its single point when it has no sweep). */
static void
md_caches (bson_string_t *o, const bson_t *doc)
{
   size_t n = lab_results_sweep_n (doc), i;
   lab_sweep_point_t p;

   if (n == 0) {
      lab_results_top_point (doc, &p);
      bson_string_append_printf (o, "%.1f MiB", p.cache_size_bytes / 1048576.0);
      return;
   }
   for (i = 0; i < n; i++) {
      if (lab_results_sweep_point (doc, i, &p)) {
         bson_string_append_printf (o, "%s%.0f",
                                    i == 0       ? ""
                                    : i + 1 == n ? " and "
                                                 : ", ",
                                    p.cache_size_bytes);
      }
   }
   bson_string_append (o, " bytes");
}

/* md_unpaired -- what to say when `missing` measured points have no predicted point of their cache: the
 * two files' caches, and how to predict at the measured ones (never a pairing by ratio). */
static void
md_unpaired (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *pred, size_t missing,
             size_t shown)
{
   if (missing == 0) {
      return;
   }
   bson_string_append_printf (o,
                              "\n%s%zu measured point%s no predicted point of the same cache size: the "
                              "prediction's caches are ",
                              shown == 0 ? "No point is paired: " : "", missing,
                              missing == 1 ? " has" : "s have");
   md_caches (o, &pred->doc);
   bson_string_append (o, ", the measured ones ");
   md_caches (o, &r->doc);
   bson_string_append (o, ". Points are not paired by cache ratio (each file's ratio divides by its own "
                          "detail size, so one ratio can be two caches); predict at the measured sizes: "
                          "`scancmp --predict --cache-sizes` with the measured sweep's sizes (`jq -r "
                          "'[.sweep[].cache_size_bytes] | join(\",\")'` of the measured file).\n");
}

/* speed_in_order -- the predicted point's speedup for the measured file's load order (its "speed" per order),
 * where the prediction has it: a random-order sweep is set beside the random order's prediction. */
static void
speed_in_order (const bson_t *meas, lab_sweep_point_t *p)
{
   char path[64];
   double v;

   snprintf (path, sizeof path, "speed.%s.speedup", lab_results_load_order (meas));
   if (lab_results_get_number (&p->doc, path, &v)) {
      p->has_speedup = true;
      p->speedup = v;
   }
}

/* lab_cmp_render_prediction -- see cmp.h. */
void
lab_cmp_render_prediction (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *pred)
{
   size_t n, i, shown = 0, missing = 0;
   lab_sweep_point_t m, p;
   worst_t w = { .err = -1, .sp_dev = -1, .at = -1 };
   bson_string_t *rows;
   int k;

   if (!pred) {
      return;
   }
   rows = bson_string_new (NULL);
   bson_string_append (o, "## Predicted beside measured\n\n");
   bson_string_append (o, "The prediction `");
   lab_cmp_md_text (o, pred->name);
   bson_string_append (
      o,
      "` (made before folding, from the detail collection alone) against this file's "
      "measured points of the same cache size. Error = (predicted - measured) / measured "
      "of the engine's bytes read from disk into its cache (MiB, the median of the runs: "
      "the read amplification's numerator, free of its denominator, which each file takes "
      "from its own sizes; with more than one run, their fewest to most bytes beside the median); the read "
      "amplifications beside them; for the speedup, predicted / measured.\n\n");
   md_probe (o, &pred->doc);
   n = lab_results_sweep_n (&r->doc);
   if (n == 0) {
      /* a single-point file: its one point */
      lab_results_top_point (&r->doc, &m);
      folded_first (&r->doc, &m);
      if ((k = point_of (&pred->doc, &m)) >= 0 && lab_results_sweep_point (&pred->doc, (size_t)k, &p)) {
         speed_in_order (&r->doc, &p);
         md_row (rows, &m, &p, -1, lab_results_load_order (&r->doc), &w);
         shown++;
      } else {
         missing++;
      }
   }
   for (i = 0; i < n; i++) {
      if (!lab_results_sweep_point (&r->doc, i, &m)) {
         continue;
      }
      if ((k = point_of (&pred->doc, &m)) >= 0 && lab_results_sweep_point (&pred->doc, (size_t)k, &p)) {
         folded_first (&r->doc, &m);
         speed_in_order (&r->doc, &p);
         md_row (rows, &m, &p, (int)i, lab_results_load_order (&r->doc), &w);
         shown++;
      } else {
         missing++;
      }
   }
   if (shown > 0) {
      bson_string_append (o,
                          "| engine cache | ratio | detail MiB read predicted | measured | error | detail "
                          "read amp predicted | measured | folded MiB read predicted | measured | error | "
                          "folded read amp predicted | measured | speedup predicted | measured | factor |\n");
      bson_string_append (o, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
      bson_string_append (o, rows->str);
      if (w.band) {
         bson_string_append (o,
                             "\n\"A to B\" is a band: a layout reads its figure when WiredTiger's eviction "
                             "threads keep up and the band's other edge when its readers' own \"no keep\" "
                             "evictions hold the cache under the trigger and nothing wakes the threads (from "
                             "run to run; the detail layout of a load not in order, at 1.5-2x the file on "
                             "disk; the folded layout of a load in order whose pages hold several documents, "
                             "near its size in memory). The detail layout's edge raises the speedup, the "
                             "folded layout's lowers it; the error is the figure's.\n");
         if (lab_results_get_string (&pred->doc, "prediction.model.band_warning")) {
            bson_string_append_printf (o, "\nNote: %s.\n",
                                       lab_results_get_string (&pred->doc, "prediction.model.band_warning"));
         }
      }
   }
   bson_string_free (rows, true);
   md_unpaired (o, r, pred, missing, shown);
   if (shown > 0) {
      md_worst (o, r, &w);
   }
   lab_cmp_render_prediction_wl (o, r, pred);
   lab_cmp_render_prediction_cands (o, r, pred);
   bson_string_append (o, "\n");
}
