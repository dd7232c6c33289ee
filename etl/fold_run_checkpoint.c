/*
 * fold_run_checkpoint.c -- the fold's checkpoint collection "<dst>.fold_state" (fold_run.h): the settings
 * document a fresh run writes and a finished one marks complete, reading it back, and what --resume
 * accepts of what it finds there (the same settings; a destination that is still there).
 */
#include "fold_run_private.h"

/* lab_fold_run_state_coll -- see fold_run.h. */
char *
lab_fold_run_state_coll (const char *dst)
{
   return bson_strdup_printf ("%s%s", dst, LAB_FOLD_STATE_SUFFIX);
}

/* oversize_name -- --on-oversize as the checkpoint and the command line spell it. */
static const char *
oversize_name (lab_fold_oversize_t m)
{
   return m == LAB_FOLD_OVERSIZE_SPLIT ? "split" : m == LAB_FOLD_OVERSIZE_REJECT ? "reject" : "fail";
}

/* lab_fold_run_find_state -- the state document with this _id, or *doc = NULL. */
bool
lab_fold_run_find_state (lab_store_session_t *sess, const char *state_coll, const char *id, bson_t **doc,
                         bson_error_t *error)
{
   return lab_store_find_id (sess, state_coll, id, doc, error);
}

/* differ_add -- one setting of opts that differs from the fold's. */
static void
differ_add (lab_fold_run_verify_only_t *v, lab_fold_setting_t setting, const char *there, const char *here)
{
   v->differ[v->ndiffer].setting = setting;
   bson_strncpy (v->differ[v->ndiffer].there, there, sizeof v->differ[v->ndiffer].there);
   bson_strncpy (v->differ[v->ndiffer].here, here, sizeof v->differ[v->ndiffer].here);
   v->ndiffer++;
}

/* finished_differ -- the settings of the fold recorded in st that opts differs from: a setting opts leaves
 * out takes the fold's (buckets, cap); without a checkpoint nothing is known. */
static void
finished_differ (const lab_fold_run_opts_t *o, const lab_fold_run_dst_status_t *st,
                 lab_fold_run_verify_only_t *v)
{
   char there[32], here[32];

   if (!st->has_state) {
      return;
   }
   if (st->src[0] && strcmp (st->src, o->target.src) != 0) {
      differ_add (v, LAB_FOLD_SETTING_SRC, st->src, o->target.src);
   }
   if (st->key[0] && strcmp (st->key, o->target.key) != 0) {
      differ_add (v, LAB_FOLD_SETTING_KEY, st->key, o->target.key);
   }
   if (st->shape[0] && strcmp (st->shape, lab_fold_shape_name (o->target.shape)) != 0) {
      differ_add (v, LAB_FOLD_SETTING_SHAPE, st->shape, lab_fold_shape_name (o->target.shape));
   }
   if (!lab_fold_shape_rows (o->target.shape) && st->array_field[0] &&
       strcmp (st->array_field, o->target.array_field) != 0) {
      differ_add (v, LAB_FOLD_SETTING_ARRAY_FIELD, st->array_field, o->target.array_field);
   }
   if (o->target.bucket_rows && o->target.bucket_rows != st->bucket_rows) {
      bson_snprintf (there, sizeof there, "%d", st->bucket_rows);
      bson_snprintf (here, sizeof here, "%d", o->target.bucket_rows);
      differ_add (v, LAB_FOLD_SETTING_BUCKET_ROWS, st->bucket_rows ? there : "", here);
   }
   if (o->target.bucket_by && strcmp (o->target.bucket_by, st->bucket_by) != 0) {
      differ_add (v, LAB_FOLD_SETTING_BUCKET_BY, st->bucket_by, o->target.bucket_by);
   }
   if (o->target.max_doc_bytes > 0 && st->max_doc_bytes > 0 && o->target.max_doc_bytes != st->max_doc_bytes) {
      bson_snprintf (there, sizeof there, "%lld", (long long)st->max_doc_bytes);
      bson_snprintf (here, sizeof here, "%lld", (long long)o->target.max_doc_bytes);
      differ_add (v, LAB_FOLD_SETTING_MAX_DOC_BYTES, there, here);
   }
}

/* lab_fold_run_verify_only -- see fold_run.h. */
bool
lab_fold_run_verify_only (lab_store_t *store, lab_fold_run_opts_t *o, lab_fold_run_verify_only_t *v,
                          bson_error_t *error)
{
   memset (v, 0, sizeof *v);
   if (!lab_fold_run_dst_status (store, o->target.dst, &v->st, error)) {
      return false;
   }
   if (!v->st.exists || v->st.count == 0) {
      return true;
   }
   if (v->st.has_state && !v->st.complete) {
      v->interrupted = true;
      return true;
   }
   finished_differ (o, &v->st, v);
   if (v->ndiffer > 0) {
      return true;
   }
   lab_log_info ("'%s' exists and is finished: verifying only", o->target.dst);
   v->only = true;
   /* the buckets the fold made, unless the command line names them */
   if (!o->target.bucket_rows) {
      o->target.bucket_rows = v->st.bucket_rows;
   }
   if (!o->target.bucket_by && v->st.bucket_by[0]) {
      o->target.bucket_by = v->st.bucket_by;
   }
   return true;
}

/* lab_fold_run_dst_status -- see fold_run.h. */
bool
lab_fold_run_dst_status (lab_store_t *store, const char *dst, lab_fold_run_dst_status_t *st,
                         bson_error_t *error)
{
   lab_store_session_t *sess = lab_store_session_open (store, error);
   char *sc = lab_fold_run_state_coll (dst);
   bson_t *settings = NULL;
   bson_iter_t it;
   bool ok = false;

   memset (st, 0, sizeof *st);
   if (!sess) {
      goto done;
   }
   if (!lab_store_exists (sess, dst, &st->exists, error)) {
      goto done;
   }
   if (st->exists && !lab_store_count (sess, dst, &st->count, error)) {
      goto done;
   }
   if (!lab_fold_run_find_state (sess, sc, "settings", &settings, error)) {
      goto done;
   }
   if (settings) {
      st->has_state = true;
      st->complete = bson_iter_init_find (&it, settings, "complete") && bson_iter_as_bool (&it);
      st->bucket_rows =
         bson_iter_init_find (&it, settings, "bucket_rows") ? (int32_t)bson_iter_as_int64 (&it) : 0;
      if (bson_iter_init_find (&it, settings, "bucket_by") && BSON_ITER_HOLDS_UTF8 (&it)) {
         bson_strncpy (st->bucket_by, bson_iter_utf8 (&it, NULL), sizeof st->bucket_by);
      }
      if (bson_iter_init_find (&it, settings, "src") && BSON_ITER_HOLDS_UTF8 (&it)) {
         bson_strncpy (st->src, bson_iter_utf8 (&it, NULL), sizeof st->src);
      }
      if (bson_iter_init_find (&it, settings, "key") && BSON_ITER_HOLDS_UTF8 (&it)) {
         bson_strncpy (st->key, bson_iter_utf8 (&it, NULL), sizeof st->key);
      }
      if (bson_iter_init_find (&it, settings, "array_field") && BSON_ITER_HOLDS_UTF8 (&it)) {
         bson_strncpy (st->array_field, bson_iter_utf8 (&it, NULL), sizeof st->array_field);
      }
      bson_strncpy (st->shape,
                    bson_iter_init_find (&it, settings, "shape") && BSON_ITER_HOLDS_UTF8 (&it)
                       ? bson_iter_utf8 (&it, NULL)
                       : "folded",
                    sizeof st->shape);
      st->max_doc_bytes =
         bson_iter_init_find (&it, settings, "max_doc_bytes") ? bson_iter_as_int64 (&it) : -1;
   }
   ok = true;
done:
   bson_destroy (settings);
   bson_free (sc);
   lab_store_session_close (sess);
   return ok;
}

/* lab_fold_run_settings_doc -- see fold_run_private.h: settings, resolved hoist list, bounds, `complete`. */
bson_t *
lab_fold_run_settings_doc (const run_t *r, int nranges, bool complete)
{
   const lab_fold_run_opts_t *o = r->o;
   bson_t *d = bson_new ();
   bson_t arr;
   char idx[16];
   const char *k;
   int i;

   BSON_APPEND_UTF8 (d, "_id", "settings");
   BSON_APPEND_UTF8 (d, "tool", "fold-details " LAB_VERSION);
   BSON_APPEND_UTF8 (d, "src", o->target.src);
   BSON_APPEND_UTF8 (d, "key", r->fold_opts.key);
   BSON_APPEND_UTF8 (d, "array_field", r->fold_opts.array_field);
   BSON_APPEND_UTF8 (d, "hoist_spec", o->hoist_spec ? o->hoist_spec : "auto");
   BSON_APPEND_ARRAY_BEGIN (d, "hoist", &arr);
   for (i = 0; r->hoist && r->hoist[i]; i++) {
      bson_uint32_to_string ((uint32_t)i, &k, idx, sizeof idx);
      BSON_APPEND_UTF8 (&arr, k, r->hoist[i]);
   }
   bson_append_array_end (d, &arr);
   BSON_APPEND_INT64 (d, "max_doc_bytes", r->fold_opts.max_doc_bytes);
   BSON_APPEND_UTF8 (d, "on_oversize", oversize_name (r->fold_opts.on_oversize));
   BSON_APPEND_INT32 (d, "bucket_rows", r->fold_opts.bucket_rows);
   BSON_APPEND_UTF8 (d, "bucket_by", o->target.bucket_by ? o->target.bucket_by : "");
   BSON_APPEND_UTF8 (d, "shape", lab_fold_shape_name (o->target.shape));
   BSON_APPEND_INT32 (d, "parallel", o->parallel > 0 ? o->parallel : 1);
   BSON_APPEND_INT32 (d, "ranges", nranges);
   BSON_APPEND_ARRAY_BEGIN (d, "bounds", &arr);
   for (i = 0; i < r->nbounds; i++) {
      bson_uint32_to_string ((uint32_t)i, &k, idx, sizeof idx);
      bson_append_value (&arr, k, -1, &r->bounds[i]);
   }
   bson_append_array_end (d, &arr);
   BSON_APPEND_BOOL (d, "complete", complete);
   return d;
}

/* resume_found -- what a --resume run found in the checkpoint, for its refusals: a finished fold (the run
 * meant to replace it with --drop-dst was stopped before it dropped it) or an interrupted one. */
static const char *
resume_found (bool complete)
{
   return complete ? "a finished fold (a --drop-dst run meant to replace it stopped before dropping it?)"
                   : "an interrupted fold";
}

/* resume_remedy -- what recovers from a --resume refusal over that state. */
static const char *
resume_remedy (bool complete)
{
   return complete ? "there is nothing to resume: start over with --drop-dst"
                   : "rerun with its settings to continue it, or start over with --drop-dst";
}

/* settings_differ -- the refusal of a setting that differs from the checkpoint's (usage error). */
static bool
settings_differ (const run_t *r, bool complete, const char *name, const char *now, const char *was,
                 bson_error_t *error)
{
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                  "--resume: '%s' holds %s whose %s is '%s' but this run's is '%s'; %s", r->o->target.dst,
                  resume_found (complete), name, was, now, resume_remedy (complete));
   return false;
}

/* lab_fold_run_settings_match -- the checkpoint's settings agree with this run's (usage error otherwise,
 * naming what the checkpoint describes: `complete` a finished fold, else an interrupted one). */
bool
lab_fold_run_settings_match (const run_t *r, const bson_t *saved, bool complete, bson_error_t *error)
{
   const lab_fold_run_opts_t *o = r->o;
   struct {
      const char *name; /* in the checkpoint */
      const char *option;
      const char *now;
   } strs[] = {
      { "src", "--src", o->target.src },
      { "key", "--key", r->fold_opts.key },
      { "array_field", "--array-field", r->fold_opts.array_field },
      { "hoist_spec", "--hoist", o->hoist_spec ? o->hoist_spec : "auto" },
      { "on_oversize", "--on-oversize", oversize_name (r->fold_opts.on_oversize) },
      { "bucket_by", "--bucket-by", o->target.bucket_by ? o->target.bucket_by : "" },
      { "shape", "--shape", lab_fold_shape_name (o->target.shape) },
   };
   bson_iter_t it;
   size_t i;
   int64_t mdb;
   int32_t n;
   char now[32], was[32];

   for (i = 0; i < sizeof strs / sizeof strs[0]; i++) {
      const char *w = bson_iter_init_find (&it, saved, strs[i].name) && BSON_ITER_HOLDS_UTF8 (&it)
                         ? bson_iter_utf8 (&it, NULL)
                      : strcmp (strs[i].name, "bucket_by") == 0 ? "" /* a checkpoint from before buckets */
                      : strcmp (strs[i].name, "shape") == 0     ? "folded" /* ... from before shapes */
                                                                : "(unknown)";
      if (strcmp (w, strs[i].now) != 0) {
         return settings_differ (r, complete, strs[i].option, strs[i].now, w, error);
      }
   }
   mdb = bson_iter_init_find (&it, saved, "max_doc_bytes") ? bson_iter_as_int64 (&it) : -1;
   if (mdb != r->fold_opts.max_doc_bytes) {
      snprintf (now, sizeof now, "%lld", (long long)r->fold_opts.max_doc_bytes);
      snprintf (was, sizeof was, "%lld", (long long)mdb);
      return settings_differ (r, complete, "--max-doc-bytes", now, was, error);
   }
   n = bson_iter_init_find (&it, saved, "bucket_rows") ? (int32_t)bson_iter_as_int64 (&it) : 0;
   if (n != r->fold_opts.bucket_rows) {
      snprintf (now, sizeof now, "%d", r->fold_opts.bucket_rows);
      snprintf (was, sizeof was, "%d", n);
      return settings_differ (r, complete, "--bucket-rows", now, was, error);
   }
   n = bson_iter_init_find (&it, saved, "parallel") ? (int32_t)bson_iter_as_int64 (&it) : -1;
   if (n != (o->parallel > 0 ? o->parallel : 1)) {
      snprintf (now, sizeof now, "%d", o->parallel > 0 ? o->parallel : 1);
      snprintf (was, sizeof was, "%d", n);
      return settings_differ (r, complete, "--parallel", now, was, error);
   }
   return true;
}

/* lab_fold_run_settings_load -- hoist list and bounds of the interrupted run. */
bool
lab_fold_run_settings_load (run_t *r, const bson_t *saved, bson_error_t *error)
{
   bson_iter_t it, ai;
   size_t n = 0;

   if (!bson_iter_init_find (&it, saved, "hoist") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &ai)) {
      goto bad;
   }
   r->hoist = bson_malloc0 (sizeof (char *));
   while (bson_iter_next (&ai)) {
      if (!BSON_ITER_HOLDS_UTF8 (&ai)) {
         goto bad;
      }
      r->hoist = bson_realloc (r->hoist, (n + 2) * sizeof (char *));
      r->hoist[n++] = bson_strdup (bson_iter_utf8 (&ai, NULL));
      r->hoist[n] = NULL;
   }
   if (!bson_iter_init_find (&it, saved, "bounds") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &ai)) {
      goto bad;
   }
   while (bson_iter_next (&ai)) {
      r->bounds = bson_realloc (r->bounds, (size_t)(r->nbounds + 1) * sizeof (bson_value_t));
      bson_value_copy (bson_iter_value (&ai), &r->bounds[r->nbounds++]);
   }
   return true;
bad:
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                  "--resume: the checkpoint in '%s' is damaged (settings without hoist/bounds arrays), so "
                  "nothing can be continued from it: start over with --drop-dst",
                  r->state_coll);
   return false;
}

/* lab_fold_run_resume_dst_check -- --resume over a checkpoint whose destination is gone: refused when the
 * checkpoint says the fold completed or wrote anything (those documents went with the destination, and
 * continuing after the checkpoints would leave them out); fine when no range had reached its first
 * checkpoint. This is the state a --drop-dst run leaves when stopped between dropping the destination and its
 * checkpoint collection (prepare drops them in that order). */
bool
lab_fold_run_resume_dst_check (run_t *r, lab_store_session_t *sess, const bson_t *settings, bool complete,
                               bson_error_t *error)
{
   bson_iter_t it;
   bson_t *ck;
   int32_t nranges, i, started = 0;
   char id[32], found[96];

   if (r->dst_exists) {
      return true;
   }
   nranges = bson_iter_init_find (&it, settings, "ranges") ? (int32_t)bson_iter_as_int64 (&it) : 0;
   for (i = 0; !complete && i < nranges; i++) {
      snprintf (id, sizeof id, "range-%d", (int)i);
      if (!lab_fold_run_find_state (sess, r->state_coll, id, &ck, error)) {
         return false;
      }
      if (ck && (bson_iter_init_find (&it, ck, "last_key") ||
                 (bson_iter_init_find (&it, ck, "done") && bson_iter_as_bool (&it)))) {
         started++;
      }
      bson_destroy (ck);
   }
   if (!complete && started == 0) {
      return true;
   }
   if (complete) {
      bson_snprintf (found, sizeof found, "had completed");
   } else {
      bson_snprintf (found, sizeof found, "had written documents in %d of its %d key range(s)", (int)started,
                     (int)nranges);
   }
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                  "--resume: '%s' does not exist but its checkpoint '%s' says the fold %s: a --drop-dst run "
                  "stopped between dropping '%s' and its checkpoint; the documents are gone, nothing can "
                  "be resumed: start over with --drop-dst",
                  r->o->target.dst, r->state_coll, found, r->o->target.dst);
   return false;
}
