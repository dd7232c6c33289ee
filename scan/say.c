/*
 * say.c -- the scan's log (scan.h): every message of scan/ goes through the caller's opts->log, so the
 * library never prints, and every file of scan/ can report without depending on another.
 */
#include "scan/scan.h"

#include <stdarg.h>

/* lab_scan_say -- see scan.h. */
void
lab_scan_say (const lab_scan_opts_t *o, bool debug, const char *fmt, ...)
{
   va_list ap;
   char *msg;

   if (!o->log) {
      return;
   }
   va_start (ap, fmt);
   msg = bson_strdupv_printf (fmt, ap);
   va_end (ap);
   o->log (o->log_ctx, debug, msg);
   bson_free (msg);
}
