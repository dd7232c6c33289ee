/*
 * point.c -- which workloads run at one measurement point (measure.h): decided here once from the options,
 * so the single point (run.c), the workloads (wl_run.c) and every cache of a sweep (sweep.c) read the same
 * answer instead of each testing the options again.
 */
#include "scan/measure/measure.h"
#include "scan/mix/wl_mix.h"
#include "scan/workloads/workload.h"

#include <string.h>

/* The workloads besides the load: what makes a "workloads" array. */
#define POINT_QUERIES                                                                                        \
   ((1u << LAB_WL_ROW) | (1u << LAB_WL_RANGE) | (1u << LAB_WL_AGGREGATE) | LAB_WL_MASK_WRITES)

/* lab_scan_point_plan -- see measure.h. */
void
lab_scan_point_plan (const lab_scan_opts_t *o, bool sweep, bool reference, lab_scan_point_t *pt)
{
   memset (pt, 0, sizeof *pt);
   pt->runs = o->runs > 0 ? o->runs : 1;
   if (sweep && reference && o->reference_runs > 0) {
      pt->runs = o->reference_runs;
   }
   pt->set = o->wl.set;
   if (sweep && !reference) {
      /* the writes change the data: they run at the reference point only, measured last */
      pt->set &= ~LAB_WL_MASK_WRITES;
   }
   /* a sweep measures the load at every point (the options check requires it) */
   pt->load = sweep || (pt->set & (1u << LAB_WL_LOAD)) != 0;
   pt->load_random = o->load_order == LAB_LOAD_ORDER_BOTH;
   pt->load_after_writes = (pt->set & (1u << LAB_WL_APPEND)) && (pt->set & (1u << LAB_WL_LOAD));
   pt->workloads = (pt->set & POINT_QUERIES) != 0 || pt->load_random;
   pt->mix = !sweep && lab_scan_mix_on (o);
}

/* lab_scan_wl_any -- see workload.h: the single point's answer. */
bool
lab_scan_wl_any (const lab_scan_opts_t *o)
{
   lab_scan_point_t pt;

   lab_scan_point_plan (o, false, true, &pt);
   return pt.workloads;
}
