/*
 * verify_multiset.c -- the multiset method of --verify (verify.h): both collections read in natural order
 * at once by several threads (store/natural.h), each thread adding every row to its own map of master ->
 * {rows, checksum, documents, parts}; the maps merged, then every master accounted in key order with the
 * ordered method's own accounting (verify_common.c), so both methods give the same figures and the same
 * first difference. Masters are split into passes by a hash of their key when they would not fit the
 * memory bound.
 */
#include "verify_private.h"

#include "core/error.h"
#include "store/keyenc.h"
#include "core/log.h"
#include "store/natural.h"
#include "core/opts.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* ---- the per-master map ------------------------------------------------------------------------- */

#define E_PARTS_MIXED 1u /* destination documents of the master disagree on `parts` */
#define E_BUCKET_BAD 2u  /* one of its documents broke a bucket rule */

/* A master's identity: the XXH3-128 of its key's KeyString body (numerically equal keys of different
 * types share a body, so they are one master, as in the fold). Two keys with one hash would be one
 * master: a chance of 2^-128 per pair, the same odds the rows' own checksums accept. */
typedef struct {
   uint64_t lo, hi;
} kid_t;

/* What a source row touches, one cache line: open addressing, linear probing over these (at most 70%
 * full; {0, 0} marks an empty slot, and a key hashing to it is moved to {0, 1}). */
typedef struct {
   kid_t id;
   int64_t src_rows;
   lab_fold_hash_t src_hash;
   int64_t dst_rows;
   uint32_t cold; /* its cold_t */
   uint32_t unused;
} __attribute__ ((aligned (64))) hot_t;

/* The rest of a master: its key (body + type tag, in the map's arena) and what its destination documents
 * say. */
typedef struct {
   uint32_t koff;
   uint32_t klen;
   uint32_t kbody; /* the body's length (the encoding without its type tag) */
   uint32_t flags;
   int32_t parts;
   int32_t oversize; /* its documents over the cap */
   int64_t docs;
   lab_fold_hash_t dst_hash;
   uint64_t part_mix; /* sum of lab_fold_verify_part_mix of its documents' parts */
} cold_t;

typedef struct {
   hot_t *t;
   size_t nslots; /* a power of two (0: nothing yet) */
   size_t n;
   cold_t *c;
   size_t ccap;
   uint8_t *arena;
   size_t alen, acap;
} map_t;

/* map_bytes -- the memory the map holds. */
static int64_t
map_bytes (const map_t *m)
{
   return (int64_t)(m->nslots * sizeof *m->t + m->ccap * sizeof *m->c + m->acap);
}

static void
map_free (map_t *m)
{
   bson_free (m->t);
   bson_free (m->c);
   bson_free (m->arena);
   memset (m, 0, sizeof *m);
}

/* kid_of -- the identity of a key body. */
static kid_t
kid_of (const uint8_t *body, size_t len)
{
   XXH128_hash_t h = XXH3_128bits (body, len);
   kid_t k = { h.low64, h.high64 };

   if (k.lo == 0 && k.hi == 0) {
      k.hi = 1;
   }
   return k;
}

/* slot_of -- the slot holding id, or the empty slot where it goes. */
static hot_t *
slot_of (const map_t *m, kid_t id)
{
   size_t mask = m->nslots - 1, s = (size_t)id.lo & mask;

   while ((m->t[s].id.lo | m->t[s].id.hi) != 0 && (m->t[s].id.lo != id.lo || m->t[s].id.hi != id.hi)) {
      s = (s + 1) & mask;
   }
   return &m->t[s];
}

/* map_prefetch -- bring the line where id's search starts into the cache (before the row is hashed). */
static inline void
map_prefetch (const map_t *m, kid_t id)
{
   if (m->nslots) {
      __builtin_prefetch (&m->t[(size_t)id.lo & (m->nslots - 1)], 1);
   }
}

/* map_grow -- twice the slots, every master placed again. */
static void
map_grow (map_t *m)
{
   hot_t *old = m->t;
   size_t i, n = m->nslots;

   m->nslots = n ? n * 2 : 64;
   m->t = bson_aligned_alloc0 (64, m->nslots * sizeof *m->t);
   for (i = 0; i < n; i++) {
      if (old[i].id.lo | old[i].id.hi) {
         *slot_of (m, old[i].id) = old[i];
      }
   }
   bson_free (old);
}

/* map_get -- the master `id`, whose key encodes to enc[0..klen) (body enc[0..kbody)), added (zeroed)
 * when missing. */
static hot_t *
map_get (map_t *m, kid_t id, const uint8_t *enc, uint32_t klen, uint32_t kbody)
{
   hot_t *h;
   cold_t *c;

   if (m->nslots) {
      h = slot_of (m, id);
      if (h->id.lo | h->id.hi) {
         return h;
      }
   }
   if ((m->n + 1) * 10 > m->nslots * 7) {
      map_grow (m);
   }
   if (m->n == m->ccap) {
      m->ccap = m->ccap ? m->ccap * 2 : 64;
      m->c = bson_realloc (m->c, m->ccap * sizeof *m->c);
   }
   if (m->alen + klen > m->acap) {
      m->acap = m->acap ? m->acap * 2 : 4096;
      while (m->alen + klen > m->acap) {
         m->acap *= 2;
      }
      m->arena = bson_realloc (m->arena, m->acap);
   }
   c = &m->c[m->n];
   memset (c, 0, sizeof *c);
   c->koff = (uint32_t)m->alen;
   c->klen = klen;
   c->kbody = kbody;
   memcpy (m->arena + m->alen, enc, klen);
   m->alen += klen;
   h = slot_of (m, id);
   memset (h, 0, sizeof *h);
   h->id = id;
   h->cold = (uint32_t)m->n++;
   return h;
}

/* ---- one pass: the threads' maps ---------------------------------------------------------------- */

/* The first message of a kind (oversize, bucket) a thread met, at the smallest key: only the first
 * differing master in key order is described in the result. */
typedef struct {
   bool have;
   lab_buf_t body; /* the master's key body */
   char msg[400];
} note_t;

/* note_keep -- keep msg when it belongs to a smaller key than the note's. */
static void
note_keep (note_t *n, const uint8_t *body, size_t blen, const char *msg)
{
   size_t m = blen < n->body.len ? blen : n->body.len;
   int c = n->have ? memcmp (body, n->body.data, m) : -1;

   if (n->have && (c > 0 || (c == 0 && blen >= n->body.len))) {
      return;
   }
   lab_buf_reset (&n->body);
   lab_buf_append (&n->body, body, blen);
   bson_strncpy (n->msg, msg, sizeof n->msg);
   n->have = true;
}

/* note_merge -- the smaller of two notes into `into`. */
static void
note_merge (note_t *into, const note_t *from)
{
   if (from->have) {
      note_keep (into, from->body.data, from->body.len, from->msg);
   }
}

/* note_for -- the note's message when it is the master's (key body), else `other`. */
static const char *
note_for (const note_t *n, const uint8_t *body, size_t blen, const char *other)
{
   return n->have && n->body.len == blen && memcmp (n->body.data, body, blen) == 0 ? n->msg : other;
}

/* The pass shared by the threads. */
typedef struct {
   const lab_fold_verify_opts_t *o;
   const char *bfield;
   lab_fold_bucket_unit_t bunit;
   int64_t max;          /* the document cap */
   int pass, passes;     /* this pass's masters: (key hash >> 40) % passes == pass */
   int64_t budget_bytes; /* per thread map */
   int overflow;         /* atomic: a thread's map outgrew its budget */
} pass_t;

/* One thread's context. */
typedef struct {
   pass_t *ps;
   map_t map;
   lab_buf_t key; /* scratch: one key's encoding */
   group_t g;     /* scratch: one destination document's figures */
   int64_t largest;
   note_t oversize, bucket;
   /* source rows without the key, and with a key no index can hold (pass 0 only) */
   int64_t missing_rows;
   lab_fold_hash_t missing_hash;
   int64_t bad_rows;
   lab_fold_hash_t bad_hash;
   bson_value_t bad_key; /* the first such key (a copy) */
   char bad_first[256];
   int64_t peak_bytes;
   char pad[64];
} worker_t;

/* in_pass -- the master `id` is this pass's. */
static bool
in_pass (const pass_t *ps, kid_t id)
{
   return ps->passes <= 1 || (int)(id.hi % (uint64_t)ps->passes) == ps->pass;
}

/* encode_key -- the key's encoding into w->key; *id the master's identity. False with *e for a type no
 * index key may hold (LAB_STORE_ERR_KEY_TYPE naming it). */
static bool
encode_key (worker_t *w, const bson_value_t *v, kid_t *id, uint32_t *kbody, bson_error_t *e)
{
   lab_buf_reset (&w->key);
   if (!lab_store_key_encode (v, &w->key, e)) {
      return false;
   }
   *kbody = (uint32_t)lab_store_key_body_len (w->key.len);
   *id = kid_of (w->key.data, *kbody);
   return true;
}

/* grown -- after an entry was added: the map within its budget, else the pass overflows. */
static bool
grown (worker_t *w, bson_error_t *error)
{
   int64_t b = map_bytes (&w->map);

   if (b > w->peak_bytes) {
      w->peak_bytes = b;
   }
   if (b > w->ps->budget_bytes) {
      __atomic_store_n (&w->ps->overflow, 1, __ATOMIC_RELAXED);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "the masters of this pass outgrew the memory bound");
      return false;
   }
   return true;
}

/* src_doc -- one source row under its master. */
static bool
src_doc (worker_t *w, const bson_t *doc, bson_error_t *error)
{
   const pass_t *ps = w->ps;
   bson_value_t v;
   bson_error_t ke;
   kid_t id;
   uint32_t kbody;
   lab_fold_hash_t rh;
   hot_t *h;
   size_t before;

   if (!lab_fold_verify_key_of (doc, ps->o->target.key, &v)) {
      if (ps->pass == 0) {
         w->missing_rows++;
         lab_fold_hash_add (&w->missing_hash, lab_fold_row_hash (doc));
      }
      return true;
   }
   if (!encode_key (w, &v, &id, &kbody, &ke)) {
      if (ps->pass == 0) {
         if (!w->bad_rows) {
            bson_iter_t it;
            char *idt = bson_iter_init_find (&it, doc, "_id") ? lab_value_to_text (bson_iter_value (&it))
                                                              : bson_strdup ("?");
            bson_snprintf (w->bad_first, sizeof w->bad_first, "first: _id %s; %s", idt, ke.message);
            bson_free (idt);
            bson_value_copy (&v, &w->bad_key);
         }
         w->bad_rows++;
         lab_fold_hash_add (&w->bad_hash, lab_fold_row_hash (doc));
      }
      return true;
   }
   if (!in_pass (ps, id)) {
      return true;
   }
   /* the master's line is on its way from memory while the row is hashed: masters outnumber the cache,
    * and one master's rows are scattered, so nearly every lookup would miss */
   map_prefetch (&w->map, id);
   rh = lab_fold_row_hash (doc);
   before = w->map.n;
   h = map_get (&w->map, id, w->key.data, (uint32_t)w->key.len, kbody);
   h->src_rows++;
   lab_fold_hash_add (&h->src_hash, rh);
   return w->map.n == before || grown (w, error);
}

/* dst_doc -- one destination document under its master: its rows, part, size and buckets. */
static bool
dst_doc (worker_t *w, const bson_t *doc, bson_error_t *error)
{
   const pass_t *ps = w->ps;
   group_t *g = &w->g;
   bson_value_t v;
   bson_error_t ke;
   kid_t id = { 0, 0 };
   uint32_t kbody = 0;
   bool has_key, encoded;
   hot_t *h;
   cold_t *e;
   size_t before;

   has_key = lab_fold_verify_key_of (doc, ps->o->target.key, &v);
   encoded = has_key && encode_key (w, &v, &id, &kbody, &ke);
   if (encoded && !in_pass (ps, id)) {
      return true;
   }
   if (!encoded && ps->pass != 0) {
      return true; /* malformed: pass 0 fails on it */
   }
   memset (g, 0, sizeof *g);
   g->key = v; /* not owned: points into doc */
   if (!lab_fold_verify_dst_doc (ps->o, ps->bfield, ps->bunit, ps->max, g, doc, error)) {
      return false;
   }
   if (!encoded) {
      /* unfold accepts the key (it is there), but no index key can hold its type */
      bson_iter_t it;
      char *idt = bson_iter_init_find (&it, doc, "_id") ? lab_value_to_text (bson_iter_value (&it))
                                                        : bson_strdup ("?");
      lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_NOT_FOLDED,
                     "'%s': document _id %s: its '%s' is no master's key: %s", ps->o->target.dst, idt,
                     ps->o->target.key, ke.message);
      bson_free (idt);
      return false;
   }
   before = w->map.n;
   h = map_get (&w->map, id, w->key.data, (uint32_t)w->key.len, kbody);
   h->dst_rows += g->rows;
   e = &w->map.c[h->cold];
   lab_fold_hash_add (&e->dst_hash, g->hash);
   if (e->docs == 0) {
      e->parts = g->parts;
   } else if (e->parts != g->parts) {
      e->flags |= E_PARTS_MIXED;
   }
   e->docs++;
   e->part_mix += g->part_mix;
   if (g->largest > w->largest) {
      w->largest = g->largest;
   }
   if (g->oversize) {
      e->oversize += (int32_t)g->oversize;
      note_keep (&w->oversize, w->key.data, kbody, g->oversize_first);
   }
   if (g->bucket_bad[0]) {
      e->flags |= E_BUCKET_BAD;
      note_keep (&w->bucket, w->key.data, kbody, g->bucket_bad);
   }
   return w->map.n == before || grown (w, error);
}

/* on_doc -- lab_store_natural_scan's callback: collection 0 is the source, 1 the destination. */
static bool
on_doc (void *wctx, int worker, size_t coll, const bson_t *doc, bson_error_t *error)
{
   return coll == 0 ? src_doc (wctx, doc, error) : dst_doc (wctx, doc, error);
}

/* The verify test hook through lab_store_natural_scan's: documents counted over every pass and try. */
typedef struct {
   const lab_fold_verify_opts_t *o;
   int64_t taken; /* atomic */
} fault_ctx_t;

/* fault_adapter -- lab_store_natural_scan's hook calling the verify's (its own count is per scan). */
static bool
fault_adapter (void *ctx, size_t coll, int64_t nth, bson_error_t *error)
{
   fault_ctx_t *fc = ctx;

   (void)nth;
   return fc->o->fault (fc->o->fault_ctx, coll == 1, __atomic_add_fetch (&fc->taken, 1, __ATOMIC_RELAXED),
                        error);
}

/* ---- merging and accounting --------------------------------------------------------------------- */

/* map_merge -- every master of `from` added into `into`. */
static void
map_merge (map_t *into, const map_t *from)
{
   size_t i;

   for (i = 0; i < from->nslots; i++) {
      const hot_t *fh = &from->t[i];
      const cold_t *fc;
      hot_t *h;
      cold_t *c;

      if ((fh->id.lo | fh->id.hi) == 0) {
         continue;
      }
      fc = &from->c[fh->cold];
      h = map_get (into, fh->id, from->arena + fc->koff, fc->klen, fc->kbody);
      c = &into->c[h->cold];
      h->src_rows += fh->src_rows;
      h->dst_rows += fh->dst_rows;
      lab_fold_hash_add (&h->src_hash, fh->src_hash);
      lab_fold_hash_add (&c->dst_hash, fc->dst_hash);
      if (fc->docs) {
         if (c->docs == 0) {
            c->parts = fc->parts;
         } else if (c->parts != fc->parts) {
            c->flags |= E_PARTS_MIXED;
         }
      }
      c->docs += fc->docs;
      c->part_mix += fc->part_mix;
      c->oversize += fc->oversize;
      c->flags |= fc->flags;
   }
}

/* The sort of the merged masters by key: memcmp order of the bodies is MongoDB's order of the values. */
static const map_t *sort_map;

static int
entry_cmp (const void *a, const void *b)
{
   const cold_t *x = &sort_map->c[(*(const hot_t *const *)a)->cold];
   const cold_t *y = &sort_map->c[(*(const hot_t *const *)b)->cold];
   size_t n = x->kbody < y->kbody ? x->kbody : y->kbody;
   int c = memcmp (sort_map->arena + x->koff, sort_map->arena + y->koff, n);

   return c ? c : (x->kbody > y->kbody) - (x->kbody < y->kbody);
}

/* The first difference of the whole verify: the smallest differing key over every pass. */
typedef struct {
   bool have;
   int rank; /* 0: source rows without the key (they sort first), 1: a master, 2: keys of a bad type */
   lab_buf_t body;
} first_t;

/* first_take -- the pass's first difference replaces the verify's when it comes at a smaller key. */
static void
first_take (first_t *f, lab_fold_verify_result_t *res, const lab_fold_verify_result_t *pr, int rank,
            const uint8_t *body, size_t blen)
{
   size_t m = blen < f->body.len ? blen : f->body.len;
   int c;

   if (f->have) {
      c = rank != f->rank ? rank - f->rank : memcmp (body, f->body.data, m);
      if (c > 0 || (c == 0 && blen >= f->body.len)) {
         return;
      }
   }
   bson_strncpy (res->first_difference, pr->first_difference, sizeof res->first_difference);
   lab_buf_reset (&f->body);
   lab_buf_append (&f->body, body, blen);
   f->rank = rank;
   f->have = true;
}

/* result_add -- a pass's figures into the verify's. */
static void
result_add (lab_fold_verify_result_t *res, const lab_fold_verify_result_t *pr)
{
   res->src_rows += pr->src_rows;
   res->dst_rows += pr->dst_rows;
   res->src_masters += pr->src_masters;
   res->dst_masters += pr->dst_masters;
   res->dst_docs += pr->dst_docs;
   res->differing_masters += pr->differing_masters;
   res->skipped_masters += pr->skipped_masters;
   res->oversize_docs += pr->oversize_docs;
   if (pr->largest_doc_bytes > res->largest_doc_bytes) {
      res->largest_doc_bytes = pr->largest_doc_bytes;
   }
   lab_fold_hash_add (&res->src_hash, pr->src_hash);
   lab_fold_hash_add (&res->dst_hash, pr->dst_hash);
}

/* account_entry -- one master, as the ordered method accounts it when both sides' groups end. */
static bool
account_entry (const lab_fold_verify_opts_t *o, const map_t *m, const hot_t *h, const note_t *oversize,
               const note_t *bucket, group_t *gs, group_t *gd, lab_fold_verify_result_t *pr,
               bson_error_t *error)
{
   const cold_t *e = &m->c[h->cold];
   const uint8_t *enc = m->arena + e->koff;
   bson_value_t key;

   if (!lab_store_key_decode (enc, e->klen, &key, error)) {
      return false;
   }
   memset (gs, 0, sizeof *gs);
   memset (gd, 0, sizeof *gd);
   gs->key = gd->key = key;
   gs->rows = h->src_rows;
   gs->hash = h->src_hash;
   gd->rows = h->dst_rows;
   gd->hash = e->dst_hash;
   gd->docs = e->docs;
   gd->parts = e->parts;
   gd->part_mix = e->part_mix;
   gd->parts_bad = (e->flags & E_PARTS_MIXED) != 0;
   gd->oversize = e->oversize;
   if (e->oversize) {
      bson_strncpy (gd->oversize_first,
                    note_for (oversize, enc, e->kbody, "documents over the cap (see the first difference)"),
                    sizeof gd->oversize_first);
   }
   if (e->flags & E_BUCKET_BAD) {
      bson_strncpy (gd->bucket_bad, note_for (bucket, enc, e->kbody, "a document breaks a bucket rule"),
                    sizeof gd->bucket_bad);
   }
   if (e->docs) {
      lab_fold_verify_dst_finish (gd);
   }
   if (e->docs == 0) {
      lab_fold_verify_account_src_only (o, gs, pr);
   } else if (h->src_rows == 0) {
      lab_fold_verify_account_dst_only (o, gd, pr);
   } else {
      lab_fold_verify_account_both (o, gs, gd, pr);
   }
   bson_value_destroy (&key);
   return true;
}

/* pass_account -- the pass's merged map, master by master in key order, and the rows without a usable
 * key (pass 0), into the verify's result. */
static bool
pass_account (const lab_fold_verify_opts_t *o, const map_t *m, worker_t *w, int nw, int pass, first_t *first,
              lab_fold_verify_result_t *res, bson_error_t *error)
{
   lab_fold_verify_result_t pr;
   group_t *gs = bson_malloc0 (sizeof *gs), *gd = bson_malloc0 (sizeof *gd);
   const hot_t **order = bson_malloc ((m->n + 1) * sizeof *order);
   note_t *oversize = &w[0].oversize, *bucket = &w[0].bucket;
   int64_t missing = 0, bad = 0;
   lab_fold_hash_t missing_hash = { 0 }, bad_hash = { 0 };
   const char *bad_first = NULL;
   const bson_value_t *bad_key = NULL;
   bool ok = false;
   size_t i;
   int k;

   for (k = 0; k < nw; k++) {
      missing += w[k].missing_rows;
      lab_fold_hash_add (&missing_hash, w[k].missing_hash);
      bad += w[k].bad_rows;
      lab_fold_hash_add (&bad_hash, w[k].bad_hash);
      if (!bad_first && w[k].bad_rows) {
         bad_first = w[k].bad_first;
         bad_key = &w[k].bad_key;
      }
   }
   memset (&pr, 0, sizeof pr);
   for (k = 0; k < nw; k++) {
      pr.largest_doc_bytes = w[k].largest > pr.largest_doc_bytes ? w[k].largest : pr.largest_doc_bytes;
   }
   /* source rows without the key: the first "master" in key order (null sorts first), as in the merge */
   if (pass == 0 && missing) {
      memset (gs, 0, sizeof *gs);
      gs->key.value_type = BSON_TYPE_NULL;
      gs->key_missing = true;
      gs->rows = missing;
      gs->hash = missing_hash;
      lab_fold_verify_account_src_only (o, gs, &pr);
      first_take (first, res, &pr, 0, NULL, 0);
   }
   for (i = 0, k = 0; i < m->nslots; i++) {
      if (m->t[i].id.lo | m->t[i].id.hi) {
         order[k++] = &m->t[i];
      }
   }
   sort_map = m;
   qsort (order, m->n, sizeof *order, entry_cmp);
   sort_map = NULL;
   for (i = 0; i < m->n; i++) {
      const cold_t *e = &m->c[order[i]->cold];
      bool had = pr.first_difference[0] != '\0';

      if (!account_entry (o, m, order[i], oversize, bucket, gs, gd, &pr, error)) {
         goto done;
      }
      if (!had && pr.first_difference[0]) {
         first_take (first, res, &pr, 1, m->arena + e->koff, e->kbody);
      }
   }
   if (pass == 0 && bad) {
      bool had = pr.first_difference[0] != '\0';
      pr.src_masters++;
      pr.src_rows += bad;
      lab_fold_hash_add (&pr.src_hash, bad_hash);
      lab_fold_verify_differ (&pr, o->target.key, bad_key,
                              "%lld source rows have a key no fold can group (%s)", (long long)bad,
                              bad_first);
      if (!had) {
         first_take (first, res, &pr, 2, NULL, 0);
      }
   }
   result_add (res, &pr);
   ok = true;
done:
   bson_free (order);
   bson_free (gs);
   bson_free (gd);
   return ok;
}

/* ---- the passes --------------------------------------------------------------------------------- */

/* Bytes a master costs one thread's map, beside its key: 2.1 slots on average (the table is 35-70% full),
 * its cold figures and as much again while their array doubles. */
#define ENTRY_COST_BYTES (sizeof (hot_t) * 21 / 10 + 2 * sizeof (cold_t))
/* The key's bytes assumed before any is seen. */
#define KEY_GUESS_BYTES 24
/* Passes at most: each reads both collections again. */
#define MAX_PASSES 4096

/* workers_reset -- empty every thread's map and figures for a new pass. */
static void
workers_reset (worker_t *w, int nw, pass_t *ps)
{
   int k;

   for (k = 0; k < nw; k++) {
      map_free (&w[k].map);
      w[k].largest = 0;
      w[k].oversize.have = w[k].bucket.have = false;
      w[k].missing_rows = w[k].bad_rows = 0;
      memset (&w[k].missing_hash, 0, sizeof w[k].missing_hash);
      memset (&w[k].bad_hash, 0, sizeof w[k].bad_hash);
      if (w[k].bad_key.value_type != BSON_TYPE_EOD) {
         bson_value_destroy (&w[k].bad_key);
      }
      memset (&w[k].bad_key, 0, sizeof w[k].bad_key);
      w[k].ps = ps;
   }
}

static void
workers_free (worker_t *w, int nw)
{
   int k;

   if (!w) {
      return;
   }
   workers_reset (w, nw, NULL);
   for (k = 0; k < nw; k++) {
      lab_buf_destroy (&w[k].key);
      lab_buf_destroy (&w[k].oversize.body);
      lab_buf_destroy (&w[k].bucket.body);
   }
   bson_free (w);
}

/* run_pass -- both collections read once, this pass's masters into the threads' maps, merged into
 * w[0]'s (the notes too). *overflow when a map outgrew its budget (the pass is incomplete). */
static bool
run_pass (lab_store_t *store, const lab_fold_verify_opts_t *o, pass_t *ps, worker_t *w, int nw,
          lab_progress_t *p, fault_ctx_t *fc, int64_t *map_peak, bool *overflow, bson_error_t *error)
{
   const char *colls[2] = { o->target.src, o->target.dst };
   int64_t peak = 0;
   bool ok;
   int k;

   workers_reset (w, nw, ps);
   ps->overflow = 0;
   lab_store_natural_scan_t job = {
      .colls = colls,
      .ncolls = 2,
      .workers = nw,
      .batch_docs = o->batch_docs,
      .fn = on_doc,
      .wctx = w,
      .wctx_size = sizeof *w,
      .progress = p,
      .fault = o->fault ? fault_adapter : NULL,
      .fault_ctx = fc,
   };
   ok = lab_store_natural_scan (store, &job, NULL, error);
   *overflow = __atomic_load_n (&ps->overflow, __ATOMIC_RELAXED) != 0;
   for (k = 0; k < nw; k++) {
      peak += w[k].peak_bytes;
      w[k].peak_bytes = 0;
   }
   if (!ok) {
      return false;
   }
   for (k = 1; k < nw; k++) {
      map_merge (&w[0].map, &w[k].map);
      map_free (&w[k].map);
      note_merge (&w[0].oversize, &w[k].oversize);
      note_merge (&w[0].bucket, &w[k].bucket);
   }
   peak = peak > map_bytes (&w[0].map) ? peak : map_bytes (&w[0].map);
   *map_peak = peak > *map_peak ? peak : *map_peak;
   return true;
}

/* plan_passes -- passes enough for the destination's documents (about one per master) to fit the bound in
 * every thread's map. A rows-shaped destination (sorted, clustered) holds a document per row, not per
 * master, and nothing counts its masters cheaply: one pass to begin with, doubled when the maps outgrow
 * the bound (planned by its rows, 55 M of them, the full-size copies' verify read both collections 25
 * times over). */
static int
plan_passes (lab_store_session_t *sess, const lab_fold_verify_opts_t *o, int nw, uint64_t memory,
             bson_error_t *error, int64_t *src_docs, int64_t *dst_docs)
{
   double need;

   if (!lab_store_count_estimated (sess, o->target.src, src_docs, error) ||
       !lab_store_count_estimated (sess, o->target.dst, dst_docs, error)) {
      return 0;
   }
   if (lab_fold_shape_rows (o->target.shape)) {
      return 1;
   }
   need = (double)*dst_docs * (double)(ENTRY_COST_BYTES + KEY_GUESS_BYTES) * nw;
   return need <= (double)memory                ? 1
          : need / (double)memory >= MAX_PASSES ? MAX_PASSES
                                                : (int)(need / (double)memory) + 1;
}

/* lab_fold_verify_multiset -- see verify.h: the passes, each read of both collections retried from the pass's
 * beginning after a transient error, the passes doubled when the maps outgrow the bound. */
bool
lab_fold_verify_multiset (lab_store_t *store, const lab_fold_verify_opts_t *o, lab_fold_verify_result_t *res,
                          bson_error_t *error)
{
   uint64_t memory = o->memory_bytes ? o->memory_bytes : LAB_VERIFY_MEMORY_DEFAULT;
   int nw = o->workers > 0 ? o->workers : 2;
   int64_t src_docs = 0, dst_docs = 0, map_peak = 0;
   uint64_t t0 = lab_now_ns ();
   lab_store_session_t *sess = NULL;
   lab_progress_t *p = NULL;
   worker_t *w = NULL;
   first_t first = { 0 };
   pass_t ps = { 0 };
   fault_ctx_t fc = { o, 0 };
   char *bfield = NULL, where[64];
   bool ok = false, overflow;
   int failures = 0;

   memset (res, 0, sizeof *res);
   lab_buf_init (&first.body);
   if (o->target.bucket_by && !lab_fold_bucket_spec_parse (o->target.bucket_by, &bfield, &ps.bunit, error)) {
      goto done;
   }
   sess = lab_store_session_open (store, error);
   if (!sess || !lab_fold_verify_check (store, sess, o, &ps.max, error)) {
      goto done;
   }
   ps.passes = plan_passes (sess, o, nw, memory, error, &src_docs, &dst_docs);
   lab_store_session_close (sess);
   sess = NULL;
   if (ps.passes < 1) {
      goto done;
   }
   ps.o = o;
   ps.bfield = bfield;
   ps.budget_bytes = (int64_t)(memory / (uint64_t)nw);
   w = bson_malloc0 ((size_t)nw * sizeof *w);
   for (int k = 0; k < nw; k++) {
      lab_buf_init (&w[k].key);
      lab_buf_init (&w[k].oversize.body);
      lab_buf_init (&w[k].bucket.body);
   }
   p =
      lab_progress_new (o->progress, "verifying", "documents", (uint64_t)((src_docs + dst_docs) * ps.passes));
   for (ps.pass = 0; ps.pass < ps.passes;) {
      if (run_pass (store, o, &ps, w, nw, p, &fc, &map_peak, &overflow, error)) {
         if (!pass_account (o, &w[0].map, w, nw, ps.pass, &first, res, error)) {
            goto done;
         }
         ps.pass++;
         continue;
      }
      if (overflow && ps.passes >= MAX_PASSES) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--verify-memory %.1f MiB cannot hold the masters even in %d passes: give it more",
                        (double)memory / 1048576.0, ps.passes);
         goto done;
      }
      if (overflow) {
         /* the estimate was short: start over with twice the passes (the passes done are redone) */
         lab_log_info ("verify: the masters of pass %d of %d outgrew the memory bound of %.0f MiB; starting "
                       "again in %d passes",
                       ps.pass + 1, ps.passes, (double)memory / 1048576.0, ps.passes * 2);
         ps.passes *= 2;
         ps.pass = 0;
         memset (res, 0, sizeof *res);
         first.have = false;
         lab_progress_done (p);
         p = lab_progress_new (o->progress, "verifying", "documents",
                               (uint64_t)((src_docs + dst_docs) * ps.passes));
         continue;
      }
      bson_snprintf (where, sizeof where, "pass %d of %d from its start", ps.pass + 1, ps.passes);
      if (!lab_fold_verify_retry_wait (o, failures, where, error, res)) {
         goto done;
      }
      failures++;
   }
   if (failures > 0) {
      lab_log_info ("verify: finished after %d retr%s", failures, failures == 1 ? "y" : "ies");
   }
   res->equal = res->differing_masters == 0 && res->oversize_docs == 0;
   ok = true;
done:
   res->retries = failures;
   res->passes = ps.passes;
   res->workers = nw;
   res->map_bytes = map_peak;
   lab_progress_done (p);
   lab_store_session_close (sess);
   workers_free (w, nw);
   lab_buf_destroy (&first.body);
   bson_free (bfield);
   res->elapsed_s = (double)(lab_now_ns () - t0) / 1e9;
   return ok;
}
