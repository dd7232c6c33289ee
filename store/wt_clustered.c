/*
 * wt_clustered.c -- the embedded store's clustered collections, as mongod lays one out
 * (docs/mongodb-compat.md §23): one WiredTiger table whose key is the document's RecordId and whose
 * RecordId is the KeyString of its `_id` (record_id_helpers::keyForElem; WiredTigerRecordStore with
 * KeyFormat::String, key_format=u), value the BSON document; no `_id` index table: the table is the
 * clustered index, so a find by `_id` or by an `_id` range walks the records themselves in `_id` order
 * (mongod's CLUSTERED_IXSCAN). A taken key is mongod's E11000 on the clustered `_id` index. Secondary
 * indexes are kept here with the record in one transaction (their entries end in the string RecordId:
 * wt_clustered_index.c).
 */
#include "wt_private.h"

#include "core/error.h"
#include "keyenc.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* lab_wt_clustered_refuse -- see wt_private.h. */
bool
lab_wt_clustered_refuse (const wt_coll_t *c, const char *what, bson_error_t *error)
{
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                  "'%s' is a clustered collection (records keyed by the KeyString of _id, no RecordIds of "
                  "their own): %s",
                  c->name, what);
   return false;
}

/* rid_key -- the RecordId (KeyString of _id) of `v` into out (reset first), the error naming the
 * collection. */
static bool
rid_key (const wt_coll_t *c, const bson_value_t *v, lab_buf_t *out, bson_error_t *error)
{
   lab_buf_reset (out);
   if (!lab_store_key_encode_record_id (v, out, error)) {
      lab_error_prefix (error, "clustered collection '%s', _id", c->name);
      return false;
   }
   return true;
}

/* doc_rid -- the RecordId of doc from its _id into out; false with *error when it has none or it cannot
 * be encoded (arrays: mongod refuses an array _id too). */
static bool
doc_rid (const wt_coll_t *c, const bson_t *doc, lab_buf_t *out, bson_error_t *error)
{
   bson_iter_t it;

   if (!bson_iter_init_find (&it, doc, "_id")) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE, "clustered collection '%s': no _id",
                     c->name);
      return false;
   }
   return rid_key (c, bson_iter_value (&it), out, error);
}

/* refuse_doc -- record in result why document `orig` was not written: its _id taken (mongod's E11000
 * on the clustered index) or not encodable. */
static void
refuse_doc (lab_store_insert_result_t *result, size_t orig, const wt_coll_t *c, const bson_t *doc, bool dup,
            const bson_error_t *kerr)
{
   bson_iter_t it;
   char vs[160] = "none";

   if (bson_iter_init_find (&it, doc, "_id")) {
      lab_value_text (bson_iter_value (&it), vs, sizeof vs);
   }
   if (dup) {
      lab_store_insert_result_add_error (
         result, orig, LAB_ERROR_STORE, LAB_STORE_ERR_DUPLICATE_KEY,
         "E11000 duplicate key error collection: %s index: _id_ dup key: { _id: %s }", c->name, vs);
   } else {
      lab_store_insert_result_add_error (result, orig, LAB_ERROR_STORE, kerr->code,
                                         "collection '%s', document _id %s: %s", c->name, vs, kerr->message);
   }
}

/* insert_group -- one transaction of up to n documents; 0, WT_ROLLBACK (retry) or a WT error (*error
 * set). */
static int
insert_group (wt_sess_t *ss, wt_coll_t *c, const bson_t *const *docs, const size_t *orig, size_t n,
              lab_store_insert_result_t *result, int64_t *inserted, int64_t *bytes, bool *mk,
              bson_error_t *error)
{
   WT_SESSION *s = ss->s;
   WT_CURSOR *cc;
   WT_ITEM k, v;
   bson_error_t kerr;
   size_t i;
   int ret;

   *inserted = *bytes = 0;
   if (!lab_wt_get_cursor (ss, c->uri, false, &cc, error)) {
      return EINVAL;
   }
   if ((ret = s->begin_transaction (s, NULL)) != 0) {
      lab_wt_fail (error, ret, "begin transaction on '%s'", c->name);
      return ret;
   }
   for (i = 0; i < n; i++) {
      if (!doc_rid (c, docs[i], &ss->key, &kerr)) {
         refuse_doc (result, orig[i], c, docs[i], false, &kerr);
         continue;
      }
      k.data = ss->key.data;
      k.size = ss->key.len;
      v.data = bson_get_data (docs[i]);
      v.size = docs[i]->len;
      cc->set_key (cc, &k);
      cc->set_value (cc, &v);
      ret = cc->insert (cc);
      if (ret == WT_DUPLICATE_KEY) {
         refuse_doc (result, orig[i], c, docs[i], true, NULL);
         continue;
      }
      if (ret != 0) {
         if (ret != WT_ROLLBACK) {
            lab_wt_fail (error, ret, "insert into clustered '%s' (%s)", c->name, c->uri);
         }
         s->rollback_transaction (s, NULL);
         return ret;
      }
      /* its secondary index entries, ending in its RecordId (wt_clustered_index.c) */
      if ((ret = lab_wt_clustered_index_write (ss, c, docs[i], ss->key.data, ss->key.len, false, mk,
                                               error)) != 0) {
         s->rollback_transaction (s, NULL);
         return ret;
      }
      (*inserted)++;
      *bytes += docs[i]->len;
   }
   if ((ret = s->commit_transaction (s, NULL)) != 0) {
      lab_wt_fail (error, ret, "commit inserts into '%s'", c->name);
   }
   return ret;
}

/* lab_wt_clustered_insert -- see wt_private.h: groups of WT_GROUP_DOCS / WT_GROUP_BYTES, one transaction
 * each, retried from scratch after a write conflict (as lab_wt_insert_many). */
bool
lab_wt_clustered_insert (wt_sess_t *ss, wt_coll_t *c, const bson_t *const *docs, const size_t *orig, size_t n,
                         lab_store_insert_result_t *result, bson_error_t *error)
{
   size_t pos = 0;

   while (pos < n) {
      size_t g = 0, gbytes = 0, nerr0 = result->nerrors;
      int64_t ins, bytes;
      int ret, tries = 0;
      bool mk[WT_MAX_INDEXES] = { false };

      while (pos + g < n && g < WT_GROUP_DOCS && gbytes < WT_GROUP_BYTES) {
         gbytes += docs[pos + g]->len;
         g++;
      }
      while ((ret = insert_group (ss, c, docs + pos, orig + pos, g, result, &ins, &bytes, mk, error)) ==
                WT_ROLLBACK &&
             ++tries <= WT_RETRIES) {
         result->nerrors = nerr0;
         usleep ((useconds_t)(tries * 100));
      }
      if (ret == WT_ROLLBACK) {
         lab_wt_fail (error, ret, "insert into '%s': write conflicts persisted after %d retries", c->name,
                      WT_RETRIES);
      }
      if (ret != 0 || !lab_wt_index_mark_found (ss, c, mk, error)) {
         return false;
      }
      __atomic_fetch_add (&c->count, ins, __ATOMIC_RELAXED);
      __atomic_fetch_add (&c->data_size, bytes, __ATOMIC_RELAXED);
      result->inserted += ins;
      pos += g;
   }
   return true;
}

/* replace_rec -- the record under cc (positioned on key k, old its value) replaced by doc, as mongod's
 * update: the record by lab_wt_record_update with the table's own logging setting, then only the index
 * entries that change (lab_wt_index_update_keys, the same routine as a plain collection's). 0, EINVAL
 * (*error) or a WT error. */
static int
replace_rec (wt_sess_t *ss, wt_coll_t *c, WT_CURSOR *cc, const WT_ITEM *k, const WT_ITEM *old,
             const bson_t *doc, bool logged, bool *mk, bson_error_t *error)
{
   wt_ikeys_t oldk = { 0 };
   uint8_t *oldbuf = NULL;
   bool modified;
   WT_ITEM nv;
   bson_t od;
   int ret;

   if (c->nindexes > 0) {
      if (!bson_init_static (&od, old->data, old->size) ||
          !lab_wt_clustered_doc_keys (ss, c, &od, k->data, k->size, NULL, error)) {
         return EINVAL;
      }
      /* kept aside: the new document's keys reuse the session's scratch */
      lab_wt_ikeys_save (ss, &oldk, &oldbuf);
   }
   nv.data = bson_get_data (doc);
   nv.size = doc->len;
   if ((ret = lab_wt_record_update (ss->s, cc, logged, old, &nv, &modified)) == 0 && c->nindexes > 0) {
      ret = lab_wt_clustered_doc_keys (ss, c, doc, k->data, k->size, mk, error)
               ? lab_wt_index_update_keys (ss, c, &oldk, oldbuf, 0, error)
               : EINVAL;
   }
   bson_free (oldk.v);
   bson_free (oldbuf);
   return ret;
}

/* upsert_once -- one transaction: the record at doc's key replaced (replace_rec) or inserted; *dcount,
 * *dbytes what changed. 0 or a WT error. */
static int
upsert_once (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, bool logged, int64_t *dcount, int64_t *dbytes,
             bool *mk, bson_error_t *error)
{
   WT_SESSION *s = ss->s;
   WT_CURSOR *cc;
   WT_ITEM k, v, old;
   int ret;

   *dcount = *dbytes = 0;
   if (!lab_wt_get_cursor (ss, c->uri, true, &cc, error)) {
      return EINVAL;
   }
   if ((ret = s->begin_transaction (s, NULL)) != 0) {
      return ret;
   }
   k.data = ss->key.data;
   k.size = ss->key.len;
   cc->set_key (cc, &k);
   ret = cc->search (cc);
   if (ret == 0 && (ret = lab_wt_doc_value (ss->st, cc, &old)) == 0) {
      *dbytes = -(int64_t)old.size;
      ret = replace_rec (ss, c, cc, &k, &old, doc, logged, mk, error);
   } else if (ret == WT_NOTFOUND) {
      *dcount = 1;
      v.data = bson_get_data (doc);
      v.size = doc->len;
      cc->set_key (cc, &k);
      cc->set_value (cc, &v);
      if ((ret = cc->insert (cc)) == 0) {
         ret = lab_wt_clustered_index_write (ss, c, doc, k.data, k.size, false, mk, error);
      }
   }
   if (ret != 0) {
      s->rollback_transaction (s, NULL);
      return ret;
   }
   *dbytes += doc->len;
   return s->commit_transaction (s, NULL);
}

/* lab_wt_clustered_upsert -- see wt_private.h. */
bool
lab_wt_clustered_upsert (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, bson_error_t *error)
{
   int64_t dcount, dbytes;
   int ret, tries = 0;
   bool mk[WT_MAX_INDEXES] = { false }, logged;

   if (!doc_rid (c, doc, &ss->key, error) || !lab_wt_coll_logged (ss, c, &logged, error)) {
      return false;
   }
   while ((ret = upsert_once (ss, c, doc, logged, &dcount, &dbytes, mk, error)) == WT_ROLLBACK &&
          ++tries < WT_RETRIES) {
      usleep ((useconds_t)(tries * 100));
   }
   if (ret != 0) {
      return ret == EINVAL ? false
                           : lab_wt_fail (error, ret, "upsert into clustered '%s' (%s)", c->name, c->uri);
   }
   if (!lab_wt_index_mark_found (ss, c, mk, error)) {
      return false;
   }
   __atomic_fetch_add (&c->count, dcount, __ATOMIC_RELAXED);
   __atomic_fetch_add (&c->data_size, dbytes, __ATOMIC_RELAXED);
   return true;
}

/* key_below -- memcmp order: key < bound. */
static bool
key_below (const WT_ITEM *k, const lab_buf_t *bound)
{
   size_t n = k->size < bound->len ? k->size : bound->len;
   int cmp = memcmp (k->data, bound->data, n);

   return cmp < 0 || (cmp == 0 && k->size < bound->len);
}

/* give -- cb for the record under cc; false to stop (the callback's wish, or an error with *error). */
static bool
give (wt_store_t *st, const wt_coll_t *c, WT_CURSOR *cc, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
      bool *failed, bson_error_t *error)
{
   WT_ITEM v;
   bson_t doc;
   int ret;

   if ((ret = lab_wt_doc_value (st, cc, &v)) != 0) {
      *failed = true;
      return lab_wt_fail (error, ret, "read a record of clustered '%s'", c->name);
   }
   if (!bson_init_static (&doc, v.data, v.size)) {
      *failed = true;
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC, "a record of '%s' is not valid BSON",
                     c->name);
      return false;
   }
   (*ndocs)++;
   return cb (&doc, ctx);
}

/* lab_wt_clustered_find -- see wt_private.h: a search for eq, else a walk from lo's key (search_near)
 * while the keys are below hi's; a single bound is closed at the other end of its type bracket, as
 * lab_store_index_find's contract and a query's bounds. */
bool
lab_wt_clustered_find (wt_sess_t *ss, wt_coll_t *c, const bson_value_t *eq, const bson_value_t *lo,
                       const bson_value_t *hi, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
                       bson_error_t *error)
{
   WT_CURSOR *cc;
   WT_ITEM k;
   lab_buf_t end;
   bool failed = false;
   int ret;

   *ndocs = 0;
   lab_buf_init (&end);
   if ((eq || lo) && !rid_key (c, eq ? eq : lo, &ss->key, error)) {
      goto fail;
   }
   if (!eq && hi && !rid_key (c, hi, &end, error)) {
      goto fail;
   }
   if (!eq && (lo || hi) && !(lo && hi)) {
      /* one bound: the other end of its type bracket, as a query's bounds ({$gte: {k: 1}} is objects) */
      uint8_t first, last;
      lab_store_key_type_bracket (lo ? ss->key.data[0] : end.data[0], &first, &last);
      if (lo) {
         lab_buf_append (&end, &last, 1);
         hi = lo; /* bounded above by `end` */
      } else {
         lab_buf_reset (&ss->key);
         lab_buf_append (&ss->key, &first, 1);
         lo = hi; /* bounded below by the bracket's first byte */
      }
   }
   if (!lab_wt_get_cursor (ss, c->uri, true, &cc, error)) {
      goto fail;
   }
   k.data = ss->key.data;
   k.size = ss->key.len;
   if (eq) {
      cc->set_key (cc, &k);
      ret = cc->search (cc);
      if (ret == 0) {
         give (ss->st, c, cc, cb, ctx, ndocs, &failed, error);
      } else if (ret != WT_NOTFOUND) {
         lab_wt_fail (error, ret, "search clustered '%s' (%s)", c->name, c->uri);
         failed = true;
      }
      goto done;
   }
   if (lo) {
      cc->set_key (cc, &k);
      ret = lab_wt_search_ge (cc);
   } else {
      ret = cc->next (cc);
   }
   for (; ret == 0; ret = cc->next (cc)) {
      if ((ret = cc->get_key (cc, &k)) != 0) {
         break;
      }
      if (hi && !key_below (&k, &end)) {
         ret = WT_NOTFOUND;
         break;
      }
      if (!give (ss->st, c, cc, cb, ctx, ndocs, &failed, error)) {
         ret = WT_NOTFOUND;
         break;
      }
   }
   if (ret != WT_NOTFOUND && !failed) {
      lab_wt_fail (error, ret, "walk clustered '%s' (%s)", c->name, c->uri);
      failed = true;
   }
done:
   lab_buf_destroy (&end);
   return !failed;
fail:
   lab_buf_destroy (&end);
   return false;
}

/* lab_wt_clustered_delete -- see wt_private.h. */
bool
lab_wt_clustered_delete (wt_sess_t *ss, wt_coll_t *c, const bson_value_t *value, int64_t *deleted,
                         bson_error_t *error)
{
   WT_SESSION *s = ss->s;
   WT_CURSOR *cc;
   WT_ITEM k, v;
   int64_t len = 0;
   int ret, tries = 0;

   *deleted = 0;
   if (!rid_key (c, value, &ss->key, error) || !lab_wt_get_cursor (ss, c->uri, true, &cc, error)) {
      return false;
   }
   k.data = ss->key.data;
   k.size = ss->key.len;
   do {
      if (tries > 0) {
         usleep ((useconds_t)(tries * 100));
      }
      if ((ret = s->begin_transaction (s, NULL)) != 0) {
         break;
      }
      cc->set_key (cc, &k);
      if ((ret = cc->search (cc)) == 0 && (ret = lab_wt_doc_value (ss->st, cc, &v)) == 0) {
         bson_t od;
         len = (int64_t)v.size;
         /* its secondary index entries first, while its bytes are under the cursor */
         if (c->nindexes > 0 && bson_init_static (&od, v.data, v.size)) {
            ret = lab_wt_clustered_index_write (ss, c, &od, k.data, k.size, true, NULL, error);
         }
         if (ret == 0) {
            ret = cc->remove (cc);
         }
      }
      if (ret == 0 || ret == WT_NOTFOUND) {
         *deleted = ret == 0;
         ret = s->commit_transaction (s, NULL);
      } else {
         s->rollback_transaction (s, NULL);
      }
   } while (ret == WT_ROLLBACK && ++tries < WT_RETRIES);
   if (ret != 0) {
      *deleted = 0;
      return lab_wt_fail (error, ret, "delete from clustered '%s' (%s)", c->name, c->uri);
   }
   if (*deleted) {
      __atomic_fetch_sub (&c->count, 1, __ATOMIC_RELAXED);
      __atomic_fetch_sub (&c->data_size, len, __ATOMIC_RELAXED);
   }
   return true;
}
