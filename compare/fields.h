/*
 * fields.h -- reading the typed fields of a results file's entries (the workloads, the mix), private to
 * compare/: each getter takes the field at a dotted path, treats absent or null as unknown, and refuses a
 * field of the wrong type with a message naming the entry (`where`) and the field.
 */
#ifndef LAB_COMPARE_FIELDS_H
#define LAB_COMPARE_FIELDS_H

#include <bson/bson.h>
#include <stdbool.h>

#include "core/results.h"

/* lab_cmp_field_find -- the iterator at dotted `path` of `doc`; false when absent or null. */
bool lab_cmp_field_find (const bson_t *doc, const char *path, bson_iter_t *out);

/* lab_cmp_field_figure -- the figure at `path`: -1 (unknown) when absent, null or -1; refused when not a
 * number of at least 0. With `required` (the clause after 'no "path"', e.g. ", which every mix carries"),
 * absent and -1 are refused too. */
bool lab_cmp_field_figure (const bson_t *doc, const char *path, const char *required, const char *where,
                           double *out, bson_error_t *error);

/* lab_cmp_field_flag -- the boolean at `key`: 1 or 0; -1 when absent or null; refused when not a boolean. */
bool lab_cmp_field_flag (const bson_t *doc, const char *key, const char *where, int *out,
                         bson_error_t *error);

/* lab_cmp_field_string -- the string at `key` (a view), NULL when absent or null; refused when not a
 * string. */
bool lab_cmp_field_string (const bson_t *doc, const char *key, const char *where, const char **out,
                           bson_error_t *error);

/* lab_cmp_field_view -- *out a view of the object (or, with `array`, the array) at `key`; empty when
 * absent or null (*found false); refused when of another type. */
bool lab_cmp_field_view (const bson_t *doc, const char *key, bool array, const char *where, bson_t *out,
                         bool *found, bson_error_t *error);

/* lab_cmp_field_entry -- a view of array element `it` as an object; refused (naming `what`) when not one. */
bool lab_cmp_field_entry (const bson_iter_t *it, const char *what, bson_t *out, bson_error_t *error);

/* lab_cmp_field_runs -- the per-run figures of an entry for the one rule (core/results.h): `runs`, an array
 * of {run, <key>} (run: the 1-based run number it pairs by), as a stat over them; without `runs`, `single`
 * (the entry's own figure) as one run. Refused, naming `where`, when `runs` is not an array of objects each
 * with a number at `key`. */
bool lab_cmp_field_runs (const bson_t *doc, const char *key, double single, const char *where,
                         lab_stat_t *out, bson_error_t *error);

#endif
