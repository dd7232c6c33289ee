/*
 * render_workloads.c -- the report's sections on a results file's "workloads": the ledger "What
 * each query costs" right after the verdict (a row per workload: each layout's time against the winner's,
 * documents and disk bytes read per row returned, the winner), the trade-off sentence of the layout that
 * wins load (in the ledger and as the verdict's last line), and "Each workload in detail": per workload and
 * layout the plan, where filtering happened, the indexes, the reads, CPU and latency, and an aggregate's
 * result. A file without "workloads" gets none of it.
 */
#include "compare/render_private.h"
#include "core/percentile.h"

/* md_per_row -- documents per row: "1", "130", "0.0077" (three significant digits under 10). */
static void
md_per_row (bson_string_t *o, double v)
{
   if (v < 0) {
      bson_string_append (o, "n/a");
   } else if (v == floor (v) || v >= 10) {
      lab_cmp_md_number (o, LAB_CMP_COUNT, v);
   } else {
      bson_string_append_printf (o, "%.3g", v);
   }
}

/* md_time -- "12.3 s (3.10x)"; the winner's time in bold, without a factor. */
static void
md_time (bson_string_t *o, const lab_cmp_workload_t *w, size_t i)
{
   const lab_cmp_wl_layout_t *l = &w->layouts[i];

   if (i == w->winner) {
      /* a tie has no winner to bold: the best median, plain */
      bson_string_append (o, w->tie ? "" : "**");
      lab_cmp_md_number (o, LAB_CMP_SECONDS, l->elapsed_s);
      bson_string_append (o, w->tie ? "" : "**");
      return;
   }
   lab_cmp_md_number (o, LAB_CMP_SECONDS, l->elapsed_s);
   if (l->x_vs_winner >= 0) {
      bson_string_append (o, " (");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, l->x_vs_winner);
      bson_string_append (o, ")");
   }
}

/* lab_cmp_md_rule_note -- see render_private.h. */
void
lab_cmp_md_rule_note (bson_string_t *o, const lab_results_rank_t *rk, bool tie)
{
   const lab_verdict_t *v = &rk->decisive;
   char *note;

   if (tie && v->why == LAB_TIE_INTERVAL && v->has_ci) {
      char *lo = lab_results_format_factor (v->lo), *hi = lab_results_format_factor (v->hi);
      bson_string_append_printf (o, " (the 95%% interval %s–%s over %d runs holds 1)", lo, hi, v->npairs);
      bson_free (lo);
      bson_free (hi);
      return;
   }
   if (tie) {
      bson_string_append_printf (o, " (within %.1f%%)", LAB_RESULTS_FLOOR * 100);
      return;
   }
   note = lab_results_verdict_note (v);
   if (*note) {
      bson_string_append_printf (o, " (%s)", note);
   }
   bson_free (note);
}

/* lab_cmp_md_wl_winner -- see render_private.h. */
void
lab_cmp_md_wl_winner (bson_string_t *o, const lab_cmp_workload_t *w)
{
   if (w->n_layouts < 2) {
      lab_cmp_md_text (o, w->layouts[w->winner].layout);
      return;
   }
   if (w->tie) {
      bson_string_append (o, "same");
   } else {
      lab_cmp_md_text (o, w->layouts[w->winner].layout);
      if (w->rank.decisive.factor > 0) {
         bson_string_append (o, " ");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, w->rank.decisive.factor);
      }
   }
   lab_cmp_md_rule_note (o, &w->rank, w->tie);
}

/* pivot_of -- the workload whose winner the trade-off sentence follows: load, else the first. */
static const lab_cmp_workload_t *
pivot_of (const lab_cmp_workloads_t *wl)
{
   const lab_cmp_workload_t *load = lab_cmp_workload_find (wl, "load");

   return load ? load : &wl->w[0];
}

/* md_list_sep -- ", " between items and " and " before the last of n. */
static void
md_list_sep (bson_string_t *o, size_t k, size_t n)
{
   bson_string_append (o, k == 0 ? "" : k + 1 == n ? " and " : ", ");
}

/* md_tradeoff_part -- the workloads the layout `name` wins (`wins`) or loses, "load 9.10x and range
 * 2.00x"; a loss names the winner when `to` (more than two layouts). Returns how many it named. */
static size_t
md_tradeoff_part (bson_string_t *o, const lab_cmp_workloads_t *wl, const char *name, bool wins, bool to)
{
   size_t i, n = 0, k = 0;

   for (i = 0; i < wl->n; i++) {
      int me = lab_cmp_wl_layout_find (&wl->w[i], name);
      n += me >= 0 && !(wl->w[i].tie && wl->w[i].rank.tied[me]) && ((size_t)me == wl->w[i].winner) == wins;
   }
   for (i = 0; i < wl->n; i++) {
      const lab_cmp_workload_t *w = &wl->w[i];
      int me = lab_cmp_wl_layout_find (w, name);
      double x;

      /* a workload the runs cannot tell it apart on is neither won nor lost (md_tradeoff's "same on") */
      if (me < 0 || (w->tie && w->rank.tied[me]) || ((size_t)me == w->winner) != wins) {
         continue;
      }
      md_list_sep (o, k++, n);
      lab_cmp_md_text (o, w->label);
      x = wins ? w->rank.decisive.factor : w->layouts[me].x_vs_winner;
      if (x >= 0) {
         bson_string_append (o, " ");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, x);
      }
      if (!wins && to) {
         bson_string_append (o, " to ");
         lab_cmp_md_text (o, w->layouts[w->winner].layout);
      }
      if (w->rows_equal == 0) {
         bson_string_append (o, " (rows differ)");
      }
   }
   return n;
}

/* md_tradeoff -- the trade-off of the layout that wins load: "folded wins load 9.10x, loses row 3.20x
 * and aggregate 1.40x" (x: the loser's time over the winner's; with more than two layouts each loss names
 * its winner), then the workloads it was not measured on. No final period. */
static void
md_tradeoff (bson_string_t *o, const lab_cmp_workloads_t *wl, const lab_results_layouts_t *ls)
{
   const lab_cmp_workload_t *p = pivot_of (wl);
   const char *name = p->layouts[p->winner].layout;
   size_t i, n = 0, k = 0;

   lab_cmp_md_text (o, name);
   bson_string_append (o, " wins ");
   if (md_tradeoff_part (o, wl, name, true, ls->n > 2) == 0) {
      bson_string_append (o, "none");
   }
   bson_string_append (o, ", loses ");
   if (md_tradeoff_part (o, wl, name, false, ls->n > 2) == 0) {
      bson_string_append (o, "none");
   }
   for (i = 0; i < wl->n; i++) {
      int me = lab_cmp_wl_layout_find (&wl->w[i], name);
      n += me >= 0 && wl->w[i].tie && wl->w[i].rank.tied[me];
   }
   for (i = 0; i < wl->n; i++) {
      int me = lab_cmp_wl_layout_find (&wl->w[i], name);
      if (me >= 0 && wl->w[i].tie && wl->w[i].rank.tied[me]) {
         bson_string_append (o, k == 0 ? ", no difference the runs can tell on " : "");
         md_list_sep (o, k++, n);
         lab_cmp_md_text (o, wl->w[i].label);
      }
   }
   n = k = 0;
   for (i = 0; i < wl->n; i++) {
      n += lab_cmp_wl_layout_find (&wl->w[i], name) < 0;
   }
   for (i = 0; i < wl->n; i++) {
      if (lab_cmp_wl_layout_find (&wl->w[i], name) < 0) {
         bson_string_append (o, k == 0 ? "; not measured on " : "");
         md_list_sep (o, k++, n);
         lab_cmp_md_text (o, wl->w[i].label);
      }
   }
}

/* lab_cmp_render_verdict_tradeoff -- see render_private.h. */
void
lab_cmp_render_verdict_tradeoff (bson_string_t *o, const lab_cmp_workloads_t *wl,
                                 const lab_results_layouts_t *ls)
{
   if (wl->n == 0 || o->len < 2 || strcmp (o->str + o->len - 2, "\n\n") != 0) {
      return;
   }
   bson_string_truncate (o, o->len - 1);
   bson_string_append (o, "- **Across the workloads**: ");
   md_tradeoff (o, wl, ls);
   bson_string_append (o, " (the loser's time over the winner's; \"What each query costs\" below).\n\n");
}

/* render_ledger_warnings -- a line per workload whose layouts returned different rows. */
static void
render_ledger_warnings (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_workloads_t *wl)
{
   size_t i;

   for (i = 0; i < wl->n; i++) {
      if (wl->w[i].rows_equal == 0) {
         bson_string_append (o, "**Warning: the layouts returned different rows for ");
         lab_cmp_md_text (o, wl->w[i].label);
         bson_string_append (o, "** (their digests of the rows differ; scancmp exited 3): its figures do not "
                                "compare like with like. Check that the collections hold the same rows (");
         lab_cmp_md_suggest_verify (o, r);
         bson_string_append (o, ") before trusting them.\n\n");
      }
   }
}

/* lab_cmp_render_ledger -- see render_private.h. */
void
lab_cmp_render_ledger (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_workloads_t *wl,
                       const lab_results_layouts_t *ls)
{
   size_t i, l;

   if (wl->n == 0) {
      return;
   }
   bson_string_append (o, "## What each query costs\n\n"
                          "One row per workload: each layout's time (in brackets, how many times the "
                          "winner's), then what it read per row returned: documents, and bytes from the "
                          "disk (n/a: the device was not sampled)");
   for (i = 0; i < wl->n && !lab_cmp_wl_is_write (wl->w[i].workload); i++) {
   }
   bson_string_append (o, i < wl->n ? "; for a write (append, update), the bytes the engine wrote per write: "
                                      "journal, eviction and the forced checkpoint.\n\n| workload |"
                                    : ".\n\n| workload |");
   for (l = 0; l < ls->n; l++) {
      bson_string_append (o, " ");
      lab_cmp_md_text (o, ls->l[l].name);
      bson_string_append (o, " time | ");
      lab_cmp_md_text (o, ls->l[l].name);
      bson_string_append (o, " docs/row | ");
      lab_cmp_md_text (o, ls->l[l].name);
      bson_string_append (o, " disk/row |");
   }
   bson_string_append (o, " winner |\n|---|");
   for (l = 0; l < ls->n; l++) {
      bson_string_append (o, "--:|--:|--:|");
   }
   bson_string_append (o, "---|\n");
   for (i = 0; i < wl->n; i++) {
      const lab_cmp_workload_t *w = &wl->w[i];

      bson_string_append (o, "| **");
      lab_cmp_md_text (o, w->label);
      bson_string_append (o, "**");
      if (w->title) {
         bson_string_append (o, ": ");
         lab_cmp_md_text (o, w->title);
      }
      bson_string_append (o, w->rows_equal == 0 ? " **(rows differ!)** |" : " |");
      for (l = 0; l < ls->n; l++) {
         int k = lab_cmp_wl_layout_find (w, ls->l[l].name);
         if (k < 0) {
            bson_string_append (o, " n/a | n/a | n/a |");
            continue;
         }
         bson_string_append (o, " ");
         md_time (o, w, (size_t)k);
         bson_string_append (o, " | ");
         md_per_row (o, w->layouts[k].docs_per_row);
         bson_string_append (o, " | ");
         if (lab_cmp_wl_is_write (w->workload)) {
            /* a write: what the engine wrote per write (journal, eviction, the forced checkpoint) */
            lab_cmp_md_known (o, LAB_CMP_BYTES, w->layouts[k].engine_per_write);
            bson_string_append (o, " written");
         } else {
            lab_cmp_md_known (o, LAB_CMP_BYTES, w->layouts[k].disk_bytes_per_row);
         }
         bson_string_append (o, " |");
      }
      bson_string_append (o, " ");
      lab_cmp_md_wl_winner (o, w);
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, "\n");
   render_ledger_warnings (o, r, wl);
   lab_cmp_render_thrash_note (o, r, wl);
   bson_string_append (o, "The trade-off: ");
   md_tradeoff (o, wl, ls);
   bson_string_append (o,
                       lab_cmp_workload_find (wl, "load")
                          ? ". \"What was measured\" and \"Comparison\" below are the load workload's; "
                            "\"Each workload in detail\" shows every workload's plan, indexes and reads.\n\n"
                          : ". \"Each workload in detail\" below shows every workload's plan, indexes and "
                            "reads.\n\n");
}

/* md_keys -- a key pattern as mongod prints it: "{ bill_id: 1, line_no: 1 }"; n/a when not recorded. */
static void
md_keys (bson_string_t *o, const bson_t *keys)
{
   bson_string_t *k = bson_string_new ("{ ");
   bson_iter_t it;
   bool first = true;

   if (bson_empty (keys) || !bson_iter_init (&it, keys)) {
      bson_string_free (k, true);
      bson_string_append (o, "n/a");
      return;
   }
   while (bson_iter_next (&it)) {
      bson_string_append_printf (k, "%s%s: ", first ? "" : ", ", bson_iter_key (&it));
      if (BSON_ITER_HOLDS_UTF8 (&it)) {
         bson_string_append_printf (k, "\"%s\"", bson_iter_utf8 (&it, NULL));
      } else {
         bson_string_append_printf (k, "%g", bson_iter_as_double (&it));
      }
      first = false;
   }
   bson_string_append (k, " }");
   lab_cmp_md_code (o, k->str);
   bson_string_free (k, true);
}

/* md_indexes -- "bill_id_1 `{ bill_id: 1 }`, 1.23 MB, already there; ..." (multikey said when so);
 * "none" for an empty list, n/a when not recorded. */
static void
md_indexes (bson_string_t *o, const lab_cmp_wl_layout_t *l, bool write)
{
   size_t i;

   if (!l->has_indexes) {
      bson_string_append (o, "n/a");
      return;
   }
   if (l->n_indexes == 0) {
      /* a write finds its document through the _id or key index the plan names, and maintains every
       * index: none is a query index of its own */
      bson_string_append (o, write ? "none of its own (the plan's lookup; every index maintained)" : "none");
   }
   for (i = 0; i < l->n_indexes; i++) {
      const lab_cmp_wl_index_t *x = &l->indexes[i];

      bson_string_append (o, i ? "; " : "");
      lab_cmp_md_text (o, x->name);
      bson_string_append (o, " ");
      md_keys (o, &x->keys);
      bson_string_append (o, x->multikey == 1 ? ", multikey, " : ", ");
      lab_cmp_md_known (o, LAB_CMP_BYTES, x->size_bytes);
      bson_string_append (o, x->size_bytes < 0 ? " on disk" : "");
      bson_string_append (o, x->created == 1   ? ", created by this run"
                             : x->created == 0 ? ", already there"
                                               : "");
   }
}

/* The figure rows of a workload's detail table: label, form, field. */
typedef struct {
   const char *label;
   lab_cmp_form_t form;
   size_t offset;
} detail_row_t;

#define ROW(label, form, field)                                                                              \
   {                                                                                                         \
      label, form, offsetof (lab_cmp_wl_layout_t, field)                                                     \
   }
static const detail_row_t detail_rows[] = {
   ROW ("queries sent", LAB_CMP_COUNT, queries),
   ROW ("rows returned", LAB_CMP_COUNT, rows_returned),
   ROW ("documents read", LAB_CMP_COUNT, docs_read),
   ROW ("document bytes read", LAB_CMP_BYTES, doc_bytes_read),
   ROW ("disk bytes read", LAB_CMP_BYTES, disk_read_bytes),
   ROW ("disk read requests", LAB_CMP_COUNT, disk_reads),
   ROW ("CPU", LAB_CMP_SECONDS, cpu_s),
   ROW ("latency p50", LAB_CMP_MS, p50_ms),
   ROW ("latency p95", LAB_CMP_MS, p95_ms),
   ROW ("latency p99", LAB_CMP_MS, p99_ms),
   ROW ("latency max", LAB_CMP_MS, max_ms),
   ROW ("latency mean", LAB_CMP_MS, mean_ms),
   ROW ("documents read per row", LAB_CMP_COUNT, docs_per_row),
   ROW ("disk bytes per row", LAB_CMP_BYTES, disk_bytes_per_row),
};

/* The write workloads' rows, after the others. */
static const detail_row_t write_rows[] = {
   ROW ("writes", LAB_CMP_COUNT, writes),
   ROW ("writes per second", LAB_CMP_COUNT, writes_per_s),
   ROW ("documents written", LAB_CMP_COUNT, docs_written),
   ROW ("new parts (cap reached)", LAB_CMP_COUNT, parts_created),
   ROW ("bytes of new data", LAB_CMP_BYTES, new_data_bytes),
   ROW ("journal bytes", LAB_CMP_BYTES, journal_bytes),
   ROW ("checkpoint bytes", LAB_CMP_BYTES, checkpoint_bytes),
   ROW ("journal bytes per write", LAB_CMP_BYTES, journal_per_write),
   ROW ("checkpoint bytes per write", LAB_CMP_BYTES, checkpoint_per_write),
   ROW ("engine bytes per write", LAB_CMP_BYTES, engine_per_write),
   ROW ("oplog bytes per write", LAB_CMP_BYTES, oplog_per_write),
   ROW ("write amplification", LAB_CMP_COUNT, write_amplification),
   ROW ("average document before", LAB_CMP_BYTES, avg_doc_before),
   ROW ("average document after", LAB_CMP_BYTES, avg_doc_after),
};
#undef ROW

/* md_text_cell -- one of the text rows of a layout: 0 collection, 1 plan, 2 plan source, 3 where, 4
 * indexes, 5 cold, 6 digest. */
static void
md_text_cell (bson_string_t *o, const lab_cmp_wl_layout_t *l, int row, bool write)
{
   switch (row) {
   case 0:
      lab_cmp_md_text (o, l->collection);
      return;
   case 1:
      lab_cmp_md_code (o, l->plan);
      return;
   case 2:
      lab_cmp_md_text (o, l->plan_source);
      return;
   case 3:
      lab_cmp_md_text (o, l->where);
      return;
   case 4:
      md_indexes (o, l, write);
      return;
   case 5:
      bson_string_append (o, l->cold == 1 ? "yes" : l->cold == 0 ? "no" : "n/a");
      if (l->cold == 0 && l->cold_reason) {
         bson_string_append (o, ": ");
         lab_cmp_md_text (o, l->cold_reason);
      }
      return;
   default:
      lab_cmp_md_code (o, l->digest);
      return;
   }
}

/* supported -- the figure at `offset` of l is no percentile, or one its count of latencies supports
 * (core/percentile.h; the count: latency_ms.count, else the writes or the queries, one latency each). */
static bool
supported (const lab_cmp_workload_t *w, const lab_cmp_wl_layout_t *l, size_t offset)
{
   double n = l->lat_count >= 0 ? l->lat_count : lab_cmp_wl_is_write (w->workload) ? l->writes : l->queries;
   double p = offset == offsetof (lab_cmp_wl_layout_t, p50_ms)   ? 50
              : offset == offsetof (lab_cmp_wl_layout_t, p95_ms) ? 95
              : offset == offsetof (lab_cmp_wl_layout_t, p99_ms) ? 99
                                                                 : -1;

   return p < 0 || n < 0 || lab_percentile_supported (p, (int64_t)n);
}

/* render_extra_rows -- rows only files that record them get: the whole device's bytes per row beside the
 * engine's, and what else ran on the machine (the machines are shared). */
static void
render_extra_rows (bson_string_t *o, const lab_cmp_workload_t *w, const int *cols, size_t nc)
{
   bool device = false, bg = false;
   size_t l;

   for (l = 0; l < nc; l++) {
      device = device || w->layouts[cols[l]].device_bytes_per_row >= 0;
      bg = bg || w->layouts[cols[l]].busy >= 0;
   }
   if (device) {
      bson_string_append (
         o, "\n| device bytes per row (the whole device: other processes and the journal too) |");
      for (l = 0; l < nc; l++) {
         bson_string_append (o, " ");
         lab_cmp_md_known (o, LAB_CMP_BYTES, w->layouts[cols[l]].device_bytes_per_row);
         bson_string_append (o, " |");
      }
   }
   if (bg) {
      bson_string_append (o, "\n| other processes on the machine |");
      for (l = 0; l < nc; l++) {
         const lab_cmp_wl_layout_t *x = &w->layouts[cols[l]];
         bson_string_append (o, " ");
         if (x->busy == 1 && x->busy_note) {
            bson_string_append (o, "**the machine was busy**: ");
            lab_cmp_md_text (o, x->busy_note);
         } else if (x->other_cores >= 0) {
            bson_string_append_printf (o, "%.2f cores", x->other_cores);
         } else {
            bson_string_append (o, "n/a");
         }
         bson_string_append (o, " |");
      }
   }
}

/* render_detail_table -- a workload's table: a column per layout of the file that measured it. */
static void
render_detail_table (bson_string_t *o, const lab_cmp_workload_t *w, const lab_results_layouts_t *ls)
{
   static const char *const text_rows[] = { "collection",        "plan",
                                            "plan from",         "where filtering happened",
                                            "indexes used",      "cold",
                                            "digest of the rows" };
   bool write = lab_cmp_wl_is_write (w->workload);
   int cols[LAB_RESULTS_MAX_LAYOUTS];
   size_t l, nc = 0, row;
   bool hidden = false;

   for (l = 0; l < ls->n; l++) {
      int k = lab_cmp_wl_layout_find (w, ls->l[l].name);
      if (k >= 0) {
         cols[nc++] = k;
      }
   }
   bson_string_append (o, "| |");
   for (l = 0; l < nc; l++) {
      bson_string_append (o, " ");
      lab_cmp_md_text (o, w->layouts[cols[l]].layout);
      bson_string_append (o, " |");
   }
   bson_string_append (o, "\n|---|");
   for (l = 0; l < nc; l++) {
      bson_string_append (o, "--:|");
   }
   bson_string_append (o, "\n| time |");
   for (l = 0; l < nc; l++) {
      bson_string_append (o, " ");
      md_time (o, w, (size_t)cols[l]);
      bson_string_append (o, " |");
   }
   for (row = 0; row < sizeof text_rows / sizeof text_rows[0]; row++) {
      bson_string_append_printf (o, "\n| %s |",
                                 write && row == 3 ? "how the write was made" : text_rows[row]);
      for (l = 0; l < nc; l++) {
         bson_string_append (o, " ");
         md_text_cell (o, &w->layouts[cols[l]], (int)row, write);
         bson_string_append (o, " |");
      }
   }
   for (row = 0; row < sizeof detail_rows / sizeof detail_rows[0]; row++) {
      /* a write's document bytes are those it read to find its documents and those it sent */
      bson_string_append_printf (o, "\n| %s |",
                                 write && detail_rows[row].offset ==
                                             offsetof (lab_cmp_wl_layout_t, doc_bytes_read)
                                    ? "document bytes read and sent"
                                    : detail_rows[row].label);
      for (l = 0; l < nc; l++) {
         double v =
            *(const double *)(const void *)((const char *)&w->layouts[cols[l]] + detail_rows[row].offset);
         bson_string_append (o, " ");
         if (v >= 0 && !supported (w, &w->layouts[cols[l]], detail_rows[row].offset)) {
            v = -1;
            hidden = true;
         }
         if (detail_rows[row].offset == offsetof (lab_cmp_wl_layout_t, docs_per_row)) {
            md_per_row (o, v);
         } else {
            lab_cmp_md_known (o, detail_rows[row].form, v);
         }
         bson_string_append (o, " |");
      }
   }
   render_extra_rows (o, w, cols, nc);
   for (row = 0; lab_cmp_wl_is_write (w->workload) && row < sizeof write_rows / sizeof write_rows[0]; row++) {
      bson_string_append_printf (o, "\n| %s |", write_rows[row].label);
      for (l = 0; l < nc; l++) {
         double v =
            *(const double *)(const void *)((const char *)&w->layouts[cols[l]] + write_rows[row].offset);
         bson_string_append (o, " ");
         lab_cmp_md_known (o, write_rows[row].form, v);
         bson_string_append (o, " |");
      }
   }
   bson_string_append (o, hidden
                             ? "\n\nLatency n/a: too few queries for the percentile (p50 needs 2, p95 20, "
                               "p99 100: one observation above it).\n\n"
                             : "\n\n");
}

/* render_params -- "Parameters: seed 1, row_keys 10,000, time_field charge_time." */
static void
render_params (bson_string_t *o, const lab_cmp_workload_t *w)
{
   bson_iter_t it;
   bool first = true;

   if (bson_empty (&w->params) || !bson_iter_init (&it, &w->params)) {
      return;
   }
   bson_string_append (o, "Parameters: ");
   while (bson_iter_next (&it)) {
      bson_string_append (o, first ? "" : ", ");
      lab_cmp_md_text (o, bson_iter_key (&it));
      bson_string_append (o, " ");
      lab_cmp_md_value (o, &it);
      first = false;
   }
   bson_string_append (o, ".\n\n");
}

/* md_sum -- a sum as summed: "41,233,517.25" (cents kept, thousands separated); n/a when unknown. */
static void
md_sum (bson_string_t *o, double v, bool known)
{
   double a = fabs (v), whole = floor (a);
   long cents = lround ((a - whole) * 100);

   if (!known) {
      bson_string_append (o, "n/a");
      return;
   }
   if (cents == 100) {
      whole += 1;
      cents = 0;
   }
   bson_string_append (o, v < 0 && (whole > 0 || cents > 0) ? "-" : "");
   lab_cmp_md_number (o, LAB_CMP_COUNT, whole);
   if (cents) {
      bson_string_append_printf (o, ".%02ld", cents);
   }
}

/* render_result -- an aggregate's result: its groups and total, and the sum per group. */
static void
render_result (bson_string_t *o, const lab_cmp_workload_t *w)
{
   size_t i;

   if (!w->has_result) {
      return;
   }
   bson_string_append (o, "Result (the same for every layout): ");
   lab_cmp_md_known (o, LAB_CMP_COUNT, w->groups);
   bson_string_append (o, " groups, total ");
   md_sum (o, w->total, w->has_total);
   bson_string_append (o, w->n_groups ? ".\n\n| group | sum |\n|---|--:|\n" : ".\n\n");
   for (i = 0; i < w->n_groups; i++) {
      bson_string_append (o, "| ");
      lab_cmp_md_text (o, w->by_group[i].group);
      bson_string_append (o, " | ");
      md_sum (o, w->by_group[i].value, true);
      bson_string_append (o, " |\n");
   }
   bson_string_append (o, w->n_groups ? "\n" : "");
}

/* lab_cmp_render_workloads -- see render_private.h. */
void
lab_cmp_render_workloads (bson_string_t *o, const lab_cmp_workloads_t *wl, const lab_results_layouts_t *ls)
{
   size_t i;

   if (wl->n == 0) {
      return;
   }
   bson_string_append (o, "## Each workload in detail\n\nPer workload, each layout's plan (from explain on a "
                          "server, else the planner table of docs/mongodb-compat.md), where the filtering "
                          "happened, the indexes the plan used and what it read.\n\n");
   for (i = 0; i < wl->n; i++) {
      const lab_cmp_workload_t *w = &wl->w[i];

      bson_string_append (o, "### ");
      lab_cmp_md_text (o, w->label);
      if (w->title) {
         bson_string_append (o, ": ");
         lab_cmp_md_text (o, w->title);
      }
      bson_string_append (o, "\n\n");
      render_params (o, w);
      if (w->rows_equal == 0) {
         bson_string_append (o, "**Warning: the layouts returned different rows** (the digests below "
                                "differ): these figures do not compare like with like.\n\n");
      }
      bson_string_append (o, "Winner: ");
      lab_cmp_md_wl_winner (o, w);
      bson_string_append (o, ".\n\n");
      render_detail_table (o, w, ls);
      render_result (o, w);
   }
}
