/*
 * wt_leafsample.c -- a collection's data leaf pages counted from a sample (lab_store_leaf_pages_estimate,
 * store.h), where the exact count walks the whole tree (50 s at 55 M rows). Runs of consecutive records are
 * stepped over by key only, and each counts the leaf pages it brings into the engine cache; rows per page
 * is the ratio of the two, with a 95% bound from the spread between the runs.
 *
 * Where the runs start: a plain collection's at RecordIds spread evenly between its first and last (they
 * are dense: positioned inserts); a clustered collection's (key_format=u, keyed by the KeyString
 * of _id) at keys drawn by WiredTiger's random cursor (next_random: a random descent of the tree to one
 * leaf page and one record in it, WiredTiger 3.2.1 src/btree/bt_random.c __wt_btcur_next_random), sorted,
 * each run stopping before the next start, so that none counts pages another run, the pilot or a draw
 * brought into the cache already (such a page would not be counted).
 */
#include "wt_private.h"

#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LEAF_PILOT_WINDOWS 8
#define LEAF_PILOT_ROWS 2048

/* lab_wt_dsrc_stat -- see wt_private.h. */
bool
lab_wt_dsrc_stat (WT_SESSION *s, const char *stat_uri, int key, int64_t *v, bson_error_t *error)
{
   WT_CURSOR *sc = NULL;
   const char *desc, *pvalue;
   int ret;

   if ((ret = s->open_cursor (s, stat_uri, NULL, NULL, &sc)) == 0) {
      sc->set_key (sc, key);
      if ((ret = sc->search (sc)) == 0) {
         ret = sc->get_value (sc, &desc, &pvalue, v);
      }
      sc->close (sc);
   }
   return ret == 0 || lab_wt_fail (error, ret, "read %s", stat_uri);
}

/* A clustered table's key, owned. */
typedef struct {
   uint8_t *data;
   size_t size;
} rkey_t;

/* key_cmp -- WiredTiger's order of raw keys (key_format=u): bytes, then the shorter first. */
static int
key_cmp (const void *a, size_t an, const void *b, size_t bn)
{
   int c = memcmp (a, b, an < bn ? an : bn);

   return c ? c : (an > bn) - (an < bn);
}

/* key_qsort -- qsort's order of rkey_t. */
static int
key_qsort (const void *a, const void *b)
{
   const rkey_t *x = a, *y = b;

   return key_cmp (x->data, x->size, y->data, y->size);
}

/* A run: where it starts (RecordId `rid`, or the key `start` of a clustered table), where it must stop
 * (clustered: before the key `stop`, the next run's start; NULL: nowhere), and what it found. */
typedef struct {
   int64_t rid;
   const rkey_t *start;
   const rkey_t *stop;
   int64_t rows;    /* records stepped over */
   int64_t crossed; /* the table's pages read into the cache after the positioning */
   bool stopped;    /* it reached `stop` before its rows */
} run_t;

/* leaf_run -- step over up to n records (n < 0: to the end) from the run's start on, by key only (next,
 * never get_value: no document read): the leaves the run moved on to after the positioning, which brings
 * the first leaf in. */
static bool
leaf_run (WT_SESSION *s, WT_CURSOR *cc, const char *stat_uri, int64_t n, run_t *r, bson_error_t *error)
{
   int64_t before, after, k = 0;
   WT_ITEM item = { 0 };
   int ret;

   r->rows = r->crossed = 0;
   r->stopped = false;
   if (r->start) {
      item.data = r->start->data;
      item.size = r->start->size;
      cc->set_key (cc, &item);
   } else {
      cc->set_key (cc, r->rid);
   }
   ret = lab_wt_search_ge (cc);
   if (ret == WT_NOTFOUND) {
      return true;
   }
   if (ret != 0) {
      return lab_wt_fail (error, ret, "position a leaf-page sample's run");
   }
   if (!lab_wt_dsrc_stat (s, stat_uri, WT_STAT_DSRC_CACHE_READ, &before, error)) {
      return false;
   }
   for (;;) {
      if (r->stop) {
         if ((ret = cc->get_key (cc, &item)) != 0) {
            break;
         }
         if (key_cmp (item.data, item.size, r->stop->data, r->stop->size) >= 0) {
            r->stopped = true;
            break;
         }
      }
      if (++k == n || (ret = cc->next (cc)) != 0) {
         break;
      }
   }
   if (ret != 0 && ret != WT_NOTFOUND) {
      return lab_wt_fail (error, ret, "read the records of a leaf-page sample's run");
   }
   if (!lab_wt_dsrc_stat (s, stat_uri, WT_STAT_DSRC_CACHE_READ, &after, error)) {
      return false;
   }
   cc->reset (cc);
   r->rows = k;
   r->crossed = after - before;
   return true;
}

/* random_starts -- k keys of the clustered table drawn by WiredTiger's random cursor, sorted, without
 * repeats (*nk of them; a small table gives some twice). */
static bool
random_starts (WT_SESSION *s, const wt_coll_t *c, int k, rkey_t **keys, int *nk, bson_error_t *error)
{
   WT_CURSOR *rc = NULL;
   WT_ITEM item;
   rkey_t *ks = bson_malloc0 ((size_t)k * sizeof *ks);
   int ret, i, n = 0;

   if ((ret = s->open_cursor (s, c->uri, NULL, "next_random=true", &rc)) != 0) {
      bson_free (ks);
      return lab_wt_fail (error, ret, "open a random cursor on '%s'", c->name);
   }
   for (i = 0; i < k && (ret = rc->next (rc)) == 0 && (ret = rc->get_key (rc, &item)) == 0; i++) {
      ks[n].data = bson_malloc (item.size ? item.size : 1);
      memcpy (ks[n].data, item.data, item.size);
      ks[n++].size = item.size;
   }
   rc->close (rc);
   if (ret != 0) {
      for (i = 0; i < n; i++) {
         bson_free (ks[i].data);
      }
      bson_free (ks);
      return lab_wt_fail (error, ret, "draw a random record of '%s'", c->name);
   }
   qsort (ks, (size_t)n, sizeof *ks, key_qsort);
   for (i = 1, k = n ? 1 : 0; i < n; i++) {
      if (key_qsort (&ks[i], &ks[k - 1]) != 0) {
         ks[k++] = ks[i];
      } else {
         bson_free (ks[i].data);
      }
   }
   *keys = ks;
   *nk = k;
   return true;
}

/* finish -- pages per row over the runs (a ratio estimator), the collection's pages from its documents,
 * and the 95% bound from the runs' spread around it. */
static void
finish (const run_t *runs, int n, int64_t count, lab_store_leaf_estimate_t *est)
{
   double r, sum2 = 0, mean_rows;
   int i;

   r = (double)est->pages_read / (double)est->rows_read;
   mean_rows = (double)est->rows_read / n;
   for (i = 0; i < n; i++) {
      double d = (double)runs[i].crossed - r * (double)runs[i].rows;
      sum2 += d * d;
   }
   est->pages = (int64_t)(r * (double)count + 0.5);
   est->error_pct = 100.0 * 1.96 * sqrt (sum2 / (n * (n - 1.0))) / mean_rows / r;
   /* each run counts whole pages: runs that all cross the same number say nothing of where the page
    * boundaries fall inside them (a spread of 0, a bound of ±0% over a 6% error, seen on large rows), so
    * the bound is at least that of rounding a run's count to a whole page (uniform: sd 1/sqrt(12) page) */
   est->error_pct = fmax (est->error_pct, 100.0 * 1.96 / sqrt (12.0) / ((double)est->pages_read / n));
}

/* run_width -- records a run steps over to cross about o->pages_per_window pages, from the pilot's rows
 * and pages (NOT_SUPPORTED when n runs of it would read a quarter of the collection). */
static bool
run_width (const char *coll, int64_t prow, int64_t pcross, int64_t count, int n,
           const lab_store_leaf_sample_opts_t *o, int64_t *w, bson_error_t *error)
{
   /* rows per page from the page boundaries the pilot crossed (none: at least all it read) */
   *w = (int64_t)((double)prow / (double)(pcross > 0 ? pcross : 1) * o->pages_per_window) + 1;
   if (*w * n > count / 4) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "'%s' is too small to sample its leaf pages (%d runs of %" PRId64 " of its %" PRId64
                     " documents): count them exactly",
                     coll, n, *w, count);
      return false;
   }
   return true;
}

/* pilot_rows -- the pilot runs' length: a 16th of the collection at most, 16 to LEAF_PILOT_ROWS. */
static int64_t
pilot_rows (int64_t count)
{
   int64_t pilot = count / (16 * LEAF_PILOT_WINDOWS);

   return pilot < 16 ? 16 : pilot > LEAF_PILOT_ROWS ? LEAF_PILOT_ROWS : pilot;
}

/* plain_runs -- a plain collection's sample: the pilot at RecordIds i/8 of the way, then n runs half a
 * step off them (the pilot's pages are in the cache). *runs holds what the n runs found. */
static bool
plain_runs (WT_SESSION *s, WT_CURSOR *cc, const wt_coll_t *c, const char *stat_uri, int64_t count, int n,
            const lab_store_leaf_sample_opts_t *o, run_t **runs, bson_error_t *error)
{
   int64_t first = 0, last = 0, span, prow = 0, pcross = 0, w, pilot = pilot_rows (count);
   run_t r;
   int i, ret;

   *runs = NULL;
   if ((ret = lab_wt_rid_ends (cc, &first, &last)) != 0) {
      return lab_wt_fail (error, ret, "find the first and last record of '%s'", c->name);
   }
   span = last - first + 1;
   for (i = 0; i < LEAF_PILOT_WINDOWS; i++) {
      memset (&r, 0, sizeof r);
      r.rid = first + (int64_t)((double)span * i / LEAF_PILOT_WINDOWS);
      if (!leaf_run (s, cc, stat_uri, pilot, &r, error)) {
         return false;
      }
      prow += r.rows;
      pcross += r.crossed;
   }
   if (!run_width (c->name, prow, pcross, count, n, o, &w, error)) {
      return false;
   }
   *runs = bson_malloc0 ((size_t)n * sizeof **runs);
   for (i = 0; i < n; i++) {
      (*runs)[i].rid = first + (int64_t)((double)span * (i + 0.5) / n);
      if (!leaf_run (s, cc, stat_uri, w, &(*runs)[i], error)) {
         return false;
      }
   }
   return true;
}

/* clustered_runs -- a clustered collection's sample: n + 8 random keys, sorted; the pilot from 8 of them
 * spread over the order, then a run from each of the others; every run stops before the next start, so
 * none steps onto pages another brought into the cache, and a run that had to stop short is left out
 * (that depends on where the draws fell, not on the pages). *nruns of them. */
static bool
clustered_runs (WT_SESSION *s, WT_CURSOR *cc, const wt_coll_t *c, const char *stat_uri, int64_t count, int n,
                const lab_store_leaf_sample_opts_t *o, run_t **runs, int *nruns, bson_error_t *error)
{
   rkey_t *keys = NULL;
   run_t r;
   int64_t prow = 0, pcross = 0, w = 0, pilot = pilot_rows (count);
   bool ok = false, *is_pilot = NULL;
   int nk = 0, i, m = 0;

   if (!random_starts (s, c, n + LEAF_PILOT_WINDOWS, &keys, &nk, error)) {
      return false;
   }
   is_pilot = bson_malloc0 ((size_t)(nk ? nk : 1));
   for (i = 0; i < LEAF_PILOT_WINDOWS && nk > 0; i++) {
      is_pilot[(int)(((double)i + 0.5) * nk / LEAF_PILOT_WINDOWS)] = true;
   }
   for (i = 0; i < nk; i++) {
      if (!is_pilot[i]) {
         continue;
      }
      r = (run_t){ .start = &keys[i], .stop = i + 1 < nk ? &keys[i + 1] : NULL };
      if (!leaf_run (s, cc, stat_uri, pilot, &r, error)) {
         goto done;
      }
      prow += r.rows;
      pcross += r.crossed;
   }
   if (!run_width (c->name, prow, pcross, count, n, o, &w, error)) {
      goto done;
   }
   *runs = bson_malloc0 ((size_t)(nk ? nk : 1) * sizeof **runs);
   for (i = 0; i < nk; i++) {
      r = (run_t){ .start = &keys[i], .stop = i + 1 < nk ? &keys[i + 1] : NULL };
      if (is_pilot[i]) {
         continue;
      }
      if (!leaf_run (s, cc, stat_uri, w, &r, error)) {
         goto done;
      }
      if (!r.stopped && r.rows > 0) {
         (*runs)[m++] = r;
      }
   }
   *nruns = m;
   ok = true;
done:
   for (i = 0; i < nk; i++) {
      bson_free (keys[i].data);
   }
   bson_free (keys);
   bson_free (is_pilot);
   return ok;
}

/* lab_wt_leaf_pages_estimate -- see store.h. */
bool
lab_wt_leaf_pages_estimate (lab_store_session_t *sess, const char *coll,
                            const lab_store_leaf_sample_opts_t *o, lab_store_leaf_estimate_t *est,
                            bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   WT_CURSOR *cc = NULL;
   char *stat_uri = NULL;
   int64_t count, data_size, inuse, read0 = 0, read1 = 0,
                                    docs0 = __atomic_load_n (&st->docs_read, __ATOMIC_RELAXED);
   run_t *runs = NULL;
   bool ok = false;
   wt_coll_t *c;
   int i, ret, n = o->windows;

   pthread_rwlock_rdlock (&st->ddl);
   if (!(c = lab_wt_coll_lookup (st, coll, error))) {
      goto done;
   }
   count = __atomic_load_n (&c->count, __ATOMIC_RELAXED);
   data_size = __atomic_load_n (&c->data_size, __ATOMIC_RELAXED);
   stat_uri = bson_strdup_printf ("statistics:%s", c->uri);
   if (!lab_wt_coll_cursor (ss->s, c, &cc, error) ||
       !lab_wt_dsrc_stat (ss->s, stat_uri, WT_STAT_DSRC_CACHE_READ, &read0, error)) {
      goto done;
   }
   if ((ret = cc->next (cc)) != 0 && ret != WT_NOTFOUND) {
      lab_wt_fail (error, ret, "read the first record of '%s'", coll);
      goto done;
   }
   cc->reset (cc);
   if (ret == WT_NOTFOUND) {
      est->pages = 0; /* an empty table has no leaf page with a record */
      ok = true;
      goto done;
   }
   if (!lab_wt_dsrc_stat (ss->s, stat_uri, WT_STAT_DSRC_CACHE_BYTES_INUSE, &inuse, error)) {
      goto done;
   }
   if (inuse > data_size / 100 + 1024 * 1024) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "'%s' holds %" PRId64 " bytes in the engine cache already: a sample of its leaf pages "
                     "would not read them; count them exactly",
                     coll, inuse);
      goto done;
   }
   if (c->clustered ? !clustered_runs (ss->s, cc, c, stat_uri, count, n, o, &runs, &n, error)
                    : !plain_runs (ss->s, cc, c, stat_uri, count, n, o, &runs, error)) {
      goto done;
   }
   for (i = 0; i < n; i++) {
      est->rows_read += runs[i].rows;
      est->pages_read += runs[i].crossed;
   }
   est->windows = n;
   if (n < 2 || est->pages_read == 0) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "%s over '%s' crossed a leaf page: count them exactly",
                     n < 2 ? "fewer than two runs" : "no run", coll);
      goto done;
   }
   finish (runs, n, count, est);
   if (!lab_wt_dsrc_stat (ss->s, stat_uri, WT_STAT_DSRC_CACHE_READ, &read1, error)) {
      goto done;
   }
   est->pages_read_all = read1 - read0;
   est->docs_fetched = __atomic_load_n (&st->docs_read, __ATOMIC_RELAXED) - docs0;
   ok = true;
done:
   if (cc) {
      cc->close (cc);
   }
   bson_free (runs);
   bson_free (stat_uri);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}
