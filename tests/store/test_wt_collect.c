/*
 * test_wt_collect.c -- an index's keys kept while a load inserts (lab_store_collect_index, store/
 * wt_collect.c): the build that follows takes them instead of reading the collection, and gives the same
 * index table, byte for byte, and the same multikey flag as a build that reads -- with two inserting
 * sessions, with keys of several types and arrays, with the sorts spilled; after an upsert the kept keys
 * are dropped and the build reads (the -v line of the build says which it did).
 */
#include "tests/testutil.h"

#include "core/log.h"
#include "store/store.h"
#include "store/wt_private.h"

#include <stdlib.h>
#include <string.h>

#define DOCS 3000
#define BATCH 100

/* The -v line of the last index build. */
static char build_line[512];

/* sink -- keeps the index build's debug line. */
static void
sink (lab_log_level_t level, const char *msg, void *ctx)
{
   if (strstr (msg, "index k_1 of")) {
      bson_strncpy (build_line, msg, sizeof build_line);
   }
}

/* doc_at -- document i: k an int, a string, an array (multikey) or missing, by i. */
static bson_t *
doc_at (int i)
{
   bson_t *d = bson_new ();
   char s[32];

   BSON_APPEND_INT32 (d, "_id", i);
   switch (i % 7) {
   case 0:
      break; /* missing: indexed as null */
   case 1: {
      bson_t a;
      BSON_APPEND_ARRAY_BEGIN (d, "k", &a);
      BSON_APPEND_INT32 (&a, "0", (i * 31) % 97);
      BSON_APPEND_INT32 (&a, "1", (i * 17) % 89);
      bson_append_array_end (d, &a);
      break;
   }
   case 2:
      bson_snprintf (s, sizeof s, "ZY%012d", (i * 7919) % 500);
      BSON_APPEND_UTF8 (d, "k", s);
      break;
   default:
      BSON_APPEND_INT64 (d, "k", (int64_t)((i * 104729) % 613));
   }
   BSON_APPEND_UTF8 (d, "pad", "row");
   return d;
}

/* digest -- FNV-1a over every key and value of the index table of `field` of coll. */
static uint64_t
digest (lab_store_session_t *s, const char *coll, const char *field)
{
   wt_sess_t *ss = s->impl;
   wt_coll_t *c;
   WT_CURSOR *cur = NULL;
   uint64_t h = 0xcbf29ce484222325ULL;
   int i, ret;

   pthread_mutex_lock (&ss->st->mu);
   c = lab_wt_coll_find (ss->st, coll);
   pthread_mutex_unlock (&ss->st->mu);
   assert_non_null (c);
   for (i = 1; i < c->nindexes && strcmp (c->indexes[i].field, field) != 0; i++) {
   }
   assert_true (i < c->nindexes);
   assert_int_equal (ss->s->open_cursor (ss->s, c->indexes[i].uri, NULL, "raw", &cur), 0);
   while ((ret = cur->next (cur)) == 0) {
      WT_ITEM k, v;
      cur->get_key (cur, &k);
      cur->get_value (cur, &v);
      for (size_t j = 0; j < k.size; j++) {
         h = (h ^ ((const uint8_t *)k.data)[j]) * 0x100000001b3ULL;
      }
      h = (h ^ 0xff) * 0x100000001b3ULL;
      for (size_t j = 0; j < v.size; j++) {
         h = (h ^ ((const uint8_t *)v.data)[j]) * 0x100000001b3ULL;
      }
   }
   assert_int_equal (ret, WT_NOTFOUND);
   cur->close (cur);
   return h;
}

/* load -- DOCS documents into a fresh store's collection "c" in batches from two sessions by turns
 * (keys kept first when `collect`), one upsert after when `upsert`, then the index on k; its digest and
 * multikey flag. */
static uint64_t
load (bool collect, bool upsert, bool *multikey)
{
   char *dir = lab_test_tmpdir ("wt-collect");
   char *uri = bson_strdup_printf ("wiredtiger:%s", dir);
   lab_store_opts_t o = { .create = true, .cache_size_bytes = 64 * 1024 * 1024 };
   lab_store_index_spec_t spec = { { "k" }, 1 };
   lab_store_t *store;
   lab_store_session_t *s[2];
   bson_error_t e;
   bool exists = false;
   int64_t size;
   uint64_t h;

   store = lab_store_open (uri, &o, &e);
   assert_non_null (store);
   s[0] = lab_store_session_open (store, &e);
   s[1] = lab_store_session_open (store, &e);
   assert_true (lab_store_create (s[0], "c", &e));
   if (collect && !lab_store_collect_index (s[0], "c", "k", &e)) {
      fail_msg ("collect: %s", e.message);
   }
   for (int b = 0; b < DOCS / BATCH; b++) {
      bson_t *docs[BATCH];
      lab_store_insert_result_t r = { 0 };
      for (int i = 0; i < BATCH; i++) {
         docs[i] = doc_at (b * BATCH + i);
      }
      if (!lab_store_insert_many (s[b % 2], "c", (const bson_t *const *)docs, BATCH, &r, &e)) {
         fail_msg ("insert: %s", e.message);
      }
      assert_int_equal (r.nerrors, 0);
      lab_store_insert_result_cleanup (&r);
      for (int i = 0; i < BATCH; i++) {
         bson_destroy (docs[i]);
      }
   }
   if (upsert) {
      bson_t *d = BCON_NEW ("_id", BCON_INT32 (5), "k", BCON_INT32 (-1));
      assert_true (lab_store_upsert_by_id (s[1], "c", d, &e));
      bson_destroy (d);
   }
   lab_store_session_close (s[1]);
   build_line[0] = '\0';
   if (!lab_store_create_index (s[0], "c", "k", &e)) {
      fail_msg ("index: %s", e.message);
   }
   assert_true (lab_store_index_info (s[0], "c", &spec, &exists, multikey, &size, &e));
   assert_true (exists);
   h = digest (s[0], "c", "k");
   lab_store_session_close (s[0]);
   lab_store_close (store);
   lab_test_rmtree (dir);
   bson_free (dir);
   bson_free (uri);
   return h;
}

/* test_kept_equals_read -- kept keys (in memory, then spilled to runs) build the index a read builds. */
static void
test_kept_equals_read (void **state)
{
   bool mk_read = false, mk_kept = false;
   uint64_t read = load (false, false, &mk_read), kept;

   assert_non_null (strstr (build_line, "keys read"));
   kept = load (true, false, &mk_kept);
   assert_non_null (strstr (build_line, "kept by the load"));
   assert_true (read == kept);
   assert_true (mk_read && mk_kept);
   setenv ("LAB_WT_SORT_BUDGET", "2048", 1); /* many runs per session */
   kept = load (true, false, &mk_kept);
   unsetenv ("LAB_WT_SORT_BUDGET");
   assert_non_null (strstr (build_line, "kept by the load"));
   assert_true (read == kept);
}

/* test_upsert_reads -- an upsert after the load: the kept keys are dropped, the build reads, and its index
 * is the one a load without kept keys gives. */
static void
test_upsert_reads (void **state)
{
   bool mk1 = false, mk2 = false;
   uint64_t plain = load (false, true, &mk1), after = load (true, true, &mk2);

   assert_non_null (strstr (build_line, "keys read"));
   assert_true (plain == after);
   assert_true (mk1 == mk2);
}

/* setup -- the build's debug line to the sink. */
static int
setup (void **state)
{
   lab_log_sink_set (sink, NULL);
   lab_log_level_set (LAB_LOG_DEBUG);
   return 0;
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_kept_equals_read),
      cmocka_unit_test (test_upsert_reads),
   };
   return lab_test_run_group ("wt_collect", tests, setup, NULL);
}
