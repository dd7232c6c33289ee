/*
 * mongo_coll.c -- the MongoDB backend's collections and indexes (mongo_private.h): the list, create (with
 * the store's block compressor), the per-session cache of known indexes, the index checks sorted reads and
 * finds rely on, index creation, drop, exact counts and collStats sizes.
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

/* ---- the per-session index cache ------------------------------------------------------------------ */

/* cache_key -- "coll\nfield" (newline cannot occur in a collection name we accept). */
static char *
cache_key (const char *coll, const char *field)
{
   return bson_strdup_printf ("%s\n%s", coll, field);
}

/* cache_has -- (coll, field) is known to be indexed. */
static bool
cache_has (mongo_sess_t *ss, const char *coll, const char *field)
{
   char *k = cache_key (coll, field);
   bool found = false;
   size_t i;

   for (i = 0; i < ss->nindexed && !found; i++) {
      found = strcmp (ss->indexed[i], k) == 0;
   }
   bson_free (k);
   return found;
}

/* cache_add -- remember that (coll, field) is indexed. */
static void
cache_add (mongo_sess_t *ss, const char *coll, const char *field)
{
   if (cache_has (ss, coll, field)) {
      return;
   }
   ss->indexed = bson_realloc (ss->indexed, (ss->nindexed + 1) * sizeof *ss->indexed);
   ss->indexed[ss->nindexed++] = cache_key (coll, field);
}

/* cache_forget -- drop every entry of `coll` (after a drop). */
static void
cache_forget (mongo_sess_t *ss, const char *coll)
{
   size_t i = 0, n = strlen (coll);

   while (i < ss->nindexed) {
      if (strncmp (ss->indexed[i], coll, n) == 0 && ss->indexed[i][n] == '\n') {
         bson_free (ss->indexed[i]);
         ss->indexed[i] = ss->indexed[--ss->nindexed];
      } else {
         i++;
      }
   }
   for (i = 0; i < ss->nbatch; i++) {
      if (strcmp (ss->batch_colls[i], coll) == 0) {
         bson_free (ss->batch_colls[i]);
         ss->batch_colls[i] = ss->batch_colls[--ss->nbatch];
         ss->batch_docs[i] = ss->batch_docs[ss->nbatch];
         break;
      }
   }
}

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
   if (cache_has (msess (sess), coll, "$unclustered")) {
      return true;
   }
   if (!lab_mongo_coll_clustered (sess, coll, clustered, error)) {
      return false;
   }
   if (!*clustered) {
      cache_add (msess (sess), coll, "$unclustered");
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

/* find_index -- *has = an index of `coll` has `field` as its first key; *coll_exists = listIndexes saw
 * the collection (every collection has at least the _id index). When sort_key is not NULL it gets the
 * key pattern of the index a sorted read hints (sort_usable; {field: 1} itself when it exists, else the
 * one with fewest keys), or stays empty. */
static bool
find_index (lab_store_session_t *sess, const char *coll, const char *field, bool *has, bool *coll_exists,
            bson_t *sort_key, bson_error_t *error)
{
   mongoc_collection_t *c = lab_mongo_get_coll (sess, coll);
   mongoc_cursor_t *cursor = mongoc_collection_find_indexes_with_opts (c, NULL);
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;
   int best = 0, rank;

   *has = *coll_exists = false;
   if (sort_key) {
      bson_reinit (sort_key);
   }
   while (mongoc_cursor_next (cursor, &doc)) {
      bson_iter_t it, key;

      *coll_exists = true;
      if (bson_iter_init_find (&it, doc, "key") && BSON_ITER_HOLDS_DOCUMENT (&it) &&
          bson_iter_recurse (&it, &key) && bson_iter_next (&key) &&
          strcmp (bson_iter_key (&key), field) == 0) {
         *has = true;
      }
      if (sort_key && lab_store_facts_index_serves_sort (doc, field, &rank) && (best == 0 || rank < best)) {
         const uint8_t *data;
         uint32_t len;
         bson_t pattern;

         bson_iter_init_find (&it, doc, "key");
         bson_iter_document (&it, &len, &data);
         if (bson_init_static (&pattern, data, len)) {
            bson_reinit (sort_key);
            bson_concat (sort_key, &pattern);
            best = rank;
         }
      }
   }
   if (mongoc_cursor_error (cursor, &err)) {
      if (!lab_mongo_server_code_is (&err, 26)) { /* NamespaceNotFound: no collection, no index */
         lab_mongo_fail (sess->store, error, &err, "listing the indexes of '%s'", coll);
         ok = false;
      }
   }
   mongoc_cursor_destroy (cursor);
   mongoc_collection_destroy (c);
   if (ok && *coll_exists && strcmp (field, "_id") == 0) {
      *has = true;
   }
   return ok;
}

/* lab_mongo_has_index -- listIndexes; a missing collection is NO_COLLECTION, as on the embedded store. */
bool
lab_mongo_has_index (lab_store_session_t *sess, const char *coll, const char *field, bool *has,
                     bson_error_t *error)
{
   bool coll_exists;

   if (!find_index (sess, coll, field, has, &coll_exists, NULL, error)) {
      return false;
   }
   if (!coll_exists) {
      return lab_mongo_require_coll (sess, coll, error);
   }
   if (*has) {
      cache_add (msess (sess), coll, field);
   }
   return true;
}

/* lab_mongo_require_index -- NO_COLLECTION / NO_INDEX unless `field` is `_id` or indexed (cached per session,
 * so per-key reads cost one round trip). */
bool
lab_mongo_require_index (lab_store_session_t *sess, const char *coll, const char *field, bson_error_t *error)
{
   bool has, coll_exists;

   if (cache_has (msess (sess), coll, field)) {
      return true;
   }
   if (!find_index (sess, coll, field, &has, &coll_exists, NULL, error)) {
      return false;
   }
   if (!coll_exists) {
      return lab_mongo_require_coll (sess, coll, error);
   }
   if (!has) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
                     "collection '%s' in database '%s' on %s has no index on '%s': create it (e.g. "
                     "db.%s.createIndex({\"%s\": 1})) or choose an indexed field with --key",
                     coll, sess->store->db, sess->store->uri_redacted, field, coll, field);
      return false;
   }
   cache_add (msess (sess), coll, field);
   return true;
}

/* lab_mongo_require_sort_index -- *pattern (initialized by the caller) = the key pattern of the index a
 * sorted read of `field` hints; NO_COLLECTION, or NO_INDEX naming the collection, the field and the remedy.
 * Always asks the server (one listIndexes): an index may have been dropped since a cached check. */
bool
lab_mongo_require_sort_index (lab_store_session_t *sess, const char *coll, const char *field, bson_t *pattern,
                              bson_error_t *error)
{
   bool has, coll_exists;

   if (!find_index (sess, coll, field, &has, &coll_exists, pattern, error)) {
      return false;
   }
   if (!coll_exists) {
      return lab_mongo_require_coll (sess, coll, error);
   }
   if (bson_empty (pattern)) {
      lab_error_set (
         error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
         "collection '%s' in database '%s' on %s has no index on '%s'%s to read it in '%s' order "
         "(without one the server would sort the whole collection before the first document): run "
         "with --create-index, or create it with db.%s.createIndex({%s: 1})",
         coll, sess->store->db, sess->store->uri_redacted, field,
         has ? " that can serve a sort (hashed, text, sparse, partial and hidden indexes cannot; unhide one "
               "with "
               "db.<coll>.unhideIndex(...))"
             : "",
         field, coll, field);
      return false;
   }
   return true;
}

/* lab_mongo_create_index -- createIndexes {field: 1} named "<field>_1"; the same index again is a no-op. */
bool
lab_mongo_create_index (lab_store_session_t *sess, const char *coll, const char *field, bson_error_t *error)
{
   mongoc_database_t *db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   bson_t cmd = BSON_INITIALIZER, indexes, index, key, reply;
   char *name = bson_strdup_printf ("%s_1", field);
   bson_error_t err;
   bool ok;

   BSON_APPEND_UTF8 (&cmd, "createIndexes", coll);
   BSON_APPEND_ARRAY_BEGIN (&cmd, "indexes", &indexes);
   BSON_APPEND_DOCUMENT_BEGIN (&indexes, "0", &index);
   BSON_APPEND_DOCUMENT_BEGIN (&index, "key", &key);
   BSON_APPEND_INT32 (&key, field, 1);
   bson_append_document_end (&index, &key);
   BSON_APPEND_UTF8 (&index, "name", name);
   bson_append_document_end (&indexes, &index);
   bson_append_array_end (&cmd, &indexes);
   ok = mongoc_database_write_command_with_opts (db, &cmd, NULL, &reply, &err);
   if (!ok) {
      lab_mongo_fail (sess->store, error, &err, "creating index '%s' on '%s' of '%s'", name, field, coll);
   } else {
      cache_add (msess (sess), coll, field);
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   bson_free (name);
   mongoc_database_destroy (db);
   return ok;
}

/* lab_mongo_drop -- drop; NamespaceNotFound is success. */
bool
lab_mongo_drop (lab_store_session_t *sess, const char *coll, bson_error_t *error)
{
   mongoc_collection_t *c = lab_mongo_get_coll (sess, coll);
   bson_error_t err;
   bool ok = mongoc_collection_drop_with_opts (c, NULL, &err);

   mongoc_collection_destroy (c);
   cache_forget (msess (sess), coll);
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

/* ---- compound and multikey indexes ---------------------------------------------------------------- */

/* spec_pattern -- the key pattern {f1: 1, f2: 1, ...} into pattern (initialized here). */
static void
spec_pattern (const lab_store_index_spec_t *spec, bson_t *pattern)
{
   int i;

   bson_init (pattern);
   for (i = 0; i < spec->n; i++) {
      BSON_APPEND_INT32 (pattern, spec->fields[i], 1);
   }
}

/* spec_cache_field -- the index cache's name of the key pattern (a prefix no field name has). */
static char *
spec_cache_field (const lab_store_index_spec_t *spec)
{
   char name[512];

   lab_store_index_spec_name (spec, name, sizeof name);
   return bson_strdup_printf ("{}%s", name);
}

/* pattern_is -- the index document's "key" is exactly spec's ascending pattern (1, 1.0, 1L alike). */
static bool
pattern_is (const bson_t *index, const lab_store_index_spec_t *spec)
{
   bson_iter_t it, key;
   int i = 0;

   if (!bson_iter_init_find (&it, index, "key") || !BSON_ITER_HOLDS_DOCUMENT (&it) ||
       !bson_iter_recurse (&it, &key)) {
      return false;
   }
   while (bson_iter_next (&key)) {
      if (i >= spec->n || strcmp (bson_iter_key (&key), spec->fields[i]) != 0 ||
          !BSON_ITER_HOLDS_NUMBER (&key) || bson_iter_as_double (&key) != 1.0) {
         return false;
      }
      i++;
   }
   return i == spec->n;
}

/* find_index_spec -- listIndexes: *exists and the index's name (name[0] 0 when none); *coll_exists. */
static bool
find_index_spec (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                 bool *exists, bool *coll_exists, char *name, size_t namelen, bson_error_t *error)
{
   mongoc_collection_t *c = lab_mongo_get_coll (sess, coll);
   mongoc_cursor_t *cursor = mongoc_collection_find_indexes_with_opts (c, NULL);
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;

   *exists = *coll_exists = false;
   name[0] = '\0';
   while (mongoc_cursor_next (cursor, &doc)) {
      *coll_exists = true;
      if (!*exists && pattern_is (doc, spec)) {
         const char *n = lab_mongo_str_at (doc, "name");
         *exists = true;
         bson_strncpy (name, n ? n : "", namelen);
      }
   }
   if (mongoc_cursor_error (cursor, &err) && !lab_mongo_server_code_is (&err, 26)) {
      lab_mongo_fail (sess->store, error, &err, "listing the indexes of '%s'", coll);
      ok = false;
   }
   mongoc_cursor_destroy (cursor);
   mongoc_collection_destroy (c);
   return ok;
}

/* lab_mongo_require_index_spec -- NO_COLLECTION / NO_INDEX (naming the shell command) unless an index has
 * exactly spec's key pattern (cached per session, as lab_mongo_require_index). */
bool
lab_mongo_require_index_spec (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                              bson_error_t *error)
{
   char *key = spec_cache_field (spec), name[512];
   bool exists, coll_exists, ok = false;

   if (cache_has (msess (sess), coll, key)) {
      ok = true;
   } else if (find_index_spec (sess, coll, spec, &exists, &coll_exists, name, sizeof name, error)) {
      if (!coll_exists) {
         ok = lab_mongo_require_coll (sess, coll, error);
         if (ok) {
            exists = false; /* (listIndexes raced a create) */
         }
      }
      if (coll_exists || ok) {
         ok = exists;
         if (!exists) {
            char *shell = lab_store_index_spec_shell (coll, spec);
            lab_store_index_spec_name (spec, name, sizeof name);
            lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
                           "collection '%s' in database '%s' on %s has no index %s: create it (%s)", coll,
                           sess->store->db, sess->store->uri_redacted, name, shell);
            bson_free (shell);
         } else {
            cache_add (msess (sess), coll, key);
         }
      }
   }
   bson_free (key);
   return ok;
}

/* lab_mongo_create_index_spec -- createIndexes {key: pattern, name: mongod's default name}; the same
 * index again is a no-op. */
bool
lab_mongo_create_index_spec (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                             bson_error_t *error)
{
   mongoc_database_t *db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   bson_t cmd = BSON_INITIALIZER, indexes, index, pattern, reply;
   char name[512];
   bson_error_t err;
   bool ok;

   lab_store_index_spec_name (spec, name, sizeof name);
   spec_pattern (spec, &pattern);
   BSON_APPEND_UTF8 (&cmd, "createIndexes", coll);
   BSON_APPEND_ARRAY_BEGIN (&cmd, "indexes", &indexes);
   BSON_APPEND_DOCUMENT_BEGIN (&indexes, "0", &index);
   BSON_APPEND_DOCUMENT (&index, "key", &pattern);
   BSON_APPEND_UTF8 (&index, "name", name);
   bson_append_document_end (&indexes, &index);
   bson_append_array_end (&cmd, &indexes);
   ok = mongoc_database_write_command_with_opts (db, &cmd, NULL, &reply, &err);
   if (!ok) {
      lab_mongo_fail (sess->store, error, &err, "creating index %s on '%s'", name, coll);
   } else {
      char *key = spec_cache_field (spec);
      cache_add (msess (sess), coll, key);
      if (spec->n == 1) {
         cache_add (msess (sess), coll, spec->fields[0]);
      }
      bson_free (key);
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   bson_destroy (&pattern);
   mongoc_database_destroy (db);
   return ok;
}

/* lab_mongo_drop_index -- dropIndexes by the name listIndexes gives the key pattern (the server's name,
 * which need not be the default one); a missing collection or index: nothing. */
bool
lab_mongo_drop_index (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                      bool *dropped, bson_error_t *error)
{
   mongoc_database_t *db;
   bson_t cmd = BSON_INITIALIZER, reply;
   char name[512];
   bson_error_t err;
   bool exists, coll_exists, ok;

   if (!find_index_spec (sess, coll, spec, &exists, &coll_exists, name, sizeof name, error)) {
      return false;
   }
   if (!exists) {
      return true;
   }
   db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   BSON_APPEND_UTF8 (&cmd, "dropIndexes", coll);
   BSON_APPEND_UTF8 (&cmd, "index", name);
   ok = mongoc_database_write_command_with_opts (db, &cmd, NULL, &reply, &err);
   cache_forget (msess (sess), coll); /* the session's cache knew the index: ask the server again */
   if (!ok && (lab_mongo_server_code_is (&err, 26) || lab_mongo_server_code_is (&err, 27))) {
      ok = true; /* gone in the meantime (NamespaceNotFound, IndexNotFound) */
   } else if (!ok) {
      lab_mongo_fail (sess->store, error, &err, "dropping index %s of '%s' in database '%s'", name, coll,
                      sess->store->db);
   } else {
      *dropped = true;
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   mongoc_database_destroy (db);
   return ok;
}

/* find_multikey -- a bool "isMultiKey" anywhere in the explain reply (the IXSCAN stage's). */
static bool
find_multikey (bson_iter_t *it, bool *found)
{
   while (bson_iter_next (it)) {
      bson_iter_t sub;
      if (strcmp (bson_iter_key (it), "isMultiKey") == 0 && BSON_ITER_HOLDS_BOOL (it)) {
         *found = true;
         return bson_iter_bool (it);
      }
      if ((BSON_ITER_HOLDS_DOCUMENT (it) || BSON_ITER_HOLDS_ARRAY (it)) && bson_iter_recurse (it, &sub)) {
         bool v = find_multikey (&sub, found);
         if (*found) {
            return v;
         }
      }
   }
   return false;
}

/* lab_mongo_index_info -- listIndexes; the multikey flag from explain {find, hint} (queryPlanner: the
 * IXSCAN's isMultiKey), the size from collStats indexSizes; what the server does not answer stays
 * false / -1. */
bool
lab_mongo_index_info (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                      bool *exists, bool *multikey, int64_t *size_bytes, bson_error_t *error)
{
   mongoc_database_t *db;
   bson_t cmd, find, pattern, reply;
   bson_iter_t it;
   char name[512], *path;
   bool coll_exists, found = false;

   if (!find_index_spec (sess, coll, spec, exists, &coll_exists, name, sizeof name, error)) {
      return false;
   }
   if (!coll_exists) {
      return lab_mongo_require_coll (sess, coll, error);
   }
   if (!*exists) {
      return true;
   }
   db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   spec_pattern (spec, &pattern);
   bson_init (&cmd);
   BSON_APPEND_DOCUMENT_BEGIN (&cmd, "explain", &find);
   BSON_APPEND_UTF8 (&find, "find", coll);
   BSON_APPEND_DOCUMENT (&find, "hint", &pattern);
   BSON_APPEND_INT32 (&find, "limit", 1);
   bson_append_document_end (&cmd, &find);
   BSON_APPEND_UTF8 (&cmd, "verbosity", "queryPlanner");
   if (mongoc_database_command_simple (db, &cmd, NULL, &reply, NULL) && bson_iter_init (&it, &reply)) {
      *multikey = find_multikey (&it, &found);
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   bson_init (&cmd);
   BSON_APPEND_UTF8 (&cmd, "collStats", coll);
   path = bson_strdup_printf ("indexSizes.%s", name);
   if (mongoc_database_command_simple (db, &cmd, NULL, &reply, NULL) && bson_iter_init (&it, &reply) &&
       bson_iter_find_descendant (&it, path, &it) && BSON_ITER_HOLDS_NUMBER (&it)) {
      *size_bytes = bson_iter_as_int64 (&it);
   }
   bson_free (path);
   bson_destroy (&reply);
   bson_destroy (&cmd);
   bson_destroy (&pattern);
   mongoc_database_destroy (db);
   return true;
}

/* lab_mongo_list_indexes -- listIndexes: every description but `_id`'s, less v and ns; a {clustered: true}
 * one (the clustered `_id` index) sets *clustered instead. */
bool
lab_mongo_list_indexes (lab_store_session_t *sess, const char *coll, bson_t *indexes, bool *clustered,
                        bson_error_t *error)
{
   mongoc_collection_t *c = lab_mongo_get_coll (sess, coll);
   mongoc_cursor_t *cursor = mongoc_collection_find_indexes_with_opts (c, NULL);
   const bson_t *doc;
   bson_error_t err;
   bool ok = true, coll_exists = false;
   int n = 0;

   while (mongoc_cursor_next (cursor, &doc)) {
      bson_iter_t it, key;
      bson_t desc;
      char pos[16];

      coll_exists = true;
      if (bson_iter_init_find (&it, doc, "clustered") && bson_iter_as_bool (&it)) {
         *clustered = true;
         continue;
      }
      if (bson_iter_init_find (&it, doc, "key") && BSON_ITER_HOLDS_DOCUMENT (&it) &&
          bson_iter_recurse (&it, &key) && bson_iter_next (&key) &&
          strcmp (bson_iter_key (&key), "_id") == 0 && !bson_iter_next (&key)) {
         continue; /* {_id: 1}: every collection's own */
      }
      bson_snprintf (pos, sizeof pos, "%d", n++);
      BSON_APPEND_DOCUMENT_BEGIN (indexes, pos, &desc);
      bson_copy_to_excluding_noinit (doc, &desc, "v", "ns", NULL);
      bson_append_document_end (indexes, &desc);
   }
   if (mongoc_cursor_error (cursor, &err) && !lab_mongo_server_code_is (&err, 26)) {
      lab_mongo_fail (sess->store, error, &err, "listing the indexes of '%s'", coll);
      ok = false;
   }
   mongoc_cursor_destroy (cursor);
   mongoc_collection_destroy (c);
   if (ok && !coll_exists) {
      ok = lab_mongo_require_coll (sess, coll, error);
   }
   return ok;
}
