/*
 * wt_ixdiff.c -- the index entries of an updated document, for plain and clustered collections alike, as
 * mongod's SortedDataIndexAccessMethod writes them (index_access_method.cpp: prepareUpdate computes
 * setDifference of the old and new key sets, update removes the keys only the old document had and
 * inserts those only the new one has; keys equal in value but not in type, 3 and 3.0, are different
 * keys: index_access_method.h setDifference). An entry's value is its key's TypeBits, as
 * WiredTigerIndexStandard::_insert writes it (keyenc_typebits.c).
 */
#include "wt_private.h"

#include "core/error.h"
#include "wt_sort.h"

#include <string.h>

/* lab_wt_index_entry_put -- see wt_private.h. */
int
lab_wt_index_entry_put (WT_CURSOR *ic, const wt_ikey_t *e, const uint8_t *buf)
{
   WT_ITEM k, v;

   k.data = buf + e->off;
   k.size = e->len;
   v.data = buf + e->off + e->len;
   v.size = e->tb;
   ic->set_key (ic, &k);
   ic->set_value (ic, &v);
   return ic->insert (ic);
}

/* lab_wt_index_sort_add -- see wt_private.h. */
bool
lab_wt_index_sort_add (struct lab_wt_sort *sort, const wt_ikey_t *e, const uint8_t *buf, bson_error_t *error)
{
   uint8_t rec[1024];
   size_t n = e->len + e->tb + 1;
   uint8_t *p = n <= sizeof rec ? rec : bson_malloc (n);
   bool ok;

   memcpy (p, buf + e->off, e->len + e->tb);
   p[n - 1] = (uint8_t)e->tb;
   ok = lab_wt_sort_add (sort, p, n, error);
   if (p != rec) {
      bson_free (p);
   }
   return ok;
}

/* lab_wt_index_sort_split -- see wt_private.h. */
void
lab_wt_index_sort_split (const uint8_t *rec, size_t len, size_t *klen, const uint8_t **val, size_t *vlen)
{
   *vlen = len > 0 ? rec[len - 1] : 0;
   *vlen = *vlen < len ? *vlen : 0;
   *klen = len > 0 ? len - 1 - *vlen : 0;
   *val = rec + *klen;
}

/* lab_wt_ikeys_save -- see wt_private.h. */
void
lab_wt_ikeys_save (const wt_sess_t *ss, wt_ikeys_t *keys, uint8_t **buf)
{
   size_t j;

   *buf = bson_malloc (ss->ikeys.len + 1);
   memcpy (*buf, ss->ikeys.data, ss->ikeys.len);
   keys->n = 0;
   for (j = 0; j < ss->ik.n; j++) {
      lab_wt_ikeys_push (keys, ss->ik.v[j].ix, ss->ik.v[j].off, ss->ik.v[j].len);
      keys->v[keys->n - 1].tb = ss->ik.v[j].tb;
   }
}

/* key_in -- entry j of keys `a` (in abuf) is among keys `b` (in bbuf): same index, same key bytes, same
 * TypeBits (a compound key's types are only there: 3 and 3L are different keys to mongod too). */
static bool
key_in (const wt_ikeys_t *a, const uint8_t *abuf, size_t j, const wt_ikeys_t *b, const uint8_t *bbuf)
{
   size_t i;

   for (i = 0; i < b->n; i++) {
      if (b->v[i].ix == a->v[j].ix && b->v[i].len == a->v[j].len && b->v[i].tb == a->v[j].tb &&
          memcmp (bbuf + b->v[i].off, abuf + a->v[j].off, a->v[j].len + a->v[j].tb) == 0) {
         return true;
      }
   }
   return false;
}

/* lab_wt_index_update_keys -- see wt_private.h. */
int
lab_wt_index_update_keys (wt_sess_t *ss, wt_coll_t *c, const wt_ikeys_t *oldk, const uint8_t *oldbuf,
                          size_t from, bson_error_t *error)
{
   WT_CURSOR *x;
   WT_ITEM k;
   size_t j;
   int ret = 0;

   for (j = from; j < oldk->n && ret == 0; j++) {
      if (key_in (oldk, oldbuf, j, &ss->ik, ss->ikeys.data)) {
         continue;
      }
      if (!lab_wt_get_cursor (ss, c->indexes[oldk->v[j].ix].uri, true, &x, error)) {
         return EINVAL;
      }
      k.data = oldbuf + oldk->v[j].off;
      k.size = oldk->v[j].len;
      x->set_key (x, &k);
      ret = x->remove (x);
      ret = ret == WT_NOTFOUND ? 0 : ret;
   }
   for (j = from; j < ss->ik.n && ret == 0; j++) {
      if (key_in (&ss->ik, ss->ikeys.data, j, oldk, oldbuf)) {
         continue;
      }
      if (!lab_wt_get_cursor (ss, c->indexes[ss->ik.v[j].ix].uri, true, &x, error)) {
         return EINVAL;
      }
      ret = lab_wt_index_entry_put (x, &ss->ik.v[j], ss->ikeys.data);
   }
   return ret;
}
