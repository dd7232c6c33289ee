/*
 * test_store_clustered_server.c -- lab_store_create_clustered on a server (docs/mongodb-compat.md
 * §23): the test server (FerretDB) and MongoDB before 5.3 refuse it with LAB_STORE_ERR_NOT_SUPPORTED naming
 * why, before anything is created; a 5.3+ mongod ($LAYOUTLAB_TEST_URI) creates it, and creating it again
 * is fine.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/store.h"

#include <stdio.h>
#include <string.h>

/* test_create_clustered -- refused or created, as the server's kind and version say. */
static void
test_create_clustered (void **state)
{
   char *db = NULL, *uri = lab_test_store_uri ("mongodb", "clustered", &db);
   lab_store_opts_t o = { .db = NULL, .connect_timeout_ms = 5000 };
   lab_store_server_info_t si;
   lab_store_session_t *sess;
   bson_error_t e;
   lab_store_t *st;
   int major = 0, minor = 0;
   bool exists = true, newer;

   (void)state;
   assert_non_null (uri);
   o.db = db;
   st = lab_store_open (uri, &o, &e);
   if (!st) {
      fail_msg ("open the test server: %s", e.message);
   }
   assert_true (lab_store_server_info (st, &si, &e));
   sess = lab_store_session_open (st, &e);
   assert_non_null (sess);
   newer = sscanf (si.version, "%d.%d", &major, &minor) == 2 && (major > 5 || (major == 5 && minor >= 3));
   if (si.query_subset || !newer) {
      assert_false (lab_store_create_clustered (sess, "clus", &e));
      assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED));
      assert_non_null (strstr (e.message, si.query_subset ? "FerretDB" : "5.3"));
      assert_true (lab_store_exists (sess, "clus", &exists, &e));
      assert_false (exists);
      fprintf (stderr, "refused: %s\n", e.message);
   } else {
      assert_true (lab_store_create_clustered (sess, "clus", &e));
      assert_true (lab_store_create_clustered (sess, "clus", &e));
      assert_true (lab_store_drop (sess, "clus", &e));
   }
   lab_store_session_close (sess);
   lab_store_close (st);
   bson_free (uri);
   bson_free (db);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_create_clustered),
   };
   return lab_test_run_group ("store_clustered_server", tests, NULL, NULL);
}
