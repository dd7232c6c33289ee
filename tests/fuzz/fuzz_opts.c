/*
 * fuzz_opts.c -- libFuzzer harness of the size, duration and integer parsers (core/opts.h): each
 * NUL-separated part of the input is one option value. A value accepted must also format.
 */
#include "core/opts.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdlib.h>

/* LLVMFuzzerTestOneInput -- every parser on every part. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   char *parts[8];
   char *store;
   size_t n;
   bson_error_t error;

   lab_fuzz_setup ();
   n = lab_fuzz_split (data, len, parts, 8, &store);
   for (size_t i = 0; i < n; i++) {
      uint64_t u;
      int64_t v;
      char buf[64];
      if (lab_parse_size (parts[i], "--size", &u, &error)) {
         (void)lab_format_bytes (u, buf, sizeof buf);
      }
      if (lab_parse_duration_ns (parts[i], "--time", &u, &error)) {
         (void)lab_format_bytes (u, buf, sizeof buf);
      }
      if (lab_parse_int (parts[i], "--n", INT64_MIN, INT64_MAX, &v, &error)) {
         /* the full range: nothing to check beyond the parse */
      }
      if (lab_parse_int (parts[i], "--parallel", 1, 64, &v, &error) && (v < 1 || v > 64)) {
         abort (); /* a value outside the range was accepted */
      }
   }
   free (store);
   return 0;
}
