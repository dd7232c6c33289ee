/*
 * verify.c -- the merge-join verification of a folded collection against its source (see verify.h).
 */
#include "verify.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/keyenc.h"
#include "core/log.h"
#include "core/opts.h"
#include "retry.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
 * lab_cursor_next, which is only called once it has been consumed (reader_take) -- no copy per row. */
typedef struct {
   lab_cursor_t *cur;
   const bson_t *pending;
   bool eof;
   bool dst;
   const lab_verify_opts_t *o;
   const char *key;
   const bson_value_t *after; /* a retry: skip documents whose key is <= this; NULL once past it */
   state_t *st;
} reader_t;

/* One master's figures on one side. */
typedef struct {
   bool have;
   bson_value_t key;
   bool key_missing; /* source rows without the key field */
   int64_t rows;
   lab_hash_t hash;
   /* destination only */
   int64_t docs;
   int32_t parts;
   int64_t part_sum;
   bool parts_bad;
   int64_t largest;          /* its largest document */
   int64_t oversize;         /* its documents over the cap */
   char oversize_first[256]; /* the first of them, described */
   /* destination only, buckets: the current document's window and the first bucket problem */
   const char *bucket_field;
   int64_t win_lo_ms;
   int64_t win_hi_ms;
   const char *doc_id; /* the current document's _id as text, for messages */
   char bucket_bad[400];
} group_t;

static bool key_of (const bson_t *doc, const char *key, bson_value_t *v);

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
      rc = lab_cursor_next (rd->cur, &doc, error);
      if (rc < 0) {
         return false;
      }
      if (rc == 0) {
         rd->eof = true;
         break;
      }
      if (rd->after) {
         key_of (doc, rd->key, &v);
         if (lab_value_compare (&v, rd->after) <= 0) {
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

static void
group_reset (group_t *g)
{
   if (g->have) {
      bson_value_destroy (&g->key);
   }
   memset (g, 0, sizeof *g);
}

/* key_of -- the key value of doc (null when missing). */
static bool
key_of (const bson_t *doc, const char *key, bson_value_t *v)
{
   bson_iter_t it;

   if (bson_iter_init_find (&it, doc, key)) {
      *v = *bson_iter_value (&it);
      return true;
   }
   memset (v, 0, sizeof *v);
   v->value_type = BSON_TYPE_NULL;
   return false;
}

/* dst_row -- one rebuilt row of a bucket-by document: hashed, counted, its date checked against the
 * document's window. */
static bool
dst_row (void *ctx, const bson_t *row, bson_error_t *error)
{
   group_t *g = ctx;
   bson_iter_t it;
   int64_t ms;

   lab_hash_add (&g->hash, lab_row_hash (row));
   g->rows++;
   if (g->bucket_field && !g->bucket_bad[0]) {
      if (!bson_iter_init_find (&it, row, g->bucket_field) || !BSON_ITER_HOLDS_DATE_TIME (&it)) {
         bson_snprintf (g->bucket_bad, sizeof g->bucket_bad,
                        "document _id %s holds a row without a date '%s' (row %lld of the master)", g->doc_id,
                        g->bucket_field, (long long)g->rows);
      } else if ((ms = bson_iter_date_time (&it)) < g->win_lo_ms || ms >= g->win_hi_ms) {
         bson_snprintf (
            g->bucket_bad, sizeof g->bucket_bad,
            "document _id %s holds a row whose '%s' (%lld ms) lies outside its bucket [%lld, %lld)",
            g->doc_id, g->bucket_field, (long long)ms, (long long)g->win_lo_ms, (long long)g->win_hi_ms);
      }
   }
   return true;
}

/* bucket_doc_check -- before unfolding: the document's bucket_start is a date that starts a window. */
static void
bucket_doc_check (group_t *g, const bson_t *doc, lab_bucket_unit_t unit)
{
   bson_iter_t it;
   int64_t start;

   if (!bson_iter_init_find (&it, doc, LAB_FOLD_BUCKET_START) || !BSON_ITER_HOLDS_DATE_TIME (&it)) {
      if (!g->bucket_bad[0]) {
         bson_snprintf (g->bucket_bad, sizeof g->bucket_bad,
                        "document _id %s has no date '%s' (a --bucket-by fold gives every document one)",
                        g->doc_id, LAB_FOLD_BUCKET_START);
      }
      g->win_lo_ms = INT64_MIN;
      g->win_hi_ms = INT64_MAX;
      return;
   }
   start = bson_iter_date_time (&it);
   g->win_lo_ms = lab_bucket_window (start, unit, &g->win_hi_ms);
   if (g->win_lo_ms != start && !g->bucket_bad[0]) {
      bson_snprintf (g->bucket_bad, sizeof g->bucket_bad,
                     "document _id %s: %s %lld ms does not start a %s window", g->doc_id,
                     LAB_FOLD_BUCKET_START, (long long)start, lab_bucket_unit_name (unit));
   }
}

/* dst_doc -- one destination document into its master's group: unfolded rows, parts, sizes, buckets
 * (into the group only: the result takes them when the master is accounted). */
static bool
dst_doc (const lab_verify_opts_t *o, const char *bucket_field, lab_bucket_unit_t unit, int64_t max,
         group_t *g, const bson_t *doc, bson_error_t *error)
{
   lab_fold_doc_info_t info;
   bson_iter_t it;
   char *idt, *kt;
   bool unfolded;

   idt = NULL; /* the _id as text only where a bucket message may need it */
   if (bucket_field || o->bucket_rows > 0) {
      idt = bson_iter_init_find (&it, doc, "_id") ? lab_value_to_text (bson_iter_value (&it))
                                                  : bson_strdup ("?");
   }
   g->doc_id = idt;
   g->bucket_field = bucket_field;
   if (bucket_field) {
      bucket_doc_check (g, doc, unit);
   }
   if (bucket_field) {
      /* every row's date is checked against the window: the rows are rebuilt */
      unfolded = lab_fold_unfold (doc, o->key, o->array_field, dst_row, g, &info, error);
   } else {
      /* hashed in place, no row built (what dst_row would add, row by row) */
      unfolded = lab_fold_unfold_hash (doc, o->key, o->array_field, &g->hash, &info, error);
      g->rows += unfolded ? info.row_count : 0;
   }
   if (unfolded && o->bucket_rows > 0 && info.row_count > o->bucket_rows && !g->bucket_bad[0]) {
      bson_snprintf (g->bucket_bad, sizeof g->bucket_bad,
                     "document _id %s holds %d rows, over --bucket-rows %d", idt, info.row_count,
                     o->bucket_rows);
   }
   g->doc_id = NULL;
   g->bucket_field = NULL;
   bson_free (idt);
   if (!unfolded) {
      lab_error_prefix (error, "'%s'", o->dst);
      return false;
   }
   if ((int64_t)doc->len > g->largest) {
      g->largest = doc->len;
   }
   if ((int64_t)doc->len > max) {
      g->oversize++;
      if (!g->oversize_first[0]) {
         idt = bson_iter_init_find (&it, doc, "_id") ? lab_value_to_text (bson_iter_value (&it))
                                                     : bson_strdup ("?");
         kt = lab_value_to_text (&g->key);
         bson_snprintf (g->oversize_first, sizeof g->oversize_first,
                        "master %s=%s: document _id %s is %u bytes, over the %lld-byte cap", o->key, kt, idt,
                        doc->len, (long long)max);
         bson_free (idt);
         bson_free (kt);
      }
   }
   if (g->docs == 0) {
      g->parts = info.parts;
   } else if (info.parts != g->parts) {
      g->parts_bad = true;
   }
   g->part_sum += info.part;
   g->docs++;
   return true;
}

/* dst_finish -- a destination master read to its end: parts 0..parts-1 each once, by the right count and
 * the right sum (parts are checked < parts by unfold). */
static void
dst_finish (group_t *g)
{
   if (g->docs != g->parts || g->part_sum != (int64_t)g->parts * (g->parts - 1) / 2) {
      g->parts_bad = true;
   }
}

static int
strp_cmp (const void *a, const void *b)
{
   return strcmp (*(char *const *)a, *(char *const *)b);
}

/* skipped -- the master was rejected by this run (expected absent). */
static bool
skipped (const lab_verify_opts_t *o, const bson_value_t *key)
{
   bson_error_t e;
   char *kid;
   bool found;

   if (!o->nskip) {
      return false;
   }
   kid = lab_fold_key_id (key, &e);
   if (!kid) {
      return false;
   }
   found = bsearch (&kid, o->skip_key_ids, o->nskip, sizeof (char *), strp_cmp) != NULL;
   bson_free (kid);
   return found;
}

/* differ -- count a differing master; the first one is described. */
static void differ (lab_verify_result_t *res, const char *keyname, const bson_value_t *key, const char *fmt,
                    ...) BSON_GNUC_PRINTF (4, 5);

static void
differ (lab_verify_result_t *res, const char *keyname, const bson_value_t *key, const char *fmt, ...)
{
   va_list ap;
   char what[512];
   char *kt;

   res->differing_masters++;
   if (res->first_difference[0]) {
      return;
   }
   va_start (ap, fmt);
   bson_vsnprintf (what, sizeof what, fmt, ap);
   va_end (ap);
   kt = lab_value_to_text (key);
   bson_snprintf (res->first_difference, sizeof res->first_difference, "master %s=%s: %s", keyname, kt, what);
   bson_free (kt);
}

/* account_src_only -- a source master with no destination documents: a difference unless skipped. */
static void
account_src_only (const lab_verify_opts_t *o, const group_t *gs, lab_verify_result_t *res)
{
   res->src_masters++;
   res->src_rows += gs->rows;
   lab_hash_add (&res->src_hash, gs->hash);
   if (gs->key_missing) {
      differ (res, o->key, &gs->key, "%lld source rows have no '%s' field and cannot be in the destination",
              (long long)gs->rows, o->key);
   } else if (skipped (o, &gs->key)) {
      res->skipped_masters++;
   } else {
      differ (res, o->key, &gs->key, "%lld source rows, missing from the destination", (long long)gs->rows);
   }
}

/* account_dst_docs -- a destination master's documents: count, largest, over the cap. */
static void
account_dst_docs (const group_t *gd, lab_verify_result_t *res)
{
   res->dst_docs += gd->docs;
   if (gd->largest > res->largest_doc_bytes) {
      res->largest_doc_bytes = gd->largest;
   }
   res->oversize_docs += gd->oversize;
   if (gd->oversize && !res->first_difference[0]) {
      bson_strncpy (res->first_difference, gd->oversize_first, sizeof res->first_difference);
   }
}

/* account_dst_only -- destination documents of a master the source does not have. */
static void
account_dst_only (const lab_verify_opts_t *o, const group_t *gd, lab_verify_result_t *res)
{
   account_dst_docs (gd, res);
   res->dst_masters++;
   res->dst_rows += gd->rows;
   lab_hash_add (&res->dst_hash, gd->hash);
   differ (res, o->key, &gd->key, "%lld rows in the destination, none in the source", (long long)gd->rows);
}

/* account_both -- a master on both sides: same rows, same contents, parts numbered once each. */
static void
account_both (const lab_verify_opts_t *o, const group_t *gs, const group_t *gd, lab_verify_result_t *res)
{
   account_dst_docs (gd, res);
   res->src_masters++;
   res->dst_masters++;
   res->src_rows += gs->rows;
   res->dst_rows += gd->rows;
   lab_hash_add (&res->src_hash, gs->hash);
   lab_hash_add (&res->dst_hash, gd->hash);
   if (gs->rows != gd->rows) {
      differ (res, o->key, &gs->key, "%lld rows in the source, %lld in the destination", (long long)gs->rows,
              (long long)gd->rows);
   } else if (gs->hash.lo != gd->hash.lo || gs->hash.hi != gd->hash.hi) {
      differ (res, o->key, &gs->key,
              "same %lld rows counted but their contents differ (checksum %016llx%016llx in the source, "
              "%016llx%016llx in the destination)",
              (long long)gs->rows, (unsigned long long)gs->hash.hi, (unsigned long long)gs->hash.lo,
              (unsigned long long)gd->hash.hi, (unsigned long long)gd->hash.lo);
   } else if (gd->parts_bad) {
      differ (res, o->key, &gs->key, "its %lld destination documents do not number parts 0..%d once each",
              (long long)gd->docs, gd->parts - 1);
   } else if (gd->bucket_bad[0]) {
      differ (res, o->key, &gs->key, "%s", gd->bucket_bad);
   }
}

/* verify_check -- both collections exist; the document cap in force (*max). */
static bool
verify_check (lab_store_t *store, lab_session_t *sess, const lab_verify_opts_t *o, int64_t *max,
              bson_error_t *error)
{
   const char *names[2] = { o->src, o->dst };
   lab_server_info_t info;
   bool exists;
   int i;

   for (i = 0; i < 2; i++) {
      if (!lab_store_exists (sess, names[i], &exists, error)) {
         return false;
      }
      if (!exists) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                        "--verify: collection '%s' does not exist in %s (database '%s')", names[i],
                        lab_store_uri_redacted (store), lab_store_db (store));
         return false;
      }
   }
   if (!lab_store_server_info (store, &info, error)) {
      return false;
   }
   *max = o->max_doc_bytes > 0 ? o->max_doc_bytes : info.max_bson_bytes;
   return true;
}

/* verify_open -- both sides sorted by the key; on a retry from the last verified key L: key >= L (no
 * bound when L is null: {$gte: null} matches only null), the readers skipping keys <= L. */
static bool
verify_open (lab_session_t *sess, const lab_verify_opts_t *o, state_t *st, reader_t *src, reader_t *dst,
             bson_error_t *error)
{
   lab_sorted_opts_t so = { 0 };
   bool bound =
      st->have_last && st->last.value_type != BSON_TYPE_NULL && st->last.value_type != BSON_TYPE_UNDEFINED;

   so.batch_docs = o->batch_docs;
   so.lo = bound ? &st->last : NULL;
   src->o = dst->o = o;
   src->key = dst->key = o->key;
   src->st = dst->st = st;
   src->after = dst->after = st->have_last ? &st->last : NULL;
   dst->dst = true;
   src->cur = lab_store_sorted_open (sess, o->src, o->key, &so, error);
   if (!src->cur) {
      lab_error_prefix (error, "--verify: reading '%s' sorted by '%s'", o->src, o->key);
      return false;
   }
   dst->cur = lab_store_sorted_open (sess, o->dst, o->key, &so, error);
   if (!dst->cur) {
      lab_error_prefix (error, "--verify: reading '%s' sorted by '%s'", o->dst, o->key);
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
   missing = !key_of (rd->pending, rd->key, &v);
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
      key_of (rd->pending, rd->key, &v);
      if (lab_value_compare (&v, gkey) != 0) {
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
      cmp = !hs ? 1 : !hd ? -1 : lab_value_compare (&ks, &kd);
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
   group_reset (g);
   g->key = op->key;
   g->key_missing = op->key_missing;
   g->have = true;
   memset (&op->key, 0, sizeof op->key); /* moved (an EOD value frees nothing) */
}

/* hash_batch -- the hashing side of one batch's steps, in order. */
static bool
hash_batch (batch_t *b, const lab_verify_opts_t *o, const char *bfield, lab_bucket_unit_t bunit, int64_t max,
            state_t *st, group_t *gs, group_t *gd, lab_verify_result_t *res, bson_error_t *error)
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
         lab_hash_add (&gs->hash, lab_row_hash (&doc));
         gs->rows++;
         break;
      case OP_DST_DOC:
         if (!dst_doc (o, bfield, bunit, max, gd, &doc, error)) {
            return false;
         }
         break;
      default: /* OP_ACCOUNT */
         if (op->cmp >= 0) {
            dst_finish (gd);
         }
         if (op->cmp < 0) {
            account_src_only (o, gs, res);
         } else if (op->cmp > 0) {
            account_dst_only (o, gd, res);
         } else {
            account_both (o, gs, gd, res);
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
verify_try (lab_store_t *store, const lab_verify_opts_t *o, state_t *st, lab_verify_result_t *res,
            bson_error_t *error)
{
   lab_session_t *sess = NULL;
   pipe_t pp = { 0 };
   group_t gs = { 0 }, gd = { 0 };
   batch_t *b;
   bool ok = false, started = false, hashed = true;
   int64_t max, src_count = 0;
   char *bfield = NULL;
   lab_bucket_unit_t bunit = LAB_BUCKET_NONE;
   pthread_t tid;
   bson_value_t after;
   bool have_after = false;
   int err;

   pthread_mutex_init (&pp.mu, NULL);
   pthread_cond_init (&pp.cv, NULL);
   if (o->bucket_by && !lab_bucket_spec_parse (o->bucket_by, &bfield, &bunit, error)) {
      goto done;
   }
   sess = lab_session_open (store, error);
   if (!sess || !verify_check (store, sess, o, &max, error)) {
      goto done;
   }
   if (!st->p) {
      /* the progress total from the metadata: no scan before the join */
      if (lab_progress_enabled (o->progress) &&
          !lab_store_count_estimated (sess, o->src, &src_count, error)) {
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
   group_reset (&gs);
   group_reset (&gd);
   lab_cursor_close (pp.src.cur);
   lab_cursor_close (pp.dst.cur);
   lab_session_close (sess);
   if (have_after) {
      bson_value_destroy (&after);
   }
   bson_free (bfield);
   return ok;
}

/* lab_verify -- see verify.h: tries of the merge join, each after a transient error resuming from the
 * last verified key, each logged. */
bool
lab_verify (lab_store_t *store, const lab_verify_opts_t *o, lab_verify_result_t *res, bson_error_t *error)
{
   state_t st = { 0 };
   int64_t first = o->retry_first_delay_ms > 0 ? o->retry_first_delay_ms : LAB_RETRY_FIRST_DELAY_MS;
   int64_t delay, slept;
   uint64_t t0 = lab_now_ns ();
   bool ok = false;
   char *from;
   int attempt;

   memset (res, 0, sizeof *res);
   for (attempt = 0;; attempt++) {
      if (verify_try (store, o, &st, res, error)) {
         if (attempt > 0) {
            lab_log_info ("--verify: finished after %d retr%s", attempt, attempt == 1 ? "y" : "ies");
         }
         ok = true;
         break;
      }
      if (attempt >= o->retries || !lab_retry_transient (error)) {
         res->gave_up_transient = lab_retry_transient (error);
         if (attempt > 0 && res->gave_up_transient) {
            lab_log_error ("--verify: still failing after %d retries: %s", attempt, error->message);
         }
         break;
      }
      delay = lab_retry_delay_ms (attempt + 1, first, LAB_RETRY_MAX_DELAY_MS);
      from = st.have_last ? lab_value_to_text (&st.last) : NULL;
      lab_log_info (
         "retry: --verify failed with a transient error (domain %u, code %u): %s; try %d of %d "
         "in %.1f s, %s%s",
         error->domain, error->code, error->message, attempt + 1, o->retries, (double)delay / 1000.0,
         from ? "past the last verified key " : "from the start (no master verified yet)", from ? from : "");
      bson_free (from);
      for (slept = 0; slept < delay; slept += 100) {
         usleep ((useconds_t)(delay - slept < 100 ? delay - slept : 100) * 1000);
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
