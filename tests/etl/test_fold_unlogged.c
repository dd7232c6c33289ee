/*
 * test_fold_unlogged.c -- fold-details on the embedded store writes its tables unjournaled until its last
 * checkpoint (etl/fold_run.c, journal_tables), as billgen generate does: a run killed between a written
 * batch and its checkpoint leaves the destination and its checkpoint collection with log=(enabled=false)
 * in WiredTiger's metadata, and --resume --verify from there is equal; a finished run (the fixture's, and
 * the resumed one) leaves the destination, its checkpoint collection and the marker collection journaled.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "store/store.h"
#include "store/store_impl.h"
#include "store/wt_private.h"

/* setup -- 300 bills of about 40 rows, generated and folded into detail_coll by the tools. */
static int
setup (void **state)
{
   *state = lab_test_tools_fx_new ("fold-unlogged", 300, 40, "");
   return 0;
}

/* teardown -- remove the store. */
static int
teardown (void **state)
{
   lab_test_tools_fx_free (*state);
   return 0;
}

/* table_unlogged -- whether WiredTiger's metadata says the file of `ident` is not journaled. */
static bool
table_unlogged (lab_store_session_t *s, const char *ident)
{
   wt_sess_t *ss = s->impl;
   WT_CURSOR *mc;
   const char *value;
   char key[256];
   bool unlogged;

   snprintf (key, sizeof key, "file:%s.wt", ident);
   assert_int_equal (ss->s->open_cursor (ss->s, "metadata:", NULL, NULL, &mc), 0);
   mc->set_key (mc, key);
   assert_int_equal (mc->search (mc), 0);
   assert_int_equal (mc->get_value (mc, &value), 0);
   unlogged = strstr (value, "log=(enabled=false)") != NULL;
   mc->close (mc);
   return unlogged;
}

/* check_logging -- every table (records and indexes) of each collection in colls is unlogged or not as
 * `unlogged` says, in the store at uri (opened journaled, as the next tool opens it). */
static void
check_logging (const char *uri, const char *const *colls, size_t ncolls, bool unlogged)
{
   lab_store_t *store = lab_test_store_open (uri);
   lab_store_session_t *s;
   size_t k;
   int i;

   LAB_TEST_CHECK (s = lab_store_session_open (store, &e_));
   for (k = 0; k < ncolls; k++) {
      wt_sess_t *ss = s->impl;
      wt_coll_t *c;

      pthread_mutex_lock (&ss->st->mu);
      c = lab_wt_coll_find (ss->st, colls[k]);
      pthread_mutex_unlock (&ss->st->mu);
      if (!c) {
         fail_msg ("%s: no such collection in %s", colls[k], uri);
      }
      if (table_unlogged (s, c->ident) != unlogged) {
         fail_msg ("%s: its records are %sjournaled, expected %sjournaled", colls[k], unlogged ? "" : "not ",
                   unlogged ? "not " : "");
      }
      for (i = 0; i < c->nindexes; i++) {
         if (table_unlogged (s, c->indexes[i].ident) != unlogged) {
            fail_msg ("%s: index %d is %sjournaled, expected %sjournaled", colls[k], i,
                      unlogged ? "" : "not ", unlogged ? "not " : "");
         }
      }
   }
   lab_store_session_close (s);
   lab_store_close (store);
}

/* test_finished_journaled -- the fixture's finished fold left its tables journaled. */
static void
test_finished_journaled (void **state)
{
   lab_test_tools_fx_t *fx = *state;
   const char *colls[] = { "detail_coll", "detail_coll.fold_state", LAB_MARK_COLL };

   check_logging (fx->uri, colls, 3, false);
}

/* test_killed_unlogged_resumed -- killed after its third batch: unjournaled tables; --resume --verify
 * equal, and journaled afterwards. */
static void
test_killed_unlogged_resumed (void **state)
{
   lab_test_tools_fx_t *fx = *state;
   const char *colls[] = { "f2", "f2.fold_state" };
   const char *args = "--src bill_detail --dst f2 --batch-docs 20 --parallel 2";
   char *cmd, *out = NULL, *err = NULL;
   int rc;

   cmd = bson_strdup_printf ("%s --drop-dst", args);
   rc = lab_test_tools_fold (fx, "LAYOUTLAB_FOLD_KILL_AFTER_BATCHES=3", cmd, NULL, &err);
   if (rc != 137) {
      fail_msg ("the fold with the kill hook exited %d, not 137 (SIGKILL): %s", rc, err);
   }
   bson_free (cmd);
   bson_free (err);
   check_logging (fx->uri, colls, 2, true);

   cmd = bson_strdup_printf ("%s --resume --verify", args);
   rc = lab_test_tools_fold (fx, NULL, cmd, &out, &err);
   if (rc != 0 || !strstr (out, "verify: equal")) {
      fail_msg ("--resume --verify after the kill exited %d: %s %s", rc, out, err);
   }
   bson_free (cmd);
   bson_free (out);
   bson_free (err);
   check_logging (fx->uri, colls, 2, false);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_finished_journaled),
      cmocka_unit_test (test_killed_unlogged_resumed),
   };
   return lab_test_run_group ("fold_unlogged", tests, setup, teardown);
}
