/*
 * fold_private.h -- what fold.c, fold_names.c and fold_rows.c share (not part of the module's interface)
 */
#pragma once

#include "fold.h"

#include <bson/bson.h>

/* a byte range of a document: an element's offset and length */
typedef lab_rowhash_range_t range_t;

/* lab_fold_row_id_text -- the row's `_id` as relaxed JSON for messages (caller bson_free()s). */
char *lab_fold_row_id_text (const bson_t *row);

/* lab_fold_name_reserved -- whether `name` is a field the fold writes itself. */
bool lab_fold_name_reserved (const char *name, const char *array_field);

/* lab_fold_name_plain -- a top-level field name: not empty, no leading '$', no '.'. */
bool lab_fold_name_plain (const char *name);
