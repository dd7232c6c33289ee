/*
 * prediction_cands.c -- the report's "Predicted beside measured" for every other candidate and workload:
 * a prediction (scancmp --predict) carries the sorted and clustered copies, buckets and the fold with zstd
 * blocks ("predicted_candidates", each point's "candidates") and the other workloads' figures
 * ("predicted_workloads"); each is set beside the measured layout of the same nature -- matched by the
 * layout descriptors' questions (core/layout.h), never by name -- at the measured points of the same cache
 * size, and an append's journal bytes per write and a row read's bytes beside the measured workloads.
 */
#include "compare/cmp.h"

#include <math.h>
#include <string.h>

/* Caches closer than this share are the same cache (as prediction.c's). */
#define SAME_CACHE 1e-6

/* One predicted layout: its name in the prediction and what it is. */
typedef struct {
   const char *name;
   lab_layout_t desc;
} pred_layout_t;

/* same_nature -- the two descriptors answer every question alike, and hold the same rows per document
 * and block compressor (zstd or not): the same candidate. */
static bool
same_nature (const lab_layout_t *a, const lab_layout_t *b)
{
   bool za = strcmp (a->block_compressor, "zstd") == 0, zb = strcmp (b->block_compressor, "zstd") == 0;

   return lab_layout_reads_rows (a) == lab_layout_reads_rows (b) &&
          lab_layout_one_doc_per_master (a) == lab_layout_one_doc_per_master (b) &&
          lab_layout_bucketed (a) == lab_layout_bucketed (b) &&
          lab_layout_key_contiguous (a) == lab_layout_key_contiguous (b) &&
          lab_layout_read_by_id_range (a) == lab_layout_read_by_id_range (b) &&
          (!lab_layout_bucketed (a) || a->bucket_rows == b->bucket_rows) && za == zb;
}

/* pred_layouts -- the prediction's layouts: detail and folded (as it predicts them), then each of
 * predicted_candidates with its descriptor; the count. */
static size_t
pred_layouts (const bson_t *pred, pred_layout_t *out, size_t cap)
{
   bson_iter_t it, arr, f;
   bson_error_t err;
   size_t n = 0;

   lab_layout_init (&out[n].desc, "detail", NULL, "rows");
   out[n++].name = "detail";
   lab_layout_init (&out[n].desc, "folded", NULL, "folded");
   out[n++].name = "folded";
   if (!bson_iter_init_find (&it, pred, "predicted_candidates") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &arr)) {
      return n;
   }
   while (bson_iter_next (&arr) && n < cap) {
      bson_t c, d;
      uint32_t len;
      const uint8_t *data;
      if (!BSON_ITER_HOLDS_DOCUMENT (&arr)) {
         continue;
      }
      bson_iter_document (&arr, &len, &data);
      if (!bson_init_static (&c, data, len) || !bson_iter_init_find (&f, &c, "name") ||
          !BSON_ITER_HOLDS_UTF8 (&f)) {
         continue;
      }
      out[n].name = bson_iter_utf8 (&f, NULL);
      if (!bson_iter_init_find (&f, &c, "layout") || !BSON_ITER_HOLDS_DOCUMENT (&f)) {
         continue;
      }
      bson_iter_document (&f, &len, &data);
      if (bson_init_static (&d, data, len) && lab_layout_from_bson (&d, &out[n].desc, &err)) {
         n++;
      }
   }
   return n;
}

/* match -- the predicted layout of measured layout `m`'s nature, or NULL. */
static const pred_layout_t *
match (const pred_layout_t *p, size_t np, const lab_layout_t *m)
{
   size_t i;

   for (i = 0; i < np; i++) {
      if (same_nature (&p[i].desc, m)) {
         return &p[i];
      }
   }
   return NULL;
}

/* pred_point -- the predicted point of cache `cache`, or -1. */
static int
pred_point (const bson_t *pred, double cache)
{
   size_t n = lab_results_sweep_n (pred), i;
   lab_sweep_point_t p;

   for (i = 0; i < n; i++) {
      if (lab_results_sweep_point (pred, i, &p) && fabs (p.cache_size_bytes - cache) <= SAME_CACHE * cache) {
         return (int)i;
      }
   }
   return -1;
}

/* cell -- "| predicted | measured | error |" of MiB read. */
static void
cell (bson_string_t *o, bool hp, double p, bool hm, double m)
{
   bson_string_append_printf (o, hp ? " %.1f |" : " n/a |", p / 1048576.0);
   bson_string_append_printf (o, hm ? " %.1f |" : " n/a |", m / 1048576.0);
   if (hp && hm && m > 0) {
      bson_string_append_printf (o, " %+.0f%% |", 100 * (p - m) / m);
   } else {
      bson_string_append (o, " n/a |");
   }
}

/* md_candidates -- the table of the measured candidates other than detail and folded that the prediction
 * predicted: per measured point of a predicted cache, MiB read predicted, measured and the error. */
static void
md_candidates (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *pred,
               const pred_layout_t *pl, size_t np)
{
   lab_results_layouts_t ls;
   const pred_layout_t *pm[LAB_RESULTS_MAX_LAYOUTS];
   size_t l, i, n = lab_results_sweep_n (&r->doc), shown = 0;
   char path[160];

   lab_results_layouts (&r->doc, &ls);
   for (l = 0; l < ls.n; l++) {
      pm[l] = match (pl + 2, np - 2, &ls.l[l].desc); /* detail and folded have their own table */
      shown += pm[l] != NULL;
   }
   if (shown == 0 || n == 0) {
      return;
   }
   bson_string_append (o,
                       "\nThe other candidates, matched to the predicted ones by what they are (the layout "
                       "descriptors), not by name: engine MiB read predicted, measured, error.\n\n| engine "
                       "cache |");
   for (l = 0; l < ls.n; l++) {
      if (pm[l]) {
         bson_string_append_printf (o, " %s predicted (%s) | measured | error |", ls.l[l].name, pm[l]->name);
      }
   }
   bson_string_append (o, "\n|---|");
   for (l = 0; l < shown; l++) {
      bson_string_append (o, "---|---|---|");
   }
   bson_string_append (o, "\n");
   for (i = 0; i < n; i++) {
      lab_sweep_point_t m;
      int k;
      if (!lab_results_sweep_point (&r->doc, i, &m) ||
          (k = pred_point (&pred->doc, m.cache_size_bytes)) < 0) {
         continue;
      }
      bson_string_append_printf (o, "| %.1f MiB |", m.cache_size_bytes / 1048576.0);
      for (l = 0; l < ls.n; l++) {
         double pv = 0;
         lab_stat_t s;
         bool hp;
         if (!pm[l]) {
            continue;
         }
         snprintf (path, sizeof path, "sweep.%d.candidates.%s.block_read_bytes", k, pm[l]->name);
         hp = lab_results_get_number (&pred->doc, path, &pv);
         s = lab_results_metric_stat (&m.doc, ls.l[l].name, &lab_results_block_read_bytes);
         cell (o, hp, pv, s.present, s.median);
      }
      bson_string_append (o, "\n");
   }
}

/* row_bytes -- the engine bytes per read of `reads` random rows of predicted layout `name`: the distinct
 * data and index pages they touch, pages(1 - (1 - 1/pages)^reads), each read once, the leaves' and each
 * internal level's under the roots (as scan/predict/predict_cands_record.c records them at its own
 * --row-keys). */
static bool
row_bytes (const bson_t *pred, const char *name, double reads, double *out)
{
   const char *const f[4] = { "data_pages", "data_page_disk_bytes", "index_pages", "index_page_disk_bytes" };
   double v[4];
   char path[192];
   int i;

   for (i = 0; i < 4; i++) {
      snprintf (path, sizeof path, "predicted_workloads.layouts.%s.%s", name, f[i]);
      if (!lab_results_get_number (pred, path, &v[i])) {
         return false;
      }
   }
   if (reads <= 0) {
      return false;
   }
   *out = 0;
   for (i = 0; i < 4; i += 2) {
      if (v[i] >= 1) {
         *out += v[i] * (1 - pow (1 - 1 / v[i], reads)) * v[i + 1] / reads;
      }
   }
   for (i = 0; i < 2; i++) {
      /* the internal levels under the roots, of the record table then of the index */
      const char *tree = i == 0 ? "data_levels" : "index_levels";
      double pages, bytes;
      int k;
      for (k = 0; k < 8; k++) {
         snprintf (path, sizeof path, "predicted_workloads.layouts.%s.%s.%d.pages", name, tree, k);
         if (!lab_results_get_number (pred, path, &pages) || pages < 1) {
            break;
         }
         snprintf (path, sizeof path, "predicted_workloads.layouts.%s.%s.%d.page_disk_bytes", name, tree, k);
         if (lab_results_get_number (pred, path, &bytes)) {
            *out += pages * (1 - pow (1 - 1 / pages, reads)) * bytes / reads;
         }
      }
   }
   return true;
}

/* point_row_bytes -- the predicted point's own row reads (an LRU cache of its size) of layout `name` at
 * the measured cache `cache`, when the prediction replayed as many reads as the workload made. */
static bool
point_row_bytes (const bson_t *pred, const char *name, double cache, double reads, double *out)
{
   char path[192];
   double c, n;
   int i;

   if (!lab_results_get_number (pred, "predicted_workloads.row_reads", &n) || n != reads) {
      return false;
   }
   for (i = 0; i < 64; i++) {
      snprintf (path, sizeof path, "sweep.%d.cache_size_bytes", i);
      if (!lab_results_get_number (pred, path, &c)) {
         return false;
      }
      if (c == cache) {
         snprintf (path, sizeof path, "sweep.%d.row_read_bytes_per_query.%s", i, name);
         return lab_results_get_number (pred, path, out);
      }
   }
   return false;
}

/* md_workload_row -- one measured workload's layouts (its "layouts" entries, each found in the file's
 * layouts by name for its descriptor) beside the prediction's figure `field`, the measured one `num` (over
 * `den` when given) of each entry. */
static void
md_workload_row (bson_string_t *o, const bson_t *wl, const lab_cmp_results_t *pred, const pred_layout_t *pl,
                 size_t np, const lab_results_layouts_t *ls, const char *field, const char *num,
                 const char *den, double cache)
{
   size_t l;
   char path[192];
   const char *name;

   for (l = 0; l < LAB_RESULTS_MAX_LAYOUTS; l++) {
      const pred_layout_t *p;
      double pv = 0, a = 0, b = 0;
      bool hp, hm;
      int at;
      snprintf (path, sizeof path, "layouts.%zu.layout", l);
      if (!(name = lab_results_get_string (wl, path))) {
         break;
      }
      if ((at = lab_results_layout_find (ls, name)) < 0) {
         continue;
      }
      p = match (pl, np, &ls->l[at].desc);
      snprintf (path, sizeof path, "layouts.%zu.%s", l, num);
      hm = lab_results_get_number (wl, path, &a);
      if (den) {
         snprintf (path, sizeof path, "layouts.%zu.%s", l, den);
         hm = hm && lab_results_get_number (wl, path, &b) && b > 0;
         a = hm ? a / b : 0;
      }
      if (den && p) {
         /* the row reads: the predicted point's at the workload's cache, else the prediction's pages
          * evaluated at the workload's own reads */
         hp = point_row_bytes (&pred->doc, p->name, cache, b, &pv) || row_bytes (&pred->doc, p->name, b, &pv);
      } else {
         snprintf (path, sizeof path, "predicted_workloads.layouts.%s.%s", p ? p->name : "", field);
         hp = p && lab_results_get_number (&pred->doc, path, &pv);
      }
      bson_string_append (o, "| ");
      lab_cmp_md_text (o, name);
      bson_string_append (o, " |");
      bson_string_append_printf (o, hp ? " %.0f |" : " n/a |", pv);
      bson_string_append_printf (o, hm ? " %.0f |" : " n/a |", a);
      if (hp && hm && a > 0) {
         bson_string_append_printf (o, " %+.0f%% |\n", 100 * (pv - a) / a);
      } else {
         bson_string_append (o, " n/a |\n");
      }
   }
}

/* md_workloads -- an append's journal bytes per write and a row read's engine bytes per query, predicted
 * beside the measured workloads of `r` (when it has them). */
static void
md_workloads (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *pred,
              const pred_layout_t *pl, size_t np)
{
   lab_results_layouts_t ls;
   bson_iter_t it, arr;
   double cache = -1;

   if (!bson_iter_init_find (&it, &pred->doc, "predicted_workloads") ||
       !bson_iter_init_find (&it, &r->doc, "workloads") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &arr)) {
      return;
   }
   lab_results_layouts (&r->doc, &ls);
   /* the workloads' cache: the measured file's reference point's */
   lab_results_get_number (&r->doc, "config.cache_size_bytes", &cache);
   while (bson_iter_next (&arr)) {
      const char *w;
      bson_t wl;
      uint32_t len;
      const uint8_t *data;
      if (!BSON_ITER_HOLDS_DOCUMENT (&arr)) {
         continue;
      }
      bson_iter_document (&arr, &len, &data);
      if (!bson_init_static (&wl, data, len) || !(w = lab_results_get_string (&wl, "workload"))) {
         continue;
      }
      if (strcmp (w, "append") == 0) {
         bson_string_append (o,
                             "\nAppends: journal bytes per write, predicted (the workload's appends to the "
                             "masters it draws, each rewriting a fold's document whole as it grows) beside "
                             "measured.\n\n| layout | "
                             "predicted | measured | error |\n|---|---|---|---|\n");
         md_workload_row (o, &wl, pred, pl, np, &ls, "append_journal_bytes_per_write",
                          "write.journal_bytes_per_write", NULL, cache);
      } else if (strcmp (w, "row") == 0) {
         bson_string_append (o,
                             "\nRow reads: engine bytes read per query, predicted (the workload's random "
                             "rows through an LRU cache of its size when the prediction has its cache and "
                             "reads, else the distinct pages they touch, each read once: the index and the "
                             "record table, leaves and internal pages under the roots) beside "
                             "measured.\n\n| layout | "
                             "predicted | measured | error |\n|---|---|---|---|\n");
         md_workload_row (o, &wl, pred, pl, np, &ls, "row_read_bytes_per_query", "engine_read_bytes",
                          "queries", cache);
      }
   }
}

/* lab_cmp_render_prediction_cands -- see cmp.h. */
void
lab_cmp_render_prediction_cands (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_results_t *pred)
{
   pred_layout_t pl[LAB_RESULTS_MAX_LAYOUTS];
   size_t np;

   if (!pred) {
      return;
   }
   np = pred_layouts (&pred->doc, pl, LAB_RESULTS_MAX_LAYOUTS);
   md_candidates (o, r, pred, pl, np);
   md_workloads (o, r, pred, pl, np);
}
