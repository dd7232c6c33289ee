/*
 * runs.c -- the runs of one comparison (or of one sweep point): every run, every layout in the run's
 * order, measured (measure.c) into its entry (record.c), and the "runs" and "summary" they make. Called by
 * run.c (one comparison) and sweep.c (each point); calls neither.
 */
#include "scan/measure/measure.h"

#include "core/log.h"
#include "core/results.h"

#include <unistd.h>

/* lab_scan_run_order -- see scan.h. */
void
lab_scan_run_order (lab_scan_order_t order, int run, size_t n, size_t *out)
{
   size_t k;

   for (k = 0; k < n; k++) {
      switch (order) {
      case LAB_ORDER_DETAIL_FIRST:
         out[k] = k;
         break;
      case LAB_ORDER_FOLDED_FIRST:
         out[k] = n - 1 - k;
         break;
      case LAB_ORDER_ALTERNATE:
      default:
         out[k] = (k + (size_t)(run - 1)) % n;
         break;
      }
   }
}

/* ---- one (run, layout): measure, then record ------------------------------------------------------ */

/* run_layout -- one layout of one run, measured (measure.c) into its entry (record.c). */
static bool
run_layout (lab_scan_plan_t *p, int run, const lab_results_layout_t *layout, int order_in_run, bson_t *entry,
            bson_error_t *error)
{
   lab_scan_layout_measure_t m;
   bool ok = lab_scan_layout_measure (p, run, layout, order_in_run, &m, error);

   if (ok) {
      lab_scan_layout_entry (&m, entry);
      lab_log_info ("run %d %s: %lld keys (%lld matched nothing), %lld docs, %lld rows in %.2f s", run,
                    m.layout, (long long)m.keys, (long long)m.keys_unmatched, (long long)m.docs,
                    (long long)m.rows, m.elapsed_s);
      /* this process after each layout (with --cold, after each cold cycle): scripts/soak.sh reads it to
       * catch descriptors or memory that a cycle leaks */
      lab_log_debug ("run %d %s: scancmp holds %d open file descriptors, RSS %lld bytes", run, m.layout,
                     lab_scan_sampler_open_fds (), (long long)lab_scan_sampler_rss ((int64_t)getpid ()));
   }
   lab_scan_layout_measure_cleanup (&m);
   return ok;
}

/* ---- the runs ------------------------------------------------------------------------------------ */

/* lab_scan_runs -- see measure.h: every run, every layout in the run's order (lab_scan_run_order). */
bool
lab_scan_runs (lab_scan_plan_t *p, int runs, bson_t *entries, int *nentries, bson_error_t *error)
{
   const lab_scan_opts_t *o = p->opts;
   size_t order[LAB_RESULTS_MAX_LAYOUTS], k;
   int run;

   for (run = 1; run <= runs; run++) {
      lab_scan_run_order (o->order, run, p->layouts.n, order);
      for (k = 0; k < p->layouts.n; k++) {
         bson_init (&entries[*nentries]);
         (*nentries)++;
         if (!run_layout (p, run, &p->layouts.l[order[k]], (int)k + 1, &entries[*nentries - 1], error)) {
            return false;
         }
      }
   }
   return true;
}

/* lab_scan_runs_record -- see measure.h. */
void
lab_scan_runs_record (const lab_scan_plan_t *p, bson_t *results, const bson_t *entries, int nentries)
{
   const lab_scan_opts_t *o = p->opts;
   bson_t arr;
   int k;

   lab_scan_match_warn (o, &p->layouts, entries, nentries);
   BSON_APPEND_ARRAY_BEGIN (results, "runs", &arr);
   for (k = 0; k < nentries; k++) {
      char idx[16];
      const char *ik;
      bson_uint32_to_string ((uint32_t)k, &ik, idx, sizeof idx);
      bson_append_document (&arr, ik, -1, &entries[k]);
   }
   bson_append_array_end (results, &arr);
   lab_results_summary_append (results, entries, nentries);
}
