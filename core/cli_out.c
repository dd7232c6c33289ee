/* cli_out.c -- a tool's output files: JSON re-indented with short doubles, --out paths checked, files written
 * atomically. */
#include "cli.h"

#include "alloc.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* append_number_token -- a number of libbson's JSON as the shortest text that reads back as the same
 * double ("0.49971225600000002" -> "0.499712256"); integers as they are; a double keeps a '.' or an
 * exponent so that it reads back as a double ("1.0"). */
static void
append_number_token (bson_string_t *out, const char *tok, size_t len)
{
   char *copy = bson_strndup (tok, len), *end, buf[40];
   double v;
   int prec;

   if (!strpbrk (copy, ".eE") || strpbrk (copy, "nN")) {
      bson_string_append (out, copy); /* an integer (or inf/nan spelt out): as written */
      bson_free (copy);
      return;
   }
   v = strtod (copy, &end);
   for (prec = 1; prec <= 17; prec++) {
      snprintf (buf, sizeof buf, "%.*g", prec, v);
      if (strtod (buf, NULL) == v) {
         break;
      }
   }
   if (*end != '\0' || prec > 17) {
      bson_string_append (out, copy);
   } else {
      bson_string_append (out, buf);
      if (!strpbrk (buf, ".eEnN")) {
         bson_string_append (out, ".0");
      }
   }
   bson_free (copy);
}

/* lab_json_pretty -- re-indent libbson's one-line relaxed JSON: strings are copied verbatim, doubles
 * shortened to the shortest text that reads back the same. */
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
         if (ch == '-' || (ch >= '0' && ch <= '9')) {
            size_t j = i;
            while (j < len && strchr ("0123456789+-.eE", flat[j])) {
               j++;
            }
            append_number_token (out, flat + i, j - i);
            i = j - 1;
            break;
         }
         bson_string_append_c (out, ch);
      }
   }
   bson_string_append_c (out, '\n');
   bson_free (flat);
   return bson_string_free (out, false);
}

/* lab_path_is_special -- see cli.h. */
bool
lab_path_is_special (const char *path)
{
   struct stat st;
   return path && stat (path, &st) == 0 && !S_ISREG (st.st_mode) && !S_ISDIR (st.st_mode);
}

/* write_in_place -- write all of data to the special file `path` (no temporary file, no fsync). */
static bool
write_in_place (const char *path, const void *data, size_t len, bson_error_t *error)
{
   const char *p = data;
   int fd = open (path, O_WRONLY | O_CLOEXEC);

   if (fd < 0) {
      lab_error_set_errno (error, errno, "cannot open '%s'", path);
      return false;
   }
   while (len > 0) {
      ssize_t w = write (fd, p, len);
      if (w < 0 && errno == EINTR) {
         continue;
      }
      if (w < 0) {
         lab_error_set_errno (error, errno, "cannot write '%s'", path);
         close (fd);
         return false;
      }
      p += w;
      len -= (size_t)w;
   }
   close (fd);
   return true;
}

/* lab_cli_output_check -- see cli.h: the directory of `path` takes a new file. */
bool
lab_cli_output_check (const char *path, const char *what, bson_error_t *error)
{
   const char *slash;
   char *dir, *probe;
   struct stat st;
   int fd;

   if (!path || strcmp (path, "-") == 0) {
      return true;
   }
   if (lab_path_is_special (path)) {
      /* /dev/null, a FIFO: written in place, so only the file itself must take writes */
      if (access (path, W_OK) != 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "%s %s: cannot be written: %s", what,
                        path, strerror (errno));
         return false;
      }
      return true;
   }
   if (!*path) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "%s: an empty file name", what);
      return false;
   }
   slash = strrchr (path, '/');
   dir = slash ? bson_strndup (path, slash == path ? 1 : (size_t)(slash - path)) : bson_strdup (".");
   if (stat (dir, &st) != 0 || !S_ISDIR (st.st_mode)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s %s: the directory '%s' %s: create it first, or choose another path (nothing has "
                     "been done)",
                     what, path, dir, stat (dir, &st) != 0 ? "does not exist" : "is not a directory");
      bson_free (dir);
      return false;
   }
   if (stat (path, &st) == 0 && S_ISDIR (st.st_mode)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s %s: that is a directory; give a file name (nothing has been done)", what, path);
      bson_free (dir);
      return false;
   }
   probe = bson_strdup_printf ("%s/.layoutlab-write-check.XXXXXX", dir);
   fd = mkstemp (probe);
   if (fd < 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s %s: cannot create a file in '%s': %s; choose a writable directory (nothing has "
                     "been done)",
                     what, path, dir, strerror (errno));
      bson_free (probe);
      bson_free (dir);
      return false;
   }
   close (fd);
   unlink (probe);
   bson_free (probe);
   bson_free (dir);
   return true;
}

/* lab_file_write_atomic -- temp file in the same directory, fsync, rename. */
bool
lab_file_write_atomic (const char *path, const void *data, size_t len, bson_error_t *error)
{
   char *tmp;
   const char *p = data;
   size_t left = len;
   int fd;

   if (lab_path_is_special (path)) {
      return write_in_place (path, data, len, error);
   }
   tmp = bson_strdup_printf ("%s.tmp.%d", path, (int)getpid ());
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
