/*
 * serverfacts_coll.c -- what a listCollections entry says of a collection's layout, and what a find with
 * showRecordId may take from mongod: a clustered collection (mongod 5.3+, or a time-series buckets
 * collection) keeps its records under the KeyString of its `_id`, so its $recordId is that `_id` value,
 * not a dense 64-bit RecordId, whatever BSON type it comes back as (docs/mongodb-compat.md §17).
 */
#include "serverfacts.h"

#include "store.h"

#include "core/error.h"

#include <string.h>

/* lab_store_facts_coll_clustered -- see serverfacts.h. */
bool
lab_store_facts_coll_clustered (const bson_t *entry, bool *clustered, bson_error_t *error)
{
   bson_iter_t it, key;

   *clustered = false;
   if (!bson_iter_init (&it, entry) || !bson_iter_find_descendant (&it, "options.clusteredIndex", &it)) {
      return true; /* no options, or none naming a cluster key: a collection with RecordIds */
   }
   if (BSON_ITER_HOLDS_BOOL (&it)) {
      /* the legacy form {clusteredIndex: true}: time-series buckets and pre-image collections
       * (clustered_util::parseClusteredInfo, makeCanonicalClusteredInfoForLegacyFormat: clustered by _id) */
      *clustered = bson_iter_bool (&it);
      return true;
   }
   if (!BSON_ITER_HOLDS_DOCUMENT (&it)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY,
                     "listCollections: options.clusteredIndex is a %s, not a boolean or a document",
                     lab_store_type_name (bson_iter_type (&it)));
      return false;
   }
   /* makeCanonicalClusteredInfo's spec {v, key, name, unique}: the key is required (ClusteredIndexSpec) */
   if (!bson_iter_recurse (&it, &key) || !bson_iter_find (&key, "key") || !BSON_ITER_HOLDS_DOCUMENT (&key)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY,
                     "listCollections: options.clusteredIndex has no key document");
      return false;
   }
   *clustered = true;
   return true;
}

/* lab_store_facts_record_id -- see serverfacts.h. */
bool
lab_store_facts_record_id (bool clustered, const bson_t *doc, int64_t *rid)
{
   bson_iter_t it;

   *rid = 0;
   if (clustered) {
      return false; /* the KeyString of _id decoded back into its value: no position in a record table */
   }
   if (!bson_iter_init_find (&it, doc, "$recordId") || !BSON_ITER_HOLDS_NUMBER (&it) ||
       bson_iter_as_int64 (&it) <= 0) {
      return false; /* FerretDB answers 0 for every document */
   }
   *rid = bson_iter_as_int64 (&it);
   return true;
}
