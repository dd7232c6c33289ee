/*
 * test_mix.c -- unit tests of the user's mix in layout-report's library (docs/results-schema.md): the
 * estimate's arithmetic on a two-layout fixture whose per-op costs are known (the elapsed times, the write
 * and read bytes worked out by hand below), the load's op count falling back to the run's masters, a type
 * of the mix not measured refused, the spec parsed and refused, and a measured mix read with what it lacks
 * derived.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "compare/cmp.h"
#include "core/error.h"
#include "tests/testutil.h"

/* Two layouts (a version 1 file: detail and folded), three workloads with round per-op costs (wall: the
 * elapsed time over the ops, the workers together; latency: the mean latency of one op, its own time):
 *   load:   detail 10 s / 100 queries = 0.1 s, latency 400 ms;   folded 2 s / 100 = 0.02 s, latency 80 ms
 *   row:    detail 1 s / (500 queries x row_batch 2) = 0.001 s, a query 8 ms so 4 ms per row;
 *           folded 3 s / 1000 = 0.003 s, a query 24 ms so 12 ms per row
 *   append: detail 2 s / 1000 writes = 0.002 s, 8 ms (500 engine bytes each),
 *           folded 8 s / 1000 = 0.008 s, 32 ms (4000 engine bytes each)
 * disk bytes read: detail load 1e6 (1e4 per op), row 2e5 (200 per op), append 0; folded's append unknown. */
#define MIX_FIXTURE(extra)                                                                                   \
   "{\"schema_version\": 1, \"runs\": [{\"run\": 1, \"layout\": \"detail\", \"keys\": 40}],"                 \
   " \"workloads\": ["                                                                                       \
   "  {\"workload\": \"load\", \"load_order\": \"key\", \"layouts\": ["                                      \
   "    {\"layout\": \"detail\", \"elapsed_s\": 10, \"queries\": 100, \"disk_read_bytes\": 1000000,"         \
   "     \"latency_ms\": {\"mean\": 400}},"                                                                  \
   "    {\"layout\": \"folded\", \"elapsed_s\": 2, \"queries\": 100, \"disk_read_bytes\": 300000,"           \
   "     \"latency_ms\": {\"mean\": 80}}]}," extra                                                           \
   "  {\"workload\": \"row\", \"params\": {\"row_batch\": 2}, \"layouts\": ["                                \
   "    {\"layout\": \"detail\", \"elapsed_s\": 1, \"queries\": 500, \"disk_read_bytes\": 200000,"           \
   "     \"latency_ms\": {\"mean\": 8}},"                                                                    \
   "    {\"layout\": \"folded\", \"elapsed_s\": 3, \"queries\": 500, \"disk_read_bytes\": 900000,"           \
   "     \"latency_ms\": {\"mean\": 24}}]},"                                                                 \
   "  {\"workload\": \"append\", \"layouts\": ["                                                             \
   "    {\"layout\": \"detail\", \"elapsed_s\": 2, \"disk_read_bytes\": 0, \"latency_ms\": {\"mean\": 8},"   \
   "     \"write\": {\"writes\": 1000, \"engine_bytes_per_write\": 500}},"                                   \
   "    {\"layout\": \"folded\", \"elapsed_s\": 8, \"disk_read_bytes\": -1, \"latency_ms\": {\"mean\": 32}," \
   "     \"write\": {\"writes\": 1000, \"engine_bytes_per_write\": 4000}}]}]}"
static const char fixture[] = MIX_FIXTURE ("");
/* The same with a random-order load beside the key-order one (--load-order both): detail 30 s / 100 =
 * 0.3 s, latency 1200 ms; folded 6 s / 100 = 0.06 s, latency 240 ms. */
static const char fixture_random[] = MIX_FIXTURE (
   "  {\"workload\": \"load_random\", \"load_order\": \"random\", \"layouts\": ["
   "    {\"layout\": \"detail\", \"elapsed_s\": 30, \"queries\": 100, \"disk_read_bytes\": 1000000,"
   "     \"latency_ms\": {\"mean\": 1200}},"
   "    {\"layout\": \"folded\", \"elapsed_s\": 6, \"queries\": 100, \"disk_read_bytes\": 300000,"
   "     \"latency_ms\": {\"mean\": 240}}]},");

/* near -- a and b equal to a part in 1e12 (sums of products of exact decimals). */
static bool
near (double a, double b)
{
   return fabs (a - b) <= 1e-12 * fmax (1.0, fabs (b));
}

/* The document the last estimate was made from: its layout names point into it. */
static bson_t *estimated_doc;

/* estimate -- the estimate of `spec` over `ops` from JSON `json` (kept in estimated_doc until the next);
 * false with *error as the library's. */
static bool
estimate (const char *json, const char *spec, double ops, lab_cmp_mix_t *mix, bson_error_t *error)
{
   bson_t *doc = bson_new_from_json ((const uint8_t *)json, -1, error);
   lab_cmp_workloads_t wl;
   lab_results_layouts_t ls;
   double w[LAB_CMP_MIX_TYPES];
   bool ok;

   assert_non_null (doc);
   assert_true (lab_cmp_mix_spec_parse (spec, w, error));
   assert_true (lab_cmp_workloads_of (doc, "t.json", &wl, error));
   lab_results_layouts (doc, &ls);
   ok = lab_cmp_mix_estimate (&wl, doc, &ls, "t.json", w, ops, mix, error);
   lab_cmp_workloads_cleanup (&wl);
   if (ok) {
      assert_string_equal (mix->layouts[0].layout, "detail");
      assert_string_equal (mix->layouts[1].layout, "folded");
   }
   if (estimated_doc) {
      bson_destroy (estimated_doc);
   }
   estimated_doc = doc;
   return ok;
}

/* test_estimate_arithmetic -- load=1,row=2,append=1 over 1000 ops: shares 0.25, 0.5, 0.25, so 250 loads,
 * 500 rows, 250 appends:
 *   detail: 250 x 0.1 + 500 x 0.001 + 250 x 0.002 = 25 + 0.5 + 0.5 = 26 s
 *   folded: 250 x 0.02 + 500 x 0.003 + 250 x 0.008 = 5 + 1.5 + 2 = 8.5 s (the winner; detail 26 / 8.5 x)
 *   write bytes: detail 250 x 500 = 125,000; folded 250 x 4000 = 1,000,000 (the reads write nothing)
 *   read bytes: detail 250 x 1e4 + 500 x 200 + 250 x 0 = 2,600,000; folded unknown (append's unknown). */
static void
test_estimate_arithmetic (void **state)
{
   lab_cmp_mix_t m;
   bson_error_t e = { 0 };
   bson_string_t *s;
   const lab_cmp_mix_layout_t *d, *f;

   (void)state;
   if (!estimate (fixture, "load=1,row=2,append=1", 1000, &m, &e)) {
      fail_msg ("estimate failed: %s", e.message);
   }
   d = &m.layouts[0], f = &m.layouts[1];
   assert_true (m.present && m.estimated);
   assert_int_equal (m.n_layouts, 2);
   assert_string_equal (m.spec, "load=1,row=2,append=1");
   assert_true (near (d->by_type[LAB_CMP_MIX_LOAD].ops, 250) && near (d->by_type[LAB_CMP_MIX_ROW].ops, 500) &&
                near (d->by_type[LAB_CMP_MIX_APPEND].ops, 250));
   assert_true (d->by_type[LAB_CMP_MIX_RANGE].ops == 0 && d->by_type[LAB_CMP_MIX_UPDATE].ops == 0);
   /* time_s: the ops' latencies summed (250 x 0.4 s, 500 x 8 ms / 2 rows per query, 250 x 8 ms), so time per
    * op is the mean latency, as in a measured mix; the elapsed time stays the wall time re-weighted */
   assert_true (near (d->by_type[LAB_CMP_MIX_LOAD].time_s, 100));
   assert_true (near (d->by_type[LAB_CMP_MIX_ROW].time_s, 2));
   assert_true (near (d->by_type[LAB_CMP_MIX_APPEND].time_s, 2));
   assert_non_null (strstr (m.source, "the load in key order"));
   assert_true (near (d->elapsed_s, 26.0));
   assert_true (near (f->elapsed_s, 8.5));
   assert_int_equal (m.winner, 1);
   assert_true (near (d->x_vs_winner, 26.0 / 8.5) && near (f->x_vs_winner, 1.0));
   assert_true (near (d->ops_per_s, 1000 / 26.0) && near (f->ops_per_s, 1000 / 8.5));
   assert_true (near (d->engine_write_bytes, 125000) && near (f->engine_write_bytes, 1000000));
   assert_true (near (d->disk_read_bytes, 2600000) && f->disk_read_bytes == LAB_CMP_WL_UNKNOWN);
   assert_false (m.read_bytes_scaled);
   assert_true (d->by_type[LAB_CMP_MIX_LOAD].p50_ms == LAB_CMP_WL_UNKNOWN && d->cpu_s == LAB_CMP_WL_UNKNOWN);

   s = bson_string_new (NULL);
   lab_cmp_mix_verdict (s, &m);
   assert_string_equal (s->str,
                        "Estimated from separate runs: under this mix (load 25%, row 50%, append 25%) the "
                        "folded layout is 3.1x faster overall than detail: it wins load (5.0x), loses row "
                        "(3.0x) and append (4.0x) and writes 8.0x the bytes.");
   bson_string_free (s, true);
   lab_cmp_mix_cleanup (&m);
}

/* test_estimate_load_random -- with a random-order load beside the key-order one, the mix's load ops cost
 * the random one's (the mix picks masters at random): 250 x 0.3 s wall on detail, 250 x 1.2 s latency, and
 * the source says so. */
static void
test_estimate_load_random (void **state)
{
   lab_cmp_mix_t m;
   bson_error_t e = { 0 };
   const lab_cmp_mix_layout_t *d;

   (void)state;
   if (!estimate (fixture_random, "load=1,row=2,append=1", 1000, &m, &e)) {
      fail_msg ("estimate failed: %s", e.message);
   }
   d = &m.layouts[0];
   assert_true (near (d->by_type[LAB_CMP_MIX_LOAD].time_s, 300));
   assert_true (near (d->elapsed_s, 75 + 0.5 + 0.5));
   assert_non_null (strstr (m.source, "the load in random order"));
   lab_cmp_mix_cleanup (&m);
}

/* test_estimate_load_masters -- a load without queries counts the run's masters (runs[0].keys: 40):
 * detail 10 s / 40 = 0.25 s per load, over 8 loads 2 s. */
static void
test_estimate_load_masters (void **state)
{
   static const char json[] =
      "{\"runs\": [{\"run\": 1, \"layout\": \"detail\", \"keys\": 40}], \"workloads\": ["
      "{\"workload\": \"load\", \"layouts\": ["
      "{\"layout\": \"detail\", \"elapsed_s\": 10}, {\"layout\": \"folded\", \"elapsed_s\": 4,"
      " \"queries\": -1}]}]}";
   lab_cmp_mix_t m;
   bson_error_t e = { 0 };

   (void)state;
   if (!estimate (json, "load=3", 8, &m, &e)) {
      fail_msg ("estimate failed: %s", e.message);
   }
   assert_true (near (m.layouts[0].elapsed_s, 2.0) && near (m.layouts[1].elapsed_s, 0.8));
   assert_true (near (m.layouts[0].engine_write_bytes, 0)); /* only reads: nothing written */
   lab_cmp_mix_cleanup (&m);
}

/* test_estimate_refused -- a type of the mix with no measured workload: refused as a usage error naming the
 * type, the layout and the file; a type of weight 0 needs none. */
static void
test_estimate_refused (void **state)
{
   lab_cmp_mix_t m = { 0 };
   bson_error_t e = { 0 };

   (void)state;
   assert_false (estimate (fixture, "load=1,update=1", 100, &m, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_non_null (strstr (e.message, "t.json has no update workload measured on layout \"detail\""));
   lab_cmp_mix_cleanup (&m);
   assert_true (estimate (fixture, "load=1,update=0", 100, &m, &e));
   lab_cmp_mix_cleanup (&m);
}

/* test_spec -- specs parsed into weights in canonical order, and refused with the part that is wrong. */
static void
test_spec (void **state)
{
   static const struct {
      const char *spec, *needle;
   } bad[] = {
      { "", "empty spec" },
      { "load", "item 1 'load': not TYPE=WEIGHT" },
      { "scan=1", "unknown type 'scan'" },
      { "aggregate=1", "one aggregate is a scan of the whole collection" },
      { "row=1,row=2", "'row' is given twice" },
      { "row=", "item 1 'row=': the weight of row must be" },
      { "row=1x", "item 1 'row=1x': the weight of row must be" },
      { "row=-2", "item 1 'row=-2': the weight of row must be" },
      { "row=0,load=0", "every weight is 0" },
   };
   double w[LAB_CMP_MIX_TYPES];
   bson_error_t e;
   char *text;
   size_t i;

   (void)state;
   assert_true (lab_cmp_mix_spec_parse ("update=5,load=5,row=60,range=5,append=25", w, &e));
   assert_true (w[LAB_CMP_MIX_LOAD] == 5 && w[LAB_CMP_MIX_ROW] == 60 && w[LAB_CMP_MIX_UPDATE] == 5);
   text = lab_cmp_mix_spec_text (w);
   assert_string_equal (text, "load=5,row=60,range=5,append=25,update=5");
   bson_free (text);
   assert_true (lab_cmp_mix_spec_parse ("row=0.5,range=0", w, &e));
   text = lab_cmp_mix_spec_text (w);
   assert_string_equal (text, "row=0.5");
   bson_free (text);
   for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      memset (&e, 0, sizeof e);
      assert_false (lab_cmp_mix_spec_parse (bad[i].spec, w, &e));
      assert_true (e.domain == LAB_ERROR_USAGE);
      if (!strstr (e.message, bad[i].needle)) {
         fail_msg ("'%s': error '%s' lacks '%s'", bad[i].spec, e.message, bad[i].needle);
      }
   }
}

/* test_measured -- a measured mix read: the winner, ops/s and x vs winner derived when absent; unknown
 * figures stay unknown; a mix absent is not present. */
static void
test_measured (void **state)
{
   static const char json[] =
      "{\"mix\": {\"spec\": \"row=1\", \"proportions\": {\"row\": 1}, \"ops\": 1000, \"seed\": 7, "
      "\"layouts\": ["
      "{\"layout\": \"detail\", \"elapsed_s\": 4, \"engine_write_bytes\": null, \"by_type\": ["
      "  {\"op\": \"row\", \"ops\": 1000, \"time_s\": 16, \"latency_ms\": {\"p50\": 12}}]},"
      "{\"layout\": \"folded\", \"elapsed_s\": 10, \"extra\": \"ignored\", \"by_type\": ["
      "  {\"op\": \"row\", \"ops\": 1000, \"time_s\": 40}]}]}}";
   bson_error_t e = { 0 };
   bson_t *doc = bson_new_from_json ((const uint8_t *)json, -1, &e), empty = BSON_INITIALIZER;
   lab_cmp_mix_t m;

   (void)state;
   assert_non_null (doc);
   if (!lab_cmp_mix_of (doc, "t.json", &m, &e)) {
      fail_msg ("read failed: %s", e.message);
   }
   assert_true (m.present && !m.estimated && m.ops == 1000 && m.seed == 7 && m.workers == LAB_CMP_WL_UNKNOWN);
   assert_int_equal (m.winner, 0);
   assert_true (near (m.layouts[0].ops_per_s, 250) && near (m.layouts[1].x_vs_winner, 2.5));
   assert_true (m.layouts[0].engine_write_bytes == LAB_CMP_WL_UNKNOWN);
   assert_true (m.layouts[0].by_type[LAB_CMP_MIX_ROW].p50_ms == 12);
   assert_true (m.layouts[0].by_type[LAB_CMP_MIX_ROW].p95_ms == LAB_CMP_WL_UNKNOWN);
   assert_true (m.layouts[0].by_type[LAB_CMP_MIX_LOAD].ops == 0);
   lab_cmp_mix_cleanup (&m);
   assert_true (lab_cmp_mix_of (&empty, "t.json", &m, &e));
   assert_false (m.present);
   lab_cmp_mix_cleanup (&m);
   bson_destroy (doc);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_estimate_arithmetic),
      cmocka_unit_test (test_estimate_load_random),
      cmocka_unit_test (test_estimate_load_masters),
      cmocka_unit_test (test_estimate_refused),
      cmocka_unit_test (test_spec),
      cmocka_unit_test (test_measured),
   };
   int rc = lab_test_run_group ("compare_mix", tests, NULL, NULL);

   if (estimated_doc) {
      bson_destroy (estimated_doc);
   }
   return rc;
}
