/*
 * workers.h -- a small worker pool: run one function on N per-worker contexts in N threads, join them
 * all, and hand the parent the first failure (fio's rule: each worker keeps its first error, the parent
 * reports it after joining).
 *
 * "First" is by worker index, not by time: worker 0's error wins over worker 3's even when worker 3
 * failed earlier, so the report does not depend on scheduling. A worker that fails usually makes the
 * others stop early (through `stop`); their own, later errors are then kept but not reported.
 */
#ifndef LAB_WORKERS_H
#define LAB_WORKERS_H

#include <bson/bson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* lab_worker_fn -- one worker's whole job on its context `arg` (worker `index`); false with *error set
 * on failure. The error slot is the worker's own: no locking needed. */
typedef bool (*lab_worker_fn) (void *arg, int index, bson_error_t *error);

/* lab_thread_create_fn -- pthread_create's signature; tests inject a failing one. */
typedef int (*lab_thread_create_fn) (pthread_t *tid, const pthread_attr_t *attr, void *(*start) (void *),
                                     void *arg);

typedef struct {
   lab_worker_fn fn;
   void *args;      /* the first of n contexts, laid out arg_size bytes apart (an array) */
   size_t arg_size; /* sizeof one context; 0: every worker gets `args` itself */
   /* called (from the failing thread, or from the parent when a thread cannot start) each time a worker
    * fails, so the others can stop early; may be NULL. Must be thread-safe (an atomic store). */
   void (*stop) (void *stop_ctx);
   void *stop_ctx;
   lab_thread_create_fn create; /* NULL: pthread_create */
} lab_workers_t;

/* lab_workers_run -- run w->fn on n (>= 1) contexts, one thread each (n == 1 runs in the calling
 * thread), and wait for all of them. true when every worker succeeded. Else *error is the first failure
 * by worker index and *failed (may be NULL) that index. A thread that cannot start counts as its
 * worker failing with LAB_ERROR_IO "cannot start worker thread I: <strerror>": `stop` is called, no
 * further thread is started, the started ones are joined; the workers never started (after it) do not
 * run. */
bool lab_workers_run (const lab_workers_t *w, int n, int *failed, bson_error_t *error);

#endif
