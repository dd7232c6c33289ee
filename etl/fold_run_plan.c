/*
 * fold_run_plan.c -- the plan phase of a fold run: everything checked and decided before anything is
 * written (the server's limits, the source and its key index, the destination, resume or fresh, the
 * hoist list, the key ranges).
 */
#include "fold_run_private.h"

#include "store/mark.h"

/* KEY_CHECK_ROWS -- rows of the source read in _id order to check the key before --create-index builds
 * an index on it */
#define KEY_CHECK_ROWS 100

/* row_has_key -- `row` of the source holds a fold key (lab_fold_row_key); else the refusal, said before
 * --drop-dst drops anything: a source without the key (a CSV imported without its key column) would
 * otherwise fail on its first row after the destination was gone. */
static bool
row_has_key (const run_t *r, const bson_t *row, bson_error_t *error)
{
   bson_value_t kv;
   bson_error_t why;

   if (lab_fold_row_key (r->fold_opts.key, row, &kv, &why)) {
      return true;
   }
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                  "source '%s': %s. Nothing has been dropped or written: fold by a field every row has "
                  "(--key FIELD), or give the source its key (billgen import refuses a CSV without it)",
                  r->o->target.src, why.message);
   return false;
}

/* check_source_keys -- the first `limit` rows of the source in `order` order hold the key (row_has_key).
 * In key order a row without the key comes first (missing and null sort lowest), so one row settles it
 * there; in _id order a sample tells before an index is built on a field no row has. */
static bool
check_source_keys (run_t *r, lab_store_session_t *sess, const char *order, int64_t limit, bson_error_t *error)
{
   lab_store_sorted_opts_t so = { .batch_docs = limit < 1000 ? (int32_t)limit : 0 };
   lab_store_cursor_t *cur = lab_store_sorted_open (sess, r->o->target.src, order, &so, error);
   const bson_t *row;
   int64_t n = 0;
   int rc = 0;

   if (!cur) {
      return false;
   }
   while (n < limit && (rc = lab_store_cursor_next (cur, &row, error)) == 1) {
      n++;
      if (!row_has_key (r, row, error)) {
         lab_store_cursor_close (cur);
         return false;
      }
   }
   lab_store_cursor_close (cur);
   return rc >= 0;
}

/* lab_fold_run_sort_verdict -- see fold_run.h. */
void
lab_fold_run_sort_verdict (const lab_store_facts_plan_t *plan, int64_t est_docs, double avg_bytes, bool allow,
                           int64_t max_docs, lab_fold_run_sort_verdict_t *v)
{
   const lab_store_facts_plan_part_t *p = plan && plan->nparts ? &plan->parts[0] : NULL;
   bool ferret = p && strcmp (p->engine, "ferretdb") == 0;
   double bytes = est_docs > 0 && avg_bytes > 0 ? (double)est_docs * avg_bytes : 0;
   char extra[384] = "", where[160] = "", size[32], mem[32];
   size_t i;

   memset (v, 0, sizeof *v);
   if (max_docs <= 0) {
      max_docs = LAB_FOLD_BLOCKING_SORT_MAX_DOCS;
   }
   if (!plan) {
      bson_snprintf (v->say, sizeof v->say,
                     "no query planner to ask: the embedded store walks the key index and fetches each "
                     "document (IXSCAN + FETCH), no sort");
      return;
   }
   v->observed = true;
   v->sorts = plan->blocking_sort;
   if (plan->multikey) {
      bson_strncpy (extra,
                    "; the key index is multikey (the key field holds an array in some document), so it "
                    "cannot give the documents in key order",
                    sizeof extra);
   } else if (plan->collscan) {
      bson_strncpy (extra, "; it scans the whole collection", sizeof extra);
   }
   if (plan->sharded) {
      for (i = 0; i < plan->nparts; i++) {
         size_t n = strlen (where);
         bson_snprintf (where + n, sizeof where - n, "%s%s%s", i ? ", " : " (shards: ", plan->parts[i].shard,
                        plan->parts[i].blocking_sort ? " sorts" : " walks its index");
      }
      if (where[0]) {
         size_t n = strlen (where);
         bson_snprintf (where + n, sizeof where - n, ")");
      }
   }
   if (!v->sorts) {
      bson_snprintf (v->say, sizeof v->say,
                     "the server walks the key index%s%s (%s: %s): no sort, documents come in index order as "
                     "they are read",
                     p->index[0] ? " " : "", p->index, p->engine, p->stages[0] ? p->stages : "?");
      return;
   }
   v->spills = !ferret && bytes > (double)LAB_FOLD_SORT_MEMORY_BYTES;
   lab_format_bytes ((uint64_t)bytes, size, sizeof size);
   lab_format_bytes ((uint64_t)LAB_FOLD_SORT_MEMORY_BYTES, mem, sizeof mem);
   v->refuse = !allow && est_docs > max_docs;
   if (ferret) {
      bson_snprintf (v->say, sizeof v->say,
                     "the server will sort about %lld documents (%s) in memory before the first one: "
                     "FerretDB sorts every read in memory (sortPushdown false; plan %s)%s%s",
                     (long long)est_docs, size, p->stages[0] ? p->stages : "?", extra, where);
   } else if (v->spills) {
      bson_snprintf (v->say, sizeof v->say,
                     "the server will sort about %lld documents (%s) before the first one: %s in memory, the "
                     "rest spilled to temporary files in its dbPath (allowDiskUse), a %s stage (%s: %s)%s%s",
                     (long long)est_docs, size, mem, p->pipeline_sort ? "$sort" : "SORT", p->engine,
                     p->stages[0] ? p->stages : "?", extra, where);
   } else {
      bson_snprintf (v->say, sizeof v->say,
                     "the server will sort about %lld documents (%s) in memory before the first one, a %s "
                     "stage (%s: %s)%s%s",
                     (long long)est_docs, size, p->pipeline_sort ? "$sort" : "SORT", p->engine,
                     p->stages[0] ? p->stages : "?", extra, where);
   }
   if (v->refuse) {
      size_t n = strlen (v->say);
      bson_snprintf (v->say + n, sizeof v->say - n, "; more than %lld documents: the fold refuses to start",
                     (long long)max_docs);
   }
}

/* lab_fold_run_observe -- see fold_run_private.h. */
bool
lab_fold_run_observe (run_t *r, lab_store_session_t *sess, const bson_value_t *lo, const bson_value_t *hi,
                      bson_t *reply, lab_store_facts_plan_t *plan, bson_error_t *error)
{
   lab_store_sorted_opts_t so = { 0 };

   so.lo = lo;
   so.hi = hi;
   so.batch_docs = r->o->cursor_batch_docs;
   if (!lab_store_sorted_explain (sess, r->o->target.src, r->fold_opts.key, &so, reply, error)) {
      lab_error_prefix (error, "asking the server how it would read '%s' in '%s' order (explain)",
                        r->o->target.src, r->fold_opts.key);
      return false;
   }
   if (!lab_store_facts_explain_parse (reply, plan, error)) {
      lab_error_prefix (error, "the server's plan of the read of '%s'", r->o->target.src);
      return false;
   }
   return true;
}

/* plan_sort -- a server: its own plan of the read (explain of the unbounded read, the hoist sample's and
 * the shape of every range's), what it means, and the refusal of a sort of more than the limit without
 * --allow-blocking-sort, before anything is read or written. --plan only reports the refusal. The
 * embedded store walks its index itself: nothing to ask. */
static bool
plan_sort (run_t *r, lab_store_session_t *sess, bson_error_t *error)
{
   const lab_fold_run_opts_t *o = r->o;
   lab_store_coll_stats_t cs;
   bson_error_t ignore;

   if (lab_fold_shape_natural (o->target.shape)) {
      /* the copy reads the source in arrival order: no index walk to explain, nothing sorted */
      memset (&r->verdict, 0, sizeof r->verdict);
      bson_snprintf (r->verdict.say, sizeof r->verdict.say,
                     "the source is read in natural (arrival) order, a collection scan (COLLSCAN): no index "
                     "walked, nothing sorted");
      return true;
   }
   if (lab_store_backend (r->store) != LAB_BACKEND_MONGO || r->index_missing) {
      lab_fold_run_sort_verdict (NULL, 0, 0, false, 0, &r->verdict);
      return true;
   }
   if (!lab_store_count_estimated (sess, o->target.src, &r->src_est, error)) {
      return false;
   }
   if (lab_store_stats (sess, o->target.src, &cs, &ignore)) {
      r->src_avg = cs.avg_obj_size_bytes;
   }
   if (!lab_fold_run_observe (r, sess, NULL, NULL, &r->explain, &r->plan, error)) {
      return false;
   }
   r->observed = true;
   lab_fold_run_sort_verdict (&r->plan, r->src_est, r->src_avg, o->allow_blocking_sort,
                              o->blocking_sort_max_docs, &r->verdict);
   if (r->verdict.sorts) {
      lab_log_info ("%s", r->verdict.say);
   } else {
      lab_log_debug ("%s", r->verdict.say);
   }
   if (r->verdict.refuse && !o->plan_only) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "'%s': %s. Nothing has been read or written. Give --allow-blocking-sort to fold anyway, "
                     "or give the server an index that serves the order (fold-details --plan shows its plan)",
                     o->target.src, r->verdict.say);
      return false;
   }
   if (r->verdict.sorts && o->allow_blocking_sort) {
      lab_log_info ("the blocking sort is allowed: folding anyway");
   }
   return true;
}

/* resolve_hoist -- the hoist list: none, an explicit list, or sampled from the first masters. */
static bool
resolve_hoist (run_t *r, lab_store_session_t *sess, bson_error_t *error)
{
   const lab_fold_run_opts_t *o = r->o;
   const char *spec = o->hoist_spec ? o->hoist_spec : "auto";
   lab_fold_hoist_sampler_t *smp;
   lab_store_sorted_opts_t so = { 0 };
   lab_store_cursor_t *cur;
   const bson_t *row;
   int rc;
   int64_t nm = 0;
   bool first = true;
   size_t nf = 0, i;
   char **parts;
   size_t n = 0;

   if (strcmp (spec, "none") == 0 || o->copy_only || lab_fold_shape_rows (o->target.shape)) {
      r->hoist = bson_malloc0 (sizeof (char *));
      return true;
   }
   if (strcmp (spec, "auto") != 0) {
      parts = bson_malloc0 ((strlen (spec) + 2) * sizeof (char *));
      {
         char *copy = bson_strdup (spec), *save = NULL, *tok;
         for (tok = strtok_r (copy, ",", &save); tok; tok = strtok_r (NULL, ",", &save)) {
            while (*tok == ' ') {
               tok++;
            }
            if (*tok) {
               parts[n++] = bson_strdup (tok);
            }
         }
         bson_free (copy);
      }
      if (n == 0) {
         bson_strfreev (parts);
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--hoist '%s' names no field (use auto, none or f1,f2,...)", spec);
         return false;
      }
      r->hoist = parts;
      return true;
   }
   smp = lab_fold_hoist_sampler_new (r->fold_opts.key, r->fold_opts.array_field,
                                     o->hoist_sample_masters > 0 ? o->hoist_sample_masters
                                                                 : DEFAULT_SAMPLE_MASTERS);
   so.batch_docs = o->cursor_batch_docs;
   cur = lab_store_sorted_open (sess, o->target.src, r->fold_opts.key, &so, error);
   if (!cur) {
      lab_fold_hoist_sampler_destroy (smp);
      lab_error_prefix (error, "--hoist auto: sampling '%s'", o->target.src);
      return false;
   }
   while ((rc = lab_store_cursor_next (cur, &row, error)) == 1) {
      /* the first row in key order is one without the key, if any is (check_source_keys) */
      if (first && !row_has_key (r, row, error)) {
         lab_store_cursor_close (cur);
         lab_fold_hoist_sampler_destroy (smp);
         return false;
      }
      first = false;
      if (!lab_fold_hoist_sampler_push (smp, row)) {
         break;
      }
   }
   lab_store_cursor_close (cur);
   if (rc < 0) {
      lab_fold_hoist_sampler_destroy (smp);
      lab_error_prefix (error, "--hoist auto: sampling '%s'", o->target.src);
      return false;
   }
   lab_fold_hoist_sampler_result (smp, &r->hoist, &nf, &nm);
   lab_fold_hoist_sampler_destroy (smp);
   {
      char list[512] = "";
      for (i = 0; i < nf; i++) {
         bson_strncpy (list + strlen (list), i ? "," : "", sizeof list - strlen (list));
         bson_strncpy (list + strlen (list), r->hoist[i], sizeof list - strlen (list));
      }
      lab_log_info ("hoist: %zu field(s) constant within each of %lld sampled masters: %s", nf, (long long)nm,
                    nf ? list : "(none)");
   }
   return true;
}

/* plan_limits -- the document cap and the batch sizes under the server's limits. */
static bool
plan_limits (run_t *r, bson_error_t *error)
{
   const lab_fold_run_opts_t *o = r->o;
   lab_store_server_info_t info;
   int64_t max_batch;

   if (!lab_store_server_info (r->store, &info, error)) {
      return false;
   }
   if (o->target.max_doc_bytes > info.max_bson_bytes) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
         "--max-doc-bytes %lld is above the server's maxBsonObjectSize %lld: it would refuse such "
         "documents",
         (long long)o->target.max_doc_bytes, (long long)info.max_bson_bytes);
      return false;
   }
   r->fold_opts.max_doc_bytes = o->target.max_doc_bytes > 0 ? o->target.max_doc_bytes : info.max_bson_bytes;
   /* check names and the cap now, before anything is written (hoist names are checked after resolving) */
   /* a copy folds nothing: its key, _id, is each document's own (no reserved names to keep apart) */
   if (r->o->target.shape != LAB_FOLD_SHAPE_COPY && !lab_fold_opts_check (&r->fold_opts, error)) {
      return false;
   }
   r->batch_docs = o->batch_docs > 0 ? o->batch_docs : DEFAULT_BATCH_DOCS;
   r->batch_bytes = o->batch_bytes > 0 ? (int64_t)o->batch_bytes : DEFAULT_BATCH_BYTES;
   max_batch = lab_store_write_budget_bytes (info.max_message_bytes);
   if (r->batch_bytes > max_batch) {
      lab_log_info ("write batches lowered to %lld bytes: the server's messages are limited to %lld bytes",
                    (long long)max_batch, (long long)info.max_message_bytes);
      r->batch_bytes = max_batch;
   }
   return true;
}

/* plan_dst -- the source exists; what is at the destination: exists, its count, the checkpoint's
 * settings (NULL: none; caller destroys). */
static bool
plan_dst (run_t *r, lab_store_session_t *sess, bool *exists, int64_t *count, bson_t **settings,
          bson_error_t *error)
{
   const lab_fold_run_opts_t *o = r->o;

   if (!lab_store_exists (sess, o->target.src, exists, error)) {
      return false;
   }
   if (!*exists) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                     "source collection '%s' does not exist in %s (database '%s')", o->target.src,
                     lab_store_uri_redacted (r->store), lab_store_db (r->store));
      return false;
   }
   if (!lab_store_exists (sess, o->target.dst, exists, error)) {
      return false;
   }
   if (*exists && !lab_store_count (sess, o->target.dst, count, error)) {
      return false;
   }
   return lab_fold_run_find_state (sess, r->state_coll, "settings", settings, error);
}

/* source_has_field -- some of the source's first rows in natural order hold the key field: else the
 * refusal naming the fields they do hold (a usage error: the --key is wrong), rather than advice to build
 * an index on a field no row has. */
static bool
source_has_field (run_t *r, lab_store_session_t *sess, bson_error_t *error)
{
   char msg[sizeof error->message];
   bool absent = false;

   if (!lab_store_field_check (sess, r->o->target.src, r->fold_opts.key, &absent, error)) {
      return false;
   }
   if (!absent) {
      return true;
   }
   bson_strncpy (msg, error->message, sizeof msg);
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                  "%s. Nothing has been dropped or written: fold by a field the rows have (--key FIELD)",
                  msg);
   return false;
}

/* plan_index -- the source's index on the key, which every sorted read walks: present; or missing and
 * built now (--create-index, timed); or missing and the run stops before writing anything (NO_INDEX
 * naming --create-index). --plan builds nothing: it notes that the run would. */
static bool
plan_index (run_t *r, lab_store_session_t *sess, bson_error_t *error)
{
   const lab_fold_run_opts_t *o = r->o;
   const char *key = r->fold_opts.key;
   uint64_t t0;
   bool has;

   if (!lab_store_has_index (sess, o->target.src, key, &has, error)) {
      return false;
   }
   if (has) {
      return true;
   }
   if (!o->create_index) {
      if (!source_has_field (r, sess, error)) {
         return false;
      }
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
                     "source '%s' has no index on '%s': the fold reads it in '%s' order through that index "
                     "(without one the server would sort the whole collection before the first row). Nothing "
                     "has been written. Rerun with --create-index to build it first, or build it yourself: "
                     "db.%s.createIndex({%s: 1})",
                     o->target.src, key, key, o->target.src, key);
      return false;
   }
   /* the source is usually the user's own collection: built only where layoutlab wrote or was told to */
   if (!lab_store_mark_write_guard (r->store, sess, o->target.src, o->allow_writes, "--create-index", NULL,
                                    error)) {
      return false;
   }
   r->index_missing = true;
   if (o->plan_only) {
      lab_log_info ("plan: '%s' has no index on '%s': the run would build it first", o->target.src, key);
      return true;
   }
   lab_log_info ("building the index %s_1 on '%s' (the whole collection is read once)", key, o->target.src);
   t0 = lab_now_ns ();
   if (!lab_store_create_index (sess, o->target.src, key, error)) {
      lab_error_prefix (error, "--create-index: building %s_1 on '%s'", key, o->target.src);
      return false;
   }
   r->index_build_s = (double)(lab_now_ns () - t0) / 1e9;
   r->index_missing = false;
   lab_log_info ("index %s_1 on '%s' built in %.1f s", key, o->target.src, r->index_build_s);
   return true;
}

/* lab_fold_run_key_types_append -- see fold_run_private.h. */
void
lab_fold_run_key_types_append (const run_t *r, bson_t *d)
{
   const lab_store_key_types_t *kt = &r->key_types;
   bson_t doc, rows;

   if (kt->nclasses == 0) {
      return;
   }
   BSON_APPEND_DOCUMENT_BEGIN (d, "key_types", &doc);
   BSON_APPEND_INT32 (&doc, "classes", kt->nclasses);
   BSON_APPEND_UTF8 (&doc, "first", lab_store_type_name (kt->first));
   BSON_APPEND_UTF8 (&doc, "last", lab_store_type_name (kt->last));
   if (kt->counted) {
      bson_type_t types[256];
      size_t i, nt = lab_store_key_types_list (kt, types);
      BSON_APPEND_DOCUMENT_BEGIN (&doc, "rows", &rows);
      for (i = 0; i < nt; i++) {
         BSON_APPEND_INT64 (&rows, lab_store_type_name (types[i]), kt->rows[types[i]]);
      }
      bson_append_document_end (&doc, &rows);
   }
   BSON_APPEND_BOOL (&doc, "allowed", kt->nclasses > 1 && r->o->allow_mixed_key_types);
   BSON_APPEND_BOOL (&doc, "refused", r->key_types_refused);
   bson_append_document_end (d, &doc);
}

/* plan_key_types -- the source key's BSON types, from its index's two ends and, only when their type
 * classes differ, one walk counting every entry: MongoDB's equality and the fold's key compare (numbers by
 * value, store/keyenc.h) treat 7 and "7" as two masters, so a key of several classes (a CSV column typed
 * int in one file and string in another) would silently split every master in two. Refused before
 * anything is written unless --allow-mixed-key-types; --plan shows the refusal. A missing or null key
 * counts as the type null (the fold refuses such rows anyway: row_has_key). */
static bool
plan_key_types (run_t *r, lab_store_session_t *sess, bson_error_t *error)
{
   const lab_fold_run_opts_t *o = r->o;
   char types[256];

   if (!lab_store_key_types (sess, o->target.src, r->fold_opts.key, &r->key_types, error)) {
      if (error->domain == LAB_ERROR_STORE &&
          (error->code == LAB_STORE_ERR_NO_INDEX || error->code == LAB_STORE_ERR_NOT_SUPPORTED)) {
         /* an index the fold may still read (a hidden or multikey one with --allow-blocking-sort, a
          * clustered source): said, not refused -- the fold itself never needed this walk */
         lab_log_info ("the BSON types of the key '%s' are not checked: %s", r->fold_opts.key,
                       error->message);
         memset (&r->key_types, 0, sizeof r->key_types);
         return true;
      }
      lab_error_prefix (error, "reading the BSON types of the key '%s' of '%s'", r->fold_opts.key,
                        o->target.src);
      return false;
   }
   if (r->key_types.nclasses <= 1) {
      lab_log_debug ("key '%s' of '%s': one BSON type class (%s at both ends of its index)", r->fold_opts.key,
                     o->target.src,
                     r->key_types.empty ? "no entry" : lab_store_type_name (r->key_types.first));
      return true;
   }
   lab_store_key_types_text (&r->key_types, types, sizeof types);
   if (o->allow_mixed_key_types) {
      lab_log_info ("the key %s has %d BSON types: %s; --allow-mixed-key-types: folded as different masters",
                    r->fold_opts.key, r->key_types.nclasses, types);
      return true;
   }
   r->key_types_refused = true;
   if (o->plan_only) {
      lab_log_info ("plan: the key %s has %d BSON types (%s): the run would refuse to start",
                    r->fold_opts.key, r->key_types.nclasses, types);
      return true;
   }
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                  "the key %s has %d BSON types: %s: MongoDB compares values of different types as "
                  "different, so every master whose key comes in both would be folded twice. Nothing has "
                  "been written. Convert the key to one type in '%s', or --allow-mixed-key-types folds them "
                  "as different masters",
                  r->fold_opts.key, r->key_types.nclasses, types, o->target.src);
   return false;
}

/* plan_fresh -- a fresh run: the destination empty or to be replaced, the source's rows holding the key,
 * its key index, the hoist list and the key ranges. */
static bool
plan_fresh (run_t *r, lab_store_session_t *sess, int64_t count, bson_error_t *error)
{
   const lab_fold_run_opts_t *o = r->o;

   if (count > 0 && !o->drop_dst) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
         "destination '%s' already holds %lld documents: use --drop-dst to replace it, or --resume "
         "to continue an interrupted fold",
         o->target.dst, (long long)count);
      return false;
   }
   /* the key before an index is built on it (a sample in _id order), and before the destination is
    * dropped (the first row in key order: read by --hoist auto's sample, else on its own) */
   if (!o->copy_only && o->create_index) {
      bool has = true;
      if (!lab_store_has_index (sess, o->target.src, r->fold_opts.key, &has, error) ||
          (!has && (!source_has_field (r, sess, error) ||
                    !check_source_keys (r, sess, "_id", KEY_CHECK_ROWS, error)))) {
         return false;
      }
   }
   if (o->target.shape != LAB_FOLD_SHAPE_COPY && !plan_index (r, sess, error)) {
      return false;
   }
   if (r->index_missing) {
      /* --plan --create-index: without the index there is nothing to sample or split yet */
      r->hoist = bson_malloc0 (sizeof (char *));
      return true;
   }
   if (!plan_sort (r, sess, error)) {
      return false;
   }
   if (!o->copy_only && o->target.shape != LAB_FOLD_SHAPE_COPY &&
       (strcmp (o->hoist_spec ? o->hoist_spec : "auto", "auto") != 0 ||
        lab_fold_shape_rows (o->target.shape)) &&
       !check_source_keys (r, sess, r->fold_opts.key, 1, error)) {
      return false;
   }
   if (!resolve_hoist (r, sess, error) || (!o->copy_only && !plan_key_types (r, sess, error))) {
      return false;
   }
   /* --shape clustered, copy: one range, the source's arrival order (key ranges would sort it) */
   if (o->parallel > 1 && !lab_fold_shape_natural (o->target.shape) &&
       !lab_store_partition (sess, o->target.src, r->fold_opts.key, o->parallel, &r->bounds, &r->nbounds,
                             error)) {
      lab_error_prefix (error, "--parallel %d: splitting '%s' into key ranges", o->parallel, o->target.src);
      return false;
   }
   return true;
}

/* plan_resume -- a --resume run over a checkpoint: its state and settings fit this run; the hoist list and
 * ranges from it; *complete: the fold had already finished. Refusals set result->resume_refused. */
static bool
plan_resume (run_t *r, lab_store_session_t *sess, const bson_t *settings, lab_fold_run_result_t *result,
             bool *complete, bson_error_t *error)
{
   bson_iter_t it;

   *complete = bson_iter_init_find (&it, settings, "complete") && bson_iter_as_bool (&it);
   if (!lab_fold_run_resume_dst_check (r, sess, settings, *complete, error)) {
      result->resume_refused = error->domain == LAB_ERROR_USAGE; /* not a store error */
      return false;
   }
   if (!lab_fold_run_settings_match (r, settings, *complete, error) ||
       !lab_fold_run_settings_load (r, settings, error)) {
      result->resume_refused = true;
      return false;
   }
   result->resumed = true;
   if (*complete) {
      lab_log_info ("resume: the fold into '%s' had already completed: nothing to do", r->o->target.dst);
      return true;
   }
   return (r->o->target.shape == LAB_FOLD_SHAPE_COPY || plan_index (r, sess, error)) &&
          plan_sort (r, sess, error);
}

/* plan_mode -- resume (from the checkpoint's settings and ranges) or start fresh; *complete: the resumed
 * fold had already finished. */
static bool
plan_mode (run_t *r, lab_store_session_t *sess, int64_t count, const bson_t *settings,
           lab_fold_run_result_t *result, bool *complete, bson_error_t *error)
{
   const lab_fold_run_opts_t *o = r->o;

   if (r->resume && !settings) {
      if (count > 0) {
         lab_error_set (
            error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
            "--resume: '%s' holds %lld documents but no fold checkpoint ('%s' is missing): it was "
            "not written by an interrupted fold-details run (a --copy-only run keeps none), so "
            "there is nothing to resume; use --drop-dst to replace it",
            o->target.dst, (long long)count, r->state_coll);
         result->resume_refused = true;
         return false;
      }
      lab_log_info ("resume: no checkpoint for '%s': starting from the beginning", o->target.dst);
      r->resume = false;
   }
   if (!r->resume) {
      return plan_fresh (r, sess, count, error);
   }
   return plan_resume (r, sess, settings, result, complete, error);
}

/* lab_fold_run_plan -- everything checked and decided before anything is written. *dst_exists: the
 * destination is there now; *complete: a resumed fold that had already finished (nothing more is checked
 * then). */
bool
lab_fold_run_plan (run_t *r, lab_store_session_t *sess, lab_fold_run_result_t *result, bool *dst_exists,
                   bool *complete, bson_error_t *error)
{
   bson_t *settings = NULL;
   int64_t count = 0;
   size_t k;
   bool ok = false;

   if (!lab_fold_run_shape_check (r, error) || !plan_limits (r, error) ||
       !plan_dst (r, sess, dst_exists, &count, &settings, error)) {
      goto done;
   }
   r->dst_exists = *dst_exists;
   r->dst_count = count;
   if (r->o->target.shape == LAB_FOLD_SHAPE_COPY && !lab_fold_run_copy_plan (r, sess, error)) {
      goto done;
   }
   if (!plan_mode (r, sess, count, settings, result, complete, error)) {
      goto done;
   }
   if (*complete) {
      ok = true;
      goto done;
   }
   for (k = 0; r->hoist[k]; k++) {
   }
   r->fold_opts.hoist = (const char *const *)r->hoist;
   r->fold_opts.nhoist = k;
   if (r->o->target.shape != LAB_FOLD_SHAPE_COPY && !lab_fold_opts_check (&r->fold_opts, error)) {
      lab_error_prefix (error, "--hoist");
      goto done;
   }
   ok = true;
done:
   bson_destroy (settings);
   return ok;
}
