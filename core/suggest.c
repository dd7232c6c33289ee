/*
 * suggest.c -- the command lines the tools and the report suggest, each naming its store (suggest.h).
 */
#include "suggest.h"

#include "cli.h"
#include "uri.h"

#include <string.h>

/* lab_suggest_begin -- see suggest.h. */
void
lab_suggest_begin (bson_string_t *out, const char *tool, const char *uri, const char *db)
{
   char *redacted = lab_uri_redact (uri ? uri : lab_uri_default ());

   bson_string_append (out, tool);
   bson_string_append (out, " --uri ");
   lab_cli_shell_quote (out, redacted);
   if (db && *db) {
      bson_string_append (out, " --db ");
      lab_cli_shell_quote (out, db);
   }
   bson_free (redacted);
}

/* is_store_opt -- argv[i] is --uri or --db: *skip is how many words it takes (1 inline "--uri=x", 2 with
 * its value next). */
static bool
is_store_opt (const char *a, int *skip)
{
   static const char *const names[] = { "--uri", "--db" };
   size_t k, n;

   for (k = 0; k < sizeof names / sizeof names[0]; k++) {
      n = strlen (names[k]);
      if (strncmp (a, names[k], n) == 0 && (a[n] == '\0' || a[n] == '=')) {
         *skip = a[n] == '=' ? 1 : 2;
         return true;
      }
   }
   return false;
}

/* lab_suggest_argv -- see suggest.h. */
void
lab_suggest_argv (bson_string_t *out, int argc, char *const *argv, int first)
{
   int i, skip;

   for (i = first; i < argc; i++) {
      if (is_store_opt (argv[i], &skip)) {
         i += skip - 1;
         continue;
      }
      bson_string_append_c (out, ' ');
      lab_cli_shell_quote (out, argv[i]);
   }
}

/* lab_suggest_command -- see suggest.h. */
char *
lab_suggest_command (const char *tool, const char *uri, const char *db, const char *args)
{
   bson_string_t *s = bson_string_new (NULL);

   lab_suggest_begin (s, tool, uri, db);
   if (args && *args) {
      bson_string_append_c (s, ' ');
      bson_string_append (s, args);
   }
   return bson_string_free (s, false);
}
