/*
 * render.c -- the Markdown report layout-report writes (lab_cmp_render_md): the title, then the sections in
 * the report's order: verdict, the workloads' ledger (a file with "workloads"), the user's mix
 * (a file's "mix" or layout-report --mix), comparison table,
 * each workload in detail, charts, environment, dataset, cold procedure, per-run
 * figures, device ceiling and the optional baseline deltas, with a column per layout (a file of exactly
 * detail and folded keeps the wording of the two-layout report, byte for byte); for a cache sweep the
 * verdict leads with each candidate's speedup curve (and, with more than two layouts, the fastest layout
 * per point) and a Cache sweep section (load time, reads, memory, locality per point and layout, the
 * production point marked) comes before the reference point's sections. Built into a growing string from
 * the results document only, so the same file always renders the same bytes. The sections live in
 * render_*.c (render_private.h lists them).
 */
#include "compare/render_private.h"

/* lab_cmp_render_md -- see cmp.h. */
char *
lab_cmp_render_md (const lab_cmp_results_t *r, const lab_cmp_render_opts_t *opts)
{
   bson_string_t *o = bson_string_new (NULL);
   const char *dn = lab_cmp_collection_name (r, "detail"), *fn = lab_cmp_collection_name (r, "folded");
   const lab_cmp_production_t *prod;
   lab_results_layouts_t ls;
   lab_cmp_sweep_t sw;
   lab_cmp_workloads_t wl;
   lab_cmp_mix_t mix;
   const lab_cmp_results_t *mix_r;
   bson_error_t error;
   size_t l;

   lab_results_layouts (&r->doc, &ls);
   bson_string_append (o, "# ");
   if (opts && opts->title) {
      lab_cmp_md_text (o, opts->title);
   } else if (!lab_cmp_classic_pair (&ls)) {
      bson_string_append (o, "Layout comparison: ");
      for (l = 0; l < ls.n; l++) {
         bson_string_append (o, l ? " vs " : "");
         lab_cmp_md_text (o, ls.l[l].collection ? ls.l[l].collection : ls.l[l].name);
         bson_string_append (o, " (");
         lab_cmp_md_text (o, ls.l[l].name);
         if (strcmp (ls.l[l].name, ls.l[l].kind) != 0) {
            bson_string_append (o, ", ");
            lab_cmp_md_text (o, ls.l[l].kind);
         }
         bson_string_append (o, ")");
      }
   } else {
      bson_string_append (o, "Layout comparison: ");
      lab_cmp_md_text (o, dn ? dn : "detail");
      bson_string_append (o, " (one document per row) vs ");
      lab_cmp_md_text (o, fn ? fn : "folded");
      bson_string_append (o, " (folded)");
   }
   bson_string_append (o, "\n\nSource: ");
   lab_cmp_md_text (o, r->name);
   bson_string_append (o, ", written by ");
   lab_cmp_md_tool (o, &r->doc);
   bson_string_append (o, ".\n\n");
   lab_cmp_render_predicted_note (o, r);

   lab_cmp_sweep_load (r, &sw);
   prod = opts ? opts->production : NULL;
   /* the workloads: read again here, validated when the file was loaded */
   if (!lab_cmp_workloads_of (&r->doc, r->name, &wl, &error)) {
      lab_cmp_workloads_cleanup (&wl);
   }
   /* the user's mix: the file's (or --mix-file's), validated when it was loaded, and --mix's estimate */
   mix_r = opts && opts->mix_file ? opts->mix_file : r;
   if (!lab_cmp_mix_of (&mix_r->doc, mix_r->name, &mix, &error)) {
      lab_cmp_mix_cleanup (&mix);
   }
   lab_cmp_render_recommend (o, r, sw.n > 0 ? &sw : NULL, &wl, &mix, opts ? opts->mix_estimate : NULL, prod);
   if (sw.n > 0) {
      lab_cmp_render_sweep_verdict (o, r, &sw, prod);
      lab_cmp_render_sweep (o, r, &sw, prod);
   } else if (!lab_cmp_classic_pair (&ls)) {
      lab_cmp_render_verdict_n (o, r, &ls, prod);
   } else {
      lab_cmp_render_verdict (o, r, prod);
   }
   lab_cmp_render_verdict_tradeoff (o, &wl, &ls);
   lab_cmp_render_verdict_mix (o, &mix, opts ? opts->mix_estimate : NULL);
   lab_cmp_render_ledger (o, r, &wl, &ls);
   lab_cmp_render_mix (o, r, &mix, opts ? opts->mix_estimate : NULL, mix_r != r ? mix_r->name : NULL);
   lab_cmp_render_workloads_sweep (o, r, sw.n > 0 ? &sw : NULL, &wl);
   lab_cmp_render_decompose (o, r, sw.n > 0 ? &sw : NULL);
   lab_cmp_render_measured (o, r);
   lab_cmp_render_table (o, r, sw.n > 0 ? &sw : NULL);
   lab_cmp_render_workloads (o, &wl, &ls);
   if (opts && opts->baseline) {
      if (sw.n > 0 && lab_results_sweep_n (&opts->baseline->doc) > 0) {
         lab_cmp_render_sweep_baseline (o, r, &sw, opts->baseline);
      } else {
         lab_cmp_render_baseline (o, r, opts->baseline);
         if (sw.n > 0 || lab_results_sweep_n (&opts->baseline->doc) > 0) {
            bson_string_append (o, "One of the two files is a cache sweep and the other a single point: the "
                                   "sweep's figures above are those of its reference point; compare two "
                                   "sweeps to see the curves side by side.\n\n");
         }
      }
   }
   if (opts && opts->reference) {
      lab_cmp_render_reference (o, r, opts->reference);
   }
   lab_cmp_render_prediction (o, r, opts ? opts->prediction : NULL);
   lab_cmp_render_charts (o, opts, sw.n > 0 ? &sw : NULL);
   lab_cmp_render_environment (o, r);
   lab_cmp_render_dataset (o, r);
   lab_cmp_render_reproduce (o, r);
   lab_cmp_render_cold (o, r);
   lab_cmp_render_runs (o, r);
   lab_cmp_render_ceiling (o, r);
   lab_cmp_sweep_free (&sw);
   lab_cmp_workloads_cleanup (&wl);
   lab_cmp_mix_cleanup (&mix);
   return bson_string_free (o, false);
}
