/*
 * store_mongo.c -- the MongoDB backend of the store interface (mongodb://, mongodb+srv://, mongos), on
 * libmongoc 1.23.
 *
 * One mongoc_client_pool_t per store (error API v2); each lab_store_session_t pops one client and pushes it
 * back when closed. Sorted reads are aggregates [{$match}, {$sort: {field: 1}}] with `hint` to the field's
 * index, so mongod streams them in index order with no blocking sort (store.h, "The sorted-read
 * contract"); partition bounds and distinct keys are covered reads of that index. Batch sizes derive from
 * the collection's average document size, so that one reply stays far below the 48,000,000-byte message
 * limit even on servers that batch by count only (FerretDB). Writes are unordered
 * bulk inserts split under maxMessageSizeBytes and maxWriteBatchSize, with per-document errors mapped back
 * to the caller's batch. Server facts (hello limits, serverStatus) are read at open and after each cycle.
 *
 * The test server is FerretDB v1.24.2: it has no endSessions (libmongoc warns when a pool is destroyed;
 * our log handler drops that one message), estimates collStats, and lacks most of serverStatus; every
 * field read here is optional. It accepts `hint` in find and aggregate and ignores it (logged, never an
 * error, even for an index that does not exist), and sorts every read in memory with Go's unstable
 * sort.Sort: buildInfo's ferretdbVersion tells it apart, and its sorts get _id as a tie-breaker.
 *
 * This file holds the connection (libmongoc's setup, open and close, sessions, the cold cycle) and the
 * operations table; error mapping and reply helpers are in mongo_util.c, facts, collections, writes and
 * reads in mongo_*.c, laid out in mongo_private.h.
 */
#include "mongo_private.h"

#include "core/error.h"
#include "core/log.h"

#include <errno.h>
#include <mongoc/mongoc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- process-wide setup -------------------------------------------------------------------------- */

static pthread_once_t mongo_once = PTHREAD_ONCE_INIT;

/* mongo_log -- libmongoc's log, into the log sink (log.h). Its warnings and errors go out at the verbose
 * level (-v) only: they come with a failure our own error already reports with context ("stream: Failed
 * to buffer 4 bytes" before "cannot reach the MongoDB server ..." when the server dies mid-read), or they
 * are a retry libmongoc handles itself. Debug and trace are dropped. Exceptions: (a) a URI option
 * libmongoc ignores (unknown) or overrides (given twice) stays at the normal level, since nothing else
 * reports it; (b) dropped even at -v, the endSessions warning a server without sessions (FerretDB) causes
 * at every pool destroy, and the URI parser's complaints, which it also returns as the error that uri.c
 * reports with context. A program that wants libmongoc's own handler back (to stderr, every level)
 * installs mongoc_log_default_handler after the first store opens. */
static void
mongo_log (mongoc_log_level_t level, const char *domain, const char *message, void *user_data)
{
   (void)user_data;
   if (level > MONGOC_LOG_LEVEL_INFO) {
      return;
   }
   if (strstr (message, "endSessions") || strstr (message, "in URI") ||
       strstr (message, "could not be parsed") || strstr (message, "cannot parse")) {
      return;
   }
   if (level <= MONGOC_LOG_LEVEL_WARNING &&
       (strstr (message, "Unsupported URI option") || strstr (message, "Overwriting previously provided"))) {
      lab_log_info ("libmongoc %s: %s: %s", mongoc_log_level_str (level), domain, message);
      return;
   }
   lab_log_debug ("libmongoc %s: %s: %s", mongoc_log_level_str (level), domain, message);
}

/* mongo_log_install -- at program load, so URI parsing (uri.c, before any store opens) logs through it. */
__attribute__ ((constructor)) static void
mongo_log_install (void)
{
   mongoc_log_set_handler (mongo_log, NULL);
}

/* mongo_global_init -- mongoc_init once per process, mongoc_cleanup at exit. */
static void
mongo_global_init (void)
{
   mongoc_init ();
   mongoc_log_set_handler (mongo_log, NULL);
   atexit (mongoc_cleanup);
}

/* pool_new -- a pool on ms->uri with error API v2 (before any pop). */
static bool
pool_new (lab_store_t *store, bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);
   bson_error_t err;

   ms->pool = mongoc_client_pool_new_with_error (ms->uri, &err);
   if (!ms->pool) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_URI, "cannot use the MongoDB URI %s: %s",
                     store->uri_redacted, err.message);
      return false;
   }
   mongoc_client_pool_set_error_api (ms->pool, MONGOC_ERROR_API_VERSION_2);
   mongoc_client_pool_set_appname (ms->pool, "layoutlab");
   return true;
}

/* lab_mongo_hosts_text -- the hosts the URI names ("h1:27017,h2:27018"), or its SRV name; into buf. */
void
lab_mongo_hosts_text (const mongoc_uri_t *uri, char *buf, size_t len)
{
   const mongoc_host_list_t *h;
   size_t n = 0;

   buf[0] = '\0';
   for (h = mongoc_uri_get_hosts (uri); h && n + 2 < len; h = h->next) {
      bson_snprintf (buf + n, len - n, "%s%s", n ? "," : "", h->host_and_port);
      n = strlen (buf);
   }
   if (!buf[0]) {
      const char *srv = mongoc_uri_get_srv_hostname (uri);
      bson_snprintf (buf, len, "%s (SRV)", srv ? srv : "?");
   }
}

/* first_contact -- ping through a popped client and read the server's facts. */
static bool
first_contact (lab_store_t *store, bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);
   mongoc_client_t *client = mongoc_client_pool_pop (ms->pool);
   bson_error_t err;
   bool ok = false;

   if (!lab_mongo_ping (client, &err)) {
      if (lab_mongo_is_unreachable (&err)) {
         char hosts[512];
         lab_mongo_hosts_text (ms->uri, hosts, sizeof hosts);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_UNREACHABLE,
                        "cannot reach %s (%s) within %.1f s: %s (is it running? check host, port and "
                        "network; --server-timeout DUR waits longer)",
                        hosts, store->uri_redacted, ms->selection_timeout_ms / 1000.0, err.message);
      } else {
         lab_error_set (error, err.domain, err.code, "the MongoDB server at %s refused ping: %s",
                        store->uri_redacted, err.message);
      }
      goto done;
   }
   ok = lab_mongo_load_info (store, client, error);
done:
   mongoc_client_pool_push (ms->pool, client);
   return ok;
}

/* ---- store ---------------------------------------------------------------------------------------- */

/* lab_mongo_close -- close the sessions left open (store.h: their handles are freed too), then the pool. */
void
lab_mongo_close (lab_store_t *store)
{
   mongo_store_t *ms = mstore (store);

   if (!ms) {
      return;
   }
   while (ms->sessions) {
      lab_store_session_t *sess = ms->sessions->sess;
      lab_mongo_session_close (sess);
      bson_free (sess);
   }
   if (ms->pool) {
      mongoc_client_pool_destroy (ms->pool);
   }
   mongoc_uri_destroy (ms->uri);
   pthread_mutex_destroy (&ms->mu);
   bson_free (ms);
   store->impl = NULL;
}

/* lab_mongo_open -- parse the URI with our timeouts, create the pool and ping the server. */
bool
lab_mongo_open (lab_store_t *store, bson_error_t *error)
{
   mongo_store_t *ms;
   bson_error_t err;

   pthread_once (&mongo_once, mongo_global_init);
   ms = bson_malloc0 (sizeof *ms);
   pthread_mutex_init (&ms->mu, NULL);
   store->impl = ms;
   ms->uri = mongoc_uri_new_with_error (store->uri.uri, &err);
   if (!ms->uri) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_URI, "cannot parse the MongoDB URI %s: %s",
                     store->uri_redacted, err.message);
      goto fail;
   }
   /* The URI's own timeouts win, then connect_timeout_ms; else server selection waits 30 s, the server
    * selection spec's default and longer than an unplanned election (electionTimeoutMillis 10 s plus the
    * vote), so a failover does not fail a run; libmongoc keeps its 10 s connect timeout. */
   if (!mongoc_uri_has_option (ms->uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS)) {
      mongoc_uri_set_option_as_int32 (ms->uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS,
                                      store->opts.connect_timeout_ms > 0 ? store->opts.connect_timeout_ms
                                                                         : LAB_SELECTION_TIMEOUT_MS);
   }
   ms->selection_timeout_ms =
      mongoc_uri_get_option_as_int32 (ms->uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, LAB_SELECTION_TIMEOUT_MS);
   if (!mongoc_uri_has_option (ms->uri, MONGOC_URI_CONNECTTIMEOUTMS) && store->opts.connect_timeout_ms > 0) {
      mongoc_uri_set_option_as_int32 (ms->uri, MONGOC_URI_CONNECTTIMEOUTMS, store->opts.connect_timeout_ms);
   }
   /* FerretDB sorts in memory before the first batch, and a cold index on a big collection is slow to
    * start; libmongoc's default 5-minute socket timeout would cut such a read off */
   if (!mongoc_uri_has_option (ms->uri, MONGOC_URI_SOCKETTIMEOUTMS)) {
      mongoc_uri_set_option_as_int32 (ms->uri, MONGOC_URI_SOCKETTIMEOUTMS, MONGO_SOCKET_TIMEOUT_MS);
   }
   if (!pool_new (store, error) || !first_contact (store, error)) {
      goto fail;
   }
   return true;
fail:
   lab_mongo_close (store);
   return false;
}

/* ---- sessions ------------------------------------------------------------------------------------- */

/* lab_mongo_session_open -- pop a client for this thread; the store keeps a list for close. */
bool
lab_mongo_session_open (lab_store_session_t *sess, bson_error_t *error)
{
   mongo_store_t *ms = mstore (sess->store);
   mongo_sess_t *ss = bson_malloc0 (sizeof *ss);

   ss->client = ms->pool ? mongoc_client_pool_pop (ms->pool) : NULL;
   if (!ss->client) {
      bson_free (ss);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "no client available from the pool for %s", sess->store->uri_redacted);
      return false;
   }
   ss->sess = sess;
   pthread_mutex_lock (&ms->mu);
   ms->nsessions++;
   ss->next = ms->sessions;
   if (ms->sessions) {
      ms->sessions->prev = ss;
   }
   ms->sessions = ss;
   pthread_mutex_unlock (&ms->mu);
   sess->impl = ss;
   return true;
}

/* lab_mongo_session_close -- push the client back, forget the session's caches. */
void
lab_mongo_session_close (lab_store_session_t *sess)
{
   mongo_store_t *ms = mstore (sess->store);
   mongo_sess_t *ss = msess (sess);
   size_t i;

   if (!ss) {
      return;
   }
   mongoc_client_pool_push (ms->pool, ss->client);
   for (i = 0; i < ss->nindexed; i++) {
      bson_free (ss->indexed[i]);
   }
   bson_free (ss->indexed);
   for (i = 0; i < ss->nbatch; i++) {
      bson_free (ss->batch_colls[i]);
   }
   bson_free (ss->batch_colls);
   bson_free (ss->batch_docs);
   pthread_mutex_lock (&ms->mu);
   ms->nsessions--;
   if (ss->prev) {
      ss->prev->next = ss->next;
   } else {
      ms->sessions = ss->next;
   }
   if (ss->next) {
      ss->next->prev = ss->prev;
   }
   pthread_mutex_unlock (&ms->mu);
   bson_free (ss);
   sess->impl = NULL;
}

/* ---- cold cycle ------------------------------------------------------------------------------ */

/* lab_mongo_cycle -- destroy the pool (every connection closed), run the hook, recreate the pool and ping
 * until the server answers or ready_timeout_ms passes; then re-read its facts (new pid, uptime). */
bool
lab_mongo_cycle (lab_store_t *store, lab_store_cycle_hook_t hook, void *ctx, int32_t ready_timeout_ms,
                 bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);
   mongoc_client_t *client;
   int64_t deadline;
   bson_error_t err;
   bool ready = false;
   int nsessions;

   pthread_mutex_lock (&ms->mu);
   nsessions = ms->nsessions;
   pthread_mutex_unlock (&ms->mu);
   if (nsessions > 0) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "cannot cycle %s: %d session(s) still open (close them first)", store->uri_redacted,
                     nsessions);
      return false;
   }
   mongoc_client_pool_destroy (ms->pool);
   ms->pool = NULL;
   if (hook && !hook (store, ctx, error)) {
      /* keep the store usable for the caller's cleanup */
      bson_error_t ignore;
      if (!pool_new (store, &ignore)) {
         ms->pool = NULL;
      }
      return false;
   }
   if (!pool_new (store, error)) {
      return false;
   }
   deadline = mono_ns () + (int64_t)ready_timeout_ms * 1000000;
   memset (&err, 0, sizeof err);
   client = mongoc_client_pool_pop (ms->pool);
   for (;;) {
      if (lab_mongo_ping (client, &err)) {
         ready = true;
         break;
      }
      if (mono_ns () >= deadline) {
         break;
      }
      usleep (MONGO_READY_POLL_MS * 1000);
   }
   if (ready) {
      ready =
         lab_mongo_load_info (store, client, error) &&
         (!ms->cache_size_bytes || lab_mongo_apply_cache_size (store, client, ms->cache_size_bytes, error));
      mongoc_client_pool_push (ms->pool, client);
      return ready;
   }
   mongoc_client_pool_push (ms->pool, client);
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_UNREACHABLE,
                  "the MongoDB server at %s did not answer ping within %d ms after the restart: %s",
                  store->uri_redacted, ready_timeout_ms, err.message);
   return false;
}

const lab_store_ops_t lab_store_mongo_ops = {
   .name = "mongodb",
   .open = lab_mongo_open,
   .close = lab_mongo_close,
   .session_open = lab_mongo_session_open,
   .session_close = lab_mongo_session_close,
   .exists = lab_mongo_exists,
   .create = lab_mongo_create,
   .create_clustered = lab_mongo_create_clustered,
   .create_index = lab_mongo_create_index,
   .has_index = lab_mongo_has_index,
   .create_index_spec = lab_mongo_create_index_spec,
   .index_info = lab_mongo_index_info,
   .index_find = lab_mongo_index_find,
   .list_indexes = lab_mongo_list_indexes,
   .drop_index = lab_mongo_drop_index,
   .drop = lab_mongo_drop,
   .count = lab_mongo_count,
   .count_estimated = lab_mongo_count_estimated,
   .stats = lab_mongo_stats,
   .list = lab_mongo_list,
   .coll_uuid = lab_mongo_coll_uuid,
   .insert_many = lab_mongo_insert_many,
   .upsert_by_id = lab_mongo_upsert_by_id,
   .delete_eq = lab_mongo_delete_eq,
   .flush = lab_mongo_flush,
   .find_eq = lab_mongo_find_eq,
   .server_query = lab_mongo_server_query,
   .sorted_open = lab_mongo_sorted_open,
   .sorted_describe = lab_mongo_sorted_describe,
   .sorted_explain = lab_mongo_sorted_explain,
   .cursor_next = lab_mongo_cursor_next,
   .cursor_close = lab_mongo_cursor_close,
   .partition = lab_mongo_partition,
   .distinct_keys = lab_mongo_distinct_keys,
   .key_ends = lab_mongo_key_ends,
   .key_type_counts = lab_mongo_key_type_counts,
   .natural_open = lab_mongo_natural_open,
   .natural_ranges = lab_mongo_natural_ranges,
   .natural_describe = lab_mongo_natural_describe,
   .server_info = lab_mongo_server_info,
   .engine_stats = lab_mongo_engine_stats,
   .data_files = lab_mongo_data_files,
   .command_simple = lab_mongo_command_simple,
   .cycle = lab_mongo_cycle,
   .set_cache_size = lab_mongo_set_cache_size,
   .record_ids = lab_mongo_record_ids,
   .leaf_pages = lab_mongo_leaf_pages,
   .coll_cache_bytes = lab_mongo_coll_cache_bytes,
   .home = NULL,
   .selection_timeout_ms = lab_mongo_selection_timeout_ms,
};
