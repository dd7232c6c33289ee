/*
 * wl_mix_report.c -- the user's mix in words (wl_mix.h): the verdict sentence and scancmp's terminal
 * summary, both read from the results' "mix" object alone (pure), so the file says what the terminal said.
 */
#include "scan/mix/wl_mix.h"

#include "core/results.h"

#include <math.h>
#include <string.h>

/* One layout of the "mix" object, as the summary reads it (-1: absent). */
typedef struct {
   const char *name;
   double elapsed_s, ops_per_s, x, cpu_s, latency_s;
   double achieved, max_lag_ms, client_cores, store_cores, machine_cores_busy, machine_cores;
   bool store_in_client;
   bool behind, saturated;
   int64_t engine_write, disk_write, disk_read;
   int64_t ops[LAB_WL_NKINDS], rows[LAB_WL_NKINDS];
   double time_s[LAB_WL_NKINDS];
   double lat[LAB_WL_NKINDS][3], svc[LAB_WL_NKINDS][3]; /* p50, p95, p99 (-1: n/a) */
} rl_t;

/* One "mix" object read. */
typedef struct {
   rl_t l[LAB_RESULTS_MAX_LAYOUTS];
   size_t n, win;
   const char *winner, *spec, *rule; /* rule: what the one rule's winner rests on (NULL: not recorded) */
   bool same;                        /* the rule could not tell the winner from the runner-up */
   int64_t weight[LAB_WL_NKINDS], ops, workers;
   double rate; /* open loop: ops per second asked; 0: closed */
   bool equal, cold;
} rm_t;

/* num -- a number at `path` of doc (-1: absent). */
static double
num (const bson_t *doc, const char *path)
{
   double v;
   return lab_results_get_number (doc, path, &v) ? v : -1;
}

/* flag -- a bool at `path` of doc (false: absent). */
static bool
flag (const bson_t *doc, const char *path)
{
   bson_iter_t it;
   return bson_iter_init (&it, doc) && bson_iter_find_descendant (&it, path, &it) &&
          BSON_ITER_HOLDS_BOOL (&it) && bson_iter_bool (&it);
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
      l->lat[k][0] = num (&one, "latency_ms.p50");
      l->lat[k][1] = num (&one, "latency_ms.p95");
      l->lat[k][2] = num (&one, "latency_ms.p99");
      l->svc[k][0] = num (&one, "service_ms.p50");
      l->svc[k][1] = num (&one, "service_ms.p95");
      l->svc[k][2] = num (&one, "service_ms.p99");
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
   m->rate = fmax (0, num (mix, "rate_ops_s"));
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
   m->same = bson_iter_init_find (&it, mix, "same") && BSON_ITER_HOLDS_BOOL (&it) && bson_iter_bool (&it);
   m->rule = bson_iter_init_find (&it, mix, "rule") && BSON_ITER_HOLDS_UTF8 (&it) ? bson_iter_utf8 (&it, NULL)
                                                                                  : NULL;
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
      l->latency_s = num (&d, "latency_s");
      l->achieved = num (&d, "schedule.achieved_ops_s");
      l->max_lag_ms = num (&d, "schedule.max_lag_ms");
      l->behind = flag (&d, "schedule.behind");
      l->client_cores = num (&d, "cpu.client_cores");
      l->store_cores = num (&d, "cpu.store_cores");
      l->machine_cores_busy = num (&d, "cpu.machine_busy_cores");
      l->machine_cores = num (&d, "cpu.machine_cores");
      l->store_in_client = l->store_cores == l->client_cores;
      l->saturated = flag (&d, "cpu.saturated");
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
against (bson_string_t *s, const rm_t *m, const rl_t *w, const rl_t *o, bool first)
{
   /* an open loop's elapsed time is its schedule's: its layouts differ in the latencies they cause */
   double ws = m->rate > 0 ? w->latency_s : w->elapsed_s, os = m->rate > 0 ? o->latency_s : o->elapsed_s;
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
   bson_string_append_printf (s, "%.1fx faster %sthan %s", ws > 0 ? os / ws : 0, first ? "overall " : "",
                              o->name);
   if (first && m->rate > 0) {
      bson_string_append_printf (s, " (latencies summed, at %g ops/s)", m->rate);
   }
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
      against (s, &m, &m.l[m.win], &m.l[i], first);
      first = false;
   }
   if (m.rule) {
      /* the one rule: what the overall winner rests on, or that the runs cannot tell it from the rest */
      bson_string_append_printf (
         s, m.same ? " (by the rule no difference the runs can tell overall: %s)" : " (%s)", m.rule);
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

/* ms_cell -- a latency in ms right-aligned in 9, or "n/a" (too few ops for the percentile, or unknown). */
static void
ms_cell (double v, char *buf, size_t len)
{
   if (v < 0) {
      bson_snprintf (buf, len, "%9s", "n/a");
   } else {
      bson_snprintf (buf, len, "%9.3f", v);
   }
}

/* cores_cell -- cores busy as "1.92", or "n/a". */
static void
cores_cell (double v, char *buf, size_t len)
{
   if (v < 0) {
      bson_snprintf (buf, len, "n/a");
   } else {
      bson_snprintf (buf, len, "%.2f", v);
   }
}

/* render_layouts -- the table per layout, then how the open loop kept its schedule and the CPU. */
static void
render_layouts (bson_string_t *s, const rm_t *m)
{
   size_t i;

   bson_string_append_printf (s, "  %-12s %10s %10s %7s %14s %14s %14s %8s %8s\n", "layout", "elapsed",
                              "ops/s", "x", "engine writes", "disk writes", "disk reads", "client", "store");
   for (i = 0; i < m->n; i++) {
      const rl_t *l = &m->l[i];
      char e[32], w[32], r[32], cc[16], sc[16];
      mb (l->engine_write, e, sizeof e);
      mb (l->disk_write, w, sizeof w);
      mb (l->disk_read, r, sizeof r);
      cores_cell (l->client_cores, cc, sizeof cc);
      cores_cell (l->store_cores, sc, sizeof sc);
      bson_string_append_printf (s, "  %-12s %8.3f s %10.1f %6.2fx %14s %14s %14s %8s %8s\n", l->name,
                                 l->elapsed_s, l->ops_per_s, l->x, e, w, r, cc, sc);
   }
   bson_string_append (
      s, "  client, store: the cores they kept busy (embedded: one process, the same figure)\n");
   for (i = 0; i < m->n; i++) {
      const rl_t *l = &m->l[i];
      if (m->rate > 0) {
         bson_string_append_printf (s, "  %s: %.1f ops/s achieved of %g asked, max lag %.3f ms%s\n", l->name,
                                    l->achieved, m->rate, l->max_lag_ms,
                                    l->behind ? ": BEHIND SCHEDULE, the machine could not sustain the rate "
                                                "(the latencies hold the backlog)"
                                              : "");
      }
      if (l->saturated) {
         /* whose CPU: the load generator and the store, or other processes of the machine */
         double ours = l->client_cores + (l->store_in_client || l->store_cores < 0 ? 0 : l->store_cores);
         bson_string_append_printf (
            s,
            "  %s: the machine was saturated (%.2f of %.0f cores busy, %.2f of them the "
            "client's and the store's): latencies include waiting for a CPU\n",
            l->name, l->machine_cores_busy, l->machine_cores, ours);
      }
   }
}

/* render_types -- per type and layout: ops, busy time, percentiles (open loop: latency from the intended
 * start, then the service time), rows. */
static void
render_types (bson_string_t *s, const rm_t *m)
{
   bool open = m->rate > 0;
   size_t i;
   int k, q;

   bson_string_append_printf (s, "  %-12s %-8s %8s %10s %9s %9s %9s", "per type", "layout", "ops", "busy",
                              "p50 ms", "p95 ms", "p99 ms");
   if (open) {
      bson_string_append_printf (s, " %9s %9s %9s", "svc p50", "svc p95", "svc p99");
   }
   bson_string_append_printf (s, " %10s\n", "rows");
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      for (i = 0; i < m->n; i++) {
         const rl_t *l = &m->l[i];
         char c[16];
         if (l->ops[k] <= 0) {
            continue;
         }
         bson_string_append_printf (s, "  %-12s %-8s %8lld %8.3f s", lab_scan_wl_name ((lab_scan_wl_kind_t)k),
                                    l->name, (long long)l->ops[k], l->time_s[k]);
         for (q = 0; q < (open ? 6 : 3); q++) {
            ms_cell (q < 3 ? l->lat[k][q] : l->svc[k][q - 3], c, sizeof c);
            bson_string_append_printf (s, " %s", c);
         }
         bson_string_append_printf (s, " %10lld\n", (long long)l->rows[k]);
      }
   }
   bson_string_append (s,
                       open ? "  p50..p99: from each op's intended start (the queueing it met counted); svc: "
                              "from its actual start; n/a: too few ops (p50 needs 2, p95 20, p99 100)\n"
                            : "  n/a: too few ops for the percentile (p50 needs 2, p95 20, p99 100)\n");
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

   if (!bson_iter_init_find (&it, results, "mix") || !BSON_ITER_HOLDS_DOCUMENT (&it)) {
      return NULL;
   }
   bson_iter_document (&it, &len, &data);
   if (!bson_init_static (&mix, data, len) || !read_mix (&mix, &m)) {
      return NULL;
   }
   s = bson_string_new ("");
   bson_string_append_printf (s, "\nThe mix %s: %lld operations, %lld workers, %s, ", m.spec,
                              (long long)m.ops, (long long)m.workers, m.cold ? "cold" : "not cold");
   if (m.rate > 0) {
      bson_string_append_printf (s, "open loop at %g ops/s\n", m.rate);
   } else {
      bson_string_append (s, "closed loop (each worker starts its next op when its last ends)\n");
   }
   render_layouts (s, &m);
   render_types (s, &m);
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
