/*
 * wl_record.h -- a workload's record in the results (private to scan/): wl_record.c writes what wl_run.c
 * measured.
 */
#ifndef LAB_SCAN_WL_RECORD_H
#define LAB_SCAN_WL_RECORD_H

#include "scan/workloads/wl_runs.h"

/* lab_scan_wl_append_layout -- layout li's entry of a workload `kind` (element k of arr): its state, plan
 * (explain's, else the planner table's), index, reads, latencies, its time against the winner's `best`,
 * write costs and runs[0..nruns). */
void lab_scan_wl_append_layout (bson_t *arr, int k, const lab_scan_plan_t *p, const lab_scan_wl_prep_t *wp,
                                lab_scan_wl_kind_t kind, size_t li, const lab_scan_wl_result_t *r,
                                double best, const lab_scan_wl_run_t *runs, int nruns);

/* lab_scan_wl_append_result -- the aggregate's "result": groups, total, by_group (of the first layout: all
 * equal). */
void lab_scan_wl_append_result (bson_t *w, const lab_scan_wl_acc_t *acc);

#endif
