/*
 * test_wl_table.c -- scancmp's terminal ledger of the workloads (scan/table.c,
 * lab_scan_workloads_table_render): every row's columns start where the others' do, the longest workload
 * name (load_after_writes, issue 24) and the widest time cells included.
 */
#include <string.h>

#include "scan/scan.h"
#include "tests/testutil.h"

/* A workload of two layouts: detail's and folded's elapsed and x vs the winner (1: the winner). */
#define WL(name, dt, dx, ft, fx, winner)                                                                     \
   "{\"workload\": \"" name "\", \"winner\": \"" winner "\", \"layouts\": ["                                 \
   "{\"layout\": \"detail\", \"elapsed_s\": " #dt ", \"x_vs_winner\": " #dx "},"                             \
   "{\"layout\": \"folded\", \"elapsed_s\": " #ft ", \"x_vs_winner\": " #fx "}]}"

/* column_of -- the offset of `needle` in the line starting at `line`, or -1 when the line lacks it. */
static long
column_of (const char *line, const char *needle)
{
   const char *end = strchr (line, '\n'), *p = strstr (line, needle);

   return p && (!end || p < end) ? (long)(p - line) : -1;
}

/* test_columns_aligned -- the folded column and the winner column at the same offset on every row. */
static void
test_columns_aligned (void **state)
{
   static const char json[] = "{\"workloads\": [" WL ("load", 1234.567, 12.34, 100.04, 1, "folded") "," WL (
      "row", 4.1, 1, 13.12, 3.2,
      "detail") "," WL ("append", 9.8, 1, 1088.4, 111.06,
                        "detail") "," WL ("load_after_writes", 95.064, 1.84, 51.625, 1,
                                          "folded") "," WL ("update", 1.9, 1, 6.2, 3.26, "detail") "]}";
   bson_error_t e;
   bson_t *doc = bson_new_from_json ((const uint8_t *)json, -1, &e);
   char *table;
   const char *line;
   long folded = -1, winner = -1;
   int rows = 0;

   (void)state;
   assert_non_null (doc);
   table = lab_scan_workloads_table_render (doc);
   assert_non_null (table);
   for (line = strstr (table, "\n  "); line; line = strstr (line, "\n  ")) {
      line++;
      if (folded < 0) {
         folded = column_of (line, " folded ");
         winner = column_of (line, "winner ");
      }
      if (column_of (line, " folded ") != folded || column_of (line, "winner ") != winner) {
         fail_msg ("misaligned row (folded at %ld, winner at %ld expected):\n%s", folded, winner, table);
      }
      rows++;
   }
   assert_int_equal (rows, 5);
   assert_non_null (strstr (table, "load_after_writes "));
   bson_free (table);
   bson_destroy (doc);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_columns_aligned),
   };
   return lab_test_run_group ("scan_wl_table", tests, NULL, NULL);
}
