/*
 * measure.c -- one run of one layout, measured (see measure.h): the cold step, how cold the layout
 * really was, then the sampler and the workers (one contiguous key segment and one store session each,
 * through core/workers.h) draining every document. What was seen lands in a lab_scan_layout_measure_t;
 * record.c turns it into the results entry.
 */
#include "scan/measure/measure.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"
#include "core/workers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* lab_scan_utc_now -- see measure.h. */
void
lab_scan_utc_now (char *buf, size_t len)
{
   time_t t = time (NULL);
   struct tm tm;
   gmtime_r (&t, &tm);
   strftime (buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- workers ------------------------------------------------------------------------------------- */

typedef struct {
   lab_store_t *store;
   const lab_scan_opts_t *opts;
   const char *coll;
   bool folded;    /* the rows are the elements of each document's array (folded and buckets layouts) */
   bool clustered; /* a clustered collection: a master's rows by an _id range, no key index */
   const bson_value_t *keys;
   const int64_t *perm; /* random order: position k loads keys[perm[k]] (NULL: keys[k]) */
   int64_t first, end, stride;
   lab_scan_live_t *live;
   lab_progress_t *progress;
   const lab_scan_wl_layout_t *wl; /* a workload's items instead of keys (NULL: the load) */
   lab_scan_wl_acc_t acc;          /* what the workload's queries returned */
   /* results */
   double *lat_ms;
   int64_t nlat;
   int64_t docs, rows, bytes;
   int64_t unmatched; /* keys whose lookup returned no document */
   uint64_t decoded;  /* --decode's checksum (kept so the work is done) */
   uint64_t digest;   /* the sum of the returned rows' content digests (lab_scan_rowhash) */
   lab_scan_rowhash_t rh;
   uint64_t elapsed_ns;
} worker_t;

typedef struct {
   worker_t *w;
   int64_t docs, rows, bytes;
} doc_ctx_t;

/* on_doc -- count a document, its bytes and its rows (the folded array's elements), each row's content
 * digest summed (inside the timed load, as the mix's load op does: every layout does the same work). */
static bool
on_doc (const bson_t *doc, void *ctx)
{
   doc_ctx_t *c = ctx;
   worker_t *w = c->w;

   c->docs++;
   c->bytes += doc->len;
   w->decoded += lab_scan_decode (doc, w->opts->decode);
   lab_scan_rowhash_doc (&w->rh, doc);
   if (w->folded) {
      bson_iter_t it, child;
      if (bson_iter_init_find (&it, doc, w->opts->array_field) && BSON_ITER_HOLDS_ARRAY (&it) &&
          bson_iter_recurse (&it, &child)) {
         while (bson_iter_next (&child)) {
            const uint8_t *data;
            uint32_t len;
            bson_t elem;
            c->rows++;
            if (BSON_ITER_HOLDS_DOCUMENT (&child)) {
               bson_iter_document (&child, &len, &data);
               if (bson_init_static (&elem, data, len)) {
                  w->digest += lab_scan_rowhash (&w->rh, &elem);
               }
            }
         }
      }
   } else {
      c->rows++;
      w->digest += lab_scan_rowhash (&w->rh, NULL);
   }
   return true;
}

/* worker_main -- query {key: value} for each key of the segment and drain every document; a worker of
 * the pool (its failure stops the others through stop_workers). */
static bool
worker_main (void *arg, int index, bson_error_t *error)
{
   worker_t *w = arg;
   lab_store_session_t *sess;
   uint64_t t_start = lab_now_ns ();
   int64_t k;
   bool ok = true;

   (void)index;
   sess = lab_store_session_open (w->store, error);
   if (!sess) {
      return false;
   }
   for (k = w->first;; k += w->stride) {
      doc_ctx_t c = { w, 0, 0, 0 };
      const bson_value_t *key;
      uint64_t t0;

      if (w->wl && w->wl->next) {
         k = atomic_fetch_add (w->wl->next, 1); /* the mix: the next op of the stream, whoever is free */
      }
      if (k >= (w->wl && w->wl->next ? w->wl->nitems : w->end) || atomic_load (&w->live->stop)) {
         break;
      }
      key = w->wl ? NULL : w->perm ? &w->keys[w->perm[k]] : &w->keys[k];
      t0 = lab_now_ns ();
      if (w->wl) {
         lab_scan_wl_acc_t before = w->acc;
         if (!lab_scan_wl_item (w->wl, sess, k, &w->acc, error)) {
            ok = false;
            break;
         }
         w->lat_ms[w->nlat++] = (double)(lab_now_ns () - t0) / 1e6;
         atomic_fetch_add (&w->live->keys, 1);
         atomic_fetch_add (&w->live->docs, w->acc.docs - before.docs);
         atomic_fetch_add (&w->live->rows, w->acc.rows - before.rows);
         atomic_fetch_add (&w->live->bytes, w->acc.doc_bytes - before.doc_bytes);
         lab_progress_add (w->progress, 1, (uint64_t)(w->acc.doc_bytes - before.doc_bytes));
         continue;
      }
      if (!lab_scan_master_find (sess, w->coll, w->clustered, w->opts->key, key, on_doc, &c, NULL, error)) {
         char kb[128];
         lab_value_text (key, kb, sizeof kb);
         lab_error_prefix (error, "collection %s, %s %s", w->coll, w->opts->key, kb);
         ok = false;
         break;
      }
      w->lat_ms[w->nlat++] = (double)(lab_now_ns () - t0) / 1e6;
      w->docs += c.docs;
      w->rows += c.rows;
      w->unmatched += c.docs == 0;
      w->bytes += c.bytes;
      atomic_fetch_add (&w->live->keys, 1);
      atomic_fetch_add (&w->live->docs, c.docs);
      atomic_fetch_add (&w->live->rows, c.rows);
      atomic_fetch_add (&w->live->bytes, c.bytes);
      lab_progress_add (w->progress, 1, (uint64_t)c.bytes);
   }
   w->elapsed_ns = lab_now_ns () - t_start;
   lab_scan_rowhash_cleanup (&w->rh);
   lab_store_session_close (sess);
   return ok;
}

/* stop_workers -- the pool's stop callback: every worker ends after its current key. */
static void
stop_workers (void *ctx)
{
   lab_scan_live_t *live = ctx;
   atomic_store (&live->stop, true);
}

/* ---- the cold step ------------------------------------------------------------------------------- */

typedef struct {
   const lab_scan_opts_t *opts;
   lab_store_backend_t backend;
   bool server_local;
   const char *restart_shown;
   bool dropped;
   bool restarted_cmd;
   char drop_note[512];
} cycle_ctx_t;

/* cycle_hook -- while the store is closed: run the restart command, drop the page cache. */
static bool
cycle_hook (lab_store_t *store, void *arg, bson_error_t *error)
{
   cycle_ctx_t *c = arg;

   (void)store;
   if (c->backend == LAB_BACKEND_MONGO && c->opts->restart_cmd) {
      lab_log_debug ("running the restart command: %s", c->restart_shown);
      if (!lab_scan_run_command (c->opts->restart_cmd, c->restart_shown, c->opts->restart_timeout_ms,
                                 error)) {
         return false;
      }
      c->restarted_cmd = true;
   }
   if (c->backend == LAB_BACKEND_MONGO && !c->server_local) {
      if (c->opts->restart_drops_caches && c->restarted_cmd) {
         /* the user's word: the restart command drops the server's page cache itself (e.g. over ssh) */
         c->dropped = true;
         snprintf (c->drop_note, sizeof c->drop_note,
                   "dropped by the restart command (--restart-drops-caches; not checked from here)");
         return true;
      }
      snprintf (c->drop_note, sizeof c->drop_note, "not possible: the server is not on this machine");
      if (c->opts->drop_caches == LAB_DROP_YES) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_PERMISSION,
                        "--drop-caches yes: the server is not on this machine, so its page cache cannot be "
                        "dropped from here; drop it in --restart-cmd and use --drop-caches no");
         return false;
      }
      if (c->opts->drop_caches == LAB_DROP_NO) {
         snprintf (c->drop_note, sizeof c->drop_note, "not requested (--drop-caches no)");
      }
      return true;
   }
   return lab_scan_drop_caches (c->opts->drop_caches, &c->dropped, c->drop_note, sizeof c->drop_note, error);
}

/* first_doc -- stop after the first document: one is enough to know the server serves reads. */
static bool
first_doc (const bson_t *doc, void *ctx)
{
   (void)doc;
   (void)ctx;
   return false;
}

/* ready_read -- the member the reads go to serving a read of the collection (a replica set's other
 * members, or a router, answer ping before it does): find_eq of the first key until it succeeds or
 * ready_timeout_ms passes. */
static bool
ready_read (const lab_scan_plan_t *p, const char *coll, bson_error_t *error)
{
   uint64_t deadline =
      lab_now_ns () +
      (uint64_t)(p->opts->ready_timeout_ms > 0 ? p->opts->ready_timeout_ms : 60000) * 1000000ull;
   for (;;) {
      lab_store_session_t *sess = lab_store_session_open (p->store, error);
      bool ok =
         sess && lab_scan_find_master (sess, coll, p->opts->key, &p->keys[0], first_doc, NULL, NULL, error);
      if (sess) {
         lab_store_session_close (sess);
      }
      if (ok) {
         return true;
      }
      if (lab_now_ns () >= deadline) {
         lab_error_prefix (error, "the server did not serve a read of %s within %.0f s after the cold step",
                           coll, p->opts->ready_timeout_ms / 1000.0);
         return false;
      }
      nanosleep (&(struct timespec){ 0, 200 * 1000 * 1000 }, NULL);
   }
}

/* proc_of -- what restart detection compares of a server (serverfacts.h). */
static lab_store_facts_proc_t
proc_of (const lab_store_server_info_t *i)
{
   lab_store_facts_proc_t p;

   memset (&p, 0, sizeof p);
   bson_strncpy (p.host, i->host, sizeof p.host);
   p.pid = i->pid;
   p.start_ms = i->start_ms;
   p.uptime_s = (double)i->uptime_s;
   return p;
}

/* targets_after -- per followed server (mongos: each shard) its facts after the cold step and whether it
 * restarted (the same member with a new start time or pid) or another member answered, into m->targets. */
static void
targets_after (const lab_scan_plan_t *p, const lab_store_server_info_t *before, lab_scan_layout_measure_t *m)
{
   size_t i;

   m->ntargets = p->topo->ntargets;
   m->topology_targets = p->backend == LAB_BACKEND_MONGO;
   for (i = 0; i < p->topo->ntargets; i++) {
      const lab_store_server_info_t *a = &p->topo->targets[i].info, *b = &before[i];
      lab_scan_target_measure_t *t = &m->targets[i];
      lab_store_facts_proc_t pb = proc_of (b), pa = proc_of (a);
      lab_store_facts_restart_t r;
      char why[512];

      bson_strncpy (t->name, p->topo->targets[i].name, sizeof t->name);
      bson_strncpy (t->host, p->topo->targets[i].host, sizeof t->host);
      t->pid = a->pid > 0 ? a->pid : -1;
      t->uptime_s = a->uptime_s;
      t->start_ms = a->start_ms;
      r = m->cold_requested ? lab_store_facts_restart_of (&pb, &pa, why, sizeof why) : LAB_RESTART_NONE;
      t->restarted = r == LAB_RESTART_SAME_HOST;
      t->member_changed = r == LAB_RESTART_MEMBER_CHANGED;
   }
}

/* cold_step -- with --cold: cycle the store (restart command, page cache drop) and see the server again
 * in *after; fills the cold facts of *m either way. */
static bool
cold_step (const lab_scan_plan_t *p, lab_scan_layout_measure_t *m, lab_store_server_info_t *after,
           bson_error_t *error)
{
   const lab_scan_opts_t *o = p->opts;
   lab_store_server_info_t before[LAB_SCAN_MAX_TARGETS];
   cycle_ctx_t cc;
   size_t i;

   memset (&cc, 0, sizeof cc);
   *after = p->info;
   for (i = 0; i < p->topo->ntargets; i++) {
      before[i] = p->topo->targets[i].info;
   }
   if (o->cold) {
      cc.opts = o;
      cc.backend = p->backend;
      cc.server_local = p->info.local;
      cc.restart_shown = p->restart_shown;
      lab_log_info ("run %d %s: making it cold", m->run, m->layout);
      if (!lab_store_cycle (p->store, cycle_hook, &cc, o->ready_timeout_ms, error)) {
         if (lab_error_is (error, LAB_ERROR_STORE, LAB_STORE_ERR_UNREACHABLE)) {
            lab_error_prefix (error,
                              "run %d %s: the server did not answer ping within %.0f s after the cold "
                              "step%s (raise --ready-timeout or fix --restart-cmd)",
                              m->run, m->layout, o->ready_timeout_ms / 1000.0,
                              cc.restarted_cmd ? " and the restart command" : "");
         } else {
            lab_error_prefix (error, "run %d %s: cold step", m->run, m->layout);
         }
         return false;
      }
      if (!lab_scan_server_info (p->store, after, error) ||
          (p->backend == LAB_BACKEND_MONGO &&
           !lab_scan_topology_wait (p->topo, o->ready_timeout_ms, error)) ||
          (p->backend == LAB_BACKEND_MONGO && !ready_read (p, m->collection, error))) {
         lab_error_prefix (error, "run %d %s: after the cold step", m->run, m->layout);
         return false;
      }
      if (p->backend == LAB_BACKEND_MONGO && p->topo->kind != LAB_TOPO_MONGOS &&
          !lab_scan_server_info (p->store, after, error)) {
         return false;
      }
      lab_log_debug ("run %d %s: page cache %s", m->run, m->layout, cc.drop_note);
   }
   m->cold_requested = o->cold;
   /* embedded: the cold step closes and reopens the engine; a server restarted when the same member has
    * a new process (start time, pid); another member answering is no restart of the one seen before */
   if (p->backend == LAB_BACKEND_MONGO && o->cold && p->topo->kind != LAB_TOPO_MONGOS) {
      p->topo->targets[0].info = *after;
   }
   targets_after (p, before, m);
   if (p->topo->kind == LAB_TOPO_MONGOS) {
      /* the router's pid says nothing of the data: a restart is a shard's */
      m->server_restarted = false;
      for (i = 0; i < m->ntargets; i++) {
         m->server_restarted = m->server_restarted || m->targets[i].restarted;
         if (m->targets[i].member_changed) {
            m->member_changed = true;
            bson_snprintf (
               m->restart_reason, sizeof m->restart_reason,
               "shard %s: another member answered (%s) than before the cold step: a failover; its "
               "cache is its own, so this run is not cold",
               m->targets[i].name, m->targets[i].host);
         }
      }
      m->restart = !o->cold              ? NULL
                   : m->member_changed   ? lab_store_facts_restart_name (LAB_RESTART_MEMBER_CHANGED)
                   : m->server_restarted ? lab_store_facts_restart_name (LAB_RESTART_SAME_HOST)
                                         : lab_store_facts_restart_name (LAB_RESTART_NONE);
   } else if (p->backend == LAB_BACKEND_MONGO && o->cold) {
      lab_store_facts_proc_t pb = proc_of (&p->info), pa = proc_of (after);
      lab_store_facts_restart_t r =
         lab_store_facts_restart_of (&pb, &pa, m->restart_reason, sizeof m->restart_reason);
      m->server_restarted = r == LAB_RESTART_SAME_HOST;
      m->member_changed = r == LAB_RESTART_MEMBER_CHANGED;
      m->restart = lab_store_facts_restart_name (r);
   }
   if (m->member_changed) {
      m->server_restarted = false;
      lab_log_info ("warning: run %d %s is NOT cold: %s", m->run, m->layout, m->restart_reason);
   }
   m->engine_restarted = p->backend == LAB_BACKEND_WT ? o->cold : m->server_restarted;
   m->caches_dropped = cc.dropped;
   bson_strncpy (m->drop_caches_note, o->cold ? cc.drop_note : "warm run: no cold step (--cold not given)",
                 sizeof m->drop_caches_note);
   m->server_facts = p->backend == LAB_BACKEND_MONGO;
   m->server_pid = after->pid > 0 ? after->pid : -1;
   m->server_uptime_s = after->uptime_s;
   m->server_start_ms = after->start_ms;
   bson_strncpy (m->member, after->host, sizeof m->member);
   if (p->topo->kind == LAB_TOPO_MONGOS) {
      /* the data's process is the shard's; with several shards see cold.shards */
      m->server_pid = m->ntargets == 1 ? m->targets[0].pid : -1;
      m->server_uptime_s = m->ntargets == 1 ? m->targets[0].uptime_s : -1;
      m->server_start_ms = m->ntargets == 1 ? m->targets[0].start_ms : -1;
      bson_strncpy (m->member, m->ntargets == 1 ? m->targets[0].host : "", sizeof m->member);
   }
   return true;
}

/* residency -- resident and total bytes of the layout's data files; -1 when unknown. */
static bool
residency (const lab_scan_plan_t *p, const char *coll, int64_t *resident, int64_t *total, bson_error_t *error)
{
   char **paths = NULL;
   bool ok;

   if (p->backend == LAB_BACKEND_WT) {
      if (!lab_store_data_files (p->store, coll, &paths, error)) {
         return false;
      }
   } else if (p->opts->dbpath && p->info.local) {
      if (!lab_scan_dir_files (p->opts->dbpath, &paths, error)) {
         lab_log_info ("residency unknown: %s", error->message);
         *resident = *total = -1;
         memset (error, 0, sizeof *error);
         return true;
      }
   } else {
      *resident = *total = -1;
      return true;
   }
   ok = lab_scan_resident_bytes (paths, resident, total, error);
   bson_strfreev (paths);
   if (!ok && p->backend == LAB_BACKEND_MONGO) {
      /* mongod creates its files 0600: residency that cannot be read is unknown, never fatal */
      lab_log_info ("residency unknown: %s", error->message);
      *resident = *total = -1;
      memset (error, 0, sizeof *error);
      return true;
   }
   return ok;
}

/* cold_verdict -- m->cold and m->cold_reason from what the cold step did: cold only when the engine's
 * cache was emptied (the embedded engine reopened, the server's process restarted) and the OS's too
 * (dropped, or at most LAB_RESULTS_COLD_MAX_RESIDENT_PCT of the files resident when measured). A server
 * whose page cache was dropped but whose process kept running still holds the data in its own cache. */
static void
cold_verdict (lab_scan_layout_measure_t *m)
{
   double pct = m->file_bytes > 0 ? 100.0 * (double)m->resident_bytes_before / (double)m->file_bytes : -1;
   bool os_empty = m->caches_dropped || (pct >= 0 && pct <= LAB_RESULTS_COLD_MAX_RESIDENT_PCT);

   m->cold = false;
   if (!m->cold_requested) {
      bson_strncpy (m->cold_reason, "warm run: --cold not given", sizeof m->cold_reason);
   } else if (m->member_changed) {
      bson_strncpy (m->cold_reason, m->restart_reason, sizeof m->cold_reason);
   } else if (!m->engine_restarted) {
      bson_strncpy (m->cold_reason,
                    m->caches_dropped ? "OS cache dropped, engine cache warm"
                                      : "OS cache not dropped, engine cache warm",
                    sizeof m->cold_reason);
   } else if (!os_empty) {
      if (pct >= 0) {
         bson_snprintf (m->cold_reason, sizeof m->cold_reason,
                        "engine cache emptied, OS cache warm: %.1f%% of the data files resident", pct);
      } else {
         bson_strncpy (m->cold_reason, "engine cache emptied, OS cache not dropped", sizeof m->cold_reason);
      }
   } else {
      m->cold = true;
      m->cold_reason[0] = '\0';
   }
}

/* engine_cache_before -- the collection's bytes in the engine cache now, just before the load: the
 * evidence of the engine half of cold (unknown, -1, where the store does not say). */
static void
engine_cache_before (const lab_scan_plan_t *p, lab_scan_layout_measure_t *m)
{
   bson_error_t err;
   lab_store_session_t *sess = lab_store_session_open (p->store, &err);

   m->engine_cache_bytes_before = -1;
   if (!sess || !lab_store_coll_cache_bytes (sess, m->collection, &m->engine_cache_bytes_before, &err)) {
      lab_log_info ("run %d %s: the engine cache's bytes of %s unknown: %s", m->run, m->layout, m->collection,
                    err.message);
      m->engine_cache_bytes_before = -1;
   }
   if (sess) {
      lab_store_session_close (sess);
   }
}

/* ---- the load ------------------------------------------------------------------------------------ */

/* log_share -- at -v, each worker's share of a random-order load: how many keys and the first ones, so
 * two runs can be seen to have dealt the keys alike (the same --seed) or not. */
static void
log_share (const lab_scan_plan_t *p, const worker_t *w, int i)
{
   char kb[3][64] = { "", "", "" };
   int64_t k, j = 0;

   if (!w->perm || !lab_log_enabled (LAB_LOG_DEBUG)) {
      return;
   }
   for (k = w->first; k < w->end && j < 3; k += w->stride, j++) {
      lab_value_text (&w->keys[w->perm[k]], kb[j], sizeof kb[j]);
   }
   lab_log_debug ("random order (seed %llu): worker %d loads %lld keys, first %s %s %s",
                  (unsigned long long)p->opts->wl.seed, i,
                  (long long)((w->end - w->first + w->stride - 1) / w->stride), kb[0], kb[1], kb[2]);
}

/* workers_new -- one worker per share of the keys (lab_scan_keys_share: a segment, or every parallel-th of
 * the shuffle) or per segment of the workload's items, each with room for its share's latencies. */
static worker_t *
workers_new (const lab_scan_plan_t *p, const char *coll, const lab_layout_t *desc,
             const lab_scan_wl_layout_t *wl, lab_scan_live_t *live, lab_progress_t *progress)
{
   int n = p->opts->parallel, i;
   worker_t *ws = bson_malloc0 ((size_t)n * sizeof *ws);
   int64_t *starts = bson_malloc0 ((size_t)(n + 1) * sizeof *starts);
   bool random = !wl && p->load_order == LAB_LOAD_ORDER_RANDOM && p->perm;

   if (wl) {
      lab_scan_wl_segments (wl, n, starts);
   }
   for (i = 0; i < n; i++) {
      worker_t *w = &ws[i];
      w->store = p->store;
      w->opts = p->opts;
      w->coll = coll;
      w->folded = lab_layout_doc_holds_many_rows (desc);
      w->clustered = lab_layout_read_by_id_range (desc);
      w->keys = p->keys;
      w->first = starts[i];
      w->end = starts[i + 1];
      w->stride = 1;
      if (!wl) {
         lab_scan_keys_share (random ? LAB_LOAD_ORDER_RANDOM : LAB_LOAD_ORDER_KEY, p->nkeys, n, i, &w->first,
                              &w->end, &w->stride);
         w->perm = random ? p->perm : NULL;
         log_share (p, w, i);
      }
      w->live = live;
      w->progress = progress;
      w->wl = wl;
      /* a shared counter: any worker may run every item; else its share, every stride-th key */
      w->lat_ms = bson_malloc0 (
         (size_t)(wl && wl->next ? wl->nitems + 1 : (w->end - w->first) / w->stride + 2) * sizeof (double));
      w->rh.key_field = p->opts->key;
      w->rh.array_field = p->opts->array_field;
   }
   bson_free (starts);
   return ws;
}

/* workers_totals -- the workers' counts, per worker and summed, and the latency summary into *m. */
static void
workers_totals (const worker_t *ws, int n, lab_scan_layout_measure_t *m)
{
   int64_t nlat = 0;
   double *lat;
   int i;

   m->workers = bson_malloc0 ((size_t)n * sizeof *m->workers);
   m->nworkers = n;
   for (i = 0; i < n; i++) {
      m->docs += ws[i].docs;
      m->rows += ws[i].rows;
      m->bytes_returned += ws[i].bytes;
      m->keys_unmatched += ws[i].unmatched;
      m->digest += ws[i].digest;
      nlat += ws[i].nlat;
      m->workers[i].keys = ws[i].nlat;
      m->workers[i].docs = ws[i].docs;
      m->workers[i].rows = ws[i].rows;
      m->workers[i].elapsed_s = (double)ws[i].elapsed_ns / 1e9;
   }
   lat = bson_malloc0 ((size_t)(nlat + 1) * sizeof *lat);
   nlat = 0;
   for (i = 0; i < n; i++) {
      memcpy (lat + nlat, ws[i].lat_ms, (size_t)ws[i].nlat * sizeof *lat);
      nlat += ws[i].nlat;
   }
   m->keys = nlat;
   for (i = 0; i < n; i++) {
      lab_scan_wl_acc_merge (&m->wl, &ws[i].acc);
   }
   lab_scan_latency_summarize (lat, (size_t)nlat, &m->latency);
   lab_scan_latency_histogram (lat, (size_t)nlat, m->histogram);
   bson_free (lat);
}

/* sampler_totals -- elapsed time, device delta, peaks and samples of the sampler into *m (the samples
 * move to *m). */
static void
sampler_totals (lab_scan_sampler_t *smp, lab_scan_layout_measure_t *m)
{
   m->elapsed_s = (double)(smp->last.t_ns - smp->start.t_ns) / 1e9;
   m->have_disk = smp->start.have_disk && smp->last.have_disk;
   if (m->have_disk) {
      lab_scan_diskstats_delta (&smp->start.disk, &smp->last.disk, m->elapsed_s, &m->disk);
   }
   m->server_rss_peak_bytes = smp->rss_peak_bytes;
   m->cache_peak_bytes = smp->cache_peak_bytes;
   m->cache_max_bytes = smp->cache_max_bytes;
   /* a process that changed under the load (a restart) reads less CPU at the end: unknown; rounded to
    * the nanosecond, the best precision of the sources (0.09 s, not 0.0899999...) */
   m->cpu_s = smp->start.cpu_s >= 0 && smp->last.cpu_s >= smp->start.cpu_s
                 ? round ((smp->last.cpu_s - smp->start.cpu_s) * 1e9) / 1e9
                 : -1;
   m->cpu_cores = smp->cpu_cores;
   /* the device's reads are this machine's only when its sampler read them (not a server's FTDC) */
   lab_scan_bg_delta (&smp->bg_start, &smp->bg_last, sysconf (_SC_CLK_TCK),
                      m->have_disk ? (int64_t)m->disk.read_bytes : -1, &m->background);
   m->samples = smp->samples;
   m->nsamples = smp->nsamples;
   smp->samples = NULL;
   smp->nsamples = smp->cap = 0;
}

/* server_disk_totals -- per followed server, the disk getDiagnosticData showed most read (or
 * --server-device) between the sampler's first and last FTDC samples; without local device figures, their
 * sum becomes the layout's disk figures. */
static void
server_disk_totals (const lab_scan_plan_t *p, const lab_scan_sampler_t *smp, lab_scan_layout_measure_t *m)
{
   lab_scan_diskstats_delta_t sum;
   bool any = false;
   size_t i;

   memset (&sum, 0, sizeof sum);
   m->ftdc_samples = smp->ftdc_samples;
   for (i = 0; i < smp->nftdc && i < m->ntargets; i++) {
      lab_scan_target_measure_t *t = &m->targets[i];
      lab_store_facts_disks_t a, b;
      const lab_store_facts_disk_t *da = NULL, *db = NULL;
      bson_error_t err;
      char reason[256];
      double dt;

      lab_scan_ftdc_view (&smp->ftdc_start[i], &a);
      lab_scan_ftdc_view (&smp->ftdc_last[i], &b);
      if (!smp->ftdc_start[i].have || !smp->ftdc_last[i].have) {
         lab_log_info ("run %d %s: %s: no getDiagnosticData disk figures", m->run, m->layout, t->name);
         continue;
      }
      if (!lab_store_facts_disks_pick (&a, &b, p->opts->server_device, &da, &db, reason, sizeof reason,
                                       &err)) {
         lab_log_info ("run %d %s: %s: %s", m->run, m->layout, t->name, err.message);
         continue;
      }
      dt = lab_store_facts_disks_elapsed_s (&a, &b);
      if (dt < 0) {
         dt = m->elapsed_s;
      }
      lab_store_facts_disk_delta (da, db, dt, &t->disk);
      t->have_disk = true;
      bson_strncpy (t->device, db->name, sizeof t->device);
      bson_strncpy (t->device_reason, reason, sizeof t->device_reason);
      any = true;
      sum.reads += t->disk.reads;
      sum.read_bytes += t->disk.read_bytes;
      sum.read_time_ms += t->disk.read_time_ms;
      sum.io_ticks_ms += t->disk.io_ticks_ms;
      if (t->disk.elapsed_s > sum.elapsed_s) {
         sum.elapsed_s = t->disk.elapsed_s;
      }
      if (t->disk.util_pct > sum.util_pct) {
         sum.util_pct = t->disk.util_pct;
      }
   }
   if (!any || m->have_disk) {
      return;
   }
   if (sum.elapsed_s > 0) {
      sum.reads_per_s = (double)sum.reads / sum.elapsed_s;
      sum.read_kb_s = (double)sum.read_bytes / 1024.0 / sum.elapsed_s;
      sum.read_mb_s = (double)sum.read_bytes / 1e6 / sum.elapsed_s;
   }
   sum.read_await_ms = sum.reads > 0 ? (double)sum.read_time_ms / (double)sum.reads : -1;
   sum.avg_read_bytes = sum.reads > 0 ? (double)sum.read_bytes / (double)sum.reads : -1;
   m->disk = sum;
   m->have_disk = true;
}

/* load -- the sampler and the workers over every key of the layout's collection (or every item of the
 * workload wl). */
static bool
load (const lab_scan_plan_t *p, const lab_scan_wl_layout_t *wl, int64_t rss_pid, lab_scan_layout_measure_t *m,
      bson_error_t *error)
{
   const lab_scan_opts_t *o = p->opts;
   lab_scan_sampler_t smp;
   lab_scan_live_t live;
   worker_t *ws;
   lab_workers_t pool = { worker_main, NULL, sizeof (worker_t), stop_workers, &live, NULL };
   lab_progress_t *progress;
   char label[96];
   bson_error_t err;
   bool ok = false;
   int i, failed;

   memset (&smp, 0, sizeof smp);
   memset (&live, 0, sizeof live);
   snprintf (label, sizeof label, "run %d %s", m->run, m->layout);
   if (wl) {
      snprintf (label, sizeof label, "%s %s", wl->item_fn ? "mix" : lab_scan_wl_name (wl->kind), m->layout);
   }
   progress = lab_progress_new (o->progress, label, wl ? "queries" : "masters",
                                (uint64_t)(wl ? wl->nitems : p->nkeys));
   /* a load on a slow server can take minutes (FerretDB: 271 s for a 10,169-row load): a log read later, or
    * -v, gets a line every 10 s once it has taken 5 s */
   lab_progress_lines (progress, LAB_SCAN_PROGRESS_AFTER_NS, LAB_SCAN_PROGRESS_PERIOD_NS);
   ws = workers_new (p, m->collection, m->desc, wl, &live, progress);
   pool.args = ws;

   smp.store = p->store;
   smp.device = p->device;
   smp.rss_pid = rss_pid;
   smp.interval_ns = o->interval_ns;
   smp.live = &live;
   smp.progress = progress;
   if (p->topo->kind == LAB_TOPO_MONGOS) {
      /* memory and cache are the shards': the router has no WiredTiger section */
      for (i = 0; i < (int)p->topo->ntargets; i++) {
         smp.stat_stores[smp.nstat_stores++] = p->topo->targets[i].store;
      }
   }
   if (p->topo->disk_source == LAB_SERVER_DISK_FTDC) {
      for (i = 0; i < (int)p->topo->ntargets; i++) {
         smp.ftdc_stores[smp.nftdc++] = p->topo->targets[i].store;
      }
      smp.ftdc_device = o->server_device;
   }
   m->have_engine = lab_scan_engine_stats (p->topo, p->store, &m->engine_before, &err);
   lab_scan_utc_now (m->started_at, sizeof m->started_at);
   if (!lab_scan_sampler_start (&smp, error)) {
      goto done;
   }
   ok = lab_workers_run (&pool, o->parallel, &failed, error);
   lab_scan_sampler_stop (&smp);
   m->have_engine = lab_scan_engine_stats (p->topo, p->store, &m->engine_after, &err) && m->have_engine;
   lab_progress_done (progress);
   progress = NULL;
   if (!ok) {
      /* the writes done before the failure changed the data all the same: counted for its record */
      for (i = 0; i < o->parallel; i++) {
         m->wl.writes += ws[i].acc.writes;
      }
      lab_error_prefix (error, "run %d %s, worker %d", m->run, m->layout, failed);
      goto done;
   }
   sampler_totals (&smp, m);
   {
      /* the source of the entry's own disk figures: this machine's sampler wins when it ran */
      bool local_disk = m->have_disk;
      server_disk_totals (p, &smp, m);
      m->disk_source = local_disk ? "local" : m->have_disk ? "ftdc" : "none";
   }
   workers_totals (ws, o->parallel, m);
done:
   lab_progress_done (progress);
   lab_scan_sampler_destroy (&smp);
   for (i = 0; i < o->parallel; i++) {
      bson_free (ws[i].lat_ms);
      lab_scan_wl_acc_cleanup (&ws[i].acc);
   }
   bson_free (ws);
   return ok;
}

/* lab_scan_layout_measure -- see measure.h. */
bool
lab_scan_layout_measure (lab_scan_plan_t *p, int run, const lab_results_layout_t *layout, int order_in_run,
                         lab_scan_layout_measure_t *m, bson_error_t *error)
{
   return lab_scan_layout_measure_wl (p, run, layout, order_in_run, NULL, m, error);
}

/* lab_scan_layout_measure_wl -- see measure.h. */
bool
lab_scan_layout_measure_wl (lab_scan_plan_t *p, int run, const lab_results_layout_t *layout, int order_in_run,
                            const lab_scan_wl_layout_t *wl, lab_scan_layout_measure_t *m, bson_error_t *error)
{
   lab_store_server_info_t after;

   memset (m, 0, sizeof *m);
   m->run = run;
   m->layout = layout->name;
   m->collection = layout->collection;
   m->kind = layout->kind;
   m->desc = &layout->desc;
   m->order_in_run = order_in_run;
   m->load_order =
      !wl && p->load_order == LAB_LOAD_ORDER_RANDOM && p->perm ? LAB_LOAD_ORDER_RANDOM : LAB_LOAD_ORDER_KEY;
   m->resident_bytes_before = m->file_bytes = -1;
   m->cpu_s = -1;
   m->cpu_cores = -1;
   /* before the cold step: its restart may not serve statistics at once, and nothing is timed yet */
   lab_scan_state_read (p, m->collection, &m->state);
   if (!cold_step (p, m, &after, error)) {
      return false;
   }
   if (!residency (p, m->collection, &m->resident_bytes_before, &m->file_bytes, error)) {
      lab_error_prefix (error, "run %d %s: residency of %s", run, m->layout, m->collection);
      return false;
   }
   if (m->resident_bytes_before >= 0) {
      lab_log_debug ("run %d %s: %lld of %lld bytes of %s resident before the run", run, m->layout,
                     (long long)m->resident_bytes_before, (long long)m->file_bytes,
                     p->backend == LAB_BACKEND_WT ? m->collection : "the files in the data directory");
   }
   cold_verdict (m);
   engine_cache_before (p, m);
   if (!m->cold && m->cold_requested) {
      lab_log_debug ("run %d %s is not cold: %s", run, m->layout, m->cold_reason);
   }
   if (!load (p, wl, after.pid_local && p->topo->kind != LAB_TOPO_MONGOS ? after.pid : 0, m, error)) {
      return false;
   }
   p->info = after; /* the next cold step compares against this server process */
   return true;
}

/* lab_scan_layout_measure_cleanup -- see measure.h. */
void
lab_scan_layout_measure_cleanup (lab_scan_layout_measure_t *m)
{
   bson_free (m->workers);
   bson_free (m->samples);
   lab_scan_wl_acc_cleanup (&m->wl);
   m->workers = NULL;
   m->samples = NULL;
}
