/*
 * results_order.c -- the load's order in the results model (results.h): which order the headline load
 * took (config.load_order: key, random or both), the one way every renderer names a load ("load (key
 * order)"), and the random-order load a file measured beside the headline (the workloads' "load_random").
 * Files written before the option existed loaded contiguous segments of the sorted keys: key order.
 */
#include "core/results.h"

#include <stdio.h>
#include <string.h>

/* lab_results_load_order -- see results.h. */
const char *
lab_results_load_order (const bson_t *results)
{
   const char *o = lab_results_get_string (results, "config.load_order");

   return o && strcmp (o, "random") == 0 ? "random" : "key";
}

/* lab_results_workload_label -- see results.h. */
void
lab_results_workload_label (const char *workload, const char *load_order, char *buf, size_t len)
{
   const char *order = load_order && *load_order ? load_order : "key";

   if (strcmp (workload, "load_random") == 0) {
      snprintf (buf, len, "load (random order)");
   } else if (strcmp (workload, "load") == 0 || strcmp (workload, "load_after_writes") == 0) {
      snprintf (buf, len, "%s (%s order)", workload, order);
   } else {
      snprintf (buf, len, "%s", workload);
   }
}

/* lab_results_load_random_elapsed -- see results.h: workloads[k] with workload "load_random", its layout. */
bool
lab_results_load_random_elapsed (const bson_t *doc, const char *layout, double *elapsed_s, lab_stat_t *stat)
{
   char path[160];
   const char *wn, *ln;
   size_t k, l;

   for (k = 0; k < 64; k++) {
      snprintf (path, sizeof path, "workloads.%zu.workload", k);
      if (!(wn = lab_results_get_string (doc, path))) {
         return false;
      }
      if (strcmp (wn, "load_random") != 0) {
         continue;
      }
      for (l = 0; l < LAB_RESULTS_MAX_LAYOUTS; l++) {
         snprintf (path, sizeof path, "workloads.%zu.layouts.%zu.layout", k, l);
         if (!(ln = lab_results_get_string (doc, path))) {
            return false;
         }
         if (strcmp (ln, layout) == 0) {
            double v[LAB_RESULTS_MAX_RUNS], no;
            int runno[LAB_RESULTS_MAX_RUNS];
            size_t r;
            snprintf (path, sizeof path, "workloads.%zu.layouts.%zu.elapsed_s", k, l);
            if (!lab_results_get_number (doc, path, elapsed_s) || !(*elapsed_s > 0)) {
               return false;
            }
            /* its runs, for the one rule's paired ratio (none recorded: the figure as one run) */
            for (r = 0; r < LAB_RESULTS_MAX_RUNS; r++) {
               snprintf (path, sizeof path, "workloads.%zu.layouts.%zu.runs.%zu.elapsed_s", k, l, r);
               if (!lab_results_get_number (doc, path, &v[r])) {
                  break;
               }
               snprintf (path, sizeof path, "workloads.%zu.layouts.%zu.runs.%zu.run", k, l, r);
               runno[r] = lab_results_get_number (doc, path, &no) ? (int)no : 0;
            }
            if (stat) {
               *stat = r ? lab_results_stat_runs (v, runno, r) : lab_results_stat_runs (elapsed_s, NULL, 1);
            }
            return true;
         }
      }
      return false;
   }
   return false;
}
