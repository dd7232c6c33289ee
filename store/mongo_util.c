/*
 * mongo_util.c -- what every file of the MongoDB backend shares (mongo_private.h): fields at dotted
 * paths of a reply, the classification of libmongoc's errors, their translation with context
 * (lab_mongo_fail) and a session's collection handles. Calls nothing else of the backend, so the
 * backend's files call down to it.
 */
#include "mongo_private.h"

#include "core/error.h"

#include <mongoc/mongoc.h>
#include <stdarg.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------------------------------- */

/* lab_mongo_num_at -- a numeric field (int32/int64/double/bool) at a dotted path, or `dflt`. */
int64_t
lab_mongo_num_at (const bson_t *doc, const char *path, int64_t dflt)
{
   bson_iter_t it, child;

   if (!doc || !bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &child)) {
      return dflt;
   }
   switch (bson_iter_type (&child)) {
   case BSON_TYPE_INT32:
   case BSON_TYPE_INT64:
   case BSON_TYPE_DOUBLE:
   case BSON_TYPE_BOOL:
      return bson_iter_as_int64 (&child);
   default:
      return dflt;
   }
}

/* lab_mongo_dbl_at -- like lab_mongo_num_at, keeping fractions. */
double
lab_mongo_dbl_at (const bson_t *doc, const char *path, double dflt)
{
   bson_iter_t it, child;

   if (!doc || !bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &child)) {
      return dflt;
   }
   switch (bson_iter_type (&child)) {
   case BSON_TYPE_INT32:
      return bson_iter_int32 (&child);
   case BSON_TYPE_INT64:
      return (double)bson_iter_int64 (&child);
   case BSON_TYPE_DOUBLE:
      return bson_iter_double (&child);
   default:
      return dflt;
   }
}

/* lab_mongo_str_at -- a string field at a dotted path, or NULL. */
const char *
lab_mongo_str_at (const bson_t *doc, const char *path)
{
   bson_iter_t it, child;

   if (!doc || !bson_iter_init (&it, doc) || !bson_iter_find_descendant (&it, path, &child) ||
       !BSON_ITER_HOLDS_UTF8 (&child)) {
      return NULL;
   }
   return bson_iter_utf8 (&child, NULL);
}

/* lab_mongo_server_code_is -- the error came from the server with this code. */
bool
lab_mongo_server_code_is (const bson_error_t *e, uint32_t code)
{
   return (e->domain == MONGOC_ERROR_SERVER || e->domain == MONGOC_ERROR_QUERY ||
           e->domain == MONGOC_ERROR_COMMAND || e->domain == MONGOC_ERROR_COLLECTION) &&
          e->code == code;
}

/* lab_mongo_is_unreachable -- the error says the server could not be reached (selection, network). */
bool
lab_mongo_is_unreachable (const bson_error_t *e)
{
   return e->domain == MONGOC_ERROR_SERVER_SELECTION || e->domain == MONGOC_ERROR_STREAM;
}

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

/* lab_store_error_transient -- see store.h. */
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
   if (lab_mongo_is_unreachable (error)) {
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

/* lab_mongo_fail -- copy mongoc's error into *error with context "<what> (<uri>)"; selection and network
 * errors become LAB_STORE_ERR_UNREACHABLE so callers can tell a dead server from a refused operation. */
void
lab_mongo_fail (lab_store_t *store, bson_error_t *error, const bson_error_t *cause, const char *fmt, ...)
{
   char what[256];
   va_list ap;

   va_start (ap, fmt);
   bson_vsnprintf (what, sizeof what, fmt, ap);
   va_end (ap);
   if (!error) {
      return;
   }
   if (lab_mongo_is_unreachable (cause)) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_UNREACHABLE,
                     "%s: cannot reach the MongoDB server at %s: %s (is it running? check host, port and "
                     "network, or raise the timeout)",
                     what, store->uri_redacted, cause->message);
      return;
   }
   lab_error_set (error, cause->domain, cause->code, "%s on %s: %s", what, store->uri_redacted,
                  cause->message);
}

/* lab_mongo_get_coll -- a collection handle of the session's client (caller destroys). */
mongoc_collection_t *
lab_mongo_get_coll (lab_store_session_t *sess, const char *coll)
{
   return mongoc_client_get_collection (msess (sess)->client, sess->store->db, coll);
}
