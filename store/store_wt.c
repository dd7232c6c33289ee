/*
 * store_wt.c -- the embedded WiredTiger backend of the store interface: its operations table. The
 * backend lays out its data as mongod 4.2 does, so that the storage effect of a document layout is the
 * same as on a server.
 *
 * Home directory (`wiredtiger:DIR`):
 *   collection-<n>-layoutlab.wt  one per collection: key RecordId (q), value the BSON document (u);
 *   index-<n>-layoutlab.wt       one per index: key = lab_store_key_encode(value) + RecordId, empty value
 *                                (compound: each value's body in order + kEnd + RecordId; multikey: one
 *                                entry per distinct key, lab_wt_index_keys);
 *                                the `_id` index is mongod's unique-index format: key = KeyString body
 *                                + kEnd, value = RecordId + type tag (keyenc.h), so a second equal _id
 *                                is refused by WiredTiger itself (WT_DUPLICATE_KEY), even across threads;
 *   layoutlab_catalog.wt         name -> tables, indexes, and the counts/next RecordId saved at close;
 *   journal/                     the write-ahead log (snappy), as mongod's.
 *
 * Counts and data sizes are kept in memory (exact, updated at each commit), written to the catalog at
 * close/cycle; a store not closed cleanly recounts at open. Concurrency: one WT_SESSION per
 * lab_store_session_t; the catalog list is guarded by `mu`; `ddl` (rwlock) lets data operations run in
 * parallel while create/drop/create_index run alone (an index build sees every document).
 *
 * The implementation is split along mongod's WiredTiger layer; wt_private.h maps the files.
 */
#include "wt_private.h"

const lab_store_ops_t lab_store_wt_ops = {
   .name = "wiredtiger",
   .open = lab_wt_open,
   .close = lab_wt_close,
   .session_open = lab_wt_session_open,
   .session_close = lab_wt_session_close,
   .exists = lab_wt_exists,
   .create = lab_wt_create,
   .create_clustered = lab_wt_create_clustered,
   .create_index = lab_wt_create_index,
   .has_index = lab_wt_has_index,
   .collect_index = lab_wt_collect_index,
   .create_index_spec = lab_wt_create_index_spec,
   .index_info = lab_wt_index_info,
   .index_find = lab_wt_index_find,
   .list_indexes = lab_wt_list_indexes,
   .drop_index = lab_wt_drop_index,
   .drop = lab_wt_drop,
   .count = lab_wt_count,
   .stats = lab_wt_stats,
   .list = lab_wt_list,
   .insert_many = lab_wt_insert_many,
   .upsert_by_id = lab_wt_upsert_by_id,
   .delete_eq = lab_wt_delete_eq,
   .flush = lab_wt_flush,
   .set_journaled = lab_wt_set_journaled,
   .find_eq = lab_wt_find_eq,
   .sorted_open = lab_wt_sorted_open,
   .cursor_next = lab_wt_cursor_next,
   .cursor_close = lab_wt_cursor_close,
   .partition = lab_wt_partition,
   .distinct_keys = lab_wt_distinct_keys,
   .key_ends = lab_wt_key_ends,
   .key_type_counts = lab_wt_key_type_counts,
   .natural_open = lab_wt_natural_open,
   .natural_ranges = lab_wt_natural_ranges,
   .natural_describe = lab_wt_natural_describe,
   .server_info = lab_wt_server_info,
   .engine_stats = lab_wt_engine_stats,
   .data_files = lab_wt_data_files,
   .cycle = lab_wt_cycle,
   .home = lab_wt_home,
   .set_cache_size = lab_wt_set_cache_size,
   .record_ids = lab_wt_record_ids,
   .leaf_pages = lab_wt_leaf_pages,
   .coll_cache_bytes = lab_wt_coll_cache_bytes,
   .cache_footprint = lab_wt_cache_footprint,
   .leaf_pages_estimate = lab_wt_leaf_pages_estimate,
};
