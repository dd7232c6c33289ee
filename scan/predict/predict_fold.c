/*
 * predict_fold.c -- the folded layout's size from a sample fold: a few masters' rows read and folded in
 * memory into the document fold-details writes by default (--hoist auto: the fields constant within every
 * sampled master at top level with the key, row_count, part and parts, the rows without them in the
 * array), whose sizes replace the rows' BSON less _id and key (no hoisting) that over-predicted the folded
 * layout by half or more; and its bytes on disk from those documents packed into leaf pages as
 * WiredTiger packs them (an uncompressed page grows while its snappy image stays under leaf_page_max) and
 * compressed with snappy, each page rounded up to the 4 KiB allocation unit. etl/fold.c builds the real
 * document, but scan may not use etl (both sit on core and store: scripts/check-layers.sh), so the shape is
 * rebuilt here from etl/fold.h's description.
 */
#include "scan/predict/predict_private.h"

#include "core/error.h"
#include "core/log.h"

#include <snappy-c.h>
#include <string.h>

/* mongod's collection leaf_page_max and WiredTiger's allocation unit; a page's header and its block's. */
#define FOLD_LEAF_PAGE_MAX (32 * 1024)
#define FOLD_ALLOC 4096
#define FOLD_PAGE_HEADERS (28 + 12)
/* Bytes a record costs in a page beyond its BSON: its key (a packed RecordId) and its value cell. */
#define FOLD_CELL_BYTES 6

/* Masters the sample fold reads at most, and rows it stops after. */
#define FOLD_MASTERS 48
#define FOLD_ROWS 8000

/* same_value -- the two fields' values are the same: type and bytes. */
static bool
same_value (const bson_iter_t *a, const bson_iter_t *b)
{
   bson_t x = BSON_INITIALIZER, y = BSON_INITIALIZER;
   bool same;

   bson_append_iter (&x, "v", 1, a);
   bson_append_iter (&y, "v", 1, b);
   same = x.len == y.len && memcmp (bson_get_data (&x), bson_get_data (&y), x.len) == 0;
   bson_destroy (&x);
   bson_destroy (&y);
   return same;
}

/* constant_in -- field `name` is in every row of `r` with the first row's value (type and bytes). */
static bool
constant_in (const lab_store_docs_t *r, const char *name)
{
   bson_iter_t a, b;
   size_t i;

   if (r->n == 0 || !bson_iter_init_find (&a, r->docs[0], name)) {
      return false;
   }
   for (i = 1; i < r->n; i++) {
      if (!bson_iter_init_find (&b, r->docs[i], name) || !same_value (&a, &b)) {
         return false;
      }
   }
   return true;
}

/* hoisted -- `name` is hoisted: a field of the first master's first row, not _id, the key or a name the
 * folded document keeps for itself, constant within every sampled master (--hoist auto). */
static bool
hoisted (const lab_scan_opts_t *o, const lab_store_docs_t *ms, size_t nm, const char *name)
{
   static const char *const own[] = { "_id", "row_count", "part", "parts", "bucket_start" };
   size_t i;

   for (i = 0; i < sizeof own / sizeof own[0]; i++) {
      if (strcmp (name, own[i]) == 0) {
         return false;
      }
   }
   if (strcmp (name, o->key) == 0 || strcmp (name, o->array_field) == 0) {
      return false;
   }
   for (i = 0; i < nm; i++) {
      if (ms[i].n > 0 && !constant_in (&ms[i], name)) {
         return false;
      }
   }
   return true;
}

/* fold_sizes -- the folded document of master `r` (key `key`), in *image (caller destroys): *head its
 * bytes with an empty array, *body what its rows add. The hoisted fields (the first master's first row's, in
 * `h`) leave the rows. */
static void
fold_sizes (const lab_scan_opts_t *o, const bson_value_t *key, const lab_store_docs_t *r, char **h, size_t nh,
            double *head, double *body, bson_t **image)
{
   bson_t doc = BSON_INITIALIZER, arr, el;
   char id[64];
   bson_iter_t it;
   size_t i, k;
   uint32_t empty;

   if (key->value_type == BSON_TYPE_INT32 || key->value_type == BSON_TYPE_INT64) {
      bson_snprintf (
         id, sizeof id, "%lld#0",
         (long long)(key->value_type == BSON_TYPE_INT32 ? key->value.v_int32 : key->value.v_int64));
   } else {
      bson_snprintf (id, sizeof id, "%024d#0", 0); /* an ObjectId's or a string's hex: 24 characters */
   }
   BSON_APPEND_UTF8 (&doc, "_id", id);
   BSON_APPEND_VALUE (&doc, o->key, key);
   for (k = 0; k < nh; k++) {
      if (r->n > 0 && bson_iter_init_find (&it, r->docs[0], h[k])) {
         BSON_APPEND_VALUE (&doc, h[k], bson_iter_value (&it));
      }
   }
   BSON_APPEND_INT32 (&doc, "row_count", (int32_t)r->n);
   BSON_APPEND_INT32 (&doc, "part", 0);
   BSON_APPEND_INT32 (&doc, "parts", 1);
   empty = doc.len + (uint32_t)strlen (o->array_field) + 2 + 5;
   BSON_APPEND_ARRAY_BEGIN (&doc, o->array_field, &arr);
   for (i = 0; i < r->n; i++) {
      char idx[16];
      const char *ik;
      bson_uint32_to_string ((uint32_t)i, &ik, idx, sizeof idx);
      BSON_APPEND_DOCUMENT_BEGIN (&arr, ik, &el);
      if (bson_iter_init (&it, r->docs[i])) {
         while (bson_iter_next (&it)) {
            const char *name = bson_iter_key (&it);
            bool drop = strcmp (name, o->key) == 0;
            for (k = 0; !drop && k < nh; k++) {
               /* a hoisted field leaves the row (constant within the master: its value is the top's) */
               drop = strcmp (name, h[k]) == 0;
            }
            if (!drop) {
               bson_append_iter (&el, NULL, 0, &it);
            }
         }
      }
      bson_append_document_end (&arr, &el);
   }
   bson_append_array_end (&doc, &arr);
   *head = empty;
   *body = (double)doc.len - empty;
   *image = bson_copy (&doc);
   bson_destroy (&doc);
}

/* page_disk -- the bytes on disk of a leaf page holding `n` bytes of records `buf`: snappy-compressed,
 * with its headers, rounded up to the allocation unit. */
static double
page_disk (const uint8_t *buf, size_t n, char *out, size_t cap)
{
   size_t len = cap;

   if (snappy_compress ((const char *)buf, n, out, &len) != SNAPPY_OK) {
      len = n;
   }
   len += FOLD_PAGE_HEADERS;
   return (double)((len + FOLD_ALLOC - 1) / FOLD_ALLOC * FOLD_ALLOC);
}

/* pack_pages -- the folded documents `docs` in key order packed into leaf pages as WiredTiger packs them:
 * a page takes the next record while its compressed image stays under leaf_page_max (a record larger than
 * that has a page of its own); *raw the records' bytes in the full pages, *disk those pages' bytes on
 * disk (the last, partial page is left out when there are others). */
static void
pack_pages (bson_t *const *docs, size_t n, double *raw, double *disk, int64_t *pages)
{
   size_t cap = 0, used = 0, i, start = 0;
   uint8_t *buf = NULL;
   char *out = NULL;
   double last_raw = 0, last_disk = 0;

   *raw = *disk = 0;
   *pages = 0;
   for (i = 0; i < n; i++) {
      size_t need = used + docs[i]->len + FOLD_CELL_BYTES, clen;
      if (need > cap) {
         cap = need * 2;
         buf = bson_realloc (buf, cap);
         out = bson_realloc (out, snappy_max_compressed_length (cap));
      }
      memset (buf + used, 0, FOLD_CELL_BYTES);
      memcpy (buf + used + FOLD_CELL_BYTES, bson_get_data (docs[i]), docs[i]->len);
      clen = snappy_max_compressed_length (cap);
      if (used > 0 && snappy_compress ((const char *)buf, need, out, &clen) == SNAPPY_OK &&
          clen + FOLD_PAGE_HEADERS > FOLD_LEAF_PAGE_MAX) {
         /* the page is full without this record: close it, the record starts the next */
         *raw += (double)used;
         *disk += page_disk (buf, used, out, snappy_max_compressed_length (cap));
         (*pages)++;
         memmove (buf, buf + used, need - used);
         need -= used;
         start = i;
      }
      used = need;
   }
   (void)start;
   if (used > 0) {
      last_raw = (double)used;
      last_disk = page_disk (buf, used, out, snappy_max_compressed_length (cap));
      if (*pages == 0) {
         *raw = last_raw;
         *disk = last_disk;
         *pages = 1;
      }
   }
   bson_free (buf);
   bson_free (out);
}

/* lab_scan_predict_probe_fold -- see predict_private.h. */
bool
lab_scan_predict_probe_fold (lab_store_session_t *sess, const lab_scan_opts_t *o, probe_t *p,
                             bson_error_t *error)
{
   lab_store_docs_t ms[FOLD_MASTERS];
   int64_t pick[FOLD_MASTERS];
   char *h[64];
   size_t nm = 0, nh = 0, i;
   int64_t rows = 0, k;
   double head = 0, body = 0, hd, bd;
   bson_t *docs[FOLD_MASTERS];
   bson_iter_t it;
   bool ok = false;

   memset (ms, 0, sizeof ms);
   for (i = 0; i < FOLD_MASTERS && rows < FOLD_ROWS && p->nkeys > 0; i++) {
      k = (int64_t)((double)i * (double)(p->nkeys - 1) / (FOLD_MASTERS - 1) + 0.5);
      if (nm > 0 && pick[nm - 1] == k) {
         continue;
      }
      pick[nm] = k;
      if (!lab_store_find_eq (sess, o->detail, o->key, &p->keys[k], lab_store_docs_keep, &ms[nm], NULL,
                              error)) {
         lab_error_prefix (error, "the sample fold of %s", o->detail);
         nm++;
         goto done;
      }
      rows += (int64_t)ms[nm].n;
      nm++;
   }
   if (rows == 0) {
      ok = true; /* nothing to fold: the model's estimate stands */
      goto done;
   }
   i = 0;
   while (ms[i].n == 0) {
      i++; /* the first master with rows: rows > 0, so there is one */
   }
   if (bson_iter_init (&it, ms[i].docs[0])) {
      while (bson_iter_next (&it) && nh < sizeof h / sizeof h[0]) {
         if (hoisted (o, ms, nm, bson_iter_key (&it))) {
            h[nh++] = bson_strdup (bson_iter_key (&it));
         }
      }
   }
   for (i = 0; i < nm; i++) {
      fold_sizes (o, &p->keys[pick[i]], &ms[i], h, nh, &hd, &bd, &docs[i]);
      head += hd;
      body += bd;
   }
   pack_pages (docs, nm, &p->fold_page_raw, &p->fold_page_disk, &p->fold_pages);
   /* the load time's CPU figures from the same masters, their rows and folded documents */
   ok = lab_scan_predict_cost_cpu (sess, o, p, pick, ms, nm, docs, error);
   for (i = 0; i < nm; i++) {
      bson_destroy (docs[i]);
   }
   if (!ok) {
      goto done;
   }
   p->fold_masters = (int64_t)nm;
   p->fold_rows = rows;
   p->fold_hoisted = (int64_t)nh;
   p->fold_master_bytes = head / (double)nm;
   p->fold_row_bytes = body / (double)rows;
   p->documents_fetched += rows;
   ok = true;
done:
   for (i = 0; i < nm; i++) {
      lab_store_docs_clear (&ms[i]);
   }
   for (i = 0; i < nh; i++) {
      bson_free (h[i]);
   }
   return ok;
}
