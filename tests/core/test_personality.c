/*
 * test_personality.c -- checks the test server's personalities (scripts/mongo-test-server.sh --as) through
 * libmongoc, as layoutlab's code will meet them in real deployments. tests/core/personality.sh starts each
 * personality in its own directory and runs one mode of this program against it:
 *
 *   test_personality mongod URI          getDiagnosticData: data.start/end and systemMetrics.start/end
 *                                        are dates; disks lists only /sys/block entries with a "device"
 *                                        (no partition, loop, zram); each disk has the 11 counters as
 *                                        NumberInt/NumberLong; read_sectors of the disk holding / lies
 *                                        between two reads of /proc/diskstats taken around the command
 *   test_personality replset URI         the URI names ?replicaSet=: hello has setName, hosts and me
 *                                        naming the URI's host, a writable primary; inserts and finds
 *                                        work through a single client and a pool; a wrong set name does
 *                                        not connect; directConnection=true still does
 *   test_personality mongos URI          hello says msg "isdbgrid" and has no setName; listShards names
 *                                        shard0 whose host answers ping with another pid; serverStatus of
 *                                        the router says process "mongos" and has no wiredTiger, the
 *                                        shard's says "mongod"; documents inserted through the router are
 *                                        found through it and on the shard. Prints "ROUTER_PID SHARD_PID".
 *
 * Exit 0 when every check passes; each failure is printed on stderr.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <mongoc/mongoc.h>

static int g_failures;

#define CHECK(cond, ...)                                                                                     \
   do {                                                                                                      \
      if (!(cond)) {                                                                                         \
         fprintf (stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                    \
         fprintf (stderr, __VA_ARGS__);                                                                      \
         fputc ('\n', stderr);                                                                               \
         g_failures++;                                                                                       \
      }                                                                                                      \
   } while (0)

/* quiet_log -- drop libmongoc's expected "endSessions" warning (FerretDB lacks the command). */
static void
quiet_log (mongoc_log_level_t level, const char *domain, const char *message, void *data)
{
   (void)data;
   if (level <= MONGOC_LOG_LEVEL_WARNING && !strstr (message, "endSessions")) {
      fprintf (stderr, "%s: %s\n", domain, message);
   }
}

/* client_new -- a single-threaded client for uri_str with error API v2; NULL (and a failure) if bad. */
static mongoc_client_t *
client_new (const char *uri_str)
{
   bson_error_t error;
   mongoc_uri_t *uri = mongoc_uri_new_with_error (uri_str, &error);
   mongoc_client_t *client = NULL;

   CHECK (uri != NULL, "URI %s: %s", uri_str, error.message);
   if (uri) {
      client = mongoc_client_new_from_uri_with_error (uri, &error);
      CHECK (client != NULL, "client for %s: %s", uri_str, error.message);
      if (client) {
         mongoc_client_set_error_api (client, MONGOC_ERROR_API_VERSION_2);
      }
      mongoc_uri_destroy (uri);
   }
   return client;
}

/* run_admin -- run {name: 1} on admin into reply (always initialised); true on ok: 1. */
static bool
run_admin (mongoc_client_t *client, const char *name, bson_t *reply)
{
   bson_error_t error;
   bson_t *cmd = BCON_NEW (name, BCON_INT32 (1));
   bool ok = mongoc_client_command_simple (client, "admin", cmd, NULL, reply, &error);

   CHECK (ok, "%s: %s", name, error.message);
   bson_destroy (cmd);
   return ok;
}

/* get_int64 -- the integer at dotted path (int32 or int64), or -1 when missing / of another type. */
static int64_t
get_int64 (const bson_t *doc, const char *path)
{
   bson_iter_t it;

   if (bson_iter_init (&it, doc) && bson_iter_find_descendant (&it, path, &it) &&
       (BSON_ITER_HOLDS_INT32 (&it) || BSON_ITER_HOLDS_INT64 (&it))) {
      return bson_iter_as_int64 (&it);
   }
   return -1;
}

/* get_str -- the UTF-8 string at dotted path, or NULL. */
static const char *
get_str (const bson_t *doc, const char *path)
{
   bson_iter_t it;

   if (bson_iter_init (&it, doc) && bson_iter_find_descendant (&it, path, &it) &&
       BSON_ITER_HOLDS_UTF8 (&it)) {
      return bson_iter_utf8 (&it, NULL);
   }
   return NULL;
}

/* has_type -- the element at dotted path exists and has BSON type `type`. */
static bool
has_type (const bson_t *doc, const char *path, bson_type_t type)
{
   bson_iter_t it;

   return bson_iter_init (&it, doc) && bson_iter_find_descendant (&it, path, &it) &&
          bson_iter_type (&it) == type;
}

/* read_sectors -- read_sectors (third counter) of `disk` in /proc/diskstats now, or -1. */
static int64_t
read_sectors (const char *disk)
{
   FILE *f = fopen ("/proc/diskstats", "r");
   char line[512], name[128];
   unsigned maj, min;
   unsigned long long reads, merged, sectors;
   int64_t found = -1;

   if (!f) {
      return -1;
   }
   while (fgets (line, sizeof line, f)) {
      if (sscanf (line, " %u %u %127s %llu %llu %llu", &maj, &min, name, &reads, &merged, &sectors) == 6 &&
          strcmp (name, disk) == 0) {
         found = (int64_t)sectors;
      }
   }
   fclose (f);
   return found;
}

/* root_disk -- the whole disk holding / (its /sys/block name) into out, or "" when / is on no block
 * device (overlay, tmpfs). */
static void
root_disk (char *out, size_t size)
{
   struct stat st;
   char path[PATH_MAX + 32], real[PATH_MAX];

   out[0] = '\0';
   if (stat ("/", &st) != 0 || major (st.st_dev) == 0) {
      return;
   }
   snprintf (path, sizeof path, "/sys/dev/block/%u:%u", major (st.st_dev), minor (st.st_dev));
   if (!realpath (path, real)) {
      return;
   }
   snprintf (path, sizeof path, "%s/partition", real);
   if (access (path, F_OK) == 0) {
      *strrchr (real, '/') = '\0'; /* a partition: its parent directory is the disk */
   }
   bson_strncpy (out, strrchr (real, '/') + 1, size);
}

/* check_mongod -- getDiagnosticData's systemMetrics.disks against /sys/block and /proc/diskstats. */
static void
check_mongod (const char *uri)
{
   static const char *fields[] = { "reads",          "reads_merged",  "read_sectors",  "read_time_ms",
                                   "writes",         "writes_merged", "write_sectors", "write_time_ms",
                                   "io_in_progress", "io_time_ms",    "io_queued_ms" };
   mongoc_client_t *client = client_new (uri);
   bson_t reply, disks;
   bson_iter_t it, dit;
   char disk[128], path[512];
   int64_t before, after, value;
   int listed = 0;
   bool root_listed = false;

   if (!client) {
      return;
   }
   root_disk (disk, sizeof disk);
   before = disk[0] ? read_sectors (disk) : -1;
   if (!run_admin (client, "getDiagnosticData", &reply)) {
      goto cleanup;
   }
   after = disk[0] ? read_sectors (disk) : -1;

   CHECK (has_type (&reply, "data.start", BSON_TYPE_DATE_TIME), "data.start is not a date");
   CHECK (has_type (&reply, "data.end", BSON_TYPE_DATE_TIME), "data.end is not a date");
   CHECK (has_type (&reply, "data.systemMetrics.start", BSON_TYPE_DATE_TIME), "systemMetrics.start");
   CHECK (has_type (&reply, "data.systemMetrics.end", BSON_TYPE_DATE_TIME), "systemMetrics.end");
   CHECK (has_type (&reply, "data.systemMetrics.disks", BSON_TYPE_DOCUMENT), "no systemMetrics.disks");
   if (!bson_iter_init (&it, &reply) || !bson_iter_find_descendant (&it, "data.systemMetrics.disks", &it) ||
       !BSON_ITER_HOLDS_DOCUMENT (&it) || !bson_iter_recurse (&it, &dit)) {
      goto cleanup;
   }
   while (bson_iter_next (&dit)) {
      const char *name = bson_iter_key (&dit);
      const uint8_t *data;
      uint32_t len;
      struct stat st;

      listed++;
      snprintf (path, sizeof path, "/sys/block/%s/device", name);
      CHECK (stat (path, &st) == 0 && S_ISDIR (st.st_mode), "%s is listed but is no physical disk", name);
      CHECK (BSON_ITER_HOLDS_DOCUMENT (&dit), "disks.%s is not a document", name);
      if (!BSON_ITER_HOLDS_DOCUMENT (&dit)) {
         continue;
      }
      bson_iter_document (&dit, &len, &data);
      BSON_ASSERT (bson_init_static (&disks, data, len));
      for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
         CHECK (get_int64 (&disks, fields[i]) >= 0, "disks.%s.%s missing or not NumberInt/NumberLong", name,
                fields[i]);
      }
      if (strcmp (name, disk) == 0) {
         root_listed = true;
         value = get_int64 (&disks, "read_sectors");
         CHECK (before >= 0 && before <= value && value <= after,
                "disks.%s.read_sectors %" PRId64 " is not within /proc/diskstats %" PRId64 "..%" PRId64, name,
                value, before, after);
      }
   }
   CHECK (listed > 0, "disks lists no disk");
   if (disk[0]) {
      CHECK (root_listed, "the disk holding / (%s) is not listed", disk);
   }
   printf ("getDiagnosticData: %d disk(s); / on %s\n", listed, disk[0] ? disk : "(no block device)");

cleanup:
   bson_destroy (&reply);
   mongoc_client_destroy (client);
}

/* insert_find -- drop personality.c, insert n documents {i, tag} and find them back; returns the count
 * found (-1 on error, reported). */
static int
insert_find (mongoc_client_t *client, int n, bool insert)
{
   mongoc_collection_t *coll = mongoc_client_get_collection (client, "personality", "c");
   bson_error_t error;
   const bson_t *doc;
   mongoc_cursor_t *cursor;
   bson_t *filter = BCON_NEW ("tag", BCON_UTF8 ("personality"));
   int found = 0;

   if (insert) {
      mongoc_collection_drop (coll, NULL); /* may not exist */
      for (int i = 0; i < n; i++) {
         bson_t *d = BCON_NEW ("i", BCON_INT32 (i), "tag", BCON_UTF8 ("personality"));
         bool ok = mongoc_collection_insert_one (coll, d, NULL, NULL, &error);
         CHECK (ok, "insert %d: %s", i, error.message);
         bson_destroy (d);
      }
   }
   cursor = mongoc_collection_find_with_opts (coll, filter, NULL, NULL);
   while (mongoc_cursor_next (cursor, &doc)) {
      found++;
   }
   if (mongoc_cursor_error (cursor, &error)) {
      CHECK (false, "find: %s", error.message);
      found = -1;
   }
   mongoc_cursor_destroy (cursor);
   bson_destroy (filter);
   mongoc_collection_destroy (coll);
   return found;
}

/* check_replset -- hello of the primary, the replicaSet URI through a client and a pool, a wrong set. */
static void
check_replset (const char *uri_str)
{
   mongoc_client_t *client = client_new (uri_str);
   mongoc_uri_t *uri = mongoc_uri_new (uri_str);
   const mongoc_host_list_t *host = uri ? mongoc_uri_get_hosts (uri) : NULL;
   mongoc_client_pool_t *pool = NULL;
   mongoc_client_t *pooled;
   bson_t reply;
   bson_error_t error;
   char *other;
   const char *set;

   if (!client || !host) {
      CHECK (false, "cannot use %s", uri_str);
      goto cleanup;
   }
   set = mongoc_uri_get_replica_set (uri);
   CHECK (set != NULL, "%s has no replicaSet", uri_str);
   if (!set) {
      goto cleanup;
   }
   if (run_admin (client, "hello", &reply)) {
      CHECK (get_str (&reply, "setName") && strcmp (get_str (&reply, "setName"), set) == 0, "setName");
      CHECK (get_str (&reply, "hosts.0") && strcmp (get_str (&reply, "hosts.0"), host->host_and_port) == 0,
             "hosts[0] is not %s", host->host_and_port);
      CHECK (get_str (&reply, "me") && strcmp (get_str (&reply, "me"), host->host_and_port) == 0, "me");
      CHECK (get_str (&reply, "primary") && strcmp (get_str (&reply, "primary"), host->host_and_port) == 0,
             "primary");
      CHECK (has_type (&reply, "isWritablePrimary", BSON_TYPE_BOOL), "isWritablePrimary");
      CHECK (has_type (&reply, "electionId", BSON_TYPE_OID), "electionId");
      CHECK (has_type (&reply, "topologyVersion.processId", BSON_TYPE_OID), "topologyVersion");
   }
   bson_destroy (&reply);
   if (run_admin (client, "replSetGetStatus", &reply)) {
      CHECK (get_str (&reply, "members.0.stateStr") &&
                strcmp (get_str (&reply, "members.0.stateStr"), "PRIMARY") == 0,
             "replSetGetStatus members[0] is not PRIMARY");
   }
   bson_destroy (&reply);
   CHECK (insert_find (client, 3, true) == 3, "replicaSet client: 3 documents inserted, not found back");

   /* a pool monitors the set in the background (awaitable hello) */
   pool = mongoc_client_pool_new (uri);
   mongoc_client_pool_set_error_api (pool, MONGOC_ERROR_API_VERSION_2);
   pooled = mongoc_client_pool_pop (pool);
   CHECK (insert_find (pooled, 4, true) == 4, "replicaSet pool: 4 documents inserted, not found back");
   mongoc_client_pool_push (pool, pooled);

   /* libmongoc must really check the set name: a wrong one finds no server */
   mongoc_client_destroy (client);
   other = bson_strdup_printf ("mongodb://%s/?replicaSet=not-%s&serverSelectionTimeoutMS=1500",
                               host->host_and_port, set);
   client = client_new (other);
   bson_free (other);
   if (client) {
      bson_t *cmd = BCON_NEW ("ping", BCON_INT32 (1));
      bool ok = mongoc_client_command_simple (client, "admin", cmd, NULL, NULL, &error);
      CHECK (!ok, "ping with a wrong replicaSet name succeeded");
      bson_destroy (cmd);
      mongoc_client_destroy (client);
   }
   other = bson_strdup_printf ("mongodb://%s/?directConnection=true", host->host_and_port);
   client = client_new (other);
   bson_free (other);
   if (client) {
      CHECK (insert_find (client, 0, false) == 4, "directConnection=true: the pool's 4 documents not found");
   }
   printf ("replset: set %s on %s\n", set, host->host_and_port);

cleanup:
   if (pool) {
      mongoc_client_pool_destroy (pool);
   }
   if (client) {
      mongoc_client_destroy (client);
   }
   if (uri) {
      mongoc_uri_destroy (uri);
   }
}

/* check_mongos -- the router's hello, listShards, serverStatus of router and shard, data through it. */
static void
check_mongos (const char *uri)
{
   mongoc_client_t *router = client_new (uri), *shard = NULL;
   bson_t reply;
   char *shard_uri = NULL;
   int64_t router_pid = -1, shard_pid = -1;

   if (!router) {
      return;
   }
   if (run_admin (router, "hello", &reply)) {
      CHECK (get_str (&reply, "msg") && strcmp (get_str (&reply, "msg"), "isdbgrid") == 0,
             "msg is not isdbgrid");
      CHECK (!has_type (&reply, "setName", BSON_TYPE_UTF8), "a mongos hello has setName");
   }
   bson_destroy (&reply);
   if (run_admin (router, "listShards", &reply)) {
      CHECK (get_str (&reply, "shards.0._id") && strcmp (get_str (&reply, "shards.0._id"), "shard0") == 0,
             "shards[0]._id is not shard0");
      CHECK (get_int64 (&reply, "shards.0.state") == 1, "shards[0].state is not 1");
      CHECK (!has_type (&reply, "shards.1", BSON_TYPE_DOCUMENT), "more than one shard");
      if (get_str (&reply, "shards.0.host")) {
         shard_uri =
            bson_strdup_printf ("mongodb://%s/?directConnection=true", get_str (&reply, "shards.0.host"));
      }
   }
   bson_destroy (&reply);
   CHECK (shard_uri != NULL, "listShards names no shard host");
   if (run_admin (router, "serverStatus", &reply)) {
      CHECK (get_str (&reply, "process") && strcmp (get_str (&reply, "process"), "mongos") == 0,
             "router process is not mongos");
      CHECK (!has_type (&reply, "wiredTiger", BSON_TYPE_DOCUMENT), "router serverStatus has wiredTiger");
      router_pid = get_int64 (&reply, "pid");
      CHECK (router_pid > 0, "router serverStatus has no pid");
   }
   bson_destroy (&reply);
   if (shard_uri && (shard = client_new (shard_uri)) != NULL) {
      if (run_admin (shard, "ping", &reply)) {
         bson_destroy (&reply);
         if (run_admin (shard, "serverStatus", &reply)) {
            CHECK (get_str (&reply, "process") && strcmp (get_str (&reply, "process"), "mongod") == 0,
                   "shard process is not mongod");
            shard_pid = get_int64 (&reply, "pid");
            CHECK (shard_pid > 0 && shard_pid != router_pid, "shard pid %" PRId64 " vs router pid %" PRId64,
                   shard_pid, router_pid);
         }
      }
      bson_destroy (&reply);
   }
   CHECK (insert_find (router, 5, true) == 5,
          "5 documents inserted through the router, not found through it");
   if (shard) {
      CHECK (insert_find (shard, 0, false) == 5, "the router's 5 documents are not on the shard");
      mongoc_client_destroy (shard);
   }
   printf ("%" PRId64 " %" PRId64 "\n", router_pid, shard_pid);
   bson_free (shard_uri);
   mongoc_client_destroy (router);
}

int
main (int argc, char **argv)
{
   if (argc != 3) {
      fprintf (stderr, "usage: test_personality mongod|replset|mongos URI\n");
      return 2;
   }
   mongoc_init ();
   mongoc_log_set_handler (quiet_log, NULL);
   if (strcmp (argv[1], "mongod") == 0) {
      check_mongod (argv[2]);
   } else if (strcmp (argv[1], "replset") == 0) {
      check_replset (argv[2]);
   } else if (strcmp (argv[1], "mongos") == 0) {
      check_mongos (argv[2]);
   } else {
      fprintf (stderr, "test_personality: unknown mode '%s'\n", argv[1]);
      return 2;
   }
   mongoc_cleanup ();
   if (g_failures) {
      fprintf (stderr, "test_personality %s: %d check(s) failed\n", argv[1], g_failures);
   }
   return g_failures ? 1 : 0;
}
