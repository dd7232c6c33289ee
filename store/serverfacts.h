/*
 * serverfacts.h -- pure parsers of the server-side facts layoutlab reads from real mongod/mongos replies:
 * hello (topology and limits), listShards (the shards and their seed lists), serverStatus (process, memory,
 * WiredTiger cache and block manager) and getDiagnosticData (the FTDC sample's per-disk counters), plus the
 * iostat arithmetic between two FTDC samples of one disk and the choice of the disk to report.
 *
 * No I/O here: the callers run the commands and hand the replies in, so recorded replies test every branch
 * (tests/store/data/serverfacts/). Field names and BSON types follow mongod's source; docs/mongodb-compat.md
 * lists each with its source and the versions that have it.
 *
 * Numbers: mongod appends most counters with BSONObjBuilder::appendNumber, which picks the smallest type
 * that holds the value (int32, or double / int64 depending on the version), so every numeric field here
 * accepts int32, int64 and double. A field of any other type is refused with LAB_ERROR_STORE /
 * LAB_STORE_ERR_BAD_REPLY naming its path; a missing field is never an error: it reads as -1 (numbers),
 * "" (strings) or false.
 */
#ifndef LAB_SERVERFACTS_H
#define LAB_SERVERFACTS_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/iostat.h"

/* ---- hello --------------------------------------------------------------------------------------- */

typedef enum {
   LAB_TOPO_UNKNOWN = 0, /* not a usable hello reply (e.g. ok: 0) */
   LAB_TOPO_STANDALONE,  /* no setName, no msg: "isdbgrid" */
   LAB_TOPO_REPLSET,     /* a replica set member (setName), or one not yet initiated (isreplicaset) */
   LAB_TOPO_MONGOS,      /* msg: "isdbgrid" */
} lab_store_topology_kind_t;

#define LAB_FACTS_HOST_MAX 256

typedef struct {
   lab_store_topology_kind_t kind;
   char set_name[LAB_FACTS_HOST_MAX]; /* "" unless a replica set member */
   char me[LAB_FACTS_HOST_MAX];       /* "host:port" as the member names itself; "" when absent */
   char primary[LAB_FACTS_HOST_MAX];  /* the primary as this member sees it; "" when absent/unknown */
   bool is_writable_primary;          /* isWritablePrimary (hello) or ismaster (legacy isMaster) */
   bool is_secondary;
   int64_t max_bson_bytes;    /* maxBsonObjectSize; -1 absent */
   int64_t max_message_bytes; /* maxMessageSizeBytes; -1 absent */
   int64_t max_write_batch;   /* maxWriteBatchSize; -1 absent */
   int64_t max_wire_version;  /* -1 absent */
   int64_t topology_counter;  /* topologyVersion.counter (4.4+); -1 absent */
   char **hosts;              /* hosts[] (electable members), NULL-terminated list of nhosts */
   size_t nhosts;
} lab_store_facts_topology_t;

/* lab_store_facts_topology_from_hello -- classify a hello / isMaster reply. *out is always initialized (free
 * with lab_store_facts_topology_cleanup). False only for a field of the wrong type. */
bool lab_store_facts_topology_from_hello (const bson_t *reply, lab_store_facts_topology_t *out,
                                          bson_error_t *error);

/* lab_store_facts_topology_cleanup -- free hosts; *t is left empty. */
void lab_store_facts_topology_cleanup (lab_store_facts_topology_t *t);

/* lab_store_topology_kind_name -- "standalone", "replset", "mongos" or "unknown". */
const char *lab_store_topology_kind_name (lab_store_topology_kind_t kind);

/* ---- listShards ---------------------------------------------------------------------------------- */

typedef struct {
   char host[LAB_FACTS_HOST_MAX]; /* name or address, IPv6 without brackets */
   int32_t port;                  /* 27017 when the seed names none */
} lab_store_facts_hostport_t;

typedef struct {
   char *id;                          /* _id: the shard's name */
   char *host;                        /* host as listed: "rsName/h1:p1,h2:p2" or "h:p" */
   char *set_name;                    /* the replica set name before '/', or NULL (a standalone shard) */
   lab_store_facts_hostport_t *seeds; /* the seed list after '/' */
   size_t nseeds;
   int64_t state; /* 1 = shard aware; -1 absent */
   bool draining; /* removeShard in progress */
} lab_store_facts_shard_t;

typedef struct {
   lab_store_facts_shard_t *shards;
   size_t nshards;
} lab_store_facts_shards_t;

/* lab_store_facts_parse_seed_list -- split a shard's host string ("rs/h1:p,h2:p", "h:p", "[::1]:27018") into
 * the set name (NULL when none; caller frees) and a host:port array (caller frees). False on an empty host, a
 * bad port or an empty list. */
bool lab_store_facts_parse_seed_list (const char *host, char **set_name, lab_store_facts_hostport_t **seeds,
                                      size_t *nseeds, bson_error_t *error);

/* lab_store_facts_shards_from_list -- the shards of a listShards reply. *out is always initialized (free with
 * lab_store_facts_shards_cleanup); false when shards[] is missing or malformed. */
bool lab_store_facts_shards_from_list (const bson_t *reply, lab_store_facts_shards_t *out,
                                       bson_error_t *error);

/* lab_store_facts_shards_cleanup -- free every shard; *s is left empty. */
void lab_store_facts_shards_cleanup (lab_store_facts_shards_t *s);

/* ---- serverStatus -------------------------------------------------------------------------------- */

typedef struct {
   char host[LAB_FACTS_HOST_MAX]; /* "hostname[:port]"; "" absent */
   char version[64];              /* "7.0.12"; "" absent */
   char process[32];              /* "mongod" / "mongos"; "" absent */
   int64_t pid;                   /* -1 absent */
   double uptime_s;               /* -1 absent */
   int64_t uptime_ms;             /* uptimeMillis; -1 absent */
   int64_t local_time_ms;         /* localTime (the server's wall clock), ms since the epoch; -1 absent */
   int64_t start_ms;              /* local_time_ms - uptime_ms: when the process started; -1 unknown */
   int64_t mem_resident_bytes;    /* mem.resident (MiB on the wire) * 2^20; -1 absent */
   bool has_wiredtiger;           /* a wiredTiger section (mongod on WiredTiger; never mongos) */
   /* wiredTiger.cache and wiredTiger.block-manager (WiredTiger connection statistics); -1 absent */
   int64_t cache_bytes;      /* "bytes currently in the cache" */
   int64_t cache_max_bytes;  /* "maximum bytes configured" */
   int64_t cache_read_bytes; /* "bytes read into cache" (cumulative, in-memory size) */
   int64_t cache_pages_read; /* "pages read into cache" (cumulative) */
   int64_t block_reads;      /* "blocks read" (cumulative) */
   int64_t block_read_bytes; /* "bytes read" (cumulative, on-disk size) */
} lab_store_facts_status_t;

/* lab_store_facts_server_status -- the facts of a serverStatus reply; a field of the wrong type is an error.
 */
bool lab_store_facts_server_status (const bson_t *reply, lab_store_facts_status_t *out, bson_error_t *error);

/* ---- getDiagnosticData: systemMetrics.disks ------------------------------------------------------ */

/* One disk of an FTDC sample: /proc/diskstats fields 4..14 as mongod's procparser names them, cumulative
 * since boot, sectors of 512 bytes, times in ms. -1 when the field is absent (older kernels lack some). */
typedef struct {
   char name[64];
   int64_t reads, reads_merged, read_sectors, read_time_ms;
   int64_t writes, writes_merged, write_sectors, write_time_ms;
   int64_t io_in_progress, io_time_ms, io_queued_ms;
} lab_store_facts_disk_t;

typedef struct {
   bool have_system_metrics; /* data.systemMetrics present (FTDC running, Linux) */
   bool have_disks;          /* systemMetrics.disks present (mongod lists none without /sys/block access) */
   lab_store_facts_disk_t *disks; /* in reply order */
   size_t ndisks;
   bool disks_not_linux; /* systemMetrics.disks lists disks without any Linux field (reads,
                          * read_sectors): another platform's counters (Windows: performance
                          * counters); have_disks is then false and no disk is kept */
   int64_t start_ms;     /* systemMetrics.start (collector start, ms since the epoch); -1 absent */
   int64_t end_ms;       /* systemMetrics.end, else data.end; -1 absent */
} lab_store_facts_disks_t;

/* lab_store_facts_disks_from_diag -- the disks of a getDiagnosticData reply ({data: {systemMetrics:
 * {disks}}}, or the multi-service layout {data: {common: {systemMetrics}}}). A reply without systemMetrics is
 * not an error (mongos without a log path, FTDC disabled): have_system_metrics stays false. *out is always
 * initialized (free with lab_store_facts_disks_cleanup). */
bool lab_store_facts_disks_from_diag (const bson_t *reply, lab_store_facts_disks_t *out, bson_error_t *error);

/* lab_store_facts_disks_cleanup -- free the disks; *d is left empty. */
void lab_store_facts_disks_cleanup (lab_store_facts_disks_t *d);

/* lab_store_facts_disks_find -- the disk named `name` ("sda" or "/dev/sda"), or NULL. */
const lab_store_facts_disk_t *lab_store_facts_disks_find (const lab_store_facts_disks_t *d, const char *name);

/* lab_store_facts_disks_elapsed_s -- seconds between two samples' end times; -1 when either is unknown, 0
 * when both replies carry the same sample (FTDC samples once a second: ask again later). */
double lab_store_facts_disks_elapsed_s (const lab_store_facts_disks_t *a, const lab_store_facts_disks_t *b);

/* iostat's figures between two samples of one disk, with the same names and rules as the local sampler
 * (scan/measure/diskstats.c): counters that went backwards are a 32-bit wrap when the old value fit in 32
 * bits, else a reset (delta 0); an absent counter counts as 0. */
typedef lab_iostat_t lab_store_facts_disk_delta_t; /* core/iostat.h: the one copy of the arithmetic */

/* lab_store_facts_disk_delta -- the figures from sample a (older; NULL: the disk was absent then, all zero)
 * to b (newer) taken elapsed_s apart; rates are 0 when elapsed_s <= 0. */
void lab_store_facts_disk_delta (const lab_store_facts_disk_t *a, const lab_store_facts_disk_t *b,
                                 double elapsed_s, lab_store_facts_disk_delta_t *d);

/* lab_store_facts_disks_pick -- the disk to report between samples a and b: `override` ("sda" or "/dev/sda")
 * when given (an error naming the disks listed when b lacks it); else the disk with the most sectors read
 * between the samples (ties: most reads, then the first listed). A disk absent from a had all-zero
 * counters then (mongod omits such disks): *disk_a is then NULL. `reason`
 * (may be NULL) how it was made. False when b lists no disk. */
bool lab_store_facts_disks_pick (const lab_store_facts_disks_t *a, const lab_store_facts_disks_t *b,
                                 const char *override, const lab_store_facts_disk_t **disk_a,
                                 const lab_store_facts_disk_t **disk_b, char *reason, size_t reason_len,
                                 bson_error_t *error);

/* ---- listIndexes -------------------------------------------------------------------------------- */

/* lab_store_facts_index_serves_sort -- an index description (a listIndexes entry) that can serve a stream in
 * `field` order under the simple collation: its key pattern starts with `field` at direction 1 or -1 (not
 * hashed or text), it holds every document (not sparse, not partial), and the planner may use it (not
 * hidden: a hidden index cannot be hinted, docs core/index-hidden "Restrictions"; listIndexes shows
 * `hidden: true` only when it is). *rank orders the candidates: {field: 1} first, then {field: -1}
 * (walked backwards), then compound indexes by their number of keys. Pure. */
bool lab_store_facts_index_serves_sort (const bson_t *desc, const char *field, int *rank);

/* ---- listCollections and showRecordId ----------------------------------------------------------- */

/* lab_store_facts_coll_clustered -- *clustered: the listCollections entry's options carry clusteredIndex,
 * as mongod's CollectionOptions::appendBSON writes it: the spec {v, key, name, unique} of
 * clustered_util::makeCanonicalClusteredInfo (5.3+, create with clusteredIndex), or `true`, the legacy form
 * of time-series buckets collections (clustered_util::parseClusteredInfo). No options (nameOnly, FerretDB)
 * is not clustered; a clusteredIndex of another type, or a spec without key, is LAB_STORE_ERR_BAD_REPLY. */
bool lab_store_facts_coll_clustered (const bson_t *entry, bool *clustered, bson_error_t *error);

/* lab_store_facts_record_id -- *rid = the dense RecordId of one find-with-showRecordId document, false when
 * it gives none: a clustered collection (from listCollections, whatever type its $recordId has:
 * record_id_helpers::appendToBSONAs decodes the KeyString of _id back into the _id value, so a numeric
 * _id reads as a number), a missing or non-numeric $recordId, or one <= 0 (FerretDB answers 0). Pure. */
bool lab_store_facts_record_id (bool clustered, const bson_t *doc, int64_t *rid);

/* ---- hostInfo ------------------------------------------------------------------------------------ */

/* lab_store_facts_host_os -- os.type of a hostInfo reply into os_type ("Linux", "Windows", "Darwin", ... as
 * mongod's ProcessInfo::getOsType gives it; "" absent). */
bool lab_store_facts_host_os (const bson_t *reply, char *os_type, size_t len, bson_error_t *error);

/* lab_store_facts_disks_platform_note -- true with `note` (why) when the server's platform `os_type` keeps no
 * Linux /proc/diskstats fields in systemMetrics.disks (anything but "Linux"; "" unknown is false). */
bool lab_store_facts_disks_platform_note (const char *os_type, char *note, size_t len);

/* ---- restarts: the same server, a new process, or another member -------------------------------- */

/* What restart detection knows of a server process (serverStatus, lab_store_server_info_t). */
typedef struct {
   char host[LAB_FACTS_HOST_MAX]; /* serverStatus.host of the member that answered; "" unknown */
   int64_t pid;                   /* <= 0 unknown */
   int64_t start_ms;              /* localTime - uptimeMillis; < 0 unknown */
   double uptime_s;               /* < 0 unknown */
} lab_store_facts_proc_t;

typedef enum {
   LAB_RESTART_NONE = 0,       /* the same process as before */
   LAB_RESTART_SAME_HOST,      /* the same member, a new process: restarted */
   LAB_RESTART_MEMBER_CHANGED, /* another member answered (a failover): not a restart of the server seen */
} lab_store_facts_restart_t;

/* Start times closer than this are the same start: localTime (wall clock) and uptimeMillis (the fast clock
 * since start-up) are read at slightly different moments, and the wall clock may be adjusted. */
#define LAB_FACTS_START_SLACK_MS 1000

/* lab_store_facts_restart_of -- what happened between two looks at "the server": another host answered
 * (MEMBER_CHANGED, whatever its pid or start); the same host with a start time LAB_FACTS_START_SLACK_MS or
 * more away, or a new pid (also a pid reused with a new start: the start decides) is SAME_HOST; without
 * start times, an uptime that went back is SAME_HOST too. `why` gets the reason in words. Pure. */
lab_store_facts_restart_t lab_store_facts_restart_of (const lab_store_facts_proc_t *before,
                                                      const lab_store_facts_proc_t *after, char *why,
                                                      size_t len);

/* lab_store_facts_restart_name -- "none", "restarted" or "member_changed". */
const char *lab_store_facts_restart_name (lab_store_facts_restart_t r);

/* ---- explain: the plan the server chose ---------------------------------------------------------- */

#define LAB_FACTS_PLAN_MAX_PARTS 16

/* One server's plan (the server, or one shard behind mongos). */
typedef struct {
   char shard[128];  /* "" unsharded */
   char engine[16];  /* "classic" (winningPlan.stage), "sbe" (winningPlan.queryPlan, 5.0+), "ferretdb", or
                      * "unknown" (an aggregation layer without a query plan) */
   char stages[256]; /* the plan's stages from the root, first input at each level: "FETCH > IXSCAN" */
   char index[128];  /* the first IXSCAN's indexName; "" none */
   bool
      blocking_sort; /* a SORT stage, a $sort the aggregation layer runs, or FerretDB without sortPushdown */
   bool pipeline_sort; /* the sort is the aggregation layer's $sort */
   bool multikey;      /* an IXSCAN over a multikey index (isMultiKey) */
   bool collscan;      /* a COLLSCAN (FerretDB: a SCAN of its table) */
} lab_store_facts_plan_part_t;

typedef struct {
   bool sharded; /* the reply came through mongos, per shard */
   lab_store_facts_plan_part_t parts[LAB_FACTS_PLAN_MAX_PARTS];
   size_t nparts;
   bool blocking_sort, multikey, collscan; /* any part's */
} lab_store_facts_plan_t;

/* lab_store_facts_explain_parse -- the winning plan(s) of an explain reply (verbosity queryPlanner) of a find
 * or an aggregate: classic trees (winningPlan.stage / inputStage(s)), SBE (winningPlan.queryPlan), an
 * aggregation's stages[] ($cursor.queryPlanner, and a blocking $sort stage), mongos (winningPlan.shards[]
 * of a find, shards{} of an aggregate: one part per shard), and FerretDB 1.24 (queryPlanner.Plan with
 * sortPushdown). A field of the wrong type, or a reply with no plan at all, is LAB_STORE_ERR_BAD_REPLY. */
bool lab_store_facts_explain_parse (const bson_t *reply, lab_store_facts_plan_t *out, bson_error_t *error);

/* ---- which product answers ---------------------------------------------------------------------------- */

/* lab_store_facts_product -- the product behind a server's replies, one of LAB_STORE_PRODUCT_* (store.h):
 * "ferretdb" when buildInfo names a ferretdbVersion (FerretDB says so there; a proxy in front of it, such
 * as the test server's mongos personality, passes it through), else "mongos" when hello's msg is
 * "isdbgrid", else "mongod" when buildInfo has what mongod's buildinfo.cpp always sends and compatible
 * servers leave out (storageEngines, or a 40-digit gitVersion), else "unknown" (a MongoDB-compatible server
 * that does not say which, or no buildInfo at all). Either reply may be NULL. */
const char *lab_store_facts_product (const bson_t *hello, const bson_t *build_info);

#endif
