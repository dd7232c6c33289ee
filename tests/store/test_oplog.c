/*
 * test_oplog.c -- unit tests of store/oplog.c (docs/mongodb-compat.md §26): the aggregate sent
 * to local.oplog.rs and the parse of hand-made replies (results per op summed; a missing or non-numeric
 * field refused with a message naming it); the embedded store has no oplog.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/store.h"

#include <string.h>

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

/* test_parse_sums -- the results of each op are summed, whatever number type $sum gave. */
static void
test_parse_sums (void **state)
{
   bson_t *r =
      json ("{\"cursor\": {\"id\": {\"$numberLong\": \"0\"}, \"ns\": \"local.oplog.rs\", \"firstBatch\": ["
            "{\"_id\": \"i\", \"bytes\": {\"$numberLong\": \"49200000\"}, \"entries\": 100000},"
            "{\"_id\": \"u\", \"bytes\": 1710000, \"entries\": {\"$numberLong\": \"10000\"}},"
            "{\"_id\": \"d\", \"bytes\": {\"$numberDouble\": \"300.0\"}, \"entries\": 3}]}, \"ok\": 1}");
   bson_error_t err;
   int64_t bytes, entries;

   (void)state;
   assert_true (lab_store_oplog_parse (r, &bytes, &entries, &err));
   assert_int_equal (bytes, 49200000 + 1710000 + 300);
   assert_int_equal (entries, 100000 + 10000 + 3);
   bson_destroy (r);
}

/* test_parse_empty -- no entry of the namespace since the mark: 0 and 0. */
static void
test_parse_empty (void **state)
{
   bson_t *r = json ("{\"cursor\": {\"id\": 0, \"firstBatch\": []}, \"ok\": 1}");
   bson_error_t err;
   int64_t bytes = 5, entries = 5;

   (void)state;
   assert_true (lab_store_oplog_parse (r, &bytes, &entries, &err));
   assert_int_equal (bytes, 0);
   assert_int_equal (entries, 0);
   bson_destroy (r);
}

/* test_parse_refused -- a missing field, a string, a missing cursor: false, -1, the field named. */
static void
test_parse_refused (void **state)
{
   static const char *const bad[][2] = {
      { "{\"cursor\": {\"firstBatch\": [{\"_id\": \"i\", \"bytes\": 10, \"entries\": 1},"
        "{\"_id\": \"u\", \"entries\": 2}]}}",
        "\"bytes\"" },
      { "{\"cursor\": {\"firstBatch\": [{\"_id\": \"i\", \"bytes\": 10, \"entries\": \"1\"}]}}",
        "\"entries\"" },
      { "{\"cursor\": {\"firstBatch\": [7]}}", "not a document" },
      { "{\"ok\": 0, \"errmsg\": \"x\"}", "cursor.firstBatch" },
   };
   size_t i;

   (void)state;
   for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      bson_t *r = json (bad[i][0]);
      bson_error_t err;
      int64_t bytes = 5, entries = 5;

      assert_false (lab_store_oplog_parse (r, &bytes, &entries, &err));
      assert_int_equal (bytes, -1);
      assert_int_equal (entries, -1);
      assert_non_null (strstr (err.message, bad[i][1]));
      bson_destroy (r);
   }
}

/* test_pipeline -- $match on ts after the mark and the namespace, $group by op of $bsonSize and 1. */
static void
test_pipeline (void **state)
{
   lab_store_oplog_mark_t mark = { .have = true, .ts_t = 1700000000, .ts_i = 7 };
   bson_t pipeline;
   bson_iter_t it;
   uint32_t t, inc;

   (void)state;
   assert_true (lab_store_oplog_pipeline ("lab.bill_detail", &mark, &pipeline));
   assert_true (bson_iter_init (&it, &pipeline) && bson_iter_find_descendant (&it, "0.$match.ts.$gt", &it));
   assert_true (BSON_ITER_HOLDS_TIMESTAMP (&it));
   bson_iter_timestamp (&it, &t, &inc);
   assert_int_equal (t, 1700000000);
   assert_int_equal (inc, 7);
   assert_string_equal (lab_test_json_str (&pipeline, "0.$match.$or.0.ns"), "lab.bill_detail");
   /* the key has dots: looked up in its document */
   assert_true (bson_iter_init (&it, &pipeline) && bson_iter_find_descendant (&it, "0.$match.$or.1", &it) &&
                bson_iter_recurse (&it, &it) && bson_iter_find (&it, "o.applyOps.ns"));
   assert_string_equal (bson_iter_utf8 (&it, NULL), "lab.bill_detail");
   assert_string_equal (lab_test_json_str (&pipeline, "1.$group._id"), "$op");
   assert_string_equal (lab_test_json_str (&pipeline, "1.$group.bytes.$sum.$bsonSize"), "$$ROOT");
   assert_int_equal ((int)lab_test_json_num (&pipeline, "1.$group.entries.$sum"), 1);
   assert_int_equal ((int)bson_count_keys (&pipeline), 2);
   bson_destroy (&pipeline);
}

/* test_since_without_mark -- no mark: false with its reason, -1. */
static void
test_since_without_mark (void **state)
{
   lab_store_oplog_mark_t mark = { .have = false, .reason = "no oplog: a standalone engine" };
   bson_error_t err;
   int64_t bytes = 5, entries = 5;

   (void)state;
   assert_false (lab_store_oplog_since (NULL, &mark, "bill_detail", &bytes, &entries, &err));
   assert_int_equal (bytes, -1);
   assert_int_equal (entries, -1);
   assert_string_equal (err.message, "no oplog: a standalone engine");
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_parse_sums),         cmocka_unit_test (test_parse_empty),
      cmocka_unit_test (test_parse_refused),      cmocka_unit_test (test_pipeline),
      cmocka_unit_test (test_since_without_mark),
   };

   return lab_test_run_group ("oplog", tests, NULL, NULL);
}
