/*
 * test_serverfacts.c -- unit tests of core/serverfacts: hello, listShards, serverStatus and getDiagnosticData
 * replies recorded as canonical extended JSON (tests/core/data/serverfacts/, types as mongod sends them),
 * the iostat arithmetic between two FTDC samples and the choice of the disk to report.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "core/serverfacts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fixture -- tests/core/data/serverfacts/<name> parsed into a new bson_t (caller destroys). */
static bson_t *
fixture (const char *name)
{
   const char *src = getenv ("LAB_SOURCE_DIR");
   char path[4096];

   snprintf (path, sizeof path, "%s/tests/core/data/serverfacts/%s", src ? src : ".", name);
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
   lab_facts_topology_t t;
   bson_error_t e;
   bson_t *r = fixture ("hello-standalone-4.2-ismaster.json");

   (void)state;
   assert_true (lab_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_STANDALONE);
   assert_string_equal (lab_topology_kind_name (t.kind), "standalone");
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
   lab_facts_topology_cleanup (&t);
   bson_destroy (r);
}

static void
test_hello_replset (void **state)
{
   lab_facts_topology_t t;
   bson_error_t e;
   bson_t *r = fixture ("hello-replset-primary-6.0.json");

   (void)state;
   assert_true (lab_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_REPLSET);
   assert_string_equal (t.set_name, "rs0");
   assert_string_equal (t.me, "db1.example.net:27017");
   assert_string_equal (t.primary, "db1.example.net:27017");
   assert_true (t.is_writable_primary);
   assert_int_equal (t.topology_counter, 6);
   assert_int_equal (t.nhosts, 3);
   assert_string_equal (t.hosts[2], "db3.example.net:27017");
   assert_null (t.hosts[3]);
   lab_facts_topology_cleanup (&t);
   bson_destroy (r);

   r = fixture ("hello-replset-secondary-8.0.json");
   assert_true (lab_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_REPLSET);
   assert_false (t.is_writable_primary);
   assert_true (t.is_secondary);
   assert_string_equal (t.me, "db2.example.net:27017");
   assert_string_equal (t.primary, "db1.example.net:27017");
   assert_int_equal (t.max_wire_version, 25);
   lab_facts_topology_cleanup (&t);
   bson_destroy (r);

   /* a member not yet initiated: isreplicaset without setName */
   r = json ("{\"ismaster\": false, \"secondary\": false, \"isreplicaset\": true, "
             "\"info\": \"Does not have a valid replica set config\", \"ok\": 1.0}");
   assert_true (lab_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_REPLSET);
   assert_false (t.is_writable_primary);
   lab_facts_topology_cleanup (&t);
   bson_destroy (r);
}

static void
test_hello_mongos (void **state)
{
   lab_facts_topology_t t;
   bson_error_t e;
   bson_t *r = fixture ("hello-mongos-7.0.json");

   (void)state;
   assert_true (lab_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_MONGOS);
   assert_string_equal (lab_topology_kind_name (t.kind), "mongos");
   assert_true (t.is_writable_primary);
   assert_int_equal (t.topology_counter, 0);
   assert_int_equal (t.max_write_batch, 100000);
   assert_int_equal (t.nhosts, 0);
   lab_facts_topology_cleanup (&t);
   bson_destroy (r);
}

static void
test_hello_bad_and_empty (void **state)
{
   lab_facts_topology_t t;
   bson_error_t e;
   bson_t *r;

   (void)state;
   r = json ("{\"isWritablePrimary\": true, \"setName\": 7, \"ok\": 1}");
   assert_false (lab_facts_topology_from_hello (r, &t, &e));
   expect_bad_reply (&e, "'setName' is int32, expected a string");
   assert_int_equal (t.nhosts, 0);
   bson_destroy (r);

   r = json ("{\"hosts\": [\"a:1\", 2], \"setName\": \"rs\", \"ok\": 1}");
   assert_false (lab_facts_topology_from_hello (r, &t, &e));
   expect_bad_reply (&e, "hosts.1");
   assert_null (t.hosts); /* freed on failure */
   bson_destroy (r);

   r = json ("{\"maxBsonObjectSize\": \"16MB\", \"ok\": 1}");
   assert_false (lab_facts_topology_from_hello (r, &t, &e));
   expect_bad_reply (&e, "maxBsonObjectSize");
   bson_destroy (r);

   r = json ("{\"topologyVersion\": {\"counter\": \"x\"}, \"ok\": 1}");
   assert_false (lab_facts_topology_from_hello (r, &t, &e));
   expect_bad_reply (&e, "topologyVersion.counter");
   bson_destroy (r);

   /* a refused command and an empty reply say nothing, without failing */
   r = json ("{\"ok\": 0, \"errmsg\": \"not authorized\", \"code\": 13}");
   assert_true (lab_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_UNKNOWN);
   bson_destroy (r);
   r = bson_new ();
   assert_true (lab_facts_topology_from_hello (r, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_STANDALONE);
   assert_int_equal (t.max_bson_bytes, -1);
   bson_destroy (r);
   assert_true (lab_facts_topology_from_hello (NULL, &t, &e));
   assert_int_equal (t.kind, LAB_TOPO_UNKNOWN);
}

/* ---- listShards ---------------------------------------------------------------------------------- */

static void
test_seed_list (void **state)
{
   lab_facts_hostport_t *seeds;
   char *set;
   size_t n;
   bson_error_t e;

   (void)state;
   assert_true (lab_facts_parse_seed_list ("rsA/h1:27018,h2", &set, &seeds, &n, &e));
   assert_string_equal (set, "rsA");
   assert_int_equal (n, 2);
   assert_string_equal (seeds[0].host, "h1");
   assert_int_equal (seeds[0].port, 27018);
   assert_string_equal (seeds[1].host, "h2");
   assert_int_equal (seeds[1].port, 27017);
   bson_free (set);
   bson_free (seeds);

   assert_true (lab_facts_parse_seed_list ("[::1]:27019", &set, &seeds, &n, &e));
   assert_null (set);
   assert_int_equal (n, 1);
   assert_string_equal (seeds[0].host, "::1");
   assert_int_equal (seeds[0].port, 27019);
   bson_free (seeds);

   assert_false (lab_facts_parse_seed_list ("rs/h1:0", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_non_null (strstr (e.message, "h1:0"));
   assert_null (set);
   assert_null (seeds);
   assert_false (lab_facts_parse_seed_list ("rs/h1:27017,", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (lab_facts_parse_seed_list ("/h1", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (lab_facts_parse_seed_list ("", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (lab_facts_parse_seed_list ("h1:99999", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (lab_facts_parse_seed_list ("h1:12a", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (lab_facts_parse_seed_list ("fe80::1:27017", &set, &seeds, &n, &e)); /* IPv6 needs brackets */
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   assert_false (lab_facts_parse_seed_list ("[::1", &set, &seeds, &n, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
}

static void
test_list_shards (void **state)
{
   lab_facts_shards_t s;
   bson_error_t e;
   bson_t *r = fixture ("listshards-7.0.json");

   (void)state;
   assert_true (lab_facts_shards_from_list (r, &s, &e));
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
   lab_facts_shards_cleanup (&s);
   assert_int_equal (s.nshards, 0);
   bson_destroy (r);

   r = json ("{\"ok\": 0, \"errmsg\": \"no such command: 'listShards'\", \"code\": 59}");
   assert_false (lab_facts_shards_from_list (r, &s, &e));
   assert_non_null (strstr (e.message, "no 'shards' array"));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   bson_destroy (r);
   r = json ("{\"shards\": [{\"_id\": \"a\", \"host\": \"rs/h:1\"}, {\"_id\": \"b\", \"host\": 5}]}");
   assert_false (lab_facts_shards_from_list (r, &s, &e));
   expect_bad_reply (&e, "shards.1.host");
   assert_null (s.shards);
   bson_destroy (r);
   r = json ("{\"shards\": [{\"_id\": \"a\", \"host\": \"rs/h:1\", \"state\": \"up\"}]}");
   assert_false (lab_facts_shards_from_list (r, &s, &e));
   expect_bad_reply (&e, "shards.0.state");
   bson_destroy (r);
   r = json ("{\"shards\": [{\"_id\": \"a\"}]}");
   assert_false (lab_facts_shards_from_list (r, &s, &e));
   assert_non_null (strstr (e.message, "shards.0 lacks host"));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   bson_destroy (r);
   r = json ("{\"shards\": [{\"_id\": \"a\", \"host\": \"rs/h:x\"}]}");
   assert_false (lab_facts_shards_from_list (r, &s, &e));
   assert_non_null (strstr (e.message, "shard 'a'"));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY));
   bson_destroy (r);
}

/* ---- serverStatus -------------------------------------------------------------------------------- */

static void
test_server_status_mongod (void **state)
{
   lab_facts_status_t st;
   bson_error_t e;
   bson_t *r = fixture ("serverstatus-mongod-4.4.json");

   (void)state;
   /* 4.4-era types: int32 below 2^30, double below 2^40, int64 above */
   assert_true (lab_facts_server_status (r, &st, &e));
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
   bson_destroy (r);

   r = fixture ("serverstatus-mongod-7.0.json");
   assert_true (lab_facts_server_status (r, &st, &e));
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
   lab_facts_status_t st;
   bson_error_t e;
   bson_t *r = fixture ("serverstatus-mongos-7.0.json");

   (void)state;
   assert_true (lab_facts_server_status (r, &st, &e));
   assert_string_equal (st.process, "mongos");
   assert_false (st.has_wiredtiger);
   assert_int_equal (st.cache_bytes, -1);
   assert_int_equal (st.cache_max_bytes, -1);
   assert_int_equal (st.block_reads, -1);
   assert_int_equal (st.mem_resident_bytes, 118 * 1024 * 1024);
   bson_destroy (r);

   /* FerretDB-like: a few basic fields only */
   r = json ("{\"host\": \"ferret\", \"version\": \"7.0.77\", \"process\": \"ferretdb\", \"ok\": 1.0}");
   assert_true (lab_facts_server_status (r, &st, &e));
   assert_int_equal (st.pid, -1);
   assert_true (st.uptime_s == -1);
   assert_int_equal (st.mem_resident_bytes, -1);
   assert_false (st.has_wiredtiger);
   bson_destroy (r);

   /* a wiredTiger section without block-manager: only the cache figures */
   r = json ("{\"wiredTiger\": {\"cache\": "
             "{\"maximum bytes configured\": {\"$numberLong\": \"1073741824\"}}}}");
   assert_true (lab_facts_server_status (r, &st, &e));
   assert_true (st.has_wiredtiger);
   assert_int_equal (st.cache_max_bytes, 1073741824);
   assert_int_equal (st.cache_bytes, -1);
   assert_int_equal (st.block_read_bytes, -1);
   bson_destroy (r);
}

static void
test_server_status_bad (void **state)
{
   lab_facts_status_t st;
   bson_error_t e;
   bson_t *r;

   (void)state;
   r = json ("{\"uptime\": \"1 day\"}");
   assert_false (lab_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "'uptime' is string");
   bson_destroy (r);
   r = json ("{\"wiredTiger\": {\"cache\": {\"maximum bytes configured\": \"8G\"}}}");
   assert_false (lab_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "'wiredTiger.cache.maximum bytes configured'");
   bson_destroy (r);
   r = json ("{\"wiredTiger\": {\"block-manager\": {\"bytes read\": null}}}");
   assert_false (lab_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "wiredTiger.block-manager.bytes read' is null");
   bson_destroy (r);
   r = json ("{\"mem\": 5}");
   assert_false (lab_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "'mem' is int32, expected a document");
   bson_destroy (r);
   r = json ("{\"mem\": {\"resident\": {\"$numberDouble\": \"NaN\"}}}");
   assert_false (lab_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "mem.resident");
   bson_destroy (r);
   r = json ("{\"pid\": {\"$numberDecimal\": \"12\"}}");
   assert_false (lab_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "'pid' is decimal");
   bson_destroy (r);
   /* found by fuzz_serverfacts (300 s run): mem.resident is MiB, and MiB * 2^20 overflowed int64 */
   r = json ("{\"mem\": {\"resident\": {\"$numberLong\": \"8244250403970010288\"}}}");
   assert_false (lab_facts_server_status (r, &st, &e));
   expect_bad_reply (&e, "mem.resident");
   bson_destroy (r);
   r = json ("{\"mem\": {\"resident\": {\"$numberLong\": \"8796093022207\"}}}");
   assert_true (lab_facts_server_status (r, &st, &e));
   assert_int_equal (st.mem_resident_bytes, (int64_t)8796093022207 * 1024 * 1024);
   bson_destroy (r);
}

/* ---- getDiagnosticData --------------------------------------------------------------------------- */

static void
test_diag_disks (void **state)
{
   lab_facts_disks_t a, b;
   const lab_facts_disk_t *d;
   bson_error_t e;
   bson_t *ra = fixture ("getdiagnosticdata-a-4.4.json"), *rb = fixture ("getdiagnosticdata-b-4.4.json");

   (void)state;
   assert_true (lab_facts_disks_from_diag (ra, &a, &e));
   assert_true (lab_facts_disks_from_diag (rb, &b, &e));
   assert_true (a.have_system_metrics);
   assert_true (a.have_disks);
   assert_int_equal (a.ndisks, 2);
   assert_int_equal (b.ndisks, 3);
   assert_int_equal (a.start_ms, 1764536400005);
   assert_int_equal (a.end_ms, 1764536400009);
   d = lab_facts_disks_find (&a, "/dev/nvme0n1");
   assert_non_null (d);
   assert_int_equal (d->reads, 1206110);           /* int32 */
   assert_int_equal (d->read_sectors, 1500000000); /* double on the wire */
   assert_int_equal (d->io_queued_ms, 3554160);
   d = lab_facts_disks_find (&a, "sda");
   assert_int_equal (d->write_sectors, 1200000000000); /* int64 */
   assert_int_equal (d->io_in_progress, 1);
   assert_null (lab_facts_disks_find (&a, "sdb"));
   assert_true (lab_facts_disks_elapsed_s (&a, &b) == 10.0);
   assert_true (lab_facts_disks_elapsed_s (&a, &a) == 0.0);
   lab_facts_disks_cleanup (&a);
   lab_facts_disks_cleanup (&b);
   bson_destroy (ra);
   bson_destroy (rb);
}

static void
test_diag_layouts (void **state)
{
   lab_facts_disks_t d;
   bson_error_t e;
   bson_t *r;

   (void)state;
   r = fixture ("getdiagnosticdata-mongos-nodisks.json");
   assert_true (lab_facts_disks_from_diag (r, &d, &e));
   assert_true (d.have_system_metrics);
   assert_false (d.have_disks);
   assert_int_equal (d.ndisks, 0);
   assert_int_equal (d.end_ms, 1764536400009);
   lab_facts_disks_cleanup (&d);
   bson_destroy (r);

   r = fixture ("getdiagnosticdata-empty.json");
   assert_true (lab_facts_disks_from_diag (r, &d, &e));
   assert_false (d.have_system_metrics);
   assert_int_equal (d.end_ms, -1);
   assert_true (lab_facts_disks_elapsed_s (&d, &d) == -1);
   bson_destroy (r);

   r = fixture ("getdiagnosticdata-multiservice.json");
   assert_true (lab_facts_disks_from_diag (r, &d, &e));
   assert_true (d.have_disks);
   assert_int_equal (d.ndisks, 1);
   assert_string_equal (d.disks[0].name, "vda");
   assert_int_equal (d.disks[0].read_sectors, 80);
   assert_int_equal (d.end_ms, 1764536400003);
   lab_facts_disks_cleanup (&d);
   bson_destroy (r);

   /* systemMetrics without its own end: the sample's end */
   r = json ("{\"data\": {\"systemMetrics\": {\"disks\": {}}, "
             "\"end\": {\"$date\": {\"$numberLong\": \"77\"}}}}");
   assert_true (lab_facts_disks_from_diag (r, &d, &e));
   assert_true (d.have_disks);
   assert_int_equal (d.ndisks, 0);
   assert_int_equal (d.end_ms, 77);
   bson_destroy (r);

   /* a disk missing counters (older kernels): -1, not an error */
   r = json ("{\"data\": {\"systemMetrics\": {\"disks\": {\"sda\": {\"reads\": 3}}}}}");
   assert_true (lab_facts_disks_from_diag (r, &d, &e));
   assert_int_equal (d.disks[0].reads, 3);
   assert_int_equal (d.disks[0].io_queued_ms, -1);
   lab_facts_disks_cleanup (&d);
   bson_destroy (r);

   r = json ("{\"data\": {\"systemMetrics\": {\"disks\": {\"sda\": {\"reads\": \"3\"}}}}}");
   assert_false (lab_facts_disks_from_diag (r, &d, &e));
   expect_bad_reply (&e, "data.systemMetrics.disks.sda.reads");
   assert_null (d.disks);
   bson_destroy (r);
   r = json ("{\"data\": {\"common\": {\"systemMetrics\": {\"disks\": {\"vda\": []}}}}}");
   assert_false (lab_facts_disks_from_diag (r, &d, &e));
   expect_bad_reply (&e, "data.common.systemMetrics.disks.vda");
   bson_destroy (r);
   r = json ("{\"data\": {\"systemMetrics\": {\"end\": 5}}}");
   assert_false (lab_facts_disks_from_diag (r, &d, &e));
   expect_bad_reply (&e, "data.systemMetrics.end' is int32, expected a date");
   bson_destroy (r);
   r = json ("{\"data\": 1}");
   assert_false (lab_facts_disks_from_diag (r, &d, &e));
   expect_bad_reply (&e, "'data'");
   bson_destroy (r);
}

static void
test_disk_delta (void **state)
{
   lab_facts_disks_t a, b;
   lab_facts_disk_delta_t d;
   bson_error_t e;
   bson_t *ra = fixture ("getdiagnosticdata-a-4.4.json"), *rb = fixture ("getdiagnosticdata-b-4.4.json");
   double dt;

   (void)state;
   assert_true (lab_facts_disks_from_diag (ra, &a, &e));
   assert_true (lab_facts_disks_from_diag (rb, &b, &e));
   dt = lab_facts_disks_elapsed_s (&a, &b);
   lab_facts_disk_delta (lab_facts_disks_find (&a, "nvme0n1"), lab_facts_disks_find (&b, "nvme0n1"), dt, &d);
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
   lab_facts_disk_delta (NULL, lab_facts_disks_find (&b, "sdb"), dt, &d);
   assert_int_equal (d.reads, 5);
   assert_near (d.read_kb_s, 2.0, 1e-9);

   /* the same sample twice: no rates, no division by zero */
   lab_facts_disk_delta (lab_facts_disks_find (&a, "sda"), lab_facts_disks_find (&a, "sda"), 0, &d);
   assert_int_equal (d.reads, 0);
   assert_true (d.reads_per_s == 0 && d.util_pct == 0);
   assert_true (d.read_await_ms == -1 && d.avg_read_bytes == -1);
   lab_facts_disks_cleanup (&a);
   lab_facts_disks_cleanup (&b);
   bson_destroy (ra);
   bson_destroy (rb);
}

static void
test_disk_delta_wrap_and_cap (void **state)
{
   lab_facts_disk_t a, b;
   lab_facts_disk_delta_t d;

   (void)state;
   memset (&a, 0xff, sizeof a); /* every counter -1: absent counts as 0 */
   memset (&b, 0, sizeof b);
   b.reads = 10;
   lab_facts_disk_delta (&a, &b, 1.0, &d);
   assert_int_equal (d.reads, 10);
   assert_int_equal (d.read_bytes, 0);

   memset (&a, 0, sizeof a);
   a.reads = 4294967290; /* a 32-bit counter about to wrap */
   b.reads = 6;
   a.read_sectors = 5000000000; /* a 64-bit counter that went backwards: a reset */
   b.read_sectors = 100;
   a.io_time_ms = 0;
   b.io_time_ms = 3000; /* more busy time than wall time (merged queues): capped */
   lab_facts_disk_delta (&a, &b, 2.0, &d);
   assert_int_equal (d.reads, 12);
   assert_int_equal (d.read_bytes, 0);
   assert_near (d.util_pct, 100.0, 1e-9);
}

static void
test_disk_pick (void **state)
{
   lab_facts_disks_t a, b, none;
   const lab_facts_disk_t *da, *db;
   char reason[256];
   bson_error_t e;
   bson_t *ra = fixture ("getdiagnosticdata-a-4.4.json"), *rb = fixture ("getdiagnosticdata-b-4.4.json");
   bson_t *rn = fixture ("getdiagnosticdata-mongos-nodisks.json");

   (void)state;
   assert_true (lab_facts_disks_from_diag (ra, &a, &e));
   assert_true (lab_facts_disks_from_diag (rb, &b, &e));
   assert_true (lab_facts_disks_from_diag (rn, &none, &e));

   /* sda wrote far more, nvme0n1 read more: reads decide */
   assert_true (lab_facts_disks_pick (&a, &b, NULL, &da, &db, reason, sizeof reason, &e));
   assert_string_equal (db->name, "nvme0n1");
   assert_ptr_equal (da, lab_facts_disks_find (&a, "nvme0n1"));
   assert_non_null (strstr (reason, "most read activity"));
   assert_non_null (strstr (reason, "317600 sectors"));

   assert_true (lab_facts_disks_pick (&a, &b, "/dev/sdb", &da, &db, reason, sizeof reason, &e));
   assert_string_equal (db->name, "sdb");
   assert_null (da);
   assert_non_null (strstr (reason, "named by the user"));

   assert_false (lab_facts_disks_pick (&a, &b, "vdz", &da, &db, NULL, 0, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_non_null (strstr (e.message, "nvme0n1, sda, sdb"));

   /* no activity at all: the first listed, and the reason says so */
   assert_true (lab_facts_disks_pick (&a, &a, NULL, &da, &db, reason, sizeof reason, &e));
   assert_string_equal (db->name, "nvme0n1");
   assert_non_null (strstr (reason, "none read"));

   assert_false (lab_facts_disks_pick (&none, &none, NULL, &da, &db, NULL, 0, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED));
   lab_facts_disks_cleanup (&a);
   lab_facts_disks_cleanup (&b);
   lab_facts_disks_cleanup (&none);
   bson_destroy (ra);
   bson_destroy (rb);
   bson_destroy (rn);
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
   };

   return lab_test_run_group ("serverfacts", tests, NULL, NULL);
}
