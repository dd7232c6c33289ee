/*
 * bench_generate_wt.c -- the ceiling for `billgen generate` on the embedded store: a bare WiredTiger
 * bulk insert of the same documents, built before the clock starts, doing the same storage work as
 * generate does through the store: mongod's open configuration (journal with snappy), the collection
 * and _id index tables with mongod's configurations, records at RecordId = position + 1 and their _id
 * entries in transactions of 64 documents on `threads` threads (worker k takes every threads-th chunk of
 * 1000, as generate's workers do), then the key index built after the data (scan, sort, bulk cursor, as
 * the store builds it) and a checkpoint. No generator, no store layer, no loader: what is left is what
 * WiredTiger itself costs.
 *
 * Not a test (timings vary by machine): scripts/bench-billgen.sh runs it beside billgen in one run.
 *
 *   bench_generate_wt --dir DIR [--bills N] [--mean-rows X] [--seed S] [--threads N] [--cache-mb MB]
 *
 * Prints one JSON object on stdout: rows, bytes, build_s (pre-building the documents: the generator's
 * cost alone), insert_s, index_s, checkpoint_s, total_s (insert + index + checkpoint), rows_per_s, and
 * cpu_s: the CPU seconds of all threads over total_s (on a shared machine the wall rates fall with the
 * share of the CPU a run gets; the CPU per row does not).
 */
#include "core/error.h"
#include "store/keyenc.h"
#include "core/opts.h"
#include "store/wt_sort.h"
#include "datasets/gen.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wiredtiger.h>

#define COLL_CFG                                                                                             \
   "type=file,memory_page_max=10m,split_pct=90,leaf_value_max=64MB,checksum=on,block_compressor=snappy,"     \
   "key_format=q,value_format=u,log=(enabled=false),app_metadata=(formatVersion=1)"
/* (tables unlogged, as billgen generate makes them since the ceiling does what it does) */
#define INDEX_CFG                                                                                            \
   "type=file,internal_page_max=16k,leaf_page_max=16k,checksum=on,prefix_compression=true,"                  \
   "block_compressor=,key_format=u,value_format=u,log=(enabled=false),app_metadata=(formatVersion=8)"
#define CHUNK 1000
#define GROUP 64

typedef struct {
   uint8_t *data; /* every document, back to back */
   size_t *off;   /* nrows + 1 offsets into data */
   int64_t nrows;
   WT_CONNECTION *conn;
   int threads;
} ctx_t;

typedef struct {
   ctx_t *c;
   int index;
} worker_t;

/* die -- report and exit (a benchmark program, not library code). */
static void
die (const char *what, const char *msg)
{
   fprintf (stderr, "bench_generate_wt: %s: %s\n", what, msg);
   exit (1);
}

/* wt_check -- die on a WiredTiger error. */
static void
wt_check (int ret, const char *what)
{
   if (ret != 0) {
      die (what, wiredtiger_strerror (ret));
   }
}

/* secs -- seconds since t0. */
static double
secs (uint64_t t0)
{
   return (double)(lab_now_ns () - t0) / 1e9;
}

/* insert_worker -- records and _id entries of every threads-th chunk, in 64-document transactions. */
static void *
insert_worker (void *arg)
{
   worker_t *w = arg;
   ctx_t *c = w->c;
   WT_SESSION *s;
   WT_CURSOR *cc, *ic;
   lab_buf_t key, val;
   bson_error_t e;

   wt_check (c->conn->open_session (c->conn, NULL, "isolation=snapshot", &s), "session");
   wt_check (s->open_cursor (s, "table:coll", NULL, NULL, &cc), "cursor");
   wt_check (s->open_cursor (s, "table:id", NULL, "overwrite=false", &ic), "cursor");
   lab_buf_init (&key);
   lab_buf_init (&val);
   for (int64_t pos = (int64_t)w->index * CHUNK; pos < c->nrows; pos += (int64_t)c->threads * CHUNK) {
      int64_t end = pos + CHUNK < c->nrows ? pos + CHUNK : c->nrows;
      for (int64_t g = pos; g < end; g += GROUP) {
         int64_t gend = g + GROUP < end ? g + GROUP : end;
         wt_check (s->begin_transaction (s, NULL), "begin");
         for (int64_t i = g; i < gend; i++) {
            bson_t doc;
            bson_iter_t it;
            uint8_t tag;
            WT_ITEM k, v;
            if (!bson_init_static (&doc, c->data + c->off[i], c->off[i + 1] - c->off[i]) ||
                !bson_iter_init_find (&it, &doc, "_id")) {
               die ("document", "no _id");
            }
            lab_buf_reset (&key);
            lab_buf_reset (&val);
            if (!lab_store_key_encode_unique (bson_iter_value (&it), &key, &tag, &e)) {
               die ("_id key", e.message);
            }
            lab_store_key_unique_value (&val, i + 1, tag);
            k.data = key.data;
            k.size = key.len;
            v.data = val.data;
            v.size = val.len;
            ic->set_key (ic, &k);
            ic->set_value (ic, &v);
            wt_check (ic->insert (ic), "insert _id");
            v.data = bson_get_data (&doc);
            v.size = doc.len;
            cc->set_key (cc, i + 1);
            cc->set_value (cc, &v);
            wt_check (cc->insert (cc), "insert record");
         }
         wt_check (s->commit_transaction (s, NULL), "commit");
      }
   }
   lab_buf_destroy (&key);
   lab_buf_destroy (&val);
   wt_check (s->close (s, NULL), "close session");
   return NULL;
}

/* build_index -- the key index as the store builds it: scan, encode value + RecordId, sort, bulk-load. */
static void
build_index (ctx_t *c, const char *home, const char *field)
{
   WT_SESSION *s;
   WT_CURSOR *cc, *bulk;
   lab_buf_t key;
   bson_error_t e;
   lab_wt_sort_t *sort = lab_wt_sort_new (home, (size_t)256 * 1024 * 1024);
   const uint8_t *kd;
   size_t kl;
   int ret, more;

   wt_check (c->conn->open_session (c->conn, NULL, "isolation=snapshot", &s), "session");
   wt_check (s->create (s, "table:key", INDEX_CFG), "create index");
   wt_check (s->open_cursor (s, "table:coll", NULL, NULL, &cc), "cursor");
   lab_buf_init (&key);
   while ((ret = cc->next (cc)) == 0) {
      int64_t rid;
      WT_ITEM v;
      bson_t doc;
      bson_iter_t it;
      cc->get_key (cc, &rid);
      cc->get_value (cc, &v);
      if (!bson_init_static (&doc, v.data, v.size) || !bson_iter_init_find (&it, &doc, field)) {
         die ("index build", "document without the key field");
      }
      lab_buf_reset (&key);
      if (!lab_store_key_encode (bson_iter_value (&it), &key, &e)) {
         die ("index key", e.message);
      }
      lab_store_key_append_recordid (&key, rid);
      if (!lab_wt_sort_add (sort, key.data, key.len, &e)) {
         die ("sort", e.message);
      }
   }
   if (ret != WT_NOTFOUND) {
      wt_check (ret, "scan");
   }
   cc->close (cc);
   if (!lab_wt_sort_finish (sort, &e)) {
      die ("sort", e.message);
   }
   wt_check (s->open_cursor (s, "table:key", NULL, "bulk", &bulk), "bulk cursor");
   while ((more = lab_wt_sort_next (sort, &kd, &kl, &e)) == 1) {
      WT_ITEM k = { 0 }, empty = { 0 };
      k.data = kd;
      k.size = kl;
      bulk->set_key (bulk, &k);
      bulk->set_value (bulk, &empty);
      wt_check (bulk->insert (bulk), "bulk insert");
   }
   if (more < 0) {
      die ("sort", e.message);
   }
   wt_check (bulk->close (bulk), "bulk close");
   lab_wt_sort_destroy (sort);
   lab_buf_destroy (&key);
   wt_check (s->close (s, NULL), "close session");
}

int
main (int argc, char **argv)
{
   lab_gen_params_t p;
   const char *dir = NULL;
   int threads = 1;
   long cache_mb = 0;
   bson_error_t e;

   lab_gen_params_init (&p);
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!v) {
         die ("usage", "every option takes a value");
      }
      if (strcmp (a, "--dir") == 0) {
         dir = v;
      } else if (strcmp (a, "--bills") == 0) {
         p.bills = atoll (v);
      } else if (strcmp (a, "--mean-rows") == 0) {
         p.mean_rows = atof (v);
      } else if (strcmp (a, "--seed") == 0) {
         p.seed = strtoull (v, NULL, 0);
      } else if (strcmp (a, "--threads") == 0) {
         threads = atoi (v);
      } else if (strcmp (a, "--cache-mb") == 0) {
         cache_mb = atol (v);
      } else {
         die ("usage", a);
      }
      i++;
   }
   if (!dir || threads < 1 || threads > 64) {
      die ("usage", "bench_generate_wt --dir DIR [--bills N] [--mean-rows X] [--seed S] [--threads N] "
                    "[--cache-mb MB]");
   }
   if (cache_mb <= 0) {
      long pages = sysconf (_SC_PHYS_PAGES), psz = sysconf (_SC_PAGE_SIZE);
      long ram_mb = (long)((double)pages * (double)psz / 1048576.0);
      cache_mb = (ram_mb - 1024) / 2 > 256 ? (ram_mb - 1024) / 2 : 256; /* mongod's rule */
   }

   /* the documents, built before any clock of the ceiling starts */
   ctx_t c = { .threads = threads };
   lab_gen_t *g = lab_gen_new (&p, &e);
   if (!g) {
      die ("generator", e.message);
   }
   int64_t total = lab_gen_total_rows (g);
   size_t cap = (size_t)total * 400, used = 0;
   c.data = bson_malloc (cap);
   c.off = bson_malloc ((size_t)(total + 1) * sizeof *c.off);
   bson_t doc = BSON_INITIALIZER;
   uint64_t t0 = lab_now_ns ();
   while (lab_gen_next (g, &doc, NULL)) {
      if (used + doc.len > cap) {
         cap = cap * 3 / 2 + doc.len;
         c.data = bson_realloc (c.data, cap);
      }
      c.off[c.nrows++] = used;
      memcpy (c.data + used, bson_get_data (&doc), doc.len);
      used += doc.len;
   }
   c.off[c.nrows] = used;
   double build_s = secs (t0);
   bson_destroy (&doc);
   lab_gen_destroy (g);

   char journal[4096], cfg[1024];
   mkdir (dir, 0755);
   snprintf (journal, sizeof journal, "%s/journal", dir);
   mkdir (journal, 0755);
   snprintf (cfg, sizeof cfg,
             "create,cache_size=%ldM,cache_overflow=(file_max=0M),session_max=33000,"
             "eviction=(threads_min=4,threads_max=4),config_base=false,statistics=(fast),"
             "log=(enabled=true,archive=true,path=journal,compressor=snappy),"
             "file_manager=(close_idle_time=100000,close_scan_interval=10,close_handle_minimum=250),"
             "statistics_log=(wait=0),checkpoint=(wait=60),extensions=[\"%s\"]",
             cache_mb, LAB_WT_SNAPPY_PATH);
   wt_check (wiredtiger_open (dir, NULL, cfg, &c.conn), "open");
   {
      WT_SESSION *s;
      wt_check (c.conn->open_session (c.conn, NULL, NULL, &s), "session");
      wt_check (s->create (s, "table:coll", COLL_CFG), "create");
      wt_check (s->create (s, "table:id", INDEX_CFG), "create");
      wt_check (s->close (s, NULL), "close");
   }

   t0 = lab_now_ns ();
   double cpu0 = lab_process_cpu_s ((int64_t)getpid ());
   pthread_t *th = bson_malloc ((size_t)threads * sizeof *th);
   worker_t *w = bson_malloc ((size_t)threads * sizeof *w);
   for (int i = 0; i < threads; i++) {
      w[i].c = &c;
      w[i].index = i;
      if (pthread_create (&th[i], NULL, insert_worker, &w[i]) != 0) {
         die ("threads", "cannot start a thread");
      }
   }
   for (int i = 0; i < threads; i++) {
      pthread_join (th[i], NULL);
   }
   double insert_s = secs (t0);
   uint64_t t1 = lab_now_ns ();
   build_index (&c, dir, p.key ? p.key : "bill_id");
   double index_s = secs (t1);
   t1 = lab_now_ns ();
   {
      WT_SESSION *s;
      wt_check (c.conn->open_session (c.conn, NULL, NULL, &s), "session");
      wt_check (s->checkpoint (s, NULL), "checkpoint");
      wt_check (s->close (s, NULL), "close");
   }
   double ckpt_s = secs (t1);
   double total_s = secs (t0);
   double cpu_s = lab_process_cpu_s ((int64_t)getpid ()) - cpu0;
   wt_check (c.conn->close (c.conn, NULL), "close");

   printf ("{ \"rows\" : %" PRId64
           ", \"bytes\" : %zu, \"threads\" : %d, \"build_s\" : %.3f, \"insert_s\" : %.3f, "
           "\"index_s\" : %.3f, \"checkpoint_s\" : %.3f, \"total_s\" : %.3f, \"rows_per_s\" : %.0f, "
           "\"cpu_s\" : %.3f }\n",
           c.nrows, used, threads, build_s, insert_s, index_s, ckpt_s, total_s,
           total_s > 0 ? (double)c.nrows / total_s : 0.0, cpu_s);
   bson_free (th);
   bson_free (w);
   bson_free (c.data);
   bson_free (c.off);
   return 0;
}
