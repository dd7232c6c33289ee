/*
 * mix_estimate.c -- layout-report --mix SPEC: the user's mix estimated from the separate
 * workloads of a results file when no mixed run exists (docs/results-schema.md, "Estimated mix"). Each
 * workload was measured alone, cold: its elapsed time over its operations is the cost of one operation of
 * that type on that layout, and the mix's elapsed time is those costs re-weighted by the mix's proportions.
 * What it cannot see (the types interfering in one stream, the cache they share) the report says beside it.
 */
#include <math.h>
#include <string.h>

#include "compare/cmp.h"
#include "core/error.h"

/* How an estimate was made: the "source" of an estimated mix (docs/results-schema.md), and which load it
 * took. */
static const char estimated_source[] =
   "re-weighted from the workloads of this file (each measured alone): an estimate";
static const char estimated_source_random[] =
   "re-weighted from the workloads of this file (each measured alone): an estimate; its load ops cost what "
   "the load in random order cost (the mix picks masters at random)";
static const char estimated_source_key[] =
   "re-weighted from the workloads of this file (each measured alone): an estimate; its load ops cost what "
   "the load in key order cost (contiguous segments of the sorted keys: cheaper than the mix's random picks; "
   "scancmp --load-order both measures the random order)";

/* load_workload -- the load the mix's load ops are costed by: the random-order one when the file has it
 * (--load-order both: "load_random"; a headline in random order: "load"), else the key-order "load". */
static const lab_cmp_workload_t *
load_workload (const lab_cmp_workloads_t *wl)
{
   const lab_cmp_workload_t *w = lab_cmp_workload_find (wl, "load_random");

   return w ? w : lab_cmp_workload_find (wl, "load");
}

/* op_count -- the operations workload `w` ran on layout entry `l` (docs/results-schema.md): load its queries,
 * else the run's masters (runs[0].keys); row queries x params.row_batch (1 when absent); range queries;
 * append and update write.writes. LAB_CMP_WL_UNKNOWN when the file does not say. */
static double
op_count (lab_cmp_mix_type_t t, const lab_cmp_workload_t *w, const lab_cmp_wl_layout_t *l, const bson_t *doc)
{
   double batch = 1, keys;

   switch (t) {
   case LAB_CMP_MIX_LOAD:
      if (l->queries > 0) {
         return l->queries;
      }
      return lab_results_get_number (doc, "runs.0.keys", &keys) && keys > 0 ? keys : LAB_CMP_WL_UNKNOWN;
   case LAB_CMP_MIX_ROW:
      if (!lab_results_get_number (&w->params, "row_batch", &batch) || !(batch > 0)) {
         batch = 1;
      }
      return l->queries > 0 ? l->queries * batch : LAB_CMP_WL_UNKNOWN;
   case LAB_CMP_MIX_RANGE:
      return l->queries > 0 ? l->queries : LAB_CMP_WL_UNKNOWN;
   case LAB_CMP_MIX_APPEND:
   case LAB_CMP_MIX_UPDATE:
   default:
      return l->writes > 0 ? l->writes : LAB_CMP_WL_UNKNOWN;
   }
}

/* items_of -- the timed items of workload w behind its n ops: a row query answers params.row_batch ops,
 * every other item is one op. */
static double
items_of (lab_cmp_mix_type_t t, const lab_cmp_workload_t *w, double n)
{
   double batch = 1;

   if (t == LAB_CMP_MIX_ROW && lab_results_get_number (&w->params, "row_batch", &batch) && batch > 0) {
      return n / batch;
   }
   return n;
}

/* estimate_layout -- layout `name` of the estimate: per type in the mix its ops and time, the elapsed time,
 * the write and read bytes. False with *error naming the type, the layout and the file. */
static bool
estimate_layout (const lab_cmp_workloads_t *wl, const bson_t *doc, const char *name, const char *file,
                 const double share[LAB_CMP_MIX_TYPES], double ops, lab_cmp_mix_layout_t *ml,
                 bson_error_t *error)
{
   double write_bytes = 0, read_bytes = 0;
   int t;

   ml->layout = name;
   ml->elapsed_s = 0;
   ml->ops_per_s = ml->x_vs_winner = LAB_CMP_WL_UNKNOWN;
   ml->disk_reads = ml->disk_write_bytes = ml->journal_bytes = ml->cpu_s = LAB_CMP_WL_UNKNOWN;
   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      lab_cmp_mix_op_t *op = &ml->by_type[t];
      const lab_cmp_workload_t *w;
      const lab_cmp_wl_layout_t *l;
      double n, cost;
      int k;

      op->ops = 0;
      op->time_s = op->p50_ms = op->p95_ms = op->p99_ms = op->max_ms = op->mean_ms = op->rows =
         LAB_CMP_WL_UNKNOWN;
      if (!(share[t] > 0)) {
         continue;
      }
      w = t == LAB_CMP_MIX_LOAD ? load_workload (wl) : lab_cmp_workload_find (wl, lab_cmp_mix_type_names[t]);
      if (!w || (k = lab_cmp_wl_layout_find (w, name)) < 0) {
         lab_error_set (
            error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
            "--mix: %s has no %s workload measured on layout \"%s\": the estimate needs every type "
            "of the mix measured on every layout (scancmp --workload %s), or drop %s from the mix",
            file, lab_cmp_mix_type_names[t], name, lab_cmp_mix_type_names[t], lab_cmp_mix_type_names[t]);
         return false;
      }
      l = &w->layouts[k];
      if (!((n = op_count ((lab_cmp_mix_type_t)t, w, l, doc)) > 0)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--mix: %s: the %s workload on layout \"%s\" does not say how many operations it ran "
                        "(%s): the cost of one cannot be computed",
                        file, lab_cmp_mix_type_names[t], name,
                        lab_cmp_wl_is_write (w->workload) ? "write.writes" : "queries");
         return false;
      }
      cost = l->elapsed_s / n;
      op->ops = ops * share[t];
      /* time per op is one quantity in both mix tables: an op's own time, the mean latency (a row query
       * of a batch answers row_batch ops); the elapsed time re-weights the wall time, workers together */
      op->mean_ms = l->mean_ms;
      op->time_s = l->mean_ms >= 0
                      ? op->ops * l->mean_ms / 1000.0 * items_of ((lab_cmp_mix_type_t)t, w, n) / n
                      : LAB_CMP_WL_UNKNOWN;
      ml->elapsed_s += op->ops * cost;
      /* the reads write nothing; a write type whose engine bytes are unknown leaves the total unknown */
      if (t >= LAB_CMP_MIX_APPEND) {
         write_bytes =
            write_bytes < 0 || l->engine_per_write < 0 ? -1 : write_bytes + op->ops * l->engine_per_write;
      }
      read_bytes =
         read_bytes < 0 || l->disk_read_bytes < 0 ? -1 : read_bytes + op->ops * l->disk_read_bytes / n;
   }
   ml->engine_write_bytes = write_bytes;
   ml->disk_read_bytes = read_bytes;
   return true;
}

/* lab_cmp_mix_estimate -- see cmp.h. */
bool
lab_cmp_mix_estimate (const lab_cmp_workloads_t *wl, const bson_t *doc, const lab_results_layouts_t *ls,
                      const char *name, const double weight[LAB_CMP_MIX_TYPES], double ops,
                      lab_cmp_mix_t *out, bson_error_t *error)
{
   double share[LAB_CMP_MIX_TYPES], sum = 0;
   size_t i;
   int t;

   memset (out, 0, sizeof *out);
   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      sum += weight[t];
   }
   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      out->weight[t] = weight[t];
      share[t] = sum > 0 ? weight[t] / sum : 0;
   }
   out->present = out->estimated = true;
   out->spec = lab_cmp_mix_spec_text (weight);
   out->ops = ops;
   out->seed = out->workers = LAB_CMP_WL_UNKNOWN;
   out->cold = out->rows_equal = -1;
   out->source = !(weight[LAB_CMP_MIX_LOAD] > 0) || !load_workload (wl) ? estimated_source
                 : load_workload (wl)->load_order && strcmp (load_workload (wl)->load_order, "random") == 0
                    ? estimated_source_random
                    : estimated_source_key;
   out->layouts = bson_malloc0 (sizeof *out->layouts * (ls->n ? ls->n : 1));
   for (i = 0; i < ls->n; i++) {
      if (!estimate_layout (wl, doc, ls->l[i].name, name, share, ops, &out->layouts[i], error)) {
         return false;
      }
      out->layouts[i].collection = ls->l[i].collection;
      out->layouts[i].kind = ls->l[i].kind;
      out->n_layouts = i + 1;
      /* an estimate has no runs: one figure each, judged as one run */
      out->layouts[i].elapsed = lab_results_stat_runs (&out->layouts[i].elapsed_s, NULL, 1);
   }
   lab_cmp_mix_rank (out);
   for (i = 0; i < out->n_layouts; i++) {
      lab_cmp_mix_layout_t *l = &out->layouts[i];
      l->state_count = -1; /* an estimate started on no data of its own */
      l->ops_per_s = l->elapsed_s > 0 ? ops / l->elapsed_s : LAB_CMP_WL_UNKNOWN;
      l->x_vs_winner = out->layouts[out->winner].elapsed_s > 0
                          ? l->elapsed_s / out->layouts[out->winner].elapsed_s
                          : LAB_CMP_WL_UNKNOWN;
   }
   out->read_bytes_scaled = out->n_layouts > 0;
   for (i = 0; i < out->n_layouts; i++) {
      out->read_bytes_scaled = out->read_bytes_scaled && out->layouts[i].disk_read_bytes >= 0;
   }
   return true;
}
