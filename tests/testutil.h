/*
 * testutil.h -- helpers shared by layoutlab's tests: temporary directories, the store URIs to test
 * against (embedded temp dir, and the test server or $LAYOUTLAB_TEST_URI), and running tools.
 */
#ifndef LAB_TESTUTIL_H
#define LAB_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <bson/bson.h>

#include "core/store.h"

/* lab_test_tmpdir -- a fresh directory under $LAB_TEST_TMP (or /tmp) named after `tag`; caller frees. */
char *lab_test_tmpdir (const char *tag);

/* lab_test_rmtree -- remove a directory tree (best effort). */
void lab_test_rmtree (const char *path);

/* lab_test_server_uri -- $LAYOUTLAB_TEST_URI, else the URI in $LAYOUTLAB_TEST_URI_FILE, else NULL (the
 * server tests then fail: the fixture is required). Caller frees. */
char *lab_test_server_uri (void);

/* lab_test_store_uri -- the URI for backend "wiredtiger" (a fresh temp dir) or "mongodb" (the test
 * server; a unique database name is appended unless the URI names one). Caller frees. */
char *lab_test_store_uri (const char *backend, const char *tag, char **db_out);

/* lab_test_run -- run a shell command line, capture stdout/stderr (caller frees; may pass NULL), return
 * the exit code (or 128+signal). */
int lab_test_run (const char *cmdline, char **out, char **err);

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
