/* fold_names.c -- the fold's names and ids: options checked (plain names, none reserved), a row's _id for
 * messages, deterministic document ids. */
#include "fold.h"
#include "fold_private.h"

#include "core/error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* lab_fold_row_id_text -- the row's `_id` as relaxed JSON for messages (caller bson_free()s). */
char *
lab_fold_row_id_text (const bson_t *row)
{
   bson_iter_t it;
   bson_t tmp = BSON_INITIALIZER;
   char *json;

   if (!bson_iter_init_find (&it, row, "_id")) {
      bson_destroy (&tmp);
      return bson_strdup ("(no _id)");
   }
   bson_append_iter (&tmp, "_id", 3, &it);
   json = bson_as_relaxed_extended_json (&tmp, NULL);
   bson_destroy (&tmp);
   return json;
}

bool
lab_fold_name_reserved (const char *name, const char *array_field)
{
   return strcmp (name, "_id") == 0 || strcmp (name, LAB_FOLD_ROW_COUNT) == 0 ||
          strcmp (name, LAB_FOLD_PART) == 0 || strcmp (name, LAB_FOLD_PARTS) == 0 ||
          strcmp (name, LAB_FOLD_BUCKET_START) == 0 || strcmp (name, array_field) == 0;
}

bool
lab_fold_name_plain (const char *name)
{
   return name && name[0] && name[0] != '$' && !strchr (name, '.');
}

/* lab_fold_opts_check -- names are plain top-level fields, none reserved, no duplicates; a sane cap. */
bool
lab_fold_opts_check (const lab_fold_opts_t *o, bson_error_t *error)
{
   size_t i, j;

   if (!lab_fold_name_plain (o->key)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "key field '%s' must be a top-level field name (no '.', no '$')", o->key ? o->key : "");
      return false;
   }
   if (!lab_fold_name_plain (o->array_field)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "array field '%s' must be a top-level field name (no '.', no '$')",
                     o->array_field ? o->array_field : "");
      return false;
   }
   if (lab_fold_name_reserved (o->key, o->array_field)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "key field '%s' cannot be _id, row_count, part, parts, bucket_start or the array field",
                     o->key);
      return false;
   }
   if (strcmp (o->array_field, "_id") == 0 || strcmp (o->array_field, LAB_FOLD_ROW_COUNT) == 0 ||
       strcmp (o->array_field, LAB_FOLD_PART) == 0 || strcmp (o->array_field, LAB_FOLD_PARTS) == 0 ||
       strcmp (o->array_field, LAB_FOLD_BUCKET_START) == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "array field '%s' is a name the folded document uses itself", o->array_field);
      return false;
   }
   for (i = 0; i < o->nhoist; i++) {
      if (!lab_fold_name_plain (o->hoist[i])) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "hoisted field '%s' must be a top-level field name", o->hoist[i] ? o->hoist[i] : "");
         return false;
      }
      if (strcmp (o->hoist[i], o->key) == 0 || lab_fold_name_reserved (o->hoist[i], o->array_field)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "field '%s' cannot be hoisted: the key is always at top level, and _id, row_count, "
                        "part, parts, bucket_start and the array field are the folded document's own",
                        o->hoist[i]);
         return false;
      }
      for (j = 0; j < i; j++) {
         if (strcmp (o->hoist[i], o->hoist[j]) == 0) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                           "hoisted field '%s' is listed twice", o->hoist[i]);
            return false;
         }
      }
   }
   if (o->bucket_rows < 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "bucket rows %d must be 1 or more (0: no limit)", o->bucket_rows);
      return false;
   }
   if (o->bucket_field) {
      if (!lab_fold_name_plain (o->bucket_field)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "bucket field '%s' must be a top-level field name (no '.', no '$')", o->bucket_field);
         return false;
      }
      if (lab_fold_name_reserved (o->bucket_field, o->array_field)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "bucket field '%s' is a name the folded document uses itself", o->bucket_field);
         return false;
      }
      if (o->bucket_unit < LAB_BUCKET_HOUR || o->bucket_unit > LAB_BUCKET_MONTH) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "bucket field '%s' needs a unit: hour, day, week or month", o->bucket_field);
         return false;
      }
   }
   if (o->max_doc_bytes < 1024 || o->max_doc_bytes > INT32_MAX) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "max document size %lld is out of range [1 KiB, 2 GiB)", (long long)o->max_doc_bytes);
      return false;
   }
   return true;
}

/* lab_fold_key_id -- see fold.h. */
char *
lab_fold_key_id (const bson_value_t *key, bson_error_t *error)
{
   double d;
   char hex[25];
   size_t i;

   switch (key->value_type) {
   case BSON_TYPE_INT32:
      return bson_strdup_printf ("n:%d", key->value.v_int32);
   case BSON_TYPE_INT64:
      return bson_strdup_printf ("n:%lld", (long long)key->value.v_int64);
   case BSON_TYPE_DOUBLE:
      d = key->value.v_double;
      if (isnan (d)) {
         return bson_strdup ("n:nan");
      }
      if (d == floor (d) && fabs (d) < 9.2e18) {
         return bson_strdup_printf ("n:%lld", (long long)d);
      }
      return bson_strdup_printf ("n:%.17g", d);
   case BSON_TYPE_UTF8:
      if (memchr (key->value.v_utf8.str, '\0', key->value.v_utf8.len)) {
         /* an embedded NUL: spell the bytes in hex so the id stays a plain string */
         char *out = bson_malloc (3 + 2 * (size_t)key->value.v_utf8.len);
         memcpy (out, "x:", 2);
         for (i = 0; i < key->value.v_utf8.len; i++) {
            snprintf (out + 2 + 2 * i, 3, "%02x", (unsigned char)key->value.v_utf8.str[i]);
         }
         out[2 + 2 * key->value.v_utf8.len] = '\0';
         return out;
      }
      return bson_strdup_printf ("s:%s", key->value.v_utf8.str);
   case BSON_TYPE_OID:
      bson_oid_to_string (&key->value.v_oid, hex);
      return bson_strdup_printf ("o:%s", hex);
   case BSON_TYPE_DATE_TIME:
      return bson_strdup_printf ("d:%lld", (long long)key->value.v_datetime);
   case BSON_TYPE_BOOL:
      return bson_strdup (key->value.v_bool ? "b:true" : "b:false");
   case BSON_TYPE_NULL:
      return bson_strdup ("null");
   case BSON_TYPE_MINKEY:
      return bson_strdup ("minkey");
   case BSON_TYPE_MAXKEY:
      return bson_strdup ("maxkey");
   default:
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "key values of BSON type 0x%02x are not supported (use string, int32, int64, double, "
                     "ObjectId, date or bool keys)",
                     (unsigned)key->value_type);
      return NULL;
   }
}

/* lab_fold_doc_id -- "<key id>#<part>". */
char *
lab_fold_doc_id (const bson_value_t *key, int32_t part, bson_error_t *error)
{
   char *kid = lab_fold_key_id (key, error);
   char *id;

   if (!kid) {
      return NULL;
   }
   id = bson_strdup_printf ("%s#%d", kid, part);
   bson_free (kid);
   return id;
}
