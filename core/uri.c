/*
 * uri.c -- the default URI and masking credentials before anything is printed (parsing a URI into a
 * backend is the store's: store/store_uri.c).
 */
#include "uri.h"

#include <stdlib.h>
#include <string.h>

const char *
lab_uri_default (void)
{
   const char *env = getenv ("LAYOUTLAB_URI");
   return env && *env ? env : LAB_URI_DEFAULT;
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
