/*
 * wt_cursor.c -- streams of documents from the embedded store: sorted streams between two values (an index
 * cursor plus a collection cursor, owned by the stream, not the session's cache), natural-order streams
 * over a RecordId range (the collection cursor alone: mongod's COLLSCAN), partition bounds of equal
 * counts, natural-order ranges, and the distinct values of an index.
 */
#include "wt_private.h"

#include "core/error.h"
#include "keyenc.h"

#include <string.h>

/* wt_cur_t -- a sorted stream's state. */
typedef struct {
   wt_sess_t *ss;
   WT_CURSOR *ic;  /* index cursor, owned (NULL in a natural-order stream) */
   WT_CURSOR *cc;  /* collection cursor, owned */
   bool natural;   /* a natural-order stream over RecordIds [rid_lo, rid_hi) (0: unbounded) */
   bool clustered; /* natural order of a clustered collection: _id order, keys are KeyStrings */
   int64_t rid_lo, rid_hi;
   bool is_id;
   bool started, done;
   int64_t rid; /* natural order: the RecordId of the record under cc */
   lab_buf_t lo, hi;
   bool has_lo, has_hi;
   bson_t doc;
   char *coll;
   bool counted;          /* counted in ss->nsorted */
   lab_wt_fetch_t *ahead; /* a sorted stream's records fetched ahead (opts->fetch_ahead_rows), or NULL */
   bool walked;           /* with ahead: the index walk reached its end */
} wt_cur_t;

/* ---- sorted streams ----------------------------------------------------------------------------- */

/* key_below -- memcmp order: key < bound (bound is a value body). */
static bool
key_below (const uint8_t *key, size_t klen, const lab_buf_t *bound)
{
   size_t n = klen < bound->len ? klen : bound->len;
   int c = memcmp (key, bound->data, n);

   return c < 0 || (c == 0 && klen < bound->len);
}

/* lab_wt_cursor_close -- close the stream's WiredTiger cursors and free it. */
void
lab_wt_cursor_close (lab_store_cursor_t *cur)
{
   wt_cur_t *wc = cur->impl;

   if (!wc) {
      return;
   }
   if (wc->ic) {
      wc->ic->close (wc->ic);
   }
   if (wc->cc) {
      wc->cc->close (wc->cc);
   }
   if (wc->counted) {
      /* after the WT cursors are closed: from now on a drop may use this session */
      __atomic_sub_fetch (&wc->ss->nsorted, 1, __ATOMIC_RELEASE);
   }
   lab_buf_destroy (&wc->lo);
   lab_buf_destroy (&wc->hi);
   lab_wt_fetch_destroy (wc->ahead);
   bson_free (wc->coll);
   bson_free (wc);
   cur->impl = NULL;
}

/* cur_new -- a stream's state for the collection `coll` of session ss, counted in ss->nsorted so that a
 * drop leaves its cursors alone (the caller holds ddl for reading). */
static wt_cur_t *
cur_new (lab_store_cursor_t *cur, wt_sess_t *ss, const char *coll)
{
   wt_cur_t *wc = bson_aligned_alloc0 (BSON_ALIGNOF (wt_cur_t), sizeof (wt_cur_t));

   cur->impl = wc;
   wc->ss = ss;
   wc->coll = bson_strdup (coll);
   lab_buf_init (&wc->lo);
   lab_buf_init (&wc->hi);
   __atomic_add_fetch (&ss->nsorted, 1, __ATOMIC_ACQUIRE);
   wc->counted = true;
   return wc;
}

/* open_done -- the end of a stream's opening: ddl released, the stream closed unless `ok`; ok. */
static bool
open_done (lab_store_cursor_t *cur, wt_store_t *st, bool ok)
{
   pthread_rwlock_unlock (&st->ddl);
   if (!ok) {
      lab_wt_cursor_close (cur);
   }
   return ok;
}

/* set_bounds -- the bodies of opts->lo and opts->hi, when given. */
static bool
set_bounds (wt_cur_t *wc, const char *field, const lab_store_sorted_opts_t *opts, bson_error_t *error)
{
   if (opts->lo) {
      if (!lab_wt_encode_body (opts->lo, &wc->lo, wc->coll, field, error)) {
         return false;
      }
      wc->has_lo = true;
   }
   if (opts->hi) {
      if (!lab_wt_encode_body (opts->hi, &wc->hi, wc->coll, field, error)) {
         return false;
      }
      wc->has_hi = true;
   }
   return true;
}

/* lab_wt_sorted_open -- a stream over the index on field from opts->lo (inclusive) to opts->hi
 * (exclusive); the session counts it so a drop leaves its cursors alone. */
bool
lab_wt_sorted_open (lab_store_cursor_t *cur, const char *coll, const char *field,
                    const lab_store_sorted_opts_t *opts, bson_error_t *error)
{
   wt_sess_t *ss = cur->sess->impl;
   wt_store_t *st = ss->st;
   wt_cur_t *wc;
   wt_index_t *ix;
   wt_coll_t *c;
   bool ok = false;
   int ret;

   pthread_rwlock_rdlock (&st->ddl);
   wc = cur_new (cur, ss, coll);
   if (!(c = lab_wt_coll_lookup (st, coll, error)) || !(ix = lab_wt_index_lookup (st, c, field, error))) {
      goto done;
   }
   if (c->clustered) { /* its index entries end in string RecordIds: lab_store_index_find reads them */
      lab_wt_clustered_refuse (c, "sorted walks over its secondary indexes are not supported", error);
      goto done;
   }
   wc->is_id = ix == &c->indexes[0];
   if (!set_bounds (wc, field, opts, error)) {
      goto done;
   }
   if ((ret = ss->s->open_cursor (ss->s, ix->uri, NULL, NULL, &wc->ic)) != 0) {
      lab_wt_fail (error, ret, "open index on '%s' of '%s' (%s)", field, coll, ix->uri);
      goto done;
   }
   ok = lab_wt_coll_cursor (ss->s, c, &wc->cc, error);
   if (opts->fetch_ahead_rows > 0) {
      wc->ahead = lab_wt_fetch_new (opts->fetch_ahead_rows);
   }
done:
   return open_done (cur, st, ok);
}

/* lab_wt_natural_open -- a stream over the collection's table from RecordId opts->range.rid_lo
 * (inclusive) to rid_hi (exclusive): the table cursor alone, no index. */
bool
lab_wt_natural_open (lab_store_cursor_t *cur, const char *coll, const lab_store_natural_opts_t *opts,
                     bson_error_t *error)
{
   wt_sess_t *ss = cur->sess->impl;
   wt_store_t *st = ss->st;
   wt_cur_t *wc;
   wt_coll_t *c;

   pthread_rwlock_rdlock (&st->ddl);
   wc = cur_new (cur, ss, coll);
   wc->natural = true;
   wc->rid_lo = opts->range.rid_lo;
   wc->rid_hi = opts->range.rid_hi;
   c = lab_wt_coll_lookup (st, coll, error);
   if (c && c->clustered && (wc->rid_lo != 0 || wc->rid_hi != 0)) {
      return open_done (cur, st,
                        lab_wt_clustered_refuse (c, "it has no RecordId ranges (scan it whole)", error));
   }
   wc->clustered = c && c->clustered;
   return open_done (cur, st, c && lab_wt_coll_cursor (ss->s, c, &wc->cc, error));
}

/* natural_next -- the next record of a natural-order stream below rid_hi (the first at or above rid_lo
 * to start with): 1 with *v (its BSON), 0 at the end, -1 on error. */
static int
natural_next (wt_cur_t *wc, WT_ITEM *v, bson_error_t *error)
{
   WT_CURSOR *cc = wc->cc;
   int64_t rid = 0;
   int ret;

   if (!wc->started && wc->rid_lo > 0) {
      cc->set_key (cc, wc->rid_lo);
      ret = lab_wt_search_ge (cc);
   } else {
      ret = cc->next (cc);
   }
   wc->started = true;
   if (ret == WT_NOTFOUND) {
      return 0;
   }
   if (ret != 0 || (!wc->clustered && (ret = cc->get_key (cc, &rid)) != 0)) {
      lab_wt_fail (error, ret, "scan collection '%s'", wc->coll);
      return -1;
   }
   if (wc->rid_hi > 0 && rid >= wc->rid_hi) {
      return 0;
   }
   if ((ret = lab_wt_doc_value (wc->ss->st, cc, v)) != 0) {
      lab_wt_fail (error, ret, "read record %" PRId64 " of '%s'", rid, wc->coll);
      return -1;
   }
   wc->rid = rid;
   return 1;
}

/* entry_rid -- the RecordId of the index entry under ic, whose key is k: from the value in the _id
 * index, from the end of the key in the others. */
static bool
entry_rid (wt_cur_t *wc, const WT_ITEM *k, int64_t *rid, bson_error_t *error)
{
   WT_CURSOR *ic = wc->ic;
   WT_ITEM v;
   size_t used;
   int ret;

   if (wc->is_id) {
      if ((ret = ic->get_value (ic, &v)) != 0) {
         return lab_wt_fail (error, ret, "read _id index of '%s'", wc->coll);
      }
      if (!lab_store_key_recordid_decode (v.data, v.size, rid, &used)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC, "malformed _id index entry in '%s'",
                        wc->coll);
         return false;
      }
   } else if (!lab_store_key_split_recordid (k->data, k->size, &used, rid)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC, "malformed index key in '%s'", wc->coll);
      return false;
   }
   return true;
}

/* walk_step -- the next index entry below the upper bound (the first at or above the lower bound to
 * start with): 1 with its *rid, 0 at the end, -1 on error. */
static int
walk_step (wt_cur_t *wc, int64_t *rid, bson_error_t *error)
{
   WT_CURSOR *ic = wc->ic;
   WT_ITEM k;
   int ret;

   if (!wc->started && wc->has_lo) {
      k.data = wc->lo.data;
      k.size = wc->lo.len;
      ic->set_key (ic, &k);
      ret = lab_wt_search_ge (ic);
   } else {
      ret = ic->next (ic);
   }
   wc->started = true;
   if (ret == WT_NOTFOUND) {
      return 0;
   }
   if (ret != 0 || (ret = ic->get_key (ic, &k)) != 0) {
      lab_wt_fail (error, ret, "walk index of '%s'", wc->coll);
      return -1;
   }
   if (wc->has_hi && !key_below (k.data, k.size, &wc->hi)) {
      return 0;
   }
   return entry_rid (wc, &k, rid, error) ? 1 : -1;
}

/* ahead_next -- a sorted stream with read-ahead (wt_fetch.c): the window's next record, the next window
 * read and fetched when it is handed out: 1 with *v and *rid, 0 at the end, -1 on error. */
static int
ahead_next (wt_cur_t *wc, WT_ITEM *v, int64_t *rid, bson_error_t *error)
{
   const uint8_t *data;
   size_t len;
   int ret = 1;

   while (!lab_wt_fetch_pop (wc->ahead, &data, &len, rid)) {
      if (wc->walked) {
         return 0;
      }
      lab_wt_fetch_reset (wc->ahead);
      while ((ret = walk_step (wc, rid, error)) == 1 && lab_wt_fetch_add (wc->ahead, *rid)) {
      }
      if (ret < 0) {
         return -1;
      }
      wc->walked = ret == 0;
      if (!lab_wt_fetch_run (wc->ahead, wc->ss->st, wc->cc, wc->coll, error)) {
         return -1;
      }
   }
   v->data = data;
   v->size = len;
   return 1;
}

/* lab_wt_cursor_next -- 1 with the next document in the stream's order (index or natural), 0 at the end,
 * -1 on error. */
int
lab_wt_cursor_next (lab_store_cursor_t *cur, const bson_t **doc, bson_error_t *error)
{
   wt_cur_t *wc = cur->impl;
   WT_ITEM v;
   int64_t rid;
   int ret;

   if (wc->done) {
      return 0;
   }
   if (wc->natural) {
      if ((ret = natural_next (wc, &v, error)) == 1) {
         if (!bson_init_static (&wc->doc, v.data, v.size)) {
            lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                           "record %" PRId64 " of '%s' is not valid BSON", wc->rid, wc->coll);
            return -1;
         }
         *doc = &wc->doc;
         return 1;
      }
      if (ret < 0) {
         return -1;
      }
      wc->done = true;
      wc->cc->reset (wc->cc);
      return 0;
   }
   if (wc->ahead && (ret = ahead_next (wc, &v, &rid, error)) == 1) {
      if (!bson_init_static (&wc->doc, v.data, v.size)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "record %" PRId64 " of '%s' is not valid BSON", rid, wc->coll);
         return -1;
      }
      *doc = &wc->doc;
      return 1;
   }
   while (!wc->ahead && (ret = walk_step (wc, &rid, error)) == 1) {
      wc->cc->set_key (wc->cc, rid);
      ret = wc->cc->search (wc->cc);
      if (ret == WT_NOTFOUND) {
         continue; /* removed after the index entry was read */
      }
      if (ret != 0 || (ret = lab_wt_doc_value (wc->ss->st, wc->cc, &v)) != 0) {
         lab_wt_fail (error, ret, "fetch record %" PRId64 " of '%s'", rid, wc->coll);
         return -1;
      }
      if (!bson_init_static (&wc->doc, v.data, v.size)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "record %" PRId64 " of '%s' is not valid BSON", rid, wc->coll);
         return -1;
      }
      *doc = &wc->doc;
      return 1;
   }
   if (ret < 0) {
      return -1;
   }
   wc->done = true;
   wc->ic->reset (wc->ic);
   wc->cc->reset (wc->cc);
   return 0;
}

/* ---- key walks: partitions and distinct values -------------------------------------------------- */

/* key_walk_t -- walks an index's keys, giving each key's value part (body + tag) and body length. */
typedef struct {
   WT_CURSOR *ic;
   bool is_id;
   bool back;     /* walk from the last entry backwards (the key's upper end) */
   bool stay;     /* the cursor already stands on the next entry to give (after key_walk_skip) */
   lab_buf_t val; /* for the _id index: body + tag rebuilt from key and value */
} key_walk_t;

/* key_walk_next -- 0 with *p, *len (value part) and *blen (body length), WT_NOTFOUND at the end. */
static int
key_walk_next (key_walk_t *w, const uint8_t **p, size_t *len, size_t *blen)
{
   WT_ITEM k, v;
   int64_t rid;
   int ret;

   if (w->stay) {
      w->stay = false;
   } else if ((ret = w->back ? w->ic->prev (w->ic) : w->ic->next (w->ic)) != 0) {
      return ret;
   }
   if ((ret = w->ic->get_key (w->ic, &k)) != 0) {
      return ret;
   }
   if (w->is_id) {
      if ((ret = w->ic->get_value (w->ic, &v)) != 0) {
         return ret;
      }
      if (!lab_store_key_unique_join (k.data, k.size, v.data, v.size, &w->val)) {
         return WT_ERROR;
      }
      *p = w->val.data;
      *len = w->val.len;
   } else {
      if (!lab_store_key_split_recordid (k.data, k.size, len, &rid)) {
         return WT_ERROR;
      }
      *p = k.data;
   }
   *blen = lab_store_key_body_len (*len);
   return 0;
}

/* walk_open -- a key walk over the index on field (caller holds ddl for reading). */
static bool
walk_open (wt_sess_t *ss, const char *coll, const char *field, key_walk_t *w, wt_coll_t **cp,
           bson_error_t *error)
{
   wt_coll_t *c;
   wt_index_t *ix;
   int ret;

   memset (w, 0, sizeof *w);
   lab_buf_init (&w->val);
   if (!(c = lab_wt_coll_lookup (ss->st, coll, error)) ||
       !(ix = lab_wt_index_lookup (ss->st, c, field, error))) {
      return false;
   }
   if (c->clustered) {
      return lab_wt_clustered_refuse (c, "key walks over its secondary indexes are not supported", error);
   }
   w->is_id = ix == &c->indexes[0];
   *cp = c;
   if ((ret = ss->s->open_cursor (ss->s, ix->uri, NULL, NULL, &w->ic)) != 0) {
      return lab_wt_fail (error, ret, "open index on '%s' of '%s' (%s)", field, coll, ix->uri);
   }
   return true;
}

/* walk_close -- close the walk's cursor. */
static void
walk_close (key_walk_t *w)
{
   if (w->ic) {
      w->ic->close (w->ic);
   }
   lab_buf_destroy (&w->val);
}

/* same_body -- whether the value part p has the body kept in prev. */
static bool
same_body (const lab_buf_t *prev, const uint8_t *p, size_t blen)
{
   return blen == prev->len && memcmp (p, prev->data, blen) == 0;
}

/* at_body -- whether the entry under the cursor has the body kept in prev (an unreadable entry: no). */
static bool
at_body (WT_CURSOR *ic, const lab_buf_t *prev)
{
   WT_ITEM k;
   size_t len;
   int64_t rid;

   return ic->get_key (ic, &k) == 0 && lab_store_key_split_recordid (k.data, k.size, &len, &rid) &&
          same_body (prev, k.data, lab_store_key_body_len (len));
}

/* key_walk_skip -- move a forward walk of a non-unique index past every entry of the body in prev, to
 * the first entry of the next body (left for key_walk_next to give): one search instead of a step per
 * entry (a master of 130 rows is 130 entries). The search key is the body followed by 0xFF, above every
 * entry of the body (a tag of 1..5 follows it); should an entry of another body lie before it (no
 * encoding makes one), the walk goes back to the body's first entry and steps on from there. */
static int
key_walk_skip (key_walk_t *w, lab_buf_t *prev)
{
   int ret;

   lab_buf_append (prev, (const uint8_t *)"\xff", 1);
   ret = lab_wt_seek_from (w->ic, prev);
   prev->len--;
   if (ret != 0) {
      return ret; /* WT_NOTFOUND: no entry after the body's */
   }
   /* the entry before the one found must be the body's own: then nothing was skipped over */
   if ((ret = w->ic->prev (w->ic)) == 0 && at_body (w->ic, prev)) {
      if ((ret = w->ic->next (w->ic)) == 0) {
         w->stay = true;
      }
      return ret;
   }
   if (ret != 0 && ret != WT_NOTFOUND) {
      return ret;
   }
   /* skipped another body: back to this body's first entry, stepping on from it */
   if ((ret = lab_wt_seek_from (w->ic, prev)) == 0) {
      w->stay = true;
   }
   return ret;
}

/* lab_wt_partition -- up to n-1 bounds splitting the index's entries into n ranges of about equal
 * counts; a bound is the first value of a range, never splitting equal values. */
bool
lab_wt_partition (lab_store_session_t *sess, const char *coll, const char *field, int n,
                  bson_value_t **bounds, int *nbounds, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   key_walk_t w;
   wt_coll_t *c = NULL;
   lab_buf_t prev;
   int64_t total = 0, pos = 0, target;
   const uint8_t *p;
   size_t len, blen;
   bool ok = false, have_prev = false;
   int k = 1, ret = 0;

   lab_buf_init (&prev);
   pthread_rwlock_rdlock (&ss->st->ddl);
   if (!walk_open (ss, coll, field, &w, &c, error)) {
      goto done;
   }
   total = __atomic_load_n (&c->count, __ATOMIC_RELAXED);
   *bounds = bson_malloc0 ((size_t)n * sizeof **bounds);
   target = total * k / n;
   while (k < n && (ret = key_walk_next (&w, &p, &len, &blen)) == 0) {
      bool changed = !have_prev || !same_body (&prev, p, blen);
      if (changed && pos >= target && pos > 0) {
         if (!lab_store_key_decode (p, len, &(*bounds)[*nbounds], error)) {
            goto done;
         }
         (*nbounds)++;
         while (k < n && total * k / n <= pos) {
            k++;
         }
         target = total * k / n;
      }
      if (changed) {
         lab_buf_reset (&prev);
         lab_buf_append (&prev, p, blen);
         have_prev = true;
      }
      pos++;
   }
   if (ret != 0 && ret != WT_NOTFOUND) {
      lab_wt_fail (error, ret, "walk index on '%s' of '%s'", field, coll);
      goto done;
   }
   ok = true;
done:
   walk_close (&w);
   pthread_rwlock_unlock (&ss->st->ddl);
   lab_buf_destroy (&prev);
   if (!ok) {
      lab_store_values_free (*bounds, *nbounds);
      *bounds = NULL;
      *nbounds = 0;
   }
   return ok;
}

/* lab_wt_distinct_keys -- every distinct value of the index on field, in index order. */
bool
lab_wt_distinct_keys (lab_store_session_t *sess, const char *coll, const char *field, bson_value_t **keys,
                      int64_t *nkeys, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   key_walk_t w;
   wt_coll_t *c = NULL;
   lab_buf_t prev;
   const uint8_t *p;
   size_t len, blen, cap = 0;
   bool ok = false, have_prev = false;
   int ret = 0;

   lab_buf_init (&prev);
   pthread_rwlock_rdlock (&ss->st->ddl);
   if (!walk_open (ss, coll, field, &w, &c, error)) {
      goto done;
   }
   while ((ret = key_walk_next (&w, &p, &len, &blen)) == 0) {
      if (have_prev && same_body (&prev, p, blen)) {
         continue;
      }
      if ((size_t)*nkeys == cap) {
         cap = cap ? cap * 2 : 1024;
         *keys = bson_realloc (*keys, cap * sizeof **keys);
      }
      if (!lab_store_key_decode (p, len, &(*keys)[*nkeys], error)) {
         lab_error_prefix (error, "index on '%s' of '%s'", field, coll);
         goto done;
      }
      (*nkeys)++;
      lab_buf_reset (&prev);
      lab_buf_append (&prev, p, blen);
      have_prev = true;
      if (!w.is_id && (ret = key_walk_skip (&w, &prev)) != 0) {
         break;
      }
   }
   if (ret != WT_NOTFOUND) {
      lab_wt_fail (error, ret, "walk index on '%s' of '%s'", field, coll);
      goto done;
   }
   ok = true;
done:
   walk_close (&w);
   pthread_rwlock_unlock (&ss->st->ddl);
   lab_buf_destroy (&prev);
   if (!ok) {
      lab_store_values_free (*keys, (int)*nkeys);
      *keys = NULL;
      *nkeys = 0;
   }
   return ok;
}

/* ---- natural-order ranges and descriptions ------------------------------------------------------ */

/* rid_ends -- the first and last RecordId of the collection's table (*empty when it has none). */
static bool
rid_ends (wt_sess_t *ss, const wt_coll_t *c, int64_t *first, int64_t *last, bool *empty, bson_error_t *error)
{
   WT_CURSOR *cc = NULL;
   int ret;

   if (!lab_wt_coll_cursor (ss->s, c, &cc, error)) {
      return false;
   }
   ret = lab_wt_rid_ends (cc, first, last);
   cc->close (cc);
   *empty = ret == WT_NOTFOUND;
   return ret == 0 || *empty || lab_wt_fail (error, ret, "find the first and last record of '%s'", c->name);
}

/* lab_wt_natural_ranges -- up to n ranges of equal RecordId spans between the first and the last
 * RecordId (positioned inserts leave them dense: equal spans hold about equal counts). */
bool
lab_wt_natural_ranges (lab_store_session_t *sess, const char *coll, int n, lab_store_natural_range_t **ranges,
                       int *nranges, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_coll_t *c;
   int64_t first = 0, last = 0, span, count;
   bool empty = true, ok = false;
   int i;

   pthread_rwlock_rdlock (&ss->st->ddl);
   if (!(c = lab_wt_coll_lookup (ss->st, coll, error))) {
      goto done;
   }
   if (c->clustered) { /* no RecordId spans: the whole table is the one range, as on a server */
      *ranges = bson_malloc0 (sizeof **ranges);
      *nranges = 1;
      ok = true;
      goto done;
   }
   if (!rid_ends (ss, c, &first, &last, &empty, error)) {
      goto done;
   }
   count = __atomic_load_n (&c->count, __ATOMIC_RELAXED);
   span = empty ? 1 : last - first + 1;
   if ((int64_t)n > span) {
      n = (int)span;
   }
   if (count >= 1 && (int64_t)n > count) {
      n = (int)count;
   }
   *ranges = bson_malloc0 ((size_t)n * sizeof **ranges);
   for (i = 0; i < n; i++) {
      /* first + span * i / n, without overflow for any span */
      (*ranges)[i].rid_lo = i == 0 ? 0 : first + (int64_t)((__int128)span * i / n);
      (*ranges)[i].rid_hi = i == n - 1 ? 0 : first + (int64_t)((__int128)span * (i + 1) / n);
   }
   *nranges = n;
   ok = true;
done:
   pthread_rwlock_unlock (&ss->st->ddl);
   return ok;
}

/* lab_wt_natural_describe -- the walk lab_wt_natural_open would do. */
bool
lab_wt_natural_describe (lab_store_session_t *sess, const char *coll, const lab_store_natural_opts_t *opts,
                         bson_t *out, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_coll_t *c;
   bson_t walk;

   pthread_rwlock_rdlock (&ss->st->ddl);
   c = lab_wt_coll_lookup (ss->st, coll, error);
   if (c) {
      BSON_APPEND_UTF8 (out, "backend", "wiredtiger");
      BSON_APPEND_DOCUMENT_BEGIN (out, "walk", &walk);
      BSON_APPEND_UTF8 (&walk, "collection", coll);
      BSON_APPEND_UTF8 (&walk, "table", c->uri);
      BSON_APPEND_INT64 (&walk, "rid_lo", opts->range.rid_lo);
      BSON_APPEND_INT64 (&walk, "rid_hi", opts->range.rid_hi);
      BSON_APPEND_UTF8 (&walk, "fetch", "none: the table's records in RecordId order (COLLSCAN)");
      bson_append_document_end (out, &walk);
      BSON_APPEND_NULL (out, "index");
      BSON_APPEND_BOOL (out, "blocking_sort", false);
      BSON_APPEND_UTF8 (out, "order",
                        c->clustered ? "_id order (a clustered collection's RecordId is the KeyString of _id)"
                                     : "RecordId order (insertion order)");
   }
   pthread_rwlock_unlock (&ss->st->ddl);
   return c != NULL;
}

/* lab_wt_key_ends -- the first and the last entry of the index on field: one positioning at each end. */
bool
lab_wt_key_ends (lab_store_session_t *sess, const char *coll, const char *field, bson_value_t *first,
                 bson_value_t *last, bool *empty, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   key_walk_t w;
   wt_coll_t *c = NULL;
   const uint8_t *p;
   size_t len, blen;
   bool ok = false, have_first = false;
   int ret;

   *empty = false;
   pthread_rwlock_rdlock (&ss->st->ddl);
   if (!walk_open (ss, coll, field, &w, &c, error)) {
      goto done;
   }
   for (int end = 0; end < 2; end++) {
      w.back = end == 1;
      if ((ret = w.ic->reset (w.ic)) != 0 || (ret = key_walk_next (&w, &p, &len, &blen)) != 0) {
         if (ret == WT_NOTFOUND) {
            *empty = true;
            ok = true;
         } else {
            lab_wt_fail (error, ret, "reading the ends of the index on '%s' of '%s'", field, coll);
         }
         goto done;
      }
      if (!lab_store_key_decode (p, len, end ? last : first, error)) {
         lab_error_prefix (error, "index on '%s' of '%s'", field, coll);
         goto done;
      }
      have_first = true;
   }
   ok = true;
done:
   if (!ok && have_first) {
      bson_value_destroy (first);
   }
   walk_close (&w);
   pthread_rwlock_unlock (&ss->st->ddl);
   return ok;
}

/* lab_wt_key_type_counts -- the entries of the index on field per BSON type of their value (a document
 * without the field is indexed as null): one walk of the index, no document read. */
bool
lab_wt_key_type_counts (lab_store_session_t *sess, const char *coll, const char *field, int64_t *rows,
                        bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   key_walk_t w;
   wt_coll_t *c = NULL;
   const uint8_t *p;
   size_t len, blen;
   bool ok = false;
   int ret = 0;

   pthread_rwlock_rdlock (&ss->st->ddl);
   if (!walk_open (ss, coll, field, &w, &c, error)) {
      goto done;
   }
   while ((ret = key_walk_next (&w, &p, &len, &blen)) == 0) {
      bson_value_t v;
      if (!lab_store_key_decode (p, len, &v, error)) {
         lab_error_prefix (error, "index on '%s' of '%s'", field, coll);
         goto done;
      }
      rows[(uint8_t)v.value_type]++;
      bson_value_destroy (&v);
   }
   if (ret != WT_NOTFOUND) {
      lab_wt_fail (error, ret, "walk index on '%s' of '%s'", field, coll);
      goto done;
   }
   ok = true;
done:
   walk_close (&w);
   pthread_rwlock_unlock (&ss->st->ddl);
   return ok;
}
