/*
 * render.c -- the Markdown report layout-report writes: verdict, comparison table, charts, environment,
 * dataset, cold procedure, per-run figures, device ceiling and the optional baseline deltas. Built into a
 * growing string from the results document only, so the same file always renders the same bytes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/cmp.h"

static const char *const layouts[2] = { "detail", "folded" };

/* app_esc -- append `s` Markdown-escaped ("n/a" for NULL). */
static void
app_esc (bson_string_t *o, const char *s)
{
   char *e = lab_cmp_md_escape (s);

   bson_string_append (o, e);
   bson_free (e);
}

/* app_fmt -- append v in unit. */
static void
app_fmt (bson_string_t *o, lab_unit_t unit, double v)
{
   char *s = lab_results_format (unit, v);

   bson_string_append (o, s);
   bson_free (s);
}

/* app_name_version -- "name version", either part left out when absent, "n/a" when both are. */
static void
app_name_version (bson_string_t *o, const bson_t *doc, const char *name_path, const char *version_path)
{
   const char *n = lab_results_get_string (doc, name_path), *v = lab_results_get_string (doc, version_path);

   if (!n && !v) {
      bson_string_append (o, "n/a");
      return;
   }
   if (n) {
      app_esc (o, n);
   }
   if (n && v) {
      bson_string_append (o, " ");
   }
   if (v) {
      app_esc (o, v);
   }
}

/* app_num -- append the number at `path` of doc in unit, or "n/a". */
static void
app_num (bson_string_t *o, const bson_t *doc, const char *path, lab_unit_t unit)
{
   double v;

   if (lab_results_get_number (doc, path, &v)) {
      app_fmt (o, unit, v);
   } else {
      bson_string_append (o, "n/a");
   }
}

/* app_bool -- append yes / no / n/a for the boolean at path. */
static void
app_bool (bson_string_t *o, const bson_t *doc, const char *path)
{
   bool b;

   bson_string_append (o, lab_results_get_bool (doc, path, &b) ? (b ? "yes" : "no") : "n/a");
}

/* app_stat -- append "median (min–max)". */
static void
app_stat (bson_string_t *o, lab_unit_t unit, const lab_stat_t *s)
{
   char *t = lab_results_format_stat (unit, s, true);

   bson_string_append (o, t);
   bson_free (t);
}

/* app_factor -- append "2.16x" / "12.3x". */
static void
app_factor (bson_string_t *o, double f)
{
   char *s = lab_results_format_factor (f);

   bson_string_append (o, s);
   bson_free (s);
}

/* collection_name -- the collection of a layout: dataset.<l>.collection, else config.<l>. */
static const char *
collection_name (const lab_cmp_results_t *r, const char *layout)
{
   char path[64];
   const char *s;

   snprintf (path, sizeof path, "dataset.%s.collection", layout);
   s = lab_results_get_string (&r->doc, path);
   if (!s) {
      snprintf (path, sizeof path, "config.%s", layout);
      s = lab_results_get_string (&r->doc, path);
   }
   return s;
}

/* ---- verdict ----------------------------------------------------------------------------------- */

typedef struct {
   int runs, dropped, drop_known, engine_restarted, server_restarted;
   bool resident_known;
   double resident_max_pct;
} cold_facts_t;

/* gather_cold -- how cold the runs really were. */
static cold_facts_t
gather_cold (const lab_cmp_results_t *r)
{
   cold_facts_t c = { 0 };
   int i, n = lab_cmp_runs_n (r);
   bson_t run;
   bool b;
   double v;

   for (i = 0; i < n; i++) {
      if (!lab_cmp_run_get (r, i, &run)) {
         continue;
      }
      c.runs++;
      if (lab_results_get_bool (&run, "cold.caches_dropped", &b)) {
         c.drop_known++;
         c.dropped += b;
      }
      if (lab_results_get_bool (&run, "cold.engine_restarted", &b)) {
         c.engine_restarted += b;
      }
      if (lab_results_get_bool (&run, "cold.server_restarted", &b)) {
         c.server_restarted += b;
      }
      if (lab_results_get_number (&run, "cold.resident_pct_before", &v)) {
         if (!c.resident_known || v > c.resident_max_pct) {
            c.resident_max_pct = v;
         }
         c.resident_known = true;
      }
   }
   return c;
}

/* render_verdict -- three lines computed from the medians: time, read requests, how trustworthy. */
static void
render_verdict (bson_string_t *o, const lab_cmp_results_t *r)
{
   const lab_metric_t *m_el = lab_results_metric_find ("elapsed_s");
   const lab_metric_t *m_rr = lab_results_metric_find ("read_requests");
   const lab_metric_t *m_sz = lab_results_metric_find ("avg_read_request_bytes");
   lab_stat_t ed = lab_results_metric_stat (&r->doc, "detail", m_el),
              ef = lab_results_metric_stat (&r->doc, "folded", m_el);
   lab_stat_t rd = lab_results_metric_stat (&r->doc, "detail", m_rr),
              rf = lab_results_metric_stat (&r->doc, "folded", m_rr);
   lab_stat_t sd = lab_results_metric_stat (&r->doc, "detail", m_sz),
              sf = lab_results_metric_stat (&r->doc, "folded", m_sz);
   int nd = lab_cmp_run_count (r, "detail"), nf = lab_cmp_run_count (r, "folded");
   cold_facts_t c = gather_cold (r);
   double factor;
   lab_winner_t w;
   bool cold_requested = false;

   bson_string_append (o, "## Verdict\n\n");

   /* 1: load time */
   w = lab_results_winner (m_el->better, &ed, &ef, &factor);
   bson_string_append (o, "- ");
   if (w == LAB_WIN_FOLDED || w == LAB_WIN_DETAIL) {
      bson_string_append_printf (o, "**The folded layout loads ");
      app_factor (o, factor);
      bson_string_append (o, w == LAB_WIN_FOLDED ? " faster**: " : " slower**: ");
   } else if (w == LAB_WIN_TIE) {
      bson_string_append (o, "**Both layouts load in about the same time**: ");
   } else {
      bson_string_append (o, "**Load time could not be compared**: ");
   }
   app_stat (o, LAB_UNIT_SECONDS, &ef);
   bson_string_append (o, " folded vs ");
   app_stat (o, LAB_UNIT_SECONDS, &ed);
   if (nd == nf) {
      bson_string_append_printf (o, " one document per row (median of %d run%s each).\n", nd,
                                 nd == 1 ? "" : "s");
   } else {
      bson_string_append_printf (o, " one document per row (median of %d and %d runs).\n", nf, nd);
   }

   /* 2: disk read requests and their size */
   bson_string_append (o, "- ");
   if (rd.present && rf.present && rd.median > 0) {
      double change = (rf.median - rd.median) / rd.median * 100.0;
      if (fabs (change) < 0.5) {
         bson_string_append (o, "It needs about as many disk read requests (");
      } else if (change <= -99.5 && rf.median > 0) {
         /* "100% fewer" would claim none at all: say the factor instead */
         bson_string_append_printf (o, "It needs %.0fx fewer disk read requests (", rd.median / rf.median);
      } else {
         bson_string_append_printf (o, "It needs %.0f%% %s disk read requests (", fabs (change),
                                    change < 0 ? "fewer" : "more");
      }
      app_fmt (o, LAB_UNIT_COUNT, rf.median);
      bson_string_append (o, " vs ");
      app_fmt (o, LAB_UNIT_COUNT, rd.median);
      bson_string_append (o, ")");
      if (sd.present && sf.present) {
         bson_string_append (o, ", of ");
         app_fmt (o, LAB_UNIT_BYTES, sf.median);
         bson_string_append (o, " on average instead of ");
         app_fmt (o, LAB_UNIT_BYTES, sd.median);
      }
      bson_string_append (o, ".\n");
   } else {
      bson_string_append (o, "Disk read requests could not be compared (n/a: the device was not sampled).\n");
   }

   /* 3: how cold, how consistent */
   bson_string_append (o, "- ");
   lab_results_get_bool (&r->doc, "config.cold", &cold_requested);
   if (!cold_requested) {
      bson_string_append (o, "**Not a cold experiment** (scancmp ran without `--cold`): caches may have "
                             "served part of the data");
   } else if (c.drop_known == c.runs && c.dropped == c.runs && c.resident_known &&
              c.resident_max_pct <= 1.0) {
      bson_string_append_printf (o,
                                 "All %d runs started cold (caches dropped, at most %.1f%% of the data "
                                 "files resident)",
                                 c.runs, c.resident_max_pct);
   } else if (c.dropped == c.runs && c.drop_known == c.runs) {
      if (c.resident_known) {
         bson_string_append_printf (o,
                                    "Caches were dropped before all %d runs, yet up to %.1f%% of the "
                                    "data files were resident before one",
                                    c.runs, c.resident_max_pct);
      } else {
         bson_string_append_printf (o, "Caches were dropped before all %d runs (residency not measured)",
                                    c.runs);
      }
   } else {
      bson_string_append_printf (o, "**Caution**: caches were dropped before %d of %d runs", c.dropped,
                                 c.runs);
      if (c.resident_known) {
         bson_string_append_printf (o, " and up to %.1f%% of the data files were resident before a run",
                                    c.resident_max_pct);
      }
      if (c.server_restarted > 0) {
         bson_string_append_printf (o,
                                    " (the server was restarted before %d, emptying its cache; the OS "
                                    "page cache may still have held data)",
                                    c.server_restarted);
      }
      bson_string_append (o, ": some runs were partly warm");
   }
   if (nd < 2 || nf < 2) {
      bson_string_append (o, "; with one run per layout there is no spread: use `--runs 3` or more.\n");
   } else if (ed.present && ef.present) {
      bool overlap = !(ed.max < ef.min || ef.max < ed.min);
      bson_string_append (o, overlap ? "; the load-time ranges of the two layouts overlap, so the time "
                                       "difference is within run-to-run noise.\n"
                                     : "; the load-time ranges of the two layouts do not overlap.\n");
   } else {
      bson_string_append (o, ".\n");
   }
   bson_string_append (o, "\n");
}

/* ---- comparison table -------------------------------------------------------------------------- */

/* table_row -- one row of the comparison table: label, detail, folded, ratio, better, as the shared
 * cells of core/results.h (scancmp's table prints the same cells). */
static void
table_row (bson_string_t *o, const lab_results_row_t *row)
{
   lab_results_cells_t c;

   lab_results_row_cells (row, true, &c);
   bson_string_append (o, "| ");
   app_esc (o, row->metric->label);
   bson_string_append_printf (o, " | %s | %s | %s | %s |\n", c.detail, c.folded, c.ratio, c.better);
   lab_results_cells_cleanup (&c);
}

/* render_table -- the comparison table of the metric catalogue; rows no run measured are listed below
 * it instead. */
static void
render_table (bson_string_t *o, const lab_cmp_results_t *r)
{
   const lab_metric_t *m;
   size_t n, i;
   bson_string_t *missing = bson_string_new (NULL);
   int nd = lab_cmp_run_count (r, "detail"), nf = lab_cmp_run_count (r, "folded");

   bson_string_append (o, "## Comparison\n\n");
   bson_string_append (o, "| metric | one doc per row (detail) | folded | folded / detail | better |\n");
   bson_string_append (o, "|---|--:|--:|--:|---|\n");
   m = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_results_row_t row;
      if (!lab_results_row (&r->doc, &m[i], &row)) {
         bson_string_append_printf (missing, "%s%s", missing->len ? ", " : "", m[i].label);
         continue;
      }
      table_row (o, &row);
   }
   bson_string_append (o, "\n");
   if (nd == nf) {
      bson_string_append_printf (o,
                                 "Figures are medians over %d run%s per layout, with the min–max range in "
                                 "parentheses when runs differ. ",
                                 nd, nd == 1 ? "" : "s");
   } else {
      bson_string_append_printf (o,
                                 "Figures are medians over %d detail and %d folded runs, with the "
                                 "min–max range in parentheses when runs differ. ",
                                 nd, nf);
   }
   bson_string_append (o, "The ratio is folded ÷ detail. *better* names the layout with the better median "
                          "and by what factor (less time, fewer and larger read requests, less memory); "
                          "descriptive rows have none (rates per second among them: the totals decide), "
                          "and *same* means within 2%. Sizes are SI (1 MB = 10^6 bytes).\n\n");
   if (missing->len) {
      bson_string_append (o, "Not measured in this experiment (n/a for both layouts): ");
      app_esc (o, missing->str);
      bson_string_append (o, ".\n\n");
   }
   bson_string_free (missing, true);
}

/* ---- sections ---------------------------------------------------------------------------------- */

/* render_charts -- links to the SVG files, or why there are none. */
static void
render_charts (bson_string_t *o, const lab_cmp_render_opts_t *opts)
{
   size_t i;

   bson_string_append (o, "## Charts\n\n");
   if (!opts || opts->n_charts == 0) {
      bson_string_append (o, "Charts were skipped: ");
      app_esc (o, opts && opts->charts_note ? opts->charts_note : "none were requested");
      bson_string_append (o, ".\n\n");
      return;
   }
   bson_string_append (o, "Both layouts start at 0 s. The thick line is each layout's median run "
                          "(by load time); thin lines are its other runs.\n\n");
   for (i = 0; i < opts->n_charts; i++) {
      bson_string_append (o, "![");
      app_esc (o, opts->charts[i].caption);
      bson_string_append (o, "](");
      /* file names are ours (stem + fixed suffix); escape only what would end the link */
      for (const char *p = opts->charts[i].file; *p; p++) {
         if (*p == ' ') {
            bson_string_append (o, "%20");
         } else if (*p == '(' || *p == ')') {
            bson_string_append_printf (o, "%%%02X", (unsigned)*p);
         } else {
            bson_string_append_c (o, *p);
         }
      }
      bson_string_append (o, ")\n\n");
   }
}

/* kv_str -- "| key | value |" with the value escaped. */
static void
kv_str (bson_string_t *o, const char *key, const char *value)
{
   bson_string_append_printf (o, "| %s | ", key);
   app_esc (o, value);
   bson_string_append (o, " |\n");
}

/* render_environment -- host, kernel, CPU, RAM, device, backend and version. */
static void
render_environment (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   const char *dev = lab_results_get_string (d, "device.name");
   double ra;
   bool b;

   if (!dev) {
      dev = lab_results_get_string (d, "config.device");
   }
   bson_string_append (o, "## Environment\n\n| | |\n|---|---|\n");
   kv_str (o, "host", lab_results_get_string (d, "host.hostname"));
   kv_str (o, "kernel", lab_results_get_string (d, "host.kernel"));
   kv_str (o, "CPU", lab_results_get_string (d, "host.cpu_model"));
   bson_string_append (o, "| cores | ");
   app_num (o, d, "host.cores", LAB_UNIT_COUNT);
   bson_string_append (o, " |\n| RAM | ");
   app_num (o, d, "host.ram_bytes", LAB_UNIT_BYTES);
   bson_string_append (o, " |\n");
   kv_str (o, "data device", dev);
   if (lab_results_get_number (d, "device.read_ahead_kb", &ra)) {
      /* MongoDB's production notes: 8-32 KiB of readahead under WiredTiger */
      bson_string_append_printf (o, "| device readahead | %.0f KiB%s |\n", ra,
                                 ra > 32 ? " (MongoDB recommends 8–32 KiB for WiredTiger: larger windows inflate "
                                           "each random read)"
                                         : "");
   }
   bson_string_append (o, "| backend | ");
   app_name_version (o, d, "backend.name", "backend.version");
   bson_string_append (o, " |\n");
   kv_str (o, "URI (redacted)", lab_results_get_string (d, "backend.uri"));
   kv_str (o, "database", lab_results_get_string (d, "backend.db"));
   bson_string_append (o, "| server on this host | ");
   bson_string_append (o, lab_results_get_bool (d, "backend.server_local", &b) ? (b ? "yes" : "no") : "n/a");
   bson_string_append (o, " |\n| engine cache maximum | ");
   app_num (o, d, "backend.cache_max_bytes", LAB_UNIT_BYTES);
   bson_string_append (o, " |\n| measured by | ");
   app_name_version (o, d, "tool", "tool_version");
   bson_string_append (o, " |\n");
   kv_str (o, "started", lab_results_get_string (d, "started_at"));
   kv_str (o, "finished", lab_results_get_string (d, "finished_at"));
   bson_string_append (o, "\n");
}

/* render_dataset -- documents, sizes per layout. */
static void
render_dataset (bson_string_t *o, const lab_cmp_results_t *r)
{
   static const struct {
      const char *field, *label;
      lab_unit_t unit;
   } rows[] = {
      { "count", "documents", LAB_UNIT_COUNT },
      { "avg_obj_size_bytes", "average document size", LAB_UNIT_BYTES },
      { "data_size_bytes", "data size (uncompressed)", LAB_UNIT_BYTES },
      { "storage_size_bytes", "storage size (on disk)", LAB_UNIT_BYTES },
      { "index_size_bytes", "index size", LAB_UNIT_BYTES },
      { "nindexes", "indexes", LAB_UNIT_COUNT },
   };
   const bson_t *d = &r->doc;
   double dc, fc;
   size_t i;
   int l;
   char path[96];

   bson_string_append (o, "## Dataset\n\n| | one doc per row (detail) | folded |\n|---|--:|--:|\n");
   bson_string_append (o, "| collection | ");
   app_esc (o, collection_name (r, "detail"));
   bson_string_append (o, " | ");
   app_esc (o, collection_name (r, "folded"));
   bson_string_append (o, " |\n");
   for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
      bson_string_append_printf (o, "| %s |", rows[i].label);
      for (l = 0; l < 2; l++) {
         snprintf (path, sizeof path, "dataset.%s.%s", layouts[l], rows[i].field);
         bson_string_append (o, " ");
         app_num (o, d, path, rows[i].unit);
         bson_string_append (o, " |");
      }
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n- masters (distinct ");
   app_esc (o, lab_results_get_string (d, "config.key") ? lab_results_get_string (d, "config.key") : "key");
   bson_string_append (o, " values) loaded per layout and run: ");
   app_num (o, d, "dataset.keys", LAB_UNIT_COUNT);
   bson_string_append (o, "\n- rows per master (detail documents ÷ folded documents): ");
   if (lab_results_get_number (d, "dataset.detail.count", &dc) &&
       lab_results_get_number (d, "dataset.folded.count", &fc) && fc > 0) {
      bson_string_append_printf (o, "%.1f", dc / fc);
   } else {
      bson_string_append (o, "n/a");
   }
   bson_string_append (o, "\n- array field of the folded documents: ");
   app_esc (o, lab_results_get_string (d, "config.array_field"));
   bson_string_append (o, "\n\n");
}

/* render_cold -- the cold procedure as executed, per run. */
static void
render_cold (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   int i, n = lab_cmp_runs_n (r);
   bson_t run;
   double v;
   bool b;

   bson_string_append (o, "## Cold procedure\n\n");
   bson_string_append (o, "- cold runs requested (`--cold`): ");
   app_bool (o, d, "config.cold");
   bson_string_append (o, "\n- drop the OS page cache (`--drop-caches`): ");
   app_esc (o, lab_results_get_string (d, "config.drop_caches"));
   if (lab_results_get_bool (d, "config.direct_io", &b) && b) {
      bson_string_append (o, "\n- data files read with O_DIRECT (`--direct-io`): every engine cache miss is a "
                             "disk read, as on a server whose RAM is far smaller than its data");
   }
   bson_string_append (o, "\n- restart command: ");
   if (lab_results_get_string (d, "config.restart_cmd")) {
      bson_string_append (o, "`");
      /* inside a code span only a backtick needs care */
      for (const char *p = lab_results_get_string (d, "config.restart_cmd"); *p; p++) {
         bson_string_append_c (o, (*p == '`' || *p == '\n') ? '\'' : *p);
      }
      bson_string_append (o, "`");
   } else {
      bson_string_append (o, "none");
   }
   bson_string_append (o, "\n- order of layouts: ");
   app_esc (o, lab_results_get_string (d, "config.order"));
   bson_string_append (o, "; parallel workers: ");
   app_num (o, d, "config.parallel", LAB_UNIT_COUNT);
   bson_string_append (o, "; runs: ");
   app_num (o, d, "config.runs", LAB_UNIT_COUNT);
   bson_string_append (o, "; sampling interval: ");
   app_num (o, d, "config.interval_s", LAB_UNIT_SECONDS);
   bson_string_append (o, "\n\n");
   bson_string_append (o, "| run | layout | went | engine restarted | server restarted | caches dropped | "
                          "resident before | note |\n|--:|---|--:|---|---|---|--:|---|\n");
   for (i = 0; i < n; i++) {
      if (!lab_cmp_run_get (r, i, &run)) {
         continue;
      }
      bson_string_append (o, "| ");
      app_num (o, &run, "run", LAB_UNIT_COUNT);
      bson_string_append (o, " | ");
      app_esc (o, lab_results_get_string (&run, "layout"));
      bson_string_append (o, " | ");
      if (lab_results_get_number (&run, "order_in_run", &v)) {
         bson_string_append (o, v == 1 ? "first" : v == 2 ? "second" : "later");
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " | ");
      app_bool (o, &run, "cold.engine_restarted");
      bson_string_append (o, " | ");
      app_bool (o, &run, "cold.server_restarted");
      bson_string_append (o, " | ");
      app_bool (o, &run, "cold.caches_dropped");
      bson_string_append (o, " | ");
      if (lab_results_get_number (&run, "cold.resident_pct_before", &v)) {
         bson_string_append_printf (o, "%.1f%%", v);
         if (lab_results_get_number (&run, "cold.resident_bytes_before", &v)) {
            bson_string_append (o, " (");
            app_fmt (o, LAB_UNIT_BYTES, v);
            if (lab_results_get_number (&run, "cold.file_bytes", &v)) {
               bson_string_append (o, " of ");
               app_fmt (o, LAB_UNIT_BYTES, v);
            }
            bson_string_append (o, ")");
         }
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " | ");
      app_esc (o, lab_results_get_string (&run, "cold.drop_caches_note"));
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, "\n");
}

/* render_runs -- per-run figures. */
static void
render_runs (bson_string_t *o, const lab_cmp_results_t *r)
{
   static const struct {
      const char *path;
      lab_unit_t unit;
   } cols[] = {
      { "elapsed_s", LAB_UNIT_SECONDS },
      { "docs", LAB_UNIT_COUNT },
      { "read_requests", LAB_UNIT_COUNT },
      { "read_bytes", LAB_UNIT_BYTES },
      { "rates.read_requests_per_s_peak", LAB_UNIT_RATE },
      { "rates.read_mb_s_peak", LAB_UNIT_MB_S },
      { "rates.avg_read_request_bytes", LAB_UNIT_BYTES },
      { "latency_ms.p95", LAB_UNIT_MS },
      { "memory.server_rss_peak_bytes", LAB_UNIT_BYTES },
   };
   int i, n = lab_cmp_runs_n (r);
   size_t c;
   bson_t run;

   bson_string_append (o, "## Per-run figures\n\n");
   bson_string_append (o, "| run | layout | load time | documents | read requests | disk read | peak read "
                          "req/s | peak read MB/s | avg request | latency p95 | peak RSS |\n"
                          "|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
   for (i = 0; i < n; i++) {
      if (!lab_cmp_run_get (r, i, &run)) {
         continue;
      }
      bson_string_append (o, "| ");
      app_num (o, &run, "run", LAB_UNIT_COUNT);
      bson_string_append (o, " | ");
      app_esc (o, lab_results_get_string (&run, "layout"));
      for (c = 0; c < sizeof cols / sizeof cols[0]; c++) {
         bson_string_append (o, " | ");
         app_num (o, &run, cols[c].path, cols[c].unit);
      }
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, "\n");
}

/* render_ceiling -- the device's own limits from --calibrate, and how close each layout came. */
static void
render_ceiling (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   double seq, iops, v;
   bool has_seq = lab_results_get_number (d, "calibration.seq_read_mb_s", &seq);
   bool has_iops = lab_results_get_number (d, "calibration.rand_read_4k_iops", &iops);
   int l;

   bson_string_append (o, "## Device ceiling\n\n");
   if (!has_seq && !has_iops) {
      bson_string_append (o, "Not measured: run scancmp with `--calibrate` to record the device's sequential "
                             "and random read limits next to the figures above.\n\n");
      return;
   }
   bson_string_append (o, "- sequential reads: ");
   app_num (o, d, "calibration.seq_read_mb_s", LAB_UNIT_MB_S);
   bson_string_append (o, "\n- random 4 KiB reads: ");
   app_num (o, d, "calibration.rand_read_4k_iops", LAB_UNIT_RATE);
   bson_string_append (o, "\n- measured on a file of ");
   app_num (o, d, "calibration.file_bytes", LAB_UNIT_BYTES);
   bson_string_append (o, " in ");
   app_num (o, d, "calibration.elapsed_s", LAB_UNIT_SECONDS);
   bson_string_append (o, "\n");
   for (l = 0; l < 2; l++) {
      lab_stat_t rr =
         lab_results_metric_stat (&r->doc, layouts[l], lab_results_metric_find ("read_requests_per_s_peak"));
      lab_stat_t mb =
         lab_results_metric_stat (&r->doc, layouts[l], lab_results_metric_find ("read_mb_s_peak"));
      bson_string_append_printf (o, "- %s peaks: ", layouts[l]);
      if (rr.present && has_iops && iops > 0) {
         v = rr.median / iops * 100.0;
         bson_string_append_printf (
            o, v < 9.95 ? "%.1f%% of the random-read ceiling" : "%.0f%% of the random-read ceiling", v);
      } else {
         bson_string_append (o, "n/a of the random-read ceiling");
      }
      if (mb.present && has_seq && seq > 0) {
         v = mb.median / seq * 100.0;
         bson_string_append_printf (
            o, v < 9.95 ? ", %.1f%% of the sequential throughput" : ", %.0f%% of the sequential throughput",
            v);
      } else {
         bson_string_append (o, ", n/a of the sequential throughput");
      }
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n");
}

/* app_change -- "+12.3% (worse)" between baseline and this median. */
static void
app_change (bson_string_t *o, lab_better_t better, const lab_stat_t *base, const lab_stat_t *cur)
{
   double ch;

   if (!base->present || !cur->present || base->median == 0.0) {
      bson_string_append (o, "n/a");
      return;
   }
   ch = (cur->median - base->median) / fabs (base->median) * 100.0;
   if (fabs (ch) < 0.05) {
      bson_string_append (o, "0.0%");
      return;
   }
   bson_string_append_printf (o, "%s%.1f%%", ch > 0 ? "+" : "−", fabs (ch));
   if (better != LAB_DESCRIPTIVE && fabs (ch) > 2.0) {
      bool up_good = better == LAB_BETTER_HIGHER;
      bson_string_append (o, ((ch > 0) == up_good) ? " better" : " worse");
   }
}

/* render_baseline -- deltas between a baseline experiment and this one, per layout. */
static void
render_baseline (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *b)
{
   const lab_metric_t *m;
   size_t n, i;
   int l;
   const lab_cmp_results_t *both[2] = { b, r };
   const char *what[2] = { "baseline", "this experiment" };

   bson_string_append (o, "## Against the baseline\n\n");
   for (l = 0; l < 2; l++) {
      const bson_t *d = &both[l]->doc;
      bson_string_append_printf (o, "- %s: ", what[l]);
      app_esc (o, both[l]->name);
      bson_string_append (o, " — ");
      app_name_version (o, d, "backend.name", "backend.version");
      bson_string_append (o, " on ");
      app_esc (o, lab_results_get_string (d, "host.hostname"));
      bson_string_append_printf (o, ", %d+%d runs, started ", lab_cmp_run_count (both[l], "detail"),
                                 lab_cmp_run_count (both[l], "folded"));
      app_esc (o, lab_results_get_string (d, "started_at"));
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n| metric | detail: baseline | detail: this | change | folded: baseline | "
                          "folded: this | change |\n|---|--:|--:|--:|--:|--:|--:|\n");
   m = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_stat_t s[2][2]; /* [layout][baseline, this] */
      bool any = false;
      for (l = 0; l < 2; l++) {
         s[l][0] = lab_results_metric_stat (&b->doc, layouts[l], &m[i]);
         s[l][1] = lab_results_metric_stat (&r->doc, layouts[l], &m[i]);
         any = any || s[l][0].present || s[l][1].present;
      }
      if (!any) {
         continue;
      }
      bson_string_append (o, "| ");
      app_esc (o, m[i].label);
      for (l = 0; l < 2; l++) {
         lab_stat_t bm = s[l][0], cm = s[l][1];
         /* medians only: the spreads are in each experiment's own report */
         bm.n = cm.n = 1;
         bson_string_append (o, " | ");
         app_stat (o, m[i].unit, &bm);
         bson_string_append (o, " | ");
         app_stat (o, m[i].unit, &cm);
         bson_string_append (o, " | ");
         app_change (o, m[i].better, &s[l][0], &s[l][1]);
      }
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, "\nMedians of each experiment; *change* is this experiment relative to the "
                          "baseline, marked better or worse when it moves by more than 2% on a metric "
                          "with a direction.\n\n");
}

/* lab_cmp_render_md -- see cmp.h. */
char *
lab_cmp_render_md (const lab_cmp_results_t *r, const lab_cmp_render_opts_t *opts)
{
   bson_string_t *o = bson_string_new (NULL);
   const char *dn = collection_name (r, "detail"), *fn = collection_name (r, "folded");

   bson_string_append (o, "# ");
   if (opts && opts->title) {
      app_esc (o, opts->title);
   } else {
      bson_string_append (o, "Layout comparison: ");
      app_esc (o, dn ? dn : "detail");
      bson_string_append (o, " (one document per row) vs ");
      app_esc (o, fn ? fn : "folded");
      bson_string_append (o, " (folded)");
   }
   bson_string_append (o, "\n\nSource: ");
   app_esc (o, r->name);
   bson_string_append (o, ", written by ");
   app_name_version (o, &r->doc, "tool", "tool_version");
   bson_string_append (o, ".\n\n");

   render_verdict (o, r);
   render_table (o, r);
   if (opts && opts->baseline) {
      render_baseline (o, r, opts->baseline);
   }
   render_charts (o, opts);
   render_environment (o, r);
   render_dataset (o, r);
   render_cold (o, r);
   render_runs (o, r);
   render_ceiling (o, r);
   return bson_string_free (o, false);
}
