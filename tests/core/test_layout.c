/*
 * test_layout.c -- unit tests of the layout descriptor (core/layout.h): the questions each of today's
 * layouts answers, its JSON round trip and the refusal of a malformed one, the descriptor of a fold's
 * _layoutlab params (a record with its descriptor and an older one without), and a results file's
 * layouts[] carrying the descriptors (and an older file's fallback: kind, provenance, order "key").
 */
#include <string.h>

#include "core/error.h"
#include "core/layout.h"
#include "core/results.h"
#include "tests/testutil.h"

/* A row of the table of today's layouts and the answers each must give. */
typedef struct {
   const char *name, *kind, *shape;
   bool clustered;
   bool reads_rows, many_rows, one_per_master, bucketed, key_contiguous, by_id_range;
} want_t;

static const want_t wants[] = {
   { "detail", "rows", "natural", false, true, false, false, false, false, false },
   { "copy", "rows", "copy", false, true, false, false, false, false, false },
   { "sorted", "rows", "sorted", false, true, false, false, false, true, false },
   { "clustered", "rows", "clustered", true, true, false, false, false, true, true },
   { "folded", "folded", "folded", false, false, true, true, false, true, false },
   { "buckets", "buckets", "folded", false, false, true, false, true, true, false },
};

/* make -- the descriptor of wants[i]. */
static lab_layout_t
make (const want_t *w)
{
   lab_layout_t l;

   lab_layout_init (&l, w->name, "coll_x", w->kind);
   assert_true (lab_layout_shape_parse (w->shape, &l.shape));
   l.clustered = w->clustered;
   return l;
}

static void
test_questions (void **state)
{
   size_t i;

   (void)state;
   for (i = 0; i < sizeof wants / sizeof wants[0]; i++) {
      const want_t *w = &wants[i];
      lab_layout_t l = make (w);
      print_message ("layout %s\n", w->name);
      assert_int_equal (lab_layout_reads_rows (&l), w->reads_rows);
      assert_int_equal (lab_layout_doc_holds_many_rows (&l), w->many_rows);
      assert_int_equal (lab_layout_one_doc_per_master (&l), w->one_per_master);
      assert_int_equal (lab_layout_bucketed (&l), w->bucketed);
      assert_int_equal (lab_layout_key_contiguous (&l), w->key_contiguous);
      assert_int_equal (lab_layout_read_by_id_range (&l), w->by_id_range);
      assert_string_equal (lab_layout_kind_name (l.kind), w->kind);
      assert_string_equal (lab_layout_shape_name (l.shape), w->shape);
   }
}

static void
test_round_trip (void **state)
{
   lab_layout_t a, b;
   bson_error_t error;
   bson_t doc = BSON_INITIALIZER, d;
   bson_iter_t it;

   (void)state;
   lab_layout_init (&a, "buckets", "bill_buckets", "buckets");
   bson_strncpy (a.key, "bill_id", sizeof a.key);
   bson_strncpy (a.array_field, "lines", sizeof a.array_field);
   bson_strncpy (a.hoist, "customer,currency", sizeof a.hoist);
   a.bucket_rows = 50;
   bson_strncpy (a.bucket_by, "at:day", sizeof a.bucket_by);
   bson_strncpy (a.block_compressor, "zstd", sizeof a.block_compressor);
   lab_layout_append (&doc, "descriptor", &a);
   assert_true (bson_iter_init_find (&it, &doc, "descriptor"));
   {
      uint32_t len;
      const uint8_t *data;
      bson_iter_document (&it, &len, &data);
      assert_true (bson_init_static (&d, data, len));
   }
   LAB_TEST_CHECK (lab_layout_from_bson (&d, &b, &error));
   assert_true (b.recorded);
   b.recorded = false;
   assert_memory_equal (&a, &b, sizeof a);
   {
      char *json = bson_as_relaxed_extended_json (&d, NULL);
      assert_non_null (strstr (json, "\"hoist\" : [ \"customer\", \"currency\" ]"));
      assert_non_null (strstr (json, "\"shape\" : \"folded\""));
      bson_free (json);
   }
   bson_destroy (&doc);
}

static void
test_refused (void **state)
{
   static const char *const bad[] = {
      "{\"name\": \"x\", \"kind\": \"timeseries\"}",
      "{\"name\": \"x\", \"kind\": \"rows\", \"shape\": \"spiral\"}",
      "{\"name\": \"x\", \"kind\": \"rows\", \"clustered\": 1}",
      "{\"name\": \"x\", \"kind\": \"rows\", \"hoist\": \"a,b\"}",
      "{\"name\": \"x\", \"kind\": \"folded\", \"bucket_rows\": -1}",
      "{\"kind\": \"rows\"}",
   };
   size_t i;

   (void)state;
   for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      bson_error_t error;
      lab_layout_t l;
      bson_t *doc = bson_new_from_json ((const uint8_t *)bad[i], -1, NULL);
      assert_non_null (doc);
      assert_false (lab_layout_from_bson (doc, &l, &error));
      assert_non_null (strstr (error.message, "layout descriptor: \""));
      bson_destroy (doc);
   }
}

/* from_fold -- the descriptor of params `json` for layout `name`. */
static lab_layout_t
from_fold (const char *json, const char *name)
{
   bson_t *doc = bson_new_from_json ((const uint8_t *)json, -1, NULL);
   bson_error_t error;
   lab_layout_t l;

   assert_non_null (doc);
   LAB_TEST_CHECK (lab_layout_from_fold (doc, name, "c", &l, &error));
   bson_destroy (doc);
   return l;
}

static void
test_from_fold (void **state)
{
   lab_layout_t l;

   (void)state;
   /* an older record: its settings only */
   l = from_fold (
      "{\"key\": \"bill_id\", \"array_field\": \"rows\", \"shape\": \"clustered\", \"bucket_rows\": "
      "0, \"bucket_by\": \"\", \"hoist\": [], \"block_compressor\": \"snappy\", \"copy_only\": false}",
      "clustered");
   assert_int_equal (l.kind, LAB_LAYOUT_ROWS);
   assert_int_equal (l.shape, LAB_LAYOUT_CLUSTERED);
   assert_true (l.clustered && lab_layout_read_by_id_range (&l) && lab_layout_key_contiguous (&l));
   assert_string_equal (l.key, "bill_id");
   assert_string_equal (l.block_compressor, "snappy");
   l = from_fold ("{\"key\": \"bill_id\", \"shape\": \"folded\", \"bucket_rows\": 10, \"hoist\": [\"cur\"]}",
                  "b");
   assert_int_equal (l.kind, LAB_LAYOUT_BUCKETS);
   assert_string_equal (l.hoist, "cur");
   l = from_fold ("{\"key\": \"bill_id\", \"shape\": \"folded\", \"copy_only\": true}", "s");
   assert_int_equal (l.kind, LAB_LAYOUT_ROWS);
   assert_int_equal (l.shape, LAB_LAYOUT_SORTED);
   l = from_fold ("{\"key\": \"_id\", \"shape\": \"copy\"}", "copy");
   assert_int_equal (l.shape, LAB_LAYOUT_COPY);
   assert_false (lab_layout_key_contiguous (&l));
   assert_string_equal (l.key, ""); /* a copy is keyed by _id for its own --verify: no master key */
   /* a record with its descriptor: the descriptor wins, the name and collection are the comparison's */
   l = from_fold ("{\"key\": \"bill_id\", \"shape\": \"folded\", \"descriptor\": {\"name\": \"folded\", "
                  "\"collection\": \"old\", \"kind\": \"folded\", \"shape\": \"folded\", \"key\": \"k2\"}}",
                  "mine");
   assert_string_equal (l.name, "mine");
   assert_string_equal (l.collection, "c");
   assert_string_equal (l.key, "k2");
   assert_int_equal (l.kind, LAB_LAYOUT_FOLDED);
}

/* layouts_of -- the layouts of results `json`. */
static void
layouts_of (const char *json, bson_t **doc, lab_results_layouts_t *ls)
{
   *doc = bson_new_from_json ((const uint8_t *)json, -1, NULL);
   assert_non_null (*doc);
   lab_results_layouts (*doc, ls);
}

static void
test_results_layouts (void **state)
{
   lab_results_layouts_t ls, back;
   bson_t *doc, out = BSON_INITIALIZER;

   (void)state;
   /* an older file: no descriptors; kinds, the provenance's shape and order "key" say what they are */
   layouts_of ("{\"layouts\": [{\"name\": \"detail\", \"collection\": \"d\", \"kind\": \"rows\"},"
               "{\"name\": \"s\", \"collection\": \"ds\", \"kind\": \"rows\", \"order\": \"key\"},"
               "{\"name\": \"c\", \"collection\": \"dc\", \"kind\": \"rows\"},"
               "{\"name\": \"folded\", \"collection\": \"f\", \"kind\": \"folded\"}],"
               "\"dataset\": {\"c\": {\"provenance\": {\"params\": {\"shape\": \"clustered\"}}}}}",
               &doc, &ls);
   assert_int_equal (ls.n, 4);
   assert_false (lab_layout_key_contiguous (&ls.l[0].desc));
   assert_true (lab_layout_key_contiguous (&ls.l[1].desc) && !ls.l[1].desc.recorded);
   assert_int_equal (ls.l[2].desc.shape, LAB_LAYOUT_CLUSTERED);
   assert_true (ls.l[2].desc.recorded && lab_layout_read_by_id_range (&ls.l[2].desc));
   assert_true (lab_layout_one_doc_per_master (&ls.l[3].desc));
   assert_string_equal (ls.l[3].desc.collection, "f");
   /* written back, each entry carries its descriptor, and reads back the same */
   bson_strncpy (ls.l[3].desc.array_field, "lines", sizeof ls.l[3].desc.array_field);
   lab_results_layouts_append (&out, &ls);
   lab_results_layouts (&out, &back);
   assert_int_equal (back.n, 4);
   assert_string_equal (back.l[3].desc.array_field, "lines");
   assert_int_equal (back.l[2].desc.shape, LAB_LAYOUT_CLUSTERED);
   assert_int_equal (back.l[1].desc.shape, LAB_LAYOUT_SORTED);
   bson_destroy (doc);
   bson_destroy (&out);
   /* a version 1 file: detail rows in arrival order, folded */
   layouts_of ("{}", &doc, &ls);
   assert_int_equal (ls.n, 2);
   assert_int_equal (ls.l[0].desc.shape, LAB_LAYOUT_NATURAL);
   assert_true (lab_layout_one_doc_per_master (&ls.l[1].desc));
   bson_destroy (doc);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_questions),       cmocka_unit_test (test_round_trip),
      cmocka_unit_test (test_refused),         cmocka_unit_test (test_from_fold),
      cmocka_unit_test (test_results_layouts),
   };
   return lab_test_run_group ("layout", tests, NULL, NULL);
}
