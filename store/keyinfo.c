/*
 * keyinfo.c -- what a key field holds, asked cheaply before a tool relies on it: the BSON types of its
 * index entries (lab_store_key_types: the two ends of the index first, every entry only when they differ)
 * and whether the documents have the field at all (lab_store_field_check: a few documents in natural
 * order, before advice to build an index on a field no document has). Both backends through the ops
 * table's key_ends and key_type_counts; the rest is generic.
 */
#include "store/store_impl.h"

#include "core/error.h"

#include <string.h>

/* lab_store_type_class -- see store.h. The classes of MongoDB's BSON comparison order: numbers compare
 * by value across int32, int64, double and decimal; null, undefined and a missing field are one; string
 * and symbol are one; every other type is its own. */
int
lab_store_type_class (bson_type_t t)
{
   switch (t) {
   case BSON_TYPE_MINKEY:
      return 1;
   case BSON_TYPE_EOD:
   case BSON_TYPE_UNDEFINED:
   case BSON_TYPE_NULL:
      return 2;
   case BSON_TYPE_INT32:
   case BSON_TYPE_INT64:
   case BSON_TYPE_DOUBLE:
   case BSON_TYPE_DECIMAL128:
      return 3;
   case BSON_TYPE_SYMBOL:
   case BSON_TYPE_UTF8:
      return 4;
   case BSON_TYPE_DOCUMENT:
      return 5;
   case BSON_TYPE_ARRAY:
      return 6;
   case BSON_TYPE_BINARY:
      return 7;
   case BSON_TYPE_OID:
      return 8;
   case BSON_TYPE_BOOL:
      return 9;
   case BSON_TYPE_DATE_TIME:
      return 10;
   case BSON_TYPE_TIMESTAMP:
      return 11;
   case BSON_TYPE_REGEX:
      return 12;
   case BSON_TYPE_MAXKEY:
      return 14;
   default:
      return 13;
   }
}

/* lab_store_key_types -- see store.h. */
bool
lab_store_key_types (lab_store_session_t *sess, const char *coll, const char *field,
                     lab_store_key_types_t *out, bson_error_t *error)
{
   const lab_store_ops_t *ops = sess->store->ops;
   bson_value_t first, last;
   int seen[16] = { 0 };
   int t;

   memset (out, 0, sizeof *out);
   if (!ops->key_ends || !ops->key_type_counts) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED, "this store cannot read key types");
      return false;
   }
   if (!ops->key_ends (sess, coll, field, &first, &last, &out->empty, error)) {
      return false;
   }
   if (out->empty) {
      return true;
   }
   out->first = first.value_type;
   out->last = last.value_type;
   bson_value_destroy (&first);
   bson_value_destroy (&last);
   /* the index is ordered by type class first: equal classes at both ends leave no room for another */
   if (lab_store_type_class (out->first) == lab_store_type_class (out->last)) {
      out->nclasses = 1;
      return true;
   }
   if (!ops->key_type_counts (sess, coll, field, out->rows, error)) {
      return false;
   }
   out->counted = true;
   for (t = 0; t < 256; t++) {
      if (out->rows[t] > 0 && !seen[lab_store_type_class ((bson_type_t)t)]++) {
         out->nclasses++;
      }
   }
   return true;
}

/* lab_store_key_types_list -- see store.h. */
size_t
lab_store_key_types_list (const lab_store_key_types_t *kt, bson_type_t *out)
{
   size_t n = 0;
   int c, t;

   for (c = 0; c <= 14; c++) {
      for (t = 0; t < 256; t++) {
         if (kt->rows[t] > 0 && lab_store_type_class ((bson_type_t)t) == c) {
            out[n++] = (bson_type_t)t;
         }
      }
   }
   return n;
}

/* lab_store_key_types_text -- see store.h. */
void
lab_store_key_types_text (const lab_store_key_types_t *kt, char *buf, size_t len)
{
   bson_type_t types[256];
   size_t n = 0, i, nt = lab_store_key_types_list (kt, types);

   buf[0] = '\0';
   for (i = 0; i < nt && n < len; i++) {
      n += (size_t)bson_snprintf (buf + n, len - n, "%s%s (%lld rows)", i ? ", " : "",
                                  lab_store_type_name (types[i]), (long long)kt->rows[types[i]]);
   }
}

/* LAB_FIELD_SAMPLE_DOCS -- documents read to tell whether a field exists at all */
#define LAB_FIELD_SAMPLE_DOCS 20

/* seen_add -- append the top-level field names of doc not yet in `seen` (a ", " list, at most 12 names,
 * then "..."), _id left out: it is in every document. */
static void
seen_add (const bson_t *doc, char *seen, size_t len, int *nnames)
{
   bson_iter_t it;

   if (!bson_iter_init (&it, doc)) {
      return;
   }
   while (bson_iter_next (&it)) {
      const char *k = bson_iter_key (&it);
      size_t n = strlen (seen), kl = strlen (k);
      const char *p = seen;
      bool dup = false;

      if (strcmp (k, "_id") == 0) {
         continue;
      }
      while ((p = strstr (p, k)) != NULL) {
         if ((p == seen || p[-1] == ' ') && (p[kl] == ',' || p[kl] == '\0')) {
            dup = true;
            break;
         }
         p += kl;
      }
      if (dup) {
         continue;
      }
      if (*nnames == 12) {
         if (!strstr (seen, "...")) {
            bson_snprintf (seen + n, len - n, ", ...");
         }
         return;
      }
      bson_snprintf (seen + n, len - n, "%s%s", n ? ", " : "", k);
      (*nnames)++;
   }
}

/* lab_store_field_check -- see store.h. */
bool
lab_store_field_check (lab_store_session_t *sess, const char *coll, const char *field, bool *absent,
                       bson_error_t *error)
{
   lab_store_natural_opts_t no = { .batch_docs = LAB_FIELD_SAMPLE_DOCS };
   lab_store_cursor_t *cur;
   const bson_t *doc;
   char seen[256] = "";
   int nread = 0, nnames = 0, rc = 0;
   bool found = false;

   *absent = false;
   if (!(cur = lab_store_natural_open (sess, coll, &no, error))) {
      return false;
   }
   while (!found && nread < LAB_FIELD_SAMPLE_DOCS && (rc = lab_store_cursor_next (cur, &doc, error)) == 1) {
      bson_iter_t it, child;
      nread++;
      found = bson_iter_init (&it, doc) && bson_iter_find_descendant (&it, field, &child);
      seen_add (doc, seen, sizeof seen, &nnames);
   }
   lab_store_cursor_close (cur);
   if (rc < 0) {
      lab_error_prefix (error, "sampling '%s' for its field '%s'", coll, field);
      return false;
   }
   if (found || nread == 0) {
      return true; /* an empty collection says nothing about its fields */
   }
   *absent = true;
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                  "no document of %s has a field %s (fields seen: %s; %d document%s read in natural order)",
                  coll, field, seen[0] ? seen : "none", nread, nread == 1 ? "" : "s");
   return true;
}
