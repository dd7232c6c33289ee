/*
 * test_wt_compress.c -- the embedded store's block compressors: every one round-trips documents byte for
 * byte across a reopen (zstd is ours, wt_zstd.c); a store written with zstd opened without the zstd
 * compressor gives a clear error naming it; a damaged zstd block gives an engine error, not a crash; an
 * invalid zstd level is refused when the store opens; on billgen's data, zstd stores the collection in
 * less space than snappy (and snappy in less than none).
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/store.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NDOCS 3000

static lab_store_t *
open_with (const char *uri, const char *compressor, bool skip_zstd, bson_error_t *e)
{
   lab_store_opts_t o = { .create = true, .cache_size_bytes = 64 * 1024 * 1024 };

   o.block_compressor = compressor;
   o.skip_zstd = skip_zstd;
   return lab_store_open (uri, &o, e);
}

static lab_store_t *
must_open (const char *uri, const char *compressor, bool skip_zstd)
{
   bson_error_t e;
   lab_store_t *s = open_with (uri, compressor, skip_zstd, &e);

   if (!s) {
      fail_msg ("open %s (%s): %s", uri, compressor ? compressor : "default", e.message);
   }
   return s;
}

/* make_doc -- document i: billing-like fields, repetitive enough to compress. */
static bson_t *
make_doc (int i)
{
   bson_t *d = bson_new ();
   char code[32];

   bson_snprintf (code, sizeof code, "ITEM-%04d", i % 97);
   BSON_APPEND_INT64 (d, "_id", i);
   BSON_APPEND_INT64 (d, "bill_id", i / 20);
   BSON_APPEND_UTF8 (d, "patient_id", "P-000123");
   BSON_APPEND_UTF8 (d, "hospital", "General Hospital of the North");
   BSON_APPEND_UTF8 (d, "item_code", code);
   BSON_APPEND_UTF8 (d, "item_name", i % 3 ? "blood test, full panel" : "x-ray, chest, two views");
   BSON_APPEND_DOUBLE (d, "amount", (i % 1000) * 1.25);
   BSON_APPEND_DATE_TIME (d, "charge_time", INT64_C (1700000000000) + i * INT64_C (60000));
   return d;
}

static void
write_docs (lab_store_t *s, const char *coll)
{
   bson_t *docs[NDOCS];
   lab_store_insert_result_t r = { 0 };
   bson_error_t e;
   lab_store_session_t *sess = lab_store_session_open (s, &e);
   int i;

   assert_non_null (sess);
   for (i = 0; i < NDOCS; i++) {
      docs[i] = make_doc (i);
   }
   if (!lab_store_insert_many (sess, coll, (const bson_t *const *)docs, NDOCS, &r, &e)) {
      fail_msg ("insert: %s", e.message);
   }
   assert_int_equal (r.nerrors, 0);
   lab_store_insert_result_cleanup (&r);
   for (i = 0; i < NDOCS; i++) {
      bson_destroy (docs[i]);
   }
   lab_store_session_close (sess);
   if (!lab_store_flush (s, &e)) {
      fail_msg ("flush: %s", e.message);
   }
}

/* read_all -- stream the collection in _id order; false with *e on a read error. *n: documents seen,
 * each compared byte for byte with make_doc. */
static bool
read_all (lab_store_t *s, const char *coll, int *n, bson_error_t *e)
{
   lab_store_session_t *sess = lab_store_session_open (s, e);
   lab_store_sorted_opts_t so = { 0 };
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bson_t *want;
   int rc;

   *n = 0;
   if (!sess) {
      return false;
   }
   cur = lab_store_sorted_open (sess, coll, "_id", &so, e);
   if (!cur) {
      lab_store_session_close (sess);
      return false;
   }
   while ((rc = lab_store_cursor_next (cur, &doc, e)) == 1) {
      want = make_doc (*n);
      assert_int_equal (doc->len, want->len);
      assert_memory_equal (bson_get_data (doc), bson_get_data (want), want->len);
      bson_destroy (want);
      (*n)++;
   }
   lab_store_cursor_close (cur);
   lab_store_session_close (sess);
   return rc == 0;
}

/* test_round_trip -- each compressor: write, close, reopen (with the default options), read back the
 * very bytes written. */
static void
test_round_trip (void **state)
{
   const char *names[] = { "none", "snappy", "zlib", "zstd" };
   char *dir = lab_test_tmpdir ("wt-compress");
   bson_error_t e;
   size_t k;
   int n;

   for (k = 0; k < 4; k++) {
      char *uri = bson_strdup_printf ("wiredtiger:%s/%s", dir, names[k]);
      lab_store_t *s = must_open (uri, names[k], false);

      assert_string_equal (lab_store_block_compressor (s), names[k]);
      assert_non_null (strstr (lab_store_compressor_note (s), names[k]));
      write_docs (s, "c");
      assert_true (read_all (s, "c", &n, &e));
      assert_int_equal (n, NDOCS);
      lab_store_close (s);
      s = must_open (uri, NULL, false); /* reopened as any tool would: the table remembers its compressor */
      if (!read_all (s, "c", &n, &e)) {
         fail_msg ("%s: reading after reopen: %s", names[k], e.message);
      }
      assert_int_equal (n, NDOCS);
      lab_store_close (s);
      bson_free (uri);
   }
   lab_test_rmtree (dir);
   bson_free (dir);
}

/* test_missing_compressor -- a zstd store opened without the zstd compressor: a clear error on read. */
static void
test_missing_compressor (void **state)
{
   char *dir = lab_test_tmpdir ("wt-nozstd");
   char *uri = bson_strdup_printf ("wiredtiger:%s/h", dir);
   lab_store_t *s = must_open (uri, "zstd", false);
   bson_error_t e;
   int n;

   write_docs (s, "c");
   lab_store_close (s);
   s = must_open (uri, NULL, true);
   assert_false (read_all (s, "c", &n, &e));
   if (getenv ("LAB_TEST_VERBOSE")) {
      fprintf (stderr, "missing compressor: %s\n", e.message);
   }
   assert_int_equal (e.domain, LAB_ERROR_WT);
   assert_non_null (strstr (e.message, "unknown compressor 'zstd'"));
   assert_non_null (strstr (e.message, "block compressor this program has not loaded"));
   lab_store_close (s);
   /* with the compressor loaded again, everything is there */
   s = must_open (uri, NULL, false);
   assert_true (read_all (s, "c", &n, &e));
   assert_int_equal (n, NDOCS);
   lab_store_close (s);
   lab_test_rmtree (dir);
   bson_free (uri);
   bson_free (dir);
}

/* test_corrupt_block -- flip bytes inside the zstd table's blocks: reading gives an engine error. */
static void
test_corrupt_block (void **state)
{
   char *dir = lab_test_tmpdir ("wt-corrupt");
   char *uri = bson_strdup_printf ("wiredtiger:%s/h", dir);
   lab_store_t *s = must_open (uri, "zstd", false);
   char **paths = NULL;
   bson_error_t e;
   struct stat sb;
   off_t off;
   uint8_t buf[64];
   int fd, n, i;

   write_docs (s, "c");
   if (!lab_store_data_files (s, "c", &paths, &e)) {
      fail_msg ("data files: %s", e.message);
   }
   lab_store_close (s);
   fd = open (paths[0], O_RDWR);
   assert_true (fd >= 0);
   assert_int_equal (fstat (fd, &sb), 0);
   assert_true (sb.st_size > 3 * 4096);
   /* every 4 KiB past the file's first block: some block of documents is hit */
   for (off = 4096 + 100; off + (off_t)sizeof buf < sb.st_size; off += 4096) {
      assert_int_equal (pread (fd, buf, sizeof buf, off), (ssize_t)sizeof buf);
      for (i = 0; i < (int)sizeof buf; i++) {
         buf[i] ^= 0x5a;
      }
      assert_int_equal (pwrite (fd, buf, sizeof buf, off), (ssize_t)sizeof buf);
   }
   close (fd);
   s = open_with (uri, NULL, false, &e);
   if (s) {
      assert_false (read_all (s, "c", &n, &e));
      lab_store_close (s);
   }
   if (getenv ("LAB_TEST_VERBOSE")) {
      fprintf (stderr, "corrupt block: %s\n", e.message);
   }
   assert_int_equal (e.domain, LAB_ERROR_WT);
   assert_non_null (strstr (e.message, "damaged data file"));
   bson_strfreev (paths);
   lab_test_rmtree (dir);
   bson_free (uri);
   bson_free (dir);
}

/* test_bad_level -- a zstd level zstd does not have is refused when the store opens. */
static void
test_bad_level (void **state)
{
   char *dir = lab_test_tmpdir ("wt-level");
   char *uri = bson_strdup_printf ("wiredtiger:%s/h", dir);
   lab_store_opts_t o = { .create = true, .cache_size_bytes = 64 * 1024 * 1024, .block_compressor = "zstd" };
   lab_store_t *s;
   bson_error_t e;

   o.zstd_level = 99;
   s = lab_store_open (uri, &o, &e);
   assert_null (s);
   assert_non_null (strstr (e.message, "compression_level 99"));
   o.zstd_level = 19;
   s = lab_store_open (uri, &o, &e);
   assert_non_null (s);
   lab_store_close (s);
   o.block_compressor = "lz4";
   assert_null (lab_store_open (uri, &o, &e));
   assert_int_equal (e.domain, LAB_ERROR_USAGE);
   assert_non_null (strstr (e.message, "none, snappy, zlib, zstd"));
   lab_test_rmtree (dir);
   bson_free (uri);
   bson_free (dir);
}

/* storage_of -- billgen's rows under `compressor` in a fresh home: the collection table's bytes on disk. */
static int64_t
storage_of (const char *dir, const char *compressor)
{
   char *bg = lab_test_bin ("billgen");
   char *uri = bson_strdup_printf ("wiredtiger:%s/bg-%s", dir, compressor);
   char *cmd = bson_strdup_printf ("%s generate --uri '%s' --cache-size 64M --progress never --bills 1500 "
                                   "--mean-rows 20 --seed 5 --block-compressor %s --json -",
                                   bg, uri, compressor);
   char *out = NULL, *err = NULL;
   lab_store_coll_stats_t st;
   lab_store_session_t *sess;
   lab_store_t *s;
   bson_error_t e;
   lab_test_run_ok (cmd, &out);
   assert_non_null (strstr (out, "\"block_compressor\" : \""));
   assert_non_null (strstr (out, compressor));
   s = must_open (uri, NULL, false);
   sess = lab_store_session_open (s, &e);
   assert_non_null (sess);
   if (!lab_store_stats (sess, "bill_detail", &st, &e)) {
      fail_msg ("stats: %s", e.message);
   }
   lab_store_session_close (sess);
   lab_store_close (s);
   bson_free (out);
   bson_free (err);
   bson_free (cmd);
   bson_free (uri);
   bson_free (bg);
   return st.storage_size_bytes;
}

/* test_zstd_below_snappy -- the same billgen rows take less space with zstd than with snappy. */
static void
test_zstd_below_snappy (void **state)
{
   char *dir = lab_test_tmpdir ("wt-sizes");
   int64_t none = storage_of (dir, "none");
   int64_t snappy = storage_of (dir, "snappy");
   int64_t zstd = storage_of (dir, "zstd");

   fprintf (stderr, "billgen 1500 bills: storage none %lld, snappy %lld, zstd %lld bytes\n", (long long)none,
            (long long)snappy, (long long)zstd);
   assert_true (zstd > 0);
   assert_true (zstd < snappy);
   assert_true (snappy < none);
   lab_test_rmtree (dir);
   bson_free (dir);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_round_trip),        cmocka_unit_test (test_missing_compressor),
      cmocka_unit_test (test_corrupt_block),     cmocka_unit_test (test_bad_level),
      cmocka_unit_test (test_zstd_below_snappy),
   };

   return lab_test_run_group ("wt_compress", tests, NULL, NULL);
}
