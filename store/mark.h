/*
 * mark.h -- what the tools share around the provenance marker (store.h, LAB_MARK_COLL): the common
 * fields of a marker, the guard every --drop / --drop-dst of a server collection goes through, and the
 * list of a database's collections layoutlab did not write (scripts/demo.sh refuses such a database).
 *
 * The marker document (docs/results-schema.md, "dataset.<layout>.provenance"; store.h adds _id,
 * layoutlab: 1 and uuid):
 *   {tool: "billgen generate" | "billgen import" | "fold-details", version, written_at (UTC ISO-8601),
 *    command_line: [argv, URIs redacted, as the --json summary's], source (fold-details: the source
 *    collection), params: {the tool's settings}, verify: {ok, method, rows, masters, checksum, at},
 *    writes: [{tool: "scancmp", workload: "append" | "update" | "mix", rows_appended, rows_updated, at,
 *              command_line, failed (only when true)}]: the writes made to the collection after it was
 *    written, oldest first (lab_store_mark_write_add)}
 *
 * These are command-line helpers: the guard talks to the user (stderr, and a y/N question on a terminal).
 */
#ifndef LAB_MARK_H
#define LAB_MARK_H

#include <bson/bson.h>
#include <stdbool.h>

#include "store.h"

/* lab_store_mark_begin -- init `doc` with tool, version (LAB_VERSION), written_at (now, UTC, ms) and
 * command_line (argv[0..argc), each argument as lab_cli_arg_redacted shows it). The caller appends
 * source and params, then hands it to lab_store_mark_put. */
void lab_store_mark_begin (bson_t *doc, const char *tool, int argc, char **argv);

/* lab_store_mark_now -- the time now as UTC ISO-8601 with ms ("2026-12-02T04:33:21.677Z") into buf. */
void lab_store_mark_now (char *buf, size_t len);

/* lab_store_mark_write_add -- when `coll` is layoutlab's: `entry` appended to its marker's "writes" array
 * (made when absent), every other field kept as it is (verify too: the writes came after it); *added (may
 * be NULL) says whether it was: a collection without a marker records nothing. */
bool lab_store_mark_write_add (lab_store_session_t *sess, const char *coll, const bson_t *entry, bool *added,
                               bson_error_t *error);

/* lab_store_mark_confirm_fn -- the caller's way to ask the user `question` (one line, without "[y/N]"),
 * `ctx` passed through: true when the answer is yes. The library never reads the terminal itself: the
 * tool's main asks (lab_cli_confirm_tty), or passes NULL when there is no one to ask. */
typedef bool (*lab_store_mark_confirm_fn) (const char *question, void *ctx);

/* lab_store_mark_drop_guard -- before `opt` (--drop, --drop-dst) drops `coll` on `store`: nothing to ask when
 * the store is embedded (all of it is layoutlab's), the collection does not exist, or layoutlab wrote it
 * (its marker, store.h). Otherwise the collection is someone else's: its name, documents and size go to
 * the log (stderr), and it is dropped only with the user's word: `yes` (--yes), or yes from `confirm`
 * (called once, with `ctx`; may be NULL: no one to ask). A no: LAB_ERROR_USAGE saying it was not dropped;
 * no `confirm`: LAB_ERROR_USAGE (exit 2) saying nothing was dropped and naming --yes. */
bool lab_store_mark_drop_guard (lab_store_t *store, const char *coll, bool yes, const char *opt,
                                lab_store_mark_confirm_fn confirm, void *ctx, bson_error_t *error);

/* lab_store_mark_write_guard -- before `what` ("--workload append", "--create-index") writes to or builds an
 * index on `coll`: true when the collection does not exist, layoutlab wrote it (its marker), or `allow`
 * (NULL-terminated, --allow-writes; may be NULL) names it (*allowed set, may be NULL; logged). Otherwise
 * LAB_ERROR_USAGE (exit 2) naming the collection, its documents and size, saying that nothing was sent,
 * and the two ways on: a marked copy to measure (fold-details --shape copy, with the store's --uri and
 * --db) or --allow-writes COLL. On both backends: a blanket --yes is no answer here. */
bool lab_store_mark_write_guard (lab_store_t *store, lab_store_session_t *sess, const char *coll,
                                 const char *const *allow, const char *what, bool *allowed,
                                 bson_error_t *error);

/* lab_store_mark_foreign -- the collections of the store's database that layoutlab did not write (sorted,
 * NULL-terminated, caller bson_strfreev()s; LAB_MARK_COLL itself is never listed). */
bool lab_store_mark_foreign (lab_store_t *store, char ***names, bson_error_t *error);

/* ---- the indexes layoutlab built, and removing what it created ------------------------------------
 * Each index a tool builds has a record in LAB_MARK_COLL beside the collection markers: store.h,
 * LAB_MARK_INDEX_PREFIX, says what it holds and who writes it. */

typedef struct {
   char *id;                    /* the record's _id */
   char *collection, *name;     /* the index's collection and name */
   lab_store_index_spec_t spec; /* its key pattern (fields owned); n 0 when `keys` is not an ascending
                                 * pattern of 1..LAB_STORE_INDEX_MAX_FIELDS fields */
   int64_t size_bytes;          /* -1 unknown */
   char *created_at, *tool;     /* "" when absent */
   bool on_foreign;
   bson_t *doc; /* the whole record without _id (command_line and all) */
} lab_store_mark_index_t;

/* lab_store_mark_indexes -- the index records (kind "index") of LAB_MARK_COLL in *records (*n of them,
 * in the collection's natural order; none when LAB_MARK_COLL does not exist). Caller frees with
 * lab_store_mark_indexes_free. */
bool lab_store_mark_indexes (lab_store_session_t *sess, lab_store_mark_index_t **records, size_t *n,
                             bson_error_t *error);
void lab_store_mark_indexes_free (lab_store_mark_index_t *records, size_t n);

typedef enum {
   LAB_MARK_CLEAN_COLLECTION, /* a collection (with its marker) */
   LAB_MARK_CLEAN_INDEX,      /* an index (with its record) */
   LAB_MARK_CLEAN_MARK_COLL,  /* LAB_MARK_COLL itself: dropped when nothing else is left in it */
} lab_mark_clean_kind_t;

typedef enum {
   LAB_MARK_CLEAN_DROP,      /* removed: a collection with a valid marker, an index built on a collection
                              * layoutlab did not write, LAB_MARK_COLL once empty */
   LAB_MARK_CLEAN_WITH_COLL, /* an index of a collection dropped here: goes with it, then its record */
   LAB_MARK_CLEAN_GONE,      /* no longer exists: reported, skipped; only its record is deleted */
   LAB_MARK_CLEAN_KEEP,      /* someone else's now, or unreadable: left alone (a stale record deleted) */
} lab_mark_clean_action_t;

typedef struct {
   lab_mark_clean_kind_t kind;
   lab_mark_clean_action_t action;
   char *collection;
   char *index;                 /* INDEX: its name */
   lab_store_index_spec_t spec; /* INDEX: its key pattern (fields owned) */
   char *record;                /* the _id of its document in LAB_MARK_COLL deleted with it, or NULL */
   int64_t documents;           /* COLLECTION: documents (estimated); else -1 */
   int64_t size_bytes;          /* on disk (a collection's data and indexes); -1 unknown */
   char *note;                  /* who wrote it and when, or why it is left alone */
   bool done;                   /* after lab_store_mark_clean_run: removed (or its record deleted) */
} lab_mark_clean_item_t;

typedef struct {
   lab_mark_clean_item_t *v;
   size_t n;
} lab_mark_clean_plan_t;

/* lab_store_mark_clean_plan -- what removing everything layoutlab created from the store's database
 * takes, read without writing anything: every collection with a valid marker (lab_store_mark_get: one
 * whose marker's UUID is not its own is someone else's, KEEP), every recorded index of a collection
 * layoutlab did not write (on_foreign; the indexes of layoutlab's own collections go with them), the
 * records and markers of what no longer exists (GONE), and last LAB_MARK_COLL (DROP when every document
 * in it is deleted by the plan, else KEEP). Free with lab_store_mark_clean_plan_free. */
bool lab_store_mark_clean_plan (lab_store_t *store, lab_mark_clean_plan_t *plan, bson_error_t *error);

/* lab_store_mark_clean_run -- carry the plan out, in order: the indexes of the other collections, the
 * collections (each one's marker checked again first: a collection that is no longer layoutlab's is left
 * alone, KEEP), the records, LAB_MARK_COLL when it is empty. What is already gone is skipped. Each item
 * removed gets done; the first failure stops the run (the items before it are done). */
bool lab_store_mark_clean_run (lab_store_t *store, lab_mark_clean_plan_t *plan, bson_error_t *error);

void lab_store_mark_clean_plan_free (lab_mark_clean_plan_t *plan);

#endif
