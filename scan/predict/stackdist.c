/*
 * stackdist.c -- reuse (stack) distances in bytes, one pass, for the misses of every LRU capacity (see
 * stackdist.h).
 *
 * Why the distance decides: let the stack be the pages in order of their latest access, most recent
 * first, and say an LRU cache of C bytes holds the longest prefix of the stack whose footprints sum to
 * at most C. A hit moves a page inside that prefix to the top: the set is unchanged, still a prefix, and
 * the next page below it still does not fit. A miss puts the page on top and evicts from the cold end
 * until the sum is at most C: again the longest prefix that fits. So a page is in the cache exactly when
 * the footprints of the pages above it plus its own are at most C -- the distance recorded here.
 *
 * How it is counted: every tracked page has one marker, at the time of its latest access, weighing its
 * footprint, in a Fenwick tree over time. An access's distance is the weight of the markers after the
 * page's own (the distinct pages touched since) plus its footprint; then the marker moves to now. When
 * the time window is full the live markers are renumbered 0..n-1 in order and the tree rebuilt (the
 * window doubles when more than half of it is live), so memory follows the distinct pages, not the
 * trace's length.
 */
#include "scan/hash.h"
#include "scan/predict/stackdist.h"

#include <bson/bson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY_PAGE UINT64_MAX

typedef struct {
   uint64_t key; /* page + 1; 0: empty */
   uint32_t slot;
   uint32_t bytes;
} entry_t;

typedef struct {
   uint64_t *d; /* distances of counted reuses */
   size_t n, cap;
   uint64_t cold;     /* counted first accesses */
   uint64_t accesses; /* counted accesses */
   uint64_t pages;    /* distinct pages first seen in this class */
   bool sorted;
} class_t;

struct lab_stackdist {
   double rate;
   uint64_t threshold; /* a page is tracked when its hash >> 40 is below this (rate x 2^24) */
   /* page -> its marker */
   entry_t *map;
   size_t map_cap, map_n;
   /* the time window: a Fenwick tree of footprints and each slot's page */
   int64_t *bit; /* 1-based, bit[1..win] */
   uint64_t *slot_page;
   uint32_t win, now;
   class_t cls[LAB_STACKDIST_CLASSES];
   bool queried;
};

/* bit_add -- add v at slot s (0-based). */
static void
bit_add (lab_scan_stackdist_t *sd, uint32_t s, int64_t v)
{
   uint64_t i;

   for (i = (uint64_t)s + 1; i <= sd->win; i += i & (~i + 1)) {
      sd->bit[i] += v;
   }
}

/* bit_prefix -- the sum of slots 0 .. s-1. */
static int64_t
bit_prefix (const lab_scan_stackdist_t *sd, uint32_t s)
{
   int64_t sum = 0;
   uint64_t i;

   for (i = s; i > 0; i -= i & (~i + 1)) {
      sum += sd->bit[i];
   }
   return sum;
}

/* map_find -- the entry of page (its key slot when absent). */
static entry_t *
map_find (lab_scan_stackdist_t *sd, uint64_t page)
{
   size_t mask = sd->map_cap - 1, i = (size_t)lab_scan_mix64 (page ^ 0x9e3779b97f4a7c15ull) & mask;

   while (sd->map[i].key != 0 && sd->map[i].key != page + 1) {
      i = (i + 1) & mask;
   }
   return &sd->map[i];
}

/* map_grow -- double the map when it is half full. */
static void
map_grow (lab_scan_stackdist_t *sd)
{
   entry_t *old = sd->map;
   size_t old_cap = sd->map_cap, i;

   sd->map_cap *= 2;
   sd->map = bson_malloc0 (sd->map_cap * sizeof *sd->map);
   for (i = 0; i < old_cap; i++) {
      if (old[i].key != 0) {
         *map_find (sd, old[i].key - 1) = old[i];
      }
   }
   bson_free (old);
}

/* compact -- renumber the live markers 0..n-1 in time order and rebuild the tree (the window doubles
 * when more than half of it would be live). */
static void
compact (lab_scan_stackdist_t *sd)
{
   uint32_t live = 0, s;
   size_t i;

   for (s = 0; s < sd->now; s++) {
      if (sd->slot_page[s] != EMPTY_PAGE) {
         entry_t *e = map_find (sd, sd->slot_page[s]);
         e->slot = live;
         sd->slot_page[live++] = sd->slot_page[s];
      }
   }
   if ((uint64_t)live * 2 > sd->win) {
      sd->win *= 2;
      sd->bit = bson_realloc (sd->bit, ((size_t)sd->win + 1) * sizeof *sd->bit);
      sd->slot_page = bson_realloc (sd->slot_page, (size_t)sd->win * sizeof *sd->slot_page);
   }
   for (s = live; s < sd->win; s++) {
      sd->slot_page[s] = EMPTY_PAGE;
   }
   /* linear Fenwick construction */
   memset (sd->bit, 0, ((size_t)sd->win + 1) * sizeof *sd->bit);
   for (s = 0; s < live; s++) {
      sd->bit[s + 1] += map_find (sd, sd->slot_page[s])->bytes;
   }
   for (i = 1; i <= sd->win; i++) {
      size_t j = i + (i & (~i + 1));
      if (j <= sd->win) {
         sd->bit[j] += sd->bit[i];
      }
   }
   sd->now = live;
}

/* lab_scan_stackdist_new -- see stackdist.h. */
lab_scan_stackdist_t *
lab_scan_stackdist_new (double rate)
{
   lab_scan_stackdist_t *sd = bson_malloc0 (sizeof *sd);
   uint32_t s;

   sd->rate = rate > 0 && rate < 1 ? rate : 1.0;
   sd->threshold = (uint64_t)ceil (sd->rate * (double)(1u << 24));
   sd->map_cap = 1024;
   sd->map = bson_malloc0 (sd->map_cap * sizeof *sd->map);
   sd->win = 1024;
   sd->bit = bson_malloc0 (((size_t)sd->win + 1) * sizeof *sd->bit);
   sd->slot_page = bson_malloc ((size_t)sd->win * sizeof *sd->slot_page);
   for (s = 0; s < sd->win; s++) {
      sd->slot_page[s] = EMPTY_PAGE;
   }
   return sd;
}

/* lab_scan_stackdist_destroy -- see stackdist.h. */
void
lab_scan_stackdist_destroy (lab_scan_stackdist_t *sd)
{
   int c;

   if (!sd) {
      return;
   }
   for (c = 0; c < LAB_STACKDIST_CLASSES; c++) {
      bson_free (sd->cls[c].d);
   }
   bson_free (sd->map);
   bson_free (sd->bit);
   bson_free (sd->slot_page);
   bson_free (sd);
}

/* lab_scan_stackdist_sampled -- see stackdist.h. */
bool
lab_scan_stackdist_sampled (const lab_scan_stackdist_t *sd, uint64_t page)
{
   return sd->rate >= 1.0 || (lab_scan_mix64 (page) >> 40) < sd->threshold;
}

/* lab_scan_stackdist_access -- see stackdist.h. */
void
lab_scan_stackdist_access (lab_scan_stackdist_t *sd, uint64_t page, uint64_t bytes, int cls, bool counted)
{
   class_t *c = &sd->cls[cls < 0 || cls >= LAB_STACKDIST_CLASSES ? 0 : cls];
   entry_t *e;

   BSON_ASSERT (!sd->queried);
   if (!lab_scan_stackdist_sampled (sd, page)) {
      return;
   }
   if (bytes == 0) {
      bytes = 1;
   }
   if (bytes > UINT32_MAX) {
      bytes = UINT32_MAX;
   }
   if (sd->now == sd->win) {
      compact (sd);
   }
   e = map_find (sd, page);
   if (e->key == 0) {
      if ((sd->map_n + 1) * 2 > sd->map_cap) {
         map_grow (sd);
         e = map_find (sd, page);
      }
      e->key = page + 1;
      sd->map_n++;
      c->pages++;
      if (counted) {
         c->cold++;
      }
   } else {
      /* the footprints of the markers after this page's own, then this page's */
      uint64_t above = (uint64_t)(bit_prefix (sd, sd->now) - bit_prefix (sd, e->slot + 1));
      if (counted) {
         if (c->n == c->cap) {
            c->cap = c->cap ? c->cap * 2 : 1024;
            c->d = bson_realloc (c->d, c->cap * sizeof *c->d);
         }
         c->d[c->n++] = above + bytes;
      }
      bit_add (sd, e->slot, -(int64_t)e->bytes);
      sd->slot_page[e->slot] = EMPTY_PAGE;
   }
   if (counted) {
      c->accesses++;
   }
   e->slot = sd->now++;
   e->bytes = (uint32_t)bytes;
   sd->slot_page[e->slot] = page;
   bit_add (sd, e->slot, (int64_t)bytes);
}

/* cmp_u64 -- ascending for qsort. */
static int
cmp_u64 (const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

/* lab_scan_stackdist_misses -- see stackdist.h. Sampled distances are scaled by 1/rate (the page's own
 * footprint is not: it is always there). */
double
lab_scan_stackdist_misses (lab_scan_stackdist_t *sd, int cls, uint64_t capacity)
{
   class_t *c;
   size_t lo, hi;
   double scaled_capacity;

   if (cls < 0 || cls >= LAB_STACKDIST_CLASSES) {
      return 0;
   }
   c = &sd->cls[cls];
   sd->queried = true;
   if (!c->sorted) {
      if (c->n > 1) {
         qsort (c->d, c->n, sizeof *c->d, cmp_u64);
      }
      c->sorted = true;
   }
   /* a reuse hits when distance <= capacity; with sampling, when (d - own) / rate + own <= capacity,
    * taken here as d <= capacity x rate (own footprints are small beside a cache) */
   scaled_capacity = sd->rate >= 1.0 ? (double)capacity : (double)capacity * sd->rate;
   /* the first index whose distance exceeds the (scaled) capacity */
   lo = 0;
   hi = c->n;
   while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if ((double)c->d[mid] <= scaled_capacity) {
         lo = mid + 1;
      } else {
         hi = mid;
      }
   }
   return (double)(c->cold + (c->n - lo)) / sd->rate;
}

/* lab_scan_stackdist_accesses -- see stackdist.h. */
double
lab_scan_stackdist_accesses (const lab_scan_stackdist_t *sd, int cls)
{
   if (cls < 0 || cls >= LAB_STACKDIST_CLASSES) {
      return 0;
   }
   return (double)sd->cls[cls].accesses / sd->rate;
}

/* lab_scan_stackdist_pages -- see stackdist.h. */
double
lab_scan_stackdist_pages (const lab_scan_stackdist_t *sd, int cls)
{
   if (cls < 0 || cls >= LAB_STACKDIST_CLASSES) {
      return 0;
   }
   return (double)sd->cls[cls].pages / sd->rate;
}
