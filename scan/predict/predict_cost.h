/*
 * predict_cost.h -- the prediction's load time (and so its speedup) without a device test: the cost figures
 * the probe measures on the same store (predict_cost_probe.c) and their combination with the traces' misses
 * (predict_cost.c, pure: unit-tested on hand-made figures in tests/scan/test_predict_cost.c).
 *
 * The model. A layout's load at a cache point costs
 *    elapsed = max(CPU / min(parallel, cores), each worker's chain)
 *    CPU     = first reads x read_cpu_s + the other misses x max(read_cpu_s - page_mem x fresh_byte_s,
 *                                                                 inflated bytes x inflate_byte_s)
 *              + misses x (bytes in memory per read - read_page_mem, when more) x (fresh_byte_s
 *                                                                            + inflate_byte_s)
 *              + keys x lookup_s + documents x doc_s + bytes returned x copy_byte_s + rows x row_s[layout]
 *    chain   = first reads x (read_cpu_s + wait) / parallel^(1 - shared)
 *              + (the rest of the CPU + the other misses x wait) / parallel
 *    wait    = read_s + bytes per read x read_byte_s
 * A page read costs the engine CPU (the read's system call, decompression, the in-memory page built, an
 * older page evicted): the probe's own leaf count's process CPU per page it read into a fresh cache, timed
 * as CPU, not wall, so that what other processes take of the cores does not count as the engine's work. A
 * page read again reuses an evicted page's memory (no fresh memory: page_mem x fresh_byte_s less, at least
 * its decompression). A read larger in memory than the probe's pages (a folded document of thousands of
 * rows) pays the fresh memory and decompression of its extra bytes. The device's wait per read is its
 * latency, the median of random reads of the collection's file with `parallel` readers at once. A
 * worker's reads and its CPU do not overlap (one thread each), so its chain adds them; the workers' chains
 * run side by side, but their CPU shares at most min(parallel, cores) cores: the load takes the longer of
 * the two. The first read of a page several workers walk (interleaved rows: `shared`, the share of the
 * data pages more than one worker touches) is one worker's while the others wait on it. The times are a
 * quiet machine's: other processes that keep cores busy lengthen the measured loads (the CPU-bound one
 * more than the one waiting on its reads), not the figures, which time CPU as CPU.
 */
#ifndef LAB_PREDICT_COST_H
#define LAB_PREDICT_COST_H

#include <stdbool.h>
#include <stdint.h>

/* The load time's model, in "prediction.cost": bump it when the combination or a figure's measure changes.
 */
#define LAB_PREDICT_COST_VERSION "2-cpu-and-wait"

typedef struct {
   bool done;             /* the figures are measured: a load time can be predicted */
   int parallel, cores;   /* workers, and the cores they share */
   double first_read_s;   /* wall seconds per page read into the cache for the first time, one reader
                             (--calibrate: the timed sample's; its wait is this less read_cpu_s) */
   double read_cpu_s;     /* CPU seconds per page read into the cache for the first time (leaf count) */
   double read_page_mem;  /* the bytes in memory of the pages read_cpu_s was timed on (0: not known) */
   double fresh_byte_s;   /* CPU seconds per byte of memory touched for the first time (the cache growing) */
   double read_s;         /* device: latency per read (fixed part), at `parallel` readers */
   double read_byte_s;    /* device: latency per byte read, at `parallel` readers */
   double inflate_byte_s; /* CPU per byte of a page read as it is in memory (block decompression) */
   double lookup_s;       /* CPU per key searched (the engine's cursor search) */
   double doc_s;          /* CPU per document fetched (index entry to record, the engine's part) */
   double copy_byte_s;    /* CPU per byte of a document handed to the load */
   double row_s[2];       /* CPU per row of the load's own work: [0] rows as stored, [1] rows folded */
   /* where the figures come from (recorded beside them) */
   int64_t device_reads, device_bytes; /* the device sample: reads, bytes */
   const char *device_how;             /* how the sample read (O_DIRECT or after fadvise DONTNEED) */
   int64_t first_pages;                /* the pages the probe's own leaf count read (first_read_s) */
   int64_t cpu_masters, cpu_rows;      /* the CPU sample: the sampled masters' rows */
   int cpu_reps;                       /* repetitions timed (the fastest kept) */
   double probe_s;                     /* what measuring the figures cost */
   bool calibrated;                    /* --calibrate refined the per page read */
   const char *not_measured;           /* why there are no figures (NULL: measured) */
} lab_scan_predict_cost_t;

/* What a layout's load does at one cache point (a layout's whole load; a sample's figures scaled up). */
typedef struct {
   double misses;     /* pages read from disk */
   double first;      /* of them, pages read for the first time (the load's distinct pages) */
   double shared;     /* the share of its data pages more than one worker touches */
   double page_mem;   /* a data page's bytes in the cache (a page read again reuses an evicted one's) */
   double read_bytes; /* their bytes on disk */
   double inflated;   /* their bytes in memory (decompressed) */
   double keys, docs, rows, bytes; /* keys searched, documents fetched, rows, bytes returned */
   int layout;                     /* 0 rows as stored, 1 folded */
} lab_scan_predict_work_t;

/* lab_scan_predict_cost_seconds -- the predicted elapsed seconds of the load `w` under figures `c` (see
 * above); *device_s (may be NULL) the misses' waits on the device, *cpu_s (may be NULL) the CPU (not shared
 * over the cores). -1 when c is not done. */
double lab_scan_predict_cost_seconds (const lab_scan_predict_cost_t *c, const lab_scan_predict_work_t *w,
                                      double *device_s, double *cpu_s);

/* lab_scan_predict_cost_fit -- the least-squares line y = a + b x over n points; a negative slope or
 * intercept falls back to the mean ratio (a = 0, b = sum y / sum x): a CPU time is never negative. */
void lab_scan_predict_cost_fit (const double *x, const double *y, int n, double *a, double *b);

#endif
