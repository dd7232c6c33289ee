/* store_read.c -- the store interface's reads (store.h): finds by key, server queries, sorted reads and
 * cursors, partitions and distinct keys, natural-order scans. */
#include "store_impl.h"

#include "core/error.h"

#include <stdio.h>
#include <string.h>

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

/* lab_store_docs_keep -- see store.h. */
bool
lab_store_docs_keep (const bson_t *doc, void *ctx)
{
   lab_store_docs_t *d = ctx;

   if (d->n == d->cap) {
      d->cap = d->cap ? 2 * d->cap : 8;
      d->docs = bson_realloc (d->docs, d->cap * sizeof *d->docs);
   }
   d->docs[d->n++] = bson_copy (doc);
   return true;
}

/* lab_store_docs_clear -- see store.h. */
void
lab_store_docs_clear (lab_store_docs_t *d)
{
   size_t i;

   for (i = 0; i < d->n; i++) {
      bson_destroy (d->docs[i]);
   }
   bson_free (d->docs);
   memset (d, 0, sizeof *d);
}
