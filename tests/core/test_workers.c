/*
 * test_workers.c -- unit tests of core/workers.h: every worker runs and is joined, the parent gets the
 * first failure by worker index, the stop callback, N = 1, and a thread that cannot start.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "core/workers.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>

typedef struct {
   int index_seen;
   bool ran;
   bool fail;             /* return false with "worker I failed" */
   atomic_bool *wait_for; /* spin until it is set before returning (orders failures in time) */
   atomic_bool *set_done; /* set when this worker returns */
   pthread_t tid;
} ctx_t;

static atomic_int stops;

/* work -- the test worker: note that it ran, optionally wait for another, fail when told. */
static bool
work (void *arg, int index, bson_error_t *error)
{
   ctx_t *c = arg;

   c->ran = true;
   c->index_seen = index;
   c->tid = pthread_self ();
   if (c->wait_for) {
      while (!atomic_load (c->wait_for)) {
      }
   }
   if (c->fail) {
      lab_error_set (error, LAB_ERROR_SCAN, 100 + (uint32_t)index, "worker %d failed", index);
   }
   if (c->set_done) {
      atomic_store (c->set_done, true);
   }
   return !c->fail;
}

/* count_stop -- the stop callback: count the calls. */
static void
count_stop (void *ctx)
{
   (void)ctx;
   atomic_fetch_add (&stops, 1);
}

static lab_workers_t
pool_of (ctx_t *ctxs)
{
   lab_workers_t w = { work, ctxs, sizeof *ctxs, count_stop, NULL, NULL };
   atomic_store (&stops, 0);
   return w;
}

static void
test_all_succeed (void **state)
{
   ctx_t c[5] = { { 0 } };
   lab_workers_t w = pool_of (c);
   bson_error_t e;
   int failed = 7, i;

   (void)state;
   assert_true (lab_workers_run (&w, 5, &failed, &e));
   assert_int_equal (failed, -1);
   assert_int_equal (atomic_load (&stops), 0);
   for (i = 0; i < 5; i++) {
      assert_true (c[i].ran);
      assert_int_equal (c[i].index_seen, i);
      assert_false (pthread_equal (c[i].tid, pthread_self ())); /* each in a thread of its own */
   }
}

static void
test_one_fails (void **state)
{
   ctx_t c[4] = { { 0 } };
   lab_workers_t w = pool_of (c);
   bson_error_t e;
   int failed = -1, i;

   (void)state;
   c[2].fail = true;
   assert_false (lab_workers_run (&w, 4, &failed, &e));
   assert_int_equal (failed, 2);
   assert_int_equal (e.domain, LAB_ERROR_SCAN);
   assert_int_equal (e.code, 102);
   assert_string_equal (e.message, "worker 2 failed");
   assert_int_equal (atomic_load (&stops), 1);
   for (i = 0; i < 4; i++) {
      assert_true (c[i].ran); /* all joined before the report */
   }
}

static void
test_first_by_index (void **state)
{
   ctx_t c[4] = { { 0 } };
   lab_workers_t w = pool_of (c);
   atomic_bool three_done = false;
   bson_error_t e;
   int failed = -1;

   (void)state;
   /* worker 3 fails first in time; worker 1 fails only after it: worker 1's error is reported */
   c[3].fail = true;
   c[3].set_done = &three_done;
   c[1].fail = true;
   c[1].wait_for = &three_done;
   assert_false (lab_workers_run (&w, 4, &failed, &e));
   assert_int_equal (failed, 1);
   assert_string_equal (e.message, "worker 1 failed");
   assert_int_equal (e.code, 101);
   assert_int_equal (atomic_load (&stops), 2);
}

static void
test_single_worker (void **state)
{
   ctx_t c = { 0 };
   lab_workers_t w = { work, &c, 0, NULL, NULL, NULL };
   bson_error_t e;
   int failed = 9;

   (void)state;
   assert_true (lab_workers_run (&w, 1, &failed, &e));
   assert_true (c.ran);
   assert_int_equal (c.index_seen, 0);
   assert_int_equal (failed, -1);
   assert_true (pthread_equal (c.tid, pthread_self ())); /* N = 1 runs in the caller's thread */
   c.fail = true;
   assert_false (lab_workers_run (&w, 1, &failed, &e));
   assert_int_equal (failed, 0);
   assert_string_equal (e.message, "worker 0 failed");
}

static int create_calls;

/* create_fails_third -- pthread_create that refuses its third call with EAGAIN. */
static int
create_fails_third (pthread_t *tid, const pthread_attr_t *attr, void *(*start) (void *), void *arg)
{
   if (++create_calls == 3) {
      return EAGAIN;
   }
   return pthread_create (tid, attr, start, arg);
}

static void
test_thread_create_fails (void **state)
{
   ctx_t c[5] = { { 0 } };
   lab_workers_t w = pool_of (c);
   bson_error_t e;
   int failed = -1;

   (void)state;
   create_calls = 0;
   w.create = create_fails_third;
   assert_false (lab_workers_run (&w, 5, &failed, &e));
   assert_int_equal (failed, 2);
   assert_int_equal (e.domain, LAB_ERROR_IO);
   assert_int_equal (e.code, EAGAIN);
   assert_string_equal (e.message, "cannot start worker thread 2: Resource temporarily unavailable");
   assert_int_equal (atomic_load (&stops), 1);
   assert_int_equal (create_calls, 3); /* nothing started after the failure */
   assert_true (c[0].ran);             /* the started ones ran to the end and were joined */
   assert_true (c[1].ran);
   assert_false (c[2].ran);
   assert_false (c[3].ran);
   assert_false (c[4].ran);

   /* an earlier worker's own failure comes first (by index) */
   memset (c, 0, sizeof c);
   create_calls = 0;
   c[1].fail = true;
   assert_false (lab_workers_run (&w, 5, &failed, &e));
   assert_int_equal (failed, 1);
   assert_string_equal (e.message, "worker 1 failed");
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_all_succeed),         cmocka_unit_test (test_one_fails),
      cmocka_unit_test (test_first_by_index),      cmocka_unit_test (test_single_worker),
      cmocka_unit_test (test_thread_create_fails),
   };
   return lab_test_run_group ("workers", tests, NULL, NULL);
}
