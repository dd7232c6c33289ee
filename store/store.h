/*
 * store.h -- the store interface every layoutlab tool and test uses; the tools never call libmongoc or
 * WiredTiger directly.
 *
 * Two backends implement it: MongoDB through libmongoc (`mongodb://`, `mongodb+srv://`, also via mongos)
 * and an embedded WiredTiger store laid out as mongod lays it out (`wiredtiger:DIR`).
 *
 * Threads: one lab_store_t is shared; each thread opens its own lab_store_session_t (a WiredTiger session, or
 * a client popped from the mongoc pool) and uses it alone. Cursors belong to the session that opened them.
 *
 * Errors: every fallible call takes a bson_error_t *; store-level conditions use LAB_ERROR_STORE codes
 * (error.h) so callers can tell "no such collection" from an IO failure.
 */
#ifndef LAB_STORE_H
#define LAB_STORE_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/progress.h"
#include "core/uri.h"

/* MongoDB's user-visible document cap: BSONObjMaxUserSize. */
#define LAB_BSON_MAX_BYTES 16777216
/* MongoDB's maxMessageSizeBytes: no write batch or reply may reach this. */
#define LAB_MESSAGE_MAX_BYTES 48000000

/* The URI of a store (core/uri.h has the text: default, redaction), parsed in store_uri.c. */
#define LAB_DB_DEFAULT "layoutlab"

typedef enum { LAB_BACKEND_WT = 1, LAB_BACKEND_MONGO = 2 } lab_store_backend_t;

typedef struct {
   lab_store_backend_t backend;
   char *uri;     /* the full URI as given (may hold credentials: never print it) */
   char *wt_home; /* LAB_BACKEND_WT: the directory after "wiredtiger:" */
   char *uri_db;  /* LAB_BACKEND_MONGO: database named in the URI path, or NULL */
} lab_store_uri_t;

/* lab_store_uri_parse -- parse `s` into *out (caller frees with lab_store_uri_cleanup). Unknown schemes, an
 * empty wiredtiger directory and a MongoDB URI libmongoc refuses give LAB_STORE_ERR_BAD_URI. */
bool lab_store_uri_parse (const char *s, lab_store_uri_t *out, bson_error_t *error);

/* lab_store_uri_cleanup -- free what lab_store_uri_parse allocated. */
void lab_store_uri_cleanup (lab_store_uri_t *u);

/* lab_store_uri_db -- the database to use: `opt_db` if set, else the URI's, else "layoutlab". */
const char *lab_store_uri_db (const lab_store_uri_t *u, const char *opt_db);

typedef struct lab_store lab_store_t;
typedef struct lab_session lab_store_session_t;
typedef struct lab_cursor lab_store_cursor_t;

typedef struct {
   const char *db;               /* database (MongoDB); NULL: the URI's, else "layoutlab" */
   uint64_t cache_size_bytes;    /* embedded WiredTiger cache; 0: mongod's rule max(50% (RAM-1GB), 256MB) */
   int32_t connect_timeout_ms;   /* MongoDB serverSelectionTimeoutMS and connectTimeoutMS when the URI sets
                                  * none (the tools pass --server-timeout, 5 s by default); 0: server
                                  * selection 30000 (the server selection spec's default) and libmongoc's
                                  * own connect timeout (10000) */
   bool create;                  /* embedded: create the home directory if missing (tools: true) */
   bool direct_io;               /* embedded: reads and writes of data files bypass the OS page cache
                                  * (WiredTiger direct_io=[data]); emulates a server whose RAM is far
                                  * smaller than its data. Off by default: mongod does not use it. */
   const char *block_compressor; /* the collections this store creates: "none", "snappy", "zlib" or
                                  * "zstd" (lab_store_block_compressor_check). NULL: the backend's default
                                  * (embedded: snappy, as mongod; MongoDB: the server's, nothing sent).
                                  * Embedded: the table's block_compressor; MongoDB: create with
                                  * storageEngine.wiredTiger.configString (see lab_store_compressor_note) */
   int32_t zstd_level;           /* embedded: zstd compression level (0: LAB_ZSTD_DEFAULT_LEVEL) */
   bool unlogged;                /* embedded: the collections this store creates, and their indexes, are
                                  * not journaled (WiredTiger log=(enabled=false)), as mongod creates them
                                  * on a replica set member: their writes are durable at the next
                                  * checkpoint (lab_store_flush), not at commit; the on-disk layout is the
                                  * same. For a bulk fill (billgen generate). MongoDB: ignored */
   bool skip_zstd;               /* embedded, tests only: open without the zstd compressor, to see the
                                  * error a store written with zstd then gives */
   lab_progress_mode_t progress; /* bars (with ETA) on long work inside the store: the embedded index
                                  * build's read and load; default auto (a bar when stderr is a terminal) */
   const char *tool;             /* the tool acting ("scancmp"): every index it builds is recorded in
                                  * LAB_MARK_COLL with the tool and argc/argv (redacted), and none is built
                                  * on a collection layoutlab did not write unless allow_writes names it.
                                  * NULL (library use, tests): nothing recorded, nothing refused */
   int argc;
   char *const *argv;
   const char *const *allow_writes; /* NULL-terminated: the collections layoutlab did not write that the
                                     * user named for writes and index builds (--allow-writes) */
} lab_store_opts_t;

/* zstd level of the embedded store's compressor by default: mongod's zstdCompressionLevel default. */
#define LAB_ZSTD_DEFAULT_LEVEL 6

/* lab_store_block_compressor_check -- `name` is one of none, snappy, zlib, zstd; LAB_ERROR_USAGE otherwise.
 */
bool lab_store_block_compressor_check (const char *name, bson_error_t *error);

/* lab_store_open -- open the store named by `uri` (see uri.h). For MongoDB it pings the server, so an
 * unreachable server fails here within the server selection timeout (lab_store_selection_timeout_ms).
 * Returns NULL with *error set on failure. */
lab_store_t *lab_store_open (const char *uri, const lab_store_opts_t *opts, bson_error_t *error);

/* lab_store_close -- close every remaining session and the store; NULL is fine. */
void lab_store_close (lab_store_t *store);

/* lab_store_backend -- which backend this store is. */
lab_store_backend_t lab_store_backend (const lab_store_t *store);

/* lab_store_uri_redacted -- the store's URI with credentials masked (owned by the store). */
const char *lab_store_uri_redacted (const lab_store_t *store);

/* lab_store_db -- the database name in use (owned by the store). */
const char *lab_store_db (const lab_store_t *store);

/* lab_store_block_compressor -- the block compressor the collections this store creates ask for
 * ("snappy" embedded when none was given; MongoDB: NULL when none was given: the server's default). */
const char *lab_store_block_compressor (const lab_store_t *store);

/* lab_store_compressor_note -- how the backend applied the block compressor at the last collection it
 * created (embedded: "table config block_compressor=zstd"; MongoDB: "create storageEngine.wiredTiger
 * .configString block_compressor=zstd", or that the server ignored or refused it); "" before any create. */
const char *lab_store_compressor_note (const lab_store_t *store);

/* lab_store_home -- embedded: the WiredTiger home directory; MongoDB: NULL. */
const char *lab_store_home (const lab_store_t *store);

/* Default MongoDB serverSelectionTimeoutMS when neither the URI nor connect_timeout_ms sets one. */
#define LAB_SELECTION_TIMEOUT_MS 30000

/* lab_store_selection_timeout_ms -- MongoDB: the server selection timeout in use (the URI's
 * serverSelectionTimeoutMS, else connect_timeout_ms, else LAB_SELECTION_TIMEOUT_MS); embedded: 0. */
int32_t lab_store_selection_timeout_ms (const lab_store_t *store);

/* ---- sessions ---------------------------------------------------------------------------------- */

/* lab_store_session_open -- a per-thread handle. Close it before lab_store_cycle/close. */
lab_store_session_t *lab_store_session_open (lab_store_t *store, bson_error_t *error);
void lab_store_session_close (lab_store_session_t *sess);

/* ---- collections ------------------------------------------------------------------------------- */

/* lab_store_exists -- *exists = the collection exists. */
bool lab_store_exists (lab_store_session_t *sess, const char *coll, bool *exists, bson_error_t *error);

/* lab_store_create -- create the collection (with its `_id` index) when missing; existing is fine. */
bool lab_store_create (lab_store_session_t *sess, const char *coll, bson_error_t *error);

/* lab_store_create_clustered -- create the collection as a clustered collection when missing (an existing
 * clustered one is fine): documents kept in `_id` order in the record table itself, with no separate
 * `_id` index (docs/mongodb-compat.md §23). Embedded: the record table keyed by the KeyString of `_id`
 * (key_format=u), as mongod's WiredTigerRecordStore with KeyFormat::String; find_eq and index_find on
 * `_id` ({_id: 1}, an equality or a [lo, hi) range, e.g. every `_id` {k: K, ...} from {k: K} to
 * {k: K, id: MaxKey}) walk it; secondary indexes, RecordIds and RecordId ranges are refused
 * (LAB_STORE_ERR_NOT_SUPPORTED); an `_id` that is an array or of a type keyenc.h cannot encode is refused
 * per document. MongoDB: create with clusteredIndex {key: {_id: 1}, unique: true} on MongoDB 5.3 or later;
 * FerretDB and older servers: LAB_STORE_ERR_NOT_SUPPORTED naming why. An existing collection of the other
 * kind: LAB_STORE_ERR_NOT_SUPPORTED (embedded; a server keeps its own). */
bool lab_store_create_clustered (lab_store_session_t *sess, const char *coll, bson_error_t *error);

/* The rows layoutlab writes into a clustered collection (store_clustered.c; fold-details --shape clustered,
 * scancmp's appends): the source row with `_id` {<key>: <its key value>, id: <its original _id>} and its
 * other fields unchanged, so `_id` order is (key, original _id) and a master's rows sit together. */
#define LAB_STORE_CLUSTERED_ID "id"

/* lab_store_clustered_row -- *out (initialized here; caller destroys on true) = row with that `_id`; a row
 * without `key`: LAB_STORE_ERR_KEY_TYPE (nothing to destroy). A row without `_id` gets {<key>: K}. */
bool lab_store_clustered_row (const bson_t *row, const char *key, bson_t *out, bson_error_t *error);

/* lab_store_clustered_row_orig -- *out (caller destroys on true) = the source row back: `_id` the
 * original one, the other fields as they are; false (nothing to destroy) when doc's `_id` is not a
 * document holding "id". */
bool lab_store_clustered_row_orig (const bson_t *doc, bson_t *out);

/* lab_store_clustered_bounds -- *lo = {<key>: k}, *hi = {<key>: k, id: MaxKey} (both initialized here;
 * caller destroys): every row of master k has an `_id` in [lo, hi) (lab_store_index_find on {_id: 1}). */
void lab_store_clustered_bounds (const char *key, const bson_value_t *k, bson_t *lo, bson_t *hi);

/* lab_store_collect_index -- a load is about to fill the empty collection `coll`, then build the index
 * on `field` (lab_store_create_index): the embedded store keeps that index's keys as the documents are
 * inserted, so that the build sorts and bulk-loads them without reading the collection back (the same
 * index). Any other write to the collection, or a collection not empty, and the build reads as usual.
 * Nothing on a MongoDB server. */
bool lab_store_collect_index (lab_store_session_t *sess, const char *coll, const char *field,
                              bson_error_t *error);

/* lab_store_create_index -- an ascending, non-unique index on `field` named "<field>_1" (existing is
 * fine): lab_store_create_index_spec with one field, multikey where the field holds arrays. On the
 * embedded store, an index created after its data is built with a bulk cursor. */
bool lab_store_create_index (lab_store_session_t *sess, const char *coll, const char *field,
                             bson_error_t *error);

/* lab_store_has_index -- *has = an index exists whose first key is `field` (`_id` always has one);
 * embedded: a single-field index on `field` (the one find_eq and the sorted reads walk; a compound
 * index whose first key is `field` does not count there). */
bool lab_store_has_index (lab_store_session_t *sess, const char *coll, const char *field, bool *has,
                          bson_error_t *error);

/* lab_store_doc_cb_t -- called per document; the document is valid only during the call. Return false to
 * stop early (not an error). */
typedef bool (*lab_store_doc_cb_t) (const bson_t *doc, void *ctx);

/* ---- compound and multikey indexes ---------------------------------------------------------------
 * An index by its key pattern: up to LAB_STORE_INDEX_MAX_FIELDS ascending fields. Embedded, laid out as
 * mongod lays them out (docs/mongodb-compat.md "Compound and multikey index keys"): one entry per
 * distinct key a document generates (mongod's BtreeKeyGenerator: an array along a dotted path expands
 * into its elements, an empty array indexes undefined, a missing field null; two different arrays in one
 * compound key are refused as "cannot index parallel arrays"); the key is the fields' KeyString values in
 * order + the RecordId; the index is marked multikey once a document generated more than one key or
 * went through an array. A single-field spec (n == 1) is the index lab_store_create_index makes. */
#define LAB_STORE_INDEX_MAX_FIELDS 4
typedef struct {
   const char
      *fields[LAB_STORE_INDEX_MAX_FIELDS]; /* ascending keys; a dotted path may cross arrays (multikey) */
   int n;
} lab_store_index_spec_t;

/* lab_store_index_spec_name -- mongod's default index name: "bill_id_1_line_no_1", "details.charge_time_1"
 * (truncated to len - 1). */
void lab_store_index_spec_name (const lab_store_index_spec_t *spec, char *buf, size_t len);

/* lab_store_index_spec_shell -- the shell command that creates it: db.<coll>.createIndex({ bill_id: 1,
 * line_no: 1 }) (caller bson_free()s). */
char *lab_store_index_spec_shell (const char *coll, const lab_store_index_spec_t *spec);

/* lab_store_create_index_spec -- create the index (existing with the same key pattern is fine); embedded:
 * built over the existing documents (a document the key generator refuses, e.g. parallel arrays, fails
 * the build and leaves no index). A spec with no field, more than LAB_STORE_INDEX_MAX_FIELDS, an empty or
 * repeated field: LAB_ERROR_USAGE. */
bool lab_store_create_index_spec (lab_store_session_t *sess, const char *coll,
                                  const lab_store_index_spec_t *spec, bson_error_t *error);

/* lab_store_index_info -- the index with exactly this key pattern: *exists, *multikey, *size_bytes (on
 * disk; -1 unknown). Missing collection: LAB_STORE_ERR_NO_COLLECTION. MongoDB: listIndexes, the
 * multikey flag from the explain of a find hinted to it (false when the server does not say: FerretDB),
 * the size from collStats indexSizes. */
bool lab_store_index_info (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                           bool *exists, bool *multikey, int64_t *size_bytes, bson_error_t *error);

/* lab_store_list_indexes -- the collection's secondary indexes (every index but `_id`'s), in the order the
 * store lists them (mongod and the embedded store: creation order; FerretDB: by name), into *indexes
 * (initialized here, also on failure; caller destroys): an array of index descriptions {name, key: {<field>:
 * <1, -1 or a type such as "text">, ...}, <options>}. MongoDB: listIndexes' documents as the server returns
 * them, less v and ns; embedded: the catalog's indexes, each {name, key} of ascending fields. *clustered: the
 * collection is clustered (its `_id` index is its record table; MongoDB's {clustered: true} entry is left out
 * of the list). Missing collection: LAB_STORE_ERR_NO_COLLECTION. */
bool lab_store_list_indexes (lab_store_session_t *sess, const char *coll, bson_t *indexes, bool *clustered,
                             bson_error_t *error);

/* lab_store_index_spec_from_desc -- an index description (lab_store_list_indexes) as the spec the store
 * builds (spec->fields point into desc, valid while it lives); false when the store cannot build that index
 * as it is, `why` (of whylen bytes) saying why: "descending key 'a: -1'", "key 'body: text'", "5 fields
 * (at most 4)", "option 'unique'" (unique, sparse, partial, TTL, collation, hidden, ...: a plain index
 * would behave otherwise). Pure. */
bool lab_store_index_spec_from_desc (const bson_t *desc, lab_store_index_spec_t *spec, char *why,
                                     size_t whylen);

/* lab_store_index_find -- IXSCAN + FETCH through the index with exactly this key pattern (missing:
 * LAB_STORE_ERR_NO_INDEX naming the shell command): the documents whose entry has eq[0..neq) on its first
 * neq fields and, when lo or hi is non-NULL, field neq in [lo, hi) (as a query's bounds: with only one
 * of them, the other end of the bound's type bracket); index order, each document once (a multikey index's
 * RecordIds deduplicated, as mongod's IXSCAN). Embedded: a document is returned when one of its entries
 * is in the bounds, i.e. one array element satisfies the range ($elemMatch semantics). *keys_examined
 * (index entries read; MongoDB: -1, unknown) and *docs_fetched (documents returned) may be NULL.
 * MongoDB: find with that filter ({$gte, $lt} on the field) and hint = the key pattern; there a range on
 * a multikey field matches a document one of whose elements is >= lo and one (perhaps another) < hi. */
bool lab_store_index_find (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                           const bson_value_t *eq, int neq, const bson_value_t *lo, const bson_value_t *hi,
                           lab_store_doc_cb_t cb, void *ctx, int64_t *keys_examined, int64_t *docs_fetched,
                           bson_error_t *error);

/* lab_store_drop_index -- drop the index with exactly this key pattern (MongoDB: dropIndexes by its name;
 * embedded: its table, and its entry in the catalog). A missing index or collection is not an error:
 * *dropped (may be NULL) says whether one was dropped. The `_id` index ({_id: 1}) is never dropped:
 * LAB_ERROR_USAGE, as a bad spec. */
bool lab_store_drop_index (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                           bool *dropped, bson_error_t *error);

/* lab_store_drop -- drop the collection and its indexes; a missing collection is not an error. */
bool lab_store_drop (lab_store_session_t *sess, const char *coll, bson_error_t *error);

/* lab_store_count -- exact number of documents (MongoDB: countDocuments, a scan of the `_id` index or of
 * the collection: minutes on 10^8 rows; use it where the figure must be exact). A missing collection:
 * LAB_STORE_ERR_NO_COLLECTION. */
bool lab_store_count (lab_store_session_t *sess, const char *coll, int64_t *count, bson_error_t *error);

/* lab_store_count_estimated -- number of documents from the collection's metadata, for progress bars and
 * sizes of ranges: MongoDB the `count` command without a query (no scan; may drift after an unclean
 * shutdown, counts orphans on a sharded cluster; FerretDB counts); embedded: the exact count, which costs
 * nothing there. A missing collection: LAB_STORE_ERR_NO_COLLECTION. */
bool lab_store_count_estimated (lab_store_session_t *sess, const char *coll, int64_t *count,
                                bson_error_t *error);

typedef struct {
   int64_t count;
   int64_t data_size_bytes; /* sum of BSON sizes (uncompressed) */
   double avg_obj_size_bytes;
   int64_t storage_size_bytes; /* on disk, collection table only */
   int64_t index_size_bytes;   /* on disk, all indexes */
   int32_t nindexes;
   bool clustered; /* a clustered collection (lab_store_create_clustered): records in _id order */
} lab_store_coll_stats_t;

/* lab_store_stats -- collection statistics (estimates on FerretDB). Missing: NO_COLLECTION. */
bool lab_store_stats (lab_store_session_t *sess, const char *coll, lab_store_coll_stats_t *st,
                      bson_error_t *error);

/* lab_store_find_id -- *doc = the document of `coll` whose _id is the string `id` (caller destroys), or
 * NULL when there is none or the collection does not exist (small bookkeeping documents: checkpoints,
 * markers). */
bool lab_store_find_id (lab_store_session_t *sess, const char *coll, const char *id, bson_t **doc,
                        bson_error_t *error);

/* lab_store_list -- the names of the database's collections, sorted, NULL-terminated (caller frees with
 * bson_strfreev): MongoDB listCollections (nameOnly; views and system.* left out), embedded: the catalog.
 * LAB_MARK_COLL is listed like any other: callers that show user collections leave it out. */
bool lab_store_list (lab_store_session_t *sess, char ***names, bson_error_t *error);

/* lab_store_coll_uuid -- the collection's UUID as the server reports it (MongoDB: listCollections
 * info.uuid, a binary of subtype 4; FerretDB reports one too) into *uuid (caller bson_value_destroy()s
 * when *has); *has false when the backend keeps none (embedded) or the collection is missing. */
bool lab_store_coll_uuid (lab_store_session_t *sess, const char *coll, bson_value_t *uuid, bool *has,
                          bson_error_t *error);

/* ---- provenance: which collections layoutlab wrote ----------------------------------------------
 * Every collection a tool writes gets one document in the side collection LAB_MARK_COLL of the same
 * database, {_id: "<collection>", layoutlab: 1, <the tool's fields>, uuid}, written before its first
 * document (a killed run's partial collection is still marked). The fields are the caller's (tool,
 * version, written_at, command_line, source, params, verify: see store/mark.h, docs/results-schema.md).
 * A collection is layoutlab's when its document exists and, when both the document and the server know
 * a UUID, the two agree: a collection dropped and recreated by someone else under the same name is not.
 * lab_store_drop removes the collection's document. Both backends keep it (the embedded store for the
 * record; its collections are all layoutlab's). */
#define LAB_MARK_COLL "_layoutlab"

/* The _id prefix of an index record in LAB_MARK_COLL: "$index:<coll>:<index name>" ('$' is never in a
 * collection name, so it never meets a collection's marker). The record: {_id, layoutlab: 1, kind: "index",
 * collection, name, keys: [field, ...] (the ascending key pattern in order: a dotted field cannot be a
 * stored key), size_bytes (-1 unknown), created_at, tool, command_line, on_foreign (built on a collection
 * layoutlab did not write, under --allow-writes), collection_uuid}.
 * lab_store_create_index and lab_store_create_index_spec write it when a store opened with opts.tool
 * builds an index that was not there. */
#define LAB_MARK_INDEX_PREFIX "$index:"

/* lab_store_mark_put -- replace the marker of `coll` with {_id: coll, layoutlab: 1, fields..., uuid (the
 * collection's, when the backend has one; any "uuid" in `fields` is ignored)}; `coll` should exist. */
bool lab_store_mark_put (lab_store_session_t *sess, const char *coll, const bson_t *fields,
                         bson_error_t *error);

/* lab_store_mark_get -- *doc = the marker of `coll` without _id (caller destroys) when `coll` is
 * layoutlab's, else NULL; *foreign (may be NULL) = a marker exists but its UUID is not the collection's
 * (recreated by someone else). */
bool lab_store_mark_get (lab_store_session_t *sess, const char *coll, bson_t **doc, bool *foreign,
                         bson_error_t *error);

/* lab_store_mark_set -- when `coll` is layoutlab's: its marker with field `key` replaced by (or added as)
 * `value`, a document (the verification after --verify); *set (may be NULL) says whether it was. */
bool lab_store_mark_set (lab_store_session_t *sess, const char *coll, const char *key, const bson_t *value,
                         bool *set, bson_error_t *error);

/* ---- writes ------------------------------------------------------------------------------------ */

typedef struct {
   size_t index;    /* position of the document in the batch */
   uint32_t domain; /* LAB_ERROR_STORE or a mongoc domain */
   uint32_t code;   /* e.g. LAB_STORE_ERR_DOC_TOO_LARGE, LAB_STORE_ERR_DUPLICATE_KEY, 11000 */
   char message[256];
} lab_store_write_error_t;

typedef struct {
   int64_t inserted;                /* documents written */
   size_t nerrors;                  /* per-document errors (each document not written) */
   lab_store_write_error_t *errors; /* nerrors entries; free with lab_store_insert_result_cleanup */
} lab_store_insert_result_t;

/* lab_store_insert_many -- unordered bulk insert of `n` documents. A document without `_id` gets an
 * ObjectId. Documents over the max BSON size are refused per document (LAB_STORE_ERR_DOC_TOO_LARGE) on
 * both backends, before anything is sent; other documents are still written. Returns false only when the
 * batch as a whole failed (connection, disk, missing database); per-document failures are in *result
 * with true returned. The caller keeps batches under LAB_MESSAGE_MAX_BYTES (the backend splits anyway). */
bool lab_store_insert_many (lab_store_session_t *sess, const char *coll, const bson_t *const *docs, size_t n,
                            lab_store_insert_result_t *result, bson_error_t *error);

/* lab_store_insert_many_at -- lab_store_insert_many, with document i placed at position `first + i` of
 * the collection's natural order: on the embedded store its RecordId is first + i + 1, whichever session
 * or thread writes it, so several writers filling one collection in parallel leave the same RecordIds as
 * one writer would (a refused document leaves its RecordId unused). A position already taken fails the
 * batch (nothing is overwritten). A server assigns its own RecordIds, and a clustered collection's are
 * its `_id`s: there `first` is ignored. */
bool lab_store_insert_many_at (lab_store_session_t *sess, const char *coll, const bson_t *const *docs,
                               size_t n, int64_t first, lab_store_insert_result_t *result,
                               bson_error_t *error);
void lab_store_insert_result_cleanup (lab_store_insert_result_t *result);

/* lab_store_insert_result_add_error -- append one per-document error (printf-style message) to *result;
 * used by the backends and the generic size check. */
void lab_store_insert_result_add_error (lab_store_insert_result_t *result, size_t index, uint32_t domain,
                                        uint32_t code, const char *fmt, ...) BSON_GNUC_PRINTF (5, 6);

/* lab_store_upsert_by_id -- replace the document whose _id equals doc's `_id`, or insert it. For small
 * bookkeeping documents (fold checkpoints). */
bool lab_store_upsert_by_id (lab_store_session_t *sess, const char *coll, const bson_t *doc,
                             bson_error_t *error);

/* lab_store_delete_eq -- delete every document with field == value; *deleted (may be NULL) gets the
 * number. The field must be `_id` or indexed. */
bool lab_store_delete_eq (lab_store_session_t *sess, const char *coll, const char *field,
                          const bson_value_t *value, int64_t *deleted, bson_error_t *error);

/* lab_store_flush -- make writes durable (embedded: checkpoint; MongoDB: no-op). */
bool lab_store_flush (lab_store_t *store, bson_error_t *error);

/* lab_store_set_journaled -- embedded: the tables of `coll` (its records and every index) journaled
 * again (WiredTiger alter log=(enabled=true), only where they are not), after a fill by a store opened
 * with opts.unlogged and flushed: later writers journal as on a standalone mongod. No session
 * may hold a cursor on them (else EBUSY, retried after a checkpoint). MongoDB: nothing. */
bool lab_store_set_journaled (lab_store_t *store, const char *coll, bson_error_t *error);

/* ---- reads ------------------------------------------------------------------------------------- */

/* Owned copies of the documents a read returned, in order: lab_store_docs_keep is a lab_store_doc_cb_t
 * whose ctx is a zeroed lab_store_docs_t; lab_store_docs_clear frees them. */
typedef struct {
   bson_t **docs;
   size_t n, cap;
} lab_store_docs_t;

/* lab_store_docs_keep -- a read's callback: append a copy of doc to the lab_store_docs_t ctx. */
bool lab_store_docs_keep (const bson_t *doc, void *ctx);

/* lab_store_docs_clear -- destroy the copies and free the list; zeroed, ready to be filled again. */
void lab_store_docs_clear (lab_store_docs_t *d);

/* lab_store_find_eq -- every document with field == value, in index order (IXSCAN+FETCH); the field
 * must be `_id` or indexed (else LAB_STORE_ERR_NO_INDEX). *ndocs (may be NULL) gets the count. */
bool lab_store_find_eq (lab_store_session_t *sess, const char *coll, const char *field,
                        const bson_value_t *value, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
                        bson_error_t *error);

/* lab_store_server_query -- a MongoDB server only: run `find` (pipeline NULL: filter, opts as
 * mongoc_collection_find_with_opts takes them: projection, hint, batchSize) or `aggregate` (pipeline an
 * array document, opts: hint, batchSize, allowDiskUse) on coll, calling cb per returned document. *ndocs
 * (may be NULL) gets the count. The embedded store has no query language: LAB_STORE_ERR_NOT_SUPPORTED
 * (its callers play mongod's plan over lab_store_find_eq, the sorted and natural reads). */
bool lab_store_server_query (lab_store_session_t *sess, const char *coll, const bson_t *filter,
                             const bson_t *pipeline, const bson_t *opts, lab_store_doc_cb_t cb, void *ctx,
                             int64_t *ndocs, bson_error_t *error);

typedef struct {
   const bson_value_t *lo; /* inclusive lower bound on the field, NULL: unbounded */
   const bson_value_t *hi; /* exclusive upper bound, NULL: unbounded */
   int32_t batch_docs;     /* MongoDB cursor batch size; 0: derived from avg doc size, far below 48 MB */
   /* Embedded: index entries read ahead, up to this many (and 64 MiB of documents), their records fetched
    * in RecordId order and handed out in the index's order -- the same stream, fewer tree descents when a
    * key's rows are scattered; 0: each record fetched as its entry is read (mongod's FETCH). MongoDB:
    * ignored. */
   int32_t fetch_ahead_rows;
} lab_store_sorted_opts_t;

/*
 * The sorted-read contract (lab_store_sorted_open, lab_store_sorted_describe, lab_store_partition,
 * lab_store_distinct_keys), the same on both backends:
 * - `field` must have an index (`_id` always has one): the read walks it and never sorts the collection.
 *   Without one the call fails before reading anything with LAB_STORE_ERR_NO_INDEX, whose message names
 *   the collection, the field and the remedy (the tool's --create-index, lab_store_create_index, or
 *   db.<coll>.createIndex({<field>: 1})). A missing collection is LAB_STORE_ERR_NO_COLLECTION.
 * - Embedded: the walk of the index (key, then RecordId) fetching each record (IXSCAN+FETCH); ties in
 *   RecordId order, i.e. insertion order.
 * - MongoDB: aggregate [{$match: [lo, hi)}, {$sort: {field: 1}}] with `hint` to that index, allowDiskUse
 *   and a batch size far below the 48 MB reply limit. The sort is on the field alone: an index on
 *   {field: 1} serves it (its entries are ordered by key, then RecordId), where {field: 1, _id: 1} would
 *   be a blocking sort of the whole collection before the first batch. Ties come in index order (RecordId
 *   order). The index used is {field: 1} when it exists, else another non-sparse, non-partial index whose
 *   first key is `field` (hashed, text, sparse, partial and hidden indexes cannot serve the stream). Through
 *   mongos each shard streams its index and mongos merges on the key: a key's rows stay contiguous, but
 *   ties from different shards may interleave in any order.
 *   FerretDB (the test server) ignores `hint` and sorts every read in memory with an unstable sort: there
 *   the sort is {field: 1, _id: 1}, so ties come in _id order (insertion order for generated ObjectIds).
 * - Partition bounds and distinct keys read only the index (covered reads, no document fetched).
 */

/* lab_store_sorted_open -- stream the collection's documents sorted by `field`, optionally limited to
 * [lo, hi); see the contract above. */
lab_store_cursor_t *lab_store_sorted_open (lab_store_session_t *sess, const char *coll, const char *field,
                                           const lab_store_sorted_opts_t *opts, bson_error_t *error);

/* lab_store_sorted_describe -- append to `out` (an initialized document) what lab_store_sorted_open would
 * do with the same arguments, without reading any document, for a --plan:
 *   backend         "mongodb" or "wiredtiger"
 *   command         MongoDB: the exact aggregate command (aggregate, pipeline, cursor.batchSize,
 *                   allowDiskUse, hint, $db)
 *   walk            embedded: {collection, index (key pattern), lo, hi, fetch}
 *   index           the key pattern of the index walked
 *   blocking_sort   true when the server sorts before the first batch (FerretDB: it ignores hint)
 *   ties            the order of documents with equal keys
 * Fails as lab_store_sorted_open would (NO_COLLECTION, NO_INDEX). */
bool lab_store_sorted_describe (lab_store_session_t *sess, const char *coll, const char *field,
                                const lab_store_sorted_opts_t *opts, bson_t *out, bson_error_t *error);

/* lab_store_sorted_explain -- MongoDB: the server's own plan of the read lab_store_sorted_open would send
 * with the same arguments: {explain: <that aggregate, without $db>, verbosity: "queryPlanner"} (no
 * document is read); *reply (always initialized, caller destroys) is the server's answer, parsed by
 * lab_store_facts_explain_parse (serverfacts.h). The server's refusal (a hidden index cannot be hinted) keeps
 * its domain and code. Embedded: LAB_STORE_ERR_NOT_SUPPORTED (it walks the index; nothing to ask). */
bool lab_store_sorted_explain (lab_store_session_t *sess, const char *coll, const char *field,
                               const lab_store_sorted_opts_t *opts, bson_t *reply, bson_error_t *error);

/* lab_store_cursor_next -- 1 and *doc (valid until the next call) when there is a document, 0 at the end (and
 * on every call after it), -1 on error with *error set. */
int lab_store_cursor_next (lab_store_cursor_t *cur, const bson_t **doc, bson_error_t *error);
void lab_store_cursor_close (lab_store_cursor_t *cur);

/* lab_store_partition -- split the collection's `field` values into `n` contiguous ranges of roughly
 * equal document counts: *bounds gets n-1 increasing split values (range i is [bounds[i-1], bounds[i]),
 * the first and last unbounded, so the ranges cover every document exactly once). A key value is never
 * split across ranges, so fewer than n-1 bounds may come back (*nbounds). Reads only the index on
 * `field` (NO_INDEX without one). Caller frees with lab_store_values_free(*bounds, *nbounds). */
bool lab_store_partition (lab_store_session_t *sess, const char *coll, const char *field, int n,
                          bson_value_t **bounds, int *nbounds, bson_error_t *error);
void lab_store_values_free (bson_value_t *values, int n);

/* lab_store_distinct_keys -- every distinct value of `field` in ascending order (numerically equal values
 * of different types count once; documents without the field give null). Reads only the index on `field`
 * (NO_INDEX without one). *keys is an array of *nkeys values; free with lab_store_values_free. */
bool lab_store_distinct_keys (lab_store_session_t *sess, const char *coll, const char *field,
                              bson_value_t **keys, int64_t *nkeys, bson_error_t *error);

/* ---- what a key field holds (keyinfo.c) ---------------------------------------------------------- */

/* The BSON types of a key index's entries. MongoDB orders values by type class first (its BSON comparison
 * order: minKey, null, numbers, strings, documents, arrays, binData, objectId, bool, date, timestamp,
 * regex, maxKey; docs/mongodb-compat.md), so the classes of the first and the last entry tell whether
 * there is more than one; int32, int64, double and decimal are one class (7, 7L and 7.0 are one key, as
 * in the store's KeyString: store/keyenc.h). */
typedef struct {
   bool empty;              /* the index has no entry */
   bson_type_t first, last; /* the types of the first and the last entry in index order */
   int nclasses;            /* type classes: 1 when both ends agree (rows not counted then) */
   bool counted;            /* the ends differ: rows[] holds every entry's type */
   int64_t rows[256];       /* entries per bson_type_t; a document without the field counts as null */
} lab_store_key_types_t;

/* lab_store_key_types -- the types of the index on `field` of `coll`: its two ends (one positioning
 * each: embedded, the index cursor's first and last entry; a server, two covered finds of one key sorted
 * either way); only when their classes differ, one walk of the index counting every entry per type (no
 * document read). NO_INDEX without an index on field. */
bool lab_store_key_types (lab_store_session_t *sess, const char *coll, const char *field,
                          lab_store_key_types_t *out, bson_error_t *error);

/* lab_store_key_types_list -- the types of a counted `kt` that have rows, into out[256], in MongoDB's
 * comparison order of their classes; returns how many. */
size_t lab_store_key_types_list (const lab_store_key_types_t *kt, bson_type_t *out);

/* lab_store_key_types_text -- "int32 (40 rows), string (40 rows)" of a counted `kt` into buf, in that order.
 */
void lab_store_key_types_text (const lab_store_key_types_t *kt, char *buf, size_t len);

/* lab_store_type_name -- MongoDB's name of a BSON type as this project prints it: int32, int64, double,
 * string, null, objectId, date, bool, ... */
const char *lab_store_type_name (bson_type_t t);

/* lab_store_type_class -- the rank of t's class in MongoDB's BSON comparison order (numbers one class,
 * null/undefined/missing one, string/symbol one). */
int lab_store_type_class (bson_type_t t);

/* lab_store_field_check -- whether `coll`'s documents have `field` at all, from its first 20 documents in
 * natural order (lab_store_natural_open: no index needed): *absent true when some were read and none has
 * it, with *error set to LAB_ERROR_USAGE "no document of COLL has a field FIELD (fields seen: a, b, ...;
 * N documents read in natural order)" for the caller to extend with its remedy. An empty collection is
 * not absent. Returns false only when the read fails. */
bool lab_store_field_check (lab_store_session_t *sess, const char *coll, const char *field, bool *absent,
                            bson_error_t *error);

/* ---- natural order: collection scans ----------------------------------------------------------- */

/* A part of a collection's natural order: the documents whose RecordId is in [rid_lo, rid_hi). */
typedef struct {
   int64_t rid_lo; /* first RecordId (inclusive); 0: from the first document */
   int64_t rid_hi; /* RecordId to stop before (exclusive); 0: to the last document */
} lab_store_natural_range_t;

typedef struct {
   lab_store_natural_range_t range; /* {0, 0}: the whole collection */
   int32_t batch_docs; /* MongoDB cursor batch size; 0: derived from avg doc size, far below 48 MB */
} lab_store_natural_opts_t;

/*
 * The natural-order contract (lab_store_natural_open, lab_store_natural_ranges, lab_store_natural_describe):
 * every document of the collection exactly once, in the order the store keeps them (not a sort key: a
 * caller must not depend on it), with no index touched and nothing sorted -- mongod's COLLSCAN. It is the
 * cheapest full read a store can serve: each data page is read once, in file order as far as the file is
 * laid out that way, where an index-order read fetches each record by RecordId (IXSCAN+FETCH) and, when
 * the rows of one key are scattered, reads each page many times.
 * - Embedded: a cursor on the collection's table itself (key = RecordId), walked forward. Cost: one pass
 *   over the table's leaf pages (its storage size read from disk when cold, every page decompressed once),
 *   no index page read. A range [rid_lo, rid_hi) positions with one search (a root-to-leaf descent) and
 *   stops at rid_hi: ranges that tile the collection cost one pass in all, and n threads, each with its
 *   own session, can read n ranges at once (lab_store_natural_ranges).
 * - MongoDB: find {filter: {}, hint: {$natural: 1}, batchSize} (mongod plans a COLLSCAN for a $natural
 *   hint; docs/mongodb-compat.md), batches far below the 48 MB reply limit. Cost on the server: one pass
 *   over the collection's data pages, no index read, no sort, nothing held in memory beyond a batch; on a
 *   production server it is the read that disturbs the cache least per document returned. A server gives
 *   no RecordId bounds to a find on a collection that is not clustered, so only the whole collection is a
 *   range there (lab_store_natural_ranges gives one); a range other than {0, 0} is
 *   LAB_STORE_ERR_NOT_SUPPORTED. Through mongos each shard scans its own part. FerretDB (the test server)
 *   accepts the hint and returns the documents in its own storage order.
 * - A collection written during the scan may give documents written after it started or not; a document
 *   moved by an update may come twice or not at all (as on mongod without a snapshot): scan a collection
 *   nobody writes.
 * A missing collection is LAB_STORE_ERR_NO_COLLECTION.
 */

/* lab_store_natural_open -- stream the collection's documents in natural order, limited to opts->range
 * (see the contract above); opts may be NULL (the whole collection). */
lab_store_cursor_t *lab_store_natural_open (lab_store_session_t *sess, const char *coll,
                                            const lab_store_natural_opts_t *opts, bson_error_t *error);

/* lab_store_natural_ranges -- split the collection's natural order into at most `n` ranges that tile it
 * (each document in exactly one, the first from 0 and the last to 0), of about equal RecordId spans:
 * embedded, from its first and last RecordId (two cursor positionings, nothing else read); a collection
 * with fewer documents than n, or a server, gives fewer (MongoDB: one, {0, 0}). *ranges is bson_malloc'd
 * (caller bson_free()s). */
bool lab_store_natural_ranges (lab_store_session_t *sess, const char *coll, int n,
                               lab_store_natural_range_t **ranges, int *nranges, bson_error_t *error);

/* lab_store_natural_describe -- append to `out` what lab_store_natural_open would do, without reading a
 * document (for a --plan): backend, and command (MongoDB: the find command) or walk (embedded:
 * {collection, table, rid_lo, rid_hi}), index: null, blocking_sort: false, order. */
bool lab_store_natural_describe (lab_store_session_t *sess, const char *coll,
                                 const lab_store_natural_opts_t *opts, bson_t *out, bson_error_t *error);

/* ---- server and engine facts ------------------------------------------------------------------- */

/* What answers behind a store (lab_store_server_info_t.product): only mongod's (and a mongos over mongods)
 * figures stand for mongod; the embedded engine is mongod's WiredTiger without the server. */
#define LAB_STORE_PRODUCT_EMBEDDED "embedded"
#define LAB_STORE_PRODUCT_MONGOD "mongod"
#define LAB_STORE_PRODUCT_MONGOS "mongos"
#define LAB_STORE_PRODUCT_FERRETDB "ferretdb"
#define LAB_STORE_PRODUCT_UNKNOWN "unknown"

typedef struct {
   char backend[32];          /* "wiredtiger" or "mongodb" */
   char product[16];          /* LAB_STORE_PRODUCT_*: embedded, mongod, mongos, ferretdb, unknown */
   char version[64];          /* WiredTiger library version / server version */
   char host[256];            /* server host name (MongoDB) or local host name */
   int64_t max_bson_bytes;    /* maxBsonObjectSize (embedded: 16 MiB) */
   int64_t max_message_bytes; /* maxMessageSizeBytes (embedded: 48,000,000) */
   int64_t pid;               /* server pid when known (embedded: own pid), else 0 */
   int64_t uptime_s;          /* server uptime when known, else -1 */
   int64_t start_ms;          /* when the server process started, ms since the epoch: serverStatus localTime
                               * - uptimeMillis (MongoDB; -1 unknown); embedded: the store's open */
   bool local;                /* server runs on this machine (its page cache is ours to drop) */
   bool query_subset;         /* the server runs a subset of mongod's query language (FerretDB 1.24: no
                               * $elemMatch projection, no $filter, an $unwind that drops the other fields):
                               * callers fetch whole documents and filter them themselves */
   bool pid_local;            /* `pid` is the server's process in this machine's /proc: embedded, or a local
                               * server whose /proc/PID/comm is a known server name
                               * (lab_store_server_comm_trusted). A server in a container answers with its
                               * own pid (often 1): /proc/PID then is another process, so this is false
                               * and nothing may be read from /proc/PID. */
} lab_store_server_info_t;

/* lab_store_server_info -- facts about the server/engine. */
bool lab_store_server_info (lab_store_t *store, lab_store_server_info_t *info, bson_error_t *error);

/* lab_store_server_comm_trusted -- `comm` (the content of /proc/PID/comm, without its newline) names a server
 * process whose pid we may follow in /proc: "mongod", or the test server's wrapper binary
 * "ferretdb-test-server-<hash>", which the kernel truncates to 15 bytes ("ferretdb-test-s"). */
bool lab_store_server_comm_trusted (const char *comm);

/* Bytes of every write message kept free for the command envelope (as mongoimport: 1 MiB). */
#define LAB_MESSAGE_SLACK_BYTES 1048576

/* lab_store_write_budget_bytes -- the most document bytes one write batch may carry under a server whose
 * maxMessageSizeBytes is `max_message_bytes`: that minus LAB_MESSAGE_SLACK_BYTES (a value too small to
 * be real, e.g. 0 when unknown, gives LAB_MESSAGE_MAX_BYTES minus the slack). */
int64_t lab_store_write_budget_bytes (int64_t max_message_bytes);

typedef struct {
   int64_t cache_bytes;       /* bytes in the engine cache now (-1 unknown) */
   int64_t cache_max_bytes;   /* configured maximum (-1 unknown) */
   int64_t block_reads;       /* blocks read by the block manager (embedded; -1 unknown) */
   int64_t block_read_bytes;  /* bytes read from disk, compressed (-1 unknown) */
   int64_t cache_read_bytes;  /* bytes read into cache, uncompressed (-1 unknown) */
   int64_t cache_pages_read;  /* pages read into cache (-1 unknown) */
   int64_t server_rss_bytes;  /* server resident memory when known (-1 unknown) */
   int64_t docs_examined;     /* serverStatus metrics.queryExecutor.scannedObjects: documents the server's
                               * plans fetched, since it started (MongoDB; -1 unknown); embedded: documents
                               * the store read from its record tables since it opened (get_value) */
   int64_t keys_examined;     /* metrics.queryExecutor.scanned: index keys examined (as above) */
   int64_t block_writes;      /* blocks written by the block manager (-1 unknown) */
   int64_t block_write_bytes; /* bytes written by the block manager: data and index pages, at eviction and
                               * checkpoints (-1 unknown) */
   int64_t log_bytes_written; /* WiredTiger "log: log bytes written": the journal (-1 unknown, or no log) */
   int64_t checkpoints;       /* "transaction: transaction checkpoints" (-1 unknown) */
} lab_store_engine_stats_t;

/* lab_store_engine_stats -- engine counters now (embedded: WiredTiger connection statistics; MongoDB:
 * serverStatus wiredTiger.cache and mem.resident when available, else -1; server_rss_bytes from
 * /proc/PID/status only when info.pid_local, and a /proc that cannot be read keeps mem.resident). */
bool lab_store_engine_stats (lab_store_t *store, lab_store_engine_stats_t *st, bson_error_t *error);

/* lab_store_command_simple -- MongoDB: run `cmd` on database `db` (e.g. "admin" for hello, serverStatus,
 * listShards, getDiagnosticData) on the primary/selected server through a pooled client; *reply is always
 * initialized (caller destroys). The server's refusal keeps its own domain and code. Embedded:
 * LAB_STORE_ERR_NOT_SUPPORTED. */
bool lab_store_command_simple (lab_store_t *store, const char *db, const bson_t *cmd, bson_t *reply,
                               bson_error_t *error);

/* ---- the oplog of a replica set (docs/mongodb-compat.md §26) ------------------------------------- */

/* Where the oplog stood before some writes: the newest local.oplog.rs entry's ts. */
typedef struct {
   bool have;           /* false: no oplog to read, `reason` says why */
   uint32_t ts_t, ts_i; /* the newest entry's ts (seconds, increment) */
   char reason[256];
} lab_store_oplog_mark_t;

/* lab_store_oplog_mark -- *mark: the newest oplog entry's ts when the store is a replica set member (hello
 * has setName) whose local.oplog.rs can be read; else have false with the reason (embedded: "no oplog: a
 * standalone engine"). Never fails. */
void lab_store_oplog_mark (lab_store_t *store, lab_store_oplog_mark_t *mark);

/* lab_store_oplog_since -- the oplog entries of `coll` (ns "<db>.<coll>", or an applyOps entry holding
 * operations on it: mongod's batched inserts) newer than `mark`: their count and
 * the sum of their BSON sizes ($bsonSize, MongoDB 4.4+). -1 and false with a message when unknown. */
bool lab_store_oplog_since (lab_store_t *store, const lab_store_oplog_mark_t *mark, const char *coll,
                            int64_t *bytes, int64_t *entries, bson_error_t *error);

/* lab_store_oplog_pipeline -- *pipeline (initialized here, caller destroys): the aggregate of
 * lab_store_oplog_since, $match on ts > mark and ns (or an applyOps holding ops on ns), $group by op summing
 * {$bsonSize: "$$ROOT"} (bytes) and 1 (entries). */
bool lab_store_oplog_pipeline (const char *ns, const lab_store_oplog_mark_t *mark, bson_t *pipeline);

/* lab_store_oplog_parse -- the aggregate's reply: *bytes and *entries summed over cursor.firstBatch's
 * results (one per op; 0 and 0 when the batch is empty); false, -1 and a message when the reply or a
 * result's field is missing or not a number. */
bool lab_store_oplog_parse (const bson_t *reply, int64_t *bytes, int64_t *entries, bson_error_t *error);

/* lab_store_data_files -- embedded: absolute paths of the files that hold `coll` (collection table and
 * its index tables), NULL-terminated, caller frees with bson_strfreev; coll NULL: every file of the home.
 * MongoDB: LAB_STORE_ERR_NOT_SUPPORTED. */
bool lab_store_data_files (lab_store_t *store, const char *coll, char ***paths, bson_error_t *error);

/* ---- cache sweep and locality ------------------------------------------------------------------ */

/* The smallest engine cache: WiredTiger's cache_size minimum (1MB), as the --cache-size check. */
#define LAB_STORE_MIN_CACHE_BYTES (1024 * 1024)

/* lab_store_set_cache_size -- the engine cache for what follows. Embedded: the connection is
 * reconfigured now and every later cycle reopens with it. MongoDB: setParameter
 * wiredTigerEngineRuntimeConfig "cache_size=NM" (admin) now and again after every cycle (a restarted
 * mongod forgets it); LAB_STORE_ERR_NOT_SUPPORTED where the server lacks the parameter (FerretDB).
 * Under LAB_STORE_MIN_CACHE_BYTES: LAB_ERROR_USAGE. */
bool lab_store_set_cache_size (lab_store_t *store, uint64_t bytes, bson_error_t *error);

/* lab_store_record_ids -- the RecordIds of the documents whose indexed `field` equals `value`,
 * ascending (embedded: from the key index entries; MongoDB: find with showRecordId). *rids is
 * bson_malloc'd (caller bson_free()s, also when *n is 0). LAB_STORE_ERR_NOT_SUPPORTED where the server
 * has no RecordIds (FerretDB) or the collection is clustered (MongoDB: listCollections says so; its
 * $recordId is its _id value, docs/mongodb-compat.md §17). */
bool lab_store_record_ids (lab_store_session_t *sess, const char *coll, const char *field,
                           const bson_value_t *value, int64_t **rids, size_t *n, bson_error_t *error);

/* lab_store_leaf_pages -- the collection's data leaf pages (WiredTiger "btree: row-store leaf pages");
 * LAB_STORE_ERR_NOT_SUPPORTED when the engine does not say (MongoDB: collStats gives it only when the
 * server gathers every statistic). */
bool lab_store_leaf_pages (lab_store_session_t *sess, const char *coll, int64_t *pages, bson_error_t *error);

/* lab_store_coll_cache_bytes -- the bytes of `coll` and its indexes the engine cache holds now (WiredTiger
 * "cache: bytes currently in the cache": embedded, each table's statistics cursor; MongoDB, collStats
 * wiredTiger.cache and indexDetails.*.cache). *bytes -1 where the server does not say (FerretDB has no
 * WiredTiger section): unknown, not an error. A missing collection: LAB_STORE_ERR_NO_COLLECTION. */
bool lab_store_coll_cache_bytes (lab_store_session_t *sess, const char *coll, int64_t *bytes,
                                 bson_error_t *error);

/* A sampled count of a collection's data leaf pages (lab_store_leaf_pages_estimate). */
typedef struct {
   int64_t pages;      /* the collection's leaf pages: its documents / (rows read / pages crossed) */
   double error_pct;   /* 95% bound on the relative error of `pages`, in percent */
   int64_t rows_read;  /* records the sample's runs stepped over, by key only (their documents not read) */
   int64_t pages_read; /* leaf pages they crossed (read into the engine cache) */
   int windows;        /* the runs */
   int64_t pages_read_all; /* every page of the table the estimate read into the cache: the pilot's, the
                            * runs', their positioning (internal pages too) */
   int64_t docs_fetched;   /* documents read meanwhile by the store's documents-read counter
                            * (lab_store_engine_stats docs_examined): 0, the runs read keys only */
} lab_store_leaf_estimate_t;

/* The sample's size by default: about 64 x 16 = 1,024 pages crossed. */
#define LAB_LEAF_SAMPLE_WINDOWS 64
#define LAB_LEAF_SAMPLE_PAGES_PER_WINDOW 16

typedef struct {
   int windows;          /* runs of consecutive documents (0: LAB_LEAF_SAMPLE_WINDOWS; at least 2) */
   int pages_per_window; /* leaf pages each run aims to cross (0: LAB_LEAF_SAMPLE_PAGES_PER_WINDOW) */
} lab_store_leaf_sample_opts_t;

/* lab_store_leaf_pages_estimate -- the collection's data leaf pages from a sample, where the exact count
 * (lab_store_leaf_pages: a walk of the whole tree, every page read: 50 s at 55 M rows) is too dear.
 * Embedded: 8 short pilot runs of consecutive records give the rows per page roughly; then `windows` runs,
 * spread evenly over the RecordIds between the pilot's (a clustered collection, keyed by the KeyString of
 * _id: the pilot's and the runs' starts are n + 8 keys drawn by WiredTiger's random cursor, sorted, each run
 * stopping before the next start and left out when it had to), each long enough to cross about
 * `pages_per_window` leaf pages, count the leaf pages each brings into the engine cache (the table's own
 * statistic "cache: pages read into cache", statistics=(fast)); rows per page = rows read / pages
 * crossed, pages = documents / that, with a 95% error bound from the spread between the runs. It reads
 * about windows x pages_per_window pages (some MB) whatever the size, and no document: the runs move a
 * cursor by its keys (next, get_key; never get_value), and WiredTiger 3.2.1's next only points the
 * cursor's value at the page image (src/include/cursor.i __cursor_row_slot_return), copying nothing but
 * an overflow value, which a document under leaf_value_max never is; est->docs_fetched measures it.
 * LAB_STORE_ERR_NOT_SUPPORTED, to be answered by the exact count: a collection too small for the sample (the
 * runs would read more than a quarter of it), one holding more than 1% of its data in the engine cache
 * already (its pages would not be read again: the sample needs it cold), and MongoDB. Nothing else may read
 * the table meanwhile (its statistic would count their pages too). opts may be NULL. */
bool lab_store_leaf_pages_estimate (lab_store_session_t *sess, const char *coll,
                                    const lab_store_leaf_sample_opts_t *opts, lab_store_leaf_estimate_t *est,
                                    bson_error_t *error);

/* What the engine cache holds of a collection and its index on `key`, and the eviction thresholds: the
 * prediction's measured capacity (scan/predict/predict_probe.c). */
typedef struct {
   int64_t key_index_bytes;                     /* on disk: the index whose key is `key` alone (-1 none) */
   int64_t table_cache_bytes, table_pages_read; /* the collection's table: "cache: bytes currently in the
                                                 * cache" (with the connection's cache_overhead) and "pages
                                                 * read into cache" since the engine opened */
   int64_t index_cache_bytes, index_pages_read; /* the same of the key index's table (-1 none) */
   int64_t cache_max_bytes;
   double eviction_target, eviction_trigger; /* percent of the cache */
   bool eviction_configured;                 /* from the connection's configuration (false: WiredTiger's
                                              * defaults, 80 and 95, which the store does not override) */
} lab_store_cache_foot_t;

/* lab_store_cache_footprint -- *out for `coll` and its index on `key`, from the tables' own statistics
 * (statistics=(fast)) and files. Embedded only (LAB_STORE_ERR_NOT_SUPPORTED on MongoDB). */
bool lab_store_cache_footprint (lab_store_session_t *sess, const char *coll, const char *key,
                                lab_store_cache_foot_t *out, bson_error_t *error);

/* ---- cold cycle -------------------------------------------------------------------------------- */

/* lab_store_cycle_hook_t -- runs while the store is closed (embedded: connection closed and files synced;
 * MongoDB: pool destroyed). Drops caches, restarts a server, ... Return false with *error to abort. */
typedef bool (*lab_store_cycle_hook_t) (lab_store_t *store, void *ctx, bson_error_t *error);

/* lab_store_cycle -- close the engine (all sessions must be closed), run `hook`, reopen. Embedded: close
 * the WT connection, fdatasync + posix_fadvise(DONTNEED) every file of the home, hook, reopen. MongoDB:
 * destroy the pool, hook (e.g. run --restart-cmd), recreate it and wait up to `ready_timeout_ms` until
 * ping answers (LAB_STORE_ERR_UNREACHABLE after that). */
bool lab_store_cycle (lab_store_t *store, lab_store_cycle_hook_t hook, void *ctx, int32_t ready_timeout_ms,
                      bson_error_t *error);

/* lab_store_error_transient -- the error may go away by itself (a fold range retries it from its
 * checkpoint): the server could not be reached or selected
 * (libmongoc MONGOC_ERROR_STREAM, MONGOC_ERROR_SERVER_SELECTION, or the store's LAB_STORE_ERR_UNREACHABLE,
 * into which the MongoDB backend turns both), or the server answered with a code of a failover or a
 * lost connection/cursor (HostUnreachable 6, HostNotFound 7, CursorNotFound 43, NetworkTimeout 89,
 * ShutdownInProgress 91, PrimarySteppedDown 189, ExceededTimeLimit 262, SocketException 9001,
 * NotWritablePrimary 10107, InterruptedAtShutdown 11600, InterruptedDueToReplStateChange 11602,
 * NotPrimaryNoSecondaryOk 13435, NotPrimaryOrSecondary 13436) in a server domain (MONGOC_ERROR_SERVER,
 * _QUERY, _COMMAND, _WRITE_CONCERN, _COLLECTION). The codes are those the retryable-writes spec gives the
 * RetryableWriteError label (the labels themselves do not survive into a bson_error_t). Everything else
 * (usage, a refused document, a missing index, disk full, ...) is not. */
bool lab_store_error_transient (const bson_error_t *error);

#endif
