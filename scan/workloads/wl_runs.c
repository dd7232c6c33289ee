/*
 * wl_runs.c -- the runs of the workloads and of the mix (wl_runs.h): each layout's per-run figures, their
 * medians, the winner named in one place from the per-run times, and the write workloads' inputs drawn
 * afresh for each run after the first.
 *
 * Why fresh inputs rather than undoing the writes: the writes of a run stay (the rows appended, the values
 * corrected) and the next run draws new ones from --seed + run - 1 on the data as the earlier runs left
 * it. Every run then does the same amount of work (as many appends to the most recent or random masters,
 * as many corrections of uniformly drawn rows), every layout of one run gets the same writes (so the
 * per-run digests and rows_equal compare like with like across layouts), and no run ever deletes or
 * restores anything: undoing a fold's appends would need writes the tools do not otherwise make, whose
 * cost would land in no measurement but change the files the next run reads. Redrawing the same
 * corrections instead would set each value to the one it already holds: a server skips such a no-op $set,
 * so later runs would measure less work than the first.
 */
#include "scan/workloads/wl_runs.h"

#include "core/error.h"
#include "core/log.h"
#include "core/results.h"

#include <stdlib.h>
#include <string.h>

/* dbl_cmp -- ascending doubles for qsort. */
static int
dbl_cmp (const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return (x > y) - (x < y);
}

/* lab_scan_wl_median -- see wl_runs.h. */
double
lab_scan_wl_median (const double *v, int n)
{
   double *c, m;

   if (n <= 0) {
      return 0;
   }
   c = bson_malloc ((size_t)n * sizeof *c);
   memcpy (c, v, (size_t)n * sizeof *c);
   qsort (c, (size_t)n, sizeof *c, dbl_cmp);
   m = (n % 2) ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2.0;
   bson_free (c);
   return m;
}

/* lab_scan_wl_winner -- see wl_runs.h. */
size_t
lab_scan_wl_winner (size_t nlayouts, int nruns, const double *elapsed, lab_scan_wl_outcome_t *out)
{
   const lab_results_noise_t noise = { true, LAB_RESULTS_TIMER_RES_S }; /* a time */
   lab_stat_t st[LAB_RESULTS_MAX_LAYOUTS];
   lab_results_rank_t rk;
   lab_winner_t w;
   size_t l;

   for (l = 0; l < nlayouts && l < LAB_RESULTS_MAX_LAYOUTS; l++) {
      st[l] = lab_results_stat_runs (&elapsed[l * (size_t)nruns], NULL, (size_t)nruns);
   }
   w = lab_results_rank (LAB_BETTER_LOWER, st, l, &noise, &rk);
   if (out) {
      char *note = lab_results_verdict_note (&rk.decisive);
      out->outcome = w;
      bson_strncpy (out->note, note, sizeof out->note);
      bson_free (note);
   }
   return w == LAB_WIN_NONE ? 0 : rk.best;
}

/* lab_scan_wl_outcome_append -- see wl_runs.h. */
void
lab_scan_wl_outcome_append (bson_t *w, const lab_scan_wl_outcome_t *out)
{
   BSON_APPEND_BOOL (w, "same", out->outcome == LAB_WIN_TIE);
   if (out->note[0]) {
      BSON_APPEND_UTF8 (w, "rule", out->note);
   }
}

/* lab_scan_wl_runs_append -- see wl_runs.h. */
void
lab_scan_wl_runs_append (bson_t *d, const lab_scan_wl_run_t *runs, int n)
{
   double lo = 0, hi = 0;
   bson_t arr, r;
   int k;

   for (k = 0; k < n; k++) {
      lo = k == 0 || runs[k].elapsed_s < lo ? runs[k].elapsed_s : lo;
      hi = k == 0 || runs[k].elapsed_s > hi ? runs[k].elapsed_s : hi;
   }
   BSON_APPEND_INT32 (d, "nruns", n);
   BSON_APPEND_DOUBLE (d, "elapsed_s_min", lo);
   BSON_APPEND_DOUBLE (d, "elapsed_s_max", hi);
   BSON_APPEND_ARRAY_BEGIN (d, "runs", &arr);
   for (k = 0; k < n; k++) {
      char idx[16];
      const char *ik;
      bson_uint32_to_string ((uint32_t)k, &ik, idx, sizeof idx);
      bson_append_document_begin (&arr, ik, -1, &r);
      BSON_APPEND_INT32 (&r, "run", runs[k].run);
      BSON_APPEND_INT32 (&r, "order_in_run", runs[k].order_in_run);
      BSON_APPEND_DOUBLE (&r, "elapsed_s", runs[k].elapsed_s);
      if (runs[k].docs >= 0) {
         BSON_APPEND_INT64 (&r, "docs", runs[k].docs);
      }
      if (runs[k].rows >= 0) {
         BSON_APPEND_INT64 (&r, "rows", runs[k].rows);
      }
      if (runs[k].disk_read_bytes >= 0) {
         BSON_APPEND_INT64 (&r, "disk_read_bytes", runs[k].disk_read_bytes);
      }
      if (runs[k].latency_p50_ms >= 0) {
         BSON_APPEND_DOUBLE (&r, "latency_p50_ms", runs[k].latency_p50_ms);
      }
      if (runs[k].digest) {
         char dig[24];
         bson_snprintf (dig, sizeof dig, "%016llx", (unsigned long long)runs[k].digest);
         BSON_APPEND_UTF8 (&r, "digest", dig);
      }
      bson_append_document_end (&arr, &r);
   }
   bson_append_array_end (d, &arr);
}

/* lab_scan_wl_result_run -- see wl_runs.h. */
void
lab_scan_wl_result_run (const lab_scan_wl_result_t *r, lab_scan_wl_run_t *out)
{
   out->run = r->run;
   out->order_in_run = r->order_in_run;
   out->elapsed_s = r->elapsed_s;
   out->docs = r->acc.docs;
   out->rows = r->acc.rows;
   out->disk_read_bytes = r->disk_read_bytes;
   out->latency_p50_ms = r->lat.p50_ms;
   out->digest = r->acc.digest;
}

/* median_known -- the median of the runs' known (>= 0) values of one field, -1 when none is known. */
static double
median_known (const double *v, int n)
{
   double *k = bson_malloc0 ((size_t)(n + 1) * sizeof *k), m;
   int i, nk = 0;

   for (i = 0; i < n; i++) {
      if (v[i] >= 0) {
         k[nk++] = v[i];
      }
   }
   m = nk > 0 ? lab_scan_wl_median (k, nk) : -1;
   bson_free (k);
   return m;
}

/* A field's median over the runs, into out (the field's own type). */
#define LAB_WL_MEDIAN_OF(field, type)                                                                        \
   do {                                                                                                      \
      for (i = 0; i < n; i++) {                                                                              \
         v[i] = (double)runs[i].field;                                                                       \
      }                                                                                                      \
      out->field = (type)median_known (v, n);                                                                \
   } while (0)

/* lab_scan_wl_result_combine -- see wl_runs.h. */
void
lab_scan_wl_result_combine (const lab_scan_wl_result_t *runs, int n, lab_scan_wl_result_t *out)
{
   double *v = bson_malloc0 ((size_t)(n + 1) * sizeof *v);
   int i;

   *out = runs[0];
   if (n > 1) {
      LAB_WL_MEDIAN_OF (elapsed_s, double);
      LAB_WL_MEDIAN_OF (cpu_s, double);
      LAB_WL_MEDIAN_OF (disk_read_bytes, int64_t);
      LAB_WL_MEDIAN_OF (disk_reads, int64_t);
      LAB_WL_MEDIAN_OF (engine_read_bytes, int64_t);
      LAB_WL_MEDIAN_OF (lat.p50_ms, double);
      LAB_WL_MEDIAN_OF (lat.p95_ms, double);
      LAB_WL_MEDIAN_OF (lat.p99_ms, double);
      LAB_WL_MEDIAN_OF (lat.max_ms, double);
      LAB_WL_MEDIAN_OF (lat.mean_ms, double);
      LAB_WL_MEDIAN_OF (disk_write_bytes, int64_t);
      LAB_WL_MEDIAN_OF (disk_writes, int64_t);
      LAB_WL_MEDIAN_OF (journal_bytes, int64_t);
      LAB_WL_MEDIAN_OF (block_write_bytes_writes, int64_t);
      LAB_WL_MEDIAN_OF (checkpoint_bytes, int64_t);
      LAB_WL_MEDIAN_OF (checkpoint_s, double);
   }
   bson_free (v);
}

/* lab_scan_wl_runs_of_load -- see wl_runs.h. */
int
lab_scan_wl_runs_of_load (const bson_t *results, const char *layout, lab_scan_wl_run_t *out, int max)
{
   bson_iter_t it, arr;
   int n = 0;

   if (!bson_iter_init_find (&it, results, "runs") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &arr)) {
      return 0;
   }
   while (bson_iter_next (&arr) && n < max) {
      bson_t e;
      bson_iter_t f;
      uint32_t len;
      const uint8_t *data;
      lab_scan_wl_run_t *r = &out[n];
      double v;

      if (!BSON_ITER_HOLDS_DOCUMENT (&arr)) {
         continue;
      }
      bson_iter_document (&arr, &len, &data);
      if (!bson_init_static (&e, data, len) || !bson_iter_init_find (&f, &e, "layout") ||
          !BSON_ITER_HOLDS_UTF8 (&f) || strcmp (bson_iter_utf8 (&f, NULL), layout) != 0) {
         continue;
      }
      memset (r, 0, sizeof *r);
      r->run = lab_results_get_number (&e, "run", &v) ? (int)v : n + 1;
      r->order_in_run = lab_results_get_number (&e, "order_in_run", &v) ? (int)v : 0;
      r->elapsed_s = lab_results_get_number (&e, "elapsed_s", &v) ? v : -1;
      r->docs = lab_results_get_number (&e, "docs", &v) ? (int64_t)v : -1;
      r->rows = lab_results_get_number (&e, "rows", &v) ? (int64_t)v : -1;
      r->disk_read_bytes = lab_results_get_number (&e, "read_bytes", &v) ? (int64_t)v : -1;
      if (r->disk_read_bytes < 0) {
         r->disk_read_bytes = lab_results_get_number (&e, "engine.block_read_bytes", &v) ? (int64_t)v : -1;
      }
      r->latency_p50_ms = lab_results_get_number (&e, "latency_ms.p50", &v) ? v : -1;
      n++;
   }
   return n;
}

/* lab_scan_wl_run_seed -- see wl_runs.h. */
uint64_t
lab_scan_wl_run_seed (uint64_t seed, int run)
{
   return seed + (uint64_t)(run > 1 ? run - 1 : 0);
}

/* lab_scan_wl_writes_for_run -- see wl_runs.h. */
bool
lab_scan_wl_writes_for_run (const lab_scan_plan_t *p, lab_scan_wl_kind_t kind, int run,
                            lab_scan_wl_writes_t *ws, bson_error_t *error)
{
   lab_scan_opts_t o = *p->opts;
   const lab_results_layout_t *rows = NULL;
   lab_scan_wl_inputs_t in;
   lab_store_session_t *sess;
   size_t i;
   bool ok;

   memset (ws, 0, sizeof *ws);
   memset (&in, 0, sizeof in);
   for (i = 0; i < p->layouts.n && !rows; i++) {
      if (lab_layout_reads_rows (&p->layouts.l[i].desc)) {
         rows = &p->layouts.l[i];
      }
   }
   o.wl.seed = lab_scan_wl_run_seed (p->opts->wl.seed, run);
   sess = lab_store_session_open (p->store, error);
   if (!sess) {
      return false;
   }
   ok = lab_scan_wl_writes_draw (sess, &o, 1u << kind, rows, p->keys, p->nkeys, &in, error);
   lab_store_session_close (sess);
   *ws = kind == LAB_WL_APPEND ? in.append : in.update;
   lab_scan_wl_writes_cleanup (kind == LAB_WL_APPEND ? &in.update : &in.append);
   if (!ok) {
      lab_error_prefix (error, "run %d of the %s workload", run, lab_scan_wl_name (kind));
   }
   return ok;
}
