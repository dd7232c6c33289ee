/*
 * workload.c -- the workloads' names and option, the inputs drawn from the data, what a layout returned
 * (rows, a digest, the aggregate's groups) and the row view of a document (see workload.h).
 */
#include "scan/hash.h"
#include "scan/workloads/workload.h"

#include "core/error.h"
#include "core/log.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* lab_scan_wl_is_write -- see workload.h. */
bool
lab_scan_wl_is_write (lab_scan_wl_kind_t k)
{
   return k == LAB_WL_APPEND || k == LAB_WL_UPDATE;
}

/* lab_scan_wl_name -- see workload.h. */
const char *
lab_scan_wl_name (lab_scan_wl_kind_t k)
{
   return lab_mix_spec_name ((int)k);
}

/* lab_scan_wl_parse -- see workload.h. */
bool
lab_scan_wl_parse (const char *s, unsigned *set, bson_error_t *error)
{
   return lab_mix_spec_list_parse ("--workload", s, set, error);
}

/* lab_scan_wl_parse_opt -- see workload.h. */
bool
lab_scan_wl_parse_opt (const char *value, void *field, const char *name, bson_error_t *error)
{
   (void)name;
   return lab_scan_wl_parse (value, field, error);
}

/* ---- the row view ---------------------------------------------------------------------------------- */

/* lab_scan_wl_row_field -- see workload.h. */
const bson_value_t *
lab_scan_wl_row_field (const bson_t *doc, const bson_t *elem, const char *field, bson_iter_t *scratch)
{
   if (elem && bson_iter_init_find (scratch, elem, field)) {
      return bson_iter_value (scratch);
   }
   if (doc && bson_iter_init_find (scratch, doc, field)) {
      return bson_iter_value (scratch);
   }
   return NULL;
}

/* lab_scan_wl_row_id -- see workload.h: a clustered row's _id {<key_field>: K, id: X} (exactly those two
 * fields, in that order: lab_store_clustered_row) gives X. */
const bson_value_t *
lab_scan_wl_row_id (const bson_t *doc, const bson_t *elem, const char *key_field, bson_iter_t *scratch)
{
   const bson_value_t *id = lab_scan_wl_row_field (elem ? elem : doc, NULL, "_id", scratch);
   bson_iter_t in, last;

   if (elem || !id || id->value_type != BSON_TYPE_DOCUMENT || !bson_iter_recurse (scratch, &in) ||
       !bson_iter_next (&in) || strcmp (bson_iter_key (&in), key_field) != 0 || !bson_iter_next (&in) ||
       strcmp (bson_iter_key (&in), LAB_STORE_CLUSTERED_ID) != 0) {
      return id;
   }
   last = in;
   if (bson_iter_next (&in)) {
      return id;
   }
   *scratch = last;
   return bson_iter_value (scratch);
}

/* lab_scan_wl_each_row -- see workload.h. */
void
lab_scan_wl_each_row (const bson_t *doc, const char *array_field, bool array, lab_scan_wl_row_fn fn,
                      void *ctx)
{
   bson_iter_t it, child;
   const uint8_t *data;
   uint32_t len;
   bson_t elem;

   if (!array) {
      fn (doc, NULL, ctx);
      return;
   }
   if (!bson_iter_init_find (&it, doc, array_field)) {
      return;
   }
   if (BSON_ITER_HOLDS_DOCUMENT (&it)) {
      /* a server's $unwind leaves one element in place of the array */
      bson_iter_document (&it, &len, &data);
      if (bson_init_static (&elem, data, len)) {
         fn (doc, &elem, ctx);
      }
      return;
   }
   if (!BSON_ITER_HOLDS_ARRAY (&it) || !bson_iter_recurse (&it, &child)) {
      return;
   }
   while (bson_iter_next (&child)) {
      if (!BSON_ITER_HOLDS_DOCUMENT (&child)) {
         continue;
      }
      bson_iter_document (&child, &len, &data);
      if (bson_init_static (&elem, data, len)) {
         fn (doc, &elem, ctx);
      }
   }
}

/* hash_text -- FNV-1a of a string, finalized. */
static uint64_t
hash_text (const char *s, uint64_t h)
{
   for (; *s; s++) {
      h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
   }
   return lab_scan_mix64 (h);
}

/* lab_scan_wl_id_hash -- see workload.h: the key and the row _id as extended JSON text. */
uint64_t
lab_scan_wl_id_hash (const bson_value_t *key, const bson_value_t *row_id)
{
   char kb[256], ib[256];
   uint64_t h = 0xcbf29ce484222325ull;

   if (key) {
      h = hash_text (lab_value_text (key, kb, sizeof kb), h);
   }
   h = hash_text ("/", h);
   if (row_id) {
      h = hash_text (lab_value_text (row_id, ib, sizeof ib), h);
   }
   return h;
}

/* ---- groups -------------------------------------------------------------------------------------- */

/* lab_scan_wl_group_add -- see workload.h (linear in the groups: a group field has tens of values). */
void
lab_scan_wl_group_add (lab_scan_wl_acc_t *acc, const char *name, int64_t rows, double v)
{
   size_t i;

   for (i = 0; i < acc->ngroups; i++) {
      if (strcmp (acc->groups[i].name, name) == 0) {
         break;
      }
   }
   if (i == acc->ngroups) {
      if (acc->ngroups == acc->capgroups) {
         acc->capgroups = acc->capgroups ? acc->capgroups * 2 : 16;
         acc->groups = bson_realloc (acc->groups, acc->capgroups * sizeof *acc->groups);
      }
      acc->groups[i].name = bson_strdup (name);
      acc->groups[i].rows = 0;
      acc->groups[i].total = 0;
      acc->ngroups++;
   }
   acc->groups[i].rows += rows;
   acc->groups[i].total += v;
}

/* lab_scan_wl_acc_merge -- see workload.h. */
void
lab_scan_wl_acc_merge (lab_scan_wl_acc_t *into, const lab_scan_wl_acc_t *from)
{
   size_t i;

   into->queries += from->queries;
   into->rows += from->rows;
   into->docs += from->docs;
   into->doc_bytes += from->doc_bytes;
   into->digest += from->digest;
   into->missing_sum += from->missing_sum;
   into->writes += from->writes;
   into->docs_written += from->docs_written;
   into->parts_created += from->parts_created;
   for (i = 0; i < from->ngroups; i++) {
      lab_scan_wl_group_add (into, from->groups[i].name, from->groups[i].rows, from->groups[i].total);
   }
}

/* lab_scan_wl_acc_cleanup -- see workload.h. */
void
lab_scan_wl_acc_cleanup (lab_scan_wl_acc_t *acc)
{
   size_t i;

   for (i = 0; i < acc->ngroups; i++) {
      bson_free (acc->groups[i].name);
   }
   bson_free (acc->groups);
   memset (acc, 0, sizeof *acc);
}

/* group_cmp -- by name, bytewise. */
static int
group_cmp (const void *a, const void *b)
{
   return strcmp (((const lab_scan_wl_group_t *)a)->name, ((const lab_scan_wl_group_t *)b)->name);
}

/* lab_scan_wl_groups_sort -- see workload.h. */
void
lab_scan_wl_groups_sort (lab_scan_wl_acc_t *acc)
{
   if (acc->ngroups > 1) {
      qsort (acc->groups, acc->ngroups, sizeof *acc->groups, group_cmp);
   }
}

/* lab_scan_wl_groups_equal -- see workload.h (both sorted). */
bool
lab_scan_wl_groups_equal (const lab_scan_wl_acc_t *a, const lab_scan_wl_acc_t *b, char *why, size_t len)
{
   size_t i;

   if (a->ngroups != b->ngroups) {
      bson_snprintf (why, len, "%zu groups against %zu", a->ngroups, b->ngroups);
      return false;
   }
   for (i = 0; i < a->ngroups; i++) {
      const lab_scan_wl_group_t *x = &a->groups[i], *y = &b->groups[i];
      double scale = fmax (fabs (x->total), fabs (y->total));
      if (strcmp (x->name, y->name) != 0) {
         bson_snprintf (why, len, "group %s against group %s", x->name, y->name);
         return false;
      }
      if (x->rows != y->rows) {
         bson_snprintf (why, len, "group %s: %lld rows against %lld", x->name, (long long)x->rows,
                        (long long)y->rows);
         return false;
      }
      if (fabs (x->total - y->total) > 1e-9 * (scale > 1 ? scale : 1)) {
         bson_snprintf (why, len, "group %s: total %.17g against %.17g", x->name, x->total, y->total);
         return false;
      }
   }
   return true;
}

/* ---- inputs -------------------------------------------------------------------------------------- */

typedef struct {
   const lab_scan_opts_t *o;
   bool array;
   uint64_t *rng;
   int64_t seen; /* rows seen so far of the master: reservoir sampling of one */
   bson_value_t line;
   int64_t time_ms;
   bool have_line, have_time;
   char bad[160];
} pick_t;

/* pick_row -- reservoir-sample one row: keep this one with probability 1 / rows seen. */
static void
pick_row (pick_t *p, const bson_t *doc, const bson_t *elem)
{
   bson_iter_t it;
   const bson_value_t *line, *t;

   p->seen++;
   if (lab_scan_rand64 (p->rng) % (uint64_t)p->seen != 0) {
      return;
   }
   line = lab_scan_wl_row_field (doc, elem, p->o->wl.line_field, &it);
   if (p->have_line) {
      bson_value_destroy (&p->line);
   }
   p->have_line = line != NULL;
   if (line) {
      bson_value_copy (line, &p->line);
   }
   t = lab_scan_wl_row_field (doc, elem, p->o->wl.time_field, &it);
   p->have_time = t && t->value_type == BSON_TYPE_DATE_TIME;
   p->time_ms = p->have_time ? t->value.v_datetime : 0;
}

/* pick_row_cb -- lab_scan_wl_each_row's callback: pick_row. */
static void
pick_row_cb (const bson_t *doc, const bson_t *elem, void *ctx)
{
   pick_row (ctx, doc, elem);
}

/* on_master_doc -- every row of one document of the drawn master. */
static bool
on_master_doc (const bson_t *doc, void *ctx)
{
   pick_t *p = ctx;

   lab_scan_wl_each_row (doc, p->o->array_field, p->array, pick_row_cb, p);
   return true;
}

/* lab_scan_wl_inputs_draw -- see workload.h. */
bool
lab_scan_wl_inputs_draw (lab_store_session_t *sess, const lab_scan_opts_t *o, unsigned set,
                         const lab_results_layout_t *from, const bson_value_t *keys, int64_t nkeys,
                         lab_scan_wl_inputs_t *in, bson_error_t *error)
{
   uint64_t rng = o->wl.seed ^ LAB_SCAN_WL_DRAW_MIX;
   int64_t nrow = (set & (1u << LAB_WL_ROW)) ? o->wl.row_keys : 0;
   int64_t nwin = (set & (1u << LAB_WL_RANGE)) ? o->wl.range_windows : 0;
   int64_t n = nrow > nwin ? nrow : nwin, j;
   bool array = lab_layout_doc_holds_many_rows (&from->desc);

   memset (in, 0, sizeof *in);
   if (n == 0) {
      return true;
   }
   if (nkeys <= 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_KEYS,
                     "no master key to draw the workloads' rows from");
      return false;
   }
   lab_log_info ("drawing %lld rows from %s (seed %llu) for the workloads' inputs", (long long)n,
                 from->collection, (unsigned long long)o->wl.seed);
   in->rows = bson_malloc0 ((size_t)n * sizeof *in->rows);
   for (j = 0; j < n; j++) {
      const bson_value_t *key = &keys[lab_scan_rand64 (&rng) % (uint64_t)nkeys];
      pick_t p = { o, array, &rng, 0 };
      char kb[128];

      if (!lab_scan_master_find (sess, from->collection, lab_layout_read_by_id_range (&from->desc), o->key,
                                 key, on_master_doc, &p, NULL, error)) {
         lab_error_prefix (error, "drawing the workloads' rows from %s", from->collection);
         return false;
      }
      lab_value_text (key, kb, sizeof kb);
      if (p.seen == 0 || !p.have_line || ((set & (1u << LAB_WL_RANGE)) && !p.have_time)) {
         char what[400];
         if (p.seen == 0) {
            bson_snprintf (what, sizeof what, "no row");
         } else if (!p.have_line) {
            bson_snprintf (what, sizeof what, "a row without the line-number field '%s'", o->wl.line_field);
         } else {
            bson_snprintf (what, sizeof what, "a row whose time field '%s' is missing or not a date",
                           o->wl.time_field);
         }
         lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                        "drawing the workloads' rows from %s: master %s %s has %s", from->collection, o->key,
                        kb, what);
         if (p.have_line) {
            bson_value_destroy (&p.line);
         }
         return false;
      }
      bson_value_copy (key, &in->rows[j].key);
      in->rows[j].line = p.line;
      in->rows[j].time_ms = p.time_ms;
      in->ndrawn = j + 1;
   }
   in->nrows = nrow;
   if (nwin > 0) {
      in->win_lo = bson_malloc0 ((size_t)nwin * sizeof *in->win_lo);
      for (j = 0; j < nwin; j++) {
         in->win_lo[j] = in->rows[j].time_ms - o->wl.range_window_ms / 2;
      }
      in->nwin = nwin;
   }
   return true;
}

/* lab_scan_wl_inputs_cleanup -- see workload.h. */
void
lab_scan_wl_inputs_cleanup (lab_scan_wl_inputs_t *in)
{
   int64_t j;

   for (j = 0; j < in->ndrawn; j++) {
      bson_value_destroy (&in->rows[j].key);
      bson_value_destroy (&in->rows[j].line);
   }
   bson_free (in->rows);
   bson_free (in->win_lo);
   memset (in, 0, sizeof *in);
}

/* lab_scan_wl_title -- see workload.h. */
void
lab_scan_wl_title (const lab_scan_opts_t *o, lab_scan_wl_kind_t kind, char *buf, size_t len)
{
   switch (kind) {
   case LAB_WL_LOAD:
      bson_snprintf (buf, len, "each master fetched whole by %s", o->key);
      break;
   case LAB_WL_ROW:
      bson_snprintf (buf, len, "%lld random rows by (%s, %s), %lld per query", (long long)o->wl.row_keys,
                     o->key, o->wl.line_field, (long long)o->wl.row_batch);
      break;
   case LAB_WL_RANGE:
      bson_snprintf (buf, len, "%lld windows of %.0f min on %s", (long long)o->wl.range_windows,
                     (double)o->wl.range_window_ms / 60000.0, o->wl.time_field);
      break;
   case LAB_WL_APPEND:
      bson_snprintf (buf, len, "%lld new rows appended to %s masters", (long long)o->wl.append_rows,
                     o->wl.append_to == 0 ? "the most recent" : "random");
      break;
   case LAB_WL_UPDATE:
      bson_snprintf (buf, len, "%lld single-row corrections ($set %s)", (long long)o->wl.update_rows,
                     o->wl.sum_field);
      break;
   default:
      bson_snprintf (buf, len, "total %s per %s over every row", o->wl.sum_field, o->wl.group_field);
      break;
   }
}
