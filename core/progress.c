/*
 * progress.c -- a single redrawn progress line on stderr, at most 10 redraws a second, off unless
 * stderr is a terminal (mode auto) or forced.
 */
#include "progress.h"

#include "log.h"
#include "opts.h"

#include <bson/bson.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LAB_PROGRESS_PERIOD_NS 100000000ull

struct lab_progress {
   lab_progress_mode_t mode;
   bool draw;
   bool lines;      /* log lines instead of a bar (lab_progress_lines) */
   bool line_shown; /* at least one line logged: the last one says when it finished */
   uint64_t line_after_ns, line_period_ns, last_line_ns;
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

   p->mode = mode;
   p->draw = lab_progress_enabled (mode);
   bson_strncpy (p->label, label ? label : "", sizeof p->label);
   bson_strncpy (p->unit, unit ? unit : "items", sizeof p->unit);
   p->total = total;
   p->start_ns = lab_now_ns ();
   pthread_mutex_init (&p->lock, NULL);
   return p;
}

/* format -- the progress text into line[len]: done/total, rate, MB/s, time left, extra (final: the
 * elapsed time instead of the time left). Caller holds the lock. */
static void
format (lab_progress_t *p, uint64_t now, bool final, char *line, size_t len)
{
   double secs = (double)(now - p->start_ns) / 1e9;
   double rate = secs > 0 ? (double)p->items / secs : 0;
   size_t n;

   n = (size_t)bson_snprintf (line, len, "%s: %" PRIu64, p->label, p->items);
   if (p->total) {
      n += (size_t)bson_snprintf (line + n, len - n, "/%" PRIu64 " (%.1f%%)", p->total,
                                  100.0 * (double)p->items / (double)p->total);
   }
   /* a slow server loads a few masters a second: "0 masters/s" would say nothing */
   n += (size_t)bson_snprintf (line + n, len - n, rate < 10 ? " %s, %.1f %s/s" : " %s, %.0f %s/s", p->unit,
                               rate, p->unit);
   if (p->bytes && secs > 0) {
      n += (size_t)bson_snprintf (line + n, len - n, ", %.1f MB/s", (double)p->bytes / secs / 1e6);
   }
   if (p->total && rate > 0 && !final && p->items < p->total) {
      double eta = (double)(p->total - p->items) / rate;
      n += (size_t)bson_snprintf (line + n, len - n, ", about %dm%02ds left", (int)(eta / 60), (int)eta % 60);
   }
   if (p->extra[0]) {
      n += (size_t)bson_snprintf (line + n, len - n, ", %s", p->extra);
   }
   if (final) {
      bson_snprintf (line + n, len - n, " in %.1fs", secs);
   }
}

/* draw -- one line, \r-terminated (final: \n). Caller holds the lock. */
static void
draw (lab_progress_t *p, uint64_t now, bool final)
{
   char line[320];

   format (p, now, final, line, sizeof line);
   fprintf (stderr, "\r%s\033[K%s", line, final ? "\n" : "");
   fflush (stderr);
}

/* lab_progress_lines -- see progress.h. */
void
lab_progress_lines (lab_progress_t *p, uint64_t after_ns, uint64_t period_ns)
{
   if (!p || p->mode != LAB_PROGRESS_AUTO || !lab_log_enabled (LAB_LOG_INFO)) {
      return;
   }
   if (p->draw && !lab_log_enabled (LAB_LOG_DEBUG)) {
      return; /* a terminal without -v: the bar */
   }
   pthread_mutex_lock (&p->lock);
   p->draw = false;
   p->lines = true;
   p->line_after_ns = after_ns;
   p->line_period_ns = period_ns;
   pthread_mutex_unlock (&p->lock);
}

/* line_due -- log a line when the work has taken line_after_ns and the last is line_period_ns old. Caller
 * holds the lock. */
static void
line_due (lab_progress_t *p, uint64_t now)
{
   char line[320];

   if (now - p->start_ns < p->line_after_ns || (p->line_shown && now - p->last_line_ns < p->line_period_ns)) {
      return;
   }
   p->last_line_ns = now;
   p->line_shown = true;
   format (p, now, false, line, sizeof line);
   lab_log_info ("%s", line);
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
   } else if (p->lines) {
      line_due (p, lab_now_ns ());
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
   } else if (p->line_shown) {
      char line[320];
      format (p, lab_now_ns (), true, line, sizeof line);
      lab_log_info ("%s", line);
   }
   pthread_mutex_destroy (&p->lock);
   bson_free (p);
}
