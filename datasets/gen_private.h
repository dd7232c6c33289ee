/*
 * gen_private.h -- what the generator's files share (not part of the generator's interface): the random
 * streams (xoshiro256** seeded through splitmix64), the generator's state, the distributions (gen_dist.c)
 * and a bill's content (gen_content.c), both used by gen.c and using nothing of it.
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

/* ---- the generator's state ---------------------------------------------------------------------- */

#define LAB_GEN_N_ITEMS 52       /* entries of gen_content.c's charge catalogue */
#define LAB_GEN_MASTER_BYTES 448 /* a bill's encoded master fields, at most (bill_t.master) */
#define LAB_GEN_N_INSURANCE 7    /* entries of its insurance table */

typedef struct {
   int64_t idx;
   rng_t rng;
   int32_t rows;
   int32_t next_line; /* 1-based line of the next row */
   bool oversize;
   int64_t admit_ms;
   int64_t stay_ms;
   double u; /* last sorted uniform position within the stay */
   int64_t next_charge_ms;
   int64_t bill_id;
   char key_str[24]; /* LAB_GEN_KEY_STRING: lab_gen_key_string (bill_id) */
   char patient_id[24];
   char patient_name[32];
   int32_t age;
   int hospital;
   const char *department;
   const char *insurance;
   /* the master fields' BSON elements, encoded once for every row of the bill (a document of master_len
    * bytes; 0: not yet; UINT32_MAX: too long for the buffer, appended field by field) */
   uint32_t master_len;
   uint8_t master[LAB_GEN_MASTER_BYTES];
} bill_t;

struct lab_gen {
   lab_gen_params_t p;
   char *key;
   double logn_mu;
   double zipf_s;
   double *zipf_cdf;    /* exact part, cumulative weights for k = 1..zipf_exact */
   int64_t zipf_exact;  /* rows covered by the table */
   double zipf_exact_w; /* total weight of the exact part */
   double zipf_tail_w;  /* total weight of the continuous tail */
   int64_t total_bills;
   int64_t total_rows;
   int64_t oversize_rows;
   int64_t *oversize_idx; /* sorted bill indexes of oversize bills */
   int32_t *fixed_rows;   /* total_rows given: every bill's rescaled row count (else NULL) */
   double interarrival_ms;
   double item_cum[LAB_GEN_N_ITEMS];
   bson_t *item_doc[LAB_GEN_N_ITEMS]; /* each catalogue entry's row fields as BSON elements, encoded once */
   int insurance_cum[LAB_GEN_N_INSURANCE];
   uint64_t oid_process; /* 5 "process" bytes of every _id */
   uint32_t oid_counter0;
   /* state */
   rng_t arrival;
   int64_t next_admit_idx;
   double next_admit_ms;
   int64_t seq; /* rows emitted */
   bill_t **heap;
   int64_t heap_len, heap_cap;
   int64_t heap_peak;
   bill_t *current; /* clustered: the bill being emitted */
};

/* ---- the row-count distributions (gen_dist.c) --------------------------------------------------- */

/* lab_gen_logn_clipped_mean -- E[clip(round(X), 1, M)] = 1 + sum_{k=1}^{M-1} P(X >= k + 1/2): exact terms up
 * to LOGN_EXACT_ROWS, the (smooth) rest by the integral of the survival function (midpoint rule). */
double lab_gen_logn_clipped_mean (double mu, double sigma, int64_t max_rows);

/* lab_gen_zipf_weights -- total weight of the exact part (k <= exact) and the continuous tail for exponent s.
 */
void lab_gen_zipf_weights (double s, int64_t max_rows, int64_t exact, double *w_exact, double *w_tail,
                           double *mean);

/* lab_gen_dist_calibrate -- fit the distribution's free parameter to the requested mean. */
bool lab_gen_dist_calibrate (lab_gen_t *g, bson_error_t *error);

/* lab_gen_dist_draw_rows -- the bill's row count: always exactly one draw from the bill stream. */
int64_t lab_gen_dist_draw_rows (const lab_gen_t *g, rng_t *r);

/* ---- a bill's content (gen_content.c) ----------------------------------------------------------- */

/* lab_gen_content_init -- the catalogue's and the insurance table's cumulative weights. */
void lab_gen_content_init (lab_gen_t *g);

/* lab_gen_bill_master -- draw bill b's master fields from its stream, after its sizes. */
void lab_gen_bill_master (const lab_gen_t *g, bill_t *b, int64_t admit_ms);

/* lab_gen_row_append -- build row `b->next_line` of bill b into doc (NULL: only the row's draws). */
void lab_gen_row_append (lab_gen_t *g, bill_t *b, bson_t *doc);
