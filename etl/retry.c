/*
 * retry.c -- the transient-error classification and the backoff of fold ranges (see retry.h).
 */
#include "retry.h"

#include "core/error.h"

#include <mongoc/mongoc.h>

/* Server codes after which the same read or write succeeds once the cluster settles
 * (src/mongo/base/error_codes.yml; the retryable-writes spec's RetryableWriteError list). */
static const uint32_t transient_codes[] = {
   6,     /* HostUnreachable */
   7,     /* HostNotFound */
   43,    /* CursorNotFound: the cursor died with its server or connection; the range restarts it */
   89,    /* NetworkTimeout */
   91,    /* ShutdownInProgress */
   189,   /* PrimarySteppedDown */
   262,   /* ExceededTimeLimit */
   9001,  /* SocketException */
   10107, /* NotWritablePrimary (NotMaster) */
   11600, /* InterruptedAtShutdown */
   11602, /* InterruptedDueToReplStateChange */
   13435, /* NotPrimaryNoSecondaryOk */
   13436, /* NotPrimaryOrSecondary */
};

/* lab_store_error_transient -- see retry.h. */
bool
lab_store_error_transient (const bson_error_t *error)
{
   size_t i;

   if (!error) {
      return false;
   }
   if (error->domain == LAB_ERROR_STORE) {
      return error->code == LAB_STORE_ERR_UNREACHABLE;
   }
   if (error->domain == MONGOC_ERROR_STREAM || error->domain == MONGOC_ERROR_SERVER_SELECTION) {
      return true;
   }
   if (error->domain != MONGOC_ERROR_SERVER && error->domain != MONGOC_ERROR_QUERY &&
       error->domain != MONGOC_ERROR_COMMAND && error->domain != MONGOC_ERROR_WRITE_CONCERN &&
       error->domain != MONGOC_ERROR_COLLECTION) {
      return false;
   }
   for (i = 0; i < sizeof transient_codes / sizeof transient_codes[0]; i++) {
      if (error->code == transient_codes[i]) {
         return true;
      }
   }
   return false;
}

/* lab_retry_delay_ms -- see retry.h. */
int64_t
lab_retry_delay_ms (int attempt, int64_t first_ms, int64_t max_ms)
{
   int64_t d = first_ms;
   int i;

   for (i = 1; i < attempt && d < max_ms; i++) {
      d *= 2;
   }
   return d < max_ms ? d : max_ms;
}
