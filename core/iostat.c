/*
 * iostat.c -- iostat's arithmetic (iostat.h).
 */
#include "iostat.h"

#include <string.h>

/* lab_iostat_counter_delta -- see iostat.h. */
uint64_t
lab_iostat_counter_delta (uint64_t a, uint64_t b)
{
   if (b >= a) {
      return b - a;
   }
   if (a <= UINT32_MAX) {
      return (uint64_t)UINT32_MAX + 1 - a + b;
   }
   return 0;
}

/* lab_iostat_delta -- see iostat.h. */
void
lab_iostat_delta (const lab_iostat_counters_t *a, const lab_iostat_counters_t *b, double elapsed_s,
                  lab_iostat_t *d)
{
   uint64_t sectors = lab_iostat_counter_delta (a->read_sectors, b->read_sectors);

   memset (d, 0, sizeof *d);
   d->elapsed_s = elapsed_s;
   d->reads = lab_iostat_counter_delta (a->reads, b->reads);
   d->read_bytes = sectors * LAB_IOSTAT_SECTOR_BYTES;
   d->read_time_ms = lab_iostat_counter_delta (a->read_time_ms, b->read_time_ms);
   d->io_ticks_ms = lab_iostat_counter_delta (a->io_ticks_ms, b->io_ticks_ms);
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
