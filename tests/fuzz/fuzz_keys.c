/*
 * fuzz_keys.c -- libFuzzer harness of the --keys-file parser (scan/keys.c): the input is the file; it is
 * read the way scancmp reads it (parse each line, sort in MongoDB order, drop duplicates), then the keys
 * are spread to a limit and segmented over workers. The sorted keys must be strictly increasing.
 */
#include "core/keyenc.h"
#include "core/store.h"
#include "scan/scan.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdlib.h>

/* LLVMFuzzerTestOneInput -- read a keys file, check its order, spread and segment it. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   const char *path;
   bson_value_t *keys = NULL;
   int64_t n = 0;
   bson_error_t error;

   lab_fuzz_setup ();
   path = lab_fuzz_write ("keys.txt", data, len);
   if (lab_scan_keys_read_file (path, &keys, &n, &error)) {
      int64_t starts[9];
      for (int64_t i = 1; i < n; i++) {
         if (lab_store_value_compare (&keys[i - 1], &keys[i]) >= 0) {
            abort (); /* not sorted, or a duplicate survived */
         }
      }
      lab_scan_keys_segment (n, 8, starts);
      if (starts[0] != 0 || starts[8] != n) {
         abort ();
      }
      lab_scan_keys_spread (keys, &n, len % 7);
      lab_store_values_free (keys, (int)n);
   }
   return 0;
}
