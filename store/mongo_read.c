/*
 * mongo_read.c -- the MongoDB backend's reads and cursors (mongo_private.h): finds by key with batch
 * sizes from the average document size, the index-served sorted aggregate (lab_mongo_sorted_command),
 * natural-order finds (hint {$natural: 1}),
 * covered key reads for partitions and distinct keys, estimated counts, record ids.
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

/* key_find -- a covered find of the index on `field`: filter {}, projection {field: 1, _id: 0} (the
 * index holds everything the reply needs, so mongod reads no document: PROJECTION_COVERED over IXSCAN),
 * sort {field: dir} (1 or -1), hint = its key pattern, plus skip/limit when > 0. Caller destroys the cursor.
 */
static mongoc_cursor_t *
key_find_dir (lab_store_session_t *sess, mongoc_collection_t *c, const char *field, const bson_t *pattern,
              int64_t skip, int64_t limit, int32_t batch, int dir)
{
   bson_t filter = BSON_INITIALIZER, opts = BSON_INITIALIZER, proj;
   mongoc_cursor_t *cursor;

   BSON_UNUSED (sess);
   BSON_APPEND_DOCUMENT_BEGIN (&opts, "projection", &proj);
   BSON_APPEND_INT32 (&proj, field, 1);
   if (strcmp (field, "_id") != 0) {
      BSON_APPEND_INT32 (&proj, "_id", 0);
   }
   bson_append_document_end (&opts, &proj);
   /* no _id tie-breaker here, even on FerretDB: only the key values matter, whatever the order of ties */
   BSON_APPEND_DOCUMENT_BEGIN (&opts, "sort", &proj);
   BSON_APPEND_INT32 (&proj, field, dir);
   bson_append_document_end (&opts, &proj);
   BSON_APPEND_DOCUMENT (&opts, "hint", pattern);
   if (skip > 0) {
      BSON_APPEND_INT64 (&opts, "skip", skip);
   }
   if (limit > 0) {
      BSON_APPEND_INT64 (&opts, "limit", limit);
   }
   BSON_APPEND_INT32 (&opts, "batchSize", batch);
   cursor = mongoc_collection_find_with_opts (c, &filter, &opts, NULL);
   bson_destroy (&opts);
   bson_destroy (&filter);
   return cursor;
}

/* key_find -- key_find_dir in ascending order. */
static mongoc_cursor_t *
key_find (lab_store_session_t *sess, mongoc_collection_t *c, const char *field, const bson_t *pattern,
          int64_t skip, int64_t limit, int32_t batch)
{
   return key_find_dir (sess, c, field, pattern, skip, limit, batch, 1);
}

/* key_value -- the value of `field` in a covered reply document; a document without the field is
 * indexed (and sorted) as null. */
static void
key_value (const bson_t *doc, const char *field, bson_value_t *value)
{
   bson_iter_t it, child;

   if (bson_iter_init (&it, doc) && bson_iter_find_descendant (&it, field, &child)) {
      bson_value_copy (bson_iter_value (&child), value);
   } else {
      memset (value, 0, sizeof *value);
      value->value_type = BSON_TYPE_NULL;
   }
}

/* probe_at -- the value of `field` at sorted position `skip` (*found false past the end), by a covered
 * find with skip and limit 1. */
static bool
probe_at (lab_store_session_t *sess, const char *coll, const char *field, const bson_t *pattern, int64_t skip,
          bson_value_t *value, bool *found, bson_error_t *error)
{
   mongoc_collection_t *c = lab_mongo_get_coll (sess, coll);
   mongoc_cursor_t *cursor = key_find (sess, c, field, pattern, skip, 1, 1);
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;

   *found = false;
   if (mongoc_cursor_next (cursor, &doc)) {
      *found = true;
      key_value (doc, field, value);
   } else if (mongoc_cursor_error (cursor, &err)) {
      lab_mongo_fail (sess->store, error, &err, "probing '%s' of '%s' at position %" PRId64, field, coll,
                      skip);
      ok = false;
   }
   mongoc_cursor_destroy (cursor);
   mongoc_collection_destroy (c);
   return ok;
}

/* is_number -- a numeric BSON type (the index and the sort compare them by value). */
static bool
is_number (bson_type_t t)
{
   return t == BSON_TYPE_INT32 || t == BSON_TYPE_INT64 || t == BSON_TYPE_DOUBLE;
}

/* values_equal -- equal as index keys: numbers by value (1, 1L and 1.0 are one key), anything else by
 * type and bytes. */
static bool
values_equal (const bson_value_t *a, const bson_value_t *b)
{
   bson_t da = BSON_INITIALIZER, db;
   bool eq;

   if (is_number (a->value_type) && is_number (b->value_type)) {
      if (a->value_type != BSON_TYPE_DOUBLE && b->value_type != BSON_TYPE_DOUBLE) {
         int64_t x = a->value_type == BSON_TYPE_INT32 ? a->value.v_int32 : a->value.v_int64;
         int64_t y = b->value_type == BSON_TYPE_INT32 ? b->value.v_int32 : b->value.v_int64;
         return x == y;
      }
      {
         double x = a->value_type == BSON_TYPE_DOUBLE  ? a->value.v_double
                    : a->value_type == BSON_TYPE_INT32 ? (double)a->value.v_int32
                                                       : (double)a->value.v_int64;
         double y = b->value_type == BSON_TYPE_DOUBLE  ? b->value.v_double
                    : b->value_type == BSON_TYPE_INT32 ? (double)b->value.v_int32
                                                       : (double)b->value.v_int64;
         return x == y || (x != x && y != y); /* NaN is one key */
      }
   }
   bson_init (&db);
   BSON_APPEND_VALUE (&da, "v", a);
   BSON_APPEND_VALUE (&db, "v", b);
   eq = da.len == db.len && memcmp (bson_get_data (&da), bson_get_data (&db), da.len) == 0;
   bson_destroy (&da);
   bson_destroy (&db);
   return eq;
}

/* lab_mongo_count_estimated -- the `count` command without a query (collection metadata on mongod). */
bool
lab_mongo_count_estimated (lab_store_session_t *sess, const char *coll, int64_t *count, bson_error_t *error)
{
   mongoc_collection_t *c;
   bson_error_t err;
   int64_t n;

   if (!lab_mongo_require_coll (sess, coll, error)) {
      return false;
   }
   c = lab_mongo_get_coll (sess, coll);
   n = mongoc_collection_estimated_document_count (c, NULL, NULL, NULL, &err);
   mongoc_collection_destroy (c);
   if (n < 0) {
      lab_mongo_fail (sess->store, error, &err, "counting the documents of '%s' (count command)", coll);
      return false;
   }
   *count = n;
   return true;
}

/* lab_mongo_partition -- for k = 1..n-1, the key at sorted position k*count/n is a split value: all of its
 * documents start range k, so no key is split. Repeats and the smallest key (an empty first range) are
 * dropped.
 *
 * Cost: n-1 covered finds (skip + limit 1, hinted) plus the first key and a metadata count. mongod walks
 * the skipped index keys server-side without fetching a document or sending anything back: about
 * count * (n-1) / 2 keys in all, seconds on 10^8 rows. The alternatives are worse: one covered stream of
 * every key ships the whole index to the client, and $bucketAuto is a blocking sort of every document.
 * The count may be an estimate: that only moves the bounds, the ranges still cover every document once
 * (first and last unbounded); a position past the end stops the bounds early. */
bool
lab_mongo_partition (lab_store_session_t *sess, const char *coll, const char *field, int n,
                     bson_value_t **bounds, int *nbounds, bson_error_t *error)
{
   bson_t pattern = BSON_INITIALIZER;
   bson_value_t first;
   int64_t total;
   bool found, ok = false, have_first = false;
   int k;

   if (!lab_mongo_require_sort_index (sess, coll, field, &pattern, error) ||
       !lab_mongo_count_estimated (sess, coll, &total, error)) {
      bson_destroy (&pattern);
      return false;
   }
   if (total == 0) {
      bson_destroy (&pattern);
      return true;
   }
   if (!probe_at (sess, coll, field, &pattern, 0, &first, &have_first, error)) {
      bson_destroy (&pattern);
      return false;
   }
   *bounds = bson_malloc0 ((size_t)n * sizeof **bounds);
   for (k = 1; k < n; k++) {
      int64_t pos = total * k / n;
      bson_value_t v;

      if (pos <= 0) {
         continue;
      }
      if (!probe_at (sess, coll, field, &pattern, pos, &v, &found, error)) {
         goto done;
      }
      if (!found) {
         break; /* the collection is smaller than counted */
      }
      if ((have_first && values_equal (&v, &first)) ||
          (*nbounds > 0 && values_equal (&v, &(*bounds)[*nbounds - 1]))) {
         bson_value_destroy (&v);
         continue;
      }
      (*bounds)[(*nbounds)++] = v;
   }
   ok = true;
done:
   if (have_first) {
      bson_value_destroy (&first);
   }
   if (!ok) {
      lab_store_values_free (*bounds, *nbounds);
      *bounds = NULL;
      *nbounds = 0;
   }
   bson_destroy (&pattern);
   return ok;
}

/* key_walk -- every key of `field` in index order, each passed to `cb` (which owns it): one covered,
 * hinted find of the index alone, never more than a batch held. `what` names the walk in an error. */
static bool
key_walk (lab_store_session_t *sess, const char *coll, const char *field,
          void (*cb) (bson_value_t *v, void *ctx), void *ctx, const char *what, bson_error_t *error)
{
   bson_t pattern = BSON_INITIALIZER;
   mongoc_collection_t *c;
   mongoc_cursor_t *cursor;
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;

   if (!lab_mongo_require_sort_index (sess, coll, field, &pattern, error)) {
      bson_destroy (&pattern);
      return false;
   }
   c = lab_mongo_get_coll (sess, coll);
   cursor = key_find (sess, c, field, &pattern, 0, 0, MONGO_KEY_BATCH_DOCS);
   while (mongoc_cursor_next (cursor, &doc)) {
      bson_value_t v;

      key_value (doc, field, &v);
      cb (&v, ctx);
   }
   if (mongoc_cursor_error (cursor, &err)) {
      lab_mongo_fail (sess->store, error, &err, "%s of '%s' in '%s'", what, field, coll);
      ok = false;
   }
   mongoc_cursor_destroy (cursor);
   mongoc_collection_destroy (c);
   bson_destroy (&pattern);
   return ok;
}

/* The distinct keys gathered by key_walk. */
typedef struct {
   bson_value_t **keys;
   int64_t *nkeys;
   size_t cap;
} distinct_t;

/* distinct_add -- keep v unless it equals the previous key. */
static void
distinct_add (bson_value_t *v, void *ctx)
{
   distinct_t *d = ctx;

   if (*d->nkeys > 0 && values_equal (v, &(*d->keys)[*d->nkeys - 1])) {
      bson_value_destroy (v);
      return;
   }
   if ((size_t)*d->nkeys == d->cap) {
      d->cap = d->cap ? d->cap * 2 : 1024;
      *d->keys = bson_realloc (*d->keys, d->cap * sizeof **d->keys);
   }
   (*d->keys)[(*d->nkeys)++] = *v;
}

/* lab_mongo_distinct_keys -- one covered, hinted find of every key in index order, equal neighbours
 * dropped: reads only the index and never holds more than a batch on either side. (The distinct command
 * uses the index too but caps its answer at 16 MiB; a $group is a scan of every document.) */
bool
lab_mongo_distinct_keys (lab_store_session_t *sess, const char *coll, const char *field, bson_value_t **keys,
                         int64_t *nkeys, bson_error_t *error)
{
   distinct_t d = { keys, nkeys, 0 };

   if (!key_walk (sess, coll, field, distinct_add, &d, "listing the distinct values", error)) {
      lab_store_values_free (*keys, (int)*nkeys);
      *keys = NULL;
      *nkeys = 0;
      return false;
   }
   return true;
}

/* lab_mongo_key_ends -- the first and the last key in index order: two covered, hinted finds of one
 * document each, sorted {field: 1} and {field: -1} (mongod walks the index from either end). */
bool
lab_mongo_key_ends (lab_store_session_t *sess, const char *coll, const char *field, bson_value_t *first,
                    bson_value_t *last, bool *empty, bson_error_t *error)
{
   bson_t pattern = BSON_INITIALIZER;
   mongoc_collection_t *c;
   bool ok = true;
   int end;

   *empty = false;
   if (!lab_mongo_require_sort_index (sess, coll, field, &pattern, error)) {
      bson_destroy (&pattern);
      return false;
   }
   c = lab_mongo_get_coll (sess, coll);
   for (end = 0; ok && !*empty && end < 2; end++) {
      mongoc_cursor_t *cursor = key_find_dir (sess, c, field, &pattern, 0, 1, 1, end ? -1 : 1);
      const bson_t *doc;
      bson_error_t err;

      if (mongoc_cursor_next (cursor, &doc)) {
         key_value (doc, field, end ? last : first);
      } else if (mongoc_cursor_error (cursor, &err)) {
         lab_mongo_fail (sess->store, error, &err, "reading the ends of the index on '%s' of '%s'", field,
                         coll);
         ok = false;
      } else {
         *empty = true;
      }
      mongoc_cursor_destroy (cursor);
   }
   if ((!ok || *empty) && end == 2) {
      bson_value_destroy (first); /* the last end failed or vanished after the first was read */
   }
   mongoc_collection_destroy (c);
   bson_destroy (&pattern);
   return ok;
}

/* type_count -- one more key of v's BSON type (rows: 256 counters). */
static void
type_count (bson_value_t *v, void *ctx)
{
   int64_t *rows = ctx;

   rows[(uint8_t)v->value_type]++;
   bson_value_destroy (v);
}

/* lab_mongo_key_type_counts -- every key of the index on field counted per BSON type: one covered, hinted
 * find in index order (as lab_mongo_distinct_keys: the index alone, no document fetched; a $group on
 * {$type} would read every document). A document without the field counts as null, as it is indexed. */
bool
lab_mongo_key_type_counts (lab_store_session_t *sess, const char *coll, const char *field, int64_t *rows,
                           bson_error_t *error)
{
   return key_walk (sess, coll, field, type_count, rows, "counting the key types", error);
}

/* ---- record ids ------------------------------------------------------------------------------ */

/* cmp_int64 -- ascending for qsort. */
static int
cmp_int64 (const void *a, const void *b)
{
   int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
   return x < y ? -1 : x > y;
}

/* lab_mongo_record_ids -- find with showRecordId, projecting only the indexed field without _id, so
 * that mongod answers from the index alone (a covered IXSCAN, no FETCH: docs/mongodb-compat.md); a
 * server that returns none or no real ones (FerretDB: 0) gives LAB_STORE_ERR_NOT_SUPPORTED. */
bool
lab_mongo_record_ids (lab_store_session_t *sess, const char *coll, const char *field,
                      const bson_value_t *value, int64_t **rids, size_t *n, bson_error_t *error)
{
   mongoc_collection_t *c;
   mongoc_cursor_t *cursor;
   bson_t filter, opts = BSON_INITIALIZER, proj;
   const bson_t *doc;
   bson_error_t err;
   size_t cap = 16;
   bool ok = true, clustered = false;

   if (!lab_mongo_require_index (sess, coll, field, error) ||
       !lab_mongo_coll_clustered_cached (sess, coll, &clustered, error)) {
      return false;
   }
   if (clustered) {
      /* its $recordId is the _id value decoded from the KeyString (record_id_helpers::appendToBSONAs):
       * a number when _id is one, yet no position in the record table */
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "'%s' on %s is a clustered collection (listCollections options.clusteredIndex): its "
                     "$recordId is its _id, not a RecordId: page locality cannot be measured",
                     coll, sess->store->uri_redacted);
      return false;
   }
   *rids = bson_malloc (cap * sizeof **rids);
   c = lab_mongo_get_coll (sess, coll);
   lab_mongo_eq_filter (field, value, &filter);
   BSON_APPEND_BOOL (&opts, "showRecordId", true);
   BSON_APPEND_DOCUMENT_BEGIN (&opts, "projection", &proj);
   BSON_APPEND_INT32 (&proj, "_id", 0);
   BSON_APPEND_INT32 (&proj, field, 1);
   bson_append_document_end (&opts, &proj);
   cursor = mongoc_collection_find_with_opts (c, &filter, &opts, NULL);
   while (ok && mongoc_cursor_next (cursor, &doc)) {
      int64_t rid;
      /* mongod's RecordIds are positive; FerretDB answers 0 for every document */
      if (!lab_store_facts_record_id (clustered, doc, &rid)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                        "%s returns no usable RecordIds (find with showRecordId): page locality cannot be "
                        "measured",
                        sess->store->uri_redacted);
         ok = false;
         break;
      }
      if (*n == cap) {
         cap *= 2;
         *rids = bson_realloc (*rids, cap * sizeof **rids);
      }
      (*rids)[(*n)++] = rid;
   }
   if (ok && mongoc_cursor_error (cursor, &err)) {
      lab_mongo_fail (sess->store, error, &err, "RecordIds of '%s' where %s matches", coll, field);
      ok = false;
   }
   if (ok && *n > 1) {
      qsort (*rids, *n, sizeof **rids, cmp_int64);
   }
   mongoc_cursor_destroy (cursor);
   bson_destroy (&opts);
   bson_destroy (&filter);
   mongoc_collection_destroy (c);
   return ok;
}
