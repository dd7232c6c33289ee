/*
 * mix.c -- the user's mix (the "mix" object agreed in docs/results-schema.md between scancmp --mix and
 * layout-report): a mix spec parsed, a measured "mix" read from a results file (validated like
 * workloads.c validates "workloads": a field of the wrong type refused naming the file, the entry and the
 * field; a figure the run did not know becomes LAB_CMP_WL_UNKNOWN, shown as n/a), and the estimate
 * layout-report --mix makes from the file's separate workloads when no mixed run exists. Pure functions of
 * the results document.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "compare/fields.h"
#include "core/error.h"
#include "core/mix_spec.h"

const char *const lab_cmp_mix_type_names[LAB_CMP_MIX_TYPES] = { "load", "row", "range", "append", "update" };

/* The kind of core/mix_spec.h each op type is (the spec's grammar and names are core's). */
static const int cmp_kind[LAB_CMP_MIX_TYPES] = { LAB_MIX_SPEC_LOAD, LAB_MIX_SPEC_ROW, LAB_MIX_SPEC_RANGE,
                                                 LAB_MIX_SPEC_APPEND, LAB_MIX_SPEC_UPDATE };

/* lab_cmp_mix_type_of -- see cmp.h. */
int
lab_cmp_mix_type_of (const char *s, size_t len)
{
   int k = lab_mix_spec_kind_of (s, len), t;

   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      if (cmp_kind[t] == k) {
         return t;
      }
   }
   return -1;
}

/* lab_cmp_mix_spec_parse -- see cmp.h (the grammar: core/mix_spec.h, shared with scancmp --mix). */
bool
lab_cmp_mix_spec_parse (const char *spec, double weight[LAB_CMP_MIX_TYPES], bson_error_t *error)
{
   double w[LAB_MIX_SPEC_NKINDS];
   int t;

   if (!lab_mix_spec_parse ("--mix", spec, w, error)) {
      return false;
   }
   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      weight[t] = w[cmp_kind[t]];
   }
   return true;
}

/* lab_cmp_mix_spec_text -- see cmp.h. */
char *
lab_cmp_mix_spec_text (const double weight[LAB_CMP_MIX_TYPES])
{
   double w[LAB_MIX_SPEC_NKINDS] = { 0 };
   char buf[256];
   int t;

   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      w[cmp_kind[t]] = weight[t];
   }
   lab_mix_spec_text (w, buf, sizeof buf);
   return bson_strdup (buf);
}

/* ---- reading a measured mix ------------------------------------------------------------------------ */

/* the clause of a refused missing figure every mix must carry */
#define MIX_REQUIRED ", which every mix carries (docs/results-schema.md)"

/* get_view -- *out a view of the object (or, with `array`, the non-empty array) at `key`; refused, as
 * missing or of another type, naming `where`. */
static bool
get_view (const bson_t *doc, const char *key, bool array, const char *where, bson_t *out, bson_error_t *error)
{
   bson_iter_t it;
   bool found;

   if (!lab_cmp_field_find (doc, key, &it) ||
       (array ? !BSON_ITER_HOLDS_ARRAY (&it) : !BSON_ITER_HOLDS_DOCUMENT (&it))) {
      bson_init (out);
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"%s\" is missing or not %s (docs/results-schema.md)",
                     where, key, array ? "an array" : "an object");
      return false;
   }
   if (!lab_cmp_field_view (doc, key, array, where, out, &found, error)) {
      return false;
   }
   if (array && bson_count_keys (out) == 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"%s\" is empty: one entry per layout or op type",
                     where, key);
      return false;
   }
   return true;
}

/* unknown_op -- every figure of an op type unknown, no ops. */
static void
unknown_op (lab_cmp_mix_op_t *op)
{
   op->ops = 0;
   op->time_s = op->p50_ms = op->p95_ms = op->p99_ms = op->max_ms = op->mean_ms = op->rows =
      LAB_CMP_WL_UNKNOWN;
   op->svc_p50_ms = op->svc_p95_ms = op->svc_p99_ms = LAB_CMP_WL_UNKNOWN;
}

/* read_op -- by_type entry `e` (named `w`) into its slot of l. */
static bool
read_op (const bson_t *e, const char *w, lab_cmp_mix_layout_t *l, bson_error_t *error)
{
   static const char *const lat[] = {
      "latency_ms.p50",  "latency_ms.p95", "latency_ms.p99", "latency_ms.max",
      "latency_ms.mean", "service_ms.p50", "service_ms.p95", "service_ms.p99"
   };
   const char *name;
   lab_cmp_mix_op_t *op;
   double *lat_out[8];
   int t;
   size_t i;

   if (!lab_cmp_field_string (e, "op", w, &name, error)) {
      return false;
   }
   if (!name || (t = lab_cmp_mix_type_of (name, strlen (name))) < 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: \"op\" %s%s%s is none of load, row, range, append, update", w, name ? "\"" : "",
                     name ? name : "(missing)", name ? "\"" : "");
      return false;
   }
   op = &l->by_type[t];
   if (op->ops > 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: op \"%s\" appears twice", w, name);
      return false;
   }
   lat_out[0] = &op->p50_ms, lat_out[1] = &op->p95_ms, lat_out[2] = &op->p99_ms, lat_out[3] = &op->max_ms;
   lat_out[4] = &op->mean_ms, lat_out[5] = &op->svc_p50_ms, lat_out[6] = &op->svc_p95_ms;
   lat_out[7] = &op->svc_p99_ms;
   if (!lab_cmp_field_figure (e, "ops", MIX_REQUIRED, w, &op->ops, error) ||
       !lab_cmp_field_figure (e, "time_s", MIX_REQUIRED, w, &op->time_s, error) ||
       !lab_cmp_field_figure (e, "rows", NULL, w, &op->rows, error)) {
      return false;
   }
   for (i = 0; i < 8; i++) {
      if (!lab_cmp_field_figure (e, lat[i], NULL, w, lat_out[i], error)) {
         return false;
      }
   }
   return true;
}

/* read_layout -- layout entry `d` (named `where`) of the mix into l. */
static bool
read_layout (const bson_t *d, const char *where, lab_cmp_mix_layout_t *l, bson_error_t *error)
{
   static const struct {
      const char *key;
      size_t offset;
   } figures[] = {
      { "ops_per_s", offsetof (lab_cmp_mix_layout_t, ops_per_s) },
      { "x_vs_winner", offsetof (lab_cmp_mix_layout_t, x_vs_winner) },
      { "disk_read_bytes", offsetof (lab_cmp_mix_layout_t, disk_read_bytes) },
      { "disk_reads", offsetof (lab_cmp_mix_layout_t, disk_reads) },
      { "disk_write_bytes", offsetof (lab_cmp_mix_layout_t, disk_write_bytes) },
      { "engine_write_bytes", offsetof (lab_cmp_mix_layout_t, engine_write_bytes) },
      { "journal_bytes", offsetof (lab_cmp_mix_layout_t, journal_bytes) },
      { "cpu_s", offsetof (lab_cmp_mix_layout_t, cpu_s) },
      { "latency_s", offsetof (lab_cmp_mix_layout_t, latency_s) },
      { "schedule.achieved_ops_s", offsetof (lab_cmp_mix_layout_t, achieved_ops_s) },
      { "schedule.max_lag_ms", offsetof (lab_cmp_mix_layout_t, max_lag_ms) },
      { "cpu.client_cores", offsetof (lab_cmp_mix_layout_t, client_cores) },
      { "cpu.store_cores", offsetof (lab_cmp_mix_layout_t, store_cores) },
      { "cpu.machine_busy_cores", offsetof (lab_cmp_mix_layout_t, machine_busy_cores) },
      { "cpu.machine_cores", offsetof (lab_cmp_mix_layout_t, machine_cores) },
   };
   bson_t arr, e;
   bson_iter_t it;
   bool ok = true;
   size_t i = 0;
   int t;

   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      unknown_op (&l->by_type[t]);
   }
   if (!lab_cmp_field_string (d, "collection", where, &l->collection, error) ||
       !lab_cmp_field_string (d, "kind", where, &l->kind, error) ||
       !lab_cmp_field_string (d, "digest", where, &l->digest, error) ||
       !lab_cmp_field_figure (d, "elapsed_s", MIX_REQUIRED, where, &l->elapsed_s, error) ||
       !lab_cmp_field_runs (d, "elapsed_s", l->elapsed_s, where, &l->elapsed, error)) {
      return false;
   }
   for (i = 0; i < sizeof figures / sizeof figures[0]; i++) {
      if (!lab_cmp_field_figure (d, figures[i].key, NULL, where, (double *)((char *)l + figures[i].offset),
                                 error)) {
         return false;
      }
   }
   if (!lab_cmp_field_flag (d, "schedule.behind", where, &l->behind, error) ||
       !lab_cmp_field_flag (d, "cpu.saturated", where, &l->saturated, error) ||
       !lab_cmp_field_string (d, "cpu.store", where, &l->store_cpu, error)) {
      return false;
   }
   if (!lab_results_get_number (d, "state.count", &l->state_count)) {
      l->state_count = -1; /* files before the state was recorded */
   }
   if (!get_view (d, "by_type", true, where, &arr, error)) {
      return false;
   }
   bson_iter_init (&it, &arr);
   for (i = 0; ok && bson_iter_next (&it); i++) {
      char *w = bson_strdup_printf ("%s: by_type[%zu]", where, i);
      ok = lab_cmp_field_entry (&it, w, &e, error) && read_op (&e, w, l, error);
      bson_free (w);
   }
   return ok;
}

/* read_layouts -- the "layouts" of mix `d` (named `where`) into m. */
static bool
read_layouts (const bson_t *d, const char *where, lab_cmp_mix_t *m, bson_error_t *error)
{
   bson_t arr, e;
   bson_iter_t it;
   bool ok = true;
   size_t i = 0;

   if (!get_view (d, "layouts", true, where, &arr, error)) {
      return false;
   }
   m->layouts = bson_malloc0 (sizeof *m->layouts * bson_count_keys (&arr));
   bson_iter_init (&it, &arr);
   for (i = 0; ok && bson_iter_next (&it); i++) {
      lab_cmp_mix_layout_t *l = &m->layouts[i];
      char *wi = bson_strdup_printf ("%s: layouts[%zu]", where, i);

      ok = lab_cmp_field_entry (&it, wi, &e, error) &&
           lab_cmp_field_string (&e, "layout", wi, &l->layout, error);
      if (ok && (!l->layout || !*l->layout)) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: no \"layout\" name", wi);
         ok = false;
      }
      if (ok && lab_cmp_mix_layout_find (m, l->layout) >= 0) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: layout \"%s\" appears twice", wi, l->layout);
         ok = false;
      }
      if (ok) {
         char *wl = bson_strdup_printf ("%s (%s)", wi, l->layout);
         ok = read_layout (&e, wl, l, error);
         m->n_layouts = i + 1;
         bson_free (wl);
      }
      bson_free (wi);
   }
   return ok;
}

/* read_proportions -- "proportions" of mix `d`: an object of op types, each weight a number >= 0. */
static bool
read_proportions (const bson_t *d, const char *where, lab_cmp_mix_t *m, bson_error_t *error)
{
   char *wp = bson_strdup_printf ("%s: proportions", where);
   bson_t props;
   bson_iter_t it;
   double sum = 0;
   bool ok = get_view (d, "proportions", false, where, &props, error);

   bson_iter_init (&it, &props);
   while (ok && bson_iter_next (&it)) {
      const char *k = bson_iter_key (&it);
      int t = lab_cmp_mix_type_of (k, strlen (k));

      if (t < 0) {
         lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"%s\" is none of load, row, range, append, update",
                        wp, k);
         ok = false;
      } else {
         ok = lab_cmp_field_figure (&props, k, MIX_REQUIRED, wp, &m->weight[t], error);
         sum += ok ? m->weight[t] : 0;
      }
   }
   if (ok && !(sum > 0)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: every weight is 0", wp);
      ok = false;
   }
   bson_free (wp);
   return ok;
}

/* lab_cmp_mix_score -- see cmp.h. */
double
lab_cmp_mix_score (const lab_cmp_mix_t *m, const lab_cmp_mix_layout_t *l)
{
   return m->open ? l->latency_s : l->elapsed_s;
}

/* lab_cmp_mix_rank -- see cmp.h. */
void
lab_cmp_mix_rank (lab_cmp_mix_t *m)
{
   lab_stat_t st[LAB_RESULTS_MAX_LAYOUTS] = { { 0 } };
   lab_results_noise_t timed = { true, LAB_RESULTS_TIMER_RES_S };
   size_t i, n = m->n_layouts < LAB_RESULTS_MAX_LAYOUTS ? m->n_layouts : LAB_RESULTS_MAX_LAYOUTS;

   for (i = 0; i < n; i++) {
      double score = lab_cmp_mix_score (m, &m->layouts[i]);
      /* a closed loop's runs of elapsed_s; an open loop's summed latency (one figure per layout) */
      st[i] = m->open ? lab_results_stat_runs (&score, NULL, score >= 0 ? 1 : 0) : m->layouts[i].elapsed;
   }
   m->tie = lab_results_rank (LAB_BETTER_LOWER, st, n, &timed, &m->rank) == LAB_WIN_TIE;
   m->winner = m->rank.best;
   for (i = 0; i < n; i++) {
      /* with paired runs "x vs winner" is the rule's ratio (its geometric mean), as the winner's factor */
      lab_verdict_t v = lab_results_verdict (LAB_BETTER_LOWER, &st[m->winner], &st[i], &timed);
      if (i != m->winner && v.has_ci) {
         m->layouts[i].x_vs_winner = v.ratio;
      }
   }
}

/* derive -- the winner by the one rule (the file's "winner" is what its writer thought), ops/s and x vs
 * winner from the scores. */
static void
derive (lab_cmp_mix_t *m)
{
   size_t i;
   double best;

   lab_cmp_mix_rank (m);
   best = lab_cmp_mix_score (m, &m->layouts[m->winner]);
   for (i = 0; i < m->n_layouts; i++) {
      lab_cmp_mix_layout_t *l = &m->layouts[i];
      if (l->ops_per_s < 0 && l->elapsed_s > 0) {
         l->ops_per_s = m->ops / l->elapsed_s;
      }
      if (l->x_vs_winner < 0 && best > 0 && lab_cmp_mix_score (m, l) >= 0) {
         l->x_vs_winner = lab_cmp_mix_score (m, l) / best;
      }
   }
}

/* lab_cmp_mix_of -- see cmp.h. */
bool
lab_cmp_mix_of (const bson_t *doc, const char *name, lab_cmp_mix_t *out, bson_error_t *error)
{
   char *where = bson_strdup_printf ("%s: mix", name);
   const char *spec = NULL, *winner = NULL, *mode = NULL;
   int estimated = -1;
   bson_t d;
   bson_iter_t it;
   bool ok;

   memset (out, 0, sizeof *out);
   if (!lab_cmp_field_find (doc, "mix", &it)) {
      bson_free (where);
      return true;
   }
   out->present = true;
   ok = get_view (doc, "mix", false, name, &d, error) &&
        lab_cmp_field_string (&d, "spec", where, &spec, error) &&
        lab_cmp_field_flag (&d, "estimated", where, &estimated, error) &&
        read_proportions (&d, where, out, error) &&
        lab_cmp_field_figure (&d, "ops", MIX_REQUIRED, where, &out->ops, error) &&
        lab_cmp_field_figure (&d, "seed", NULL, where, &out->seed, error) &&
        lab_cmp_field_figure (&d, "workers", NULL, where, &out->workers, error) &&
        lab_cmp_field_flag (&d, "cold", where, &out->cold, error) &&
        lab_cmp_field_flag (&d, "rows_equal", where, &out->rows_equal, error) &&
        lab_cmp_field_string (&d, "source", where, &out->source, error) &&
        lab_cmp_field_string (&d, "mode", where, &mode, error) &&
        lab_cmp_field_figure (&d, "rate_ops_s", NULL, where, &out->rate_ops_s, error) &&
        lab_cmp_field_flag (&d, "behind", where, &out->behind, error) &&
        lab_cmp_field_flag (&d, "saturated", where, &out->saturated, error) &&
        lab_cmp_field_string (&d, "winner", where, &winner, error) && read_layouts (&d, where, out, error);
   if (ok && (!spec || !*spec)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: no \"spec\", which every mix carries (the --mix given, docs/results-schema.md)",
                     where);
      ok = false;
   }
   if (ok && mode && strcmp (mode, "open") != 0 && strcmp (mode, "closed") != 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"mode\" \"%s\" is neither \"open\" nor \"closed\"",
                     where, mode);
      ok = false;
   }
   out->open = ok && mode && strcmp (mode, "open") == 0;
   if (ok && out->open && !(out->rate_ops_s > 0)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL,
                     "%s: an open loop (\"mode\": \"open\") without its \"rate_ops_s\"", where);
      ok = false;
   }
   if (ok && !(out->ops > 0)) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"ops\" must be above 0", where);
      ok = false;
   }
   if (ok && winner && lab_cmp_mix_layout_find (out, winner) < 0) {
      lab_error_set (error, LAB_ERROR_IO, EINVAL, "%s: \"winner\" \"%s\" is none of its layouts", where,
                     winner);
      ok = false;
   }
   if (ok) {
      out->estimated = estimated == 1;
      out->spec = bson_strdup (spec);
      out->winner = winner ? (size_t)lab_cmp_mix_layout_find (out, winner) : 0;
      derive (out);
   }
   bson_free (where);
   return ok;
}

/* lab_cmp_mix_json_append -- see cmp.h. */
void
lab_cmp_mix_json_append (const lab_cmp_mix_t *m, const lab_cmp_mix_t *against, const char *key, bson_t *out)
{
   bson_t d, ls, l, bt, op;
   size_t i;
   int t, k;

   if (!m || !m->present || m->n_layouts == 0) {
      return;
   }
   bson_append_document_begin (out, key, -1, &d);
   BSON_APPEND_UTF8 (&d, "spec", m->spec);
   BSON_APPEND_BOOL (&d, "estimated", m->estimated);
   BSON_APPEND_DOUBLE (&d, "ops", m->ops);
   if (!m->estimated) {
      BSON_APPEND_UTF8 (&d, "mode", m->open ? "open" : "closed");
   }
   if (m->open) {
      BSON_APPEND_DOUBLE (&d, "rate_ops_s", m->rate_ops_s);
   }
   BSON_APPEND_UTF8 (&d, "winner", m->layouts[m->winner].layout);
   /* the one rule: true when the runs cannot tell the winner from the runner-up */
   BSON_APPEND_BOOL (&d, "same", m->tie);
   BSON_APPEND_DOCUMENT_BEGIN (&d, "layouts", &ls);
   for (i = 0; i < m->n_layouts; i++) {
      const lab_cmp_mix_layout_t *x = &m->layouts[i];
      double wb = x->engine_write_bytes >= 0 ? x->engine_write_bytes : x->disk_write_bytes;

      bson_append_document_begin (&ls, x->layout, -1, &l);
      BSON_APPEND_DOUBLE (&l, "elapsed_s", x->elapsed_s);
      if (x->ops_per_s >= 0) {
         BSON_APPEND_DOUBLE (&l, "ops_per_s", x->ops_per_s);
      }
      if (x->x_vs_winner >= 0) {
         BSON_APPEND_DOUBLE (&l, "x_vs_winner", x->x_vs_winner);
      }
      if (wb >= 0) {
         BSON_APPEND_DOUBLE (&l, "write_bytes", wb);
      }
      if (x->disk_read_bytes >= 0) {
         BSON_APPEND_DOUBLE (&l, "read_bytes", x->disk_read_bytes);
      }
      BSON_APPEND_DOCUMENT_BEGIN (&l, "by_type", &bt);
      for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
         if (x->by_type[t].ops > 0) {
            BSON_APPEND_DOCUMENT_BEGIN (&bt, lab_cmp_mix_type_names[t], &op);
            BSON_APPEND_DOUBLE (&op, "ops", x->by_type[t].ops);
            BSON_APPEND_DOUBLE (&op, "time_s", x->by_type[t].time_s);
            bson_append_document_end (&bt, &op);
         }
      }
      bson_append_document_end (&l, &bt);
      k = against ? lab_cmp_mix_layout_find (against, x->layout) : -1;
      if (k >= 0 && against->layouts[k].elapsed_s > 0) {
         BSON_APPEND_DOUBLE (&l, "error", x->elapsed_s / against->layouts[k].elapsed_s - 1.0);
      }
      bson_append_document_end (&ls, &l);
   }
   bson_append_document_end (&d, &ls);
   bson_append_document_end (out, &d);
}

/* lab_cmp_mix_layout_find -- see cmp.h. */
int
lab_cmp_mix_layout_find (const lab_cmp_mix_t *m, const char *layout)
{
   size_t i;

   for (i = 0; i < m->n_layouts; i++) {
      if (m->layouts[i].layout && strcmp (m->layouts[i].layout, layout) == 0) {
         return (int)i;
      }
   }
   return -1;
}

/* lab_cmp_mix_cleanup -- see cmp.h. */
void
lab_cmp_mix_cleanup (lab_cmp_mix_t *m)
{
   bson_free (m->spec);
   bson_free (m->layouts);
   memset (m, 0, sizeof *m);
}
