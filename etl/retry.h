/*
 * retry.h -- how often and how long a fold range waits before it retries from its checkpoint after a
 * transient store error (lab_store_error_transient: a failover, a restart, a dropped connection). Pure:
 * no store, no clock.
 */
#ifndef LAB_ETL_RETRY_H
#define LAB_ETL_RETRY_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

/* Default tries after the first failure, first delay and the cap on one delay. */
#define LAB_RETRY_DEFAULT_TRIES 5
#define LAB_RETRY_FIRST_DELAY_MS 1000
#define LAB_RETRY_MAX_DELAY_MS 16000

/* lab_fold_retry_delay_ms -- the wait before try `attempt` (1-based): first_ms, doubling, at most max_ms. */
int64_t lab_fold_retry_delay_ms (int attempt, int64_t first_ms, int64_t max_ms);

#endif
