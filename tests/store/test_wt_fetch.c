/*
 * test_wt_fetch.c -- a sorted stream whose records the embedded store fetches ahead in RecordId order
 * (lab_store_sorted_opts_t's fetch_ahead_rows, store/wt_fetch.c) gives exactly the documents, in exactly
 * the order, of the stream that fetches each record as its index entry is read: every window size from one
 * entry to more than the collection, with and without bounds, a key's rows scattered over the RecordIds
 * and some of them removed.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/store.h"

#include <string.h>

typedef lab_test_store_fx_t fx_t;

#define CHECK(call) LAB_TEST_CHECK (call)

/* ROWS rows over KEYS keys: row i has key (i * 7) % KEYS, so a key's rows are KEYS RecordIds apart and
 * every window of the index's order holds RecordIds out of order. */
#define ROWS 3000
#define KEYS 41

/* setup -- a fresh store in a temporary directory. */
static int
setup (void **state)
{
   *state = lab_test_store_fx_new ("wt-fetch");
   return 0;
}

/* teardown -- close and remove the store. */
static int
teardown (void **state)
{
   lab_test_store_fx_free (*state);
   return 0;
}

/* fill -- ROWS rows {_id, k, pad} in 10 batches (pads of varied length), the key index, and the rows of
 * key 3 removed (holes in the RecordIds). */
static void
fill (lab_store_session_t *s)
{
   bson_t *docs[ROWS / 10];
   lab_store_insert_result_t r;
   bson_value_t three = { .value_type = BSON_TYPE_INT32, .value.v_int32 = 3 };
   char pad[600];
   int64_t deleted;
   int b, i;

   memset (pad, 'x', sizeof pad);
   for (b = 0; b < 10; b++) {
      for (i = 0; i < ROWS / 10; i++) {
         int n = b * (ROWS / 10) + i;

         docs[i] = bson_new ();
         BSON_APPEND_INT32 (docs[i], "_id", n);
         BSON_APPEND_INT32 (docs[i], "k", (n * 7) % KEYS);
         bson_append_utf8 (docs[i], "pad", -1, pad, (n * 13) % (int)sizeof pad);
      }
      CHECK (lab_store_insert_many (s, "rows", (const bson_t *const *)docs, ROWS / 10, &r, &e_));
      assert_int_equal (r.inserted, ROWS / 10);
      lab_store_insert_result_cleanup (&r);
      for (i = 0; i < ROWS / 10; i++) {
         bson_destroy (docs[i]);
      }
   }
   CHECK (lab_store_create_index (s, "rows", "k", &e_));
   CHECK (lab_store_delete_eq (s, "rows", "k", &three, &deleted, &e_));
   assert_true (deleted > 0);
}

/* stream -- the documents of the stream over k in [lo, hi) fetching `ahead` rows ahead (0: one at a time),
 * concatenated into *out; their count. */
static int64_t
stream (lab_store_session_t *s, const bson_value_t *lo, const bson_value_t *hi, int32_t ahead,
        bson_string_t *out)
{
   lab_store_sorted_opts_t so = { .lo = lo, .hi = hi, .fetch_ahead_rows = ahead };
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bson_error_t e;
   int64_t n = 0;
   int rc;

   CHECK (cur = lab_store_sorted_open (s, "rows", "k", &so, &e_));
   while ((rc = lab_store_cursor_next (cur, &doc, &e)) == 1) {
      char *json = bson_as_canonical_extended_json (doc, NULL);

      bson_string_append (out, json);
      bson_string_append_c (out, '\n');
      bson_free (json);
      n++;
   }
   if (rc < 0) {
      fail_msg ("stream with fetch_ahead_rows %d: %s", ahead, e.message);
   }
   lab_store_cursor_close (cur);
   return n;
}

/* test_same_stream -- every window size gives the one-at-a-time stream, whole and bounded. */
static void
test_same_stream (void **state)
{
   fx_t *fx = *state;
   const int32_t aheads[] = { 1, 2, 3, 64, 1000, ROWS - 1, ROWS, 1 << 20 };
   bson_value_t lo = { .value_type = BSON_TYPE_INT32, .value.v_int32 = 2 };
   bson_value_t hi = { .value_type = BSON_TYPE_INT32, .value.v_int32 = 30 };
   const bson_value_t *los[] = { NULL, &lo }, *his[] = { NULL, &hi };
   lab_store_session_t *s;
   size_t a;
   int b;

   CHECK (s = lab_store_session_open (fx->store, &e_));
   fill (s);
   for (b = 0; b < 2; b++) {
      bson_string_t *want = bson_string_new (NULL);
      int64_t nwant = stream (s, los[b], his[b], 0, want);

      assert_true (nwant > 0 && nwant < ROWS);
      for (a = 0; a < sizeof aheads / sizeof aheads[0]; a++) {
         bson_string_t *got = bson_string_new (NULL);
         int64_t ngot = stream (s, los[b], his[b], aheads[a], got);

         if (ngot != nwant || strcmp (got->str, want->str) != 0) {
            fail_msg ("fetch_ahead_rows %d, %s: %lld documents, not the %lld of the one-at-a-time stream, or "
                      "another order",
                      aheads[a], b ? "bounded" : "whole", (long long)ngot, (long long)nwant);
         }
         bson_string_free (got, true);
      }
      bson_string_free (want, true);
   }
   lab_store_session_close (s);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown (test_same_stream, setup, teardown),
   };
   return lab_test_run_group ("wt_fetch", tests, NULL, NULL);
}
