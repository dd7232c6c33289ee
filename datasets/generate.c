/*
 * generate.c -- `billgen generate`: the generator's rows into a collection through the batched loader,
 * then the index on the key field (built after the data, as mongod does for a bulk load: sorted keys
 * into a bulk cursor; the embedded store kept the keys as the rows went in, lab_store_collect_index). With N
 * workers
 * (--parallel) each generates and writes every N-th chunk of rows; see gen_worker for why the result does
 * not depend on N.
 */
#include "datasets/billgen.h"

#include "core/error.h"
#include "core/opts.h"
#include "core/workers.h"
#include "datasets/loader.h"

#include <unistd.h>

bool
lab_gen_prepare_dst (lab_store_session_t *sess, const char *coll, bool drop, bool append, bool allow_append,
                     const bson_t *provenance, bool *owned, bson_error_t *error)
{
   bool exists = false;
   int64_t count = 0;

   *owned = false;
   if (!lab_store_exists (sess, coll, &exists, error)) {
      return false;
   }
   if (exists && drop) {
      if (!lab_store_drop (sess, coll, error)) {
         lab_error_prefix (error, "cannot drop collection '%s'", coll);
         return false;
      }
      exists = false;
   }
   if (exists) {
      if (!lab_store_count (sess, coll, &count, error)) {
         return false;
      }
      if (count > 0 && !append) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_EXISTS,
                        "collection '%s' already holds %" PRId64 " documents: add --drop to replace it%s",
                        coll, count, allow_append ? " or --append to add to it" : "");
         return false;
      }
   }
   if (!lab_store_create (sess, coll, error)) {
      lab_error_prefix (error, "cannot create collection '%s'", coll);
      return false;
   }
   *owned = !append || count == 0;
   if (*owned && provenance && !lab_store_mark_put (sess, coll, provenance, error)) {
      return false;
   }
   return true;
}

/* lab_gen_generate_opts_check -- see billgen.h. */
bool
lab_gen_generate_opts_check (const lab_gen_generate_opts_t *o, bson_error_t *error)
{
   lab_gen_t *g = lab_gen_new (&o->gen, error);
   bool ok = g != NULL;

   lab_gen_destroy (g);
   return ok;
}

/* Shared by the generate workers. */
typedef struct {
   lab_store_t *store;
   const lab_gen_generate_opts_t *o;
   lab_gen_loader_opts_t lo;
   lab_progress_t *prog;
   int nworkers;
   int64_t chunk;      /* rows per chunk: worker k builds chunks k, k + N, k + 2N, ... */
   int64_t total_rows; /* from the generator's pre-pass */
   int stop;           /* atomic: a worker failed */
} gen_shared_t;

/* One worker's context and results. */
typedef struct {
   gen_shared_t *sh;
   int64_t rows, bson_bytes, open_bills_peak;
} gen_worker_t;

/* gen_stop -- lab_workers_t's stop hook: the other workers stop at their next chunk. */
static void
gen_stop (void *ctx)
{
   __atomic_store_n (&((gen_shared_t *)ctx)->stop, 1, __ATOMIC_RELAXED);
}

/* gen_worker -- one worker: its own generator (skipping the other workers' chunks, so each row is the
 * one a single generator would give at that sequence number) and its own loader, which places row i at
 * natural-order position i. So the documents, their _ids and their RecordIds do not depend on the number
 * of workers. */
static bool
gen_worker (void *arg, int index, bson_error_t *error)
{
   gen_worker_t *w = arg;
   gen_shared_t *sh = w->sh;
   const lab_gen_generate_opts_t *o = sh->o;
   lab_gen_t *g = NULL;
   lab_gen_loader_t *l = NULL;
   bool ok = false;

   g = lab_gen_new (&o->gen, error);
   if (!g) {
      goto done;
   }
   l = lab_gen_loader_new (sh->store, o->coll, &sh->lo, NULL, NULL, error);
   if (!l) {
      goto done;
   }
   for (int64_t pos = (int64_t)index * sh->chunk; pos < sh->total_rows;
        pos += (int64_t)sh->nworkers * sh->chunk) {
      int64_t n = 0, bytes = 0;
      if (__atomic_load_n (&sh->stop, __ATOMIC_RELAXED)) {
         /* another worker failed and reports: a failure here would be reported in its place when this
          * worker's index is lower (lab_workers_run reports the first by index), hiding the cause (seen:
          * "stopped: another worker failed" instead of ENOSPC in tests/fault/disk_full.sh) */
         ok = true;
         goto done;
      }
      lab_gen_skip (g, pos - lab_gen_position (g));
      if (!lab_gen_loader_seek (l, pos, error)) {
         goto done;
      }
      while (n < sh->chunk) {
         bson_t *doc = lab_gen_loader_doc (l);
         lab_gen_row_t row;
         if (!lab_gen_next (g, doc, &row)) {
            break;
         }
         n++;
         bytes += doc->len;
         if (!lab_gen_loader_add (l, NULL, row.bill_id, NULL, 0, error)) {
            goto done;
         }
      }
      w->rows += n;
      w->bson_bytes += bytes;
      lab_progress_add (sh->prog, (uint64_t)n, (uint64_t)bytes);
   }
   int64_t inserted = 0;
   lab_gen_loader_t *fin = l;
   l = NULL;
   if (!lab_gen_loader_finish (fin, &inserted, error)) {
      goto done;
   }
   if (inserted != w->rows) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "worker %d: %" PRId64 " rows generated but %" PRId64 " written", index, w->rows,
                     inserted);
      goto done;
   }
   ok = true;

done:
   if (!ok) {
      lab_error_prefix (error, "collection '%s'", o->coll);
   }
   w->open_bills_peak = g ? lab_gen_open_bills_peak (g) : 0;
   lab_gen_loader_abort (l);
   lab_gen_destroy (g);
   return ok;
}

bool
lab_gen_generate (lab_store_t *store, const lab_gen_generate_opts_t *o, lab_gen_generate_stats_t *st,
                  bson_error_t *error)
{
   lab_store_session_t *sess = NULL;
   lab_gen_t *g = NULL;
   gen_worker_t *w = NULL;
   lab_store_server_info_t info;
   bool owned = false, ok = false;
   uint64_t t0 = lab_now_ns (), t1;
   double cpu0 = lab_process_cpu_s ((int64_t)getpid ());
   int nworkers = o->parallel > 0 ? o->parallel : 1;

   memset (st, 0, sizeof *st);
   g = lab_gen_new (&o->gen, error);
   if (!g) {
      goto done;
   }
   if (!lab_store_server_info (store, &info, error)) {
      goto done;
   }
   sess = lab_store_session_open (store, error);
   if (!sess) {
      goto done;
   }
   if (!lab_gen_prepare_dst (sess, o->coll, o->drop, false, false, o->provenance, &owned, error)) {
      goto done;
   }
   /* the key index is built after the data; the embedded store keeps its keys as the rows go in, so the
    * build does not read the collection back */
   if (!lab_store_collect_index (sess, o->coll, o->gen.key ? o->gen.key : "bill_id", error)) {
      goto done;
   }

   gen_shared_t sh = {
      .store = store,
      .o = o,
      .lo = {
         .batch_docs = o->batch_docs ? o->batch_docs : 1000,
         .batch_bytes = (uint64_t)lab_store_write_budget_bytes (info.max_message_bytes),
         .keep_raw = false,
         .positioned = true,
      },
      .nworkers = nworkers,
      .total_rows = lab_gen_total_rows (g),
   };
   sh.chunk = (int64_t)sh.lo.batch_docs;
   sh.prog = lab_progress_new (o->progress, "generating", "rows", (uint64_t)sh.total_rows);
   w = bson_malloc0 ((size_t)nworkers * sizeof *w);
   for (int i = 0; i < nworkers; i++) {
      w[i].sh = &sh;
   }
   lab_workers_t pool = {
      .fn = gen_worker,
      .args = w,
      .arg_size = sizeof *w,
      .stop = gen_stop,
      .stop_ctx = &sh,
   };
   bool ran = lab_workers_run (&pool, nworkers, NULL, error);
   for (int i = 0; i < nworkers; i++) {
      st->rows += w[i].rows;
      st->bson_bytes += w[i].bson_bytes;
      st->open_bills_peak = BSON_MAX (st->open_bills_peak, w[i].open_bills_peak);
   }
   lab_progress_done (sh.prog);
   if (!ran) {
      goto done;
   }
   if (st->rows != sh.total_rows) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "collection '%s': %" PRId64 " rows generated, %" PRId64 " expected", o->coll, st->rows,
                     sh.total_rows);
      goto done;
   }
   st->insert_seconds = (double)(lab_now_ns () - t0) / 1e9;
   t1 = lab_now_ns ();
   if (!lab_store_create_index (sess, o->coll, o->gen.key ? o->gen.key : "bill_id", error)) {
      lab_error_prefix (error, "collection '%s': cannot index '%s'", o->coll,
                        o->gen.key ? o->gen.key : "bill_id");
      goto done;
   }
   st->index_seconds = (double)(lab_now_ns () - t1) / 1e9;
   t1 = lab_now_ns ();
   if (!lab_store_flush (store, error)) {
      goto done;
   }
   st->flush_seconds = (double)(lab_now_ns () - t1) / 1e9;
   /* durable now: the tables journaled again (a store opened unlogged filled them), so that later
    * writers journal as on a standalone mongod; no cursor of this session may stay open on them (a
    * failure here leaves the complete collection, unlogged, and says so) */
   lab_store_session_close (sess);
   sess = NULL;
   if (!lab_store_set_journaled (store, o->coll, error)) {
      goto done;
   }
   st->bills = lab_gen_total_bills (g);
   st->oversize_bills = o->gen.oversize;
   st->oversize_rows_per_bill = lab_gen_oversize_rows (g);
   st->workers = nworkers;
   ok = true;

done:
   bson_free (w);
   if (!ok && owned && sess) {
      bson_error_t e2;
      (void)lab_store_drop (sess, o->coll, &e2);
   }
   lab_store_session_close (sess);
   lab_gen_destroy (g);
   st->seconds = (double)(lab_now_ns () - t0) / 1e9;
   st->cpu_seconds = lab_process_cpu_s ((int64_t)getpid ()) - cpu0;
   return ok;
}
