/*
 * fuzz_diskstats.c -- libFuzzer harness of the /proc/diskstats parser (scan/measure/diskstats.c): the input
 * is "DEVICE\0TEXT_A\0TEXT_B"; both snapshots are parsed for DEVICE and, when both parse, their delta is
 * computed (counters going backwards, wraps, zero elapsed time).
 */
#include "scan/scan.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdlib.h>

/* LLVMFuzzerTestOneInput -- parse two snapshots and take the delta. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   char *parts[3] = { "", "", "" };
   char *store;
   size_t n;
   bson_error_t error;
   lab_scan_diskstats_t a, b;
   lab_scan_diskstats_delta_t d;

   lab_fuzz_setup ();
   n = lab_fuzz_split (data, len, parts, 3, &store);
   if (n >= 2 && lab_scan_diskstats_parse (parts[1], parts[0], &a, &error)) {
      if (n == 3 && lab_scan_diskstats_parse (parts[2], parts[0], &b, &error)) {
         lab_scan_diskstats_delta (&a, &b, 1.0, &d);
         lab_scan_diskstats_delta (&b, &a, 0.0, &d);
      }
   }
   free (store);
   return 0;
}
