/*
 * render_wl_sweep.c -- the workloads across a cache sweep: when every point of a sweep carries
 * its own "workloads", one table with a row per cache and a column per workload, each cell the winner and
 * by how much, so the reader sees at which caches folding's losses and wins change. The ledger above it
 * is the reference point's.
 */
#include "compare/render_private.h"

/* cell -- "folded 3.10x (1 run: no spread)" of one workload at one point: its winner by the one rule. */
static void
cell (bson_string_t *o, const lab_cmp_workload_t *w)
{
   lab_cmp_md_wl_winner (o, w);
   if (w->rows_equal == 0) {
      bson_string_append (o, " (rows differ)");
   }
}

/* lab_cmp_render_workloads_sweep -- see render_private.h. */
void
lab_cmp_render_workloads_sweep (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *sw,
                                const lab_cmp_workloads_t *ref)
{
   lab_cmp_workloads_t *pts;
   bson_error_t error;
   size_t i, k;
   bool all = sw && sw->n > 1 && ref->n > 0;

   if (!all) {
      return;
   }
   pts = bson_malloc0 (sw->n * sizeof *pts);
   for (i = 0; i < sw->n && all; i++) {
      char where[64];
      bson_snprintf (where, sizeof where, "%s sweep[%zu]", r->name, i);
      all = lab_cmp_workloads_of (&sw->p[i].doc, where, &pts[i], &error) && pts[i].n > 0;
   }
   if (all) {
      bson_string_append (
         o, "### The workloads at each cache\n\nEach workload's winner at each point of the sweep, "
            "and the runner-up's time over the winner's (the ledger above is the reference "
            "point's).\n\n| engine cache | ratio |");
      for (k = 0; k < ref->n; k++) {
         bson_string_append (o, " ");
         lab_cmp_md_text (o, ref->w[k].label);
         bson_string_append (o, " |");
      }
      bson_string_append (o, "\n|--:|--:|");
      for (k = 0; k < ref->n; k++) {
         bson_string_append (o, "---|");
      }
      bson_string_append (o, "\n");
      for (i = 0; i < sw->n; i++) {
         bson_string_append (o, "| ");
         lab_cmp_md_number (o, LAB_CMP_BINARY, sw->p[i].cache_size_bytes);
         bson_string_append (o, " | ");
         if (sw->p[i].cache_ratio > 0) {
            lab_cmp_md_ratio (o, sw->p[i].cache_ratio);
         } else {
            bson_string_append (o, "n/a");
         }
         bson_string_append (o, " |");
         for (k = 0; k < ref->n; k++) {
            const lab_cmp_workload_t *w = lab_cmp_workload_find (&pts[i], ref->w[k].workload);
            bson_string_append (o, " ");
            if (w) {
               cell (o, w);
            } else {
               bson_string_append (o, "n/a");
            }
            bson_string_append (o, " |");
         }
         bson_string_append (o, "\n");
      }
      bson_string_append (o, "\n");
   }
   for (i = 0; i < sw->n; i++) {
      lab_cmp_workloads_cleanup (&pts[i]);
   }
   bson_free (pts);
}
