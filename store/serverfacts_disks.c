/* serverfacts_disks.c -- getDiagnosticData's disk counters parsed, and the iostat arithmetic on two FTDC
 * samples. */
#include "serverfacts.h"
#include "serverfacts_private.h"

#include "core/error.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- getDiagnosticData --------------------------------------------------------------------------- */

static const struct {
   const char *name;
   size_t off;
} disk_fields[] = {
   { "reads", offsetof (lab_store_facts_disk_t, reads) },
   { "reads_merged", offsetof (lab_store_facts_disk_t, reads_merged) },
   { "read_sectors", offsetof (lab_store_facts_disk_t, read_sectors) },
   { "read_time_ms", offsetof (lab_store_facts_disk_t, read_time_ms) },
   { "writes", offsetof (lab_store_facts_disk_t, writes) },
   { "writes_merged", offsetof (lab_store_facts_disk_t, writes_merged) },
   { "write_sectors", offsetof (lab_store_facts_disk_t, write_sectors) },
   { "write_time_ms", offsetof (lab_store_facts_disk_t, write_time_ms) },
   { "io_in_progress", offsetof (lab_store_facts_disk_t, io_in_progress) },
   { "io_time_ms", offsetof (lab_store_facts_disk_t, io_time_ms) },
   { "io_queued_ms", offsetof (lab_store_facts_disk_t, io_queued_ms) },
};

/* lab_store_facts_disks_cleanup -- see serverfacts.h. */
void
lab_store_facts_disks_cleanup (lab_store_facts_disks_t *d)
{
   if (!d) {
      return;
   }
   bson_free (d->disks);
   memset (d, 0, sizeof *d);
   d->start_ms = d->end_ms = -1;
}

/* one_disk -- the counters of systemMetrics.disks.<name>. */
static bool
one_disk (const bson_t *reply, const bson_iter_t *disk, const char *prefix, lab_store_facts_disk_t *out,
          bson_error_t *error)
{
   char path[256];
   size_t i;

   bson_strncpy (out->name, bson_iter_key (disk), sizeof out->name);
   if (!BSON_ITER_HOLDS_DOCUMENT (disk)) {
      bson_snprintf (path, sizeof path, "%s.disks.%s", prefix, out->name);
      return lab_store_facts_bad_type (error, "getDiagnosticData", path, disk, "a document");
   }
   for (i = 0; i < sizeof disk_fields / sizeof disk_fields[0]; i++) {
      bson_snprintf (path, sizeof path, "%s.disks.%s.%s", prefix, out->name, disk_fields[i].name);
      if (!lab_store_facts_get_num (reply, disk, disk_fields[i].name, "getDiagnosticData", path,
                                    (int64_t *)((char *)out + disk_fields[i].off), error)) {
         return false;
      }
   }
   return true;
}

/* lab_store_facts_disks_from_diag -- see serverfacts.h. */
bool
lab_store_facts_disks_from_diag (const bson_t *reply, lab_store_facts_disks_t *out, bson_error_t *error)
{
   bson_iter_t data, common, sm, disks, it;
   bool found;
   const char *prefix = "data.systemMetrics";
   char path[64];
   int64_t data_end;

   memset (out, 0, sizeof *out);
   out->start_ms = out->end_ms = -1;
   if (!reply) {
      return true;
   }
   if (!lab_store_facts_get_section (reply, NULL, "data", "getDiagnosticData", "data", &data, &found,
                                     error)) {
      return false;
   }
   if (!found) {
      return true;
   }
   if (!lab_store_facts_get_section (reply, &data, "systemMetrics", "getDiagnosticData", prefix, &sm,
                                     &out->have_system_metrics, error)) {
      return false;
   }
   if (!out->have_system_metrics) {
      /* the multi-service layout groups collectors by role: data.common.systemMetrics */
      if (!lab_store_facts_get_section (reply, &data, "common", "getDiagnosticData", "data.common", &common,
                                        &found, error)) {
         return false;
      }
      if (!found) {
         return true;
      }
      prefix = "data.common.systemMetrics";
      if (!lab_store_facts_get_section (reply, &common, "systemMetrics", "getDiagnosticData", prefix, &sm,
                                        &out->have_system_metrics, error)) {
         return false;
      }
      if (!out->have_system_metrics) {
         return true;
      }
   }
   bson_snprintf (path, sizeof path, "%s.start", prefix);
   if (!lab_store_facts_get_date_ms (reply, &sm, "start", "getDiagnosticData", path, &out->start_ms, error)) {
      goto fail;
   }
   bson_snprintf (path, sizeof path, "%s.end", prefix);
   if (!lab_store_facts_get_date_ms (reply, &sm, "end", "getDiagnosticData", path, &out->end_ms, error)) {
      goto fail;
   }
   if (!lab_store_facts_get_date_ms (reply, &data, "end", "getDiagnosticData", "data.end", &data_end,
                                     error)) {
      goto fail;
   }
   if (out->end_ms < 0) {
      out->end_ms = data_end;
   }
   bson_snprintf (path, sizeof path, "%s.disks", prefix);
   if (!lab_store_facts_get_section (reply, &sm, "disks", "getDiagnosticData", path, &disks, &out->have_disks,
                                     error)) {
      goto fail;
   }
   if (!out->have_disks) {
      return true;
   }
   bson_iter_recurse (&disks, &it);
   while (bson_iter_next (&it)) {
      out->disks = bson_realloc (out->disks, (out->ndisks + 1) * sizeof *out->disks);
      if (!one_disk (reply, &it, prefix, &out->disks[out->ndisks], error)) {
         goto fail;
      }
      out->ndisks++;
   }
   /* mongod on Windows fills systemMetrics.disks from performance counters ("\PhysicalDisk\Disk
    * Reads/sec", ...: ftdc_system_stats_windows.cpp, perfctr_collect.h): none of the Linux fields.
    * Such disks would read as all zero: they are not disks this parser knows. */
   if (out->ndisks > 0) {
      size_t i;
      bool linux_fields = false;
      for (i = 0; i < out->ndisks; i++) {
         linux_fields = linux_fields || out->disks[i].reads >= 0 || out->disks[i].read_sectors >= 0;
      }
      if (!linux_fields) {
         out->disks_not_linux = true;
         out->have_disks = false;
         bson_free (out->disks);
         out->disks = NULL;
         out->ndisks = 0;
      }
   }
   return true;
fail:
   lab_store_facts_disks_cleanup (out);
   return false;
}

/* disk_name -- "sda" for "/dev/sda" or "sda". */
static const char *
disk_name (const char *name)
{
   return strncmp (name, "/dev/", 5) == 0 ? name + 5 : name;
}

/* lab_store_facts_disks_find -- see serverfacts.h. */
const lab_store_facts_disk_t *
lab_store_facts_disks_find (const lab_store_facts_disks_t *d, const char *name)
{
   size_t i;

   if (!d || !name) {
      return NULL;
   }
   name = disk_name (name);
   for (i = 0; i < d->ndisks; i++) {
      if (strcmp (d->disks[i].name, name) == 0) {
         return &d->disks[i];
      }
   }
   return NULL;
}

/* lab_store_facts_disks_elapsed_s -- see serverfacts.h. */
double
lab_store_facts_disks_elapsed_s (const lab_store_facts_disks_t *a, const lab_store_facts_disks_t *b)
{
   if (!a || !b || a->end_ms < 0 || b->end_ms < 0) {
      return -1;
   }
   return (double)(b->end_ms - a->end_ms) / 1000.0;
}

/* nonneg -- a counter as unsigned; absent (-1) is 0. */
static uint64_t
nonneg (int64_t v)
{
   return v < 0 ? 0 : (uint64_t)v;
}

/* lab_store_facts_disk_delta -- see serverfacts.h (the formulas of DESIGN.md "Cold, and what is measured").
 */
void
lab_store_facts_disk_delta (const lab_store_facts_disk_t *a, const lab_store_facts_disk_t *b,
                            double elapsed_s, lab_store_facts_disk_delta_t *d)
{
   static const lab_store_facts_disk_t zero; /* all 0: a disk absent from a sample had no activity yet */
   lab_iostat_counters_t ca, cb;

   if (!a) {
      a = &zero;
   }
   /* absent counters (-1) count as 0 */
   ca = (lab_iostat_counters_t){ nonneg (a->reads), nonneg (a->read_sectors), nonneg (a->read_time_ms),
                                 nonneg (a->io_time_ms) };
   cb = (lab_iostat_counters_t){ nonneg (b->reads), nonneg (b->read_sectors), nonneg (b->read_time_ms),
                                 nonneg (b->io_time_ms) };
   lab_iostat_delta (&ca, &cb, elapsed_s, d);
}

/* lab_store_facts_disks_pick -- see serverfacts.h. */
bool
lab_store_facts_disks_pick (const lab_store_facts_disks_t *a, const lab_store_facts_disks_t *b,
                            const char *override, const lab_store_facts_disk_t **disk_a,
                            const lab_store_facts_disk_t **disk_b, char *reason, size_t reason_len,
                            bson_error_t *error)
{
   const lab_store_facts_disk_t *best = NULL;
   uint64_t best_sectors = 0, best_reads = 0;
   size_t i;

   *disk_a = *disk_b = NULL;
   if (!b || b->ndisks == 0) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                     "the server's diagnostic data lists no disk (FTDC off, not Linux, or no access to "
                     "/sys/block): give --server-disk none or local");
      return false;
   }
   if (override && *override) {
      if (!(best = lab_store_facts_disks_find (b, override))) {
         char listed[512] = "";
         for (i = 0; i < b->ndisks; i++) {
            bson_strncpy (listed + strlen (listed), i ? ", " : "", sizeof listed - strlen (listed));
            bson_strncpy (listed + strlen (listed), b->disks[i].name, sizeof listed - strlen (listed));
         }
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "disk '%s' is not in the server's diagnostic data (it lists: %s); name one of those",
                        override, listed);
         return false;
      }
      *disk_b = best;
      *disk_a = lab_store_facts_disks_find (a, best->name);
      if (reason) {
         bson_snprintf (reason, reason_len, "%s: named by the user", best->name);
      }
      return true;
   }
   for (i = 0; i < b->ndisks; i++) {
      const lab_store_facts_disk_t *cur = &b->disks[i], *old = lab_store_facts_disks_find (a, cur->name);
      lab_store_facts_disk_delta_t d;

      lab_store_facts_disk_delta (old, cur, 0, &d);
      if (!best || d.read_bytes > best_sectors * LAB_IOSTAT_SECTOR_BYTES ||
          (d.read_bytes == best_sectors * LAB_IOSTAT_SECTOR_BYTES && d.reads > best_reads)) {
         best = cur;
         best_sectors = d.read_bytes / LAB_IOSTAT_SECTOR_BYTES;
         best_reads = d.reads;
      }
   }
   *disk_b = best;
   *disk_a = lab_store_facts_disks_find (a, best->name);
   if (reason && best_sectors == 0 && best_reads == 0) {
      bson_snprintf (reason, reason_len,
                     "%s: the first of the %zu disks the server lists (none read during the run)", best->name,
                     b->ndisks);
   } else if (reason) {
      bson_snprintf (reason, reason_len,
                     "%s: the most read activity of the %zu disks the server lists (%" PRIu64
                     " sectors in %" PRIu64 " reads during the run)",
                     best->name, b->ndisks, best_sectors, best_reads);
   }
   return true;
}
