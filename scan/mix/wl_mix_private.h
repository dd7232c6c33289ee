/*
 * wl_mix_private.h -- the user's mix's pieces (private to scan/, see wl_mix.h): the stream's inputs
 * (wl_mix_draw.c), the run on every layout (wl_mix.c) and the results' "mix" object (wl_mix_record.c).
 */
#ifndef LAB_SCAN_WL_MIX_PRIVATE_H
#define LAB_SCAN_WL_MIX_PRIVATE_H

#include "scan/mix/wl_mix.h"
#include "scan/workloads/wl_runs.h"

#include <pthread.h>

/* The inputs of one stream, the same for every layout. */
typedef struct {
   lab_scan_opts_t o1; /* the options with the inputs' counts (row_batch 1: one row per row op) */
   lab_scan_mix_stream_t s;
   lab_scan_wl_inputs_t in;
   int64_t *input[LAB_WL_NKINDS]; /* the writes: the type's k-th op takes input[t][k] (grouped order) */
   int64_t *prev;                 /* per op: the master's previous write in the stream (-1: none) */
   uint64_t *skip;                /* the row hashes of the appended rows, sorted */
   int64_t nskip;
   uint64_t *updated; /* lab_scan_wl_id_hash (key, NULL) of the masters the stream corrects, sorted */
   int64_t nupdated;
   lab_scan_wl_mode_t mode;
   double rate; /* --mix-rate: ops per second (0: closed loop) */
} mix_t;

/* One layout's run of the stream: what the workers share. */
typedef struct {
   const mix_t *mx;
   const lab_results_layout_t *layout;
   lab_scan_wl_layout_t sub[LAB_WL_NKINDS]; /* row, range, append, update on this layout */
   double *lat_ms;                          /* per op: its latency (open loop: from its intended start) */
   double *svc_ms;                          /* per op: its service time (from its actual start) */
   uint64_t *start_ns;                      /* per op: its actual start, from the stream's t0 */
   _Atomic int64_t next;                    /* the next op a free worker takes */
   _Atomic uint64_t t0_ns;                  /* the stream's start (0: no op taken yet) */
   _Atomic int64_t ndone;                   /* ops ended */
   uint64_t end_ns;                         /* the last op's end (set by the worker that ends it) */
   double client_cpu0_s, client_cpu1_s;     /* this process's CPU at t0 and at end_ns */
   double machine_busy0_s, machine_busy1_s; /* the machine's busy CPU at t0 and at end_ns */
   int64_t *rows;                           /* per op: rows read or written */
   uint8_t *done;                           /* per op: finished (the writes' order) */
   pthread_mutex_t mu;
   pthread_cond_t cv;
   bool abort;
   int64_t finished; /* writes finished (progress, for the stall check) */
} mix_layout_t;

/* What one layout's stream cost. */
typedef struct {
   double elapsed_s, cpu_s;
   int64_t disk_read_bytes, disk_reads, disk_write_bytes, journal_bytes, eviction_bytes, checkpoint_bytes;
   int64_t ops[LAB_WL_NKINDS], rows[LAB_WL_NKINDS];
   double time_s[LAB_WL_NKINDS];
   lab_scan_latency_summary_t lat[LAB_WL_NKINDS]; /* open loop: from the intended starts */
   lab_scan_latency_summary_t svc[LAB_WL_NKINDS]; /* from the actual starts */
   double latency_s;                              /* every op's latency summed */
   lab_scan_mix_pace_t pace;                      /* open loop: how it kept the schedule */
   lab_scan_mix_cpu_t cpu;
   uint64_t digest;
   int64_t writes;
   lab_scan_state_t state; /* the collection when the stream started */
   bool cold;
   char cold_reason[256];
   int64_t engine_cache_before;
   lab_scan_background_t bg;
   int64_t oplog_bytes, oplog_entries; /* the layout's oplog entries over the stream (-1 unknown, §26) */
   char oplog_note[300];               /* why unknown ("" known) */
} mix_result_t;

/* lab_scan_mix_draw -- the stream and its inputs: rows for the row ops then the loads' masters (then the
 * windows start at the first rows' times, as the range workload's), the appends and corrections, all drawn by
 * the workloads' own drawers from `seed` (the run's: lab_scan_wl_run_seed of --seed) with the stream's
 * counts. */
bool lab_scan_mix_draw (lab_scan_plan_t *p, uint64_t seed, mix_t *mx, bson_error_t *error);

/* lab_scan_mix_inputs_cleanup -- free what mx owns. */
void lab_scan_mix_inputs_cleanup (mix_t *mx);

/* lab_scan_mix_record -- the "mix" object (docs/results-schema.md "The mix"). */
void lab_scan_mix_record (bson_t *results, const lab_scan_plan_t *p, const mix_t *mx, const mix_result_t *res,
                          size_t win, const lab_scan_wl_outcome_t *oc, bool equal,
                          const lab_scan_wl_run_t *fig, int runs);

/* lab_scan_mix_score -- what names the winner: the elapsed time of a closed loop (the faster drains the
 * stream sooner); an open loop's elapsed time is the schedule's, so its latencies summed (the lower keeps the
 * offered load waiting less). */
double lab_scan_mix_score (const mix_t *mx, const mix_result_t *r);

#endif
