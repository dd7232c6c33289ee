/*
 * serverfacts.c -- pure parsers of hello, listShards and serverStatus replies (see serverfacts.h; sources
 * in docs/mongodb-compat.md); getDiagnosticData's disks and their iostat arithmetic: serverfacts_disks.c.
 */
#include "serverfacts.h"
#include "serverfacts_private.h"

#include "core/error.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_PORT 27017

/* ---- typed field access -------------------------------------------------------------------------- */

/* lab_store_facts_bad_type -- the error for a field of the wrong type, naming the command, the path and both
 * types. */
bool
lab_store_facts_bad_type (bson_error_t *error, const char *what, const char *path, const bson_iter_t *it,
                          const char *want)
{
   static const struct {
      bson_type_t t;
      const char *name;
   } names[] = {
      { BSON_TYPE_DOUBLE, "double" },       { BSON_TYPE_UTF8, "string" },
      { BSON_TYPE_DOCUMENT, "document" },   { BSON_TYPE_ARRAY, "array" },
      { BSON_TYPE_BINARY, "binary" },       { BSON_TYPE_OID, "objectId" },
      { BSON_TYPE_BOOL, "bool" },           { BSON_TYPE_DATE_TIME, "date" },
      { BSON_TYPE_NULL, "null" },           { BSON_TYPE_INT32, "int32" },
      { BSON_TYPE_TIMESTAMP, "timestamp" }, { BSON_TYPE_INT64, "int64" },
      { BSON_TYPE_DECIMAL128, "decimal" },
   };
   const char *have = "another type";
   size_t i;

   for (i = 0; i < sizeof names / sizeof names[0]; i++) {
      if (names[i].t == bson_iter_type (it)) {
         have = names[i].name;
      }
   }
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY,
                  "%s reply: field '%s' is %s, expected %s (is this a MongoDB server?)", what, path, have,
                  want);
   return false;
}

/* lab_store_facts_find_child -- the field `key` (no dots: WiredTiger names contain spaces, device names
 * dashes) of the document held by `parent`, or of the top level when parent is NULL. */
bool
lab_store_facts_find_child (const bson_t *doc, const bson_iter_t *parent, const char *key, bson_iter_t *out)
{
   bson_iter_t it;

   if (parent) {
      if (!BSON_ITER_HOLDS_DOCUMENT (parent) || !bson_iter_recurse (parent, &it)) {
         return false;
      }
   } else if (!bson_iter_init (&it, doc)) {
      return false;
   }
   if (!bson_iter_find (&it, key)) {
      return false;
   }
   *out = it;
   return true;
}

/* lab_store_facts_iter_num -- an int32/int64/double value as int64 (doubles truncated; NaN, infinities and
 * values beyond int64 refused). */
bool
lab_store_facts_iter_num (const bson_iter_t *it, const char *what, const char *path, int64_t *out,
                          bson_error_t *error)
{
   double d;

   switch (bson_iter_type (it)) {
   case BSON_TYPE_INT32:
      *out = bson_iter_int32 (it);
      return true;
   case BSON_TYPE_INT64:
      *out = bson_iter_int64 (it);
      return true;
   case BSON_TYPE_DOUBLE:
      d = bson_iter_double (it);
      if (!isfinite (d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY,
                        "%s reply: field '%s' is %g, not a count", what, path, d);
         return false;
      }
      *out = (int64_t)d;
      return true;
   default:
      return lab_store_facts_bad_type (error, what, path, it, "a number (int32, int64 or double)");
   }
}

/* lab_store_facts_get_num -- the number at section.key (section NULL: top level) into *out, -1 when absent.
 */
bool
lab_store_facts_get_num (const bson_t *doc, const bson_iter_t *section, const char *key, const char *what,
                         const char *path, int64_t *out, bson_error_t *error)
{
   bson_iter_t it;

   *out = -1;
   if (!lab_store_facts_find_child (doc, section, key, &it)) {
      return true;
   }
   return lab_store_facts_iter_num (&it, what, path, out, error);
}

/* lab_store_facts_get_str -- the string at section.key into buf ("" when absent). */
bool
lab_store_facts_get_str (const bson_t *doc, const bson_iter_t *section, const char *key, const char *what,
                         const char *path, char *buf, size_t len, bson_error_t *error)
{
   bson_iter_t it;

   buf[0] = '\0';
   if (!lab_store_facts_find_child (doc, section, key, &it)) {
      return true;
   }
   if (!BSON_ITER_HOLDS_UTF8 (&it)) {
      return lab_store_facts_bad_type (error, what, path, &it, "a string");
   }
   bson_strncpy (buf, bson_iter_utf8 (&it, NULL), len);
   return true;
}

/* lab_store_facts_get_bool -- a bool at section.key (false when absent); numbers are accepted as truth
 * values, as mongod's own parsers do (old servers sent ismaster as a number). */
bool
lab_store_facts_get_bool (const bson_t *doc, const bson_iter_t *section, const char *key, const char *what,
                          const char *path, bool *out, bson_error_t *error)
{
   bson_iter_t it;

   *out = false;
   if (!lab_store_facts_find_child (doc, section, key, &it)) {
      return true;
   }
   switch (bson_iter_type (&it)) {
   case BSON_TYPE_BOOL:
   case BSON_TYPE_INT32:
   case BSON_TYPE_INT64:
   case BSON_TYPE_DOUBLE:
      *out = bson_iter_as_bool (&it);
      return true;
   default:
      return lab_store_facts_bad_type (error, what, path, &it, "a bool");
   }
}

/* lab_store_facts_get_date_ms -- a date field at section.key as ms since the epoch (-1 when absent). */
bool
lab_store_facts_get_date_ms (const bson_t *doc, const bson_iter_t *section, const char *key, const char *what,
                             const char *path, int64_t *out, bson_error_t *error)
{
   bson_iter_t it;

   *out = -1;
   if (!lab_store_facts_find_child (doc, section, key, &it)) {
      return true;
   }
   if (!BSON_ITER_HOLDS_DATE_TIME (&it)) {
      return lab_store_facts_bad_type (error, what, path, &it, "a date");
   }
   *out = bson_iter_date_time (&it);
   return true;
}

/* lab_store_facts_get_section -- *out = the document at section.key; *found false when absent; error when not
 * a document. */
bool
lab_store_facts_get_section (const bson_t *doc, const bson_iter_t *section, const char *key, const char *what,
                             const char *path, bson_iter_t *out, bool *found, bson_error_t *error)
{
   *found = false;
   if (!lab_store_facts_find_child (doc, section, key, out)) {
      return true;
   }
   if (!BSON_ITER_HOLDS_DOCUMENT (out)) {
      return lab_store_facts_bad_type (error, what, path, out, "a document");
   }
   *found = true;
   return true;
}

/* ---- hello --------------------------------------------------------------------------------------- */

/* lab_store_topology_kind_name -- see serverfacts.h. */
const char *
lab_store_topology_kind_name (lab_store_topology_kind_t kind)
{
   switch (kind) {
   case LAB_TOPO_STANDALONE:
      return "standalone";
   case LAB_TOPO_REPLSET:
      return "replset";
   case LAB_TOPO_MONGOS:
      return "mongos";
   default:
      return "unknown";
   }
}

/* lab_store_facts_topology_cleanup -- see serverfacts.h. */
void
lab_store_facts_topology_cleanup (lab_store_facts_topology_t *t)
{
   size_t i;

   if (!t) {
      return;
   }
   for (i = 0; i < t->nhosts; i++) {
      bson_free (t->hosts[i]);
   }
   bson_free (t->hosts);
   memset (t, 0, sizeof *t);
}

/* hello_hosts -- the strings of hosts[] (electable members). */
static bool
hello_hosts (const bson_t *reply, lab_store_facts_topology_t *out, bson_error_t *error)
{
   bson_iter_t it, arr;
   size_t n = 0;

   if (!lab_store_facts_find_child (reply, NULL, "hosts", &it)) {
      return true;
   }
   if (!BSON_ITER_HOLDS_ARRAY (&it)) {
      return lab_store_facts_bad_type (error, "hello", "hosts", &it, "an array of strings");
   }
   bson_iter_recurse (&it, &arr);
   while (bson_iter_next (&arr)) {
      if (!BSON_ITER_HOLDS_UTF8 (&arr)) {
         char path[32];
         bson_snprintf (path, sizeof path, "hosts.%zu", n);
         return lab_store_facts_bad_type (error, "hello", path, &arr, "a string");
      }
      out->hosts = bson_realloc (out->hosts, (out->nhosts + 2) * sizeof *out->hosts);
      out->hosts[out->nhosts++] = bson_strdup (bson_iter_utf8 (&arr, NULL));
      out->hosts[out->nhosts] = NULL;
      n++;
   }
   return true;
}

/* lab_store_facts_topology_from_hello -- see serverfacts.h. The legacy isMaster reply names the primary flag
 * "ismaster"; hello (4.4.2+, 4.2.10+) names it "isWritablePrimary". */
bool
lab_store_facts_topology_from_hello (const bson_t *reply, lab_store_facts_topology_t *out,
                                     bson_error_t *error)
{
   char msg[64];
   bson_iter_t it, tv;
   bool found, replica_set = false, flag;
   int64_t ok;

   memset (out, 0, sizeof *out);
   out->max_bson_bytes = out->max_message_bytes = out->max_write_batch = -1;
   out->max_wire_version = out->topology_counter = -1;
   if (!reply) {
      return true;
   }
   if (!lab_store_facts_get_num (reply, NULL, "ok", "hello", "ok", &ok, error)) {
      return false;
   }
   if (ok == 0) {
      return true; /* a refused command says nothing about the topology */
   }
   if (!lab_store_facts_get_str (reply, NULL, "msg", "hello", "msg", msg, sizeof msg, error) ||
       !lab_store_facts_get_str (reply, NULL, "setName", "hello", "setName", out->set_name,
                                 sizeof out->set_name, error) ||
       !lab_store_facts_get_str (reply, NULL, "me", "hello", "me", out->me, sizeof out->me, error) ||
       !lab_store_facts_get_str (reply, NULL, "primary", "hello", "primary", out->primary,
                                 sizeof out->primary, error) ||
       !lab_store_facts_get_bool (reply, NULL, "secondary", "hello", "secondary", &out->is_secondary,
                                  error) ||
       !lab_store_facts_get_bool (reply, NULL, "isreplicaset", "hello", "isreplicaset", &replica_set,
                                  error) ||
       !lab_store_facts_get_num (reply, NULL, "maxBsonObjectSize", "hello", "maxBsonObjectSize",
                                 &out->max_bson_bytes, error) ||
       !lab_store_facts_get_num (reply, NULL, "maxMessageSizeBytes", "hello", "maxMessageSizeBytes",
                                 &out->max_message_bytes, error) ||
       !lab_store_facts_get_num (reply, NULL, "maxWriteBatchSize", "hello", "maxWriteBatchSize",
                                 &out->max_write_batch, error) ||
       !lab_store_facts_get_num (reply, NULL, "maxWireVersion", "hello", "maxWireVersion",
                                 &out->max_wire_version, error)) {
      goto fail;
   }
   if (lab_store_facts_find_child (reply, NULL, "isWritablePrimary", &it)) {
      if (!lab_store_facts_get_bool (reply, NULL, "isWritablePrimary", "hello", "isWritablePrimary", &flag,
                                     error)) {
         goto fail;
      }
   } else if (!lab_store_facts_get_bool (reply, NULL, "ismaster", "hello", "ismaster", &flag, error)) {
      goto fail;
   }
   out->is_writable_primary = flag;
   if (!lab_store_facts_get_section (reply, NULL, "topologyVersion", "hello", "topologyVersion", &tv, &found,
                                     error) ||
       (found && !lab_store_facts_get_num (reply, &tv, "counter", "hello", "topologyVersion.counter",
                                           &out->topology_counter, error))) {
      goto fail;
   }
   if (!hello_hosts (reply, out, error)) {
      goto fail;
   }
   if (strcmp (msg, "isdbgrid") == 0) {
      out->kind = LAB_TOPO_MONGOS;
   } else if (out->set_name[0] || replica_set) {
      out->kind = LAB_TOPO_REPLSET;
   } else {
      out->kind = LAB_TOPO_STANDALONE;
   }
   return true;
fail:
   lab_store_facts_topology_cleanup (out);
   return false;
}

/* ---- listShards ---------------------------------------------------------------------------------- */

/* parse_hostport -- one seed "h", "h:p", "[v6]" or "[v6]:p" of `len` bytes. */
static bool
parse_hostport (const char *s, size_t len, lab_store_facts_hostport_t *hp, const char *whole,
                bson_error_t *error)
{
   const char *host = s, *port = NULL;
   size_t hlen = len;

   hp->port = DEFAULT_PORT;
   if (len > 0 && s[0] == '[') {
      const char *close = memchr (s, ']', len);
      if (!close) {
         goto bad;
      }
      host = s + 1;
      hlen = (size_t)(close - host);
      if ((size_t)(close - s) + 1 < len) {
         if (close[1] != ':') {
            goto bad;
         }
         port = close + 2;
      }
   } else {
      const char *colon = memchr (s, ':', len);
      if (colon) {
         if (memchr (colon + 1, ':', len - (size_t)(colon + 1 - s))) {
            goto bad; /* a bare IPv6 address needs brackets to carry a port */
         }
         hlen = (size_t)(colon - s);
         port = colon + 1;
      }
   }
   if (hlen == 0 || hlen >= sizeof hp->host) {
      goto bad;
   }
   memcpy (hp->host, host, hlen);
   hp->host[hlen] = '\0';
   if (port) {
      size_t plen = len - (size_t)(port - s);
      long v = 0;
      size_t i;

      if (plen == 0 || plen > 5) {
         goto bad;
      }
      for (i = 0; i < plen; i++) {
         if (port[i] < '0' || port[i] > '9') {
            goto bad;
         }
         v = v * 10 + (port[i] - '0');
      }
      if (v < 1 || v > 65535) {
         goto bad;
      }
      hp->port = (int32_t)v;
   }
   return true;
bad:
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY,
                  "shard host \"%s\": bad seed \"%.*s\" (expected host, host:port or [v6]:port)", whole,
                  (int)len, s);
   return false;
}

/* lab_store_facts_parse_seed_list -- see serverfacts.h. */
bool
lab_store_facts_parse_seed_list (const char *host, char **set_name, lab_store_facts_hostport_t **seeds,
                                 size_t *nseeds, bson_error_t *error)
{
   const char *list = host, *slash, *p;

   *set_name = NULL;
   *seeds = NULL;
   *nseeds = 0;
   if (!host || !*host) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY, "shard host is empty");
      return false;
   }
   if ((slash = strchr (host, '/'))) {
      if (slash == host) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY,
                        "shard host \"%s\": empty replica set name before '/'", host);
         return false;
      }
      *set_name = bson_strndup (host, (size_t)(slash - host));
      list = slash + 1;
   }
   for (p = list;;) {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t)(comma - p) : strlen (p);

      *seeds = bson_realloc (*seeds, (*nseeds + 1) * sizeof **seeds);
      if (!parse_hostport (p, len, &(*seeds)[*nseeds], host, error)) {
         goto fail;
      }
      (*nseeds)++;
      if (!comma) {
         break;
      }
      p = comma + 1;
   }
   return true;
fail:
   bson_free (*set_name);
   bson_free (*seeds);
   *set_name = NULL;
   *seeds = NULL;
   *nseeds = 0;
   return false;
}

/* lab_store_facts_shards_cleanup -- see serverfacts.h. */
void
lab_store_facts_shards_cleanup (lab_store_facts_shards_t *s)
{
   size_t i;

   if (!s) {
      return;
   }
   for (i = 0; i < s->nshards; i++) {
      bson_free (s->shards[i].id);
      bson_free (s->shards[i].host);
      bson_free (s->shards[i].set_name);
      bson_free (s->shards[i].seeds);
   }
   bson_free (s->shards);
   memset (s, 0, sizeof *s);
}

/* one_shard -- a config.shards document (ShardType: _id, host, draining, state, ...). */
static bool
one_shard (const bson_t *reply, const bson_iter_t *doc, size_t i, lab_store_facts_shard_t *sh,
           bson_error_t *error)
{
   char path[64], id[LAB_FACTS_HOST_MAX], host[4096];
   bson_iter_t it;

   bson_snprintf (path, sizeof path, "shards.%zu._id", i);
   if (!lab_store_facts_get_str (reply, doc, "_id", "listShards", path, id, sizeof id, error)) {
      return false;
   }
   bson_snprintf (path, sizeof path, "shards.%zu.host", i);
   if (!lab_store_facts_get_str (reply, doc, "host", "listShards", path, host, sizeof host, error)) {
      return false;
   }
   if (!id[0] || !host[0]) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY, "listShards reply: shards.%zu lacks %s",
                     i, !id[0] ? "_id" : "host");
      return false;
   }
   sh->id = bson_strdup (id);
   sh->host = bson_strdup (host);
   bson_snprintf (path, sizeof path, "shards.%zu.state", i);
   if (!lab_store_facts_get_num (reply, doc, "state", "listShards", path, &sh->state, error)) {
      return false;
   }
   bson_snprintf (path, sizeof path, "shards.%zu.draining", i);
   if (lab_store_facts_find_child (reply, doc, "draining", &it) &&
       !lab_store_facts_get_bool (reply, doc, "draining", "listShards", path, &sh->draining, error)) {
      return false;
   }
   if (!lab_store_facts_parse_seed_list (host, &sh->set_name, &sh->seeds, &sh->nseeds, error)) {
      lab_error_prefix (error, "listShards reply, shard '%s'", id);
      return false;
   }
   return true;
}

/* lab_store_facts_shards_from_list -- see serverfacts.h. */
bool
lab_store_facts_shards_from_list (const bson_t *reply, lab_store_facts_shards_t *out, bson_error_t *error)
{
   bson_iter_t it, arr;
   size_t i = 0;

   memset (out, 0, sizeof *out);
   if (!reply || !lab_store_facts_find_child (reply, NULL, "shards", &it)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY,
                     "listShards reply has no 'shards' array (is this a mongos?)");
      return false;
   }
   if (!BSON_ITER_HOLDS_ARRAY (&it)) {
      return lab_store_facts_bad_type (error, "listShards", "shards", &it, "an array");
   }
   bson_iter_recurse (&it, &arr);
   while (bson_iter_next (&arr)) {
      char path[32];

      if (!BSON_ITER_HOLDS_DOCUMENT (&arr)) {
         bson_snprintf (path, sizeof path, "shards.%zu", i);
         lab_store_facts_bad_type (error, "listShards", path, &arr, "a document");
         goto fail;
      }
      out->shards = bson_realloc (out->shards, (out->nshards + 1) * sizeof *out->shards);
      memset (&out->shards[out->nshards], 0, sizeof out->shards[0]);
      out->shards[out->nshards].state = -1;
      out->nshards++;
      if (!one_shard (reply, &arr, i, &out->shards[out->nshards - 1], error)) {
         goto fail;
      }
      i++;
   }
   return true;
fail:
   lab_store_facts_shards_cleanup (out);
   return false;
}

/* ---- serverStatus -------------------------------------------------------------------------------- */

/* lab_store_facts_server_status -- see serverfacts.h. */
bool
lab_store_facts_server_status (const bson_t *reply, lab_store_facts_status_t *out, bson_error_t *error)
{
   static const char *what = "serverStatus";
   bson_iter_t it, mem, wt, cache, block;
   bool have_mem, have_cache, have_block;
   int64_t resident;
   char path[128];

   memset (out, 0, sizeof *out);
   out->pid = out->mem_resident_bytes = -1;
   out->uptime_s = -1;
   out->uptime_ms = out->local_time_ms = out->start_ms = -1;
   out->cache_bytes = out->cache_max_bytes = out->cache_read_bytes = out->cache_pages_read = -1;
   out->block_reads = out->block_read_bytes = -1;
   if (!reply) {
      return true;
   }
   if (!lab_store_facts_get_str (reply, NULL, "host", what, "host", out->host, sizeof out->host, error) ||
       !lab_store_facts_get_str (reply, NULL, "version", what, "version", out->version, sizeof out->version,
                                 error) ||
       !lab_store_facts_get_str (reply, NULL, "process", what, "process", out->process, sizeof out->process,
                                 error) ||
       !lab_store_facts_get_num (reply, NULL, "pid", what, "pid", &out->pid, error)) {
      return false;
   }
   if (lab_store_facts_find_child (reply, NULL, "uptime", &it)) {
      /* a double on mongod (whole seconds); read as a fraction in case another server sends one */
      if (BSON_ITER_HOLDS_DOUBLE (&it) || BSON_ITER_HOLDS_INT32 (&it) || BSON_ITER_HOLDS_INT64 (&it)) {
         out->uptime_s = bson_iter_as_double (&it);
      } else {
         return lab_store_facts_bad_type (error, what, "uptime", &it, "a number (int32, int64 or double)");
      }
   }
   /* the process's start: mongod's uptimeMillis counts from the server status command's construction at
    * start-up on the fast clock, localTime is the wall clock now (server_status.cpp) */
   if (!lab_store_facts_get_num (reply, NULL, "uptimeMillis", what, "uptimeMillis", &out->uptime_ms, error) ||
       !lab_store_facts_get_date_ms (reply, NULL, "localTime", what, "localTime", &out->local_time_ms,
                                     error)) {
      return false;
   }
   if (out->uptime_ms >= 0 && out->local_time_ms >= 0) {
      out->start_ms = out->local_time_ms - out->uptime_ms;
   }
   if (!lab_store_facts_get_section (reply, NULL, "mem", what, "mem", &mem, &have_mem, error) ||
       (have_mem &&
        !lab_store_facts_get_num (reply, &mem, "resident", what, "mem.resident", &resident, error))) {
      return false;
   }
   if (have_mem && resident >= 0) {
      /* mebibytes: a count past what bytes in an int64 can hold is not a process size */
      if (resident > INT64_MAX / (1024 * 1024)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY,
                        "%s reply: field 'mem.resident' is %" PRId64 " MiB, not a process size", what,
                        resident);
         return false;
      }
      out->mem_resident_bytes = resident * 1024 * 1024;
   }
   if (!lab_store_facts_get_section (reply, NULL, "wiredTiger", what, "wiredTiger", &wt, &out->has_wiredtiger,
                                     error)) {
      return false;
   }
   if (!out->has_wiredtiger) {
      return true; /* mongos, FerretDB, another engine */
   }
   if (!lab_store_facts_get_section (reply, &wt, "cache", what, "wiredTiger.cache", &cache, &have_cache,
                                     error) ||
       !lab_store_facts_get_section (reply, &wt, "block-manager", what, "wiredTiger.block-manager", &block,
                                     &have_block, error)) {
      return false;
   }
   if (have_cache) {
      static const struct {
         const char *name;
         size_t off;
      } f[] = { { "bytes currently in the cache", offsetof (lab_store_facts_status_t, cache_bytes) },
                { "maximum bytes configured", offsetof (lab_store_facts_status_t, cache_max_bytes) },
                { "bytes read into cache", offsetof (lab_store_facts_status_t, cache_read_bytes) },
                { "pages read into cache", offsetof (lab_store_facts_status_t, cache_pages_read) } };
      size_t i;

      for (i = 0; i < sizeof f / sizeof f[0]; i++) {
         bson_snprintf (path, sizeof path, "wiredTiger.cache.%s", f[i].name);
         if (!lab_store_facts_get_num (reply, &cache, f[i].name, what, path,
                                       (int64_t *)((char *)out + f[i].off), error)) {
            return false;
         }
      }
   }
   if (have_block &&
       (!lab_store_facts_get_num (reply, &block, "blocks read", what, "wiredTiger.block-manager.blocks read",
                                  &out->block_reads, error) ||
        !lab_store_facts_get_num (reply, &block, "bytes read", what, "wiredTiger.block-manager.bytes read",
                                  &out->block_read_bytes, error))) {
      return false;
   }
   return true;
}
