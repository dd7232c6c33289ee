/*
 * store_cmd.c -- test-store-cmd: one write or read through the store library, as a program that is not
 * a layoutlab tool (no marker, no index record unless written by hand), for shell tests on the embedded
 * store -- where test-mongo-cmd cannot go.
 *
 *   test-store-cmd URI DB insert COLL 'JSON'       insert one document (the collection created bare)
 *   test-store-cmd URI DB upsert COLL 'JSON'       replace or insert by _id (a marker, an index record)
 *   test-store-cmd URI DB index COLL F1[,F2...]    build the ascending index of that key pattern
 *   test-store-cmd URI DB dump COLL                every document, natural order, one per line
 *   test-store-cmd URI DB has-index COLL F1[,...]  print "yes" or "no"
 *   test-store-cmd URI DB CMD ARGS + CMD ARGS ...  several of them, in order, on one open of the store (a
 *                                                  shell test's fingerprint of a store: one open, not ten)
 * Exit 0, or 1 with the error on stderr (the commands after a failed one not run; 2: usage).
 */
#include "store/store.h"

#include <stdio.h>
#include <string.h>

/* parse_spec -- "a,b" into spec (pointers into buf). */
static void
parse_spec (char *buf, lab_store_index_spec_t *spec)
{
   char *save = NULL, *f;

   memset (spec, 0, sizeof *spec);
   for (f = strtok_r (buf, ",", &save); f && spec->n < LAB_STORE_INDEX_MAX_FIELDS;
        f = strtok_r (NULL, ",", &save)) {
      spec->fields[spec->n++] = f;
   }
}

/* run -- the command argv[0] (its collection argv[1], its argument argv[2]) on the store's session;
 * false with error set. */
static bool
run (lab_store_session_t *sess, char **argv, bson_error_t *error)
{
   const char *cmd = argv[0], *coll = argv[1];
   lab_store_index_spec_t spec;
   bool ok = false;

   if (!strcmp (cmd, "insert") || !strcmp (cmd, "upsert")) {
      bson_t *doc = bson_new_from_json ((const uint8_t *)argv[2], -1, error);
      lab_store_insert_result_t res = { 0 };
      if (doc) {
         ok = !strcmp (cmd, "upsert")
                 ? lab_store_upsert_by_id (sess, coll, doc, error)
                 : lab_store_insert_many (sess, coll, (const bson_t *const *)&doc, 1, &res, error) &&
                      res.nerrors == 0;
         lab_store_insert_result_cleanup (&res);
         bson_destroy (doc);
      }
   } else if (!strcmp (cmd, "index") || !strcmp (cmd, "has-index")) {
      bool exists = false, multikey = false;
      int64_t size = -1;
      parse_spec (argv[2], &spec);
      if (!strcmp (cmd, "index")) {
         ok = lab_store_create_index_spec (sess, coll, &spec, error);
      } else if ((ok = lab_store_index_info (sess, coll, &spec, &exists, &multikey, &size, error))) {
         printf ("%s\n", exists ? "yes" : "no");
      }
   } else if (!strcmp (cmd, "dump")) {
      lab_store_cursor_t *cur = lab_store_natural_open (sess, coll, NULL, error);
      const bson_t *doc;
      int r = -1;
      while (cur && (r = lab_store_cursor_next (cur, &doc, error)) == 1) {
         char *s = bson_as_canonical_extended_json (doc, NULL);
         printf ("%s\n", s);
         bson_free (s);
      }
      lab_store_cursor_close (cur);
      ok = r == 0;
   } else {
      bson_set_error (error, 0, 2, "unknown command '%s'", cmd);
   }
   return ok;
}

/* nargs -- the words of the command at argv[i] (itself included), or 0 when argc leaves too few or its
 * last word is not followed by the end or "+". */
static int
nargs (int argc, char **argv, int i)
{
   int n = !strcmp (argv[i], "dump") ? 2 : 3;

   return i + n <= argc && (i + n == argc || !strcmp (argv[i + n], "+")) ? n : 0;
}

int
main (int argc, char **argv)
{
   lab_store_opts_t so = { .create = true };
   lab_store_t *store;
   lab_store_session_t *sess = NULL;
   bson_error_t error = { 0 };
   bool ok;
   int i, n;

   for (i = 3; i < argc && (n = nargs (argc, argv, i)) > 0; i += n + 1) {
   }
   if (argc < 5 || i != argc + 1) {
      fprintf (stderr,
               "usage: test-store-cmd URI DB insert|upsert COLL JSON | index|has-index COLL F1[,F2] | "
               "dump COLL [+ another of them]...\n");
      return 2;
   }
   so.db = argv[2];
   store = lab_store_open (argv[1], &so, &error);
   ok = store && (sess = lab_store_session_open (store, &error));
   for (i = 3; ok && i < argc; i += nargs (argc, argv, i) + 1) {
      ok = run (sess, argv + i, &error);
   }
   if (!ok) {
      fprintf (stderr, "test-store-cmd: %s\n", error.message);
   }
   lab_store_session_close (sess);
   lab_store_close (store);
   return ok ? 0 : 1;
}
