/*
 * store_uri.c -- parsing a layoutlab URI into its backend (store.h): `wiredtiger:DIR` by hand, a MongoDB
 * URI by libmongoc, so a URI libmongoc refuses is refused before any connection.
 */
#include "store.h"

#include "core/error.h"

#include <mongoc/mongoc.h>
#include <string.h>

/* lab_store_uri_parse -- `wiredtiger:DIR`, `mongodb://...`, `mongodb+srv://...`; anything else is refused. */
bool
lab_store_uri_parse (const char *s, lab_store_uri_t *out, bson_error_t *error)
{
   memset (out, 0, sizeof *out);
   if (!s || !*s) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_URI,
                     "empty URI: use wiredtiger:DIR or mongodb://host[:port]/[db]");
      return false;
   }
   if (strncmp (s, "wiredtiger:", 11) == 0) {
      const char *dir = s + 11;
      if (strncmp (dir, "//", 2) == 0) {
         dir += 2; /* tolerate wiredtiger://DIR */
      }
      if (!*dir) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_URI,
                        "URI '%s' names no directory: use wiredtiger:DIR, e.g. wiredtiger:./layoutlab-data",
                        s);
         return false;
      }
      out->backend = LAB_BACKEND_WT;
      out->uri = bson_strdup (s);
      out->wt_home = bson_strdup (dir);
      return true;
   }
   if (strncmp (s, "mongodb://", 10) == 0 || strncmp (s, "mongodb+srv://", 14) == 0) {
      bson_error_t uerr;
      mongoc_uri_t *mu = mongoc_uri_new_with_error (s, &uerr);
      char *red;

      if (!mu) {
         red = lab_uri_redact (s);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_URI, "cannot parse URI '%s': %s", red,
                        uerr.message);
         bson_free (red);
         return false;
      }
      out->backend = LAB_BACKEND_MONGO;
      out->uri = bson_strdup (s);
      if (mongoc_uri_get_database (mu) && *mongoc_uri_get_database (mu)) {
         out->uri_db = bson_strdup (mongoc_uri_get_database (mu));
      }
      mongoc_uri_destroy (mu);
      return true;
   }
   {
      char *red = lab_uri_redact (s);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_URI,
                     "unknown URI scheme in '%s': use wiredtiger:DIR, mongodb:// or mongodb+srv://", red);
      bson_free (red);
   }
   return false;
}

void
lab_store_uri_cleanup (lab_store_uri_t *u)
{
   if (!u) {
      return;
   }
   bson_free (u->uri);
   bson_free (u->wt_home);
   bson_free (u->uri_db);
   memset (u, 0, sizeof *u);
}

const char *
lab_store_uri_db (const lab_store_uri_t *u, const char *opt_db)
{
   if (opt_db && *opt_db) {
      return opt_db;
   }
   if (u && u->uri_db) {
      return u->uri_db;
   }
   return LAB_DB_DEFAULT;
}
