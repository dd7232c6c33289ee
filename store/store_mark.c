/*
 * store_mark.c -- the store's records in LAB_MARK_COLL (store.h) and the index builds they follow: the
 * marker of every collection a tool wrote; lab_store_create_index / _spec, which record every index a
 * tool builds (with the tool and its command line, from the store's opts) and are the last guard before a
 * build: a tool's store never builds an index on a collection layoutlab did not write unless the user
 * named it (opts.allow_writes). The tools check the same before they start (store/mark.h,
 * lab_store_mark_write_guard), so that nothing is built before a refusal; this check is what still holds
 * when a new code path forgets to.
 */
#include "store_impl.h"

#include "core/cli.h"
#include "core/error.h"
#include "mark.h"

#include <string.h>
#include <time.h>

/* lab_store_mark_now -- see mark.h. */
void
lab_store_mark_now (char *buf, size_t len)
{
   struct timespec ts;
   struct tm tm;
   char day[32];

   clock_gettime (CLOCK_REALTIME, &ts);
   gmtime_r (&ts.tv_sec, &tm);
   strftime (day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm);
   bson_snprintf (buf, len, "%s.%03dZ", day, (int)(ts.tv_nsec / 1000000));
}

/* lab_store_mark_put -- see store.h. */
bool
lab_store_mark_put (lab_store_session_t *sess, const char *coll, const bson_t *fields, bson_error_t *error)
{
   bson_t doc = BSON_INITIALIZER;
   bson_value_t uuid;
   bson_iter_t it;
   bool has = false, ok;

   if (!lab_store_coll_uuid (sess, coll, &uuid, &has, error)) {
      bson_destroy (&doc);
      return false;
   }
   BSON_APPEND_UTF8 (&doc, "_id", coll);
   BSON_APPEND_INT32 (&doc, "layoutlab", 1);
   if (fields && bson_iter_init (&it, fields)) {
      while (bson_iter_next (&it)) {
         const char *k = bson_iter_key (&it);
         if (strcmp (k, "_id") != 0 && strcmp (k, "layoutlab") != 0 && strcmp (k, "uuid") != 0) {
            bson_append_iter (&doc, k, -1, &it);
         }
      }
   }
   if (has) {
      BSON_APPEND_VALUE (&doc, "uuid", &uuid);
      bson_value_destroy (&uuid);
   }
   /* the marker collection is created by the first marker (MongoDB creates it on the upsert itself) */
   ok = lab_store_upsert_by_id (sess, LAB_MARK_COLL, &doc, error);
   if (!ok && lab_error_is (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION)) {
      ok = sess->store->ops->create (sess, LAB_MARK_COLL, error) &&
           lab_store_upsert_by_id (sess, LAB_MARK_COLL, &doc, error);
   }
   if (!ok) {
      lab_error_prefix (error, "recording '%s' as written by layoutlab in '%s'", coll, LAB_MARK_COLL);
   }
   bson_destroy (&doc);
   return ok;
}

/* uuid_equal -- two binary UUID values hold the same bytes. */
static bool
uuid_equal (const bson_value_t *a, const bson_value_t *b)
{
   return a->value_type == BSON_TYPE_BINARY && b->value_type == BSON_TYPE_BINARY &&
          a->value.v_binary.data_len == b->value.v_binary.data_len &&
          memcmp (a->value.v_binary.data, b->value.v_binary.data, a->value.v_binary.data_len) == 0;
}

/* lab_store_mark_get -- see store.h. */
bool
lab_store_mark_get (lab_store_session_t *sess, const char *coll, bson_t **doc, bool *foreign,
                    bson_error_t *error)
{
   bson_t *raw = NULL;
   bson_value_t uuid;
   bson_iter_t it;
   bool has = false, mismatch = false;

   *doc = NULL;
   if (foreign) {
      *foreign = false;
   }
   if (!lab_store_coll_check (coll, error) || !lab_store_find_id (sess, LAB_MARK_COLL, coll, &raw, error)) {
      return false;
   }
   if (!raw) {
      return true;
   }
   if (bson_iter_init_find (&it, raw, "uuid")) {
      if (!lab_store_coll_uuid (sess, coll, &uuid, &has, error)) {
         bson_destroy (raw);
         return false;
      }
      if (has) {
         mismatch = !uuid_equal (&uuid, bson_iter_value (&it));
         bson_value_destroy (&uuid);
      }
   }
   if (mismatch) {
      if (foreign) {
         *foreign = true;
      }
      bson_destroy (raw);
      return true;
   }
   *doc = bson_new ();
   bson_copy_to_excluding_noinit (raw, *doc, "_id", NULL);
   bson_destroy (raw);
   return true;
}

/* lab_store_mark_set -- see store.h. */
bool
lab_store_mark_set (lab_store_session_t *sess, const char *coll, const char *key, const bson_t *value,
                    bool *set, bson_error_t *error)
{
   bson_t *doc = NULL, fields = BSON_INITIALIZER;
   bson_iter_t it;
   bool ok = false;

   if (set) {
      *set = false;
   }
   if (!lab_store_mark_get (sess, coll, &doc, NULL, error)) {
      goto done;
   }
   if (!doc) {
      ok = true;
      goto done;
   }
   if (bson_iter_init (&it, doc)) {
      while (bson_iter_next (&it)) {
         if (strcmp (bson_iter_key (&it), key) != 0) {
            bson_append_iter (&fields, bson_iter_key (&it), -1, &it);
         }
      }
   }
   BSON_APPEND_DOCUMENT (&fields, key, value);
   ok = lab_store_mark_put (sess, coll, &fields, error);
   if (ok && set) {
      *set = true;
   }
done:
   bson_destroy (doc);
   bson_destroy (&fields);
   return ok;
}

/* index_build -- the backend's build of `spec` (single: its one-field create_index); when a tool acts
 * (opts.tool), guarded first and recorded after; an index already there is neither. */
static bool
index_build (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec, bool single,
             bson_error_t *error)
{
   bool exists = false, multikey = false, foreign = false;
   int64_t size = -1;
   char name[256];

   if (sess->store->opts.tool) {
      if (!sess->store->ops->index_info (sess, coll, spec, &exists, &multikey, &size, error)) {
         if (!lab_error_is (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION)) {
            return false;
         }
         memset (error, 0, sizeof *error);
      }
      lab_store_index_spec_name (spec, name, sizeof name);
      if (!exists && !lab_store_index_guard (sess, coll, name, &foreign, error)) {
         return false;
      }
   }
   if (single ? !sess->store->ops->create_index (sess, coll, spec->fields[0], error)
              : !sess->store->ops->create_index_spec (sess, coll, spec, error)) {
      return false;
   }
   return exists || lab_store_mark_index_put (sess, coll, spec, foreign, error);
}

/* lab_store_create_index -- checks, then the guarded, recorded build of {field: 1}. */
bool
lab_store_create_index (lab_store_session_t *sess, const char *coll, const char *field, bson_error_t *error)
{
   if (!field || !*field) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME, "index field name is empty");
      return false;
   }
   {
      lab_store_index_spec_t spec = { { field }, 1 };
      return lab_store_coll_check (coll, error) && index_build (sess, coll, &spec, true, error);
   }
}

/* lab_store_create_index_spec -- checks, then the guarded, recorded build. */
bool
lab_store_create_index_spec (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                             bson_error_t *error)
{
   return lab_store_coll_check (coll, error) && lab_store_index_spec_check (spec, error) &&
          index_build (sess, coll, spec, false, error);
}

/* lab_store_allowed -- see store_impl.h. */
bool
lab_store_allowed (const lab_store_t *store, const char *coll)
{
   const char *const *a;

   for (a = store->opts.allow_writes; a && *a; a++) {
      if (strcmp (*a, coll) == 0) {
         return true;
      }
   }
   return false;
}

/* lab_store_index_guard -- see store_impl.h. */
bool
lab_store_index_guard (lab_store_session_t *sess, const char *coll, const char *name, bool *foreign,
                       bson_error_t *error)
{
   lab_store_t *store = sess->store;
   bson_t *mark = NULL;
   bool exists = false;

   *foreign = false;
   if (!store->opts.tool || strcmp (coll, LAB_MARK_COLL) == 0) {
      return true;
   }
   if (!lab_store_exists (sess, coll, &exists, error)) {
      return false;
   }
   if (!exists) {
      return true; /* the build creates it: a collection of this tool's own */
   }
   if (!lab_store_mark_get (sess, coll, &mark, NULL, error)) {
      return false;
   }
   if (mark) {
      bson_destroy (mark);
      return true;
   }
   *foreign = true;
   if (lab_store_allowed (store, coll)) {
      return true;
   }
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                  "%s: building index %s on '%s.%s' refused: layoutlab did not write that collection (no "
                  "marker in " LAB_MARK_COLL "). Nothing has been built. Name it with --allow-writes %s to "
                  "build it anyway, or measure a marked copy (fold-details --shape copy)",
                  store->opts.tool, name, store->db, coll, coll);
   return false;
}

/* lab_store_mark_index_put -- see store_impl.h. */
bool
lab_store_mark_index_put (lab_store_session_t *sess, const char *coll, const lab_store_index_spec_t *spec,
                          bool foreign, bson_error_t *error)
{
   lab_store_t *store = sess->store;
   bson_t doc = BSON_INITIALIZER, keys;
   bson_value_t uuid;
   bool has = false, exists = false, multikey = false, ok;
   int64_t size = -1;
   char name[256], now[40];
   int i;

   if (!store->opts.tool) {
      bson_destroy (&doc);
      return true;
   }
   lab_store_index_spec_name (spec, name, sizeof name);
   if (!lab_store_index_info (sess, coll, spec, &exists, &multikey, &size, error) ||
       !lab_store_coll_uuid (sess, coll, &uuid, &has, error)) {
      bson_destroy (&doc);
      return false;
   }
   {
      char *id = bson_strdup_printf (LAB_MARK_INDEX_PREFIX "%s:%s", coll, name);
      BSON_APPEND_UTF8 (&doc, "_id", id);
      bson_free (id);
   }
   BSON_APPEND_INT32 (&doc, "layoutlab", 1);
   BSON_APPEND_UTF8 (&doc, "kind", "index");
   BSON_APPEND_UTF8 (&doc, "collection", coll);
   BSON_APPEND_UTF8 (&doc, "name", name);
   /* the key pattern's fields in order, as an array: a dotted field ("details.charge_time") cannot be a
    * stored document's key (mongod before 5.0, FerretDB) */
   BSON_APPEND_ARRAY_BEGIN (&doc, "keys", &keys);
   for (i = 0; i < spec->n; i++) {
      char idx[16];
      const char *k;
      bson_uint32_to_string ((uint32_t)i, &k, idx, sizeof idx);
      BSON_APPEND_UTF8 (&keys, k, spec->fields[i]);
   }
   bson_append_array_end (&doc, &keys);
   BSON_APPEND_INT64 (&doc, "size_bytes", size);
   lab_store_mark_now (now, sizeof now);
   BSON_APPEND_UTF8 (&doc, "created_at", now);
   BSON_APPEND_UTF8 (&doc, "tool", store->opts.tool);
   lab_cli_command_line_append (&doc, "command_line", store->opts.argc, store->opts.argv);
   BSON_APPEND_BOOL (&doc, "on_foreign", foreign);
   if (has) {
      BSON_APPEND_VALUE (&doc, "collection_uuid", &uuid);
      bson_value_destroy (&uuid);
   }
   ok = lab_store_upsert_by_id (sess, LAB_MARK_COLL, &doc, error);
   if (!ok && lab_error_is (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION)) {
      ok = store->ops->create (sess, LAB_MARK_COLL, error) &&
           lab_store_upsert_by_id (sess, LAB_MARK_COLL, &doc, error);
   }
   if (!ok) {
      lab_error_prefix (error, "recording index %s of '%s' in '%s'", name, coll, LAB_MARK_COLL);
   }
   bson_destroy (&doc);
   return ok;
}
