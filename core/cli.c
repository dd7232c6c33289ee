/*
 * cli.c -- the common options every tool accepts, option-value matching, the log sink setup and JSON
 * output (pretty, written atomically).
 */
#include "cli.h"

#include "alloc.h"
#include "error.h"
#include "opts.h"
#include "uri.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void
lab_cli_common_init (lab_cli_common_t *c)
{
   memset (c, 0, sizeof *c);
   c->uri = lab_uri_default ();
   c->progress = LAB_PROGRESS_AUTO;
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

/* lab_cli_common_take -- one common option at argv[*i], if it is one. */
int
lab_cli_common_take (lab_cli_common_t *c, int argc, char **argv, int *i, bson_error_t *error)
{
   const char *a = argv[*i];
   const char *v;
   int r;

   if (!strcmp (a, "-h") || !strcmp (a, "--help")) {
      c->help = true;
      return 1;
   }
   if (!strcmp (a, "--version")) {
      c->version = true;
      return 1;
   }
   if (!strcmp (a, "-q") || !strcmp (a, "--quiet")) {
      c->quiet = true;
      return 1;
   }
   if (!strcmp (a, "-v") || !strcmp (a, "--verbose")) {
      c->verbose++;
      return 1;
   }
   if ((r = lab_cli_value (argc, argv, i, "--uri", &v, error)) != 0) {
      if (r > 0) {
         c->uri = v;
      }
      return r;
   }
   if ((r = lab_cli_value (argc, argv, i, "--db", &v, error)) != 0) {
      if (r > 0) {
         c->db = v;
      }
      return r;
   }
   if ((r = lab_cli_value (argc, argv, i, "--json", &v, error)) != 0) {
      if (r > 0) {
         c->json_path = v;
      }
      return r;
   }
   if ((r = lab_cli_value (argc, argv, i, "--progress", &v, error)) != 0) {
      if (r > 0 && !lab_progress_parse_mode (v, &c->progress)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--progress: '%s' is not one of auto, always, never", v);
         return -1;
      }
      return r;
   }
   if ((r = lab_cli_value (argc, argv, i, "--cache-size", &v, error)) != 0) {
      if (r > 0 && !lab_parse_size (v, "--cache-size", &c->cache_size_bytes, error)) {
         return -1;
      }
      if (r > 0 && c->cache_size_bytes < 1048576) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--cache-size: %s is below WiredTiger's minimum of 1MiB", v);
         return -1;
      }
      return r;
   }
   return 0;
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
   int i, r;

   for (i = first; i < argc; i++) {
      const char *a = argv[i];
      const lab_cli_opt_t *o;
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
      if (!o) {
         if (spec->common && (r = lab_cli_common_take (spec->common, argc, argv, &i, error)) != 0) {
            if (r < 0) {
               return false;
            }
            continue;
         }
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_UNKNOWN_OPTION,
                        "unknown option '%s' (try --help)", a);
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

/* lab_cli_summary_init -- see cli.h. */
void
lab_cli_summary_init (bson_t *doc, const lab_cli_run_t *run, int exit_code, const bson_error_t *error)
{
   struct timespec ts;
   int64_t now_ms;
   char buf[40], idx[16];
   const char *key;
   bson_t arr;
   int i;

   clock_gettime (CLOCK_REALTIME, &ts);
   now_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
   bson_init (doc);
   BSON_APPEND_UTF8 (doc, "tool", run->tool);
   BSON_APPEND_UTF8 (doc, "version", LAB_VERSION);
   BSON_APPEND_ARRAY_BEGIN (doc, "command_line", &arr);
   for (i = 0; i < run->argc; i++) {
      char *shown = lab_cli_arg_redacted (run->argv[i]);
      bson_uint32_to_string ((uint32_t)i, &key, idx, sizeof idx);
      BSON_APPEND_UTF8 (&arr, key, shown);
      bson_free (shown);
   }
   bson_append_array_end (doc, &arr);
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
          "  --progress MODE      auto (a bar when stderr is a terminal), always, never\n"
          "  -q, --quiet          only errors on stderr\n"
          "  -v, --verbose        more detail on stderr\n"
          "  -h, --help           this help\n"
          "  --version            print the version\n"
          "Sizes take K/M/G (1024-based) or KB/MB/GB (1000-based); durations ms/s/m.\n"
          "Exit codes: 0 success, 1 runtime failure, 2 usage error, 3 verification found a difference.\n";
}

void
lab_log_set (const lab_cli_common_t *c)
{
   lab_log_level_set (c->quiet ? LAB_LOG_ERROR : LAB_LOG_INFO + c->verbose);
   lab_log_sink_set (lab_log_sink_stderr, NULL);
}

/* lab_json_pretty -- re-indent libbson's one-line relaxed JSON: strings are copied verbatim. */
char *
lab_json_pretty (const bson_t *doc)
{
   size_t len;
   char *flat = bson_as_relaxed_extended_json (doc, &len);
   bson_string_t *out = bson_string_new (NULL);
   int depth = 0, k;
   bool in_str = false;
   size_t i;

   for (i = 0; i < len; i++) {
      char ch = flat[i];

      if (in_str) {
         bson_string_append_c (out, ch);
         if (ch == '\\' && i + 1 < len) {
            bson_string_append_c (out, flat[++i]);
         } else if (ch == '"') {
            in_str = false;
         }
         continue;
      }
      switch (ch) {
      case '"':
         in_str = true;
         bson_string_append_c (out, ch);
         break;
      case '{':
      case '[': {
         /* keep empty containers on one line */
         size_t j = i + 1;
         while (j < len && flat[j] == ' ') {
            j++;
         }
         if (j < len && (flat[j] == '}' || flat[j] == ']')) {
            bson_string_append_c (out, ch);
            bson_string_append_c (out, flat[j]);
            i = j;
            break;
         }
         bson_string_append_c (out, ch);
         depth++;
         bson_string_append_c (out, '\n');
         for (k = 0; k < depth; k++) {
            bson_string_append (out, "  ");
         }
         while (i + 1 < len && flat[i + 1] == ' ') {
            i++;
         }
         break;
      }
      case '}':
      case ']':
         depth--;
         /* drop the space libbson puts before a closing bracket */
         while (out->len > 0 && out->str[out->len - 1] == ' ') {
            out->str[--out->len] = '\0';
         }
         bson_string_append_c (out, '\n');
         for (k = 0; k < depth; k++) {
            bson_string_append (out, "  ");
         }
         bson_string_append_c (out, ch);
         break;
      case ',':
         bson_string_append_c (out, ',');
         bson_string_append_c (out, '\n');
         for (k = 0; k < depth; k++) {
            bson_string_append (out, "  ");
         }
         while (i + 1 < len && flat[i + 1] == ' ') {
            i++;
         }
         break;
      default:
         bson_string_append_c (out, ch);
      }
   }
   bson_string_append_c (out, '\n');
   bson_free (flat);
   return bson_string_free (out, false);
}

/* lab_file_write_atomic -- temp file in the same directory, fsync, rename. */
bool
lab_file_write_atomic (const char *path, const void *data, size_t len, bson_error_t *error)
{
   char *tmp = bson_strdup_printf ("%s.tmp.%d", path, (int)getpid ());
   const char *p = data;
   size_t left = len;
   int fd;

   fd = open (tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
   if (fd < 0) {
      lab_error_set_errno (error, errno, "cannot create '%s'", path);
      bson_free (tmp);
      return false;
   }
   while (left > 0) {
      ssize_t w = write (fd, p, left);
      if (w < 0) {
         if (errno == EINTR) {
            continue;
         }
         lab_error_set_errno (error, errno, "cannot write '%s'", path);
         goto fail;
      }
      p += w;
      left -= (size_t)w;
   }
   if (fsync (fd) != 0) {
      lab_error_set_errno (error, errno, "cannot sync '%s'", path);
      goto fail;
   }
   close (fd);
   if (rename (tmp, path) != 0) {
      lab_error_set_errno (error, errno, "cannot rename '%s' to '%s'", tmp, path);
      unlink (tmp);
      bson_free (tmp);
      return false;
   }
   bson_free (tmp);
   return true;
fail:
   close (fd);
   unlink (tmp);
   bson_free (tmp);
   return false;
}

bool
lab_json_write (const bson_t *doc, const char *path, bson_error_t *error)
{
   char *json = lab_json_pretty (doc);
   bool ok = true;

   if (!strcmp (path, "-")) {
      if (fputs (json, stdout) == EOF || fflush (stdout) != 0) {
         lab_error_set_errno (error, errno, "cannot write JSON to stdout");
         ok = false;
      }
   } else {
      ok = lab_file_write_atomic (path, json, strlen (json), error);
   }
   bson_free (json);
   return ok;
}
