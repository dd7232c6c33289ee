/*
 * test_wt_modify.c -- the embedded store updates a record as mongod's WiredTigerRecordStore::updateRecord
 * does (docs/mongodb-compat.md §21): a WiredTiger modify only for a table that is not logged, a new record
 * over 1024 bytes and at most a tenth longer than the old, with wiredtiger_calc_modify finding at most 16
 * changes of at most a tenth of the record; otherwise the whole record. The length test at its boundaries,
 * then lab_wt_record_update on real tables (one logged, one not) of a WiredTiger connection with a log.
 */
#include "tests/testutil.h"

#include "store/wt_private.h"

#include <stdlib.h>
#include <string.h>

/* test_wanted_boundaries -- the length test at each of its edges. */
static void
test_wanted_boundaries (void **state)
{
   size_t md;

   (void)state;
   assert_false (lab_wt_modify_wanted (true, 4000, 4000, &md)); /* logged: never */
   assert_true (lab_wt_modify_wanted (false, 4000, 4000, &md));
   assert_int_equal (md, 400);
   assert_false (lab_wt_modify_wanted (false, 1024, 1024, &md)); /* kMinLengthForDiff: len > 1024 */
   assert_true (lab_wt_modify_wanted (false, 1025, 1025, &md));
   /* len <= old + len / 10: 1100 <= 1000 + 110, 1112 > 1000 + 111 */
   assert_true (lab_wt_modify_wanted (false, 1000, 1110, &md));
   assert_false (lab_wt_modify_wanted (false, 1000, 1112, &md));
   assert_true (lab_wt_modify_wanted (false, 9000, 2000, &md)); /* shrinking is fine */
}

typedef struct {
   char dir[64];
   WT_CONNECTION *conn;
   WT_SESSION *s;
} fx_t;

/* setup -- a WiredTiger home with a log, as the store opens it, and a session of snapshot isolation (as
 * the store's and mongod's: a modify needs it). */
static int
setup (void **state)
{
   fx_t *fx = calloc (1, sizeof *fx);
   char cmd[128];

   strcpy (fx->dir, "/tmp/wtmodify-XXXXXX");
   if (!mkdtemp (fx->dir) ||
       wiredtiger_open (fx->dir, NULL, "create,log=(enabled=true),statistics=(fast)", &fx->conn) != 0 ||
       fx->conn->open_session (fx->conn, NULL, "isolation=snapshot", &fx->s) != 0) {
      snprintf (cmd, sizeof cmd, "rm -rf %s", fx->dir);
      if (system (cmd)) {
      }
      free (fx);
      return -1;
   }
   *state = fx;
   return 0;
}

/* teardown -- close and remove the home. */
static int
teardown (void **state)
{
   fx_t *fx = *state;
   char cmd[128];

   fx->conn->close (fx->conn, NULL);
   snprintf (cmd, sizeof cmd, "rm -rf %s", fx->dir);
   if (system (cmd)) {
   }
   free (fx);
   return 0;
}

/* update_one -- record 1 of `uri` set to a (inserted), then updated to b through lab_wt_record_update in a
 * transaction; the record read back must be b. Returns whether it was a modify. */
static bool
update_one (fx_t *fx, const char *uri, bool logged, const uint8_t *a, size_t alen, const uint8_t *b,
            size_t blen)
{
   WT_CURSOR *c;
   WT_ITEM v = { 0 }, old = { 0 }, nv = { 0 };
   bool modified = false;

   assert_int_equal (fx->s->open_cursor (fx->s, uri, NULL, NULL, &c), 0);
   v.data = a;
   v.size = alen;
   c->set_key (c, (int64_t)1);
   c->set_value (c, &v);
   assert_int_equal (c->insert (c), 0);
   assert_int_equal (fx->s->begin_transaction (fx->s, NULL), 0);
   c->set_key (c, (int64_t)1);
   assert_int_equal (c->search (c), 0);
   assert_int_equal (c->get_value (c, &old), 0);
   nv.data = b;
   nv.size = blen;
   assert_int_equal (lab_wt_record_update (fx->s, c, logged, &old, &nv, &modified), 0);
   assert_int_equal (fx->s->commit_transaction (fx->s, NULL), 0);
   c->set_key (c, (int64_t)1);
   assert_int_equal (c->search (c), 0);
   assert_int_equal (c->get_value (c, &v), 0);
   assert_int_equal (v.size, blen);
   assert_memory_equal (v.data, b, blen);
   c->close (c);
   return modified;
}

/* test_record_update -- a small change of a 4000-byte record: a modify on the unlogged table, the whole
 * record on the logged one; a change of more than a tenth, or a record of 1000 bytes: the whole record. */
static void
test_record_update (void **state)
{
   fx_t *fx = *state;
   uint8_t a[4000], b[4000];
   size_t i;

   assert_int_equal (
      fx->s->create (fx->s, "table:unlogged", "key_format=q,value_format=u,log=(enabled=false)"), 0);
   assert_int_equal (fx->s->create (fx->s, "table:logged", "key_format=q,value_format=u"), 0);
   for (i = 0; i < sizeof a; i++) {
      a[i] = (uint8_t)(i * 7 + 3);
   }
   memcpy (b, a, sizeof b);
   memcpy (b + 2000, "12.50", 5); /* a $set of one amount */
   assert_true (update_one (fx, "table:unlogged", false, a, sizeof a, b, sizeof b));
   assert_false (update_one (fx, "table:logged", true, a, sizeof a, b, sizeof b));
   /* the same bytes unchanged: a reserve (a modify of nothing) */
   assert_true (update_one (fx, "table:unlogged", false, a, sizeof a, a, sizeof a));
   /* more than 400 bytes changed: calc_modify gives up, the whole record */
   for (i = 0; i < 600; i++) {
      b[i * 6] ^= 0x5a;
   }
   assert_false (update_one (fx, "table:unlogged", false, a, sizeof a, b, sizeof b));
   /* a record of at most 1024 bytes: always whole */
   memcpy (b, a, 1000);
   b[500] ^= 1;
   assert_false (update_one (fx, "table:unlogged", false, a, 1000, b, 1000));
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_wanted_boundaries),
      cmocka_unit_test (test_record_update),
   };
   return lab_test_run_group ("wt_modify", tests, setup, teardown);
}
