/*
 * scan_testdata_main.c -- `scan-testdata`: fill a store with both layouts for scancmp's tests and
 * scripts/bench-scan.sh (until billgen and fold-details replace it there).
 *   scan-testdata --uri URI [--db NAME] [--bills N] [--rows MEAN] [--detail C] [--folded C]
 *                 [--buckets C [--bucket-rows N]]
 * --buckets also writes a buckets layout of the folded one (at most --bucket-rows rows per document).
 */
#include "tests/scan/scan_testdata.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"

#include <stdio.h>
#include <string.h>

int
main (int argc, char **argv)
{
   lab_cli_common_t c;
   lab_store_opts_t so = { 0 };
   lab_store_t *store;
   const char *detail = "bill_detail", *folded = "detail_coll", *buckets = NULL;
   int64_t bills = 400, rows = 20, total = 0, bucket_rows = 10;
   bson_error_t e;
   int i;

   lab_log_set_tool ("scan-testdata");
   lab_log_sink_set (lab_log_sink_stderr, NULL);

   lab_log_sink_set (lab_log_sink_stderr, NULL);
   lab_cli_common_init (&c);
   for (i = 1; i < argc; i++) {
      const char *v;
      int r;
      if ((r = lab_cli_common_take (&c, argc, argv, &i, &e)) != 0) {
         if (r < 0) {
            goto usage;
         }
      } else if ((r = lab_cli_value (argc, argv, &i, "--bills", &v, &e)) != 0) {
         if (r < 0 || !lab_parse_int (v, "--bills", 1, 100000000, &bills, &e)) {
            goto usage;
         }
      } else if ((r = lab_cli_value (argc, argv, &i, "--rows", &v, &e)) != 0) {
         if (r < 0 || !lab_parse_int (v, "--rows", 1, 100000, &rows, &e)) {
            goto usage;
         }
      } else if ((r = lab_cli_value (argc, argv, &i, "--detail", &detail, &e)) != 0) {
         if (r < 0) {
            goto usage;
         }
      } else if ((r = lab_cli_value (argc, argv, &i, "--folded", &folded, &e)) != 0) {
         if (r < 0) {
            goto usage;
         }
      } else if ((r = lab_cli_value (argc, argv, &i, "--buckets", &buckets, &e)) != 0) {
         if (r < 0) {
            goto usage;
         }
      } else if ((r = lab_cli_value (argc, argv, &i, "--bucket-rows", &v, &e)) != 0) {
         if (r < 0 || !lab_parse_int (v, "--bucket-rows", 1, 1000000, &bucket_rows, &e)) {
            goto usage;
         }
      } else {
         lab_error_set (&e, LAB_ERROR_USAGE, 1, "unknown argument '%s'", argv[i]);
         goto usage;
      }
   }
   if (c.help) {
      printf ("scan-testdata --uri URI [--db NAME] [--bills N] [--rows MEAN] [--detail C] [--folded C]\n"
              "              [--buckets C [--bucket-rows N]]\n");
      return 0;
   }
   so.db = c.db;
   so.cache_size_bytes = c.cache_size_bytes;
   so.create = true;
   store = lab_store_open (c.uri, &so, &e);
   if (!store || !scan_testdata_build (store, detail, folded, (int)bills, (int)rows, &total, &e) ||
       (buckets && !scan_testdata_rebucket (store, folded, buckets, (int)bucket_rows, NULL, &e))) {
      lab_log_error ("%s", e.message);
      lab_store_close (store);
      return 1;
   }
   lab_store_close (store);
   printf ("%lld\n", (long long)total);
   return 0;
usage:
   lab_log_error ("%s", e.message);
   return 2;
}
