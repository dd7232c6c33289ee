/*
 * mongo_facts.c -- the MongoDB backend's facts and diagnostics (mongo_private.h): hello limits and
 * serverStatus read at open and after each cycle (load_info), whether the server runs on this machine and
 * which pid it has, server and engine statistics, generic commands, the WiredTiger cache size a cold
 * cycle restores, and collStats leaf-page counts.
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

/* ---- server facts -------------------------------------------------------------------------------- */

/* host_is_loopback -- a host name that can only mean this machine. */
static bool
host_is_loopback (const char *h)
{
   return strcmp (h, "localhost") == 0 || strncmp (h, "127.", 4) == 0 || strcmp (h, "::1") == 0 ||
          strcmp (h, "[::1]") == 0;
}

/* host_is_local -- loopback or this machine's own host name (with or without ":port"). */
static bool
host_is_local (const char *h)
{
   char self[256], name[256];
   char *colon;

   if (!h || !*h) {
      return false;
   }
   bson_strncpy (name, h, sizeof name);
   if (name[0] != '[' && (colon = strrchr (name, ':')) && strchr (name, ':') == colon) {
      *colon = '\0';
   }
   if (host_is_loopback (name)) {
      return true;
   }
   if (gethostname (self, sizeof self) != 0) {
      return false;
   }
   self[sizeof self - 1] = '\0';
   return strcmp (self, name) == 0;
}

/* proc_rss_bytes -- VmRSS of a local process from /proc, or -1. */
static int64_t
proc_rss_bytes (int64_t pid)
{
   char path[64], line[256];
   int64_t kb = -1;
   FILE *f;

   if (pid <= 0) {
      return -1;
   }
   bson_snprintf (path, sizeof path, "/proc/%" PRId64 "/status", pid);
   if (!(f = fopen (path, "r"))) {
      return -1;
   }
   while (fgets (line, sizeof line, f)) {
      long long v;
      if (sscanf (line, "VmRSS: %lld kB", &v) == 1) {
         kb = v;
         break;
      }
   }
   fclose (f);
   return kb < 0 ? -1 : kb * 1024;
}

/* pid_is_server -- local process `pid` is a server we may follow in /proc: its comm is a known server
 * name (store.h, lab_store_server_comm_trusted). `docker run -p 27017:27017 mongo` answers serverStatus with
 * pid 1, which here is the host's init. */
static bool
pid_is_server (int64_t pid)
{
   char comm[64];

   if (!lab_store_pid_comm (pid, comm, sizeof comm)) {
      return false;
   }
   if (!lab_store_server_comm_trusted (comm)) {
      lab_log_debug ("server pid %" PRId64 " is '%s' here, not a server process: its /proc is not read", pid,
                     comm);
      return false;
   }
   return true;
}

/* admin_command -- run {name: 1} on admin; *reply is always initialized (caller destroys). */
static bool
admin_command (mongoc_client_t *client, const char *name, bson_t *reply, bson_error_t *error)
{
   bson_t cmd = BSON_INITIALIZER;
   bool ok;

   BSON_APPEND_INT32 (&cmd, name, 1);
   ok = mongoc_client_command_simple (client, "admin", &cmd, NULL, reply, error);
   bson_destroy (&cmd);
   return ok;
}

/* lab_mongo_load_info -- hello limits of the selected server, then serverStatus (or buildInfo) facts. */
bool
lab_mongo_load_info (lab_store_t *store, mongoc_client_t *client, bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);
   lab_store_server_info_t info;
   mongoc_server_description_t *sd;
   const bson_t *hello;
   bson_t *hello_copy;
   bson_t status;
   bson_error_t err;
   const mongoc_host_list_t *hosts;
   bool all_local = true;
   const char *s;

   memset (&info, 0, sizeof info);
   bson_strncpy (info.backend, "mongodb", sizeof info.backend);
   info.uptime_s = -1;
   info.start_ms = -1;
   sd = mongoc_client_select_server (client, true, NULL, &err);
   if (!sd) {
      lab_mongo_fail (store, error, &err, "selecting a server");
      return false;
   }
   hello = mongoc_server_description_hello_response (sd);
   info.max_bson_bytes = lab_mongo_num_at (hello, "maxBsonObjectSize", LAB_BSON_MAX_BYTES);
   info.max_message_bytes = lab_mongo_num_at (hello, "maxMessageSizeBytes", LAB_MESSAGE_MAX_BYTES);
   ms->max_write_batch = lab_mongo_num_at (hello, "maxWriteBatchSize", 100000);
   if (ms->max_write_batch < 1) {
      ms->max_write_batch = 1000;
   }
   bson_strncpy (info.host, mongoc_server_description_host (sd)->host_and_port, sizeof info.host);
   {
      const char *msg = lab_mongo_str_at (hello, "msg");
      ms->is_mongos = msg && strcmp (msg, "isdbgrid") == 0; /* cluster_hello_cmd.cpp */
   }
   hello_copy = bson_copy (hello);
   mongoc_server_description_destroy (sd);

   if (admin_command (client, "serverStatus", &status, &err)) {
      if ((s = lab_mongo_str_at (&status, "host"))) {
         bson_strncpy (info.host, s, sizeof info.host);
      }
      if ((s = lab_mongo_str_at (&status, "version"))) {
         bson_strncpy (info.version, s, sizeof info.version);
      }
      info.pid = lab_mongo_num_at (&status, "pid", 0);
      info.uptime_s = lab_mongo_num_at (&status, "uptime", -1);
      {
         /* when the process started: localTime - uptimeMillis (serverfacts.h); unknown when either is
          * absent or of another type */
         lab_store_facts_status_t fs;
         bson_error_t ignore;
         if (lab_store_facts_server_status (&status, &fs, &ignore)) {
            info.start_ms = fs.start_ms;
         }
      }
   }
   bson_destroy (&status);
   {
      /* serverStatus may be refused to a user without clusterMonitor; buildInfo is open to all, and
       * FerretDB names itself there */
      bson_t build;
      if (admin_command (client, "buildInfo", &build, &err)) {
         if (!info.version[0] && (s = lab_mongo_str_at (&build, "version"))) {
            bson_strncpy (info.version, s, sizeof info.version);
         }
         bson_iter_t it;
         ms->sort_in_memory = bson_iter_init_find (&it, &build, "ferretdbVersion");
         info.query_subset = ms->sort_in_memory;
         bson_strncpy (info.product, lab_store_facts_product (hello_copy, &build), sizeof info.product);
      } else {
         bson_strncpy (info.product, lab_store_facts_product (hello_copy, NULL), sizeof info.product);
      }
      bson_destroy (&build);
   }
   bson_destroy (hello_copy);
   for (hosts = mongoc_uri_get_hosts (ms->uri); hosts; hosts = hosts->next) {
      all_local = all_local && host_is_local (hosts->host);
   }
   if (!mongoc_uri_get_hosts (ms->uri)) {
      all_local = false; /* mongodb+srv: resolved elsewhere */
   }
   info.local = all_local || host_is_local (info.host);
   if (info.local && info.pid > 0 && kill ((pid_t)info.pid, 0) != 0 && errno == ESRCH) {
      info.local = false; /* same name but another machine or pid namespace */
   }
   info.pid_local = info.local && pid_is_server (info.pid);

   pthread_mutex_lock (&ms->mu);
   ms->info = info;
   ms->info_mono_ns = mono_ns ();
   pthread_mutex_unlock (&ms->mu);
   return true;
}

/* lab_mongo_ping -- {ping: 1} on admin. */
bool
lab_mongo_ping (mongoc_client_t *client, bson_error_t *error)
{
   bson_t reply;
   bool ok = admin_command (client, "ping", &reply, error);

   bson_destroy (&reply);
   return ok;
}

/* ---- server and engine facts ---------------------------------------------------------------------- */

/* lab_mongo_server_info -- the facts read at open / after the last cycle; uptime advanced by the clock
 * (store.c calls this before every insert, so it must not cost a round trip). */
bool
lab_mongo_server_info (lab_store_t *store, lab_store_server_info_t *info, bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);

   pthread_mutex_lock (&ms->mu);
   *info = ms->info;
   if (info->uptime_s >= 0) {
      info->uptime_s += (mono_ns () - ms->info_mono_ns) / 1000000000;
   }
   pthread_mutex_unlock (&ms->mu);
   return true;
}

/* lab_mongo_engine_stats -- serverStatus mem and wiredTiger sections when present (FerretDB has neither);
 * a local server's RSS comes from /proc, which is exact where mem.resident is rounded to MiB. */
bool
lab_mongo_engine_stats (lab_store_t *store, lab_store_engine_stats_t *st, bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);
   mongoc_client_t *client;
   lab_store_server_info_t info;
   bson_t status;
   bson_error_t err;
   bool ok;
   int64_t v;

   if (!ms->pool) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "the connection pool for %s is closed (a failed cycle): reopen the store",
                     store->uri_redacted);
      return false;
   }
   client = mongoc_client_pool_pop (ms->pool);
   ok = admin_command (client, "serverStatus", &status, &err);
   mongoc_client_pool_push (ms->pool, client);
   if (!ok) {
      lab_mongo_fail (store, error, &err, "serverStatus");
      bson_destroy (&status);
      return false;
   }
   st->cache_bytes = lab_mongo_num_at (&status, "wiredTiger.cache.bytes currently in the cache", -1);
   st->cache_max_bytes = lab_mongo_num_at (&status, "wiredTiger.cache.maximum bytes configured", -1);
   st->cache_read_bytes = lab_mongo_num_at (&status, "wiredTiger.cache.bytes read into cache", -1);
   st->cache_pages_read = lab_mongo_num_at (&status, "wiredTiger.cache.pages read into cache", -1);
   st->docs_examined = lab_mongo_num_at (&status, "metrics.queryExecutor.scannedObjects", -1);
   st->keys_examined = lab_mongo_num_at (&status, "metrics.queryExecutor.scanned", -1);
   st->block_reads = lab_mongo_num_at (&status, "wiredTiger.block-manager.blocks read", -1);
   st->block_read_bytes = lab_mongo_num_at (&status, "wiredTiger.block-manager.bytes read", -1);
   st->block_writes = lab_mongo_num_at (&status, "wiredTiger.block-manager.blocks written", -1);
   st->block_write_bytes = lab_mongo_num_at (&status, "wiredTiger.block-manager.bytes written", -1);
   st->log_bytes_written = lab_mongo_num_at (&status, "wiredTiger.log.log bytes written", -1);
   st->checkpoints = lab_mongo_num_at (&status, "wiredTiger.transaction.transaction checkpoints", -1);
   v = lab_mongo_num_at (&status, "mem.resident", -1);
   st->server_rss_bytes = v >= 0 ? v * 1024 * 1024 : -1;
   bson_destroy (&status);
   lab_mongo_server_info (store, &info, NULL);
   /* only a pid that is the server's here (store.h, pid_local); an unreadable /proc keeps mem.resident */
   if (info.pid_local && (v = proc_rss_bytes (info.pid)) >= 0) {
      st->server_rss_bytes = v;
   }
   return true;
}

/* lab_mongo_data_files -- not visible through the wire protocol. */
bool
lab_mongo_data_files (lab_store_t *store, const char *coll, char ***paths, bson_error_t *error)
{
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                  "data files are not visible through %s: give the server's --dbpath (and --device) instead",
                  store->uri_redacted);
   return false;
}

/* lab_mongo_command_simple -- one command through a pooled client (the selected server: the primary, or the
 * one member of a directConnection URI). */
bool
lab_mongo_command_simple (lab_store_t *store, const char *db, const bson_t *cmd, bson_t *reply,
                          bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);
   mongoc_client_t *client;
   bool ok;

   if (!ms->pool) {
      bson_init (reply);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "the connection pool for %s is closed (a failed cycle): reopen the store",
                     store->uri_redacted);
      return false;
   }
   client = mongoc_client_pool_pop (ms->pool);
   ok = mongoc_client_command_simple (client, db, cmd, NULL, reply, error);
   mongoc_client_pool_push (ms->pool, client);
   return ok;
}

/* lab_mongo_selection_timeout_ms -- serverSelectionTimeoutMS as set at open. */
int32_t
lab_mongo_selection_timeout_ms (const lab_store_t *store)
{
   return ((const mongo_store_t *)store->impl)->selection_timeout_ms;
}

/* ---- the engine cache size ------------------------------------------------------------------- */

/* lab_mongo_apply_cache_size -- setParameter wiredTigerEngineRuntimeConfig "cache_size=NM" on admin. A server
 * without the parameter (FerretDB, a mongod on another engine) gives LAB_STORE_ERR_NOT_SUPPORTED. */
bool
lab_mongo_apply_cache_size (lab_store_t *store, mongoc_client_t *client, uint64_t bytes, bson_error_t *error)
{
   bson_t cmd = BSON_INITIALIZER, reply;
   bson_error_t err;
   char cfg[64];
   bool ok;

   snprintf (cfg, sizeof cfg, "cache_size=%lluM", (unsigned long long)((bytes + (1u << 20) - 1) >> 20));
   BSON_APPEND_INT32 (&cmd, "setParameter", 1);
   BSON_APPEND_UTF8 (&cmd, "wiredTigerEngineRuntimeConfig", cfg);
   ok = mongoc_client_command_simple (client, "admin", &cmd, NULL, &reply, &err);
   if (!ok) {
      if (lab_mongo_is_unreachable (&err)) {
         lab_mongo_fail (store, error, &err, "setParameter wiredTigerEngineRuntimeConfig \"%s\"", cfg);
      } else {
         /* why, precisely: the parameter belongs to mongod's WiredTiger engine
          * (src/mongo/db/storage/wiredtiger/wiredtiger_parameters.idl); a server without it answers
          * "attempted to set unrecognized parameter" (src/mongo/db/commands/parameters.cpp) */
         mongo_store_t *ms = mstore (store);
         const char *why =
            ms->is_mongos ? "this is a mongos, which has no storage engine: the parameter is set on each "
                            "shard's primary "
                            "(scancmp does that through its shard connections)"
            : ms->sort_in_memory ? "FerretDB has no WiredTiger engine and no such parameter"
            : lab_mongo_server_code_is (&err, 13)
               ? "the user may not run setParameter (it needs the hostManager role or the setParameter "
                 "action)"
               : "the server runs no WiredTiger engine it lets us reconfigure (another storage engine, or a "
                 "managed service such as Atlas that refuses setParameter)";
         lab_error_set (
            error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
            "the server at %s cannot set its engine cache: setParameter wiredTigerEngineRuntimeConfig "
            "\"%s\" failed (%s): %s; measure one point per server configuration instead",
            store->uri_redacted, cfg, err.message, why);
      }
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   return ok;
}

/* lab_mongo_set_cache_size -- apply it now and remember it for every later cycle. */
bool
lab_mongo_set_cache_size (lab_store_t *store, uint64_t bytes, bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);
   mongoc_client_t *client = mongoc_client_pool_pop (ms->pool);
   bool ok = lab_mongo_apply_cache_size (store, client, bytes, error);

   mongoc_client_pool_push (ms->pool, client);
   if (ok) {
      ms->cache_size_bytes = bytes;
   }
   return ok;
}

/* ---- index statistics ------------------------------------------------------------------------ */

/* lab_mongo_leaf_pages -- collStats wiredTiger.btree["row-store leaf pages"]; mongod gathers it only with
 * statistics=all, so 0 or absent gives LAB_STORE_ERR_NOT_SUPPORTED. */
bool
lab_mongo_leaf_pages (lab_store_session_t *sess, const char *coll, int64_t *pages, bson_error_t *error)
{
   mongoc_database_t *db;
   bson_t cmd = BSON_INITIALIZER, reply;
   bson_error_t err;
   bson_iter_t it;
   bool ok;

   db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   BSON_APPEND_UTF8 (&cmd, "collStats", coll);
   ok = mongoc_database_command_simple (db, &cmd, NULL, &reply, &err);
   if (!ok) {
      lab_mongo_fail (sess->store, error, &err, "collStats of '%s'", coll);
   } else if (bson_iter_init (&it, &reply) &&
              bson_iter_find_descendant (&it, "wiredTiger.btree.row-store leaf pages", &it) &&
              BSON_ITER_HOLDS_NUMBER (&it) && bson_iter_as_int64 (&it) > 0) {
      *pages = bson_iter_as_int64 (&it);
   } else {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "collStats of '%s' on %s gives no leaf page count", coll, sess->store->uri_redacted);
      ok = false;
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   mongoc_database_destroy (db);
   return ok;
}

/* cache_of -- doc's "cache"."bytes currently in the cache" added to *sum; false when absent. */
static bool
cache_of (bson_iter_t *doc, int64_t *sum)
{
   bson_iter_t it;

   if (!bson_iter_recurse (doc, &it) ||
       !bson_iter_find_descendant (&it, "cache.bytes currently in the cache", &it) ||
       !BSON_ITER_HOLDS_NUMBER (&it)) {
      return false;
   }
   *sum += bson_iter_as_int64 (&it);
   return true;
}

/* lab_mongo_coll_cache_bytes -- collStats: the collection's wiredTiger.cache and each index's
 * indexDetails.<name>.cache "bytes currently in the cache"; a reply without them (FerretDB) leaves -1. */
bool
lab_mongo_coll_cache_bytes (lab_store_session_t *sess, const char *coll, int64_t *bytes, bson_error_t *error)
{
   mongoc_database_t *db;
   bson_t cmd = BSON_INITIALIZER, reply;
   bson_error_t err;
   bson_iter_t it, ix;
   int64_t sum = 0;
   bool ok;

   db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   BSON_APPEND_UTF8 (&cmd, "collStats", coll);
   ok = mongoc_database_command_simple (db, &cmd, NULL, &reply, &err);
   if (!ok) {
      lab_mongo_fail (sess->store, error, &err, "collStats of '%s'", coll);
   } else if (bson_iter_init_find (&it, &reply, "wiredTiger") && BSON_ITER_HOLDS_DOCUMENT (&it) &&
              cache_of (&it, &sum)) {
      if (bson_iter_init_find (&it, &reply, "indexDetails") && BSON_ITER_HOLDS_DOCUMENT (&it) &&
          bson_iter_recurse (&it, &ix)) {
         while (bson_iter_next (&ix)) {
            if (BSON_ITER_HOLDS_DOCUMENT (&ix)) {
               cache_of (&ix, &sum);
            }
         }
      }
      *bytes = sum;
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   mongoc_database_destroy (db);
   return ok;
}
