/*
 * csvtype.h -- typed CSV columns: mongoimport's `name.type()` header form, conversion of one field's text
 * into a BSON value, and the inverse (a BSON value into the text export writes). Pure functions.
 *
 * Types: auto, string, int32, int64, double, boolean, date, decimal, objectid.
 *   auto     -- mongoimport's rule: an integer (int32 when it fits, else int64), else a double, else a string
 *   boolean  -- true/false, t/f, 1/0 (any case, as Go's ParseBool which mongoimport uses)
 *   date     -- RFC 3339: 2024-03-05T08:15:00Z, with optional fraction (ms kept) and Z or +hh:mm offset;
 *               also a bare date 2024-03-05 (midnight UTC) and ' ' for 'T'. `date()` takes no argument.
 *   decimal  -- Decimal128 from its string form
 *   objectid -- 24 hex digits (an extension over mongoimport so that `_id` round-trips)
 * Empty fields: an empty *unquoted* field leaves the field out of the document (mongoimport's
 * --ignoreBlanks); a quoted empty field ("") is the empty string for string/auto and an error otherwise.
 */
#ifndef LAB_CSVTYPE_H
#define LAB_CSVTYPE_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stddef.h>

#include "store/keyenc.h" /* lab_buf_t */

typedef enum {
   LAB_CSV_AUTO = 0,
   LAB_CSV_STRING,
   LAB_CSV_INT32,
   LAB_CSV_INT64,
   LAB_CSV_DOUBLE,
   LAB_CSV_BOOLEAN,
   LAB_CSV_DATE,
   LAB_CSV_DECIMAL,
   LAB_CSV_OBJECTID,
} lab_gen_csv_type_t;

typedef struct {
   char *name;              /* field name (UTF-8, no '.', no leading '$', not empty) */
   lab_gen_csv_type_t type; /* LAB_CSV_AUTO when the header is untyped */
} lab_gen_csv_column_t;

typedef struct {
   lab_gen_csv_column_t *cols;
   size_t n;
} lab_gen_csv_header_t;

/* lab_gen_csv_type_name -- "int32", ...; lab_gen_csv_type_parse -- the inverse (false on unknown). */
const char *lab_gen_csv_type_name (lab_gen_csv_type_t t);
bool lab_gen_csv_type_parse (const char *s, size_t len, lab_gen_csv_type_t *out);

/* lab_gen_csv_header_add -- parse one header cell ("name" or, when typed, "name.type()") and append it.
 * Errors (LAB_ERROR_CSV) name the cell number (1-based) and say what is wrong: empty name, duplicate,
 * '.' or '$' in a name, unknown type, missing "()" when typed, invalid UTF-8. */
bool lab_gen_csv_header_add (lab_gen_csv_header_t *h, const char *cell, size_t len, bool typed,
                             bson_error_t *error);

/* lab_gen_csv_header_from_list -- a header from a comma-separated list (--fields a,b or a.int32(),b.date()).
 */
bool lab_gen_csv_header_from_list (lab_gen_csv_header_t *h, const char *list, bool typed,
                                   bson_error_t *error);

/* lab_gen_csv_header_find -- index of the column named `name`, or -1. */
ssize_t lab_gen_csv_header_find (const lab_gen_csv_header_t *h, const char *name);

/* lab_gen_csv_header_equal -- same names and types in the same order. */
bool lab_gen_csv_header_equal (const lab_gen_csv_header_t *a, const lab_gen_csv_header_t *b);

void lab_gen_csv_header_cleanup (lab_gen_csv_header_t *h);

/* lab_gen_csv_convert -- append field `data`/`len` (data NULL: an empty unquoted field) to `doc` under the
 * column's name and type. Returns true when appended or deliberately left out (*appended tells which);
 * false when the text is not a valid value of the type: `why` gets the reason (e.g. "'12x' is not an
 * int32") and *bad_off the byte offset within the field where the problem is (0 unless it is an invalid
 * UTF-8 sequence or NUL byte). */
bool lab_gen_csv_convert (const lab_gen_csv_column_t *col, const char *data, size_t len, bson_t *doc,
                          bool *appended, char *why, size_t why_len, size_t *bad_off);

/* lab_gen_utf8_check -- true if s[0..len) is valid UTF-8 without NUL bytes (no overlongs, surrogates or
 * code points over U+10FFFF); otherwise *bad_off (may be NULL) gets the offset of the first bad byte. */
bool lab_gen_utf8_check (const char *s, size_t len, size_t *bad_off);

/* lab_gen_csv_parse_date -- RFC 3339 (see above) into ms since the epoch; false if malformed. */
bool lab_gen_csv_parse_date (const char *s, size_t len, int64_t *ms);

/* lab_gen_csv_format_date -- RFC 3339 UTC with milliseconds only when non-zero ("2024-03-05T08:15:00Z",
 * "...00.250Z"); years 0..9999 only (false outside). buf needs 32 bytes. */
bool lab_gen_csv_format_date (int64_t ms, char *buf, size_t len);

/* lab_gen_csv_type_of -- the column type export uses for a BSON type; false for types CSV cannot carry
 * (null, arrays, documents, binary, regex, ...). */
bool lab_gen_csv_type_of (bson_type_t t, lab_gen_csv_type_t *out);

/* lab_gen_csv_format_value -- append the text of the value at `it` for a column of type `t` to `out`
 * (unquoted; the CSV writer quotes). The value's type must be the one lab_gen_csv_type_of maps to t. Doubles
 * are written in the shortest form that reads back to the same bits ("NaN", "Infinity", "-Infinity" for the
 * specials). False with `why` for a value CSV cannot carry faithfully (other type, a string with a NUL byte
 * or invalid UTF-8, a date outside years 0..9999). */
bool lab_gen_csv_format_value (const bson_iter_t *it, lab_gen_csv_type_t t, lab_buf_t *out, char *why,
                               size_t why_len);

#endif
