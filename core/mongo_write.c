/*
 * mongo_write.c -- the MongoDB backend's writes (mongo_private.h): unordered bulk inserts split under
 * maxMessageSizeBytes and maxWriteBatchSize with per-document errors mapped back to the caller's batch,
 * upserts by _id, deletes by key.
 */
#include "mongo_private.h"

#include "error.h"
#include "log.h"

#include <errno.h>
#include <mongoc/mongoc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- writes --------------------------------------------------------------------------------------- */

/* insert_chunk -- one unordered bulk insert of docs[0..n); map[i] is each document's caller index. */
static bool
insert_chunk (lab_store_session_t *sess, mongoc_collection_t *c, const char *coll, const bson_t *const *docs,
              const size_t *orig, size_t n, lab_store_insert_result_t *result, bson_error_t *error)
{
   bson_t opts = BSON_INITIALIZER, reply;
   mongoc_bulk_operation_t *bulk;
   size_t *queued = bson_malloc (n * sizeof *queued); /* bulk position -> index into docs */
   size_t nqueued = 0, i;
   bson_error_t err;
   bson_iter_t it, arr;
   bool ok = true, executed;

   BSON_APPEND_BOOL (&opts, "ordered", false);
   bulk = mongoc_collection_create_bulk_operation_with_opts (c, &opts);
   for (i = 0; i < n; i++) {
      if (!mongoc_bulk_operation_insert_with_opts (bulk, docs[i], NULL, &err)) {
         /* refused client-side (e.g. invalid keys); the rest of the batch still goes */
         lab_store_insert_result_add_error (result, orig[i], err.domain, err.code, "%s", err.message);
         continue;
      }
      queued[nqueued++] = i;
   }
   if (nqueued == 0) {
      goto done;
   }
   executed = mongoc_bulk_operation_execute (bulk, &reply, &err) != 0;
   result->inserted += lab_mongo_num_at (&reply, "nInserted", 0);
   if (!executed) {
      bool per_doc = false;

      if (bson_iter_init_find (&it, &reply, "writeErrors") && BSON_ITER_HOLDS_ARRAY (&it) &&
          bson_iter_recurse (&it, &arr)) {
         while (bson_iter_next (&arr)) {
            bson_t wd;
            const uint8_t *data;
            uint32_t len;
            int64_t idx, code;
            const char *msg;

            if (!BSON_ITER_HOLDS_DOCUMENT (&arr)) {
               continue;
            }
            bson_iter_document (&arr, &len, &data);
            if (!bson_init_static (&wd, data, len)) {
               continue;
            }
            idx = lab_mongo_num_at (&wd, "index", -1);
            code = lab_mongo_num_at (&wd, "code", 0);
            msg = lab_mongo_str_at (&wd, "errmsg");
            if (idx < 0 || (size_t)idx >= nqueued) {
               continue;
            }
            per_doc = true;
            if (code == 11000) {
               lab_store_insert_result_add_error (result, orig[queued[idx]], LAB_ERROR_STORE,
                                                  LAB_STORE_ERR_DUPLICATE_KEY, "%s",
                                                  msg ? msg : "duplicate key");
            } else {
               lab_store_insert_result_add_error (result, orig[queued[idx]], MONGOC_ERROR_SERVER,
                                                  (uint32_t)code, "%s", msg ? msg : "write error");
            }
         }
      }
      /* a write-concern error or a transport failure fails the batch; per-document errors do not */
      if (!per_doc ||
          (bson_iter_init_find (&it, &reply, "writeConcernErrors") && BSON_ITER_HOLDS_ARRAY (&it) &&
           bson_iter_recurse (&it, &arr) && bson_iter_next (&arr)) ||
          lab_mongo_is_unreachable (&err)) {
         lab_mongo_fail (sess->store, error, &err, "inserting %zu documents into '%s'", nqueued, coll);
         ok = false;
      }
   }
   bson_destroy (&reply);
done:
   mongoc_bulk_operation_destroy (bulk);
   bson_destroy (&opts);
   bson_free (queued);
   return ok;
}

/* lab_mongo_insert_many -- split under maxMessageSizeBytes (less an envelope) and maxWriteBatchSize. */
bool
lab_mongo_insert_many (lab_store_session_t *sess, const char *coll, const bson_t *const *docs,
                       const size_t *orig, size_t n, int64_t first, lab_store_insert_result_t *result,
                       bson_error_t *error)
{
   (void)first; /* the server assigns RecordIds */
   mongo_store_t *ms = mstore (sess->store);
   mongoc_collection_t *c = lab_mongo_get_coll (sess, coll);
   int64_t budget, max_docs;
   size_t start = 0;
   bool ok = true;

   pthread_mutex_lock (&ms->mu);
   budget = lab_store_write_budget_bytes (ms->info.max_message_bytes);
   max_docs = ms->max_write_batch;
   pthread_mutex_unlock (&ms->mu);
   if (budget < LAB_BSON_MAX_BYTES) {
      budget = LAB_BSON_MAX_BYTES;
   }
   while (ok && start < n) {
      size_t end = start;
      int64_t bytes = 0;

      while (end < n && (int64_t)(end - start) < max_docs &&
             (end == start || bytes + (int64_t)docs[end]->len <= budget)) {
         bytes += docs[end]->len;
         end++;
      }
      ok = insert_chunk (sess, c, coll, docs + start, orig + start, end - start, result, error);
      start = end;
   }
   mongoc_collection_destroy (c);
   return ok;
}

/* id_filter -- {_id: <doc's _id>}. */
static void
id_filter (const bson_t *doc, bson_t *filter)
{
   bson_iter_t it;

   bson_init (filter);
   if (bson_iter_init_find (&it, doc, "_id")) {
      bson_append_iter (filter, "_id", 3, &it);
   }
}

/* lab_mongo_upsert_by_id -- replaceOne {_id} with upsert. */
bool
lab_mongo_upsert_by_id (lab_store_session_t *sess, const char *coll, const bson_t *doc, bson_error_t *error)
{
   mongoc_collection_t *c = lab_mongo_get_coll (sess, coll);
   bson_t filter, opts = BSON_INITIALIZER, reply;
   bson_error_t err;
   bool ok;

   id_filter (doc, &filter);
   BSON_APPEND_BOOL (&opts, "upsert", true);
   ok = mongoc_collection_replace_one (c, &filter, doc, &opts, &reply, &err);
   if (!ok) {
      lab_mongo_fail (sess->store, error, &err, "upserting a document into '%s'", coll);
   }
   bson_destroy (&reply);
   bson_destroy (&opts);
   bson_destroy (&filter);
   mongoc_collection_destroy (c);
   return ok;
}

/* lab_mongo_eq_filter -- {field: value}; a document value must not be read as an operator, so wrap it in $eq.
 */
void
lab_mongo_eq_filter (const char *field, const bson_value_t *value, bson_t *filter)
{
   bson_init (filter);
   if (value->value_type == BSON_TYPE_DOCUMENT || value->value_type == BSON_TYPE_REGEX) {
      bson_t eq;
      BSON_APPEND_DOCUMENT_BEGIN (filter, field, &eq);
      BSON_APPEND_VALUE (&eq, "$eq", value);
      bson_append_document_end (filter, &eq);
   } else {
      BSON_APPEND_VALUE (filter, field, value);
   }
}

/* lab_mongo_delete_eq -- deleteMany {field: value}; the field must be indexed, as on the embedded store. */
bool
lab_mongo_delete_eq (lab_store_session_t *sess, const char *coll, const char *field,
                     const bson_value_t *value, int64_t *deleted, bson_error_t *error)
{
   mongoc_collection_t *c;
   bson_t filter, reply;
   bson_error_t err;
   bool ok;

   *deleted = 0;
   if (!lab_mongo_require_index (sess, coll, field, error)) {
      return false;
   }
   c = lab_mongo_get_coll (sess, coll);
   lab_mongo_eq_filter (field, value, &filter);
   ok = mongoc_collection_delete_many (c, &filter, NULL, &reply, &err);
   if (ok) {
      *deleted = lab_mongo_num_at (&reply, "deletedCount", 0);
   } else {
      lab_mongo_fail (sess->store, error, &err, "deleting from '%s' where %s matches", coll, field);
   }
   bson_destroy (&reply);
   bson_destroy (&filter);
   mongoc_collection_destroy (c);
   return ok;
}

/* lab_mongo_flush -- nothing to do: acknowledged writes are the server's to make durable. */
bool
lab_mongo_flush (lab_store_t *store, bson_error_t *error)
{
   return true;
}
