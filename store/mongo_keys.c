/* mongo_keys.c -- the MongoDB backend's covered key reads (mongo_private.h): partitions, distinct keys, a
 * key's ends and types, record ids. */
#include "mongo_private.h"

#include "core/error.h"
#include "serverfacts.h"

#include <mongoc/mongoc.h>
#include <stdlib.h>
#include <string.h>

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
