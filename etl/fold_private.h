/*
 * fold_private.h -- what fold.c, fold_doc.c, fold_names.c and fold_rows.c share (not part of the module's
 * interface): the folder's state, and the element documents fold.c assembles with fold_doc.c
 */
#pragma once

#include "fold.h"

#include <bson/bson.h>
#include <string.h>

/* a byte range of a document: an element's offset and length */
typedef lab_rowhash_range_t range_t;

/* lab_fold_row_id_text -- the row's `_id` as relaxed JSON for messages (caller bson_free()s). */
char *lab_fold_row_id_text (const bson_t *row);

/* lab_fold_name_reserved -- whether `name` is a field the fold writes itself. */
bool lab_fold_name_reserved (const char *name, const char *array_field);

/* lab_fold_name_plain -- a top-level field name: not empty, no leading '$', no '.'. */
bool lab_fold_name_plain (const char *name);

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

/* The tracked slot of the field at one position of the last row, and that field's name: the rows of a
 * collection mostly hold the same fields in the same order, so one comparison settles a field where the
 * search compared it with every tracked name (lab_fold_push_row). */
#define LAB_FOLD_NAME_CACHE 64       /* field positions remembered */
#define LAB_FOLD_NAME_CACHE_BYTES 40 /* names up to this long (with their NUL) */
typedef struct {
   int slot;   /* -1: no tracked field */
   size_t len; /* 0: nothing remembered */
   char name[LAB_FOLD_NAME_CACHE_BYTES];
} name_cache_t;

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
   name_cache_t names[LAB_FOLD_NAME_CACHE];

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

/* lab_fold_grow -- ensure *cap >= need elements of `size` bytes in *p. */
static inline void
lab_fold_grow (void **p, size_t *cap, size_t need, size_t size)
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

/* lab_fold_row_at -- a static view of buffered row i. */
static inline void
lab_fold_row_at (const lab_fold_t *f, size_t i, bson_t *row)
{
   const uint8_t *p = f->buf + f->row_off[i];
   uint32_t len;

   memcpy (&len, p, 4);
   len = BSON_UINT32_FROM_LE (len);
   BSON_ASSERT (bson_init_static (row, p, len));
}

/* ---- fold_doc.c: the documents being built, sized exactly ---- */

/* lab_fold_doc_digits -- length of the decimal form of i (array index keys). */
size_t lab_fold_doc_digits (size_t i);

/* lab_fold_doc_header_bytes -- a folded document's size with an empty array, for part `part`. */
size_t lab_fold_doc_header_bytes (const lab_fold_t *f, size_t kid_len, int32_t part, size_t hoisted_bytes);

/* lab_fold_doc_elem_bytes -- the size of row r's element document. */
size_t lab_fold_doc_elem_bytes (const lab_fold_t *f, size_t r);

/* lab_fold_doc_build_elem -- assemble row r's element document into f->elem (returns its length). */
size_t lab_fold_doc_build_elem (lab_fold_t *f, size_t r);

/* lab_fold_doc_start -- a new part: _id, key, hoisted fields, counters (filled later), the bucket's window
 * start (--bucket-by), array begun. */
bool lab_fold_doc_start (lab_fold_t *f, const bson_value_t *key, int32_t part, int64_t win_ms, bson_t **doc,
                         bson_t *arr, bson_error_t *error);

/* lab_fold_doc_set_int32 -- overwrite an int32 field of a finished document in place. */
void lab_fold_doc_set_int32 (bson_t *doc, const char *name, int32_t v);

/* lab_fold_doc_end -- close the array, fill row_count, check the size against the computed one. */
bool lab_fold_doc_end (lab_fold_t *f, bson_t *doc, bson_t *arr, int32_t nrows, size_t expect,
                       bson_error_t *error);
