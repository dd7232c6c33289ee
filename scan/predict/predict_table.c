/*
 * predict_table.c -- the terminal view of a predicted results file (predict.h): what the probe read, the
 * cache sweep's table of the predicted points, and with a sample its error point by point.
 */
#include "scan/predict/predict_private.h"
#include "scan/predict/predict_cands.h"
#include "scan/predict/predict_wl.h"

#include "core/results.h"
#include "scan/measure/measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* any_band -- whether a predicted point states a band (a layout's read_amplification_held). */
static bool
any_band (const bson_t *results)
{
   static const char *const layouts[] = { "detail", "folded" };
   size_t n = lab_results_sweep_n (results), i, k;
   char path[96];
   double v;

   for (i = 0; i < n; i++) {
      for (k = 0; k < sizeof layouts / sizeof layouts[0]; k++) {
         snprintf (path, sizeof path, "sweep.%zu.%s.read_amplification_held", i, layouts[k]);
         if (lab_results_get_number (results, path, &v)) {
            return true;
         }
      }
   }
   return false;
}

/* lab_scan_predict_table_render -- see predict.h. */
char *
lab_scan_predict_table_render (const bson_t *results)
{
   bson_string_t *s = bson_string_new (NULL);
   char *sweep = lab_scan_sweep_table_render (results);
   const char *coll = lab_results_get_string (results, "prediction.source_collection");
   double v, docs = 0, walk = 0;

   lab_results_get_number (results, "prediction.probe.documents_fetched", &docs);
   bson_string_append_printf (s, "\nPREDICTED from a read-only probe of %s (nothing folded, nothing loaded)",
                              coll ? coll : "the detail collection");
   if (lab_results_get_number (results, "prediction.probe.elapsed_s", &v)) {
      bson_string_append_printf (s, ": %.2f s", v);
   }
   if (lab_results_get_number (results, "prediction.probe.index_walk_read_bytes", &walk)) {
      bson_string_append_printf (s, ", %.1f MiB of index read", walk / 1048576.0);
   }
   bson_string_append_printf (s, ", %.0f documents fetched\n", docs);
   if (sweep) {
      bson_string_append (s, sweep);
      bson_free (sweep);
   }
   {
      char *cands = lab_scan_predict_cands_table (results);
      bson_string_append (s, cands);
      bson_free (cands);
   }
   lab_scan_predict_wl_render (results, s);
   if (lab_results_get_number (results, "prediction.sample.fraction", &v)) {
      /* --sample: each figure's sampling error, point by point */
      size_t n = lab_results_sweep_n (results), i;
      double m = 0;
      lab_results_get_number (results, "prediction.sample.masters", &m);
      bson_string_append_printf (s,
                                 "Sampled %.3g%% of the masters (%.0f, by a hash of the key); read "
                                 "amplification ± its sampling error:",
                                 v * 100, m);
      for (i = 0; i < n; i++) {
         char path[96];
         double r = 0, a[2] = { 0, 0 }, e[2] = { 0, 0 };
         int l;
         snprintf (path, sizeof path, "sweep.%zu.cache_ratio", i);
         lab_results_get_number (results, path, &r);
         for (l = 0; l < 2; l++) {
            const char *name = l == 0 ? LAB_RESULTS_DETAIL : LAB_RESULTS_FOLDED;
            snprintf (path, sizeof path, "sweep.%zu.%s.read_amplification", i, name);
            lab_results_get_number (results, path, &a[l]);
            snprintf (path, sizeof path, "sweep.%zu.%s.read_amplification_sampling_error", i, name);
            lab_results_get_number (results, path, &e[l]);
         }
         bson_string_append_printf (s, "%s ratio %.2f: detail %.3g ± %.2g, folded %.3g ± %.2g", i ? ";" : "",
                                    r, a[0], e[0], a[1], e[1]);
      }
      bson_string_append (s, "\n");
      {
         /* the knee in cache, the quantity a DBA sizes by: the sample's and where its jackknife moves it */
         double kr = 0, sr = 0;
         if (lab_results_sample_knee (results, &sr, &kr)) {
            bson_string_append_printf (s,
                                       "The detail layout's knee (the cache where it first reads at most "
                                       "twice the fitting reads): ratio %.2f in the sample; the jackknife of "
                                       "its cache moves it to %.2f, and each ± above covers the figure at "
                                       "the cache so moved.\n",
                                       sr, kr);
         }
      }
      if (lab_results_get_string (results, "prediction.sample.warning")) {
         bson_string_append_printf (s, "Warning: %s.\n",
                                    lab_results_get_string (results, "prediction.sample.warning"));
      }
   }
   if (lab_results_get_string (results, "prediction.model.band_warning") && any_band (results)) {
      bson_string_append_printf (s, "Warning: %s.\n",
                                 lab_results_get_string (results, "prediction.model.band_warning"));
   }
   if (!lab_scan_predict_speed_render (results, s) &&
       !lab_results_get_number (results, "prediction.timing.doc_s", &v)) {
      bson_string_append (s, "Load times and speedups need the embedded store (the probe times its reads); "
                             "read amplification needs nothing more.\n");
   }
   return bson_string_free (s, false);
}
