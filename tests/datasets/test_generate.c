/*
 * test_generate.c -- `billgen generate` with several workers on the embedded store: the collection
 * (every document, its _id and its RecordId) is the same whatever the number of workers, and the store's
 * positioned inserts (lab_store_insert_many_at) under it refuse a taken position and let later appends
 * go after the highest position given.
 */
#include "tests/testutil.h"

#include <string.h>

#include "core/error.h"
#include "store/store.h"
#include "datasets/billgen.h"

typedef struct {
   int64_t docs;
   int64_t rid_sum, rid_max;
   uint64_t hash; /* FNV-1a over (RecordId, document bytes) in _id order */
} digest_t;

/* fnv -- fold bytes into an FNV-1a hash. */
static uint64_t
fnv (uint64_t h, const void *p, size_t n)
{
   const uint8_t *b = p;
   for (size_t i = 0; i < n; i++) {
      h = (h ^ b[i]) * 0x100000001B3ull;
   }
   return h;
}

/* digest -- walk coll in _id order, fetching each document's RecordId. */
static void
digest (lab_store_t *store, const char *coll, digest_t *d)
{
   bson_error_t e;
   lab_store_session_t *s = lab_store_session_open (store, &e);
   lab_store_session_t *s2 = lab_store_session_open (store, &e);
   assert_non_null (s2);
   lab_store_cursor_t *cur = lab_store_sorted_open (s, coll, "_id", NULL, &e);
   const bson_t *doc;
   int rc;

   if (!cur) {
      fail_msg ("sorted_open: %s", e.message);
   }
   memset (d, 0, sizeof *d);
   d->hash = 0xCBF29CE484222325ull;
   while ((rc = lab_store_cursor_next (cur, &doc, &e)) == 1) {
      bson_iter_t it;
      int64_t *rids = NULL;
      size_t n = 0;
      assert_true (bson_iter_init_find (&it, doc, "_id"));
      if (!lab_store_record_ids (s2, coll, "_id", bson_iter_value (&it), &rids, &n, &e)) {
         fail_msg ("record_ids: %s", e.message);
      }
      assert_int_equal (n, 1);
      d->hash = fnv (d->hash, &rids[0], sizeof rids[0]);
      d->hash = fnv (d->hash, bson_get_data (doc), doc->len);
      d->rid_sum += rids[0];
      d->rid_max = BSON_MAX (d->rid_max, rids[0]);
      d->docs++;
      bson_free (rids);
   }
   assert_int_equal (rc, 0);
   lab_store_cursor_close (cur);
   lab_store_session_close (s2);
   lab_store_session_close (s);
}

/* gen_digest -- generate 60 bills with `parallel` workers and batches of `batch` rows into a fresh store. */
static void
gen_digest (const char *dir, int parallel, size_t batch, digest_t *d, lab_gen_generate_stats_t *st)
{
   char *uri = bson_strdup_printf ("wiredtiger:%s/p%d-b%zu", dir, parallel, batch);
   lab_store_opts_t so = { .create = true, .cache_size_bytes = 256 * 1024 * 1024 };
   lab_gen_generate_opts_t o;
   bson_error_t e;
   lab_store_t *store = lab_store_open (uri, &so, &e);

   if (!store) {
      fail_msg ("open %s: %s", uri, e.message);
   }
   memset (&o, 0, sizeof o);
   lab_gen_params_init (&o.gen);
   o.gen.bills = 60;
   o.gen.seed = 11;
   o.coll = "bill_detail";
   o.batch_docs = batch;
   o.parallel = parallel;
   o.progress = LAB_PROGRESS_NEVER;
   if (!lab_gen_generate (store, &o, st, &e)) {
      fail_msg ("generate --parallel %d: %s", parallel, e.message);
   }
   assert_int_equal (st->workers, parallel);
   digest (store, "bill_detail", d);
   lab_store_close (store);
   bson_free (uri);
}

/* --parallel 1, 2 and 3 (odd batch sizes, so chunks end mid-bill and workers skip unevenly) give the
 * same documents with the same RecordIds; RecordIds are exactly 1..rows */
static void
test_parallel_same (void **state)
{
   (void)state;
   char *dir = lab_test_tmpdir ("generate-parallel");
   digest_t d1, d2, d3, d2b;
   lab_gen_generate_stats_t s1, s2, s3, s2b;

   gen_digest (dir, 1, 1000, &d1, &s1);
   gen_digest (dir, 2, 1000, &d2, &s2);
   gen_digest (dir, 3, 97, &d3, &s3);
   gen_digest (dir, 2, 13, &d2b, &s2b);
   assert_true (d1.docs > 5000);
   assert_int_equal (d1.docs, s1.rows);
   assert_int_equal (d1.rid_max, d1.docs);
   assert_int_equal (d1.rid_sum, d1.docs * (d1.docs + 1) / 2);
   assert_int_equal (s1.bson_bytes, s2.bson_bytes);
   assert_int_equal (s1.bson_bytes, s3.bson_bytes);
   const digest_t *all[] = { &d2, &d3, &d2b };
   for (size_t i = 0; i < 3; i++) {
      assert_int_equal (all[i]->docs, d1.docs);
      assert_int_equal (all[i]->rid_sum, d1.rid_sum);
      assert_int_equal (all[i]->rid_max, d1.rid_max);
      assert_true (all[i]->hash == d1.hash);
   }
   lab_test_rmtree (dir);
   bson_free (dir);
}

/* positioned inserts: a taken position fails the batch; a plain insert afterwards goes after the
 * highest position given; a gap left by a refused document stays unused */
static void
test_insert_at (void **state)
{
   (void)state;
   char *dir = lab_test_tmpdir ("insert-at");
   char *uri = bson_strdup_printf ("wiredtiger:%s/s", dir);
   lab_store_opts_t so = { .create = true, .cache_size_bytes = 256 * 1024 * 1024 };
   bson_error_t e;
   lab_store_t *store = lab_store_open (uri, &so, &e);
   assert_non_null (store);
   lab_store_session_t *s = lab_store_session_open (store, &e);
   assert_non_null (s);
   assert_true (lab_store_create (s, "c", &e));

   bson_t *d[3];
   for (int i = 0; i < 3; i++) {
      d[i] = BCON_NEW ("_id", BCON_INT32 (i), "v", BCON_INT32 (i * 10));
   }
   lab_store_insert_result_t r;
   /* positions 10, 11 -> RecordIds 11, 12 */
   assert_true (lab_store_insert_many_at (s, "c", (const bson_t *const *)d, 2, 10, &r, &e));
   assert_int_equal (r.inserted, 2);
   lab_store_insert_result_cleanup (&r);
   /* position 11 again (another _id): the batch fails, naming the RecordId */
   assert_false (lab_store_insert_many_at (s, "c", (const bson_t *const *)&d[2], 1, 11, &r, &e));
   assert_non_null (strstr (e.message, "RecordId 12 is taken"));
   lab_store_insert_result_cleanup (&r);
   /* a plain append goes after the highest given: RecordId 13 */
   assert_true (lab_store_insert_many (s, "c", (const bson_t *const *)&d[2], 1, &r, &e));
   assert_int_equal (r.inserted, 1);
   lab_store_insert_result_cleanup (&r);
   bson_value_t v = { .value_type = BSON_TYPE_INT32, .value.v_int32 = 2 };
   int64_t *rids = NULL;
   size_t n = 0;
   assert_true (lab_store_record_ids (s, "c", "_id", &v, &rids, &n, &e));
   assert_int_equal (n, 1);
   assert_int_equal (rids[0], 13);
   bson_free (rids);
   v.value.v_int32 = 0;
   assert_true (lab_store_record_ids (s, "c", "_id", &v, &rids, &n, &e));
   assert_int_equal (n, 1);
   assert_int_equal (rids[0], 11);
   bson_free (rids);
   int64_t count = 0;
   assert_true (lab_store_count (s, "c", &count, &e));
   assert_int_equal (count, 3);

   for (int i = 0; i < 3; i++) {
      bson_destroy (d[i]);
   }
   lab_store_session_close (s);
   lab_store_close (store);
   lab_test_rmtree (dir);
   bson_free (uri);
   bson_free (dir);
}

/* import_digest -- import `csv` (typed header, skip-row) into a fresh store with `parallel` writers and
 * batches of `batch` rows; its digest. */
static void
import_digest (const char *dir, const char *csv, int parallel, size_t batch, digest_t *d, int64_t *rejects)
{
   char *uri = bson_strdup_printf ("wiredtiger:%s/i%d-b%zu", dir, parallel, batch);
   lab_store_opts_t so = { .create = true, .cache_size_bytes = 256 * 1024 * 1024 };
   const char *files[] = { csv };
   lab_gen_import_opts_t o = { 0 };
   lab_gen_import_stats_t st;
   bson_error_t e;
   lab_store_t *store = lab_store_open (uri, &so, &e);

   if (!store) {
      fail_msg ("open %s: %s", uri, e.message);
   }
   o.coll = "bill_detail";
   o.key = "bill_id";
   o.headerline = true;
   o.typed = true;
   o.grace = LAB_GRACE_SKIP_ROW;
   o.batch_docs = batch;
   o.parallel = parallel;
   o.files = files;
   o.nfiles = 1;
   o.progress = LAB_PROGRESS_NEVER;
   if (!lab_gen_import (store, &o, &st, &e)) {
      fail_msg ("import --parallel %d: %s", parallel, e.message);
   }
   *rejects = st.rejects;
   digest (store, "bill_detail", d);
   lab_store_close (store);
   bson_free (uri);
}

/* import --parallel N: writer k sends every N-th batch to its place, so 1, 2 and 3 writers leave the same
 * documents with the same RecordIds (1..rows), rows refused by the parse (here two, in different batches)
 * taking no place */
static void
test_import_parallel_same (void **state)
{
   (void)state;
   char *dir = lab_test_tmpdir ("import-parallel");
   char *csv = bson_strdup_printf ("%s/in.csv", dir), *bad = bson_strdup_printf ("%s/bad.csv", dir);
   char *cmd;
   digest_t d1, d2, d3;
   lab_gen_generate_stats_t gs;
   int64_t r1, r2, r3;

   /* the rows of a generated collection, as export writes them, with two broken rows inserted */
   {
      char *uri = bson_strdup_printf ("wiredtiger:%s/src", dir);
      lab_store_opts_t so = { .create = true, .cache_size_bytes = 256 * 1024 * 1024 };
      lab_gen_generate_opts_t o;
      lab_gen_export_opts_t xo = { .coll = "bill_detail", .out = csv, .sample = 1000 };
      lab_gen_export_stats_t xs;
      bson_error_t e;
      lab_store_t *store = lab_store_open (uri, &so, &e);
      assert_non_null (store);
      memset (&o, 0, sizeof o);
      lab_gen_params_init (&o.gen);
      o.gen.bills = 20;
      o.gen.seed = 5;
      o.coll = "bill_detail";
      o.parallel = 1;
      o.progress = LAB_PROGRESS_NEVER;
      assert_true (lab_gen_generate (store, &o, &gs, &e));
      xo.progress = LAB_PROGRESS_NEVER;
      if (!lab_gen_export (store, &xo, &xs, &e)) {
         fail_msg ("export: %s", e.message);
      }
      lab_store_close (store);
      bson_free (uri);
   }
   cmd = bson_strdup_printf ("sed -e '40a broken' -e '300a also,broken' '%s' > '%s'", csv, bad);
   assert_int_equal (system (cmd), 0);
   bson_free (cmd);

   import_digest (dir, bad, 1, 97, &d1, &r1);
   import_digest (dir, bad, 2, 97, &d2, &r2);
   import_digest (dir, bad, 3, 13, &d3, &r3);
   assert_int_equal (r1, 2);
   assert_int_equal (d1.docs, gs.rows);
   assert_int_equal (d1.rid_max, d1.docs);
   assert_int_equal (d1.rid_sum, d1.docs * (d1.docs + 1) / 2);
   const digest_t *all[] = { &d2, &d3 };
   for (size_t i = 0; i < 2; i++) {
      assert_int_equal (all[i]->docs, d1.docs);
      assert_int_equal (all[i]->rid_sum, d1.rid_sum);
      assert_int_equal (all[i]->rid_max, d1.rid_max);
      assert_true (all[i]->hash == d1.hash);
   }
   assert_int_equal (r2, 2);
   assert_int_equal (r3, 2);
   lab_test_rmtree (dir);
   bson_free (csv);
   bson_free (bad);
   bson_free (dir);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_parallel_same),
      cmocka_unit_test (test_insert_at),
      cmocka_unit_test (test_import_parallel_same),
   };
   return lab_test_run_group ("generate", tests, NULL, NULL);
}
