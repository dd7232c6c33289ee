/*
 * predict.c -- predict before folding (the model is in predict.h): the run -- the read-only
 * probe of the detail collection, the optional timed sample, the masters sampled, the model's input and
 * the cache points. The traces: predict_trace.c; the results document: predict_record.c; its terminal view:
 * predict_table.c.
 */
#include "scan/predict/predict_private.h"
#include "scan/predict/predict_cands.h"
#include "scan/predict/predict_wl.h"

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

/* ---- the sample (--sample) ----------------------------------------------------------------------- */

/* in_band -- whether a master whose key hashes to `u` is in the band [lo, hi) of the sample's hashes; a
 * band reaching past the sample's share F wraps to its start ([lo, F) and [0, hi - F)), so that the
 * sampling error's replicates (the sample less one of its groups) are bands too. */
static bool
in_band (const probe_t *p, double u, double lo, double hi)
{
   if (hi > p->sample && p->sample < 1) {
      return (u >= lo && u < p->sample) || u < hi - p->sample;
   }
   return u >= lo && u < hi;
}

/* mini_build -- the masters in [lo, hi) (see mini_t) of the `nload` loaded ones; with `perm` (random order:
 * positions of `load` as shuffled) their positions in that order. */
static void
mini_build (const probe_t *p, const int64_t *load, int64_t nload, double lo, double hi, const int64_t *perm,
            mini_t *m)
{
   int64_t *at = perm ? bson_malloc ((size_t)(nload > 0 ? nload : 1) * sizeof *at) : NULL;
   bool all = lo <= 0 && hi >= 1;
   double mean = p->nkeys > 0 ? p->entries_est / (double)p->nkeys : 0;
   int64_t k;

   memset (m, 0, sizeof *m);
   m->rate = all ? 1.0 : hi - lo;
   m->n = p->nkeys;
   m->rids = p->rids;
   m->nrids = p->nrids;
   m->min_rid = p->min_rid;
   if (!all) {
      m->own_nrids = bson_malloc0 ((size_t)(p->nkeys > 0 ? p->nkeys : 1) * sizeof *m->own_nrids);
      for (k = 0; k < p->nkeys; k++) {
         bool in = p->rids[k] && in_band (p, p->u[k], lo, hi);
         m->own_nrids[k] = in ? p->nrids[k] : (size_t)llround (mean);
      }
      m->nrids = m->own_nrids;
   }
   m->load = bson_malloc0 ((size_t)(nload > 0 ? nload : 1) * sizeof *m->load);
   for (k = 0; k < nload; k++) {
      int64_t j = load[k];
      if (at) {
         at[k] = -1;
      }
      if (all || (p->rids[j] && in_band (p, p->u[j], lo, hi))) {
         if (at) {
            at[k] = m->nload;
         }
         m->load[m->nload++] = j;
         m->rows_loaded += (double)p->nrids[j];
      }
   }
   if (at) {
      /* the sample's masters in the shuffle's order: dealt round-robin, as the whole load's are */
      int64_t n = 0;
      m->perm = bson_malloc0 ((size_t)(m->nload > 0 ? m->nload : 1) * sizeof *m->perm);
      for (k = 0; k < nload; k++) {
         if (at[perm[k]] >= 0) {
            m->perm[n++] = at[perm[k]];
         }
      }
      bson_free (at);
   }
}

/* mini_cleanup -- free what mini_build allocated. */
static void
mini_cleanup (mini_t *m)
{
   bson_free (m->own_nrids);
   bson_free (m->load);
   bson_free (m->perm);
   memset (m, 0, sizeof *m);
}

/* ---- the prediction ------------------------------------------------------------------------------ */

/* Default points without --cache-sizes / --cache-ratios. */
static const double default_ratios[] = { 0.1, 0.25, 0.5, 1, 2, 4 };

/* model_input -- the model's input from the probe (see predict.h for the constants). */
static void
model_input (const lab_scan_opts_t *o, const probe_t *p, const mini_t *mi, lab_scan_predict_input_t *in)
{
   const lab_store_coll_stats_t *st = &p->st;
   double leaf = p->leaf_pages > 0
                    ? (double)p->leaf_pages
                    : ceil ((double)st->count * st->avg_obj_size_bytes / PROBE_LEAF_PAGE_BYTES);
   double data =
      st->data_size_bytes > 0 ? (double)st->data_size_bytes : (double)st->count * st->avg_obj_size_bytes;
   double key_index = lab_scan_predict_key_index_bytes (p);
   double ipages = ceil (key_index / LAB_PREDICT_INDEX_PAGE_BYTES);
   double modelled;
   double key_elem = 1 + strlen (o->key) + 1 + 8;        /* type, name, an 8-byte value at most */
   double id_elem = 1 + 4 + 12;                          /* _id: ObjectId */
   double arr = 1 + strlen (o->array_field) + 1 + 4 + 1; /* the array's element and header */

   memset (in, 0, sizeof *in);
   if (leaf < 1) {
      leaf = 1;
   }
   if (ipages < 1) {
      ipages = 1;
   }
   in->nmasters = mi->n;
   in->rids = mi->rids;
   in->nrids = mi->nrids;
   in->load = mi->load;
   in->nload = mi->nload;
   in->parallel = o->parallel;
   in->min_rid = mi->min_rid;
   in->again_class = mi->rate < 1;
   in->rows_per_page = p->entries_est / leaf;
   modelled =
      data / leaf + in->rows_per_page * LAB_PREDICT_ROW_CACHE_OVERHEAD + LAB_PREDICT_PAGE_CACHE_OVERHEAD;
   /* measured (embedded): what a page the probe read holds in the cache, allocator overhead and the
    * internal pages read with it included */
   in->page_cache_bytes = p->data_page_mem > 0 ? p->data_page_mem : modelled;
   in->index_entries_per_page = p->entries_est / ipages;
   in->index_page_cache_bytes =
      p->index_page_mem > 0 ? p->index_page_mem : key_index / ipages + LAB_PREDICT_PAGE_CACHE_OVERHEAD;
   /* folded: a row loses its _id and key and becomes an array element ("N": about 5 bytes of name);
    * the master's document has its _id, the key and the array */
   in->folded_row_bytes = st->avg_obj_size_bytes - id_elem - key_elem + 5;
   if (in->folded_row_bytes < 1) {
      in->folded_row_bytes = 1;
   }
   in->folded_master_bytes = 5 + id_elem + key_elem + arr;
   if (p->fold_row_bytes > 0) {
      /* measured: a sample of masters folded in memory, hoisting as fold-details does */
      in->folded_row_bytes = p->fold_row_bytes;
      in->folded_master_bytes = p->fold_master_bytes;
   }
   in->folded_page_bytes = data / leaf;
   in->folded_compress_ratio = p->fold_compress_ratio; /* the sample fold's pack */
   /* the folded page's modelled footprint, scaled as the detail page's measured one is to its modelled */
   in->folded_page_cache_bytes =
      (in->folded_page_bytes + LAB_PREDICT_PAGE_CACHE_OVERHEAD) * (in->page_cache_bytes / modelled);
   in->folded_index_entries_per_page = in->index_entries_per_page;
}

/* layouts_of -- sizes on disk of both layouts and bytes per miss. */
static void
layouts_of (const probe_t *p, const lab_scan_predict_input_t *in, int64_t folded_pages, const mini_t *mi,
            int64_t nload, layouts_t *l)
{
   const lab_store_coll_stats_t *st = &p->st;
   double leaf = p->entries_est / in->rows_per_page;
   double data = in->folded_page_bytes * leaf;
   double compress = data > 0 && st->storage_size_bytes > 0 ? (double)st->storage_size_bytes / data : 1;
   double ipages = p->entries_est / in->index_entries_per_page;
   double key_index = lab_scan_predict_key_index_bytes (p);

   memset (l, 0, sizeof *l);
   l->storage[0] = (double)st->storage_size_bytes;
   l->index[0] = (double)st->index_size_bytes;
   l->data_disk[0] = (double)st->storage_size_bytes / leaf;
   l->index_disk = key_index / ipages;
   l->folded_pages = folded_pages;
   l->fill = lab_scan_predict_cache_fill (p);
   l->evict_target = p->evict_target > 0 ? p->evict_target : LAB_PREDICT_EVICT_TARGET;
   l->evict_trigger = p->evict_trigger > l->evict_target ? p->evict_trigger : LAB_PREDICT_CACHE_FILL * 100;
   /* folded: its pages at the detail's compression; indexes of one entry per master */
   /* the documents' bytes at the detail's compression (whole documents packed into pages of the detail's
    * bytes over-predicted the demo's folded copy by 16%: a page grows until its compressed image fills) */
   l->data_bytes[0] = data;
   l->data_bytes[1] = (double)p->nkeys * in->folded_master_bytes + p->entries_est * in->folded_row_bytes;
   l->storage[1] = l->data_bytes[1] * compress;
   if (p->fold_page_raw > 0) {
      /* measured: the sample's folded documents packed into pages and compressed as the fold would */
      l->storage[1] = l->data_bytes[1] * p->fold_page_disk / p->fold_page_raw;
   }
   if (p->fold_compress_ratio > 0 && folded_pages > 0 && p->fold_pages < LAB_PREDICT_PACK_MIN_PAGES) {
      /* too few sample pages for their round-ups: its pages' blocks at the sample's compression, each
       * rounded up by half a unit on average */
      l->storage[1] = lab_scan_predict_pack_disk (l->data_bytes[1], (double)p->nkeys, 0, (double)folded_pages,
                                                  p->fold_compress_ratio);
   }
   l->index[1] = (double)st->index_size_bytes * (double)p->nkeys / p->entries_est;
   l->data_disk[1] =
      folded_pages > 0 ? l->storage[1] / (double)folded_pages : in->folded_page_bytes * compress;
   l->pages[0][LAB_PREDICT_DATA] = leaf;
   l->pages[0][LAB_PREDICT_INDEX] = ipages;
   l->pages[1][LAB_PREDICT_DATA] = (double)folded_pages;
   l->pages[1][LAB_PREDICT_INDEX] = ceil (
      (double)p->nkeys / (in->folded_index_entries_per_page > 1 ? in->folded_index_entries_per_page : 1));
   l->on_disk[0] = l->storage[0] + l->index[0];
   l->on_disk[1] = l->storage[1] + l->index[1];
   /* the loaded masters' rows (a sample's scaled up) */
   l->rows = mi->rows_loaded / mi->rate;
   l->docs[0] = l->rows;
   l->docs[1] = (double)nload;
   l->bytes[0] = l->rows * st->avg_obj_size_bytes;
   l->bytes[1] = (double)nload * in->folded_master_bytes + l->rows * in->folded_row_bytes;
}

/* The most rows whose accesses are kept for the eviction miniature (8 bytes an access: about 150 MB); a
 * larger load is predicted by the LRU alone (--sample keeps fewer rows). */
#define PREDICT_SIM_MAX_ROWS 8000000.0

/* traces_build -- the masters in [lo, hi) of the loaded ones (mini_build), their model input and both
 * layouts' traces, in key order (perm NULL) or in the shuffle's; with `record` also each worker's accesses
 * for the eviction miniature. */
static void
traces_build (const lab_scan_opts_t *o, const probe_t *p, const int64_t *load, int64_t nload, double lo,
              double hi, const int64_t *perm, bool record, traces_t *tr)
{
   mini_build (p, load, nload, lo, hi, perm, &tr->mini);
   model_input (o, p, &tr->mini, &tr->in);
   if (record && tr->mini.rows_loaded <= PREDICT_SIM_MAX_ROWS) {
      tr->ev[0] = lab_scan_evictsim_trace_new (o->parallel);
      tr->ev[1] = lab_scan_evictsim_trace_new (o->parallel);
   }
   tr->in.perm = tr->mini.perm;
   tr->in.record = tr->ev[0];
   tr->sd[0] = lab_scan_predict_trace_detail (&tr->in);
   tr->in.record = tr->ev[1];
   tr->sd[1] = lab_scan_predict_trace_folded (&tr->in, &tr->folded_pages);
   tr->in.record = NULL;
   tr->shared[0] = lab_scan_predict_shared (&tr->in, 0);
   tr->shared[1] = lab_scan_predict_shared (&tr->in, 1);
}

/* traces_cleanup -- free a traces_build's; safe on a zeroed one. */
static void
traces_cleanup (traces_t *tr)
{
   lab_scan_stackdist_destroy (tr->sd[0]);
   lab_scan_stackdist_destroy (tr->sd[1]);
   lab_scan_evictsim_trace_destroy (tr->ev[0]);
   lab_scan_evictsim_trace_destroy (tr->ev[1]);
   mini_cleanup (&tr->mini);
   memset (tr, 0, sizeof *tr);
}

/* resolve_points -- the caches of the points: the user's list as scancmp resolves it, or the default
 * ratios, leaving out those under the engine's minimum cache (the log says so). */
static bool
resolve_points (const lab_scan_opts_t *o, double on_disk, uint64_t **caches, size_t *n, bson_error_t *error)
{
   size_t i;

   if (lab_scan_sweep_points (o) > 0) {
      *n = lab_scan_sweep_points (o);
      *caches = bson_malloc0 (*n * sizeof **caches);
      return lab_scan_sweep_resolve (&o->cache_sizes, &o->cache_ratios, on_disk, *caches, NULL, error);
   }
   *caches = bson_malloc0 (sizeof default_ratios / sizeof default_ratios[0] * sizeof **caches);
   *n = 0;
   for (i = 0; i < sizeof default_ratios / sizeof default_ratios[0]; i++) {
      uint64_t c = (uint64_t)llround (default_ratios[i] * on_disk);
      if (c < LAB_STORE_MIN_CACHE_BYTES) {
         lab_log_info ("ratio %g (a cache of %llu bytes) is under the engine's minimum cache: left out",
                       default_ratios[i], (unsigned long long)c);
         continue;
      }
      (*caches)[(*n)++] = c;
   }
   if (*n == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s is so small (%.0f bytes on disk) that every default ratio gives a cache under 1MiB: "
                     "give --cache-sizes",
                     o->detail, on_disk);
      return false;
   }
   return true;
}

/* loaded_masters -- the masters scancmp would load: every key, or --keys-limit spread as
 * lab_scan_keys_spread spreads them (applied to the keys' positions). */
static int64_t *
loaded_masters (const lab_scan_opts_t *o, int64_t nkeys, int64_t *nload)
{
   bson_value_t *pos = bson_malloc0 ((size_t)nkeys * sizeof *pos);
   int64_t *load = bson_malloc0 ((size_t)nkeys * sizeof *load), k, n = nkeys;

   for (k = 0; k < nkeys; k++) {
      pos[k].value_type = BSON_TYPE_INT64;
      pos[k].value.v_int64 = k;
   }
   lab_scan_keys_spread (pos, &n, o->keys_limit);
   for (k = 0; k < n; k++) {
      load[k] = pos[k].value.v_int64;
   }
   bson_free (pos);
   *nload = n;
   return load;
}

/* probe_all -- the read-only probe of the detail collection into *p (the index walk first, on an engine that
 * has read nothing yet), its time into *probe_s, and with --calibrate the timed sample into *t. */
static bool
probe_all (lab_store_t *store, const lab_scan_opts_t *o, probe_t *p, timing_t *t, double *probe_s,
           bson_error_t *error)
{
   lab_store_session_t *sess = NULL;
   uint64_t t0 = lab_now_ns ();
   bool ok = false;

   if (!(sess = lab_store_session_open (store, error))) {
      goto done;
   }
   if (!lab_store_stats (sess, o->detail, &p->st, error)) {
      lab_error_prefix (error, "statistics of %s", o->detail);
      goto done;
   }
   /* the index walk first, on an engine that has read nothing yet: its bytes read are its own */
   if (!lab_scan_predict_probe_walk (sess, store, o, p, error)) {
      goto done;
   }
   lab_scan_predict_probe_leaf_pages (sess, store, o, p);
   lab_scan_predict_probe_footprint (sess, store, o, p);
   /* after the footprint: the sample fold's pages must not count in it */
   if (!lab_scan_predict_probe_fold (sess, o, p, error)) {
      goto done;
   }
   lab_store_session_close (sess);
   sess = NULL;
   /* the device figures last: their reads go around the engine cache */
   lab_scan_predict_cost_device (store, o, p);
   if (p->leaf_pages_read >= 4 && p->leaf_s > 0) {
      /* the probe's own leaf count read these pages into a fresh cache, one reader */
      p->cost.first_read_s = p->leaf_s / (double)p->leaf_pages_read;
      p->cost.first_pages = p->leaf_pages_read;
   } else {
      p->cost.first_read_s = p->cost.read_s * (o->parallel > 0 ? o->parallel : 1);
   }
   t->cost = p->cost;
   *probe_s = (double)(lab_now_ns () - t0) / 1e9;
   lab_log_info ("probe of %s: %lld masters, %lld index entries in %.2f s (%lld documents fetched)",
                 o->detail, (long long)p->nkeys, (long long)p->entries, *probe_s,
                 (long long)p->documents_fetched);
   if (o->calibrate) {
      if (lab_store_backend (store) != LAB_BACKEND_WT) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                        "--predict --calibrate times a sample loaded cold, which needs the embedded store "
                        "(a server would have to be restarted): leave --calibrate out for read "
                        "amplification only");
         goto done;
      }
      if (!lab_scan_predict_calibrate (store, o, p, t, error)) {
         goto done;
      }
      lab_log_info ("timed sample: %lld documents, %.4f ms per document warm, %.4f ms per page read",
                    (long long)t->docs, t->doc_s * 1e3, t->miss_s * 1e3);
      if (t->cost.done && t->miss_s > 0) {
         /* a page read through the engine, cold minus warm (its decompression in it), shared by the workers
          */
         t->cost.first_read_s = t->miss_s;
         t->cost.calibrated = true;
      }
   }
   ok = true;
done:
   lab_store_session_close (sess);
   return ok;
}

/* lab_scan_predict_run -- see predict.h. */
bool
lab_scan_predict_run (lab_store_t *store, const lab_scan_opts_t *o, bson_t *results, bson_error_t *error)
{
   probe_t p;
   timing_t t;
   layouts_t l;
   traces_t tr, tr_random, groups[SAMPLE_GROUPS];
   lab_scan_predict_cands_t cands;
   lab_scan_predict_wl_t wl;
   lab_scan_predict_point_reads_t reads;
   lab_scan_predict_knee_t knee;
   int64_t *load = NULL, *perm = NULL, nload = 0;
   uint64_t *caches = NULL;
   double *ratios = NULL, probe_s;
   size_t n = 0, i, ref;
   int ngroups = 0, g;
   char ts[32];
   bson_t arr;
   bool ok = false;

   memset (&p, 0, sizeof p);
   memset (&t, 0, sizeof t);
   memset (&tr, 0, sizeof tr);
   memset (&tr_random, 0, sizeof tr_random);
   memset (groups, 0, sizeof groups);
   memset (&cands, 0, sizeof cands);
   memset (&wl, 0, sizeof wl);
   p.sample = o->predict_sample > 0 && o->predict_sample < 1 ? o->predict_sample : 1.0;
   if (o->nlayouts > 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--predict with --layout: the prediction probes one collection of one document per row, "
                     "named by --detail (the folded layout is predicted, not read)");
      return false;
   }
   lab_scan_utc_now (ts, sizeof ts);
   if (!probe_all (store, o, &p, &t, &probe_s, error)) {
      goto done;
   }

   load = loaded_masters (o, p.nkeys, &nload);
   /* the range workload's rows' times (a pass of the documents: only when --workload asks for range) */
   if (!lab_scan_predict_wl_probe (store, o, &p, load, nload, &wl, error)) {
      goto done;
   }
   p.documents_fetched += wl.docs_read;
   p.range_documents = wl.docs_read;
   p.range_how = wl.range_how;
   traces_build (o, &p, load, nload, 0, p.sample, NULL, true, &tr);
   if (tr.mini.nload == 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_KEYS,
                     "nothing to predict: none of the %lld masters loaded is in the sample of %s (sample a "
                     "larger share, or load more masters)",
                     (long long)nload, o->detail);
      goto done;
   }
   if (p.sample < 1) {
      double pages = lab_scan_stackdist_pages (tr.sd[0], LAB_PREDICT_DATA);
      p.sample_per_page = pages > 0 ? lab_scan_stackdist_accesses (tr.sd[0], LAB_PREDICT_DATA) / pages : 0;
      if (p.sample_per_page < SAMPLE_MIN_PER_PAGE) {
         lab_log_info ("sample of %g: %.1f sampled masters per page: %s", p.sample, p.sample_per_page,
                       SAMPLE_WARNING);
      }
      /* the error by the delete-a-group jackknife: the sample split four ways by the same hash, the
       * estimate made again without each group in turn (three quarters of the sample: a group alone holds
       * too few masters per page and its capped estimates can agree exactly where the whole sample's
       * does not, an error of 0) */
      ngroups = SAMPLE_GROUPS;
      for (g = 0; g < ngroups; g++) {
         double lo = p.sample * (g + 1) / ngroups;
         traces_build (o, &p, load, nload, lo, lo + p.sample * (ngroups - 1) / ngroups, NULL, false,
                       &groups[g]);
      }
   }
   if (t.cost.done) {
      /* the random load order (--load-order random): the same masters shuffled as scancmp shuffles them */
      perm = bson_malloc ((size_t)(nload > 0 ? nload : 1) * sizeof *perm);
      lab_scan_keys_shuffle (nload, o->wl.seed, perm);
      traces_build (o, &p, load, nload, 0, p.sample, perm, false, &tr_random);
   }
   layouts_of (&p, &tr.in, tr.folded_pages, &tr.mini, nload, &l);
   lab_scan_predict_cands_build (o, &p, &tr, &l, &cands);
   lab_scan_predict_wl_build (o, &p, &tr, &l, &cands, &wl);
   if (!resolve_points (o, l.on_disk[0], &caches, &n, error)) {
      goto done;
   }
   ratios = bson_malloc0 (n * sizeof *ratios);
   for (i = 0; i < n; i++) {
      ratios[i] = (double)caches[i] / l.on_disk[0];
   }
   ref = lab_results_sweep_reference_of (ratios, n);

   lab_scan_predict_append_header (results, store, o, ts, caches[ref], ratios[ref]);
   lab_scan_predict_record_dataset (results, o, &p, nload, &l);
   lab_scan_predict_knee_of (&tr, groups, ngroups, &l, &knee);
   lab_scan_predict_record_prediction (results, o, &p, &tr.in, &l, &knee, &t, probe_s);
   lab_scan_predict_cands_record (results, &cands, &p, &tr, &l);

   BSON_APPEND_INT64 (results, LAB_RESULTS_KEY_SWEEP_REFERENCE, (int64_t)ref);
   BSON_APPEND_ARRAY_BEGIN (results, LAB_RESULTS_KEY_SWEEP, &arr);
   for (i = 0; i < n; i++) {
      char idx[16];
      const char *ik;
      bson_t point;
      bson_uint32_to_string ((uint32_t)i, &ik, idx, sizeof idx);
      BSON_APPEND_DOCUMENT_BEGIN (&arr, ik, &point);
      lab_scan_predict_append_point (&point, caches[i], ratios[i], &tr, groups, ngroups, &knee, &l, o, nload,
                                     &t, &reads);
      lab_scan_predict_cands_point (&point, &cands, caches[i]);
      lab_scan_predict_wl_point (&point, &wl, &l, caches[i]);
      lab_scan_predict_append_speed (&point, caches[i], &tr, &tr_random, &l, nload, &t.cost, &reads);
      bson_append_document_end (&arr, &point);
   }
   bson_append_array_end (results, &arr);
   {
      /* the top level repeats the reference point, as a measured sweep's does: from a copy, since
       * appending to `results` may move the bytes a view of its point would read */
      lab_sweep_point_t rp;
      bson_iter_t it;
      if (lab_results_sweep_point (results, ref, &rp)) {
         bson_t *copy = bson_copy (&rp.doc);
         if (bson_iter_init_find (&it, copy, LAB_RESULTS_KEY_RUNS)) {
            bson_append_iter (results, LAB_RESULTS_KEY_RUNS, -1, &it);
         }
         if (bson_iter_init_find (&it, copy, LAB_RESULTS_KEY_SUMMARY)) {
            bson_append_iter (results, LAB_RESULTS_KEY_SUMMARY, -1, &it);
         }
         bson_destroy (copy);
      }
   }
   lab_scan_utc_now (ts, sizeof ts);
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_FINISHED, ts);
   ok = lab_results_sweep_check (results, error);
done:
   lab_scan_predict_cands_cleanup (&cands);
   lab_scan_predict_wl_cleanup (&wl, p.nkeys);
   traces_cleanup (&tr);
   traces_cleanup (&tr_random);
   bson_free (perm);
   for (g = 0; g < SAMPLE_GROUPS; g++) {
      traces_cleanup (&groups[g]);
   }
   lab_scan_predict_probe_cleanup (&p);
   bson_free (load);
   bson_free (caches);
   bson_free (ratios);
   return ok;
}
