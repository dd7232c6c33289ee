/*
 * fold_run_copy.c -- --shape copy (fold.h): a marked copy of a collection, every document as it is, written
 * in the source's natural order by the natural-order read the clustered shape uses (fold_run_range.c,
 * fold_run_rows.c), so that scancmp's write workloads, which only run on collections layoutlab wrote, can be
 * measured on the copy without touching the original. Here: the source's secondary indexes, listed before
 * anything is written (lab_store_list_indexes), split into those the store can build and those it cannot
 * (named in a warning and in the marker, never dropped silently), built on the copy after its data as mongod
 * builds an index after its data; the source is only read.
 */
#include "fold_run_private.h"

/* append_index -- {name, key[, why]} of the description `desc` to the array `arr`. */
static void
append_index (bson_t *arr, const bson_t *desc, const char *why)
{
   bson_iter_t it;
   bson_t d;
   char pos[16];

   bson_snprintf (pos, sizeof pos, "%u", bson_count_keys (arr));
   BSON_APPEND_DOCUMENT_BEGIN (arr, pos, &d);
   if (bson_iter_init_find (&it, desc, "name")) {
      bson_append_value (&d, "name", -1, bson_iter_value (&it));
   }
   if (bson_iter_init_find (&it, desc, "key")) {
      bson_append_value (&d, "key", -1, bson_iter_value (&it));
   }
   if (why) {
      BSON_APPEND_UTF8 (&d, "why", why);
   }
   bson_append_document_end (arr, &d);
}

/* lab_fold_run_copy_plan -- see fold_run_private.h. */
bool
lab_fold_run_copy_plan (run_t *r, lab_store_session_t *sess, bson_error_t *error)
{
   bson_t list;
   bson_iter_t it;
   bool clustered = false, ok = false;

   bson_reinit (&r->copy_build);
   bson_reinit (&r->copy_skip);
   if (!lab_store_list_indexes (sess, r->o->target.src, &list, &clustered, error)) {
      lab_error_prefix (error, "--shape copy: listing the indexes of '%s'", r->o->target.src);
      goto done;
   }
   if (clustered) {
      lab_error_set (
         error, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED,
         "--shape copy refused: '%s' is a clustered collection (its records in _id order): a plain "
         "copy written in its natural order would not be one. Nothing was written",
         r->o->target.src);
      goto done;
   }
   bson_iter_init (&it, &list);
   while (bson_iter_next (&it)) {
      lab_store_index_spec_t spec;
      const uint8_t *data;
      uint32_t len;
      bson_t desc;
      char why[160];

      bson_iter_document (&it, &len, &data);
      if (!bson_init_static (&desc, data, len)) {
         continue;
      }
      if (lab_store_index_spec_from_desc (&desc, &spec, why, sizeof why)) {
         append_index (&r->copy_build, &desc, NULL);
      } else {
         char *text = bson_as_relaxed_extended_json (&desc, NULL);
         lab_log_info ("warning: --shape copy: the index %s of '%s' is not built on the copy: the store "
                       "cannot build %s (it builds ascending indexes of at most %d fields, without "
                       "options); the copy's marker names it",
                       text, r->o->target.src, why, LAB_STORE_INDEX_MAX_FIELDS);
         bson_free (text);
         append_index (&r->copy_skip, &desc, why);
      }
   }
   ok = true;
done:
   bson_destroy (&list);
   return ok;
}

/* lab_fold_run_copy_build -- see fold_run_private.h. */
bool
lab_fold_run_copy_build (run_t *r, lab_store_session_t *sess, bson_error_t *error)
{
   bson_iter_t it, f, key;
   uint64_t t0 = lab_now_ns ();
   int n = 0;

   bson_iter_init (&it, &r->copy_build);
   while (bson_iter_next (&it)) {
      lab_store_index_spec_t spec = { { NULL }, 0 };
      char name[512];

      if (!bson_iter_recurse (&it, &f) || !bson_iter_find (&f, "key") || !bson_iter_recurse (&f, &key)) {
         continue;
      }
      while (bson_iter_next (&key) && spec.n < LAB_STORE_INDEX_MAX_FIELDS) {
         spec.fields[spec.n++] = bson_iter_key (&key);
      }
      lab_store_index_spec_name (&spec, name, sizeof name);
      if (!lab_store_create_index_spec (sess, r->o->target.dst, &spec, error)) {
         lab_error_prefix (error, "--shape copy: building the index %s on '%s'", name, r->o->target.dst);
         return false;
      }
      n++;
   }
   if (n > 0) {
      lab_log_info ("--shape copy: %d index(es) of '%s' built on '%s' after the data in %.1f s", n,
                    r->o->target.src, r->o->target.dst, (double)(lab_now_ns () - t0) / 1e9);
   }
   return true;
}

/* described -- the index array `in` as `name` in doc, each key pattern as text: a pattern's dotted field
 * names ("sub.x") cannot be keys of a stored document on every server (FerretDB refuses them). */
static void
described (bson_t *doc, const char *name, const bson_t *in)
{
   bson_iter_t it, f;
   bson_t arr;

   BSON_APPEND_ARRAY_BEGIN (doc, name, &arr);
   bson_iter_init (&it, in);
   while (bson_iter_next (&it)) {
      bson_t d;

      BSON_APPEND_DOCUMENT_BEGIN (&arr, bson_iter_key (&it), &d);
      bson_iter_recurse (&it, &f);
      while (bson_iter_next (&f)) {
         if (strcmp (bson_iter_key (&f), "key") == 0) {
            char *text = lab_value_to_text (bson_iter_value (&f));
            BSON_APPEND_UTF8 (&d, "key", text);
            bson_free (text);
         } else {
            bson_append_value (&d, bson_iter_key (&f), -1, bson_iter_value (&f));
         }
      }
      bson_append_document_end (&arr, &d);
   }
   bson_append_array_end (doc, &arr);
}

/* lab_fold_run_copy_describe -- see fold_run_private.h. */
void
lab_fold_run_copy_describe (const run_t *r, bson_t *doc)
{
   bson_t d;

   BSON_APPEND_DOCUMENT_BEGIN (doc, "copy", &d);
   BSON_APPEND_UTF8 (&d, "read",
                     "the source in its natural order (a collection scan): no index needed on it, "
                     "nothing built on it");
   described (&d, "indexes", &r->copy_build);
   described (&d, "indexes_not_built", &r->copy_skip);
   bson_append_document_end (doc, &d);
}

/* print_names -- the names in the index array at `path` of plan, ", "-separated, with why when asked. */
static void
print_names (const bson_t *plan, const char *path, bool why, FILE *out)
{
   bson_iter_t it, arr, f;
   int n = 0;

   if (bson_iter_init (&it, plan) && bson_iter_find_descendant (&it, path, &arr) &&
       bson_iter_recurse (&arr, &it)) {
      while (bson_iter_next (&it)) {
         bson_iter_t d;
         fprintf (out, "%s", n++ ? ", " : "");
         if (bson_iter_recurse (&it, &d) && bson_iter_find (&d, "name") && BSON_ITER_HOLDS_UTF8 (&d)) {
            fprintf (out, "%s", bson_iter_utf8 (&d, NULL));
         }
         if (why && bson_iter_recurse (&it, &f) && bson_iter_find (&f, "why") && BSON_ITER_HOLDS_UTF8 (&f)) {
            fprintf (out, " (%s)", bson_iter_utf8 (&f, NULL));
         }
      }
   }
   fprintf (out, "%s", n ? "" : "none");
}

/* lab_fold_run_copy_print -- see fold_run_private.h. */
void
lab_fold_run_copy_print (const bson_t *plan, FILE *out)
{
   bson_iter_t it;

   if (!bson_iter_init_find (&it, plan, "copy")) {
      return;
   }
   fprintf (out,
            "copy:        every document as it is, in the source's natural order: no index needed on the "
            "source, nothing built on it\n");
   fprintf (out, "indexes:     built on the copy after the data: ");
   print_names (plan, "copy.indexes", false, out);
   fprintf (out, "\n             not built (the store cannot build them): ");
   print_names (plan, "copy.indexes_not_built", true, out);
   fputc ('\n', out);
}

/* lab_fold_run_copy_opts_check -- see fold_run_private.h. */
bool
lab_fold_run_copy_opts_check (const lab_fold_run_opts_t *o, bson_error_t *error)
{
   if (o->target.key && strcmp (o->target.key, "_id") != 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--shape copy copies every document as it is: --key %s does not apply (each document is "
                     "its own master, by its _id)",
                     o->target.key);
      return false;
   }
   if (o->parallel > 1) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--shape copy reads the source in its natural order with one cursor, so that the copy's "
                     "records follow the source's: --parallel %d does not apply",
                     o->parallel);
      return false;
   }
   if (o->create_index) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--shape copy reads the source in natural order and builds nothing on it: "
                     "--create-index does not apply");
      return false;
   }
   if (o->hoist_spec && strcmp (o->hoist_spec, "auto") != 0 && strcmp (o->hoist_spec, "none") != 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--shape copy copies every document as it is: --hoist does not apply");
      return false;
   }
   return true;
}
