/*
 * guard.c -- what a measurement may write: scancmp's writes (append, update, a mix holding either) and
 * index builds (--create-index, --create-workload-indexes) only on collections a layoutlab tool wrote or
 * that --allow-writes names, all checked before the first write or build (store/mark.h).
 */
#include "scan/measure/measure.h"
#include "scan/workloads/workload.h"
#include "store/mark.h"

/* key_index_builds -- builds[i] = --create-index would build the key index on layout i (it exists, has
 * none, and is not clustered); *absent = some such layout's documents have no key field at all, which
 * the collection check refuses with the fields it saw (a wrong --key), before any guard or build. */
static bool
key_index_builds (const lab_scan_plan_t *p, lab_store_session_t *sess, bool *builds, bool *absent,
                  bson_error_t *error)
{
   const char *key = p->opts->key;
   size_t i;

   *absent = false;
   for (i = 0; i < p->layouts.n && !*absent; i++) {
      const char *coll = p->layouts.l[i].collection;
      bool has = true, exists = false, clustered = lab_layout_read_by_id_range (&p->layouts.l[i].desc);

      builds[i] = false;
      if (!lab_store_exists (sess, coll, &exists, error) ||
          (exists && !lab_store_has_index (sess, coll, key, &has, error))) {
         return false;
      }
      builds[i] = exists && !has && !clustered;
      if (builds[i] && !lab_store_field_check (sess, coll, key, absent, error)) {
         return false;
      }
   }
   return true;
}

/* lab_scan_guard_writes -- see measure.h. The store refuses a build on a collection layoutlab did not
 * write too, but only here is the refusal before the first build. */
bool
lab_scan_guard_writes (const lab_scan_plan_t *p, lab_store_session_t *sess, bson_error_t *error)
{
   const lab_scan_opts_t *o = p->opts;
   const lab_results_layouts_t *ls = &p->layouts;
   bool app = (o->wl.set & (1u << LAB_WL_APPEND)) != 0, upd = (o->wl.set & (1u << LAB_WL_UPDATE)) != 0;
   bool mapp = o->wl.mix_weight[LAB_WL_APPEND] > 0, mupd = o->wl.mix_weight[LAB_WL_UPDATE] > 0;
   bool builds[LAB_RESULTS_MAX_LAYOUTS] = { false }, absent = false;
   char what[128];
   size_t i;

   /* "--workload append,update", "--mix with update": what the refusal names */
   bson_snprintf (what, sizeof what, "%s%s%s%s%s%s", app || upd ? "--workload " : "", app ? "append" : "",
                  app && upd ? "," : "", upd ? "update" : "", (app || upd) && (mapp || mupd) ? " and " : "",
                  mapp || mupd ? (mapp && mupd ? "--mix with append and update"
                                  : mapp       ? "--mix with append"
                                               : "--mix with update")
                               : "");
   if (o->wl.create_indexes && !lab_scan_workloads_index_builds (p, sess, builds, error)) {
      return false;
   }
   for (i = 0; i < ls->n; i++) {
      const char *coll = ls->l[i].collection;

      if ((app || upd || mapp || mupd) &&
          !lab_store_mark_write_guard (p->store, sess, coll, o->allow_writes, what, NULL, error)) {
         return false;
      }
      if (builds[i] && !lab_store_mark_write_guard (p->store, sess, coll, o->allow_writes,
                                                    "--create-workload-indexes", NULL, error)) {
         return false;
      }
   }
   if (!o->create_index || !key_index_builds (p, sess, builds, &absent, error)) {
      return !o->create_index;
   }
   for (i = 0; i < ls->n && !absent; i++) {
      if (builds[i] && !lab_store_mark_write_guard (p->store, sess, ls->l[i].collection, o->allow_writes,
                                                    "--create-index", NULL, error)) {
         return false;
      }
   }
   return true;
}
