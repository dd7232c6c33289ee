/*
 * predict_probe.c -- the read-only probe of the detail collection (its key index with each entry's RecordId,
 * its statistics and leaf pages, what the probe cost) and the optional timed sample (--calibrate): the
 * inputs of the prediction (predict.c).
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

/* ---- the probe ----------------------------------------------------------------------------------- */

/* key_place -- where key `v` falls in [0, 1): a hash (FNV-1a, then a 64-bit finalizer) of its BSON
 * value's bytes, so the same keys are sampled every time, on every store. */
static double
key_place (const bson_value_t *v)
{
   bson_t b = BSON_INITIALIZER;
   const uint8_t *d;
   uint64_t h = 1469598103934665603ull;
   uint32_t i;

   bson_append_value (&b, "k", 1, v);
   d = bson_get_data (&b);
   for (i = 0; i < b.len; i++) {
      h = (h ^ d[i]) * 1099511628211ull;
   }
   bson_destroy (&b);
   h ^= h >> 33;
   h *= 0xff51afd7ed558ccdull;
   h ^= h >> 33;
   h *= 0xc4ceb9fe1a85ec53ull;
   h ^= h >> 33;
   return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

/* engine_read_bytes -- the engine's block bytes read so far (-1 unknown). */
static int64_t
engine_read_bytes (lab_store_t *store)
{
   lab_store_engine_stats_t es;
   bson_error_t err;

   if (!lab_store_engine_stats (store, &es, &err)) {
      return -1;
   }
   return es.block_read_bytes;
}

/* engine_docs -- the store's documents-read counter so far (embedded: documents read from its record
 * tables; a server's scannedObjects counts every client's, so -1 there: not this probe's alone). */
static int64_t
engine_docs (lab_store_t *store)
{
   lab_store_engine_stats_t es;
   bson_error_t err;

   if (lab_store_backend (store) != LAB_BACKEND_WT || !lab_store_engine_stats (store, &es, &err)) {
      return -1;
   }
   return es.docs_examined;
}

/* engine_pages -- pages read into the engine cache so far (-1 unknown). */
static int64_t
engine_pages (lab_store_t *store)
{
   lab_store_engine_stats_t es;
   bson_error_t err;

   if (!lab_store_engine_stats (store, &es, &err)) {
      return -1;
   }
   return es.cache_pages_read;
}

/* delta -- b - a, or -1 when either is unknown. */
static int64_t
delta (int64_t a, int64_t b)
{
   return a < 0 || b < 0 ? -1 : b - a;
}

/* lab_scan_predict_probe_walk -- see predict_private.h. */
bool
lab_scan_predict_probe_walk (lab_store_session_t *sess, lab_store_t *store, const lab_scan_opts_t *o,
                             probe_t *p, bson_error_t *error)
{
   uint64_t t0 = lab_now_ns ();
   int64_t r0, d0, k;

   if (p->st.clustered) {
      /* the collection's stats say so (a server: listCollections options.clusteredIndex): its RecordIds are
       * the KeyStrings of _id, and a find with showRecordId gives the _id value back, a number when _id is
       * one (record_id_helpers::appendToBSONAs): no append order to read pages from */
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "--predict probes the RecordIds of a collection of rows in append order: %s is a "
                     "clustered collection (records in _id order, its RecordId is its _id)",
                     o->detail);
      return false;
   }
   r0 = engine_read_bytes (store);
   d0 = engine_docs (store);
   if (!lab_store_distinct_keys (sess, o->detail, o->key, &p->keys, &p->nkeys, error)) {
      lab_error_prefix (error, "reading the keys of %s from its %s index", o->detail, o->key);
      return false;
   }
   if (p->nkeys == 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_KEYS, "nothing to predict: %s has no %s values",
                     o->detail, o->key);
      return false;
   }
   p->rids = bson_malloc0 ((size_t)p->nkeys * sizeof *p->rids);
   p->nrids = bson_malloc0 ((size_t)p->nkeys * sizeof *p->nrids);
   p->u = bson_malloc0 ((size_t)p->nkeys * sizeof *p->u);
   p->min_rid = INT64_MAX;
   for (k = 0; k < p->nkeys; k++) {
      p->u[k] = key_place (&p->keys[k]);
      if (p->sample < 1 && p->u[k] >= p->sample) {
         continue; /* not in the sample: its RecordIds are not read */
      }
      p->nsampled++;
      if (!lab_store_record_ids (sess, o->detail, o->key, &p->keys[k], &p->rids[k], &p->nrids[k], error)) {
         lab_error_prefix (error, "the probe of %s", o->detail);
         return false;
      }
      p->entries += (int64_t)p->nrids[k];
      if (p->nrids[k] > 0 && p->rids[k][0] < p->min_rid) {
         p->min_rid = p->rids[k][0];
      }
   }
   if (p->entries == 0) {
      if (p->sample < 1) {
         lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_KEYS,
                        "nothing to predict: no row of the %lld sampled masters of %s has a %s (sample a "
                        "larger share of the masters)",
                        (long long)p->nsampled, o->detail, o->key);
      } else {
         lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_KEYS,
                        "nothing to predict: no row of %s has a %s", o->detail, o->key);
      }
      return false;
   }
   /* the collection's entries: counted, or with a sample its document count (each row has the key) */
   p->entries_est = (double)p->entries;
   if (p->sample < 1) {
      p->entries_est = p->st.count > 0 ? (double)p->st.count : (double)p->entries / p->sample;
   }
   p->walk_s = (double)(lab_now_ns () - t0) / 1e9;
   p->walk_read_bytes = delta (r0, engine_read_bytes (store));
   if (d0 >= 0 && (k = engine_docs (store)) >= 0) {
      p->documents_fetched += k - d0;
      p->documents_how = "measured: the store's documents-read counter over the probe";
   } else {
      p->documents_how = "not measured (a server's scannedObjects counts every client): none by the plan";
   }
   if (lab_store_backend (store) == LAB_BACKEND_WT) {
      p->walk_how = "the key index's entries (key, RecordId): no document read";
   } else {
      /* find {key: v} with showRecordId projecting only the key: a covered IXSCAN on mongod when the
       * index is not multikey (docs/mongodb-compat.md); not checked against the server from here */
      p->walk_how = "find with showRecordId per key, projection {_id: 0, key: 1}: covered (IXSCAN, no "
                    "FETCH) on mongod when the key index is not multikey";
   }
   return true;
}

/* lab_scan_predict_probe_leaf_pages -- see predict_private.h. */
void
lab_scan_predict_probe_leaf_pages (lab_store_session_t *sess, lab_store_t *store, const lab_scan_opts_t *o,
                                   probe_t *p)
{
   uint64_t t0 = lab_now_ns (), c0 = lab_scan_predict_cpu_ns ();
   int64_t r0 = engine_read_bytes (store), d0 = engine_docs (store), g0 = engine_pages (store), d1;
   double exact_below = p->exact_below_bytes > 0 ? p->exact_below_bytes : PROBE_EXACT_BELOW_BYTES;
   lab_store_leaf_estimate_t est;
   bson_error_t err;
   bool wt = lab_store_backend (store) == LAB_BACKEND_WT;

   p->leaf_source = "32 KiB leaf pages / average document size (the engine gives no leaf page count)";
   p->leaf_how = "nothing (no leaf page count)";
   if ((double)p->st.storage_size_bytes > exact_below &&
       lab_store_leaf_pages_estimate (sess, o->detail, &p->leaf_opts, &est, &err) && est.pages > 0) {
      p->leaf_pages = est.pages;
      p->leaf_error_pct = est.error_pct;
      p->leaf_rows_read = est.rows_read;
      p->leaf_source = "engine leaf pages, sampled";
      p->leaf_how = "runs of consecutive records stepped over by key (cursor next, no value read), the "
                    "leaf pages they cross counted by the table's \"pages read into cache\"";
   } else if (lab_store_leaf_pages (sess, o->detail, &p->leaf_pages, &err) && p->leaf_pages > 0) {
      p->leaf_source = "engine leaf page count (a walk of the collection's tree: its pages, no document)";
      p->leaf_how =
         wt ? "a statistics walk of the whole tree (statistics=(all)): every page read, no document"
            : "collStats wiredTiger.btree[\"row-store leaf pages\"]: the server's statistics, no "
              "document returned (it walks the tree only under statistics=all)";
   } else {
      p->leaf_pages = 0;
   }
   p->leaf_s = (double)(lab_now_ns () - t0) / 1e9;
   p->leaf_cpu_s = (double)(lab_scan_predict_cpu_ns () - c0) / 1e9;
   p->leaf_read_bytes = delta (r0, engine_read_bytes (store));
   p->leaf_pages_read = wt ? delta (g0, engine_pages (store)) : -1;
   if (d0 >= 0 && (d1 = engine_docs (store)) >= 0) {
      p->documents_fetched += d1 - d0;
   }
}

/* Fewest data pages the probe must have read for their bytes per page to be taken. */
#define FOOT_MIN_PAGES 4

/* lab_scan_predict_probe_footprint -- see predict_private.h. */
void
lab_scan_predict_probe_footprint (lab_store_session_t *sess, lab_store_t *store, const lab_scan_opts_t *o,
                                  probe_t *p)
{
   lab_store_cache_foot_t f;
   bson_error_t err;
   double held;

   if (lab_store_backend (store) != LAB_BACKEND_WT) {
      p->foot_why = "a server's cache holds every client's pages: not measured";
      return;
   }
   if (!lab_store_cache_footprint (sess, o->detail, o->key, &f, &err)) {
      p->foot_why = "the engine's statistics could not be read";
      lab_log_info ("the cache footprint of %s: %s", o->detail, err.message);
      return;
   }
   p->evict_target = f.eviction_target;
   p->evict_trigger = f.eviction_trigger;
   p->evict_configured = f.eviction_configured;
   if (f.key_index_bytes > 0) {
      p->key_index_bytes = (double)f.key_index_bytes;
   }
   held = (double)f.table_cache_bytes + (f.index_cache_bytes > 0 ? (double)f.index_cache_bytes : 0);
   if (f.table_pages_read < FOOT_MIN_PAGES || f.table_cache_bytes <= 0) {
      p->foot_why = "the probe read too few of the collection's pages";
      return;
   }
   if (f.cache_max_bytes > 0 && held > 0.9 * f.eviction_target / 100 * (double)f.cache_max_bytes) {
      /* near the eviction target, pages the probe read may have left: its bytes per page would be low */
      p->foot_why = "the probe's reads filled the engine cache (pages may have been evicted): give a larger "
                    "--cache-size to the prediction";
      return;
   }
   p->data_page_mem = (double)f.table_cache_bytes / (double)f.table_pages_read;
   p->data_pages_in = f.table_pages_read;
   if (f.index_pages_read > 0 && f.index_cache_bytes > 0) {
      p->index_page_mem = (double)f.index_cache_bytes / (double)f.index_pages_read;
      p->index_pages_in = f.index_pages_read;
   }
}

/* lab_scan_predict_key_index_bytes -- see predict_private.h. */
double
lab_scan_predict_key_index_bytes (const probe_t *p)
{
   const lab_store_coll_stats_t *st = &p->st;

   if (p->key_index_bytes > 0) {
      return p->key_index_bytes;
   }
   return (double)st->index_size_bytes / (st->nindexes > 0 ? st->nindexes : 1);
}

/* lab_scan_predict_cache_fill -- see predict_private.h. */
double
lab_scan_predict_cache_fill (const probe_t *p)
{
   if (p->evict_target > 0 && p->evict_trigger > p->evict_target) {
      return p->evict_trigger / 100;
   }
   return LAB_PREDICT_CACHE_FILL;
}

/* lab_scan_predict_record_capacity -- see predict_private.h. */
void
lab_scan_predict_record_capacity (bson_t *d, const probe_t *p, double data_page_cache_bytes,
                                  double index_page_cache_bytes, double fill)
{
   bson_t c;

   BSON_APPEND_DOCUMENT_BEGIN (d, "capacity", &c);
   BSON_APPEND_DOUBLE (&c, "cache_fill", fill);
   if (p->evict_target > 0) {
      BSON_APPEND_DOUBLE (&c, "eviction_target", p->evict_target);
      BSON_APPEND_DOUBLE (&c, "eviction_trigger", p->evict_trigger);
      BSON_APPEND_UTF8 (&c, "cache_fill_source",
                        p->evict_configured ? "measured: the connection's configured eviction_trigger"
                                            : "default: WiredTiger's default eviction_trigger (the store's "
                                              "connection sets none)");
   } else {
      BSON_APPEND_UTF8 (&c, "cache_fill_source",
                        "default: the model's constant (no engine configuration read)");
   }
   BSON_APPEND_DOUBLE (&c, "data_page_cache_bytes", data_page_cache_bytes);
   BSON_APPEND_UTF8 (&c, "data_page_cache_bytes_source",
                     p->data_page_mem > 0
                        ? "measured: the collection's bytes in the engine cache / its pages "
                          "read into it by the probe"
                        : "default: bytes per page + per-row and per-page constants");
   if (p->data_pages_in > 0) {
      BSON_APPEND_INT64 (&c, "data_pages_measured", p->data_pages_in);
   }
   BSON_APPEND_DOUBLE (&c, "index_page_cache_bytes", index_page_cache_bytes);
   BSON_APPEND_UTF8 (&c, "index_page_cache_bytes_source",
                     p->index_page_mem > 0
                        ? "measured: the key index's bytes in the engine cache / its pages "
                          "read into it by the probe"
                        : "default: bytes per page + a per-page constant");
   if (p->index_pages_in > 0) {
      BSON_APPEND_INT64 (&c, "index_pages_measured", p->index_pages_in);
   }
   BSON_APPEND_DOUBLE (&c, "key_index_bytes", lab_scan_predict_key_index_bytes (p));
   BSON_APPEND_UTF8 (&c, "key_index_bytes_source",
                     p->key_index_bytes > 0 ? "measured: the key index's own file"
                                            : "default: the indexes' size / their number");
   if (p->foot_why) {
      BSON_APPEND_UTF8 (&c, "not_measured", p->foot_why);
   }
   bson_append_document_end (d, &c);
}

/* lab_scan_predict_probe_cleanup -- see predict_private.h. */
void
lab_scan_predict_probe_cleanup (probe_t *p)
{
   int64_t k;

   for (k = 0; k < p->nkeys && p->rids; k++) {
      bson_free (p->rids[k]);
   }
   bson_free (p->rids);
   bson_free (p->nrids);
   bson_free (p->u);
   lab_store_values_free (p->keys, (int)p->nkeys);
}

/* ---- the timed sample (--calibrate, embedded) ---------------------------------------------------- */

/* count_doc -- count the documents of a sampled master. */
static bool
count_doc (const bson_t *doc, void *ctx)
{
   (void)doc;
   (*(int64_t *)ctx)++;
   return true;
}

/* load_sample -- every document of the sampled masters, one session; elapsed seconds and documents. */
static bool
load_sample (lab_store_t *store, const lab_scan_opts_t *o, const bson_value_t *keys, const int64_t *pick,
             int64_t n, double *s, int64_t *docs, bson_error_t *error)
{
   lab_store_session_t *sess = lab_store_session_open (store, error);
   uint64_t t0 = lab_now_ns ();
   int64_t i;
   bool ok = sess != NULL;

   *docs = 0;
   for (i = 0; ok && i < n; i++) {
      ok = lab_store_find_eq (sess, o->detail, o->key, &keys[pick[i]], count_doc, docs, NULL, error);
   }
   *s = (double)(lab_now_ns () - t0) / 1e9;
   lab_store_session_close (sess);
   return ok;
}

/* Masters the timed sample loads at most, and rows it stops after. */
#define SAMPLE_MASTERS 32
#define SAMPLE_ROWS 4000

/* lab_scan_predict_calibrate -- see predict_private.h. */
bool
lab_scan_predict_calibrate (lab_store_t *store, const lab_scan_opts_t *o, const probe_t *p, timing_t *t,
                            bson_error_t *error)
{
   int64_t pick[SAMPLE_MASTERS], n = 0, rows = 0, i, docs;
   lab_store_engine_stats_t a, b;

   for (i = 0; i < SAMPLE_MASTERS && rows < SAMPLE_ROWS; i++) {
      int64_t k = (int64_t)((double)i * (double)(p->nkeys - 1) / (SAMPLE_MASTERS - 1) + 0.5);
      if (n > 0 && pick[n - 1] == k) {
         continue;
      }
      pick[n++] = k;
      rows += (int64_t)p->nrids[k];
   }
   if (!lab_store_cycle (store, NULL, NULL, o->ready_timeout_ms, error)) {
      lab_error_prefix (error, "--calibrate: reopen the engine cold");
      return false;
   }
   if (!lab_store_engine_stats (store, &a, error) ||
       !load_sample (store, o, p->keys, pick, n, &t->cold_s, &docs, error) ||
       !lab_store_engine_stats (store, &b, error) ||
       !load_sample (store, o, p->keys, pick, n, &t->warm_s, &t->docs, error)) {
      lab_error_prefix (error, "--calibrate: the timed sample of %s", o->detail);
      return false;
   }
   t->masters = n;
   t->block_reads = b.block_reads - a.block_reads;
   t->doc_s = t->docs > 0 ? t->warm_s / (double)t->docs : 0;
   t->miss_s =
      t->block_reads > 0 && t->cold_s > t->warm_s ? (t->cold_s - t->warm_s) / (double)t->block_reads : 0;
   t->done = true;
   return true;
}

/* lab_scan_predict_elapsed -- see predict_private.h. */
double
lab_scan_predict_elapsed (const timing_t *t, int parallel, double misses, double docs)
{
   long cores = sysconf (_SC_NPROCESSORS_ONLN);
   double cpu_par = parallel < (cores > 0 ? cores : 1) ? parallel : (double)(cores > 0 ? cores : 1);

   return misses * t->miss_s / (parallel > 0 ? parallel : 1) + docs * t->doc_s / (cpu_par > 0 ? cpu_par : 1);
}
