/*
 * rowhash.c -- the canonical, order-independent digest of a row's fields (rowhash.h): what fold-details
 * --verify compares the detail and folded collections by, and what scancmp's digests sum over every row a
 * layout returned. Pure: no allocation but a folded document's hoisted fields.
 */
#include "core/rowhash.h"

#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

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
sum_add (lab_rowhash_t *acc, const void *p, size_t n)
{
   XXH128_hash_t h = XXH3_128bits (p, n);

   acc->lo += h.low64;
   acc->hi += h.high64;
}

/* digest_of -- the mix of a sum of fields. */
static inline lab_rowhash_t
digest_of (lab_rowhash_t sum)
{
   uint64_t b[2] = { sum.lo, sum.hi };
   XXH128_hash_t h = XXH3_128bits_withSeed (b, sizeof b, DIGEST_SEED);
   lab_rowhash_t r = { h.low64, h.high64 };

   return r;
}

/* One element of a document: offsets into its bytes (type byte, name, value, the next element). */
typedef struct {
   uint32_t off, key, val, next;
   uint8_t type;
} elem_t;

/* cstring_end -- the offset just past the NUL of the string at p[o..end), or 0 when it has none. Not
 * memchr: the strings are field names, a few bytes long, and a call into libc's vector memchr per field
 * cost 13% of the row hash (perf of --verify: 160 -> 139 ns a row measured alone). Eight bytes at a time
 * (the classic "has a zero byte" test; its lowest flagged byte is the first NUL, on a little-endian
 * machine): a byte loop's exit, at a different count for every name, was a mispredicted branch per field. */
static inline uint32_t
cstring_end (const uint8_t *p, uint32_t o, uint32_t end)
{
#if BSON_BYTE_ORDER == BSON_LITTLE_ENDIAN
   for (; end - o >= 8 && o < end; o += 8) {
      uint64_t w, z;

      memcpy (&w, p + o, 8);
      z = (w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull;
      if (z) {
         return o + (uint32_t)(__builtin_ctzll (z) >> 3) + 1;
      }
   }
#endif
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
 * hash needs (UTF-8, ...): this is the inner loop of a verify. Always inlined (as field_hash): gcc kept
 * both out of line, a call per field each with the element passed through memory, ~20% of a row's hash
 * (bench_rowhash: 245 -> 195 CPU ns a detail row). */
static inline __attribute__ ((always_inline)) int
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

static lab_rowhash_t doc_digest (const uint8_t *raw, uint32_t len);

/* field_hash -- F of element e of raw: its bytes, or for a document or array its type, name and NUL
 * seeding the hash of its digest. */
static inline __attribute__ ((always_inline)) lab_rowhash_t
field_hash (const uint8_t *raw, const elem_t *e)
{
   lab_rowhash_t r = { 0, 0 };

   if (e->type == BSON_TYPE_DOCUMENT || e->type == BSON_TYPE_ARRAY) {
      lab_rowhash_t sub = doc_digest (raw + e->val, e->next - e->val);
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
static lab_rowhash_t
corrupt_digest (const uint8_t *raw, uint32_t len)
{
   XXH128_hash_t h = XXH3_128bits_withSeed (raw, len, CORRUPT_SEED);
   lab_rowhash_t r = { h.low64, h.high64 };

   return digest_of (r);
}

/* doc_digest -- the digest of the document raw[0..len) (a row, or a value inside one). */
static lab_rowhash_t
doc_digest (const uint8_t *raw, uint32_t len)
{
   lab_rowhash_t sum = { 0, 0 };
   elem_t e = { .next = 4 };
   int rc;

   if (len < 5 || (uint32_t)le32 (raw, 0) != len) {
      return corrupt_digest (raw, len);
   }
   while ((rc = elem_next (raw, len, &e)) == 1) {
      lab_rowhash_add (&sum, field_hash (raw, &e));
   }
   return rc == 0 ? digest_of (sum) : corrupt_digest (raw, len);
}

/* lab_rowhash_doc -- see rowhash.h. */
lab_rowhash_t
lab_rowhash_doc (const uint8_t *raw, uint32_t len)
{
   return doc_digest (raw, len);
}

/* lab_rowhash_row -- see rowhash.h. */
lab_rowhash_t
lab_rowhash_row (const bson_t *row)
{
   return doc_digest (bson_get_data (row), row->len);
}

/* lab_rowhash_doc_id -- see rowhash.h: the row's fields, its _id's F that of {_id: <id's value>}. */
lab_rowhash_t
lab_rowhash_doc_id (const uint8_t *raw, uint32_t len, const bson_iter_t *id)
{
   lab_rowhash_t sum = { 0, 0 };
   elem_t e = { .next = 4 }, s = { .next = 4 };
   bson_t sub; /* {_id: value}: small, on the stack (libbson's inline storage) */
   int rc;

   if (len < 5 || (uint32_t)le32 (raw, 0) != len) {
      return corrupt_digest (raw, len);
   }
   bson_init (&sub);
   bson_append_iter (&sub, "_id", 3, id);
   while ((rc = elem_next (raw, len, &e)) == 1) {
      if (e.val - e.key == 4 && memcmp (raw + e.key, "_id", 4) == 0 &&
          elem_next (bson_get_data (&sub), sub.len, &s) == 1) {
         lab_rowhash_add (&sum, field_hash (bson_get_data (&sub), &s));
      } else {
         lab_rowhash_add (&sum, field_hash (raw, &e));
      }
   }
   bson_destroy (&sub);
   return rc == 0 ? digest_of (sum) : corrupt_digest (raw, len);
}

/* name_word -- the first (up to) 8 bytes of the name p[o..o+klen) as a little-endian word, the bytes past
 * the name zero: two names of one length are equal when their words are and, past 8 bytes, their rests.
 * Eight bytes are loaded at once when the document has them (the name's NUL and value follow it). */
static inline uint64_t
name_word (const uint8_t *p, uint32_t o, uint32_t klen, uint32_t len)
{
   uint64_t w = 0;

   if (len - o >= 8) {
      memcpy (&w, p + o, 8);
      w = BSON_UINT64_FROM_LE (w);
      return klen >= 8 ? w : w & ((1ull << (klen * 8)) - 1);
   }
   for (uint32_t i = 0; i < klen && i < 8; i++) {
      w |= (uint64_t)p[o + i] << (8 * i);
   }
   return w;
}

/* name_bit -- a bit (0..63) of a name's word and length: the hoisted names' bits filter an element's
 * fields before any is compared (a folded element's fields mostly have a hoisted name's length). */
static inline unsigned
name_bit (uint64_t word, uint32_t klen)
{
   return (unsigned)(((word ^ klen) * 0x9e3779b97f4a7c15ull) >> 58);
}

/* One hoisted field of a folded document, ready for hashing: its name (and name_word of it) and its F. */
typedef struct {
   const char *key;
   uint32_t klen;
   uint64_t word;
   lab_rowhash_t f;
} hoisted_t;

/* The hoisted fields, and what every element's merge shares: computed once per document. */
struct lab_rowhash_hoisted {
   size_t n;
   uint64_t names;    /* bit name_bit (word, klen) of each of the first 64 hoisted names */
   lab_rowhash_t sum; /* the sum of the first 64 hoisted fields' F: an element lacking them all adds it */
   hoisted_t f[];     /* n entries */
};

/* lab_rowhash_hoisted_new -- see rowhash.h: each hoisted field with its F, computed once per document. */
lab_rowhash_hoisted_t *
lab_rowhash_hoisted_new (const bson_t *doc, const lab_rowhash_range_t *hs, size_t nh)
{
   lab_rowhash_hoisted_t *h = bson_malloc0 (sizeof *h + (nh ? nh : 1) * sizeof (hoisted_t));
   hoisted_t *hf = h->f;
   const uint8_t *raw = bson_get_data (doc);

   h->n = nh;
   for (size_t i = 0; i < nh; i++) {
      elem_t e = { .next = hs[i].off };
      /* the document was walked by libbson already: its elements walk */
      BSON_ASSERT (elem_next (raw, doc->len, &e) == 1);
      hf[i].key = (const char *)raw + hs[i].off + 1;
      hf[i].klen = hs[i].len;
      hf[i].word = name_word (raw, hs[i].off + 1, hs[i].len, doc->len);
      hf[i].f = field_hash (raw, &e);
      if (i < 64) {
         h->names |= 1ull << name_bit (hf[i].word, hf[i].klen);
         lab_rowhash_add (&h->sum, hf[i].f);
      }
   }
   return h;
}

/* lab_rowhash_merged -- see rowhash.h: the element's fields' sum, plus every hoisted field's F but those
 * whose name the element has. The first 64 enter as their precomputed sum, less the F of each one the
 * element has (the sums are mod 2^64: the same bits as adding the others one by one). */
lab_rowhash_t
lab_rowhash_merged (const uint8_t *edata, uint32_t elen, const lab_rowhash_hoisted_t *h)
{
   const hoisted_t *hf = h ? h->f : NULL;
   size_t nh = h ? h->n : 0, n64 = nh < 64 ? nh : 64;
   lab_rowhash_t sum = h ? h->sum : (lab_rowhash_t){ 0, 0 };
   uint64_t seen = 0; /* bit i: the element has hoisted field i (the first 64; past them, looked up) */
   uint64_t names = h ? h->names : 0;
   elem_t e = { .next = 4 };
   bson_iter_t e2;
   size_t i;
   int rc;

   if (elen < 5 || (uint32_t)le32 (edata, 0) != elen) {
      return corrupt_digest (edata, elen); /* as lab_fold_row_hash would hash it */
   }
   while ((rc = elem_next (edata, elen, &e)) == 1) {
      /* the name ends where the value starts (its NUL between them) */
      uint32_t klen = e.val - e.key - 1;
      uint64_t w = name_word (edata, e.key, klen, elen);

      lab_rowhash_add (&sum, field_hash (edata, &e));
      if (!(names >> name_bit (w, klen) & 1)) {
         continue; /* no hoisted name has this word and length */
      }
      for (i = 0; i < n64; i++) {
         if (hf[i].klen == klen && hf[i].word == w &&
             (klen <= 8 || memcmp (hf[i].key + 8, edata + e.key + 8, klen - 8) == 0)) {
            if (!(seen >> i & 1)) {
               seen |= 1ull << i;
               sum.lo -= hf[i].f.lo;
               sum.hi -= hf[i].f.hi;
            }
            break;
         }
      }
   }
   if (rc != 0) {
      return corrupt_digest (edata, elen);
   }
   for (i = 64; i < nh; i++) {
      if (!(bson_iter_init_from_data (&e2, edata, elen) &&
            bson_iter_find_w_len (&e2, hf[i].key, (int)hf[i].klen))) {
         lab_rowhash_add (&sum, hf[i].f);
      }
   }
   return digest_of (sum);
}

/* lab_rowhash_hoisted_of -- see rowhash.h (the same names fold-details' unfold leaves out). */
lab_rowhash_hoisted_t *
lab_rowhash_hoisted_of (const bson_t *doc, const char *array_field)
{
   lab_rowhash_range_t stack[64], *hs = stack;
   size_t nh = 0, cap = 64;
   lab_rowhash_hoisted_t *h;
   bson_iter_t it;

   if (!bson_iter_init (&it, doc)) {
      return lab_rowhash_hoisted_new (doc, NULL, 0);
   }
   while (bson_iter_next (&it)) {
      const char *name = bson_iter_key (&it);
      if (strcmp (name, "_id") == 0 ||
          (strcmp (name, array_field) == 0 &&
           (BSON_ITER_HOLDS_ARRAY (&it) || BSON_ITER_HOLDS_DOCUMENT (&it))) ||
          ((strcmp (name, LAB_FOLD_ROW_COUNT) == 0 || strcmp (name, LAB_FOLD_PART) == 0 ||
            strcmp (name, LAB_FOLD_PARTS) == 0) &&
           BSON_ITER_HOLDS_INT32 (&it)) ||
          (strcmp (name, LAB_FOLD_BUCKET_START) == 0 && BSON_ITER_HOLDS_DATE_TIME (&it))) {
         continue;
      }
      if (nh == cap) {
         cap *= 2;
         if (hs == stack) {
            hs = bson_malloc (cap * sizeof *hs);
            memcpy (hs, stack, sizeof stack);
         } else {
            hs = bson_realloc (hs, cap * sizeof *hs);
         }
      }
      hs[nh].off = it.off;
      hs[nh].len = bson_iter_key_len (&it);
      nh++;
   }
   h = lab_rowhash_hoisted_new (doc, hs, nh);
   if (hs != stack) {
      bson_free (hs);
   }
   return h;
}

/* lab_rowhash_hoisted_free -- see rowhash.h. */
void
lab_rowhash_hoisted_free (lab_rowhash_hoisted_t *h)
{
   bson_free (h);
}
