/*
 * sampler.h -- the per-run sampler (private to scan/): diskstats, RSS and CPU time of the store's process,
 * engine cache, worker progress.
 */
#ifndef LAB_SCAN_SAMPLER_H
#define LAB_SCAN_SAMPLER_H

#include "scan/measure/background.h"
#include "scan/topology.h"

#include <pthread.h>
#include <stdatomic.h>

/* Counters the workers bump after every key. */
typedef struct {
   _Atomic int64_t keys;
   _Atomic int64_t docs;
   _Atomic int64_t rows;
   _Atomic int64_t bytes;
   atomic_bool stop;
} lab_scan_live_t;

typedef struct {
   uint64_t t_ns;
   bool have_disk;
   lab_scan_diskstats_t disk;
   int64_t rss_bytes, cache_bytes, cache_max_bytes; /* -1 unknown */
   int64_t block_reads, block_read_bytes;           /* engine (embedded); -1 unknown */
   double cpu_s;                                    /* rss_pid's CPU seconds so far; -1 unknown */
   int64_t keys, docs, bytes;
} lab_scan_sampler_point_t;

typedef struct {
   double t_s; /* end of the interval, from the start of the run */
   double dt_s;
   bool have_disk;
   lab_scan_diskstats_delta_t disk;
   int64_t rss_bytes, cache_bytes; /* -1 unknown */
   double docs_per_s, returned_mb_s;
   double engine_block_reads_per_s, engine_read_mb_s; /* -1 unknown */
   double
      cpu_cores_busy; /* rss_pid's CPU seconds in the interval / its length: cores kept busy; -1 unknown */
   int64_t keys_done;
} lab_scan_sample_t;

typedef struct {
   /* set by the caller */
   lab_store_t *store;
   const char *device;         /* NULL: no device figures */
   const char *diskstats_path; /* NULL: /proc/diskstats */
   int64_t rss_pid;            /* > 0: read RSS from /proc/PID/status, CPU time (lab_process_cpu_s) */
   uint64_t interval_ns;
   lab_scan_live_t *live;
   lab_progress_t *progress; /* may be NULL */
   /* where memory and cache come from: these stores' engine statistics, summed (the shards behind mongos);
    * none: `store`'s */
   lab_store_t *stat_stores[LAB_SCAN_MAX_TARGETS];
   size_t nstat_stores;
   /* server-side disk figures: one getDiagnosticData per store and interval (none: not sampled) */
   lab_store_t *ftdc_stores[LAB_SCAN_MAX_TARGETS];
   size_t nftdc;
   const char *ftdc_device; /* --server-device: per-interval FTDC figures of this disk when there are no
                             * local ones (NULL: only when the server lists one disk) */
   /* results */
   lab_scan_ftdc_point_t ftdc_start[LAB_SCAN_MAX_TARGETS], ftdc_last[LAB_SCAN_MAX_TARGETS];
   lab_scan_ftdc_point_t ftdc_prev[LAB_SCAN_MAX_TARGETS]; /* the round before ftdc_last (sampler thread) */
   size_t ftdc_samples;                                   /* getDiagnosticData rounds taken */
   lab_scan_sampler_point_t start, last;
   lab_scan_sample_t *samples;
   size_t nsamples, cap;
   int64_t rss_peak_bytes, cache_peak_bytes, cache_max_bytes; /* -1 unknown */
   int cpu_cores;                         /* the CPUs rss_pid may run on (at the start); -1 unknown */
   lab_scan_bg_point_t bg_start, bg_last; /* the machine at the start and at the stop (background.h) */
   /* internal */
   pthread_t thread;
   pthread_mutex_t mu;
   pthread_cond_t cv;
   bool stop, running, inited;
} lab_scan_sampler_t;

bool lab_scan_sampler_start (lab_scan_sampler_t *s, bson_error_t *error);
void lab_scan_sampler_stop (lab_scan_sampler_t *s);
void lab_scan_sampler_destroy (lab_scan_sampler_t *s);
int64_t lab_scan_sampler_rss (int64_t pid);

/* lab_scan_sampler_cpu_cores -- how many CPUs process pid may run on (its affinity mask), else the CPUs
 * online; -1 when pid <= 0 or neither is known. */
int lab_scan_sampler_cpu_cores (int64_t pid);
int lab_scan_sampler_open_fds (void);

#endif
