/*
 * predict_wl_impute.c -- with --sample, the range trace of a layout of documents (folded, buckets, zstd)
 * run over every master: a master outside the sample takes the rows' times of a sampled master near it in
 * key order (its donor). A page of such a layout holds a few consecutive masters' documents and a window
 * touches it when any of them has a row in it: traced through the sampled masters alone it is touched too
 * seldom, and the reuse between windows with it, which no scaling of the sample's trace undoes (F = 0.1:
 * folded −19% to −63% of the measured, docs/results.md "Range with --sample"). Every page traced with the
 * union of its masters' touches needs no scaling back: the cache is the whole's, the misses the trace's.
 * Near in key order: a bill's key follows its opening, so a near master's rows span about the same time;
 * distinct donors for the masters of a page: their touches independent, as the whole's rows are.
 */
#include "scan/predict/predict_wl.h"

/* lab_scan_predict_wl_donors -- see predict_wl.h. */
void
lab_scan_predict_wl_donors (const bool *in, int64_t nkeys, int64_t *donor)
{
   const int64_t want = LAB_PREDICT_WL_DONORS;
   int64_t *traced = bson_malloc ((size_t)(nkeys > 0 ? nkeys : 1) * sizeof *traced), n = 0, k, below = 0,
           above = 0;

   for (k = 0; k < nkeys; k++) {
      if (in[k]) {
         traced[n++] = k;
      }
   }
   for (k = 0; k < nkeys; k++) {
      int64_t lo, j;
      /* traced[0..below) are at or before k - gap, traced[above..n) at or after k + gap */
      while (below < n && traced[below] <= k - LAB_PREDICT_WL_DONOR_GAP) {
         below++;
      }
      while (above < n && traced[above] < k + LAB_PREDICT_WL_DONOR_GAP) {
         above++;
      }
      if (in[k] || n == 0) {
         donor[k] = in[k] ? k : -1;
         continue;
      }
      /* `want` traced masters in a row past the gap, after k or before it by turns of `want` masters (the
       * times of the keys around k on both sides, on average), or wherever there are that many */
      lo = (k / want) % 2 == 0 ? (n - above >= want ? above : below - want)
                               : (below >= want ? below - want : above);
      if (lo < 0 || lo + want > n) {
         lo = n >= want ? (lo < 0 ? 0 : n - want) : 0;
      }
      /* the one of them whose place is k's modulo `want`: masters nearer than `want` apart, a page's, get
       * different ones, even where the run moves between them */
      j = n >= want ? lo + ((k - lo) % want + want) % want : k % n;
      donor[k] = traced[j];
   }
   bson_free (traced);
}
