/*
 * test_verify_retry.c -- --verify resumes after a transient error (etl/verify.c), by both
 * methods (the whole group runs once per method): on the embedded store, a folded collection with known
 * differences (a damaged master, source rows without the key, documents over a small cap) is verified
 * once cleanly, then again with a transient error injected (the verify fault hook) at one document after
 * another of either stream: every try must give exactly the clean result (nothing counted twice or lost,
 * the same first difference) after one logged retry (ordered: from the last verified key; multiset: the
 * pass from its start, its two threads reading both collections). The multiset's clean result is the
 * ordered one, figure for figure. A fault that persists fails after --retries tries with the error still
 * transient; a non-transient one fails at once; --retries 0 does not retry. The reader thread's batches
 * (verify.c's pipeline) are made one document each in some runs, so that they fill and hand over all
 * along, with and without a fault in flight.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/store.h"
#include "etl/fold_run.h"
#include "etl/verify.h"

#include <mongoc/mongoc.h>
#include <string.h>

#define BILLS 240
#define CAP 400 /* verify's document cap: the larger folded documents are over it */

static char *dir;
static char *uri;
static lab_store_t *store;
static lab_fold_verify_method_t method; /* the group's */
static lab_fold_verify_result_t clean;
static lab_fold_verify_result_t clean_ordered; /* the ordered group's, for the multiset's to match */
static bool have_ordered;
static int64_t clean_taken; /* documents the clean run took from both streams */

/* A fault: fail document `at` (once) or every document from `at` on (`persistent`). */
typedef struct {
   int64_t at;
   bool persistent;
   uint32_t domain;
   uint32_t code;
   int64_t fired;
   int64_t last_nth;
} fault_t;

static bool
fault_cb (void *ctx, bool dst, int64_t nth, bson_error_t *error)
{
   fault_t *f = ctx;

   (void)dst;
   f->last_nth = nth;
   if (f->at > 0 && (nth == f->at || (f->persistent && nth > f->at))) {
      f->fired++;
      bson_set_error (error, f->domain, f->code, "injected fault at document %lld", (long long)nth);
      return false;
   }
   return true;
}

static void
insert_docs (lab_store_session_t *sess, const char *coll, bson_t **docs, size_t n)
{
   lab_store_insert_result_t res = { 0 };
   bson_error_t error;

   if (!lab_store_insert_many (sess, coll, (const bson_t *const *)docs, n, &res, &error)) {
      fail_msg ("insert into %s: %s", coll, error.message);
   }
   assert_int_equal (res.nerrors, 0);
   lab_store_insert_result_cleanup (&res);
   while (n) {
      bson_destroy (docs[--n]);
   }
}

/* setup -- bills 1..BILLS of 1..9 rows folded into "fd"; then one master's documents deleted from "fd"
 * (a difference) and three source rows without bill_id added (another one, sorted first). */
static int
setup (void **state)
{
   lab_store_opts_t so = { 0 };
   lab_fold_run_opts_t fo = { 0 };
   lab_fold_run_result_t fr = { 0 };
   bson_error_t error;
   lab_store_session_t *sess;
   bson_t *batch[512];
   bson_value_t key;
   size_t nb = 0;
   int64_t id = 1, deleted = 0;
   int b, r;

   (void)state;
   dir = lab_test_tmpdir ("verify-retry");
   uri = bson_strdup_printf ("wiredtiger:%s", dir);
   so.create = true;
   so.cache_size_bytes = 64 * 1024 * 1024;
   store = lab_store_open (uri, &so, &error);
   if (!store) {
      fail_msg ("open %s: %s", uri, error.message);
   }
   sess = lab_store_session_open (store, &error);
   assert_non_null (sess);
   assert_true (lab_store_create (sess, "bd", &error));
   assert_true (lab_store_create_index (sess, "bd", "bill_id", &error));
   for (r = 0; r < 9; r++) { /* interleaved: round r adds row r to every bill that has one */
      for (b = 1; b <= BILLS; b++) {
         if (r >= 1 + (b * 7919) % 9) {
            continue;
         }
         batch[nb] =
            BCON_NEW ("_id", BCON_INT64 (id), "bill_id", BCON_INT32 (b), "line", BCON_INT32 (r), "amount",
                      BCON_DOUBLE (r * 1.25 + b), "note", BCON_UTF8 (b % 3 ? "x" : "yyyy"));
         id++;
         if (++nb == 512) {
            insert_docs (sess, "bd", batch, nb);
            nb = 0;
         }
      }
   }
   insert_docs (sess, "bd", batch, nb);
   nb = 0;
   fo.target.src = "bd";
   fo.target.dst = "fd";
   fo.target.key = "bill_id";
   fo.target.array_field = "details";
   fo.hoist_spec = "none";
   fo.drop_dst = true;
   fo.progress = LAB_PROGRESS_NEVER;
   if (!lab_fold_run (store, &fo, &fr, &error)) {
      fail_msg ("fold: %s", error.message);
   }
   lab_fold_run_result_cleanup (&fr);
   key.value_type = BSON_TYPE_INT32;
   key.value.v_int32 = 77;
   assert_true (lab_store_delete_eq (sess, "fd", "bill_id", &key, &deleted, &error));
   assert_true (deleted > 0);
   for (r = 0; r < 3; r++) {
      batch[nb++] = BCON_NEW ("_id", BCON_INT64 (id), "line", BCON_INT32 (r));
      id++;
   }
   insert_docs (sess, "bd", batch, nb);
   lab_store_session_close (sess);
   return 0;
}

static int
teardown (void **state)
{
   (void)state;
   lab_store_close (store);
   lab_test_rmtree (dir);
   bson_free (dir);
   bson_free (uri);
   return 0;
}

static lab_fold_verify_opts_t
opts (fault_t *f, int retries)
{
   lab_fold_verify_opts_t o = { 0 };

   o.method = method;
   o.target.src = "bd";
   o.target.dst = "fd";
   o.target.key = "bill_id";
   o.target.array_field = "details";
   o.target.max_doc_bytes = CAP;
   o.batch_docs = 7; /* several cursor batches on each side */
   o.progress = LAB_PROGRESS_NEVER;
   o.retries = retries;
   o.retry_first_delay_ms = 1;
   o.fault = f ? fault_cb : NULL;
   o.fault_ctx = f;
   return o;
}

/* same_as -- every figure of `r` equals those of `want`. */
static void
same_as (const lab_fold_verify_result_t *r, const lab_fold_verify_result_t *want)
{
   assert_int_equal (r->equal, want->equal);
   assert_int_equal (r->src_rows, want->src_rows);
   assert_int_equal (r->dst_rows, want->dst_rows);
   assert_int_equal (r->src_masters, want->src_masters);
   assert_int_equal (r->dst_masters, want->dst_masters);
   assert_int_equal (r->dst_docs, want->dst_docs);
   assert_int_equal (r->differing_masters, want->differing_masters);
   assert_int_equal (r->skipped_masters, want->skipped_masters);
   assert_int_equal (r->oversize_docs, want->oversize_docs);
   assert_int_equal (r->largest_doc_bytes, want->largest_doc_bytes);
   assert_true (r->src_hash.lo == want->src_hash.lo && r->src_hash.hi == want->src_hash.hi);
   assert_true (r->dst_hash.lo == want->dst_hash.lo && r->dst_hash.hi == want->dst_hash.hi);
   assert_string_equal (r->first_difference, want->first_difference);
}

/* same_result -- every figure of `r` equals the clean run's. */
static void
same_result (const lab_fold_verify_result_t *r)
{
   same_as (r, &clean);
}

/* test_clean -- the baseline: the planted differences are found (so the retried runs have something
 * to count twice or lose). */
static void
test_clean (void **state)
{
   fault_t f = { 0 };
   lab_fold_verify_opts_t o = opts (&f, 3);
   bson_error_t error;

   (void)state;
   if (!lab_fold_verify (store, &o, &clean, &error)) {
      fail_msg ("verify: %s", error.message);
   }
   clean_taken = f.last_nth;
   print_message (
      "clean: %lld src rows, %lld dst docs, largest %lld bytes, %lld over %d bytes, %lld documents "
      "taken\n",
      (long long)clean.src_rows, (long long)clean.dst_docs, (long long)clean.largest_doc_bytes,
      (long long)clean.oversize_docs, CAP, (long long)clean_taken);
   assert_false (clean.equal);
   assert_int_equal (clean.retries, 0);
   assert_int_equal (clean.src_masters, BILLS + 1); /* + the rows without the key */
   assert_int_equal (clean.dst_masters, BILLS - 1);
   assert_int_equal (clean.differing_masters, 2);
   assert_true (clean.oversize_docs > 0);
   assert_true (clean.oversize_docs < clean.dst_docs);
   /* the first difference is the first master in key order: the rows without bill_id */
   assert_non_null (strstr (clean.first_difference, "no 'bill_id' field"));
   assert_true (clean_taken > 300);
   assert_int_equal (clean.method, method);
   if (method == LAB_VERIFY_ORDERED) {
      clean_ordered = clean;
      have_ordered = true;
   } else {
      /* the other method, the same figures and the same first difference */
      assert_true (have_ordered);
      same_as (&clean, &clean_ordered);
      assert_int_equal (clean.passes, 1);
      assert_int_equal (clean.workers, 2);
   }
}

/* test_resume_everywhere -- a transient error at document n, for n all along both streams (a socket
 * error, a lost cursor and a failover code by turns): one retry, then exactly the clean result. */
static void
test_resume_everywhere (void **state)
{
   const uint32_t domains[] = { MONGOC_ERROR_STREAM, MONGOC_ERROR_QUERY, MONGOC_ERROR_SERVER };
   const uint32_t codes[] = { MONGOC_ERROR_STREAM_SOCKET, 43, 10107 };
   lab_fold_verify_result_t r;
   bson_error_t error;
   int64_t n;
   int tries = 0;

   (void)state;
   assert_true (clean_taken > 0);
   for (n = 1; n <= clean_taken; n += (n < 12 ? 1 : 13)) {
      fault_t f = { 0 };
      lab_fold_verify_opts_t o = opts (&f, 3);

      f.at = n;
      /* every other fault with a document per pipeline batch: the reader fails with batches in flight */
      o.pipe_batch_bytes = tries % 2 ? 1 : 0;
      f.domain = domains[tries % 3];
      f.code = codes[tries % 3];
      tries++;
      if (!lab_fold_verify (store, &o, &r, &error)) {
         fail_msg ("verify with a fault at document %lld: %s", (long long)n, error.message);
      }
      assert_int_equal (f.fired, 1);
      assert_int_equal (r.retries, 1);
      assert_false (r.gave_up_transient);
      same_result (&r);
   }
   assert_true (tries > 20);
}

/* test_small_batches -- a document per batch from the reader thread to the hashing: the batches fill
 * (the reader waits for the hashing to give one back) and hand over all along; the same result. */
static void
test_small_batches (void **state)
{
   lab_fold_verify_opts_t o = opts (NULL, 0);
   lab_fold_verify_result_t r;
   bson_error_t error;

   (void)state;
   o.pipe_batch_bytes = 1;
   if (!lab_fold_verify (store, &o, &r, &error)) {
      fail_msg ("verify: %s", error.message);
   }
   assert_int_equal (r.retries, 0);
   same_result (&r);
}

/* test_gives_up -- a fault that persists: `retries` tries, then the transient error itself. */
static void
test_gives_up (void **state)
{
   fault_t f = { 0 };
   lab_fold_verify_opts_t o = opts (&f, 2);
   lab_fold_verify_result_t r;
   bson_error_t error;

   (void)state;
   f.at = 100;
   f.persistent = true;
   f.domain = MONGOC_ERROR_SERVER_SELECTION;
   f.code = MONGOC_ERROR_SERVER_SELECTION_FAILURE;
   assert_false (lab_fold_verify (store, &o, &r, &error));
   assert_int_equal (f.fired, 3); /* the first try and two retries */
   assert_int_equal (r.retries, 2);
   assert_true (r.gave_up_transient);
   assert_int_equal (error.domain, MONGOC_ERROR_SERVER_SELECTION);
   assert_non_null (strstr (error.message, "injected fault"));
}

/* test_not_retried -- a non-transient error fails at once; --retries 0 does not retry either. */
static void
test_not_retried (void **state)
{
   fault_t f = { 0 };
   lab_fold_verify_opts_t o = opts (&f, 3);
   lab_fold_verify_result_t r;
   bson_error_t error;

   (void)state;
   f.at = 40;
   f.domain = MONGOC_ERROR_SERVER;
   f.code = 13; /* Unauthorized */
   assert_false (lab_fold_verify (store, &o, &r, &error));
   assert_int_equal (f.fired, 1);
   assert_int_equal (r.retries, 0);
   assert_false (r.gave_up_transient);

   memset (&f, 0, sizeof f);
   o = opts (&f, 0);
   f.at = 40;
   f.domain = MONGOC_ERROR_STREAM;
   f.code = MONGOC_ERROR_STREAM_SOCKET;
   assert_false (lab_fold_verify (store, &o, &r, &error));
   assert_int_equal (f.fired, 1);
   assert_int_equal (r.retries, 0);
   assert_true (r.gave_up_transient);
}

/* test_passes -- (multiset) a memory bound too small for the masters: the verify starts again in more
 * passes, each holding a share of the masters, and gives exactly the clean result; a fault in a later
 * pass retries that pass alone. */
static void
test_passes (void **state)
{
   fault_t f = { 0 };
   lab_fold_verify_opts_t o = opts (&f, 3);
   lab_fold_verify_result_t r;
   bson_error_t error;

   (void)state;
   o.memory_bytes = 48 * 1024; /* 24 KiB a thread: a few dozen of the 240 masters */
   if (!lab_fold_verify (store, &o, &r, &error)) {
      fail_msg ("verify in passes: %s", error.message);
   }
   print_message ("%d passes, maps of %lld bytes at most\n", r.passes, (long long)r.map_bytes);
   assert_true (r.passes > 2);
   assert_true (r.map_bytes <= 48 * 1024);
   same_result (&r);
   /* a fault late in the run (in a later pass): that pass again, the same result */
   memset (&f, 0, sizeof f);
   f.at = clean_taken * (r.passes - 1) + 5;
   f.domain = MONGOC_ERROR_STREAM;
   f.code = MONGOC_ERROR_STREAM_SOCKET;
   if (!lab_fold_verify (store, &o, &r, &error)) {
      fail_msg ("verify in passes with a fault: %s", error.message);
   }
   assert_int_equal (f.fired, 1);
   assert_int_equal (r.retries, 1);
   same_result (&r);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_clean),         cmocka_unit_test (test_resume_everywhere),
      cmocka_unit_test (test_small_batches), cmocka_unit_test (test_gives_up),
      cmocka_unit_test (test_not_retried),
   };

   const struct CMUnitTest multiset_only[] = {
      cmocka_unit_test (test_clean),
      cmocka_unit_test (test_passes),
   };
   int rc[3];

   method = LAB_VERIFY_ORDERED;
   rc[0] = lab_test_run_group ("verify_retry ordered", tests, setup, teardown);
   method = LAB_VERIFY_MULTISET;
   rc[1] = lab_test_run_group ("verify_retry multiset", tests, setup, teardown);
   rc[2] = lab_test_run_group ("verify_retry multiset passes", multiset_only, setup, teardown);
   /* a failure in any group fails the program; skips are counted across groups (the last one says) */
   return rc[0] == 1 || rc[1] == 1 ? 1 : rc[2];
}
