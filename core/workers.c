/*
 * workers.c -- the worker pool of workers.h: one thread per context, each worker's error in its own
 * slot, joined and reported by the parent.
 */
#include "core/workers.h"

#include "core/error.h"

#include <string.h>

typedef struct {
   const lab_workers_t *w;
   int index;
   pthread_t tid;
   bool started;
   bool failed;
   bson_error_t error;
} slot_t;

/* slot_arg -- worker i's context. */
static void *
slot_arg (const lab_workers_t *w, int i)
{
   return w->arg_size ? (char *)w->args + (size_t)i * w->arg_size : w->args;
}

/* slot_run -- run one worker and keep its outcome in its slot. */
static void
slot_run (slot_t *s)
{
   if (!s->w->fn (slot_arg (s->w, s->index), s->index, &s->error)) {
      s->failed = true;
      if (s->w->stop) {
         s->w->stop (s->w->stop_ctx);
      }
   }
}

/* slot_main -- the thread's entry. */
static void *
slot_main (void *arg)
{
   slot_run (arg);
   return NULL;
}

/* lab_workers_run -- see workers.h. */
bool
lab_workers_run (const lab_workers_t *w, int n, int *failed, bson_error_t *error)
{
   lab_thread_create_fn create = w->create ? w->create : pthread_create;
   slot_t *slots;
   int i, first = -1;

   if (failed) {
      *failed = -1;
   }
   if (n < 1) {
      return true;
   }
   slots = bson_malloc0 ((size_t)n * sizeof *slots);
   for (i = 0; i < n; i++) {
      slots[i].w = w;
      slots[i].index = i;
   }
   if (n == 1) {
      slot_run (&slots[0]);
   } else {
      for (i = 0; i < n; i++) {
         int err = create (&slots[i].tid, NULL, slot_main, &slots[i]);
         if (err != 0) {
            slots[i].failed = true;
            lab_error_set_errno (&slots[i].error, err, "cannot start worker thread %d", i);
            if (w->stop) {
               w->stop (w->stop_ctx);
            }
            break;
         }
         slots[i].started = true;
      }
      for (i = 0; i < n; i++) {
         if (slots[i].started) {
            pthread_join (slots[i].tid, NULL);
         }
      }
   }
   for (i = 0; i < n && first < 0; i++) {
      if (slots[i].failed) {
         first = i;
      }
   }
   if (first >= 0) {
      memcpy (error, &slots[first].error, sizeof *error);
      if (failed) {
         *failed = first;
      }
   }
   bson_free (slots);
   return first < 0;
}
