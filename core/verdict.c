/*
 * verdict.c -- the one rule that turns two layouts' figures into "who wins" (results.h, "The one rule";
 * docs/results.md, "The rule"): paired runs give a 95% interval of the ratio, one run gives the ratio as
 * measured and says it has no spread. Every table, verdict, sweep point, workload, the mix and the
 * baseline change reach it through lab_results_verdict (or lab_results_winner, its winner alone).
 */
#include "core/results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* cmp_double -- qsort order for doubles. */
static int
cmp_double (const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;

   return (x > y) - (x < y);
}

/* lab_results_stat_of -- see results.h. */
lab_stat_t
lab_results_stat_of (const double *v, size_t n)
{
   lab_stat_t s = { 0 };
   double *c;

   if (n == 0) {
      return s;
   }
   c = bson_malloc (n * sizeof *c);
   memcpy (c, v, n * sizeof *c);
   qsort (c, n, sizeof *c, cmp_double);
   s.present = true;
   s.n = (int)n;
   s.min = c[0];
   s.max = c[n - 1];
   s.median = (n % 2) ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2.0;
   bson_free (c);
   return s;
}

/* lab_results_stat_runs -- see results.h. */
lab_stat_t
lab_results_stat_runs (const double *v, const int *run, size_t n)
{
   lab_stat_t s = lab_results_stat_of (v, n);
   size_t i;

   for (i = 0; i < n && i < LAB_RESULTS_MAX_RUNS; i++) {
      s.run_v[i] = v[i];
      s.run_no[i] = run ? run[i] : (int)i + 1;
   }
   s.nrun = (int)i;
   return s;
}

/* lab_results_noise_of -- see results.h. */
lab_results_noise_t
lab_results_noise_of (const bson_t *results, const lab_metric_t *m)
{
   lab_results_noise_t n = { true, 0.0 };

   (void)results;
   n.measured = m->run_path != NULL;
   if (n.measured && m->unit == LAB_UNIT_SECONDS) {
      n.resolution = LAB_RESULTS_TIMER_RES_S;
   } else if (n.measured && m->unit == LAB_UNIT_MS) {
      n.resolution = LAB_RESULTS_TIMER_RES_S * 1e3;
   }
   return n;
}

/* t975 -- the 97.5% quantile of Student's t with df degrees of freedom (two-sided 95%): the table's values
 * to 30, then 1.96 + 2.4 / df (within 0.003 of the exact quantile at 40, 60 and 120). */
static double
t975 (int df)
{
   static const double t[] = { 0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                               2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
                               2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };

   if (df < 1) {
      return INFINITY;
   }
   return df <= 30 ? t[df] : 1.96 + 2.4 / df;
}

/* pair_up -- the runs a and b both have, paired by run number (by position when a number is unknown):
 * x[k] from a, y[k] from b; returns how many. */
static int
pair_up (const lab_stat_t *a, const lab_stat_t *b, double *x, double *y)
{
   int i, j, n = 0;

   for (i = 0; i < a->nrun; i++) {
      for (j = 0; j < b->nrun; j++) {
         bool same = a->run_no[i] > 0 && b->run_no[j] > 0 ? a->run_no[i] == b->run_no[j] : i == j;
         if (same) {
            x[n] = a->run_v[i];
            y[n] = b->run_v[j];
            n++;
            break;
         }
      }
   }
   return n;
}

/* mean_ci -- the mean of v[0..n) and the half-width of its 95% Student-t interval (n >= 2). */
static double
mean_ci (const double *v, int n, double *half)
{
   double mean = 0, ss = 0;
   int i;

   for (i = 0; i < n; i++) {
      mean += v[i];
   }
   mean /= n;
   for (i = 0; i < n; i++) {
      ss += (v[i] - mean) * (v[i] - mean);
   }
   *half = t975 (n - 1) * sqrt (ss / (n - 1)) / sqrt ((double)n);
   return mean;
}

/* paired -- the interval part of the rule over npairs >= 2 paired runs: fills ratio/lo/hi (every value
 * positive) and returns whether the interval holds "no difference" (1 for a ratio, 0 for a difference). */
static bool
paired (lab_verdict_t *v, const double *x, const double *y, int n)
{
   double d[LAB_RESULTS_MAX_RUNS] = { 0 }, half, mean;
   bool positive = true;
   int i;

   for (i = 0; i < n; i++) {
      positive = positive && x[i] > 0 && y[i] > 0;
   }
   for (i = 0; i < n; i++) {
      d[i] = positive ? log (y[i] / x[i]) : y[i] - x[i];
   }
   mean = mean_ci (d, n, &half);
   if (!positive) {
      return mean - half <= 0 && 0 <= mean + half;
   }
   v->has_ratio = true;
   v->ratio = exp (mean);
   v->has_ci = true;
   v->lo = exp (mean - half);
   v->hi = exp (mean + half);
   return v->lo <= 1.0 && 1.0 <= v->hi;
}

/* welch -- the interval part of the rule for two independent sets of runs (x[0..nx), y[0..ny), both >= 2):
 * Welch's interval of the difference of the mean logs (or of the means, when a value is not positive);
 * fills ratio/lo/hi like paired and returns whether the interval holds "no difference". */
static bool
welch (lab_verdict_t *v, const double *x, int nx, const double *y, int ny)
{
   double lx[LAB_RESULTS_MAX_RUNS], ly[LAB_RESULTS_MAX_RUNS], hx, hy, mx, my, vx, vy, se, df, half;
   bool positive = true;
   int i;

   for (i = 0; i < nx; i++) {
      positive = positive && x[i] > 0;
   }
   for (i = 0; i < ny; i++) {
      positive = positive && y[i] > 0;
   }
   for (i = 0; i < nx; i++) {
      lx[i] = positive ? log (x[i]) : x[i];
   }
   for (i = 0; i < ny; i++) {
      ly[i] = positive ? log (y[i]) : y[i];
   }
   /* mean_ci's half-width is t * s / sqrt n: back to the variance of each mean */
   mx = mean_ci (lx, nx, &hx);
   my = mean_ci (ly, ny, &hy);
   vx = pow (hx / t975 (nx - 1), 2);
   vy = pow (hy / t975 (ny - 1), 2);
   se = sqrt (vx + vy);
   df = se > 0 ? pow (vx + vy, 2) / (vx * vx / (nx - 1) + vy * vy / (ny - 1)) : nx + ny - 2;
   half = t975 ((int)floor (df)) * se;
   if (!positive) {
      return (my - mx) - half <= 0 && 0 <= (my - mx) + half;
   }
   v->has_ratio = true;
   v->ratio = exp (my - mx);
   v->has_ci = true;
   v->lo = exp (my - mx - half);
   v->hi = exp (my - mx + half);
   return v->lo <= 1.0 && 1.0 <= v->hi;
}

/* lab_results_verdict -- see results.h. */
lab_verdict_t
lab_results_verdict (lab_better_t better, const lab_stat_t *a, const lab_stat_t *b,
                     const lab_results_noise_t *noise)
{
   lab_verdict_t v;
   double x[LAB_RESULTS_MAX_RUNS], y[LAB_RESULTS_MAX_RUNS], lo, hi;
   bool measured = !noise || noise->measured, tie;

   memset (&v, 0, sizeof v);
   v.winner = LAB_WIN_NONE;
   if (!a->present || !b->present) {
      return v;
   }
   if (a->median > 0) {
      v.has_ratio = true;
      v.ratio = b->median / a->median;
   }
   v.npairs = measured ? pair_up (a, b, x, y) : 0;
   if (noise && noise->unpaired && measured && better != LAB_DESCRIPTIVE && a->nrun >= 2 && b->nrun >= 2) {
      /* two experiments: every run of each, independent */
      lo = fmin (fabs (a->median), fabs (b->median));
      hi = fmax (fabs (a->median), fabs (b->median));
      v.npairs = a->nrun < b->nrun ? a->nrun : b->nrun;
      tie = welch (&v, a->run_v, a->nrun, b->run_v, b->nrun) || hi == lo;
      v.why = tie ? (hi == lo ? LAB_TIE_CLOSE : LAB_TIE_INTERVAL) : LAB_TIE_NO;
      if (tie) {
         v.winner = LAB_WIN_TIE;
         return v;
      }
      if (v.has_ratio && v.ratio > 0) {
         v.factor = v.ratio < 1.0 ? 1.0 / v.ratio : v.ratio;
         v.winner = (better == LAB_BETTER_LOWER) == (v.ratio < 1.0) ? LAB_WIN_FOLDED : LAB_WIN_DETAIL;
      } else {
         /* a figure of 0 (the differences' interval decided): no factor, the medians say which way */
         v.winner = (better == LAB_BETTER_LOWER) == (b->median < a->median) ? LAB_WIN_FOLDED : LAB_WIN_DETAIL;
      }
      return v;
   }
   if (better == LAB_DESCRIPTIVE) {
      if (v.npairs >= 2) {
         paired (&v, x, y, v.npairs);
      }
      return v;
   }
   lo = fmin (fabs (a->median), fabs (b->median));
   hi = fmax (fabs (a->median), fabs (b->median));
   if (v.npairs >= 2) {
      bool identical = true;
      int i;
      for (i = 0; i < v.npairs; i++) {
         identical = identical && x[i] == y[i];
      }
      tie = paired (&v, x, y, v.npairs);
      /* every run gave both the same figure (a count): nothing to tell apart */
      v.why = identical ? LAB_TIE_CLOSE : tie ? LAB_TIE_INTERVAL : LAB_TIE_NO;
      tie = tie || identical;
   } else {
      tie = hi - lo <= LAB_RESULTS_FLOOR * hi || (noise && hi - lo <= noise->resolution);
      v.why = tie ? LAB_TIE_CLOSE : LAB_TIE_NO;
   }
   if (tie) {
      v.winner = LAB_WIN_TIE;
      return v;
   }
   if (v.has_ci) {
      /* the interval lies on one side of 1: its geometric mean says which */
      bool b_lower = v.ratio < 1.0;
      v.factor = b_lower ? 1.0 / v.ratio : v.ratio;
      v.winner = (better == LAB_BETTER_LOWER) == b_lower ? LAB_WIN_FOLDED : LAB_WIN_DETAIL;
      return v;
   }
   if (lo > 0.0) {
      v.factor = hi / lo;
   }
   if (better == LAB_BETTER_LOWER) {
      v.winner = b->median < a->median ? LAB_WIN_FOLDED : LAB_WIN_DETAIL;
   } else {
      v.winner = b->median > a->median ? LAB_WIN_FOLDED : LAB_WIN_DETAIL;
   }
   return v;
}

/* lab_results_verdict_note -- see results.h. */
char *
lab_results_verdict_note (const lab_verdict_t *v)
{
   char *lo, *hi, *s;

   if (v->winner == LAB_WIN_NONE) {
      return bson_strdup ("");
   }
   if (!v->has_ci) {
      return v->npairs >= 2 ? bson_strdup_printf ("%d runs", v->npairs) : bson_strdup ("1 run: no spread");
   }
   /* the interval as factors the way the winner reads (b lower: a/b), low to high */
   if (v->ratio < 1.0) {
      lo = lab_results_format_factor (1.0 / v->hi);
      hi = lab_results_format_factor (1.0 / v->lo);
   } else {
      lo = lab_results_format_factor (v->lo);
      hi = lab_results_format_factor (v->hi);
   }
   s = strcmp (lo, hi) == 0 ? bson_strdup_printf ("%d runs, %s each", v->npairs, lo)
                            : bson_strdup_printf ("95%% CI %s–%s, %d runs", lo, hi, v->npairs);
   bson_free (lo);
   bson_free (hi);
   return s;
}

/* better_than -- whether median a is better than b under `better` (strictly). */
static bool
better_than (lab_better_t better, double a, double b)
{
   return better == LAB_BETTER_HIGHER ? a > b : a < b;
}

/* lab_results_rank -- see results.h. */
lab_winner_t
lab_results_rank (lab_better_t better, const lab_stat_t *st, size_t n, const lab_results_noise_t *noise,
                  lab_results_rank_t *rk)
{
   size_t i, npresent = 0;
   bool have_runner = false;

   memset (rk, 0, sizeof *rk);
   for (i = 0; i < n; i++) {
      if (st[i].present && (npresent++ == 0 || better_than (better, st[i].median, st[rk->best].median))) {
         rk->best = i;
      }
   }
   rk->runner = rk->best;
   if (better == LAB_DESCRIPTIVE || npresent < 2) {
      return LAB_WIN_NONE;
   }
   /* the runner-up: the best of the others; the pairwise rule between it and the best decides */
   for (i = 0; i < n; i++) {
      if (i != rk->best && st[i].present &&
          (!have_runner || better_than (better, st[i].median, st[rk->runner].median))) {
         rk->runner = i;
         have_runner = true;
      }
   }
   rk->decisive = lab_results_verdict (better, &st[rk->runner], &st[rk->best], noise);
   if (rk->decisive.winner == LAB_WIN_DETAIL) {
      /* the paired runs rank them the other way round from the medians: the runs decide */
      size_t t = rk->best;
      rk->best = rk->runner;
      rk->runner = t;
      rk->decisive = lab_results_verdict (better, &st[rk->runner], &st[rk->best], noise);
   }
   if (rk->decisive.winner != LAB_WIN_TIE) {
      return LAB_WIN_ONE;
   }
   for (i = 0; i < n; i++) {
      if (st[i].present &&
          (i == rk->best ||
           lab_results_verdict (better, &st[rk->best], &st[i], noise).winner == LAB_WIN_TIE)) {
         rk->tied[i] = true;
         rk->ntied++;
      }
   }
   return LAB_WIN_TIE;
}

/* lab_results_winner -- see results.h. */
lab_winner_t
lab_results_winner (lab_better_t better, const lab_stat_t *detail, const lab_stat_t *folded,
                    const lab_results_noise_t *noise, double *factor, lab_tie_t *why)
{
   lab_verdict_t v = lab_results_verdict (better, detail, folded, noise);

   if (factor) {
      *factor = v.winner == LAB_WIN_TIE ? 0.0 : v.factor;
   }
   if (why) {
      *why = v.why;
   }
   return v.winner;
}
