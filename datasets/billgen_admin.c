/*
 * billgen_admin.c -- the `billgen` commands that look after a database rather than fill it: collections
 * (what is there, who wrote it, the indexes layoutlab built) and clean (remove what layoutlab created).
 * The lists and the removal are the store library's (store/mark.h); asking the user is done here.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/error.h"
#include "core/log.h"
#include "core/opts.h"
#include "store/mark.h"
#include "store/store.h"
#include "datasets/billgen_cli.h"

static const char *USAGE_COLLECTIONS =
   "Usage: billgen collections [--require-layoutlab] [options]\n"
   "\n"
   "List the collections of the database (--uri, --db) with their documents and who wrote them: every\n"
   "collection a layoutlab tool writes is recorded in the database's _layoutlab collection (tool, time,\n"
   "command line, settings), which is not listed itself. Then the indexes layoutlab built (collection,\n"
   "name, keys, size, when, by which command line), those on a collection layoutlab did not write marked\n"
   "so. With --json, the lists as JSON. `billgen clean` removes what layoutlab created.\n"
   "\n"
   "Options:\n"
   "  --require-layoutlab  fail (exit 2, naming them) when the database holds a collection layoutlab did\n"
   "                       not write: scripts/demo.sh checks its target database this way before writing\n"
   "\n"
   "Examples:\n"
   "  billgen collections --uri mongodb://db1/hospital\n"
   "  billgen collections --uri mongodb://db1/ --db layoutlab_demo --require-layoutlab\n\n";

/* keys_text -- an index's key pattern as the shell writes it, "{bill_id: 1, line_no: 1}", into buf. */
static const char *
keys_text (const lab_store_index_spec_t *spec, char *buf, size_t len)
{
   size_t off;
   int i;

   bson_strncpy (buf, spec->n ? "{" : "{?", len);
   for (i = 0; i < spec->n; i++) {
      off = strlen (buf);
      bson_snprintf (buf + off, len - off, "%s%s: 1", i ? ", " : "", spec->fields[i]);
   }
   off = strlen (buf);
   bson_snprintf (buf + off, len - off, "}");
   return buf;
}

/* size_text -- "1.50 MiB", or "size unknown" for -1. */
static const char *
size_text (int64_t bytes, char *buf, size_t len)
{
   if (bytes < 0) {
      bson_strncpy (buf, "size unknown", len);
      return buf;
   }
   return lab_format_bytes ((uint64_t)bytes, buf, len);
}

/* command_text -- a record's command_line array joined by spaces into s (the arguments are redacted). */
static void
command_text (const bson_t *doc, bson_string_t *s)
{
   bson_iter_t it, arr;

   if (bson_iter_init_find (&it, doc, "command_line") && BSON_ITER_HOLDS_ARRAY (&it) &&
       bson_iter_recurse (&it, &arr)) {
      while (bson_iter_next (&arr)) {
         if (BSON_ITER_HOLDS_UTF8 (&arr)) {
            bson_string_append_printf (s, "%s%s", s->len ? " " : "", bson_iter_utf8 (&arr, NULL));
         }
      }
   }
}

/* list_indexes -- the indexes layoutlab built (its records in _layoutlab): printed unless quiet or the
 * JSON goes to stdout, and each record (without _id) appended to the array `out`. */
static bool
list_indexes (lab_store_session_t *sess, const lab_cli_common_t *c, bson_t *out, bson_error_t *error)
{
   lab_store_mark_index_t *recs = NULL;
   size_t i, n = 0;
   char key[16], keys[512], size[32];
   const char *k;

   if (!lab_store_mark_indexes (sess, &recs, &n, error)) {
      return false;
   }
   for (i = 0; i < n; i++) {
      bson_uint32_to_string ((uint32_t)i, &k, key, sizeof key);
      BSON_APPEND_DOCUMENT (out, k, recs[i].doc);
      if (!c->quiet && !(c->json_path && !strcmp (c->json_path, "-"))) {
         bson_string_t *cmd = bson_string_new (NULL);
         command_text (recs[i].doc, cmd);
         if (i == 0) {
            printf ("\nindexes layoutlab built:\n");
         }
         printf ("%-32s %s %s, %s, built at %s by: %s%s\n", recs[i].collection, recs[i].name,
                 keys_text (&recs[i].spec, keys, sizeof keys),
                 size_text (recs[i].size_bytes, size, sizeof size),
                 *recs[i].created_at ? recs[i].created_at : "?", cmd->len ? cmd->str : recs[i].tool,
                 recs[i].on_foreign ? "  (on a collection layoutlab did not write)" : "");
         bson_string_free (cmd, true);
      }
   }
   lab_store_mark_indexes_free (recs, n);
   return true;
}

/* lab_gen_cli_collections -- the database's collections, who wrote them, the indexes layoutlab built, and
 * --require-layoutlab. */
int
lab_gen_cli_collections (const lab_cli_run_t *cli, int argc, char **argv)
{
   lab_cli_common_t c;
   bson_error_t error = { 0 };
   lab_store_t *store = NULL;
   lab_store_session_t *sess = NULL;
   char **names = NULL;
   bool require = false;
   bson_t list = BSON_INITIALIZER, indexes = BSON_INITIALIZER;
   size_t i, nforeign = 0;
   bson_string_t *foreign = bson_string_new (NULL);
   int rc = LAB_EXIT_FAILURE;
   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_FLAG ("--require-layoutlab", 0, &require),
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts, .common = &c };

   lab_cli_common_init (&c);
   if (!lab_cli_parse (&spec, argc, argv, 2, &error) ||
       !lab_cli_output_check (c.json_path, "--json", &error)) {
      rc = lab_gen_cli_usage_error (&error, "collections");
      goto done;
   }
   if (lab_gen_cli_help (&c, USAGE_COLLECTIONS)) {
      rc = LAB_EXIT_OK;
      goto done;
   }
   lab_log_set (&c);
   store = lab_gen_cli_open_store (cli, "billgen collections", &c, &(lab_gen_compress_opts_t){ 0 }, false,
                                   false, &error); /* listing creates nothing */
   sess = store ? lab_store_session_open (store, &error) : NULL;
   if (!sess || !lab_store_list (sess, &names, &error)) {
      lab_log_error ("%s", error.message);
      rc = lab_error_exit_code (&error);
      goto done;
   }
   for (i = 0; names[i]; i++) {
      bson_t *mark = NULL, d;
      bson_iter_t it;
      int64_t n = -1;
      bool foreign_uuid = false;

      if (strcmp (names[i], LAB_MARK_COLL) == 0) {
         continue;
      }
      if (!lab_store_mark_get (sess, names[i], &mark, &foreign_uuid, &error) ||
          !lab_store_count_estimated (sess, names[i], &n, &error)) {
         bson_destroy (mark);
         lab_log_error ("%s", error.message);
         rc = lab_error_exit_code (&error);
         goto done;
      }
      if (!c.quiet && !(c.json_path && !strcmp (c.json_path, "-"))) {
         const char *tool = mark && bson_iter_init_find (&it, mark, "tool") && BSON_ITER_HOLDS_UTF8 (&it)
                               ? bson_iter_utf8 (&it, NULL)
                               : "?";
         char when[64] = "";
         if (mark && bson_iter_init_find (&it, mark, "written_at") && BSON_ITER_HOLDS_UTF8 (&it)) {
            bson_snprintf (when, sizeof when, " at %s", bson_iter_utf8 (&it, NULL));
         }
         printf ("%-32s %12lld documents  %s%s%s\n", names[i], (long long)n,
                 mark ? "written by layoutlab: " : "not written by layoutlab", mark ? tool : "", when);
      }
      BSON_APPEND_DOCUMENT_BEGIN (&list, names[i], &d);
      BSON_APPEND_INT64 (&d, "documents", n);
      BSON_APPEND_BOOL (&d, "layoutlab", mark != NULL);
      if (mark) {
         BSON_APPEND_DOCUMENT (&d, "provenance", mark);
      }
      bson_append_document_end (&list, &d);
      if (!mark) {
         bson_string_append_printf (foreign, "%s%s", nforeign ? ", " : "", names[i]);
         nforeign++;
      }
      bson_destroy (mark);
   }
   rc = LAB_EXIT_OK;
   if (require && nforeign > 0) {
      lab_error_set (
         &error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
         "database '%s' on %s holds %zu collection(s) layoutlab did not write: %s; nothing has been "
         "written: choose another database (--db NAME)",
         lab_store_db (store), lab_store_uri_redacted (store), nforeign, foreign->str);
      lab_log_error ("%s", error.message);
      rc = LAB_EXIT_USAGE;
   }
   if (!list_indexes (sess, &c, &indexes, &error)) {
      lab_log_error ("%s", error.message);
      rc = lab_error_exit_code (&error);
   }
   if (c.json_path) {
      bson_t j;
      lab_gen_cli_summary_begin (&j, cli, rc, &error, "collections", store, "");
      BSON_APPEND_UTF8 (&j, "db", store ? lab_store_db (store) : "");
      BSON_APPEND_DOCUMENT (&j, "collections", &list);
      BSON_APPEND_ARRAY (&j, "indexes", &indexes);
      BSON_APPEND_INT64 (&j, "not_layoutlab", (int64_t)nforeign);
      rc = lab_gen_cli_write_summary (&c, &j, rc);
   }
done:
   bson_string_free (foreign, true);
   bson_destroy (&list);
   bson_destroy (&indexes);
   bson_strfreev (names);
   lab_store_session_close (sess);
   lab_store_close (store);
   return rc;
}

static const char *USAGE_CLEAN =
   "Usage: billgen clean [--yes] [--dry-run] [options]\n"
   "\n"
   "Remove what layoutlab created in the database (--uri, --db): every collection with a valid marker in\n"
   "_layoutlab (written by billgen generate or import, fold-details, scancmp), every index layoutlab built\n"
   "on a collection it did not write (the indexes of its own collections go with them), their records and\n"
   "markers, and last _layoutlab itself when nothing else is left in it. Nothing else is touched: a\n"
   "collection without a marker, or whose marker is for an earlier collection of that name (dropped and\n"
   "created again by someone else since: its UUID differs), is left alone, its documents and its other\n"
   "indexes too. What no longer exists is reported and skipped.\n"
   "\n"
   "It lists what it will remove (stdout), then asks on a terminal (stdin and stderr both terminals) or\n"
   "needs --yes; without either nothing is removed (exit 2).\n"
   "\n"
   "Options:\n"
   "  --yes                remove without asking\n"
   "  --dry-run            only list what would be removed (exit 0)\n"
   "\n"
   "Examples:\n"
   "  billgen clean --dry-run --uri mongodb://db1/hospital   # what layoutlab left in 'hospital'\n"
   "  billgen clean --uri mongodb://db1/ --db layoutlab_demo --yes\n"
   "  billgen clean --uri wiredtiger:./layoutlab-data --json -   # the embedded store; the list as JSON\n\n";

static const char *const clean_actions[] = { "drop", "with collection", "gone", "keep" }; /* action */
static const char *const clean_verbs[] = { "drop", "drop", "skip", "keep" };

/* clean_print -- one line per item of the plan on stdout. */
static void
clean_print (const lab_mark_clean_plan_t *plan, const char *db)
{
   char keys[512], size[32];
   size_t i;

   printf ("layoutlab's collections and indexes in database '%s':\n", db);
   for (i = 0; i < plan->n; i++) {
      const lab_mark_clean_item_t *it = &plan->v[i];
      if (it->kind == LAB_MARK_CLEAN_INDEX) {
         printf ("  %s index %s %s of '%s' (%s): %s\n", clean_verbs[it->action], it->index,
                 keys_text (&it->spec, keys, sizeof keys), it->collection,
                 size_text (it->size_bytes, size, sizeof size), it->note);
      } else if (it->documents >= 0) {
         printf ("  %s collection '%s' (%lld documents%s%s): %s\n", clean_verbs[it->action], it->collection,
                 (long long)it->documents, it->size_bytes >= 0 ? ", " : "",
                 it->size_bytes >= 0 ? size_text (it->size_bytes, size, sizeof size) : "", it->note);
      } else {
         printf ("  %s collection '%s': %s\n", clean_verbs[it->action], it->collection, it->note);
      }
   }
}

/* clean_json -- the plan (after a run: what was done) as the summary's "items". */
static void
clean_json (bson_t *j, const lab_mark_clean_plan_t *plan)
{
   static const char *const kinds[] = { "collection", "index", "marker collection" };
   char key[16];
   const char *k;
   bson_t arr, d, keys;
   size_t i;
   int f;

   BSON_APPEND_ARRAY_BEGIN (j, "items", &arr);
   for (i = 0; i < plan->n; i++) {
      const lab_mark_clean_item_t *it = &plan->v[i];
      bson_uint32_to_string ((uint32_t)i, &k, key, sizeof key);
      BSON_APPEND_DOCUMENT_BEGIN (&arr, k, &d);
      BSON_APPEND_UTF8 (&d, "kind", kinds[it->kind]);
      BSON_APPEND_UTF8 (&d, "action", clean_actions[it->action]);
      BSON_APPEND_UTF8 (&d, "collection", it->collection);
      if (it->kind == LAB_MARK_CLEAN_INDEX) {
         BSON_APPEND_UTF8 (&d, "name", it->index);
         BSON_APPEND_DOCUMENT_BEGIN (&d, "keys", &keys);
         for (f = 0; f < it->spec.n; f++) {
            BSON_APPEND_INT32 (&keys, it->spec.fields[f], 1);
         }
         bson_append_document_end (&d, &keys);
      }
      BSON_APPEND_INT64 (&d, "documents", it->documents);
      BSON_APPEND_INT64 (&d, "size_bytes", it->size_bytes);
      BSON_APPEND_UTF8 (&d, "note", it->note ? it->note : "");
      BSON_APPEND_BOOL (&d, "removed", it->done);
      bson_append_document_end (&arr, &d);
   }
   bson_append_array_end (j, &arr);
}

/* clean_confirm -- the user's word for the plan: --yes, or "y" to the question on a terminal; false
 * (LAB_ERROR_USAGE naming --yes, nothing removed) without either. */
static bool
clean_confirm (bool yes, size_t ndrop, const char *db, bson_error_t *error)
{
   char q[512];

   if (yes) {
      return true;
   }
   if (!lab_cli_can_ask ()) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "not removing anything without confirmation: stdin is not a terminal to ask on; add "
                     "--yes to remove the %zu item(s) listed, or --dry-run to only list them",
                     ndrop);
      return false;
   }
   bson_snprintf (q, sizeof q, "remove the %zu item(s) listed above from database '%s'?", ndrop, db);
   if (!lab_cli_confirm_tty (q, NULL)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "nothing removed (the answer was not yes; --yes removes without asking)");
      return false;
   }
   return true;
}

/* lab_gen_cli_clean -- see billgen_cli.h. */
int
lab_gen_cli_clean (const lab_cli_run_t *cli, int argc, char **argv)
{
   lab_cli_common_t c;
   bson_error_t error = { 0 };
   lab_store_t *store = NULL;
   lab_mark_clean_plan_t plan = { 0 };
   bool yes = false, dry = false, ran = false;
   size_t i, ndrop = 0, nremoved = 0;
   int rc = LAB_EXIT_FAILURE;
   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_FLAG ("--yes", 0, &yes),
      LAB_CLI_OPT_FLAG ("--dry-run", 0, &dry),
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts, .common = &c };

   lab_cli_common_init (&c);
   if (!lab_cli_parse (&spec, argc, argv, 2, &error) ||
       !lab_cli_output_check (c.json_path, "--json", &error)) {
      return lab_gen_cli_usage_error (&error, "clean");
   }
   if (lab_gen_cli_help (&c, USAGE_CLEAN)) {
      return LAB_EXIT_OK;
   }
   lab_log_set (&c);
   store = lab_gen_cli_open_store (cli, "billgen clean", &c, &(lab_gen_compress_opts_t){ 0 }, false, false,
                                   &error);
   if (!store || !lab_store_mark_clean_plan (store, &plan, &error)) {
      lab_log_error ("%s", error.message);
      rc = lab_error_exit_code (&error);
      goto summary;
   }
   for (i = 0; i < plan.n; i++) {
      ndrop += plan.v[i].action == LAB_MARK_CLEAN_DROP;
   }
   if (!c.quiet && !(c.json_path && !strcmp (c.json_path, "-"))) {
      clean_print (&plan, lab_store_db (store));
   }
   if (plan.n == 0 || dry) {
      lab_log_info ("%s", plan.n == 0 ? "nothing layoutlab created is left in this database"
                                      : "--dry-run: nothing removed");
      rc = LAB_EXIT_OK;
      goto summary;
   }
   if (!clean_confirm (yes, ndrop, lab_store_db (store), &error)) {
      rc = lab_gen_cli_usage_error (&error, "clean");
      goto summary;
   }
   ran = true;
   if (!lab_store_mark_clean_run (store, &plan, &error)) {
      lab_log_error ("%s", error.message);
      rc = lab_error_exit_code (&error);
   } else {
      rc = LAB_EXIT_OK;
   }
   for (i = 0; i < plan.n; i++) {
      nremoved += plan.v[i].done && plan.v[i].action == LAB_MARK_CLEAN_DROP;
   }
   lab_log_info ("removed %zu of the %zu item(s) listed from database '%s'%s", nremoved, ndrop,
                 lab_store_db (store), rc == LAB_EXIT_OK ? "" : " before the failure");
summary:
   if (c.json_path) {
      bson_t j;
      lab_gen_cli_summary_begin (&j, cli, rc, &error, "clean", store, "");
      BSON_APPEND_UTF8 (&j, "db", store ? lab_store_db (store) : "");
      BSON_APPEND_BOOL (&j, "dry_run", dry);
      BSON_APPEND_BOOL (&j, "ran", ran);
      BSON_APPEND_INT64 (&j, "to_remove", (int64_t)ndrop);
      BSON_APPEND_INT64 (&j, "removed", (int64_t)nremoved);
      clean_json (&j, &plan);
      rc = lab_gen_cli_write_summary (&c, &j, rc);
   }
   lab_store_mark_clean_plan_free (&plan);
   lab_store_close (store);
   return rc;
}
