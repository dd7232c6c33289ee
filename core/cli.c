/*
 * cli.c -- the common options every tool accepts, option-value matching, the log sink setup and JSON
 * output (pretty, written atomically).
 */
#include "cli.h"

#include "error.h"
#include "opts.h"
#include "uri.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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
      lab_error_set (error, LAB_ERROR_USAGE, 1, "option %s needs a value", name);
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
         lab_error_set (error, LAB_ERROR_USAGE, 1, "--progress: '%s' is not one of auto, always, never", v);
         return -1;
      }
      return r;
   }
   if ((r = lab_cli_value (argc, argv, i, "--cache-size", &v, error)) != 0) {
      if (r > 0 && !lab_parse_size (v, "--cache-size", &c->cache_size_bytes, error)) {
         return -1;
      }
      if (r > 0 && c->cache_size_bytes < 1048576) {
         lab_error_set (error, LAB_ERROR_USAGE, 1, "--cache-size: %s is below WiredTiger's minimum of 1MiB", v);
         return -1;
      }
      return r;
   }
   return 0;
}

const char *
lab_cli_common_help (void)
{
   return "Common options:\n"
          "  --uri URI            wiredtiger:DIR (embedded, default) or mongodb://... / mongodb+srv://...\n"
          "                       (default: $LAYOUTLAB_URI, else wiredtiger:./layoutlab-data)\n"
          "  --db NAME            MongoDB database (default: the URI's, else layoutlab)\n"
          "  --cache-size SIZE    embedded WiredTiger cache (default: mongod's rule, max(50% of (RAM-1GB), 256MB))\n"
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
   char *tmp = bson_strdup_printf ("%s.tmp.%d", path, (int) getpid ());
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
      left -= (size_t) w;
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
