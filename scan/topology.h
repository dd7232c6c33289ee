/*
 * topology.h -- the deployment a scan runs against (private to scan/ and its tests): the topology from
 * `hello` (standalone, replica set, mongos), the servers whose statistics a run follows (the store's own
 * server, or every shard behind mongos through a direct connection of its own), and where the server-side
 * disk figures come from (this machine's /proc/diskstats, the server's getDiagnosticData (FTDC), or
 * nowhere, with the reason).
 *
 * Why per shard: through mongos, serverStatus is the router's (no WiredTiger section, the router's memory,
 * pid and uptime), so memory, cache, restarts and readiness are read from each shard directly.
 */
#ifndef LAB_SCAN_TOPOLOGY_H
#define LAB_SCAN_TOPOLOGY_H

#include "core/serverfacts.h"
#include "scan/scan.h"

/* The test hook that makes a loopback server look remote (the refusals and the FTDC path are tested on
 * this machine's test server): set to 1, lab_scan_server_info reports local = pid_local = false. */
#define LAB_SCAN_TEST_FORCE_REMOTE_ENV "LAYOUTLAB_TEST_FORCE_REMOTE"

/* Most shards followed, and most disks kept per FTDC sample. */
#define LAB_SCAN_MAX_TARGETS 16
#define LAB_SCAN_FTDC_MAX_DISKS 32

/* lab_scan_server_disk_parse / lab_scan_server_disk_name -- "auto", "local", "ftdc", "none". */
bool lab_scan_server_disk_parse (const char *s, lab_scan_server_disk_t *out);
const char *lab_scan_server_disk_name (lab_scan_server_disk_t d);

/* One server a run follows: the store's own, or one shard. */
typedef struct {
   char name[128];                /* "server", or the shard's _id */
   char host[LAB_FACTS_HOST_MAX]; /* host:port the statistics come from */
   char *uri_shown;    /* redacted URI of a shard's own connection; NULL for the store's own server */
   lab_store_t *store; /* the shard's own store (owned), or the run's store (not owned) */
   bool owned;
   lab_store_server_info_t info; /* as last seen */
} lab_scan_target_t;

/* One FTDC sample of one target: the disks it listed (first LAB_SCAN_FTDC_MAX_DISKS). */
typedef struct {
   bool have;
   size_t ndisks;
   lab_store_facts_disk_t disks[LAB_SCAN_FTDC_MAX_DISKS];
   int64_t start_ms, end_ms;
} lab_scan_ftdc_point_t;

typedef struct {
   lab_store_topology_kind_t kind;
   char set_name[LAB_FACTS_HOST_MAX];
   char member[LAB_FACTS_HOST_MAX]; /* the member the reads go to (replica set), or the server */
   lab_scan_target_t targets[LAB_SCAN_MAX_TARGETS];
   size_t ntargets;
   /* server-side disk figures */
   lab_scan_server_disk_t disk_source; /* LOCAL, FTDC or NONE once resolved */
   char ftdc_device[64];               /* --server-device, "" when the disk is picked per run */
   char disk_reason[512];
} lab_scan_topology_t;

/* lab_scan_server_info -- lab_store_server_info with the LAB_SCAN_TEST_FORCE_REMOTE_ENV hook applied. */
bool lab_scan_server_info (lab_store_t *store, lab_store_server_info_t *info, bson_error_t *error);

/* lab_store_direct_uri -- mongodb://[USER:PASS@]HOST:PORT/?directConnection=true (IPv6 in brackets) with
 * the options of `router_uri` (a mongodb:// or mongodb+srv:// URI, parsed by libmongoc; NULL or another
 * scheme: none) that a direct connection to a shard must keep: the credentials with authSource as
 * libmongoc resolves it, authMechanism(+Properties), the tls* options (tls=true also when libmongoc
 * implies it, as for mongodb+srv), appName, compressors (+zlibCompressionLevel), connect/socket/server
 * selection timeouts, serverSelectionTryOnce, heartbeatFrequencyMS, socketCheckIntervalMS, retryReads,
 * retryWrites. Never replicaSet, readPreference(+Tags, maxStalenessSeconds), loadBalanced, write or read
 * concern, pool sizes (docs/mongodb-compat.md lists each decision). Values percent-encoded. Caller frees;
 * NULL with *error when router_uri does not parse. Pure. */
char *lab_store_direct_uri (const char *router_uri, const char *host, int port, bson_error_t *error);

/* lab_scan_shard_uri -- the URI of a direct connection to `shard` (pure): the override of `overrides`
 * (n entries, each "NAME=URI" naming this shard, or a bare URI taken by position `index` in listShards
 * order) when there is one, else lab_store_direct_uri of the shard's first seed with the options of
 * `router_uri`. Caller frees; NULL with *error (a shard listing no host, a router URI that does not
 * parse). */
char *lab_scan_shard_uri (const lab_store_facts_shard_t *shard, size_t index, const char *const *overrides,
                          size_t n, const char *router_uri, bson_error_t *error);

/* lab_store_primary_uri -- *out: the URI of a direct connection to the primary that `hello` (the reply
 * of the member `shard_uri` reached) names, with shard_uri's options (lab_store_direct_uri), when that
 * member is a replica set member other than its primary; NULL when it is the primary, a standalone, or
 * names no primary (caller frees). False with *error for a malformed reply. Pure. */
bool lab_store_primary_uri (const char *shard_uri, const bson_t *hello, char **out, bson_error_t *error);

/* lab_store_error_auth -- the error is an authentication failure: libmongoc's client authentication
 * (MONGOC_ERROR_CLIENT / MONGOC_ERROR_CLIENT_AUTHENTICATE) or the server's AuthenticationFailed (18). Pure.
 */
bool lab_store_error_auth (const bson_error_t *e);

/* lab_scan_topology_discover -- hello (isMaster on servers without it) on `store`; for mongos listShards
 * and one store per shard (lab_scan_shard_uri with the connection options of `uri`, may be NULL;
 * `so` the options of the shards' stores, may be NULL). A shard refusing the router's credentials stops
 * here with an error saying why (a cluster's users live on the config servers, a direct connection needs
 * a shard-local user) and naming --shard-uri. *t is zeroed first; release it with
 * lab_scan_topology_cleanup also on failure. */
bool lab_scan_topology_discover (lab_store_t *store, const char *uri, const char *const *shard_uris,
                                 size_t nshard_uris, const lab_store_opts_t *so, lab_scan_topology_t *t,
                                 bson_error_t *error);

/* lab_scan_topology_wait -- after a cold step, each shard answering on its own connection again (within
 * ready_timeout_ms) and its facts re-read into targets[i].info; the store's own server: its facts re-read. */
bool lab_scan_topology_wait (lab_scan_topology_t *t, int32_t ready_timeout_ms, bson_error_t *error);

/* lab_scan_engine_sum -- the engine statistics of a deployment from its servers' each[0..n): every figure
 * summed; a figure one server does not give is left out of the sum (`strict` false: gauges, for peaks)
 * or makes the sum unknown, -1 (`strict` true: the cumulative counters whose before/after deltas are a
 * run's totals, which a server missing at one end would skew). n == 0: all -1. Pure. */
void lab_scan_engine_sum (const lab_store_engine_stats_t *each, size_t n, bool strict,
                          lab_store_engine_stats_t *out);

/* lab_scan_engine_stats -- the deployment's engine statistics now: the store's own server, or through
 * mongos (which has no storage engine) the sum over every shard's own connection (strict: a shard that
 * does not answer fails the call). */
bool lab_scan_engine_stats (const lab_scan_topology_t *t, lab_store_t *store, lab_store_engine_stats_t *st,
                            bson_error_t *error);

/* lab_scan_set_cache_size -- the engine cache for what follows: the store's own server, or through mongos
 * (which has no storage engine and no such parameter) each shard's primary on its own connection, which
 * sets it again after each restart. Each shard gets bytes / ntargets (at least LAB_STORE_MIN_CACHE_BYTES),
 * so that the shards' caches together are `bytes` against the whole collection; *per_server (may be NULL)
 * gets that share. Errors name the shard. */
bool lab_scan_set_cache_size (lab_scan_topology_t *t, lab_store_t *store, uint64_t bytes,
                              uint64_t *per_server, bson_error_t *error);

/* lab_scan_topology_cleanup -- close the shards' stores. */
void lab_scan_topology_cleanup (lab_scan_topology_t *t);

/* lab_scan_ftdc_take -- one getDiagnosticData sample of `store` into *p (p->have false when the server
 * does not answer or lists no disk; `error` says why). */
bool lab_scan_ftdc_take (lab_store_t *store, lab_scan_ftdc_point_t *p, bson_error_t *error);

/* lab_scan_ftdc_view -- a lab_store_facts_disks_t view of a point (no copy; valid while *p is). */
void lab_scan_ftdc_view (const lab_scan_ftdc_point_t *p, lab_store_facts_disks_t *d);

/* lab_scan_deploy_plan -- refuse what would mislead (--device, --dbpath, --calibrate against a server not
 * on this machine: LAB_ERROR_USAGE pointing to --server-device; --server-disk local against one; FTDC
 * options on the embedded store), discover the topology into *t and resolve where the disk figures come
 * from (t->disk_source, t->disk_reason). `info` is the server as first seen (lab_scan_server_info). */
bool lab_scan_deploy_plan (lab_store_t *store, const lab_scan_opts_t *o, const lab_store_server_info_t *info,
                           lab_scan_topology_t *t, bson_error_t *error);

/* lab_scan_topology_record -- append "topology" and "disk_source" (docs/results-schema.md) to results;
 * `local_device` is the disk the local sampler reads (NULL: none). */
void lab_scan_topology_record (const lab_scan_topology_t *t, const char *local_device, bson_t *results);

#endif
