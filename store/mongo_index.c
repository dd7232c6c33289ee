/*
 * mongo_index.c -- the MongoDB backend's indexes (mongo_private.h): the per-session cache of known indexes,
 * the index checks sorted reads and finds rely on, index creation and drop, compound and multikey indexes.
 */
#include "mongo_private.h"

#include "core/error.h"
#include "serverfacts.h"

#include <mongoc/mongoc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the per-session index cache ------------------------------------------------------------------ */

/* cache_key -- "coll\nfield" (newline cannot occur in a collection name we accept). */
static char *
cache_key (const char *coll, const char *field)
{
   return bson_strdup_printf ("%s\n%s", coll, field);
}

/* lab_mongo_index_cache_has -- (coll, field) is known to be indexed. */
bool
lab_mongo_index_cache_has (mongo_sess_t *ss, const char *coll, const char *field)
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

/* lab_mongo_index_cache_add -- remember that (coll, field) is indexed. */
void
lab_mongo_index_cache_add (mongo_sess_t *ss, const char *coll, const char *field)
{
   if (lab_mongo_index_cache_has (ss, coll, field)) {
      return;
   }
   ss->indexed = bson_realloc (ss->indexed, (ss->nindexed + 1) * sizeof *ss->indexed);
   ss->indexed[ss->nindexed++] = cache_key (coll, field);
}

/* lab_mongo_index_cache_forget -- drop every entry of `coll` (after a drop). */
void
lab_mongo_index_cache_forget (mongo_sess_t *ss, const char *coll)
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

/* ---- single-field indexes ---------------------------------------------------------------------------- */

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
      lab_mongo_index_cache_add (msess (sess), coll, field);
   }
   return true;
}

/* lab_mongo_require_index -- NO_COLLECTION / NO_INDEX unless `field` is `_id` or indexed (cached per session,
 * so per-key reads cost one round trip). */
bool
lab_mongo_require_index (lab_store_session_t *sess, const char *coll, const char *field, bson_error_t *error)
{
   bool has, coll_exists;

   if (lab_mongo_index_cache_has (msess (sess), coll, field)) {
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
   lab_mongo_index_cache_add (msess (sess), coll, field);
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
      lab_mongo_index_cache_add (msess (sess), coll, field);
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   bson_free (name);
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

   if (lab_mongo_index_cache_has (msess (sess), coll, key)) {
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
            lab_mongo_index_cache_add (msess (sess), coll, key);
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
      lab_mongo_index_cache_add (msess (sess), coll, key);
      if (spec->n == 1) {
         lab_mongo_index_cache_add (msess (sess), coll, spec->fields[0]);
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
   lab_mongo_index_cache_forget (msess (sess),
                                 coll); /* the session's cache knew the index: ask the server again */
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
