/*
 * test_key_types.c -- what a key field holds, on either backend (argument or LAB_STORE_BACKEND:
 * wiredtiger or mongodb): lab_store_key_types reads one type class from the index's ends without counting,
 * counts every entry per type when the ends differ (int32, int64 and double one class; string another; a
 * document without the field as null), an empty index; lab_store_field_check says a field no document has,
 * with the fields seen, and is silent for a field some have and for an empty collection.
 */
#include "tests/testutil.h"

#include "core/error.h"
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

static const char *backend;

typedef struct {
   char *uri, *db;
   lab_store_t *store;
   lab_store_session_t *s;
} fx_t;

/* setup -- a fresh embedded home, or a database of its own on the test server. */
static int
setup (void **state)
{
   fx_t *fx = bson_malloc0 (sizeof *fx);
   lab_store_opts_t o = { .create = true, .cache_size_bytes = 64 * 1024 * 1024 };
   bson_error_t e;

   fx->uri = lab_test_store_uri (backend, "key-types", &fx->db);
   assert_non_null (fx->uri);
   o.db = fx->db;
   if (!(fx->store = lab_store_open (fx->uri, &o, &e)) || !(fx->s = lab_store_session_open (fx->store, &e))) {
      fail_msg ("open %s: %s", fx->uri, e.message);
   }
   *state = fx;
   return 0;
}

/* teardown -- drop what a server test wrote, remove an embedded home. */
static int
teardown (void **state)
{
   fx_t *fx = *state;

   lab_store_drop (fx->s, "kt", NULL);
   lab_store_drop (fx->s, "kt_empty", NULL);
   lab_store_session_close (fx->s);
   lab_store_close (fx->store);
   if (strcmp (backend, "wiredtiger") == 0) {
      lab_test_rmtree (fx->uri + strlen ("wiredtiger:"));
   }
   bson_free (fx->uri);
   bson_free (fx->db);
   bson_free (fx);
   return 0;
}

/* insert -- one document into kt. */
static void
insert (fx_t *fx, bson_t *doc)
{
   lab_store_insert_result_t res = { 0 };
   bson_error_t e;

   if (!lab_store_insert_many (fx->s, "kt", (const bson_t *const *)&doc, 1, &res, &e)) {
      fail_msg ("insert: %s", e.message);
   }
   assert_int_equal (res.nerrors, 0);
   lab_store_insert_result_cleanup (&res);
   bson_destroy (doc);
}

/* test_key_types -- one class from the ends; several counted per type. */
static void
test_key_types (void **state)
{
   fx_t *fx = *state;
   lab_store_key_types_t kt;
   bson_error_t e;
   char text[256];

   assert_true (lab_store_create (fx->s, "kt", &e));
   assert_true (lab_store_create_index (fx->s, "kt", "k", &e));
   assert_true (lab_store_key_types (fx->s, "kt", "k", &kt, &e));
   assert_true (kt.empty);
   insert (fx, BCON_NEW ("_id", BCON_INT32 (1), "k", BCON_INT32 (7)));
   insert (fx, BCON_NEW ("_id", BCON_INT32 (2), "k", BCON_INT64 (8)));
   insert (fx, BCON_NEW ("_id", BCON_INT32 (3), "k", BCON_DOUBLE (9.5)));
   if (!lab_store_key_types (fx->s, "kt", "k", &kt, &e)) {
      fail_msg ("%s", e.message);
   }
   /* numbers are one class: read from the two ends, nothing counted */
   assert_false (kt.empty);
   assert_int_equal (kt.nclasses, 1);
   assert_false (kt.counted);
   assert_int_equal (kt.first, BSON_TYPE_INT32);
   assert_int_equal (kt.last, BSON_TYPE_DOUBLE);

   insert (fx, BCON_NEW ("_id", BCON_INT32 (4), "k", BCON_UTF8 ("7")));
   insert (fx, BCON_NEW ("_id", BCON_INT32 (5), "k", BCON_UTF8 ("8")));
   insert (fx, BCON_NEW ("_id", BCON_INT32 (6), "other", BCON_INT32 (1)));
   if (!lab_store_key_types (fx->s, "kt", "k", &kt, &e)) {
      fail_msg ("%s", e.message);
   }
   assert_int_equal (kt.nclasses, 3);
   assert_true (kt.counted);
   assert_int_equal (kt.first, BSON_TYPE_NULL);
   assert_int_equal (kt.last, BSON_TYPE_UTF8);
   assert_int_equal (kt.rows[BSON_TYPE_INT32], 1);
   assert_int_equal (kt.rows[BSON_TYPE_INT64], 1);
   assert_int_equal (kt.rows[BSON_TYPE_DOUBLE], 1);
   assert_int_equal (kt.rows[BSON_TYPE_UTF8], 2);
   assert_int_equal (kt.rows[BSON_TYPE_NULL], 1);
   lab_store_key_types_text (&kt, text, sizeof text);
   assert_string_equal (text,
                        "null (1 rows), double (1 rows), int32 (1 rows), int64 (1 rows), string (2 rows)");
}

/* test_field_check -- a field no document has, one some have, an empty collection. */
static void
test_field_check (void **state)
{
   fx_t *fx = *state;
   bson_error_t e;
   bool absent = true;

   assert_true (lab_store_create (fx->s, "kt_empty", &e));
   assert_true (lab_store_field_check (fx->s, "kt_empty", "k", &absent, &e));
   assert_false (absent);
   assert_true (lab_store_create (fx->s, "kt", &e));
   insert (fx, BCON_NEW ("_id", BCON_INT32 (1), "a", BCON_INT32 (7), "b", BCON_INT32 (1)));
   insert (fx, BCON_NEW ("_id", BCON_INT32 (2), "a", BCON_INT32 (8), "c", BCON_UTF8 ("x")));
   assert_true (lab_store_field_check (fx->s, "kt", "c", &absent, &e));
   assert_false (absent);
   assert_true (lab_store_field_check (fx->s, "kt", "k", &absent, &e));
   assert_true (absent);
   assert_int_equal (e.domain, LAB_ERROR_USAGE);
   assert_non_null (strstr (e.message, "no document of kt has a field k (fields seen: a, b, c; 2 documents"));
}

/* test_type_class -- MongoDB's comparison order's classes. */
static void
test_type_class (void **state)
{
   (void)state;
   assert_int_equal (lab_store_type_class (BSON_TYPE_INT32), lab_store_type_class (BSON_TYPE_DOUBLE));
   assert_int_equal (lab_store_type_class (BSON_TYPE_INT64), lab_store_type_class (BSON_TYPE_DECIMAL128));
   assert_true (lab_store_type_class (BSON_TYPE_INT32) < lab_store_type_class (BSON_TYPE_UTF8));
   assert_true (lab_store_type_class (BSON_TYPE_NULL) < lab_store_type_class (BSON_TYPE_INT32));
   assert_true (lab_store_type_class (BSON_TYPE_OID) < lab_store_type_class (BSON_TYPE_DATE_TIME));
   assert_string_equal (lab_store_type_name (BSON_TYPE_INT32), "int32");
}

int
main (int argc, char **argv)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_type_class),
      cmocka_unit_test_setup_teardown (test_key_types, setup, teardown),
      cmocka_unit_test_setup_teardown (test_field_check, setup, teardown),
   };

   backend = argc > 1 ? argv[1] : getenv ("LAB_STORE_BACKEND");
   if (!backend || (strcmp (backend, "wiredtiger") != 0 && strcmp (backend, "mongodb") != 0)) {
      fprintf (stderr, "usage: %s wiredtiger|mongodb (or set LAB_STORE_BACKEND)\n", argv[0]);
      return 2;
   }
   return lab_test_run_group (backend, tests, NULL, NULL);
}
