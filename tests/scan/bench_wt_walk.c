/*
 * bench_wt_walk.c -- the ceiling for scripts/bench-scan.sh: a plain WiredTiger cursor walk over a
 * collection's table, with no index, no per-key lookup and no BSON handling -- the fastest the engine can
 * hand out that collection's documents. The one program in scan/ allowed to call WiredTiger directly (a
 * bench program, not the tool); it touches every cache line of each document. The store is opened first only
 * to learn which file holds the collection (lab_store_data_files), then closed, and the home is reopened with
 * the store's own config.
 *
 *   bench_wt_walk HOME COLLECTION [CACHE_SIZE] [PASSES]
 * prints one JSON line: {"docs": N, "bytes": N, "first_pass_mb_s": x, "warm_mb_s": y, "passes": P}
 * (MB = 10^6 bytes; warm = the best pass after the first).
 */
#include "core/error.h"
#include "core/opts.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wiredtiger.h>

/* die -- report and exit (a bench program may). */
static void
die (const char *what, const char *msg)
{
   fprintf (stderr, "bench_wt_walk: %s: %s\n", what, msg);
   exit (1);
}

/* main -- learn the table, reopen the home, walk it PASSES times. */
int
main (int argc, char **argv)
{
   const char *home, *coll;
   uint64_t cache = 0;
   int passes = 3, p;
   char *uri, *table, *cfg, *dot;
   char **paths = NULL;
   lab_store_t *store;
   lab_store_opts_t so = { 0 };
   bson_error_t e;
   WT_CONNECTION *conn;
   WT_SESSION *sess;
   double first = 0, best = 0;
   int64_t docs = 0, bytes = 0;
   volatile uint64_t touch = 0;
   int ret;

   if (argc < 3) {
      fprintf (stderr, "usage: bench_wt_walk HOME COLLECTION [CACHE_SIZE] [PASSES]\n");
      return 2;
   }
   home = argv[1];
   coll = argv[2];
   if (argc > 3 && !lab_parse_size (argv[3], "CACHE_SIZE", &cache, &e)) {
      die ("cache size", e.message);
   }
   if (argc > 4) {
      passes = atoi (argv[4]);
      if (passes < 2) {
         passes = 2;
      }
   }

   uri = bson_strdup_printf ("wiredtiger:%s", home);
   so.cache_size_bytes = cache;
   store = lab_store_open (uri, &so, &e);
   if (!store || !lab_store_data_files (store, coll, &paths, &e) || !paths[0]) {
      die (coll, e.message);
   }
   lab_store_close (store);
   /* paths[0] is <home>/<ident>.wt: the collection's table is table:<ident> */
   table = bson_strdup_printf ("table:%s", strrchr (paths[0], '/') + 1);
   dot = strrchr (table, '.');
   if (dot) {
      *dot = '\0';
   }
   bson_strfreev (paths);

   cfg = bson_strdup_printf (
      "cache_size=%" PRIu64 "M,config_base=false,statistics=(fast),"
      "log=(enabled=true,archive=true,path=journal,compressor=snappy),extensions=[\"%s\"]",
      cache ? (cache + (1 << 20) - 1) >> 20 : (uint64_t)256, LAB_WT_SNAPPY_PATH);
   if ((ret = wiredtiger_open (home, NULL, cfg, &conn)) != 0) {
      die ("wiredtiger_open", wiredtiger_strerror (ret));
   }
   if ((ret = conn->open_session (conn, NULL, NULL, &sess)) != 0) {
      die ("open_session", wiredtiger_strerror (ret));
   }
   for (p = 0; p < passes; p++) {
      WT_CURSOR *c;
      uint64_t t0 = lab_now_ns ();
      int64_t n = 0, b = 0;
      double mbs;

      if ((ret = sess->open_cursor (sess, table, NULL, NULL, &c)) != 0) {
         die (table, wiredtiger_strerror (ret));
      }
      while ((ret = c->next (c)) == 0) {
         WT_ITEM v;
         if ((ret = c->get_value (c, &v)) != 0) {
            die ("get_value", wiredtiger_strerror (ret));
         }
         /* touch every cache line of the document, as any consumer of it must */
         for (size_t off = 0; off < v.size; off += 64) {
            touch += ((const uint8_t *)v.data)[off];
         }
         n++;
         b += (int64_t)v.size;
      }
      if (ret != WT_NOTFOUND) {
         die ("next", wiredtiger_strerror (ret));
      }
      c->close (c);
      mbs = (double)b / ((double)(lab_now_ns () - t0) / 1e9) / 1e6;
      if (p == 0) {
         first = mbs;
      } else if (mbs > best) {
         best = mbs;
      }
      docs = n;
      bytes = b;
   }
   conn->close (conn, NULL);
   printf (
      "{\"docs\": %lld, \"bytes\": %lld, \"first_pass_mb_s\": %.3f, \"warm_mb_s\": %.3f, \"passes\": %d}\n",
      (long long)docs, (long long)bytes, first, best, passes);
   bson_free (cfg);
   bson_free (table);
   bson_free (uri);
   return 0;
}
