/*
 * run_opts.c -- scancmp's options (scan.h): their defaults, the layouts they name resolved, and the check
 * of what contradicts before any store is opened.
 */
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
