/*
 * fuzz_device.c -- libFuzzer harness of the mountinfo and sysfs parsers behind device resolution
 * (scan/measure/device.c). The input is "MOUNTINFO\0DEV\0READ_AHEAD_KB": MOUNTINFO is the mountinfo file a
 * data directory is resolved through (the fake sysfs has no block device for its st_dev, so the mount table
 * is what decides); DEV and READ_AHEAD_KB are the contents of a fake disk's sysfs `dev` and
 * `queue/read_ahead_kb` files, read through --device and the readahead query.
 */
#include "scan/scan.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* mkdirs -- mkdir -p of <fuzz dir>/<rel>. */
static void
mkdirs (const char *rel)
{
   char p[512];
   snprintf (p, sizeof p, "%s/%s", lab_fuzz_dir (), rel);
   for (char *s = p + strlen (lab_fuzz_dir ()) + 1; *s; s++) {
      if (*s == '/') {
         *s = '\0';
         mkdir (p, 0700);
         *s = '/';
      }
   }
   mkdir (p, 0700);
}

/* LLVMFuzzerTestOneInput -- resolve through the fuzzed mountinfo, then read the fuzzed sysfs files. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   static bool made;
   char *parts[3] = { "", "", "" };
   char *store;
   char sysfs[400], datadir[400];
   const char *mountinfo;
   lab_scan_device_t dev;
   bson_error_t error;
   int kb;

   lab_fuzz_setup ();
   if (!made) {
      mkdirs ("sys/class/block/fz0");
      mkdirs ("sys/block/fz0/queue");
      mkdirs ("data");
      made = true;
   }
   snprintf (sysfs, sizeof sysfs, "%s/sys", lab_fuzz_dir ());
   snprintf (datadir, sizeof datadir, "%s/data", lab_fuzz_dir ());
   lab_fuzz_split (data, len, parts, 3, &store);

   mountinfo = lab_fuzz_write ("mountinfo", parts[0], strlen (parts[0]));
   (void)lab_scan_device_resolve (datadir, NULL, sysfs, mountinfo, &dev, &error);

   lab_fuzz_write ("sys/class/block/fz0/dev", parts[1], strlen (parts[1]));
   (void)lab_scan_device_resolve (datadir, "/dev/fz0", sysfs, mountinfo, &dev, &error);
   lab_fuzz_write ("sys/block/fz0/queue/read_ahead_kb", parts[2], strlen (parts[2]));
   (void)lab_scan_device_read_ahead_kb (sysfs, "fz0", &kb);
   free (store);
   return 0;
}
