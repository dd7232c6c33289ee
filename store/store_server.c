/* store_server.c -- the store interface's server (store.h): its facts and engine statistics, data files, the
 * cache size and footprint, leaf pages, the cold cycle. */
#include "store_impl.h"

#include "core/error.h"

#include <stdio.h>
#include <string.h>

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
