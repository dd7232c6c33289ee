/*
 * fuzz_cli.c -- libFuzzer harness of the option-table parser (core/cli.h lab_cli_parse): the input split
 * on NUL bytes is argv[1..]; the table has one option of every kind plus the common options and
 * positionals. Every value accepted must be within its declared range.
 */
#include "core/cli.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdlib.h>
#include <string.h>

/* parse_even -- a LAB_CLI_CUSTOM parser: an even decimal number. */
static bool
parse_even (const char *value, void *field, const char *name, bson_error_t *error)
{
   char *end;
   long v = strtol (value, &end, 10);
   if (*value == '\0' || *end != '\0' || v % 2 != 0) {
      bson_set_error (error, 1, 1, "%s: '%s' is not even", name, value);
      return false;
   }
   *(long *)field = v;
   return true;
}

/* LLVMFuzzerTestOneInput -- parse argv made of the input. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   static const char *const modes[] = { "split", "reject", "fail", NULL };
   char *argv[66];
   char *store;
   int argc;
   bson_error_t error;
   lab_cli_common_t common;
   lab_cli_list_t pos = { 0 }, list = { 0 };
   const char *str = NULL;
   int64_t i64 = 0;
   int32_t i32 = 7;
   size_t sz = 1;
   double dbl = 0;
   uint64_t size = 0, dur = 0;
   int32_t dur_ms = 0;
   enum { M_SPLIT, M_REJECT, M_FAIL } mode = M_SPLIT;
   bool flag = false, flag_seen = false, check_seen = false;
   enum { C_SPLIT, C_REJECT, C_FAIL } check = C_SPLIT;
   int count = 0;
   long even = 0;

   lab_fuzz_setup ();
   argv[0] = "fuzz";
   argc = 1 + (int)lab_fuzz_split (data, len, argv + 1, 64, &store);
   argv[argc] = NULL;
   lab_cli_common_init (&common);

   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_STRING ("--src", 's', &str),
      LAB_CLI_OPT_INT ("--n", 0, &i64, INT64_MIN, INT64_MAX),
      LAB_CLI_OPT_INT ("--parallel", 'j', &i32, 1, 64),
      LAB_CLI_OPT_INT ("--batch", 0, &sz, 1, 1000000),
      LAB_CLI_OPT_DOUBLE ("--ratio", 0, &dbl),
      LAB_CLI_OPT_SIZE ("--cache", 0, &size),
      LAB_CLI_OPT_DURATION ("--time", 't', &dur),
      LAB_CLI_OPT_DURATION_MS ("--timeout", 0, &dur_ms),
      LAB_CLI_OPT_ENUM ("--on-oversize", 0, &mode, modes),
      LAB_CLI_OPT_LIST ("--keys", 'k', &list),
      LAB_CLI_OPT_CUSTOM ("--even", 0, &even, parse_even),
      { .name = "--verify", .short_name = 'V', .kind = LAB_CLI_FLAG, .field = &flag, .seen = &flag_seen },
      { .name = "--more", .kind = LAB_CLI_COUNT, .field = &count },
      LAB_CLI_OPT_FLAG_ENUM ("--check", 0, &check_seen, &check, modes),
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts, .common = &common, .positionals = (len % 2) ? &pos : NULL };

   if (lab_cli_parse (&spec, argc, argv, 1, &error)) {
      if (i32 < 1 || i32 > 64 || sz < 1 || sz > 1000000 || (int)mode < 0 || (int)mode > 2 || dur_ms < 0 ||
          (flag && !flag_seen) || even % 2 != 0 || (int)check < 0 || (int)check > 2 ||
          (check != C_SPLIT && !check_seen)) {
         abort (); /* a value outside its declared range was accepted */
      }
      for (size_t i = 0; i < list.n; i++) {
         if (!list.v[i]) {
            abort ();
         }
      }
   }
   lab_cli_list_free (&pos);
   lab_cli_list_free (&list);
   free (store);
   return 0;
}
