/*
 * predict_wl.c -- the range and aggregate workloads predicted beside the load (the model in predict_wl.h):
 * the probe's pass over the rows' times, the windows drawn as scancmp draws them, the range traces and
 * each point's "workload_reads".
 */
#include "scan/predict/predict_wl.h"

#include "core/layout.h"

#include "core/error.h"
#include "core/log.h"
#include "core/results.h"
#include "scan/workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the probe: every row's time ------------------------------------------------------------------ */

typedef struct {
   uint64_t h;
   int64_t k;
} key_slot_t;

/* value_hash -- FNV-1a of a value's extended JSON text (int32 3 and int64 3 alike, as the plan compares). */
static uint64_t
value_hash (const bson_value_t *v)
{
   char buf[256];
   const char *s = lab_value_text (v, buf, sizeof buf);
   uint64_t h = 1469598103934665603ull;

   for (; *s; s++) {
      h = (h ^ (uint8_t)*s) * 1099511628211ull;
   }
   return h;
}

/* slot_cmp -- qsort/bsearch order of key_slot_t by hash. */
static int
slot_cmp (const void *a, const void *b)
{
   uint64_t x = ((const key_slot_t *)a)->h, y = ((const key_slot_t *)b)->h;
   return x < y ? -1 : x > y;
}

/* read_times -- one pass of the collection's natural order (RecordId order on the embedded store): the n-th
 * row of master k met is its n-th RecordId, its time into w->times[k][n]. */
static bool
read_times (lab_store_session_t *sess, const lab_scan_opts_t *o, const probe_t *p, lab_scan_predict_wl_t *w,
            bson_error_t *error)
{
   key_slot_t *slots = bson_malloc0 ((size_t)p->nkeys * sizeof *slots);
   size_t *seen = bson_malloc0 ((size_t)p->nkeys * sizeof *seen);
   lab_store_natural_opts_t no;
   lab_store_cursor_t *cur = NULL;
   const bson_t *doc;
   int64_t k;
   int rc = -1;

   memset (&no, 0, sizeof no);
   w->times = bson_malloc0 ((size_t)p->nkeys * sizeof *w->times);
   for (k = 0; k < p->nkeys; k++) {
      slots[k].h = value_hash (&p->keys[k]);
      slots[k].k = k;
      w->times[k] = bson_malloc0 ((p->nrids[k] > 0 ? p->nrids[k] : 1) * sizeof **w->times);
   }
   qsort (slots, (size_t)p->nkeys, sizeof *slots, slot_cmp);
   if (!(cur = lab_store_natural_open (sess, o->detail, &no, error))) {
      goto done;
   }
   while ((rc = lab_store_cursor_next (cur, &doc, error)) > 0) {
      bson_iter_t it;
      key_slot_t want, *hit;
      int64_t t = INT64_MIN;

      w->docs_read++;
      if (!bson_iter_init_find (&it, doc, o->key)) {
         continue;
      }
      want.h = value_hash (bson_iter_value (&it));
      hit = bsearch (&want, slots, (size_t)p->nkeys, sizeof *slots, slot_cmp);
      if (!hit || seen[hit->k] >= p->nrids[hit->k]) {
         continue;
      }
      if (bson_iter_init_find (&it, doc, o->wl.time_field) && BSON_ITER_HOLDS_DATE_TIME (&it)) {
         t = bson_iter_date_time (&it);
      }
      w->times[hit->k][seen[hit->k]++] = t;
   }
done:
   lab_store_cursor_close (cur);
   bson_free (slots);
   bson_free (seen);
   if (rc < 0) {
      lab_error_prefix (error, "reading the rows' %s of %s", o->wl.time_field, o->detail);
   }
   return rc == 0;
}

/* The exact draw's source: every master's rows as the probe counted them, their times from the pass. */
typedef struct {
   const probe_t *p;
   const lab_scan_predict_wl_t *w;
} exact_src_t;

/* all_rows -- the exact draw's rows of master k. */
static bool
all_rows (void *ctx, int64_t k, size_t *n, bson_error_t *error)
{
   (void)error;
   *n = ((const exact_src_t *)ctx)->p->nrids[k];
   return true;
}

/* all_time -- the exact draw's time of master k's row `pick`. */
static bool
all_time (void *ctx, int64_t k, size_t pick, int64_t *t, bson_error_t *error)
{
   (void)error;
   *t = ((const exact_src_t *)ctx)->w->times[k][pick];
   return true;
}

/* lab_scan_predict_wl_probe -- see predict_wl.h. */
bool
lab_scan_predict_wl_probe (lab_store_t *store, const lab_scan_opts_t *o, const probe_t *p,
                           const int64_t *load, int64_t nload, lab_scan_predict_wl_t *w, bson_error_t *error)
{
   lab_store_session_t *sess = NULL;
   lab_store_index_spec_t spec;
   char names[LAB_STORE_INDEX_MAX_FIELDS][256];
   bool exists = false, multikey = false, ok = false;
   int64_t size = -1;
   bson_error_t ierr;

   w->range = (o->wl.set & (1u << LAB_WL_RANGE)) != 0;
   w->aggregate = (o->wl.set & (1u << LAB_WL_AGGREGATE)) != 0;
   if (!w->range) {
      return true;
   }
   if (p->sample >= 1 && lab_store_backend (store) != LAB_BACKEND_WT) {
      w->range_why =
         "on a MongoDB server range needs --sample F: the exact prediction reads every row's time "
         "by a collection scan in RecordId order, which a server does not promise and which "
         "pulls the whole collection through its cache; --sample reads the sampled masters' "
         "rows by the key index";
      return true;
   }
   if (!(sess = lab_store_session_open (store, error))) {
      return false;
   }
   lab_scan_wl_index (o, LAB_WL_RANGE, false, &spec, names);
   /* the time index's own size when a DBA made it already (else the key index's figures stand in) */
   if (lab_store_index_info (sess, o->detail, &spec, &exists, &multikey, &size, &ierr) && exists &&
       size > 0) {
      w->time_index_bytes = (double)size;
   }
   w->rate = 1;
   if (p->sample < 1) {
      /* the sampled masters' rows by the key, the drawn rows by their RecordId (predict_wl_sample.c) */
      if (!lab_scan_predict_wl_read_sampled (sess, store, o, p, load, nload, w, error)) {
         goto done;
      }
   } else {
      exact_src_t es = { p, w };
      lab_scan_predict_wl_rows_t src = { all_rows, all_time, &es };
      if (!read_times (sess, o, p, w, error) || !lab_scan_predict_wl_draw (o, load, nload, &src, w, error)) {
         goto done;
      }
      w->range_how = "every row's time: one pass of the collection's natural order (RecordId order)";
   }
   lab_log_info ("range prediction: %lld rows' %s read, %lld windows drawn", (long long)w->docs_read,
                 o->wl.time_field, (long long)w->nwin);
   ok = true;
done:
   lab_store_session_close (sess);
   return ok;
}

/* ---- the range traces ------------------------------------------------------------------------------ */

/* One time index entry: its time, its record (the index's order among equal times) and the document it
 * points to. */
typedef struct {
   int64_t t, rec, doc;
} entry_t;

/* entry_cmp -- the index's order: time, then record. */
static int
entry_cmp (const void *a, const void *b)
{
   const entry_t *x = a, *y = b;
   if (x->t != y->t) {
      return x->t < y->t ? -1 : 1;
   }
   return x->rec < y->rec ? -1 : x->rec > y->rec;
}

/* lower -- the first entry of e[0..n) at or after time t. */
static int64_t
lower (const entry_t *e, int64_t n, int64_t t)
{
   int64_t lo = 0, hi = n;
   while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (e[mid].t < t) {
         lo = mid + 1;
      } else {
         hi = mid;
      }
   }
   return lo;
}

/* One layout's range trace: its time index's entries and its documents' pages. */
typedef struct {
   entry_t *e;
   int64_t n;
   int64_t *page_of; /* [ndocs]: each document's data page */
   int64_t ndocs;
   bool many;  /* a document holds many rows: fetched once per window (the IXSCAN's RecordIds deduplicated) */
   double epp; /* index entries per leaf page (of the sample's entries: the whole's x the sample's share) */
   uint64_t dbytes, ibytes;
   lab_scan_evictsim_trace_t *ev; /* gets each worker's accesses, for the eviction miniature (may be NULL) */
   double rows_per_page;          /* a layout of rows: its rows a page (0: a layout of documents) */
   int64_t *master_of;            /* [ndocs]: each document's master (owned by a layout of documents) */
   double masters_per_page;       /* the masters a page holds: the sample's census caps its estimates */
} range_layout_t;

/* trace_range -- the windows dealt in contiguous segments to the workers, each window's entries in index
 * order, the workers interleaved entry by entry: each entry its index leaf page when it changes, then its
 * document's page (once per window when a document holds many rows). */
static lab_scan_stackdist_t *
trace_range (const range_layout_t *rl, const lab_scan_predict_wl_t *w, int parallel, double *docs)
{
   lab_scan_stackdist_t *sd = lab_scan_stackdist_new (1.0);
   int np = parallel > 0 ? parallel : 1, i, active;
   int64_t *starts = bson_malloc0 ((size_t)(np + 1) * sizeof *starts);
   int64_t *win = bson_malloc0 ((size_t)np * sizeof *win), *pos = bson_malloc0 ((size_t)np * sizeof *pos);
   int64_t *end = bson_malloc0 ((size_t)np * sizeof *end), *last = bson_malloc0 ((size_t)np * sizeof *last);
   /* per worker, the window (+1) that fetched each document last */
   int64_t *stamp =
      rl->many ? bson_malloc0 ((size_t)np * (size_t)(rl->ndocs > 0 ? rl->ndocs : 1) * sizeof *stamp) : NULL;

   lab_scan_keys_segment (w->nwin, np, starts);
   for (i = 0; i < np; i++) {
      win[i] = starts[i] - 1; /* before its first window */
   }
   *docs = 0;
   do {
      active = 0;
      for (i = 0; i < np; i++) {
         int64_t ip, dp = -1;
         const entry_t *x;
         while (pos[i] >= end[i] && win[i] + 1 < starts[i + 1]) {
            win[i]++;
            pos[i] = lower (rl->e, rl->n, w->win_lo[win[i]]);
            end[i] = lower (rl->e, rl->n, w->win_lo[win[i]] + w->range_ms);
            last[i] = -1; /* a new query: a search from the root */
         }
         if (pos[i] >= end[i]) {
            continue;
         }
         active++;
         x = &rl->e[pos[i]++];
         ip = (int64_t)floor ((double)(x - rl->e) / rl->epp);
         if (!stamp || stamp[(int64_t)i * rl->ndocs + x->doc] != win[i] + 1) {
            if (stamp) {
               stamp[(int64_t)i * rl->ndocs + x->doc] = win[i] + 1;
            }
            dp = rl->page_of[x->doc];
         }
         if (ip != last[i]) {
            lab_scan_stackdist_access (sd, 2 * (uint64_t)ip + 1, rl->ibytes, LAB_PREDICT_INDEX, true);
            if (rl->ev) {
               lab_scan_evictsim_trace_add (rl->ev, i, 2 * (uint64_t)ip + 1, rl->ibytes, LAB_PREDICT_INDEX,
                                            LAB_EVICTSIM_INDEX | (dp < 0 ? LAB_EVICTSIM_ROW_END : 0));
            }
            last[i] = ip;
         }
         if (dp >= 0) {
            lab_scan_stackdist_access (sd, 2 * (uint64_t)dp, rl->dbytes, LAB_PREDICT_DATA, true);
            if (rl->ev) {
               lab_scan_evictsim_trace_add (rl->ev, i, 2 * (uint64_t)dp, rl->dbytes, LAB_PREDICT_DATA,
                                            LAB_EVICTSIM_ROW_END);
            }
            (*docs)++;
         }
      }
   } while (active > 0);
   bson_free (starts);
   bson_free (win);
   bson_free (pos);
   bson_free (end);
   bson_free (last);
   bson_free (stamp);
   return sd;
}

/* The rows of the collection (with --sample: of the sampled masters), flat in (master, row) order; `pos`
 * each row's place in the whole collection's (master, row) order (the masters outside the sample count
 * the mean rows, as the load's model). */
typedef struct {
   int64_t n;
   int64_t *t, *rid, *m, *j, *pos;
} rows_t;

/* layout_docs -- rl's documents for a layout of documents of at most `br` rows of a master (0: one per
 * master), packed in key order as WiredTiger packs an in-order insert whose blocks compress to `ratio`
 * (lab_scan_predict_pack_docs), and the time index's entries (time, document). */
static void
layout_docs (const lab_scan_predict_input_t *in, const rows_t *r, int32_t br, double ratio,
             range_layout_t *rl)
{
   int64_t *first = bson_malloc0 ((size_t)(in->nmasters + 1) * sizeof *first), m, i;
   double *bytes;

   for (m = 0; m < in->nmasters; m++) {
      first[m + 1] = first[m] + (br > 0 ? ((int64_t)in->nrids[m] + br - 1) / br : 1);
   }
   rl->ndocs = first[in->nmasters];
   rl->page_of = bson_malloc0 ((size_t)(rl->ndocs > 0 ? rl->ndocs : 1) * sizeof *rl->page_of);
   rl->master_of = bson_malloc0 ((size_t)(rl->ndocs > 0 ? rl->ndocs : 1) * sizeof *rl->master_of);
   bytes = bson_malloc0 ((size_t)(rl->ndocs > 0 ? rl->ndocs : 1) * sizeof *bytes);
   for (m = 0; m < in->nmasters; m++) {
      int64_t d;
      for (d = first[m]; d < first[m + 1]; d++) {
         int64_t rows = br > 0 ? (int64_t)in->nrids[m] - (d - first[m]) * br : (int64_t)in->nrids[m];
         bytes[d] =
            in->folded_master_bytes + (double)(br > 0 && rows > br ? br : rows) * in->folded_row_bytes;
         rl->master_of[d] = m;
      }
   }
   lab_scan_predict_pack_docs (bytes, rl->ndocs, 0, ratio, rl->page_of);
   bson_free (bytes);
   for (i = 0; i < r->n; i++) {
      int64_t d = first[r->m[i]] + (br > 0 ? r->j[i] / br : 0);
      rl->e[i] = (entry_t){ r->t[i], d, d };
   }
   rl->many = true;
   bson_free (first);
}

/* layout_rows -- rl's documents for a layout of one document per row: their RecordIds as the probe read them
 * (`natural`: the detail collection) or renumbered in key order, `rpp` rows a page. */
static void
layout_rows (const rows_t *r, bool natural, int64_t min_rid, double rpp, range_layout_t *rl)
{
   int64_t i;

   rl->ndocs = r->n;
   rl->page_of = bson_malloc0 ((size_t)(r->n > 0 ? r->n : 1) * sizeof *rl->page_of);
   for (i = 0; i < r->n; i++) {
      double off = natural ? (double)(r->rid[i] - min_rid) : (double)r->pos[i];
      rl->page_of[i] = (int64_t)floor ((off > 0 ? off : 0) / (rpp > 0 ? rpp : 1));
      rl->e[i] = (entry_t){ r->t[i], natural ? r->rid[i] : r->pos[i], i };
   }
   rl->many = false;
   rl->rows_per_page = rpp > 0 ? rpp : 1;
   rl->master_of = r->m; /* a document per row */
}

/* add_layout -- slot w->nl: its name, kind, bytes on disk and per data page read. */
static int
add_layout (lab_scan_predict_wl_t *w, const char *name, const char *kind, double storage, double data_disk,
            double cache_bytes)
{
   int s = w->nl++;

   bson_strncpy (w->name[s], name, sizeof w->name[s]);
   bson_strncpy (w->kind[s], kind, sizeof w->kind[s]);
   w->storage[s] = storage;
   w->data_disk[s] = data_disk;
   w->page_cache[s] = cache_bytes;
   return s;
}

/* index_figures -- the time index's entries per page and bytes per page read: its own file on the detail
 * collection when it exists, else the key index's figures (a date key is 8 bytes, as an int64 key); a
 * multikey index of a layout of documents has an entry per row as well. */
static void
index_figures (const probe_t *p, const lab_scan_predict_input_t *in, int64_t n, lab_scan_predict_wl_t *w)
{
   double bytes = w->time_index_bytes > 0 ? w->time_index_bytes : lab_scan_predict_key_index_bytes (p);
   double pages = ceil (bytes / LAB_PREDICT_INDEX_PAGE_BYTES);

   w->index_epp = w->time_index_bytes > 0 ? (double)n / (pages > 0 ? pages : 1) : in->index_entries_per_page;
   w->index_disk = bytes / (pages > 0 ? pages : 1);
}

/* One touch of the sample's census: a page (the trace's id: data page p is 2p, index page q 2q + 1), the run
 * of the page it is in (numbered per class in the windows' order), its window and the master it was
 * touched for. */
typedef struct {
   int64_t page, run, win, unit;
} touch_t;

/* touch_cmp -- qsort order of touch_t: page, run (runs ascend with the windows), unit. */
static int
touch_cmp (const void *a, const void *b)
{
   const touch_t *x = a, *y = b;
   if (x->page != y->page) {
      return x->page < y->page ? -1 : 1;
   }
   if (x->run != y->run) {
      return x->run < y->run ? -1 : 1;
   }
   return x->unit < y->unit ? -1 : x->unit > y->unit;
}

/* int64_cmp -- qsort order of int64_t. */
static int
int64_cmp (const void *a, const void *b)
{
   int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
   return x < y ? -1 : x > y;
}

/* distinct_units -- the distinct units (masters) of touches t[a..b). */
static int64_t
distinct_units (const touch_t *t, int64_t a, int64_t b)
{
   int64_t *ms = bson_malloc ((size_t)(b > a ? b - a : 1) * sizeof *ms), q, n = 0;

   for (q = a; q < b; q++) {
      ms[q - a] = t[q].unit;
   }
   qsort (ms, (size_t)(b - a), sizeof *ms, int64_cmp);
   for (q = 0; q < b - a; q++) {
      n += q == 0 || ms[q] != ms[q - 1];
   }
   bson_free (ms);
   return n;
}

/* ht -- a Horvitz-Thompson count: 1 / the chance that a sample at `rate` sees what the whole touches for n
 * masters, n estimated as the sample's `distinct` / rate, at most `cap`. */
static double
ht (double rate, int64_t distinct, double cap)
{
   return 1 / lab_scan_predict_wl_seen_chance (rate, fmax (fmin ((double)distinct / rate, cap), 1));
}

/* pages_seen -- the census (lab_scan_predict_wl_census_t) of a sample's trace at `rate` (masters sampled,
 * all of a master's rows with it), per class ([0] data, [1] index): the distinct pages its windows touch and
 * the whole windows' estimated (Horvitz-Thompson: a page seen counts 1 / the chance that a sample holds one
 * of the masters the whole touches it for, their number the sample's / rate, at most the page's masters);
 * its accesses, runs and visits (a visit: a window's accesses to a page, the whole's estimated so too),
 * and the share of its visits of two accesses or more that are one run. A detail page holds rows of many
 * masters in time order: it and its visits are seen whenever the whole touches them, and a window reads
 * it in one run; a folded page of a few masters' documents is seen at about k rate (k of its masters
 * touched), and a window reads its documents apart, each one a run. */
static void
pages_seen (const range_layout_t *rl, const lab_scan_predict_wl_t *w, double rate,
            lab_scan_predict_wl_census_t *cs)
{
   int64_t n = 0, cap = 64, j, i, nrun[2] = { 0, 0 },
           *stamp = bson_malloc0 ((size_t)(rl->ndocs + 1) * sizeof *stamp);
   double multi[2] = { 0, 0 }, multi_one_run[2] = { 0, 0 };
   touch_t *t = bson_malloc ((size_t)cap * sizeof *t);
   int c;

   memset (cs, 0, sizeof *cs);
   cs->rate = rate;
   for (j = 0; j < w->nwin; j++) {
      int64_t x = lower (rl->e, rl->n, w->win_lo[j]), end = lower (rl->e, rl->n, w->win_lo[j] + w->range_ms);
      int64_t last[2] = { -1, -1 };
      for (; x < end; x++) {
         int64_t doc = rl->e[x].doc, pg[2];
         if (rl->many && stamp[doc] == j + 1) {
            pg[0] = -1; /* its document fetched already in this window: no access */
         } else {
            stamp[doc] = j + 1;
            pg[0] = 2 * rl->page_of[doc];
         }
         pg[1] = 2 * (int64_t)floor ((double)x / rl->epp) + 1;
         for (c = 0; c < 2; c++) {
            if (pg[c] < 0) {
               continue;
            }
            if (n + 1 > cap) {
               cap *= 2;
               t = bson_realloc (t, (size_t)cap * sizeof *t);
            }
            nrun[c] += pg[c] != last[c]; /* a new run of the page */
            last[c] = pg[c];
            t[n++] = (touch_t){ pg[c], nrun[c], j, rl->master_of[doc] };
         }
      }
   }
   qsort (t, (size_t)n, sizeof *t, touch_cmp);
   for (i = 0; i < n;) {
      int64_t page = t[i].page, a = i, v = i, vruns = 0;
      int cls = (int)(page & 1);
      double u = cls ? w->index_epp : rl->masters_per_page;
      for (; i < n && t[i].page == page; i++) {
         vruns += i == v || t[i - 1].run != t[i].run;
         if (i + 1 == n || t[i + 1].page != page || t[i + 1].win != t[v].win) {
            /* the end of the page's visit of window t[v].win: its accesses, runs and masters */
            cs->acc[cls] += (double)(i + 1 - v);
            cs->runs[cls] += (double)vruns;
            cs->visits[cls] += ht (rate, distinct_units (t, v, i + 1), u);
            multi[cls] += i > v;
            multi_one_run[cls] += i > v && vruns == 1;
            v = i + 1;
            vruns = 0;
         }
      }
      cs->seen[cls] += 1;
      cs->est[cls] += ht (rate, distinct_units (t, a, i), u);
   }
   for (c = 0; c < 2; c++) {
      cs->one_run[c] = multi[c] > 0 ? multi_one_run[c] / multi[c] : 0;
   }
   bson_free (t);
   bson_free (stamp);
}

/* masters_per_page -- the masters a page of layout rl holds: the detail's rows are of as many masters
 * (appended interleaved; `natural`), rows in key order a page's rows / a master's mean rows, documents the
 * most masters of a page of the packing. */
static double
masters_per_page (const probe_t *p, const range_layout_t *rl, bool natural)
{
   double mean = p->nkeys > 0 ? p->entries_est / (double)p->nkeys : 1, most = 1, cur = 0;
   int64_t d;

   if (!rl->many) {
      return natural ? rl->rows_per_page : fmax (rl->rows_per_page / (mean > 1 ? mean : 1) + 1, 1);
   }
   for (d = 0; d < rl->ndocs; d++) {
      bool same_page = d > 0 && rl->page_of[d] == rl->page_of[d - 1];
      cur = same_page ? cur + (rl->master_of[d] != rl->master_of[d - 1]) : 1;
      most = fmax (most, cur);
   }
   return most;
}

/* in_band -- with --sample, whether master k is among the traced ones: its hash place in [lo, hi), a band
 * reaching past the sample's share wrapping to its start (predict.c's bands, the jackknife's groups);
 * exact: every master. */
static bool
in_band (const lab_scan_predict_wl_t *w, int64_t k, double lo, double hi)
{
   double u;

   if (!w->times[k]) {
      return false;
   }
   if (w->rate >= 1) {
      return true;
   }
   u = w->u[k];
   if (hi > w->u_sample) {
      return (u >= lo && u < w->u_sample) || u < hi - w->u_sample;
   }
   return u >= lo && u < hi;
}

/* row_source -- whose rows master k's are in rows_collect: its own (in [lo, hi)), its donor's, or none (-1;
 * also a master of no model rows: no document of its to place a donor's rows in). */
static int64_t
row_source (const probe_t *p, const size_t *nrids, const lab_scan_predict_wl_t *w, double lo, double hi,
            const int64_t *donor, int64_t k)
{
   if (!donor) {
      return in_band (w, k, lo, hi) ? k : -1;
   }
   return donor[k] == k || (donor[k] >= 0 && nrids[k] > 0 && p->nrids[donor[k]] > 0) ? donor[k] : -1;
}

/* rows_collect -- the rows of the masters in [lo, hi) (in_band), flat; `nrids` the model's rows per master
 * (the sample's outside it: the mean) place them in the whole collection's order. With `donor` (with
 * --sample, lab_scan_predict_wl_donors) every master's: those outside the band their donor's rows, placed
 * in their own document spread over its model rows. */
static void
rows_collect (const probe_t *p, const size_t *nrids, const lab_scan_predict_wl_t *w, double lo, double hi,
              const int64_t *donor, rows_t *r)
{
   int64_t k, first = 0, n = 0, src;
   size_t j;

   memset (r, 0, sizeof *r);
   for (k = 0; k < p->nkeys; k++) {
      src = row_source (p, nrids, w, lo, hi, donor, k);
      n += src >= 0 ? (int64_t)p->nrids[src] : 0;
   }
   r->t = bson_malloc0 ((size_t)(n > 0 ? n : 1) * sizeof *r->t);
   r->rid = bson_malloc0 ((size_t)(n > 0 ? n : 1) * sizeof *r->rid);
   r->m = bson_malloc0 ((size_t)(n > 0 ? n : 1) * sizeof *r->m);
   r->j = bson_malloc0 ((size_t)(n > 0 ? n : 1) * sizeof *r->j);
   r->pos = bson_malloc0 ((size_t)(n > 0 ? n : 1) * sizeof *r->pos);
   for (k = 0; k < p->nkeys; k++) {
      src = row_source (p, nrids, w, lo, hi, donor, k);
      for (j = 0; src >= 0 && j < p->nrids[src]; j++, r->n++) {
         int64_t at = src == k ? (int64_t)j : (int64_t)(j * nrids[k] / p->nrids[src]);
         r->t[r->n] = w->times[src][j];
         r->rid[r->n] = p->rids[src][j];
         r->m[r->n] = k;
         r->j[r->n] = at;
         r->pos[r->n] = first + at;
      }
      first += (int64_t)nrids[k];
   }
}

/* donors_of -- with a sample, each master's donor among the masters in [lo, hi) (in_band). */
static int64_t *
donors_of (const probe_t *p, const lab_scan_predict_wl_t *w, double lo, double hi)
{
   bool *in = bson_malloc0 ((size_t)(p->nkeys > 0 ? p->nkeys : 1) * sizeof *in);
   int64_t *donor = bson_malloc0 ((size_t)(p->nkeys > 0 ? p->nkeys : 1) * sizeof *donor), k;

   for (k = 0; k < p->nkeys; k++) {
      in[k] = in_band (w, k, lo, hi);
   }
   lab_scan_predict_wl_donors (in, p->nkeys, donor);
   bson_free (in);
   return donor;
}

/* rows_free -- free rows_collect's. */
static void
rows_free (rows_t *r)
{
   bson_free (r->t);
   bson_free (r->rid);
   bson_free (r->m);
   bson_free (r->j);
   bson_free (r->pos);
}

/* make_layout -- slot s's range layout of rows `r` at `rate` (1: every master's rows): its documents, pages
 * and time index entries sorted. */
static void
make_layout (const probe_t *p, const lab_scan_predict_input_t *in, const lab_scan_predict_cands_t *c,
             const rows_t *r, double rate, lab_scan_predict_wl_t *w, int s, range_layout_t *rl)
{
   memset (rl, 0, sizeof *rl);
   rl->e = bson_malloc0 ((size_t)(r->n > 0 ? r->n : 1) * sizeof *rl->e);
   rl->n = r->n;
   if (s == 0) {
      layout_rows (r, true, in->min_rid, in->rows_per_page, rl);
   } else if (s == 1) {
      layout_docs (in, r, 0, in->folded_compress_ratio, rl);
   } else {
      const lab_scan_predict_cand_t *cd = &c->c[s - 2];
      if (lab_layout_reads_rows (&cd->desc)) {
         layout_rows (r, false, 0, cd->rows_per_page, rl);
      } else {
         layout_docs (in, r, lab_layout_bucketed (&cd->desc) ? cd->desc.bucket_rows : 0, cd->compress_ratio,
                      rl);
      }
   }
   rl->masters_per_page = masters_per_page (p, rl, s == 0);
   qsort (rl->e, (size_t)rl->n, sizeof *rl->e, entry_cmp);
   /* a sample's entries are its share of the index's: spread over its pages as the whole's are */
   rl->epp = (w->index_epp >= 1 ? w->index_epp : 1) * rate;
   rl->dbytes = (uint64_t)llround (w->page_cache[s] > 1 ? w->page_cache[s] : 1);
   rl->ibytes = (uint64_t)llround (in->index_page_cache_bytes > 1 ? in->index_page_cache_bytes : 1);
   w->index_cache = (double)rl->ibytes;
}

/* free_layout -- free make_layout's. */
static void
free_layout (range_layout_t *rl)
{
   bson_free (rl->e);
   bson_free (rl->page_of);
   if (rl->many) {
      bson_free (rl->master_of);
   }
}

/* build_range -- the range traces of every slot (rows flattened, each slot's entries sorted) of the masters
 * in [lo, hi) at `rate` (1: every row): the whole's into w->sd, w->ev (group < 0), a jackknife group's into
 * w->gsd[group]; with a sample also each slot's pages seen and estimated (lab_scan_predict_wl_pages), and
 * a layout of documents traced over every master, those outside the band on their donor's rows. */
static void
build_range (const lab_scan_opts_t *o, const probe_t *p, const traces_t *tr,
             const lab_scan_predict_cands_t *c, lab_scan_predict_wl_t *w, double lo, double hi, double rate,
             int group)
{
   const lab_scan_predict_input_t *in = &tr->in;
   int64_t *donor = rate < 1 ? donors_of (p, w, lo, hi) : NULL;
   rows_t r, all;
   int s;

   rows_collect (p, in->nrids, w, lo, hi, NULL, &r);
   memset (&all, 0, sizeof all);
   if (donor) {
      rows_collect (p, in->nrids, w, lo, hi, donor, &all);
   }
   if (group < 0) {
      index_figures (p, in, rate < 1 ? (int64_t)llround (p->entries_est) : r.n, w);
   }
   for (s = 0; s < w->nl; s++) {
      range_layout_t rl, ra, *t = &rl;
      double docs = 0, trate = rate;
      make_layout (p, in, c, &r, rate, w, s, &rl);
      w->imputed[s] = donor && rl.many; /* documents: a page of a few masters' */
      if (w->imputed[s]) {
         make_layout (p, in, c, &all, 1, w, s, &ra);
         t = &ra;
         trate = 1;
      }
      if (group < 0) {
         t->ev = w->ev[s] = lab_scan_evictsim_trace_new (o->parallel > 0 ? o->parallel : 1);
         w->sd[s] = trace_range (t, w, o->parallel, &docs);
         w->range_docs[s] = docs / trate;
         if (rate < 1) {
            pages_seen (&rl, w, rate, &w->census[s]);
         }
      } else {
         w->gsd[group][s] = trace_range (t, w, o->parallel, &docs);
         pages_seen (&rl, w, rate, &w->gcensus[group][s]);
      }
      free_layout (&rl);
      if (t != &rl) {
         free_layout (&ra);
      }
   }
   if (group < 0) {
      w->range_rows = w->range_docs[0]; /* detail: a document per row */
   }
   rows_free (&r);
   rows_free (&all);
   bson_free (donor);
}

/* build_range_all -- the whole's range traces, and with a sample the jackknife's: the sample less one of
 * its four groups (hash bands, as the load's) in turn. */
static void
build_range_all (const lab_scan_opts_t *o, const probe_t *p, const traces_t *tr,
                 const lab_scan_predict_cands_t *c, lab_scan_predict_wl_t *w)
{
   int g;

   build_range (o, p, tr, c, w, 0, w->rate < 1 ? w->u_sample : 1, w->rate, -1);
   if (w->rate >= 1) {
      return;
   }
   w->ngroups = LAB_PREDICT_WL_GROUPS;
   for (g = 0; g < w->ngroups; g++) {
      double lo = w->u_sample * (g + 1) / w->ngroups;
      w->grate[g] = w->rate * (w->ngroups - 1) / w->ngroups;
      build_range (o, p, tr, c, w, lo, lo + w->u_sample * (w->ngroups - 1) / w->ngroups, w->grate[g], g);
   }
}

/* lab_scan_predict_wl_build -- see predict_wl.h. */
void
lab_scan_predict_wl_build (const lab_scan_opts_t *o, const probe_t *p, const traces_t *tr, const layouts_t *l,
                           const lab_scan_predict_cands_t *c, lab_scan_predict_wl_t *w)
{
   const lab_scan_predict_input_t *in = &tr->in;
   size_t i;

   if (!w->range && !w->aggregate) {
      return;
   }
   add_layout (w, "detail", "rows", l->storage[0], l->data_disk[0], in->page_cache_bytes);
   add_layout (w, "folded", "folded", l->storage[1], l->data_disk[1], in->folded_page_cache_bytes);
   for (i = 0; c && i < c->n && w->nl < LAB_PREDICT_WL_LAYOUTS; i++) {
      const lab_scan_predict_cand_t *cd = &c->c[i];
      add_layout (w, cd->desc.name, lab_layout_kind_name (cd->desc.kind), cd->l.storage[0],
                  cd->l.data_disk[0], cd->page_cache_bytes);
   }
   if (w->range && !w->range_why && w->times) {
      build_range_all (o, p, tr, c, w);
   }
}

/* range_reads -- the range workload's bytes read (*bytes) and page reads (*misses) of slot s at `cache`:
 * LRU's where the trace's pages fit under eviction_target (nothing is evicted), else the eviction
 * miniature's (evictsim.h; waking at the trigger, as the load's scattered layouts). Returns the engine's
 * name (LAB_PREDICT_MODEL_*). */
static const char *
range_reads (const lab_scan_predict_wl_t *w, int s, const layouts_t *l, uint64_t cache, double *bytes,
             double *misses)
{
   uint64_t target = (uint64_t)llround ((double)cache * l->evict_target / 100);
   lab_scan_evictsim_config_t cfg = { 0 };
   lab_scan_evictsim_result_t r;

   if (!w->ev[s] || lab_scan_evictsim_trace_footprint (w->ev[s]) <= target) {
      *bytes = lab_scan_predict_read_bytes (w->sd[s], lab_scan_predict_capacity_at (cache, l->fill),
                                            w->data_disk[s], w->index_disk, misses);
      return LAB_PREDICT_MODEL_LRU;
   }
   cfg.cache_bytes = cache;
   cfg.target_pct = l->evict_target;
   cfg.trigger_pct = l->evict_trigger;
   lab_scan_evictsim_run (w->ev[s], &cfg, &r);
   *misses = r.misses[LAB_PREDICT_DATA] + r.misses[LAB_PREDICT_INDEX];
   *bytes = r.misses[LAB_PREDICT_DATA] * w->data_disk[s] + r.misses[LAB_PREDICT_INDEX] * w->index_disk;
   return LAB_PREDICT_MODEL_SIM;
}

/* append_layout -- slot s's entry of a workload: its predicted engine bytes read and page reads. */
static void
append_layout (bson_t *arr, const lab_scan_predict_wl_t *w, int s, double bytes, double pages,
               const char *model, double error)
{
   char idx[16];
   const char *ik;
   bson_t d;

   bson_uint32_to_string ((uint32_t)s, &ik, idx, sizeof idx);
   BSON_APPEND_DOCUMENT_BEGIN (arr, ik, &d);
   BSON_APPEND_UTF8 (&d, "layout", w->name[s]);
   BSON_APPEND_UTF8 (&d, "kind", w->kind[s]);
   BSON_APPEND_DOUBLE (&d, "engine_read_bytes", bytes);
   if (error >= 0) {
      const lab_scan_predict_wl_census_t *cs = &w->census[s];
      double share = cs->est[0] > 0 ? cs->seen[0] / cs->est[0] : 1;
      BSON_APPEND_DOUBLE (&d, "engine_read_bytes_sampling_error", error);
      /* the share of the windows' data pages the sample saw: the bias grows as it falls */
      BSON_APPEND_DOUBLE (&d, "sample_pages_seen", share);
      if (share < LAB_PREDICT_WL_SEEN_MIN) {
         BSON_APPEND_UTF8 (&d, "sample_warning",
                           w->imputed[s] ? LAB_PREDICT_WL_DONOR_WARNING : LAB_PREDICT_WL_SAMPLE_WARNING);
      }
   }
   if (pages >= 0) {
      BSON_APPEND_DOUBLE (&d, "page_reads", pages);
   }
   if (model) {
      BSON_APPEND_UTF8 (&d, "model", model);
   }
   bson_append_document_end (arr, &d);
}

/* lab_scan_predict_wl_point -- see predict_wl.h. */
void
lab_scan_predict_wl_point (bson_t *point, const lab_scan_predict_wl_t *w, const layouts_t *l, uint64_t cache)
{
   bson_t arr, d, ls;
   int n = 0, s;

   if (!w->range && !w->aggregate) {
      return;
   }
   BSON_APPEND_ARRAY_BEGIN (point, "workload_reads", &arr);
   if (w->range) {
      BSON_APPEND_DOCUMENT_BEGIN (&arr, "0", &d);
      n++;
      BSON_APPEND_UTF8 (&d, "workload", "range");
      if (w->range_why || !w->sd[0]) {
         BSON_APPEND_UTF8 (&d, "not_predicted", w->range_why ? w->range_why : "no window drawn");
      } else {
         BSON_APPEND_INT64 (&d, "windows", w->nwin);
         BSON_APPEND_DOUBLE (&d, "rows", w->range_rows);
         BSON_APPEND_INT64 (&d, "probe_rows_read", w->docs_read); /* the reads of the rows' times */
         if (w->rate < 1) {
            BSON_APPEND_DOUBLE (&d, "sample", w->rate);
            BSON_APPEND_INT64 (&d, "probe_rows_read_by_key", w->docs_by_key);
            BSON_APPEND_INT64 (&d, "probe_rows_read_drawn", w->docs_drawn);
            BSON_APPEND_UTF8 (&d, "probe_how", w->range_how ? w->range_how : "");
         }
         BSON_APPEND_UTF8 (
            &d, "model",
            w->rate < 1 ? "IXSCAN of the time index + FETCH, the windows drawn as scancmp's; sampled: the "
                          "sampled masters' rows traced at a cache scaled by the share of the windows' "
                          "pages they touch, the pages and reuse misses scaled back; a layout of documents "
                          "traced over every master, the others on a near sampled donor's times, unscaled "
                          "(engine_read_bytes_sampling_error: the delete-a-group jackknife's)"
                        : "IXSCAN of the time index + FETCH, the windows drawn as scancmp's; "
                          "no sampling: every row's time and RecordId");
         BSON_APPEND_ARRAY_BEGIN (&d, "layouts", &ls);
         for (s = 0; s < w->nl; s++) {
            double misses = 0, b, lru = 0, mi;
            const char *model;
            if (w->rate < 1 && w->imputed[s]) {
               model = range_reads (w, s, l, cache, &b, &misses);
               lru = lab_scan_predict_read_bytes (w->sd[s], lab_scan_predict_capacity_at (cache, l->fill),
                                                  w->data_disk[s], w->index_disk, &mi);
               append_layout (&ls, w, s, b, misses, model,
                              lab_scan_predict_wl_sampling_error (w, s, l, cache, b, lru));
            } else if (w->rate < 1) {
               model = lab_scan_predict_wl_sampled_reads (w->sd[s], w->ev[s], &w->census[s], w, s, l, cache,
                                                          &b, &misses);
               lab_scan_predict_wl_sampled_reads (w->sd[s], NULL, &w->census[s], w, s, l, cache, &lru, &mi);
               append_layout (&ls, w, s, b, misses, model,
                              lab_scan_predict_wl_sampling_error (w, s, l, cache, b, lru));
            } else {
               model = range_reads (w, s, l, cache, &b, &misses);
               append_layout (&ls, w, s, b, misses, model, -1);
            }
         }
         bson_append_array_end (&d, &ls);
      }
      bson_append_document_end (&arr, &d);
   }
   if (w->aggregate) {
      BSON_APPEND_DOCUMENT_BEGIN (&arr, n == 0 ? "0" : "1", &d);
      BSON_APPEND_UTF8 (&d, "workload", "aggregate");
      BSON_APPEND_UTF8 (&d, "model",
                        "COLLSCAN: every leaf page read once whatever the cache, the layout's "
                        "data on disk (detail: measured; the others: the sample fold's)");
      BSON_APPEND_ARRAY_BEGIN (&d, "layouts", &ls);
      for (s = 0; s < w->nl; s++) {
         append_layout (&ls, w, s, w->storage[s], w->data_disk[s] > 0 ? w->storage[s] / w->data_disk[s] : -1,
                        NULL, -1);
      }
      bson_append_array_end (&d, &ls);
      bson_append_document_end (&arr, &d);
   }
   bson_append_array_end (point, &arr);
}

/* lab_scan_predict_wl_cleanup -- see predict_wl.h. */
void
lab_scan_predict_wl_cleanup (lab_scan_predict_wl_t *w, int64_t nkeys)
{
   int64_t k;
   int s;

   for (k = 0; w->times && k < nkeys; k++) {
      bson_free (w->times[k]);
   }
   bson_free (w->times);
   bson_free (w->win_lo);
   for (s = 0; s < LAB_PREDICT_WL_LAYOUTS; s++) {
      int g;
      lab_scan_stackdist_destroy (w->sd[s]);
      lab_scan_evictsim_trace_destroy (w->ev[s]);
      for (g = 0; g < LAB_PREDICT_WL_GROUPS; g++) {
         lab_scan_stackdist_destroy (w->gsd[g][s]);
      }
   }
   memset (w, 0, sizeof *w);
}
