/*
 * wl_mix_stream.c -- the user's mix, its pure parts (wl_mix.h): the --mix value, the counts per type, the
 * interleaved stream drawn from the seed.
 */
#include "scan/hash.h"
#include "scan/mix/wl_mix.h"

#include "core/error.h"
#include "core/mix_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* lab_scan_mix_parse -- see wl_mix.h. */
bool
lab_scan_mix_parse (const char *s, double *weight, bson_error_t *error)
{
   return lab_mix_spec_parse ("--mix", s, weight, error);
}

/* lab_scan_mix_parse_opt -- see wl_mix.h. */
bool
lab_scan_mix_parse_opt (const char *value, void *field, const char *name, bson_error_t *error)
{
   (void)name;
   return lab_scan_mix_parse (value, field, error);
}

/* lab_scan_mix_on -- see wl_mix.h. */
bool
lab_scan_mix_on (const lab_scan_opts_t *o)
{
   int k;

   for (k = 0; k < LAB_WL_NKINDS; k++) {
      if (o->wl.mix_weight[k] > 0) {
         return true;
      }
   }
   return false;
}

/* lab_scan_mix_spec_text -- see wl_mix.h. */
void
lab_scan_mix_spec_text (const double *weight, char *buf, size_t len)
{
   lab_mix_spec_text (weight, buf, len);
}

/* lab_scan_mix_counts -- see wl_mix.h (largest remainders). n w_t is exact in a double for whole weights
 * up to 1e6 and n up to 1e9, so whole weights share out exactly as in integers; the floor is corrected
 * against the product so a quotient rounded up never gives one too many. */
void
lab_scan_mix_counts (const double *weight, int64_t n, int64_t *count)
{
   double sum = 0, rem[LAB_WL_NKINDS];
   int64_t given = 0;
   int k;

   for (k = 0; k < LAB_WL_NKINDS; k++) {
      sum += weight[k] > 0 ? weight[k] : 0;
   }
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      double q = weight[k] > 0 ? (double)n * weight[k] : 0, c = sum > 0 ? floor (q / sum) : 0;

      while (c > 0 && c * sum > q) {
         c--;
      }
      while (sum > 0 && (c + 1) * sum <= q) {
         c++;
      }
      count[k] = (int64_t)c;
      rem[k] = q - c * sum;
      given += count[k];
   }
   while (sum > 0 && given < n) {
      int best = -1;
      for (k = 0; k < LAB_WL_NKINDS; k++) {
         if (weight[k] > 0 && rem[k] >= 0 && (best < 0 || rem[k] > rem[best])) {
            best = k;
         }
      }
      if (best < 0) {
         break; /* only when rounding left more than one extra per type: cannot happen for n <= 1e9 */
      }
      count[best]++;
      rem[best] = -1; /* one extra each at most */
      given++;
   }
}

/* lab_scan_mix_stream_make -- see wl_mix.h. */
void
lab_scan_mix_stream_make (const double *weight, int64_t n, uint64_t seed, lab_scan_mix_stream_t *s)
{
   uint64_t rng = seed ^ 0x6d69787374726dull; /* "mixstrm" */
   int64_t i, at = 0, seen[LAB_WL_NKINDS] = { 0 };
   int k;

   memset (s, 0, sizeof *s);
   s->n = n;
   s->type = bson_malloc0 ((size_t)n + 1);
   s->index = bson_malloc0 (((size_t)n + 1) * sizeof *s->index);
   lab_scan_mix_counts (weight, n, s->count);
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      for (i = 0; i < s->count[k]; i++) {
         s->type[at++] = (uint8_t)k;
      }
   }
   for (i = n - 1; i > 0; i--) {
      int64_t j = (int64_t)(lab_scan_rand64 (&rng) % (uint64_t)(i + 1));
      uint8_t t = s->type[i];
      s->type[i] = s->type[j];
      s->type[j] = t;
   }
   for (i = 0; i < n; i++) {
      s->index[i] = seen[s->type[i]]++;
   }
}

/* lab_scan_mix_stream_cleanup -- see wl_mix.h. */
void
lab_scan_mix_stream_cleanup (lab_scan_mix_stream_t *s)
{
   bson_free (s->type);
   bson_free (s->index);
   memset (s, 0, sizeof *s);
}
