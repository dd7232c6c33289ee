/*
 * natural.c -- parallel natural-order scans of several collections (natural.h).
 */
#include "natural.h"

#include "error.h"
#include "workers.h"

#include <pthread.h>
#include <string.h>

/* Documents a thread reads between two looks at the stop flag and two progress updates. */
#define NATURAL_TICK 256

/* One range of one collection: a task of the queue. */
typedef struct {
   size_t coll;
   lab_store_natural_range_t range;
} task_t;

/* The job's shared state. */
typedef struct {
   lab_store_t *store;
   const lab_store_natural_scan_t *job;
   task_t *tasks;
   size_t ntasks;
   size_t next;              /* atomic: the next task to take */
   int stop;                 /* atomic: a thread failed, the others stop */
   pthread_mutex_t fault_mu; /* the fault hook's calls and count */
   int64_t taken;            /* documents taken over the job (the fault hook's count) */
   int64_t *docs;            /* atomic adds: per collection */
   int64_t *bytes;
} shared_t;

/* One thread's context for lab_workers_run. */
typedef struct {
   shared_t *sh;
} worker_t;

/* scan_stop -- lab_workers_t's stop hook. */
static void
scan_stop (void *ctx)
{
   __atomic_store_n (&((shared_t *)ctx)->stop, 1, __ATOMIC_RELAXED);
}

/* read_task -- one range, document by document into the job's function. */
static bool
read_task (shared_t *sh, lab_store_session_t *sess, int index, void *wctx, const task_t *t,
           bson_error_t *error)
{
   const lab_store_natural_scan_t *job = sh->job;
   lab_store_natural_opts_t no = { 0 };
   lab_store_cursor_t *cur;
   const bson_t *doc;
   int64_t n = 0, nbytes = 0, tick = 0;
   bool ok = false;
   int rc = 0;

   no.range = t->range;
   no.batch_docs = job->batch_docs;
   cur = lab_store_natural_open (sess, job->colls[t->coll], &no, error);
   if (!cur) {
      return false;
   }
   for (;;) {
      if (job->fault) {
         /* one thread at a time, and none after a failure: a fault fails one read, as in one thread */
         bool stopped, faulted;
         pthread_mutex_lock (&sh->fault_mu);
         stopped = __atomic_load_n (&sh->stop, __ATOMIC_RELAXED) != 0;
         faulted = !stopped && !job->fault (job->fault_ctx, t->coll, ++sh->taken, error);
         if (faulted) {
            __atomic_store_n (&sh->stop, 1, __ATOMIC_RELAXED);
         }
         pthread_mutex_unlock (&sh->fault_mu);
         if (stopped) {
            ok = true;
            goto done;
         }
         if (faulted) {
            goto done;
         }
      }
      if ((rc = lab_store_cursor_next (cur, &doc, error)) <= 0) {
         break;
      }
      n++;
      nbytes += doc->len;
      if (!job->fn (wctx, index, t->coll, doc, error)) {
         goto done;
      }
      if (++tick == NATURAL_TICK) {
         tick = 0;
         lab_progress_add (job->progress, NATURAL_TICK, 0);
         if (__atomic_load_n (&sh->stop, __ATOMIC_RELAXED)) {
            /* another thread failed: its error is the job's, this one just stops */
            ok = true;
            goto done;
         }
      }
   }
   ok = rc == 0;
done:
   lab_progress_add (job->progress, (uint64_t)tick, 0);
   if (t->coll < 8) {
      __atomic_add_fetch (&sh->docs[t->coll], n, __ATOMIC_RELAXED);
      __atomic_add_fetch (&sh->bytes[t->coll], nbytes, __ATOMIC_RELAXED);
   }
   if (!ok) {
      lab_error_prefix (error, "reading '%s' in natural order", job->colls[t->coll]);
   }
   lab_store_cursor_close (cur);
   return ok;
}

/* scan_worker -- take tasks until none is left, in this thread's own session. */
static bool
scan_worker (void *arg, int index, bson_error_t *error)
{
   worker_t *w = arg;
   shared_t *sh = w->sh;
   const lab_store_natural_scan_t *job = sh->job;
   void *wctx = job->wctx_size ? (char *)job->wctx + (size_t)index * job->wctx_size : job->wctx;
   lab_store_session_t *sess = lab_store_session_open (sh->store, error);
   bool ok = sess != NULL;
   size_t i;

   /* a thread that sees another one's failure stops without an error of its own: the failure is the
    * job's error whatever the workers' order (core/workers.h reports the first by index) */
   while (ok && !__atomic_load_n (&sh->stop, __ATOMIC_RELAXED) &&
          (i = __atomic_fetch_add (&sh->next, 1, __ATOMIC_RELAXED)) < sh->ntasks) {
      ok = read_task (sh, sess, index, wctx, &sh->tasks[i], error);
   }
   lab_store_session_close (sess);
   return ok;
}

/* make_tasks -- every collection's ranges, interleaved: range 0 of each collection, then range 1 of
 * each, ... so that the threads read all the collections at once. */
static bool
make_tasks (lab_store_t *store, const lab_store_natural_scan_t *job, shared_t *sh, bson_error_t *error)
{
   int per = job->ranges_per_coll > 0 ? job->ranges_per_coll : 4 * job->workers;
   lab_store_natural_range_t **ranges = bson_malloc0 (job->ncolls * sizeof *ranges);
   int *nranges = bson_malloc0 (job->ncolls * sizeof *nranges);
   lab_store_session_t *sess = lab_store_session_open (store, error);
   bool ok = sess != NULL;
   int r, most = 0;
   size_t c;

   for (c = 0; ok && c < job->ncolls; c++) {
      ok = lab_store_natural_ranges (sess, job->colls[c], per, &ranges[c], &nranges[c], error);
      most = nranges[c] > most ? nranges[c] : most;
   }
   if (ok) {
      sh->tasks = bson_malloc0 ((size_t)most * job->ncolls * sizeof *sh->tasks + 1);
      for (r = 0; r < most; r++) {
         for (c = 0; c < job->ncolls; c++) {
            if (r < nranges[c]) {
               sh->tasks[sh->ntasks].coll = c;
               sh->tasks[sh->ntasks].range = ranges[c][r];
               sh->ntasks++;
            }
         }
      }
   }
   for (c = 0; c < job->ncolls; c++) {
      bson_free (ranges[c]);
   }
   bson_free (ranges);
   bson_free (nranges);
   lab_store_session_close (sess);
   return ok;
}

/* lab_store_natural_scan -- see natural.h. */
bool
lab_store_natural_scan (lab_store_t *store, const lab_store_natural_scan_t *job,
                        lab_store_natural_scan_stats_t *stats, bson_error_t *error)
{
   shared_t sh = { 0 };
   worker_t *w = NULL;
   lab_store_natural_scan_stats_t st = { 0 };
   bool ok = false;
   int i, n = job->workers > 0 ? job->workers : 1;

   pthread_mutex_init (&sh.fault_mu, NULL);
   sh.store = store;
   sh.job = job;
   sh.docs = st.docs;
   sh.bytes = st.bytes;
   if (!make_tasks (store, job, &sh, error)) {
      goto done;
   }
   st.ranges = (int)sh.ntasks;
   w = bson_malloc0 ((size_t)n * sizeof *w);
   for (i = 0; i < n; i++) {
      w[i].sh = &sh;
   }
   lab_workers_t pool = {
      .fn = scan_worker,
      .args = w,
      .arg_size = sizeof *w,
      .stop = scan_stop,
      .stop_ctx = &sh,
   };
   ok = lab_workers_run (&pool, n, NULL, error);
done:
   if (stats) {
      *stats = st;
   }
   bson_free (w);
   bson_free (sh.tasks);
   pthread_mutex_destroy (&sh.fault_mu);
   return ok;
}
