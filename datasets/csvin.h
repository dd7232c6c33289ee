/*
 * csvin.h -- streaming CSV records with positions: the input is cut into records (a record ends at an
 * unquoted CR, LF or CRLF; quoted fields may hold commas, quotes as "" and newlines), and each record is
 * parsed by libcsv in strict mode. Every record comes with its file name, first line number and verbatim
 * bytes, so errors can say FILE:LINE:COL and a reject file can hold the row exactly as it was.
 *
 * A leading UTF-8 byte-order mark is skipped. Blank lines are skipped (but counted). Fields are not
 * trimmed. A malformed record (a quote inside an unquoted field, text after a closing quote, a quoted
 * field the input ends inside) is still handed to the callback, with parse_error set, so that the caller
 * applies its own --parse-grace policy. Lines and columns are 1-based; columns count bytes.
 */
#ifndef LAB_CSVIN_H
#define LAB_CSVIN_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "datasets/stream.h"

typedef struct {
   const char *data; /* NULL for an empty unquoted field; not NUL-terminated */
   size_t len;
} lab_gen_csv_field_t;

typedef struct {
   const char *file; /* display name of the input */
   int64_t number;   /* record number in the input, 1-based (blank lines not counted) */
   int64_t line;     /* physical line where the record starts */
   const char *raw;  /* verbatim bytes of the record, its line terminator included when there is one */
   size_t raw_len;
   size_t nfields;
   const lab_gen_csv_field_t *fields;
   const char *parse_error; /* NULL, or why the record is malformed (fields are then unusable) */
   size_t error_off;        /* byte offset within raw of the malformed spot */
} lab_gen_csv_record_t;

/* lab_gen_csv_record_cb_t -- called per record (pointers valid during the call only). Return false with
 * *error set to stop reading: lab_gen_csv_read then returns false with that error. */
typedef bool (*lab_gen_csv_record_cb_t) (const lab_gen_csv_record_t *rec, void *ctx, bson_error_t *error);

/* lab_gen_csv_read -- read every record of `in`; false on an input error (IO, zstd), a record over
 * `max_record_bytes` (0: 256 MiB; usually an unbalanced quote) or a callback's error. *lines (may be
 * NULL) gets the number of lines read. */
bool lab_gen_csv_read (lab_gen_input_t *in, size_t max_record_bytes, lab_gen_csv_record_cb_t cb, void *ctx,
                       int64_t *lines, bson_error_t *error);

/* lab_gen_csv_locate -- the line and column of byte `raw_off` of the record. */
void lab_gen_csv_locate (const lab_gen_csv_record_t *rec, size_t raw_off, int64_t *line, int64_t *col);

/* lab_gen_csv_field_raw_offset -- the offset within rec->raw of byte `off` of field `field` (its unescaped
 * content; for a quoted field the opening quote and doubled quotes are accounted for). For off == 0 of an
 * empty field, the field's start. */
size_t lab_gen_csv_field_raw_offset (const lab_gen_csv_record_t *rec, size_t field, size_t off);

#endif
