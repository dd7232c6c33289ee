/*
 * wl_record.c -- a workload's record (docs/results-schema.md "Workloads"): each layout's entry of a
 * workload (its state, plan, index, reads, latencies, write costs and runs) and an aggregate's result, as
 * wl_run.c measured them.
 */
#include "scan/workloads/wl_record.h"

#include "core/results.h"

#include <math.h>
#include <string.h>

typedef lab_scan_wl_result_t wl_result_t; /* wl_runs.h */

/* append_index -- one entry of "indexes". */
static void
append_index (bson_t *arr, int k, const lab_scan_wl_index_t *ix)
{
   char key[16];
   bson_t d, keys;
   int i;

   bson_snprintf (key, sizeof key, "%d", k);
   bson_append_document_begin (arr, key, -1, &d);
   BSON_APPEND_UTF8 (&d, "name", ix->name);
   BSON_APPEND_DOCUMENT_BEGIN (&d, "keys", &keys);
   for (i = 0; i < ix->nfields; i++) {
      BSON_APPEND_INT32 (&keys, ix->fields[i], 1);
   }
   bson_append_document_end (&d, &keys);
   BSON_APPEND_BOOL (&d, "multikey", ix->multikey);
   BSON_APPEND_INT64 (&d, "size_bytes", ix->size_bytes);
   BSON_APPEND_BOOL (&d, "created", ix->created);
   bson_append_document_end (arr, &d);
}

/* round_to -- v rounded to `digits` decimals (results files keep what the measurement can tell). */
static double
round_to (double v, int digits)
{
   double f = pow (10, digits);
   return round (v * f) / f;
}

/* per_write -- bytes per logical write (-1 when unknown or no writes). */
static double
per_write (int64_t bytes, int64_t writes)
{
   return bytes >= 0 && writes > 0 ? round_to ((double)bytes / (double)writes, 1) : -1;
}

/* append_write_costs -- a write workload's "write" object (docs/results-schema.md "Workloads"). */
static void
append_write_costs (bson_t *d, const wl_result_t *r)
{
   int64_t n = r->acc.writes, total = -1;
   bson_t w;

   if (r->journal_bytes >= 0 || r->checkpoint_bytes >= 0) {
      total = (r->journal_bytes > 0 ? r->journal_bytes : 0) +
              (r->block_write_bytes_writes > 0 ? r->block_write_bytes_writes : 0) +
              (r->checkpoint_bytes > 0 ? r->checkpoint_bytes : 0);
   }
   BSON_APPEND_DOCUMENT_BEGIN (d, "write", &w);
   BSON_APPEND_INT64 (&w, "writes", n);
   BSON_APPEND_DOUBLE (&w, "writes_per_s", r->elapsed_s > 0 ? round_to ((double)n / r->elapsed_s, 1) : -1);
   BSON_APPEND_INT64 (&w, "docs_written", r->acc.docs_written);
   BSON_APPEND_INT64 (&w, "doc_bytes_written", r->acc.doc_bytes);
   BSON_APPEND_INT64 (&w, "parts_created", r->acc.parts_created);
   BSON_APPEND_INT64 (&w, "new_data_bytes", r->new_data_bytes);
   BSON_APPEND_INT64 (&w, "read_back_rows", r->read_back_rows);
   BSON_APPEND_INT64 (&w, "journal_bytes", r->journal_bytes);
   BSON_APPEND_INT64 (&w, "eviction_write_bytes", r->block_write_bytes_writes);
   BSON_APPEND_INT64 (&w, "checkpoint_bytes", r->checkpoint_bytes);
   BSON_APPEND_DOUBLE (&w, "checkpoint_s", r->checkpoint_s >= 0 ? round_to (r->checkpoint_s, 4) : -1);
   BSON_APPEND_UTF8 (&w, "checkpoint", r->checkpoint_note);
   BSON_APPEND_INT64 (&w, "engine_write_bytes", total);
   BSON_APPEND_INT64 (&w, "disk_write_bytes", r->disk_write_bytes);
   BSON_APPEND_INT64 (&w, "disk_writes", r->disk_writes);
   BSON_APPEND_DOUBLE (&w, "journal_bytes_per_write", per_write (r->journal_bytes, n));
   BSON_APPEND_DOUBLE (&w, "checkpoint_bytes_per_write", per_write (r->checkpoint_bytes, n));
   BSON_APPEND_INT64 (&w, "oplog_bytes", r->oplog_bytes);
   BSON_APPEND_INT64 (&w, "oplog_entries", r->oplog_entries);
   BSON_APPEND_DOUBLE (&w, "oplog_bytes_per_write", per_write (r->oplog_bytes, n));
   if (r->oplog_note[0]) {
      BSON_APPEND_UTF8 (&w, "oplog", r->oplog_note);
   }
   BSON_APPEND_DOUBLE (&w, "engine_bytes_per_write", per_write (total, n));
   BSON_APPEND_DOUBLE (
      &w, "write_amplification",
      total >= 0 && r->new_data_bytes > 0 ? round_to ((double)total / (double)r->new_data_bytes, 2) : -1);
   BSON_APPEND_DOUBLE (&w, "avg_doc_bytes_before", round_to (r->avg_doc_before, 1));
   BSON_APPEND_DOUBLE (&w, "avg_doc_bytes_after", round_to (r->avg_doc_after, 1));
   bson_append_document_end (d, &w);
}

/* write_where -- how a write workload's writes were made on a layout, for the append and the update
 * apart: one text for both would describe the other's write. */
static const char *
write_where (const lab_scan_plan_t *p, const lab_scan_wl_prep_t *wp, lab_scan_wl_kind_t kind, bool array)
{
   bool append = kind == LAB_WL_APPEND;

   if (!array) {
      return append                            ? "insert of each new row through the store"
             : p->backend == LAB_BACKEND_MONGO ? "updateOne {_id}, $set in the server"
                                               : "the row read by _id and replaced through the store";
   }
   if (p->backend == LAB_BACKEND_WT) {
      return append
                ? "the master's last part read, the rows pushed in the tool, the document replaced through "
                  "the store with every index entry maintained (mongod: updateOne $push in the server)"
                : "the part holding the row read, its element set in the tool, the document replaced "
                  "through the store with every index entry maintained (mongod: updateOne positional $set "
                  "in the server)";
   }
   if (append) {
      return "the master's parts fetched for the cap, then updateOne $push (+ $inc row_count) onto the last "
             "part in the server (a new part at the cap: replaceOne of each part)";
   }
   return wp->mode == LAB_WL_MODE_SERVER
             ? "updateOne positional $set of the row's element in the server"
             : "the part holding the row fetched, then $set of the element by its index in the server (this "
               "server has no positional $)";
}

/* lab_scan_wl_append_layout -- see wl_runs.h. */
void
lab_scan_wl_append_layout (bson_t *arr, int k, const lab_scan_plan_t *p, const lab_scan_wl_prep_t *wp,
                           lab_scan_wl_kind_t kind, size_t li, const wl_result_t *r, double best,
                           const lab_scan_wl_run_t *runs, int nruns)
{
   const lab_results_layout_t *l = &p->layouts.l[li];
   bool array = lab_layout_doc_holds_many_rows (&l->desc);
   const lab_scan_wl_index_t *ix = &wp->index[kind][li];
   char key[16], plan[700], dig[24];
   bson_t d, a;
   /* per row, the engine's own bytes where it counts them: the device's include other processes and the
    * journal too */
   int64_t per_row_src = r->engine_read_bytes >= 0 ? r->engine_read_bytes : r->disk_read_bytes;
   double per_row_bytes =
      r->acc.rows > 0 && per_row_src >= 0 ? (double)per_row_src / (double)r->acc.rows : -1;

   bson_snprintf (key, sizeof key, "%d", k);
   bson_append_document_begin (arr, key, -1, &d);
   BSON_APPEND_UTF8 (&d, "layout", l->name);
   BSON_APPEND_UTF8 (&d, "collection", l->collection);
   BSON_APPEND_UTF8 (&d, "kind", l->kind);
   lab_scan_state_append (&d, &r->state);
   if (r->plan[0]) {
      BSON_APPEND_UTF8 (&d, "plan", r->plan);
      BSON_APPEND_UTF8 (&d, "plan_source", r->plan_source);
   } else {
      lab_scan_wl_plan (p->opts, kind, array, (int32_t)p->opts->wl.row_batch, plan, sizeof plan);
      if (lab_layout_read_by_id_range (&l->desc)) {
         lab_scan_clustered_plan (p->opts, kind, plan, sizeof plan);
      }
      BSON_APPEND_UTF8 (&d, "plan", plan);
      BSON_APPEND_UTF8 (&d, "plan_source",
                        r->plan_source[0]             ? r->plan_source
                        : lab_scan_wl_is_write (kind) ? "the tool's writes (docs/mongodb-compat.md §21)"
                                                      : "planner table (docs/mongodb-compat.md §19)");
   }
   if (lab_scan_wl_is_write (kind)) {
      BSON_APPEND_UTF8 (&d, "where", write_where (p, wp, kind, array));
   } else
      BSON_APPEND_UTF8 (
         &d, "where",
         wp->mode == LAB_WL_MODE_SERVER ? "the whole query in the server"
         : p->backend == LAB_BACKEND_WT
            ? "filter, projection and grouping in the tool (mongod does them in the server)"
            : "whole documents fetched by the server, filter, projection and grouping in the tool (the "
              "server runs a subset of the query language)");
   BSON_APPEND_ARRAY_BEGIN (&d, "indexes", &a);
   if (ix->used) {
      append_index (&a, 0, ix);
   }
   bson_append_array_end (&d, &a);
   BSON_APPEND_DOUBLE (&d, "elapsed_s", round_to (r->elapsed_s, 4));
   BSON_APPEND_INT64 (&d, "queries", r->acc.queries);
   BSON_APPEND_INT64 (&d, "rows_returned", r->acc.rows);
   BSON_APPEND_INT64 (&d, "docs_read", r->acc.docs);
   BSON_APPEND_INT64 (&d, "doc_bytes_read", r->acc.doc_bytes);
   BSON_APPEND_INT64 (&d, "disk_read_bytes", r->disk_read_bytes);
   BSON_APPEND_INT64 (&d, "disk_reads", r->disk_reads);
   BSON_APPEND_INT64 (&d, "engine_read_bytes", r->engine_read_bytes);
   BSON_APPEND_DOUBLE (&d, "cpu_s", r->cpu_s >= 0 ? round_to (r->cpu_s, 3) : -1);
   lab_scan_latency_append (&d, "latency_ms", &r->lat);
   BSON_APPEND_DOUBLE (&d, "docs_per_row",
                       r->acc.rows > 0 ? round_to ((double)r->acc.docs / (double)r->acc.rows, 4) : -1);
   BSON_APPEND_DOUBLE (&d, "disk_bytes_per_row", per_row_bytes >= 0 ? round_to (per_row_bytes, 1) : -1);
   lab_scan_wl_per_row_append (&d, r->engine_read_bytes, r->device_read_bytes, r->acc.rows);
   BSON_APPEND_DOUBLE (&d, "x_vs_winner", best > 0 ? round_to (r->elapsed_s / best, 3) : -1);
   bson_snprintf (dig, sizeof dig, "%016llx", (unsigned long long)r->acc.digest);
   BSON_APPEND_UTF8 (&d, "digest", dig);
   BSON_APPEND_BOOL (&d, "cold", r->cold);
   lab_scan_wl_cold_append (&d, r->cold, r->cold_reason, r->engine_cache_before, &r->bg);
   if (r->acc.missing_sum > 0) {
      BSON_APPEND_INT64 (&d, "rows_without_sum", r->acc.missing_sum);
   }
   if (lab_scan_wl_is_write (kind)) {
      append_write_costs (&d, r);
   }
   lab_scan_wl_runs_append (&d, runs, nruns);
   bson_append_document_end (arr, &d);
}

/* lab_scan_wl_append_result -- see wl_runs.h. */
void
lab_scan_wl_append_result (bson_t *w, const lab_scan_wl_acc_t *acc)
{
   bson_t r, g;
   double total = 0;
   size_t i;

   BSON_APPEND_DOCUMENT_BEGIN (w, "result", &r);
   BSON_APPEND_INT64 (&r, "groups", (int64_t)acc->ngroups);
   for (i = 0; i < acc->ngroups; i++) {
      total += acc->groups[i].total;
   }
   BSON_APPEND_DOUBLE (&r, "total", round_to (total, 6));
   BSON_APPEND_DOCUMENT_BEGIN (&r, "by_group", &g);
   for (i = 0; i < acc->ngroups; i++) {
      BSON_APPEND_DOUBLE (&g, acc->groups[i].name, round_to (acc->groups[i].total, 6));
   }
   bson_append_document_end (&r, &g);
   bson_append_document_end (w, &r);
}
