/*
 * match.c -- do the keys to load match anything? A comparison of nothing is an error (issue 12).
 *
 * Before anything is made cold, each layout's collection is probed with the keys in order until one
 * matches (usually the first: one indexed lookup per collection). When none matches in a collection,
 * scancmp fails naming how many keys matched nothing, in which collection(s) and on which key field,
 * with a hint when the keys' type differs from the field's (the commonest cause: "42" against 42).
 * Keys that match in part are counted by the measured runs themselves (runs[].keys_unmatched, from the
 * workers) and warned about after the runs, as are layouts that returned different row counts.
 */
#include "scan/measure.h"

#include "core/error.h"

#include <stdio.h>
#include <string.h>

/* Documents looked at (in key order) for one holding a value of the key field, for the type hint:
 * documents without the field sort first. */
#define MATCH_SAMPLE_DOCS 64

/* lab_scan_key_class -- see measure.h. */
const char *
lab_scan_key_class (const bson_value_t *v)
{
   switch (v->value_type) {
   case BSON_TYPE_INT32:
   case BSON_TYPE_INT64:
   case BSON_TYPE_DOUBLE:
   case BSON_TYPE_DECIMAL128:
      return "numbers"; /* MongoDB compares numbers by value, whatever their type */
   case BSON_TYPE_UTF8:
   case BSON_TYPE_SYMBOL:
      return "strings";
   case BSON_TYPE_OID:
      return "ObjectIds";
   case BSON_TYPE_DATE_TIME:
      return "dates";
   case BSON_TYPE_BOOL:
      return "booleans";
   case BSON_TYPE_NULL:
   case BSON_TYPE_UNDEFINED:
      return "nulls";
   case BSON_TYPE_DOCUMENT:
      return "documents";
   case BSON_TYPE_ARRAY:
      return "arrays";
   case BSON_TYPE_BINARY:
      return "binary values";
   case BSON_TYPE_TIMESTAMP:
      return "timestamps";
   default:
      return "other values";
   }
}

/* lab_scan_no_match_hint -- see measure.h. */
char *
lab_scan_no_match_hint (const bson_value_t *keys, int64_t nkeys, const char *field, const char *coll,
                        const bson_value_t *sample)
{
   const char *kc, *fc;
   char kt[64], ft[64];
   int64_t i;

   if (nkeys <= 0 || !sample) {
      return NULL;
   }
   kc = lab_scan_key_class (&keys[0]);
   for (i = 1; i < nkeys; i++) {
      if (strcmp (lab_scan_key_class (&keys[i]), kc) != 0) {
         return NULL; /* mixed keys: no single type to blame */
      }
   }
   fc = lab_scan_key_class (sample);
   if (strcmp (kc, fc) == 0) {
      return NULL;
   }
   lab_value_text (&keys[0], kt, sizeof kt);
   lab_value_text (sample, ft, sizeof ft);
   if (strcmp (kc, "strings") == 0 && strcmp (fc, "numbers") == 0) {
      return bson_strdup_printf ("The keys are strings (%s) but %s in %s holds numbers (%s): write the "
                                 "keys without quotes",
                                 kt, field, coll, ft);
   }
   if (strcmp (kc, "numbers") == 0 && strcmp (fc, "strings") == 0) {
      return bson_strdup_printf ("The keys are numbers (%s) but %s in %s holds strings (%s): quote the "
                                 "keys in the keys file (\"%s\")",
                                 kt, field, coll, ft, kt);
   }
   return bson_strdup_printf ("The keys are %s (%s) but %s in %s holds %s (%s)", kc, kt, field, coll, fc, ft);
}

/* first_match -- stop at the first document: one is enough to know the key matches. */
static bool
first_match (const bson_t *doc, void *ctx)
{
   (void)doc;
   *(bool *)ctx = true;
   return false;
}

/* lab_scan_keys_match -- see measure.h. */
bool
lab_scan_keys_match (lab_session_t *sess, const char *coll, const char *field, const bson_value_t *keys,
                     int64_t nkeys, bool *any, bson_error_t *error)
{
   int64_t i;

   *any = false;
   for (i = 0; i < nkeys && !*any; i++) {
      if (!lab_store_find_eq (sess, coll, field, &keys[i], first_match, any, NULL, error)) {
         char kb[128];
         lab_error_prefix (error, "looking up %s %s in %s", field, lab_value_text (&keys[i], kb, sizeof kb),
                           coll);
         return false;
      }
   }
   return true;
}

/* field_sample -- a value of `field` from the first documents of `coll` in key order (documents
 * without it sort first); *found false when none of the first MATCH_SAMPLE_DOCS has one. Only for the
 * hint: a failure to read is not the user's problem here, so it just gives no sample. */
static void
field_sample (lab_session_t *sess, const char *coll, const char *field, bson_value_t *out, bool *found)
{
   lab_sorted_opts_t so = { .batch_docs = MATCH_SAMPLE_DOCS };
   lab_cursor_t *cur;
   const bson_t *doc;
   bson_error_t err;
   int i;

   *found = false;
   cur = lab_store_sorted_open (sess, coll, field, &so, &err);
   if (!cur) {
      return;
   }
   for (i = 0; i < MATCH_SAMPLE_DOCS && lab_cursor_next (cur, &doc, &err) == 1; i++) {
      bson_iter_t it;
      if (bson_iter_init_find (&it, doc, field) && !BSON_ITER_HOLDS_NULL (&it)) {
         bson_value_copy (bson_iter_value (&it), out);
         *found = true;
         break;
      }
   }
   lab_cursor_close (cur);
}

/* lab_scan_match_check -- see measure.h. */
bool
lab_scan_match_check (lab_session_t *sess, const lab_scan_opts_t *o, const bson_value_t *keys, int64_t nkeys,
                      bson_error_t *error)
{
   const char *colls[2] = { o->detail, o->folded };
   bool any[2];
   char *source = NULL, *hint = NULL, *where = NULL;
   int l, none = -1;

   for (l = 0; l < 2; l++) {
      if (!lab_scan_keys_match (sess, colls[l], o->key, keys, nkeys, &any[l], error)) {
         return false;
      }
   }
   if (any[0] && any[1]) {
      return true;
   }
   /* the collection to sample for the hint: the first that matched nothing */
   none = any[0] ? 1 : 0;
   {
      bson_value_t sample;
      bool found;
      field_sample (sess, colls[none], o->key, &sample, &found);
      if (found) {
         hint = lab_scan_no_match_hint (keys, nkeys, o->key, colls[none], &sample);
         bson_value_destroy (&sample);
      }
   }
   if (o->keys_file) {
      source = bson_strdup_printf ("in %s", o->keys_file);
   } else {
      source =
         bson_strdup_printf ("%s %s's %s index", o->keys_limit > 0 ? "spread over" : "of", o->folded, o->key);
   }
   if (!any[0] && !any[1]) {
      where = bson_strdup_printf ("%s or %s", o->detail, o->folded);
   } else {
      where = bson_strdup_printf ("%s (while %s holds some of them)", colls[none], colls[1 - none]);
   }
   if (hint) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                     "none of the %lld key%s %s matched a document in %s (key field %s): the comparison "
                     "would compare nothing. %s",
                     (long long)nkeys, nkeys == 1 ? "" : "s", source, where, o->key, hint);
   } else {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                     "none of the %lld key%s %s matched a document in %s (key field %s): the comparison "
                     "would compare nothing. Check --key, the keys%s and --detail/--folded",
                     (long long)nkeys, nkeys == 1 ? "" : "s", source, where, o->key,
                     o->keys_file ? " file's values" : "");
   }
   bson_free (source);
   bson_free (hint);
   bson_free (where);
   return false;
}

/* entry_int -- the integer `key` of a run entry; false when absent. */
static bool
entry_int (const bson_t *entry, const char *key, int64_t *out)
{
   bson_iter_t it;

   if (!bson_iter_init_find (&it, entry, key) || !BSON_ITER_HOLDS_NUMBER (&it)) {
      return false;
   }
   *out = bson_iter_as_int64 (&it);
   return true;
}

/* lab_scan_match_warn -- see measure.h. */
void
lab_scan_match_warn (const lab_scan_opts_t *o, const bson_t *entries, int n)
{
   int64_t prev[2] = { -1, -1 };
   int k;

   for (k = 0; k + 1 < n; k += 2) {
      const bson_t *e[2] = { NULL, NULL }; /* detail, folded of this run */
      int64_t keys = 0, un[2] = { 0, 0 }, rows[2];
      bool have_un = true;
      int i, run = k / 2 + 1;

      for (i = k; i < k + 2; i++) {
         bson_iter_t it;
         if (bson_iter_init_find (&it, &entries[i], "layout") && BSON_ITER_HOLDS_UTF8 (&it)) {
            e[strcmp (bson_iter_utf8 (&it, NULL), "folded") == 0 ? 1 : 0] = &entries[i];
         }
      }
      if (!e[0] || !e[1]) {
         continue;
      }
      for (i = 0; i < 2; i++) {
         have_un = entry_int (e[i], "keys_unmatched", &un[i]) && have_un;
      }
      entry_int (e[0], "keys", &keys);
      /* once per run whose counts changed (the data does not change between runs: usually once) */
      if (have_un && (un[0] > 0 || un[1] > 0) && (un[0] != prev[0] || un[1] != prev[1])) {
         lab_scan_say (o, false,
                       "warning: run %d: %lld of %lld keys matched no document in %s (detail), %lld in %s "
                       "(folded): each layout's figures cover only the keys that matched it",
                       run, (long long)un[0], (long long)keys, o->detail, (long long)un[1], o->folded);
      }
      prev[0] = un[0];
      prev[1] = un[1];
      /* both layouts must have returned the same rows: anything else means the collections differ */
      if (entry_int (e[0], "rows", &rows[0]) && entry_int (e[1], "rows", &rows[1]) && rows[0] != rows[1]) {
         lab_scan_say (o, false,
                       "warning: run %d: the layouts returned different row counts (%lld from %s, %lld from "
                       "%s): the collections do not hold the same rows for these keys, so the comparison "
                       "is not like for like",
                       run, (long long)rows[0], o->detail, (long long)rows[1], o->folded);
      }
   }
}
