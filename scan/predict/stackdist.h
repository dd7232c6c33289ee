/*
 * stackdist.h -- the misses of an LRU cache of every size from one pass over a page-access trace
 * (the prediction's engine). Pure: no I/O, no clock; unit-tested against a direct LRU
 * simulation on random traces (tests/scan/test_stackdist.c).
 *
 * Mattson, Gecsei, Slutz and Traiger (1970) showed that LRU is a stack algorithm: a cache of capacity C
 * always holds the C most recently used pages, so an access hits exactly when its reuse (stack) distance
 * -- the distinct pages touched since the page's previous access, itself included -- is at most C. One
 * pass that records every access's distance gives the misses of every capacity. Here pages have sizes
 * (a WiredTiger cache holds pages of different footprints): the distance is in bytes, the footprints of
 * the distinct pages touched since the previous access plus the page's own, and an access hits a cache
 * of C bytes exactly when that distance is at most C (an LRU that evicts from the cold end until the new
 * page fits always holds the longest most-recent prefix of the stack that fits: the proof is in
 * stackdist.c). A page's first access is a cold miss at every capacity.
 *
 * Sampling (SHARDS, Waldspurger, Park, Garthwaite and Ahmad, FAST 2015): with a rate R < 1 only the
 * pages whose hash falls under R are tracked, every access to them; distances among the sampled pages
 * are scaled by 1/R and so are the miss counts. The estimate is unbiased for pages of one size class
 * and its error shrinks with the number of sampled pages (the paper reports mean absolute errors of the
 * miss ratio around 0.01 at R = 0.001 on traces of millions of pages).
 *
 * Accesses carry a class (0 .. LAB_STACKDIST_CLASSES-1: the model uses one per kind of page, collection
 * leaf or index leaf) so that the misses of each class are counted apart, and may be refreshes: an
 * access that moves the page to the top of the stack without counting a hit or a miss (a page that a
 * cursor keeps pinned while it reads on, used again when it leaves it).
 *
 * Memory: a few words per distinct sampled page, plus 8 bytes per counted access that reuses a page.
 */
#ifndef LAB_STACKDIST_H
#define LAB_STACKDIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LAB_STACKDIST_CLASSES 4

typedef struct lab_stackdist lab_scan_stackdist_t;

/* lab_scan_stackdist_new -- an empty analysis that samples pages at `rate` (0 < rate <= 1; 1 tracks every
 * page and the counts are exact). Never NULL. */
lab_scan_stackdist_t *lab_scan_stackdist_new (double rate);

/* lab_scan_stackdist_destroy -- free it; NULL is fine. */
void lab_scan_stackdist_destroy (lab_scan_stackdist_t *sd);

/* lab_scan_stackdist_access -- one access to `page` (any 64-bit id) whose cache footprint is `bytes` (> 0; a
 * page keeps the footprint of its latest access), of class `cls`; `counted` false makes it a refresh.
 * Accesses after lab_scan_stackdist_misses has been asked are not allowed. */
void lab_scan_stackdist_access (lab_scan_stackdist_t *sd, uint64_t page, uint64_t bytes, int cls,
                                bool counted);

/* lab_scan_stackdist_sampled -- whether `page` is tracked at the analysis' rate (callers may skip building
 * the accesses of a page that is not). */
bool lab_scan_stackdist_sampled (const lab_scan_stackdist_t *sd, uint64_t page);

/* lab_scan_stackdist_misses -- the counted accesses of class `cls` that miss an LRU cache of `capacity`
 * bytes: cold misses plus reuses whose distance exceeds the capacity, scaled by 1/rate. */
double lab_scan_stackdist_misses (lab_scan_stackdist_t *sd, int cls, uint64_t capacity);

/* lab_scan_stackdist_accesses -- the counted accesses of class `cls` (scaled by 1/rate). */
double lab_scan_stackdist_accesses (const lab_scan_stackdist_t *sd, int cls);

/* lab_scan_stackdist_pages -- the distinct pages seen of class `cls` (their first access's class; scaled). */
double lab_scan_stackdist_pages (const lab_scan_stackdist_t *sd, int cls);

#endif
