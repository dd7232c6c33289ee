/*
 * table.c -- the comparison table printed when scancmp is done, rendered from the results document with
 * the metric catalogue and the cells of core/results.h: the same labels, medians, ratios and winners as
 * layout-report's Markdown table (which adds the runs' min–max to each value).
 */
#include "scan/scan.h"

#include "core/results.h"

#include <stdio.h>

/* Columns are separated by at least two spaces; no label or cell holds two spaces in a row, so scripts
 * and tests can split a line on them (scripts should read the JSON, though). */
#define ROW_FMT "%-36s  %16s  %16s  %9s  %s\n"

/* lab_scan_table_render -- see scan.h. */
char *
lab_scan_table_render (const bson_t *results)
{
   bson_string_t *s = bson_string_new (NULL);
   const lab_metric_t *m;
   double nruns = 0;
   size_t n, i;
   bool cold = false;

   lab_results_get_number (results, LAB_RESULTS_KEY_SUMMARY "." LAB_RESULTS_DETAIL "." LAB_RESULTS_KEY_NRUNS,
                           &nruns);
   lab_results_get_bool (results, "config.cold", &cold);
   bson_string_append_printf (s, "%s load of both layouts, %d run%s%s\n", cold ? "Cold" : "Warm", (int)nruns,
                              nruns == 1 ? "" : "s", nruns > 1 ? " (medians)" : "");
   bson_string_append_printf (s, ROW_FMT, "metric", "one doc per row", "folded", "ratio", "better");
   bson_string_append_printf (s, ROW_FMT, "------------------------------------", "----------------",
                              "----------------", "---------", "------");
   m = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_results_row_t row;
      lab_results_cells_t c;

      if (!lab_results_row (results, &m[i], &row)) {
         continue;
      }
      lab_results_row_cells (&row, false, &c);
      bson_string_append_printf (s, ROW_FMT, m[i].label, c.detail, c.folded, c.ratio, c.better);
      lab_results_cells_cleanup (&c);
   }
   bson_string_append (s, "ratio = folded / one doc per row; better: less time, fewer and larger read "
                          "requests, less memory;\nrates per second are descriptive (the totals decide); "
                          "same = within 2%; sizes SI (1 MB = 10^6 bytes); n/a = not measured\n");
   return bson_string_free (s, false);
}
