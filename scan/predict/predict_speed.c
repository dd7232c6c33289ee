/*
 * predict_speed.c -- each predicted point's load seconds and speedup per load order ("speed": key, and
 * random), from the point's reads in key order (the miniature's where it ran) and the random order's traces'
 * LRU misses (predict_record.c's scaling of a sample), and the cost figures
 * (predict_cost.c); where a layout states a band, the speedup at its held edge too: the detail's raises
 * the speedup (speedup_held), the folded layout's lowers it (speedup_low).
 */
#include "scan/predict/predict_private.h"

#include <string.h>

/* held_seconds -- the load seconds of `layout` at its band's held edge (reads->held[layout] set). */
static double
held_seconds (const traces_t *tr, const layouts_t *l, int layout, int64_t nload,
              const lab_scan_predict_cost_t *c, const lab_scan_predict_point_reads_t *reads)
{
   lab_scan_predict_work_t w;
   double wait, cpu;

   lab_scan_predict_work_of (tr, l, layout, nload, reads->held_misses[layout], reads->held_bytes[layout], &w);
   return lab_scan_predict_cost_seconds (c, &w, &wait, &cpu);
}

/* speed_of -- the load seconds of both layouts at `cache` from traces `tr` into `d`, and the speedup. */
static void
speed_of (bson_t *d, const char *name, uint64_t cache, const traces_t *tr, const layouts_t *l, int64_t nload,
          const lab_scan_predict_cost_t *c, const lab_scan_predict_point_reads_t *reads)
{
   double s[2];
   bson_t o;
   int i;

   BSON_APPEND_DOCUMENT_BEGIN (d, name, &o);
   for (i = 0; i < 2; i++) {
      lab_scan_predict_work_t w;
      double misses, rb, wait, cpu;

      if (reads) {
         rb = reads->bytes[i], misses = reads->misses[i];
      } else {
         rb = lab_scan_predict_scaled_read_bytes (tr->sd[i], cache, tr->mini.rate, l, i, &misses);
      }
      lab_scan_predict_work_of (tr, l, i, nload, misses, rb, &w);
      s[i] = lab_scan_predict_cost_seconds (c, &w, &wait, &cpu);
      BSON_APPEND_DOUBLE (&o, i == 0 ? "detail_read_bytes" : "folded_read_bytes", rb);
      BSON_APPEND_DOUBLE (&o, i == 0 ? "detail_s" : "folded_s", s[i]);
      /* the parts, beside a measured run's cpu.process_s and read_time_ms */
      BSON_APPEND_DOUBLE (&o, i == 0 ? "detail_cpu_s" : "folded_cpu_s", cpu);
      BSON_APPEND_DOUBLE (&o, i == 0 ? "detail_wait_s" : "folded_wait_s", wait);
      BSON_APPEND_DOUBLE (&o, i == 0 ? "detail_shared_pages" : "folded_shared_pages", w.shared);
   }
   if (s[1] > 0) {
      BSON_APPEND_DOUBLE (&o, "speedup", s[0] / s[1]);
   }
   if (reads && reads->held[0] && s[1] > 0) {
      /* the band's upper edge: the detail load at its held "no keep" reads (predict_evict.c), the folded
       * load at its figure */
      double held_s = held_seconds (tr, l, 0, nload, c, reads);
      BSON_APPEND_DOUBLE (&o, "detail_s_held", held_s);
      BSON_APPEND_DOUBLE (&o, "speedup_held", held_s / s[1]);
   }
   if (reads && reads->held[1]) {
      /* the lower edge: the folded load at its held reads (an in-order load of several documents a page),
       * the detail load at its figure */
      double held_s = held_seconds (tr, l, 1, nload, c, reads);
      BSON_APPEND_DOUBLE (&o, "folded_s_held", held_s);
      if (held_s > 0) {
         BSON_APPEND_DOUBLE (&o, "speedup_low", s[0] / held_s);
      }
   }
   bson_append_document_end (d, &o);
}

/* lab_scan_predict_append_speed -- see predict_private.h. */
void
lab_scan_predict_append_speed (bson_t *point, uint64_t cache, const traces_t *key, const traces_t *random,
                               const layouts_t *l, int64_t nload, const lab_scan_predict_cost_t *c,
                               const lab_scan_predict_point_reads_t *reads)
{
   bson_t d;

   if (!c->done) {
      return;
   }
   BSON_APPEND_DOCUMENT_BEGIN (point, "speed", &d);
   speed_of (&d, "key", cache, key, l, nload, c, reads);
   if (random && random->sd[0]) {
      speed_of (&d, "random", cache, random, l, nload, c, NULL);
   }
   bson_append_document_end (point, &d);
}
