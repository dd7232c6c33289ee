/*
 * wl_mix_record.c -- the results' "mix" object (wl_mix_private.h; docs/results-schema.md "The mix"): the
 * spec and proportions, the mode and pace, each layout's time, ops/s, latency per type, bytes and CPU, the
 * winner by the one rule.
 */
#include "scan/hash.h"
#include "scan/mix/wl_mix_private.h"
#include "scan/workloads/wl_runs.h"

#include "core/error.h"
#include "core/log.h"
#include "core/opts.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the "mix" object ---------------------------------------------------------------------------- */

/* round_to -- v rounded to `digits` decimals. */
static double
round_to (double v, int digits)
{
   double f = pow (10, digits);
   return round (v * f) / f;
}

/* engine_total -- journal + eviction + checkpoint bytes (-1: none known). */
static int64_t
engine_total (const mix_result_t *r)
{
   if (r->journal_bytes < 0 && r->eviction_bytes < 0 && r->checkpoint_bytes < 0) {
      return -1;
   }
   return (r->journal_bytes > 0 ? r->journal_bytes : 0) + (r->eviction_bytes > 0 ? r->eviction_bytes : 0) +
          (r->checkpoint_bytes > 0 ? r->checkpoint_bytes : 0);
}

/* lab_scan_mix_score -- see wl_mix_private.h. */
double
lab_scan_mix_score (const mix_t *mx, const mix_result_t *r)
{
   return mx->rate > 0 ? r->latency_s : r->elapsed_s;
}

/* per_s -- v over s seconds, rounded to `digits` (-1: unknown). */
static double
per_s (double v, double s, int digits)
{
   return v >= 0 && s > 0 ? round_to (v / s, digits) : -1;
}

/* append_cpu -- a layout's "cpu": the client's, the store's and the machine's CPU, saturated or not. */
static void
append_cpu (bson_t *d, const lab_scan_mix_cpu_t *c)
{
   bson_t o;

   BSON_APPEND_DOCUMENT_BEGIN (d, "cpu", &o);
   BSON_APPEND_DOUBLE (&o, "elapsed_s", c->elapsed_s >= 0 ? round_to (c->elapsed_s, 4) : -1);
   BSON_APPEND_DOUBLE (&o, "client_s", c->client_s >= 0 ? round_to (c->client_s, 3) : -1);
   BSON_APPEND_DOUBLE (&o, "client_cores", per_s (c->client_s, c->elapsed_s, 2));
   BSON_APPEND_DOUBLE (&o, "store_s", c->store_s >= 0 ? round_to (c->store_s, 3) : -1);
   BSON_APPEND_DOUBLE (&o, "store_cores", per_s (c->store_s, c->elapsed_s, 2));
   BSON_APPEND_UTF8 (&o, "store",
                     c->store_in_client ? "the same process as the client (embedded): its CPU is the client's"
                     : c->store_s >= 0  ? "the server's process on this machine"
                                        : "unknown: the server is not a process of this machine");
   BSON_APPEND_DOUBLE (&o, "machine_busy_cores", per_s (c->machine_busy_s, c->elapsed_s, 2));
   BSON_APPEND_INT32 (&o, "machine_cores", c->cores);
   BSON_APPEND_BOOL (&o, "saturated", lab_scan_mix_saturated (c));
   bson_append_document_end (d, &o);
}

/* append_pace -- an open loop's "schedule": the asked and achieved rates, the lag, behind or not. */
static void
append_pace (bson_t *d, const lab_scan_mix_pace_t *pc)
{
   bson_t o;

   BSON_APPEND_DOCUMENT_BEGIN (d, "schedule", &o);
   BSON_APPEND_DOUBLE (&o, "rate_ops_s", pc->rate_ops_s);
   BSON_APPEND_DOUBLE (&o, "achieved_ops_s", round_to (pc->achieved_ops_s, 1));
   BSON_APPEND_DOUBLE (&o, "max_lag_ms", round_to (pc->max_lag_ms, 3));
   BSON_APPEND_DOUBLE (&o, "mean_lag_ms", round_to (pc->mean_lag_ms, 3));
   BSON_APPEND_BOOL (&o, "behind", pc->behind);
   bson_append_document_end (d, &o);
}

/* append_layout -- one layout's entry of mix.layouts (best: the winner's score). */
static void
append_layout (bson_t *arr, size_t i, const mix_t *mx, const lab_results_layout_t *l, const mix_result_t *r,
               double best, const lab_scan_wl_run_t *runs, int nruns)
{
   char key[16], dig[24];
   bson_t d, bt, one;
   int t, n = 0;
   int64_t ops = 0;

   bson_snprintf (key, sizeof key, "%zu", i);
   bson_append_document_begin (arr, key, -1, &d);
   BSON_APPEND_UTF8 (&d, "layout", l->name);
   BSON_APPEND_UTF8 (&d, "collection", l->collection);
   BSON_APPEND_UTF8 (&d, "kind", l->kind);
   lab_scan_state_append (&d, &r->state);
   BSON_APPEND_DOUBLE (&d, "elapsed_s", round_to (r->elapsed_s, 4));
   for (t = 0; t < LAB_WL_NKINDS; t++) {
      ops += r->ops[t];
   }
   BSON_APPEND_DOUBLE (&d, "ops_per_s", r->elapsed_s > 0 ? round_to ((double)ops / r->elapsed_s, 1) : -1);
   BSON_APPEND_DOUBLE (&d, "x_vs_winner", best > 0 ? round_to (lab_scan_mix_score (mx, r) / best, 3) : -1);
   BSON_APPEND_DOUBLE (&d, "latency_s", round_to (r->latency_s, 4));
   if (mx->rate > 0) {
      append_pace (&d, &r->pace);
   }
   append_cpu (&d, &r->cpu);
   BSON_APPEND_ARRAY_BEGIN (&d, "by_type", &bt);
   for (t = 0; t < LAB_WL_NKINDS; t++) {
      if (r->ops[t] == 0) {
         continue;
      }
      bson_snprintf (key, sizeof key, "%d", n++);
      bson_append_document_begin (&bt, key, -1, &one);
      BSON_APPEND_UTF8 (&one, "op", lab_scan_wl_name ((lab_scan_wl_kind_t)t));
      BSON_APPEND_INT64 (&one, "ops", r->ops[t]);
      BSON_APPEND_DOUBLE (&one, "time_s", round_to (r->time_s[t], 4));
      lab_scan_latency_append (&one, "latency_ms", &r->lat[t]);
      lab_scan_latency_append (&one, "service_ms", &r->svc[t]);
      BSON_APPEND_INT64 (&one, "rows", r->rows[t]);
      bson_append_document_end (&bt, &one);
   }
   bson_append_array_end (&d, &bt);
   BSON_APPEND_INT64 (&d, "disk_read_bytes", r->disk_read_bytes);
   BSON_APPEND_INT64 (&d, "disk_reads", r->disk_reads);
   BSON_APPEND_INT64 (&d, "disk_write_bytes", r->disk_write_bytes);
   BSON_APPEND_INT64 (&d, "engine_write_bytes", engine_total (r));
   BSON_APPEND_INT64 (&d, "journal_bytes", r->journal_bytes);
   BSON_APPEND_INT64 (&d, "oplog_bytes", r->oplog_bytes);
   BSON_APPEND_INT64 (&d, "oplog_entries", r->oplog_entries);
   BSON_APPEND_DOUBLE (
      &d, "oplog_bytes_per_write",
      r->oplog_bytes >= 0 && r->writes > 0 ? round_to ((double)r->oplog_bytes / (double)r->writes, 1) : -1);
   if (r->oplog_note[0]) {
      BSON_APPEND_UTF8 (&d, "oplog", r->oplog_note);
   }
   BSON_APPEND_DOUBLE (&d, "cpu_s", r->cpu_s >= 0 ? round_to (r->cpu_s, 3) : -1);
   bson_snprintf (dig, sizeof dig, "%016llx", (unsigned long long)r->digest);
   BSON_APPEND_UTF8 (&d, "digest", dig);
   BSON_APPEND_BOOL (&d, "cold", r->cold);
   lab_scan_wl_cold_append (&d, r->cold, r->cold_reason, r->engine_cache_before, &r->bg);
   lab_scan_wl_runs_append (&d, runs, nruns);
   bson_append_document_end (arr, &d);
}

/* lab_scan_mix_record -- see wl_mix_private.h. */
void
lab_scan_mix_record (bson_t *results, const lab_scan_plan_t *p, const mix_t *mx, const mix_result_t *res,
                     size_t win, const lab_scan_wl_outcome_t *oc, bool equal, const lab_scan_wl_run_t *fig,
                     int runs)
{
   const lab_scan_opts_t *o = p->opts;
   char spec[256];
   bson_t m, pr, la;
   const char *why = NULL;
   bool cold = true, behind = false, saturated = false;
   size_t i;
   int t;

   for (i = 0; i < p->layouts.n; i++) {
      cold = cold && res[i].cold;
      if (!res[i].cold && !why && res[i].cold_reason[0]) {
         why = res[i].cold_reason;
      }
   }
   lab_scan_mix_spec_text (o->wl.mix_weight, spec, sizeof spec);
   BSON_APPEND_DOCUMENT_BEGIN (results, "mix", &m);
   BSON_APPEND_BOOL (&m, "estimated", false);
   BSON_APPEND_UTF8 (&m, "spec", spec);
   BSON_APPEND_DOCUMENT_BEGIN (&m, "proportions", &pr);
   for (t = 0; t < LAB_WL_NKINDS; t++) {
      if (o->wl.mix_weight[t] > 0) {
         const char *name = lab_scan_wl_name ((lab_scan_wl_kind_t)t);
         double w = o->wl.mix_weight[t];
         if (w == floor (w)) {
            BSON_APPEND_INT64 (&pr, name, (int64_t)w); /* a whole weight stays an integer in the file */
         } else {
            BSON_APPEND_DOUBLE (&pr, name, w);
         }
      }
   }
   bson_append_document_end (&m, &pr);
   BSON_APPEND_INT64 (&m, "ops", mx->s.n);
   BSON_APPEND_INT64 (&m, "seed", (int64_t)o->wl.seed);
   BSON_APPEND_INT64 (&m, "workers", o->parallel);
   BSON_APPEND_BOOL (&m, "cold", cold);
   if (why) {
      BSON_APPEND_UTF8 (&m, "cold_reason", why);
   }
   if (why) {
      char src[400];
      bson_snprintf (src, sizeof src, "one interleaved stream per layout, not cold: %s", why);
      BSON_APPEND_UTF8 (&m, "source", src);
   } else {
      BSON_APPEND_UTF8 (&m, "source",
                        cold ? "one interleaved stream per layout, cold start"
                             : "one interleaved stream per layout, not cold (no --cold, or the cold step "
                               "failed)");
   }
   BSON_APPEND_UTF8 (&m, "mode", mx->rate > 0 ? "open" : "closed");
   if (mx->rate > 0) {
      BSON_APPEND_DOUBLE (&m, "rate_ops_s", mx->rate);
   } else {
      BSON_APPEND_NULL (&m, "rate_ops_s");
   }
   for (i = 0; i < p->layouts.n; i++) {
      behind = behind || res[i].pace.behind;
      saturated = saturated || lab_scan_mix_saturated (&res[i].cpu);
   }
   BSON_APPEND_BOOL (&m, "behind", behind);
   BSON_APPEND_BOOL (&m, "saturated", saturated);
   BSON_APPEND_BOOL (&m, "rows_equal", equal);
   BSON_APPEND_UTF8 (&m, "winner", p->layouts.l[win].name);
   lab_scan_wl_outcome_append (&m, oc);
   BSON_APPEND_ARRAY_BEGIN (&m, "layouts", &la);
   for (i = 0; i < p->layouts.n; i++) {
      append_layout (&la, i, mx, &p->layouts.l[i], &res[i], lab_scan_mix_score (mx, &res[win]),
                     &fig[i * (size_t)runs], runs);
   }
   bson_append_array_end (&m, &la);
   bson_append_document_end (results, &m);
}
