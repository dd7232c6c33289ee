/*
 * cold_facts.c -- the cold verdict and what else ran, as every entry besides the load's runs records them
 * (workloads[].layouts[], the mix's layouts: measure.h), and the per-row disk bytes with their source.
 * The runs' own entries are record.c's.
 */
#include "scan/measure/measure.h"

#include <math.h>
#include <string.h>

/* lab_scan_wl_cold_append -- see measure.h. */
void
lab_scan_wl_cold_append (bson_t *d, bool cold, const char *reason, int64_t engine_cache_before,
                         const lab_scan_background_t *bg)
{
   if (!cold && reason && reason[0]) {
      BSON_APPEND_UTF8 (d, "cold_reason", reason);
   }
   if (engine_cache_before >= 0) {
      BSON_APPEND_INT64 (d, "engine_cache_bytes_before", engine_cache_before);
   }
   if (bg) {
      lab_scan_bg_append (d, bg);
   }
}

/* lab_scan_wl_per_row_append -- see measure.h. */
void
lab_scan_wl_per_row_append (bson_t *d, int64_t engine_bytes, int64_t device_bytes, int64_t rows)
{
   BSON_APPEND_UTF8 (d, "disk_bytes_per_row_source",
                     engine_bytes >= 0   ? "engine"
                     : device_bytes >= 0 ? "device"
                                         : "none");
   BSON_APPEND_DOUBLE (d, "device_bytes_per_row",
                       rows > 0 && device_bytes >= 0 ? round ((double)device_bytes / (double)rows * 10) / 10
                                                     : -1);
}

/* lab_scan_runs_cold_of -- see measure.h. */
bool
lab_scan_runs_cold_of (const bson_t *results, const char *layout, char *reason, size_t len)
{
   bson_iter_t it, runs, f;
   bool cold = true, any = false;

   reason[0] = '\0';
   if (!bson_iter_init_find (&it, results, "runs") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &runs)) {
      return false;
   }
   while (bson_iter_next (&runs)) {
      bson_iter_t e;
      const char *name = NULL;
      if (!BSON_ITER_HOLDS_DOCUMENT (&runs) || !bson_iter_recurse (&runs, &e) ||
          !bson_iter_find (&e, "layout") || !BSON_ITER_HOLDS_UTF8 (&e) ||
          strcmp ((name = bson_iter_utf8 (&e, NULL)), layout) != 0 || !bson_iter_recurse (&runs, &e)) {
         continue;
      }
      any = true;
      if (bson_iter_find_descendant (&e, "cold.started_cold", &f) && BSON_ITER_HOLDS_BOOL (&f) &&
          bson_iter_bool (&f)) {
         continue;
      }
      if (cold && bson_iter_recurse (&runs, &e) && bson_iter_find_descendant (&e, "cold.reason", &f) &&
          BSON_ITER_HOLDS_UTF8 (&f)) {
         bson_strncpy (reason, bson_iter_utf8 (&f, NULL), len);
      }
      cold = false;
   }
   return any && cold;
}
