/*
 * test_csv.c -- unit tests of CSV typing (datasets/csvtype.c) and CSV reading with positions over plain
 * and zstd inputs (datasets/csvin.c, datasets/stream.c): every edge case billgen import promises; the
 * error codes of import (parse-only, no store) and export (on an embedded store).
 */
#include "tests/testutil.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "core/error.h"
#include "store/store.h"
#include "datasets/billgen.h"
#include "datasets/csvin.h"
#include "datasets/csvtype.h"
#include "datasets/stream.h"

static char *tmp;

static int
setup (void **state)
{
   (void)state;
   tmp = lab_test_tmpdir ("test_csv");
   return 0;
}

static int
teardown (void **state)
{
   (void)state;
   lab_test_rmtree (tmp);
   bson_free (tmp);
   return 0;
}

/* ---- typing ------------------------------------------------------------------------------------ */

static void
test_header_typed (void **state)
{
   (void)state;
   lab_gen_csv_header_t h = { 0 };
   bson_error_t e;
   assert_true (
      lab_gen_csv_header_from_list (&h,
                                    "bill_id.int64(),name.string(),d.date(),q.double(),x.auto(),b.boolean(),"
                                    "m.decimal(),i.int32(),_id.objectid()",
                                    true, &e));
   assert_int_equal (h.n, 9);
   assert_string_equal (h.cols[0].name, "bill_id");
   assert_int_equal (h.cols[0].type, LAB_CSV_INT64);
   assert_int_equal (h.cols[2].type, LAB_CSV_DATE);
   assert_int_equal (h.cols[8].type, LAB_CSV_OBJECTID);
   assert_int_equal (lab_gen_csv_header_find (&h, "q"), 3);
   assert_int_equal (lab_gen_csv_header_find (&h, "zz"), -1);
   lab_gen_csv_header_cleanup (&h);

   const char *bad[] = { "a.int64",    "a.int65()",   "a.date(2006-01-02)",
                         "a",          ".int32()",    "a.int32(),a.string()",
                         "$a.int32()", "a.b.int32()", "a.int32(),,b.int32()" };
   const char *why[] = { "type()",    "unknown type", "arguments",    "no type", "empty",
                         "duplicate", "'$'",          "contains '.'", "no type" };
   for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      lab_gen_csv_header_t hb = { 0 };
      assert_false (lab_gen_csv_header_from_list (&hb, bad[i], true, &e));
      if (!strstr (e.message, why[i])) {
         fail_msg ("'%s': message '%s' lacks '%s'", bad[i], e.message, why[i]);
      }
      if (!lab_error_is (&e, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER)) {
         fail_msg ("'%s': domain %u code %u, want LAB_CSV_ERR_BAD_HEADER", bad[i], e.domain, e.code);
      }
      lab_gen_csv_header_cleanup (&hb);
   }
   /* untyped: the whole cell is the name; a dot is refused with a hint */
   lab_gen_csv_header_t hu = { 0 };
   assert_true (lab_gen_csv_header_from_list (&hu, "a,b,c", false, &e));
   assert_int_equal (hu.cols[1].type, LAB_CSV_AUTO);
   lab_gen_csv_header_cleanup (&hu);
   assert_false (lab_gen_csv_header_from_list (&hu, "a.int32()", false, &e));
   assert_non_null (strstr (e.message, "--columns-have-types"));
   assert_true (lab_error_is (&e, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER));
   lab_gen_csv_header_cleanup (&hu);
}

/* conv -- convert text for a type; returns the appended value's type, 0 when left out, -1 on error. */
static int
conv (lab_gen_csv_type_t t, const char *text, bson_value_t *out, char *why)
{
   lab_gen_csv_column_t col = { .name = "f", .type = t };
   bson_t d = BSON_INITIALIZER;
   bool appended;
   size_t bad;
   char w[256];
   int r;
   if (!lab_gen_csv_convert (&col, text, text ? strlen (text) : 0, &d, &appended, w, sizeof w, &bad)) {
      if (why) {
         strcpy (why, w);
      }
      r = -1;
   } else if (!appended) {
      r = 0;
   } else {
      bson_iter_t it;
      assert_true (bson_iter_init_find (&it, &d, "f"));
      if (out) {
         bson_value_copy (bson_iter_value (&it), out);
      }
      r = (int)bson_iter_type (&it);
   }
   bson_destroy (&d);
   return r;
}

static void
test_convert (void **state)
{
   (void)state;
   bson_value_t v;
   char why[256];

   assert_int_equal (conv (LAB_CSV_INT32, "-2147483648", &v, NULL), BSON_TYPE_INT32);
   assert_int_equal (v.value.v_int32, INT32_MIN);
   assert_int_equal (conv (LAB_CSV_INT32, "2147483648", NULL, why), -1);
   assert_non_null (strstr (why, "not a valid int32"));
   assert_int_equal (conv (LAB_CSV_INT32, "12x", NULL, why), -1);
   assert_int_equal (conv (LAB_CSV_INT32, " 12", NULL, why), -1);
   assert_int_equal (conv (LAB_CSV_INT32, "+7", &v, NULL), BSON_TYPE_INT32);
   assert_int_equal (v.value.v_int32, 7);
   assert_int_equal (conv (LAB_CSV_INT64, "202300000001", &v, NULL), BSON_TYPE_INT64);
   assert_int_equal (v.value.v_int64, 202300000001ll);
   assert_int_equal (conv (LAB_CSV_INT64, "9223372036854775808", NULL, why), -1);
   assert_int_equal (conv (LAB_CSV_DOUBLE, "17.6", &v, NULL), BSON_TYPE_DOUBLE);
   assert_true (v.value.v_double == 17.6);
   assert_int_equal (conv (LAB_CSV_DOUBLE, "1e400", NULL, why), -1);
   assert_int_equal (conv (LAB_CSV_DOUBLE, "Infinity", &v, NULL), BSON_TYPE_DOUBLE);
   assert_true (isinf (v.value.v_double) && v.value.v_double > 0);
   assert_int_equal (conv (LAB_CSV_DOUBLE, "NaN", &v, NULL), BSON_TYPE_DOUBLE);
   assert_true (isnan (v.value.v_double));
   assert_int_equal (conv (LAB_CSV_DOUBLE, "1.5.2", NULL, why), -1);
   const char *truthy[] = { "true", "True", "TRUE", "t", "T", "1" };
   const char *falsy[] = { "false", "False", "FALSE", "f", "F", "0" };
   for (int i = 0; i < 6; i++) {
      assert_int_equal (conv (LAB_CSV_BOOLEAN, truthy[i], &v, NULL), BSON_TYPE_BOOL);
      assert_true (v.value.v_bool);
      assert_int_equal (conv (LAB_CSV_BOOLEAN, falsy[i], &v, NULL), BSON_TYPE_BOOL);
      assert_false (v.value.v_bool);
   }
   assert_int_equal (conv (LAB_CSV_BOOLEAN, "yes", NULL, why), -1);
   assert_int_equal (conv (LAB_CSV_DECIMAL, "1234.5600", &v, NULL), BSON_TYPE_DECIMAL128);
   char dec[BSON_DECIMAL128_STRING];
   bson_decimal128_to_string (&v.value.v_decimal128, dec);
   assert_string_equal (dec, "1234.5600");
   assert_int_equal (conv (LAB_CSV_DECIMAL, "12,5", NULL, why), -1);
   assert_int_equal (conv (LAB_CSV_OBJECTID, "63b0ce87bbc0778421de9a43", &v, NULL), BSON_TYPE_OID);
   assert_int_equal (conv (LAB_CSV_OBJECTID, "63b0ce87bbc0778421de9a4", NULL, why), -1);
   assert_int_equal (conv (LAB_CSV_OBJECTID, "63b0ce87bbc0778421de9a4g", NULL, why), -1);
   /* auto: mongoimport's rule, but words stay strings */
   assert_int_equal (conv (LAB_CSV_AUTO, "42", NULL, NULL), BSON_TYPE_INT32);
   assert_int_equal (conv (LAB_CSV_AUTO, "4294967296", NULL, NULL), BSON_TYPE_INT64);
   assert_int_equal (conv (LAB_CSV_AUTO, "4.5", NULL, NULL), BSON_TYPE_DOUBLE);
   assert_int_equal (conv (LAB_CSV_AUTO, "1e3", NULL, NULL), BSON_TYPE_DOUBLE);
   assert_int_equal (conv (LAB_CSV_AUTO, "Nan", NULL, NULL), BSON_TYPE_UTF8);
   assert_int_equal (conv (LAB_CSV_AUTO, "inf", NULL, NULL), BSON_TYPE_UTF8);
   assert_int_equal (conv (LAB_CSV_AUTO, "张伟", NULL, NULL), BSON_TYPE_UTF8);
   /* empty: unquoted (NULL) is left out; "" is the empty string, or an error for other types */
   assert_int_equal (conv (LAB_CSV_INT32, NULL, NULL, NULL), 0);
   assert_int_equal (conv (LAB_CSV_STRING, NULL, NULL, NULL), 0);
   assert_int_equal (conv (LAB_CSV_STRING, "", &v, NULL), BSON_TYPE_UTF8);
   assert_int_equal (v.value.v_utf8.len, 0);
   bson_value_destroy (&v);
   assert_int_equal (conv (LAB_CSV_INT32, "", NULL, why), -1);
   assert_non_null (strstr (why, "empty quoted value"));
}

static void
test_invalid_utf8 (void **state)
{
   (void)state;
   size_t bad = 99;
   assert_true (lab_gen_utf8_check ("plain 张伟 ✓ 𝄞", strlen ("plain 张伟 ✓ 𝄞"), &bad));
   assert_false (lab_gen_utf8_check ("ab\xC0\xAF", 4, &bad)); /* overlong '/' */
   assert_int_equal (bad, 2);
   assert_false (lab_gen_utf8_check ("\xED\xA0\x80", 3, &bad)); /* surrogate */
   assert_int_equal (bad, 0);
   assert_false (lab_gen_utf8_check ("a\xF4\x90\x80\x80", 5, &bad)); /* > U+10FFFF */
   assert_int_equal (bad, 1);
   assert_false (lab_gen_utf8_check ("abc\xE5\xBC", 5, &bad)); /* truncated sequence */
   assert_int_equal (bad, 3);
   assert_false (lab_gen_utf8_check ("a\0b", 3, &bad)); /* NUL */
   assert_int_equal (bad, 1);
   assert_false (lab_gen_utf8_check ("\xFF", 1, &bad));

   lab_gen_csv_column_t col = { .name = "f", .type = LAB_CSV_STRING };
   bson_t d = BSON_INITIALIZER;
   bool appended;
   char why[256];
   assert_false (lab_gen_csv_convert (&col, "张\xFF", 4, &d, &appended, why, sizeof why, &bad));
   assert_int_equal (bad, 3);
   assert_non_null (strstr (why, "invalid UTF-8"));
   bson_destroy (&d);
}

static void
test_dates (void **state)
{
   (void)state;
   int64_t ms;
   char buf[40];
   assert_true (lab_gen_csv_parse_date ("2023-01-01T00:00:00Z", 20, &ms));
   assert_int_equal (ms, 1672531200000ll);
   assert_true (lab_gen_csv_parse_date ("2023-01-01", 10, &ms));
   assert_int_equal (ms, 1672531200000ll);
   assert_true (lab_gen_csv_parse_date ("2023-01-01 08:00:00+08:00", 25, &ms));
   assert_int_equal (ms, 1672531200000ll);
   assert_true (lab_gen_csv_parse_date ("2024-02-29t12:30:15.25z", 23, &ms));
   assert_true (lab_gen_csv_format_date (ms, buf, sizeof buf));
   assert_string_equal (buf, "2024-02-29T12:30:15.250Z");
   assert_true (lab_gen_csv_parse_date ("1969-12-31T23:59:59.999Z", 24, &ms));
   assert_int_equal (ms, -1);
   assert_true (lab_gen_csv_format_date (-1, buf, sizeof buf));
   assert_string_equal (buf, "1969-12-31T23:59:59.999Z");
   const char *bad[] = { "2023-02-29",
                         "2023-13-01",
                         "2023-01-01T24:00:00Z",
                         "2023-01-01T00:00:00",
                         "2023-1-01",
                         "2023-01-01T00:00:00+0800",
                         "2023-01-01T00:00Z",
                         "2023-01-01T00:00:00.Z",
                         "2023-01-01x" };
   for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      if (lab_gen_csv_parse_date (bad[i], strlen (bad[i]), &ms)) {
         fail_msg ("'%s' accepted as a date", bad[i]);
      }
   }
   /* every format round-trips through parse */
   for (int64_t t = -86400000ll * 400; t < 86400000ll * 365 * 60; t += 86400000ll * 37 + 12345) {
      int64_t back;
      assert_true (lab_gen_csv_format_date (t, buf, sizeof buf));
      assert_true (lab_gen_csv_parse_date (buf, strlen (buf), &back));
      assert_int_equal (back, t);
   }
}

/* export's formatting reads back to the same value and type, doubles bit for bit */
static void
test_format_roundtrip (void **state)
{
   (void)state;
   uint64_t x = 88172645463325252ull;
   for (int i = 0; i < 20000; i++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      double dv;
      if (i % 3 == 0) {
         dv = (double)(x % 1000000) / 100.0; /* prices */
      } else {
         memcpy (&dv, &x, sizeof dv);
         if (isnan (dv)) {
            continue;
         }
      }
      bson_t d = BSON_INITIALIZER;
      BSON_APPEND_DOUBLE (&d, "f", dv);
      bson_iter_t it;
      assert_true (bson_iter_init_find (&it, &d, "f"));
      lab_buf_t b;
      lab_buf_init (&b);
      char why[128];
      assert_true (lab_gen_csv_format_value (&it, LAB_CSV_DOUBLE, &b, why, sizeof why));
      bson_value_t v;
      char text[64];
      memcpy (text, b.data, b.len);
      text[b.len] = '\0';
      assert_int_equal (conv (LAB_CSV_DOUBLE, text, &v, NULL), BSON_TYPE_DOUBLE);
      assert_memory_equal (&v.value.v_double, &dv, sizeof dv);
      lab_buf_destroy (&b);
      bson_destroy (&d);
   }
   /* a type the column does not hold is refused */
   bson_t d = BSON_INITIALIZER;
   BSON_APPEND_INT64 (&d, "f", 5);
   bson_iter_t it;
   assert_true (bson_iter_init_find (&it, &d, "f"));
   lab_buf_t b;
   lab_buf_init (&b);
   char why[128];
   assert_false (lab_gen_csv_format_value (&it, LAB_CSV_INT32, &b, why, sizeof why));
   lab_buf_destroy (&b);
   bson_destroy (&d);
}

/* ---- reading ----------------------------------------------------------------------------------- */

typedef struct {
   int n;
   int64_t line[64];
   char *raw[64];
   size_t nf[64];
   char *field[64][8]; /* "<NULL>" for an empty unquoted field */
   const char *perr[64];
   int64_t err_line[64], err_col[64];
   bson_string_t *all; /* every field of every record, for whole-file comparisons */
} got_t;

static bool
collect (const lab_gen_csv_record_t *rec, void *ctx, bson_error_t *error)
{
   (void)error;
   got_t *g = ctx;
   if (g->all) {
      bson_string_append_printf (g->all, "%" PRId64 ":", rec->line);
      for (size_t i = 0; i < rec->nfields; i++) {
         bson_string_append_printf (g->all, "[%.*s]", (int)rec->fields[i].len,
                                    rec->fields[i].data ? rec->fields[i].data : "");
      }
      bson_string_append (g->all, "\n");
      g->n++;
      return true;
   }
   assert_true (g->n < 64);
   int k = g->n++;
   g->line[k] = rec->line;
   g->raw[k] = bson_strndup (rec->raw, rec->raw_len);
   g->nf[k] = rec->nfields;
   g->perr[k] = rec->parse_error;
   if (rec->parse_error) {
      lab_gen_csv_locate (rec, rec->error_off, &g->err_line[k], &g->err_col[k]);
   }
   for (size_t i = 0; i < rec->nfields && i < 8; i++) {
      g->field[k][i] = rec->fields[i].data ? bson_strndup (rec->fields[i].data, rec->fields[i].len)
                                           : bson_strdup ("<NULL>");
   }
   return true;
}

static void
got_free (got_t *g)
{
   for (int k = 0; k < g->n && k < 64 && !g->all; k++) {
      bson_free (g->raw[k]);
      for (size_t i = 0; i < g->nf[k] && i < 8; i++) {
         bson_free (g->field[k][i]);
      }
   }
   if (g->all) {
      bson_string_free (g->all, true);
   }
   memset (g, 0, sizeof *g);
}

/* write_file -- write bytes to tmp/name; returns the path (caller frees). */
static char *
write_file (const char *name, const void *data, size_t len)
{
   char *path = bson_strdup_printf ("%s/%s", tmp, name);
   FILE *f = fopen (path, "wb");
   assert_non_null (f);
   assert_int_equal (fwrite (data, 1, len, f), len);
   fclose (f);
   return path;
}

/* read_text -- read `text` through a file; returns the lab_gen_csv_read outcome. */
static bool
read_path (const char *path, got_t *g, bson_error_t *e)
{
   lab_gen_input_t *in = lab_gen_input_open (path, e);
   assert_non_null (in);
   bool ok = lab_gen_csv_read (in, 0, collect, g, NULL, e);
   lab_gen_input_close (in);
   return ok;
}

static bool
read_text (const char *text, size_t len, got_t *g, bson_error_t *e)
{
   char *path = write_file ("in.csv", text, len);
   bool ok = read_path (path, g, e);
   bson_free (path);
   return ok;
}

static void
test_quoting (void **state)
{
   (void)state;
   got_t g = { 0 };
   bson_error_t e;
   const char *t = "a,\"b,c\",\"say \"\"hi\"\"\",\"two\nlines\"\nx,,\"\",\"\"\"\"\nlast,row";
   assert_true (read_text (t, strlen (t), &g, &e));
   assert_int_equal (g.n, 3);
   assert_int_equal (g.nf[0], 4);
   assert_string_equal (g.field[0][0], "a");
   assert_string_equal (g.field[0][1], "b,c");
   assert_string_equal (g.field[0][2], "say \"hi\"");
   assert_string_equal (g.field[0][3], "two\nlines");
   assert_string_equal (g.raw[0], "a,\"b,c\",\"say \"\"hi\"\"\",\"two\nlines\"\n");
   /* the second record starts on line 3: the quoted newline counted */
   assert_int_equal (g.line[1], 3);
   assert_string_equal (g.field[1][1], "<NULL>"); /* empty unquoted */
   assert_string_equal (g.field[1][2], "");       /* "" */
   assert_string_equal (g.field[1][3], "\"");
   /* no final newline: still a record */
   assert_int_equal (g.line[2], 4);
   assert_string_equal (g.field[2][1], "row");
   assert_string_equal (g.raw[2], "last,row");
   got_free (&g);
}

static void
test_crlf_bom_blank (void **state)
{
   (void)state;
   got_t g = { 0 };
   bson_error_t e;
   const char *t = "\xEF\xBB\xBFid,name\r\n1,\"a\r\nb\"\r\n\r\n\n2,c\r\n3,d\r4,e\r\n";
   assert_true (read_text (t, strlen (t), &g, &e));
   assert_int_equal (g.n, 5);
   assert_string_equal (g.field[0][0], "id"); /* the BOM is not part of the first name */
   assert_string_equal (g.raw[0], "id,name\r\n");
   assert_string_equal (g.field[1][1], "a\r\nb");
   assert_int_equal (g.line[1], 2);
   assert_int_equal (g.line[2], 6); /* two blank lines skipped, counted */
   assert_string_equal (g.field[2][1], "c");
   assert_int_equal (g.line[3], 7);
   assert_string_equal (g.raw[3], "3,d\r"); /* a lone CR ends a line too */
   assert_int_equal (g.line[4], 8);
   assert_string_equal (g.field[4][1], "e");
   /* fields are not trimmed */
   got_free (&g);
   assert_true (read_text (" a , b \n", 8, &g, &e));
   assert_string_equal (g.field[0][0], " a ");
   assert_string_equal (g.field[0][1], " b ");
   got_free (&g);
}

static void
test_malformed_positions (void **state)
{
   (void)state;
   got_t g = { 0 };
   bson_error_t e;
   const char *t = "ok,1\nab\"c,d\n\"ab\"c,d\nfine,2\n\"x\ny\" z,3\n\"open,4\n";
   assert_true (read_text (t, strlen (t), &g, &e));
   assert_int_equal (g.n, 6);
   assert_null (g.perr[0]);
   assert_non_null (g.perr[1]);
   assert_non_null (strstr (g.perr[1], "quote inside an unquoted field"));
   assert_int_equal (g.err_line[1], 2);
   assert_int_equal (g.err_col[1], 3);
   assert_non_null (strstr (g.perr[2], "after a closing quote"));
   assert_int_equal (g.err_col[2], 5);
   assert_null (g.perr[3]); /* the reader resynchronises */
   assert_string_equal (g.field[3][0], "fine");
   /* the bad spot is on the second line of a multi-line record */
   assert_int_equal (g.err_line[4], 6);
   assert_int_equal (g.err_col[4], 3);
   assert_non_null (strstr (g.perr[4], "after a closing quote"));
   /* the input ends inside quotes (after a newline): the opening quote is the spot */
   assert_non_null (strstr (g.perr[5], "unterminated quoted field"));
   assert_int_equal (g.err_line[5], 7);
   assert_int_equal (g.err_col[5], 1);
   got_free (&g);

   const char *u = "a,b\n\"never closed,1\n2,3\n";
   assert_true (read_text (u, strlen (u), &g, &e));
   assert_int_equal (g.n, 2);
   assert_non_null (strstr (g.perr[1], "unterminated quoted field"));
   assert_int_equal (g.err_line[1], 2);
   assert_int_equal (g.err_col[1], 1);
   got_free (&g);
}

/* field offsets map through quotes and doubled quotes to the right line and column */
static bool
locate_cb (const lab_gen_csv_record_t *rec, void *ctx, bson_error_t *error)
{
   (void)error;
   int64_t *out = ctx;
   if (rec->number != 2) {
      return true;
   }
   size_t bad;
   assert_false (lab_gen_utf8_check (rec->fields[1].data, rec->fields[1].len, &bad));
   lab_gen_csv_locate (rec, lab_gen_csv_field_raw_offset (rec, 1, bad), &out[0], &out[1]);
   lab_gen_csv_locate (rec, lab_gen_csv_field_raw_offset (rec, 2, 0), &out[2], &out[3]);
   return true;
}

static void
test_locate (void **state)
{
   (void)state;
   const char *t = "h1,h2,h3\n1,\"a\"\"b\nxy\xFFz\",tail\n";
   char *path = write_file ("loc.csv", t, strlen (t));
   bson_error_t e;
   int64_t out[4] = { 0 };
   lab_gen_input_t *in = lab_gen_input_open (path, &e);
   assert_non_null (in);
   assert_true (lab_gen_csv_read (in, 0, locate_cb, out, NULL, &e));
   lab_gen_input_close (in);
   assert_int_equal (out[0], 3); /* line 3 */
   assert_int_equal (out[1], 3); /* x y \xFF: column 3 */
   assert_int_equal (out[2], 3);
   assert_int_equal (out[3], 7); /* "tail" starts after `xy?z",` */
   bson_free (path);
}

/* make_big -- a CSV of n records, with quoted newlines, CRLF and commas sprinkled, > 1 MiB */
static bson_string_t *
make_big (int n)
{
   bson_string_t *s = bson_string_new ("id.int32(),text.string(),price.double()\n");
   for (int i = 0; i < n; i++) {
      switch (i % 4) {
      case 0:
         bson_string_append_printf (s, "%d,plain text number %d,%d.25\n", i, i, i);
         break;
      case 1:
         bson_string_append_printf (s, "%d,\"quoted, with comma %d\",%d.5\r\n", i, i, i);
         break;
      case 2:
         bson_string_append_printf (s, "%d,\"multi\nline \"\"%d\"\"\",%d\n", i, i, i);
         break;
      default:
         bson_string_append_printf (s, "%d,中文字段%d 住院费用明细,%d.75\r", i, i, i);
         break;
      }
   }
   return s;
}

/* zstd_file -- compress `data` into tmp/name (with a checksum) and return its path and bytes. */
static char *
zstd_file (const char *name, const char *data, size_t len, uint8_t **bytes, size_t *blen)
{
   ZSTD_CCtx *c = ZSTD_createCCtx ();
   ZSTD_CCtx_setParameter (c, ZSTD_c_checksumFlag, 1);
   size_t cap = ZSTD_compressBound (len);
   uint8_t *out = malloc (cap);
   size_t n = ZSTD_compress2 (c, out, cap, data, len);
   assert_false (ZSTD_isError (n));
   ZSTD_freeCCtx (c);
   char *path = write_file (name, out, n);
   if (bytes) {
      *bytes = out;
      *blen = n;
   } else {
      free (out);
   }
   return path;
}

/* plain and zstd give identical records; also across the reader's 1 MiB chunk boundaries */
static void
test_zstd_equals_plain (void **state)
{
   (void)state;
   bson_string_t *s = make_big (60000);
   assert_true (s->len > 2u * 1048576); /* several of the reader's 1 MiB chunks */
   char *plain = write_file ("big.csv", s->str, s->len);
   char *zst = zstd_file ("big.dat", s->str, s->len, NULL, NULL); /* the name does not say zstd */
   got_t a = { 0 }, b = { 0 };
   a.all = bson_string_new (NULL);
   b.all = bson_string_new (NULL);
   bson_error_t e;
   assert_true (read_path (plain, &a, &e));
   assert_true (read_path (zst, &b, &e));
   assert_int_equal (a.n, 60001);
   assert_int_equal (b.n, 60001);
   assert_int_equal (a.all->len, b.all->len);
   assert_memory_equal (a.all->str, b.all->str, a.all->len);
   /* spot checks: the record after a multi-line one starts on the right line */
   assert_non_null (strstr (a.all->str, "\n6:[3][中文字段3 住院费用明细][3.75]\n"));
   assert_non_null (strstr (a.all->str, "\n4:[2][multi\nline \"2\"][2]\n"));
   lab_gen_input_t *in = lab_gen_input_open (zst, &e);
   assert_true (lab_gen_input_is_zstd (in));
   lab_gen_input_close (in);
   got_free (&a);
   got_free (&b);
   bson_string_free (s, true);
   bson_free (plain);
   bson_free (zst);
}

/* a truncated or corrupt zstd stream is refused with a clear error, never read as shorter data */
static void
test_zstd_truncated_corrupt (void **state)
{
   (void)state;
   bson_string_t *s = make_big (20000);
   uint8_t *z;
   size_t zlen;
   bson_free (zstd_file ("whole.zst", s->str, s->len, &z, &zlen));
   bson_error_t e;
   got_t g = { 0 };
   g.all = bson_string_new (NULL);

   char *cut = write_file ("cut.csv.zst", z, zlen / 2);
   assert_false (read_path (cut, &g, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_ZSTD, LAB_ZSTD_ERR_TRUNCATED));
   assert_non_null (strstr (e.message, "truncated"));
   assert_non_null (strstr (e.message, "cut.csv.zst"));
   got_free (&g);

   /* the last bytes (checksum) missing */
   g.all = bson_string_new (NULL);
   char *cut4 = write_file ("cut4.csv.zst", z, zlen - 4);
   assert_false (read_path (cut4, &g, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_ZSTD, LAB_ZSTD_ERR_TRUNCATED));
   got_free (&g);

   g.all = bson_string_new (NULL);
   uint8_t *bad = malloc (zlen);
   memcpy (bad, z, zlen);
   for (size_t i = zlen / 3; i < zlen / 3 + 64; i++) {
      bad[i] ^= 0x5A;
   }
   char *corrupt = write_file ("corrupt.csv.zst", bad, zlen);
   assert_false (read_path (corrupt, &g, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_ZSTD, LAB_ZSTD_ERR_CORRUPT));
   assert_non_null (strstr (e.message, "corrupt"));
   got_free (&g);

   /* trailing garbage after a valid frame */
   g.all = bson_string_new (NULL);
   uint8_t *tail = malloc (zlen + 10);
   memcpy (tail, z, zlen);
   memcpy (tail + zlen, "garbage!!!", 10);
   char *trailing = write_file ("trailing.csv.zst", tail, zlen + 10);
   assert_false (read_path (trailing, &g, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_ZSTD, LAB_ZSTD_ERR_CORRUPT));
   got_free (&g);

   /* two concatenated frames are one stream (as zstd -d reads them) */
   g.all = bson_string_new (NULL);
   uint8_t *two = malloc (2 * zlen);
   memcpy (two, z, zlen);
   memcpy (two + zlen, z, zlen);
   char *twop = write_file ("two.csv.zst", two, 2 * zlen);
   assert_true (read_path (twop, &g, &e));
   assert_int_equal (g.n, 2 * 20001);
   got_free (&g);

   free (z);
   free (bad);
   free (tail);
   free (two);
   bson_free (cut);
   bson_free (cut4);
   bson_free (corrupt);
   bson_free (trailing);
   bson_free (twop);
   bson_string_free (s, true);
}

static void
test_input_errors (void **state)
{
   (void)state;
   bson_error_t e;
   char *missing = bson_strdup_printf ("%s/nope.csv", tmp);
   assert_null (lab_gen_input_open (missing, &e));
   assert_non_null (strstr (e.message, "nope.csv"));
   assert_true (lab_error_is (&e, LAB_ERROR_IO, ENOENT));
   assert_null (lab_gen_input_open (tmp, &e));
   assert_non_null (strstr (e.message, "directory"));
   assert_true (lab_error_is (&e, LAB_ERROR_IO, EISDIR));
   bson_free (missing);
   /* an empty file is an empty plain input */
   got_t g = { 0 };
   assert_true (read_text ("", 0, &g, &e));
   assert_int_equal (g.n, 0);
}

/* the output side: atomic file, zstd that reads back, nothing left on abort */
static void
test_output (void **state)
{
   (void)state;
   bson_error_t e;
   char *path = bson_strdup_printf ("%s/out.csv.zst", tmp);
   lab_gen_output_t *o = lab_gen_output_open (path, 3, &e);
   assert_non_null (o);
   for (int i = 0; i < 10000; i++) {
      char line[64];
      int n = bson_snprintf (line, sizeof line, "%d,row %d\n", i, i);
      assert_true (lab_gen_output_write (o, line, (size_t)n, &e));
   }
   FILE *f = fopen (path, "rb");
   assert_null (f); /* not there before commit */
   assert_true (lab_gen_output_commit (o, &e));
   got_t g = { 0 };
   g.all = bson_string_new (NULL);
   assert_true (read_path (path, &g, &e));
   assert_int_equal (g.n, 10000);
   got_free (&g);
   char *p2 = bson_strdup_printf ("%s/aborted.csv", tmp);
   o = lab_gen_output_open (p2, 0, &e);
   assert_true (lab_gen_output_write (o, "x\n", 2, &e));
   lab_gen_output_abort (o);
   char *cmd = bson_strdup_printf ("ls %s | grep -c aborted", tmp);
   char *out = NULL;
   lab_test_run (cmd, &out, NULL);
   assert_non_null (out);
   assert_int_equal (atoi (out), 0);
   bson_free (out);
   bson_free (cmd);
   bson_free (p2);
   bson_free (path);
}

/* ---- import and export failures: the code says which ------------------------------------------- */

/* write_text -- write_file of a string. */
static char *
write_text (const char *name, const char *text)
{
   return write_file (name, text, strlen (text));
}

/* import_opts -- a parse-only import (no store) of `files` with --headerline. */
static lab_gen_import_opts_t
import_opts (const char *const *files, size_t nfiles)
{
   lab_gen_import_opts_t o = { 0 };
   o.coll = "t";
   o.headerline = true;
   o.parse_only = true;
   o.grace = LAB_GRACE_STOP;
   o.progress = LAB_PROGRESS_NEVER;
   o.files = files;
   o.nfiles = nfiles;
   return o;
}

/* import_fails -- the import of `o` fails with this domain and code. */
static void
import_fails (const lab_gen_import_opts_t *o, uint32_t domain, uint32_t code, const char *needle)
{
   lab_gen_import_stats_t st = { 0 };
   bson_error_t e;

   memset (&e, 0, sizeof e);
   assert_false (lab_gen_import (NULL, o, &st, &e));
   if (!lab_error_is (&e, domain, code) || !strstr (e.message, needle)) {
      fail_msg ("want domain %u code %u with '%s', got domain %u code %u: %s", domain, code, needle, e.domain,
                e.code, e.message);
   }
}

static void
test_import_errors (void **state)
{
   (void)state;
   bson_error_t e;
   lab_gen_import_stats_t st = { 0 };
   char *good = write_text ("good.csv", "id,name\n1,a\n");
   char *wider = write_text ("wider.csv", "id,name,x\n1,a,2\n");
   char *empty = write_text ("empty.csv", "");
   char *typed = write_text ("typed.csv", "id.int32(),name.string()\n1,a\nx,b\n");
   char *dollar = write_text ("dollar.csv", "id,$name\n1,a\n");
   char *quote = write_text ("quote.csv", "i\"d,name\n1,a\n");
   const char *f_good[] = { good }, *f_two[] = { good, wider }, *f_empty[] = { empty },
              *f_typed[] = { typed }, *f_dollar[] = { dollar }, *f_quote[] = { quote };
   lab_gen_import_opts_t o;

   o = import_opts (f_good, 1);
   assert_true (lab_gen_import (NULL, &o, &st, &e));
   assert_int_equal (st.rows_read, 1);

   /* the data */
   o = import_opts (f_two, 2);
   import_fails (&o, LAB_ERROR_CSV, LAB_CSV_ERR_HEADER_MISMATCH, "header differs");
   o = import_opts (f_empty, 1);
   import_fails (&o, LAB_ERROR_CSV, LAB_CSV_ERR_NO_HEADER, "no header line");
   o = import_opts (f_typed, 1);
   o.typed = true;
   import_fails (&o, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_ROW, "typed.csv:3:1");
   o = import_opts (f_dollar, 1);
   import_fails (&o, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER, "'$'");
   o = import_opts (f_quote, 1);
   import_fails (&o, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER, "header line");
   o = import_opts (f_good, 1);
   o.key = "zz";
   o.key_given = true;
   import_fails (&o, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                 "good.csv: the header has no field 'zz' (--key)");
   /* the default key too (a CSV without it imported, then the fold failed on it) */
   o.key = "bill_id";
   o.key_given = false;
   import_fails (&o, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                 "the header has no field 'bill_id' (the master key, --key's default)");
   o.no_index = true; /* no key index asked for: the key does not matter */
   assert_true (lab_gen_import (NULL, &o, &st, &e));

   /* the options */
   o = import_opts (f_good, 1);
   o.fields = "id,name";
   import_fails (&o, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT, "exclude each other");
   o.headerline = false;
   o.key = "zz";
   o.key_given = true;
   import_fails (&o, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT, "--fields has no field 'zz' (--key)");
   o.key = NULL;
   o.fields = "id,$name";
   import_fails (&o, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "'$'");
   o.fields = NULL;
   import_fails (&o, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING, "--headerline or --fields");
   o = import_opts (f_good, 1);
   o.drop = o.append = true;
   import_fails (&o, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT, "--drop and --append");
   o = import_opts (f_good, 0);
   import_fails (&o, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING, "no input");
   o = import_opts (f_good, 1);
   o.reject_path = "-";
   import_fails (&o, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--reject needs a file name");

   /* an import runs once */
   o = import_opts (f_good, 1);
   lab_gen_import_t *imp = lab_gen_import_new (&o, &e);
   assert_non_null (imp);
   assert_true (lab_gen_import_run (imp, NULL, &st, &e));
   assert_false (lab_gen_import_run (imp, NULL, &st, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISUSE));
   lab_gen_import_destroy (imp);

   bson_free (good);
   bson_free (wider);
   bson_free (empty);
   bson_free (typed);
   bson_free (dollar);
   bson_free (quote);
}

/* a record longer than the reader's limit (an opening quote never closed); the limit counts from the
 * reader's 1 MiB buffer up */
static void
test_record_too_long (void **state)
{
   (void)state;
   got_t g = { 0 };
   bson_error_t e;
   size_t len = 3u << 19; /* 1.5 MiB */
   char *text = bson_malloc (len);

   memset (text, 'x', len);
   text[0] = '"';
   char *path = write_file ("long.csv", text, len);
   lab_gen_input_t *in = lab_gen_input_open (path, &e);
   assert_non_null (in);
   assert_false (lab_gen_csv_read (in, 1u << 20, collect, &g, NULL, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_RECORD));
   assert_non_null (strstr (e.message, "longer than 1048576 bytes"));
   lab_gen_input_close (in);
   got_free (&g);
   bson_free (path);
   bson_free (text);
}

/* export_fails -- export a collection of `n` documents with `sample`; it fails with this CSV code. */
static void
export_fails (lab_store_t *store, const char *coll, bson_t **docs, size_t n, int64_t sample, uint32_t code,
              const char *needle)
{
   bson_error_t e;
   lab_store_insert_result_t r;
   lab_gen_export_stats_t st = { 0 };
   lab_store_session_t *s = lab_store_session_open (store, &e);
   char *out = bson_strdup_printf ("%s/%s.csv", tmp, coll);
   lab_gen_export_opts_t o = { .coll = coll, .out = out, .sample = sample, .progress = LAB_PROGRESS_NEVER };

   assert_non_null (s);
   if (!lab_store_create (s, coll, &e) ||
       !lab_store_insert_many (s, coll, (const bson_t *const *)docs, n, &r, &e)) {
      fail_msg ("%s: %s", coll, e.message);
   }
   assert_int_equal (r.nerrors, 0);
   lab_store_insert_result_cleanup (&r);
   lab_store_session_close (s);
   for (size_t i = 0; i < n; i++) {
      bson_destroy (docs[i]);
   }
   memset (&e, 0, sizeof e);
   assert_false (lab_gen_export (store, &o, &st, &e));
   if (!lab_error_is (&e, LAB_ERROR_CSV, code) || !strstr (e.message, needle)) {
      fail_msg ("%s: want CSV code %u with '%s', got domain %u code %u: %s", coll, code, needle, e.domain,
                e.code, e.message);
   }
   assert_int_equal (access (out, F_OK), -1); /* never left partial */
   bson_free (out);
}

static void
test_export_errors (void **state)
{
   (void)state;
   bson_error_t e;
   char *uri = bson_strdup_printf ("wiredtiger:%s/wt", tmp);
   lab_store_opts_t so = { .create = true, .cache_size_bytes = 64 * 1024 * 1024 };
   lab_store_t *store = lab_store_open (uri, &so, &e);
   bson_t *d[2];

   if (!store) {
      fail_msg ("open %s: %s", uri, e.message);
   }
   d[0] = BCON_NEW ("_id", BCON_INT32 (1), "a", BCON_INT32 (1));
   d[1] = BCON_NEW ("_id", BCON_INT32 (2), "a", "[", BCON_INT32 (1), "]");
   export_fails (store, "arr", d, 2, 1000, LAB_CSV_ERR_UNSUPPORTED_TYPE, "CSV cannot carry");
   d[0] = BCON_NEW ("_id", BCON_INT32 (1), "a", BCON_INT32 (1));
   d[1] = BCON_NEW ("_id", BCON_INT32 (2), "a", BCON_UTF8 ("x"));
   export_fails (store, "chg", d, 2, 1000, LAB_CSV_ERR_TYPE_CHANGED, "in earlier documents");
   d[0] = BCON_NEW ("_id", BCON_INT32 (1), "a", BCON_INT32 (1));
   d[1] = BCON_NEW ("_id", BCON_INT32 (2), "a", BCON_UTF8 ("x"));
   export_fails (store, "chg1", d, 2, 1, LAB_CSV_ERR_TYPE_CHANGED, "in the header");
   d[0] = BCON_NEW ("_id", BCON_INT32 (1), "a", BCON_INT32 (1));
   d[1] = BCON_NEW ("_id", BCON_INT32 (2), "b", BCON_INT32 (1));
   export_fails (store, "unk", d, 2, 1, LAB_CSV_ERR_UNKNOWN_FIELD, "raise --sample");
   d[0] = BCON_NEW ("_id", BCON_INT32 (1), "d", BCON_DATE_TIME (INT64_C (400000000000000)));
   export_fails (store, "date", d, 1, 1000, LAB_CSV_ERR_BAD_VALUE, "outside years");
   lab_store_close (store);
   bson_free (uri);
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_header_typed),
      cmocka_unit_test (test_convert),
      cmocka_unit_test (test_invalid_utf8),
      cmocka_unit_test (test_dates),
      cmocka_unit_test (test_format_roundtrip),
      cmocka_unit_test (test_quoting),
      cmocka_unit_test (test_crlf_bom_blank),
      cmocka_unit_test (test_malformed_positions),
      cmocka_unit_test (test_locate),
      cmocka_unit_test (test_zstd_equals_plain),
      cmocka_unit_test (test_zstd_truncated_corrupt),
      cmocka_unit_test (test_input_errors),
      cmocka_unit_test (test_output),
      cmocka_unit_test (test_import_errors),
      cmocka_unit_test (test_record_too_long),
      cmocka_unit_test (test_export_errors),
   };
   return lab_test_run_group ("csv", tests, setup, teardown);
}
