/*
 * diskstats.c -- /proc/diskstats parsing and the iostat arithmetic on two snapshots (r/s, rkB/s,
 * r_await, %util), kept pure so recorded snapshots can test it.
 */
#include "scan/scan.h"

#include "core/error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* lab_diskstats_parse -- find the device's line and read fields 4..13. */
bool
lab_diskstats_parse (const char *text, const char *device, lab_diskstats_t *out, bson_error_t *error)
{
   const char *line = text;
   int lineno = 0;

   memset (out, 0, sizeof *out);
   while (line && *line) {
      const char *end = strchr (line, '\n');
      size_t len = end ? (size_t)(end - line) : strlen (line);
      char buf[512];
      unsigned major, minor;
      char name[128];
      unsigned long long f[11] = { 0 };
      int n;

      lineno++;
      if (len >= sizeof buf) {
         len = sizeof buf - 1;
      }
      memcpy (buf, line, len);
      buf[len] = '\0';
      n = sscanf (buf, "%u %u %127s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &major, &minor,
                  name, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10]);
      if (n >= 3 && strcmp (name, device) == 0) {
         if (n < 14) {
            lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_BAD_DISKSTATS,
                           "diskstats line %d for device %s has %d fields, expected at least 14: \"%s\"",
                           lineno, device, n, buf);
            return false;
         }
         out->reads = f[0];
         out->reads_merged = f[1];
         out->read_sectors = f[2];
         out->read_time_ms = f[3];
         out->writes = f[4];
         out->write_sectors = f[6];
         out->in_flight = f[8];
         out->io_ticks_ms = f[9];
         return true;
      }
      line = end ? end + 1 : NULL;
   }
   lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NOT_IN_DISKSTATS,
                  "device %s is not in /proc/diskstats; name a disk listed there with --device", device);
   return false;
}

/* lab_diskstats_read -- slurp the file (it is small) and parse it. */
bool
lab_diskstats_read (const char *path, const char *device, lab_diskstats_t *out, bson_error_t *error)
{
   FILE *f;
   char buf[65536];
   size_t n;

   if (!path) {
      path = "/proc/diskstats";
   }
   f = fopen (path, "r");
   if (!f) {
      lab_error_set_errno (error, errno, "cannot open %s", path);
      return false;
   }
   n = fread (buf, 1, sizeof buf - 1, f);
   fclose (f);
   buf[n] = '\0';
   return lab_diskstats_parse (buf, device, out, error);
}

/* counter_delta -- b - a, with a 32-bit wrap or a reset when the counter went backwards. */
static uint64_t
counter_delta (uint64_t a, uint64_t b)
{
   if (b >= a) {
      return b - a;
   }
   if (a <= UINT32_MAX) {
      return (uint64_t)UINT32_MAX + 1 - a + b;
   }
   return 0;
}

/* lab_diskstats_delta -- iostat's formulas (DESIGN.md "Cold, and what is measured"). */
void
lab_diskstats_delta (const lab_diskstats_t *a, const lab_diskstats_t *b, double elapsed_s,
                     lab_diskstats_delta_t *d)
{
   uint64_t sectors = counter_delta (a->read_sectors, b->read_sectors);

   memset (d, 0, sizeof *d);
   d->elapsed_s = elapsed_s;
   d->reads = counter_delta (a->reads, b->reads);
   d->read_bytes = sectors * LAB_DISKSTATS_SECTOR_BYTES;
   d->read_time_ms = counter_delta (a->read_time_ms, b->read_time_ms);
   d->io_ticks_ms = counter_delta (a->io_ticks_ms, b->io_ticks_ms);
   if (elapsed_s > 0) {
      d->reads_per_s = (double)d->reads / elapsed_s;
      d->read_kb_s = (double)sectors / elapsed_s / 2.0;
      d->read_mb_s = (double)d->read_bytes / elapsed_s / 1e6;
      d->util_pct = (double)d->io_ticks_ms / (elapsed_s * 1000.0) * 100.0;
      if (d->util_pct > 100.0) {
         d->util_pct = 100.0;
      }
   }
   if (d->reads > 0) {
      d->read_await_ms = (double)d->read_time_ms / (double)d->reads;
      d->avg_read_bytes = (double)d->read_bytes / (double)d->reads;
   } else {
      d->read_await_ms = -1;
      d->avg_read_bytes = -1;
   }
}
