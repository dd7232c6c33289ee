/*
 * testutil.h -- helpers shared by layoutlab's tests: running a cmocka group so that a skip is reported
 * as a skip, temporary directories, the store URIs to test against (embedded temp dir, and the test
 * server or $LAYOUTLAB_TEST_URI), and running tools.
 */
#ifndef LAB_TESTUTIL_H
#define LAB_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <bson/bson.h>

#include "store/store.h"

/* ---- skips that read as skips ------------------------------------------------------------------ */

/* The exit status ctest reads as "Skipped" (SKIP_RETURN_CODE of every test, tests/CMakeLists.txt). */
#define LAB_TEST_SKIP_CODE 77

/* lab_test_skip -- skip the running test, saying why (printf format): the reason goes to stderr as
 * "SKIP: <test file>:<line>: <reason>" (scripts/test.sh lists these lines) and the skip is counted, so that
 * lab_test_run_group exits LAB_TEST_SKIP_CODE. Does not return. */
#define lab_test_skip(...) lab_test_skip_ (__FILE__, __LINE__, __VA_ARGS__)
void lab_test_skip_ (const char *file, int line, const char *fmt, ...) BSON_GNUC_PRINTF (3, 4);

/* lab_test_run_group -- run a cmocka group (as cmocka_run_group_tests_name) and return the exit status
 * for ctest: 1 when any test failed or errored (cmocka returns their count, which could read as 77), else
 * LAB_TEST_SKIP_CODE when any test was skipped -- all of them or only some: a program that left part of
 * its checks out is reported as skipped, never as passed (the passed ones are on its output), else 0.
 * $LAB_TEST_ONLY (comma-separated test names), when set, runs only those (a CMake registration that
 * runs a program's quick tests, as the sanitizer tree does; the program says which); a name that is not
 * one of its tests fails the program. */
#define lab_test_run_group(name, tests, setup, teardown)                                                     \
   lab_test_run_group_ ((name), (tests), sizeof (tests) / sizeof ((tests)[0]), (setup), (teardown))
int lab_test_run_group_ (const char *name, const struct CMUnitTest *tests, size_t n, CMFixtureFunction setup,
                         CMFixtureFunction teardown);

/* lab_test_is_root -- whether the checks that need root can run; when not, print "left out (not root,
 * uid N): <what>" on stderr, once per `what` (scripts/test.sh lists these lines). Those checks are left
 * out, not skipped: the test's other checks ran and its exit status does not change. */
bool lab_test_is_root (const char *what);

/* cmocka's own skip() and group runners would let a skip exit 0 ("Passed"): use the two above. */
#undef skip
#define skip() lab_test_skip_needs_a_reason__use_lab_test_skip
#undef cmocka_run_group_tests
#define cmocka_run_group_tests(...) use_lab_test_run_group__a_skip_must_exit_77
#undef cmocka_run_group_tests_name
#define cmocka_run_group_tests_name(...) use_lab_test_run_group__a_skip_must_exit_77

/* ---- temporary directories, servers, tools ----------------------------------------------------- */

/* lab_test_tmpdir -- a fresh directory under $LAB_TEST_TMP (or /tmp) named after `tag`; caller frees. */
char *lab_test_tmpdir (const char *tag);

/* lab_test_folded_store -- a fresh embedded store (lab_test_tmpdir (tag)) holding `bills` bills of about
 * `mean_rows` rows made by billgen generate with `gen_args` in bill_detail, folded into detail_coll;
 * fails the running test when a tool fails. Caller frees. */
char *lab_test_folded_store (const char *tag, int bills, int mean_rows, const char *gen_args);

/* lab_test_rmtree -- remove a directory tree (best effort). */
void lab_test_rmtree (const char *path);

/* LAB_TEST_CHECK -- fail the running test with the call and its error when `call` (which sets a
 * bson_error_t named e_) is false. */
#define LAB_TEST_CHECK(call)                                                                                 \
   do {                                                                                                      \
      bson_error_t e_;                                                                                       \
      if (!(call)) {                                                                                         \
         fail_msg ("%s: %s", #call, e_.message);                                                             \
      }                                                                                                      \
   } while (0)

/* A fresh embedded store in its own temporary directory (the store tests' fixture). */
typedef struct {
   char *dir;
   char *uri; /* wiredtiger:<dir>/home */
   lab_store_t *store;
} lab_test_store_fx_t;

/* lab_test_store_open -- the embedded store at `uri` (created when missing, a 64 MiB cache); fails the
 * running test when it cannot be opened. */
lab_store_t *lab_test_store_open (const char *uri);

/* lab_test_store_fx_new -- a fresh store under lab_test_tmpdir (tag); free with lab_test_store_fx_free. */
lab_test_store_fx_t *lab_test_store_fx_new (const char *tag);

/* lab_test_store_fx_free -- close the store and remove its directory. */
void lab_test_store_fx_free (lab_test_store_fx_t *fx);

/* A folded store (lab_test_folded_store) and the tools run on it: the fold tests' fixture. */
typedef struct {
   char *dir;
   char *uri;  /* wiredtiger:<dir> */
   char *fold; /* the fold-details and scancmp binaries (lab_test_bin) */
   char *scan;
} lab_test_tools_fx_t;

/* lab_test_tools_fx_new -- lab_test_folded_store (tag, bills, mean_rows, gen_args) with its URI and the
 * tools' paths; free with lab_test_tools_fx_free (the store's directory goes with it). */
lab_test_tools_fx_t *lab_test_tools_fx_new (const char *tag, int bills, int mean_rows, const char *gen_args);
void lab_test_tools_fx_free (lab_test_tools_fx_t *fx);

/* lab_test_tools_fold -- fold-details --uri <fx's store> --progress never `args`, after the environment
 * assignments `env` (may be NULL); its exit code, stdout and stderr in *out and *err (each may be NULL). */
int lab_test_tools_fold (const lab_test_tools_fx_t *fx, const char *env, const char *args, char **out,
                         char **err);

/* lab_test_server_uri -- $LAYOUTLAB_TEST_URI, else the URI in $LAYOUTLAB_TEST_URI_FILE, else NULL (the
 * server tests then fail: the fixture is required). Caller frees. */
char *lab_test_server_uri (void);

/* lab_test_store_uri -- the URI for backend "wiredtiger" (a fresh temp dir) or "mongodb" (the test
 * server; a unique database name is appended unless the URI names one). Caller frees. */
char *lab_test_store_uri (const char *backend, const char *tag, char **db_out);

/* lab_test_run -- run a shell command line, capture stdout/stderr (caller frees; may pass NULL), return
 * the exit code (or 128+signal). */
int lab_test_run (const char *cmdline, char **out, char **err);

/* lab_test_run_ok -- lab_test_run that fails the test ("CMD: exit N: STDERR") unless the command exits 0;
 * *out (may pass NULL) its stdout, caller frees. */
void lab_test_run_ok (const char *cmdline, char **out);

/* lab_test_bin -- path of a built tool: $LAB_BIN_DIR/name; caller frees. */
char *lab_test_bin (const char *name);

/* lab_test_json_load -- parse a JSON file (a results file) into a new bson_t; fails the test when the
 * file is missing or not JSON. Caller bson_destroy()s. */
bson_t *lab_test_json_load (const char *path);

/* lab_test_json_has / _num / _str / _bool -- the value at dotted `path`; _num/_str/_bool fail the test
 * when it is missing or of another type. */
bool lab_test_json_has (const bson_t *d, const char *path);
double lab_test_json_num (const bson_t *d, const char *path);
const char *lab_test_json_str (const bson_t *d, const char *path);
bool lab_test_json_bool (const bson_t *d, const char *path);

/* lab_test_folded_rows -- sum of `row_count` over the folded collection `folded` (streamed by bill_id) of
 * the store at `uri`; when `detail` is given, *detail_count gets that collection's document count. */
int64_t lab_test_folded_rows (const char *uri, const char *folded, const char *detail, int64_t *detail_count);

#endif
