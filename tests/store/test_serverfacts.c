/*
 * test_serverfacts.c -- unit tests of store/serverfacts: hello, listShards, serverStatus and
 * getDiagnosticData replies recorded as canonical extended JSON (tests/store/data/serverfacts/, types as
 * mongod sends them), the iostat arithmetic between two FTDC samples and the choice of the disk to report.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/serverfacts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fixture -- tests/store/data/serverfacts/<name> parsed into a new bson_t (caller destroys). */
static bson_t *
fixture (const char *name)
{
   const char *src = getenv ("LAB_SOURCE_DIR");
   char path[4096];

   snprintf (path, sizeof path, "%s/tests/store/data/serverfacts/%s", src ? src : ".", name);
   return lab_test_json_load (path);
}

/* json -- an inline canonical extended JSON document (caller destroys). */
static bson_t *
json (const char *text)
{
   bson_error_t e;
   bson_t *b = bson_new_from_json ((const uint8_t *)text, -1, &e);

   if (!b) {
      fail_msg ("bad inline JSON: %s", e.message);
   }
   return b;
}

/* assert_near -- doubles within eps (this cmocka compares floats only in single precision). */
#define assert_near(a, b, eps) near_ ((a), (b), (eps), #a, __LINE__)

static void
near_ (double a, double b, double eps, const char *expr, int line)
{
   if (!(fabs (a - b) <= eps)) {
      fail_msg ("line %d: %s = %.10g, expected %.10g", line, expr, a, b);
   }
}

/* expect_bad_reply -- the last call failed with BAD_REPLY naming `path`. */
static void
expect_bad_reply (const bson_error_t *e, const char *path)
{
   assert_int_equal (e->domain, LAB_ERROR_STORE);
   assert_int_equal (e->code, LAB_STORE_ERR_BAD_REPLY);
   if (!strstr (e->message, path)) {
      fail_msg ("error \"%s\" does not name '%s'", e->message, path);
   }
}

/* ---- hello --------------------------------------------------------------------------------------- */

static void
test_hello_standalone_legacy (void **state)
{
   lab_store_facts_topology_t t;
   bson_error_t e;
   bson_t *r = fixture ("hello-standalone-4.2-ismaster.json");

   (void)state;
   assert_true (lab_store_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_STANDALONE);
   assert_string_equal (lab_store_topology_kind_name (t.kind), "standalone");
   assert_true (t.is_writable_primary); /* from the legacy "ismaster" */
   assert_false (t.is_secondary);
   assert_string_equal (t.set_name, "");
   assert_string_equal (t.me, "");
   assert_int_equal (t.max_bson_bytes, 16777216);
   assert_int_equal (t.max_message_bytes, 48000000);
   assert_int_equal (t.max_write_batch, 100000);
   assert_int_equal (t.max_wire_version, 8);
   assert_int_equal (t.topology_counter, -1); /* no topologyVersion before 4.4 */
   assert_int_equal (t.nhosts, 0);
   lab_store_facts_topology_cleanup (&t);
   bson_destroy (r);
}

static void
test_hello_replset (void **state)
{
   lab_store_facts_topology_t t;
   bson_error_t e;
   bson_t *r = fixture ("hello-replset-primary-6.0.json");

   (void)state;
   assert_true (lab_store_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_REPLSET);
   assert_string_equal (t.set_name, "rs0");
   assert_string_equal (t.me, "db1.example.net:27017");
   assert_string_equal (t.primary, "db1.example.net:27017");
   assert_true (t.is_writable_primary);
   assert_int_equal (t.topology_counter, 6);
   assert_int_equal (t.nhosts, 3);
   assert_string_equal (t.hosts[2], "db3.example.net:27017");
   assert_null (t.hosts[3]);
   lab_store_facts_topology_cleanup (&t);
   bson_destroy (r);

   r = fixture ("hello-replset-secondary-8.0.json");
   assert_true (lab_store_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_REPLSET);
   assert_false (t.is_writable_primary);
   assert_true (t.is_secondary);
   assert_string_equal (t.me, "db2.example.net:27017");
   assert_string_equal (t.primary, "db1.example.net:27017");
   assert_int_equal (t.max_wire_version, 25);
   lab_store_facts_topology_cleanup (&t);
   bson_destroy (r);

   /* a member not yet initiated: isreplicaset without setName */
   r = json ("{\"ismaster\": false, \"secondary\": false, \"isreplicaset\": true, "
             "\"info\": \"Does not have a valid replica set config\", \"ok\": 1.0}");
   assert_true (lab_store_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_REPLSET);
   assert_false (t.is_writable_primary);
   lab_store_facts_topology_cleanup (&t);
   bson_destroy (r);
}

static void
test_hello_mongos (void **state)
{
   lab_store_facts_topology_t t;
   bson_error_t e;
   bson_t *r = fixture ("hello-mongos-7.0.json");

   (void)state;
   assert_true (lab_store_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_MONGOS);
   assert_string_equal (lab_store_topology_kind_name (t.kind), "mongos");
   assert_true (t.is_writable_primary);
   assert_int_equal (t.topology_counter, 0);
   assert_int_equal (t.max_write_batch, 100000);
   assert_int_equal (t.nhosts, 0);
   lab_store_facts_topology_cleanup (&t);
   bson_destroy (r);
}

static void
test_hello_bad_and_empty (void **state)
{
   lab_store_facts_topology_t t;
   bson_error_t e;
   bson_t *r;

   (void)state;
   r = json ("{\"isWritablePrimary\": true, \"setName\": 7, \"ok\": 1}");
   assert_false (lab_store_facts_topology_from_hello (r, &t, &e));
   expect_bad_reply (&e, "'setName' is int32, expected a string");
   assert_int_equal (t.nhosts, 0);
   bson_destroy (r);

   r = json ("{\"hosts\": [\"a:1\", 2], \"setName\": \"rs\", \"ok\": 1}");
   assert_false (lab_store_facts_topology_from_hello (r, &t, &e));
   expect_bad_reply (&e, "hosts.1");
   assert_null (t.hosts); /* freed on failure */
   bson_destroy (r);

   r = json ("{\"maxBsonObjectSize\": \"16MB\", \"ok\": 1}");
   assert_false (lab_store_facts_topology_from_hello (r, &t, &e));
   expect_bad_reply (&e, "maxBsonObjectSize");
   bson_destroy (r);

   r = json ("{\"topologyVersion\": {\"counter\": \"x\"}, \"ok\": 1}");
   assert_false (lab_store_facts_topology_from_hello (r, &t, &e));
   expect_bad_reply (&e, "topologyVersion.counter");
   bson_destroy (r);

   /* a refused command and an empty reply say nothing, without failing */
   r = json ("{\"ok\": 0, \"errmsg\": \"not authorized\", \"code\": 13}");
   assert_true (lab_store_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_UNKNOWN);
   bson_destroy (r);
   r = bson_new ();
   assert_true (lab_store_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_STANDALONE);
   assert_int_equal (t.max_bson_bytes, -1);
   bson_destroy (r);
   assert_true (lab_store_facts_topology_from_hello (NULL, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_UNKNOWN);
}

/* ---- listShards ---------------------------------------------------------------------------------- */

static void
test_seed_list (void **state)
{
   lab_store_facts_hostport_t *seeds;
   char *set;
   size_t n;
   bson_error_t e;

   (void)state;
   assert_true (lab_store_facts_parse_seed_list ("rsA/h1:27018,h2", &set, &seeds, &n, &e));
   assert_string_equal (set, "rsA");
   assert_int_equal (n, 2);
   assert_string_equal (seeds[0].host, "h1");
   assert_int_equal (seeds[0].port, 27018);
   assert_string_equal (seeds[1].host, "h2");
   assert_int_equal (seeds[1].port, 27017);
   bson_free (set);
   bson_free (seeds);

   assert_true (lab_store_facts_parse_seed_list ("[::1]:27019", &set, &seeds, &n, &e));
   assert_null (set);
   assert_int_equal (n, 1);
   assert_string_equal (seeds[0].host, "::1");
   assert_int_equal (seeds[0].port, 27019);
   bson_free (seeds);

   assert_false (lab_store_facts_parse_seed_list ("rs/h1:0", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_non_null (strstr (e.message, "h1:0"));
   assert_null (set);
   assert_null (seeds);
   assert_false (lab_store_facts_parse_seed_list ("rs/h1:27017,", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (lab_store_facts_parse_seed_list ("/h1", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (lab_store_facts_parse_seed_list ("", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (lab_store_facts_parse_seed_list ("h1:99999", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (lab_store_facts_parse_seed_list ("h1:12a", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (
      lab_store_facts_parse_seed_list ("fe80::1:27017", &set, &seeds, &n, &e)); /* IPv6 needs brackets */
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (lab_store_facts_parse_seed_list ("[::1", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
}

static void
test_list_shards (void **state)
{
   lab_store_facts_shards_t s;
   bson_error_t e;
   bson_t *r = fixture ("listshards-7.0.json");

   (void)state;
   assert_true (lab_store_facts_shards_from_list (r, &s, &e));
   assert_int_equal (s.nshards, 3);
   assert_string_equal (s.shards[0].id, "shard01");
   assert_string_equal (s.shards[0].host,
                        "shard01/db1.example.net:27018,db2.example.net:27018,db3.example.net:27018");
   assert_string_equal (s.shards[0].set_name, "shard01");
   assert_int_equal (s.shards[0].nseeds, 3);
   assert_string_equal (s.shards[0].seeds[1].host, "db2.example.net");
   assert_int_equal (s.shards[0].seeds[1].port, 27018);
   assert_int_equal (s.shards[0].state, 1);
   assert_false (s.shards[0].draining);
   assert_string_equal (s.shards[1].seeds[0].host, "2001:db8::7");
   assert_int_equal (s.shards[1].seeds[1].port, 27017);
   assert_true (s.shards[1].draining);
   assert_null (s.shards[2].set_name);
   assert_int_equal (s.shards[2].nseeds, 1);
   assert_int_equal (s.shards[2].seeds[0].port, 27019);
   assert_int_equal (s.shards[2].state, -1);
   lab_store_facts_shards_cleanup (&s);
   assert_int_equal (s.nshards, 0);
   bson_destroy (r);

   r = json ("{\"ok\": 0, \"errmsg\": \"no such command: 'listShards'\", \"code\": 59}");
   assert_false (lab_store_facts_shards_from_list (r, &s, &e));
   assert_non_null (strstr (e.message, "no 'shards' array"));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   bson_destroy (r);
   r = json ("{\"shards\": [{\"_id\": \"a\", \"host\": \"rs/h:1\"}, {\"_id\": \"b\", \"host\": 5}]}");
   assert_false (lab_store_facts_shards_from_list (r, &s, &e));
   expect_bad_reply (&e, "shards.1.host");
   assert_null (s.shards);
   bson_destroy (r);
   r = json ("{\"shards\": [{\"_id\": \"a\", \"host\": \"rs/h:1\", \"state\": \"up\"}]}");
   assert_false (lab_store_facts_shards_from_list (r, &s, &e));
   expect_bad_reply (&e, "shards.0.state");
   bson_destroy (r);
   r = json ("{\"shards\": [{\"_id\": \"a\"}]}");
   assert_false (lab_store_facts_shards_from_list (r, &s, &e));
   assert_non_null (strstr (e.message, "shards.0 lacks host"));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   bson_destroy (r);
   r = json ("{\"shards\": [{\"_id\": \"a\", \"host\": \"rs/h:x\"}]}");
   assert_false (lab_store_facts_shards_from_list (r, &s, &e));
   assert_non_null (strstr (e.message, "shard 'a'"));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   bson_destroy (r);
}

/* ---- serverStatus -------------------------------------------------------------------------------- */

static void
test_server_status_mongod (void **state)
{
   lab_store_facts_status_t st;
   bson_error_t e;
   bson_t *r = fixture ("serverstatus-mongod-4.4.json");

   (void)state;
   /* 4.4-era types: int32 below 2^30, double below 2^40, int64 above */
   assert_true (lab_store_facts_server_status (r, &st, &e));
   assert_string_equal (st.host, "db1");
   assert_string_equal (st.version, "4.4.29");
   assert_string_equal (st.process, "mongod");
   assert_int_equal (st.pid, 2213);
   assert_true (st.uptime_s == 86400.0);
   assert_int_equal (st.mem_resident_bytes, (int64_t)52400 * 1024 * 1024);
   assert_true (st.has_wiredtiger);
   assert_int_equal (st.cache_bytes, 34720784384);        /* double on the wire */
   assert_int_equal (st.cache_max_bytes, 52613349376);    /* double */
   assert_int_equal (st.cache_read_bytes, 5497558138880); /* int64 */
   assert_int_equal (st.cache_pages_read, 812345678);     /* int32 */
   assert_int_equal (st.block_reads, 901234567);
   assert_int_equal (st.block_read_bytes, 7696581394432);
   /* the process's start: localTime - uptimeMillis */
   assert_int_equal (st.uptime_ms, 86400123);
   assert_int_equal (st.local_time_ms, INT64_C (1764536400000));
   assert_int_equal (st.start_ms, INT64_C (1764536400000) - 86400123);
   bson_destroy (r);

   r = fixture ("serverstatus-mongod-7.0.json");
   assert_true (lab_store_facts_server_status (r, &st, &e));
   assert_string_equal (st.host, "db1.example.net:27018");
   assert_int_equal (st.cache_bytes, 268000000);
   assert_int_equal (st.cache_max_bytes, 268435456);
   assert_int_equal (st.cache_read_bytes, 4294967296);
   assert_int_equal (st.block_reads, 41000);
   assert_int_equal (st.block_read_bytes, 168000000);
   assert_int_equal (st.mem_resident_bytes, 300 * 1024 * 1024);
   bson_destroy (r);
}

static void
test_server_status_mongos_and_partial (void **state)
{
   lab_store_facts_status_t st;
   bson_error_t e;
   bson_t *r = fixture ("serverstatus-mongos-7.0.json");

   (void)state;
   assert_true (lab_store_facts_server_status (r, &st, &e));
   assert_string_equal (st.process, "mongos");
   assert_false (st.has_wiredtiger);
   assert_int_equal (st.cache_bytes, -1);
   assert_int_equal (st.cache_max_bytes, -1);
   assert_int_equal (st.block_reads, -1);
   assert_int_equal (st.mem_resident_bytes, 118 * 1024 * 1024);
   bson_destroy (r);

   /* FerretDB-like: a few basic fields only */
   r = json ("{\"host\": \"ferret\", \"version\": \"7.0.77\", \"process\": \"ferretdb\", \"ok\": 1.0}");
   assert_true (lab_store_facts_server_status (r, &st, &e));
   assert_int_equal (st.pid, -1);
   assert_true (st.uptime_s == -1);
   assert_int_equal (st.mem_resident_bytes, -1);
   assert_false (st.has_wiredtiger);
   bson_destroy (r);

   /* a wiredTiger section without block-manager: only the cache figures */
   r = json ("{\"wiredTiger\": {\"cache\": "
             "{\"maximum bytes configured\": {\"$numberLong\": \"1073741824\"}}}}");
   assert_true (lab_store_facts_server_status (r, &st, &e));
   assert_true (st.has_wiredtiger);
   assert_int_equal (st.cache_max_bytes, 1073741824);
   assert_int_equal (st.cache_bytes, -1);
   assert_int_equal (st.block_read_bytes, -1);
   bson_destroy (r);
}

static void
test_server_status_bad (void **state)
{
   lab_store_facts_status_t st;
   bson_error_t e;
   bson_t *r;

   (void)state;
   r = json ("{\"uptime\": \"1 day\"}");
   assert_false (lab_store_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "'uptime' is string");
   bson_destroy (r);
   r = json ("{\"wiredTiger\": {\"cache\": {\"maximum bytes configured\": \"8G\"}}}");
   assert_false (lab_store_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "'wiredTiger.cache.maximum bytes configured'");
   bson_destroy (r);
   r = json ("{\"wiredTiger\": {\"block-manager\": {\"bytes read\": null}}}");
   assert_false (lab_store_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "wiredTiger.block-manager.bytes read' is null");
   bson_destroy (r);
   r = json ("{\"mem\": 5}");
   assert_false (lab_store_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "'mem' is int32, expected a document");
   bson_destroy (r);
   r = json ("{\"mem\": {\"resident\": {\"$numberDouble\": \"NaN\"}}}");
   assert_false (lab_store_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "mem.resident");
   bson_destroy (r);
   r = json ("{\"pid\": {\"$numberDecimal\": \"12\"}}");
   assert_false (lab_store_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "'pid' is decimal");
   bson_destroy (r);
   /* found by fuzz_serverfacts (300 s run): mem.resident is MiB, and MiB * 2^20 overflowed int64 */
   r = json ("{\"mem\": {\"resident\": {\"$numberLong\": \"8244250403970010288\"}}}");
   assert_false (lab_store_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "mem.resident");
   bson_destroy (r);
   r = json ("{\"mem\": {\"resident\": {\"$numberLong\": \"8796093022207\"}}}");
   assert_true (lab_store_facts_server_status (r, &st, &e));
   assert_int_equal (st.mem_resident_bytes, (int64_t)8796093022207 * 1024 * 1024);
   bson_destroy (r);
}

/* ---- getDiagnosticData --------------------------------------------------------------------------- */

static void
test_diag_disks (void **state)
{
   lab_store_facts_disks_t a, b;
   const lab_store_facts_disk_t *d;
   bson_error_t e;
   bson_t *ra = fixture ("getdiagnosticdata-a-4.4.json"), *rb = fixture ("getdiagnosticdata-b-4.4.json");

   (void)state;
   assert_true (lab_store_facts_disks_from_diag (ra, &a, &e));
   assert_true (lab_store_facts_disks_from_diag (rb, &b, &e));
   assert_true (a.have_system_metrics);
   assert_true (a.have_disks);
   assert_int_equal (a.ndisks, 2);
   assert_int_equal (b.ndisks, 3);
   assert_int_equal (a.start_ms, 1764536400005);
   assert_int_equal (a.end_ms, 1764536400009);
   d = lab_store_facts_disks_find (&a, "/dev/nvme0n1");
   assert_non_null (d);
   assert_int_equal (d->reads, 1206110);           /* int32 */
   assert_int_equal (d->read_sectors, 1500000000); /* double on the wire */
   assert_int_equal (d->io_queued_ms, 3554160);
   d = lab_store_facts_disks_find (&a, "sda");
   assert_int_equal (d->write_sectors, 1200000000000); /* int64 */
   assert_int_equal (d->io_in_progress, 1);
   assert_null (lab_store_facts_disks_find (&a, "sdb"));
   assert_true (lab_store_facts_disks_elapsed_s (&a, &b) == 10.0);
   assert_true (lab_store_facts_disks_elapsed_s (&a, &a) == 0.0);
   lab_store_facts_disks_cleanup (&a);
   lab_store_facts_disks_cleanup (&b);
   bson_destroy (ra);
   bson_destroy (rb);
}

static void
test_diag_layouts (void **state)
{
   lab_store_facts_disks_t d;
   bson_error_t e;
   bson_t *r;

   (void)state;
   r = fixture ("getdiagnosticdata-mongos-nodisks.json");
   assert_true (lab_store_facts_disks_from_diag (r, &d, &e));
   assert_true (d.have_system_metrics);
   assert_false (d.have_disks);
   assert_int_equal (d.ndisks, 0);
   assert_int_equal (d.end_ms, 1764536400009);
   lab_store_facts_disks_cleanup (&d);
   bson_destroy (r);

   r = fixture ("getdiagnosticdata-empty.json");
   assert_true (lab_store_facts_disks_from_diag (r, &d, &e));
   assert_false (d.have_system_metrics);
   assert_int_equal (d.end_ms, -1);
   assert_true (lab_store_facts_disks_elapsed_s (&d, &d) == -1);
   bson_destroy (r);

   r = fixture ("getdiagnosticdata-multiservice.json");
   assert_true (lab_store_facts_disks_from_diag (r, &d, &e));
   assert_true (d.have_disks);
   assert_int_equal (d.ndisks, 1);
   assert_string_equal (d.disks[0].name, "vda");
   assert_int_equal (d.disks[0].read_sectors, 80);
   assert_int_equal (d.end_ms, 1764536400003);
   lab_store_facts_disks_cleanup (&d);
   bson_destroy (r);

   /* systemMetrics without its own end: the sample's end */
   r = json ("{\"data\": {\"systemMetrics\": {\"disks\": {}}, "
             "\"end\": {\"$date\": {\"$numberLong\": \"77\"}}}}");
   assert_true (lab_store_facts_disks_from_diag (r, &d, &e));
   assert_true (d.have_disks);
   assert_int_equal (d.ndisks, 0);
   assert_int_equal (d.end_ms, 77);
   bson_destroy (r);

   /* a disk missing counters (older kernels): -1, not an error */
   r = json ("{\"data\": {\"systemMetrics\": {\"disks\": {\"sda\": {\"reads\": 3}}}}}");
   assert_true (lab_store_facts_disks_from_diag (r, &d, &e));
   assert_int_equal (d.disks[0].reads, 3);
   assert_int_equal (d.disks[0].io_queued_ms, -1);
   lab_store_facts_disks_cleanup (&d);
   bson_destroy (r);

   r = json ("{\"data\": {\"systemMetrics\": {\"disks\": {\"sda\": {\"reads\": \"3\"}}}}}");
   assert_false (lab_store_facts_disks_from_diag (r, &d, &e));
   expect_bad_reply (&e, "data.systemMetrics.disks.sda.reads");
   assert_null (d.disks);
   bson_destroy (r);
   r = json ("{\"data\": {\"common\": {\"systemMetrics\": {\"disks\": {\"vda\": []}}}}}");
   assert_false (lab_store_facts_disks_from_diag (r, &d, &e));
   expect_bad_reply (&e, "data.common.systemMetrics.disks.vda");
   bson_destroy (r);
   r = json ("{\"data\": {\"systemMetrics\": {\"end\": 5}}}");
   assert_false (lab_store_facts_disks_from_diag (r, &d, &e));
   expect_bad_reply (&e, "data.systemMetrics.end' is int32, expected a date");
   bson_destroy (r);
   r = json ("{\"data\": 1}");
   assert_false (lab_store_facts_disks_from_diag (r, &d, &e));
   expect_bad_reply (&e, "'data'");
   bson_destroy (r);
}

static void
test_disk_delta (void **state)
{
   lab_store_facts_disks_t a, b;
   lab_store_facts_disk_delta_t d;
   bson_error_t e;
   bson_t *ra = fixture ("getdiagnosticdata-a-4.4.json"), *rb = fixture ("getdiagnosticdata-b-4.4.json");
   double dt;

   (void)state;
   assert_true (lab_store_facts_disks_from_diag (ra, &a, &e));
   assert_true (lab_store_facts_disks_from_diag (rb, &b, &e));
   dt = lab_store_facts_disks_elapsed_s (&a, &b);
   lab_store_facts_disk_delta (lab_store_facts_disks_find (&a, "nvme0n1"),
                               lab_store_facts_disks_find (&b, "nvme0n1"), dt, &d);
   assert_int_equal (d.reads, 39170);
   assert_int_equal (d.read_bytes, 317600 * 512);
   assert_int_equal (d.read_time_ms, 78340);
   assert_int_equal (d.io_ticks_ms, 9500);
   assert_near (d.reads_per_s, 3917.0, 1e-9);
   assert_near (d.read_kb_s, 15880.0, 1e-9);
   assert_near (d.read_mb_s, 16.2611200, 1e-9);
   assert_near (d.read_await_ms, 2.0, 1e-9);
   assert_near (d.avg_read_bytes, 4151.4220066377, 1e-6);
   assert_near (d.util_pct, 95.0, 1e-9);

   /* absent from the older sample: counts from zero */
   lab_store_facts_disk_delta (NULL, lab_store_facts_disks_find (&b, "sdb"), dt, &d);
   assert_int_equal (d.reads, 5);
   assert_near (d.read_kb_s, 2.0, 1e-9);

   /* the same sample twice: no rates, no division by zero */
   lab_store_facts_disk_delta (lab_store_facts_disks_find (&a, "sda"), lab_store_facts_disks_find (&a, "sda"),
                               0, &d);
   assert_int_equal (d.reads, 0);
   assert_true (d.reads_per_s == 0 && d.util_pct == 0);
   assert_true (d.read_await_ms == -1 && d.avg_read_bytes == -1);
   lab_store_facts_disks_cleanup (&a);
   lab_store_facts_disks_cleanup (&b);
   bson_destroy (ra);
   bson_destroy (rb);
}

static void
test_disk_delta_wrap_and_cap (void **state)
{
   lab_store_facts_disk_t a, b;
   lab_store_facts_disk_delta_t d;

   (void)state;
   memset (&a, 0xff, sizeof a); /* every counter -1: absent counts as 0 */
   memset (&b, 0, sizeof b);
   b.reads = 10;
   lab_store_facts_disk_delta (&a, &b, 1.0, &d);
   assert_int_equal (d.reads, 10);
   assert_int_equal (d.read_bytes, 0);

   memset (&a, 0, sizeof a);
   a.reads = 4294967290; /* a 32-bit counter about to wrap */
   b.reads = 6;
   a.read_sectors = 5000000000; /* a 64-bit counter that went backwards: a reset */
   b.read_sectors = 100;
   a.io_time_ms = 0;
   b.io_time_ms = 3000; /* more busy time than wall time (merged queues): capped */
   lab_store_facts_disk_delta (&a, &b, 2.0, &d);
   assert_int_equal (d.reads, 12);
   assert_int_equal (d.read_bytes, 0);
   assert_near (d.util_pct, 100.0, 1e-9);
}

static void
test_disk_pick (void **state)
{
   lab_store_facts_disks_t a, b, none;
   const lab_store_facts_disk_t *da, *db;
   char reason[256];
   bson_error_t e;
   bson_t *ra = fixture ("getdiagnosticdata-a-4.4.json"), *rb = fixture ("getdiagnosticdata-b-4.4.json");
   bson_t *rn = fixture ("getdiagnosticdata-mongos-nodisks.json");

   (void)state;
   assert_true (lab_store_facts_disks_from_diag (ra, &a, &e));
   assert_true (lab_store_facts_disks_from_diag (rb, &b, &e));
   assert_true (lab_store_facts_disks_from_diag (rn, &none, &e));

   /* sda wrote far more, nvme0n1 read more: reads decide */
   assert_true (lab_store_facts_disks_pick (&a, &b, NULL, &da, &db, reason, sizeof reason, &e));
   assert_string_equal (db->name, "nvme0n1");
   assert_ptr_equal (da, lab_store_facts_disks_find (&a, "nvme0n1"));
   assert_non_null (strstr (reason, "most read activity"));
   assert_non_null (strstr (reason, "317600 sectors"));

   assert_true (lab_store_facts_disks_pick (&a, &b, "/dev/sdb", &da, &db, reason, sizeof reason, &e));
   assert_string_equal (db->name, "sdb");
   assert_null (da);
   assert_non_null (strstr (reason, "named by the user"));

   assert_false (lab_store_facts_disks_pick (&a, &b, "vdz", &da, &db, NULL, 0, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_non_null (strstr (e.message, "nvme0n1, sda, sdb"));

   /* no activity at all: the first listed, and the reason says so */
   assert_true (lab_store_facts_disks_pick (&a, &a, NULL, &da, &db, reason, sizeof reason, &e));
   assert_string_equal (db->name, "nvme0n1");
   assert_non_null (strstr (reason, "none read"));

   assert_false (lab_store_facts_disks_pick (&none, &none, NULL, &da, &db, NULL, 0, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED));
   lab_store_facts_disks_cleanup (&a);
   lab_store_facts_disks_cleanup (&b);
   lab_store_facts_disks_cleanup (&none);
   bson_destroy (ra);
   bson_destroy (rb);
   bson_destroy (rn);
}

/* ---- explain ------------------------------------------------------------------------------------- */

/* explain_fixture -- parse an explain fixture, expecting success. */
static void
explain_fixture (const char *name, lab_store_facts_plan_t *p)
{
   bson_error_t e;
   bson_t *r = fixture (name);

   if (!lab_store_facts_explain_parse (r, p, &e)) {
      fail_msg ("%s: %s", name, e.message);
   }
   bson_destroy (r);
}

static void
test_explain_classic (void **state)
{
   lab_store_facts_plan_t p;

   (void)state;
   /* 4.2, the pipeline absorbed by the query layer, the index gives the order */
   explain_fixture ("explain-classic-4.2-ixscan.json", &p);
   assert_int_equal (p.nparts, 1);
   assert_false (p.sharded);
   assert_string_equal (p.parts[0].engine, "classic");
   assert_string_equal (p.parts[0].stages, "FETCH > IXSCAN");
   assert_string_equal (p.parts[0].index, "bill_id_1");
   assert_false (p.blocking_sort);
   assert_false (p.multikey);
   assert_false (p.collscan);

   /* 4.2, {bill_id: 1, _id: 1} over {bill_id: 1}: SORT in the $cursor stage's plan */
   explain_fixture ("explain-classic-4.2-sort.json", &p);
   assert_int_equal (p.nparts, 1);
   assert_string_equal (p.parts[0].stages, "SORT > SORT_KEY_GENERATOR > FETCH > IXSCAN");
   assert_true (p.blocking_sort);
   assert_false (p.parts[0].pipeline_sort);

   /* 4.4, a multikey key index: the plan sorts */
   explain_fixture ("explain-classic-4.4-multikey.json", &p);
   assert_true (p.blocking_sort);
   assert_true (p.multikey);
   assert_string_equal (p.parts[0].stages, "SORT > FETCH > IXSCAN");
}

static void
test_explain_sbe (void **state)
{
   lab_store_facts_plan_t p;

   (void)state;
   explain_fixture ("explain-sbe-7.0-ixscan.json", &p);
   assert_int_equal (p.nparts, 1);
   assert_string_equal (p.parts[0].engine, "sbe");
   assert_string_equal (p.parts[0].stages, "FETCH > IXSCAN");
   assert_string_equal (p.parts[0].index, "bill_id_1");
   assert_false (p.blocking_sort);

   explain_fixture ("explain-sbe-7.0-sort.json", &p);
   assert_string_equal (p.parts[0].engine, "sbe");
   assert_string_equal (p.parts[0].stages, "SORT > FETCH > IXSCAN");
   assert_true (p.blocking_sort);
}

static void
test_explain_sharded (void **state)
{
   lab_store_facts_plan_t p;

   (void)state;
   /* a sharded find: winningPlan.shards[], one part per shard, each with its own engine */
   explain_fixture ("explain-sharded-6.0.json", &p);
   assert_true (p.sharded);
   assert_int_equal (p.nparts, 2);
   assert_string_equal (p.parts[0].shard, "shard01");
   assert_string_equal (p.parts[0].engine, "classic");
   assert_string_equal (p.parts[0].stages, "SHARDING_FILTER > FETCH > IXSCAN");
   assert_false (p.parts[0].blocking_sort);
   assert_string_equal (p.parts[1].shard, "shard02");
   assert_string_equal (p.parts[1].engine, "sbe");
   assert_true (p.parts[1].blocking_sort);
   assert_true (p.parts[1].multikey);
   assert_true (p.blocking_sort); /* any shard's */
   assert_true (p.multikey);

   /* an aggregate through mongos: shards{}, a queryPlanner on one, stages[] with a $sort on the other */
   explain_fixture ("explain-sharded-agg-7.0.json", &p);
   assert_true (p.sharded);
   assert_int_equal (p.nparts, 2);
   assert_string_equal (p.parts[0].shard, "shard01");
   assert_false (p.parts[0].blocking_sort);
   assert_string_equal (p.parts[1].shard, "shard02");
   assert_string_equal (p.parts[1].stages, "COLLSCAN");
   assert_true (p.parts[1].pipeline_sort);
   assert_true (p.parts[1].blocking_sort);
   assert_true (p.collscan);
}

static void
test_explain_ferretdb (void **state)
{
   lab_store_facts_plan_t p;

   (void)state;
   /* what FerretDB 1.24.2 answered on the test server to the fold's explain (captured) */
   explain_fixture ("explain-ferretdb-1.24.json", &p);
   assert_int_equal (p.nparts, 1);
   assert_string_equal (p.parts[0].engine, "ferretdb");
   assert_true (p.blocking_sort); /* sortPushdown false: it sorts in memory */
   assert_true (p.collscan);      /* SCAN of its table */
}

static void
test_explain_bad (void **state)
{
   lab_store_facts_plan_t p;
   bson_error_t e;
   bson_t *r;

   (void)state;
   r = json ("{\"ok\": 1}");
   assert_false (lab_store_facts_explain_parse (r, &p, &e));
   expect_bad_reply (&e, "queryPlanner");
   bson_destroy (r);
   r = json ("{\"queryPlanner\": {\"winningPlan\": {\"stage\": \"FETCH\", \"inputStage\": [1]}}}");
   assert_false (lab_store_facts_explain_parse (r, &p, &e));
   expect_bad_reply (&e, "inputStage");
   bson_destroy (r);
   r = json ("{\"queryPlanner\": {\"winningPlan\": {\"stage\": 7}}}");
   assert_false (lab_store_facts_explain_parse (r, &p, &e));
   expect_bad_reply (&e, "stage");
   bson_destroy (r);
}

/* ---- restarts ------------------------------------------------------------------------------------ */

/* proc -- a server as restart detection sees it. */
static lab_store_facts_proc_t
proc (const char *host, int64_t pid, int64_t start_ms, double uptime_s)
{
   lab_store_facts_proc_t p;

   memset (&p, 0, sizeof p);
   snprintf (p.host, sizeof p.host, "%s", host);
   p.pid = pid;
   p.start_ms = start_ms;
   p.uptime_s = uptime_s;
   return p;
}

static void
test_restart_of (void **state)
{
   lab_store_facts_proc_t a, b;
   char why[512];

   (void)state;
   /* the same host, a new start time (and pid): restarted */
   a = proc ("db1:27017", 100, 1000000, 50);
   b = proc ("db1:27017", 200, 1090000, 3);
   assert_int_equal (lab_store_facts_restart_of (&a, &b, why, sizeof why), LAB_RESTART_SAME_HOST);
   assert_non_null (strstr (why, "started"));
   /* the pid reused (a container's pid 1) with a new start time: restarted */
   a = proc ("db1:27017", 1, 1000000, 50);
   b = proc ("db1:27017", 1, 1090000, 3);
   assert_int_equal (lab_store_facts_restart_of (&a, &b, why, sizeof why), LAB_RESTART_SAME_HOST);
   /* a new host (a failover to a warm secondary), whatever its pid and start: member changed */
   a = proc ("db1:27017", 100, 1000000, 50);
   b = proc ("db2:27017", 300, 900000, 5000);
   assert_int_equal (lab_store_facts_restart_of (&a, &b, why, sizeof why), LAB_RESTART_MEMBER_CHANGED);
   assert_string_equal (lab_store_facts_restart_name (LAB_RESTART_MEMBER_CHANGED), "member_changed");
   assert_non_null (strstr (why, "db2:27017"));
   /* the same process: the start time read again within the clocks' slack */
   a = proc ("db1:27017", 100, 1000000, 50);
   b = proc ("db1:27017", 100, 1000000 + LAB_FACTS_START_SLACK_MS - 1, 80);
   assert_int_equal (lab_store_facts_restart_of (&a, &b, why, sizeof why), LAB_RESTART_NONE);
   b.start_ms = 1000000 - (LAB_FACTS_START_SLACK_MS - 1);
   assert_int_equal (lab_store_facts_restart_of (&a, &b, why, sizeof why), LAB_RESTART_NONE);
   /* without start times: a new pid, or an uptime that went back */
   a = proc ("db1:27017", 100, -1, 50);
   b = proc ("db1:27017", 101, -1, 60);
   assert_int_equal (lab_store_facts_restart_of (&a, &b, why, sizeof why), LAB_RESTART_SAME_HOST);
   b = proc ("db1:27017", 100, -1, 2);
   assert_int_equal (lab_store_facts_restart_of (&a, &b, why, sizeof why), LAB_RESTART_SAME_HOST);
   b = proc ("db1:27017", 100, -1, 70);
   assert_int_equal (lab_store_facts_restart_of (&a, &b, why, sizeof why), LAB_RESTART_NONE);
   /* an unknown host on one side is no member change */
   a = proc ("", 100, 1000000, 50);
   b = proc ("db1:27017", 100, 1000000, 60);
   assert_int_equal (lab_store_facts_restart_of (&a, &b, why, sizeof why), LAB_RESTART_NONE);
}

/* test_restart_from_replies -- the start time read from two emulated serverStatus replies */
static void
test_restart_from_replies (void **state)
{
   lab_store_facts_status_t s1, s2;
   lab_store_facts_proc_t a, b;
   bson_error_t e;
   char why[512];
   bson_t *r1 = json ("{\"host\": \"db1:27017\", \"pid\": {\"$numberLong\": \"4242\"}, \"uptimeMillis\": "
                      "{\"$numberLong\": \"600000\"}, \"localTime\": {\"$date\": {\"$numberLong\": "
                      "\"1764536400000\"}}, \"ok\": 1}");
   /* 5 s later, the same pid, 3 s of uptime: started 602 s after the first (600 s before + 2 s after) */
   bson_t *r2 = json ("{\"host\": \"db1:27017\", \"pid\": {\"$numberLong\": \"4242\"}, \"uptimeMillis\": "
                      "{\"$numberLong\": \"3000\"}, \"localTime\": {\"$date\": {\"$numberLong\": "
                      "\"1764536405000\"}}, \"ok\": 1}");

   (void)state;
   assert_true (lab_store_facts_server_status (r1, &s1, &e));
   assert_true (lab_store_facts_server_status (r2, &s2, &e));
   a = proc (s1.host, s1.pid, s1.start_ms, s1.uptime_s);
   b = proc (s2.host, s2.pid, s2.start_ms, s2.uptime_s);
   assert_int_equal (b.start_ms - a.start_ms, 602000);
   assert_int_equal (lab_store_facts_restart_of (&a, &b, why, sizeof why), LAB_RESTART_SAME_HOST);
   bson_destroy (r1);
   bson_destroy (r2);
   r1 = json ("{\"localTime\": 5, \"ok\": 1}");
   assert_false (lab_store_facts_server_status (r1, &s1, &e));
   expect_bad_reply (&e, "localTime");
   bson_destroy (r1);
}

/* ---- FTDC on other platforms --------------------------------------------------------------------- */

static void
test_diag_windows (void **state)
{
   lab_store_facts_disks_t d;
   bson_error_t e;
   char os[64], note[400];
   bson_t *r = fixture ("hostinfo-windows-7.0.json");

   (void)state;
   assert_true (lab_store_facts_host_os (r, os, sizeof os, &e));
   assert_string_equal (os, "Windows");
   assert_true (lab_store_facts_disks_platform_note (os, note, sizeof note));
   assert_non_null (strstr (note, "Windows"));
   assert_false (lab_store_facts_disks_platform_note ("Linux", note, sizeof note));
   assert_false (lab_store_facts_disks_platform_note ("", note, sizeof note));
   bson_destroy (r);
   /* the disks themselves: performance counters, none of the Linux fields: not kept, never zeros */
   r = fixture ("getdiagnosticdata-windows-7.0.json");
   assert_true (lab_store_facts_disks_from_diag (r, &d, &e));
   assert_true (d.have_system_metrics);
   assert_true (d.disks_not_linux);
   assert_false (d.have_disks);
   assert_int_equal (d.ndisks, 0);
   lab_store_facts_disks_cleanup (&d);
   bson_destroy (r);
   /* a Linux sample keeps its disks */
   r = fixture ("getdiagnosticdata-a-4.4.json");
   assert_true (lab_store_facts_disks_from_diag (r, &d, &e));
   assert_false (d.disks_not_linux);
   assert_true (d.have_disks);
   lab_store_facts_disks_cleanup (&d);
   bson_destroy (r);
}

/* ---- listIndexes: which index can serve the sorted read ----------------------------------------- */

static void
test_index_serves_sort (void **state)
{
   int rank;
   bson_t *d;

   (void)state;
#define SERVES(j, expect)                                                                                    \
   d = json (j);                                                                                             \
   assert_int_equal (lab_store_facts_index_serves_sort (d, "bill_id", &rank), expect);                       \
   bson_destroy (d)
   SERVES ("{\"v\": 2, \"key\": {\"bill_id\": 1}, \"name\": \"bill_id_1\"}", true);
   assert_int_equal (rank, 2);
   SERVES ("{\"v\": 2, \"key\": {\"bill_id\": -1}, \"name\": \"bill_id_-1\"}", true);
   assert_int_equal (rank, 3);
   SERVES ("{\"v\": 2, \"key\": {\"bill_id\": 1, \"line_no\": 1}, \"name\": \"c\"}", true);
   assert_int_equal (rank, 4);
   /* the docs' listIndexes entry of a hidden index (core/index-hidden): cannot be hinted */
   SERVES ("{\"v\": 2, \"key\": {\"bill_id\": 1}, \"name\": \"bill_id_1\", \"hidden\": true}", false);
   SERVES ("{\"v\": 2, \"key\": {\"bill_id\": 1}, \"name\": \"bill_id_1\", \"hidden\": false}", true);
   SERVES ("{\"v\": 2, \"key\": {\"bill_id\": 1}, \"name\": \"s\", \"sparse\": true}", false);
   SERVES ("{\"v\": 2, \"key\": {\"bill_id\": 1}, \"name\": \"p\", \"partialFilterExpression\": {}}", false);
   SERVES ("{\"v\": 2, \"key\": {\"bill_id\": \"hashed\"}, \"name\": \"h\"}", false);
   SERVES ("{\"v\": 2, \"key\": {\"line_no\": 1, \"bill_id\": 1}, \"name\": \"o\"}", false);
#undef SERVES
}

/* test_product -- which product answers: FerretDB by buildInfo's ferretdbVersion, even behind a proxy that
 * answers hello as mongos; mongos by hello's msg; mongod by buildInfo's storageEngines or its commit; a
 * server that says neither is unknown, never assumed mongod. */
static void
test_product (void **state)
{
   bson_t *bm = fixture ("buildinfo-mongod-7.0.json"), *bf = fixture ("buildinfo-ferretdb-1.24.json");
   bson_t *hs = fixture ("hello-standalone-4.2-ismaster.json"), *hm = fixture ("hello-mongos-7.0.json");
   bson_t *bare = json ("{\"version\": \"7.0.0\", \"gitVersion\": \"unknown\", \"ok\": 1}");
   bson_t *commit = json ("{\"version\": \"4.2.1\", \"gitVersion\": "
                          "\"edf6d45851c0b9ee15548f0f847df141764a317e\", \"ok\": 1}");

   (void)state;
   assert_string_equal (lab_store_facts_product (hs, bm), "mongod");
   assert_string_equal (lab_store_facts_product (hs, commit), "mongod");
   assert_string_equal (lab_store_facts_product (hm, bm), "mongos");
   assert_string_equal (lab_store_facts_product (hs, bf), "ferretdb");
   assert_string_equal (lab_store_facts_product (hm, bf), "ferretdb");
   assert_string_equal (lab_store_facts_product (NULL, bf), "ferretdb");
   assert_string_equal (lab_store_facts_product (hs, bare), "unknown");
   assert_string_equal (lab_store_facts_product (hs, NULL), "unknown");
   assert_string_equal (lab_store_facts_product (NULL, NULL), "unknown");
   bson_destroy (bm);
   bson_destroy (bf);
   bson_destroy (hs);
   bson_destroy (hm);
   bson_destroy (bare);
   bson_destroy (commit);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_hello_standalone_legacy),
      cmocka_unit_test (test_hello_replset),
      cmocka_unit_test (test_hello_mongos),
      cmocka_unit_test (test_hello_bad_and_empty),
      cmocka_unit_test (test_seed_list),
      cmocka_unit_test (test_list_shards),
      cmocka_unit_test (test_server_status_mongod),
      cmocka_unit_test (test_server_status_mongos_and_partial),
      cmocka_unit_test (test_server_status_bad),
      cmocka_unit_test (test_diag_disks),
      cmocka_unit_test (test_diag_layouts),
      cmocka_unit_test (test_disk_delta),
      cmocka_unit_test (test_disk_delta_wrap_and_cap),
      cmocka_unit_test (test_disk_pick),
      cmocka_unit_test (test_explain_classic),
      cmocka_unit_test (test_explain_sbe),
      cmocka_unit_test (test_explain_sharded),
      cmocka_unit_test (test_explain_ferretdb),
      cmocka_unit_test (test_explain_bad),
      cmocka_unit_test (test_restart_of),
      cmocka_unit_test (test_restart_from_replies),
      cmocka_unit_test (test_diag_windows),
      cmocka_unit_test (test_index_serves_sort),
      cmocka_unit_test (test_product),
   };

   return lab_test_run_group ("serverfacts", tests, NULL, NULL);
}
