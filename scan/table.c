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
 * and tests can split a line on them (scripts should read the JSON, though). Per layout a value column,
 * then per layout other than the reference its ratio to the reference, then "better". */
#define LABEL_FMT "%-36s"
#define VALUE_FMT "  %16s"
#define RATIO_WIDTH 9 /* at least: "NAME/ref" headings widen their column */

/* layout_heading -- a layout's column heading: "one doc per row" for a two-layout file's detail. */
static const char *
layout_heading (const lab_results_layouts_t *ls, size_t i)
{
   return ls->n == 2 && strcmp (ls->l[i].name, LAB_RESULTS_DETAIL) == 0 ? "one doc per row" : ls->l[i].name;
}

/* append_line -- one line of the table: the label, n values, the ratios of the non-reference layouts
 * and `better` (no trailing spaces when it is empty). */
static void
append_line (bson_string_t *s, const lab_results_layouts_t *ls, const char *label, char *const *values,
             char *const *ratios, const char *better)
{
   size_t i;

   bson_string_append_printf (s, LABEL_FMT, label);
   for (i = 0; i < ls->n; i++) {
      bson_string_append_printf (s, VALUE_FMT, values[i]);
   }
   for (i = 0; i < ls->n; i++) {
      if (i != ls->reference) {
         size_t w = ls->n == 2 ? RATIO_WIDTH : strlen (ls->l[i].name) + 4;
         bson_string_append_printf (s, "  %*s", (int)(w < RATIO_WIDTH ? RATIO_WIDTH : w), ratios[i]);
      }
   }
   bson_string_append_printf (s, "  %s\n", better);
}

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
   lab_results_layouts_t ls;
   const lab_metric_t *m;
   char *heads[LAB_RESULTS_MAX_LAYOUTS], *rheads[LAB_RESULTS_MAX_LAYOUTS];
   char *rules[LAB_RESULTS_MAX_LAYOUTS], *rrules[LAB_RESULTS_MAX_LAYOUTS];
   char path[160];
   double nruns = 0;
   size_t n, i;
   bool cold = false, zero_ref = false;
   char *rule;

   lab_results_layouts (results, &ls);
   snprintf (path, sizeof path, LAB_RESULTS_KEY_SUMMARY ".%s." LAB_RESULTS_KEY_NRUNS,
             ls.l[ls.reference].name);
   lab_results_get_number (results, path, &nruns);
   lab_results_get_bool (results, "config.cold", &cold);
   if (ls.n == 2) {
      bson_string_append_printf (s, "%s load of both layouts, %d run%s%s\n", cold ? "Cold" : "Warm",
                                 (int)nruns, nruns == 1 ? "" : "s", nruns > 1 ? " (medians)" : "");
   } else {
      bson_string_append_printf (s, "%s load of %zu layouts, %d run%s%s\n", cold ? "Cold" : "Warm", ls.n,
                                 (int)nruns, nruns == 1 ? "" : "s", nruns > 1 ? " (medians)" : "");
   }
   for (i = 0; i < ls.n; i++) {
      heads[i] = bson_strdup (layout_heading (&ls, i));
      rheads[i] = ls.n == 2 ? bson_strdup ("ratio") : bson_strdup_printf ("%s/ref", ls.l[i].name);
      rules[i] = bson_strdup ("----------------");
      rrules[i] = bson_strndup ("------------------------------------------",
                                strlen (rheads[i]) < 9 ? 9 : strlen (rheads[i]));
   }
   append_line (s, &ls, "metric", heads, rheads, "better");
   append_line (s, &ls, "------------------------------------", rules, rrules, "------");
   for (i = 0; i < ls.n; i++) {
      bson_free (heads[i]);
      bson_free (rheads[i]);
      bson_free (rules[i]);
      bson_free (rrules[i]);
   }
   m = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_results_nrow_t row;
      lab_results_ncells_t c;

      if (!lab_results_nrow (results, &ls, &m[i], &row)) {
         continue;
      }
      lab_results_nrow_cells (&row, &ls, false, &c);
      append_line (s, &ls, m[i].label, c.value, c.ratio, c.better);
      zero_ref = zero_ref || (row.zero_ref && ls.n > 1);
      lab_results_ncells_cleanup (&c);
   }
   if (ls.n == 2 && strcmp (ls.l[ls.reference].name, LAB_RESULTS_DETAIL) == 0) {
      bson_string_append (s, "ratio = folded / one doc per row; ");
   } else {
      bson_string_append_printf (s, "ratio = layout / %s (the reference); ", ls.l[ls.reference].name);
   }
   rule = lab_results_same_rule (results);
   bson_string_append_printf (
      s,
      "better: less time, fewer and larger read requests, less memory;\nrates per "
      "second are descriptive (the totals decide);\nsame = %s;\nsizes SI (1 MB = 10^6 "
      "bytes); n/a = not measured%s\n",
      rule, zero_ref ? "; – = no ratio to a reference shown as zero" : "");
   bson_free (rule);
   append_deployment (s, results);
   return bson_string_free (s, false);
}
