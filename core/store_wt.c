/*
 * store_wt.c -- the embedded WiredTiger backend of the store interface, laid out as mongod 4.2 lays
 * out its data, so that the storage effect of a document layout is the same as on a server.
 *
 * Home directory (`wiredtiger:DIR`):
 *   collection-<n>-layoutlab.wt  one per collection: key RecordId (q), value the BSON document (u);
 *   index-<n>-layoutlab.wt       one per index: key = lab_key_encode(value) + RecordId, empty value;
 *                                the `_id` index is mongod's unique-index format: key = KeyString body
 *                                + 0x04, value = RecordId + type tag, so a second equal _id is refused
 *                                by WiredTiger itself (WT_DUPLICATE_KEY), even across threads;
 *   layoutlab_catalog.wt         name -> tables, indexes, and the counts/next RecordId saved at close;
 *   journal/                     the write-ahead log (snappy), as mongod's.
 *
 * Counts and data sizes are kept in memory (exact, updated at each commit), written to the catalog at
 * close/cycle; a store not closed cleanly recounts at open. Concurrency: one WT_SESSION per
 * lab_session_t; the catalog list is guarded by `mu`; `ddl` (rwlock) lets data operations run in
 * parallel while create/drop/create_index run alone (an index build sees every document).
 */
#include "store_impl.h"

#include "error.h"
#include "keyenc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wiredtiger.h>

#define WT_COLL_CONFIG                                                                                       \
   "type=file,memory_page_max=10m,split_pct=90,leaf_value_max=64MB,checksum=on,block_compressor=snappy,"     \
   "key_format=q,value_format=u,app_metadata=(formatVersion=1)"
#define WT_INDEX_CONFIG                                                                                      \
   "type=file,internal_page_max=16k,leaf_page_max=16k,checksum=on,prefix_compression=true,"                  \
   "block_compressor=,key_format=u,value_format=u,app_metadata=(formatVersion=8)"
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
   char *field;
   char *ident; /* index-<n>-layoutlab */
   char *uri;   /* table:<ident> */
} wt_index_t;

typedef struct wt_coll {
   char *name;
   char *ident;
   char *uri;
   int64_t count;                      /* atomic */
   int64_t data_size;                  /* atomic */
   int64_t next_rid;                   /* atomic */
   wt_index_t indexes[WT_MAX_INDEXES]; /* [0] is _id */
   int nindexes;
   struct wt_coll *next;
} wt_coll_t;

typedef struct {
   WT_CONNECTION *conn;
   WT_SESSION *meta; /* catalog bookkeeping, checkpoints and statistics, guarded by meta_mu */
   char *home;
   char *config;
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
   bool loaded; /* the catalog was read completely: only then may close save it as clean */
} wt_store_t;

typedef struct {
   char *uri;
   bool overwrite;
   WT_CURSOR *c;
} wt_cached_t;

typedef struct wt_sess {
   wt_store_t *st;
   lab_session_t *sess; /* the handle store.c allocated (freed here when the store closes first) */
   WT_SESSION *s;
   struct wt_sess *prev, *next;
   wt_cached_t cache[WT_CURSOR_CACHE];
   int ncache;
   lab_buf_t key;   /* scratch: one index key */
   lab_buf_t ikeys; /* scratch: every index key of one document */
   lab_buf_t val;   /* scratch: an index value */
   lab_buf_t body;  /* scratch: the encoded value searched for */
   int64_t *rids;
   size_t nrids, caprids;
   int nsorted; /* open sorted streams (atomic): their WT cursors are in use between calls */
} wt_sess_t;

static void reset_cursors (wt_sess_t *ss);
static void close_cursors (wt_sess_t *ss);
static void wt_session_close (lab_session_t *sess);

typedef struct {
   wt_sess_t *ss;
   WT_CURSOR *ic; /* index cursor, owned */
   WT_CURSOR *cc; /* collection cursor, owned */
   bool is_id;
   bool started, done;
   lab_buf_t lo, hi;
   bool has_lo, has_hi;
   bson_t doc;
   char *coll;
   bool counted; /* counted in ss->nsorted */
} wt_cur_t;

/* ---- WiredTiger messages ------------------------------------------------------------------------ */

/* The last message WiredTiger reported on this thread: added to our error messages, never printed. */
static __thread char wt_last_msg[384];

/* wt_on_error -- keep WiredTiger's message for the error we are about to build (library: no printing). */
static int
wt_on_error (WT_EVENT_HANDLER *h, WT_SESSION *s, int err, const char *msg)
{
   bson_strncpy (wt_last_msg, msg ? msg : "", sizeof wt_last_msg);
   return 0;
}

/* wt_on_message -- informational messages are dropped (library code never prints). */
static int
wt_on_message (WT_EVENT_HANDLER *h, WT_SESSION *s, const char *msg)
{
   return 0;
}

static WT_EVENT_HANDLER wt_handler = { wt_on_error, wt_on_message, NULL, NULL };

/* wt_fail -- LAB_ERROR_WT error "<context>: <wiredtiger_strerror> [<WT's own message>]"; returns false. */
static bool BSON_GNUC_PRINTF (3, 4) wt_fail (bson_error_t *error, int ret, const char *fmt, ...)
{
   char ctx[BSON_ERROR_BUFFER_SIZE];
   va_list ap;

   va_start (ap, fmt);
   bson_vsnprintf (ctx, sizeof ctx, fmt, ap);
   va_end (ap);
   if (wt_last_msg[0]) {
      lab_error_set (error, LAB_ERROR_WT, (uint32_t)ret, "%s: %s (%s)", ctx, wiredtiger_strerror (ret),
                     wt_last_msg);
   } else {
      lab_error_set (error, LAB_ERROR_WT, (uint32_t)ret, "%s: %s", ctx, wiredtiger_strerror (ret));
   }
   wt_last_msg[0] = '\0';
   return false;
}

/* ---- small helpers ------------------------------------------------------------------------------ */

/* rid_decode_front -- a RecordId at the start of an _id index value; *used gets its length. */
static bool
rid_decode_front (const uint8_t *p, size_t len, int64_t *rid, size_t *used)
{
   size_t extra, i;
   uint64_t v;

   if (len < 2) {
      return false;
   }
   extra = p[0] >> 5;
   if (len < extra + 2 || (size_t)(p[extra + 1] & 7) != extra) {
      return false;
   }
   v = p[0] & 0x1F;
   for (i = 1; i <= extra; i++) {
      v = (v << 8) | p[i];
   }
   v = (v << 5) | (uint64_t)(p[extra + 1] >> 3);
   *rid = (int64_t)v;
   *used = extra + 2;
   return true;
}

/* body_matches -- key starts with the value body `b` and a type tag follows (tags are 1..5, while a
 * string body continues with 0xFF after an escaped NUL). */
static bool
body_matches (const uint8_t *key, size_t klen, const lab_buf_t *b)
{
   return klen > b->len && memcmp (key, b->data, b->len) == 0 && key[b->len] >= 1 && key[b->len] <= 5;
}

/* key_below -- memcmp order: key < bound (bound is a value body). */
static bool
key_below (const uint8_t *key, size_t klen, const lab_buf_t *bound)
{
   size_t n = klen < bound->len ? klen : bound->len;
   int c = memcmp (key, bound->data, n);
   return c < 0 || (c == 0 && klen < bound->len);
}

/* encode_body -- the body of v (its encoding without the type tag) into out (reset first); errors
 * name the field and collection searched. */
static bool
encode_body (const bson_value_t *v, lab_buf_t *out, const char *coll, const char *field, bson_error_t *error)
{
   lab_buf_reset (out);
   if (!lab_key_encode (v, out, error)) {
      lab_error_prefix (error, "search '%s' of collection '%s'", field, coll);
      return false;
   }
   out->len--;
   return true;
}

/* field_value -- the value of `field` (dotted paths allowed) in doc; missing -> null, as mongod indexes
 * a missing field. Arrays (multikey) are refused. */
static bool
field_value (const bson_t *doc, const char *field, bson_iter_t *it, const bson_value_t **v,
             bson_error_t *error)
{
   static const bson_value_t null_value = { .value_type = BSON_TYPE_NULL };
   bson_iter_t top;
   bool found;

   if (!bson_iter_init (&top, doc)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC, "stored document is not valid BSON");
      return false;
   }
   if (strchr (field, '.')) {
      found = bson_iter_find_descendant (&top, field, it);
   } else {
      found = bson_iter_find (&top, field);
      *it = top;
   }
   if (!found) {
      *v = &null_value;
      return true;
   }
   if (BSON_ITER_HOLDS_ARRAY (it)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "field '%s' holds an array: multikey indexes are not supported by the embedded store",
                     field);
      return false;
   }
   *v = bson_iter_value (it);
   return true;
}

/* ---- catalog ------------------------------------------------------------------------------------ */

static void
coll_free (wt_coll_t *c)
{
   int i;

   for (i = 0; i < c->nindexes; i++) {
      bson_free (c->indexes[i].field);
      bson_free (c->indexes[i].ident);
      bson_free (c->indexes[i].uri);
   }
   bson_free (c->name);
   bson_free (c->ident);
   bson_free (c->uri);
   bson_free (c);
}

static void
coll_list_free (wt_coll_t *c)
{
   while (c) {
      wt_coll_t *next = c->next;
      coll_free (c);
      c = next;
   }
}

static void
index_set (wt_index_t *ix, const char *field, const char *ident)
{
   ix->field = bson_strdup (field);
   ix->ident = bson_strdup (ident);
   ix->uri = bson_strdup_printf ("table:%s", ident);
}

/* coll_find -- the live collection named `name` (caller holds mu). */
static wt_coll_t *
coll_find (wt_store_t *st, const char *name)
{
   wt_coll_t *c;

   for (c = st->colls; c; c = c->next) {
      if (strcmp (c->name, name) == 0) {
         return c;
      }
   }
   return NULL;
}

/* coll_lookup -- the collection, or NO_COLLECTION naming the store. */
static wt_coll_t *
coll_lookup (wt_store_t *st, const char *name, bson_error_t *error)
{
   wt_coll_t *c;

   pthread_mutex_lock (&st->mu);
   c = coll_find (st, name);
   pthread_mutex_unlock (&st->mu);
   if (!c) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                     "collection '%s' does not exist in wiredtiger:%s", name, st->home);
   }
   return c;
}

/* coll_index -- the index whose key is `field`, or NULL. */
static wt_index_t *
coll_index (wt_coll_t *c, const char *field)
{
   int i;

   for (i = 0; i < c->nindexes; i++) {
      if (strcmp (c->indexes[i].field, field) == 0) {
         return &c->indexes[i];
      }
   }
   return NULL;
}

/* index_lookup -- the index on field, else NO_INDEX naming the fix. */
static wt_index_t *
index_lookup (wt_store_t *st, wt_coll_t *c, const char *field, bson_error_t *error)
{
   wt_index_t *ix = coll_index (c, field);

   if (!ix) {
      lab_error_set (
         error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
         "collection '%s' in wiredtiger:%s has no index on '%s': create it (e.g. "
         "lab_store_create_index / the tool's index option) or choose an indexed field with --key",
         c->name, st->home, field);
   }
   return ix;
}

/* catalog_doc -- the catalog entry of a collection. */
static void
catalog_doc (const wt_coll_t *c, bson_t *doc)
{
   bson_t arr, ix;
   char k[16];
   int i;

   bson_init (doc);
   BSON_APPEND_UTF8 (doc, "ns", c->name);
   BSON_APPEND_UTF8 (doc, "ident", c->ident);
   BSON_APPEND_INT64 (doc, "count", __atomic_load_n (&c->count, __ATOMIC_RELAXED));
   BSON_APPEND_INT64 (doc, "data_size", __atomic_load_n (&c->data_size, __ATOMIC_RELAXED));
   BSON_APPEND_INT64 (doc, "next_rid", __atomic_load_n (&c->next_rid, __ATOMIC_RELAXED));
   BSON_APPEND_ARRAY_BEGIN (doc, "indexes", &arr);
   for (i = 0; i < c->nindexes; i++) {
      bson_snprintf (k, sizeof k, "%d", i);
      bson_append_document_begin (&arr, k, -1, &ix);
      BSON_APPEND_UTF8 (&ix, "field", c->indexes[i].field);
      BSON_APPEND_UTF8 (&ix, "ident", c->indexes[i].ident);
      bson_append_document_end (&arr, &ix);
   }
   bson_append_array_end (doc, &arr);
}

/* catalog_put -- write (or, doc NULL, remove) one catalog record through session s. */
static bool
catalog_put (WT_SESSION *s, const char *key, const bson_t *doc, bson_error_t *error)
{
   WT_CURSOR *c = NULL;
   WT_ITEM item;
   int ret;

   if ((ret = s->open_cursor (s, WT_CATALOG_URI, NULL, NULL, &c)) != 0) {
      return wt_fail (error, ret, "open catalog %s", WT_CATALOG_URI);
   }
   c->set_key (c, key);
   if (doc) {
      item.data = bson_get_data (doc);
      item.size = doc->len;
      c->set_value (c, &item);
      ret = c->insert (c);
   } else {
      ret = c->remove (c);
      if (ret == WT_NOTFOUND) {
         ret = 0;
      }
   }
   c->close (c);
   if (ret != 0) {
      return wt_fail (error, ret, "write catalog entry '%s'", key);
   }
   return true;
}

/* catalog_put_coll -- persist one collection's entry. */
static bool
catalog_put_coll (WT_SESSION *s, const wt_coll_t *c, bson_error_t *error)
{
   bson_t doc;
   char *key = bson_strdup_printf ("c/%s", c->name);
   bool ok;

   catalog_doc (c, &doc);
   ok = catalog_put (s, key, &doc, error);
   bson_destroy (&doc);
   bson_free (key);
   return ok;
}

/* catalog_put_state -- persist the ident counter and whether counts in the catalog are exact. */
static bool
catalog_put_state (wt_store_t *st, WT_SESSION *s, bool clean, bson_error_t *error)
{
   bson_t doc = BSON_INITIALIZER;
   bool ok;

   BSON_APPEND_INT64 (&doc, "next_ident", st->next_ident);
   BSON_APPEND_BOOL (&doc, "clean", clean);
   ok = catalog_put (s, WT_STATE_KEY, &doc, error);
   bson_destroy (&doc);
   return ok;
}

/* recount -- exact count, data size and next RecordId by scanning a collection (after a crash). */
static bool
recount (wt_store_t *st, wt_coll_t *c, bson_error_t *error)
{
   WT_CURSOR *cur = NULL;
   WT_ITEM v;
   int64_t n = 0, bytes = 0, rid = 0;
   int ret;

   if ((ret = st->meta->open_cursor (st->meta, c->uri, NULL, NULL, &cur)) != 0) {
      return wt_fail (error, ret, "open collection '%s' (%s)", c->name, c->uri);
   }
   while ((ret = cur->next (cur)) == 0) {
      if ((ret = cur->get_value (cur, &v)) != 0) {
         break;
      }
      cur->get_key (cur, &rid);
      n++;
      bytes += (int64_t)v.size;
   }
   cur->close (cur);
   if (ret != WT_NOTFOUND) {
      return wt_fail (error, ret, "recount collection '%s' (%s)", c->name, c->uri);
   }
   c->count = n;
   c->data_size = bytes;
   c->next_rid = rid + 1;
   return true;
}

/* catalog_load -- read the catalog into the collection list; recount when the last close was unclean;
 * then mark the catalog unclean until the next clean close. */
static bool
catalog_load (wt_store_t *st, bson_error_t *error)
{
   WT_CURSOR *cur = NULL;
   bool clean = true;
   const char *key;
   WT_ITEM v;
   int ret;
   wt_coll_t *c;

   if ((ret = st->meta->create (st->meta, WT_CATALOG_URI, WT_CATALOG_CONFIG)) != 0) {
      return wt_fail (error, ret, "create catalog %s in %s", WT_CATALOG_URI, st->home);
   }
   if ((ret = st->meta->open_cursor (st->meta, WT_CATALOG_URI, NULL, NULL, &cur)) != 0) {
      return wt_fail (error, ret, "open catalog %s in %s", WT_CATALOG_URI, st->home);
   }
   st->next_ident = 1;
   while ((ret = cur->next (cur)) == 0) {
      bson_t doc;
      bson_iter_t it, arr, ix;

      cur->get_key (cur, &key);
      cur->get_value (cur, &v);
      if (!bson_init_static (&doc, v.data, v.size)) {
         cur->close (cur);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "catalog entry '%s' in %s is not valid BSON", key, st->home);
         return false;
      }
      if (strcmp (key, WT_STATE_KEY) == 0) {
         if (bson_iter_init_find (&it, &doc, "next_ident")) {
            st->next_ident = bson_iter_as_int64 (&it);
         }
         if (bson_iter_init_find (&it, &doc, "clean")) {
            clean = bson_iter_as_bool (&it);
         }
         continue;
      }
      if (strncmp (key, "c/", 2) != 0) {
         continue;
      }
      c = bson_malloc0 (sizeof *c);
      c->name = bson_strdup (key + 2);
      if (bson_iter_init_find (&it, &doc, "ident") && BSON_ITER_HOLDS_UTF8 (&it)) {
         c->ident = bson_strdup (bson_iter_utf8 (&it, NULL));
      }
      c->uri = bson_strdup_printf ("table:%s", c->ident ? c->ident : "");
      if (bson_iter_init_find (&it, &doc, "count")) {
         c->count = bson_iter_as_int64 (&it);
      }
      if (bson_iter_init_find (&it, &doc, "data_size")) {
         c->data_size = bson_iter_as_int64 (&it);
      }
      if (bson_iter_init_find (&it, &doc, "next_rid")) {
         c->next_rid = bson_iter_as_int64 (&it);
      }
      if (bson_iter_init_find (&it, &doc, "indexes") && bson_iter_recurse (&it, &arr)) {
         while (bson_iter_next (&arr) && c->nindexes < WT_MAX_INDEXES) {
            const char *f = NULL, *id = NULL;
            if (!bson_iter_recurse (&arr, &ix)) {
               continue;
            }
            while (bson_iter_next (&ix)) {
               if (strcmp (bson_iter_key (&ix), "field") == 0) {
                  f = bson_iter_utf8 (&ix, NULL);
               } else if (strcmp (bson_iter_key (&ix), "ident") == 0) {
                  id = bson_iter_utf8 (&ix, NULL);
               }
            }
            if (f && id) {
               index_set (&c->indexes[c->nindexes++], f, id);
            }
         }
      }
      c->next = st->colls;
      st->colls = c;
      if (!c->ident || c->nindexes == 0 || strcmp (c->indexes[0].field, "_id") != 0) {
         cur->close (cur);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "catalog entry of collection '%s' in %s is incomplete", c->name, st->home);
         return false;
      }
   }
   cur->close (cur);
   if (ret != WT_NOTFOUND) {
      return wt_fail (error, ret, "read catalog of %s", st->home);
   }
   for (c = st->colls; c; c = c->next) {
      if (!clean && !recount (st, c, error)) {
         return false;
      }
      if (c->next_rid < 1) {
         c->next_rid = 1;
      }
   }
   /* "unclean" must reach the journal before any write of this run can, so a crash always recounts */
   if (!catalog_put_state (st, st->meta, false, error)) {
      return false;
   }
   if ((ret = st->meta->log_flush (st->meta, "sync=on")) != 0) {
      return wt_fail (error, ret, "flush the journal of %s", st->home);
   }
   st->loaded = true;
   return true;
}

/* catalog_save -- counts and RecordIds of every collection, then mark clean (caller holds mu). */
static bool
catalog_save (wt_store_t *st, bool clean, bson_error_t *error)
{
   wt_coll_t *c;

   for (c = st->colls; c; c = c->next) {
      if (!catalog_put_coll (st->meta, c, error)) {
         return false;
      }
   }
   return catalog_put_state (st, st->meta, clean, error);
}

/* ---- open / close ------------------------------------------------------------------------------- */

/* mkdir_p -- create dir and its parents. */
static int
mkdir_p (const char *dir)
{
   char *tmp = bson_strdup (dir);
   char *p;
   int err = 0;

   for (p = tmp + 1; *p; p++) {
      if (*p == '/') {
         *p = '\0';
         if (mkdir (tmp, 0755) != 0 && errno != EEXIST) {
            err = errno;
            break;
         }
         *p = '/';
      }
   }
   if (!err && mkdir (tmp, 0755) != 0 && errno != EEXIST) {
      err = errno;
   }
   bson_free (tmp);
   return err;
}

/* permission_error -- one clear message for a home we cannot write. */
static bool
permission_error (bson_error_t *error, const char *home, int err)
{
   char ebuf[128];

   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_PERMISSION,
                  "WiredTiger home '%s' is not writable (%s): choose a directory you can write with "
                  "--uri wiredtiger:DIR",
                  home, bson_strerror_r (err, ebuf, sizeof ebuf));
   return false;
}

/* default_cache_bytes -- mongod's rule: max(50% of (RAM - 1 GB), 256 MB). */
static uint64_t
default_cache_bytes (void)
{
   long pages = sysconf (_SC_PHYS_PAGES), psize = sysconf (_SC_PAGESIZE);
   uint64_t ram_mb = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize / (1024 * 1024) : 0;
   uint64_t mb = ram_mb > 1024 ? (ram_mb - 1024) / 2 : 0;

   if (mb < 256) {
      mb = 256;
   }
   return mb * 1024 * 1024;
}

/* conn_open -- wiredtiger_open with the saved config, the meta session and the catalog. */
static bool
conn_open (wt_store_t *st, bson_error_t *error)
{
   char *journal = bson_strdup_printf ("%s/journal", st->home);
   int ret, err;

   err = mkdir_p (journal);
   bson_free (journal);
   if (err) {
      return permission_error (error, st->home, err);
   }
   wt_last_msg[0] = '\0';
   if ((ret = wiredtiger_open (st->home, &wt_handler, st->config, &st->conn)) != 0) {
      st->conn = NULL;
      if (ret == EBUSY) {
         return wt_fail (error, ret,
                         "open WiredTiger home %s: another process (or store) has it open; stop it or "
                         "use another --uri",
                         st->home);
      }
      return wt_fail (error, ret, "open WiredTiger home %s", st->home);
   }
   if ((ret = st->conn->open_session (st->conn, NULL, "isolation=snapshot", &st->meta)) != 0) {
      return wt_fail (error, ret, "open session in %s", st->home);
   }
   return catalog_load (st, error);
}

/* conn_close -- save the catalog (clean) and close the connection; errors are reported. */
static bool
conn_close (wt_store_t *st, bson_error_t *error)
{
   bool ok = true;
   int ret;

   if (!st->conn) {
      return true;
   }
   if (st->meta && st->loaded) {
      ok = catalog_save (st, true, error);
   }
   st->loaded = false;
   if ((ret = st->conn->close (st->conn, NULL)) != 0 && ok) {
      ok = wt_fail (error, ret, "close WiredTiger home %s", st->home);
   }
   st->conn = NULL;
   st->meta = NULL;
   coll_list_free (st->colls);
   st->colls = NULL;
   return ok;
}

static void
wt_close (lab_store_t *store)
{
   wt_store_t *st = store->impl;

   if (!st) {
      return;
   }
   /* lab_store_close closes the sessions left open (store.h): they must not be used afterwards */
   while (st->sessions) {
      lab_session_t *sess = st->sessions->sess;
      wt_session_close (sess);
      bson_free (sess);
   }
   conn_close (st, NULL);
   coll_list_free (st->graveyard);
   pthread_mutex_destroy (&st->mu);
   pthread_mutex_destroy (&st->meta_mu);
   pthread_rwlock_destroy (&st->ddl);
   bson_free (st->home);
   bson_free (st->config);
   bson_free (st);
   store->impl = NULL;
}

/* wt_open -- check/create the home, then open it with mongod's configuration. */
static bool
wt_open (lab_store_t *store, bson_error_t *error)
{
   const char *dir = store->uri.wt_home;
   wt_store_t *st;
   struct stat sb;
   char real[PATH_MAX];
   int err;

   if (store->opts.create && (err = mkdir_p (dir)) != 0) {
      return permission_error (error, dir, err);
   }
   if (stat (dir, &sb) != 0) {
      err = errno;
      if (err == ENOENT) {
         lab_error_set (error, LAB_ERROR_IO, ENOENT,
                        "WiredTiger home '%s' does not exist: check --uri wiredtiger:DIR (tools that write "
                        "create it)",
                        dir);
         return false;
      }
      return permission_error (error, dir, err);
   }
   if (!S_ISDIR (sb.st_mode)) {
      return permission_error (error, dir, ENOTDIR);
   }
   if (access (dir, W_OK | X_OK) != 0) {
      return permission_error (error, dir, errno);
   }
   if (!realpath (dir, real)) {
      return permission_error (error, dir, errno);
   }
   st = bson_malloc0 (sizeof *st);
   store->impl = st;
   pthread_mutex_init (&st->mu, NULL);
   pthread_mutex_init (&st->meta_mu, NULL);
   pthread_rwlock_init (&st->ddl, NULL);
   st->home = bson_strdup (real);
   st->cache_max_bytes = store->opts.cache_size_bytes ? store->opts.cache_size_bytes : default_cache_bytes ();
   st->config = bson_strdup_printf (
      "create,cache_size=%" PRIu64 "M,cache_overflow=(file_max=0M),session_max=33000,"
      "eviction=(threads_min=4,threads_max=4),config_base=false,statistics=(fast),"
      "log=(enabled=true,archive=true,path=journal,compressor=snappy),"
      "file_manager=(close_idle_time=100000,close_scan_interval=10,close_handle_minimum=250),"
      "statistics_log=(wait=0),checkpoint=(wait=60),extensions=[\"%s\"]%s",
      (st->cache_max_bytes + (1024 * 1024 - 1)) / (1024 * 1024), LAB_WT_SNAPPY_PATH,
      store->opts.direct_io ? ",direct_io=[data]" : "");
   st->opened_at = time (NULL);
   if (!conn_open (st, error)) {
      wt_close (store);
      return false;
   }
   return true;
}

static const char *
wt_home (const lab_store_t *store)
{
   return ((const wt_store_t *)store->impl)->home;
}

/* closed_error -- the engine is not open (a cycle failed to reopen it). */
static bool
closed_error (wt_store_t *st, bson_error_t *error)
{
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                  "WiredTiger home %s is closed: the last cycle could not reopen it", st->home);
   return false;
}

/* ---- sessions ----------------------------------------------------------------------------------- */

static bool
wt_session_open (lab_session_t *sess, bson_error_t *error)
{
   wt_store_t *st = sess->store->impl;
   wt_sess_t *ss;
   int ret;

   ss = bson_malloc0 (sizeof *ss);
   ss->st = st;
   ss->sess = sess;
   pthread_mutex_lock (&st->mu);
   if (!st->conn) {
      pthread_mutex_unlock (&st->mu);
      bson_free (ss);
      return closed_error (st, error);
   }
   ret = st->conn->open_session (st->conn, NULL, "isolation=snapshot", &ss->s);
   if (ret == 0) {
      st->nsessions++;
      ss->next = st->sessions;
      if (st->sessions) {
         st->sessions->prev = ss;
      }
      st->sessions = ss;
   }
   pthread_mutex_unlock (&st->mu);
   if (ret != 0) {
      bson_free (ss);
      return wt_fail (error, ret, "open a session in %s", st->home);
   }
   lab_buf_init (&ss->key);
   lab_buf_init (&ss->ikeys);
   lab_buf_init (&ss->val);
   lab_buf_init (&ss->body);
   sess->impl = ss;
   return true;
}

/* cache_drop -- close this session's cached cursors on `uri` (before a drop). */
static void
cache_drop (wt_sess_t *ss, const char *uri)
{
   int i, j = 0;

   for (i = 0; i < ss->ncache; i++) {
      if (strcmp (ss->cache[i].uri, uri) == 0) {
         ss->cache[i].c->close (ss->cache[i].c);
         bson_free (ss->cache[i].uri);
      } else {
         ss->cache[j++] = ss->cache[i];
      }
   }
   ss->ncache = j;
}

static void
wt_session_close (lab_session_t *sess)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;

   /* under ddl: a drop may be closing this session's cursors from its own thread */
   pthread_rwlock_rdlock (&st->ddl);
   close_cursors (ss);
   pthread_mutex_lock (&st->mu);
   ss->s->close (ss->s, NULL);
   st->nsessions--;
   if (ss->prev) {
      ss->prev->next = ss->next;
   } else {
      st->sessions = ss->next;
   }
   if (ss->next) {
      ss->next->prev = ss->prev;
   }
   pthread_mutex_unlock (&st->mu);
   pthread_rwlock_unlock (&st->ddl);
   lab_buf_destroy (&ss->key);
   lab_buf_destroy (&ss->ikeys);
   lab_buf_destroy (&ss->val);
   lab_buf_destroy (&ss->body);
   bson_free (ss->rids);
   bson_free (ss);
}

/* get_cursor -- a cursor on uri, kept open for the rest of the operation (see reset_cursors). */
static bool
get_cursor (wt_sess_t *ss, const char *uri, bool overwrite, WT_CURSOR **out, bson_error_t *error)
{
   int i, ret;

   for (i = 0; i < ss->ncache; i++) {
      if (ss->cache[i].overwrite == overwrite && strcmp (ss->cache[i].uri, uri) == 0) {
         *out = ss->cache[i].c;
         return true;
      }
   }
   if (ss->ncache == WT_CURSOR_CACHE) {
      ss->cache[0].c->close (ss->cache[0].c);
      bson_free (ss->cache[0].uri);
      memmove (&ss->cache[0], &ss->cache[1], (WT_CURSOR_CACHE - 1) * sizeof ss->cache[0]);
      ss->ncache--;
   }
   if ((ret = ss->s->open_cursor (ss->s, uri, NULL, overwrite ? NULL : "overwrite=false", out)) != 0) {
      return wt_fail (error, ret, "open cursor on %s", uri);
   }
   ss->cache[ss->ncache].uri = bson_strdup (uri);
   ss->cache[ss->ncache].overwrite = overwrite;
   ss->cache[ss->ncache].c = *out;
   ss->ncache++;
   return true;
}

/* reset_cursors -- end of an operation: the session's cursors stay open for the next one (twice as
 * fast as reopening, for single-key lookups) but release their position and pages. A drop closes
 * them in every idle session first (wt_drop). */
static void
reset_cursors (wt_sess_t *ss)
{
   int i;

   for (i = 0; i < ss->ncache; i++) {
      ss->cache[i].c->reset (ss->cache[i].c);
   }
}

/* close_cursors -- close every cached cursor of the session. */
static void
close_cursors (wt_sess_t *ss)
{
   int i;

   for (i = 0; i < ss->ncache; i++) {
      ss->cache[i].c->close (ss->cache[i].c);
      bson_free (ss->cache[i].uri);
   }
   ss->ncache = 0;
}

static void
rids_push (wt_sess_t *ss, int64_t rid)
{
   if (ss->nrids == ss->caprids) {
      ss->caprids = ss->caprids ? ss->caprids * 2 : 256;
      ss->rids = bson_realloc (ss->rids, ss->caprids * sizeof *ss->rids);
   }
   ss->rids[ss->nrids++] = rid;
}

/* ---- collections -------------------------------------------------------------------------------- */

static bool
wt_exists (lab_session_t *sess, const char *coll, bool *exists, bson_error_t *error)
{
   wt_store_t *st = ((wt_sess_t *)sess->impl)->st;

   pthread_mutex_lock (&st->mu);
   *exists = coll_find (st, coll) != NULL;
   pthread_mutex_unlock (&st->mu);
   return true;
}

/* create_locked -- create the collection and its _id index (caller holds ddl for writing). */
static wt_coll_t *
create_locked (wt_sess_t *ss, const char *name, bson_error_t *error)
{
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   char *ident;
   int ret;

   pthread_mutex_lock (&st->mu);
   c = coll_find (st, name);
   if (c) {
      pthread_mutex_unlock (&st->mu);
      return c;
   }
   c = bson_malloc0 (sizeof *c);
   c->name = bson_strdup (name);
   c->ident = bson_strdup_printf ("collection-%" PRId64 "-layoutlab", st->next_ident++);
   c->uri = bson_strdup_printf ("table:%s", c->ident);
   ident = bson_strdup_printf ("index-%" PRId64 "-layoutlab", st->next_ident++);
   index_set (&c->indexes[0], "_id", ident);
   bson_free (ident);
   c->nindexes = 1;
   c->next_rid = 1;
   pthread_mutex_unlock (&st->mu);

   if ((ret = ss->s->create (ss->s, c->uri, WT_COLL_CONFIG)) != 0) {
      wt_fail (error, ret, "create collection '%s' (%s)", name, c->uri);
      goto err;
   }
   if ((ret = ss->s->create (ss->s, c->indexes[0].uri, WT_INDEX_CONFIG)) != 0) {
      wt_fail (error, ret, "create _id index of '%s' (%s)", name, c->indexes[0].uri);
      goto err;
   }
   pthread_mutex_lock (&st->mu);
   if (!catalog_put_state (st, ss->s, false, error) || !catalog_put_coll (ss->s, c, error)) {
      pthread_mutex_unlock (&st->mu);
      goto err;
   }
   c->next = st->colls;
   st->colls = c;
   pthread_mutex_unlock (&st->mu);
   return c;
err:
   ss->s->drop (ss->s, c->indexes[0].uri, "force=true");
   ss->s->drop (ss->s, c->uri, "force=true");
   coll_free (c);
   return NULL;
}

static bool
wt_create (lab_session_t *sess, const char *coll, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_coll_t *c;

   pthread_rwlock_wrlock (&ss->st->ddl);
   c = create_locked (ss, coll, error);
   pthread_rwlock_unlock (&ss->st->ddl);
   return c != NULL;
}

/* coll_get_or_create -- for writes: MongoDB creates a missing collection on first insert. */
static wt_coll_t *
coll_get_or_create (wt_sess_t *ss, const char *name, bson_error_t *error)
{
   wt_coll_t *c;

   pthread_mutex_lock (&ss->st->mu);
   c = coll_find (ss->st, name);
   pthread_mutex_unlock (&ss->st->mu);
   if (c) {
      return c;
   }
   pthread_rwlock_wrlock (&ss->st->ddl);
   c = create_locked (ss, name, error);
   pthread_rwlock_unlock (&ss->st->ddl);
   return c;
}

/* drop_table -- drop one table (caller holds ddl for writing): close the cursors every session keeps
 * on it -- no operation runs while ddl is held for writing, so each session is idle and may be used
 * from this thread -- except in sessions with an open sorted stream, then wait a little for handles
 * being released. */
static bool
drop_table (wt_sess_t *ss, const char *coll, const char *uri, bson_error_t *error)
{
   wt_sess_t *other;
   int ret, i;

   pthread_mutex_lock (&ss->st->mu);
   for (other = ss->st->sessions; other; other = other->next) {
      if (other == ss || __atomic_load_n (&other->nsorted, __ATOMIC_ACQUIRE) == 0) {
         cache_drop (other, uri);
      }
   }
   pthread_mutex_unlock (&ss->st->mu);
   for (i = 0; i < 500; i++) {
      ret = ss->s->drop (ss->s, uri, "force=true");
      if (ret != EBUSY) {
         break;
      }
      usleep (10000);
   }
   if (ret == EBUSY) {
      return wt_fail (error, ret,
                      "drop '%s' (%s): the table is in use; close the sorted streams that read it first",
                      coll, uri);
   }
   if (ret != 0) {
      return wt_fail (error, ret, "drop '%s' (%s)", coll, uri);
   }
   return true;
}

static bool
wt_drop (lab_session_t *sess, const char *coll, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c, **pp;
   bool ok = false;
   char *key;
   int i;

   pthread_rwlock_wrlock (&st->ddl);
   pthread_mutex_lock (&st->mu);
   c = coll_find (st, coll);
   pthread_mutex_unlock (&st->mu);
   if (!c) {
      ok = true;
      goto done;
   }
   for (i = 0; i < c->nindexes; i++) {
      if (!drop_table (ss, coll, c->indexes[i].uri, error)) {
         goto done;
      }
   }
   if (!drop_table (ss, coll, c->uri, error)) {
      goto done;
   }
   key = bson_strdup_printf ("c/%s", coll);
   pthread_mutex_lock (&st->mu);
   ok = catalog_put (ss->s, key, NULL, error);
   for (pp = &st->colls; *pp; pp = &(*pp)->next) {
      if (*pp == c) {
         *pp = c->next;
         break;
      }
   }
   c->next = st->graveyard;
   st->graveyard = c;
   pthread_mutex_unlock (&st->mu);
   bson_free (key);
done:
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

static bool
wt_count (lab_session_t *sess, const char *coll, int64_t *count, bson_error_t *error)
{
   wt_coll_t *c = coll_lookup (((wt_sess_t *)sess->impl)->st, coll, error);

   if (!c) {
      return false;
   }
   *count = __atomic_load_n (&c->count, __ATOMIC_RELAXED);
   return true;
}

/* file_size -- bytes of <home>/<ident>.wt on disk (0 when missing). */
static int64_t
file_size (wt_store_t *st, const char *ident)
{
   char path[PATH_MAX];
   struct stat sb;

   bson_snprintf (path, sizeof path, "%s/%s.wt", st->home, ident);
   return stat (path, &sb) == 0 ? (int64_t)sb.st_size : 0;
}

static bool
wt_stats (lab_session_t *sess, const char *coll, lab_coll_stats_t *out, bson_error_t *error)
{
   wt_store_t *st = ((wt_sess_t *)sess->impl)->st;
   wt_coll_t *c;
   int i;

   pthread_rwlock_rdlock (&st->ddl);
   c = coll_lookup (st, coll, error);
   if (c) {
      out->count = __atomic_load_n (&c->count, __ATOMIC_RELAXED);
      out->data_size_bytes = __atomic_load_n (&c->data_size, __ATOMIC_RELAXED);
      out->avg_obj_size_bytes = out->count ? (double)out->data_size_bytes / (double)out->count : 0.0;
      out->storage_size_bytes = file_size (st, c->ident);
      out->index_size_bytes = 0;
      for (i = 0; i < c->nindexes; i++) {
         out->index_size_bytes += file_size (st, c->indexes[i].ident);
      }
      out->nindexes = c->nindexes;
   }
   pthread_rwlock_unlock (&st->ddl);
   return c != NULL;
}

static bool
wt_has_index (lab_session_t *sess, const char *coll, const char *field, bool *has, bson_error_t *error)
{
   wt_store_t *st = ((wt_sess_t *)sess->impl)->st;
   wt_coll_t *c;

   pthread_rwlock_rdlock (&st->ddl);
   c = coll_lookup (st, coll, error);
   if (c) {
      *has = coll_index (c, field) != NULL;
   }
   pthread_rwlock_unlock (&st->ddl);
   return c != NULL;
}

/* ---- index builds ------------------------------------------------------------------------------- */

typedef struct {
   size_t off;
   size_t len;
} key_ref_t;

static const uint8_t *sort_base; /* qsort has no context argument: guarded by sort_mu */

/* bytes_cmp -- memcmp order of two byte strings, a proper prefix first (WiredTiger's key order). */
static int
bytes_cmp (const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
   int c = memcmp (a, b, alen < blen ? alen : blen);

   return c ? c : (alen < blen ? -1 : alen > blen ? 1 : 0);
}

/* key_ref_cmp_base -- order of two keys in an arena. */
static int
key_ref_cmp_base (const uint8_t *base, const key_ref_t *x, const key_ref_t *y)
{
   return bytes_cmp (base + x->off, x->len, base + y->off, y->len);
}

static int
key_ref_cmp (const void *a, const void *b)
{
   return key_ref_cmp_base (sort_base, a, b);
}

static pthread_mutex_t sort_mu = PTHREAD_MUTEX_INITIALIZER;

/* A sorted run of index keys spilled to an unlinked file in the home: [u32 length][key] ... */
typedef struct {
   FILE *f;
   uint8_t *key;
   uint32_t len, cap;
   bool done;
} sort_run_t;

/* sort_budget -- bytes of keys held in memory before a sorted run is spilled (as mongod's
 * maxIndexBuildMemoryUsageMegabytes); $LAB_WT_SORT_BUDGET overrides it (tests use a tiny one). */
static size_t
sort_budget (void)
{
   const char *env = getenv ("LAB_WT_SORT_BUDGET");
   long long v = env ? atoll (env) : 0;

   return v > 0 ? (size_t)v : (size_t)256 * 1024 * 1024;
}

/* sort_chunk -- sort the keys of the arena unless they came in order. */
static void
sort_chunk (const lab_buf_t *arena, key_ref_t *refs, size_t n, bool sorted)
{
   if (!sorted) {
      pthread_mutex_lock (&sort_mu);
      sort_base = arena->data;
      qsort (refs, n, sizeof *refs, key_ref_cmp);
      pthread_mutex_unlock (&sort_mu);
   }
}

/* spill_run -- write n sorted keys to a new unlinked file in dir, rewound for reading. */
static bool
spill_run (const char *dir, const lab_buf_t *arena, const key_ref_t *refs, size_t n, sort_run_t *run,
           bson_error_t *error)
{
   char *path = bson_strdup_printf ("%s/_tmp_index_build_XXXXXX", dir);
   int fd = mkstemp (path);
   size_t i;

   memset (run, 0, sizeof *run);
   if (fd < 0) {
      lab_error_set_errno (error, errno, "create a sort file in %s for an index build", dir);
      bson_free (path);
      return false;
   }
   unlink (path);
   bson_free (path);
   if (!(run->f = fdopen (fd, "w+b"))) {
      lab_error_set_errno (error, errno, "open a sort file in %s", dir);
      close (fd);
      return false;
   }
   for (i = 0; i < n; i++) {
      uint32_t len = (uint32_t)refs[i].len;
      if (fwrite (&len, sizeof len, 1, run->f) != 1 ||
          fwrite (arena->data + refs[i].off, 1, len, run->f) != len) {
         lab_error_set_errno (error, errno, "write a sort file in %s (disk full?)", dir);
         return false;
      }
   }
   if (fflush (run->f) != 0) {
      lab_error_set_errno (error, errno, "write a sort file in %s (disk full?)", dir);
      return false;
   }
   rewind (run->f);
   return true;
}

/* run_next -- the run's next key into run->key, or run->done. */
static bool
run_next (sort_run_t *run, bson_error_t *error)
{
   uint32_t len;

   if (fread (&len, sizeof len, 1, run->f) != 1) {
      if (feof (run->f)) {
         run->done = true;
         return true;
      }
      lab_error_set_errno (error, errno, "read back a sort file of an index build");
      return false;
   }
   if (len > run->cap) {
      run->key = bson_realloc (run->key, len);
      run->cap = len;
   }
   if (fread (run->key, 1, len, run->f) != len) {
      lab_error_set_errno (error, errno ? errno : EIO, "read back a sort file of an index build");
      return false;
   }
   run->len = len;
   return true;
}

/* bulk_put -- one key (empty value) into a bulk cursor. */
static int
bulk_put (WT_CURSOR *bulk, const void *data, size_t len)
{
   WT_ITEM k = { 0 }, empty = { 0 };

   k.data = data;
   k.size = len;
   bulk->set_key (bulk, &k);
   bulk->set_value (bulk, &empty);
   return bulk->insert (bulk);
}

/* build_index -- fill a fresh index table from the collection's documents with a bulk cursor, as
 * mongod builds an index over existing data: read every document, sort the keys (in memory up to
 * sort_budget(), else in sorted runs spilled to the home and merged), bulk-load them in order. */
static bool
build_index (wt_sess_t *ss, wt_coll_t *c, const char *field, const char *uri, bson_error_t *error)
{
   WT_CURSOR *cc = NULL, *bulk = NULL;
   lab_buf_t arena;
   key_ref_t *refs = NULL;
   sort_run_t *runs = NULL;
   size_t nrefs = 0, caprefs = 0, nruns = 0, i, budget = sort_budget ();
   bool ok = false, sorted = true;
   WT_ITEM v;
   int64_t rid;
   int ret;

   lab_buf_init (&arena);
   if ((ret = ss->s->open_cursor (ss->s, c->uri, NULL, NULL, &cc)) != 0) {
      wt_fail (error, ret, "open collection '%s' (%s)", c->name, c->uri);
      goto done;
   }
   while ((ret = cc->next (cc)) == 0) {
      bson_t doc;
      bson_iter_t it;
      const bson_value_t *val;
      size_t start = arena.len;

      cc->get_key (cc, &rid);
      cc->get_value (cc, &v);
      if (!bson_init_static (&doc, v.data, v.size)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "collection '%s': record %" PRId64 " is not valid BSON", c->name, rid);
         goto done;
      }
      if (!field_value (&doc, field, &it, &val, error) || !lab_key_encode (val, &arena, error)) {
         lab_error_prefix (error, "build index on '%s' of '%s' (record %" PRId64 ")", field, c->name, rid);
         goto done;
      }
      lab_key_append_recordid (&arena, rid);
      if (nrefs == caprefs) {
         caprefs = caprefs ? caprefs * 2 : 4096;
         refs = bson_realloc (refs, caprefs * sizeof *refs);
      }
      refs[nrefs].off = start;
      refs[nrefs].len = arena.len - start;
      if (sorted && nrefs > 0) {
         sorted = key_ref_cmp_base (arena.data, &refs[nrefs - 1], &refs[nrefs]) < 0;
      }
      nrefs++;
      if (arena.len + nrefs * sizeof *refs >= budget) {
         sort_chunk (&arena, refs, nrefs, sorted);
         runs = bson_realloc (runs, (nruns + 1) * sizeof *runs);
         if (!spill_run (ss->st->home, &arena, refs, nrefs, &runs[nruns++], error)) {
            goto done;
         }
         lab_buf_reset (&arena);
         nrefs = 0;
         sorted = true;
      }
   }
   if (ret != WT_NOTFOUND) {
      wt_fail (error, ret, "scan collection '%s' (%s)", c->name, c->uri);
      goto done;
   }
   cc->close (cc);
   cc = NULL;
   if (nrefs == 0 && nruns == 0) {
      ok = true;
      goto done;
   }
   sort_chunk (&arena, refs, nrefs, sorted);
   if ((ret = ss->s->open_cursor (ss->s, uri, NULL, "bulk", &bulk)) != 0) {
      wt_fail (error, ret, "open bulk cursor on %s", uri);
      goto done;
   }
   if (nruns == 0) {
      for (i = 0; i < nrefs; i++) {
         if ((ret = bulk_put (bulk, arena.data + refs[i].off, refs[i].len)) != 0) {
            wt_fail (error, ret, "bulk load index on '%s' of '%s' (%s)", field, c->name, uri);
            goto done;
         }
      }
   } else {
      /* the last chunk becomes a run too, then a merge of the runs (few: a linear minimum is enough) */
      if (nrefs > 0) {
         runs = bson_realloc (runs, (nruns + 1) * sizeof *runs);
         if (!spill_run (ss->st->home, &arena, refs, nrefs, &runs[nruns++], error)) {
            goto done;
         }
      }
      lab_buf_destroy (&arena);
      for (i = 0; i < nruns; i++) {
         if (!run_next (&runs[i], error)) {
            goto done;
         }
      }
      for (;;) {
         sort_run_t *min = NULL;
         for (i = 0; i < nruns; i++) {
            sort_run_t *r = &runs[i];
            if (!r->done && (!min || bytes_cmp (r->key, r->len, min->key, min->len) < 0)) {
               min = r;
            }
         }
         if (!min) {
            break;
         }
         if ((ret = bulk_put (bulk, min->key, min->len)) != 0) {
            wt_fail (error, ret, "bulk load index on '%s' of '%s' (%s)", field, c->name, uri);
            goto done;
         }
         if (!run_next (min, error)) {
            goto done;
         }
      }
   }
   ret = bulk->close (bulk);
   bulk = NULL;
   if (ret != 0) {
      wt_fail (error, ret, "finish bulk load of %s", uri);
      goto done;
   }
   ok = true;
done:
   if (bulk) {
      bulk->close (bulk);
   }
   if (cc) {
      cc->close (cc);
   }
   for (i = 0; i < nruns; i++) {
      if (runs[i].f) {
         fclose (runs[i].f);
      }
      bson_free (runs[i].key);
   }
   bson_free (runs);
   bson_free (refs);
   lab_buf_destroy (&arena);
   return ok;
}

static bool
wt_create_index (lab_session_t *sess, const char *coll, const char *field, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   char *ident = NULL, *uri = NULL;
   bool ok = false, created = false;
   int ret;

   pthread_rwlock_wrlock (&st->ddl);
   /* as mongod's createIndexes, a missing collection is created */
   c = create_locked (ss, coll, error);
   if (!c) {
      goto done;
   }
   if (coll_index (c, field)) {
      ok = true;
      goto done;
   }
   if (c->nindexes == WT_MAX_INDEXES) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "collection '%s' already has %d indexes (MongoDB's limit)", coll, WT_MAX_INDEXES);
      goto done;
   }
   pthread_mutex_lock (&st->mu);
   ident = bson_strdup_printf ("index-%" PRId64 "-layoutlab", st->next_ident++);
   pthread_mutex_unlock (&st->mu);
   uri = bson_strdup_printf ("table:%s", ident);
   if ((ret = ss->s->create (ss->s, uri, WT_INDEX_CONFIG)) != 0) {
      wt_fail (error, ret, "create index on '%s' of '%s' (%s)", field, coll, uri);
      goto done;
   }
   created = true;
   if (!build_index (ss, c, field, uri, error)) {
      goto done;
   }
   pthread_mutex_lock (&st->mu);
   index_set (&c->indexes[c->nindexes++], field, ident);
   ok = catalog_put_state (st, ss->s, false, error) && catalog_put_coll (ss->s, c, error);
   if (!ok) {
      c->nindexes--;
      bson_free (c->indexes[c->nindexes].field);
      bson_free (c->indexes[c->nindexes].ident);
      bson_free (c->indexes[c->nindexes].uri);
   }
   pthread_mutex_unlock (&st->mu);
done:
   if (!ok && created) {
      ss->s->drop (ss->s, uri, "force=true");
   }
   pthread_rwlock_unlock (&st->ddl);
   bson_free (ident);
   bson_free (uri);
   return ok;
}

/* ---- writes ------------------------------------------------------------------------------------- */

/* doc_keys -- every index key of doc into ss->ikeys: the _id key (body + 0x04) first, with its tag in
 * *id_tag, then one full key (value + rid) per secondary index; offs[i]/lens[i] locate key i. */
static bool
doc_keys (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, int64_t rid, size_t *offs, size_t *lens,
          uint8_t *id_tag, bson_error_t *error)
{
   int i;

   lab_buf_reset (&ss->ikeys);
   for (i = 0; i < c->nindexes; i++) {
      bson_iter_t it;
      const bson_value_t *v;

      offs[i] = ss->ikeys.len;
      if (!field_value (doc, c->indexes[i].field, &it, &v, error) || !lab_key_encode (v, &ss->ikeys, error)) {
         return false;
      }
      if (i == 0) {
         *id_tag = ss->ikeys.data[ss->ikeys.len - 1];
         ss->ikeys.data[ss->ikeys.len - 1] = 0x04;
      } else {
         lab_key_append_recordid (&ss->ikeys, rid);
      }
      lens[i] = ss->ikeys.len - offs[i];
   }
   return true;
}

/* id_value -- the _id index value: RecordId + type tag, into ss->val. */
static void
id_value (wt_sess_t *ss, int64_t rid, uint8_t tag)
{
   lab_buf_reset (&ss->val);
   lab_key_append_recordid (&ss->val, rid);
   lab_buf_append (&ss->val, &tag, 1);
}

/* insert_group -- one transaction: up to WT_GROUP_DOCS documents. Returns 0, WT_ROLLBACK (retry the
 * group) or another WT error (with *error set). */
static int
insert_group (wt_sess_t *ss, wt_coll_t *c, const bson_t *const *docs, const size_t *orig, size_t n,
              lab_insert_result_t *result, int64_t *inserted, int64_t *bytes, bson_error_t *error)
{
   WT_CURSOR *cc, *idc, *ic[WT_MAX_INDEXES];
   size_t offs[WT_MAX_INDEXES], lens[WT_MAX_INDEXES], i;
   WT_SESSION *s = ss->s;
   WT_ITEM k, v;
   int ret, j;

   *inserted = *bytes = 0;
   if (!get_cursor (ss, c->uri, true, &cc, error) ||
       !get_cursor (ss, c->indexes[0].uri, false, &idc, error)) {
      return EINVAL;
   }
   for (j = 1; j < c->nindexes; j++) {
      if (!get_cursor (ss, c->indexes[j].uri, true, &ic[j], error)) {
         return EINVAL;
      }
   }
   if ((ret = s->begin_transaction (s, NULL)) != 0) {
      wt_fail (error, ret, "begin transaction on '%s'", c->name);
      return ret;
   }
   for (i = 0; i < n; i++) {
      bson_error_t kerr;
      uint8_t tag = 0;
      int64_t rid = __atomic_fetch_add (&c->next_rid, 1, __ATOMIC_RELAXED);

      if (!doc_keys (ss, c, docs[i], rid, offs, lens, &tag, &kerr)) {
         bson_iter_t it;
         char vs[96] = "none";
         if (bson_iter_init_find (&it, docs[i], "_id")) {
            lab_value_text (bson_iter_value (&it), vs, sizeof vs);
         }
         lab_insert_result_add_error (result, orig[i], LAB_ERROR_STORE, kerr.code, "collection '%s', document _id %s: %s", c->name, vs,
                        kerr.message);
         continue;
      }
      id_value (ss, rid, tag);
      k.data = ss->ikeys.data + offs[0];
      k.size = lens[0];
      v.data = ss->val.data;
      v.size = ss->val.len;
      idc->set_key (idc, &k);
      idc->set_value (idc, &v);
      ret = idc->insert (idc);
      if (ret == WT_DUPLICATE_KEY) {
         bson_iter_t it;
         char vs[128] = "?";
         if (bson_iter_init_find (&it, docs[i], "_id")) {
            lab_value_text (bson_iter_value (&it), vs, sizeof vs);
         }
         lab_insert_result_add_error (result, orig[i], LAB_ERROR_STORE, LAB_STORE_ERR_DUPLICATE_KEY,
                        "E11000 duplicate key error collection: %s index: _id_ dup key: { _id: %s }", c->name,
                        vs);
         continue;
      }
      if (ret != 0) {
         goto fail;
      }
      k.data = bson_get_data (docs[i]);
      k.size = docs[i]->len;
      cc->set_key (cc, rid);
      cc->set_value (cc, &k);
      if ((ret = cc->insert (cc)) != 0) {
         goto fail;
      }
      for (j = 1; j < c->nindexes; j++) {
         WT_ITEM empty = { 0 };
         k.data = ss->ikeys.data + offs[j];
         k.size = lens[j];
         ic[j]->set_key (ic[j], &k);
         ic[j]->set_value (ic[j], &empty);
         if ((ret = ic[j]->insert (ic[j])) != 0) {
            goto fail;
         }
      }
      (*inserted)++;
      *bytes += docs[i]->len;
   }
   if ((ret = s->commit_transaction (s, NULL)) != 0) {
      wt_fail (error, ret, "commit inserts into '%s'", c->name);
      return ret;
   }
   return 0;
fail:
   if (ret != WT_ROLLBACK) {
      wt_fail (error, ret, "insert into '%s' (%s)", c->name, c->uri);
   }
   s->rollback_transaction (s, NULL);
   return ret;
}

static bool
wt_insert_many (lab_session_t *sess, const char *coll, const bson_t *const *docs, const size_t *orig,
                size_t n, lab_insert_result_t *result, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   size_t pos = 0;
   bool ok = false;

   if (!(c = coll_get_or_create (ss, coll, error))) {
      return false;
   }
   pthread_rwlock_rdlock (&st->ddl);
   while (pos < n) {
      size_t g = 0, gbytes = 0, nerr0 = result->nerrors;
      int64_t ins, bytes;
      int ret, tries = 0;

      while (pos + g < n && g < WT_GROUP_DOCS && gbytes < WT_GROUP_BYTES) {
         gbytes += docs[pos + g]->len;
         g++;
      }
      for (;;) {
         ret = insert_group (ss, c, docs + pos, orig + pos, g, result, &ins, &bytes, error);
         if (ret != WT_ROLLBACK || ++tries > WT_RETRIES) {
            break;
         }
         result->nerrors = nerr0; /* the group is retried from scratch */
         usleep ((useconds_t)(tries * 100));
      }
      if (ret == WT_ROLLBACK) {
         wt_fail (error, ret, "insert into '%s': write conflicts persisted after %d retries", coll,
                  WT_RETRIES);
      }
      if (ret != 0) {
         goto done;
      }
      __atomic_fetch_add (&c->count, ins, __ATOMIC_RELAXED);
      __atomic_fetch_add (&c->data_size, bytes, __ATOMIC_RELAXED);
      result->inserted += ins;
      pos += g;
   }
   ok = true;
done:
   reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* lookup_id -- *rid of the document whose _id body is `body` (0 when none). */
static int
lookup_id (wt_sess_t *ss, WT_CURSOR *idc, const lab_buf_t *body, int64_t *rid)
{
   WT_ITEM k, v;
   size_t used;
   int ret;
   uint8_t end = 0x04;

   lab_buf_reset (&ss->key);
   lab_buf_append (&ss->key, body->data, body->len);
   lab_buf_append (&ss->key, &end, 1);
   k.data = ss->key.data;
   k.size = ss->key.len;
   idc->set_key (idc, &k);
   ret = idc->search (idc);
   *rid = 0;
   if (ret == WT_NOTFOUND) {
      return 0;
   }
   if (ret != 0) {
      return ret;
   }
   if ((ret = idc->get_value (idc, &v)) != 0) {
      return ret;
   }
   if (!rid_decode_front (v.data, v.size, rid, &used)) {
      return WT_ERROR;
   }
   return 0;
}

/* remove_doc -- remove a record and its index entries, inside the caller's transaction; *len gets the
 * document's size. WT_NOTFOUND when the record is gone. */
static int
remove_doc (wt_sess_t *ss, wt_coll_t *c, int64_t rid, int64_t *len, bson_error_t *error)
{
   WT_CURSOR *cc, *ic;
   size_t offs[WT_MAX_INDEXES], lens[WT_MAX_INDEXES];
   uint8_t tag;
   WT_ITEM v, k;
   bson_t doc;
   int ret, j;

   if (!get_cursor (ss, c->uri, true, &cc, error)) {
      return EINVAL;
   }
   cc->set_key (cc, rid);
   if ((ret = cc->search (cc)) != 0) {
      return ret;
   }
   if ((ret = cc->get_value (cc, &v)) != 0) {
      return ret;
   }
   if (!bson_init_static (&doc, v.data, v.size) || !doc_keys (ss, c, &doc, rid, offs, lens, &tag, error)) {
      return EINVAL;
   }
   *len = (int64_t)v.size;
   for (j = 0; j < c->nindexes; j++) {
      if (!get_cursor (ss, c->indexes[j].uri, true, &ic, error)) {
         return EINVAL;
      }
      k.data = ss->ikeys.data + offs[j];
      k.size = lens[j];
      ic->set_key (ic, &k);
      ret = ic->remove (ic);
      if (ret != 0 && ret != WT_NOTFOUND) {
         return ret;
      }
   }
   cc->set_key (cc, rid);
   return cc->remove (cc);
}

/* collect_rids -- RecordIds of the entries equal to `body` in index ix into ss->rids. */
static int
collect_rids (wt_sess_t *ss, wt_index_t *ix, bool is_id, const lab_buf_t *body, bson_error_t *error)
{
   WT_CURSOR *ic;
   WT_ITEM k;
   int exact, ret;
   int64_t rid;
   size_t vlen;

   ss->nrids = 0;
   if (!get_cursor (ss, ix->uri, true, &ic, error)) {
      return EINVAL;
   }
   if (is_id) {
      if ((ret = lookup_id (ss, ic, body, &rid)) != 0) {
         return ret;
      }
      if (rid) {
         rids_push (ss, rid);
      }
      return 0;
   }
   k.data = body->data;
   k.size = body->len;
   ic->set_key (ic, &k);
   ret = ic->search_near (ic, &exact);
   if (ret == WT_NOTFOUND) {
      return 0;
   }
   if (ret == 0 && exact < 0) {
      ret = ic->next (ic);
   }
   for (; ret == 0; ret = ic->next (ic)) {
      if ((ret = ic->get_key (ic, &k)) != 0) {
         return ret;
      }
      if (!body_matches (k.data, k.size, body)) {
         break;
      }
      if (!lab_key_split_recordid (k.data, k.size, &vlen, &rid)) {
         return WT_ERROR;
      }
      rids_push (ss, rid);
   }
   return ret == WT_NOTFOUND ? 0 : ret;
}

static bool
wt_delete_eq (lab_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
              int64_t *deleted, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   WT_SESSION *s = ss->s;
   wt_index_t *ix;
   wt_coll_t *c;
   bool ok = false;
   size_t pos = 0;
   int ret;

   *deleted = 0;
   pthread_rwlock_rdlock (&st->ddl);
   if (!(c = coll_lookup (st, coll, error)) || !(ix = index_lookup (st, c, field, error)) ||
       !encode_body (value, &ss->body, coll, field, error)) {
      goto done;
   }
   if ((ret = collect_rids (ss, ix, ix == &c->indexes[0], &ss->body, error)) != 0) {
      if (ret != EINVAL) {
         wt_fail (error, ret, "find '%s' in index on '%s' of '%s'", field, field, coll);
      }
      goto done;
   }
   while (pos < ss->nrids) {
      size_t g = ss->nrids - pos < WT_GROUP_DOCS ? ss->nrids - pos : WT_GROUP_DOCS, i;
      int64_t n = 0, bytes = 0, len;
      int tries = 0;

   retry:
      n = bytes = 0;
      if ((ret = s->begin_transaction (s, NULL)) != 0) {
         wt_fail (error, ret, "begin transaction on '%s'", coll);
         goto done;
      }
      for (i = pos; i < pos + g; i++) {
         ret = remove_doc (ss, c, ss->rids[i], &len, error);
         if (ret == WT_NOTFOUND) {
            continue;
         }
         if (ret != 0) {
            break;
         }
         n++;
         bytes += len;
      }
      if (ret == 0 || ret == WT_NOTFOUND) {
         ret = s->commit_transaction (s, NULL);
      } else {
         s->rollback_transaction (s, NULL);
      }
      if (ret == WT_ROLLBACK && ++tries < WT_RETRIES) {
         usleep ((useconds_t)(tries * 100));
         goto retry;
      }
      if (ret != 0) {
         if (ret != EINVAL) {
            wt_fail (error, ret, "delete from '%s' where %s matches", coll, field);
         }
         goto done;
      }
      __atomic_fetch_sub (&c->count, n, __ATOMIC_RELAXED);
      __atomic_fetch_sub (&c->data_size, bytes, __ATOMIC_RELAXED);
      *deleted += n;
      pos += g;
   }
   ok = true;
done:
   reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* upsert_once -- one transaction of upsert_by_id; 0 or a WT error (WT_ROLLBACK: retry). */
static int
upsert_once (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, const lab_buf_t *body, int64_t *dcount,
             int64_t *dbytes, bson_error_t *error)
{
   WT_SESSION *s = ss->s;
   WT_CURSOR *idc, *cc, *ic;
   size_t offs[WT_MAX_INDEXES], lens[WT_MAX_INDEXES];
   WT_ITEM k, v, empty = { 0 };
   int64_t rid, oldlen = 0;
   uint8_t tag;
   int ret, j;

   *dcount = *dbytes = 0;
   if (!get_cursor (ss, c->indexes[0].uri, true, &idc, error) || !get_cursor (ss, c->uri, true, &cc, error)) {
      return EINVAL;
   }
   if ((ret = s->begin_transaction (s, NULL)) != 0) {
      return ret;
   }
   if ((ret = lookup_id (ss, idc, body, &rid)) != 0) {
      goto fail;
   }
   if (rid) {
      ret = remove_doc (ss, c, rid, &oldlen, error);
      if (ret != 0) {
         goto fail;
      }
   } else {
      rid = __atomic_fetch_add (&c->next_rid, 1, __ATOMIC_RELAXED);
      *dcount = 1;
   }
   if (!doc_keys (ss, c, doc, rid, offs, lens, &tag, error)) {
      ret = EINVAL;
      goto fail;
   }
   id_value (ss, rid, tag);
   k.data = ss->ikeys.data + offs[0];
   k.size = lens[0];
   v.data = ss->val.data;
   v.size = ss->val.len;
   idc->set_key (idc, &k);
   idc->set_value (idc, &v);
   if ((ret = idc->insert (idc)) != 0) {
      goto fail;
   }
   v.data = bson_get_data (doc);
   v.size = doc->len;
   cc->set_key (cc, rid);
   cc->set_value (cc, &v);
   if ((ret = cc->insert (cc)) != 0) {
      goto fail;
   }
   for (j = 1; j < c->nindexes; j++) {
      if (!get_cursor (ss, c->indexes[j].uri, true, &ic, error)) {
         ret = EINVAL;
         goto fail;
      }
      k.data = ss->ikeys.data + offs[j];
      k.size = lens[j];
      ic->set_key (ic, &k);
      ic->set_value (ic, &empty);
      if ((ret = ic->insert (ic)) != 0) {
         goto fail;
      }
   }
   *dbytes = (int64_t)doc->len - oldlen;
   return s->commit_transaction (s, NULL);
fail:
   s->rollback_transaction (s, NULL);
   return ret;
}

static bool
wt_upsert_by_id (lab_session_t *sess, const char *coll, const bson_t *doc, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   bson_iter_t it;
   lab_buf_t body;
   wt_coll_t *c;
   int64_t dcount, dbytes;
   bool ok = false;
   int ret, tries = 0;

   lab_buf_init (&body);
   if (!(c = coll_get_or_create (ss, coll, error))) {
      return false;
   }
   pthread_rwlock_rdlock (&st->ddl);
   if (!bson_iter_init_find (&it, doc, "_id") ||
       !encode_body (bson_iter_value (&it), &body, coll, "_id", error)) {
      goto done;
   }
   while ((ret = upsert_once (ss, c, doc, &body, &dcount, &dbytes, error)) == WT_ROLLBACK &&
          ++tries < WT_RETRIES) {
      usleep ((useconds_t)(tries * 100));
   }
   if (ret != 0) {
      if (ret != EINVAL) {
         wt_fail (error, ret, "upsert into '%s' (%s)", coll, c->uri);
      } else {
         lab_error_prefix (error, "upsert into '%s'", coll);
      }
      goto done;
   }
   __atomic_fetch_add (&c->count, dcount, __ATOMIC_RELAXED);
   __atomic_fetch_add (&c->data_size, dbytes, __ATOMIC_RELAXED);
   ok = true;
done:
   reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   lab_buf_destroy (&body);
   return ok;
}

/* wt_flush -- a checkpoint makes everything durable in the data files (the journal already has it). */
static bool
wt_flush (lab_store_t *store, bson_error_t *error)
{
   wt_store_t *st = store->impl;
   bool ok = true;
   int ret;

   pthread_mutex_lock (&st->meta_mu);
   if (!st->meta) {
      ok = closed_error (st, error);
   } else if ((ret = st->meta->checkpoint (st->meta, NULL)) != 0) {
      ok = wt_fail (error, ret, "checkpoint %s", st->home);
   }
   pthread_mutex_unlock (&st->meta_mu);
   return ok;
}

/* ---- reads -------------------------------------------------------------------------------------- */

static bool
wt_find_eq (lab_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
            lab_doc_cb_t cb, void *ctx, int64_t *ndocs, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_index_t *ix;
   wt_coll_t *c;
   WT_CURSOR *cc;
   bool ok = false;
   size_t i;
   int ret;

   *ndocs = 0;
   pthread_rwlock_rdlock (&st->ddl);
   if (!(c = coll_lookup (st, coll, error)) || !(ix = index_lookup (st, c, field, error)) ||
       !encode_body (value, &ss->body, coll, field, error) || !get_cursor (ss, c->uri, true, &cc, error)) {
      goto done;
   }
   if ((ret = collect_rids (ss, ix, ix == &c->indexes[0], &ss->body, error)) != 0) {
      if (ret != EINVAL) {
         wt_fail (error, ret, "scan index on '%s' of '%s' (%s)", field, coll, ix->uri);
      }
      goto done;
   }
   for (i = 0; i < ss->nrids; i++) {
      WT_ITEM v;
      bson_t doc;

      cc->set_key (cc, ss->rids[i]);
      ret = cc->search (cc);
      if (ret == WT_NOTFOUND) {
         continue; /* deleted since the index was read */
      }
      if (ret != 0 || (ret = cc->get_value (cc, &v)) != 0) {
         wt_fail (error, ret, "fetch record %" PRId64 " of '%s' (%s)", ss->rids[i], coll, c->uri);
         goto done;
      }
      if (!bson_init_static (&doc, v.data, v.size)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "record %" PRId64 " of '%s' is not valid BSON", ss->rids[i], coll);
         goto done;
      }
      (*ndocs)++;
      if (!cb (&doc, ctx)) {
         break;
      }
   }
   ok = true;
done:
   reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

static void
wt_cursor_close (lab_cursor_t *cur)
{
   wt_cur_t *wc = cur->impl;

   if (!wc) {
      return;
   }
   if (wc->ic) {
      wc->ic->close (wc->ic);
   }
   if (wc->cc) {
      wc->cc->close (wc->cc);
   }
   if (wc->counted) {
      /* after the WT cursors are closed: from now on a drop may use this session */
      __atomic_sub_fetch (&wc->ss->nsorted, 1, __ATOMIC_RELEASE);
   }
   lab_buf_destroy (&wc->lo);
   lab_buf_destroy (&wc->hi);
   bson_free (wc->coll);
   bson_free (wc);
   cur->impl = NULL;
}

static bool
wt_sorted_open (lab_cursor_t *cur, const char *coll, const char *field, const lab_sorted_opts_t *opts,
                bson_error_t *error)
{
   wt_sess_t *ss = cur->sess->impl;
   wt_store_t *st = ss->st;
   wt_cur_t *wc = bson_aligned_alloc0 (BSON_ALIGNOF (wt_cur_t), sizeof (wt_cur_t));
   wt_index_t *ix;
   wt_coll_t *c;
   bool ok = false;
   int ret;

   cur->impl = wc;
   wc->ss = ss;
   wc->coll = bson_strdup (coll);
   lab_buf_init (&wc->lo);
   lab_buf_init (&wc->hi);
   pthread_rwlock_rdlock (&st->ddl);
   __atomic_add_fetch (&ss->nsorted, 1, __ATOMIC_ACQUIRE);
   wc->counted = true;
   if (!(c = coll_lookup (st, coll, error)) || !(ix = index_lookup (st, c, field, error))) {
      goto done;
   }
   wc->is_id = ix == &c->indexes[0];
   if (opts->lo) {
      if (!encode_body (opts->lo, &wc->lo, coll, field, error)) {
         goto done;
      }
      wc->has_lo = true;
   }
   if (opts->hi) {
      if (!encode_body (opts->hi, &wc->hi, coll, field, error)) {
         goto done;
      }
      wc->has_hi = true;
   }
   if ((ret = ss->s->open_cursor (ss->s, ix->uri, NULL, NULL, &wc->ic)) != 0) {
      wt_fail (error, ret, "open index on '%s' of '%s' (%s)", field, coll, ix->uri);
      goto done;
   }
   if ((ret = ss->s->open_cursor (ss->s, c->uri, NULL, NULL, &wc->cc)) != 0) {
      wt_fail (error, ret, "open collection '%s' (%s)", coll, c->uri);
      goto done;
   }
   ok = true;
done:
   pthread_rwlock_unlock (&st->ddl);
   if (!ok) {
      wt_cursor_close (cur);
   }
   return ok;
}

static int
wt_cursor_next (lab_cursor_t *cur, const bson_t **doc, bson_error_t *error)
{
   wt_cur_t *wc = cur->impl;
   WT_CURSOR *ic = wc->ic;
   WT_ITEM k, v;
   int64_t rid;
   size_t used;
   int ret, exact;

   if (wc->done) {
      return 0;
   }
   for (;;) {
      if (!wc->started && wc->has_lo) {
         k.data = wc->lo.data;
         k.size = wc->lo.len;
         ic->set_key (ic, &k);
         ret = ic->search_near (ic, &exact);
         if (ret == 0 && exact < 0) {
            ret = ic->next (ic);
         }
      } else {
         ret = ic->next (ic);
      }
      wc->started = true;
      if (ret == WT_NOTFOUND) {
         goto end;
      }
      if (ret != 0 || (ret = ic->get_key (ic, &k)) != 0) {
         wt_fail (error, ret, "walk index of '%s'", wc->coll);
         return -1;
      }
      if (wc->has_hi && !key_below (k.data, k.size, &wc->hi)) {
         goto end;
      }
      if (wc->is_id) {
         if ((ret = ic->get_value (ic, &v)) != 0) {
            wt_fail (error, ret, "read _id index of '%s'", wc->coll);
            return -1;
         }
         if (!rid_decode_front (v.data, v.size, &rid, &used)) {
            lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC, "malformed _id index entry in '%s'",
                           wc->coll);
            return -1;
         }
      } else if (!lab_key_split_recordid (k.data, k.size, &used, &rid)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC, "malformed index key in '%s'",
                        wc->coll);
         return -1;
      }
      wc->cc->set_key (wc->cc, rid);
      ret = wc->cc->search (wc->cc);
      if (ret == WT_NOTFOUND) {
         continue; /* removed after the index entry was read */
      }
      if (ret != 0 || (ret = wc->cc->get_value (wc->cc, &v)) != 0) {
         wt_fail (error, ret, "fetch record %" PRId64 " of '%s'", rid, wc->coll);
         return -1;
      }
      if (!bson_init_static (&wc->doc, v.data, v.size)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "record %" PRId64 " of '%s' is not valid BSON", rid, wc->coll);
         return -1;
      }
      *doc = &wc->doc;
      return 1;
   }
end:
   wc->done = true;
   ic->reset (ic);
   wc->cc->reset (wc->cc);
   return 0;
}

/* key_walk_t -- walks an index's keys, giving each key's value part (body + tag) and body length. */
typedef struct {
   WT_CURSOR *ic;
   bool is_id;
   lab_buf_t val; /* for the _id index: body + tag rebuilt from key and value */
} key_walk_t;

/* key_walk_next -- 0 with *p, *len (value part) and *blen (body length), WT_NOTFOUND at the end. */
static int
key_walk_next (key_walk_t *w, const uint8_t **p, size_t *len, size_t *blen)
{
   WT_ITEM k, v;
   int64_t rid;
   int ret;

   if ((ret = w->ic->next (w->ic)) != 0 || (ret = w->ic->get_key (w->ic, &k)) != 0) {
      return ret;
   }
   if (w->is_id) {
      if ((ret = w->ic->get_value (w->ic, &v)) != 0) {
         return ret;
      }
      if (k.size < 2 || v.size < 3) {
         return WT_ERROR;
      }
      lab_buf_reset (&w->val);
      lab_buf_append (&w->val, k.data, k.size);
      w->val.data[w->val.len - 1] = ((const uint8_t *)v.data)[v.size - 1];
      *p = w->val.data;
      *len = w->val.len;
   } else {
      if (!lab_key_split_recordid (k.data, k.size, len, &rid)) {
         return WT_ERROR;
      }
      *p = k.data;
   }
   *blen = *len - 1;
   return 0;
}

/* walk_open -- a key walk over the index on field (caller holds ddl for reading). */
static bool
walk_open (wt_sess_t *ss, const char *coll, const char *field, key_walk_t *w, wt_coll_t **cp,
           bson_error_t *error)
{
   wt_coll_t *c;
   wt_index_t *ix;
   int ret;

   memset (w, 0, sizeof *w);
   lab_buf_init (&w->val);
   if (!(c = coll_lookup (ss->st, coll, error)) || !(ix = index_lookup (ss->st, c, field, error))) {
      return false;
   }
   w->is_id = ix == &c->indexes[0];
   *cp = c;
   if ((ret = ss->s->open_cursor (ss->s, ix->uri, NULL, NULL, &w->ic)) != 0) {
      return wt_fail (error, ret, "open index on '%s' of '%s' (%s)", field, coll, ix->uri);
   }
   return true;
}

static void
walk_close (key_walk_t *w)
{
   if (w->ic) {
      w->ic->close (w->ic);
   }
   lab_buf_destroy (&w->val);
}

static bool
wt_partition (lab_session_t *sess, const char *coll, const char *field, int n, bson_value_t **bounds,
              int *nbounds, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   key_walk_t w;
   wt_coll_t *c = NULL;
   lab_buf_t prev;
   int64_t total = 0, pos = 0, target;
   const uint8_t *p;
   size_t len, blen;
   bool ok = false, have_prev = false;
   int k = 1, ret = 0;

   lab_buf_init (&prev);
   pthread_rwlock_rdlock (&ss->st->ddl);
   if (!walk_open (ss, coll, field, &w, &c, error)) {
      goto done;
   }
   total = __atomic_load_n (&c->count, __ATOMIC_RELAXED);
   *bounds = bson_malloc0 ((size_t)n * sizeof **bounds);
   target = total * k / n;
   while (k < n && (ret = key_walk_next (&w, &p, &len, &blen)) == 0) {
      bool changed = !have_prev || blen != prev.len || memcmp (p, prev.data, blen) != 0;
      if (changed && pos >= target && pos > 0) {
         if (!lab_key_decode (p, len, &(*bounds)[*nbounds], error)) {
            goto done;
         }
         (*nbounds)++;
         while (k < n && total * k / n <= pos) {
            k++;
         }
         target = total * k / n;
      }
      if (changed) {
         lab_buf_reset (&prev);
         lab_buf_append (&prev, p, blen);
         have_prev = true;
      }
      pos++;
   }
   if (ret != 0 && ret != WT_NOTFOUND) {
      wt_fail (error, ret, "walk index on '%s' of '%s'", field, coll);
      goto done;
   }
   ok = true;
done:
   walk_close (&w);
   pthread_rwlock_unlock (&ss->st->ddl);
   lab_buf_destroy (&prev);
   if (!ok) {
      lab_values_free (*bounds, *nbounds);
      *bounds = NULL;
      *nbounds = 0;
   }
   return ok;
}

static bool
wt_distinct_keys (lab_session_t *sess, const char *coll, const char *field, bson_value_t **keys,
                  int64_t *nkeys, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   key_walk_t w;
   wt_coll_t *c = NULL;
   lab_buf_t prev;
   const uint8_t *p;
   size_t len, blen, cap = 0;
   bool ok = false, have_prev = false;
   int ret = 0;

   lab_buf_init (&prev);
   pthread_rwlock_rdlock (&ss->st->ddl);
   if (!walk_open (ss, coll, field, &w, &c, error)) {
      goto done;
   }
   while ((ret = key_walk_next (&w, &p, &len, &blen)) == 0) {
      if (have_prev && blen == prev.len && memcmp (p, prev.data, blen) == 0) {
         continue;
      }
      if ((size_t)*nkeys == cap) {
         cap = cap ? cap * 2 : 1024;
         *keys = bson_realloc (*keys, cap * sizeof **keys);
      }
      if (!lab_key_decode (p, len, &(*keys)[*nkeys], error)) {
         lab_error_prefix (error, "index on '%s' of '%s'", field, coll);
         goto done;
      }
      (*nkeys)++;
      lab_buf_reset (&prev);
      lab_buf_append (&prev, p, blen);
      have_prev = true;
   }
   if (ret != WT_NOTFOUND) {
      wt_fail (error, ret, "walk index on '%s' of '%s'", field, coll);
      goto done;
   }
   ok = true;
done:
   walk_close (&w);
   pthread_rwlock_unlock (&ss->st->ddl);
   lab_buf_destroy (&prev);
   if (!ok) {
      lab_values_free (*keys, (int)*nkeys);
      *keys = NULL;
      *nkeys = 0;
   }
   return ok;
}

/* ---- server and engine facts -------------------------------------------------------------------- */

static bool
wt_server_info (lab_store_t *store, lab_server_info_t *info, bson_error_t *error)
{
   wt_store_t *st = store->impl;

   bson_strncpy (info->backend, "wiredtiger", sizeof info->backend);
   bson_strncpy (info->version, wiredtiger_version (NULL, NULL, NULL), sizeof info->version);
   if (gethostname (info->host, sizeof info->host) != 0) {
      bson_strncpy (info->host, "localhost", sizeof info->host);
   }
   info->host[sizeof info->host - 1] = '\0';
   info->max_bson_bytes = LAB_BSON_MAX_BYTES;
   info->max_message_bytes = LAB_MESSAGE_MAX_BYTES;
   info->pid = (int64_t)getpid ();
   info->uptime_s = (int64_t)(time (NULL) - st->opened_at);
   info->local = true;
   return true;
}

/* self_rss -- VmRSS of this process in bytes, -1 when unknown. */
static int64_t
self_rss (void)
{
   FILE *f = fopen ("/proc/self/status", "r");
   char line[256];
   long long kb = -1;

   if (!f) {
      return -1;
   }
   while (fgets (line, sizeof line, f)) {
      if (sscanf (line, "VmRSS: %lld kB", &kb) == 1) {
         break;
      }
   }
   fclose (f);
   return kb < 0 ? -1 : kb * 1024;
}

static bool
wt_engine_stats (lab_store_t *store, lab_engine_stats_t *out, bson_error_t *error)
{
   static const struct {
      int key;
      size_t off;
   } map[] = {
      { WT_STAT_CONN_CACHE_BYTES_INUSE, offsetof (lab_engine_stats_t, cache_bytes) },
      { WT_STAT_CONN_BLOCK_READ, offsetof (lab_engine_stats_t, block_reads) },
      { WT_STAT_CONN_BLOCK_BYTE_READ, offsetof (lab_engine_stats_t, block_read_bytes) },
      { WT_STAT_CONN_CACHE_BYTES_READ, offsetof (lab_engine_stats_t, cache_read_bytes) },
      { WT_STAT_CONN_CACHE_READ, offsetof (lab_engine_stats_t, cache_pages_read) },
   };
   wt_store_t *st = store->impl;
   WT_CURSOR *sc = NULL;
   bool ok = true;
   size_t i;
   int ret;

   pthread_mutex_lock (&st->meta_mu);
   if (!st->meta) {
      ok = closed_error (st, error);
      goto done;
   }
   if ((ret = st->meta->open_cursor (st->meta, "statistics:", NULL, NULL, &sc)) != 0) {
      ok = wt_fail (error, ret, "open statistics of %s", st->home);
      goto done;
   }
   for (i = 0; i < sizeof map / sizeof map[0]; i++) {
      const char *desc, *pvalue;
      int64_t value;

      sc->set_key (sc, map[i].key);
      if ((ret = sc->search (sc)) != 0 || (ret = sc->get_value (sc, &desc, &pvalue, &value)) != 0) {
         ok = wt_fail (error, ret, "read statistic %d of %s", map[i].key, st->home);
         goto done;
      }
      *(int64_t *)((char *)out + map[i].off) = value;
   }
   out->cache_max_bytes = (int64_t)st->cache_max_bytes;
   out->server_rss_bytes = self_rss ();
done:
   if (sc) {
      sc->close (sc);
   }
   pthread_mutex_unlock (&st->meta_mu);
   return ok;
}

/* list_files -- every regular file under dir, recursively, appended to *paths. */
static bool
list_files (const char *dir, char ***paths, size_t *n, size_t *cap, bson_error_t *error)
{
   DIR *d = opendir (dir);
   struct dirent *e;
   bool ok = true;

   if (!d) {
      lab_error_set_errno (error, errno, "list %s", dir);
      return false;
   }
   while (ok && (e = readdir (d))) {
      char *path;
      struct stat sb;

      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0) {
         continue;
      }
      path = bson_strdup_printf ("%s/%s", dir, e->d_name);
      if (lstat (path, &sb) != 0) {
         bson_free (path);
         continue;
      }
      if (S_ISDIR (sb.st_mode)) {
         ok = list_files (path, paths, n, cap, error);
         bson_free (path);
      } else if (S_ISREG (sb.st_mode)) {
         if (*n + 2 > *cap) {
            *cap = *cap ? *cap * 2 : 32;
            *paths = bson_realloc (*paths, *cap * sizeof **paths);
         }
         (*paths)[(*n)++] = path;
         (*paths)[*n] = NULL;
      } else {
         bson_free (path);
      }
   }
   closedir (d);
   return ok;
}

static bool
wt_data_files (lab_store_t *store, const char *coll, char ***paths, bson_error_t *error)
{
   wt_store_t *st = store->impl;
   size_t n = 0, cap = 0;
   wt_coll_t *c;
   int i;

   if (!coll) {
      if (!list_files (st->home, paths, &n, &cap, error)) {
         bson_strfreev (*paths);
         *paths = NULL;
         return false;
      }
      if (!*paths) {
         *paths = bson_malloc0 (sizeof **paths);
      }
      return true;
   }
   pthread_rwlock_rdlock (&st->ddl);
   c = coll_lookup (st, coll, error);
   if (c) {
      *paths = bson_malloc0 ((size_t)(c->nindexes + 2) * sizeof **paths);
      (*paths)[0] = bson_strdup_printf ("%s/%s.wt", st->home, c->ident);
      for (i = 0; i < c->nindexes; i++) {
         (*paths)[i + 1] = bson_strdup_printf ("%s/%s.wt", st->home, c->indexes[i].ident);
      }
   }
   pthread_rwlock_unlock (&st->ddl);
   return c != NULL;
}

/* evict_files -- fdatasync + posix_fadvise(DONTNEED) every file of the home, so nothing of it stays in
 * the OS page cache. */
static bool
evict_files (wt_store_t *st, bson_error_t *error)
{
   char **paths = NULL;
   size_t n = 0, cap = 0, i;
   bool ok;

   ok = list_files (st->home, &paths, &n, &cap, error);
   for (i = 0; ok && i < n; i++) {
      int fd = open (paths[i], O_RDONLY | O_CLOEXEC);
      int err;

      if (fd < 0) {
         lab_error_set_errno (error, errno, "open %s to drop it from the page cache", paths[i]);
         ok = false;
         break;
      }
      if (fdatasync (fd) != 0 && errno != EINVAL) {
         lab_error_set_errno (error, errno, "fdatasync %s", paths[i]);
         ok = false;
      } else if ((err = posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) {
         lab_error_set_errno (error, err, "posix_fadvise(DONTNEED) %s", paths[i]);
         ok = false;
      }
      close (fd);
   }
   bson_strfreev (paths);
   return ok;
}

static bool
wt_cycle (lab_store_t *store, lab_cycle_hook_t hook, void *ctx, int32_t ready_timeout_ms, bson_error_t *error)
{
   wt_store_t *st = store->impl;
   bson_error_t hook_err;
   bool ok = true, hook_ok = true;

   pthread_rwlock_wrlock (&st->ddl);
   pthread_mutex_lock (&st->mu);
   pthread_mutex_lock (&st->meta_mu);
   if (st->nsessions > 0) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "cannot cycle wiredtiger:%s: %d session(s) still open; close them first", st->home,
                     st->nsessions);
      ok = false;
      goto done;
   }
   if (!conn_close (st, error) || !evict_files (st, error)) {
      ok = false;
   }
   if (ok && hook) {
      memset (&hook_err, 0, sizeof hook_err);
      hook_ok = hook (store, ctx, &hook_err);
   }
   /* reopen even after a failure so the store stays usable */
   if (!st->conn && !conn_open (st, ok ? error : NULL)) {
      ok = false;
   }
   if (ok && !hook_ok) {
      *error = hook_err;
      ok = false;
   }
done:
   pthread_mutex_unlock (&st->meta_mu);
   pthread_mutex_unlock (&st->mu);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

const lab_store_ops_t lab_store_wt_ops = {
   .name = "wiredtiger",
   .open = wt_open,
   .close = wt_close,
   .session_open = wt_session_open,
   .session_close = wt_session_close,
   .exists = wt_exists,
   .create = wt_create,
   .create_index = wt_create_index,
   .has_index = wt_has_index,
   .drop = wt_drop,
   .count = wt_count,
   .stats = wt_stats,
   .insert_many = wt_insert_many,
   .upsert_by_id = wt_upsert_by_id,
   .delete_eq = wt_delete_eq,
   .flush = wt_flush,
   .find_eq = wt_find_eq,
   .sorted_open = wt_sorted_open,
   .cursor_next = wt_cursor_next,
   .cursor_close = wt_cursor_close,
   .partition = wt_partition,
   .distinct_keys = wt_distinct_keys,
   .server_info = wt_server_info,
   .engine_stats = wt_engine_stats,
   .data_files = wt_data_files,
   .cycle = wt_cycle,
   .home = wt_home,
};
