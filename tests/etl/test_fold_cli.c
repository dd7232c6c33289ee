/*
 * test_fold_cli.c -- fold-details end to end on one backend ($LAB_FOLD_BACKEND: wiredtiger or mongodb,
 * the latter on the test server): a fold with an oversize master verifies, no document is over the cap
 * and the split master is found whole by its key query; --parallel 4 gives the same destination as
 * --parallel 1; a run killed with SIGKILL midway then --resume --verify passes without duplicates; every
 * refusal; reject/fail modes; --verify alone catching a damaged destination; other key types; buckets
 * (--bucket-rows, --bucket-by) verified, within their limits and found by their key.
 *
 * Data comes from `billgen generate` when it is built, else it is inserted here through the store.
 */
#include "tests/testutil.h"

#include "core/cli.h"
#include "core/error.h"
#include "store/keyenc.h"
#include "store/store.h"
#include "etl/fold.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CAP 16777216
#define BIG_KEY 100000 /* the oversize master (inserted rows) */

static const char *backend;
static char *uri;
static char *db;
static char *bin;
static bool use_billgen;
static int64_t src_rows;
/* the source holding the oversize master: bill_detail embedded; on the test server a collection of its
 * own (big_detail), so that only the folds that need it move its 17.8 MB through FerretDB */
static const char *big_src;
static int64_t big_rows;

/* ---- helpers ---------------------------------------------------------------------------------- */

static lab_store_t *
open_store (void)
{
   lab_store_opts_t o = { 0 };
   bson_error_t error;
   lab_store_t *s;

   o.db = db;
   o.create = true;
   o.cache_size_bytes = 256 * 1024 * 1024;
   s = lab_store_open (uri, &o, &error);
   if (!s) {
      fail_msg ("open %s: %s", uri, error.message);
   }
   return s;
}

/* fold -- run fold-details with the store options and `args`; returns the exit code. */
static int fold (char **out, char **err, const char *env, const char *fmt, ...) BSON_GNUC_PRINTF (4, 5);

static int
fold (char **out, char **err, const char *env, const char *fmt, ...)
{
   va_list ap;
   char *args, *cmd;
   char *o = NULL, *e = NULL;
   int rc;
   int64_t t0;

   va_start (ap, fmt);
   args = bson_strdupv_printf (fmt, ap);
   va_end (ap);
   cmd = bson_strdup_printf ("%s %s --uri '%s' %s%s%s --cache-size 256M --progress never %s", env ? env : "",
                             bin, uri, db ? "--db '" : "", db ? db : "", db ? "'" : "", args);
   t0 = bson_get_monotonic_time ();
   rc = lab_test_run (cmd, &o, &e);
   if (getenv ("LAB_TEST_VERBOSE")) {
      fprintf (stderr, "$ %s\n-> %d (%.1f s)\n%s%s", cmd, rc, (double)(bson_get_monotonic_time () - t0) / 1e6,
               o, e);
   }
   bson_free (cmd);
   bson_free (args);
   if (out) {
      *out = o;
   } else {
      bson_free (o);
   }
   if (err) {
      *err = e;
   } else {
      bson_free (e);
   }
   return rc;
}

/* fold_json -- run with --json - and return the parsed summary (asserting exit code `want`). */
static bson_t *
fold_json (int want, const char *env, const char *args)
{
   char *out = NULL, *err = NULL;
   bson_error_t error;
   bson_t *b;
   int rc = fold (&out, &err, env, "--json - %s", args);

   if (rc != want) {
      fail_msg ("fold-details %s: exit %d, wanted %d\nstderr: %s", args, rc, want, err);
   }
   b = bson_new_from_json ((const uint8_t *)out, -1, &error);
   if (!b) {
      fail_msg ("fold-details %s: bad JSON summary (%s): %s", args, error.message, out);
   }
   bson_free (out);
   bson_free (err);
   return b;
}

static int64_t
jint (const bson_t *b, const char *path)
{
   bson_iter_t it, d;

   if (!bson_iter_init (&it, b) || !bson_iter_find_descendant (&it, path, &d)) {
      fail_msg ("summary has no %s", path);
   }
   return bson_iter_as_int64 (&d);
}

static bool
jbool (const bson_t *b, const char *path)
{
   bson_iter_t it, d;

   if (!bson_iter_init (&it, b) || !bson_iter_find_descendant (&it, path, &d)) {
      fail_msg ("summary has no %s", path);
   }
   return bson_iter_as_bool (&d);
}

static const char *
jstr (const bson_t *b, const char *path)
{
   bson_iter_t it, d;

   if (!bson_iter_init (&it, b) || !bson_iter_find_descendant (&it, path, &d) || !BSON_ITER_HOLDS_UTF8 (&d)) {
      fail_msg ("summary has no string %s", path);
   }
   return bson_iter_utf8 (&d, NULL);
}

static int64_t
count_of (const char *coll)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   int64_t n = -1;

   assert_non_null (sess);
   if (!lab_store_count (sess, coll, &n, &error)) {
      fail_msg ("count %s: %s", coll, error.message);
   }
   lab_store_session_close (sess);
   lab_store_close (s);
   return n;
}

static void
insert_all (lab_store_session_t *sess, const char *coll, bson_t **docs, size_t n)
{
   lab_store_insert_result_t res = { 0 };
   bson_error_t error;

   if (!lab_store_insert_many (sess, coll, (const bson_t *const *)docs, n, &res, &error)) {
      fail_msg ("insert into %s: %s", coll, error.message);
   }
   assert_int_equal (res.nerrors, 0);
   lab_store_insert_result_cleanup (&res);
}

/* insert_rows -- `nbills` bills of 1..40 rows, interleaved, keyed by int32 bill_id (the fallback when
 * billgen is not built). */
static void
insert_rows (const char *coll, int nbills)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   bson_t *batch[500];
   size_t nb = 0;
   int b, round;
   int64_t id = 1;

   assert_non_null (sess);
   if (!lab_store_drop (sess, coll, &error) || !lab_store_create (sess, coll, &error) ||
       !lab_store_create_index (sess, coll, "bill_id", &error)) {
      fail_msg ("prepare %s: %s", coll, error.message);
   }
   src_rows = 0;
   /* interleaved: round r adds row r to every bill that has one */
   for (round = 0; round < 40; round++) {
      for (b = 1; b <= nbills; b++) {
         int rows = 1 + (b * 7919) % 40;
         if (round >= rows) {
            continue;
         }
         bson_t *d = bson_new ();
         BSON_APPEND_INT64 (d, "_id", id++);
         BSON_APPEND_INT32 (d, "bill_id", b);
         BSON_APPEND_UTF8 (d, "patient", b % 2 ? "ALICE" : "BOB");
         BSON_APPEND_INT32 (d, "ward", b % 9);
         BSON_APPEND_INT32 (d, "line", round);
         BSON_APPEND_DOUBLE (d, "amount", round * 1.25 + b);
         BSON_APPEND_UTF8 (d, "currency", (b + round) % 13 ? "EUR" : "CHF");
         BSON_APPEND_DATE_TIME (d, "at", 1600000000000 + b * 1000 + round);
         batch[nb++] = d;
         src_rows++;
         if (nb == 500) {
            insert_all (sess, coll, batch, nb);
            while (nb) {
               bson_destroy (batch[--nb]);
            }
         }
      }
   }
   if (nb) {
      insert_all (sess, coll, batch, nb);
      while (nb) {
         bson_destroy (batch[--nb]);
      }
   }
   lab_store_session_close (sess);
   lab_store_close (s);
}

/* insert_big -- one bill of 4300 rows of 4 KiB under int64 key `key` (after every other key): about
 * 17.8 MB folded, so it must be split at 16 MiB. Far fewer rows than billgen's oversize bills, which
 * keeps the test server (FerretDB, a few thousand rows/s) fast. Counts the rows in *nrows. */
static void
insert_big (const char *coll, int64_t key, int64_t *nrows)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   bson_t *batch[100];
   size_t nb = 0;
   int r;
   char filler[4097];

   assert_non_null (sess);
   memset (filler, 'f', 4096);
   filler[4096] = '\0';
   for (r = 0; r < 4300; r++) {
      bson_t *d = bson_new ();
      BSON_APPEND_INT64 (d, "_id", INT64_C (9000000000) + r);
      BSON_APPEND_INT64 (d, "bill_id", key);
      BSON_APPEND_UTF8 (d, "patient_id", "ZY-BIG");
      BSON_APPEND_INT32 (d, "line_no", r);
      /* a filler of its own per row: one the same in every row of the master would be hoisted */
      memcpy (filler, &"0123456789"[r % 10], 1);
      memcpy (filler + 1, &"0123456789"[(r / 10) % 10], 1);
      memcpy (filler + 2, &"0123456789"[(r / 100) % 10], 1);
      memcpy (filler + 3, &"0123456789"[(r / 1000) % 10], 1);
      BSON_APPEND_UTF8 (d, "filler", filler);
      batch[nb++] = d;
      (*nrows)++;
      if (nb == 100 || r == 4299) {
         insert_all (sess, coll, batch, nb);
         while (nb) {
            bson_destroy (batch[--nb]);
         }
      }
   }
   lab_store_session_close (sess);
   lab_store_close (s);
}

/* billgen -- generate `bills` bills (and `oversize` oversize ones) with billgen when it exists (DESIGN.md
 * contract), their row count in *rows; false when it is not built. */
static bool
billgen (const char *coll, int bills, int oversize, int64_t *rows)
{
   char *bg = lab_test_bin ("billgen");
   char *cmd;

   if (access (bg, X_OK) != 0) {
      bson_free (bg);
      return false;
   }
   cmd = bson_strdup_printf (
      "%s generate --uri '%s' %s%s%s --cache-size 256M --progress never --dst %s --bills %d "
      "--mean-rows 20 --oversize %d --seed 7 --drop",
      bg, uri, db ? "--db '" : "", db ? db : "", db ? "'" : "", coll, bills, oversize);
   lab_test_run_ok (cmd, NULL);
   bson_free (cmd);
   bson_free (bg);
   *rows = count_of (coll);
   return true;
}

typedef struct {
   int64_t docs;
   int64_t rows;
   int32_t parts;
   int64_t largest;
} found_t;

static bool
found_cb (const bson_t *doc, void *ctx)
{
   found_t *f = ctx;
   bson_iter_t it;

   f->docs++;
   if (bson_iter_init_find (&it, doc, "row_count")) {
      f->rows += bson_iter_as_int64 (&it);
   }
   if (bson_iter_init_find (&it, doc, "parts")) {
      f->parts = (int32_t)bson_iter_as_int64 (&it);
   }
   if ((int64_t)doc->len > f->largest) {
      f->largest = doc->len;
   }
   return true;
}

static bool
any_cb (const bson_t *doc, void *ctx)
{
   return true;
}

/* find_split_key -- the key of the first document of `coll` that is one part of several. */
static bool
find_split_key (lab_store_session_t *sess, const char *coll, bson_value_t *key)
{
   lab_store_sorted_opts_t so = { 0 };
   bson_error_t error;
   lab_store_cursor_t *cur = lab_store_sorted_open (sess, coll, "bill_id", &so, &error);
   const bson_t *doc;
   bson_iter_t it;
   bool found = false;

   if (!cur) {
      fail_msg ("sorted_open %s: %s", coll, error.message);
   }
   while (!found && lab_store_cursor_next (cur, &doc, &error) == 1) {
      if (bson_iter_init_find (&it, doc, "parts") && bson_iter_as_int64 (&it) > 1 &&
          bson_iter_init_find (&it, doc, "bill_id")) {
         bson_value_copy (bson_iter_value (&it), key);
         found = true;
      }
   }
   lab_store_cursor_close (cur);
   return found;
}

/* ---- setup ------------------------------------------------------------------------------------- */

static int
setup (void **state)
{
   backend = getenv ("LAB_FOLD_BACKEND");
   if (!backend) {
      backend = "wiredtiger";
   }
   uri = lab_test_store_uri (backend, "fold", &db);
   if (!uri) {
      return -1;
   }
   bin = lab_test_bin ("fold-details");
   /* The oversize master is in a collection of its own (big_detail), so that only the tests that need it
    * fold its 17.8 MB (each fold of bill_detail did, ~20 of them: two thirds of this test's time). On the
    * embedded store it is billgen's oversize bill (~10^5 rows); on the test server, where that takes
    * minutes, our own (fewer, larger rows): each fold of it takes about 40 s there. The test server reads
    * every row of a collection through JSON for each query (FerretDB on SQLite), so its bill_detail holds
    * 80 bills (12 batches of 7 masters, 2 parallel workers' worth, a master over 100 rows), the embedded
    * store's 200. */
   use_billgen = billgen ("bill_detail", strcmp (backend, "wiredtiger") == 0 ? 200 : 80, 0, &src_rows);
   if (!use_billgen) {
      insert_rows ("bill_detail", 200);
   }
   big_src = "big_detail";
   if (strcmp (backend, "wiredtiger") != 0 || !use_billgen) {
      lab_store_t *s = open_store ();
      bson_error_t error;
      lab_store_session_t *sess = lab_store_session_open (s, &error);

      if (!sess || !lab_store_drop (sess, big_src, &error) || !lab_store_create (sess, big_src, &error) ||
          !lab_store_create_index (sess, big_src, "bill_id", &error)) {
         fail_msg ("prepare %s: %s", big_src, error.message);
      }
      lab_store_session_close (sess);
      lab_store_close (s);
      insert_big (big_src, INT64_C (999999999999), &big_rows);
   } else {
      billgen (big_src, 0, 1, &big_rows);
   }
   return 0;
}

static int
teardown (void **state)
{
   if (!strcmp (backend, "wiredtiger")) {
      lab_test_rmtree (uri + strlen ("wiredtiger:"));
   } else {
      /* drop what this test made on the shared server */
      lab_store_t *s = open_store ();
      bson_error_t error;
      lab_store_session_t *sess = lab_store_session_open (s, &error);
      const char *colls[] = { "bill_detail",
                              "big_detail",
                              "fbig",
                              "fbig.fold_state",
                              "kr_dst",
                              "kr_nokey",
                              "kr_onemiss",
                              "kr_noindex",
                              "kr_src",
                              "kr_fold",
                              "kr_fold.fold_state",
                              "f1",
                              "f1.fold_state",
                              "f4",
                              "f4.fold_state",
                              "fk",
                              "fk.fold_state",
                              "fr",
                              "fr.fold_state",
                              "fx",
                              "fx.fold_state",
                              "fe",
                              "fe.fold_state",
                              "empty",
                              "skeys",
                              "skeys_f",
                              "skeys_f.fold_state",
                              "fo",
                              "fo.fold_state",
                              "fw",
                              "fw.fold_state",
                              "noidx",
                              "fni",
                              "fni.fold_state",
                              "fplan",
                              "fplan.fold_state",
                              "fb",
                              "fb.fold_state",
                              "bdates",
                              "fd",
                              "fd.fold_state",
                              "fdbad",
                              "fdbad.fold_state",
                              "fz",
                              "fz.fold_state",
                              NULL };
      int i;

      for (i = 0; sess && colls[i]; i++) {
         lab_store_drop (sess, colls[i], &error);
      }
      lab_store_session_close (sess);
      lab_store_close (s);
   }
   bson_free (uri);
   bson_free (db);
   bson_free (bin);
   return 0;
}

/* check_folded -- a fold's summary s of `rows` rows into coll: none rejected, its --verify equal over the
 * same rows, no document over the cap, as many documents in coll as the summary counts. */
static void
check_folded (const bson_t *s, int64_t rows, const char *coll)
{
   assert_int_equal (jint (s, "rows_in"), rows);
   assert_int_equal (jint (s, "masters_rejected"), 0);
   assert_true (jbool (s, "verify.equal"));
   assert_int_equal (jint (s, "verify.src_rows"), rows);
   assert_int_equal (jint (s, "verify.dst_rows"), rows);
   assert_int_equal (jint (s, "verify.oversize_docs"), 0);
   assert_true (jint (s, "verify.largest_doc_bytes") <= CAP);
   assert_int_equal (count_of (coll), jint (s, "docs_out"));
}

/* ---- tests ------------------------------------------------------------------------------------- */

static bson_t *f1_summary; /* the --parallel 1 fold, compared with others */

static void
test_fold_oversize_verify (void **state)
{
   bson_t *s = fold_json (0, NULL, "--src bill_detail --dst f1 --verify");
   bson_t *b; /* the fold of the oversize master */
   const char *bdst = "fbig";
   lab_store_t *st;
   lab_store_session_t *sess;
   bson_error_t error;
   bson_value_t key;
   found_t f = { 0 };
   char *err = NULL;
   int64_t nsrc = 0;

   assert_true (jbool (s, "ok"));
   /* the common summary header (docs/json-summary.md) */
   assert_string_equal (jstr (s, "tool"), "fold-details");
   assert_string_equal (jstr (s, "version"), LAB_VERSION);
   assert_int_equal (jint (s, "exit_code"), 0);
   assert_non_null (strstr (jstr (s, "started"), "Z"));
   assert_non_null (strstr (jstr (s, "finished"), "Z"));
   assert_string_equal (jstr (s, "command_line.0"), bin);
   assert_true (jint (s, "fold_elapsed_s") >= 0); /* jint fails the test when it is absent */
   check_folded (s, src_rows, "f1");

   /* the oversize master is split at the cap, and the parts verify */
   b = fold_json (0, NULL, "--src big_detail --dst fbig --verify");
   check_folded (b, big_rows, bdst);
   assert_true (jint (b, "masters_split") >= 1);
   assert_true (jint (b, "largest_doc_bytes") <= CAP);
   assert_true (jint (b, "largest_doc_bytes") > CAP / 2); /* the split filled its first part */

   /* a split master is found whole by {bill_id: key}: all its parts, all its source rows */
   st = open_store ();
   sess = lab_store_session_open (st, &error);
   assert_true (find_split_key (sess, bdst, &key));
   if (!lab_store_find_eq (sess, bdst, "bill_id", &key, found_cb, &f, NULL, &error)) {
      fail_msg ("find_eq: %s", error.message);
   }
   assert_true (f.docs >= 2);
   assert_int_equal (f.parts, f.docs);
   assert_true (f.largest <= CAP);
   if (!lab_store_find_eq (sess, big_src, "bill_id", &key, any_cb, NULL, &nsrc, &error)) {
      fail_msg ("find_eq: %s", error.message);
   }
   assert_int_equal (f.rows, nsrc);
   bson_value_destroy (&key);
   lab_store_session_close (sess);
   lab_store_close (st);
   bson_destroy (b);
   f1_summary = s;

   /* --verify alone on the finished destination */
   s = fold_json (0, NULL, "--src bill_detail --dst f1 --verify");
   assert_string_equal (jstr (s, "mode"), "verify");
   assert_true (jbool (s, "verify.equal"));
   assert_string_equal (jstr (s, "verify.dst_checksum"), jstr (f1_summary, "verify.dst_checksum"));
   bson_destroy (s);

   /* refusal: an existing non-empty destination without --drop-dst / --resume */
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst f1"), 2);
   assert_non_null (strstr (err, "already holds"));
   bson_free (err);
}

static void
test_parallel_same (void **state)
{
   bson_t *s = fold_json (0, NULL, "--src bill_detail --dst f4 --parallel 4 --verify");

   assert_non_null (f1_summary);
   assert_true (jint (s, "ranges") > 1);
   assert_true (jbool (s, "verify.equal"));
   assert_int_equal (jint (s, "docs_out"), jint (f1_summary, "docs_out"));
   assert_int_equal (jint (s, "masters_split"), jint (f1_summary, "masters_split"));
   assert_string_equal (jstr (s, "verify.dst_checksum"), jstr (f1_summary, "verify.dst_checksum"));
   assert_string_equal (jstr (s, "verify.src_checksum"), jstr (f1_summary, "verify.dst_checksum"));
   assert_int_equal (count_of ("f4"), count_of ("f1"));
   bson_destroy (s);
}

static void
test_kill_then_resume (void **state)
{
   char *err = NULL;
   int rc;
   bson_t *s;

   /* SIGKILL itself after the 5th written batch (of 12 or more), before that batch's checkpoint */
   rc = fold (NULL, &err, "LAYOUTLAB_FOLD_KILL_AFTER_BATCHES=5",
              "--src bill_detail --dst fr --parallel 2 --batch-docs 7");
   assert_int_equal (rc, 128 + 9);
   bson_free (err);
   assert_true (count_of ("fr") > 0);
   assert_true (count_of ("fr") < count_of ("f1"));

   /* settings must match */
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fr --parallel 2 --resume --key line"),
                     2);
   assert_non_null (strstr (err, "holds an interrupted fold whose --key is 'bill_id'"));
   assert_non_null (strstr (err, "rerun with its settings to continue it"));
   bson_free (err);
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fr --parallel 3 --resume"), 2);
   bson_free (err);
   /* an interrupted destination is not verified as if finished */
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fr --verify"), 2);
   assert_non_null (strstr (err, "--resume"));
   bson_free (err);

   s = fold_json (0, NULL, "--src bill_detail --dst fr --parallel 2 --batch-docs 7 --resume --verify");
   assert_true (jbool (s, "resumed"));
   assert_true (jbool (s, "verify.equal"));
   assert_true (jint (s, "rows_in") < src_rows); /* it did continue, not start over */
   assert_string_equal (jstr (s, "verify.dst_checksum"), jstr (f1_summary, "verify.dst_checksum"));
   assert_int_equal (count_of ("fr"), count_of ("f1")); /* no duplicated master */
   bson_destroy (s);

   /* resuming a finished run does nothing */
   s = fold_json (0, NULL, "--src bill_detail --dst fr --parallel 2 --resume");
   assert_int_equal (jint (s, "rows_in"), 0);
   bson_destroy (s);
}

/* start_over_command -- the command a --resume refusal ends on ("...: fold-details ARGS"), as a command
 * line for this build's binary (caller bson_free()s); it must start over (--drop-dst) and not resume. */
static char *
start_over_command (const char *err)
{
   const char *c = strstr (err, "start over with --drop-dst: fold-details ");
   char *line, *nl;

   assert_non_null (c);
   c += strlen ("start over with --drop-dst: fold-details ");
   line = bson_strdup_printf ("%s %s", bin, c);
   if ((nl = strchr (line, '\n'))) {
      *nl = '\0';
   }
   assert_non_null (strstr (line, "--drop-dst"));
   assert_null (strstr (line, "--resume"));
   /* it names the store it is about (core/suggest.h): run elsewhere it must not open the default one */
   assert_non_null (strstr (line, " --uri "));
   assert_non_null (strstr (line, " --db "));
   return line;
}

/* test_kill_between_drops -- a --drop-dst run SIGKILLed after dropping the destination and before its
 * checkpoint leaves a checkpoint without its destination: --resume refuses, naming what it
 * found and the exact command that recovers, which does; the same after an interrupted fold; and a finished
 * fold (the kill landing before the drop) resumed with other settings says it is finished. */
static void
test_kill_between_drops (void **state)
{
   char *err = NULL, *cmd, *out = NULL;
   bson_t *s;

   (void)state;
   assert_int_equal (fold (NULL, NULL, NULL, "--src bill_detail --dst fk --batch-docs 7 --drop-dst"), 0);
   assert_int_equal (fold (NULL, NULL, "LAYOUTLAB_FOLD_KILL_AFTER_DROP=1",
                           "--src bill_detail --dst fk --batch-docs 7 --drop-dst"),
                     128 + 9);
   /* before: "nothing to do", exit 0, and no destination (with --verify: "'fk' does not exist", exit 1) */
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fk --batch-docs 7 --resume"), 2);
   assert_non_null (strstr (err, "'fk' does not exist but its checkpoint 'fk.fold_state' says the fold had "
                                 "completed"));
   bson_free (start_over_command (err));
   bson_free (err);
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fk --batch-docs 7 --resume --verify"),
                     2);
   cmd = start_over_command (err);
   assert_non_null (strstr (cmd, "--verify"));
   bson_free (err);
   assert_int_equal (lab_test_run (cmd, &out, &err), 0);
   assert_non_null (strstr (out, "verify: equal"));
   bson_free (cmd);
   bson_free (out);
   bson_free (err);
   assert_int_equal (count_of ("fk"), count_of ("f1"));

   /* a finished fold, resumed with other settings: not called an interrupted run */
   assert_int_equal (
      fold (NULL, &err, NULL, "--src bill_detail --dst fk --batch-docs 7 --parallel 2 --resume"), 2);
   assert_non_null (strstr (err, "holds a finished fold"));
   assert_non_null (strstr (err, "whose --parallel is '1' but this run's is '2'"));
   bson_free (start_over_command (err));
   bson_free (err);

   /* an interrupted fold, then a --drop-dst run killed between the drops: its checkpoints would skip the
    * masters before them, which are gone */
   assert_int_equal (fold (NULL, NULL, "LAYOUTLAB_FOLD_KILL_AFTER_BATCHES=5",
                           "--src bill_detail --dst fk --batch-docs 7 --parallel 2 --drop-dst"),
                     128 + 9);
   assert_int_equal (fold (NULL, NULL, "LAYOUTLAB_FOLD_KILL_AFTER_DROP=1",
                           "--src bill_detail --dst fk --batch-docs 7 --parallel 2 --drop-dst"),
                     128 + 9);
   assert_int_equal (
      fold (NULL, &err, NULL, "--src bill_detail --dst fk --batch-docs 7 --parallel 2 --resume"), 2);
   assert_non_null (strstr (err, "says the fold had written documents in"));
   bson_free (start_over_command (err));
   bson_free (err);
   s = fold_json (0, NULL, "--src bill_detail --dst fk --batch-docs 7 --parallel 2 --drop-dst --verify");
   assert_true (jbool (s, "verify.equal"));
   bson_destroy (s);
}

static void
test_refusals (void **state)
{
   char *err = NULL;

   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst bill_detail"), 2);
   assert_non_null (strstr (err, "same collection"));
   bson_free (err);
   /* f1 holds documents but was written by a finished run: --resume is a no-op there; a foreign
    * non-empty collection cannot be resumed */
   assert_int_equal (fold (NULL, &err, NULL, "--src f1 --dst bill_detail --resume"), 2);
   assert_non_null (strstr (err, "no fold checkpoint"));
   bson_free (err);
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fx --resume --drop-dst"), 2);
   bson_free (err);
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fx --on-oversize reject"), 2);
   assert_non_null (strstr (err, "--reject"));
   bson_free (err);
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fx --hoist _id"), 2);
   bson_free (err);
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fx --max-doc-bytes 1G"), 2);
   assert_non_null (strstr (err, "maxBsonObjectSize"));
   bson_free (err);
   assert_int_equal (fold (NULL, &err, NULL, "--src no_such_coll --dst fx"), 1);
   assert_non_null (strstr (err, "no_such_coll"));
   bson_free (err);
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fx --bogus"), 2);
   bson_free (err);
}

/* drop_coll -- drop `coll` (a checkpoint, to verify a destination as one folded by other means). */
static void
drop_coll (const char *coll)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);

   assert_non_null (sess);
   if (!lab_store_drop (sess, coll, &error)) {
      fail_msg ("drop %s: %s", coll, error.message);
   }
   lab_store_session_close (sess);
   lab_store_close (s);
}

/* put_rows -- a fresh collection `coll` of `n` rows {_id: i, bill_id: i / per, line: i} (bill_id left out
 * of row `skip_key`; -1: of none, -2: of every row), with an index on bill_id when `index`. */
static void
put_rows (const char *coll, int n, int per, int skip_key, bool index)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   bson_t **docs = bson_malloc0 ((size_t)n * sizeof *docs);
   int i;

   assert_non_null (sess);
   if (!lab_store_drop (sess, coll, &error) || !lab_store_create (sess, coll, &error) ||
       (index && !lab_store_create_index (sess, coll, "bill_id", &error))) {
      fail_msg ("prepare %s: %s", coll, error.message);
   }
   for (i = 0; i < n; i++) {
      docs[i] = bson_new ();
      BSON_APPEND_INT32 (docs[i], "_id", i);
      if (i != skip_key && skip_key != -2) {
         BSON_APPEND_INT32 (docs[i], "bill_id", i / per);
      }
      BSON_APPEND_INT32 (docs[i], "line", i);
   }
   insert_all (sess, coll, docs, (size_t)n);
   for (i = 0; i < n; i++) {
      bson_destroy (docs[i]);
   }
   bson_free (docs);
   lab_store_session_close (sess);
   lab_store_close (s);
}

/* a source whose rows lack the key is refused before --drop-dst drops anything, with or without
 * --create-index, also when only one row further in lacks it; --verify alone on a destination folded with
 * other settings is refused naming them and the command that folds it again */
static void
test_key_and_refold_refusals (void **state)
{
   char *err = NULL;
   bool has = true;
   lab_store_t *s;
   lab_store_session_t *sess;
   bson_error_t error;

   /* the destination a careless --drop-dst would empty; not written by layoutlab, so --yes (on a server the
    * drop guard would refuse first: test_trust covers that) */
   put_rows ("kr_dst", 3, 1, -1, false);
   /* no row has the key: billgen import of a CSV without its key column made such sources */
   put_rows ("kr_nokey", 50, 5, -2, false);
   assert_int_equal (fold (NULL, &err, NULL, "--src kr_nokey --dst kr_dst --drop-dst --yes --create-index"),
                     2);
   assert_non_null (strstr (err, "no document of kr_nokey has a field bill_id (fields seen: line; "));
   assert_non_null (strstr (err, "Nothing has been dropped or written"));
   bson_free (err);
   assert_int_equal (count_of ("kr_dst"), 3);
   s = open_store ();
   sess = lab_store_session_open (s, &error);
   assert_true (lab_store_has_index (sess, "kr_nokey", "bill_id", &has, &error));
   assert_false (has); /* refused before --create-index built a useless index */
   lab_store_session_close (sess);
   lab_store_close (s);
   /* one row in the middle without the key, the index there: it sorts first */
   put_rows ("kr_onemiss", 120, 10, 101, true);
   assert_int_equal (fold (NULL, &err, NULL, "--src kr_onemiss --dst kr_dst --drop-dst --yes"), 2);
   assert_non_null (strstr (err, "row { \"_id\" : 101 } has no key field 'bill_id'"));
   bson_free (err);
   assert_int_equal (count_of ("kr_dst"), 3);
   /* no index and no --create-index: the hint names the option, never an internal function */
   put_rows ("kr_noindex", 10, 5, -1, false);
   assert_int_equal (fold (NULL, &err, NULL, "--src kr_noindex --dst kr_dst --drop-dst --yes"), 1);
   assert_non_null (strstr (err, "--create-index"));
   assert_null (strstr (err, "lab_"));
   bson_free (err);

   /* a plain fold, then --bucket-rows 7 --verify on it: refused as a settings difference, not exit 3 */
   put_rows ("kr_src", 120, 30, -1, true);
   assert_int_equal (fold (NULL, &err, NULL, "--src kr_src --dst kr_fold --drop-dst --verify"), 0);
   bson_free (err);
   assert_int_equal (fold (NULL, &err, NULL, "--src kr_src --dst kr_fold --bucket-rows 7 --verify"), 2);
   assert_non_null (strstr (err,
                            "'kr_fold' was folded with other settings than this command's (--bucket-rows: "
                            "none there, 7 here)"));
   assert_non_null (strstr (err, "--bucket-rows 7 --verify --drop-dst"));
   assert_null (strstr (err, "DIFFERENT"));
   assert_null (strstr (err, "verifying only"));
   bson_free (err);
   assert_int_equal (fold (NULL, &err, NULL, "--src kr_src --dst kr_fold --key line --verify"), 2);
   assert_non_null (strstr (err, "--key: bill_id there, line here"));
   bson_free (err);
   /* as it was folded it verifies; the printed command folds it again, and then it verifies as buckets */
   assert_int_equal (fold (NULL, &err, NULL, "--src kr_src --dst kr_fold --verify"), 0);
   bson_free (err);
   assert_int_equal (
      fold (NULL, &err, NULL, "--src kr_src --dst kr_fold --bucket-rows 7 --verify --drop-dst"), 0);
   bson_free (err);
   assert_int_equal (fold (NULL, &err, NULL, "--src kr_src --dst kr_fold --verify"), 0);
   bson_free (err);
   /* its output is a collection */
   assert_int_equal (fold (NULL, &err, NULL, "--src kr_src --dst kr_fold -o x.json"), 2);
   assert_non_null (strstr (err, "-o: fold-details writes a collection, not a file") ||
                    strstr (err, "--out: fold-details writes a collection, not a file"));
   bson_free (err);
}

static void
test_oversize_reject_fail (void **state)
{
   char *tmp = lab_test_tmpdir ("foldrej");
   char *path = bson_strdup_printf ("%s/rejects.jsonl", tmp);
   char *err = NULL, *cmd, *out = NULL;
   bson_t *s;
   int64_t lines;

   cmd = bson_strdup_printf ("--src %s --dst fo --drop-dst --on-oversize reject --reject '%s' --verify",
                             big_src, path);
   s = fold_json (0, NULL, cmd);
   bson_free (cmd);
   assert_true (jint (s, "masters_rejected") >= 1);
   assert_int_equal (jint (s, "masters_split"), 0);
   assert_true (jbool (s, "verify.equal"));
   assert_int_equal (jint (s, "verify.skipped_masters"), jint (s, "masters_rejected"));
   cmd = bson_strdup_printf ("wc -l < '%s'", path);
   assert_int_equal (lab_test_run (cmd, &out, NULL), 0);
   lines = strtoll (out, NULL, 10);
   assert_int_equal (lines, jint (s, "rows_rejected"));
   assert_int_equal (jint (s, "rows_in"), big_rows);
   assert_int_equal (count_of ("fo"), jint (s, "docs_out"));
   bson_free (out);
   bson_free (cmd);
   cmd = bson_strdup_printf ("head -1 '%s'", path);
   assert_int_equal (lab_test_run (cmd, &out, NULL), 0);
   assert_non_null (strstr (out, "\"reason\""));
   assert_non_null (strstr (out, "\"row\""));
   bson_free (out);
   bson_free (cmd);
   bson_destroy (s);

   assert_int_equal (fold (NULL, &err, NULL, "--src %s --dst fo --drop-dst --on-oversize fail", big_src), 1);
   assert_non_null (strstr (err, "over the"));
   bson_free (err);
   lab_test_rmtree (tmp);
   bson_free (tmp);
   bson_free (path);
}

static void
test_verify_catches_damage (void **state)
{
   lab_store_t *st;
   lab_store_session_t *sess;
   bson_error_t error;
   bson_value_t key;
   int64_t deleted = 0;
   char *err = NULL, *out = NULL;

   /* damage "fr", the complete (resumed) fold: drop the third master's documents */
   st = open_store ();
   sess = lab_store_session_open (st, &error);
   {
      bson_value_t *keys = NULL;
      int64_t nkeys = 0;
      if (!lab_store_distinct_keys (sess, "bill_detail", "bill_id", &keys, &nkeys, &error)) {
         fail_msg ("distinct: %s", error.message);
      }
      assert_true (nkeys > 3);
      bson_value_copy (&keys[2], &key);
      lab_store_values_free (keys, (int)nkeys);
   }
   if (!lab_store_delete_eq (sess, "fr", "bill_id", &key, &deleted, &error)) {
      fail_msg ("delete: %s", error.message);
   }
   assert_true (deleted >= 1);
   lab_store_session_close (sess);
   lab_store_close (st);
   bson_value_destroy (&key);

   assert_int_equal (fold (&out, &err, NULL, "--src bill_detail --dst fr --verify"), 3);
   assert_non_null (strstr (err, "missing from the destination"));
   assert_non_null (strstr (out, "DIFFERENT"));
   bson_free (out);
   bson_free (err);
}

static bool exists_of (const char *coll);

static void
test_empty_and_key_types (void **state)
{
   lab_store_t *st = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (st, &error);
   bson_t *rows[60];
   bson_oid_t oid;
   bson_t *s;
   char *err = NULL;
   int i;

   /* an empty source folds to an empty destination; its key index is there, as for every source: a sorted
    * read on a server requires it (fold-details builds it only with --create-index) */
   assert_true (lab_store_drop (sess, "empty", &error));
   assert_true (lab_store_create (sess, "empty", &error));
   assert_true (lab_store_create_index (sess, "empty", "bill_id", &error));
   /* string, ObjectId and date keys in one collection (MongoDB orders the types) */
   assert_true (lab_store_drop (sess, "skeys", &error));
   assert_true (lab_store_create (sess, "skeys", &error));
   assert_true (lab_store_create_index (sess, "skeys", "k", &error));
   for (i = 0; i < 60; i++) {
      rows[i] = bson_new ();
      BSON_APPEND_INT32 (rows[i], "_id", i);
      switch (i % 4) {
      case 0:
         BSON_APPEND_UTF8 (rows[i], "k", i % 8 ? "B-001" : "B-002");
         break;
      case 1:
         bson_oid_init_from_string (&oid,
                                    i % 8 == 1 ? "5f1d7a0000000000000000aa" : "5f1d7a0000000000000000ab");
         BSON_APPEND_OID (rows[i], "k", &oid);
         break;
      case 2:
         BSON_APPEND_DATE_TIME (rows[i], "k", 1700000000000 + (i % 8));
         break;
      default:
         BSON_APPEND_INT64 (rows[i], "k", (int64_t)(i % 8));
      }
      BSON_APPEND_INT32 (rows[i], "v", i);
   }
   insert_all (sess, "skeys", rows, 60);
   for (i = 0; i < 60; i++) {
      bson_destroy (rows[i]);
   }
   lab_store_session_close (sess);
   lab_store_close (st);

   s = fold_json (0, NULL, "--src empty --dst fk --verify");
   assert_int_equal (jint (s, "rows_in"), 0);
   assert_int_equal (jint (s, "docs_out"), 0);
   assert_true (jbool (s, "verify.equal"));
   bson_destroy (s);

   /* four BSON types are four classes: refused before anything is written unless allowed */
   assert_int_equal (fold (NULL, &err, NULL, "--src skeys --dst skeys_f --key k --array-field rows"), 2);
   assert_non_null (strstr (err,
                            "the key k has 4 BSON types: int64 (15 rows), string (15 rows), objectId (15 "
                            "rows), date (15 rows)"));
   bson_free (err);
   assert_false (exists_of ("skeys_f"));
   s = fold_json (0, NULL,
                  "--src skeys --dst skeys_f --key k --array-field rows --allow-mixed-key-types --verify");
   assert_int_equal (jint (s, "rows_in"), 60);
   assert_int_equal (jint (s, "masters"), 8);
   assert_int_equal (jint (s, "key_types.rows.int64"), 15);
   assert_true (jbool (s, "verify.equal"));
   bson_destroy (s);

   /* --drop-dst replaces an existing destination */
   s = fold_json (0, NULL,
                  "--src skeys --dst skeys_f --key k --array-field rows --hoist none --drop-dst --verify "
                  "--allow-mixed-key-types");
   assert_int_equal (jint (s, "docs_out"), 8);
   assert_true (jbool (s, "verify.equal"));
   assert_int_equal (count_of ("skeys_f"), 8);
   bson_destroy (s);
}

static bool
copy_first (const bson_t *doc, void *ctx)
{
   bson_t **out = ctx;

   if (!*out) {
      *out = bson_copy (doc);
   }
   return false;
}

/* A document the server refuses is reported with its _id and fails the run (exit 1), and the
 * checkpoint does not move past it. The refusal is staged through --resume: the interrupted state is
 * rebuilt by hand and a stranger holding the _id of a master past the checkpoint is planted. */
static void
test_write_errors_reported (void **state)
{
   lab_store_t *st;
   lab_store_session_t *sess;
   bson_error_t error;
   bson_t *settings = NULL, *d, *fixed;
   bson_value_t v;
   bson_iter_t it;
   char *err = NULL, *out = NULL;
   bson_t *s = fold_json (0, NULL, "--src skeys --dst fw --key k --hoist none --allow-mixed-key-types");

   bson_destroy (s);
   st = open_store ();
   sess = lab_store_session_open (st, &error);
   v.value_type = BSON_TYPE_UTF8;
   v.value.v_utf8.str = "settings";
   v.value.v_utf8.len = 8;
   assert_true (lab_store_find_eq (sess, "fw.fold_state", "_id", &v, copy_first, &settings, NULL, &error));
   assert_non_null (settings);
   fixed = bson_new ();
   bson_copy_to_excluding_noinit (settings, fixed, "complete", NULL);
   BSON_APPEND_BOOL (fixed, "complete", false);
   assert_true (lab_store_upsert_by_id (sess, "fw.fold_state", fixed, &error));
   d = BCON_NEW ("_id", "range-0", "range", BCON_INT32 (0), "last_key", BCON_INT64 (3), "done",
                 BCON_BOOL (false));
   assert_true (lab_store_upsert_by_id (sess, "fw.fold_state", d, &error));
   bson_destroy (d);
   /* master k=7 lies past the checkpoint: replace its document by a stranger with its _id and key 3 */
   v.value.v_utf8.str = "n:7#0";
   v.value.v_utf8.len = 5;
   assert_true (lab_store_delete_eq (sess, "fw", "_id", &v, NULL, &error));
   d = BCON_NEW ("_id", "n:7#0", "k", BCON_INT64 (3), "row_count", BCON_INT32 (0), "part", BCON_INT32 (0),
                 "parts", BCON_INT32 (1), "details", "[", "]");
   {
      const bson_t *one[1] = { d };
      lab_store_insert_result_t res = { 0 };
      assert_true (lab_store_insert_many (sess, "fw", one, 1, &res, &error));
      assert_int_equal (res.nerrors, 0);
      lab_store_insert_result_cleanup (&res);
   }
   bson_destroy (d);
   bson_destroy (fixed);
   bson_destroy (settings);
   lab_store_session_close (sess);
   lab_store_close (st);

   assert_int_equal (fold (&out, &err, NULL, "--json - --src skeys --dst fw --key k --hoist none --resume"),
                     1);
   assert_non_null (strstr (err, "n:7#0"));
   assert_non_null (strstr (err, "not written"));
   s = bson_new_from_json ((const uint8_t *)out, -1, &error);
   assert_non_null (s);
   assert_true (bson_iter_init_find (&it, s, "write_errors"));
   assert_int_equal (bson_iter_as_int64 (&it), 1);
   bson_destroy (s);
   bson_free (out);
   bson_free (err);
}

/* exists_of -- the collection exists. */
static bool
exists_of (const char *coll)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   bool e = false;

   assert_non_null (sess);
   if (!lab_store_exists (sess, coll, &e, &error)) {
      fail_msg ("exists %s: %s", coll, error.message);
   }
   lab_store_session_close (sess);
   lab_store_close (s);
   return e;
}

/* has_index_of -- coll has an index whose first key is field. */
static bool
has_index_of (const char *coll, const char *field)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   bool h = false;

   assert_non_null (sess);
   if (!lab_store_has_index (sess, coll, field, &h, &error)) {
      fail_msg ("has_index %s.%s: %s", coll, field, error.message);
   }
   lab_store_session_close (sess);
   lab_store_close (s);
   return h;
}

/* jdoc_eq -- the document at `path` of b equals the JSON `want` (same fields, order and values). */
static void
jdoc_eq (const bson_t *b, const char *path, const char *want)
{
   bson_iter_t it, d;
   bson_error_t error;
   bson_t *w = bson_new_from_json ((const uint8_t *)want, -1, &error);
   bson_t got;
   uint32_t len;
   const uint8_t *data;
   char *gs;

   assert_non_null (w);
   if (!bson_iter_init (&it, b) || !bson_iter_find_descendant (&it, path, &d) ||
       !BSON_ITER_HOLDS_DOCUMENT (&d)) {
      fail_msg ("summary has no document %s", path);
   }
   bson_iter_document (&d, &len, &data);
   assert_true (bson_init_static (&got, data, len));
   if (!bson_equal (&got, w)) {
      gs = bson_as_relaxed_extended_json (&got, NULL);
      fail_msg ("%s is %s, wanted %s", path, gs, want);
   }
   bson_destroy (w);
}

/* The names this file's tests create, for "--plan wrote nothing". */
static const char *const plan_colls[] = { "fplan", "fplan.fold_state", "f1", "f1.fold_state", "noidx",
                                          "fni",   "fni.fold_state",   NULL };

/* snapshot -- which of plan_colls exist (bit i) and f1's document count. */
static uint32_t
snapshot (int64_t *f1_docs)
{
   uint32_t bits = 0;
   int i;

   for (i = 0; plan_colls[i]; i++) {
      if (exists_of (plan_colls[i])) {
         bits |= 1u << i;
      }
   }
   *f1_docs = count_of ("f1");
   return bits;
}

/* --plan writes nothing (no destination, no checkpoint collection; an existing destination keeps its
 * documents with --drop-dst, and a finished one its checkpoint with --resume), says fresh/replace/resume,
 * and describes an index-served read: the hint and the sort on the key (plus _id only where the server
 * says it sorts in memory: FerretDB, which then shows a blocking sort and non-zero temporary space). */
static void
test_plan_writes_nothing (void **state)
{
   int64_t f1_before, f1_after;
   uint32_t before = snapshot (&f1_before), after;
   char *out = NULL, *err = NULL;
   bson_t *s;
   bool blocking;

   assert_true (before & (1u << 2)); /* f1 exists (test_fold_oversize_verify) */
   s = fold_json (0, NULL, "--src bill_detail --dst fplan --plan --parallel 2");
   assert_string_equal (jstr (s, "mode"), "plan");
   assert_non_null (strstr (jstr (s, "plan.decision"), "fresh: create 'fplan'"));
   assert_true (jbool (s, "plan.writes_nothing"));
   assert_true (jint (s, "plan.source.estimated_documents") > 0);
   assert_true (jbool (s, "plan.source.key_index_exists"));
   assert_int_equal (jint (s, "plan.writes.batch_docs"), 1000);
   assert_true (jint (s, "plan.ranges.0.estimated_documents") > 0);
   assert_true (jint (s, "plan.ranges.1.estimated_documents") > 0);
   blocking = jbool (s, "plan.blocking_sort");
   if (!strcmp (backend, "wiredtiger")) {
      jdoc_eq (s, "plan.ranges.0.read.walk.index", "{\"bill_id\": 1}");
      assert_false (blocking);
   } else {
      jdoc_eq (s, "plan.ranges.0.read.command.hint", "{\"bill_id\": 1}");
      jdoc_eq (s, "plan.ranges.0.read.index", "{\"bill_id\": 1}");
      assert_true (jbool (s, "plan.ranges.0.read.command.allowDiskUse"));
      assert_true (jint (s, "plan.ranges.0.read.command.cursor.batchSize") > 0);
      /* the first range has only an upper bound */
      assert_non_null (strstr (jstr (s, "plan.ranges.0.read.command.aggregate"), "bill_detail"));
      if (blocking) { /* FerretDB: hint ignored, in-memory sort with _id as the tie-breaker */
         jdoc_eq (s, "plan.ranges.0.read.command.pipeline.1.$sort", "{\"bill_id\": 1, \"_id\": 1}");
      } else { /* mongod: the index serves the sort on the key alone */
         jdoc_eq (s, "plan.ranges.0.read.command.pipeline.1.$sort", "{\"bill_id\": 1}");
      }
   }
   assert_int_equal (jbool (s, "plan.ranges.0.read.blocking_sort"), blocking);
   if (blocking) {
      assert_true (jint (s, "plan.estimated_temp_bytes") > 0);
   } else {
      assert_int_equal (jint (s, "plan.estimated_temp_bytes"), 0);
   }
   bson_destroy (s);

   /* an existing destination: refused as the run would refuse it; --drop-dst and --resume describe */
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst f1 --plan"), 2);
   assert_non_null (strstr (err, "--drop-dst"));
   bson_free (err);
   s = fold_json (0, NULL, "--src bill_detail --dst f1 --plan --drop-dst");
   assert_non_null (strstr (jstr (s, "plan.decision"), "fresh: drop 'f1'"));
   bson_destroy (s);
   s = fold_json (0, NULL, "--src bill_detail --dst f1 --plan --resume");
   assert_non_null (strstr (jstr (s, "plan.decision"), "already completed"));
   bson_destroy (s);
   /* --plan and --verify do not go together */
   assert_int_equal (fold (NULL, NULL, NULL, "--src bill_detail --dst f1 --plan --verify"), 2);

   /* the human plan names the read and the writes */
   assert_int_equal (fold (&out, NULL, NULL, "--src bill_detail --dst fplan --plan"), 0);
   assert_non_null (strstr (out, "nothing has been written"));
   assert_non_null (strstr (out, "range 0:"));
   assert_non_null (strstr (out, "write concern"));
   assert_non_null (strstr (out, "bill_id"));
   bson_free (out);

   after = snapshot (&f1_after);
   assert_int_equal (after, before);
   assert_int_equal (f1_after, f1_before);
   assert_true (exists_of ("f1.fold_state"));
}

/* A source without the key index: the run stops before writing anything (exit 1, the message names
 * --create-index); on a source layoutlab did not write --create-index is refused (exit 2, nothing built)
 * unless --allow-writes names it; then --plan --create-index says it would build it and builds nothing;
 * --create-index builds it, reports the build time and the fold verifies. */
static void
test_create_index (void **state)
{
   lab_store_t *st = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (st, &error);
   bson_t *rows[120];
   char *err = NULL;
   bson_t *s;
   int i;

   assert_non_null (sess);
   assert_true (lab_store_drop (sess, "noidx", &error));
   assert_true (lab_store_create (sess, "noidx", &error));
   for (i = 0; i < 120; i++) {
      rows[i] = BCON_NEW ("_id", BCON_INT32 (i), "g", BCON_INT32 ((i * 7) % 13), "v", BCON_INT32 (i));
   }
   insert_all (sess, "noidx", rows, 120);
   for (i = 0; i < 120; i++) {
      bson_destroy (rows[i]);
   }
   lab_store_session_close (sess);
   lab_store_close (st);
   assert_false (has_index_of ("noidx", "g"));

   assert_int_equal (fold (NULL, &err, NULL, "--src noidx --dst fni --key g"), 1);
   assert_non_null (strstr (err, "has no index on 'g'"));
   assert_non_null (strstr (err, "--create-index"));
   assert_non_null (strstr (err, "Nothing has been written"));
   bson_free (err);
   assert_false (exists_of ("fni"));
   assert_false (exists_of ("fni.fold_state"));

   /* noidx is not layoutlab's (no marker): --create-index is refused before anything is built */
   assert_int_equal (fold (NULL, &err, NULL, "--src noidx --dst fni --key g --create-index"), 2);
   assert_non_null (strstr (err, "layoutlab did not write"));
   assert_non_null (strstr (err, "--allow-writes noidx"));
   bson_free (err);
   assert_false (has_index_of ("noidx", "g"));
   assert_false (exists_of ("fni"));

   s = fold_json (0, NULL, "--src noidx --dst fni --key g --plan --create-index --allow-writes noidx");
   assert_true (jbool (s, "plan.source.create_index"));
   assert_false (jbool (s, "plan.source.key_index_exists"));
   bson_destroy (s);
   assert_false (has_index_of ("noidx", "g"));
   assert_false (exists_of ("fni"));

   s = fold_json (0, NULL, "--src noidx --dst fni --key g --create-index --verify --allow-writes noidx");
   assert_true (lab_test_json_has (s, "index_build_s"));
   assert_true (lab_test_json_num (s, "index_build_s") >= 0);
   assert_true (jbool (s, "verify.equal"));
   assert_int_equal (jint (s, "verify.src_rows"), 120);
   assert_int_equal (jint (s, "masters"), 13);
   bson_destroy (s);
   assert_true (has_index_of ("noidx", "g"));
}

/* --verify with a cursor batch of 7 documents: both streams fetch many small batches (getMore on each
 * side, interleaved by the merge join) and still find the fold equal. */
static void
test_verify_small_batches (void **state)
{
   bson_t *s = fold_json (0, NULL, "--src bill_detail --dst f1 --verify --cursor-batch 7");

   assert_string_equal (jstr (s, "mode"), "verify");
   assert_true (jbool (s, "verify.equal"));
   assert_int_equal (jint (s, "verify.src_rows"), src_rows);
   assert_int_equal (jint (s, "verify.dst_rows"), src_rows);
   bson_destroy (s);
}

typedef struct {
   int64_t docs;
   int64_t over_rows; /* documents with more rows than `limit` */
   int64_t over_cap;
   int32_t limit;
   bool by;
   /* --bucket-by on bdates (int32 bill_id 1..120, at most 30 rows): each bill's bucket_start per part.
    * Checked by part, not by stream order: FerretDB returns a key's documents in _id (string) order */
   int64_t starts[128][32];
   int32_t nparts[128];
} bucket_scan_t;

/* bucket_windows_unordered -- bills whose windows do not ascend with their part numbers. */
static int64_t
bucket_windows_unordered (const bucket_scan_t *b)
{
   int64_t bad = 0;
   int i, p;

   for (i = 0; i < 128; i++) {
      for (p = 1; p < b->nparts[i]; p++) {
         if (b->starts[i][p] < b->starts[i][p - 1]) {
            bad++;
            break;
         }
      }
   }
   return bad;
}

static bool
bucket_scan_cb (const bson_t *doc, void *ctx)
{
   bucket_scan_t *b = ctx;
   bson_iter_t it, k;
   int64_t start, bill, part;

   b->docs++;
   if (bson_iter_init_find (&it, doc, "row_count") && bson_iter_as_int64 (&it) > b->limit) {
      b->over_rows++;
   }
   if (doc->len > CAP) {
      b->over_cap++;
   }
   if (b->by) {
      assert_true (bson_iter_init_find (&it, doc, "bucket_start") && BSON_ITER_HOLDS_DATE_TIME (&it));
      start = bson_iter_date_time (&it);
      assert_true (bson_iter_init_find (&k, doc, "bill_id"));
      bill = bson_iter_as_int64 (&k);
      assert_true (bson_iter_init_find (&k, doc, "part"));
      part = bson_iter_as_int64 (&k);
      assert_true (bill >= 0 && bill < 128 && part >= 0 && part < 32);
      b->starts[bill][part] = start;
      if (part + 1 > b->nparts[bill]) {
         b->nparts[bill] = (int32_t)(part + 1);
      }
   }
   return true;
}

/* scan_buckets -- every document of `coll` in key order (the sorted read needs the key index). */
static void
scan_buckets (const char *coll, bucket_scan_t *b)
{
   lab_store_t *st = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (st, &error);
   lab_store_sorted_opts_t so = { 0 };
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bool has = false;

   assert_non_null (sess);
   if (!lab_store_has_index (sess, coll, "bill_id", &has, &error)) {
      fail_msg ("has_index %s: %s", coll, error.message);
   }
   assert_true (has);
   cur = lab_store_sorted_open (sess, coll, "bill_id", &so, &error);
   if (!cur) {
      fail_msg ("sorted_open %s: %s", coll, error.message);
   }
   while (lab_store_cursor_next (cur, &doc, &error) == 1) {
      bucket_scan_cb (doc, b);
   }
   lab_store_cursor_close (cur);
   lab_store_session_close (sess);
   lab_store_close (st);
}

/* insert_dated -- `nbills` bills of 1..30 rows whose `at` dates spread over ten days, not in date order
 * within a bill. */
static void
insert_dated (const char *coll, int nbills)
{
   lab_store_t *s = open_store ();
   bson_error_t error;
   lab_store_session_t *sess = lab_store_session_open (s, &error);
   bson_t *batch[500];
   size_t nb = 0;
   int b, r;
   int64_t id = 1;

   assert_non_null (sess);
   if (!lab_store_drop (sess, coll, &error) || !lab_store_create (sess, coll, &error) ||
       !lab_store_create_index (sess, coll, "bill_id", &error)) {
      fail_msg ("prepare %s: %s", coll, error.message);
   }
   for (b = 1; b <= nbills; b++) {
      for (r = 0; r < 1 + (b * 7919) % 30; r++) {
         bson_t *d = bson_new ();
         BSON_APPEND_INT64 (d, "_id", id++);
         BSON_APPEND_INT32 (d, "bill_id", b);
         BSON_APPEND_INT32 (d, "line", r);
         BSON_APPEND_DATE_TIME (d, "at",
                                INT64_C (1600000000000) + ((b * 31 + r * 17) % 240) * INT64_C (3600000));
         batch[nb++] = d;
         if (nb == 500) {
            insert_all (sess, coll, batch, nb);
            while (nb) {
               bson_destroy (batch[--nb]);
            }
         }
      }
   }
   if (nb) {
      insert_all (sess, coll, batch, nb);
      while (nb) {
         bson_destroy (batch[--nb]);
      }
   }
   lab_store_session_close (sess);
   lab_store_close (s);
}

/* test_bucket_rows_fold -- --bucket-rows 100 verifies; no document over 100 rows or the cap; a master's
 * buckets are found by its key; --verify alone knows the buckets from the checkpoint and catches a
 * stricter limit; --plan shows them. */
static void
test_bucket_rows_fold (void **state)
{
   bson_t *s = fold_json (0, NULL, "--src bill_detail --dst fb --bucket-rows 100 --verify");
   bucket_scan_t b = { 0 };
   lab_store_t *st;
   lab_store_session_t *sess;
   bson_error_t error;
   bson_value_t key;
   found_t f = { 0 };
   int64_t nsrc = 0;
   char *out = NULL, *err = NULL;

   assert_true (jbool (s, "verify.equal"));
   assert_int_equal (jint (s, "bucket_rows"), 100);
   assert_string_equal (jstr (s, "bucket_by"), "");
   assert_int_equal (jint (s, "verify.dst_rows"), src_rows);
   assert_true (jint (s, "docs_out") > jint (s, "masters"));
   b.limit = 100;
   scan_buckets ("fb", &b);
   assert_int_equal (b.docs, jint (s, "docs_out"));
   assert_int_equal (b.over_rows, 0);
   assert_int_equal (b.over_cap, 0);
   bson_destroy (s);

   /* the biggest master (several buckets) is found whole by {bill_id: key} through the key index */
   st = open_store ();
   sess = lab_store_session_open (st, &error);
   assert_true (find_split_key (sess, "fb", &key));
   if (!lab_store_find_eq (sess, "fb", "bill_id", &key, found_cb, &f, NULL, &error)) {
      fail_msg ("find_eq: %s", error.message);
   }
   assert_true (f.docs >= 2);
   assert_int_equal (f.parts, f.docs);
   if (!lab_store_find_eq (sess, "bill_detail", "bill_id", &key, any_cb, NULL, &nsrc, &error)) {
      fail_msg ("find_eq: %s", error.message);
   }
   assert_int_equal (f.rows, nsrc);
   assert_true (f.docs >= (nsrc + 99) / 100);
   bson_value_destroy (&key);
   lab_store_session_close (sess);
   lab_store_close (st);

   /* --verify alone reads the bucket settings back from the checkpoint */
   s = fold_json (0, NULL, "--src bill_detail --dst fb --verify");
   assert_string_equal (jstr (s, "mode"), "verify");
   assert_int_equal (jint (s, "bucket_rows"), 100);
   assert_true (jbool (s, "verify.equal"));
   bson_destroy (s);
   /* ... a stricter limit on the command line is another fold's setting: refused naming both, with the
    * command that folds it so ... */
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fb --verify --bucket-rows 50"), 2);
   assert_non_null (strstr (err, "(--bucket-rows: 100 there, 50 here)"));
   bson_free (err);
   /* ... and without the checkpoint (nothing known of the fold) the verify checks the limit given */
   drop_coll ("fb.fold_state");
   assert_int_equal (fold (NULL, &err, NULL, "--src bill_detail --dst fb --verify --bucket-rows 50"), 3);
   assert_non_null (strstr (err, "over --bucket-rows 50"));
   bson_free (err);

   /* --plan names the buckets */
   assert_int_equal (
      fold (&out, NULL, NULL, "--src bill_detail --dst fb --drop-dst --plan --bucket-rows 100"), 0);
   assert_non_null (strstr (out, "buckets: 100 rows at most per document"));
   bson_free (out);
   assert_int_equal (count_of ("fb"), b.docs); /* --plan wrote nothing */
}

/* test_bucket_by_fold -- --bucket-by at:day: one document per master and day in ascending days, verified;
 * a field that is not a date stops the run naming a row. */
static void
test_bucket_by_fold (void **state)
{
   bson_t *s;
   bucket_scan_t b = { 0 };
   char *err = NULL;

   insert_dated ("bdates", 120);
   s = fold_json (0, NULL, "--src bdates --dst fd --bucket-by at:day --bucket-rows 3 --verify");
   assert_true (jbool (s, "verify.equal"));
   assert_string_equal (jstr (s, "bucket_by"), "at:day");
   assert_int_equal (jint (s, "bucket_rows"), 3);
   assert_true (jint (s, "docs_out") > jint (s, "masters"));
   b.limit = 3;
   b.by = true;
   scan_buckets ("fd", &b);
   assert_int_equal (b.docs, jint (s, "docs_out"));
   assert_int_equal (b.over_rows, 0);
   assert_int_equal (bucket_windows_unordered (&b), 0);
   bson_destroy (s);
   s = fold_json (0, NULL, "--src bdates --dst fd --verify");
   assert_string_equal (jstr (s, "bucket_by"), "at:day");
   assert_true (jbool (s, "verify.equal"));
   bson_destroy (s);
   /* verifying the same documents as hourly buckets: another fold's setting, refused naming both;
    * without the checkpoint, checked: each day starts an hour, but rows of later hours fall outside their
    * document's window */
   assert_int_equal (fold (NULL, &err, NULL, "--src bdates --dst fd --verify --bucket-by at:hour"), 2);
   assert_non_null (strstr (err, "(--bucket-by: at:day there, at:hour here)"));
   bson_free (err);
   drop_coll ("fd.fold_state");
   assert_int_equal (fold (NULL, &err, NULL, "--src bdates --dst fd --verify --bucket-by at:hour"), 3);
   assert_non_null (strstr (err, "lies outside its bucket"));
   bson_free (err);
   /* ... and as monthly buckets: a day is not the start of a month */
   assert_int_equal (fold (NULL, &err, NULL, "--src bdates --dst fd --verify --bucket-by at:month"), 3);
   assert_non_null (strstr (err, "does not start a month window"));
   bson_free (err);

   /* an int32 field is not a date */
   assert_int_equal (fold (NULL, &err, NULL, "--src bdates --dst fdbad --bucket-by line:week"), 1);
   assert_non_null (strstr (err, "bucket field 'line' holds BSON type 0x10, not a date"));
   assert_non_null (strstr (err, "row {"));
   bson_free (err);
   /* a unit that does not exist is a usage error */
   assert_int_equal (fold (NULL, &err, NULL, "--src bdates --dst fdbad --bucket-by at:year"), 2);
   assert_non_null (strstr (err, "unknown unit 'year'"));
   bson_free (err);
}

/* test_block_compressor -- --block-compressor zstd: the embedded destination's table uses it (and
 * verifies after the store reopens); the test server (FerretDB) ignores it, and the summary says so. */
static void
test_block_compressor (void **state)
{
   bson_t *s = fold_json (0, NULL, "--src bdates --dst fz --bucket-rows 10 --block-compressor zstd --verify");
   char *err = NULL;

   assert_true (jbool (s, "verify.equal"));
   assert_string_equal (jstr (s, "block_compressor"), "zstd");
   if (!strcmp (backend, "wiredtiger")) {
      assert_string_equal (jstr (s, "block_compressor_note"), "table config block_compressor=zstd (level 6)");
   } else {
      /* mongod keeps it in the collection's options; FerretDB accepts the field and ignores it */
      assert_true (strstr (jstr (s, "block_compressor_note"), "kept in the collection's options") ||
                   strstr (jstr (s, "block_compressor_note"), "ignored by the server"));
   }
   bson_destroy (s);
   /* a later run without the option reads it back */
   s = fold_json (0, NULL, "--src bdates --dst fz --verify");
   assert_string_equal (jstr (s, "mode"), "verify");
   assert_true (jbool (s, "verify.equal"));
   bson_destroy (s);
   assert_int_equal (fold (NULL, &err, NULL, "--src bdates --dst fz --drop-dst --block-compressor lz4"), 2);
   assert_non_null (strstr (err, "none, snappy, zlib, zstd"));
   bson_free (err);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_fold_oversize_verify),
      cmocka_unit_test (test_parallel_same),
      cmocka_unit_test (test_kill_then_resume),
      cmocka_unit_test (test_refusals),
      cmocka_unit_test (test_key_and_refold_refusals),
      cmocka_unit_test (test_oversize_reject_fail),
      cmocka_unit_test (test_verify_catches_damage),
      cmocka_unit_test (test_empty_and_key_types),
      cmocka_unit_test (test_write_errors_reported),
      cmocka_unit_test (test_plan_writes_nothing),
      cmocka_unit_test (test_create_index),
      cmocka_unit_test (test_verify_small_batches),
      cmocka_unit_test (test_bucket_rows_fold),
      cmocka_unit_test (test_bucket_by_fold),
      cmocka_unit_test (test_block_compressor),
      cmocka_unit_test (test_kill_between_drops),
   };
   int rc = lab_test_run_group ("fold_cli", tests, setup, teardown);

   bson_destroy (f1_summary);
   return rc;
}
