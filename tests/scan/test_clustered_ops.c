/*
 * test_clustered_ops.c -- a clustered layout's append, update and load issue the same logical operations on
 * both backends. The test server (FerretDB) keeps no clustered collection, so mongod is played by its
 * recorded listCollections reply (tests/store/data/serverfacts/listcollections-mongod-7.0-clustered.json):
 * an embedded store whose operations table is wrapped to record every call, its collection statistics
 * answered as the MongoDB backend now answers them (lab_mongo_stats: clustered from options.clusteredIndex,
 * lab_store_facts_coll_clustered), the other calls not forwarded. Each recorded call is written as the
 * command the MongoDB backend builds for it (lab_mongo_eq_filter, lab_mongo_index_find_query), and the two
 * lists must be equal: the same _id construction, the same filters. The probe refuses the same collection
 * from the recorded reply, though its RecordIds (an embedded plain table's) are numbers that the old type
 * check let through; the locality sampler reads it by _id ranges and asks for no RecordId.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "scan/measure/measure.h"
#include "scan/predict/predict_private.h"
#include "scan/scan.h"
#include "scan/workloads/workload.h"
#include "store/mongo_private.h" /* the commands the MongoDB backend builds (pure parts) */
#include "store/serverfacts.h"
#include "store/store.h"
#include "store/store_impl.h" /* a recording operations table around the embedded store's */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLL "rows_clustered"
#define KEY "bill_id"
#define CHECK(call) LAB_TEST_CHECK (call)

static const lab_store_ops_t *real_ops;
static lab_store_ops_t rec_ops;
static bson_t *oplog;              /* {"0": op, "1": op, ...} */
static int nops;                   /* ops in oplog */
static const bson_t *server_entry; /* the recorded listCollections entry; NULL: the embedded store answers */
static bool forward_all;           /* with server_entry: forward every call too (the data is the store's) */

/* log_op -- append one logical operation {op, <name>: doc}. */
static void
log_op (const char *op, const char *name, const bson_t *doc)
{
   char k[16];
   bson_t d;

   bson_snprintf (k, sizeof k, "%d", nops++);
   BSON_APPEND_DOCUMENT_BEGIN (oplog, k, &d);
   BSON_APPEND_UTF8 (&d, "op", op);
   BSON_APPEND_DOCUMENT (&d, name, doc);
   bson_append_document_end (oplog, &d);
}

/* rec_stats -- the embedded store's figures; on the played server its `clustered` from listCollections,
 * as lab_mongo_stats takes it. */
static bool
rec_stats (lab_store_session_t *sess, const char *coll, lab_store_coll_stats_t *st, bson_error_t *error)
{
   bool clustered = false;

   if (!real_ops->stats (sess, coll, st, error)) {
      return false;
   }
   if (server_entry) {
      if (!lab_store_facts_coll_clustered (server_entry, &clustered, error)) {
         return false;
      }
      st->clustered = clustered;
   }
   return true;
}

/* rec_insert_many -- {insert: [the documents' _id]}; forwarded on the embedded store only. */
static bool
rec_insert_many (lab_store_session_t *sess, const char *coll, const bson_t *const *docs, const size_t *orig,
                 size_t n, int64_t first, lab_store_insert_result_t *result, bson_error_t *error)
{
   bson_t ids = BSON_INITIALIZER;
   size_t i;

   for (i = 0; i < n; i++) {
      bson_iter_t it;
      char k[16];
      assert_true (bson_iter_init_find (&it, docs[i], "_id"));
      bson_snprintf (k, sizeof k, "%zu", i);
      bson_append_value (&ids, k, -1, bson_iter_value (&it));
   }
   log_op ("insert", "ids", &ids);
   bson_destroy (&ids);
   if (server_entry && !forward_all) {
      result->inserted = (int64_t)n;
      return true;
   }
   return real_ops->insert_many (sess, coll, docs, orig, n, first, result, error);
}

/* rec_find_eq -- {find: lab_mongo_eq_filter}. */
static bool
rec_find_eq (lab_store_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
             lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs, bson_error_t *error)
{
   bson_t filter;

   lab_mongo_eq_filter (field, value, &filter);
   log_op ("find", "filter", &filter);
   bson_destroy (&filter);
   if (server_entry && !forward_all) {
      *ndocs = 0;
      return true;
   }
   return real_ops->find_eq (sess, coll, field, value, cb, ctx, ndocs, error);
}

/* rec_index_find -- {find: filter, hint} as lab_mongo_index_find_query builds them. */
static bool
rec_index_find (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                const bson_value_t *eq, int neq, const bson_value_t *lo, const bson_value_t *hi,
                lab_store_doc_cb_t cb, void *ctx, int64_t *keys, int64_t *docs, bson_error_t *error)
{
   bson_t filter, opts;

   lab_mongo_index_find_query (spec, eq, neq, lo, hi, &filter, &opts);
   log_op ("find", "filter", &filter);
   log_op ("find", "opts", &opts);
   bson_destroy (&filter);
   bson_destroy (&opts);
   if (server_entry && !forward_all) {
      return true;
   }
   return real_ops->index_find (sess, coll, spec, eq, neq, lo, hi, cb, ctx, keys, docs, error);
}

/* rec_record_ids -- {record_ids: {field: value}}: a find with showRecordId on a server; forwarded. */
static bool
rec_record_ids (lab_store_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
                int64_t **rids, size_t *n, bson_error_t *error)
{
   bson_t filter;

   lab_mongo_eq_filter (field, value, &filter);
   log_op ("record_ids", "filter", &filter);
   bson_destroy (&filter);
   return real_ops->record_ids (sess, coll, field, value, rids, n, error);
}

/* entry -- the recorded listCollections entry named `name` (a copy; caller destroys). */
static bson_t *
entry (const char *name)
{
   const char *src = getenv ("LAB_SOURCE_DIR");
   char path[4096];
   bson_t *reply, *out = NULL;
   bson_iter_t it, batch;

   snprintf (path, sizeof path, "%s/tests/store/data/serverfacts/listcollections-mongod-7.0-clustered.json",
             src ? src : ".");
   reply = lab_test_json_load (path);
   assert_true (bson_iter_init (&it, reply) && bson_iter_find_descendant (&it, "cursor.firstBatch", &batch));
   assert_true (bson_iter_recurse (&batch, &it));
   while (!out && bson_iter_next (&it)) {
      const uint8_t *data;
      uint32_t len;
      bson_t e;
      bson_iter_t n;
      bson_iter_document (&it, &len, &data);
      assert_true (bson_init_static (&e, data, len));
      if (bson_iter_init_find (&n, &e, "name") && strcmp (bson_iter_utf8 (&n, NULL), name) == 0) {
         out = bson_copy (&e);
      }
   }
   bson_destroy (reply);
   assert_non_null (out);
   return out;
}

/* count_doc -- a find's callback: count. */
static bool
count_doc (const bson_t *doc, void *ctx)
{
   (void)doc;
   (*(int *)ctx)++;
   return true;
}

/* workload -- what scancmp's append, update and load do to a clustered layout (wl_write.c, clustered.c):
 * the layout's kind from its stats, two new rows of bill 7, the update of the first by its _id (the
 * embedded store finds the row by find_eq on _id; a server sends update {q}: logged as a find of q), the
 * load of bill 7. The oplog is returned (caller destroys); *nread the load's rows (embedded). */
static bson_t *
workload (lab_store_session_t *s, bool server, int *nread)
{
   bson_oid_t oid[2];
   bson_t *rows[2], *held = NULL, q;
   const bson_t *docs[2];
   bson_value_t key = { .value_type = BSON_TYPE_INT32, .value.v_int32 = 7 }, id;
   lab_store_insert_result_t r;
   int64_t bytes = 0;
   bool clustered = false;
   int i, nrow = 0;

   oplog = bson_new ();
   nops = 0;
   *nread = 0;
   CHECK (lab_scan_clustered (s, COLL, &clustered, &e_));
   for (i = 0; i < 2; i++) {
      bson_oid_init_from_string (&oid[i], i ? "65a1b2c3d4e5f60718293a4c" : "65a1b2c3d4e5f60718293a4b");
      rows[i] = BCON_NEW ("_id", BCON_OID (&oid[i]), KEY, BCON_INT32 (7), "amount", BCON_DOUBLE (1.5 * i));
      docs[i] = rows[i];
   }
   CHECK (lab_scan_clustered_rows (clustered, KEY, docs, 2, &held, &bytes, &e_));
   CHECK (lab_store_insert_many (s, COLL, docs, 2, &r, &e_));
   lab_store_insert_result_cleanup (&r);
   lab_scan_clustered_rows_free (held, 2);
   id.value_type = BSON_TYPE_OID;
   bson_oid_copy (&oid[0], &id.value.v_oid);
   if (server) {
      lab_scan_row_filter (clustered, KEY, &key, &id, &q); /* wl_write.c's server update {q, $set} */
      log_op ("find", "filter", &q);
      bson_destroy (&q);
   } else {
      CHECK (lab_scan_find_row (s, COLL, clustered, KEY, &key, &id, count_doc, &nrow, &e_));
      assert_int_equal (nrow, 1);
   }
   CHECK (lab_scan_master_find (s, COLL, clustered, KEY, &key, count_doc, nread, NULL, &e_));
   for (i = 0; i < 2; i++) {
      bson_destroy (rows[i]);
   }
   return oplog;
}

/* as_text -- canonical extended JSON of an oplog's operations that are finds and inserts, for
 * comparison and for the failure message (caller frees). */
static char *
as_text (const bson_t *log)
{
   return bson_as_canonical_extended_json (log, NULL);
}

/* test_same_operations -- the embedded store and the played mongod: the same operations, the clustered
 * _id {bill_id: 7, id: <ObjectId>} in the insert and the update, the load a range of _id hinted {_id: 1}. */
static void
test_same_operations (void **state)
{
   lab_test_store_fx_t *fx = lab_test_store_fx_new ("clustered-ops");
   bson_t *srv = entry (COLL), *emb_log, *srv_log;
   lab_store_session_t *s;
   char *a, *b;
   int nread = 0, nsrv = 0;

   (void)state;
   assert_non_null (s = lab_store_session_open (fx->store, NULL));
   CHECK (lab_store_create_clustered (s, COLL, &e_));
   real_ops = fx->store->ops;
   rec_ops = *real_ops;
   rec_ops.stats = rec_stats;
   rec_ops.insert_many = rec_insert_many;
   rec_ops.find_eq = rec_find_eq;
   rec_ops.index_find = rec_index_find;
   rec_ops.record_ids = rec_record_ids;
   fx->store->ops = &rec_ops;

   server_entry = NULL;
   emb_log = workload (s, false, &nread);
   assert_int_equal (nread, 2); /* the embedded store played the load: both rows of bill 7 */
   server_entry = srv;
   srv_log = workload (s, true, &nsrv);
   server_entry = NULL;
   a = as_text (emb_log);
   b = as_text (srv_log);
   if (strcmp (a, b) != 0) {
      fail_msg ("the backends differ:\n  embedded %s\n  server   %s", a, b);
   }
   /* and they are the clustered layout's operations, not a plain collection's */
   assert_non_null (strstr (a, "\"ids\" : { \"0\" : { \"bill_id\" : { \"$numberInt\" : \"7\" }, \"id\" : { "
                               "\"$oid\" : \"65a1b2c3d4e5f60718293a4b\" } }"));
   assert_non_null (strstr (a, "\"$gte\" : { \"bill_id\" : { \"$numberInt\" : \"7\" } }, \"$lt\" : { "
                               "\"bill_id\" : { \"$numberInt\" : \"7\" }, \"id\" : { \"$maxKey\" : 1 } }"));
   assert_non_null (strstr (a, "\"hint\" : { \"_id\" : { \"$numberInt\" : \"1\" } }"));
   bson_free (a);
   bson_free (b);
   bson_destroy (emb_log);
   bson_destroy (srv_log);
   fx->store->ops = real_ops;
   lab_store_session_close (s);
   bson_destroy (srv);
   lab_test_store_fx_free (fx);
}

/* test_probe_refuses -- the probe of a collection the recorded reply says is clustered is refused before
 * any RecordId is read, though this one's (an embedded plain table's, numbers > 0) pass the type check. */
static void
test_probe_refuses (void **state)
{
   lab_test_store_fx_t *fx = lab_test_store_fx_new ("clustered-probe");
   bson_t *srv = entry (COLL), *docs[40];
   lab_store_session_t *s;
   lab_store_insert_result_t r;
   lab_scan_opts_t o;
   probe_t p;
   bson_error_t e = { 0 };
   bool clustered = false;
   int i;

   (void)state;
   assert_non_null (s = lab_store_session_open (fx->store, NULL));
   for (i = 0; i < 40; i++) {
      docs[i] = BCON_NEW ("_id", BCON_INT64 (i + 1), KEY, BCON_INT32 (i % 4));
   }
   CHECK (lab_store_insert_many (s, COLL, (const bson_t *const *)docs, 40, &r, &e_));
   lab_store_insert_result_cleanup (&r);
   for (i = 0; i < 40; i++) {
      bson_destroy (docs[i]);
   }
   CHECK (lab_store_create_index (s, COLL, KEY, &e_));
   lab_scan_opts_init (&o);
   o.detail = COLL;
   o.key = KEY;
   memset (&p, 0, sizeof p);
   p.sample = 1.0;
   CHECK (lab_store_stats (s, COLL, &p.st, &e_));
   CHECK (lab_store_facts_coll_clustered (srv, &clustered, &e_));
   p.st.clustered = clustered; /* lab_mongo_stats: from listCollections */
   assert_false (lab_scan_predict_probe_walk (s, fx->store, &o, &p, &e));
   assert_int_equal (e.code, LAB_STORE_ERR_NOT_SUPPORTED);
   assert_non_null (strstr (e.message, "clustered"));
   lab_scan_predict_probe_cleanup (&p);
   lab_store_session_close (s);
   bson_destroy (srv);
   lab_test_store_fx_free (fx);
}

/* test_locality_by_listcollections -- the locality sampler on a collection the recorded reply calls
 * clustered reads its masters by _id ranges (method clustered_contiguous) and asks for no RecordId. */
static void
test_locality_by_listcollections (void **state)
{
   lab_test_store_fx_t *fx = lab_test_store_fx_new ("clustered-locality");
   bson_t *srv = entry (COLL), *rows[24], *held = NULL, out = BSON_INITIALIZER;
   const bson_t *docs[24];
   bson_value_t keys[4];
   lab_store_session_t *s;
   lab_store_insert_result_t r;
   lab_scan_opts_t o;
   int64_t bytes = 0;
   char *log;
   int i;

   (void)state;
   assert_non_null (s = lab_store_session_open (fx->store, NULL));
   CHECK (lab_store_create_clustered (s, COLL, &e_));
   for (i = 0; i < 24; i++) {
      rows[i] = BCON_NEW ("_id", BCON_INT64 (i + 1), KEY, BCON_INT32 (i % 4), "pad", BCON_UTF8 ("a row"));
      docs[i] = rows[i];
   }
   CHECK (lab_scan_clustered_rows (true, KEY, docs, 24, &held, &bytes, &e_));
   CHECK (lab_store_insert_many (s, COLL, docs, 24, &r, &e_));
   lab_store_insert_result_cleanup (&r);
   lab_scan_clustered_rows_free (held, 24);
   for (i = 0; i < 24; i++) {
      bson_destroy (rows[i]);
   }
   for (i = 0; i < 4; i++) {
      keys[i].value_type = BSON_TYPE_INT32;
      keys[i].value.v_int32 = i;
   }
   real_ops = fx->store->ops;
   rec_ops = *real_ops;
   rec_ops.stats = rec_stats;
   rec_ops.record_ids = rec_record_ids;
   fx->store->ops = &rec_ops;
   server_entry = srv;
   forward_all = true;
   oplog = bson_new ();
   nops = 0;
   lab_scan_opts_init (&o);
   o.key = KEY;
   o.locality_sample = 4;
   CHECK (lab_scan_locality (s, &o, COLL, keys, 4, &out, &e_));
   server_entry = NULL;
   forward_all = false;
   log = bson_as_canonical_extended_json (oplog, NULL);
   if (strstr (log, "record_ids")) {
      fail_msg ("RecordIds were asked of a clustered collection: %s", log);
   }
   assert_string_equal (lab_test_json_str (&out, "method"), "clustered_contiguous");
   assert_int_equal ((int)lab_test_json_num (&out, "masters_sampled"), 4);
   bson_free (log);
   bson_destroy (oplog);
   bson_destroy (&out);
   fx->store->ops = real_ops;
   lab_store_session_close (s);
   bson_destroy (srv);
   lab_test_store_fx_free (fx);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_same_operations),
      cmocka_unit_test (test_probe_refuses),
      cmocka_unit_test (test_locality_by_listcollections),
   };
   return lab_test_run_group ("clustered_ops", tests, NULL, NULL);
}
