/*
 * wt_record.c -- the embedded store's record store, as mongod's WiredTigerRecordStore together with
 * the index writes of each document: inserts in grouped transactions (a duplicate _id is refused by
 * WiredTiger itself, even across threads), upserts by _id, deletes and finds by an indexed value.
 * Write conflicts (WT_ROLLBACK) are retried; counts and data sizes change only after a commit.
 */
#include "wt_private.h"

#include "error.h"
#include "keyenc.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* ---- a document's entries ----------------------------------------------------------------------- */

/* doc_keys -- every index key of doc into ss->ikeys: the _id key (unique format) first, with its type
 * tag in *id_tag, then one full key (value + rid) per secondary index; offs[i]/lens[i] locate key i. */
static bool
doc_keys (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, int64_t rid, size_t *offs, size_t *lens,
          uint8_t *id_tag, bson_error_t *error)
{
   int i;

   lab_buf_reset (&ss->ikeys);
   for (i = 0; i < c->nindexes; i++) {
      bson_iter_t it;
      const bson_value_t *v;

      offs[i] = ss->ikeys.len;
      if (!lab_wt_field_value (doc, c->indexes[i].field, &it, &v, error)) {
         return false;
      }
      if (i == 0) {
         if (!lab_store_key_encode_unique (v, &ss->ikeys, id_tag, error)) {
            return false;
         }
      } else {
         if (!lab_store_key_encode (v, &ss->ikeys, error)) {
            return false;
         }
         lab_store_key_append_recordid (&ss->ikeys, rid);
      }
      lens[i] = ss->ikeys.len - offs[i];
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

/* put_doc -- doc's _id entry (RecordId + type tag), its record and its secondary entries, inside the
 * caller's transaction, from the keys doc_keys left in ss->ikeys. 0 or a WT error; WT_DUPLICATE_KEY
 * (from an overwrite=false _id cursor) comes before anything is written. */
static int
put_doc (wt_sess_t *ss, wt_coll_t *c, WT_CURSOR *cc, WT_CURSOR *const *ic, const bson_t *doc, int64_t rid,
         uint8_t tag, const size_t *offs, const size_t *lens)
{
   WT_ITEM k, v, empty = { 0 };
   int ret, j;

   lab_buf_reset (&ss->val);
   lab_store_key_unique_value (&ss->val, rid, tag);
   k.data = ss->ikeys.data + offs[0];
   k.size = lens[0];
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
   for (j = 1; j < c->nindexes; j++) {
      k.data = ss->ikeys.data + offs[j];
      k.size = lens[j];
      ic[j]->set_key (ic[j], &k);
      ic[j]->set_value (ic[j], &empty);
      if ((ret = ic[j]->insert (ic[j])) != 0) {
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
   size_t offs[WT_MAX_INDEXES], lens[WT_MAX_INDEXES];
   uint8_t tag;
   WT_ITEM v, k;
   bson_t doc;
   int ret, j;

   if (!lab_wt_get_cursor (ss, c->uri, true, &cc, error)) {
      return EINVAL;
   }
   cc->set_key (cc, rid);
   if ((ret = cc->search (cc)) != 0) {
      return ret;
   }
   if ((ret = cc->get_value (cc, &v)) != 0) {
      return ret;
   }
   if (!bson_init_static (&doc, v.data, v.size) || !doc_keys (ss, c, &doc, rid, offs, lens, &tag, error)) {
      return EINVAL;
   }
   *len = (int64_t)v.size;
   for (j = 0; j < c->nindexes; j++) {
      if (!lab_wt_get_cursor (ss, c->indexes[j].uri, true, &ic, error)) {
         return EINVAL;
      }
      k.data = ss->ikeys.data + offs[j];
      k.size = lens[j];
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
            int64_t first, lab_store_insert_result_t *result, bool *added)
{
   size_t offs[WT_MAX_INDEXES], lens[WT_MAX_INDEXES];
   int64_t rid =
      first >= 0 ? first + (int64_t)orig + 1 : __atomic_fetch_add (&c->next_rid, 1, __ATOMIC_RELAXED);
   bson_error_t kerr;
   uint8_t tag = 0;
   int ret;

   *added = false;
   if (!doc_keys (ss, c, doc, rid, offs, lens, &tag, &kerr)) {
      refuse_keys (result, orig, c, doc, &kerr);
      return 0;
   }
   ret = put_doc (ss, c, cc, ic, doc, rid, tag, offs, lens);
   if (ret == WT_DUPLICATE_KEY) {
      refuse_dup (result, orig, c, doc);
      return 0;
   }
   *added = ret == 0;
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
   if (!get_cursors (ss, c, false, first < 0, &cc, ic, error)) {
      return EINVAL;
   }
   if ((ret = s->begin_transaction (s, NULL)) != 0) {
      lab_wt_fail (error, ret, "begin transaction on '%s'", c->name);
      return ret;
   }
   for (i = 0; i < n; i++) {
      if ((ret = insert_doc (ss, c, cc, ic, docs[i], orig[i], first, result, &added)) != 0) {
         if (ret == EEXIST) {
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

/* upsert_once -- one transaction of upsert_by_id; 0 or a WT error (WT_ROLLBACK: retry; EINVAL: *error
 * set). */
static int
upsert_once (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, const lab_buf_t *body, int64_t *dcount,
             int64_t *dbytes, bson_error_t *error)
{
   WT_SESSION *s = ss->s;
   WT_CURSOR *cc, *ic[WT_MAX_INDEXES];
   size_t offs[WT_MAX_INDEXES], lens[WT_MAX_INDEXES];
   int64_t rid, oldlen = 0;
   uint8_t tag;
   int ret;

   *dcount = *dbytes = 0;
   if (!get_cursors (ss, c, true, true, &cc, ic, error)) {
      return EINVAL;
   }
   if ((ret = s->begin_transaction (s, NULL)) != 0) {
      return ret;
   }
   if ((ret = lab_wt_lookup_id (ss, ic[0], body, &rid)) != 0) {
      goto fail;
   }
   if (rid) {
      if ((ret = remove_doc (ss, c, rid, &oldlen, error)) != 0) {
         goto fail;
      }
   } else {
      rid = __atomic_fetch_add (&c->next_rid, 1, __ATOMIC_RELAXED);
      *dcount = 1;
   }
   if (!doc_keys (ss, c, doc, rid, offs, lens, &tag, error)) {
      ret = EINVAL;
      goto fail;
   }
   if ((ret = put_doc (ss, c, cc, ic, doc, rid, tag, offs, lens)) != 0) {
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
   if (!lab_wt_rids_eq (ss, coll, field, value, &c, error)) {
      goto done;
   }
   ok = delete_rids (ss, c, field, deleted, error);
done:
   lab_wt_reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* ---- finds -------------------------------------------------------------------------------------- */

/* lab_wt_find_eq -- cb for every document whose indexed `field` equals value, in RecordId order of the
 * index entries (deleted since the index was read: skipped). */
bool
lab_wt_find_eq (lab_store_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
                lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   WT_CURSOR *cc;
   bool ok = false;
   size_t i;
   int ret;

   *ndocs = 0;
   pthread_rwlock_rdlock (&st->ddl);
   if (!lab_wt_rids_eq (ss, coll, field, value, &c, error) ||
       !lab_wt_get_cursor (ss, c->uri, true, &cc, error)) {
      goto done;
   }
   for (i = 0; i < ss->nrids; i++) {
      WT_ITEM v;
      bson_t doc;

      cc->set_key (cc, ss->rids[i]);
      ret = cc->search (cc);
      if (ret == WT_NOTFOUND) {
         continue; /* deleted since the index was read */
      }
      if (ret != 0 || (ret = cc->get_value (cc, &v)) != 0) {
         lab_wt_fail (error, ret, "fetch record %" PRId64 " of '%s' (%s)", ss->rids[i], coll, c->uri);
         goto done;
      }
      if (!bson_init_static (&doc, v.data, v.size)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "record %" PRId64 " of '%s' is not valid BSON", ss->rids[i], coll);
         goto done;
      }
      (*ndocs)++;
      if (!cb (&doc, ctx)) {
         break;
      }
   }
   ok = true;
done:
   lab_wt_reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}
