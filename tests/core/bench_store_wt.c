/*
 * bench_store_wt.c -- what the embedded store costs over raw WiredTiger cursors doing the same work.
 *
 * Both sides use the same home configuration and the same three tables (collection, _id index,
 * bill_id index) with the same configs and keys, transactions of 64 documents. Measured in one run:
 * inserts, find_eq per bill (IXSCAN+FETCH), a full sorted stream and one find_eq per _id. Prints one line per
 * phase with the rate of each side and the ratio store/raw (1.00 = no overhead). Not a test: timings vary by
 * machine.
 *
 *   bench_store_wt [DOCS] [BILLS] [ROUNDS]   (default 200000 documents over 2000 bills, best of 3)
 */
#include "core/error.h"
#include "core/keyenc.h"
#include "core/opts.h"
#include "core/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wiredtiger.h>

#define COLL_CFG                                                                                             \
   "type=file,memory_page_max=10m,split_pct=90,leaf_value_max=64MB,checksum=on,block_compressor=snappy,"     \
   "key_format=q,value_format=u"
#define INDEX_CFG                                                                                            \
   "type=file,internal_page_max=16k,leaf_page_max=16k,checksum=on,prefix_compression=true,"                  \
   "block_compressor=,key_format=u,value_format=u"

static void
die (const char *what, const char *msg)
{
   fprintf (stderr, "bench_store_wt: %s: %s\n", what, msg);
   exit (1);
}

static void
wt_check (int ret, const char *what)
{
   if (ret != 0) {
      die (what, wiredtiger_strerror (ret));
   }
}

/* make_doc -- a bill detail row of about 200 bytes. */
static bson_t *
make_doc (int64_t i, int nbills)
{
   return BCON_NEW ("_id", BCON_INT64 (i), "bill_id", BCON_INT32 ((int32_t)((i * 7919) % nbills)), "line",
                    BCON_INT32 ((int32_t)(i / nbills)), "item_code", BCON_UTF8 ("MED-0042-XR"), "item_name",
                    BCON_UTF8 ("Amoxicillin 500mg capsule"), "qty", BCON_DOUBLE (2.0), "price",
                    BCON_DOUBLE (13.75), "dept", BCON_UTF8 ("pharmacy"), "at",
                    BCON_DATE_TIME (1700000000000 + i));
}

static double
secs (uint64_t t0)
{
   return (double)(lab_now_ns () - t0) / 1e9;
}

static bool
count_cb (const bson_t *doc, void *ctx)
{
   (*(int64_t *)ctx) += doc->len;
   return true;
}

/* run_store -- the four phases through the store interface; times into t[4]. */
static void
run_store (const char *dir, int round, bson_t **docs, int64_t ndocs, int nbills, double *t)
{
   lab_store_opts_t o = { .create = true, .cache_size_bytes = 512 * 1024 * 1024 };
   char *uri = bson_strdup_printf ("wiredtiger:%s/store%d", dir, round);
   int64_t i, bytes = 0, nd;
   bson_error_t e;
   lab_store_t *st;
   lab_store_session_t *s;
   uint64_t t0;
   int b;

   if (!(st = lab_store_open (uri, &o, &e)) || !(s = lab_store_session_open (st, &e)) ||
       !lab_store_create (s, "d", &e) || !lab_store_create_index (s, "d", "bill_id", &e)) {
      die ("store", e.message);
   }
   t0 = lab_now_ns ();
   for (i = 0; i < ndocs; i += 1000) {
      lab_store_insert_result_t r;
      size_t n = (size_t)(ndocs - i < 1000 ? ndocs - i : 1000);
      if (!lab_store_insert_many (s, "d", (const bson_t *const *)docs + i, n, &r, &e) || r.nerrors) {
         die ("insert", r.nerrors ? r.errors[0].message : e.message);
      }
      lab_store_insert_result_cleanup (&r);
   }
   t[0] = secs (t0);
   t0 = lab_now_ns ();
   for (b = 0; b < nbills; b++) {
      bson_value_t v = { .value_type = BSON_TYPE_INT32, .value.v_int32 = b };
      if (!lab_store_find_eq (s, "d", "bill_id", &v, count_cb, &bytes, &nd, &e)) {
         die ("find_eq", e.message);
      }
   }
   t[1] = secs (t0);
   t0 = lab_now_ns ();
   {
      lab_store_cursor_t *cur = lab_store_sorted_open (s, "d", "bill_id", NULL, &e);
      const bson_t *doc;
      int rc;
      nd = 0;
      if (!cur) {
         die ("sorted_open", e.message);
      }
      while ((rc = lab_store_cursor_next (cur, &doc, &e)) == 1) {
         nd++;
      }
      if (rc < 0 || nd != ndocs) {
         die ("sorted stream", rc < 0 ? e.message : "wrong count");
      }
      lab_store_cursor_close (cur);
   }
   t[2] = secs (t0);
   t0 = lab_now_ns ();
   for (i = 0; i < ndocs; i++) {
      bson_value_t v = { .value_type = BSON_TYPE_INT64, .value.v_int64 = (i * 7919) % ndocs };
      if (!lab_store_find_eq (s, "d", "_id", &v, count_cb, &bytes, &nd, &e) || nd != 1) {
         die ("find_eq _id", nd != 1 ? "not found" : e.message);
      }
   }
   t[3] = secs (t0);
   lab_store_session_close (s);
   lab_store_close (st);
   bson_free (uri);
}

/* run_raw -- the same work with raw WiredTiger cursors on the same tables and keys. */
static void
run_raw (const char *dir, int round, bson_t **docs, int64_t ndocs, int nbills, double *t)
{
   char *raw_home = bson_strdup_printf ("%s/raw%d", dir, round);
   char *journal = bson_strdup_printf ("%s/journal", raw_home);
   char *cfg;
   int64_t i, bytes = 0, nd;
   uint64_t t0;
   int b;
   {
      WT_CONNECTION *conn;
      WT_SESSION *ws;
      WT_CURSOR *cc, *idc, *bc;
      lab_buf_t k;
      WT_ITEM item, empty = { 0 };

      mkdir (raw_home, 0755);
      mkdir (journal, 0755);
      cfg = bson_strdup_printf ("create,cache_size=512M,statistics=(fast),log=(enabled=true,path=journal,"
                                "compressor=snappy),extensions=[\"%s\"]",
                                LAB_WT_SNAPPY_PATH);
      wt_check (wiredtiger_open (raw_home, NULL, cfg, &conn), "open");
      wt_check (conn->open_session (conn, NULL, "isolation=snapshot", &ws), "session");
      wt_check (ws->create (ws, "table:c", COLL_CFG), "create");
      wt_check (ws->create (ws, "table:i", INDEX_CFG), "create");
      wt_check (ws->create (ws, "table:b", INDEX_CFG), "create");
      wt_check (ws->open_cursor (ws, "table:c", NULL, NULL, &cc), "cursor");
      wt_check (ws->open_cursor (ws, "table:i", NULL, "overwrite=false", &idc), "cursor");
      wt_check (ws->open_cursor (ws, "table:b", NULL, NULL, &bc), "cursor");
      lab_buf_init (&k);
      t0 = lab_now_ns ();
      for (i = 0; i < ndocs; i++) {
         bson_iter_t it;
         uint8_t tag;
         if (i % 64 == 0) {
            if (i) {
               wt_check (ws->commit_transaction (ws, NULL), "commit");
            }
            wt_check (ws->begin_transaction (ws, NULL), "begin");
         }
         lab_buf_reset (&k);
         bson_iter_init_find (&it, docs[i], "_id");
         lab_store_key_encode (bson_iter_value (&it), &k, NULL);
         tag = k.data[k.len - 1];
         k.data[k.len - 1] = 4;
         item.data = k.data;
         item.size = k.len;
         idc->set_key (idc, &item);
         {
            uint8_t val[16];
            lab_buf_t vb = { val, 0, sizeof val };
            lab_store_key_append_recordid (&vb, i + 1);
            lab_buf_append (&vb, &tag, 1);
            WT_ITEM vi = { .data = vb.data, .size = vb.len };
            idc->set_value (idc, &vi);
         }
         wt_check (idc->insert (idc), "insert _id");
         item.data = bson_get_data (docs[i]);
         item.size = docs[i]->len;
         cc->set_key (cc, i + 1);
         cc->set_value (cc, &item);
         wt_check (cc->insert (cc), "insert");
         lab_buf_reset (&k);
         bson_iter_init_find (&it, docs[i], "bill_id");
         lab_store_key_encode (bson_iter_value (&it), &k, NULL);
         lab_store_key_append_recordid (&k, i + 1);
         item.data = k.data;
         item.size = k.len;
         bc->set_key (bc, &item);
         bc->set_value (bc, &empty);
         wt_check (bc->insert (bc), "insert index");
      }
      wt_check (ws->commit_transaction (ws, NULL), "commit");
      t[0] = secs (t0);

      t0 = lab_now_ns ();
      for (b = 0; b < nbills; b++) {
         bson_value_t v = { .value_type = BSON_TYPE_INT32, .value.v_int32 = b };
         int exact, ret;
         size_t plen;
         lab_buf_reset (&k);
         lab_store_key_encode (&v, &k, NULL);
         plen = k.len;
         item.data = k.data;
         item.size = k.len - 1;
         bc->set_key (bc, &item);
         ret = bc->search_near (bc, &exact);
         if (ret == 0 && exact < 0) {
            ret = bc->next (bc);
         }
         for (; ret == 0; ret = bc->next (bc)) {
            WT_ITEM key, val;
            size_t vlen;
            int64_t rid;
            bc->get_key (bc, &key);
            if (key.size < plen || memcmp (key.data, k.data, plen) != 0) {
               break;
            }
            lab_store_key_split_recordid (key.data, key.size, &vlen, &rid);
            cc->set_key (cc, rid);
            wt_check (cc->search (cc), "fetch");
            cc->get_value (cc, &val);
            bytes += (int64_t)val.size;
         }
      }
      t[1] = secs (t0);
      bc->reset (bc);
      cc->reset (cc);

      t0 = lab_now_ns ();
      nd = 0;
      while (bc->next (bc) == 0) {
         WT_ITEM key, val;
         size_t vlen;
         int64_t rid;
         bson_t doc;
         bc->get_key (bc, &key);
         lab_store_key_split_recordid (key.data, key.size, &vlen, &rid);
         cc->set_key (cc, rid);
         wt_check (cc->search (cc), "fetch");
         cc->get_value (cc, &val);
         bson_init_static (&doc, val.data, val.size);
         nd++;
      }
      t[2] = secs (t0);
      bc->reset (bc);
      cc->reset (cc);

      t0 = lab_now_ns ();
      for (i = 0; i < ndocs; i++) {
         bson_value_t v = { .value_type = BSON_TYPE_INT64, .value.v_int64 = (i * 7919) % ndocs };
         WT_ITEM val;
         int64_t rid = 0;
         lab_buf_reset (&k);
         lab_store_key_encode (&v, &k, NULL);
         k.data[k.len - 1] = 4;
         item.data = k.data;
         item.size = k.len;
         idc->set_key (idc, &item);
         wt_check (idc->search (idc), "search _id");
         idc->get_value (idc, &val);
         {
            /* the RecordId leads the value: first byte's top 3 bits = middle byte count */
            const uint8_t *p = val.data;
            size_t extra = p[0] >> 5, j;
            uint64_t r = p[0] & 0x1f;
            for (j = 1; j <= extra; j++) {
               r = (r << 8) | p[j];
            }
            rid = (int64_t)((r << 5) | (uint64_t)(p[extra + 1] >> 3));
         }
         cc->set_key (cc, rid);
         wt_check (cc->search (cc), "fetch");
         cc->get_value (cc, &val);
         bytes += (int64_t)val.size;
         idc->reset (idc);
         cc->reset (cc);
      }
      t[3] = secs (t0);
      lab_buf_destroy (&k);
      conn->close (conn, NULL);
   }

   bson_free (raw_home);
   bson_free (journal);
   bson_free (cfg);
   (void)bytes;
   (void)nd;
}

int
main (int argc, char **argv)
{
   int64_t ndocs = argc > 1 ? atoll (argv[1]) : 200000;
   int nbills = argc > 2 ? atoi (argv[2]) : 2000;
   int rounds = argc > 3 ? atoi (argv[3]) : 3;
   char tmpl[] = "/tmp/bench-wt-XXXXXX";
   char *dir = mkdtemp (tmpl), *cmd;
   bson_t **docs = malloc (sizeof *docs * (size_t)ndocs);
   double best_store[4] = { 1e30, 1e30, 1e30, 1e30 }, best_raw[4] = { 1e30, 1e30, 1e30, 1e30 }, t[4];
   const char *names[4] = { "insert", "find_eq/bill", "sorted stream", "find_eq/_id" };
   int64_t i;
   int r, p;

   if (!dir) {
      die ("mkdtemp", "failed");
   }
   for (i = 0; i < ndocs; i++) {
      docs[i] = make_doc (i, nbills);
   }
   /* alternate the sides and keep each one's best time, so load from elsewhere hurts both alike */
   for (r = 0; r < rounds; r++) {
      run_store (dir, r, docs, ndocs, nbills, t);
      for (p = 0; p < 4; p++) {
         best_store[p] = t[p] < best_store[p] ? t[p] : best_store[p];
      }
      run_raw (dir, r, docs, ndocs, nbills, t);
      for (p = 0; p < 4; p++) {
         best_raw[p] = t[p] < best_raw[p] ? t[p] : best_raw[p];
      }
   }
   printf ("phase            docs     store docs/s   raw docs/s   store/raw time   (best of %d)\n", rounds);
   for (p = 0; p < 4; p++) {
      printf ("%-14s %8" PRId64 " %14.0f %12.0f %10.2f\n", names[p], ndocs, ndocs / best_store[p],
              ndocs / best_raw[p], best_store[p] / best_raw[p]);
   }
   cmd = bson_strdup_printf ("rm -rf '%s'", dir);
   if (system (cmd) != 0) {
      fprintf (stderr, "bench_store_wt: could not remove %s\n", dir);
   }
   bson_free (cmd);
   for (i = 0; i < ndocs; i++) {
      bson_destroy (docs[i]);
   }
   free (docs);
   return 0;
}
