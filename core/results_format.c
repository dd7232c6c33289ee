/*
 * results_format.c -- the value formatting of the results model (results.h) that scancmp's table and
 * layout-report share: sizes, rates, times, ratios and factors as text.
 */
#include "core/results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* ---- formatting ---------------------------------------------------------------------------------- */

typedef struct {
   double div;
   int decimals;
   const char *suffix;
} scale_t;

/* decimals_for -- 2 decimals below 10, 1 below 100, none above: three significant digits or more. */
static int
decimals_for (double v)
{
   v = fabs (v);
   if (v < 9.995) {
      return 2;
   }
   if (v < 99.95) {
      return 1;
   }
   return 0;
}

/* choose_scale -- the divisor, decimals and suffix for showing `v` in `unit`. */
static scale_t
choose_scale (lab_unit_t unit, double v)
{
   static const char *const byte_units[] = { " B", " KB", " MB", " GB", " TB" };
   static const char *const rate_units[] = { " B/s", " KB/s", " MB/s", " GB/s", " TB/s" };
   scale_t s = { 1.0, 0, "" };
   int k = 0;
   double a;

   switch (unit) {
   case LAB_UNIT_COUNT:
      s.decimals = (v == floor (v) || fabs (v) >= 100) ? 0 : (fabs (v) < 10 ? 2 : 1);
      return s;
   case LAB_UNIT_RATE:
      s.suffix = "/s";
      s.decimals = fabs (v) >= 99.95 ? 0 : (fabs (v) < 9.995 ? 2 : 1);
      return s;
   case LAB_UNIT_SECONDS:
      s.suffix = " s";
      s.decimals = (v != 0.0 && fabs (v) < 0.995) ? 3 : decimals_for (v);
      return s;
   case LAB_UNIT_MS:
      s.suffix = " ms";
      /* sub-millisecond latencies (a folded master in cache) keep three decimals: 0.004 ms, not 0.00 */
      s.decimals = (v != 0.0 && fabs (v) < 0.995) ? 3 : decimals_for (v);
      return s;
   case LAB_UNIT_PCT:
      s.suffix = "%";
      s.decimals = 1;
      return s;
   case LAB_UNIT_BYTES:
   case LAB_UNIT_MB_S:
      a = fabs (v) * (unit == LAB_UNIT_MB_S ? 1e6 : 1.0);
      while (k < 4 && a >= 999.5) {
         a /= 1000.0;
         k++;
      }
      s.div = pow (1000.0, k) / (unit == LAB_UNIT_MB_S ? 1e6 : 1.0);
      s.suffix = unit == LAB_UNIT_MB_S ? rate_units[k] : byte_units[k];
      s.decimals = k == 0 ? 0 : decimals_for (a);
      return s;
   }
   return s;
}

/* append_number -- v with `decimals` decimals and thousands separators in its integer part. */
static void
append_number (bson_string_t *out, double v, int decimals)
{
   char buf[64];
   char *p, *dot;
   size_t int_len, i;

   if (v == 0.0) {
      v = 0.0; /* no "-0" */
   }
   snprintf (buf, sizeof buf, "%.*f", decimals, v);
   if (strcmp (buf, "-0") == 0 || strncmp (buf, "-0.", 3) == 0) {
      /* a tiny negative rounded to zero prints without its sign */
      bool all_zero = true;
      for (p = buf + 1; *p; p++) {
         if (*p != '0' && *p != '.') {
            all_zero = false;
         }
      }
      if (all_zero) {
         memmove (buf, buf + 1, strlen (buf));
      }
   }
   p = buf;
   if (*p == '-') {
      bson_string_append_c (out, '-');
      p++;
   }
   dot = strchr (p, '.');
   int_len = dot ? (size_t)(dot - p) : strlen (p);
   for (i = 0; i < int_len; i++) {
      if (i > 0 && (int_len - i) % 3 == 0) {
         bson_string_append_c (out, ',');
      }
      bson_string_append_c (out, p[i]);
   }
   if (dot) {
      bson_string_append (out, dot);
   }
}

/* number_string -- append_number into a fresh string. Caller bson_free()s. */
static char *
number_string (double v, int decimals)
{
   bson_string_t *s = bson_string_new (NULL);

   append_number (s, v, decimals);
   return bson_string_free (s, false);
}

/* lab_results_format -- see results.h. */
char *
lab_results_format (lab_unit_t unit, double v)
{
   bson_string_t *s = bson_string_new (NULL);
   scale_t sc = choose_scale (unit, v);

   append_number (s, v / sc.div, sc.decimals);
   bson_string_append (s, sc.suffix);
   return bson_string_free (s, false);
}

/* lab_results_format_stat -- see results.h. */
char *
lab_results_format_stat (lab_unit_t unit, const lab_stat_t *st, bool range)
{
   bson_string_t *s;
   scale_t sc;
   char *a, *b;

   if (!st->present) {
      return bson_strdup ("n/a");
   }
   sc = choose_scale (unit, st->median);
   if (unit == LAB_UNIT_COUNT && (st->min != floor (st->min) || st->max != floor (st->max)) &&
       sc.decimals == 0 && fabs (st->median) < 100) {
      sc.decimals = 1;
   }
   s = bson_string_new (NULL);
   append_number (s, st->median / sc.div, sc.decimals);
   bson_string_append (s, sc.suffix);
   if (range && st->n > 1) {
      a = number_string (st->min / sc.div, sc.decimals);
      b = number_string (st->max / sc.div, sc.decimals);
      if (strcmp (a, b) != 0) {
         bson_string_append_printf (s, " (%s–%s)", a, b);
      }
      bson_free (a);
      bson_free (b);
   }
   return bson_string_free (s, false);
}

/* lab_results_format_ratio -- see results.h. */
char *
lab_results_format_ratio (double ratio)
{
   double p = ratio * 100.0;
   bson_string_t *s;

   if (p > 0 && p < 0.05) {
      return bson_strdup ("<0.1%");
   }
   if (p < 9.95) {
      return bson_strdup_printf ("%.1f%%", p);
   }
   s = bson_string_new (NULL);
   append_number (s, round (p), 0);
   bson_string_append_c (s, '%');
   return bson_string_free (s, false);
}

/* lab_results_format_factor -- see results.h. */
char *
lab_results_format_factor (double f)
{
   bson_string_t *s;

   if (f < 99.95) {
      return bson_strdup_printf (f < 9.995 ? "%.2fx" : "%.1fx", f);
   }
   s = bson_string_new (NULL);
   append_number (s, round (f), 0);
   bson_string_append_c (s, 'x');
   return bson_string_free (s, false);
}

/* lab_results_format_binary -- see results.h. */
char *
lab_results_format_binary (double bytes)
{
   static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
   double v = bytes;
   int k = 0;

   while (k < 4 && fabs (v) >= 1024.0) {
      v /= 1024.0;
      k++;
   }
   if (v == floor (v) || fabs (v) >= 99.5) {
      return bson_strdup_printf ("%.0f %s", v, u[k]);
   }
   return bson_strdup_printf (fabs (v) < 9.995 ? "%.3g %s" : "%.1f %s", v, u[k]);
}

/* format_ratio_ci -- a ratio cell: "19.6%", and with paired runs its 95% interval "19.6% [19.0–20.3%]". */
static char *
format_ratio_ci (double ratio, const lab_verdict_t *v)
{
   char *r = lab_results_format_ratio (ratio), *lo, *hi, *s;

   if (!v->has_ci) {
      return r;
   }
   lo = lab_results_format_ratio (v->lo);
   hi = lab_results_format_ratio (v->hi);
   if (strcmp (lo, hi) == 0) {
      /* every run gave the same ratio (a count): an interval of one value says nothing more */
      bson_free (lo);
      bson_free (hi);
      return r;
   }
   lo[strcspn (lo, "%")] = '\0';
   s = bson_strdup_printf ("%s [%s–%s]", r, lo, hi);
   bson_free (r);
   bson_free (lo);
   bson_free (hi);
   return s;
}

/* lab_results_nrow_cells -- see results.h. */
void
lab_results_nrow_cells (const lab_results_nrow_t *row, const lab_results_layouts_t *ls, bool range,
                        lab_results_ncells_t *cells)
{
   bson_string_t *b;
   size_t i;
   char *f;

   memset (cells, 0, sizeof *cells);
   cells->n = row->n;
   for (i = 0; i < row->n; i++) {
      cells->value[i] = lab_results_format_stat (row->metric->unit, &row->stat[i], range);
      cells->ratio[i] = i == row->reference ? bson_strdup ("")
                        : row->has_ratio[i] ? format_ratio_ci (row->ratio[i], &row->vs_ref[i])
                        : row->zero_ref && row->stat[i].present ? bson_strdup ("–")
                                                                : bson_strdup ("n/a");
   }
   switch (row->winner) {
   case LAB_WIN_ONE:
      if (row->factor > 0) {
         /* a winner by under 0.5% (paired runs can tell it): "1.00x" would read as no difference */
         f = row->factor < 1.005 ? bson_strdup_printf ("%.3fx", row->factor)
                                 : lab_results_format_factor (row->factor);
         cells->better = bson_strdup_printf ("%s %s", ls->l[row->best].name, f);
         bson_free (f);
      } else {
         cells->better = bson_strdup (ls->l[row->best].name);
      }
      break;
   case LAB_WIN_TIE:
      if (row->ntied == row->n) {
         cells->better = bson_strdup ("same");
         break;
      }
      b = bson_string_new (NULL);
      for (i = 0; i < row->n; i++) {
         if (row->tied[i]) {
            bson_string_append_printf (b, "%s%s", b->len ? " = " : "", ls->l[i].name);
         }
      }
      cells->better = bson_string_free (b, false);
      break;
   case LAB_WIN_NONE:
   default:
      cells->better = bson_strdup ("");
      break;
   }
}

/* lab_results_ncells_cleanup -- see results.h. */
void
lab_results_ncells_cleanup (lab_results_ncells_t *cells)
{
   size_t i;

   for (i = 0; i < LAB_RESULTS_MAX_LAYOUTS; i++) {
      bson_free (cells->value[i]);
      bson_free (cells->ratio[i]);
   }
   bson_free (cells->better);
   memset (cells, 0, sizeof *cells);
}

/* lab_results_shows_zero -- see results.h. */
bool
lab_results_shows_zero (lab_unit_t unit, double v)
{
   char *s = lab_results_format (unit, v);
   bool zero = true;
   const char *p;

   for (p = s; *p; p++) {
      if (*p >= '1' && *p <= '9') {
         zero = false;
      }
   }
   bson_free (s);
   return zero;
}
