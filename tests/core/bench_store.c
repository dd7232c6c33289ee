/*
 * bench_store.c -- insert and sorted-stream throughput of one store backend, through core/store.h only.
 * Driven by scripts/bench-store.sh, which runs it on the embedded store and on the test server and puts
 * the figures side by side. Not a test: it asserts nothing about speed.
 *
 * It writes N bill-detail-like rows of about 300 bytes (interleaved: a window of 1000 open bills, 130
 * rows each), unordered bulk batches from one session; builds the bill_id index after the data (as
 * fold-details' source would have it); then reads the whole collection back sorted by bill_id.
 */
#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"
#include "core/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROWS_PER_BILL 130
#define OPEN_BILLS 1000

static const char usage[] =
   "usage: bench_store --uri URI [--docs N] [--batch N] [--sorted-batch N] [--coll NAME] [--keep] [--json "
   "FILE|-]\n"
   "\n"
   "Insert N rows of ~300 bytes (default 100000) in unordered batches (default 1000), index bill_id,\n"
   "then stream them sorted by bill_id; print rows/s of each phase (JSON with --json).\n"
   "--sorted-batch sets the cursor batch size (default: derived from the average row size).\n"
   "The collection (default bench_rows) is dropped first and, unless --keep, at the end.\n"
   "\n"
   "Examples:\n"
   "  bench_store --uri wiredtiger:/tmp/bench --docs 1000000 --json -\n"
   "  bench_store --uri mongodb://127.0.0.1:27017/bench --docs 100000\n";

static double
now_s (void)
{
   struct timespec ts;
   clock_gettime (CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* make_row -- row i: bill_id from a rolling window of open bills, so one bill's rows are scattered. */
static bson_t *
make_row (int64_t i)
{
   static const char pad[] = "ward=B7;dept=cardiology;payer=national-health-insurance;note=routine-line";
   int64_t window = i / ((int64_t)OPEN_BILLS * ROWS_PER_BILL);
   int64_t bill = window * OPEN_BILLS + i % OPEN_BILLS + 1;
   char item[48];
   bson_t *d = bson_sized_new (320);

   bson_snprintf (item, sizeof item, "ITEM-%06" PRId64 "-%s", (i * 2654435761u) % 1000000,
                  (i & 1) ? "drug" : "service");
   BSON_APPEND_INT64 (d, "bill_id", bill);
   BSON_APPEND_INT32 (d, "line", (int32_t)((i / OPEN_BILLS) % ROWS_PER_BILL));
   BSON_APPEND_UTF8 (d, "item_code", item);
   BSON_APPEND_UTF8 (d, "item_name", "Sodium chloride 0.9% infusion 500 ml bag");
   BSON_APPEND_INT32 (d, "qty", (int32_t)(i % 7) + 1);
   BSON_APPEND_DOUBLE (d, "unit_price", 12.5 + (double)(i % 100));
   BSON_APPEND_DOUBLE (d, "amount", (12.5 + (double)(i % 100)) * (double)((i % 7) + 1));
   BSON_APPEND_DATE_TIME (d, "charged_at", INT64_C (1700000000000) + i * 1000);
   BSON_APPEND_UTF8 (d, "doctor", "DR-004217");
   BSON_APPEND_UTF8 (d, "memo", pad);
   return d;
}

int
main (int argc, char **argv)
{
   const char *uri = NULL, *json = NULL, *coll = "bench_rows", *v;
   int64_t ndocs = 100000, batch = 1000, sorted_batch = 0, i, n = 0, bytes = 0, sorted_n = 0,
           sorted_bytes = 0;
   bool keep = false;
   lab_store_opts_t opts = { 0 };
   lab_store_t *store = NULL;
   lab_store_session_t *sess = NULL;
   lab_store_cursor_t *cur = NULL;
   lab_store_sorted_opts_t so = { 0 };
   lab_store_server_info_t info;
   bson_t **docs = NULL, out = BSON_INITIALIZER;
   bson_error_t err;
   double t0, t_insert, t_index, t_sorted;
   const bson_t *doc;
   int r, a, ret = 1;

   lab_log_set_tool ("bench_store");
   lab_log_sink_set (lab_log_sink_stderr, NULL);

   lab_log_sink_set (lab_log_sink_stderr, NULL);
   for (a = 1; a < argc; a++) {
      if (!strcmp (argv[a], "-h") || !strcmp (argv[a], "--help")) {
         fputs (usage, stdout);
         return 0;
      } else if (!strcmp (argv[a], "--keep")) {
         keep = true;
      } else if ((r = lab_cli_value (argc, argv, &a, "--uri", &uri, &err)) ||
                 (r = lab_cli_value (argc, argv, &a, "--json", &json, &err)) ||
                 (r = lab_cli_value (argc, argv, &a, "--coll", &coll, &err))) {
         if (r < 0) {
            goto usage_err;
         }
      } else if ((r = lab_cli_value (argc, argv, &a, "--docs", &v, &err))) {
         if (r < 0 || !lab_parse_int (v, "--docs", 1, INT64_C (1000000000), &ndocs, &err)) {
            goto usage_err;
         }
      } else if ((r = lab_cli_value (argc, argv, &a, "--sorted-batch", &v, &err))) {
         if (r < 0 || !lab_parse_int (v, "--sorted-batch", 0, 1000000, &sorted_batch, &err)) {
            goto usage_err;
         }
      } else if ((r = lab_cli_value (argc, argv, &a, "--batch", &v, &err))) {
         if (r < 0 || !lab_parse_int (v, "--batch", 1, 100000, &batch, &err)) {
            goto usage_err;
         }
      } else {
         lab_error_set (&err, LAB_ERROR_USAGE, 1, "unknown argument '%s' (try --help)", argv[a]);
         goto usage_err;
      }
   }
   if (!uri) {
      lab_error_set (&err, LAB_ERROR_USAGE, 1, "--uri is required (try --help)");
      goto usage_err;
   }

   opts.create = true;
   if (!(store = lab_store_open (uri, &opts, &err)) || !(sess = lab_store_session_open (store, &err)) ||
       !lab_store_server_info (store, &info, &err) || !lab_store_drop (sess, coll, &err) ||
       !lab_store_create (sess, coll, &err)) {
      goto fail;
   }

   /* insert */
   docs = bson_malloc ((size_t)batch * sizeof *docs);
   t0 = now_s ();
   for (i = 0; i < ndocs; i += batch) {
      int64_t m = ndocs - i < batch ? ndocs - i : batch, j;
      lab_store_insert_result_t res;
      bool ok;

      for (j = 0; j < m; j++) {
         docs[j] = make_row (i + j);
         bytes += docs[j]->len;
      }
      ok = lab_store_insert_many (sess, coll, (const bson_t *const *)docs, (size_t)m, &res, &err);
      for (j = 0; j < m; j++) {
         bson_destroy (docs[j]);
      }
      if (!ok) {
         goto fail;
      }
      if (res.nerrors) {
         lab_error_set (&err, LAB_ERROR_STORE, res.errors[0].code, "document %" PRId64 " refused: %s",
                        i + (int64_t)res.errors[0].index, res.errors[0].message);
         lab_store_insert_result_cleanup (&res);
         goto fail;
      }
      n += res.inserted;
      lab_store_insert_result_cleanup (&res);
   }
   if (!lab_store_flush (store, &err)) {
      goto fail;
   }
   t_insert = now_s () - t0;

   /* index after the data */
   t0 = now_s ();
   if (!lab_store_create_index (sess, coll, "bill_id", &err)) {
      goto fail;
   }
   t_index = now_s () - t0;

   /* sorted stream */
   so.batch_docs = (int32_t)sorted_batch;
   t0 = now_s ();
   if (!(cur = lab_store_sorted_open (sess, coll, "bill_id", &so, &err))) {
      goto fail;
   }
   while ((r = lab_store_cursor_next (cur, &doc, &err)) == 1) {
      sorted_n++;
      sorted_bytes += doc->len;
   }
   if (r < 0) {
      goto fail;
   }
   t_sorted = now_s () - t0;
   lab_store_cursor_close (cur);
   cur = NULL;
   if (sorted_n != n) {
      lab_error_set (&err, LAB_ERROR_VERIFY, 1,
                     "the sorted stream returned %" PRId64 " rows, %" PRId64 " were inserted", sorted_n, n);
      goto fail;
   }
   if (!keep && !lab_store_drop (sess, coll, &err)) {
      goto fail;
   }

   BSON_APPEND_UTF8 (&out, "backend", info.backend);
   BSON_APPEND_UTF8 (&out, "version", info.version);
   BSON_APPEND_UTF8 (&out, "uri", lab_store_uri_redacted (store));
   BSON_APPEND_INT64 (&out, "docs", n);
   BSON_APPEND_DOUBLE (&out, "avg_doc_bytes", (double)bytes / (double)n);
   BSON_APPEND_INT64 (&out, "batch_docs", batch);
   BSON_APPEND_DOUBLE (&out, "insert_s", t_insert);
   BSON_APPEND_DOUBLE (&out, "insert_rows_per_s", (double)n / t_insert);
   BSON_APPEND_DOUBLE (&out, "index_s", t_index);
   BSON_APPEND_DOUBLE (&out, "sorted_s", t_sorted);
   BSON_APPEND_DOUBLE (&out, "sorted_rows_per_s", (double)sorted_n / t_sorted);
   BSON_APPEND_DOUBLE (&out, "sorted_mb_per_s", (double)sorted_bytes / 1e6 / t_sorted);
   if (json && !lab_json_write (&out, json, &err)) {
      goto fail;
   }
   if (!json || strcmp (json, "-") != 0) {
      printf ("%s (%s): %" PRId64
              " rows of %.0f B: insert %.0f rows/s, index %.2f s, sorted stream %.0f rows/s\n",
              info.backend, lab_store_uri_redacted (store), n, (double)bytes / (double)n,
              (double)n / t_insert, t_index, (double)sorted_n / t_sorted);
   }
   ret = 0;
   goto done;

usage_err:
   lab_log_error ("%s", err.message);
   return 2;
fail:
   lab_log_error ("%s", err.message);
   ret = lab_error_exit_code (&err);
done:
   lab_store_cursor_close (cur);
   bson_free (docs);
   bson_destroy (&out);
   lab_store_session_close (sess);
   lab_store_close (store);
   return ret;
}
