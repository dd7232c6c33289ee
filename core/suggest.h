/*
 * suggest.h -- the command lines a tool or a report suggests (fold-details, scancmp, billgen): each names
 * the store it is about, --uri (redacted) and --db, so that it works from any directory and never falls
 * back to the default store (wiredtiger:./layoutlab-data, created empty where it is run). One builder for
 * all of them; layout-report opens no store, so its commands carry neither.
 */
#ifndef LAB_SUGGEST_H
#define LAB_SUGGEST_H

#include <bson/bson.h>

/* lab_suggest_begin -- append "TOOL --uri URI --db DB" to `out`: `tool` as given (with its subcommand:
 * "billgen generate"), `uri` through lab_uri_redact (NULL: lab_uri_default()), then --db unless `db` is
 * NULL or empty. Each value a shell word (lab_cli_shell_quote). */
void lab_suggest_begin (bson_string_t *out, const char *tool, const char *uri, const char *db);

/* lab_suggest_argv -- append argv[first..argc) as shell words, each preceded by a space, leaving out --uri
 * and --db with their values (lab_suggest_begin said them): a recorded or current command line rebuilt
 * around the store it names. */
void lab_suggest_argv (bson_string_t *out, int argc, char *const *argv, int first);

/* lab_suggest_command -- "TOOL --uri URI --db DB ARGS" as a new string (caller bson_free()s): `args` are
 * appended as written (already shell words), after one space; NULL or "" adds nothing. */
char *lab_suggest_command (const char *tool, const char *uri, const char *db, const char *args);

#endif
