/*
 * test_util.c -- unit tests of core/: error helpers (a full disk's message too), URI parsing and
 * redaction, size/duration/int parsing with overflow, common option handling, pretty JSON and atomic
 * writes; the pure parts of the store: the server-process name check for /proc and the MongoDB
 * sorted-read command.
 */
#include "tests/testutil.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/log.h"
#include "core/opts.h"
#include "core/progress.h"
#include "core/uri.h"
#include "store/mongo_private.h" /* lab_mongo_sorted_command, lab_store_pid_comm: the store's internals */
#include "store/store.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void
test_error_prefix (void **state)
{
   bson_error_t e;

   (void)state;
   lab_error_set (&e, LAB_ERROR_CSV, 7, "bad field %d", 3);
   lab_error_prefix (&e, "%s:%d", "a.csv", 12);
   assert_string_equal (e.message, "a.csv:12: bad field 3");
   assert_int_equal (e.domain, LAB_ERROR_CSV);
   assert_int_equal (e.code, 7);
   assert_int_equal (lab_error_exit_code (&e), 1);
   /* every usage code exits 2, every verify code 3 */
   for (uint32_t c = LAB_USAGE_ERR_UNKNOWN_OPTION; c <= LAB_USAGE_ERR_MISUSE; c++) {
      lab_error_set (&e, LAB_ERROR_USAGE, c, "x");
      assert_int_equal (lab_error_exit_code (&e), 2);
   }
   for (uint32_t c = LAB_VERIFY_ERR_NOT_FOLDED; c <= LAB_VERIFY_ERR_ROW_COUNT; c++) {
      lab_error_set (&e, LAB_ERROR_VERIFY, c, "x");
      assert_int_equal (lab_error_exit_code (&e), 3);
   }
   lab_error_set (&e, LAB_ERROR_SCAN, LAB_SCAN_ERR_RESTART_FAILED, "x");
   assert_int_equal (lab_error_exit_code (&e), 1);
   assert_true (lab_error_is (&e, LAB_ERROR_SCAN, LAB_SCAN_ERR_RESTART_FAILED));
   assert_false (lab_error_is (&e, LAB_ERROR_USAGE, LAB_SCAN_ERR_RESTART_FAILED)); /* the domain counts */
   assert_false (lab_error_is (NULL, LAB_ERROR_SCAN, LAB_SCAN_ERR_RESTART_FAILED));
   lab_error_set_errno (&e, 2, "open '%s'", "f");
   assert_string_equal (e.message, "open 'f': No such file or directory");
}

/* test_error_nospace -- a full disk names the directory and its free space; the decoration is found
 * again whatever the domain (a WiredTiger panic carries WT_PANIC, not ENOSPC). */
static void
test_error_nospace (void **state)
{
   bson_error_t e;
   char dir[] = "/tmp/lab-nospace-XXXXXX";

   (void)state;
   assert_non_null (mkdtemp (dir));
   lab_error_set_errno (&e, ENOSPC, "write a sort file in %s", dir);
   assert_true (lab_error_is_nospace (&e));
   lab_error_prefix_nospace (&e, dir);
   assert_int_equal (e.domain, LAB_ERROR_IO);
   assert_int_equal (e.code, ENOSPC);
   assert_non_null (strstr (e.message, "no space left on device writing to "));
   assert_non_null (strstr (e.message, dir));
   assert_non_null (strstr (e.message, " MiB free; free space there and run again): write a sort file in "));
   /* a panic code with the decoration is a full disk; without it, it is not */
   lab_error_set (&e, LAB_ERROR_WT, (uint32_t)-31804, "commit: WT_PANIC");
   assert_false (lab_error_is_nospace (&e));
   lab_error_prefix_nospace (&e, dir);
   assert_true (lab_error_is_nospace (&e));
   /* a directory statvfs cannot see still gives the message, without a figure */
   lab_error_set (&e, LAB_ERROR_WT, 28, "checkpoint");
   assert_true (lab_error_is_nospace (&e));
   lab_error_prefix_nospace (&e, "/nonexistent/lab-nospace");
   assert_string_equal (e.message, "no space left on device writing to /nonexistent/lab-nospace (free space "
                                   "unknown; free space there and run again): checkpoint");
   lab_error_set (&e, LAB_ERROR_IO, EIO, "read");
   assert_false (lab_error_is_nospace (&e));
   assert_false (lab_error_is_nospace (NULL));
   lab_error_prefix_nospace (NULL, dir);
   assert_int_equal (rmdir (dir), 0);
}

static void
test_uri_parse (void **state)
{
   lab_store_uri_t u;
   bson_error_t e;

   (void)state;
   assert_true (lab_store_uri_parse ("wiredtiger:/tmp/x", &u, &e));
   assert_int_equal (u.backend, LAB_BACKEND_WT);
   assert_string_equal (u.wt_home, "/tmp/x");
   assert_string_equal (lab_store_uri_db (&u, NULL), "layoutlab");
   lab_store_uri_cleanup (&u);

   assert_true (lab_store_uri_parse ("mongodb://u:p@h:27017/bills?authSource=admin", &u, &e));
   assert_int_equal (u.backend, LAB_BACKEND_MONGO);
   assert_string_equal (lab_store_uri_db (&u, NULL), "bills");
   assert_string_equal (lab_store_uri_db (&u, "other"), "other");
   lab_store_uri_cleanup (&u);

   assert_false (lab_store_uri_parse ("wiredtiger:", &u, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_URI));
   assert_false (lab_store_uri_parse ("postgres://x", &u, &e));
   assert_non_null (strstr (e.message, "unknown URI scheme"));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_URI));
   assert_false (lab_store_uri_parse ("mongodb://user:secret@", &u, &e));
   assert_null (strstr (e.message, "secret"));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_URI));
   assert_false (lab_store_uri_parse ("", &u, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_URI));
}

static void
test_uri_redact (void **state)
{
   char *r;

   (void)state;
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

   (void)state;
   assert_true (lab_parse_size ("4096", "x", &v, &e));
   assert_int_equal (v, 4096);
   assert_true (lab_parse_size ("16MiB", "x", &v, &e));
   assert_int_equal (v, 16777216);
   assert_true (lab_parse_size ("16M", "x", &v, &e));
   assert_int_equal (v, 16777216);
   assert_true (lab_parse_size ("1.5G", "x", &v, &e));
   assert_int_equal (v, 1610612736ull);
   /* one meaning for every spelling of a unit: 1024-based, as WiredTiger's own cache_size=64MB reads */
   assert_true (lab_parse_size ("10MB", "x", &v, &e));
   assert_int_equal (v, 10 * 1048576);
   assert_true (lab_parse_size ("64MB", "x", &v, &e));
   assert_int_equal (v, 64 * 1048576);
   assert_true (lab_parse_size ("64mb", "x", &v, &e));
   assert_int_equal (v, 64 * 1048576);
   assert_true (lab_parse_size ("64k", "x", &v, &e));
   assert_int_equal (v, 65536);
   assert_true (lab_parse_size ("64KB", "x", &v, &e));
   assert_int_equal (v, 65536);
   assert_true (lab_parse_size ("2GB", "x", &v, &e));
   assert_int_equal (v, 2ull * 1073741824);
   assert_true (lab_parse_size ("1TB", "x", &v, &e));
   assert_int_equal (v, 1099511627776ull);
   assert_false (lab_parse_size ("-1", "--batch-bytes", &v, &e));
   assert_non_null (strstr (e.message, "--batch-bytes"));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_false (lab_parse_size ("12Q", "x", &v, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_false (lab_parse_size ("", "x", &v, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_false (lab_parse_size ("99999999999T", "x", &v, &e));
   assert_non_null (strstr (e.message, "too large"));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
}

static void
test_durations_ints (void **state)
{
   uint64_t ns;
   int64_t i;
   bson_error_t e;

   (void)state;
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
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_true (lab_parse_int ("42", "n", 1, 100, &i, &e));
   assert_int_equal (i, 42);
   assert_false (lab_parse_int ("0", "--parallel", 1, 64, &i, &e));
   assert_non_null (strstr (e.message, "out of range"));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_false (lab_parse_int ("9223372036854775808", "n", 0, INT64_MAX, &i, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_false (lab_parse_int ("12x", "n", 0, 100, &i, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
}

static void
test_cli_common (void **state)
{
   char *argv[] = { "tool",       "--uri",      "wiredtiger:/x", "--db=bills", "-q", "--cache-size",
                    "64M",        "--progress", "never",         "--json",     "-",  "--other",
                    "--progress", "sometimes",  "--uri" };
   int argc = (int)(sizeof argv / sizeof argv[0]);
   lab_cli_common_t c;
   bson_error_t e;
   int i = 1;

   (void)state;
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
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   i++;
   assert_int_equal (lab_cli_common_take (&c, argc, argv, &i, &e), -1); /* --uri without value */
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING_VALUE));
}

/* test_cli_server_timeout -- --server-timeout: 5 s by default, a duration, refused when absurd */
static void
test_cli_server_timeout (void **state)
{
   char *argv[] = { "tool", "--server-timeout", "250ms", "--server-timeout=2m", "--server-timeout", "0s" };
   lab_cli_common_t c;
   bson_error_t e;
   int i = 1;

   (void)state;
   lab_cli_common_init (&c);
   assert_int_equal (c.server_timeout_ms, 5000);
   assert_int_equal (lab_cli_common_take (&c, 6, argv, &i, &e), 1);
   assert_int_equal (c.server_timeout_ms, 250);
   i++;
   assert_int_equal (lab_cli_common_take (&c, 6, argv, &i, &e), 1);
   assert_int_equal (c.server_timeout_ms, 120000);
   i++;
   assert_int_equal (lab_cli_common_take (&c, 6, argv, &i, &e), -1);
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
}

/* test_cli_output_check -- an output path is checked before any work: its directory exists, is one,
 * and takes a file; nothing is left behind */
static void
test_cli_output_check (void **state)
{
   char *dir = lab_test_tmpdir ("outcheck");
   char *ok = bson_strdup_printf ("%s/run.json", dir);
   char *missing = bson_strdup_printf ("%s/no/such/dir/run.json", dir);
   char *file_as_dir = bson_strdup_printf ("%s/run.json/x.json", dir);
   bson_error_t e;
   FILE *f;

   (void)state;
   assert_true (lab_cli_output_check (NULL, "--out", &e));
   assert_true (lab_cli_output_check ("-", "--out", &e));
   assert_true (lab_cli_output_check (ok, "--out", &e));
   assert_int_equal (access (ok, F_OK), -1); /* the check writes nothing it keeps */
   assert_false (lab_cli_output_check (missing, "--out", &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_non_null (strstr (e.message, "does not exist"));
   assert_non_null (strstr (e.message, "--out"));
   f = fopen (ok, "w");
   assert_non_null (f);
   fclose (f);
   assert_false (lab_cli_output_check (file_as_dir, "-o", &e)); /* a file where the directory should be */
   assert_non_null (strstr (e.message, "not a directory"));
   assert_false (lab_cli_output_check (dir, "--json", &e)); /* the path is a directory */
   assert_non_null (strstr (e.message, "is a directory"));
   /* a directory no one may create files in, root included */
   assert_false (lab_cli_output_check ("/proc/layoutlab-run.json", "--out", &e));
   assert_non_null (strstr (e.message, "cannot create a file"));
   bson_free (file_as_dir);
   bson_free (missing);
   bson_free (ok);
   bson_free (dir);
}

/* parse_one -- lab_cli_parse of a NULL-terminated argument list (argv[0] is the tool). */
static bool
parse_one (const lab_cli_spec_t *spec, const char **args, bson_error_t *e)
{
   int argc = 0;

   while (args[argc]) {
      argc++;
   }
   return lab_cli_parse (spec, argc, (char **)args, 1, e);
}

static void
test_cli_parse (void **state)
{
   static const char *const modes[] = { "split", "reject", "fail", NULL };
   const char *name = NULL;
   int32_t par = 1, ms = 0;
   size_t batch = 0;
   uint64_t size = 0, dur = 0;
   double ratio = 0;
   int mode = 0;
   bool drop = false, drop_seen = false;
   lab_cli_list_t hoist = { 0 }, pos = { 0 };
   lab_cli_common_t c;
   bson_error_t e;
   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_STRING ("--name", 'o', &name),
      LAB_CLI_OPT_INT ("--parallel", 0, &par, 1, 64),
      LAB_CLI_OPT_INT ("--batch", 0, &batch, 1, 100000),
      LAB_CLI_OPT_SIZE ("--size", 0, &size),
      LAB_CLI_OPT_DURATION ("--every", 0, &dur),
      LAB_CLI_OPT_DURATION_MS ("--timeout", 0, &ms),
      LAB_CLI_OPT_DOUBLE ("--ratio", 0, &ratio),
      LAB_CLI_OPT_ENUM ("--mode", 0, &mode, modes),
      LAB_CLI_OPT_LIST ("--hoist", 0, &hoist),
      { .name = "--drop", .kind = LAB_CLI_FLAG, .field = &drop, .seen = &drop_seen },
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts, .common = &c, .positionals = &pos };
   lab_cli_spec_t nopos = { .opts = opts, .common = NULL, .positionals = NULL };

   (void)state;
   lab_cli_common_init (&c);
   /* both forms, short names, common options mixed in, repeatable options, positionals and "--" */
   {
      const char *args[] = { "t",
                             "--name",
                             "a",
                             "--parallel=8",
                             "in1.csv",
                             "--batch",
                             "500",
                             "--size",
                             "16M",
                             "--every=250ms",
                             "--timeout",
                             "2s",
                             "--ratio",
                             "1.5",
                             "--mode",
                             "reject",
                             "--hoist",
                             "x",
                             "--hoist=y",
                             "-q",
                             "--json",
                             "-",
                             "-",
                             "--drop",
                             "-o=b",
                             "--",
                             "--not-an-option",
                             NULL };
      assert_true (parse_one (&spec, args, &e));
   }
   assert_string_equal (name, "b"); /* the last one wins, -o=VALUE */
   assert_int_equal (par, 8);
   assert_int_equal (batch, 500);
   assert_int_equal (size, 16 * 1048576);
   assert_int_equal (dur, 250000000ull);
   assert_int_equal (ms, 2000);
   assert_true (ratio == 1.5);
   assert_int_equal (mode, 1);
   assert_true (drop && drop_seen);
   assert_int_equal (hoist.n, 2);
   assert_string_equal (hoist.v[0], "x");
   assert_string_equal (hoist.v[1], "y");
   assert_int_equal (pos.n, 3);
   assert_string_equal (pos.v[0], "in1.csv");
   assert_string_equal (pos.v[1], "-");
   assert_string_equal (pos.v[2], "--not-an-option");
   assert_true (c.quiet);
   assert_string_equal (c.json_path, "-");
   lab_cli_list_free (&hoist);
   lab_cli_list_free (&pos);
   {
      const char *args[] = { "t", "-o", "c", NULL };
      assert_true (parse_one (&spec, args, &e));
      assert_string_equal (name, "c");
   }

   /* unknown option, missing value, bad values: usage errors naming the option */
   struct {
      const char *a, *b, *want;
      uint32_t code;
   } bad[] = {
      { "--colour", NULL, "unknown option '--colour' (try --help)", LAB_USAGE_ERR_UNKNOWN_OPTION },
      { "--parallel", NULL, "option --parallel needs a value", LAB_USAGE_ERR_MISSING_VALUE },
      { "--parallel", "0", "--parallel", LAB_USAGE_ERR_BAD_VALUE },
      { "--parallel=65", NULL, "out of range", LAB_USAGE_ERR_BAD_VALUE },
      { "--batch", "x", "--batch", LAB_USAGE_ERR_BAD_VALUE },
      { "--size", "12Q", "--size", LAB_USAGE_ERR_BAD_VALUE },
      { "--every", "soon", "--every", LAB_USAGE_ERR_BAD_VALUE },
      { "--ratio", "1.5x", "--ratio: '1.5x' is not a number", LAB_USAGE_ERR_BAD_VALUE },
      { "--mode", "bend", "--mode: 'bend' is not one of split, reject, fail", LAB_USAGE_ERR_BAD_VALUE },
      { "--drop=yes", NULL, "takes no value", LAB_USAGE_ERR_UNEXPECTED_ARGUMENT },
      { "--progress", "sometimes", "sometimes", LAB_USAGE_ERR_BAD_VALUE },
      { "--json", NULL, "needs a value", LAB_USAGE_ERR_MISSING_VALUE },
      { "--cache-size", "512K", "below WiredTiger's minimum", LAB_USAGE_ERR_BAD_VALUE },
   };
   for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
      const char *args[] = { "t", bad[k].a, bad[k].b, NULL };
      memset (&e, 0, sizeof e);
      assert_false (parse_one (&spec, args, &e));
      if (!strstr (e.message, bad[k].want)) {
         fail_msg ("%s %s: '%s' lacks '%s'", bad[k].a, bad[k].b ? bad[k].b : "", e.message, bad[k].want);
      }
      if (!lab_error_is (&e, LAB_ERROR_USAGE, bad[k].code)) {
         fail_msg ("%s %s: domain %u code %u, want usage code %u", bad[k].a, bad[k].b ? bad[k].b : "",
                   e.domain, e.code, bad[k].code);
      }
      lab_cli_list_free (&hoist);
      lab_cli_list_free (&pos);
   }
   /* without positionals or common options in the spec, both are refused */
   {
      const char *args[] = { "t", "file.csv", NULL };
      assert_false (parse_one (&nopos, args, &e));
      assert_non_null (strstr (e.message, "unexpected argument 'file.csv'"));
      assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_UNEXPECTED_ARGUMENT));
   }
   {
      const char *args[] = { "t", "-q", NULL };
      assert_false (parse_one (&nopos, args, &e));
      assert_non_null (strstr (e.message, "unknown option '-q'"));
      assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_UNKNOWN_OPTION));
   }
}

/* test_cli_lists -- the sorted-list kinds: a list parsed and checked once into its field (the last one
 * given wins), a bad one refused by lab_cli_parse naming the option. */
static void
test_cli_lists (void **state)
{
   lab_sizes_t sizes = { 0 };
   lab_ratios_t ratios = { 0 };
   bson_error_t e;
   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_SIZES ("--sizes", 0, &sizes, "sizes", "give e.g. 1MiB,4MiB"),
      LAB_CLI_OPT_RATIOS ("--ratios", 0, &ratios, "ratios", "a fraction, e.g. 0.5,1"),
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts };

   (void)state;
   {
      const char *args[] = { "t", "--sizes", "1MiB", "--sizes=2MiB,8M", "--ratios", "0.25,1,2.5", NULL };
      assert_true (parse_one (&spec, args, &e));
      assert_int_equal (sizes.n, 2);
      assert_true (sizes.v[0] == 2u << 20 && sizes.v[1] == 8u << 20);
      assert_int_equal (ratios.n, 3);
      assert_true (ratios.v[0] == 0.25 && ratios.v[2] == 2.5);
   }
   {
      const char *args[] = { "t", "--sizes", "4MiB,1MiB", NULL };
      assert_false (parse_one (&spec, args, &e));
      assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
      assert_non_null (
         strstr (e.message, "--sizes: 1MiB is smaller than the one before it: give the sizes once"));
      assert_int_equal (sizes.n, 0);
   }
   {
      const char *args[] = { "t", "--ratios", "1,,2", NULL };
      assert_false (parse_one (&spec, args, &e));
      assert_non_null (
         strstr (e.message, "--ratios: \"\" is not a positive number (a fraction, e.g. 0.5,1)"));
   }
   {
      const char *args[] = { "t", "--sizes", ",", NULL };
      assert_false (parse_one (&spec, args, &e));
      assert_non_null (strstr (e.message, "--sizes: empty item in the list (give e.g. 1MiB,4MiB)"));
   }
   lab_sizes_free (&sizes);
   lab_ratios_free (&ratios);
}

/* test_cli_aliases -- other spellings (an old name, a neighbouring tool's, a common option's), names a tool
 * refuses with a reason, common options a tool does not use, and the nearest name for a typo. */
static void
test_cli_aliases (void **state)
{
   static const char *const types[] = { "csv", NULL };
   const char *out = NULL, *dst = NULL;
   int32_t par = 1;
   int type = 0;
   lab_cli_list_t files = { 0 };
   lab_cli_common_t c;
   bson_error_t e;
   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_STRING ("--out", 'o', &out),
      LAB_CLI_OPT_ALIAS ("--output", 0, "--out"),
      LAB_CLI_OPT_STRING ("--dst", 0, &dst),
      LAB_CLI_OPT_ALIAS ("--collection", 'c', "--dst"),
      LAB_CLI_OPT_INT ("--parallel", 0, &par, 1, 64),
      LAB_CLI_OPT_ALIAS ("--numInsertionWorkers", 'j', "--parallel"),
      LAB_CLI_OPT_ALIAS ("-d", 0, "--db"),
      LAB_CLI_OPT_ENUM ("--type", 0, &type, types),
      LAB_CLI_OPT_LIST ("--file", 0, &files),
      LAB_CLI_OPT_REFUSED ("--dst-file", 0, "the output is a collection: name it with --dst"),
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts, .common = &c, .positionals = &files };
   lab_cli_spec_t report = { .opts = opts,
                             .common = &c,
                             .positionals = &files,
                             .common_refused = LAB_CLI_COMMON_STORE | LAB_CLI_COMMON_PROGRESS,
                             .refused_why = "this tool reads only its results file" };

   (void)state;
   lab_cli_common_init (&c);
   {
      const char *args[] = { "t",      "--output", "a.md",   "--collection=bills",
                             "-j",     "3",        "-d",     "hosp",
                             "--type", "csv",      "--file", "x.csv",
                             "y.csv",  NULL };
      assert_true (parse_one (&spec, args, &e));
   }
   assert_string_equal (out, "a.md");
   assert_string_equal (dst, "bills");
   assert_int_equal (par, 3);
   assert_string_equal (c.db, "hosp");
   assert_int_equal (files.n, 2);
   assert_string_equal (files.v[0], "x.csv");
   lab_cli_list_free (&files);
   {
      const char *args[] = { "t", "-c", "b2", "--numInsertionWorkers=5", "-o", "r.md", NULL };
      assert_true (parse_one (&spec, args, &e));
      assert_string_equal (dst, "b2");
      assert_int_equal (par, 5);
      assert_string_equal (out, "r.md");
   }
   /* an alias checks its value as the option it stands for */
   {
      const char *args[] = { "t", "-j", "0", NULL };
      assert_false (parse_one (&spec, args, &e));
      assert_non_null (strstr (e.message, "--parallel: 0 is out of range"));
   }
   struct {
      const lab_cli_spec_t *spec;
      const char *a, *want;
   } bad[] = {
      { &spec, "--dst-file", "--dst-file: the output is a collection: name it with --dst" },
      { &spec, "--type=tsv", "--type: 'tsv' is not one of csv" },
      { &spec, "--dts", "unknown option '--dts' (did you mean --dst? try --help)" },
      { &spec, "--outt=x", "unknown option '--outt=x' (did you mean --out? try --help)" },
      { &spec, "--numinsertionworker", "(did you mean --numInsertionWorkers? try --help)" },
      { &spec, "--paralel", "(did you mean --parallel? try --help)" },
      { &spec, "--cache-siz", "(did you mean --cache-size? try --help)" },
      { &spec, "--verbo", "(did you mean --verbose? try --help)" },
      { &spec, "--colour", "unknown option '--colour' (try --help)" },
      { &report, "--uri", "option --uri is not used here: this tool reads only its results file" },
      { &report, "--db=x", "option --db is not used here" },
      { &report, "--cache-size", "option --cache-size is not used here" },
      { &report, "--progress", "option --progress is not used here" },
      /* a refused common option is never suggested */
      { &report, "--cache-siz", "unknown option '--cache-siz' (try --help)" },
   };
   for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
      const char *args[] = { "t", bad[k].a, "v", NULL };
      memset (&e, 0, sizeof e);
      assert_false (parse_one (bad[k].spec, args, &e));
      if (!strstr (e.message, bad[k].want)) {
         fail_msg ("%s: '%s' lacks '%s'", bad[k].a, e.message, bad[k].want);
      }
      assert_true (e.domain == LAB_ERROR_USAGE);
      lab_cli_list_free (&files);
   }
   /* what the refusing spec still takes */
   {
      const char *args[] = { "t", "--json", "-", "-q", NULL };
      assert_true (parse_one (&report, args, &e));
   }
   assert_int_equal (lab_cli_edit_distance ("--dts", "--dst", 3), 1);
   assert_int_equal (lab_cli_edit_distance ("abc", "abc", 3), 0);
   assert_int_equal (lab_cli_edit_distance ("kitten", "sitting", 5), 3);
   assert_int_equal (lab_cli_edit_distance ("a", "abcdefgh", 2), 3); /* capped */
   lab_cli_list_free (&files);
}

static void
test_cli_summary_header (void **state)
{
   char *argv[] = { "tool", "--uri", "mongodb://alice:s3cret@db1/x", "--uri=mongodb://bob:pw@db2/", "-q" };
   lab_cli_run_t run;
   bson_error_t e;
   bson_t doc;
   bson_iter_t it;
   char *json;

   (void)state;
   lab_cli_run_start (&run, "tool", 5, argv);
   lab_error_set (&e, LAB_ERROR_USAGE, 1, "bad thing");
   lab_cli_summary_init (&doc, &run, 2, &e);
   json = bson_as_relaxed_extended_json (&doc, NULL);
   assert_null (strstr (json, "s3cret"));
   assert_null (strstr (json, ":pw@"));
   assert_non_null (strstr (json, "db1/x"));
   assert_non_null (strstr (json, "\"--uri=mongodb://"));
   bson_free (json);
   assert_true (bson_iter_init_find (&it, &doc, "tool") && !strcmp (bson_iter_utf8 (&it, NULL), "tool"));
   assert_true (bson_iter_init_find (&it, &doc, "version"));
   assert_true (bson_iter_init_find (&it, &doc, "started") && strlen (bson_iter_utf8 (&it, NULL)) == 24);
   assert_true (bson_iter_utf8 (&it, NULL)[23] == 'Z');
   assert_true (bson_iter_init_find (&it, &doc, "finished"));
   assert_true (bson_iter_init_find (&it, &doc, "elapsed_s") && BSON_ITER_HOLDS_DOUBLE (&it));
   assert_true (bson_iter_init_find (&it, &doc, "exit_code") && bson_iter_int32 (&it) == 2);
   assert_true (bson_iter_init_find (&it, &doc, "ok") && !bson_iter_bool (&it));
   assert_true (bson_iter_init_find (&it, &doc, "error") &&
                !strcmp (bson_iter_utf8 (&it, NULL), "bad thing"));
   bson_destroy (&doc);
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

   (void)state;
   assert_non_null (strstr (json, "\n  \"a\" : 1,\n"));
   assert_non_null (strstr (json, "\"x, {y}: [z]\\\"\""));
   assert_true (bson_init_from_json (&parsed, json, -1, &e));
   assert_true (bson_equal (&parsed, doc));
   bson_destroy (&parsed);
   /* doubles as the shortest text that reads back the same, still doubles; integers untouched */
   {
      bson_t *nums =
         BCON_NEW ("d", BCON_DOUBLE (0.499712256), "t", BCON_DOUBLE (0.1), "one", BCON_DOUBLE (1.0), "neg",
                   BCON_DOUBLE (-2.5e-7), "big", BCON_DOUBLE (1e20), "third", BCON_DOUBLE (1.0 / 3.0), "i64",
                   BCON_INT64 (9007199254740993), "in_str", BCON_UTF8 ("0.49971225600000002"));
      char *nj = lab_json_pretty (nums);
      assert_non_null (strstr (nj, "\"d\" : 0.499712256,"));
      assert_non_null (strstr (nj, "\"t\" : 0.1,"));
      assert_non_null (strstr (nj, "\"one\" : 1.0,"));
      assert_non_null (strstr (nj, "\"neg\" : -2.5e-07,"));
      assert_non_null (strstr (nj, "\"third\" : 0.3333333333333333,"));
      assert_non_null (strstr (nj, "\"i64\" : 9007199254740993,"));
      assert_non_null (strstr (nj, "\"in_str\" : \"0.49971225600000002\""));
      assert_true (bson_init_from_json (&parsed, nj, -1, &e));
      assert_true (bson_equal (&parsed, nums)); /* every value and type read back as written */
      bson_destroy (&parsed);
      bson_free (nj);
      bson_destroy (nums);
   }
   assert_true (lab_json_write (doc, path, &e));
   f = fopen (path, "r");
   assert_non_null (f);
   n = fread (buf, 1, sizeof buf - 1, f);
   fclose (f);
   buf[n] = '\0';
   assert_string_equal (buf, json);
   assert_false (lab_json_write (doc, "/nonexistent-dir/x.json", &e));
   assert_non_null (strstr (e.message, "/nonexistent-dir/x.json"));
   assert_true (lab_error_is (&e, LAB_ERROR_IO, ENOENT));
   bson_free (json);
   bson_destroy (doc);
   lab_test_rmtree (dir);
   bson_free (path);
   bson_free (dir);
}

/* test_comm_trusted -- /proc/PID is followed only for mongod and the test server, never for what a pid
 * from a container names here (pid 1: systemd / init), nor for a prefix that is not the test server. */
static void
test_comm_trusted (void **state)
{
   char comm[64];

   (void)state;
   assert_true (lab_store_server_comm_trusted ("mongod"));
   assert_true (lab_store_server_comm_trusted ("ferretdb-test-s")); /* the kernel's 15-byte cut */
   assert_true (lab_store_server_comm_trusted ("ferretdb-test-server-0123abcd"));
   assert_false (lab_store_server_comm_trusted ("systemd"));
   assert_false (lab_store_server_comm_trusted ("init"));
   assert_false (lab_store_server_comm_trusted ("mongos")); /* no storage engine: nothing to measure */
   assert_false (lab_store_server_comm_trusted ("mongodb"));
   assert_false (lab_store_server_comm_trusted ("mongod "));
   assert_false (lab_store_server_comm_trusted ("ferretdb"));
   assert_false (lab_store_server_comm_trusted ("ferretdb-test"));
   assert_false (lab_store_server_comm_trusted (""));
   assert_false (lab_store_server_comm_trusted (NULL));
   /* this process: readable, without its newline, and not a server */
   assert_true (lab_store_pid_comm ((int64_t)getpid (), comm, sizeof comm));
   assert_non_null (strstr ("test_core_util", comm));
   assert_null (strchr (comm, '\n'));
   assert_false (lab_store_server_comm_trusted (comm));
   assert_false (lab_store_pid_comm (0, comm, sizeof comm));
   assert_false (lab_store_pid_comm (INT64_C (999999999), comm, sizeof comm)); /* above pid_max */
}

/* sort_of -- the $sort document of a sorted-read command (pipeline stage 1). */
static void
sort_of (const bson_t *cmd, bson_t *sort)
{
   bson_iter_t it, child;
   const uint8_t *data;
   uint32_t len;

   assert_true (bson_iter_init (&it, cmd));
   assert_true (bson_iter_find_descendant (&it, "pipeline.1.$sort", &child));
   assert_true (BSON_ITER_HOLDS_DOCUMENT (&child));
   bson_iter_document (&child, &len, &data);
   assert_true (bson_init_static (sort, data, len));
}

/* test_mongo_sorted_command -- sort on the key alone with hint to its index: nothing for mongod to sort;
 * _id joins the sort only for a server that sorts in memory (FerretDB); the range goes into $match. */
static void
test_mongo_sorted_command (void **state)
{
   bson_t *index = BCON_NEW ("bill_id", BCON_INT32 (1));
   bson_t *want_sort = BCON_NEW ("bill_id", BCON_INT32 (1));
   bson_t *want_sort_mem = BCON_NEW ("bill_id", BCON_INT32 (1), "_id", BCON_INT32 (1));
   bson_t *want_id_sort = BCON_NEW ("_id", BCON_INT32 (1));
   bson_t *id_index = BCON_NEW ("_id", BCON_INT32 (1));
   lab_store_sorted_opts_t so = { 0 };
   bson_value_t lo, hi;
   bson_t cmd = BSON_INITIALIZER, sort, hint;
   bson_iter_t it, child;
   const uint8_t *data;
   uint32_t len;

   (void)state;
   lo.value_type = hi.value_type = BSON_TYPE_INT64;
   lo.value.v_int64 = 10;
   hi.value.v_int64 = 20;
   so.lo = &lo;
   so.hi = &hi;
   lab_mongo_sorted_command ("layoutlab", "bill_detail", "bill_id", &so, index, 777, false, &cmd);
   assert_true (bson_iter_init_find (&it, &cmd, "aggregate"));
   assert_string_equal (bson_iter_utf8 (&it, NULL), "bill_detail");
   sort_of (&cmd, &sort);
   assert_true (bson_equal (&sort, want_sort)); /* no _id: an index on {bill_id: 1} serves it */
   assert_true (bson_iter_init_find (&it, &cmd, "hint") && BSON_ITER_HOLDS_DOCUMENT (&it));
   bson_iter_document (&it, &len, &data);
   assert_true (bson_init_static (&hint, data, len));
   assert_true (bson_equal (&hint, index));
   assert_true (bson_iter_init (&it, &cmd) && bson_iter_find_descendant (&it, "cursor.batchSize", &child));
   assert_int_equal (bson_iter_int32 (&child), 777);
   assert_true (bson_iter_init_find (&it, &cmd, "allowDiskUse") && bson_iter_bool (&it));
   assert_true (bson_iter_init (&it, &cmd) &&
                bson_iter_find_descendant (&it, "pipeline.0.$match.bill_id.$gte", &child));
   assert_int_equal (bson_iter_int64 (&child), 10);
   assert_true (bson_iter_init (&it, &cmd) &&
                bson_iter_find_descendant (&it, "pipeline.0.$match.bill_id.$lt", &child));
   assert_int_equal (bson_iter_int64 (&child), 20);
   assert_true (bson_iter_init_find (&it, &cmd, "$db"));
   assert_string_equal (bson_iter_utf8 (&it, NULL), "layoutlab");
   bson_reinit (&cmd);

   /* FerretDB: _id breaks ties; no range: an empty $match */
   lab_mongo_sorted_command ("db", "c", "bill_id", NULL, index, 5, true, &cmd);
   sort_of (&cmd, &sort);
   assert_true (bson_equal (&sort, want_sort_mem));
   assert_true (bson_iter_init (&it, &cmd) && bson_iter_find_descendant (&it, "pipeline.0.$match", &child));
   bson_iter_document (&child, &len, &data);
   assert_int_equal (len, 5); /* {} */
   bson_reinit (&cmd);

   /* sorting on _id never adds it twice */
   lab_mongo_sorted_command ("db", "c", "_id", NULL, id_index, 5, true, &cmd);
   sort_of (&cmd, &sort);
   assert_true (bson_equal (&sort, want_id_sort));
   bson_destroy (&cmd);
   bson_destroy (index);
   bson_destroy (want_sort);
   bson_destroy (want_sort_mem);
   bson_destroy (want_id_sort);
   bson_destroy (id_index);
}

/* progress_sink -- keeps the last info line and counts them. */
static char progress_last[400];
static int progress_n;
static void
progress_sink (lab_log_level_t level, const char *msg, void *ctx)
{
   (void)ctx;
   if (level == LAB_LOG_INFO) {
      bson_strncpy (progress_last, msg, sizeof progress_last);
      progress_n++;
   }
}

/* test_progress_lines -- a long load's lines: none before `after`, then at most one per period, with done /
 * total and the time left; never in mode never; a final line only when a line was shown. */
static void
test_progress_lines (void **state)
{
   lab_progress_t *p;

   (void)state;
   lab_log_sink_set (progress_sink, NULL);
   lab_log_level_set (LAB_LOG_DEBUG); /* -v: lines even on a terminal */
   progress_n = 0;
   p = lab_progress_new (LAB_PROGRESS_AUTO, "run 1 folded", "masters", 10169);
   lab_progress_lines (p, 3600ull * 1000000000ull, 0); /* an hour before the first line */
   lab_progress_add (p, 100, 0);
   assert_int_equal (progress_n, 0);
   lab_progress_done (p);
   assert_int_equal (progress_n, 0); /* nothing shown, no final line */

   p = lab_progress_new (LAB_PROGRESS_AUTO, "run 1 folded", "masters", 10169);
   lab_progress_lines (p, 0, 3600ull * 1000000000ull);
   usleep (2000);
   lab_progress_add (p, 4000, 0);
   assert_int_equal (progress_n, 1);
   assert_non_null (strstr (progress_last, "run 1 folded: 4000/10169 (39.3%) masters"));
   assert_non_null (strstr (progress_last, "s left"));
   lab_progress_add (p, 1000, 0); /* within the period: no line */
   assert_int_equal (progress_n, 1);
   lab_progress_add (p, 5169, 0);
   lab_progress_done (p);
   assert_int_equal (progress_n, 2);
   assert_non_null (strstr (progress_last, "10169/10169 (100.0%) masters"));
   assert_null (strstr (progress_last, "left"));

   progress_n = 0;
   p = lab_progress_new (LAB_PROGRESS_NEVER, "run 1 folded", "masters", 10169);
   lab_progress_lines (p, 0, 0);
   lab_progress_add (p, 4000, 0);
   lab_progress_done (p);
   assert_int_equal (progress_n, 0);
   lab_log_sink_set (NULL, NULL);
   lab_log_level_set (LAB_LOG_INFO);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_error_prefix),
      cmocka_unit_test (test_error_nospace),
      cmocka_unit_test (test_uri_parse),
      cmocka_unit_test (test_uri_redact),
      cmocka_unit_test (test_sizes),
      cmocka_unit_test (test_durations_ints),
      cmocka_unit_test (test_cli_common),
      cmocka_unit_test (test_cli_server_timeout),
      cmocka_unit_test (test_cli_output_check),
      cmocka_unit_test (test_cli_parse),
      cmocka_unit_test (test_cli_lists),
      cmocka_unit_test (test_cli_aliases),
      cmocka_unit_test (test_cli_summary_header),
      cmocka_unit_test (test_json_pretty_and_atomic),
      cmocka_unit_test (test_comm_trusted),
      cmocka_unit_test (test_mongo_sorted_command),
      cmocka_unit_test (test_progress_lines),
   };
   return lab_test_run_group ("util", tests, NULL, NULL);
}
