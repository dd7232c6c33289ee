/*
 * testutil.c -- cmocka groups whose skips exit 77, temporary directories, test-server URIs and tool runs
 * for layoutlab's tests.
 */
#include "testutil.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The skips of this process (cmocka runs every test in it) and the root-only checks said left out. */
static size_t g_skipped;
static char *g_left_out[16];
static size_t g_n_left_out;

void
lab_test_skip_ (const char *file, int line, const char *fmt, ...)
{
   const char *rel = strstr (file, "/tests/"); /* __FILE__ is absolute: name it from the source tree */
   va_list ap;
   char *why;

   va_start (ap, fmt);
   why = bson_strdupv_printf (fmt, ap);
   va_end (ap);
   fprintf (stderr, "SKIP: %s:%d: %s\n", rel ? rel + 1 : file, line, why);
   fflush (stderr);
   bson_free (why);
   g_skipped++;
   _skip (file, line); /* cmocka marks the test skipped and jumps out of it */
}

/* select_only -- the tests named in $LAB_TEST_ONLY (comma-separated), in their order; false (and a
 * message) when a name is not one of the program's tests: a renamed test must not vanish in silence. */
static bool
select_only (const char *name, const char *only, const struct CMUnitTest *tests, size_t n,
             struct CMUnitTest *out, size_t *n_out)
{
   char *copy = bson_strdup (only), *save = NULL, *tok;
   bool *want = bson_malloc0 (n * sizeof *want);
   size_t i;
   bool ok = true;

   for (tok = strtok_r (copy, ",", &save); tok; tok = strtok_r (NULL, ",", &save)) {
      for (i = 0; i < n && strcmp (tests[i].name, tok) != 0; i++) {
      }
      if (i == n) {
         fprintf (stderr, "%s: LAB_TEST_ONLY names '%s', which is not one of its tests\n", name, tok);
         ok = false;
      } else {
         want[i] = true;
      }
   }
   *n_out = 0;
   for (i = 0; i < n; i++) {
      if (want[i]) {
         out[(*n_out)++] = tests[i];
      }
   }
   bson_free (want);
   bson_free (copy);
   return ok;
}

int
lab_test_run_group_ (const char *name, const struct CMUnitTest *tests, size_t n, CMFixtureFunction setup,
                     CMFixtureFunction teardown)
{
   const char *only = getenv ("LAB_TEST_ONLY");
   struct CMUnitTest *chosen = NULL;
   int failed;

   if (only && *only) {
      size_t n_chosen;

      chosen = bson_malloc (n * sizeof *chosen);
      if (!select_only (name, only, tests, n, chosen, &n_chosen) || n_chosen == 0) {
         bson_free (chosen);
         return 1;
      }
      fprintf (stderr, "%s: LAB_TEST_ONLY: %zu of its %zu tests: %s\n", name, n_chosen, n, only);
      tests = chosen;
      n = n_chosen;
   }
   failed = _cmocka_run_group_tests (name, tests, n, setup, teardown);
   bson_free (chosen);
   if (failed != 0) {
      return 1;
   }
   if (g_skipped > 0) {
      fprintf (stderr, "%s: %zu of %zu test(s) skipped (exit %d: ctest reports the program as skipped)\n",
               name, g_skipped, n, LAB_TEST_SKIP_CODE);
      return LAB_TEST_SKIP_CODE;
   }
   return 0;
}

bool
lab_test_is_root (const char *what)
{
   size_t i;

   if (geteuid () == 0) {
      return true;
   }
   for (i = 0; i < g_n_left_out; i++) {
      if (strcmp (g_left_out[i], what) == 0) {
         return false;
      }
   }
   if (g_n_left_out < sizeof g_left_out / sizeof g_left_out[0]) {
      g_left_out[g_n_left_out++] = bson_strdup (what);
   }
   fprintf (stderr, "left out (not root, uid %d): %s\n", (int)geteuid (), what);
   fflush (stderr);
   return false;
}

char *
lab_test_tmpdir (const char *tag)
{
   const char *base = getenv ("LAB_TEST_TMP");
   char *tmpl;

   if (!base || !*base) {
      base = "/tmp";
   }
   mkdir (base, 0755);
   tmpl = bson_strdup_printf ("%s/%s-XXXXXX", base, tag);
   if (!mkdtemp (tmpl)) {
      fprintf (stderr, "cannot create a temporary directory under %s: %s\n", base, strerror (errno));
      abort ();
   }
   return tmpl;
}

static int
rm_one (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
   (void)st;
   (void)flag;
   (void)ftw;
   remove (path);
   return 0;
}

void
lab_test_rmtree (const char *path)
{
   if (path && *path) {
      nftw (path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
   }
}

/* read_file -- whole file as a string, trailing whitespace trimmed; NULL when unreadable. */
static char *
read_file (const char *path)
{
   FILE *f = fopen (path, "r");
   char buf[4096];
   size_t n;

   if (!f) {
      return NULL;
   }
   n = fread (buf, 1, sizeof buf - 1, f);
   fclose (f);
   buf[n] = '\0';
   while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\r')) {
      buf[--n] = '\0';
   }
   return n ? bson_strdup (buf) : NULL;
}

char *
lab_test_server_uri (void)
{
   const char *env = getenv ("LAYOUTLAB_TEST_URI");
   const char *file = getenv ("LAYOUTLAB_TEST_URI_FILE");

   if (env && *env) {
      return bson_strdup (env);
   }
   if (file && *file) {
      return read_file (file);
   }
   return NULL;
}

char *
lab_test_store_uri (const char *backend, const char *tag, char **db_out)
{
   if (db_out) {
      *db_out = NULL;
   }
   if (!strcmp (backend, "wiredtiger")) {
      char *dir = lab_test_tmpdir (tag);
      char *uri = bson_strdup_printf ("wiredtiger:%s", dir);
      bson_free (dir);
      return uri;
   } else {
      char *uri = lab_test_server_uri ();
      if (!uri) {
         fprintf (stderr, "no test server: set LAYOUTLAB_TEST_URI or run the test_server_start fixture\n");
         return NULL;
      }
      if (db_out) {
         *db_out = bson_strdup_printf ("t_%s_%d", tag, (int)getpid ());
      }
      return uri;
   }
}

/* slurp_fd -- read a file descriptor to the end. */
static char *
slurp_fd (FILE *f)
{
   bson_string_t *s = bson_string_new (NULL);
   char buf[8192];
   size_t n;

   /* sizeof buf - 1: bson_strndup reads n + 1 bytes, so a full buffer overflowed (found by ASan) */
   while ((n = fread (buf, 1, sizeof buf - 1, f)) > 0) {
      char *chunk = bson_strndup (buf, n);
      bson_string_append (s, chunk);
      bson_free (chunk);
   }
   return bson_string_free (s, false);
}

int
lab_test_run (const char *cmdline, char **out, char **err)
{
   char errpath[] = "/tmp/labtest-err-XXXXXX";
   int efd = mkstemp (errpath);
   char *full;
   FILE *p;
   char *o;
   int status;

   if (efd < 0) {
      abort ();
   }
   close (efd);
   full = bson_strdup_printf ("( %s ) 2>%s", cmdline, errpath);
   p = popen (full, "r");
   bson_free (full);
   if (!p) {
      abort ();
   }
   o = slurp_fd (p);
   status = pclose (p);
   if (out) {
      *out = o;
   } else {
      bson_free (o);
   }
   if (err) {
      FILE *ef = fopen (errpath, "r");
      *err = ef ? slurp_fd (ef) : bson_strdup ("");
      if (ef) {
         fclose (ef);
      }
   }
   unlink (errpath);
   if (WIFEXITED (status)) {
      return WEXITSTATUS (status);
   }
   return WIFSIGNALED (status) ? 128 + WTERMSIG (status) : -1;
}

void
lab_test_run_ok (const char *cmdline, char **out)
{
   char *err = NULL;
   int rc = lab_test_run (cmdline, out, &err);

   if (rc != 0) {
      fail_msg ("%s: exit %d: %s", cmdline, rc, err);
   }
   bson_free (err);
}

char *
lab_test_bin (const char *name)
{
   const char *dir = getenv ("LAB_BIN_DIR");
   return bson_strdup_printf ("%s/%s", dir && *dir ? dir : ".", name);
}

bson_t *
lab_test_json_load (const char *path)
{
   bson_error_t e;
   bson_t *doc = bson_new ();
   bson_json_reader_t *r = bson_json_reader_new_from_file (path, &e);

   if (!r) {
      fail_msg ("no results file %s: %s", path, e.message);
   }
   if (bson_json_reader_read (r, doc, &e) != 1) {
      fail_msg ("%s is not JSON: %s", path, e.message);
   }
   bson_json_reader_destroy (r);
   return doc;
}

/* find -- the iterator at dotted `path`. */
static bool
find (const bson_t *d, const char *path, bson_iter_t *f)
{
   bson_iter_t it;
   return bson_iter_init (&it, d) && bson_iter_find_descendant (&it, path, f);
}

bool
lab_test_json_has (const bson_t *d, const char *path)
{
   bson_iter_t f;
   return find (d, path, &f);
}

double
lab_test_json_num (const bson_t *d, const char *path)
{
   bson_iter_t f;
   if (!find (d, path, &f) || !BSON_ITER_HOLDS_NUMBER (&f)) {
      fail_msg ("results: %s missing or not a number", path);
   }
   return bson_iter_as_double (&f);
}

const char *
lab_test_json_str (const bson_t *d, const char *path)
{
   bson_iter_t f;
   if (!find (d, path, &f) || !BSON_ITER_HOLDS_UTF8 (&f)) {
      fail_msg ("results: %s missing or not a string", path);
   }
   return bson_iter_utf8 (&f, NULL);
}

bool
lab_test_json_bool (const bson_t *d, const char *path)
{
   bson_iter_t f;
   if (!find (d, path, &f) || !BSON_ITER_HOLDS_BOOL (&f)) {
      fail_msg ("results: %s missing or not a bool", path);
   }
   return bson_iter_bool (&f);
}

int64_t
lab_test_folded_rows (const char *uri, const char *folded, const char *detail, int64_t *detail_count)
{
   lab_store_t *store;
   lab_store_session_t *sess;
   lab_store_cursor_t *cur;
   const bson_t *doc;
   bson_error_t e;
   int64_t sum = 0;
   int r;

   store = lab_store_open (uri, NULL, &e);
   assert_non_null (store);
   sess = lab_store_session_open (store, &e);
   assert_non_null (sess);
   if (detail) {
      assert_true (lab_store_count (sess, detail, detail_count, &e));
   }
   cur = lab_store_sorted_open (sess, folded, "bill_id", NULL, &e);
   assert_non_null (cur);
   while ((r = lab_store_cursor_next (cur, &doc, &e)) == 1) {
      bson_iter_t it;
      assert_true (bson_iter_init_find (&it, doc, "row_count"));
      sum += bson_iter_as_int64 (&it);
   }
   assert_int_equal (r, 0);
   lab_store_cursor_close (cur);
   lab_store_session_close (sess);
   lab_store_close (store);
   return sum;
}

/* lab_test_folded_store -- a fresh embedded store (lab_test_tmpdir (tag)) holding `bills` bills of about
 * `mean_rows` rows made by billgen generate with `gen_args` (e.g. "--order clustered") in bill_detail,
 * folded by fold-details into detail_coll; fails the running test when a tool fails. Caller frees. */
char *
lab_test_folded_store (const char *tag, int bills, int mean_rows, const char *gen_args)
{
   char *billgen = lab_test_bin ("billgen"), *fold = lab_test_bin ("fold-details");
   char *dir = lab_test_tmpdir (tag);
   char *cmd;

   cmd =
      bson_strdup_printf ("'%s' generate --uri 'wiredtiger:%s' --dst bill_detail --bills %d --mean-rows %d "
                          "%s --seed 11 --drop --progress never -q",
                          billgen, dir, bills, mean_rows, gen_args);
   lab_test_run_ok (cmd, NULL);
   bson_free (cmd);
   cmd = bson_strdup_printf (
      "'%s' --uri 'wiredtiger:%s' --src bill_detail --dst detail_coll --progress never -q", fold, dir);
   lab_test_run_ok (cmd, NULL);
   bson_free (cmd);
   bson_free (billgen);
   bson_free (fold);
   return dir;
}

/* lab_test_store_open -- see testutil.h. */
lab_store_t *
lab_test_store_open (const char *uri)
{
   lab_store_opts_t o = { .create = true, .cache_size_bytes = 64 * 1024 * 1024 };
   bson_error_t e;
   lab_store_t *s = lab_store_open (uri, &o, &e);

   if (!s) {
      fail_msg ("open %s: %s", uri, e.message);
   }
   return s;
}

/* lab_test_store_fx_new -- see testutil.h. */
lab_test_store_fx_t *
lab_test_store_fx_new (const char *tag)
{
   lab_test_store_fx_t *fx = bson_malloc0 (sizeof *fx);

   fx->dir = lab_test_tmpdir (tag);
   fx->uri = bson_strdup_printf ("wiredtiger:%s/home", fx->dir);
   fx->store = lab_test_store_open (fx->uri);
   return fx;
}

/* lab_test_store_fx_free -- see testutil.h. */
void
lab_test_store_fx_free (lab_test_store_fx_t *fx)
{
   lab_store_close (fx->store);
   lab_test_rmtree (fx->dir);
   bson_free (fx->dir);
   bson_free (fx->uri);
   bson_free (fx);
}

/* lab_test_tools_fx_new -- see testutil.h. */
lab_test_tools_fx_t *
lab_test_tools_fx_new (const char *tag, int bills, int mean_rows, const char *gen_args)
{
   lab_test_tools_fx_t *fx = bson_malloc0 (sizeof *fx);

   fx->fold = lab_test_bin ("fold-details");
   fx->scan = lab_test_bin ("scancmp");
   fx->dir = lab_test_folded_store (tag, bills, mean_rows, gen_args);
   fx->uri = bson_strdup_printf ("wiredtiger:%s", fx->dir);
   return fx;
}

/* lab_test_tools_fx_free -- see testutil.h. */
void
lab_test_tools_fx_free (lab_test_tools_fx_t *fx)
{
   lab_test_rmtree (fx->dir);
   bson_free (fx->dir);
   bson_free (fx->uri);
   bson_free (fx->fold);
   bson_free (fx->scan);
   bson_free (fx);
}

/* lab_test_tools_fold -- see testutil.h. */
int
lab_test_tools_fold (const lab_test_tools_fx_t *fx, const char *env, const char *args, char **out, char **err)
{
   char *cmd =
      bson_strdup_printf ("%s '%s' --uri '%s' --progress never %s", env ? env : "", fx->fold, fx->uri, args);
   int rc = lab_test_run (cmd, out, err);

   bson_free (cmd);
   return rc;
}
