/*
 * store.c -- the generic half of the store interface: opening a store (the backend named by the URI:
 * store_wt.c, store_mongo.c), sessions, collections and indexes with their argument checks; each call is
 * dispatched to the backend. The other operation groups: documents (store_docs.c), reads and cursors
 * (store_read.c), the server's facts, cache and cold cycle (store_server.c).
 */
#include "store_impl.h"

#include "core/error.h"

#include <stdio.h>
#include <string.h>

/* lab_store_open -- parse the URI, pick the backend, open it and learn the max document size. */
lab_store_t *
lab_store_open (const char *uri, const lab_store_opts_t *opts, bson_error_t *error)
{
   lab_store_t *store = bson_malloc0 (sizeof *store);
   lab_store_opts_t defaults = { 0 };

   if (!uri) {
      uri = lab_uri_default ();
   }
   store->opts = opts ? *opts : defaults;
   if (!lab_store_uri_parse (uri, &store->uri, error)) {
      goto fail;
   }
   store->uri_redacted = lab_uri_redact (uri);
   store->db = bson_strdup (lab_store_uri_db (&store->uri, store->opts.db));
   store->opts.db = store->db;
   if (store->opts.block_compressor) {
      if (!lab_store_block_compressor_check (store->opts.block_compressor, error)) {
         goto fail;
      }
      store->block_compressor = bson_strdup (store->opts.block_compressor);
      store->opts.block_compressor = store->block_compressor;
   }
   if (store->opts.zstd_level == 0) {
      store->opts.zstd_level = LAB_ZSTD_DEFAULT_LEVEL;
   }
   if (store->opts.connect_timeout_ms < 0) {
      store->opts.connect_timeout_ms = 0; /* the backend's defaults (store.h) */
   }
   store->ops = store->uri.backend == LAB_BACKEND_WT ? &lab_store_wt_ops : &lab_store_mongo_ops;
   if (!store->ops->open (store, error)) {
      store->ops = NULL;
      goto fail;
   }
   return store;
fail:
   lab_store_close (store);
   return NULL;
}

/* lab_store_close -- backend close, then the generic parts. */
void
lab_store_close (lab_store_t *store)
{
   if (!store) {
      return;
   }
   if (store->ops) {
      store->ops->close (store);
   }
   lab_store_uri_cleanup (&store->uri);
   bson_free (store->uri_redacted);
   bson_free (store->db);
   bson_free (store->block_compressor);
   bson_free (store);
}

const char *
lab_store_compressor_note (const lab_store_t *store)
{
   return store->compressor_note;
}

lab_store_backend_t
lab_store_backend (const lab_store_t *store)
{
   return store->uri.backend;
}

const char *
lab_store_uri_redacted (const lab_store_t *store)
{
   return store->uri_redacted;
}

const char *
lab_store_db (const lab_store_t *store)
{
   return store->db;
}

const char *
lab_store_home (const lab_store_t *store)
{
   return store->ops->home ? store->ops->home (store) : NULL;
}

int32_t
lab_store_selection_timeout_ms (const lab_store_t *store)
{
   return store->ops->selection_timeout_ms ? store->ops->selection_timeout_ms (store) : 0;
}

/* lab_store_session_open -- allocate the handle and let the backend attach its per-thread state. */
lab_store_session_t *
lab_store_session_open (lab_store_t *store, bson_error_t *error)
{
   lab_store_session_t *sess = bson_malloc0 (sizeof *sess);

   sess->store = store;
   if (!store->ops->session_open (sess, error)) {
      bson_free (sess);
      return NULL;
   }
   return sess;
}

void
lab_store_session_close (lab_store_session_t *sess)
{
   if (!sess) {
      return;
   }
   sess->store->ops->session_close (sess);
   bson_free (sess);
}

bool
lab_store_exists (lab_store_session_t *sess, const char *coll, bool *exists, bson_error_t *error)
{
   return lab_store_coll_check (coll, error) && sess->store->ops->exists (sess, coll, exists, error);
}

bool
lab_store_create (lab_store_session_t *sess, const char *coll, bson_error_t *error)
{
   return lab_store_coll_check (coll, error) && sess->store->ops->create (sess, coll, error);
}

/* lab_store_create_clustered -- the name checked, then the backend's clustered create. */
bool
lab_store_create_clustered (lab_store_session_t *sess, const char *coll, bson_error_t *error)
{
   if (!lab_store_coll_check (coll, error)) {
      return false;
   }
   if (!sess->store->ops->create_clustered) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "the %s store cannot create clustered collections", sess->store->ops->name);
      return false;
   }
   return sess->store->ops->create_clustered (sess, coll, error);
}

/* lab_store_collect_index -- checks, then the backend's (none: nothing to do). */
bool
lab_store_collect_index (lab_store_session_t *sess, const char *coll, const char *field, bson_error_t *error)
{
   if (!field || !*field) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME, "index field name is empty");
      return false;
   }
   return lab_store_coll_check (coll, error) &&
          (!sess->store->ops->collect_index || sess->store->ops->collect_index (sess, coll, field, error));
}

bool
lab_store_has_index (lab_store_session_t *sess, const char *coll, const char *field, bool *has,
                     bson_error_t *error)
{
   return lab_store_coll_check (coll, error) && sess->store->ops->has_index (sess, coll, field, has, error);
}

/* lab_store_index_info -- checks, then the backend's answer; *size_bytes -1 until known. */
bool
lab_store_index_info (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                      bool *exists, bool *multikey, int64_t *size_bytes, bson_error_t *error)
{
   *exists = *multikey = false;
   *size_bytes = -1;
   return lab_store_coll_check (coll, error) && lab_store_index_spec_check (spec, error) &&
          sess->store->ops->index_info (sess, coll, spec, exists, multikey, size_bytes, error);
}

/* lab_store_list_indexes -- the name checked, then the backend's list. */
bool
lab_store_list_indexes (lab_store_session_t *sess, const char *coll, bson_t *indexes, bool *clustered,
                        bson_error_t *error)
{
   bson_init (indexes);
   *clustered = false;
   return lab_store_coll_check (coll, error) &&
          sess->store->ops->list_indexes (sess, coll, indexes, clustered, error);
}

/* lab_store_drop_index -- checks (never the `_id` index), then the backend's drop. */
bool
lab_store_drop_index (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                      bool *dropped, bson_error_t *error)
{
   bool d = false, ok = lab_store_coll_check (coll, error) && lab_store_index_spec_check (spec, error);

   if (ok && spec->n == 1 && strcmp (spec->fields[0], "_id") == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISUSE,
                     "the _id index of '%s' cannot be dropped (drop the collection instead)", coll);
      ok = false;
   }
   ok = ok && sess->store->ops->drop_index (sess, coll, spec, &d, error);
   if (dropped) {
      *dropped = ok && d;
   }
   return ok;
}

/* lab_store_index_find -- checks (an equality prefix within the pattern, a range only on the field after
 * it), then the backend's IXSCAN + FETCH. */
bool
lab_store_index_find (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                      const bson_value_t *eq, int neq, const bson_value_t *lo, const bson_value_t *hi,
                      lab_store_doc_cb_t cb, void *ctx, int64_t *keys_examined, int64_t *docs_fetched,
                      bson_error_t *error)
{
   int64_t k = 0, d = 0;
   bool ok;

   if (!lab_store_coll_check (coll, error) || !lab_store_index_spec_check (spec, error)) {
      return false;
   }
   if (neq < 0 || neq > spec->n || (neq > 0 && !eq) || ((lo || hi) && neq >= spec->n)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISUSE,
                     "index find on '%s': %d equality value%s%s for a key pattern of %d field%s", coll, neq,
                     neq == 1 ? "" : "s", lo || hi ? " and a range" : "", spec->n, spec->n == 1 ? "" : "s");
      return false;
   }
   ok = sess->store->ops->index_find (sess, coll, spec, eq, neq, lo, hi, cb, ctx, &k, &d, error);
   if (keys_examined) {
      *keys_examined = k;
   }
   if (docs_fetched) {
      *docs_fetched = d;
   }
   return ok;
}

/* lab_store_drop -- the backend's drop, then the collection's marker (store.h): a collection dropped by
 * layoutlab is no longer layoutlab's. */
bool
lab_store_drop (lab_store_session_t *sess, const char *coll, bson_error_t *error)
{
   bson_value_t id;

   if (!lab_store_coll_check (coll, error) || !sess->store->ops->drop (sess, coll, error)) {
      return false;
   }
   if (strcmp (coll, LAB_MARK_COLL) == 0) {
      return true;
   }
   id.value_type = BSON_TYPE_UTF8;
   id.value.v_utf8.str = (char *)coll;
   id.value.v_utf8.len = (uint32_t)strlen (coll);
   if (!lab_store_delete_eq (sess, LAB_MARK_COLL, "_id", &id, NULL, error)) {
      if (!lab_error_is (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION)) {
         return false;
      }
      memset (error, 0, sizeof *error); /* no marker collection: nothing to forget */
   }
   return true;
}

/* lab_store_list -- see store.h. */
bool
lab_store_list (lab_store_session_t *sess, char ***names, bson_error_t *error)
{
   *names = NULL;
   return sess->store->ops->list (sess, names, error);
}

/* lab_store_coll_uuid -- see store.h. */
bool
lab_store_coll_uuid (lab_store_session_t *sess, const char *coll, bson_value_t *uuid, bool *has,
                     bson_error_t *error)
{
   *has = false;
   if (!lab_store_coll_check (coll, error)) {
      return false;
   }
   return !sess->store->ops->coll_uuid || sess->store->ops->coll_uuid (sess, coll, uuid, has, error);
}
