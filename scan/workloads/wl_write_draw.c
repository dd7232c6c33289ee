/*
 * wl_write_draw.c -- the write workloads' inputs (workload.h): the appends and corrections drawn from the
 * data by --seed (a master's rows read, a new row made like its last one, a row to correct and its new
 * value), grouped by master in draw order. The writes themselves: wl_write.c.
 */
#include "scan/hash.h"
#include "scan/workloads/workload.h"

#include "core/error.h"
#include "core/log.h"

#include <stdlib.h>
#include <string.h>

/* ---- drawing ----------------------------------------------------------------------------------- */

/* One master's rows as the draw sees them: one row kept by reservoir, the largest line and time. */
typedef struct {
   const lab_scan_opts_t *o;
   uint64_t *rng;
   int64_t seen;
   bson_t *pick;
   bool have_line, have_time;
   double max_line;
   bson_type_t line_type;
   int64_t max_time;
} master_t;

/* on_row -- a row of the master: kept with probability 1 / rows seen; its line and time folded into the
 * maxima. */
static bool
on_row (const bson_t *doc, void *ctx)
{
   master_t *m = ctx;
   bson_iter_t it;

   m->seen++;
   if (bson_iter_init_find (&it, doc, m->o->wl.line_field) &&
       (BSON_ITER_HOLDS_INT32 (&it) || BSON_ITER_HOLDS_INT64 (&it) || BSON_ITER_HOLDS_DOUBLE (&it))) {
      double v = bson_iter_as_double (&it);
      if (!m->have_line || v > m->max_line) {
         m->max_line = v;
      }
      m->line_type = bson_iter_type (&it);
      m->have_line = true;
   }
   if (bson_iter_init_find (&it, doc, m->o->wl.time_field) && BSON_ITER_HOLDS_DATE_TIME (&it)) {
      int64_t t = bson_iter_date_time (&it);
      if (!m->have_time || t > m->max_time) {
         m->max_time = t;
      }
      m->have_time = true;
   }
   if (lab_scan_rand64 (m->rng) % (uint64_t)m->seen == 0) {
      bson_destroy (m->pick);
      m->pick = bson_copy (doc);
   }
   return true;
}

/* read_master -- every row of master `key` in the rows layout into *m. */
static bool
read_master (lab_store_session_t *sess, const lab_scan_opts_t *o, const char *coll, const bson_value_t *key,
             master_t *m, bson_error_t *error)
{
   char kb[128];

   if (!lab_scan_find_master (sess, coll, o->key, key, on_row, m, NULL, error)) {
      lab_error_prefix (error, "drawing the write workloads' rows from %s", coll);
      return false;
   }
   if (m->seen == 0 || !m->have_line) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                     "drawing the write workloads' rows from %s: master %s %s has %s", coll, o->key,
                     lab_value_text (key, kb, sizeof kb),
                     m->seen == 0 ? "no row" : "no numeric line field (--line-field)");
      return false;
   }
   return true;
}

/* number_as -- v as a value of type t (int32, int64 or double). */
static void
number_as (bson_type_t t, double v, bson_value_t *out)
{
   memset (out, 0, sizeof *out);
   out->value_type = t;
   if (t == BSON_TYPE_INT32) {
      out->value.v_int32 = (int32_t)v;
   } else if (t == BSON_TYPE_INT64) {
      out->value.v_int64 = (int64_t)v;
   } else {
      out->value_type = BSON_TYPE_DOUBLE;
      out->value.v_double = v;
   }
}

/* new_amount -- a new value of the sum field: cents from 1.00 to 500.00, as billgen's amounts. */
static void
new_amount (uint64_t *rng, bson_value_t *out)
{
   memset (out, 0, sizeof *out);
   out->value_type = BSON_TYPE_DOUBLE;
   out->value.v_double = (double)(100 + lab_scan_rand64 (rng) % 49901) / 100.0;
}

/* make_row -- the new row: the template's fields in order, with the new _id, line, time and amount. */
static bson_t *
make_row (const lab_scan_opts_t *o, const bson_t *tmpl, const bson_value_t *id, const bson_value_t *line,
          int64_t time_ms, bool set_time, const bson_value_t *amount)
{
   bson_t *row = bson_new ();
   bson_iter_t it;

   BSON_APPEND_VALUE (row, "_id", id);
   bson_iter_init (&it, tmpl);
   while (bson_iter_next (&it)) {
      const char *k = bson_iter_key (&it);
      if (strcmp (k, "_id") == 0) {
         continue;
      } else if (strcmp (k, o->wl.line_field) == 0) {
         BSON_APPEND_VALUE (row, k, line);
      } else if (set_time && strcmp (k, o->wl.time_field) == 0) {
         BSON_APPEND_DATE_TIME (row, k, time_ms);
      } else if (strcmp (k, o->wl.sum_field) == 0) {
         BSON_APPEND_VALUE (row, k, amount);
      } else {
         bson_append_iter (row, k, -1, &it);
      }
   }
   return row;
}

/* draw_appends -- the append workload's rows (see lab_scan_wl_writes_draw). */
static bool
draw_appends (lab_store_session_t *sess, const lab_scan_opts_t *o, const char *coll, const bson_value_t *keys,
              int64_t nkeys, lab_scan_wl_writes_t *ws, bson_error_t *error)
{
   uint64_t rng = o->wl.seed ^ 0x617070656e64ull; /* "append" */
   int64_t first = o->wl.append_to == 0 ? nkeys - (nkeys + 9) / 10 : 0, j, i;
   int64_t span = nkeys - first;
   /* per drawn master: its next line and time, so that its appends follow each other */
   int64_t *slot = bson_malloc0 ((size_t)span * sizeof *slot), nm = 0;
   master_t *ms = bson_malloc0 ((size_t)span * sizeof *ms);
   bool ok = true;

   for (i = 0; i < span; i++) {
      slot[i] = -1;
   }
   ws->w = bson_malloc0 ((size_t)o->wl.append_rows * sizeof *ws->w);
   for (j = 0; j < o->wl.append_rows && ok; j++) {
      int64_t ki = (int64_t)(lab_scan_rand64 (&rng) % (uint64_t)span);
      lab_scan_wl_write_t *w = &ws->w[j];
      master_t *m;
      bson_oid_t oid;
      uint8_t b[12];
      uint64_t r1 = lab_scan_rand64 (&rng), r2 = lab_scan_rand64 (&rng);
      bson_value_t id = { .value_type = BSON_TYPE_OID }, amount;

      if (slot[ki] < 0) {
         slot[ki] = nm++;
         ms[slot[ki]].o = o;
         ms[slot[ki]].rng = &rng;
         ok = read_master (sess, o, coll, &keys[first + ki], &ms[slot[ki]], error);
         if (!ok) {
            break;
         }
      }
      m = &ms[slot[ki]];
      /* the _id depends on the data too (the master's rows and its last line), so that appending again
       * with the same seed to data that already holds the earlier appends gives new _ids */
      r1 ^=
         (uint64_t)m->seen * 0x9e3779b97f4a7c15ull ^ (uint64_t)(int64_t)m->max_line * 0xc2b2ae3d27d4eb4full;
      memcpy (b, &r1, 8);
      memcpy (b + 8, &r2, 4);
      bson_oid_init_from_data (&oid, b);
      id.value.v_oid = oid;
      m->max_line += 1;
      m->max_time += 60000;
      new_amount (&rng, &amount);
      bson_value_copy (&keys[first + ki], &w->key);
      number_as (m->line_type, m->max_line, &w->line);
      bson_value_copy (&id, &w->id);
      w->row = make_row (o, m->pick, &id, &w->line, m->max_time, m->have_time, &amount);
      ws->new_row_bytes += w->row->len;
      ws->n = j + 1;
   }
   for (i = 0; i < nm; i++) {
      bson_destroy (ms[i].pick);
   }
   bson_free (ms);
   bson_free (slot);
   return ok;
}

/* draw_updates -- the update workload's corrections (see lab_scan_wl_writes_draw). */
static bool
draw_updates (lab_store_session_t *sess, const lab_scan_opts_t *o, const char *coll, const bson_value_t *keys,
              int64_t nkeys, lab_scan_wl_writes_t *ws, bson_error_t *error)
{
   uint64_t rng = o->wl.seed ^ 0x757064617465ull; /* "update" */
   int64_t j;

   ws->w = bson_malloc0 ((size_t)o->wl.update_rows * sizeof *ws->w);
   for (j = 0; j < o->wl.update_rows; j++) {
      const bson_value_t *key = &keys[lab_scan_rand64 (&rng) % (uint64_t)nkeys];
      lab_scan_wl_write_t *w = &ws->w[j];
      master_t m = { o, &rng };
      bson_iter_t it;
      bool ok = read_master (sess, o, coll, key, &m, error);

      if (ok && (!bson_iter_init_find (&it, m.pick, "_id"))) {
         lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH, "a row of %s has no _id", coll);
         ok = false;
      }
      if (ok) {
         bson_value_copy (key, &w->key);
         bson_value_copy (bson_iter_value (&it), &w->id);
         if (bson_iter_init_find (&it, m.pick, o->wl.line_field)) {
            bson_value_copy (bson_iter_value (&it), &w->line);
         }
         new_amount (&rng, &w->value);
         ws->new_row_bytes += (int64_t)strlen (o->wl.sum_field) + 2 + 8; /* the element set */
         ws->n = j + 1;
      }
      bson_destroy (m.pick);
      if (!ok) {
         return false;
      }
   }
   return true;
}

/* One write's place in the grouping sort: its master as text, its draw position (the sort is stable). */
typedef struct {
   char key[128];
   int64_t pos;
} sort_item_t;

/* item_cmp -- by master text, then draw order. */
static int
item_cmp (const void *a, const void *b)
{
   const sort_item_t *x = a, *y = b;
   int c = strcmp (x->key, y->key);
   return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* lab_scan_wl_writes_group -- see workload.h (a sort on the masters' text, stable by draw position). */
void
lab_scan_wl_writes_group (lab_scan_wl_writes_t *ws)
{
   sort_item_t *items = bson_malloc0 ((size_t)(ws->n + 1) * sizeof *items);
   lab_scan_wl_write_t *sorted = bson_malloc0 ((size_t)(ws->n + 1) * sizeof *sorted);
   int64_t i;

   for (i = 0; i < ws->n; i++) {
      lab_value_text (&ws->w[i].key, items[i].key, sizeof items[i].key);
      items[i].pos = i;
   }
   qsort (items, (size_t)ws->n, sizeof *items, item_cmp);
   bson_free (ws->group);
   ws->group = bson_malloc0 ((size_t)(ws->n + 1) * sizeof *ws->group);
   ws->ngroups = 0;
   for (i = 0; i < ws->n; i++) {
      sorted[i] = ws->w[items[i].pos];
      if (i == 0 || strcmp (items[i - 1].key, items[i].key) != 0) {
         ws->group[ws->ngroups++] = i;
      }
   }
   ws->group[ws->ngroups] = ws->n;
   if (ws->n > 0) {
      memcpy (ws->w, sorted, (size_t)ws->n * sizeof *sorted);
   }
   bson_free (sorted);
   bson_free (items);
}

/* lab_scan_wl_writes_draw -- see workload.h. */
bool
lab_scan_wl_writes_draw (lab_store_session_t *sess, const lab_scan_opts_t *o, unsigned set,
                         const lab_results_layout_t *rows_layout, const bson_value_t *keys, int64_t nkeys,
                         lab_scan_wl_inputs_t *in, bson_error_t *error)
{
   if (!(set & LAB_WL_MASK_WRITES)) {
      return true;
   }
   if (!rows_layout) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--workload append/update: the writes are drawn from a layout of kind rows (the rows' "
                     "shape and _ids), and none is given");
      return false;
   }
   if (nkeys <= 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_KEYS, "no master key to draw the writes for");
      return false;
   }
   if (set & (1u << LAB_WL_APPEND)) {
      lab_log_info ("drawing %lld appended rows for %s masters of %s (seed %llu)",
                    (long long)o->wl.append_rows, o->wl.append_to == 0 ? "the most recent" : "random",
                    rows_layout->collection, (unsigned long long)o->wl.seed);
      if (!draw_appends (sess, o, rows_layout->collection, keys, nkeys, &in->append, error)) {
         return false;
      }
      lab_scan_wl_writes_group (&in->append);
   }
   if (set & (1u << LAB_WL_UPDATE)) {
      lab_log_info ("drawing %lld rows to correct from %s (seed %llu)", (long long)o->wl.update_rows,
                    rows_layout->collection, (unsigned long long)o->wl.seed);
      if (!draw_updates (sess, o, rows_layout->collection, keys, nkeys, &in->update, error)) {
         return false;
      }
      lab_scan_wl_writes_group (&in->update);
   }
   return true;
}

/* lab_scan_wl_writes_cleanup -- see workload.h. */
void
lab_scan_wl_writes_cleanup (lab_scan_wl_writes_t *ws)
{
   int64_t i;

   for (i = 0; i < ws->n; i++) {
      bson_value_destroy (&ws->w[i].key);
      bson_value_destroy (&ws->w[i].line);
      bson_value_destroy (&ws->w[i].id);
      bson_destroy (ws->w[i].row);
   }
   bson_free (ws->w);
   bson_free (ws->group);
   memset (ws, 0, sizeof *ws);
}
