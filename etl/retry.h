/*
 * retry.h -- which store errors a fold range retries from its checkpoint (a failover, a restart, a
 * dropped connection) and how long it waits between tries. Pure: no store, no clock.
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

/* lab_store_error_transient -- the error may go away by itself: the server could not be reached or selected
 * (libmongoc MONGOC_ERROR_STREAM, MONGOC_ERROR_SERVER_SELECTION, or the store's LAB_STORE_ERR_UNREACHABLE,
 * into which the MongoDB backend turns both), or the server answered with a code of a failover or a
 * lost connection/cursor (HostUnreachable 6, HostNotFound 7, CursorNotFound 43, NetworkTimeout 89,
 * ShutdownInProgress 91, PrimarySteppedDown 189, ExceededTimeLimit 262, SocketException 9001,
 * NotWritablePrimary 10107, InterruptedAtShutdown 11600, InterruptedDueToReplStateChange 11602,
 * NotPrimaryNoSecondaryOk 13435, NotPrimaryOrSecondary 13436) in a server domain (MONGOC_ERROR_SERVER,
 * _QUERY, _COMMAND, _WRITE_CONCERN, _COLLECTION). The codes are those the retryable-writes spec gives the
 * RetryableWriteError label (the labels themselves do not survive into a bson_error_t). Everything else
 * (usage, a refused document, a missing index, disk full, ...) is not. */
bool lab_store_error_transient (const bson_error_t *error);

/* lab_retry_delay_ms -- the wait before try `attempt` (1-based): first_ms, doubling, at most max_ms. */
int64_t lab_retry_delay_ms (int attempt, int64_t first_ms, int64_t max_ms);

#endif
