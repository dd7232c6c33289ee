/*
 * deploy.h -- the deployment behind a store, as far as a tool needs it without libmongoc: admin commands,
 * hello and listShards (parsed by serverfacts.h), the URIs of direct connections to a shard or to the
 * primary a member names, and whether an error is a refused login. scan/topology.c builds the scan's
 * view of a deployment (its shards, each on a store of its own) from these.
 */
#ifndef LAB_STORE_DEPLOY_H
#define LAB_STORE_DEPLOY_H

#include "serverfacts.h"
#include "store.h"

/* lab_store_admin_simple -- {name: 1} on admin through lab_store_command_simple; *reply always
 * initialized (caller destroys). */
bool lab_store_admin_simple (lab_store_t *store, const char *name, bson_t *reply, bson_error_t *error);

/* lab_store_hello -- hello on admin, or isMaster on servers without hello (that one's error when both
 * fail); *reply always initialized (caller destroys). */
bool lab_store_hello (lab_store_t *store, bson_t *reply, bson_error_t *error);

/* lab_store_list_shards -- listShards through mongos, parsed (lab_store_facts_shards_from_list) into *shards,
 * zeroed first (lab_store_facts_shards_cleanup it also on failure). Errors say the user needs clusterMonitor.
 */
bool lab_store_list_shards (lab_store_t *store, lab_store_facts_shards_t *shards, bson_error_t *error);

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

/* lab_store_primary_uri -- *out: the URI of a direct connection to the primary that `hello` (the reply
 * of the member `shard_uri` reached) names, with shard_uri's options (lab_store_direct_uri), when that
 * member is a replica set member other than its primary; NULL when it is the primary, a standalone, or
 * names no primary (caller frees). False with *error for a malformed reply. Pure. */
bool lab_store_primary_uri (const char *shard_uri, const bson_t *hello, char **out, bson_error_t *error);

/* lab_store_error_auth -- the error is an authentication failure: libmongoc's client authentication
 * (MONGOC_ERROR_CLIENT / MONGOC_ERROR_CLIENT_AUTHENTICATE) or the server's AuthenticationFailed (18). Pure.
 */
bool lab_store_error_auth (const bson_error_t *e);

#endif
