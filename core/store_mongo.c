/*
 * store_mongo.c -- the MongoDB backend of the store interface (mongodb://, mongodb+srv://, mongos), on
 * libmongoc 1.23.
 *
 * One mongoc_client_pool_t per store (error API v2); each lab_session_t pops one client and pushes it back
 * when closed. Sorted reads are aggregates [{$match}, {$sort: {field: 1}}] with `hint` to the field's
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
 */
#include "store_impl.h"

#include "error.h"
#include "log.h"

#include <errno.h>
#include <mongoc/mongoc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
   lab_server_info_t info;       /* read at open and after each cycle */
   int64_t info_mono_ns;         /* CLOCK_MONOTONIC when info.uptime_s was read */
   int64_t max_write_batch;      /* maxWriteBatchSize from hello */
   bool sort_in_memory;          /* FerretDB: ignores hint, sorts in memory, unstably (read at open) */
   int32_t selection_timeout_ms; /* serverSelectionTimeoutMS in use */
   int nsessions;                /* open sessions (cycle refuses while any is open) */
   uint64_t cache_size_bytes;   /* set by lab_store_set_cache_size, applied again after each cycle; 0: none */
   struct mongo_sess *sessions; /* open sessions, closed by store close if the caller did not */
} mongo_store_t;

typedef struct mongo_sess {
   lab_session_t *sess;
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

/* ---- small helpers ------------------------------------------------------------------------------- */

/* mono_ns -- CLOCK_MONOTONIC in nanoseconds. */
static int64_t
mono_ns (void)
{
   struct timespec ts;

   clock_gettime (CLOCK_MONOTONIC, &ts);
   return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* mstore -- the backend state of a store. */
static mongo_store_t *
mstore (lab_store_t *store)
{
   return store->impl;
}

/* msess -- the backend state of a session. */
static mongo_sess_t *
msess (lab_session_t *sess)
{
   return sess->impl;
}

/* num_at -- a numeric field (int32/int64/double/bool) at a dotted path, or `dflt`. */
static int64_t
num_at (const bson_t *doc, const char *path, int64_t dflt)
{
   bson_iter_t it, child;

   if (!doc || !bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &child)) {
      return dflt;
   }
   switch (bson_iter_type (&child)) {
   case BSON_TYPE_INT32:
   case BSON_TYPE_INT64:
   case BSON_TYPE_DOUBLE:
   case BSON_TYPE_BOOL:
      return bson_iter_as_int64 (&child);
   default:
      return dflt;
   }
}

/* dbl_at -- like num_at, keeping fractions. */
static double
dbl_at (const bson_t *doc, const char *path, double dflt)
{
   bson_iter_t it, child;

   if (!doc || !bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &child)) {
      return dflt;
   }
   switch (bson_iter_type (&child)) {
   case BSON_TYPE_INT32:
      return bson_iter_int32 (&child);
   case BSON_TYPE_INT64:
      return (double)bson_iter_int64 (&child);
   case BSON_TYPE_DOUBLE:
      return bson_iter_double (&child);
   default:
      return dflt;
   }
}

/* str_at -- a string field at a dotted path, or NULL. */
static const char *
str_at (const bson_t *doc, const char *path)
{
   bson_iter_t it, child;

   if (!doc || !bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &child) ||
       !BSON_ITER_HOLDS_UTF8 (&child)) {
      return NULL;
   }
   return bson_iter_utf8 (&child, NULL);
}

/* server_code_is -- the error came from the server with this code. */
static bool
server_code_is (const bson_error_t *e, uint32_t code)
{
   return (e->domain == MONGOC_ERROR_SERVER || e->domain == MONGOC_ERROR_QUERY ||
           e->domain == MONGOC_ERROR_COMMAND || e->domain == MONGOC_ERROR_COLLECTION) &&
          e->code == code;
}

/* is_unreachable -- the error says the server could not be reached (selection, network). */
static bool
is_unreachable (const bson_error_t *e)
{
   return e->domain == MONGOC_ERROR_SERVER_SELECTION || e->domain == MONGOC_ERROR_STREAM;
}

/* fail -- copy mongoc's error into *error with context "<what> (<uri>)"; selection and network errors
 * become LAB_STORE_ERR_UNREACHABLE so callers can tell a dead server from a refused operation. */
static void fail (lab_store_t *store, bson_error_t *error, const bson_error_t *cause, const char *fmt, ...)
   BSON_GNUC_PRINTF (4, 5);

static void
fail (lab_store_t *store, bson_error_t *error, const bson_error_t *cause, const char *fmt, ...)
{
   char what[256];
   va_list ap;

   va_start (ap, fmt);
   bson_vsnprintf (what, sizeof what, fmt, ap);
   va_end (ap);
   if (!error) {
      return;
   }
   if (is_unreachable (cause)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_UNREACHABLE,
                     "%s: cannot reach the MongoDB server at %s: %s (is it running? check host, port and "
                     "network, or raise the timeout)",
                     what, store->uri_redacted, cause->message);
      return;
   }
   lab_error_set (error, cause->domain, cause->code, "%s on %s: %s", what, store->uri_redacted,
                  cause->message);
}

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
 * name (store.h, lab_server_comm_trusted). `docker run -p 27017:27017 mongo` answers serverStatus with
 * pid 1, which here is the host's init. */
static bool
pid_is_server (int64_t pid)
{
   char comm[64];

   if (!lab_pid_comm (pid, comm, sizeof comm)) {
      return false;
   }
   if (!lab_server_comm_trusted (comm)) {
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

/* load_info -- hello limits of the selected server, then serverStatus (or buildInfo) facts. */
static bool
load_info (lab_store_t *store, mongoc_client_t *client, bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);
   lab_server_info_t info;
   mongoc_server_description_t *sd;
   const bson_t *hello;
   bson_t status;
   bson_error_t err;
   const mongoc_host_list_t *hosts;
   bool all_local = true;
   const char *s;

   memset (&info, 0, sizeof info);
   bson_strncpy (info.backend, "mongodb", sizeof info.backend);
   info.uptime_s = -1;
   sd = mongoc_client_select_server (client, true, NULL, &err);
   if (!sd) {
      fail (store, error, &err, "selecting a server");
      return false;
   }
   hello = mongoc_server_description_hello_response (sd);
   info.max_bson_bytes = num_at (hello, "maxBsonObjectSize", LAB_BSON_MAX_BYTES);
   info.max_message_bytes = num_at (hello, "maxMessageSizeBytes", LAB_MESSAGE_MAX_BYTES);
   ms->max_write_batch = num_at (hello, "maxWriteBatchSize", 100000);
   if (ms->max_write_batch < 1) {
      ms->max_write_batch = 1000;
   }
   bson_strncpy (info.host, mongoc_server_description_host (sd)->host_and_port, sizeof info.host);
   mongoc_server_description_destroy (sd);

   if (admin_command (client, "serverStatus", &status, &err)) {
      if ((s = str_at (&status, "host"))) {
         bson_strncpy (info.host, s, sizeof info.host);
      }
      if ((s = str_at (&status, "version"))) {
         bson_strncpy (info.version, s, sizeof info.version);
      }
      info.pid = num_at (&status, "pid", 0);
      info.uptime_s = num_at (&status, "uptime", -1);
   }
   bson_destroy (&status);
   {
      /* serverStatus may be refused to a user without clusterMonitor; buildInfo is open to all, and
       * FerretDB names itself there */
      bson_t build;
      if (admin_command (client, "buildInfo", &build, &err)) {
         if (!info.version[0] && (s = str_at (&build, "version"))) {
            bson_strncpy (info.version, s, sizeof info.version);
         }
         bson_iter_t it;
         ms->sort_in_memory = bson_iter_init_find (&it, &build, "ferretdbVersion");
      }
      bson_destroy (&build);
   }
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

/* ping -- {ping: 1} on admin. */
static bool
ping (mongoc_client_t *client, bson_error_t *error)
{
   bson_t reply;
   bool ok = admin_command (client, "ping", &reply, error);

   bson_destroy (&reply);
   return ok;
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

/* first_contact -- ping through a popped client and read the server's facts. */
static bool
first_contact (lab_store_t *store, bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);
   mongoc_client_t *client = mongoc_client_pool_pop (ms->pool);
   bson_error_t err;
   bool ok = false;

   if (!ping (client, &err)) {
      if (is_unreachable (&err)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_UNREACHABLE,
                        "cannot reach the MongoDB server at %s within %d ms: %s (is it running? check host, "
                        "port and network)",
                        store->uri_redacted, ms->selection_timeout_ms, err.message);
      } else {
         lab_error_set (error, err.domain, err.code, "the MongoDB server at %s refused ping: %s",
                        store->uri_redacted, err.message);
      }
      goto done;
   }
   ok = load_info (store, client, error);
done:
   mongoc_client_pool_push (ms->pool, client);
   return ok;
}

/* ---- store ---------------------------------------------------------------------------------------- */

static void mongo_session_close (lab_session_t *sess);

/* mongo_close -- close the sessions left open (store.h: their handles are freed too), then the pool. */
static void
mongo_close (lab_store_t *store)
{
   mongo_store_t *ms = mstore (store);

   if (!ms) {
      return;
   }
   while (ms->sessions) {
      lab_session_t *sess = ms->sessions->sess;
      mongo_session_close (sess);
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

/* mongo_open -- parse the URI with our timeouts, create the pool and ping the server. */
static bool
mongo_open (lab_store_t *store, bson_error_t *error)
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
   mongo_close (store);
   return false;
}

/* ---- sessions ------------------------------------------------------------------------------------- */

/* mongo_session_open -- pop a client for this thread; the store keeps a list for close. */
static bool
mongo_session_open (lab_session_t *sess, bson_error_t *error)
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

/* mongo_session_close -- push the client back, forget the session's caches. */
static void
mongo_session_close (lab_session_t *sess)
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

/* get_coll -- a collection handle of the session's client (caller destroys). */
static mongoc_collection_t *
get_coll (lab_session_t *sess, const char *coll)
{
   return mongoc_client_get_collection (msess (sess)->client, sess->store->db, coll);
}

/* ---- the per-session index cache ------------------------------------------------------------------ */

/* cache_key -- "coll\nfield" (newline cannot occur in a collection name we accept). */
static char *
cache_key (const char *coll, const char *field)
{
   return bson_strdup_printf ("%s\n%s", coll, field);
}

/* cache_has -- (coll, field) is known to be indexed. */
static bool
cache_has (mongo_sess_t *ss, const char *coll, const char *field)
{
   char *k = cache_key (coll, field);
   bool found = false;
   size_t i;

   for (i = 0; i < ss->nindexed && !found; i++) {
      found = strcmp (ss->indexed[i], k) == 0;
   }
   bson_free (k);
   return found;
}

/* cache_add -- remember that (coll, field) is indexed. */
static void
cache_add (mongo_sess_t *ss, const char *coll, const char *field)
{
   if (cache_has (ss, coll, field)) {
      return;
   }
   ss->indexed = bson_realloc (ss->indexed, (ss->nindexed + 1) * sizeof *ss->indexed);
   ss->indexed[ss->nindexed++] = cache_key (coll, field);
}

/* cache_forget -- drop every entry of `coll` (after a drop). */
static void
cache_forget (mongo_sess_t *ss, const char *coll)
{
   size_t i = 0, n = strlen (coll);

   while (i < ss->nindexed) {
      if (strncmp (ss->indexed[i], coll, n) == 0 && ss->indexed[i][n] == '\n') {
         bson_free (ss->indexed[i]);
         ss->indexed[i] = ss->indexed[--ss->nindexed];
      } else {
         i++;
      }
   }
   for (i = 0; i < ss->nbatch; i++) {
      if (strcmp (ss->batch_colls[i], coll) == 0) {
         bson_free (ss->batch_colls[i]);
         ss->batch_colls[i] = ss->batch_colls[--ss->nbatch];
         ss->batch_docs[i] = ss->batch_docs[ss->nbatch];
         break;
      }
   }
}

/* ---- collections ---------------------------------------------------------------------------------- */

/* mongo_exists -- listCollections filtered by name (nameOnly). */
static bool
mongo_exists (lab_session_t *sess, const char *coll, bool *exists, bson_error_t *error)
{
   mongoc_database_t *db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   bson_t opts = BSON_INITIALIZER, filter;
   mongoc_cursor_t *cursor;
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;

   BSON_APPEND_DOCUMENT_BEGIN (&opts, "filter", &filter);
   BSON_APPEND_UTF8 (&filter, "name", coll);
   bson_append_document_end (&opts, &filter);
   BSON_APPEND_BOOL (&opts, "nameOnly", true);
   cursor = mongoc_database_find_collections_with_opts (db, &opts);
   *exists = false;
   while (mongoc_cursor_next (cursor, &doc)) {
      const char *name = str_at (doc, "name");
      *exists = *exists || (name && strcmp (name, coll) == 0);
   }
   if (mongoc_cursor_error (cursor, &err)) {
      fail (sess->store, error, &err, "listing collection '%s' of database '%s'", coll, sess->store->db);
      ok = false;
   }
   mongoc_cursor_destroy (cursor);
   bson_destroy (&opts);
   mongoc_database_destroy (db);
   return ok;
}

/* require_coll -- true when the collection exists, else NO_COLLECTION naming database and server. */
static bool
require_coll (lab_session_t *sess, const char *coll, bson_error_t *error)
{
   bool exists;

   if (!mongo_exists (sess, coll, &exists, error)) {
      return false;
   }
   if (!exists) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                     "collection '%s' does not exist in database '%s' on %s", coll, sess->store->db,
                     sess->store->uri_redacted);
      return false;
   }
   return true;
}

/* compressor_check -- after a create with storageEngine: does listCollections show the configString?
 * mongod keeps it in the collection's options (and in the WiredTiger table's creation config); a server
 * that accepted the field without keeping it ignored it (FerretDB). Sets the store's compressor note and
 * says so in the log when it was ignored: never silently. */
static void
compressor_check (lab_session_t *sess, const char *coll, const char *config)
{
   lab_store_t *store = sess->store;
   mongoc_database_t *db = mongoc_client_get_database (msess (sess)->client, store->db);
   bson_t opts = BSON_INITIALIZER, filter;
   mongoc_cursor_t *cursor;
   const bson_t *doc;
   bson_iter_t it, f;
   bool kept = false;

   BSON_APPEND_DOCUMENT_BEGIN (&opts, "filter", &filter);
   BSON_APPEND_UTF8 (&filter, "name", coll);
   bson_append_document_end (&opts, &filter);
   cursor = mongoc_database_find_collections_with_opts (db, &opts);
   while (mongoc_cursor_next (cursor, &doc)) {
      if (bson_iter_init (&it, doc) &&
          bson_iter_find_descendant (&it, "options.storageEngine.wiredTiger.configString", &f) &&
          BSON_ITER_HOLDS_UTF8 (&f) && strstr (bson_iter_utf8 (&f, NULL), config)) {
         kept = true;
      }
   }
   mongoc_cursor_destroy (cursor);
   bson_destroy (&opts);
   mongoc_database_destroy (db);
   if (kept) {
      bson_snprintf (store->compressor_note, sizeof store->compressor_note,
                     "create storageEngine.wiredTiger.configString %s (kept in the collection's options)",
                     config);
   } else {
      bson_snprintf (
         store->compressor_note, sizeof store->compressor_note,
         "ignored by the server: create accepted storageEngine.wiredTiger.configString %s but the "
         "collection's options do not keep it%s",
         config, mstore (store)->sort_in_memory ? " (FerretDB has no block compression setting)" : "");
      lab_log_info ("collection '%s': %s", coll, store->compressor_note);
   }
}

/* mongo_create -- create when missing (with the store's block compressor as mongod's
 * storageEngine.wiredTiger.configString); losing a creation race (NamespaceExists) is fine. */
static bool
mongo_create (lab_session_t *sess, const char *coll, bson_error_t *error)
{
   mongoc_database_t *db;
   mongoc_collection_t *c;
   bson_error_t err;
   bson_t copts = BSON_INITIALIZER, se, wt;
   char config[64] = "";
   bool exists;

   if (!mongo_exists (sess, coll, &exists, error)) {
      return false;
   }
   if (exists) {
      return true;
   }
   if (sess->store->block_compressor) {
      bson_snprintf (config, sizeof config, "block_compressor=%s", sess->store->block_compressor);
      BSON_APPEND_DOCUMENT_BEGIN (&copts, "storageEngine", &se);
      BSON_APPEND_DOCUMENT_BEGIN (&se, "wiredTiger", &wt);
      BSON_APPEND_UTF8 (&wt, "configString", config);
      bson_append_document_end (&se, &wt);
      bson_append_document_end (&copts, &se);
   }
   db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   c = mongoc_database_create_collection (db, coll, &copts, &err);
   mongoc_database_destroy (db);
   bson_destroy (&copts);
   if (c) {
      mongoc_collection_destroy (c);
      if (config[0]) {
         compressor_check (sess, coll, config);
      }
      return true;
   }
   if (server_code_is (&err, 48)) { /* NamespaceExists: created meanwhile by another session */
      return true;
   }
   if (config[0]) {
      bson_snprintf (sess->store->compressor_note, sizeof sess->store->compressor_note,
                     "refused by the server: %s", err.message);
      fail (sess->store, error, &err,
            "creating collection '%s' in database '%s' with storageEngine.wiredTiger.configString %s (the "
            "server refused it: drop --block-compressor to use the server's default)",
            coll, sess->store->db, config);
      return false;
   }
   fail (sess->store, error, &err, "creating collection '%s' in database '%s'", coll, sess->store->db);
   return false;
}

/* sort_usable -- an index description (listIndexes) that can serve a stream in `field` order: its key
 * pattern starts with `field` at direction 1 or -1 (not hashed or text), and it holds every document
 * (not sparse, not partial) under the simple collation. *rank orders the candidates: {field: 1} first,
 * then {field: -1} (walked backwards), then compound indexes by their number of keys. */
static bool
sort_usable (const bson_t *desc, const char *field, int *rank)
{
   bson_iter_t it, key;
   bool first = true, ok = false;
   int nkeys = 0;
   double dir = 0;

   *rank = 0;
   if (bson_iter_init_find (&it, desc, "sparse") && bson_iter_as_bool (&it)) {
      return false;
   }
   if (bson_iter_init_find (&it, desc, "partialFilterExpression") ||
       bson_iter_init_find (&it, desc, "collation")) {
      return false;
   }
   if (!bson_iter_init_find (&it, desc, "key") || !BSON_ITER_HOLDS_DOCUMENT (&it) ||
       !bson_iter_recurse (&it, &key)) {
      return false;
   }
   while (bson_iter_next (&key)) {
      if (first) {
         if (strcmp (bson_iter_key (&key), field) != 0 || !BSON_ITER_HOLDS_NUMBER (&key)) {
            return false;
         }
         dir = bson_iter_as_double (&key);
         ok = dir == 1 || dir == -1;
         first = false;
      }
      nkeys++;
   }
   *rank = nkeys * 2 + (dir < 0);
   return ok;
}

/* find_index -- *has = an index of `coll` has `field` as its first key; *coll_exists = listIndexes saw
 * the collection (every collection has at least the _id index). When sort_key is not NULL it gets the
 * key pattern of the index a sorted read hints (sort_usable; {field: 1} itself when it exists, else the
 * one with fewest keys), or stays empty. */
static bool
find_index (lab_session_t *sess, const char *coll, const char *field, bool *has, bool *coll_exists,
            bson_t *sort_key, bson_error_t *error)
{
   mongoc_collection_t *c = get_coll (sess, coll);
   mongoc_cursor_t *cursor = mongoc_collection_find_indexes_with_opts (c, NULL);
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;
   int best = 0, rank;

   *has = *coll_exists = false;
   if (sort_key) {
      bson_reinit (sort_key);
   }
   while (mongoc_cursor_next (cursor, &doc)) {
      bson_iter_t it, key;

      *coll_exists = true;
      if (bson_iter_init_find (&it, doc, "key") && BSON_ITER_HOLDS_DOCUMENT (&it) &&
          bson_iter_recurse (&it, &key) && bson_iter_next (&key) &&
          strcmp (bson_iter_key (&key), field) == 0) {
         *has = true;
      }
      if (sort_key && sort_usable (doc, field, &rank) && (best == 0 || rank < best)) {
         const uint8_t *data;
         uint32_t len;
         bson_t pattern;

         bson_iter_init_find (&it, doc, "key");
         bson_iter_document (&it, &len, &data);
         if (bson_init_static (&pattern, data, len)) {
            bson_reinit (sort_key);
            bson_concat (sort_key, &pattern);
            best = rank;
         }
      }
   }
   if (mongoc_cursor_error (cursor, &err)) {
      if (!server_code_is (&err, 26)) { /* NamespaceNotFound: no collection, no index */
         fail (sess->store, error, &err, "listing the indexes of '%s'", coll);
         ok = false;
      }
   }
   mongoc_cursor_destroy (cursor);
   mongoc_collection_destroy (c);
   if (ok && *coll_exists && strcmp (field, "_id") == 0) {
      *has = true;
   }
   return ok;
}

/* mongo_has_index -- listIndexes; a missing collection is NO_COLLECTION, as on the embedded store. */
static bool
mongo_has_index (lab_session_t *sess, const char *coll, const char *field, bool *has, bson_error_t *error)
{
   bool coll_exists;

   if (!find_index (sess, coll, field, has, &coll_exists, NULL, error)) {
      return false;
   }
   if (!coll_exists) {
      return require_coll (sess, coll, error);
   }
   if (*has) {
      cache_add (msess (sess), coll, field);
   }
   return true;
}

/* require_index -- NO_COLLECTION / NO_INDEX unless `field` is `_id` or indexed (cached per session, so
 * per-key reads cost one round trip). */
static bool
require_index (lab_session_t *sess, const char *coll, const char *field, bson_error_t *error)
{
   bool has, coll_exists;

   if (cache_has (msess (sess), coll, field)) {
      return true;
   }
   if (!find_index (sess, coll, field, &has, &coll_exists, NULL, error)) {
      return false;
   }
   if (!coll_exists) {
      return require_coll (sess, coll, error);
   }
   if (!has) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
                     "collection '%s' in database '%s' on %s has no index on '%s': create it (e.g. "
                     "db.%s.createIndex({\"%s\": 1})) or choose an indexed field with --key",
                     coll, sess->store->db, sess->store->uri_redacted, field, coll, field);
      return false;
   }
   cache_add (msess (sess), coll, field);
   return true;
}

/* require_sort_index -- *pattern (initialized by the caller) = the key pattern of the index a sorted read
 * of `field` hints; NO_COLLECTION, or NO_INDEX naming the collection, the field and the remedy. Always
 * asks the server (one listIndexes): an index may have been dropped since a cached check. */
static bool
require_sort_index (lab_session_t *sess, const char *coll, const char *field, bson_t *pattern,
                    bson_error_t *error)
{
   bool has, coll_exists;

   if (!find_index (sess, coll, field, &has, &coll_exists, pattern, error)) {
      return false;
   }
   if (!coll_exists) {
      return require_coll (sess, coll, error);
   }
   if (bson_empty (pattern)) {
      lab_error_set (
         error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
         "collection '%s' in database '%s' on %s has no index on '%s'%s to read it in '%s' order "
         "(without one the server would sort the whole collection before the first document): run "
         "with --create-index, or create it with db.%s.createIndex({%s: 1})",
         coll, sess->store->db, sess->store->uri_redacted, field,
         has ? " that can serve a sort (hashed, text, sparse and partial indexes cannot)" : "", field, coll,
         field);
      return false;
   }
   return true;
}

/* mongo_create_index -- createIndexes {field: 1} named "<field>_1"; the same index again is a no-op. */
static bool
mongo_create_index (lab_session_t *sess, const char *coll, const char *field, bson_error_t *error)
{
   mongoc_database_t *db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   bson_t cmd = BSON_INITIALIZER, indexes, index, key, reply;
   char *name = bson_strdup_printf ("%s_1", field);
   bson_error_t err;
   bool ok;

   BSON_APPEND_UTF8 (&cmd, "createIndexes", coll);
   BSON_APPEND_ARRAY_BEGIN (&cmd, "indexes", &indexes);
   BSON_APPEND_DOCUMENT_BEGIN (&indexes, "0", &index);
   BSON_APPEND_DOCUMENT_BEGIN (&index, "key", &key);
   BSON_APPEND_INT32 (&key, field, 1);
   bson_append_document_end (&index, &key);
   BSON_APPEND_UTF8 (&index, "name", name);
   bson_append_document_end (&indexes, &index);
   bson_append_array_end (&cmd, &indexes);
   ok = mongoc_database_write_command_with_opts (db, &cmd, NULL, &reply, &err);
   if (!ok) {
      fail (sess->store, error, &err, "creating index '%s' on '%s' of '%s'", name, field, coll);
   } else {
      cache_add (msess (sess), coll, field);
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   bson_free (name);
   mongoc_database_destroy (db);
   return ok;
}

/* mongo_drop -- drop; NamespaceNotFound is success. */
static bool
mongo_drop (lab_session_t *sess, const char *coll, bson_error_t *error)
{
   mongoc_collection_t *c = get_coll (sess, coll);
   bson_error_t err;
   bool ok = mongoc_collection_drop_with_opts (c, NULL, &err);

   mongoc_collection_destroy (c);
   cache_forget (msess (sess), coll);
   if (!ok && (server_code_is (&err, 26) || strstr (err.message, "ns not found"))) {
      ok = true; /* dropping a missing collection is fine */
   }
   if (!ok) {
      fail (sess->store, error, &err, "dropping collection '%s' of database '%s'", coll, sess->store->db);
   }
   return ok;
}

/* mongo_count -- exact (countDocuments), NO_COLLECTION when missing. */
static bool
mongo_count (lab_session_t *sess, const char *coll, int64_t *count, bson_error_t *error)
{
   mongoc_collection_t *c;
   bson_t filter = BSON_INITIALIZER;
   bson_error_t err;
   int64_t n;

   if (!require_coll (sess, coll, error)) {
      return false;
   }
   c = get_coll (sess, coll);
   n = mongoc_collection_count_documents (c, &filter, NULL, NULL, NULL, &err);
   mongoc_collection_destroy (c);
   bson_destroy (&filter);
   if (n < 0) {
      fail (sess->store, error, &err, "counting the documents of '%s'", coll);
      return false;
   }
   *count = n;
   return true;
}

/* stats_from -- the size figures of a collStats reply or of a $collStats document's storageStats, added to
 * *st (through mongos $collStats answers one document per shard). */
static void
stats_from (const bson_t *doc, lab_coll_stats_t *st)
{
   st->count += num_at (doc, "count", 0);
   st->data_size_bytes += num_at (doc, "size", 0);
   st->storage_size_bytes += num_at (doc, "storageSize", 0);
   st->index_size_bytes += num_at (doc, "totalIndexSize", 0);
   if (num_at (doc, "nindexes", 0) > st->nindexes) {
      st->nindexes = (int32_t)num_at (doc, "nindexes", 0);
   }
}

/* coll_stats_stage -- aggregate [{$collStats: {storageStats: {}}}] (mongod 3.4+, the supported form since
 * collStats was deprecated in 6.2), summed over its documents; false when the server refuses the stage. */
static bool
coll_stats_stage (lab_session_t *sess, const char *coll, lab_coll_stats_t *st, bson_error_t *err)
{
   mongoc_collection_t *c = get_coll (sess, coll);
   bson_t *pipeline =
      BCON_NEW ("pipeline", "[", "{", "$collStats", "{", "storageStats", "{", "}", "}", "}", "]");
   mongoc_cursor_t *cur = mongoc_collection_aggregate (c, MONGOC_QUERY_NONE, pipeline, NULL, NULL);
   const bson_t *doc;
   bool any = false, ok;

   while (mongoc_cursor_next (cur, &doc)) {
      bson_iter_t it;
      if (bson_iter_init_find (&it, doc, "storageStats") && BSON_ITER_HOLDS_DOCUMENT (&it)) {
         bson_t ss;
         uint32_t len;
         const uint8_t *data;
         bson_iter_document (&it, &len, &data);
         if (bson_init_static (&ss, data, len)) {
            stats_from (&ss, st);
            any = true;
         }
      }
   }
   ok = !mongoc_cursor_error (cur, err) && any;
   if (!any && err->code == 0) {
      bson_set_error (err, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY, "$collStats returned no storageStats");
   }
   mongoc_cursor_destroy (cur);
   bson_destroy (pipeline);
   mongoc_collection_destroy (c);
   return ok;
}

/* mongo_stats -- $collStats storageStats where the server has it, else the collStats command (older
 * servers, FerretDB); estimates on FerretDB. NO_COLLECTION when missing. */
static bool
mongo_stats (lab_session_t *sess, const char *coll, lab_coll_stats_t *st, bson_error_t *error)
{
   mongoc_database_t *db;
   bson_t cmd = BSON_INITIALIZER, reply;
   bson_error_t err;
   bool ok;

   if (!require_coll (sess, coll, error)) {
      return false;
   }
   memset (st, 0, sizeof *st);
   memset (&err, 0, sizeof err);
   if (coll_stats_stage (sess, coll, st, &err)) {
      st->avg_obj_size_bytes = st->count > 0 ? (double)st->data_size_bytes / (double)st->count : 0;
      return true;
   }
   lab_log_debug ("$collStats of '%s' refused (%s): using the collStats command", coll, err.message);
   memset (st, 0, sizeof *st);
   db = mongoc_client_get_database (msess (sess)->client, sess->store->db);
   BSON_APPEND_UTF8 (&cmd, "collStats", coll);
   ok = mongoc_database_command_simple (db, &cmd, NULL, &reply, &err);
   if (ok) {
      stats_from (&reply, st);
      st->avg_obj_size_bytes = dbl_at (&reply, "avgObjSize", 0);
      if (st->avg_obj_size_bytes <= 0 && st->count > 0) {
         st->avg_obj_size_bytes = (double)st->data_size_bytes / (double)st->count;
      }
   } else {
      fail (sess->store, error, &err, "collStats of '%s'", coll);
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   mongoc_database_destroy (db);
   return ok;
}

/* ---- writes --------------------------------------------------------------------------------------- */

/* insert_chunk -- one unordered bulk insert of docs[0..n); map[i] is each document's caller index. */
static bool
insert_chunk (lab_session_t *sess, mongoc_collection_t *c, const char *coll, const bson_t *const *docs,
              const size_t *orig, size_t n, lab_insert_result_t *result, bson_error_t *error)
{
   bson_t opts = BSON_INITIALIZER, reply;
   mongoc_bulk_operation_t *bulk;
   size_t *queued = bson_malloc (n * sizeof *queued); /* bulk position -> index into docs */
   size_t nqueued = 0, i;
   bson_error_t err;
   bson_iter_t it, arr;
   bool ok = true, executed;

   BSON_APPEND_BOOL (&opts, "ordered", false);
   bulk = mongoc_collection_create_bulk_operation_with_opts (c, &opts);
   for (i = 0; i < n; i++) {
      if (!mongoc_bulk_operation_insert_with_opts (bulk, docs[i], NULL, &err)) {
         /* refused client-side (e.g. invalid keys); the rest of the batch still goes */
         lab_insert_result_add_error (result, orig[i], err.domain, err.code, "%s", err.message);
         continue;
      }
      queued[nqueued++] = i;
   }
   if (nqueued == 0) {
      goto done;
   }
   executed = mongoc_bulk_operation_execute (bulk, &reply, &err) != 0;
   result->inserted += num_at (&reply, "nInserted", 0);
   if (!executed) {
      bool per_doc = false;

      if (bson_iter_init_find (&it, &reply, "writeErrors") && BSON_ITER_HOLDS_ARRAY (&it) &&
          bson_iter_recurse (&it, &arr)) {
         while (bson_iter_next (&arr)) {
            bson_t wd;
            const uint8_t *data;
            uint32_t len;
            int64_t idx, code;
            const char *msg;

            if (!BSON_ITER_HOLDS_DOCUMENT (&arr)) {
               continue;
            }
            bson_iter_document (&arr, &len, &data);
            if (!bson_init_static (&wd, data, len)) {
               continue;
            }
            idx = num_at (&wd, "index", -1);
            code = num_at (&wd, "code", 0);
            msg = str_at (&wd, "errmsg");
            if (idx < 0 || (size_t)idx >= nqueued) {
               continue;
            }
            per_doc = true;
            if (code == 11000) {
               lab_insert_result_add_error (result, orig[queued[idx]], LAB_ERROR_STORE,
                                            LAB_STORE_ERR_DUPLICATE_KEY, "%s", msg ? msg : "duplicate key");
            } else {
               lab_insert_result_add_error (result, orig[queued[idx]], MONGOC_ERROR_SERVER, (uint32_t)code,
                                            "%s", msg ? msg : "write error");
            }
         }
      }
      /* a write-concern error or a transport failure fails the batch; per-document errors do not */
      if (!per_doc ||
          (bson_iter_init_find (&it, &reply, "writeConcernErrors") && BSON_ITER_HOLDS_ARRAY (&it) &&
           bson_iter_recurse (&it, &arr) && bson_iter_next (&arr)) ||
          is_unreachable (&err)) {
         fail (sess->store, error, &err, "inserting %zu documents into '%s'", nqueued, coll);
         ok = false;
      }
   }
   bson_destroy (&reply);
done:
   mongoc_bulk_operation_destroy (bulk);
   bson_destroy (&opts);
   bson_free (queued);
   return ok;
}

/* mongo_insert_many -- split under maxMessageSizeBytes (less an envelope) and maxWriteBatchSize. */
static bool
mongo_insert_many (lab_session_t *sess, const char *coll, const bson_t *const *docs, const size_t *orig,
                   size_t n, int64_t first, lab_insert_result_t *result, bson_error_t *error)
{
   (void)first; /* the server assigns RecordIds */
   mongo_store_t *ms = mstore (sess->store);
   mongoc_collection_t *c = get_coll (sess, coll);
   int64_t budget, max_docs;
   size_t start = 0;
   bool ok = true;

   pthread_mutex_lock (&ms->mu);
   budget = lab_store_write_budget_bytes (ms->info.max_message_bytes);
   max_docs = ms->max_write_batch;
   pthread_mutex_unlock (&ms->mu);
   if (budget < LAB_BSON_MAX_BYTES) {
      budget = LAB_BSON_MAX_BYTES;
   }
   while (ok && start < n) {
      size_t end = start;
      int64_t bytes = 0;

      while (end < n && (int64_t)(end - start) < max_docs &&
             (end == start || bytes + (int64_t)docs[end]->len <= budget)) {
         bytes += docs[end]->len;
         end++;
      }
      ok = insert_chunk (sess, c, coll, docs + start, orig + start, end - start, result, error);
      start = end;
   }
   mongoc_collection_destroy (c);
   return ok;
}

/* id_filter -- {_id: <doc's _id>}. */
static void
id_filter (const bson_t *doc, bson_t *filter)
{
   bson_iter_t it;

   bson_init (filter);
   if (bson_iter_init_find (&it, doc, "_id")) {
      bson_append_iter (filter, "_id", 3, &it);
   }
}

/* mongo_upsert_by_id -- replaceOne {_id} with upsert. */
static bool
mongo_upsert_by_id (lab_session_t *sess, const char *coll, const bson_t *doc, bson_error_t *error)
{
   mongoc_collection_t *c = get_coll (sess, coll);
   bson_t filter, opts = BSON_INITIALIZER, reply;
   bson_error_t err;
   bool ok;

   id_filter (doc, &filter);
   BSON_APPEND_BOOL (&opts, "upsert", true);
   ok = mongoc_collection_replace_one (c, &filter, doc, &opts, &reply, &err);
   if (!ok) {
      fail (sess->store, error, &err, "upserting a document into '%s'", coll);
   }
   bson_destroy (&reply);
   bson_destroy (&opts);
   bson_destroy (&filter);
   mongoc_collection_destroy (c);
   return ok;
}

/* eq_filter -- {field: value}; a document value must not be read as an operator, so wrap it in $eq. */
static void
eq_filter (const char *field, const bson_value_t *value, bson_t *filter)
{
   bson_init (filter);
   if (value->value_type == BSON_TYPE_DOCUMENT || value->value_type == BSON_TYPE_REGEX) {
      bson_t eq;
      BSON_APPEND_DOCUMENT_BEGIN (filter, field, &eq);
      BSON_APPEND_VALUE (&eq, "$eq", value);
      bson_append_document_end (filter, &eq);
   } else {
      BSON_APPEND_VALUE (filter, field, value);
   }
}

/* mongo_delete_eq -- deleteMany {field: value}; the field must be indexed, as on the embedded store. */
static bool
mongo_delete_eq (lab_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
                 int64_t *deleted, bson_error_t *error)
{
   mongoc_collection_t *c;
   bson_t filter, reply;
   bson_error_t err;
   bool ok;

   *deleted = 0;
   if (!require_index (sess, coll, field, error)) {
      return false;
   }
   c = get_coll (sess, coll);
   eq_filter (field, value, &filter);
   ok = mongoc_collection_delete_many (c, &filter, NULL, &reply, &err);
   if (ok) {
      *deleted = num_at (&reply, "deletedCount", 0);
   } else {
      fail (sess->store, error, &err, "deleting from '%s' where %s matches", coll, field);
   }
   bson_destroy (&reply);
   bson_destroy (&filter);
   mongoc_collection_destroy (c);
   return ok;
}

/* mongo_flush -- nothing to do: acknowledged writes are the server's to make durable. */
static bool
mongo_flush (lab_store_t *store, bson_error_t *error)
{
   return true;
}

/* ---- reads ---------------------------------------------------------------------------------------- */

/* batch_for -- cursor batch size keeping a reply near MONGO_REPLY_BUDGET_BYTES for this collection's
 * average document size (collStats; 1 KiB when unknown). */
static int32_t
batch_for (lab_session_t *sess, const char *coll)
{
   lab_coll_stats_t st;
   bson_error_t err;
   double avg = 1024;
   int64_t b;

   memset (&st, 0, sizeof st);
   if (mongo_stats (sess, coll, &st, &err) && st.avg_obj_size_bytes > 0) {
      avg = st.avg_obj_size_bytes;
   }
   b = (int64_t)(MONGO_REPLY_BUDGET_BYTES / avg);
   return (int32_t)(b < 1 ? 1 : b > MONGO_BATCH_MAX_DOCS ? MONGO_BATCH_MAX_DOCS : b);
}

/* find_batch -- batch_for(coll), asked once per session and collection (find_eq runs once per key). */
static int32_t
find_batch (lab_session_t *sess, const char *coll)
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

/* mongo_find_eq -- find {field: value} in the server's index order; NO_INDEX unless indexed. */
static bool
mongo_find_eq (lab_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
               lab_doc_cb_t cb, void *ctx, int64_t *ndocs, bson_error_t *error)
{
   mongoc_collection_t *c;
   mongoc_cursor_t *cursor;
   bson_t filter, opts = BSON_INITIALIZER;
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;

   *ndocs = 0;
   if (!require_index (sess, coll, field, error)) {
      return false;
   }
   c = get_coll (sess, coll);
   eq_filter (field, value, &filter);
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
      fail (sess->store, error, &err, "finding documents of '%s' where %s matches", coll, field);
      ok = false;
   }
   mongoc_cursor_destroy (cursor);
   bson_destroy (&opts);
   bson_destroy (&filter);
   mongoc_collection_destroy (c);
   return ok;
}

/* mongo_cursor_close -- destroy the cursor (killCursors when unfinished) and its collection. */
static void
mongo_cursor_close (lab_cursor_t *cur)
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
open_aggregate (lab_session_t *sess, const char *coll, const bson_t *pipeline, const bson_t *opts)
{
   mongo_cur_t *mc = bson_malloc0 (sizeof *mc);

   mc->coll = get_coll (sess, coll);
   mc->cursor = mongoc_collection_aggregate (mc->coll, MONGOC_QUERY_NONE, pipeline, opts, NULL);
   return mc;
}

/* sorted_command -- the pipeline [{$match: [lo, hi)}, {$sort}] and the aggregate options (allowDiskUse,
 * batchSize, hint = the index's key pattern) of a sorted read; both initialized here. The sort is
 * {field: 1}, plus _id: 1 on a server that sorts in memory, unstably (FerretDB): there the tie-breaker
 * costs nothing and keeps ties deterministic; on mongod it would turn the index walk into a blocking
 * sort of the whole collection. */
static void
sorted_command (const char *field, const lab_sorted_opts_t *opts, const bson_t *pattern, int32_t batch,
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
lab_mongo_sorted_command (const char *db, const char *coll, const char *field, const lab_sorted_opts_t *opts,
                          const bson_t *index, int32_t batch_docs, bool sort_in_memory, bson_t *out)
{
   lab_sorted_opts_t none = { 0 };
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

/* mongo_sorted_open -- the index-served aggregate of sorted_command (store.h, the sorted-read contract). */
static bool
mongo_sorted_open (lab_cursor_t *cur, const char *coll, const char *field, const lab_sorted_opts_t *opts,
                   bson_error_t *error)
{
   lab_session_t *sess = cur->sess;
   bson_t pattern = BSON_INITIALIZER, pipeline, agg_opts;

   if (!require_sort_index (sess, coll, field, &pattern, error)) {
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

/* mongo_sorted_describe -- the command mongo_sorted_open would send (lab_mongo_sorted_command). */
static bool
mongo_sorted_describe (lab_session_t *sess, const char *coll, const char *field,
                       const lab_sorted_opts_t *opts, bson_t *out, bson_error_t *error)
{
   bool in_memory = mstore (sess->store)->sort_in_memory;
   bson_t pattern = BSON_INITIALIZER, cmd;

   if (!require_sort_index (sess, coll, field, &pattern, error)) {
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

/* mongo_cursor_next -- 1 with a document, 0 at the end, -1 on error. */
static int
mongo_cursor_next (lab_cursor_t *cur, const bson_t **doc, bson_error_t *error)
{
   mongo_cur_t *mc = cur->impl;
   bson_error_t err;

   if (mongoc_cursor_next (mc->cursor, doc)) {
      return 1;
   }
   if (mongoc_cursor_error (mc->cursor, &err)) {
      fail (cur->sess->store, error, &err, "reading the sorted stream of '%s'",
            mongoc_collection_get_name (mc->coll));
      return -1;
   }
   return 0;
}

/* key_find -- a covered find of the index on `field`: filter {}, projection {field: 1, _id: 0} (the
 * index holds everything the reply needs, so mongod reads no document: PROJECTION_COVERED over IXSCAN),
 * sort {field: 1}, hint = its key pattern, plus skip/limit when > 0. Caller destroys the cursor. */
static mongoc_cursor_t *
key_find (lab_session_t *sess, mongoc_collection_t *c, const char *field, const bson_t *pattern, int64_t skip,
          int64_t limit, int32_t batch)
{
   bson_t filter = BSON_INITIALIZER, opts = BSON_INITIALIZER, proj;
   mongoc_cursor_t *cursor;

   BSON_APPEND_DOCUMENT_BEGIN (&opts, "projection", &proj);
   BSON_APPEND_INT32 (&proj, field, 1);
   if (strcmp (field, "_id") != 0) {
      BSON_APPEND_INT32 (&proj, "_id", 0);
   }
   bson_append_document_end (&opts, &proj);
   /* no _id tie-breaker here, even on FerretDB: only the key values matter, whatever the order of ties */
   BSON_APPEND_DOCUMENT_BEGIN (&opts, "sort", &proj);
   BSON_APPEND_INT32 (&proj, field, 1);
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
probe_at (lab_session_t *sess, const char *coll, const char *field, const bson_t *pattern, int64_t skip,
          bson_value_t *value, bool *found, bson_error_t *error)
{
   mongoc_collection_t *c = get_coll (sess, coll);
   mongoc_cursor_t *cursor = key_find (sess, c, field, pattern, skip, 1, 1);
   const bson_t *doc;
   bson_error_t err;
   bool ok = true;

   *found = false;
   if (mongoc_cursor_next (cursor, &doc)) {
      *found = true;
      key_value (doc, field, value);
   } else if (mongoc_cursor_error (cursor, &err)) {
      fail (sess->store, error, &err, "probing '%s' of '%s' at position %" PRId64, field, coll, skip);
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

/* mongo_count_estimated -- the `count` command without a query (collection metadata on mongod). */
static bool
mongo_count_estimated (lab_session_t *sess, const char *coll, int64_t *count, bson_error_t *error)
{
   mongoc_collection_t *c;
   bson_error_t err;
   int64_t n;

   if (!require_coll (sess, coll, error)) {
      return false;
   }
   c = get_coll (sess, coll);
   n = mongoc_collection_estimated_document_count (c, NULL, NULL, NULL, &err);
   mongoc_collection_destroy (c);
   if (n < 0) {
      fail (sess->store, error, &err, "counting the documents of '%s' (count command)", coll);
      return false;
   }
   *count = n;
   return true;
}

/* mongo_partition -- for k = 1..n-1, the key at sorted position k*count/n is a split value: all of its
 * documents start range k, so no key is split. Repeats and the smallest key (an empty first range) are
 * dropped.
 *
 * Cost: n-1 covered finds (skip + limit 1, hinted) plus the first key and a metadata count. mongod walks
 * the skipped index keys server-side without fetching a document or sending anything back: about
 * count * (n-1) / 2 keys in all, seconds on 10^8 rows. The alternatives are worse: one covered stream of
 * every key ships the whole index to the client, and $bucketAuto is a blocking sort of every document.
 * The count may be an estimate: that only moves the bounds, the ranges still cover every document once
 * (first and last unbounded); a position past the end stops the bounds early. */
static bool
mongo_partition (lab_session_t *sess, const char *coll, const char *field, int n, bson_value_t **bounds,
                 int *nbounds, bson_error_t *error)
{
   bson_t pattern = BSON_INITIALIZER;
   bson_value_t first;
   int64_t total;
   bool found, ok = false, have_first = false;
   int k;

   if (!require_sort_index (sess, coll, field, &pattern, error) ||
       !mongo_count_estimated (sess, coll, &total, error)) {
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
      lab_values_free (*bounds, *nbounds);
      *bounds = NULL;
      *nbounds = 0;
   }
   bson_destroy (&pattern);
   return ok;
}

/* mongo_distinct_keys -- one covered, hinted find of every key in index order, equal neighbours
 * dropped: reads only the index and never holds more than a batch on either side. (The distinct command
 * uses the index too but caps its answer at 16 MiB; a $group is a scan of every document.) */
static bool
mongo_distinct_keys (lab_session_t *sess, const char *coll, const char *field, bson_value_t **keys,
                     int64_t *nkeys, bson_error_t *error)
{
   bson_t pattern = BSON_INITIALIZER;
   mongoc_collection_t *c;
   mongoc_cursor_t *cursor;
   const bson_t *doc;
   bson_error_t err;
   size_t cap = 0;
   bool ok = true;

   if (!require_sort_index (sess, coll, field, &pattern, error)) {
      bson_destroy (&pattern);
      return false;
   }
   c = get_coll (sess, coll);
   cursor = key_find (sess, c, field, &pattern, 0, 0, MONGO_KEY_BATCH_DOCS);
   while (mongoc_cursor_next (cursor, &doc)) {
      bson_value_t v;

      key_value (doc, field, &v);
      if (*nkeys > 0 && values_equal (&v, &(*keys)[*nkeys - 1])) {
         bson_value_destroy (&v);
         continue;
      }
      if ((size_t)*nkeys == cap) {
         cap = cap ? cap * 2 : 1024;
         *keys = bson_realloc (*keys, cap * sizeof **keys);
      }
      (*keys)[(*nkeys)++] = v;
   }
   if (mongoc_cursor_error (cursor, &err)) {
      fail (sess->store, error, &err, "listing the distinct values of '%s' in '%s'", field, coll);
      ok = false;
      lab_values_free (*keys, (int)*nkeys);
      *keys = NULL;
      *nkeys = 0;
   }
   mongoc_cursor_destroy (cursor);
   mongoc_collection_destroy (c);
   bson_destroy (&pattern);
   return ok;
}

/* ---- server and engine facts ---------------------------------------------------------------------- */

/* mongo_server_info -- the facts read at open / after the last cycle; uptime advanced by the clock
 * (store.c calls this before every insert, so it must not cost a round trip). */
static bool
mongo_server_info (lab_store_t *store, lab_server_info_t *info, bson_error_t *error)
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

/* mongo_engine_stats -- serverStatus mem and wiredTiger sections when present (FerretDB has neither);
 * a local server's RSS comes from /proc, which is exact where mem.resident is rounded to MiB. */
static bool
mongo_engine_stats (lab_store_t *store, lab_engine_stats_t *st, bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);
   mongoc_client_t *client;
   lab_server_info_t info;
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
      fail (store, error, &err, "serverStatus");
      bson_destroy (&status);
      return false;
   }
   st->cache_bytes = num_at (&status, "wiredTiger.cache.bytes currently in the cache", -1);
   st->cache_max_bytes = num_at (&status, "wiredTiger.cache.maximum bytes configured", -1);
   st->cache_read_bytes = num_at (&status, "wiredTiger.cache.bytes read into cache", -1);
   st->cache_pages_read = num_at (&status, "wiredTiger.cache.pages read into cache", -1);
   st->block_reads = num_at (&status, "wiredTiger.block-manager.blocks read", -1);
   st->block_read_bytes = num_at (&status, "wiredTiger.block-manager.bytes read", -1);
   v = num_at (&status, "mem.resident", -1);
   st->server_rss_bytes = v >= 0 ? v * 1024 * 1024 : -1;
   bson_destroy (&status);
   mongo_server_info (store, &info, NULL);
   /* only a pid that is the server's here (store.h, pid_local); an unreadable /proc keeps mem.resident */
   if (info.pid_local && (v = proc_rss_bytes (info.pid)) >= 0) {
      st->server_rss_bytes = v;
   }
   return true;
}

/* mongo_data_files -- not visible through the wire protocol. */
static bool
mongo_data_files (lab_store_t *store, const char *coll, char ***paths, bson_error_t *error)
{
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                  "data files are not visible through %s: give the server's --dbpath (and --device) instead",
                  store->uri_redacted);
   return false;
}

/* mongo_command_simple -- one command through a pooled client (the selected server: the primary, or the
 * one member of a directConnection URI). */
static bool
mongo_command_simple (lab_store_t *store, const char *db, const bson_t *cmd, bson_t *reply,
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

/* mongo_selection_timeout_ms -- serverSelectionTimeoutMS as set at open. */
static int32_t
mongo_selection_timeout_ms (const lab_store_t *store)
{
   return ((const mongo_store_t *)store->impl)->selection_timeout_ms;
}

/* ---- cold cycle ----------------------------------------------------------------------------------- */

/* cmp_int64 -- ascending for qsort. */
static int
cmp_int64 (const void *a, const void *b)
{
   int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
   return x < y ? -1 : x > y;
}

/* apply_cache_size -- setParameter wiredTigerEngineRuntimeConfig "cache_size=NM" on admin. A server
 * without the parameter (FerretDB, a mongod on another engine) gives LAB_STORE_ERR_NOT_SUPPORTED. */
static bool
apply_cache_size (lab_store_t *store, mongoc_client_t *client, uint64_t bytes, bson_error_t *error)
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
      if (is_unreachable (&err)) {
         fail (store, error, &err, "setParameter wiredTigerEngineRuntimeConfig \"%s\"", cfg);
      } else {
         lab_error_set (
            error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
            "the server at %s cannot set its engine cache (setParameter wiredTigerEngineRuntimeConfig "
            "\"%s\" failed: %s): a cache sweep needs a mongod running WiredTiger (FerretDB has no "
            "such parameter); measure one point per server configuration instead",
            store->uri_redacted, cfg, err.message);
      }
   }
   bson_destroy (&reply);
   bson_destroy (&cmd);
   return ok;
}

/* mongo_set_cache_size -- apply it now and remember it for every later cycle. */
static bool
mongo_set_cache_size (lab_store_t *store, uint64_t bytes, bson_error_t *error)
{
   mongo_store_t *ms = mstore (store);
   mongoc_client_t *client = mongoc_client_pool_pop (ms->pool);
   bool ok = apply_cache_size (store, client, bytes, error);

   mongoc_client_pool_push (ms->pool, client);
   if (ok) {
      ms->cache_size_bytes = bytes;
   }
   return ok;
}

/* mongo_record_ids -- find with showRecordId, projecting only _id; a server that returns none or no
 * real ones (FerretDB: 0) gives LAB_STORE_ERR_NOT_SUPPORTED. */
static bool
mongo_record_ids (lab_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
                  int64_t **rids, size_t *n, bson_error_t *error)
{
   mongoc_collection_t *c;
   mongoc_cursor_t *cursor;
   bson_t filter, opts = BSON_INITIALIZER, proj;
   const bson_t *doc;
   bson_error_t err;
   size_t cap = 16;
   bool ok = true;

   if (!require_index (sess, coll, field, error)) {
      return false;
   }
   *rids = bson_malloc (cap * sizeof **rids);
   c = get_coll (sess, coll);
   eq_filter (field, value, &filter);
   BSON_APPEND_BOOL (&opts, "showRecordId", true);
   BSON_APPEND_DOCUMENT_BEGIN (&opts, "projection", &proj);
   BSON_APPEND_INT32 (&proj, "_id", 1);
   bson_append_document_end (&opts, &proj);
   cursor = mongoc_collection_find_with_opts (c, &filter, &opts, NULL);
   while (ok && mongoc_cursor_next (cursor, &doc)) {
      bson_iter_t it;
      /* mongod's RecordIds are positive; FerretDB answers 0 for every document, a clustered collection
       * a binary id: neither says where a document is stored */
      if (!bson_iter_init_find (&it, doc, "$recordId") || !BSON_ITER_HOLDS_NUMBER (&it) ||
          bson_iter_as_int64 (&it) <= 0) {
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
      (*rids)[(*n)++] = bson_iter_as_int64 (&it);
   }
   if (ok && mongoc_cursor_error (cursor, &err)) {
      fail (sess->store, error, &err, "RecordIds of '%s' where %s matches", coll, field);
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

/* mongo_leaf_pages -- collStats wiredTiger.btree["row-store leaf pages"]; mongod gathers it only with
 * statistics=all, so 0 or absent gives LAB_STORE_ERR_NOT_SUPPORTED. */
static bool
mongo_leaf_pages (lab_session_t *sess, const char *coll, int64_t *pages, bson_error_t *error)
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
      fail (sess->store, error, &err, "collStats of '%s'", coll);
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

/* mongo_cycle -- destroy the pool (every connection closed), run the hook, recreate the pool and ping
 * until the server answers or ready_timeout_ms passes; then re-read its facts (new pid, uptime). */
static bool
mongo_cycle (lab_store_t *store, lab_cycle_hook_t hook, void *ctx, int32_t ready_timeout_ms,
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
      if (ping (client, &err)) {
         ready = true;
         break;
      }
      if (mono_ns () >= deadline) {
         break;
      }
      usleep (MONGO_READY_POLL_MS * 1000);
   }
   if (ready) {
      ready = load_info (store, client, error) &&
              (!ms->cache_size_bytes || apply_cache_size (store, client, ms->cache_size_bytes, error));
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
   .open = mongo_open,
   .close = mongo_close,
   .session_open = mongo_session_open,
   .session_close = mongo_session_close,
   .exists = mongo_exists,
   .create = mongo_create,
   .create_index = mongo_create_index,
   .has_index = mongo_has_index,
   .drop = mongo_drop,
   .count = mongo_count,
   .count_estimated = mongo_count_estimated,
   .stats = mongo_stats,
   .insert_many = mongo_insert_many,
   .upsert_by_id = mongo_upsert_by_id,
   .delete_eq = mongo_delete_eq,
   .flush = mongo_flush,
   .find_eq = mongo_find_eq,
   .sorted_open = mongo_sorted_open,
   .sorted_describe = mongo_sorted_describe,
   .cursor_next = mongo_cursor_next,
   .cursor_close = mongo_cursor_close,
   .partition = mongo_partition,
   .distinct_keys = mongo_distinct_keys,
   .server_info = mongo_server_info,
   .engine_stats = mongo_engine_stats,
   .data_files = mongo_data_files,
   .command_simple = mongo_command_simple,
   .cycle = mongo_cycle,
   .set_cache_size = mongo_set_cache_size,
   .record_ids = mongo_record_ids,
   .leaf_pages = mongo_leaf_pages,
   .home = NULL,
   .selection_timeout_ms = mongo_selection_timeout_ms,
};
