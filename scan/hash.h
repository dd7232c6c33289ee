/*
 * hash.h -- the one 64-bit mixer scan/ hashes with (the prediction's page sampling and map, the
 * workloads' row digests and draws). Header only, pure.
 */
#ifndef LAB_SCAN_HASH_H
#define LAB_SCAN_HASH_H

#include <stdint.h>

/* lab_scan_mix64 -- splitmix64's finalizer: a 64-bit value's bits spread over all 64 (the hashes of
 * the prediction's page sampling and the workloads' row digests). */
static inline uint64_t
lab_scan_mix64 (uint64_t x)
{
   x ^= x >> 30;
   x *= 0xbf58476d1ce4e5b9ull;
   x ^= x >> 27;
   x *= 0x94d049bb133111ebull;
   x ^= x >> 31;
   return x;
}

/* lab_scan_rand64 -- splitmix64's next value of the stream *state: the draws are the same for the same
 * seed on every machine. */
static inline uint64_t
lab_scan_rand64 (uint64_t *state)
{
   *state += 0x9e3779b97f4a7c15ull;
   return lab_scan_mix64 (*state);
}

#endif
