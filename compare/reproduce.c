/*
 * reproduce.c -- two sections of the report a design review needs beside the figures: what was measured
 * (and what was not), and how to reproduce it: the commands that made each layout's collection (from the
 * provenance scancmp copies into dataset.<layout>.provenance, docs/results-schema.md), the fold's --verify
 * outcome, the scancmp command line, the versions and the host. Whatever the file does not record is said
 * to be unrecorded, never guessed. Pure functions of the results document.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/render_private.h"
#include "core/cli.h"
#include "core/suggest.h"

/* md_opt -- append `prefix` and `value` (escaped) when the file records the value; nothing otherwise. */
static void
md_opt (bson_string_t *o, const char *prefix, const char *value)
{
   if (value) {
      bson_string_append (o, prefix);
      lab_cmp_md_text (o, value);
   }
}

/* sub_doc -- the document at dotted `path` of doc as a read-only view in *out; false when absent. */
static bool
sub_doc (const bson_t *doc, const char *path, bson_t *out)
{
   bson_iter_t it, child;
   const uint8_t *data;
   uint32_t len;

   if (!bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &child) ||
       !BSON_ITER_HOLDS_DOCUMENT (&child)) {
      return false;
   }
   bson_iter_document (&child, &len, &data);
   return bson_init_static (out, data, len);
}

/* recorded_opt -- the value of --NAME (as "--NAME V" or "--NAME=V") in argv, NULL when absent. */
static const char *
recorded_opt (int argc, char *const *argv, const char *name)
{
   size_t n = strlen (name);
   int i;

   for (i = 1; i < argc; i++) {
      if (strncmp (argv[i], name, n) == 0 && argv[i][n] == '=') {
         return argv[i] + n + 1;
      }
      if (strcmp (argv[i], name) == 0 && i + 1 < argc) {
         return argv[i + 1];
      }
   }
   return NULL;
}

/* md_command -- a recorded command line (an array of arguments, URIs already redacted) as one shell
 * line, rebuilt by core/suggest.h around the store it used: its own --uri and --db, else the measured
 * store's (a command run without them used the default store, which the measurement names); false when
 * `path` holds no such array. Inside a code block: only a fence could break it. */
static bool
md_command (bson_string_t *o, const bson_t *doc, const char *path)
{
   bson_iter_t it, arr;
   bson_string_t *line, *tool;
   char *argv[256];
   int argc = 0, first = 1;
   char *fenced;
   const char *uri, *db;

   if (!bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &arr) ||
       !BSON_ITER_HOLDS_ARRAY (&arr) || !bson_iter_recurse (&arr, &it)) {
      return false;
   }
   while (bson_iter_next (&it) && argc < (int)(sizeof argv / sizeof argv[0])) {
      if (BSON_ITER_HOLDS_UTF8 (&it)) {
         argv[argc++] = (char *)bson_iter_utf8 (&it, NULL);
      }
   }
   if (argc == 0) {
      return false;
   }
   tool = bson_string_new (NULL);
   {
      /* the program as a name, not the path it was run from; billgen with its command */
      const char *slash = strrchr (argv[0], '/');
      lab_cli_shell_quote (tool, slash ? slash + 1 : argv[0]);
      if (argc > 1 && argv[1][0] != '-' && strcmp (slash ? slash + 1 : argv[0], "billgen") == 0) {
         bson_string_append_c (tool, ' ');
         lab_cli_shell_quote (tool, argv[1]);
         first = 2;
      }
   }
   uri = recorded_opt (argc, argv, "--uri");
   db = recorded_opt (argc, argv, "--db");
   line = bson_string_new (NULL);
   lab_suggest_begin (line, tool->str, uri ? uri : lab_results_get_string (doc, "backend.uri"),
                      db ? db : lab_results_get_string (doc, "backend.db"));
   lab_suggest_argv (line, argc, argv, first);
   for (fenced = strstr (line->str, "```"); fenced; fenced = strstr (fenced, "```")) {
      fenced[1] = '\'';
   }
   bson_string_append (o, line->str);
   bson_string_append (o, "\n");
   bson_string_free (line, true);
   bson_string_free (tool, true);
   return true;
}

/* unused_by_shape -- a fold setting the destination's shape does not use: the rows copied unchanged
 * (sorted, clustered, copy) have no array, hoist, cap or buckets; a folded layout's buckets when unset. */
static bool
unused_by_shape (const char *shape, const bson_iter_t *it)
{
   static const char *const fold_only[] = { "array_field", "hoist_spec",  "hoist",    "max_doc_bytes",
                                            "on_oversize", "bucket_rows", "bucket_by" };
   const char *key = bson_iter_key (it);
   size_t i;

   if (shape && (!strcmp (shape, "sorted") || !strcmp (shape, "clustered") || !strcmp (shape, "copy"))) {
      for (i = 0; i < sizeof fold_only / sizeof fold_only[0]; i++) {
         if (!strcmp (key, fold_only[i])) {
            return true;
         }
      }
   }
   return (!strcmp (key, "bucket_rows") && BSON_ITER_HOLDS_NUMBER (it) && bson_iter_as_int64 (it) == 0) ||
          (BSON_ITER_HOLDS_UTF8 (it) && *bson_iter_utf8 (it, NULL) == '\0');
}

/* md_params -- "bills 3000, seed 7, dist lognormal": the tool's recorded settings in prose (an array as
 * its items, "none" when empty), leaving out what the layout's shape does not use and settings left empty. */
static void
md_params (bson_string_t *o, const bson_t *params)
{
   const char *shape = lab_results_get_string (params, "shape");
   bson_iter_t it;
   bool first = true;

   if (!bson_iter_init (&it, params)) {
      return;
   }
   while (bson_iter_next (&it)) {
      if (unused_by_shape (shape, &it)) {
         continue;
      }
      bson_string_append (o, first ? "" : ", ");
      lab_cmp_md_text (o, bson_iter_key (&it));
      bson_string_append (o, " ");
      lab_cmp_md_value (o, &it);
      first = false;
   }
}

/* md_verify -- the fold's --verify outcome as recorded: proof, a difference, or none recorded; when writes
 * followed it (the layout's provenance "writes"), said to be the data before them. */
static void
md_verify (bson_string_t *o, const lab_cmp_results_t *r, const bson_t *prov, const char *coll,
           const char *layout)
{
   lab_cmp_writes_sum_t w;
   bson_t v;
   bool ok = false, has_ok;
   double rows, masters;
   const char *method, *sum, *at;

   bson_string_append (o, "  - verified: ");
   if (!sub_doc (prov, "verify", &v)) {
      const char *src = lab_results_get_string (prov, "source");
      bson_string_t *args = bson_string_new (NULL);
      if (src) {
         bson_string_append (args, "--src ");
         lab_cli_shell_quote (args, src);
         bson_string_append (args, " ");
      }
      if (coll) {
         bson_string_append (args, "--dst ");
         lab_cli_shell_quote (args, coll);
         bson_string_append (args, " ");
      }
      bson_string_append (args, "--verify");
      bson_string_append (o, "not recorded (the fold ran without `--verify`, or its result was not kept): ");
      lab_cmp_md_suggest (o, r, "fold-details", args->str);
      bson_string_append (o, " checks it now\n");
      bson_string_free (args, true);
      return;
   }
   has_ok = lab_results_get_bool (&v, "ok", &ok);
   method = lab_results_get_string (&v, "method");
   sum = lab_results_get_string (&v, "checksum");
   at = lab_results_get_string (&v, "at");
   bson_string_append (o, !has_ok ? "outcome not recorded"
                          : ok    ? "**equal to the source**"
                                  : "**different from the source**");
   if (lab_results_get_number (&v, "rows", &rows)) {
      bson_string_append (o, ", ");
      lab_cmp_md_number (o, LAB_CMP_COUNT, rows);
      bson_string_append (o, " rows");
      if (lab_results_get_number (&v, "masters", &masters)) {
         bson_string_append (o, " in ");
         lab_cmp_md_number (o, LAB_CMP_COUNT, masters);
         bson_string_append (o, " masters");
      }
      bson_string_append (o, " checked");
   }
   if (method) {
      bson_string_append (o, !strcmp (method, "ordered")    ? ", walking both in key order (ordered)"
                             : !strcmp (method, "multiset") ? ", by per-master hashes of the rows (multiset)"
                                                            : ", method ");
      if (strcmp (method, "ordered") != 0 && strcmp (method, "multiset") != 0) {
         lab_cmp_md_text (o, method);
      }
   }
   md_opt (o, ", checksum ", sum);
   md_opt (o, ", at ", at);
   if (lab_cmp_writes_since (&r->doc, layout, at, &w)) {
      /* the writes changed the data after the proof: what was measured is not what was verified */
      bson_string_append (o, at ? ", **before** " : ", before or after (when is not recorded) ");
      lab_cmp_md_writes_sum (o, &w);
      bson_string_append (o, " (the data measured here is the data after them, not the data verified)");
   }
   bson_string_append (o, has_ok && !ok ? ": the layout does not hold exactly the source's rows; its figures "
                                          "compare different data\n"
                                        : "\n");
}

/* One write entry of a layout's provenance (dataset.<layout>.provenance.writes.<i>). */
typedef struct {
   const char *layout, *at, *workload;
   double appended, updated;
   char *cmd; /* its command line as one shell line (owned; NULL: not recorded) */
} went_t;

/* wents_of -- every layout's write entries, oldest first (*n of them; caller frees with wents_free). */
static went_t *
wents_of (const bson_t *doc, const lab_results_layouts_t *ls, size_t *n)
{
   went_t *ws = NULL;
   size_t cap = 0, l, i, j;
   char path[200], p2[240];

   *n = 0;
   for (l = 0; l < ls->n; l++) {
      for (i = 0; i < 100000; i++) {
         went_t *w;
         bson_string_t *cmd;
         snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.provenance.writes.%zu", ls->l[l].name, i);
         snprintf (p2, sizeof p2, "%s.workload", path);
         if (!lab_results_get_string (doc, p2)) {
            break;
         }
         if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            ws = bson_realloc (ws, cap * sizeof *ws);
         }
         w = &ws[(*n)++];
         memset (w, 0, sizeof *w);
         w->layout = ls->l[l].name;
         w->workload = lab_results_get_string (doc, p2);
         snprintf (p2, sizeof p2, "%s.at", path);
         w->at = lab_results_get_string (doc, p2);
         snprintf (p2, sizeof p2, "%s.rows_appended", path);
         lab_results_get_number (doc, p2, &w->appended);
         snprintf (p2, sizeof p2, "%s.rows_updated", path);
         lab_results_get_number (doc, p2, &w->updated);
         snprintf (p2, sizeof p2, "%s.command_line", path);
         cmd = bson_string_new (NULL);
         if (md_command (cmd, doc, p2)) {
            w->cmd = bson_string_free (cmd, false);
         } else {
            bson_string_free (cmd, true); /* not recorded: said so where it would be */
         }
      }
   }
   /* oldest first (insertion sort: a handful), an entry without a time last */
   for (i = 1; i < *n; i++) {
      went_t t = ws[i];
      for (j = i; j > 0 && (!ws[j - 1].at || (t.at && strcmp (ws[j - 1].at, t.at) > 0)); j--) {
         ws[j] = ws[j - 1];
      }
      ws[j] = t;
   }
   return ws;
}

/* wents_free -- free what wents_of returned. */
static void
wents_free (went_t *ws, size_t n)
{
   size_t i;

   for (i = 0; i < n; i++) {
      bson_free (ws[i].cmd);
   }
   bson_free (ws);
}

/* md_went -- "append +40 rows" / "update 15 rows corrected" / "mix +12 rows appended, 8 corrected". */
static void
md_went (bson_string_t *o, const went_t *w)
{
   lab_cmp_md_text (o, w->workload);
   if (w->appended > 0) {
      bson_string_append (o, " +");
      lab_cmp_md_number (o, LAB_CMP_COUNT, w->appended);
      bson_string_append (o, w->updated > 0 ? " rows appended," : " rows");
   }
   if (w->updated > 0) {
      bson_string_append (o, " ");
      lab_cmp_md_number (o, LAB_CMP_COUNT, w->updated);
      bson_string_append (o, " rows corrected");
   }
}

/* md_layout_writes -- under a layout's facts: each write its collection had after it was made. */
static void
md_layout_writes (bson_string_t *o, const bson_t *doc, const char *layout)
{
   lab_results_layouts_t one;
   went_t *ws;
   size_t n, i;

   memset (&one, 0, sizeof one);
   one.n = 1;
   one.l[0].name = layout;
   ws = wents_of (doc, &one, &n);
   if (n > 0) {
      bson_string_append (o, "  - written to since, before this measurement (commands above): ");
      for (i = 0; i < n; i++) {
         bson_string_append (o, i ? "; " : "");
         md_went (o, &ws[i]);
         md_opt (o, " at ", ws[i].at);
      }
      bson_string_append (o, "\n");
   }
   wents_free (ws, n);
}

/* md_writes_commands -- in the code block, after the commands that made the layouts: the commands that
 * wrote to them since, oldest first; one scancmp run that wrote several layouts (or workloads) once. */
static void
md_writes_commands (bson_string_t *o, const bson_t *doc, const lab_results_layouts_t *ls)
{
   size_t n, i, j, k;
   went_t *ws = wents_of (doc, ls, &n);

   for (i = 0; i < n; i = j) {
      /* the run: the entries after i with the same command, until a (layout, workload) repeats */
      for (j = i + 1; j < n; j++) {
         bool again = false;
         if (!ws[i].cmd || !ws[j].cmd || strcmp (ws[i].cmd, ws[j].cmd) != 0) {
            break;
         }
         for (k = i; k < j && !again; k++) {
            again = !strcmp (ws[k].layout, ws[j].layout) && !strcmp (ws[k].workload, ws[j].workload);
         }
         if (again) {
            break;
         }
      }
      bson_string_append (o, "# then written to");
      if (ws[i].at) {
         bson_string_append_printf (o, " at %s", ws[i].at);
      }
      bson_string_append (o, ":");
      for (k = i; k < j; k++) {
         bson_string_append_printf (o, "%s %s ", k > i ? "," : "", ws[k].layout);
         md_went (o, &ws[k]);
      }
      bson_string_append (o, ws[i].cmd ? "\n" : "; its command is not recorded\n");
      bson_string_append (o, ws[i].cmd ? ws[i].cmd : "");
   }
   wents_free (ws, n);
}

/* md_layout_facts -- under the commands: per layout, who wrote it when, from what, with which settings,
 * and (a fold) whether it was verified; what is not recorded said so. */
static void
md_layout_facts (bson_string_t *o, const lab_cmp_results_t *r, const lab_results_layouts_t *ls)
{
   char path[160];
   size_t l;

   for (l = 0; l < ls->n; l++) {
      bson_t prov, params;
      const char *tool, *version, *at, *source;

      bson_string_append (o, "- **");
      lab_cmp_md_text (o, ls->l[l].name);
      bson_string_append (o, "**");
      md_opt (o, " (", ls->l[l].collection);
      bson_string_append (o, ls->l[l].collection ? ")" : "");
      snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.provenance", ls->l[l].name);
      if (!sub_doc (&r->doc, path, &prov)) {
         bson_string_append (o, ": how it was made is not recorded (written before layoutlab recorded it, or "
                                "not by a layoutlab tool)\n");
         continue;
      }
      tool = lab_results_get_string (&prov, "tool");
      version = lab_results_get_string (&prov, "version");
      at = lab_results_get_string (&prov, "written_at");
      source = lab_results_get_string (&prov, "source");
      bson_string_append (o, ": written by ");
      lab_cmp_md_text (o, tool ? tool : "a tool not recorded");
      md_opt (o, " ", version);
      md_opt (o, " from ", source);
      md_opt (o, " at ", at);
      bson_string_append (o, at ? "" : " (when: not recorded)");
      bson_string_append (o, "\n  - settings: ");
      if (sub_doc (&prov, "params", &params) && !bson_empty (&params)) {
         md_params (o, &params);
      } else {
         bson_string_append (o, "not recorded");
      }
      bson_string_append (o, "\n");
      if (tool && strcmp (tool, "fold-details") == 0) {
         md_verify (o, r, &prov, ls->l[l].collection, ls->l[l].name);
      }
      md_layout_writes (o, &r->doc, ls->l[l].name);
   }
}

/* md_commands -- the code block of the commands that made the layouts and the measurement, in that
 * order, each under a comment naming what it made; those not recorded said so in their comment. */
static void
md_commands (bson_string_t *o, const lab_cmp_results_t *r, const lab_results_layouts_t *ls)
{
   const char *started = lab_results_header (&r->doc, LAB_RESULTS_KEY_STARTED);
   char path[160];
   size_t l;

   bson_string_append (o, "```sh\n");
   for (l = 0; l < ls->n; l++) {
      bson_string_append_printf (o, "# %s", ls->l[l].name);
      if (ls->l[l].collection) {
         bson_string_append_printf (o, " (%s)", ls->l[l].collection);
      }
      snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.provenance.command_line", ls->l[l].name);
      {
         bson_string_t *cmd = bson_string_new (NULL);
         if (md_command (cmd, &r->doc, path)) {
            bson_string_append (o, "\n");
            bson_string_append (o, cmd->str);
         } else {
            bson_string_append (o, ": its command is not recorded\n");
         }
         bson_string_free (cmd, true);
      }
   }
   md_writes_commands (o, &r->doc, ls);
   bson_string_append (o, "# the measurement");
   if (started) {
      bson_string_append_printf (o, ", started %s", started);
   }
   {
      bson_string_t *cmd = bson_string_new (NULL);
      if (md_command (cmd, &r->doc, LAB_RESULTS_KEY_COMMAND_LINE)) {
         bson_string_append (o, "\n");
         bson_string_append (o, cmd->str);
      } else {
         bson_string_append (o, ": the scancmp command line is not recorded (results files before schema "
                                "version 3 do not hold it)\n");
      }
      bson_string_free (cmd, true);
   }
   bson_string_append (o, "```\n\n");
}

/* lab_cmp_render_reproduce -- see cmp.h. */
void
lab_cmp_render_reproduce (bson_string_t *o, const lab_cmp_results_t *r)
{
   lab_results_layouts_t ls;
   const bson_t *d = &r->doc;
   const char *s;
   double v;

   lab_results_layouts (d, &ls);
   bson_string_append (o,
                       "## Reproduce\n\n"
                       "The commands that made each layout's collection and this measurement, as the "
                       "results file records them (URIs redacted; what it does not record is said so):\n\n");
   md_commands (o, r, &ls);
   md_layout_facts (o, r, &ls);
   bson_string_append (o, "- measured by ");
   s = lab_results_get_string (d, "tool");
   lab_cmp_md_text (o, s ? s : "a tool not recorded");
   md_opt (o, " ", lab_results_header (d, LAB_RESULTS_KEY_VERSION));
   bson_string_append (o, " on ");
   s = lab_results_get_string (d, "backend.name");
   lab_cmp_md_text (o, s ? s : "a backend not recorded");
   md_opt (o, " ", lab_results_get_string (d, "backend.version"));
   bson_string_append (o, "; host ");
   lab_cmp_md_text (o, lab_results_get_string (d, "host.hostname"));
   bson_string_append (o, " (");
   lab_cmp_md_text (o, lab_results_get_string (d, "host.kernel"));
   bson_string_append (o, ", ");
   lab_cmp_md_text (o, lab_results_get_string (d, "host.cpu_model"));
   if (lab_results_get_number (d, "host.cores", &v)) {
      bson_string_append_printf (o, ", %.0f core%s", v, v == 1 ? "" : "s");
   }
   if (lab_results_get_number (d, "host.ram_bytes", &v)) {
      char *ram = lab_results_format (LAB_UNIT_BYTES, v);
      bson_string_append_printf (o, ", %s of RAM", ram);
      bson_free (ram);
   }
   bson_string_append (o, ")\n\n");
}

/* has_writes -- the file's "workloads" array holds an append or an update, or the file holds a
 * measured mix (which writes). */
static bool
has_writes (const bson_t *d)
{
   bson_iter_t it, child, f;

   if (bson_iter_init_find (&it, d, "mix")) {
      return true;
   }
   if (!bson_iter_init_find (&it, d, "workloads") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &child)) {
      return false;
   }
   while (bson_iter_next (&child)) {
      if (BSON_ITER_HOLDS_DOCUMENT (&child) && bson_iter_recurse (&child, &f) &&
          bson_iter_find (&f, "workload") && BSON_ITER_HOLDS_UTF8 (&f) &&
          (strcmp (bson_iter_utf8 (&f, NULL), "append") == 0 ||
           strcmp (bson_iter_utf8 (&f, NULL), "update") == 0)) {
         return true;
      }
   }
   return false;
}

/* lab_cmp_render_measured -- see cmp.h. */
void
lab_cmp_render_measured (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   lab_results_layouts_t ls;
   double keys = -1, parallel = -1, runs = -1, limit = 0;
   bool cold = false, buckets = false;
   const char *key = lab_results_get_string (d, "config.key");
   bson_iter_t it, child;
   bool has_workloads;
   size_t l;

   /* a non-empty "workloads" array (its sections say the rest) */
   has_workloads = bson_iter_init_find (&it, d, "workloads") && BSON_ITER_HOLDS_ARRAY (&it) &&
                   bson_iter_recurse (&it, &child) && bson_iter_next (&child);
   lab_results_layouts (d, &ls);
   for (l = 0; l < ls.n; l++) {
      buckets = buckets || lab_layout_bucketed (&ls.l[l].desc);
   }
   lab_results_get_number (d, "dataset.keys", &keys);
   lab_results_get_number (d, "config.parallel", &parallel);
   lab_results_get_number (d, "config.runs", &runs);
   lab_results_get_number (d, "config.keys_limit", &limit);
   lab_results_get_bool (d, "config.cold", &cold);
   bson_string_append (o, has_workloads ? "## What was measured\n\nThe load workload: "
                                        : "## What was measured\n\nOne workload: ");
   if (keys >= 0) {
      lab_cmp_md_number (o, LAB_CMP_COUNT, keys);
      bson_string_append (o, " masters");
   } else {
      bson_string_append (o, "the masters");
   }
   md_opt (o, " (", key);
   bson_string_append (o, key ? ")" : "");
   bson_string_append (o, limit > 0 ? ", spread over the whole key range," : "");
   bson_string_append (o, " each loaded whole by its key (every row of a master in one query");
   bson_string_append (o, buckets ? ", every document of its key in a buckets layout)" : ")");
   if (parallel > 0) {
      bson_string_append_printf (o, " by %.0f parallel worker%s", parallel, parallel == 1 ? "" : "s");
   }
   bson_string_append (o, strcmp (lab_results_load_order (d), "random") == 0
                             ? " in random order (the keys shuffled by `--seed`, dealt round-robin)"
                             : " in key order (each worker a contiguous segment of the sorted keys)");
   bson_string_append (o, cold ? ", each layout loaded cold" : ", not cold (scancmp ran without `--cold`)");
   if (runs > 0) {
      double ref_runs = -1;
      bson_string_append_printf (o, ", %.0f run%s", runs, runs == 1 ? "" : "s");
      if (lab_results_get_number (d, "config.reference_runs", &ref_runs) && ref_runs > 0) {
         bson_string_append_printf (o, " (%.0f at the sweep's reference point)", ref_runs);
      }
   }
   {
      /* --decode: what the client did with each document, inside the timed query */
      const char *dec = lab_results_get_string (d, "config.decode");
      if (dec && strcmp (dec, "fields") == 0) {
         bson_string_append (o, ", every returned document walked field by field in the workers (`--decode "
                                "fields`, as a driver's cursor hands fields to an application)");
      } else if (dec && strcmp (dec, "objects") == 0) {
         bson_string_append (o, ", every returned document turned into a tree of heap objects in the workers "
                                "(`--decode objects`, as the mongo shell or an ORM does)");
      }
   }
   if (has_workloads) {
      /* the other workloads have their own sections; this one is load's */
      bson_string_append (o, ". The other workloads of this run are in \"What each query costs\" above and "
                             "\"Each workload in detail\" below");
      bson_string_append (o, has_writes (d) ? ", the writes among them.\n\n"
                                            : ". Not measured here: writes (inserting rows, appending to a "
                                              "master, correcting a row).\n\n");
      return;
   }
   bson_string_append (o, ". Not measured here: writes (inserting rows, appending to a master, "
                          "correcting a row), reading a single row, a range of rows across masters, and "
                          "aggregates over the collection. What the folded layout costs or saves there is "
                          "not in this report.\n\n");
}
