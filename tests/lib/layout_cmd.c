/*
 * layout_cmd.c -- test-layout-cmd: what a generated collection holds and how it lies on disk, for
 * comparing two builds of the same data (a faster generate must leave the same data and layout):
 *
 *   test-layout-cmd DIR COLL KEY BILLS
 *
 * prints one JSON line: rows, the collection's exact leaf pages and storage bytes (fill: bytes per leaf
 * page), the mean pages per master over BILLS masters keyed by billgen's string key (pages holding the
 * master's rows at rows / leaf pages rows a page), and digests: the records (RecordId and bytes, natural
 * order) and every index table (key and value bytes, key order) -- equal digests, equal tables. Exit 0,
 * or 1 with the error on stderr (2: usage).
 */
#include "datasets/gen.h"
#include "scan/scan.h"
#include "store/store.h"
#include "store/store_impl.h"
#include "store/wt_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fnv -- FNV-1a of n bytes into h. */
static uint64_t
fnv (uint64_t h, const void *p, size_t n)
{
   const uint8_t *b = p;

   for (size_t i = 0; i < n; i++) {
      h = (h ^ b[i]) * 0x100000001b3ULL;
   }
   return h;
}

/* table_digest -- FNV-1a over every (key, value) of a WiredTiger table; keys raw (recno=false, "u") or,
 * for a collection, its int64 RecordIds. *n gets the entries. */
static bool
table_digest (WT_SESSION *s, const char *uri, bool rid_keys, uint64_t *h, int64_t *n)
{
   WT_CURSOR *c;
   int ret;

   *h = 0xcbf29ce484222325ULL;
   *n = 0;
   if (s->open_cursor (s, uri, NULL, rid_keys ? NULL : "raw", &c) != 0) {
      fprintf (stderr, "test-layout-cmd: cannot open %s\n", uri);
      return false;
   }
   while ((ret = c->next (c)) == 0) {
      WT_ITEM k = { 0 }, v = { 0 };
      if (rid_keys) {
         int64_t rid;
         c->get_key (c, &rid);
         *h = fnv (*h, &rid, sizeof rid);
      } else {
         c->get_key (c, &k);
         *h = fnv (*h, k.data, k.size);
      }
      c->get_value (c, &v);
      *h = fnv (*h, v.data, v.size);
      (*n)++;
   }
   c->close (c);
   return ret == WT_NOTFOUND;
}

int
main (int argc, char **argv)
{
   lab_store_opts_t so = { .create = false };
   bson_error_t e;
   lab_store_t *store = NULL;
   lab_store_session_t *sess = NULL;
   lab_store_coll_stats_t cs;
   int64_t leaf = 0, pages_sum = 0, bills, n;
   uint64_t h;
   char *uri;
   int rc = 1;

   if (argc != 5 || (bills = atoll (argv[4])) < 1) {
      fprintf (stderr, "usage: test-layout-cmd DIR COLL KEY BILLS\n");
      return 2;
   }
   uri = bson_strdup_printf ("wiredtiger:%s", argv[1]);
   if (!(store = lab_store_open (uri, &so, &e)) || !(sess = lab_store_session_open (store, &e)) ||
       !lab_store_stats (sess, argv[2], &cs, &e) || !lab_store_leaf_pages (sess, argv[2], &leaf, &e)) {
      fprintf (stderr, "test-layout-cmd: %s\n", e.message);
      goto done;
   }
   for (int64_t b = 0; b < bills; b++) {
      char key[32];
      int64_t *rids = NULL;
      size_t nr = 0;
      lab_gen_key_string (202300000001 + b, key, sizeof key);
      bson_value_t v = { .value_type = BSON_TYPE_UTF8 };
      v.value.v_utf8.str = key;
      v.value.v_utf8.len = (uint32_t)strlen (key);
      if (!lab_store_record_ids (sess, argv[2], argv[3], &v, &rids, &nr, &e)) {
         fprintf (stderr, "test-layout-cmd: %s: %s\n", key, e.message);
         goto done;
      }
      pages_sum += lab_scan_locality_pages (rids, nr, 1, (double)cs.count / (double)leaf);
      bson_free (rids);
   }
   printf ("{\"rows\": %" PRId64 ", \"leaf_pages\": %" PRId64 ", \"storage_bytes\": %" PRId64
           ", \"bytes_per_leaf_page\": %.1f, \"pages_per_master\": %.4f",
           cs.count, leaf, cs.storage_size_bytes, (double)cs.storage_size_bytes / (double)leaf,
           (double)pages_sum / (double)bills);
   {
      wt_sess_t *ss = sess->impl;
      wt_coll_t *c;
      pthread_mutex_lock (&ss->st->mu);
      c = lab_wt_coll_find (ss->st, argv[2]);
      pthread_mutex_unlock (&ss->st->mu);
      if (!c || !table_digest (ss->s, c->uri, true, &h, &n)) {
         goto done;
      }
      printf (", \"records\": {\"n\": %" PRId64 ", \"digest\": \"%016" PRIx64 "\"}", n, h);
      for (int i = 0; i < c->nindexes; i++) {
         if (!table_digest (ss->s, c->indexes[i].uri, false, &h, &n)) {
            goto done;
         }
         printf (", \"%s\": {\"n\": %" PRId64 ", \"digest\": \"%016" PRIx64 "\"}",
                 c->indexes[i].field ? c->indexes[i].field : "_id", n, h);
      }
   }
   printf ("}\n");
   rc = 0;
done:
   lab_store_session_close (sess);
   lab_store_close (store);
   bson_free (uri);
   return rc;
}
