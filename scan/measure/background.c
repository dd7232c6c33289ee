/*
 * background.c -- what else ran on this machine while a layout was measured (background.h).
 */
#include "scan/measure/background.h"

#include "core/opts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* lab_scan_bg_parse_stat -- see background.h. */
bool
lab_scan_bg_parse_stat (const char *text, lab_scan_bg_point_t *p)
{
   unsigned long long v[8] = { 0 };
   int n;

   /* user nice system idle iowait irq softirq steal [guest guest_nice: already in user and nice] */
   if (strncmp (text, "cpu ", 4) != 0) {
      return false;
   }
   n = sscanf (text + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
               &v[6], &v[7]);
   if (n < 4) {
      return false;
   }
   p->ticks_total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
   p->ticks_idle = v[3] + v[4];
   p->ticks_steal = v[7];
   p->ncpus = 0;
   for (text = strstr (text, "\ncpu"); text; text = strstr (text + 1, "\ncpu")) {
      p->ncpus += text[4] >= '0' && text[4] <= '9';
   }
   return true;
}

/* read_small -- the first len-1 bytes of a /proc file into buf; false when unreadable. */
static bool
read_small (const char *path, char *buf, size_t len)
{
   FILE *f = fopen (path, "r");
   size_t n;

   if (!f) {
      return false;
   }
   n = fread (buf, 1, len - 1, f);
   buf[n] = '\0';
   fclose (f);
   return n > 0;
}

/* proc_read_bytes -- /proc/PID/io read_bytes (the bytes the process made the block layer fetch, O_DIRECT
 * included); -1 when unreadable (another user's process). */
static int64_t
proc_read_bytes (int64_t pid)
{
   char path[64], buf[1024];
   const char *at;
   long long v;

   snprintf (path, sizeof path, "/proc/%lld/io", (long long)pid);
   if (pid <= 0 || !read_small (path, buf, sizeof buf) || !(at = strstr (buf, "\nread_bytes:")) ||
       sscanf (at + 12, "%lld", &v) != 1) {
      return -1;
   }
   return v;
}

/* lab_scan_bg_take -- see background.h. */
void
lab_scan_bg_take (int64_t server_pid, lab_scan_bg_point_t *p)
{
   char buf[32768]; /* /proc/stat: the cpu lines come first, ~80 bytes per CPU */
   int64_t self = (int64_t)getpid ();

   memset (p, 0, sizeof *p);
   p->t_ns = lab_now_ns ();
   p->load1 = -1;
   if (read_small ("/proc/loadavg", buf, sizeof buf) && sscanf (buf, "%lf", &p->load1) != 1) {
      p->load1 = -1;
   }
   p->have = read_small ("/proc/stat", buf, sizeof buf) && lab_scan_bg_parse_stat (buf, p);
   p->self_cpu_s = lab_process_cpu_s (self);
   p->self_read_bytes = proc_read_bytes (self);
   p->server_cpu_s = server_pid > 0 && server_pid != self ? lab_process_cpu_s (server_pid) : 0;
   p->server_read_bytes = server_pid > 0 && server_pid != self ? proc_read_bytes (server_pid) : 0;
}

/* lab_scan_bg_delta -- see background.h. */
void
lab_scan_bg_delta (const lab_scan_bg_point_t *a, const lab_scan_bg_point_t *b, long clk_tck,
                   int64_t device_read_bytes, lab_scan_background_t *out)
{
   uint64_t total, idle, steal;
   double busy_s, mine_s, quantum_s;
   char steal_txt[64] = "";

   memset (out, 0, sizeof *out);
   out->other_read_bytes = -1;
   out->steal_pct = -1;
   if (!a->have || !b->have || b->ticks_total < a->ticks_total || clk_tck <= 0 || b->t_ns <= a->t_ns) {
      return;
   }
   out->have = true;
   out->elapsed_s = (double)(b->t_ns - a->t_ns) / 1e9;
   out->load1_start = a->load1;
   out->load1_end = b->load1;
   total = b->ticks_total - a->ticks_total;
   idle = b->ticks_idle >= a->ticks_idle ? b->ticks_idle - a->ticks_idle : 0;
   steal = b->ticks_steal >= a->ticks_steal ? b->ticks_steal - a->ticks_steal : 0;
   out->steal_pct = total > 0 ? 100.0 * (double)steal / (double)total : 0;
   /* busy: every CPU's time in a non-idle state, steal aside (the hypervisor's, not a process's here) */
   busy_s = total >= idle + steal ? (double)(total - idle - steal) / (double)clk_tck : 0;
   mine_s =
      (a->self_cpu_s >= 0 && b->self_cpu_s >= a->self_cpu_s ? b->self_cpu_s - a->self_cpu_s : 0) +
      (a->server_cpu_s >= 0 && b->server_cpu_s >= a->server_cpu_s ? b->server_cpu_s - a->server_cpu_s : 0);
   /* the tick counters are 10 ms coarse: a few ticks below our own time is rounding, not a negative */
   out->other_cpu_s = busy_s > mine_s ? round ((busy_s - mine_s) * 100) / 100 : 0;
   out->other_cores = round (out->other_cpu_s / out->elapsed_s * 100) / 100;
   if (b->ncpus > 0 && out->other_cores > b->ncpus) {
      out->other_cores = b->ncpus; /* a window of a few ticks: the counters' rounding, not more CPUs */
   }
   if (device_read_bytes >= 0 && a->self_read_bytes >= 0 && b->self_read_bytes >= a->self_read_bytes &&
       a->server_read_bytes >= 0 && b->server_read_bytes >= a->server_read_bytes) {
      int64_t mine =
         (b->self_read_bytes - a->self_read_bytes) + (b->server_read_bytes - a->server_read_bytes);
      out->other_read_bytes = device_read_bytes > mine ? device_read_bytes - mine : 0;
   }
   /* each CPU's counters tick every 1/clk_tck s: over a window of a few ticks a reading of one tick more
    * or less at either end is rounding; only time beyond that says another process ran */
   quantum_s = 2.0 * (b->ncpus > 0 ? b->ncpus : 1) / (double)clk_tck;
   out->busy = (out->other_cores >= LAB_SCAN_BUSY_OTHER_CORES && out->other_cpu_s > quantum_s) ||
               (out->steal_pct >= LAB_SCAN_BUSY_STEAL_PCT && (double)steal / (double)clk_tck > quantum_s);
   if (out->busy) {
      if (out->steal_pct >= LAB_SCAN_BUSY_STEAL_PCT) {
         bson_snprintf (steal_txt, sizeof steal_txt, ", the hypervisor stole %.1f%% of the CPU time",
                        out->steal_pct);
      }
      bson_snprintf (out->busy_note, sizeof out->busy_note,
                     "other processes used %.2f cores (%.2f CPU s in %.2f s)%s; load average %.2f at the "
                     "start, %.2f at the end",
                     out->other_cores, out->other_cpu_s, out->elapsed_s, steal_txt, out->load1_start,
                     out->load1_end);
   }
}

/* lab_scan_bg_append -- see background.h. */
void
lab_scan_bg_append (bson_t *d, const lab_scan_background_t *bg)
{
   bson_t b;

   if (!bg->have) {
      return;
   }
   BSON_APPEND_DOCUMENT_BEGIN (d, "background", &b);
   BSON_APPEND_DOUBLE (&b, "elapsed_s", round (bg->elapsed_s * 1000) / 1000);
   if (bg->load1_start >= 0) {
      BSON_APPEND_DOUBLE (&b, "load_avg_1m_start", bg->load1_start);
   }
   if (bg->load1_end >= 0) {
      BSON_APPEND_DOUBLE (&b, "load_avg_1m_end", bg->load1_end);
   }
   BSON_APPEND_DOUBLE (&b, "steal_pct", round (bg->steal_pct * 10) / 10);
   BSON_APPEND_DOUBLE (&b, "other_cpu_s", bg->other_cpu_s);
   BSON_APPEND_DOUBLE (&b, "other_cores", bg->other_cores);
   if (bg->other_read_bytes >= 0) {
      BSON_APPEND_INT64 (&b, "other_read_bytes", bg->other_read_bytes);
   }
   BSON_APPEND_BOOL (&b, "busy", bg->busy);
   if (bg->busy) {
      BSON_APPEND_UTF8 (&b, "busy_note", bg->busy_note);
   }
   bson_append_document_end (d, &b);
}
