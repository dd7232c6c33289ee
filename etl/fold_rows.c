/*
 * fold_rows.c -- unfolding a folded document back into its rows, the rows' order-independent hashes, and the
 * hoist sampler (fold.h); the fold itself is fold.c
 */
#include "fold.h"
#include "fold_private.h"

#include "core/error.h"
#include "store/keyenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

/* ---- unfolding ---------------------------------------------------------------------------------- */

typedef struct hoisted_s hoisted_t;
static hoisted_t *hoisted_fields (const bson_t *doc, const range_t *hs, size_t nh);
static lab_fold_hash_t unfold_hash (const uint8_t *edata, uint32_t elen, const hoisted_t *hf, size_t nh);

/* unfold -- lab_fold_unfold, or with `acc` lab_fold_unfold_hash (each row hashed, never built). */
static bool
unfold (const bson_t *doc, const char *key, const char *array_field, lab_fold_row_cb_t cb, void *ctx,
        lab_fold_hash_t *acc, lab_fold_doc_info_t *info, bson_error_t *error)
{
   bson_iter_t it, ait, eit, hit;
   range_t hoisted[64]; /* offset and key length of each hoisted field in doc */
   range_t *hs = hoisted;
   size_t nh = 0, hcap = 64, i;
   bool have_key = false, have_arr = false, have_rc = false, have_part = false, have_parts = false;
   lab_fold_doc_info_t di;
   int32_t n = 0;
   bson_t elem;
   const uint8_t *data;
   uint32_t len;
   char *idt = NULL;
   bool ok = false;
   hoisted_t *hf = NULL; /* the hoisted fields, prepared for hashing (acc) */
   const char *name;

   memset (&di, 0, sizeof di);
   BSON_ASSERT (bson_iter_init (&it, doc));
   while (bson_iter_next (&it)) {
      name = bson_iter_key (&it);
      if (strcmp (name, "_id") == 0) {
         continue;
      } else if (strcmp (name, LAB_FOLD_ROW_COUNT) == 0 && BSON_ITER_HOLDS_INT32 (&it)) {
         di.row_count = bson_iter_int32 (&it);
         have_rc = true;
      } else if (strcmp (name, LAB_FOLD_PART) == 0 && BSON_ITER_HOLDS_INT32 (&it)) {
         di.part = bson_iter_int32 (&it);
         have_part = true;
      } else if (strcmp (name, LAB_FOLD_PARTS) == 0 && BSON_ITER_HOLDS_INT32 (&it)) {
         di.parts = bson_iter_int32 (&it);
         have_parts = true;
      } else if (strcmp (name, LAB_FOLD_BUCKET_START) == 0 && BSON_ITER_HOLDS_DATE_TIME (&it)) {
         di.has_bucket_start = true;
         di.bucket_start_ms = bson_iter_date_time (&it);
      } else if (strcmp (name, array_field) == 0 && BSON_ITER_HOLDS_ARRAY (&it)) {
         ait = it;
         have_arr = true;
      } else {
         if (strcmp (name, key) == 0) {
            di.key = *bson_iter_value (&it);
            have_key = true;
         }
         if (nh == hcap) {
            hcap *= 2;
            if (hs == hoisted) {
               hs = bson_malloc (hcap * sizeof *hs);
               memcpy (hs, hoisted, sizeof hoisted);
            } else {
               hs = bson_realloc (hs, hcap * sizeof *hs);
            }
         }
         hs[nh].off = it.off;
         hs[nh].len = bson_iter_key_len (&it);
         nh++;
      }
   }
   if (!have_key || !have_arr || !have_rc || !have_part || !have_parts || di.parts < 1 || di.part < 0 ||
       di.part >= di.parts) {
      idt = lab_fold_row_id_text (doc);
      lab_error_set (
         error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_NOT_FOLDED,
         "document %s is not a folded document: it needs '%s', an array '%s', and int32 row_count, "
         "part and parts with 0 <= part < parts",
         idt, key, array_field);
      goto done;
   }
   bson_iter_array (&ait, &len, &data);
   if (!bson_iter_init_from_data (&eit, data, len)) {
      idt = lab_fold_row_id_text (doc);
      lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_CORRUPT, "document %s: array '%s' is corrupt",
                     idt, array_field);
      goto done;
   }
   while (bson_iter_next (&eit)) {
      bson_t row;
      const uint8_t *edata;
      uint32_t elen;

      if (!BSON_ITER_HOLDS_DOCUMENT (&eit)) {
         idt = lab_fold_row_id_text (doc);
         lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_CORRUPT,
                        "document %s: element %s of '%s' is not a document", idt, bson_iter_key (&eit),
                        array_field);
         goto done;
      }
      bson_iter_document (&eit, &elen, &edata);
      if (acc) {
         if (!hf) {
            hf = hoisted_fields (doc, hs, nh);
         }
         lab_fold_hash_add (acc, unfold_hash (edata, elen, hf, nh));
         n++;
         continue;
      }
      BSON_ASSERT (bson_init_static (&elem, edata, elen));
      bson_copy_to (&elem, &row);
      for (i = 0; i < nh; i++) {
         bson_iter_init_from_data_at_offset (&hit, bson_get_data (doc), doc->len, hs[i].off, hs[i].len);
         if (!bson_has_field (&elem, bson_iter_key (&hit))) {
            bson_append_iter (&row, NULL, 0, &hit);
         }
      }
      ok = cb ? cb (ctx, &row, error) : true;
      bson_destroy (&row);
      if (!ok) {
         goto done;
      }
      n++;
   }
   if (n != di.row_count) {
      idt = lab_fold_row_id_text (doc);
      lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_ROW_COUNT,
                     "document %s: row_count says %d but '%s' holds %d rows", idt, di.row_count, array_field,
                     n);
      ok = false;
      goto done;
   }
   if (info) {
      *info = di;
   }
   ok = true;
done:
   bson_free (hf);
   if (hs != hoisted) {
      bson_free (hs);
   }
   bson_free (idt);
   return ok;
}

/* lab_fold_unfold -- see fold.h. */
bool
lab_fold_unfold (const bson_t *doc, const char *key, const char *array_field, lab_fold_row_cb_t cb, void *ctx,
                 lab_fold_doc_info_t *info, bson_error_t *error)
{
   return unfold (doc, key, array_field, cb, ctx, NULL, info, error);
}

/* lab_fold_unfold_hash -- see fold.h. */
bool
lab_fold_unfold_hash (const bson_t *doc, const char *key, const char *array_field, lab_fold_hash_t *acc,
                      lab_fold_doc_info_t *info, bson_error_t *error)
{
   return unfold (doc, key, array_field, NULL, NULL, acc, info, error);
}

/* ---- row hashes --------------------------------------------------------------------------------- */

/* A row's hash is the digest of the set of its fields. Each field alone: F = XXH3-128 of its element's
 * bytes (type byte, name, NUL, value) as they lie in the row -- no copy, no sort; a document or array value
 * enters through its own digest, the same way down. The F of every field are summed (each half mod 2^64),
 * so the fields' order does not matter, and the sum is mixed by a seeded XXH3-128 into the digest, so that
 * a row's digest cannot be rebuilt from other rows' fields: a value moved from one row to another changes
 * both rows, where a plain sum over every field of every row would not see it. An array is a document
 * whose names are the positions: its order matters. The type byte is hashed, so an int32 3 is not a
 * double 3.0. A verify hashes every row on both sides: this is its inner loop. */

#define DIGEST_SEED 0x6c61796f75746c61ull  /* "layoutla" */
#define CORRUPT_SEED 0x636f727275707421ull /* "corrupt!": bytes that do not walk as BSON */

/* sum_add -- acc += XXH3-128 of p[0..n). */
static inline void
sum_add (lab_fold_hash_t *acc, const void *p, size_t n)
{
   XXH128_hash_t h = XXH3_128bits (p, n);

   acc->lo += h.low64;
   acc->hi += h.high64;
}

/* digest_of -- the mix of a sum of fields. */
static inline lab_fold_hash_t
digest_of (lab_fold_hash_t sum)
{
   uint64_t b[2] = { sum.lo, sum.hi };
   XXH128_hash_t h = XXH3_128bits_withSeed (b, sizeof b, DIGEST_SEED);
   lab_fold_hash_t r = { h.low64, h.high64 };

   return r;
}

/* One element of a document: offsets into its bytes (type byte, name, value, the next element). */
typedef struct {
   uint32_t off, key, val, next;
   uint8_t type;
} elem_t;

/* cstring_end -- the offset just past the NUL of the string at p[o..end), or 0 when it has none. A byte
 * loop, not memchr: the strings are field names, a few bytes long, and a call into libc's vector memchr
 * per field cost 13% of the row hash (perf of --verify, issue 27; 160 -> 139 ns a row measured alone). */
static inline uint32_t
cstring_end (const uint8_t *p, uint32_t o, uint32_t end)
{
   for (; o < end; o++) {
      if (p[o] == 0) {
         return o + 1;
      }
   }
   return 0;
}

/* le32 -- a little-endian int32 at p[o]. */
static inline int32_t
le32 (const uint8_t *p, uint32_t o)
{
   uint32_t v;

   memcpy (&v, p + o, 4);
   return (int32_t)BSON_UINT32_FROM_LE (v);
}

/* elem_next -- the element at e->next of the document p[0..len) into *e: 1, 0 at the document's end, -1
 * when the bytes are not BSON there (every length checked against the document's: the rows come from a
 * store that only checked their length prefix). libbson's iterator does this with more checks than a
 * hash needs (UTF-8, ...): this is the inner loop of a verify. */
static int
elem_next (const uint8_t *p, uint32_t len, elem_t *e)
{
   uint32_t o = e->next, end = len - 1, v, n;
   int32_t l;

   if (o >= end) {
      return o == end && p[end] == 0 ? 0 : -1;
   }
   e->off = o;
   e->type = p[o];
   e->key = o + 1;
   if (!(v = cstring_end (p, o + 1, end))) {
      return -1;
   }
   e->val = v;
   switch (e->type) {
   case BSON_TYPE_DOUBLE:
   case BSON_TYPE_DATE_TIME:
   case BSON_TYPE_TIMESTAMP:
   case BSON_TYPE_INT64:
      n = 8;
      break;
   case BSON_TYPE_INT32:
      n = 4;
      break;
   case BSON_TYPE_OID:
      n = 12;
      break;
   case BSON_TYPE_BOOL:
      n = 1;
      break;
   case BSON_TYPE_DECIMAL128:
      n = 16;
      break;
   case BSON_TYPE_UNDEFINED:
   case BSON_TYPE_NULL:
   case BSON_TYPE_MAXKEY:
   case BSON_TYPE_MINKEY:
      n = 0;
      break;
   case BSON_TYPE_UTF8:
   case BSON_TYPE_CODE:
   case BSON_TYPE_SYMBOL:
   case BSON_TYPE_DBPOINTER:
      if (v + 4 > end || (l = le32 (p, v)) < 1) {
         return -1;
      }
      n = 4 + (uint32_t)l + (e->type == BSON_TYPE_DBPOINTER ? 12 : 0);
      break;
   case BSON_TYPE_DOCUMENT:
   case BSON_TYPE_ARRAY:
   case BSON_TYPE_CODEWSCOPE:
      if (v + 4 > end || (l = le32 (p, v)) < 5) {
         return -1;
      }
      n = (uint32_t)l;
      break;
   case BSON_TYPE_BINARY:
      if (v + 4 > end || (l = le32 (p, v)) < 0) {
         return -1;
      }
      n = 5 + (uint32_t)l;
      break;
   case BSON_TYPE_REGEX:
      if (!(n = cstring_end (p, v, end)) || !(n = cstring_end (p, n, end))) {
         return -1;
      }
      n -= v;
      break;
   default:
      return -1;
   }
   if (n > end - v) {
      return -1;
   }
   e->next = v + n;
   return 1;
}

static lab_fold_hash_t doc_digest (const uint8_t *raw, uint32_t len);

/* field_hash -- F of element e of raw: its bytes, or for a document or array its type, name and NUL
 * seeding the hash of its digest. */
static inline lab_fold_hash_t
field_hash (const uint8_t *raw, const elem_t *e)
{
   lab_fold_hash_t r = { 0, 0 };

   if (e->type == BSON_TYPE_DOCUMENT || e->type == BSON_TYPE_ARRAY) {
      lab_fold_hash_t sub = doc_digest (raw + e->val, e->next - e->val);
      uint64_t b[2] = { sub.lo, sub.hi };
      XXH128_hash_t h = XXH3_128bits_withSeed (b, sizeof b, XXH3_64bits (raw + e->off, e->val - e->off));

      r.lo = h.low64;
      r.hi = h.high64;
   } else {
      sum_add (&r, raw + e->off, e->next - e->off);
   }
   return r;
}

/* corrupt_digest -- bytes that do not walk as BSON: hashed whole, never silently dropped. */
static lab_fold_hash_t
corrupt_digest (const uint8_t *raw, uint32_t len)
{
   XXH128_hash_t h = XXH3_128bits_withSeed (raw, len, CORRUPT_SEED);
   lab_fold_hash_t r = { h.low64, h.high64 };

   return digest_of (r);
}

/* doc_digest -- the digest of the document raw[0..len) (a row, or a value inside one). */
static lab_fold_hash_t
doc_digest (const uint8_t *raw, uint32_t len)
{
   lab_fold_hash_t sum = { 0, 0 };
   elem_t e = { .next = 4 };
   int rc;

   if (len < 5 || (uint32_t)le32 (raw, 0) != len) {
      return corrupt_digest (raw, len);
   }
   while ((rc = elem_next (raw, len, &e)) == 1) {
      lab_fold_hash_add (&sum, field_hash (raw, &e));
   }
   return rc == 0 ? digest_of (sum) : corrupt_digest (raw, len);
}

/* lab_fold_row_hash -- the digest of the row's fields. */
lab_fold_hash_t
lab_fold_row_hash (const bson_t *row)
{
   return doc_digest (bson_get_data (row), row->len);
}

/* One hoisted field of a folded document, ready for hashing: its name and its F. */
struct hoisted_s {
   const char *key;
   uint32_t klen;
   lab_fold_hash_t f;
};

/* hoisted_fields -- each hoisted field of doc (hs[0..nh)) with its F, computed once per document. */
static hoisted_t *
hoisted_fields (const bson_t *doc, const range_t *hs, size_t nh)
{
   hoisted_t *hf = bson_malloc0 ((nh ? nh : 1) * sizeof *hf);
   const uint8_t *raw = bson_get_data (doc);

   for (size_t i = 0; i < nh; i++) {
      elem_t e = { .next = hs[i].off };
      /* the document was walked by libbson already: its elements walk */
      BSON_ASSERT (elem_next (raw, doc->len, &e) == 1);
      hf[i].key = (const char *)raw + hs[i].off + 1;
      hf[i].klen = hs[i].len;
      hf[i].f = field_hash (raw, &e);
   }
   return hf;
}

/* unfold_hash -- lab_fold_row_hash of the row lab_fold_unfold would build from element `elem` of a document
 * and the document's hoisted fields hf[0..nh) (those the element lacks join its own), without building
 * it: the element's fields' sum, plus every hoisted field's F but those whose name the element has. */
static lab_fold_hash_t
unfold_hash (const uint8_t *edata, uint32_t elen, const hoisted_t *hf, size_t nh)
{
   lab_fold_hash_t sum = { 0, 0 };
   uint64_t seen = 0; /* bit i: the element has hoisted field i (the first 64; past them, looked up) */
   uint64_t lens = 0; /* bit n % 64: a hoisted name is n bytes long */
   elem_t e = { .next = 4 };
   bson_iter_t e2;
   size_t i;
   int rc;

   if (elen < 5 || (uint32_t)le32 (edata, 0) != elen) {
      return corrupt_digest (edata, elen); /* as lab_fold_row_hash would hash it */
   }
   for (i = 0; i < nh && i < 64; i++) {
      lens |= 1ull << (hf[i].klen & 63);
   }
   while ((rc = elem_next (edata, elen, &e)) == 1) {
      /* the name ends where the value starts (its NUL between them) */
      uint32_t klen = e.val - e.key - 1;

      lab_fold_hash_add (&sum, field_hash (edata, &e));
      if (!(lens >> (klen & 63) & 1)) {
         continue; /* no hoisted name is this long */
      }
      for (i = 0; i < nh && i < 64; i++) {
         if (hf[i].klen == klen && memcmp (hf[i].key, edata + e.key, klen) == 0) {
            seen |= 1ull << i;
            break;
         }
      }
   }
   if (rc != 0) {
      return corrupt_digest (edata, elen);
   }
   for (i = 0; i < nh; i++) {
      bool has = i < 64 ? ((seen >> i) & 1) != 0
                        : bson_iter_init_from_data (&e2, edata, elen) &&
                             bson_iter_find_w_len (&e2, hf[i].key, (int)hf[i].klen);
      if (!has) {
         lab_fold_hash_add (&sum, hf[i].f);
      }
   }
   return digest_of (sum);
}

void
lab_fold_hash_add (lab_fold_hash_t *acc, lab_fold_hash_t h)
{
   acc->lo += h.lo;
   acc->hi += h.hi;
}

/* ---- hoist sampler ------------------------------------------------------------------------------ */

typedef struct {
   char *name;
   bool alive;
} cand_t;

struct lab_fold_hoist_sampler {
   char *key;
   char *array_field;
   int64_t max_masters;
   int64_t masters;
   bool multi_seen; /* some master had two rows or more */
   bool started;
   bool full;
   cand_t *cands;
   size_t ncands;
   bson_t *first; /* first row of the current master */
   size_t cur_rows;
};

lab_fold_hoist_sampler_t *
lab_fold_hoist_sampler_new (const char *key, const char *array_field, int64_t max_masters)
{
   lab_fold_hoist_sampler_t *s = bson_malloc0 (sizeof *s);

   s->key = bson_strdup (key);
   s->array_field = bson_strdup (array_field);
   s->max_masters = max_masters > 0 ? max_masters : 1;
   return s;
}

/* lab_fold_hoist_sampler_push -- candidates die when a row lacks them or a master disagrees on them. */
bool
lab_fold_hoist_sampler_push (lab_fold_hoist_sampler_t *s, const bson_t *row)
{
   bson_iter_t it, fi, ki;
   size_t i;
   const char *name;
   bool new_master;

   if (s->full) {
      return false;
   }
   if (!bson_iter_init_find (&ki, row, s->key)) {
      return true;
   }
   if (!s->started) {
      BSON_ASSERT (bson_iter_init (&it, row));
      while (bson_iter_next (&it)) {
         name = bson_iter_key (&it);
         if (!lab_fold_name_plain (name) || strcmp (name, s->key) == 0 ||
             lab_fold_name_reserved (name, s->array_field)) {
            continue;
         }
         s->cands = bson_realloc (s->cands, (s->ncands + 1) * sizeof *s->cands);
         s->cands[s->ncands].name = bson_strdup (name);
         s->cands[s->ncands].alive = true;
         s->ncands++;
      }
      s->started = true;
   }
   new_master = true;
   if (s->first) {
      BSON_ASSERT (bson_iter_init_find (&fi, s->first, s->key));
      new_master = lab_store_value_compare (bson_iter_value (&ki), bson_iter_value (&fi)) != 0;
   }
   if (new_master) {
      if (s->masters == s->max_masters) {
         s->full = true;
         return false;
      }
      s->masters++;
      bson_destroy (s->first);
      s->first = bson_copy (row);
      s->cur_rows = 0;
   }
   s->cur_rows++;
   if (s->cur_rows == 2) {
      s->multi_seen = true;
   }
   for (i = 0; i < s->ncands; i++) {
      if (!s->cands[i].alive) {
         continue;
      }
      if (!bson_iter_init_find (&it, row, s->cands[i].name)) {
         s->cands[i].alive = false;
         continue;
      }
      if (!new_master) {
         BSON_ASSERT (bson_iter_init_find (&fi, s->first, s->cands[i].name));
         if (it.next_off - it.off != fi.next_off - fi.off ||
             memcmp (it.raw + it.off, fi.raw + fi.off, it.next_off - it.off) != 0) {
            s->cands[i].alive = false;
         }
      }
   }
   return true;
}

void
lab_fold_hoist_sampler_result (lab_fold_hoist_sampler_t *s, char ***fields, size_t *nfields,
                               int64_t *nmasters)
{
   size_t i, n = 0;

   *fields = bson_malloc0 ((s->ncands + 1) * sizeof (char *));
   for (i = 0; s->multi_seen && i < s->ncands; i++) {
      if (s->cands[i].alive) {
         (*fields)[n++] = bson_strdup (s->cands[i].name);
      }
   }
   if (nfields) {
      *nfields = n;
   }
   if (nmasters) {
      *nmasters = s->masters;
   }
}

void
lab_fold_hoist_sampler_destroy (lab_fold_hoist_sampler_t *s)
{
   size_t i;

   if (!s) {
      return;
   }
   for (i = 0; i < s->ncands; i++) {
      bson_free (s->cands[i].name);
   }
   bson_free (s->cands);
   bson_destroy (s->first);
   bson_free (s->key);
   bson_free (s->array_field);
   bson_free (s);
}
