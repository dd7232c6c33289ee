/*
 * test_fold_plan.c -- unit tests of lab_fold_run_sort_verdict (etl/fold_run.h): what the server's own plan of
 * the fold's read (an explain reply parsed by store/serverfacts, fixtures in tests/store/data/serverfacts/)
 * means for the fold: an index walk, a sort in memory or spilled to disk, and the refusal of a sort of
 * more than a million documents without --allow-blocking-sort.
 */
#include "tests/testutil.h"

#include "store/serverfacts.h"
#include "etl/fold_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* plan_of -- the parsed plan of tests/store/data/serverfacts/<name>. */
static void
plan_of (const char *name, lab_store_facts_plan_t *p)
{
   const char *src = getenv ("LAB_SOURCE_DIR");
   char path[4096];
   bson_error_t e;
   bson_t *r;

   snprintf (path, sizeof path, "%s/tests/store/data/serverfacts/%s", src ? src : ".", name);
   r = lab_test_json_load (path);
   if (!lab_store_facts_explain_parse (r, p, &e)) {
      fail_msg ("%s: %s", name, e.message);
   }
   bson_destroy (r);
}

static void
test_verdict_index_walk (void **state)
{
   lab_fold_run_sort_verdict_t v;
   lab_store_facts_plan_t p;

   (void)state;
   /* the embedded store: nobody to ask */
   lab_fold_run_sort_verdict (NULL, 5000000, 400, false, 0, &v);
   assert_false (v.observed);
   assert_false (v.sorts);
   assert_false (v.refuse);
   /* mongod walking its index: no sort whatever the size */
   plan_of ("explain-sbe-7.0-ixscan.json", &p);
   lab_fold_run_sort_verdict (&p, 50000000, 400, false, 0, &v);
   assert_true (v.observed);
   assert_false (v.sorts);
   assert_false (v.refuse);
   assert_non_null (strstr (v.say, "no sort"));
   assert_non_null (strstr (v.say, "bill_id_1"));
}

static void
test_verdict_sorts (void **state)
{
   lab_fold_run_sort_verdict_t v;
   lab_store_facts_plan_t p;

   (void)state;
   /* a small sort: said plainly, in memory, not refused */
   plan_of ("explain-sbe-7.0-sort.json", &p);
   lab_fold_run_sort_verdict (&p, 20000, 400, false, 0, &v);
   assert_true (v.sorts);
   assert_false (v.spills);
   assert_false (v.refuse);
   assert_non_null (strstr (v.say, "sort about 20000 documents"));
   assert_non_null (strstr (v.say, "in memory"));
   /* past 100 MiB: spilled to disk; past a million documents: refused */
   lab_fold_run_sort_verdict (&p, 2000000, 400, false, 0, &v);
   assert_true (v.spills);
   assert_true (v.refuse);
   assert_non_null (strstr (v.say, "spilled"));
   assert_non_null (strstr (v.say, "refuses to start"));
   /* exactly the limit is allowed, one more is not */
   lab_fold_run_sort_verdict (&p, LAB_FOLD_BLOCKING_SORT_MAX_DOCS, 400, false, 0, &v);
   assert_false (v.refuse);
   lab_fold_run_sort_verdict (&p, LAB_FOLD_BLOCKING_SORT_MAX_DOCS + 1, 400, false, 0, &v);
   assert_true (v.refuse);
   /* --allow-blocking-sort */
   lab_fold_run_sort_verdict (&p, 2000000, 400, true, 0, &v);
   assert_true (v.sorts);
   assert_false (v.refuse);
   /* another limit (the test hook) */
   lab_fold_run_sort_verdict (&p, 11, 400, false, 10, &v);
   assert_true (v.refuse);
}

static void
test_verdict_multikey_and_shards (void **state)
{
   lab_fold_run_sort_verdict_t v;
   lab_store_facts_plan_t p;

   (void)state;
   plan_of ("explain-classic-4.4-multikey.json", &p);
   lab_fold_run_sort_verdict (&p, 1000, 400, false, 0, &v);
   assert_true (v.sorts);
   assert_non_null (strstr (v.say, "multikey"));
   plan_of ("explain-sharded-6.0.json", &p);
   lab_fold_run_sort_verdict (&p, 3000000, 400, false, 0, &v);
   assert_true (v.sorts);
   assert_true (v.refuse);
   assert_non_null (strstr (v.say, "shard02 sorts"));
   assert_non_null (strstr (v.say, "shard01 walks its index"));
}

static void
test_verdict_ferretdb (void **state)
{
   lab_fold_run_sort_verdict_t v;
   lab_store_facts_plan_t p;

   (void)state;
   /* FerretDB sorts every read in memory and never spills (it ignores allowDiskUse) */
   plan_of ("explain-ferretdb-1.24.json", &p);
   lab_fold_run_sort_verdict (&p, 500000, 400, false, 0, &v);
   assert_true (v.sorts);
   assert_false (v.spills);
   assert_false (v.refuse);
   assert_non_null (strstr (v.say, "FerretDB"));
   assert_non_null (strstr (v.say, "in memory"));
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_verdict_index_walk),
      cmocka_unit_test (test_verdict_sorts),
      cmocka_unit_test (test_verdict_multikey_and_shards),
      cmocka_unit_test (test_verdict_ferretdb),
   };
   return lab_test_run_group ("fold_plan", tests, NULL, NULL);
}
