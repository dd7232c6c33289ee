/*
 * mark_clean.c -- removing what layoutlab created in a database (mark.h, `billgen clean`): the plan,
 * read without writing (the collections with a valid marker, the indexes built on other collections, the
 * records of what is gone, LAB_MARK_COLL), and its run. Asking the user is the tool's: nothing here talks
 * to a terminal.
 */
#include "mark.h"

#include "core/error.h"
#include "core/log.h"

#include <string.h>

/* add_item -- a new item of the plan (zeroed but for kind, action, collection and the unknown sizes). */
static lab_mark_clean_item_t *
add_item (lab_mark_clean_plan_t *plan, lab_mark_clean_kind_t kind, lab_mark_clean_action_t action,
          const char *coll)
{
   lab_mark_clean_item_t *it;

   plan->v = bson_realloc (plan->v, (plan->n + 1) * sizeof *plan->v);
   it = &plan->v[plan->n++];
   memset (it, 0, sizeof *it);
   it->kind = kind;
   it->action = action;
   it->collection = bson_strdup (coll);
   it->documents = it->size_bytes = -1;
   return it;
}

/* find_coll -- the plan's item of collection `coll`, or NULL. */
static lab_mark_clean_item_t *
find_coll (lab_mark_clean_plan_t *plan, const char *coll)
{
   size_t i;

   for (i = 0; i < plan->n; i++) {
      if (plan->v[i].kind == LAB_MARK_CLEAN_COLLECTION && strcmp (plan->v[i].collection, coll) == 0) {
         return &plan->v[i];
      }
   }
   return NULL;
}

/* str_of -- the string `key` of doc, or "". */
static const char *
str_of (const bson_t *doc, const char *key)
{
   bson_iter_t it;

   return doc && bson_iter_init_find (&it, doc, key) && BSON_ITER_HOLDS_UTF8 (&it)
             ? bson_iter_utf8 (&it, NULL)
             : "";
}

/* plan_coll -- the item of existing collection `coll`: DROP with a valid marker, KEEP (its stale marker
 * deleted) when the marker is an earlier collection's; nothing without a marker. */
static bool
plan_coll (lab_store_session_t *sess, lab_mark_clean_plan_t *plan, const char *coll, bson_error_t *error)
{
   lab_mark_clean_item_t *it;
   lab_store_coll_stats_t st;
   bson_t *mark = NULL;
   bool foreign = false;

   if (!lab_store_mark_get (sess, coll, &mark, &foreign, error)) {
      return false;
   }
   if (foreign) {
      it = add_item (plan, LAB_MARK_CLEAN_COLLECTION, LAB_MARK_CLEAN_KEEP, coll);
      it->record = bson_strdup (coll);
      it->note = bson_strdup ("its marker is for an earlier collection of that name, dropped and created "
                              "again since by someone else: left alone (only the stale marker is deleted)");
   } else if (mark) {
      it = add_item (plan, LAB_MARK_CLEAN_COLLECTION, LAB_MARK_CLEAN_DROP, coll);
      it->note =
         bson_strdup_printf ("written by %s at %s", *str_of (mark, "tool") ? str_of (mark, "tool") : "?",
                             *str_of (mark, "written_at") ? str_of (mark, "written_at") : "?");
      if (!lab_store_count_estimated (sess, coll, &it->documents, error) ||
          !lab_store_stats (sess, coll, &st, error)) {
         bson_destroy (mark);
         return false;
      }
      it->size_bytes = st.storage_size_bytes + st.index_size_bytes;
   }
   bson_destroy (mark);
   return true;
}

/* plan_markers -- the markers in LAB_MARK_COLL of collections that no longer exist (GONE: the marker is
 * deleted); *ndocs = the documents of LAB_MARK_COLL (0 when it does not exist). */
static bool
plan_markers (lab_store_session_t *sess, lab_mark_clean_plan_t *plan, int64_t *ndocs, bson_error_t *error)
{
   lab_store_cursor_t *cur = lab_store_natural_open (sess, LAB_MARK_COLL, NULL, error);
   const bson_t *doc;
   int r;

   *ndocs = 0;
   if (!cur) {
      if (lab_error_is (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION)) {
         memset (error, 0, sizeof *error);
         return true;
      }
      return false;
   }
   while ((r = lab_store_cursor_next (cur, &doc, error)) == 1) {
      const char *id = str_of (doc, "_id");
      (*ndocs)++;
      if (*id && !strchr (id, '$') && !find_coll (plan, id)) {
         bool exists = false;
         if (!lab_store_exists (sess, id, &exists, error)) {
            r = -1;
            break;
         }
         if (!exists) {
            lab_mark_clean_item_t *it = add_item (plan, LAB_MARK_CLEAN_COLLECTION, LAB_MARK_CLEAN_GONE, id);
            it->record = bson_strdup (id);
            it->note = bson_strdup_printf ("written by %s at %s; no longer exists: skipped (its marker is "
                                           "deleted)",
                                           *str_of (doc, "tool") ? str_of (doc, "tool") : "?",
                                           *str_of (doc, "written_at") ? str_of (doc, "written_at") : "?");
         }
      }
   }
   lab_store_cursor_close (cur);
   return r == 0;
}

/* plan_index -- the item of index record r: WITH_COLL on a collection this plan drops, DROP when built on
 * a collection layoutlab did not write and still there, GONE when it or its collection is not, KEEP when
 * unreadable (the record kept) or built on a collection of layoutlab's since recreated by someone else. */
static bool
plan_index (lab_store_session_t *sess, lab_mark_clean_plan_t *plan, const lab_store_mark_index_t *r,
            bson_error_t *error)
{
   lab_mark_clean_item_t *coll = find_coll (plan, r->collection), *it;
   bool with_coll = coll && coll->action == LAB_MARK_CLEAN_DROP; /* add_item moves the items */
   bool exists = false, multikey = false, coll_exists = false;
   int64_t size = -1;
   int i;

   it = add_item (plan, LAB_MARK_CLEAN_INDEX, LAB_MARK_CLEAN_KEEP, r->collection);
   it->index = bson_strdup (r->name);
   it->record = bson_strdup (r->id);
   it->size_bytes = r->size_bytes;
   for (i = 0; i < r->spec.n; i++) {
      it->spec.fields[i] = bson_strdup (r->spec.fields[i]);
   }
   it->spec.n = r->spec.n;
   if (r->spec.n == 0) {
      it->note = bson_strdup ("its record's keys are not an ascending key pattern: left alone, record kept");
      bson_free (it->record);
      it->record = NULL;
      return true;
   }
   if (r->spec.n == 1 && strcmp (r->spec.fields[0], "_id") == 0) {
      it->note = bson_strdup ("the _id index is never dropped: left alone (its record is deleted)");
      return true;
   }
   if (with_coll) {
      it->action = LAB_MARK_CLEAN_WITH_COLL;
      it->note = bson_strdup_printf ("built by %s at %s; goes with its collection", r->tool, r->created_at);
      return true;
   }
   if (!lab_store_exists (sess, r->collection, &coll_exists, error) ||
       (coll_exists &&
        !lab_store_index_info (sess, r->collection, &r->spec, &exists, &multikey, &size, error))) {
      return false;
   }
   if (!exists) {
      it->action = LAB_MARK_CLEAN_GONE;
      it->note =
         bson_strdup_printf ("built by %s at %s; %s no longer exists: skipped (its record is deleted)",
                             r->tool, r->created_at, coll_exists ? "the index" : "its collection");
   } else if (r->on_foreign) {
      it->action = LAB_MARK_CLEAN_DROP;
      it->size_bytes = size;
      it->note = bson_strdup_printf ("built by %s at %s on a collection layoutlab did not write", r->tool,
                                     r->created_at);
   } else {
      it->note =
         bson_strdup_printf ("built by %s at %s on a collection of layoutlab's since dropped and created "
                             "again by someone else: left alone (its record is deleted)",
                             r->tool, r->created_at);
   }
   return true;
}

/* lab_store_mark_clean_plan -- see mark.h. */
bool
lab_store_mark_clean_plan (lab_store_t *store, lab_mark_clean_plan_t *plan, bson_error_t *error)
{
   lab_store_session_t *sess = lab_store_session_open (store, error);
   lab_store_mark_index_t *recs = NULL;
   lab_mark_clean_item_t *it;
   size_t i, nrecs = 0;
   int64_t ndocs = 0, deleted = 0;
   char **names = NULL;
   bool ok = false;

   memset (plan, 0, sizeof *plan);
   if (!sess || !lab_store_list (sess, &names, error)) {
      goto done;
   }
   for (i = 0; names[i]; i++) {
      if (strcmp (names[i], LAB_MARK_COLL) != 0 && !plan_coll (sess, plan, names[i], error)) {
         goto done;
      }
   }
   if (!plan_markers (sess, plan, &ndocs, error) || !lab_store_mark_indexes (sess, &recs, &nrecs, error)) {
      goto done;
   }
   for (i = 0; i < nrecs; i++) {
      if (!plan_index (sess, plan, &recs[i], error)) {
         goto done;
      }
   }
   for (i = 0; i < plan->n; i++) {
      deleted += plan->v[i].record ||
                 (plan->v[i].kind == LAB_MARK_CLEAN_COLLECTION && plan->v[i].action == LAB_MARK_CLEAN_DROP);
   }
   if (ndocs > 0) {
      it = add_item (plan, LAB_MARK_CLEAN_MARK_COLL,
                     deleted >= ndocs ? LAB_MARK_CLEAN_DROP : LAB_MARK_CLEAN_KEEP, LAB_MARK_COLL);
      it->documents = ndocs;
      it->note = deleted >= ndocs ? bson_strdup ("layoutlab's records, empty once the above are removed")
                                  : bson_strdup_printf ("%" PRId64 " of its %" PRId64 " documents stay: kept",
                                                        ndocs - deleted, ndocs);
   }
   ok = true;
done:
   if (!ok) {
      lab_error_prefix (error, "listing what layoutlab created in database '%s'", lab_store_db (store));
   }
   lab_store_mark_indexes_free (recs, nrecs);
   bson_strfreev (names);
   lab_store_session_close (sess);
   return ok;
}

/* delete_record -- the document `id` of LAB_MARK_COLL deleted (none: fine). */
static bool
delete_record (lab_store_session_t *sess, const char *id, bson_error_t *error)
{
   bson_value_t v;

   v.value_type = BSON_TYPE_UTF8;
   v.value.v_utf8.str = (char *)id;
   v.value.v_utf8.len = (uint32_t)strlen (id);
   return lab_store_delete_eq (sess, LAB_MARK_COLL, "_id", &v, NULL, error);
}

/* run_item -- one item of the plan in its pass (0: the other collections' indexes, 1: the collections,
 * 2: the records left; LAB_MARK_COLL is run_plan's). */
static bool
run_item (lab_store_session_t *sess, lab_mark_clean_item_t *it, int pass, bson_error_t *error)
{
   bson_t *mark = NULL;
   bool dropped = false, ok = true;

   if (pass == 0 && it->kind == LAB_MARK_CLEAN_INDEX && it->action == LAB_MARK_CLEAN_DROP) {
      ok = lab_store_drop_index (sess, it->collection, &it->spec, &dropped, error) &&
           delete_record (sess, it->record, error);
      if (ok && !dropped) {
         it->action = LAB_MARK_CLEAN_GONE; /* dropped by someone else since the plan */
      }
      it->done = ok;
      lab_log_info ("%s index %s of '%s'", dropped ? "dropped" : "no longer exists: skipped", it->index,
                    it->collection);
   } else if (pass == 1 && it->kind == LAB_MARK_CLEAN_COLLECTION && it->action == LAB_MARK_CLEAN_DROP) {
      /* the marker checked again: the plan may have waited for an answer */
      if (!lab_store_mark_get (sess, it->collection, &mark, NULL, error)) {
         return false;
      }
      if (!mark) {
         it->action = LAB_MARK_CLEAN_KEEP;
         lab_log_info ("'%s' is no longer layoutlab's: left alone", it->collection);
         return true;
      }
      bson_destroy (mark);
      ok = it->done = lab_store_drop (sess, it->collection, error);
      lab_log_info ("dropped collection '%s'", it->collection);
   } else if (pass == 2 && it->record && !it->done && it->action != LAB_MARK_CLEAN_DROP) {
      ok = it->done = delete_record (sess, it->record, error);
   }
   return ok;
}

/* lab_store_mark_clean_run -- see mark.h. */
bool
lab_store_mark_clean_run (lab_store_t *store, lab_mark_clean_plan_t *plan, bson_error_t *error)
{
   lab_store_session_t *sess = lab_store_session_open (store, error);
   int64_t left = 0;
   size_t i;
   int pass;
   bool ok = sess != NULL;

   for (pass = 0; ok && pass < 3; pass++) {
      for (i = 0; ok && i < plan->n; i++) {
         lab_mark_clean_item_t *it = &plan->v[i];
         if (!run_item (sess, it, pass, error)) {
            ok = false;
            lab_error_prefix (error, "removing %s '%s'%s%s",
                              it->kind == LAB_MARK_CLEAN_INDEX ? "index" : "collection",
                              it->index ? it->index : it->collection, it->index ? " of " : "",
                              it->index ? it->collection : "");
         }
      }
   }
   for (i = 0; ok && i < plan->n; i++) {
      lab_mark_clean_item_t *it = &plan->v[i];
      if (it->kind == LAB_MARK_CLEAN_MARK_COLL && it->action == LAB_MARK_CLEAN_DROP) {
         ok = lab_store_count (sess, LAB_MARK_COLL, &left, error);
         if (ok && left == 0) {
            ok = it->done = lab_store_drop (sess, LAB_MARK_COLL, error);
         } else if (ok) {
            it->action = LAB_MARK_CLEAN_KEEP; /* written to since the plan */
         }
      }
   }
   lab_store_session_close (sess);
   return ok;
}

/* lab_store_mark_clean_plan_free -- see mark.h. */
void
lab_store_mark_clean_plan_free (lab_mark_clean_plan_t *plan)
{
   size_t i;
   int j;

   for (i = 0; i < plan->n; i++) {
      bson_free (plan->v[i].collection);
      bson_free (plan->v[i].index);
      bson_free (plan->v[i].record);
      bson_free (plan->v[i].note);
      for (j = 0; j < plan->v[i].spec.n; j++) {
         bson_free ((char *)plan->v[i].spec.fields[j]);
      }
   }
   bson_free (plan->v);
   memset (plan, 0, sizeof *plan);
}
