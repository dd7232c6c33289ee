/*
 * wt_journal.c -- which of the embedded store's tables are journaled: a store opened with
 * opts.unlogged creates its collections and their indexes with log=(enabled=false), as mongod creates
 * them on a replica set member (docs/mongodb-compat.md §25); an index follows its collection's setting;
 * lab_wt_set_journaled turns a filled collection's tables back to journaled, as a standalone's; and how a
 * record is rewritten by that setting (lab_wt_record_update: modify on an unlogged table, as mongod's
 * record store does), for the plain and the clustered update paths alike.
 */
#include "wt_private.h"

#include "core/error.h"

#include <errno.h>
#include <string.h>

/* file_unlogged -- whether WiredTiger's metadata entry of ident's file ("file:<ident>.wt") says
 * log=(enabled=false). 0 or a WiredTiger error. */
static int
file_unlogged (WT_SESSION *s, const char *ident, bool *unlogged)
{
   WT_CURSOR *mc = NULL;
   const char *value = NULL;
   char key[256];
   int ret;

   bson_snprintf (key, sizeof key, "file:%s.wt", ident);
   if ((ret = s->open_cursor (s, "metadata:", NULL, NULL, &mc)) != 0) {
      return ret;
   }
   mc->set_key (mc, key);
   if ((ret = mc->search (mc)) == 0 && (ret = mc->get_value (mc, &value)) == 0) {
      *unlogged = strstr (value, "log=(enabled=false)") != NULL;
   }
   mc->close (mc);
   return ret;
}

/* lab_wt_index_config -- WT_INDEX_CONFIG, with WT_UNLOGGED when c's file is not journaled. */
char *
lab_wt_index_config (wt_sess_t *ss, const wt_coll_t *c, bson_error_t *error)
{
   bool unlogged = false;
   int ret;

   if ((ret = file_unlogged (ss->s, c->ident, &unlogged)) != 0) {
      lab_wt_fail (error, ret, "read the config of '%s' (file:%s.wt) in WiredTiger's metadata", c->name,
                   c->ident);
      return NULL;
   }
   return bson_strdup (unlogged ? WT_INDEX_CONFIG WT_UNLOGGED : WT_INDEX_CONFIG);
}

/* lab_wt_coll_logged -- see wt_private.h. */
bool
lab_wt_coll_logged (wt_sess_t *ss, wt_coll_t *c, bool *logged, bson_error_t *error)
{
   int known = __atomic_load_n (&c->logged, __ATOMIC_RELAXED);
   bool unlogged = false;
   int ret;

   if (known == 0) {
      if ((ret = file_unlogged (ss->s, c->ident, &unlogged)) != 0) {
         return lab_wt_fail (error, ret, "read the config of '%s' (file:%s.wt) in WiredTiger's metadata",
                             c->name, c->ident);
      }
      known = unlogged ? 2 : 1;
      __atomic_store_n (&c->logged, known, __ATOMIC_RELAXED);
   }
   *logged = known == 1;
   return true;
}

/* journal_one -- alter the table `uri` (file `ident`) to log=(enabled=true) unless it is already (as
 * mongod's WiredTigerUtil::setTableLogging: only a change is made); an EBUSY (a handle still in use) is
 * retried after a checkpoint, as mongod does. Caller holds ddl for writing and meta_mu. */
static bool
journal_one (wt_store_t *st, const char *coll, const char *uri, const char *ident, bson_error_t *error)
{
   bool unlogged = false;
   int ret, tries;

   if ((ret = file_unlogged (st->meta, ident, &unlogged)) != 0) {
      return lab_wt_fail (error, ret, "read the config of '%s' (file:%s.wt) in WiredTiger's metadata", coll,
                          ident);
   }
   if (!unlogged) {
      return true;
   }
   for (tries = 0; (ret = st->meta->alter (st->meta, uri, "log=(enabled=true)")) == EBUSY && tries < 5;
        tries++) {
      (void)st->meta->checkpoint (st->meta, NULL);
   }
   return ret == 0 ||
          lab_wt_fail (error, ret, "make %s of '%s' journaled (alter log=(enabled=true))", uri, coll);
}

/* lab_wt_set_journaled -- every table of coll (its records, _id index, secondary indexes) journaled. */
bool
lab_wt_set_journaled (lab_store_t *store, const char *coll, bson_error_t *error)
{
   wt_store_t *st = store->impl;
   wt_coll_t *c;
   bool ok = true;
   int i;

   pthread_rwlock_wrlock (&st->ddl);
   pthread_mutex_lock (&st->mu);
   c = lab_wt_coll_find (st, coll);
   pthread_mutex_unlock (&st->mu);
   pthread_mutex_lock (&st->meta_mu);
   if (!st->meta) {
      ok = lab_wt_closed_error (st, error);
   } else if (!c) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                     "collection '%s' does not exist in %s: nothing to journal", coll, st->home);
      ok = false;
   }
   ok = ok && journal_one (st, coll, c->uri, c->ident, error);
   if (ok) {
      __atomic_store_n (&c->logged, 1, __ATOMIC_RELAXED); /* the updates that follow see it */
   }
   for (i = 0; ok && i < c->nindexes; i++) {
      ok = journal_one (st, coll, c->indexes[i].uri, c->indexes[i].ident, error);
   }
   pthread_mutex_unlock (&st->meta_mu);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* ---- a record rewritten as its table's logging allows (both update paths) ---------------------------- */

/* lab_wt_modify_wanted -- see wt_private.h. */
bool
lab_wt_modify_wanted (bool logged, int64_t old_len, int64_t new_len, size_t *max_diff)
{
   *max_diff = (size_t)(new_len / 10);
   return !logged && new_len > LAB_WT_MODIFY_MIN_LEN && new_len <= old_len + new_len / 10;
}

/* lab_wt_record_update -- see wt_private.h. */
int
lab_wt_record_update (WT_SESSION *s, WT_CURSOR *cc, bool logged, const WT_ITEM *old, const WT_ITEM *nv,
                      bool *modified)
{
   WT_MODIFY entries[LAB_WT_MODIFY_MAX_ENTRIES];
   int nentries = LAB_WT_MODIFY_MAX_ENTRIES, ret;
   size_t max_diff;

   *modified = false;
   if (lab_wt_modify_wanted (logged, (int64_t)old->size, (int64_t)nv->size, &max_diff)) {
      ret = wiredtiger_calc_modify (s, old, nv, max_diff, entries, &nentries);
      if (ret == 0) {
         ret = nentries == 0 ? cc->reserve (cc) : cc->modify (cc, entries, nentries);
         *modified = ret == 0;
         return ret;
      }
      if (ret != WT_NOTFOUND) {
         return ret;
      }
   }
   cc->set_value (cc, nv);
   return cc->update (cc);
}
