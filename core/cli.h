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
#include "opts.h"
#include "progress.h"

#define LAB_VERSION "0.1.0"

typedef struct {
   const char *uri;              /* --uri (default lab_uri_default()) */
   const char *db;               /* --db (NULL: the URI's, else "layoutlab") */
   bool quiet;                   /* -q/--quiet */
   int verbose;                  /* -v/--verbose, repeatable */
   lab_progress_mode_t progress; /* --progress auto|always|never */
   const char *json_path;        /* --json FILE|- (NULL: none) */
   uint64_t cache_size_bytes;    /* --cache-size (0: mongod's rule) */
   int32_t server_timeout_ms;    /* --server-timeout (default LAB_CLI_SERVER_TIMEOUT_MS): MongoDB server
                                  * selection and connect timeout unless the URI sets them */
   bool help;                    /* -h/--help or --help-all seen */
   bool help_all;                /* --help-all seen: every option, not the short help */
   bool version;                 /* --version seen */
} lab_cli_common_t;

/* The default --server-timeout: how long an unreachable server may take to fail (libmongoc's own default
 * server selection waits 30 s). */
#define LAB_CLI_SERVER_TIMEOUT_MS 5000

/* lab_cli_common_init -- defaults (uri from $LAYOUTLAB_URI else wiredtiger:./layoutlab-data). */
void lab_cli_common_init (lab_cli_common_t *c);

/* lab_cli_common_take -- if argv[*i] is a common option, consume it (advancing *i past its value) and
 * return 1; return 0 when it is not a common option; -1 with *error (LAB_ERROR_USAGE) on a bad value.
 * (Tools use lab_cli_parse, which also refuses the common options a tool does not use.) */
int lab_cli_common_take (lab_cli_common_t *c, int argc, char **argv, int *i, bson_error_t *error);

/* lab_cli_value -- if argv[*i] is `name` or `name=...`, set *value to the option's value (the next
 * argument or the text after '='), advance *i accordingly and return 1; 0 if it is another option;
 * -1 with *error when the value is missing. */
int lab_cli_value (int argc, char **argv, int *i, const char *name, const char **value, bson_error_t *error);

/* ---- option tables ---------------------------------------------------------------------------------
 * Every tool describes its options as a table of lab_cli_opt_t (ended by an entry with name NULL) and
 * calls lab_cli_parse once: it fills the fields the table points at, takes the common options, collects
 * the positional arguments, and reports unknown options, missing and bad values as LAB_ERROR_USAGE.
 * Example:
 *    static const char *const modes[] = {"split", "reject", "fail", NULL};
 *    lab_cli_opt_t opts[] = {
 *       LAB_CLI_OPT_STRING ("--src", 0, &o.src),
 *       LAB_CLI_OPT_INT ("--parallel", 0, &o.parallel, 1, 64),
 *       LAB_CLI_OPT_ENUM ("--on-oversize", 0, &o.on_oversize, modes),
 *       LAB_CLI_OPT_FLAG ("--verify", 0, &verify),
 *       LAB_CLI_OPT_END,
 *    };
 *    lab_cli_spec_t spec = {.opts = opts, .common = &common};
 *    if (!lab_cli_parse (&spec, argc, argv, 1, &error)) -> exit 2
 * Value checks that need more than the kind's syntax (ranges between options, "is it below 1 KiB") belong
 * to the library's option check, not to the table. */

typedef enum {
   LAB_CLI_FLAG,        /* bool *: set true */
   LAB_CLI_COUNT,       /* int *: incremented each time (-v -v) */
   LAB_CLI_STRING,      /* const char **: the value (the last one given wins) */
   LAB_CLI_INT,         /* a signed or size_t field of `size` bytes: a decimal within [min, max] */
   LAB_CLI_DOUBLE,      /* double *: a decimal number */
   LAB_CLI_SIZE,        /* uint64_t *: bytes with K/M/G suffixes (lab_parse_size) */
   LAB_CLI_DURATION,    /* uint64_t *: nanoseconds, "250ms", "2s" (lab_parse_duration_ns) */
   LAB_CLI_DURATION_MS, /* int32_t *: a duration in milliseconds, capped at INT32_MAX */
   LAB_CLI_ENUM,        /* an enum field of `size` bytes: the index of the value in `choices` */
   LAB_CLI_FLAG_ENUM,   /* a flag with an optional value, given only as --opt=NAME: `seen` set either way,
                         * the enum field (as LAB_CLI_ENUM) only with a value (--verify[=ordered]) */
   LAB_CLI_LIST,        /* lab_cli_list_t *: repeatable, every value appended */
   LAB_CLI_SIZES,       /* lab_sizes_t *: "64MiB,256MiB", strictly ascending (lab_parse_sizes, opts.h) */
   LAB_CLI_RATIOS,      /* lab_ratios_t *: "0.25,1,2", positive, strictly ascending (lab_parse_ratios) */
   LAB_CLI_CUSTOM,      /* parse (value, field, name, error) */
   LAB_CLI_ALIAS,       /* another spelling of option `alias_of` (this table's, or a common option) */
   LAB_CLI_REFUSED,     /* a name users bring that this tool does not take: a usage error saying `why` */
} lab_cli_kind_t;

/* lab_cli_list_t -- the values of a repeatable option or the positional arguments (pointers into argv). */
typedef struct {
   const char **v;
   size_t n;
} lab_cli_list_t;

/* lab_cli_list_free -- free the list's array (not the strings, which belong to argv). */
void lab_cli_list_free (lab_cli_list_t *l);

typedef bool (*lab_cli_parse_fn) (const char *value, void *field, const char *name, bson_error_t *error);

typedef struct {
   const char *name; /* "--bills"; NULL ends a table */
   char short_name;  /* 'o' for -o, 0 for none */
   lab_cli_kind_t kind;
   void *field;                /* where the value goes (see the kinds) */
   size_t size;                /* LAB_CLI_INT, LAB_CLI_ENUM: sizeof the field */
   int64_t min, max;           /* LAB_CLI_INT */
   const char *const *choices; /* LAB_CLI_ENUM: names, NULL-terminated, in the enum's order */
   lab_cli_parse_fn parse;     /* LAB_CLI_CUSTOM */
   bool *seen;                 /* optional: set true when the option is given */
   const char *alias_of;       /* LAB_CLI_ALIAS: the option this spelling stands for ("--out") */
   const char *why;            /* LAB_CLI_REFUSED: what to do instead, the rest of the message */
   const char *noun;           /* LAB_CLI_SIZES, LAB_CLI_RATIOS: what the list holds ("cache sizes") */
   const char *hint;           /* ... and what a value is, for a bad one ("give e.g. 64MiB,1GiB") */
} lab_cli_opt_t;

#define LAB_CLI_OPT_FLAG(n, s, p)                                                                            \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_FLAG, .field = (p)                                     \
   }
#define LAB_CLI_OPT_STRING(n, s, p)                                                                          \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_STRING, .field = (p)                                   \
   }
#define LAB_CLI_OPT_INT(n, s, p, lo, hi)                                                                     \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_INT, .field = (p), .size = sizeof *(p), .min = (lo),   \
      .max = (hi)                                                                                            \
   }
#define LAB_CLI_OPT_DOUBLE(n, s, p)                                                                          \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_DOUBLE, .field = (p)                                   \
   }
#define LAB_CLI_OPT_SIZE(n, s, p)                                                                            \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_SIZE, .field = (p)                                     \
   }
#define LAB_CLI_OPT_DURATION(n, s, p)                                                                        \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_DURATION, .field = (p)                                 \
   }
#define LAB_CLI_OPT_DURATION_MS(n, s, p)                                                                     \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_DURATION_MS, .field = (p)                              \
   }
#define LAB_CLI_OPT_ENUM(n, s, p, names)                                                                     \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_ENUM, .field = (p), .size = sizeof *(p),               \
      .choices = (names)                                                                                     \
   }
#define LAB_CLI_OPT_FLAG_ENUM(n, s, flag, p, names)                                                          \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_FLAG_ENUM, .field = (p), .size = sizeof *(p),          \
      .choices = (names), .seen = (flag)                                                                     \
   }
#define LAB_CLI_OPT_LIST(n, s, p)                                                                            \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_LIST, .field = (p)                                     \
   }
/* LAB_CLI_OPT_SIZES / LAB_CLI_OPT_RATIOS -- a sorted list, parsed and checked once into its field (the last
 * one given wins; the main frees it with lab_sizes_free / lab_ratios_free). */
#define LAB_CLI_OPT_SIZES(n, s, p, what, why)                                                                \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_SIZES, .field = (p), .noun = (what), .hint = (why)     \
   }
#define LAB_CLI_OPT_RATIOS(n, s, p, what, why)                                                               \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_RATIOS, .field = (p), .noun = (what), .hint = (why)    \
   }
#define LAB_CLI_OPT_CUSTOM(n, s, p, fn)                                                                      \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_CUSTOM, .field = (p), .parse = (fn)                    \
   }
/* LAB_CLI_OPT_ALIAS -- `n` (and -s) is another spelling of `of`: an old name kept ("--output" for "--out")
 * or a neighbouring tool's ("--collection" for "--dst", mongoimport's); `of` may be a common option. */
#define LAB_CLI_OPT_ALIAS(n, s, of)                                                                          \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_ALIAS, .alias_of = (of)                                \
   }
/* LAB_CLI_OPT_REFUSED -- `n` is refused with "n: why" (exit 2): a name users bring for something this tool
 * does differently, e.g. -o on a tool whose output is a collection. */
#define LAB_CLI_OPT_REFUSED(n, s, w)                                                                         \
   {                                                                                                         \
      .name = (n), .short_name = (s), .kind = LAB_CLI_REFUSED, .why = (w)                                    \
   }
#define LAB_CLI_OPT_END                                                                                      \
   {                                                                                                         \
      .name = NULL                                                                                           \
   }

/* The common options, as bits of lab_cli_spec_t.common_refused: a tool refuses those it does not use
 * (layout-report opens no store: --uri, --db, --cache-size and --progress would be accepted and ignored). */
#define LAB_CLI_COMMON_HELP 0x001u
#define LAB_CLI_COMMON_VERSION 0x002u
#define LAB_CLI_COMMON_QUIET 0x004u
#define LAB_CLI_COMMON_VERBOSE 0x008u
#define LAB_CLI_COMMON_URI 0x010u
#define LAB_CLI_COMMON_DB 0x020u
#define LAB_CLI_COMMON_JSON 0x040u
#define LAB_CLI_COMMON_PROGRESS 0x080u
#define LAB_CLI_COMMON_CACHE_SIZE 0x100u
#define LAB_CLI_COMMON_SERVER_TIMEOUT 0x200u
/* the options of a tool that opens no store */
#define LAB_CLI_COMMON_STORE                                                                                 \
   (LAB_CLI_COMMON_URI | LAB_CLI_COMMON_DB | LAB_CLI_COMMON_CACHE_SIZE | LAB_CLI_COMMON_SERVER_TIMEOUT)

typedef struct {
   const lab_cli_opt_t *opts;   /* the tool's table */
   lab_cli_common_t *common;    /* the common options (NULL: not accepted) */
   lab_cli_list_t *positionals; /* arguments that are not options, and "-" (NULL: refused) */
   unsigned common_refused;     /* LAB_CLI_COMMON_* bits of common options this tool does not use */
   const char *refused_why;     /* why, ending their message: "layout-report reads only its results file" */
} lab_cli_spec_t;

/* lab_cli_parse -- parse argv[first..argc) by `spec`: `--opt VALUE`, `--opt=VALUE`, `-o VALUE`, aliases
 * (LAB_CLI_OPT_ALIAS: set the option they stand for), the common options, positionals (everything after
 * "--" too). False with *error (LAB_ERROR_USAGE) on an unknown option ("unknown option '--dts' (did you
 * mean --dst? try --help)": the nearest name of the table, its aliases and the accepted common options,
 * when one is near), a common option the spec refuses ("option --uri is not used here: <refused_why>"),
 * a LAB_CLI_OPT_REFUSED name ("-o: <why>"), a missing value ("option --x needs a value"), a bad value (the
 * kind's message) or a positional where none is accepted. On failure positionals and LAB_CLI_LIST fields
 * may hold what was collected: free them anyway. */
bool lab_cli_parse (const lab_cli_spec_t *spec, int argc, char **argv, int first, bson_error_t *error);

/* ---- the --json summary header ---------------------------------------------------------------------
 * Every tool's summary starts with the same fields: tool, version, command_line (argv, any URI in it
 * redacted), started and finished (UTC ISO-8601), elapsed_s (the whole process), exit_code, ok, and
 * error (when the run failed); the tool's own fields follow. */

typedef struct {
   const char *tool;
   int argc;
   char **argv;
   int64_t started_ms; /* wall clock, ms since the epoch */
   uint64_t t0_ns;     /* monotonic */
} lab_cli_run_t;

/* lab_cli_run_start -- note the tool, its arguments and the start time (call first thing in main). */
void lab_cli_run_start (lab_cli_run_t *run, const char *tool, int argc, char **argv);

/* lab_cli_summary_init -- init `doc` with the header fields; `error` NULL or the failure to report. */
void lab_cli_summary_init (bson_t *doc, const lab_cli_run_t *run, int exit_code, const bson_error_t *error);

/* lab_cli_arg_redacted -- one argument as it may be shown: URIs (also after "--opt=") redacted;
 * caller bson_free()s. */
char *lab_cli_arg_redacted (const char *arg);

/* lab_cli_shell_quote -- append `arg` to `out` as a POSIX shell word: as it is when it holds only
 * characters no shell interprets, else single-quoted ('\'' for a quote inside). */
void lab_cli_shell_quote (bson_string_t *out, const char *arg);

/* lab_cli_command_line_append -- append `key`: [argv[0], ..., argv[argc-1]] to doc, each argument
 * through lab_cli_arg_redacted (the summaries' and scancmp's results file's command_line). */
void lab_cli_command_line_append (bson_t *doc, const char *key, int argc, char *const *argv);

/* lab_cli_usage_exit -- log a usage error and return LAB_EXIT_USAGE (for a main's `return`). */
int lab_cli_usage_exit (const bson_error_t *error);

/* lab_cli_common_help -- the help text of the common options, for each tool's usage (--help-all). */
const char *lab_cli_common_help (void);

/* lab_cli_common_help_short -- the common options in three lines, for each tool's short --help. */
const char *lab_cli_common_help_short (void);

/* lab_cli_edit_distance -- the optimal-string-alignment distance of a and b (insertions, deletions,
 * substitutions and swaps of two neighbours each cost 1), capped at `cap` + 1. Pure. */
size_t lab_cli_edit_distance (const char *a, const char *b, size_t cap);

/* lab_log_set -- verbosity from the common options (quiet: errors only) and the stderr sink (log.h). */
void lab_log_set (const lab_cli_common_t *c);

/* lab_json_write -- write `doc` as relaxed extended JSON (pretty, one key per line) to `path` ("-" is
 * stdout). Files are written to a temporary name and renamed, so a failure never leaves a partial file. */
bool lab_json_write (const bson_t *doc, const char *path, bson_error_t *error);

/* lab_json_pretty -- relaxed extended JSON of doc, indented by two spaces; caller bson_free()s. */
char *lab_json_pretty (const bson_t *doc);

/* lab_cli_output_check -- before any work: `path` (an output file option's value; "-" is stdout and
 * always fine) can be written: its directory exists, is a directory, and a file can be created in it
 * (a temporary file is created there and removed). LAB_ERROR_USAGE naming `what` (the option) and the
 * directory otherwise, so a tool fails in a second instead of after its measurements. NULL is fine. */
bool lab_cli_output_check (const char *path, const char *what, bson_error_t *error);

/* lab_path_is_special -- `path` exists and is neither a regular file nor a directory (/dev/null, a FIFO, a
 * terminal): an output there is written in place, never through a temporary file renamed over it (which
 * would replace /dev/null with a regular file for everyone). */
bool lab_path_is_special (const char *path);

/* lab_file_write_atomic -- write `len` bytes to `path` via a temporary file + rename (in place when
 * lab_path_is_special). */
bool lab_file_write_atomic (const char *path, const void *data, size_t len, bson_error_t *error);

/* lab_cli_can_ask -- stdin and stderr are both terminals: a question can be put to the user (cli_ask.c). */
bool lab_cli_can_ask (void);

/* lab_cli_confirm_tty -- `question` then " [y/N] " on stderr, and one line read from stdin: true for "y",
 * "Y" or "yes", false for anything else and at the end of input. The mains pass it (when lab_cli_can_ask)
 * where a library takes a confirm callback (store/mark.h, lab_store_mark_confirm_fn); `ctx` unused. */
bool lab_cli_confirm_tty (const char *question, void *ctx);

#endif
