/*
 * wt_catalog.c -- the embedded store's catalog and size storer, as mongod's durable catalog and
 * WiredTigerSizeStorer: `layoutlab_catalog.wt` maps "c/<name>" to a collection's tables and indexes and
 * its count, data size and next RecordId, and "s" to the ident counter and whether the last close was
 * clean. Counts are kept in memory (exact, updated at each commit) and saved at close/cycle; after an
 * unclean close they are recounted at open. Also the in-memory collection list and its lookups.
 */
#include "wt_private.h"

#include "core/error.h"
#include "core/log.h"

#include <inttypes.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

/* ---- the collection list ------------------------------------------------------------------------ */

/* lab_wt_coll_free -- free one collection and its index entries. */
void
lab_wt_coll_free (wt_coll_t *c)
{
   int i;

   for (i = 0; i < c->nindexes; i++) {
      lab_wt_index_unset (&c->indexes[i]);
   }
   if (c->collect_free) {
      c->collect_free (c);
   }
   bson_free (c->name);
   bson_free (c->ident);
   bson_free (c->uri);
   bson_free (c);
}

/* lab_wt_coll_list_free -- free a list of collections. */
void
lab_wt_coll_list_free (wt_coll_t *c)
{
   while (c) {
      wt_coll_t *next = c->next;
      lab_wt_coll_free (c);
      c = next;
   }
}

/* lab_wt_coll_find -- the live collection named `name` (caller holds mu). */
wt_coll_t *
lab_wt_coll_find (wt_store_t *st, const char *name)
{
   wt_coll_t *c;

   for (c = st->colls; c; c = c->next) {
      if (strcmp (c->name, name) == 0) {
         return c;
      }
   }
   return NULL;
}

/* lab_wt_coll_lookup -- the collection, or NO_COLLECTION naming the store. */
wt_coll_t *
lab_wt_coll_lookup (wt_store_t *st, const char *name, bson_error_t *error)
{
   wt_coll_t *c;

   pthread_mutex_lock (&st->mu);
   c = lab_wt_coll_find (st, name);
   pthread_mutex_unlock (&st->mu);
   if (!c) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                     "collection '%s' does not exist in wiredtiger:%s", name, st->home);
   }
   return c;
}

/* lab_wt_coll_index -- the single-field index whose key is `field`, or NULL. */
wt_index_t *
lab_wt_coll_index (wt_coll_t *c, const char *field)
{
   int i;

   for (i = 0; i < c->nindexes; i++) {
      if (c->indexes[i].nfields == 1 && strcmp (c->indexes[i].field, field) == 0) {
         return &c->indexes[i];
      }
   }
   return NULL;
}

/* lab_wt_coll_index_spec -- the index whose key pattern is exactly spec's, or NULL. */
wt_index_t *
lab_wt_coll_index_spec (wt_coll_t *c, const lab_store_index_spec_t *spec)
{
   int i, j;

   for (i = 0; i < c->nindexes; i++) {
      wt_index_t *ix = &c->indexes[i];
      if (ix->nfields != spec->n) {
         continue;
      }
      for (j = 0; j < spec->n && strcmp (ix->fields[j], spec->fields[j]) == 0; j++) {
      }
      if (j == spec->n) {
         return ix;
      }
   }
   return NULL;
}

/* lab_wt_index_lookup -- the index on field, else NO_INDEX naming the fix. */
wt_index_t *
lab_wt_index_lookup (wt_store_t *st, wt_coll_t *c, const char *field, bson_error_t *error)
{
   wt_index_t *ix = lab_wt_coll_index (c, field);

   if (!ix && c->clustered) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
                     "collection '%s' in wiredtiger:%s is clustered: its records are in _id order and it has "
                     "no index on '%s': build it with --create-index or --create-workload-indexes, or read "
                     "it by _id ranges",
                     c->name, st->home, field);
   } else if (!ix) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
                     "collection '%s' in wiredtiger:%s has no index on '%s': build it with --create-index "
                     "(fold-details, scancmp) or choose an indexed field with --key",
                     c->name, st->home, field);
   }
   return ix;
}

/* ---- catalog records ---------------------------------------------------------------------------- */

/* catalog_index -- one index of a catalog entry: a single-field index as it always was ({field, ident}),
 * a compound one with its key pattern in "fields" and no "field" (a build from before compound indexes
 * skips the entry rather than taking it for an index on its first field); "multikey" once set. */
static void
catalog_index (const wt_index_t *ix, bson_t *doc)
{
   bson_t arr;
   char k[16];
   int i;

   if (ix->nfields == 1) {
      BSON_APPEND_UTF8 (doc, "field", ix->field);
   } else {
      BSON_APPEND_ARRAY_BEGIN (doc, "fields", &arr);
      for (i = 0; i < ix->nfields; i++) {
         bson_snprintf (k, sizeof k, "%d", i);
         BSON_APPEND_UTF8 (&arr, k, ix->fields[i]);
      }
      bson_append_array_end (doc, &arr);
   }
   BSON_APPEND_UTF8 (doc, "ident", ix->ident);
   if (__atomic_load_n (&ix->multikey, __ATOMIC_RELAXED)) {
      BSON_APPEND_BOOL (doc, "multikey", true);
   }
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
   if (c->clustered) {
      /* as mongod's catalog entry keeps md.options.clusteredIndex (clustered_util::
       * makeCanonicalClusteredInfo's form): {v: 2, key: {_id: 1}, name: "_id_", unique} */
      bson_t ci, key;
      BSON_APPEND_DOCUMENT_BEGIN (doc, "clusteredIndex", &ci);
      BSON_APPEND_INT32 (&ci, "v", 2);
      BSON_APPEND_DOCUMENT_BEGIN (&ci, "key", &key);
      BSON_APPEND_INT32 (&key, "_id", 1);
      bson_append_document_end (&ci, &key);
      BSON_APPEND_UTF8 (&ci, "name", "_id_");
      BSON_APPEND_BOOL (&ci, "unique", true);
      bson_append_document_end (doc, &ci);
   }
   BSON_APPEND_ARRAY_BEGIN (doc, "indexes", &arr);
   for (i = 0; i < c->nindexes; i++) {
      bson_snprintf (k, sizeof k, "%d", i);
      bson_append_document_begin (&arr, k, -1, &ix);
      catalog_index (&c->indexes[i], &ix);
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
      return lab_wt_fail (error, ret, "open catalog %s", WT_CATALOG_URI);
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
      return lab_wt_fail (error, ret, "write catalog entry '%s'", key);
   }
   return true;
}

/* lab_wt_catalog_put_coll -- persist one collection's entry. */
bool
lab_wt_catalog_put_coll (WT_SESSION *s, const wt_coll_t *c, bson_error_t *error)
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

/* lab_wt_catalog_remove_coll -- remove a dropped collection's entry. */
bool
lab_wt_catalog_remove_coll (WT_SESSION *s, const char *name, bson_error_t *error)
{
   char *key = bson_strdup_printf ("c/%s", name);
   bool ok = catalog_put (s, key, NULL, error);

   bson_free (key);
   return ok;
}

/* lab_wt_catalog_put_state -- persist the ident counter and whether counts in the catalog are exact. */
bool
lab_wt_catalog_put_state (wt_store_t *st, WT_SESSION *s, bool clean, bson_error_t *error)
{
   bson_t doc = BSON_INITIALIZER;
   bool ok;

   BSON_APPEND_INT64 (&doc, "next_ident", st->next_ident);
   BSON_APPEND_BOOL (&doc, "clean", clean);
   ok = catalog_put (s, WT_STATE_KEY, &doc, error);
   bson_destroy (&doc);
   return ok;
}

/* ---- loading and saving ------------------------------------------------------------------------- */

/* recount -- exact count, data size and next RecordId by scanning a collection (after a crash). */
static bool
recount (wt_store_t *st, wt_coll_t *c, bson_error_t *error)
{
   WT_CURSOR *cur = NULL;
   WT_ITEM v;
   int64_t n = 0, bytes = 0, rid = 0;
   int ret;

   if (!lab_wt_coll_cursor (st->meta, c, &cur, error)) {
      return false;
   }
   while ((ret = cur->next (cur)) == 0) {
      if ((ret = lab_wt_doc_value (st, cur, &v)) != 0) {
         break;
      }
      if (!c->clustered) { /* a clustered table's keys are KeyStrings (key_format=u), not RecordIds */
         cur->get_key (cur, &rid);
      }
      n++;
      bytes += (int64_t)v.size;
   }
   cur->close (cur);
   if (ret != WT_NOTFOUND) {
      return lab_wt_fail (error, ret, "recount collection '%s' (%s)", c->name, c->uri);
   }
   c->count = n;
   c->data_size = bytes;
   c->next_rid = rid + 1;
   return true;
}

/* read_indexes -- the "indexes" array of a catalog entry into c (entries without field or ident are
 * skipped). */
static void
read_indexes (const bson_t *doc, wt_coll_t *c)
{
   bson_iter_t it, arr, ix;

   if (!bson_iter_init_find (&it, doc, "indexes") || !bson_iter_recurse (&it, &arr)) {
      return;
   }
   while (bson_iter_next (&arr) && c->nindexes < WT_MAX_INDEXES) {
      const char *f[LAB_STORE_INDEX_MAX_FIELDS] = { NULL }, *id = NULL;
      bool multikey = false;
      int n = 0;
      bson_iter_t fit;

      if (!bson_iter_recurse (&arr, &ix)) {
         continue;
      }
      while (bson_iter_next (&ix)) {
         if (strcmp (bson_iter_key (&ix), "field") == 0 && BSON_ITER_HOLDS_UTF8 (&ix) && n == 0) {
            f[n++] = bson_iter_utf8 (&ix, NULL);
         } else if (strcmp (bson_iter_key (&ix), "fields") == 0 && bson_iter_recurse (&ix, &fit)) {
            for (n = 0;
                 bson_iter_next (&fit) && BSON_ITER_HOLDS_UTF8 (&fit) && n < LAB_STORE_INDEX_MAX_FIELDS;) {
               f[n++] = bson_iter_utf8 (&fit, NULL);
            }
         } else if (strcmp (bson_iter_key (&ix), "ident") == 0) {
            id = bson_iter_utf8 (&ix, NULL);
         } else if (strcmp (bson_iter_key (&ix), "multikey") == 0) {
            multikey = bson_iter_as_bool (&ix);
         }
      }
      if (n > 0 && id) {
         lab_wt_index_set_spec (&c->indexes[c->nindexes++], f, n, multikey, id);
      }
   }
}

/* read_coll -- the collection `name` of a catalog entry, put on st->colls; false (after putting it
 * there, so close frees it) when the entry is incomplete. */
static bool
read_coll (wt_store_t *st, const char *name, const bson_t *doc, bson_error_t *error)
{
   wt_coll_t *c = bson_malloc0 (sizeof *c);
   bson_iter_t it;

   c->name = bson_strdup (name);
   if (bson_iter_init_find (&it, doc, "ident") && BSON_ITER_HOLDS_UTF8 (&it)) {
      c->ident = bson_strdup (bson_iter_utf8 (&it, NULL));
   }
   c->uri = bson_strdup_printf ("table:%s", c->ident ? c->ident : "");
   if (bson_iter_init_find (&it, doc, "count")) {
      c->count = bson_iter_as_int64 (&it);
   }
   if (bson_iter_init_find (&it, doc, "data_size")) {
      c->data_size = bson_iter_as_int64 (&it);
   }
   if (bson_iter_init_find (&it, doc, "next_rid")) {
      c->next_rid = bson_iter_as_int64 (&it);
   }
   c->clustered = bson_iter_init_find (&it, doc, "clusteredIndex");
   read_indexes (doc, c);
   c->next = st->colls;
   st->colls = c;
   if (!c->ident || (!c->clustered && (c->nindexes == 0 || strcmp (c->indexes[0].field, "_id") != 0))) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "catalog entry of collection '%s' in %s is incomplete", c->name, st->home);
      return false;
   }
   return true;
}

/* read_state -- the state record: the ident counter and whether the last close was clean. */
static void
read_state (wt_store_t *st, const bson_t *doc, bool *clean)
{
   bson_iter_t it;

   if (bson_iter_init_find (&it, doc, "next_ident")) {
      st->next_ident = bson_iter_as_int64 (&it);
   }
   if (bson_iter_init_find (&it, doc, "clean")) {
      *clean = bson_iter_as_bool (&it);
   }
}

/* read_catalog -- every record of the catalog through cursor cur; *clean from the state record. */
static bool
read_catalog (wt_store_t *st, WT_CURSOR *cur, bool *clean, bson_error_t *error)
{
   const char *key;
   WT_ITEM v;
   int ret;

   while ((ret = cur->next (cur)) == 0) {
      bson_t doc;

      cur->get_key (cur, &key);
      cur->get_value (cur, &v);
      if (!bson_init_static (&doc, v.data, v.size)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "catalog entry '%s' in %s is not valid BSON", key, st->home);
         return false;
      }
      if (strcmp (key, WT_STATE_KEY) == 0) {
         read_state (st, &doc, clean);
      } else if (strncmp (key, "c/", 2) == 0 && !read_coll (st, key + 2, &doc, error)) {
         return false;
      }
   }
   if (ret != WT_NOTFOUND) {
      return lab_wt_fail (error, ret, "read catalog of %s", st->home);
   }
   return true;
}

/* never_written -- whether the collection's table cannot be opened and its file holds no block past its
 * descriptor (4 KiB): an unlogged table created after the last checkpoint, by a run stopped before the
 * next one (its creation is in the journal, its tree never reached the file); nothing was ever in it. */
static bool
never_written (wt_store_t *st, const wt_coll_t *c)
{
   struct stat sb;
   char *path = bson_strdup_printf ("%s/%s.wt", st->home, c->ident);
   WT_CURSOR *cur = NULL;
   bool small = stat (path, &sb) == 0 && sb.st_size <= 4096, bad = false;

   bson_free (path);
   if (small) {
      bad = st->meta->open_cursor (st->meta, c->uri, NULL, NULL, &cur) != 0;
      if (cur) {
         cur->close (cur);
      }
   }
   return bad;
}

/* drop_orphans -- remove from the list and the catalog every collection whose table, column group or data
 * file WiredTiger's metadata does not hold, or whose table was never written (never_written): a create
 * stopped by a full disk can leave the catalog entry with part of the table (WiredTiger 3.2's create is
 * several metadata writes); such a collection never held a document, and its entry would fail every
 * later open of the store. */
static bool
drop_orphans (wt_store_t *st, bson_error_t *error)
{
   WT_CURSOR *m = NULL;
   wt_coll_t **pc = &st->colls, *c;
   int ret;
   bool ok = true;

   if ((ret = st->meta->open_cursor (st->meta, "metadata:", NULL, NULL, &m)) != 0) {
      return lab_wt_fail (error, ret, "open the metadata of %s", st->home);
   }
   /* a fresh ident above every one WiredTiger knows: a create stopped midway leaves remains under an ident
    * the catalog never counted, and WiredTiger's create of an existing table name succeeds without making
    * it (a new collection there would be unopenable) */
   while ((ret = m->next (m)) == 0) {
      const char *k, *d;
      int64_t n;
      if (m->get_key (m, &k) == 0 && (d = strchr (k, '-')) != NULL && sscanf (d + 1, "%" SCNd64, &n) == 1 &&
          strstr (k, "-layoutlab") != NULL && n + 1 > st->next_ident) {
         st->next_ident = n + 1;
      }
   }
   if (ret != WT_NOTFOUND) {
      m->close (m);
      return lab_wt_fail (error, ret, "read the metadata of %s", st->home);
   }
   m->reset (m);
   while (ok && (c = *pc) != NULL) {
      /* the table, its column group and its data file: a create stopped midway can leave some of them */
      char *cg = bson_strdup_printf ("colgroup:%s", c->ident),
           *file = bson_strdup_printf ("file:%s.wt", c->ident);
      m->set_key (m, c->uri);
      if ((ret = m->search (m)) == 0) {
         m->set_key (m, cg);
         if ((ret = m->search (m)) == 0) {
            m->set_key (m, file);
            ret = m->search (m);
         }
      }
      bson_free (cg);
      if (ret == 0 && never_written (st, c)) {
         ret = WT_NOTFOUND;
      }
      if (ret == 0) {
         bson_free (file);
         pc = &c->next;
         continue;
      }
      if (ret != WT_NOTFOUND) {
         bson_free (file);
         ok = lab_wt_fail (error, ret, "look up the table of '%s' (%s) in %s", c->name, c->uri, st->home);
         break;
      }
      lab_log_info ("wiredtiger:%s: collection '%s' has a catalog entry but not all of its table (%s), or a "
                    "table never written: its creation was stopped before the next checkpoint; it held "
                    "nothing: entry removed",
                    st->home, c->name, c->ident);
      /* no cursor positioned in the metadata while the table's remains are dropped; its ident is never
       * given again (the scan above, and the catalog's counter written before its entry) */
      m->reset (m);
      st->meta->drop (st->meta, c->uri, "force=true");
      st->meta->drop (st->meta, file, "force=true");
      bson_free (file);
      ok = lab_wt_catalog_remove_coll (st->meta, c->name, error);
      *pc = c->next;
      c->next = NULL;
      lab_wt_coll_free (c);
   }
   m->close (m);
   return ok;
}

/* lab_wt_catalog_load -- read the catalog into the collection list; recount when the last close was
 * unclean; then mark the catalog unclean until the next clean close. */
bool
lab_wt_catalog_load (wt_store_t *st, bson_error_t *error)
{
   WT_CURSOR *cur = NULL;
   bool clean = true, ok;
   int ret;
   wt_coll_t *c;

   if ((ret = st->meta->create (st->meta, WT_CATALOG_URI, WT_CATALOG_CONFIG)) != 0) {
      return lab_wt_fail (error, ret, "create catalog %s in %s", WT_CATALOG_URI, st->home);
   }
   if ((ret = st->meta->open_cursor (st->meta, WT_CATALOG_URI, NULL, NULL, &cur)) != 0) {
      return lab_wt_fail (error, ret, "open catalog %s in %s", WT_CATALOG_URI, st->home);
   }
   st->next_ident = 1;
   ok = read_catalog (st, cur, &clean, error);
   cur->close (cur);
   if (!ok || !drop_orphans (st, error)) {
      return false;
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
   if (!lab_wt_catalog_put_state (st, st->meta, false, error)) {
      return false;
   }
   if ((ret = st->meta->log_flush (st->meta, "sync=on")) != 0) {
      return lab_wt_fail (error, ret, "flush the journal of %s", st->home);
   }
   st->loaded = true;
   return true;
}

/* lab_wt_catalog_save -- counts and RecordIds of every collection, then mark clean (caller holds mu). */
bool
lab_wt_catalog_save (wt_store_t *st, bool clean, bson_error_t *error)
{
   wt_coll_t *c;

   for (c = st->colls; c; c = c->next) {
      if (!lab_wt_catalog_put_coll (st->meta, c, error)) {
         return false;
      }
   }
   return lab_wt_catalog_put_state (st, st->meta, clean, error);
}
