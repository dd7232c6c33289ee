/*
 * clustered.c -- a clustered layout (fold-details --shape clustered) as scancmp reads it: a
 * collection of rows whose `_id` is {<key>: K, id: <original _id>}, kept in `_id` order with no key
 * index, so a master's rows are the `_id` range [{<key>: K}, {<key>: K, id: MaxKey}) (an IXSCAN of the
 * clustered index {_id: 1}: a bounded walk of the record table on the embedded store, mongod's
 * CLUSTERED_IXSCAN on a server).
 */
#include "scan/workloads/workload.h"

#include "core/error.h"

/* lab_scan_clustered -- see measure.h. */
bool
lab_scan_clustered (lab_store_session_t *sess, const char *coll, bool *clustered, bson_error_t *error)
{
   lab_store_coll_stats_t st = { 0 };

   *clustered = false;
   if (!lab_store_stats (sess, coll, &st, error)) {
      lab_error_prefix (error, "is %s clustered", coll);
      return false;
   }
   *clustered = st.clustered;
   return true;
}

/* lab_scan_clustered_find -- see measure.h. */
bool
lab_scan_clustered_find (lab_store_session_t *sess, const char *coll, const char *key_field,
                         const bson_value_t *key, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
                         bson_error_t *error)
{
   lab_store_index_spec_t spec = { { "_id" }, 1 };
   bson_value_t lv = { .value_type = BSON_TYPE_DOCUMENT }, hv = { .value_type = BSON_TYPE_DOCUMENT };
   int64_t keys = 0, docs = 0;
   bson_t lo, hi;
   bool ok;

   lab_store_clustered_bounds (key_field, key, &lo, &hi);
   lv.value.v_doc.data = (uint8_t *)bson_get_data (&lo);
   lv.value.v_doc.data_len = lo.len;
   hv.value.v_doc.data = (uint8_t *)bson_get_data (&hi);
   hv.value.v_doc.data_len = hi.len;
   ok = lab_store_index_find (sess, coll, &spec, NULL, 0, &lv, &hv, cb, ctx, &keys, &docs, error);
   bson_destroy (&lo);
   bson_destroy (&hi);
   if (ndocs) {
      *ndocs = docs;
   }
   return ok;
}

/* lab_scan_find_master -- see workload.h. */
bool
lab_scan_find_master (lab_store_session_t *sess, const char *coll, const char *key_field,
                      const bson_value_t *key, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
                      bson_error_t *error)
{
   bool clustered = false;

   return lab_scan_clustered (sess, coll, &clustered, error) &&
          lab_scan_master_find (sess, coll, clustered, key_field, key, cb, ctx, ndocs, error);
}

/* lab_scan_master_find -- see workload.h. */
bool
lab_scan_master_find (lab_store_session_t *sess, const char *coll, bool clustered, const char *key_field,
                      const bson_value_t *key, lab_store_doc_cb_t cb, void *ctx, int64_t *ndocs,
                      bson_error_t *error)
{
   return clustered ? lab_scan_clustered_find (sess, coll, key_field, key, cb, ctx, ndocs, error)
                    : lab_store_find_eq (sess, coll, key_field, key, cb, ctx, ndocs, error);
}

/* lab_scan_clustered_rows -- see workload.h. */
bool
lab_scan_clustered_rows (bool clustered, const char *key_field, const bson_t **docs, size_t n, bson_t **held,
                         int64_t *bytes, bson_error_t *error)
{
   size_t i;

   *held = NULL;
   if (clustered) {
      /* bson_t asks for 128-byte alignment (BSON_ALIGNED_BEGIN): a plain malloc'd array of them is misaligned
       */
      *held = bson_aligned_alloc0 (BSON_ALIGNOF (bson_t), (n ? n : 1) * sizeof **held);
      for (i = 0; i < n; i++) {
         if (!lab_store_clustered_row (docs[i], key_field, &(*held)[i], error)) {
            lab_scan_clustered_rows_free (*held, i);
            *held = NULL;
            return false;
         }
         docs[i] = &(*held)[i];
      }
   }
   for (i = 0; i < n; i++) {
      *bytes += docs[i]->len;
   }
   return true;
}

/* lab_scan_clustered_rows_free -- see measure.h. */
void
lab_scan_clustered_rows_free (bson_t *held, size_t n)
{
   size_t i;

   for (i = 0; held && i < n; i++) {
      bson_destroy (&held[i]);
   }
   bson_free (held);
}

/* lab_scan_row_filter -- see workload.h. */
void
lab_scan_row_filter (bool clustered, const char *key_field, const bson_value_t *key, const bson_value_t *id,
                     bson_t *q)
{
   bson_t eq, cid;

   bson_init (q);
   if (!clustered) {
      BSON_APPEND_VALUE (q, "_id", id);
      return;
   }
   /* lab_store_clustered_row's _id: the key first, then the original _id; under $eq, as the MongoDB
    * backend's find_eq puts a document value, so that it is never read as operators */
   BSON_APPEND_DOCUMENT_BEGIN (q, "_id", &eq);
   BSON_APPEND_DOCUMENT_BEGIN (&eq, "$eq", &cid);
   bson_append_value (&cid, key_field, -1, key);
   bson_append_value (&cid, LAB_STORE_CLUSTERED_ID, -1, id);
   bson_append_document_end (&eq, &cid);
   bson_append_document_end (q, &eq);
}

/* lab_scan_find_row -- see workload.h. */
bool
lab_scan_find_row (lab_store_session_t *sess, const char *coll, bool clustered, const char *key_field,
                   const bson_value_t *key, const bson_value_t *id, lab_store_doc_cb_t cb, void *ctx,
                   bson_error_t *error)
{
   bson_iter_t it, v;
   bson_t q;
   bool ok;

   lab_scan_row_filter (clustered, key_field, key, id, &q);
   if (!clustered) {
      ok = lab_store_find_eq (sess, coll, "_id", id, cb, ctx, NULL, error);
   } else {
      /* the _id value under $eq: the store's find_eq takes a value */
      ok = bson_iter_init (&it, &q) && bson_iter_find_descendant (&it, "_id.$eq", &v) &&
           lab_store_find_eq (sess, coll, "_id", bson_iter_value (&v), cb, ctx, NULL, error);
   }
   bson_destroy (&q);
   return ok;
}

/* lab_scan_clustered_plan -- see workload.h. */
void
lab_scan_clustered_plan (const lab_scan_opts_t *o, lab_scan_wl_kind_t kind, char *buf, size_t len)
{
   char was[700];

   bson_strncpy (was, buf, sizeof was);
   switch (kind) {
   case LAB_WL_LOAD:
      bson_snprintf (
         buf, len,
         "CLUSTERED_IXSCAN of the _id range [{ %s: K }, { %s: K, id: MaxKey }) (the records are the "
         "index: no FETCH)",
         o->key, o->key);
      return;
   case LAB_WL_UPDATE:
      bson_snprintf (buf, len,
                     "CLUSTERED_IXSCAN { _id: { %s, id } } (the record by its key), $set %s, replace by _id",
                     o->key, o->wl.sum_field);
      return;
   case LAB_WL_APPEND:
      bson_snprintf (buf, len,
                     "insert (the record keyed by the KeyString of its _id, which ends each index entry)");
      return;
   case LAB_WL_ROW:
   case LAB_WL_RANGE:
      bson_snprintf (buf, len, "%s by the clustered RecordId (the KeyString of _id ending each index entry)",
                     was);
      return;
   default:
      return;
   }
}
