/*
 * wl_state.c -- what a measurement found and what it changed (measure.h): each layout's documents and data
 * size at the start of every measurement (the load's runs, each workload, the mix), read from the store's
 * cheap statistics before the cold step, so that a report can say on which state of the data each figure
 * was measured; and after a write workload or a mix, the writes appended to the written collection's
 * provenance marker (store/mark.h, "writes"), so that later runs and reports know the data is no longer
 * what its fold verified.
 */
#include "scan/measure/measure.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/log.h"
#include "store/mark.h"

#include <string.h>

/* lab_scan_state_read -- see measure.h. */
void
lab_scan_state_read (const lab_scan_plan_t *p, const char *coll, lab_scan_state_t *st)
{
   lab_store_coll_stats_t cs;
   lab_store_session_t *sess;
   bson_error_t err;

   st->count = st->data_size_bytes = -1;
   sess = lab_store_session_open (p->store, &err);
   if (sess && lab_store_stats (sess, coll, &cs, &err)) {
      st->count = cs.count;
      st->data_size_bytes = cs.data_size_bytes >= 0 ? cs.data_size_bytes : -1;
   } else {
      /* a figure of the record, not of the measurement: unknown rather than a failed run */
      lab_log_debug ("the state of %s before measuring it: %s", coll, err.message);
   }
   lab_store_session_close (sess);
}

/* lab_scan_state_append -- see measure.h. */
void
lab_scan_state_append (bson_t *d, const lab_scan_state_t *st)
{
   bson_t s;

   if (st->count < 0) {
      return;
   }
   BSON_APPEND_DOCUMENT_BEGIN (d, "state", &s);
   BSON_APPEND_INT64 (&s, "count", st->count);
   if (st->data_size_bytes >= 0) {
      BSON_APPEND_INT64 (&s, "data_size_bytes", st->data_size_bytes);
   }
   bson_append_document_end (d, &s);
}

/* lab_scan_state_of_run1 -- see measure.h. */
void
lab_scan_state_of_run1 (const bson_t *results, const char *layout, lab_scan_state_t *st)
{
   bson_iter_t it, runs, f;
   int32_t run;

   st->count = st->data_size_bytes = -1;
   if (!bson_iter_init_find (&it, results, "runs") || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &runs)) {
      return;
   }
   while (bson_iter_next (&runs)) {
      const char *name = NULL;
      bson_iter_t e;
      if (!BSON_ITER_HOLDS_DOCUMENT (&runs) || !bson_iter_recurse (&runs, &e)) {
         continue;
      }
      run = 0;
      while (bson_iter_next (&e)) {
         if (strcmp (bson_iter_key (&e), "run") == 0 && BSON_ITER_HOLDS_INT32 (&e)) {
            run = bson_iter_int32 (&e);
         } else if (strcmp (bson_iter_key (&e), "layout") == 0 && BSON_ITER_HOLDS_UTF8 (&e)) {
            name = bson_iter_utf8 (&e, NULL);
         }
      }
      if (run != 1 || !name || strcmp (name, layout) != 0 || !bson_iter_recurse (&runs, &e)) {
         continue;
      }
      if (bson_iter_find_descendant (&e, "state.count", &f) && BSON_ITER_HOLDS_INT64 (&f)) {
         st->count = bson_iter_int64 (&f);
      }
      if (bson_iter_recurse (&runs, &e) && bson_iter_find_descendant (&e, "state.data_size_bytes", &f) &&
          BSON_ITER_HOLDS_INT64 (&f)) {
         st->data_size_bytes = bson_iter_int64 (&f);
      }
      return;
   }
}

/* lab_scan_writes_mark -- see measure.h. */
bool
lab_scan_writes_mark (const lab_scan_plan_t *p, const char *coll, const char *workload, int64_t appended,
                      int64_t updated, bool failed, bson_error_t *error)
{
   lab_store_session_t *sess;
   bson_t entry = BSON_INITIALIZER;
   char now[40];
   bool added = false, ok;

   if (appended <= 0 && updated <= 0) {
      bson_destroy (&entry);
      return true; /* nothing written: the data is as it was */
   }
   BSON_APPEND_UTF8 (&entry, "tool", "scancmp");
   BSON_APPEND_UTF8 (&entry, "workload", workload);
   BSON_APPEND_INT64 (&entry, "rows_appended", appended > 0 ? appended : 0);
   BSON_APPEND_INT64 (&entry, "rows_updated", updated > 0 ? updated : 0);
   lab_store_mark_now (now, sizeof now);
   BSON_APPEND_UTF8 (&entry, "at", now);
   lab_cli_command_line_append (&entry, "command_line", p->opts->argc, p->opts->argv);
   if (failed) {
      BSON_APPEND_BOOL (&entry, "failed", true); /* the counts are those done before the failure */
   }
   sess = lab_store_session_open (p->store, error);
   ok = sess && lab_store_mark_write_add (sess, coll, &entry, &added, error);
   lab_store_session_close (sess);
   if (!ok) {
      lab_error_prefix (error, "recording the %s writes to %s in %s", workload, coll, LAB_MARK_COLL);
   } else if (!added) {
      lab_log_debug ("%s has no marker in %s: its %s writes are recorded in the results only", coll,
                     LAB_MARK_COLL, workload);
   }
   bson_destroy (&entry);
   return ok;
}
