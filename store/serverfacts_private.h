/*
 * serverfacts_private.h -- the typed field access serverfacts.c and serverfacts_plan.c share (not part of the
 * store's interface)
 */
#pragma once

#include "serverfacts.h"

#include <bson/bson.h>

/* lab_store_facts_bad_type -- the error for a field of the wrong type, naming the command, the path and both
 * types. */
bool lab_store_facts_bad_type (bson_error_t *error, const char *what, const char *path, const bson_iter_t *it,
                               const char *want);

/* lab_store_facts_find_child -- the field `key` (no dots: WiredTiger names contain spaces, device names
 * dashes) of the document held by `parent`, or of the top level when parent is NULL. */
bool lab_store_facts_find_child (const bson_t *doc, const bson_iter_t *parent, const char *key,
                                 bson_iter_t *out);

/* lab_store_facts_iter_num -- an int32/int64/double value as int64 (doubles truncated; NaN, infinities and
 * values beyond int64 refused). */
bool lab_store_facts_iter_num (const bson_iter_t *it, const char *what, const char *path, int64_t *out,
                               bson_error_t *error);

/* lab_store_facts_get_num -- the number at section.key (section NULL: top level) into *out, -1 when absent.
 */
bool lab_store_facts_get_num (const bson_t *doc, const bson_iter_t *section, const char *key,
                              const char *what, const char *path, int64_t *out, bson_error_t *error);

/* lab_store_facts_get_str -- the string at section.key into buf ("" when absent). */
bool lab_store_facts_get_str (const bson_t *doc, const bson_iter_t *section, const char *key,
                              const char *what, const char *path, char *buf, size_t len, bson_error_t *error);

/* lab_store_facts_get_bool -- a bool at section.key (false when absent); numbers are accepted as truth
 * values, as mongod's own parsers do (old servers sent ismaster as a number). */
bool lab_store_facts_get_bool (const bson_t *doc, const bson_iter_t *section, const char *key,
                               const char *what, const char *path, bool *out, bson_error_t *error);

/* lab_store_facts_get_date_ms -- a date field at section.key as ms since the epoch (-1 when absent). */
bool lab_store_facts_get_date_ms (const bson_t *doc, const bson_iter_t *section, const char *key,
                                  const char *what, const char *path, int64_t *out, bson_error_t *error);

/* lab_store_facts_get_section -- *out = the document at section.key; *found false when absent; error when not
 * a document. */
bool lab_store_facts_get_section (const bson_t *doc, const bson_iter_t *section, const char *key,
                                  const char *what, const char *path, bson_iter_t *out, bool *found,
                                  bson_error_t *error);
