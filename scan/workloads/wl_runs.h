/*
 * wl_runs.h -- the runs of the workloads and of the mix (private to scan/): the per-run figures every
 * workloads[].layouts[] and mix.layouts[] entry records ("runs"), their medians, the one place that names
 * a workload's winner from the per-run times, and the write workloads' inputs of each run.
 */
#ifndef LAB_SCAN_WL_RUNS_H
#define LAB_SCAN_WL_RUNS_H

#include "scan/measure/background.h"
#include "scan/measure/measure.h"

/* One layout's measured workload in one run (wl_run.c), kept until the winner is known; combined over the
 * runs by lab_scan_wl_result_combine. */
typedef struct {
   int run, order_in_run; /* which run (1-based) and where the layout came in it (1 first) */
   char plan[700];        /* explain's winning plan on a MongoDB server ("" : the planner table's) */
   char plan_source[300];
   double elapsed_s, cpu_s;
   int64_t disk_read_bytes, disk_reads, engine_read_bytes;
   lab_scan_latency_summary_t lat;
   lab_scan_wl_acc_t acc;
   lab_scan_state_t state; /* the collection when the measurement started */
   bool cold;
   char cold_reason[256];       /* why not cold ("" cold) */
   int64_t engine_cache_before; /* the collection's bytes in the engine cache before (-1) */
   int64_t device_read_bytes;   /* the whole device's, beside the engine's (-1 unknown) */
   lab_scan_background_t bg;    /* what else ran on this machine */
   char restart[64];
   /* the writes (-1: unknown) */
   int64_t disk_write_bytes, disk_writes; /* the device, over the writes and the checkpoint */
   int64_t journal_bytes;                 /* WiredTiger log bytes written over the writes */
   int64_t block_write_bytes_writes;      /* the block manager over the writes (eviction) */
   int64_t checkpoint_bytes;              /* the block manager over the forced checkpoint */
   double checkpoint_s;                   /* the forced checkpoint's time; -1 not forced */
   double avg_doc_before, avg_doc_after;  /* the collection's average document size */
   int64_t new_data_bytes;                /* BSON bytes of the new rows / new values */
   char checkpoint_note[200];
   lab_scan_diskstats_t disk0; /* the device before the writes */
   bool have_disk0;
   lab_store_oplog_mark_t oplog0;      /* the oplog before the writes (§26) */
   int64_t oplog_bytes, oplog_entries; /* the layout's oplog entries after it (-1 unknown) */
   char oplog_note[300];               /* why unknown ("" known) */
   int64_t read_back_rows;             /* the written masters' rows read back into the digest */
} lab_scan_wl_result_t;

/* One run of one layout as its entry's "runs" array keeps it (docs/results-schema.md); -1: unknown. */
typedef struct {
   int run, order_in_run;
   double elapsed_s;
   int64_t docs, rows, disk_read_bytes;
   double latency_p50_ms;
   uint64_t digest; /* of what the run returned (and wrote); 0: none */
} lab_scan_wl_run_t;

/* lab_scan_wl_median -- the median of v[0..n) (the mean of the middle two of an even count, as the load's
 * summary); v is left unchanged. 0 when n is 0. */
double lab_scan_wl_median (const double *v, int n);

/* What the one rule said of a workload's or the mix's layouts. */
typedef struct {
   lab_winner_t outcome; /* LAB_WIN_ONE, LAB_WIN_TIE (the runner-up is "same"), LAB_WIN_NONE */
   char note[128];       /* what it rests on: "1 run: no spread", "95% CI 1.9x–2.6x, 3 runs" */
} lab_scan_wl_outcome_t;

/* lab_scan_wl_winner -- the index of the winning layout of nlayouts, from elapsed[l * nruns + r] (layout l's
 * time in run r + 1, runs paired by number): the one rule's best layout (lab_results_rank on the per-run
 * times: by median unless the paired runs rank the runner-up first); *out (may be NULL) gets the outcome
 * and its note. The one place a workload's, the load after the writes' and the mix's winner is named. */
size_t lab_scan_wl_winner (size_t nlayouts, int nruns, const double *elapsed, lab_scan_wl_outcome_t *out);

/* lab_scan_wl_outcome_append -- "same" (the rule cannot tell the winner from the runner-up) and "rule" (the
 * note) into a workload's or the mix's entry `w`, beside its "winner". */
void lab_scan_wl_outcome_append (bson_t *w, const lab_scan_wl_outcome_t *out);

/* lab_scan_wl_runs_append -- "nruns", "elapsed_s_min", "elapsed_s_max" and the "runs" array of runs[0..n)
 * into the layout's entry d (unknown figures left out of a run's document). */
void lab_scan_wl_runs_append (bson_t *d, const lab_scan_wl_run_t *runs, int n);

/* lab_scan_wl_result_run -- r's figures as its "runs" element. */
void lab_scan_wl_result_run (const lab_scan_wl_result_t *r, lab_scan_wl_run_t *out);

/* lab_scan_wl_result_combine -- one layout's runs[0..n) as its entry's figures: run 1's (its state, plan,
 * digest and what it returned: the same on every layout of a run), the times, reads, latencies and write
 * costs replaced by their medians over the runs. out shares run 1's owned parts (acc): free the runs only. */
void lab_scan_wl_result_combine (const lab_scan_wl_result_t *runs, int n, lab_scan_wl_result_t *out);

/* lab_scan_wl_runs_of_load -- the load's runs of `layout` from results' "runs" array into out[0..max):
 * returns how many. */
int lab_scan_wl_runs_of_load (const bson_t *results, const char *layout, lab_scan_wl_run_t *out, int max);

/* lab_scan_wl_run_seed -- the seed a run's write inputs are drawn from: --seed in run 1 (so one run draws
 * what it always drew), --seed + run - 1 after. */
uint64_t lab_scan_wl_run_seed (uint64_t seed, int run);

/* lab_scan_wl_writes_for_run -- the write workload kind's inputs of run `run` (> 1) into *ws (zeroed
 * first; free with lab_scan_wl_writes_cleanup): drawn as the first run's were (lab_scan_wl_writes_draw,
 * from the plan's first rows layout), from lab_scan_wl_run_seed, on the data as the earlier runs left it. */
bool lab_scan_wl_writes_for_run (const lab_scan_plan_t *p, lab_scan_wl_kind_t kind, int run,
                                 lab_scan_wl_writes_t *ws, bson_error_t *error);

#endif
