/*
 * wl_exec.c -- one query of a workload on one layout (workload.h).
 *
 * Tool mode (the embedded store; a server with a subset of the query language): mongod's plan played over
 * the store's reads -- IXSCAN + FETCH through lab_store_index_find / lab_store_find_eq, COLLSCAN through
 * natural scans -- and the projection, the element filter and the grouping mongod would do in the server
 * done here, on the fetched documents (the pages read are the same; what crosses to the client is not).
 * Server mode (MongoDB): the command a DBA would send ($elemMatch projection, $filter, $unwind + $group),
 * built by lab_scan_wl_server_command, and the returned documents counted the same way.
 */
#include "scan/workloads/workload.h"

#include "core/error.h"

#include <string.h>

/* ---- counting what came back --------------------------------------------------------------------- */

typedef struct {
   const lab_scan_wl_layout_t *wl;
   lab_scan_wl_acc_t *acc;
   const lab_scan_wl_row_t *want; /* row: the pairs asked for (tool mode filters elements by them) */
   int64_t nwant;
   bool filter_rows;      /* tool mode: keep only the rows asked for (server mode: the server filtered) */
   int64_t lo, hi;        /* range: the window */
   lab_scan_rowhash_t rh; /* the returned document's rows, hashed by content */
} q_ctx_t;

/* same_value -- a and b compare equal as their extended JSON text (int32 3 and int64 3 both "3"). */
static bool
same_value (const bson_value_t *a, const bson_value_t *b)
{
   char x[128], y[128];
   return strcmp (lab_value_text (a, x, sizeof x), lab_value_text (b, y, sizeof y)) == 0;
}

/* as_double -- a numeric value as a double; false for other types. */
static bool
as_double (const bson_value_t *v, double *out)
{
   switch (v->value_type) {
   case BSON_TYPE_DOUBLE:
      *out = v->value.v_double;
      return true;
   case BSON_TYPE_INT32:
      *out = v->value.v_int32;
      return true;
   case BSON_TYPE_INT64:
      *out = (double)v->value.v_int64;
      return true;
   default:
      return false;
   }
}

/* row_wanted -- tool mode: the row (doc, elem) is one the query asks for. */
static bool
row_wanted (const q_ctx_t *q, const bson_t *doc, const bson_t *elem)
{
   const lab_scan_opts_t *o = q->wl->opts;
   bson_iter_t it, it2;
   const bson_value_t *v;
   int64_t i;

   if (!q->filter_rows) {
      return true;
   }
   if (q->wl->kind == LAB_WL_RANGE) {
      v = lab_scan_wl_row_field (doc, elem, o->wl.time_field, &it);
      return v && v->value_type == BSON_TYPE_DATE_TIME && v->value.v_datetime >= q->lo &&
             v->value.v_datetime < q->hi;
   }
   if (q->wl->kind == LAB_WL_ROW) {
      const bson_value_t *key = lab_scan_wl_row_field (doc, NULL, o->key, &it2);
      v = lab_scan_wl_row_field (doc, elem, o->wl.line_field, &it);
      if (!v || !key) {
         return false;
      }
      for (i = 0; i < q->nwant; i++) {
         if (same_value (&q->want[i].line, v) && same_value (&q->want[i].key, key)) {
            return true;
         }
      }
      return false;
   }
   return true;
}

/* lab_scan_wl_hash_skipped -- see workload.h (a binary search of the sorted skip[]). */
bool
lab_scan_wl_hash_skipped (const lab_scan_wl_layout_t *wl, uint64_t h)
{
   int64_t lo = 0, hi = wl->nskip;

   while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (wl->skip[mid] < h) {
         lo = mid + 1;
      } else {
         hi = mid;
      }
   }
   return lo < wl->nskip && wl->skip[lo] == h;
}

/* one_row -- count a returned row: the digest, or the aggregate's group. */
static void
one_row (q_ctx_t *q, const bson_t *doc, const bson_t *elem)
{
   const lab_scan_opts_t *o = q->wl->opts;
   lab_scan_wl_acc_t *acc = q->acc;
   bson_iter_t it, it2;
   uint64_t h;

   if (!row_wanted (q, doc, elem)) {
      return;
   }
   acc->rows++;
   if (q->wl->kind == LAB_WL_AGGREGATE) {
      const bson_value_t *g = lab_scan_wl_row_field (doc, elem, o->wl.group_field, &it);
      const bson_value_t *s = lab_scan_wl_row_field (doc, elem, o->wl.sum_field, &it2);
      char name[256];
      double v = 0;
      if (!s || !as_double (s, &v)) {
         acc->missing_sum++;
         v = 0;
      }
      lab_scan_wl_group_add (acc, g ? lab_value_text (g, name, sizeof name) : "null", 1, v);
      return;
   }
   h = lab_scan_wl_read_hash (q->wl, &q->rh, doc, elem);
   acc->digest += lab_scan_wl_hash_skipped (q->wl, h) ? 0 : h;
}

/* one_row_cb -- lab_scan_wl_each_row's callback: one_row. */
static void
one_row_cb (const bson_t *doc, const bson_t *elem, void *ctx)
{
   one_row (ctx, doc, elem);
}

/* on_doc -- a returned document: its bytes, then its rows (a folded document's array elements; after a
 * server's $unwind the array field is one element, a document). */
static bool
on_doc (const bson_t *doc, void *ctx)
{
   q_ctx_t *q = ctx;

   q->acc->docs++;
   q->acc->doc_bytes += doc->len;
   q->acc->decoded += lab_scan_decode (doc, q->wl->opts->decode);
   lab_scan_rowhash_doc (&q->rh, doc);
   lab_scan_wl_each_row (doc, q->wl->opts->array_field, q->wl->array, one_row_cb, q);
   return true;
}

/* on_group -- server mode, aggregate: one group document {_id, total, n}. */
static bool
on_group (const bson_t *doc, void *ctx)
{
   q_ctx_t *q = ctx;
   bson_iter_t it;
   char name[256] = "null";
   double total = 0;
   int64_t n = 0;

   q->acc->docs++;
   q->acc->doc_bytes += doc->len;
   if (bson_iter_init_find (&it, doc, "_id")) {
      if (!BSON_ITER_HOLDS_NULL (&it)) {
         lab_value_text (bson_iter_value (&it), name, sizeof name);
      }
   }
   if (bson_iter_init_find (&it, doc, "total")) {
      as_double (bson_iter_value (&it), &total);
   }
   if (bson_iter_init_find (&it, doc, "n")) {
      double d = 0;
      as_double (bson_iter_value (&it), &d);
      n = (int64_t)d;
   }
   q->acc->rows += n;
   lab_scan_wl_group_add (q->acc, name, n, total);
   return true;
}

/* ---- items ---------------------------------------------------------------------------------------- */

/* lab_scan_wl_layout_init -- see workload.h. */
bool
lab_scan_wl_layout_init (lab_scan_wl_layout_t *wl, lab_store_session_t *sess, lab_scan_wl_kind_t kind,
                         lab_scan_wl_mode_t mode, const lab_scan_opts_t *o,
                         const lab_results_layout_t *layout, const lab_scan_wl_inputs_t *in,
                         bson_error_t *error)
{
   memset (wl, 0, sizeof *wl);
   wl->kind = kind;
   wl->mode = mode;
   wl->opts = o;
   wl->layout = layout;
   wl->array = lab_layout_doc_holds_many_rows (&layout->desc);
   wl->clustered = lab_layout_read_by_id_range (&layout->desc);
   wl->in = in;
   switch (kind) {
   case LAB_WL_ROW:
      wl->nitems = (in->nrows + o->wl.row_batch - 1) / o->wl.row_batch;
      return true;
   case LAB_WL_RANGE:
      wl->nitems = in->nwin;
      return true;
   case LAB_WL_APPEND:
   case LAB_WL_UPDATE:
      wl->writes = kind == LAB_WL_APPEND ? &in->append : &in->update;
      wl->nitems = wl->writes->n;
      return !wl->array || kind != LAB_WL_APPEND ||
             lab_scan_wl_fold_settings (sess, layout->collection, &wl->max_doc_bytes, &wl->bucket_rows,
                                        error);
   case LAB_WL_AGGREGATE:
      if (mode == LAB_WL_MODE_SERVER) {
         wl->nitems = 1;
         return true;
      } else {
         int n = 0;
         if (!lab_store_natural_ranges (sess, layout->collection, o->parallel, &wl->ranges, &n, error)) {
            return false;
         }
         wl->nitems = n;
      }
      return true;
   default:
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_KEYS, "workload %s has no items",
                     lab_scan_wl_name (kind));
      return false;
   }
}

/* lab_scan_wl_segments -- see workload.h. */
void
lab_scan_wl_segments (const lab_scan_wl_layout_t *wl, int parallel, int64_t *starts)
{
   int64_t g = 0;
   int i;

   lab_scan_keys_segment (wl->nitems, parallel, starts);
   if (!wl->writes || !wl->writes->group) {
      return;
   }
   for (i = 1; i < parallel; i++) {
      while (g < wl->writes->ngroups && wl->writes->group[g] < starts[i]) {
         g++;
      }
      starts[i] = wl->writes->group[g] > starts[i - 1] ? wl->writes->group[g] : starts[i - 1];
   }
}

/* lab_scan_wl_layout_cleanup -- see workload.h. */
void
lab_scan_wl_layout_cleanup (lab_scan_wl_layout_t *wl)
{
   bson_free (wl->ranges);
   wl->ranges = NULL;
}

/* tool_row -- the row workload's batch in tool mode: rows layout, one IXSCAN {key, line} + FETCH per
 * pair; array layout, one IXSCAN {key} + FETCH per distinct master, the elements asked for kept. */
static bool
tool_row (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, q_ctx_t *q, bson_error_t *error)
{
   const lab_scan_opts_t *o = wl->opts;
   lab_store_index_spec_t spec;
   char names[LAB_STORE_INDEX_MAX_FIELDS][256];
   int64_t i, j;

   lab_scan_wl_index (o, LAB_WL_ROW, wl->array, &spec, names);
   for (i = 0; i < q->nwant; i++) {
      const lab_scan_wl_row_t *r = &q->want[i];
      if (!wl->array) {
         bson_value_t eq[2];
         eq[0] = r->key;
         eq[1] = r->line;
         q->acc->queries++;
         if (!lab_store_index_find (sess, wl->layout->collection, &spec, eq, 2, NULL, NULL, on_doc, q, NULL,
                                    NULL, error)) {
            return false;
         }
         continue;
      }
      for (j = 0; j < i && !same_value (&q->want[j].key, &r->key); j++) {
      }
      if (j < i) {
         continue; /* this master was fetched for an earlier pair of the batch */
      }
      q->acc->queries++;
      if (!lab_scan_master_find (sess, wl->layout->collection, wl->clustered, o->key, &r->key, on_doc, q,
                                 NULL, error)) {
         return false;
      }
   }
   return true;
}

/* tool_range -- IXSCAN on the time index (multikey on an array layout: each document once) + FETCH, the
 * window's rows kept. */
static bool
tool_range (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, q_ctx_t *q, bson_error_t *error)
{
   lab_store_index_spec_t spec;
   char names[LAB_STORE_INDEX_MAX_FIELDS][256];
   bson_value_t lo = { .value_type = BSON_TYPE_DATE_TIME }, hi = { .value_type = BSON_TYPE_DATE_TIME };

   lab_scan_wl_index (wl->opts, LAB_WL_RANGE, wl->array, &spec, names);
   lo.value.v_datetime = q->lo;
   hi.value.v_datetime = q->hi;
   q->acc->queries++;
   return lab_store_index_find (sess, wl->layout->collection, &spec, NULL, 0, &lo, &hi, on_doc, q, NULL, NULL,
                                error);
}

/* tool_aggregate -- COLLSCAN of one natural range, every row grouped. */
static bool
tool_aggregate (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, int64_t i, q_ctx_t *q,
                bson_error_t *error)
{
   lab_store_natural_opts_t no = { .range = wl->ranges[i] };
   lab_store_cursor_t *cur = lab_store_natural_open (sess, wl->layout->collection, &no, error);
   const bson_t *doc;
   int rc;

   if (!cur) {
      return false;
   }
   q->acc->queries++;
   while ((rc = lab_store_cursor_next (cur, &doc, error)) > 0) {
      on_doc (doc, q);
   }
   lab_store_cursor_close (cur);
   return rc == 0;
}

/* lab_scan_wl_item -- see workload.h. */
bool
lab_scan_wl_item (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, int64_t i,
                  lab_scan_wl_acc_t *acc, bson_error_t *error)
{
   q_ctx_t q;
   bool ok;

   if (wl->item_fn) {
      return wl->item_fn (wl, sess, i, acc, error);
   }
   if (lab_scan_wl_is_write (wl->kind)) {
      return lab_scan_wl_write_item (wl, sess, i, acc, error);
   }
   memset (&q, 0, sizeof q);
   q.wl = wl;
   q.acc = acc;
   q.filter_rows = wl->mode == LAB_WL_MODE_TOOL && wl->array;
   q.rh.key_field = wl->opts->key;
   q.rh.array_field = wl->opts->array_field;
   if (wl->kind == LAB_WL_ROW) {
      int64_t first = i * wl->opts->wl.row_batch, end = first + wl->opts->wl.row_batch;
      q.want = &wl->in->rows[first];
      q.nwant = (end < wl->in->nrows ? end : wl->in->nrows) - first;
   } else if (wl->kind == LAB_WL_RANGE) {
      q.lo = wl->in->win_lo[i];
      q.hi = q.lo + wl->opts->wl.range_window_ms;
   }
   if (wl->mode == LAB_WL_MODE_SERVER) {
      bson_t filter, opts;
      bool pipeline;
      lab_scan_wl_server_command (wl, i, &filter, &opts, &pipeline);
      acc->queries++;
      ok = lab_store_server_query (sess, wl->layout->collection, pipeline ? NULL : &filter,
                                   pipeline ? &filter : NULL, &opts,
                                   wl->kind == LAB_WL_AGGREGATE ? on_group : on_doc, &q, NULL, error);
      bson_destroy (&filter);
      bson_destroy (&opts);
   } else if (wl->kind == LAB_WL_ROW) {
      ok = tool_row (wl, sess, &q, error);
   } else if (wl->kind == LAB_WL_RANGE) {
      ok = tool_range (wl, sess, &q, error);
   } else {
      ok = tool_aggregate (wl, sess, i, &q, error);
   }
   lab_scan_rowhash_cleanup (&q.rh);
   if (!ok) {
      lab_error_prefix (error, "%s workload on %s (query %lld)", lab_scan_wl_name (wl->kind),
                        wl->layout->collection, (long long)i + 1);
   }
   return ok;
}
