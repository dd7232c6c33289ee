/*
 * wl_mix.c -- the user's mix (wl_mix.h): the stream (its inputs: wl_mix_draw.c) run on one
 * layout through the per-operation executors the workloads use (wl_exec.c's queries, wl_write.c's writes,
 * one operation at a time), the write costs, --runs times, each run's layouts in lab_scan_run_order's
 * order (a writing stream drawn afresh per run); the results' "mix" object: wl_mix_record.c.
 *
 * The workers take the stream's ops in order from a shared counter, each the next op when it is free (closed
 * loop), or no earlier than the op's intended start t0 + i / rate (open loop, --mix-rate: its latency
 * runs from that intended start, its service time from its actual start). Two rules keep the outcome the same
 * on every layout whatever the workers' timing: the writes of one master run in stream order (a write waits
 * for the master's previous write in the stream: a folded document is read, changed and written back, and its
 * appends keep their line order), and the digest of what a read returned leaves out the rows the stream
 * itself appends (whether a read saw them depends on the timing; the appends are in the digest as writes).
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

#define MIX_STALL_S 120 /* a write waiting this long without any write finishing: a worker is gone */

/* ---- one operation ------------------------------------------------------------------------------- */

typedef struct {
   const lab_scan_wl_layout_t *wl;
   lab_scan_wl_acc_t *acc;
   lab_scan_rowhash_t rh;
} load_ctx_t;

/* load_row -- a row of a loaded master: counted, in the digest unless the stream appended it. */
static void
load_row (const bson_t *doc, const bson_t *elem, void *ctx)
{
   load_ctx_t *c = ctx;
   uint64_t h = lab_scan_wl_read_hash (c->wl, &c->rh, doc, elem);

   c->acc->rows++;
   c->acc->digest += lab_scan_wl_hash_skipped (c->wl, h) ? 0 : h;
}

/* load_doc -- a document of a loaded master. */
static bool
load_doc (const bson_t *doc, void *ctx)
{
   load_ctx_t *c = ctx;

   c->acc->docs++;
   c->acc->doc_bytes += doc->len;
   c->acc->decoded += lab_scan_decode (doc, c->wl->opts->decode);
   lab_scan_rowhash_doc (&c->rh, doc);
   lab_scan_wl_each_row (doc, c->wl->opts->array_field, c->wl->array, load_row, c);
   return true;
}

/* load_one -- the load op k: its master fetched whole by its key, as the load does (the row layout's
 * sub-layout gives the options and the row view). */
static bool
load_one (const mix_layout_t *ml, lab_store_session_t *sess, int64_t k, lab_scan_wl_acc_t *acc,
          bson_error_t *error)
{
   const mix_t *mx = ml->mx;
   load_ctx_t c = { &ml->sub[LAB_WL_ROW], acc, { mx->o1.key, mx->o1.array_field, NULL, NULL } };
   bool ok;

   acc->queries++;
   ok = lab_scan_master_find (sess, ml->layout->collection, c.wl->clustered, mx->o1.key,
                              &mx->in.rows[mx->in.nrows + k].key, load_doc, &c, NULL, error);
   lab_scan_rowhash_cleanup (&c.rh);
   return ok;
}

/* wait_turn -- a write: wait until the master's previous write in the stream is done (false: another
 * worker failed, or no write finished for MIX_STALL_S). */
static bool
wait_turn (mix_layout_t *ml, int64_t op)
{
   int64_t prev = ml->mx->prev[op], seen = -1;
   time_t since = time (NULL);
   bool ok = true;

   if (prev < 0) {
      return true;
   }
   pthread_mutex_lock (&ml->mu);
   while (!ml->done[prev] && !ml->abort) {
      struct timespec ts;
      clock_gettime (CLOCK_REALTIME, &ts);
      ts.tv_sec += 1;
      pthread_cond_timedwait (&ml->cv, &ml->mu, &ts);
      if (ml->finished != seen) {
         seen = ml->finished;
         since = time (NULL);
      } else if (time (NULL) - since > MIX_STALL_S) {
         break;
      }
   }
   ok = ml->done[prev] && !ml->abort;
   pthread_mutex_unlock (&ml->mu);
   return ok;
}

/* finish -- op done (or failed: every waiting worker stops). */
static void
finish (mix_layout_t *ml, int64_t op, bool ok)
{
   pthread_mutex_lock (&ml->mu);
   ml->done[op] = ok ? 1 : 2; /* 2: failed (the collection's record counts the writes done) */
   ml->finished++;
   ml->abort = ml->abort || !ok;
   pthread_cond_broadcast (&ml->cv);
   pthread_mutex_unlock (&ml->mu);
}

/* stream_t0 -- the stream's start: the first op taken sets it (and the CPU figures at it). */
static uint64_t
stream_t0 (mix_layout_t *ml)
{
   uint64_t zero = 0, now = lab_now_ns ();

   if (atomic_compare_exchange_strong (&ml->t0_ns, &zero, now)) {
      ml->client_cpu0_s = lab_process_cpu_s ((int64_t)getpid ());
      ml->machine_busy0_s = lab_scan_mix_machine_busy_s ();
      return now;
   }
   return zero; /* the value another worker set */
}

/* stream_end -- an op ended; the last one also notes the stream's end and the CPU figures at it. */
static void
stream_end (mix_layout_t *ml, uint64_t t_end)
{
   if (atomic_fetch_add (&ml->ndone, 1) + 1 == ml->mx->s.n) {
      ml->end_ns = t_end;
      ml->client_cpu1_s = lab_process_cpu_s ((int64_t)getpid ());
      ml->machine_busy1_s = lab_scan_mix_machine_busy_s ();
   }
}

/* mix_item -- the workers' item i: the stream's op i on this layout (open loop: not before its intended
 * start), timed (a write after its master's previous write), its rows, latency and service time kept. */
static bool
mix_item (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, int64_t i, lab_scan_wl_acc_t *acc,
          bson_error_t *error)
{
   mix_layout_t *ml = wl->item_ctx;
   const mix_t *mx = ml->mx;
   int64_t op = i, k = mx->s.index[op];
   lab_scan_wl_kind_t t = (lab_scan_wl_kind_t)mx->s.type[op];
   bool write = lab_scan_wl_is_write (t), ok;
   lab_scan_wl_acc_t a;
   uint64_t t0 = stream_t0 (ml), intended = t0, start, end;

   memset (&a, 0, sizeof a);
   if (mx->rate > 0) {
      intended = t0 + (uint64_t)llround ((double)op * 1e9 / mx->rate);
      lab_scan_mix_sleep_until (intended);
   }
   if (write && !wait_turn (ml, op)) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                     "mix op %lld (%s) on %s: stopped, the write before it on the same master did not "
                     "finish (another worker failed)",
                     (long long)op + 1, lab_scan_wl_name (t), ml->layout->collection);
      finish (ml, op, false);
      return false;
   }
   start = lab_now_ns ();
   if (t == LAB_WL_LOAD) {
      ok = load_one (ml, sess, k, &a, error);
   } else if (write) {
      ok = lab_scan_wl_write_item (&ml->sub[t], sess, mx->input[t][k], &a, error);
   } else {
      ok = lab_scan_wl_item (&ml->sub[t], sess, k, &a, error);
   }
   end = lab_now_ns ();
   ml->svc_ms[op] = (double)(end - start) / 1e6;
   /* open loop: from the intended start, so the time it queued behind slower ops (or for a CPU) counts */
   ml->lat_ms[op] = mx->rate > 0 ? (double)(end - intended) / 1e6 : ml->svc_ms[op];
   ml->start_ns[op] = start - t0;
   ml->rows[op] = a.rows;
   if (write || !ok) {
      finish (ml, op, ok);
   }
   if (!ok) {
      lab_error_prefix (error, "mix op %lld (%s)", (long long)op + 1, lab_scan_wl_name (t));
   }
   stream_end (ml, end);
   lab_scan_wl_acc_merge (acc, &a);
   lab_scan_wl_acc_cleanup (&a);
   return ok;
}

/* ---- one layout ---------------------------------------------------------------------------------- */

/* layout_init -- the sub-layouts of the types the stream holds, the per-op arrays. */
static bool
layout_init (lab_scan_plan_t *p, const mix_t *mx, const lab_results_layout_t *l, mix_layout_t *ml,
             bson_error_t *error)
{
   lab_store_session_t *sess = lab_store_session_open (p->store, error);
   int t;
   bool ok = sess != NULL;

   memset (ml, 0, sizeof *ml);
   ml->mx = mx;
   ml->layout = l;
   pthread_mutex_init (&ml->mu, NULL);
   pthread_cond_init (&ml->cv, NULL);
   ml->lat_ms = bson_malloc0 (((size_t)mx->s.n + 1) * sizeof *ml->lat_ms);
   ml->svc_ms = bson_malloc0 (((size_t)mx->s.n + 1) * sizeof *ml->svc_ms);
   ml->start_ns = bson_malloc0 (((size_t)mx->s.n + 1) * sizeof *ml->start_ns);
   ml->rows = bson_malloc0 (((size_t)mx->s.n + 1) * sizeof *ml->rows);
   ml->done = bson_malloc0 ((size_t)mx->s.n + 1);
   for (t = LAB_WL_LOAD; t < LAB_WL_NKINDS && ok; t++) {
      lab_scan_wl_layout_t *sub = &ml->sub[t];
      if (t == LAB_WL_LOAD || t == LAB_WL_AGGREGATE || (mx->s.count[t] == 0 && t != LAB_WL_ROW)) {
         continue;
      }
      /* the row sub-layout also serves the loads (options, the row view) */
      ok = lab_scan_wl_layout_init (sub, sess, (lab_scan_wl_kind_t)t, mx->mode, &mx->o1, l, &mx->in, error);
      sub->skip = mx->skip;
      sub->nskip = mx->nskip;
      sub->by_id = mx->updated;
      sub->nby_id = mx->nupdated;
      if (lab_scan_wl_is_write ((lab_scan_wl_kind_t)t) && p->backend == LAB_BACKEND_MONGO) {
         sub->server = p->store;
         sub->positional = mx->mode == LAB_WL_MODE_SERVER;
      }
   }
   lab_store_session_close (sess);
   return ok;
}

/* layout_cleanup -- free what ml owns. */
static void
layout_cleanup (mix_layout_t *ml)
{
   int t;

   for (t = 0; t < LAB_WL_NKINDS; t++) {
      lab_scan_wl_layout_cleanup (&ml->sub[t]);
   }
   bson_free (ml->lat_ms);
   bson_free (ml->svc_ms);
   bson_free (ml->start_ns);
   bson_free (ml->rows);
   bson_free (ml->done);
   pthread_mutex_destroy (&ml->mu);
   pthread_cond_destroy (&ml->cv);
}

/* write_costs -- after the stream: the journal and eviction bytes it cost, then (embedded) a checkpoint
 * forced as wl_write.c's workloads do, its bytes, and the device's writes since disk0. */
static bool
write_costs (lab_scan_plan_t *p, const lab_results_layout_t *l, const lab_scan_layout_measure_t *m,
             bool have0, const lab_scan_diskstats_t *disk0, mix_result_t *r, bson_error_t *error)
{
   lab_store_engine_stats_t ck0, ck1;
   lab_scan_diskstats_t after;
   bson_error_t err;

   r->journal_bytes = r->eviction_bytes = r->checkpoint_bytes = r->disk_write_bytes = -1;
   if (m->have_engine && m->engine_after.log_bytes_written >= 0 && m->engine_before.log_bytes_written >= 0) {
      r->journal_bytes = m->engine_after.log_bytes_written - m->engine_before.log_bytes_written;
   }
   if (m->have_engine && m->engine_after.block_write_bytes >= 0 && m->engine_before.block_write_bytes >= 0) {
      r->eviction_bytes = m->engine_after.block_write_bytes - m->engine_before.block_write_bytes;
   }
   if (p->backend == LAB_BACKEND_WT) {
      bool h = lab_store_engine_stats (p->store, &ck0, &err);
      if (!lab_store_flush (p->store, error)) {
         lab_error_prefix (error, "the checkpoint after the mix on %s", l->name);
         return false;
      }
      if (h && lab_store_engine_stats (p->store, &ck1, &err) && ck0.block_write_bytes >= 0) {
         r->checkpoint_bytes = ck1.block_write_bytes - ck0.block_write_bytes;
      }
   }
   if (have0 && lab_scan_diskstats_read (NULL, p->device, &after, &err)) {
      r->disk_write_bytes =
         (int64_t)((after.write_sectors - disk0->write_sectors) * LAB_DISKSTATS_SECTOR_BYTES);
   }
   return true;
}

/* per_type -- the per-op latencies, service times and rows summed up per type; the schedule's pace. */
static void
per_type (const mix_t *mx, const mix_layout_t *ml, mix_result_t *r)
{
   double *lat = bson_malloc0 (((size_t)mx->s.n + 1) * sizeof *lat);
   double *svc = bson_malloc0 (((size_t)mx->s.n + 1) * sizeof *svc);
   int t;

   for (t = 0; t < LAB_WL_NKINDS; t++) {
      int64_t i, n = 0;
      for (i = 0; i < mx->s.n; i++) {
         if (mx->s.type[i] == t) {
            lat[n] = ml->lat_ms[i];
            svc[n++] = ml->svc_ms[i];
            r->time_s[t] += ml->svc_ms[i] / 1e3; /* busy time: what the store spent, not the queueing */
            r->latency_s += ml->lat_ms[i] / 1e3;
            r->rows[t] += ml->rows[i];
         }
      }
      r->ops[t] = n;
      lab_scan_latency_summarize (lat, (size_t)n, &r->lat[t]);
      lab_scan_latency_summarize (svc, (size_t)n, &r->svc[t]);
   }
   if (mx->rate > 0) {
      lab_scan_mix_pace_summarize (mx->rate, ml->start_ns, mx->s.n, &r->pace);
   }
   bson_free (lat);
   bson_free (svc);
}

/* cpu_of -- the CPU the stream used: this process's, the store's (this process embedded, else the local
 * server's as the sampler read it; -1 when the server is not local), the machine's. */
static void
cpu_of (const lab_scan_plan_t *p, const mix_layout_t *ml, const lab_scan_layout_measure_t *m, mix_result_t *r)
{
   lab_scan_mix_cpu_t *c = &r->cpu;
   uint64_t t0 = atomic_load (&ml->t0_ns);

   c->elapsed_s = ml->end_ns > t0 && t0 > 0 ? (double)(ml->end_ns - t0) / 1e9 : -1;
   c->client_s = ml->client_cpu0_s >= 0 && ml->client_cpu1_s >= ml->client_cpu0_s
                    ? ml->client_cpu1_s - ml->client_cpu0_s
                    : -1;
   c->store_in_client = p->backend == LAB_BACKEND_WT;
   c->store_s = c->store_in_client ? c->client_s : m->cpu_s; /* the sampler's: mongod's when local */
   c->cores = (int)sysconf (_SC_NPROCESSORS_ONLN);
   c->machine_busy_s = ml->machine_busy0_s >= 0 && ml->machine_busy1_s >= ml->machine_busy0_s
                          ? ml->machine_busy1_s - ml->machine_busy0_s
                          : -1;
}

/* mark_writes -- right after the stream (failed or not: the data changed either way), the appends and
 * corrections it made recorded in the collection's marker; a recording error is the run's unless the stream
 * already failed. */
static bool
mark_writes (lab_scan_plan_t *p, const mix_t *mx, const mix_layout_t *ml, bool failed, bson_error_t *error)
{
   int64_t op, n[LAB_WL_NKINDS] = { 0 };
   bson_error_t err;

   for (op = 0; op < mx->s.n; op++) {
      n[mx->s.type[op]] += ml->done[op] == 1;
   }
   if (lab_scan_writes_mark (p, ml->layout->collection, "mix", n[LAB_WL_APPEND], n[LAB_WL_UPDATE], failed,
                             &err)) {
      return true;
   }
   if (failed) {
      lab_log_error ("%s", err.message); /* the first error is the run's */
      return false;
   }
   *error = err;
   return false;
}

/* run_layout -- the stream on layout li (cold as the workloads are), into *r. */
static bool
run_layout (lab_scan_plan_t *p, const mix_t *mx, size_t li, int run, int order, mix_result_t *r,
            bson_error_t *error)
{
   const lab_results_layout_t *l = &p->layouts.l[li];
   lab_scan_layout_measure_t m;
   lab_scan_wl_layout_t wl;
   mix_layout_t ml;
   lab_scan_diskstats_t disk0;
   bson_error_t err;
   lab_store_oplog_mark_t oplog0;
   bool ok, have0;

   memset (r, 0, sizeof *r);
   memset (&m, 0, sizeof m);
   ok = layout_init (p, mx, l, &ml, error);
   memset (&wl, 0, sizeof wl);
   wl.kind = LAB_WL_LOAD;
   wl.mode = mx->mode;
   wl.opts = &mx->o1;
   wl.layout = l;
   wl.array = lab_layout_doc_holds_many_rows (&l->desc);
   wl.in = &mx->in;
   wl.nitems = mx->s.n;
   wl.item_fn = mix_item;
   wl.item_ctx = &ml;
   wl.next = &ml.next;
   have0 = p->device && lab_scan_diskstats_read (NULL, p->device, &disk0, &err);
   lab_store_oplog_mark (p->store, &oplog0);
   ok = ok && lab_scan_layout_measure_wl (p, run, l, order, &wl, &m, error);
   if (ml.done && !mark_writes (p, mx, &ml, !ok, error)) {
      ok = false;
   }
   ok = ok && write_costs (p, l, &m, have0, &disk0, r, error);
   if (ok) {
      r->state = m.state;
      r->elapsed_s = m.elapsed_s;
      r->cpu_s = m.cpu_s;
      r->disk_read_bytes = m.have_disk ? (int64_t)m.disk.read_bytes : -1;
      r->disk_reads = m.have_disk ? (int64_t)m.disk.reads : -1;
      r->digest = m.wl.digest;
      r->writes = m.wl.writes;
      if (!lab_store_oplog_since (p->store, &oplog0, l->collection, &r->oplog_bytes, &r->oplog_entries,
                                  &err)) {
         bson_snprintf (r->oplog_note, sizeof r->oplog_note, "%s", err.message);
      }
      r->cold = m.cold;
      bson_strncpy (r->cold_reason, m.cold_reason, sizeof r->cold_reason);
      r->engine_cache_before = m.engine_cache_bytes_before;
      r->bg = m.background;
      per_type (mx, &ml, r);
      cpu_of (p, &ml, &m, r);
      lab_log_info ("mix %s: %lld operations in %.2f s", l->name, (long long)mx->s.n, r->elapsed_s);
   }
   lab_scan_layout_measure_cleanup (&m);
   layout_cleanup (&ml);
   return ok;
}

/* mix_round -- run `run` of the stream: every layout in the run's order (lab_scan_run_order), layout i's
 * result into all[i * runs + run - 1] and fig[same]. The stream is drawn for run 1 and, when it writes,
 * afresh for every later run from its own seed on the data as the earlier runs left it (wl_runs.c says
 * why). */
static bool
mix_round (lab_scan_plan_t *p, mix_t *mx, int run, int runs, mix_result_t *all, lab_scan_wl_run_t *fig,
           bson_error_t *error)
{
   const lab_scan_opts_t *o = p->opts;
   size_t n = p->layouts.n, order[LAB_RESULTS_MAX_LAYOUTS], i, j;
   bool ok = true;

   if (run == 1 || o->wl.mix_weight[LAB_WL_APPEND] > 0 || o->wl.mix_weight[LAB_WL_UPDATE] > 0) {
      if (run > 1) {
         lab_scan_mix_inputs_cleanup (mx);
         memset (mx, 0, sizeof *mx);
      }
      ok = lab_scan_mix_draw (p, lab_scan_wl_run_seed (o->wl.seed, run), mx, error);
   }
   lab_scan_run_order (p->opts->order, run, n, order);
   for (i = 0; i < n && ok; i++) {
      j = order[i] * (size_t)runs + (size_t)run - 1;
      ok = run_layout (p, mx, order[i], run, (int)i + 1, &all[j], error);
      fig[j] = (lab_scan_wl_run_t){ run, (int)i + 1,   all[j].elapsed_s, -1, -1, all[j].disk_read_bytes,
                                    -1,  all[j].digest };
   }
   return ok;
}

/* mix_combine -- one layout's runs[0..n) as its entry: run 1's, its times and bytes read the runs' medians.
 */
static void
mix_combine (const mix_result_t *runs, int n, mix_result_t *out)
{
   double *v = bson_malloc0 (3 * (size_t)n * sizeof *v);
   int k;

   *out = runs[0];
   for (k = 0; k < n; k++) {
      v[k] = runs[k].elapsed_s;
      v[n + k] = runs[k].cpu_s;
      v[2 * n + k] = (double)runs[k].disk_read_bytes;
   }
   out->elapsed_s = lab_scan_wl_median (v, n);
   out->cpu_s = lab_scan_wl_median (v + n, n);
   for (k = 0; k < n; k++) {
      v[k] = runs[k].latency_s; /* an open loop's score (lab_scan_mix_score) */
   }
   out->latency_s = lab_scan_wl_median (v, n);
   out->disk_read_bytes = (int64_t)lab_scan_wl_median (v + 2 * n, n);
   bson_free (v);
}

/* lab_scan_mix_run -- see wl_mix.h: the stream --runs times (mix_round), recorded with each layout's runs
 * and their medians. */
bool
lab_scan_mix_run (lab_scan_plan_t *p, bson_t *results, bson_error_t *error)
{
   size_t n = p->layouts.n, i, j, win = 0, bad = 0;
   int runs = p->opts->runs > 0 ? p->opts->runs : 1, run;
   mix_result_t res[LAB_RESULTS_MAX_LAYOUTS], *all = bson_malloc0 ((size_t)runs * n * sizeof *all);
   lab_scan_wl_run_t *fig = bson_malloc0 ((size_t)runs * n * sizeof *fig);
   double *t = bson_malloc0 ((size_t)runs * n * sizeof *t);
   mix_t mx;
   lab_scan_wl_outcome_t oc = { LAB_WIN_NONE, "" };
   bool ok = true, equal = true;

   memset (&mx, 0, sizeof mx);
   memset (res, 0, sizeof res);
   for (run = 1; run <= runs && ok; run++) {
      ok = mix_round (p, &mx, run, runs, all, fig, error);
   }
   if (ok) {
      for (j = 0; j < (size_t)runs * n; j++) {
         const mix_result_t *a = &all[j % (size_t)runs], *b = &all[j]; /* layout 0 in the same run */
         t[j] = lab_scan_mix_score (&mx, b);
         if (equal && (b->digest != a->digest || b->writes != a->writes)) {
            equal = false;
            bad = j;
         }
      }
      for (i = 0; i < n; i++) {
         mix_combine (&all[i * (size_t)runs], runs, &res[i]);
      }
      win = lab_scan_wl_winner (n, runs, t, &oc);
      lab_scan_mix_record (results, p, &mx, res, win, &oc, equal, fig, runs);
      if (!equal) {
         const mix_result_t *a = &all[bad % (size_t)runs], *b = &all[bad];
         lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_RESULTS_DIFFER,
                        "the mix: %s read and wrote other rows (digest %016llx, %lld writes) than %s (digest "
                        "%016llx, %lld writes), so the layouts do not hold the same data",
                        p->layouts.l[bad / (size_t)runs].name, (unsigned long long)b->digest,
                        (long long)b->writes, p->layouts.l[0].name, (unsigned long long)a->digest,
                        (long long)a->writes);
         ok = false;
      }
   }
   lab_scan_mix_inputs_cleanup (&mx);
   bson_free (all);
   bson_free (fig);
   bson_free (t);
   return ok;
}
