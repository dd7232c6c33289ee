/*
 * keysrc.c -- where the comparison's master key comes from: --key, else the fold's own record. A folded
 * collection carries its fold's settings in its _layoutlab marker (store.h lab_store_mark_get; params:
 * key, array_field, shape, bucket_rows, copy_only and the layout's descriptor, written by etl/fold_run.c), so
 * scancmp need not be told the key twice, and a --key or --array-field that contradicts the record is refused
 * before anything is measured or built (a comparison by another field would ask for an index the fold never
 * needed).
 */
#include "scan/measure/measure.h"
#include "scan/scan.h"

#include "core/error.h"
#include "core/log.h"

#include <string.h>

/* fold_record -- the fold-details settings of `coll`'s marker: *params (caller destroys) or NULL when the
 * collection was not written by fold-details. */
static bool
fold_record (lab_store_session_t *sess, const char *coll, bson_t **params, bson_error_t *error)
{
   bson_t *mark = NULL;
   bson_iter_t it;

   *params = NULL;
   if (!lab_store_mark_get (sess, coll, &mark, NULL, error)) {
      lab_error_prefix (error, "reading the _layoutlab record of %s", coll);
      return false;
   }
   if (mark && bson_iter_init_find (&it, mark, "tool") && BSON_ITER_HOLDS_UTF8 (&it) &&
       strcmp (bson_iter_utf8 (&it, NULL), "fold-details") == 0 &&
       bson_iter_init_find (&it, mark, "params") && BSON_ITER_HOLDS_DOCUMENT (&it)) {
      uint32_t len;
      const uint8_t *data;
      bson_iter_document (&it, &len, &data);
      *params = bson_new_from_data (data, len);
   }
   bson_destroy (mark);
   return true;
}

/* agree -- one setting (`what`: "key" or "array-field") of one layout's record against the option and
 * the records before it: *chosen and *from take the first record's value; a contradiction is refused. */
static bool
agree (const char *what, const char *given, const char *rec, const char *coll, char **chosen, char *from,
       size_t from_len, bson_error_t *error)
{
   if (!rec) {
      return true;
   }
   if (given && strcmp (given, rec) != 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--%s %s, but %s was folded %s %s (its _layoutlab record): drop --%s or pass --%s %s",
                     what, given, coll, strcmp (what, "key") == 0 ? "by" : "with its rows in", rec, what,
                     what, rec);
      return false;
   }
   if (*chosen && strcmp (*chosen, rec) != 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "%s was folded %s %s but %s %s %s (their _layoutlab records): the layouts of one "
                     "comparison must share their %s; compare layouts folded alike",
                     from, strcmp (what, "key") == 0 ? "by" : "with its rows in", *chosen, coll,
                     strcmp (what, "key") == 0 ? "by" : "in", rec, what);
      return false;
   }
   if (!*chosen) {
      *chosen = bson_strdup (rec);
      bson_strncpy (from, coll, from_len);
   }
   return true;
}

/* describe -- every layout's descriptor completed with the comparison's key and array field (those of the
 * records, else the options): the descriptors are whole before anything is measured. */
static void
describe (const lab_scan_opts_t *o, const lab_scan_keysrc_t *ks, lab_results_layouts_t *ls)
{
   size_t i;

   for (i = 0; i < ls->n; i++) {
      lab_layout_t *d = &ls->l[i].desc;
      if (!d->key[0]) {
         bson_strncpy (d->key, ks->key ? ks->key : o->key, sizeof d->key);
      }
      if (lab_layout_doc_holds_many_rows (d) && !d->array_field[0]) {
         bson_strncpy (d->array_field, ks->array_field ? ks->array_field : o->array_field,
                       sizeof d->array_field);
      }
   }
}

/* lab_scan_key_resolve -- see scan.h. */
bool
lab_scan_key_resolve (lab_store_session_t *sess, const lab_scan_opts_t *o, lab_results_layouts_t *ls,
                      lab_scan_keysrc_t *out, bson_error_t *error)
{
   char key_from[128] = "", array_from[128] = "";
   bool changed = false, ok = false;
   size_t i;

   memset (out, 0, sizeof *out);
   for (i = 0; i < ls->n; i++) {
      bson_t *params = NULL;
      lab_layout_t rec;
      const char *kind;
      bool exists = false;

      if (!lab_store_exists (sess, ls->l[i].collection, &exists, error)) {
         goto done;
      }
      if (!exists) {
         continue; /* check_collection says so, naming the option */
      }
      /* the store says whether its records are kept in _id order (a server: listCollections) */
      if (!lab_scan_clustered (sess, ls->l[i].collection, &ls->l[i].desc.clustered, error) ||
          !fold_record (sess, ls->l[i].collection, &params, error)) {
         goto done;
      }
      if (!params) {
         continue;
      }
      if (!lab_layout_from_fold (params, ls->l[i].name, ls->l[i].collection, &rec, error)) {
         lab_error_prefix (error, "the _layoutlab record of %s", ls->l[i].collection);
         bson_destroy (params);
         goto done;
      }
      bson_destroy (params);
      kind = lab_layout_kind_name (rec.kind);
      /* a copy (--shape copy) is keyed by _id for its own --verify: its record names no master key */
      if (!agree ("key", o->key_given ? o->key : NULL, rec.key[0] ? rec.key : NULL, ls->l[i].collection,
                  &out->key, key_from, sizeof key_from, error) ||
          (lab_layout_doc_holds_many_rows (&rec) &&
           !agree ("array-field", o->array_field_given ? o->array_field : NULL,
                   rec.array_field[0] ? rec.array_field : NULL, ls->l[i].collection, &out->array_field,
                   array_from, sizeof array_from, error))) {
         goto done;
      }
      if (o->nlayouts > 0 && o->kind_given[i]) {
         rec.kind = ls->l[i].desc.kind; /* the user's word on how to count it wins */
      } else if (strcmp (kind, ls->l[i].kind) != 0) {
         lab_log_info ("layout %s (%s) is %s by its _layoutlab record (--shape/--bucket-rows of its fold): "
                       "measured as %s",
                       ls->l[i].name, ls->l[i].collection, kind, kind);
         ls->l[i].kind = kind;
         changed = true;
      }
      rec.clustered = ls->l[i].desc.clustered;
      ls->l[i].desc = rec;
   }
   describe (o, out, ls);
   if (changed && !o->reference_layout) {
      /* the reference is the first layout of kind rows: the kinds just changed */
      for (i = ls->n; i-- > 0;) {
         if (lab_layout_reads_rows (&ls->l[i].desc)) {
            ls->reference = i;
         }
      }
   }
   bson_snprintf (out->key_source, sizeof out->key_source, "%s",
                  o->key_given ? "--key"
                  : out->key   ? "the _layoutlab record of "
                               : "default");
   if (out->key && !o->key_given) {
      bson_strncpy (out->key_source + strlen (out->key_source), key_from,
                    sizeof out->key_source - strlen (out->key_source));
   }
   bson_snprintf (out->array_source, sizeof out->array_source, "%s%s",
                  o->array_field_given ? "--array-field"
                  : out->array_field   ? "the _layoutlab record of "
                                       : "default",
                  !o->array_field_given && out->array_field ? array_from : "");
   lab_log_debug ("key %s (%s), array field %s (%s)", out->key ? out->key : o->key, out->key_source,
                  out->array_field ? out->array_field : o->array_field, out->array_source);
   ok = true;
done:
   if (!ok) {
      lab_scan_keysrc_cleanup (out);
   }
   return ok;
}

/* lab_scan_keysrc_cleanup -- see scan.h. */
void
lab_scan_keysrc_cleanup (lab_scan_keysrc_t *ks)
{
   bson_free (ks->key);
   bson_free (ks->array_field);
   ks->key = ks->array_field = NULL;
}
