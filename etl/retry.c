/*
 * retry.c -- the backoff of fold ranges (see retry.h); which errors are transient is the store's
 * (lab_store_error_transient).
 */
#include "retry.h"

/* lab_fold_retry_delay_ms -- see retry.h. */
int64_t
lab_fold_retry_delay_ms (int attempt, int64_t first_ms, int64_t max_ms)
{
   int64_t d = first_ms;
   int i;

   for (i = 1; i < attempt && d < max_ms; i++) {
      d *= 2;
   }
   return d < max_ms ? d : max_ms;
}
