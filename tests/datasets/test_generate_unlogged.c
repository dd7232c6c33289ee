/*
 * test_generate_unlogged.c -- the embedded store's unlogged tables and `billgen generate` on them (issue
 * 27): a store opened with `unlogged` creates the collection, its _id index and its indexes with
 * log=(enabled=false) in WiredTiger's metadata, an index added later by a journaled store follows its
 * collection, the rows are durable after a checkpoint, lab_store_set_journaled turns them journaled;
 * generate's tables are journaled again when it ends, and its layout on disk is the journaled run's:
 * leaf pages, leaf-page fill and pages per master within 5% (with one worker they are the same: a journal
 * does not change what reconciliation writes).
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "store/store.h"
#include "store/store_impl.h"
#include "store/wt_private.h"
#include "datasets/billgen.h"
#include "scan/scan.h"

#define BILLS 600

typedef struct {
   int64_t rows, leaf_pages, storage;
   double pages_per_master; /* mean over every bill, at rows / leaf_pages rows per page */
} layout_t;

/* table_unlogged -- whether WiredTiger's metadata says the file of `ident` is not journaled. */
static bool
table_unlogged (lab_store_session_t *s, const char *ident)
{
   wt_sess_t *ss = s->impl;
   WT_CURSOR *mc;
   const char *value;
   char key[256];

   snprintf (key, sizeof key, "file:%s.wt", ident);
   assert_int_equal (ss->s->open_cursor (ss->s, "metadata:", NULL, NULL, &mc), 0);
   mc->set_key (mc, key);
   assert_int_equal (mc->search (mc), 0);
   assert_int_equal (mc->get_value (mc, &value), 0);
   bool unlogged = strstr (value, "log=(enabled=false)") != NULL;
   mc->close (mc);
   return unlogged;
}

/* check_logging -- every table of coll (collection, _id index, every secondary index) is unlogged or not
 * as `unlogged` says; returns how many tables were checked. */
static int
check_logging (lab_store_session_t *s, const char *coll, bool unlogged)
{
   wt_sess_t *ss = s->impl;
   wt_coll_t *c;
   int i, n = 0;

   pthread_mutex_lock (&ss->st->mu);
   c = lab_wt_coll_find (ss->st, coll);
   pthread_mutex_unlock (&ss->st->mu);

   assert_non_null (c);
   if (table_unlogged (s, c->ident) != unlogged) {
      fail_msg ("%s: collection table %s: unlogged %d, expected %d", coll, c->ident, !unlogged, unlogged);
   }
   n++;
   for (i = 0; i < c->nindexes; i++, n++) {
      if (table_unlogged (s, c->indexes[i].ident) != unlogged) {
         fail_msg ("%s: index %d (%s): unlogged %d, expected %d", coll, i, c->indexes[i].ident, !unlogged,
                   unlogged);
      }
   }
   return n;
}

/* measure -- rows, exact leaf pages, storage size and mean pages per master of bill_detail. */
static void
measure (lab_store_session_t *s, layout_t *l)
{
   lab_store_coll_stats_t cs;
   bson_error_t e;
   int64_t pages_sum = 0;

   memset (l, 0, sizeof *l);
   if (!lab_store_stats (s, "bill_detail", &cs, &e) ||
       !lab_store_leaf_pages (s, "bill_detail", &l->leaf_pages, &e)) {
      fail_msg ("stats: %s", e.message);
   }
   l->rows = cs.count;
   l->storage = cs.storage_size_bytes;
   assert_true (l->leaf_pages > 10);
   for (int64_t b = 0; b < BILLS; b++) {
      bson_value_t v = { .value_type = BSON_TYPE_INT64, .value.v_int64 = 202300000001 + b };
      int64_t *rids = NULL;
      size_t n = 0;
      assert_true (n == 0);
      if (!lab_store_record_ids (s, "bill_detail", "bill_id", &v, &rids, &n, &e)) {
         fail_msg ("record_ids of bill %" PRId64 ": %s", b, e.message);
      }
      assert_true (n > 0);
      pages_sum += lab_scan_locality_pages (rids, n, 1, (double)l->rows / (double)l->leaf_pages);
      bson_free (rids);
   }
   l->pages_per_master = (double)pages_sum / BILLS;
}

/* generate -- BILLS bills into a fresh store under dir/name, opened with `unlogged`; closed (so flushed),
 * reopened journaled, measured, and its tables' logging checked. */
static void
generate (const char *dir, const char *name, bool unlogged, layout_t *l)
{
   char *uri = bson_strdup_printf ("wiredtiger:%s/%s", dir, name);
   lab_store_opts_t so = { .create = true, .cache_size_bytes = 256 * 1024 * 1024, .unlogged = unlogged };
   lab_gen_generate_opts_t o;
   lab_gen_generate_stats_t st;
   bson_error_t e;
   lab_store_t *store = lab_store_open (uri, &so, &e);

   if (!store) {
      fail_msg ("open %s: %s", uri, e.message);
   }
   memset (&o, 0, sizeof o);
   lab_gen_params_init (&o.gen);
   o.gen.bills = BILLS;
   o.gen.seed = 5;
   o.coll = "bill_detail";
   /* one worker: two workers' inserts interleave differently on every run, so their leaf pages vary by
    * some 6% between two journaled runs already (285 to 303 at this size); one worker's run is
    * deterministic, and the journal's effect alone is what is compared */
   o.parallel = 1;
   o.progress = LAB_PROGRESS_NEVER;
   if (!lab_gen_generate (store, &o, &st, &e)) {
      fail_msg ("generate (unlogged %d): %s", unlogged, e.message);
   }
   lab_store_close (store);

   /* reopened by a journaled store (as fold-details and scancmp open it): the rows are there */
   so.unlogged = false;
   so.create = false;
   store = lab_store_open (uri, &so, &e);
   assert_non_null (store);
   lab_store_session_t *s = lab_store_session_open (store, &e);
   assert_non_null (s);
   measure (s, l);
   assert_int_equal (l->rows, st.rows);
   /* generate journals its tables again once they are durable: later writers journal as on a
    * standalone, whichever store generated them */
   assert_int_equal (check_logging (s, "bill_detail", false), 3);
   lab_store_session_close (s);
   lab_store_close (store);
   bson_free (uri);
}

/* within -- |a - b| <= 5% of b */
static void
within (const char *what, double a, double b)
{
   if (!(a >= b * 0.95 && a <= b * 1.05)) {
      fail_msg ("%s: unlogged %.4g vs journaled %.4g: more than 5%% apart", what, a, b);
   }
}

/* the unlogged generate lays the collection out as the journaled one: same rows, leaf pages, fill (bytes
 * on disk per leaf page) and pages per master within 5% */
static void
test_unlogged_layout (void **state)
{
   (void)state;
   char *dir = lab_test_tmpdir ("generate-unlogged");
   layout_t logged, unlogged;

   generate (dir, "logged", false, &logged);
   generate (dir, "unlogged", true, &unlogged);
   assert_true (logged.rows > 50000);
   assert_int_equal (unlogged.rows, logged.rows);
   within ("leaf pages", (double)unlogged.leaf_pages, (double)logged.leaf_pages);
   within ("leaf-page fill (bytes on disk per leaf page)",
           (double)unlogged.storage / (double)unlogged.leaf_pages,
           (double)logged.storage / (double)logged.leaf_pages);
   within ("pages per master", unlogged.pages_per_master, logged.pages_per_master);
   lab_test_rmtree (dir);
   bson_free (dir);
}

/* insert_rows -- n documents {bill_id: first + i, line_no: i} into coll. */
static void
insert_rows (lab_store_session_t *s, const char *coll, int first, int n)
{
   lab_store_insert_result_t r = { 0 };
   bson_t **docs = bson_malloc0 ((size_t)n * sizeof *docs);
   bson_error_t e;

   for (int i = 0; i < n; i++) {
      docs[i] = BCON_NEW ("bill_id", BCON_INT64 (first + i), "line_no", BCON_INT32 (i));
   }
   if (!lab_store_insert_many (s, coll, (const bson_t *const *)docs, (size_t)n, &r, &e)) {
      fail_msg ("insert: %s", e.message);
   }
   assert_int_equal (r.inserted, n);
   lab_store_insert_result_cleanup (&r);
   for (int i = 0; i < n; i++) {
      bson_destroy (docs[i]);
   }
   bson_free (docs);
}

/* a store opened unlogged creates unlogged tables (the collection, its _id index, an index built on
 * it); flushed, the rows survive a reopen; an index added by a journaled store follows its collection;
 * lab_store_set_journaled turns them all journaled, and only them */
static void
test_unlogged_tables (void **state)
{
   (void)state;
   char *dir = lab_test_tmpdir ("store-unlogged");
   char *uri = bson_strdup_printf ("wiredtiger:%s/s", dir);
   lab_store_opts_t so = { .create = true, .cache_size_bytes = 64 * 1024 * 1024, .unlogged = true };
   bson_error_t e;
   int64_t count = 0;
   lab_store_t *store = lab_store_open (uri, &so, &e);
   lab_store_session_t *s;

   assert_non_null (store);
   s = lab_store_session_open (store, &e);
   insert_rows (s, "c", 0, 500);
   insert_rows (s, "other", 0, 10);
   assert_true (lab_store_create_index (s, "c", "bill_id", &e));
   assert_int_equal (check_logging (s, "c", true), 3);
   assert_int_equal (check_logging (s, "other", true), 2);
   lab_store_session_close (s);
   assert_true (lab_store_flush (store, &e));
   lab_store_close (store);

   so.unlogged = false;
   so.create = false;
   store = lab_store_open (uri, &so, &e);
   assert_non_null (store);
   s = lab_store_session_open (store, &e);
   assert_true (lab_store_count (s, "c", &count, &e));
   assert_int_equal (count, 500);
   assert_true (lab_store_create_index (s, "c", "line_no", &e));
   assert_int_equal (check_logging (s, "c", true), 4);
   lab_store_session_close (s);
   if (!lab_store_set_journaled (store, "c", &e)) {
      fail_msg ("set_journaled: %s", e.message);
   }
   assert_false (lab_store_set_journaled (store, "missing", &e));
   s = lab_store_session_open (store, &e);
   assert_int_equal (check_logging (s, "c", false), 4);
   assert_int_equal (check_logging (s, "other", true), 2);
   insert_rows (s, "c", 500, 10);
   assert_true (lab_store_count (s, "c", &count, &e));
   assert_int_equal (count, 510);
   lab_store_session_close (s);
   lab_store_close (store);
   lab_test_rmtree (dir);
   bson_free (uri);
   bson_free (dir);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_unlogged_tables),
      cmocka_unit_test (test_unlogged_layout),
   };
   return lab_test_run_group ("generate_unlogged", tests, NULL, NULL);
}
