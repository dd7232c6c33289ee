/*
 * render_verdict.c -- the verdict of a single-point file: the two-layout wording of detail and folded
 * (render_verdict), N layouts or another pair (render_verdict_n), the regime the point was measured in,
 * how cold and consistent the runs were, and what the layouts did not share (unmatched keys, rows).
 */
#include "compare/render_private.h"

/* md_unmatched -- "5 of 40 keys in bill_detail (detail)" or "none in ... (folded)"; "3–5" when runs
 * differ. */
static void
md_unmatched (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m, size_t l)
{
   const char *coll = lab_cmp_collection_name (r, m->names[l]);

   if (m->unmatched_max[l] == 0) {
      bson_string_append (o, "none");
   } else {
      if (m->unmatched_min[l] != m->unmatched_max[l]) {
         lab_cmp_md_number (o, LAB_CMP_COUNT, (double)m->unmatched_min[l]);
         bson_string_append (o, "–");
      }
      lab_cmp_md_number (o, LAB_CMP_COUNT, (double)m->unmatched_max[l]);
      if (m->keys >= 0) {
         bson_string_append (o, " of ");
         lab_cmp_md_number (o, LAB_CMP_COUNT, (double)m->keys);
      }
      bson_string_append (o, m->unmatched_max[l] == 1 && m->keys < 0 ? " key" : " keys");
   }
   bson_string_append (o, " in ");
   lab_cmp_md_text (o, coll ? coll : m->names[l]);
   bson_string_append (o, " (");
   lab_cmp_md_text (o, m->names[l]);
   bson_string_append (o, ")");
}

/* md_unmatched_all -- every layout's unmatched keys, those recorded, joined by ", ". */
static void
md_unmatched_all (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m)
{
   size_t l;
   bool first = true;

   for (l = 0; l < m->n; l++) {
      if (m->has_unmatched[l]) {
         bson_string_append (o, first ? "" : ", ");
         md_unmatched (o, r, m, l);
         first = false;
      }
   }
}

/* md_rows_of -- "80 rows from bill_detail": layout l's rows in the first run that differed. */
static void
md_rows_of (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m, size_t l, bool first)
{
   const char *coll = lab_cmp_collection_name (r, m->names[l]);

   lab_cmp_md_number (o, LAB_CMP_COUNT, (double)m->first_differ_rows[l]);
   bson_string_append (o, first ? " rows from " : " from ");
   lab_cmp_md_text (o, coll ? coll : m->names[l]);
}

/* lab_cmp_render_match_verdict -- see render_private.h. */
void
lab_cmp_render_match_verdict (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m)
{
   size_t l;
   bool first = true;

   if (lab_cmp_match_partial (m)) {
      bson_string_append (o, "- **Some keys matched no document**: ");
      md_unmatched_all (o, r, m);
      bson_string_append (o, "; each layout's figures cover only the keys that matched it.\n");
   }
   if (m->rows_differ > 0) {
      bson_string_append (o, "- **The layouts returned different rows**: ");
      md_rows_of (o, r, m, m->reference, true);
      for (l = 0; l < m->n; l++) {
         if (l != m->reference && m->first_differ_rows[l] >= 0) {
            bson_string_append (o, first ? " vs " : ", ");
            md_rows_of (o, r, m, l, false);
            first = false;
         }
      }
      bson_string_append_printf (o, " in run %d (%d of %d runs differ): ", m->first_differ_run,
                                 m->rows_differ, m->row_pairs);
      bson_string_append (o, "the collections do not hold the same rows for these keys, so the figures "
                             "below do not compare like with like; check the folded collection (");
      lab_cmp_md_suggest_verify (o, r);
      bson_string_append (o, ") before trusting them.\n");
   }
}

/* lab_cmp_render_match_note -- see render_private.h. */
void
lab_cmp_render_match_note (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_match_t *m)
{
   bool partial = lab_cmp_match_partial (m);

   if (!partial && m->rows_differ == 0) {
      return;
   }
   if (partial) {
      bson_string_append (o, "Keys that matched no document: ");
      md_unmatched_all (o, r, m);
      bson_string_append (o, m->rows_differ > 0 ? ". " : ".");
   }
   if (m->rows_differ > 0) {
      bson_string_append_printf (o,
                                 "The layouts returned different row counts in %d of %d runs (*detail rows "
                                 "returned* above): not the same rows.",
                                 m->rows_differ, m->row_pairs);
   }
   bson_string_append (o, "\n\n");
}

/* render_regime_line -- a single-point file's verdict line on the regime it was measured in, and on the
 * production point when one was given. */
static void
render_regime_line (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_production_t *prod)
{
   double ratio, cache, disk;
   bool has_ratio = lab_results_cache_ratio (&r->doc, &ratio);
   lab_results_layouts_t ls;
   lab_sweep_point_t top;
   const char *regime;
   bool memory;

   lab_results_layouts (&r->doc, &ls);
   lab_results_top_point (&r->doc, &top);
   /* the regime of a measured point is what its reads were (lab_results_point_regime: the detail layout's
    * read amplification), never the ratio alone: a cache 1.57x the data on disk can reread each page
    * dozens of times, since the cache holds pages uncompressed */
   regime = lab_results_point_regime (&top);
   memory = strcmp (regime, LAB_RESULTS_REGIME_MEMORY) == 0;
   if (has_ratio) {
      bson_string_append (o, "- Measured in the **");
      bson_string_append (o, regime);
      bson_string_append (o, "** regime: ");
      if (lab_results_cache_bytes (&r->doc, &cache)) {
         bson_string_append (o, "an engine cache of ");
         lab_cmp_md_number (o, LAB_CMP_BINARY, cache);
         bson_string_append (o, " is ");
      } else {
         bson_string_append (o, "the engine cache is ");
      }
      lab_cmp_md_ratio (o, ratio);
      bson_string_append (o, "x the ");
      lab_cmp_md_text (o, ls.l[ls.reference].name);
      bson_string_append (o, " layout's size on disk");
      if (lab_results_on_disk_bytes (&r->doc, ls.l[ls.reference].name, &disk)) {
         bson_string_append (o, " (");
         lab_cmp_md_number (o, LAB_CMP_BYTES, disk);
         bson_string_append (o, ", data + indexes)");
      }
      if (memory) {
         bson_string_append (o, "; ");
         lab_cmp_md_engine_disk (o, &top, ls.l[ls.reference].name);
         bson_string_append (o, " (reads without `--direct-io` go through the OS page cache: the engine's "
                                "rereads cost copies and decompression, not disk reads). ");
      } else if (top.has_amplification[0]) {
         bson_string_append (o, "; the engine read it ");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, top.read_amplification[0]);
         bson_string_append (o, top.buffered_io ? " its on-disk size" : " its on-disk size from disk");
         if (strcmp (regime, LAB_RESULTS_REGIME_FITS) == 0) {
            bson_string_append (o, ", so each page was read about once. ");
         } else if (ratio >= 1.0) {
            bson_string_append (o, ": the cache evicted and reread pages although it is larger than the data "
                                   "on disk (it holds pages uncompressed). ");
         } else {
            bson_string_append (o, ": the cache evicted and reread pages. ");
         }
      } else {
         /* no engine read figures: the ratio is all there is, and says so */
         bson_string_append (o, ratio >= 1.0 ? ", so each page should be read once (the ratio says so; no "
                                               "engine read figures confirm it). "
                                             : ", so the cache evicts and rereads pages (the ratio says so; "
                                               "no engine read figures confirm it). ");
      }
      bson_string_append (o, "The speedup depends mostly on this ratio: one point is not the curve (");
      lab_cmp_md_suggest_scan (o, r, LAB_CMP_SWEEP_ARGS);
      bson_string_append (o, " measures it).\n");
   }
   if (prod) {
      bson_string_append (o, "- **No estimate at the production cache ratio ");
      lab_cmp_md_production_given (o, prod);
      bson_string_append (o, "**: this file holds one measured point");
      if (has_ratio) {
         bson_string_append (o, " (ratio ");
         lab_cmp_md_ratio (o, ratio);
         bson_string_append (o, ")");
      }
      bson_string_append (o, ", not a curve to interpolate on; measure a sweep (");
      lab_cmp_md_suggest_scan (o, r, LAB_CMP_SWEEP_ARGS);
      bson_string_append (o, ").\n");
   }
}

/* verdict_cold -- the start of the verdict's third line: how cold the runs were (the caller ends it with
 * what the spread says). */
static void
verdict_cold (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_cold_facts_t *cf)
{
   lab_cmp_cold_facts_t c = *cf;
   bool cold_requested = false;

   bson_string_append (o, "- ");
   lab_results_get_bool (&r->doc, "config.cold", &cold_requested);
   if (!cold_requested) {
      bson_string_append (o, "**Not a cold experiment** (scancmp ran without `--cold`): caches may have "
                             "served part of the data");
   } else if (c.not_cold > 0) {
      /* scancmp's own verdict: e.g. a server whose page cache was dropped kept its engine cache */
      bson_string_append_printf (o, "**Not cold** (%d of %d runs): ", c.not_cold, c.runs);
      lab_cmp_md_text (o, c.not_cold_why ? c.not_cold_why : "scancmp did not record them as cold");
   } else if (c.drop_known == c.runs && c.dropped == c.runs && c.resident_known &&
              c.resident_max_pct <= 1.0) {
      lab_cmp_md_all_runs (o, c.runs, true);
      bson_string_append_printf (
         o, " started cold (caches dropped, at most %.1f%% of the data files resident)", c.resident_max_pct);
   } else if (c.dropped == c.runs && c.drop_known == c.runs) {
      if (c.resident_known) {
         bson_string_append (o, "Caches were dropped before ");
         lab_cmp_md_all_runs (o, c.runs, false);
         bson_string_append_printf (o, ", yet up to %.1f%% of the data files were resident before one",
                                    c.resident_max_pct);
      } else {
         bson_string_append (o, "Caches were dropped before ");
         lab_cmp_md_all_runs (o, c.runs, false);
         bson_string_append (o, " (residency not measured)");
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
}

/* render_busy_line -- next to the verdict's figures: the runs during which other processes kept the shared
 * machine busy (runs[].background.busy), the busiest one's words. Nothing for files without it. */
static void
render_busy_line (bson_string_t *o, const lab_cmp_results_t *r)
{
   int i, n = lab_cmp_runs_n (r), busy = 0;
   const char *note = NULL;
   double v, worst = -1;
   bson_t run;
   bool b;

   for (i = 0; i < n; i++) {
      if (lab_cmp_run_get (r, i, &run) && lab_results_get_bool (&run, "background.busy", &b) && b) {
         busy++;
         if (lab_results_get_number (&run, "background.other_cores", &v) && v > worst) {
            worst = v;
            note = lab_results_get_string (&run, "background.busy_note");
         }
      }
   }
   if (busy == 0) {
      return;
   }
   bson_string_append_printf (o, "- **Warning**: the machine was busy during %d of %d runs: ", busy, n);
   lab_cmp_md_text (o, note ? note : "other processes ran");
   bson_string_append (o, " (the busiest; see \"Cold procedure\"): its times may be slower than alone\n");
}

/* lab_cmp_render_trust_line -- see render_private.h. */
void
lab_cmp_render_trust_line (bson_string_t *o, const lab_cmp_results_t *r)
{
   const char *product = lab_results_product (&r->doc);
   const char *warn = lab_results_product_warning (product);

   render_busy_line (o, r);
   if (!warn) {
      return;
   }
   bson_string_append (o, "- **Warning**: ");
   bson_string_append (o, warn);
   bson_string_append (o, " (backend.product: ");
   lab_cmp_md_text (o, product);
   bson_string_append (o, "). Measure on mongod before deciding.\n");
}

/* md_tie_why -- why two load times are "same" by the one rule (core/results.h, lab_results_verdict), for
 * the verdict: "the 95% interval of the ratio over 3 paired runs, 0.91x–1.20x, holds 1: the runs cannot
 * tell the layouts apart". */
static void
md_tie_why (bson_string_t *o, const lab_verdict_t *v)
{
   char *lo, *hi;

   if (v->why == LAB_TIE_INTERVAL && v->has_ci) {
      lo = lab_results_format_factor (v->lo);
      hi = lab_results_format_factor (v->hi);
      bson_string_append_printf (o,
                                 "the 95%% interval of the ratio (folded / detail) over %d paired runs, "
                                 "%s–%s, holds 1: the runs cannot tell the layouts apart",
                                 v->npairs, lo, hi);
      bson_free (lo);
      bson_free (hi);
      return;
   }
   bson_string_append_printf (o, "within %.1f%% or the timer's resolution", LAB_RESULTS_FLOOR * 100);
}

/* lab_cmp_render_verdict -- see render_private.h. */
void
lab_cmp_render_verdict (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_production_t *prod)
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
   lab_cmp_cold_facts_t c = lab_cmp_gather_cold (r);
   char why[200];
   bool cold = lab_results_cold_check (&r->doc, NULL, why, sizeof why);
   double factor;
   lab_winner_t w;
   lab_tie_t tie;
   lab_results_noise_t noise;
   lab_verdict_t v;
   char *note;
   lab_cmp_match_t match;

   bson_string_append (o, "## Verdict\n\n");
   lab_cmp_match_of (r, &match);
   lab_cmp_render_match_verdict (o, r, &match);

   /* 1: load time, by the one rule of core/results.h */
   noise = lab_results_noise_of (&r->doc, m_el);
   v = lab_results_verdict (m_el->better, &ed, &ef, &noise);
   w = v.winner;
   factor = v.factor;
   tie = v.why;
   note = lab_results_verdict_note (&v);
   lab_cmp_render_trust_line (o, r);
   bson_string_append (o, "- ");
   if ((w == LAB_WIN_FOLDED || w == LAB_WIN_DETAIL) && !cold) {
      /* no bold for a speedup the runs cannot claim (core/results.h, lab_results_cold_check) */
      bson_string_append_printf (o, "The folded layout loads ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, factor);
      bson_string_append_printf (o, " %s in %s order (", w == LAB_WIN_FOLDED ? "faster" : "slower",
                                 lab_results_load_order (&r->doc));
      bson_string_append_printf (o, "%s; %s", note, why);
      bson_string_append (o, "): ");
   } else if (w == LAB_WIN_FOLDED || w == LAB_WIN_DETAIL) {
      bson_string_append_printf (o, "**The folded layout loads ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, factor);
      bson_string_append_printf (o, " %s in %s order** (", w == LAB_WIN_FOLDED ? "faster" : "slower",
                                 lab_results_load_order (&r->doc));
      bson_string_append_printf (o, "%s): ", note);
   } else if (w == LAB_WIN_TIE && tie == LAB_TIE_CLOSE) {
      bson_string_append_printf (
         o, "**Both layouts load in the same time** (within %.1f%%): ", LAB_RESULTS_FLOOR * 100);
   } else if (w == LAB_WIN_TIE) {
      bson_string_append (o, "**No winner on load time**: ");
   } else {
      bson_string_append (o, "**Load time could not be compared**: ");
   }
   lab_cmp_md_stat (o, LAB_UNIT_SECONDS, &ef, true);
   bson_string_append (o, " folded vs ");
   lab_cmp_md_stat (o, LAB_UNIT_SECONDS, &ed, true);
   if (nd == nf) {
      bson_string_append_printf (o, " one document per row (%s%d run%s each)", nd == 1 ? "" : "median of ",
                                 nd, nd == 1 ? "" : "s");
   } else {
      bson_string_append_printf (o, " one document per row (median of %d and %d runs)", nf, nd);
   }
   if (w == LAB_WIN_TIE && tie != LAB_TIE_CLOSE) {
      bson_string_append (o, ": ");
      md_tie_why (o, &v);
   }
   bson_string_append (o, ".\n");
   bson_free (note);
   render_regime_line (o, r, prod);

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
      lab_cmp_md_number (o, LAB_CMP_COUNT, rf.median);
      bson_string_append (o, " vs ");
      lab_cmp_md_number (o, LAB_CMP_COUNT, rd.median);
      bson_string_append (o, ")");
      if (sd.present && sf.present) {
         bson_string_append (o, ", of ");
         lab_cmp_md_number (o, LAB_CMP_BYTES, sf.median);
         bson_string_append (o, " on average instead of ");
         lab_cmp_md_number (o, LAB_CMP_BYTES, sd.median);
      }
      bson_string_append (o, ".\n");
   } else {
      bson_string_append (o, "Disk read requests could not be compared (n/a: the device was not sampled).\n");
   }

   /* 3: how cold, how consistent */
   verdict_cold (o, r, &c);
   if (nd < 2 || nf < 2) {
      bson_string_append (o, "; 1 run per layout: no spread, the ratios are as measured (`--runs 3` gives "
                             "each a 95% interval).\n");
   } else {
      /* the interval is on the load-time line above: one statement, not a second rule */
      bson_string_append_printf (o, "; the layouts alternated in order over the %d runs.\n",
                                 nd < nf ? nd : nf);
   }
   bson_string_append (o, "\n");
}

/* lab_cmp_render_verdict_n -- see render_private.h. */
void
lab_cmp_render_verdict_n (bson_string_t *o, const lab_cmp_results_t *r, const lab_results_layouts_t *ls,
                          const lab_cmp_production_t *prod)
{
   const lab_metric_t *m_el = lab_results_metric_find ("elapsed_s");
   const lab_metric_t *m_rr = lab_results_metric_find ("read_requests");
   const char *ref = ls->l[ls->reference].name;
   lab_results_nrow_t el, rr;
   lab_cmp_cold_facts_t c = lab_cmp_gather_cold (r);
   char why[200];
   bool cold = lab_results_cold_check (&r->doc, NULL, why, sizeof why);
   int counts[LAB_RESULTS_MAX_LAYOUTS], n1, nmin;
   size_t i, runner = ls->n;
   bool same = lab_cmp_run_counts (r, ls, counts, &n1);
   lab_cmp_match_t match;

   lab_results_nrow (&r->doc, ls, m_el, &el);
   lab_results_nrow (&r->doc, ls, m_rr, &rr);
   bson_string_append (o, "## Verdict\n\n");
   lab_cmp_match_of (r, &match);
   lab_cmp_render_match_verdict (o, r, &match);
   lab_cmp_render_trust_line (o, r);
   bson_string_append (o, "- ");

   /* 1: load time; no bold for a speedup the runs cannot claim (core/results.h, lab_results_cold_check) */
   if (el.winner == LAB_WIN_ONE) {
      for (i = 0; i < ls->n; i++) {
         if (i != el.best && el.stat[i].present &&
             (runner == ls->n || el.stat[i].median < el.stat[runner].median)) {
            runner = i;
         }
      }
      bson_string_append (o, cold ? "**" : "");
      lab_cmp_md_text (o, ls->l[el.best].name);
      bson_string_append_printf (o, " loads fastest in %s order", lab_results_load_order (&r->doc));
      if (el.factor > 0 && runner < ls->n) {
         bson_string_append (o, ", ");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, el.factor);
         bson_string_append (o, " faster than the runner-up ");
         lab_cmp_md_text (o, ls->l[runner].name);
         {
            char *note = lab_results_verdict_note (&el.decisive);
            bson_string_append_printf (o, " (%s)", note);
            bson_free (note);
         }
      }
      if (!cold) {
         bson_string_append (o, " (");
         bson_string_append (o, why);
         bson_string_append (o, ")");
      }
      bson_string_append (o, cold ? "**: " : ": ");
   } else if (el.winner == LAB_WIN_TIE && el.ntied == ls->n) {
      bson_string_append_printf (o,
                                 el.tie == LAB_TIE_CLOSE
                                    ? "**All %zu layouts load in the same time** (within 0.5%%): "
                                    : "**No winner on load time among the %zu layouts** "
                                      "(no difference the runs can tell): ",
                                 ls->n);
   } else if (el.winner == LAB_WIN_TIE) {
      bson_string_append (o, "**");
      for (i = 0, n1 = 0; i < ls->n; i++) {
         if (el.tied[i]) {
            bson_string_append (o, n1++ ? " and " : "");
            lab_cmp_md_text (o, ls->l[i].name);
         }
      }
      bson_string_append (o, el.tie == LAB_TIE_CLOSE
                                ? " load fastest, within 0.5% of each other**: "
                                : " load fastest, no difference the runs can tell between "
                                  "them**: ");
   } else {
      bson_string_append (o, "**Load time could not be compared**: ");
   }
   for (i = 0; i < ls->n; i++) {
      bson_string_append (o, i ? ", " : "");
      lab_cmp_md_stat (o, LAB_UNIT_SECONDS, &el.stat[i], true);
      bson_string_append (o, " ");
      lab_cmp_md_text (o, ls->l[i].name);
      if (i != ls->reference && el.has_ratio[i]) {
         bson_string_append (o, " (");
         lab_cmp_md_number (o, LAB_CMP_RATIO_PCT, el.ratio[i]);
         bson_string_append (o, " of ");
         lab_cmp_md_text (o, ref);
         bson_string_append (o, ")");
      }
   }
   nmin = counts[0];
   for (i = 0; i < ls->n; i++) {
      nmin = counts[i] < nmin ? counts[i] : nmin;
   }
   if (same) {
      bson_string_append_printf (o, " (median of %d run%s each).\n", counts[0], counts[0] == 1 ? "" : "s");
   } else {
      bson_string_append_printf (o, " (medians of %d to %d runs).\n", nmin, n1 > nmin ? n1 : nmin);
   }
   render_regime_line (o, r, prod);

   /* 2: disk read requests against the reference */
   bson_string_append (o, "- ");
   if (rr.stat[ls->reference].present && rr.stat[ls->reference].median > 0) {
      bson_string_append (o, "Disk read requests: ");
      for (i = 0; i < ls->n; i++) {
         bson_string_append (o, i ? ", " : "");
         lab_cmp_md_text (o, ls->l[i].name);
         bson_string_append (o, " ");
         if (!rr.stat[i].present) {
            bson_string_append (o, "n/a");
            continue;
         }
         lab_cmp_md_number (o, LAB_CMP_COUNT, rr.stat[i].median);
         if (i != ls->reference && rr.has_ratio[i]) {
            bson_string_append (o, " (");
            lab_cmp_md_number (o, LAB_CMP_RATIO_PCT, rr.ratio[i]);
            bson_string_append (o, ")");
         }
      }
      bson_string_append (o, "; percentages are of ");
      lab_cmp_md_text (o, ref);
      bson_string_append (o, "'s.\n");
   } else {
      bson_string_append (o, "Disk read requests could not be compared (n/a: the device was not sampled).\n");
   }

   /* 3: how cold, how consistent */
   verdict_cold (o, r, &c);
   if (nmin < 2) {
      bson_string_append (o, "; 1 run per layout: no spread, the ratios are as measured (`--runs 3` gives "
                             "each a 95% interval).\n");
   } else {
      /* the interval is on the load-time line above: one statement, not a second rule */
      bson_string_append_printf (o, "; the layouts alternated in order over the %d runs.\n", nmin);
   }
   bson_string_append (o, "\n");
}
