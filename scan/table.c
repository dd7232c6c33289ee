/*
 * table.c -- the comparison table printed when scancmp is done, rendered from the results document with
 * the metric catalogue and the cells of core/results.h: the same labels, medians, ratios and winners as
 * layout-report's Markdown table (which adds the runs' min–max to each value).
 */
#include "scan/scan.h"

#include "core/results.h"

#include <stdio.h>
#include <string.h>

/* Columns are separated by at least two spaces; no label or cell holds two spaces in a row, so scripts
 * and tests can split a line on them (scripts should read the JSON, though). */
#define ROW_FMT "%-36s  %16s  %16s  %9s  %s\n"

/* append_deployment -- the topology and where the disk figures come from, when recorded. */
static void
append_deployment (bson_string_t *s, const bson_t *results)
{
   const char *kind =
      lab_results_get_string (results, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_KIND);
   const char *src =
      lab_results_get_string (results, LAB_RESULTS_KEY_DISK_SOURCE "." LAB_RESULTS_KEY_DISK_SOURCE_SOURCE);
   const char *v;
   char path[64];
   int i;

   if (kind) {
      bson_string_append_printf (s, "topology: %s", kind);
      v = lab_results_get_string (results, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_SET_NAME);
      if (v && *v) {
         bson_string_append_printf (s, ", set %s", v);
      }
      v = lab_results_get_string (results, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_MEMBER);
      if (v && *v) {
         bson_string_append_printf (s, ", member %s", v);
      }
      for (i = 0; i < 64; i++) {
         snprintf (path, sizeof path, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_SHARDS ".%d.name",
                   i);
         if (!(v = lab_results_get_string (results, path))) {
            break;
         }
         bson_string_append_printf (s, "%s%s", i == 0 ? ", shards: " : ", ", v);
      }
      bson_string_append (s, "\n");
      v = lab_results_get_string (results, LAB_RESULTS_KEY_TOPOLOGY "." LAB_RESULTS_KEY_TOPOLOGY_NOTE);
      if (v && strcmp (kind, "standalone") != 0) {
         bson_string_append_printf (s, "  %s\n", v);
      }
   }
   if (src) {
      v = lab_results_get_string (results, LAB_RESULTS_KEY_DISK_SOURCE ".device");
      bson_string_append_printf (s, "disk figures: %s%s%s (%s)\n", src, v ? ", device " : "", v ? v : "",
                                 lab_results_get_string (results, LAB_RESULTS_KEY_DISK_SOURCE ".reason"));
      v = lab_results_get_string (results, LAB_RESULTS_KEY_DISK_SOURCE ".local_device");
      if (v) {
         bson_string_append_printf (s, "  the table's device figures: this machine's /proc/diskstats of %s\n",
                                    v);
      }
      for (i = 0; i < 64; i++) {
         const char *dev, *why;
         snprintf (path, sizeof path,
                   LAB_RESULTS_KEY_RUNS ".0." LAB_RESULTS_KEY_SERVER_DISK ".servers.%d.name", i);
         if (!(v = lab_results_get_string (results, path))) {
            break;
         }
         snprintf (path, sizeof path,
                   LAB_RESULTS_KEY_RUNS ".0." LAB_RESULTS_KEY_SERVER_DISK ".servers.%d.device", i);
         dev = lab_results_get_string (results, path);
         snprintf (path, sizeof path,
                   LAB_RESULTS_KEY_RUNS ".0." LAB_RESULTS_KEY_SERVER_DISK ".servers.%d.device_reason", i);
         why = lab_results_get_string (results, path);
         bson_string_append_printf (s, "  server disk (FTDC) of %s: %s (%s)\n", v, dev ? dev : "?",
                                    why ? why : "");
      }
   }
}

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
   append_deployment (s, results);
   return bson_string_free (s, false);
}
