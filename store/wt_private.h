/*
 * wt_private.h -- the embedded WiredTiger store's shared state and its files' entry points. Private to
 * store/wt_*.c and store/store_wt.c (which wires the operations table for store.c).
 *
 * Laid out along mongod's WiredTiger layer:
 *   wt_error.c    WiredTiger's messages (kept, never printed) and lab_wt_fail, which every wt_*.c reports
 *                 its errors through;
 *   wt_conn.c     the kv engine: configuration, open/close, flush, the cold cycle, engine statistics;
 *   wt_catalog.c  the catalog (collections and their indexes), the size storer (counts, data sizes and
 *                 next RecordIds saved at close, recounted after a crash), collection lookups;
 *   wt_coll.c     collections: create, drop, exists, counts and sizes;
 *   wt_leafsample.c  a collection's leaf pages counted from a sample of runs (plain and clustered);
 *   wt_session.c  the session cache: one WT_SESSION per lab_store_session_t and its cursor cache;
 *   wt_record.c   the record store: inserts, upserts, deletes, finds by key;
 *   wt_index.c    the indexes: key extraction, lookups, index creation and builds;
 *   wt_keygen.c   a document's index keys, as mongod's BtreeKeyGenerator (compound, multikey);
 *                 the multikey flag set once they cross an array;
 *   wt_clustered.c  clustered collections (docs/mongodb-compat.md §23): the record table keyed by the
 *                 KeyString of _id (key_format=u), no _id index table; inserts, finds by _id and _id ranges;
 *   wt_clustered_index.c  their secondary indexes: entries ending in the string RecordId;
 *   wt_ixdiff.c   an update's index entries (only those that change, plain and clustered), their values
 *                 (TypeBits: keyenc_typebits.c), the records of an index build's sort;
 *   wt_cursor.c   sorted walks over an index, natural-order walks of a table, partitioning, distinct keys;
 *   wt_fetch.c    a sorted walk's records fetched ahead in RecordId order, handed out in the index's order;
 *   wt_sort.c     the external merge sort of index builds (wt_sort.h);
 *   wt_zstd.c     the zstd block compressor (a WiredTiger extension compiled in).
 * Every KeyString byte rule (body, type tag, RecordId, the unique _id format) lives in keyenc.h.
 */
#ifndef LAB_WT_PRIVATE_H
#define LAB_WT_PRIVATE_H

#include "store_impl.h"

#include "core/buf.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <wiredtiger.h>

/* mongod 4.2's table configurations: collections (a format: the block compressor, mongod's
 * storage.wiredTiger.collectionConfig.blockCompressor, snappy by default), indexes, and our catalog */
#define WT_COLL_CONFIG_FMT                                                                                   \
   "type=file,memory_page_max=10m,split_pct=90,leaf_value_max=64MB,checksum=on,block_compressor=%s,"         \
   "key_format=q,value_format=u,app_metadata=(formatVersion=1)%s"
/* a clustered collection's record table: the collection's configuration with mongod's KeyFormat::String
 * (key_format=u: the RecordId is the KeyString of _id) */
#define WT_CLUSTERED_CONFIG_FMT                                                                              \
   "type=file,memory_page_max=10m,split_pct=90,leaf_value_max=64MB,checksum=on,block_compressor=%s,"         \
   "key_format=u,value_format=u,app_metadata=(formatVersion=1)%s"
#define WT_INDEX_CONFIG                                                                                      \
   "type=file,internal_page_max=16k,leaf_page_max=16k,checksum=on,prefix_compression=true,"                  \
   "block_compressor=,key_format=u,value_format=u,app_metadata=(formatVersion=8)"
/* appended to a table's config when it is not journaled (lab_store_opts_t.unlogged) */
#define WT_UNLOGGED ",log=(enabled=false)"
#define WT_CATALOG_URI "table:layoutlab_catalog"
#define WT_CATALOG_CONFIG                                                                                    \
   "type=file,memory_page_max=10m,split_pct=90,leaf_value_max=64MB,checksum=on,block_compressor=snappy,"     \
   "key_format=S,value_format=u"
#define WT_STATE_KEY "s"
#define WT_MAX_INDEXES 64
#define WT_GROUP_DOCS 64            /* a write transaction holds at most this many documents */
#define WT_GROUP_BYTES (256 * 1024) /* ... or stops after this many bytes (mongod's insert batching) */
#define WT_CURSOR_CACHE 32
#define WT_RETRIES 100

typedef struct {
   char *field;                              /* fields[0]: the key of a single-field index */
   char *fields[LAB_STORE_INDEX_MAX_FIELDS]; /* the key pattern, ascending */
   int nfields;                              /* 1: the single-field layout keyenc.h describes */
   int multikey;                             /* atomic: a document generated > 1 key or crossed an array */
   char *ident;                              /* index-<n>-layoutlab */
   char *uri;                                /* table:<ident> */
} wt_index_t;

/* One index entry of a document: index `ix` of its collection, key bytes [off, off + len) of a buffer,
 * then the `tb` bytes of its value (its TypeBits, mongod's index value: lab_store_key_typebits_values). */
typedef struct {
   int ix;
   size_t off, len, tb;
} wt_ikey_t;

/* A document's index entries (wt_keygen.c lab_wt_index_keys fills it). */
typedef struct {
   wt_ikey_t *v;
   size_t n, cap;
} wt_ikeys_t;

/* Keys of an index collected while the collection is loaded (wt_collect.c). */
typedef struct wt_collect wt_collect_t;
#define WT_COLLECT_SORTS 8 /* inserting sessions whose keys are kept, at most (one sort each) */

typedef struct wt_coll {
   char *name;
   char *ident;
   char *uri;
   int64_t count;                      /* atomic */
   int64_t data_size;                  /* atomic */
   int64_t next_rid;                   /* atomic */
   wt_index_t indexes[WT_MAX_INDEXES]; /* [0] is _id (a clustered collection has none: its secondaries) */
   int nindexes;
   bool clustered; /* records keyed by the KeyString of _id (wt_clustered.c); next_rid unused */
   int logged;     /* atomic: 0 not read yet, 1 its record table is logged, 2 not (lab_wt_coll_logged) */
   wt_collect_t *collect; /* the keys of an index to build after a load, or NULL (wt_collect.c) */
   /* frees `collect` (lab_wt_collect_free, set with it): the catalog frees a collection without calling
    * up into the collector, which itself asks the catalog's key generation */
   void (*collect_free) (struct wt_coll *c);
   struct wt_coll *next;
} wt_coll_t;

typedef struct {
   WT_EVENT_HANDLER handler; /* WiredTiger's messages for this store (wt_error.c finds st from it) */
   WT_CONNECTION *conn;
   WT_SESSION *meta; /* catalog bookkeeping, checkpoints and statistics, guarded by meta_mu */
   char *home;
   char *config;
   char *coll_config;      /* WT_COLL_CONFIG_FMT with the store's block compressor (and WT_UNLOGGED) */
   char *clustered_config; /* WT_CLUSTERED_CONFIG_FMT with them */
   bool unlogged;          /* the collections this store creates are not journaled (opts.unlogged) */
   uint64_t cache_max_bytes;
   pthread_mutex_t mu;      /* collection list, session list, ident counter */
   pthread_mutex_t meta_mu; /* the meta session (a checkpoint must not block lookups under mu) */
   pthread_rwlock_t ddl;    /* order: ddl, then mu, then meta_mu */
   int nsessions;
   int64_t next_ident;
   wt_coll_t *colls;
   wt_coll_t *graveyard;     /* dropped collections, freed at close (sessions may still hold pointers) */
   struct wt_sess *sessions; /* open sessions, so close can close the ones left open */
   time_t opened_at;
   bool loaded;                  /* the catalog was read completely: only then may close save it as clean */
   lab_progress_mode_t progress; /* lab_store_opts_t.progress: bars on index builds */
   int panicked;      /* atomic: WiredTiger panicked (a write failed): no call may follow, not even close */
   int64_t docs_read; /* atomic: documents read from the record tables (lab_wt_doc_value) */
} wt_store_t;

typedef struct {
   char *uri;
   bool overwrite;
   WT_CURSOR *c;
} wt_cached_t;

typedef struct wt_sess {
   wt_store_t *st;
   lab_store_session_t *sess; /* the handle store.c allocated (freed here when the store closes first) */
   WT_SESSION *s;
   struct wt_sess *prev, *next;
   wt_cached_t cache[WT_CURSOR_CACHE];
   int ncache;
   lab_buf_t key;   /* scratch: one index key */
   lab_buf_t ikeys; /* scratch: every index key of one document */
   wt_ikeys_t ik;   /* scratch: where each of them is in ikeys */
   lab_buf_t val;   /* scratch: an index value */
   lab_buf_t body;  /* scratch: the encoded value searched for */
   int64_t *rids;
   size_t nrids, caprids;
   int nsorted;        /* open sorted streams (atomic): their WT cursors are in use between calls */
   lab_buf_t ckeys;    /* scratch: a document's keys of the index being collected (wt_collect.c) */
   wt_ikeys_t ck;      /* scratch: where they are in ckeys */
   lab_buf_t cpend;    /* the open transaction's collected keys, given to the sort when it commits */
   int64_t cpend_docs; /* the documents they are from */
} wt_sess_t;

/* lab_wt_doc_value -- the document under a record cursor (get_value), counted in st->docs_read: the
 * embedded store's documents-read counter (lab_store_engine_stats: docs_examined). Every read of a
 * document's bytes in the backend goes through it; a walk that moves a cursor by its keys alone (next,
 * get_key) reads none (WiredTiger 3.2.1 only points the cursor's value at the page image). */
static inline int
lab_wt_doc_value (wt_store_t *st, WT_CURSOR *cc, WT_ITEM *v)
{
   int ret = cc->get_value (cc, v);

   if (ret == 0) {
      __atomic_add_fetch (&st->docs_read, 1, __ATOMIC_RELAXED);
   }
   return ret;
}

/* ---- wt_error.c: WiredTiger's messages and errors ---------------------------------------------- */

/* lab_wt_fail -- LAB_ERROR_WT error "<context>: <wiredtiger_strerror> [<WT's own message>]"; false. When
 * WiredTiger failed a write for lack of space (ENOSPC, or the panic that follows one in a background
 * thread), the message starts with the home and its free space (lab_error_prefix_nospace). */
bool lab_wt_fail (bson_error_t *error, int ret, const char *fmt, ...) BSON_GNUC_PRINTF (3, 4);
/* lab_wt_closed_error -- the engine is not open (a cycle failed to reopen it); false. */
bool lab_wt_closed_error (wt_store_t *st, bson_error_t *error);
/* lab_wt_handler_init -- route st's WiredTiger messages to wt_error.c (kept, never printed) and forget the
 * last message and full disk (before wiredtiger_open). */
void lab_wt_handler_init (wt_store_t *st);

/* ---- wt_conn.c: the kv engine ------------------------------------------------------------------- */

bool lab_wt_open (lab_store_t *store, bson_error_t *error);
/* lab_wt_zstd_extension_init -- the zstd compressor's extension entry point (wt_zstd.c). */
int lab_wt_zstd_extension_init (WT_CONNECTION *connection, WT_CONFIG_ARG *config);
/* lab_wt_zstd_entry -- its name, for wiredtiger_open's extensions=[local=(entry=...)]. */
const char *lab_wt_zstd_entry (void);
void lab_wt_close (lab_store_t *store);
const char *lab_wt_home (const lab_store_t *store);
bool lab_wt_flush (lab_store_t *store, bson_error_t *error);
bool lab_wt_server_info (lab_store_t *store, lab_store_server_info_t *info, bson_error_t *error);
bool lab_wt_engine_stats (lab_store_t *store, lab_store_engine_stats_t *out, bson_error_t *error);
bool lab_wt_data_files (lab_store_t *store, const char *coll, char ***paths, bson_error_t *error);
bool lab_wt_cycle (lab_store_t *store, lab_store_cycle_hook_t hook, void *ctx, int32_t ready_timeout_ms,
                   bson_error_t *error);
bool lab_wt_set_cache_size (lab_store_t *store, uint64_t bytes, bson_error_t *error);
/* wt_index.c / wt_coll.c / wt_leafsample.c: RecordIds of one key's index entries, a collection's leaf
 * pages (exact, sampled) */
bool lab_wt_record_ids (lab_store_session_t *sess, const char *coll, const char *field,
                        const bson_value_t *value, int64_t **rids, size_t *n, bson_error_t *error);
bool lab_wt_leaf_pages (lab_store_session_t *sess, const char *coll, int64_t *pages, bson_error_t *error);
bool lab_wt_coll_cache_bytes (lab_store_session_t *sess, const char *coll, int64_t *bytes,
                              bson_error_t *error);
bool lab_wt_cache_footprint (lab_store_session_t *sess, const char *coll, const char *key,
                             lab_store_cache_foot_t *out, bson_error_t *error);
bool lab_wt_leaf_pages_estimate (lab_store_session_t *sess, const char *coll,
                                 const lab_store_leaf_sample_opts_t *o, lab_store_leaf_estimate_t *est,
                                 bson_error_t *error);

/* ---- wt_catalog.c: catalog, size storer, the collection list ------------------------------------ */

/* lab_wt_catalog_load -- read the catalog into st->colls (recount after an unclean close) and mark it
 * unclean until the next clean close. */
bool lab_wt_catalog_load (wt_store_t *st, bson_error_t *error);
/* lab_wt_catalog_save -- counts and RecordIds of every collection, then the state (caller holds mu). */
bool lab_wt_catalog_save (wt_store_t *st, bool clean, bson_error_t *error);
/* lab_wt_catalog_put_coll / _state -- persist one collection's entry / the ident counter and state. */
bool lab_wt_catalog_put_coll (WT_SESSION *s, const wt_coll_t *c, bson_error_t *error);
bool lab_wt_catalog_put_state (wt_store_t *st, WT_SESSION *s, bool clean, bson_error_t *error);
/* lab_wt_catalog_remove_coll -- remove a dropped collection's entry. */
bool lab_wt_catalog_remove_coll (WT_SESSION *s, const char *name, bson_error_t *error);
/* lab_wt_coll_free -- free one collection and its index entries. */
void lab_wt_coll_free (wt_coll_t *c);
/* lab_wt_coll_list_free -- free a list of collections. */
void lab_wt_coll_list_free (wt_coll_t *c);
/* lab_wt_index_set -- fill a single-field index entry (strings copied). */
void lab_wt_index_set (wt_index_t *ix, const char *field, const char *ident);
/* lab_wt_index_set_spec -- fill an index entry of key pattern fields[0..n) (strings copied). */
void lab_wt_index_set_spec (wt_index_t *ix, const char *const *fields, int n, bool multikey,
                            const char *ident);
/* lab_wt_coll_index_spec -- the index whose key pattern is exactly spec's, or NULL. */
wt_index_t *lab_wt_coll_index_spec (wt_coll_t *c, const lab_store_index_spec_t *spec);
/* lab_wt_index_name -- mongod's name of the index ("bill_id_1_line_no_1") into buf. */
void lab_wt_index_name (const wt_index_t *ix, char *buf, size_t len);
/* lab_wt_index_unset -- free an index entry's strings. */
void lab_wt_index_unset (wt_index_t *ix);
/* lab_wt_coll_find -- the live collection named `name`, or NULL (caller holds mu). */
wt_coll_t *lab_wt_coll_find (wt_store_t *st, const char *name);
/* lab_wt_coll_lookup -- the collection, or NO_COLLECTION naming the store. */
wt_coll_t *lab_wt_coll_lookup (wt_store_t *st, const char *name, bson_error_t *error);
/* lab_wt_coll_index -- the single-field index whose key is `field`, or NULL. */
wt_index_t *lab_wt_coll_index (wt_coll_t *c, const char *field);
/* lab_wt_index_lookup -- the index on field, else NO_INDEX naming the fix. */
wt_index_t *lab_wt_index_lookup (wt_store_t *st, wt_coll_t *c, const char *field, bson_error_t *error);
/* ---- wt_coll.c: collections: create, drop, counts and sizes ------------------------------------ */

/* lab_wt_index_config -- the config of a new index table of c: WT_INDEX_CONFIG, with WT_UNLOGGED when
 * c's table is not journaled (as WiredTiger's metadata says), so that an index never holds entries a
 * crash takes from its collection. NULL with *error set when the metadata cannot be read; free it. */
char *lab_wt_index_config (wt_sess_t *ss, const wt_coll_t *c, bson_error_t *error);

/* lab_wt_coll_logged -- whether c's record table is logged (mongod's WiredTigerRecordStore::_isLogged,
 * set from WiredTigerUtil::useTableLogging): read once from WiredTiger's metadata of its file and kept in
 * c->logged (lab_wt_set_journaled changes it). False with *error when the metadata cannot be read. */
bool lab_wt_coll_logged (wt_sess_t *ss, wt_coll_t *c, bool *logged, bson_error_t *error);
/* lab_wt_set_journaled -- see lab_store_set_journaled (wt_journal.c). */
bool lab_wt_set_journaled (lab_store_t *store, const char *coll, bson_error_t *error);

/* lab_wt_coll_create_locked -- the collection, created with its _id index when missing (caller holds
 * ddl for writing). */
wt_coll_t *lab_wt_coll_create_locked (wt_sess_t *ss, const char *name, bson_error_t *error);
/* lab_wt_coll_get_or_create -- for writes: MongoDB creates a missing collection on first insert. */
wt_coll_t *lab_wt_coll_get_or_create (wt_sess_t *ss, const char *name, bson_error_t *error);

bool lab_wt_list (lab_store_session_t *sess, char ***names, bson_error_t *error);
bool lab_wt_exists (lab_store_session_t *sess, const char *coll, bool *exists, bson_error_t *error);
bool lab_wt_create (lab_store_session_t *sess, const char *coll, bson_error_t *error);
bool lab_wt_drop (lab_store_session_t *sess, const char *coll, bson_error_t *error);
bool lab_wt_count (lab_store_session_t *sess, const char *coll, int64_t *count, bson_error_t *error);
bool lab_wt_stats (lab_store_session_t *sess, const char *coll, lab_store_coll_stats_t *out,
                   bson_error_t *error);
bool lab_wt_drop_index (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                        bool *dropped, bson_error_t *error);
bool lab_wt_has_index (lab_store_session_t *sess, const char *coll, const char *field, bool *has,
                       bson_error_t *error);
bool lab_wt_index_info (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                        bool *exists, bool *multikey, int64_t *size_bytes, bson_error_t *error);

bool lab_wt_list_indexes (lab_store_session_t *sess, const char *coll, bson_t *indexes, bool *clustered,
                          bson_error_t *error);
bool lab_wt_create_clustered (lab_store_session_t *sess, const char *coll, bson_error_t *error);
/* lab_wt_coll_create_kind_locked -- lab_wt_coll_create_locked, or a clustered collection; a clustered one
 * asked for where a plain one exists: LAB_STORE_ERR_NOT_SUPPORTED naming it (caller holds ddl for
 * writing). */
wt_coll_t *lab_wt_coll_create_kind_locked (wt_sess_t *ss, const char *name, bool clustered,
                                           bson_error_t *error);

/* ---- wt_clustered.c: clustered collections (docs/mongodb-compat.md §23) --------------------------
 * Called with ddl held for reading by the record store's entry points when c->clustered. */

/* lab_wt_clustered_refuse -- LAB_STORE_ERR_NOT_SUPPORTED "'coll' is a clustered collection: <what> ..."
 * (secondary indexes, RecordId ranges); false. */
bool lab_wt_clustered_refuse (const wt_coll_t *c, const char *what, bson_error_t *error);
/* lab_wt_clustered_insert -- the documents, each keyed by the KeyString of its _id (a taken key:
 * E11000 per document, as mongod's clustered insert); `first` is ignored (the key decides the place). */
bool lab_wt_clustered_insert (wt_sess_t *ss, wt_coll_t *c, const bson_t *const *docs, const size_t *orig,
                              size_t n, lab_store_insert_result_t *result, bson_error_t *error);
/* lab_wt_clustered_upsert -- replace the record of doc's _id, or insert it. */
bool lab_wt_clustered_upsert (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, bson_error_t *error);
/* lab_wt_clustered_find -- cb for each record whose _id is in [lo, hi) (one NULL: the other's type bracket),
 * in _id order (mongod's CLUSTERED_IXSCAN: bounded walk of the record table); `eq` non-NULL: the one record
 * with that _id (lo, hi ignored). *ndocs counts them. */
bool lab_wt_clustered_find (wt_sess_t *ss, wt_coll_t *c, const bson_value_t *eq, const bson_value_t *lo,
                            const bson_value_t *hi, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
                            bson_error_t *error);
/* lab_wt_clustered_delete -- remove the record whose _id is value; *deleted 0 or 1. */
bool lab_wt_clustered_delete (wt_sess_t *ss, wt_coll_t *c, const bson_value_t *value, int64_t *deleted,
                              bson_error_t *error);

struct lab_wt_sort; /* wt_sort.h */

/* ---- wt_collect.c: an index's keys kept while a load inserts (lab_store_collect_index) ------------ */

/* lab_wt_collect_start -- keep the keys of key pattern fields[0..n) of every document inserted into c from
 * now on, each session's in a sort of `budget` bytes spilling to the home; nothing when c is not empty,
 * clustered or collecting already. Caller holds ddl for writing. */
void lab_wt_collect_start (wt_store_t *st, wt_coll_t *c, const char *const *fields, int n, size_t budget);
/* lab_wt_collect_doc -- inside an insert's transaction: doc's keys (RecordId rid) pending in ss. */
void lab_wt_collect_doc (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, int64_t rid);
/* lab_wt_collect_commit -- the transaction committed: ss's pending keys into its sort. */
void lab_wt_collect_commit (wt_sess_t *ss, wt_coll_t *c);
/* lab_wt_collect_abort -- the transaction rolled back (or starts): ss's pending keys dropped. */
void lab_wt_collect_abort (wt_sess_t *ss);
/* lab_wt_collect_invalidate -- a write other than an insert: the kept keys no longer stand for c. */
void lab_wt_collect_invalidate (wt_coll_t *c);
/* lab_wt_collect_take -- for the build of index ix (caller holds ddl for writing): when c kept ix's keys
 * for every document it holds, the sorts (up to WT_COLLECT_SORTS, not finished; the caller destroys them)
 * into sorts[], *multikey, and their number; -1 when the build must read the collection. The collector
 * is gone either way. */
int lab_wt_collect_take (wt_coll_t *c, const wt_index_t *ix, struct lab_wt_sort **sorts, bool *multikey);
/* lab_wt_collect_free -- c's collector and its sorts freed (NULL is fine). */
void lab_wt_collect_free (wt_coll_t *c);
/* lab_wt_collect_index -- the store op (store.h lab_store_collect_index). */
bool lab_wt_collect_index (lab_store_session_t *sess, const char *coll, const char *field,
                           bson_error_t *error);
/* lab_wt_build_budget -- bytes of keys an index build holds in memory before it spills (wt_collect.c). */
size_t lab_wt_build_budget (void);

/* ---- wt_clustered_index.c: secondary indexes of clustered collections (§23) -----------------------
 * Their entries are the ordinary keys ending in the string RecordId (the record table's key); c->indexes
 * of a clustered collection holds only them. Called with ddl held. */

/* lab_wt_clustered_index_keys -- every distinct key of doc in index ix (number `which`), each ending in
 * the RecordId rid[0..rid_len), appended to out and located by entries appended to list (scratch: a
 * buffer of the caller's, overwritten); *multikey as lab_wt_index_keys. */
bool lab_wt_clustered_index_keys (const wt_index_t *ix, int which, const bson_t *doc, const uint8_t *rid,
                                  size_t rid_len, lab_buf_t *scratch, lab_buf_t *out, wt_ikeys_t *list,
                                  bool *multikey, bson_error_t *error);
/* ---- wt_ixdiff.c: the index entries of an update, their values ----------------------------------- */

/* lab_wt_index_entry_put -- insert entry e (key and value bytes in buf) through the index cursor ic. 0 or
 * a WT error. */
int lab_wt_index_entry_put (WT_CURSOR *ic, const wt_ikey_t *e, const uint8_t *buf);
/* lab_wt_index_sort_add -- entry e (in buf) into an index build's sort as one record: its key, its value,
 * the value's length in one byte (keys are distinct and no key is a prefix of another, so the records
 * sort as their keys); lab_wt_index_sort_split reads a record back. */
bool lab_wt_index_sort_add (struct lab_wt_sort *sort, const wt_ikey_t *e, const uint8_t *buf,
                            bson_error_t *error);
/* lab_wt_index_sort_split -- a sort record's key length (*klen) and value (*val, *vlen). */
void lab_wt_index_sort_split (const uint8_t *rec, size_t len, size_t *klen, const uint8_t **val,
                              size_t *vlen);
/* lab_wt_ikeys_save -- a copy of the entries in ss->ikeys / ss->ik: *buf (bson_free) and keys (reset
 * first; bson_free keys->v), so that the next document's keys may reuse the session's scratch. */
void lab_wt_ikeys_save (const wt_sess_t *ss, wt_ikeys_t *keys, uint8_t **buf);
/* lab_wt_index_update_keys -- inside the caller's transaction, the index entries of an update: entries
 * [from, n) of the old document's keys (oldk in oldbuf) that the new document's (ss->ikeys / ss->ik) lack
 * removed, the new ones the old lacked inserted, nothing else written (mongod's prepareUpdate/update);
 * from 1 skips a plain collection's _id entry (entry 0: its _id does not change). Uses ss->val. 0, EINVAL
 * (*error set) or a WT error (*error not set). */
int lab_wt_index_update_keys (wt_sess_t *ss, wt_coll_t *c, const wt_ikeys_t *oldk, const uint8_t *oldbuf,
                              size_t from, bson_error_t *error);

/* lab_wt_clustered_doc_keys -- doc's entries in every index of clustered c into ss->ikeys / ss->ik (uses
 * ss->val); mk[i] (NULL: not asked) set when doc makes index i multikey. False with *error. */
bool lab_wt_clustered_doc_keys (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, const uint8_t *rid,
                                size_t rid_len, bool *mk, bson_error_t *error);
/* lab_wt_clustered_index_write -- inside the caller's transaction, doc's entries in every index of c
 * inserted (remove: removed; one missing is fine); mk[i] (NULL: not asked) set when doc makes index i
 * multikey. 0, EINVAL (*error set), WT_ROLLBACK or a WT error (*error set). Uses ss->ikeys, ik, val. */
int lab_wt_clustered_index_write (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, const uint8_t *rid,
                                  size_t rid_len, bool remove, bool *mk, bson_error_t *error);
/* lab_wt_index_mark_found -- after the commit: the secondary indexes a document's keys made multikey (mk[i]:
 * index i) marked so, once each; the _id index is never multikey (wt_keygen.c). */
bool lab_wt_index_mark_found (wt_sess_t *ss, wt_coll_t *c, const bool *mk, bson_error_t *error);
/* lab_wt_clustered_index_collect -- an index build's reading: every key of every record under cc (a new
 * cursor on c's table) for ix into sort; *multikey set when a document made it multikey. */
bool lab_wt_clustered_index_collect (WT_CURSOR *cc, wt_store_t *st, const wt_coll_t *c, const wt_index_t *ix,
                                     struct lab_wt_sort *sort, bool *multikey, lab_progress_t *prog,
                                     bson_error_t *error);
/* lab_wt_clustered_index_find -- IXSCAN of ix over the keys [start, end) (memcmp order), each entry's
 * record fetched from the record table by its RecordId bytes and given to cb (once each on a multikey
 * index) until cb returns false; *keys_examined, *docs_fetched count. */
bool lab_wt_clustered_index_find (wt_sess_t *ss, wt_coll_t *c, wt_index_t *ix, const lab_buf_t *start,
                                  const lab_buf_t *end, lab_store_doc_cb_t cb, void *ctx,
                                  int64_t *keys_examined, int64_t *docs_fetched, bson_error_t *error);
/* lab_wt_is_id_index -- ix is c's _id index (a clustered collection has none: its indexes are secondary). */
static inline bool
lab_wt_is_id_index (const wt_coll_t *c, const wt_index_t *ix)
{
   return !c->clustered && ix == &c->indexes[0];
}

/* ---- wt_session.c: sessions and their cursor cache ---------------------------------------------- */

bool lab_wt_session_open (lab_store_session_t *sess, bson_error_t *error);
void lab_wt_session_close (lab_store_session_t *sess);
/* lab_wt_get_cursor -- a cached cursor on uri, kept open for the rest of the operation. */
bool lab_wt_get_cursor (wt_sess_t *ss, const char *uri, bool overwrite, WT_CURSOR **out, bson_error_t *error);
/* lab_wt_reset_cursors -- end of an operation: cached cursors release their position and pages. */
void lab_wt_reset_cursors (wt_sess_t *ss);
/* lab_wt_cache_drop -- close this session's cached cursors on `uri` (before a drop). */
void lab_wt_cache_drop (wt_sess_t *ss, const char *uri);
/* lab_wt_coll_cursor -- a new cursor of session s on the collection's table (the caller closes it); false
 * with the error naming the collection. */
bool lab_wt_coll_cursor (WT_SESSION *s, const wt_coll_t *c, WT_CURSOR **cc, bson_error_t *error);
/* lab_wt_search_ge -- position c, whose key is set, on the first entry at or after that key (search_near,
 * then next when it landed before): 0, WT_NOTFOUND when there is none, or a WiredTiger error. */
int lab_wt_search_ge (WT_CURSOR *c);

/* lab_wt_seek_from -- position c (a raw-key index cursor) on the first entry at or after the key bytes
 * `start`, or on the first entry when start is empty: where an index range walk begins. */
int lab_wt_seek_from (WT_CURSOR *c, const lab_buf_t *start);
/* lab_wt_rid_ends -- the first and last RecordId of the collection table under cc (left reset): one
 * positioning at each end; 0, WT_NOTFOUND when it has no record, or a WiredTiger error. */
int lab_wt_rid_ends (WT_CURSOR *cc, int64_t *first, int64_t *last);
/* lab_wt_rids_push -- append a RecordId to the session's ss->rids. */
void lab_wt_rids_push (wt_sess_t *ss, int64_t rid);

/* ---- wt_index.c: index keys, lookups, builds ---------------------------------------------------- */

/* lab_wt_field_value -- the value of `field` (dotted paths allowed) in doc; missing -> null, as mongod
 * indexes a missing field. Arrays are refused: the _id key (secondary keys: lab_wt_index_keys). */
bool lab_wt_field_value (const bson_t *doc, const char *field, bson_iter_t *it, const bson_value_t **v,
                         bson_error_t *error);
/* lab_wt_encode_body -- the body of v into out (reset first); errors name the field and collection. */
bool lab_wt_encode_body (const bson_value_t *v, lab_buf_t *out, const char *coll, const char *field,
                         bson_error_t *error);
/* lab_wt_lookup_id -- *rid of the document whose _id body is `body` (0 when none); 0 or a WT error. */
int lab_wt_lookup_id (wt_sess_t *ss, WT_CURSOR *idc, const lab_buf_t *body, int64_t *rid);
/* lab_wt_collect_rids -- RecordIds of the entries equal to `body` in index ix into ss->rids; 0, EINVAL
 * (*error set) or a WT error. */
int lab_wt_collect_rids (wt_sess_t *ss, wt_index_t *ix, bool is_id, const lab_buf_t *body,
                         bson_error_t *error);
/* lab_wt_rids_eq -- with st->ddl held: the collection `coll` (*c) and, in ss->rids[0..nrids), the
 * RecordIds of its documents whose indexed `field` equals value (index order). */
bool lab_wt_rids_eq (wt_sess_t *ss, const char *coll, const char *field, const bson_value_t *value,
                     wt_coll_t **c, bson_error_t *error);

/* lab_wt_index_keys -- every distinct key of doc (RecordId rid) in index ix (the collection's index number
 * `which`), as mongod's BtreeKeyGenerator makes them (docs/mongodb-compat.md): appended to out, each
 * located by an entry appended to list; *multikey (may stay untouched) set when the document made the
 * index multikey (more than one key, or an array crossed). Parallel arrays and values keyenc.h cannot
 * encode fail with LAB_STORE_ERR_KEY_TYPE naming the index. */
bool lab_wt_index_keys (const wt_index_t *ix, int which, const bson_t *doc, int64_t rid, lab_buf_t *out,
                        wt_ikeys_t *list, bool *multikey, bson_error_t *error);
/* lab_wt_ikeys_push -- append an entry to list. */
void lab_wt_ikeys_push (wt_ikeys_t *list, int ix, size_t off, size_t len);
/* lab_wt_index_mark_multikey (wt_keygen.c) -- the index is multikey from now on: the flag set, the catalog
 * rewritten by the one caller that set it (caller holds ddl for reading). */
bool lab_wt_index_mark_multikey (wt_store_t *st, wt_coll_t *c, wt_index_t *ix, bson_error_t *error);
/* lab_wt_index_scan -- with ddl held: into ss->rids, the RecordIds of the entries of ix in [start, end)
 * (memcmp order of keys), each once when the index is multikey; *keys_examined counts the entries read.
 * 0, EINVAL (*error set) or a WT error. */
int lab_wt_index_scan (wt_sess_t *ss, wt_coll_t *c, wt_index_t *ix, const lab_buf_t *start,
                       const lab_buf_t *end, int64_t *keys_examined, bson_error_t *error);

bool lab_wt_create_index (lab_store_session_t *sess, const char *coll, const char *field,
                          bson_error_t *error);
bool lab_wt_create_index_spec (lab_store_session_t *sess, const char *coll,
                               const lab_store_index_spec_t *spec, bson_error_t *error);

/* ---- wt_record.c: the record store -------------------------------------------------------------- */

bool lab_wt_insert_many (lab_store_session_t *sess, const char *coll, const bson_t *const *docs,
                         const size_t *orig, size_t n, int64_t first, lab_store_insert_result_t *result,
                         bson_error_t *error);
bool lab_wt_upsert_by_id (lab_store_session_t *sess, const char *coll, const bson_t *doc,
                          bson_error_t *error);

/* mongod's WiredTigerRecordStore::updateRecord (docs/mongodb-compat.md §21): a record of new_len bytes
 * replacing one of old_len is written as a WiredTiger modify only when its table is not logged, it is
 * over kMinLengthForDiff (1024) bytes and at most kMaxDiffBytes (new_len / 10) bytes longer than the old,
 * and wiredtiger_calc_modify finds at most kMaxEntries (16) changes of at most kMaxDiffBytes in all. */
#define LAB_WT_MODIFY_MIN_LEN 1024
#define LAB_WT_MODIFY_MAX_ENTRIES 16

/* lab_wt_modify_wanted -- the length test of mongod's updateRecord before it tries a modify; *max_diff
 * gets kMaxDiffBytes. Pure. */
bool lab_wt_modify_wanted (bool logged, int64_t old_len, int64_t new_len, size_t *max_diff);

/* lab_wt_record_update -- write `nv` over the record cc is positioned on (searched; its value `old`,
 * inside the caller's transaction) as mongod does: a modify (reserve when nothing changed) when
 * lab_wt_modify_wanted and wiredtiger_calc_modify agree, else the whole value; *modified says which.
 * 0 or a WT error. */
int lab_wt_record_update (WT_SESSION *s, WT_CURSOR *cc, bool logged, const WT_ITEM *old, const WT_ITEM *nv,
                          bool *modified);
bool lab_wt_delete_eq (lab_store_session_t *sess, const char *coll, const char *field,
                       const bson_value_t *value, int64_t *deleted, bson_error_t *error);
bool lab_wt_find_eq (lab_store_session_t *sess, const char *coll, const char *field,
                     const bson_value_t *value, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
                     bson_error_t *error);
bool lab_wt_index_find (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                        const bson_value_t *eq, int neq, const bson_value_t *lo, const bson_value_t *hi,
                        lab_store_doc_cb_t cb, void *ctx, int64_t *keys_examined, int64_t *docs_fetched,
                        bson_error_t *error);

/* ---- wt_fetch.c: a sorted walk's records fetched ahead in RecordId order ------------------------- */

typedef struct lab_wt_fetch lab_wt_fetch_t;
/* lab_wt_fetch_new -- a read-ahead of windows of up to max_rows index entries (caller destroys). */
lab_wt_fetch_t *lab_wt_fetch_new (int32_t max_rows);
/* lab_wt_fetch_destroy -- free the read-ahead and its window. */
void lab_wt_fetch_destroy (lab_wt_fetch_t *f);
/* lab_wt_fetch_reset -- an empty window (its memory kept). */
void lab_wt_fetch_reset (lab_wt_fetch_t *f);
/* lab_wt_fetch_add -- the next index entry's RecordId into the window; false once it is full. */
bool lab_wt_fetch_add (lab_wt_fetch_t *f, int64_t rid);
/* lab_wt_fetch_run -- the window's records fetched through cc in RecordId order and copied aside (a
 * record removed since its entry was read is skipped); false with the error naming coll. */
bool lab_wt_fetch_run (lab_wt_fetch_t *f, wt_store_t *st, WT_CURSOR *cc, const char *coll,
                       bson_error_t *error);
/* lab_wt_fetch_pop -- the window's next document in index order (valid until the next reset) and its
 * RecordId; false when the window is handed out. */
bool lab_wt_fetch_pop (lab_wt_fetch_t *f, const uint8_t **data, size_t *len, int64_t *rid);

/* ---- wt_cursor.c: sorted and natural-order walks, partitions, distinct keys ---------------------- */

bool lab_wt_sorted_open (lab_store_cursor_t *cur, const char *coll, const char *field,
                         const lab_store_sorted_opts_t *opts, bson_error_t *error);
int lab_wt_cursor_next (lab_store_cursor_t *cur, const bson_t **doc, bson_error_t *error);
void lab_wt_cursor_close (lab_store_cursor_t *cur);
bool lab_wt_partition (lab_store_session_t *sess, const char *coll, const char *field, int n,
                       bson_value_t **bounds, int *nbounds, bson_error_t *error);
bool lab_wt_distinct_keys (lab_store_session_t *sess, const char *coll, const char *field,
                           bson_value_t **keys, int64_t *nkeys, bson_error_t *error);
bool lab_wt_key_ends (lab_store_session_t *sess, const char *coll, const char *field, bson_value_t *first,
                      bson_value_t *last, bool *empty, bson_error_t *error);
bool lab_wt_key_type_counts (lab_store_session_t *sess, const char *coll, const char *field, int64_t *rows,
                             bson_error_t *error);
bool lab_wt_natural_open (lab_store_cursor_t *cur, const char *coll, const lab_store_natural_opts_t *opts,
                          bson_error_t *error);
bool lab_wt_natural_ranges (lab_store_session_t *sess, const char *coll, int n,
                            lab_store_natural_range_t **ranges, int *nranges, bson_error_t *error);
bool lab_wt_natural_describe (lab_store_session_t *sess, const char *coll,
                              const lab_store_natural_opts_t *opts, bson_t *out, bson_error_t *error);

/* lab_wt_dsrc_stat -- one of a table's own statistics from its "statistics:<uri>" cursor `stat_uri`
 * (statistics=(fast), no tree walk); false with *error when it cannot be read. */
bool lab_wt_dsrc_stat (WT_SESSION *s, const char *stat_uri, int key, int64_t *v, bson_error_t *error);

#endif
