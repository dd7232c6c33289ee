/*
 * fields.c -- the typed getters of fields.h, shared by the readers of the workloads (workloads.c) and the
 * mix (mix.c). Every refusal is LAB_ERROR_IO / EINVAL: the results file is malformed.
 */
#include <errno.h>
#include <math.h>

#include "compare/fields.h"
#include "core/error.h"

/* lab_cmp_field_find -- see fields.h. */
bool
lab_cmp_field_find (const bson_t *doc, const char *path, bson_iter_t *out)
{
   bson_iter_t it;

   return bson_iter_init (&it, doc) && bson_iter_find_descendant (&it, path, out) &&
          !BSON_ITER_HOLDS_NULL (out);
}

/* lab_cmp_field_figure -- see fields.h. */
bool
lab_cmp_field_figure (const bson_t *doc, const char *path, const char *required, const char *where,
                      double *out, bson_error_t *error)
{
   bson_iter_t it;

   *out = -1;
   if (!lab_cmp_field_find (doc, path, &it)) {
      if (required) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: no \"%s\"%s", where, path, required);
      }
      return !required;
   }
   if (!BSON_ITER_HOLDS_NUMBER (&it) || !isfinite (bson_iter_as_double (&it)) ||
       (bson_iter_as_double (&it) < 0 && (required || bson_iter_as_double (&it) != -1.0))) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"%s\" must be a number of at least 0%s", where, path,
                     required ? "" : " (-1 or null: unknown)");
      return false;
   }
   *out = bson_iter_as_double (&it);
   return true;
}

/* lab_cmp_field_flag -- see fields.h. */
bool
lab_cmp_field_flag (const bson_t *doc, const char *key, const char *where, int *out, bson_error_t *error)
{
   bson_iter_t it;

   *out = -1;
   if (!lab_cmp_field_find (doc, key, &it)) {
      return true;
   }
   if (!BSON_ITER_HOLDS_BOOL (&it)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"%s\" must be true or false", where, key);
      return false;
   }
   *out = bson_iter_bool (&it) ? 1 : 0;
   return true;
}

/* lab_cmp_field_string -- see fields.h. */
bool
lab_cmp_field_string (const bson_t *doc, const char *key, const char *where, const char **out,
                      bson_error_t *error)
{
   bson_iter_t it;

   *out = NULL;
   if (!lab_cmp_field_find (doc, key, &it)) {
      return true;
   }
   if (!BSON_ITER_HOLDS_UTF8 (&it)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"%s\" must be a string", where, key);
      return false;
   }
   *out = bson_iter_utf8 (&it, NULL);
   return true;
}

/* lab_cmp_field_view -- see fields.h. */
bool
lab_cmp_field_view (const bson_t *doc, const char *key, bool array, const char *where, bson_t *out,
                    bool *found, bson_error_t *error)
{
   const uint8_t *data;
   uint32_t len;
   bson_iter_t it;

   bson_init (out);
   *found = false;
   if (!lab_cmp_field_find (doc, key, &it)) {
      return true;
   }
   if (array ? !BSON_ITER_HOLDS_ARRAY (&it) : !BSON_ITER_HOLDS_DOCUMENT (&it)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"%s\" must be %s", where, key,
                     array ? "an array" : "an object");
      return false;
   }
   if (array) {
      bson_iter_array (&it, &len, &data);
   } else {
      bson_iter_document (&it, &len, &data);
   }
   if (!bson_init_static (out, data, len)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"%s\" is not a valid document", where, key);
      return false;
   }
   *found = true;
   return true;
}

/* lab_cmp_field_entry -- see fields.h. */
bool
lab_cmp_field_entry (const bson_iter_t *it, const char *what, bson_t *out, bson_error_t *error)
{
   const uint8_t *data;
   uint32_t len;

   if (!BSON_ITER_HOLDS_DOCUMENT (it)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s is not an object", what);
      return false;
   }
   bson_iter_document (it, &len, &data);
   if (!bson_init_static (out, data, len)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s is not a valid document", what);
      return false;
   }
   return true;
}

/* lab_cmp_field_runs -- see fields.h. */
bool
lab_cmp_field_runs (const bson_t *doc, const char *key, double single, const char *where, lab_stat_t *out,
                    bson_error_t *error)
{
   double v[LAB_RESULTS_MAX_RUNS], x;
   int no[LAB_RESULTS_MAX_RUNS];
   bson_t arr, e;
   bson_iter_t it;
   bool found;
   size_t n = 0;

   if (!lab_cmp_field_view (doc, "runs", true, where, &arr, &found, error)) {
      return false;
   }
   if (!found) {
      *out = lab_results_stat_runs (&single, NULL, 1);
      return true;
   }
   bson_iter_init (&it, &arr);
   while (bson_iter_next (&it) && n < LAB_RESULTS_MAX_RUNS) {
      char *w = bson_strdup_printf ("%s: runs[%zu]", where, n);
      bool ok = lab_cmp_field_entry (&it, w, &e, error) &&
                lab_cmp_field_figure (&e, key, "", w, &v[n], error) &&
                lab_cmp_field_figure (&e, "run", NULL, w, &x, error);
      bson_free (w);
      if (!ok) {
         return false;
      }
      no[n++] = x > 0 ? (int)x : 0;
   }
   *out = n ? lab_results_stat_runs (v, no, n) : lab_results_stat_runs (&single, NULL, 1);
   return true;
}
