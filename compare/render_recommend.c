/*
 * render_recommend.c -- the report's first section, "Recommendation": per candidate layout one line with
 * what it gains on the load at the caches measured (and at production's cache when marked), what it costs
 * (each workload it loses against the reference, with the factor), its storage and index size and its
 * largest document against the 16 MiB cap; then the cheaper change (an unfolded layout in key order
 * against folding, point by point), the user's mix, and what the run count allows to claim. Every "gains"
 * and "loses" is the one rule's (core/verdict.c); the sections below hold the evidence.
 */
#include "compare/render_private.h"
#include "core/cli.h"

/* MongoDB's document cap (BSONObjMaxUserSize): the largest document a layout may hold. */
#define BSON_CAP_BYTES (16.0 * 1024 * 1024)

/* What one candidate gains on the key-order load against the reference, over the caches measured. */
typedef struct {
   int points;             /* points (a single-point file: 1) with a speedup */
   double lo, hi;          /* the smallest and largest speedup (reference time / the candidate's) */
   int wins, ties, losses; /* by the rule, per point */
   double ratio_lo, ratio_hi;
} gain_t;

/* gain_of -- candidate `name`'s load speedups over the sweep's points, or the single point's. */
static gain_t
gain_of (const lab_cmp_results_t *r, const lab_cmp_sweep_t *sw, const lab_results_layouts_t *ls, size_t l)
{
   const lab_metric_t *m = lab_results_metric_find ("elapsed_s");
   lab_results_nrow_t row;
   gain_t g = { 0 };
   size_t i, k;

   g.lo = INFINITY;
   g.ratio_lo = INFINITY;
   if (sw && sw->n > 0) {
      for (i = 0; i < sw->n; i++) {
         const lab_sweep_point_t *p = &sw->p[i];
         for (k = 1; k < p->n; k++) {
            if (strcmp (p->names[k], ls->l[l].name) != 0 || !p->has_speedup_of[k]) {
               continue;
            }
            g.points++;
            g.lo = fmin (g.lo, p->speedup_of[k]);
            g.hi = fmax (g.hi, p->speedup_of[k]);
            g.ratio_lo = fmin (g.ratio_lo, p->cache_ratio);
            g.ratio_hi = fmax (g.ratio_hi, p->cache_ratio);
            g.wins += p->speedup_verdict[k].winner == LAB_WIN_FOLDED;
            g.ties += p->speedup_verdict[k].winner == LAB_WIN_TIE;
            g.losses += p->speedup_verdict[k].winner == LAB_WIN_DETAIL;
         }
      }
      return g;
   }
   if (m && lab_results_nrow (&r->doc, ls, m, &row) && row.vs_ref[l].has_ratio && row.vs_ref[l].ratio > 0) {
      const lab_verdict_t *v = &row.vs_ref[l];
      g.points = 1;
      g.lo = g.hi = 1.0 / v->ratio;
      g.wins = v->winner == LAB_WIN_FOLDED;
      g.ties = v->winner == LAB_WIN_TIE;
      g.losses = v->winner == LAB_WIN_DETAIL;
   }
   return g;
}

/* md_gain -- "loads 9.15x–85.8x faster than detail in key order at the 3 caches measured (ratio
 * 0.41–3.26 ...)", or slower, or the same, or, where the rule judged the points differently, the range
 * with how many points went which way. */
static void
md_gain (bson_string_t *o, const gain_t *g, const char *ref)
{
   bool faster = g->wins == g->points, slower = g->losses == g->points;

   if (g->points == 0) {
      bson_string_append (o, "load not compared (no load time of both layouts)");
      return;
   }
   if (g->ties == g->points) {
      bson_string_append (o, "loads in the same time as ");
      lab_cmp_md_text (o, ref);
   } else if (faster || slower) {
      bson_string_append (o, "loads ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, faster ? g->lo : 1.0 / g->hi);
      if (g->points > 1) {
         bson_string_append (o, "–");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, faster ? g->hi : 1.0 / g->lo);
      }
      bson_string_append (o, faster ? " faster than " : " slower than ");
      lab_cmp_md_text (o, ref);
   } else {
      bson_string_append (o, "loads at ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, g->lo);
      bson_string_append (o, "–");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, g->hi);
      bson_string_append (o, " the speed of ");
      lab_cmp_md_text (o, ref);
      bson_string_append_printf (o, " (faster at %d, the same at %d, slower at %d of the caches)", g->wins,
                                 g->ties, g->losses);
   }
   bson_string_append (o, " in key order");
   if (g->points > 1 && isfinite (g->ratio_lo)) {
      bson_string_append_printf (o, " at the %d caches measured (", g->points);
      lab_cmp_md_ratio (o, g->ratio_lo);
      bson_string_append (o, "–");
      lab_cmp_md_ratio (o, g->ratio_hi);
      bson_string_append (o, " times the reference's data and indexes)");
   }
}

/* md_production -- production's place: the speedup interpolated at its ratio, or why there is none. */
static void
md_production (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *sw, size_t cand,
               const lab_cmp_production_t *prod)
{
   lab_estimate_t e;

   if (!prod) {
      bson_string_append (o, "; production not marked (layout-report --production-cache-ratio)");
      return;
   }
   if (!sw || sw->n == 0 || cand == 0) {
      bson_string_append (o, "; production marked, but one point is not a curve: no estimate there");
      return;
   }
   e = lab_cmp_sweep_estimate_of (r, prod, cand);
   if (e.status == LAB_ESTIMATE_MEASURED || e.status == LAB_ESTIMATE_INTERPOLATED) {
      bson_string_append (o, "; at production's cache about ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, e.speedup);
      bson_string_append (o, e.status == LAB_ESTIMATE_MEASURED ? " (a measured point)" : " (interpolated)");
   } else if (e.status == LAB_ESTIMATE_OUTSIDE) {
      bson_string_append (o, "; production's cache is outside the caches measured: no estimate (never "
                             "extrapolated)");
   } else {
      bson_string_append (o, "; too few points for production's estimate");
   }
}

/* md_costs -- the workloads candidate `name` loses against the reference `ref` by the rule: "row 3.20x
 * slower, aggregate 1.40x slower"; "none of the 4 workloads measured"; or that none was measured. Returns
 * how many it loses, SIZE_MAX when no other workload was measured. */
static size_t
md_costs (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_workloads_t *wl, const char *name,
          const char *ref)
{
   const lab_results_noise_t noise = { .measured = true, .resolution = LAB_RESULTS_TIMER_RES_S };
   double cache, ix;
   size_t i, measured = 0, lost = 0;

   bson_string_append (o, ". What it costs: ");
   for (i = 0; i < wl->n; i++) {
      const lab_cmp_workload_t *w = &wl->w[i];
      int me = lab_cmp_wl_layout_find (w, name), rf = lab_cmp_wl_layout_find (w, ref);
      lab_verdict_t v;

      if (me < 0 || rf < 0 || strcmp (w->workload, "load") == 0) {
         continue;
      }
      measured++;
      v = lab_results_verdict (LAB_BETTER_LOWER, &w->layouts[rf].elapsed, &w->layouts[me].elapsed, &noise);
      if (v.winner != LAB_WIN_DETAIL) {
         continue;
      }
      bson_string_append (o, lost++ ? ", " : "");
      lab_cmp_md_text (o, w->label);
      bson_string_append (o, " ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, v.factor);
      bson_string_append (o, " slower");
      if (v.npairs < 2) {
         bson_string_append (o, " (1 run)");
      }
      if (lab_cmp_wl_is_write (w->workload) &&
          (lab_cmp_writes_thrash (r, name, &cache, &ix) || lab_cmp_writes_thrash (r, ref, &cache, &ix))) {
         bson_string_append (o, " in a cache that thrashes");
      }
   }
   if (measured == 0) {
      bson_string_append (o, "not measured: no workload besides the load (scancmp --workload all measures "
                             "single rows, time windows, totals, appends and corrections)");
   } else if (lost == 0) {
      bson_string_append_printf (o, "it loses none of the %zu other workloads measured", measured);
   }
   return measured == 0 ? SIZE_MAX : lost;
}

/* md_size -- "storage 52.4 MB against 61.2 MB, indexes 143 KB against 18.1 MB". */
static void
md_size (bson_string_t *o, const lab_cmp_results_t *r, const char *name, const char *ref)
{
   static const char *const metric[] = { "storage_size_bytes", "index_size_bytes" };
   static const char *const word[] = { "storage", "indexes" };
   size_t i;
   bool any = false;

   for (i = 0; i < 2; i++) {
      const lab_metric_t *m = lab_results_metric_find (metric[i]);
      lab_stat_t a, b;
      if (!m) {
         continue;
      }
      a = lab_results_metric_stat (&r->doc, ref, m);
      b = lab_results_metric_stat (&r->doc, name, m);
      if (!a.present || !b.present) {
         continue;
      }
      bson_string_append_printf (o, "%s%s ", any ? ", " : ". Size: ", word[i]);
      lab_cmp_md_number (o, LAB_CMP_BYTES, b.median);
      bson_string_append (o, " against ");
      lab_cmp_md_number (o, LAB_CMP_BYTES, a.median);
      any = true;
   }
}

/* md_largest -- the largest document against the cap, from the fold's record (its --verify), for a
 * layout of arrays; nothing for one document per row. */
static void
md_largest (bson_string_t *o, const lab_cmp_results_t *r, const lab_results_layout_t *l)
{
   char path[256];
   double v;

   if (lab_layout_reads_rows (&l->desc)) {
      return;
   }
   snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.provenance.verify.largest_doc_bytes", l->name);
   if (!lab_results_get_number (&r->doc, path, &v)) {
      bson_string_append (o, "; its largest document not recorded (fold-details --verify records it)");
      return;
   }
   bson_string_append (o, "; its largest document ");
   lab_cmp_md_number (o, LAB_CMP_BYTES, v);
   bson_string_append_printf (o, ", %.1f%% of the 16 MiB cap", 100.0 * v / BSON_CAP_BYTES);
}

/* coll_of -- a layout's collection, else its name (a file that does not say). */
static const char *
coll_of (const lab_cmp_results_t *r, const char *layout)
{
   const char *c = lab_cmp_collection_name (r, layout);
   return c ? c : layout;
}

/* kind_words -- a layout's nature as the line says it, from its descriptor. */
static const char *
kind_words (const lab_layout_t *d)
{
   if (lab_layout_one_doc_per_master (d)) {
      return "one document per master";
   }
   if (lab_layout_bucketed (d)) {
      return "buckets of rows per master";
   }
   return lab_layout_key_contiguous (d) ? "one document per row, in key order" : "one document per row";
}

/* point_speedup -- candidate `name`'s load speedup at sweep point p (false: none). */
static bool
point_speedup (const lab_sweep_point_t *p, const char *name, double *s)
{
   size_t k;

   for (k = 1; k < p->n; k++) {
      if (strcmp (p->names[k], name) == 0 && p->has_speedup_of[k]) {
         *s = p->speedup_of[k];
         return true;
      }
   }
   return false;
}

/* render_cheaper -- the cheaper change: each unfolded candidate whose rows sit in key order (a sorted copy
 * or a clustered collection: its descriptor reads rows, key contiguous) against the fastest folded one,
 * point by point: "clustered keeps
 * 57.4x of folded's 122x at 256 MiB, ratio 0.41"; or how to measure it. */
static void
render_cheaper (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *sw,
                const lab_results_layouts_t *ls, const gain_t *g)
{
   size_t l, f = ls->n, i;
   bool any = false;

   for (l = 0; l < ls->n; l++) {
      if (l != ls->reference && lab_layout_doc_holds_many_rows (&ls->l[l].desc) && g[l].points > 0 &&
          (f == ls->n || g[l].hi > g[f].hi)) {
         f = l;
      }
   }
   if (f == ls->n) {
      return; /* no folded candidate: nothing to be cheaper than */
   }
   for (l = 0; l < ls->n; l++) {
      if (l == ls->reference || !lab_layout_reads_rows (&ls->l[l].desc) ||
          !lab_layout_key_contiguous (&ls->l[l].desc) || g[l].points == 0) {
         continue;
      }
      bson_string_append (o, "- **The cheaper change**: ");
      lab_cmp_md_text (o, ls->l[l].name);
      bson_string_append (o, " keeps ");
      if (sw && sw->n > 0) {
         size_t k = 0;
         for (i = 0; i < sw->n; i++) {
            double a, b;
            if (!point_speedup (&sw->p[i], ls->l[l].name, &a) ||
                !point_speedup (&sw->p[i], ls->l[f].name, &b)) {
               continue;
            }
            bson_string_append (o, k++ ? "; " : "");
            lab_cmp_md_number (o, LAB_CMP_FACTOR, a);
            bson_string_append (o, " of ");
            lab_cmp_md_text (o, ls->l[f].name);
            bson_string_append (o, "'s ");
            lab_cmp_md_number (o, LAB_CMP_FACTOR, b);
            bson_string_append (o, " at ");
            lab_cmp_md_point (o, &sw->p[i]);
         }
      } else {
         lab_cmp_md_number (o, LAB_CMP_FACTOR, g[l].hi);
         bson_string_append (o, " of ");
         lab_cmp_md_text (o, ls->l[f].name);
         bson_string_append (o, "'s ");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, g[f].hi);
      }
      bson_string_append (o, ", with no change to the application's documents (\"The speedup taken apart\" "
                             "below splits folding's gain into locality and fewer documents).\n");
      any = true;
   }
   if (!any) {
      bson_string_t *args = bson_string_new ("--shape clustered --src ");
      bson_string_append (o,
                          "- **The cheaper change**: not measured. A clustered collection keeps a master's "
                          "rows together with no change to the documents: ");
      lab_cli_shell_quote (args, coll_of (r, ls->l[ls->reference].name));
      bson_string_append (args, " --dst detail_clu");
      lab_cmp_md_suggest (o, r, "fold-details", args->str);
      bson_string_free (args, true);
      bson_string_append (o, ", then scancmp with `--layout clustered=detail_clu:rows` beside the others.\n");
   }
}

/* render_sure -- how many runs the figures rest on and what that allows to claim. */
static void
render_sure (bson_string_t *o, const lab_cmp_results_t *r, const lab_results_layouts_t *ls,
             const lab_cmp_workloads_t *wl)
{
   int counts[LAB_RESULTS_MAX_LAYOUTS] = { 0 }, n1 = 0, wmin = INT32_MAX;
   bool same = lab_cmp_run_counts (r, ls, counts, &n1);
   size_t i, k;

   for (i = 0; i < wl->n; i++) {
      for (k = 0; strcmp (wl->w[i].workload, "load") != 0 && k < wl->w[i].n_layouts; k++) {
         wmin = wl->w[i].layouts[k].elapsed.n < wmin ? wl->w[i].layouts[k].elapsed.n : wmin;
      }
   }

   bson_string_append (o, "- **How sure**: ");
   if (same && n1 >= 2) {
      bson_string_append_printf (o,
                                 "%d runs of each layout, paired by run in alternating order: each factor "
                                 "is the geometric mean of the paired ratios, and a layout wins only where "
                                 "the 95%% interval of its ratio excludes 1 (the intervals are in the "
                                 "tables below)",
                                 n1);
      if (wmin < n1) {
         bson_string_append_printf (
            o,
            "; the other workloads ran %d time%s: their factors are marked where they "
            "rest on one run",
            wmin, wmin == 1 ? "" : "s");
      }
      bson_string_append (o, ".\n");
   } else if (same && n1 == 1) {
      bson_string_append (o, "1 run of each layout: every factor is one measurement with no interval; a "
                             "difference under 0.5% is called the same, any other is reported as measured. "
                             "`--runs 3` gives each ratio its 95% interval.\n");
   } else {
      bson_string_append (o, "the layouts have different run counts; each factor below says what it rests "
                             "on.\n");
   }
}

/* lead_one -- one candidate that loads faster at every cache measured: its range, and whether it pays on
 * the workloads measured. */
static void
lead_one (bson_string_t *o, const lab_results_layouts_t *ls, const gain_t *g, size_t lost, size_t l)
{
   bson_string_append (o, "**");
   lab_cmp_md_text (o, ls->l[l].name);
   bson_string_append (o, "** loads faster than ");
   lab_cmp_md_text (o, ls->l[ls->reference].name);
   bson_string_append (o, g->points > 1 ? " at every cache measured (" : " (");
   lab_cmp_md_number (o, LAB_CMP_FACTOR, g->lo);
   if (g->points > 1) {
      bson_string_append (o, "–");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, g->hi);
   }
   if (lost == SIZE_MAX) {
      bson_string_append (o, "); what it costs the other queries and the writes was not measured, so the "
                             "figures below cannot say whether it pays.");
   } else if (lost == 0) {
      bson_string_append (o, ") and loses none of the other workloads measured: on these figures it pays.");
   } else {
      bson_string_append_printf (o,
                                 ") but loses %zu of the other workloads measured: it pays only where the "
                                 "loads outweigh them (the user's mix weighs them when measured).",
                                 lost);
   }
}

/* render_lead -- the decision first: each candidate the rule finds faster than the reference at every cache
 * measured, and whether it pays on the workloads measured; or that none is. It ranks no candidate against
 * another: which loads fastest at each cache is the Verdict's line, by the rule over all of them. */
static void
render_lead (bson_string_t *o, const lab_results_layouts_t *ls, const gain_t *g, const size_t *lost)
{
   size_t l, nwin = 0;

   for (l = 0; l < ls->n; l++) {
      if (l != ls->reference && g[l].points > 0 && g[l].wins == g[l].points) {
         bson_string_append (o, nwin++ ? " " : "");
         lead_one (o, ls, &g[l], lost[l], l);
      }
   }
   if (nwin == 0) {
      bson_string_append (o, "No candidate loads faster than ");
      lab_cmp_md_text (o, ls->l[ls->reference].name);
      bson_string_append (o, " at every cache measured by the rule: the choice depends on the cache (the "
                             "lines below and the curve).");
   } else if (nwin > 1) {
      bson_string_append (o, " Which of them loads fastest: the Verdict below, by "
                             "the same rule over all of them.");
   }
   bson_string_append (o, "\n\n");
}

/* lab_cmp_render_recommend -- see render_private.h. */
void
lab_cmp_render_recommend (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *sw,
                          const lab_cmp_workloads_t *wl, const lab_cmp_mix_t *mix,
                          const lab_cmp_mix_t *estimate, const lab_cmp_production_t *prod)
{
   lab_results_layouts_t ls;
   gain_t g[LAB_RESULTS_MAX_LAYOUTS] = { { 0 } };
   size_t lost[LAB_RESULTS_MAX_LAYOUTS] = { 0 }, lead_at;
   bson_string_t *lead;
   char *rest;
   lab_cmp_match_t match;
   const lab_cmp_mix_t *m = mix && mix->present && mix->n_layouts > 0 ? mix : estimate;
   bool pred = false;
   size_t l, k, cand;
   const char *ref;

   lab_results_layouts (&r->doc, &ls);
   if (ls.n < 2 || (lab_results_get_bool (&r->doc, "predicted", &pred) && pred)) {
      return;
   }
   ref = ls.l[ls.reference].name;
   bson_string_append (o, "## Recommendation\n\n");
   lead_at = o->len;
   /* keys that matched nothing, runs that returned different rows: said before any figure */
   lab_cmp_match_of (r, &match);
   lab_cmp_render_match_verdict (o, r, &match);
   for (l = 0; l < ls.n; l++) {
      if (l == ls.reference) {
         continue;
      }
      for (cand = 0, k = 1; sw && k < sw->nl; k++) {
         cand = strcmp (sw->names[k], ls.l[l].name) == 0 ? k : cand;
      }
      g[l] = gain_of (r, sw, &ls, l);
      bson_string_append (o, "- **");
      lab_cmp_md_text (o, ls.l[l].name);
      bson_string_append (o, "** (");
      lab_cmp_md_text (o, coll_of (r, ls.l[l].name));
      bson_string_append_printf (o, ", %s): ", kind_words (&ls.l[l].desc));
      md_gain (o, &g[l], ref);
      md_production (o, r, sw, cand, prod);
      lost[l] = md_costs (o, r, wl, ls.l[l].name, ref);
      md_size (o, r, ls.l[l].name, ref);
      md_largest (o, r, &ls.l[l]);
      bson_string_append (o, ".\n");
   }
   render_cheaper (o, r, sw, &ls, g);
   if (m && m->present && m->n_layouts > 0) {
      bson_string_append (o, "- **The user's mix**: ");
      lab_cmp_mix_verdict (o, m);
      if (m == mix && lab_cmp_mix_explain_needed (mix, estimate)) {
         bson_string_append (o, " ");
         lab_cmp_mix_explain (o, mix, estimate, true);
      }
      bson_string_append (o, "\n");
   }
   render_sure (o, r, &ls, wl);
   bson_string_append (o, "\n");
   /* the lead sentence goes first but needs every candidate's figures: put it before the lines */
   lead = bson_string_new (NULL);
   render_lead (lead, &ls, g, lost);
   rest = bson_strdup (o->str + lead_at);
   bson_string_truncate (o, (uint32_t)lead_at);
   bson_string_append (o, lead->str);
   bson_string_append (o, rest);
   bson_free (rest);
   bson_string_free (lead, true);
}
