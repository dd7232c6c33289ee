/*
 * render_state.c -- the state of the data each figure was measured on: the writes made to a layout's
 * collection after it was written (its provenance's "writes", which scancmp copies from the collection's
 * _layoutlab record), summed up for the Dataset and Reproduce sections, and the documents each measurement
 * of the file started on (the "state" scancmp records in every run entry, workload entry and mix layout),
 * a table in the Dataset section when they are not the dataset's counts. Pure functions of the document.
 */
#include "compare/render_private.h"

#include <stdio.h>
#include <string.h>

/* lab_cmp_writes_since -- see render_private.h. */
bool
lab_cmp_writes_since (const bson_t *doc, const char *layout, const char *since, lab_cmp_writes_sum_t *w)
{
   char path[200];
   bson_iter_t it, arr;

   memset (w, 0, sizeof *w);
   snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.provenance.writes", layout);
   if (!bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &arr) ||
       !BSON_ITER_HOLDS_ARRAY (&arr) || !bson_iter_recurse (&arr, &it)) {
      return false;
   }
   while (bson_iter_next (&it)) {
      const uint8_t *data;
      uint32_t len;
      bson_t e;
      const char *at;
      double n;
      bool failed = false;

      if (!BSON_ITER_HOLDS_DOCUMENT (&it)) {
         continue;
      }
      bson_iter_document (&it, &len, &data);
      if (!bson_init_static (&e, data, len)) {
         continue;
      }
      at = lab_results_get_string (&e, "at");
      if (since && (!at || strcmp (at, since) < 0)) {
         continue; /* before the verification: it checked the data with these writes in it */
      }
      w->runs++;
      w->appended += lab_results_get_number (&e, "rows_appended", &n) && n > 0 ? n : 0;
      w->updated += lab_results_get_number (&e, "rows_updated", &n) && n > 0 ? n : 0;
      w->failed += lab_results_get_bool (&e, "failed", &failed) && failed;
      w->last_at = at ? at : w->last_at;
   }
   return w->runs > 0;
}

/* lab_cmp_md_writes_sum -- see render_private.h. */
void
lab_cmp_md_writes_sum (bson_string_t *o, const lab_cmp_writes_sum_t *w)
{
   bson_string_append_printf (o, "%d later write run%s: ", w->runs, w->runs == 1 ? "" : "s");
   if (w->appended > 0) {
      bson_string_append (o, "+");
      lab_cmp_md_number (o, LAB_CMP_COUNT, w->appended);
      bson_string_append (o, " rows appended");
   }
   if (w->updated > 0) {
      bson_string_append (o, w->appended > 0 ? ", " : "");
      lab_cmp_md_number (o, LAB_CMP_COUNT, w->updated);
      bson_string_append (o, " corrected");
   }
   if (w->failed > 0) {
      bson_string_append_printf (o, " (%d of them failed part way: their counts are the rows written before)",
                                 w->failed);
   }
}

/* One row of the table: what was measured and each layout's documents then (-1 unknown). */
typedef struct {
   char label[64];
   double count[LAB_RESULTS_MAX_LAYOUTS];
} state_row_t;

/* state_of -- the state.count of the entry at `path` whose "layout" is `name`, in array `arr_path` (-1). */
static double
state_of (const bson_t *doc, const char *arr_path, const char *name)
{
   char path[200], lp[220];
   const char *l;
   double v;
   int i;

   for (i = 0; i < 4096; i++) {
      snprintf (path, sizeof path, "%s.%d", arr_path, i);
      snprintf (lp, sizeof lp, "%s.layout", path);
      if (!(l = lab_results_get_string (doc, lp))) {
         return -1;
      }
      if (strcmp (l, name) == 0) {
         snprintf (lp, sizeof lp, "%s.state.count", path);
         return lab_results_get_number (doc, lp, &v) ? v : -1;
      }
   }
   return -1;
}

/* add_row -- rows[*n] = `label` and its counts (nothing when the table is full). */
static void
add_row (state_row_t *rows, size_t *n, size_t cap, const char *label, const double *count, size_t nl)
{
   if (*n >= cap) {
      return;
   }
   snprintf (rows[*n].label, sizeof rows[*n].label, "%s", label);
   memcpy (rows[*n].count, count, nl * sizeof *count);
   (*n)++;
}

/* collect -- the rows of the table: the load's runs (equal consecutive runs as one row), each workload but
 * the load's (the runs' median), the mix. */
static size_t
collect (const bson_t *d, const lab_results_layouts_t *ls, state_row_t *rows, size_t cap)
{
   double c[LAB_RESULTS_MAX_LAYOUTS], prev[LAB_RESULTS_MAX_LAYOUTS];
   int run, first = 0, last = 0;
   size_t n = 0, l, k;
   char label[64], path[64];
   const char *wn;

   for (run = 1; run <= 1000; run++) {
      bool any = false;
      for (l = 0; l < ls->n; l++) {
         char rp[64];
         double r;
         c[l] = -1;
         for (k = 0; k < 4096; k++) {
            snprintf (rp, sizeof rp, "runs.%zu.run", k);
            if (!lab_results_get_number (d, rp, &r)) {
               break;
            }
            snprintf (rp, sizeof rp, "runs.%zu.layout", k);
            if ((int)r == run && lab_results_get_string (d, rp) &&
                strcmp (lab_results_get_string (d, rp), ls->l[l].name) == 0) {
               snprintf (rp, sizeof rp, "runs.%zu.state.count", k);
               any = true;
               if (!lab_results_get_number (d, rp, &c[l])) {
                  c[l] = -1;
               }
               break;
            }
         }
      }
      if (first && (!any || memcmp (c, prev, ls->n * sizeof *c) != 0)) {
         snprintf (label, sizeof label, first == last ? "the load, run %d" : "the load, runs %d–%d", first,
                   last);
         add_row (rows, &n, cap, label, prev, ls->n);
         first = 0;
      }
      if (!any) {
         break;
      }
      if (!first) {
         first = run;
         memcpy (prev, c, ls->n * sizeof *c);
      }
      last = run;
   }
   for (k = 0; k < 64; k++) {
      snprintf (path, sizeof path, "workloads.%zu.workload", k);
      if (!(wn = lab_results_get_string (d, path))) {
         break;
      }
      if (strcmp (wn, "load") == 0) {
         continue;
      }
      snprintf (path, sizeof path, "workloads.%zu.layouts", k);
      for (l = 0; l < ls->n; l++) {
         c[l] = state_of (d, path, ls->l[l].name);
      }
      snprintf (label, sizeof label, "%s",
                strcmp (wn, "load_after_writes") == 0 ? "the load after the writes"
                : strcmp (wn, "load_random") == 0     ? "the load in random order"
                                                      : wn);
      add_row (rows, &n, cap, label, c, ls->n);
   }
   if (lab_results_get_string (d, "mix.spec")) {
      for (l = 0; l < ls->n; l++) {
         c[l] = state_of (d, "mix.layouts", ls->l[l].name);
      }
      add_row (rows, &n, cap, "the mix", c, ls->n);
   }
   return n;
}

/* render_built_indexes -- one line naming the indexes layoutlab tools built on the measured collections
 * (dataset.<layout>.layoutlab_indexes, from their _layoutlab records), nothing when there are none. */
static void
render_built_indexes (bson_string_t *o, const bson_t *d, const lab_results_layouts_t *ls)
{
   char path[200];
   size_t l;
   int i;
   bool any = false;

   for (l = 0; l < ls->n; l++) {
      for (i = 0; i < 64; i++) {
         const char *name, *tool, *at;
         bool foreign = false;

         snprintf (path, sizeof path, "dataset.%s.layoutlab_indexes.%d.name", ls->l[l].name, i);
         if (!(name = lab_results_get_string (d, path))) {
            break;
         }
         snprintf (path, sizeof path, "dataset.%s.layoutlab_indexes.%d.tool", ls->l[l].name, i);
         tool = lab_results_get_string (d, path);
         snprintf (path, sizeof path, "dataset.%s.layoutlab_indexes.%d.created_at", ls->l[l].name, i);
         at = lab_results_get_string (d, path);
         snprintf (path, sizeof path, "dataset.%s.layoutlab_indexes.%d.on_foreign", ls->l[l].name, i);
         (void)lab_results_get_bool (d, path, &foreign);
         bson_string_append (o, any ? "; "
                                    : "- indexes layoutlab tools built on these collections (their "
                                      "`_layoutlab` records; `billgen clean` removes them): ");
         lab_cmp_md_text (o, ls->l[l].name);
         bson_string_append (o, " `");
         bson_string_append (o, name);
         bson_string_append (o, "` (");
         lab_cmp_md_text (o, tool && *tool ? tool : "a layoutlab tool");
         if (at && *at) {
            bson_string_append (o, ", ");
            lab_cmp_md_text (o, at);
         }
         bson_string_append (
            o, foreign ? ", on a collection layoutlab did not write, named by --allow-writes)" : ")");
         any = true;
      }
   }
   bson_string_append (o, any ? "\n" : "");
}

/* lab_cmp_render_state -- see render_private.h. */
void
lab_cmp_render_state (bson_string_t *o, const lab_cmp_results_t *r)
{
   const bson_t *d = &r->doc;
   lab_results_layouts_t ls;
   state_row_t rows[80];
   size_t n, i, l;
   bool any = false, differ = false;
   char path[160];
   double dc;

   lab_results_layouts (d, &ls);
   for (l = 0; l < ls.n; l++) {
      lab_cmp_writes_sum_t w;
      if (!lab_cmp_writes_since (d, ls.l[l].name, NULL, &w)) {
         continue;
      }
      bson_string_append (o, any ? "; "
                                 : "- written to after they were made, before this measurement (each "
                                   "collection's `_layoutlab` record; the counts above include these "
                                   "writes): ");
      lab_cmp_md_text (o, ls.l[l].name);
      bson_string_append (o, ": ");
      lab_cmp_md_writes_sum (o, &w);
      if (w.last_at) {
         bson_string_append (o, ", the last at ");
         lab_cmp_md_text (o, w.last_at);
      }
      any = true;
   }
   bson_string_append (o, any ? "\n" : "");
   render_built_indexes (o, d, &ls);
   n = collect (d, &ls, rows, sizeof rows / sizeof rows[0]);
   for (i = 0; i < n; i++) {
      for (l = 0; l < ls.n; l++) {
         snprintf (path, sizeof path, "dataset.%s.count", ls.l[l].name);
         differ = differ ||
                  (rows[i].count[l] >= 0 && lab_results_get_number (d, path, &dc) && dc != rows[i].count[l]);
      }
   }
   if (!differ) {
      return;
   }
   bson_string_append (o, "- documents when each measurement started (the table above was read when this run "
                          "started; its own writes changed the data between them):\n\n| measured on |");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, " ");
      lab_cmp_md_text (o, ls.l[l].name);
      bson_string_append (o, " |");
   }
   bson_string_append (o, "\n|---|");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, "--:|");
   }
   for (i = 0; i < n; i++) {
      bson_string_append (o, "\n| ");
      lab_cmp_md_text (o, rows[i].label);
      bson_string_append (o, " |");
      for (l = 0; l < ls.n; l++) {
         bson_string_append (o, " ");
         if (rows[i].count[l] >= 0) {
            lab_cmp_md_number (o, LAB_CMP_COUNT, rows[i].count[l]);
         } else {
            bson_string_append (o, "n/a");
         }
         bson_string_append (o, " |");
      }
   }
   bson_string_append (o, "\n");
}
