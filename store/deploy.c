/*
 * deploy.c -- the deployment behind a MongoDB store (deploy.h): admin commands, hello (isMaster on
 * servers without it) and listShards through the store's generic command call, and the URIs of direct
 * connections to a shard or its primary built with libmongoc's URI parser, so that no tool needs it.
 */
#include "deploy.h"

#include "core/error.h"

#include <mongoc/mongoc.h>
#include <string.h>

/* ---- commands ------------------------------------------------------------------------------------ */

/* lab_store_admin_simple -- see deploy.h. */
bool
lab_store_admin_simple (lab_store_t *store, const char *name, bson_t *reply, bson_error_t *error)
{
   bson_t cmd = BSON_INITIALIZER;
   bool ok;

   BSON_APPEND_INT32 (&cmd, name, 1);
   ok = lab_store_command_simple (store, "admin", &cmd, reply, error);
   bson_destroy (&cmd);
   return ok;
}

/* lab_store_hello -- see deploy.h. */
bool
lab_store_hello (lab_store_t *store, bson_t *reply, bson_error_t *error)
{
   bson_error_t err;

   if (lab_store_admin_simple (store, "hello", reply, &err)) {
      return true;
   }
   bson_destroy (reply);
   return lab_store_admin_simple (store, "isMaster", reply, error);
}

/* lab_store_list_shards -- see deploy.h. */
bool
lab_store_list_shards (lab_store_t *store, lab_store_facts_shards_t *shards, bson_error_t *error)
{
   bson_t reply;
   bool ok = false;

   memset (shards, 0, sizeof *shards);
   if (!lab_store_admin_simple (store, "listShards", &reply, error)) {
      lab_error_prefix (error, "listShards through mongos %s (the user needs the clusterMonitor role)",
                        lab_store_uri_redacted (store));
      goto done;
   }
   if (!lab_store_facts_shards_from_list (&reply, shards, error)) {
      lab_error_prefix (error, "listShards reply");
      goto done;
   }
   ok = true;
done:
   bson_destroy (&reply);
   return ok;
}

/* ---- direct URIs --------------------------------------------------------------------------------- */

/* The router URI's options a direct connection to a shard keeps (docs/mongodb-compat.md, "Shard URIs"):
 * TLS (the shard speaks the cluster's TLS), timeouts (the user's patience, e.g. for a failover),
 * compression and retries. Credentials, appName and compressors are carried separately. Not kept:
 * replicaSet, directConnection (the shard's own), readPreference/readPreferenceTags/maxStalenessSeconds
 * (the connection is direct to one member), loadBalanced, srvServiceName/srvMaxHosts, w/journal/
 * wtimeoutMS/readConcernLevel (the shard connection only reads statistics), pool sizes, localThresholdMS. */
static const char *const carried_options[] = {
   MONGOC_URI_TLS,
   MONGOC_URI_TLSCAFILE,
   MONGOC_URI_TLSCERTIFICATEKEYFILE,
   MONGOC_URI_TLSCERTIFICATEKEYFILEPASSWORD,
   MONGOC_URI_TLSALLOWINVALIDCERTIFICATES,
   MONGOC_URI_TLSALLOWINVALIDHOSTNAMES,
   MONGOC_URI_TLSINSECURE,
   MONGOC_URI_TLSDISABLEOCSPENDPOINTCHECK,
   MONGOC_URI_TLSDISABLECERTIFICATEREVOCATIONCHECK,
   MONGOC_URI_CONNECTTIMEOUTMS,
   MONGOC_URI_SOCKETTIMEOUTMS,
   MONGOC_URI_SERVERSELECTIONTIMEOUTMS,
   MONGOC_URI_SERVERSELECTIONTRYONCE,
   MONGOC_URI_HEARTBEATFREQUENCYMS,
   MONGOC_URI_SOCKETCHECKINTERVALMS,
   MONGOC_URI_ZLIBCOMPRESSIONLEVEL,
   MONGOC_URI_RETRYREADS,
   MONGOC_URI_RETRYWRITES,
   NULL,
};

/* append_enc -- s, percent-encoded (RFC 3986 unreserved characters kept). */
static void
append_enc (bson_string_t *out, const char *s)
{
   static const char hex[] = "0123456789ABCDEF";
   const unsigned char *p;

   for (p = (const unsigned char *)s; *p; p++) {
      if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' ||
          *p == '.' || *p == '_' || *p == '~') {
         bson_string_append_c (out, (char)*p);
      } else {
         bson_string_append_c (out, '%');
         bson_string_append_c (out, hex[*p >> 4]);
         bson_string_append_c (out, hex[*p & 15]);
      }
   }
}

/* append_opt -- "&name=" + the encoded value. */
static void
append_opt (bson_string_t *out, const char *name, const char *value)
{
   bson_string_append_printf (out, "&%s=", name);
   append_enc (out, value);
}

/* append_auth_options -- the auth options (user:password@ goes before the host, lab_store_direct_uri):
 * authSource as libmongoc resolves it for the router URI (explicit, else per mechanism, else the URI's
 * database, else admin: the shard URI has no database to fall back on), authMechanism and its
 * properties. Nothing without a user name or a mechanism.
 *
 * The properties are written KEY:VALUE,KEY:VALUE in the order libmongoc read them, keys and values
 * percent-encoded (',' and ':' included, as the connection string spec asks). libmongoc 1.23 decodes
 * the whole option value before splitting it (mongoc-uri.c: mongoc_uri_split_option, then
 * mongoc_uri_parse_auth_mechanism_properties), so the encoding protects only '&', '%' and the like; a
 * ',' or ':' inside a value comes through because the router's value was split the same way: a value
 * holding a ':' before any ',' ran to the end of the router's string, and staying last it does here too
 * (tests/scan/test_scan_unit.c, test_direct_uri, pins each case). */
static void
append_auth_options (bson_string_t *out, const mongoc_uri_t *ru)
{
   const char *mech = mongoc_uri_get_auth_mechanism (ru);
   bson_t props;
   bson_iter_t it;
   bool first = true;

   if (!mongoc_uri_get_username (ru) && !mech) {
      return;
   }
   append_opt (out, "authSource", mongoc_uri_get_auth_source (ru));
   if (mech) {
      append_opt (out, "authMechanism", mech);
   }
   if (mongoc_uri_get_mechanism_properties (ru, &props)) {
      if (bson_iter_init (&it, &props)) {
         while (bson_iter_next (&it)) {
            if (!BSON_ITER_HOLDS_UTF8 (&it)) {
               continue;
            }
            bson_string_append (out, first ? "&authMechanismProperties=" : ",");
            append_enc (out, bson_iter_key (&it));
            bson_string_append_c (out, ':');
            append_enc (out, bson_iter_utf8 (&it, NULL));
            first = false;
         }
      }
      bson_destroy (&props);
   }
}

/* append_carried -- the carried_options the router URI sets (typed as libmongoc types them), appName and
 * compressors. TLS also when libmongoc turned it on implicitly (mongodb+srv://). */
static void
append_carried (bson_string_t *out, const mongoc_uri_t *ru)
{
   const char *const *k;
   const char *v;
   bson_iter_t it;
   bool first = true;

   for (k = carried_options; *k; k++) {
      if (strcmp (*k, MONGOC_URI_TLS) == 0) {
         if (mongoc_uri_get_tls (ru)) {
            bson_string_append (out, "&tls=true");
         }
         continue;
      }
      if (!mongoc_uri_has_option (ru, *k)) {
         continue;
      }
      if (mongoc_uri_option_is_bool (*k)) {
         bson_string_append_printf (out, "&%s=%s", *k,
                                    mongoc_uri_get_option_as_bool (ru, *k, false) ? "true" : "false");
      } else if (mongoc_uri_option_is_int32 (*k)) {
         bson_string_append_printf (out, "&%s=%d", *k, (int)mongoc_uri_get_option_as_int32 (ru, *k, 0));
      } else if (mongoc_uri_option_is_int64 (*k)) {
         bson_string_append_printf (out, "&%s=%lld", *k,
                                    (long long)mongoc_uri_get_option_as_int64 (ru, *k, 0));
      } else if ((v = mongoc_uri_get_option_as_utf8 (ru, *k, NULL))) {
         append_opt (out, *k, v);
      }
   }
   if ((v = mongoc_uri_get_appname (ru))) {
      append_opt (out, "appName", v);
   }
   if (mongoc_uri_get_compressors (ru) && bson_iter_init (&it, mongoc_uri_get_compressors (ru))) {
      while (bson_iter_next (&it)) {
         bson_string_append (out, first ? "&compressors=" : ",");
         append_enc (out, bson_iter_key (&it));
         first = false;
      }
   }
}

/* lab_store_direct_uri -- see deploy.h. */
char *
lab_store_direct_uri (const char *router_uri, const char *host, int port, bson_error_t *error)
{
   mongoc_uri_t *ru = NULL;
   bson_string_t *out;
   bson_error_t perr;
   const char *user = NULL, *pass = NULL;

   if (router_uri &&
       (strncmp (router_uri, "mongodb://", 10) == 0 || strncmp (router_uri, "mongodb+srv://", 14) == 0)) {
      ru = mongoc_uri_new_with_error (router_uri, &perr);
      if (!ru) {
         lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_TOPOLOGY, "the router URI does not parse: %s",
                        perr.message);
         return NULL;
      }
      user = mongoc_uri_get_username (ru);
      pass = mongoc_uri_get_password (ru);
   }
   out = bson_string_new ("mongodb://");
   if (user) {
      append_enc (out, user);
      if (pass) {
         bson_string_append_c (out, ':');
         append_enc (out, pass);
      }
      bson_string_append_c (out, '@');
   }
   bson_string_append_printf (out, strchr (host, ':') ? "[%s]:%d" : "%s:%d", host, port);
   bson_string_append (out, "/?directConnection=true");
   if (ru) {
      append_auth_options (out, ru);
      append_carried (out, ru);
      mongoc_uri_destroy (ru);
   }
   return bson_string_free (out, false);
}

/* lab_store_primary_uri -- see deploy.h. */
bool
lab_store_primary_uri (const char *shard_uri, const bson_t *hello, char **out, bson_error_t *error)
{
   lab_store_facts_topology_t ft;
   lab_store_facts_hostport_t *seeds = NULL;
   char *set = NULL;
   size_t nseeds = 0;
   bool ok = false;

   *out = NULL;
   if (!lab_store_facts_topology_from_hello (hello, &ft, error)) {
      goto done;
   }
   if (ft.kind != LAB_TOPO_REPLSET || ft.is_writable_primary || !ft.primary[0] ||
       (ft.me[0] && strcmp (ft.me, ft.primary) == 0)) {
      ok = true; /* this member is the one to follow (or no other is known) */
      goto done;
   }
   if (!lab_store_facts_parse_seed_list (ft.primary, &set, &seeds, &nseeds, error)) {
      lab_error_prefix (error, "the primary a shard member names ('%s')", ft.primary);
      goto done;
   }
   *out = lab_store_direct_uri (shard_uri, seeds[0].host, (int)seeds[0].port, error);
   ok = *out != NULL;
done:
   lab_store_facts_topology_cleanup (&ft);
   bson_free (set);
   bson_free (seeds);
   return ok;
}

/* lab_store_error_auth -- see deploy.h. */
bool
lab_store_error_auth (const bson_error_t *e)
{
   return (e->domain == MONGOC_ERROR_CLIENT && e->code == MONGOC_ERROR_CLIENT_AUTHENTICATE) ||
          ((e->domain == MONGOC_ERROR_SERVER || e->domain == MONGOC_ERROR_QUERY ||
            e->domain == MONGOC_ERROR_COMMAND) &&
           e->code == 18);
}
