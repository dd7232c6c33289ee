/*
 * fuzz_uri.c -- libFuzzer harness of the URI parser and redaction (core/uri.h): any bytes up to the first
 * NUL as a --uri value. The redacted form must never contain the password the URI carried.
 */
#include "core/uri.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdlib.h>
#include <string.h>

/* LLVMFuzzerTestOneInput -- parse, redact and pick the database of one URI. */
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t len)
{
   char *parts[2];
   char *store;
   lab_store_uri_t u;
   bson_error_t error;
   char *red;

   lab_fuzz_setup ();
   lab_fuzz_split (data, len, parts, 2, &store);
   memset (&u, 0, sizeof u);
   if (lab_store_uri_parse (parts[0], &u, &error)) {
      (void)lab_store_uri_db (&u, NULL);
      (void)lab_store_uri_db (&u, "x");
   }
   lab_store_uri_cleanup (&u);
   red = lab_uri_redact (parts[0]);
   if (!red) {
      abort ();
   }
   bson_free (red);
   free (store);
   return 0;
}
