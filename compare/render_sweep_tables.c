/*
 * render_sweep_tables.c -- the Cache sweep section (load time and speedups with the production row, reads
 * and read amplification, memory, locality, how to read them) and two sweeps against each other (the
 * baseline sweep section), point by point where their cache sizes match.
 */
#include "compare/render_private.h"

/* Two counts of the same bytes (the engine's and the device's) agree within 2%: the device also counts
 * the journal and metadata, a few percent at most on a read-only load; not a comparison of layouts. */
#define SAME_COUNT 0.02

/* md_point_stat -- metric `m` of `layout` at point p: the median, or with its range. */
static void
md_point_stat (bson_string_t *o, const lab_sweep_point_t *p, const char *layout, const lab_metric_t *m,
               bool range)
{
   lab_stat_t st = lab_results_metric_stat (&p->doc, layout, m);

   lab_cmp_md_stat (o, m->unit, &st, range);
}

/* md_speedup -- a speedup cell by the one rule: "137x [88.2x–214x]" with paired runs, "3.22x" with one,
 * "1.01x (same)" when the rule cannot tell the layouts apart, "n/a" without the figures. */
static void
md_speedup (bson_string_t *o, bool has, double speedup, const lab_verdict_t *v)
{
   if (!has) {
      bson_string_append (o, "n/a");
      return;
   }
   lab_cmp_md_number (o, LAB_CMP_FACTOR, speedup);
   if (v->has_ci && v->lo > 0) {
      /* the speedup's 95% interval: the inverse of the ratio's */
      char *lo = lab_results_format_factor (1.0 / v->hi), *hi = lab_results_format_factor (1.0 / v->lo);
      if (strcmp (lo, hi) != 0) {
         bson_string_append_printf (o, " [%s–%s]", lo, hi);
      }
      bson_free (lo);
      bson_free (hi);
   } else if (v->winner == LAB_WIN_TIE) {
      bson_string_append (o, " (same)");
   }
}

/* sweep_random -- some point has a random-order load beside the headline (--load-order both). */
static bool
sweep_random (const lab_cmp_sweep_t *s)
{
   size_t i, l;

   for (i = 0; i < s->n; i++) {
      for (l = 1; l < s->nl; l++) {
         if (s->p[i].has_speedup_random[l]) {
            return true;
         }
      }
   }
   return false;
}

/* md_production_row -- the production point's row of the load-time table: every layout not measured,
 * each candidate's speedup estimated. */
static void
md_production_row (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s,
                   const lab_cmp_production_t *prod)
{
   size_t l, c;

   bson_string_append (o, "| **production** ");
   if (prod->cache_bytes > 0) {
      bson_string_append (o, "(");
      lab_cmp_md_number (o, LAB_CMP_BINARY, prod->cache_bytes);
      bson_string_append (o, ") ");
   }
   bson_string_append (o, "| **");
   lab_cmp_md_ratio (o, prod->ratio);
   bson_string_append_printf (o, "** | %s | ", lab_results_regime (prod->ratio));
   for (l = 0; l < s->nl; l++) {
      bson_string_append (o, "not measured | ");
   }
   for (c = 1; c < s->nl; c++) {
      lab_estimate_t e = lab_cmp_sweep_estimate_of (r, prod, c);
      bson_string_append (o, c > 1 ? " | " : "");
      switch (e.status) {
      case LAB_ESTIMATE_INTERPOLATED:
         bson_string_append (o, "**≈ ");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, e.speedup);
         bson_string_append (o, "** (interpolated)");
         break;
      case LAB_ESTIMATE_MEASURED:
         lab_cmp_md_number (o, LAB_CMP_FACTOR, e.speedup);
         bson_string_append (o, " (a measured point)");
         break;
      case LAB_ESTIMATE_OUTSIDE:
         bson_string_append (o, "no estimate (outside ");
         lab_cmp_md_ratio (o, e.range_lo);
         bson_string_append (o, "–");
         lab_cmp_md_ratio (o, e.range_hi);
         bson_string_append (o, ")");
         break;
      default:
         bson_string_append (o, "no estimate (too few points)");
         break;
      }
   }
   for (c = 1; sweep_random (s) && c < s->nl; c++) {
      bson_string_append (o, " | not estimated");
   }
   bson_string_append (o, " |\n");
}

/* md_group_header -- " | label: a | b | c" (a column per layout, the label on the first). */
static void
md_group_header (bson_string_t *o, const lab_cmp_sweep_t *s, const char *label)
{
   size_t l;

   for (l = 0; l < s->nl; l++) {
      if (l == 0) {
         bson_string_append_printf (o, " | %s: %s", label, s->names[l]);
      } else {
         bson_string_append_printf (o, " | %s", s->names[l]);
      }
   }
}

/* md_align -- the alignment row: "|--:|" then `k` more right-aligned columns. */
static void
md_align (bson_string_t *o, const char *first, size_t k)
{
   bson_string_append (o, first);
   while (k-- > 0) {
      bson_string_append (o, "--:|");
   }
   bson_string_append (o, "\n");
}

/* render_sweep_load -- the load-time table: per point its cache, ratio, measured regime, every layout's load
 * time and each candidate's speedup, in the headline's order, then (--load-order both) each candidate's
 * speedup in random order (the production point marked where its ratio falls). */
static void
render_sweep_load (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s,
                   const lab_cmp_production_t *prod)
{
   size_t i, l, nl = s->nl;
   bool prod_done = !prod, random = sweep_random (s);
   const char *order = lab_results_load_order (&r->doc);

   lab_cmp_md_sw_text (o, s, "## Cache sweep\n\n### Load time\n\n");
   bson_string_append_printf (o, "| engine cache | cache ÷ %s on disk | regime | ", s->names[0]);
   for (l = 0; l < nl; l++) {
      bson_string_append_printf (o, "%s load time (%s order) | ", s->names[l], order);
   }
   for (l = 1; l < nl; l++) {
      bson_string_append_printf (o, "speedup (%s order, %s ÷ %s) |%s", order, s->names[0], s->names[l],
                                 l + 1 < nl || random ? " " : "");
   }
   for (l = 1; random && l < nl; l++) {
      bson_string_append_printf (o, "speedup (random order, %s ÷ %s) |%s", s->names[0], s->names[l],
                                 l + 1 < nl ? " " : "");
   }
   bson_string_append (o, "\n");
   md_align (o, "|--:|--:|---|", nl + (nl - 1) * (random ? 2 : 1));
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      if (!prod_done && prod->ratio < p->cache_ratio) {
         md_production_row (o, r, s, prod);
         prod_done = true;
      }
      bson_string_append (o, "| ");
      lab_cmp_md_number (o, LAB_CMP_BINARY, p->cache_size_bytes);
      bson_string_append (o, " | ");
      lab_cmp_md_ratio (o, p->cache_ratio);
      bson_string_append_printf (o, " | %s", lab_results_point_regime (p));
      for (l = 0; l < nl; l++) {
         bson_string_append (o, " | ");
         lab_cmp_md_stat (o, LAB_UNIT_SECONDS, &p->elapsed[l], true);
      }
      for (l = 1; l < nl; l++) {
         bson_string_append (o, " | ");
         md_speedup (o, p->has_speedup_of[l], p->speedup_of[l], &p->speedup_verdict[l]);
      }
      for (l = 1; random && l < nl; l++) {
         bson_string_append (o, " | ");
         md_speedup (o, p->has_speedup_random[l], p->speedup_random[l], &p->speedup_random_verdict[l]);
      }
      bson_string_append (o, " |\n");
   }
   if (!prod_done) {
      md_production_row (o, r, s, prod);
   }
   if (random) {
      bson_string_append (o, "\nRandom order: the point's \"load (random order)\" row, the keys shuffled by "
                             "--seed and dealt round-robin to the workers, as an application opens bills; "
                             "key order: each worker a contiguous segment of the sorted keys.\n");
   }
}

/* render_sweep_reads -- the reads table: disk read requests, disk bytes read, the engine's bytes read from
 * disk and the read amplification per point and layout. When the file records --direct-io and the
 * engine's bytes read from disk match the device's at every point, they count the same reads: that group
 * is left out and a note says so. Returns whether any point was read without --direct-io. */
static bool
render_sweep_reads (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s)
{
   const lab_metric_t *m_rr = lab_results_metric_find ("read_requests");
   const lab_metric_t *m_rb = lab_results_metric_find ("read_bytes");
   size_t i, l, nl = s->nl;
   bool any_buffered = false, direct = false, engine_col;

   for (i = 0; i < s->n; i++) {
      any_buffered = any_buffered || s->p[i].buffered_io;
   }
   /* one column when the file records --direct-io and the two counts agree (within SAME_COUNT, 2%) at every
    * point: then they count the same reads */
   engine_col = !(lab_results_get_bool (&r->doc, "config.direct_io", &direct) && direct);
   for (i = 0; !engine_col && i < s->n; i++) {
      for (l = 0; l < nl; l++) {
         lab_stat_t dev = lab_results_metric_stat (&s->p[i].doc, s->names[l], m_rb);
         lab_stat_t eng = lab_results_metric_stat (&s->p[i].doc, s->names[l], &lab_results_block_read_bytes);
         if (dev.present != eng.present ||
             (dev.present && fabs (dev.median - eng.median) > SAME_COUNT * fmax (dev.median, eng.median))) {
            engine_col = true;
         }
      }
   }
   bson_string_append (o, "\n### Reads\n\n| engine cache");
   md_group_header (o, s, "disk read requests");
   md_group_header (o, s, "disk bytes read");
   if (engine_col) {
      md_group_header (o, s, "engine read from disk");
   }
   md_group_header (o, s, "read amplification");
   bson_string_append (o, " |\n");
   md_align (o, "|--:|", (engine_col ? 4 : 3) * nl);
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      bson_string_append (o, "| ");
      lab_cmp_md_number (o, LAB_CMP_BINARY, p->cache_size_bytes);
      for (l = 0; l < nl; l++) {
         bson_string_append (o, " | ");
         md_point_stat (o, p, s->names[l], m_rr, false);
      }
      for (l = 0; l < nl; l++) {
         bson_string_append (o, " | ");
         md_point_stat (o, p, s->names[l], m_rb, false);
      }
      for (l = 0; engine_col && l < nl; l++) {
         bson_string_append (o, " | ");
         md_point_stat (o, p, s->names[l], &lab_results_block_read_bytes, false);
      }
      for (l = 0; l < nl; l++) {
         bson_string_append (o, " | ");
         if (p->has_amplification[l]) {
            lab_cmp_md_number (o, LAB_CMP_FACTOR, p->read_amplification[l]);
         } else {
            bson_string_append (o, "n/a");
         }
         if (p->buffered_io && p->has_disk_amplification[l]) {
            bson_string_append (o, " (disk ");
            lab_cmp_md_number (o, LAB_CMP_FACTOR, p->disk_read_amplification[l]);
            bson_string_append (o, ")");
         }
      }
      bson_string_append (o, " |\n");
   }
   if (!engine_col) {
      lab_cmp_md_sw_text (
         o, s,
         "\nWith `--direct-io` every engine cache miss is a read of the device: the engine's bytes read "
         "from disk (the numerator of the read amplification) matched the device's bytes read within 2% "
         "at every point, so the table shows them once, as *disk bytes read*.\n");
   }
   return any_buffered;
}

/* render_sweep_memory -- engine cache used (and its share of the maximum) and server memory per point and
 * layout; a share over 100% explained under the table. */
static void
render_sweep_memory (bson_string_t *o, const lab_cmp_sweep_t *s)
{
   const lab_metric_t *m_cp = lab_results_metric_find ("cache_peak_bytes");
   const lab_metric_t *m_cpp = lab_results_metric_find ("cache_peak_pct");
   const lab_metric_t *m_rss = lab_results_metric_find ("server_rss_peak_bytes");
   size_t i, l, nl = s->nl;
   double over = 0;

   bson_string_append (o, "\n### Memory\n\n| engine cache");
   md_group_header (o, s, "engine cache used (peak)");
   md_group_header (o, s, "server memory (peak RSS)");
   bson_string_append (o, " |\n");
   md_align (o, "|--:|", 2 * nl);
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      bson_string_append (o, "| ");
      lab_cmp_md_number (o, LAB_CMP_BINARY, p->cache_size_bytes);
      for (l = 0; l < nl; l++) {
         lab_stat_t pct = lab_results_metric_stat (&p->doc, s->names[l], m_cpp);
         bson_string_append (o, " | ");
         md_point_stat (o, p, s->names[l], m_cp, false);
         if (pct.present) {
            bson_string_append_printf (o, " (%.0f%%)", pct.median);
            over = fmax (over, pct.median);
         }
      }
      for (l = 0; l < nl; l++) {
         bson_string_append (o, " | ");
         md_point_stat (o, p, s->names[l], m_rss, false);
      }
      bson_string_append (o, " |\n");
   }
   if (over >= 100.5) {
      bson_string_append (o, "\n");
      lab_cmp_md_cache_over_note (o, over);
      bson_string_append (o, "\n");
   }
}

/* locality_same -- whether every point measured the same locality for every layout: it depends on where
 * the rows lie in the collection, not on the cache, so a sweep repeats one figure. */
static bool
locality_same (const lab_cmp_sweep_t *s)
{
   size_t i, l;

   for (i = 1; i < s->n; i++) {
      for (l = 0; l < s->nl; l++) {
         const lab_locality_t *a = &s->p[0].locality[l], *b = &s->p[i].locality[l];
         if (a->present != b->present ||
             (a->present && (a->pages_per_master_mean != b->pages_per_master_mean ||
                             a->pages_per_master_p95 != b->pages_per_master_p95 ||
                             a->masters_sampled != b->masters_sampled))) {
            return false;
         }
      }
   }
   return true;
}

/* render_sweep_locality -- data pages per master per layout: one row when every point measured the same
 * (the usual case), else a row per point. Nothing when no point measured it; returns whether one did. */
static bool
render_sweep_locality (bson_string_t *o, const lab_cmp_sweep_t *s)
{
   size_t i, l, nl = s->nl, rows;
   bool any = false, once;

   for (i = 0; i < s->n; i++) {
      for (l = 0; l < nl; l++) {
         any = any || s->p[i].locality[l].present;
      }
   }
   if (!any) {
      return false;
   }
   once = locality_same (s);
   rows = once ? 1 : s->n;
   bson_string_append_printf (
      o, "\n### Locality\n\n| %s | data pages per master: ", once ? "measured at" : "engine cache");
   for (l = 0; l < nl; l++) {
      bson_string_append_printf (o, "%s mean | %s p95 | ", s->names[l], s->names[l]);
   }
   bson_string_append (o, "masters sampled (");
   for (l = 0; l < nl; l++) {
      bson_string_append_printf (o, "%s%s", l ? " / " : "", s->names[l]);
   }
   bson_string_append (o, ") |\n");
   md_align (o, once ? "|---|" : "|--:|", 2 * nl + 1);
   for (i = 0; i < rows; i++) {
      const lab_sweep_point_t *p = &s->p[i];
      bson_string_append (o, "| ");
      if (once) {
         bson_string_append_printf (o, "every cache size (%zu)", s->n);
      } else {
         lab_cmp_md_number (o, LAB_CMP_BINARY, p->cache_size_bytes);
      }
      for (l = 0; l < nl; l++) {
         const lab_locality_t *loc = &p->locality[l];
         bson_string_append (o, " | ");
         if (loc->present) {
            lab_cmp_md_number (o, LAB_CMP_COUNT, loc->pages_per_master_mean);
         } else {
            bson_string_append (o, "n/a");
         }
         bson_string_append (o, " | ");
         if (loc->present && loc->pages_per_master_p95 >= 0) {
            lab_cmp_md_number (o, LAB_CMP_COUNT, loc->pages_per_master_p95);
         } else {
            bson_string_append (o, "n/a");
         }
      }
      bson_string_append (o, " | ");
      for (l = 0; l < nl; l++) {
         bson_string_append (o, l ? " / " : "");
         if (p->locality[l].present && p->locality[l].masters_sampled >= 0) {
            lab_cmp_md_number (o, LAB_CMP_COUNT, p->locality[l].masters_sampled);
         } else {
            bson_string_append (o, "n/a");
         }
      }
      bson_string_append (o, " |\n");
   }
   return true;
}

/* md_sweep_order -- with writes at the reference point and a point after it, why the points were not
 * measured in the order shown: scancmp measures the reference point last, so that every other point reads
 * the data as it was before the writes changed it. */
static void
md_sweep_order (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s)
{
   lab_cmp_workloads_t wl;
   bson_error_t error;
   bool writes = false;
   size_t i;

   if (s->n < 2 || s->ref + 1 >= s->n) {
      return; /* the reference is the last point: measured in the order shown */
   }
   if (lab_cmp_workloads_of (&r->doc, r->name, &wl, &error)) {
      for (i = 0; i < wl.n; i++) {
         writes = writes || lab_cmp_wl_is_write (wl.w[i].workload);
      }
   }
   lab_cmp_workloads_cleanup (&wl);
   if (!writes) {
      return;
   }
   bson_string_append (o, " The points were measured from the smallest cache up, but the reference point (");
   lab_cmp_md_point (o, &s->p[s->ref]);
   bson_string_append (o, ") last: its writes change the data, and every other point reads it as it was.");
}

/* lab_cmp_render_sweep -- see render_private.h. */
void
lab_cmp_render_sweep (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s,
                      const lab_cmp_production_t *prod)
{
   bool any_buffered, any_locality;
   double disk;

   render_sweep_load (o, r, s, prod);
   any_buffered = render_sweep_reads (o, r, s);
   render_sweep_memory (o, s);
   any_locality = render_sweep_locality (o, s);

   lab_cmp_md_sw_text (o, s,
                       "\nThe cache ratio is the engine cache ÷ the detail layout's size on disk (data + "
                       "indexes");
   if (lab_results_on_disk_bytes (&r->doc, s->names[0], &disk)) {
      lab_cmp_md_sw_text (o, s, ": ");
      lab_cmp_md_number (o, LAB_CMP_BYTES, disk);
   }
   lab_cmp_md_sw_text (o, s,
                       "). The regime is named from what was measured, not from the ratio: where the "
                       "detail layout's read amplification is at most 2x it *fits in cache* (each page "
                       "is read about once); above that the cache evicts pages it needs again and "
                       "*rereads* them. The cache holds pages uncompressed, so a ratio somewhat above 1 "
                       "can still reread. ");
   lab_cmp_md_sw_text (o, s,
                       s->nl > 2
                          ? "Each candidate's speedup is the detail load time ÷ its own, by the "
                            "comparison table's rule: at a point of one run, as measured; with paired "
                            "runs, their geometric mean with its 95% interval [in brackets]. "
                          : "The speedup is the detail load time ÷ the folded one, by the comparison "
                            "table's rule: at a point of one run, as measured; with paired runs, their "
                            "geometric mean with its 95% interval [in brackets]. ");
   lab_cmp_md_sw_text (o, s,
                       "Read amplification is what the engine "
                       "read from disk into its cache (block manager bytes, compressed as on disk) ÷ the "
                       "layout's size on disk: 1x means each on-disk byte once. ");
   if (any_buffered) {
      lab_cmp_md_sw_text (
         o, s,
         "These loads ran without `--direct-io` (as mongod reads): an engine cache miss that the "
         "OS page cache holds costs no disk read, so the engine's figure counts reads from the "
         "page cache too, and the disk's (\"disk\" in the Reads table: the device's bytes read "
         "during the layout's load ÷ its size on disk) says what the disk paid. Where the detail layout's "
         "engine rereads (above 2x) but its disk read at most 2x, the regime is *fits in "
         "memory*: the page cache held what the engine cache could not. ");
   }
   if (any_locality) {
      lab_cmp_md_sw_text (o, s,
                          "Locality counts the distinct data pages one master's rows occupy, over a "
                          "sample of masters: where the rows lie, which no cache size changes. ");
   }
   lab_cmp_md_sw_text (o, s,
                       "Load times are medians with the min–max range of the runs; other figures are "
                       "medians. Sizes are SI (1 MB = 10^6 bytes); cache sizes binary, as configured.");
   md_sweep_order (o, r, s);
   if (prod) {
      lab_cmp_md_sw_text (o, s,
                          " The production row is not measured: its speedup is interpolated between the "
                          "two nearest measured points, linearly in log(ratio), and never extrapolated "
                          "beyond them.");
   }
   lab_cmp_md_sw_text (o, s, "\n\n");
}

/* md_change_pct -- "+12.5%", "−3.0%", "0.0%": `cur` relative to `base`; "n/a" without both. */
static void
md_change_pct (bson_string_t *o, bool have, double base, double cur)
{
   double ch;

   if (!have || !(base > 0)) {
      bson_string_append (o, "n/a");
      return;
   }
   ch = (cur - base) / base * 100.0;
   if (fabs (ch) < 0.05) {
      bson_string_append (o, "0.0%");
   } else {
      bson_string_append_printf (o, "%s%.1f%%", ch > 0 ? "+" : "−", fabs (ch));
   }
}

/* find_name -- the index of `name` in names[0..n), or -1. */
static int
find_name (const char *const *names, size_t n, const char *name)
{
   size_t i;

   for (i = 0; i < n; i++) {
      if (strcmp (names[i], name) == 0) {
         return (int)i;
      }
   }
   return -1;
}

/* baseline_point -- the point of sweep bs measured at cache size `cache` (the last one when repeated);
 * NULL when bs has none. */
static const lab_sweep_point_t *
baseline_point (const lab_cmp_sweep_t *bs, double cache)
{
   const lab_sweep_point_t *q = NULL;

   for (size_t j = 0; j < bs->n; j++) {
      if (bs->p[j].cache_size_bytes == cache) {
         q = &bs->p[j];
      }
   }
   return q;
}

/* render_sweep_baseline_n -- the baseline table of sweeps that are not both the same pair: one row per
 * matched cache size and layout both sweeps hold, its load time and (a candidate measured against the
 * same reference in both) its speedup, before and after. */
static void
render_sweep_baseline_n (bson_string_t *o, const lab_cmp_sweep_t *s, const lab_cmp_sweep_t *bs)
{
   size_t i, l, matched = 0, nshared = 0;
   bool same_ref = strcmp (s->names[0], bs->names[0]) == 0;
   bson_string_t *only = bson_string_new (NULL);

   bson_string_append (o, "| engine cache | layout | load time: baseline | load time: this | change | "
                          "speedup: baseline | speedup: this | change |\n"
                          "|--:|---|--:|--:|--:|--:|--:|--:|\n");
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i], *q = baseline_point (bs, p->cache_size_bytes);
      if (!q) {
         continue;
      }
      matched++;
      for (l = 0; l < s->nl; l++) {
         int bl = find_name (bs->names, bs->nl, s->names[l]);
         if (bl < 0) {
            continue;
         }
         bson_string_append (o, "| ");
         lab_cmp_md_number (o, LAB_CMP_BINARY, p->cache_size_bytes);
         bson_string_append (o, " | ");
         lab_cmp_md_text (o, s->names[l]);
         bson_string_append (o, " | ");
         lab_cmp_md_stat (o, LAB_UNIT_SECONDS, &q->elapsed[bl], true);
         bson_string_append (o, " | ");
         lab_cmp_md_stat (o, LAB_UNIT_SECONDS, &p->elapsed[l], true);
         bson_string_append (o, " | ");
         md_change_pct (o, q->elapsed[bl].present && p->elapsed[l].present, q->elapsed[bl].median,
                        p->elapsed[l].median);
         if (l == 0 && same_ref) {
            bson_string_append (o, " | reference | reference | |\n");
            continue;
         }
         bson_string_append (o, " | ");
         if (same_ref && bl > 0 && q->has_speedup_of[bl]) {
            lab_cmp_md_number (o, LAB_CMP_FACTOR, q->speedup_of[bl]);
         } else {
            bson_string_append (o, "n/a");
         }
         bson_string_append (o, " | ");
         if (same_ref && l > 0 && p->has_speedup_of[l]) {
            lab_cmp_md_number (o, LAB_CMP_FACTOR, p->speedup_of[l]);
         } else {
            bson_string_append (o, "n/a");
         }
         bson_string_append (o, " | ");
         md_change_pct (o, same_ref && bl > 0 && l > 0 && q->has_speedup_of[bl] && p->has_speedup_of[l],
                        q->speedup_of[bl], p->speedup_of[l]);
         bson_string_append (o, " |\n");
      }
   }
   if (matched == 0) {
      bson_string_append (o, "| (no cache size in common) | | | | | | | |\n");
   }
   bson_string_append (o, "\nPoints are matched by engine cache size and layouts by name; *change* is this "
                          "sweep's figure relative to the baseline's (load time: negative is faster; "
                          "speedup: positive means the candidate gains more over ");
   lab_cmp_md_text (o, s->names[0]);
   bson_string_append (o, same_ref ? ")."
                                   : "; the two sweeps have different reference layouts, so no speedup is "
                                     "compared).");
   for (l = 0; l < s->nl; l++) {
      if (find_name (bs->names, bs->nl, s->names[l]) >= 0) {
         nshared++;
      } else {
         bson_string_append (only, only->len ? ", " : "");
         lab_cmp_md_text (only, s->names[l]);
      }
   }
   if (only->len) {
      bson_string_append_printf (o, " Layouts only in this sweep: %s.", only->str);
   }
   bson_string_truncate (only, 0);
   for (l = 0; l < bs->nl; l++) {
      if (find_name (s->names, s->nl, bs->names[l]) < 0) {
         bson_string_append (only, only->len ? ", " : "");
         lab_cmp_md_text (only, bs->names[l]);
      }
   }
   if (only->len) {
      bson_string_append_printf (o, " Layouts only in the baseline: %s.", only->str);
   }
   if (nshared == 0) {
      bson_string_append (o, " The two sweeps share no layout.");
   }
   bson_string_free (only, true);
}

/* render_sweep_baseline_pair -- the baseline table of two sweeps of the same pair: per matched cache
 * size the ratios and the speedup before and after. */
static void
render_sweep_baseline_pair (bson_string_t *o, const lab_cmp_sweep_t *s, const lab_cmp_sweep_t *bs)
{
   size_t i, matched = 0;

   bson_string_append (o, "| engine cache | ratio: baseline | ratio: this | speedup: baseline | speedup: "
                          "this | change |\n|--:|--:|--:|--:|--:|--:|\n");
   for (i = 0; i < s->n; i++) {
      const lab_sweep_point_t *p = &s->p[i], *q = baseline_point (bs, p->cache_size_bytes);
      if (!q) {
         continue;
      }
      matched++;
      bson_string_append (o, "| ");
      lab_cmp_md_number (o, LAB_CMP_BINARY, p->cache_size_bytes);
      bson_string_append (o, " | ");
      lab_cmp_md_ratio (o, q->cache_ratio);
      bson_string_append (o, " | ");
      lab_cmp_md_ratio (o, p->cache_ratio);
      bson_string_append (o, " | ");
      if (q->has_speedup) {
         lab_cmp_md_number (o, LAB_CMP_FACTOR, q->speedup);
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " | ");
      if (p->has_speedup) {
         lab_cmp_md_number (o, LAB_CMP_FACTOR, p->speedup);
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " | ");
      if (p->has_speedup && q->has_speedup && q->speedup > 0) {
         double ch = (p->speedup - q->speedup) / q->speedup * 100.0;
         if (fabs (ch) < 0.05) {
            bson_string_append (o, "0.0%");
         } else {
            bson_string_append_printf (o, "%s%.1f%%", ch > 0 ? "+" : "−", fabs (ch));
         }
      } else {
         bson_string_append (o, "n/a");
      }
      bson_string_append (o, " |\n");
   }
   if (matched == 0) {
      bson_string_append (o, "| (no cache size in common) | | | | | |\n");
   }
   bson_string_append (o, "\nPoints are matched by engine cache size; *change* is this sweep's speedup "
                          "relative to the baseline's (positive: folding gains more). The ratios differ when "
                          "the data did.");
}

/* lab_cmp_render_sweep_baseline -- see render_private.h. */
void
lab_cmp_render_sweep_baseline (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *s,
                               const lab_cmp_results_t *b)
{
   lab_cmp_sweep_t bs;
   size_t i, j;
   bson_string_t *only_b = bson_string_new (NULL), *only_r = bson_string_new (NULL);
   const lab_cmp_results_t *both[2] = { b, r };
   const char *what[2] = { "baseline", "this sweep" };
   int l;

   lab_cmp_sweep_load (b, &bs);
   bson_string_append (o, "## Against the baseline sweep\n\n");
   for (l = 0; l < 2; l++) {
      bson_string_append_printf (o, "- %s: ", what[l]);
      lab_cmp_md_text (o, both[l]->name);
      bson_string_append (o, " — ");
      lab_cmp_md_backend (o, &both[l]->doc);
      bson_string_append_printf (o, ", %zu points, started ", l == 0 ? bs.n : s->n);
      lab_cmp_md_text (o, lab_results_header (&both[l]->doc, LAB_RESULTS_KEY_STARTED));
      bson_string_append (o, "\n");
   }
   bson_string_append (o, "\n");
   if (s->nl == 2 && bs.nl == 2 && strcmp (s->names[0], bs.names[0]) == 0 &&
       strcmp (s->names[1], bs.names[1]) == 0) {
      render_sweep_baseline_pair (o, s, &bs);
   } else {
      render_sweep_baseline_n (o, s, &bs);
   }
   for (i = 0; i < s->n; i++) {
      bool found = false;
      for (j = 0; j < bs.n; j++) {
         found = found || s->p[i].cache_size_bytes == bs.p[j].cache_size_bytes;
      }
      if (!found) {
         if (only_r->len) {
            bson_string_append (only_r, ", ");
         }
         lab_cmp_md_number (only_r, LAB_CMP_BINARY, s->p[i].cache_size_bytes);
      }
   }
   for (j = 0; j < bs.n; j++) {
      bool found = false;
      for (i = 0; i < s->n; i++) {
         found = found || s->p[i].cache_size_bytes == bs.p[j].cache_size_bytes;
      }
      if (!found) {
         if (only_b->len) {
            bson_string_append (only_b, ", ");
         }
         lab_cmp_md_number (only_b, LAB_CMP_BINARY, bs.p[j].cache_size_bytes);
      }
   }
   if (only_b->len || only_r->len) {
      bson_string_append (o, " Unmatched cache sizes:");
      if (only_b->len) {
         bson_string_append_printf (o, " only in the baseline, %s%s", only_b->str, only_r->len ? ";" : ".");
      }
      if (only_r->len) {
         bson_string_append_printf (o, " only in this sweep, %s.", only_r->str);
      }
   } else {
      bson_string_append (o, " Every cache size was measured in both.");
   }
   bson_string_append (o, "\n\n");
   bson_string_free (only_b, true);
   bson_string_free (only_r, true);
   lab_cmp_sweep_free (&bs);
}
