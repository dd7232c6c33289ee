/*
 * iostat.h -- iostat's arithmetic between two samples of one disk's cumulative counters, the one copy
 * behind both the local /proc/diskstats sampler (scan/measure/diskstats.c) and the server's getDiagnosticData
 * disks (serverfacts.h): r/s = Δreads / Δt; rkB/s = Δsectors / Δt / 2; r_await = Δread_time_ms / Δreads;
 * %util = Δio_ticks_ms / Δt(ms) * 100 (DESIGN.md "Cold, and what is measured").
 */
#ifndef LAB_IOSTAT_H
#define LAB_IOSTAT_H

#include <stdint.h>

/* Bytes per sector in every kernel disk counter (and so in mongod's, which copies them). */
#define LAB_IOSTAT_SECTOR_BYTES 512

/* One disk's cumulative read counters in one sample. */
typedef struct {
   uint64_t reads;        /* read requests completed */
   uint64_t read_sectors; /* 512-byte sectors read */
   uint64_t read_time_ms; /* ms spent reading */
   uint64_t io_ticks_ms;  /* ms the device had I/O in flight */
} lab_iostat_counters_t;

/* iostat's figures between two samples taken `elapsed_s` apart. */
typedef struct {
   double elapsed_s;
   uint64_t reads;      /* read requests completed */
   uint64_t read_bytes; /* Δ sectors * 512 */
   uint64_t read_time_ms;
   uint64_t io_ticks_ms;
   double reads_per_s;    /* r/s */
   double read_kb_s;      /* rkB/s = Δ sectors / Δt / 2 */
   double read_mb_s;      /* 10^6 bytes per second */
   double read_await_ms;  /* Δ read time / Δ reads; -1 when there were no reads */
   double avg_read_bytes; /* Δ read bytes / Δ reads; -1 when there were no reads */
   double util_pct;       /* Δ io ticks / Δt (ms) * 100, capped at 100 */
} lab_iostat_t;

/* lab_iostat_counter_delta -- b - a for a cumulative counter; one that went backwards is a 32-bit wrap
 * when the old value fit in 32 bits, else a reset (delta 0). */
uint64_t lab_iostat_counter_delta (uint64_t a, uint64_t b);

/* lab_iostat_delta -- the figures between samples a and b taken `elapsed_s` apart into *d. */
void lab_iostat_delta (const lab_iostat_counters_t *a, const lab_iostat_counters_t *b, double elapsed_s,
                       lab_iostat_t *d);

#endif
