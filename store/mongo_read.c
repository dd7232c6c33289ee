/*
 * mongo_read.c -- the MongoDB backend's reads and cursors (mongo_private.h): finds by key with batch
 * sizes from the average document size, the index-served sorted aggregate (lab_mongo_sorted_command),
 * natural-order finds (hint {$natural: 1}), cursors (covered key reads, counts and record ids:
 * mongo_keys.c).
 */
#include "mongo_private.h"

#include "core/error.h"

#include <errno.h>
#include <mongoc/mongoc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- reads ---------------------------------------------------------------------------------------- */

/* batch_for -- cursor batch size keeping a reply near MONGO_REPLY_BUDGET_BYTES for this collection's
 * average document size (collStats; 1 KiB when unknown). */
static int32_t
batch_for (lab_store_session_t *sess, const char *coll)
{
   lab_store_coll_stats_t st;
   bson_error_t err;
   double avg = 1024;
   int64_t b;

   memset (&st, 0, sizeof st);
   if (lab_mongo_stats (sess, coll, &st, &err) && st.avg_obj_size_bytes > 0) {
      avg = st.avg_obj_size_bytes;
   }
   b = (int64_t)(MONGO_REPLY_BUDGET_BYTES / avg);
   return (int32_t)(b < 1 ? 1 : b > MONGO_BATCH_MAX_DOCS ? MONGO_BATCH_MAX_DOCS : b);
}

/* find_batch -- batch_for(coll), asked once per session and collection (find_eq runs once per key). */
static int32_t
find_batch (lab_store_session_t *sess, const char *coll)
{
   mongo_sess_t *ss = msess (sess);
   size_t i;

   for (i = 0; i < ss->nbatch; i++) {
      if (strcmp (ss->batch_colls[i], coll) == 0) {
         return ss->batch_docs[i];
      }
   }
   ss->batch_colls = bson_realloc (ss->batch_colls, (ss->nbatch + 1) * sizeof *ss->batch_colls);
   ss->batch_docs = bson_realloc (ss->batch_docs, (ss->nbatch + 1) * sizeof *ss->batch_docs);
   ss->batch_colls[ss->nbatch] = bson_strdup (coll);
   ss->batch_docs[ss->nbatch] = batch_for (sess, coll);
   return ss->batch_docs[ss->nbatch++];
}

/* lab_mongo_find_eq -- find {field: value} in the server's index order; NO_INDEX unless indexed. */
bool
lab_mongo_find_eq (lab_store_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
                   lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs, bson_error_t *error)
{
   mongoc_collection_t *c;
   mongoc_cursor_t *cursor;
   bson_t filter, opts = BSON_INITIALIZER;
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;

   *ndocs = 0;
   if (!lab_mongo_require_index (sess, coll, field, error)) {
      return false;
   }
   c = lab_mongo_get_coll (sess, coll);
   lab_mongo_eq_filter (field, value, &filter);
   /* all of one key's rows in one reply where they fit the budget: the default first batch (101)
    * would cost the many-rows layout an extra round trip per key and bias the comparison */
   BSON_APPEND_INT32 (&opts, "batchSize", find_batch (sess, coll));
   cursor = mongoc_collection_find_with_opts (c, &filter, &opts, NULL);
   while (mongoc_cursor_next (cursor, &doc)) {
      (*ndocs)++;
      if (!cb (doc, ctx)) {
         break;
      }
   }
   if (mongoc_cursor_error (cursor, &err)) {
      lab_mongo_fail (sess->store, error, &err, "finding documents of '%s' where %s matches", coll, field);
      ok = false;
   }
   mongoc_cursor_destroy (cursor);
   bson_destroy (&opts);
   bson_destroy (&filter);
   mongoc_collection_destroy (c);
   return ok;
}

/* lab_mongo_server_query -- find (pipeline NULL) or aggregate on coll, cb per returned document. */
bool
lab_mongo_server_query (lab_store_session_t *sess, const char *coll, const bson_t *filter,
                        const bson_t *pipeline, const bson_t *opts, lab_store_doc_cb_t cb, void *ctx,
                        int64_t *ndocs, bson_error_t *error)
{
   static const bson_t empty = BSON_INITIALIZER;
   mongoc_collection_t *c = lab_mongo_get_coll (sess, coll);
   mongoc_cursor_t *cursor;
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;

   *ndocs = 0;
   if (pipeline) {
      cursor = mongoc_collection_aggregate (c, MONGOC_QUERY_NONE, pipeline, opts, NULL);
   } else {
      cursor = mongoc_collection_find_with_opts (c, filter ? filter : &empty, opts, NULL);
   }
   while (mongoc_cursor_next (cursor, &doc)) {
      (*ndocs)++;
      if (!cb (doc, ctx)) {
         break;
      }
   }
   if (mongoc_cursor_error (cursor, &err)) {
      lab_mongo_fail (sess->store, error, &err, "%s on '%s'", pipeline ? "aggregate" : "find", coll);
      ok = false;
   }
   mongoc_cursor_destroy (cursor);
   mongoc_collection_destroy (c);
   return ok;
}

/* lab_mongo_index_find_query -- *filter = {f1: eq1, ..., fk: {$gte: lo, $lt: hi}} and *opts = {hint: the
 * key pattern} (both initialized here): what lab_mongo_index_find sends, apart from its batch size. */
void
lab_mongo_index_find_query (const lab_store_index_spec_t *spec, const bson_value_t *eq, int neq,
                            const bson_value_t *lo, const bson_value_t *hi, bson_t *filter, bson_t *opts)
{
   bson_t hint, range;
   int i;

   bson_init (filter);
   bson_init (opts);
   for (i = 0; i < neq; i++) {
      BSON_APPEND_VALUE (filter, spec->fields[i], &eq[i]);
   }
   if (lo || hi) {
      BSON_APPEND_DOCUMENT_BEGIN (filter, spec->fields[neq], &range);
      if (lo) {
         BSON_APPEND_VALUE (&range, "$gte", lo);
      }
      if (hi) {
         BSON_APPEND_VALUE (&range, "$lt", hi);
      }
      bson_append_document_end (filter, &range);
   }
   BSON_APPEND_DOCUMENT_BEGIN (opts, "hint", &hint);
   for (i = 0; i < spec->n; i++) {
      BSON_APPEND_INT32 (&hint, spec->fields[i], 1);
   }
   bson_append_document_end (opts, &hint);
}

/* lab_mongo_index_find -- find {f1: eq1, ..., fk: {$gte: lo, $lt: hi}} hinted to the key pattern (which
 * must exist: lab_mongo_require_index_spec); the server dedups a multikey index's RecordIds. Keys
 * examined are the server's to know: -1. */
bool
lab_mongo_index_find (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                      const bson_value_t *eq, int neq, const bson_value_t *lo, const bson_value_t *hi,
                      lab_store_doc_cb_t cb, void *ctx, int64_t *keys_examined, int64_t *docs_fetched,
                      bson_error_t *error)
{
   mongoc_collection_t *c;
   mongoc_cursor_t *cursor;
   bson_t filter, opts;
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;

   *keys_examined = -1;
   *docs_fetched = 0;
   if (!lab_mongo_require_index_spec (sess, coll, spec, error)) {
      return false;
   }
   lab_mongo_index_find_query (spec, eq, neq, lo, hi, &filter, &opts);
   BSON_APPEND_INT32 (&opts, "batchSize", find_batch (sess, coll));
   c = lab_mongo_get_coll (sess, coll);
   cursor = mongoc_collection_find_with_opts (c, &filter, &opts, NULL);
   while (mongoc_cursor_next (cursor, &doc)) {
      (*docs_fetched)++;
      if (!cb (doc, ctx)) {
         break;
      }
   }
   if (mongoc_cursor_error (cursor, &err)) {
      char name[512];
      lab_store_index_spec_name (spec, name, sizeof name);
      lab_mongo_fail (sess->store, error, &err, "finding documents of '%s' through index %s", coll, name);
      ok = false;
   }
   mongoc_cursor_destroy (cursor);
   mongoc_collection_destroy (c);
   bson_destroy (&opts);
   bson_destroy (&filter);
   return ok;
}

/* lab_mongo_cursor_close -- destroy the cursor (killCursors when unfinished) and its collection. */
void
lab_mongo_cursor_close (lab_store_cursor_t *cur)
{
   mongo_cur_t *mc = cur->impl;

   if (!mc) {
      return;
   }
   mongoc_cursor_destroy (mc->cursor);
   mongoc_collection_destroy (mc->coll);
   bson_free (mc);
   cur->impl = NULL;
}

/* open_aggregate -- an aggregate cursor; the pipeline is {"0": ..}, opts carry batchSize and the rest. */
static mongo_cur_t *
open_aggregate (lab_store_session_t *sess, const char *coll, const bson_t *pipeline, const bson_t *opts)
{
   mongo_cur_t *mc = bson_malloc0 (sizeof *mc);

   mc->coll = lab_mongo_get_coll (sess, coll);
   mc->cursor = mongoc_collection_aggregate (mc->coll, MONGOC_QUERY_NONE, pipeline, opts, NULL);
   return mc;
}

/* sorted_command -- the pipeline [{$match: [lo, hi)}, {$sort}] and the aggregate options (allowDiskUse,
 * batchSize, hint = the index's key pattern) of a sorted read; both initialized here. The sort is
 * {field: 1}, plus _id: 1 on a server that sorts in memory, unstably (FerretDB): there the tie-breaker
 * costs nothing and keeps ties deterministic; on mongod it would turn the index walk into a blocking
 * sort of the whole collection. */
static void
sorted_command (const char *field, const lab_store_sorted_opts_t *opts, const bson_t *pattern, int32_t batch,
                bool sort_in_memory, bson_t *pipeline, bson_t *agg_opts)
{
   bson_t stage, inner, range;

   bson_init (pipeline);
   BSON_APPEND_DOCUMENT_BEGIN (pipeline, "0", &stage);
   BSON_APPEND_DOCUMENT_BEGIN (&stage, "$match", &inner);
   if (opts->lo || opts->hi) {
      BSON_APPEND_DOCUMENT_BEGIN (&inner, field, &range);
      if (opts->lo) {
         BSON_APPEND_VALUE (&range, "$gte", opts->lo);
      }
      if (opts->hi) {
         BSON_APPEND_VALUE (&range, "$lt", opts->hi);
      }
      bson_append_document_end (&inner, &range);
   }
   bson_append_document_end (&stage, &inner);
   bson_append_document_end (pipeline, &stage);
   BSON_APPEND_DOCUMENT_BEGIN (pipeline, "1", &stage);
   BSON_APPEND_DOCUMENT_BEGIN (&stage, "$sort", &inner);
   BSON_APPEND_INT32 (&inner, field, 1);
   if (sort_in_memory && strcmp (field, "_id") != 0) {
      BSON_APPEND_INT32 (&inner, "_id", 1);
   }
   bson_append_document_end (&stage, &inner);
   bson_append_document_end (pipeline, &stage);

   bson_init (agg_opts);
   /* no spill is expected on mongod (the index serves the order); FerretDB ignores it */
   BSON_APPEND_BOOL (agg_opts, "allowDiskUse", true);
   BSON_APPEND_INT32 (agg_opts, "batchSize", batch);
   BSON_APPEND_DOCUMENT (agg_opts, "hint", pattern);
}

void
lab_mongo_sorted_command (const char *db, const char *coll, const char *field,
                          const lab_store_sorted_opts_t *opts, const bson_t *index, int32_t batch_docs,
                          bool sort_in_memory, bson_t *out)
{
   lab_store_sorted_opts_t none = { 0 };
   bson_t pipeline, agg_opts, cursor;

   sorted_command (field, opts ? opts : &none, index, batch_docs, sort_in_memory, &pipeline, &agg_opts);
   /* libmongoc's order: aggregate, pipeline, cursor, then the options; OP_MSG adds $db */
   BSON_APPEND_UTF8 (out, "aggregate", coll);
   BSON_APPEND_ARRAY (out, "pipeline", &pipeline);
   BSON_APPEND_DOCUMENT_BEGIN (out, "cursor", &cursor);
   BSON_APPEND_INT32 (&cursor, "batchSize", batch_docs);
   bson_append_document_end (out, &cursor);
   BSON_APPEND_BOOL (out, "allowDiskUse", true);
   BSON_APPEND_DOCUMENT (out, "hint", index);
   BSON_APPEND_UTF8 (out, "$db", db);
   bson_destroy (&agg_opts);
   bson_destroy (&pipeline);
}

/* lab_mongo_sorted_open -- the index-served aggregate of sorted_command (store.h, the sorted-read contract).
 */
bool
lab_mongo_sorted_open (lab_store_cursor_t *cur, const char *coll, const char *field,
                       const lab_store_sorted_opts_t *opts, bson_error_t *error)
{
   lab_store_session_t *sess = cur->sess;
   bson_t pattern = BSON_INITIALIZER, pipeline, agg_opts;

   if (!lab_mongo_require_sort_index (sess, coll, field, &pattern, error)) {
      bson_destroy (&pattern);
      return false;
   }
   sorted_command (field, opts, &pattern, opts->batch_docs > 0 ? opts->batch_docs : batch_for (sess, coll),
                   mstore (sess->store)->sort_in_memory, &pipeline, &agg_opts);
   cur->impl = open_aggregate (sess, coll, &pipeline, &agg_opts);
   bson_destroy (&agg_opts);
   bson_destroy (&pipeline);
   bson_destroy (&pattern);
   return true;
}

/* lab_mongo_sorted_describe -- the command lab_mongo_sorted_open would send (lab_mongo_sorted_command). */
bool
lab_mongo_sorted_describe (lab_store_session_t *sess, const char *coll, const char *field,
                           const lab_store_sorted_opts_t *opts, bson_t *out, bson_error_t *error)
{
   bool in_memory = mstore (sess->store)->sort_in_memory;
   bson_t pattern = BSON_INITIALIZER, cmd;

   if (!lab_mongo_require_sort_index (sess, coll, field, &pattern, error)) {
      bson_destroy (&pattern);
      return false;
   }
   BSON_APPEND_UTF8 (out, "backend", "mongodb");
   BSON_APPEND_DOCUMENT_BEGIN (out, "command", &cmd);
   lab_mongo_sorted_command (sess->store->db, coll, field, opts, &pattern,
                             opts->batch_docs > 0 ? opts->batch_docs : batch_for (sess, coll), in_memory,
                             &cmd);
   bson_append_document_end (out, &cmd);
   BSON_APPEND_DOCUMENT (out, "index", &pattern);
   BSON_APPEND_BOOL (out, "blocking_sort", in_memory);
   BSON_APPEND_UTF8 (out, "ties",
                     in_memory ? "_id order (FerretDB ignores hint and sorts in memory)"
                               : "index order (RecordId order)");
   bson_destroy (&pattern);
   return true;
}

/* lab_mongo_sorted_explain -- {explain: <the aggregate lab_mongo_sorted_open sends>, verbosity:
 * "queryPlanner"}: the server plans the exact command (same pipeline, hint, allowDiskUse, batch size) and
 * says how it would run it, reading nothing. The inner command goes without `$db`: it is the OP_MSG
 * envelope's, which libmongoc adds to the explain itself (and mongod refuses an inner $db that differs
 * from the outer: src/mongo/db/commands/explain_cmd.cpp). */
bool
lab_mongo_sorted_explain (lab_store_session_t *sess, const char *coll, const char *field,
                          const lab_store_sorted_opts_t *opts, bson_t *reply, bson_error_t *error)
{
   bson_t pattern = BSON_INITIALIZER, cmd = BSON_INITIALIZER, inner = BSON_INITIALIZER, explain;
   mongoc_database_t *db;
   bson_error_t err;
   bool ok = false;

   bson_destroy (reply);
   bson_init (reply);
   if (!lab_mongo_require_sort_index (sess, coll, field, &pattern, error)) {
      goto done;
   }
   lab_mongo_sorted_command (sess->store->db, coll, field, opts, &pattern,
                             opts->batch_docs > 0 ? opts->batch_docs : batch_for (sess, coll),
                             mstore (sess->store)->sort_in_memory, &inner);
   BSON_APPEND_DOCUMENT_BEGIN (&cmd, "explain", &explain);
   bson_copy_to_excluding_noinit (&inner, &explain, "$db", NULL);
   bson_append_document_end (&cmd, &explain);
   BSON_APPEND_UTF8 (&cmd, "verbosity", "queryPlanner");
   db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   bson_destroy (reply);
   ok = mongoc_database_command_simple (db, &cmd, NULL, reply, &err);
   mongoc_database_destroy (db);
   if (!ok) {
      lab_mongo_fail (sess->store, error, &err, "explain of the sorted read of '%s' (hint %s_1)", coll,
                      field);
   }
done:
   bson_destroy (&inner);
   bson_destroy (&cmd);
   bson_destroy (&pattern);
   return ok;
}

/* natural_find_opts -- the find options of a natural-order read: hint {$natural: 1} (mongod plans a
 * COLLSCAN, query_planner.cpp), the batch size. */
static void
natural_find_opts (int32_t batch, bson_t *opts)
{
   bson_t hint;

   bson_init (opts);
   BSON_APPEND_DOCUMENT_BEGIN (opts, "hint", &hint);
   BSON_APPEND_INT32 (&hint, "$natural", 1);
   bson_append_document_end (opts, &hint);
   BSON_APPEND_INT32 (opts, "batchSize", batch);
}

/* natural_whole -- a server reads only the whole collection in natural order (store.h). */
static bool
natural_whole (lab_store_session_t *sess, const char *coll, const lab_store_natural_opts_t *opts,
               bson_error_t *error)
{
   if (opts->range.rid_lo != 0 || opts->range.rid_hi != 0) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "a natural-order read of part of '%s' (RecordIds [%" PRId64 ", %" PRId64
                     ")): %s gives no RecordId bounds to a find; read the whole collection",
                     coll, opts->range.rid_lo, opts->range.rid_hi, sess->store->uri_redacted);
      return false;
   }
   return lab_mongo_require_coll (sess, coll, error);
}

/* lab_mongo_natural_open -- find {} with hint {$natural: 1} (store.h, the natural-order contract). */
bool
lab_mongo_natural_open (lab_store_cursor_t *cur, const char *coll, const lab_store_natural_opts_t *opts,
                        bson_error_t *error)
{
   lab_store_session_t *sess = cur->sess;
   mongo_cur_t *mc;
   bson_t filter = BSON_INITIALIZER, find_opts;

   if (!natural_whole (sess, coll, opts, error)) {
      return false;
   }
   natural_find_opts (opts->batch_docs > 0 ? opts->batch_docs : batch_for (sess, coll), &find_opts);
   mc = bson_malloc0 (sizeof *mc);
   mc->coll = lab_mongo_get_coll (sess, coll);
   mc->cursor = mongoc_collection_find_with_opts (mc->coll, &filter, &find_opts, NULL);
   cur->impl = mc;
   bson_destroy (&find_opts);
   bson_destroy (&filter);
   return true;
}

/* lab_mongo_natural_ranges -- one range, the whole collection (a find has no RecordId bounds). */
bool
lab_mongo_natural_ranges (lab_store_session_t *sess, const char *coll, int n,
                          lab_store_natural_range_t **ranges, int *nranges, bson_error_t *error)
{
   BSON_UNUSED (n);
   if (!lab_mongo_require_coll (sess, coll, error)) {
      return false;
   }
   *ranges = bson_malloc0 (sizeof **ranges);
   *nranges = 1;
   return true;
}

/* lab_mongo_natural_describe -- the find command lab_mongo_natural_open would send. */
bool
lab_mongo_natural_describe (lab_store_session_t *sess, const char *coll, const lab_store_natural_opts_t *opts,
                            bson_t *out, bson_error_t *error)
{
   int32_t batch;
   bson_t cmd, hint;

   if (!natural_whole (sess, coll, opts, error)) {
      return false;
   }
   batch = opts->batch_docs > 0 ? opts->batch_docs : batch_for (sess, coll);
   BSON_APPEND_UTF8 (out, "backend", "mongodb");
   BSON_APPEND_DOCUMENT_BEGIN (out, "command", &cmd);
   BSON_APPEND_UTF8 (&cmd, "find", coll);
   BSON_APPEND_DOCUMENT_BEGIN (&cmd, "filter", &hint);
   bson_append_document_end (&cmd, &hint);
   BSON_APPEND_DOCUMENT_BEGIN (&cmd, "hint", &hint);
   BSON_APPEND_INT32 (&hint, "$natural", 1);
   bson_append_document_end (&cmd, &hint);
   BSON_APPEND_INT32 (&cmd, "batchSize", batch);
   BSON_APPEND_UTF8 (&cmd, "$db", sess->store->db);
   bson_append_document_end (out, &cmd);
   BSON_APPEND_NULL (out, "index");
   BSON_APPEND_BOOL (out, "blocking_sort", false);
   BSON_APPEND_UTF8 (out, "order", "the server's natural order (COLLSCAN)");
   return true;
}

/* lab_mongo_cursor_next -- 1 with a document, 0 at the end, -1 on error. */
int
lab_mongo_cursor_next (lab_store_cursor_t *cur, const bson_t **doc, bson_error_t *error)
{
   mongo_cur_t *mc = cur->impl;
   bson_error_t err;

   if (mongoc_cursor_next (mc->cursor, doc)) {
      return 1;
   }
   if (mongoc_cursor_error (mc->cursor, &err)) {
      lab_mongo_fail (cur->sess->store, error, &err, "reading a stream of '%s'",
                      mongoc_collection_get_name (mc->coll));
      return -1;
   }
   return 0;
}
