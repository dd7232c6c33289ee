/*
 * wl_mix_report.c -- the user's mix in words (wl_mix.h): the verdict sentence and scancmp's terminal
 * summary, both read from the results' "mix" object alone (pure), so the file says what the terminal said.
 */
#include "scan/wl_mix.h"

#include "core/results.h"

#include <math.h>
#include <string.h>

/* One layout of the "mix" object, as the summary reads it (-1: absent). */
typedef struct {
   const char *name;
   double elapsed_s, ops_per_s, x, cpu_s;
   int64_t engine_write, disk_write, disk_read;
   int64_t ops[LAB_WL_NKINDS], rows[LAB_WL_NKINDS];
   double time_s[LAB_WL_NKINDS], p50[LAB_WL_NKINDS], p95[LAB_WL_NKINDS], p99[LAB_WL_NKINDS];
} rl_t;

/* One "mix" object read. */
typedef struct {
   rl_t l[LAB_RESULTS_MAX_LAYOUTS];
   size_t n, win;
   const char *winner, *spec;
   int64_t weight[LAB_WL_NKINDS], ops, workers;
   bool equal, cold;
} rm_t;

/* num -- a number at `path` of doc (-1: absent). */
static double
num (const bson_t *doc, const char *path)
{
   double v;
   return lab_results_get_number (doc, path, &v) ? v : -1;
}

/* kind_of -- the lab_scan_wl_kind_t named `name` (-1: none). */
static int
kind_of (const char *name)
{
   int k;
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      if (strcmp (name, lab_scan_wl_name ((lab_scan_wl_kind_t)k)) == 0) {
         return k;
      }
   }
   return -1;
}

/* read_types -- a layout's by_type array into *l. */
static void
read_types (bson_iter_t *bt, rl_t *l)
{
   while (bson_iter_next (bt)) {
      const uint8_t *data;
      uint32_t len;
      bson_t one;
      bson_iter_t f;
      int k;

      if (!BSON_ITER_HOLDS_DOCUMENT (bt)) {
         continue;
      }
      bson_iter_document (bt, &len, &data);
      if (!bson_init_static (&one, data, len) || !bson_iter_init_find (&f, &one, "op") ||
          !BSON_ITER_HOLDS_UTF8 (&f) || (k = kind_of (bson_iter_utf8 (&f, NULL))) < 0) {
         continue;
      }
      l->ops[k] = (int64_t)num (&one, "ops");
      l->rows[k] = (int64_t)num (&one, "rows");
      l->time_s[k] = num (&one, "time_s");
      l->p50[k] = num (&one, "latency_ms.p50");
      l->p95[k] = num (&one, "latency_ms.p95");
      l->p99[k] = num (&one, "latency_ms.p99");
   }
}

/* read_mix -- the "mix" object into *m; false when it lacks its layouts or winner. */
static bool
read_mix (const bson_t *mix, rm_t *m)
{
   bson_iter_t it, la, f;
   size_t i;
   int k;

   memset (m, 0, sizeof *m);
   m->winner = m->spec = "?";
   m->ops = (int64_t)num (mix, "ops");
   m->workers = (int64_t)num (mix, "workers");
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      char path[64];
      bson_snprintf (path, sizeof path, "proportions.%s", lab_scan_wl_name ((lab_scan_wl_kind_t)k));
      m->weight[k] = (int64_t)fmax (0, num (mix, path));
   }
   if (bson_iter_init_find (&it, mix, "spec") && BSON_ITER_HOLDS_UTF8 (&it)) {
      m->spec = bson_iter_utf8 (&it, NULL);
   }
   m->equal =
      !bson_iter_init_find (&it, mix, "rows_equal") || !BSON_ITER_HOLDS_BOOL (&it) || bson_iter_bool (&it);
   m->cold = bson_iter_init_find (&it, mix, "cold") && BSON_ITER_HOLDS_BOOL (&it) && bson_iter_bool (&it);
   if (!bson_iter_init_find (&it, mix, "winner") || !BSON_ITER_HOLDS_UTF8 (&it)) {
      return false;
   }
   m->winner = bson_iter_utf8 (&it, NULL);
   if (!bson_iter_init_find (&it, mix, "layouts") || !bson_iter_recurse (&it, &la)) {
      return false;
   }
   while (bson_iter_next (&la) && m->n < LAB_RESULTS_MAX_LAYOUTS) {
      const uint8_t *data;
      uint32_t len;
      bson_t d;
      rl_t *l = &m->l[m->n];

      if (!BSON_ITER_HOLDS_DOCUMENT (&la)) {
         continue;
      }
      bson_iter_document (&la, &len, &data);
      if (!bson_init_static (&d, data, len) || !bson_iter_init_find (&f, &d, "layout") ||
          !BSON_ITER_HOLDS_UTF8 (&f)) {
         continue;
      }
      l->name = bson_iter_utf8 (&f, NULL);
      l->elapsed_s = num (&d, "elapsed_s");
      l->ops_per_s = num (&d, "ops_per_s");
      l->x = num (&d, "x_vs_winner");
      l->cpu_s = num (&d, "cpu_s");
      l->engine_write = (int64_t)num (&d, "engine_write_bytes");
      l->disk_write = (int64_t)num (&d, "disk_write_bytes");
      l->disk_read = (int64_t)num (&d, "disk_read_bytes");
      if (bson_iter_init_find (&f, &d, "by_type") && BSON_ITER_HOLDS_ARRAY (&f) &&
          bson_iter_recurse (&f, &it)) {
         read_types (&it, l);
      }
      m->n++;
   }
   for (i = 0; i < m->n; i++) {
      if (strcmp (m->l[i].name, m->winner) == 0) {
         m->win = i;
         return true;
      }
   }
   return false;
}

/* share_text -- a weight's share as "5%" or "33.3%". */
static void
share_text (int64_t w, int64_t sum, char *buf, size_t len)
{
   double pct = sum > 0 ? 100.0 * (double)w / (double)sum : 0;
   double r = round (pct * 10) / 10;

   bson_snprintf (buf, len, r == floor (r) ? "%.0f%%" : "%.1f%%", r);
}

/* join -- parts[0..n) as "a", "a and b", "a, b and c" appended to s. */
static void
join (bson_string_t *s, char parts[][160], int n)
{
   int i;

   for (i = 0; i < n; i++) {
      bson_string_append_printf (s, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ", parts[i]);
   }
}

/* against -- the clause of the winner w against layout o: "1.8x faster overall than detail: it wins load
 * (9.1x) and range (2.0x), loses row (1.3x) and writes 4.1x the bytes". */
static void
against (bson_string_t *s, const rl_t *w, const rl_t *o, bool first)
{
   char wins[LAB_WL_NKINDS][160], loses[LAB_WL_NKINDS][160], clauses[3][160];
   int nw = 0, nl = 0, nc = 0, k;
   bson_string_t *tmp;
   double wb = -1, ob = -1;

   for (k = 0; k < LAB_WL_NKINDS; k++) {
      double a, b;
      if (w->ops[k] <= 0 || o->ops[k] <= 0 || w->time_s[k] <= 0 || o->time_s[k] <= 0) {
         continue;
      }
      a = w->time_s[k] / (double)w->ops[k];
      b = o->time_s[k] / (double)o->ops[k];
      if (b >= a) {
         bson_snprintf (wins[nw++], 160, "%s (%.1fx)", lab_scan_wl_name ((lab_scan_wl_kind_t)k), b / a);
      } else {
         bson_snprintf (loses[nl++], 160, "%s (%.1fx)", lab_scan_wl_name ((lab_scan_wl_kind_t)k), a / b);
      }
   }
   if (w->engine_write >= 0 && o->engine_write > 0) {
      wb = (double)w->engine_write;
      ob = (double)o->engine_write;
   } else if (w->disk_write >= 0 && o->disk_write > 0) {
      wb = (double)w->disk_write;
      ob = (double)o->disk_write;
   }
   tmp = bson_string_new ("");
   if (nw > 0) {
      bson_string_append (tmp, "wins ");
      join (tmp, wins, nw);
      bson_strncpy (clauses[nc++], tmp->str, 160);
      bson_string_truncate (tmp, 0);
   }
   if (nl > 0) {
      bson_string_append (tmp, "loses ");
      join (tmp, loses, nl);
      bson_strncpy (clauses[nc++], tmp->str, 160);
   }
   bson_string_free (tmp, true);
   if (ob > 0) {
      bson_snprintf (clauses[nc++], 160, "writes %.1fx the bytes", wb / ob);
   }
   bson_string_append_printf (s, "%.1fx faster %sthan %s", w->elapsed_s > 0 ? o->elapsed_s / w->elapsed_s : 0,
                              first ? "overall " : "", o->name);
   if (nc > 0) {
      bson_string_append (s, ": it ");
      join (s, clauses, nc);
   }
}

/* lab_scan_mix_verdict -- see wl_mix.h. */
char *
lab_scan_mix_verdict (const bson_t *mix)
{
   rm_t m;
   bson_string_t *s;
   int64_t sum = 0;
   size_t i;
   int k;
   bool first = true;

   if (!read_mix (mix, &m) || m.n < 2) {
      return NULL;
   }
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      sum += m.weight[k];
   }
   s = bson_string_new ("Under this mix (");
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      char pct[32];
      if (m.weight[k] <= 0) {
         continue;
      }
      share_text (m.weight[k], sum, pct, sizeof pct);
      bson_string_append_printf (s, "%s%s %s", first ? "" : ", ", lab_scan_wl_name ((lab_scan_wl_kind_t)k),
                                 pct);
      first = false;
   }
   bson_string_append_printf (s, ") the %s layout is ", m.winner);
   first = true;
   for (i = 0; i < m.n; i++) {
      if (i == m.win) {
         continue;
      }
      if (!first) {
         bson_string_append (s, "; ");
      }
      against (s, &m.l[m.win], &m.l[i], first);
      first = false;
   }
   bson_string_append (s, ".");
   return bson_string_free (s, false);
}

/* mb -- bytes as "12.3 MB", or "n/a". */
static void
mb (int64_t b, char *buf, size_t len)
{
   if (b < 0) {
      bson_snprintf (buf, len, "n/a");
   } else {
      bson_snprintf (buf, len, "%.1f MB", (double)b / 1e6);
   }
}

/* lab_scan_mix_table_render -- see wl_mix.h. */
char *
lab_scan_mix_table_render (const bson_t *results)
{
   bson_iter_t it;
   const uint8_t *data;
   uint32_t len;
   bson_t mix;
   rm_t m;
   bson_string_t *s;
   char *verdict;
   size_t i;
   int k;

   if (!bson_iter_init_find (&it, results, "mix") || !BSON_ITER_HOLDS_DOCUMENT (&it)) {
      return NULL;
   }
   bson_iter_document (&it, &len, &data);
   if (!bson_init_static (&mix, data, len) || !read_mix (&mix, &m)) {
      return NULL;
   }
   s = bson_string_new ("");
   bson_string_append_printf (s, "\nThe mix %s: %lld operations, %lld workers, %s\n", m.spec,
                              (long long)m.ops, (long long)m.workers, m.cold ? "cold" : "not cold");
   bson_string_append_printf (s, "  %-12s %10s %10s %7s %14s %14s %14s\n", "layout", "elapsed", "ops/s", "x",
                              "engine writes", "disk writes", "disk reads");
   for (i = 0; i < m.n; i++) {
      const rl_t *l = &m.l[i];
      char e[32], w[32], r[32];
      mb (l->engine_write, e, sizeof e);
      mb (l->disk_write, w, sizeof w);
      mb (l->disk_read, r, sizeof r);
      bson_string_append_printf (s, "  %-12s %8.3f s %10.1f %6.2fx %14s %14s %14s\n", l->name, l->elapsed_s,
                                 l->ops_per_s, l->x, e, w, r);
   }
   bson_string_append_printf (s, "  %-12s %-8s %8s %10s %9s %9s %9s %10s\n", "per type", "layout", "ops",
                              "busy", "p50 ms", "p95 ms", "p99 ms", "rows");
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      for (i = 0; i < m.n; i++) {
         const rl_t *l = &m.l[i];
         if (l->ops[k] <= 0) {
            continue;
         }
         bson_string_append_printf (s, "  %-12s %-8s %8lld %8.3f s %9.3f %9.3f %9.3f %10lld\n",
                                    lab_scan_wl_name ((lab_scan_wl_kind_t)k), l->name, (long long)l->ops[k],
                                    l->time_s[k], l->p50[k], l->p95[k], l->p99[k], (long long)l->rows[k]);
      }
   }
   verdict = lab_scan_mix_verdict (&mix);
   if (verdict) {
      bson_string_append_printf (s, "%s\n", verdict);
   }
   if (!m.equal) {
      bson_string_append (s, "  RESULTS DIFFER BETWEEN LAYOUTS (the digests differ)\n");
   }
   bson_free (verdict);
   return bson_string_free (s, false);
}
