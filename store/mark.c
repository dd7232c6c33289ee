/*
 * mark.c -- the provenance marker's command-line side (mark.h): the common marker fields, the drop
 * guard, and the collections of a database layoutlab did not write.
 */
#include "mark.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/log.h"
#include "core/opts.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* lab_store_mark_begin -- see mark.h. */
void
lab_store_mark_begin (bson_t *doc, const char *tool, int argc, char **argv)
{
   char now[40], idx[16];
   const char *key;
   bson_t arr;
   int i;

   bson_init (doc);
   BSON_APPEND_UTF8 (doc, "tool", tool);
   BSON_APPEND_UTF8 (doc, "version", LAB_VERSION);
   lab_store_mark_now (now, sizeof now);
   BSON_APPEND_UTF8 (doc, "written_at", now);
   BSON_APPEND_ARRAY_BEGIN (doc, "command_line", &arr);
   for (i = 0; i < argc; i++) {
      char *shown = lab_cli_arg_redacted (argv[i]);
      bson_uint32_to_string ((uint32_t)i, &key, idx, sizeof idx);
      BSON_APPEND_UTF8 (&arr, key, shown);
      bson_free (shown);
   }
   bson_append_array_end (doc, &arr);
}

/* lab_store_mark_write_add -- see mark.h. */
bool
lab_store_mark_write_add (lab_store_session_t *sess, const char *coll, const bson_t *entry, bool *added,
                          bson_error_t *error)
{
   bson_t *mark = NULL, fields = BSON_INITIALIZER, arr;
   bson_iter_t it, old;
   char idx[16];
   const char *key;
   uint32_t n = 0;
   bool ok = false;

   if (added) {
      *added = false;
   }
   if (!lab_store_mark_get (sess, coll, &mark, NULL, error)) {
      goto done;
   }
   if (!mark) {
      ok = true; /* not layoutlab's: nothing to record it in */
      goto done;
   }
   bson_copy_to_excluding_noinit (mark, &fields, "writes", NULL);
   BSON_APPEND_ARRAY_BEGIN (&fields, "writes", &arr);
   if (bson_iter_init_find (&it, mark, "writes") && BSON_ITER_HOLDS_ARRAY (&it) &&
       bson_iter_recurse (&it, &old)) {
      while (bson_iter_next (&old)) {
         bson_uint32_to_string (n++, &key, idx, sizeof idx);
         bson_append_iter (&arr, key, -1, &old);
      }
   }
   bson_uint32_to_string (n, &key, idx, sizeof idx);
   BSON_APPEND_DOCUMENT (&arr, key, entry);
   bson_append_array_end (&fields, &arr);
   ok = lab_store_mark_put (sess, coll, &fields, error);
   if (ok && added) {
      *added = true;
   }
done:
   bson_destroy (mark);
   bson_destroy (&fields);
   return ok;
}

/* lab_store_mark_drop_guard -- see mark.h. */
bool
lab_store_mark_drop_guard (lab_store_t *store, const char *coll, bool yes, const char *opt,
                           lab_store_mark_confirm_fn confirm, void *ctx, bson_error_t *error)
{
   lab_store_session_t *sess;
   lab_store_coll_stats_t st;
   bson_t *mark = NULL;
   bool exists = false, foreign = false, ok = false;
   char size[32], what[512];

   if (lab_store_backend (store) != LAB_BACKEND_MONGO) {
      return true;
   }
   sess = lab_store_session_open (store, error);
   if (!sess) {
      return false;
   }
   if (!lab_store_exists (sess, coll, &exists, error)) {
      goto done;
   }
   if (!exists) {
      ok = true;
      goto done;
   }
   if (!lab_store_mark_get (sess, coll, &mark, &foreign, error)) {
      goto done;
   }
   if (mark) {
      ok = true;
      goto done;
   }
   if (!lab_store_stats (sess, coll, &st, error)) {
      goto done;
   }
   lab_format_bytes ((uint64_t)(st.data_size_bytes > 0 ? st.data_size_bytes : 0), size, sizeof size);
   bson_snprintf (what, sizeof what,
                  "'%s.%s' on %s was not written by layoutlab (%s): %lld documents, %s of data, "
                  "%lld bytes on disk",
                  lab_store_db (store), coll, lab_store_uri_redacted (store),
                  foreign ? "its marker in " LAB_MARK_COLL " is for another collection of that name, "
                            "dropped and created again since"
                          : "no marker in " LAB_MARK_COLL,
                  (long long)st.count, size, (long long)st.storage_size_bytes);
   if (yes) {
      lab_log_info ("%s: %s drops it (--yes)", what, opt);
      ok = true;
      goto done;
   }
   if (confirm) {
      char q[640];
      lab_log_info ("%s", what);
      bson_snprintf (q, sizeof q, "%s: drop '%s.%s' and everything in it?", opt, lab_store_db (store), coll);
      if (confirm (q, ctx)) {
         ok = true;
         goto done;
      }
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "%s: '%s' not dropped (the answer was not yes); nothing has been written", opt, coll);
      goto done;
   }
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                  "%s refused: %s. Nothing has been dropped or written. To drop it anyway add --yes; or "
                  "write somewhere else (another collection, or --db NAME)",
                  opt, what);
done:
   bson_destroy (mark);
   lab_store_session_close (sess);
   return ok;
}

/* lab_store_mark_write_guard -- see mark.h. */
bool
lab_store_mark_write_guard (lab_store_t *store, lab_store_session_t *sess, const char *coll,
                            const char *const *allow, const char *what, bool *allowed, bson_error_t *error)
{
   lab_store_coll_stats_t st;
   bson_t *mark = NULL;
   bool exists = false, foreign = false;
   const char *const *a;
   char size[32];

   if (allowed) {
      *allowed = false;
   }
   if (!lab_store_exists (sess, coll, &exists, error)) {
      return false;
   }
   if (!exists) {
      return true;
   }
   if (!lab_store_mark_get (sess, coll, &mark, &foreign, error)) {
      return false;
   }
   if (mark) {
      bson_destroy (mark);
      return true;
   }
   for (a = allow; a && *a; a++) {
      if (strcmp (*a, coll) == 0) {
         lab_log_info ("%s on '%s.%s', a collection layoutlab did not write: named by --allow-writes %s",
                       what, lab_store_db (store), coll, coll);
         if (allowed) {
            *allowed = true;
         }
         return true;
      }
   }
   if (!lab_store_stats (sess, coll, &st, error)) {
      return false;
   }
   lab_format_bytes ((uint64_t)(st.data_size_bytes > 0 ? st.data_size_bytes : 0), size, sizeof size);
   /* the copy command on a line of its own: a long URI must not cut the error's own words short */
   lab_log_info ("to measure '%s' without changing it, make a marked copy and measure that: fold-details "
                 "--uri '%s' --db %s --shape copy --src %s --dst %s_copy --verify",
                 coll, lab_store_uri_redacted (store), lab_store_db (store), coll, coll);
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                  "%s refused: layoutlab did not write '%s.%s' (%s): %lld documents, %s of data. Nothing "
                  "has been sent to it. Measure a marked copy of it (fold-details --shape copy, above) or, "
                  "on a staging database only, name it with --allow-writes %s",
                  what, lab_store_db (store), coll,
                  foreign ? "its marker in " LAB_MARK_COLL " is for an earlier collection of that name"
                          : "no marker in " LAB_MARK_COLL,
                  (long long)st.count, size, coll);
   return false;
}

/* lab_store_mark_foreign -- see mark.h. */
bool
lab_store_mark_foreign (lab_store_t *store, char ***names, bson_error_t *error)
{
   lab_store_session_t *sess = lab_store_session_open (store, error);
   char **all = NULL;
   size_t i, n = 0;
   bool ok = false;

   *names = NULL;
   if (!sess || !lab_store_list (sess, &all, error)) {
      goto done;
   }
   for (i = 0; all[i]; i++) {
   }
   *names = bson_malloc0 ((i + 1) * sizeof (char *));
   for (i = 0; all[i]; i++) {
      bson_t *mark = NULL;
      if (strcmp (all[i], LAB_MARK_COLL) == 0) {
         continue;
      }
      if (!lab_store_mark_get (sess, all[i], &mark, NULL, error)) {
         bson_strfreev (*names);
         *names = NULL;
         goto done;
      }
      if (!mark) {
         (*names)[n++] = bson_strdup (all[i]);
      }
      bson_destroy (mark);
   }
   ok = true;
done:
   bson_strfreev (all);
   lab_store_session_close (sess);
   return ok;
}

/* str_field -- the string `key` of doc, or "". */
static const char *
str_field (const bson_t *doc, const char *key)
{
   bson_iter_t it;

   return bson_iter_init_find (&it, doc, key) && BSON_ITER_HOLDS_UTF8 (&it) ? bson_iter_utf8 (&it, NULL) : "";
}

/* index_record -- *r from an index record (fields copied); its key pattern left empty (n 0) when `keys` is
 * not 1..LAB_STORE_INDEX_MAX_FIELDS ascending fields. */
static void
index_record (const bson_t *doc, lab_store_mark_index_t *r)
{
   bson_iter_t it, keys;
   bool ok = true;
   int i;

   memset (r, 0, sizeof *r);
   r->id = bson_strdup (str_field (doc, "_id"));
   r->collection = bson_strdup (str_field (doc, "collection"));
   r->name = bson_strdup (str_field (doc, "name"));
   r->created_at = bson_strdup (str_field (doc, "created_at"));
   r->tool = bson_strdup (str_field (doc, "tool"));
   r->size_bytes = bson_iter_init_find (&it, doc, "size_bytes") && BSON_ITER_HOLDS_NUMBER (&it)
                      ? bson_iter_as_int64 (&it)
                      : -1;
   r->on_foreign = bson_iter_init_find (&it, doc, "on_foreign") && bson_iter_as_bool (&it);
   r->doc = bson_new ();
   bson_copy_to_excluding_noinit (doc, r->doc, "_id", NULL);
   /* keys: the ascending fields in order, ["a", "b.c"] (a dotted name cannot be a stored key); a
    * document {a: 1} is read too */
   if (bson_iter_init_find (&it, doc, "keys") &&
       (BSON_ITER_HOLDS_ARRAY (&it) || BSON_ITER_HOLDS_DOCUMENT (&it)) && bson_iter_recurse (&it, &keys)) {
      bool arr = BSON_ITER_HOLDS_ARRAY (&it);
      while (ok && bson_iter_next (&keys)) {
         const char *f =
            arr ? (BSON_ITER_HOLDS_UTF8 (&keys) ? bson_iter_utf8 (&keys, NULL) : "") : bson_iter_key (&keys);
         ok = r->spec.n < LAB_STORE_INDEX_MAX_FIELDS && *f &&
              (arr || (BSON_ITER_HOLDS_NUMBER (&keys) && bson_iter_as_double (&keys) == 1.0));
         if (ok) {
            r->spec.fields[r->spec.n++] = bson_strdup (f);
         }
      }
   }
   if (!ok) {
      for (i = 0; i < r->spec.n; i++) {
         bson_free ((char *)r->spec.fields[i]);
         r->spec.fields[i] = NULL;
      }
      r->spec.n = 0;
   }
}

/* lab_store_mark_indexes -- see mark.h. */
bool
lab_store_mark_indexes (lab_store_session_t *sess, lab_store_mark_index_t **records, size_t *n,
                        bson_error_t *error)
{
   lab_store_cursor_t *cur;
   const bson_t *doc;
   size_t cap = 0;
   int r;

   *records = NULL;
   *n = 0;
   cur = lab_store_natural_open (sess, LAB_MARK_COLL, NULL, error);
   if (!cur) {
      if (lab_error_is (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION)) {
         memset (error, 0, sizeof *error); /* nothing recorded yet */
         return true;
      }
      return false;
   }
   while ((r = lab_store_cursor_next (cur, &doc, error)) == 1) {
      if (strcmp (str_field (doc, "kind"), "index") != 0 ||
          strncmp (str_field (doc, "_id"), LAB_MARK_INDEX_PREFIX, strlen (LAB_MARK_INDEX_PREFIX)) != 0) {
         continue;
      }
      if (*n == cap) {
         cap = cap ? 2 * cap : 8;
         *records = bson_realloc (*records, cap * sizeof **records);
      }
      index_record (doc, &(*records)[(*n)++]);
   }
   lab_store_cursor_close (cur);
   if (r < 0) {
      lab_store_mark_indexes_free (*records, *n);
      *records = NULL;
      *n = 0;
      lab_error_prefix (error, "reading the index records of '%s'", LAB_MARK_COLL);
      return false;
   }
   return true;
}

/* lab_store_mark_indexes_free -- see mark.h. */
void
lab_store_mark_indexes_free (lab_store_mark_index_t *records, size_t n)
{
   size_t i;
   int j;

   for (i = 0; i < n; i++) {
      bson_free (records[i].id);
      bson_free (records[i].collection);
      bson_free (records[i].name);
      bson_free (records[i].created_at);
      bson_free (records[i].tool);
      for (j = 0; j < records[i].spec.n; j++) {
         bson_free ((char *)records[i].spec.fields[j]);
      }
      bson_destroy (records[i].doc);
   }
   bson_free (records);
}
