/*
 * wt_record.c -- the embedded store's record store, as mongod's WiredTigerRecordStore together with
 * the index writes of each document: inserts in grouped transactions (a duplicate _id is refused by
 * WiredTiger itself, even across threads), upserts by _id, deletes and finds by an indexed value.
 * Write conflicts (WT_ROLLBACK) are retried; counts and data sizes change only after a commit.
 */
#include "wt_private.h"

#include "core/error.h"
#include "keyenc.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* ---- a document's entries ----------------------------------------------------------------------- */

/* doc_keys -- every index entry of doc into ss->ikeys, located by ss->ik: the _id key (unique format)
 * first, with its type tag in *id_tag, then every distinct key (values + rid) of every secondary index
 * (a multikey index has one per distinct array element: lab_wt_index_keys); mk[i] set when the document
 * makes index i multikey (NULL: not asked, a removal). */
static bool
doc_keys (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, int64_t rid, uint8_t *id_tag, bool *mk,
          bson_error_t *error)
{
   bson_iter_t it;
   const bson_value_t *v;
   bool ignored;
   int i;

   lab_buf_reset (&ss->ikeys);
   ss->ik.n = 0;
   if (!lab_wt_field_value (doc, "_id", &it, &v, error) ||
       !lab_store_key_encode_unique (v, &ss->ikeys, id_tag, error)) {
      return false;
   }
   lab_wt_ikeys_push (&ss->ik, 0, 0, ss->ikeys.len);
   for (i = 1; i < c->nindexes; i++) {
      if (mk) {
         mk[i] = false;
      }
      if (!lab_wt_index_keys (&c->indexes[i], i, doc, rid, &ss->ikeys, &ss->ik, mk ? &mk[i] : &ignored,
                              error)) {
         return false;
      }
   }
   return true;
}

/* get_cursors -- the session's cached cursors on c's table (*cc) and indexes (ic[0] the _id index,
 * opened with overwrite=false for inserts so that an existing _id is refused; the table's cursor too
 * when !rec_overwrite, for inserts at given RecordIds). */
static bool
get_cursors (wt_sess_t *ss, wt_coll_t *c, bool id_overwrite, bool rec_overwrite, WT_CURSOR **cc,
             WT_CURSOR **ic, bson_error_t *error)
{
   int j;

   if (!lab_wt_get_cursor (ss, c->uri, rec_overwrite, cc, error) ||
       !lab_wt_get_cursor (ss, c->indexes[0].uri, id_overwrite, &ic[0], error)) {
      return false;
   }
   for (j = 1; j < c->nindexes; j++) {
      if (!lab_wt_get_cursor (ss, c->indexes[j].uri, true, &ic[j], error)) {
         return false;
      }
   }
   return true;
}

/* put_doc -- doc's _id entry (RecordId + type tag), its record and its secondary entries (each valued
 * with its key's TypeBits: lab_wt_index_entry_put), inside the
 * caller's transaction, from the keys doc_keys left in ss->ikeys / ss->ik. 0 or a WT error;
 * WT_DUPLICATE_KEY (from an overwrite=false _id cursor) comes before anything is written. */
static int
put_doc (wt_sess_t *ss, const wt_coll_t *c, WT_CURSOR *cc, WT_CURSOR *const *ic, const bson_t *doc,
         int64_t rid, uint8_t tag)
{
   WT_ITEM k, v;
   size_t j;
   int ret;

   lab_buf_reset (&ss->val);
   lab_store_key_unique_value (&ss->val, rid, tag);
   k.data = ss->ikeys.data + ss->ik.v[0].off;
   k.size = ss->ik.v[0].len;
   v.data = ss->val.data;
   v.size = ss->val.len;
   ic[0]->set_key (ic[0], &k);
   ic[0]->set_value (ic[0], &v);
   if ((ret = ic[0]->insert (ic[0])) != 0) {
      return ret;
   }
   v.data = bson_get_data (doc);
   v.size = doc->len;
   cc->set_key (cc, rid);
   cc->set_value (cc, &v);
   if ((ret = cc->insert (cc)) != 0) {
      /* a taken RecordId (inserts at given positions) is not a duplicate _id: the batch fails */
      return ret == WT_DUPLICATE_KEY ? EEXIST : ret;
   }
   for (j = 1; j < ss->ik.n; j++) {
      if ((ret = lab_wt_index_entry_put (ic[ss->ik.v[j].ix], &ss->ik.v[j], ss->ikeys.data)) != 0) {
         return ret;
      }
   }
   return 0;
}

/* remove_doc -- remove a record and its index entries, inside the caller's transaction; *len gets the
 * document's size. WT_NOTFOUND when the record is gone; EINVAL with *error set. */
static int
remove_doc (wt_sess_t *ss, wt_coll_t *c, int64_t rid, int64_t *len, bson_error_t *error)
{
   WT_CURSOR *cc, *ic;
   uint8_t tag;
   WT_ITEM v, k;
   bson_t doc;
   size_t j;
   int ret;

   if (!lab_wt_get_cursor (ss, c->uri, true, &cc, error)) {
      return EINVAL;
   }
   cc->set_key (cc, rid);
   if ((ret = cc->search (cc)) != 0) {
      return ret;
   }
   if ((ret = lab_wt_doc_value (ss->st, cc, &v)) != 0) {
      return ret;
   }
   if (!bson_init_static (&doc, v.data, v.size) || !doc_keys (ss, c, &doc, rid, &tag, NULL, error)) {
      return EINVAL;
   }
   *len = (int64_t)v.size;
   for (j = 0; j < ss->ik.n; j++) {
      if (!lab_wt_get_cursor (ss, c->indexes[ss->ik.v[j].ix].uri, true, &ic, error)) {
         return EINVAL;
      }
      k.data = ss->ikeys.data + ss->ik.v[j].off;
      k.size = ss->ik.v[j].len;
      ic->set_key (ic, &k);
      ret = ic->remove (ic);
      if (ret != 0 && ret != WT_NOTFOUND) {
         return ret;
      }
   }
   cc->set_key (cc, rid);
   return cc->remove (cc);
}

/* ---- inserts ------------------------------------------------------------------------------------ */

/* refuse_keys -- record in result that document i of the batch has no valid index keys. */
static void
refuse_keys (lab_store_insert_result_t *result, size_t orig, wt_coll_t *c, const bson_t *doc,
             const bson_error_t *kerr)
{
   bson_iter_t it;
   char vs[96] = "none";

   if (bson_iter_init_find (&it, doc, "_id")) {
      lab_value_text (bson_iter_value (&it), vs, sizeof vs);
   }
   lab_store_insert_result_add_error (result, orig, LAB_ERROR_STORE, kerr->code,
                                      "collection '%s', document _id %s: %s", c->name, vs, kerr->message);
}

/* refuse_dup -- record in result mongod's E11000 for a document whose _id exists. */
static void
refuse_dup (lab_store_insert_result_t *result, size_t orig, wt_coll_t *c, const bson_t *doc)
{
   bson_iter_t it;
   char vs[128] = "?";

   if (bson_iter_init_find (&it, doc, "_id")) {
      lab_value_text (bson_iter_value (&it), vs, sizeof vs);
   }
   lab_store_insert_result_add_error (
      result, orig, LAB_ERROR_STORE, LAB_STORE_ERR_DUPLICATE_KEY,
      "E11000 duplicate key error collection: %s index: _id_ dup key: { _id: %s }", c->name, vs);
}

/* insert_doc -- one document inside the group's transaction, at RecordId first + orig + 1 (first >= 0)
 * or the next free one: 0 with *added, 0 without when the document is refused (recorded in result), or
 * a WT error (EEXIST: the given RecordId is taken). */
static int
insert_doc (wt_sess_t *ss, wt_coll_t *c, WT_CURSOR *cc, WT_CURSOR *const *ic, const bson_t *doc, size_t orig,
            int64_t first, lab_store_insert_result_t *result, bool *added, bson_error_t *error)
{
   bool mk[WT_MAX_INDEXES];
   int64_t rid =
      first >= 0 ? first + (int64_t)orig + 1 : __atomic_fetch_add (&c->next_rid, 1, __ATOMIC_RELAXED);
   bson_error_t kerr;
   uint8_t tag = 0;
   int ret;

   *added = false;
   if (!doc_keys (ss, c, doc, rid, &tag, mk, &kerr)) {
      refuse_keys (result, orig, c, doc, &kerr);
      return 0;
   }
   if (!lab_wt_index_mark_found (ss, c, mk, error)) {
      return EINVAL;
   }
   ret = put_doc (ss, c, cc, ic, doc, rid, tag);
   if (ret == WT_DUPLICATE_KEY) {
      refuse_dup (result, orig, c, doc);
      return 0;
   }
   *added = ret == 0;
   if (*added && c->collect) {
      lab_wt_collect_doc (ss, c, doc, rid);
   }
   return ret;
}

/* insert_group -- one transaction: up to WT_GROUP_DOCS documents. Returns 0, WT_ROLLBACK (retry the
 * group) or another WT error (with *error set). */
static int
insert_group (wt_sess_t *ss, wt_coll_t *c, const bson_t *const *docs, const size_t *orig, size_t n,
              int64_t first, lab_store_insert_result_t *result, int64_t *inserted, int64_t *bytes,
              bson_error_t *error)
{
   WT_CURSOR *cc, *ic[WT_MAX_INDEXES];
   WT_SESSION *s = ss->s;
   bool added;
   size_t i;
   int ret;

   *inserted = *bytes = 0;
   lab_wt_collect_abort (ss);
   if (!get_cursors (ss, c, false, first < 0, &cc, ic, error)) {
      return EINVAL;
   }
   if ((ret = s->begin_transaction (s, NULL)) != 0) {
      lab_wt_fail (error, ret, "begin transaction on '%s'", c->name);
      return ret;
   }
   for (i = 0; i < n; i++) {
      if ((ret = insert_doc (ss, c, cc, ic, docs[i], orig[i], first, result, &added, error)) != 0) {
         if (ret == EINVAL) {
            /* *error set */
         } else if (ret == EEXIST) {
            lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                           "insert into '%s': RecordId %" PRId64 " is taken (positions given twice?)",
                           c->name, first + (int64_t)orig[i] + 1);
         } else if (ret != WT_ROLLBACK) {
            lab_wt_fail (error, ret, "insert into '%s' (%s)", c->name, c->uri);
         }
         s->rollback_transaction (s, NULL);
         return ret;
      }
      if (added) {
         (*inserted)++;
         *bytes += docs[i]->len;
      }
   }
   if ((ret = s->commit_transaction (s, NULL)) != 0) {
      lab_wt_fail (error, ret, "commit inserts into '%s'", c->name);
      return ret;
   }
   if (c->collect) {
      lab_wt_collect_commit (ss, c);
   }
   return 0;
}

/* lab_wt_insert_many -- the documents in groups of WT_GROUP_DOCS / WT_GROUP_BYTES, one transaction
 * each, a group retried from scratch after a write conflict. */
bool
lab_wt_insert_many (lab_store_session_t *sess, const char *coll, const bson_t *const *docs,
                    const size_t *orig, size_t n, int64_t first, lab_store_insert_result_t *result,
                    bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   size_t pos = 0;
   bool ok = false;

   if (!(c = lab_wt_coll_get_or_create (ss, coll, error))) {
      return false;
   }
   pthread_rwlock_rdlock (&st->ddl);
   if (c->clustered) {
      ok = lab_wt_clustered_insert (ss, c, docs, orig, n, result, error);
      goto done;
   }
   while (pos < n) {
      size_t g = 0, gbytes = 0, nerr0 = result->nerrors;
      int64_t ins, bytes;
      int ret, tries = 0;

      while (pos + g < n && g < WT_GROUP_DOCS && gbytes < WT_GROUP_BYTES) {
         gbytes += docs[pos + g]->len;
         g++;
      }
      for (;;) {
         ret = insert_group (ss, c, docs + pos, orig + pos, g, first, result, &ins, &bytes, error);
         if (ret != WT_ROLLBACK || ++tries > WT_RETRIES) {
            break;
         }
         result->nerrors = nerr0; /* the group is retried from scratch */
         usleep ((useconds_t)(tries * 100));
      }
      if (ret == WT_ROLLBACK) {
         lab_wt_fail (error, ret, "insert into '%s': write conflicts persisted after %d retries", coll,
                      WT_RETRIES);
      }
      if (ret != 0) {
         goto done;
      }
      __atomic_fetch_add (&c->count, ins, __ATOMIC_RELAXED);
      __atomic_fetch_add (&c->data_size, bytes, __ATOMIC_RELAXED);
      result->inserted += ins;
      pos += g;
   }
   if (first >= 0) {
      /* later appends go after the highest RecordId given */
      int64_t want = first + (int64_t)orig[n - 1] + 2, cur = __atomic_load_n (&c->next_rid, __ATOMIC_RELAXED);
      while (cur < want && !__atomic_compare_exchange_n (&c->next_rid, &cur, want, true, __ATOMIC_RELAXED,
                                                         __ATOMIC_RELAXED)) {
      }
   }
   ok = true;
done:
   lab_wt_reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* ---- upserts ------------------------------------------------------------------------------------ */

/* replace_doc -- the document at rid replaced by doc, as mongod's update does: only the index entries
 * that change are removed and inserted (lab_wt_index_update_keys; the _id entry stays), and the record
 * written by lab_wt_record_update with the table's own logging setting (lab_wt_coll_logged: a logged
 * table gets the whole document, an unlogged one may get a modify). *oldlen gets the old size. 0 or a WT
 * error (EINVAL: *error). */
static int
replace_doc (wt_sess_t *ss, wt_coll_t *c, WT_CURSOR *cc, const bson_t *doc, int64_t rid, bool logged,
             bool *mk, int64_t *oldlen, bson_error_t *error)
{
   WT_ITEM old, nv;
   wt_ikeys_t oldk = { 0 };
   uint8_t *oldbuf = NULL, tag;
   bson_t od;
   bool modified;
   int ret;

   cc->set_key (cc, rid);
   if ((ret = cc->search (cc)) != 0 || (ret = lab_wt_doc_value (ss->st, cc, &old)) != 0) {
      return ret;
   }
   *oldlen = (int64_t)old.size;
   if (!bson_init_static (&od, old.data, old.size) || !doc_keys (ss, c, &od, rid, &tag, NULL, error)) {
      return EINVAL;
   }
   /* the old keys kept aside: doc_keys of the new document reuses the session's scratch */
   lab_wt_ikeys_save (ss, &oldk, &oldbuf);
   nv.data = bson_get_data (doc);
   nv.size = doc->len;
   if ((ret = lab_wt_record_update (ss->s, cc, logged, &old, &nv, &modified)) != 0) {
      goto done;
   }
   if (!doc_keys (ss, c, doc, rid, &tag, mk, error) || !lab_wt_index_mark_found (ss, c, mk, error)) {
      ret = EINVAL;
      goto done;
   }
   ret = lab_wt_index_update_keys (ss, c, &oldk, oldbuf, 1, error);
done:
   bson_free (oldk.v);
   bson_free (oldbuf);
   return ret;
}

/* upsert_once -- one transaction of upsert_by_id; 0 or a WT error (WT_ROLLBACK: retry; EINVAL: *error
 * set). */
static int
upsert_once (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, const lab_buf_t *body, int64_t *dcount,
             int64_t *dbytes, bson_error_t *error)
{
   WT_SESSION *s = ss->s;
   WT_CURSOR *cc, *ic[WT_MAX_INDEXES];
   bool mk[WT_MAX_INDEXES];
   int64_t rid, oldlen = 0;
   uint8_t tag;
   bool logged;
   int ret;

   *dcount = *dbytes = 0;
   if (!get_cursors (ss, c, true, true, &cc, ic, error) || !lab_wt_coll_logged (ss, c, &logged, error)) {
      return EINVAL;
   }
   if ((ret = s->begin_transaction (s, NULL)) != 0) {
      return ret;
   }
   if ((ret = lab_wt_lookup_id (ss, ic[0], body, &rid)) != 0) {
      goto fail;
   }
   if (rid) {
      if ((ret = replace_doc (ss, c, cc, doc, rid, logged, mk, &oldlen, error)) != 0) {
         goto fail;
      }
      *dbytes = (int64_t)doc->len - oldlen;
      return s->commit_transaction (s, NULL);
   }
   rid = __atomic_fetch_add (&c->next_rid, 1, __ATOMIC_RELAXED);
   *dcount = 1;
   if (!doc_keys (ss, c, doc, rid, &tag, mk, error) || !lab_wt_index_mark_found (ss, c, mk, error)) {
      ret = EINVAL;
      goto fail;
   }
   if ((ret = put_doc (ss, c, cc, ic, doc, rid, tag)) != 0) {
      goto fail;
   }
   *dbytes = (int64_t)doc->len - oldlen;
   return s->commit_transaction (s, NULL);
fail:
   s->rollback_transaction (s, NULL);
   return ret;
}

/* lab_wt_upsert_by_id -- replace the document with doc's _id, or insert it. */
bool
lab_wt_upsert_by_id (lab_store_session_t *sess, const char *coll, const bson_t *doc, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   bson_iter_t it;
   lab_buf_t body;
   wt_coll_t *c;
   int64_t dcount, dbytes;
   bool ok = false;
   int ret, tries = 0;

   lab_buf_init (&body);
   if (!(c = lab_wt_coll_get_or_create (ss, coll, error))) {
      return false;
   }
   pthread_rwlock_rdlock (&st->ddl);
   lab_wt_collect_invalidate (c); /* (a replacement changes keys the load kept) */
   if (c->clustered) {
      ok = lab_wt_clustered_upsert (ss, c, doc, error);
      goto done;
   }
   if (!bson_iter_init_find (&it, doc, "_id") ||
       !lab_wt_encode_body (bson_iter_value (&it), &body, coll, "_id", error)) {
      goto done;
   }
   while ((ret = upsert_once (ss, c, doc, &body, &dcount, &dbytes, error)) == WT_ROLLBACK &&
          ++tries < WT_RETRIES) {
      usleep ((useconds_t)(tries * 100));
   }
   if (ret != 0) {
      if (ret != EINVAL) {
         lab_wt_fail (error, ret, "upsert into '%s' (%s)", coll, c->uri);
      } else {
         lab_error_prefix (error, "upsert into '%s'", coll);
      }
      goto done;
   }
   __atomic_fetch_add (&c->count, dcount, __ATOMIC_RELAXED);
   __atomic_fetch_add (&c->data_size, dbytes, __ATOMIC_RELAXED);
   ok = true;
done:
   lab_wt_reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   lab_buf_destroy (&body);
   return ok;
}

/* clustered_id -- the collection `coll` when it is clustered and `field` is _id (its records are found by
 * their key: wt_clustered.c), else NULL (caller holds ddl for reading). */
static wt_coll_t *
clustered_id (wt_store_t *st, const char *coll, const char *field)
{
   wt_coll_t *c;

   pthread_mutex_lock (&st->mu);
   c = lab_wt_coll_find (st, coll);
   pthread_mutex_unlock (&st->mu);
   return c && c->clustered && strcmp (field, "_id") == 0 ? c : NULL;
}

/* ---- deletes ------------------------------------------------------------------------------------ */

/* delete_once -- one transaction removing the records ss->rids[pos .. pos+g); *n and *bytes get what
 * it removed. 0, WT_ROLLBACK (retry) or an error (EINVAL: *error set). */
static int
delete_once (wt_sess_t *ss, wt_coll_t *c, size_t pos, size_t g, int64_t *n, int64_t *bytes,
             bson_error_t *error)
{
   WT_SESSION *s = ss->s;
   int64_t len;
   size_t i;
   int ret;

   *n = *bytes = 0;
   if ((ret = s->begin_transaction (s, NULL)) != 0) {
      lab_wt_fail (error, ret, "begin transaction on '%s'", c->name);
      return EINVAL;
   }
   for (i = pos; i < pos + g; i++) {
      ret = remove_doc (ss, c, ss->rids[i], &len, error);
      if (ret == WT_NOTFOUND) {
         continue;
      }
      if (ret != 0) {
         break;
      }
      (*n)++;
      *bytes += len;
   }
   if (ret == 0 || ret == WT_NOTFOUND) {
      return s->commit_transaction (s, NULL);
   }
   s->rollback_transaction (s, NULL);
   return ret;
}

/* delete_rids -- remove every record of ss->rids, WT_GROUP_DOCS per transaction; *deleted counts them. */
static bool
delete_rids (wt_sess_t *ss, wt_coll_t *c, const char *field, int64_t *deleted, bson_error_t *error)
{
   size_t pos = 0;

   while (pos < ss->nrids) {
      size_t g = ss->nrids - pos < WT_GROUP_DOCS ? ss->nrids - pos : WT_GROUP_DOCS;
      int64_t n = 0, bytes = 0;
      int ret, tries = 0;

      while ((ret = delete_once (ss, c, pos, g, &n, &bytes, error)) == WT_ROLLBACK && ++tries < WT_RETRIES) {
         usleep ((useconds_t)(tries * 100));
      }
      if (ret != 0) {
         if (ret != EINVAL) {
            lab_wt_fail (error, ret, "delete from '%s' where %s matches", c->name, field);
         }
         return false;
      }
      __atomic_fetch_sub (&c->count, n, __ATOMIC_RELAXED);
      __atomic_fetch_sub (&c->data_size, bytes, __ATOMIC_RELAXED);
      *deleted += n;
      pos += g;
   }
   return true;
}

/* lab_wt_delete_eq -- remove every document whose indexed `field` equals value. */
bool
lab_wt_delete_eq (lab_store_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
                  int64_t *deleted, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   bool ok = false;

   *deleted = 0;
   pthread_rwlock_rdlock (&st->ddl);
   if ((c = clustered_id (st, coll, field)) != NULL) {
      ok = lab_wt_clustered_delete (ss, c, value, deleted, error);
      goto done;
   }
   if (!lab_wt_rids_eq (ss, coll, field, value, &c, error)) {
      goto done;
   }
   lab_wt_collect_invalidate (c);
   ok = delete_rids (ss, c, field, deleted, error);
done:
   lab_wt_reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* ---- finds -------------------------------------------------------------------------------------- */

/* fetch_rids -- FETCH: cb for the record of each RecordId in ss->rids, in that order (deleted since the
 * index was read: skipped); *ndocs counts the documents given to cb. */
static bool
fetch_rids (wt_sess_t *ss, wt_coll_t *c, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
            bson_error_t *error)
{
   WT_CURSOR *cc;
   size_t i;
   int ret;

   if (!lab_wt_get_cursor (ss, c->uri, true, &cc, error)) {
      return false;
   }
   for (i = 0; i < ss->nrids; i++) {
      WT_ITEM v;
      bson_t doc;

      cc->set_key (cc, ss->rids[i]);
      ret = cc->search (cc);
      if (ret == WT_NOTFOUND) {
         continue; /* deleted since the index was read */
      }
      if (ret != 0 || (ret = lab_wt_doc_value (ss->st, cc, &v)) != 0) {
         return lab_wt_fail (error, ret, "fetch record %" PRId64 " of '%s' (%s)", ss->rids[i], c->name,
                             c->uri);
      }
      if (!bson_init_static (&doc, v.data, v.size)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "record %" PRId64 " of '%s' is not valid BSON", ss->rids[i], c->name);
         return false;
      }
      (*ndocs)++;
      if (!cb (&doc, ctx)) {
         break;
      }
   }
   return true;
}

/* lab_wt_find_eq -- cb for every document whose indexed `field` equals value, in RecordId order of the
 * index entries (deleted since the index was read: skipped). */
bool
lab_wt_find_eq (lab_store_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
                lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   bool ok = false;

   *ndocs = 0;
   pthread_rwlock_rdlock (&st->ddl);
   if ((c = clustered_id (st, coll, field)) != NULL) {
      ok = lab_wt_clustered_find (ss, c, value, NULL, NULL, cb, ctx, ndocs, error);
      goto done;
   }
   pthread_mutex_lock (&st->mu);
   c = lab_wt_coll_find (st, coll);
   pthread_mutex_unlock (&st->mu);
   if (c && c->clustered) {
      /* a secondary index of a clustered collection: its entries end in string RecordIds */
      lab_store_index_spec_t spec = { { field }, 1 };
      int64_t keys;
      pthread_rwlock_unlock (&st->ddl);
      return lab_wt_index_find (sess, coll, &spec, value, 1, NULL, NULL, cb, ctx, &keys, ndocs, error);
   }
   if (!lab_wt_rids_eq (ss, coll, field, value, &c, error)) {
      goto done;
   }
   ok = fetch_rids (ss, c, cb, ctx, ndocs, error);
done:
   lab_wt_reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* index_bounds -- the keys [start, end) of the entries with eq[0..neq) on the first fields and, with a
 * range, field neq in [lo, hi): start = the eq bodies + lo's body (or, without lo, the first CType of hi's
 * type bracket), end = the eq bodies + hi's body (or the end of lo's bracket; with neither, 0xFF: no
 * body starts with it, and a string continued by an escaped NUL, 0x00 0xFF, is not the prefix's string).
 * Bodies are self-delimiting, so memcmp order is MongoDB order (keyenc.h). *empty: lo and hi are in
 * different type brackets (mongod's bounds intersect to nothing). */
static bool
index_bounds (const char *coll, const char *name, const bson_value_t *eq, int neq, const bson_value_t *lo,
              const bson_value_t *hi, lab_buf_t *start, lab_buf_t *end, bool *empty, bson_error_t *error)
{
   uint8_t lo_first = 0, lo_end = 0, hi_first = 0, hi_end = 0, ff = 0xFF;
   int i;

   *empty = false;
   lab_buf_reset (start);
   for (i = 0; i < neq; i++) {
      if (!lab_store_key_encode_body (&eq[i], start, error)) {
         lab_error_prefix (error, "search index %s of '%s' (value %d)", name, coll, i + 1);
         return false;
      }
   }
   lab_buf_reset (end);
   lab_buf_append (end, start->data, start->len);
   if (lo) {
      size_t at = start->len;
      if (!lab_store_key_encode_body (lo, start, error)) {
         lab_error_prefix (error, "search index %s of '%s' (lower bound)", name, coll);
         return false;
      }
      lab_store_key_type_bracket (start->data[at], &lo_first, &lo_end);
   }
   if (hi) {
      size_t at = end->len;
      if (!lab_store_key_encode_body (hi, end, error)) {
         lab_error_prefix (error, "search index %s of '%s' (upper bound)", name, coll);
         return false;
      }
      lab_store_key_type_bracket (end->data[at], &hi_first, &hi_end);
   }
   if (lo && hi) {
      *empty = lo_first != hi_first;
   } else if (lo) {
      lab_buf_append (end, &lo_end, 1);
   } else if (hi) {
      lab_buf_append (start, &hi_first, 1);
   } else {
      lab_buf_append (end, &ff, 1);
   }
   return true;
}

/* lab_wt_index_find -- IXSCAN of the index with spec's key pattern over the bounds (index_bounds), its
 * RecordIds each once on a multikey index, then FETCH in that order. */
bool
lab_wt_index_find (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                   const bson_value_t *eq, int neq, const bson_value_t *lo, const bson_value_t *hi,
                   lab_store_doc_cb_t cb, void *ctx, int64_t *keys_examined, int64_t *docs_fetched,
                   bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   wt_index_t *ix;
   lab_buf_t end;
   char name[256];
   bool ok = false, empty;
   int ret;

   *keys_examined = *docs_fetched = 0;
   lab_buf_init (&end);
   lab_store_index_spec_name (spec, name, sizeof name);
   pthread_rwlock_rdlock (&st->ddl);
   if (!(c = lab_wt_coll_lookup (st, coll, error))) {
      goto done;
   }
   if (c->clustered && spec->n == 1 && strcmp (spec->fields[0], "_id") == 0) {
      /* the clustered index is the record table: a bounded walk of it (CLUSTERED_IXSCAN), no fetch */
      ok = lab_wt_clustered_find (ss, c, neq ? &eq[0] : NULL, lo, hi, cb, ctx, docs_fetched, error);
      *keys_examined = *docs_fetched;
      goto done;
   }
   if (!(ix = lab_wt_coll_index_spec (c, spec))) {
      char *shell = lab_store_index_spec_shell (coll, spec);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
                     "collection '%s' in wiredtiger:%s has no index %s: create it (%s)", coll, st->home, name,
                     shell);
      bson_free (shell);
      goto done;
   }
   if (!index_bounds (coll, name, eq, neq, lo, hi, &ss->body, &end, &empty, error)) {
      goto done;
   }
   if (c->clustered) {
      ok = empty || lab_wt_clustered_index_find (ss, c, ix, &ss->body, &end, cb, ctx, keys_examined,
                                                 docs_fetched, error);
      goto done;
   }
   ss->nrids = 0;
   if (!empty && (ret = lab_wt_index_scan (ss, c, ix, &ss->body, &end, keys_examined, error)) != 0) {
      if (ret != EINVAL) {
         lab_wt_fail (error, ret, "scan index %s of '%s' (%s)", name, coll, ix->uri);
      }
      goto done;
   }
   ok = fetch_rids (ss, c, cb, ctx, docs_fetched, error);
done:
   lab_wt_reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   lab_buf_destroy (&end);
   return ok;
}
