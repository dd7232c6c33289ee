/*
 * log.c -- the log sink (log.h).
 */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static int log_level = LAB_LOG_INFO;
static const char *log_tool = "layoutlab";
static lab_log_sink_t log_sink;
static void *log_ctx;

void
lab_log_sink_set (lab_log_sink_t sink, void *ctx)
{
   log_sink = sink;
   log_ctx = ctx;
}

void
lab_log_sink_stderr (lab_log_level_t level, const char *msg, void *ctx)
{
   fprintf (stderr, "%s: %s%s\n", log_tool, level == LAB_LOG_ERROR ? "error: " : "", msg);
}

void
lab_log_level_set (int level)
{
   log_level = level;
}

/* lab_log_enabled -- see log.h. */
bool
lab_log_enabled (lab_log_level_t level)
{
   return log_sink && (int)level <= log_level;
}

void
lab_log_set_tool (const char *tool)
{
   log_tool = tool;
}

/* vlog -- format and hand to the sink when `level` passes. */
static void
vlog (lab_log_level_t level, const char *fmt, va_list ap)
{
   char msg[2048];

   if (!log_sink || (int)level > log_level) {
      return;
   }
   bson_vsnprintf (msg, sizeof msg, fmt, ap);
   log_sink (level, msg, log_ctx);
}

void
lab_log_info (const char *fmt, ...)
{
   va_list ap;

   va_start (ap, fmt);
   vlog (LAB_LOG_INFO, fmt, ap);
   va_end (ap);
}

void
lab_log_debug (const char *fmt, ...)
{
   va_list ap;

   va_start (ap, fmt);
   vlog (LAB_LOG_DEBUG, fmt, ap);
   va_end (ap);
}

void
lab_log_error (const char *fmt, ...)
{
   va_list ap;

   va_start (ap, fmt);
   vlog (LAB_LOG_ERROR, fmt, ap);
   va_end (ap);
}
