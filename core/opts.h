/*
 * opts.h -- parsing of size and duration arguments, with overflow checks, shared by every tool.
 */
#ifndef LAB_OPTS_H
#define LAB_OPTS_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

/* lab_parse_size -- "123", "64K", "16M", "64MB", "1G", "16MiB", "1.5GiB", "512B", case-insensitive: one
 * meaning for every spelling, K = KB = KiB = 1024 bytes, M = MB = MiB = 1024^2, G, T likewise (as
 * WiredTiger reads its own cache_size=64MB, and mongod its cache sizes). Errors (LAB_ERROR_USAGE) name
 * `what`. */
bool lab_parse_size (const char *s, const char *what, uint64_t *out, bson_error_t *error);

/* A list option's values in strictly ascending order (--cache-sizes 64MiB,256MiB,1GiB; --cache-ratios
 * 0.25,1,2), parsed and checked once: lab_parse_sizes / lab_parse_ratios, which LAB_CLI_OPT_SIZES and
 * LAB_CLI_OPT_RATIOS (cli.h) call from a tool's option table. n == 0: not given. Free with lab_sizes_free /
 * lab_ratios_free. */
typedef struct {
   uint64_t *v;
   size_t n;
} lab_sizes_t;

typedef struct {
   double *v;
   size_t n;
} lab_ratios_t;

/* lab_parse_sizes -- a comma-separated list of sizes (each as lab_parse_size) into *out (replaced: what it
 * held is freed). Empty items, values that do not parse and a list not strictly ascending (unsorted or
 * repeated) are LAB_ERROR_USAGE naming the item and `what`; `noun` ("cache sizes") and `hint` ("give e.g.
 * 64MiB,256MiB,1GiB") word the messages. *out is empty after a failure. */
bool lab_parse_sizes (const char *s, const char *what, const char *noun, const char *hint, lab_sizes_t *out,
                      bson_error_t *error);

/* lab_parse_ratios -- the same for positive finite numbers; `hint` says what they are ("a cache as a
 * fraction of ..., e.g. 0.25,1,2"). */
bool lab_parse_ratios (const char *s, const char *what, const char *noun, const char *hint, lab_ratios_t *out,
                       bson_error_t *error);

/* lab_sizes_free / lab_ratios_free -- free the values; the list is empty after. */
void lab_sizes_free (lab_sizes_t *l);
void lab_ratios_free (lab_ratios_t *l);

/* lab_parse_names -- the comma-separated names of each of values[0..n) (a repeatable option's values,
 * e.g. --allow-writes a,b --allow-writes c) as one NULL-terminated array (caller bson_strfreev()s; NULL
 * when n == 0). An empty name is LAB_ERROR_USAGE naming `what`. */
bool lab_parse_names (const char *const *values, size_t n, const char *what, char ***out,
                      bson_error_t *error);

/* lab_parse_duration_ns -- "250ms", "1s", "1.5s", "2m", "100us"; a bare number is seconds. */
bool lab_parse_duration_ns (const char *s, const char *what, uint64_t *out_ns, bson_error_t *error);

/* lab_parse_int -- a decimal int64 within [min, max]; errors name `what`. */
bool lab_parse_int (const char *s, const char *what, int64_t min, int64_t max, int64_t *out,
                    bson_error_t *error);

/* lab_format_bytes -- "1.50 MiB" style into buf (returns buf). */
const char *lab_format_bytes (uint64_t bytes, char *buf, size_t len);

/* lab_now_ns -- CLOCK_MONOTONIC in nanoseconds. */
uint64_t lab_now_ns (void);

/* lab_parse_stat_cpu -- utime + stime (fields 14 and 15) of a /proc/PID/stat line, in seconds of
 * `ticks_per_s` clock ticks; the fields are counted after the last ')' since the command name (field 2)
 * may hold spaces and parentheses. false when the line has no such fields. Pure. */
bool lab_parse_stat_cpu (const char *stat, long ticks_per_s, double *cpu_s);

/* lab_process_cpu_s -- the CPU time (user + system, every thread, the exited ones too) process pid has
 * used so far, in seconds: its CPU-time clock (clock_getcpuclockid), else utime + stime of /proc/PID/stat;
 * -1 when unknown (no pid, neither readable). */
double lab_process_cpu_s (int64_t pid);

#endif
