/*
 * render_table.c -- the Comparison section (the metric catalogue, a column per layout, the cells of
 * core/results.h; what the runs did not share and the CPU-bound layouts below it) and a single-point file
 * against a baseline experiment.
 */
#include "compare/render_private.h"

/* table_row -- one row of the comparison table: label, one value per layout, the ratio of each other
 * layout to the reference, better, as the shared cells of core/results.h (scancmp's table prints the same
 * cells). */
static void
table_row (bson_string_t *o, const lab_results_layouts_t *ls, const lab_results_nrow_t *row)
{
   lab_results_ncells_t c;
   size_t i;

   lab_results_nrow_cells (row, ls, true, &c);
   bson_string_append (o, "| ");
   lab_cmp_md_text (o, row->metric->label);
   for (i = 0; i < ls->n; i++) {
      bson_string_append_printf (o, " | %s", c.value[i]);
   }
   for (i = 0; i < ls->n; i++) {
      if (i != ls->reference) {
         bson_string_append_printf (o, " | %s", c.ratio[i]);
      }
   }
   bson_string_append_printf (o, " | %s |\n", c.better);
   lab_results_ncells_cleanup (&c);
}

/* list_sep -- what goes before item i of n in a running list: "", ", " ... " and " before the last. */
static const char *
list_sep (size_t i, size_t n)
{
   return i == 0 ? "" : i + 1 == n ? " and " : ", ";
}

/* The mean share of its cores at or above which a load counts as bound by the CPU: the process had
 * (almost) no core left to wait on the disk with. */
#define CPU_BOUND_PCT 90.0

/* render_cpu_bound -- under the table, one sentence naming every layout whose load kept the store's
 * process at or above CPU_BOUND_PCT of its cores (the medians of cpu.busy_pct_mean and cpu.cores): their
 * disk rates show what the CPU let through, not what the disk can do. Nothing when no layout is. */
static void
render_cpu_bound (bson_string_t *o, const lab_cmp_results_t *r, const lab_results_layouts_t *ls)
{
   const lab_metric_t *busy = lab_results_metric_find ("cpu_busy_pct_mean");
   const lab_metric_t cores_m = { "cpu_cores", "cpu.cores", "cores", LAB_UNIT_COUNT, LAB_DESCRIPTIVE };
   size_t idx[LAB_RESULTS_MAX_LAYOUTS];
   double pct[LAB_RESULTS_MAX_LAYOUTS], cores = -1;
   bool same_cores = true;
   size_t i, n = 0;

   for (i = 0; i < ls->n; i++) {
      lab_stat_t b = lab_results_metric_stat (&r->doc, ls->l[i].name, busy);
      lab_stat_t c = lab_results_metric_stat (&r->doc, ls->l[i].name, &cores_m);
      double ci = c.present && c.median >= 1 ? c.median : -1;
      if (!b.present || b.median < CPU_BOUND_PCT) {
         continue;
      }
      if (n > 0 && ci != cores) {
         same_cores = false;
      }
      cores = ci;
      idx[n] = i;
      pct[n++] = b.median;
   }
   if (n == 0) {
      return;
   }
   bson_string_append (o, "The ");
   for (i = 0; i < n; i++) {
      bson_string_append (o, list_sep (i, n));
      lab_cmp_md_text (o, ls->l[idx[i]].name);
   }
   bson_string_append (o, n == 1 ? " load kept " : " loads kept ");
   for (i = 0; i < n; i++) {
      bson_string_append_printf (o, "%s%.0f%%", list_sep (i, n), pct[i]);
   }
   if (same_cores && cores >= 1) {
      bson_string_append_printf (o, " of %s %.0f core%s", n == 1 ? "its" : "their", cores,
                                 cores >= 2 ? "s" : "");
   } else {
      bson_string_append (o, n == 1 ? " of its cores" : " of their cores");
   }
   bson_string_append_printf (o,
                              " busy (the store's process, mean over the load): %s bound by the CPU "
                              "(decompression, BSON), a faster disk would have changed little, and %s disk "
                              "rates show what the CPU let through, not what the disk can do.\n\n",
                              n == 1 ? "it was" : "they were", n == 1 ? "its" : "their");
}

/* lab_cmp_render_table -- see render_private.h. */
void
lab_cmp_render_table (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s)
{
   const lab_metric_t *m;
   lab_results_layouts_t ls;
   size_t n, i;
   bson_string_t *missing = bson_string_new (NULL);
   int counts[LAB_RESULTS_MAX_LAYOUTS], nd, nf;
   bool same, zero_ref = false;
   lab_cmp_match_t match;
   double cache_over = 0;
   char *rule;

   lab_results_layouts (&r->doc, &ls);
   same = lab_cmp_run_counts (r, &ls, counts, &nd);
   nf = counts[1];
   bson_string_append_printf (o, "## Comparison\n\n| metric (%s-order load)",
                              lab_results_load_order (&r->doc));
   for (i = 0; i < ls.n; i++) {
      bson_string_append (o, " | ");
      lab_cmp_md_text (o, lab_cmp_layout_heading (&ls, i));
   }
   for (i = 0; i < ls.n; i++) {
      if (i != ls.reference) {
         bson_string_append (o, " | ");
         lab_cmp_md_text (o, ls.l[i].name);
         bson_string_append (o, " / ");
         lab_cmp_md_text (o, ls.l[ls.reference].name);
      }
   }
   bson_string_append (o, " | better |\n|---|");
   for (i = 0; i < 2 * ls.n - 1; i++) {
      bson_string_append (o, "--:|");
   }
   bson_string_append (o, "---|\n");
   m = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_results_nrow_t row;
      if (!lab_results_nrow (&r->doc, &ls, &m[i], &row)) {
         bson_string_append_printf (missing, "%s%s", missing->len ? ", " : "", m[i].label);
         continue;
      }
      table_row (o, &ls, &row);
      zero_ref = zero_ref || row.zero_ref;
      for (size_t l = 0; strcmp (m[i].name, "cache_peak_pct") == 0 && l < ls.n; l++) {
         cache_over = row.stat[l].present ? fmax (cache_over, row.stat[l].median) : cache_over;
      }
   }
   bson_string_append (o, "\n");
   lab_cmp_match_of (r, &match);
   lab_cmp_render_match_note (o, r, &match);
   if (same) {
      bson_string_append_printf (o,
                                 "Figures are medians over %d run%s per layout, with the min–max range in "
                                 "parentheses when runs differ. ",
                                 nd, nd == 1 ? "" : "s");
   } else if (ls.n == 2) {
      bson_string_append_printf (o,
                                 "Figures are medians over %d %s and %d %s runs, with the "
                                 "min–max range in parentheses when runs differ. ",
                                 nd, ls.l[0].name, nf, ls.l[1].name);
   } else {
      bson_string_append (o, "Figures are medians over ");
      for (i = 0; i < ls.n; i++) {
         bson_string_append_printf (o, "%s%d %s", list_sep (i, ls.n), counts[i], ls.l[i].name);
      }
      bson_string_append (o, " runs, with the min–max range in parentheses when runs differ. ");
   }
   rule = lab_results_same_rule (&r->doc);
   if (lab_cmp_classic_pair (&ls)) {
      bson_string_append_printf (
         o,
         "The ratio is folded ÷ detail. *better* names the layout with the better "
         "median and by what factor (less time, fewer and larger read requests, less "
         "memory); descriptive rows have none (rates per second among them: the totals "
         "decide). The rule: %s.",
         rule);
   } else {
      bson_string_append (o, "Each ratio is that layout ÷ ");
      lab_cmp_md_text (o, ls.l[ls.reference].name);
      bson_string_append_printf (o,
                                 " (the reference). *better* names the layout with the best median and by "
                                 "what factor it beats the runner-up (less time, fewer and larger read "
                                 "requests, less memory), or the layouts the same as the best joined by =; "
                                 "descriptive rows have none (rates per second among them: the totals "
                                 "decide), and *same* means every layout ties. The rule: %s.",
                                 rule);
   }
   bson_free (rule);
   if (zero_ref) {
      bson_string_append (o, " A ratio to a reference figure shown as zero is left out (–).");
   }
   bson_string_append (o, " Sizes are SI (1 MB = 10^6 bytes).");
   if (s && s->ref < s->n) {
      bson_string_append (o, " In this sweep the table shows its reference point, ");
      lab_cmp_md_point (o, &s->p[s->ref]);
      bson_string_append (o, "; the Cache sweep section above has every point.");
   }
   bson_string_append (o, "\n\n");
   if (cache_over >= 100.5) {
      lab_cmp_md_cache_over_note (o, cache_over);
      bson_string_append (o, "\n\n");
   }
   render_cpu_bound (o, r, &ls);
   if (missing->len) {
      bson_string_append (o, ls.n == 2 ? "Not measured in this experiment (n/a for both layouts): "
                                       : "Not measured in this experiment (n/a for every layout): ");
      lab_cmp_md_text (o, missing->str);
      bson_string_append (o, ".\n\n");
   }
   bson_string_free (missing, true);
}

/* md_change -- "+12.3% worse" between the baseline's and this median: marked better or worse only when
 * the one rule of core/results.h (lab_results_winner, with this file's noise) tells them apart, the same
 * rule as *same* in the tables; a marked change that one decimal would show as 2.0% gets two decimals. */
static void
md_change (bson_string_t *o, const lab_cmp_results_t *r, const lab_metric_t *m, const lab_stat_t *base,
           const lab_stat_t *cur)
{
   lab_results_noise_t noise = lab_results_noise_of (&r->doc, m);
   lab_winner_t w;
   double ch;

   noise.unpaired = true; /* two experiments: their runs are not paired */

   if (!base->present || !cur->present || base->median == 0.0) {
      bson_string_append (o, "n/a");
      return;
   }
   ch = (cur->median - base->median) / fabs (base->median) * 100.0;
   w = lab_results_winner (m->better, base, cur, &noise, NULL, NULL);
   if (fabs (ch) < 0.05) {
      bson_string_append (o, "0.0%");
      return;
   }
   bson_string_append_printf (
      o,
      (w == LAB_WIN_DETAIL || w == LAB_WIN_FOLDED) && round (fabs (ch) * 10) <= 20 ? "%s%.2f%%" : "%s%.1f%%",
      ch > 0 ? "+" : "−", fabs (ch));
   /* lab_results_winner's "detail" is its first argument, the baseline */
   if (w == LAB_WIN_FOLDED) {
      bson_string_append (o, " better");
   } else if (w == LAB_WIN_DETAIL) {
      bson_string_append (o, " worse");
   }
}

/* lab_cmp_render_baseline -- see render_private.h. */
void
lab_cmp_render_baseline (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *b)
{
   const lab_metric_t *m;
   lab_results_layouts_t ls, bls;
   size_t n, i, l, k;
   const lab_cmp_results_t *both[2] = { b, r };
   const lab_results_layouts_t *both_ls[2] = { &bls, &ls };
   const char *what[2] = { "baseline", "this experiment" };
   char *rule;

   lab_results_layouts (&r->doc, &ls);
   lab_results_layouts (&b->doc, &bls);
   bson_string_append (o, "## Against the baseline\n\n");
   for (k = 0; k < 2; k++) {
      const bson_t *d = &both[k]->doc;
      bson_string_append_printf (o, "- %s: ", what[k]);
      lab_cmp_md_text (o, both[k]->name);
      bson_string_append (o, " — ");
      lab_cmp_md_backend (o, d);
      bson_string_append (o, " on ");
      lab_cmp_md_text (o, lab_results_get_string (d, "host.hostname"));
      bson_string_append (o, ", ");
      for (l = 0; l < both_ls[k]->n; l++) {
         bson_string_append_printf (o, "%s%d", l ? "+" : "",
                                    lab_cmp_run_count (both[k], both_ls[k]->l[l].name));
      }
      bson_string_append (o, " runs, started ");
      lab_cmp_md_text (o, lab_results_header (d, LAB_RESULTS_KEY_STARTED));
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n| metric |");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, " ");
      lab_cmp_md_text (o, ls.l[l].name);
      bson_string_append (o, ": baseline | ");
      lab_cmp_md_text (o, ls.l[l].name);
      bson_string_append (o, ": this | change |");
   }
   bson_string_append (o, "\n|---|");
   for (l = 0; l < ls.n; l++) {
      bson_string_append (o, "--:|--:|--:|");
   }
   bson_string_append (o, "\n");
   m = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_stat_t st[LAB_RESULTS_MAX_LAYOUTS][2]; /* [layout][baseline, this] */
      bool any = false;
      for (l = 0; l < ls.n; l++) {
         st[l][0] = lab_results_metric_stat (&b->doc, ls.l[l].name, &m[i]);
         st[l][1] = lab_results_metric_stat (&r->doc, ls.l[l].name, &m[i]);
         any = any || st[l][0].present || st[l][1].present;
      }
      if (!any) {
         continue;
      }
      bson_string_append (o, "| ");
      lab_cmp_md_text (o, m[i].label);
      for (l = 0; l < ls.n; l++) {
         lab_stat_t bm = st[l][0], cm = st[l][1];
         /* medians only: the spreads are in each experiment's own report */
         bm.n = cm.n = 1;
         bson_string_append (o, " | ");
         lab_cmp_md_stat (o, m[i].unit, &bm, true);
         bson_string_append (o, " | ");
         lab_cmp_md_stat (o, m[i].unit, &cm, true);
         bson_string_append (o, " | ");
         md_change (o, r, &m[i], &st[l][0], &st[l][1]);
      }
      bson_string_append (o, " |\n");
   }
   rule = lab_results_same_rule (&r->doc);
   bson_string_append_printf (o,
                              "\nMedians of each experiment; *change* is this experiment relative to the "
                              "baseline, marked better or worse on a metric with a direction unless the two "
                              "are the same by the tables' rule: %s.\n\n",
                              rule);
   bson_free (rule);
}
