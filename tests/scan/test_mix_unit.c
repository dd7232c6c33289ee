/*
 * test_mix_unit.c -- the user's mix, its pure parts (scan/mix/wl_mix_stream.c, scan/mix/wl_mix_report.c):
 * --mix parsing and its refusals, the counts per type (the proportions exactly, up to rounding), the stream
 * (the same for the same seed, another for another seed, each type's ops numbered in stream order),
 * --mix-rate and the open loop's pace (behind or not), the saturation rule, the counts a percentile needs,
 * and the verdict sentence and summary from a hand-made "mix" object.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "core/percentile.h"
#include "scan/mix/wl_mix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* weights -- load, row, range, aggregate, append, update */
static void
weights (double *w, double load, double row, double range, double append, double update)
{
   memset (w, 0, LAB_WL_NKINDS * sizeof *w);
   w[LAB_WL_LOAD] = load;
   w[LAB_WL_ROW] = row;
   w[LAB_WL_RANGE] = range;
   w[LAB_WL_APPEND] = append;
   w[LAB_WL_UPDATE] = update;
}

/* refused -- s is refused as a usage error whose message holds `part` and `why`. */
static void
refused (const char *s, const char *part, const char *why)
{
   double w[LAB_WL_NKINDS];
   bson_error_t e;

   if (lab_scan_mix_parse (s, w, &e)) {
      fail_msg ("--mix %s accepted", s);
   }
   assert_int_equal (e.domain, LAB_ERROR_USAGE);
   if (!strstr (e.message, part) || !strstr (e.message, why)) {
      fail_msg ("--mix %s: message '%s' lacks '%s' / '%s'", s, e.message, part, why);
   }
}

static void
test_parse (void **state)
{
   double w[LAB_WL_NKINDS], want[LAB_WL_NKINDS];
   char spec[256];
   bson_error_t e;

   (void)state;
   assert_true (lab_scan_mix_parse ("update=5,load=5,row=60,range=5,append=25", w, &e));
   weights (want, 5, 60, 5, 25, 5);
   assert_memory_equal (w, want, sizeof want);
   lab_scan_mix_spec_text (w, spec, sizeof spec);
   assert_string_equal (spec, "load=5,row=60,range=5,append=25,update=5");
   assert_true (lab_scan_mix_parse ("row=1,append=0", w, &e));
   weights (want, 0, 1, 0, 0, 0);
   assert_memory_equal (w, want, sizeof want);
   /* the grammar is core/mix_spec.h's (tests/core/test_mix_spec.c); here: scancmp's --mix goes through it */
   refused ("load=5,aggregate=1", "item 2 'aggregate=1'",
            "one aggregate is a scan of the whole collection; measure it alone with --workload aggregate");
   refused ("load=5,rows=3", "item 2 'rows=3'", "unknown type 'rows'");
   refused ("load=5,load=3", "item 2 'load=3'", "given twice");
   refused ("row=x", "item 1 'row=x'", "must be a number from 0 to 1000000");
   refused ("row=0,load=0", "'row=0,load=0'", "every weight is 0");
   assert_true (lab_scan_mix_parse ("load=0.5,row=1", w, &e));
   weights (want, 0.5, 1, 0, 0, 0);
   assert_memory_equal (w, want, sizeof want);
   lab_scan_mix_spec_text (w, spec, sizeof spec);
   assert_string_equal (spec, "load=0.5,row=1");
}

static void
test_counts (void **state)
{
   double w[LAB_WL_NKINDS];
   int64_t c[LAB_WL_NKINDS];

   (void)state;
   weights (w, 5, 60, 5, 25, 5);
   lab_scan_mix_counts (w, 100000, c);
   assert_int_equal (c[LAB_WL_LOAD], 5000);
   assert_int_equal (c[LAB_WL_ROW], 60000);
   assert_int_equal (c[LAB_WL_RANGE], 5000);
   assert_int_equal (c[LAB_WL_AGGREGATE], 0);
   assert_int_equal (c[LAB_WL_APPEND], 25000);
   assert_int_equal (c[LAB_WL_UPDATE], 5000);
   /* rounding: 7 ops by 1:1:1 are 3, 2, 2 (the largest remainder first, ties in the types' order) */
   weights (w, 1, 1, 1, 0, 0);
   lab_scan_mix_counts (w, 7, c);
   assert_int_equal (c[LAB_WL_LOAD], 3);
   assert_int_equal (c[LAB_WL_ROW], 2);
   assert_int_equal (c[LAB_WL_RANGE], 2);
   assert_int_equal (c[LAB_WL_APPEND], 0);
   /* 10 ops by 2:3:5 of 10 (remainders 0): exact; by 1:2 of 10: 3.33 and 6.67 -> 3 and 7 */
   weights (w, 0, 1, 0, 2, 0);
   lab_scan_mix_counts (w, 10, c);
   assert_int_equal (c[LAB_WL_ROW], 3);
   assert_int_equal (c[LAB_WL_APPEND], 7);
   /* real weights share out as their whole multiples do: 0.5:1 of 9 is 1:2 of 9 */
   weights (w, 0.5, 1, 0, 0, 0);
   lab_scan_mix_counts (w, 9, c);
   assert_int_equal (c[LAB_WL_LOAD], 3);
   assert_int_equal (c[LAB_WL_ROW], 6);
}

static void
test_stream (void **state)
{
   double w[LAB_WL_NKINDS];
   int64_t seen[LAB_WL_NKINDS] = { 0 }, i;
   lab_scan_mix_stream_t a, b, c;
   int k, changes = 0;

   (void)state;
   weights (w, 5, 60, 5, 25, 5);
   lab_scan_mix_stream_make (w, 1000, 42, &a);
   lab_scan_mix_stream_make (w, 1000, 42, &b);
   lab_scan_mix_stream_make (w, 1000, 43, &c);
   assert_int_equal (a.n, 1000);
   assert_memory_equal (a.type, b.type, 1000);
   assert_memory_equal (a.index, b.index, 1000 * sizeof *a.index);
   assert_true (memcmp (a.type, c.type, 1000) != 0);
   for (i = 0; i < a.n; i++) {
      /* each type's ops numbered 0, 1, 2, ... along the stream */
      assert_int_equal (a.index[i], seen[a.type[i]]);
      seen[a.type[i]]++;
      changes += i > 0 && a.type[i] != a.type[i - 1];
   }
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      assert_int_equal (seen[k], a.count[k]);
   }
   assert_int_equal (seen[LAB_WL_ROW], 600);
   assert_int_equal (seen[LAB_WL_APPEND], 250);
   assert_int_equal (seen[LAB_WL_LOAD], 50);
   /* interleaved, not laid out in blocks: 60% rows give about 2 p (1 - p) n ~ 580 type changes */
   assert_true (changes > 300);
   lab_scan_mix_stream_cleanup (&a);
   lab_scan_mix_stream_cleanup (&b);
   lab_scan_mix_stream_cleanup (&c);
}

/* test_rate -- --mix-rate: a number above 0, else a usage error naming the value. */
static void
test_rate (void **state)
{
   const char *bad[] = { "0", "-5", "abc", "", "10x", "nan", "inf", "1e10" };
   bson_error_t error;
   double r = 0;
   size_t i;

   (void)state;
   assert_true (lab_scan_mix_rate_parse ("500", &r, &error));
   assert_true (r == 500);
   assert_true (lab_scan_mix_rate_parse ("0.5", &r, &error));
   assert_true (r == 0.5);
   for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      memset (&error, 0, sizeof error);
      if (lab_scan_mix_rate_parse (bad[i], &r, &error)) {
         fail_msg ("--mix-rate '%s' accepted", bad[i]);
      }
      assert_int_equal (error.domain, LAB_ERROR_USAGE);
      assert_non_null (strstr (error.message, "--mix-rate"));
      assert_non_null (strstr (error.message, bad[i]));
   }
}

/* test_pace -- on schedule: the asked rate, no lag, not behind; ops starting late: behind, the lag told;
 * the achieved rate never above the asked one. */
static void
test_pace (void **state)
{
   uint64_t st[100];
   lab_scan_mix_pace_t pc;
   int i;

   (void)state;
   for (i = 0; i < 100; i++) {
      st[i] = (uint64_t)i * 10000000ull; /* 100 ops/s, each on time */
   }
   lab_scan_mix_pace_summarize (100, st, 100, &pc);
   assert_true (pc.achieved_ops_s > 99.99 && pc.achieved_ops_s <= 100);
   assert_true (pc.max_lag_ms == 0 && !pc.behind);
   for (i = 0; i < 100; i++) {
      st[i] = (uint64_t)i * 20000000ull; /* half the pace: op i starts i * 10 ms late */
   }
   lab_scan_mix_pace_summarize (100, st, 100, &pc);
   assert_true (pc.behind);
   assert_true (pc.achieved_ops_s < 51 && pc.achieved_ops_s > 49);
   assert_true (fabs (pc.max_lag_ms - 990) < 1e-6);
   st[0] = 0;
   lab_scan_mix_pace_summarize (1e7, st, 1, &pc); /* one op: its start is its schedule */
   assert_false (pc.behind);
}

/* test_saturated -- the machine's busy CPU against its cores; without it, the client's and the store's. */
static void
test_saturated (void **state)
{
   lab_scan_mix_cpu_t c = { 10, 9.5, 9.5, true, 2, 19 };

   (void)state;
   assert_true (lab_scan_mix_saturated (&c)); /* 1.9 of 2 cores */
   c.machine_busy_s = 10;
   assert_false (lab_scan_mix_saturated (&c));
   c.machine_busy_s = -1; /* embedded: the store's CPU is the client's, counted once */
   assert_false (lab_scan_mix_saturated (&c));
   c.store_in_client = false; /* a local server: both processes */
   assert_true (lab_scan_mix_saturated (&c));
   c.cores = -1;
   assert_false (lab_scan_mix_saturated (&c));
}

/* test_percentile_counts -- a percentile needs one observation above it: p50 2, p95 20, p99 100. */
static void
test_percentile_counts (void **state)
{
   lab_scan_latency_summary_t s;
   double ms[100];
   bson_t doc = BSON_INITIALIZER;
   bson_iter_t it;
   int i;

   (void)state;
   assert_int_equal (lab_percentile_min_count (50), 2);
   assert_int_equal (lab_percentile_min_count (90), 10);
   assert_int_equal (lab_percentile_min_count (95), 20);
   assert_int_equal (lab_percentile_min_count (99), 100);
   assert_false (lab_percentile_supported (99, 99));
   assert_true (lab_percentile_supported (99, 100));
   assert_false (lab_percentile_supported (95, 19));
   assert_false (lab_percentile_supported (50, 1));
   for (i = 0; i < 100; i++) {
      ms[i] = i;
   }
   lab_scan_latency_summarize (ms, 20, &s);
   lab_scan_latency_append (&doc, "l", &s);
   assert_true (bson_iter_init (&it, &doc) && bson_iter_find_descendant (&it, "l.p95", &it));
   assert_true (BSON_ITER_HOLDS_DOUBLE (&it));
   assert_true (bson_iter_init (&it, &doc) && bson_iter_find_descendant (&it, "l.p99", &it));
   assert_true (BSON_ITER_HOLDS_NULL (&it));
   assert_true (bson_iter_init (&it, &doc) && bson_iter_find_descendant (&it, "l.count", &it));
   assert_int_equal (bson_iter_as_int64 (&it), 20);
   bson_destroy (&doc);
}

/* a two-layout "mix" object: folded 1.8x faster, wins load and range, loses row, 4.1x the write bytes */
static const char *mix_json =
   "{\"mix\": {\"estimated\": false, \"spec\": \"load=5,row=60,range=5,append=25,update=5\","
   " \"proportions\": {\"load\": 5, \"row\": 60, \"range\": 5, \"append\": 25, \"update\": 5},"
   " \"ops\": 100, \"seed\": 1, \"workers\": 2, \"cold\": true, \"rows_equal\": true, \"winner\": \"folded\","
   " \"layouts\": ["
   "  {\"layout\": \"detail\", \"elapsed_s\": 18.0, \"ops_per_s\": 5.5, \"x_vs_winner\": 1.8,"
   "   \"engine_write_bytes\": 1000, \"disk_write_bytes\": 9, \"disk_read_bytes\": 9, \"by_type\": ["
   "    {\"op\": \"load\", \"ops\": 10, \"time_s\": 9.1, \"rows\": 1},"
   "    {\"op\": \"row\", \"ops\": 60, \"time_s\": 6.0, \"rows\": 60},"
   "    {\"op\": \"range\", \"ops\": 10, \"time_s\": 2.0, \"rows\": 5}]},"
   "  {\"layout\": \"folded\", \"elapsed_s\": 10.0, \"ops_per_s\": 10, \"x_vs_winner\": 1,"
   "   \"engine_write_bytes\": 4100, \"disk_write_bytes\": 9, \"disk_read_bytes\": 9, \"by_type\": ["
   "    {\"op\": \"load\", \"ops\": 10, \"time_s\": 1.0, \"rows\": 1},"
   "    {\"op\": \"row\", \"ops\": 60, \"time_s\": 7.8, \"rows\": 60},"
   "    {\"op\": \"range\", \"ops\": 10, \"time_s\": 1.0, \"rows\": 5}]}]}}";

static void
test_verdict (void **state)
{
   bson_t *res = bson_new_from_json ((const uint8_t *)mix_json, -1, NULL);
   bson_iter_t it;
   const uint8_t *data;
   uint32_t len;
   bson_t mix;
   char *v, *table;

   (void)state;
   assert_non_null (res);
   assert_true (bson_iter_init_find (&it, res, "mix"));
   bson_iter_document (&it, &len, &data);
   assert_true (bson_init_static (&mix, data, len));
   v = lab_scan_mix_verdict (&mix);
   assert_non_null (v);
   assert_string_equal (
      v, "Under this mix (load 5%, row 60%, range 5%, append 25%, update 5%) the folded layout "
         "is 1.8x faster overall than detail: it wins load (9.1x) and range (2.0x), loses row "
         "(1.3x) and writes 4.1x the bytes.");
   table = lab_scan_mix_table_render (res);
   assert_non_null (table);
   assert_non_null (strstr (table, v));
   assert_non_null (strstr (table, "100 operations, 2 workers, cold"));
   assert_null (strstr (table, "DIFFER"));
   bson_free (v);
   bson_free (table);
   bson_destroy (res);
   res = bson_new_from_json ((const uint8_t *)"{\"runs\": []}", -1, NULL);
   assert_null (lab_scan_mix_table_render (res));
   bson_destroy (res);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_parse),
      cmocka_unit_test (test_counts),
      cmocka_unit_test (test_stream),
      cmocka_unit_test (test_rate),
      cmocka_unit_test (test_pace),
      cmocka_unit_test (test_saturated),
      cmocka_unit_test (test_percentile_counts),
      cmocka_unit_test (test_verdict),
   };
   return lab_test_run_group ("mix_unit", tests, NULL, NULL);
}
