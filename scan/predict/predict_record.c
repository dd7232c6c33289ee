/*
 * predict_record.c -- the predicted results document (predict.h): the header and dataset as a measured
 * file's, "prediction" (the model, its inputs, the probe's cost) and each cache point's runs, read bytes
 * scaled from the sample with the sample groups' spread as its error. The model and the run: predict.c.
 */
#include "scan/predict/predict_private.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/log.h"
#include "core/opts.h"
#include "core/results.h"
#include "scan/measure/measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How far above the band's upper edge one worker's loads read at 1-2x the file (docs/results.md "Fewer
 * workers": three shapes, three cold runs a point), said where the workers are fewer than the holds' own. */
#define BAND_FEWER_WORKERS "the medians of three at 0.9-4.0x, single loads up to 5.1x"

/* scaled_read_bytes -- the bytes a cache of `cache` reads in the load of `layout` (0 detail, 1 folded),
 * estimated from a sample at `rate`; *misses (may be NULL) its page misses. Every access of a sampled
 * master is a sampled access, with about the reuse distance it has in the whole load when the masters
 * between two uses of a page touch pages of their own (a master's pages are spread wider than the masters
 * that share them): the share of the sample's reuses that miss is taken for the whole load's reuses
 * (its accesses, the sample's / rate, less its first touches). Its first touches are not scaled so
 * simply: a page holding rows of k masters is touched first once in the whole load but about once per
 * rate x k sampled ones, so they are the sample's / rate, at most the layout's pages of that kind. At rate
 * 1 these are the trace's misses, exactly. `sim` (may be NULL) gives the eviction miniature's misses per
 * class in place of the LRU's. */
static double
scaled_read_bytes (lab_scan_stackdist_t *sd, uint64_t cache, double rate, const layouts_t *l, int layout,
                   const double *sim, double *misses)
{
   uint64_t cap = lab_scan_predict_capacity_at (cache, l->fill);
   double bytes = 0, total = 0;
   int cls;

   for (cls = LAB_PREDICT_DATA; cls <= LAB_PREDICT_DATA_AGAIN; cls++) {
      double m = sim ? sim[cls] : lab_scan_stackdist_misses (sd, cls, cap);
      if (rate < 1 && cls == LAB_PREDICT_DATA_AGAIN) {
         /* a master's own repeated touches: every sampled master keeps them all */
         m /= rate;
      } else if (rate < 1) {
         double cold = lab_scan_stackdist_pages (sd, cls), whole = l->pages[layout][cls];
         double acc = lab_scan_stackdist_accesses (sd, cls),
                first = fmin (cold / rate, whole > 0 ? whole : cold / rate);
         /* the share of the sample's reuses that miss, applied to the whole load's reuses */
         double share = acc > cold ? (m - cold) / (acc - cold) : 0;
         m = first + share * fmax (acc / rate - first, 0);
      }
      total += m;
      bytes += m * (cls == LAB_PREDICT_INDEX ? l->index_disk : l->data_disk[layout]);
   }
   if (misses) {
      *misses = total;
   }
   return bytes;
}

/* figure_at -- the bytes the load of `layout` reads at `cache` by the engine the point's figures come from
 * (the eviction miniature where it runs, else LRU): *pm that engine, *lru the LRU's bytes, *misses the
 * figure's page misses. */
static double
figure_at (const traces_t *tr, int layout, uint64_t cache, const layouts_t *l, lab_scan_predict_model_t *pm,
           double *lru, double *misses)
{
   lab_scan_predict_point_model (tr, layout, cache, l, pm);
   *lru = scaled_read_bytes (tr->sd[layout], cache, tr->mini.rate, l, layout, NULL, misses);
   return pm->why ? *lru
                  : scaled_read_bytes (tr->sd[layout], cache, tr->mini.rate, l, layout, pm->misses, misses);
}

/* The knee's level: the cache at which a curve first reads at most this many times what it reads when
 * everything fits (its first touches). Where the curve is steep the knee hardly moves with it. */
#define KNEE_LEVEL 2.0

/* The smallest cache a knee is looked for at: WiredTiger's smallest cache_size, 1 MB (below it a layout's
 * knee is its few pages' and no cache anyone configures). */
#define KNEE_MIN_CACHE (1024.0 * 1024)

/* knee_cache -- the knee of the LRU curve of `sd` (a sample at `rate`) of `layout`, in bytes of cache,
 * found by bisection on the cache's logarithm (the curve never rises with the cache: LRU's inclusion); its
 * fitting reads are those at a thousand times the layout's size; 0 where the curve is at its level already
 * at a thousandth of the layout's size or KNEE_MIN_CACHE (no knee: it fits). */
static double
knee_cache (lab_scan_stackdist_t *sd, double rate, const layouts_t *l, int layout)
{
   double size = l->on_disk[layout] > 1 ? l->on_disk[layout] : 1,
          lo = log (fmax (size / 1000, KNEE_MIN_CACHE)), hi = log (fmax (size * 1000, KNEE_MIN_CACHE * 2)),
          fits, level;
   int k;

   fits = scaled_read_bytes (sd, (uint64_t)exp (hi), rate, l, layout, NULL, NULL);
   level = KNEE_LEVEL * fits;
   if (scaled_read_bytes (sd, (uint64_t)exp (lo), rate, l, layout, NULL, NULL) <= level) {
      return 0;
   }
   for (k = 0; k < 60 && hi - lo > 1e-4; k++) {
      double mid = (lo + hi) / 2;
      if (scaled_read_bytes (sd, (uint64_t)exp (mid), rate, l, layout, NULL, NULL) <= level) {
         hi = mid;
      } else {
         lo = mid;
      }
   }
   return exp (hi);
}

/* lab_scan_predict_knee_of -- see predict_private.h. The delete-a-group jackknife of the log knee: its bias
 * (G - 1) x (the groups' mean - the sample's), its standard error sqrt((G - 1) / G x the sum of the
 * squared deviations). */
void
lab_scan_predict_knee_of (const traces_t *tr, const traces_t *groups, int ngroups, const layouts_t *l,
                          lab_scan_predict_knee_t *k)
{
   int i, g;

   memset (k, 0, sizeof *k);
   for (i = 0; i < 2 && ngroups > 1; i++) {
      double whole = knee_cache (tr->sd[i], tr->mini.rate, l, i), lg[SAMPLE_GROUPS], mean = 0, ss = 0;
      if (whole <= 0) {
         continue;
      }
      for (g = 0; g < ngroups && g < SAMPLE_GROUPS; g++) {
         double kg = knee_cache (groups[g].sd[i], groups[g].mini.rate, l, i);
         if (kg <= 0) {
            break;
         }
         lg[g] = log (kg / whole);
         mean += lg[g] / ngroups;
      }
      if (g < ngroups) {
         continue; /* a group without a knee: the jackknife has no replicate there */
      }
      for (g = 0; g < ngroups; g++) {
         ss += (lg[g] - mean) * (lg[g] - mean);
      }
      k->known[i] = true;
      k->knee[i] = whole;
      k->log_bias[i] = (ngroups - 1) * mean;
      k->log_spread[i] = sqrt (ss * (ngroups - 1) / ngroups);
   }
}

/* append_entry -- one predicted run entry (run 1) of `layout`. */
static void
append_entry (bson_t *arr, const char *ik, const char *layout, const traces_t *tr, const layouts_t *l, int i,
              double read_bytes, double misses, int64_t nload, const timing_t *t, int parallel)
{
   bson_t e, eng;

   BSON_APPEND_DOCUMENT_BEGIN (arr, ik, &e);
   BSON_APPEND_INT32 (&e, "run", 1);
   BSON_APPEND_UTF8 (&e, LAB_RESULTS_KEY_LAYOUT, layout);
   BSON_APPEND_BOOL (&e, "predicted", true);
   BSON_APPEND_INT64 (&e, "keys", nload);
   BSON_APPEND_INT64 (&e, "docs", (int64_t)llround (l->docs[i]));
   BSON_APPEND_INT64 (&e, "rows", (int64_t)llround (l->rows));
   BSON_APPEND_INT64 (&e, "bytes_returned", (int64_t)llround (l->bytes[i]));
   if (t->cost.done) {
      lab_scan_predict_work_t w;
      lab_scan_predict_work_of (tr, l, i, nload, misses, read_bytes, &w);
      BSON_APPEND_DOUBLE (&e, "elapsed_s", lab_scan_predict_cost_seconds (&t->cost, &w, NULL, NULL));
   } else if (t->done) {
      BSON_APPEND_DOUBLE (&e, "elapsed_s", lab_scan_predict_elapsed (t, parallel, misses, l->docs[i]));
   }
   BSON_APPEND_DOCUMENT_BEGIN (&e, "engine", &eng);
   BSON_APPEND_INT64 (&eng, "block_reads", (int64_t)llround (misses));
   BSON_APPEND_INT64 (&eng, "block_read_bytes", (int64_t)llround (read_bytes));
   bson_append_document_end (&e, &eng);
   bson_append_document_end (arr, &e);
}

/* lab_scan_predict_append_point -- see predict_private.h. */
void
lab_scan_predict_append_point (bson_t *point, uint64_t cache, double ratio, const traces_t *tr,
                               const traces_t *groups, int ngroups, const lab_scan_predict_knee_t *knee,
                               const layouts_t *l, const lab_scan_opts_t *o, int64_t nload, const timing_t *t,
                               lab_scan_predict_point_reads_t *reads)
{
   static const char *const names[2] = { LAB_RESULTS_DETAIL, LAB_RESULTS_FOLDED };
   double rb[2], misses[2], lru[2], amp;
   lab_scan_predict_model_t pm[2];
   bson_t runs = BSON_INITIALIZER, arr, d;
   bson_iter_t it;
   int i, g;

   for (i = 0; i < 2; i++) {
      rb[i] = figure_at (tr, i, cache, l, &pm[i], &lru[i], &misses[i]);
      if (reads) {
         reads->bytes[i] = rb[i];
         reads->misses[i] = misses[i];
      }
   }
   for (i = 0; reads && i < 2; i++) {
      reads->held[i] = false;
      if (pm[i].held_band && !pm[i].why) {
         /* the band's edge, never under the figure itself (its load time and speedup: predict_speed.c) */
         double hm = 0,
                hb = scaled_read_bytes (tr->sd[i], cache, tr->mini.rate, l, i, pm[i].held_misses, &hm);
         reads->held[i] = true;
         reads->held_bytes[i] = fmax (hb, rb[i]);
         reads->held_misses[i] = fmax (hm, misses[i]);
      }
   }
   BSON_APPEND_INT64 (point, LAB_RESULTS_KEY_CACHE_SIZE, (int64_t)cache);
   BSON_APPEND_DOUBLE (point, LAB_RESULTS_KEY_CACHE_RATIO, ratio);
   BSON_APPEND_BOOL (point, "predicted", true);
   BSON_APPEND_ARRAY_BEGIN (&runs, LAB_RESULTS_KEY_RUNS, &arr);
   append_entry (&arr, "0", names[0], tr, l, 0, rb[0], misses[0], nload, t, o->parallel);
   append_entry (&arr, "1", names[1], tr, l, 1, rb[1], misses[1], nload, t, o->parallel);
   bson_append_array_end (&runs, &arr);
   if (bson_iter_init_find (&it, &runs, LAB_RESULTS_KEY_RUNS)) {
      bson_append_iter (point, LAB_RESULTS_KEY_RUNS, -1, &it);
   }
   {
      /* the summary of the point's (one) run per layout, as a measured point has */
      bson_t entries[2];
      bson_iter_t a;
      for (i = 0; i < 2; i++) {
         const uint8_t *data;
         uint32_t len;
         char key[8];
         snprintf (key, sizeof key, "runs.%d", i);
         bson_iter_init (&a, &runs);
         bson_iter_find_descendant (&a, key, &it);
         bson_iter_document (&it, &len, &data);
         bson_init_static (&entries[i], data, len);
      }
      lab_results_summary_append (point, entries, 2);
   }
   for (i = 0; i < 2; i++) {
      bson_append_document_begin (point, names[i], -1, &d);
      if (lab_results_read_amplification (rb[i], l->on_disk[i], &amp)) {
         BSON_APPEND_DOUBLE (&d, LAB_RESULTS_KEY_READ_AMPLIFICATION, amp);
      }
      BSON_APPEND_UTF8 (&d, "model", pm[i].model);
      if (pm[i].why) {
         BSON_APPEND_UTF8 (&d, "model_why", pm[i].why);
      } else {
         /* what the exact LRU would have said, and what the miniature did */
         BSON_APPEND_DOUBLE (&d, "lru_read_amplification", l->on_disk[i] > 0 ? lru[i] / l->on_disk[i] : 0);
         BSON_APPEND_INT64 (&d, "sim_eviction_passes", (int64_t)pm[i].sim.passes);
         BSON_APPEND_INT64 (&d, "sim_pages_evicted", (int64_t)pm[i].sim.evicted);
         BSON_APPEND_INT64 (&d, "sim_pages_evicted_on_release", (int64_t)pm[i].sim.released);
         BSON_APPEND_INT64 (&d, "sim_held_wakes", (int64_t)pm[i].sim.held);
         BSON_APPEND_DOUBLE (&d, "sim_peak_cache_share",
                             cache > 0 ? (double)pm[i].sim.peak_bytes / (double)cache : 0);
         if (pm[i].held_band && l->on_disk[i] > 0) {
            /* the band's upper edge (predict_evict.c): never under the figure itself */
            double hb = scaled_read_bytes (tr->sd[i], cache, tr->mini.rate, l, i, pm[i].held_misses, NULL);
            BSON_APPEND_DOUBLE (&d, "read_amplification_held", fmax (hb, rb[i]) / l->on_disk[i]);
         }
      }
      if (ngroups > 1) {
         /* the sampling error, the delete-a-group jackknife's: its variance, sqrt((G - 1) / G x the sum of
          * the squared deviations of the estimates made without one group each, scaled by their own rate),
          * and its bias, (G - 1) x (their mean - the figure): a sample with few sampled masters a page
          * moves the whole curve with its size (4,000 bills of 40 rows at ratio 1.5: 39x from 2% of the
          * masters, 33x from 1.5%, 97x from all), which the groups' spread alone does not show (±0 where
          * each group fits): the error stated is the root of both squared */
         double a[SAMPLE_GROUPS], mean = 0, ss = 0, fig = l->on_disk[i] > 0 ? rb[i] / l->on_disk[i] : 0, bias,
                                  err;
         for (g = 0; g < ngroups; g++) {
            double b = scaled_read_bytes (groups[g].sd[i], cache, groups[g].mini.rate, l, i, NULL, NULL);
            /* the groups run the LRU: its spread is carried to the miniature's figure in proportion */
            a[g] = l->on_disk[i] > 0 ? b / l->on_disk[i] * (lru[i] > 0 ? rb[i] / lru[i] : 1) : 0;
            mean += a[g] / ngroups;
         }
         for (g = 0; g < ngroups; g++) {
            ss += (a[g] - mean) * (a[g] - mean);
         }
         bias = (ngroups - 1) * (mean - fig);
         err = sqrt (ss * (ngroups - 1) / ngroups + bias * bias);
         BSON_APPEND_DOUBLE (&d, "read_amplification_sampling_bias", bias);
         BSON_APPEND_DOUBLE (&d, "read_amplification_figure_error", err);
         if (knee && knee->known[i] && l->on_disk[i] > 0) {
            /* the error in cache: the figure at the cache the knee's jackknife moves this one to (its bias,
             * then its bias and standard error either way); the stated error is the larger of the two:
             * where every group fits the cache the figure's own jackknife is 0, the knee's is not (F =
             * 0.02: 0.9 +- 0 where every master reads 22.1) */
            double shifts[3] = { knee->log_bias[i], knee->log_bias[i] - knee->log_spread[i],
                                 knee->log_bias[i] + knee->log_spread[i] },
                   at_bias = fig, kerr = 0;
            int s;
            /* the standard error's edges only where they differ from the bias by 2% in cache or more:
             * each is the miniature again at another cache (+30-45% of the prediction's time at F = 0.05
             * and 0.2 with all three, 800,000 rows) */
            for (s = 0; s < (knee->log_spread[i] >= 0.02 ? 3 : 1); s++) {
               lab_scan_predict_model_t sm;
               double sl, sf;
               if (fabs (shifts[s]) < 1e-3) {
                  sf = fig;
               } else {
                  sf = figure_at (tr, i, (uint64_t)llround ((double)cache * exp (shifts[s])), l, &sm, &sl,
                                  NULL) /
                       l->on_disk[i];
               }
               if (s == 0) {
                  at_bias = sf;
               }
               kerr = fmax (kerr, fabs (sf - fig));
            }
            BSON_APPEND_DOUBLE (&d, "read_amplification_at_knee_bias", at_bias);
            BSON_APPEND_DOUBLE (&d, "read_amplification_knee_error", kerr);
            err = fmax (err, kerr);
         }
         BSON_APPEND_DOUBLE (&d, "read_amplification_sampling_error", err);
      }
      bson_append_document_end (point, &d);
   }
   bson_destroy (&runs);
}

/* record_band_warning -- "band_warning" in `m` where the load's workers are not those the band's held "no
 * keep" episodes were measured at: scaled, not measured, and with fewer workers read over. */
static void
record_band_warning (bson_t *m, int parallel)
{
   char warn[512];

   if (parallel == LAB_PREDICT_HOLD_WORKERS) {
      return;
   }
   bson_snprintf (
      warn, sizeof warn,
      "the band's held \"no keep\" episodes were measured at %d workers and are scaled to %d here, "
      "not measured%s",
      LAB_PREDICT_HOLD_WORKERS, parallel,
      parallel < LAB_PREDICT_HOLD_WORKERS
         ? ": one worker's loads read over the band's upper edge at 1-2x the file (" BAND_FEWER_WORKERS
           "; docs/results.md, \"Fewer workers\")"
         : "");
   BSON_APPEND_UTF8 (m, "band_warning", warn);
}

/* lab_scan_predict_record_prediction -- see predict_private.h. */
void
lab_scan_predict_record_prediction (bson_t *results, const lab_scan_opts_t *o, const probe_t *p,
                                    const lab_scan_predict_input_t *in, const layouts_t *l,
                                    const lab_scan_predict_knee_t *knee, const timing_t *t, double elapsed_s)
{
   bson_t d, m, pr, c;

   BSON_APPEND_DOCUMENT_BEGIN (results, "prediction", &d);
   BSON_APPEND_UTF8 (&d, "source_collection", o->detail);
   BSON_APPEND_DOCUMENT_BEGIN (&d, "model", &m);
   BSON_APPEND_UTF8 (
      &m, "method",
      "stack distances (LRU, byte-weighted) over the page trace of the load; at the caches where "
      "WiredTiger's eviction can differ, a miniature of it run over the same trace (each "
      "point's model)");
   BSON_APPEND_UTF8 (&m, "model_version", LAB_PREDICT_MODEL_VERSION);
   BSON_APPEND_DOUBLE (&m, "cache_fill", l->fill);
   BSON_APPEND_INT32 (&m, "parallel", in->parallel);
   BSON_APPEND_INT32 (&m, "band_holds_workers", LAB_PREDICT_HOLD_WORKERS);
   record_band_warning (&m, in->parallel);
   BSON_APPEND_UTF8 (&m, "interleaving", "workers round-robin, one row each");
   BSON_APPEND_DOUBLE (&m, "rows_per_leaf_page", in->rows_per_page);
   BSON_APPEND_DOUBLE (&m, "data_page_cache_bytes", in->page_cache_bytes);
   BSON_APPEND_DOUBLE (&m, "data_page_disk_bytes", l->data_disk[0]);
   BSON_APPEND_DOUBLE (&m, "index_entries_per_page", in->index_entries_per_page);
   BSON_APPEND_DOUBLE (&m, "index_page_cache_bytes", in->index_page_cache_bytes);
   BSON_APPEND_DOUBLE (&m, "index_page_disk_bytes", l->index_disk);
   BSON_APPEND_DOUBLE (&m, "folded_row_bytes", in->folded_row_bytes);
   BSON_APPEND_DOUBLE (&m, "folded_master_bytes", in->folded_master_bytes);
   BSON_APPEND_INT64 (&m, "folded_pages", l->folded_pages);
   BSON_APPEND_DOUBLE (&m, "folded_page_cache_bytes", in->folded_page_cache_bytes);
   BSON_APPEND_UTF8 (&m, "folded_bytes_source",
                     p->fold_masters > 0 ? "measured: a sample of masters folded in memory (hoist auto)"
                                         : "default: the rows' BSON less _id and key, nothing hoisted");
   if (p->fold_masters > 0) {
      BSON_APPEND_INT64 (&m, "fold_sample_masters", p->fold_masters);
      BSON_APPEND_INT64 (&m, "fold_sample_rows", p->fold_rows);
      BSON_APPEND_INT64 (&m, "fold_sample_hoisted", p->fold_hoisted);
      BSON_APPEND_INT64 (&m, "fold_sample_pages", p->fold_pages);
      BSON_APPEND_DOUBLE (&m, "fold_sample_disk_per_byte",
                          p->fold_page_raw > 0 ? p->fold_page_disk / p->fold_page_raw : 0);
   }
   BSON_APPEND_UTF8 (&m, "leaf_pages_source", p->leaf_source);
   if (p->leaf_pages > 0) {
      BSON_APPEND_INT64 (&m, "leaf_pages", p->leaf_pages);
   }
   if (p->leaf_error_pct > 0) {
      BSON_APPEND_DOUBLE (&m, "leaf_pages_error_pct", p->leaf_error_pct);
   }
   bson_append_document_end (&d, &m);
   lab_scan_predict_record_capacity (&d, p, in->page_cache_bytes, in->index_page_cache_bytes, l->fill);
   BSON_APPEND_DOCUMENT_BEGIN (&d, "probe", &pr);
   BSON_APPEND_DOUBLE (&pr, "elapsed_s", elapsed_s);
   BSON_APPEND_INT64 (&pr, "masters", p->nkeys);
   BSON_APPEND_INT64 (&pr, "index_entries", p->entries);
   BSON_APPEND_UTF8 (&pr, "walk", p->walk_how);
   BSON_APPEND_DOUBLE (&pr, "index_walk_s", p->walk_s);
   if (p->walk_read_bytes >= 0) {
      BSON_APPEND_INT64 (&pr, "index_walk_read_bytes", p->walk_read_bytes);
   }
   BSON_APPEND_DOUBLE (&pr, "leaf_count_s", p->leaf_s);
   BSON_APPEND_DOUBLE (&pr, "leaf_count_cpu_s", p->leaf_cpu_s);
   if (p->leaf_read_bytes >= 0) {
      BSON_APPEND_INT64 (&pr, "leaf_count_read_bytes", p->leaf_read_bytes);
   }
   if (p->leaf_pages_read >= 0) {
      BSON_APPEND_INT64 (&pr, "leaf_count_pages_read", p->leaf_pages_read);
   }
   BSON_APPEND_UTF8 (&pr, "leaf_count", p->leaf_how);
   if (p->leaf_rows_read > 0) {
      BSON_APPEND_INT64 (&pr, "leaf_count_records_stepped", p->leaf_rows_read);
   }
   BSON_APPEND_INT64 (&pr, "documents_fetched", p->documents_fetched);
   BSON_APPEND_UTF8 (&pr, "documents_fetched_how", p->documents_how ? p->documents_how : "");
   if (p->range_how) {
      /* counted by the prediction itself (a server's counter is every client's) */
      BSON_APPEND_INT64 (&pr, "range_documents_fetched", p->range_documents);
      BSON_APPEND_UTF8 (&pr, "range_reads", p->range_how);
   }
   bson_append_document_end (&d, &pr);
   if (p->sample < 1) {
      BSON_APPEND_DOCUMENT_BEGIN (&d, "sample", &c);
      BSON_APPEND_DOUBLE (&c, "fraction", p->sample);
      BSON_APPEND_INT64 (&c, "masters", p->nsampled);
      BSON_APPEND_INT64 (&c, "index_entries", p->entries);
      BSON_APPEND_UTF8 (
         &c, "method",
         "masters whose key hashes under the fraction (FNV-1a of the key's BSON value); their rows "
         "packed into pages of the collection's rows per page, every cache scaled by the "
         "fraction and the misses by its inverse (SHARDS, Waldspurger et al. FAST 2015)");
      BSON_APPEND_UTF8 (&c, "error",
                        "read_amplification_sampling_error per point and layout: the delete-a-group "
                        "jackknife's root mean square error, the sample split four ways by the same hash "
                        "and the estimate made again without each group: their spread and their bias "
                        "(read_amplification_sampling_bias); or, where larger, the error in cache "
                        "(read_amplification_knee_error): the figure at the caches the same jackknife of "
                        "the knee moves the point to (knee)");
      BSON_APPEND_INT32 (&c, "groups", SAMPLE_GROUPS);
      {
         static const char *const kn[2] = { LAB_RESULTS_DETAIL, LAB_RESULTS_FOLDED };
         bson_t kd, kl;
         int i;
         BSON_APPEND_DOCUMENT_BEGIN (&c, "knee", &kd);
         BSON_APPEND_UTF8 (&kd, "method",
                           "the cache at which the sample's LRU curve first reads at most twice what it "
                           "reads when everything fits; the delete-a-group jackknife of its logarithm "
                           "gives its bias and spread (moved_cache_*: the knee moved by the bias), an "
                           "error in cache for each point's figure, not a better estimate of the knee");
         for (i = 0; knee && i < 2; i++) {
            if (!knee->known[i]) {
               continue;
            }
            BSON_APPEND_DOCUMENT_BEGIN (&kd, kn[i], &kl);
            BSON_APPEND_DOUBLE (&kl, "sample_cache_bytes", knee->knee[i]);
            BSON_APPEND_DOUBLE (&kl, "cache_bias", exp (knee->log_bias[i]));
            BSON_APPEND_DOUBLE (&kl, "cache_spread", exp (knee->log_spread[i]));
            BSON_APPEND_DOUBLE (&kl, "moved_cache_bytes", knee->knee[i] / exp (knee->log_bias[i]));
            if (l->on_disk[0] > 0) {
               BSON_APPEND_DOUBLE (&kl, "moved_cache_ratio",
                                   knee->knee[i] / exp (knee->log_bias[i]) / l->on_disk[0]);
               BSON_APPEND_DOUBLE (&kl, "sample_cache_ratio", knee->knee[i] / l->on_disk[0]);
            }
            bson_append_document_end (&kd, &kl);
         }
         bson_append_document_end (&c, &kd);
      }
      BSON_APPEND_DOUBLE (&c, "masters_per_page", p->sample_per_page);
      if (p->sample_per_page < SAMPLE_MIN_PER_PAGE) {
         BSON_APPEND_UTF8 (&c, "warning", SAMPLE_WARNING);
      }
      bson_append_document_end (&d, &c);
   }
   if (t->done) {
      BSON_APPEND_DOCUMENT_BEGIN (&d, "timing", &c);
      BSON_APPEND_UTF8 (&c, "method",
                        "a sample of masters loaded cold then warm on this store (--calibrate): elapsed = "
                        "page reads x miss_s / workers + documents x doc_s / min(workers, cores)");
      BSON_APPEND_INT64 (&c, "masters", t->masters);
      BSON_APPEND_INT64 (&c, "documents", t->docs);
      BSON_APPEND_INT64 (&c, "block_reads", t->block_reads);
      BSON_APPEND_DOUBLE (&c, "cold_s", t->cold_s);
      BSON_APPEND_DOUBLE (&c, "warm_s", t->warm_s);
      BSON_APPEND_DOUBLE (&c, "doc_s", t->doc_s);
      BSON_APPEND_DOUBLE (&c, "miss_s", t->miss_s);
      bson_append_document_end (&d, &c);
   }
   lab_scan_predict_record_cost (&d, &t->cost);
   bson_append_document_end (results, &d);
}

/* lab_scan_predict_record_dataset -- see predict_private.h. */
void
lab_scan_predict_record_dataset (bson_t *results, const lab_scan_opts_t *o, const probe_t *p, int64_t nload,
                                 const layouts_t *l)
{
   const lab_store_coll_stats_t *st = &p->st;
   bson_t ds, d;

   BSON_APPEND_DOCUMENT_BEGIN (results, LAB_RESULTS_KEY_DATASET, &ds);
   BSON_APPEND_INT64 (&ds, "keys", nload);
   BSON_APPEND_DOCUMENT_BEGIN (&ds, LAB_RESULTS_DETAIL, &d);
   BSON_APPEND_UTF8 (&d, "collection", o->detail);
   BSON_APPEND_INT64 (&d, "count", st->count);
   BSON_APPEND_DOUBLE (&d, "avg_obj_size_bytes", st->avg_obj_size_bytes);
   BSON_APPEND_INT64 (&d, "data_size_bytes", st->data_size_bytes);
   BSON_APPEND_INT64 (&d, "storage_size_bytes", st->storage_size_bytes);
   BSON_APPEND_INT64 (&d, "index_size_bytes", st->index_size_bytes);
   BSON_APPEND_INT32 (&d, "nindexes", st->nindexes);
   bson_append_document_end (&ds, &d);
   BSON_APPEND_DOCUMENT_BEGIN (&ds, LAB_RESULTS_FOLDED, &d);
   BSON_APPEND_UTF8 (&d, "collection", o->folded);
   BSON_APPEND_BOOL (&d, "predicted", true);
   BSON_APPEND_INT64 (&d, "count", p->nkeys);
   BSON_APPEND_INT64 (&d, "data_size_bytes", (int64_t)llround (l->data_bytes[1]));
   BSON_APPEND_INT64 (&d, "storage_size_bytes", (int64_t)llround (l->storage[1]));
   BSON_APPEND_INT64 (&d, "index_size_bytes", (int64_t)llround (l->index[1]));
   bson_append_document_end (&ds, &d);
   bson_append_document_end (results, &ds);
}

/* lab_scan_predict_append_header -- see predict_private.h. */
void
lab_scan_predict_append_header (bson_t *results, lab_store_t *store, const lab_scan_opts_t *o, const char *ts,
                                uint64_t cache, double ratio)
{
   lab_store_server_info_t info;
   bson_error_t err;
   bson_t doc;

   BSON_APPEND_INT32 (results, LAB_RESULTS_KEY_SCHEMA_VERSION, LAB_RESULTS_SCHEMA_VERSION);
   BSON_APPEND_UTF8 (results, "tool", "scancmp");
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_VERSION, LAB_VERSION);
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_STARTED, ts);
   if (o->argc > 0) {
      lab_cli_command_line_append (results, LAB_RESULTS_KEY_COMMAND_LINE, o->argc, o->argv);
   }
   BSON_APPEND_BOOL (results, "predicted", true);
   {
      lab_results_layouts_t ls = { 0 };
      ls.n = 2;
      ls.reference = 0;
      ls.l[0] = (lab_results_layout_t){ LAB_RESULTS_DETAIL, o->detail, LAB_RESULTS_KIND_ROWS };
      ls.l[1] = (lab_results_layout_t){ LAB_RESULTS_FOLDED, o->folded, LAB_RESULTS_KIND_FOLDED };
      lab_results_layouts_append (results, &ls);
   }
   BSON_APPEND_DOCUMENT_BEGIN (results, "backend", &doc);
   if (lab_store_server_info (store, &info, &err)) {
      BSON_APPEND_UTF8 (&doc, "name", info.backend);
      BSON_APPEND_UTF8 (&doc, "version", info.version);
   }
   BSON_APPEND_UTF8 (&doc, "uri", lab_store_uri_redacted (store));
   BSON_APPEND_UTF8 (&doc, "db", lab_store_db (store));
   BSON_APPEND_INT64 (&doc, "cache_max_bytes", (int64_t)cache);
   bson_append_document_end (results, &doc);
   BSON_APPEND_DOCUMENT_BEGIN (results, "config", &doc);
   BSON_APPEND_UTF8 (&doc, "detail", o->detail);
   BSON_APPEND_UTF8 (&doc, "folded", o->folded);
   BSON_APPEND_UTF8 (&doc, "key", o->key);
   BSON_APPEND_UTF8 (&doc, "array_field", o->array_field);
   BSON_APPEND_BOOL (&doc, "cold", true);
   BSON_APPEND_INT32 (&doc, "parallel", o->parallel);
   BSON_APPEND_INT32 (&doc, "runs", 1);
   BSON_APPEND_INT64 (&doc, "keys_limit", o->keys_limit);
   BSON_APPEND_INT64 (&doc, "cache_size_bytes", (int64_t)cache);
   BSON_APPEND_DOUBLE (&doc, LAB_RESULTS_KEY_CACHE_RATIO, ratio);
   BSON_APPEND_BOOL (&doc, "predict", true);
   bson_append_document_end (results, &doc);
}

/* lab_scan_predict_scaled_read_bytes -- see predict_private.h (scaled_read_bytes, for the other
 * candidates). */
double
lab_scan_predict_scaled_read_bytes (lab_scan_stackdist_t *sd, uint64_t cache, double rate, const layouts_t *l,
                                    int layout, double *misses)
{
   return scaled_read_bytes (sd, cache, rate, l, layout, NULL, misses);
}
