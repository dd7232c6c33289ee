/*
 * test_predict_probe.c -- the --predict probe on an embedded store, on the path a large
 * collection takes: the key index walk and the sampled leaf-page count read no document (the store's
 * documents-read counter, which a find does move, proves it) and the sampled count is within 10% of the
 * exact walk's. The threshold for sampling is lowered through probe_t.exact_below_bytes (the code path is
 * the real one: lab_scan_predict_probe_walk, lab_scan_predict_probe_leaf_pages); then the cache's capacity
 * from what those reads left in the cache (lab_scan_predict_probe_footprint: bytes per page, the key index's
 * own size, the eviction thresholds), still without a document read.
 */
#include "tests/testutil.h"

#include "scan/predict/predict_private.h"
#include "scan/scan.h"
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

#define COLL "probe_detail"
#define ROWS 60000
#define BILLS 700

typedef struct {
   char *dir;
   lab_store_t *store;
} fx_t;

#define CHECK(call) LAB_TEST_CHECK (call)

/* fill -- ROWS documents {_id, bill_id: i % BILLS (rows of a bill scattered), pad: 200 bytes snappy cannot
 * squeeze}, indexed on bill_id: a table of a few hundred leaf pages. */
static void
fill (lab_store_session_t *s)
{
   bson_t *docs[500];
   lab_store_insert_result_t r;
   uint8_t pad[200];
   uint64_t x = 88172645463325252ull;
   int i, j, k = 0;

   for (i = 0; i < ROWS; i++) {
      for (j = 0; j < (int)sizeof pad; j++) {
         x ^= x << 13;
         x ^= x >> 7;
         x ^= x << 17;
         pad[j] = (uint8_t)x;
      }
      docs[k] = BCON_NEW ("_id", BCON_INT64 (i), "bill_id", BCON_INT32 (i % BILLS), "pad",
                          BCON_BIN (BSON_SUBTYPE_BINARY, pad, (uint32_t)sizeof pad));
      if (++k == 500 || i == ROWS - 1) {
         CHECK (lab_store_insert_many (s, COLL, (const bson_t *const *)docs, (size_t)k, &r, &e_));
         assert_int_equal (r.nerrors, 0);
         lab_store_insert_result_cleanup (&r);
         while (k) {
            bson_destroy (docs[--k]);
         }
      }
   }
   CHECK (lab_store_create_index (s, COLL, "bill_id", &e_));
}

/* setup -- a fresh embedded store holding the collection, closed and reopened cold. */
static int
setup (void **state)
{
   lab_store_opts_t o = { .create = true, .cache_size_bytes = 64 * 1024 * 1024 };
   fx_t *fx = bson_malloc0 (sizeof *fx);
   lab_store_session_t *s;
   char *uri;

   fx->dir = lab_test_tmpdir ("predict-probe");
   uri = bson_strdup_printf ("wiredtiger:%s/home", fx->dir);
   CHECK (fx->store = lab_store_open (uri, &o, &e_));
   bson_free (uri);
   CHECK (s = lab_store_session_open (fx->store, &e_));
   fill (s);
   lab_store_session_close (s);
   *state = fx;
   return 0;
}

/* teardown -- close the store, remove its directory. */
static int
teardown (void **state)
{
   fx_t *fx = *state;

   lab_store_close (fx->store);
   lab_test_rmtree (fx->dir);
   bson_free (fx->dir);
   bson_free (fx);
   return 0;
}

/* docs_read -- the store's documents-read counter now. */
static int64_t
docs_read (lab_store_t *store)
{
   lab_store_engine_stats_t es;

   CHECK (lab_store_engine_stats (store, &es, &e_));
   assert_true (es.docs_examined >= 0);
   return es.docs_examined;
}

/* count_doc -- a find's callback: count. */
static bool
count_doc (const bson_t *doc, void *ctx)
{
   (void)doc;
   (*(int64_t *)ctx)++;
   return true;
}

/* test_probe_sampled_no_document -- the probe cold, sampling forced (exact_below_bytes 1 byte): the leaf
 * count is sampled, the probe's documents_fetched and the store's counter say 0, the count is within 10%
 * of the exact walk's; then a find moves the counter by the documents it returns (the counter can fail). */
static void
test_probe_sampled_no_document (void **state)
{
   fx_t *fx = *state;
   lab_scan_opts_t o;
   lab_store_session_t *s;
   probe_t p;
   int64_t d0, exact, n = 0;
   bson_value_t v;

   CHECK (lab_store_cycle (fx->store, NULL, NULL, 0, &e_)); /* cold: nothing of the table in the cache */
   lab_scan_opts_init (&o);
   o.detail = COLL;
   o.key = "bill_id";
   memset (&p, 0, sizeof p);
   p.sample = 1.0;
   p.exact_below_bytes = 1;
   p.leaf_opts.windows = 16;
   p.leaf_opts.pages_per_window = 4;
   CHECK (s = lab_store_session_open (fx->store, &e_));
   CHECK (lab_store_stats (s, COLL, &p.st, &e_));
   d0 = docs_read (fx->store);
   CHECK (lab_scan_predict_probe_walk (s, fx->store, &o, &p, &e_));
   lab_scan_predict_probe_leaf_pages (s, fx->store, &o, &p);
   print_message ("probe: %lld entries, leaf pages %lld (%s, +-%.1f%%), %lld records stepped, %lld pages and "
                  "%lld bytes read, %lld documents fetched (%s)\n",
                  (long long)p.entries, (long long)p.leaf_pages, p.leaf_source, p.leaf_error_pct,
                  (long long)p.leaf_rows_read, (long long)p.leaf_pages_read, (long long)p.leaf_read_bytes,
                  (long long)p.documents_fetched, p.documents_how);
   assert_int_equal (p.entries, ROWS);
   assert_string_equal (p.leaf_source, "engine leaf pages, sampled");
   assert_true (p.leaf_rows_read > 0 && p.leaf_pages_read > 0 && p.leaf_read_bytes > 0);
   assert_int_equal (p.documents_fetched, 0);
   assert_non_null (strstr (p.documents_how, "measured"));
   assert_int_equal (docs_read (fx->store) - d0, 0);
   /* the cache's capacity from what those reads left in the cache: no further read */
   lab_scan_predict_probe_footprint (s, fx->store, &o, &p);
   print_message ("footprint: %.0f B per data page (%lld pages), %.0f B per index page (%lld), key index "
                  "%.0f B of %lld, eviction %.0f/%.0f%s%s\n",
                  p.data_page_mem, (long long)p.data_pages_in, p.index_page_mem, (long long)p.index_pages_in,
                  p.key_index_bytes, (long long)p.st.index_size_bytes, p.evict_target, p.evict_trigger,
                  p.foot_why ? ": " : "", p.foot_why ? p.foot_why : "");
   assert_null (p.foot_why);
   assert_true (p.data_pages_in > 0 && p.index_pages_in > 0);
   /* a page in memory: its rows unpacked (snappy cannot squeeze the pad) with the allocator's overhead */
   assert_true (p.data_page_mem > (double)p.st.data_size_bytes / (double)p.leaf_pages);
   assert_true (p.data_page_mem < 4 * (double)p.st.data_size_bytes / (double)p.leaf_pages);
   assert_true (p.index_page_mem > 0);
   /* the key index's own file, not the mean of the two indexes (_id's, with 12-byte keys, is larger) */
   assert_true (p.key_index_bytes > 0 && p.key_index_bytes < (double)p.st.index_size_bytes);
   assert_true (p.key_index_bytes != (double)p.st.index_size_bytes / p.st.nindexes);
   assert_true (p.evict_target == 80 && p.evict_trigger == 95 && !p.evict_configured);
   assert_int_equal (docs_read (fx->store) - d0, 0);
   lab_store_session_close (s);

   /* the exact walk, cold again */
   CHECK (lab_store_cycle (fx->store, NULL, NULL, 0, &e_));
   CHECK (s = lab_store_session_open (fx->store, &e_));
   CHECK (lab_store_leaf_pages (s, COLL, &exact, &e_));
   print_message ("exact: %lld leaf pages; sampled %+.1f%%\n", (long long)exact,
                  100.0 * (double)(p.leaf_pages - exact) / (double)exact);
   assert_true (exact > 200);
   assert_true (p.leaf_pages_read < exact / 2);
   assert_true (llabs (p.leaf_pages - exact) * 10 <= exact);

   /* the counter moves with documents read */
   d0 = docs_read (fx->store);
   v.value_type = BSON_TYPE_INT32;
   v.value.v_int32 = 7;
   CHECK (lab_store_find_eq (s, COLL, "bill_id", &v, count_doc, &n, NULL, &e_));
   assert_int_equal (n, ROWS / BILLS + (7 < ROWS % BILLS));
   assert_int_equal (docs_read (fx->store) - d0, n);
   lab_store_session_close (s);
   lab_scan_predict_probe_cleanup (&p);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_probe_sampled_no_document),
   };
   return lab_test_run_group ("predict_probe", tests, setup, teardown);
}
