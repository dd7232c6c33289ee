/*
 * test_clustered_facts.c -- a server's clustered collection known from listCollections (store/
 * serverfacts_coll.c): recorded entries of mongod 7.0 (a collection created with clusteredIndex, a plain
 * one, a time-series buckets collection in the legacy {clusteredIndex: true} form) and of FerretDB 1.24
 * (captured: it accepts create's clusteredIndex and keeps none), and the RecordIds a find with
 * showRecordId may give: none from a clustered collection, even when its _id is a number.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/serverfacts.h"
#include "store/store.h"

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

/* entry_clustered -- the clustered verdict of the firstBatch entry named `name` of a recorded reply. */
static bool
entry_clustered (const bson_t *reply, const char *name)
{
   bson_iter_t it, batch;
   bool found = false, clustered = false;

   assert_true (bson_iter_init (&it, reply) && bson_iter_find_descendant (&it, "cursor.firstBatch", &batch));
   assert_true (bson_iter_recurse (&batch, &it));
   while (bson_iter_next (&it)) {
      const uint8_t *data;
      uint32_t len;
      bson_t entry;
      bson_iter_t n;
      bson_iter_document (&it, &len, &data);
      assert_true (bson_init_static (&entry, data, len));
      if (bson_iter_init_find (&n, &entry, "name") && strcmp (bson_iter_utf8 (&n, NULL), name) == 0) {
         bson_error_t e;
         if (!lab_store_facts_coll_clustered (&entry, &clustered, &e)) {
            fail_msg ("%s: %s", name, e.message);
         }
         found = true;
      }
   }
   assert_true (found);
   return clustered;
}

/* test_mongod -- mongod 7.0: the clusteredIndex spec and the legacy `true` are clustered, a plain one is not.
 */
static void
test_mongod (void **state)
{
   bson_t *r = fixture ("listcollections-mongod-7.0-clustered.json");

   (void)state;
   assert_true (entry_clustered (r, "rows_clustered"));
   assert_false (entry_clustered (r, "bill_detail"));
   assert_true (entry_clustered (r, "system.buckets.readings"));
   bson_destroy (r);
}

/* test_ferretdb -- FerretDB's captured reply: neither collection is clustered (its options are empty even
 * for the one created with clusteredIndex). */
static void
test_ferretdb (void **state)
{
   bson_t *r = fixture ("listcollections-ferretdb-1.24.json");

   (void)state;
   assert_false (entry_clustered (r, "bill_detail"));
   assert_false (entry_clustered (r, "rows_clustered"));
   bson_destroy (r);
}

/* test_bad_entries -- nameOnly (no options), clusteredIndex false, and malformed ones. */
static void
test_bad_entries (void **state)
{
   static const struct {
      const char *json;
      bool ok, clustered;
   } cases[] = {
      { "{\"name\": \"a\", \"type\": \"collection\"}", true, false },
      { "{\"name\": \"a\", \"options\": {\"clusteredIndex\": false}}", true, false },
      { "{\"name\": \"a\", \"options\": {\"clusteredIndex\": \"yes\"}}", false, false },
      { "{\"name\": \"a\", \"options\": {\"clusteredIndex\": {\"unique\": true}}}", false, false },
   };
   size_t i;

   (void)state;
   for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      bson_t *d = json (cases[i].json);
      bson_error_t e = { 0 };
      bool clustered = true, ok = lab_store_facts_coll_clustered (d, &clustered, &e);
      if (ok != cases[i].ok || (ok && clustered != cases[i].clustered)) {
         fail_msg ("case %zu (%s): ok %d clustered %d (%s)", i, cases[i].json, ok, clustered, e.message);
      }
      if (!ok) {
         assert_int_equal (e.code, LAB_STORE_ERR_BAD_REPLY);
         assert_non_null (strstr (e.message, "clusteredIndex"));
      }
      bson_destroy (d);
   }
}

/* test_record_ids -- a clustered collection gives no RecordId, whatever its $recordId's type
 * (record_id_helpers::appendToBSONAs: the _id value; a number for a numeric _id); a plain one its positive
 * RecordId; FerretDB's 0 none. */
static void
test_record_ids (void **state)
{
   bson_t *lc = fixture ("listcollections-mongod-7.0-clustered.json");
   bson_t *num = json ("{\"bill_id\": {\"$numberInt\": \"7\"}, \"$recordId\": {\"$numberLong\": \"7\"}}");
   bson_t *dbl =
      json ("{\"bill_id\": {\"$numberInt\": \"7\"}, \"$recordId\": {\"$numberDouble\": \"12.0\"}}");
   bson_t *doc = json ("{\"bill_id\": {\"$numberInt\": \"7\"}, \"$recordId\": {\"bill_id\": {\"$numberInt\": "
                       "\"7\"}, \"id\": {\"$oid\": \"65a1b2c3d4e5f60718293a4b\"}}}");
   bson_t *zero = json ("{\"bill_id\": {\"$numberInt\": \"7\"}, \"$recordId\": {\"$numberLong\": \"0\"}}");
   bool clustered = entry_clustered (lc, "rows_clustered"), plain = entry_clustered (lc, "bill_detail");
   int64_t rid = -1;

   (void)state;
   assert_false (lab_store_facts_record_id (clustered, num, &rid));
   assert_false (lab_store_facts_record_id (clustered, dbl, &rid));
   assert_false (lab_store_facts_record_id (clustered, doc, &rid));
   assert_true (lab_store_facts_record_id (plain, num, &rid));
   assert_int_equal (rid, 7);
   assert_false (lab_store_facts_record_id (plain, zero, &rid));
   assert_false (lab_store_facts_record_id (plain, doc, &rid));
   bson_destroy (lc);
   bson_destroy (num);
   bson_destroy (dbl);
   bson_destroy (doc);
   bson_destroy (zero);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_mongod),
      cmocka_unit_test (test_ferretdb),
      cmocka_unit_test (test_bad_entries),
      cmocka_unit_test (test_record_ids),
   };
   return lab_test_run_group ("clustered_facts", tests, NULL, NULL);
}
