/*
 * cli.c -- the common options every tool accepts, option-value matching and the parse, the run's command
 * line and summary, the log sink setup (output files: cli_out.c).
 */
#include "cli.h"

#include "alloc.h"
#include "error.h"
#include "opts.h"
#include "uri.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void
lab_cli_common_init (lab_cli_common_t *c)
{
   memset (c, 0, sizeof *c);
   c->uri = lab_uri_default ();
   c->progress = LAB_PROGRESS_AUTO;
   c->server_timeout_ms = LAB_CLI_SERVER_TIMEOUT_MS;
}

/* lab_cli_value -- match `name` or `name=value`; see cli.h. */
int
lab_cli_value (int argc, char **argv, int *i, const char *name, const char **value, bson_error_t *error)
{
   const char *a = argv[*i];
   size_t n = strlen (name);

   if (strncmp (a, name, n) != 0) {
      return 0;
   }
   if (a[n] == '=') {
      *value = a + n + 1;
      return 1;
   }
   if (a[n] != '\0') {
      return 0;
   }
   if (*i + 1 >= argc) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING_VALUE, "option %s needs a value", name);
      return -1;
   }
   (*i)++;
   *value = argv[*i];
   return 1;
}

/* The common options (DESIGN.md), by the bit a tool's spec refuses them with. */
typedef struct {
   const char *name;
   char short_name;
   unsigned bit;     /* LAB_CLI_COMMON_* */
   bool takes_value; /* --uri URI; false: a flag (-q) */
} common_opt_t;

static const common_opt_t common_opts[] = {
   { "--help", 'h', LAB_CLI_COMMON_HELP, false },
   { "--help-all", 0, LAB_CLI_COMMON_HELP, false },
   { "--version", 0, LAB_CLI_COMMON_VERSION, false },
   { "--quiet", 'q', LAB_CLI_COMMON_QUIET, false },
   { "--verbose", 'v', LAB_CLI_COMMON_VERBOSE, false },
   { "--uri", 0, LAB_CLI_COMMON_URI, true },
   { "--db", 0, LAB_CLI_COMMON_DB, true },
   { "--json", 0, LAB_CLI_COMMON_JSON, true },
   { "--progress", 0, LAB_CLI_COMMON_PROGRESS, true },
   { "--cache-size", 0, LAB_CLI_COMMON_CACHE_SIZE, true },
   { "--server-timeout", 0, LAB_CLI_COMMON_SERVER_TIMEOUT, true },
};
#define N_COMMON (sizeof common_opts / sizeof common_opts[0])

/* common_find -- the common option argument `a` names ("--uri", "--uri=x", "-q"), with its inline value
 * (after '=') in *inline_value; NULL when it names none. */
static const common_opt_t *
common_find (const char *a, const char **inline_value)
{
   size_t k, n;

   *inline_value = NULL;
   for (k = 0; k < N_COMMON; k++) {
      const common_opt_t *co = &common_opts[k];
      n = strlen (co->name);
      if (strncmp (a, co->name, n) == 0 && (a[n] == '\0' || (a[n] == '=' && co->takes_value))) {
         *inline_value = a[n] == '=' ? a + n + 1 : NULL;
         return co;
      }
      if (co->short_name && a[0] == '-' && a[1] == co->short_name && a[2] == '\0') {
         return co;
      }
   }
   return NULL;
}

/* common_apply -- set common option `co` (its value `v` when it takes one). */
static bool
common_apply (lab_cli_common_t *c, const common_opt_t *co, const char *v, bson_error_t *error)
{
   switch (co->bit) {
   case LAB_CLI_COMMON_HELP:
      c->help = true;
      c->help_all = c->help_all || strcmp (co->name, "--help-all") == 0;
      return true;
   case LAB_CLI_COMMON_VERSION:
      c->version = true;
      return true;
   case LAB_CLI_COMMON_QUIET:
      c->quiet = true;
      return true;
   case LAB_CLI_COMMON_VERBOSE:
      c->verbose++;
      return true;
   case LAB_CLI_COMMON_URI:
      c->uri = v;
      return true;
   case LAB_CLI_COMMON_DB:
      c->db = v;
      return true;
   case LAB_CLI_COMMON_JSON:
      c->json_path = v;
      return true;
   case LAB_CLI_COMMON_PROGRESS:
      if (!lab_progress_parse_mode (v, &c->progress)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--progress: '%s' is not one of auto, always, never", v);
         return false;
      }
      return true;
   case LAB_CLI_COMMON_CACHE_SIZE:
      if (!lab_parse_size (v, "--cache-size", &c->cache_size_bytes, error)) {
         return false;
      }
      if (c->cache_size_bytes < 1048576) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--cache-size: %s is below WiredTiger's minimum of 1MiB", v);
         return false;
      }
      return true;
   case LAB_CLI_COMMON_SERVER_TIMEOUT: {
      uint64_t ns;
      if (!lab_parse_duration_ns (v, "--server-timeout", &ns, error)) {
         return false;
      }
      if (ns < 1000000 || ns / 1000000 > INT32_MAX) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--server-timeout: %s is not between 1ms and 24d", v);
         return false;
      }
      c->server_timeout_ms = (int32_t)(ns / 1000000);
      return true;
   }
   default:
      return false;
   }
}

/* common_take -- common option `co` at argv[*i] (inline value `iv` or the next argument). */
static int
common_take (lab_cli_common_t *c, const common_opt_t *co, const char *iv, int argc, char **argv, int *i,
             bson_error_t *error)
{
   const char *v = iv;

   if (co->takes_value && !v) {
      if (*i + 1 >= argc) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING_VALUE, "option %s needs a value",
                        co->name);
         return -1;
      }
      v = argv[++(*i)];
   }
   return common_apply (c, co, v, error) ? 1 : -1;
}

/* lab_cli_common_take -- one common option at argv[*i], if it is one. */
int
lab_cli_common_take (lab_cli_common_t *c, int argc, char **argv, int *i, bson_error_t *error)
{
   const char *iv;
   const common_opt_t *co = common_find (argv[*i], &iv);

   return co ? common_take (c, co, iv, argc, argv, i, error) : 0;
}

/* lab_cli_list_free -- see cli.h. */
void
lab_cli_list_free (lab_cli_list_t *l)
{
   bson_free (l->v);
   l->v = NULL;
   l->n = 0;
}

/* list_add -- append one value (the array grows by doubling). */
static void
list_add (lab_cli_list_t *l, const char *v)
{
   if ((l->n & (l->n - 1)) == 0) {
      l->v = bson_realloc (l->v, (l->n ? l->n * 2 : 1) * sizeof *l->v);
   }
   l->v[l->n++] = v;
}

/* store_int -- write `v` into an integer field of `size` bytes. */
static void
store_int (void *field, size_t size, int64_t v)
{
   switch (size) {
   case 1:
      *(int8_t *)field = (int8_t)v;
      break;
   case 2:
      *(int16_t *)field = (int16_t)v;
      break;
   case 4:
      *(int32_t *)field = (int32_t)v;
      break;
   default:
      *(int64_t *)field = v;
   }
}

/* find_opt -- the table entry `a` names, with its inline value (after '=') in *inline_value. */
static const lab_cli_opt_t *
find_opt (const lab_cli_opt_t *opts, const char *a, const char **inline_value)
{
   const lab_cli_opt_t *o;

   *inline_value = NULL;
   for (o = opts; o && o->name; o++) {
      size_t n = strlen (o->name);
      if (strncmp (a, o->name, n) == 0 && (a[n] == '\0' || a[n] == '=')) {
         *inline_value = a[n] == '=' ? a + n + 1 : NULL;
         return o;
      }
      if (o->short_name && a[0] == '-' && a[1] == o->short_name && (a[2] == '\0' || a[2] == '=')) {
         *inline_value = a[2] == '=' ? a + 3 : NULL;
         return o;
      }
   }
   return NULL;
}

/* find_named -- the table entry called exactly `name`, or NULL. */
static const lab_cli_opt_t *
find_named (const lab_cli_opt_t *opts, const char *name)
{
   const lab_cli_opt_t *o;

   for (o = opts; o && o->name; o++) {
      if (o->kind != LAB_CLI_ALIAS && strcmp (o->name, name) == 0) {
         return o;
      }
   }
   return NULL;
}

/* lab_cli_edit_distance -- see cli.h (case-insensitive: --numinsertionworkers is one typo away). */
size_t
lab_cli_edit_distance (const char *a, const char *b, size_t cap)
{
   size_t la = strlen (a), lb = strlen (b), i, j, d;
   size_t *row0, *row1, *row2, *t;

   if ((la > lb ? la - lb : lb - la) > cap) {
      return cap + 1;
   }
   /* three rows: the one before the previous is needed for a swap of neighbours */
   row0 = bson_malloc0 ((lb + 1) * sizeof *row0);
   row1 = bson_malloc0 ((lb + 1) * sizeof *row1);
   row2 = bson_malloc0 ((lb + 1) * sizeof *row2);
   for (j = 0; j <= lb; j++) {
      row1[j] = j;
   }
   for (i = 1; i <= la; i++) {
      row2[0] = i;
      for (j = 1; j <= lb; j++) {
         size_t cost = tolower ((unsigned char)a[i - 1]) != tolower ((unsigned char)b[j - 1]);
         d = row1[j] + 1;
         if (row2[j - 1] + 1 < d) {
            d = row2[j - 1] + 1;
         }
         if (row1[j - 1] + cost < d) {
            d = row1[j - 1] + cost;
         }
         if (i > 1 && j > 1 && tolower ((unsigned char)a[i - 1]) == tolower ((unsigned char)b[j - 2]) &&
             tolower ((unsigned char)a[i - 2]) == tolower ((unsigned char)b[j - 1]) && row0[j - 2] + 1 < d) {
            d = row0[j - 2] + 1;
         }
         row2[j] = d;
      }
      t = row0;
      row0 = row1;
      row1 = row2;
      row2 = t;
   }
   d = row1[lb];
   bson_free (row0);
   bson_free (row1);
   bson_free (row2);
   return d > cap ? cap + 1 : d;
}

/* suggest_consider -- keep `cand` in *best when it is nearer to `typed` than what *best holds; a name of
 * n letters (dashes not counted) may be 1 (n <= 3), 2 (n <= 7) or 3 edits away. */
static void
suggest_consider (const char *typed, const char *cand, const char **best, size_t *best_d)
{
   size_t core = strspn (cand, "-"), n = strlen (cand) - core;
   size_t allowed = n <= 3 ? 1 : n <= 7 ? 2 : 3;
   size_t d = lab_cli_edit_distance (typed, cand, allowed);

   if (d <= allowed && d < *best_d) {
      *best = cand;
      *best_d = d;
   }
}

/* suggest -- the option name nearest to the unknown `a` (its '=' part left out) among the spec's table,
 * its aliases and the common options it accepts; else the one long name `a` is a prefix of (4 letters or
 * more); else NULL. */
static const char *
suggest (const lab_cli_spec_t *spec, const char *a)
{
   const char *eq = strchr (a, '='), *best = NULL, *prefixed = NULL;
   char *typed = eq ? bson_strndup (a, (size_t)(eq - a)) : bson_strdup (a);
   size_t best_d = SIZE_MAX, k, n = strlen (typed), nprefixed = 0;
   const lab_cli_opt_t *o;

   for (o = spec->opts; o && o->name; o++) {
      suggest_consider (typed, o->name, &best, &best_d);
      if (n >= 6 && strncmp (o->name, typed, n) == 0) {
         prefixed = o->name;
         nprefixed++;
      }
   }
   for (k = 0; spec->common && k < N_COMMON; k++) {
      if (!(spec->common_refused & common_opts[k].bit)) {
         suggest_consider (typed, common_opts[k].name, &best, &best_d);
         if (n >= 6 && strncmp (common_opts[k].name, typed, n) == 0) {
            prefixed = common_opts[k].name;
            nprefixed++;
         }
      }
   }
   bson_free (typed);
   return best ? best : nprefixed == 1 ? prefixed : NULL;
}

/* take_value -- convert `v` for option `o` into its field. */
static bool
take_value (const lab_cli_opt_t *o, const char *v, bson_error_t *error)
{
   int64_t n;
   uint64_t u;
   double d;
   char *end;
   size_t k;

   switch (o->kind) {
   case LAB_CLI_STRING:
      *(const char **)o->field = v;
      return true;
   case LAB_CLI_INT:
      if (!lab_parse_int (v, o->name, o->min, o->max, &n, error)) {
         return false;
      }
      store_int (o->field, o->size, n);
      return true;
   case LAB_CLI_DOUBLE:
      errno = 0;
      d = strtod (v, &end);
      if (!*v || *end || errno != 0 || d != d) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "%s: '%s' is not a number", o->name,
                        v);
         return false;
      }
      *(double *)o->field = d;
      return true;
   case LAB_CLI_SIZE:
      return lab_parse_size (v, o->name, (uint64_t *)o->field, error);
   case LAB_CLI_DURATION:
      return lab_parse_duration_ns (v, o->name, (uint64_t *)o->field, error);
   case LAB_CLI_DURATION_MS:
      if (!lab_parse_duration_ns (v, o->name, &u, error)) {
         return false;
      }
      u /= 1000000u;
      *(int32_t *)o->field = (int32_t)(u > INT32_MAX ? INT32_MAX : u);
      return true;
   case LAB_CLI_ENUM:
   case LAB_CLI_FLAG_ENUM: {
      bson_string_t *names;
      for (k = 0; o->choices[k]; k++) {
         if (strcmp (v, o->choices[k]) == 0) {
            store_int (o->field, o->size, (int64_t)k);
            return true;
         }
      }
      names = bson_string_new (NULL);
      for (k = 0; o->choices[k]; k++) {
         bson_string_append_printf (names, "%s%s", k ? ", " : "", o->choices[k]);
      }
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "%s: '%s' is not one of %s", o->name, v,
                     names->str);
      bson_string_free (names, true);
      return false;
   }
   case LAB_CLI_LIST:
      list_add ((lab_cli_list_t *)o->field, v);
      return true;
   case LAB_CLI_SIZES:
      return lab_parse_sizes (v, o->name, o->noun, o->hint, (lab_sizes_t *)o->field, error);
   case LAB_CLI_RATIOS:
      return lab_parse_ratios (v, o->name, o->noun, o->hint, (lab_ratios_t *)o->field, error);
   case LAB_CLI_CUSTOM:
      return o->parse (v, o->field, o->name, error);
   default:
      return false;
   }
}

/* lab_cli_parse -- see cli.h. */
bool
lab_cli_parse (const lab_cli_spec_t *spec, int argc, char **argv, int first, bson_error_t *error)
{
   bool only_positionals = false;
   int i;

   for (i = first; i < argc; i++) {
      const char *a = argv[i];
      const lab_cli_opt_t *o;
      const common_opt_t *co;
      const char *v;

      if (only_positionals || a[0] != '-' || a[1] == '\0') {
         if (!spec->positionals) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_UNEXPECTED_ARGUMENT,
                           "unexpected argument '%s' (try --help)", a);
            return false;
         }
         list_add (spec->positionals, a);
         continue;
      }
      if (strcmp (a, "--") == 0) {
         only_positionals = true;
         continue;
      }
      o = find_opt (spec->opts, a, &v);
      if (o && o->kind == LAB_CLI_REFUSED) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_UNKNOWN_OPTION, "%s: %s", o->name, o->why);
         return false;
      }
      if (o && o->kind == LAB_CLI_ALIAS) {
         /* another spelling: the option it stands for, in the table or among the common options */
         const lab_cli_opt_t *to = find_named (spec->opts, o->alias_of);
         if (!to) {
            const char *unused;
            co = spec->common ? common_find (o->alias_of, &unused) : NULL;
            if (!co || (spec->common_refused & co->bit)) {
               lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_UNKNOWN_OPTION,
                              "option %s stands for %s, which this tool does not take", o->name, o->alias_of);
               return false;
            }
            if (common_take (spec->common, co, v, argc, argv, &i, error) < 0) {
               return false;
            }
            continue;
         }
         o = to;
      }
      if (!o) {
         const char *iv;
         co = spec->common ? common_find (a, &iv) : NULL;
         if (co && (spec->common_refused & co->bit)) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_UNKNOWN_OPTION,
                           "option %s is not used here: %s (try --help)", co->name,
                           spec->refused_why ? spec->refused_why : "this tool does not take it");
            return false;
         }
         if (co) {
            if (common_take (spec->common, co, iv, argc, argv, &i, error) < 0) {
               return false;
            }
            continue;
         }
         {
            const char *near = suggest (spec, a);
            if (near) {
               lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_UNKNOWN_OPTION,
                              "unknown option '%s' (did you mean %s? try --help)", a, near);
            } else {
               lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_UNKNOWN_OPTION,
                              "unknown option '%s' (try --help)", a);
            }
         }
         return false;
      }
      if (o->seen) {
         *o->seen = true;
      }
      if (o->kind == LAB_CLI_FLAG || o->kind == LAB_CLI_COUNT) {
         if (v) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_UNEXPECTED_ARGUMENT,
                           "option %s takes no value ('%s')", o->name, a);
            return false;
         }
         if (o->kind == LAB_CLI_FLAG) {
            *(bool *)o->field = true;
         } else {
            (*(int *)o->field)++;
         }
         continue;
      }
      if (o->kind == LAB_CLI_FLAG_ENUM) {
         /* the value only after '=': the next argument is never this option's */
         if (v && !take_value (o, v, error)) {
            return false;
         }
         continue;
      }
      if (!v) {
         if (i + 1 >= argc) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING_VALUE, "option %s needs a value",
                           o->name);
            return false;
         }
         v = argv[++i];
      }
      if (!take_value (o, v, error)) {
         return false;
      }
   }
   return true;
}

/* lab_cli_arg_redacted -- see cli.h: a URI anywhere after "://" or "wiredtiger:" goes through
 * lab_uri_redact; other arguments are copied. */
char *
lab_cli_arg_redacted (const char *arg)
{
   const char *eq = strchr (arg, '=');

   if (arg[0] == '-' && eq && strstr (eq, "://")) {
      char *tail = lab_uri_redact (eq + 1);
      char *all = bson_strdup_printf ("%.*s%s", (int)(eq + 1 - arg), arg, tail);
      bson_free (tail);
      return all;
   }
   if (strstr (arg, "://")) {
      return lab_uri_redact (arg);
   }
   return bson_strdup (arg);
}

/* lab_cli_run_start -- see cli.h. */
void
lab_cli_run_start (lab_cli_run_t *run, const char *tool, int argc, char **argv)
{
   struct timespec ts;

   lab_alloc_tune ();

   run->tool = tool;
   run->argc = argc;
   run->argv = argv;
   clock_gettime (CLOCK_REALTIME, &ts);
   run->started_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
   run->t0_ns = lab_now_ns ();
}

/* iso8601 -- "2026-11-30T21:17:05.123Z" for ms since the epoch. */
static void
iso8601 (int64_t ms, char *buf, size_t len)
{
   time_t t = (time_t)(ms / 1000);
   struct tm tm;
   char day[32];

   gmtime_r (&t, &tm);
   strftime (day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm);
   bson_snprintf (buf, len, "%s.%03dZ", day, (int)(ms % 1000));
}

/* lab_cli_shell_quote -- see cli.h. */
void
lab_cli_shell_quote (bson_string_t *out, const char *arg)
{
   const char *p;

   if (*arg && strspn (arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=.,/:@%+") ==
                  strlen (arg)) {
      bson_string_append (out, arg);
      return;
   }
   bson_string_append_c (out, '\'');
   for (p = arg; *p; p++) {
      if (*p == '\'') {
         bson_string_append (out, "'\\''");
      } else {
         bson_string_append_c (out, *p);
      }
   }
   bson_string_append_c (out, '\'');
}

/* lab_cli_command_line_append -- see cli.h. */
void
lab_cli_command_line_append (bson_t *doc, const char *key, int argc, char *const *argv)
{
   char idx[16];
   const char *k;
   bson_t arr;
   int i;

   bson_append_array_begin (doc, key, -1, &arr);
   for (i = 0; i < argc; i++) {
      char *shown = lab_cli_arg_redacted (argv[i]);
      bson_uint32_to_string ((uint32_t)i, &k, idx, sizeof idx);
      BSON_APPEND_UTF8 (&arr, k, shown);
      bson_free (shown);
   }
   bson_append_array_end (doc, &arr);
}

/* lab_cli_summary_init -- see cli.h. */
void
lab_cli_summary_init (bson_t *doc, const lab_cli_run_t *run, int exit_code, const bson_error_t *error)
{
   struct timespec ts;
   int64_t now_ms;
   char buf[40];

   clock_gettime (CLOCK_REALTIME, &ts);
   now_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
   bson_init (doc);
   BSON_APPEND_UTF8 (doc, "tool", run->tool);
   BSON_APPEND_UTF8 (doc, "version", LAB_VERSION);
   lab_cli_command_line_append (doc, "command_line", run->argc, run->argv);
   iso8601 (run->started_ms, buf, sizeof buf);
   BSON_APPEND_UTF8 (doc, "started", buf);
   iso8601 (now_ms, buf, sizeof buf);
   BSON_APPEND_UTF8 (doc, "finished", buf);
   BSON_APPEND_DOUBLE (doc, "elapsed_s", (double)(lab_now_ns () - run->t0_ns) / 1e9);
   BSON_APPEND_INT32 (doc, "exit_code", exit_code);
   BSON_APPEND_BOOL (doc, "ok", exit_code == LAB_EXIT_OK);
   if (error && error->message[0]) {
      BSON_APPEND_UTF8 (doc, "error", error->message);
   }
}

/* lab_cli_usage_exit -- see cli.h. */
int
lab_cli_usage_exit (const bson_error_t *error)
{
   lab_log_error ("%s", error->message);
   return LAB_EXIT_USAGE;
}

const char *
lab_cli_common_help (void)
{
   return "Common options:\n"
          "  --uri URI            wiredtiger:DIR (embedded, default) or mongodb://... / mongodb+srv://...\n"
          "                       (default: $LAYOUTLAB_URI, else wiredtiger:./layoutlab-data)\n"
          "  --db NAME            MongoDB database (default: the URI's, else layoutlab)\n"
          "  --cache-size SIZE    embedded WiredTiger cache (default: mongod's rule, max(50% of (RAM-1GB), "
          "256MB))\n"
          "  --json FILE|-        write a machine-readable summary\n"
          "  --server-timeout DUR how long to try an unreachable MongoDB server (default 5s; a URI's\n"
          "                       serverSelectionTimeoutMS/connectTimeoutMS win)\n"
          "  --progress MODE      auto (a bar when stderr is a terminal), always, never\n"
          "  -q, --quiet          only errors on stderr\n"
          "  -v, --verbose        more detail on stderr\n"
          "  -h, --help           the short help; --help-all: every option\n"
          "  --version            print the version\n"
          "Sizes: 64M = 64MB = 64MiB (K, M, G, T are powers of 1024 however spelt, as in WiredTiger's\n"
          "own settings); durations ms/s/m.\n"
          "Exit codes: 0 success, 1 runtime failure, 2 usage error, 3 verification found a difference.\n";
}

const char *
lab_cli_common_help_short (void)
{
   return "Common options: --uri wiredtiger:DIR (the default store, embedded) or mongodb://...; --db NAME;\n"
          "--cache-size SIZE (embedded); --json FILE|- (a summary); -q; -v; --progress MODE; --help-all: "
          "all.\n"
          "Exit codes: 0 success, 1 runtime failure, 2 usage error, 3 verification found a difference.\n";
}

void
lab_log_set (const lab_cli_common_t *c)
{
   lab_log_level_set (c->quiet ? LAB_LOG_ERROR : LAB_LOG_INFO + c->verbose);
   lab_log_sink_set (lab_log_sink_stderr, NULL);
}
