/*
 * predict_cands.c -- the other candidates predicted from the same probe (predict_cands.h): each one's
 * model input and trace from the detail and folded model's, its pages and sizes on disk from its sample
 * pack (predict_fold.c, predict_pack.c), its bytes read at each cache point, and the other workloads'
 * figures per layout.
 * The record's and the terminal's views: predict_cands_record.c.
 */
#include "scan/predict/predict_cands.h"

#include "core/results.h"

#include <math.h>
#include <string.h>

/* cand_descs -- the candidates predicted: a sorted copy, a clustered one, buckets of `bucket_rows`, the
 * folded layout with zstd blocks (the demo's --candidates). */
static size_t
cand_descs (int32_t bucket_rows, lab_layout_t *d)
{
   lab_layout_init (&d[0], "sorted", NULL, "rows");
   d[0].shape = LAB_LAYOUT_SORTED;
   lab_layout_init (&d[1], "clustered", NULL, "rows");
   d[1].shape = LAB_LAYOUT_CLUSTERED;
   d[1].clustered = true;
   lab_layout_init (&d[2], "buckets", NULL, "buckets");
   d[2].bucket_rows = bucket_rows;
   lab_layout_init (&d[3], "folded-zstd", NULL, "folded");
   bson_strncpy (d[3].block_compressor, "zstd", sizeof d[3].block_compressor);
   return 4;
}

/* ratio_or -- a / b, or `dflt` when b is not positive. */
static double
ratio_or (double a, double b, double dflt)
{
   return b > 0 && a > 0 ? a / b : dflt;
}

/* precomp_bytes -- the records' bytes before compression a leaf page settles at for records of
 * `disk_per_byte` on disk: grown until the compressed image fills leaf_page_max, within leaf_page_max and
 * memory_page_image_max (predict_private.h). */
static double
precomp_bytes (double disk_per_byte)
{
   double b = disk_per_byte > 0 ? LAB_PREDICT_LEAF_PAGE_MAX / disk_per_byte : LAB_PREDICT_PAGE_IMAGE_MAX;

   return fmin (fmax (b, LAB_PREDICT_LEAF_PAGE_MAX), LAB_PREDICT_PAGE_IMAGE_MAX);
}

/* size_pages -- the candidate's storage from its records' bytes and disk per byte, and its pages: its
 * sample pack's records per full page (`sample_page`, the pages WiredTiger 3.2.1 cuts an in-order insert
 * into: predict_pack.c) when there is one, else the detail's records per leaf page scaled as WiredTiger's
 * compression adjustment scales a page's records before compression (a layout that compresses better holds
 * more records per page, until the in-memory image cap binds: zstd's pages of billgen's documents held what
 * snappy's did, where pages as full on disk as the detail's predicted 1.7x the records); the footprint of a
 * page in the cache its records' bytes at `cache_per_byte`, the detail's page's or the folded one's (a page
 * of a few documents has no per-row overhead: scaled from the detail's, the zstd fold's pages took 8% more
 * cache than the fold's and reread where the fold's fit). */
static void
size_pages (lab_scan_predict_cand_t *c, const lab_scan_predict_input_t *in, const layouts_t *l,
            double data_bytes, double cache_per_byte, double sample_page)
{
   double detail_page = in->folded_page_bytes; /* the detail's records' bytes per leaf page */
   double detail_dpb = ratio_or (l->storage[0], l->data_bytes[0], 0);
   double page = sample_page > 0 ? sample_page
                 : detail_page > 0 && detail_dpb > 0
                    ? detail_page * precomp_bytes (c->disk_per_byte) / precomp_bytes (detail_dpb)
                    : LAB_PREDICT_PAGE_IMAGE_SPLIT;
   double pages;

   c->l.data_bytes[0] = data_bytes;
   c->l.storage[0] = data_bytes * c->disk_per_byte;
   pages = ceil (data_bytes / page);
   if (pages < 1) {
      pages = 1;
   }
   c->l.pages[0][LAB_PREDICT_DATA] = pages;
   c->l.data_disk[0] = c->l.storage[0] / pages;
   c->page_bytes = data_bytes / pages;
   c->page_cache_bytes = c->page_bytes * cache_per_byte;
}

/* on_disk -- the candidate's bytes on disk from its pages and its sample pack's compression
 * (lab_scan_predict_pack_disk) when the pack compressed and had fewer than LAB_PREDICT_PACK_MIN_PAGES full
 * pages (`sample_pages`); else as size_pages put them (the sample's bytes on disk per byte). */
static void
on_disk (lab_scan_predict_cand_t *c, double data_bytes, double records, double key_bytes, double ratio,
         int64_t sample_pages)
{
   double pages = c->l.pages[0][LAB_PREDICT_DATA];

   if (ratio > 0 && pages > 0 && data_bytes > 0 && sample_pages < LAB_PREDICT_PACK_MIN_PAGES) {
      c->l.storage[0] = lab_scan_predict_pack_disk (data_bytes, records, key_bytes, pages, ratio);
      c->l.data_disk[0] = c->l.storage[0] / pages;
      c->disk_per_byte = c->l.storage[0] / data_bytes;
   }
}

/* model_rows -- a candidate of rows in key order (sorted, or clustered when read by _id range). */
static void
model_rows (lab_scan_predict_cand_t *c, const probe_t *p, const traces_t *tr, const layouts_t *l)
{
   lab_scan_predict_input_t in = tr->in;
   bool by_id = lab_layout_read_by_id_range (&c->desc);
   double extra = by_id ? (p->cf.clus_row_extra > 0 ? p->cf.clus_row_extra : 26.0) : 0;
   double raw = by_id ? p->cf.clus_raw : p->cf.rows_raw, disk = by_id ? p->cf.clus_disk : p->cf.rows_disk;
   int64_t sp = by_id ? p->cf.clus_pages : p->cf.rows_pages;
   double data = l->data_bytes[0] + p->entries_est * extra, page = ratio_or (raw, (double)sp, 0);
   int64_t arrival = by_id && raw > 0
                        ? lab_scan_predict_clustered_pages (p, p->st.avg_obj_size_bytes + extra,
                                                            p->cf.clus_key_bytes, p->cf.clus_compress_ratio)
                        : 0;

   c->disk_per_byte = ratio_or (disk, raw, ratio_or (l->storage[0], l->data_bytes[0], 1));
   c->source = raw > 0 ? "the sample fold's rows in key order packed and compressed (snappy)"
                       : "default: the detail collection's bytes on disk per byte";
   /* a clustered copy is written in the source's arrival order: its pages as the simulated tree's */
   size_pages (c, &tr->in, l, data, ratio_or (tr->in.page_cache_bytes, tr->in.folded_page_bytes, 1),
               arrival > 0 ? data / (double)arrival : page);
   on_disk (c, data, p->entries_est, by_id ? p->cf.clus_key_bytes : 0,
            by_id ? p->cf.clus_compress_ratio : p->cf.rows_compress_ratio, sp);
   c->docs = p->entries_est;
   c->doc_bytes = p->st.avg_obj_size_bytes + extra;
   c->rows_per_page = p->entries_est / c->l.pages[0][LAB_PREDICT_DATA];
   in.rows_per_page = c->rows_per_page;
   in.page_cache_bytes = c->page_cache_bytes;
   if (by_id) {
      /* a clustered collection: the record table is the _id index, there is no other to walk */
      c->l.index[0] = 0;
      c->l.pages[0][LAB_PREDICT_INDEX] = 0;
      c->l.index_disk = 0;
   } else {
      c->l.index[0] = l->index[0];
      c->l.pages[0][LAB_PREDICT_INDEX] = l->pages[0][LAB_PREDICT_INDEX];
      c->l.index_disk = l->index_disk;
   }
   c->sd = lab_scan_predict_trace_key_order (&in, !by_id);
}

/* model_docs -- a candidate of documents of many rows (buckets, or the fold with another compressor). */
static void
model_docs (lab_scan_predict_cand_t *c, const probe_t *p, const traces_t *tr, const layouts_t *l)
{
   lab_scan_predict_input_t in = tr->in;
   int32_t br = lab_layout_bucketed (&c->desc) ? c->desc.bucket_rows : 0;
   bool zstd = strcmp (c->desc.block_compressor, "zstd") == 0;
   double raw = br > 0 ? p->cf.bkt_raw : zstd ? p->cf.zstd_raw : p->fold_page_raw;
   double disk = br > 0 ? p->cf.bkt_disk : zstd ? p->cf.zstd_disk : p->fold_page_disk;
   int64_t sp = br > 0 ? p->cf.bkt_pages : zstd ? p->cf.zstd_pages : p->fold_pages;
   double docs = 0, data;
   int64_t m, pages = 0, ndocs = 0;

   for (m = 0; m < p->nkeys; m++) {
      /* every master's documents (a sample's unsampled masters count the mean rows) */
      size_t n = tr->mini.nrids[m];
      docs += br > 0 ? (double)((n + (size_t)br - 1) / (size_t)br) : 1;
   }
   data = docs * in.folded_master_bytes + p->entries_est * in.folded_row_bytes;
   c->disk_per_byte = ratio_or (disk, raw, ratio_or (l->storage[1], l->data_bytes[1], 1));
   c->source = raw > 0 ? (zstd ? "the sample fold's documents packed and compressed (zstd)"
                               : "the sample fold's documents packed and compressed (snappy)")
                       : "default: the folded layout's bytes on disk per byte";
   size_pages (c, &tr->in, l, data, ratio_or (in.folded_page_cache_bytes, in.folded_page_bytes, 1),
               ratio_or (raw, (double)sp, 0));
   c->compress_ratio = br > 0 ? p->cf.bkt_compress_ratio
                       : zstd ? p->cf.zstd_compress_ratio
                              : p->fold_compress_ratio;
   c->docs = docs;
   c->doc_bytes = docs > 0 ? data / docs : 0;
   c->l.index[0] = l->index[0] * docs / (p->entries_est > 0 ? p->entries_est : 1);
   c->l.index_disk = l->index_disk;
   c->l.pages[0][LAB_PREDICT_INDEX] =
      ceil (docs / (in.folded_index_entries_per_page > 1 ? in.folded_index_entries_per_page : 1));
   in.folded_page_bytes = c->page_bytes;
   in.folded_compress_ratio = c->compress_ratio;
   in.folded_page_cache_bytes = c->page_cache_bytes;
   in.again_class = tr->in.again_class;
   c->sd = lab_scan_predict_trace_buckets (&in, br, &pages, &ndocs);
   /* the trace's own packing of whole documents: its pages are the ones the load touches */
   c->l.pages[0][LAB_PREDICT_DATA] = (double)pages;
   c->l.data_disk[0] = pages > 0 ? c->l.storage[0] / (double)pages : c->l.data_disk[0];
   on_disk (c, data, docs, 0, c->compress_ratio, sp);
}

/* lab_scan_predict_cands_build -- see predict_cands.h. */
void
lab_scan_predict_cands_build (const lab_scan_opts_t *o, const probe_t *p, const traces_t *tr,
                              const layouts_t *l, lab_scan_predict_cands_t *c)
{
   lab_layout_t d[LAB_PREDICT_CANDS];
   int32_t br = p->cf.bucket_rows > 0        ? p->cf.bucket_rows
                : o->predict_bucket_rows > 0 ? (int32_t)o->predict_bucket_rows
                                             : 100;
   size_t n = cand_descs (br, d), i;

   memset (c, 0, sizeof *c);
   c->rate = tr->mini.rate;
   c->row_reads = (double)o->wl.row_keys;
   c->appends = (double)o->wl.append_rows;
   c->append_any = o->wl.append_to != 0;
   for (i = 0; i < n; i++) {
      lab_scan_predict_cand_t *k = &c->c[c->n];
      memset (k, 0, sizeof *k);
      k->desc = d[i];
      k->l.fill = l->fill;
      /* the descriptor's questions decide the model, never its name */
      if (lab_layout_reads_rows (&k->desc) && lab_layout_key_contiguous (&k->desc)) {
         model_rows (k, p, tr, l);
      } else if (lab_layout_doc_holds_many_rows (&k->desc)) {
         model_docs (k, p, tr, l);
      } else {
         continue; /* rows in arrival order: the detail layout itself */
      }
      k->l.on_disk[0] = k->l.storage[0] + k->l.index[0];
      c->n++;
   }
   c->fill = l->fill;
   c->wl = bson_malloc0 ((LAB_PREDICT_CANDS + 2) * sizeof *c->wl);
   lab_scan_predict_cands_wl_build (c, p, tr, l);
}

/* lab_scan_predict_cands_cleanup -- see predict_cands.h. */
void
lab_scan_predict_cands_cleanup (lab_scan_predict_cands_t *c)
{
   size_t i;

   for (i = 0; i < c->n; i++) {
      lab_scan_stackdist_destroy (c->c[i].sd);
   }
   for (i = 0; i < c->nwl; i++) {
      lab_scan_stackdist_destroy (c->wl[i].rows);
   }
   bson_free (c->wl);
   memset (c, 0, sizeof *c);
}

/* lab_scan_predict_cands_point -- see predict_cands.h. */
void
lab_scan_predict_cands_point (bson_t *point, const lab_scan_predict_cands_t *c, uint64_t cache)
{
   bson_t d, e;
   size_t i;

   lab_scan_predict_cands_wl_point (point, c, cache);
   if (c->n == 0) {
      return;
   }
   BSON_APPEND_DOCUMENT_BEGIN (point, "candidates", &d);
   for (i = 0; i < c->n; i++) {
      const lab_scan_predict_cand_t *k = &c->c[i];
      double misses = 0, amp;
      double rb = lab_scan_predict_scaled_read_bytes (k->sd, cache, c->rate, &k->l, 0, &misses);
      bson_append_document_begin (&d, k->desc.name, -1, &e);
      BSON_APPEND_INT64 (&e, "block_read_bytes", (int64_t)llround (rb));
      BSON_APPEND_INT64 (&e, "block_reads", (int64_t)llround (misses));
      if (lab_results_read_amplification (rb, k->l.on_disk[0], &amp)) {
         BSON_APPEND_DOUBLE (&e, LAB_RESULTS_KEY_READ_AMPLIFICATION, amp);
      }
      bson_append_document_end (&d, &e);
   }
   bson_append_document_end (point, &d);
}
