/*
 * wt_collect.c -- an index's keys collected while a load inserts the documents (lab_store_collect_index),
 * so that the build after the load sorts and bulk-loads them without reading the collection again.
 *
 * mongod builds an index over existing data by reading every document, sorting the keys and loading them
 * through a bulk cursor (wt_index.c build_index does the same). Reading back a collection larger than the
 * cache costs its pages read and decompressed again; the keys are the same ones the inserts had in hand.
 * So each inserting session hands every committed document's keys (lab_wt_index_keys, the build's own
 * key generator) to a sort of its own, and the build merges those sorts instead of reading: the same
 * keys, the same order, the same bulk load -- the same index. The keys are kept only while every write to
 * the collection is an insert seen here: an update or a delete, a failed sort, more inserting sessions
 * than sorts, or a count that does not match at the build, and the build reads the collection as usual.
 */
#include "wt_private.h"

#include "core/error.h"
#include "wt_sort.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One inserting session's sort. */
typedef struct {
   const wt_sess_t *owner;
   lab_wt_sort_t *sort;
} collect_slot_t;

struct wt_collect {
   wt_index_t ix; /* the key pattern whose keys are kept */
   pthread_mutex_t mu;
   collect_slot_t slots[WT_COLLECT_SORTS];
   int nslots;
   char *dir;     /* where the sorts spill (the home) */
   size_t budget; /* bytes of keys each sort holds in memory */
   int64_t docs;  /* atomic: documents whose keys are in the sorts */
   int multikey;  /* atomic */
   int invalid;   /* atomic: the keys no longer stand for the collection */
};

/* lab_wt_collect_start -- see wt_private.h. */
void
lab_wt_collect_start (wt_store_t *st, wt_coll_t *c, const char *const *fields, int n, size_t budget)
{
   wt_collect_t *k;

   if (c->collect || c->clustered || __atomic_load_n (&c->count, __ATOMIC_RELAXED) != 0) {
      return; /* (a build reads the collection: keys collected from now on would miss documents) */
   }
   k = bson_malloc0 (sizeof *k);
   lab_wt_index_set_spec (&k->ix, fields, n, false, "collect");
   pthread_mutex_init (&k->mu, NULL);
   k->dir = bson_strdup (st->home);
   k->budget = budget;
   c->collect = k;
   c->collect_free = lab_wt_collect_free;
}

/* lab_wt_collect_free -- see wt_private.h. */
void
lab_wt_collect_free (wt_coll_t *c)
{
   wt_collect_t *k = c->collect;
   int i;

   if (!k) {
      return;
   }
   for (i = 0; i < k->nslots; i++) {
      lab_wt_sort_destroy (k->slots[i].sort);
   }
   lab_wt_index_unset (&k->ix);
   pthread_mutex_destroy (&k->mu);
   bson_free (k->dir);
   bson_free (k);
   c->collect = NULL;
}

/* lab_wt_collect_invalidate -- see wt_private.h. */
void
lab_wt_collect_invalidate (wt_coll_t *c)
{
   if (c->collect) {
      __atomic_store_n (&c->collect->invalid, 1, __ATOMIC_RELAXED);
   }
}

/* lab_wt_collect_doc -- see wt_private.h. Each key goes to the session's pending buffer as
 * [u32 length][sort record] until the transaction commits. */
void
lab_wt_collect_doc (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, int64_t rid)
{
   wt_collect_t *k = c->collect;
   bson_error_t e;
   bool mk = false;
   size_t i;

   if (!k || __atomic_load_n (&k->invalid, __ATOMIC_RELAXED)) {
      return;
   }
   lab_buf_reset (&ss->ckeys);
   ss->ck.n = 0;
   if (!lab_wt_index_keys (&k->ix, 0, doc, rid, &ss->ckeys, &ss->ck, &mk, &e)) {
      lab_wt_collect_invalidate (c); /* (the build meets the same document and says why) */
      return;
   }
   for (i = 0; i < ss->ck.n; i++) {
      const wt_ikey_t *e1 = &ss->ck.v[i];
      uint32_t len = (uint32_t)(e1->len + e1->tb + 1);
      uint8_t tb = (uint8_t)e1->tb;
      lab_buf_append (&ss->cpend, &len, sizeof len);
      lab_buf_append (&ss->cpend, ss->ckeys.data + e1->off, e1->len + e1->tb);
      lab_buf_append (&ss->cpend, &tb, 1);
   }
   if (mk) {
      __atomic_store_n (&k->multikey, 1, __ATOMIC_RELAXED);
   }
   ss->cpend_docs++;
}

/* lab_wt_collect_abort -- see wt_private.h. */
void
lab_wt_collect_abort (wt_sess_t *ss)
{
   lab_buf_reset (&ss->cpend);
   ss->cpend_docs = 0;
}

/* slot_sort -- the session's sort (a new one on its first commit); NULL when every slot is taken. */
static lab_wt_sort_t *
slot_sort (wt_collect_t *k, const wt_sess_t *ss)
{
   lab_wt_sort_t *s = NULL;
   int i;

   pthread_mutex_lock (&k->mu);
   for (i = 0; i < k->nslots && !s; i++) {
      if (k->slots[i].owner == ss) {
         s = k->slots[i].sort;
      }
   }
   if (!s && k->nslots < WT_COLLECT_SORTS) {
      s = lab_wt_sort_new (k->dir, k->budget);
      k->slots[k->nslots].owner = ss;
      k->slots[k->nslots++].sort = s;
   }
   pthread_mutex_unlock (&k->mu);
   return s;
}

/* lab_wt_collect_commit -- see wt_private.h. The sort is the session's alone: no lock while adding (the
 * collector is freed only under ddl for writing, which no insert holds). */
void
lab_wt_collect_commit (wt_sess_t *ss, wt_coll_t *c)
{
   wt_collect_t *k = c->collect;
   lab_wt_sort_t *s;
   bson_error_t e;
   size_t pos = 0;

   if (!k || ss->cpend_docs == 0 || __atomic_load_n (&k->invalid, __ATOMIC_RELAXED)) {
      lab_wt_collect_abort (ss);
      return;
   }
   if (!(s = slot_sort (k, ss))) {
      lab_wt_collect_invalidate (c);
      lab_wt_collect_abort (ss);
      return;
   }
   while (pos < ss->cpend.len) {
      uint32_t len;
      memcpy (&len, ss->cpend.data + pos, sizeof len);
      pos += sizeof len;
      if (!lab_wt_sort_add (s, ss->cpend.data + pos, len, &e)) {
         lab_wt_collect_invalidate (c); /* (a spill failed: the build reads, and meets the disk itself) */
         break;
      }
      pos += len;
   }
   __atomic_fetch_add (&k->docs, ss->cpend_docs, __ATOMIC_RELAXED);
   lab_wt_collect_abort (ss);
}

/* lab_wt_collect_take -- see wt_private.h. */
int
lab_wt_collect_take (wt_coll_t *c, const wt_index_t *ix, struct lab_wt_sort **sorts, bool *multikey)
{
   wt_collect_t *k = c->collect;
   int i, n = -1;

   if (!k) {
      return -1;
   }
   if (!__atomic_load_n (&k->invalid, __ATOMIC_RELAXED) && k->ix.nfields == ix->nfields &&
       __atomic_load_n (&k->docs, __ATOMIC_RELAXED) == __atomic_load_n (&c->count, __ATOMIC_RELAXED)) {
      n = k->ix.nfields;
      for (i = 0; i < ix->nfields; i++) {
         if (strcmp (k->ix.fields[i], ix->fields[i]) != 0) {
            n = -1;
         }
      }
   }
   if (n >= 0) {
      for (i = 0; i < k->nslots; i++) {
         sorts[i] = k->slots[i].sort;
         k->slots[i].sort = NULL;
      }
      n = k->nslots;
      *multikey = __atomic_load_n (&k->multikey, __ATOMIC_RELAXED) != 0;
   }
   lab_wt_collect_free (c);
   return n;
}

/* lab_wt_build_budget -- bytes of keys held in memory before a sorted run is spilled (as mongod's
 * maxIndexBuildMemoryUsageMegabytes); $LAB_WT_SORT_BUDGET overrides it (tests use a tiny one). */
size_t
lab_wt_build_budget (void)
{
   const char *env = getenv ("LAB_WT_SORT_BUDGET");
   long long v = env ? atoll (env) : 0;

   return v > 0 ? (size_t)v : (size_t)256 * 1024 * 1024;
}
