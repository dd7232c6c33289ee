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
#include "keyenc.h"

#include <string.h>

/* lab_wt_index_entry_value -- see wt_private.h. */
void
lab_wt_index_entry_value (const wt_coll_t *c, const uint8_t *key, size_t len, lab_buf_t *out)
{
   const uint8_t *rid;
   size_t vlen = 0, rlen;
   int64_t r;

   lab_buf_reset (out);
   if (c->clustered ? lab_store_key_split_recordid_str (key, len, &vlen, &rid, &rlen)
                    : lab_store_key_split_recordid (key, len, &vlen, &r)) {
      lab_store_key_typebits (key, vlen, out);
   }
}

/* lab_wt_index_entry_put -- see wt_private.h. */
int
lab_wt_index_entry_put (WT_CURSOR *ic, const wt_coll_t *c, const uint8_t *key, size_t len, lab_buf_t *scratch)
{
   WT_ITEM k, v;

   lab_wt_index_entry_value (c, key, len, scratch);
   k.data = key;
   k.size = len;
   v.data = scratch->data;
   v.size = scratch->len;
   ic->set_key (ic, &k);
   ic->set_value (ic, &v);
   return ic->insert (ic);
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
   }
}

/* key_in -- entry j of keys `a` (in abuf) is among keys `b` (in bbuf): same index, same bytes. */
static bool
key_in (const wt_ikeys_t *a, const uint8_t *abuf, size_t j, const wt_ikeys_t *b, const uint8_t *bbuf)
{
   size_t i;

   for (i = 0; i < b->n; i++) {
      if (b->v[i].ix == a->v[j].ix && b->v[i].len == a->v[j].len &&
          memcmp (bbuf + b->v[i].off, abuf + a->v[j].off, a->v[j].len) == 0) {
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
      ret = lab_wt_index_entry_put (x, c, ss->ikeys.data + ss->ik.v[j].off, ss->ik.v[j].len, &ss->val);
   }
   return ret;
}
