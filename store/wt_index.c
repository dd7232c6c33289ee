/*
 * wt_index.c -- the embedded store's indexes, as mongod's WiredTigerIndex: which value of a document an
 * index holds, lookups of the entries equal to a value, and index creation with a build over existing
 * documents (scan, external sort, bulk load). The keys of a document are mongod's BtreeKeyGenerator's
 * (lab_wt_index_keys: compound, multikey). The byte format of keys is keyenc.h's: a standard index key is
 * lab_store_key_encode_compound(values) + RecordId with an empty value; the _id index is mongod's unique
 * format.
 */
#include "wt_private.h"

#include "core/error.h"
#include "core/log.h"
#include "core/opts.h"
#include "keyenc.h"
#include "wt_sort.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- keys --------------------------------------------------------------------------------------- */

/* lab_wt_field_value -- the value of `field` (dotted paths allowed) in doc; missing -> null, as mongod
 * indexes a missing field. Arrays are refused: the _id key (secondary keys: lab_wt_index_keys). */
bool
lab_wt_field_value (const bson_t *doc, const char *field, bson_iter_t *it, const bson_value_t **v,
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

/* lab_wt_encode_body -- the body of v (its encoding without the type tag) into out (reset first);
 * errors name the field and collection searched. */
bool
lab_wt_encode_body (const bson_value_t *v, lab_buf_t *out, const char *coll, const char *field,
                    bson_error_t *error)
{
   lab_buf_reset (out);
   if (!lab_store_key_encode_body (v, out, error)) {
      lab_error_prefix (error, "search '%s' of collection '%s'", field, coll);
      return false;
   }
   return true;
}

/* ---- lookups ------------------------------------------------------------------------------------ */

/* lab_wt_lookup_id -- *rid of the document whose _id body is `body` (0 when none). */
int
lab_wt_lookup_id (wt_sess_t *ss, WT_CURSOR *idc, const lab_buf_t *body, int64_t *rid)
{
   WT_ITEM k, v;
   size_t used;
   int ret;

   lab_buf_reset (&ss->key);
   lab_store_key_unique_key (&ss->key, body->data, body->len);
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
   if (!lab_store_key_recordid_decode (v.data, v.size, rid, &used)) {
      return WT_ERROR;
   }
   return 0;
}

/* lab_wt_collect_rids -- RecordIds of the entries equal to `body` in index ix into ss->rids. */
int
lab_wt_collect_rids (wt_sess_t *ss, wt_index_t *ix, bool is_id, const lab_buf_t *body, bson_error_t *error)
{
   WT_CURSOR *ic;
   WT_ITEM k;
   int ret;
   int64_t rid;
   size_t vlen;

   ss->nrids = 0;
   if (!lab_wt_get_cursor (ss, ix->uri, true, &ic, error)) {
      return EINVAL;
   }
   if (is_id) {
      if ((ret = lab_wt_lookup_id (ss, ic, body, &rid)) != 0) {
         return ret;
      }
      if (rid) {
         lab_wt_rids_push (ss, rid);
      }
      return 0;
   }
   k.data = body->data;
   k.size = body->len;
   ic->set_key (ic, &k);
   for (ret = lab_wt_search_ge (ic); ret == 0; ret = ic->next (ic)) {
      if ((ret = ic->get_key (ic, &k)) != 0) {
         return ret;
      }
      if (!lab_store_key_has_body (k.data, k.size, body->data, body->len)) {
         break;
      }
      if (!lab_store_key_split_recordid (k.data, k.size, &vlen, &rid)) {
         return WT_ERROR;
      }
      lab_wt_rids_push (ss, rid);
   }
   return ret == WT_NOTFOUND ? 0 : ret;
}

/* cmp_rid -- ascending RecordIds for qsort. */
static int
cmp_rid (const void *a, const void *b)
{
   int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
   return x < y ? -1 : x > y;
}

/* lab_wt_record_ids -- the RecordIds of the index entries equal to value, ascending, without reading a
 * document. */
bool
lab_wt_record_ids (lab_store_session_t *sess, const char *coll, const char *field, const bson_value_t *value,
                   int64_t **rids, size_t *n, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   bool ok = false;

   pthread_rwlock_rdlock (&st->ddl);
   if (!lab_wt_rids_eq (ss, coll, field, value, &c, error)) {
      goto done;
   }
   *n = ss->nrids;
   *rids = bson_malloc ((ss->nrids ? ss->nrids : 1) * sizeof **rids);
   if (ss->nrids) {
      memcpy (*rids, ss->rids, ss->nrids * sizeof **rids);
      qsort (*rids, ss->nrids, sizeof **rids, cmp_rid);
   }
   ok = true;
done:
   lab_wt_reset_cursors (ss);
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}

/* ---- index builds ------------------------------------------------------------------------------- */

/* Threads that read and sort an index build's keys at most (each a range of the collection). */
#define BUILD_THREADS_MAX 8

/* One reader of an index build: a range of the collection's RecordIds, its own WiredTiger session (the
 * caller's holds ddl) and its own sort. */
typedef struct {
   wt_store_t *st;
   wt_coll_t *c;
   const wt_index_t *ix; /* the index being built (not yet in the collection's list) */
   int64_t lo, hi;       /* RecordIds [lo, hi); hi 0: to the end */
   bool multikey;        /* a document of the range made it multikey */
   lab_wt_sort_t *sort;
   lab_progress_t *prog;
   pthread_t tid;
   bool started;
   bool ok;
   bson_error_t error;
} build_part_t;

/* build_collect -- every key (values + RecordId) of every document in part p's range for the index, into
 * its sort; then the sort finished (sorted in memory, or its runs spilled). */
static bool
build_collect (build_part_t *p, bson_error_t *error)
{
   WT_SESSION *s = NULL;
   WT_CURSOR *cc = NULL;
   lab_buf_t key;
   wt_ikeys_t list = { 0 };
   char name[256];
   bool ok = false;
   WT_ITEM v;
   int64_t rid;
   int ret;
   uint64_t pending = 0;

   lab_buf_init (&key);
   lab_wt_index_name (p->ix, name, sizeof name);
   if ((ret = p->st->conn->open_session (p->st->conn, NULL, NULL, &s)) != 0) {
      lab_wt_fail (error, ret, "open a session to build an index of '%s'", p->c->name);
      goto done;
   }
   if (!lab_wt_coll_cursor (s, p->c, &cc, error)) {
      goto done;
   }
   if (p->c->clustered) { /* one reader (no RecordId ranges): keys ending in the string RecordId */
      ok = lab_wt_clustered_index_collect (cc, p->st, p->c, p->ix, p->sort, &p->multikey, p->prog, error) &&
           (lab_wt_sort_nkeys (p->sort) == 0 || lab_wt_sort_finish (p->sort, error));
      goto done;
   }
   if (p->lo > 0) {
      cc->set_key (cc, p->lo);
   }
   for (ret = p->lo > 0 ? lab_wt_search_ge (cc) : cc->next (cc); ret == 0; ret = cc->next (cc)) {
      bson_t doc;
      size_t i;

      cc->get_key (cc, &rid);
      if (p->hi > 0 && rid >= p->hi) {
         ret = WT_NOTFOUND;
         break;
      }
      lab_wt_doc_value (p->st, cc, &v);
      if (!bson_init_static (&doc, v.data, v.size)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "collection '%s': record %" PRId64 " is not valid BSON", p->c->name, rid);
         goto done;
      }
      lab_buf_reset (&key);
      list.n = 0;
      if (!lab_wt_index_keys (p->ix, 0, &doc, rid, &key, &list, &p->multikey, error)) {
         lab_error_prefix (error, "build index %s of '%s' (record %" PRId64 ")", name, p->c->name, rid);
         goto done;
      }
      for (i = 0; i < list.n; i++) {
         if (!lab_wt_index_sort_add (p->sort, &list.v[i], key.data, error)) {
            goto done;
         }
      }
      if (++pending == 4096) {
         lab_progress_add (p->prog, pending, 0);
         pending = 0;
      }
   }
   lab_progress_add (p->prog, pending, 0);
   if (ret != WT_NOTFOUND) {
      lab_wt_fail (error, ret, "scan collection '%s' (%s)", p->c->name, p->c->uri);
      goto done;
   }
   /* the sorting too happens on this thread */
   ok = lab_wt_sort_nkeys (p->sort) == 0 || lab_wt_sort_finish (p->sort, error);
done:
   if (s) {
      s->close (s, NULL); /* closes the cursor */
   }
   lab_buf_destroy (&key);
   bson_free (list.v);
   return ok;
}

/* build_part_main -- a reader thread's entry. */
static void *
build_part_main (void *arg)
{
   build_part_t *p = arg;

   p->ok = build_collect (p, &p->error);
   return NULL;
}

/* build_threads -- the readers of an index build: the machine's cores (at most BUILD_THREADS_MAX), fewer
 * for a collection too small to be worth a thread per 64 Ki documents; $LAB_WT_BUILD_THREADS sets it
 * (tests). */
static int
build_threads (int64_t count)
{
   const char *env = getenv ("LAB_WT_BUILD_THREADS"); /* tests: a split even for a few documents */
   long ncpu = sysconf (_SC_NPROCESSORS_ONLN);
   int64_t n = ncpu < 1 ? 1 : ncpu > BUILD_THREADS_MAX ? BUILD_THREADS_MAX : ncpu;

   if (env && atoi (env) > 0) {
      n = atoi (env) > BUILD_THREADS_MAX ? BUILD_THREADS_MAX : atoi (env);
   } else if (n > count / 65536) {
      n = count / 65536;
   }
   return n < 1 ? 1 : (int)n;
}

/* bulk_put -- one entry (a sort record: lab_wt_index_sort_add) into a bulk cursor, valued with its key's
 * TypeBits. */
static int
bulk_put (WT_CURSOR *bulk, const uint8_t *rec, size_t len)
{
   WT_ITEM k = { 0 }, v = { 0 };
   const uint8_t *val;

   lab_wt_index_sort_split (rec, len, &k.size, &val, &v.size);
   k.data = rec;
   v.data = val;
   bulk->set_key (bulk, &k);
   bulk->set_value (bulk, &v);
   return bulk->insert (bulk);
}

/* merge_next -- the least of the parts' current keys (each sort in order, no key in two of them: a
 * RecordId is in one range): 1 with it in cur[*last], 0 when every part is done, -1 on a read error.
 * cur[i]/curlen[i] hold part i's current key (NULL: not read yet; done[i]: none left). */
static int
merge_next (build_part_t *parts, int n, const uint8_t **cur, size_t *curlen, bool *done, int *last,
            bson_error_t *error)
{
   int i, rc, min = -1;

   for (i = 0; i < n; i++) {
      if (!done[i] && (!cur[i] || i == *last)) {
         if ((rc = lab_wt_sort_next (parts[i].sort, &cur[i], &curlen[i], error)) < 0) {
            return -1;
         }
         done[i] = rc == 0;
      }
      if (!done[i] && (min < 0 || lab_wt_sort_cmp (cur[i], curlen[i], cur[min], curlen[min]) < 0)) {
         min = i;
      }
   }
   *last = min;
   return min >= 0 ? 1 : 0;
}

/* build_load -- the parts' sorted keys, merged, into the fresh index table uri through a bulk cursor. */
static bool
build_load (wt_sess_t *ss, wt_coll_t *c, const char *name, const char *uri, build_part_t *parts, int n,
            uint64_t nkeys, bson_error_t *error)
{
   WT_CURSOR *bulk = NULL;
   const uint8_t *cur[BUILD_THREADS_MAX] = { 0 };
   size_t curlen[BUILD_THREADS_MAX] = { 0 };
   bool done[BUILD_THREADS_MAX] = { 0 };
   bool ok = false;
   int i, ret, more, last = -1;
   char label[96];
   lab_progress_t *prog = NULL;
   uint64_t pending = 0;

   for (i = 0; i < n; i++) {
      done[i] = lab_wt_sort_nkeys (parts[i].sort) == 0;
   }
   if ((ret = ss->s->open_cursor (ss->s, uri, NULL, "bulk", &bulk)) != 0) {
      return lab_wt_fail (error, ret, "open bulk cursor on %s", uri);
   }
   bson_snprintf (label, sizeof label, "indexing %s: loading", name);
   prog = lab_progress_new (ss->st->progress, label, "keys", nkeys);
   while ((more = merge_next (parts, n, cur, curlen, done, &last, error)) == 1) {
      if ((ret = bulk_put (bulk, cur[last], curlen[last])) != 0) {
         lab_wt_fail (error, ret, "bulk load index %s of '%s' (%s)", name, c->name, uri);
         goto done;
      }
      if (++pending == 4096) {
         lab_progress_add (prog, pending, 0);
         pending = 0;
      }
   }
   lab_progress_add (prog, pending, 0);
   if (more < 0) {
      goto done;
   }
   ret = bulk->close (bulk);
   bulk = NULL;
   if (ret != 0) {
      lab_wt_fail (error, ret, "finish bulk load of %s", uri);
      goto done;
   }
   ok = true;
done:
   if (bulk) {
      bulk->close (bulk);
   }
   lab_progress_done (prog);
   return ok;
}

/* The checkpoint an index build runs beside its reading (see build_index). */
typedef struct {
   WT_CONNECTION *conn;
   int ret;
   uint64_t elapsed_ns;
} build_ckpt_t;

/* build_ckpt_main -- a checkpoint in a session of its own. */
static void *
build_ckpt_main (void *arg)
{
   build_ckpt_t *k = arg;
   WT_SESSION *s = NULL;
   uint64_t t0 = lab_now_ns ();

   if ((k->ret = k->conn->open_session (k->conn, NULL, NULL, &s)) == 0) {
      k->ret = s->checkpoint (s, NULL);
      s->close (s, NULL);
   }
   k->elapsed_ns = lab_now_ns () - t0;
   return NULL;
}

/* build_read -- the reading of an index build: parts[0..*np) over RecordId ranges of c, each with its
 * own sort, on threads (part 0 on this one); *np 1 when the ends cannot be read. False with *error when a
 * thread could not start. */
static bool
build_read (wt_sess_t *ss, wt_coll_t *c, wt_index_t *ix, build_part_t *parts, int *np, int64_t count,
            bson_error_t *error)
{
   int n = *np;
   WT_CURSOR *cc = NULL;
   int64_t first = 0, last = 0, span;
   char label[96], field[256];
   lab_progress_t *prog;
   bool ok = true;
   int i, err, ret;

   lab_wt_index_name (ix, field, sizeof field);
   if (n > 1) {
      /* the first and last RecordId: ranges of equal spans (positioned inserts leave them dense) */
      if ((ret = ss->s->open_cursor (ss->s, c->uri, NULL, NULL, &cc)) != 0 ||
          (ret = lab_wt_rid_ends (cc, &first, &last)) != 0) {
         n = *np = 1; /* (empty, or unreadable: the one reader says so) */
      }
      if (cc) {
         cc->close (cc);
      }
   }
   span = last - first + 1;
   bson_snprintf (label, sizeof label, "indexing %s: reading", field);
   prog = lab_progress_new (ss->st->progress, label, "docs", (uint64_t)count);
   for (i = 0; i < n; i++) {
      parts[i].st = ss->st;
      parts[i].c = c;
      parts[i].ix = ix;
      parts[i].lo = i == 0 ? 0 : first + (int64_t)((__int128)span * i / n);
      parts[i].hi = i == n - 1 ? 0 : first + (int64_t)((__int128)span * (i + 1) / n);
      parts[i].sort = lab_wt_sort_new (ss->st->home, lab_wt_build_budget () / (size_t)n);
      parts[i].prog = prog;
   }
   for (i = 1; i < n; i++) {
      if ((err = pthread_create (&parts[i].tid, NULL, build_part_main, &parts[i])) != 0) {
         lab_error_set_errno (error, err, "start a reader thread of an index build on '%s'", c->name);
         ok = false;
         break;
      }
      parts[i].started = true;
   }
   if (ok) {
      parts[0].ok = build_collect (&parts[0], &parts[0].error);
   }
   for (i = 1; i < n; i++) {
      if (parts[i].started) {
         pthread_join (parts[i].tid, NULL);
      }
   }
   lab_progress_done (prog);
   return ok;
}

/* build_take -- the keys the load kept (wt_collect.c) as the parts' sorts, finished here: the reading
 * spared. False when there are none to take (the collection must be read). */
static bool
build_take (wt_coll_t *c, wt_index_t *ix, build_part_t *parts, int *n)
{
   lab_wt_sort_t *sorts[WT_COLLECT_SORTS] = { 0 };
   bool multikey = false;
   int i, k = lab_wt_collect_take (c, ix, sorts, &multikey);

   if (k < 0) {
      return false;
   }
   for (i = 0; i < k; i++) {
      parts[i].sort = sorts[i];
      parts[i].ok = lab_wt_sort_nkeys (sorts[i]) == 0 || lab_wt_sort_finish (sorts[i], &parts[i].error);
   }
   if (multikey) {
      ix->multikey = 1;
   }
   *n = k;
   return true;
}

/* build_index -- create the index table uri and fill it from the collection's documents with a bulk
 * cursor, as mongod builds an index over existing data: read every document, sort the keys (in memory up
 * to lab_wt_build_budget(), else in sorted runs spilled to the home and merged), bulk-load them in order.
 * The reading and sorting are split by RecordId range over a thread per core (each with its own session
 * and its own sort, the budget shared between them), the loading merges them: the index is the same
 * whatever the split. When the load that filled the collection kept the keys (wt_collect.c), they are
 * the sorts and nothing is read. Beside the reading, a checkpoint writes what the collection's writers
 * left dirty in the cache (its cost is paid once, by the checkpoint that follows a load anyway, but here
 * while the CPU sorts); the table is created after it, so that the bulk cursor finds it new. *created:
 * it was. */
static bool
build_index (wt_sess_t *ss, wt_coll_t *c, wt_index_t *ix, const char *uri, bool *created, bson_error_t *error)
{
   char field[256]; /* the index's name, for messages */
   build_ckpt_t ckpt = { ss->st->conn, 0 };
   pthread_t ckpt_tid;
   bool ckpt_started = false, kept;
   build_part_t parts[BUILD_THREADS_MAX];
   int64_t count = __atomic_load_n (&c->count, __ATOMIC_RELAXED);
   int n = c->clustered ? 1 : build_threads (count), i, ret;
   uint64_t nkeys = 0;
   char *config = NULL;
   bool ok = true;
   uint64_t t0 = lab_now_ns (), t_read = 0, t_load;

   memset (parts, 0, sizeof parts);
   lab_wt_index_name (ix, field, sizeof field);
   ckpt_started = pthread_create (&ckpt_tid, NULL, build_ckpt_main, &ckpt) == 0;
   if (!ckpt_started) {
      build_ckpt_main (&ckpt); /* no thread: the checkpoint first, then the reading */
   }
   kept = build_take (c, ix, parts, &n);
   if (!kept) {
      ok = build_read (ss, c, ix, parts, &n, count, error);
   }
   t_read = lab_now_ns () - t0;
   if (ckpt_started) {
      pthread_join (ckpt_tid, NULL);
   }
   for (i = 0; ok && i < n; i++) {
      if (!parts[i].ok) {
         memcpy (error, &parts[i].error, sizeof *error);
         ok = false;
      }
      if (parts[i].multikey) {
         ix->multikey = 1;
      }
      nkeys += lab_wt_sort_nkeys (parts[i].sort);
   }
   if (ok && ckpt.ret != 0) {
      ok = lab_wt_fail (error, ckpt.ret, "checkpoint %s before building an index of '%s'", ss->st->home,
                        c->name);
   }
   if (ok && !(config = lab_wt_index_config (ss, c, error))) {
      ok = false;
   }
   if (ok && (ret = ss->s->create (ss->s, uri, config)) != 0) {
      ok = lab_wt_fail (error, ret, "create index %s of '%s' (%s)", field, c->name, uri);
   }
   bson_free (config);
   *created = ok;
   t_load = lab_now_ns ();
   if (ok && nkeys > 0) {
      ok = build_load (ss, c, field, uri, parts, n, nkeys, error);
   }
   /* where a build's time goes (-v): its profile's phases */
   lab_log_debug ("index %s of '%s': %" PRIu64 " keys %s in %d sort%s, sorted in %.2f s (checkpoint beside "
                  "them %.2f s), loaded in %.2f s",
                  field, c->name, nkeys, kept ? "kept by the load" : "read", n, n == 1 ? "" : "s",
                  (double)t_read / 1e9, (double)ckpt.elapsed_ns / 1e9,
                  (double)(lab_now_ns () - t_load) / 1e9);
   for (i = 0; i < n; i++) {
      lab_wt_sort_destroy (parts[i].sort);
   }
   return ok;
}

/* add_index -- record the built index (its key pattern and multikey flag from ix) in c and the catalog
 * (caller holds ddl for writing). */
static bool
add_index (wt_sess_t *ss, wt_coll_t *c, const wt_index_t *ix, bson_error_t *error)
{
   wt_store_t *st = ss->st;
   bool ok;

   pthread_mutex_lock (&st->mu);
   lab_wt_index_set_spec (&c->indexes[c->nindexes++], (const char *const *)ix->fields, ix->nfields,
                          ix->multikey != 0, ix->ident);
   ok = lab_wt_catalog_put_state (st, ss->s, false, error) && lab_wt_catalog_put_coll (ss->s, c, error);
   if (!ok) {
      c->nindexes--;
      lab_wt_index_unset (&c->indexes[c->nindexes]);
   }
   pthread_mutex_unlock (&st->mu);
   return ok;
}

/* positional -- a path component that is all digits: mongod indexes one array element by position there,
 * which the embedded key generator does not. */
static bool
positional (const char *path)
{
   const char *p = path;

   while (*p) {
      size_t len = strcspn (p, ".");
      if (len > 0 && strspn (p, "0123456789") >= len) {
         return true;
      }
      p += len;
      p += *p == '.';
   }
   return false;
}

/* lab_wt_create_index_spec -- create and build the index of key pattern spec (nothing when one with that
 * pattern exists); as mongod's createIndexes, a missing collection is created. */
bool
lab_wt_create_index_spec (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                          bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   wt_coll_t *c;
   wt_index_t ix;
   char *ident = NULL, *uri = NULL;
   bool ok = false, created = false;
   int i;

   memset (&ix, 0, sizeof ix);
   for (i = 0; i < spec->n; i++) {
      if (positional (spec->fields[i])) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
                        "index on '%s' of '%s': positional paths (a numeric component) are not supported by "
                        "the embedded store",
                        spec->fields[i], coll);
         return false;
      }
   }
   pthread_rwlock_wrlock (&st->ddl);
   if (!(c = lab_wt_coll_create_locked (ss, coll, error))) {
      goto done;
   }
   if (lab_wt_coll_index_spec (c, spec) ||
       (c->clustered && spec->n == 1 && strcmp (spec->fields[0], "_id") == 0)) {
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
   lab_wt_index_set_spec (&ix, spec->fields, spec->n, false, ident);
   ok = build_index (ss, c, &ix, uri, &created, error) && add_index (ss, c, &ix, error);
done:
   if (!ok && created) {
      ss->s->drop (ss->s, uri, "force=true");
   }
   pthread_rwlock_unlock (&st->ddl);
   lab_wt_index_unset (&ix);
   bson_free (ident);
   bson_free (uri);
   return ok;
}

/* lab_wt_create_index -- the single-field index on field. */
bool
lab_wt_create_index (lab_store_session_t *sess, const char *coll, const char *field, bson_error_t *error)
{
   lab_store_index_spec_t spec = { { field }, 1 };

   return lab_wt_create_index_spec (sess, coll, &spec, error);
}

/* rid_set_add -- add rid to the open-addressing set (*set of *cap slots, 0 = empty; RecordIds are > 0);
 * false when it was there already. */
static bool
rid_set_add (int64_t **set, size_t *cap, size_t *n, int64_t rid)
{
   size_t i;

   if (*n * 2 >= *cap) {
      size_t oldcap = *cap, j;
      int64_t *old = *set;
      *cap = oldcap ? oldcap * 2 : 1024;
      *set = bson_malloc0 (*cap * sizeof **set);
      *n = 0;
      for (j = 0; j < oldcap; j++) {
         if (old[j]) {
            rid_set_add (set, cap, n, old[j]);
         }
      }
      bson_free (old);
   }
   for (i = ((uint64_t)rid * 0x9E3779B97F4A7C15ULL) & (*cap - 1); (*set)[i]; i = (i + 1) & (*cap - 1)) {
      if ((*set)[i] == rid) {
         return false;
      }
   }
   (*set)[i] = rid;
   (*n)++;
   return true;
}

/* key_before -- memcmp order of byte strings: a < b. */
static bool
key_before (const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
   int c = memcmp (a, b, alen < blen ? alen : blen);

   return c < 0 || (c == 0 && alen < blen);
}

/* lab_wt_index_scan -- see wt_private.h. The _id index keeps the RecordId in its value. */
int
lab_wt_index_scan (wt_sess_t *ss, wt_coll_t *c, wt_index_t *ix, const lab_buf_t *start, const lab_buf_t *end,
                   int64_t *keys_examined, bson_error_t *error)
{
   bool is_id = lab_wt_is_id_index (c, ix);
   bool dedup = __atomic_load_n (&ix->multikey, __ATOMIC_RELAXED) != 0;
   int64_t *set = NULL;
   size_t cap = 0, nset = 0, vlen, used;
   WT_CURSOR *ic;
   WT_ITEM k, v;
   int64_t rid;
   int ret;

   ss->nrids = 0;
   if (!lab_wt_get_cursor (ss, ix->uri, true, &ic, error)) {
      return EINVAL;
   }
   ret = lab_wt_seek_from (ic, start);
   for (; ret == 0; ret = ic->next (ic)) {
      if ((ret = ic->get_key (ic, &k)) != 0) {
         break;
      }
      if (!key_before (k.data, k.size, end->data, end->len)) {
         break;
      }
      (*keys_examined)++;
      if (is_id) {
         if ((ret = ic->get_value (ic, &v)) != 0) {
            break;
         }
         if (!lab_store_key_recordid_decode (v.data, v.size, &rid, &used)) {
            ret = WT_ERROR;
            break;
         }
      } else if (!lab_store_key_split_recordid (k.data, k.size, &vlen, &rid)) {
         ret = WT_ERROR;
         break;
      }
      if (!dedup || rid_set_add (&set, &cap, &nset, rid)) {
         lab_wt_rids_push (ss, rid);
      }
   }
   bson_free (set);
   return ret == WT_NOTFOUND ? 0 : ret;
}

/* lab_wt_rids_eq -- see wt_private.h. */
bool
lab_wt_rids_eq (wt_sess_t *ss, const char *coll, const char *field, const bson_value_t *value, wt_coll_t **c,
                bson_error_t *error)
{
   wt_index_t *ix;
   int ret;

   if (!(*c = lab_wt_coll_lookup (ss->st, coll, error)) ||
       !(ix = lab_wt_index_lookup (ss->st, *c, field, error)) ||
       !lab_wt_encode_body (value, &ss->body, coll, field, error)) {
      return false;
   }
   if ((*c)->clustered) { /* entries end in string RecordIds: lab_wt_clustered_index_find reads them */
      return lab_wt_clustered_refuse (*c, "its index entries end in string RecordIds (no RecordId numbers)",
                                      error);
   }
   if ((ret = lab_wt_collect_rids (ss, ix, lab_wt_is_id_index (*c, ix), &ss->body, error)) != 0) {
      if (ret != EINVAL) {
         lab_wt_fail (error, ret, "scan index on '%s' of '%s' (%s)", field, coll, ix->uri);
      }
      return false;
   }
   return true;
}

/* lab_wt_collect_index -- see store.h: a collector on the collection, each session's sort holding a
 * share of the build's memory (one share a core, as the build's readers). */
bool
lab_wt_collect_index (lab_store_session_t *sess, const char *coll, const char *field, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   lab_store_index_spec_t spec = { { field }, 1 };
   long ncpu = sysconf (_SC_NPROCESSORS_ONLN);
   size_t shares = ncpu < 1 ? 1 : ncpu > WT_COLLECT_SORTS ? WT_COLLECT_SORTS : (size_t)ncpu;
   wt_coll_t *c;

   pthread_rwlock_wrlock (&st->ddl);
   pthread_mutex_lock (&st->mu);
   c = lab_wt_coll_find (st, coll);
   pthread_mutex_unlock (&st->mu);
   if (c && !lab_wt_coll_index_spec (c, &spec)) {
      lab_wt_collect_start (st, c, spec.fields, 1, lab_wt_build_budget () / shares);
   }
   pthread_rwlock_unlock (&st->ddl);
   return true;
}
