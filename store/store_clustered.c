/*
 * store_clustered.c -- the rows of a clustered collection as layoutlab writes them (fold-details
 * --shape clustered, scancmp's appends): a source row with its `_id` replaced by {<key>: <the row's key>,
 * id: <the original _id>}, so that the collection's `_id` order keeps a master's rows together and the
 * original `_id` stays recoverable; the bounds of one master's rows; the original row back. Pure.
 */
#include "store.h"

#include "core/error.h"

#include <string.h>

/* lab_store_clustered_row -- see store.h. */
bool
lab_store_clustered_row (const bson_t *row, const char *key, bson_t *out, bson_error_t *error)
{
   bson_iter_t it, kit;
   bson_t id;

   if (!bson_iter_init_find (&kit, row, key)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "a row has no key field '%s': its clustered _id needs one", key);
      return false;
   }
   bson_init (out);
   BSON_APPEND_DOCUMENT_BEGIN (out, "_id", &id);
   bson_append_value (&id, key, -1, bson_iter_value (&kit));
   if (bson_iter_init_find (&it, row, "_id")) {
      bson_append_value (&id, LAB_STORE_CLUSTERED_ID, -1, bson_iter_value (&it));
   }
   bson_append_document_end (out, &id);
   if (!bson_iter_init (&it, row)) {
      bson_destroy (out);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC, "a row is not valid BSON");
      return false;
   }
   while (bson_iter_next (&it)) {
      if (strcmp (bson_iter_key (&it), "_id") != 0) {
         bson_append_iter (out, NULL, 0, &it);
      }
   }
   return true;
}

/* lab_store_clustered_row_orig -- see store.h. */
bool
lab_store_clustered_row_orig (const bson_t *doc, bson_t *out)
{
   bson_iter_t it, id;

   if (!bson_iter_init_find (&it, doc, "_id") || !BSON_ITER_HOLDS_DOCUMENT (&it) ||
       !bson_iter_recurse (&it, &id) || !bson_iter_find (&id, LAB_STORE_CLUSTERED_ID)) {
      return false;
   }
   bson_init (out);
   bson_append_value (out, "_id", 3, bson_iter_value (&id));
   if (!bson_iter_init (&it, doc)) {
      bson_destroy (out);
      return false;
   }
   while (bson_iter_next (&it)) {
      if (strcmp (bson_iter_key (&it), "_id") != 0) {
         bson_append_iter (out, NULL, 0, &it);
      }
   }
   return true;
}

/* lab_store_clustered_bounds -- see store.h. */
void
lab_store_clustered_bounds (const char *key, const bson_value_t *k, bson_t *lo, bson_t *hi)
{
   bson_init (lo);
   bson_append_value (lo, key, -1, k);
   bson_init (hi);
   bson_append_value (hi, key, -1, k);
   BSON_APPEND_MAXKEY (hi, LAB_STORE_CLUSTERED_ID);
}
