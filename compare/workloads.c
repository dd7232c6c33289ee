/*
 * workloads.c -- reading the "workloads" of a results file (docs/results-schema.md,
 * "Workloads"): one entry per workload scancmp ran (load, row, range, aggregate), each with every
 * layout's plan, indexes, reads and latency. The entries become lab_cmp_workload_t views into the results
 * document; a field of the wrong type is refused naming the file, the entry and the field, and a figure
 * the run did not know (-1, null or absent) becomes LAB_CMP_WL_UNKNOWN, shown as n/a.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "compare/cmp.h"
#include "compare/fields.h"
#include "core/error.h"

/* The figures of a layout entry, each with where it goes; -1 or null: unknown. */
typedef struct {
   const char *key;
   size_t offset;
} figure_t;

#define FIG(key, field)                                                                                      \
   {                                                                                                         \
      key, offsetof (lab_cmp_wl_layout_t, field)                                                             \
   }
static const figure_t layout_figures[] = {
   FIG ("queries", queries),
   FIG ("rows_returned", rows_returned),
   FIG ("docs_read", docs_read),
   FIG ("doc_bytes_read", doc_bytes_read),
   FIG ("disk_read_bytes", disk_read_bytes),
   FIG ("disk_reads", disk_reads),
   FIG ("cpu_s", cpu_s),
   FIG ("latency_ms.count", lat_count),
   FIG ("latency_ms.p50", p50_ms),
   FIG ("latency_ms.p95", p95_ms),
   FIG ("latency_ms.p99", p99_ms),
   FIG ("latency_ms.max", max_ms),
   FIG ("latency_ms.mean", mean_ms),
   FIG ("docs_per_row", docs_per_row),
   FIG ("disk_bytes_per_row", disk_bytes_per_row),
   FIG ("device_bytes_per_row", device_bytes_per_row),
   FIG ("background.other_cores", other_cores),
   FIG ("x_vs_winner", x_vs_winner),
   FIG ("write.writes", writes),
   FIG ("write.writes_per_s", writes_per_s),
   FIG ("write.docs_written", docs_written),
   FIG ("write.parts_created", parts_created),
   FIG ("write.new_data_bytes", new_data_bytes),
   FIG ("write.journal_bytes", journal_bytes),
   FIG ("write.checkpoint_bytes", checkpoint_bytes),
   FIG ("write.journal_bytes_per_write", journal_per_write),
   FIG ("write.checkpoint_bytes_per_write", checkpoint_per_write),
   FIG ("write.engine_bytes_per_write", engine_per_write),
   FIG ("write.oplog_bytes_per_write", oplog_per_write),
   FIG ("write.write_amplification", write_amplification),
   FIG ("write.avg_doc_bytes_before", avg_doc_before),
   FIG ("write.avg_doc_bytes_after", avg_doc_after),
};
#undef FIG

/* lab_cmp_wl_is_write -- see cmp.h. */
bool
lab_cmp_wl_is_write (const char *workload)
{
   return workload && (strcmp (workload, "append") == 0 || strcmp (workload, "update") == 0);
}

/* count_of -- the number of elements of `doc` (an array or object view). */
static size_t
count_of (const bson_t *doc)
{
   bson_iter_t it;
   size_t n = 0;

   if (bson_iter_init (&it, doc)) {
      while (bson_iter_next (&it)) {
         n++;
      }
   }
   return n;
}

/* read_indexes -- the "indexes" of layout entry `d` into l. */
static bool
read_indexes (const bson_t *d, const char *where, lab_cmp_wl_layout_t *l, bson_error_t *error)
{
   bson_t arr, e;
   bson_iter_t it;
   bool found, ok = true;
   size_t i = 0;

   if (!lab_cmp_field_view (d, "indexes", true, where, &arr, &l->has_indexes, error)) {
      return false;
   }
   if (!l->has_indexes) {
      return true;
   }
   l->indexes = bson_malloc0 (sizeof *l->indexes * (count_of (&arr) + 1));
   bson_iter_init (&it, &arr);
   while (ok && bson_iter_next (&it)) {
      lab_cmp_wl_index_t *x = &l->indexes[i];
      char *w = bson_strdup_printf ("%s: indexes[%zu]", where, i);

      bson_init (&x->keys);
      ok = lab_cmp_field_entry (&it, w, &e, error) && lab_cmp_field_string (&e, "name", w, &x->name, error) &&
           lab_cmp_field_view (&e, "keys", false, w, &x->keys, &found, error) &&
           lab_cmp_field_flag (&e, "multikey", w, &x->multikey, error) &&
           lab_cmp_field_flag (&e, "created", w, &x->created, error) &&
           lab_cmp_field_figure (&e, "size_bytes", NULL, w, &x->size_bytes, error);
      bson_free (w);
      i++;
   }
   l->n_indexes = i;
   return ok;
}

/* read_layout -- layout entry `d` of a workload into l; `where` names the entry. */
static bool
read_layout (const bson_t *d, const char *where, lab_cmp_wl_layout_t *l, bson_error_t *error)
{
   static const struct {
      const char *key;
      size_t offset;
   } strings[] = {
      { "collection", offsetof (lab_cmp_wl_layout_t, collection) },
      { "kind", offsetof (lab_cmp_wl_layout_t, kind) },
      { "plan", offsetof (lab_cmp_wl_layout_t, plan) },
      { "plan_source", offsetof (lab_cmp_wl_layout_t, plan_source) },
      { "where", offsetof (lab_cmp_wl_layout_t, where) },
      { "digest", offsetof (lab_cmp_wl_layout_t, digest) },
   };
   bson_iter_t it;
   size_t i;

   for (i = 0; i < sizeof strings / sizeof strings[0]; i++) {
      if (!lab_cmp_field_string (d, strings[i].key, where, (const char **)((char *)l + strings[i].offset),
                                 error)) {
         return false;
      }
   }
   for (i = 0; i < sizeof layout_figures / sizeof layout_figures[0]; i++) {
      if (!lab_cmp_field_figure (d, layout_figures[i].key, NULL, where,
                                 (double *)((char *)l + layout_figures[i].offset), error)) {
         return false;
      }
   }
   if (!lab_cmp_field_find (d, "elapsed_s", &it) || !BSON_ITER_HOLDS_NUMBER (&it) ||
       !(bson_iter_as_double (&it) >= 0)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: missing or non-numeric \"elapsed_s\", which every workload's layout entry must "
                     "carry (docs/results-schema.md)",
                     where);
      return false;
   }
   l->elapsed_s = bson_iter_as_double (&it);
   if (!lab_cmp_field_runs (d, "elapsed_s", l->elapsed_s, where, &l->elapsed, error)) {
      return false;
   }
   if (lab_cmp_field_find (d, "latency_ms", &it) && !BSON_ITER_HOLDS_DOCUMENT (&it)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"latency_ms\" must be an object", where);
      return false;
   }
   return lab_cmp_field_flag (d, "cold", where, &l->cold, error) &&
          lab_cmp_field_string (d, "cold_reason", where, &l->cold_reason, error) &&
          lab_cmp_field_flag (d, "background.busy", where, &l->busy, error) &&
          lab_cmp_field_string (d, "background.busy_note", where, &l->busy_note, error) &&
          read_indexes (d, where, l, error);
}

/* derive -- the per-row figures and x_vs_winner from the counts when the file lacks them. */
static void
derive (lab_cmp_workload_t *w)
{
   double best = w->layouts[w->winner].elapsed_s;
   size_t i;

   for (i = 0; i < w->n_layouts; i++) {
      lab_cmp_wl_layout_t *l = &w->layouts[i];
      bool rows = l->rows_returned > 0;

      if (l->docs_per_row < 0 && rows && l->docs_read >= 0) {
         l->docs_per_row = l->docs_read / l->rows_returned;
      }
      if (l->disk_bytes_per_row < 0 && rows && l->disk_read_bytes >= 0) {
         l->disk_bytes_per_row = l->disk_read_bytes / l->rows_returned;
      }
      if (l->x_vs_winner < 0 && best > 0) {
         l->x_vs_winner = l->elapsed_s / best;
      }
   }
}

/* read_result -- an aggregate's "result": groups, total, by_group {name: number}. */
static bool
read_result (const bson_t *d, const char *where, lab_cmp_workload_t *w, bson_error_t *error)
{
   bson_t res, by;
   bson_iter_t it;
   bool found;
   char *wr;
   bool ok;

   if (!lab_cmp_field_view (d, "result", false, where, &res, &w->has_result, error)) {
      return false;
   }
   if (!w->has_result) {
      return true;
   }
   wr = bson_strdup_printf ("%s: result", where);
   ok = lab_cmp_field_figure (&res, "groups", NULL, wr, &w->groups, error) &&
        lab_cmp_field_view (&res, "by_group", false, wr, &by, &found, error);
   /* a sum may be below 0: any number, null or absent when unknown */
   if (ok && lab_cmp_field_find (&res, "total", &it)) {
      if (!BSON_ITER_HOLDS_NUMBER (&it)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"total\" must be a number", wr);
         ok = false;
      }
      w->has_total = ok;
      w->total = ok ? bson_iter_as_double (&it) : 0;
   }
   if (ok && found) {
      w->by_group = bson_malloc0 (sizeof *w->by_group * (count_of (&by) + 1));
      bson_iter_init (&it, &by);
      while (bson_iter_next (&it)) {
         if (!BSON_ITER_HOLDS_NUMBER (&it)) {
            lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: by_group \"%s\" must be a number", wr,
                           bson_iter_key (&it));
            ok = false;
            break;
         }
         w->by_group[w->n_groups].group = bson_iter_key (&it);
         w->by_group[w->n_groups++].value = bson_iter_as_double (&it);
      }
   }
   bson_free (wr);
   return ok;
}

/* read_layouts -- the "layouts" of workload entry `d`: a non-empty array of distinct layouts. */
static bool
read_layouts (const bson_t *d, const char *where, lab_cmp_workload_t *w, bson_error_t *error)
{
   bson_t arr, e;
   bson_iter_t it;
   bool found, ok = true;
   size_t i = 0;

   if (!lab_cmp_field_view (d, "layouts", true, where, &arr, &found, error)) {
      return false;
   }
   if (!found || count_of (&arr) == 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: no \"layouts\": a workload needs one entry per layout",
                     where);
      return false;
   }
   w->layouts = bson_malloc0 (sizeof *w->layouts * count_of (&arr));
   bson_iter_init (&it, &arr);
   while (ok && bson_iter_next (&it)) {
      lab_cmp_wl_layout_t *l = &w->layouts[i];
      char *wi = bson_strdup_printf ("%s: layouts[%zu]", where, i);
      char *wl = NULL;

      ok = lab_cmp_field_entry (&it, wi, &e, error) &&
           lab_cmp_field_string (&e, "layout", wi, &l->layout, error);
      if (ok && (!l->layout || !*l->layout)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: no \"layout\" name", wi);
         ok = false;
      }
      if (ok && lab_cmp_wl_layout_find (w, l->layout) >= 0) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: layout \"%s\" appears twice", wi, l->layout);
         ok = false;
      }
      if (ok) {
         wl = bson_strdup_printf ("%s (%s)", wi, l->layout);
         ok = read_layout (&e, wl, l, error);
         w->n_layouts = i + 1;
      }
      bson_free (wl);
      bson_free (wi);
      i++;
   }
   return ok;
}

/* rank_workload -- w's winner by the one rule, from its layouts' runs (the file's "winner" is what its
 * writer thought). */
static void
rank_workload (lab_cmp_workload_t *w)
{
   lab_stat_t st[LAB_RESULTS_MAX_LAYOUTS] = { { 0 } };
   lab_results_noise_t timed = { true, LAB_RESULTS_TIMER_RES_S };
   size_t i, n = w->n_layouts < LAB_RESULTS_MAX_LAYOUTS ? w->n_layouts : LAB_RESULTS_MAX_LAYOUTS;

   for (i = 0; i < n; i++) {
      st[i] = w->layouts[i].elapsed;
   }
   w->tie = lab_results_rank (LAB_BETTER_LOWER, st, n, &timed, &w->rank) == LAB_WIN_TIE;
   w->winner = w->rank.best;
   for (i = 0; i < n; i++) {
      /* with paired runs "x the winner's" is the rule's ratio (its geometric mean), as the winner's factor */
      lab_verdict_t v = lab_results_verdict (LAB_BETTER_LOWER, &st[w->winner], &st[i], &timed);
      if (i != w->winner && v.has_ci) {
         w->layouts[i].x_vs_winner = v.ratio;
      }
   }
}

/* load_runs -- the load workload of a file whose entry has no runs of its own is the headline load: the
 * same runs (runs[], the medians it repeats), so the ledger judges it as the comparison table does. */
static void
load_runs (const bson_t *doc, lab_cmp_workload_t *w)
{
   const lab_metric_t *el = lab_results_metric_find ("elapsed_s");
   size_t i;

   if (strcmp (w->workload, "load") != 0) {
      return;
   }
   for (i = 0; i < w->n_layouts; i++) {
      lab_stat_t s = lab_results_metric_stat (doc, w->layouts[i].layout, el);
      if (w->layouts[i].elapsed.nrun > 1 || !s.present || s.nrun < 2 ||
          fabs (s.median - w->layouts[i].elapsed_s) > 1e-9 * fmax (1.0, s.median)) {
         return; /* its own runs, or not the headline's figures */
      }
   }
   for (i = 0; i < w->n_layouts; i++) {
      w->layouts[i].elapsed = lab_results_metric_stat (doc, w->layouts[i].layout, el);
   }
   rank_workload (w);
}

/* read_workload -- workload entry `d` into w; `where` names it ("run.json: workloads[1]"). */
static bool
read_workload (const bson_t *d, const char *where, lab_cmp_workload_t *w, bson_error_t *error)
{
   const char *winner = NULL;
   bool found;
   char *wn;
   bool ok;

   bson_init (&w->params);
   if (!lab_cmp_field_string (d, "workload", where, &w->workload, error)) {
      return false;
   }
   if (!w->workload || !*w->workload) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: no \"workload\" name (load, row, range, aggregate)",
                     where);
      return false;
   }
   wn = bson_strdup_printf ("%s (%s)", where, w->workload);
   ok = lab_cmp_field_string (d, "title", wn, &w->title, error) &&
        lab_cmp_field_string (d, "load_order", wn, &w->load_order, error) &&
        lab_cmp_field_flag (d, "rows_equal", wn, &w->rows_equal, error) &&
        lab_cmp_field_view (d, "params", false, wn, &w->params, &found, error) &&
        lab_cmp_field_string (d, "winner", wn, &winner, error) && read_layouts (d, wn, w, error) &&
        read_result (d, wn, w, error);
   if (ok && winner && lab_cmp_wl_layout_find (w, winner) < 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"winner\" \"%s\" is none of its layouts", wn, winner);
      ok = false;
   }
   if (ok) {
      rank_workload (w);
   }
   if (ok) {
      derive (w);
      lab_results_workload_label (w->workload, w->load_order, w->label, sizeof w->label);
   }
   bson_free (wn);
   return ok;
}

/* load_cpu -- the key-order load's CPU when its entry does not carry it: the store process's CPU over the
 * same load, which the layout's summary holds (the Comparison's row), so the two tables agree. */
static void
load_cpu (const bson_t *doc, lab_cmp_workload_t *w)
{
   char path[256];
   size_t j;

   if (strcmp (w->workload, "load") != 0) {
      return;
   }
   for (j = 0; j < w->n_layouts; j++) {
      double v;
      snprintf (path, sizeof path, "summary.%s.cpu_process_s.median", w->layouts[j].layout);
      if (w->layouts[j].cpu_s < 0 && lab_results_get_number (doc, path, &v)) {
         w->layouts[j].cpu_s = v;
      }
   }
}

/* lab_cmp_workloads_of -- see cmp.h. */
bool
lab_cmp_workloads_of (const bson_t *doc, const char *name, lab_cmp_workloads_t *out, bson_error_t *error)
{
   bson_t arr, e;
   bson_iter_t it;
   bool found, ok = true;
   char *where = bson_strdup_printf ("%s: workloads", name);
   size_t i = 0;

   memset (out, 0, sizeof *out);
   if (!lab_cmp_field_view (doc, "workloads", true, name, &arr, &found, error)) {
      bson_free (where);
      return false;
   }
   if (!found) {
      bson_free (where);
      return true;
   }
   out->w = bson_malloc0 (sizeof *out->w * (count_of (&arr) + 1));
   bson_iter_init (&it, &arr);
   while (ok && bson_iter_next (&it)) {
      char *wi = bson_strdup_printf ("%s[%zu]", where, i);

      ok = lab_cmp_field_entry (&it, wi, &e, error) && read_workload (&e, wi, &out->w[i], error);
      out->n = i + 1;
      if (ok) {
         load_runs (doc, &out->w[i]);
         load_cpu (doc, &out->w[i]);
      }
      if (ok && lab_cmp_workload_find (out, out->w[i].workload) != &out->w[i]) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: workload \"%s\" appears twice", wi,
                        out->w[i].workload);
         ok = false;
      }
      bson_free (wi);
      i++;
   }
   bson_free (where);
   return ok;
}

/* lab_cmp_workloads_cleanup -- see cmp.h. */
void
lab_cmp_workloads_cleanup (lab_cmp_workloads_t *wl)
{
   size_t i, j;

   for (i = 0; wl->w && i < wl->n; i++) {
      for (j = 0; j < wl->w[i].n_layouts; j++) {
         bson_free (wl->w[i].layouts[j].indexes);
      }
      bson_free (wl->w[i].layouts);
      bson_free (wl->w[i].by_group);
   }
   bson_free (wl->w);
   memset (wl, 0, sizeof *wl);
}

/* lab_cmp_workload_find -- see cmp.h. */
const lab_cmp_workload_t *
lab_cmp_workload_find (const lab_cmp_workloads_t *wl, const char *workload)
{
   size_t i;

   for (i = 0; i < wl->n; i++) {
      if (wl->w[i].workload && strcmp (wl->w[i].workload, workload) == 0) {
         return &wl->w[i];
      }
   }
   return NULL;
}

/* lab_cmp_wl_layout_find -- see cmp.h. */
int
lab_cmp_wl_layout_find (const lab_cmp_workload_t *w, const char *layout)
{
   size_t i;

   for (i = 0; i < w->n_layouts; i++) {
      if (w->layouts[i].layout && strcmp (w->layouts[i].layout, layout) == 0) {
         return (int)i;
      }
   }
   return -1;
}
