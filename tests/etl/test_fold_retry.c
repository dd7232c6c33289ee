/*
 * test_fold_retry.c -- unit tests of the fold's retries: which errors a fold range retries from its
 * checkpoint (lab_store_error_transient, store/mongo_util.c: network, server selection, failover and
 * lost-cursor codes in libmongoc's domains, the store's UNREACHABLE) and which it does not (usage, a
 * refused document, a missing index, a server code in a non-server domain), and the backoff's doubling
 * and cap (etl/retry.c).
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "etl/retry.h"
#include "store/store.h"

#include <mongoc/mongoc.h>

static bson_error_t
err (uint32_t domain, uint32_t code)
{
   bson_error_t e;

   bson_set_error (&e, domain, code, "domain %u code %u", domain, code);
   return e;
}

static void
test_transient (void **state)
{
   const uint32_t codes[] = { 6, 7, 43, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436 };
   const uint32_t server_domains[] = { MONGOC_ERROR_SERVER, MONGOC_ERROR_QUERY, MONGOC_ERROR_COMMAND,
                                       MONGOC_ERROR_WRITE_CONCERN, MONGOC_ERROR_COLLECTION };
   bson_error_t e;
   size_t i, d;

   for (i = 0; i < sizeof codes / sizeof codes[0]; i++) {
      for (d = 0; d < sizeof server_domains / sizeof server_domains[0]; d++) {
         e = err (server_domains[d], codes[i]);
         assert_true (lab_store_error_transient (&e));
      }
   }
   /* network and server selection, whatever the code */
   e = err (MONGOC_ERROR_STREAM, MONGOC_ERROR_STREAM_SOCKET);
   assert_true (lab_store_error_transient (&e));
   e = err (MONGOC_ERROR_STREAM, MONGOC_ERROR_STREAM_CONNECT);
   assert_true (lab_store_error_transient (&e));
   e = err (MONGOC_ERROR_SERVER_SELECTION, MONGOC_ERROR_SERVER_SELECTION_FAILURE);
   assert_true (lab_store_error_transient (&e));
   /* the MongoDB backend turns those into the store's UNREACHABLE */
   e = err (LAB_ERROR_STORE, LAB_STORE_ERR_UNREACHABLE);
   assert_true (lab_store_error_transient (&e));
}

static void
test_not_transient (void **state)
{
   bson_error_t e;

   assert_false (lab_store_error_transient (NULL));
   e = err (LAB_ERROR_USAGE, 0);
   assert_false (lab_store_error_transient (&e));
   e = err (LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX);
   assert_false (lab_store_error_transient (&e));
   e = err (LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC); /* a batch with refused documents */
   assert_false (lab_store_error_transient (&e));
   e = err (LAB_ERROR_IO, 28); /* ENOSPC */
   assert_false (lab_store_error_transient (&e));
   e = err (MONGOC_ERROR_SERVER, 11000); /* DuplicateKey */
   assert_false (lab_store_error_transient (&e));
   e = err (MONGOC_ERROR_SERVER, 13); /* Unauthorized */
   assert_false (lab_store_error_transient (&e));
   e = err (MONGOC_ERROR_SERVER, 2); /* BadValue */
   assert_false (lab_store_error_transient (&e));
   e = err (MONGOC_ERROR_CLIENT, 43); /* a server code, but not from a server */
   assert_false (lab_store_error_transient (&e));
   e = err (LAB_ERROR_WT, 10107);
   assert_false (lab_store_error_transient (&e));
}

static void
test_delay (void **state)
{
   assert_int_equal (lab_fold_retry_delay_ms (1, 1000, 16000), 1000);
   assert_int_equal (lab_fold_retry_delay_ms (2, 1000, 16000), 2000);
   assert_int_equal (lab_fold_retry_delay_ms (3, 1000, 16000), 4000);
   assert_int_equal (lab_fold_retry_delay_ms (5, 1000, 16000), 16000);
   assert_int_equal (lab_fold_retry_delay_ms (6, 1000, 16000), 16000);
   assert_int_equal (lab_fold_retry_delay_ms (100, 1000, 16000), 16000); /* no overflow */
   assert_int_equal (lab_fold_retry_delay_ms (0, 1000, 16000), 1000);
   assert_int_equal (lab_fold_retry_delay_ms (3, 300, 1000), 1000);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_transient),
      cmocka_unit_test (test_not_transient),
      cmocka_unit_test (test_delay),
   };

   return lab_test_run_group ("fold_retry", tests, NULL, NULL);
}
