/*
 * wt_cachefoot.c -- what the engine cache holds of a collection and of its key index (the tables' own
 * statistics, statistics=(fast): no tree walk), the key index's size on disk, and the eviction thresholds
 * the connection runs with: the measured capacity of the prediction (scan/predict/predict_probe.c).
 */
#include "wt_private.h"

#include "core/error.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* WiredTiger 3.2.1's defaults, which conn_config does not override. */
#define WT_DEFAULT_EVICTION_TARGET 80.0
#define WT_DEFAULT_EVICTION_TRIGGER 95.0

/* table_stat -- one of a table's own statistics, by the table's uri (lab_wt_dsrc_stat). */
static bool
table_stat (WT_SESSION *s, const char *uri, int key, int64_t *v, bson_error_t *error)
{
   char *stat_uri = bson_strdup_printf ("statistics:%s", uri);
   bool ok = lab_wt_dsrc_stat (s, stat_uri, key, v, error);

   bson_free (stat_uri);
   return ok;
}

/* config_percent -- the value of `name=` in the connection's configuration string; false when absent. */
static bool
config_percent (const char *config, const char *name, double *v)
{
   const char *p = config ? strstr (config, name) : NULL;

   if (!p) {
      return false;
   }
   *v = strtod (p + strlen (name), NULL);
   return *v > 0;
}

/* lab_wt_cache_footprint -- see store.h (lab_store_cache_footprint). */
bool
lab_wt_cache_footprint (lab_store_session_t *sess, const char *coll, const char *key,
                        lab_store_cache_foot_t *out, bson_error_t *error)
{
   wt_sess_t *ss = sess->impl;
   wt_store_t *st = ss->st;
   const wt_index_t *ix = NULL;
   wt_coll_t *c;
   bool ok = false;
   int i;

   out->key_index_bytes = out->index_cache_bytes = out->index_pages_read = -1;
   out->cache_max_bytes = (int64_t)st->cache_max_bytes;
   out->eviction_target = WT_DEFAULT_EVICTION_TARGET;
   out->eviction_trigger = WT_DEFAULT_EVICTION_TRIGGER;
   out->eviction_configured = config_percent (st->config, "eviction_target=", &out->eviction_target) |
                              config_percent (st->config, "eviction_trigger=", &out->eviction_trigger);
   pthread_rwlock_rdlock (&st->ddl);
   if (!(c = lab_wt_coll_lookup (st, coll, error))) {
      goto done;
   }
   for (i = 0; i < c->nindexes; i++) {
      if (c->indexes[i].nfields == 1 && c->indexes[i].field && strcmp (c->indexes[i].field, key) == 0) {
         ix = &c->indexes[i];
         break;
      }
   }
   if (!table_stat (ss->s, c->uri, WT_STAT_DSRC_CACHE_BYTES_INUSE, &out->table_cache_bytes, error) ||
       !table_stat (ss->s, c->uri, WT_STAT_DSRC_CACHE_READ, &out->table_pages_read, error)) {
      goto done;
   }
   if (ix) {
      char path[PATH_MAX];
      struct stat sb;
      bson_snprintf (path, sizeof path, "%s/%s.wt", st->home, ix->ident);
      out->key_index_bytes = stat (path, &sb) == 0 ? (int64_t)sb.st_size : -1;
      if (!table_stat (ss->s, ix->uri, WT_STAT_DSRC_CACHE_BYTES_INUSE, &out->index_cache_bytes, error) ||
          !table_stat (ss->s, ix->uri, WT_STAT_DSRC_CACHE_READ, &out->index_pages_read, error)) {
         goto done;
      }
   }
   ok = true;
done:
   pthread_rwlock_unlock (&st->ddl);
   return ok;
}
