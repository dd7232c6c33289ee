/*
 * bench_natural_read.c -- the ceiling of `fold-details --verify` (the multiset method) for
 * scripts/bench-fold.sh: bare natural-order scans of both collections through the store (store/natural.h),
 * with no hashing and no unfolding: each document's bytes are only touched. Two modes:
 *   scans   (default) two scans at once, one per collection, each whole on a thread of its own: the
 *           ceiling named by the fold's target ("two bare natural-order scans of both collections");
 *   ranges  the same threads over the same ranges of both collections as verify reads them (a thread
 *           that finishes its collection helps with the other): the read verify itself does.
 *
 * Not a test (timings vary by machine).
 *
 *   bench_natural_read URI SRC DST [CACHE_SIZE] [WORKERS] [scans|ranges]   (WORKERS default 2, as verify's)
 * prints one JSON line: {"src_docs": N, "dst_docs": N, "bytes": N, "elapsed_s": x, "rows_per_s": y,
 * "workers": W, "mode": M} (rows/s = source documents per second, as verify's rate).
 */
#include "core/error.h"
#include "store/natural.h"
#include "core/opts.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* die -- report and exit (a bench program may). */
static void
die (const char *what, const char *msg)
{
   fprintf (stderr, "bench_natural_read: %s: %s\n", what, msg);
   exit (1);
}

/* One thread's sum over every document's bytes, so the read is not optimised away (own cache line). */
typedef struct {
   uint64_t touch;
   char pad[56];
} touch_t;

/* touch -- read one byte in 64 of the document. */
static bool
touch (void *wctx, int worker, size_t coll, const bson_t *doc, bson_error_t *error)
{
   touch_t *t = wctx;
   const uint8_t *p = bson_get_data (doc);

   for (uint32_t i = 0; i < doc->len; i += 64) {
      t->touch += p[i];
   }
   return true;
}

int
main (int argc, char **argv)
{
   lab_store_opts_t o = { 0 };
   lab_store_natural_scan_stats_t st;
   bson_error_t e;
   int64_t workers = 2;
   uint64_t sum = 0;
   const char *mode = argc > 6 ? argv[6] : "scans";

   if (argc < 4) {
      die ("usage", "bench_natural_read URI SRC DST [CACHE_SIZE] [WORKERS] [scans|ranges]");
   }
   if (strcmp (mode, "scans") != 0 && strcmp (mode, "ranges") != 0) {
      die ("mode", "not scans or ranges");
   }
   if (argc > 4 && *argv[4] && !lab_parse_size (argv[4], "CACHE_SIZE", &o.cache_size_bytes, &e)) {
      die ("cache size", e.message);
   }
   if (argc > 5 && !lab_parse_int (argv[5], "WORKERS", 1, 64, &workers, &e)) {
      die ("workers", e.message);
   }
   lab_store_t *store = lab_store_open (argv[1], &o, &e);
   if (!store) {
      die ("open", e.message);
   }
   const char *colls[2] = { argv[2], argv[3] };
   touch_t *t = bson_malloc0 ((size_t)workers * sizeof *t);
   lab_store_natural_scan_t job = {
      .colls = colls,
      .ncolls = 2,
      .workers = (int)workers,
      .ranges_per_coll = strcmp (mode, "scans") == 0 ? 1 : 0, /* scans: a collection per thread */
      .fn = touch,
      .wctx = t,
      .wctx_size = sizeof *t,
   };
   uint64_t t0 = lab_now_ns ();
   if (!lab_store_natural_scan (store, &job, &st, &e)) {
      die ("scan", e.message);
   }
   double el = (double)(lab_now_ns () - t0) / 1e9;
   for (int i = 0; i < workers; i++) {
      sum += t[i].touch;
   }
   printf (
      "{\"src_docs\": %" PRId64 ", \"dst_docs\": %" PRId64 ", \"bytes\": %" PRId64
      ", \"elapsed_s\": %.3f, \"rows_per_s\": %.0f, \"workers\": %d, \"mode\": \"%s\", \"touch\": %" PRIu64
      "}\n",
      st.docs[0], st.docs[1], st.bytes[0] + st.bytes[1], el, el > 0 ? (double)st.docs[0] / el : 0.0,
      (int)workers, mode, sum);
   bson_free (t);
   lab_store_close (store);
   return 0;
}
