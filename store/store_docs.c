/* store_docs.c -- the store interface's documents (store.h): by `_id`, counts and stats, inserts with the
 * per-document size cap and `_id` assignment, upserts, deletes, flushes. */
#include "store_impl.h"

#include "core/error.h"

#include <stdio.h>
#include <string.h>

typedef struct {
   bson_t *doc;
} find_id_t;

/* keep_first -- a find callback: copy the (only) document and stop. */
static bool
keep_first (const bson_t *doc, void *ctx)
{
   find_id_t *f = ctx;

   if (!f->doc) {
      f->doc = bson_copy (doc);
   }
   return false;
}

/* lab_store_find_id -- see store.h: one indexed find (a missing collection says so itself). */
bool
lab_store_find_id (lab_store_session_t *sess, const char *coll, const char *id, bson_t **doc,
                   bson_error_t *error)
{
   find_id_t f = { NULL };
   bson_value_t v;

   *doc = NULL;
   v.value_type = BSON_TYPE_UTF8;
   v.value.v_utf8.str = (char *)id;
   v.value.v_utf8.len = (uint32_t)strlen (id);
   if (!lab_store_find_eq (sess, coll, "_id", &v, keep_first, &f, NULL, error)) {
      bson_destroy (f.doc);
      if (lab_error_is (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION)) {
         memset (error, 0, sizeof *error);
         return true;
      }
      return false;
   }
   *doc = f.doc;
   return true;
}

bool
lab_store_count (lab_store_session_t *sess, const char *coll, int64_t *count, bson_error_t *error)
{
   return lab_store_coll_check (coll, error) && sess->store->ops->count (sess, coll, count, error);
}

/* lab_store_count_estimated -- the backend's metadata count, else its exact count. */
bool
lab_store_count_estimated (lab_store_session_t *sess, const char *coll, int64_t *count, bson_error_t *error)
{
   const lab_store_ops_t *ops = sess->store->ops;

   if (!lab_store_coll_check (coll, error)) {
      return false;
   }
   return ops->count_estimated ? ops->count_estimated (sess, coll, count, error)
                               : ops->count (sess, coll, count, error);
}

bool
lab_store_stats (lab_store_session_t *sess, const char *coll, lab_store_coll_stats_t *st, bson_error_t *error)
{
   memset (st, 0, sizeof *st);
   return lab_store_coll_check (coll, error) && sess->store->ops->stats (sess, coll, st, error);
}

/* lab_store_insert_many -- see store.h. */
bool
lab_store_insert_many (lab_store_session_t *sess, const char *coll, const bson_t *const *docs, size_t n,
                       lab_store_insert_result_t *result, bson_error_t *error)
{
   return lab_store_insert_many_at (sess, coll, docs, n, -1, result, error);
}

/* lab_store_insert_many_at -- refuse oversized documents per document, give the others an _id, write. */
bool
lab_store_insert_many_at (lab_store_session_t *sess, const char *coll, const bson_t *const *docs, size_t n,
                          int64_t first, lab_store_insert_result_t *result, bson_error_t *error)
{
   lab_store_server_info_t info;
   const bson_t **ok_docs = NULL;
   size_t *orig = NULL;
   bson_t **owned = NULL;
   size_t nok = 0, nowned = 0, i;
   bool ret = false;

   memset (result, 0, sizeof *result);
   if (!lab_store_coll_check (coll, error)) {
      return false;
   }
   if (n == 0) {
      return true;
   }
   if (!sess->store->ops->server_info (sess->store, &info, error)) {
      return false;
   }
   ok_docs = bson_malloc (n * sizeof *ok_docs);
   orig = bson_malloc (n * sizeof *orig);
   owned = bson_malloc (n * sizeof *owned);
   for (i = 0; i < n; i++) {
      const bson_t *d = docs[i];
      bson_iter_t it;

      if ((int64_t)d->len > info.max_bson_bytes) {
         lab_store_insert_result_add_error (result, i, LAB_ERROR_STORE, LAB_STORE_ERR_DOC_TOO_LARGE,
                                            "document %zu is %u bytes, over the %" PRId64
                                            "-byte BSON document limit",
                                            i, d->len, info.max_bson_bytes);
         continue;
      }
      if (!bson_iter_init_find (&it, d, "_id")) {
         bson_oid_t oid;
         bson_t *copy = bson_sized_new (d->len + 20);

         bson_oid_init (&oid, NULL);
         BSON_APPEND_OID (copy, "_id", &oid);
         bson_concat (copy, d);
         owned[nowned++] = copy;
         d = copy;
      }
      ok_docs[nok] = d;
      orig[nok] = i;
      nok++;
   }
   ret = nok == 0 || sess->store->ops->insert_many (sess, coll, ok_docs, orig, nok, first < 0 ? -1 : first,
                                                    result, error);
   for (i = 0; i < nowned; i++) {
      bson_destroy (owned[i]);
   }
   bson_free (owned);
   bson_free (orig);
   bson_free (ok_docs);
   return ret;
}

bool
lab_store_upsert_by_id (lab_store_session_t *sess, const char *coll, const bson_t *doc, bson_error_t *error)
{
   bson_iter_t it;

   if (!bson_iter_init_find (&it, doc, "_id")) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "upsert into '%s': the document has no _id", coll);
      return false;
   }
   return lab_store_coll_check (coll, error) && sess->store->ops->upsert_by_id (sess, coll, doc, error);
}

bool
lab_store_delete_eq (lab_store_session_t *sess, const char *coll, const char *field,
                     const bson_value_t *value, int64_t *deleted, bson_error_t *error)
{
   int64_t dummy;
   return lab_store_coll_check (coll, error) &&
          sess->store->ops->delete_eq (sess, coll, field, value, deleted ? deleted : &dummy, error);
}

bool
lab_store_flush (lab_store_t *store, bson_error_t *error)
{
   return store->ops->flush (store, error);
}

bool
lab_store_set_journaled (lab_store_t *store, const char *coll, bson_error_t *error)
{
   return !store->ops->set_journaled ||
          (lab_store_coll_check (coll, error) && store->ops->set_journaled (store, coll, error));
}
