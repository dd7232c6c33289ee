/* gen_dist.c -- the row-count distributions: their arithmetic, the calibration to a mean and each bill's
 * draw. */
#include "datasets/gen_private.h"

#include <math.h>

#include "core/error.h"

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

/* lab_gen_dist_calibrate -- fit the distribution's free parameter to the requested mean. */
bool
lab_gen_dist_calibrate (lab_gen_t *g, bson_error_t *error)
{
   const lab_gen_params_t *p = &g->p;
   double m = p->mean_rows;
   int64_t M = p->max_rows;

   switch (p->dist) {
   case LAB_GEN_LOGNORMAL: {
      if (!(m > 1.0 && m < (double)M)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--mean-rows %g is not reachable by lognormal with --max-rows %" PRId64
                        ": it must lie strictly between 1 and --max-rows",
                        m, M);
         return false;
      }
      double lo = -20.0, hi = log ((double)M) + 20.0;
      for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
         double mid = (lo + hi) / 2;
         if (lab_gen_logn_clipped_mean (mid, LAB_GEN_LOGNORMAL_SIGMA, M) < m) {
            lo = mid;
         } else {
            hi = mid;
         }
      }
      g->logn_mu = (lo + hi) / 2;
      return true;
   }
   case LAB_GEN_ZIPF: {
      double w1, w2, mean0;
      g->zipf_exact = M < ZIPF_EXACT_ROWS ? M : ZIPF_EXACT_ROWS;
      lab_gen_zipf_weights (0.0, M, g->zipf_exact, &w1, &w2, &mean0);
      if (!(m > 1.0 && m < mean0)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--mean-rows %g is not reachable by zipf with --max-rows %" PRId64
                        ": it must lie strictly between 1 and %.1f ((max-rows + 1) / 2)",
                        m, M, mean0);
         return false;
      }
      double lo = 0.0, hi = 30.0, mean;
      for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
         double mid = (lo + hi) / 2;
         lab_gen_zipf_weights (mid, M, g->zipf_exact, &w1, &w2, &mean);
         if (mean > m) {
            lo = mid;
         } else {
            hi = mid;
         }
      }
      g->zipf_s = (lo + hi) / 2;
      lab_gen_zipf_weights (g->zipf_s, M, g->zipf_exact, &g->zipf_exact_w, &g->zipf_tail_w, &mean);
      g->zipf_cdf = bson_malloc ((size_t)g->zipf_exact * sizeof (double));
      double c = 0;
      for (int64_t k = 1; k <= g->zipf_exact; k++) {
         c += pow ((double)k, -g->zipf_s);
         g->zipf_cdf[k - 1] = c;
      }
      return true;
   }
   case LAB_GEN_UNIFORM:
      if (!(m >= 1.0 && 2 * m - 1 <= (double)M)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--mean-rows %g is not reachable by uniform with --max-rows %" PRId64
                        ": uniform draws from 1..2*mean-1, so the mean must be in [1, (max-rows + 1) / 2]",
                        m, M);
         return false;
      }
      return true;
   case LAB_GEN_FIXED:
      if (!(m >= 1.0 && m <= (double)M)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--mean-rows %g must be in [1, --max-rows %" PRId64 "] for fixed", m, M);
         return false;
      }
      return true;
   }
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "unknown --dist");
   return false;
}

/* clip_rows -- round and clip a continuous draw to [1, max]. */
static int64_t
clip_rows (double x, int64_t max_rows)
{
   if (!(x >= 1.5)) { /* also NaN */
      return 1;
   }
   if (x >= (double)max_rows) {
      return max_rows;
   }
   int64_t r = (int64_t)floor (x + 0.5);
   return r > max_rows ? max_rows : r;
}

/* lab_gen_dist_draw_rows -- the bill's row count: always exactly one draw from the bill stream, whatever the
 * dist. */
int64_t
lab_gen_dist_draw_rows (const lab_gen_t *g, rng_t *r)
{
   const lab_gen_params_t *p = &g->p;
   double u = rng_open_unit (r);

   switch (p->dist) {
   case LAB_GEN_LOGNORMAL: {
      /* inverse CDF of the normal through erfc's inverse is not in libm: use the probit by Acklam's
       * rational approximation refined by one Halley step, accurate to ~1e-15. */
      static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                                  1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00 };
      static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                  6.680131188771972e+01, -1.328068155288572e+01 };
      static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                  -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00 };
      static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                  3.754408661907416e+00 };
      double z, q, t;
      if (u < 0.02425) {
         q = sqrt (-2 * log (u));
         z = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
             ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
      } else if (u > 1 - 0.02425) {
         q = sqrt (-2 * log (1 - u));
         z = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
             ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
      } else {
         q = u - 0.5;
         t = q * q;
         z = (((((a[0] * t + a[1]) * t + a[2]) * t + a[3]) * t + a[4]) * t + a[5]) * q /
             (((((b[0] * t + b[1]) * t + b[2]) * t + b[3]) * t + b[4]) * t + 1);
      }
      double e = 0.5 * erfc (-z / M_SQRT2) - u;
      double uu = e * sqrt (2 * M_PI) * exp (z * z / 2);
      z = z - uu / (1 + z * uu / 2);
      return clip_rows (exp (g->logn_mu + LAB_GEN_LOGNORMAL_SIGMA * z), p->max_rows);
   }
   case LAB_GEN_ZIPF: {
      double total = g->zipf_exact_w + g->zipf_tail_w;
      double target = u * total;
      if (target < g->zipf_exact_w || g->zipf_tail_w <= 0) {
         /* binary search the first k with cdf[k-1] > target */
         int64_t lo = 0, hi = g->zipf_exact - 1;
         while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            if (g->zipf_cdf[mid] > target) {
               hi = mid;
            } else {
               lo = mid + 1;
            }
         }
         return lo + 1;
      }
      /* continuous tail on [a, b] with density ~ x^-s: invert its CDF */
      double s = g->zipf_s;
      double a = (double)g->zipf_exact + 0.5, bnd = (double)p->max_rows + 0.5;
      double f = (target - g->zipf_exact_w) / g->zipf_tail_w;
      double x;
      if (fabs (s - 1.0) < 1e-9) {
         x = a * pow (bnd / a, f);
      } else {
         double pa = pow (a, 1 - s), pb = pow (bnd, 1 - s);
         x = pow (pa + f * (pb - pa), 1 / (1 - s));
      }
      int64_t k = (int64_t)floor (x + 0.5);
      if (k <= g->zipf_exact) {
         k = g->zipf_exact + 1;
      }
      return k > p->max_rows ? p->max_rows : k;
   }
   case LAB_GEN_UNIFORM:
      return clip_rows (0.5 + u * (2 * p->mean_rows - 1.0), p->max_rows);
   case LAB_GEN_FIXED: {
      double fl = floor (p->mean_rows);
      return (int64_t)fl + (u < p->mean_rows - fl ? 1 : 0);
   }
   }
   return 1;
}
