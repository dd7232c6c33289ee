/*
 * topology.c -- the deployment a scan runs against (topology.h): hello and listShards through the store
 * (store/deploy.h, which also builds the URIs of direct connections), a direct connection per shard
 * behind mongos, readiness of every shard after a cold step, and getDiagnosticData samples for the
 * server-side disk figures. The replies are parsed by store/serverfacts.h. Messages go through the scan's
 * log (core/log.h, the sink the main sets): nothing here prints.
 */
#include "scan/topology.h"

#include "core/error.h"
#include "core/log.h"
#include "store/deploy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const server_disk_names[] = { "auto", "local", "ftdc", "none" };

/* lab_scan_server_disk_parse -- see topology.h. */
bool
lab_scan_server_disk_parse (const char *s, lab_scan_server_disk_t *out)
{
   int i;

   for (i = 0; i < 4; i++) {
      if (strcmp (s, server_disk_names[i]) == 0) {
         *out = (lab_scan_server_disk_t)i;
         return true;
      }
   }
   return false;
}

/* lab_scan_server_disk_name -- see topology.h. */
const char *
lab_scan_server_disk_name (lab_scan_server_disk_t d)
{
   return (unsigned)d < 4 ? server_disk_names[d] : "none";
}

/* lab_scan_server_info -- see topology.h. */
bool
lab_scan_server_info (lab_store_t *store, lab_store_server_info_t *info, bson_error_t *error)
{
   const char *force = getenv (LAB_SCAN_TEST_FORCE_REMOTE_ENV);

   if (!lab_store_server_info (store, info, error)) {
      return false;
   }
   if (force && strcmp (force, "1") == 0 && lab_store_backend (store) == LAB_BACKEND_MONGO) {
      info->local = false;
      info->pid_local = false;
   }
   return true;
}

/* lab_scan_shard_uri -- see topology.h. */
char *
lab_scan_shard_uri (const lab_store_facts_shard_t *shard, size_t index, const char *const *overrides,
                    size_t n, const char *router_uri, bson_error_t *error)
{
   size_t i, npos = 0;
   const char *positional = NULL;

   for (i = 0; i < n; i++) {
      const char *eq = strchr (overrides[i], '=');
      const char *scheme = strstr (overrides[i], "://");
      if (eq && (!scheme || eq < scheme)) {
         if (strlen (shard->id) == (size_t)(eq - overrides[i]) &&
             strncmp (overrides[i], shard->id, (size_t)(eq - overrides[i])) == 0) {
            return bson_strdup (eq + 1);
         }
      } else {
         if (npos == index) {
            positional = overrides[i];
         }
         npos++;
      }
   }
   if (positional) {
      return bson_strdup (positional);
   }
   if (shard->nseeds == 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_TOPOLOGY,
                     "shard %s lists no host (%s): give --shard-uri %s=URI", shard->id ? shard->id : "?",
                     shard->host ? shard->host : "", shard->id ? shard->id : "NAME");
      return NULL;
   }
   return lab_store_direct_uri (router_uri, shard->seeds[0].host, (int)shard->seeds[0].port, error);
}

/* has_override -- --shard-uri names this shard (NAME=URI, or a bare URI at its position). */
static bool
has_override (const lab_store_facts_shard_t *shard, size_t index, const char *const *overrides, size_t n)
{
   size_t i, npos = 0;

   for (i = 0; i < n; i++) {
      const char *eq = strchr (overrides[i], '=');
      const char *scheme = strstr (overrides[i], "://");
      if (eq && (!scheme || eq < scheme)) {
         if (shard->id && strlen (shard->id) == (size_t)(eq - overrides[i]) &&
             strncmp (overrides[i], shard->id, (size_t)(eq - overrides[i])) == 0) {
            return true;
         }
      } else if (npos++ == index) {
         return true;
      }
   }
   return false;
}

/* shard_auth_error -- a shard refused the credentials: say why and what to give (docs core/security-users,
 * "Sharded Cluster Users" and "Shard Local Users"). `where` is the shard's host:port. */
static void
shard_auth_error (bson_error_t *error, const lab_scan_target_t *g, const char *where, bool overridden)
{
   const char *colon = strrchr (error->message, ':');
   char cause[128];

   bson_strncpy (cause, colon && colon[1] ? colon + 2 : error->message, sizeof cause);
   if (overridden) {
      lab_error_set (
         error, error->domain, error->code,
         "shard %s (%s) refused the credentials of its --shard-uri (%s): give a user of that shard "
         "(a shard-local user, created on its primary) in --shard-uri %s=URI",
         g->name, where, cause, g->name);
      return;
   }
   lab_error_set (error, error->domain, error->code,
                  "shard %s (%s) refused the router's credentials (%s): users created through mongos live on "
                  "the config servers, not on the shards, so a direct connection to a shard needs a "
                  "shard-local user (created on its primary, with clusterMonitor). Give one per shard: "
                  "--shard-uri %s=mongodb://USER:PASSWORD@%s/?directConnection=true",
                  g->name, where, cause, g->name, where);
}

/* target_self -- the store's own server as the one target. */
static bool
target_self (lab_scan_topology_t *t, lab_store_t *store, bson_error_t *error)
{
   lab_scan_target_t *g = &t->targets[0];

   memset (g, 0, sizeof *g);
   bson_strncpy (g->name, "server", sizeof g->name);
   g->store = store;
   if (!lab_scan_server_info (store, &g->info, error)) {
      return false;
   }
   bson_strncpy (g->host, g->info.host, sizeof g->host);
   t->ntargets = 1;
   return true;
}

/* follow_primary -- when the member a shard's connection reached is a secondary that names its primary,
 * connect directly to that primary instead (same options): the statistics must be those of the member
 * mongos reads from. Checked once, when the shard is opened. */
static bool
follow_primary (const lab_scan_opts_t *o, lab_scan_target_t *g, const char *suri, const lab_store_opts_t *so,
                bson_error_t *error)
{
   bson_t reply;
   char *uri = NULL;
   char *shown;
   lab_store_t *st;
   bool ok = false;

   if (!lab_store_hello (g->store, &reply, error)) {
      lab_error_prefix (error, "hello on shard %s at %s", g->name, g->uri_shown);
      goto done;
   }
   if (!lab_store_primary_uri (suri, &reply, &uri, error)) {
      lab_error_prefix (error, "hello on shard %s at %s", g->name, g->uri_shown);
      goto done;
   }
   if (uri) {
      shown = lab_uri_redact (uri);
      st = lab_store_open (uri, so, error);
      if (!st && lab_store_error_auth (error)) {
         shard_auth_error (error, g, shown, false);
         bson_free (shown);
         goto done;
      }
      if (!st) {
         lab_error_prefix (error, "direct connection to the primary of shard %s at %s", g->name, shown);
         bson_free (shown);
         goto done;
      }
      lab_log_info ("shard %s: %s is not its primary; following the primary at %s", g->name, g->uri_shown,
                    shown);
      lab_store_close (g->store);
      g->store = st;
      bson_free (g->uri_shown);
      g->uri_shown = shown;
   }
   ok = true;
done:
   bson_destroy (&reply);
   bson_free (uri);
   return ok;
}

/* open_shards -- listShards, then one direct connection per shard. */
static bool
open_shards (lab_scan_topology_t *t, lab_store_t *store, const lab_scan_opts_t *o,
             const lab_store_opts_t *sopts, bson_error_t *error)
{
   const char *const *shard_uris = o->shard_uris;
   size_t nshard_uris = o->nshard_uris;
   lab_store_facts_shards_t shards;
   lab_store_opts_t so = { 0 };
   bool ok = false, followed;
   size_t i;

   if (!lab_store_list_shards (store, &shards, error)) {
      goto done;
   }
   if (shards.nshards == 0 || shards.nshards > LAB_SCAN_MAX_TARGETS) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_TOPOLOGY,
                     "mongos %s lists %zu shards (1 to %d are supported)", lab_store_uri_redacted (store),
                     shards.nshards, LAB_SCAN_MAX_TARGETS);
      goto done;
   }
   if (sopts) {
      so = *sopts;
   }
   so.db = lab_store_db (store);
   so.create = false;
   for (i = 0; i < shards.nshards; i++) {
      lab_scan_target_t *g = &t->targets[i];
      char *suri = lab_scan_shard_uri (&shards.shards[i], i, shard_uris, nshard_uris, o->uri, error);

      memset (g, 0, sizeof *g);
      bson_strncpy (g->name, shards.shards[i].id ? shards.shards[i].id : "?", sizeof g->name);
      if (!suri) {
         goto done;
      }
      g->uri_shown = lab_uri_redact (suri);
      g->store = lab_store_open (suri, &so, error);
      t->ntargets = i + 1;
      if (!g->store) {
         bson_free (suri);
         if (lab_store_error_auth (error)) {
            char where[LAB_FACTS_HOST_MAX + 8];
            if (shards.shards[i].nseeds > 0) {
               bson_snprintf (where, sizeof where,
                              strchr (shards.shards[i].seeds[0].host, ':') ? "[%s]:%d" : "%s:%d",
                              shards.shards[i].seeds[0].host, (int)shards.shards[i].seeds[0].port);
            } else {
               bson_strncpy (where, shards.shards[i].host ? shards.shards[i].host : "?", sizeof where);
            }
            shard_auth_error (error, g, where, has_override (&shards.shards[i], i, shard_uris, nshard_uris));
            goto done;
         }
         lab_error_prefix (error,
                           "direct connection to shard %s at %s (listShards host %s; override with "
                           "--shard-uri %s=URI)",
                           g->name, g->uri_shown, shards.shards[i].host ? shards.shards[i].host : "",
                           g->name);
         goto done;
      }
      g->owned = true;
      followed = follow_primary (o, g, suri, &so, error);
      bson_free (suri);
      if (!followed) {
         goto done;
      }
      if (!lab_scan_server_info (g->store, &g->info, error)) {
         goto done;
      }
      bson_strncpy (g->host, g->info.host, sizeof g->host);
   }
   ok = true;
done:
   lab_store_facts_shards_cleanup (&shards);
   return ok;
}

/* lab_scan_topology_discover -- see topology.h. */
bool
lab_scan_topology_discover (lab_store_t *store, const lab_scan_opts_t *o, const lab_store_opts_t *so,
                            lab_scan_topology_t *t, bson_error_t *error)
{
   lab_store_facts_topology_t ft;
   bson_t reply;
   bool ok;

   memset (t, 0, sizeof *t);
   memset (&ft, 0, sizeof ft);
   if (lab_store_backend (store) != LAB_BACKEND_MONGO) {
      t->kind = LAB_TOPO_STANDALONE;
      return target_self (t, store, error);
   }
   if (!lab_store_hello (store, &reply, error)) {
      bson_destroy (&reply);
      lab_error_prefix (error, "hello (and isMaster) on %s", lab_store_uri_redacted (store));
      return false;
   }
   ok = lab_store_facts_topology_from_hello (&reply, &ft, error);
   bson_destroy (&reply);
   if (!ok) {
      lab_store_facts_topology_cleanup (&ft);
      return false;
   }
   t->kind = ft.kind;
   bson_strncpy (t->set_name, ft.set_name, sizeof t->set_name);
   bson_strncpy (t->member, ft.me, sizeof t->member);
   lab_store_facts_topology_cleanup (&ft);
   if (t->kind == LAB_TOPO_MONGOS) {
      return open_shards (t, store, o, so, error);
   }
   if (!target_self (t, store, error)) {
      return false;
   }
   if (!t->member[0]) {
      bson_strncpy (t->member, t->targets[0].host, sizeof t->member);
   }
   return true;
}

/* lab_scan_topology_wait -- see topology.h. */
bool
lab_scan_topology_wait (lab_scan_topology_t *t, int32_t ready_timeout_ms, bson_error_t *error)
{
   size_t i;

   for (i = 0; i < t->ntargets; i++) {
      lab_scan_target_t *g = &t->targets[i];
      /* a shard's own connection: destroy its pool and ping until it answers, then re-read its facts */
      if (g->owned && !lab_store_cycle (g->store, NULL, NULL, ready_timeout_ms, error)) {
         lab_error_prefix (error, "shard %s (%s) after the cold step", g->name, g->uri_shown);
         return false;
      }
      if (!lab_scan_server_info (g->store, &g->info, error)) {
         return false;
      }
      bson_strncpy (g->host, g->info.host, sizeof g->host);
   }
   return true;
}

/* lab_scan_engine_sum -- see topology.h. */
void
lab_scan_engine_sum (const lab_store_engine_stats_t *each, size_t n, bool strict,
                     lab_store_engine_stats_t *out)
{
   size_t i;

   out->cache_bytes = out->cache_max_bytes = out->block_reads = out->block_read_bytes = -1;
   out->cache_read_bytes = out->cache_pages_read = out->server_rss_bytes = -1;
   out->docs_examined = out->keys_examined = -1;
   for (i = 0; i < n; i++) {
#define SUM_ONE(f)                                                                                           \
   if (each[i].f >= 0 && (i == 0 || out->f >= 0 || !strict)) {                                               \
      out->f = (out->f >= 0 ? out->f : 0) + each[i].f;                                                       \
   } else if (strict) {                                                                                      \
      out->f = -1;                                                                                           \
   }
      SUM_ONE (cache_bytes)
      SUM_ONE (cache_max_bytes)
      SUM_ONE (block_reads)
      SUM_ONE (block_read_bytes)
      SUM_ONE (cache_read_bytes)
      SUM_ONE (cache_pages_read)
      SUM_ONE (server_rss_bytes)
      SUM_ONE (docs_examined)
      SUM_ONE (keys_examined)
#undef SUM_ONE
   }
}

/* lab_scan_engine_stats -- see topology.h. */
bool
lab_scan_engine_stats (const lab_scan_topology_t *t, lab_store_t *store, lab_store_engine_stats_t *st,
                       bson_error_t *error)
{
   lab_store_engine_stats_t each[LAB_SCAN_MAX_TARGETS];
   size_t i;

   if (!t || t->kind != LAB_TOPO_MONGOS) {
      return lab_store_engine_stats (store, st, error);
   }
   for (i = 0; i < t->ntargets; i++) {
      if (!lab_store_engine_stats (t->targets[i].store, &each[i], error)) {
         lab_error_prefix (error, "serverStatus of shard %s (%s)", t->targets[i].name, t->targets[i].host);
         return false;
      }
   }
   lab_scan_engine_sum (each, t->ntargets, true, st);
   return true;
}

/* lab_scan_set_cache_size -- see topology.h. */
bool
lab_scan_set_cache_size (lab_scan_topology_t *t, lab_store_t *store, uint64_t bytes, uint64_t *per_server,
                         bson_error_t *error)
{
   uint64_t share = bytes;
   size_t i;

   if (!t || t->kind != LAB_TOPO_MONGOS || t->ntargets == 0) {
      if (per_server) {
         *per_server = bytes;
      }
      return lab_store_set_cache_size (store, bytes, error);
   }
   share = bytes / t->ntargets;
   if (share < LAB_STORE_MIN_CACHE_BYTES) {
      share = LAB_STORE_MIN_CACHE_BYTES;
   }
   if (per_server) {
      *per_server = share;
   }
   for (i = 0; i < t->ntargets; i++) {
      if (!lab_store_set_cache_size (t->targets[i].store, share, error)) {
         lab_error_prefix (error, "shard %s (%s, through its own connection %s)", t->targets[i].name,
                           t->targets[i].host, t->targets[i].uri_shown ? t->targets[i].uri_shown : "");
         return false;
      }
   }
   return true;
}

/* lab_scan_topology_cleanup -- see topology.h. */
void
lab_scan_topology_cleanup (lab_scan_topology_t *t)
{
   size_t i;

   for (i = 0; i < t->ntargets; i++) {
      if (t->targets[i].owned) {
         lab_store_close (t->targets[i].store);
      }
      bson_free (t->targets[i].uri_shown);
      t->targets[i].uri_shown = NULL;
      t->targets[i].store = NULL;
   }
   t->ntargets = 0;
}

/* lab_scan_ftdc_take -- see topology.h. */
bool
lab_scan_ftdc_take (lab_store_t *store, lab_scan_ftdc_point_t *p, bson_error_t *error)
{
   lab_store_facts_disks_t d;
   bson_t reply;
   bool ok;
   size_t i;

   p->have = false;
   p->ndisks = 0;
   memset (&d, 0, sizeof d);
   ok = lab_store_admin_simple (store, "getDiagnosticData", &reply, error) &&
        lab_store_facts_disks_from_diag (&reply, &d, error);
   bson_destroy (&reply);
   if (ok && (!d.have_system_metrics || !d.have_disks || d.ndisks == 0)) {
      lab_error_set (
         error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NOT_IN_DISKSTATS, "getDiagnosticData lists no disk (%s)",
         d.disks_not_linux       ? "systemMetrics.disks without Linux's /proc/diskstats fields: the server "
                                   "is on another platform (Windows: performance counters)"
         : d.have_system_metrics ? "systemMetrics without disks: no /sys/block access"
                                 : "no systemMetrics: FTDC off, or not Linux");
      ok = false;
   }
   if (ok) {
      for (i = 0; i < d.ndisks && i < LAB_SCAN_FTDC_MAX_DISKS; i++) {
         p->disks[i] = d.disks[i];
      }
      p->ndisks = i;
      p->start_ms = d.start_ms;
      p->end_ms = d.end_ms;
      p->have = true;
   }
   lab_store_facts_disks_cleanup (&d);
   return ok;
}

/* lab_scan_ftdc_view -- see topology.h. */
void
lab_scan_ftdc_view (const lab_scan_ftdc_point_t *p, lab_store_facts_disks_t *d)
{
   memset (d, 0, sizeof *d);
   d->have_system_metrics = p->have;
   d->have_disks = p->have;
   d->disks = (lab_store_facts_disk_t *)p->disks;
   d->ndisks = p->ndisks;
   d->start_ms = p->start_ms;
   d->end_ms = p->end_ms;
}

/* ---- the plan and the record ----------------------------------------------------------------------- */

/* refuse_remote -- the local-only options against a server not on this machine. */
static bool
refuse_remote (const lab_scan_opts_t *o, const lab_store_server_info_t *info, bson_error_t *error)
{
   const char *opt = o->device ? "--device" : o->dbpath ? "--dbpath" : o->calibrate ? "--calibrate" : NULL;

   if (opt) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
         "%s measures this machine, but the server (%s) is not on this machine: its figures would be "
         "the client's disk. Use --server-disk ftdc (the server's own getDiagnosticData) and "
         "--server-device NAME to name the server's disk",
         opt, info->host[0] ? info->host : "?");
      return false;
   }
   if (o->server_disk == LAB_SERVER_DISK_LOCAL) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
         "--server-disk local: the server (%s) is not on this machine; use --server-disk ftdc or auto",
         info->host[0] ? info->host : "?");
      return false;
   }
   return true;
}

/* probe_ftdc -- every target answers getDiagnosticData with its disks. */
static bool
probe_ftdc (lab_scan_topology_t *t, bson_error_t *error)
{
   size_t i;

   for (i = 0; i < t->ntargets; i++) {
      lab_scan_ftdc_point_t *pt = bson_malloc0 (sizeof *pt);
      bool ok = lab_scan_ftdc_take (t->targets[i].store, pt, error);
      bson_free (pt);
      if (!ok) {
         lab_error_prefix (error, "getDiagnosticData on %s (%s; needs the clusterMonitor role)",
                           t->targets[i].name, t->targets[i].host);
         return false;
      }
   }
   return true;
}

/* say_no_disk -- log why the run has no server-side disk figures. */
static void
say_no_disk (const lab_scan_opts_t *o, const lab_scan_topology_t *t)
{
   lab_log_info ("no server-side disk figures: %s", t->disk_reason);
}

/* platform_note -- a followed server on a platform whose FTDC disks are not Linux's (hostInfo os.type;
 * mongod's ProcessInfo::getOsType): true with the reason. A hostInfo that is refused says nothing: the
 * disks' own fields are checked when they are read (lab_store_facts_disks_from_diag). */
static bool
platform_note (const lab_scan_topology_t *t, char *note, size_t len)
{
   size_t i;

   for (i = 0; i < t->ntargets; i++) {
      bson_t reply;
      bson_error_t err;
      char os[64] = "", why[400];
      bool ok = lab_store_admin_simple (t->targets[i].store, "hostInfo", &reply, &err) &&
                lab_store_facts_host_os (&reply, os, sizeof os, &err);
      bson_destroy (&reply);
      if (ok && lab_store_facts_disks_platform_note (os, why, sizeof why)) {
         bson_snprintf (note, len, "%s (%s): %s", t->targets[i].name, t->targets[i].host, why);
         return true;
      }
   }
   return false;
}

/* all_local -- every followed server runs on this machine. */
static bool
all_local (const lab_scan_topology_t *t, const lab_store_server_info_t *info)
{
   size_t i;

   if (!info->local) {
      return false;
   }
   for (i = 0; i < t->ntargets; i++) {
      if (!t->targets[i].info.local) {
         return false;
      }
   }
   return true;
}

/* lab_scan_deploy_plan -- see topology.h. */
bool
lab_scan_deploy_plan (lab_store_t *store, const lab_scan_opts_t *o, const lab_store_server_info_t *info,
                      lab_scan_topology_t *t, bson_error_t *error)
{
   lab_store_opts_t so = { 0 };
   bson_error_t err;
   char note[480];

   if (lab_store_backend (store) == LAB_BACKEND_WT) {
      if (o->server_disk == LAB_SERVER_DISK_FTDC || o->server_device || o->nshard_uris) {
         lab_error_set (
            error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
            "--server-disk ftdc, --server-device and --shard-uri are for a MongoDB server; the embedded "
            "store's disk is this machine's (--device)");
         return false;
      }
   } else if (!info->local && !refuse_remote (o, info, error)) {
      return false;
   }
   so.connect_timeout_ms = o->server_timeout_ms;
   if (!lab_scan_topology_discover (store, o, &so, t, error)) {
      return false;
   }
   if (o->server_device) {
      bson_strncpy (t->ftdc_device,
                    strncmp (o->server_device, "/dev/", 5) == 0 ? o->server_device + 5 : o->server_device,
                    sizeof t->ftdc_device);
   }
   if (o->nshard_uris && t->kind != LAB_TOPO_MONGOS) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--shard-uri is for a mongos; %s is a %s", lab_store_uri_redacted (store),
                     lab_store_topology_kind_name (t->kind));
      return false;
   }
   if (lab_store_backend (store) == LAB_BACKEND_WT) {
      t->disk_source = LAB_SERVER_DISK_LOCAL;
      bson_strncpy (t->disk_reason, "the embedded store: this machine's /proc/diskstats",
                    sizeof t->disk_reason);
      return true;
   }
   switch (o->server_disk) {
   case LAB_SERVER_DISK_NONE:
      t->disk_source = LAB_SERVER_DISK_NONE;
      bson_strncpy (t->disk_reason, "--server-disk none", sizeof t->disk_reason);
      return true;
   case LAB_SERVER_DISK_LOCAL:
      t->disk_source = LAB_SERVER_DISK_LOCAL;
      bson_strncpy (t->disk_reason, "--server-disk local: this machine's /proc/diskstats",
                    sizeof t->disk_reason);
      return true;
   case LAB_SERVER_DISK_FTDC:
      if (platform_note (t, note, sizeof note)) {
         t->disk_source = LAB_SERVER_DISK_NONE;
         bson_snprintf (t->disk_reason, sizeof t->disk_reason, "--server-disk ftdc: %s", note);
         say_no_disk (o, t);
         return true;
      }
      if (!probe_ftdc (t, error)) {
         lab_error_prefix (error, "--server-disk ftdc");
         return false;
      }
      t->disk_source = LAB_SERVER_DISK_FTDC;
      bson_snprintf (t->disk_reason, sizeof t->disk_reason,
                     "--server-disk ftdc: the server's getDiagnosticData (systemMetrics.disks)%s",
                     t->kind == LAB_TOPO_MONGOS ? ", per shard" : "");
      return true;
   case LAB_SERVER_DISK_AUTO:
   default:
      break;
   }
   if (all_local (t, info) && !o->server_device) {
      t->disk_source = LAB_SERVER_DISK_LOCAL;
      bson_strncpy (t->disk_reason,
                    "auto: the server runs on this machine, so its disk is read from /proc/diskstats",
                    sizeof t->disk_reason);
      return true;
   }
   if (platform_note (t, note, sizeof note)) {
      t->disk_source = LAB_SERVER_DISK_NONE;
      bson_snprintf (t->disk_reason, sizeof t->disk_reason, "auto: %s", note);
      say_no_disk (o, t);
      return true;
   }
   if (probe_ftdc (t, &err)) {
      t->disk_source = LAB_SERVER_DISK_FTDC;
      bson_snprintf (t->disk_reason, sizeof t->disk_reason,
                     "auto: %s, and getDiagnosticData answers with its disks%s",
                     o->server_device ? "--server-device given" : "the server is not on this machine",
                     t->kind == LAB_TOPO_MONGOS ? " (per shard)" : "");
      return true;
   }
   t->disk_source = LAB_SERVER_DISK_NONE;
   bson_snprintf (t->disk_reason, sizeof t->disk_reason,
                  "auto: the server is not on this machine and getDiagnosticData gave no disk figures: %s",
                  err.message);
   say_no_disk (o, t);
   return true;
}

/* topology_note -- what the run's server figures follow, in words. */
static void
topology_note (const lab_scan_topology_t *t, char *buf, size_t len)
{
   switch (t->kind) {
   case LAB_TOPO_REPLSET:
      bson_snprintf (
         buf, len,
         "replica set %s: statistics and restart detection follow the member the reads go to (%s, by "
         "host, pid and uptime); after a restart the run waits until that member itself serves a read "
         "of the collection. For a one-member cold test connect with directConnection=true",
         t->set_name[0] ? t->set_name : "?", t->member[0] ? t->member : "?");
      break;
   case LAB_TOPO_MONGOS:
      bson_snprintf (
         buf, len,
         "mongos: memory, cache, restarts and readiness come from each of the %zu shard(s) through a "
         "direct connection, never from the router",
         t->ntargets);
      break;
   default:
      bson_snprintf (buf, len, "standalone server");
      break;
   }
}

/* lab_scan_topology_record -- see topology.h. */
void
lab_scan_topology_record (const lab_scan_topology_t *t, const char *local_device, bson_t *results)
{
   char note[768];
   bson_t doc, arr;
   size_t i;

   topology_note (t, note, sizeof note);
   BSON_APPEND_DOCUMENT_BEGIN (results, "topology", &doc);
   BSON_APPEND_UTF8 (&doc, "kind", lab_store_topology_kind_name (t->kind));
   BSON_APPEND_UTF8 (&doc, "set_name", t->set_name);
   BSON_APPEND_UTF8 (&doc, "member", t->kind == LAB_TOPO_MONGOS ? "" : t->member);
   BSON_APPEND_ARRAY_BEGIN (&doc, "shards", &arr);
   if (t->kind == LAB_TOPO_MONGOS) {
      for (i = 0; i < t->ntargets; i++) {
         bson_t sd;
         char idx[16];
         const char *ik;
         bson_uint32_to_string ((uint32_t)i, &ik, idx, sizeof idx);
         bson_append_document_begin (&arr, ik, -1, &sd);
         BSON_APPEND_UTF8 (&sd, "name", t->targets[i].name);
         BSON_APPEND_UTF8 (&sd, "host", t->targets[i].host);
         BSON_APPEND_UTF8 (&sd, "uri", t->targets[i].uri_shown ? t->targets[i].uri_shown : "");
         if (t->targets[i].info.pid > 0) {
            BSON_APPEND_INT64 (&sd, "pid", t->targets[i].info.pid);
         }
         bson_append_document_end (&arr, &sd);
      }
   }
   bson_append_array_end (&doc, &arr);
   BSON_APPEND_UTF8 (&doc, "note", note);
   bson_append_document_end (results, &doc);

   BSON_APPEND_DOCUMENT_BEGIN (results, "disk_source", &doc);
   if (t->disk_source == LAB_SERVER_DISK_LOCAL && !local_device) {
      BSON_APPEND_UTF8 (&doc, "source", "none");
      BSON_APPEND_NULL (&doc, "device");
      BSON_APPEND_UTF8 (&doc, "reason",
                        "the server runs on this machine, but no --dbpath or --device names its disk");
   } else {
      BSON_APPEND_UTF8 (&doc, "source", lab_scan_server_disk_name (t->disk_source));
      if (t->disk_source == LAB_SERVER_DISK_LOCAL) {
         BSON_APPEND_UTF8 (&doc, "device", local_device);
      } else if (t->disk_source == LAB_SERVER_DISK_FTDC && t->ftdc_device[0]) {
         BSON_APPEND_UTF8 (&doc, "device", t->ftdc_device);
      } else {
         BSON_APPEND_NULL (&doc, "device"); /* ftdc: per run and server, in runs[].server_disk */
      }
      BSON_APPEND_UTF8 (&doc, "reason", t->disk_reason);
      if (t->disk_source != LAB_SERVER_DISK_LOCAL && local_device) {
         /* both: the entries' own figures are this machine's; FTDC's sit beside them in runs[].server_disk */
         BSON_APPEND_UTF8 (&doc, "local_device", local_device);
      }
   }
   bson_append_document_end (results, &doc);
}
