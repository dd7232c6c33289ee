/*
 * test_bad_input.c -- the store refuses bad input with one clear error each: unparsable URIs, an
 * unreachable server (it must give up, not hang), credentials kept out of messages, a WiredTiger home
 * that cannot be created, a missing collection. Needs no server.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "core/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* open_fails -- lab_store_open(uri) must fail with LAB_ERROR_STORE/code; returns the error. */
static bson_error_t
open_fails (const char *uri, const lab_store_opts_t *opts, uint32_t code)
{
   bson_error_t err;
   lab_store_t *store;

   memset (&err, 0, sizeof err);
   store = lab_store_open (uri, opts, &err);
   if (store) {
      lab_store_close (store);
      fail_msg ("opening '%s' succeeded; it should fail with code %u", uri, code);
   }
   if (err.domain != LAB_ERROR_STORE || err.code != code) {
      fail_msg ("opening '%s': expected store error %u, got domain %u code %u: %s", uri, code, err.domain,
                err.code, err.message);
   }
   assert_true (strlen (err.message) > 20);
   return err;
}

static void
test_unparsable_uri (void **state)
{
   bson_error_t err;

   err = open_fails ("mongodb://", NULL, LAB_STORE_ERR_BAD_URI);
   assert_non_null (strstr (err.message, "mongodb://"));
   err = open_fails ("mongodb://127.0.0.1:notaport/", NULL, LAB_STORE_ERR_BAD_URI);
   assert_non_null (strstr (err.message, "notaport"));
   err = open_fails ("mongodb://127.0.0.1/?serverSelectionTimeoutMS=abc&w=", NULL, LAB_STORE_ERR_BAD_URI);
   err = open_fails ("postgres://127.0.0.1/db", NULL, LAB_STORE_ERR_BAD_URI);
   assert_non_null (strstr (err.message, "wiredtiger:")); /* says what would work */
   err = open_fails ("wiredtiger:", NULL, LAB_STORE_ERR_BAD_URI);
   assert_non_null (strstr (err.message, "wiredtiger:DIR"));
   /* a password in a refused URI is never echoed */
   err = open_fails ("mongodb://alice:s3cr3t-pw@127.0.0.1:notaport/", NULL, LAB_STORE_ERR_BAD_URI);
   assert_null (strstr (err.message, "s3cr3t-pw"));
}

static void
test_unreachable (void **state)
{
   lab_store_opts_t opts = { 0 };
   bson_error_t err;

   /* nothing listens on port 1: the open must come back (with the URI's own short timeout) */
   err = open_fails ("mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=1500", NULL, LAB_STORE_ERR_UNREACHABLE);
   assert_non_null (strstr (err.message, "127.0.0.1:1"));
   assert_non_null (strstr (err.message, "cannot reach"));
   /* ... or with connect_timeout_ms when the URI sets none */
   opts.connect_timeout_ms = 1000;
   err = open_fails ("mongodb://127.0.0.1:1/layoutlab", &opts, LAB_STORE_ERR_UNREACHABLE);
   assert_non_null (strstr (err.message, "127.0.0.1:1"));
   /* credentials stay out of the message */
   err = open_fails ("mongodb://alice:s3cr3t-pw@127.0.0.1:1/?serverSelectionTimeoutMS=1000&authSource=admin",
                     NULL, LAB_STORE_ERR_UNREACHABLE);
   assert_null (strstr (err.message, "s3cr3t-pw"));
   assert_non_null (strstr (err.message, "127.0.0.1:1"));
}

static void
test_wt_home_not_writable (void **state)
{
   char *dir = lab_test_tmpdir ("badinput");
   char *file = bson_strdup_printf ("%s/a-regular-file", dir);
   char *uri = bson_strdup_printf ("wiredtiger:%s/sub/home", file);
   char *missing = bson_strdup_printf ("wiredtiger:%s/never-created", dir);
   lab_store_opts_t opts = { 0 };
   lab_store_t *store;
   bson_error_t err;
   FILE *f = fopen (file, "w");

   assert_non_null (f);
   fputs ("not a directory\n", f);
   fclose (f);
   /* a path under a regular file cannot be created, even by root (mode bits would not stop root) */
   opts.create = true;
   store = lab_store_open (uri, &opts, &err);
   assert_null (store);
   assert_true (lab_error_is (&err, LAB_ERROR_STORE, LAB_STORE_ERR_PERMISSION));
   assert_non_null (strstr (err.message, "a-regular-file/sub/home"));
   assert_non_null (strstr (err.message, "not writable"));
   /* the regular file itself as the home */
   bson_free (uri);
   uri = bson_strdup_printf ("wiredtiger:%s", file);
   store = lab_store_open (uri, &opts, &err);
   assert_null (store);
   assert_non_null (strstr (err.message, "a-regular-file"));
   /* a missing home without create: named, with the fix */
   opts.create = false;
   store = lab_store_open (missing, &opts, &err);
   assert_null (store);
   assert_non_null (strstr (err.message, "never-created"));
   assert_non_null (strstr (err.message, "does not exist"));

   lab_test_rmtree (dir);
   bson_free (missing);
   bson_free (uri);
   bson_free (file);
   bson_free (dir);
}

static void
test_missing_collection (void **state)
{
   char *dir = lab_test_tmpdir ("badinput");
   char *uri = bson_strdup_printf ("wiredtiger:%s", dir);
   lab_store_opts_t opts = { 0 };
   lab_store_t *store;
   lab_store_session_t *sess;
   bson_error_t err;
   int64_t n;

   opts.create = true;
   opts.cache_size_bytes = 64 * 1024 * 1024;
   store = lab_store_open (uri, &opts, &err);
   if (!store) {
      fail_msg ("open %s: %s", uri, err.message);
   }
   sess = lab_store_session_open (store, &err);
   assert_non_null (sess);
   assert_false (lab_store_count (sess, "bill_detial", &n, &err));
   assert_true (lab_error_is (&err, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION));
   assert_non_null (strstr (err.message, "bill_detial"));
   assert_non_null (strstr (err.message, "does not exist"));
   assert_non_null (strstr (err.message, dir));
   lab_store_session_close (sess);
   lab_store_close (store);
   lab_test_rmtree (dir);
   bson_free (uri);
   bson_free (dir);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_unparsable_uri),
      cmocka_unit_test (test_unreachable),
      cmocka_unit_test (test_wt_home_not_writable),
      cmocka_unit_test (test_missing_collection),
   };
   return lab_test_run_group ("bad_input", tests, NULL, NULL);
}
