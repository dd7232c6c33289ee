/*
 * run.c -- lab_scan_run: the whole comparison, as plan -> runs -> record. The plan (run_plan.c) checks
 * the options and resolves the collections, the keys (before anything is made cold) and the device; what
 * runs at the point is lab_scan_point_plan's (point.c); each run measures both layouts (measure.c) into
 * their entries (record.c); the record (run_record.c) is the results document of docs/results-schema.md
 * around those entries, with the summary over runs. The options: run_opts.c.
 */
#include "scan/run_private.h"
#include "scan/measure/measure.h"
#include "scan/mix/wl_mix.h"
#include "scan/topology.h"
#include "scan/workloads/workload.h"
#include "store/mark.h"

#include "core/alloc.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"
#include "core/results.h"
#include "core/uri.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* lab_scan_run -- see scan.h. */
bool
lab_scan_run (lab_store_t *store, const lab_scan_opts_t *o, bson_t *results, bson_error_t *error)
{
   lab_scan_run_plan_t sp;
   bson_t *entries = NULL;
   int nentries = 0, k;
   bool ok = false;
   char ts[32];
   bson_error_t load_differ = { 0 }; /* the load's runs read other rows on some layout (exit 3) */
   lab_scan_point_t pt;
   size_t la, lb;
   uint64_t da, db;

   lab_scan_point_plan (o, false, true, &pt); /* the single point's; a sweep plans each of its own */
   if (!lab_scan_run_plan_make (store, o, &sp, error) || !lab_scan_run_plan_dataset (&sp, error) ||
       !lab_scan_run_record_header (&sp, results, error) ||
       !lab_scan_run_record_calibration (&sp, results, error)) {
      goto done;
   }
   if (sp.sweep) {
      /* the workloads run at every point; layouts that returned different results keep the file (exit 3) */
      if (!lab_scan_sweep_run (&sp.p, &sp.sw, results, error)) {
         if (error->domain == LAB_ERROR_VERIFY) {
            lab_scan_utc_now (ts, sizeof ts);
            BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_FINISHED, ts);
         }
         goto done;
      }
   } else if (pt.load) {
      entries = bson_malloc0 ((size_t)pt.runs * sp.p.layouts.n * sizeof *entries);
      if (!lab_scan_runs (&sp.p, pt.runs, entries, &nentries, error)) {
         goto done;
      }
      lab_scan_runs_record (&sp.p, results, entries, nentries);
      if (!lab_scan_runs_digests (&sp.p.layouts, results, NULL, &la, &lb, &da, &db)) {
         /* the runs' rows differ by content: measured on, recorded, then exit 3 */
         lab_scan_digest_differ (sp.p.store, o, &sp.p.layouts, la, lb, sp.p.keys, sp.p.nkeys, "load",
                                 &load_differ);
      }
   }
   if (!sp.sweep && ((sp.p.wl && !lab_scan_workloads_run (&sp.p, sp.p.wl, &pt, results, error)) ||
                     (pt.mix && !lab_scan_mix_run (&sp.p, results, error)))) {
      /* layouts that returned different results: the file keeps what was measured, the exit says so */
      if (load_differ.domain) {
         lab_log_error ("%s", load_differ.message); /* the error reported is the later one */
      }
      if (error->domain == LAB_ERROR_VERIFY) {
         lab_scan_utc_now (ts, sizeof ts);
         BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_FINISHED, ts);
      }
      goto done;
   }
   if (load_differ.domain) {
      *error = load_differ;
      lab_scan_utc_now (ts, sizeof ts);
      BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_FINISHED, ts);
      goto done;
   }
   lab_scan_utc_now (ts, sizeof ts);
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_FINISHED, ts);
   ok = true;
done:
   for (k = 0; k < nentries; k++) {
      bson_destroy (&entries[k]);
   }
   bson_free (entries);
   lab_scan_run_plan_cleanup (&sp);
   return ok;
}
