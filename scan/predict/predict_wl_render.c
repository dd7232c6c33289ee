/*
 * predict_wl_render.c -- the terminal lines of a predicted file's "workload_reads" (predict_wl.h): each
 * point's range and aggregate figures, and under a sampled range line the layouts whose figure carries a
 * sample_warning.
 */
#include "scan/predict/predict_wl.h"

#include "core/results.h"

#include <stdio.h>

/* render_warned -- under a sampled range line, the layouts whose figure carries a sample_warning. */
static void
render_warned (const bson_t *results, size_t i, int k, bson_string_t *s)
{
   char path[128];
   bool any = false;
   int l;

   for (l = 0; l < LAB_PREDICT_WL_LAYOUTS; l++) {
      const char *name;
      snprintf (path, sizeof path, "sweep.%zu.workload_reads.%d.layouts.%d.sample_warning", i, k, l);
      if (!lab_results_get_string (results, path)) {
         continue;
      }
      snprintf (path, sizeof path, "sweep.%zu.workload_reads.%d.layouts.%d.layout", i, k, l);
      name = lab_results_get_string (results, path);
      bson_string_append_printf (s, "%s%s",
                                 any ? ", "
                                     : "                         the sample saw under 3/4 of the "
                                       "pages of ",
                                 name ? name : "?");
      any = true;
   }
   if (any) {
      bson_string_append (s, ": likely off by more than the sampling error (a larger --sample)\n");
   }
}

/* lab_scan_predict_wl_render -- see predict_wl.h. */
void
lab_scan_predict_wl_render (const bson_t *results, bson_string_t *s)
{
   size_t n = lab_results_sweep_n (results), i;
   bool head = false;
   int k;

   for (i = 0; i < n; i++) {
      char path[128];
      double cache = 0;
      snprintf (path, sizeof path, "sweep.%zu.cache_size_bytes", i);
      lab_results_get_number (results, path, &cache);
      for (k = 0; k < 2; k++) {
         const char *wl, *why;
         double b[2] = { -1, -1 };
         int l;
         snprintf (path, sizeof path, "sweep.%zu.workload_reads.%d.workload", i, k);
         if (!(wl = lab_results_get_string (results, path))) {
            continue;
         }
         if (!head) {
            bson_string_append (s, "Range and aggregate workloads, engine MiB read cold (predicted):\n");
            head = true;
         }
         snprintf (path, sizeof path, "sweep.%zu.workload_reads.%d.not_predicted", i, k);
         if ((why = lab_results_get_string (results, path))) {
            bson_string_append_printf (s, "  %9.1f MiB  %-9s not predicted: %s\n", cache / 1048576.0, wl,
                                       why);
            continue;
         }
         for (l = 0; l < 2; l++) {
            snprintf (path, sizeof path, "sweep.%zu.workload_reads.%d.layouts.%d.engine_read_bytes", i, k, l);
            lab_results_get_number (results, path, &b[l]);
         }
         bson_string_append_printf (s, "  %9.1f MiB  %-9s detail %9.2f  folded %9.2f\n", cache / 1048576.0,
                                    wl, b[0] / 1048576.0, b[1] / 1048576.0);
         render_warned (results, i, k, s);
      }
   }
}
