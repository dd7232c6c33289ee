/* fold_doc.c -- the folded documents as they are built: their exact sizes, a row's element, a document's
 * start and end. */
#include "fold.h"
#include "fold_private.h"

#include "core/error.h"

#include <string.h>

/* lab_fold_doc_digits -- length of the decimal form of i (array index keys). */
size_t
lab_fold_doc_digits (size_t i)
{
   size_t n = 1;

   while (i >= 10) {
      i /= 10;
      n++;
   }
   return n;
}

/* lab_fold_doc_header_bytes -- a folded document's size with an empty array, for part `part`. */
size_t
lab_fold_doc_header_bytes (const lab_fold_t *f, size_t kid_len, int32_t part, size_t hoisted_bytes)
{
   size_t id_len = kid_len + 1 + lab_fold_doc_digits ((size_t)part);

   return 4                        /* document length */
          + 1 + 4 + 4 + id_len + 1 /* _id: type, "_id\0", string length, bytes, NUL */
          + hoisted_bytes          /* key and hoisted elements, copied from the first row */
          + ROW_COUNT_ELEM_BYTES + PART_ELEM_BYTES + PARTS_ELEM_BYTES +
          (f->bucket_field ? BUCKET_START_ELEM_BYTES : 0) + 1 + strlen (f->array_field) + 1 + 4 +
          1    /* array: type, name, NUL, length, terminator */
          + 1; /* document terminator */
}

/* removed -- true when slot s of row r is left out of the row's element. */
static bool
removed (const lab_fold_t *f, size_t r, size_t s)
{
   const slot_t *sl = &f->slots[r * f->nslots + s];
   const slot_t *ref = &f->slots[s];

   if (!f->hoisted[s] || sl->dup || sl->len == 0 || sl->len != ref->len) {
      return false;
   }
   if (r == 0) {
      return true;
   }
   return memcmp (f->buf + f->row_off[r] + sl->off, f->buf + f->row_off[0] + ref->off, sl->len) == 0;
}

/* lab_fold_doc_elem_bytes -- the size of row r's element document. */
size_t
lab_fold_doc_elem_bytes (const lab_fold_t *f, size_t r)
{
   bson_t row;
   size_t n, s;

   lab_fold_row_at (f, r, &row);
   n = row.len;
   for (s = 0; s < f->nslots; s++) {
      if (removed (f, r, s)) {
         n -= f->slots[r * f->nslots + s].len;
      }
   }
   return n;
}

static int
range_cmp (const void *a, const void *b)
{
   const range_t *x = a, *y = b;

   return x->off < y->off ? -1 : x->off > y->off;
}

/* lab_fold_doc_build_elem -- assemble row r's element document into f->elem (returns its length). */
size_t
lab_fold_doc_build_elem (lab_fold_t *f, size_t r)
{
   bson_t row;
   range_t cut[64];
   range_t *cuts = cut;
   size_t ncut = 0, s, pos, out, len;
   uint32_t le;
   const uint8_t *p;

   lab_fold_row_at (f, r, &row);
   p = bson_get_data (&row);
   if (f->nslots > 64) {
      cuts = bson_malloc (f->nslots * sizeof *cuts);
   }
   for (s = 0; s < f->nslots; s++) {
      if (removed (f, r, s)) {
         cuts[ncut].off = f->slots[r * f->nslots + s].off;
         cuts[ncut].len = f->slots[r * f->nslots + s].len;
         ncut++;
      }
   }
   qsort (cuts, ncut, sizeof *cuts, range_cmp);
   lab_fold_grow ((void **)&f->elem, &f->elem_cap, row.len, 1);
   out = 4;
   pos = 4;
   for (s = 0; s < ncut; s++) {
      memcpy (f->elem + out, p + pos, cuts[s].off - pos);
      out += cuts[s].off - pos;
      pos = cuts[s].off + cuts[s].len;
   }
   memcpy (f->elem + out, p + pos, row.len - pos); /* includes the terminator */
   out += row.len - pos;
   len = out;
   le = BSON_UINT32_TO_LE ((uint32_t)len);
   memcpy (f->elem, &le, 4);
   if (cuts != cut) {
      bson_free (cuts);
   }
   return len;
}

/* lab_fold_doc_start -- a new part: _id, key, hoisted fields, counters (filled later), the bucket's window
 * start
 * (--bucket-by), array begun. */
bool
lab_fold_doc_start (lab_fold_t *f, const bson_value_t *key, int32_t part, int64_t win_ms, bson_t **doc,
                    bson_t *arr, bson_error_t *error)
{
   char *id = lab_fold_doc_id (key, part, error);
   bson_t first;
   bson_iter_t it;
   size_t s;
   const slot_t *sl;

   if (!id) {
      return false;
   }
   *doc = bson_new ();
   BSON_APPEND_UTF8 (*doc, "_id", id);
   bson_free (id);
   lab_fold_row_at (f, 0, &first);
   for (s = 0; s < f->nslots; s++) {
      if (!f->hoisted[s]) {
         continue;
      }
      sl = &f->slots[s];
      bson_iter_init_from_data_at_offset (&it, bson_get_data (&first), first.len, sl->off,
                                          (uint32_t)strlen (s == 0 ? f->key : f->hoist[s - 1]));
      bson_append_iter (*doc, NULL, 0, &it);
   }
   BSON_APPEND_INT32 (*doc, LAB_FOLD_ROW_COUNT, 0);
   BSON_APPEND_INT32 (*doc, LAB_FOLD_PART, part);
   BSON_APPEND_INT32 (*doc, LAB_FOLD_PARTS, 0);
   if (f->bucket_field) {
      BSON_APPEND_DATE_TIME (*doc, LAB_FOLD_BUCKET_START, win_ms);
   }
   bson_append_array_begin (*doc, f->array_field, -1, arr);
   return true;
}

/* lab_fold_doc_set_int32 -- overwrite an int32 field of a finished document in place. */
void
lab_fold_doc_set_int32 (bson_t *doc, const char *name, int32_t v)
{
   bson_iter_t it;

   BSON_ASSERT (bson_iter_init_find (&it, doc, name));
   bson_iter_overwrite_int32 (&it, v);
}

/* lab_fold_doc_end -- close the array, fill row_count, check the size against the computed one. */
bool
lab_fold_doc_end (lab_fold_t *f, bson_t *doc, bson_t *arr, int32_t nrows, size_t expect, bson_error_t *error)
{
   bson_append_array_end (doc, arr);
   lab_fold_doc_set_int32 (doc, LAB_FOLD_ROW_COUNT, nrows);
   if (doc->len != expect) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "internal error: folded document is %u bytes, computed %zu", doc->len, expect);
      bson_destroy (doc);
      return false;
   }
   lab_fold_grow ((void **)&f->docs, &f->docs_cap, f->ndocs + 1, sizeof (bson_t *));
   f->docs[f->ndocs++] = doc;
   f->docs_bytes += doc->len;
   if ((int64_t)doc->len > f->stats.largest_doc_bytes) {
      f->stats.largest_doc_bytes = doc->len;
   }
   return true;
}
