/*
 * wt_error.c -- the embedded store's WiredTiger messages (kept for the next error, never printed) and
 * the translation of WiredTiger's errors (lab_wt_fail), the one place every wt_*.c reports through.
 */
#include "wt_private.h"

#include "core/error.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

/* ---- WiredTiger messages ------------------------------------------------------------------------ */

/* The last message WiredTiger reported on this thread: added to our error messages, never printed. */
static __thread char wt_last_msg[768];

/* The home of the store whose WiredTiger last failed a write for lack of space, in any of its threads
 * (a checkpoint, the journal writer or eviction may hit a full disk; the application thread then sees
 * ENOSPC or WT_PANIC, often without a message of its own). Empty while no write failed so. */
static pthread_mutex_t wt_nospace_mu = PTHREAD_MUTEX_INITIALIZER;
static char wt_nospace_home[PATH_MAX];

/* is_nospace -- does WiredTiger's error (err, msg) report a full disk? */
static bool
is_nospace (int err, const char *msg)
{
   char ebuf[128];

   return err == ENOSPC || (msg && strstr (msg, bson_strerror_r (ENOSPC, ebuf, sizeof ebuf)) != NULL);
}

/* wt_on_error -- keep WiredTiger's message for the error we are about to build (library: no printing);
 * remember the store's home when the disk is full, and a panic. A panic comes as a last, generic message
 * after the one that says what happened (a checksum that does not match, a block that does not
 * decompress, a write that failed): the cause is kept in front of it. */
static int
wt_on_error (WT_EVENT_HANDLER *h, WT_SESSION *s, int err, const char *msg)
{
   wt_store_t *st = (wt_store_t *)((char *)h - offsetof (wt_store_t, handler));
   char prev[sizeof wt_last_msg];

   if (err == WT_PANIC) {
      __atomic_store_n (&st->panicked, 1, __ATOMIC_RELEASE);
   }
   if (is_nospace (err, msg)) {
      pthread_mutex_lock (&wt_nospace_mu);
      bson_strncpy (wt_nospace_home, st->home, sizeof wt_nospace_home);
      pthread_mutex_unlock (&wt_nospace_mu);
   }
   if (err == WT_PANIC && wt_last_msg[0] && !strstr (wt_last_msg, "WT_PANIC")) {
      bson_strncpy (prev, wt_last_msg, sizeof prev);
      bson_snprintf (wt_last_msg, sizeof wt_last_msg, "%s; then %s", prev, msg ? msg : "");
      return 0;
   }
   bson_strncpy (wt_last_msg, msg ? msg : "", sizeof wt_last_msg);
   return 0;
}

/* wt_on_message -- informational messages are dropped (library code never prints). */
static int
wt_on_message (WT_EVENT_HANDLER *h, WT_SESSION *s, const char *msg)
{
   return 0;
}

/* lab_wt_fail -- LAB_ERROR_WT error "<context>: <wiredtiger_strerror> [<WT's own message>]"; false. A full
 * disk (ENOSPC here, or the panic after one elsewhere) says where and how much space is left. */
bool
lab_wt_fail (bson_error_t *error, int ret, const char *fmt, ...)
{
   char ctx[BSON_ERROR_BUFFER_SIZE];
   char home[PATH_MAX];
   va_list ap;

   va_start (ap, fmt);
   bson_vsnprintf (ctx, sizeof ctx, fmt, ap);
   va_end (ap);
   if (strstr (wt_last_msg, "unknown compressor")) {
      lab_error_set (error, LAB_ERROR_WT, (uint32_t)ret,
                     "%s: the table was written with a block compressor this program has not loaded (%s); "
                     "open the store with a layoutlab build that loads it (none, snappy, zlib and zstd are "
                     "loaded on every open)",
                     ctx, wt_last_msg);
   } else if (ret == WT_PANIC) {
      lab_error_set (error, LAB_ERROR_WT, (uint32_t)ret,
                     "%s: %s: a damaged data file (a block that fails its checksum or does not decompress) "
                     "stopped the store: close it, then restore it from a copy or rebuild it (%s)",
                     ctx, wiredtiger_strerror (ret), wt_last_msg);
   } else if (wt_last_msg[0]) {
      lab_error_set (error, LAB_ERROR_WT, (uint32_t)ret, "%s: %s (%s)", ctx, wiredtiger_strerror (ret),
                     wt_last_msg);
   } else {
      lab_error_set (error, LAB_ERROR_WT, (uint32_t)ret, "%s: %s", ctx, wiredtiger_strerror (ret));
   }
   pthread_mutex_lock (&wt_nospace_mu);
   bson_strncpy (home, wt_nospace_home, sizeof home);
   pthread_mutex_unlock (&wt_nospace_mu);
   if (home[0] && (is_nospace (ret, wt_last_msg) || ret == WT_PANIC)) {
      lab_error_prefix_nospace (error, home);
   }
   wt_last_msg[0] = '\0';
   return false;
}

/* lab_wt_closed_error -- the engine is not open (a cycle failed to reopen it). */
bool
lab_wt_closed_error (wt_store_t *st, bson_error_t *error)
{
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                  "WiredTiger home %s is closed: the last cycle could not reopen it", st->home);
   return false;
}

/* lab_wt_handler_init -- see wt_private.h. */
void
lab_wt_handler_init (wt_store_t *st)
{
   wt_last_msg[0] = '\0';
   pthread_mutex_lock (&wt_nospace_mu);
   wt_nospace_home[0] = '\0';
   pthread_mutex_unlock (&wt_nospace_mu);
   st->handler.handle_error = wt_on_error;
   st->handler.handle_message = wt_on_message;
}
