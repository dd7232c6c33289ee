/*
 * wl_run.c -- the workloads besides the load (workload.h), run: after the load's runs, each workload
 * measured cold on every layout as a load is (measure.c), --runs times in each run's layout order
 * (wl_runs.c keeps the runs and their medians), and recorded as the results' "workloads" array
 * (wl_record.c writes each entry; docs/results-schema.md), the load's entry taken from the runs' summary.
 * What comes before anything is made cold (indexes, inputs) is wl_prep.c.
 */
#include "scan/measure/measure.h"
#include "scan/workloads/wl_record.h"
#include "scan/workloads/wl_runs.h"

#include "core/error.h"
#include "core/log.h"
#include "core/opts.h"
#include "core/results.h"
#include "store/serverfacts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef lab_scan_wl_result_t wl_result_t; /* wl_runs.h */

/* ---- one workload on every layout ---------------------------------------------------------------- */

/* read_figures -- what a measured layout read, in what time, how cold, into *r (the device's bytes, else
 * the engine's). */
static void
read_figures (const lab_scan_layout_measure_t *m, wl_result_t *r)
{
   r->elapsed_s = m->elapsed_s;
   r->cpu_s = m->cpu_s;
   r->state = m->state;
   r->disk_read_bytes = m->have_disk ? (int64_t)m->disk.read_bytes : -1;
   r->disk_reads = m->have_disk ? (int64_t)m->disk.reads : -1;
   r->engine_read_bytes = m->have_engine && m->engine_after.block_read_bytes >= 0
                             ? m->engine_after.block_read_bytes - m->engine_before.block_read_bytes
                             : -1;
   r->device_read_bytes = r->disk_read_bytes;
   if (r->disk_read_bytes < 0) {
      r->disk_read_bytes = r->engine_read_bytes;
   }
   r->lat = m->latency;
   r->cold = m->cold;
   bson_strncpy (r->cold_reason, m->cold_reason, sizeof r->cold_reason);
   r->engine_cache_before = m->engine_cache_bytes_before;
   r->bg = m->background;
}

/* explain_first -- a MongoDB server: the winning plan of the workload's first command (explain,
 * verbosity queryPlanner: nothing is read) into r->plan; a refusal is kept as the reason, never fatal. */
static void
explain_first (lab_scan_plan_t *p, const lab_scan_wl_layout_t *wl, wl_result_t *r)
{
   bson_t filter, opts, cmd = BSON_INITIALIZER, inner, reply;
   lab_store_facts_plan_t plan;
   bson_error_t err;
   bool pipeline;
   bson_iter_t it;

   lab_scan_wl_server_command (wl, 0, &filter, &opts, &pipeline);
   BSON_APPEND_DOCUMENT_BEGIN (&cmd, "explain", &inner);
   if (pipeline) {
      BSON_APPEND_UTF8 (&inner, "aggregate", wl->layout->collection);
      BSON_APPEND_ARRAY (&inner, "pipeline", &filter);
      BSON_APPEND_DOCUMENT (&inner, "cursor", &(bson_t)BSON_INITIALIZER);
   } else {
      BSON_APPEND_UTF8 (&inner, "find", wl->layout->collection);
      BSON_APPEND_DOCUMENT (&inner, "filter", &filter);
   }
   if (bson_iter_init (&it, &opts)) {
      while (bson_iter_next (&it)) {
         bson_append_iter (&inner, bson_iter_key (&it), -1, &it);
      }
   }
   bson_append_document_end (&cmd, &inner);
   BSON_APPEND_UTF8 (&cmd, "verbosity", "queryPlanner");
   if (lab_store_command_simple (p->store, lab_store_db (p->store), &cmd, &reply, &err) &&
       lab_store_facts_explain_parse (&reply, &plan, &err) && plan.nparts > 0) {
      bson_snprintf (r->plan, sizeof r->plan, "%s%s%s%s", plan.parts[0].stages,
                     plan.parts[0].index[0] ? " (" : "", plan.parts[0].index,
                     plan.parts[0].index[0] ? ")" : "");
      bson_snprintf (r->plan_source, sizeof r->plan_source,
                     "explain (queryPlanner) of the first query, %s engine%s", plan.parts[0].engine,
                     plan.sharded ? ", first shard" : "");
   } else {
      bson_snprintf (r->plan_source, sizeof r->plan_source,
                     "planner table (docs/mongodb-compat.md §19): the server's explain failed: %s",
                     err.message);
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   bson_destroy (&filter);
   bson_destroy (&opts);
}

/* coll_avg -- the collection's average document size (-1 unknown). */
static double
coll_avg (lab_scan_plan_t *p, const char *coll)
{
   lab_store_coll_stats_t st;
   bson_error_t err;
   lab_store_session_t *sess = lab_store_session_open (p->store, &err);
   double v = -1;

   if (sess && lab_store_stats (sess, coll, &st, &err)) {
      v = st.avg_obj_size_bytes;
   }
   lab_store_session_close (sess);
   return v;
}

/* write_facts_before -- before a write workload (its cold step comes after: the device counters are
 * read again at the end, so they cover the cold step's own writes too, which are few: a checkpoint of a
 * clean cache writes nothing). */
static void
write_facts_before (lab_scan_plan_t *p, const lab_results_layout_t *l, wl_result_t *r)
{
   bson_error_t err;

   r->avg_doc_before = coll_avg (p, l->collection);
   r->have_disk0 = p->device && lab_scan_diskstats_read (NULL, p->device, &r->disk0, &err);
   lab_store_oplog_mark (p->store, &r->oplog0);
}

/* write_facts_after -- after a write workload's writes: the journal and eviction bytes they cost, then a
 * checkpoint forced and timed (embedded: lab_store_flush, what mongod's checkpoint does within 60 s; a
 * server checkpoints on its own schedule: unknown), the bytes it wrote, the device's writes over the whole,
 * the average document size after. */
static bool
write_facts_after (lab_scan_plan_t *p, const lab_results_layout_t *l, const lab_scan_layout_measure_t *m,
                   const lab_scan_wl_writes_t *ws, wl_result_t *r, bson_error_t *error)
{
   lab_store_engine_stats_t ck0, ck1;
   lab_scan_diskstats_t after;
   bson_error_t err;
   bool have0;

   r->journal_bytes = r->block_write_bytes_writes = r->checkpoint_bytes = -1;
   r->disk_write_bytes = r->disk_writes = -1;
   r->checkpoint_s = -1;
   r->new_data_bytes = ws ? ws->new_row_bytes : -1;
   if (!lab_store_oplog_since (p->store, &r->oplog0, l->collection, &r->oplog_bytes, &r->oplog_entries,
                               &err)) {
      bson_snprintf (r->oplog_note, sizeof r->oplog_note, "%s", err.message);
   }
   if (m->have_engine && m->engine_after.log_bytes_written >= 0 && m->engine_before.log_bytes_written >= 0) {
      r->journal_bytes = m->engine_after.log_bytes_written - m->engine_before.log_bytes_written;
   }
   if (m->have_engine && m->engine_after.block_write_bytes >= 0 && m->engine_before.block_write_bytes >= 0) {
      r->block_write_bytes_writes = m->engine_after.block_write_bytes - m->engine_before.block_write_bytes;
   }
   if (p->backend == LAB_BACKEND_WT) {
      uint64_t t0;
      have0 = lab_store_engine_stats (p->store, &ck0, &err);
      t0 = lab_now_ns ();
      if (!lab_store_flush (p->store, error)) {
         lab_error_prefix (error, "the checkpoint after the %s writes", l->name);
         return false;
      }
      r->checkpoint_s = (double)(lab_now_ns () - t0) / 1e9;
      if (have0 && lab_store_engine_stats (p->store, &ck1, &err) && ck0.block_write_bytes >= 0) {
         r->checkpoint_bytes = ck1.block_write_bytes - ck0.block_write_bytes;
      }
      bson_snprintf (r->checkpoint_note, sizeof r->checkpoint_note,
                     "forced after the writes (WT_SESSION::checkpoint), timed");
   } else {
      bson_snprintf (r->checkpoint_note, sizeof r->checkpoint_note,
                     "not forced: the server checkpoints on its own schedule (syncdelay, 60 s)");
   }
   if (r->have_disk0 && lab_scan_diskstats_read (NULL, p->device, &after, &err)) {
      r->disk_write_bytes =
         (int64_t)((after.write_sectors - r->disk0.write_sectors) * LAB_DISKSTATS_SECTOR_BYTES);
      r->disk_writes = (int64_t)(after.writes - r->disk0.writes);
   }
   r->avg_doc_after = coll_avg (p, l->collection);
   return true;
}

/* measure_one -- the workload `kind` on layout li in run `run`, cold, into *r. */
static bool
measure_one (lab_scan_plan_t *p, const lab_scan_wl_prep_t *wp, lab_scan_wl_kind_t kind, size_t li, int run,
             int order, wl_result_t *r, bson_error_t *error)
{
   const lab_results_layout_t *l = &p->layouts.l[li];
   lab_scan_layout_measure_t m;
   lab_scan_wl_layout_t wl;
   lab_store_session_t *sess = lab_store_session_open (p->store, error);
   bool ok;

   if (!sess) {
      return false;
   }
   ok = lab_scan_wl_layout_init (&wl, sess, kind, wp->mode, p->opts, l, &wp->in, error);
   lab_store_session_close (sess);
   if (!ok) {
      return false;
   }
   memset (r, 0, sizeof *r);
   r->run = run;
   r->order_in_run = order;
   if (lab_scan_wl_is_write (kind) && p->backend == LAB_BACKEND_MONGO) {
      wl.server = p->store;
      wl.positional = wp->mode == LAB_WL_MODE_SERVER;
   }
   if (wp->mode == LAB_WL_MODE_SERVER && wl.nitems > 0 && !lab_scan_wl_is_write (kind)) {
      explain_first (p, &wl, r);
   }
   if (lab_scan_wl_is_write (kind)) {
      write_facts_before (p, l, r);
   }
   ok = lab_scan_layout_measure_wl (p, run, l, order, &wl, &m, error);
   if (lab_scan_wl_is_write (kind)) {
      /* recorded now, whatever follows (the checkpoint, the other layouts): the data changed either way */
      bson_error_t merr;
      int64_t n = m.wl.writes;
      if (!lab_scan_writes_mark (p, l->collection, lab_scan_wl_name (kind), kind == LAB_WL_APPEND ? n : 0,
                                 kind == LAB_WL_UPDATE ? n : 0, !ok, &merr)) {
         if (ok) {
            *error = merr;
            ok = false;
         } else {
            lab_log_error ("%s", merr.message); /* the first error is the run's */
         }
      }
   }
   if (ok && lab_scan_wl_is_write (kind)) {
      ok = write_facts_after (p, l, &m, wl.writes, r, error);
   }
   if (ok) {
      read_figures (&m, r);
      if (wp->mode == LAB_WL_MODE_SERVER && m.have_engine && m.engine_after.docs_examined >= 0) {
         /* the documents the server's plans fetched: its own counter, not what crossed the wire */
         m.wl.docs = m.engine_after.docs_examined - m.engine_before.docs_examined;
      }
      r->acc = m.wl;
      memset (&m.wl, 0, sizeof m.wl);
      lab_scan_wl_groups_sort (&r->acc);
      if (kind == LAB_WL_AGGREGATE) {
         r->acc.digest = lab_scan_wl_groups_digest (&r->acc);
      } else if (lab_scan_wl_is_write (kind)) { /* what the writes left, read back by content (untimed) */
         ok = lab_scan_digest_written (p->store, p->opts, l, wl.writes, &r->acc.digest, &r->read_back_rows,
                                       error);
      }
      lab_log_info ("%s %s: %lld queries, %lld rows, %lld documents read in %.2f s", lab_scan_wl_name (kind),
                    l->name, (long long)r->acc.queries, (long long)r->acc.rows, (long long)r->acc.docs,
                    r->elapsed_s);
   }
   lab_scan_wl_layout_cleanup (&wl);
   lab_scan_layout_measure_cleanup (&m);
   return ok;
}

/* append_params -- the parameters the workload used. */
static void
append_params (bson_t *w, const lab_scan_opts_t *o, const lab_scan_wl_prep_t *wp, lab_scan_wl_kind_t kind)
{
   bson_t d, arr;
   int64_t j;

   BSON_APPEND_DOCUMENT_BEGIN (w, "params", &d);
   BSON_APPEND_INT64 (&d, "seed", (int64_t)o->wl.seed);
   if (kind == LAB_WL_ROW) {
      BSON_APPEND_INT64 (&d, "row_keys", o->wl.row_keys);
      BSON_APPEND_INT64 (&d, "row_batch", o->wl.row_batch);
      BSON_APPEND_UTF8 (&d, "line_field", o->wl.line_field);
   } else if (kind == LAB_WL_RANGE) {
      BSON_APPEND_INT64 (&d, "range_windows", o->wl.range_windows);
      BSON_APPEND_DOUBLE (&d, "range_window_s", (double)o->wl.range_window_ms / 1000.0);
      BSON_APPEND_UTF8 (&d, "time_field", o->wl.time_field);
      /* the windows drawn, so that anyone can count the rows they hold */
      BSON_APPEND_ARRAY_BEGIN (&d, "window_starts", &arr);
      for (j = 0; j < wp->in.nwin; j++) {
         char k[24];
         bson_snprintf (k, sizeof k, "%lld", (long long)j);
         BSON_APPEND_DATE_TIME (&arr, k, wp->in.win_lo[j]);
      }
      bson_append_array_end (&d, &arr);
   } else if (kind == LAB_WL_APPEND) {
      BSON_APPEND_INT64 (&d, "append_rows", o->wl.append_rows);
      BSON_APPEND_UTF8 (&d, "append_to", o->wl.append_to == 0 ? "open" : "random");
      BSON_APPEND_INT64 (&d, "masters", wp->in.append.ngroups);
   } else if (kind == LAB_WL_UPDATE) {
      BSON_APPEND_INT64 (&d, "update_rows", o->wl.update_rows);
      BSON_APPEND_UTF8 (&d, "field", o->wl.sum_field);
      BSON_APPEND_INT64 (&d, "masters", wp->in.update.ngroups);
   } else if (kind == LAB_WL_AGGREGATE) {
      BSON_APPEND_UTF8 (&d, "group_field", o->wl.group_field);
      BSON_APPEND_UTF8 (&d, "sum_field", o->wl.sum_field);
   }
   bson_append_document_end (w, &d);
}

/* run_round -- run `run` of `kind`: every layout in the run's order (lab_scan_run_order), a write
 * workload's inputs after the first run drawn afresh for the run (wl_runs.c says why), layout i's result
 * into all[i * runs + run - 1]. */
static bool
run_round (lab_scan_plan_t *p, const lab_scan_wl_prep_t *wp, lab_scan_wl_kind_t kind, int run, int runs,
           wl_result_t *all, bson_error_t *error)
{
   size_t n = p->layouts.n, order[LAB_RESULTS_MAX_LAYOUTS], i;
   lab_scan_wl_prep_t *rp = NULL;
   lab_scan_wl_writes_t *ws = NULL;
   bool ok = true;

   if (run > 1 && lab_scan_wl_is_write (kind)) {
      rp = bson_malloc (sizeof *rp);
      memcpy (rp, wp, sizeof *rp); /* the run's own writes in place of the first run's */
      ws = kind == LAB_WL_APPEND ? &rp->in.append : &rp->in.update;
      ok = lab_scan_wl_writes_for_run (p, kind, run, ws, error);
      wp = rp;
   }
   lab_scan_run_order (p->opts->order, run, n, order);
   for (i = 0; i < n && ok; i++) {
      ok = measure_one (p, wp, kind, order[i], run, (int)i + 1,
                        &all[order[i] * (size_t)runs + (size_t)run - 1], error);
   }
   if (rp) {
      lab_scan_wl_writes_cleanup (ws);
      bson_free (rp);
   }
   return ok;
}

/* run_workload -- `kind` on every layout, `runs` times (run_round), appended to arr as entry k with each
 * layout's runs and their medians; *equal false when in some run a layout returned other rows (or groups)
 * than the first layout, `why` saying which. */
static bool
run_workload (lab_scan_plan_t *p, const lab_scan_wl_prep_t *wp, lab_scan_wl_kind_t kind, int runs,
              bson_t *arr, int k, bool *equal, char *why, size_t len, bson_error_t *error)
{
   lab_scan_wl_outcome_t oc = { LAB_WIN_NONE, "" };
   size_t n = p->layouts.n, i, win = 0, j;
   int run;
   wl_result_t res[LAB_RESULTS_MAX_LAYOUTS], *all = bson_malloc0 ((size_t)runs * n * sizeof *all);
   lab_scan_wl_run_t *fig = bson_malloc0 ((size_t)runs * n * sizeof *fig);
   double *t = bson_malloc0 ((size_t)runs * n * sizeof *t);
   char key[16], title[256];
   bson_t w, la;
   bool ok = true;
   bson_error_t derr;

   memset (res, 0, sizeof res);
   for (run = 1; run <= runs && ok; run++) {
      ok = run_round (p, wp, kind, run, runs, all, error);
   }
   if (ok) {
      *equal = true;
      for (j = 0; j < (size_t)runs * n && *equal; j++) {
         const wl_result_t *a = &all[j % (size_t)runs], *b = &all[j];
         char g[400];
         i = j / (size_t)runs; /* layout i against layout 0 in the same run */
         if (kind == LAB_WL_AGGREGATE ? !lab_scan_wl_groups_equal (&a->acc, &b->acc, g, sizeof g)
                                      : (a->acc.rows != b->acc.rows || a->acc.digest != b->acc.digest)) {
            *equal = false;
            lab_scan_digest_differ (p->store, p->opts, &p->layouts, 0, i, p->keys, p->nkeys,
                                    lab_scan_wl_name (kind), &derr);
            if (kind == LAB_WL_AGGREGATE) {
               bson_snprintf (why, len, "%s (totals: %s)", derr.message, g);
            } else {
               bson_snprintf (why, len, "%s (%s: %lld rows, digest %016llx; %s: %lld rows, digest %016llx)",
                              derr.message, p->layouts.l[0].name, (long long)a->acc.rows,
                              (unsigned long long)a->acc.digest, p->layouts.l[i].name, (long long)b->acc.rows,
                              (unsigned long long)b->acc.digest);
            }
         }
      }
      for (j = 0; j < (size_t)runs * n; j++) {
         lab_scan_wl_result_run (&all[j], &fig[j]);
         t[j] = all[j].elapsed_s;
      }
      for (i = 0; i < n; i++) {
         lab_scan_wl_result_combine (&all[i * (size_t)runs], runs, &res[i]);
      }
      win = lab_scan_wl_winner (n, runs, t, &oc);
      bson_snprintf (key, sizeof key, "%d", k);
      bson_append_document_begin (arr, key, -1, &w);
      BSON_APPEND_UTF8 (&w, "workload", lab_scan_wl_name (kind));
      lab_scan_wl_title (p->opts, kind, title, sizeof title);
      BSON_APPEND_UTF8 (&w, "title", title);
      append_params (&w, p->opts, wp, kind);
      BSON_APPEND_BOOL (&w, "rows_equal", *equal);
      BSON_APPEND_UTF8 (&w, "winner", p->layouts.l[win].name);
      lab_scan_wl_outcome_append (&w, &oc);
      BSON_APPEND_ARRAY_BEGIN (&w, "layouts", &la);
      for (i = 0; i < n; i++) {
         lab_scan_wl_append_layout (&la, (int)i, p, wp, kind, i, &res[i], res[win].elapsed_s,
                                    &fig[i * (size_t)runs], runs);
      }
      bson_append_array_end (&w, &la);
      if (kind == LAB_WL_AGGREGATE) {
         lab_scan_wl_append_result (&w, &res[0].acc);
      }
      bson_append_document_end (arr, &w);
   }
   for (j = 0; j < (size_t)runs * n; j++) {
      lab_scan_wl_acc_cleanup (&all[j].acc); /* res[] shares run 1's */
   }
   bson_free (all);
   bson_free (fig);
   bson_free (t);
   return ok;
}

/* summary_num -- summary.<layout>.<field>.median of the results, or -1. */
static double
summary_num (const bson_t *results, const char *layout, const char *field)
{
   char path[300];
   double v;

   bson_snprintf (path, sizeof path, "summary.%s.%s.median", layout, field);
   return lab_results_get_number (results, path, &v) ? v : -1;
}

/* append_load -- the load's entry, from the runs' summary (medians over the runs). */
static void
append_load (bson_t *arr, const lab_scan_plan_t *p, const lab_scan_wl_prep_t *wp, int runs,
             const bson_t *results)
{
   lab_scan_wl_outcome_t oc = { LAB_WIN_NONE, "" };
   size_t n = p->layouts.n, i, win = 0, a, b;
   uint64_t dig[LAB_RESULTS_MAX_LAYOUTS] = { 0 }, da, db;
   bool equal = lab_scan_runs_digests (&p->layouts, results, dig, &a, &b, &da, &db);
   int nruns[LAB_RESULTS_MAX_LAYOUTS], k;
   lab_scan_wl_run_t *fig = bson_malloc0 ((size_t)runs * n * sizeof *fig);
   double *t = bson_malloc0 ((size_t)runs * n * sizeof *t);
   char title[256];
   bson_t w, la;

   for (i = 0; i < n; i++) {
      nruns[i] = lab_scan_wl_runs_of_load (results, p->layouts.l[i].name, &fig[i * (size_t)runs], runs);
      for (k = 0; k < runs; k++) { /* a run not found: the summary's median in its place */
         t[i * (size_t)runs + (size_t)k] = k < nruns[i]
                                              ? fig[i * (size_t)runs + (size_t)k].elapsed_s
                                              : summary_num (results, p->layouts.l[i].name, "elapsed_s");
      }
   }
   win = lab_scan_wl_winner (n, runs, t, &oc);
   BSON_APPEND_DOCUMENT_BEGIN (arr, "0", &w);
   BSON_APPEND_UTF8 (&w, "workload", "load");
   lab_scan_wl_title (p->opts, LAB_WL_LOAD, title, sizeof title);
   BSON_APPEND_UTF8 (&w, "title", title);
   BSON_APPEND_UTF8 (&w, "load_order", lab_scan_load_order_names ()[p->load_order]);
   append_params (&w, p->opts, wp, LAB_WL_LOAD);
   BSON_APPEND_BOOL (&w, "rows_equal", equal); /* the runs' digests (run.c names the master and exits 3) */
   BSON_APPEND_UTF8 (&w, "winner", p->layouts.l[win].name);
   lab_scan_wl_outcome_append (&w, &oc);
   BSON_APPEND_ARRAY_BEGIN (&w, "layouts", &la);
   for (i = 0; i < n; i++) {
      const char *name = p->layouts.l[i].name;
      wl_result_t r;
      memset (&r, 0, sizeof r);
      r.elapsed_s = summary_num (results, name, "elapsed_s");
      r.cpu_s = -1;
      r.disk_read_bytes = (int64_t)summary_num (results, name, "read_bytes");
      r.disk_reads = (int64_t)summary_num (results, name, "read_requests");
      r.engine_read_bytes = (int64_t)summary_num (results, name, "block_read_bytes");
      r.device_read_bytes = r.disk_read_bytes;
      if (r.disk_read_bytes < 0) {
         r.disk_read_bytes = r.engine_read_bytes;
      }
      r.acc.rows = (int64_t)summary_num (results, name, "rows");
      r.acc.docs = (int64_t)summary_num (results, name, "docs");
      r.acc.doc_bytes = (int64_t)summary_num (results, name, "bytes_returned");
      r.acc.queries = (int64_t)summary_num (results, name, "keys");
      r.acc.digest = dig[i];
      r.lat.p50_ms = summary_num (results, name, "latency_p50_ms");
      r.lat.p95_ms = summary_num (results, name, "latency_p95_ms");
      r.lat.p99_ms = summary_num (results, name, "latency_p99_ms");
      r.lat.max_ms = summary_num (results, name, "latency_max_ms");
      r.lat.mean_ms = summary_num (results, name, "latency_mean_ms");
      r.lat.count = r.acc.queries; /* one latency per master loaded */
      r.cold = lab_scan_runs_cold_of (results, name, r.cold_reason, sizeof r.cold_reason);
      r.engine_cache_before = -1;
      lab_scan_state_of_run1 (results, name, &r.state);
      lab_scan_wl_append_layout (&la, (int)i, p, wp, LAB_WL_LOAD, i, &r,
                                 summary_num (results, p->layouts.l[win].name, "elapsed_s"),
                                 &fig[i * (size_t)runs], nruns[i]);
   }
   bson_append_array_end (&w, &la);
   bson_append_document_end (arr, &w);
   bson_free (fig);
   bson_free (t);
}

/* load_after_layout -- layout li's load after the writes in run `run` into *r, cold as the load before them
 * was. */
static bool
load_after_layout (lab_scan_plan_t *p, size_t li, int run, int runs, int order_in_run, const char *what,
                   wl_result_t *r, bson_error_t *error)
{
   const lab_results_layout_t *l = &p->layouts.l[li];
   lab_scan_layout_measure_t m;
   bool ok = lab_scan_layout_measure (p, run, l, order_in_run, &m, error);

   memset (r, 0, sizeof *r);
   if (ok) {
      read_figures (&m, r);
      r->run = run;
      r->order_in_run = order_in_run;
      r->acc.queries = m.keys;
      r->acc.rows = m.rows;
      r->acc.docs = m.docs;
      r->acc.doc_bytes = m.bytes_returned;
      r->acc.digest = m.digest;
      lab_log_info ("%s, %s, run %d of %d: %lld rows in %.2f s", what, l->name, run, runs, (long long)m.rows,
                    m.elapsed_s);
   }
   lab_scan_layout_measure_cleanup (&m);
   return ok;
}

/* append_load_again -- the load measured again, cold, on every layout, --runs times in each run's order as
 * the load before was, `runs` times (the first cold load after a change reads what later ones may find in the
 * device's own cache, a VM's host, so one run against a median would not compare like with like), as entry k
 * `name` ("title"): with appends and the load asked for, "load_after_writes" after the writes (their rows
 * added to the masters): how the read advantage changes as the data keeps arriving; with --load-order
 * both, "load_random" with p->load_order random: the keys shuffled, as an application opens bills. */
static bool
append_load_again (bson_t *arr, int k, lab_scan_plan_t *p, const lab_scan_wl_prep_t *wp, int runs,
                   const char *name, const char *title, bson_error_t *error)
{
   lab_scan_wl_outcome_t oc = { LAB_WIN_NONE, "" };
   const char *what = strcmp (name, "load_random") == 0 ? "load in random order" : "load after the writes";
   size_t n = p->layouts.n, order[LAB_RESULTS_MAX_LAYOUTS], i, win = 0, j;
   int run;
   wl_result_t res[LAB_RESULTS_MAX_LAYOUTS], *all = bson_malloc0 ((size_t)runs * n * sizeof *all);
   lab_scan_wl_run_t *fig = bson_malloc0 ((size_t)runs * n * sizeof *fig);
   double *t = bson_malloc0 ((size_t)runs * n * sizeof *t);
   char key[16];
   bson_t w, la;
   bool equal = true, ok = true;

   memset (res, 0, sizeof res);
   for (run = 1; run <= runs && ok; run++) {
      lab_scan_run_order (p->opts->order, run, n, order);
      for (i = 0; i < n && ok; i++) {
         ok = load_after_layout (p, order[i], run, runs, (int)i + 1, what,
                                 &all[order[i] * (size_t)runs + (size_t)run - 1], error);
      }
   }
   if (!ok) {
      lab_error_prefix (error, "%s", title);
      goto done;
   }
   for (j = 0; j < (size_t)runs * n; j++) {
      const wl_result_t *x = &all[j % (size_t)runs], *y = &all[j]; /* layout 0 in the same run */
      lab_scan_wl_result_run (&all[j], &fig[j]);
      t[j] = all[j].elapsed_s;
      if (equal && (y->acc.rows != x->acc.rows || y->acc.digest != x->acc.digest)) {
         equal = false;
         lab_scan_digest_differ (p->store, p->opts, &p->layouts, 0, j / (size_t)runs, p->keys, p->nkeys, name,
                                 error);
      }
   }
   for (i = 0; i < n; i++) {
      lab_scan_wl_result_combine (&all[i * (size_t)runs], runs, &res[i]);
   }
   win = lab_scan_wl_winner (n, runs, t, &oc);
   bson_snprintf (key, sizeof key, "%d", k);
   bson_append_document_begin (arr, key, -1, &w);
   BSON_APPEND_UTF8 (&w, "workload", name);
   BSON_APPEND_UTF8 (&w, "title", title);
   BSON_APPEND_UTF8 (&w, "load_order", lab_scan_load_order_names ()[p->load_order]);
   append_params (&w, p->opts, wp, LAB_WL_LOAD);
   BSON_APPEND_BOOL (&w, "rows_equal", equal);
   BSON_APPEND_UTF8 (&w, "winner", p->layouts.l[win].name);
   lab_scan_wl_outcome_append (&w, &oc);
   BSON_APPEND_ARRAY_BEGIN (&w, "layouts", &la);
   for (i = 0; i < n; i++) {
      lab_scan_wl_append_layout (&la, (int)i, p, wp, LAB_WL_LOAD, i, &res[i], res[win].elapsed_s,
                                 &fig[i * (size_t)runs], runs);
   }
   bson_append_array_end (&w, &la);
   bson_append_document_end (arr, &w);
   if (!equal) {
      ok = false; /* *error names the master (lab_scan_digest_differ) */
   }
done:
   bson_free (all);
   bson_free (fig);
   bson_free (t);
   return ok;
}

/* lab_scan_workloads_run -- see workload.h. */
bool
lab_scan_workloads_run (lab_scan_plan_t *p, const lab_scan_wl_prep_t *wp, const lab_scan_point_t *pt,
                        bson_t *results, bson_error_t *error)
{
   char why[600] = "", first_why[600] = "";
   bool all_equal = true, ok = true;
   bson_t arr;
   int k, n = 0;

   if (!pt->workloads) {
      return true;
   }
   BSON_APPEND_ARRAY_BEGIN (results, "workloads", &arr);
   if (pt->load) {
      append_load (&arr, p, wp, pt->runs, results);
      n++;
   }
   if (pt->load_random && p->perm) {
      lab_scan_load_order_t was = p->load_order;
      p->load_order = LAB_LOAD_ORDER_RANDOM;
      ok = append_load_again (&arr, n++, p, wp, pt->runs, "load_random",
                              "each master fetched whole, the keys in a seeded random order", error);
      p->load_order = was;
   }
   for (k = LAB_WL_ROW; k < LAB_WL_NKINDS && ok; k++) {
      bool equal = true;
      if (!(pt->set & (1u << k))) {
         continue;
      }
      ok = run_workload (p, wp, (lab_scan_wl_kind_t)k, pt->runs, &arr, n++, &equal, why, sizeof why, error);
      if (ok && equal && k == LAB_WL_APPEND && pt->load_after_writes) {
         ok = append_load_again (&arr, n++, p, wp, pt->runs, "load_after_writes",
                                 "each master fetched whole again, after the appends", error);
      }
      if (ok && !equal) {
         lab_log_error ("%s", why);
         if (all_equal) {
            bson_strncpy (first_why, why, sizeof first_why);
         }
         all_equal = false;
      }
   }
   bson_append_array_end (results, &arr);
   if (ok && !all_equal) {
      lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_RESULTS_DIFFER,
                     "the layouts returned different results, so they do not hold the same data: %s",
                     first_why);
      return false;
   }
   return ok;
}
