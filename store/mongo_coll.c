/*
 * mongo_coll.c -- the MongoDB backend's collections (mongo_private.h): the list, create (with the store's
 * block compressor), drop, exact counts and collStats sizes (indexes: mongo_index.c).
 */
#include "mongo_private.h"

#include "core/error.h"
#include "core/log.h"
#include "serverfacts.h"

#include <errno.h>
#include <mongoc/mongoc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- collections ---------------------------------------------------------------------------------- */

/* strp_cmp -- qsort order of C strings. */
static int
strp_cmp (const void *a, const void *b)
{
   return strcmp (*(char *const *)a, *(char *const *)b);
}

/* lab_mongo_list -- listCollections with nameOnly: every collection of the database (views and the
 * system.* collections left out), sorted. */
bool
lab_mongo_list (lab_store_session_t *sess, char ***names, bson_error_t *error)
{
   mongoc_database_t *db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   bson_t opts = BSON_INITIALIZER;
   mongoc_cursor_t *cursor;
   const bson_t *doc;
   bson_error_t err;
   size_t n = 0, cap = 16;
   bool ok = true;

   BSON_APPEND_BOOL (&opts, "nameOnly", true);
   cursor = mongoc_database_find_collections_with_opts (db, &opts);
   *names = bson_malloc0 (cap * sizeof (char *));
   while (mongoc_cursor_next (cursor, &doc)) {
      const char *name = lab_mongo_str_at (doc, "name");
      const char *type = lab_mongo_str_at (doc, "type");
      if (!name || strncmp (name, "system.", 7) == 0 || (type && strcmp (type, "collection") != 0)) {
         continue;
      }
      if (n + 2 > cap) {
         cap *= 2;
         *names = bson_realloc (*names, cap * sizeof (char *));
      }
      (*names)[n++] = bson_strdup (name);
      (*names)[n] = NULL;
   }
   if (mongoc_cursor_error (cursor, &err)) {
      lab_mongo_fail (sess->store, error, &err, "listing the collections of database '%s'", sess->store->db);
      bson_strfreev (*names);
      *names = NULL;
      ok = false;
   }
   mongoc_cursor_destroy (cursor);
   bson_destroy (&opts);
   mongoc_database_destroy (db);
   if (ok) {
      qsort (*names, n, sizeof (char *), strp_cmp);
   }
   return ok;
}

/* lab_mongo_coll_clustered_cached -- lab_mongo_coll_clustered, a collection found not clustered
 * remembered for the session (forgotten on drop: "$unclustered" is never an indexed field's name), so a
 * sample of keys asks listCollections once. */
bool
lab_mongo_coll_clustered_cached (lab_store_session_t *sess, const char *coll, bool *clustered,
                                 bson_error_t *error)
{
   *clustered = false;
   if (lab_mongo_index_cache_has (msess (sess), coll, "$unclustered")) {
      return true;
   }
   if (!lab_mongo_coll_clustered (sess, coll, clustered, error)) {
      return false;
   }
   if (!*clustered) {
      lab_mongo_index_cache_add (msess (sess), coll, "$unclustered");
   }
   return true;
}

/* compressor_check -- after a create with storageEngine: does listCollections show the configString?
 * mongod keeps it in the collection's options (and in the WiredTiger table's creation config); a server
 * that accepted the field without keeping it ignored it (FerretDB). Sets the store's compressor note and
 * says so in the log when it was ignored: never silently. */
static void
compressor_check (lab_store_session_t *sess, const char *coll, const char *config)
{
   lab_store_t *store = sess->store;
   mongoc_database_t *db = mongoc_client_get_database (msess (sess)->client, store->db);
   bson_t opts = BSON_INITIALIZER, filter;
   mongoc_cursor_t *cursor;
   const bson_t *doc;
   bson_iter_t it, f;
   bool kept = false;

   BSON_APPEND_DOCUMENT_BEGIN (&opts, "filter", &filter);
   BSON_APPEND_UTF8 (&filter, "name", coll);
   bson_append_document_end (&opts, &filter);
   cursor = mongoc_database_find_collections_with_opts (db, &opts);
   while (mongoc_cursor_next (cursor, &doc)) {
      if (bson_iter_init (&it, doc) &&
          bson_iter_find_descendant (&it, "options.storageEngine.wiredTiger.configString", &f) &&
          BSON_ITER_HOLDS_UTF8 (&f) && strstr (bson_iter_utf8 (&f, NULL), config)) {
         kept = true;
      }
   }
   mongoc_cursor_destroy (cursor);
   bson_destroy (&opts);
   mongoc_database_destroy (db);
   if (kept) {
      bson_snprintf (store->compressor_note, sizeof store->compressor_note,
                     "create storageEngine.wiredTiger.configString %s (kept in the collection's options)",
                     config);
   } else {
      bson_snprintf (
         store->compressor_note, sizeof store->compressor_note,
         "ignored by the server: create accepted storageEngine.wiredTiger.configString %s but the "
         "collection's options do not keep it%s",
         config, mstore (store)->sort_in_memory ? " (FerretDB has no block compression setting)" : "");
      lab_log_info ("collection '%s': %s", coll, store->compressor_note);
   }
}

static bool create_kind (lab_store_session_t *sess, const char *coll, bool clustered, bson_error_t *error);

/* lab_mongo_create -- create when missing (with the store's block compressor as mongod's
 * storageEngine.wiredTiger.configString); losing a creation race (NamespaceExists) is fine. */
bool
lab_mongo_create (lab_store_session_t *sess, const char *coll, bson_error_t *error)
{
   return create_kind (sess, coll, false, error);
}

/* lab_mongo_create_clustered -- a clustered collection (create with clusteredIndex {key: {_id: 1},
 * unique: true}, docs/mongodb-compat.md §23) on MongoDB 5.3 or later; FerretDB and older servers refused
 * before anything is sent, naming why. */
bool
lab_mongo_create_clustered (lab_store_session_t *sess, const char *coll, bson_error_t *error)
{
   lab_store_server_info_t si;
   int major = 0, minor = 0;

   if (!lab_mongo_server_info (sess->store, &si, error)) {
      return false;
   }
   if (si.query_subset) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "this server (%s, FerretDB) has no clustered collections (create's clusteredIndex)",
                     si.version);
      return false;
   }
   if (sscanf (si.version, "%d.%d", &major, &minor) != 2 || major < 5 || (major == 5 && minor < 3)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "clustered collections need MongoDB 5.3 or later; this server is %s",
                     si.version[0] ? si.version : "of an unknown version");
      return false;
   }
   return create_kind (sess, coll, true, error);
}

/* create_kind -- lab_mongo_create, with clusteredIndex {key: {_id: 1}, unique: true} when `clustered`. */
static bool
create_kind (lab_store_session_t *sess, const char *coll, bool clustered, bson_error_t *error)
{
   mongoc_database_t *db;
   mongoc_collection_t *c;
   bson_error_t err;
   bson_t copts = BSON_INITIALIZER, se, wt;
   char config[64] = "";
   bool exists;

   if (!lab_mongo_exists (sess, coll, &exists, error)) {
      return false;
   }
   if (exists) {
      return true;
   }
   if (sess->store->block_compressor) {
      bson_snprintf (config, sizeof config, "block_compressor=%s", sess->store->block_compressor);
      BSON_APPEND_DOCUMENT_BEGIN (&copts, "storageEngine", &se);
      BSON_APPEND_DOCUMENT_BEGIN (&se, "wiredTiger", &wt);
      BSON_APPEND_UTF8 (&wt, "configString", config);
      bson_append_document_end (&se, &wt);
      bson_append_document_end (&copts, &se);
   }
   if (clustered) {
      bson_t ci, key;
      BSON_APPEND_DOCUMENT_BEGIN (&copts, "clusteredIndex", &ci);
      BSON_APPEND_DOCUMENT_BEGIN (&ci, "key", &key);
      BSON_APPEND_INT32 (&key, "_id", 1);
      bson_append_document_end (&ci, &key);
      BSON_APPEND_BOOL (&ci, "unique", true);
      bson_append_document_end (&copts, &ci);
   }
   db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   c = mongoc_database_create_collection (db, coll, &copts, &err);
   mongoc_database_destroy (db);
   bson_destroy (&copts);
   if (c) {
      mongoc_collection_destroy (c);
      if (config[0]) {
         compressor_check (sess, coll, config);
      }
      return true;
   }
   if (lab_mongo_server_code_is (&err, 48)) { /* NamespaceExists: created meanwhile by another session */
      return true;
   }
   if (config[0]) {
      bson_snprintf (sess->store->compressor_note, sizeof sess->store->compressor_note,
                     "refused by the server: %s", err.message);
      lab_mongo_fail (
         sess->store, error, &err,
         "creating collection '%s' in database '%s' with storageEngine.wiredTiger.configString %s (the "
         "server refused it: drop --block-compressor to use the server's default)",
         coll, sess->store->db, config);
      return false;
   }
   lab_mongo_fail (sess->store, error, &err, "creating collection '%s' in database '%s'", coll,
                   sess->store->db);
   return false;
}

/* lab_mongo_drop -- drop; NamespaceNotFound is success. */
bool
lab_mongo_drop (lab_store_session_t *sess, const char *coll, bson_error_t *error)
{
   mongoc_collection_t *c = lab_mongo_get_coll (sess, coll);
   bson_error_t err;
   bool ok = mongoc_collection_drop_with_opts (c, NULL, &err);

   mongoc_collection_destroy (c);
   lab_mongo_index_cache_forget (msess (sess), coll);
   if (!ok && (lab_mongo_server_code_is (&err, 26) || strstr (err.message, "ns not found"))) {
      ok = true; /* dropping a missing collection is fine */
   }
   if (!ok) {
      lab_mongo_fail (sess->store, error, &err, "dropping collection '%s' of database '%s'", coll,
                      sess->store->db);
   }
   return ok;
}

/* lab_mongo_count -- exact (countDocuments), NO_COLLECTION when missing. */
bool
lab_mongo_count (lab_store_session_t *sess, const char *coll, int64_t *count, bson_error_t *error)
{
   mongoc_collection_t *c;
   bson_t filter = BSON_INITIALIZER;
   bson_error_t err;
   int64_t n;

   if (!lab_mongo_require_coll (sess, coll, error)) {
      return false;
   }
   c = lab_mongo_get_coll (sess, coll);
   n = mongoc_collection_count_documents (c, &filter, NULL, NULL, NULL, &err);
   mongoc_collection_destroy (c);
   bson_destroy (&filter);
   if (n < 0) {
      lab_mongo_fail (sess->store, error, &err, "counting the documents of '%s'", coll);
      return false;
   }
   *count = n;
   return true;
}

/* stats_from -- the size figures of a collStats reply or of a $collStats document's storageStats, added to
 * *st (through mongos $collStats answers one document per shard). */
static void
stats_from (const bson_t *doc, lab_store_coll_stats_t *st)
{
   st->count += lab_mongo_num_at (doc, "count", 0);
   st->data_size_bytes += lab_mongo_num_at (doc, "size", 0);
   st->storage_size_bytes += lab_mongo_num_at (doc, "storageSize", 0);
   st->index_size_bytes += lab_mongo_num_at (doc, "totalIndexSize", 0);
   if (lab_mongo_num_at (doc, "nindexes", 0) > st->nindexes) {
      st->nindexes = (int32_t)lab_mongo_num_at (doc, "nindexes", 0);
   }
}

/* coll_stats_stage -- aggregate [{$collStats: {storageStats: {}}}] (mongod 3.4+, the supported form since
 * collStats was deprecated in 6.2), summed over its documents; false when the server refuses the stage. */
static bool
coll_stats_stage (lab_store_session_t *sess, const char *coll, lab_store_coll_stats_t *st, bson_error_t *err)
{
   mongoc_collection_t *c = lab_mongo_get_coll (sess, coll);
   bson_t *pipeline =
      BCON_NEW ("pipeline", "[", "{", "$collStats", "{", "storageStats", "{", "}", "}", "}", "]");
   mongoc_cursor_t *cur = mongoc_collection_aggregate (c, MONGOC_QUERY_NONE, pipeline, NULL, NULL);
   const bson_t *doc;
   bool any = false, ok;

   while (mongoc_cursor_next (cur, &doc)) {
      bson_iter_t it;
      if (bson_iter_init_find (&it, doc, "storageStats") && BSON_ITER_HOLDS_DOCUMENT (&it)) {
         bson_t ss;
         uint32_t len;
         const uint8_t *data;
         bson_iter_document (&it, &len, &data);
         if (bson_init_static (&ss, data, len)) {
            stats_from (&ss, st);
            any = true;
         }
      }
   }
   ok = !mongoc_cursor_error (cur, err) && any;
   if (!any && err->code == 0) {
      bson_set_error (err, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY, "$collStats returned no storageStats");
   }
   mongoc_cursor_destroy (cur);
   bson_destroy (pipeline);
   mongoc_collection_destroy (c);
   return ok;
}

/* lab_mongo_stats -- $collStats storageStats where the server has it, else the collStats command (older
 * servers, FerretDB); estimates on FerretDB. NO_COLLECTION when missing. */
bool
lab_mongo_stats (lab_store_session_t *sess, const char *coll, lab_store_coll_stats_t *st, bson_error_t *error)
{
   mongoc_database_t *db;
   bson_t cmd = BSON_INITIALIZER, reply;
   bson_error_t err;
   bool ok, clustered = false;

   /* the layout from listCollections: collStats has no field for it on every version (5.3+ options) */
   if (!lab_mongo_coll_clustered (sess, coll, &clustered, error)) {
      return false;
   }
   memset (st, 0, sizeof *st);
   memset (&err, 0, sizeof err);
   if (coll_stats_stage (sess, coll, st, &err)) {
      st->clustered = clustered;
      st->avg_obj_size_bytes = st->count > 0 ? (double)st->data_size_bytes / (double)st->count : 0;
      return true;
   }
   lab_log_debug ("$collStats of '%s' refused (%s): using the collStats command", coll, err.message);
   memset (st, 0, sizeof *st);
   st->clustered = clustered;
   db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   BSON_APPEND_UTF8 (&cmd, "collStats", coll);
   ok = mongoc_database_command_simple (db, &cmd, NULL, &reply, &err);
   if (ok) {
      stats_from (&reply, st);
      st->avg_obj_size_bytes = lab_mongo_dbl_at (&reply, "avgObjSize", 0);
      if (st->avg_obj_size_bytes <= 0 && st->count > 0) {
         st->avg_obj_size_bytes = (double)st->data_size_bytes / (double)st->count;
      }
   } else {
      lab_mongo_fail (sess->store, error, &err, "collStats of '%s'", coll);
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   mongoc_database_destroy (db);
   return ok;
}
