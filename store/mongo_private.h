/*
 * mongo_private.h -- the MongoDB backend's shared state and its files' entry points. Private to
 * store/store_mongo.c (which wires the operations table for store.c) and store/mongo_*.c:
 *
 *   mongo_util.c   what they all share: fields at dotted paths, libmongoc's errors classified and
 *                  translated (lab_mongo_fail), a session's collection handles;
 *   store_mongo.c  connection and topology: libmongoc set up once per process (its log into ours),
 *                  open and close (the client pool, first contact), sessions, the cold cycle, and the
 *                  operations table;
 *   mongo_facts.c  facts and diagnostics: hello limits and serverStatus (load_info, read at open and
 *                  after each cycle), server and engine statistics, generic commands, the engine cache
 *                  size, leaf-page counts;
 *   mongo_collinfo.c  one collection from listCollections: exists, UUID, clustered (options.clusteredIndex);
 *   mongo_coll.c   collections and indexes: the list, create (block compressor), the per-session index
 *                  cache, index lookups and creation, drop, counts and collStats;
 *   mongo_write.c  writes: unordered bulk inserts split under the server's limits, upserts, deletes;
 *   mongo_read.c   reads and cursors: finds by key, the index-served sorted aggregate, natural-order
 *                  finds, partitions, distinct keys, estimated counts, record ids.
 * store_mongo.c's header comment says how the backend works as a whole; each function's comment is at
 * its definition.
 */
#ifndef LAB_MONGO_PRIVATE_H
#define LAB_MONGO_PRIVATE_H

#include "store_impl.h"

#include <mongoc/mongoc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* A reply (cursor batch) aims at this many bytes: far below LAB_MESSAGE_MAX_BYTES. */
#define MONGO_REPLY_BUDGET_BYTES (8 * 1024 * 1024)
/* Cursor batch sizes stay within [1, this]. */
#define MONGO_BATCH_MAX_DOCS 10000
/* Batch of covered key reads ({field: value} documents, tens of bytes; 20,000 index keys of even 1 KiB
 * stay under 21 MB, below the 48 MB reply limit of a server that batches by count). */
#define MONGO_KEY_BATCH_DOCS 20000
/* Socket timeout unless the URI sets one: FerretDB (and a mongod reading a cold index) may take long
 * before the first batch; an index-served stream on mongod does not need it. */
#define MONGO_SOCKET_TIMEOUT_MS (2 * 3600 * 1000)
/* Pause between pings while waiting for a restarted server. */
#define MONGO_READY_POLL_MS 200

typedef struct {
   mongoc_uri_t *uri;            /* the user's URI plus our timeouts and appname */
   mongoc_client_pool_t *pool;   /* NULL only inside cycle */
   pthread_mutex_t mu;           /* guards info, info_mono_ns */
   lab_store_server_info_t info; /* read at open and after each cycle */
   int64_t info_mono_ns;         /* CLOCK_MONOTONIC when info.uptime_s was read */
   int64_t max_write_batch;      /* maxWriteBatchSize from hello */
   bool sort_in_memory;          /* FerretDB: ignores hint, sorts in memory, unstably (read at open) */
   bool is_mongos;               /* hello says msg: "isdbgrid" (read at open) */
   int32_t selection_timeout_ms; /* serverSelectionTimeoutMS in use */
   int nsessions;                /* open sessions (cycle refuses while any is open) */
   uint64_t cache_size_bytes;   /* set by lab_store_set_cache_size, applied again after each cycle; 0: none */
   struct mongo_sess *sessions; /* open sessions, closed by store close if the caller did not */
} mongo_store_t;

typedef struct mongo_sess {
   lab_store_session_t *sess;
   mongoc_client_t *client;
   char **indexed; /* "coll\nfield" pairs known to have an index (find_eq/delete_eq checks) */
   size_t nindexed;
   char **batch_colls; /* find_eq batch sizes per collection, from the average document size */
   int32_t *batch_docs;
   size_t nbatch;
   struct mongo_sess *prev, *next;
} mongo_sess_t;

typedef struct {
   mongoc_collection_t *coll;
   mongoc_cursor_t *cursor;
} mongo_cur_t;

/* mono_ns -- CLOCK_MONOTONIC in nanoseconds. */
static inline int64_t
mono_ns (void)
{
   struct timespec ts;

   clock_gettime (CLOCK_MONOTONIC, &ts);
   return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* mstore -- the backend state of a store. */
static inline mongo_store_t *
mstore (lab_store_t *store)
{
   return store->impl;
}

/* msess -- the backend state of a session. */
static inline mongo_sess_t *
msess (lab_store_session_t *sess)
{
   return sess->impl;
}

/* mongo_util.c: replies, errors, collection handles */
int64_t lab_mongo_num_at (const bson_t *doc, const char *path, int64_t dflt);
double lab_mongo_dbl_at (const bson_t *doc, const char *path, double dflt);
const char *lab_mongo_str_at (const bson_t *doc, const char *path);
bool lab_mongo_server_code_is (const bson_error_t *e, uint32_t code);
bool lab_mongo_is_unreachable (const bson_error_t *e);
void lab_mongo_fail (lab_store_t *store, bson_error_t *error, const bson_error_t *cause, const char *fmt, ...)
   BSON_GNUC_PRINTF (4, 5);
mongoc_collection_t *lab_mongo_get_coll (lab_store_session_t *sess, const char *coll);

/* store_mongo.c: connection, sessions, the cold cycle */
void lab_mongo_hosts_text (const mongoc_uri_t *uri, char *buf, size_t len);
void lab_mongo_close (lab_store_t *store);
bool lab_mongo_open (lab_store_t *store, bson_error_t *error);
bool lab_mongo_session_open (lab_store_session_t *sess, bson_error_t *error);
void lab_mongo_session_close (lab_store_session_t *sess);
bool lab_mongo_cycle (lab_store_t *store, lab_store_cycle_hook_t hook, void *ctx, int32_t ready_timeout_ms,
                      bson_error_t *error);

/* mongo_facts.c: facts and diagnostics */
bool lab_mongo_load_info (lab_store_t *store, mongoc_client_t *client, bson_error_t *error);
bool lab_mongo_ping (mongoc_client_t *client, bson_error_t *error);
bool lab_mongo_server_info (lab_store_t *store, lab_store_server_info_t *info, bson_error_t *error);
bool lab_mongo_engine_stats (lab_store_t *store, lab_store_engine_stats_t *st, bson_error_t *error);
bool lab_mongo_data_files (lab_store_t *store, const char *coll, char ***paths, bson_error_t *error);
bool lab_mongo_command_simple (lab_store_t *store, const char *db, const bson_t *cmd, bson_t *reply,
                               bson_error_t *error);
int32_t lab_mongo_selection_timeout_ms (const lab_store_t *store);
bool lab_mongo_apply_cache_size (lab_store_t *store, mongoc_client_t *client, uint64_t bytes,
                                 bson_error_t *error);
bool lab_mongo_set_cache_size (lab_store_t *store, uint64_t bytes, bson_error_t *error);
bool lab_mongo_leaf_pages (lab_store_session_t *sess, const char *coll, int64_t *pages, bson_error_t *error);
bool lab_mongo_coll_cache_bytes (lab_store_session_t *sess, const char *coll, int64_t *bytes,
                                 bson_error_t *error);

/* mongo_index.c: the per-session cache of known indexes (also the clustered flag, as "$unclustered") */
bool lab_mongo_index_cache_has (mongo_sess_t *ss, const char *coll, const char *field);
void lab_mongo_index_cache_add (mongo_sess_t *ss, const char *coll, const char *field);
void lab_mongo_index_cache_forget (mongo_sess_t *ss, const char *coll);

/* mongo_coll.c, mongo_collinfo.c: collections; mongo_index.c: indexes */
bool lab_mongo_exists (lab_store_session_t *sess, const char *coll, bool *exists, bson_error_t *error);
bool lab_mongo_list (lab_store_session_t *sess, char ***names, bson_error_t *error);
bool lab_mongo_coll_uuid (lab_store_session_t *sess, const char *coll, bson_value_t *uuid, bool *has,
                          bson_error_t *error);
bool lab_mongo_coll_clustered (lab_store_session_t *sess, const char *coll, bool *clustered,
                               bson_error_t *error);
bool lab_mongo_coll_clustered_cached (lab_store_session_t *sess, const char *coll, bool *clustered,
                                      bson_error_t *error);
bool lab_mongo_require_coll (lab_store_session_t *sess, const char *coll, bson_error_t *error);
bool lab_mongo_create (lab_store_session_t *sess, const char *coll, bson_error_t *error);
bool lab_mongo_create_clustered (lab_store_session_t *sess, const char *coll, bson_error_t *error);
bool lab_mongo_has_index (lab_store_session_t *sess, const char *coll, const char *field, bool *has,
                          bson_error_t *error);
bool lab_mongo_require_index (lab_store_session_t *sess, const char *coll, const char *field,
                              bson_error_t *error);
bool lab_mongo_require_sort_index (lab_store_session_t *sess, const char *coll, const char *field,
                                   bson_t *pattern, bson_error_t *error);
bool lab_mongo_create_index (lab_store_session_t *sess, const char *coll, const char *field,
                             bson_error_t *error);
bool lab_mongo_require_index_spec (lab_store_session_t *sess, const char *coll,
                                   const lab_store_index_spec_t *spec, bson_error_t *error);
bool lab_mongo_create_index_spec (lab_store_session_t *sess, const char *coll,
                                  const lab_store_index_spec_t *spec, bson_error_t *error);
bool lab_mongo_index_info (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                           bool *exists, bool *multikey, int64_t *size_bytes, bson_error_t *error);
bool lab_mongo_list_indexes (lab_store_session_t *sess, const char *coll, bson_t *indexes, bool *clustered,
                             bson_error_t *error);
void lab_mongo_index_find_query (const lab_store_index_spec_t *spec, const bson_value_t *eq, int neq,
                                 const bson_value_t *lo, const bson_value_t *hi, bson_t *filter,
                                 bson_t *opts);
bool lab_mongo_index_find (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                           const bson_value_t *eq, int neq, const bson_value_t *lo, const bson_value_t *hi,
                           lab_store_doc_cb_t cb, void *ctx, int64_t *keys_examined, int64_t *docs_fetched,
                           bson_error_t *error);
bool lab_mongo_drop (lab_store_session_t *sess, const char *coll, bson_error_t *error);
bool lab_mongo_drop_index (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                           bool *dropped, bson_error_t *error);
bool lab_mongo_count (lab_store_session_t *sess, const char *coll, int64_t *count, bson_error_t *error);
bool lab_mongo_stats (lab_store_session_t *sess, const char *coll, lab_store_coll_stats_t *st,
                      bson_error_t *error);

/* mongo_write.c: writes */
bool lab_mongo_insert_many (lab_store_session_t *sess, const char *coll, const bson_t *const *docs,
                            const size_t *orig, size_t n, int64_t first, lab_store_insert_result_t *result,
                            bson_error_t *error);
bool lab_mongo_upsert_by_id (lab_store_session_t *sess, const char *coll, const bson_t *doc,
                             bson_error_t *error);
void lab_mongo_eq_filter (const char *field, const bson_value_t *value, bson_t *filter);
bool lab_mongo_delete_eq (lab_store_session_t *sess, const char *coll, const char *field,
                          const bson_value_t *value, int64_t *deleted, bson_error_t *error);
bool lab_mongo_flush (lab_store_t *store, bson_error_t *error);

/* mongo_read.c: reads and cursors */
/* lab_mongo_sorted_command -- append to `out` the aggregate command a sorted read sends to MongoDB
 * (pure; the MongoDB backend builds both its reads and its descriptions with it): {aggregate: coll,
 * pipeline: [{$match: [lo, hi)}, {$sort: {field: 1}}], cursor: {batchSize}, allowDiskUse: true,
 * hint: index, $db: db}. `sort_in_memory` (a server that ignores hint and sorts unstably: FerretDB)
 * makes the sort {field: 1, _id: 1}. */
void lab_mongo_sorted_command (const char *db, const char *coll, const char *field,
                               const lab_store_sorted_opts_t *opts, const bson_t *index, int32_t batch_docs,
                               bool sort_in_memory, bson_t *out);
bool lab_mongo_server_query (lab_store_session_t *sess, const char *coll, const bson_t *filter,
                             const bson_t *pipeline, const bson_t *opts, lab_store_doc_cb_t cb, void *ctx,
                             int64_t *ndocs, bson_error_t *error);
bool lab_mongo_find_eq (lab_store_session_t *sess, const char *coll, const char *field,
                        const bson_value_t *value, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
                        bson_error_t *error);
void lab_mongo_cursor_close (lab_store_cursor_t *cur);
bool lab_mongo_sorted_open (lab_store_cursor_t *cur, const char *coll, const char *field,
                            const lab_store_sorted_opts_t *opts, bson_error_t *error);
bool lab_mongo_sorted_explain (lab_store_session_t *sess, const char *coll, const char *field,
                               const lab_store_sorted_opts_t *opts, bson_t *reply, bson_error_t *error);
bool lab_mongo_sorted_describe (lab_store_session_t *sess, const char *coll, const char *field,
                                const lab_store_sorted_opts_t *opts, bson_t *out, bson_error_t *error);
int lab_mongo_cursor_next (lab_store_cursor_t *cur, const bson_t **doc, bson_error_t *error);
bool lab_mongo_count_estimated (lab_store_session_t *sess, const char *coll, int64_t *count,
                                bson_error_t *error);
bool lab_mongo_partition (lab_store_session_t *sess, const char *coll, const char *field, int n,
                          bson_value_t **bounds, int *nbounds, bson_error_t *error);
bool lab_mongo_distinct_keys (lab_store_session_t *sess, const char *coll, const char *field,
                              bson_value_t **keys, int64_t *nkeys, bson_error_t *error);
bool lab_mongo_key_ends (lab_store_session_t *sess, const char *coll, const char *field, bson_value_t *first,
                         bson_value_t *last, bool *empty, bson_error_t *error);
bool lab_mongo_key_type_counts (lab_store_session_t *sess, const char *coll, const char *field, int64_t *rows,
                                bson_error_t *error);
bool lab_mongo_natural_open (lab_store_cursor_t *cur, const char *coll, const lab_store_natural_opts_t *opts,
                             bson_error_t *error);
bool lab_mongo_natural_ranges (lab_store_session_t *sess, const char *coll, int n,
                               lab_store_natural_range_t **ranges, int *nranges, bson_error_t *error);
bool lab_mongo_natural_describe (lab_store_session_t *sess, const char *coll,
                                 const lab_store_natural_opts_t *opts, bson_t *out, bson_error_t *error);
bool lab_mongo_record_ids (lab_store_session_t *sess, const char *coll, const char *field,
                           const bson_value_t *value, int64_t **rids, size_t *n, bson_error_t *error);

#endif
