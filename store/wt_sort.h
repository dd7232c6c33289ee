/*
 * wt_sort.h -- the external merge sort of an index build: byte strings in, the same byte strings out in
 * WiredTiger's key order (memcmp, a proper prefix first), duplicates kept.
 *
 * Memory bound: keys are held in memory until they and their references reach `budget_bytes` (or 4 GiB
 * of keys); then that chunk is sorted (skipped when the keys came in strictly ascending order; a radix
 * sort that takes a second array of the references while it runs) and spilled as a
 * sorted run to a file in `dir`, unlinked as soon as it is created so that nothing is left behind,
 * whatever happens. At the end the runs are merged (linear minimum: builds have few runs). Private to
 * the embedded store (store/wt_*.c); one sort is used by one thread.
 */
#ifndef LAB_WT_SORT_H
#define LAB_WT_SORT_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lab_wt_sort lab_wt_sort_t;

/* lab_wt_sort_new -- an empty sort spilling to `dir` (copied) beyond `budget_bytes`; destroy it. */
lab_wt_sort_t *lab_wt_sort_new (const char *dir, size_t budget_bytes);

/* lab_wt_sort_destroy -- close the run files and free everything (NULL is fine). */
void lab_wt_sort_destroy (lab_wt_sort_t *s);

/* lab_wt_sort_add -- add a copy of key[0..len); may spill a run (IO errors name `dir`). Only before
 * lab_wt_sort_finish. */
bool lab_wt_sort_add (lab_wt_sort_t *s, const void *key, size_t len, bson_error_t *error);

/* lab_wt_sort_finish -- no more keys: sort the last chunk, or, when runs were spilled, spill it too and
 * read the first key of every run. */
bool lab_wt_sort_finish (lab_wt_sort_t *s, bson_error_t *error);

/* lab_wt_sort_next -- after finish: 1 with the next key in *key and *len (valid until the next call), 0 at
 * the end, -1 on a read error (*error set). */
int lab_wt_sort_next (lab_wt_sort_t *s, const uint8_t **key, size_t *len, bson_error_t *error);

/* lab_wt_sort_nkeys -- keys added so far. */
uint64_t lab_wt_sort_nkeys (const lab_wt_sort_t *s);

/* lab_wt_sort_nruns -- runs spilled so far (0: everything stayed in memory). */
size_t lab_wt_sort_nruns (const lab_wt_sort_t *s);

/* lab_wt_sort_cmp -- WiredTiger's key order of two byte strings: memcmp, a proper prefix first. */
int lab_wt_sort_cmp (const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

#endif
