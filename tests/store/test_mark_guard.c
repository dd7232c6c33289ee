/*
 * test_mark_guard.c -- the drop guard's question (store/mark.h): the library asks through the caller's
 * callback and never reads the terminal. On the test server, for a collection layoutlab did not write: no
 * callback refuses naming --yes, a "no" refuses and leaves the collection, a "yes" lets the caller drop
 * it, --yes and a missing collection ask nothing; on the embedded store nothing is asked. Then the mains:
 * billgen generate --drop on a terminal (a pty from script(1)) puts the same "[y/N]" question, a "n" leaves
 * the collection, a "y" replaces it.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/mark.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *uri, *db;

/* asked_t -- what the confirm callback saw and answers. */
typedef struct {
   bool answer;
   int calls;
   char question[640];
} asked_t;

/* confirm -- the test's lab_store_mark_confirm_fn: records the question, answers a->answer. */
static bool
confirm (const char *question, void *ctx)
{
   asked_t *a = ctx;

   a->calls++;
   bson_strncpy (a->question, question, sizeof a->question);
   return a->answer;
}

/* mongo_cmd -- `json` on the test server through test-mongo-cmd (not layoutlab); its stdout (caller
 * frees). Fails the test on error. */
static char *
mongo_cmd (const char *json)
{
   char *tool = lab_test_bin ("test-mongo-cmd");
   char *cmd = bson_strdup_printf ("'%s' '%s' '%s' '%s'", tool, uri, db, json);
   char *out = NULL, *err = NULL;

   if (lab_test_run (cmd, &out, &err) != 0) {
      fail_msg ("test-mongo-cmd %s: %s", json, err);
   }
   bson_free (err);
   bson_free (cmd);
   bson_free (tool);
   return out;
}

/* count -- documents in `coll` of the test's database, read through the store. */
static int64_t
count (lab_store_t *st, const char *coll)
{
   lab_store_session_t *sess;
   bson_error_t e;
   int64_t n = -1;

   sess = lab_store_session_open (st, &e);
   assert_non_null (sess);
   LAB_TEST_CHECK (lab_store_count (sess, coll, &n, &e));
   lab_store_session_close (sess);
   return n;
}

/* open_server -- the test's database on the test server. */
static lab_store_t *
open_server (void)
{
   lab_store_opts_t o = { .db = db, .connect_timeout_ms = 5000 };
   bson_error_t e;
   lab_store_t *st = lab_store_open (uri, &o, &e);

   if (!st) {
      fail_msg ("open the test server: %s", e.message);
   }
   return st;
}

/* test_guard_asks_the_callback -- a collection that is not layoutlab's is dropped only on the callback's
 * yes (or --yes); the guard itself never changes it. */
static void
test_guard_asks_the_callback (void **state)
{
   lab_store_t *st;
   asked_t a = { 0 };
   bson_error_t e;
   char want[256];

   (void)state;
   bson_free (
      mongo_cmd ("{\"insert\": \"theirs\", \"documents\": [{\"_id\": 1}, {\"_id\": 2}, {\"_id\": 3}]}"));
   st = open_server ();
   bson_snprintf (want, sizeof want, "--drop: drop '%s.theirs' and everything in it?", db);

   /* no one to ask: refused, naming --yes */
   assert_false (lab_store_mark_drop_guard (st, "theirs", false, "--drop", NULL, NULL, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT));
   assert_non_null (strstr (e.message, "add --yes"));

   /* "no": refused, asked once with the question the terminal shows */
   a.answer = false;
   assert_false (lab_store_mark_drop_guard (st, "theirs", false, "--drop", confirm, &a, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT));
   assert_non_null (strstr (e.message, "not dropped (the answer was not yes)"));
   assert_int_equal (a.calls, 1);
   assert_string_equal (a.question, want);
   assert_int_equal (count (st, "theirs"), 3);

   /* "yes": the caller may drop it */
   a.answer = true;
   LAB_TEST_CHECK (lab_store_mark_drop_guard (st, "theirs", false, "--drop", confirm, &a, &e));
   assert_int_equal (a.calls, 2);
   assert_int_equal (count (st, "theirs"), 3); /* the guard only decides; the caller drops */

   /* --yes, and a collection that does not exist: nothing asked */
   LAB_TEST_CHECK (lab_store_mark_drop_guard (st, "theirs", true, "--drop", confirm, &a, &e));
   LAB_TEST_CHECK (lab_store_mark_drop_guard (st, "nobody", false, "--drop", confirm, &a, &e));
   assert_int_equal (a.calls, 2);
   lab_store_close (st);
}

/* test_guard_embedded_asks_nothing -- the embedded store is layoutlab's own: no question. */
static void
test_guard_embedded_asks_nothing (void **state)
{
   char *wdb = NULL, *wuri = lab_test_store_uri ("wiredtiger", "mark-guard", &wdb);
   lab_store_opts_t o = { .create = true, .cache_size_bytes = 64 * 1024 * 1024, .db = wdb };
   asked_t a = { 0 };
   bson_error_t e;
   lab_store_t *st;

   (void)state;
   st = lab_store_open (wuri, &o, &e);
   if (!st) {
      fail_msg ("open %s: %s", wuri, e.message);
   }
   LAB_TEST_CHECK (lab_store_mark_drop_guard (st, "theirs", false, "--drop", confirm, &a, &e));
   assert_int_equal (a.calls, 0);
   lab_store_close (st);
   bson_free (wuri);
   bson_free (wdb);
}

/* on_a_terminal -- billgen generate --drop --dst `coll` under a pty (script(1)) with `answer` typed; its exit
 * code, *out what the terminal showed (caller frees). */
static int
on_a_terminal (const char *coll, const char *answer, char **out)
{
   char *billgen = lab_test_bin ("billgen");
   char *cmd = bson_strdup_printf ("printf '%s\\n' | script -qec \"'%s' generate --uri '%s' --db '%s' "
                                   "--dst %s --bills 3 --drop --progress never\" /dev/null",
                                   answer, billgen, uri, db, coll);
   int rc = lab_test_run (cmd, out, NULL);

   bson_free (cmd);
   bson_free (billgen);
   return rc;
}

/* test_main_asks_on_a_terminal -- the question is the main's: the same text on a terminal, "n" leaves the
 * collection (exit 2), "y" replaces it. */
static void
test_main_asks_on_a_terminal (void **state)
{
   char *out = NULL, want[256];
   lab_store_t *st;
   int rc;

   (void)state;
   if (system ("script -qec true /dev/null >/dev/null 2>&1") != 0) {
      lab_test_skip ("script(1) (util-linux) is needed to give billgen a terminal");
   }
   bson_free (mongo_cmd ("{\"insert\": \"mine\", \"documents\": [{\"_id\": 1}, {\"_id\": 2}]}"));
   bson_snprintf (want, sizeof want, "--drop: drop '%s.mine' and everything in it? [y/N]", db);
   st = open_server ();

   rc = on_a_terminal ("mine", "n", &out);
   if (rc != 2 || !strstr (out, want) || !strstr (out, "not dropped (the answer was not yes)")) {
      fail_msg ("answer n: exit %d, wanted 2 with \"%s\":\n%s", rc, want, out);
   }
   assert_int_equal (count (st, "mine"), 2);
   bson_free (out);

   rc = on_a_terminal ("mine", "y", &out);
   if (rc != 0 || !strstr (out, want)) {
      fail_msg ("answer y: exit %d, wanted 0 with \"%s\":\n%s", rc, want, out);
   }
   assert_true (count (st, "mine") > 2); /* replaced by the generated rows */
   bson_free (out);
   lab_store_close (st);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_guard_asks_the_callback),
      cmocka_unit_test (test_guard_embedded_asks_nothing),
      cmocka_unit_test (test_main_asks_on_a_terminal),
   };

   uri = lab_test_store_uri ("mongodb", "mark-guard", &db);
   assert_non_null (uri);
   return lab_test_run_group ("mark_guard", tests, NULL, NULL);
}
