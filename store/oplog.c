/* oplog.c -- the oplog bytes of a layout's writes on a replica set member: the newest
 * local.oplog.rs entry before the writes, then the entries of the namespace after it, summed by
 * $bsonSize (docs/mongodb-compat.md §26). Built on lab_store_command_simple only. */

#include "store.h"

#include "core/error.h"

#include <string.h>

/* oplog_unknown -- *mark without an oplog, `why` kept as its reason. */
static void
oplog_unknown (lab_store_oplog_mark_t *mark, const char *why)
{
   mark->have = false;
   bson_snprintf (mark->reason, sizeof mark->reason, "%s", why);
}

/* first_batch_doc -- the first document of a cursor reply's firstBatch into *doc; false if none. */
static bool
first_batch_doc (const bson_t *reply, bson_t *doc)
{
   bson_iter_t it;
   const uint8_t *data;
   uint32_t len;

   if (!bson_iter_init (&it, reply) || !bson_iter_find_descendant (&it, "cursor.firstBatch.0", &it) ||
       !BSON_ITER_HOLDS_DOCUMENT (&it)) {
      return false;
   }
   bson_iter_document (&it, &len, &data);
   return bson_init_static (doc, data, len);
}

void
lab_store_oplog_mark (lab_store_t *store, lab_store_oplog_mark_t *mark)
{
   bson_t cmd = BSON_INITIALIZER, reply, sort, proj, doc;
   bson_error_t err;
   bson_iter_t it;

   memset (mark, 0, sizeof *mark);
   if (lab_store_backend (store) != LAB_BACKEND_MONGO) {
      oplog_unknown (mark, "no oplog: a standalone engine");
      return;
   }
   BSON_APPEND_INT32 (&cmd, "hello", 1);
   if (!lab_store_command_simple (store, "admin", &cmd, &reply, &err)) {
      bson_snprintf (mark->reason, sizeof mark->reason, "hello failed: %s", err.message);
      bson_destroy (&reply);
      bson_destroy (&cmd);
      return;
   }
   if (!bson_iter_init_find (&it, &reply, "setName") || !BSON_ITER_HOLDS_UTF8 (&it)) {
      oplog_unknown (mark, "not a replica set member (hello has no setName)");
      bson_destroy (&reply);
      bson_destroy (&cmd);
      return;
   }
   bson_destroy (&reply);
   bson_reinit (&cmd);
   BSON_APPEND_UTF8 (&cmd, "find", "oplog.rs");
   BSON_APPEND_DOCUMENT_BEGIN (&cmd, "sort", &sort);
   BSON_APPEND_INT32 (&sort, "$natural", -1);
   bson_append_document_end (&cmd, &sort);
   BSON_APPEND_INT32 (&cmd, "limit", 1);
   BSON_APPEND_DOCUMENT_BEGIN (&cmd, "projection", &proj);
   BSON_APPEND_INT32 (&proj, "ts", 1);
   bson_append_document_end (&cmd, &proj);
   if (!lab_store_command_simple (store, "local", &cmd, &reply, &err)) {
      bson_snprintf (mark->reason, sizeof mark->reason, "local.oplog.rs cannot be read: %s", err.message);
   } else if (!first_batch_doc (&reply, &doc) || !bson_iter_init_find (&it, &doc, "ts") ||
              !BSON_ITER_HOLDS_TIMESTAMP (&it)) {
      oplog_unknown (mark, "local.oplog.rs has no entry with a timestamp ts");
   } else {
      bson_iter_timestamp (&it, &mark->ts_t, &mark->ts_i);
      mark->have = true;
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
}

bool
lab_store_oplog_pipeline (const char *ns, const lab_store_oplog_mark_t *mark, bson_t *pipeline)
{
   bson_t st, m, ts, g, sum, size, one, or, alt;

   bson_init (pipeline);
   BSON_APPEND_DOCUMENT_BEGIN (pipeline, "0", &st);
   BSON_APPEND_DOCUMENT_BEGIN (&st, "$match", &m);
   BSON_APPEND_DOCUMENT_BEGIN (&m, "ts", &ts);
   BSON_APPEND_TIMESTAMP (&ts, "$gt", mark->ts_t, mark->ts_i);
   bson_append_document_end (&m, &ts);
   /* the namespace's own entries ("i", "u", "d"), and the applyOps entries ("c", "admin.$cmd") that hold
    * its batched inserts (mongod 8.0+: docs/mongodb-compat.md §26) */
   BSON_APPEND_ARRAY_BEGIN (&m, "$or", & or);
   BSON_APPEND_DOCUMENT_BEGIN (& or, "0", &alt);
   BSON_APPEND_UTF8 (&alt, "ns", ns);
   bson_append_document_end (& or, &alt);
   BSON_APPEND_DOCUMENT_BEGIN (& or, "1", &alt);
   BSON_APPEND_UTF8 (&alt, "o.applyOps.ns", ns);
   bson_append_document_end (& or, &alt);
   bson_append_array_end (&m, & or);
   bson_append_document_end (&st, &m);
   bson_append_document_end (pipeline, &st);
   BSON_APPEND_DOCUMENT_BEGIN (pipeline, "1", &st);
   BSON_APPEND_DOCUMENT_BEGIN (&st, "$group", &g);
   BSON_APPEND_UTF8 (&g, "_id", "$op");
   BSON_APPEND_DOCUMENT_BEGIN (&g, "bytes", &sum);
   BSON_APPEND_DOCUMENT_BEGIN (&sum, "$sum", &size);
   BSON_APPEND_UTF8 (&size, "$bsonSize", "$$ROOT");
   bson_append_document_end (&sum, &size);
   bson_append_document_end (&g, &sum);
   BSON_APPEND_DOCUMENT_BEGIN (&g, "entries", &one);
   BSON_APPEND_INT32 (&one, "$sum", 1);
   bson_append_document_end (&g, &one);
   bson_append_document_end (&st, &g);
   return bson_append_document_end (pipeline, &st);
}

/* num_field -- an integer field of a $group result ($sum gives int32, int64 or double). */
static bool
num_field (const bson_t *doc, const char *name, int64_t *out, bson_error_t *error)
{
   bson_iter_t it;

   if (!bson_iter_init_find (&it, doc, name) || !BSON_ITER_HOLDS_NUMBER (&it)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "the oplog aggregate's result has no numeric \"%s\"", name);
      return false;
   }
   *out = bson_iter_as_int64 (&it);
   return true;
}

bool
lab_store_oplog_parse (const bson_t *reply, int64_t *bytes, int64_t *entries, bson_error_t *error)
{
   bson_iter_t it, batch;
   int64_t b = 0, e = 0, b1, e1;

   *bytes = *entries = -1;
   if (!bson_iter_init (&it, reply) || !bson_iter_find_descendant (&it, "cursor.firstBatch", &it) ||
       !BSON_ITER_HOLDS_ARRAY (&it) || !bson_iter_recurse (&it, &batch)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "the oplog aggregate's reply has no cursor.firstBatch");
      return false;
   }
   /* one result per op type ("i", "u", ...); none: no entry of the namespace since the mark */
   while (bson_iter_next (&batch)) {
      const uint8_t *data;
      uint32_t len;
      bson_t doc;

      if (!BSON_ITER_HOLDS_DOCUMENT (&batch)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "the oplog aggregate's result %s is not a document", bson_iter_key (&batch));
         return false;
      }
      bson_iter_document (&batch, &len, &data);
      if (!bson_init_static (&doc, data, len) || !num_field (&doc, "bytes", &b1, error) ||
          !num_field (&doc, "entries", &e1, error)) {
         return false;
      }
      b += b1;
      e += e1;
   }
   *bytes = b;
   *entries = e;
   return true;
}

bool
lab_store_oplog_since (lab_store_t *store, const lab_store_oplog_mark_t *mark, const char *coll,
                       int64_t *bytes, int64_t *entries, bson_error_t *error)
{
   bson_t cmd = BSON_INITIALIZER, pipeline, cursor, reply;
   char ns[512];
   bool ok;

   *bytes = *entries = -1;
   if (!mark->have) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED, "%s", mark->reason);
      return false;
   }
   bson_snprintf (ns, sizeof ns, "%s.%s", lab_store_db (store), coll);
   lab_store_oplog_pipeline (ns, mark, &pipeline);
   BSON_APPEND_UTF8 (&cmd, "aggregate", "oplog.rs");
   BSON_APPEND_ARRAY (&cmd, "pipeline", &pipeline);
   BSON_APPEND_DOCUMENT_BEGIN (&cmd, "cursor", &cursor);
   bson_append_document_end (&cmd, &cursor);
   ok = lab_store_command_simple (store, "local", &cmd, &reply, error) &&
        lab_store_oplog_parse (&reply, bytes, entries, error);
   if (!ok) {
      lab_error_prefix (error, "the oplog entries of %s", ns);
   }
   bson_destroy (&reply);
   bson_destroy (&pipeline);
   bson_destroy (&cmd);
   return ok;
}
