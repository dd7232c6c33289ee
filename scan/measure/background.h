/*
 * background.h -- what else ran on this machine while a layout was measured (private to scan/): the load
 * average at both ends, CPU steal, and the CPU time and disk reads of every other process (the machine's
 * totals minus this process's and the local server's). The machines are shared: a figure measured beside
 * another busy process is flagged, never silently compared.
 */
#ifndef LAB_SCAN_BACKGROUND_H
#define LAB_SCAN_BACKGROUND_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

/* Other processes kept at least this many cores busy, or the hypervisor stole at least this share of the
 * CPU time: the machine was busy and the run's times may be its neighbours' as much as its own. */
#define LAB_SCAN_BUSY_OTHER_CORES 0.5
#define LAB_SCAN_BUSY_STEAL_PCT 5.0

/* One reading of the machine (lab_scan_bg_take); -1 unknown. */
typedef struct {
   bool have;                        /* /proc/stat read */
   uint64_t t_ns;                    /* lab_now_ns */
   double load1;                     /* /proc/loadavg, the 1-minute figure */
   uint64_t ticks_total, ticks_idle; /* /proc/stat "cpu": every state but guest time; idle + iowait */
   uint64_t ticks_steal;
   int ncpus;                                  /* the "cpuN" lines */
   double self_cpu_s, server_cpu_s;            /* lab_process_cpu_s */
   int64_t self_read_bytes, server_read_bytes; /* /proc/PID/io read_bytes */
} lab_scan_bg_point_t;

/* What else ran between two readings. */
typedef struct {
   bool have;
   double elapsed_s;
   double load1_start, load1_end; /* -1 unknown */
   double steal_pct;              /* of all CPU time; -1 unknown */
   double other_cpu_s;            /* every CPU's busy time minus this process's and the server's */
   double other_cores;            /* other_cpu_s / elapsed_s */
   int64_t other_read_bytes;      /* the device's read bytes minus this process's and the server's; -1 */
   bool busy;                     /* LAB_SCAN_BUSY_* reached, beyond the tick counters' rounding */
   char busy_note[240];           /* what made it busy ("" when not) */
} lab_scan_background_t;

/* lab_scan_bg_parse_stat -- the "cpu" line of /proc/stat's text into p's ticks; false when absent. Pure. */
bool lab_scan_bg_parse_stat (const char *text, lab_scan_bg_point_t *p);

/* lab_scan_bg_take -- read the machine now: /proc/loadavg, /proc/stat, this process's and server_pid's
 * (0: none, or this process) CPU time and disk reads. Never fails: what cannot be read is unknown. */
void lab_scan_bg_take (int64_t server_pid, lab_scan_bg_point_t *p);

/* lab_scan_bg_delta -- what else ran from a to b, with clk_tck ticks a second; device_read_bytes is the
 * data's device over the same time (-1 unknown: other_read_bytes unknown). Pure. */
void lab_scan_bg_delta (const lab_scan_bg_point_t *a, const lab_scan_bg_point_t *b, long clk_tck,
                        int64_t device_read_bytes, lab_scan_background_t *out);

/* lab_scan_bg_append -- "background": {elapsed_s, load_avg_1m_start, load_avg_1m_end, steal_pct,
 * other_cpu_s, other_cores, other_read_bytes, busy, busy_note} into d (nothing when not measured). */
void lab_scan_bg_append (bson_t *d, const lab_scan_background_t *bg);

#endif
