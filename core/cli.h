/*
 * cli.h -- what every layoutlab tool's main shares: the common options (DESIGN.md), option-value
 * matching in both `--opt VALUE` and `--opt=VALUE` forms, the log sink setup, and JSON summaries.
 */
#ifndef LAB_CLI_H
#define LAB_CLI_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

#include "log.h"
#include "progress.h"

#define LAB_VERSION "0.1.0"

typedef struct {
   const char *uri;            /* --uri (default lab_uri_default()) */
   const char *db;             /* --db (NULL: the URI's, else "layoutlab") */
   bool quiet;                 /* -q/--quiet */
   int verbose;                /* -v/--verbose, repeatable */
   lab_progress_mode_t progress; /* --progress auto|always|never */
   const char *json_path;      /* --json FILE|- (NULL: none) */
   uint64_t cache_size_bytes;  /* --cache-size (0: mongod's rule) */
   bool help;                  /* -h/--help seen */
   bool version;               /* --version seen */
} lab_cli_common_t;

/* lab_cli_common_init -- defaults (uri from $LAYOUTLAB_URI else wiredtiger:./layoutlab-data). */
void lab_cli_common_init (lab_cli_common_t *c);

/* lab_cli_common_take -- if argv[*i] is a common option, consume it (advancing *i past its value) and
 * return 1; return 0 when it is not a common option; -1 with *error (LAB_ERROR_USAGE) on a bad value. */
int lab_cli_common_take (lab_cli_common_t *c, int argc, char **argv, int *i, bson_error_t *error);

/* lab_cli_value -- if argv[*i] is `name` or `name=...`, set *value to the option's value (the next
 * argument or the text after '='), advance *i accordingly and return 1; 0 if it is another option;
 * -1 with *error when the value is missing. */
int lab_cli_value (int argc, char **argv, int *i, const char *name, const char **value, bson_error_t *error);

/* lab_cli_common_help -- the help text of the common options, for each tool's usage. */
const char *lab_cli_common_help (void);

/* lab_log_set -- verbosity from the common options (quiet: errors only) and the stderr sink (log.h). */
void lab_log_set (const lab_cli_common_t *c);

/* lab_json_write -- write `doc` as relaxed extended JSON (pretty, one key per line) to `path` ("-" is
 * stdout). Files are written to a temporary name and renamed, so a failure never leaves a partial file. */
bool lab_json_write (const bson_t *doc, const char *path, bson_error_t *error);

/* lab_json_pretty -- relaxed extended JSON of doc, indented by two spaces; caller bson_free()s. */
char *lab_json_pretty (const bson_t *doc);

/* lab_file_write_atomic -- write `len` bytes to `path` via a temporary file + rename. */
bool lab_file_write_atomic (const char *path, const void *data, size_t len, bson_error_t *error);

#endif
