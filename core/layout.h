/*
 * layout.h -- one layout descriptor: what a candidate collection holds and how, in one value. fold-details
 * writes its destination's descriptor into the collection's _layoutlab record, scancmp makes each
 * layout's descriptor once at the start of a run (its options, that record, the store) and writes it into
 * the results file's layouts[], and layout-report reads it back. The tools switch on the query functions
 * below, never on a layout's name, kind or shape themselves: a new candidate is a new descriptor.
 */
#ifndef LAB_CORE_LAYOUT_H
#define LAB_CORE_LAYOUT_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

/* How a master's rows are stored, so how a loaded document counts its rows (results.h's kinds). */
typedef enum {
   LAB_LAYOUT_ROWS = 0, /* one document per row */
   LAB_LAYOUT_FOLDED,   /* one document per master, its rows in an array */
   LAB_LAYOUT_BUCKETS,  /* several documents per master, each an array of rows */
} lab_layout_kind_t;

/* Where the documents sit: what wrote them and in which order. */
typedef enum {
   LAB_LAYOUT_NATURAL = 0, /* rows in arrival order, written by anything but fold-details */
   LAB_LAYOUT_COPY,        /* fold-details --shape copy: the source unchanged, natural order */
   LAB_LAYOUT_SORTED,      /* fold-details --shape sorted (or --copy-only): rows in key order */
   LAB_LAYOUT_CLUSTERED,   /* fold-details --shape clustered: rows in _id {<key>, id} order */
   LAB_LAYOUT_FOLD,        /* fold-details --shape folded: the fold (kind folded or buckets) */
} lab_layout_shape_t;

/* One layout. The strings are copies (the descriptor outlives the record or file it came from). */
typedef struct {
   char name[64];        /* the role: detail, folded, sorted, clustered, buckets, copy, ... */
   char collection[256]; /* "" when not known */
   lab_layout_kind_t kind;
   lab_layout_shape_t shape;
   char key[128];             /* the master key field ("" when not known) */
   char array_field[128];     /* the rows' array (kinds folded and buckets; "" otherwise) */
   char hoist[256];           /* the hoisted fields, comma-separated ("" none) */
   int32_t bucket_rows;       /* at most this many rows per document (0: no limit) */
   char bucket_by[64];        /* "FIELD:UNIT" time windows ("" none) */
   char block_compressor[32]; /* the collection's block compressor ("" when not known) */
   bool clustered;            /* records kept in _id order (a clustered collection) */
   bool recorded;             /* the descriptor came from a _layoutlab record or a results file */
} lab_layout_t;

/* lab_layout_kind_name -- "rows", "folded", "buckets" (results.h LAB_RESULTS_KIND_*). */
const char *lab_layout_kind_name (lab_layout_kind_t kind);

/* lab_layout_kind_parse -- the kind named `s`; false when it names none. */
bool lab_layout_kind_parse (const char *s, lab_layout_kind_t *kind);

/* lab_layout_shape_name -- "natural", "copy", "sorted", "clustered", "folded". */
const char *lab_layout_shape_name (lab_layout_shape_t shape);

/* lab_layout_shape_parse -- the shape named `s` (fold-details --shape's names and "natural"). */
bool lab_layout_shape_parse (const char *s, lab_layout_shape_t *shape);

/* lab_layout_init -- a descriptor from what a user says: name, collection (NULL: ""), kind (a kind name;
 * NULL or unknown: rows); the shape follows the kind (rows: natural, else the fold). */
void lab_layout_init (lab_layout_t *l, const char *name, const char *collection, const char *kind);

/* ---- the questions the tools ask (the only tests of a layout's nature) ---------------------------- */

/* lab_layout_reads_rows -- one document per row: a loaded document counts one row. */
bool lab_layout_reads_rows (const lab_layout_t *l);

/* lab_layout_doc_holds_many_rows -- a document holds a master's rows in its array field. */
bool lab_layout_doc_holds_many_rows (const lab_layout_t *l);

/* lab_layout_one_doc_per_master -- a master's rows are one document (the fold, no buckets). */
bool lab_layout_one_doc_per_master (const lab_layout_t *l);

/* lab_layout_bucketed -- a master's rows are split over several documents (the bucket pattern). */
bool lab_layout_bucketed (const lab_layout_t *l);

/* lab_layout_key_contiguous -- a master's rows sit together in key order (sorted, clustered, the fold),
 * not in their arrival order. */
bool lab_layout_key_contiguous (const lab_layout_t *l);

/* lab_layout_read_by_id_range -- a master's rows are read as an _id range of a clustered collection, not
 * through an index on the key. */
bool lab_layout_read_by_id_range (const lab_layout_t *l);

/* ---- its JSON form ---------------------------------------------------------------------------------- */

/* lab_layout_append -- append the descriptor to `doc` as document `field`. */
void lab_layout_append (bson_t *doc, const char *field, const lab_layout_t *l);

/* lab_layout_from_bson -- the descriptor in `doc` (lab_layout_append's form): name and kind required, the
 * rest defaulted; false, naming what is wrong, when a field has the wrong type or an unknown value. */
bool lab_layout_from_bson (const bson_t *doc, lab_layout_t *l, bson_error_t *error);

/* lab_layout_from_fold -- the descriptor of a collection fold-details wrote, from its _layoutlab record's
 * params (key, array_field, hoist, shape, bucket_rows, bucket_by, block_compressor, copy_only, and the
 * descriptor itself when the record has one). */
bool lab_layout_from_fold (const bson_t *params, const char *name, const char *collection, lab_layout_t *l,
                           bson_error_t *error);

#endif
