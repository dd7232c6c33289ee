/*
 * locality.c -- how many distinct data (leaf) pages one master's rows occupy: the "why" beside a cache
 * sweep's timings. A fixed sample of masters; each master's RecordIds (from its key index entries on the
 * embedded store, find with showRecordId on MongoDB) grouped into pages of (rows ÷ leaf pages)
 * consecutive RecordIds. It is an estimate from the store's append order (docs/results-schema.md,
 * "Locality"), exact enough to tell 1-2 pages from 100. A clustered collection has no RecordIds
 * of its own: its masters' rows are consecutive in _id order, counted by an _id range read
 * (method "clustered_contiguous").
 */
#include "scan/measure/measure.h"

#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* mongod's leaf_page_max: the page size assumed when the engine gives no leaf page count. */
#define LOCALITY_LEAF_PAGE_BYTES (32.0 * 1024)

/* lab_scan_locality_pages -- see scan.h. */
int64_t
lab_scan_locality_pages (const int64_t *rids, size_t n, int64_t min_rid, double rows_per_page)
{
   int64_t pages = 0, last = -1;
   size_t i;

   if (rows_per_page <= 0) {
      return 0;
   }
   for (i = 0; i < n; i++) {
      double off = (double)(rids[i] - min_rid);
      int64_t first = (int64_t)floor (off / rows_per_page);
      int64_t end = (int64_t)ceil ((off + 1) / rows_per_page) - 1; /* last page the row reaches */

      if (end < first) {
         end = first;
      }
      if (first <= last) {
         first = last + 1;
      }
      if (end >= first) {
         pages += end - first + 1;
         last = end;
      }
   }
   return pages;
}

/* lab_scan_locality_sample -- see scan.h: selection sampling (Knuth's algorithm S) driven by xorshift64 with
 * a fixed seed, so the indexes come out ascending and the same on every run. */
int64_t
lab_scan_locality_sample (int64_t nkeys, int64_t sample, int64_t *out)
{
   uint64_t x = 0x9E3779B97F4A7C15ull;
   int64_t i, m = 0;

   for (i = 0; i < nkeys && m < sample; i++) {
      double u;
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      u = (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
      if ((double)(nkeys - i) * u < (double)(sample - m)) {
         out[m++] = i;
      }
   }
   return m;
}

/* cmp_double -- ascending for qsort. */
static int
cmp_double (const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

/* Below this size on disk the exact count is cheap (a walk reading every page): above, a sample. */
#define LOCALITY_EXACT_BELOW_BYTES (256.0 * 1024 * 1024)

/* rows_per_page -- rows / the collection's leaf pages: counted exactly (small collections), else sampled
 * with the error bound in *error_pct (lab_store_leaf_pages_estimate, a few MB read instead of every
 * page; exact when the sample cannot be had); else mongod's 32 KiB leaf page / the average document
 * size. *source says which; *pages gets the leaf pages used (-1 for the last). */
static bool
rows_per_page (lab_store_session_t *sess, const char *coll, double *rpp, const char **source, int64_t *pages,
               double *error_pct, bson_error_t *error)
{
   lab_store_coll_stats_t st;
   lab_store_leaf_estimate_t est;
   bson_error_t err;

   memset (&st, 0, sizeof st);
   *pages = -1;
   *error_pct = 0;
   if (!lab_store_stats (sess, coll, &st, error)) {
      return false;
   }
   if ((double)st.storage_size_bytes > LOCALITY_EXACT_BELOW_BYTES &&
       lab_store_leaf_pages_estimate (sess, coll, NULL, &est, &err) && est.pages > 0 && st.count > 0) {
      *pages = est.pages;
      *error_pct = est.error_pct;
      *rpp = (double)st.count / (double)est.pages;
      *source = "engine leaf pages, sampled";
      return true;
   }
   if (lab_store_leaf_pages (sess, coll, pages, &err) && *pages > 0 && st.count > 0) {
      *rpp = (double)st.count / (double)*pages;
      *source = "engine leaf page count";
      return true;
   }
   *pages = -1;
   if (st.avg_obj_size_bytes <= 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_LOCALITY,
                     "no leaf page count and no average document size for %s", coll);
      return false;
   }
   *rpp = LOCALITY_LEAF_PAGE_BYTES / st.avg_obj_size_bytes;
   *source = "32 KiB leaf pages / average document size";
   return true;
}

/* count_row -- count a document. */
static bool
count_row (const bson_t *doc, void *ctx)
{
   (void)doc;
   (*(int64_t *)ctx)++;
   return true;
}

/* clustered_pages -- a clustered collection: a master's n rows are consecutive records of the
 * table (its _id order), so they occupy the pages a run of n rows at an arbitrary offset crosses:
 * 1 + (n - 1) / rows_per_page in expectation (no RecordId gives the offset). *n from an _id range read. */
static bool
clustered_pages (lab_store_session_t *sess, const lab_scan_opts_t *o, const char *coll,
                 const bson_value_t *key, double rpp, double *pages, bson_error_t *error)
{
   int64_t n = 0;

   if (!lab_scan_clustered_find (sess, coll, o->key, key, count_row, &n, NULL, error)) {
      return false;
   }
   *pages = n > 0 ? 1.0 + (double)(n - 1) / rpp : 0;
   return true;
}

/* lab_scan_locality -- see measure.h. */
bool
lab_scan_locality (lab_store_session_t *sess, const lab_scan_opts_t *o, const char *coll,
                   const bson_value_t *keys, int64_t nkeys, bson_t *out, bson_error_t *error)
{
   int64_t want = o->locality_sample > 0 ? o->locality_sample : 1000;
   int64_t *idx = bson_malloc ((size_t)(want < nkeys ? want : nkeys) * sizeof *idx + sizeof *idx);
   int64_t **rids = NULL;
   size_t *nrids = NULL;
   double *pages = NULL, rpp = 0, sum = 0, error_pct = 0;
   const char *source = NULL;
   int64_t m, i, min_rid = INT64_MAX, used = 0, leaf_pages = -1;
   bool ok = false, clustered = false;

   m = lab_scan_locality_sample (nkeys, want, idx);
   rids = bson_malloc0 ((size_t)(m + 1) * sizeof *rids);
   nrids = bson_malloc0 ((size_t)(m + 1) * sizeof *nrids);
   pages = bson_malloc0 ((size_t)(m + 1) * sizeof *pages);
   if (!rows_per_page (sess, coll, &rpp, &source, &leaf_pages, &error_pct, error) ||
       !lab_scan_clustered (sess, coll, &clustered, error)) {
      goto done;
   }
   for (i = 0; i < m && clustered; i++) {
      if (!clustered_pages (sess, o, coll, &keys[idx[i]], rpp, &pages[used], error)) {
         goto done;
      }
      if (pages[used] > 0) {
         sum += pages[used++];
      }
   }
   for (i = 0; i < m && !clustered; i++) {
      if (!lab_store_record_ids (sess, coll, o->key, &keys[idx[i]], &rids[i], &nrids[i], error)) {
         goto done;
      }
      if (nrids[i] > 0 && rids[i][0] < min_rid) {
         min_rid = rids[i][0];
      }
   }
   /* the smallest RecordId seen stands for the collection's first: it only shifts page boundaries */
   for (i = 0; i < m && !clustered; i++) {
      if (nrids[i] > 0) {
         pages[used] = (double)lab_scan_locality_pages (rids[i], nrids[i], min_rid, rpp);
         sum += pages[used];
         used++;
      }
   }
   if (used == 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_LOCALITY, "no sampled master of %s has a row", coll);
      goto done;
   }
   qsort (pages, (size_t)used, sizeof *pages, cmp_double);
   BSON_APPEND_DOUBLE (out, "pages_per_master_mean", sum / (double)used);
   BSON_APPEND_DOUBLE (out, "pages_per_master_p95", lab_scan_percentile (pages, (size_t)used, 95));
   BSON_APPEND_INT64 (out, "masters_sampled", used);
   BSON_APPEND_UTF8 (out, "method", clustered ? "clustered_contiguous" : "record_ids");
   BSON_APPEND_DOUBLE (out, "rows_per_leaf_page", rpp);
   BSON_APPEND_UTF8 (out, "leaf_pages_source", source);
   if (leaf_pages > 0) {
      BSON_APPEND_INT64 (out, "leaf_pages", leaf_pages);
   }
   if (error_pct > 0) {
      BSON_APPEND_DOUBLE (out, "leaf_pages_error_pct", error_pct);
   }
   ok = true;
done:
   for (i = 0; i < m; i++) {
      bson_free (rids[i]);
   }
   bson_free (rids);
   bson_free (nrids);
   bson_free (pages);
   bson_free (idx);
   return ok;
}
