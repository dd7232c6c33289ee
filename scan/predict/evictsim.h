/*
 * evictsim.h -- a miniature of WiredTiger 3.2.1's cache eviction, run over the prediction's page trace
 * (the prediction's second engine, beside the exact LRU of stackdist.h). Pure: no I/O, no clock;
 * unit-tested on hand-made traces where the two policies differ (tests/scan/test_evictsim.c).
 *
 * What it keeps of WiredTiger (src/include/cache.i, src/btree/bt_read.c __wt_page_in_func,
 * src/include/btree.i __wt_page_release, src/evict/evict_lru.c):
 *  - read generations, not recency: a page read from disk gets the midpoint of the global generation and
 *    the oldest one eviction last took (__wt_cache_read_gen_new); a page found in the cache is bumped to
 *    the global generation + 100, unless it is already ahead of the global one (__wt_cache_read_gen_bump);
 *    the global generation advances once per eviction pass (__evict_pass);
 *  - eviction starts when the cache passes eviction_target and takes it back under it: each pass walks
 *    the trees in key order from where the last walk stopped, queues up to 100 resident pages (each tree
 *    its share of the cache's bytes, at least 10, at most half the resident pages), keeps at most 300
 *    entries sorted by the generation each had when queued, and evicts the pages set to go soon plus a
 *    third of the others (__evict_lru_walk, __evict_walk_tree); the generation of the first ordinary
 *    candidate becomes the "oldest" of new pages; a page a cursor holds cannot be evicted;
 *  - past midway from eviction_target to eviction_trigger a pass sets "no keep": pages read then get the
 *    generation WT_READGEN_WONT_NEED (__evict_update_work, WT_CACHE_EVICT_NOKEEP) and the thread that read
 *    one evicts it when its cursor lets it go, unless another cursor holds it or a hit bumped it first
 *    (__wt_page_release); a fetch by RecordId lets its previous page go before it searches (the cursor's
 *    key is the application's: __wt_btcur_search), an index cursor when it steps off its page;
 *  - past eviction_trigger the reading thread wakes the eviction server.
 *  - a server that has woken and not yet evicted (held): its loop reads the state again each page read
 *    ("no keep" once past its mark) but nothing leaves the cache except what the cursors let go; no
 *    application thread evicts under the trigger (__wt_cache_eviction_worker returns at once for a
 *    thread that holds a page), so every row fetched from a page read then is a page read (the release
 *    evicts what the next search reads again: __cursor_page_pinned) and the cache does not fall. A wake
 *    past the trigger holds `trigger_hold_reads`; a wake by the timer between target and trigger holds
 *    `nokeep_hold_reads`, ending early if the cache passes the trigger. Seen on the embedded store (the
 *    connection's "eviction state" sampled every 0.2 ms, --order clustered): about 1 ms past the trigger,
 *    48-85 ms (32-416 page reads, nearly all forced evictions) from between target and trigger
 *    (docs/mongodb-compat.md, "Held \"no keep\"").
 * What it cannot keep: time. The server sleeps once the cache is under its target and wakes when a read
 * finds the cache past the trigger (or after `wake_reads` page reads), then makes one pass per page read
 * until the cache is under the target again; the workers' rows interleave one row each in turn, or by
 * their cost (`row_cost`, `miss_cost`). Every step above is counted in page reads, not in seconds.
 */
#ifndef LAB_EVICTSIM_H
#define LAB_EVICTSIM_H

#include "scan/predict/stackdist.h"

#include <stdbool.h>
#include <stdint.h>

/* An event's flags: the index cursor's page (else the data cursor's; the tree is the cursor's) and the
 * last event of a row (rows are what the workers interleave). */
#define LAB_EVICTSIM_INDEX 1u
#define LAB_EVICTSIM_ROW_END 2u

typedef struct lab_scan_evictsim_trace lab_scan_evictsim_trace_t;

/* lab_scan_evictsim_trace_new -- an empty trace of `workers` workers (>= 1). Never NULL. */
lab_scan_evictsim_trace_t *lab_scan_evictsim_trace_new (int workers);

/* lab_scan_evictsim_trace_destroy -- free it; NULL is fine. */
void lab_scan_evictsim_trace_destroy (lab_scan_evictsim_trace_t *t);

/* lab_scan_evictsim_trace_add -- worker w's next page access: `page` (any id), its cache footprint `bytes`
 * (> 0), its class (0 .. LAB_STACKDIST_CLASSES-1, counted apart), `flags` LAB_EVICTSIM_*. */
void lab_scan_evictsim_trace_add (lab_scan_evictsim_trace_t *t, int w, uint64_t page, uint64_t bytes, int cls,
                                  unsigned flags);

/* lab_scan_evictsim_trace_footprint -- the footprints of the trace's distinct pages, summed: a cache that
 * holds them all under eviction_target evicts nothing. */
uint64_t lab_scan_evictsim_trace_footprint (const lab_scan_evictsim_trace_t *t);

typedef struct {
   uint64_t cache_bytes;        /* the engine cache, in the footprints' bytes */
   double target_pct;           /* eviction_target, percent of the cache */
   double trigger_pct;          /* eviction_trigger */
   uint32_t wake_reads;         /* page reads the sleeping server lets pass before it looks again (0: it
                                   sleeps until a read finds the cache past the trigger) */
   double row_cost, miss_cost;  /* interleaving: a row costs row_cost + its page reads x miss_cost (both
                                   0: the workers take one row each in turn) */
   uint32_t wake_phase;         /* page reads the timer has already counted when the load starts (its
                                   phase: < wake_reads) */
   uint32_t trigger_hold_reads; /* page reads from a wake past the trigger to the first eviction */
   uint32_t nokeep_hold_reads;  /* page reads from a wake by the timer (wake_reads) between target and
                                   trigger to the first eviction (0: it evicts at once) */
} lab_scan_evictsim_config_t;

typedef struct {
   double misses[LAB_STACKDIST_CLASSES];   /* page reads, per class */
   double accesses[LAB_STACKDIST_CLASSES]; /* page accesses */
   uint64_t passes;                        /* eviction passes (the global generation's advance) */
   uint64_t evicted;                       /* pages evicted by the passes */
   uint64_t released;                      /* pages read under "no keep" evicted as their cursor let go */
   uint64_t held;                          /* wakes held before their first eviction (*_hold_reads) */
   uint64_t peak_bytes;                    /* the most the cache held */
} lab_scan_evictsim_result_t;

/* lab_scan_evictsim_run -- the trace through the miniature at `cfg`; *res gets its counts. */
void lab_scan_evictsim_run (const lab_scan_evictsim_trace_t *t, const lab_scan_evictsim_config_t *cfg,
                            lab_scan_evictsim_result_t *res);

#endif
