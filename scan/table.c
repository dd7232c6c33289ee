/*
 * table.c -- the terminal tables printed when scancmp is done, rendered from the results document: the
 * comparison table, with the metric catalogue and the cells of core/results.h (the same labels, medians,
 * ratios and winners as layout-report's Markdown table, which adds the runs' min–max to each value), and
 * for a cache sweep the sweep table, one line per point.
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

/* append_trust -- what the table's figures cannot claim: mongod's (another product answered), or a cold
 * load (core/results.h, lab_results_cold_check). */
static void
append_trust (bson_string_t *s, const bson_t *results)
{
   const char *product = lab_results_product (results);
   const char *warn = lab_results_product_warning (product);
   char why[200];

   if (warn) {
      bson_string_append_printf (s, "server: %s -- %s\n", product, warn);
   }
   if (!lab_results_cold_check (results, NULL, why, sizeof why)) {
      bson_string_append_printf (s, "cold: %s -- the ratios are not a cold load's\n", why);
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
      "second are descriptive (the totals decide);\nthe rule: %s;\nsizes SI (1 MB = 10^6 "
      "bytes); n/a = not measured%s\n",
      rule, zero_ref ? "; – = no ratio to a reference shown as zero" : "");
   bson_free (rule);
   bson_string_append_printf (
      s, "load order: %s\n",
      strcmp (lab_results_load_order (results), "random") == 0
         ? "random (the keys shuffled by --seed, dealt round-robin to the workers)"
         : "key (each worker a contiguous segment of the sorted keys, as the original batch loaders)");
   append_deployment (s, results);
   append_trust (s, results);
   return bson_string_free (s, false);
}

/* ---- the sweep table ----------------------------------------------------------------------------- */

#define SWEEP_FMT "%12s  %7s  %-*s  %11s  %11s  %12s  %10s  %10s  %13s%s\n"
/* the same without the locality column (said once under the table when it is the same at every point) */
#define SWEEP_FMT_NOLOC "%12s  %7s  %-*s  %11s  %11s  %12s  %10s  %10s%s%s\n"

/* any_random -- some point of the sweep has a random-order load beside its headline (--load-order both). */
static bool
any_random (const bson_t *results, size_t n)
{
   lab_sweep_point_t p;
   size_t i, l;

   for (i = 0; i < n; i++) {
      for (l = 1; lab_results_sweep_point (results, i, &p) && l < p.n; l++) {
         if (p.has_speedup_random[l]) {
            return true;
         }
      }
   }
   return false;
}

/* random_lines -- with more than two layouts, each point's random-order speedups under the table. */
static void
random_lines (bson_string_t *s, const bson_t *results, size_t n)
{
   lab_sweep_point_t p;
   size_t i, l;

   if (!any_random (results, n)) {
      return;
   }
   bson_string_append (s, "speedup in random order (the reference's random-order load / the layout's):\n");
   for (i = 0; i < n; i++) {
      if (!lab_results_sweep_point (results, i, &p)) {
         continue;
      }
      bson_string_append_printf (s, "  %.1f MiB:", p.cache_size_bytes / 1048576.0);
      for (l = 1; l < p.n; l++) {
         if (p.has_speedup_random[l]) {
            bson_string_append_printf (s, "%s %s %.2fx", l > 1 ? "," : "", p.names[l], p.speedup_random[l]);
         } else {
            bson_string_append_printf (s, "%s %s n/a", l > 1 ? "," : "", p.names[l]);
         }
      }
      bson_string_append (s, "\n");
   }
}

/* regime_width -- the regime column's width: 13 ("fits in cache"), wider when a point's regime is. */
static int
regime_width (const bson_t *results, size_t n)
{
   size_t i, w = 13;

   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;
      if (lab_results_sweep_point (results, i, &p) && strlen (lab_results_point_regime (&p)) > w) {
         w = strlen (lab_results_point_regime (&p));
      }
   }
   return (int)w;
}

/* buffered_note -- for a sweep read without --direct-io, what the engine's read amplification does not
 * say: per point the reference layout's engine and disk read amplifications, and where the page cache
 * held what the engine cache reread (the "fits in memory" regime). Nothing for --direct-io. */
static void
buffered_note (bson_string_t *s, const bson_t *results, size_t n, const char *ref)
{
   bool any = false;
   size_t i;

   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;

      if (!lab_results_sweep_point (results, i, &p) || !p.buffered_io || !p.has_amplification[0] ||
          !p.has_disk_amplification[0]) {
         continue;
      }
      if (!any) {
         bson_string_append_printf (
            s,
            "Read without --direct-io (an engine cache miss the OS page cache holds costs no "
            "disk read), the %s layout's\nread amp by the engine and by the disk (the "
            "device's bytes read during its load / its size on disk):\n",
            ref);
         any = true;
      }
      bson_string_append_printf (s, "  %.1f MiB, %s: ", p.cache_size_bytes / 1048576.0,
                                 lab_results_point_regime (&p));
      lab_results_app_engine_disk (s, &p, ref);
      bson_string_append (s, "\n");
   }
}

/* fmt_num -- v with 3 significant digits and a suffix, or "n/a". */
static void
fmt_num (char *buf, size_t len, bool have, double v, const char *suffix)
{
   if (!have) {
      snprintf (buf, len, "n/a");
   } else if (v >= 100) {
      snprintf (buf, len, "%.0f%s", v, suffix);
   } else {
      snprintf (buf, len, "%.3g%s", v, suffix);
   }
}

/* locality_once -- when every point measured the same locality for every layout (it depends on where the
 * rows lie, not on the cache), the line that says it once: "pages/master (...): detail 87.3, folded 1.3";
 * false (nothing appended) when the points differ or none measured it. */
static bool
locality_once (bson_string_t *s, const bson_t *results, size_t n, const lab_results_layouts_t *ls)
{
   lab_sweep_point_t first, p;
   char path[160];
   size_t i, l;
   double v0, v;

   if (n == 0 || !lab_results_sweep_point (results, 0, &first)) {
      return false;
   }
   for (l = 0; l < ls->n; l++) {
      snprintf (path, sizeof path, "%s." LAB_RESULTS_KEY_LOCALITY "." LAB_RESULTS_KEY_PAGES_PER_MASTER_MEAN,
                ls->l[l].name);
      if (!lab_results_get_number (&first.doc, path, &v0)) {
         return false;
      }
      for (i = 1; i < n; i++) {
         if (!lab_results_sweep_point (results, i, &p) || !lab_results_get_number (&p.doc, path, &v) ||
             v != v0) {
            return false;
         }
      }
   }
   if (s) {
      bson_string_append (s,
                          "pages/master (distinct data pages one master's rows occupy, mean; where the rows "
                          "lie, the same at every point):");
      for (l = 0; l < ls->n; l++) {
         snprintf (path, sizeof path,
                   "%s." LAB_RESULTS_KEY_LOCALITY "." LAB_RESULTS_KEY_PAGES_PER_MASTER_MEAN, ls->l[l].name);
         lab_results_get_number (&first.doc, path, &v0);
         bson_string_append_printf (s, "%s %s %.1f", l ? "," : "", ls->l[l].name, v0);
      }
      bson_string_append (s, "\n");
   }
   return true;
}

/* sweep_table_layouts -- the sweep table of a file whose layouts are not exactly detail and folded: per
 * point and layout the median load time, and in brackets the read amplification and the data pages per
 * master (mean); the speedups are the reference's load time over each layout's. */
static char *
sweep_table_layouts (const bson_t *results, const lab_results_layouts_t *ls, size_t n)
{
   const lab_metric_t *el = lab_results_metric_find ("elapsed_s");
   const char *ref = ls->l[ls->reference].name;
   bson_string_t *s = bson_string_new (NULL);
   char path[160], cell[128];
   size_t i, l;
   int rw = regime_width (results, n);
   bool once = locality_once (NULL, results, n, ls);

   bson_string_append_printf (s, "\nCache sweep, %zu points, %zu layouts (medians per point)\n", n, ls->n);
   bson_string_append_printf (s, "%12s  %7s  %-*s", "engine cache", "ratio", rw, "regime");
   for (l = 0; l < ls->n; l++) {
      snprintf (cell, sizeof cell,
                once ? "%s: %s-order load (read amp)" : "%s: %s-order load (read amp, pages/master)",
                ls->l[l].name, lab_results_load_order (results));
      bson_string_append_printf (s, "  %-36s", cell);
   }
   bson_string_append (s, "\n");
   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;

      if (!lab_results_sweep_point (results, i, &p)) {
         continue;
      }
      snprintf (cell, sizeof cell, "%.1f MiB", p.cache_size_bytes / 1048576.0);
      bson_string_append_printf (s, "%12s  %7.2f  %-*s", cell, p.cache_ratio, rw,
                                 lab_results_point_regime (&p));
      for (l = 0; l < ls->n; l++) {
         lab_stat_t st = lab_results_metric_stat (&p.doc, ls->l[l].name, el);
         double amp = 0, pages = 0;
         bool has_amp, has_pages;
         char t[32], a[32], g[32];
         snprintf (path, sizeof path, "%s." LAB_RESULTS_KEY_READ_AMPLIFICATION, ls->l[l].name);
         has_amp = lab_results_get_number (&p.doc, path, &amp);
         fmt_num (a, sizeof a, has_amp, amp, "x");
         snprintf (path, sizeof path,
                   "%s." LAB_RESULTS_KEY_LOCALITY "." LAB_RESULTS_KEY_PAGES_PER_MASTER_MEAN, ls->l[l].name);
         has_pages = lab_results_get_number (&p.doc, path, &pages);
         fmt_num (g, sizeof g, has_pages, pages, "");
         fmt_num (t, sizeof t, st.present, st.median, " s");
         if (once) {
            snprintf (cell, sizeof cell, "%s (%s)", t, a);
         } else {
            snprintf (cell, sizeof cell, "%s (%s, %s)", t, a, g);
         }
         bson_string_append_printf (s, "  %-36s", cell);
      }
      bson_string_append (s, "\n");
   }
   bson_string_append_printf (
      s,
      "ratio = engine cache / %s's data + indexes on disk; read amp = bytes the engine read from disk / the "
      "layout's size on disk;\n%sThe table above shows the reference point; layout-report draws the curve\n",
      ref, once ? "" : "pages/master = distinct data pages one master's rows occupy (mean). ");
   locality_once (s, results, n, ls);
   random_lines (s, results, n);
   buffered_note (s, results, n, ref);
   return bson_string_free (s, false);
}

/* lab_scan_sweep_table_render -- see scan.h. */
char *
lab_scan_sweep_table_render (const bson_t *results)
{
   size_t n = lab_results_sweep_n (results), i;
   lab_results_layouts_t ls;
   bson_string_t *s;
   bool once, random;
   char order[32], load[32];
   int rw;

   if (n == 0) {
      return NULL;
   }
   rw = regime_width (results, n);
   lab_results_layouts (results, &ls);
   if (!(ls.n == 2 && ls.reference == 0 && strcmp (ls.l[0].name, LAB_RESULTS_DETAIL) == 0 &&
         strcmp (ls.l[1].name, LAB_RESULTS_FOLDED) == 0)) {
      return sweep_table_layouts (results, &ls, n);
   }
   s = bson_string_new (NULL);
   once = locality_once (NULL, results, n, &ls);
   random = any_random (results, n);
   snprintf (order, sizeof order, "%s order", lab_results_load_order (results));
   snprintf (load, sizeof load, "%s load", lab_results_load_order (results));
   bson_string_append_printf (s, "\nCache sweep, %zu points (medians per point)\n", n);
   bson_string_append_printf (s, once ? SWEEP_FMT_NOLOC : SWEEP_FMT, "engine cache", "ratio", rw, "regime",
                              "detail", "folded", "speedup", "read amp", "read amp",
                              once ? "" : "pages/master", random ? "       speedup" : "");
   bson_string_append_printf (s, once ? SWEEP_FMT_NOLOC : SWEEP_FMT, "", "", rw, "", load, load, order,
                              "detail", "folded", once ? "" : "detail/folded",
                              random ? "  random order" : "");
   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;
      char cache[32], ratio[32], d[32], f[32], sp[32], ad[32], af[32], loc[48], rs[32] = "";

      if (!lab_results_sweep_point (results, i, &p)) {
         continue;
      }
      snprintf (cache, sizeof cache, "%.1f MiB", p.cache_size_bytes / 1048576.0);
      snprintf (ratio, sizeof ratio, "%.2f", p.cache_ratio);
      fmt_num (d, sizeof d, p.elapsed[0].present, p.elapsed[0].median, " s");
      fmt_num (f, sizeof f, p.elapsed[1].present, p.elapsed[1].median, " s");
      fmt_num (sp, sizeof sp, p.has_speedup, p.speedup, "x");
      fmt_num (ad, sizeof ad, p.has_amplification[0], p.read_amplification[0], "x");
      fmt_num (af, sizeof af, p.has_amplification[1], p.read_amplification[1], "x");
      if (once) {
         loc[0] = '\0';
      } else if (p.locality[0].present && p.locality[1].present) {
         snprintf (loc, sizeof loc, "%.1f / %.1f", p.locality[0].pages_per_master_mean,
                   p.locality[1].pages_per_master_mean);
      } else {
         snprintf (loc, sizeof loc, "n/a");
      }
      if (random) {
         char v[24];
         fmt_num (v, sizeof v, p.has_speedup_random[1], p.speedup_random[1], "x");
         snprintf (rs, sizeof rs, "  %12s", v);
      }
      bson_string_append_printf (s, once ? SWEEP_FMT_NOLOC : SWEEP_FMT, cache, ratio, rw,
                                 lab_results_point_regime (&p), d, f, sp, ad, af, loc, rs);
   }
   bson_string_append_printf (
      s,
      "ratio = engine cache / the detail layout's data + indexes on disk; speedup = detail load / folded "
      "load, the keys in %s%s;\nread amp",
      strcmp (order, "key order") == 0 ? "key order (each worker a contiguous segment of the sorted keys)"
                                       : "a seeded random order",
      random ? " (random order: the point's \"load (random order)\" row, the keys shuffled by --seed)" : "");
   bson_string_append_printf (
      s,
      " = bytes the engine read from disk / the layout's size on disk%s. The table above "
      "shows the reference point; layout-report draws the curve\n",
      once ? "" : "; pages/master = distinct data pages\none master's rows occupy (mean)");
   locality_once (s, results, n, &ls);
   buffered_note (s, results, n, LAB_RESULTS_DETAIL);
   return bson_string_free (s, false);
}

/* ---- the workloads' ledger ------------------------------------------------------------------------ */

/* ledger_cell -- "12.3 s (3.1x)" of one layout of a workload entry; "n/a" when absent. */
static void
ledger_cell (const bson_t *layout, char *buf, size_t len)
{
   double t, x;

   if (!lab_results_get_number (layout, "elapsed_s", &t) || t < 0) {
      bson_snprintf (buf, len, "n/a");
      return;
   }
   if (lab_results_get_number (layout, "x_vs_winner", &x) && x > 1.0005) {
      bson_snprintf (buf, len, "%.3f s (%.2fx)", t, x);
   } else {
      bson_snprintf (buf, len, "%.3f s", t);
   }
}

/* lab_scan_workloads_table_render -- see scan.h. */
char *
lab_scan_workloads_table_render (const bson_t *results)
{
   bson_iter_t it, arr;
   bson_string_t *s;
   bool header = false;

   if (!bson_iter_init_find (&it, results, "workloads") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &arr)) {
      return NULL;
   }
   s = bson_string_new ("\nWhat each query costs (time; in brackets, x the winner's)\n");
   while (bson_iter_next (&arr)) {
      const uint8_t *data;
      uint32_t len;
      bson_t w, l;
      bson_iter_t f, la;
      const char *name = "?", *winner = "?", *rule = NULL;
      char label[64];
      bool equal = true, same = false;

      if (!BSON_ITER_HOLDS_DOCUMENT (&arr)) {
         continue;
      }
      bson_iter_document (&arr, &len, &data);
      if (!bson_init_static (&w, data, len)) {
         continue;
      }
      if (bson_iter_init_find (&f, &w, "workload") && BSON_ITER_HOLDS_UTF8 (&f)) {
         name = bson_iter_utf8 (&f, NULL);
      }
      if (bson_iter_init_find (&f, &w, "winner") && BSON_ITER_HOLDS_UTF8 (&f)) {
         winner = bson_iter_utf8 (&f, NULL);
      }
      /* the one rule's word (wl_runs.c): "same" when it cannot tell the winner from the runner-up */
      if (bson_iter_init_find (&f, &w, "same") && BSON_ITER_HOLDS_BOOL (&f)) {
         same = bson_iter_bool (&f);
      }
      if (bson_iter_init_find (&f, &w, "rule") && BSON_ITER_HOLDS_UTF8 (&f)) {
         rule = bson_iter_utf8 (&f, NULL);
      }
      lab_results_workload_label (name, lab_results_get_string (&w, "load_order"), label, sizeof label);
      if (bson_iter_init_find (&f, &w, "rows_equal") && BSON_ITER_HOLDS_BOOL (&f)) {
         equal = bson_iter_bool (&f);
      }
      if (!header) {
         header = true;
      }
      bson_string_append_printf (s, "  %-30s", label);
      if (bson_iter_init_find (&f, &w, "layouts") && bson_iter_recurse (&f, &la)) {
         while (bson_iter_next (&la)) {
            char cell[64];
            bson_iter_t ln;
            const char *lname = "?";
            if (!BSON_ITER_HOLDS_DOCUMENT (&la)) {
               continue;
            }
            bson_iter_document (&la, &len, &data);
            if (!bson_init_static (&l, data, len)) {
               continue;
            }
            if (bson_iter_init_find (&ln, &l, "layout") && BSON_ITER_HOLDS_UTF8 (&ln)) {
               lname = bson_iter_utf8 (&ln, NULL);
            }
            ledger_cell (&l, cell, sizeof cell);
            bson_string_append_printf (s, "  %s %-20s", lname, cell);
         }
      }
      bson_string_append_printf (s, "  %s %s%s%s%s", same ? "same, best median" : "winner", winner,
                                 rule ? " (" : "", rule ? rule : "", rule ? ")" : "");
      bson_string_append_printf (s, "%s\n", equal ? "" : "  RESULTS DIFFER BETWEEN LAYOUTS");
   }
   return bson_string_free (s, false);
}
