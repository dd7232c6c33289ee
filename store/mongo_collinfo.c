/*
 * mongo_collinfo.c -- the MongoDB backend's view of one collection from listCollections
 * (mongo_private.h): whether it exists, its UUID (the provenance marker's check), and whether it is
 * clustered (options.clusteredIndex, read by serverfacts_coll.c): the one thing that tells a clustered
 * layout's appends, updates and loads to go by its _id on a server as on the embedded store.
 */
#include "mongo_private.h"

#include "core/error.h"
#include "serverfacts.h"

#include <mongoc/mongoc.h>
#include <string.h>

/* coll_info -- listCollections filtered by name: *exists; with `uuid` info.uuid into *uuid with *has (the
 * caller destroys it); with `clustered` whether options carry clusteredIndex (serverfacts_coll.c). Neither:
 * nameOnly, which takes no collection lock and returns no options. */
static bool
coll_info (lab_store_session_t *sess, const char *coll, bool *exists, bson_value_t *uuid, bool *has,
           bool *clustered, bson_error_t *error)
{
   mongoc_database_t *db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   bson_t opts = BSON_INITIALIZER, filter;
   mongoc_cursor_t *cursor;
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;

   BSON_APPEND_DOCUMENT_BEGIN (&opts, "filter", &filter);
   BSON_APPEND_UTF8 (&filter, "name", coll);
   bson_append_document_end (&opts, &filter);
   BSON_APPEND_BOOL (&opts, "nameOnly", uuid == NULL && clustered == NULL);
   cursor = mongoc_database_find_collections_with_opts (db, &opts);
   *exists = false;
   while (mongoc_cursor_next (cursor, &doc)) {
      const char *name = lab_mongo_str_at (doc, "name");
      bson_iter_t it, child;
      if (!name || strcmp (name, coll) != 0) {
         continue;
      }
      *exists = true;
      if (clustered && ok && !lab_store_facts_coll_clustered (doc, clustered, error)) {
         lab_error_prefix (error, "collection '%s' on %s", coll, sess->store->uri_redacted);
         ok = false;
      }
      if (uuid && !*has && bson_iter_init (&it, doc) &&
          bson_iter_find_descendant (&it, "info.uuid", &child) && BSON_ITER_HOLDS_BINARY (&child)) {
         bson_value_copy (bson_iter_value (&child), uuid);
         *has = true;
      }
   }
   if (ok && mongoc_cursor_error (cursor, &err)) {
      lab_mongo_fail (sess->store, error, &err, "listing collection '%s' of database '%s'", coll,
                      sess->store->db);
      ok = false;
   }
   if (!ok) {
      if (uuid && *has) {
         bson_value_destroy (uuid);
         *has = false;
      }
   }
   mongoc_cursor_destroy (cursor);
   bson_destroy (&opts);
   mongoc_database_destroy (db);
   return ok;
}

/* lab_mongo_exists -- listCollections filtered by name (nameOnly). */
bool
lab_mongo_exists (lab_store_session_t *sess, const char *coll, bool *exists, bson_error_t *error)
{
   return coll_info (sess, coll, exists, NULL, NULL, NULL, error);
}

/* lab_mongo_coll_clustered -- listCollections filtered by name, with options: *clustered from
 * options.clusteredIndex (mongod 5.3+; FerretDB has none); a missing collection is NO_COLLECTION. */
bool
lab_mongo_coll_clustered (lab_store_session_t *sess, const char *coll, bool *clustered, bson_error_t *error)
{
   bool exists = false;

   *clustered = false;
   if (!coll_info (sess, coll, &exists, NULL, NULL, clustered, error)) {
      return false;
   }
   if (!exists) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                     "collection '%s' does not exist in database '%s' on %s", coll, sess->store->db,
                     sess->store->uri_redacted);
      return false;
   }
   return true;
}

/* lab_mongo_coll_uuid -- listCollections {filter: {name}}: info.uuid (mongod 3.6+ and FerretDB give it). */
bool
lab_mongo_coll_uuid (lab_store_session_t *sess, const char *coll, bson_value_t *uuid, bool *has,
                     bson_error_t *error)
{
   bool exists;

   *has = false;
   return coll_info (sess, coll, &exists, uuid, has, NULL, error);
}

/* lab_mongo_require_coll -- true when the collection exists, else NO_COLLECTION naming database and server.
 */
bool
lab_mongo_require_coll (lab_store_session_t *sess, const char *coll, bson_error_t *error)
{
   bool exists;

   if (!lab_mongo_exists (sess, coll, &exists, error)) {
      return false;
   }
   if (!exists) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                     "collection '%s' does not exist in database '%s' on %s", coll, sess->store->db,
                     sess->store->uri_redacted);
      return false;
   }
   return true;
}
