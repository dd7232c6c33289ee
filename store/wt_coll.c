/*
 * wt_coll.c -- the embedded store's collections: create (a collection table and its _id index, as
 * mongod's createRecordStore + the _id index), drop (closing the cursors every session caches on the
 * tables first), existence, counts, sizes and whether an index exists.
 */
#include "wt_private.h"

#include "core/error.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* lab_wt_exists -- whether the collection exists. */
bool
lab_wt_exists (lab_store_session_t *sess, const char *coll, bool *exists, bson_error_t *error)
{
   wt_store_t *st = ((wt_sess_t *)sess->impl)->st;

   pthread_mutex_lock (&st->mu);
   *exists = lab_wt_coll_find (st, coll) != NULL;
   pthread_mutex_unlock (&st->mu);
   return true;
}

/* strp_cmp -- qsort order of C strings. */
static int
strp_cmp (const void *a, const void *b)
{
   return strcmp (*(char *const *)a, *(char *const *)b);
}

/* lab_wt_list -- the catalog's collection names, sorted. */
bool
lab_wt_list (lab_store_session_t *sess, char ***names, bson_error_t *error)
{
   wt_store_t *st = ((wt_sess_t *)sess->impl)->st;
   const wt_coll_t *c;
   size_t n = 0;

   (void)error;
   pthread_mutex_lock (&st->mu);
   for (c = st->colls; c; c = c->next) {
      n++;
   }
   *names = bson_malloc0 ((n + 1) * sizeof (char *));
   n = 0;
   for (c = st->colls; c; c = c->next) {
      (*names)[n++] = bson_strdup (c->name);
   }
   pthread_mutex_unlock (&st->mu);
   qsort (*names, n, sizeof (char *), strp_cmp);
   return true;
}

/* coll_new -- a collection named `name` with fresh idents for its table and _id index (a clustered one:
 * its table alone) (caller holds mu). */
static wt_coll_t *
coll_new (wt_store_t *st, const char *name, bool clustered)
{
   wt_coll_t *c = bson_malloc0 (sizeof *c);
   char *ident;

   c->name = bson_strdup (name);
   c->ident = bson_strdup_printf ("collection-%" PRId64 "-layoutlab", st->next_ident++);
   c->uri = bson_strdup_printf ("table:%s", c->ident);
   c->next_rid = 1;
   if (clustered) {
      c->clustered = true;
      return c;
   }
   ident = bson_strdup_printf ("index-%" PRId64 "-layoutlab", st->next_ident++);
   lab_wt_index_set (&c->indexes[0], "_id", ident);
   bson_free (ident);
   c->nindexes = 1;
   return c;
}

/* lab_wt_coll_create_kind_locked -- create the collection and its _id index, or a clustered collection's
 * table alone (caller holds ddl for writing); an existing collection is returned (of either kind when a
 * plain one was asked for, as lab_store_create's "existing is fine"). */
wt_coll_t *
lab_wt_coll_create_kind_locked (wt_sess_t *ss, const char *name, bool clustered, bson_error_t *error)
{
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   int ret;

   pthread_mutex_lock (&st->mu);
   c = lab_wt_coll_find (st, name);
   if (c) {
      pthread_mutex_unlock (&st->mu);
      if (clustered && !c->clustered) {
         lab_error_set (
            error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
            "collection '%s' in wiredtiger:%s exists and is not clustered: drop it first to create "
            "it clustered",
            name, st->home);
         return NULL;
      }
      return c;
   }
   c = coll_new (st, name, clustered);
   pthread_mutex_unlock (&st->mu);

   if ((ret = ss->s->create (ss->s, c->uri, clustered ? st->clustered_config : st->coll_config)) != 0) {
      lab_wt_fail (error, ret, "create collection '%s' (%s)", name, c->uri);
      goto fail;
   }
   if (!clustered &&
       (ret = ss->s->create (ss->s, c->indexes[0].uri,
                             st->unlogged ? WT_INDEX_CONFIG WT_UNLOGGED : WT_INDEX_CONFIG)) != 0) {
      lab_wt_fail (error, ret, "create _id index of '%s' (%s)", name, c->indexes[0].uri);
      goto fail;
   }
   pthread_mutex_lock (&st->mu);
   if (!lab_wt_catalog_put_state (st, ss->s, false, error) || !lab_wt_catalog_put_coll (ss->s, c, error)) {
      pthread_mutex_unlock (&st->mu);
      goto fail;
   }
   c->next = st->colls;
   st->colls = c;
   pthread_mutex_unlock (&st->mu);
   return c;
fail:
   if (!clustered) {
      ss->s->drop (ss->s, c->indexes[0].uri, "force=true");
   }
   ss->s->drop (ss->s, c->uri, "force=true");
   lab_wt_coll_free (c);
   return NULL;
}

/* lab_wt_coll_create_locked -- create the collection and its _id index (caller holds ddl for writing). */
wt_coll_t *
lab_wt_coll_create_locked (wt_sess_t *ss, const char *name, bson_error_t *error)
{
   return lab_wt_coll_create_kind_locked (ss, name, false, error);
}

/* lab_wt_create -- create a collection (nothing when it exists). */
bool
lab_wt_create (lab_store_session_t *sess, const char *coll, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_coll_t *c;

   pthread_rwlock_wrlock (&ss->st->ddl);
   c = lab_wt_coll_create_locked (ss, coll, error);
   pthread_rwlock_unlock (&ss->st->ddl);
   return c != NULL;
}

/* lab_wt_create_clustered -- create a clustered collection (nothing when one exists). */
bool
lab_wt_create_clustered (lab_store_session_t *sess, const char *coll, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_coll_t *c;

   pthread_rwlock_wrlock (&ss->st->ddl);
   c = lab_wt_coll_create_kind_locked (ss, coll, true, error);
   pthread_rwlock_unlock (&ss->st->ddl);
   return c != NULL;
}

/* lab_wt_coll_get_or_create -- for writes: MongoDB creates a missing collection on first insert. */
wt_coll_t *
lab_wt_coll_get_or_create (wt_sess_t *ss, const char *name, bson_error_t *error)
{
   wt_coll_t *c;

   pthread_mutex_lock (&ss->st->mu);
   c = lab_wt_coll_find (ss->st, name);
   pthread_mutex_unlock (&ss->st->mu);
   if (c) {
      return c;
   }
   pthread_rwlock_wrlock (&ss->st->ddl);
   c = lab_wt_coll_create_locked (ss, name, error);
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
         lab_wt_cache_drop (other, uri);
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
      return lab_wt_fail (error, ret,
                          "drop '%s' (%s): the table is in use; close the sorted streams that read it first",
                          coll, uri);
   }
   if (ret != 0) {
      return lab_wt_fail (error, ret, "drop '%s' (%s)", coll, uri);
   }
   return true;
}

/* unlink_coll -- remove c from the catalog and then from the live list; it goes to the graveyard. When the
 * catalog cannot be written, c stays live. */
static bool
unlink_coll (wt_sess_t *ss, wt_coll_t *c, bson_error_t *error)
{
   wt_store_t *st = ss->st;
   wt_coll_t **pp;
   bool ok;

   pthread_mutex_lock (&st->mu);
   ok = lab_wt_catalog_remove_coll (ss->s, c->name, error);
   for (pp = &st->colls; ok && *pp; pp = &(*pp)->next) {
      if (*pp == c) {
         *pp = c->next;
         c->next = st->graveyard;
         st->graveyard = c;
         break;
      }
   }
   pthread_mutex_unlock (&st->mu);
   return ok;
}

/* lab_wt_drop -- remove the collection's catalog entry, then drop its indexes and table (nothing if
 * missing). */
bool
lab_wt_drop (lab_store_session_t *sess, const char *coll, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   bool ok = false;
   int i;

   pthread_rwlock_wrlock (&st->ddl);
   pthread_mutex_lock (&st->mu);
   c = lab_wt_coll_find (st, coll);
   pthread_mutex_unlock (&st->mu);
   if (!c) {
      ok = true;
      goto done;
   }
   /* The catalog entry goes first: a drop that fails half way (a full disk, a crash) leaves unreferenced
    * tables behind, never a catalog naming a table that is gone (which no later open could read). */
   if (!unlink_coll (ss, c, error)) {
      goto done;
   }
   for (i = 0; i < c->nindexes; i++) {
      if (!drop_table (ss, coll, c->indexes[i].uri, error)) {
         goto done;
      }
   }
   ok = drop_table (ss, coll, c->uri, error);
done:
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* lab_wt_drop_index -- remove the index from the collection's catalog entry, then drop its table (as
 * lab_wt_drop, the catalog first: a failure half way leaves an unreferenced table, never a catalog naming a
 * table that is gone); a missing collection or index: nothing. */
bool
lab_wt_drop_index (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                   bool *dropped, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   wt_index_t *ix, gone = { 0 };
   bool ok = true;
   int i;

   pthread_rwlock_wrlock (&st->ddl);
   pthread_mutex_lock (&st->mu);
   c = lab_wt_coll_find (st, coll);
   ix = c ? lab_wt_coll_index_spec (c, spec) : NULL;
   if (ix && !lab_wt_is_id_index (c, ix)) {
      i = (int)(ix - c->indexes);
      gone = *ix;
      memmove (ix, ix + 1, (size_t)(c->nindexes - i - 1) * sizeof *ix);
      c->nindexes--;
      ok = lab_wt_catalog_put_coll (ss->s, c, error);
      if (!ok) { /* the catalog still names it: so does the live entry */
         memmove (&c->indexes[i + 1], &c->indexes[i], (size_t)(c->nindexes - i) * sizeof *ix);
         c->indexes[i] = gone;
         c->nindexes++;
      }
   } else {
      ix = NULL;
   }
   pthread_mutex_unlock (&st->mu);
   if (ix && ok) {
      ok = drop_table (ss, coll, gone.uri, error);
      lab_wt_index_unset (&gone);
      *dropped = ok;
   }
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* lab_wt_count -- the exact count kept in memory. */
bool
lab_wt_count (lab_store_session_t *sess, const char *coll, int64_t *count, bson_error_t *error)
{
   wt_coll_t *c = lab_wt_coll_lookup (((wt_sess_t *)sess->impl)->st, coll, error);

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

/* lab_wt_stats -- count and data size from memory, storage and index sizes from the files. */
bool
lab_wt_stats (lab_store_session_t *sess, const char *coll, lab_store_coll_stats_t *out, bson_error_t *error)
{
   wt_store_t *st = ((wt_sess_t *)sess->impl)->st;
   wt_coll_t *c;
   int i;

   pthread_rwlock_rdlock (&st->ddl);
   c = lab_wt_coll_lookup (st, coll, error);
   if (c) {
      out->count = __atomic_load_n (&c->count, __ATOMIC_RELAXED);
      out->data_size_bytes = __atomic_load_n (&c->data_size, __ATOMIC_RELAXED);
      out->avg_obj_size_bytes = out->count ? (double)out->data_size_bytes / (double)out->count : 0.0;
      out->storage_size_bytes = file_size (st, c->ident);
      out->index_size_bytes = 0;
      for (i = 0; i < c->nindexes; i++) {
         out->index_size_bytes += file_size (st, c->indexes[i].ident);
      }
      out->nindexes = c->clustered ? 1 + c->nindexes : c->nindexes; /* the clustered _id index: the table */
      out->clustered = c->clustered;
   }
   pthread_rwlock_unlock (&st->ddl);
   return c != NULL;
}

/* lab_wt_leaf_pages -- "btree: row-store leaf pages" of the collection's table, from a statistics
 * cursor that walks the tree. The connection gathers only the fast statistics (as mongod) and a cursor
 * may not ask for more than its connection, so the connection is reconfigured to statistics=(all) for
 * this one cursor and back to (fast) after it. */
bool
lab_wt_leaf_pages (lab_store_session_t *sess, const char *coll, int64_t *pages, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   WT_CURSOR *sc = NULL;
   char *uri = NULL;
   bool ok = false, reconfigured = false;
   wt_coll_t *c;
   int ret;

   pthread_rwlock_rdlock (&st->ddl);
   if (!(c = lab_wt_coll_lookup (st, coll, error))) {
      goto done;
   }
   uri = bson_strdup_printf ("statistics:%s", c->uri);
   if ((ret = st->conn->reconfigure (st->conn, "statistics=(all)")) != 0) {
      lab_wt_fail (error, ret, "reconfigure %s with statistics=(all)", st->home);
      goto done;
   }
   reconfigured = true;
   if ((ret = ss->s->open_cursor (ss->s, uri, NULL, "statistics=(all)", &sc)) != 0) {
      lab_wt_fail (error, ret, "open %s", uri);
      goto done;
   }
   sc->set_key (sc, WT_STAT_DSRC_BTREE_ROW_LEAF);
   if ((ret = sc->search (sc)) != 0) {
      lab_wt_fail (error, ret, "read the leaf page count of '%s' (%s)", coll, uri);
      goto done;
   }
   {
      const char *desc, *pvalue;
      int64_t v;
      if ((ret = sc->get_value (sc, &desc, &pvalue, &v)) != 0) {
         lab_wt_fail (error, ret, "read the leaf page count of '%s' (%s)", coll, uri);
         goto done;
      }
      *pages = v;
   }
   ok = true;
done:
   if (sc) {
      sc->close (sc);
   }
   if (reconfigured && (ret = st->conn->reconfigure (st->conn, "statistics=(fast)")) != 0 && ok) {
      ok = lab_wt_fail (error, ret, "reconfigure %s back to statistics=(fast)", st->home);
   }
   bson_free (uri);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* table_cache_bytes -- one table's "cache: bytes currently in the cache" (a fast statistic: no tree walk;
 * opening the cursor opens the table, whose root page then counts too). */
static bool
table_cache_bytes (WT_SESSION *s, const char *table_uri, int64_t *bytes, bson_error_t *error)
{
   char *uri = bson_strdup_printf ("statistics:%s", table_uri);
   WT_CURSOR *sc = NULL;
   const char *desc, *pvalue;
   int64_t v = 0;
   int ret;

   if ((ret = s->open_cursor (s, uri, NULL, NULL, &sc)) == 0) {
      sc->set_key (sc, WT_STAT_DSRC_CACHE_BYTES_INUSE);
      if ((ret = sc->search (sc)) == 0) {
         ret = sc->get_value (sc, &desc, &pvalue, &v);
      }
      sc->close (sc);
   }
   if (ret != 0) {
      lab_wt_fail (error, ret, "read %s", uri);
   }
   bson_free (uri);
   *bytes += v;
   return ret == 0;
}

/* lab_wt_coll_cache_bytes -- the collection's table and its index tables, summed. */
bool
lab_wt_coll_cache_bytes (lab_store_session_t *sess, const char *coll, int64_t *bytes, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   int64_t sum = 0;
   bool ok = false;
   wt_coll_t *c;
   int i;

   pthread_rwlock_rdlock (&st->ddl);
   if (!(c = lab_wt_coll_lookup (st, coll, error)) || !table_cache_bytes (ss->s, c->uri, &sum, error)) {
      goto done;
   }
   for (i = 0; i < c->nindexes; i++) {
      if (!table_cache_bytes (ss->s, c->indexes[i].uri, &sum, error)) {
         goto done;
      }
   }
   *bytes = sum;
   ok = true;
done:
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* lab_wt_has_index -- whether the collection has an index on field. */
bool
lab_wt_has_index (lab_store_session_t *sess, const char *coll, const char *field, bool *has,
                  bson_error_t *error)
{
   wt_store_t *st = ((wt_sess_t *)sess->impl)->st;
   wt_coll_t *c;

   pthread_rwlock_rdlock (&st->ddl);
   c = lab_wt_coll_lookup (st, coll, error);
   if (c) {
      *has = lab_wt_coll_index (c, field) != NULL || (c->clustered && strcmp (field, "_id") == 0);
   }
   pthread_rwlock_unlock (&st->ddl);
   return c != NULL;
}

/* lab_wt_index_info -- the index with exactly spec's key pattern: exists, its multikey flag, its file's
 * size. */
bool
lab_wt_index_info (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                   bool *exists, bool *multikey, int64_t *size_bytes, bson_error_t *error)
{
   wt_store_t *st = ((wt_sess_t *)sess->impl)->st;
   wt_coll_t *c;
   wt_index_t *ix;

   pthread_rwlock_rdlock (&st->ddl);
   c = lab_wt_coll_lookup (st, coll, error);
   if (c && c->clustered && spec->n == 1 && strcmp (spec->fields[0], "_id") == 0) {
      *exists = true; /* the clustered index: the record table itself, no file of its own */
      *size_bytes = 0;
   } else if (c && (ix = lab_wt_coll_index_spec (c, spec)) != NULL) {
      *exists = true;
      *multikey = __atomic_load_n (&ix->multikey, __ATOMIC_RELAXED) != 0;
      *size_bytes = file_size (st, ix->ident);
   }
   pthread_rwlock_unlock (&st->ddl);
   return c != NULL;
}

/* lab_wt_list_indexes -- the catalog's indexes but `_id`'s, each {name, key: {<field>: 1, ...}}; *clustered
 * from the catalog. */
bool
lab_wt_list_indexes (lab_store_session_t *sess, const char *coll, bson_t *indexes, bool *clustered,
                     bson_error_t *error)
{
   wt_store_t *st = ((wt_sess_t *)sess->impl)->st;
   wt_coll_t *c;
   int i, f, n = 0;

   pthread_rwlock_rdlock (&st->ddl);
   c = lab_wt_coll_lookup (st, coll, error);
   for (i = 0; c && i < c->nindexes; i++) {
      const wt_index_t *ix = &c->indexes[i];
      bson_t desc, key;
      char name[512], pos[16];

      if (ix->nfields == 1 && strcmp (ix->fields[0], "_id") == 0) {
         continue;
      }
      lab_wt_index_name (ix, name, sizeof name);
      bson_snprintf (pos, sizeof pos, "%d", n++);
      BSON_APPEND_DOCUMENT_BEGIN (indexes, pos, &desc);
      BSON_APPEND_UTF8 (&desc, "name", name);
      BSON_APPEND_DOCUMENT_BEGIN (&desc, "key", &key);
      for (f = 0; f < ix->nfields; f++) {
         BSON_APPEND_INT32 (&key, ix->fields[f], 1);
      }
      bson_append_document_end (&desc, &key);
      bson_append_document_end (indexes, &desc);
   }
   if (c) {
      *clustered = c->clustered;
   }
   pthread_rwlock_unlock (&st->ddl);
   return c != NULL;
}
