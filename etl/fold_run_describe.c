/*
 * fold_run_describe.c -- --plan: what a fold run would send, as result->plan (a document) and as text for a
 * DBA (lab_fold_run_plan_print). Reads only.
 */
#include "fold_run_private.h"

/* plan_decision -- one line: what the run would do with the destination. */
static void
plan_decision (const run_t *r, bool complete, char *buf, size_t len)
{
   const lab_fold_run_opts_t *o = r->o;

   if (complete) {
      bson_snprintf (buf, len, "resume: the fold into '%s' had already completed: nothing to do",
                     o->target.dst);
   } else if (r->resume) {
      bson_snprintf (buf, len,
                     "resume: each unfinished range continues after its checkpoint in '%s'; "
                     "documents written after it are deleted first",
                     r->state_coll);
   } else if (r->dst_exists && r->dst_count > 0) {
      bson_snprintf (buf, len, "fresh: drop '%s' (%lld documents) and '%s', then fold", o->target.dst,
                     (long long)r->dst_count, r->state_coll);
   } else {
      bson_snprintf (buf, len, "fresh: %s '%s'%s, then fold", r->dst_exists ? "reuse the empty" : "create",
                     o->target.dst, o->resume ? " (--resume found no checkpoint)" : "");
   }
}

/* lab_fold_run_plan_observed -- the parsed plan as plan.ranges[].read.observed: engine, stages, index, sort,
 * multikey, collection scan, per shard when sharded. */
void
lab_fold_run_plan_observed (const lab_store_facts_plan_t *plan, bson_t *out)
{
   bson_t arr, sd;
   char idx[16];
   const char *k;
   size_t i;

   BSON_APPEND_BOOL (out, "blocking_sort", plan->blocking_sort);
   BSON_APPEND_BOOL (out, "multikey", plan->multikey);
   BSON_APPEND_BOOL (out, "collscan", plan->collscan);
   BSON_APPEND_BOOL (out, "sharded", plan->sharded);
   BSON_APPEND_ARRAY_BEGIN (out, "servers", &arr);
   for (i = 0; i < plan->nparts; i++) {
      const lab_store_facts_plan_part_t *p = &plan->parts[i];
      bson_uint32_to_string ((uint32_t)i, &k, idx, sizeof idx);
      BSON_APPEND_DOCUMENT_BEGIN (&arr, k, &sd);
      BSON_APPEND_UTF8 (&sd, "shard", p->shard);
      BSON_APPEND_UTF8 (&sd, "engine", p->engine);
      BSON_APPEND_UTF8 (&sd, "stages", p->stages);
      BSON_APPEND_UTF8 (&sd, "index", p->index);
      BSON_APPEND_BOOL (&sd, "blocking_sort", p->blocking_sort);
      BSON_APPEND_BOOL (&sd, "pipeline_sort", p->pipeline_sort);
      BSON_APPEND_BOOL (&sd, "multikey", p->multikey);
      BSON_APPEND_BOOL (&sd, "collscan", p->collscan);
      bson_append_document_end (&arr, &sd);
   }
   bson_append_array_end (out, &arr);
}

/* plan_range -- one range of the plan: bounds, estimate, resume point, the read's description; adds to
 * *temp the bytes a blocking sort of the range would hold. */
static bool
plan_range (run_t *r, lab_store_session_t *sess, int i, int nranges, int64_t est, double avg_bytes,
            bson_t *arr, int64_t *temp, bool *blocking, bson_error_t *error)
{
   lab_store_sorted_opts_t so = { 0 };
   bson_t *ck = NULL, d, rd;
   bson_iter_t it;
   char idx[16], id[32];
   const char *k;
   int64_t range_est = nranges > 0 ? est / nranges : est;
   bool done = false, ok = false;

   bson_uint32_to_string ((uint32_t)i, &k, idx, sizeof idx);
   BSON_APPEND_DOCUMENT_BEGIN (arr, k, &d);
   BSON_APPEND_INT32 (&d, "range", i);
   so.lo = i > 0 ? &r->bounds[i - 1] : NULL;
   so.hi = i < r->nbounds ? &r->bounds[i] : NULL;
   so.batch_docs = r->o->cursor_batch_docs;
   if (so.lo) { /* absent: unbounded */
      bson_append_value (&d, "lo", -1, so.lo);
   }
   if (so.hi) {
      bson_append_value (&d, "hi", -1, so.hi);
   }
   BSON_APPEND_INT64 (&d, "estimated_documents", range_est);
   if (r->resume) {
      snprintf (id, sizeof id, "range-%d", i);
      if (!lab_fold_run_find_state (sess, r->state_coll, id, &ck, error)) {
         goto done;
      }
      done = ck && bson_iter_init_find (&it, ck, "done") && bson_iter_as_bool (&it);
      BSON_APPEND_BOOL (&d, "done", done);
      if (ck && bson_iter_init_find (&it, ck, "last_key")) {
         bson_append_value (&d, "resume_after", -1, bson_iter_value (&it));
         so.lo = bson_iter_value (&it);
      }
   }
   if (!done && !r->index_missing) {
      bson_t desc = BSON_INITIALIZER, reply, observed;
      lab_store_facts_plan_t plan;
      bool sorts;

      if (lab_fold_shape_natural (r->o->target.shape)) {
         /* the source in arrival order: a collection scan, nothing sorted */
         lab_store_natural_opts_t no = { { 0, 0 }, r->o->cursor_batch_docs };
         ok = lab_store_natural_describe (sess, r->o->target.src, &no, &desc, error);
      } else {
         ok = lab_store_sorted_describe (sess, r->o->target.src, r->fold_opts.key, &so, &desc, error);
      }
      if (ok && r->observed && !lab_fold_shape_natural (r->o->target.shape)) {
         ok = lab_fold_run_observe (r, sess, so.lo, so.hi, &reply, &plan, error);
         if (!ok) {
            bson_destroy (&reply);
         }
      }
      if (!ok) {
         bson_destroy (&desc);
         goto done;
      }
      ok = false;
      BSON_APPEND_DOCUMENT_BEGIN (&d, "read", &rd);
      bson_copy_to_excluding_noinit (&desc, &rd, "blocking_sort", NULL);
      if (r->observed) {
         /* what the server said, not what the code expects */
         sorts = plan.blocking_sort;
         BSON_APPEND_BOOL (&rd, "blocking_sort", sorts);
         BSON_APPEND_DOCUMENT_BEGIN (&rd, "observed", &observed);
         lab_fold_run_plan_observed (&plan, &observed);
         bson_append_document_end (&rd, &observed);
         BSON_APPEND_DOCUMENT (&rd, "explain", &reply);
         bson_destroy (&reply);
      } else {
         bson_iter_init_find (&it, &desc, "blocking_sort");
         sorts = bson_iter_as_bool (&it);
         BSON_APPEND_BOOL (&rd, "blocking_sort", sorts);
      }
      bson_append_document_end (&d, &rd);
      bson_destroy (&desc);
      if (sorts) {
         *blocking = true;
         *temp += (int64_t)((double)range_est * avg_bytes);
      }
   }
   ok = true;
done:
   bson_append_document_end (arr, &d);
   bson_destroy (ck);
   return ok;
}

/* plan_writes -- plan.writes: how the run would write (command, batches, limits, checkpoints). */
static void
plan_writes (const run_t *r, bson_t *p)
{
   const lab_fold_run_opts_t *o = r->o;
   bson_t d;

   BSON_APPEND_DOCUMENT_BEGIN (p, "writes", &d);
   BSON_APPEND_UTF8 (&d, "command",
                     o->copy_only ? "insert (rows unchanged)"
                     : o->target.shape == LAB_FOLD_SHAPE_CLUSTERED
                        ? "insert (rows with _id {<key>: K, id: <original _id>}, in arrival order, into a "
                          "clustered collection)"
                     : o->target.shape == LAB_FOLD_SHAPE_COPY
                        ? "insert (every document unchanged, in the source's natural order)"
                     : lab_fold_shape_rows (o->target.shape)
                        ? "insert (rows unchanged, in key order, checkpointed)"
                        : "insert (folded documents)");
   BSON_APPEND_BOOL (&d, "ordered", false);
   BSON_APPEND_INT64 (&d, "batch_docs", r->batch_docs);
   BSON_APPEND_INT64 (&d, "batch_bytes", r->batch_bytes);
   BSON_APPEND_INT64 (&d, "max_doc_bytes", r->fold_opts.max_doc_bytes);
   BSON_APPEND_INT32 (&d, "bucket_rows", r->fold_opts.bucket_rows);
   BSON_APPEND_UTF8 (&d, "bucket_by", o->target.bucket_by ? o->target.bucket_by : "");
   BSON_APPEND_UTF8 (&d, "shape", lab_fold_shape_name (o->target.shape));
   BSON_APPEND_UTF8 (&d, "write_concern",
                     "the server's default (the tool sets none: w:1 before MongoDB 5.0, "
                     "majority from 5.0 on a replica set)");
   BSON_APPEND_UTF8 (&d, "checkpoint",
                     o->copy_only ? "none (--copy-only)"
                     : lab_fold_shape_natural (o->target.shape)
                        ? "upsert {_id: \"range-<i>\"} after every batch, without a key (arrival order has "
                          "no resume point): a resumed copy starts again from the first row, a row whose _id "
                          "is taken counted as written"
                        : "upsert {_id: \"range-<i>\"} into the checkpoint "
                          "collection after every batch");
   BSON_APPEND_UTF8 (&d, "destination_index",
                     o->target.shape == LAB_FOLD_SHAPE_CLUSTERED
                        ? "none: the clustered index {_id: 1} (create with clusteredIndex {key: {_id: 1}, "
                          "unique: true})"
                     : o->target.shape == LAB_FOLD_SHAPE_COPY
                        ? "the source's indexes (copy.indexes), built after the data"
                        : "{<key>: 1} (createIndexes before the first batch)");
   BSON_APPEND_INT32 (&d, "retries", o->copy_only ? 0 : o->retries);
   bson_append_document_end (p, &d);
}

/* lab_fold_run_plan_describe -- result->plan: the decision, the source and its index, the destination, the
 * writes, each range's read, the temporary space. Reads only. */
bool
lab_fold_run_plan_describe (run_t *r, lab_store_session_t *sess, bool complete, lab_fold_run_result_t *result,
                            bson_error_t *error)
{
   const lab_fold_run_opts_t *o = r->o;
   bson_t *p = bson_new (), d, arr;
   lab_store_coll_stats_t cs;
   char line[512], idx[16];
   const char *k;
   int64_t est = 0, temp = 0;
   double avg = 0;
   bool blocking = false;
   int i, nranges = r->nbounds + 1;
   size_t h;

   result->plan = p;
   plan_decision (r, complete, line, sizeof line);
   BSON_APPEND_UTF8 (p, "decision", line);
   BSON_APPEND_BOOL (p, "writes_nothing", true);
   if (!lab_store_count_estimated (sess, o->target.src, &est, error)) {
      return false;
   }
   if (lab_store_stats (sess, o->target.src, &cs, error)) {
      avg = cs.avg_obj_size_bytes;
   }
   BSON_APPEND_DOCUMENT_BEGIN (p, "source", &d);
   BSON_APPEND_UTF8 (&d, "collection", o->target.src);
   BSON_APPEND_INT64 (&d, "estimated_documents", est);
   BSON_APPEND_DOUBLE (&d, "avg_document_bytes", avg);
   BSON_APPEND_UTF8 (&d, "key", r->fold_opts.key);
   BSON_APPEND_BOOL (&d, "key_index_exists", !r->index_missing);
   BSON_APPEND_BOOL (&d, "create_index", r->index_missing);
   lab_fold_run_key_types_append (r, &d);
   bson_append_document_end (p, &d);
   if (o->target.shape == LAB_FOLD_SHAPE_COPY) {
      lab_fold_run_copy_describe (r, p);
   }
   BSON_APPEND_DOCUMENT_BEGIN (p, "destination", &d);
   BSON_APPEND_UTF8 (&d, "collection", o->target.dst);
   BSON_APPEND_BOOL (&d, "exists", r->dst_exists);
   BSON_APPEND_INT64 (&d, "documents", r->dst_count);
   BSON_APPEND_UTF8 (&d, "checkpoint_collection", r->state_coll);
   if (r->dst_exists && lab_store_backend (r->store) == LAB_BACKEND_MONGO) {
      /* on a server, --drop-dst of a collection layoutlab did not write asks first (store/mark.h) */
      bson_t *mark = NULL;
      if (!lab_store_mark_get (sess, o->target.dst, &mark, NULL, error)) {
         bson_append_document_end (p, &d);
         return false;
      }
      BSON_APPEND_BOOL (&d, "written_by_layoutlab", mark != NULL);
      bson_destroy (mark);
   }
   bson_append_document_end (p, &d);
   if (complete) {
      return true;
   }
   BSON_APPEND_ARRAY_BEGIN (p, "hoist", &arr);
   for (h = 0; r->hoist && r->hoist[h]; h++) {
      bson_uint32_to_string ((uint32_t)h, &k, idx, sizeof idx);
      BSON_APPEND_UTF8 (&arr, k, r->hoist[h]);
   }
   bson_append_array_end (p, &arr);
   if (r->index_missing) {
      BSON_APPEND_UTF8 (p, "note",
                        "the key index is built first (--create-index); the hoist sample and the "
                        "--parallel ranges are taken from it then, so neither is shown");
   }
   plan_writes (r, p);
   BSON_APPEND_ARRAY_BEGIN (p, "ranges", &arr);
   for (i = 0; i < nranges; i++) {
      if (!plan_range (r, sess, i, nranges, est, avg, &arr, &temp, &blocking, error)) {
         bson_append_array_end (p, &arr);
         return false;
      }
   }
   bson_append_array_end (p, &arr);
   BSON_APPEND_BOOL (p, "blocking_sort", blocking);
   BSON_APPEND_BOOL (p, "plan_observed", r->observed);
   BSON_APPEND_UTF8 (p, "sort", r->verdict.say);
   BSON_APPEND_BOOL (p, "refused", r->verdict.refuse || r->key_types_refused);
   if (r->verdict.refuse) {
      BSON_APPEND_UTF8 (
         p, "refusal",
         "the run would refuse to start: give --allow-blocking-sort to fold anyway, or an index "
         "the server can walk in key order");
   } else if (r->key_types_refused) {
      BSON_APPEND_UTF8 (p, "refusal",
                        "the run would refuse to start: the key has several BSON types (source.key_types); "
                        "--allow-mixed-key-types folds them as different masters");
   }
   BSON_APPEND_INT64 (p, "estimated_temp_bytes", temp);
   BSON_APPEND_UTF8 (
      p, "temp_note",
      blocking           ? "the server's plan sorts each range before its first batch (read.observed, "
                           "read.explain): up to the range's data in memory, then (mongod, allowDiskUse) "
                           "in temporary files in the server's dbPath"
      : r->index_missing ? "none once the index is built (the index build itself sorts the keys)"
      : lab_fold_shape_natural (o->target.shape) ? "none: the source is read in natural order (no sort)"
                                                 : "none: every read walks the key index (no sort)");
   return true;
}

/* plan_str -- a string field of d, or "?". */
static const char *
plan_str (const bson_t *d, const char *path)
{
   bson_iter_t it, f;

   if (bson_iter_init (&it, d) && bson_iter_find_descendant (&it, path, &f) && BSON_ITER_HOLDS_UTF8 (&f)) {
      return bson_iter_utf8 (&f, NULL);
   }
   return "?";
}

/* plan_int -- an integer field of d, or -1. */
static int64_t
plan_int (const bson_t *d, const char *path)
{
   bson_iter_t it, f;

   if (bson_iter_init (&it, d) && bson_iter_find_descendant (&it, path, &f)) {
      return bson_iter_as_int64 (&f);
   }
   return -1;
}

/* plan_json -- field `path` of d as relaxed JSON (caller bson_free()s), or NULL. */
static char *
plan_json (const bson_t *d, const char *path)
{
   bson_iter_t it, f;

   if (bson_iter_init (&it, d) && bson_iter_find_descendant (&it, path, &f)) {
      return lab_value_to_text (bson_iter_value (&f));
   }
   return NULL;
}

/* plan_print_writes -- the plan's writes, for lab_fold_run_plan_print. */
static void
plan_print_writes (const bson_t *plan, FILE *out)
{
   fprintf (out,
            "writes:      %s, unordered, batches of at most %lld documents and %lld bytes; documents at most "
            "%lld bytes\n",
            plan_str (plan, "writes.command"), (long long)plan_int (plan, "writes.batch_docs"),
            (long long)plan_int (plan, "writes.batch_bytes"),
            (long long)plan_int (plan, "writes.max_doc_bytes"));
   if (plan_int (plan, "writes.bucket_rows") > 0 || plan_str (plan, "writes.bucket_by")[0]) {
      char rows[64] = "no row limit";

      if (plan_int (plan, "writes.bucket_rows") > 0) {
         bson_snprintf (rows, sizeof rows, "%lld rows at most per document",
                        (long long)plan_int (plan, "writes.bucket_rows"));
      }
      fprintf (out, "             buckets: %s; %s%s\n", rows,
               plan_str (plan, "writes.bucket_by")[0] ? "one document per master and time window of "
                                                      : "no time windows",
               plan_str (plan, "writes.bucket_by"));
   }
   fprintf (out, "             write concern: %s\n", plan_str (plan, "writes.write_concern"));
   fprintf (out, "             checkpoint: %s; destination index %s\n", plan_str (plan, "writes.checkpoint"),
            plan_str (plan, "writes.destination_index"));
   fprintf (out,
            "             a range failing with a transient error retries from its checkpoint up to %lld "
            "times\n",
            (long long)plan_int (plan, "writes.retries"));
}

/* plan_print_range -- one range of the plan: bounds, estimate, resume point, the read it would send. */
static void
plan_print_range (const bson_t *rg, FILE *out)
{
   char *a, *b, *c;

   a = plan_json (rg, "lo");
   b = plan_json (rg, "hi");
   fprintf (out, "range %lld:    [%s, %s), about %lld documents", (long long)plan_int (rg, "range"),
            a ? a : "MinKey", b ? b : "MaxKey", (long long)plan_int (rg, "estimated_documents"));
   bson_free (a);
   bson_free (b);
   a = plan_json (rg, "resume_after");
   if (a) {
      fprintf (out, "; resumes after key %s", a);
      bson_free (a);
   }
   if (plan_int (rg, "done") > 0) {
      fprintf (out, "; done before: skipped");
   }
   fputc ('\n', out);
   a = plan_json (rg, "read.command");
   if (!a) {
      a = plan_json (rg, "read.walk");
   }
   if (a) {
      b = plan_json (rg, "read.index");
      c = plan_json (rg, "read.blocking_sort");
      fprintf (out, "  read:      %s\n  index:     %s, blocking sort: %s; ties: %s\n", a, b ? b : "?",
               c ? c : "?", plan_str (rg, "read.ties"));
      if (plan_str (rg, "read.observed.servers.0.engine")[0] != '?') {
         fprintf (out, "  observed:  %s plan %s%s%s%s\n", plan_str (rg, "read.observed.servers.0.engine"),
                  plan_str (rg, "read.observed.servers.0.stages"),
                  plan_int (rg, "read.observed.blocking_sort") > 0 ? ": the server sorts" : ": no sort",
                  plan_int (rg, "read.observed.multikey") > 0 ? " (multikey index)" : "",
                  plan_int (rg, "read.observed.sharded") > 0 ? " (first shard; all in --json)" : "");
      }
      bson_free (b);
      bson_free (c);
      bson_free (a);
   }
}

/* lab_fold_run_plan_print -- see fold_run.h. */
void
lab_fold_run_plan_print (const bson_t *plan, FILE *out)
{
   bson_iter_t it, ai;
   char *a;

   fprintf (out, "fold-details --plan: what the run would send (nothing has been written)\n");
   fprintf (out, "decision:    %s\n", plan_str (plan, "decision"));
   if (bson_iter_init_find (&it, plan, "copy")) {
      fprintf (out, "source:      '%s', about %lld documents (estimated from metadata)\n",
               plan_str (plan, "source.collection"),
               (long long)plan_int (plan, "source.estimated_documents"));
      lab_fold_run_copy_print (plan, out);
   } else {
      fprintf (
         out, "source:      '%s', about %lld documents (estimated from metadata), key '%s', key index %s\n",
         plan_str (plan, "source.collection"), (long long)plan_int (plan, "source.estimated_documents"),
         plan_str (plan, "source.key"),
         plan_int (plan, "source.key_index_exists") ? "present" : "missing: --create-index builds it first");
   }
   fprintf (out, "destination: '%s', %s%lld documents; checkpoints in '%s'%s\n",
            plan_str (plan, "destination.collection"),
            plan_int (plan, "destination.exists") ? "exists, " : "absent, ",
            (long long)plan_int (plan, "destination.documents"),
            plan_str (plan, "destination.checkpoint_collection"),
            plan_int (plan, "destination.written_by_layoutlab") == 0
               ? "; NOT written by layoutlab: --drop-dst asks first (or needs --yes)"
               : "");
   if (plan_int (plan, "source.key_types.classes") > 1) {
      a = plan_json (plan, "source.key_types.rows");
      fprintf (out, "key types:   %lld BSON type classes %s: %s\n",
               (long long)plan_int (plan, "source.key_types.classes"), a ? a : "?",
               plan_int (plan, "source.key_types.allowed") > 0
                  ? "allowed (--allow-mixed-key-types): folded as different masters"
                  : "7 and \"7\" would be two masters");
      bson_free (a);
   }
   if (!bson_iter_init_find (&it, plan, "ranges")) {
      return;
   }
   a = plan_json (plan, "hoist");
   fprintf (out, "hoist:       %s\n", a ? a : "[]");
   bson_free (a);
   if (bson_iter_init_find (&it, plan, "note")) {
      fprintf (out, "note:        %s\n", plan_str (plan, "note"));
   }
   plan_print_writes (plan, out);
   fprintf (out, "sort:        %s%s\n", plan_str (plan, "sort"),
            plan_int (plan, "plan_observed") > 0 ? " (the server's own plan: explain)" : "");
   if (plan_int (plan, "refused") > 0) {
      fprintf (out, "REFUSED:     %s\n", plan_str (plan, "refusal"));
   }
   fprintf (out, "temporary:   %lld bytes: %s\n", (long long)plan_int (plan, "estimated_temp_bytes"),
            plan_str (plan, "temp_note"));
   if (!bson_iter_init_find (&it, plan, "ranges") || !bson_iter_recurse (&it, &ai)) {
      return;
   }
   while (bson_iter_next (&ai)) {
      bson_t rg;
      uint32_t len;
      const uint8_t *data;

      bson_iter_document (&ai, &len, &data);
      if (bson_init_static (&rg, data, len)) {
         plan_print_range (&rg, out);
      }
   }
}
