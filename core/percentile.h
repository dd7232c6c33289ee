/*
 * percentile.h -- when a count of observations supports a percentile: one rule for every tool that
 * records or prints latency percentiles (scancmp's load, workloads and mix, layout-report's tables), so a
 * p99 of 20 queries is never shown as if it meant something.
 */
#ifndef LAB_CORE_PERCENTILE_H
#define LAB_CORE_PERCENTILE_H

#include <stdbool.h>
#include <stdint.h>

/* lab_percentile_min_count -- the fewest observations that support percentile p (0 < p < 100): the
 * smallest n with at least one observation above the percentile, n (1 - p/100) >= 1, so
 * ceil(100 / (100 - p)): p50 2, p90 10, p95 20, p99 100. p <= 0 (the minimum) or >= 100 (the maximum): 1. */
int64_t lab_percentile_min_count (double p);

/* lab_percentile_supported -- n observations support percentile p (n >= lab_percentile_min_count (p)). */
bool lab_percentile_supported (double p, int64_t n);

#endif
