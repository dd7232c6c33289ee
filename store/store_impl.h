/*
 * store_impl.h -- what a backend provides to store.c: a table of operations. Private to store/.
 *
 * store.c owns the generic parts (URI parsing, redaction, the per-document size check before inserts,
 * argument checks) and dispatches everything else here. Each backend keeps its state behind `impl`.
 */
#ifndef LAB_STORE_IMPL_H
#define LAB_STORE_IMPL_H

#include "store.h"

typedef struct lab_store_ops lab_store_ops_t;

struct lab_store {
   const lab_store_ops_t *ops;
   lab_store_uri_t uri;
   char *uri_redacted;
   char *db;
   lab_store_opts_t opts;
   char *block_compressor;    /* owned copy of opts.block_compressor */
   char compressor_note[256]; /* lab_store_compressor_note: set by the backend's create */
   void *impl;                /* backend state */
};

struct lab_session {
   lab_store_t *store;
   void *impl;
};

struct lab_cursor {
   lab_store_session_t *sess;
   void *impl;
   bool ended; /* the backend's cursor_next returned 0: store.c answers 0 from then on, never asking again */
};

struct lab_store_ops {
   const char *name;
   bool (*open) (lab_store_t *store, bson_error_t *error);
   void (*close) (lab_store_t *store);
   bool (*session_open) (lab_store_session_t *sess, bson_error_t *error);
   void (*session_close) (lab_store_session_t *sess);
   bool (*exists) (lab_store_session_t *sess, const char *coll, bool *exists, bson_error_t *error);
   bool (*create) (lab_store_session_t *sess, const char *coll, bson_error_t *error);
   /* NULL: LAB_STORE_ERR_NOT_SUPPORTED */
   bool (*create_clustered) (lab_store_session_t *sess, const char *coll, bson_error_t *error);
   bool (*create_index) (lab_store_session_t *sess, const char *coll, const char *field, bson_error_t *error);
   bool (*has_index) (lab_store_session_t *sess, const char *coll, const char *field, bool *has,
                      bson_error_t *error);
   /* NULL: nothing to do (store.c returns true) */
   bool (*collect_index) (lab_store_session_t *sess, const char *coll, const char *field,
                          bson_error_t *error);
   bool (*drop) (lab_store_session_t *sess, const char *coll, bson_error_t *error);
   /* compound and multikey indexes (store.h); spec checked by store.c (1..MAX fields, non-empty, distinct);
    * index_info's outputs are preset (false, false, -1); index_find's neq/lo/hi are consistent with spec
    * (a range only when neq < n) and its counters are never NULL */
   bool (*create_index_spec) (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                              bson_error_t *error);
   bool (*index_info) (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                       bool *exists, bool *multikey, int64_t *size_bytes, bson_error_t *error);
   /* *indexes is initialized and empty, *clustered false (store.c) */
   bool (*list_indexes) (lab_store_session_t *sess, const char *coll, bson_t *indexes, bool *clustered,
                         bson_error_t *error);
   /* *dropped preset false; never the _id index */
   bool (*drop_index) (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                       bool *dropped, bson_error_t *error);
   bool (*index_find) (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                       const bson_value_t *eq, int neq, const bson_value_t *lo, const bson_value_t *hi,
                       lab_store_doc_cb_t cb, void *ctx, int64_t *keys_examined, int64_t *docs_fetched,
                       bson_error_t *error);

   bool (*count) (lab_store_session_t *sess, const char *coll, int64_t *count, bson_error_t *error);
   /* NULL: store.c uses count (exact where it costs nothing) */
   bool (*count_estimated) (lab_store_session_t *sess, const char *coll, int64_t *count, bson_error_t *error);
   bool (*stats) (lab_store_session_t *sess, const char *coll, lab_store_coll_stats_t *st,
                  bson_error_t *error);
   bool (*list) (lab_store_session_t *sess, char ***names, bson_error_t *error);
   /* NULL: no UUIDs (*has false) */
   bool (*coll_uuid) (lab_store_session_t *sess, const char *coll, bson_value_t *uuid, bool *has,
                      bson_error_t *error);
   /* docs are already size-checked and carry an _id; `orig_index[i]` is each one's index in the caller's
    * batch, for per-document errors. `first` >= 0: the caller's document k goes at natural-order position
    * first + k (lab_store_insert_many_at); -1: the backend appends. */
   bool (*insert_many) (lab_store_session_t *sess, const char *coll, const bson_t *const *docs,
                        const size_t *orig_index, size_t n, int64_t first, lab_store_insert_result_t *result,
                        bson_error_t *error);
   bool (*upsert_by_id) (lab_store_session_t *sess, const char *coll, const bson_t *doc, bson_error_t *error);
   bool (*delete_eq) (lab_store_session_t *sess, const char *coll, const char *field,
                      const bson_value_t *value, int64_t *deleted, bson_error_t *error);
   bool (*flush) (lab_store_t *store, bson_error_t *error);
   /* NULL: nothing to do (lab_store_set_journaled) */
   bool (*set_journaled) (lab_store_t *store, const char *coll, bson_error_t *error);
   bool (*find_eq) (lab_store_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
                    lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs, bson_error_t *error);
   /* NULL: LAB_STORE_ERR_NOT_SUPPORTED (lab_store_server_query) */
   bool (*server_query) (lab_store_session_t *sess, const char *coll, const bson_t *filter,
                         const bson_t *pipeline, const bson_t *opts, lab_store_doc_cb_t cb, void *ctx,
                         int64_t *ndocs, bson_error_t *error);
   bool (*sorted_open) (lab_store_cursor_t *cur, const char *coll, const char *field,
                        const lab_store_sorted_opts_t *opts, bson_error_t *error);
   /* NULL: store.c checks the index with has_index and describes the generic index walk */
   bool (*sorted_describe) (lab_store_session_t *sess, const char *coll, const char *field,
                            const lab_store_sorted_opts_t *opts, bson_t *out, bson_error_t *error);
   /* NULL: LAB_STORE_ERR_NOT_SUPPORTED */
   bool (*sorted_explain) (lab_store_session_t *sess, const char *coll, const char *field,
                           const lab_store_sorted_opts_t *opts, bson_t *reply, bson_error_t *error);
   int (*cursor_next) (lab_store_cursor_t *cur, const bson_t **doc, bson_error_t *error);
   void (*cursor_close) (lab_store_cursor_t *cur);
   bool (*partition) (lab_store_session_t *sess, const char *coll, const char *field, int n,
                      bson_value_t **bounds, int *nbounds, bson_error_t *error);
   bool (*distinct_keys) (lab_store_session_t *sess, const char *coll, const char *field, bson_value_t **keys,
                          int64_t *nkeys, bson_error_t *error);
   /* the first and the last entry of the index on field (*empty: none); every entry counted per BSON type
    * into rows[256] (indexed by bson_type_t; a missing field as null) -- store.h lab_store_key_types */
   bool (*key_ends) (lab_store_session_t *sess, const char *coll, const char *field, bson_value_t *first,
                     bson_value_t *last, bool *empty, bson_error_t *error);
   bool (*key_type_counts) (lab_store_session_t *sess, const char *coll, const char *field, int64_t *rows,
                            bson_error_t *error);
   /* natural order (store.h): the range is checked by store.c (rid_lo <= rid_hi unless rid_hi is 0);
    * cursors share cursor_next and cursor_close with sorted streams */
   bool (*natural_open) (lab_store_cursor_t *cur, const char *coll, const lab_store_natural_opts_t *opts,
                         bson_error_t *error);
   bool (*natural_ranges) (lab_store_session_t *sess, const char *coll, int n,
                           lab_store_natural_range_t **ranges, int *nranges, bson_error_t *error);
   bool (*natural_describe) (lab_store_session_t *sess, const char *coll,
                             const lab_store_natural_opts_t *opts, bson_t *out, bson_error_t *error);
   bool (*server_info) (lab_store_t *store, lab_store_server_info_t *info, bson_error_t *error);
   bool (*engine_stats) (lab_store_t *store, lab_store_engine_stats_t *st, bson_error_t *error);
   bool (*data_files) (lab_store_t *store, const char *coll, char ***paths, bson_error_t *error);
   /* NULL: LAB_STORE_ERR_NOT_SUPPORTED */
   bool (*command_simple) (lab_store_t *store, const char *db, const bson_t *cmd, bson_t *reply,
                           bson_error_t *error);
   /* close the engine, run hook, reopen (store.c checks that no session is open) */
   bool (*cycle) (lab_store_t *store, lab_store_cycle_hook_t hook, void *ctx, int32_t ready_timeout_ms,
                  bson_error_t *error);
   const char *(*home) (const lab_store_t *store);
   /* the cache sweep and locality (store.c checks the size; NULL: not supported) */
   bool (*set_cache_size) (lab_store_t *store, uint64_t bytes, bson_error_t *error);
   bool (*record_ids) (lab_store_session_t *sess, const char *coll, const char *field,
                       const bson_value_t *value, int64_t **rids, size_t *n, bson_error_t *error);
   bool (*leaf_pages) (lab_store_session_t *sess, const char *coll, int64_t *pages, bson_error_t *error);
   /* NULL: unknown (-1) */
   bool (*coll_cache_bytes) (lab_store_session_t *sess, const char *coll, int64_t *bytes,
                             bson_error_t *error);
   bool (*cache_footprint) (lab_store_session_t *sess, const char *coll, const char *key,
                            lab_store_cache_foot_t *out, bson_error_t *error);
   bool (*leaf_pages_estimate) (lab_store_session_t *sess, const char *coll,
                                const lab_store_leaf_sample_opts_t *o, lab_store_leaf_estimate_t *est,
                                bson_error_t *error);
   /* NULL: 0 (no server selection) */
   int32_t (*selection_timeout_ms) (const lab_store_t *store);
};

extern const lab_store_ops_t lab_store_wt_ops;
extern const lab_store_ops_t lab_store_mongo_ops;

/* What the backends share with store.c (store_util.c). */

/* lab_store_pid_comm -- the command name of local process `pid` (/proc/PID/comm) into buf; false when
 * unreadable.
 */
bool lab_store_pid_comm (int64_t pid, char *buf, size_t len);

/* lab_store_coll_check -- collection names must be non-empty, without '$', at most 200 bytes
 * (LAB_ERROR_USAGE otherwise). */
bool lab_store_coll_check (const char *coll, bson_error_t *error);

/* lab_store_index_spec_check -- 1..LAB_STORE_INDEX_MAX_FIELDS fields, each non-empty, not starting with
 * '$', none twice (LAB_ERROR_USAGE otherwise). */
bool lab_store_index_spec_check (const lab_store_index_spec_t *spec, bson_error_t *error);

/* lab_store_allowed -- `coll` is named in the store's opts.allow_writes. */
bool lab_store_allowed (const lab_store_t *store, const char *coll);

/* lab_store_index_guard -- before a build of index `name` on `coll` by a tool's store (opts.tool): fine
 * when the collection does not exist yet or is layoutlab's (its marker); *foreign = it exists and is not;
 * then fine only when opts.allow_writes names it, else LAB_ERROR_USAGE saying nothing was built. Without
 * opts.tool: always fine. */
bool lab_store_index_guard (lab_store_session_t *sess, const char *coll, const char *name, bool *foreign,
                            bson_error_t *error);

/* lab_store_mark_index_put -- after a tool's store (opts.tool) built `spec` on `coll`: its record in
 * LAB_MARK_COLL (store.h, LAB_MARK_INDEX_PREFIX) with its size, the time, the tool and its command line.
 * Without opts.tool: nothing. */
bool lab_store_mark_index_put (lab_store_session_t *sess, const char *coll,
                               const lab_store_index_spec_t *spec, bool foreign, bson_error_t *error);

#endif
