/*
 * match.c -- do the keys to load match anything? A comparison of nothing is an error.
 *
 * Before anything is made cold, each layout's collection is probed with the keys in order until one
 * matches (usually the first: one indexed lookup per collection). When none matches in a collection,
 * scancmp fails naming how many keys matched nothing, in which collection(s) and on which key field,
 * with a hint when the keys' type differs from the field's (the commonest cause: "42" against 42).
 * Keys that match in part are counted by the measured runs themselves (runs[].keys_unmatched, from the
 * workers) and warned about after the runs, as are layouts that returned different row counts.
 */
#include "scan/measure/measure.h"

#include "core/error.h"
#include "core/log.h"

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
lab_scan_keys_match (lab_store_session_t *sess, const char *coll, const char *field, const bson_value_t *keys,
                     int64_t nkeys, bool *any, bson_error_t *error)
{
   int64_t i;

   *any = false;
   for (i = 0; i < nkeys && !*any; i++) {
      if (!lab_scan_find_master (sess, coll, field, &keys[i], first_match, any, NULL, error)) {
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
field_sample (lab_store_session_t *sess, const char *coll, const char *field, bson_value_t *out, bool *found)
{
   lab_store_sorted_opts_t so = { .batch_docs = MATCH_SAMPLE_DOCS };
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bson_error_t err;
   int i;

   *found = false;
   cur = lab_store_sorted_open (sess, coll, field, &so, &err);
   if (!cur) {
      return;
   }
   for (i = 0; i < MATCH_SAMPLE_DOCS && lab_store_cursor_next (cur, &doc, &err) == 1; i++) {
      bson_iter_t it;
      if (bson_iter_init_find (&it, doc, field) && !BSON_ITER_HOLDS_NULL (&it)) {
         bson_value_copy (bson_iter_value (&it), out);
         *found = true;
         break;
      }
   }
   lab_store_cursor_close (cur);
}

/* join_colls -- the collections of the layouts whose flag equals `want`, joined by `sep` (caller frees). */
static char *
join_colls (const lab_results_layouts_t *ls, const bool *flag, bool want, const char *sep)
{
   bson_string_t *b = bson_string_new (NULL);
   size_t i;

   for (i = 0; i < ls->n; i++) {
      if (flag[i] == want) {
         bson_string_append_printf (b, "%s%s", b->len ? sep : "", ls->l[i].collection);
      }
   }
   return bson_string_free (b, false);
}

/* lab_scan_match_check -- see measure.h. */
bool
lab_scan_match_check (lab_store_session_t *sess, const lab_scan_opts_t *o, const lab_results_layouts_t *ls,
                      const char *keys_coll, const bson_value_t *keys, int64_t nkeys, bson_error_t *error)
{
   bool any[LAB_RESULTS_MAX_LAYOUTS];
   char *source = NULL, *hint = NULL, *where = NULL, *none_colls, *some_colls;
   size_t l, nmatched = 0, none = 0;

   for (l = 0; l < ls->n; l++) {
      if (!lab_scan_keys_match (sess, ls->l[l].collection, o->key, keys, nkeys, &any[l], error)) {
         return false;
      }
      nmatched += any[l] ? 1 : 0;
   }
   if (nmatched == ls->n) {
      return true;
   }
   /* the collection to sample for the hint: the first that matched nothing */
   while (any[none]) {
      none++;
   }
   {
      bson_value_t sample;
      bool found;
      field_sample (sess, ls->l[none].collection, o->key, &sample, &found);
      if (found) {
         hint = lab_scan_no_match_hint (keys, nkeys, o->key, ls->l[none].collection, &sample);
         bson_value_destroy (&sample);
      }
   }
   if (o->keys_file) {
      source = bson_strdup_printf ("in %s", o->keys_file);
   } else {
      source =
         bson_strdup_printf ("%s %s's %s index", o->keys_limit > 0 ? "spread over" : "of", keys_coll, o->key);
   }
   none_colls = join_colls (ls, any, false, nmatched == 0 ? " or " : " and ");
   if (nmatched == 0) {
      where = none_colls;
   } else {
      some_colls = join_colls (ls, any, true, " and ");
      where = bson_strdup_printf ("%s (while %s hold%s some of them)", none_colls, some_colls,
                                  nmatched == 1 ? "s" : "");
      bson_free (some_colls);
      bson_free (none_colls);
   }
   if (hint) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                     "none of the %lld key%s %s matched a document in %s (key field %s): the comparison "
                     "would compare nothing. %s",
                     (long long)nkeys, nkeys == 1 ? "" : "s", source, where, o->key, hint);
   } else {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                     "none of the %lld key%s %s matched a document in %s (key field %s): the comparison "
                     "would compare nothing. Check --key, the keys%s and %s",
                     (long long)nkeys, nkeys == 1 ? "" : "s", source, where, o->key,
                     o->keys_file ? " file's values" : "",
                     o->nlayouts > 0 ? "--layout" : "--detail/--folded");
   }
   bson_free (source);
   bson_free (hint);
   bson_free (where);
   return false;
}

/* lab_scan_match_warn -- see measure.h. */
void
lab_scan_match_warn (const lab_scan_opts_t *o, const lab_results_layouts_t *ls, const bson_t *entries, int n)
{
   int64_t prev[LAB_RESULTS_MAX_LAYOUTS];
   size_t nl = ls->n, i;
   int k;

   for (i = 0; i < nl; i++) {
      prev[i] = -1;
   }
   for (k = 0; nl > 1 && k + (int)nl <= n; k += (int)nl) {
      const bson_t *e[LAB_RESULTS_MAX_LAYOUTS] = { NULL }; /* this run's entries, in layout order */
      int64_t keys = 0, un[LAB_RESULTS_MAX_LAYOUTS] = { 0 }, rows[LAB_RESULTS_MAX_LAYOUTS];
      bool have_un = true, any_un = false, changed = false, have_rows = true, rows_differ = false;
      bson_string_t *msg;
      int run = k / (int)nl + 1, j, l;

      for (j = k; j < k + (int)nl; j++) {
         bson_iter_t it;
         if (bson_iter_init_find (&it, &entries[j], "layout") && BSON_ITER_HOLDS_UTF8 (&it) &&
             (l = lab_results_layout_find (ls, bson_iter_utf8 (&it, NULL))) >= 0) {
            e[l] = &entries[j];
         }
      }
      for (i = 0; i < nl; i++) {
         if (!e[i]) {
            break;
         }
         have_un = lab_results_get_int (e[i], "keys_unmatched", &un[i]) && have_un;
         have_rows = lab_results_get_int (e[i], "rows", &rows[i]) && have_rows;
      }
      if (i < nl) {
         continue;
      }
      lab_results_get_int (e[0], "keys", &keys);
      for (i = 0; i < nl; i++) {
         any_un = any_un || un[i] > 0;
         changed = changed || un[i] != prev[i];
         prev[i] = un[i];
         rows_differ = rows_differ || (have_rows && rows[i] != rows[0]);
      }
      /* once per run whose counts changed (the data does not change between runs: usually once) */
      if (have_un && any_un && changed) {
         msg = bson_string_new (NULL);
         for (i = 1; i < nl; i++) {
            bson_string_append_printf (msg, ", %lld in %s (%s)", (long long)un[i], ls->l[i].collection,
                                       ls->l[i].name);
         }
         lab_log_info ("warning: run %d: %lld of %lld keys matched no document in %s (%s)%s: each layout's "
                       "figures cover only the keys that matched it",
                       run, (long long)un[0], (long long)keys, ls->l[0].collection, ls->l[0].name, msg->str);
         bson_string_free (msg, true);
      }
      /* every layout must have returned the same rows: anything else means the collections differ */
      if (rows_differ) {
         msg = bson_string_new (NULL);
         for (i = 0; i < nl; i++) {
            bson_string_append_printf (msg, "%s%lld from %s", i ? ", " : "", (long long)rows[i],
                                       ls->l[i].collection);
         }
         lab_log_info ("warning: run %d: the layouts returned different row counts (%s): the collections do "
                       "not hold the same rows for these keys, so the comparison is not like for like",
                       run, msg->str);
         bson_string_free (msg, true);
      }
   }
}
