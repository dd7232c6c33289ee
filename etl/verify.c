/*
 * verify.c -- the ordered method of --verify, the merge join of both collections read in key order (see
 * verify.h), and lab_fold_verify, which runs the method asked for.
 */
#include "verify_private.h"

#include "core/cli.h"
#include "core/error.h"
#include "store/keyenc.h"
#include "core/log.h"
#include "core/opts.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What survives a failed try: the last fully verified key (every master <= it is accounted on both
 * sides, none after it). The result changes only when a master is accounted, so it needs no rollback:
 * what a failed try read past the last key (a group read ahead, a group cut short) is read again. */
typedef struct {
   bson_value_t last;
   bool have_last;
   int64_t taken;     /* documents taken from both streams over every try (the fault hook's count) */
   lab_progress_t *p; /* created by the first try that reads */
} state_t;

/* One side's stream, with one document of lookahead: the cursor's own document, valid until the next
 * lab_store_cursor_next, which is only called once it has been consumed (reader_take) -- no copy per row. */
typedef struct {
   lab_store_cursor_t *cur;
   const bson_t *pending;
   bool eof;
   bool dst;
   const lab_fold_verify_opts_t *o;
   const char *key;
   const bson_value_t *after; /* a retry: skip documents whose key is <= this; NULL once past it */
   state_t *st;
} reader_t;

/* reader_fill -- take the next document into rd->pending unless one is there or the stream ended;
 * on a retry the documents up to the last verified key are skipped. */
static bool
reader_fill (reader_t *rd, bson_error_t *error)
{
   const bson_t *doc;
   bson_value_t v;
   int rc;

   while (!rd->pending && !rd->eof) {
      rd->st->taken++;
      if (rd->o->fault && !rd->o->fault (rd->o->fault_ctx, rd->dst, rd->st->taken, error)) {
         return false;
      }
      rc = lab_store_cursor_next (rd->cur, &doc, error);
      if (rc < 0) {
         return false;
      }
      if (rc == 0) {
         rd->eof = true;
         break;
      }
      if (rd->after) {
         lab_fold_verify_key_of (doc, rd->key, &v);
         if (lab_store_value_compare (&v, rd->after) <= 0) {
            continue; /* verified before the retry */
         }
         rd->after = NULL; /* the stream is sorted: nothing further is <= it */
      }
      rd->pending = doc;
   }
   return true;
}

/* reader_take -- the pending document is consumed (the next reader_fill may move the cursor). */
static void
reader_take (reader_t *rd)
{
   rd->pending = NULL;
}

/* verify_open -- both sides sorted by the key; on a retry from the last verified key L: key >= L (no
 * bound when L is null: {$gte: null} matches only null), the readers skipping keys <= L. */
static bool
verify_open (lab_store_session_t *sess, const lab_fold_verify_opts_t *o, state_t *st, reader_t *src,
             reader_t *dst, bson_error_t *error)
{
   lab_store_sorted_opts_t so = { 0 };
   bool bound =
      st->have_last && st->last.value_type != BSON_TYPE_NULL && st->last.value_type != BSON_TYPE_UNDEFINED;

   so.batch_docs = o->batch_docs;
   so.lo = bound ? &st->last : NULL;
   src->o = dst->o = o;
   src->key = dst->key = o->target.key;
   src->st = dst->st = st;
   src->after = dst->after = st->have_last ? &st->last : NULL;
   dst->dst = true;
   src->cur = lab_store_sorted_open (sess, o->target.src, o->target.key, &so, error);
   if (!src->cur) {
      lab_error_prefix (error, "--verify: reading '%s' sorted by '%s'", o->target.src, o->target.key);
      return false;
   }
   if (o->target.shape == LAB_FOLD_SHAPE_CLUSTERED) {
      /* a clustered copy has no key index: its natural order is _id order, {<key>, id}, so key order
       * (the reader skips the keys already verified) */
      lab_store_natural_opts_t no = { { 0, 0 }, o->batch_docs };
      dst->cur = lab_store_natural_open (sess, o->target.dst, &no, error);
   } else {
      dst->cur = lab_store_sorted_open (sess, o->target.dst, o->target.key, &so, error);
   }
   if (!dst->cur) {
      lab_error_prefix (error, "--verify: reading '%s' sorted by '%s'", o->target.dst, o->target.key);
      return false;
   }
   return true;
}

/* checkpoint -- the master with key `key` is accounted on both sides: remember it. */
static void
checkpoint (state_t *st, const bson_value_t *key)
{
   if (st->have_last) {
      bson_value_destroy (&st->last);
   }
   bson_value_copy (key, &st->last);
   st->have_last = true;
}

/* ---- the pipeline: one thread reads, the calling thread hashes ---------------------------------- *
 *
 * The reader thread does what the bare index-order read does -- both streams in lockstep, a master at a
 * time -- and copies each document into a batch with the steps of the merge (a master begins, one of its
 * documents, a master is accounted); the calling thread takes whole batches and does the hashing, the
 * unfolding and the accounting in the same order, so results, differences and the retry point are those
 * of a one-thread merge. Memory: at most PIPE_BATCHES batches of about PIPE_BATCH_BYTES (plus one
 * document). The test hook and the progress stay on the reader, which meets documents in stream order. */

#define PIPE_BATCHES 8
#define PIPE_BATCH_BYTES (2 * 1024 * 1024)
#define PIPE_BATCH_OPS 16384

typedef enum { OP_SRC_BEGIN, OP_SRC_DOC, OP_DST_BEGIN, OP_DST_DOC, OP_ACCOUNT } op_kind_t;

/* One step of the merge. BEGIN: `key` is an owned copy (moved into the group); DOC: the document at
 * `off` in the batch's arena; ACCOUNT: `cmp` of the source and destination masters' keys. */
typedef struct {
   uint8_t kind;
   int8_t cmp;
   bool key_missing;
   uint32_t off;
   bson_value_t key;
} op_t;

typedef struct batch_s {
   op_t *ops;
   size_t nops, ops_cap;
   uint8_t *arena;
   size_t len, cap;
   struct batch_s *next;
} batch_t;

typedef struct {
   pthread_mutex_t mu;
   pthread_cond_t cv;
   batch_t *ready, *ready_tail; /* filled, in order */
   batch_t *free;
   int nbatches;
   bool reader_done; /* no batch follows the ready ones */
   bool hash_failed; /* the hashing side failed: the reader stops */
   /* the reader thread's */
   batch_t *cur;
   reader_t src, dst;
   lab_progress_t *p;
   size_t batch_bytes; /* documents' bytes per batch (PIPE_BATCH_BYTES unless the options say) */
   bool read_ok;
   bson_error_t read_error;
} pipe_t;

/* batch_clear -- empty b for reuse (keys not moved out are freed). */
static void
batch_clear (batch_t *b)
{
   for (size_t i = 0; i < b->nops; i++) {
      if (b->ops[i].kind == OP_SRC_BEGIN || b->ops[i].kind == OP_DST_BEGIN) {
         bson_value_destroy (&b->ops[i].key);
      }
   }
   b->nops = 0;
   b->len = 0;
}

/* batch_free -- a batch and what it holds. */
static void
batch_free (batch_t *b)
{
   if (b) {
      batch_clear (b);
      bson_free (b->ops);
      bson_free (b->arena);
      bson_free (b);
   }
}

/* pipe_flush -- hand the reader's current batch (if any steps) to the hashing side, and (`take`) take a
 * free one, waiting while all are in use; false when the hashing side failed (the reader stops). */
static bool
pipe_flush (pipe_t *pp, bool take)
{
   bool ok;

   pthread_mutex_lock (&pp->mu);
   if (pp->cur && pp->cur->nops) {
      pp->cur->next = NULL;
      if (pp->ready_tail) {
         pp->ready_tail->next = pp->cur;
      } else {
         pp->ready = pp->cur;
      }
      pp->ready_tail = pp->cur;
      pp->cur = NULL;
      pthread_cond_broadcast (&pp->cv);
   }
   while (take && !pp->cur && !pp->hash_failed) {
      if (pp->free) {
         pp->cur = pp->free;
         pp->free = pp->free->next;
      } else if (pp->nbatches < PIPE_BATCHES) {
         pp->cur = bson_malloc0 (sizeof *pp->cur);
         pp->nbatches++;
      } else {
         pthread_cond_wait (&pp->cv, &pp->mu);
      }
   }
   ok = !pp->hash_failed;
   pthread_mutex_unlock (&pp->mu);
   return ok;
}

/* pipe_op -- a new step in the current batch (flushed first when full); NULL when the hashing side
 * failed. `doc`: copied into the arena (DOC steps). */
static op_t *
pipe_op (pipe_t *pp, op_kind_t kind, const bson_t *doc)
{
   batch_t *b = pp->cur;
   size_t need = doc ? ((size_t)doc->len + 7) & ~(size_t)7 : 0;
   op_t *op;

   if (!b || b->nops == PIPE_BATCH_OPS || (b->len && b->len + need > pp->batch_bytes)) {
      if (!pipe_flush (pp, true)) {
         return NULL;
      }
      b = pp->cur;
   }
   if (b->nops == b->ops_cap) {
      b->ops_cap = b->ops_cap ? b->ops_cap * 2 : 256;
      b->ops = bson_realloc (b->ops, b->ops_cap * sizeof *b->ops);
   }
   op = &b->ops[b->nops++];
   memset (op, 0, sizeof *op);
   op->kind = (uint8_t)kind;
   if (doc) {
      if (b->len + need > b->cap) {
         b->cap = b->len + need > pp->batch_bytes ? b->len + need : pp->batch_bytes;
         b->arena = bson_realloc (b->arena, b->cap);
      }
      memcpy (b->arena + b->len, bson_get_data (doc), doc->len);
      op->off = (uint32_t)b->len;
      b->len += need;
   }
   return op;
}

/* read_group -- the reader's next master of one side: a BEGIN step, then a DOC step per document; its
 * key into *gkey (*have false at the end of the stream). */
static bool
read_group (pipe_t *pp, reader_t *rd, bson_value_t *gkey, bool *have, bson_error_t *error)
{
   bson_value_t v;
   op_t *op;
   bool missing;

   if (*have) {
      bson_value_destroy (gkey);
      *have = false;
   }
   if (!reader_fill (rd, error)) {
      return false;
   }
   if (!rd->pending) {
      return true;
   }
   missing = !lab_fold_verify_key_of (rd->pending, rd->key, &v);
   bson_value_copy (&v, gkey);
   *have = true;
   if (!(op = pipe_op (pp, rd->dst ? OP_DST_BEGIN : OP_SRC_BEGIN, NULL))) {
      return true; /* the hashing side failed and reports it */
   }
   bson_value_copy (&v, &op->key);
   op->key_missing = missing;
   for (;;) {
      if (!rd->dst) {
         lab_progress_add (pp->p, 1, rd->pending->len);
      }
      if (!pipe_op (pp, rd->dst ? OP_DST_DOC : OP_SRC_DOC, rd->pending)) {
         return true;
      }
      reader_take (rd);
      if (!reader_fill (rd, error)) {
         return false;
      }
      if (!rd->pending) {
         return true;
      }
      lab_fold_verify_key_of (rd->pending, rd->key, &v);
      if (lab_store_value_compare (&v, gkey) != 0) {
         return true;
      }
   }
}

/* read_thread -- the lockstep read: each turn consumes the master with the smaller key (or both when
 * equal), then an ACCOUNT step. Its error stays in pp->read_error; the batch so far is handed over
 * either way (what was accounted before a failure stays accounted, as in a one-thread merge). */
static void *
read_thread (void *arg)
{
   pipe_t *pp = arg;
   bson_value_t ks, kd;
   bool hs = false, hd = false, ok = false;
   op_t *op;
   int cmp;

   if (!read_group (pp, &pp->src, &ks, &hs, &pp->read_error) ||
       !read_group (pp, &pp->dst, &kd, &hd, &pp->read_error)) {
      goto done;
   }
   while (hs || hd) {
      cmp = !hs ? 1 : !hd ? -1 : lab_store_value_compare (&ks, &kd);
      if (!(op = pipe_op (pp, OP_ACCOUNT, NULL))) {
         break;
      }
      op->cmp = (int8_t)(cmp < 0 ? -1 : cmp > 0 ? 1 : 0);
      if (cmp <= 0 && !read_group (pp, &pp->src, &ks, &hs, &pp->read_error)) {
         goto done;
      }
      if (cmp >= 0 && !read_group (pp, &pp->dst, &kd, &hd, &pp->read_error)) {
         goto done;
      }
   }
   ok = true;
done:
   if (hs) {
      bson_value_destroy (&ks);
   }
   if (hd) {
      bson_value_destroy (&kd);
   }
   pp->read_ok = ok;
   pipe_flush (pp, false);
   pthread_mutex_lock (&pp->mu);
   pp->reader_done = true;
   pthread_cond_broadcast (&pp->cv);
   pthread_mutex_unlock (&pp->mu);
   return NULL;
}

/* begin_group -- a master begins on one side: the group takes the step's key. */
static void
begin_group (group_t *g, op_t *op)
{
   lab_fold_verify_group_reset (g);
   g->key = op->key;
   g->key_missing = op->key_missing;
   g->have = true;
   memset (&op->key, 0, sizeof op->key); /* moved (an EOD value frees nothing) */
}

/* hash_batch -- the hashing side of one batch's steps, in order. */
static bool
hash_batch (batch_t *b, const lab_fold_verify_opts_t *o, const char *bfield, lab_fold_bucket_unit_t bunit,
            int64_t max, state_t *st, group_t *gs, group_t *gd, lab_fold_verify_result_t *res,
            bson_error_t *error)
{
   bson_t doc;
   uint32_t len;
   bool valid;

   for (size_t i = 0; i < b->nops; i++) {
      op_t *op = &b->ops[i];
      if (op->kind == OP_SRC_DOC || op->kind == OP_DST_DOC) {
         memcpy (&len, b->arena + op->off, 4);
         len = BSON_UINT32_FROM_LE (len);
         valid = bson_init_static (&doc, b->arena + op->off, len);
         BSON_ASSERT (valid); /* a copy of a bson_t's bytes */
      }
      switch (op->kind) {
      case OP_SRC_BEGIN:
         begin_group (gs, op);
         break;
      case OP_DST_BEGIN:
         begin_group (gd, op);
         break;
      case OP_SRC_DOC:
         lab_fold_hash_add (&gs->hash, lab_fold_row_hash (&doc));
         gs->rows++;
         break;
      case OP_DST_DOC:
         if (!lab_fold_verify_dst_doc (o, bfield, bunit, max, gd, &doc, error)) {
            return false;
         }
         break;
      default: /* OP_ACCOUNT */
         if (op->cmp >= 0) {
            lab_fold_verify_dst_finish (gd);
         }
         if (op->cmp < 0) {
            lab_fold_verify_account_src_only (o, gs, res);
         } else if (op->cmp > 0) {
            lab_fold_verify_account_dst_only (o, gd, res);
         } else {
            lab_fold_verify_account_both (o, gs, gd, res);
         }
         checkpoint (st, op->cmp <= 0 ? &gs->key : &gd->key);
         break;
      }
   }
   return true;
}

/* verify_try -- one try of the merge join, from the start or from the last verified key: the lockstep
 * read on a thread of its own, the hashing and accounting here (see the pipeline above). Each stream is
 * served by its key index with no blocking sort (store.h), the two cursors advance together;
 * test_fold_cli runs it with a cursor batch of a few documents so that getMores interleave on both sides. */
static bool
verify_try (lab_store_t *store, const lab_fold_verify_opts_t *o, state_t *st, lab_fold_verify_result_t *res,
            bson_error_t *error)
{
   lab_store_session_t *sess = NULL;
   pipe_t pp = { 0 };
   group_t gs = { 0 }, gd = { 0 };
   batch_t *b;
   bool ok = false, started = false, hashed = true;
   int64_t max, src_count = 0;
   char *bfield = NULL;
   lab_fold_bucket_unit_t bunit = LAB_BUCKET_NONE;
   pthread_t tid;
   bson_value_t after;
   bool have_after = false;
   int err;

   pthread_mutex_init (&pp.mu, NULL);
   pthread_cond_init (&pp.cv, NULL);
   if (o->target.bucket_by && !lab_fold_bucket_spec_parse (o->target.bucket_by, &bfield, &bunit, error)) {
      goto done;
   }
   sess = lab_store_session_open (store, error);
   if (!sess || !lab_fold_verify_check (store, sess, o, &max, error)) {
      goto done;
   }
   if (!st->p) {
      /* the progress total from the metadata: no scan before the join */
      if (lab_progress_enabled (o->progress) &&
          !lab_store_count_estimated (sess, o->target.src, &src_count, error)) {
         goto done;
      }
      st->p = lab_progress_new (o->progress, "verifying", "rows", (uint64_t)src_count);
   }
   if (!verify_open (sess, o, st, &pp.src, &pp.dst, error)) {
      goto done;
   }
   if (st->have_last) {
      /* the readers skip up to the key verified before this try: their own copy, as the accounting
       * moves st->last on while they read */
      bson_value_copy (&st->last, &after);
      have_after = true;
      pp.src.after = pp.dst.after = &after;
   }
   pp.p = st->p;
   pp.batch_bytes = o->pipe_batch_bytes ? o->pipe_batch_bytes : PIPE_BATCH_BYTES;
   if ((err = pthread_create (&tid, NULL, read_thread, &pp)) != 0) {
      lab_error_set (error, LAB_ERROR_IO, (uint32_t)err, "--verify: cannot start the reader thread: %s",
                     strerror (err));
      goto done;
   }
   started = true;
   for (;;) {
      pthread_mutex_lock (&pp.mu);
      while (!pp.ready && !pp.reader_done) {
         pthread_cond_wait (&pp.cv, &pp.mu);
      }
      b = pp.ready;
      if (b) {
         pp.ready = b->next;
         if (!pp.ready) {
            pp.ready_tail = NULL;
         }
      }
      pthread_mutex_unlock (&pp.mu);
      if (!b) {
         break; /* the reader is done and every batch is hashed */
      }
      if (hashed && !hash_batch (b, o, bfield, bunit, max, st, &gs, &gd, res, error)) {
         hashed = false;
      }
      batch_clear (b);
      pthread_mutex_lock (&pp.mu);
      b->next = pp.free;
      pp.free = b;
      pp.hash_failed = !hashed;
      pthread_cond_broadcast (&pp.cv);
      pthread_mutex_unlock (&pp.mu);
   }
   /* the hashing side's error first: it is earlier in stream order than anything the reader met after */
   if (hashed && !pp.read_ok) {
      memcpy (error, &pp.read_error, sizeof *error);
   }
   ok = hashed && pp.read_ok;
done:
   if (started) {
      pthread_join (tid, NULL);
   }
   batch_free (pp.cur);
   while ((b = pp.free)) {
      pp.free = b->next;
      batch_free (b);
   }
   while ((b = pp.ready)) {
      pp.ready = b->next;
      batch_free (b);
   }
   pthread_mutex_destroy (&pp.mu);
   pthread_cond_destroy (&pp.cv);
   lab_fold_verify_group_reset (&gs);
   lab_fold_verify_group_reset (&gd);
   lab_store_cursor_close (pp.src.cur);
   lab_store_cursor_close (pp.dst.cur);
   lab_store_session_close (sess);
   if (have_after) {
      bson_value_destroy (&after);
   }
   bson_free (bfield);
   return ok;
}

/* lab_fold_verify_ordered -- see verify.h: tries of the merge join, each after a transient error resuming
 * from the last verified key, each logged. */
bool
lab_fold_verify_ordered (lab_store_t *store, const lab_fold_verify_opts_t *o, lab_fold_verify_result_t *res,
                         bson_error_t *error)
{
   state_t st = { 0 };
   uint64_t t0 = lab_now_ns ();
   bool ok = false, retry;
   char *from, *where;
   int attempt;

   memset (res, 0, sizeof *res);
   for (attempt = 0;; attempt++) {
      if (verify_try (store, o, &st, res, error)) {
         if (attempt > 0) {
            lab_log_info ("verify: finished after %d retr%s", attempt, attempt == 1 ? "y" : "ies");
         }
         ok = true;
         break;
      }
      from = st.have_last ? lab_value_to_text (&st.last) : NULL;
      where = from ? bson_strdup_printf ("past the last verified key %s", from)
                   : bson_strdup ("from the start (no master verified yet)");
      retry = lab_fold_verify_retry_wait (o, attempt, where, error, res);
      bson_free (from);
      bson_free (where);
      if (!retry) {
         break;
      }
      res->retries++;
   }
   if (ok) {
      res->equal = res->differing_masters == 0 && res->oversize_docs == 0;
   }
   lab_progress_done (st.p);
   if (st.have_last) {
      bson_value_destroy (&st.last);
   }
   res->elapsed_s = (double)(lab_now_ns () - t0) / 1e9;
   return ok;
}

/* lab_fold_verify_method_name -- see verify.h. */
const char *
lab_fold_verify_method_name (lab_fold_verify_method_t m)
{
   return m == LAB_VERIFY_ORDERED ? "ordered" : "multiset";
}

/* lab_fold_verify -- see verify.h: the method asked for. */
bool
lab_fold_verify (lab_store_t *store, const lab_fold_verify_opts_t *o, lab_fold_verify_result_t *res,
                 bson_error_t *error)
{
   bool ok = o->method == LAB_VERIFY_ORDERED ? lab_fold_verify_ordered (store, o, res, error)
                                             : lab_fold_verify_multiset (store, o, res, error);

   res->method = o->method;
   return ok;
}
