/*
 * serverfacts_plan.c -- parsers of listIndexes, hostInfo and explain replies, and restart detection (see
 * serverfacts.h; sources in docs/mongodb-compat.md section 15); the typed field access is serverfacts.c's
 */
#include "serverfacts.h"
#include "serverfacts_private.h"

#include "core/error.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- listIndexes -------------------------------------------------------------------------------- */

/* lab_store_facts_index_serves_sort -- see serverfacts.h. */
bool
lab_store_facts_index_serves_sort (const bson_t *desc, const char *field, int *rank)
{
   bson_iter_t it, key;
   bool first = true, ok = false;
   int nkeys = 0;
   double dir = 0;

   *rank = 0;
   if (bson_iter_init_find (&it, desc, "sparse") && bson_iter_as_bool (&it)) {
      return false;
   }
   if (bson_iter_init_find (&it, desc, "hidden") && bson_iter_as_bool (&it)) {
      return false;
   }
   if (bson_iter_init_find (&it, desc, "partialFilterExpression") ||
       bson_iter_init_find (&it, desc, "collation")) {
      return false;
   }
   if (!bson_iter_init_find (&it, desc, "key") || !BSON_ITER_HOLDS_DOCUMENT (&it) ||
       !bson_iter_recurse (&it, &key)) {
      return false;
   }
   while (bson_iter_next (&key)) {
      if (first) {
         if (strcmp (bson_iter_key (&key), field) != 0 || !BSON_ITER_HOLDS_NUMBER (&key)) {
            return false;
         }
         dir = bson_iter_as_double (&key);
         ok = dir == 1 || dir == -1;
         first = false;
      }
      nkeys++;
   }
   *rank = nkeys * 2 + (dir < 0);
   return ok;
}

/* ---- hostInfo ------------------------------------------------------------------------------------ */

/* lab_store_facts_host_os -- see serverfacts.h. */
bool
lab_store_facts_host_os (const bson_t *reply, char *os_type, size_t len, bson_error_t *error)
{
   bson_iter_t os;
   bool have;

   os_type[0] = '\0';
   if (!reply) {
      return true;
   }
   if (!lab_store_facts_get_section (reply, NULL, "os", "hostInfo", "os", &os, &have, error)) {
      return false;
   }
   return !have || lab_store_facts_get_str (reply, &os, "type", "hostInfo", "os.type", os_type, len, error);
}

/* lab_store_facts_disks_platform_note -- see serverfacts.h. */
bool
lab_store_facts_disks_platform_note (const char *os_type, char *note, size_t len)
{
   note[0] = '\0';
   if (!os_type || !*os_type || strcmp (os_type, "Linux") == 0) {
      return false;
   }
   bson_snprintf (note, len,
                  "the server runs on %s: its getDiagnosticData systemMetrics.disks are not Linux's "
                  "/proc/diskstats fields (on Windows they are performance counters such as "
                  "\\PhysicalDisk\\Disk Reads/sec; elsewhere there are none), so they cannot give read "
                  "requests and bytes",
                  os_type);
   return true;
}

/* ---- restarts ------------------------------------------------------------------------------------ */

/* lab_store_facts_restart_name -- see serverfacts.h. */
const char *
lab_store_facts_restart_name (lab_store_facts_restart_t r)
{
   switch (r) {
   case LAB_RESTART_SAME_HOST:
      return "restarted";
   case LAB_RESTART_MEMBER_CHANGED:
      return "member_changed";
   case LAB_RESTART_NONE:
   default:
      return "none";
   }
}

/* lab_store_facts_restart_of -- see serverfacts.h. */
lab_store_facts_restart_t
lab_store_facts_restart_of (const lab_store_facts_proc_t *before, const lab_store_facts_proc_t *after,
                            char *why, size_t len)
{
   int64_t d;

   if (before->host[0] && after->host[0] && strcmp (before->host, after->host) != 0) {
      bson_snprintf (why, len,
                     "another member answered: %s before, %s now (a failover or a new primary): its cache "
                     "is its own, warm or cold, not the restarted one's",
                     before->host, after->host);
      return LAB_RESTART_MEMBER_CHANGED;
   }
   if (before->start_ms >= 0 && after->start_ms >= 0) {
      d = after->start_ms - before->start_ms;
      if (d > LAB_FACTS_START_SLACK_MS || d < -LAB_FACTS_START_SLACK_MS) {
         bson_snprintf (
            why, len, "%s started %.3f s after the process seen before (pid %" PRId64 " -> %" PRId64 ")",
            after->host[0] ? after->host : "the server", (double)d / 1000.0, before->pid, after->pid);
         return LAB_RESTART_SAME_HOST;
      }
   }
   if (before->pid > 0 && after->pid > 0 && before->pid != after->pid) {
      bson_snprintf (why, len, "%s has a new pid (%" PRId64 " -> %" PRId64 ")",
                     after->host[0] ? after->host : "the server", before->pid, after->pid);
      return LAB_RESTART_SAME_HOST;
   }
   if ((before->start_ms < 0 || after->start_ms < 0) && before->uptime_s >= 0 && after->uptime_s >= 0 &&
       after->uptime_s < before->uptime_s) {
      bson_snprintf (why, len, "%s's uptime went back (%.0f s -> %.0f s)",
                     after->host[0] ? after->host : "the server", before->uptime_s, after->uptime_s);
      return LAB_RESTART_SAME_HOST;
   }
   bson_snprintf (why, len, "%s is the same process (same start time and pid)",
                  after->host[0] ? after->host : "the server");
   return LAB_RESTART_NONE;
}

/* ---- explain ------------------------------------------------------------------------------------- */

/* plan_add_stage -- "A > B": the stage names from the root, first child at each level. */
static void
plan_add_stage (lab_store_facts_plan_part_t *p, const char *stage)
{
   size_t n = strlen (p->stages);

   if (n + strlen (stage) + 4 >= sizeof p->stages) {
      return;
   }
   bson_snprintf (p->stages + n, sizeof p->stages - n, "%s%s", n ? " > " : "", stage);
}

/* plan_walk -- one stage of a plan tree (classic winningPlan, or SBE's queryPlan: the same shape) and its
 * inputs; `spine`: on the first-child path whose names make p->stages. */
static bool
plan_walk (const bson_t *reply, const bson_iter_t *node, lab_store_facts_plan_part_t *p, bool spine,
           int depth, bson_error_t *error)
{
   bson_iter_t it, arr;
   char stage[64] = "", index[128] = "";
   bool multikey = false, first = true;

   if (depth > 64) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY,
                     "explain reply: a plan deeper than 64 stages");
      return false;
   }
   if (!lab_store_facts_get_str (reply, node, "stage", "explain", "winningPlan...stage", stage, sizeof stage,
                                 error) ||
       !lab_store_facts_get_str (reply, node, "indexName", "explain", "winningPlan...indexName", index,
                                 sizeof index, error) ||
       !lab_store_facts_get_bool (reply, node, "isMultiKey", "explain", "winningPlan...isMultiKey", &multikey,
                                  error)) {
      return false;
   }
   if (spine && stage[0]) {
      plan_add_stage (p, stage);
   }
   /* a blocking sort: SORT reads every input before its first output (docs reference/explain-results,
    * "Sort Stage"); SORT_MERGE merges sorted inputs and is not one */
   if (strcmp (stage, "SORT") == 0) {
      p->blocking_sort = true;
   } else if (strcmp (stage, "COLLSCAN") == 0) {
      p->collscan = true;
   } else if (strcmp (stage, "IXSCAN") == 0) {
      if (!p->index[0]) {
         bson_strncpy (p->index, index, sizeof p->index);
      }
      p->multikey = p->multikey || multikey;
   }
   if (lab_store_facts_find_child (reply, node, "inputStage", &it)) {
      if (!BSON_ITER_HOLDS_DOCUMENT (&it)) {
         return lab_store_facts_bad_type (error, "explain", "winningPlan...inputStage", &it, "a document");
      }
      if (!plan_walk (reply, &it, p, spine, depth + 1, error)) {
         return false;
      }
      first = false;
   }
   if (lab_store_facts_find_child (reply, node, "inputStages", &it)) {
      if (!BSON_ITER_HOLDS_ARRAY (&it)) {
         return lab_store_facts_bad_type (error, "explain", "winningPlan...inputStages", &it, "an array");
      }
      bson_iter_recurse (&it, &arr);
      while (bson_iter_next (&arr)) {
         if (!BSON_ITER_HOLDS_DOCUMENT (&arr)) {
            return lab_store_facts_bad_type (error, "explain", "winningPlan...inputStages[]", &arr,
                                             "a document");
         }
         if (!plan_walk (reply, &arr, p, spine && first, depth + 1, error)) {
            return false;
         }
         first = false;
      }
   }
   return true;
}

/* plan_winning -- a winningPlan: SBE's {queryPlan, slotBasedPlan}, else the classic tree. */
static bool
plan_winning (const bson_t *reply, const bson_iter_t *wp, lab_store_facts_plan_part_t *p, bson_error_t *error)
{
   bson_iter_t qp;

   if (lab_store_facts_find_child (reply, wp, "queryPlan", &qp)) {
      if (!BSON_ITER_HOLDS_DOCUMENT (&qp)) {
         return lab_store_facts_bad_type (error, "explain", "winningPlan.queryPlan", &qp, "a document");
      }
      bson_strncpy (p->engine, "sbe", sizeof p->engine);
      return plan_walk (reply, &qp, p, true, 0, error);
   }
   bson_strncpy (p->engine, "classic", sizeof p->engine);
   return plan_walk (reply, wp, p, true, 0, error);
}

static bool plan_server (const bson_t *reply, const bson_iter_t *server, const char *shard,
                         lab_store_facts_plan_t *out, int depth, bson_error_t *error);

/* plan_part -- the next part of *out, named `shard` ("" unsharded); NULL when there is no room. */
static lab_store_facts_plan_part_t *
plan_part (lab_store_facts_plan_t *out, const char *shard, bson_error_t *error)
{
   lab_store_facts_plan_part_t *p;

   if (out->nparts >= LAB_FACTS_PLAN_MAX_PARTS) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY, "explain reply: more than %d shards",
                     LAB_FACTS_PLAN_MAX_PARTS);
      return NULL;
   }
   p = &out->parts[out->nparts++];
   memset (p, 0, sizeof *p);
   bson_strncpy (p->shard, shard ? shard : "", sizeof p->shard);
   bson_strncpy (p->engine, "unknown", sizeof p->engine);
   return p;
}

/* plan_query_planner -- a queryPlanner section: FerretDB's (Plan: [SQLite lines], sortPushdown beside
 * it in `server`), the sharded find's winningPlan.shards[], or one server's winningPlan. */
static bool
plan_query_planner (const bson_t *reply, const bson_iter_t *server, const bson_iter_t *qp, const char *shard,
                    lab_store_facts_plan_t *out, bson_error_t *error)
{
   bson_iter_t wp, it, arr, sp;
   lab_store_facts_plan_part_t *p;
   bool have, pushdown = false;

   if (lab_store_facts_find_child (reply, qp, "Plan", &it)) {
      /* FerretDB 1.24: the SQL backend's own EXPLAIN lines; whether the sort went to the backend is
       * sortPushdown at the reply's top level (checked on the test server) */
      if (!(p = plan_part (out, shard, error))) {
         return false;
      }
      bson_strncpy (p->engine, "ferretdb", sizeof p->engine);
      if (!lab_store_facts_get_bool (reply, server, "sortPushdown", "explain", "sortPushdown", &pushdown,
                                     error)) {
         return false;
      }
      p->blocking_sort = !pushdown;
      if (BSON_ITER_HOLDS_ARRAY (&it) && bson_iter_recurse (&it, &arr)) {
         while (bson_iter_next (&arr)) {
            if (BSON_ITER_HOLDS_UTF8 (&arr)) {
               const char *line = bson_iter_utf8 (&arr, NULL);
               const char *d = strstr (line, "detail=");
               plan_add_stage (p, d ? d + 7 : line);
               p->collscan = p->collscan || (d && strncmp (d + 7, "SCAN ", 5) == 0);
            }
         }
      }
      return true;
   }
   if (!lab_store_facts_get_section (reply, qp, "winningPlan", "explain", "queryPlanner.winningPlan", &wp,
                                     &have, error)) {
      return false;
   }
   if (!have) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY,
                     "explain reply: queryPlanner without winningPlan");
      return false;
   }
   if (lab_store_facts_find_child (reply, &wp, "shards", &it)) {
      /* a sharded find: {stage: SHARD_MERGE..., shards: [{shardName, winningPlan}]} (docs
       * reference/explain-results, "Sharded Collections") */
      if (!BSON_ITER_HOLDS_ARRAY (&it)) {
         return lab_store_facts_bad_type (error, "explain", "queryPlanner.winningPlan.shards", &it,
                                          "an array");
      }
      out->sharded = true;
      bson_iter_recurse (&it, &arr);
      while (bson_iter_next (&arr)) {
         char name[128] = "";
         if (!BSON_ITER_HOLDS_DOCUMENT (&arr)) {
            return lab_store_facts_bad_type (error, "explain", "queryPlanner.winningPlan.shards[]", &arr,
                                             "a document");
         }
         if (!lab_store_facts_get_str (reply, &arr, "shardName", "explain", "winningPlan.shards[].shardName",
                                       name, sizeof name, error) ||
             !lab_store_facts_get_section (reply, &arr, "winningPlan", "explain",
                                           "winningPlan.shards[].winningPlan", &sp, &have, error)) {
            return false;
         }
         if (!have) {
            continue;
         }
         if (!(p = plan_part (out, name, error)) || !plan_winning (reply, &sp, p, error)) {
            return false;
         }
      }
      return true;
   }
   return (p = plan_part (out, shard, error)) && plan_winning (reply, &wp, p, error);
}

/* plan_stages -- an aggregation's stages[]: the query layer's plan in $cursor.queryPlanner, and a $sort the
 * pipeline runs itself (blocking). */
static bool
plan_stages (const bson_t *reply, const bson_iter_t *server, const bson_iter_t *stages, const char *shard,
             lab_store_facts_plan_t *out, bson_error_t *error)
{
   bson_iter_t arr, st, qp;
   size_t first = out->nparts;
   bool pipeline_sort = false, have;

   if (!BSON_ITER_HOLDS_ARRAY (stages)) {
      return lab_store_facts_bad_type (error, "explain", "stages", stages, "an array");
   }
   bson_iter_recurse (stages, &arr);
   while (bson_iter_next (&arr)) {
      if (!BSON_ITER_HOLDS_DOCUMENT (&arr) || !bson_iter_recurse (&arr, &st) || !bson_iter_next (&st)) {
         continue;
      }
      if (strcmp (bson_iter_key (&st), "$cursor") == 0 && BSON_ITER_HOLDS_DOCUMENT (&st)) {
         if (!lab_store_facts_get_section (reply, &st, "queryPlanner", "explain",
                                           "stages.$cursor.queryPlanner", &qp, &have, error)) {
            return false;
         }
         if (have && !plan_query_planner (reply, server, &qp, shard, out, error)) {
            return false;
         }
      } else if (strcmp (bson_iter_key (&st), "$sort") == 0) {
         pipeline_sort = true;
      }
   }
   if (out->nparts == first) {
      lab_store_facts_plan_part_t *p = plan_part (out, shard, error);
      if (!p) {
         return false;
      }
   }
   if (pipeline_sort) {
      /* "$sort" in the aggregation layer sorts everything the query layer returns */
      out->parts[out->nparts - 1].blocking_sort = true;
      out->parts[out->nparts - 1].pipeline_sort = true;
   }
   return true;
}

/* plan_server -- one server's explain: queryPlanner, or stages[], or (mongos) shards{name: {...}}. */
static bool
plan_server (const bson_t *reply, const bson_iter_t *server, const char *shard, lab_store_facts_plan_t *out,
             int depth, bson_error_t *error)
{
   bson_iter_t it, sh;
   bool have;

   if (lab_store_facts_find_child (reply, server, "queryPlanner", &it)) {
      if (!BSON_ITER_HOLDS_DOCUMENT (&it)) {
         return lab_store_facts_bad_type (error, "explain", "queryPlanner", &it, "a document");
      }
      return plan_query_planner (reply, server, &it, shard, out, error);
   }
   if (lab_store_facts_find_child (reply, server, "stages", &it)) {
      return plan_stages (reply, server, &it, shard, out, error);
   }
   if (depth == 0 && lab_store_facts_find_child (reply, server, "shards", &it)) {
      /* an aggregate through mongos: shards: {<shard id>: {host, stages | queryPlanner}}
       * (src/mongo/db/pipeline/sharded_agg_helpers.cpp, appendExplainResults) */
      if (!lab_store_facts_get_section (reply, server, "shards", "explain", "shards", &it, &have, error)) {
         return false;
      }
      out->sharded = true;
      bson_iter_recurse (&it, &sh);
      while (bson_iter_next (&sh)) {
         if (!BSON_ITER_HOLDS_DOCUMENT (&sh)) {
            return lab_store_facts_bad_type (error, "explain", "shards.<shard>", &sh, "a document");
         }
         if (!plan_server (reply, &sh, bson_iter_key (&sh), out, depth + 1, error)) {
            return false;
         }
      }
      return true;
   }
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY,
                  "explain reply%s%s: no queryPlanner, stages or shards: not a plan this parser knows",
                  shard && *shard ? " of shard " : "", shard ? shard : "");
   return false;
}

/* lab_store_facts_explain_parse -- see serverfacts.h. */
bool
lab_store_facts_explain_parse (const bson_t *reply, lab_store_facts_plan_t *out, bson_error_t *error)
{
   size_t i;

   memset (out, 0, sizeof *out);
   if (!reply || !plan_server (reply, NULL, "", out, 0, error)) {
      if (!reply) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY, "explain: no reply");
      }
      return false;
   }
   for (i = 0; i < out->nparts; i++) {
      out->blocking_sort = out->blocking_sort || out->parts[i].blocking_sort;
      out->multikey = out->multikey || out->parts[i].multikey;
      out->collscan = out->collscan || out->parts[i].collscan;
   }
   return true;
}
