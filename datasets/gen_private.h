/*
 * gen_private.h -- what gen.c and gen_params.c share (not part of the generator's interface): the
 * random streams (xoshiro256** seeded through splitmix64), the distributions' constants and arithmetic.
 */
#pragma once

#include "datasets/gen.h"

#include <stdint.h>

#define NELEM(a) (sizeof (a) / sizeof ((a)[0]))

#define MS_PER_DAY 86400000.0
#define ZIPF_EXACT_ROWS 2000 /* zipf: exact table up to here, continuous tail beyond */
#define LOGN_EXACT_ROWS 2000 /* lognormal calibration: exact sum up to here, integral beyond */

/* ---- random numbers ---------------------------------------------------------------------------- */

typedef struct {
   uint64_t s[4];
} rng_t;

/* splitmix64 -- one step of splitmix64 (seeds the xoshiro state, hashes small values). */
static inline uint64_t
splitmix64 (uint64_t *x)
{
   uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
   return z ^ (z >> 31);
}

/* rng_seed -- seed a stream from a 64-bit value and a stream number. */
static inline void
rng_seed (rng_t *r, uint64_t seed, uint64_t stream)
{
   uint64_t x = seed ^ (stream * 0xD1342543DE82EF95ull) ^ 0x6A09E667F3BCC909ull;
   for (int i = 0; i < 4; i++) {
      r->s[i] = splitmix64 (&x);
   }
}

static inline uint64_t
rotl (uint64_t x, int k)
{
   return (x << k) | (x >> (64 - k));
}

/* rng_u64 -- xoshiro256** next value. */
static inline uint64_t
rng_u64 (rng_t *r)
{
   uint64_t *s = r->s;
   uint64_t result = rotl (s[1] * 5, 7) * 9;
   uint64_t t = s[1] << 17;
   s[2] ^= s[0];
   s[3] ^= s[1];
   s[1] ^= s[2];
   s[0] ^= s[3];
   s[2] ^= t;
   s[3] = rotl (s[3], 45);
   return result;
}

/* rng_unit -- uniform double in [0, 1). */
static inline double
rng_unit (rng_t *r)
{
   return (double)(rng_u64 (r) >> 11) * 0x1.0p-53;
}

/* rng_open_unit -- uniform double in (0, 1). */
static inline double
rng_open_unit (rng_t *r)
{
   return ((double)(rng_u64 (r) >> 11) + 0.5) * 0x1.0p-53;
}

/* rng_below -- uniform integer in [0, n) (n > 0), without modulo bias worth mentioning for small n. */
static inline uint64_t
rng_below (rng_t *r, uint64_t n)
{
   return (uint64_t)(((unsigned __int128)rng_u64 (r) * n) >> 64);
}

/* lab_gen_logn_clipped_mean -- E[clip(round(X), 1, M)] = 1 + sum_{k=1}^{M-1} P(X >= k + 1/2): exact terms up
 * to LOGN_EXACT_ROWS, the (smooth) rest by the integral of the survival function (midpoint rule). */
double lab_gen_logn_clipped_mean (double mu, double sigma, int64_t max_rows);

/* lab_gen_zipf_weights -- total weight of the exact part (k <= exact) and the continuous tail for exponent s.
 */
void lab_gen_zipf_weights (double s, int64_t max_rows, int64_t exact, double *w_exact, double *w_tail,
                           double *mean);
