/*
 * evictsim.c -- the miniature of WiredTiger 3.2.1's eviction (see evictsim.h for what it keeps and from
 * where): the trace's recorder, then the run -- the workers' rows, each page access through the cursors
 * that hold pages, the read generations, and the eviction server's passes.
 */
#include "scan/predict/evictsim.h"

#include <bson/bson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* WiredTiger 3.2.1's constants (src/include/btmem.h, src/include/cache.h). */
#define READGEN_OLDEST 1
#define READGEN_WONT_NEED 2
#define READGEN_START 100 /* generations under it mean "evict soon" */
#define READGEN_STEP 100
#define WALK_BASE 300 /* queue entries kept across walks */
#define WALK_INCR 100 /* entries a walk adds */
#define EVICT_SLOTS (WALK_BASE + WALK_INCR)
#define MIN_PAGES_PER_TREE 10
#define TREES 2 /* the data tree and the index tree (the cursor's) */

typedef struct {
   uint32_t page; /* dense index */
   uint8_t cls, flags;
} event_t;

typedef struct {
   event_t *e;
   size_t n, cap;
} worker_trace_t;

struct lab_scan_evictsim_trace {
   int nworkers;
   worker_trace_t *w;
   /* pages: dense index -> id, footprint, tree; id -> dense index by open addressing */
   uint64_t *id, *bytes;
   uint8_t *tree;
   size_t npages, pages_cap;
   uint64_t *map_key; /* id + 1; 0 empty */
   uint32_t *map_val;
   size_t map_cap;
};

/* ---- the trace ----------------------------------------------------------------------------------- */

/* hash64 -- a page id's slot (splitmix64's finalizer). */
static uint64_t
hash64 (uint64_t x)
{
   x ^= x >> 30;
   x *= 0xbf58476d1ce4e5b9ULL;
   x ^= x >> 27;
   x *= 0x94d049bb133111ebULL;
   return x ^ (x >> 31);
}

/* map_put -- page id -> dense index, into a table of `cap` slots (a power of two). */
static void
map_put (uint64_t *keys, uint32_t *vals, size_t cap, uint64_t id, uint32_t v)
{
   size_t i = (size_t)hash64 (id) & (cap - 1);

   while (keys[i] != 0) {
      i = (i + 1) & (cap - 1);
   }
   keys[i] = id + 1;
   vals[i] = v;
}

/* page_of -- the dense index of page `id`, added with `bytes` and `tree` when new. */
static uint32_t
page_of (lab_scan_evictsim_trace_t *t, uint64_t id, uint64_t bytes, uint8_t tree)
{
   size_t i = (size_t)hash64 (id) & (t->map_cap - 1), k;

   while (t->map_key[i] != 0) {
      if (t->map_key[i] == id + 1) {
         return t->map_val[i];
      }
      i = (i + 1) & (t->map_cap - 1);
   }
   if (t->npages == t->pages_cap) {
      t->pages_cap = t->pages_cap ? 2 * t->pages_cap : 1024;
      t->id = bson_realloc (t->id, t->pages_cap * sizeof *t->id);
      t->bytes = bson_realloc (t->bytes, t->pages_cap * sizeof *t->bytes);
      t->tree = bson_realloc (t->tree, t->pages_cap * sizeof *t->tree);
   }
   t->id[t->npages] = id;
   t->bytes[t->npages] = bytes;
   t->tree[t->npages] = tree;
   if (2 * (t->npages + 1) > t->map_cap) {
      size_t cap = 2 * t->map_cap;
      uint64_t *keys = bson_malloc0 (cap * sizeof *keys);
      uint32_t *vals = bson_malloc0 (cap * sizeof *vals);
      for (k = 0; k < t->map_cap; k++) {
         if (t->map_key[k] != 0) {
            map_put (keys, vals, cap, t->map_key[k] - 1, t->map_val[k]);
         }
      }
      bson_free (t->map_key);
      bson_free (t->map_val);
      t->map_key = keys;
      t->map_val = vals;
      t->map_cap = cap;
   }
   map_put (t->map_key, t->map_val, t->map_cap, id, (uint32_t)t->npages);
   return (uint32_t)t->npages++;
}

/* lab_scan_evictsim_trace_new -- see evictsim.h. */
lab_scan_evictsim_trace_t *
lab_scan_evictsim_trace_new (int workers)
{
   lab_scan_evictsim_trace_t *t = bson_malloc0 (sizeof *t);

   t->nworkers = workers > 0 ? workers : 1;
   t->w = bson_malloc0 ((size_t)t->nworkers * sizeof *t->w);
   t->map_cap = 1024;
   t->map_key = bson_malloc0 (t->map_cap * sizeof *t->map_key);
   t->map_val = bson_malloc0 (t->map_cap * sizeof *t->map_val);
   return t;
}

/* lab_scan_evictsim_trace_destroy -- see evictsim.h. */
void
lab_scan_evictsim_trace_destroy (lab_scan_evictsim_trace_t *t)
{
   int w;

   if (!t) {
      return;
   }
   for (w = 0; w < t->nworkers; w++) {
      bson_free (t->w[w].e);
   }
   bson_free (t->w);
   bson_free (t->id);
   bson_free (t->bytes);
   bson_free (t->tree);
   bson_free (t->map_key);
   bson_free (t->map_val);
   bson_free (t);
}

/* lab_scan_evictsim_trace_add -- see evictsim.h. */
void
lab_scan_evictsim_trace_add (lab_scan_evictsim_trace_t *t, int w, uint64_t page, uint64_t bytes, int cls,
                             unsigned flags)
{
   worker_trace_t *wt;

   if (w < 0 || w >= t->nworkers || cls < 0 || cls >= LAB_STACKDIST_CLASSES) {
      return;
   }
   wt = &t->w[w];
   if (wt->n == wt->cap) {
      wt->cap = wt->cap ? 2 * wt->cap : 1024;
      wt->e = bson_realloc (wt->e, wt->cap * sizeof *wt->e);
   }
   wt->e[wt->n].page = page_of (t, page, bytes > 0 ? bytes : 1, (flags & LAB_EVICTSIM_INDEX) ? 1 : 0);
   wt->e[wt->n].cls = (uint8_t)cls;
   wt->e[wt->n].flags = (uint8_t)flags;
   wt->n++;
}

/* lab_scan_evictsim_trace_footprint -- see evictsim.h. */
uint64_t
lab_scan_evictsim_trace_footprint (const lab_scan_evictsim_trace_t *t)
{
   uint64_t sum = 0;
   size_t i;

   for (i = 0; i < t->npages; i++) {
      sum += t->bytes[i];
   }
   return sum;
}

/* ---- the run ------------------------------------------------------------------------------------- */

typedef struct {
   uint32_t page, epoch; /* the page's residency when queued: a page read again is a new entry */
   uint64_t score;       /* its generation when queued (__evict_entry_priority) */
} entry_t;

typedef struct {
   const lab_scan_evictsim_trace_t *t;
   const lab_scan_evictsim_config_t *cfg;
   lab_scan_evictsim_result_t *res;
   /* per page */
   uint64_t *gen;
   uint32_t *epoch, *pins;
   bool *resident, *queued;
   /* per tree: its pages in id (key) order, where the walk stands, its bytes in the cache */
   uint32_t *order;
   size_t start[TREES + 1], walk[TREES];
   uint64_t tree_bytes[TREES];
   uint64_t resident_pages;
   /* the cache */
   uint64_t used, target, trigger, nokeep_at;
   uint64_t gen_now, gen_oldest;
   bool nokeep, awake;
   uint32_t since;       /* page reads since the server slept */
   uint32_t hold;        /* page reads left before a woken server evicts (0: none) */
   bool hold_at_trigger; /* the hold began past the trigger */
   entry_t queue[EVICT_SLOTS];
   size_t nqueue;
   int first_tree; /* the tree the next walk starts with (WiredTiger moves between handles) */
   /* per worker: the page each cursor holds (UINT32_MAX: none) */
   uint32_t (*pin)[2];
} sim_t;

#define NO_PAGE UINT32_MAX

/* evict -- page x leaves the cache. */
static void
evict (sim_t *s, uint32_t x)
{
   s->resident[x] = false;
   s->queued[x] = false;
   s->used -= s->t->bytes[x];
   s->tree_bytes[s->t->tree[x]] -= s->t->bytes[x];
   s->resident_pages--;
}

/* evict_soon -- a generation that marks a page to go first. */
static bool
evict_soon (uint64_t gen)
{
   return gen != 0 && gen < READGEN_START;
}

/* walk_tree -- queue up to `want` resident pages of tree `tr`, in key order from where its walk stopped,
 * seeing each page once at most. */
static size_t
walk_tree (sim_t *s, int tr, size_t want)
{
   size_t n = s->start[tr + 1] - s->start[tr], seen, got = 0;

   for (seen = 0; seen < n && got < want && s->nqueue < EVICT_SLOTS; seen++) {
      uint32_t x = s->order[s->start[tr] + s->walk[tr]];
      s->walk[tr] = (s->walk[tr] + 1) % n;
      if (!s->resident[x] || s->queued[x]) {
         continue;
      }
      s->queued[x] = true;
      s->queue[s->nqueue].page = x;
      s->queue[s->nqueue].epoch = s->epoch[x];
      s->queue[s->nqueue].score = evict_soon (s->gen[x]) ? READGEN_OLDEST : s->gen[x];
      s->nqueue++;
      got++;
   }
   return got;
}

/* entry_cmp -- the queue in generation order (ties: the order they were queued in). */
static int
entry_cmp (const void *a, const void *b)
{
   const entry_t *x = a, *y = b;

   if (x->score != y->score) {
      return x->score < y->score ? -1 : 1;
   }
   return x->page < y->page ? -1 : x->page > y->page;
}

/* entry_live -- whether a queued entry is still its page in the cache. */
static bool
entry_live (const sim_t *s, const entry_t *e)
{
   return s->resident[e->page] && s->queued[e->page] && s->epoch[e->page] == e->epoch;
}

/* pass -- one eviction server pass: the global generation advances, the state is read, and over the
 * target a walk fills the queue and its candidates are evicted. */
static void
pass (sim_t *s)
{
   size_t slots, max_entries, i, k, ncand, normal;
   int j;

   s->gen_now++;
   s->res->passes++;
   s->nokeep = s->used >= s->nokeep_at;
   if (s->used <= s->target) {
      s->awake = false;
      s->since = 0;
      return;
   }
   /* drop entries whose page left (WiredTiger clears them as it evicts) */
   for (i = k = 0; i < s->nqueue; i++) {
      if (entry_live (s, &s->queue[i])) {
         s->queue[k++] = s->queue[i];
      }
   }
   s->nqueue = k;
   max_entries = s->nqueue + WALK_INCR < EVICT_SLOTS ? s->nqueue + WALK_INCR : EVICT_SLOTS;
   if (max_entries > 1 + s->resident_pages / 2) {
      max_entries = 1 + s->resident_pages / 2;
   }
   for (j = 0; j < TREES && s->nqueue < max_entries; j++) {
      int tr = (s->first_tree + j) % TREES;
      uint64_t per_slot = 1 + s->used / EVICT_SLOTS;
      size_t want;
      if (s->tree_bytes[tr] == 0) {
         continue;
      }
      want = (size_t)((s->tree_bytes[tr] + per_slot / 2) / per_slot);
      if (want < MIN_PAGES_PER_TREE) {
         want = MIN_PAGES_PER_TREE;
      }
      slots = max_entries - s->nqueue;
      walk_tree (s, tr, want < slots ? want : slots);
   }
   s->first_tree = (s->first_tree + 1) % TREES;
   qsort (s->queue, s->nqueue, sizeof *s->queue, entry_cmp);
   while (s->nqueue > WALK_BASE) {
      s->queued[s->queue[--s->nqueue].page] = false;
   }
   if (s->nqueue == 0) {
      return;
   }
   /* the candidates: the pages set to go soon, and a third of the others (__evict_lru_walk) */
   for (normal = 0; normal < s->nqueue && s->queue[normal].score < READGEN_START; normal++) {
   }
   if (normal == s->nqueue) {
      ncand = s->nqueue;
   } else if (normal > s->nqueue / 2) {
      ncand = normal;
   } else {
      ncand = 1 + normal + (s->nqueue - normal - 1) / 3;
      s->gen_oldest = s->queue[normal].score;
   }
   for (i = 0; i < ncand; i++) {
      uint32_t x = s->queue[i].page;
      if (!entry_live (s, &s->queue[i])) {
         continue;
      }
      s->queued[x] = false;
      if (s->pins[x] == 0) { /* a page a cursor holds is busy: its entry is dropped */
         evict (s, x);
         s->res->evicted++;
      }
   }
   memmove (s->queue, s->queue + ncand, (s->nqueue - ncand) * sizeof *s->queue);
   s->nqueue -= ncand;
}

/* server_after_read -- the eviction server's share of the time one page read takes. */
static void
server_after_read (sim_t *s)
{
   uint32_t wake = s->cfg->wake_reads, hold;
   bool timer;

   if (s->hold > 0) {
      /* the server has woken and not yet evicted: its loop reads the state again ("no keep" past its
       * mark); a timer's episode ends early when the cache passes the trigger (a reader wakes it) */
      s->nokeep = s->used >= s->nokeep_at;
      if (--s->hold > 0 && (s->hold_at_trigger || s->used <= s->trigger)) {
         return;
      }
      s->hold = 0;
      s->awake = true;
   }
   if (!s->awake) {
      timer = wake != 0 && ++s->since >= wake;
      if (!timer && s->used <= s->trigger) {
         return;
      }
      s->since = 0;
      s->hold_at_trigger = s->used > s->trigger;
      hold = s->hold_at_trigger ? s->cfg->trigger_hold_reads
                                : (s->used > s->target ? s->cfg->nokeep_hold_reads : 0);
      if (hold > 0) {
         s->gen_now++;
         s->res->passes++;
         s->nokeep = s->used >= s->nokeep_at;
         s->hold = hold;
         s->res->held++;
         return;
      }
      s->awake = true;
   }
   pass (s);
}

/* release -- worker w's cursor `cur` lets its page go; a page read under "no keep" and not bumped since
 * is evicted by that thread, unless another cursor holds it (__wt_page_release). */
static void
release (sim_t *s, int w, int cur)
{
   uint32_t x = s->pin[w][cur];

   if (x == NO_PAGE) {
      return;
   }
   s->pin[w][cur] = NO_PAGE;
   s->pins[x]--;
   if (s->resident[x] && s->pins[x] == 0 && evict_soon (s->gen[x])) {
      evict (s, x);
      s->res->released++;
   }
}

/* access -- one event of worker w: its cursor lets the previous page go, finds or reads this one, holds
 * it; returns whether it read the page. */
static bool
access_page (sim_t *s, int w, const event_t *e)
{
   int cur = (e->flags & LAB_EVICTSIM_INDEX) ? 1 : 0;
   uint32_t x = e->page;
   bool read = false;

   release (s, w, cur);
   s->res->accesses[e->cls]++;
   if (s->resident[x]) {
      /* __wt_cache_read_gen_bump: a page set to go first stays so; one ahead of the clock is left */
      if (s->gen[x] != READGEN_OLDEST && s->gen[x] <= s->gen_now) {
         s->gen[x] = s->gen_now + READGEN_STEP;
      }
   } else {
      read = true;
      s->res->misses[e->cls]++;
      s->resident[x] = true;
      s->epoch[x]++;
      s->used += s->t->bytes[x];
      s->tree_bytes[s->t->tree[x]] += s->t->bytes[x];
      s->resident_pages++;
      s->gen[x] = s->nokeep ? READGEN_WONT_NEED : (s->gen_now + s->gen_oldest) / 2;
      if (s->used > s->res->peak_bytes) {
         s->res->peak_bytes = s->used;
      }
   }
   s->pins[x]++;
   s->pin[w][cur] = x;
   if (read) {
      server_after_read (s);
   }
   return read;
}

/* A page's place in key order: its tree, then its id. */
typedef struct {
   uint64_t id;
   uint32_t page;
   uint8_t tree;
} order_t;

/* order_cmp -- pages by tree, then id (key order). */
static int
order_cmp (const void *a, const void *b)
{
   const order_t *x = a, *y = b;

   if (x->tree != y->tree) {
      return x->tree < y->tree ? -1 : 1;
   }
   return x->id < y->id ? -1 : x->id > y->id;
}

/* sim_init -- the empty cache of `cfg` over trace t. */
static void
sim_init (sim_t *s, const lab_scan_evictsim_trace_t *t, const lab_scan_evictsim_config_t *cfg,
          lab_scan_evictsim_result_t *res)
{
   size_t n = t->npages > 0 ? t->npages : 1, i;
   order_t *ord;
   int w;

   memset (s, 0, sizeof *s);
   s->t = t;
   s->cfg = cfg;
   s->res = res;
   s->gen = bson_malloc0 (n * sizeof *s->gen);
   s->epoch = bson_malloc0 (n * sizeof *s->epoch);
   s->pins = bson_malloc0 (n * sizeof *s->pins);
   s->resident = bson_malloc0 (n * sizeof *s->resident);
   s->queued = bson_malloc0 (n * sizeof *s->queued);
   s->order = bson_malloc0 (n * sizeof *s->order);
   ord = bson_malloc0 (n * sizeof *ord);
   for (i = 0; i < t->npages; i++) {
      ord[i] = (order_t){ t->id[i], (uint32_t)i, t->tree[i] };
   }
   qsort (ord, t->npages, sizeof *ord, order_cmp);
   for (i = 0; i < t->npages; i++) {
      s->order[i] = ord[i].page;
   }
   bson_free (ord);
   for (i = 0; i < t->npages && t->tree[s->order[i]] == 0; i++) {
   }
   s->start[0] = 0;
   s->start[1] = i;
   s->start[2] = t->npages;
   s->target = (uint64_t)llround ((double)cfg->cache_bytes * cfg->target_pct / 100);
   s->trigger = (uint64_t)llround ((double)cfg->cache_bytes * cfg->trigger_pct / 100);
   s->nokeep_at = (uint64_t)llround ((double)cfg->cache_bytes * (cfg->target_pct + cfg->trigger_pct) / 200);
   s->gen_now = s->gen_oldest = READGEN_START;
   s->since = cfg->wake_phase;
   s->pin = bson_malloc0 ((size_t)t->nworkers * sizeof *s->pin);
   for (w = 0; w < t->nworkers; w++) {
      s->pin[w][0] = s->pin[w][1] = NO_PAGE;
   }
}

/* sim_cleanup -- free what sim_init allocated. */
static void
sim_cleanup (sim_t *s)
{
   bson_free (s->gen);
   bson_free (s->epoch);
   bson_free (s->pins);
   bson_free (s->resident);
   bson_free (s->queued);
   bson_free (s->order);
   bson_free (s->pin);
}

/* next_worker -- the worker whose row comes next: the least time spent (by cost), or the next in turn;
 * -1 when every worker is done. */
static int
next_worker (const lab_scan_evictsim_trace_t *t, const size_t *at, const double *clock, int last,
             bool by_cost)
{
   int w, best = -1;

   for (w = 0; w < t->nworkers; w++) {
      int v = by_cost ? w : (last + 1 + w) % t->nworkers;
      if (at[v] >= t->w[v].n) {
         continue;
      }
      if (!by_cost) {
         return v;
      }
      if (best < 0 || clock[v] < clock[best]) {
         best = v;
      }
   }
   return best;
}

/* lab_scan_evictsim_run -- see evictsim.h. */
void
lab_scan_evictsim_run (const lab_scan_evictsim_trace_t *t, const lab_scan_evictsim_config_t *cfg,
                       lab_scan_evictsim_result_t *res)
{
   size_t *at = bson_malloc0 ((size_t)t->nworkers * sizeof *at);
   double *clock = bson_malloc0 ((size_t)t->nworkers * sizeof *clock);
   bool by_cost = cfg->row_cost > 0 || cfg->miss_cost > 0;
   int w = -1, v;
   sim_t s;

   memset (res, 0, sizeof *res);
   sim_init (&s, t, cfg, res);
   while ((w = next_worker (t, at, clock, w, by_cost)) >= 0) {
      const worker_trace_t *wt = &t->w[w];
      int reads = 0;
      while (at[w] < wt->n) {
         const event_t *e = &wt->e[at[w]++];
         reads += access_page (&s, w, e) ? 1 : 0;
         if (e->flags & LAB_EVICTSIM_ROW_END) {
            break;
         }
      }
      clock[w] += cfg->row_cost + reads * cfg->miss_cost;
      if (at[w] >= wt->n) {
         release (&s, w, 0);
         release (&s, w, 1);
      }
   }
   for (v = 0; v < t->nworkers; v++) {
      release (&s, v, 0);
      release (&s, v, 1);
   }
   sim_cleanup (&s);
   bson_free (clock);
   bson_free (at);
}
