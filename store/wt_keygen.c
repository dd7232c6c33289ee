/*
 * wt_keygen.c -- the keys a document gives an index, as mongod's BtreeKeyGenerator (docs/mongodb-compat.md
 * §18): one key per field for a plain index, the fields' values in order for a compound one, one key per
 * distinct array element along a dotted path (multikey), null for a missing field, parallel arrays
 * refused; the byte format is keyenc.h's (lab_store_key_encode_compound + RecordId). wt_index.c builds and
 * looks up indexes with them; wt_record.c and wt_clustered_index.c write them with each document; the
 * multikey flag set once a document made an index multikey (lab_wt_index_mark_multikey).
 */
#include "wt_private.h"

#include "core/error.h"
#include "keyenc.h"

#include <stdlib.h>
#include <string.h>

/* ---- a document's keys, as mongod's BtreeKeyGenerator ----------------------------------------------- */

/* lab_wt_ikeys_push -- append an entry to list. */
void
lab_wt_ikeys_push (wt_ikeys_t *list, int ix, size_t off, size_t len)
{
   if (list->n == list->cap) {
      list->cap = list->cap ? list->cap * 2 : 16;
      list->v = bson_realloc (list->v, list->cap * sizeof *list->v);
   }
   list->v[list->n].ix = ix;
   list->v[list->n].off = off;
   list->v[list->n].len = len;
   list->v[list->n].tb = 0;
   list->n++;
}

/* The key generation of one document for one index (BtreeKeyGenerator::_getKeysWithArray). */
typedef struct {
   const wt_index_t *ix;
   int which;
   int64_t rid;
   lab_buf_t *out;
   wt_ikeys_t *list;
   bool multikey;
} keygen_t;

/* An element found along a path: a value, or the first array on the way and the path after it. */
typedef struct {
   bson_value_t value; /* BSON_TYPE_EOD: missing */
   bool is_array;
   const uint8_t *arr_data; /* the array's bytes (its identity: two paths through one array are fine) */
   uint32_t arr_len;
   const char *arr_name; /* its field name */
   const char *rest;     /* the path after the array ("" when the array is the path's end) */
} keygen_elt_t;

/* keygen_extract -- follow `path` through the document data[0..len), stopping at the first array
 * (dps::extractElementAtPathOrArrayAlongPath): a missing field, or a scalar where the path goes on,
 * leaves e->value EOD. */
static void
keygen_extract (const uint8_t *data, uint32_t len, const char *path, keygen_elt_t *e)
{
   bson_iter_t it;

   memset (e, 0, sizeof *e);
   for (;;) {
      const char *dot = strchr (path, '.');
      int clen = dot ? (int)(dot - path) : (int)strlen (path);

      if (!bson_iter_init_from_data (&it, data, len) || !bson_iter_find_w_len (&it, path, clen)) {
         return;
      }
      if (BSON_ITER_HOLDS_ARRAY (&it)) {
         e->is_array = true;
         bson_iter_array (&it, &e->arr_len, &e->arr_data);
         e->arr_name = bson_iter_key (&it);
         e->rest = dot ? dot + 1 : "";
         return;
      }
      if (!dot) {
         e->value = *bson_iter_value (&it);
         return;
      }
      if (!BSON_ITER_HOLDS_DOCUMENT (&it)) {
         return;
      }
      bson_iter_document (&it, &len, &data);
      path = dot + 1;
   }
}

/* keygen_emit -- one key of the values fixed[0..n) + the RecordId. */
static bool
keygen_emit (keygen_t *g, const bson_value_t *const *fixed, bson_error_t *error)
{
   size_t off = g->out->len;

   if (!lab_store_key_encode_compound (fixed, g->ix->nfields, g->out, error)) {
      return false;
   }
   lab_store_key_append_recordid (g->out, g->rid);
   lab_wt_ikeys_push (g->list, g->which, off, g->out->len - off);
   /* its value follows it: the TypeBits mongod writes (a compound key's bytes carry no types) */
   lab_store_key_typebits_values (fixed, g->ix->nfields, g->out);
   g->list->v[g->list->n - 1].tb = g->out->len - off - g->list->v[g->list->n - 1].len;
   return true;
}

static const uint8_t keygen_empty_doc[5] = { 5, 0, 0, 0, 0 };
static const bson_value_t keygen_null = { .value_type = BSON_TYPE_NULL };
static const bson_value_t keygen_undefined = { .value_type = BSON_TYPE_UNDEFINED };

/* keygen_walk -- the keys of the fields whose paths[i] is not NULL, looked up in the document data, with
 * the others fixed: no array, one key; an empty array, one key with undefined at its end (null where the
 * path goes on into it); else, per element, the array's fields fixed to it or continued inside it. Two
 * different arrays: mongod's CannotIndexParallelArrays. */
static bool
keygen_walk (keygen_t *g, const char *const *paths, const bson_value_t *const *fixed, const uint8_t *data,
             uint32_t len, bson_error_t *error)
{
   int n = g->ix->nfields, i;
   keygen_elt_t e[LAB_STORE_INDEX_MAX_FIELDS];
   const bson_value_t *f[LAB_STORE_INDEX_MAX_FIELDS];
   const char *p[LAB_STORE_INDEX_MAX_FIELDS];
   int arr = -1; /* a field whose path crossed the array */
   bson_iter_t it;

   for (i = 0; i < n; i++) {
      f[i] = fixed[i];
      p[i] = NULL;
      e[i].is_array = false;
      if (!paths[i]) {
         continue;
      }
      keygen_extract (data, len, paths[i], &e[i]);
      if (!e[i].is_array) {
         f[i] = e[i].value.value_type == BSON_TYPE_EOD ? &keygen_null : &e[i].value;
      } else if (arr < 0) {
         arr = i;
      } else if (e[i].arr_data != e[arr].arr_data) {
         char name[256];
         lab_wt_index_name (g->ix, name, sizeof name);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                        "index %s: cannot index parallel arrays [%s] [%s]", name, e[i].arr_name,
                        e[arr].arr_name);
         return false;
      }
   }
   if (arr < 0) {
      return keygen_emit (g, f, error);
   }
   g->multikey = true; /* an array crossed: multikey even with one key (isMultikeyFromPaths) */
   if (!bson_iter_init_from_data (&it, e[arr].arr_data, e[arr].arr_len) || !bson_iter_next (&it)) {
      for (i = 0; i < n; i++) {
         if (e[i].is_array) {
            f[i] = e[i].rest[0] ? &keygen_null : &keygen_undefined;
         }
      }
      return keygen_emit (g, f, error);
   }
   do {
      const bson_value_t *elt = bson_iter_value (&it);
      const uint8_t *sub = keygen_empty_doc;
      uint32_t sublen = sizeof keygen_empty_doc;
      bool deeper = false;

      if (BSON_ITER_HOLDS_DOCUMENT (&it)) {
         bson_iter_document (&it, &sublen, &sub);
      }
      for (i = 0; i < n; i++) {
         if (e[i].is_array && !e[i].rest[0]) {
            f[i] = elt;
            p[i] = NULL;
         } else if (e[i].is_array) {
            p[i] = e[i].rest;
            deeper = true;
         }
      }
      if (!(deeper ? keygen_walk (g, p, f, sub, sublen, error) : keygen_emit (g, f, error))) {
         return false;
      }
   } while (bson_iter_next (&it));
   return true;
}

/* A key of one document during deduplication. */
typedef struct {
   const uint8_t *p;
   size_t vlen; /* the value part without its type tag: what mongod's KeyStringSet compares */
   size_t ord;  /* generation order: the first of equal keys is kept */
   size_t off, len, tb;
} keygen_sorted_t;

/* keygen_cmp -- value bytes, then generation order. */
static int
keygen_cmp (const void *a, const void *b)
{
   const keygen_sorted_t *x = a, *y = b;
   size_t m = x->vlen < y->vlen ? x->vlen : y->vlen;
   int c = memcmp (x->p, y->p, m);

   if (c == 0) {
      c = x->vlen < y->vlen ? -1 : x->vlen > y->vlen;
   }
   return c ? c : (x->ord < y->ord ? -1 : x->ord > y->ord);
}

/* keygen_dedup -- list entries [first, n) sorted, each distinct key once (mongod's KeyStringSet: values
 * equal for MongoDB, 3 and 3.0, are one key; the first generated is kept). */
static void
keygen_dedup (const lab_buf_t *out, wt_ikeys_t *list, size_t first)
{
   size_t k = list->n - first, i, kept = 0;
   keygen_sorted_t *v;

   if (k < 2) {
      return;
   }
   v = bson_malloc (k * sizeof *v);
   for (i = 0; i < k; i++) {
      size_t vlen = 0;
      int64_t rid;
      v[i].p = out->data + list->v[first + i].off;
      v[i].off = list->v[first + i].off;
      v[i].len = list->v[first + i].len;
      v[i].tb = list->v[first + i].tb;
      lab_store_key_split_recordid (v[i].p, v[i].len, &vlen, &rid);
      v[i].vlen = vlen > 0 ? vlen - 1 : 0;
      v[i].ord = i;
   }
   qsort (v, k, sizeof *v, keygen_cmp);
   for (i = 0; i < k; i++) {
      if (kept > 0 && v[i].vlen == v[kept - 1].vlen && memcmp (v[i].p, v[kept - 1].p, v[i].vlen) == 0) {
         continue;
      }
      v[kept++] = v[i];
   }
   for (i = 0; i < kept; i++) {
      list->v[first + i].off = v[i].off;
      list->v[first + i].len = v[i].len;
      list->v[first + i].tb = v[i].tb;
   }
   list->n = first + kept;
   bson_free (v);
}

/* lab_wt_index_keys -- see wt_private.h. */
bool
lab_wt_index_keys (const wt_index_t *ix, int which, const bson_t *doc, int64_t rid, lab_buf_t *out,
                   wt_ikeys_t *list, bool *multikey, bson_error_t *error)
{
   keygen_t g = { ix, which, rid, out, list, false };
   const char *paths[LAB_STORE_INDEX_MAX_FIELDS] = { NULL };
   const bson_value_t *fixed[LAB_STORE_INDEX_MAX_FIELDS] = { NULL };
   size_t first = list->n;
   int i;

   for (i = 0; i < ix->nfields; i++) {
      paths[i] = ix->fields[i];
   }
   if (!keygen_walk (&g, paths, fixed, bson_get_data (doc), doc->len, error)) {
      list->n = first;
      return false;
   }
   keygen_dedup (out, list, first);
   if (g.multikey || list->n - first > 1) {
      *multikey = true;
   }
   return true;
}

/* lab_wt_index_mark_multikey -- set the flag once; the thread that set it rewrites the catalog entry
 * (mongod's setMultikey writes the durable catalog). */
bool
lab_wt_index_mark_multikey (wt_store_t *st, wt_coll_t *c, wt_index_t *ix, bson_error_t *error)
{
   int expected = 0;
   bool ok;

   if (!__atomic_compare_exchange_n (&ix->multikey, &expected, 1, false, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED)) {
      return true;
   }
   pthread_mutex_lock (&st->mu);
   pthread_mutex_lock (&st->meta_mu);
   ok = lab_wt_catalog_put_coll (st->meta, c, error);
   pthread_mutex_unlock (&st->meta_mu);
   pthread_mutex_unlock (&st->mu);
   return ok;
}

/* lab_wt_index_mark_found -- see wt_private.h. */
bool
lab_wt_index_mark_found (wt_sess_t *ss, wt_coll_t *c, const bool *mk, bson_error_t *error)
{
   int i;

   for (i = 0; i < c->nindexes; i++) {
      if (lab_wt_is_id_index (c, &c->indexes[i])) {
         continue;
      }
      if (mk[i] && !__atomic_load_n (&c->indexes[i].multikey, __ATOMIC_RELAXED) &&
          !lab_wt_index_mark_multikey (ss->st, c, &c->indexes[i], error)) {
         return false;
      }
   }
   return true;
}
