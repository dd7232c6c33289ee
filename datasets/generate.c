/*
 * generate.c -- `billgen generate`: the generator's rows into a collection through the batched loader,
 * then the index on the key field (built after the data, as mongod does for a bulk load).
 */
#include "datasets/billgen.h"

#include "core/error.h"
#include "core/opts.h"
#include "datasets/loader.h"

bool
lab_billgen_prepare_dst (lab_session_t *sess, const char *coll, bool drop, bool append, bool allow_append,
                         bool *owned, bson_error_t *error)
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
   return true;
}

/* lab_generate_opts_check -- see billgen.h. */
bool
lab_generate_opts_check (const lab_generate_opts_t *o, bson_error_t *error)
{
   lab_gen_t *g = lab_gen_new (&o->gen, error);
   bool ok = g != NULL;

   lab_gen_destroy (g);
   return ok;
}

bool
lab_billgen_generate (lab_store_t *store, const lab_generate_opts_t *o, lab_generate_stats_t *st,
                      bson_error_t *error)
{
   lab_session_t *sess = NULL;
   lab_gen_t *g = NULL;
   lab_loader_t *l = NULL;
   lab_progress_t *prog = NULL;
   lab_server_info_t info;
   bool owned = false, ok = false;
   uint64_t t0 = lab_now_ns ();
   int64_t pending_rows = 0, pending_bytes = 0;

   memset (st, 0, sizeof *st);
   g = lab_gen_new (&o->gen, error);
   if (!g) {
      goto done;
   }
   if (!lab_store_server_info (store, &info, error)) {
      goto done;
   }
   sess = lab_session_open (store, error);
   if (!sess) {
      goto done;
   }
   if (!lab_billgen_prepare_dst (sess, o->coll, o->drop, false, false, &owned, error)) {
      goto done;
   }

   lab_loader_opts_t lo = {
      .batch_docs = o->batch_docs ? o->batch_docs : 1000,
      .batch_bytes = (uint64_t)lab_store_write_budget_bytes (info.max_message_bytes),
      .keep_raw = false,
   };
   l = lab_loader_new (store, o->coll, &lo, NULL, NULL, error);
   if (!l) {
      goto done;
   }
   prog = lab_progress_new (o->progress, "generating", "rows", (uint64_t)lab_gen_total_rows (g));
   for (;;) {
      bson_t *doc = lab_loader_doc (l);
      lab_gen_row_t row;
      if (!lab_gen_next (g, doc, &row)) {
         break;
      }
      st->rows++;
      st->bson_bytes += doc->len;
      pending_rows++;
      pending_bytes += doc->len;
      if (!lab_loader_add (l, NULL, row.bill_id, NULL, 0, error)) {
         lab_error_prefix (error, "collection '%s'", o->coll);
         goto done;
      }
      if (pending_rows == 4096) {
         lab_progress_add (prog, (uint64_t)pending_rows, (uint64_t)pending_bytes);
         pending_rows = pending_bytes = 0;
      }
   }
   lab_progress_add (prog, (uint64_t)pending_rows, (uint64_t)pending_bytes);
   int64_t inserted = 0;
   lab_loader_t *fin = l;
   l = NULL;
   if (!lab_loader_finish (fin, &inserted, error)) {
      lab_error_prefix (error, "collection '%s'", o->coll);
      goto done;
   }
   if (inserted != st->rows) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "collection '%s': %" PRId64 " rows generated but %" PRId64 " written", o->coll, st->rows,
                     inserted);
      goto done;
   }
   st->insert_seconds = (double)(lab_now_ns () - t0) / 1e9;
   lab_progress_done (prog);
   prog = NULL;
   if (!lab_store_create_index (sess, o->coll, o->gen.key ? o->gen.key : "bill_id", error)) {
      lab_error_prefix (error, "collection '%s': cannot index '%s'", o->coll,
                        o->gen.key ? o->gen.key : "bill_id");
      goto done;
   }
   if (!lab_store_flush (store, error)) {
      goto done;
   }
   st->bills = lab_gen_total_bills (g);
   st->oversize_bills = o->gen.oversize;
   st->oversize_rows_per_bill = lab_gen_oversize_rows (g);
   st->open_bills_peak = lab_gen_open_bills_peak (g);
   ok = true;

done:
   lab_progress_done (prog);
   lab_loader_abort (l);
   if (!ok && owned && sess) {
      bson_error_t e2;
      (void)lab_store_drop (sess, o->coll, &e2);
   }
   lab_session_close (sess);
   lab_gen_destroy (g);
   st->seconds = (double)(lab_now_ns () - t0) / 1e9;
   return ok;
}
