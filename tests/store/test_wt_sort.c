/*
 * test_wt_sort.c -- the external merge sort of index builds (store/wt_sort.h): random keys with a tiny
 * memory budget force several spilled runs; the output is in WiredTiger's key order and is exactly the
 * input multiset (duplicates and prefixes kept); keys shaped as an index build's (a long common prefix, a
 * value, a RecordId, some ending in zero bytes where others end) in shuffled order, so that the radix
 * sort's passes and its ties both decide; an already sorted input, empty input and one key; the
 * run files are unlinked from the start and closed by destroy; a spill into a missing directory fails
 * with an error naming it.
 */
#include "tests/testutil.h"

#include "core/buf.h"
#include "core/error.h"
#include "store/wt_sort.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
   uint8_t *data;
   size_t len;
} tkey_t;

static uint64_t rng = 0x2545F4914F6CDD1DULL;

/* rnd -- xorshift64*: deterministic, so a failure reproduces. */
static uint64_t
rnd (void)
{
   rng ^= rng >> 12;
   rng ^= rng << 25;
   rng ^= rng >> 27;
   return rng * 2685821657736338717ULL;
}

/* key_cmp -- qsort order of the expected keys: the sort's own order. */
static int
key_cmp (const void *a, const void *b)
{
   const tkey_t *x = a, *y = b;

   return lab_wt_sort_cmp (x->data, x->len, y->data, y->len);
}

/* random_keys -- n keys of 1..24 bytes over a 3-letter alphabet: many duplicates and proper prefixes. */
static tkey_t *
random_keys (size_t n)
{
   tkey_t *keys = bson_malloc0 (n * sizeof *keys);
   size_t i, j;

   for (i = 0; i < n; i++) {
      keys[i].len = 1 + rnd () % (i % 5 == 0 ? 3 : 24);
      keys[i].data = bson_malloc (keys[i].len);
      for (j = 0; j < keys[i].len; j++) {
         keys[i].data[j] = (uint8_t)("a\0\xff"[rnd () % 3]);
      }
   }
   return keys;
}

static void
keys_free (tkey_t *keys, size_t n)
{
   size_t i;

   for (i = 0; i < n; i++) {
      bson_free (keys[i].data);
   }
   bson_free (keys);
}

/* count_entries -- entries of dir besides . and .. */
static int
count_entries (const char *dir)
{
   DIR *d = opendir (dir);
   struct dirent *e;
   int n = 0;

   assert_non_null (d);
   while ((e = readdir (d))) {
      if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0) {
         n++;
      }
   }
   closedir (d);
   return n;
}

/* open_fds -- this process's open file descriptors. */
static int
open_fds (void)
{
   return count_entries ("/proc/self/fd");
}

/* sort_and_check -- sort keys[0..n) with `budget` spilling to dir; the output must equal the keys
 * sorted by qsort, one for one. Returns the number of runs spilled. */
static size_t
sort_and_check (const char *dir, tkey_t *keys, size_t n, size_t budget)
{
   lab_wt_sort_t *s = lab_wt_sort_new (dir, budget);
   bson_error_t e;
   const uint8_t *k;
   size_t i, len, nruns;
   int fds0 = open_fds (), more;

   for (i = 0; i < n; i++) {
      if (!lab_wt_sort_add (s, keys[i].data, keys[i].len, &e)) {
         fail_msg ("add: %s", e.message);
      }
   }
   assert_int_equal (lab_wt_sort_nkeys (s), n);
   nruns = lab_wt_sort_nruns (s);
   /* every run is an open file that is already gone from the directory */
   assert_int_equal (open_fds (), fds0 + (int)nruns);
   assert_int_equal (count_entries (dir), 0);
   if (!lab_wt_sort_finish (s, &e)) {
      fail_msg ("finish: %s", e.message);
   }
   qsort (keys, n, sizeof *keys, key_cmp);
   for (i = 0; (more = lab_wt_sort_next (s, &k, &len, &e)) == 1; i++) {
      assert_true (i < n);
      assert_int_equal (len, keys[i].len);
      assert_memory_equal (k, keys[i].data, len);
   }
   assert_int_equal (more, 0);
   assert_int_equal (i, n);
   assert_int_equal (lab_wt_sort_next (s, &k, &len, &e), 0);
   lab_wt_sort_destroy (s);
   assert_int_equal (open_fds (), fds0);
   assert_int_equal (count_entries (dir), 0);
   return nruns;
}

/* test_spilled -- 20,000 random keys, a 4 KB budget: many runs, merged back in order. */
static void
test_spilled (void **state)
{
   const size_t n = 20000;
   char *dir = lab_test_tmpdir ("wt-sort");
   tkey_t *keys = random_keys (n);
   size_t nruns = sort_and_check (dir, keys, n, 4096);

   assert_true (nruns >= 3);
   keys_free (keys, n);
   lab_test_rmtree (dir);
   bson_free (dir);
}

/* test_in_memory -- the same keys with a budget that holds them all: no run, still sorted. */
static void
test_in_memory (void **state)
{
   const size_t n = 5000;
   char *dir = lab_test_tmpdir ("wt-sort");
   tkey_t *keys = random_keys (n);

   assert_int_equal (sort_and_check (dir, keys, n, (size_t)64 << 20), 0);
   keys_free (keys, n);
   lab_test_rmtree (dir);
   bson_free (dir);
}

/* shuffle -- keys[0..n) in a random order. */
static void
shuffle (tkey_t *keys, size_t n)
{
   size_t i, j;

   for (i = n - 1; i > 0; i--) {
      tkey_t t = keys[i];
      j = rnd () % (i + 1);
      keys[i] = keys[j];
      keys[j] = t;
   }
}

/* index_keys -- n keys shaped as an index build's: a prefix every key shares, a value from a few hundred
 * (digits, then a terminator), a RecordId (big-endian); one key in 7 cut short after its value, or with
 * zero bytes where another key ends; shuffled. */
static tkey_t *
index_keys (size_t n)
{
   tkey_t *keys = bson_malloc0 (n * sizeof *keys);
   size_t i, j;

   for (i = 0; i < n; i++) {
      uint64_t rid = rnd () % 100000;
      char *v = bson_strdup_printf ("<ZY2023%07u", (unsigned)(rnd () % 300));
      size_t vl = strlen (v) + 1;
      keys[i].len = vl + (i % 7 == 0 ? rnd () % 3 : 8);
      keys[i].data = bson_malloc0 (keys[i].len);
      memcpy (keys[i].data, v, vl);
      for (j = vl; j < keys[i].len && i % 7 != 0; j++) {
         keys[i].data[j] = (uint8_t)(rid >> (8 * (keys[i].len - 1 - j)));
      }
      bson_free (v);
   }
   shuffle (keys, n);
   return keys;
}

/* test_index_keys -- index-shaped keys sorted in memory and in spilled runs. */
static void
test_index_keys (void **state)
{
   const size_t n = 40000;
   char *dir = lab_test_tmpdir ("wt-sort");
   tkey_t *keys = index_keys (n);

   assert_int_equal (sort_and_check (dir, keys, n, (size_t)64 << 20), 0);
   shuffle (keys, n); /* (sort_and_check left them sorted) */
   assert_true (sort_and_check (dir, keys, n, 64 << 10) >= 3);
   keys_free (keys, n);
   lab_test_rmtree (dir);
   bson_free (dir);
}

/* test_sorted_input -- keys arriving in order (an index on the _id order) and duplicates of one key,
 * both spilled. */
static void
test_sorted_input (void **state)
{
   const size_t n = 3000;
   char *dir = lab_test_tmpdir ("wt-sort");
   tkey_t *keys = bson_malloc0 (n * sizeof *keys);
   size_t i;

   for (i = 0; i < n; i++) {
      keys[i].data = (uint8_t *)bson_strdup_printf ("%08zu", i);
      keys[i].len = 8;
   }
   assert_true (sort_and_check (dir, keys, n, 2048) >= 3);
   for (i = 0; i < n; i++) {
      memcpy (keys[i].data, "same-key", 8);
   }
   assert_true (sort_and_check (dir, keys, n, 2048) >= 3);
   keys_free (keys, n);
   lab_test_rmtree (dir);
   bson_free (dir);
}

/* test_empty_and_one -- no key: nothing out; one key: that key (both with a tiny budget). */
static void
test_empty_and_one (void **state)
{
   char *dir = lab_test_tmpdir ("wt-sort");
   tkey_t one = { (uint8_t *)bson_strdup ("x"), 1 };
   lab_wt_sort_t *s = lab_wt_sort_new (dir, 1);
   bson_error_t e;
   const uint8_t *k;
   size_t len;

   assert_true (lab_wt_sort_finish (s, &e));
   assert_int_equal (lab_wt_sort_nkeys (s), 0);
   assert_int_equal (lab_wt_sort_next (s, &k, &len, &e), 0);
   lab_wt_sort_destroy (s);
   assert_int_equal (sort_and_check (dir, &one, 1, 1), 1);
   assert_int_equal (sort_and_check (dir, &one, 1, 4096), 0);
   bson_free (one.data);
   lab_test_rmtree (dir);
   bson_free (dir);
}

/* test_missing_dir -- a spill into a directory that does not exist fails, naming it. */
static void
test_missing_dir (void **state)
{
   lab_wt_sort_t *s = lab_wt_sort_new ("/nonexistent/layoutlab-sort", 1);
   bson_error_t e;

   memset (&e, 0, sizeof e);
   assert_false (lab_wt_sort_add (s, "k", 1, &e));
   assert_non_null (strstr (e.message, "/nonexistent/layoutlab-sort"));
   assert_true (lab_error_is (&e, LAB_ERROR_IO, ENOENT));
   lab_wt_sort_destroy (s);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_spilled),       cmocka_unit_test (test_in_memory),
      cmocka_unit_test (test_index_keys),    cmocka_unit_test (test_sorted_input),
      cmocka_unit_test (test_empty_and_one), cmocka_unit_test (test_missing_dir),
   };
   return lab_test_run_group ("wt_sort", tests, NULL, NULL);
}
