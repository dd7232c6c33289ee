/*
 * wl_mix_pace.c -- the mix's open loop and its CPU (wl_mix.h): --mix-rate parsed, the schedule's pace
 * summarized (how far behind it fell), the sleep until an op's intended start, the machine's busy CPU
 * time, and whether the machine was saturated. An open loop times each op from its intended start, so a
 * slow op delays the ops queued behind it in their latencies, as it would delay the requests of real
 * clients (closed loops omit that queueing: coordinated omission; wrk2 corrects it the same way).
 */
#include "scan/mix/wl_mix.h"

#include "core/error.h"
#include "core/opts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MIX_MAX_RATE 1e9 /* a billion ops per second: any faster is a typo */

/* lab_scan_mix_rate_parse -- see wl_mix.h. */
bool
lab_scan_mix_rate_parse (const char *s, double *rate, bson_error_t *error)
{
   char *end = NULL;
   double v;

   errno = 0;
   v = s ? strtod (s, &end) : 0;
   if (!s || !*s || end == s || *end || errno != 0 || !isfinite (v) || !(v > 0) || v > MIX_MAX_RATE) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
         "--mix-rate '%s': give the operations per second the stream is offered, a number above 0 "
         "(e.g. --mix-rate 500); without --mix-rate the mix runs closed-loop",
         s ? s : "");
      return false;
   }
   *rate = v;
   return true;
}

/* lab_scan_mix_rate_parse_opt -- see wl_mix.h. */
bool
lab_scan_mix_rate_parse_opt (const char *value, void *field, const char *name, bson_error_t *error)
{
   (void)name;
   return lab_scan_mix_rate_parse (value, field, error);
}

/* lab_scan_mix_pace_summarize -- see wl_mix.h. */
void
lab_scan_mix_pace_summarize (double rate, const uint64_t *start_ns, int64_t n, lab_scan_mix_pace_t *out)
{
   double lag_sum = 0, last_s = 0;
   int64_t i;

   out->rate_ops_s = rate;
   out->achieved_ops_s = out->max_lag_ms = out->mean_lag_ms = 0;
   out->behind = false;
   if (n <= 0 || !(rate > 0)) {
      return;
   }
   for (i = 0; i < n; i++) {
      double intended_s = (double)i / rate, start_s = (double)start_ns[i] / 1e9;
      double lag_ms = start_s > intended_s ? (start_s - intended_s) * 1e3 : 0;
      lag_sum += lag_ms;
      out->max_lag_ms = lag_ms > out->max_lag_ms ? lag_ms : out->max_lag_ms;
      last_s = start_s > last_s ? start_s : last_s;
   }
   out->mean_lag_ms = lag_sum / (double)n;
   /* on schedule the last op starts at (n - 1) / rate: n / (that + 1 / rate) is the rate itself, and no
    * op starts before its time, so the achieved rate never exceeds the asked one */
   out->achieved_ops_s = (double)n / (last_s + 1.0 / rate);
   out->achieved_ops_s = out->achieved_ops_s > rate ? rate : out->achieved_ops_s;
   out->behind = out->achieved_ops_s < LAB_MIX_BEHIND_SHARE * rate;
}

/* lab_scan_mix_sleep_until -- see wl_mix.h. */
void
lab_scan_mix_sleep_until (uint64_t t_ns)
{
   struct timespec ts;

   if (lab_now_ns () >= t_ns) {
      return;
   }
   ts.tv_sec = (time_t)(t_ns / 1000000000ull);
   ts.tv_nsec = (long)(t_ns % 1000000000ull);
   while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
   }
}

/* lab_scan_mix_machine_busy_s -- see wl_mix.h. */
double
lab_scan_mix_machine_busy_s (void)
{
   FILE *f = fopen ("/proc/stat", "r");
   unsigned long long user, nice, sys, idle, iowait, irq, softirq, steal = 0;
   long tick = sysconf (_SC_CLK_TCK);
   int got;

   if (!f) {
      return -1;
   }
   got = fscanf (f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys, &idle, &iowait, &irq,
                 &softirq, &steal);
   fclose (f);
   if (got < 7 || tick <= 0) {
      return -1;
   }
   (void)idle, (void)iowait; /* waiting, not busy */
   return (double)(user + nice + sys + irq + softirq + steal) / (double)tick;
}

/* lab_scan_mix_saturated -- see wl_mix.h. */
bool
lab_scan_mix_saturated (const lab_scan_mix_cpu_t *c)
{
   double busy;

   if (c->cores <= 0 || !(c->elapsed_s > 0)) {
      return false;
   }
   if (c->machine_busy_s >= 0) {
      busy = c->machine_busy_s;
   } else if (c->client_s >= 0) {
      busy = c->client_s + (!c->store_in_client && c->store_s > 0 ? c->store_s : 0);
   } else {
      return false;
   }
   return busy / c->elapsed_s >= LAB_MIX_SATURATED_SHARE * (double)c->cores;
}
