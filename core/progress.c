/*
 * progress.c -- a single redrawn progress line on stderr, at most 10 redraws a second, off unless
 * stderr is a terminal (mode auto) or forced.
 */
#include "progress.h"

#include "opts.h"

#include <bson/bson.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LAB_PROGRESS_PERIOD_NS 100000000ull

struct lab_progress {
   bool draw;
   char label[64];
   char unit[32];
   char extra[96];
   uint64_t total;
   uint64_t items;
   uint64_t bytes;
   uint64_t start_ns;
   uint64_t last_draw_ns;
   pthread_mutex_t lock;
};

bool
lab_progress_parse_mode (const char *s, lab_progress_mode_t *out)
{
   if (!strcmp (s, "auto")) {
      *out = LAB_PROGRESS_AUTO;
   } else if (!strcmp (s, "always")) {
      *out = LAB_PROGRESS_ALWAYS;
   } else if (!strcmp (s, "never")) {
      *out = LAB_PROGRESS_NEVER;
   } else {
      return false;
   }
   return true;
}

bool
lab_progress_enabled (lab_progress_mode_t mode)
{
   return mode == LAB_PROGRESS_ALWAYS || (mode == LAB_PROGRESS_AUTO && isatty (STDERR_FILENO));
}

lab_progress_t *
lab_progress_new (lab_progress_mode_t mode, const char *label, const char *unit, uint64_t total)
{
   lab_progress_t *p = bson_malloc0 (sizeof *p);

   p->draw = lab_progress_enabled (mode);
   bson_strncpy (p->label, label ? label : "", sizeof p->label);
   bson_strncpy (p->unit, unit ? unit : "items", sizeof p->unit);
   p->total = total;
   p->start_ns = lab_now_ns ();
   pthread_mutex_init (&p->lock, NULL);
   return p;
}

/* draw -- one line, \r-terminated (final: \n). Caller holds the lock. */
static void
draw (lab_progress_t *p, uint64_t now, bool final)
{
   double secs = (double)(now - p->start_ns) / 1e9;
   double rate = secs > 0 ? (double)p->items / secs : 0;
   char line[320];
   int n;

   n = bson_snprintf (line, sizeof line, "%s: %" PRIu64, p->label, p->items);
   if (p->total) {
      n += bson_snprintf (line + n, sizeof line - n, "/%" PRIu64 " (%.1f%%)", p->total,
                          100.0 * (double)p->items / (double)p->total);
   }
   n += bson_snprintf (line + n, sizeof line - n, " %s, %.0f %s/s", p->unit, rate, p->unit);
   if (p->bytes && secs > 0) {
      n += bson_snprintf (line + n, sizeof line - n, ", %.1f MB/s", (double)p->bytes / secs / 1e6);
   }
   if (p->total && rate > 0 && !final && p->items < p->total) {
      double eta = (double)(p->total - p->items) / rate;
      n += bson_snprintf (line + n, sizeof line - n, ", ETA %dm%02ds", (int)(eta / 60), (int)eta % 60);
   }
   if (p->extra[0]) {
      n += bson_snprintf (line + n, sizeof line - n, ", %s", p->extra);
   }
   if (final) {
      bson_snprintf (line + n, sizeof line - n, " in %.1fs", secs);
   }
   fprintf (stderr, "\r%s\033[K%s", line, final ? "\n" : "");
   fflush (stderr);
}

void
lab_progress_add (lab_progress_t *p, uint64_t items, uint64_t bytes)
{
   uint64_t now;

   if (!p) {
      return;
   }
   pthread_mutex_lock (&p->lock);
   p->items += items;
   p->bytes += bytes;
   if (p->draw) {
      now = lab_now_ns ();
      if (now - p->last_draw_ns >= LAB_PROGRESS_PERIOD_NS) {
         p->last_draw_ns = now;
         draw (p, now, false);
      }
   }
   pthread_mutex_unlock (&p->lock);
}

void
lab_progress_set_extra (lab_progress_t *p, const char *extra)
{
   if (!p) {
      return;
   }
   pthread_mutex_lock (&p->lock);
   bson_strncpy (p->extra, extra ? extra : "", sizeof p->extra);
   pthread_mutex_unlock (&p->lock);
}

void
lab_progress_done (lab_progress_t *p)
{
   if (!p) {
      return;
   }
   if (p->draw) {
      draw (p, lab_now_ns (), true);
   }
   pthread_mutex_destroy (&p->lock);
   bson_free (p);
}
