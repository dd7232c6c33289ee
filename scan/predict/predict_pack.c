/*
 * predict_pack.c -- a layout's leaf pages as WiredTiger 3.2.1 writes an in-order insert (mongod's inserts
 * with increasing RecordIds: fold-details and the candidates' copies), one rule for every layout: the
 * traces' pages of documents (lab_scan_predict_pack_docs) and the sample packs' pages and bytes on disk
 * (lab_scan_predict_pack_pages). An appended leaf page grows in memory until its footprint passes
 * memory_page_max (10 MB), when it is split off and reconciled (__split_insert, bt_split.c; the forced
 * eviction's check, btree.i); reconciliation cuts its records into chunks of split_size (90% of the page's
 * maximum before compression, to the 4 KiB allocation unit), a record that does not fit starting the next
 * chunk unless the chunk is under half a split (it grows instead), and its last two chunks merged when they
 * fit one page, else the last made at least half a page from the one before (rec_write.c
 * __wt_rec_split_init, __wt_rec_split_crossing_bnd, __wt_rec_split, __rec_split_finish_process_prev). The
 * page maximum before compression starts at memory_page_image_max (4 x leaf_page_max) and moves by a tenth
 * of leaf_page_max after each block written whose compressed size is over leaf_page_max or a tenth under
 * it (__rec_compression_adjust). docs/mongodb-compat.md "Leaf pages of an in-order insert".
 */
#include "scan/predict/predict_private.h"

#include "store/store.h"

#include <math.h>
#include <snappy-c.h>
#include <string.h>
#include <zstd.h>

#define PACK_COMPRESS_SKIP 64         /* WT_BLOCK_COMPRESS_SKIP: bytes of the image left uncompressed */
#define PACK_COMPRESSOR_HEADER 8      /* the snappy extension's and ours (wt_zstd.c): the output's length */
#define PACK_MEMORY_PAGE_MAX 10485760 /* mongod's memory_page_max=10m */
/* A record's in-memory overhead in an insert list: WT_UPDATE_SIZE (38), WT_INSERT (16) and its skip list
 * pointers (1.33 on average, 8 bytes each) (btmem.h, row_modify.c). */
#define PACK_INSERT_OVERHEAD 65.0

/* split_page_size -- __wt_split_page_size: pct% of `max`, to the nearest allocation unit (the exact share
 * when that rounds to 0 or to the whole page). */
static double
split_page_size (int pct, double max)
{
   double a = floor (max * pct / 100),
          s = floor ((a + LAB_PREDICT_WT_ALLOC / 2) / LAB_PREDICT_WT_ALLOC) * LAB_PREDICT_WT_ALLOC;

   return s == 0 || s == max ? a : s;
}

/* vpack_len -- the bytes __wt_vpack_uint takes for `v`. */
static double
vpack_len (uint64_t v)
{
   int n = 0;

   if (v <= 63) {
      return 1;
   }
   if (v <= 8191 + 64) {
      return 2;
   }
   for (v -= 8192 + 64; v > 0; v >>= 8) {
      n++;
   }
   return 1 + (n > 0 ? n : 1);
}

/* lab_scan_predict_cell_bytes -- see predict_private.h: the key cell (short: 1 byte + the key), the value
 * cell (1 byte, short up to 63 bytes, else the length less 64 packed) and the value. */
double
lab_scan_predict_cell_bytes (int64_t recno, double key_bytes, double value_bytes)
{
   double key = key_bytes > 0 ? key_bytes : vpack_len ((uint64_t)(recno > 0 ? recno : 1));
   double val = value_bytes <= 63 ? 1 : 1 + vpack_len ((uint64_t)value_bytes - 64);

   return (key <= 63 ? 1 : 1 + vpack_len ((uint64_t)key - 64)) + key + val + value_bytes;
}

/* vpack -- __wt_vpack_uint's bytes of `v` at `p`; returns their count. */
static size_t
vpack (uint8_t *p, uint64_t v)
{
   size_t n = 0, i;

   if (v <= 63) {
      p[0] = (uint8_t)(0x80 | v);
      return 1;
   }
   if (v <= 8191 + 64) {
      v -= 64;
      p[0] = (uint8_t)(0xc0 | (v >> 8));
      p[1] = (uint8_t)(v & 0xff);
      return 2;
   }
   v -= 8192 + 64;
   for (i = 0; i < 8 && (v >> (8 * i)) > 0; i++) {
      n++;
   }
   n = n > 0 ? n : 1;
   p[0] = (uint8_t)(0xe0 | n);
   for (i = 0; i < n; i++) {
      p[1 + i] = (uint8_t)(v >> (8 * (n - 1 - i)));
   }
   return 1 + n;
}

/* cells -- the cells before a record's value at `p` as __wt_cell_pack_leaf_key and __wt_cell_pack_value
 * write them (a key cell of the packed RecordId `recno`, or of `kb` when not NULL; a value cell); returns
 * their bytes. */
static size_t
cells (uint8_t *p, int64_t recno, const lab_buf_t *kb, size_t value_bytes)
{
   uint8_t key[16];
   size_t k = kb ? kb->len : vpack (key, (uint64_t)(recno > 0 ? recno : 1)), n = 0;

   if (k <= 63) {
      p[n++] = (uint8_t)((k << 2) | 0x01);
   } else {
      p[n++] = 5 << 4;
      n += vpack (p + n, k - 64);
   }
   if (kb) {
      memcpy (p + n, kb->data, k);
   } else {
      memcpy (p + n, key, k);
   }
   n += k;
   if (value_bytes <= 63) {
      p[n++] = (uint8_t)((value_bytes << 2) | 0x03);
   } else {
      p[n++] = 8 << 4;
      n += vpack (p + n, value_bytes - 64);
   }
   return n;
}

/* The chunk being filled (WT_REC_CHUNK): its image's bytes (header included), first record, and where
 * the minimum split boundary fell (0: not yet). */
typedef struct {
   double size, min_offset;
   int64_t first, min_first, page;
} chunk_t;

/* reconcile -- one reconciliation of records rec[0, n) (cell bytes each) at page maximum `pmax`: each
 * record's chunk into page_of (from `page`), returning the next page number; *full (may be NULL) the
 * chunks written before the last two, the ones the finish may change. */
static int64_t
reconcile (const double *rec, int64_t n, double pmax, int64_t page, int64_t *page_of, int64_t *full)
{
   double split = split_page_size (LAB_PREDICT_WT_SPLIT_PCT, pmax), min_split = split_page_size (50, pmax);
   double space = split - LAB_PREDICT_WT_PAGE_HEADER, min_space = min_split - LAB_PREDICT_WT_PAGE_HEADER;
   chunk_t cur = { LAB_PREDICT_WT_PAGE_HEADER, 0, 0, 0, page }, prev;
   bool have_prev = false;
   int64_t i, j, nfull = 0;

   memset (&prev, 0, sizeof prev);
   for (i = 0; i < n; i++) {
      double len = rec[i];
      bool cross_min = cur.min_offset == 0 && len > min_space, cross_split = len > space;
      if (cross_min && !cross_split) {
         if (i > cur.first) {
            /* the minimum boundary: where the finish may cut this chunk */
            cur.min_offset = cur.size;
            cur.min_first = i;
         }
      } else if (cross_split) {
         if (cur.size >= split / 2 && i > cur.first) {
            /* the chunk is done; the record starts the next (two chunks are kept, the older written) */
            nfull += have_prev;
            prev = cur;
            have_prev = true;
            cur = (chunk_t){ LAB_PREDICT_WT_PAGE_HEADER, 0, i, 0, prev.page + 1 };
            space = split - LAB_PREDICT_WT_PAGE_HEADER;
            min_space = min_split - LAB_PREDICT_WT_PAGE_HEADER;
         }
         if (space < len) {
            /* a record larger than the room: the chunk grows to hold it (__rec_split_grow) */
            space = ceil ((cur.size + len + LAB_PREDICT_WT_PAGE_HEADER) / LAB_PREDICT_WT_ALLOC) *
                       LAB_PREDICT_WT_ALLOC -
                    cur.size;
         }
      }
      page_of[i] = cur.page;
      cur.size += len;
      space -= len;
      if (cur.min_offset == 0) {
         min_space = min_space >= len ? min_space - len : 0;
      }
   }
   if (full) {
      *full = nfull;
   }
   if (n == 0) {
      return page;
   }
   if (have_prev && prev.size + cur.size - LAB_PREDICT_WT_PAGE_HEADER <= pmax) {
      /* the last two chunks fit one page: merged */
      for (j = cur.first; j < n; j++) {
         page_of[j] = prev.page;
      }
      return prev.page + 1;
   }
   if (have_prev && prev.min_offset != 0 && cur.size < min_split) {
      /* the last chunk under the minimum: the one before gives it what lies past its minimum boundary */
      for (j = prev.min_first; j < cur.first; j++) {
         page_of[j] = cur.page;
      }
   }
   return cur.page + 1;
}

/* compression_adjust -- __rec_compression_adjust: the page maximum before compression after a block
 * compressed to `csize` (the last block of a reconciliation never raises it). */
static double
compression_adjust (double pmax, double csize, bool last)
{
   double max = LAB_PREDICT_LEAF_PAGE_MAX, tenth = floor (max / 10);

   if (csize <= 0) {
      return pmax;
   }
   if (csize > max) {
      return pmax - max > tenth ? pmax - tenth : max;
   }
   if (last || csize > max - tenth) {
      return pmax;
   }
   return pmax + tenth < LAB_PREDICT_PAGE_IMAGE_MAX ? pmax + tenth : LAB_PREDICT_PAGE_IMAGE_MAX;
}

/* walk -- the page maximum after the blocks of one reconciliation (records rec[0, n), their pages
 * page_of from `first` to `end`) are written, each compressing to `ratio` of its image past the first 64
 * bytes (__rec_compression_adjust after each block). */
static double
walk (const double *rec, int64_t n, const int64_t *page_of, int64_t first, int64_t end, double ratio,
      double pmax)
{
   int64_t i = 0, pg;

   for (pg = first; pg < end; pg++) {
      double mem = LAB_PREDICT_WT_PAGE_HEADER, c;
      for (; i < n && page_of[i] == pg; i++) {
         mem += rec[i];
      }
      c = PACK_COMPRESS_SKIP + PACK_COMPRESSOR_HEADER + (mem - PACK_COMPRESS_SKIP) * ratio;
      if (mem > LAB_PREDICT_WT_ALLOC &&
          floor (mem / LAB_PREDICT_WT_ALLOC) > floor (c / LAB_PREDICT_WT_ALLOC)) {
         pmax = compression_adjust (pmax, c, pg == end - 1);
      }
   }
   return pmax;
}

/* lab_scan_predict_pack_records -- see predict_private.h. */
int64_t
lab_scan_predict_pack_records (const double *rec, int64_t n, double pmax, double ratio, int64_t *page_of,
                               int64_t *full)
{
   int64_t i, start = 0, page = 0, f, next;
   double foot = 0;
   bool adjust = !(pmax > 0);

   if (full) {
      *full = 0;
   }
   if (adjust) {
      pmax = LAB_PREDICT_PAGE_IMAGE_MAX; /* where every table starts */
   }
   for (i = 0; i <= n; i++) {
      double r = i < n ? rec[i] + PACK_INSERT_OVERHEAD : 0;
      if (i == n || (foot > 0 && foot + r > PACK_MEMORY_PAGE_MAX)) {
         /* the page passed memory_page_max: split off before this record and reconciled (or the end) */
         next = reconcile (rec + start, i - start, pmax, page, page_of + start, &f);
         if (adjust && ratio > 0) {
            /* the next reconciliation starts at the page maximum these blocks' compression left */
            pmax = walk (rec + start, i - start, page_of + start, page, next, ratio, pmax);
         }
         page = next;
         if (full) {
            *full += f;
         }
         start = i;
         foot = 0;
      }
      foot += r;
   }
   return n > 0 ? page : 0;
}

/* lab_scan_predict_pack_disk -- see predict_private.h: per page the block's headers, the compressor's
 * length and half an allocation unit (the round-up's mean), and the image past its first 64 bytes
 * compressed at `ratio`. */
double
lab_scan_predict_pack_disk (double data_bytes, double records, double key_bytes, double pages, double ratio)
{
   double avg = records > 0 ? data_bytes / records : 0;
   double image = data_bytes + records * (lab_scan_predict_cell_bytes (1000, key_bytes, avg) - avg) +
                  pages * (LAB_PREDICT_WT_PAGE_HEADER - PACK_COMPRESS_SKIP);

   return pages * (PACK_COMPRESS_SKIP + PACK_COMPRESSOR_HEADER + LAB_PREDICT_WT_ALLOC / 2) + image * ratio;
}

/* lab_scan_predict_pack_docs -- see predict_private.h. */
int64_t
lab_scan_predict_pack_docs (const double *doc_bytes, int64_t n, double pmax, double ratio, int64_t *page_of)
{
   double *rec = bson_malloc0 ((size_t)(n > 0 ? n : 1) * sizeof *rec);
   int64_t i, pages;

   for (i = 0; i < n; i++) {
      rec[i] = lab_scan_predict_cell_bytes (i + 1, 0, doc_bytes[i]);
   }
   pages = lab_scan_predict_pack_records (rec, n, pmax, ratio, page_of, NULL);
   bson_free (rec);
   return pages;
}

/* compressed -- the length of `n` bytes of `buf` compressed by `c` (into `out`, `cap` bytes); n when it
 * fails. */
static size_t
compressed (lab_predict_compressor_t c, const uint8_t *buf, size_t n, char *out, size_t cap)
{
   size_t len = cap;

   if (c == LAB_PREDICT_ZSTD) {
      len = ZSTD_compress (out, cap, buf, n, LAB_ZSTD_DEFAULT_LEVEL);
      return ZSTD_isError (len) ? n : len;
   }
   return snappy_compress ((const char *)buf, n, out, &len) == SNAPPY_OK ? len : n;
}

/* block_bytes -- a page image of `mem` bytes (`img`, header included) written as __wt_bt_write writes it:
 * compressed past its first 64 bytes unless that saves no allocation unit, rounded up to the allocation
 * unit; *csize the compressed size the adjustment sees (0: written uncompressed). */
static double
block_bytes (lab_predict_compressor_t c, const uint8_t *img, size_t mem, double *csize)
{
   size_t n = mem > PACK_COMPRESS_SKIP ? mem - PACK_COMPRESS_SKIP : 0;
   size_t cap = c == LAB_PREDICT_ZSTD ? ZSTD_compressBound (n) : snappy_max_compressed_length (n);
   char *out = bson_malloc (cap + 1);
   double result = (double)(compressed (c, img + PACK_COMPRESS_SKIP, n, out, cap) + PACK_COMPRESSOR_HEADER +
                            PACK_COMPRESS_SKIP);

   bson_free (out);
   *csize = 0;
   if (mem <= LAB_PREDICT_WT_ALLOC ||
       floor ((double)mem / LAB_PREDICT_WT_ALLOC) <= floor (result / LAB_PREDICT_WT_ALLOC)) {
      return ceil ((double)mem / LAB_PREDICT_WT_ALLOC) * LAB_PREDICT_WT_ALLOC;
   }
   *csize = result;
   return ceil (result / LAB_PREDICT_WT_ALLOC) * LAB_PREDICT_WT_ALLOC;
}

/* lab_scan_predict_pack_pages -- see predict_private.h: the sample is one reconciliation at the image cap
 * (every table's first); its blocks' compression gives the ratio the whole load's page maximum walks by. */
double
lab_scan_predict_pack_pages (bson_t *const *docs, size_t n, lab_predict_compressor_t c, const lab_buf_t *keys,
                             double *raw, double *disk, int64_t *pages)
{
   double *rec = bson_malloc0 ((n > 0 ? n : 1) * sizeof *rec), csize, cin = 0, cout = 0;
   int64_t *page_of = bson_malloc0 ((n > 0 ? n : 1) * sizeof *page_of), np, full, pg;
   size_t i = 0, j, cap = 0, used;
   uint8_t *img = NULL;

   for (j = 0; j < n; j++) {
      rec[j] = lab_scan_predict_cell_bytes ((int64_t)j + 1, keys ? (double)keys[j].len : 0, docs[j]->len);
   }
   np = lab_scan_predict_pack_records (rec, (int64_t)n, LAB_PREDICT_PAGE_IMAGE_MAX, 0, page_of, &full);
   /* the full pages: all but the sample's last two, which its end cuts (a whole collection's end one
    * such pair per memory_page_max); fewer than three, all of them */
   if (np < 3) {
      full = np;
   }
   *raw = *disk = 0;
   *pages = 0;
   for (pg = 0; pg < np; pg++) {
      used = (size_t)LAB_PREDICT_WT_PAGE_HEADER;
      for (j = i; j < n && page_of[j] == pg; j++) {
         size_t need = used + (size_t)rec[j];
         if (need > cap) {
            cap = need * 2;
            img = bson_realloc (img, cap);
         }
         cells (img + used, (int64_t)j + 1, keys ? &keys[j] : NULL, docs[j]->len);
         memcpy (img + need - docs[j]->len, bson_get_data (docs[j]), docs[j]->len);
         used = need;
      }
      if (j > i) {
         double d = block_bytes (c, img, used, &csize);
         if (csize > 0) {
            cin += (double)used - PACK_COMPRESS_SKIP;
            cout += csize - PACK_COMPRESS_SKIP - PACK_COMPRESSOR_HEADER;
         }
         if (pg < full) {
            size_t k;
            for (k = i; k < j; k++) {
               *raw += docs[k]->len;
            }
            *disk += d;
            (*pages)++;
         }
      }
      i = j;
   }
   bson_free (img);
   bson_free (rec);
   bson_free (page_of);
   return cin > 0 ? cout / cin : 0;
}

/* ---- a clustered collection written in arrival order: its keys (_ids) come in the source's RecordId
 * order, not in key order, so its pages split as a tree under scattered inserts. ---- */

/* A leaf page of the arrival simulation: its lowest key, the keys on its disk image (ascending) and those
 * inserted since (in arrival order), its footprint, and whether it split in memory already. */
typedef struct {
   int64_t lo;
   int64_t *disk, *ins;
   int64_t ndisk, nins, cins;
   double foot;
   bool split_once;
} apage_t;

/* key_cmp -- qsort order of int64 keys. */
static int
key_cmp (const void *a, const void *b)
{
   int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

   return x < y ? -1 : x > y;
}

/* arrival_t -- the simulated tree: pages ascending by lo; the page maximum before compression. */
typedef struct {
   apage_t *pg;
   int64_t n, cap;
   double pmax, ratio, rec;
} arrival_t;

/* a_reconcile -- page `at` reconciled (evicted): its keys merged and cut into chunks (reconcile), each
 * chunk a page of its own on disk; returns the chunks. With `count_only` the tree is left as it is. */
static int64_t
a_reconcile (arrival_t *t, int64_t at, bool count_only)
{
   apage_t *p = &t->pg[at];
   int64_t n = p->ndisk + p->nins, i, c, np, *keys = bson_malloc0 ((size_t)(n > 0 ? n : 1) * sizeof *keys);
   int64_t *page_of = bson_malloc0 ((size_t)(n > 0 ? n : 1) * sizeof *page_of);
   double *rec = bson_malloc0 ((size_t)(n > 0 ? n : 1) * sizeof *rec);

   /* a page fresh from a split has no keys on disk yet (disk NULL), a reconciled one no inserts */
   if (p->ndisk > 0) {
      memcpy (keys, p->disk, (size_t)p->ndisk * sizeof *keys);
   }
   if (p->nins > 0) {
      memcpy (keys + p->ndisk, p->ins, (size_t)p->nins * sizeof *keys);
   }
   qsort (keys, (size_t)n, sizeof *keys, key_cmp);
   for (i = 0; i < n; i++) {
      rec[i] = t->rec;
   }
   np = reconcile (rec, n, t->pmax, 0, page_of, NULL);
   if (t->ratio > 0) {
      t->pmax = walk (rec, n, page_of, 0, np, t->ratio, t->pmax);
   }
   if (!count_only && np > 0) {
      if (t->n + np - 1 > t->cap) {
         t->cap = (t->n + np) * 2;
         t->pg = bson_realloc (t->pg, (size_t)t->cap * sizeof *t->pg);
         p = &t->pg[at];
      }
      bson_free (p->disk);
      bson_free (p->ins);
      memmove (&t->pg[at + np], &t->pg[at + 1], (size_t)(t->n - at - 1) * sizeof *t->pg);
      t->n += np - 1;
      for (c = 0, i = 0; c < np; c++) {
         apage_t *q = &t->pg[at + c];
         int64_t first = i, lo = c == 0 ? t->pg[at].lo : keys[i];
         while (i < n && page_of[i] == c) {
            i++;
         }
         memset (q, 0, sizeof *q);
         q->lo = lo;
         q->ndisk = i - first;
         q->disk = bson_malloc0 ((size_t)(q->ndisk > 0 ? q->ndisk : 1) * sizeof *q->disk);
         memcpy (q->disk, keys + first, (size_t)q->ndisk * sizeof *q->disk);
         q->foot = (double)q->ndisk * t->rec;
      }
   }
   bson_free (keys);
   bson_free (page_of);
   bson_free (rec);
   return np;
}

/* a_insert -- key `k` inserted: into the page holding it; a page past memory_page_max splits off its last
 * record in memory once (__split_insert, when at least 5 inserts follow its disk image's last key) and is
 * evicted: reconciled into pages. */
static void
a_insert (arrival_t *t, int64_t k)
{
   int64_t lo = 0, hi = t->n - 1, at, i, after = 0, imax = -1;
   apage_t *p;

   while (lo < hi) {
      int64_t mid = (lo + hi + 1) / 2;
      if (t->pg[mid].lo <= k) {
         lo = mid;
      } else {
         hi = mid - 1;
      }
   }
   at = lo;
   p = &t->pg[at];
   if (p->nins == p->cins) {
      p->cins = p->cins > 0 ? 2 * p->cins : 64;
      p->ins = bson_realloc (p->ins, (size_t)p->cins * sizeof *p->ins);
   }
   p->ins[p->nins++] = k;
   p->foot += t->rec + PACK_INSERT_OVERHEAD;
   if (p->foot <= PACK_MEMORY_PAGE_MAX) {
      return;
   }
   for (i = 0; i < p->nins; i++) {
      if (p->ndisk == 0 || p->ins[i] > p->disk[p->ndisk - 1]) {
         after++;
         imax = imax < 0 || p->ins[i] > p->ins[imax] ? i : imax;
      }
   }
   if (!p->split_once && after >= 5) {
      /* the last record moves to a new page of its own to the right */
      int64_t moved = p->ins[imax];
      p->ins[imax] = p->ins[--p->nins];
      p->split_once = true;
      if (t->n == t->cap) {
         t->cap *= 2;
         t->pg = bson_realloc (t->pg, (size_t)t->cap * sizeof *t->pg);
      }
      memmove (&t->pg[at + 2], &t->pg[at + 1], (size_t)(t->n - at - 1) * sizeof *t->pg);
      t->n++;
      memset (&t->pg[at + 1], 0, sizeof *t->pg);
      t->pg[at + 1].lo = moved;
      t->pg[at + 1].cins = 64;
      t->pg[at + 1].ins = bson_malloc0 (64 * sizeof (int64_t));
      t->pg[at + 1].ins[t->pg[at + 1].nins++] = moved;
      t->pg[at + 1].foot = t->rec + PACK_INSERT_OVERHEAD;
   }
   a_reconcile (t, at, false);
}

/* lab_scan_predict_pack_arrival -- see predict_private.h. */
int64_t
lab_scan_predict_pack_arrival (const int64_t *key_of, int64_t n, double rec, double ratio)
{
   arrival_t t = { bson_malloc0 (64 * sizeof (apage_t)), 1, 64, LAB_PREDICT_PAGE_IMAGE_MAX, ratio, rec };
   int64_t i, pages = 0;

   t.pg[0].lo = INT64_MIN;
   for (i = 0; i < n; i++) {
      a_insert (&t, key_of[i]);
   }
   for (i = 0; i < t.n; i++) {
      /* the close's checkpoint: a page with inserts is reconciled, one without stays as it was written */
      pages += t.pg[i].nins > 0 ? a_reconcile (&t, i, true) : t.pg[i].ndisk > 0;
      bson_free (t.pg[i].disk);
      bson_free (t.pg[i].ins);
   }
   bson_free (t.pg);
   return pages;
}

/* A rid and its row's place in key order. */
typedef struct {
   int64_t rid, ord;
} arrival_row_t;

/* rid_cmp -- qsort order of arrival rows by RecordId. */
static int
rid_cmp (const void *a, const void *b)
{
   int64_t x = ((const arrival_row_t *)a)->rid, y = ((const arrival_row_t *)b)->rid;

   return x < y ? -1 : x > y;
}

/* The most rows the arrival simulation takes (16 bytes each while it sorts them). */
#define PACK_ARRIVAL_MAX_ROWS 8000000

/* lab_scan_predict_clustered_pages -- see predict_private.h. */
int64_t
lab_scan_predict_clustered_pages (const probe_t *p, double row_bytes, double key_bytes, double ratio)
{
   int64_t n = 0, k, t, pages;
   arrival_row_t *rows;
   int64_t *key_of;
   size_t j;

   if (p->sample < 1) {
      return 0; /* a sample: the masters outside it have no RecordIds (nrids 0), their rows' arrival unknown
                 */
   }
   for (k = 0; k < p->nkeys; k++) {
      if (p->nrids[k] > 0 && !p->rids[k]) {
         return 0; /* not every row's arrival is known */
      }
      n += (int64_t)p->nrids[k];
   }
   if (n == 0 || n > PACK_ARRIVAL_MAX_ROWS) {
      return 0;
   }
   rows = bson_malloc0 ((size_t)n * sizeof *rows);
   key_of = bson_malloc0 ((size_t)n * sizeof *key_of);
   for (k = 0, t = 0; k < p->nkeys; k++) {
      for (j = 0; j < p->nrids[k]; j++, t++) {
         rows[t] = (arrival_row_t){ p->rids[k][j], t }; /* key order: the key, then the _id's arrival */
      }
   }
   qsort (rows, (size_t)n, sizeof *rows, rid_cmp);
   for (t = 0; t < n; t++) {
      key_of[t] = rows[t].ord;
   }
   bson_free (rows); /* before the tree's keys: 8 M rows took 1.2 s and at most 200 MB in all */
   pages =
      lab_scan_predict_pack_arrival (key_of, n, lab_scan_predict_cell_bytes (1, key_bytes, row_bytes), ratio);
   bson_free (key_of);
   return pages;
}
