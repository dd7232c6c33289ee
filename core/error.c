/*
 * error.c -- filling and decorating bson_error_t values in layoutlab's domains.
 */
#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

/* lab_error_set -- domain, code and formatted message. */
void
lab_error_set (bson_error_t *error, uint32_t domain, uint32_t code, const char *fmt, ...)
{
   va_list ap;

   if (!error) {
      return;
   }
   error->domain = domain;
   error->code = code;
   va_start (ap, fmt);
   bson_vsnprintf (error->message, sizeof error->message, fmt, ap);
   va_end (ap);
}

/* lab_error_set_errno -- "<context>: strerror(err)" in LAB_ERROR_IO. */
void
lab_error_set_errno (bson_error_t *error, int err, const char *fmt, ...)
{
   char ctx[BSON_ERROR_BUFFER_SIZE];
   char ebuf[128];
   va_list ap;

   if (!error) {
      return;
   }
   va_start (ap, fmt);
   bson_vsnprintf (ctx, sizeof ctx, fmt, ap);
   va_end (ap);
   lab_error_set (error, LAB_ERROR_IO, (uint32_t)err, "%s: %s", ctx,
                  bson_strerror_r (err, ebuf, sizeof ebuf));
}

/* lab_error_prefix -- "<context>: <old message>", truncated to the buffer. */
void
lab_error_prefix (bson_error_t *error, const char *fmt, ...)
{
   char ctx[BSON_ERROR_BUFFER_SIZE];
   char old[BSON_ERROR_BUFFER_SIZE];
   va_list ap;

   if (!error) {
      return;
   }
   va_start (ap, fmt);
   bson_vsnprintf (ctx, sizeof ctx, fmt, ap);
   va_end (ap);
   bson_strncpy (old, error->message, sizeof old);
   bson_snprintf (error->message, sizeof error->message, "%s: %s", ctx, old);
}

/* The words lab_error_prefix_nospace starts a message with (lab_error_is_nospace finds them). */
#define NOSPACE_TEXT "no space left on device writing to"

/* lab_error_prefix_nospace -- where the disk is full and how much is left, before the message. */
void
lab_error_prefix_nospace (bson_error_t *error, const char *dir)
{
   struct statvfs vfs;

   if (!error) {
      return;
   }
   if (statvfs (dir, &vfs) == 0) {
      double free_mib = (double)vfs.f_bavail * (double)vfs.f_frsize / (1024.0 * 1024.0);
      lab_error_prefix (error, NOSPACE_TEXT " %s (%.1f MiB free; free space there and run again)", dir,
                        free_mib);
   } else {
      lab_error_prefix (error, NOSPACE_TEXT " %s (free space unknown; free space there and run again)", dir);
   }
}

/* lab_error_is_nospace -- ENOSPC, or a message decorated by lab_error_prefix_nospace. */
bool
lab_error_is_nospace (const bson_error_t *error)
{
   if (!error) {
      return false;
   }
   if ((error->domain == LAB_ERROR_IO || error->domain == LAB_ERROR_WT) && error->code == ENOSPC) {
      return true;
   }
   return strstr (error->message, NOSPACE_TEXT) != NULL;
}

void
lab_error_clear (bson_error_t *error)
{
   if (error) {
      memset (error, 0, sizeof *error);
   }
}

bool
lab_error_is (const bson_error_t *error, uint32_t domain, uint32_t code)
{
   return error && error->domain == domain && error->code == code;
}

/* lab_error_exit_code -- usage 2, verification difference 3, everything else 1. */
int
lab_error_exit_code (const bson_error_t *error)
{
   if (!error) {
      return LAB_EXIT_FAILURE;
   }
   if (error->domain == LAB_ERROR_USAGE) {
      return LAB_EXIT_USAGE;
   }
   if (error->domain == LAB_ERROR_VERIFY) {
      return LAB_EXIT_DIFFERENT;
   }
   return LAB_EXIT_FAILURE;
}

/* lab_value_to_text -- wrap the value in a one-field document and strip `{ "v" : ` and ` }`. */
char *
lab_value_to_text (const bson_value_t *v)
{
   bson_t tmp = BSON_INITIALIZER;
   char *json, *inner;
   size_t n;

   bson_append_value (&tmp, "v", 1, v);
   json = bson_as_relaxed_extended_json (&tmp, NULL);
   bson_destroy (&tmp);
   if (!json) {
      return bson_strdup ("?");
   }
   n = strlen (json);
   if (n > 10 && strncmp (json, "{ \"v\" : ", 8) == 0) {
      inner = bson_strndup (json + 8, n - 10);
      bson_free (json);
      return inner;
   }
   return json;
}

const char *
lab_value_text (const bson_value_t *v, char *buf, size_t len)
{
   char *t = lab_value_to_text (v);

   bson_strncpy (buf, t, len);
   bson_free (t);
   return buf;
}
