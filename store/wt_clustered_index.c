/*
 * wt_clustered_index.c -- secondary indexes of the embedded store's clustered collections, as mongod lays
 * them out (docs/mongodb-compat.md §23): a standard index entry whose RecordId is the clustered RecordId,
 * the KeyString of the document's _id, in KeyString's string-RecordId form (the bytes, then their size
 * from the end: keyenc.h lab_store_key_append_recordid_str), value the key's TypeBits
 * (WiredTigerIndexStandard::_insert with rsKeyFormat String; lab_wt_index_entry_put). The keys are the
 * ordinary index's (lab_wt_index_keys: compound, multikey), only the RecordId differs; an IXSCAN reads the
 * RecordId bytes off the key's end and the FETCH is a search of the record table with them.
 */
#include "wt_private.h"

#include "core/error.h"
#include "keyenc.h"
#include "wt_sort.h"

#include <string.h>

/* lab_wt_clustered_index_keys -- see wt_private.h: the ordinary keys with a placeholder RecordId (1, two
 * bytes; the dedup of equal values does not look at it), each rewritten with the string RecordId. */
bool
lab_wt_clustered_index_keys (const wt_index_t *ix, int which, const bson_t *doc, const uint8_t *rid,
                             size_t rid_len, lab_buf_t *scratch, lab_buf_t *out, wt_ikeys_t *list,
                             bool *multikey, bson_error_t *error)
{
   size_t first = list->n, i, vlen;
   int64_t one;

   lab_buf_reset (scratch);
   if (!lab_wt_index_keys (ix, which, doc, 1, scratch, list, multikey, error)) {
      return false;
   }
   for (i = first; i < list->n; i++) {
      size_t off = out->len;
      if (!lab_store_key_split_recordid (scratch->data + list->v[i].off, list->v[i].len, &vlen, &one)) {
         list->n = first;
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC, "a generated key is malformed");
         return false;
      }
      lab_buf_append (out, scratch->data + list->v[i].off, vlen);
      lab_store_key_append_recordid_str (out, rid, rid_len);
      /* its value (TypeBits) follows it, as it followed the ordinary key */
      lab_buf_append (out, scratch->data + list->v[i].off + list->v[i].len, list->v[i].tb);
      list->v[i].off = off;
      list->v[i].len = out->len - off - list->v[i].tb;
   }
   return true;
}

/* lab_wt_clustered_doc_keys -- see wt_private.h. */
bool
lab_wt_clustered_doc_keys (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, const uint8_t *rid, size_t rid_len,
                           bool *mk, bson_error_t *error)
{
   bool ignored;
   int i;

   lab_buf_reset (&ss->ikeys);
   ss->ik.n = 0;
   for (i = 0; i < c->nindexes; i++) {
      if (!lab_wt_clustered_index_keys (&c->indexes[i], i, doc, rid, rid_len, &ss->val, &ss->ikeys, &ss->ik,
                                        mk ? &mk[i] : &ignored, error)) {
         lab_error_prefix (error, "clustered collection '%s'", c->name);
         return false;
      }
   }
   return true;
}

/* lab_wt_clustered_index_write -- see wt_private.h. */
int
lab_wt_clustered_index_write (wt_sess_t *ss, wt_coll_t *c, const bson_t *doc, const uint8_t *rid,
                              size_t rid_len, bool remove, bool *mk, bson_error_t *error)
{
   WT_ITEM k;
   WT_CURSOR *ic;
   size_t j;
   int ret;

   if (c->nindexes == 0) {
      return 0;
   }
   if (!lab_wt_clustered_doc_keys (ss, c, doc, rid, rid_len, mk, error)) {
      return EINVAL;
   }
   for (j = 0; j < ss->ik.n; j++) {
      if (!lab_wt_get_cursor (ss, c->indexes[ss->ik.v[j].ix].uri, true, &ic, error)) {
         return EINVAL;
      }
      k.data = ss->ikeys.data + ss->ik.v[j].off;
      k.size = ss->ik.v[j].len;
      if (remove) {
         ic->set_key (ic, &k);
         ret = ic->remove (ic);
         ret = ret == WT_NOTFOUND ? 0 : ret;
      } else {
         ret = lab_wt_index_entry_put (ic, &ss->ik.v[j], ss->ikeys.data);
      }
      if (ret != 0) {
         if (ret != WT_ROLLBACK) {
            lab_wt_fail (error, ret, "%s an entry of index %s of clustered '%s'",
                         remove ? "remove" : "insert", c->indexes[ss->ik.v[j].ix].uri, c->name);
         }
         return ret;
      }
   }
   return 0;
}

/* lab_wt_clustered_index_collect -- see wt_private.h. */
bool
lab_wt_clustered_index_collect (WT_CURSOR *cc, wt_store_t *st, const wt_coll_t *c, const wt_index_t *ix,
                                lab_wt_sort_t *sort, bool *multikey, lab_progress_t *prog,
                                bson_error_t *error)
{
   lab_buf_t key, scratch;
   wt_ikeys_t list = { 0 };
   uint64_t pending = 0;
   bool ok = false;
   WT_ITEM k, v;
   int ret;

   lab_buf_init (&key);
   lab_buf_init (&scratch);
   for (ret = cc->next (cc); ret == 0; ret = cc->next (cc)) {
      bson_t doc;
      size_t i;

      if ((ret = cc->get_key (cc, &k)) != 0 || (ret = lab_wt_doc_value (st, cc, &v)) != 0) {
         break;
      }
      if (!bson_init_static (&doc, v.data, v.size)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "clustered collection '%s': a record is not valid BSON", c->name);
         goto done;
      }
      lab_buf_reset (&key);
      list.n = 0;
      if (!lab_wt_clustered_index_keys (ix, 0, &doc, k.data, k.size, &scratch, &key, &list, multikey,
                                        error)) {
         lab_error_prefix (error, "build an index of clustered '%s'", c->name);
         goto done;
      }
      for (i = 0; i < list.n; i++) {
         if (!lab_wt_index_sort_add (sort, &list.v[i], key.data, error)) {
            goto done;
         }
      }
      if (++pending == 4096) {
         lab_progress_add (prog, pending, 0);
         pending = 0;
      }
   }
   lab_progress_add (prog, pending, 0);
   if (ret != WT_NOTFOUND) {
      lab_wt_fail (error, ret, "scan clustered collection '%s' (%s)", c->name, c->uri);
      goto done;
   }
   ok = true;
done:
   lab_buf_destroy (&key);
   lab_buf_destroy (&scratch);
   bson_free (list.v);
   return ok;
}

/* A set of RecordIds seen (byte strings), for the single fetch of each document of a multikey index. */
typedef struct {
   uint32_t *slot; /* 1 + index into off/len, 0 empty */
   size_t cap, n;
   lab_buf_t bytes;
   size_t *off, *len;
} rid_set_t;

/* rid_hash -- FNV-1a of the bytes. */
static uint64_t
rid_hash (const uint8_t *p, size_t n)
{
   uint64_t h = 1469598103934665603ULL;

   while (n--) {
      h = (h ^ *p++) * 1099511628211ULL;
   }
   return h;
}

/* rid_set_add -- add p[0..n); false when it was there already. */
static bool
rid_set_add (rid_set_t *s, const uint8_t *p, size_t n)
{
   size_t i;

   if (s->n * 2 >= s->cap) {
      size_t j, oldcap = s->cap;
      uint32_t *old = s->slot;
      s->cap = oldcap ? oldcap * 2 : 1024;
      s->slot = bson_malloc0 (s->cap * sizeof *s->slot);
      s->off = bson_realloc (s->off, s->cap * sizeof *s->off);
      s->len = bson_realloc (s->len, s->cap * sizeof *s->len);
      for (j = 0; j < oldcap; j++) {
         if (old[j]) {
            const uint8_t *q = s->bytes.data + s->off[old[j] - 1];
            for (i = rid_hash (q, s->len[old[j] - 1]) & (s->cap - 1); s->slot[i];
                 i = (i + 1) & (s->cap - 1)) {
            }
            s->slot[i] = old[j];
         }
      }
      bson_free (old);
   }
   for (i = rid_hash (p, n) & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1)) {
      size_t e = s->slot[i] - 1;
      if (s->len[e] == n && memcmp (s->bytes.data + s->off[e], p, n) == 0) {
         return false;
      }
   }
   s->off[s->n] = s->bytes.len;
   s->len[s->n] = n;
   lab_buf_append (&s->bytes, p, n);
   s->slot[i] = (uint32_t)++s->n;
   return true;
}

/* key_before -- memcmp order of byte strings: a < b. */
static bool
key_before (const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
   int cmp = memcmp (a, b, alen < blen ? alen : blen);

   return cmp < 0 || (cmp == 0 && alen < blen);
}

/* fetch -- the record of RecordId rid[0..n) to cb (a record deleted since the index was read: skipped);
 * false to stop (the callback's wish: *stop, or an error). */
static bool
fetch (wt_sess_t *ss, wt_coll_t *c, WT_CURSOR *cc, const uint8_t *rid, size_t n, lab_store_doc_cb_t cb,
       void *ctx, int64_t *docs, bool *stop, bson_error_t *error)
{
   WT_ITEM k, v;
   bson_t doc;
   int ret;

   k.data = rid;
   k.size = n;
   cc->set_key (cc, &k);
   if ((ret = cc->search (cc)) == WT_NOTFOUND) {
      return true;
   }
   if (ret != 0 || (ret = lab_wt_doc_value (ss->st, cc, &v)) != 0) {
      return lab_wt_fail (error, ret, "fetch a record of clustered '%s' (%s)", c->name, c->uri);
   }
   if (!bson_init_static (&doc, v.data, v.size)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC, "a record of '%s' is not valid BSON",
                     c->name);
      return false;
   }
   (*docs)++;
   *stop = !cb (&doc, ctx);
   return !*stop;
}

/* lab_wt_clustered_index_find -- see wt_private.h: entries in [start, end) in index order, each a FETCH
 * as it is read (mongod's IXSCAN + FETCH), each RecordId once when the index is multikey. */
bool
lab_wt_clustered_index_find (wt_sess_t *ss, wt_coll_t *c, wt_index_t *ix, const lab_buf_t *start,
                             const lab_buf_t *end, lab_store_doc_cb_t cb, void *ctx, int64_t *keys_examined,
                             int64_t *docs_fetched, bson_error_t *error)
{
   bool dedup = __atomic_load_n (&ix->multikey, __ATOMIC_RELAXED) != 0, stop = false, ok = false;
   rid_set_t set = { 0 };
   WT_CURSOR *ic, *cc;
   const uint8_t *rid;
   size_t vlen, rlen;
   WT_ITEM k;
   int ret;

   lab_buf_init (&set.bytes);
   if (!lab_wt_get_cursor (ss, ix->uri, true, &ic, error) ||
       !lab_wt_get_cursor (ss, c->uri, true, &cc, error)) {
      goto done;
   }
   ret = lab_wt_seek_from (ic, start);
   for (; ret == 0; ret = ic->next (ic)) {
      if ((ret = ic->get_key (ic, &k)) != 0 || !key_before (k.data, k.size, end->data, end->len)) {
         break;
      }
      (*keys_examined)++;
      if (!lab_store_key_split_recordid_str (k.data, k.size, &vlen, &rid, &rlen)) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "index %s of clustered '%s': an entry does not end in a string RecordId", ix->uri,
                        c->name);
         goto done;
      }
      if (dedup && !rid_set_add (&set, rid, rlen)) {
         continue;
      }
      if (!fetch (ss, c, cc, rid, rlen, cb, ctx, docs_fetched, &stop, error)) {
         ok = stop;
         goto done;
      }
   }
   if (ret != 0 && ret != WT_NOTFOUND) {
      lab_wt_fail (error, ret, "scan index %s of clustered '%s'", ix->uri, c->name);
      goto done;
   }
   ok = true;
done:
   bson_free (set.slot);
   bson_free (set.off);
   bson_free (set.len);
   lab_buf_destroy (&set.bytes);
   return ok;
}
