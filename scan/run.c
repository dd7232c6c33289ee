/*
 * run.c -- lab_scan_run: the whole comparison, as plan -> runs -> record. The plan checks the options
 * and resolves the collections, the keys (before anything is made cold) and the device; each run
 * measures both layouts (measure.c) into their entries (record.c); the record is the results document
 * of docs/results-schema.md around those entries, with the summary over runs.
 */
#include "scan/measure.h"
#include "scan/wl_mix.h"
#include "scan/topology.h"
#include "scan/workload.h"
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

/* lab_scan_opts_init -- see scan.h. */
void
lab_scan_opts_init (lab_scan_opts_t *o)
{
   memset (o, 0, sizeof *o);
   o->detail = "bill_detail";
   o->folded = "detail_coll";
   o->key = "bill_id";
   o->array_field = "details";
   o->parallel = 4;
   o->runs = 1;
   o->order = LAB_ORDER_ALTERNATE;
   o->drop_caches = LAB_DROP_AUTO;
   o->interval_ns = 1000000000ull;
   o->restart_timeout_ms = 120000;
   o->ready_timeout_ms = 60000;
   o->calibrate_bytes = 1ull << 30;
   o->calibrate_rand_ns = 3000000000ull;
   o->progress = LAB_PROGRESS_AUTO;
   o->locality_sample = 1000;
   o->predict_sample = 1.0;
   o->wl.set = 1u; /* the load */
   o->wl.seed = 1;
   o->wl.row_keys = 10000;
   o->wl.row_batch = 1;
   o->wl.range_windows = 20;
   o->wl.range_window_ms = 3600 * 1000;
   o->wl.time_field = "charge_time";
   o->wl.line_field = "line_no";
   o->wl.group_field = "dept";
   o->wl.sum_field = "amount";
   o->wl.append_rows = 10000;
   o->wl.append_to = 0;
   o->wl.update_rows = 10000;
   o->wl.mix_ops = 100000;
}

/* lab_scan_order_parse -- see scan.h. */
bool
lab_scan_order_parse (const char *s, lab_scan_order_t *out)
{
   if (strcmp (s, "alternate") == 0) {
      *out = LAB_ORDER_ALTERNATE;
   } else if (strcmp (s, "detail-first") == 0) {
      *out = LAB_ORDER_DETAIL_FIRST;
   } else if (strcmp (s, "folded-first") == 0) {
      *out = LAB_ORDER_FOLDED_FIRST;
   } else {
      return false;
   }
   return true;
}

/* lab_scan_drop_mode_parse -- see scan.h. */
bool
lab_scan_drop_mode_parse (const char *s, lab_scan_drop_mode_t *out)
{
   if (strcmp (s, "auto") == 0) {
      *out = LAB_DROP_AUTO;
   } else if (strcmp (s, "yes") == 0) {
      *out = LAB_DROP_YES;
   } else if (strcmp (s, "no") == 0) {
      *out = LAB_DROP_NO;
   } else {
      return false;
   }
   return true;
}

/* lab_scan_layout_parse -- see scan.h. */
bool
lab_scan_layout_parse (char *s, lab_results_layout_t *out, bson_error_t *error)
{
   static const char *const kinds[] = { LAB_RESULTS_KIND_ROWS, LAB_RESULTS_KIND_FOLDED,
                                        LAB_RESULTS_KIND_BUCKETS };
   char *eq = strchr (s, '='), *colon, *c;
   size_t i;

   if (!eq || eq == s || !eq[1] || eq[1] == ':') {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--layout \"%s\": give NAME=COLLECTION[:KIND], e.g. buckets=bill_buckets:buckets", s);
      return false;
   }
   *eq = '\0';
   for (c = s; *c; c++) {
      if (!(isalnum ((unsigned char)*c) || *c == '_' || *c == '-')) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--layout name \"%s\": use letters, digits, '_' and '-' only (it becomes a key of "
                        "the results file)",
                        s);
         *eq = '=';
         return false;
      }
   }
   out->name = s;
   out->collection = eq + 1;
   out->kind = LAB_RESULTS_KIND_ROWS;
   colon = strrchr (eq + 1, ':');
   if (colon) {
      *colon = '\0';
      for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
         if (strcmp (colon + 1, kinds[i]) == 0) {
            out->kind = kinds[i];
            return true;
         }
      }
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--layout %s=%s: unknown kind \"%s\" (rows, folded or buckets)", s, eq + 1, colon + 1);
      *colon = ':';
      *eq = '=';
      return false;
   }
   return true;
}

/* lab_scan_layouts_resolve -- see scan.h. */
bool
lab_scan_layouts_resolve (const lab_scan_opts_t *o, lab_results_layouts_t *out, bson_error_t *error)
{
   size_t i, j;
   int ref = -1;

   memset (out, 0, sizeof *out);
   if (o->nlayouts == 0) {
      out->l[0] = (lab_results_layout_t){ LAB_RESULTS_DETAIL, o->detail, LAB_RESULTS_KIND_ROWS };
      out->l[1] = (lab_results_layout_t){ LAB_RESULTS_FOLDED, o->folded, LAB_RESULTS_KIND_FOLDED };
      out->n = 2;
      if (strcmp (o->detail, o->folded) == 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                        "--detail and --folded name the same collection \"%s\"", o->detail);
         return false;
      }
   } else {
      if (o->nlayouts < 2 || o->nlayouts > LAB_RESULTS_MAX_LAYOUTS) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--layout given %zu times: a comparison needs 2 to %d layouts", o->nlayouts,
                        LAB_RESULTS_MAX_LAYOUTS);
         return false;
      }
      memcpy (out->l, o->layouts, o->nlayouts * sizeof o->layouts[0]);
      out->n = o->nlayouts;
   }
   for (i = 0; i < out->n; i++) {
      /* what the user said; the fold's record and the store complete it (lab_scan_key_resolve) */
      lab_layout_init (&out->l[i].desc, out->l[i].name, out->l[i].collection, out->l[i].kind);
      for (j = 0; j < i; j++) {
         if (strcmp (out->l[i].name, out->l[j].name) == 0 ||
             strcmp (out->l[i].collection, out->l[j].collection) == 0) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                           "--layout %s=%s and %s=%s: each layout needs its own name and collection",
                           out->l[j].name, out->l[j].collection, out->l[i].name, out->l[i].collection);
            return false;
         }
      }
   }
   if (o->reference_layout) {
      ref = lab_results_layout_find (out, o->reference_layout);
      if (ref < 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--reference-layout %s names no layout (give one of the --layout names)",
                        o->reference_layout);
         return false;
      }
   }
   for (i = 0; ref < 0 && i < out->n; i++) {
      if (lab_layout_reads_rows (&out->l[i].desc)) {
         ref = (int)i;
      }
   }
   out->reference = ref < 0 ? 0 : (size_t)ref;
   return true;
}

/* lab_scan_opts_check -- see scan.h. */
bool
lab_scan_opts_check (const lab_scan_opts_t *o, const char *uri, bson_error_t *error)
{
   if (o->interval_ns < 10000000ull) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--interval %.3gs is below 10ms",
                     (double)o->interval_ns / 1e9);
      return false;
   }
   if (o->calibrate_bytes < (1u << 20)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--calibrate-size %llu bytes is below 1MiB", (unsigned long long)o->calibrate_bytes);
      return false;
   }
   if (o->direct_io && uri && strncmp (uri, "wiredtiger:", 11) != 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--direct-io applies to the embedded store (wiredtiger:DIR) only");
      return false;
   }
   if (!lab_scan_sweep_opts_check (o, uri, error)) {
      return false;
   }
   return true;
}

static const char *order_names[] = { "alternate", "detail-first", "folded-first" };
static const char *drop_names[] = { "auto", "yes", "no" };

/* append_opt_int -- a count that may be unknown (absent when negative). */
static void
append_opt_int (bson_t *d, const char *k, int64_t v)
{
   if (v >= 0) {
      BSON_APPEND_INT64 (d, k, v);
   }
}

/* ---- the whole comparison ------------------------------------------------------------------------ */

/* append_host -- hostname, kernel, CPU, cores, RAM. */
static void
append_host (bson_t *results)
{
   bson_t h;
   char hn[256] = "";
   struct utsname u;
   char cpu[256] = "";
   FILE *f;

   gethostname (hn, sizeof hn - 1);
   BSON_APPEND_DOCUMENT_BEGIN (results, "host", &h);
   BSON_APPEND_UTF8 (&h, "hostname", hn);
   if (uname (&u) == 0) {
      char k[512];
      snprintf (k, sizeof k, "%s %s %s", u.sysname, u.release, u.machine);
      BSON_APPEND_UTF8 (&h, "kernel", k);
   }
   f = fopen ("/proc/cpuinfo", "r");
   if (f) {
      char line[512];
      while (fgets (line, sizeof line, f)) {
         char *colon = strchr (line, ':');
         if (strncmp (line, "model name", 10) == 0 && colon) {
            colon++;
            while (*colon == ' ' || *colon == '\t') {
               colon++;
            }
            colon[strcspn (colon, "\n")] = '\0';
            bson_strncpy (cpu, colon, sizeof cpu);
            break;
         }
      }
      fclose (f);
   }
   if (cpu[0]) {
      BSON_APPEND_UTF8 (&h, "cpu_model", cpu);
   }
   BSON_APPEND_INT32 (&h, "cores", (int32_t)sysconf (_SC_NPROCESSORS_ONLN));
   BSON_APPEND_INT64 (&h, "ram_bytes", (int64_t)sysconf (_SC_PHYS_PAGES) * (int64_t)sysconf (_SC_PAGESIZE));
   bson_append_document_end (results, &h);
}

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
/* ---- the plan: options, collections, keys, device ------------------------------------------------- */

/* What lab_scan_run resolves before anything is made cold. */
typedef struct {
   lab_scan_plan_t p; /* what every measured layout shares (keys and restart_shown owned below) */
   bson_value_t *keys;
   int64_t *perm; /* --load-order random or both: the shuffle of the keys' indexes */
   char *restart_shown;
   char *where;               /* "URI (database DB)" for messages */
   lab_store_session_t *sess; /* open from the checks to the dataset statistics */
   const char *datadir;       /* embedded home or --dbpath; NULL: unknown */
   bool have_dev;
   lab_scan_device_t dev;
   int read_ahead_kb;        /* -1 unknown */
   lab_scan_topology_t topo; /* the deployment: topology, followed servers, disk source (topology.c) */
   bson_t dataset;           /* "dataset", measured once before anything is made cold */
   double cache_ratio;       /* the engine cache ÷ the detail layout's on-disk size; 0 unknown */
   bool sweep;               /* --cache-sizes / --cache-ratios */
   lab_scan_sweep_t sw;
   lab_scan_wl_prep_t wlp; /* the workloads besides the load: indexes and inputs */
   lab_scan_opts_t opts;   /* the options with the key and array field resolved (p.opts points here) */
   lab_scan_keysrc_t ks;   /* where they came from (keysrc.c) */
} scan_plan_t;

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
plan_keys (scan_plan_t *sp, bson_error_t *error)
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
plan_device (scan_plan_t *sp, bson_error_t *error)
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

/* plan_make -- check the options, see the server, the collections, the keys and the device. */
static bool
plan_make (lab_store_t *store, const lab_scan_opts_t *o, scan_plan_t *sp, bson_error_t *error)
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

/* plan_cleanup -- free what the plan owns. */
static void
plan_cleanup (scan_plan_t *sp)
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

static bool append_dataset_coll (lab_store_session_t *sess, bson_t *ds, const char *name, const char *coll,
                                 bson_error_t *error);

/* plan_dataset -- every layout's collection figures, once, and their on-disk sizes; with a sweep, its points
 * (scan/sweep.c); else the cache ratio of this single point. Closes the plan's session. */
static bool
plan_dataset (scan_plan_t *sp, bson_error_t *error)
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
      ok = append_dataset_coll (sp->sess, &sp->dataset, ls->l[i].name, ls->l[i].collection, error);
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

/* ---- the record: the results document around the runs --------------------------------------------- */

/* record_backend -- "backend": the server or engine, where, and its cache. */
static void
record_backend (const scan_plan_t *sp, bson_t *results)
{
   lab_store_t *store = sp->p.store;
   lab_store_engine_stats_t es;
   bson_error_t err;
   bson_t doc;

   BSON_APPEND_DOCUMENT_BEGIN (results, "backend", &doc);
   BSON_APPEND_UTF8 (&doc, "name", sp->p.info.backend);
   BSON_APPEND_UTF8 (&doc, "version", sp->p.info.version);
   if (sp->p.info.product[0]) {
      BSON_APPEND_UTF8 (&doc, "product", sp->p.info.product);
   }
   {
      /* the embedded store's directory made absolute: the report's suggested commands name it, and run
       * from another directory a relative one would open (and create) another, empty store */
      const char *home = lab_store_home (store);
      char *abs = home && home[0] != '/' ? realpath (home, NULL) : NULL;
      if (abs) {
         char *u = bson_strdup_printf ("wiredtiger:%s", abs);
         BSON_APPEND_UTF8 (&doc, "uri", u);
         bson_free (u);
         free (abs);
      } else {
         BSON_APPEND_UTF8 (&doc, "uri", lab_store_uri_redacted (store));
      }
   }
   BSON_APPEND_UTF8 (&doc, "db", lab_store_db (store));
   BSON_APPEND_BOOL (&doc, "server_local", sp->p.info.local);
   if (sp->p.info.host[0]) {
      BSON_APPEND_UTF8 (&doc, "server_host", sp->p.info.host);
   }
   if (strcmp (sp->p.info.backend, "wiredtiger") == 0) {
      /* the embedded engine's memory is this process's: its allocator shapes the peak RSS */
      BSON_APPEND_UTF8 (&doc, "allocator", lab_alloc_name ());
   }
   if (sp->sweep) {
      BSON_APPEND_INT64 (&doc, "cache_max_bytes", (int64_t)sp->sw.cache_bytes[sp->sw.reference]);
   } else if (lab_scan_engine_stats (&sp->topo, store, &es, &err)) {
      /* through mongos: the shards' caches together */
      append_opt_int (&doc, "cache_max_bytes", es.cache_max_bytes);
   }
   bson_append_document_end (results, &doc);
}

/* record_config -- "config": the options as run. */
static void
record_config (const scan_plan_t *sp, bson_t *results)
{
   const lab_scan_opts_t *o = sp->p.opts;
   bson_t doc;

   BSON_APPEND_DOCUMENT_BEGIN (results, "config", &doc);
   if (o->nlayouts == 0) {
      BSON_APPEND_UTF8 (&doc, "detail", o->detail);
      BSON_APPEND_UTF8 (&doc, "folded", o->folded);
   }
   BSON_APPEND_UTF8 (&doc, "key", o->key);
   BSON_APPEND_UTF8 (&doc, "key_source", sp->ks.key_source);
   BSON_APPEND_UTF8 (&doc, "array_field", o->array_field);
   BSON_APPEND_UTF8 (&doc, "array_field_source", sp->ks.array_source);
   BSON_APPEND_BOOL (&doc, "cold", o->cold);
   BSON_APPEND_INT32 (&doc, "parallel", o->parallel);
   BSON_APPEND_UTF8 (&doc, "decode", lab_scan_decode_names ()[o->decode]);
   BSON_APPEND_INT32 (&doc, "runs", o->runs);
   if (o->reference_runs > 0) {
      BSON_APPEND_INT32 (&doc, "reference_runs", o->reference_runs);
   }
   BSON_APPEND_UTF8 (&doc, "order", order_names[o->order]);
   BSON_APPEND_UTF8 (&doc, "load_order", lab_scan_load_order_names ()[o->load_order]);
   if (o->load_order != LAB_LOAD_ORDER_KEY) { /* the shuffle's seed: the same seed deals the same keys */
      BSON_APPEND_INT64 (&doc, "load_seed", (int64_t)o->wl.seed);
   }
   BSON_APPEND_INT64 (&doc, "keys_limit", o->keys_limit);
   if (o->allow_writes) { /* collections layoutlab did not write that the user named for writes */
      bson_t arr;
      char idx[16];
      const char *k;
      uint32_t n = 0;
      BSON_APPEND_ARRAY_BEGIN (&doc, "allow_writes", &arr);
      for (const char *const *a = o->allow_writes; *a; a++, n++) {
         bson_uint32_to_string (n, &k, idx, sizeof idx);
         BSON_APPEND_UTF8 (&arr, k, *a);
      }
      bson_append_array_end (&doc, &arr);
   }
   if (o->keys_file) {
      BSON_APPEND_UTF8 (&doc, "keys_file", o->keys_file);
   } else {
      BSON_APPEND_NULL (&doc, "keys_file");
   }
   if (sp->restart_shown) {
      BSON_APPEND_UTF8 (&doc, "restart_cmd", sp->restart_shown);
   } else {
      BSON_APPEND_NULL (&doc, "restart_cmd");
   }
   BSON_APPEND_UTF8 (&doc, "drop_caches", drop_names[o->drop_caches]);
   if (sp->datadir) {
      BSON_APPEND_UTF8 (&doc, "dbpath", sp->datadir);
   } else {
      BSON_APPEND_NULL (&doc, "dbpath");
   }
   if (sp->have_dev) {
      BSON_APPEND_UTF8 (&doc, "device", sp->dev.name);
      BSON_APPEND_UTF8 (&doc, "device_reason", sp->dev.reason);
   } else {
      BSON_APPEND_NULL (&doc, "device");
   }
   BSON_APPEND_UTF8 (&doc, "server_disk", lab_scan_server_disk_name (o->server_disk));
   if (o->server_device) {
      BSON_APPEND_UTF8 (&doc, "server_device", o->server_device);
   }
   BSON_APPEND_BOOL (&doc, "restart_drops_caches", o->restart_drops_caches);
   BSON_APPEND_DOUBLE (&doc, "interval_s", (double)o->interval_ns / 1e9);
   if (sp->sweep) {
      /* the point the top level repeats */
      BSON_APPEND_INT64 (&doc, "cache_size_bytes", (int64_t)sp->sw.cache_bytes[sp->sw.reference]);
      if (sp->sw.ratios[sp->sw.reference] > 0) {
         BSON_APPEND_DOUBLE (&doc, LAB_RESULTS_KEY_CACHE_RATIO, sp->sw.ratios[sp->sw.reference]);
      }
   } else {
      if (o->cache_size_bytes) {
         BSON_APPEND_INT64 (&doc, "cache_size_bytes", (int64_t)o->cache_size_bytes);
      }
      if (sp->cache_ratio > 0) {
         BSON_APPEND_DOUBLE (&doc, LAB_RESULTS_KEY_CACHE_RATIO, sp->cache_ratio);
      }
   }
   BSON_APPEND_BOOL (&doc, "direct_io", o->direct_io);
   bson_append_document_end (results, &doc);
}

/* record_header -- everything before the runs: tool, host, backend, config, device, dataset. */
static bool
record_header (scan_plan_t *sp, bson_t *results, bson_error_t *error)
{
   char ts[32];
   bson_t doc;

   lab_scan_utc_now (ts, sizeof ts);
   BSON_APPEND_INT32 (results, LAB_RESULTS_KEY_SCHEMA_VERSION, LAB_RESULTS_SCHEMA_VERSION);
   BSON_APPEND_UTF8 (results, "tool", "scancmp");
   /* the header's names are the --json summaries' (docs/json-summary.md) */
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_VERSION, LAB_VERSION);
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_STARTED, ts);
   if (sp->p.opts->argc > 0) {
      lab_cli_command_line_append (results, LAB_RESULTS_KEY_COMMAND_LINE, sp->p.opts->argc, sp->p.opts->argv);
   }
   lab_results_layouts_append (results, &sp->p.layouts);
   append_host (results);
   record_backend (sp, results);
   record_config (sp, results);
   lab_scan_topology_record (&sp->topo, sp->have_dev ? sp->dev.name : NULL, results);
   if (sp->have_dev) {
      BSON_APPEND_DOCUMENT_BEGIN (results, "device", &doc);
      BSON_APPEND_UTF8 (&doc, "name", sp->dev.name);
      BSON_APPEND_INT32 (&doc, "sector_bytes", LAB_DISKSTATS_SECTOR_BYTES);
      /* MongoDB's production notes ask for 8-32 KiB of readahead under WiredTiger: a larger window
       * turns each random page read into a large request, so the report shows it */
      if (sp->read_ahead_kb >= 0) {
         BSON_APPEND_INT32 (&doc, "read_ahead_kb", sp->read_ahead_kb);
      }
      bson_append_document_end (results, &doc);
   }
   BSON_APPEND_DOCUMENT (results, "dataset", &sp->dataset);
   return true;
}

/* record_calibration -- with --calibrate: measure the device's limits (before the runs: its file must
 * not sit in the page cache during them) into "calibration". */
static bool
record_calibration (const scan_plan_t *sp, bson_t *results, bson_error_t *error)
{
   const lab_scan_opts_t *o = sp->p.opts;
   lab_scan_calibration_t cal;
   bson_t doc;

   if (!o->calibrate) {
      return true;
   }
   if (!sp->datadir) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "--calibrate needs the data directory of the server: give --dbpath (a local server)");
      return false;
   }
   lab_log_info ("calibrating %s: %llu MiB sequential, then random 4 KiB reads", sp->datadir,
                 (unsigned long long)(o->calibrate_bytes >> 20));
   if (!lab_scan_calibrate (sp->datadir, o->calibrate_bytes, o->calibrate_rand_ns, o->parallel, &cal,
                            error)) {
      return false;
   }
   {
      /* never-read blocks: the raw device where it may be read, else the data's own files (before any run
       * reads them), else the test file's (just written: a write cache below may hold them) */
      bson_error_t err, err2;
      char **paths = NULL;
      if (!sp->p.device || !lab_scan_reread_device (sp->p.device, &cal, &err)) {
         if (!lab_scan_dir_files (sp->datadir, &paths, &err2) ||
             !lab_scan_reread_files (paths, &cal, &err2)) {
            lab_log_info ("the reread probe stays on the test file: %s", err2.message);
         }
         bson_strfreev (paths);
      }
   }
   lab_log_info ("device limit: %.1f MB/s sequential, %.0f random 4 KiB reads/s (%d readers)",
                 cal.seq_read_mb_s, cal.rand_read_4k_iops, cal.rand_threads);
   BSON_APPEND_DOCUMENT_BEGIN (results, "calibration", &doc);
   BSON_APPEND_DOUBLE (&doc, "seq_read_mb_s", cal.seq_read_mb_s);
   BSON_APPEND_DOUBLE (&doc, "rand_read_4k_iops", cal.rand_read_4k_iops);
   BSON_APPEND_INT32 (&doc, "rand_threads", cal.rand_threads);
   BSON_APPEND_INT64 (&doc, "file_bytes", (int64_t)cal.file_bytes);
   BSON_APPEND_DOUBLE (&doc, "elapsed_s", cal.elapsed_s);
   BSON_APPEND_INT32 (&doc, "reread_blocks", cal.reread_blocks);
   BSON_APPEND_UTF8 (&doc, "reread_source", cal.reread_source);
   BSON_APPEND_DOUBLE (&doc, "first_read_p50_ms", cal.first_p50_ms);
   BSON_APPEND_DOUBLE (&doc, "first_read_p90_ms", cal.first_p90_ms);
   BSON_APPEND_DOUBLE (&doc, "reread_p50_ms", cal.reread_p50_ms);
   BSON_APPEND_DOUBLE (&doc, "reread_p90_ms", cal.reread_p90_ms);
   BSON_APPEND_BOOL (&doc, "rereads_cached", cal.rereads_cached);
   bson_append_document_end (results, &doc);
   if (cal.rereads_cached) {
      lab_log_info ("warning: a cache below this machine served re-reads (4 KiB O_DIRECT: p50 %.2f ms "
                    "never read, %.2f ms read again): absolute times are not cold; the ratios between "
                    "layouts hold",
                    cal.first_p50_ms, cal.reread_p50_ms);
   }
   return true;
}

/* append_built_indexes -- "layoutlab_indexes": the indexes a layoutlab tool built on `coll`, from their
 * records in LAB_MARK_COLL (name, key pattern, size, when, by which tool, on a collection layoutlab did
 * not write), so the report names every index a tool added to what it measured. */
static bool
append_built_indexes (lab_store_session_t *sess, bson_t *d, const char *coll, bson_error_t *error)
{
   lab_store_mark_index_t *recs = NULL;
   size_t n = 0, i;
   uint32_t k = 0;
   bson_t arr;

   if (!lab_store_mark_indexes (sess, &recs, &n, error)) {
      lab_error_prefix (error, "the index records of %s in %s", coll, LAB_MARK_COLL);
      return false;
   }
   BSON_APPEND_ARRAY_BEGIN (d, "layoutlab_indexes", &arr);
   for (i = 0; i < n; i++) {
      char idx[16];
      const char *key;
      bson_t e;

      if (strcmp (recs[i].collection, coll) != 0) {
         continue;
      }
      bson_uint32_to_string (k++, &key, idx, sizeof idx);
      BSON_APPEND_DOCUMENT_BEGIN (&arr, key, &e);
      BSON_APPEND_UTF8 (&e, "name", recs[i].name);
      BSON_APPEND_INT64 (&e, "size_bytes", recs[i].size_bytes);
      BSON_APPEND_UTF8 (&e, "created_at", recs[i].created_at);
      BSON_APPEND_UTF8 (&e, "tool", recs[i].tool);
      BSON_APPEND_BOOL (&e, "on_foreign", recs[i].on_foreign);
      bson_append_document_end (&arr, &e);
   }
   bson_append_array_end (d, &arr);
   lab_store_mark_indexes_free (recs, n);
   return true;
}

/* append_dataset_coll -- count, sizes and index facts of one collection. */
static bool
append_dataset_coll (lab_store_session_t *sess, bson_t *ds, const char *name, const char *coll,
                     bson_error_t *error)
{
   lab_store_coll_stats_t st;
   bson_t d;

   if (!lab_store_stats (sess, coll, &st, error)) {
      lab_error_prefix (error, "statistics of %s", coll);
      return false;
   }
   bson_append_document_begin (ds, name, -1, &d);
   BSON_APPEND_UTF8 (&d, "collection", coll);
   BSON_APPEND_INT64 (&d, "count", st.count);
   BSON_APPEND_DOUBLE (&d, "avg_obj_size_bytes", st.avg_obj_size_bytes);
   append_opt_int (&d, "data_size_bytes", st.data_size_bytes);
   append_opt_int (&d, "storage_size_bytes", st.storage_size_bytes);
   append_opt_int (&d, "index_size_bytes", st.index_size_bytes);
   BSON_APPEND_INT32 (&d, "nindexes", st.nindexes);
   if (st.clustered) { /* records in _id order (a server: listCollections); the report's environment names it
                        */
      BSON_APPEND_BOOL (&d, "clustered", true);
   }
   {
      /* who wrote it and how (store.h, the marker): the report's "Reproduce" section reads it */
      bson_t *mark = NULL;
      bool foreign = false;
      if (!lab_store_mark_get (sess, coll, &mark, &foreign, error)) {
         lab_error_prefix (error, "the provenance of %s in %s", coll, LAB_MARK_COLL);
         bson_append_document_end (ds, &d);
         return false;
      }
      if (mark) {
         BSON_APPEND_DOCUMENT (&d, "provenance", mark);
         bson_destroy (mark);
      }
   }
   if (!append_built_indexes (sess, &d, coll, error)) {
      bson_append_document_end (ds, &d);
      return false;
   }
   bson_append_document_end (ds, &d);
   return true;
}

/* lab_scan_run -- see scan.h. */
bool
lab_scan_run (lab_store_t *store, const lab_scan_opts_t *o, bson_t *results, bson_error_t *error)
{
   scan_plan_t sp;
   bson_t *entries = NULL;
   int nentries = 0, k;
   bool ok = false;
   char ts[32];
   bson_error_t load_differ = { 0 }; /* the load's runs read other rows on some layout (exit 3) */
   size_t la, lb;
   uint64_t da, db;

   if (!plan_make (store, o, &sp, error) || !plan_dataset (&sp, error) ||
       !record_header (&sp, results, error) || !record_calibration (&sp, results, error)) {
      goto done;
   }
   if (sp.sweep) {
      /* the workloads run at every point; layouts that returned different results keep the file (exit 3) */
      if (!lab_scan_sweep_run (&sp.p, &sp.sw, results, error)) {
         if (error->domain == LAB_ERROR_VERIFY) {
            lab_scan_utc_now (ts, sizeof ts);
            BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_FINISHED, ts);
         }
         goto done;
      }
   } else if (o->wl.set & (1u << LAB_WL_LOAD)) {
      entries = bson_malloc0 ((size_t)o->runs * sp.p.layouts.n * sizeof *entries);
      if (!lab_scan_runs (&sp.p, entries, &nentries, error)) {
         goto done;
      }
      lab_scan_runs_record (&sp.p, results, entries, nentries);
      if (!lab_scan_runs_digests (&sp.p.layouts, results, NULL, &la, &lb, &da, &db)) {
         /* the runs' rows differ by content: measured on, recorded, then exit 3 */
         lab_scan_digest_differ (sp.p.store, o, &sp.p.layouts, la, lb, sp.p.keys, sp.p.nkeys, "load",
                                 &load_differ);
      }
   }
   if (!sp.sweep && ((sp.p.wl && !lab_scan_workloads_run (&sp.p, sp.p.wl, results, error)) ||
                     (lab_scan_mix_on (o) && !lab_scan_mix_run (&sp.p, results, error)))) {
      /* layouts that returned different results: the file keeps what was measured, the exit says so */
      if (load_differ.domain) {
         lab_log_error ("%s", load_differ.message); /* the error reported is the later one */
      }
      if (error->domain == LAB_ERROR_VERIFY) {
         lab_scan_utc_now (ts, sizeof ts);
         BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_FINISHED, ts);
      }
      goto done;
   }
   if (load_differ.domain) {
      *error = load_differ;
      lab_scan_utc_now (ts, sizeof ts);
      BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_FINISHED, ts);
      goto done;
   }
   lab_scan_utc_now (ts, sizeof ts);
   BSON_APPEND_UTF8 (results, LAB_RESULTS_KEY_FINISHED, ts);
   ok = true;
done:
   for (k = 0; k < nentries; k++) {
      bson_destroy (&entries[k]);
   }
   bson_free (entries);
   plan_cleanup (&sp);
   return ok;
}
