/*
 * test_tables_agree.c -- one results file, two renderers, one answer: scancmp's terminal table
 * (lab_scan_table_render) and layout-report's Markdown comparison table (lab_cmp_render_md) must show
 * the same rows in the same order with the same labels, values, ratios and winners. Both rendered texts
 * are parsed back into rows and checked against each other and against the structured rows of the
 * results model (lab_results_nrow) they are built from, for two-layout files and a three-layout one (a
 * value column per layout, a ratio per layout other than the reference). A second test proves the check
 * can fail: a changed label, value, winner or a dropped row is caught, with two and with three layouts.
 * A third checks that both sweep tables name each point's regime by the same rule.
 */
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "core/results.h"
#include "scan/scan.h"
#include "tests/testutil.h"

#define MAX_ROWS 64
#define MAX_CELLS (2 * LAB_RESULTS_MAX_LAYOUTS + 1)

typedef struct {
   char *cell[MAX_CELLS]; /* label, a value per layout, a ratio per non-reference layout, better */
} row_t;

typedef struct {
   row_t r[MAX_ROWS];
   int n;
} rows_t;

/* rows_free -- free the parsed cells. */
static void
rows_free (rows_t *rows)
{
   int i, c;

   for (i = 0; i < rows->n; i++) {
      for (c = 0; c < MAX_CELLS; c++) {
         bson_free (rows->r[i].cell[c]);
      }
   }
   rows->n = 0;
}

/* trimmed -- a copy of s[0..len) without surrounding spaces. */
static char *
trimmed (const char *s, size_t len)
{
   while (len > 0 && *s == ' ') {
      s++;
      len--;
   }
   while (len > 0 && s[len - 1] == ' ') {
      len--;
   }
   return bson_strndup (s, len);
}

/* md_unescape -- drop the backslashes lab_cmp_md_escape put before special characters (in place). */
static void
md_unescape (char *s)
{
   char *w = s;

   for (; *s; s++) {
      if (*s == '\\' && s[1]) {
         s++;
      }
      *w++ = *s;
   }
   *w = '\0';
}

/* parse_md -- the rows of the "## Comparison" table: cells between unescaped '|' (ncells of them). */
static void
parse_md (const char *md, int ncells, rows_t *rows)
{
   const char *p = strstr (md, "## Comparison\n\n");

   rows->n = 0;
   assert_non_null (p);
   p = strchr (p, '\n') + 2; /* the header line */
   p = strchr (p, '\n') + 1; /* the |---| line */
   p = strchr (p, '\n') + 1; /* the first row */
   while (*p == '|') {
      const char *end = strchr (p, '\n'), *start = p + 1, *q;
      int c = 0;
      row_t *r = &rows->r[rows->n];

      assert_true (rows->n < MAX_ROWS);
      memset (r, 0, sizeof *r);
      for (q = start; q < end; q++) {
         if (*q == '\\') {
            q++;
            continue;
         }
         if (*q == '|') {
            assert_true (c < ncells);
            r->cell[c++] = trimmed (start, (size_t)(q - start));
            start = q + 1;
         }
      }
      assert_int_equal (c, ncells);
      md_unescape (r->cell[0]);
      rows->n++;
      p = end + 1;
   }
}

/* parse_text -- the rows of scancmp's table: after the title, header and rule lines, up to the legend;
 * cells are separated by two spaces or more (ncells of them; an empty "better" cell is absent). */
static void
parse_text (const char *txt, int ncells, rows_t *rows)
{
   const char *p = txt;
   int i;

   rows->n = 0;
   for (i = 0; i < 3; i++) {
      p = strchr (p, '\n');
      assert_non_null (p);
      p++;
   }
   while (*p && strncmp (p, "ratio = ", 8) != 0) {
      const char *end = strchr (p, '\n'), *start = p, *q;
      int c = 0;
      row_t *r = &rows->r[rows->n];

      assert_non_null (end);
      assert_true (rows->n < MAX_ROWS);
      memset (r, 0, sizeof *r);
      for (q = p; q <= end; q++) {
         bool sep = q == end || (q[0] == ' ' && q[1] == ' ');
         if (!sep) {
            continue;
         }
         if (q > start) {
            assert_true (c < ncells);
            r->cell[c++] = trimmed (start, (size_t)(q - start));
         }
         while (q < end && *q == ' ') {
            q++;
         }
         start = q;
      }
      assert_true (c == ncells - 1 || c == ncells);
      if (c == ncells - 1) {
         r->cell[c] = bson_strdup ("");
      }
      rows->n++;
      p = end + 1;
   }
}

/* median_part -- whether `ranged` is `plain` or `plain (min–max)`. */
static bool
median_part (const char *ranged, const char *plain)
{
   size_t n = strlen (plain);

   return strncmp (ranged, plain, n) == 0 && (ranged[n] == '\0' || strncmp (ranged + n, " (", 2) == 0);
}

/* ncells_of -- the cells of a comparison row of `results`: label, values, ratios, better. */
static int
ncells_of (const bson_t *results)
{
   lab_results_layouts_t ls;

   lab_results_layouts (results, &ls);
   return 2 * (int)ls.n + 1;
}

/* disagree -- count the differences between the Markdown table, the text table and the model's rows of
 * `results`; the first is described in `why`. */
static int
disagree (const bson_t *results, const char *md, const char *txt, char *why, size_t why_len)
{
   lab_results_layouts_t ls;
   rows_t m, t;
   const lab_metric_t *cat;
   size_t n, i, l;
   int k = 0, bad = 0, c, nc;

   why[0] = '\0';
   lab_results_layouts (results, &ls);
   nc = ncells_of (results);
   parse_md (md, nc, &m);
   parse_text (txt, nc, &t);
   cat = lab_results_metrics (&n);
   for (i = 0; i < n; i++) {
      lab_results_nrow_t row;
      lab_results_ncells_t ranged, plain;
      const char *want_md[MAX_CELLS], *want_txt[MAX_CELLS];
      int nv = 1;

      if (!lab_results_nrow (results, &ls, &cat[i], &row)) {
         continue;
      }
      if (k >= m.n || k >= t.n) {
         if (!bad++) {
            bson_snprintf (why, why_len, "row %d (%s) missing: %d Markdown rows, %d text rows", k,
                           cat[i].label, m.n, t.n);
         }
         k++;
         continue;
      }
      lab_results_nrow_cells (&row, &ls, true, &ranged);
      lab_results_nrow_cells (&row, &ls, false, &plain);
      want_md[0] = want_txt[0] = cat[i].label;
      for (l = 0; l < ls.n; l++, nv++) {
         want_md[nv] = ranged.value[l];
         want_txt[nv] = plain.value[l];
      }
      for (l = 0; l < ls.n; l++) {
         if (l != ls.reference) {
            want_md[nv] = want_txt[nv] = plain.ratio[l];
            nv++;
         }
      }
      want_md[nv] = want_txt[nv] = plain.better;
      assert_int_equal (nv + 1, nc);
      for (c = 0; c < nc; c++) {
         const char *a = m.r[k].cell[c], *b = t.r[k].cell[c];
         bool value = c >= 1 && c <= (int)ls.n;
         bool same = value ? median_part (a, b) : strcmp (a, b) == 0;
         if (!same || strcmp (a, want_md[c]) != 0 || strcmp (b, want_txt[c]) != 0) {
            if (!bad++) {
               bson_snprintf (why, why_len,
                              "row %d (%s), cell %d: Markdown '%s', text '%s', model '%s' / '%s'", k,
                              cat[i].label, c, a, b, want_md[c], want_txt[c]);
            }
         }
      }
      lab_results_ncells_cleanup (&ranged);
      lab_results_ncells_cleanup (&plain);
      k++;
   }
   if (m.n != k || t.n != k) {
      if (!bad++) {
         bson_snprintf (why, why_len, "%d rows in the model, %d in Markdown, %d in the text", k, m.n, t.n);
      }
   }
   rows_free (&m);
   rows_free (&t);
   return bad;
}

/* render_both -- load `path` and render both tables (caller bson_free()s both). */
static void
render_both (const char *path, lab_cmp_results_t *r, char **md, char **txt)
{
   bson_error_t error;
   lab_cmp_render_opts_t o = { 0 };

   if (!lab_cmp_results_load_file (path, r, &error)) {
      fail_msg ("%s", error.message);
   }
   o.charts_note = "test";
   *md = lab_cmp_render_md (r, &o);
   *txt = lab_scan_table_render (&r->doc);
}

/* data_path -- a file of the source tree ($LAB_SOURCE_DIR, else the build's source dir). */
static char *
data_path (const char *rel)
{
   const char *src = getenv ("LAB_SOURCE_DIR");

   return bson_strdup_printf ("%s/%s", src ? src : LAB_TEST_SOURCE_DIR, rel);
}

static void
test_same_rows_in_both (void **state)
{
   static const char *const files[] = {
      "tests/compare/data/run.json",
      "tests/compare/data/baseline.json",
      "tests/compare/data/minimal.json",
      "tests/compare/data/partial.json", /* keys that matched nothing, rows that differ: a note under it */
      "tests/compare/data/sweep.json",   /* a sweep: the tables show its reference point */
      "tests/scan/data/example-run.json",
      "tests/compare/data/run3.json",           /* three layouts: a column each, two ratios */
      "tests/compare/data/buffered-sweep.json", /* read without --direct-io */
      "tests/compare/data/buffered-run.json",
      "tests/compare/data/run-cpu.json", /* the CPU rows measured */
   };
   size_t f;

   (void)state;
   for (f = 0; f < sizeof files / sizeof files[0]; f++) {
      char *path = data_path (files[f]), *md, *txt, why[512];
      lab_cmp_results_t r = { 0 };
      rows_t rows;
      int bad;

      render_both (path, &r, &md, &txt);
      bad = disagree (&r.doc, md, txt, why, sizeof why);
      if (bad) {
         fail_msg ("%s: %d difference(s); first: %s\n--- text table:\n%s", files[f], bad, why, txt);
      }
      parse_text (txt, ncells_of (&r.doc), &rows);
      assert_true (rows.n >= 4); /* a real table was compared, not two empty ones */
      rows_free (&rows);
      bson_free (md);
      bson_free (txt);
      bson_free (path);
      lab_cmp_results_cleanup (&r);
   }
}

/* replaced -- `s` with the first `from` replaced by `to` (asserts it is there). Caller bson_free()s. */
static char *
replaced (const char *s, const char *from, const char *to)
{
   const char *p = strstr (s, from);

   assert_non_null (p);
   return bson_strdup_printf ("%.*s%s%s", (int)(p - s), s, to, p + strlen (from));
}

/* expect_caught -- the check must find a difference between md and txt. */
static void
expect_caught (const bson_t *doc, char *md, char *txt, const char *change)
{
   char why[512];

   if (disagree (doc, md, txt, why, sizeof why) == 0) {
      fail_msg ("a changed table went unnoticed: %s", change);
   }
   bson_free (md);
   bson_free (txt);
}

static void
test_catches_differences (void **state)
{
   char *path = data_path ("tests/compare/data/run.json"), *md, *txt, why[512];
   lab_cmp_results_t r = { 0 };
   const char *line;

   (void)state;
   render_both (path, &r, &md, &txt);
   assert_int_equal (disagree (&r.doc, md, txt, why, sizeof why), 0);
   /* the old scancmp label */
   expect_caught (&r.doc, bson_strdup (md), replaced (txt, "parallel load time", "load time (s)"), "label");
   expect_caught (&r.doc, replaced (md, "| parallel load time |", "| load time |"), bson_strdup (txt),
                  "Markdown label");
   /* a value, a ratio, a winner */
   expect_caught (&r.doc, bson_strdup (md), replaced (txt, "93.2 s", "93.3 s"), "value");
   expect_caught (&r.doc, replaced (md, "| 45% [39–52%] |", "| 46% [39–52%] |"), bson_strdup (txt), "ratio");
   expect_caught (&r.doc, bson_strdup (md), replaced (txt, "folded 18.4x", "folded 18.5x"), "factor");
   expect_caught (&r.doc, replaced (md, "| 12% [9.7–15%] |  |", "| 12% [9.7–15%] | folded 8.15x |"),
                  bson_strdup (txt), "a winner on a rate");
   /* a row dropped from the text table */
   line = strstr (txt, "index size");
   assert_non_null (line);
   expect_caught (&r.doc, bson_strdup (md),
                  bson_strdup_printf ("%.*s%s", (int)(line - txt), txt, strchr (line, '\n') + 1),
                  "dropped row");
   bson_free (md);
   bson_free (txt);
   bson_free (path);
   lab_cmp_results_cleanup (&r);
}

static void
test_catches_differences_three (void **state)
{
   char *path = data_path ("tests/compare/data/run3.json"), *md, *txt, why[512];
   lab_cmp_results_t r = { 0 };

   (void)state;
   render_both (path, &r, &md, &txt);
   assert_int_equal (disagree (&r.doc, md, txt, why, sizeof why), 0);
   /* the third layout's value, its ratio, a tie among some of the layouts */
   expect_caught (&r.doc, bson_strdup (md), replaced (txt, "50.0 s", "50.1 s"), "third value");
   expect_caught (&r.doc, replaced (md, "| 45% [39–52%] | 54% [47–63%] |", "| 45% [39–52%] | 55% [47–63%] |"),
                  bson_strdup (txt), "third ratio");
   expect_caught (&r.doc, bson_strdup (md), replaced (txt, "folded = buckets", "folded"), "tie");
   /* columns swapped in one renderer */
   expect_caught (&r.doc,
                  replaced (md, "| 41.3 s (40.2–43.0) | 50.0 s (48.6–52.0) |",
                            "| 50.0 s (48.6–52.0) | 41.3 s (40.2–43.0) |"),
                  bson_strdup (txt), "swapped columns");
   bson_free (md);
   bson_free (txt);
   bson_free (path);
   lab_cmp_results_cleanup (&r);
}

/* The regime of every sweep point, in scancmp's sweep table and in layout-report's, from one rule
 * (lab_results_point_regime): a sweep read without --direct-io has a point per regime, and scancmp's
 * text under its table says both read amplifications of the point the page cache held. */
static void
test_sweep_regimes_in_both (void **state)
{
   static const char *const files[] = {
      "tests/compare/data/buffered-sweep.json", /* rereads, fits in memory, fits in cache */
      "tests/compare/data/sweep.json",          /* --direct-io: rereads, rereads, fits in cache */
   };
   size_t f, i;

   (void)state;
   for (f = 0; f < sizeof files / sizeof files[0]; f++) {
      char *path = data_path (files[f]), *md, *txt;
      lab_cmp_results_t r = { 0 };
      lab_cmp_render_opts_t o = { 0 };
      bson_error_t error;
      size_t n, memory = 0;
      bool buffered = f == 0;

      if (!lab_cmp_results_load_file (path, &r, &error)) {
         fail_msg ("%s", error.message);
      }
      o.charts_note = "test";
      md = lab_cmp_render_md (&r, &o);
      txt = lab_scan_sweep_table_render (&r.doc);
      assert_non_null (txt);
      n = lab_results_sweep_n (&r.doc);
      assert_int_equal (n, 3);
      for (i = 0; i < n; i++) {
         lab_sweep_point_t p;
         char *row_txt, *row_md, *cache = NULL;

         assert_true (lab_results_sweep_point (&r.doc, i, &p));
         cache = lab_results_format_binary (p.cache_size_bytes);
         /* scancmp: "  1024.0 MiB     1.63  fits in memory  ..."; the column is as wide as its longest */
         row_txt = bson_strdup_printf ("%.1f MiB  %7.2f  %-*s  ", p.cache_size_bytes / 1048576.0,
                                       p.cache_ratio, buffered ? 14 : 13, lab_results_point_regime (&p));
         row_md =
            bson_strdup_printf ("| %s | %.2f | %s |", cache, p.cache_ratio, lab_results_point_regime (&p));
         if (!strstr (txt, row_txt) || !strstr (md, row_md)) {
            fail_msg ("%s point %zu: '%s' / '%s' missing\n%s", files[f], i, row_txt, row_md, txt);
         }
         memory += strcmp (lab_results_point_regime (&p), LAB_RESULTS_REGIME_MEMORY) == 0;
         bson_free (row_txt);
         bson_free (row_md);
         bson_free (cache);
      }
      if (buffered) {
         assert_int_equal (memory, 1);
         assert_non_null (strstr (txt, "Read without --direct-io"));
         assert_non_null (strstr (txt,
                                  "  1024.0 MiB, fits in memory: the engine read 6.10x the detail layout, "
                                  "the disk 1.02x: the page cache held it\n"));
         assert_non_null (strstr (txt,
                                  "  256.0 MiB, rereads: the engine read 93.7x the detail layout, the disk "
                                  "93.2x\n"));
      } else {
         assert_int_equal (memory, 0);
         assert_null (strstr (txt, "direct-io"));
         assert_null (strstr (txt, LAB_RESULTS_REGIME_MEMORY));
      }
      bson_free (md);
      bson_free (txt);
      bson_free (path);
      lab_cmp_results_cleanup (&r);
   }
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_same_rows_in_both),
      cmocka_unit_test (test_catches_differences),
      cmocka_unit_test (test_catches_differences_three),
      cmocka_unit_test (test_sweep_regimes_in_both),
   };
   return lab_test_run_group ("tables_agree", tests, NULL, NULL);
}
