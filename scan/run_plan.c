/*
 * run_plan.c -- lab_scan_run's plan (run_private.h): the options against the backend, the collections and
 * their key indexes, the keys (before anything is made cold), the device, the dataset's figures once.
 */
#include "scan/run_private.h"
#include "scan/measure/measure.h"
#include "scan/mix/wl_mix.h"
#include "scan/topology.h"
#include "scan/workloads/workload.h"
#include "store/mark.h"

#include "core/alloc.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"
#include "core/results.h"
#include "core/uri.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* check_collection -- exists and has an index on the key (or create it with --create-index), unless its
 * descriptor says a master is read by an _id range. */
static bool
check_collection (lab_store_session_t *sess, const lab_scan_opts_t *o, const lab_results_layout_t *l,
                  const char *where, bson_error_t *error)
{
   const char *coll = l->collection, *which = l->name;
   bool exists = false, has = false, clustered = lab_layout_read_by_id_range (&l->desc);

   if (!lab_store_exists (sess, coll, &exists, error)) {
      lab_error_prefix (error, "checking %s collection %s", which, coll);
      return false;
   }
   if (!exists) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                     "%s collection \"%s\" does not exist in %s; check --%s (and --uri/--db)", which, coll,
                     where, o->nlayouts ? "layout" : which);
      return false;
   }
   if (!lab_store_has_index (sess, coll, o->key, &has, error)) {
      lab_error_prefix (error, "checking the index on %s of %s", o->key, coll);
      return false;
   }
   if (!has && !clustered) { /* a clustered layout reads a master by an _id range (clustered.c) */
      bool absent = false;
      if (!lab_store_field_check (sess, coll, o->key, &absent, error)) {
         return false;
      }
      if (absent) {
         /* the --key is wrong, not the indexes: no advice to index a field that no document has */
         char msg[sizeof error->message];
         bson_strncpy (msg, error->message, sizeof msg);
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "%s: check --key (the master key field)", msg);
         return false;
      }
      if (!o->create_index) {
         lab_error_set (
            error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_INDEX,
            "collection \"%s\" has no index on the key field \"%s\": every key lookup would scan the "
            "whole collection. Rerun with --create-index (builds it before measuring), or create it "
            "yourself (mongosh: db.%s.createIndex({%s: 1}))",
            coll, o->key, coll, o->key);
         return false;
      }
      if (!lab_store_create_index (sess, coll, o->key, error)) {
         lab_error_prefix (error, "--create-index on %s.%s", coll, o->key);
         return false;
      }
   }
   return true;
}
/* plan_check -- the options that contradict each other or the backend. */
static bool
plan_check (lab_store_t *store, const lab_scan_opts_t *o, lab_store_backend_t backend, bson_error_t *error)
{
   if (!lab_scan_opts_check (o, NULL, error)) {
      return false;
   }
   if (o->order == LAB_ORDER_FOLDED_FIRST && o->nlayouts > 2) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--order folded-first is for two layouts; with %zu use alternate (each run rotates "
                     "which goes first) or detail-first (the order given)",
                     o->nlayouts);
      return false;
   }
   if (o->parallel < 1 || o->runs < 1) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--parallel and --runs must be at least 1");
      return false;
   }
   if (o->restart_cmd && backend == LAB_BACKEND_WT) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
         "--restart-cmd is for a MongoDB server: on the embedded store (%s) the cold step closes and "
         "reopens the engine itself",
         lab_store_uri_redacted (store));
      return false;
   }
   if (o->restart_drops_caches && !o->restart_cmd) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--restart-drops-caches says what --restart-cmd does: give the restart command too");
      return false;
   }
   if (lab_scan_sweep_points (o) > 0 && !(o->wl.set & (1u << LAB_WL_LOAD))) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--workload without load and a cache sweep: the sweep measures the load at every point "
                     "(its curve), then the other workloads; add load to --workload");
      return false;
   }
   if (o->restart_cmd && !o->cold) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--restart-cmd is run by the cold step: add --cold");
      return false;
   }
   return true;
}

/* keys_layout -- the layout whose key index gives the keys: the first that is not one document per row
 * (its index holds each key once or a few times), else the first. */
static const lab_results_layout_t *
keys_layout (const lab_results_layouts_t *ls)
{
   size_t i;

   for (i = 0; i < ls->n; i++) {
      if (lab_layout_doc_holds_many_rows (&ls->l[i].desc)) {
         return &ls->l[i];
      }
   }
   return &ls->l[0];
}

/* plan_keys -- every layout's collection usable, and the keys to load (--keys-file or the key index of
 * keys_layout's collection), spread to --keys-limit. */
static bool
plan_keys (lab_scan_run_plan_t *sp, bson_error_t *error)
{
   const lab_scan_opts_t *o = sp->p.opts;
   const lab_results_layouts_t *ls = &sp->p.layouts;
   const char *kc = keys_layout (ls)->collection;
   size_t i;

   for (i = 0; i < ls->n; i++) {
      if (!check_collection (sp->sess, o, &ls->l[i], sp->where, error)) {
         return false;
      }
   }
   if (o->keys_file) {
      if (!lab_scan_keys_read_file (o->keys_file, &sp->keys, &sp->p.nkeys, error)) {
         return false;
      }
   } else if (!lab_store_distinct_keys (sp->sess, kc, o->key, &sp->keys, &sp->p.nkeys, error)) {
      lab_error_prefix (error, "reading the keys of %s from its %s index", kc, o->key);
      return false;
   }
   if (sp->p.nkeys == 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_KEYS, "no key to load: %s has no %s values",
                     o->keys_file ? o->keys_file : kc, o->key);
      return false;
   }
   lab_scan_keys_spread (sp->keys, &sp->p.nkeys, o->keys_limit);
   sp->p.keys = sp->keys;
   if (o->load_order != LAB_LOAD_ORDER_KEY) {
      sp->perm = bson_malloc ((size_t)sp->p.nkeys * sizeof *sp->perm);
      lab_scan_keys_shuffle (sp->p.nkeys, o->wl.seed, sp->perm);
      sp->p.perm = sp->perm;
   }
   /* both: the headline in key order, the random-order row measured beside it (wl_run.c) */
   sp->p.load_order = o->load_order == LAB_LOAD_ORDER_RANDOM ? LAB_LOAD_ORDER_RANDOM : LAB_LOAD_ORDER_KEY;
   /* a comparison of nothing is an error, found before anything is made cold */
   if (!lab_scan_match_check (sp->sess, o, ls, kc, sp->keys, sp->p.nkeys, error)) {
      return false;
   }
   lab_log_info ("%lld keys to load per layout, %d workers", (long long)sp->p.nkeys, o->parallel);
   return true;
}

/* plan_device -- the disk that holds the data directory (or --device), checked in /proc/diskstats. */
static bool
plan_device (lab_scan_run_plan_t *sp, bson_error_t *error)
{
   const lab_scan_opts_t *o = sp->p.opts;

   sp->read_ahead_kb = -1;
   sp->datadir = sp->p.backend == LAB_BACKEND_WT ? lab_store_home (sp->p.store) : o->dbpath;
   if (!sp->datadir && !o->device) {
      lab_log_info ("no data directory or device given for this server: device figures (read requests, MB "
                    "read) are not measured");
      return true;
   }
   if (!lab_scan_device_resolve (sp->datadir ? sp->datadir : "/", o->device, NULL, NULL, &sp->dev, error)) {
      return false;
   }
   sp->have_dev = true;
   sp->p.device = sp->dev.name;
   lab_log_info ("device %s: %s", sp->dev.name, sp->dev.reason);
   if (!lab_scan_diskstats_read (NULL, sp->dev.name, &(lab_scan_diskstats_t){ 0 }, error)) {
      return false;
   }
   if (!lab_scan_device_read_ahead_kb (NULL, sp->dev.name, &sp->read_ahead_kb)) {
      sp->read_ahead_kb = -1;
   }
   return true;
}

/* lab_scan_run_plan_make -- see run_private.h. */
bool
lab_scan_run_plan_make (lab_store_t *store, const lab_scan_opts_t *o, lab_scan_run_plan_t *sp,
                        bson_error_t *error)
{
   memset (sp, 0, sizeof *sp);
   bson_init (&sp->dataset);
   for (size_t i = 0; i < LAB_RESULTS_MAX_LAYOUTS; i++) {
      bson_init (&sp->sw.locality[i]);
   }
   sp->p.store = store;
   sp->opts = *o;
   sp->p.opts = &sp->opts;
   sp->p.backend = lab_store_backend (store);
   if (o->restart_cmd) {
      sp->restart_shown = lab_uri_redact (o->restart_cmd);
      sp->p.restart_shown = sp->restart_shown;
   }
   sp->p.topo = &sp->topo;
   if (!plan_check (store, o, sp->p.backend, error) || !lab_scan_layouts_resolve (o, &sp->p.layouts, error) ||
       !lab_scan_server_info (store, &sp->p.info, error) ||
       !lab_scan_deploy_plan (store, o, &sp->p.info, &sp->topo, error)) {
      return false;
   }
   sp->where = bson_strdup_printf ("%s (database %s)", lab_store_uri_redacted (store), lab_store_db (store));
   if (lab_results_product_warning (sp->p.info.product)) {
      /* said before the first run, not after an hour of loads: the figures cannot stand for mongod's */
      lab_log_info ("warning: the server is %s: %s", sp->p.info.product,
                    lab_results_product_warning (sp->p.info.product));
   }
   if (sp->p.backend == LAB_BACKEND_MONGO && o->cold && !o->restart_cmd) {
      lab_log_info ("warning: cold runs without a restart command: the server's own cache stays warm; only "
                    "the OS page cache can be dropped");
   }
   /* keys and dataset, before anything is made cold */
   sp->sess = lab_store_session_open (store, error);
   /* the key before any collection is checked or index built: a fold's record may name it */
   if (!sp->sess || !lab_scan_key_resolve (sp->sess, o, &sp->p.layouts, &sp->ks, error)) {
      return false;
   }
   sp->opts.key = sp->ks.key && !o->key_given ? sp->ks.key : o->key;
   sp->opts.array_field = sp->ks.array_field && !o->array_field_given ? sp->ks.array_field : o->array_field;
   if (!lab_scan_guard_writes (&sp->p, sp->sess, error) || !plan_keys (sp, error) ||
       !lab_scan_workloads_prepare (&sp->p, sp->sess, &sp->wlp, error)) {
      return false;
   }
   sp->p.wl = lab_scan_wl_any (o) ? &sp->wlp : NULL;
   return plan_device (sp, error);
}

/* lab_scan_run_plan_cleanup -- see run_private.h. */
void
lab_scan_run_plan_cleanup (lab_scan_run_plan_t *sp)
{
   if (sp->sess) {
      lab_store_session_close (sp->sess);
   }
   if (sp->keys) {
      lab_store_values_free (sp->keys, (int)sp->p.nkeys);
   }
   bson_free (sp->perm);
   bson_free (sp->restart_shown);
   bson_free (sp->where);
   lab_scan_topology_cleanup (&sp->topo);
   bson_destroy (&sp->dataset);
   lab_scan_sweep_cleanup (&sp->sw);
   lab_scan_workloads_cleanup (&sp->wlp);
   lab_scan_keysrc_cleanup (&sp->ks);
}

/* lab_scan_run_plan_dataset -- see run_private.h. */
bool
lab_scan_run_plan_dataset (lab_scan_run_plan_t *sp, bson_error_t *error)
{
   const lab_scan_opts_t *o = sp->p.opts;
   const lab_results_layouts_t *ls = &sp->p.layouts;
   bson_t wrap = BSON_INITIALIZER;
   lab_store_engine_stats_t es;
   bson_error_t err;
   size_t i;
   bool ok;

   BSON_APPEND_INT64 (&sp->dataset, "keys", sp->p.nkeys);
   ok = true;
   for (i = 0; ok && i < ls->n; i++) {
      ok = lab_scan_run_dataset_coll (sp->sess, &sp->dataset, ls->l[i].name, ls->l[i].collection, error);
   }
   BSON_APPEND_DOCUMENT (&wrap, "dataset", &sp->dataset);
   for (i = 0; i < ls->n; i++) {
      if (!lab_results_on_disk_bytes (&wrap, ls->l[i].name, &sp->p.on_disk_bytes[i])) {
         sp->p.on_disk_bytes[i] = 0;
      }
   }
   bson_destroy (&wrap);
   sp->sweep = lab_scan_sweep_points (o) > 0;
   if (ok && sp->sweep) {
      ok = lab_scan_sweep_plan (&sp->p, sp->sess, &sp->sw, error);
   } else if (ok && lab_scan_engine_stats (&sp->topo, sp->p.store, &es, &err)) {
      double cache = es.cache_max_bytes > 0 ? (double)es.cache_max_bytes : (double)o->cache_size_bytes;
      if (!lab_results_cache_ratio_of (cache, sp->p.on_disk_bytes[ls->reference], &sp->cache_ratio)) {
         sp->cache_ratio = 0;
      }
   }
   lab_store_session_close (sp->sess);
   sp->sess = NULL;
   return ok;
}
