/*
 * results_trust.c -- whether a results file's figures may stand for what the report claims: mongod's
 * (the product that answered) and cold (how much of the data files were resident before each run). One
 * rule for scancmp's terminal and every section of the report that would put a speedup in bold.
 */
#include "results.h"

#include <stdio.h>
#include <string.h>

/* lab_results_product_warning -- see results.h. */
const char *
lab_results_product_warning (const char *product)
{
   if (!product || !strcmp (product, "embedded") || !strcmp (product, "mongod") ||
       !strcmp (product, "mongos")) {
      return NULL;
   }
   if (!strcmp (product, "ferretdb")) {
      return "these figures are not mongod's: the server is FerretDB, a different storage engine (SQLite "
             "here) with no WiredTiger cache, so its times say nothing about mongod's";
   }
   return "these figures may not be mongod's: the server did not say it is mongod (a MongoDB-compatible "
          "server stores and caches data its own way), so its times may say nothing about mongod's";
}

/* lab_results_product -- see results.h. */
const char *
lab_results_product (const bson_t *results)
{
   return lab_results_get_string (results, "backend.product");
}

/* run_cold -- one run's verdict by the rule of results.h: true when cold; else `why` says why not. */
static bool
run_cold (const bson_t *run, bool config_cold, double *pct, char *why, size_t len)
{
   bool requested = config_cold, dropped = false, engine = false, server = false, started = true;

   /* scancmp's own verdict where it wrote one: a server whose page cache was dropped but whose process
    * kept running holds the data in its own cache, however few pages of the files were resident */
   lab_results_get_bool (run, "cold.requested", &requested);
   if (requested && lab_results_get_bool (run, "cold.started_cold", &started) && !started) {
      const char *reason = lab_results_get_string (run, "cold.reason");
      if (!lab_results_get_number (run, "cold.resident_pct_before", pct)) {
         *pct = -1;
      }
      snprintf (why, len, "not cold: %s", reason ? reason : "scancmp did not record it as cold");
      return false;
   }
   if (lab_results_get_number (run, "cold.resident_pct_before", pct)) {
      if (*pct > LAB_RESULTS_COLD_MAX_RESIDENT_PCT) {
         snprintf (why, len, "not cold: %.1f%% of the data files were resident before the run", *pct);
         return false;
      }
      return true;
   }
   *pct = -1;
   lab_results_get_bool (run, "cold.requested", &requested);
   if (!requested) {
      snprintf (why, len, "not cold: scancmp ran without `--cold`");
      return false;
   }
   lab_results_get_bool (run, "cold.caches_dropped", &dropped);
   lab_results_get_bool (run, "cold.engine_restarted", &engine);
   lab_results_get_bool (run, "cold.server_restarted", &server);
   if (dropped && (engine || server)) {
      return true; /* the procedure ran in full; only its check is missing */
   }
   snprintf (why, len, "cold could not be established: the data files' residency was not measured and %s",
             !dropped ? "the page cache was not dropped" : "the server was not restarted");
   return false;
}

/* runs_cold -- run_cold over one runs[] array (`it` on it) of `layout`'s runs (NULL: all); the worst
 * reason kept in why as lab_results_cold_check says. */
static void
runs_cold (bson_iter_t *it, const char *layout, bool config_cold, bool *cold, double *worst, char *why,
           size_t len)
{
   bson_iter_t ai;
   double pct;
   char one[200];

   if (!BSON_ITER_HOLDS_ARRAY (it) || !bson_iter_recurse (it, &ai)) {
      return;
   }
   while (bson_iter_next (&ai)) {
      const uint8_t *data;
      uint32_t n;
      bson_t run;
      const char *l;

      if (!BSON_ITER_HOLDS_DOCUMENT (&ai)) {
         continue;
      }
      bson_iter_document (&ai, &n, &data);
      if (!bson_init_static (&run, data, n)) {
         continue;
      }
      l = lab_results_get_string (&run, LAB_RESULTS_KEY_LAYOUT);
      if (layout && (!l || strcmp (l, layout) != 0)) {
         continue;
      }
      if (!run_cold (&run, config_cold, &pct, one, sizeof one)) {
         /* the worst run speaks: the highest residency, else the first reason */
         if (*cold || pct > *worst) {
            bson_strncpy (why, one, len);
            *worst = pct;
         }
         *cold = false;
      }
   }
}

/* lab_results_cold_check -- see results.h. */
bool
lab_results_cold_check (const bson_t *results, const char *layout, char *why, size_t len)
{
   bson_iter_t it, pts, pit;
   bool config_cold = false, cold = true, predicted = false;
   double worst = -1;

   if (len) {
      why[0] = '\0';
   }
   if (lab_results_get_bool (results, "predicted", &predicted) && predicted) {
      return true; /* a prediction (scancmp --predict) loads nothing: no cold state to claim */
   }
   lab_results_get_bool (results, "config.cold", &config_cold);
   if (bson_iter_init_find (&it, results, LAB_RESULTS_KEY_RUNS)) {
      runs_cold (&it, layout, config_cold, &cold, &worst, why, len);
   }
   /* a sweep: every point's runs */
   if (bson_iter_init_find (&pts, results, "sweep") && BSON_ITER_HOLDS_ARRAY (&pts) &&
       bson_iter_recurse (&pts, &pts)) {
      while (bson_iter_next (&pts)) {
         if (BSON_ITER_HOLDS_DOCUMENT (&pts) && bson_iter_recurse (&pts, &pit) &&
             bson_iter_find (&pit, LAB_RESULTS_KEY_RUNS)) {
            runs_cold (&pit, layout, config_cold, &cold, &worst, why, len);
         }
      }
   }
   return cold;
}
