/*
 * prediction_wl.c -- the rest of "Predicted beside measured" for the workloads besides the load: each
 * predicted point's "workload_reads" (scancmp --predict --workload range,aggregate) beside the measured
 * point's "workloads" of the same cache size, the engine bytes read per workload and layout, paired by the
 * layout's name (else the first of its kind: rows, folded), with the error.
 */
#include "compare/cmp.h"

#include <math.h>
#include <string.h>

/* Caches closer than this share are the same cache (as prediction.c pairs the load's points). */
#define SAME_CACHE 1e-6

/* The workloads predicted beside the load. */
static const char *const wl_names[] = { "range", "aggregate" };

/* layout_bytes -- in the array of layouts at `it`, the engine bytes read of the layout named `name`, else
 * (by_kind) the first of kind `kind`. */
static bool
layout_bytes (const bson_iter_t *it, const char *name, const char *kind, bool by_kind, double *v)
{
   bson_iter_t a, d, f;

   if (!BSON_ITER_HOLDS_ARRAY (it) || !bson_iter_recurse (it, &a)) {
      return false;
   }
   while (bson_iter_next (&a)) {
      const char *want = by_kind ? kind : name, *field = by_kind ? "kind" : "layout";
      if (!BSON_ITER_HOLDS_DOCUMENT (&a) || !bson_iter_recurse (&a, &d) || !bson_iter_find (&d, field) ||
          !BSON_ITER_HOLDS_UTF8 (&d) || strcmp (bson_iter_utf8 (&d, NULL), want) != 0) {
         continue;
      }
      if (bson_iter_recurse (&a, &f) && bson_iter_find (&f, "engine_read_bytes") &&
          BSON_ITER_HOLDS_NUMBER (&f)) {
         *v = bson_iter_as_double (&f);
         return *v >= 0;
      }
   }
   return false;
}

/* wl_entry -- in point `pt`, the entry of workload `wl` of array `key`: *layouts its "layouts", *why its
 * "not_predicted" (NULL: none). */
static bool
wl_entry (const bson_t *pt, const char *key, const char *wl, bson_iter_t *layouts, const char **why)
{
   bson_iter_t it, a, d;

   *why = NULL;
   if (!bson_iter_init_find (&it, pt, key) || !BSON_ITER_HOLDS_ARRAY (&it) || !bson_iter_recurse (&it, &a)) {
      return false;
   }
   while (bson_iter_next (&a)) {
      if (!BSON_ITER_HOLDS_DOCUMENT (&a) || !bson_iter_recurse (&a, &d) || !bson_iter_find (&d, "workload") ||
          !BSON_ITER_HOLDS_UTF8 (&d) || strcmp (bson_iter_utf8 (&d, NULL), wl) != 0) {
         continue;
      }
      if (bson_iter_recurse (&a, &d) && bson_iter_find (&d, "not_predicted") && BSON_ITER_HOLDS_UTF8 (&d)) {
         *why = bson_iter_utf8 (&d, NULL);
      }
      return bson_iter_recurse (&a, &d) && bson_iter_find (&d, "layouts") && (*layouts = d, true);
   }
   return false;
}

/* pred_point -- the predicted point of `pred` with the cache of `m`; false: none. */
static bool
pred_point (const bson_t *pred, const lab_sweep_point_t *m, lab_sweep_point_t *p)
{
   size_t n = lab_results_sweep_n (pred), i;

   for (i = 0; i < n; i++) {
      if (lab_results_sweep_point (pred, i, p) &&
          fabs (p->cache_size_bytes - m->cache_size_bytes) <= SAME_CACHE * m->cache_size_bytes) {
         return true;
      }
   }
   return false;
}

/* The largest error shown. */
typedef struct {
   double err, p, m, cache;
   const char *wl, *layout;
} wl_worst_t;

/* row_of -- one table row: predicted layout `name` (of kind `kind`, `pb` bytes) of workload `wl` beside the
 * measured layout of the same name (detail and folded: else the first of their kind) in `ml`. */
static int
row_of (bson_string_t *rows, const lab_sweep_point_t *m, const bson_iter_t *ml, const char *wl,
        const char *name, const char *kind, double pb, wl_worst_t *w)
{
   bool base = strcmp (name, "detail") == 0 || strcmp (name, "folded") == 0;
   double mb = 0, err;

   if (!layout_bytes (ml, name, kind, false, &mb) && !(base && layout_bytes (ml, NULL, kind, true, &mb))) {
      return 0;
   }
   err = mb > 0 ? (pb - mb) / mb : NAN;
   bson_string_append_printf (rows, "| %.1f MiB | %s | ", m->cache_size_bytes / 1048576.0, wl);
   lab_cmp_md_text (rows, name);
   bson_string_append_printf (rows, " | %.2f | %.2f |", pb / 1048576.0, mb / 1048576.0);
   if (isnan (err)) {
      bson_string_append (rows, " n/a |\n");
      return 1;
   }
   bson_string_append_printf (rows, " %+.1f%% |\n", 100 * err);
   if (fabs (err) > w->err) {
      *w = (wl_worst_t){ fabs (err), pb, mb, m->cache_size_bytes, wl, name };
   }
   return 1;
}

/* rows_of -- the table's rows of measured point `m` beside predicted point `p`, every predicted layout
 * that was measured; *why the first reason a workload was not predicted. */
static int
rows_of (bson_string_t *rows, const lab_sweep_point_t *m, const lab_sweep_point_t *p, wl_worst_t *w,
         const char **why)
{
   int shown = 0;
   size_t k;

   for (k = 0; k < sizeof wl_names / sizeof wl_names[0]; k++) {
      bson_iter_t pl, ml, a, d;
      const char *pwhy = NULL, *mwhy = NULL;
      if (!wl_entry (&m->doc, "workloads", wl_names[k], &ml, &mwhy)) {
         continue;
      }
      if (!wl_entry (&p->doc, "workload_reads", wl_names[k], &pl, &pwhy)) {
         if (pwhy && !*why) {
            *why = pwhy;
         }
         continue;
      }
      if (!BSON_ITER_HOLDS_ARRAY (&pl) || !bson_iter_recurse (&pl, &a)) {
         continue;
      }
      while (bson_iter_next (&a)) {
         const char *name = NULL, *kind = "";
         double pb = -1;
         if (!BSON_ITER_HOLDS_DOCUMENT (&a) || !bson_iter_recurse (&a, &d)) {
            continue;
         }
         while (bson_iter_next (&d)) {
            if (strcmp (bson_iter_key (&d), "layout") == 0 && BSON_ITER_HOLDS_UTF8 (&d)) {
               name = bson_iter_utf8 (&d, NULL);
            } else if (strcmp (bson_iter_key (&d), "kind") == 0 && BSON_ITER_HOLDS_UTF8 (&d)) {
               kind = bson_iter_utf8 (&d, NULL);
            } else if (strcmp (bson_iter_key (&d), "engine_read_bytes") == 0 && BSON_ITER_HOLDS_NUMBER (&d)) {
               pb = bson_iter_as_double (&d);
            }
         }
         if (name && pb >= 0) {
            shown += row_of (rows, m, &ml, wl_names[k], name, kind, pb, w);
         }
      }
   }
   return shown;
}

/* lab_cmp_render_prediction_wl -- see cmp.h. */
void
lab_cmp_render_prediction_wl (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *pred)
{
   size_t n = lab_results_sweep_n (&r->doc), i;
   bson_string_t *rows = bson_string_new (NULL);
   wl_worst_t w = { .err = -1 };
   lab_sweep_point_t m, p;
   const char *why = NULL;
   int shown = 0;

   if (n == 0) {
      lab_results_top_point (&r->doc, &m); /* a view of the whole file: its workloads at the top level */
      if (pred_point (&pred->doc, &m, &p)) {
         shown += rows_of (rows, &m, &p, &w, &why);
      }
   }
   for (i = 0; i < n; i++) {
      if (lab_results_sweep_point (&r->doc, i, &m) && pred_point (&pred->doc, &m, &p)) {
         shown += rows_of (rows, &m, &p, &w, &why);
      }
   }
   if (shown > 0) {
      bson_string_append (o, "\nThe other workloads, predicted beside measured (engine bytes read from disk, "
                             "MiB, cold; error = (predicted - measured) / measured):\n\n"
                             "| engine cache | workload | layout | MiB read predicted | measured | error |\n"
                             "|---|---|---|---|---|---|\n");
      bson_string_append (o, rows->str);
      bson_string_append_printf (o,
                                 "\nThe largest is the %s workload on %s at %.1f MiB: %.2f MiB predicted "
                                 "against %.2f MiB measured, %+.0f%%.\n",
                                 w.wl, w.layout, w.cache / 1048576.0, w.p / 1048576.0, w.m / 1048576.0,
                                 100 * (w.p - w.m) / (w.m > 0 ? w.m : 1));
   }
   if (why) {
      bson_string_append (o, "\nThe range workload was not predicted: ");
      lab_cmp_md_text (o, why);
      bson_string_append (o, ".\n");
   }
   bson_string_free (rows, true);
}
