/*
 * digest.c -- the digests of content every workload sums (workload.h): a row's canonical hash
 * (core/rowhash.h: the detail layout's row, whatever the layout), a write's hash, one master's rows, and
 * the first master whose rows differ between two layouts (re-read, named in the exit-3 message).
 */
#include "scan/hash.h"
#include "scan/workloads/workload.h"

#include "core/error.h"

#include <stdlib.h>
#include <string.h>

/* lab_scan_rowhash_doc -- see workload.h. */
void
lab_scan_rowhash_doc (lab_scan_rowhash_t *rh, const bson_t *doc)
{
   lab_rowhash_hoisted_free (rh->hf);
   rh->hf = NULL;
   rh->doc = doc;
}

/* clustered_id -- *in at X when doc's _id is a clustered row's {<key_field>: K, id: X} (exactly those two
 * fields, in that order: lab_store_clustered_row). */
static bool
clustered_id (const bson_t *doc, const char *key_field, bson_iter_t *in)
{
   bson_iter_t it;

   return bson_iter_init (&it, doc) && bson_iter_next (&it) && strcmp (bson_iter_key (&it), "_id") == 0 &&
          BSON_ITER_HOLDS_DOCUMENT (&it) && bson_iter_recurse (&it, in) && bson_iter_next (in) &&
          strcmp (bson_iter_key (in), key_field) == 0 && bson_iter_next (in) &&
          strcmp (bson_iter_key (in), LAB_STORE_CLUSTERED_ID) == 0;
}

/* lab_scan_rowhash -- see workload.h: the low half of the 128-bit row digest. */
uint64_t
lab_scan_rowhash (lab_scan_rowhash_t *rh, const bson_t *elem)
{
   bson_iter_t in;

   if (elem) {
      if (!rh->hf) {
         rh->hf = lab_rowhash_hoisted_of (rh->doc, rh->array_field);
      }
      return lab_rowhash_merged (bson_get_data (elem), elem->len, rh->hf).lo;
   }
   if (clustered_id (rh->doc, rh->key_field, &in)) {
      bson_iter_t last = in;
      if (!bson_iter_next (&in)) {
         return lab_rowhash_doc_id (bson_get_data (rh->doc), rh->doc->len, &last).lo;
      }
   }
   return lab_rowhash_row (rh->doc).lo;
}

/* lab_scan_rowhash_cleanup -- see workload.h. */
void
lab_scan_rowhash_cleanup (lab_scan_rowhash_t *rh)
{
   lab_rowhash_hoisted_free (rh->hf);
   rh->hf = NULL;
   rh->doc = NULL;
}

/* lab_scan_wl_write_hash -- see workload.h. */
uint64_t
lab_scan_wl_write_hash (const lab_scan_wl_write_t *w, const char *field)
{
   bson_t v = BSON_INITIALIZER;
   uint64_t h;

   if (w->row) {
      return lab_rowhash_row (w->row).lo;
   }
   bson_append_value (&v, field, -1, &w->value);
   h = lab_scan_mix64 (lab_scan_wl_id_hash (&w->key, &w->id) ^ lab_rowhash_row (&v).lo);
   bson_destroy (&v);
   return h;
}

typedef struct {
   lab_scan_rowhash_t rh;
   uint64_t *digest;
   int64_t *rows;
} master_ctx_t;

/* master_row -- a row of the master: its digest summed. */
static void
master_row (const bson_t *doc, const bson_t *elem, void *ctx)
{
   master_ctx_t *c = ctx;

   (void)doc;
   *c->digest += lab_scan_rowhash (&c->rh, elem);
   (*c->rows)++;
}

/* master_doc -- a document of the master: each of its rows. */
static bool
master_doc (const bson_t *doc, void *ctx)
{
   master_ctx_t *c = ctx;

   lab_scan_rowhash_doc (&c->rh, doc);
   lab_scan_wl_each_row (doc, c->rh.array_field, c->rh.array_field != NULL, master_row, c);
   return true;
}

/* lab_scan_digest_master -- see workload.h. */
bool
lab_scan_digest_master (lab_store_session_t *sess, const lab_scan_opts_t *o, const lab_results_layout_t *l,
                        bool clustered, const bson_value_t *key, uint64_t *digest, int64_t *rows,
                        bson_error_t *error)
{
   bool array = lab_layout_doc_holds_many_rows (&l->desc);
   master_ctx_t c = { { o->key, array ? o->array_field : NULL, NULL, NULL }, digest, rows };
   bool ok = lab_scan_master_find (sess, l->collection, clustered, o->key, key, master_doc, &c, NULL, error);

   lab_scan_rowhash_cleanup (&c.rh);
   return ok;
}

/* lab_scan_digest_locate -- see workload.h. */
bool
lab_scan_digest_locate (lab_store_t *store, const lab_scan_opts_t *o, const lab_results_layout_t *a,
                        const lab_results_layout_t *b, const bson_value_t *keys, int64_t nkeys, bool *found,
                        char *buf, size_t len, bson_error_t *error)
{
   lab_store_session_t *sess = lab_store_session_open (store, error);
   bool ca = lab_layout_read_by_id_range (&a->desc), cb = lab_layout_read_by_id_range (&b->desc), ok = true;
   int64_t k;

   *found = false;
   buf[0] = '\0';
   if (!sess) {
      return false;
   }
   for (k = 0; ok && k < nkeys && !*found; k++) {
      uint64_t da = 0, db = 0;
      int64_t ra = 0, rb = 0;
      ok = lab_scan_digest_master (sess, o, a, ca, &keys[k], &da, &ra, error) &&
           lab_scan_digest_master (sess, o, b, cb, &keys[k], &db, &rb, error);
      if (ok && (da != db || ra != rb)) {
         char kb[200];
         bson_snprintf (buf, len, "%s %s (%lld rows, digest %016llx in %s; %lld rows, digest %016llx in %s)",
                        o->key, lab_value_text (&keys[k], kb, sizeof kb), (long long)ra,
                        (unsigned long long)da, a->name, (long long)rb, (unsigned long long)db, b->name);
         *found = true;
      }
   }
   if (!ok) {
      lab_error_prefix (error, "finding the master whose rows differ between %s and %s", a->name, b->name);
   }
   lab_store_session_close (sess);
   return ok;
}

/* lab_scan_runs_digests -- see workload.h. */
bool
lab_scan_runs_digests (const lab_results_layouts_t *ls, const bson_t *results, uint64_t *per_layout,
                       size_t *la, size_t *lb, uint64_t *da, uint64_t *db)
{
   bson_iter_t runs, e, f;
   bool have = false, equal = true, seen[LAB_RESULTS_MAX_LAYOUTS] = { false };
   size_t first = 0;
   uint64_t d0 = 0;
   int64_t r0 = 0;

   if (!bson_iter_init_find (&runs, results, "runs") || !bson_iter_recurse (&runs, &e)) {
      return true;
   }
   while (bson_iter_next (&e)) {
      const char *name = NULL, *dig = NULL;
      int64_t rows = -1;
      uint64_t d;
      size_t li;

      if (!BSON_ITER_HOLDS_DOCUMENT (&e) || !bson_iter_recurse (&e, &f)) {
         continue;
      }
      while (bson_iter_next (&f)) {
         if (strcmp (bson_iter_key (&f), "layout") == 0 && BSON_ITER_HOLDS_UTF8 (&f)) {
            name = bson_iter_utf8 (&f, NULL);
         } else if (strcmp (bson_iter_key (&f), "digest") == 0 && BSON_ITER_HOLDS_UTF8 (&f)) {
            dig = bson_iter_utf8 (&f, NULL);
         } else if (strcmp (bson_iter_key (&f), "rows") == 0 && BSON_ITER_HOLDS_INT64 (&f)) {
            rows = bson_iter_int64 (&f);
         }
      }
      for (li = 0; name && li < ls->n && strcmp (ls->l[li].name, name) != 0; li++) {
      }
      if (!name || !dig || li == ls->n) {
         continue;
      }
      d = strtoull (dig, NULL, 16);
      if (per_layout && !seen[li]) {
         per_layout[li] = d;
      }
      seen[li] = true;
      if (!have) {
         have = true;
         first = li;
         d0 = d;
         r0 = rows;
      } else if (equal && (d != d0 || rows != r0)) {
         *la = first;
         *lb = li;
         *da = d0;
         *db = d;
         equal = false;
      }
   }
   return equal;
}

/* lab_scan_digest_differ -- see workload.h. */
void
lab_scan_digest_differ (lab_store_t *store, const lab_scan_opts_t *o, const lab_results_layouts_t *ls,
                        size_t la, size_t lb, const bson_value_t *keys, int64_t nkeys, const char *what,
                        bson_error_t *error)
{
   char where[600];
   bson_error_t err;
   bool found = false;

   if (!lab_scan_digest_locate (store, o, &ls->l[la], &ls->l[lb], keys, nkeys, &found, where, sizeof where,
                                &err)) {
      bson_snprintf (where, sizeof where, "no master named: %s", err.message);
   } else if (!found) {
      bson_snprintf (where, sizeof where,
                     "no master differs when re-read (the rows changed while they were measured?)");
   } else {
      char both[700];
      bson_snprintf (both, sizeof both, "the first master whose rows differ: %s", where);
      bson_strncpy (where, both, sizeof where);
   }
   lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_RESULTS_DIFFER,
                  "%s: layouts %s and %s returned different rows, so they do not hold the same data; %s",
                  what, ls->l[la].name, ls->l[lb].name, where);
}

/* lab_scan_digest_written -- see workload.h. */
bool
lab_scan_digest_written (lab_store_t *store, const lab_scan_opts_t *o, const lab_results_layout_t *l,
                         const lab_scan_wl_writes_t *ws, uint64_t *digest, int64_t *rows, bson_error_t *error)
{
   lab_store_session_t *sess = lab_store_session_open (store, error);
   bool clustered = lab_layout_read_by_id_range (&l->desc), ok = true;
   int64_t g;

   if (!sess) {
      return false;
   }
   for (g = 0; ok && ws && g < ws->ngroups; g++) {
      ok = lab_scan_digest_master (sess, o, l, clustered, &ws->w[ws->group[g]].key, digest, rows, error);
   }
   if (!ok) {
      lab_error_prefix (error, "reading back the written masters of %s", l->collection);
   }
   lab_store_session_close (sess);
   return ok;
}

/* lab_scan_wl_groups_digest -- see workload.h: each group's name, rows and total (to 6 decimals, as the
 * results print it: sums of doubles in another order differ in their last bits). */
uint64_t
lab_scan_wl_groups_digest (const lab_scan_wl_acc_t *acc)
{
   uint64_t d = 0;
   size_t i;

   for (i = 0; i < acc->ngroups; i++) {
      bson_t g = BSON_INITIALIZER;
      char total[64];
      BSON_APPEND_UTF8 (&g, "group", acc->groups[i].name);
      BSON_APPEND_INT64 (&g, "rows", acc->groups[i].rows);
      bson_snprintf (total, sizeof total, "%.6f", acc->groups[i].total);
      BSON_APPEND_UTF8 (&g, "total", total);
      d += lab_rowhash_row (&g).lo;
      bson_destroy (&g);
   }
   return d;
}

/* sorted_has -- h is one of a[0..n) (sorted). */
static bool
sorted_has (const uint64_t *a, int64_t n, uint64_t h)
{
   int64_t lo = 0, hi = n;

   while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (a[mid] < h) {
         lo = mid + 1;
      } else {
         hi = mid;
      }
   }
   return lo < n && a[lo] == h;
}

/* lab_scan_wl_read_hash -- see workload.h. */
uint64_t
lab_scan_wl_read_hash (const lab_scan_wl_layout_t *wl, lab_scan_rowhash_t *rh, const bson_t *doc,
                       const bson_t *elem)
{
   const char *key = wl->opts->key;
   bson_iter_t it, it2;
   const bson_value_t *k;

   if (wl->mode != LAB_WL_MODE_SERVER && wl->nby_id == 0) {
      return lab_scan_rowhash (rh, elem);
   }
   k = lab_scan_wl_row_field (doc, NULL, key, &it);
   if (wl->mode != LAB_WL_MODE_SERVER &&
       !(k && sorted_has (wl->by_id, wl->nby_id, lab_scan_wl_id_hash (k, NULL)))) {
      return lab_scan_rowhash (rh, elem);
   }
   return lab_scan_wl_id_hash (k, lab_scan_wl_row_id (doc, elem, key, &it2));
}
