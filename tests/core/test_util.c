/*
 * test_util.c -- unit tests of core/: error helpers, URI parsing and redaction, size/duration/int
 * parsing with overflow, common option handling, pretty JSON and atomic writes.
 */
#include "tests/testutil.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"
#include "core/uri.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void
test_error_prefix (void **state)
{
   bson_error_t e;

   (void) state;
   lab_error_set (&e, LAB_ERROR_CSV, 7, "bad field %d", 3);
   lab_error_prefix (&e, "%s:%d", "a.csv", 12);
   assert_string_equal (e.message, "a.csv:12: bad field 3");
   assert_int_equal (e.domain, LAB_ERROR_CSV);
   assert_int_equal (e.code, 7);
   assert_int_equal (lab_error_exit_code (&e), 1);
   lab_error_set (&e, LAB_ERROR_USAGE, 1, "x");
   assert_int_equal (lab_error_exit_code (&e), 2);
   lab_error_set (&e, LAB_ERROR_VERIFY, 1, "x");
   assert_int_equal (lab_error_exit_code (&e), 3);
   lab_error_set_errno (&e, 2, "open '%s'", "f");
   assert_string_equal (e.message, "open 'f': No such file or directory");
}

static void
test_uri_parse (void **state)
{
   lab_uri_t u;
   bson_error_t e;

   (void) state;
   assert_true (lab_uri_parse ("wiredtiger:/tmp/x", &u, &e));
   assert_int_equal (u.backend, LAB_BACKEND_WT);
   assert_string_equal (u.wt_home, "/tmp/x");
   assert_string_equal (lab_uri_db (&u, NULL), "layoutlab");
   lab_uri_cleanup (&u);

   assert_true (lab_uri_parse ("mongodb://u:p@h:27017/bills?authSource=admin", &u, &e));
   assert_int_equal (u.backend, LAB_BACKEND_MONGO);
   assert_string_equal (lab_uri_db (&u, NULL), "bills");
   assert_string_equal (lab_uri_db (&u, "other"), "other");
   lab_uri_cleanup (&u);

   assert_false (lab_uri_parse ("wiredtiger:", &u, &e));
   assert_int_equal (e.code, LAB_STORE_ERR_BAD_URI);
   assert_false (lab_uri_parse ("postgres://x", &u, &e));
   assert_non_null (strstr (e.message, "unknown URI scheme"));
   assert_false (lab_uri_parse ("mongodb://user:secret@", &u, &e));
   assert_null (strstr (e.message, "secret"));
   assert_false (lab_uri_parse ("", &u, &e));
}

static void
test_uri_redact (void **state)
{
   char *r;

   (void) state;
   r = lab_uri_redact ("mongodb://alice:s3cr%40t@db1:27017,db2/x?authSource=admin");
   assert_string_equal (r, "mongodb://***@db1:27017,db2/x?authSource=admin");
   bson_free (r);
   r = lab_uri_redact ("mongodb://a:b@c@host/");
   assert_string_equal (r, "mongodb://***@host/");
   bson_free (r);
   r = lab_uri_redact ("mongodb://host/?password=zz&w=1");
   assert_string_equal (r, "mongodb://host/?password=***&w=1");
   bson_free (r);
   r = lab_uri_redact ("wiredtiger:./data");
   assert_string_equal (r, "wiredtiger:./data");
   bson_free (r);
   r = lab_uri_redact ("mongodb+srv://u:p@cluster0.example.net");
   assert_string_equal (r, "mongodb+srv://***@cluster0.example.net");
   bson_free (r);
}

static void
test_sizes (void **state)
{
   uint64_t v;
   bson_error_t e;

   (void) state;
   assert_true (lab_parse_size ("4096", "x", &v, &e));
   assert_int_equal (v, 4096);
   assert_true (lab_parse_size ("16MiB", "x", &v, &e));
   assert_int_equal (v, 16777216);
   assert_true (lab_parse_size ("16M", "x", &v, &e));
   assert_int_equal (v, 16777216);
   assert_true (lab_parse_size ("1.5G", "x", &v, &e));
   assert_int_equal (v, 1610612736ull);
   assert_true (lab_parse_size ("10MB", "x", &v, &e));
   assert_int_equal (v, 10000000);
   assert_true (lab_parse_size ("64k", "x", &v, &e));
   assert_int_equal (v, 65536);
   assert_false (lab_parse_size ("-1", "--batch-bytes", &v, &e));
   assert_non_null (strstr (e.message, "--batch-bytes"));
   assert_false (lab_parse_size ("12Q", "x", &v, &e));
   assert_false (lab_parse_size ("", "x", &v, &e));
   assert_false (lab_parse_size ("99999999999T", "x", &v, &e));
   assert_non_null (strstr (e.message, "too large"));
}

static void
test_durations_ints (void **state)
{
   uint64_t ns;
   int64_t i;
   bson_error_t e;

   (void) state;
   assert_true (lab_parse_duration_ns ("1s", "x", &ns, &e));
   assert_int_equal (ns, 1000000000ull);
   assert_true (lab_parse_duration_ns ("250ms", "x", &ns, &e));
   assert_int_equal (ns, 250000000ull);
   assert_true (lab_parse_duration_ns ("2m", "x", &ns, &e));
   assert_int_equal (ns, 120000000000ull);
   assert_true (lab_parse_duration_ns ("0.5", "x", &ns, &e));
   assert_int_equal (ns, 500000000ull);
   assert_false (lab_parse_duration_ns ("fast", "--interval", &ns, &e));
   assert_non_null (strstr (e.message, "--interval"));
   assert_true (lab_parse_int ("42", "n", 1, 100, &i, &e));
   assert_int_equal (i, 42);
   assert_false (lab_parse_int ("0", "--parallel", 1, 64, &i, &e));
   assert_non_null (strstr (e.message, "out of range"));
   assert_false (lab_parse_int ("9223372036854775808", "n", 0, INT64_MAX, &i, &e));
   assert_false (lab_parse_int ("12x", "n", 0, 100, &i, &e));
}

static void
test_cli_common (void **state)
{
   char *argv[] = {"tool", "--uri", "wiredtiger:/x", "--db=bills", "-q", "--cache-size", "64M",
                   "--progress", "never", "--json", "-", "--other", "--progress", "sometimes", "--uri"};
   int argc = (int) (sizeof argv / sizeof argv[0]);
   lab_cli_common_t c;
   bson_error_t e;
   int i = 1;

   (void) state;
   lab_cli_common_init (&c);
   while (i < 11) {
      assert_int_equal (lab_cli_common_take (&c, argc, argv, &i, &e), 1);
      i++;
   }
   assert_string_equal (c.uri, "wiredtiger:/x");
   assert_string_equal (c.db, "bills");
   assert_true (c.quiet);
   assert_int_equal (c.cache_size_bytes, 64 * 1048576);
   assert_int_equal (c.progress, LAB_PROGRESS_NEVER);
   assert_string_equal (c.json_path, "-");
   assert_int_equal (lab_cli_common_take (&c, argc, argv, &i, &e), 0); /* --other */
   i++;
   assert_int_equal (lab_cli_common_take (&c, argc, argv, &i, &e), -1); /* bad progress mode */
   assert_non_null (strstr (e.message, "sometimes"));
   i++;
   assert_int_equal (lab_cli_common_take (&c, argc, argv, &i, &e), -1); /* --uri without value */
   assert_int_equal (e.domain, LAB_ERROR_USAGE);
}

static void
test_json_pretty_and_atomic (void **state)
{
   bson_t *doc = BCON_NEW ("a", BCON_INT32 (1), "s", BCON_UTF8 ("x, {y}: [z]\""), "e", "[", "]", "o", "{",
                           "b", BCON_DOUBLE (2.5), "}");
   char *dir = lab_test_tmpdir ("json");
   char *path = bson_strdup_printf ("%s/out.json", dir);
   char *json = lab_json_pretty (doc);
   bson_error_t e;
   bson_t parsed;
   FILE *f;
   char buf[512];
   size_t n;

   (void) state;
   assert_non_null (strstr (json, "\n  \"a\" : 1,\n"));
   assert_non_null (strstr (json, "\"x, {y}: [z]\\\"\""));
   assert_true (bson_init_from_json (&parsed, json, -1, &e));
   assert_true (bson_equal (&parsed, doc));
   bson_destroy (&parsed);
   assert_true (lab_json_write (doc, path, &e));
   f = fopen (path, "r");
   assert_non_null (f);
   n = fread (buf, 1, sizeof buf - 1, f);
   fclose (f);
   buf[n] = '\0';
   assert_string_equal (buf, json);
   assert_false (lab_json_write (doc, "/nonexistent-dir/x.json", &e));
   assert_non_null (strstr (e.message, "/nonexistent-dir/x.json"));
   bson_free (json);
   bson_destroy (doc);
   lab_test_rmtree (dir);
   bson_free (path);
   bson_free (dir);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_error_prefix), cmocka_unit_test (test_uri_parse),
      cmocka_unit_test (test_uri_redact),   cmocka_unit_test (test_sizes),
      cmocka_unit_test (test_durations_ints), cmocka_unit_test (test_cli_common),
      cmocka_unit_test (test_json_pretty_and_atomic),
   };
   return cmocka_run_group_tests (tests, NULL, NULL);
}
