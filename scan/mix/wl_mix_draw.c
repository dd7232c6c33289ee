/*
 * wl_mix_draw.c -- the user's mix's inputs (wl_mix_private.h): the stream drawn from --seed, each op's
 * input drawn warm from the data by the workloads' own drawers, the writes handed to the ops in a seeded
 * order that keeps each master's in line order, and what the stream itself appends left out of the reads'
 * digests.
 */
#include "scan/hash.h"
#include "scan/mix/wl_mix_private.h"
#include "scan/workloads/wl_runs.h"

#include "core/error.h"
#include "core/log.h"
#include "core/opts.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- inputs -------------------------------------------------------------------------------------- */

/* input_order -- the writes `ws` (grouped by master, each master's in draw order) handed to the type's
 * ops: a seeded shuffle of the masters' turns (master g appears as many times as it has writes), the k-th
 * op taking its master's next write. The masters' order is as random as the draw's, their own writes
 * stay in line order. */
static int64_t *
input_order (const lab_scan_wl_writes_t *ws, uint64_t seed)
{
   int64_t *turn = bson_malloc0 (((size_t)ws->n + 1) * sizeof *turn);
   int64_t *next = bson_malloc0 (((size_t)ws->ngroups + 1) * sizeof *next);
   int64_t *out = bson_malloc0 (((size_t)ws->n + 1) * sizeof *out), g, i, at = 0;
   uint64_t rng = seed;

   for (g = 0; g < ws->ngroups; g++) {
      next[g] = ws->group[g];
      for (i = ws->group[g]; i < ws->group[g + 1]; i++) {
         turn[at++] = g;
      }
   }
   for (i = ws->n - 1; i > 0; i--) {
      int64_t j = (int64_t)(lab_scan_rand64 (&rng) % (uint64_t)(i + 1)), t = turn[i];
      turn[i] = turn[j];
      turn[j] = t;
   }
   for (i = 0; i < ws->n; i++) {
      out[i] = next[turn[i]]++;
   }
   bson_free (turn);
   bson_free (next);
   return out;
}

/* One write op for the ordering sort: its master's hash, its place in the stream. */
typedef struct {
   uint64_t h;
   int64_t op;
} wkey_t;

/* wkey_cmp -- by master hash, then stream order. */
static int
wkey_cmp (const void *a, const void *b)
{
   const wkey_t *x = a, *y = b;
   if (x->h != y->h) {
      return x->h < y->h ? -1 : 1;
   }
   return (x->op > y->op) - (x->op < y->op);
}

/* u64_cmp -- ascending. */
static int
u64_cmp (const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return (x > y) - (x < y);
}

/* mix_write_of -- the write op `op` of the stream (NULL: a read). */
static const lab_scan_wl_write_t *
mix_write_of (const mix_t *mx, int64_t op)
{
   int t = mx->s.type[op];
   if (t == LAB_WL_APPEND) {
      return &mx->in.append.w[mx->input[t][mx->s.index[op]]];
   }
   if (t == LAB_WL_UPDATE) {
      return &mx->in.update.w[mx->input[t][mx->s.index[op]]];
   }
   return NULL;
}

/* mix_orders -- the writes' inputs per op, the masters' write order (prev) and the appended rows' hashes. */
static void
mix_orders (mix_t *mx)
{
   wkey_t *ks = bson_malloc0 (((size_t)mx->s.n + 1) * sizeof *ks);
   int64_t i, nk = 0;

   mx->input[LAB_WL_APPEND] = input_order (&mx->in.append, mx->o1.wl.seed ^ 0x6d6978617070ull);
   mx->input[LAB_WL_UPDATE] = input_order (&mx->in.update, mx->o1.wl.seed ^ 0x6d6978757064ull);
   mx->prev = bson_malloc0 (((size_t)mx->s.n + 1) * sizeof *mx->prev);
   for (i = 0; i < mx->s.n; i++) {
      const lab_scan_wl_write_t *w = mix_write_of (mx, i);
      mx->prev[i] = -1;
      if (w) {
         ks[nk].h = lab_scan_wl_id_hash (&w->key, NULL);
         ks[nk++].op = i;
      }
   }
   qsort (ks, (size_t)nk, sizeof *ks, wkey_cmp);
   for (i = 1; i < nk; i++) {
      if (ks[i].h == ks[i - 1].h) {
         mx->prev[ks[i].op] = ks[i - 1].op;
      }
   }
   bson_free (ks);
   /* an appended row by content, and by (key, _id) as a read of an updated master hashes it */
   mx->skip = bson_malloc0 (((size_t)mx->in.append.n * 2 + 1) * sizeof *mx->skip);
   for (i = 0; i < mx->in.append.n; i++) {
      mx->skip[2 * i] = lab_scan_wl_write_hash (&mx->in.append.w[i], mx->o1.wl.sum_field);
      mx->skip[2 * i + 1] = lab_scan_wl_id_hash (&mx->in.append.w[i].key, &mx->in.append.w[i].id);
   }
   mx->nskip = mx->in.append.n * 2;
   qsort (mx->skip, (size_t)mx->nskip, sizeof *mx->skip, u64_cmp);
   /* the masters the stream corrects: whether a read saw a correction depends on the timing, so their
    * rows are read by (key, _id), not content (the corrections are in the digest as writes) */
   mx->updated = bson_malloc0 (((size_t)mx->in.update.n + 1) * sizeof *mx->updated);
   for (i = 0; i < mx->in.update.n; i++) {
      mx->updated[i] = lab_scan_wl_id_hash (&mx->in.update.w[i].key, NULL);
   }
   mx->nupdated = mx->in.update.n;
   qsort (mx->updated, (size_t)mx->nupdated, sizeof *mx->updated, u64_cmp);
}

/* lab_scan_mix_draw -- see wl_mix_private.h. */
bool
lab_scan_mix_draw (lab_scan_plan_t *p, uint64_t seed, mix_t *mx, bson_error_t *error)
{
   const lab_results_layouts_t *ls = &p->layouts;
   const lab_results_layout_t *from = &ls->l[ls->reference], *rows = NULL;
   const int64_t *c;
   lab_store_session_t *sess;
   unsigned set = 0;
   size_t i;
   bool ok;

   mx->o1 = *p->opts;
   mx->o1.wl.seed = seed;
   lab_scan_mix_stream_make (p->opts->wl.mix_weight, p->opts->wl.mix_ops, seed, &mx->s);
   c = mx->s.count;
   mx->o1.wl.row_batch = 1;
   mx->o1.wl.row_keys = c[LAB_WL_ROW] + c[LAB_WL_LOAD];
   mx->o1.wl.range_windows = c[LAB_WL_RANGE];
   mx->o1.wl.append_rows = c[LAB_WL_APPEND];
   mx->o1.wl.update_rows = c[LAB_WL_UPDATE];
   set |= mx->o1.wl.row_keys > 0 ? 1u << LAB_WL_ROW : 0;
   set |= c[LAB_WL_RANGE] > 0 ? 1u << LAB_WL_RANGE : 0;
   set |= c[LAB_WL_APPEND] > 0 ? 1u << LAB_WL_APPEND : 0;
   set |= c[LAB_WL_UPDATE] > 0 ? 1u << LAB_WL_UPDATE : 0;
   mx->mode =
      p->backend == LAB_BACKEND_MONGO && !p->info.query_subset ? LAB_WL_MODE_SERVER : LAB_WL_MODE_TOOL;
   for (i = 0; i < ls->n; i++) {
      if (lab_layout_one_doc_per_master (&ls->l[i].desc) && from == &ls->l[ls->reference]) {
         from = &ls->l[i]; /* one fetch per master */
      }
      if (lab_layout_reads_rows (&ls->l[i].desc) && !rows) {
         rows = &ls->l[i];
      }
   }
   sess = lab_store_session_open (p->store, error);
   if (!sess) {
      return false;
   }
   lab_log_info ("the mix: %lld operations (seed %llu), drawing their inputs", (long long)mx->s.n,
                 (unsigned long long)mx->o1.wl.seed);
   ok = lab_scan_wl_inputs_draw (sess, &mx->o1, set, from, p->keys, p->nkeys, &mx->in, error) &&
        lab_scan_wl_writes_draw (sess, &mx->o1, set, rows, p->keys, p->nkeys, &mx->in, error);
   lab_store_session_close (sess);
   if (!ok) {
      lab_error_prefix (error, "--mix");
      return false;
   }
   mx->in.nrows = c[LAB_WL_ROW]; /* the loads' masters follow the row ops' rows */
   mix_orders (mx);
   mx->rate = p->opts->wl.mix_rate;
   return true;
}

/* lab_scan_mix_inputs_cleanup -- see wl_mix_private.h. */
void
lab_scan_mix_inputs_cleanup (mix_t *mx)
{
   lab_scan_wl_writes_cleanup (&mx->in.append);
   lab_scan_wl_writes_cleanup (&mx->in.update);
   lab_scan_wl_inputs_cleanup (&mx->in);
   lab_scan_mix_stream_cleanup (&mx->s);
   bson_free (mx->input[LAB_WL_APPEND]);
   bson_free (mx->input[LAB_WL_UPDATE]);
   bson_free (mx->prev);
   bson_free (mx->skip);
   bson_free (mx->updated);
}
