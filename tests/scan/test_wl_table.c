/*
 * test_wl_table.c -- scancmp's terminal ledger of the workloads (scan/table.c,
 * lab_scan_workloads_table_render): every row's columns start where the others' do, the longest workload
 * name (load_after_writes) and the widest time cells included.
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

/* A sweep point of two or three layouts: each one's key-order load median and, in its workloads, its
 * random-order load (--load-order both). */
#define POINT(cache, d, f, b, rd, rf, rb)                                                                    \
   "{\"cache_size_bytes\": " #cache ", \"summary\": {\"detail\": {\"elapsed_s\": {\"median\": " #d "}},"     \
   "\"folded\": {\"elapsed_s\": {\"median\": " #f "}}, \"buckets\": {\"elapsed_s\": {\"median\": " #b "}}}," \
   "\"workloads\": [{\"workload\": \"load\", \"load_order\": \"key\", \"layouts\": []},"                     \
   "{\"workload\": \"load_random\", \"load_order\": \"random\", \"layouts\": ["                              \
   "{\"layout\": \"detail\", \"elapsed_s\": " #rd "}, {\"layout\": \"folded\", \"elapsed_s\": " #rf "},"     \
   "{\"layout\": \"buckets\", \"elapsed_s\": " #rb "}]}]}"

/* sweep_of -- the terminal sweep table of a two-point sweep of `layouts` (a JSON array). */
static char *
sweep_of (const char *layouts)
{
   char *json =
      bson_strdup_printf ("{\"config\": {\"load_order\": \"both\"}, \"layouts\": %s, "
                          "\"sweep_reference\": 0, \"sweep\": [" POINT (
                             1048576, 40, 0.2, 0.4, 30, 0.6, 1.5) "," POINT (8388608, 4, 1, 2, 3, 2, 2) "]}",
                          layouts);
   bson_error_t e;
   bson_t *doc = bson_new_from_json ((const uint8_t *)json, -1, &e);
   char *table;

   if (!doc) {
      fail_msg ("fixture: %s", e.message);
   }
   table = lab_scan_sweep_table_render (doc);
   bson_destroy (doc);
   bson_free (json);
   assert_non_null (table);
   return table;
}

/* test_load_orders -- the ledger names each load's order; with --load-order both the sweep tables show
 * the random-order speedup beside the key-order one (detail and folded: a column; more layouts: a line
 * per point). */
static void
test_load_orders (void **state)
{
   static const char json[] = "{\"workloads\": [" WL ("load", 40, 200, 0.2, 1, "folded") "," WL (
      "load_random", 30, 50, 0.6, 1, "folded") "]}";
   bson_error_t e;
   bson_t *doc = bson_new_from_json ((const uint8_t *)json, -1, &e);
   char *t;

   (void)state;
   assert_non_null (doc);
   t = lab_scan_workloads_table_render (doc);
   assert_non_null (strstr (t, "\n  load (key order)  "));
   assert_non_null (strstr (t, "\n  load (random order)  "));
   bson_free (t);
   bson_destroy (doc);
   t = sweep_of ("[{\"name\": \"detail\", \"collection\": \"d\", \"kind\": \"rows\"}, "
                 "{\"name\": \"folded\", \"collection\": \"f\", \"kind\": \"folded\"}]");
   assert_non_null (strstr (t, "random order"));
   assert_non_null (strstr (t, "key load"));
   assert_non_null (strstr (t, " 200x ")); /* key order at 1 MiB: 40 / 0.2 */
   assert_non_null (strstr (t, " 50x\n")); /* random order at 1 MiB, the last column: 30 / 0.6 */
   bson_free (t);
   t = sweep_of ("[{\"name\": \"detail\", \"collection\": \"d\", \"kind\": \"rows\"}, "
                 "{\"name\": \"folded\", \"collection\": \"f\", \"kind\": \"folded\"}, "
                 "{\"name\": \"buckets\", \"collection\": \"b\", \"kind\": \"buckets\"}]");
   assert_non_null (strstr (t, "detail: key-order load"));
   assert_non_null (strstr (t, "1.0 MiB: folded 50.00x, buckets 20.00x"));
   bson_free (t);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_columns_aligned),
      cmocka_unit_test (test_load_orders),
   };
   return lab_test_run_group ("scan_wl_table", tests, NULL, NULL);
}
