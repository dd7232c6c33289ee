/*
 * fold.c -- the pure fold logic (see fold.h): rows in key order in, array documents out, sized exactly
 * while they are built (the options checked and the documents' ids: fold_names.c; unfolding:
 * fold_rows.c).
 */
#include "fold.h"
#include "fold_private.h"

#include "core/error.h"
#include "store/keyenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
/* xxhash inlined: the verify hashes every field of every row, a few dozen bytes at a time, where a call
 * into the shared library costs as much as the hash */
#define XXH_INLINE_ALL
#include <xxhash.h>

/* Sizes of the fixed top-level fields: type byte + name + NUL + int32. */
#define ROW_COUNT_ELEM_BYTES (1 + sizeof LAB_FOLD_ROW_COUNT + 4)
#define PART_ELEM_BYTES (1 + sizeof LAB_FOLD_PART + 4)
#define PARTS_ELEM_BYTES (1 + sizeof LAB_FOLD_PARTS + 4)
#define BUCKET_START_ELEM_BYTES (1 + sizeof LAB_FOLD_BUCKET_START + 8)

/* Where one of the tracked fields (slot 0: the key, slot 1+h: hoist[h]) sits in a buffered row. */
typedef struct {
   uint32_t off; /* offset of the element in the row */
   uint32_t len; /* element bytes (type, name, value); 0: absent */
   bool dup;     /* the row holds the name more than once: never removed from it */
} slot_t;

/* A row's place in the master's documents: its time window (0 without --bucket-by) and its index. */
typedef struct {
   int64_t win_ms;
   size_t r;
} ord_t;

struct lab_fold {
   lab_fold_opts_t opts;
   char *key;
   char *array_field;
   char *bucket_field;
   char **hoist;
   size_t nslots; /* 1 + nhoist */
   lab_fold_emit_cb_t emit;
   lab_fold_reject_cb_t reject;
   void *ctx;
   lab_fold_stats_t stats;

   /* the current master: raw rows back to back, their offsets, their tracked slots */
   uint8_t *buf;
   size_t buf_len;
   size_t buf_cap;
   size_t *row_off;
   size_t nrows;
   size_t rows_cap;
   slot_t *slots; /* nrows * nslots */
   size_t slots_cap;

   /* per-master scratch */
   bool *hoisted; /* nslots: removed from rows whose bytes equal the first row's */
   uint8_t *elem; /* one element document being assembled */
   size_t elem_cap;
   bson_t **docs;
   size_t ndocs;
   size_t docs_cap;
   size_t docs_bytes;
   ord_t *ord; /* nrows: the order rows go into documents */
   size_t ord_cap;
};

/* grow -- ensure *cap >= need elements of `size` bytes in *p. */
static void
grow (void **p, size_t *cap, size_t need, size_t size)
{
   size_t c = *cap ? *cap : 16;

   if (need <= *cap) {
      return;
   }
   while (c < need) {
      c *= 2;
   }
   *p = bson_realloc (*p, c * size);
   *cap = c;
}

/* lab_fold_new -- copy the options and set up empty buffers. */
lab_fold_t *
lab_fold_new (const lab_fold_opts_t *opts, lab_fold_emit_cb_t emit, lab_fold_reject_cb_t reject, void *ctx,
              bson_error_t *error)
{
   lab_fold_t *f;
   size_t i;

   if (!lab_fold_opts_check (opts, error)) {
      return NULL;
   }
   if (opts->on_oversize == LAB_FOLD_OVERSIZE_REJECT && !reject) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "on-oversize reject needs a reject destination");
      return NULL;
   }
   f = bson_malloc0 (sizeof *f);
   f->opts = *opts;
   f->key = bson_strdup (opts->key);
   f->array_field = bson_strdup (opts->array_field);
   f->hoist = bson_malloc0 ((opts->nhoist + 1) * sizeof (char *));
   for (i = 0; i < opts->nhoist; i++) {
      f->hoist[i] = bson_strdup (opts->hoist[i]);
   }
   f->opts.key = f->key;
   f->opts.array_field = f->array_field;
   if (opts->bucket_field) {
      f->bucket_field = bson_strdup (opts->bucket_field);
      f->opts.bucket_field = f->bucket_field;
   }
   f->opts.hoist = (const char *const *)f->hoist;
   f->nslots = 1 + opts->nhoist;
   f->hoisted = bson_malloc0 (f->nslots * sizeof (bool));
   f->emit = emit;
   f->reject = reject;
   f->ctx = ctx;
   return f;
}

const lab_fold_stats_t *
lab_fold_stats (const lab_fold_t *f)
{
   return &f->stats;
}

/* lab_fold_buffered_bytes -- buffered rows plus documents built for the current master. */
size_t
lab_fold_buffered_bytes (const lab_fold_t *f)
{
   return f->buf_len + f->docs_bytes;
}

/* clear_docs -- drop documents not handed over (after an error). */
static void
clear_docs (lab_fold_t *f)
{
   size_t i;

   for (i = 0; i < f->ndocs; i++) {
      bson_destroy (f->docs[i]);
   }
   f->ndocs = 0;
   f->docs_bytes = 0;
}

/* lab_fold_destroy -- free everything, including a master never finished. */
void
lab_fold_destroy (lab_fold_t *f)
{
   if (!f) {
      return;
   }
   clear_docs (f);
   bson_free (f->docs);
   bson_free (f->buf);
   bson_free (f->row_off);
   bson_free (f->slots);
   bson_free (f->hoisted);
   bson_free (f->elem);
   bson_strfreev (f->hoist);
   bson_free (f->key);
   bson_free (f->array_field);
   bson_free (f->bucket_field);
   bson_free (f->ord);
   bson_free (f);
}

/* row_at -- a static view of buffered row i. */
static void
row_at (const lab_fold_t *f, size_t i, bson_t *row)
{
   const uint8_t *p = f->buf + f->row_off[i];
   uint32_t len;

   memcpy (&len, p, 4);
   len = BSON_UINT32_FROM_LE (len);
   BSON_ASSERT (bson_init_static (row, p, len));
}

/* master_key -- the current master's key value (points into the buffer). */
static void
master_key (const lab_fold_t *f, bson_value_t *key)
{
   bson_t row;
   bson_iter_t it;

   row_at (f, 0, &row);
   BSON_ASSERT (bson_iter_init (&it, &row));
   BSON_ASSERT (f->slots[0].len > 0);
   /* slot 0 is the first occurrence of the key */
   bson_iter_init_from_data_at_offset (&it, bson_get_data (&row), row.len, f->slots[0].off,
                                       (uint32_t)strlen (f->key));
   *key = *bson_iter_value (&it);
}

/* digits -- length of the decimal form of i (array index keys). */
static size_t
digits (size_t i)
{
   size_t n = 1;

   while (i >= 10) {
      i /= 10;
      n++;
   }
   return n;
}

/* header_bytes -- a folded document's size with an empty array, for part `part`. */
static size_t
header_bytes (const lab_fold_t *f, size_t kid_len, int32_t part, size_t hoisted_bytes)
{
   size_t id_len = kid_len + 1 + digits ((size_t)part);

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

/* elem_bytes -- the size of row r's element document. */
static size_t
elem_bytes (const lab_fold_t *f, size_t r)
{
   bson_t row;
   size_t n, s;

   row_at (f, r, &row);
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

/* build_elem -- assemble row r's element document into f->elem (returns its length). */
static size_t
build_elem (lab_fold_t *f, size_t r)
{
   bson_t row;
   range_t cut[64];
   range_t *cuts = cut;
   size_t ncut = 0, s, pos, out, len;
   uint32_t le;
   const uint8_t *p;

   row_at (f, r, &row);
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
   grow ((void **)&f->elem, &f->elem_cap, row.len, 1);
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

/* start_doc -- a new part: _id, key, hoisted fields, counters (filled later), the bucket's window start
 * (--bucket-by), array begun. */
static bool
start_doc (lab_fold_t *f, const bson_value_t *key, int32_t part, int64_t win_ms, bson_t **doc, bson_t *arr,
           bson_error_t *error)
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
   row_at (f, 0, &first);
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

/* set_int32 -- overwrite an int32 field of a finished document in place. */
static void
set_int32 (bson_t *doc, const char *name, int32_t v)
{
   bson_iter_t it;

   BSON_ASSERT (bson_iter_init_find (&it, doc, name));
   bson_iter_overwrite_int32 (&it, v);
}

/* end_doc -- close the array, fill row_count, check the size against the computed one. */
static bool
end_doc (lab_fold_t *f, bson_t *doc, bson_t *arr, int32_t nrows, size_t expect, bson_error_t *error)
{
   bson_append_array_end (doc, arr);
   set_int32 (doc, LAB_FOLD_ROW_COUNT, nrows);
   if (doc->len != expect) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "internal error: folded document is %u bytes, computed %zu", doc->len, expect);
      bson_destroy (doc);
      return false;
   }
   grow ((void **)&f->docs, &f->docs_cap, f->ndocs + 1, sizeof (bson_t *));
   f->docs[f->ndocs++] = doc;
   f->docs_bytes += doc->len;
   if ((int64_t)doc->len > f->stats.largest_doc_bytes) {
      f->stats.largest_doc_bytes = doc->len;
   }
   return true;
}

/* reject_master -- hand the master's original rows to the reject callback. */
static bool
reject_master (lab_fold_t *f, const bson_value_t *key, const char *reason, bson_error_t *error)
{
   bson_t **rows = bson_malloc (f->nrows * sizeof (bson_t *));
   bson_t view;
   size_t i;
   bool ok;

   /* heap copies: bson_t wants a 128-byte alignment an array of them would not give */
   for (i = 0; i < f->nrows; i++) {
      row_at (f, i, &view);
      rows[i] = bson_copy (&view);
   }
   ok = f->reject (f->ctx, key, (const bson_t *const *)rows, f->nrows, reason, error);
   for (i = 0; i < f->nrows; i++) {
      bson_destroy (rows[i]);
   }
   bson_free (rows);
   f->stats.masters_rejected++;
   f->stats.rows_rejected += (int64_t)f->nrows;
   return ok;
}

/* bucketed -- documents are bucketed (by rows or by time). */
static bool
bucketed (const lab_fold_t *f)
{
   return f->opts.bucket_rows > 0 || f->bucket_field;
}

/* bucket_break -- row position i (in f->ord) starts a new document although the current one, holding
 * in_part > 0 rows, has room: --bucket-rows is reached or the time window changes. */
static bool
bucket_break (const lab_fold_t *f, size_t i, int32_t in_part)
{
   if (f->opts.bucket_rows > 0 && in_part >= f->opts.bucket_rows) {
      return true;
   }
   return f->bucket_field && i > 0 && f->ord[i].win_ms != f->ord[i - 1].win_ms;
}

static int
ord_cmp (const void *a, const void *b)
{
   const ord_t *x = a, *y = b;

   if (x->win_ms != y->win_ms) {
      return x->win_ms < y->win_ms ? -1 : 1;
   }
   return x->r < y->r ? -1 : x->r > y->r;
}

/* order_rows -- f->ord: the rows in input order, or (--bucket-by) stably sorted by their time window.
 * A row without the bucket field or with a value that is not a date stops the fold, naming the row. */
static bool
order_rows (lab_fold_t *f, const bson_value_t *key, bson_error_t *error)
{
   bson_t row;
   bson_iter_t it;
   size_t r;
   char *rt, *kt;

   grow ((void **)&f->ord, &f->ord_cap, f->nrows, sizeof (ord_t));
   for (r = 0; r < f->nrows; r++) {
      f->ord[r].r = r;
      f->ord[r].win_ms = 0;
      if (!f->bucket_field) {
         continue;
      }
      row_at (f, r, &row);
      if (!bson_iter_init_find (&it, &row, f->bucket_field) || !BSON_ITER_HOLDS_DATE_TIME (&it)) {
         bool present = bson_iter_init_find (&it, &row, f->bucket_field);
         rt = lab_fold_row_id_text (&row);
         kt = lab_value_to_text (key);
         if (present) {
            lab_error_set (
               error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
               "row %s of master %s=%s: bucket field '%s' holds BSON type 0x%02x, not a date; "
               "--bucket-by needs a date in every row (bucket by rows with --bucket-rows instead)",
               rt, f->key, kt, f->bucket_field, (unsigned)bson_iter_type (&it));
         } else {
            lab_error_set (
               error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
               "row %s of master %s=%s has no bucket field '%s': --bucket-by needs a date in every "
               "row (bucket by rows with --bucket-rows instead)",
               rt, f->key, kt, f->bucket_field);
         }
         bson_free (rt);
         bson_free (kt);
         return false;
      }
      f->ord[r].win_ms = lab_fold_bucket_window (bson_iter_date_time (&it), f->opts.bucket_unit, NULL);
   }
   if (f->bucket_field) {
      qsort (f->ord, f->nrows, sizeof (ord_t), ord_cmp);
   }
   return true;
}

/* hoist_slots -- which slots go to top level: slot 0 (the key) always, a hoist field only when every row
 * has it (with one value); returns their bytes. */
static size_t
hoist_slots (lab_fold_t *f)
{
   size_t r, s, hoisted_bytes = 0;

   for (s = 0; s < f->nslots; s++) {
      f->hoisted[s] = f->slots[s].len > 0;
      for (r = 0; s > 0 && f->hoisted[s] && r < f->nrows; r++) {
         if (f->slots[r * f->nslots + s].len == 0 || f->slots[r * f->nslots + s].dup) {
            f->hoisted[s] = false;
         }
      }
      if (f->hoisted[s]) {
         hoisted_bytes += f->slots[s].len;
      }
   }
   return hoisted_bytes;
}

/* over_cap -- with --on-oversize reject or fail, whether the master's largest bucket (the whole master
 * without buckets) folds to more than the cap: then the master is rejected (*ok: whether that worked) or
 * the run fails (*ok false, *error set). False (nothing done) when it fits or splitting is allowed. */
static bool
over_cap (lab_fold_t *f, const bson_value_t *key, size_t kid_len, size_t hoisted_bytes, bool *ok,
          bson_error_t *error)
{
   size_t max = (size_t)f->opts.max_doc_bytes, gsize = 0, grows = 0, total = 0, nbig = 0, i;
   char *ktext, *reason;

   if (f->opts.on_oversize == LAB_FOLD_OVERSIZE_SPLIT) {
      return false;
   }
   for (i = 0; i <= f->nrows; i++) {
      if (i == f->nrows || (grows > 0 && bucket_break (f, i, (int32_t)grows))) {
         if (gsize > total) {
            total = gsize;
            nbig = grows;
         }
         grows = 0;
         if (i == f->nrows) {
            break;
         }
      }
      if (grows == 0) {
         gsize = header_bytes (f, kid_len, 0, hoisted_bytes);
      }
      gsize += 1 + digits (grows) + 1 + elem_bytes (f, f->ord[i].r);
      grows++;
   }
   if (total <= max) {
      return false;
   }
   ktext = lab_value_to_text (key);
   if (bucketed (f)) {
      reason = bson_strdup_printf (
         "a bucket of master %s=%s folds to %zu bytes, over the %zu-byte document cap (%zu rows)", f->key,
         ktext, total, max, nbig);
   } else {
      reason =
         bson_strdup_printf ("master %s=%s folds to %zu bytes, over the %zu-byte document cap (%zu rows)",
                             f->key, ktext, total, max, f->nrows);
   }
   if (f->opts.on_oversize == LAB_FOLD_OVERSIZE_REJECT) {
      *ok = reject_master (f, key, reason, error);
   } else {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_DOC_TOO_LARGE,
                     "%s; use --on-oversize split or reject", reason);
      *ok = false;
   }
   bson_free (ktext);
   bson_free (reason);
   return true;
}

/* build_docs -- the master's documents into f->docs, rows in f->ord's order: a part ends when the next
 * row would take it over the cap or its bucket ends. A row over the cap even alone in a part fails. */
static bool
build_docs (lab_fold_t *f, const bson_value_t *key, size_t kid_len, size_t hoisted_bytes, bson_error_t *error)
{
   size_t max = (size_t)f->opts.max_doc_bytes, size, r, ebytes, i, elen;
   int32_t part = 0, in_part = 0;
   bson_t *doc = NULL;
   bson_t arr, row, elem;
   const char *idx;
   char idxbuf[16];

   size = header_bytes (f, kid_len, 0, hoisted_bytes);
   if (!start_doc (f, key, 0, f->ord[0].win_ms, &doc, &arr, error)) {
      return false;
   }
   for (i = 0; i < f->nrows; i++) {
      r = f->ord[i].r;
      ebytes = elem_bytes (f, r);
      if (in_part > 0 &&
          (bucket_break (f, i, in_part) || size + 1 + digits ((size_t)in_part) + 1 + ebytes > max)) {
         /* the part is full, or its bucket ends: close it and start the next one */
         if (!end_doc (f, doc, &arr, in_part, size, error)) {
            return false;
         }
         part++;
         in_part = 0;
         size = header_bytes (f, kid_len, part, hoisted_bytes);
         if (!start_doc (f, key, part, f->ord[i].win_ms, &doc, &arr, error)) {
            return false;
         }
      }
      if (size + 1 + digits ((size_t)in_part) + 1 + ebytes > max) {
         /* alone in a part and still over the cap (checked after the split too: the row that did not
          * fit the full part must fit an empty one) */
         char *ktext = lab_value_to_text (key), *rtext;
         row_at (f, r, &row);
         rtext = lab_fold_row_id_text (&row);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_DOC_TOO_LARGE,
                        "row %s of master %s=%s is %zu bytes: even alone in a folded document it exceeds "
                        "the %zu-byte cap",
                        rtext, f->key, ktext, (size_t)row.len, max);
         bson_free (ktext);
         bson_free (rtext);
         bson_destroy (doc);
         return false;
      }
      bson_uint32_to_string ((uint32_t)in_part, &idx, idxbuf, sizeof idxbuf);
      elen = build_elem (f, r);
      BSON_ASSERT (elen == ebytes);
      BSON_ASSERT (bson_init_static (&elem, f->elem, elen));
      bson_append_document (&arr, idx, -1, &elem);
      size += 1 + digits ((size_t)in_part) + 1 + ebytes;
      in_part++;
   }
   return end_doc (f, doc, &arr, in_part, size, error);
}

/* finish_master -- decide what is hoisted, build the documents (split at the cap, and at each bucket's
 * end), emit them. */
static bool
finish_master (lab_fold_t *f, bson_error_t *error)
{
   bson_value_t key;
   char *kid = NULL;
   size_t kid_len, hoisted_bytes, i;
   bool ok = false;

   if (f->nrows == 0) {
      return true;
   }
   master_key (f, &key);
   kid = lab_fold_key_id (&key, error);
   if (!kid) {
      goto done;
   }
   kid_len = strlen (kid);
   hoisted_bytes = hoist_slots (f);
   /* the order rows go into documents: by time window (--bucket-by), else as they came */
   if (!order_rows (f, &key, error)) {
      goto done;
   }
   /* the size of each bucket (the whole master without buckets) decides split / reject / fail */
   if (over_cap (f, &key, kid_len, hoisted_bytes, &ok, error) ||
       !build_docs (f, &key, kid_len, hoisted_bytes, error)) {
      goto done;
   }
   for (i = 0; i < f->ndocs; i++) {
      set_int32 (f->docs[i], LAB_FOLD_PARTS, (int32_t)f->ndocs);
   }
   f->stats.docs_out += (int64_t)f->ndocs;
   if (f->ndocs > 1) {
      f->stats.masters_split++;
   }
   {
      size_t n = f->ndocs;
      f->ndocs = 0; /* the callback owns them now */
      f->docs_bytes = 0;
      ok = f->emit (f->ctx, &key, f->docs, n, (int64_t)f->nrows, error);
   }

done:
   clear_docs (f);
   f->stats.masters++;
   f->nrows = 0;
   f->buf_len = 0;
   bson_free (kid);
   return ok;
}

/* lab_fold_row_key -- see fold.h. */
bool
lab_fold_row_key (const char *key, const bson_t *row, bson_value_t *kv, bson_error_t *error)
{
   bson_iter_t it;
   char *t;

   if (!bson_iter_init_find (&it, row, key)) {
      t = lab_fold_row_id_text (row);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "row %s has no key field '%s': every row needs one to be folded", t, key);
      bson_free (t);
      return false;
   }
   /* a shallow copy: the iterator's value does not outlive this call, the row's bytes do */
   *kv = *bson_iter_value (&it);
   if (!lab_store_key_type_supported (kv->value_type) || kv->value_type == BSON_TYPE_NULL) {
      t = lab_fold_row_id_text (row);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "row %s: key field '%s' holds a value of BSON type 0x%02x, which cannot be a fold key "
                     "(use string, int32, int64, double, ObjectId, date or bool)",
                     t, key, (unsigned)kv->value_type);
      bson_free (t);
      return false;
   }
   return true;
}

/* lab_fold_push_row -- buffer the row; a new key finishes the previous master first. */
bool
lab_fold_push_row (lab_fold_t *f, const bson_t *row, bson_error_t *error)
{
   bson_iter_t it;
   bson_value_t cur, key;
   const bson_value_t *kv = &key;
   const char *name;
   slot_t *sl;
   size_t s;
   int cmp;
   char *t1, *t2, *t3;

   if (!lab_fold_row_key (f->key, row, &key, error)) {
      return false;
   }
   if (f->nrows > 0) {
      master_key (f, &cur);
      cmp = lab_store_value_compare (kv, &cur);
      if (cmp < 0) {
         t1 = lab_fold_row_id_text (row);
         t2 = lab_value_to_text (kv);
         t3 = lab_value_to_text (&cur);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "rows are not in key order: row %s has %s=%s after %s", t1, f->key, t2, t3);
         bson_free (t1);
         bson_free (t2);
         bson_free (t3);
         return false;
      }
      if (cmp > 0 && !finish_master (f, error)) {
         return false;
      }
   }

   /* buffer the row and note where the key and the hoist fields are */
   grow ((void **)&f->buf, &f->buf_cap, f->buf_len + row->len, 1);
   grow ((void **)&f->row_off, &f->rows_cap, f->nrows + 1, sizeof (size_t));
   grow ((void **)&f->slots, &f->slots_cap, (f->nrows + 1) * f->nslots, sizeof (slot_t));
   memcpy (f->buf + f->buf_len, bson_get_data (row), row->len);
   f->row_off[f->nrows] = f->buf_len;
   f->buf_len += row->len;
   sl = &f->slots[f->nrows * f->nslots];
   memset (sl, 0, f->nslots * sizeof (slot_t));
   BSON_ASSERT (bson_iter_init (&it, row));
   while (bson_iter_next (&it)) {
      name = bson_iter_key (&it);
      for (s = 0; s < f->nslots; s++) {
         if (strcmp (name, s == 0 ? f->key : f->hoist[s - 1]) == 0) {
            if (sl[s].len) {
               sl[s].dup = true;
            } else {
               sl[s].off = it.off;
               sl[s].len = it.next_off - it.off;
            }
            break;
         }
      }
   }
   f->nrows++;
   f->stats.rows_in++;
   return true;
}

/* lab_fold_finish -- the last master. */
bool
lab_fold_finish (lab_fold_t *f, bson_error_t *error)
{
   return finish_master (f, error);
}
