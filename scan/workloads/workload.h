/*
 * workload.h -- the queries besides the load, private to scan/ and its tests: `row` (one
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

#include "core/mix_spec.h"
#include "core/rowhash.h"
#include "scan/scan.h"
#include "store/store.h"

#include <stdatomic.h>

/* The workloads: core/mix_spec.h's one table, in its order (bit k of a workload set is kind k). */
typedef enum {
   LAB_WL_LOAD = LAB_MIX_SPEC_LOAD,   /* each master fetched whole by its key (the original experiment) */
   LAB_WL_ROW = LAB_MIX_SPEC_ROW,     /* one row by (key, line number) */
   LAB_WL_RANGE = LAB_MIX_SPEC_RANGE, /* the rows of a time window across all masters */
   LAB_WL_AGGREGATE = LAB_MIX_SPEC_AGGREGATE, /* a total per group over the whole collection */
   LAB_WL_APPEND = LAB_MIX_SPEC_APPEND,       /* new rows for masters drawn from the data: insert / $push */
   LAB_WL_UPDATE = LAB_MIX_SPEC_UPDATE,       /* single-row corrections: $set of one field on one row */
   LAB_WL_NKINDS = LAB_MIX_SPEC_NKINDS
} lab_scan_wl_kind_t;

/* The read workloads (what --workload all means: the writes change the data, so they are asked for by
 * name) and the writes. */
#define LAB_WL_MASK_READS                                                                                    \
   ((1u << LAB_WL_LOAD) | (1u << LAB_WL_ROW) | (1u << LAB_WL_RANGE) | (1u << LAB_WL_AGGREGATE))
#define LAB_WL_MASK_WRITES ((1u << LAB_WL_APPEND) | (1u << LAB_WL_UPDATE))

/* lab_scan_wl_is_write -- k changes the data (append, update). */
bool lab_scan_wl_is_write (lab_scan_wl_kind_t k);

/* lab_scan_wl_name -- "load", "row", "range", "aggregate". */
const char *lab_scan_wl_name (lab_scan_wl_kind_t k);

/* lab_scan_wl_title -- the ledger's first column for workload `kind` under o, into buf. */
void lab_scan_wl_title (const lab_scan_opts_t *o, lab_scan_wl_kind_t kind, char *buf, size_t len);

/* lab_scan_wl_parse -- a --workload value: a comma-separated subset of load,row,range,aggregate,append,
 * update, or all (the four read workloads: LAB_WL_MASK_READS), into a bit set (bit k: kind k). Unknown or
 * repeated names are LAB_ERROR_USAGE naming them. */
bool lab_scan_wl_parse (const char *s, unsigned *set, bson_error_t *error);

/* lab_scan_wl_parse_opt -- the option table's parser of --workload (LAB_CLI_OPT_CUSTOM, field: unsigned). */
bool lab_scan_wl_parse_opt (const char *value, void *field, const char *name, bson_error_t *error);

/* ---- inputs --------------------------------------------------------------------------------------- */

/* The draw's generator starts from o->wl.seed ^ this ("layoutla"): lab_scan_wl_inputs_draw, and the
 * prediction's replay of its range windows (scan/predict/predict_wl_sample.c), which must draw the same. */
#define LAB_SCAN_WL_DRAW_MIX 0x6c61796f75746c61ull

/* One row drawn from the data: its master key, line number, time and (for the digest) its own _id. */
typedef struct {
   bson_value_t key, line;
   int64_t time_ms; /* the time field as ms since the epoch (a BSON date) */
} lab_scan_wl_row_t;

/* One write of the append or update workload, the same on every layout. */
typedef struct {
   bson_value_t key;   /* the master */
   bson_value_t line;  /* append: the new row's line number; update: the corrected row's */
   bson_value_t id;    /* the row's _id (append: the new one) */
   bson_t *row;        /* append: the whole new row, as a rows layout stores it; update: NULL */
   bson_value_t value; /* update: the new value of the sum field (--sum-field) */
} lab_scan_wl_write_t;

/* The writes of one workload, grouped by master (one master's writes in draw order, so a master is
 * written by one worker: a folded document is read, changed and written back). */
typedef struct {
   lab_scan_wl_write_t *w;
   int64_t n;
   int64_t *group; /* n + 1 entries: write i of the sorted order belongs to the master group[i] */
   int64_t ngroups;
   int64_t new_row_bytes; /* append: the BSON bytes of the new rows; update: of the new values */
} lab_scan_wl_writes_t;

typedef struct {
   lab_scan_wl_row_t *rows; /* the row workload's K pairs, in draw order (then the windows' rows) */
   int64_t nrows;           /* the row workload's K */
   int64_t ndrawn;          /* rows drawn (max of K and the windows) */
   int64_t *win_lo;         /* the range workload's windows [win_lo[i], win_lo[i] + window_ms) */
   int64_t nwin;
   lab_scan_wl_writes_t append, update; /* the write workloads' writes (wl_write.c) */
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

/* lab_scan_wl_writes_draw -- the writes of the append and update workloads in `set` (wl_write_draw.c), drawn
 * deterministically from o->wl.seed, read warm from `rows_layout` (a layout of kind rows: the rows' shape
 * and their _ids). append: o->wl.append_rows new rows for masters drawn from keys[0..nkeys) (open: the
 * last tenth of the keys in key order, the most recent masters; random: all), each a copy of a row of its
 * master with a new _id (an ObjectId from the seed), the next line number of the master, a time one minute
 * after the master's latest and a new sum field. update: o->wl.update_rows rows drawn uniformly (master,
 * then one of its rows), each given a new value of the sum field. Errors name the master and field. */
bool lab_scan_wl_writes_draw (lab_store_session_t *sess, const lab_scan_opts_t *o, unsigned set,
                              const lab_results_layout_t *rows_layout, const bson_value_t *keys,
                              int64_t nkeys, lab_scan_wl_inputs_t *in, bson_error_t *error);

/* lab_scan_wl_writes_group -- sort ws's writes by master (stable: a master's writes keep their draw order)
 * and fill group[] / ngroups. Pure: unit-tested. */
void lab_scan_wl_writes_group (lab_scan_wl_writes_t *ws);

/* lab_scan_wl_writes_cleanup -- free what ws owns. */
void lab_scan_wl_writes_cleanup (lab_scan_wl_writes_t *ws);

/* lab_scan_wl_inputs_cleanup -- free what in owns (its writes are freed by lab_scan_wl_writes_cleanup
 * first: lab_scan_workloads_cleanup does both). */
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
   uint64_t digest; /* sum of the rows' lab_scan_rowhash (order-independent; writes: their write hashes
                     * and the written masters' rows read back) */
   lab_scan_wl_group_t *groups;
   size_t ngroups, capgroups;
   int64_t missing_sum; /* rows whose sum field was absent or not a number (counted, not summed) */
   uint64_t decoded;    /* --decode's checksum */
   /* the write workloads */
   int64_t writes;        /* logical writes done (rows appended, rows corrected) */
   int64_t docs_written;  /* documents inserted or replaced (a new part: its siblings' parts too) */
   int64_t parts_created; /* folded: new parts of masters at the size cap (or bucket_rows) */
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

/* lab_scan_wl_id_hash -- a 64-bit hash of (master key, row _id) (either NULL): which master or which row,
 * not what it holds (the mix's order of a master's writes; an update's identity in its write digest). */
uint64_t lab_scan_wl_id_hash (const bson_value_t *key, const bson_value_t *row_id);

/* ---- the digests of content (digest.c) ------------------------------------------------------------ */

/* One document's rows being hashed: its hoisted fields prepared once (a folded document's). */
typedef struct {
   const char *key_field;   /* a clustered row's _id {<key_field>: K, id: X} hashes as its detail row's X */
   const char *array_field; /* a folded document's array (its metadata fields are left out) */
   const bson_t *doc;
   lab_rowhash_hoisted_t *hf; /* doc's hoisted fields (NULL: not prepared yet) */
} lab_scan_rowhash_t;

/* lab_scan_rowhash_doc -- the next document whose rows rh hashes (valid until the next call). */
void lab_scan_rowhash_doc (lab_scan_rowhash_t *rh, const bson_t *doc);

/* lab_scan_rowhash -- the 64-bit digest of a row of rh's document (elem: an element of its array, NULL:
 * the document is the row) by its content: core/rowhash.h's canonical row, the detail layout's row (a
 * folded document's hoisted fields merged back, its metadata left out), so the same row hashes the same
 * in every layout and a field changed in one layout changes its digest. */
uint64_t lab_scan_rowhash (lab_scan_rowhash_t *rh, const bson_t *elem);

/* lab_scan_rowhash_cleanup -- free what rh holds. */
void lab_scan_rowhash_cleanup (lab_scan_rowhash_t *rh);

/* lab_scan_wl_write_hash -- the digest of one write: append, the new row's content (lab_scan_rowhash of
 * w->row); update, the row's (key, _id) and the new value of the sum field `field`. */
uint64_t lab_scan_wl_write_hash (const lab_scan_wl_write_t *w, const char *field);

/* lab_scan_digest_master -- *digest += the row digests of master `key` in layout l (every document of
 * the key, untimed), *rows += its rows. */
bool lab_scan_digest_master (lab_store_session_t *sess, const lab_scan_opts_t *o,
                             const lab_results_layout_t *l, bool clustered, const bson_value_t *key,
                             uint64_t *digest, int64_t *rows, bson_error_t *error);

/* lab_scan_digest_locate -- the first of keys[0..nkeys) whose rows differ between layouts a and b (their
 * masters re-read and hashed one by one, stopping at the first difference: memory O(1) at any size), as
 * "<key field> <value>" into buf; *found false (buf "") when every master holds the same rows. */
bool lab_scan_digest_locate (lab_store_t *store, const lab_scan_opts_t *o, const lab_results_layout_t *a,
                             const lab_results_layout_t *b, const bson_value_t *keys, int64_t nkeys,
                             bool *found, char *buf, size_t len, bson_error_t *error);

/* lab_scan_digest_written -- after a write workload on layout l: *digest += the row digests of every master
 * ws wrote (each read back whole, untimed), *rows += their rows: what the writes left, by content. */
bool lab_scan_digest_written (lab_store_t *store, const lab_scan_opts_t *o, const lab_results_layout_t *l,
                              const lab_scan_wl_writes_t *ws, uint64_t *digest, int64_t *rows,
                              bson_error_t *error);

/* lab_scan_wl_groups_digest -- the aggregate's digest: the sum of its groups' hashes (name, rows, total). */
uint64_t lab_scan_wl_groups_digest (const lab_scan_wl_acc_t *acc);

/* lab_scan_runs_digests -- the load's runs in results' "runs": true when every run of every layout of ls
 * returned the same rows (rows and digest); else false, the first run's layout *la and digest *da, the
 * first that differed *lb, *db. per_layout (NULL, or ls->n entries): each layout's first run's digest (a
 * layout without a run: left as it was). No runs: true. */
bool lab_scan_runs_digests (const lab_results_layouts_t *ls, const bson_t *results, uint64_t *per_layout,
                            size_t *la, size_t *lb, uint64_t *da, uint64_t *db);

/* lab_scan_digest_differ -- *error = LAB_ERROR_VERIFY / LAB_VERIFY_ERR_RESULTS_DIFFER: workload `what` read
 * different rows on layouts la and lb of ls, naming the first master of keys[0..nkeys) whose rows differ
 * (lab_scan_digest_locate; when none is found, or the re-read fails, the message says so). */
void lab_scan_digest_differ (lab_store_t *store, const lab_scan_opts_t *o, const lab_results_layouts_t *ls,
                             size_t la, size_t lb, const bson_value_t *keys, int64_t nkeys, const char *what,
                             bson_error_t *error);

/* ---- one query on one layout (wl_exec.c) ---------------------------------------------------------- */

typedef enum {
   LAB_WL_MODE_TOOL = 0, /* the store's index and natural reads, filtering and grouping in the tool */
   LAB_WL_MODE_SERVER    /* the server runs the whole query (MongoDB) */
} lab_scan_wl_mode_t;

/* What the workers of one (workload, layout) share. */
typedef struct lab_scan_wl_layout {
   lab_scan_wl_kind_t kind;
   lab_scan_wl_mode_t mode;
   const lab_scan_opts_t *opts;
   const lab_results_layout_t *layout;
   bool array;     /* the rows are the elements of each document's array (folded, buckets) */
   bool clustered; /* a clustered layout, asked of the store once, before the timed items */
   const lab_scan_wl_inputs_t *in;
   int64_t nitems; /* what the workers share out: row batches, windows, natural ranges or 1; writes: one
                    * per write, each worker's share ending at a master's last write (writes->group) */
   lab_store_natural_range_t *ranges;  /* aggregate in tool mode: one natural range per item */
   const lab_scan_wl_writes_t *writes; /* append, update: the writes */
   int64_t max_doc_bytes;              /* folded appends: the fold's size cap (its marker; else 16 MiB) */
   int32_t bucket_rows;                /* folded appends: the fold's rows per document (0: no limit) */
   lab_store_t *server;                /* writes on a server: the store its update commands go to (NULL:
                                        * the embedded store, whole documents through the store) */
   bool positional;                    /* a MongoDB server: positional $set (FerretDB: by array index) */
   /* the mix (scan/mix/wl_mix.c): item i run by item_fn (item_ctx its state), each worker taking the next
    * item from the shared counter *next (so no worker idles while another still has a share to run);
    * rows whose hash is in skip[0..nskip) (sorted: rows the mix appends) are left out of the digest of
    * what a read returned */
   bool (*item_fn) (const struct lab_scan_wl_layout *wl, lab_store_session_t *sess, int64_t i,
                    lab_scan_wl_acc_t *acc, bson_error_t *error);
   void *item_ctx;
   _Atomic int64_t *next;
   const uint64_t *skip;
   int64_t nskip;
   const uint64_t *by_id; /* the mix: lab_scan_wl_id_hash (key, NULL) of the masters it corrects, sorted:
                           * their rows are digested by (key, _id) (a read may or may not see a correction) */
   int64_t nby_id;
} lab_scan_wl_layout_t;

/* lab_scan_wl_layout_init -- the items of `kind` on `layout` in `mode` (the aggregate's natural ranges
 * are asked of the store here, one per worker). */
bool lab_scan_wl_layout_init (lab_scan_wl_layout_t *wl, lab_store_session_t *sess, lab_scan_wl_kind_t kind,
                              lab_scan_wl_mode_t mode, const lab_scan_opts_t *o,
                              const lab_results_layout_t *layout, const lab_scan_wl_inputs_t *in,
                              bson_error_t *error);

/* lab_scan_wl_segments -- starts[0..parallel] of lab_scan_keys_segment over wl's items, each moved on to
 * the next master's first write for the write workloads (one master, one worker: a folded document is
 * read, changed and written back). */
void lab_scan_wl_segments (const lab_scan_wl_layout_t *wl, int parallel, int64_t *starts);

/* lab_scan_wl_hash_skipped -- row hash h is one of wl->skip's (left out of the digest). */
bool lab_scan_wl_hash_skipped (const lab_scan_wl_layout_t *wl, uint64_t h);

/* lab_scan_wl_read_hash -- the digest of a row a read of wl returned: lab_scan_rowhash (rh at doc), but
 * (key, _id) (lab_scan_wl_id_hash) in server mode, where mongod's projection ($elemMatch, $project {key,
 * array}) returns what the query asks for, not the whole row, and for a master in wl->by_id. */
uint64_t lab_scan_wl_read_hash (const lab_scan_wl_layout_t *wl, lab_scan_rowhash_t *rh, const bson_t *doc,
                                const bson_t *elem);

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

/* lab_scan_wl_write_item -- write i (of the grouped order) of an append or update workload on `sess`
 * (wl_write.c): rows layout, one insert per new row / one replacement of the row by _id; array layout, the
 * master's last part read, the rows pushed (a new part when the next row would pass the cap or
 * bucket_rows: the master's other parts get the new `parts`) / the element with the line number set, and
 * the document written back by _id (every index entry maintained by the store). */
bool lab_scan_wl_write_item (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, int64_t i,
                             lab_scan_wl_acc_t *acc, bson_error_t *error);

/* lab_scan_wl_fold_settings -- the cap and rows per document of a folded layout's fold, from its marker
 * (fold-details' params); 16 MiB and 0 when the marker does not say. */
bool lab_scan_wl_fold_settings (lab_store_session_t *sess, const char *coll, int64_t *max_doc_bytes,
                                int32_t *bucket_rows, bson_error_t *error);

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

/* lab_scan_wl_any -- o asks for a workload besides the load (scan/point.c: the single point's plan). */
bool lab_scan_wl_any (const lab_scan_opts_t *o);

/* ---- clustered.c: a clustered layout ------------------------------------------------------------ */

/* lab_scan_clustered -- *clustered = `coll` is a clustered collection (lab_store_stats; a server's
 * collStats does not say: false there). */
bool lab_scan_clustered (lab_store_session_t *sess, const char *coll, bool *clustered, bson_error_t *error);

/* lab_scan_clustered_find -- the rows of master `key` of the clustered `coll`: lab_store_index_find on
 * {_id: 1} over [{<key_field>: key}, {<key_field>: key, id: MaxKey}) (lab_store_clustered_bounds), in _id
 * order; *ndocs (may be NULL) the rows. */
bool lab_scan_clustered_find (lab_store_session_t *sess, const char *coll, const char *key_field,
                              const bson_value_t *key, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
                              bson_error_t *error);

/* lab_scan_find_master -- a master's documents: lab_store_find_eq on the key, or, on a clustered
 * collection, lab_scan_clustered_find (one lab_store_stats more per call: not for timed loops, which
 * use lab_scan_master_find with the flag asked once). */
bool lab_scan_find_master (lab_store_session_t *sess, const char *coll, const char *key_field,
                           const bson_value_t *key, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
                           bson_error_t *error);

/* lab_scan_master_find -- lab_scan_find_master on a collection known to be `clustered` or not. */
bool lab_scan_master_find (lab_store_session_t *sess, const char *coll, bool clustered, const char *key_field,
                           const bson_value_t *key, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
                           bson_error_t *error);

/* lab_scan_clustered_rows -- rows about to be inserted into `coll`: when it is `clustered`, docs[i] is
 * replaced by row i with its clustered _id {<key_field>: K, id: <its _id>} (lab_store_clustered_row), the
 * new documents held in *held (free with lab_scan_clustered_rows_free(*held, n)); else nothing changes.
 * *bytes += the documents' sizes either way. */
bool lab_scan_clustered_rows (bool clustered, const char *key_field, const bson_t **docs, size_t n,
                              bson_t **held, int64_t *bytes, bson_error_t *error);
void lab_scan_clustered_rows_free (bson_t *held, size_t n);

/* lab_scan_clustered_plan -- buf (lab_scan_wl_plan's text for a rows layout) rewritten for a clustered
 * layout: the load and the update read by the cluster key (CLUSTERED_IXSCAN, no FETCH), the row and range
 * workloads' FETCH is by the clustered RecordId that ends each secondary index entry. */
void lab_scan_clustered_plan (const lab_scan_opts_t *o, lab_scan_wl_kind_t kind, char *buf, size_t len);

/* lab_scan_wl_row_id -- the _id a returned row is known by in the results' digests (as
 * lab_scan_wl_row_field (elem ? elem : doc, NULL, "_id", scratch)), but for a clustered layout's row, whose
 * _id is {<key_field>: K, id: X}, the original _id X: so the row and range workloads, which read a
 * clustered layout through its secondary indexes, digest the same rows as the detail layout. */
const bson_value_t *lab_scan_wl_row_id (const bson_t *doc, const bson_t *elem, const char *key_field,
                                        bson_iter_t *scratch);

/* lab_scan_row_filter -- *q (initialized here; caller destroys) = {_id: the row's _id}: the original `id`,
 * or on a clustered layout {_id: {$eq: {<key_field>: key, id: id}}} (lab_store_clustered_row's _id): the
 * one filter both backends use for a row (the embedded store's find_eq, a server's update q). */
void lab_scan_row_filter (bool clustered, const char *key_field, const bson_value_t *key,
                          const bson_value_t *id, bson_t *q);

/* lab_scan_find_row -- the row whose original _id is `id` (master `key`): find_eq on _id, or on a
 * `clustered` coll on its _id {<key_field>: key, id}. */
bool lab_scan_find_row (lab_store_session_t *sess, const char *coll, bool clustered, const char *key_field,
                        const bson_value_t *key, const bson_value_t *id, lab_store_doc_cb_t cb, void *ctx,
                        bson_error_t *error);

#endif
