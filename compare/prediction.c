/*
 * prediction.c -- the report's section "Predicted beside measured" (issue 26): a results file written by
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

/* app_probe -- one sentence on what the probe read and cost. */
static void
app_probe (bson_string_t *o, const bson_t *doc)
{
   double s = 0, walk = -1, docs = 0, masters = 0;
   const char *coll = lab_results_get_string (doc, "prediction.source_collection");

   lab_results_get_number (doc, "prediction.probe.elapsed_s", &s);
   lab_results_get_number (doc, "prediction.probe.documents_fetched", &docs);
   lab_results_get_number (doc, "prediction.probe.masters", &masters);
   bson_string_append (o, "The probe of ");
   lab_cmp_app_esc (o, coll ? coll : "the detail collection");
   bson_string_append_printf (o, " walked %.0f masters' index entries in %.2f s", masters, s);
   if (lab_results_get_number (doc, "prediction.probe.index_walk_read_bytes", &walk) && walk >= 0) {
      bson_string_append_printf (o, ", reading %.1f MiB of index from disk", walk / 1048576.0);
   }
   bson_string_append_printf (o, ", and fetched %.0f documents", docs);
   if (lab_results_get_number (doc, "prediction.timing.documents", &docs)) {
      bson_string_append_printf (o, " (the timed sample then loaded %.0f, cold and warm)", docs);
   }
   bson_string_append (o, ".\n\n");
}

/* point_of -- the point of `doc` with the same cache size as `cache` (or a ratio within 1%); -1: none. */
static int
point_of (const bson_t *doc, const lab_sweep_point_t *want)
{
   size_t n = lab_results_sweep_n (doc), i;

   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;
      if (lab_results_sweep_point (doc, i, &p) &&
          (p.cache_size_bytes == want->cache_size_bytes ||
           fabs (p.cache_ratio - want->cache_ratio) <= 0.01 * want->cache_ratio)) {
         return (int)i;
      }
   }
   return -1;
}

/* app_pair -- "| predicted | measured | error |" cells of one figure (error in percent of the measured,
 * or as a factor for a speedup). */
static void
app_pair (bson_string_t *o, bool hp, double p, bool hm, double m, bool factor)
{
   bson_string_append_printf (o, hp ? " %.2f |" : " n/a |", p);
   bson_string_append_printf (o, hm ? " %.2f |" : " n/a |", m);
   if (hp && hm && m > 0) {
      if (factor) {
         bson_string_append_printf (o, " %.2fx |", p / m);
      } else {
         bson_string_append_printf (o, " %+.0f%% |", 100 * (p - m) / m);
      }
   } else {
      bson_string_append (o, " n/a |");
   }
}

/* app_row -- one table row: measured point m beside predicted point p. */
static void
app_row (bson_string_t *o, const lab_sweep_point_t *m, const lab_sweep_point_t *p)
{
   bson_string_append_printf (o, "| %.1f MiB | %.2f |", m->cache_size_bytes / 1048576.0, m->cache_ratio);
   app_pair (o, p->has_amplification[0], p->read_amplification[0], m->has_amplification[0],
             m->read_amplification[0], false);
   app_pair (o, p->has_amplification[1], p->read_amplification[1], m->has_amplification[1],
             m->read_amplification[1], false);
   app_pair (o, p->has_speedup, p->speedup, m->has_speedup, m->speedup, true);
   bson_string_append (o, "\n");
}

/* lab_cmp_render_predicted_note -- see cmp.h. */
void
lab_cmp_render_predicted_note (bson_string_t *o, const lab_cmp_results_t *r)
{
   if (!is_predicted (&r->doc)) {
      return;
   }
   bson_string_append (o, "## This is a prediction\n\nEvery figure of this report comes from `scancmp "
                          "--predict`, not from a load (nothing was made cold, no cache dropped: the notes "
                          "below on runs and cold procedure do not apply): LRU stack distances over the page "
                          "accesses the parallel load would make, from where the rows lie (their RecordIds) "
                          "and how big they are; the folded layout's from the rows' sizes. ");
   app_probe (o, &r->doc);
}

/* lab_cmp_render_prediction -- see cmp.h. */
void
lab_cmp_render_prediction (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *pred)
{
   size_t n, i, shown = 0;
   lab_sweep_point_t m, p;
   int k;

   if (!pred) {
      return;
   }
   bson_string_append (o, "## Predicted beside measured\n\n");
   bson_string_append (o, "The prediction `");
   lab_cmp_app_esc (o, pred->name);
   bson_string_append (o, "` (made before folding, from the detail collection alone) against this file's "
                          "measured points of the same cache. Error = (predicted - measured) / measured; "
                          "for the speedup, predicted / measured.\n\n");
   app_probe (o, &pred->doc);
   bson_string_append (o,
                       "| engine cache | ratio | detail read amp predicted | measured | error | folded "
                       "read amp predicted | measured | error | speedup predicted | measured | factor |\n");
   bson_string_append (o, "|---|---|---|---|---|---|---|---|---|---|---|\n");
   n = lab_results_sweep_n (&r->doc);
   if (n == 0) {
      /* a single-point file: its one point */
      lab_results_top_point (&r->doc, &m);
      if ((k = point_of (&pred->doc, &m)) >= 0 && lab_results_sweep_point (&pred->doc, (size_t)k, &p)) {
         app_row (o, &m, &p);
         shown++;
      }
   }
   for (i = 0; i < n; i++) {
      if (lab_results_sweep_point (&r->doc, i, &m) && (k = point_of (&pred->doc, &m)) >= 0 &&
          lab_results_sweep_point (&pred->doc, (size_t)k, &p)) {
         app_row (o, &m, &p);
         shown++;
      }
   }
   if (shown == 0) {
      bson_string_append (o, "\nNo point of the prediction has the cache of a measured point: predict with "
                             "the same --cache-ratios or --cache-sizes as the measurement.\n");
   }
   bson_string_append (o, "\n");
}
