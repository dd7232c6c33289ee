/*
 * uri.c -- parsing layoutlab URIs and masking credentials before anything is printed.
 */
#include "uri.h"

#include "error.h"

#include <mongoc/mongoc.h>
#include <stdlib.h>
#include <string.h>

const char *
lab_uri_default (void)
{
   const char *env = getenv ("LAYOUTLAB_URI");
   return env && *env ? env : LAB_URI_DEFAULT;
}

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

/* mask_query_secret -- replace the value of `name=` options (case-insensitive) with ***. */
static void
mask_query_secret (bson_string_t *out, const char *s)
{
   static const char *const secrets[] = { "password=", "authmechanismproperties=",
                                          "tlscertificatekeyfilepassword=",
                                          "sslclientcertificatekeypassword=", NULL };
   const char *p = s;

   while (*p) {
      int k;
      bool masked = false;

      if (p == s || p[-1] == '?' || p[-1] == '&' || p[-1] == ';') {
         for (k = 0; secrets[k]; k++) {
            size_t n = strlen (secrets[k]);
            if (strncasecmp (p, secrets[k], n) == 0) {
               bson_string_append_printf (out, "%.*s***", (int)n, p);
               p += n;
               while (*p && *p != '&' && *p != ';') {
                  p++;
               }
               masked = true;
               break;
            }
         }
      }
      if (!masked) {
         bson_string_append_c (out, *p);
         p++;
      }
   }
}

/* lab_uri_redact -- mask the userinfo of the authority and secret query options. */
char *
lab_uri_redact (const char *s)
{
   bson_string_t *out;
   const char *scheme_end, *auth, *auth_end, *at = NULL, *p;

   if (!s) {
      return bson_strdup ("(null)");
   }
   out = bson_string_new (NULL);
   scheme_end = strstr (s, "://");
   if (!scheme_end) {
      bson_string_append (out, s);
      return bson_string_free (out, false);
   }
   auth = scheme_end + 3;
   auth_end = auth + strcspn (auth, "/?");
   for (p = auth; p < auth_end; p++) {
      if (*p == '@') {
         at = p; /* the last '@' of the authority ends the userinfo */
      }
   }
   if (at) {
      bson_string_append_printf (out, "%.*s***@", (int)(auth - s), s);
      auth = at + 1;
   } else {
      bson_string_append_printf (out, "%.*s", (int)(auth - s), s);
   }
   mask_query_secret (out, auth);
   return bson_string_free (out, false);
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
