/*
 * test_prediction_cands.c -- layout-report's "Predicted beside measured" for the other candidates and
 * workloads (compare/prediction_cands.c): each measured candidate is set beside the predicted one of the
 * same nature, matched by the descriptors (a measured "b100" of buckets of 100 beside the predicted
 * "buckets", "zstd" beside "folded-zstd", the snappy fold and buckets of 50 not among them), at the point of
 * the same cache; an append's journal bytes beside the measured per write; a row read's bytes from the
 * predicted pages at the workload's own reads.
 */
#include <string.h>

#include "compare/cmp.h"
#include "tests/testutil.h"

#define MIB "1048576"
#define DESC(n, kind, shape, extra)                                                                          \
   "{\"name\": \"" n "\", \"kind\": \"" kind "\", \"descriptor\": {\"name\": \"" n "\", \"kind\": \"" kind   \
   "\", \"shape\": \"" shape "\"" extra "}}"
#define RUN(n, bytes)                                                                                        \
   "{\"run\": 1, \"layout\": \"" n                                                                           \
   "\", \"elapsed_s\": 1, \"docs\": 1, \"bytes_returned\": 1, \"engine\": {\"block_read_bytes\": " bytes     \
   "}}"
#define WL(n, field) "{\"layout\": \"" n "\", \"elapsed_s\": 1, " field "}"

static const char
   g_measured[] =
      "{\"schema_version\": 3, \"config\": {\"cold\": true}, \"layouts\": [" DESC (
         "detail", "rows", "natural",
         "") ", " DESC ("folded", "folded",
                        "folded", ", \"block_compressor\": \"snappy\"") ", " DESC ("sorted", "rows",
                                                                                   "sorted", "") ", " DESC ("b100", "buckets", "folded", ", \"bucket_rows\": 100") ", " DESC ("b50", "buckets", "folded", ", \"bucket_rows\": 50") ", " DESC ("zstd", "folded", "folded", ", \"block_compressor\": \"zstd\"") "], "
                                                                                                                                                                                                                                                                                                              "\"sweep\": [{\"cache_size_bytes\": 4194304, \"cache_ratio\": 0.5, \"runs\": [" RUN ("detail",
                                                                                                                                                                                                                                                                                                                                                                                                   "10485760") ", " RUN ("folded", MIB) ", " RUN ("sorted", "2097152") ", " RUN ("b100",
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                 MIB) ", " RUN ("zstd", MIB) ", " RUN ("b50", MIB) "]}], "
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                   "\"runs\": [" RUN ("detail", "10485760") ", " RUN ("folded", MIB) ", " RUN ("sorted",
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                               MIB) ", " RUN ("b100", MIB) ", " RUN ("zstd", MIB) ", " RUN ("b50",
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                            MIB) "], "
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                 "\"workloads\": [{\"workload\": \"append\", \"layouts\": [" WL ("detail", "\"write\": {\"journal_bytes_per_write\": 512}") ", " WL ("folded",
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                     "\"write\": {\"journal_bytes_per_write\": "
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                     "8000}") "]}, "
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                              "{\"workload\": \"row\", \"layouts\": [" WL (
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                 "sorted",
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                 "\"engine_read_bytes\": 63000, \"queries\": 100") "]}]}";

#define PRUNS                                                                                                \
   "\"runs\": [{\"run\": 1, \"layout\": \"detail\", \"predicted\": true, \"docs\": 1, \"bytes_returned\": "  \
   "1}, "                                                                                                    \
   "{\"run\": 1, \"layout\": \"folded\", \"predicted\": true, \"docs\": 1, \"bytes_returned\": 1}]"

static const char g_predicted[] =
   "{\"schema_version\": 3, \"predicted\": true, \"config\": {\"cold\": true}, " PRUNS ", \"sweep\": "
   "[{\"cache_size_bytes\": 4194304, \"cache_ratio\": 0.5, \"predicted\": true, " PRUNS ", \"candidates\": "
   "{\"sorted\": {\"block_read_bytes\": 2621440}, \"buckets\": {\"block_read_bytes\": 1048576}, "
   "\"folded-zstd\": {\"block_read_bytes\": 524288}}}], "
   "\"predicted_candidates\": [{\"name\": \"sorted\", \"layout\": {\"name\": \"sorted\", \"kind\": \"rows\", "
   "\"shape\": \"sorted\"}}, {\"name\": \"buckets\", \"layout\": {\"name\": \"buckets\", \"kind\": "
   "\"buckets\", \"bucket_rows\": 100}}, {\"name\": \"folded-zstd\", \"layout\": {\"name\": \"folded-zstd\", "
   "\"kind\": \"folded\", \"block_compressor\": \"zstd\"}}], "
   "\"predicted_workloads\": {\"layouts\": {\"detail\": {\"append_journal_bytes_per_write\": 512}, "
   "\"folded\": "
   "{\"append_journal_bytes_per_write\": 7424}, \"sorted\": {\"data_pages\": 100, \"data_page_disk_bytes\": "
   "1000, \"index_pages\": 0, \"index_page_disk_bytes\": 0, \"data_levels\": [{\"pages\": 10, "
   "\"page_disk_bytes\": 400}]}}}}";

/* load -- parse a JSON literal; asserts success. */
static void
load (const char *json, lab_cmp_results_t *r)
{
   bson_error_t error;

   if (!lab_cmp_results_load_json (json, strlen (json), "t.json", r, &error)) {
      fail_msg ("load failed: %s", error.message);
   }
}

/* test_candidates_beside_measured -- the candidates' table and the workloads' rows. */
static void
test_candidates_beside_measured (void **state)
{
   lab_cmp_results_t r, p;
   bson_string_t *o = bson_string_new (NULL);

   (void)state;
   load (g_measured, &r);
   load (g_predicted, &p);
   lab_cmp_render_prediction_cands (o, &r, &p);
   /* by descriptor: b100 is the predicted buckets (100 rows), zstd the predicted folded-zstd */
   assert_non_null (strstr (o->str,
                            "| sorted predicted (sorted) | measured | error | b100 predicted (buckets) "
                            "| measured | error | zstd predicted (folded-zstd) | measured | error |"));
   /* the snappy fold and the detail rows have their own table */
   assert_null (strstr (o->str, "| folded predicted"));
   assert_null (strstr (o->str, "| detail predicted"));
   /* buckets of 50 rows are not the predicted buckets of 100 */
   assert_null (strstr (o->str, "b50 predicted"));
   assert_non_null (strstr (o->str, "| 4.0 MiB | 2.5 | 2.0 | +25% | 1.0 | 1.0 | +0% | 0.5 | 1.0 | -50% |"));
   /* appends: journal bytes per write */
   assert_non_null (strstr (o->str, "| detail | 512 | 512 | +0% |"));
   assert_non_null (strstr (o->str, "| folded | 7424 | 8000 | -7% |"));
   /* row reads: 100 pages of 1,000 bytes, 100 reads touch 63.4 of them: 634 bytes per read, and all 10 of
    * the internal level's pages of 400 bytes over them: 40 more; measured 630 */
   assert_non_null (strstr (o->str, "| sorted | 674 | 630 | +7% |"));
   bson_string_free (o, true);
   lab_cmp_results_cleanup (&r);
   lab_cmp_results_cleanup (&p);
}

/* replaced -- a copy of `s` with the first `from` replaced by `to` (asserts it is there). Caller frees. */
static char *
replaced (const char *s, const char *from, const char *to)
{
   const char *at = strstr (s, from);

   assert_non_null (at);
   return bson_strdup_printf ("%.*s%s%s", (int)(at - s), s, to, at + strlen (from));
}

/* test_row_reads_at_the_cache -- with the measured workloads' cache among the predicted points and as many
 * reads, the row reads are the point's own (through an LRU cache of its size), not the distinct pages'. */
static void
test_row_reads_at_the_cache (void **state)
{
   lab_cmp_results_t r, p;
   bson_string_t *o = bson_string_new (NULL);
   char *m = replaced (g_measured, "\"config\": {\"cold\": true}",
                       "\"config\": {\"cold\": true, \"cache_size_bytes\": 4194304}");
   char *p1 = replaced (g_predicted, "\"candidates\": {\"sorted\"",
                        "\"row_read_bytes_per_query\": {\"sorted\": 700}, \"candidates\": {\"sorted\"");
   char *p2 = replaced (p1, "\"predicted_workloads\": {", "\"predicted_workloads\": {\"row_reads\": 100, ");

   (void)state;
   load (m, &r);
   load (p2, &p);
   lab_cmp_render_prediction_cands (o, &r, &p);
   assert_non_null (strstr (o->str, "| sorted | 700 | 630 | +11% |"));
   bson_string_free (o, true);
   lab_cmp_results_cleanup (&r);
   lab_cmp_results_cleanup (&p);
   bson_free (m);
   bson_free (p1);
   bson_free (p2);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_candidates_beside_measured),
      cmocka_unit_test (test_row_reads_at_the_cache),
   };
   return lab_test_run_group ("prediction_cands", tests, NULL, NULL);
}
