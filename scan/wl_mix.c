/*
 * wl_mix.c -- the user's mix (wl_mix.h, issue 24): its inputs drawn from the data by --seed, the stream
 * run on one layout through the per-operation executors the workloads use (wl_exec.c's queries,
 * wl_write.c's writes, one operation at a time), the write costs, and the results' "mix" object; --runs
 * times, each run's layouts in lab_scan_run_order's order (a writing stream drawn afresh per run).
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
#include "scan/wl_mix.h"
#include "scan/wl_runs.h"

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

/* The inputs of one stream, the same for every layout. */
typedef struct {
   lab_scan_opts_t o1; /* the options with the inputs' counts (row_batch 1: one row per row op) */
   lab_scan_mix_stream_t s;
   lab_scan_wl_inputs_t in;
   int64_t *input[LAB_WL_NKINDS]; /* the writes: the type's k-th op takes input[t][k] (grouped order) */
   int64_t *prev;                 /* per op: the master's previous write in the stream (-1: none) */
   uint64_t *skip;                /* the row hashes of the appended rows, sorted */
   int64_t nskip;
   uint64_t *updated; /* lab_scan_wl_id_hash (key, NULL) of the masters the stream corrects, sorted */
   int64_t nupdated;
   lab_scan_wl_mode_t mode;
   double rate; /* --mix-rate: ops per second (0: closed loop) */
} mix_t;

/* One layout's run of the stream: what the workers share. */
typedef struct {
   const mix_t *mx;
   const lab_results_layout_t *layout;
   lab_scan_wl_layout_t sub[LAB_WL_NKINDS]; /* row, range, append, update on this layout */
   double *lat_ms;                          /* per op: its latency (open loop: from its intended start) */
   double *svc_ms;                          /* per op: its service time (from its actual start) */
   uint64_t *start_ns;                      /* per op: its actual start, from the stream's t0 */
   _Atomic int64_t next;                    /* the next op a free worker takes */
   _Atomic uint64_t t0_ns;                  /* the stream's start (0: no op taken yet) */
   _Atomic int64_t ndone;                   /* ops ended */
   uint64_t end_ns;                         /* the last op's end (set by the worker that ends it) */
   double client_cpu0_s, client_cpu1_s;     /* this process's CPU at t0 and at end_ns */
   double machine_busy0_s, machine_busy1_s; /* the machine's busy CPU at t0 and at end_ns */
   int64_t *rows;                           /* per op: rows read or written */
   uint8_t *done;                           /* per op: finished (the writes' order) */
   pthread_mutex_t mu;
   pthread_cond_t cv;
   bool abort;
   int64_t finished; /* writes finished (progress, for the stall check) */
} mix_layout_t;

/* What one layout's stream cost. */
typedef struct {
   double elapsed_s, cpu_s;
   int64_t disk_read_bytes, disk_reads, disk_write_bytes, journal_bytes, eviction_bytes, checkpoint_bytes;
   int64_t ops[LAB_WL_NKINDS], rows[LAB_WL_NKINDS];
   double time_s[LAB_WL_NKINDS];
   lab_scan_latency_summary_t lat[LAB_WL_NKINDS]; /* open loop: from the intended starts */
   lab_scan_latency_summary_t svc[LAB_WL_NKINDS]; /* from the actual starts */
   double latency_s;                              /* every op's latency summed */
   lab_scan_mix_pace_t pace;                      /* open loop: how it kept the schedule */
   lab_scan_mix_cpu_t cpu;
   uint64_t digest;
   int64_t writes;
   lab_scan_state_t state; /* the collection when the stream started */
   bool cold;
   char cold_reason[256];
   int64_t engine_cache_before;
   lab_scan_background_t bg;
   int64_t oplog_bytes, oplog_entries; /* the layout's oplog entries over the stream (-1 unknown, §26) */
   char oplog_note[300];               /* why unknown ("" known) */
} mix_result_t;

/* ---- inputs -------------------------------------------------------------------------------------- */

/* input_order -- the writes `ws` (grouped by master, each master's in draw order) handed to the type's
 * ops: a seeded shuffle of the masters' turns (master g appears as many times as it has writes), the k-th
 * op taking its master's next write. The masters' order is as random as the draw's, their own writes
 * stay in line order. */
static int64_t *
input_order (const lab_scan_wl_writes_t *ws, uint64_t seed)
{
   int64_t *turn = bson_malloc0 (((size_t)ws->n + 1) * sizeof *turn);
   int64_t *next = bson_malloc0 (((size_t)ws->ngroups + 1) * sizeof *next);
   int64_t *out = bson_malloc0 (((size_t)ws->n + 1) * sizeof *out), g, i, at = 0;
   uint64_t rng = seed;

   for (g = 0; g < ws->ngroups; g++) {
      next[g] = ws->group[g];
      for (i = ws->group[g]; i < ws->group[g + 1]; i++) {
         turn[at++] = g;
      }
   }
   for (i = ws->n - 1; i > 0; i--) {
      int64_t j = (int64_t)(lab_scan_rand64 (&rng) % (uint64_t)(i + 1)), t = turn[i];
      turn[i] = turn[j];
      turn[j] = t;
   }
   for (i = 0; i < ws->n; i++) {
      out[i] = next[turn[i]]++;
   }
   bson_free (turn);
   bson_free (next);
   return out;
}

/* One write op for the ordering sort: its master's hash, its place in the stream. */
typedef struct {
   uint64_t h;
   int64_t op;
} wkey_t;

/* wkey_cmp -- by master hash, then stream order. */
static int
wkey_cmp (const void *a, const void *b)
{
   const wkey_t *x = a, *y = b;
   if (x->h != y->h) {
      return x->h < y->h ? -1 : 1;
   }
   return (x->op > y->op) - (x->op < y->op);
}

/* u64_cmp -- ascending. */
static int
u64_cmp (const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return (x > y) - (x < y);
}

/* mix_write_of -- the write op `op` of the stream (NULL: a read). */
static const lab_scan_wl_write_t *
mix_write_of (const mix_t *mx, int64_t op)
{
   int t = mx->s.type[op];
   if (t == LAB_WL_APPEND) {
      return &mx->in.append.w[mx->input[t][mx->s.index[op]]];
   }
   if (t == LAB_WL_UPDATE) {
      return &mx->in.update.w[mx->input[t][mx->s.index[op]]];
   }
   return NULL;
}

/* mix_orders -- the writes' inputs per op, the masters' write order (prev) and the appended rows' hashes. */
static void
mix_orders (mix_t *mx)
{
   wkey_t *ks = bson_malloc0 (((size_t)mx->s.n + 1) * sizeof *ks);
   int64_t i, nk = 0;

   mx->input[LAB_WL_APPEND] = input_order (&mx->in.append, mx->o1.wl.seed ^ 0x6d6978617070ull);
   mx->input[LAB_WL_UPDATE] = input_order (&mx->in.update, mx->o1.wl.seed ^ 0x6d6978757064ull);
   mx->prev = bson_malloc0 (((size_t)mx->s.n + 1) * sizeof *mx->prev);
   for (i = 0; i < mx->s.n; i++) {
      const lab_scan_wl_write_t *w = mix_write_of (mx, i);
      mx->prev[i] = -1;
      if (w) {
         ks[nk].h = lab_scan_wl_id_hash (&w->key, NULL);
         ks[nk++].op = i;
      }
   }
   qsort (ks, (size_t)nk, sizeof *ks, wkey_cmp);
   for (i = 1; i < nk; i++) {
      if (ks[i].h == ks[i - 1].h) {
         mx->prev[ks[i].op] = ks[i - 1].op;
      }
   }
   bson_free (ks);
   /* an appended row by content, and by (key, _id) as a read of an updated master hashes it */
   mx->skip = bson_malloc0 (((size_t)mx->in.append.n * 2 + 1) * sizeof *mx->skip);
   for (i = 0; i < mx->in.append.n; i++) {
      mx->skip[2 * i] = lab_scan_wl_write_hash (&mx->in.append.w[i], mx->o1.wl.sum_field);
      mx->skip[2 * i + 1] = lab_scan_wl_id_hash (&mx->in.append.w[i].key, &mx->in.append.w[i].id);
   }
   mx->nskip = mx->in.append.n * 2;
   qsort (mx->skip, (size_t)mx->nskip, sizeof *mx->skip, u64_cmp);
   /* the masters the stream corrects: whether a read saw a correction depends on the timing, so their
    * rows are read by (key, _id), not content (the corrections are in the digest as writes) */
   mx->updated = bson_malloc0 (((size_t)mx->in.update.n + 1) * sizeof *mx->updated);
   for (i = 0; i < mx->in.update.n; i++) {
      mx->updated[i] = lab_scan_wl_id_hash (&mx->in.update.w[i].key, NULL);
   }
   mx->nupdated = mx->in.update.n;
   qsort (mx->updated, (size_t)mx->nupdated, sizeof *mx->updated, u64_cmp);
}

/* mix_draw -- the stream and its inputs: rows for the row ops then the loads' masters (then the windows
 * start at the first rows' times, as the range workload's), the appends and corrections, all drawn by the
 * workloads' own drawers from --seed with the stream's counts. */
static bool
mix_draw (lab_scan_plan_t *p, mix_t *mx, bson_error_t *error)
{
   const lab_results_layouts_t *ls = &p->layouts;
   const lab_results_layout_t *from = &ls->l[ls->reference], *rows = NULL;
   const int64_t *c;
   lab_store_session_t *sess;
   unsigned set = 0;
   size_t i;
   bool ok;

   mx->o1 = *p->opts;
   lab_scan_mix_stream_make (p->opts->wl.mix_weight, p->opts->wl.mix_ops, p->opts->wl.seed, &mx->s);
   c = mx->s.count;
   mx->o1.wl.row_batch = 1;
   mx->o1.wl.row_keys = c[LAB_WL_ROW] + c[LAB_WL_LOAD];
   mx->o1.wl.range_windows = c[LAB_WL_RANGE];
   mx->o1.wl.append_rows = c[LAB_WL_APPEND];
   mx->o1.wl.update_rows = c[LAB_WL_UPDATE];
   set |= mx->o1.wl.row_keys > 0 ? 1u << LAB_WL_ROW : 0;
   set |= c[LAB_WL_RANGE] > 0 ? 1u << LAB_WL_RANGE : 0;
   set |= c[LAB_WL_APPEND] > 0 ? 1u << LAB_WL_APPEND : 0;
   set |= c[LAB_WL_UPDATE] > 0 ? 1u << LAB_WL_UPDATE : 0;
   mx->mode =
      p->backend == LAB_BACKEND_MONGO && !p->info.query_subset ? LAB_WL_MODE_SERVER : LAB_WL_MODE_TOOL;
   for (i = 0; i < ls->n; i++) {
      if (lab_layout_one_doc_per_master (&ls->l[i].desc) && from == &ls->l[ls->reference]) {
         from = &ls->l[i]; /* one fetch per master */
      }
      if (lab_layout_reads_rows (&ls->l[i].desc) && !rows) {
         rows = &ls->l[i];
      }
   }
   sess = lab_store_session_open (p->store, error);
   if (!sess) {
      return false;
   }
   lab_log_info ("the mix: %lld operations (seed %llu), drawing their inputs", (long long)mx->s.n,
                 (unsigned long long)mx->o1.wl.seed);
   ok = lab_scan_wl_inputs_draw (sess, &mx->o1, set, from, p->keys, p->nkeys, &mx->in, error) &&
        lab_scan_wl_writes_draw (sess, &mx->o1, set, rows, p->keys, p->nkeys, &mx->in, error);
   lab_store_session_close (sess);
   if (!ok) {
      lab_error_prefix (error, "--mix");
      return false;
   }
   mx->in.nrows = c[LAB_WL_ROW]; /* the loads' masters follow the row ops' rows */
   mix_orders (mx);
   mx->rate = p->opts->wl.mix_rate;
   return true;
}

/* mix_cleanup -- free what mx owns. */
static void
mix_cleanup (mix_t *mx)
{
   lab_scan_wl_writes_cleanup (&mx->in.append);
   lab_scan_wl_writes_cleanup (&mx->in.update);
   lab_scan_wl_inputs_cleanup (&mx->in);
   lab_scan_mix_stream_cleanup (&mx->s);
   bson_free (mx->input[LAB_WL_APPEND]);
   bson_free (mx->input[LAB_WL_UPDATE]);
   bson_free (mx->prev);
   bson_free (mx->skip);
   bson_free (mx->updated);
}

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

/* score -- what names the winner: the elapsed time of a closed loop (the faster drains the stream
 * sooner); an open loop's elapsed time is the schedule's, so its latencies summed (the lower keeps the
 * offered load waiting less). */
static double
score (const mix_t *mx, const mix_result_t *r)
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
   BSON_APPEND_DOUBLE (&d, "x_vs_winner", best > 0 ? round_to (score (mx, r) / best, 3) : -1);
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

/* append_mix -- the "mix" object (docs/results-schema.md "The mix"). */
static void
append_mix (bson_t *results, const lab_scan_plan_t *p, const mix_t *mx, const mix_result_t *res, size_t win,
            const lab_scan_wl_outcome_t *oc, bool equal, const lab_scan_wl_run_t *fig, int runs)
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
         BSON_APPEND_INT64 (&pr, lab_scan_wl_name ((lab_scan_wl_kind_t)t), o->wl.mix_weight[t]);
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
      append_layout (&la, i, mx, &p->layouts.l[i], &res[i], score (mx, &res[win]), &fig[i * (size_t)runs],
                     runs);
   }
   bson_append_array_end (&m, &la);
   bson_append_document_end (results, &m);
}

/* mix_round -- run `run` of the stream: every layout in the run's order (lab_scan_run_order), layout i's
 * result into all[i * runs + run - 1] and fig[same]. The stream is drawn for run 1 and, when it writes,
 * afresh for every later run from its own seed on the data as the earlier runs left it (wl_runs.c says
 * why). */
static bool
mix_round (lab_scan_plan_t *p, mix_t *mx, int run, int runs, mix_result_t *all, lab_scan_wl_run_t *fig,
           bson_error_t *error)
{
   const lab_scan_opts_t *keep = p->opts;
   lab_scan_opts_t o = *keep;
   size_t n = p->layouts.n, order[LAB_RESULTS_MAX_LAYOUTS], i, j;
   bool ok = true;

   if (run == 1 || o.wl.mix_weight[LAB_WL_APPEND] > 0 || o.wl.mix_weight[LAB_WL_UPDATE] > 0) {
      if (run > 1) {
         mix_cleanup (mx);
         memset (mx, 0, sizeof *mx);
      }
      o.wl.seed = lab_scan_wl_run_seed (keep->wl.seed, run);
      p->opts = &o;
      ok = mix_draw (p, mx, error);
      p->opts = keep;
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
      v[k] = runs[k].latency_s; /* an open loop's score (score ()) */
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
         t[j] = score (&mx, b);
         if (equal && (b->digest != a->digest || b->writes != a->writes)) {
            equal = false;
            bad = j;
         }
      }
      for (i = 0; i < n; i++) {
         mix_combine (&all[i * (size_t)runs], runs, &res[i]);
      }
      win = lab_scan_wl_winner (n, runs, t, &oc);
      append_mix (results, p, &mx, res, win, &oc, equal, fig, runs);
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
   mix_cleanup (&mx);
   bson_free (all);
   bson_free (fig);
   bson_free (t);
   return ok;
}
