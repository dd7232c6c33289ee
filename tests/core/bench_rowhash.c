/*
 * bench_rowhash.c -- the CPU of the row digest (core/rowhash.c) per row, on real rows: the detail
 * collection's rows (lab_rowhash_row, as verify hashes its source) and the folded collection's documents
 * (lab_rowhash_hoisted_of once per document, lab_rowhash_merged per element, as verify and scancmp hash
 * the folded side). The rows are read into memory first, then hashed `passes` times; the time is the
 * process's CPU time (other processes do not lengthen it), divided by the rows hashed.
 *
 * Not a test (timings vary by machine). Link it against another rowhash.o to compare two versions side by
 * side: the sums printed must be equal (the digest's bits are pinned: tests/core/test_rowhash.c).
 *
 *   bench_rowhash URI SRC DST ARRAY_FIELD [ROWS] [PASSES]   (ROWS default 300000, PASSES default 5)
 * prints one JSON line: {"rows": N, "docs": N, "row_ns": x, "merged_ns": y, "row_sum": "...", "merged_sum":
 * "..."} (ns: CPU ns per row; the merged figure includes the hoisted fields' preparation).
 */
#include "core/error.h"
#include "core/rowhash.h"
#include "store/natural.h"
#include "store/store.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* die -- report and exit (a bench program may). */
static void
die (const char *what, const char *msg)
{
   fprintf (stderr, "bench_rowhash: %s: %s\n", what, msg);
   exit (1);
}

/* The documents read: copies, up to `want` rows of each collection. */
typedef struct {
   bson_t **src, **dst;
   size_t nsrc, ndst, dst_rows, want;
   const char *array_field;
} keep_t;

/* elems -- the elements of doc's array field (0: none). */
static size_t
elems (const bson_t *doc, const char *array_field)
{
   bson_iter_t it, a;
   size_t n = 0;

   if (bson_iter_init_find (&it, doc, array_field) && BSON_ITER_HOLDS_ARRAY (&it) &&
       bson_iter_recurse (&it, &a)) {
      while (bson_iter_next (&a)) {
         n++;
      }
   }
   return n;
}

/* keep -- copy the document while its collection has fewer than `want` rows kept. */
static bool
keep (void *wctx, int worker, size_t coll, const bson_t *doc, bson_error_t *error)
{
   keep_t *k = wctx;

   (void)worker;
   (void)error;
   if (coll == 0 && k->nsrc < k->want) {
      k->src[k->nsrc++] = bson_copy (doc);
   } else if (coll == 1 && k->dst_rows < k->want) {
      k->dst_rows += elems (doc, k->array_field);
      k->dst = bson_realloc (k->dst, (k->ndst + 1) * sizeof *k->dst);
      k->dst[k->ndst++] = bson_copy (doc);
   }
   return true;
}

/* cpu_ns -- the process's CPU time. */
static uint64_t
cpu_ns (void)
{
   struct timespec ts;

   clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* merged_doc -- the merged digests of every element of a folded document, summed. */
static void
merged_doc (const bson_t *doc, const char *array_field, lab_rowhash_t *sum)
{
   lab_rowhash_hoisted_t *h = lab_rowhash_hoisted_of (doc, array_field);
   bson_iter_t it, a;

   if (bson_iter_init_find (&it, doc, array_field) && bson_iter_recurse (&it, &a)) {
      while (bson_iter_next (&a)) {
         uint32_t len;
         const uint8_t *data;
         bson_iter_document (&a, &len, &data);
         lab_rowhash_add (sum, lab_rowhash_merged (data, len, h));
      }
   }
   lab_rowhash_hoisted_free (h);
}

int
main (int argc, char **argv)
{
   lab_store_opts_t o = { 0 };
   bson_error_t e;
   keep_t k = { .want = argc > 5 ? strtoul (argv[5], NULL, 10) : 300000 };
   int passes = argc > 6 ? atoi (argv[6]) : 5;
   lab_rowhash_t rs = { 0, 0 }, ms = { 0, 0 };
   uint64_t t0, row_ns, merged_ns;

   if (argc < 5 || k.want == 0 || passes < 1) {
      die ("usage", "bench_rowhash URI SRC DST ARRAY_FIELD [ROWS] [PASSES]");
   }
   k.array_field = argv[4];
   k.src = bson_malloc (k.want * sizeof *k.src);
   lab_store_t *store = lab_store_open (argv[1], &o, &e);
   if (!store) {
      die ("open", e.message);
   }
   const char *colls[2] = { argv[2], argv[3] };
   lab_store_natural_scan_t job = {
      .colls = colls, .ncolls = 2, .workers = 1, .ranges_per_coll = 1, .fn = keep, .wctx = &k
   };
   if (!lab_store_natural_scan (store, &job, NULL, &e)) {
      die ("scan", e.message);
   }
   lab_store_close (store);
   t0 = cpu_ns ();
   for (int p = 0; p < passes; p++) {
      for (size_t i = 0; i < k.nsrc; i++) {
         lab_rowhash_add (&rs, lab_rowhash_row (k.src[i]));
      }
   }
   row_ns = cpu_ns () - t0;
   t0 = cpu_ns ();
   for (int p = 0; p < passes; p++) {
      for (size_t i = 0; i < k.ndst; i++) {
         merged_doc (k.dst[i], k.array_field, &ms);
      }
   }
   merged_ns = cpu_ns () - t0;
   printf (
      "{\"rows\": %zu, \"docs\": %zu, \"dst_rows\": %zu, \"row_ns\": %.1f, \"merged_ns\": %.1f, \"row_sum\": "
      "\"%016" PRIx64 "%016" PRIx64 "\", \"merged_sum\": \"%016" PRIx64 "%016" PRIx64 "\"}\n",
      k.nsrc, k.ndst, k.dst_rows, k.nsrc ? (double)row_ns / (double)(k.nsrc * (size_t)passes) : 0.0,
      k.dst_rows ? (double)merged_ns / (double)(k.dst_rows * (size_t)passes) : 0.0, rs.hi, rs.lo, ms.hi,
      ms.lo);
   for (size_t i = 0; i < k.nsrc; i++) {
      bson_destroy (k.src[i]);
   }
   for (size_t i = 0; i < k.ndst; i++) {
      bson_destroy (k.dst[i]);
   }
   bson_free (k.src);
   bson_free (k.dst);
   return 0;
}
