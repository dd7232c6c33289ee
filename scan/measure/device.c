/*
 * device.c -- which disk holds a path: st_dev -> /sys/dev/block/M:m -> partition's parent disk, with a
 * fall-back through /proc/self/mountinfo for file systems whose st_dev is not a block device (overlay,
 * btrfs subvolumes, tmpfs), and the --device override. The sysfs root and mountinfo file are parameters
 * so unit tests can run on fixtures.
 */
#include "scan/scan.h"

#include "core/error.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static void reason_set (lab_scan_device_t *out, const char *fmt, ...) BSON_GNUC_PRINTF (2, 3);
/* reason_set -- printf into out->reason (vsnprintf: truncation of long paths is fine here). */
static void
reason_set (lab_scan_device_t *out, const char *fmt, ...)
{
   va_list ap;
   va_start (ap, fmt);
   vsnprintf (out->reason, sizeof out->reason, fmt, ap);
   va_end (ap);
}

/* read_dev_file -- parse "M:m" from <dir>/dev. */
static bool
read_dev_file (const char *dir, unsigned *major, unsigned *minor)
{
   char p[PATH_MAX + 8];
   FILE *f;
   bool ok;

   snprintf (p, sizeof p, "%s/dev", dir);
   f = fopen (p, "r");
   if (!f) {
      return false;
   }
   ok = fscanf (f, "%u:%u", major, minor) == 2;
   fclose (f);
   return ok;
}

/* base_name -- pointer to the last path component. */
static const char *
base_name (const char *p)
{
   const char *s = strrchr (p, '/');
   return s ? s + 1 : p;
}

/* disk_of_sysdir -- given the real sysfs directory of a block device, fill out (parent disk when it is a
 * partition). */
static void
disk_of_sysdir (const char *real, lab_scan_device_t *out, bool *was_partition)
{
   char p[PATH_MAX + 16];
   struct stat st;

   snprintf (p, sizeof p, "%s/partition", real);
   *was_partition = stat (p, &st) == 0;
   if (*was_partition) {
      char parent[PATH_MAX];
      char *slash;

      bson_strncpy (parent, real, sizeof parent);
      slash = strrchr (parent, '/');
      if (slash) {
         *slash = '\0';
      }
      bson_strncpy (out->name, base_name (parent), sizeof out->name);
      if (!read_dev_file (parent, &out->major, &out->minor)) {
         out->major = out->minor = 0;
      }
   } else {
      bson_strncpy (out->name, base_name (real), sizeof out->name);
      if (!read_dev_file (real, &out->major, &out->minor)) {
         out->major = out->minor = 0;
      }
   }
}

/* by_devnum -- resolve M:m through <sysfs>/dev/block; false when there is no such block device. */
static bool
by_devnum (const char *sysfs, unsigned major, unsigned minor, lab_scan_device_t *out, bool *was_partition,
           char *part, size_t part_len)
{
   char p[PATH_MAX];
   char real[PATH_MAX];

   snprintf (p, sizeof p, "%s/dev/block/%u:%u", sysfs, major, minor);
   if (!realpath (p, real)) {
      return false;
   }
   bson_strncpy (part, base_name (real), part_len);
   disk_of_sysdir (real, out, was_partition);
   return true;
}

/* by_name -- resolve a block device name through <sysfs>/class/block/NAME. */
static bool
by_name (const char *sysfs, const char *name, lab_scan_device_t *out, bool *was_partition)
{
   char *p = bson_strdup_printf ("%s/class/block/%s", sysfs, name);
   char real[PATH_MAX];
   bool ok = realpath (p, real) != NULL;

   bson_free (p);
   if (ok) {
      disk_of_sysdir (real, out, was_partition);
   }
   return ok;
}

/* unescape_mount -- mountinfo escapes space, tab, newline and backslash as \ooo. */
static void
unescape_mount (char *s)
{
   char *r = s, *w = s;
   while (*r) {
      if (r[0] == '\\' && r[1] >= '0' && r[1] <= '7' && r[2] >= '0' && r[2] <= '7' && r[3] >= '0' &&
          r[3] <= '7') {
         *w++ = (char)(((r[1] - '0') << 6) | ((r[2] - '0') << 3) | (r[3] - '0'));
         r += 4;
      } else {
         *w++ = *r++;
      }
   }
   *w = '\0';
}

typedef struct {
   char mount_point[PATH_MAX];
   unsigned major, minor;
   char fstype[64];
   char source[PATH_MAX];
   char upperdir[PATH_MAX];
} mount_entry_t;

/* find_mount -- the mountinfo entry with the longest mount point containing `real`. */
static bool
find_mount (const char *mountinfo, const char *real, mount_entry_t *best, bson_error_t *error)
{
   FILE *f = fopen (mountinfo, "r");
   char *line = NULL;
   size_t cap = 0;
   size_t best_len = 0;
   bool found = false;

   if (!f) {
      lab_error_set_errno (error, errno, "cannot open %s", mountinfo);
      return false;
   }
   while (getline (&line, &cap, f) > 0) {
      mount_entry_t e;
      char root[PATH_MAX], mp[PATH_MAX];
      char *sep = strstr (line, " - ");
      char superopts[4096] = "";
      size_t mlen;
      const char *u;

      memset (&e, 0, sizeof e);
      if (!sep || sscanf (line, "%*u %*u %u:%u %4095s %4095s", &e.major, &e.minor, root, mp) != 4) {
         continue;
      }
      if (sscanf (sep + 3, "%63s %4095s %4095s", e.fstype, e.source, superopts) < 2) {
         continue;
      }
      unescape_mount (mp);
      mlen = strlen (mp);
      if (strcmp (mp, "/") == 0) {
         mlen = 0; /* "/" contains everything */
      } else if (strncmp (real, mp, mlen) != 0 || (real[mlen] != '/' && real[mlen] != '\0')) {
         continue;
      }
      if (found && mlen < best_len) {
         continue;
      }
      u = strstr (superopts, "upperdir=");
      if (u) {
         size_t n = strcspn (u + 9, ",\n");
         if (n >= sizeof e.upperdir) {
            n = sizeof e.upperdir - 1;
         }
         memcpy (e.upperdir, u + 9, n);
         e.upperdir[n] = '\0';
      }
      bson_strncpy (e.mount_point, mp, sizeof e.mount_point);
      *best = e;
      best_len = mlen;
      found = true; /* later entries over the same mount point win: they are mounted on top */
   }
   free (line);
   fclose (f);
   if (!found) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_DEVICE, "no mount in %s contains %s", mountinfo,
                     real);
   }
   return found;
}

/* lab_scan_device_resolve -- see scan.h. */
bool
lab_scan_device_resolve (const char *path, const char *override, const char *sysfs, const char *mountinfo,
                         lab_scan_device_t *out, bson_error_t *error)
{
   struct stat st;
   char real[PATH_MAX];
   char part[128] = "";
   bool was_partition = false;
   unsigned major, minor;
   mount_entry_t m;

   if (!sysfs) {
      sysfs = "/sys";
   }
   if (!mountinfo) {
      mountinfo = "/proc/self/mountinfo";
   }
   memset (out, 0, sizeof *out);

   if (override && *override) {
      const char *name = strncmp (override, "/dev/", 5) == 0 ? override + 5 : override;
      char p[PATH_MAX];
      char real_dev[PATH_MAX];

      snprintf (p, sizeof p, "%s/class/block/%s", sysfs, name);
      if (!realpath (p, real_dev)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--device %s: no such block device (%s/class/block/%s does not exist); name a disk "
                        "from /proc/diskstats, e.g. vda or sda",
                        override, sysfs, name);
         return false;
      }
      bson_strncpy (out->name, name, sizeof out->name);
      if (!read_dev_file (real_dev, &out->major, &out->minor)) {
         out->major = out->minor = 0;
      }
      reason_set (out, "--device %s", override);
      return true;
   }

   if (!realpath (path, real)) {
      lab_error_set_errno (error, errno, "cannot resolve the data directory %s", path);
      return false;
   }
   if (stat (real, &st) != 0) {
      lab_error_set_errno (error, errno, "cannot stat %s", real);
      return false;
   }
   major = major (st.st_dev);
   minor = minor (st.st_dev);
   if (by_devnum (sysfs, major, minor, out, &was_partition, part, sizeof part)) {
      if (was_partition) {
         reason_set (out, "st_dev %u:%u of %s is partition %s of disk %s", major, minor, real, part,
                     out->name);
      } else {
         reason_set (out, "st_dev %u:%u of %s is block device %s", major, minor, real, out->name);
      }
      return true;
   }

   /* Not a block device: look at the mount that holds the path. */
   if (!find_mount (mountinfo, real, &m, error)) {
      lab_error_prefix (error, "st_dev %u:%u of %s is not a block device; give --device NAME", major, minor,
                        real);
      return false;
   }
   if (by_devnum (sysfs, m.major, m.minor, out, &was_partition, part, sizeof part)) {
      reason_set (out, "st_dev %u:%u of %s is not a block device; its mount %s (%s) is on %u:%u, %s%s", major,
                  minor, real, m.mount_point, m.fstype, m.major, m.minor,
                  was_partition ? "a partition of disk " : "disk ", out->name);
      return true;
   }
   if (strncmp (m.source, "/dev/", 5) == 0 && by_name (sysfs, m.source + 5, out, &was_partition)) {
      reason_set (out, "st_dev %u:%u of %s is not a block device; its mount %s (%s) comes from %s, %s%s",
                  major, minor, real, m.mount_point, m.fstype, m.source,
                  was_partition ? "a partition of disk " : "disk ", out->name);
      return true;
   }
   if (m.upperdir[0] && stat (m.upperdir, &st) == 0 &&
       by_devnum (sysfs, major (st.st_dev), minor (st.st_dev), out, &was_partition, part, sizeof part)) {
      reason_set (out, "st_dev %u:%u of %s is not a block device; its %s mount %s writes to %s on disk %s",
                  major, minor, real, m.fstype, m.mount_point, m.upperdir, out->name);
      return true;
   }
   lab_error_set (
      error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_DEVICE,
      "cannot tell which disk holds %s: st_dev %u:%u is not a block device and its mount %s (%s %s) "
      "names none; give --device NAME (a disk from /proc/diskstats)",
      real, major, minor, m.mount_point, m.fstype, m.source);
   return false;
}

/* lab_scan_device_read_ahead_kb -- see scan.h. */
bool
lab_scan_device_read_ahead_kb (const char *sysfs, const char *name, int *kb)
{
   char path[PATH_MAX];
   FILE *f;
   bool ok;

   bson_snprintf (path, sizeof path, "%s/block/%s/queue/read_ahead_kb", sysfs ? sysfs : "/sys", name);
   f = fopen (path, "r");
   if (!f) {
      return false;
   }
   ok = fscanf (f, "%d", kb) == 1;
   fclose (f);
   return ok;
}
