/*
 * layout_report.c -- `layout-report`: turn a scancmp results file into the Markdown report a design
 * review reads, with SVG charts next to it. Parses options, calls the compare library, writes files,
 * maps errors to exit codes.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "core/cli.h"
#include "core/error.h"

typedef enum { CHARTS_SVG, CHARTS_NONE, CHARTS_AUTO } charts_mode_t; /* the order of charts_names */

typedef struct {
   lab_cli_common_t common;
   const char *input;
   const char *baseline;
   const char *reference;  /* --reference FILE: another experiment's published figures */
   const char *prediction; /* --prediction FILE: scancmp --predict's results */
   const char *output;     /* NULL or "-": stdout */
   const char *title;
   charts_mode_t charts;
   const char *prod_ratio; /* --production-cache-ratio R */
   const char *prod_cache; /* --production-cache SIZE (with --production-data) */
   const char *prod_data;  /* --production-data SIZE */
   lab_cmp_production_t production;
   const char *mix;                      /* --mix SPEC: estimate the user's mix */
   double mix_weight[LAB_CMP_MIX_TYPES]; /* its proportions, parsed */
   int64_t mix_ops;                      /* --mix-ops N; 0: the measured mix's, else 100,000 */
   const char *mix_file;                 /* --mix-file FILE: the measured mix of another results file */
} report_opts_t;

/* The operations of an estimated mix when neither --mix-ops nor a measured mix says: scancmp's --mix-ops
 * default. */
#define MIX_OPS_DEFAULT 100000

static const char usage_text[] =
   "Usage: layout-report RUN.json [--baseline OTHER.json] [-o|--out REPORT.md] [--charts svg|none] [--title "
   "T]\n"
   "                     [--production-cache-ratio R | --production-cache SIZE --production-data SIZE]\n"
   "                     [--reference PUBLISHED.json] [--prediction PRED.json] [--mix SPEC [--mix-ops N]]\n"
   "                     [--mix-file MIX.json]\n"
   "\n"
   "Render the results file of `scancmp --out RUN.json` (or scancmp's --json summary, which holds the\n"
   "same results) as a Markdown report for a design review: a\n"
   "verdict computed from the figures, the comparison table (median over runs with min-max; a column per\n"
   "layout, ratios against the reference layout, for two to eight layouts), the\n"
   "environment, the dataset, the cold procedure as executed, per-run figures, the device ceiling, and\n"
   "SVG charts (read requests/s, read MB/s, server memory over time, per-master latency distribution)\n"
   "drawn by gnuplot next to the report as REPORT-<chart>.svg. A cache sweep (scancmp --cache-sizes or\n"
   "--cache-ratios) leads with the curve: speedup and read amplification per cache size, and a chart of\n"
   "both against the cache ratio.\n"
   "\n"
   "Options:\n"
   "  -o, --out FILE       write the report to FILE (default: standard output, without charts);\n"
   "                       --output is the same option\n"
   "  --baseline FILE      add a table of changes from another experiment's results (e.g. snappy vs\n"
   "                       zlib, before vs after a change); two sweeps match points by cache size\n"
   "  --reference FILE     add a section \"Beside <the reference>\": a published experiment's figures\n"
   "                       (datasets/reference/original.json: the original, 55 M rows) next to this\n"
   "                       run's, metric by metric, units converted, and what the differences come\n"
   "                       from (cache regime, client); for a sweep, the point in the reference's regime\n"
   "  --prediction FILE    add a section \"Predicted beside measured\": the read amplification (and\n"
   "                       speedup) that `scancmp --predict` foretold from the detail collection alone,\n"
   "                       next to this file's measured points of the same cache, with the error per point\n"
   "  --mix SPEC           the user's mix (load=5,row=60,range=5,append=25,update=5: the proportions of\n"
   "                       the op types; a WEIGHT is a number from 0 to 1000000, each type once, some\n"
   "                       WEIGHT above 0: scancmp --mix's grammar): when the file has no measured mix\n"
   "                       (scancmp --mix), estimate it\n"
   "                       from the file's workloads (each type's cost per operation, re-weighted) and\n"
   "                       render it as an estimate, saying what it ignores; beside a measured mix of the\n"
   "                       same proportions, the estimate with its error per layout. Every type of SPEC\n"
   "                       must have been measured on every layout (scancmp --workload TYPE)\n"
   "  --mix-ops N          operations of the estimated mix (default: the measured mix's, else 100000)\n"
   "  --mix-file FILE      the mix measured in another results file of the same collections (scancmp\n"
   "                       --mix --out FILE): page one and the mix section show it, beside --mix's estimate\n"
   "  --charts svg|none    draw the charts (default: svg when -o is given and gnuplot is on PATH)\n"
   "  --title TEXT         the report's title (default: names every layout's collection)\n"
   "  --production-cache-ratio R\n"
   "                       a cache sweep's report marks production: its engine cache / its detail data\n"
   "                       and indexes on disk; the speedup there is interpolated between the two nearest\n"
   "                       measured points (linear in log ratio), never extrapolated outside them\n"
   "  --production-cache SIZE --production-data SIZE\n"
   "                       the same ratio from two sizes (64GiB, 1.5T, 200GB), given together\n"
   "  --json FILE|-        also write the comparison (medians, ratios, winners, keys that matched nothing\n"
   "                       and runs whose layouts returned different rows) as JSON; for a sweep also\n"
   "                       its points and the production estimate; the user's mix (\"mix\", and with\n"
   "                       --mix \"mix_estimate\" with its error per layout against the measured one)\n"
   "  -q, --quiet          only errors on stderr\n"
   "  -v, --verbose        more detail on stderr\n"
   "  -h, --help           the short help; --help-all: this one\n"
   "  --version            print the version\n"
   "layout-report opens no store: the other tools' --uri, --db, --cache-size and --progress are refused.\n"
   "The layouts it compares are scancmp's: --detail (fold-details' --src, billgen's --dst) and --folded\n"
   "(fold-details' --dst), or the names of its --layout options.\n"
   "\n"
   "Examples:\n"
   "  layout-report out/run.json -o out/report.md\n"
   "      report plus out/report-read-requests.svg, -read-mbs, -memory and -latency charts\n"
   "  layout-report zlib.json --baseline snappy.json -o zlib-vs-snappy.md --title 'zlib vs snappy'\n"
   "      the same report with a second table: what changed from the snappy experiment\n"
   "  layout-report sweep.json -o sweep.md --production-cache 48GiB --production-data 310GiB\n"
   "      a sweep (scancmp --cache-ratios): the speedup curve, with production's place on it\n"
   "  layout-report sweep.json -o seed.md --reference datasets/reference/original.json\n"
   "      the report with the original experiment's table beside this run's\n"
   "  layout-report sweep.json -o sweep.md --prediction pred.json\n"
   "      the measured curve with what scancmp --predict foretold before folding, error per point\n"
   "  layout-report writes.json -o mix.md --mix load=5,row=60,range=5,append=25,update=5\n"
   "      the user's mix estimated from the workloads scancmp --workload measured one by one\n"
   "  layout-report out/run.json --charts none | less\n"
   "      read the tables in a terminal\n"
   "\n"
   "Exit codes: 0 success, 1 runtime failure (unreadable or invalid results file, gnuplot failed),\n"
   "2 usage error.\n";

/* The short help: what --help prints; the whole reference above is --help-all and docs/help/. */
static const char usage_short_text[] =
   "Usage: layout-report RUN.json [-o REPORT.md] [--baseline OTHER.json] [--prediction PRED.json]\n"
   "                     [--production-cache-ratio R] [--mix SPEC] [--charts svg|none] [--json FILE|-]\n"
   "\n"
   "Renders the results file of `scancmp --out RUN.json` as a Markdown report for a design review: the\n"
   "recommendation and its costs first, then the evidence -- the comparison table (medians over runs,\n"
   "each ratio with its interval), the cache sweep's curve, each workload's cost, the user's mix, the\n"
   "environment and the cold procedure as executed -- with SVG charts (gnuplot) beside REPORT.md. It\n"
   "opens no store.\n"
   "\n"
   "Main options:\n"
   "  -o, --out FILE       the report (default: standard output, without charts)\n"
   "  --baseline FILE      a table of changes from another experiment's results\n"
   "  --prediction FILE    scancmp --predict's curve beside the measured points, error per point\n"
   "  --production-cache-ratio R  production's place on a sweep (its engine cache / its detail data)\n"
   "  --mix SPEC           the user's mix estimated from the file's workloads (load=5,row=60,...)\n"
   "  --charts svg|none    draw the charts (default: svg when -o is given and gnuplot is on PATH)\n"
   "  --json FILE|-        also write the comparison as JSON\n"
   "  -q, -v, --version; -h, --help: this help; --help-all: every option\n"
   "\n"
   "Examples:\n"
   "  # the report and its charts (out/report-*.svg)\n"
   "  layout-report out/run.json -o out/report.md\n"
   "\n"
   "  # a sweep, with production's place on the curve\n"
   "  layout-report sweep.json -o sweep.md --production-cache 48GiB --production-data 310GiB\n"
   "\n"
   "  # what changed from another experiment (zlib against snappy)\n"
   "  layout-report zlib.json --baseline snappy.json -o zlib-vs-snappy.md --title 'zlib vs snappy'\n"
   "\n"
   "Every option: layout-report --help-all (also docs/help/layout-report.txt).\n"
   "Exit codes: 0 success, 1 runtime failure (unreadable or invalid results file, gnuplot failed),\n"
   "2 usage error.\n";

static const char *const charts_names[] = { "svg", "none", NULL };

/* parse_args -- fill *o from argv; false with *error on a usage error. */
static bool
parse_args (int argc, char **argv, report_opts_t *o, bson_error_t *error)
{
   lab_cli_list_t pos = { 0 };
   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_STRING ("--baseline", 0, &o->baseline),
      LAB_CLI_OPT_STRING ("--reference", 0, &o->reference),
      LAB_CLI_OPT_STRING ("--prediction", 0, &o->prediction),
      LAB_CLI_OPT_STRING ("--out", 'o', &o->output),
      LAB_CLI_OPT_ALIAS ("--output", 0, "--out"),
      LAB_CLI_OPT_STRING ("--title", 0, &o->title),
      LAB_CLI_OPT_ENUM ("--charts", 0, &o->charts, charts_names),
      LAB_CLI_OPT_STRING ("--production-cache-ratio", 0, &o->prod_ratio),
      LAB_CLI_OPT_STRING ("--production-cache", 0, &o->prod_cache),
      LAB_CLI_OPT_STRING ("--production-data", 0, &o->prod_data),
      LAB_CLI_OPT_STRING ("--mix", 0, &o->mix),
      LAB_CLI_OPT_INT ("--mix-ops", 0, &o->mix_ops, 1, INT64_C (1000000000000)),
      LAB_CLI_OPT_STRING ("--mix-file", 0, &o->mix_file),
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts,
                           .common = &o->common,
                           .positionals = &pos,
                           .common_refused = LAB_CLI_COMMON_STORE | LAB_CLI_COMMON_PROGRESS,
                           .refused_why = "layout-report opens no store, it reads only the results file it "
                                          "is given" };
   bool ok = false;

   memset (o, 0, sizeof *o);
   lab_cli_common_init (&o->common);
   o->charts = CHARTS_AUTO;
   if (!lab_cli_parse (&spec, argc, argv, 1, error)) {
      goto done;
   }
   if (pos.n > 1) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_UNEXPECTED_ARGUMENT,
                     "one results file at a time ('%s' and '%s'); compare two with --baseline", pos.v[0],
                     pos.v[1]);
      goto done;
   }
   o->input = pos.n ? pos.v[0] : NULL;
   ok = true;
   if (o->common.help || o->common.version) {
      goto done;
   }
   if (!o->input) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "no results file given: layout-report RUN.json [-o REPORT.md]");
      ok = false;
      goto done;
   }
   if (!lab_cmp_production_parse (o->prod_ratio, o->prod_cache, o->prod_data, &o->production, error)) {
      ok = false;
      goto done;
   }
   if (o->mix && !lab_cmp_mix_spec_parse (o->mix, o->mix_weight, error)) {
      ok = false;
      goto done;
   }
   if (o->mix_ops && !o->mix) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--mix-ops needs --mix SPEC: it is the size of the estimated mix");
      ok = false;
      goto done;
   }
   if (o->output && strcmp (o->output, "-") == 0) {
      o->output = NULL;
   }
   if (!o->output && o->common.json_path && strcmp (o->common.json_path, "-") == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--json - and the report cannot both go to standard output: add -o REPORT.md or "
                     "--json FILE");
      ok = false;
      goto done;
   }
   if (o->charts == CHARTS_SVG && !o->output) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--charts svg needs -o REPORT.md: the charts are written next to the report");
      ok = false;
      goto done;
   }
   if (o->output) {
      size_t n = strlen (o->output);
      if (n == 0 || o->output[n - 1] == '/') {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "-o '%s': name a file, e.g. out/report.md", o->output);
         ok = false;
         goto done;
      }
   }
   /* before reading or rendering anything: every output can be written */
   if (!lab_cli_output_check (o->output, "-o", error) ||
       !lab_cli_output_check (o->common.json_path, "--json", error)) {
      ok = false;
      goto done;
   }
done:
   lab_cli_list_free (&pos);
   return ok;
}

/* split_output -- directory and chart stem of the report path ("out/report.md" -> "out", "report"). */
static void
split_output (const char *path, char **dir, char **stem)
{
   const char *slash = strrchr (path, '/');
   const char *base = slash ? slash + 1 : path;
   size_t n = strlen (base);

   *dir = slash ? bson_strndup (path, (size_t)(slash - path)) : bson_strdup (".");
   if (slash == path) {
      bson_free (*dir);
      *dir = bson_strdup ("/");
   }
   if (n > 3 && strcmp (base + n - 3, ".md") == 0) {
      n -= 3;
   }
   *stem = bson_strndup (base, n);
}

/* comparison_json -- the medians, ratios and winners, appended to the summary `out`, for scripts; the
 * user's mix measured ("mix") and estimated ("mix_estimate", with its error per layout against the measured
 * one) when there is one. */
static void
comparison_json (const lab_cmp_results_t *r, const lab_cmp_results_t *mix_r, const char *report,
                 const lab_cmp_chart_set_t *set, const lab_cmp_mix_t *estimate, bson_t *out)
{
   const lab_metric_t *m = NULL;
   lab_results_layouts_t ls;
   size_t n = 0, i, l;
   bson_t metrics, charts, md, ml;
   char key[16];

   BSON_APPEND_UTF8 (out, "source", r->name);
   if (report) {
      BSON_APPEND_UTF8 (out, "report", report);
   }
   BSON_APPEND_ARRAY_BEGIN (out, "charts", &charts);
   for (i = 0; set && i < set->n; i++) {
      const char *k;
      bson_uint32_to_string ((uint32_t)i, &k, key, sizeof key);
      BSON_APPEND_UTF8 (&charts, k, set->charts[i].file);
   }
   bson_append_array_end (out, &charts);
   BSON_APPEND_DOCUMENT_BEGIN (out, "metrics", &metrics);
   lab_results_layouts (&r->doc, &ls);
   m = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_results_nrow_t row;
      lab_results_ncells_t cells;
      if (!lab_results_nrow (&r->doc, &ls, &m[i], &row)) {
         continue;
      }
      BSON_APPEND_DOCUMENT_BEGIN (&metrics, m[i].name, &md);
      for (l = 0; l < ls.n; l++) {
         if (!row.stat[l].present) {
            continue;
         }
         bson_append_document_begin (&md, ls.l[l].name, -1, &ml);
         BSON_APPEND_DOUBLE (&ml, "median", row.stat[l].median);
         BSON_APPEND_DOUBLE (&ml, "min", row.stat[l].min);
         BSON_APPEND_DOUBLE (&ml, "max", row.stat[l].max);
         BSON_APPEND_INT32 (&ml, "runs", row.stat[l].n);
         if (l != ls.reference && row.has_ratio[l]) {
            BSON_APPEND_DOUBLE (&ml, "ratio_to_reference", row.ratio[l]);
            /* the rule's interval of that ratio (paired runs) and how many runs it rests on */
            BSON_APPEND_INT32 (&ml, "runs_paired", row.vs_ref[l].npairs);
            if (row.vs_ref[l].has_ci) {
               bson_t ci;
               BSON_APPEND_ARRAY_BEGIN (&ml, "ratio_ci_95", &ci);
               BSON_APPEND_DOUBLE (&ci, "0", row.vs_ref[l].lo);
               BSON_APPEND_DOUBLE (&ci, "1", row.vs_ref[l].hi);
               bson_append_array_end (&ml, &ci);
            }
         }
         bson_append_document_end (&md, &ml);
      }
      /* the two-layout key scripts of schema version 1 read */
      if (ls.n == 2 && ls.reference == 0 && strcmp (ls.l[0].name, LAB_RESULTS_DETAIL) == 0 &&
          strcmp (ls.l[1].name, LAB_RESULTS_FOLDED) == 0 && row.has_ratio[1]) {
         BSON_APPEND_DOUBLE (&md, "ratio_folded_to_detail", row.ratio[1]);
      }
      /* better: a layout's name, "same", the tied best joined by " = ", or "none" */
      lab_results_nrow_cells (&row, &ls, false, &cells);
      BSON_APPEND_UTF8 (&md, "better",
                        row.winner == LAB_WIN_NONE  ? "none"
                        : row.winner == LAB_WIN_ONE ? ls.l[row.best].name
                                                    : cells.better);
      lab_results_ncells_cleanup (&cells);
      bson_append_document_end (&metrics, &md);
   }
   bson_append_document_end (out, &metrics);
   {
      /* keys that matched no document, runs whose layouts returned different rows */
      lab_cmp_match_t match;
      lab_cmp_match_of (r, &match);
      lab_cmp_match_json_append (&match, out);
   }
   {
      /* validated when the file was loaded */
      lab_cmp_mix_t measured;
      bson_error_t error;
      bool ok = lab_cmp_mix_of (&mix_r->doc, mix_r->name, &measured, &error);

      lab_cmp_mix_json_append (ok ? &measured : NULL, NULL, "mix", out);
      lab_cmp_mix_json_append (estimate, ok && measured.present ? &measured : NULL, "mix_estimate", out);
      lab_cmp_mix_cleanup (&measured);
   }
}

/* same_mix -- whether two mixes' proportions are the same shares (5,60 and 1,12 are). */
static bool
same_mix (const double a[LAB_CMP_MIX_TYPES], const double b[LAB_CMP_MIX_TYPES])
{
   double sa = 0, sb = 0;
   int t;

   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      sa += a[t], sb += b[t];
   }
   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      if (fabs (a[t] / sa - b[t] / sb) > 1e-9) {
         return false;
      }
   }
   return true;
}

/* estimate_mix -- --mix: the estimate of o->mix from the workloads of `run` into *mix; refused (a usage
 * error) when the file's measured mix has other proportions, or a type of the mix was not measured on a
 * layout. */
static bool
estimate_mix (const report_opts_t *o, const lab_cmp_results_t *run, const lab_cmp_results_t *mix_r,
              lab_cmp_mix_t *mix, bson_error_t *error)
{
   lab_cmp_workloads_t wl;
   lab_cmp_mix_t measured;
   lab_results_layouts_t ls;
   double ops = (double)o->mix_ops;
   bool ok = true;

   /* both were validated when the file was loaded */
   if (!lab_cmp_mix_of (&mix_r->doc, mix_r->name, &measured, error) ||
       !lab_cmp_workloads_of (&run->doc, run->name, &wl, error)) {
      lab_cmp_mix_cleanup (&measured);
      return false;
   }
   if (measured.present && !same_mix (measured.weight, o->mix_weight)) {
      char *given = lab_cmp_mix_spec_text (o->mix_weight);
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
         "--mix %s: %s holds a measured mix of other proportions (%s): give --mix %s to check the "
         "estimate against it, or estimate another mix from a file without one",
         given, mix_r->name, measured.spec, measured.spec);
      bson_free (given);
      ok = false;
   }
   if (ok && wl.n == 0) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
         "--mix: %s has no \"workloads\" to estimate the mix from: run scancmp --workload with the "
         "types of the mix (or scancmp --mix to measure it)",
         run->name);
      ok = false;
   }
   if (ok) {
      ops = ops > 0 ? ops : measured.present ? measured.ops : MIX_OPS_DEFAULT;
      lab_results_layouts (&run->doc, &ls);
      ok = lab_cmp_mix_estimate (&wl, &run->doc, &ls, run->name, o->mix_weight, ops, mix, error);
   }
   lab_cmp_workloads_cleanup (&wl);
   lab_cmp_mix_cleanup (&measured);
   return ok;
}

/* load_mix_file -- --mix-file: load `path` into *mixr and check it can stand for run's mix: it holds a
 * measured mix, run holds none of its own, and each layout of the mix is one of run's on the same
 * collection (the same data measured twice; a usage error naming the layout otherwise). */
static bool
load_mix_file (const char *path, const lab_cmp_results_t *run, lab_cmp_results_t *mixr, bson_error_t *error)
{
   lab_cmp_mix_t m = { 0 }, own = { 0 };
   bool ok = false;
   size_t i;

   if (!lab_cmp_results_load_file (path, mixr, error)) {
      lab_error_prefix (error, "--mix-file");
      return false;
   }
   if (!lab_cmp_mix_of (&mixr->doc, mixr->name, &m, error) ||
       !lab_cmp_mix_of (&run->doc, run->name, &own, error)) {
      goto done;
   }
   if (!m.present || m.n_layouts == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--mix-file %s holds no measured mix: give the file of scancmp --mix ... --out FILE",
                     path);
      goto done;
   }
   if (own.present) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--mix-file %s: %s holds a measured mix of its own: render that one without --mix-file",
                     path, run->name);
      goto done;
   }
   for (i = 0; i < m.n_layouts; i++) {
      const char *here = lab_cmp_collection_name (run, m.layouts[i].layout);

      if (!here || !m.layouts[i].collection || strcmp (here, m.layouts[i].collection) != 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                        "--mix-file %s: its layout '%s' (collection %s) is %s in %s: not the same data", path,
                        m.layouts[i].layout, m.layouts[i].collection ? m.layouts[i].collection : "unknown",
                        here ? here : "not a layout", run->name);
         goto done;
      }
   }
   ok = true;
done:
   lab_cmp_mix_cleanup (&m);
   lab_cmp_mix_cleanup (&own);
   return ok;
}

/* main -- parse, load the results (and baseline), draw the charts, render, write; exit codes per cli.h. */
int
main (int argc, char **argv)
{
   report_opts_t o;
   bson_error_t error = { 0 };
   lab_cmp_results_t run = { 0 }, base = { 0 }, pred = { 0 }, mixr = { 0 };
   lab_cmp_reference_t ref = { 0 };
   lab_cmp_chart_set_t set = { 0 };
   lab_cmp_mix_t mix = { 0 };
   lab_cmp_render_opts_t ro = { 0 };
   char *dir = NULL, *stem = NULL, *gnuplot = NULL, *md = NULL, *note = NULL;
   lab_cli_run_t cli;
   bson_t summary;
   int rc = LAB_EXIT_FAILURE;

   lab_cli_run_start (&cli, "layout-report", argc, argv);
   lab_log_set_tool ("layout-report");
   lab_log_sink_set (lab_log_sink_stderr, NULL);
   if (!parse_args (argc, argv, &o, &error)) {
      return lab_cli_usage_exit (&error);
   }
   if (o.common.help) {
      fputs (o.common.help_all ? usage_text : usage_short_text, stdout);
      return LAB_EXIT_OK;
   }
   if (o.common.version) {
      printf ("layout-report %s\n", LAB_VERSION);
      return LAB_EXIT_OK;
   }
   lab_log_set (&o.common);

   if (!lab_cmp_results_load_file (o.input, &run, &error)) {
      goto fail;
   }
   if (run.from_summary) {
      lab_log_info ("%s is scancmp's --json summary: rendering the results it holds", o.input);
   }
   if (o.baseline && !lab_cmp_results_load_file (o.baseline, &base, &error)) {
      lab_error_prefix (&error, "--baseline");
      goto fail;
   }
   if (o.prediction && !lab_cmp_results_load_file (o.prediction, &pred, &error)) {
      lab_error_prefix (&error, "--prediction");
      goto fail;
   }
   if (o.reference && !lab_cmp_reference_load_file (o.reference, &ref, &error)) {
      lab_error_prefix (&error, "--reference");
      goto fail;
   }
   if (o.mix_file && !load_mix_file (o.mix_file, &run, &mixr, &error)) {
      goto fail;
   }
   if (o.mix && !estimate_mix (&o, &run, o.mix_file ? &mixr : &run, &mix, &error)) {
      goto fail;
   }

   ro.production = o.production.ratio > 0 ? &o.production : NULL;
   if (o.charts == CHARTS_NONE) {
      ro.charts_note = "--charts none was given";
   } else if (!o.output) {
      ro.charts_note = "the report went to standard output (use -o REPORT.md to get charts next to it)";
   } else if (!(gnuplot = lab_cmp_gnuplot_path ())) {
      ro.charts_note = "gnuplot was not found on PATH (install Debian's gnuplot-nox, then re-run "
                       "layout-report)";
      lab_log_info ("gnuplot not found on PATH: the report says the charts were skipped");
   } else {
      split_output (o.output, &dir, &stem);
      lab_log_debug ("drawing charts with %s into %s/%s-*.svg", gnuplot, dir, stem);
      if (!lab_cmp_charts_write (&run, ro.production, o.prediction ? &pred : NULL, gnuplot, dir, stem, &set,
                                 &error)) {
         goto fail;
      }
      if (set.n == 0) {
         ro.charts_note = "the results file has no time series samples and no latency histogram";
      }
      ro.charts = set.charts;
      ro.n_charts = set.n;
   }
   ro.title = o.title;
   ro.baseline = o.baseline ? &base : NULL;
   ro.reference = o.reference ? &ref : NULL;
   ro.prediction = o.prediction ? &pred : NULL;
   ro.mix_estimate = o.mix ? &mix : NULL;
   ro.mix_file = o.mix_file ? &mixr : NULL;

   md = lab_cmp_render_md (&run, &ro);
   if (o.output) {
      if (!lab_file_write_atomic (o.output, md, strlen (md), &error)) {
         goto fail;
      }
      lab_log_info ("wrote %s and %zu chart%s", o.output, set.n, set.n == 1 ? "" : "s");
   } else if (fputs (md, stdout) < 0 || fflush (stdout) != 0) {
      lab_error_set_errno (&error, errno, "writing the report to standard output");
      goto fail;
   }
   rc = LAB_EXIT_OK;
   goto summary;

fail:
   lab_log_error ("%s", error.message);
   rc = lab_error_exit_code (&error);
   /* no partial output: the charts of a report that was not written go too */
   if (dir) {
      for (size_t i = 0; i < set.n; i++) {
         char *p = bson_strdup_printf ("%s/%s", dir, set.charts[i].file);
         remove (p);
         bson_free (p);
      }
   }
summary:
   /* the summary: the common header, then the comparison when there is one */
   if (o.common.json_path) {
      lab_cli_summary_init (&summary, &cli, rc, rc == LAB_EXIT_OK ? NULL : &error);
      if (rc == LAB_EXIT_OK) {
         comparison_json (&run, o.mix_file ? &mixr : &run, o.output, &set, o.mix ? &mix : NULL, &summary);
         lab_cmp_sweep_json_append (&run, ro.production, &summary);
      }
      if (!lab_json_write (&summary, o.common.json_path, &error)) {
         lab_log_error ("%s", error.message);
         rc = LAB_EXIT_FAILURE;
      }
      bson_destroy (&summary);
   }
   bson_free (md);
   bson_free (note);
   bson_free (gnuplot);
   bson_free (dir);
   bson_free (stem);
   lab_cmp_chart_set_cleanup (&set);
   lab_cmp_results_cleanup (&base);
   lab_cmp_results_cleanup (&pred);
   lab_cmp_results_cleanup (&mixr);
   lab_cmp_reference_cleanup (&ref);
   lab_cmp_mix_cleanup (&mix);
   lab_cmp_results_cleanup (&run);
   return rc;
}
