/*
 * store_dump.c -- test-store-dump: a collection's content and chosen indexes as the store sees them, on
 * either backend, for shell tests that prove a tool left a collection unchanged (an embedded store has no
 * client of its own; on a server tests/lib/mongo_cmd.c reads it as a client that is not layoutlab).
 *
 *   test-store-dump URI DB COLL [--index F1[,F2...]]...
 *       every document of COLL in natural order, one canonical extended JSON line each, then one line
 *       "index F1,F2: yes|no" per --index (whether an index with exactly that key pattern exists)
 * Exit 1 with the error on stderr when the store cannot be read.
 */
#include "store/store.h"

#include <stdio.h>
#include <string.h>

/* print_doc -- one document as a line. */
static bool
print_doc (const bson_t *doc, void *ctx)
{
   char *s = bson_as_canonical_extended_json (doc, NULL);

   (void)ctx;
   printf ("%s\n", s);
   bson_free (s);
   return true;
}

int
main (int argc, char **argv)
{
   lab_store_opts_t so = { 0 };
   lab_store_t *store;
   lab_store_session_t *sess = NULL;
   lab_store_cursor_t *cur = NULL;
   const bson_t *doc;
   bson_error_t e;
   int i, r, rc = 1;

   if (argc < 4 || (argc - 4) % 2 != 0) {
      fprintf (stderr, "usage: test-store-dump URI DB COLL [--index F1[,F2...]]...\n");
      return 2;
   }
   so.db = argv[2];
   store = lab_store_open (argv[1], &so, &e);
   if (!store || !(sess = lab_store_session_open (store, &e))) {
      goto done;
   }
   cur = lab_store_natural_open (sess, argv[3], NULL, &e);
   if (!cur) {
      goto done;
   }
   while ((r = lab_store_cursor_next (cur, &doc, &e)) > 0) {
      print_doc (doc, NULL);
   }
   if (r < 0) {
      goto done;
   }
   for (i = 4; i < argc; i += 2) {
      lab_store_index_spec_t spec = { { NULL }, 0 };
      char *fields = bson_strdup (argv[i + 1]), *save = NULL, *f;
      bool exists = false, multikey = false;
      int64_t size = -1;

      for (f = strtok_r (fields, ",", &save); f && spec.n < LAB_STORE_INDEX_MAX_FIELDS;
           f = strtok_r (NULL, ",", &save)) {
         spec.fields[spec.n++] = f;
      }
      if (!lab_store_index_info (sess, argv[3], &spec, &exists, &multikey, &size, &e)) {
         bson_free (fields);
         goto done;
      }
      printf ("index %s: %s\n", argv[i + 1], exists ? "yes" : "no");
      bson_free (fields);
   }
   rc = 0;
done:
   if (rc) {
      fprintf (stderr, "test-store-dump: %s\n", e.message);
   }
   lab_store_cursor_close (cur);
   lab_store_session_close (sess);
   lab_store_close (store);
   return rc;
}
