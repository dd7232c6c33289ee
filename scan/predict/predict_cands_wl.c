/*
 * predict_cands_wl.c -- the pure parts of the other workloads' model (predict_cands.h): a B-tree's
 * internal pages over its leaves as WiredTiger 3.2 writes them, what a row read walks in them cold and
 * over many reads, and the journal of the appends to the documents of a layout of many rows per document
 * as scancmp's append workload writes them (scan/workloads/wl_write.c, wl_write_draw.c).
 */
#include "scan/predict/predict_cands.h"

#include <math.h>
#include <snappy-c.h>
#include <string.h>

/* An internal page's cell of one child beside its key: the key cell's descriptor (a short key) and the
 * address cell: its descriptor, the cookie's packed length and the cookie, the block's offset and size in
 * allocation units and its checksum as packed integers (2 + 1 + 5 bytes in a file of tens of MB): 11 bytes
 * (src/include/cell.i __wt_cell_pack_addr, src/block/block_addr.c __wt_block_addr_to_buffer). With a
 * RecordId's 4 bytes, 245 children a page: 933 leaves under 5 internal pages, as WiredTiger counted on the
 * detail collection of 263,661 rows ("btree: row-store internal pages"). */
#define INTERNAL_CELL_BYTES 11.0

/* lab_scan_predict_tree_shape -- see predict_cands.h. */
void
lab_scan_predict_tree_shape (lab_scan_predict_tree_t *t, double leaves, double leaf_disk, double key_bytes,
                             double internal_page_max)
{
   double entry = INTERNAL_CELL_BYTES + (key_bytes > 0 ? key_bytes : 1);
   double fanout = floor (LAB_PREDICT_WT_SPLIT_PCT / 100.0 * internal_page_max / entry);
   double n = leaves >= 1 ? leaves : 1;
   int k = 0;

   memset (t, 0, sizeof *t);
   t->leaves = n;
   t->leaf_disk = leaf_disk;
   t->fanout = fanout >= 2 ? fanout : 2;
   /* the root is an internal page even over one leaf (WiredTiger's "btree: row-store internal pages" of a
    * one-leaf tree is 1); each level above the leaves holds ceil(children / fan-out) pages */
   do {
      double children = n;
      n = ceil (children / t->fanout);
      t->level[k] = n;
      /* a page of its share of the children, written to the allocation unit (the root: all of its level) */
      t->level_disk[k] =
         ceil ((LAB_PREDICT_WT_PAGE_HEADER + fmin (children / n, t->fanout) * entry) / LAB_PREDICT_WT_ALLOC) *
         LAB_PREDICT_WT_ALLOC;
      t->internal += n;
      k++;
   } while (n > 1 && k < LAB_PREDICT_TREE_LEVELS);
   t->levels = k;
}

/* distinct_pages -- the pages of `pages` that `reads` reads of uniformly random ones touch: each read once
 * into a cache that keeps them. */
static double
distinct_pages (double pages, double reads)
{
   return pages >= 1 && reads > 0 ? pages * (1 - pow (1 - 1 / pages, reads)) : 0;
}

/* lab_scan_predict_tree_read -- see predict_cands.h. */
void
lab_scan_predict_tree_read (const lab_scan_predict_tree_t *t, double reads, double *cold, double *over_reads,
                            double *internal_over_reads)
{
   double c = t->leaf_disk, r = distinct_pages (t->leaves, reads) * t->leaf_disk, in = 0;
   int k;

   /* the root is read when the table is opened (WiredTiger 3.2's __wt_btree_open reads it in), before
    * any read: a single cold row read measured one index leaf and one data leaf on trees of one root
    * (500 bills of 40 rows, every layout); below it a cold read walks one page of each level, and many
    * reads share the upper levels */
   for (k = 0; k + 1 < t->levels; k++) {
      c += t->level_disk[k];
      in += distinct_pages (t->level[k], reads) * t->level_disk[k];
   }
   *cold = c;
   *over_reads = r + in;
   if (internal_over_reads) {
      *internal_over_reads = in;
   }
}

/* last_part_rows -- the rows of a master's last document when it has `rows` rows in documents of at most
 * `per_doc` (0: one document). */
static double
last_part_rows (double rows, double per_doc)
{
   return per_doc > 0 && rows > per_doc ? fmod (rows - 1, per_doc) + 1 : rows;
}

/* The journal: WiredTiger's log records are written in 128-byte units; a record's header and a commit's,
 * and what each operation adds beyond its key and value (its type, file id, lengths). */
#define JOURNAL_UNIT 128.0
#define JOURNAL_RECORD_BYTES 24.0
#define JOURNAL_OP_BYTES 12.0
#define JOURNAL_SKIP_BYTES 16.0 /* the log record's header, never compressed (WT_LOG_COMPRESS_SKIP) */
/* An index entry: the key's KeyString and the RecordId. */
#define INDEX_ENTRY_BYTES 18.0

/* lab_scan_predict_journal_bytes -- see predict_cands.h. */
double
lab_scan_predict_journal_bytes (double value, double key, double entries, double compress)
{
   double rec = JOURNAL_RECORD_BYTES + JOURNAL_OP_BYTES + key + value +
                entries * (JOURNAL_OP_BYTES + INDEX_ENTRY_BYTES);
   if (compress > 0 && compress < 1 && rec >= JOURNAL_UNIT) {
      /* WiredTiger 3.2's __wt_log_write: a record of a unit or more goes through the log compressor past
       * its header, and the compressed one is kept when it saves a unit at least */
      double c = JOURNAL_SKIP_BYTES + (rec - JOURNAL_SKIP_BYTES) * compress;
      if (floor (c / JOURNAL_UNIT) < floor (rec / JOURNAL_UNIT)) {
         rec = c;
      }
   }
   return ceil (rec / JOURNAL_UNIT) * JOURNAL_UNIT;
}

/* doc_journal -- the journal of one document of `rows` rows rewritten whole. */
static double
doc_journal (const lab_scan_predict_append_t *a, double rows)
{
   return lab_scan_predict_journal_bytes (a->master_bytes + rows * a->row_bytes, a->key_bytes, 0,
                                          a->compress);
}

/* lab_scan_predict_append_journal -- see predict_cands.h. */
double
lab_scan_predict_append_journal (const lab_scan_predict_append_t *a, double *doc_bytes)
{
   int64_t first = a->random ? 0 : a->nkeys - (a->nkeys + 9) / 10, span = a->nkeys - first, m;
   double per_master, total = 0, writes = 0, bytes = 0;

   if (doc_bytes) {
      *doc_bytes = 0;
   }
   if (span <= 0 || a->appends <= 0) {
      return 0;
   }
   /* the appends go to a master of the span drawn uniformly: each gets appends / span of them, one write
    * per row, the document written whole */
   per_master = a->appends / (double)span;
   for (m = first; m < a->nkeys; m++) {
      double n = (double)a->nrids[m], j;
      for (j = 1; j - 1 < per_master; j++) {
         double w = fmin (1, per_master - (j - 1)); /* the last, partial draw's weight */
         double rows = n + j, last = last_part_rows (rows, a->bucket_rows);
         double cost = doc_journal (a, last);
         if (a->bucket_rows > 0 && last == 1 && rows > 1) {
            /* a new part: every earlier part rewritten to say how many there are now (wl_write.c) */
            cost += (rows - 1) / a->bucket_rows * doc_journal (a, a->bucket_rows);
         }
         total += w * cost;
         bytes += w * (a->master_bytes + last * a->row_bytes);
         writes += w;
      }
   }
   if (doc_bytes && writes > 0) {
      *doc_bytes = bytes / writes;
   }
   return writes > 0 ? total / writes : 0;
}

/* lab_scan_predict_log_compress -- see predict_private.h. */
void
lab_scan_predict_log_compress (bson_t *const *docs, size_t n, double *raw, double *comp)
{
   size_t i, cap = 0;
   char *out = NULL;

   *raw = *comp = 0;
   for (i = 0; i < n; i++) {
      size_t need = snappy_max_compressed_length (docs[i]->len), len;
      if (need > cap) {
         bson_free (out);
         out = bson_malloc (need);
         cap = need;
      }
      len = cap;
      *raw += docs[i]->len;
      *comp += snappy_compress ((const char *)bson_get_data (docs[i]), docs[i]->len, out, &len) == SNAPPY_OK
                  ? (double)len
                  : (double)docs[i]->len;
   }
   bson_free (out);
}
