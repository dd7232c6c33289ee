/*
 * predict_cost.h -- the prediction's load time (and so its speedup) without a device test: the cost figures
 * the probe measures on the same store (predict_cost_probe.c) and their combination with the traces' misses
 * (predict_cost.c, pure: unit-tested on hand-made figures in tests/scan/test_predict_cost.c).
 *
 * The model. A layout's load at a cache point costs
 *    first reads x first_read_s / min(parallel, cores)^(1 - shared)
 *    + the other misses x max((first_read_s - page_mem x fresh_byte_s) / parallel,
 *                             read_s + their bytes x read_byte_s)
 *    + (keys x lookup_s + documents x doc_s + bytes returned x copy_byte_s + rows x row_s[layout])
 *      / min(parallel, cores)
 * A page's first read in the load costs what the probe's own leaf count paid per page read into a fresh
 * cache (the engine's read, decompression and fresh memory; one reader): the workers share those reads
 * out over the cores unless they walk the same pages (interleaved rows: `shared`, the share of the data
 * pages more than one worker touches), when one reads and the others wait. A page read again after its
 * eviction reuses the evicted page's memory (no fresh memory: page_mem x fresh_byte_s less) and each worker
 * waits on its own reads (shared out over every worker); the device, timed by random reads of the
 * collection's file with `parallel` readers at once, is its floor. The CPU (the engine's search, fetch
 * and copy of each document, timed warm; the load's own work per row, decode and digest, timed on the
 * sampled rows as stored and on those rows folded in memory) is shared over at most the machine's cores.
 * A worker's reads and its CPU do not overlap (one thread each), so the parts add.
 */
#ifndef LAB_PREDICT_COST_H
#define LAB_PREDICT_COST_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
   bool done;             /* the figures are measured: a load time can be predicted */
   int parallel, cores;   /* workers, and the cores they share */
   double first_read_s;   /* wall seconds per page read into the cache for the first time, one reader */
   double fresh_byte_s;   /* seconds per byte of memory touched for the first time (the cache growing) */
   double read_s;         /* device: wall seconds per page read (fixed part), at `parallel` readers */
   double read_byte_s;    /* device: wall seconds per byte read, at `parallel` readers */
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
 * above); *device_s and *cpu_s (may be NULL) its two parts (cpu_s already shared over the cores). -1 when
 * c is not done. */
double lab_scan_predict_cost_seconds (const lab_scan_predict_cost_t *c, const lab_scan_predict_work_t *w,
                                      double *device_s, double *cpu_s);

/* lab_scan_predict_cost_fit -- the least-squares line y = a + b x over n points; a negative slope or
 * intercept falls back to the mean ratio (a = 0, b = sum y / sum x): a CPU time is never negative. */
void lab_scan_predict_cost_fit (const double *x, const double *y, int n, double *a, double *b);

#endif
