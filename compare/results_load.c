/*
 * results_load.c -- reading and validating a scancmp results file (docs/results-schema.md) with libbson's
 * JSON reader, and typed access to its figures by dotted path.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "core/error.h"

/* Figures without which a runs[] entry means nothing. The device totals (read_requests, read_bytes) are
 * required by the schema too, but scancmp leaves them out when it could not sample the device (a remote
 * server): the report then shows them as n/a rather than refusing the whole experiment. */
static const char *const required_run_numbers[] = { "run", "elapsed_s", "docs", "bytes_returned" };

/* position_to_line_col -- 1-based line and column of byte offset `pos` in data. */
static void
position_to_line_col (const char *data, size_t len, size_t pos, int *line, int *col)
{
   size_t i;

   *line = 1;
   *col = 1;
   for (i = 0; i < pos && i < len; i++) {
      if (data[i] == '\n') {
         (*line)++;
         *col = 1;
      } else {
         (*col)++;
      }
   }
}

/* describe_json_error -- turn libbson's parse message into one naming line and column when it gives a
 * byte position ("Got parse error at "x", position 12: ..."). */
static void
describe_json_error (const char *data, size_t len, const char *name, const bson_error_t *json_err,
                     bson_error_t *error)
{
   const char *p = strstr (json_err->message, "position ");
   int line, col;

   if (p) {
      size_t pos = (size_t)strtoull (p + strlen ("position "), NULL, 10);
      position_to_line_col (data, len, pos, &line, &col);
      lab_error_set (
         error, LAB_ERROR_IO, EINVAL,
         "%s: line %d, column %d: invalid JSON (%s); is it a results file written by scancmp --out?", name,
         line, col, json_err->message);
   } else {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: invalid JSON (%s): the file is truncated or damaged; re-run scancmp --out", name,
                     json_err->message);
   }
}

/* validate_runs -- the runs[] of `doc` (the file, or one sweep point named by `where`, "" for the top
 * level): objects with a known layout and the required figures, at least one entry of each layout. */
static bool
validate_runs (const bson_t *doc, const lab_results_layouts_t *ls, const char *name, const char *where,
               bson_error_t *error)
{
   bson_iter_t it, runs;
   double v;
   int idx = 0, n_layout[LAB_RESULTS_MAX_LAYOUTS] = { 0 }, k;
   size_t i;

   if (!bson_iter_init_find (&it, doc, LAB_RESULTS_KEY_RUNS) || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &runs)) {
      if (!where[0] && bson_iter_init_find (&it, doc, "workloads")) {
         /* scancmp --workload without load: its ledger needs the load's runs beside the other workloads */
         lab_error_set (error, LAB_ERROR_IO, EINVAL,
                        "%s: holds workloads but no load runs (scancmp --workload without load): the report "
                        "compares every workload with the load; run scancmp with load in --workload",
                        name);
         return false;
      }
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: %sno \"runs\" array: nothing to report", name, where);
      return false;
   }
   while (bson_iter_next (&runs)) {
      const uint8_t *data;
      uint32_t len;
      bson_t run;
      const char *layout;

      if (!BSON_ITER_HOLDS_DOCUMENT (&runs)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: %sruns[%d] is not an object", name, where, idx);
         return false;
      }
      bson_iter_document (&runs, &len, &data);
      if (!bson_init_static (&run, data, len)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: %sruns[%d] is not a valid document", name, where,
                        idx);
         return false;
      }
      layout = lab_results_get_string (&run, LAB_RESULTS_KEY_LAYOUT);
      k = lab_results_layout_find (ls, layout);
      if (k < 0) {
         bson_string_t *names = bson_string_new (NULL);
         for (i = 0; i < ls->n; i++) {
            bson_string_append_printf (names, "%s\"%s\"",
                                       i == 0           ? ""
                                       : i + 1 == ls->n ? " or "
                                                        : ", ",
                                       ls->l[i].name);
         }
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: %sruns[%d]: \"layout\" must be %s%s%s%s", name,
                        where, idx, names->str, layout ? " (found \"" : "", layout ? layout : "",
                        layout ? "\")" : "");
         bson_string_free (names, true);
         return false;
      }
      n_layout[k]++;
      for (i = 0; i < sizeof required_run_numbers / sizeof required_run_numbers[0]; i++) {
         bool predicted = false;
         /* a predicted entry (scancmp --predict) has a load time only when the prediction was timed */
         if (strcmp (required_run_numbers[i], "elapsed_s") == 0 &&
             lab_results_get_bool (&run, "predicted", &predicted) && predicted) {
            continue;
         }
         if (!lab_results_get_number (&run, required_run_numbers[i], &v)) {
            lab_error_set (error, LAB_ERROR_IO, EINVAL,
                           "%s: %sruns[%d] (%s): missing or non-numeric \"%s\", which every run entry must "
                           "carry (docs/results-schema.md)",
                           name, where, idx, layout, required_run_numbers[i]);
            return false;
         }
      }
      idx++;
   }
   if (ls->n == 2 && (n_layout[0] == 0 || n_layout[1] == 0)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: %sruns[] has %d %s and %d %s entries; a comparison needs at least one of each",
                     name, where, n_layout[0], ls->l[0].name, n_layout[1], ls->l[1].name);
      return false;
   }
   for (i = 0; i < ls->n; i++) {
      if (n_layout[i] == 0) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL,
                        "%s: %sruns[] has no entry of layout %s; a comparison needs at least one of each "
                        "layout",
                        name, where, ls->l[i].name);
         return false;
      }
   }
   return true;
}

/* validate_workloads -- the optional "workloads": readable (lab_cmp_workloads_of), and every
 * layout it measured one of the file's layouts. */
static bool
validate_workloads (const bson_t *doc, const lab_results_layouts_t *ls, const char *name, bson_error_t *error)
{
   lab_cmp_workloads_t wl;
   bool ok = lab_cmp_workloads_of (doc, name, &wl, error);
   size_t i, j;

   for (i = 0; ok && i < wl.n; i++) {
      for (j = 0; ok && j < wl.w[i].n_layouts; j++) {
         if (lab_results_layout_find (ls, wl.w[i].layouts[j].layout) < 0) {
            lab_error_set (error, LAB_ERROR_IO, EINVAL,
                           "%s: workloads[%zu] (%s): layouts[%zu]: layout \"%s\" is none of the file's "
                           "layouts (\"layouts\", or detail and folded in a version 1 file)",
                           name, i, wl.w[i].workload, j, wl.w[i].layouts[j].layout);
            ok = false;
         }
      }
   }
   lab_cmp_workloads_cleanup (&wl);
   return ok;
}

/* validate_mix -- the optional "mix": readable (lab_cmp_mix_of), and every layout it ran one
 * of the file's layouts. */
static bool
validate_mix (const bson_t *doc, const lab_results_layouts_t *ls, const char *name, bson_error_t *error)
{
   lab_cmp_mix_t mix;
   bool ok = lab_cmp_mix_of (doc, name, &mix, error);
   size_t i;

   for (i = 0; ok && i < mix.n_layouts; i++) {
      if (lab_results_layout_find (ls, mix.layouts[i].layout) < 0) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL,
                        "%s: mix: layouts[%zu]: layout \"%s\" is none of the file's layouts", name, i,
                        mix.layouts[i].layout);
         ok = false;
      }
   }
   lab_cmp_mix_cleanup (&mix);
   return ok;
}

/* validate -- the schema rules layout-report relies on; errors name the file and the entry. A sweep file
 * (docs/results-schema.md, "Cache sweep") keeps the sweep rules of core/results.h, and each point's
 * runs[] the rules of the top level. */
static bool
validate (const bson_t *doc, const char *name, bson_error_t *error)
{
   lab_results_layouts_t ls;
   bson_iter_t it;
   double v;
   size_t i, n;

   if (!lab_results_get_number (doc, LAB_RESULTS_KEY_SCHEMA_VERSION, &v)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: no \"schema_version\": not a scancmp results file (see docs/results-schema.md)",
                     name);
      return false;
   }
   if (v != floor (v) || v < LAB_RESULTS_SCHEMA_VERSION_MIN || v > LAB_RESULTS_SCHEMA_VERSION) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: schema_version %g is not supported (this layout-report reads versions %d to %d); "
                     "use the layout-report of the scancmp that wrote it",
                     name, v, LAB_RESULTS_SCHEMA_VERSION_MIN, LAB_RESULTS_SCHEMA_VERSION);
      return false;
   }
   /* version 1 has no layouts[]: it always compares detail and folded */
   if (bson_iter_init_find (&it, doc, LAB_RESULTS_KEY_LAYOUTS) && (v < 2 || !BSON_ITER_HOLDS_ARRAY (&it))) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: \"layouts\" must be an array of {name, collection, kind}, from schema_version 2 on",
                     name);
      return false;
   }
   lab_results_layouts (doc, &ls);
   if (ls.n < 2) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: \"layouts\" names %zu layout%s: a comparison needs at least two, each with a "
                     "distinct \"name\"",
                     name, ls.n, ls.n == 1 ? "" : "s");
      return false;
   }
   if (!validate_runs (doc, &ls, name, "", error)) {
      return false;
   }
   if (!lab_results_sweep_check (doc, error)) {
      lab_error_prefix (error, "%s", name);
      return false;
   }
   if (!validate_workloads (doc, &ls, name, error) || !validate_mix (doc, &ls, name, error)) {
      return false;
   }
   n = lab_results_sweep_n (doc);
   for (i = 0; i < n; i++) {
      lab_sweep_point_t p;
      char *cache, *where;
      bool ok;

      lab_results_sweep_point (doc, i, &p);
      cache = lab_results_format_binary (p.cache_size_bytes);
      where = bson_strdup_printf (LAB_RESULTS_KEY_SWEEP "[%zu] (%s): ", i, cache);
      ok = validate_runs (&p.doc, &ls, name, where, error);
      bson_free (where);
      bson_free (cache);
      if (!ok) {
         return false;
      }
   }
   return true;
}

/* unwrap_summary -- a tool's --json summary (docs/json-summary.md: "tool", "command_line", ...) instead of
 * a results file: scancmp's holds the results under "results" (read from there); any other is refused
 * naming the file to give instead. A document with schema_version is left as it is. */
static bool
unwrap_summary (lab_cmp_results_t *out, const char *name, bson_error_t *error)
{
   const char *tool = lab_results_get_string (&out->doc, "tool");
   bson_iter_t it;
   double v;

   if (lab_results_get_number (&out->doc, LAB_RESULTS_KEY_SCHEMA_VERSION, &v) || !tool ||
       !bson_iter_init_find (&it, &out->doc, "command_line")) {
      return true;
   }
   if (strcmp (tool, "scancmp") == 0 && bson_iter_init_find (&it, &out->doc, "results") &&
       BSON_ITER_HOLDS_DOCUMENT (&it)) {
      const uint8_t *data;
      uint32_t len;
      bson_t results;

      bson_iter_document (&it, &len, &data);
      if (!bson_init_static (&results, data, len)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"results\" is not a valid document", name);
         return false;
      }
      bson_t *copy = bson_copy (&results);
      bson_destroy (&out->doc);
      bson_copy_to (copy, &out->doc);
      bson_destroy (copy);
      out->from_summary = true;
      return true;
   }
   if (strcmp (tool, "scancmp") == 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s is the --json summary of a scancmp run that measured nothing (no \"results\"): "
                     "its \"error\" says why; give layout-report the file of a run that finished "
                     "(scancmp --out run.json)",
                     name);
      return false;
   }
   lab_error_set (error, LAB_ERROR_IO, EINVAL,
                  "%s is %s's --json summary, not a results file: give layout-report the file scancmp "
                  "writes with --out (scancmp ... --out run.json)",
                  name, tool);
   return false;
}

/* lab_cmp_results_load_json -- see cmp.h. */
bool
lab_cmp_results_load_json (const char *data, size_t len, const char *name, lab_cmp_results_t *out,
                           bson_error_t *error)
{
   bson_json_reader_t *reader = NULL;
   bson_error_t jerr;
   bson_t extra = BSON_INITIALIZER;
   size_t i = 0;
   int rc;
   bool ok = false;

   memset (out, 0, sizeof *out);
   bson_init (&out->doc);
   while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r')) {
      i++;
   }
   if (i == len) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: empty file: not a results file", name);
      goto done;
   }
   if (data[i] != '{') {
      int line, col;
      position_to_line_col (data, len, i, &line, &col);
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: line %d, column %d: expected a JSON object ('{'), found '%c'", name, line, col,
                     data[i]);
      goto done;
   }
   reader = bson_json_data_reader_new (false, len);
   bson_json_data_reader_ingest (reader, (const uint8_t *)data, len);
   rc = bson_json_reader_read (reader, &out->doc, &jerr);
   if (rc < 0) {
      describe_json_error (data, len, name, &jerr, error);
      goto done;
   }
   if (rc == 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: no JSON document in the file", name);
      goto done;
   }
   rc = bson_json_reader_read (reader, &extra, &jerr);
   if (rc != 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: unexpected content after the results document (one document per file)", name);
      goto done;
   }
   if (!unwrap_summary (out, name, error) || !validate (&out->doc, name, error)) {
      goto done;
   }
   out->name = bson_strdup (name);
   ok = true;

done:
   bson_destroy (&extra);
   if (reader) {
      bson_json_reader_destroy (reader);
   }
   if (!ok) {
      bson_destroy (&out->doc);
      memset (out, 0, sizeof *out);
   }
   return ok;
}

/* lab_cmp_results_load_file -- see cmp.h. */
bool
lab_cmp_results_load_file (const char *path, lab_cmp_results_t *out, bson_error_t *error)
{
   FILE *f = NULL;
   char *data = NULL;
   size_t len = 0, cap = 0, got;
   const char *base;
   bool ok = false;

   memset (out, 0, sizeof *out);
   f = fopen (path, "rb");
   if (!f) {
      lab_error_set_errno (error, errno, "cannot open results file %s", path);
      goto done;
   }
   for (;;) {
      if (len + 65536 > cap) {
         cap = cap ? cap * 2 : 262144;
         data = bson_realloc (data, cap);
      }
      got = fread (data + len, 1, cap - len, f);
      len += got;
      if (got == 0) {
         break;
      }
   }
   if (ferror (f)) {
      lab_error_set_errno (error, EIO, "cannot read results file %s", path);
      goto done;
   }
   /* errors name the path as given, so the user finds the file; headings use the base name only */
   if (!lab_cmp_results_load_json (data ? data : "", len, path, out, error)) {
      goto done;
   }
   base = strrchr (path, '/');
   bson_free (out->name);
   out->name = bson_strdup (base ? base + 1 : path);
   ok = true;

done:
   if (f) {
      fclose (f);
   }
   bson_free (data);
   return ok;
}

/* lab_cmp_results_cleanup -- see cmp.h. */
void
lab_cmp_results_cleanup (lab_cmp_results_t *r)
{
   if (r->name) {
      bson_destroy (&r->doc);
      bson_free (r->name);
   }
   memset (r, 0, sizeof *r);
}
