/*
 * wl_mix.h -- the user's mix (private to scan/ and its tests): `scancmp --mix
 * load=5,row=60,range=5,append=25,update=5` runs one deterministic interleaved stream of those operations
 * (--mix-ops, drawn from --seed) on every layout after the same cold step as the workloads, split over
 * the --parallel workers, and records the results' "mix" object (docs/results-schema.md "The mix").
 *
 *   wl_mix_stream.c  the --mix value (core/mix_spec.h's grammar), the counts per type, the stream (pure)
 *   wl_mix_draw.c    the stream's inputs, drawn warm by the workloads' drawers
 *   wl_mix.c         one layout's stream (the per-op executors of wl_exec.c and wl_write.c), the write
 *                    costs, the runs
 *   wl_mix_record.c  the "mix" object
 *   wl_mix_report.c  the verdict sentence and the terminal summary, from the "mix" object (pure)
 */
#ifndef LAB_SCAN_WL_MIX_H
#define LAB_SCAN_WL_MIX_H

#include "scan/measure/measure.h"

/* The types a mix may hold: the reads of one master, one row and one window, and the two writes. */
#define LAB_MIX_TYPES                                                                                        \
   ((1u << LAB_WL_LOAD) | (1u << LAB_WL_ROW) | (1u << LAB_WL_RANGE) | (1u << LAB_WL_APPEND) |                \
    (1u << LAB_WL_UPDATE))

/* lab_scan_mix_parse -- a --mix value (core/mix_spec.h's grammar, shared with layout-report) into
 * weight[0..LAB_WL_NKINDS) (indexed by lab_scan_wl_kind_t; types not given 0). */
bool lab_scan_mix_parse (const char *s, double *weight, bson_error_t *error);

/* lab_scan_mix_parse_opt -- the option table's parser of --mix (LAB_CLI_OPT_CUSTOM, field: double[8]). */
bool lab_scan_mix_parse_opt (const char *value, void *field, const char *name, bson_error_t *error);

/* lab_scan_mix_on -- o asks for a mix (some weight above 0). */
bool lab_scan_mix_on (const lab_scan_opts_t *o);

/* lab_scan_mix_spec_text -- the canonical spec of weight[]: the types above 0 in the enum's order,
 * "load=5,row=60,range=5,append=25,update=5". */
void lab_scan_mix_spec_text (const double *weight, char *buf, size_t len);

/* lab_scan_mix_counts -- n operations shared out by weight: count[t] = floor(n w_t / W), then the rest
 * one each to the largest remainders (ties: the enum's order). Sums to n. Pure. */
void lab_scan_mix_counts (const double *weight, int64_t n, int64_t *count);

/* One interleaved stream: op i is of type type[i], the index[i]-th operation of its type. */
typedef struct {
   int64_t n;
   uint8_t *type;  /* lab_scan_wl_kind_t */
   int64_t *index; /* 0 .. count[type] - 1, ascending along the stream per type */
   int64_t count[LAB_WL_NKINDS];
} lab_scan_mix_stream_t;

/* lab_scan_mix_stream_make -- the stream of n operations: lab_scan_mix_counts' counts laid out in the
 * enum's order, then a Fisher-Yates shuffle by lab_scan_rand64 from `seed` (the same on every machine and
 * every layout). Pure. */
void lab_scan_mix_stream_make (const double *weight, int64_t n, uint64_t seed, lab_scan_mix_stream_t *s);

/* lab_scan_mix_stream_cleanup -- free what s owns. */
void lab_scan_mix_stream_cleanup (lab_scan_mix_stream_t *s);

/* lab_scan_mix_rate_parse -- a --mix-rate value, operations per second: a finite number above 0 (at most
 * 1e9), else LAB_ERROR_USAGE naming the value. */
bool lab_scan_mix_rate_parse (const char *s, double *rate, bson_error_t *error);

/* lab_scan_mix_rate_parse_opt -- the option table's parser of --mix-rate (LAB_CLI_OPT_CUSTOM, field: double).
 */
bool lab_scan_mix_rate_parse_opt (const char *value, void *field, const char *name, bson_error_t *error);

/* The schedule fell behind when the ops started at under this share of the asked rate. */
#define LAB_MIX_BEHIND_SHARE 0.95

/* How an open loop kept its schedule: op i intended at i / rate seconds from the schedule's start. */
typedef struct {
   double rate_ops_s;     /* asked */
   double achieved_ops_s; /* n over (the last op's actual start + one interval): at most rate_ops_s */
   double max_lag_ms, mean_lag_ms; /* an op's actual start after its intended one */
   bool behind;                    /* achieved_ops_s < LAB_MIX_BEHIND_SHARE x rate_ops_s */
} lab_scan_mix_pace_t;

/* lab_scan_mix_pace_summarize -- the pace of n ops scheduled at `rate` whose actual starts were
 * start_ns[0..n) (from the schedule's start). Pure. */
void lab_scan_mix_pace_summarize (double rate, const uint64_t *start_ns, int64_t n, lab_scan_mix_pace_t *out);

/* lab_scan_mix_sleep_until -- sleep until lab_now_ns () reaches t_ns (CLOCK_MONOTONIC; now or past: at
 * once). */
void lab_scan_mix_sleep_until (uint64_t t_ns);

/* The machine saturated when its CPUs were busy at least this share of the stream's time. */
#define LAB_MIX_SATURATED_SHARE 0.9

/* The CPU a layout's stream used (-1: unknown). */
typedef struct {
   double elapsed_s;      /* the stream's wall time: its first op's start to its last op's end */
   double client_s;       /* this process (the load generator) */
   double store_s;        /* the store's process: this one (embedded), else the local server's */
   bool store_in_client;  /* embedded: client_s holds the store's CPU too */
   int cores;             /* CPUs this process may run on */
   double machine_busy_s; /* CPU seconds every process of the machine used (/proc/stat) */
} lab_scan_mix_cpu_t;

/* lab_scan_mix_machine_busy_s -- the CPU seconds every CPU of the machine has been busy so far (user,
 * nice, system, irq, softirq, steal of /proc/stat's "cpu" line); -1 when unreadable. */
double lab_scan_mix_machine_busy_s (void);

/* lab_scan_mix_saturated -- the machine's CPUs were busy >= LAB_MIX_SATURATED_SHARE of c->cores over the
 * stream: the machine's figure when known, else the client's and the store's; false when unknown. Pure. */
bool lab_scan_mix_saturated (const lab_scan_mix_cpu_t *c);

/* lab_scan_mix_run -- with --mix: draw the stream's inputs (warm, from the data as it is now: after the
 * load's runs and the workloads), run the stream cold on every layout in run 1's order, and append the
 * "mix" object to results. Layouts whose digests differ: LAB_ERROR_VERIFY / LAB_VERIFY_ERR_RESULTS_DIFFER
 * after the object is appended (exit 3). */
bool lab_scan_mix_run (lab_scan_plan_t *p, bson_t *results, bson_error_t *error);

/* lab_scan_mix_verdict -- the verdict sentence of a "mix" object (docs/results-schema.md "The mix"):
 * "Under this mix (load 5%, ...) the folded layout is 1.8x faster overall than detail: it wins load (9.1x)
 * ..., loses row (1.3x) and writes 4.1x the bytes." NULL when the object lacks what it needs. Caller
 * bson_free()s. Pure. */
char *lab_scan_mix_verdict (const bson_t *mix);

/* lab_scan_mix_table_render -- the terminal summary of results' "mix": per layout its time, ops/s, x the
 * winner, write bytes, then per type its ops, time and latency, then the verdict; NULL without a mix.
 * Caller bson_free()s. Pure. */
char *lab_scan_mix_table_render (const bson_t *results);

#endif
