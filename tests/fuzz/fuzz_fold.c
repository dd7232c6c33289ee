/*
 * fuzz_fold.c -- libFuzzer harness of the fold (etl/fold.h): random rows in key order (numeric keys of
 * mixed types that MongoDB calls equal, or string keys; random fields of random types and sizes, some of
 * them hoistable, a row's own _id) are folded with a random cap (1 KiB .. 33 KiB), --on-oversize mode and
 * --bucket-rows (none or 1..7). Checked: no document exceeds the cap or the bucket's rows; every document's
 * row_count, part and parts are consistent; the documents unfolded, followed in the same master order by the
 * rows handed to the reject callback, give back exactly the rows pushed (canonical hashes, in order). The
 * same rows also feed the --hoist auto sampler. A fold may fail only in fail mode or for a row too large for
 * any document. LAB_FUZZ_DEBUG=1 prints a document found over the cap.
 */
#include "store/keyenc.h"
#include "core/error.h"
#include "etl/fold.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 96
#define NPOOL 6
static const char *const pool[NPOOL] = { "a", "b", "c", "d", "e", "_id" };

typedef struct {
   lab_fold_hash_t got[MAX_ROWS];
   size_t ngot;
   int64_t cap;
   int32_t bucket_rows;
   const char *bad; /* the first check that failed */
} sink_t;

/* collect -- one unfolded row. */
static bool
collect (void *ctx, const bson_t *row, bson_error_t *error)
{
   sink_t *s = ctx;
   (void)error;
   if (s->ngot == MAX_ROWS) {
      s->bad = "more rows out than in";
      return true;
   }
   s->got[s->ngot++] = lab_fold_row_hash (row);
   return true;
}

/* on_emit -- check and unfold one master's documents. */
static bool
on_emit (void *ctx, const bson_value_t *key, bson_t **docs, size_t ndocs, int64_t nrows, bson_error_t *error)
{
   sink_t *s = ctx;
   int64_t rows = 0;

   for (size_t i = 0; i < ndocs; i++) {
      lab_fold_doc_info_t info;
      if ((int64_t)docs[i]->len > s->cap && !s->bad) {
         s->bad = "a document over the cap";
         if (getenv ("LAB_FUZZ_DEBUG")) {
            char *js = bson_as_relaxed_extended_json (docs[i], NULL);
            fprintf (stderr, "doc %zu of %zu: %u bytes: %s\n", i, ndocs, docs[i]->len, js);
            bson_free (js);
         }
      }
      if (!lab_fold_unfold (docs[i], "k", "details", collect, s, &info, error)) {
         s->bad = s->bad ? s->bad : "the fold wrote a document its own unfold refuses";
      } else if (info.part != (int32_t)i || info.parts != (int32_t)ndocs ||
                 lab_store_value_compare (&info.key, key) != 0) {
         s->bad = s->bad ? s->bad : "part, parts or key wrong";
      } else if (s->bucket_rows > 0 && info.row_count > s->bucket_rows) {
         s->bad = s->bad ? s->bad : "a document over --bucket-rows";
      } else {
         rows += info.row_count;
      }
      bson_destroy (docs[i]);
   }
   if (rows != nrows && !s->bad) {
      s->bad = "row_count does not add up to nrows";
   }
   return true;
}

/* on_reject -- a master refused whole: its rows come back as they were. */
static bool
on_reject (void *ctx, const bson_value_t *key, const bson_t *const *rows, size_t nrows, const char *reason,
           bson_error_t *error)
{
   (void)key;
   (void)reason;
   for (size_t i = 0; i < nrows; i++) {
      collect (ctx, rows[i], error);
   }
   return true;
}

/* append_random -- one field of a random type; small value spaces so that rows often agree. */
static void
append_random (lab_fuzz_bytes_t *b, bson_t *row, const char *name)
{
   uint8_t t = lab_fuzz_u8 (b);
   char s[4096];
   bson_t sub;

   switch (t % 9) {
   case 0:
      BSON_APPEND_INT32 (row, name, t >> 6);
      break;
   case 1:
      BSON_APPEND_INT64 (row, name, t >> 6);
      break;
   case 2:
      BSON_APPEND_DOUBLE (row, name, (t >> 6) * 0.5);
      break;
   case 3: {
      size_t n = (size_t)lab_fuzz_u8 (b) * ((t >> 4) & 15) + 1;
      if (n >= sizeof s) {
         n = sizeof s - 1;
      }
      memset (s, 'x', n);
      s[n] = '\0';
      s[0] = (char)('a' + (t >> 6));
      bson_append_utf8 (row, name, -1, s, (int)n);
      break;
   }
   case 4:
      BSON_APPEND_BOOL (row, name, t & 0x80);
      break;
   case 5:
      BSON_APPEND_NULL (row, name);
      break;
   case 6:
      BSON_APPEND_DOCUMENT_BEGIN (row, name, &sub);
      BSON_APPEND_INT32 (&sub, "z", t >> 6);
      BSON_APPEND_INT32 (&sub, "a", 1);
      bson_append_document_end (row, &sub);
      break;
   case 7:
      BSON_APPEND_ARRAY_BEGIN (row, name, &sub);
      BSON_APPEND_INT32 (&sub, "0", t >> 6);
      BSON_APPEND_UTF8 (&sub, "1", "y");
      bson_append_array_end (row, &sub);
      break;
   default: {
      int64_t ms = (int64_t)(t >> 6) * 1000;
      BSON_APPEND_DATE_TIME (row, name, ms);
      break;
   }
   }
}

/* LLVMFuzzerTestOneInput -- build rows, fold, unfold, compare. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   lab_fuzz_bytes_t b = { data, len };
   const char *hoist[NPOOL];
   bson_t *rows[MAX_ROWS];
   lab_fold_hash_t want[MAX_ROWS];
   size_t nrows, nhoist = 0;
   lab_fold_opts_t o = { 0 };
   sink_t s = { 0 };
   bson_error_t error;
   lab_fold_t *f;
   lab_fold_hoist_sampler_t *sampler;
   uint8_t hoist_bits, mode;
   bool string_keys, ok = true;
   int64_t key = 0;

   lab_fuzz_setup ();
   o.key = "k";
   o.array_field = "details";
   o.max_doc_bytes = 1024 + (int64_t)(lab_fuzz_u32 (&b) % 32768);
   mode = lab_fuzz_u8 (&b);
   o.on_oversize = (lab_fold_oversize_t)(mode % 3);
   string_keys = mode & 0x80;
   o.bucket_rows = (mode >> 3) & 7; /* 0: no buckets */
   hoist_bits = lab_fuzz_u8 (&b);
   for (size_t i = 0; i < NPOOL - 1; i++) { /* never _id: lab_fold_opts_check refuses it */
      if (hoist_bits & (1u << i)) {
         hoist[nhoist++] = pool[i];
      }
   }
   o.hoist = hoist;
   o.nhoist = nhoist;
   s.cap = o.max_doc_bytes;
   s.bucket_rows = o.bucket_rows;

   nrows = lab_fuzz_u8 (&b) % MAX_ROWS;
   for (size_t r = 0; r < nrows; r++) {
      uint8_t k = lab_fuzz_u8 (&b);
      uint8_t present = lab_fuzz_u8 (&b);
      rows[r] = bson_new ();
      if ((k & 3) == 0) {
         key += 1 + (k >> 5);
      }
      if (string_keys) {
         char ks[32];
         bson_snprintf (ks, sizeof ks, "K%06d", (int)key);
         BSON_APPEND_UTF8 (rows[r], "k", ks);
      } else if ((k >> 2) % 3 == 0) {
         BSON_APPEND_INT32 (rows[r], "k", (int32_t)key);
      } else if ((k >> 2) % 3 == 1) {
         BSON_APPEND_INT64 (rows[r], "k", key);
      } else {
         BSON_APPEND_DOUBLE (rows[r], "k", (double)key);
      }
      for (size_t i = 0; i < NPOOL; i++) {
         if (present & (1u << i)) {
            append_random (&b, rows[r], pool[i]);
         }
      }
      want[r] = lab_fold_row_hash (rows[r]);
   }

   f = lab_fold_new (&o, on_emit, on_reject, &s, &error);
   if (!f) {
      abort (); /* the options are valid by construction */
   }
   sampler = lab_fold_hoist_sampler_new ("k", "details", 1 + (hoist_bits >> 5));
   for (size_t r = 0; r < nrows && ok; r++) {
      ok = lab_fold_push_row (f, rows[r], &error);
      (void)lab_fold_hoist_sampler_push (sampler, rows[r]);
   }
   if (ok) {
      ok = lab_fold_finish (f, &error);
   }
   if (s.bad) {
      fprintf (stderr, "fuzz_fold: %s (cap %lld)\n", s.bad, (long long)s.cap);
      abort ();
   }
   if (ok) {
      if (s.ngot != nrows) {
         abort (); /* rows lost or duplicated */
      }
      for (size_t r = 0; r < nrows; r++) {
         if (want[r].lo != s.got[r].lo || want[r].hi != s.got[r].hi) {
            abort (); /* a row did not come back exactly */
         }
      }
   } else if (o.on_oversize != LAB_FOLD_OVERSIZE_FAIL && error.code != LAB_STORE_ERR_DOC_TOO_LARGE) {
      abort (); /* a fold failed for another reason than a row too large for any document */
   }
   {
      char **fields;
      size_t nfields;
      int64_t nm;
      lab_fold_hoist_sampler_result (sampler, &fields, &nfields, &nm);
      bson_strfreev (fields);
   }
   lab_fold_hoist_sampler_destroy (sampler);
   lab_fold_destroy (f);
   for (size_t r = 0; r < nrows; r++) {
      bson_destroy (rows[r]);
   }
   return 0;
}
