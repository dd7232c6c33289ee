/*
 * wt_fetch.c -- a sorted stream's records fetched ahead in RecordId order (lab_store_sorted_opts_t's
 * fetch_ahead_rows). The walk of an index fetches each record by its RecordId; when the rows of a key are
 * scattered (the seed's interleaved bills: 106 data pages per master), each fetch descends the collection's
 * tree to a different leaf. Here a window of index entries is read first, its records fetched in RecordId
 * order -- consecutive fetches land on the leaf the cursor already holds, which WiredTiger searches without
 * a descent -- copied aside, and handed out in the index's order: the stream gives the same documents in
 * the same order, only sooner. Memory: one window, at most LAB_WT_FETCH_BYTES of documents (the window
 * shrinks to fit the documents' mean size) or fetch_ahead_rows rows.
 */
#include "wt_private.h"

#include "core/error.h"

#include <string.h>

/* The bytes of documents one window holds at most (its row count adapts to the mean size seen). */
#define LAB_WT_FETCH_BYTES (64 * 1024 * 1024)
/* The first window's rows (before any size is known) and the fewest a window takes. */
#define LAB_WT_FETCH_FIRST_ROWS 1024
#define LAB_WT_FETCH_MIN_ROWS 64

/* fetch_ent_t -- one index entry of the window, in index order: its RecordId and where its document went. */
typedef struct {
   int64_t rid;
   bool found; /* false: the record was removed after its index entry was read */
   size_t off; /* its bytes in the window's buffer */
   size_t len;
} fetch_ent_t;

struct lab_wt_fetch {
   int32_t max_rows; /* the window's cap in rows */
   int32_t target;   /* this window's rows (adapts to the documents' size) */
   fetch_ent_t *ents;
   uint64_t *keys, *tmp; /* the fetch order: (RecordId - the window's least) << pos_bits | place in ents */
   size_t n, cap, next;
   lab_buf_t bytes;
};

/* lab_wt_fetch_new -- a read-ahead of windows of up to max_rows entries (caller destroys). */
lab_wt_fetch_t *
lab_wt_fetch_new (int32_t max_rows)
{
   lab_wt_fetch_t *f = bson_malloc0 (sizeof *f);

   f->max_rows = max_rows;
   f->target = BSON_MIN (max_rows, LAB_WT_FETCH_FIRST_ROWS);
   lab_buf_init (&f->bytes);
   return f;
}

/* lab_wt_fetch_destroy -- free the read-ahead and its window. */
void
lab_wt_fetch_destroy (lab_wt_fetch_t *f)
{
   if (!f) {
      return;
   }
   bson_free (f->ents);
   bson_free (f->keys);
   bson_free (f->tmp);
   lab_buf_destroy (&f->bytes);
   bson_free (f);
}

/* lab_wt_fetch_reset -- an empty window (its memory kept). */
void
lab_wt_fetch_reset (lab_wt_fetch_t *f)
{
   f->n = f->next = 0;
   lab_buf_reset (&f->bytes);
}

/* lab_wt_fetch_add -- the next index entry's RecordId into the window; false once the window is full
 * (the entry is then taken all the same: the caller fetches). */
bool
lab_wt_fetch_add (lab_wt_fetch_t *f, int64_t rid)
{
   if (f->n == f->cap) {
      f->cap = f->cap ? f->cap * 2 : (size_t)f->target;
      f->ents = bson_realloc (f->ents, f->cap * sizeof *f->ents);
      f->keys = bson_realloc (f->keys, f->cap * sizeof *f->keys);
      f->tmp = bson_realloc (f->tmp, f->cap * sizeof *f->tmp);
   }
   f->ents[f->n].rid = rid;
   f->n++;
   return f->n < (size_t)f->target;
}

/* bit_len -- the bits v needs (0 for 0). */
static int
bit_len (uint64_t v)
{
   return v ? 64 - __builtin_clzll (v) : 0;
}

/* rid_order -- f->keys: the window's places in RecordId order (ties cannot happen: an index holds a record
 * once per key), by a least-significant-digit radix sort of (RecordId - least) << pos_bits | place over
 * the bits they use; false (keys in index order) when the window is in RecordId order already or its
 * RecordIds span too much to pack beside the places. The index's order is the RecordIds' order within a
 * key, so a window is a few thousand ascending runs: a comparison sort spent more than the fetches it
 * saved. */
static bool
rid_order (lab_wt_fetch_t *f)
{
   enum { DIGIT = 11, BUCKETS = 1 << DIGIT };
   int64_t lo = INT64_MAX, hi = INT64_MIN;
   bool sorted = true;
   int pos_bits = bit_len (f->n), bits, shift;
   size_t i, count[BUCKETS];
   uint64_t *src = f->keys, *dst = f->tmp, *t;

   for (i = 0; i < f->n; i++) {
      lo = BSON_MIN (lo, f->ents[i].rid);
      hi = BSON_MAX (hi, f->ents[i].rid);
      sorted = sorted && (i == 0 || f->ents[i].rid > f->ents[i - 1].rid);
   }
   bits = pos_bits + bit_len ((uint64_t)hi - (uint64_t)lo);
   for (i = 0; i < f->n; i++) {
      f->keys[i] = i;
   }
   if (sorted || bits > 64) {
      return false;
   }
   for (i = 0; i < f->n; i++) {
      f->keys[i] = ((uint64_t)(f->ents[i].rid - lo) << pos_bits) | i;
   }
   for (shift = 0; shift < bits; shift += DIGIT) {
      size_t sum = 0, c;

      memset (count, 0, sizeof count);
      for (i = 0; i < f->n; i++) {
         count[(src[i] >> shift) & (BUCKETS - 1)]++;
      }
      for (i = 0; i < BUCKETS; i++) {
         c = count[i];
         count[i] = sum;
         sum += c;
      }
      for (i = 0; i < f->n; i++) {
         dst[count[(src[i] >> shift) & (BUCKETS - 1)]++] = src[i];
      }
      t = src;
      src = dst;
      dst = t;
   }
   if (src != f->keys) {
      memcpy (f->keys, src, f->n * sizeof *f->keys);
   }
   for (i = 0; i < f->n; i++) {
      f->keys[i] &= ((uint64_t)1 << pos_bits) - 1;
   }
   return true;
}

/* lab_wt_fetch_run -- the window's records fetched through the collection cursor cc in RecordId order and
 * copied aside, each in its place of the index's order; the next window's size from their mean size.
 * A record removed since its entry was read is skipped, as the one-at-a-time fetch skips it. */
bool
lab_wt_fetch_run (lab_wt_fetch_t *f, wt_store_t *st, WT_CURSOR *cc, const char *coll, bson_error_t *error)
{
   WT_ITEM v;
   size_t i;
   int ret;

   rid_order (f);
   for (i = 0; i < f->n; i++) {
      fetch_ent_t *e = &f->ents[f->keys[i]];

      cc->set_key (cc, e->rid);
      ret = cc->search (cc);
      e->found = ret == 0;
      if (ret == WT_NOTFOUND) {
         continue;
      }
      if (ret != 0 || (ret = lab_wt_doc_value (st, cc, &v)) != 0) {
         return lab_wt_fail (error, ret, "fetch record %" PRId64 " of '%s'", e->rid, coll);
      }
      e->off = f->bytes.len;
      e->len = v.size;
      lab_buf_append (&f->bytes, v.data, v.size);
   }
   if (f->n > 0 && f->bytes.len > 0) {
      size_t mean = f->bytes.len / f->n + 1;
      size_t rows = LAB_WT_FETCH_BYTES / mean;

      f->target = (int32_t)BSON_MAX (BSON_MIN (rows, (size_t)f->max_rows),
                                     (size_t)BSON_MIN (f->max_rows, LAB_WT_FETCH_MIN_ROWS));
   }
   f->next = 0;
   return true;
}

/* lab_wt_fetch_pop -- the window's next document in index order (*data, *len: valid until the next reset)
 * and its RecordId; false when the window is handed out. */
bool
lab_wt_fetch_pop (lab_wt_fetch_t *f, const uint8_t **data, size_t *len, int64_t *rid)
{
   while (f->next < f->n) {
      const fetch_ent_t *e = &f->ents[f->next++];

      if (f->next + 4 < f->n && f->ents[f->next + 4].found) {
         /* the window is larger than the CPU's caches and its documents lie in RecordId order: ask for the
          * ends of the one handed out four calls from now (bson_init_static reads both) */
         const fetch_ent_t *p = &f->ents[f->next + 4];

         __builtin_prefetch (f->bytes.data + p->off);
         __builtin_prefetch (f->bytes.data + p->off + p->len - 1);
      }

      if (e->found) {
         *data = f->bytes.data + e->off;
         *len = e->len;
         *rid = e->rid;
         return true;
      }
   }
   return false;
}
