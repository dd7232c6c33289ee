/*
 * test_evictsim.c -- scan/predict/evictsim.c, the miniature of WiredTiger's eviction, on hand-made traces
 * where it and an exact LRU (stackdist.c, fed the same accesses) must part: a hot set reused between scans
 * of pages touched once, larger together than the cache (read generations keep the hot set, LRU loses it
 * every round); a page read while the cache is past midway to the trigger and touched again by the next row
 * (evicted as its cursor lets it go: read again, where LRU hits), unless another worker found it meanwhile
 * (its hit bumped the page) and holds it;
 * and a trace that fits under eviction_target (the two agree: first touches only); and an in-order load
 * (pages left for good, many rows each) where a server that wakes and does not evict at once holds "no
 * keep": every row fetched from a page read then is read again, where LRU reads each page once.
 */
#include "tests/testutil.h"

#include "scan/predict/evictsim.h"

#include <string.h>

#define PAGE 1000 /* every page's footprint */
#define HOT 0     /* classes */
#define SCAN 1

/* lru_misses -- the misses of class `cls` of an LRU cache of `capacity` over the same accesses. */
static double
lru_misses (lab_scan_stackdist_t *sd, int cls, uint64_t capacity)
{
   return lab_scan_stackdist_misses (sd, cls, capacity);
}

/* add -- one row of worker w: page `page` of class `cls` on the data cursor, to both engines. */
static void
add (lab_scan_evictsim_trace_t *t, lab_scan_stackdist_t *sd, int w, uint64_t page, int cls)
{
   lab_scan_evictsim_trace_add (t, w, page, PAGE, cls, LAB_EVICTSIM_ROW_END);
   lab_scan_stackdist_access (sd, page, PAGE, cls, true);
}

/* config -- a cache of `pages` pages at WiredTiger's default thresholds. */
static lab_scan_evictsim_config_t
config (uint64_t pages)
{
   lab_scan_evictsim_config_t c = { 0 };

   c.cache_bytes = pages * PAGE;
   c.target_pct = 80;
   c.trigger_pct = 95;
   return c;
}

/* A hot set of 40 pages touched twice per round, then 60 pages never touched again: 100 distinct pages
 * between two uses of a hot page, a cache of 100 pages (95 under the trigger). LRU misses the hot set every
 * round; WiredTiger's bumped generations keep it and evict the scan's pages, read at the midpoint. Both
 * kinds of page are spread over the key space, so that the walk in key order meets both alike. */
static void
test_hot_set_survives_scan (void **state)
{
   lab_scan_evictsim_trace_t *t = lab_scan_evictsim_trace_new (1);
   lab_scan_stackdist_t *sd = lab_scan_stackdist_new (1.0);
   lab_scan_evictsim_config_t c = config (100);
   lab_scan_evictsim_result_t r;
   uint64_t scan = 0, h;
   int round, k, rounds = 50;
   double lru;

   (void)state;
   for (round = 0; round < rounds; round++) {
      for (k = 0; k < 2; k++) {
         for (h = 0; h < 40; h++) {
            add (t, sd, 0, h * 10000, HOT);
         }
      }
      for (h = 0; h < 60; h++) {
         add (t, sd, 0, (scan * 37 % 4000) * 100 + 50, SCAN); /* 3,000 distinct pages */
         scan++;
      }
   }
   lab_scan_evictsim_run (t, &c, &r);
   lru = lru_misses (sd, HOT, 95 * PAGE);
   print_message ("hot set: LRU %.0f misses, the miniature %.0f (%llu passes, %llu evicted)\n", lru,
                  r.misses[HOT], (unsigned long long)r.passes, (unsigned long long)r.evicted);
   assert_true (r.accesses[HOT] == 2.0 * 40 * rounds);
   assert_true (lru >= 40.0 * rounds);       /* LRU: every round's first touch of each hot page */
   assert_true (r.misses[HOT] <= 0.2 * lru); /* WiredTiger: the hot set stays */
   assert_true (r.misses[SCAN] == 60.0 * rounds);
   assert_true (r.passes > 0 && r.evicted > 0);
   lab_scan_evictsim_trace_destroy (t);
   lab_scan_stackdist_destroy (sd);
}

/* One worker reads pages once each, two rows per page (a master's rows on one page): LRU hits every second
 * row. WiredTiger evicts a page read under "no keep" as the next row's search lets it go, then reads it
 * again: the second rows miss too, some of them. With a second worker in step on the same pages, its hit
 * bumps each page and its cursor holds it: the release evicts none (seen red only with both the bump of such
 * a page and the hold check taken out). */
static void
test_no_keep_evicts_on_release (void **state)
{
   lab_scan_evictsim_config_t c = config (20);
   lab_scan_evictsim_result_t r, r2;
   int pass;

   (void)state;
   for (pass = 0; pass < 2; pass++) {
      lab_scan_evictsim_trace_t *t = lab_scan_evictsim_trace_new (2);
      lab_scan_stackdist_t *sd = lab_scan_stackdist_new (1.0);
      uint64_t p;
      for (p = 0; p < 2000; p++) {
         add (t, sd, 0, p, HOT);
         add (t, sd, 0, p, SCAN);
         if (pass == 1) {
            /* the other worker holds the page while the first lets it go */
            add (t, sd, 1, p, HOT);
            add (t, sd, 1, p, SCAN);
         }
      }
      lab_scan_evictsim_run (t, &c, pass == 0 ? &r : &r2);
      assert_true (lru_misses (sd, SCAN, 19 * PAGE) == 0); /* LRU: the second row always hits */
      lab_scan_evictsim_trace_destroy (t);
      lab_scan_stackdist_destroy (sd);
   }
   print_message ("no keep: %.0f second rows read again, %llu pages evicted on release; held by another "
                  "worker: %.0f\n",
                  r.misses[SCAN], (unsigned long long)r.released, r2.misses[SCAN]);
   assert_true (r.misses[HOT] == 2000);
   assert_true (r.misses[SCAN] > 0);
   assert_true ((double)r.released >= r.misses[SCAN]);
   assert_true (r.peak_bytes <= 20 * PAGE);
   /* two workers in step: the page each lets go the other holds */
   assert_true (r2.misses[SCAN] < r.misses[SCAN]);
}

/* Pages that fit under eviction_target: nothing is evicted, the misses are the first touches, as LRU's. */
static void
test_fits_agrees (void **state)
{
   lab_scan_evictsim_trace_t *t = lab_scan_evictsim_trace_new (3);
   lab_scan_stackdist_t *sd = lab_scan_stackdist_new (1.0);
   lab_scan_evictsim_config_t c = config (100);
   lab_scan_evictsim_result_t r;
   uint64_t i;

   (void)state;
   for (i = 0; i < 3000; i++) {
      add (t, sd, (int)(i % 3), (i * 7919) % 70, i % 2 ? HOT : SCAN);
   }
   assert_true (lab_scan_evictsim_trace_footprint (t) == 70 * PAGE);
   lab_scan_evictsim_run (t, &c, &r);
   assert_true (r.misses[HOT] + r.misses[SCAN] == 70);
   assert_true (r.misses[HOT] == lru_misses (sd, HOT, 95 * PAGE));
   assert_true (r.misses[SCAN] == lru_misses (sd, SCAN, 95 * PAGE));
   assert_true (r.evicted == 0 && r.released == 0);
   lab_scan_evictsim_trace_destroy (t);
   lab_scan_stackdist_destroy (sd);
}

/* One worker reads 200 pages in order, 20 rows each, through a cache of 50 pages: LRU reads each page once.
 * A server that evicts as it wakes rereads (almost) nothing; one that wakes on its timer between target
 * and trigger and holds "no keep" for HOLD page reads (evicting nothing) rereads the page under the
 * cursor at every row once the cache passes the "no keep" mark: most of the hold's reads are rereads.
 * The same for a wake past the trigger that holds before its first eviction. */
#define HOLD 12
static void
test_held_no_keep_rereads (void **state)
{
   lab_scan_evictsim_trace_t *t = lab_scan_evictsim_trace_new (1);
   lab_scan_stackdist_t *sd = lab_scan_stackdist_new (1.0);
   lab_scan_evictsim_config_t c = config (50);
   lab_scan_evictsim_result_t r0, r1, r2;
   uint64_t p;
   int row;

   (void)state;
   for (p = 0; p < 200; p++) {
      for (row = 0; row < 20; row++) {
         add (t, sd, 0, p, SCAN);
      }
   }
   assert_true (lru_misses (sd, SCAN, 40 * PAGE) == 200);
   lab_scan_evictsim_run (t, &c, &r0);
   assert_true (r0.misses[SCAN] >= 200 && r0.misses[SCAN] <= 200 + 20);
   assert_true (r0.held == 0);
   /* the timer every 3 page reads, its episodes held */
   c.wake_reads = 3;
   c.nokeep_hold_reads = HOLD;
   lab_scan_evictsim_run (t, &c, &r1);
   assert_true (r1.held > 0);
   /* each held episode: a few reads to the "no keep" mark (44 of 50 pages from past 40), the rest rereads */
   assert_true (r1.misses[SCAN] - r0.misses[SCAN] >= (double)r1.held * (HOLD - 6));
   assert_true (r1.released >= r1.misses[SCAN] - 200 - 10);
   /* a wake past the trigger that holds HOLD reads before it evicts: the same rereads */
   c.wake_reads = 0;
   c.nokeep_hold_reads = 0;
   c.trigger_hold_reads = HOLD;
   lab_scan_evictsim_run (t, &c, &r2);
   assert_true (r2.held > 0);
   assert_true (r2.misses[SCAN] - r0.misses[SCAN] >= (double)r2.held * (HOLD / 2));
   lab_scan_evictsim_trace_destroy (t);
   lab_scan_stackdist_destroy (sd);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_hot_set_survives_scan),
      cmocka_unit_test (test_no_keep_evicts_on_release),
      cmocka_unit_test (test_fits_agrees),
      cmocka_unit_test (test_held_no_keep_rereads),
   };
   return lab_test_run_group ("evictsim", tests, NULL, NULL);
}
