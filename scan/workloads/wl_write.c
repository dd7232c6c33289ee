/*
 * wl_write.c -- the write workloads (workload.h): one master's writes on one layout (their
 * inputs are drawn in wl_write_draw.c), and the fold's settings a folded layout's appends keep. A rows
 * layout inserts each new row as a document and replaces a corrected row by its _id; a folded layout reads
 * the master's parts, pushes the new rows onto the last one (a new part when the next row would pass the
 * fold's cap or its rows per document, as etl/fold splits: fold.h) or sets the field in the element with
 * the line number, and writes the changed documents back by _id, the store maintaining every index entry
 * (multikey ones of the new element too).
 */
#include "scan/workloads/workload.h"

#include "core/error.h"
#include "core/log.h"

#include <stdlib.h>
#include <string.h>

#define WL_DEFAULT_CAP (16 * 1024 * 1024)

/* param -- the marker's params.<name> into *it. */
static bool
param (const bson_t *mark, const char *name, bson_iter_t *it)
{
   bson_iter_t top;
   return mark && bson_iter_init_find (&top, mark, "params") && BSON_ITER_HOLDS_DOCUMENT (&top) &&
          bson_iter_recurse (&top, it) && bson_iter_find (it, name);
}

/* lab_scan_wl_fold_settings -- see workload.h. */
bool
lab_scan_wl_fold_settings (lab_store_session_t *sess, const char *coll, int64_t *max_doc_bytes,
                           int32_t *bucket_rows, bson_error_t *error)
{
   bson_t *mark = NULL;
   bson_iter_t it;

   *max_doc_bytes = WL_DEFAULT_CAP;
   *bucket_rows = 0;
   if (!lab_store_mark_get (sess, coll, &mark, NULL, error)) {
      return false;
   }
   if (param (mark, "max_doc_bytes", &it) && BSON_ITER_HOLDS_NUMBER (&it) && bson_iter_as_int64 (&it) > 0) {
      *max_doc_bytes = bson_iter_as_int64 (&it);
   }
   if (param (mark, "bucket_rows", &it) && BSON_ITER_HOLDS_NUMBER (&it)) {
      *bucket_rows = (int32_t)bson_iter_as_int64 (&it);
   }
   if (param (mark, "bucket_by", &it) && BSON_ITER_HOLDS_UTF8 (&it) && bson_iter_utf8 (&it, NULL)[0]) {
      lab_error_set (
         error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
         "--workload append: %s was folded with --bucket-by %s; appends into time buckets are not "
         "supported yet (fold by rows or --bucket-rows)",
         coll, bson_iter_utf8 (&it, NULL));
      bson_destroy (mark);
      return false;
   }
   bson_destroy (mark);
   return true;
}

/* ---- writing ----------------------------------------------------------------------------------- */

/* int_field -- doc's numeric field as an int64 (missing: dflt). */
static int64_t
int_field (const bson_t *doc, const char *name, int64_t dflt)
{
   bson_iter_t it;
   return bson_iter_init_find (&it, doc, name) && BSON_ITER_HOLDS_NUMBER (&it) ? bson_iter_as_int64 (&it)
                                                                               : dflt;
}

/* same_typed -- a and b are the same type and value (the types a hoisted field takes; others: false, so
 * the field stays in the element, which unfolding reads first). */
static bool
same_typed (const bson_value_t *a, const bson_value_t *b)
{
   if (a->value_type != b->value_type) {
      return false;
   }
   switch (a->value_type) {
   case BSON_TYPE_UTF8:
      return a->value.v_utf8.len == b->value.v_utf8.len &&
             memcmp (a->value.v_utf8.str, b->value.v_utf8.str, a->value.v_utf8.len) == 0;
   case BSON_TYPE_INT32:
      return a->value.v_int32 == b->value.v_int32;
   case BSON_TYPE_INT64:
      return a->value.v_int64 == b->value.v_int64;
   case BSON_TYPE_DOUBLE:
      return memcmp (&a->value.v_double, &b->value.v_double, sizeof (double)) == 0;
   case BSON_TYPE_DATE_TIME:
      return a->value.v_datetime == b->value.v_datetime;
   case BSON_TYPE_BOOL:
      return a->value.v_bool == b->value.v_bool;
   case BSON_TYPE_OID:
      return memcmp (&a->value.v_oid, &b->value.v_oid, sizeof a->value.v_oid) == 0;
   case BSON_TYPE_DECIMAL128:
      return memcmp (&a->value.v_decimal128, &b->value.v_decimal128, sizeof a->value.v_decimal128) == 0;
   default:
      return false;
   }
}

/* reserved -- a top-level name of a folded document that is not a hoisted field. */
static bool
reserved (const lab_scan_opts_t *o, const char *k)
{
   return strcmp (k, "_id") == 0 || strcmp (k, "row_count") == 0 || strcmp (k, "part") == 0 ||
          strcmp (k, "parts") == 0 || strcmp (k, "bucket_start") == 0 || strcmp (k, o->array_field) == 0;
}

/* make_elem -- the element of `row` under document `part`: the row without the key and without the
 * hoisted fields whose value it shares (as the fold writes it); a row missing a hoisted field cannot join
 * this master's documents (unfolding would give it the field). */
static bool
make_elem (const lab_scan_opts_t *o, const bson_t *part, const bson_t *row, bson_t *elem, bson_error_t *error)
{
   bson_iter_t it, rt;

   bson_init (elem);
   bson_iter_init (&it, part);
   while (bson_iter_next (&it)) {
      const char *k = bson_iter_key (&it);
      if (reserved (o, k) || strcmp (k, o->key) == 0) {
         continue;
      }
      if (!bson_iter_init_find (&rt, row, k)) {
         lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                        "appending to %s's documents: the new row has no %s, which they hoist", o->key, k);
         bson_destroy (elem);
         return false;
      }
   }
   bson_iter_init (&rt, row);
   while (bson_iter_next (&rt)) {
      const char *k = bson_iter_key (&rt);
      if (strcmp (k, o->key) == 0) {
         continue;
      }
      if (strcmp (k, "_id") != 0 && !reserved (o, k) && bson_iter_init_find (&it, part, k) &&
          same_typed (bson_iter_value (&it), bson_iter_value (&rt))) {
         continue; /* hoisted with this value */
      }
      bson_append_iter (elem, k, -1, &rt);
   }
   return true;
}

/* rebuild -- a copy of doc with row_count, parts (>= 0: replaced) and the array (elems[0..n) appended to
 * it, or element `set_at` given field `sf` = sv) changed; other fields as they are. */
static bson_t *
rebuild (const lab_scan_opts_t *o, const bson_t *doc, int32_t parts, const bson_t *elems, size_t n,
         int64_t set_at, const char *sf, const bson_value_t *sv)
{
   bson_t *out = bson_new (), arr, e;
   bson_iter_t it, ai, ei;
   int64_t count = 0;
   size_t j;
   char key[24];
   const char *kk;

   bson_iter_init (&it, doc);
   while (bson_iter_next (&it)) {
      const char *k = bson_iter_key (&it);
      if (strcmp (k, "row_count") == 0) {
         BSON_APPEND_INT32 (out, k, (int32_t)(int_field (doc, "row_count", 0) + (int64_t)n));
      } else if (strcmp (k, "parts") == 0 && parts >= 0) {
         BSON_APPEND_INT32 (out, k, parts);
      } else if (strcmp (k, o->array_field) == 0 && BSON_ITER_HOLDS_ARRAY (&it) && (n > 0 || set_at >= 0)) {
         bson_append_array_begin (out, k, -1, &arr);
         bson_iter_recurse (&it, &ai);
         while (bson_iter_next (&ai)) {
            bson_uint32_to_string ((uint32_t)count, &kk, key, sizeof key);
            if (count == set_at && BSON_ITER_HOLDS_DOCUMENT (&ai)) {
               bool done = false;
               bson_append_document_begin (&arr, kk, -1, &e);
               bson_iter_recurse (&ai, &ei);
               while (bson_iter_next (&ei)) {
                  if (strcmp (bson_iter_key (&ei), sf) == 0) {
                     BSON_APPEND_VALUE (&e, sf, sv);
                     done = true;
                  } else {
                     bson_append_iter (&e, bson_iter_key (&ei), -1, &ei);
                  }
               }
               if (!done) {
                  BSON_APPEND_VALUE (&e, sf, sv);
               }
               bson_append_document_end (&arr, &e);
            } else {
               bson_append_iter (&arr, kk, -1, &ai);
            }
            count++;
         }
         for (j = 0; j < n; j++, count++) {
            bson_uint32_to_string ((uint32_t)count, &kk, key, sizeof key);
            bson_append_document (&arr, kk, -1, &elems[j]);
         }
         bson_append_array_end (out, &arr);
      } else {
         bson_append_iter (out, k, -1, &it);
      }
   }
   return out;
}

/* new_part -- part `part` of `parts` after `last`: its top-level fields (key, hoisted values,
 * bucket_start), row_count 1 and the one element; its _id the last part's with the part number after '#'
 * (fold.h: "<key id>#<part>"). */
static bson_t *
new_part (const lab_scan_opts_t *o, const bson_t *last, int32_t part, int32_t parts, const bson_t *elem,
          bson_error_t *error)
{
   bson_t *out;
   bson_iter_t it;
   const char *id, *hash;
   char *nid;
   bson_t arr;

   if (!bson_iter_init_find (&it, last, "_id") || !BSON_ITER_HOLDS_UTF8 (&it) ||
       !(hash = strrchr ((id = bson_iter_utf8 (&it, NULL)), '#'))) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                     "a master at the size cap continues in a new part, but its last part's _id is not the "
                     "fold's \"<key id>#<part>\"");
      return NULL;
   }
   nid = bson_strdup_printf ("%.*s#%d", (int)(hash - id), id, part);
   out = bson_new ();
   BSON_APPEND_UTF8 (out, "_id", nid);
   bson_free (nid);
   bson_iter_init (&it, last);
   while (bson_iter_next (&it)) {
      const char *k = bson_iter_key (&it);
      if (strcmp (k, "_id") == 0) {
         continue;
      } else if (strcmp (k, "row_count") == 0) {
         BSON_APPEND_INT32 (out, k, 1);
      } else if (strcmp (k, "part") == 0) {
         BSON_APPEND_INT32 (out, k, part);
      } else if (strcmp (k, "parts") == 0) {
         BSON_APPEND_INT32 (out, k, parts);
      } else if (strcmp (k, o->array_field) == 0) {
         bson_append_array_begin (out, k, -1, &arr);
         BSON_APPEND_DOCUMENT (&arr, "0", elem);
         bson_append_array_end (out, &arr);
      } else {
         bson_append_iter (out, k, -1, &it);
      }
   }
   return out;
}

/* server_update -- a MongoDB-compatible server: {update: coll, updates: [{q, u}]}; the reply must say
 * one document matched and carry no writeErrors. */
static bool
server_update (const lab_scan_wl_layout_t *wl, const bson_t *q, const bson_t *u, lab_scan_wl_acc_t *acc,
               bson_error_t *error)
{
   bson_t cmd = BSON_INITIALIZER, arr, one, reply;
   bson_iter_t it;
   bool ok;

   BSON_APPEND_UTF8 (&cmd, "update", wl->layout->collection);
   BSON_APPEND_ARRAY_BEGIN (&cmd, "updates", &arr);
   BSON_APPEND_DOCUMENT_BEGIN (&arr, "0", &one);
   BSON_APPEND_DOCUMENT (&one, "q", q);
   BSON_APPEND_DOCUMENT (&one, "u", u);
   bson_append_document_end (&arr, &one);
   bson_append_array_end (&cmd, &arr);
   ok = lab_store_command_simple (wl->server, lab_store_db (wl->server), &cmd, &reply, error);
   if (ok && bson_iter_init_find (&it, &reply, "writeErrors")) {
      char *json = bson_as_relaxed_extended_json (&reply, NULL);
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH, "update of %s refused: %s",
                     wl->layout->collection, json);
      bson_free (json);
      ok = false;
   } else if (ok && (!bson_iter_init_find (&it, &reply, "n") || bson_iter_as_int64 (&it) != 1)) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                     "update of %s matched %lld documents, not 1", wl->layout->collection,
                     ok && BSON_ITER_HOLDS_NUMBER (&it) ? (long long)bson_iter_as_int64 (&it) : -1LL);
      ok = false;
   }
   acc->docs_written += ok;
   bson_destroy (&reply);
   bson_destroy (&cmd);
   return ok;
}

/* put -- write doc back by _id, counted. */
static bool
put (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, const bson_t *doc, lab_scan_wl_acc_t *acc,
     bson_error_t *error)
{
   acc->docs_written++;
   acc->doc_bytes += doc->len;
   return lab_store_upsert_by_id (sess, wl->layout->collection, doc, error);
}

/* append_folded -- the rows of writes [a, b) (one master) pushed onto its last part, continuing in new
 * parts at the cap or bucket_rows. */
static bool
append_folded (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, int64_t a, int64_t b,
               lab_scan_wl_acc_t *acc, bson_error_t *error)
{
   const lab_scan_opts_t *o = wl->opts;
   lab_store_docs_t ps = { 0 };
   bson_t *last = NULL;
   int32_t parts = 0;
   size_t i, li = 0;
   int64_t j;
   bool ok = true, grew = false, split = false;
   bson_t pushed = BSON_INITIALIZER; /* the elements pushed onto the part read (a server's $push) */
   char kb[128];
   int32_t npushed = 0;

   acc->queries++;
   if (!lab_store_find_eq (sess, wl->layout->collection, o->key, &wl->writes->w[a].key, lab_store_docs_keep,
                           &ps, NULL, error)) {
      return false;
   }
   acc->docs += (int64_t)ps.n;
   if (ps.n == 0) {
      lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH, "master %s %s has no document in %s",
                     o->key, lab_value_text (&wl->writes->w[a].key, kb, sizeof kb), wl->layout->collection);
      return false;
   }
   for (i = 0; i < ps.n; i++) {
      if (int_field (ps.docs[i], "part", 0) >= int_field (ps.docs[li], "part", 0)) {
         li = i;
      }
   }
   parts = (int32_t)int_field (ps.docs[li], "parts", 1);
   /* ps keeps the master's other parts (the siblings), `last` the one the rows go onto */
   last = ps.docs[li];
   ps.docs[li] = ps.docs[--ps.n];
   for (j = a; j < b && ok; j++) {
      bson_t elem, *next;
      int64_t rows = int_field (last, "row_count", 0);

      if (!make_elem (o, last, wl->writes->w[j].row, &elem, error)) {
         ok = false;
         break;
      }
      next = rebuild (o, last, -1, &elem, 1, -1, NULL, NULL);
      if ((int64_t)next->len <= wl->max_doc_bytes && (wl->bucket_rows <= 0 || rows < wl->bucket_rows)) {
         char ik[16];
         bson_destroy (last);
         last = next;
         grew = true;
         bson_snprintf (ik, sizeof ik, "%d", npushed++);
         BSON_APPEND_DOCUMENT (&pushed, ik, &elem);
      } else {
         split = true;
         /* the next row does not fit: the master continues in a new part, and every part it had says how
          * many there are now (the one just closed too) */
         bson_t *fresh;
         bson_destroy (next);
         fresh = new_part (o, last, parts, parts + 1, &elem, error);
         ok = fresh != NULL;
         parts++;
         acc->parts_created += ok;
         if (ok) {
            lab_store_docs_keep (last, &ps);
            bson_destroy (last);
            last = fresh;
            grew = true;
         }
         for (i = 0; i < ps.n && ok; i++) {
            bson_t *d = rebuild (o, ps.docs[i], parts, NULL, 0, -1, NULL, NULL);
            bson_destroy (ps.docs[i]);
            ps.docs[i] = d;
            ok = put (wl, sess, d, acc, error);
         }
      }
      bson_destroy (&elem);
      acc->writes += ok;
      acc->rows += ok;
      acc->digest += ok ? lab_scan_wl_write_hash (&wl->writes->w[j], wl->opts->wl.sum_field) : 0;
   }
   if (ok && grew && wl->server && !split) {
      /* {_id: last part}, {$push: {array: {$each: [...]}}, $inc: {row_count: n}}: the server's $push */
      bson_t q = BSON_INITIALIZER, u = BSON_INITIALIZER, d, e;
      bson_iter_t it;
      if (bson_iter_init_find (&it, last, "_id")) {
         bson_append_iter (&q, "_id", 3, &it);
      }
      BSON_APPEND_DOCUMENT_BEGIN (&u, "$push", &d);
      BSON_APPEND_DOCUMENT_BEGIN (&d, o->array_field, &e);
      BSON_APPEND_ARRAY (&e, "$each", &pushed);
      bson_append_document_end (&d, &e);
      bson_append_document_end (&u, &d);
      BSON_APPEND_DOCUMENT_BEGIN (&u, "$inc", &d);
      BSON_APPEND_INT32 (&d, "row_count", npushed);
      bson_append_document_end (&u, &d);
      acc->doc_bytes += last->len;
      ok = server_update (wl, &q, &u, acc, error);
      bson_destroy (&q);
      bson_destroy (&u);
   } else if (ok && grew) {
      ok = put (wl, sess, last, acc, error);
   }
   bson_destroy (&pushed);
   bson_destroy (last);
   lab_store_docs_clear (&ps);
   return ok;
}

/* same_text -- a and b compare equal as their extended JSON text (as wl_exec.c matches rows). */
static bool
same_text (const bson_value_t *a, const bson_value_t *b)
{
   char x[128], y[128];
   return strcmp (lab_value_text (a, x, sizeof x), lab_value_text (b, y, sizeof y)) == 0;
}

/* element_at -- the index of the element of doc's array whose line field equals line (-1: none). */
static int64_t
element_at (const lab_scan_opts_t *o, const bson_t *doc, const bson_value_t *line)
{
   bson_iter_t it, ai, f;
   int64_t i = 0;

   if (!bson_iter_init_find (&it, doc, o->array_field) || !BSON_ITER_HOLDS_ARRAY (&it) ||
       !bson_iter_recurse (&it, &ai)) {
      return -1;
   }
   while (bson_iter_next (&ai)) {
      if (BSON_ITER_HOLDS_DOCUMENT (&ai) && bson_iter_recurse (&ai, &f) &&
          bson_iter_find (&f, o->wl.line_field) && same_text (bson_iter_value (&f), line)) {
         return i;
      }
      i++;
   }
   return -1;
}

/* update_folded -- the corrections of writes [a, b) (one master): the element with the line number
 * given the new value, its document written back. */
static bool
update_folded (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, int64_t a, int64_t b,
               lab_scan_wl_acc_t *acc, bson_error_t *error)
{
   const lab_scan_opts_t *o = wl->opts;
   int64_t j;
   bool ok = true;

   for (j = a; j < b && ok; j++) {
      const lab_scan_wl_write_t *w = &wl->writes->w[j];
      lab_store_docs_t ps = { 0 };
      size_t i;
      int64_t at = -1;
      char kb[128], lb[64];

      acc->queries++;
      if (!lab_store_find_eq (sess, wl->layout->collection, o->key, &w->key, lab_store_docs_keep, &ps, NULL,
                              error)) {
         return false;
      }
      acc->docs += (int64_t)ps.n;
      for (i = 0; i < ps.n && at < 0; i++) {
         at = element_at (o, ps.docs[i], &w->line);
      }
      if (at < 0) {
         lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH, "no row %s %s, %s %s in %s", o->key,
                        lab_value_text (&w->key, kb, sizeof kb), o->wl.line_field,
                        lab_value_text (&w->line, lb, sizeof lb), wl->layout->collection);
         ok = false;
      } else if (wl->server) {
         /* MongoDB: {key, array.line}, {$set: {"array.$.field": v}}; FerretDB has no positional $: the
          * part by _id and the element by its index */
         bson_t q = BSON_INITIALIZER, u = BSON_INITIALIZER, d;
         bson_iter_t it;
         char path[600];
         if (wl->positional) {
            BSON_APPEND_VALUE (&q, o->key, &w->key);
            bson_snprintf (path, sizeof path, "%s.%s", o->array_field, o->wl.line_field);
            BSON_APPEND_VALUE (&q, path, &w->line);
            bson_snprintf (path, sizeof path, "%s.$.%s", o->array_field, o->wl.sum_field);
         } else {
            if (bson_iter_init_find (&it, ps.docs[i - 1], "_id")) {
               bson_append_iter (&q, "_id", 3, &it);
            }
            bson_snprintf (path, sizeof path, "%s.%lld.%s", o->array_field, (long long)at, o->wl.sum_field);
         }
         BSON_APPEND_DOCUMENT_BEGIN (&u, "$set", &d);
         BSON_APPEND_VALUE (&d, path, &w->value);
         bson_append_document_end (&u, &d);
         acc->doc_bytes += ps.docs[i - 1]->len;
         ok = server_update (wl, &q, &u, acc, error);
         bson_destroy (&q);
         bson_destroy (&u);
         acc->writes += ok;
         acc->rows += ok;
         acc->digest += ok ? lab_scan_wl_write_hash (w, wl->opts->wl.sum_field) : 0;
      } else {
         bson_t *d = rebuild (o, ps.docs[i - 1], -1, NULL, 0, at, o->wl.sum_field, &w->value);
         ok = put (wl, sess, d, acc, error);
         bson_destroy (d);
         acc->writes += ok;
         acc->rows += ok;
         acc->digest += ok ? lab_scan_wl_write_hash (w, wl->opts->wl.sum_field) : 0;
      }
      lab_store_docs_clear (&ps);
   }
   return ok;
}

/* on_row_doc -- the row found by _id, copied. */
static bool
on_row_doc (const bson_t *doc, void *ctx)
{
   bson_t **out = ctx;
   bson_destroy (*out);
   *out = bson_copy (doc);
   return true;
}

/* write_rows -- a rows layout: the new rows inserted, or each corrected row read by _id and written back
 * with the new value. */
static bool
write_rows (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, int64_t a, int64_t b,
            lab_scan_wl_acc_t *acc, bson_error_t *error)
{
   const lab_scan_opts_t *o = wl->opts;
   int64_t j;

   if (wl->kind == LAB_WL_APPEND) {
      const bson_t **docs = bson_malloc0 ((size_t)(b - a) * sizeof *docs);
      lab_store_insert_result_t res;
      bson_t *held = NULL; /* a clustered layout's rows, with their _id {key, id} */
      bool ok;

      memset (&res, 0, sizeof res);
      for (j = a; j < b; j++) {
         docs[j - a] = wl->writes->w[j].row;
      }
      acc->queries++;
      ok = lab_scan_clustered_rows (wl->clustered, o->key, docs, (size_t)(b - a), &held, &acc->doc_bytes,
                                    error) &&
           lab_store_insert_many (sess, wl->layout->collection, (const bson_t *const *)docs, (size_t)(b - a),
                                  &res, error);
      if (ok && res.inserted != (int64_t)(b - a)) {
         lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH,
                        "%lld of %lld new rows inserted into %s", (long long)res.inserted, (long long)(b - a),
                        wl->layout->collection);
         ok = false;
      }
      lab_store_insert_result_cleanup (&res);
      lab_scan_clustered_rows_free (held, (size_t)(b - a));
      bson_free (docs);
      if (!ok) {
         return false;
      }
      for (j = a; j < b; j++) {
         acc->writes++;
         acc->rows++;
         acc->docs_written++;
         acc->digest += lab_scan_wl_write_hash (&wl->writes->w[j], wl->opts->wl.sum_field);
      }
      return true;
   }
   for (j = a; j < b; j++) {
      const lab_scan_wl_write_t *w = &wl->writes->w[j];
      bson_t *doc = NULL, *d;
      bool ok;

      if (wl->server) {
         /* {_id}, {$set: {field: v}}: the server reads and writes the row itself */
         bson_t q, u = BSON_INITIALIZER, s;
         lab_scan_row_filter (wl->clustered, o->key, &w->key, &w->id, &q);
         BSON_APPEND_DOCUMENT_BEGIN (&u, "$set", &s);
         BSON_APPEND_VALUE (&s, o->wl.sum_field, &w->value);
         bson_append_document_end (&u, &s);
         acc->queries++;
         ok = server_update (wl, &q, &u, acc, error);
         bson_destroy (&q);
         bson_destroy (&u);
         if (!ok) {
            return false;
         }
         acc->writes++;
         acc->rows++;
         acc->digest += lab_scan_wl_write_hash (w, wl->opts->wl.sum_field);
         continue;
      }
      acc->queries++;
      if (!lab_scan_find_row (sess, wl->layout->collection, wl->clustered, o->key, &w->key, &w->id,
                              on_row_doc, &doc, error)) {
         return false;
      }
      if (!doc) {
         char ib[128];
         lab_error_set (error, LAB_ERROR_SCAN, LAB_SCAN_ERR_NO_MATCH, "no row with _id %s in %s",
                        lab_value_text (&w->id, ib, sizeof ib), wl->layout->collection);
         return false;
      }
      acc->docs++;
      {
         /* the row with the sum field replaced (or added at the end) */
         bson_iter_t it;
         bool done = false;
         d = bson_new ();
         bson_iter_init (&it, doc);
         while (bson_iter_next (&it)) {
            if (strcmp (bson_iter_key (&it), o->wl.sum_field) == 0) {
               BSON_APPEND_VALUE (d, o->wl.sum_field, &w->value);
               done = true;
            } else {
               bson_append_iter (d, bson_iter_key (&it), -1, &it);
            }
         }
         if (!done) {
            BSON_APPEND_VALUE (d, o->wl.sum_field, &w->value);
         }
      }
      ok = put (wl, sess, d, acc, error);
      bson_destroy (d);
      bson_destroy (doc);
      if (!ok) {
         return false;
      }
      acc->writes++;
      acc->rows++;
      acc->digest += lab_scan_wl_write_hash (w, wl->opts->wl.sum_field);
   }
   return true;
}

/* lab_scan_wl_write_item -- see workload.h. */
bool
lab_scan_wl_write_item (const lab_scan_wl_layout_t *wl, lab_store_session_t *sess, int64_t i,
                        lab_scan_wl_acc_t *acc, bson_error_t *error)
{
   int64_t a = i, b = i + 1;
   bool ok;

   if (!wl->array) {
      ok = write_rows (wl, sess, a, b, acc, error);
   } else if (wl->kind == LAB_WL_APPEND) {
      ok = append_folded (wl, sess, a, b, acc, error);
   } else {
      ok = update_folded (wl, sess, a, b, acc, error);
   }
   if (!ok) {
      lab_error_prefix (error, "%s workload on %s (write %lld)", lab_scan_wl_name (wl->kind),
                        wl->layout->collection, (long long)i + 1);
   }
   return ok;
}
