/*
 * workload.h -- the queries besides the load (issue 23), private to scan/ and its tests: `row` (one
 * charge line by master key and line number), `range` (every row of a time window), `aggregate` (a total
 * per group over the whole collection). Each runs cold on every layout with the same inputs, drawn from
 * the data by --seed, through the index a DBA would create for it; the results' "workloads" array
 * (docs/results-schema.md) holds what each cost, and layout-report's ledger compares them.
 *
 *   workload.c       names, options, the inputs drawn from the data, the row view of a document
 *   wl_exec.c        one query on one layout: mongod's plan played by the tool over the store's index
 *                    reads (the embedded store, a server with a subset of the query language), or the
 *                    real command on a MongoDB server
 *   wl_run.c         the workload indexes, one workload on every layout (measured as a load is), the
 *                    results entry
 */
#ifndef LAB_SCAN_WORKLOAD_H
#define LAB_SCAN_WORKLOAD_H

#include "scan/scan.h"
#include "store/store.h"

typedef enum {
   LAB_WL_LOAD = 0,  /* each master fetched whole by its key (the original experiment) */
   LAB_WL_ROW,       /* one row by (key, line number) */
   LAB_WL_RANGE,     /* the rows of a time window across all masters */
   LAB_WL_AGGREGATE, /* a total per group over the whole collection */
   LAB_WL_NKINDS
} lab_scan_wl_kind_t;

/* lab_scan_wl_name -- "load", "row", "range", "aggregate". */
const char *lab_scan_wl_name (lab_scan_wl_kind_t k);

/* lab_scan_wl_parse -- a --workload value: a comma-separated subset of load,row,range,aggregate, or all,
 * into a bit set (bit k: kind k). Unknown or repeated names are LAB_ERROR_USAGE naming them. */
bool lab_scan_wl_parse (const char *s, unsigned *set, bson_error_t *error);

/* lab_scan_wl_parse_opt -- the option table's parser of --workload (LAB_CLI_OPT_CUSTOM, field: unsigned). */
bool lab_scan_wl_parse_opt (const char *value, void *field, const char *name, bson_error_t *error);

/* ---- inputs --------------------------------------------------------------------------------------- */

/* One row drawn from the data: its master key, line number, time and (for the digest) its own _id. */
typedef struct {
   bson_value_t key, line;
   int64_t time_ms; /* the time field as ms since the epoch (a BSON date) */
} lab_scan_wl_row_t;

typedef struct {
   lab_scan_wl_row_t *rows; /* the row workload's K pairs, in draw order (then the windows' rows) */
   int64_t nrows;           /* the row workload's K */
   int64_t ndrawn;          /* rows drawn (max of K and the windows) */
   int64_t *win_lo;         /* the range workload's windows [win_lo[i], win_lo[i] + window_ms) */
   int64_t nwin;
} lab_scan_wl_inputs_t;

/* lab_scan_wl_inputs_draw -- draw the inputs of the workloads in `set` from the data, deterministically
 * from o->wl.seed: masters uniformly from keys[0..nkeys) (the plan's keys), then one of each master's rows
 * uniformly, read warm (before any cold step) from layout `from` (the reference rows layout, else the
 * first; a folded layout's rows are its array's elements). The row workload takes o->wl.row_keys such
 * rows; the range workload o->wl.range_windows windows of o->wl.range_window_ms, each starting at a drawn
 * row's time minus half a window (so every window holds data). A drawn row without a line number or a
 * time of type date is an error naming the row's master and field. */
bool lab_scan_wl_inputs_draw (lab_store_session_t *sess, const lab_scan_opts_t *o, unsigned set,
                              const lab_results_layout_t *from, const bson_value_t *keys, int64_t nkeys,
                              lab_scan_wl_inputs_t *in, bson_error_t *error);

/* lab_scan_wl_inputs_cleanup -- free what in owns. */
void lab_scan_wl_inputs_cleanup (lab_scan_wl_inputs_t *in);

/* ---- what one layout returned --------------------------------------------------------------------- */

/* One group of the aggregate: its value as text, the rows counted and their total. */
typedef struct {
   char *name;
   int64_t rows;
   double total;
} lab_scan_wl_group_t;

typedef struct {
   int64_t queries, rows, docs, doc_bytes;
   uint64_t digest; /* sum of the rows' 64-bit hashes (order-independent) */
   lab_scan_wl_group_t *groups;
   size_t ngroups, capgroups;
   int64_t missing_sum; /* rows whose sum field was absent or not a number (counted, not summed) */
   uint64_t decoded;    /* --decode's checksum */
} lab_scan_wl_acc_t;

/* lab_scan_wl_acc_merge -- add `from` into `into` (groups by name). */
void lab_scan_wl_acc_merge (lab_scan_wl_acc_t *into, const lab_scan_wl_acc_t *from);

/* lab_scan_wl_acc_cleanup -- free the groups. */
void lab_scan_wl_acc_cleanup (lab_scan_wl_acc_t *acc);

/* lab_scan_wl_group_add -- count a row of group `name` with value v (NULL: its sum field is missing). */
void lab_scan_wl_group_add (lab_scan_wl_acc_t *acc, const char *name, int64_t rows, double v);

/* lab_scan_wl_groups_sort -- the groups in name order (for the results and comparisons). */
void lab_scan_wl_groups_sort (lab_scan_wl_acc_t *acc);

/* lab_scan_wl_groups_equal -- same groups, same row counts, totals within 1e-9 relative (sums of
 * doubles in another order differ in their last bits); when not, `why` names the first difference. */
bool lab_scan_wl_groups_equal (const lab_scan_wl_acc_t *a, const lab_scan_wl_acc_t *b, char *why, size_t len);

/* ---- the row view of a document ------------------------------------------------------------------- */

/* lab_scan_wl_row_field -- the value of `field` in a row: `elem` (an element of a folded document's
 * array, or NULL for a one-document-per-row layout) first, else `doc`'s top level (a hoisted field). NULL
 * when neither has it. */
const bson_value_t *lab_scan_wl_row_field (const bson_t *doc, const bson_t *elem, const char *field,
                                           bson_iter_t *scratch);

/* lab_scan_wl_row_fn -- called per row: elem NULL for a one-document-per-row layout. */
typedef void (*lab_scan_wl_row_fn) (const bson_t *doc, const bson_t *elem, void *ctx);

/* lab_scan_wl_each_row -- fn for every row of doc: doc itself (array false), else each document element
 * of its array_field (a document there, as a server's $unwind leaves it, is one row). */
void lab_scan_wl_each_row (const bson_t *doc, const char *array_field, bool array, lab_scan_wl_row_fn fn,
                           void *ctx);

/* lab_scan_wl_row_hash -- the 64-bit hash of a row for the digest: its master key and its own _id (the
 * element's _id in a folded document, which the fold keeps), so the same row hashes the same in every
 * layout. */
uint64_t lab_scan_wl_row_hash (const bson_value_t *key, const bson_value_t *row_id);

/* ---- one query on one layout (wl_exec.c) ---------------------------------------------------------- */

typedef enum {
   LAB_WL_MODE_TOOL = 0, /* the store's index and natural reads, filtering and grouping in the tool */
   LAB_WL_MODE_SERVER    /* the server runs the whole query (MongoDB) */
} lab_scan_wl_mode_t;

/* What the workers of one (workload, layout) share. */
typedef struct {
   lab_scan_wl_kind_t kind;
   lab_scan_wl_mode_t mode;
   const lab_scan_opts_t *opts;
   const lab_results_layout_t *layout;
   bool array; /* the rows are the elements of each document's array (folded, buckets) */
   const lab_scan_wl_inputs_t *in;
   int64_t nitems; /* what the workers share out: row batches, windows, natural ranges or 1 */
   lab_store_natural_range_t *ranges; /* aggregate in tool mode: one natural range per item */
} lab_scan_wl_layout_t;

/* lab_scan_wl_layout_init -- the items of `kind` on `layout` in `mode` (the aggregate's natural ranges
 * are asked of the store here, one per worker). */
bool lab_scan_wl_layout_init (lab_scan_wl_layout_t *wl, lab_store_session_t *sess, lab_scan_wl_kind_t kind,
                              lab_scan_wl_mode_t mode, const lab_scan_opts_t *o,
                              const lab_results_layout_t *layout, const lab_scan_wl_inputs_t *in,
                              bson_error_t *error);

/* lab_scan_wl_layout_cleanup -- free what wl owns. */
void lab_scan_wl_layout_cleanup (lab_scan_wl_layout_t *wl);

/* lab_scan_wl_item -- run item i of wl on `sess`, adding what it returned to acc. */
bool lab_scan_wl_item (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, int64_t i,
                       lab_scan_wl_acc_t *acc, bson_error_t *error);

/* lab_scan_wl_server_command -- the command item i of wl sends to a MongoDB server (SERVER mode): a find
 * (*is_pipeline false: filter into `filter`, projection and hint into `opts`) or an aggregate (pipeline
 * into `filter` as an array document, hint into `opts`). Pure: unit-tested. Every out is bson_init'ed. */
void lab_scan_wl_server_command (const lab_scan_wl_layout_t *wl, int64_t i, bson_t *filter, bson_t *opts,
                                 bool *is_pipeline);

/* ---- indexes and the planner (wl_run.c) ----------------------------------------------------------- */

/* lab_scan_wl_index -- the index a competent DBA creates for `kind` on a layout (array: its rows are array
 * elements): load and row on folded layouts {key: 1}; row on rows {key: 1, line: 1}; range {time: 1} or
 * {array.time: 1} (multikey); aggregate none (false). */
bool lab_scan_wl_index (const lab_scan_opts_t *o, lab_scan_wl_kind_t kind, bool array,
                        lab_store_index_spec_t *spec, char names[][256]);

/* lab_scan_wl_plan -- the plan mongod's planner chooses for `kind` on a layout with that index (the table
 * in docs/mongodb-compat.md §19), e.g. "IXSCAN { bill_id: 1, line_no: 1 } + FETCH". */
void lab_scan_wl_plan (const lab_scan_opts_t *o, lab_scan_wl_kind_t kind, bool array, int32_t batch,
                       char *buf, size_t len);

/* One workload's index on one layout, as found (and maybe created) before the runs. */
typedef struct {
   bool used; /* the workload reads through an index on this layout (aggregate: none) */
   char name[300];
   char fields[LAB_STORE_INDEX_MAX_FIELDS][256];
   int nfields;
   bool exists, multikey, created;
   int64_t size_bytes; /* on disk; -1 unknown */
} lab_scan_wl_index_t;

/* What the workloads resolve before anything is made cold. */
typedef struct lab_scan_wl_prep {
   lab_scan_wl_mode_t mode;
   lab_scan_wl_index_t index[LAB_WL_NKINDS][LAB_RESULTS_MAX_LAYOUTS];
   lab_scan_wl_inputs_t in;
} lab_scan_wl_prep_t;

/* lab_scan_wl_any -- o asks for a workload besides the load. */
bool lab_scan_wl_any (const lab_scan_opts_t *o);

#endif
