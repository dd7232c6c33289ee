/*
 * wl_prep.c -- the workloads besides the load (workload.h), before anything is made cold: every layout's
 * workload index checked (or created with --create-workload-indexes), the inputs drawn (from a layout of
 * one document per master when there is one, the writes from the first rows layout). wl_run.c runs them.
 */
#include "scan/measure/measure.h"

#include "core/error.h"
#include "core/log.h"

#include <string.h>

/* ---- indexes ------------------------------------------------------------------------------------- */

/* index_check -- the index of (kind, layout): its facts into ix, created when missing and asked to;
 * missing and not asked: its shell command appended to *missing. */
static bool
index_check (lab_store_session_t *sess, const lab_scan_opts_t *o, lab_scan_wl_kind_t kind,
             const lab_results_layout_t *l, lab_scan_wl_index_t *ix, char **missing, bool *would_build,
             bson_error_t *error)
{
   bool array = lab_layout_doc_holds_many_rows (&l->desc);
   lab_store_index_spec_t spec;
   char names[LAB_STORE_INDEX_MAX_FIELDS][256];
   int i;

   memset (ix, 0, sizeof *ix);
   if (!lab_scan_wl_index (o, kind, array, &spec, names)) {
      return true; /* a collection scan needs none */
   }
   if (kind == LAB_WL_LOAD && lab_layout_read_by_id_range (&l->desc)) {
      return true; /* a master is a range of the clustered _id: no key index (§23) */
   }
   ix->used = true;
   ix->nfields = spec.n;
   for (i = 0; i < spec.n; i++) {
      bson_strncpy (ix->fields[i], names[i], sizeof ix->fields[i]);
   }
   lab_store_index_spec_name (&spec, ix->name, sizeof ix->name);
   if (!lab_store_index_info (sess, l->collection, &spec, &ix->exists, &ix->multikey, &ix->size_bytes,
                              error)) {
      lab_error_prefix (error, "the %s workload's index on %s", lab_scan_wl_name (kind), l->collection);
      return false;
   }
   if (ix->exists) {
      return true;
   }
   if (would_build) { /* the dry pass: what the real one would build, nothing built */
      *would_build |= o->wl.create_indexes;
      return true;
   }
   if (!o->wl.create_indexes) {
      char *cmd = lab_store_index_spec_shell (l->collection, &spec);
      char *both = bson_strdup_printf ("%s%s%s (%s, layout %s)", *missing ? *missing : "",
                                       *missing ? "; " : "", cmd, lab_scan_wl_name (kind), l->name);
      bson_free (*missing);
      bson_free (cmd);
      *missing = both;
      return true;
   }
   lab_log_info ("creating the %s workload's index %s on %s", lab_scan_wl_name (kind), ix->name,
                 l->collection);
   if (!lab_store_create_index_spec (sess, l->collection, &spec, error) ||
       !lab_store_index_info (sess, l->collection, &spec, &ix->exists, &ix->multikey, &ix->size_bytes,
                              error)) {
      lab_error_prefix (error, "creating index %s on %s", ix->name, l->collection);
      return false;
   }
   ix->created = true;
   return true;
}

/* lab_scan_workloads_index_builds -- see workload.h. */
bool
lab_scan_workloads_index_builds (const lab_scan_plan_t *p, lab_store_session_t *sess, bool *builds,
                                 bson_error_t *error)
{
   const lab_scan_opts_t *o = p->opts;
   lab_scan_wl_index_t ix;
   size_t i;
   int k;

   for (i = 0; i < p->layouts.n; i++) {
      builds[i] = false;
   }
   for (k = LAB_WL_LOAD; k < LAB_WL_NKINDS && o->wl.create_indexes; k++) {
      if (!(o->wl.set & (1u << k)) && o->wl.mix_weight[k] <= 0) {
         continue;
      }
      for (i = 0; i < p->layouts.n; i++) {
         if (!index_check (sess, o, (lab_scan_wl_kind_t)k, &p->layouts.l[i], &ix, NULL, &builds[i], error)) {
            return false;
         }
      }
   }
   return true;
}

/* lab_scan_workloads_prepare -- see workload.h. */
bool
lab_scan_workloads_prepare (const lab_scan_plan_t *p, lab_store_session_t *sess, lab_scan_wl_prep_t *wp,
                            bson_error_t *error)
{
   const lab_scan_opts_t *o = p->opts;
   const lab_results_layouts_t *ls = &p->layouts;
   const lab_results_layout_t *from = &ls->l[ls->reference];
   char *missing = NULL;
   size_t i;
   int k;
   bool mix = false;

   memset (wp, 0, sizeof *wp);
   for (k = LAB_WL_LOAD; k < LAB_WL_NKINDS; k++) {
      mix |= o->wl.mix_weight[k] > 0; /* --mix (wl_mix.c): its types' indexes checked here too */
   }
   if (!lab_scan_wl_any (o) && !mix) {
      return true;
   }
   wp->mode =
      p->backend == LAB_BACKEND_MONGO && !p->info.query_subset ? LAB_WL_MODE_SERVER : LAB_WL_MODE_TOOL;
   for (k = LAB_WL_LOAD; k < LAB_WL_NKINDS; k++) {
      if (!(o->wl.set & (1u << k)) && o->wl.mix_weight[k] <= 0) {
         continue;
      }
      for (i = 0; i < ls->n; i++) {
         if (!index_check (sess, o, (lab_scan_wl_kind_t)k, &ls->l[i], &wp->index[k][i], &missing, NULL,
                           error)) {
            bson_free (missing);
            return false;
         }
      }
   }
   if (missing) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
         "the workloads need indexes a DBA would create for them, and these are missing: %s. Create "
         "them, or let scancmp build them with --create-workload-indexes",
         missing);
      bson_free (missing);
      return false;
   }
   /* draw from a layout of one document per master when there is one: one fetch per master */
   for (i = 0; i < ls->n; i++) {
      if (lab_layout_one_doc_per_master (&ls->l[i].desc)) {
         from = &ls->l[i];
         break;
      }
   }
   if (!lab_scan_wl_inputs_draw (sess, o, o->wl.set, from, p->keys, p->nkeys, &wp->in, error)) {
      return false;
   }
   from = NULL;
   for (i = 0; i < ls->n && !from; i++) {
      if (lab_layout_reads_rows (&ls->l[i].desc)) {
         from = &ls->l[i];
      }
   }
   return lab_scan_wl_writes_draw (sess, o, o->wl.set, from, p->keys, p->nkeys, &wp->in, error);
}

/* lab_scan_workloads_cleanup -- see workload.h. */
void
lab_scan_workloads_cleanup (lab_scan_wl_prep_t *wp)
{
   /* the writes first: lab_scan_wl_inputs_cleanup clears the whole struct */
   lab_scan_wl_writes_cleanup (&wp->in.append);
   lab_scan_wl_writes_cleanup (&wp->in.update);
   lab_scan_wl_inputs_cleanup (&wp->in);
}
