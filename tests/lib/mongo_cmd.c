/*
 * mongo_cmd.c -- test-mongo-cmd: run one command on a MongoDB server, outside layoutlab, for shell tests
 * that need a writer other than the tools themselves (the user's own collections, which layoutlab must
 * leave untouched) or a look at a collection's content.
 *
 *   test-mongo-cmd URI DB 'JSON command'   print the reply (canonical extended JSON, one line);
 *                                           exit 1 (the error on stderr) when the command fails
 *   test-mongo-cmd URI DB --dump COLL      print every document of COLL sorted by _id, one per line
 *                                           (a fingerprint of its content)
 */
#include <mongoc/mongoc.h>
#include <stdio.h>
#include <string.h>

int
main (int argc, char **argv)
{
   mongoc_client_t *client;
   mongoc_uri_t *uri;
   bson_error_t e;
   bson_t reply, *cmd;
   char *s;
   int rc = 1;

   if (argc != 4 && !(argc == 5 && strcmp (argv[3], "--dump") == 0)) {
      fprintf (stderr, "usage: test-mongo-cmd URI DB 'JSON command' | URI DB --dump COLL\n");
      return 2;
   }
   mongoc_init ();
   mongoc_log_set_handler (NULL, NULL); /* FerretDB has no endSessions: libmongoc warns at every exit */
   uri = mongoc_uri_new_with_error (argv[1], &e);
   if (!uri) {
      fprintf (stderr, "test-mongo-cmd: %s\n", e.message);
      return 2;
   }
   client = mongoc_client_new_from_uri (uri);
   mongoc_client_set_error_api (client, MONGOC_ERROR_API_VERSION_2);
   if (argc == 5) {
      mongoc_collection_t *c = mongoc_client_get_collection (client, argv[2], argv[4]);
      bson_t filter = BSON_INITIALIZER, opts = BSON_INITIALIZER, sort;
      mongoc_cursor_t *cur;
      const bson_t *doc;

      BSON_APPEND_DOCUMENT_BEGIN (&opts, "sort", &sort);
      BSON_APPEND_INT32 (&sort, "_id", 1);
      bson_append_document_end (&opts, &sort);
      cur = mongoc_collection_find_with_opts (c, &filter, &opts, NULL);
      while (mongoc_cursor_next (cur, &doc)) {
         s = bson_as_canonical_extended_json (doc, NULL);
         printf ("%s\n", s);
         bson_free (s);
      }
      rc = mongoc_cursor_error (cur, &e) ? 1 : 0;
      if (rc) {
         fprintf (stderr, "test-mongo-cmd: %s\n", e.message);
      }
      mongoc_cursor_destroy (cur);
      bson_destroy (&opts);
      bson_destroy (&filter);
      mongoc_collection_destroy (c);
   } else {
      cmd = bson_new_from_json ((const uint8_t *)argv[3], -1, &e);
      if (!cmd) {
         fprintf (stderr, "test-mongo-cmd: the command is not JSON: %s\n", e.message);
         rc = 2;
      } else {
         bool ok = mongoc_client_command_simple (client, argv[2], cmd, NULL, &reply, &e);
         s = bson_as_canonical_extended_json (&reply, NULL);
         printf ("%s\n", s);
         bson_free (s);
         if (!ok) {
            fprintf (stderr, "test-mongo-cmd: %s\n", e.message);
         }
         rc = ok ? 0 : 1;
         bson_destroy (&reply);
         bson_destroy (cmd);
      }
   }
   mongoc_client_destroy (client);
   mongoc_uri_destroy (uri);
   mongoc_cleanup ();
   return rc;
}
