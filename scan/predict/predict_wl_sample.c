/*
 * predict_wl_sample.c -- the range workload's windows drawn as scancmp draws them (both paths), and its
 * inputs and figures with --sample (predict_wl.h): the sampled masters' rows' times read by the key instead
 * of a pass over the whole collection, a drawn row of a master outside the sample fetched alone (read-only
 * on both stores), and the sampled traces' bytes scaled back with their sampling error.
 */
#include "scan/predict/predict_wl.h"

#include "core/error.h"
#include "core/log.h"
#include "scan/hash.h"
#include "scan/workloads/workload.h"
#include "store/serverfacts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* lab_scan_predict_wl_draw -- see predict_wl.h. */
bool
lab_scan_predict_wl_draw (const lab_scan_opts_t *o, const int64_t *load, int64_t nload,
                          const lab_scan_predict_wl_rows_t *src, lab_scan_predict_wl_t *w,
                          bson_error_t *error)
{
   uint64_t rng = o->wl.seed ^ LAB_SCAN_WL_DRAW_MIX;
   int64_t j;

   w->nwin = nload > 0 ? o->wl.range_windows : 0;
   w->range_ms = o->wl.range_window_ms;
   w->win_lo = bson_malloc0 ((size_t)(w->nwin > 0 ? w->nwin : 1) * sizeof *w->win_lo);
   for (j = 0; j < w->nwin; j++) {
      int64_t k = load[lab_scan_rand64 (&rng) % (uint64_t)nload], t = INT64_MIN;
      size_t r, n = 0, pick = 0;
      if (!src->rows (src->ctx, k, &n, error)) {
         return false;
      }
      for (r = 0; r < n; r++) {
         if (lab_scan_rand64 (&rng) % (uint64_t)(r + 1) == 0) {
            pick = r;
         }
      }
      if (n > 0 && !src->time (src->ctx, k, pick, &t, error)) {
         return false;
      }
      /* a row without a date (INT64_MIN) would fail scancmp's draw: here its window is empty */
      w->win_lo[j] = t != INT64_MIN ? t - o->wl.range_window_ms / 2 : INT64_MIN;
   }
   return true;
}

/* time_of -- the time field of a row as ms (INT64_MIN: missing or not a date, as the exact pass reads it). */
static int64_t
time_of (const bson_t *doc, const char *field)
{
   bson_iter_t it;

   if (bson_iter_init_find (&it, doc, field) && BSON_ITER_HOLDS_DATE_TIME (&it)) {
      return bson_iter_date_time (&it);
   }
   return INT64_MIN;
}

/* lab_scan_predict_wl_server_find -- see predict_wl.h. */
void
lab_scan_predict_wl_server_find (const lab_scan_opts_t *o, const bson_value_t *key, bson_t *filter,
                                 bson_t *opts)
{
   bson_t eq, proj, hint;

   bson_init (filter);
   bson_init (opts);
   /* $eq: a key that is itself a document is matched as a value, not read as operators */
   BSON_APPEND_DOCUMENT_BEGIN (filter, o->key, &eq);
   BSON_APPEND_VALUE (&eq, "$eq", key);
   bson_append_document_end (filter, &eq);
   BSON_APPEND_DOCUMENT_BEGIN (opts, "projection", &proj);
   BSON_APPEND_INT32 (&proj, "_id", 0);
   BSON_APPEND_INT32 (&proj, o->wl.time_field, 1);
   bson_append_document_end (opts, &proj);
   BSON_APPEND_BOOL (opts, "showRecordId", true);
   /* the key index, as the load reads a master: never a collection scan, whatever the planner thinks */
   BSON_APPEND_DOCUMENT_BEGIN (opts, "hint", &hint);
   BSON_APPEND_INT32 (&hint, o->key, 1);
   bson_append_document_end (opts, &hint);
}

/* One master's rows being read: their RecordIds (ascending) and the times they get. */
typedef struct {
   const lab_scan_opts_t *o;
   const int64_t *rids;
   size_t n, got;
   int64_t *times;
   const char *bad; /* why the reply is not usable (NULL: it is) */
} master_read_t;

/* on_row_embedded -- the n-th document of a key in the key index's order is its n-th RecordId. */
static bool
on_row_embedded (const bson_t *doc, void *ctx)
{
   master_read_t *m = ctx;

   if (m->got >= m->n) {
      m->bad = "more rows than its key index entries (the collection changed during the probe)";
      return false;
   }
   m->times[m->got++] = time_of (doc, m->o->wl.time_field);
   return true;
}

/* rid_cmp -- bsearch order of int64_t. */
static int
rid_cmp (const void *a, const void *b)
{
   int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
   return x < y ? -1 : x > y;
}

/* on_row_server -- a server's row placed by its $recordId among the master's RecordIds (the reply's order
 * is the index's, but its place is what the trace needs). */
static bool
on_row_server (const bson_t *doc, void *ctx)
{
   master_read_t *m = ctx;
   const int64_t *at;
   int64_t rid;

   if (!lab_store_facts_record_id (false, doc, &rid)) {
      m->bad = "a row without a usable $recordId (find with showRecordId)";
      return false;
   }
   if (!(at = bsearch (&rid, m->rids, m->n, sizeof *m->rids, rid_cmp))) {
      m->bad = "a row whose RecordId the key index did not give (the collection changed during the probe)";
      return false;
   }
   m->times[at - m->rids] = time_of (doc, m->o->wl.time_field);
   m->got++;
   return true;
}

/* read_master -- master `key`'s rows' times, aligned with its RecordIds rids[0..n) (ascending), into
 * times[0..n); *docs gets the documents read. Embedded: its documents by the key index (IXSCAN+FETCH, whole
 * documents: the store projects nothing); a server: lab_scan_predict_wl_server_find. */
static bool
read_master (lab_store_session_t *sess, bool server, const lab_scan_opts_t *o, const bson_value_t *key,
             const int64_t *rids, size_t n, int64_t *times, int64_t *docs, bson_error_t *error)
{
   master_read_t m = { o, rids, n, 0, times, NULL };
   char kb[128];
   bool ok;

   *docs = 0;
   if (server) {
      bson_t filter, opts;
      lab_scan_predict_wl_server_find (o, key, &filter, &opts);
      ok = lab_store_server_query (sess, o->detail, &filter, NULL, &opts, on_row_server, &m, docs, error);
      bson_destroy (&filter);
      bson_destroy (&opts);
   } else {
      ok = lab_store_find_eq (sess, o->detail, o->key, key, on_row_embedded, &m, docs, error);
   }
   if (ok && !m.bad && m.got != n) {
      m.bad = "fewer rows than its key index entries (the collection changed during the probe)";
   }
   if (ok && m.bad) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH, "%s", m.bad);
      ok = false;
   }
   if (!ok) {
      lab_error_prefix (error, "reading the %s of %s's rows where %s is %s", o->wl.time_field, o->detail,
                        o->key, lab_value_text (key, kb, sizeof kb));
   }
   return ok;
}

/* The sampled draw's source: a sampled master's rows from the reads by key; another's counted by its key
 * index entries (no document), its drawn row alone fetched. */
typedef struct {
   lab_store_session_t *sess;
   bool server;
   const lab_scan_opts_t *o;
   const probe_t *p;
   lab_scan_predict_wl_t *w;
   int64_t k;     /* the master whose RecordIds `rids` holds (-1: none) */
   int64_t *rids; /* its RecordIds */
   size_t n;
} drawn_t;

/* drawn_rows -- the draw's rows of master k: the probe's count for a sampled one, else its key index's. */
static bool
drawn_rows (void *ctx, int64_t k, size_t *n, bson_error_t *error)
{
   drawn_t *d = ctx;

   if (d->w->times[k]) {
      *n = d->p->nrids[k];
      return true;
   }
   if (d->k != k) {
      bson_free (d->rids);
      d->rids = NULL;
      d->n = 0;
      d->k = -1;
      if (!lab_store_record_ids (d->sess, d->o->detail, d->o->key, &d->p->keys[k], &d->rids, &d->n, error)) {
         lab_error_prefix (error, "the range windows' draw from %s", d->o->detail);
         return false;
      }
      d->k = k;
   }
   *n = d->n;
   return true;
}

/* drawn_time -- the time of master k's row `pick`: the sampled one's from its reads; another's fetched
 * alone (embedded: by its RecordId, a natural-order read of [rid, rid + 1); a server, which takes no
 * RecordId bounds: its rows' times by the key). */
static bool
drawn_time (void *ctx, int64_t k, size_t pick, int64_t *t, bson_error_t *error)
{
   drawn_t *d = ctx;
   lab_store_natural_opts_t no;
   lab_store_cursor_t *cur;
   const bson_t *doc;
   int rc;

   if (d->w->times[k]) {
      *t = d->w->times[k][pick];
      return true;
   }
   if (d->server) {
      int64_t *times = bson_malloc0 ((d->n > 0 ? d->n : 1) * sizeof *times), docs = 0;
      bool ok = read_master (d->sess, true, d->o, &d->p->keys[k], d->rids, d->n, times, &docs, error);
      *t = times[pick];
      d->w->docs_drawn += docs;
      bson_free (times);
      return ok;
   }
   memset (&no, 0, sizeof no);
   no.range.rid_lo = d->rids[pick];
   no.range.rid_hi = d->rids[pick] + 1;
   if (!(cur = lab_store_natural_open (d->sess, d->o->detail, &no, error))) {
      return false;
   }
   *t = INT64_MIN;
   if ((rc = lab_store_cursor_next (cur, &doc, error)) > 0) {
      *t = time_of (doc, d->o->wl.time_field);
      d->w->docs_drawn++;
   }
   lab_store_cursor_close (cur);
   if (rc == 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                     "no document at RecordId %lld (the collection changed during the probe)",
                     (long long)d->rids[pick]);
   }
   if (rc <= 0) {
      lab_error_prefix (error, "the range windows' draw from %s", d->o->detail);
   }
   return rc > 0;
}

/* lab_scan_predict_wl_read_sampled -- see predict_wl.h. */
bool
lab_scan_predict_wl_read_sampled (lab_store_session_t *sess, lab_store_t *store, const lab_scan_opts_t *o,
                                  const probe_t *p, const int64_t *load, int64_t nload,
                                  lab_scan_predict_wl_t *w, bson_error_t *error)
{
   bool server = lab_store_backend (store) != LAB_BACKEND_WT, ok;
   drawn_t d = { sess, server, o, p, w, -1, NULL, 0 };
   lab_scan_predict_wl_rows_t src = { drawn_rows, drawn_time, &d };
   int64_t k;

   w->rate = p->sample;
   w->u_sample = p->sample;
   w->u = p->u;
   w->times = bson_malloc0 ((size_t)p->nkeys * sizeof *w->times);
   for (k = 0; k < p->nkeys; k++) {
      int64_t docs = 0;
      if (!p->rids[k]) {
         continue; /* outside the sample */
      }
      w->times[k] = bson_malloc0 ((p->nrids[k] > 0 ? p->nrids[k] : 1) * sizeof **w->times);
      if (!read_master (sess, server, o, &p->keys[k], p->rids[k], p->nrids[k], w->times[k], &docs, error)) {
         bson_free (d.rids);
         return false;
      }
      w->docs_by_key += docs;
   }
   ok = lab_scan_predict_wl_draw (o, load, nload, &src, w, error);
   bson_free (d.rids);
   w->docs_read = w->docs_by_key + w->docs_drawn;
   w->range_how = server ? "the sampled masters' rows by a find on the key hinted to its index, projecting "
                           "the time alone with showRecordId; the windows' drawn rows of the other masters "
                           "by the same find of their master"
                         : "the sampled masters' rows by the key index (IXSCAN+FETCH); the windows' drawn "
                           "rows of the other masters counted by the key index, fetched alone by RecordId";
   return ok;
}

/* ---- the sampled traces' figures ---------------------------------------------------------------- */

/* lab_scan_predict_wl_seen_chance -- see predict_wl.h. */
double
lab_scan_predict_wl_seen_chance (double rate, double n)
{
   return 1 - pow (1 - rate, n);
}

/* lab_scan_predict_wl_sampled_reads -- see predict_wl.h. */
const char *
lab_scan_predict_wl_sampled_reads (lab_scan_stackdist_t *sd, lab_scan_evictsim_trace_t *ev,
                                   const lab_scan_predict_wl_census_t *cs, const lab_scan_predict_wl_t *w,
                                   int s, const layouts_t *l, uint64_t cache, double *bytes, double *misses)
{
   const double *est = cs->est;
   double part = cs->seen[0] * w->page_cache[s] + cs->seen[1] * w->index_cache;
   double whole = est[0] * w->page_cache[s] + est[1] * w->index_cache;
   uint64_t mini = (uint64_t)llround ((double)cache * (whole > 0 ? part / whole : 1));
   uint64_t target = (uint64_t)llround ((double)mini * l->evict_target / 100);
   const char *model = LAB_PREDICT_MODEL_LRU;
   double m[2];
   int cls;

   if (!ev || lab_scan_evictsim_trace_footprint (ev) <= target) {
      for (cls = 0; cls < 2; cls++) {
         m[cls] = lab_scan_stackdist_misses (sd, cls, lab_scan_predict_capacity_at (mini, l->fill));
      }
   } else {
      lab_scan_evictsim_config_t cfg = { 0 };
      lab_scan_evictsim_result_t r;
      cfg.cache_bytes = mini;
      cfg.target_pct = l->evict_target;
      cfg.trigger_pct = l->evict_trigger;
      lab_scan_evictsim_run (ev, &cfg, &r);
      m[0] = r.misses[LAB_PREDICT_DATA];
      m[1] = r.misses[LAB_PREDICT_INDEX];
      model = LAB_PREDICT_MODEL_SIM;
   }
   for (cls = 0; cls < 2; cls++) {
      /* the share of the sample's runs after a page's first that miss, applied to the whole's: a visit that
       * is one run is the whole's one run (seen when one of its masters is), otherwise each access its
       * own run, the sample's / rate */
      double cold = lab_scan_stackdist_pages (sd, cls);
      double share = cs->runs[cls] > cold ? fmax (m[cls] - cold, 0) / (cs->runs[cls] - cold) : 0;
      double runs = cs->one_run[cls] * cs->visits[cls] + (1 - cs->one_run[cls]) * cs->acc[cls] / cs->rate;
      m[cls] = est[cls] + fmin (share, 1) * fmax (runs - est[cls], 0);
   }
   *misses = m[0] + m[1];
   *bytes = m[0] * w->data_disk[s] + m[1] * w->index_disk;

   return model;
}

/* lab_scan_predict_wl_sampling_error -- see predict_wl.h. */
double
lab_scan_predict_wl_sampling_error (const lab_scan_predict_wl_t *w, int s, const layouts_t *l, uint64_t cache,
                                    double b, double lru)
{
   double a[LAB_PREDICT_WL_GROUPS], mean = 0, ss = 0, mi;
   int g;

   for (g = 0; g < w->ngroups; g++) {
      if (w->imputed[s]) {
         /* a trace of every master (donors): the group's LRU at the whole's cache */
         a[g] = lab_scan_predict_read_bytes (w->gsd[g][s], lab_scan_predict_capacity_at (cache, l->fill),
                                             w->data_disk[s], w->index_disk, &mi);
      } else {
         lab_scan_predict_wl_sampled_reads (w->gsd[g][s], NULL, &w->gcensus[g][s], w, s, l, cache, &a[g],
                                            &mi);
      }
      a[g] *= lru > 0 ? b / lru : 1;
      mean += a[g] / w->ngroups;
   }
   for (g = 0; g < w->ngroups; g++) {
      ss += (a[g] - mean) * (a[g] - mean);
   }
   return sqrt (ss * (w->ngroups - 1) / w->ngroups);
}
