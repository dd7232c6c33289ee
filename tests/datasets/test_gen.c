/*
 * test_gen.c -- unit tests of the bill-detail generator (datasets/gen.c): determinism, the rows-per-bill
 * distributions, interleaving that really scatters bills, oversize bills that fold over 16 MiB, row
 * shape and size. Pure: nothing is inserted.
 */
#include "tests/testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/store.h"
#include "datasets/csvtype.h"
#include "datasets/gen.h"

/* row_hash -- FNV-1a of a document's bytes, optionally without its _id element. */
static uint64_t
row_hash (const bson_t *doc, bool skip_id)
{
   uint64_t h = 0xCBF29CE484222325ull;
   bson_t tmp = BSON_INITIALIZER;
   const bson_t *d = doc;
   if (skip_id) {
      bson_copy_to_excluding_noinit (doc, &tmp, "_id", NULL);
      d = &tmp;
   }
   const uint8_t *p = bson_get_data (d);
   for (uint32_t i = 0; i < d->len; i++) {
      h = (h ^ p[i]) * 0x100000001B3ull;
   }
   bson_destroy (&tmp);
   return h;
}

static int
cmp_u64 (const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

static lab_gen_t *
gen_or_fail (const lab_gen_params_t *p)
{
   bson_error_t e;
   lab_gen_t *g = lab_gen_new (p, &e);
   if (!g) {
      fail_msg ("lab_gen_new: %s", e.message);
   }
   return g;
}

/* same seed, same documents in the same order; another seed, other documents */
static void
test_determinism (void **state)
{
   (void)state;
   lab_gen_params_t p;
   lab_gen_params_init (&p);
   p.bills = 120;
   p.seed = 42;
   p.oversize = 0;
   lab_gen_t *a = gen_or_fail (&p), *b = gen_or_fail (&p);
   p.seed = 43;
   lab_gen_t *c = gen_or_fail (&p);
   bson_t da = BSON_INITIALIZER, db = BSON_INITIALIZER, dc = BSON_INITIALIZER;
   int64_t n = 0, same_as_c = 0;
   for (;;) {
      bool ha = lab_gen_next (a, &da, NULL), hb = lab_gen_next (b, &db, NULL);
      assert_int_equal (ha, hb);
      if (!ha) {
         break;
      }
      assert_int_equal (da.len, db.len);
      assert_memory_equal (bson_get_data (&da), bson_get_data (&db), da.len);
      if (lab_gen_next (c, &dc, NULL) && dc.len == da.len &&
          memcmp (bson_get_data (&dc), bson_get_data (&da), da.len) == 0) {
         same_as_c++;
      }
      n++;
   }
   assert_int_equal (n, lab_gen_total_rows (a));
   assert_true (n > 120 * 50);
   assert_int_equal (same_as_c, 0);
   bson_destroy (&da);
   bson_destroy (&db);
   bson_destroy (&dc);
   lab_gen_destroy (a);
   lab_gen_destroy (b);
   lab_gen_destroy (c);
}

/* mean_rows -- the mean rows per bill over `bills` bills, from the pure generator (no rows built). */
static double
mean_rows (lab_gen_dist_t dist, double mean, int64_t max_rows, int64_t bills, uint64_t seed,
           int64_t *max_seen)
{
   lab_gen_params_t p;
   lab_gen_params_init (&p);
   p.dist = dist;
   p.mean_rows = mean;
   p.max_rows = max_rows;
   p.bills = bills;
   p.seed = seed;
   lab_gen_t *g = gen_or_fail (&p);
   double sum = 0;
   *max_seen = 0;
   for (int64_t i = 0; i < bills; i++) {
      int64_t r;
      bool ov;
      assert_true (lab_gen_bill_rows_at (g, i, &r, &ov));
      assert_false (ov);
      assert_true (r >= 1 && r <= max_rows);
      *max_seen = r > *max_seen ? r : *max_seen;
      sum += (double)r;
   }
   assert_int_equal ((int64_t)sum, lab_gen_total_rows (g));
   lab_gen_destroy (g);
   return sum / (double)bills;
}

/* the test: the mean of 10^4 bills within 5% of the request, for every distribution */
static void
test_mean_within_5pct (void **state)
{
   (void)state;
   struct {
      lab_gen_dist_t d;
      double mean;
      int64_t max;
   } cases[] = {
      { LAB_GEN_LOGNORMAL, 130, 10000 },
      { LAB_GEN_LOGNORMAL, 129.6, 10000 },
      { LAB_GEN_LOGNORMAL, 40, 100 },
      { LAB_GEN_UNIFORM, 130, 10000 },
      { LAB_GEN_FIXED, 130, 10000 },
      { LAB_GEN_FIXED, 129.6, 10000 },
      /* zipf's tail is heavy: with max 500 the standard error of a 10^4-bill mean is ~1.5% */
      { LAB_GEN_ZIPF, 130, 500 },
      { LAB_GEN_ZIPF, 20, 200 },
   };
   for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      for (uint64_t seed = 1; seed <= 3; seed++) {
         int64_t mx;
         double m = mean_rows (cases[i].d, cases[i].mean, cases[i].max, 10000, seed, &mx);
         double dev = fabs (m / cases[i].mean - 1.0);
         if (dev > 0.05) {
            fail_msg ("%s mean %.1f max %" PRId64 " seed %" PRIu64 ": got %.2f (%.1f%% off)",
                      lab_gen_dist_name (cases[i].d), cases[i].mean, cases[i].max, seed, m, 100 * dev);
         }
      }
   }
}

/* the calibration itself, tighter, on 10^6 bills (still only row counts) */
static void
test_mean_calibration_1e6 (void **state)
{
   (void)state;
   int64_t mx;
   double m = mean_rows (LAB_GEN_LOGNORMAL, 130, 10000, 1000000, 7, &mx);
   assert_true (fabs (m / 130 - 1) < 0.01);
   assert_true (mx > 1000); /* lognormal has a real tail */
   /* a mean close to the cap: the fitted mu accounts for clipping */
   m = mean_rows (LAB_GEN_LOGNORMAL, 60, 100, 1000000, 7, &mx);
   assert_true (fabs (m / 60 - 1) < 0.01);
   assert_int_equal (mx, 100);
   m = mean_rows (LAB_GEN_ZIPF, 130, 10000, 1000000, 7, &mx);
   assert_true (fabs (m / 130 - 1) < 0.02);
   m = mean_rows (LAB_GEN_UNIFORM, 130, 10000, 1000000, 7, &mx);
   assert_true (fabs (m / 130 - 1) < 0.005);
   assert_true (mx <= 259);
}

typedef struct {
   int64_t last_pos;
   int64_t gaps;
   int64_t gap_sum;
   int32_t last_line;
} bill_track_t;

/* scatter -- mean distance (in rows) between consecutive rows of the same bill; also checks that each
 * bill's lines come in order, charge times never go back (interleaved) and _id only grows. */
static double
scatter (lab_gen_order_t order, int64_t bills, uint64_t **hashes, int64_t *nrows)
{
   lab_gen_params_t p;
   lab_gen_params_init (&p);
   p.bills = bills;
   p.seed = 11;
   p.order = order;
   lab_gen_t *g = gen_or_fail (&p);
   bill_track_t *t = calloc ((size_t)bills, sizeof *t);
   bson_t d = BSON_INITIALIZER;
   lab_gen_row_t row;
   int64_t pos = 0, last_charge = INT64_MIN;
   bson_oid_t last_id;
   memset (&last_id, 0, sizeof last_id);
   *hashes = malloc ((size_t)lab_gen_total_rows (g) * sizeof **hashes);
   while (lab_gen_next (g, &d, &row)) {
      bill_track_t *b = &t[row.bill_index];
      assert_int_equal (row.line_no, b->last_line + 1);
      if (b->last_line > 0) {
         b->gaps++;
         b->gap_sum += pos - b->last_pos;
      }
      b->last_line = row.line_no;
      b->last_pos = pos;
      if (order == LAB_GEN_INTERLEAVED) {
         assert_true (row.charge_ms >= last_charge);
         last_charge = row.charge_ms;
      }
      bson_iter_t it;
      assert_true (bson_iter_init_find (&it, &d, "_id") && BSON_ITER_HOLDS_OID (&it));
      assert_true (bson_oid_compare (bson_iter_oid (&it), &last_id) > 0);
      bson_oid_copy (bson_iter_oid (&it), &last_id);
      (*hashes)[pos] = row_hash (&d, true);
      pos++;
   }
   *nrows = pos;
   assert_int_equal (pos, lab_gen_total_rows (g));
   int64_t gaps = 0, sum = 0;
   for (int64_t i = 0; i < bills; i++) {
      assert_true (t[i].last_line > 0); /* every bill appeared */
      gaps += t[i].gaps;
      sum += t[i].gap_sum;
   }
   free (t);
   bson_destroy (&d);
   lab_gen_destroy (g);
   return gaps ? (double)sum / (double)gaps : 0.0;
}

/* interleaved really scatters a bill's rows; clustered keeps them adjacent; both hold the same rows */
static void
test_interleaving (void **state)
{
   (void)state;
   uint64_t *hi, *hc;
   int64_t ni, nc;
   double gi = scatter (LAB_GEN_INTERLEAVED, 400, &hi, &ni);
   double gc = scatter (LAB_GEN_CLUSTERED, 400, &hc, &nc);
   print_message ("mean distance between a bill's consecutive rows: interleaved %.1f, clustered %.1f\n", gi,
                  gc);
   assert_true (gc == 1.0);
   /* with 400 bills mostly open together, a bill's next row is typically hundreds of rows later */
   assert_true (gi > 100.0);
   assert_int_equal (ni, nc);
   qsort (hi, (size_t)ni, sizeof *hi, cmp_u64);
   qsort (hc, (size_t)nc, sizeof *hc, cmp_u64);
   assert_memory_equal (hi, hc, (size_t)ni * sizeof *hi);
   free (hi);
   free (hc);
}

/* --open-bills bounds how many bills are open at once, roughly (Little's law) */
static void
test_open_bills (void **state)
{
   (void)state;
   lab_gen_params_t p;
   lab_gen_params_init (&p);
   p.bills = 3000;
   p.open_bills = 50;
   p.mean_rows = 20;
   lab_gen_t *g = gen_or_fail (&p);
   bson_t d = BSON_INITIALIZER;
   while (lab_gen_next (g, &d, NULL)) {
   }
   int64_t peak = lab_gen_open_bills_peak (g);
   print_message ("open bills peak %" PRId64 " for a target of 50\n", peak);
   assert_true (peak >= 25 && peak <= 200);
   bson_destroy (&d);
   lab_gen_destroy (g);
}

/* an oversize bill folds over 16 MiB even with every master field hoisted out of the array */
static void
test_oversize (void **state)
{
   (void)state;
   lab_gen_params_t p;
   lab_gen_params_init (&p);
   p.bills = 3;
   p.oversize = 1;
   p.seed = 9;
   lab_gen_t *g = gen_or_fail (&p);
   int64_t per = lab_gen_oversize_rows (g);
   int64_t min_row = lab_gen_min_folded_row_bytes ();
   assert_true (per * min_row > LAB_BSON_MAX_BYTES);
   assert_int_equal (lab_gen_total_bills (g), 4);

   bson_t folded = BSON_INITIALIZER, arr, el;
   bson_t d = BSON_INITIALIZER;
   lab_gen_row_t row;
   int64_t over_rows = 0, over_bills = -1, idx = 0;
   bool started = false;
   const char *const *master = lab_gen_master_fields ();
   while (lab_gen_next (g, &d, &row)) {
      if (!row.oversize) {
         continue;
      }
      assert_true (over_bills < 0 || over_bills == row.bill_index);
      over_bills = row.bill_index;
      if (!started) {
         /* master fields once, at the top (the hoisted form) */
         bson_iter_t it;
         bson_iter_init (&it, &d);
         while (bson_iter_next (&it)) {
            const char *k = bson_iter_key (&it);
            bool is_master = !strcmp (k, "bill_id");
            for (const char *const *m = master; *m; m++) {
               is_master = is_master || !strcmp (k, *m);
            }
            if (is_master) {
               bson_append_value (&folded, k, -1, bson_iter_value (&it));
            }
         }
         bson_append_array_begin (&folded, "details", -1, &arr);
         started = true;
      }
      /* each element: the row fields only (no _id, no master field) */
      char key[16];
      const char *kp;
      bson_uint32_to_string ((uint32_t)idx++, &kp, key, sizeof key);
      bson_append_document_begin (&arr, kp, -1, &el);
      bson_iter_t it;
      bson_iter_init (&it, &d);
      int64_t before = el.len;
      while (bson_iter_next (&it)) {
         const char *k = bson_iter_key (&it);
         bool skip = !strcmp (k, "_id") || !strcmp (k, "bill_id");
         for (const char *const *m = master; *m; m++) {
            skip = skip || !strcmp (k, *m);
         }
         if (!skip) {
            bson_append_value (&el, k, -1, bson_iter_value (&it));
         }
      }
      /* the bound holds for every real row */
      assert_true ((int64_t)(el.len - before) + 5 + 3 >= min_row);
      bson_append_document_end (&arr, &el);
      over_rows++;
   }
   bson_append_array_end (&folded, &arr);
   print_message ("oversize bill: %" PRId64 " rows, hoisted fold %u bytes (16 MiB = %d)\n", over_rows,
                  folded.len, LAB_BSON_MAX_BYTES);
   assert_int_equal (over_rows, per);
   assert_true (folded.len > LAB_BSON_MAX_BYTES);
   assert_true (lab_gen_total_rows (g) > per);
   bson_destroy (&folded);
   bson_destroy (&d);
   lab_gen_destroy (g);
}

/* row shape: realistic types, non-ASCII names, 300-400 bytes of BSON per row on average */
static void
test_row_shape (void **state)
{
   (void)state;
   lab_gen_params_t p;
   lab_gen_params_init (&p);
   p.bills = 200;
   p.key = "bid";
   lab_gen_t *g = gen_or_fail (&p);
   bson_t d = BSON_INITIALIZER;
   lab_gen_row_t row;
   int64_t n = 0, bytes = 0;
   struct {
      const char *f;
      bson_type_t t;
   } want[] = {
      { "_id", BSON_TYPE_OID },         { "bid", BSON_TYPE_INT64 },
      { "patient_id", BSON_TYPE_UTF8 }, { "patient_name", BSON_TYPE_UTF8 },
      { "age", BSON_TYPE_INT32 },       { "hospital", BSON_TYPE_UTF8 },
      { "dept", BSON_TYPE_UTF8 },       { "admit_date", BSON_TYPE_DATE_TIME },
      { "insurance", BSON_TYPE_UTF8 },  { "line_no", BSON_TYPE_INT32 },
      { "item_code", BSON_TYPE_UTF8 },  { "item_name", BSON_TYPE_UTF8 },
      { "spec", BSON_TYPE_UTF8 },       { "unit", BSON_TYPE_UTF8 },
      { "qty", BSON_TYPE_DOUBLE },      { "unit_price", BSON_TYPE_DOUBLE },
      { "amount", BSON_TYPE_DOUBLE },   { "charge_time", BSON_TYPE_DATE_TIME },
   };
   while (lab_gen_next (g, &d, &row)) {
      bson_iter_t it;
      size_t k = 0;
      bson_iter_init (&it, &d);
      while (bson_iter_next (&it)) {
         assert_true (k < sizeof want / sizeof want[0]);
         assert_string_equal (bson_iter_key (&it), want[k].f);
         assert_int_equal (bson_iter_type (&it), want[k].t);
         k++;
      }
      assert_int_equal (k, sizeof want / sizeof want[0]);
      assert_true (bson_iter_init_find (&it, &d, "bid"));
      assert_int_equal (bson_iter_int64 (&it), row.bill_id);
      assert_true (bson_iter_init_find (&it, &d, "patient_name"));
      uint32_t len;
      const char *name = bson_iter_utf8 (&it, &len);
      assert_true (lab_gen_utf8_check (name, len, NULL));
      assert_true ((unsigned char)name[0] >= 0x80); /* Chinese, not ASCII */
      assert_true (bson_iter_init_find (&it, &d, "amount"));
      double amount = bson_iter_double (&it);
      assert_true (bson_iter_init_find (&it, &d, "qty"));
      double qty = bson_iter_double (&it);
      assert_true (bson_iter_init_find (&it, &d, "unit_price"));
      assert_true (fabs (amount - round (qty * bson_iter_double (&it) * 100) / 100) < 1e-9);
      bytes += d.len;
      n++;
   }
   double avg = (double)bytes / (double)n;
   print_message ("average row: %.1f bytes of BSON\n", avg);
   assert_true (avg >= 300 && avg <= 400);
   bson_destroy (&d);
   lab_gen_destroy (g);
}

/* impossible requests are usage errors naming the option */
static void
test_param_errors (void **state)
{
   (void)state;
   lab_gen_params_t p;
   bson_error_t e;
   lab_gen_params_init (&p);
   p.dist = LAB_GEN_UNIFORM;
   p.max_rows = 100;
   assert_null (lab_gen_new (&p, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_non_null (strstr (e.message, "--mean-rows"));
   lab_gen_params_init (&p);
   p.key = "_id";
   assert_null (lab_gen_new (&p, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME));
   assert_non_null (strstr (e.message, "--key"));
   lab_gen_params_init (&p);
   p.key = "qty";
   assert_null (lab_gen_new (&p, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME));
   assert_non_null (strstr (e.message, "clashes with a generated field"));
   lab_gen_params_init (&p);
   p.bills = 0;
   assert_null (lab_gen_new (&p, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   lab_gen_params_init (&p);
   p.mean_rows = 20000;
   assert_null (lab_gen_new (&p, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   uint64_t s;
   assert_true (lab_gen_seed_parse ("0x10", &s, &e) && s == 16);
   assert_true (lab_gen_seed_parse ("18446744073709551615", &s, &e) && s == UINT64_MAX);
   assert_false (lab_gen_seed_parse ("-1", &s, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
   assert_false (lab_gen_seed_parse ("12x", &s, &e));
   assert_true (lab_error_is (&e, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE));
}

/* the seed preset: exact master and row counts at several scales (the row counts are rescaled so that
 * they sum exactly), every master at least one row, string keys unique per master and in its style,
 * rows of a master scattered (interleaved), the sum seen by generating equal to the preset's */
static void
test_seed_preset (void **state)
{
   (void)state;
   static const double scales[] = { 0.00001, 0.0005, 0.002, 0.02 };
   bson_error_t e;

   for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
      lab_gen_params_t p;
      lab_gen_params_init (&p);
      assert_true (lab_gen_preset_apply (&p, "seed", scales[k], &e));
      int64_t masters = llround (427003.0 * scales[k]), rows = llround (55357286.0 * scales[k]);
      assert_int_equal (p.bills, masters);
      assert_int_equal (p.total_rows, rows);
      assert_string_equal (p.key, "ETL_Patient_IDStr");
      lab_gen_t *g = gen_or_fail (&p);
      assert_int_equal (lab_gen_total_bills (g), masters);
      assert_int_equal (lab_gen_total_rows (g), rows);
      int64_t sum = 0, r;
      for (int64_t i = 0; i < masters; i++) {
         assert_true (lab_gen_bill_rows_at (g, i, &r, NULL));
         assert_true (r >= 1);
         sum += r;
      }
      assert_int_equal (sum, rows);
      if (scales[k] <= 0.002) {
         /* generate every row: the count, the key's type and form, bills interleaved */
         bson_t doc = BSON_INITIALIZER;
         lab_gen_row_t info;
         int64_t n = 0, switches = 0, prev = -1;
         while (lab_gen_next (g, &doc, &info)) {
            bson_iter_t it;
            char want[24];
            assert_true (bson_iter_init_find (&it, &doc, "ETL_Patient_IDStr"));
            assert_int_equal (bson_iter_type (&it), BSON_TYPE_UTF8);
            lab_gen_key_string (info.bill_id, want, sizeof want);
            assert_string_equal (bson_iter_utf8 (&it, NULL), want);
            assert_int_equal (strlen (want), 14);
            assert_true (strncmp (want, "ZY", 2) == 0);
            switches += prev != -1 && prev != info.bill_index;
            prev = info.bill_index;
            n++;
         }
         assert_int_equal (n, rows);
         /* interleaved: far more switches between masters than masters */
         if (masters > 100) {
            assert_true (switches > 10 * masters);
         }
         bson_destroy (&doc);
      }
      lab_gen_destroy (g);
   }
   /* the same preset twice: the same row counts (deterministic correction) */
   lab_gen_params_t a, b;
   lab_gen_params_init (&a);
   lab_gen_params_init (&b);
   assert_true (lab_gen_preset_apply (&a, "seed", 0.001, &e));
   assert_true (lab_gen_preset_apply (&b, "seed", 0.001, &e));
   lab_gen_t *ga = gen_or_fail (&a), *gb = gen_or_fail (&b);
   for (int64_t i = 0; i < a.bills; i++) {
      int64_t ra, rb;
      assert_true (lab_gen_bill_rows_at (ga, i, &ra, NULL));
      assert_true (lab_gen_bill_rows_at (gb, i, &rb, NULL));
      assert_int_equal (ra, rb);
   }
   lab_gen_destroy (ga);
   lab_gen_destroy (gb);

   /* refusals: unknown preset, a scale leaving no master, a preset with --oversize */
   lab_gen_params_t q;
   lab_gen_params_init (&q);
   assert_false (lab_gen_preset_apply (&q, "huge", 1.0, &e));
   assert_int_equal (e.domain, LAB_ERROR_USAGE);
   assert_false (lab_gen_preset_apply (&q, "seed", 0.000001, &e));
   assert_non_null (strstr (e.message, "0 masters"));
   assert_true (lab_gen_preset_apply (&q, "seed", 0.001, &e));
   q.oversize = 1;
   assert_null (lab_gen_new (&q, &e));
   assert_non_null (strstr (e.message, "--oversize"));
}

/* lab_gen_skip: skipping n rows then building gives row n, in both orders; skipping past the end stops */
static void
test_skip (void **state)
{
   (void)state;
   for (int ord = 0; ord < 2; ord++) {
      lab_gen_params_t p;
      lab_gen_params_init (&p);
      p.bills = 50;
      p.seed = 9;
      p.order = ord ? LAB_GEN_CLUSTERED : LAB_GEN_INTERLEAVED;
      lab_gen_t *a = gen_or_fail (&p), *b = gen_or_fail (&p);
      bson_t da = BSON_INITIALIZER, db = BSON_INITIALIZER;
      int64_t total = lab_gen_total_rows (a), pos = 0;
      const int64_t steps[] = { 0, 1, 7, 130, 999 };
      for (size_t k = 0; pos < total; k = (k + 1) % (sizeof steps / sizeof steps[0])) {
         int64_t n = steps[k];
         for (int64_t i = 0; i < n && lab_gen_next (a, &da, NULL); i++) {
         }
         int64_t skipped = lab_gen_skip (b, n);
         assert_int_equal (skipped, BSON_MIN (n, total - pos));
         pos += skipped;
         assert_int_equal (lab_gen_position (b), pos);
         bool ha = lab_gen_next (a, &da, NULL), hb = lab_gen_next (b, &db, NULL);
         assert_int_equal (ha, hb);
         if (!ha) {
            break;
         }
         pos++;
         assert_int_equal (da.len, db.len);
         assert_memory_equal (bson_get_data (&da), bson_get_data (&db), da.len);
      }
      assert_int_equal (lab_gen_skip (b, 5), 0);
      bson_destroy (&da);
      bson_destroy (&db);
      lab_gen_destroy (a);
      lab_gen_destroy (b);
   }
}

int
main (void)
{
   const struct CMUnitTest tests[] = {
      cmocka_unit_test (test_determinism),      cmocka_unit_test (test_skip),
      cmocka_unit_test (test_mean_within_5pct), cmocka_unit_test (test_mean_calibration_1e6),
      cmocka_unit_test (test_interleaving),     cmocka_unit_test (test_open_bills),
      cmocka_unit_test (test_oversize),         cmocka_unit_test (test_row_shape),
      cmocka_unit_test (test_param_errors),     cmocka_unit_test (test_seed_preset),
   };
   return lab_test_run_group ("gen", tests, NULL, NULL);
}
