/*
 * run_private.h -- lab_scan_run's pieces (private to scan/): the plan resolved before anything is made
 * cold (run_plan.c) and the results document around the runs (run_record.c); run.c puts them together.
 */
#ifndef LAB_SCAN_RUN_PRIVATE_H
#define LAB_SCAN_RUN_PRIVATE_H

#include "scan/measure/measure.h"
#include "scan/topology.h"
#include "scan/workloads/workload.h"

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
} lab_scan_run_plan_t;

/* lab_scan_run_plan_make -- check the options, see the server, the collections, the keys and the device. */
bool lab_scan_run_plan_make (lab_store_t *store, const lab_scan_opts_t *o, lab_scan_run_plan_t *sp,
                             bson_error_t *error);

/* lab_scan_run_plan_dataset -- every layout's collection figures, once, and their on-disk sizes; with a
 * sweep, its points (scan/sweep.c); else the cache ratio of this single point. Closes the plan's session. */
bool lab_scan_run_plan_dataset (lab_scan_run_plan_t *sp, bson_error_t *error);

/* lab_scan_run_plan_cleanup -- free what the plan owns. */
void lab_scan_run_plan_cleanup (lab_scan_run_plan_t *sp);

/* lab_scan_run_record_header -- everything before the runs: tool, host, backend, config, device, dataset. */
bool lab_scan_run_record_header (lab_scan_run_plan_t *sp, bson_t *results, bson_error_t *error);

/* lab_scan_run_record_calibration -- with --calibrate: measure the device's limits (before the runs: its file
 * must not sit in the page cache during them) into "calibration". */
bool lab_scan_run_record_calibration (const lab_scan_run_plan_t *sp, bson_t *results, bson_error_t *error);

/* lab_scan_run_dataset_coll -- count, sizes and index facts of one collection. */
bool lab_scan_run_dataset_coll (lab_store_session_t *sess, bson_t *ds, const char *name, const char *coll,
                                bson_error_t *error);

#endif
