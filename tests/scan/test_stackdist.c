/*
 * test_stackdist.c -- scan/predict/stackdist.c: the misses that the one-pass stack-distance
 * analysis gives for every cache capacity equal, exactly, those of a direct LRU simulation of that capacity,
 * on random traces: pages of one size (Mattson's case), pages of different sizes (bytes, the model's case),
 * several classes counted apart, refreshes that move a page without counting, and traces long enough
 * to renumber the time window many times. With SHARDS sampling the estimate stays near the exact curve.
 */
#include "tests/testutil.h"

#include "scan/predict/stackdist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A trace of accesses. */
typedef struct {
   uint64_t page;
   uint64_t bytes;
   int cls;
   bool counted;
} acc_t;

/* rng -- xorshift64, a fixed sequence per seed. */
static uint64_t
rng (uint64_t *x)
{
   *x ^= *x << 13;
   *x ^= *x >> 7;
   *x ^= *x << 17;
   return *x;
}

/* lru_misses -- misses per class of a direct LRU simulation of `capacity` bytes: a list in recency
 * order; a hit moves the page to the front; a miss puts it at the front and evicts from the back until
 * the footprints fit (the page itself too when it alone is larger than the cache). A refresh is an
 * access whose hit or miss is not counted. */
static void
lru_misses (const acc_t *t, size_t n, uint64_t capacity, uint64_t misses[LAB_STACKDIST_CLASSES])
{
   uint64_t *pages = bson_malloc0 ((n + 1) * sizeof *pages), *bytes = bson_malloc0 ((n + 1) * sizeof *bytes);
   size_t len = 0, i, j;
   uint64_t used = 0;

   memset (misses, 0, LAB_STACKDIST_CLASSES * sizeof *misses);
   for (i = 0; i < n; i++) {
      bool hit = false;
      for (j = 0; j < len; j++) {
         if (pages[j] == t[i].page) {
            hit = true;
            used -= bytes[j];
            memmove (&pages[1], &pages[0], j * sizeof *pages);
            memmove (&bytes[1], &bytes[0], j * sizeof *bytes);
            break;
         }
      }
      if (!hit) {
         if (t[i].counted) {
            misses[t[i].cls]++;
         }
         memmove (&pages[1], &pages[0], len * sizeof *pages);
         memmove (&bytes[1], &bytes[0], len * sizeof *bytes);
         len++;
      }
      pages[0] = t[i].page;
      bytes[0] = t[i].bytes;
      used += t[i].bytes;
      while (len > 0 && used > capacity) {
         used -= bytes[len - 1];
         len--;
      }
   }
   bson_free (pages);
   bson_free (bytes);
}

/* random_trace -- n accesses over `npages` pages with a skew (half the accesses to a tenth of the
 * pages, so that every capacity sees hits and misses); each page has a fixed size in 1..max_bytes and
 * class page % nclasses; one access in `refresh_every` is a refresh (0: none). */
static acc_t *
random_trace (uint64_t seed, size_t n, uint64_t npages, uint64_t max_bytes, int nclasses, int refresh_every)
{
   acc_t *t = bson_malloc0 (n * sizeof *t);
   uint64_t *size = bson_malloc0 (npages * sizeof *size), x = seed, p;
   size_t i;

   for (p = 0; p < npages; p++) {
      size[p] = 1 + rng (&x) % max_bytes;
   }
   for (i = 0; i < n; i++) {
      uint64_t r = rng (&x);
      p = (r & 1) ? (r >> 8) % (npages / 10 + 1) : (r >> 8) % npages;
      t[i].page = p * 7919 + 3; /* ids that are not 0..n */
      t[i].bytes = size[p];
      t[i].cls = (int)(p % (uint64_t)nclasses);
      t[i].counted = refresh_every == 0 || (rng (&x) % (uint64_t)refresh_every) != 0;
   }
   bson_free (size);
   return t;
}

/* check_every_capacity -- the analysis' misses equal the direct simulation's for every capacity from 0
 * to the total footprint of all pages + 1, per class. */
static void
check_every_capacity (const acc_t *t, size_t n)
{
   lab_scan_stackdist_t *sd = lab_scan_stackdist_new (1.0);
   uint64_t total = 0, cap, want[LAB_STACKDIST_CLASSES];
   size_t i;
   int c;

   for (i = 0; i < n; i++) {
      lab_scan_stackdist_access (sd, t[i].page, t[i].bytes, t[i].cls, t[i].counted);
   }
   /* a bound on every distance: the sum of every page's footprint */
   for (i = 0; i < n; i++) {
      bool seen = false;
      size_t j;
      for (j = 0; j < i && !seen; j++) {
         seen = t[j].page == t[i].page;
      }
      total += seen ? 0 : t[i].bytes;
   }
   for (cap = 0; cap <= total + 1; cap++) {
      lru_misses (t, n, cap, want);
      for (c = 0; c < LAB_STACKDIST_CLASSES; c++) {
         double got = lab_scan_stackdist_misses (sd, c, cap);
         if (got != (double)want[c]) {
            fail_msg ("capacity %llu, class %d: stack distances give %.0f misses, LRU %llu",
                      (unsigned long long)cap, c, got, (unsigned long long)want[c]);
         }
      }
   }
   lab_scan_stackdist_destroy (sd);
}

/* Mattson's case: every page one unit, capacity in pages. */
static void
test_unit_pages (void **state)
{
   (void)state;
   for (uint64_t seed = 1; seed <= 5; seed++) {
      acc_t *t = random_trace (seed * 0x9E3779B97F4A7C15ull, 600, 60, 1, 1, 0);
      check_every_capacity (t, 600);
      bson_free (t);
   }
}

/* Pages of different sizes, three classes, refreshes. */
static void
test_sized_pages (void **state)
{
   (void)state;
   for (uint64_t seed = 11; seed <= 15; seed++) {
      acc_t *t = random_trace (seed * 0x2545F4914F6CDD1Dull, 500, 40, 9, 3, 5);
      check_every_capacity (t, 500);
      bson_free (t);
   }
}

/* A trace many times longer than the time window (1024 slots to start): the renumbering keeps the
 * distances; and more distinct pages than the window's first size, so the window grows. */
static void
test_long_trace (void **state)
{
   uint64_t want[LAB_STACKDIST_CLASSES];
   const size_t n = 20000;
   acc_t *t = random_trace (77, n, 1800, 5, 2, 7);
   lab_scan_stackdist_t *sd = lab_scan_stackdist_new (1.0);
   uint64_t caps[] = { 0, 1, 5, 50, 400, 1500, 3000, 6000, 12000 };
   size_t i, k;

   (void)state;
   for (i = 0; i < n; i++) {
      lab_scan_stackdist_access (sd, t[i].page, t[i].bytes, t[i].cls, t[i].counted);
   }
   for (k = 0; k < sizeof caps / sizeof caps[0]; k++) {
      lru_misses (t, n, caps[k], want);
      assert_true (lab_scan_stackdist_misses (sd, 0, caps[k]) == (double)want[0]);
      assert_true (lab_scan_stackdist_misses (sd, 1, caps[k]) == (double)want[1]);
   }
   /* every counted access of a class is a miss at capacity 0; the pages are the distinct ones */
   assert_true (lab_scan_stackdist_misses (sd, 0, 0) == lab_scan_stackdist_accesses (sd, 0));
   assert_true (lab_scan_stackdist_pages (sd, 0) + lab_scan_stackdist_pages (sd, 1) <= 1800);
   lab_scan_stackdist_destroy (sd);
   bson_free (t);
}

/* SHARDS: at a rate of 0.1 on a trace of 20,000 pages the miss curve stays within 5% of the accesses
 * of the exact one at every capacity checked (sampling error, not bias: a fixed seed, so no flake). */
static void
test_sampled (void **state)
{
   const size_t n = 300000;
   acc_t *t = random_trace (4242, n, 20000, 1, 1, 0);
   lab_scan_stackdist_t *exact = lab_scan_stackdist_new (1.0), *sampled = lab_scan_stackdist_new (0.1);
   uint64_t caps[] = { 100, 1000, 2000, 5000, 10000, 15000 };
   size_t i, k, kept = 0;

   (void)state;
   for (i = 0; i < n; i++) {
      lab_scan_stackdist_access (exact, t[i].page, t[i].bytes, 0, true);
      lab_scan_stackdist_access (sampled, t[i].page, t[i].bytes, 0, true);
      kept += lab_scan_stackdist_sampled (sampled, t[i].page);
   }
   /* about a tenth of the accesses were kept */
   assert_true (kept > n / 20 && kept < n / 5);
   for (k = 0; k < sizeof caps / sizeof caps[0]; k++) {
      double e = lab_scan_stackdist_misses (exact, 0, caps[k]),
             s = lab_scan_stackdist_misses (sampled, 0, caps[k]);
      if (fabs (e - s) > 0.05 * (double)n) {
         fail_msg ("capacity %llu: sampled %.0f misses, exact %.0f", (unsigned long long)caps[k], s, e);
      }
   }
   lab_scan_stackdist_destroy (exact);
   lab_scan_stackdist_destroy (sampled);
   bson_free (t);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_unit_pages),
      cmocka_unit_test (test_sized_pages),
      cmocka_unit_test (test_long_trace),
      cmocka_unit_test (test_sampled),
   };
   return lab_test_run_group ("stackdist", tests, NULL, NULL);
}
