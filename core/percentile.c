/*
 * percentile.c -- when a count of observations supports a percentile (percentile.h).
 */
#include "core/percentile.h"

#include <math.h>

/* lab_percentile_min_count -- see percentile.h. Below that count the "p99" of an interpolated sample is
 * its maximum or a blend of its two largest values: the tail it claims to describe was never observed. */
int64_t
lab_percentile_min_count (double p)
{
   if (!(p > 0) || p >= 100) {
      return 1;
   }
   /* 1e-9: 100 / (100 - 95) is 20 exactly, not 20.000000000000004 rounded up to 21 */
   return (int64_t)ceil (100.0 / (100.0 - p) - 1e-9);
}

/* lab_percentile_supported -- see percentile.h. */
bool
lab_percentile_supported (double p, int64_t n)
{
   return n >= lab_percentile_min_count (p);
}
