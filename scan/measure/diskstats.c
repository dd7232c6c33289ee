/*
 * diskstats.c -- /proc/diskstats parsing and the iostat arithmetic on two snapshots (r/s, rkB/s,
 * r_await, %util), kept pure so recorded snapshots can test it.
 */
#include "scan/scan.h"

#include "core/error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* lab_scan_diskstats_parse -- find the device's line and read fields 4..13. */
bool
lab_scan_diskstats_parse (const char *text, const char *device, lab_scan_diskstats_t *out,
                          bson_error_t *error)
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

/* lab_scan_diskstats_read -- slurp the file (it is small) and parse it. */
bool
lab_scan_diskstats_read (const char *path, const char *device, lab_scan_diskstats_t *out, bson_error_t *error)
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
   return lab_scan_diskstats_parse (buf, device, out, error);
}

/* lab_scan_diskstats_delta -- iostat's formulas (DESIGN.md "Cold, and what is measured"). */
void
lab_scan_diskstats_delta (const lab_scan_diskstats_t *a, const lab_scan_diskstats_t *b, double elapsed_s,
                          lab_scan_diskstats_delta_t *d)
{
   lab_iostat_counters_t ca = { a->reads, a->read_sectors, a->read_time_ms, a->io_ticks_ms };
   lab_iostat_counters_t cb = { b->reads, b->read_sectors, b->read_time_ms, b->io_ticks_ms };

   lab_iostat_delta (&ca, &cb, elapsed_s, d);
}
