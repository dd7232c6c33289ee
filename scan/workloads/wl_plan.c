/*
 * wl_plan.c -- what each workload asks of a layout (workload.h): the index a DBA creates for it, the plan
 * mongod's planner chooses with that index (docs/mongodb-compat.md §19), and the command a MongoDB
 * server is sent. Pure: no store, unit-tested.
 */
#include "scan/workloads/workload.h"

#include <stdio.h>
#include <string.h>

/* lab_scan_wl_index -- see workload.h; names[] holds the fields' strings spec points into. */
bool
lab_scan_wl_index (const lab_scan_opts_t *o, lab_scan_wl_kind_t kind, bool array,
                   lab_store_index_spec_t *spec, char names[][256])
{
   memset (spec, 0, sizeof *spec);
   switch (kind) {
   case LAB_WL_LOAD:
      bson_snprintf (names[0], 256, "%s", o->key);
      spec->n = 1;
      break;
   case LAB_WL_ROW:
      bson_snprintf (names[0], 256, "%s", o->key);
      spec->n = 1;
      if (!array) {
         bson_snprintf (names[1], 256, "%s", o->wl.line_field);
         spec->n = 2;
      }
      break;
   case LAB_WL_RANGE:
      if (array) {
         bson_snprintf (names[0], 256, "%s.%s", o->array_field, o->wl.time_field);
      } else {
         bson_snprintf (names[0], 256, "%s", o->wl.time_field);
      }
      spec->n = 1;
      break;
   default:
      return false;
   }
   for (int i = 0; i < spec->n; i++) {
      spec->fields[i] = names[i];
   }
   return true;
}

/* pattern_text -- "{ a: 1, b: 1 }" of a key pattern. */
static void
pattern_text (const lab_store_index_spec_t *spec, char *buf, size_t len)
{
   size_t used = 0;
   int i;

   used += (size_t)bson_snprintf (buf, len, "{ ");
   for (i = 0; i < spec->n && used < len; i++) {
      used += (size_t)bson_snprintf (buf + used, len - used, "%s%s: 1", i ? ", " : "", spec->fields[i]);
   }
   if (used < len) {
      bson_snprintf (buf + used, len - used, " }");
   }
}

/* lab_scan_wl_plan -- see workload.h. */
void
lab_scan_wl_plan (const lab_scan_opts_t *o, lab_scan_wl_kind_t kind, bool array, int32_t batch, char *buf,
                  size_t len)
{
   lab_store_index_spec_t spec;
   char names[LAB_STORE_INDEX_MAX_FIELDS][256], pat[600];

   if (kind == LAB_WL_APPEND) {
      if (array) {
         bson_snprintf (buf, len,
                        "IXSCAN { %s: 1 } + FETCH of the master's parts, $push onto the last, "
                        "replace by _id (a new part at the cap)",
                        o->key);
      } else {
         bson_snprintf (buf, len, "insert");
      }
      return;
   }
   if (kind == LAB_WL_UPDATE) {
      if (array) {
         bson_snprintf (buf, len, "IXSCAN { %s: 1 } + FETCH, $set of the element with %s, replace by _id",
                        o->key, o->wl.line_field);
      } else {
         /* an update by _id: IDHACK under UPDATE (4.2 to 7.x), the express path from 8.0 */
         bson_snprintf (buf, len, "UPDATE + IDHACK (EXPRESS_UPDATE from 8.0), $set %s, replace by _id",
                        o->wl.sum_field);
      }
      return;
   }
   if (!lab_scan_wl_index (o, kind, array, &spec, names)) {
      bson_snprintf (buf, len, "COLLSCAN + GROUP");
      return;
   }
   pattern_text (&spec, pat, sizeof pat);
   switch (kind) {
   case LAB_WL_ROW:
      if (!array) {
         bson_snprintf (buf, len, "%sIXSCAN %s + FETCH", batch > 1 ? "OR of " : "", pat);
      } else {
         bson_snprintf (buf, len, "IXSCAN %s + FETCH + PROJECTION_DEFAULT ($elemMatch on %s)", pat,
                        o->wl.line_field);
      }
      return;
   case LAB_WL_RANGE:
      bson_snprintf (buf, len, "IXSCAN %s%s + FETCH%s", pat, array ? " (multikey: each document once)" : "",
                     array ? " + $filter of the window's elements" : "");
      return;
   default:
      bson_snprintf (buf, len, "IXSCAN %s + FETCH", pat);
      return;
   }
}

/* append_pattern -- hint: { field: 1, ... } of spec. */
static void
append_pattern (bson_t *doc, const char *name, const lab_store_index_spec_t *spec)
{
   bson_t p;
   int i;

   bson_append_document_begin (doc, name, -1, &p);
   for (i = 0; i < spec->n; i++) {
      BSON_APPEND_INT32 (&p, spec->fields[i], 1);
   }
   bson_append_document_end (doc, &p);
}

/* append_window -- {$gte: lo, $lt: hi} under `name`. */
static void
append_window (bson_t *doc, const char *name, int64_t lo, int64_t hi)
{
   bson_t w;

   bson_append_document_begin (doc, name, -1, &w);
   BSON_APPEND_DATE_TIME (&w, "$gte", lo);
   BSON_APPEND_DATE_TIME (&w, "$lt", hi);
   bson_append_document_end (doc, &w);
}

/* row_command -- the row workload: rows layout find {key, line} ($or of a batch) hinted {key, line};
 * array layout, one pair: find {key, array.line} with the $elemMatch projection; a batch: aggregate
 * [$match key $in, $unwind, $match $or of the pairs]. */
static void
row_command (const lab_scan_wl_layout_t *wl, int64_t i, const lab_store_index_spec_t *spec, bson_t *filter,
             bson_t *opts, bool *is_pipeline)
{
   const lab_scan_opts_t *o = wl->opts;
   int64_t first = i * o->wl.row_batch, end = first + o->wl.row_batch, j;
   char path[512], k[16];
   bson_t arr, st, m, inner, e, or ;

   end = end < wl->in->nrows ? end : wl->in->nrows;
   bson_snprintf (path, sizeof path, "%s.%s", o->array_field, o->wl.line_field);
   if (!wl->array || end - first == 1) {
      bson_t *f = filter;
      if (end - first > 1) {
         BSON_APPEND_ARRAY_BEGIN (filter, "$or", & or);
      }
      for (j = first; j < end; j++) {
         if (end - first > 1) {
            bson_snprintf (k, sizeof k, "%d", (int)(j - first));
            bson_append_document_begin (& or, k, -1, &e);
            f = &e;
         }
         BSON_APPEND_VALUE (f, o->key, &wl->in->rows[j].key);
         BSON_APPEND_VALUE (f, wl->array ? path : o->wl.line_field, &wl->in->rows[j].line);
         if (end - first > 1) {
            bson_append_document_end (& or, &e);
         }
      }
      if (end - first > 1) {
         bson_append_array_end (filter, & or);
      }
      if (wl->array) {
         BSON_APPEND_DOCUMENT_BEGIN (opts, "projection", &m);
         BSON_APPEND_INT32 (&m, o->key, 1);
         BSON_APPEND_DOCUMENT_BEGIN (&m, o->array_field, &inner);
         BSON_APPEND_DOCUMENT_BEGIN (&inner, "$elemMatch", &e);
         BSON_APPEND_VALUE (&e, o->wl.line_field, &wl->in->rows[first].line);
         bson_append_document_end (&inner, &e);
         bson_append_document_end (&m, &inner);
         bson_append_document_end (opts, &m);
      }
      append_pattern (opts, "hint", spec);
      *is_pipeline = false;
      return;
   }
   *is_pipeline = true;
   BSON_APPEND_DOCUMENT_BEGIN (filter, "0", &st);
   BSON_APPEND_DOCUMENT_BEGIN (&st, "$match", &m);
   BSON_APPEND_DOCUMENT_BEGIN (&m, o->key, &inner);
   BSON_APPEND_ARRAY_BEGIN (&inner, "$in", &arr);
   for (j = first; j < end; j++) {
      bson_snprintf (k, sizeof k, "%d", (int)(j - first));
      bson_append_value (&arr, k, -1, &wl->in->rows[j].key);
   }
   bson_append_array_end (&inner, &arr);
   bson_append_document_end (&m, &inner);
   bson_append_document_end (&st, &m);
   bson_append_document_end (filter, &st);
   BSON_APPEND_DOCUMENT_BEGIN (filter, "1", &st);
   bson_snprintf (path, sizeof path, "$%s", o->array_field);
   BSON_APPEND_UTF8 (&st, "$unwind", path);
   bson_append_document_end (filter, &st);
   BSON_APPEND_DOCUMENT_BEGIN (filter, "2", &st);
   BSON_APPEND_DOCUMENT_BEGIN (&st, "$match", &m);
   BSON_APPEND_ARRAY_BEGIN (&m, "$or", & or);
   bson_snprintf (path, sizeof path, "%s.%s", o->array_field, o->wl.line_field);
   for (j = first; j < end; j++) {
      bson_snprintf (k, sizeof k, "%d", (int)(j - first));
      bson_append_document_begin (& or, k, -1, &e);
      BSON_APPEND_VALUE (&e, o->key, &wl->in->rows[j].key);
      BSON_APPEND_VALUE (&e, path, &wl->in->rows[j].line);
      bson_append_document_end (& or, &e);
   }
   bson_append_array_end (&m, & or);
   bson_append_document_end (&st, &m);
   bson_append_document_end (filter, &st);
   append_pattern (opts, "hint", spec);
}

/* range_command -- rows layout: find {time: window} hinted {time: 1}; array layout: aggregate [$match
 * {array: {$elemMatch: {time: window}}}, $project {key, array: $filter of the window}] hinted on the
 * multikey index (an $elemMatch keeps both bounds on one element, so the index bounds are the window). */
static void
range_command (const lab_scan_wl_layout_t *wl, int64_t i, const lab_store_index_spec_t *spec, bson_t *filter,
               bson_t *opts, bool *is_pipeline)
{
   const lab_scan_opts_t *o = wl->opts;
   int64_t lo = wl->in->win_lo[i], hi = lo + o->wl.range_window_ms;
   char var[300], in[300];
   bson_t st, m, inner, e, f, cond, and, c0, c1, a0, a1;

   append_pattern (opts, "hint", spec);
   if (!wl->array) {
      append_window (filter, o->wl.time_field, lo, hi);
      *is_pipeline = false;
      return;
   }
   *is_pipeline = true;
   BSON_APPEND_DOCUMENT_BEGIN (filter, "0", &st);
   BSON_APPEND_DOCUMENT_BEGIN (&st, "$match", &m);
   BSON_APPEND_DOCUMENT_BEGIN (&m, o->array_field, &inner);
   BSON_APPEND_DOCUMENT_BEGIN (&inner, "$elemMatch", &e);
   append_window (&e, o->wl.time_field, lo, hi);
   bson_append_document_end (&inner, &e);
   bson_append_document_end (&m, &inner);
   bson_append_document_end (&st, &m);
   bson_append_document_end (filter, &st);

   BSON_APPEND_DOCUMENT_BEGIN (filter, "1", &st);
   BSON_APPEND_DOCUMENT_BEGIN (&st, "$project", &m);
   BSON_APPEND_INT32 (&m, o->key, 1);
   BSON_APPEND_DOCUMENT_BEGIN (&m, o->array_field, &inner);
   BSON_APPEND_DOCUMENT_BEGIN (&inner, "$filter", &f);
   bson_snprintf (in, sizeof in, "$%s", o->array_field);
   BSON_APPEND_UTF8 (&f, "input", in);
   BSON_APPEND_DOCUMENT_BEGIN (&f, "cond", &cond);
   BSON_APPEND_ARRAY_BEGIN (&cond, "$and", &and);
   bson_snprintf (var, sizeof var, "$$this.%s", o->wl.time_field);
   BSON_APPEND_DOCUMENT_BEGIN (&and, "0", &c0);
   BSON_APPEND_ARRAY_BEGIN (&c0, "$gte", &a0);
   BSON_APPEND_UTF8 (&a0, "0", var);
   BSON_APPEND_DATE_TIME (&a0, "1", lo);
   bson_append_array_end (&c0, &a0);
   bson_append_document_end (&and, &c0);
   BSON_APPEND_DOCUMENT_BEGIN (&and, "1", &c1);
   BSON_APPEND_ARRAY_BEGIN (&c1, "$lt", &a1);
   BSON_APPEND_UTF8 (&a1, "0", var);
   BSON_APPEND_DATE_TIME (&a1, "1", hi);
   bson_append_array_end (&c1, &a1);
   bson_append_document_end (&and, &c1);
   bson_append_array_end (&cond, &and);
   bson_append_document_end (&f, &cond);
   bson_append_document_end (&inner, &f);
   bson_append_document_end (&m, &inner);
   bson_append_document_end (&st, &m);
   bson_append_document_end (filter, &st);
}

/* row_value -- {$ifNull: ["$array.field", "$field"]}: the element's value, else the hoisted one. */
static void
append_row_value (bson_t *doc, const char *name, const lab_scan_wl_layout_t *wl, const char *field)
{
   char a[300], t[300];
   bson_t d, arr;

   if (!wl->array) {
      bson_snprintf (t, sizeof t, "$%s", field);
      bson_append_utf8 (doc, name, -1, t, -1);
      return;
   }
   bson_snprintf (a, sizeof a, "$%s.%s", wl->opts->array_field, field);
   bson_snprintf (t, sizeof t, "$%s", field);
   bson_append_document_begin (doc, name, -1, &d);
   BSON_APPEND_ARRAY_BEGIN (&d, "$ifNull", &arr);
   BSON_APPEND_UTF8 (&arr, "0", a);
   BSON_APPEND_UTF8 (&arr, "1", t);
   bson_append_array_end (&d, &arr);
   bson_append_document_end (doc, &d);
}

/* aggregate_command -- [$unwind (array layouts), $group {_id: group, total: $sum sum, n: $sum 1}],
 * allowDiskUse. */
static void
aggregate_command (const lab_scan_wl_layout_t *wl, bson_t *filter, bson_t *opts)
{
   const lab_scan_opts_t *o = wl->opts;
   char path[300];
   bson_t st, g, t, n;
   int s = 0;
   char k[4];

   if (wl->array) {
      bson_snprintf (k, sizeof k, "%d", s++);
      BSON_APPEND_DOCUMENT_BEGIN (filter, k, &st);
      bson_snprintf (path, sizeof path, "$%s", o->array_field);
      BSON_APPEND_UTF8 (&st, "$unwind", path);
      bson_append_document_end (filter, &st);
   }
   bson_snprintf (k, sizeof k, "%d", s);
   BSON_APPEND_DOCUMENT_BEGIN (filter, k, &st);
   BSON_APPEND_DOCUMENT_BEGIN (&st, "$group", &g);
   append_row_value (&g, "_id", wl, o->wl.group_field);
   BSON_APPEND_DOCUMENT_BEGIN (&g, "total", &t);
   append_row_value (&t, "$sum", wl, o->wl.sum_field);
   bson_append_document_end (&g, &t);
   BSON_APPEND_DOCUMENT_BEGIN (&g, "n", &n);
   BSON_APPEND_INT32 (&n, "$sum", 1);
   bson_append_document_end (&g, &n);
   bson_append_document_end (&st, &g);
   bson_append_document_end (filter, &st);
   BSON_APPEND_BOOL (opts, "allowDiskUse", true);
}

/* lab_scan_wl_server_command -- see workload.h. */
void
lab_scan_wl_server_command (const lab_scan_wl_layout_t *wl, int64_t i, bson_t *filter, bson_t *opts,
                            bool *is_pipeline)
{
   lab_store_index_spec_t spec;
   char names[LAB_STORE_INDEX_MAX_FIELDS][256];

   bson_init (filter);
   bson_init (opts);
   *is_pipeline = true;
   lab_scan_wl_index (wl->opts, wl->kind, wl->array, &spec, names);
   switch (wl->kind) {
   case LAB_WL_ROW:
      row_command (wl, i, &spec, filter, opts, is_pipeline);
      return;
   case LAB_WL_RANGE:
      range_command (wl, i, &spec, filter, opts, is_pipeline);
      return;
   default:
      aggregate_command (wl, filter, opts);
      return;
   }
}
