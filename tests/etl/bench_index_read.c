/*
 * bench_index_read.c -- the ceiling of `fold-details --verify` for scripts/bench-fold.sh: a bare
 * index-order read of both collections through the store (the same sorted streams verify merges, each
 * an index walk fetching every document), with no hashing, no unfolding and no merge. The two streams
 * are read in lockstep by key, as verify reads them.
 *
 * Not a test (timings vary by machine).
 *
 *   bench_index_read URI SRC DST [KEY] [CACHE_SIZE]   (KEY default bill_id)
 * prints one JSON line: {"src_docs": N, "dst_docs": N, "bytes": N, "elapsed_s": x, "rows_per_s": y}
 * (rows/s = source documents per second, as verify's rate).
 */
#include "core/error.h"
#include "core/keyenc.h"
#include "core/opts.h"
#include "core/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* die -- report and exit (a bench program may). */
static void
die (const char *what, const char *msg)
{
   fprintf (stderr, "bench_index_read: %s: %s\n", what, msg);
   exit (1);
}

/* One stream and its current document's key. */
typedef struct {
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bson_value_t key;
   int64_t docs;
   uint64_t bytes;
   uint64_t touch; /* a sum over every document's bytes, so the read is not optimised away */
} stream_t;

/* advance -- the next document of s (s->doc NULL at the end). */
static void
advance (stream_t *s, const char *key)
{
   bson_error_t e;
   bson_iter_t it;
   int rc = lab_store_cursor_next (s->cur, &s->doc, &e);

   if (rc < 0) {
      die ("read", e.message);
   }
   if (rc == 0) {
      s->doc = NULL;
      return;
   }
   s->docs++;
   s->bytes += s->doc->len;
   const uint8_t *p = bson_get_data (s->doc);
   for (uint32_t i = 0; i < s->doc->len; i += 64) {
      s->touch += p[i];
   }
   if (bson_iter_init_find (&it, s->doc, key)) {
      s->key = *bson_iter_value (&it);
   } else {
      memset (&s->key, 0, sizeof s->key);
      s->key.value_type = BSON_TYPE_NULL;
   }
}

int
main (int argc, char **argv)
{
   lab_store_opts_t o = { 0 };
   bson_error_t e;
   const char *key = argc > 4 ? argv[4] : "bill_id";

   if (argc < 4) {
      die ("usage", "bench_index_read URI SRC DST [KEY] [CACHE_SIZE]");
   }
   if (argc > 5 && !lab_parse_size (argv[5], "CACHE_SIZE", &o.cache_size_bytes, &e)) {
      die ("cache size", e.message);
   }
   lab_store_t *store = lab_store_open (argv[1], &o, &e);
   lab_store_session_t *sess = store ? lab_store_session_open (store, &e) : NULL;
   if (!sess) {
      die ("open", e.message);
   }
   stream_t s = { 0 }, d = { 0 };
   uint64_t t0 = lab_now_ns ();
   if (!(s.cur = lab_store_sorted_open (sess, argv[2], key, NULL, &e)) ||
       !(d.cur = lab_store_sorted_open (sess, argv[3], key, NULL, &e))) {
      die ("sorted open", e.message);
   }
   advance (&s, key);
   advance (&d, key);
   /* lockstep: move the stream behind (both on equal keys), as verify's merge does */
   while (s.doc || d.doc) {
      int c = !s.doc ? 1 : !d.doc ? -1 : lab_store_value_compare (&s.key, &d.key);
      if (c <= 0) {
         advance (&s, key);
      }
      if (c >= 0) {
         advance (&d, key);
      }
   }
   double el = (double)(lab_now_ns () - t0) / 1e9;
   printf ("{\"src_docs\": %" PRId64 ", \"dst_docs\": %" PRId64 ", \"bytes\": %" PRIu64
           ", \"elapsed_s\": %.3f, \"rows_per_s\": %.0f, \"touch\": %" PRIu64 "}\n",
           s.docs, d.docs, s.bytes + d.bytes, el, el > 0 ? (double)s.docs / el : 0.0, s.touch + d.touch);
   lab_store_cursor_close (s.cur);
   lab_store_cursor_close (d.cur);
   lab_store_session_close (sess);
   lab_store_close (store);
   return 0;
}
