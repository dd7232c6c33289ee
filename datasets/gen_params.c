/*
 * gen_params.c -- the generator's parameters (defaults, parsing, names), the row-count distributions'
 * arithmetic that calibration uses (gen.c), and the presets (see gen.h).
 */
#include "datasets/gen.h"
#include "datasets/gen_private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* ---- parameters -------------------------------------------------------------------------------- */

void
lab_gen_params_init (lab_gen_params_t *p)
{
   memset (p, 0, sizeof *p);
   p->seed = 1;
   p->bills = 1000;
   p->mean_rows = 130.0;
   p->dist = LAB_GEN_LOGNORMAL;
   p->max_rows = 10000;
   p->order = LAB_GEN_INTERLEAVED;
   p->oversize = 0;
   p->key = "bill_id";
   p->open_bills = 1000;
   p->start_ms = 1672531200000ll; /* 2023-01-01T00:00:00Z */
}

static const char *const DIST_NAMES[] = { "lognormal", "zipf", "uniform", "fixed" };
static const char *const ORDER_NAMES[] = { "interleaved", "clustered" };

bool
lab_gen_dist_parse (const char *s, lab_gen_dist_t *out)
{
   for (size_t i = 0; i < NELEM (DIST_NAMES); i++) {
      if (strcmp (s, DIST_NAMES[i]) == 0) {
         *out = (lab_gen_dist_t)i;
         return true;
      }
   }
   return false;
}

bool
lab_gen_order_parse (const char *s, lab_gen_order_t *out)
{
   for (size_t i = 0; i < NELEM (ORDER_NAMES); i++) {
      if (strcmp (s, ORDER_NAMES[i]) == 0) {
         *out = (lab_gen_order_t)i;
         return true;
      }
   }
   return false;
}

const char *
lab_gen_dist_name (lab_gen_dist_t d)
{
   return (unsigned)d < NELEM (DIST_NAMES) ? DIST_NAMES[d] : "?";
}

const char *
lab_gen_order_name (lab_gen_order_t o)
{
   return (unsigned)o < NELEM (ORDER_NAMES) ? ORDER_NAMES[o] : "?";
}

bool
lab_gen_seed_parse (const char *s, uint64_t *out, bson_error_t *error)
{
   char *end = NULL;
   int base = 10;
   const char *digits = s;

   if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      base = 16;
      digits = s + 2;
   }
   if (!*digits || *digits == '-' || *digits == '+' || *digits == ' ') {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--seed: '%s' is not a number (decimal or 0x-hex, 0..2^64-1)", s);
      return false;
   }
   errno = 0;
   unsigned long long v = strtoull (digits, &end, base);
   if (errno || *end) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--seed: '%s' is not a number (decimal or 0x-hex, 0..2^64-1)", s);
      return false;
   }
   *out = (uint64_t)v;
   return true;
}

/* std_normal_sf -- P(Z > z). */
static double
std_normal_sf (double z)
{
   return 0.5 * erfc (z / M_SQRT2);
}

/* logn_sf -- P(X >= x) for X = exp(N(mu, sigma)). */
static double
logn_sf (double x, double mu, double sigma)
{
   return std_normal_sf ((log (x) - mu) / sigma);
}

/* logn_sf_integral -- integral of P(X >= x) dx over [a, b]: b S(b) - a S(a) + E[X; a < X < b]. */
static double
logn_sf_integral (double a, double b, double mu, double sigma)
{
   double ex = exp (mu + sigma * sigma / 2);
   double partial = ex * (std_normal_sf ((log (a) - mu - sigma * sigma) / sigma) -
                          std_normal_sf ((log (b) - mu - sigma * sigma) / sigma));
   return b * logn_sf (b, mu, sigma) - a * logn_sf (a, mu, sigma) + partial;
}

/* lab_gen_logn_clipped_mean -- E[clip(round(X), 1, M)] = 1 + sum_{k=1}^{M-1} P(X >= k + 1/2): exact terms up
 * to LOGN_EXACT_ROWS, the (smooth) rest by the integral of the survival function (midpoint rule). */
double
lab_gen_logn_clipped_mean (double mu, double sigma, int64_t max_rows)
{
   double m = 1.0;
   int64_t k;
   int64_t exact_end = max_rows - 1 < LOGN_EXACT_ROWS ? max_rows - 1 : LOGN_EXACT_ROWS;

   for (k = 1; k <= exact_end; k++) {
      m += logn_sf ((double)k + 0.5, mu, sigma);
   }
   if (max_rows - 1 > LOGN_EXACT_ROWS) {
      m += logn_sf_integral ((double)LOGN_EXACT_ROWS + 1.0, (double)max_rows, mu, sigma);
   }
   return m;
}

/* lab_gen_zipf_weights -- total weight of the exact part (k <= exact) and the continuous tail for exponent s.
 */
void
lab_gen_zipf_weights (double s, int64_t max_rows, int64_t exact, double *w_exact, double *w_tail,
                      double *mean)
{
   double w = 0, wk = 0;
   for (int64_t k = 1; k <= exact; k++) {
      double p = pow ((double)k, -s);
      w += p;
      wk += p * (double)k;
   }
   double tw = 0, twk = 0;
   if (max_rows > exact) {
      double a = (double)exact + 0.5, b = (double)max_rows + 0.5;
      /* integral of x^-s and x^(1-s) over [a, b] */
      tw = fabs (s - 1.0) < 1e-9 ? log (b / a) : (pow (b, 1 - s) - pow (a, 1 - s)) / (1 - s);
      twk = fabs (s - 2.0) < 1e-9 ? log (b / a) : (pow (b, 2 - s) - pow (a, 2 - s)) / (2 - s);
   }
   *w_exact = w;
   *w_tail = tw;
   *mean = (wk + twk) / (w + tw);
}

/* ---- presets ----------------------------------------------------------------------------------- */

void
lab_gen_key_string (int64_t bill_id, char *buf, size_t len)
{
   bson_snprintf (buf, len, "ZY%012" PRId64, bill_id);
}

bool
lab_gen_preset_apply (lab_gen_params_t *p, const char *name, double scale, bson_error_t *error)
{
   if (strcmp (name, "seed") != 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--preset: '%s' is not a preset (known: seed)", name);
      return false;
   }
   if (!(scale > 0.0) || scale > 100.0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--scale %g must be above 0 and at most 100 (1 is the original's size)", scale);
      return false;
   }
   int64_t masters = llround ((double)LAB_GEN_SEED_MASTERS * scale);
   int64_t rows = llround ((double)LAB_GEN_SEED_ROWS * scale);
   if (masters < 1 || rows <= masters) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--scale %g leaves %" PRId64 " masters and %" PRId64
                     " rows: at least one master and more rows than masters are needed (use a scale of at "
                     "least 0.00001)",
                     scale, masters, rows);
      return false;
   }
   p->bills = masters;
   p->total_rows = rows;
   p->mean_rows = (double)rows / (double)masters;
   p->dist = LAB_GEN_LOGNORMAL;
   p->oversize = 0;
   p->key = LAB_GEN_SEED_KEY;
   p->key_type = LAB_GEN_KEY_STRING;
   return true;
}
