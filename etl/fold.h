/*
 * fold.h -- the pure fold logic of fold-details: detail rows in, one array document per master out.
 *
 * No store here: rows are pushed one at a time in key order (lab_fold_push_row), and each master's
 * finished documents come out through a callback once the master ends. The exact BSON size of every
 * document is computed while it is built, so a master is split exactly at the cap. Memory is bounded by
 * one master's rows plus its documents.
 *
 * Folded document shape (field order as written):
 *   { _id: "<key id>#<part>", <key>: value, <hoisted fields...>, row_count: int32, part: int32,
 *     parts: int32, <array_field>: [ row without the hoisted fields, ... ] }
 * A hoisted field is hoisted for a master only when every row of that master has it; its top-level
 * value is the first row's, and a row whose value differs (including a key of another numeric type)
 * keeps the field in its element, so unfolding (top-level fields under the element's) is lossless.
 * `_id`, `row_count`, `part`, `parts`, `bucket_start` and the array field are never hoisted; a row's own
 * `_id` always stays in its element.
 *
 * Buckets (the bucket pattern): with `bucket_rows` N a part also closes after N rows; with `bucket_field`
 * and `bucket_unit` a master's rows are grouped by the time window (UTC hour, day, ISO week from Monday,
 * calendar month) their date field falls in, each window in its own part(s) in ascending window order, rows
 * of one window in their input order, and every such document carries `bucket_start: <date>` (the window's
 * first instant) after `parts`. A bucket continues in further parts exactly as an oversize master does (the
 * cap and N still apply). A row without the field or whose field is not a BSON date stops the fold with an
 * error naming the row's `_id`. Under --on-oversize reject/fail the cap is checked per bucket.
 *
 * Also here, because verification and tests need them without a store: unfolding a folded document,
 * the per-row hash (a digest of the row's set of typed fields, recursively: field order does not matter,
 * types, values and array order do), the deterministic `_id`, and the sampler behind `--hoist auto`.
 */
#ifndef LAB_FOLD_H
#define LAB_FOLD_H

#include "core/rowhash.h" /* the row digest, and the names a folded document uses itself (LAB_FOLD_*) */

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

/* Time windows of --bucket-by FIELD:UNIT. */
typedef enum {
   LAB_BUCKET_NONE = 0,
   LAB_BUCKET_HOUR,
   LAB_BUCKET_DAY,
   LAB_BUCKET_WEEK, /* ISO weeks: Monday 00:00 UTC */
   LAB_BUCKET_MONTH,
} lab_fold_bucket_unit_t;

/* What fold-details writes (--shape): folded documents (the fold), or the rows unchanged, one document each.
 * sorted: the source's rows copied in (key, original order) -- same _id, same fields, a key index -- so the
 * copy differs from its source only in where the rows sit. clustered: the rows in a clustered collection
 * (fold_run_rows.c). copy: every document of the source as it is, in the source's natural order, with the
 * source's indexes built after the data -- a marked copy of a collection layoutlab did not write, for the
 * write workloads that only run on collections layoutlab wrote (fold_run_copy.c). */
typedef enum {
   LAB_FOLD_SHAPE_FOLDED = 0,
   LAB_FOLD_SHAPE_SORTED,
   LAB_FOLD_SHAPE_CLUSTERED,
   LAB_FOLD_SHAPE_COPY,
} lab_fold_shape_t;

/* The names of --shape, in lab_fold_shape_t order, NULL-terminated. */
extern const char *const lab_fold_shape_names[];

/* lab_fold_shape_name -- "folded", "sorted", "clustered", "copy". */
const char *lab_fold_shape_name (lab_fold_shape_t shape);

/* lab_fold_shape_rows -- the shape writes one document per source row (sorted, clustered, copy). */
bool lab_fold_shape_rows (lab_fold_shape_t shape);

/* lab_fold_shape_natural -- the shape reads the source in its natural order, one cursor, no key index
 * walked (clustered, copy); a resumed run starts again from the first row, the rows already written
 * counted as written. */
bool lab_fold_shape_natural (lab_fold_shape_t shape);

/* What a fold reads and writes and the shape of what it writes: the settings fold-details' run
 * (lab_fold_run_opts_t) and its verification (lab_fold_verify_opts_t) share, held once in each (--src, --dst,
 * --key, --array-field, --max-doc-bytes, --bucket-rows, --bucket-by). */
typedef struct {
   const char *src;         /* the rows' collection */
   const char *dst;         /* the folded documents' collection */
   const char *key;         /* master key field ("bill_id") */
   const char *array_field; /* the rows' array in a folded document ("details") */
   int64_t max_doc_bytes;   /* the document cap (0: the server's maxBsonObjectSize) */
   int32_t bucket_rows;     /* at most this many rows per document (0: no limit) */
   const char *bucket_by;   /* "FIELD:UNIT": one document per master and time window (NULL: none) */
   lab_fold_shape_t shape;  /* what the destination holds (--shape; 0: folded documents) */
} lab_fold_target_t;

typedef enum {
   LAB_FOLD_OVERSIZE_SPLIT = 0, /* continue the master in further documents */
   LAB_FOLD_OVERSIZE_REJECT,    /* hand the master's rows to the reject callback */
   LAB_FOLD_OVERSIZE_FAIL,      /* stop with an error */
} lab_fold_oversize_t;

typedef struct {
   const char *key;          /* key field (top-level, no dots, not "_id") */
   const char *array_field;  /* "details" */
   const char *const *hoist; /* fields to hoist (not the key); may be NULL when nhoist is 0 */
   size_t nhoist;
   int64_t max_doc_bytes; /* cap on every folded document (e.g. 16 MiB) */
   lab_fold_oversize_t on_oversize;
   int32_t bucket_rows;                /* at most this many rows per document; 0: no limit */
   const char *bucket_field;           /* date field of the time windows; NULL: none */
   lab_fold_bucket_unit_t bucket_unit; /* with bucket_field */
} lab_fold_opts_t;

typedef struct {
   int64_t rows_in;
   int64_t masters;
   int64_t docs_out;
   int64_t masters_split;
   int64_t masters_rejected;
   int64_t rows_rejected;
   int64_t largest_doc_bytes;
} lab_fold_stats_t;

/* lab_fold_emit_cb_t -- one master's documents (ndocs >= 1, `parts` already set). The callback owns
 * the documents from the call on, whatever it returns (bson_destroy each). `key` is valid only during
 * the call. Return false with *error to stop the fold. */
typedef bool (*lab_fold_emit_cb_t) (void *ctx, const bson_value_t *key, bson_t **docs, size_t ndocs,
                                    int64_t nrows, bson_error_t *error);

/* lab_fold_reject_cb_t -- a master that does not fit under --on-oversize reject: its original rows
 * (valid only during the call) and the reason. Return false with *error to stop the fold. */
typedef bool (*lab_fold_reject_cb_t) (void *ctx, const bson_value_t *key, const bson_t *const *rows,
                                      size_t nrows, const char *reason, bson_error_t *error);

typedef struct lab_fold lab_fold_t;

/* ---- buckets ----------------------------------------------------------------------------------- */

/* lab_fold_bucket_unit_name -- "hour", "day", "week", "month" ("none" for LAB_BUCKET_NONE). */
const char *lab_fold_bucket_unit_name (lab_fold_bucket_unit_t unit);

/* lab_fold_bucket_spec_parse -- "FIELD:UNIT" (UNIT hour|day|week|month) into *field (caller bson_free()s) and
 * *unit; LAB_ERROR_USAGE naming what is wrong. */
bool lab_fold_bucket_spec_parse (const char *spec, char **field, lab_fold_bucket_unit_t *unit,
                                 bson_error_t *error);

/* lab_fold_bucket_window -- the first instant (ms since the epoch, UTC) of the window holding `ms`, and in
 * *end_ms (may be NULL) the first instant of the next window. Pure; any int64 date is fine. */
int64_t lab_fold_bucket_window (int64_t ms, lab_fold_bucket_unit_t unit, int64_t *end_ms);

/* lab_fold_opts_check -- validate options (names, reserved fields, cap); LAB_ERROR_USAGE on error. */
bool lab_fold_opts_check (const lab_fold_opts_t *opts, bson_error_t *error);

/* lab_fold_new -- a folder; options are copied. `reject` may be NULL unless on_oversize is REJECT.
 * NULL with *error when the options are invalid. */
lab_fold_t *lab_fold_new (const lab_fold_opts_t *opts, lab_fold_emit_cb_t emit, lab_fold_reject_cb_t reject,
                          void *ctx, bson_error_t *error);

/* lab_fold_row_key -- the value of `row`'s fold key `key` into *kv (a shallow copy: its strings point into
 * the row): false with LAB_STORE_ERR_KEY_TYPE naming the row's _id when the row has no such field, or its
 * value cannot be a fold key (null, array, document...). The check lab_fold_push_row makes of every row. */
bool lab_fold_row_key (const char *key, const bson_t *row, bson_value_t *kv, bson_error_t *error);

/* lab_fold_push_row -- add the next row (rows must come in key order; the row is copied). A change of
 * key finishes the previous master (the callback runs). Errors: a row without the key, a key of an
 * unsupported type, keys out of order, a master that cannot be folded (FAIL mode, or a row too large
 * to fit a document even alone), or the callback's error. */
bool lab_fold_push_row (lab_fold_t *f, const bson_t *row, bson_error_t *error);

/* lab_fold_finish -- finish the last master. Call once after the last row. */
bool lab_fold_finish (lab_fold_t *f, bson_error_t *error);

/* lab_fold_stats -- counters so far. */
const lab_fold_stats_t *lab_fold_stats (const lab_fold_t *f);

/* lab_fold_buffered_bytes -- bytes held for the current master (rows and documents being built). */
size_t lab_fold_buffered_bytes (const lab_fold_t *f);

void lab_fold_destroy (lab_fold_t *f);

/* ---- deterministic ids ------------------------------------------------------------------------- */

/* lab_fold_key_id -- a string naming the key value that is equal exactly when the values are equal in
 * MongoDB's comparison (1, 1L and 1.0 give the same): "n:1", "s:B0001", "o:<hex>", "d:<ms>",
 * "b:true", "null". Caller bson_free()s. NULL with *error for unsupported types. */
char *lab_fold_key_id (const bson_value_t *key, bson_error_t *error);

/* lab_fold_doc_id -- "<key id>#<part>": the `_id` of part `part` of the master (caller bson_free()s). */
char *lab_fold_doc_id (const bson_value_t *key, int32_t part, bson_error_t *error);

/* ---- unfolding and hashing --------------------------------------------------------------------- */

/* lab_fold_row_cb_t -- one unfolded row (valid only during the call); return false with *error to stop. */
typedef bool (*lab_fold_row_cb_t) (void *ctx, const bson_t *row, bson_error_t *error);

typedef struct {
   bson_value_t key;  /* the document's key (points into the document) */
   int32_t row_count; /* rows the document says it holds */
   int32_t part;
   int32_t parts;
   bool has_bucket_start; /* the document carries a date bucket_start (--bucket-by) */
   int64_t bucket_start_ms;
} lab_fold_doc_info_t;

/* lab_fold_unfold -- rebuild the rows of a folded document: each element's fields plus the document's
 * hoisted fields (every top-level field but _id, row_count, part, parts, bucket_start and the array) that
 * the element does not have. Checks the shape (key present, array of documents, row_count equals its
 * length, part in [0, parts)); LAB_ERROR_VERIFY naming the document's _id when it is wrong. `info` may be
 * NULL. */
bool lab_fold_unfold (const bson_t *doc, const char *key, const char *array_field, lab_fold_row_cb_t cb,
                      void *ctx, lab_fold_doc_info_t *info, bson_error_t *error);

/* sums (mod 2^64) of the two halves of each row's 128-bit digest: order-independent (core/rowhash.h) */
typedef lab_rowhash_t lab_fold_hash_t;

/* lab_fold_row_hash -- the row's 128-bit digest: each field's XXH3-128 over its BSON element (type byte,
 * name, value; a document or array value through its own digest, recursively), summed over the row's fields
 * (so their order does not matter), the sum mixed by a seeded XXH3-128 (so a value moved between two rows
 * changes both). Equal for rows holding the same named, typed values in any field order; an int32 3 and
 * a double 3.0 differ, and so do arrays in another order. Bytes that do not walk as BSON are hashed whole.
 * No allocation, no copy: what --verify runs on every row of both sides. */
lab_fold_hash_t lab_fold_row_hash (const bson_t *row);

/* lab_fold_hash_add -- acc += h (each half mod 2^64). */
void lab_fold_hash_add (lab_fold_hash_t *acc, lab_fold_hash_t h);

/* lab_fold_unfold_hash -- lab_fold_unfold's checks, and *acc += lab_fold_row_hash of every row it would
 * rebuild, computed from the document in place (no row is built): what --verify does per document. On
 * success info->row_count rows were hashed. `info` may be NULL. */
bool lab_fold_unfold_hash (const bson_t *doc, const char *key, const char *array_field, lab_fold_hash_t *acc,
                           lab_fold_doc_info_t *info, bson_error_t *error);

/* ---- --hoist auto ------------------------------------------------------------------------------ */

typedef struct lab_fold_hoist_sampler lab_fold_hoist_sampler_t;

/* lab_fold_hoist_sampler_new -- collect evidence from up to `max_masters` masters (rows in key order). */
lab_fold_hoist_sampler_t *lab_fold_hoist_sampler_new (const char *key, const char *array_field,
                                                      int64_t max_masters);

/* lab_fold_hoist_sampler_push -- add a row; returns false once enough masters were seen (stop reading).
 * Rows without the key are ignored here (the fold itself reports them). */
bool lab_fold_hoist_sampler_push (lab_fold_hoist_sampler_t *s, const bson_t *row);

/* lab_fold_hoist_sampler_result -- the fields present in every sampled row whose value is the same within
 * each sampled master of two or more rows (none when no such master was seen), in first-seen order.
 * *fields is a NULL-terminated array; free with bson_strfreev. *nmasters (may be NULL): masters seen. */
void lab_fold_hoist_sampler_result (lab_fold_hoist_sampler_t *s, char ***fields, size_t *nfields,
                                    int64_t *nmasters);

void lab_fold_hoist_sampler_destroy (lab_fold_hoist_sampler_t *s);

#endif
