/*
 * store.c -- the generic half of the store interface: URI parsing, redaction, argument checks, the
 * per-document size cap and `_id` assignment before inserts, session accounting; everything else is
 * dispatched to the backend named by the URI (store_wt.c, store_mongo.c).
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

/* lab_store_coll_check -- see store_impl.h: collection names must be non-empty, without '$' or NUL-like
 * surprises. */
bool
lab_store_coll_check (const char *coll, bson_error_t *error)
{
   if (!coll || !*coll) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME, "collection name is empty");
      return false;
   }
   if (strchr (coll, '$') || strlen (coll) > 200) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "invalid collection name '%s' (no '$', at most 200 bytes)", coll);
      return false;
   }
   return true;
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

bool
lab_store_has_index (lab_store_session_t *sess, const char *coll, const char *field, bool *has,
                     bson_error_t *error)
{
   return lab_store_coll_check (coll, error) && sess->store->ops->has_index (sess, coll, field, has, error);
}

/* lab_store_index_spec_check -- see store_impl.h: 1..LAB_STORE_INDEX_MAX_FIELDS fields, each non-empty, not
 * starting with '$', none twice. */
bool
lab_store_index_spec_check (const lab_store_index_spec_t *spec, bson_error_t *error)
{
   int i, j;

   if (!spec || spec->n < 1 || spec->n > LAB_STORE_INDEX_MAX_FIELDS) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "an index key pattern needs 1 to %d fields (got %d)", LAB_STORE_INDEX_MAX_FIELDS,
                     spec ? spec->n : 0);
      return false;
   }
   for (i = 0; i < spec->n; i++) {
      const char *f = spec->fields[i];
      if (!f || !*f || *f == '$' || f[strlen (f) - 1] == '.' || *f == '.' || strstr (f, "..")) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "index key pattern field %d ('%s') is not a field path", i + 1, f ? f : "(null)");
         return false;
      }
      for (j = 0; j < i; j++) {
         if (strcmp (spec->fields[j], f) == 0) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                           "index key pattern names '%s' twice", f);
            return false;
         }
      }
   }
   return true;
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

bool
lab_store_find_eq (lab_store_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
                   lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs, bson_error_t *error)
{
   int64_t dummy;
   return lab_store_coll_check (coll, error) &&
          sess->store->ops->find_eq (sess, coll, field, value, cb, ctx, ndocs ? ndocs : &dummy, error);
}

bool
lab_store_server_query (lab_store_session_t *sess, const char *coll, const bson_t *filter,
                        const bson_t *pipeline, const bson_t *opts, lab_store_doc_cb_t cb, void *ctx,
                        int64_t *ndocs, bson_error_t *error)
{
   int64_t dummy;
   if (!lab_store_coll_check (coll, error)) {
      return false;
   }
   if (!sess->store->ops->server_query) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "the %s store has no query language: its reads are played by the tool",
                     sess->store->ops->name);
      return false;
   }
   return sess->store->ops->server_query (sess, coll, filter, pipeline, opts, cb, ctx, ndocs ? ndocs : &dummy,
                                          error);
}

lab_store_cursor_t *
lab_store_sorted_open (lab_store_session_t *sess, const char *coll, const char *field,
                       const lab_store_sorted_opts_t *opts, bson_error_t *error)
{
   lab_store_sorted_opts_t none = { 0 };
   lab_store_cursor_t *cur;

   if (!lab_store_coll_check (coll, error)) {
      return NULL;
   }
   cur = bson_malloc0 (sizeof *cur);
   cur->sess = sess;
   if (!sess->store->ops->sorted_open (cur, coll, field, opts ? opts : &none, error)) {
      bson_free (cur);
      return NULL;
   }
   return cur;
}

/* lab_store_sorted_explain -- see store.h. */
bool
lab_store_sorted_explain (lab_store_session_t *sess, const char *coll, const char *field,
                          const lab_store_sorted_opts_t *opts, bson_t *reply, bson_error_t *error)
{
   lab_store_sorted_opts_t none = { 0 };

   bson_init (reply);
   if (!lab_store_coll_check (coll, error)) {
      return false;
   }
   if (!sess->store->ops->sorted_explain) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "%s has no query planner to ask: its sorted read walks the index on '%s' itself",
                     sess->store->uri_redacted, field);
      return false;
   }
   return sess->store->ops->sorted_explain (sess, coll, field, opts ? opts : &none, reply, error);
}

/* describe_walk -- the generic description of a sorted read: the walk of the index on `field` with a
 * fetch of each record, as the embedded store does it (store.h); NO_INDEX as sorted_open gives it. */
static bool
describe_walk (lab_store_session_t *sess, const char *coll, const char *field,
               const lab_store_sorted_opts_t *opts, bson_t *out, bson_error_t *error)
{
   bson_t walk, key;
   bool has;

   if (!sess->store->ops->has_index (sess, coll, field, &has, error)) {
      return false;
   }
   if (!has) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
                     "collection '%s' in %s has no index on '%s' to read it in '%s' order: run with "
                     "--create-index to build it",
                     coll, sess->store->uri_redacted, field, field);
      return false;
   }
   BSON_APPEND_UTF8 (out, "backend", sess->store->ops->name);
   BSON_APPEND_DOCUMENT_BEGIN (out, "walk", &walk);
   BSON_APPEND_UTF8 (&walk, "collection", coll);
   BSON_APPEND_DOCUMENT_BEGIN (&walk, "index", &key);
   BSON_APPEND_INT32 (&key, field, 1);
   bson_append_document_end (&walk, &key);
   if (opts->lo) {
      BSON_APPEND_VALUE (&walk, "lo", opts->lo);
   }
   if (opts->hi) {
      BSON_APPEND_VALUE (&walk, "hi", opts->hi);
   }
   BSON_APPEND_UTF8 (&walk, "fetch", "each index entry's record by RecordId (IXSCAN+FETCH)");
   bson_append_document_end (out, &walk);
   BSON_APPEND_DOCUMENT_BEGIN (out, "index", &key);
   BSON_APPEND_INT32 (&key, field, 1);
   bson_append_document_end (out, &key);
   BSON_APPEND_BOOL (out, "blocking_sort", false);
   BSON_APPEND_UTF8 (out, "ties", "RecordId order (insertion order)");
   return true;
}

bool
lab_store_sorted_describe (lab_store_session_t *sess, const char *coll, const char *field,
                           const lab_store_sorted_opts_t *opts, bson_t *out, bson_error_t *error)
{
   lab_store_sorted_opts_t none = { 0 };

   if (!lab_store_coll_check (coll, error)) {
      return false;
   }
   if (!field || !*field) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME, "sort field name is empty");
      return false;
   }
   opts = opts ? opts : &none;
   if (sess->store->ops->sorted_describe) {
      return sess->store->ops->sorted_describe (sess, coll, field, opts, out, error);
   }
   return describe_walk (sess, coll, field, opts, out, error);
}

int
lab_store_cursor_next (lab_store_cursor_t *cur, const bson_t **doc, bson_error_t *error)
{
   int r;

   /* a finished stream stays finished: a server cursor asked again fails ("Cannot advance a completed or
    * failed cursor"), so the backend is never asked after its end */
   if (cur->ended) {
      return 0;
   }
   r = cur->sess->store->ops->cursor_next (cur, doc, error);
   cur->ended = r == 0;
   return r;
}

void
lab_store_cursor_close (lab_store_cursor_t *cur)
{
   if (cur) {
      cur->sess->store->ops->cursor_close (cur);
      bson_free (cur);
   }
}

bool
lab_store_partition (lab_store_session_t *sess, const char *coll, const char *field, int n,
                     bson_value_t **bounds, int *nbounds, bson_error_t *error)
{
   *bounds = NULL;
   *nbounds = 0;
   if (n < 1) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "partition count must be at least 1 (got %d)", n);
      return false;
   }
   if (!lab_store_coll_check (coll, error)) {
      return false;
   }
   if (n == 1) {
      return true;
   }
   return sess->store->ops->partition (sess, coll, field, n, bounds, nbounds, error);
}

bool
lab_store_distinct_keys (lab_store_session_t *sess, const char *coll, const char *field, bson_value_t **keys,
                         int64_t *nkeys, bson_error_t *error)
{
   *keys = NULL;
   *nkeys = 0;
   return lab_store_coll_check (coll, error) &&
          sess->store->ops->distinct_keys (sess, coll, field, keys, nkeys, error);
}

/* natural_check -- the collection's name and the range: RecordIds are >= 0 and rid_lo <= rid_hi unless
 * rid_hi is 0 (to the end). */
static bool
natural_check (const char *coll, const lab_store_natural_opts_t *opts, bson_error_t *error)
{
   const lab_store_natural_range_t *r = &opts->range;

   if (!lab_store_coll_check (coll, error)) {
      return false;
   }
   if (r->rid_lo < 0 || r->rid_hi < 0 || (r->rid_hi != 0 && r->rid_hi < r->rid_lo)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "natural-order range [%" PRId64 ", %" PRId64 ") of '%s' is not a range of RecordIds",
                     r->rid_lo, r->rid_hi, coll);
      return false;
   }
   return true;
}

lab_store_cursor_t *
lab_store_natural_open (lab_store_session_t *sess, const char *coll, const lab_store_natural_opts_t *opts,
                        bson_error_t *error)
{
   lab_store_natural_opts_t none = { 0 };
   lab_store_cursor_t *cur;

   opts = opts ? opts : &none;
   if (!natural_check (coll, opts, error)) {
      return NULL;
   }
   cur = bson_malloc0 (sizeof *cur);
   cur->sess = sess;
   if (!sess->store->ops->natural_open (cur, coll, opts, error)) {
      bson_free (cur);
      return NULL;
   }
   return cur;
}

bool
lab_store_natural_ranges (lab_store_session_t *sess, const char *coll, int n,
                          lab_store_natural_range_t **ranges, int *nranges, bson_error_t *error)
{
   *ranges = NULL;
   *nranges = 0;
   if (n < 1) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "natural-order range count must be at least 1 (got %d)", n);
      return false;
   }
   return lab_store_coll_check (coll, error) &&
          sess->store->ops->natural_ranges (sess, coll, n, ranges, nranges, error);
}

bool
lab_store_natural_describe (lab_store_session_t *sess, const char *coll, const lab_store_natural_opts_t *opts,
                            bson_t *out, bson_error_t *error)
{
   lab_store_natural_opts_t none = { 0 };

   opts = opts ? opts : &none;
   return natural_check (coll, opts, error) &&
          sess->store->ops->natural_describe (sess, coll, opts, out, error);
}

bool
lab_store_server_info (lab_store_t *store, lab_store_server_info_t *info, bson_error_t *error)
{
   memset (info, 0, sizeof *info);
   info->uptime_s = -1;
   if (!store->ops->server_info (store, info, error)) {
      return false;
   }
   if (store->uri.backend == LAB_BACKEND_WT) {
      info->pid_local = info->pid > 0; /* the engine runs in this process */
   }
   return true;
}

bool
lab_store_engine_stats (lab_store_t *store, lab_store_engine_stats_t *st, bson_error_t *error)
{
   st->cache_bytes = st->cache_max_bytes = st->block_reads = st->block_read_bytes = -1;
   st->cache_read_bytes = st->cache_pages_read = st->server_rss_bytes = -1;
   st->block_writes = st->block_write_bytes = st->log_bytes_written = st->checkpoints = -1;
   return store->ops->engine_stats (store, st, error);
}

bool
lab_store_command_simple (lab_store_t *store, const char *db, const bson_t *cmd, bson_t *reply,
                          bson_error_t *error)
{
   if (!store->ops->command_simple) {
      bson_init (reply);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "server commands are not available on %s (the embedded store)", store->uri_redacted);
      return false;
   }
   return store->ops->command_simple (store, db, cmd, reply, error);
}

bool
lab_store_data_files (lab_store_t *store, const char *coll, char ***paths, bson_error_t *error)
{
   *paths = NULL;
   return store->ops->data_files (store, coll, paths, error);
}

/* not_supported -- LAB_STORE_ERR_NOT_SUPPORTED naming what the backend cannot do; false. */
static bool
not_supported (const lab_store_t *store, const char *what, bson_error_t *error)
{
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED, "%s: not supported by %s", what,
                  store->uri_redacted);
   return false;
}

bool
lab_store_set_cache_size (lab_store_t *store, uint64_t bytes, bson_error_t *error)
{
   if (bytes < LAB_STORE_MIN_CACHE_BYTES) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "an engine cache of %llu bytes is below the minimum of 1MiB", (unsigned long long)bytes);
      return false;
   }
   if (!store->ops->set_cache_size) {
      return not_supported (store, "setting the engine cache size", error);
   }
   return store->ops->set_cache_size (store, bytes, error);
}

bool
lab_store_record_ids (lab_store_session_t *sess, const char *coll, const char *field,
                      const bson_value_t *value, int64_t **rids, size_t *n, bson_error_t *error)
{
   *rids = NULL;
   *n = 0;
   if (!sess->store->ops->record_ids) {
      return not_supported (sess->store, "RecordIds", error);
   }
   return sess->store->ops->record_ids (sess, coll, field, value, rids, n, error);
}

bool
lab_store_leaf_pages (lab_store_session_t *sess, const char *coll, int64_t *pages, bson_error_t *error)
{
   *pages = -1;
   if (!sess->store->ops->leaf_pages) {
      return not_supported (sess->store, "leaf page counts", error);
   }
   return sess->store->ops->leaf_pages (sess, coll, pages, error);
}

/* lab_store_coll_cache_bytes -- see store.h. */
bool
lab_store_coll_cache_bytes (lab_store_session_t *sess, const char *coll, int64_t *bytes, bson_error_t *error)
{
   *bytes = -1;
   if (!lab_store_coll_check (coll, error)) {
      return false;
   }
   return !sess->store->ops->coll_cache_bytes ||
          sess->store->ops->coll_cache_bytes (sess, coll, bytes, error);
}

/* lab_store_cache_footprint -- see store.h. */
bool
lab_store_cache_footprint (lab_store_session_t *sess, const char *coll, const char *key,
                           lab_store_cache_foot_t *out, bson_error_t *error)
{
   memset (out, 0, sizeof *out);
   if (!sess->store->ops->cache_footprint) {
      return not_supported (sess->store, "cache footprints", error);
   }
   return sess->store->ops->cache_footprint (sess, coll, key, out, error);
}

/* lab_store_leaf_pages_estimate -- see store.h. */
bool
lab_store_leaf_pages_estimate (lab_store_session_t *sess, const char *coll,
                               const lab_store_leaf_sample_opts_t *opts, lab_store_leaf_estimate_t *est,
                               bson_error_t *error)
{
   lab_store_leaf_sample_opts_t o = { LAB_LEAF_SAMPLE_WINDOWS, LAB_LEAF_SAMPLE_PAGES_PER_WINDOW };

   memset (est, 0, sizeof *est);
   est->pages = -1;
   if (opts && opts->windows > 0) {
      o.windows = opts->windows < 2 ? 2 : opts->windows;
   }
   if (opts && opts->pages_per_window > 0) {
      o.pages_per_window = opts->pages_per_window;
   }
   if (!sess->store->ops->leaf_pages_estimate) {
      return not_supported (sess->store, "sampled leaf page counts", error);
   }
   return lab_store_coll_check (coll, error) &&
          sess->store->ops->leaf_pages_estimate (sess, coll, &o, est, error);
}

bool
lab_store_cycle (lab_store_t *store, lab_store_cycle_hook_t hook, void *ctx, int32_t ready_timeout_ms,
                 bson_error_t *error)
{
   return store->ops->cycle (store, hook, ctx, ready_timeout_ms > 0 ? ready_timeout_ms : 60000, error);
}
