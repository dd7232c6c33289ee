/*
 * loader.c -- batched inserts on a writer thread (see loader.h).
 *
 * Three batches circulate: one being filled by the producer, up to two queued or being written. A batch
 * goes producer -> `full` queue -> writer -> `free` queue -> producer, which reports its refusals before
 * filling it again, so every callback runs on the producer's thread.
 */
#include "datasets/loader.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#define NBATCH 3

typedef struct {
   bson_t *docs; /* cap + 1 entries, never reallocated (bson_t may point into itself) */
   const bson_t **ptrs;
   int64_t *tags;
   const char **srcs;
   size_t *raw_off, *raw_len;
   char *raw;
   size_t raw_used, raw_cap;
   size_t n;
   int64_t first; /* natural-order position of docs[0] (positioned loaders) */
   uint64_t bytes;
   bool has_result;
   lab_store_insert_result_t result;
} batch_t;

typedef struct {
   batch_t *item[NBATCH];
   size_t head, len;
} queue_t;

struct lab_loader {
   lab_store_t *store;
   char *coll;
   lab_gen_loader_opts_t o;
   lab_gen_loader_reject_cb_t cb;
   void *ctx;
   batch_t batches[NBATCH];
   batch_t *cur;
   pthread_t th;
   bool started;
   pthread_mutex_t mu;
   pthread_cond_t cv;
   queue_t full, free_q;
   bool stop;      /* no more batches will come */
   bool abort_now; /* skip what is queued */
   bool failed;    /* the writer hit an error */
   bson_error_t th_error;
   int64_t inserted;
   int64_t next_pos; /* position of the next document added (positioned loaders) */
};

static void
q_push (queue_t *q, batch_t *b)
{
   q->item[(q->head + q->len) % NBATCH] = b;
   q->len++;
}

static batch_t *
q_pop (queue_t *q)
{
   batch_t *b = q->item[q->head];
   q->head = (q->head + 1) % NBATCH;
   q->len--;
   return b;
}

/* writer -- the writer thread: insert full batches until told to stop. */
static void *
writer (void *arg)
{
   lab_gen_loader_t *l = arg;
   bson_error_t err;
   lab_store_session_t *sess = lab_store_session_open (l->store, &err);

   pthread_mutex_lock (&l->mu);
   if (!sess) {
      l->failed = true;
      l->th_error = err;
   }
   for (;;) {
      while (l->full.len == 0 && !l->stop) {
         pthread_cond_wait (&l->cv, &l->mu);
      }
      if (l->full.len == 0) {
         break;
      }
      batch_t *b = q_pop (&l->full);
      bool skip = l->failed || l->abort_now;
      pthread_mutex_unlock (&l->mu);

      bool ok = true;
      if (!skip) {
         memset (&b->result, 0, sizeof b->result);
         ok = lab_store_insert_many_at (sess, l->coll, b->ptrs, b->n, l->o.positioned ? b->first : -1,
                                        &b->result, &err);
         b->has_result = ok;
      }

      pthread_mutex_lock (&l->mu);
      if (!ok && !l->failed) {
         l->failed = true;
         l->th_error = err;
      }
      q_push (&l->free_q, b);
      pthread_cond_broadcast (&l->cv);
   }
   pthread_mutex_unlock (&l->mu);
   lab_store_session_close (sess);
   return NULL;
}

/* batch_reset -- empty a batch for refilling. */
static void
batch_reset (batch_t *b)
{
   if (b->has_result) {
      lab_store_insert_result_cleanup (&b->result);
      b->has_result = false;
   }
   b->n = 0;
   b->bytes = 0;
   b->raw_used = 0;
}

/* report -- account a returned batch and hand its refusals to the callback. */
static bool
report (lab_gen_loader_t *l, batch_t *b, bson_error_t *error)
{
   bool ok = true;
   if (b->has_result) {
      l->inserted += b->result.inserted;
      for (size_t i = 0; i < b->result.nerrors && ok; i++) {
         const lab_store_write_error_t *we = &b->result.errors[i];
         size_t k = we->index;
         lab_gen_loader_reject_t r = {
            .src = k < b->n ? b->srcs[k] : NULL,
            .tag = k < b->n ? b->tags[k] : -1,
            .raw = (l->o.keep_raw && k < b->n) ? b->raw + b->raw_off[k] : NULL,
            .raw_len = (l->o.keep_raw && k < b->n) ? b->raw_len[k] : 0,
            .domain = we->domain,
            .code = we->code,
            .message = we->message,
         };
         if (!l->cb) {
            lab_error_set (error, LAB_ERROR_STORE, we->code, "collection '%s': a document was refused: %s",
                           l->coll, we->message);
            ok = false;
         } else {
            ok = l->cb (&r, l->ctx, error);
         }
      }
   }
   batch_reset (b);
   return ok;
}

lab_gen_loader_t *
lab_gen_loader_new (lab_store_t *store, const char *coll, const lab_gen_loader_opts_t *opts,
                    lab_gen_loader_reject_cb_t cb, void *ctx, bson_error_t *error)
{
   lab_gen_loader_t *l = bson_malloc0 (sizeof *l);
   l->store = store;
   l->coll = bson_strdup (coll);
   l->o = *opts;
   if (l->o.batch_docs == 0) {
      l->o.batch_docs = 1000;
   }
   if (l->o.batch_bytes == 0) {
      l->o.batch_bytes = (uint64_t)lab_store_write_budget_bytes (0);
   }
   l->cb = cb;
   l->ctx = ctx;
   for (int i = 0; i < NBATCH; i++) {
      batch_t *b = &l->batches[i];
      size_t cap = l->o.batch_docs + 1;
      /* bson_t is declared 128-byte aligned: so must be the array */
      if (posix_memalign ((void **)&b->docs, 128, cap * sizeof *b->docs) != 0) {
         abort (); /* as bson_malloc does when out of memory */
      }
      memset (b->docs, 0, cap * sizeof *b->docs);
      b->ptrs = bson_malloc (cap * sizeof *b->ptrs);
      b->tags = bson_malloc (cap * sizeof *b->tags);
      b->srcs = bson_malloc (cap * sizeof *b->srcs);
      b->raw_off = bson_malloc (cap * sizeof *b->raw_off);
      b->raw_len = bson_malloc (cap * sizeof *b->raw_len);
      for (size_t k = 0; k < cap; k++) {
         bson_init (&b->docs[k]);
         b->ptrs[k] = &b->docs[k];
      }
      if (i > 0) {
         q_push (&l->free_q, b);
      }
   }
   l->cur = &l->batches[0];
   pthread_mutex_init (&l->mu, NULL);
   pthread_cond_init (&l->cv, NULL);
   int rc = pthread_create (&l->th, NULL, writer, l);
   if (rc != 0) {
      lab_error_set_errno (error, rc, "cannot start the writer thread");
      lab_gen_loader_abort (l);
      return NULL;
   }
   l->started = true;
   return l;
}

bson_t *
lab_gen_loader_doc (lab_gen_loader_t *l)
{
   bson_t *d = &l->cur->docs[l->cur->n];
   bson_reinit (d);
   return d;
}

/* hand_over -- queue the current batch for the writer and take a free one (reporting its refusals). */
static bool
hand_over (lab_gen_loader_t *l, bson_error_t *error)
{
   batch_t *b;
   pthread_mutex_lock (&l->mu);
   q_push (&l->full, l->cur);
   pthread_cond_broadcast (&l->cv);
   while (l->free_q.len == 0) {
      pthread_cond_wait (&l->cv, &l->mu);
   }
   b = q_pop (&l->free_q);
   bool failed = l->failed;
   bson_error_t err = l->th_error;
   pthread_mutex_unlock (&l->mu);
   l->cur = b;
   b->first = l->next_pos;
   if (!report (l, b, error)) {
      return false;
   }
   if (failed) {
      *error = err;
      return false;
   }
   return true;
}

/* stash -- record source facts of document k of batch b. */
static void
stash (lab_gen_loader_t *l, batch_t *b, size_t k, const char *src, int64_t tag, const char *raw,
       size_t raw_len)
{
   b->tags[k] = tag;
   b->srcs[k] = src;
   if (l->o.keep_raw) {
      if (b->raw_used + raw_len > b->raw_cap) {
         while (b->raw_used + raw_len > b->raw_cap) {
            b->raw_cap = b->raw_cap ? b->raw_cap * 2 : 65536;
         }
         b->raw = bson_realloc (b->raw, b->raw_cap);
      }
      if (raw_len) {
         memcpy (b->raw + b->raw_used, raw, raw_len);
      }
      b->raw_off[k] = b->raw_used;
      b->raw_len[k] = raw_len;
      b->raw_used += raw_len;
   }
}

bool
lab_gen_loader_add (lab_gen_loader_t *l, const char *src, int64_t tag, const char *raw, size_t raw_len,
                    bson_error_t *error)
{
   batch_t *b = l->cur;
   bson_t *d = &b->docs[b->n];

   if (b->n > 0 && b->bytes + d->len > l->o.batch_bytes) {
      /* this document would push the batch over its byte cap: send the batch without it */
      bson_t tmp;
      bson_copy_to (d, &tmp);
      if (!hand_over (l, error)) {
         bson_destroy (&tmp);
         return false;
      }
      b = l->cur;
      bson_destroy (&b->docs[0]);
      bson_copy_to (&tmp, &b->docs[0]);
      bson_destroy (&tmp);
      d = &b->docs[0];
   }
   stash (l, b, b->n, src, tag, raw, raw_len);
   b->bytes += d->len;
   b->n++;
   l->next_pos++;
   if (b->n >= l->o.batch_docs || b->bytes >= l->o.batch_bytes) {
      return hand_over (l, error);
   }
   return true;
}

bool
lab_gen_loader_seek (lab_gen_loader_t *l, int64_t pos, bson_error_t *error)
{
   if (l->cur->n > 0 && !hand_over (l, error)) {
      return false;
   }
   l->next_pos = pos;
   l->cur->first = pos;
   return true;
}

/* shutdown -- stop and join the writer. */
static void
shutdown_writer (lab_gen_loader_t *l, bool abort_now)
{
   if (!l->started) {
      return;
   }
   pthread_mutex_lock (&l->mu);
   l->stop = true;
   l->abort_now = abort_now;
   pthread_cond_broadcast (&l->cv);
   pthread_mutex_unlock (&l->mu);
   pthread_join (l->th, NULL);
   l->started = false;
}

/* loader_free -- release everything (the writer is stopped). */
static void
loader_free (lab_gen_loader_t *l)
{
   for (int i = 0; i < NBATCH; i++) {
      batch_t *b = &l->batches[i];
      if (b->has_result) {
         lab_store_insert_result_cleanup (&b->result);
      }
      if (b->docs) {
         for (size_t k = 0; k < l->o.batch_docs + 1; k++) {
            bson_destroy (&b->docs[k]);
         }
      }
      free (b->docs);
      bson_free (b->ptrs);
      bson_free (b->tags);
      bson_free (b->srcs);
      bson_free (b->raw_off);
      bson_free (b->raw_len);
      bson_free (b->raw);
   }
   pthread_mutex_destroy (&l->mu);
   pthread_cond_destroy (&l->cv);
   bson_free (l->coll);
   bson_free (l);
}

bool
lab_gen_loader_finish (lab_gen_loader_t *l, int64_t *inserted, bson_error_t *error)
{
   bool ok = true;

   if (l->cur->n > 0) {
      pthread_mutex_lock (&l->mu);
      q_push (&l->full, l->cur);
      pthread_cond_broadcast (&l->cv);
      pthread_mutex_unlock (&l->mu);
      l->cur = NULL;
   }
   shutdown_writer (l, false);
   /* every batch is back in the free queue now, in the order the writer finished them */
   while (l->free_q.len > 0) {
      batch_t *b = q_pop (&l->free_q);
      if (ok && !report (l, b, error)) {
         ok = false;
      }
   }
   if (ok && l->failed) {
      *error = l->th_error;
      ok = false;
   }
   if (inserted) {
      *inserted = l->inserted;
   }
   loader_free (l);
   return ok;
}

void
lab_gen_loader_abort (lab_gen_loader_t *l)
{
   if (!l) {
      return;
   }
   shutdown_writer (l, true);
   loader_free (l);
}

int64_t
lab_gen_loader_inserted (const lab_gen_loader_t *l)
{
   return l->inserted;
}
