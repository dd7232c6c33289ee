/*
 * opts.c -- size, duration and integer arguments with overflow checks; byte formatting; clocks (wall and
 * a process's CPU).
 */
#include "opts.h"

#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* parse_number -- a non-negative decimal with optional fraction; *end after it. */
static bool
parse_number (const char *s, double *out, const char **end)
{
   char *e;
   double v;

   if (!s || !isdigit ((unsigned char)*s)) {
      if (!(s && *s == '.' && isdigit ((unsigned char)s[1]))) {
         return false;
      }
   }
   errno = 0;
   v = strtod (s, &e);
   if (errno || e == s || !isfinite (v) || v < 0) {
      return false;
   }
   *out = v;
   *end = e;
   return true;
}

typedef struct {
   const char *suffix;
   double mult;
} lab_unit_t;

/* parse_scaled -- a number followed by one of `units` (case-insensitive), times that unit. */
static bool
parse_scaled (const char *s, const lab_unit_t *units, size_t nunits, double *out)
{
   const char *end;
   double v;
   size_t i;

   if (!parse_number (s, &v, &end)) {
      return false;
   }
   for (i = 0; i < nunits; i++) {
      if (strcasecmp (end, units[i].suffix) == 0) {
         *out = v * units[i].mult;
         return true;
      }
   }
   return false;
}

/* lab_parse_size -- see opts.h for the accepted suffixes; fractions of a byte are dropped. Every spelling
 * of a unit means the same power of 1024: WiredTiger's own configuration reads "cache_size=64MB" so
 * (src/config/config.c, __config_process_value: 'M' shifts by 20, 'B' changes nothing), and so does a
 * user who copies a size from it. */
bool
lab_parse_size (const char *s, const char *what, uint64_t *out, bson_error_t *error)
{
   static const lab_unit_t units[] = { { "", 1 },
                                       { "b", 1 },
                                       { "k", 1024.0 },
                                       { "kib", 1024.0 },
                                       { "kb", 1024.0 },
                                       { "m", 1048576.0 },
                                       { "mib", 1048576.0 },
                                       { "mb", 1048576.0 },
                                       { "g", 1073741824.0 },
                                       { "gib", 1073741824.0 },
                                       { "gb", 1073741824.0 },
                                       { "t", 1099511627776.0 },
                                       { "tib", 1099511627776.0 },
                                       { "tb", 1099511627776.0 } };
   double bytes;

   if (!parse_scaled (s, units, sizeof units / sizeof units[0], &bytes)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s: cannot read '%s' as a size (examples: 4096, 64K, 16MiB, 1.5G, 10MB)", what,
                     s ? s : "");
      return false;
   }
   if (bytes >= 18446744073709551615.0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "%s: size '%s' is too large", what, s);
      return false;
   }
   *out = (uint64_t)bytes;
   return true;
}

/* lab_parse_duration_ns -- ns/us/ms/s/m/h suffixes; a bare number is seconds. */
bool
lab_parse_duration_ns (const char *s, const char *what, uint64_t *out_ns, bson_error_t *error)
{
   static const lab_unit_t units[] = { { "", 1e9 }, { "s", 1e9 },  { "ms", 1e6 },   { "us", 1e3 },
                                       { "ns", 1 }, { "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 } };
   double ns;

   if (!parse_scaled (s, units, sizeof units / sizeof units[0], &ns)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s: cannot read '%s' as a duration (examples: 500ms, 1s, 1.5s, 2m)", what, s ? s : "");
      return false;
   }
   if (ns >= 9.2e18) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "%s: duration '%s' is too long", what,
                     s);
      return false;
   }
   *out_ns = (uint64_t)ns;
   return true;
}

/* lab_parse_int -- strict decimal within [min, max]. */
bool
lab_parse_int (const char *s, const char *what, int64_t min, int64_t max, int64_t *out, bson_error_t *error)
{
   char *end;
   long long v;

   if (!s || !*s) {
      goto bad;
   }
   errno = 0;
   v = strtoll (s, &end, 10);
   if (errno == ERANGE || *end || end == s) {
      goto bad;
   }
   if (v < min || v > max) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s: %lld is out of range [%" PRId64 ", %" PRId64 "]", what, v, min, max);
      return false;
   }
   *out = v;
   return true;
bad:
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "%s: '%s' is not an integer", what,
                  s ? s : "");
   return false;
}

/* lab_format_bytes -- binary units, two decimals. */
const char *
lab_format_bytes (uint64_t bytes, char *buf, size_t len)
{
   static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
   double v = (double)bytes;
   int i = 0;

   while (v >= 1024.0 && i < 4) {
      v /= 1024.0;
      i++;
   }
   if (i == 0) {
      bson_snprintf (buf, len, "%" PRIu64 " B", bytes);
   } else {
      bson_snprintf (buf, len, "%.2f %s", v, u[i]);
   }
   return buf;
}

uint64_t
lab_now_ns (void)
{
   struct timespec ts;
   clock_gettime (CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* lab_parse_stat_cpu -- see opts.h. */
bool
lab_parse_stat_cpu (const char *stat, long ticks_per_s, double *cpu_s)
{
   const char *p = strrchr (stat, ')');
   unsigned long long ticks[2] = { 0, 0 };
   int field;

   if (!p || ticks_per_s <= 0) {
      return false;
   }
   p++;
   /* the fields after the command name: 3 (state) .. 13 skipped, then 14 (utime) and 15 (stime) */
   for (field = 3; field <= 15; field++) {
      const char *start;
      while (isspace ((unsigned char)*p)) {
         p++;
      }
      if (!*p) {
         return false;
      }
      start = p;
      while (*p && !isspace ((unsigned char)*p)) {
         p++;
      }
      if (field >= 14) {
         char *end;
         if (!isdigit ((unsigned char)*start)) {
            return false;
         }
         errno = 0;
         ticks[field - 14] = strtoull (start, &end, 10);
         if (errno != 0 || end != p) {
            return false;
         }
      }
   }
   *cpu_s = (double)(ticks[0] + ticks[1]) / (double)ticks_per_s;
   return true;
}

/* lab_process_cpu_s -- see opts.h. */
double
lab_process_cpu_s (int64_t pid)
{
   char path[64];
   char line[1024];
   clockid_t clk;
   struct timespec ts;
   FILE *f;
   double cpu_s;
   bool ok;

   if (pid <= 0) {
      return -1;
   }
   /* the process's CPU clock: the same sum as utime + stime, to the nanosecond where /proc/PID/stat
    * counts clock ticks (10 ms: as long as a whole small load); its exited threads included */
   if (clock_getcpuclockid ((pid_t)pid, &clk) == 0 && clock_gettime (clk, &ts) == 0) {
      return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
   }
   snprintf (path, sizeof path, "/proc/%lld/stat", (long long)pid);
   f = fopen (path, "r");
   if (!f) {
      return -1;
   }
   ok = fgets (line, sizeof line, f) != NULL && lab_parse_stat_cpu (line, sysconf (_SC_CLK_TCK), &cpu_s);
   fclose (f);
   return ok ? cpu_s : -1;
}

/* next_item -- the next comma-separated item of *s into buf; false at the end. Empty items are kept
 * (as "") so the caller can refuse them. */
static bool
next_item (const char **s, char *buf, size_t len, bool *done)
{
   const char *comma;
   size_t n;

   if (*done) {
      return false;
   }
   comma = strchr (*s, ',');
   n = comma ? (size_t)(comma - *s) : strlen (*s);
   if (n >= len) {
      n = len - 1;
   }
   memcpy (buf, *s, n);
   buf[n] = '\0';
   if (comma) {
      *s = comma + 1;
   } else {
      *done = true;
   }
   return true;
}

/* in_order -- a list item against the one before it: `sign` of (item - previous), 1 for the first. A
 * repeat or a smaller value is LAB_ERROR_USAGE naming the item. */
static bool
in_order (int sign, const char *what, const char *item, const char *noun, bson_error_t *error)
{
   if (sign > 0) {
      return true;
   }
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                  "%s: %s is %s the one before it: give the %s once each, smallest first", what, item,
                  sign == 0 ? "the same as" : "smaller than", noun);
   return false;
}

/* grow -- v with room for one more of n items of `size` bytes (capacity *cap, doubled when full). */
static void *
grow (void *v, size_t *cap, size_t n, size_t size)
{
   if (n == *cap) {
      *cap *= 2;
      v = bson_realloc (v, *cap * size);
   }
   return v;
}

/* lab_parse_sizes -- see opts.h. */
bool
lab_parse_sizes (const char *s, const char *what, const char *noun, const char *hint, lab_sizes_t *out,
                 bson_error_t *error)
{
   char item[64];
   bool done = false;
   size_t cap = 4;

   lab_sizes_free (out);
   out->v = bson_malloc (cap * sizeof *out->v);
   while (next_item (&s, item, sizeof item, &done)) {
      uint64_t v;
      if (!item[0]) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "%s: empty item in the list (%s)",
                        what, hint);
         goto fail;
      }
      if (!lab_parse_size (item, what, &v, error)) {
         goto fail;
      }
      if (!in_order (out->n > 0 ? (v > out->v[out->n - 1]) - (v < out->v[out->n - 1]) : 1, what, item, noun,
                     error)) {
         goto fail;
      }
      out->v = grow (out->v, &cap, out->n, sizeof *out->v);
      out->v[out->n++] = v;
   }
   return true;
fail:
   lab_sizes_free (out);
   return false;
}

/* lab_parse_ratios -- see opts.h. */
bool
lab_parse_ratios (const char *s, const char *what, const char *noun, const char *hint, lab_ratios_t *out,
                  bson_error_t *error)
{
   char item[64];
   bool done = false;
   size_t cap = 4;

   lab_ratios_free (out);
   out->v = bson_malloc (cap * sizeof *out->v);
   while (next_item (&s, item, sizeof item, &done)) {
      char *end;
      double v;

      errno = 0;
      v = strtod (item, &end);
      if (!item[0] || *end || errno || !isfinite (v) || v <= 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "%s: \"%s\" is not a positive number (%s)", what, item, hint);
         goto fail;
      }
      if (!in_order (out->n > 0 ? (v > out->v[out->n - 1]) - (v < out->v[out->n - 1]) : 1, what, item, noun,
                     error)) {
         goto fail;
      }
      out->v = grow (out->v, &cap, out->n, sizeof *out->v);
      out->v[out->n++] = v;
   }
   return true;
fail:
   lab_ratios_free (out);
   return false;
}

/* lab_sizes_free -- see opts.h. */
void
lab_sizes_free (lab_sizes_t *l)
{
   bson_free (l->v);
   l->v = NULL;
   l->n = 0;
}

/* lab_ratios_free -- see opts.h. */
void
lab_ratios_free (lab_ratios_t *l)
{
   bson_free (l->v);
   l->v = NULL;
   l->n = 0;
}

/* lab_parse_names -- see opts.h. */
bool
lab_parse_names (const char *const *values, size_t n, const char *what, char ***out, bson_error_t *error)
{
   size_t i, k = 0, cap = 0;
   char **names = NULL;

   *out = NULL;
   for (i = 0; i < n; i++) {
      const char *p = values[i], *end;

      do {
         end = strchr (p, ',');
         if (end == p || !*p) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                           "%s '%s': an empty name (give collection names separated by commas)", what,
                           values[i]);
            bson_strfreev (names);
            return false;
         }
         if (k + 2 > cap) {
            cap = cap ? cap * 2 : 8;
            names = bson_realloc (names, cap * sizeof *names);
         }
         names[k++] = end ? bson_strndup (p, (size_t)(end - p)) : bson_strdup (p);
         names[k] = NULL;
         p = end ? end + 1 : NULL;
      } while (p);
   }
   *out = names;
   return true;
}
