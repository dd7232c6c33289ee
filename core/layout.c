/*
 * layout.c -- the layout descriptor (layout.h): its names, the questions the tools ask of it, its JSON
 * form. The only place that tests a layout's kind or shape: a tool asks a question, the answer lives here.
 */
#include "core/layout.h"

#include "core/error.h"

#include <string.h>

static const char *const kind_names[] = { "rows", "folded", "buckets", NULL };
static const char *const shape_names[] = { "natural", "copy", "sorted", "clustered", "folded", NULL };

/* name_of -- names[v], or "?" past the end. */
static const char *
name_of (const char *const *names, size_t n, int v)
{
   return v >= 0 && (size_t)v < n ? names[v] : "?";
}

/* index_of -- the index of `s` in the NULL-terminated `names`, or -1. */
static int
index_of (const char *const *names, const char *s)
{
   int i;

   for (i = 0; s && names[i]; i++) {
      if (strcmp (names[i], s) == 0) {
         return i;
      }
   }
   return -1;
}

/* lab_layout_kind_name -- see layout.h. */
const char *
lab_layout_kind_name (lab_layout_kind_t kind)
{
   return name_of (kind_names, 3, (int)kind);
}

/* lab_layout_kind_parse -- see layout.h. */
bool
lab_layout_kind_parse (const char *s, lab_layout_kind_t *kind)
{
   int i = index_of (kind_names, s);

   if (i >= 0) {
      *kind = (lab_layout_kind_t)i;
   }
   return i >= 0;
}

/* lab_layout_shape_name -- see layout.h. */
const char *
lab_layout_shape_name (lab_layout_shape_t shape)
{
   return name_of (shape_names, 5, (int)shape);
}

/* lab_layout_shape_parse -- see layout.h. */
bool
lab_layout_shape_parse (const char *s, lab_layout_shape_t *shape)
{
   int i = index_of (shape_names, s);

   if (i >= 0) {
      *shape = (lab_layout_shape_t)i;
   }
   return i >= 0;
}

/* lab_layout_init -- see layout.h. */
void
lab_layout_init (lab_layout_t *l, const char *name, const char *collection, const char *kind)
{
   memset (l, 0, sizeof *l);
   bson_strncpy (l->name, name ? name : "", sizeof l->name);
   bson_strncpy (l->collection, collection ? collection : "", sizeof l->collection);
   if (!lab_layout_kind_parse (kind, &l->kind)) {
      l->kind = LAB_LAYOUT_ROWS;
   }
   l->shape = l->kind == LAB_LAYOUT_ROWS ? LAB_LAYOUT_NATURAL : LAB_LAYOUT_FOLD;
}

/* ---- the questions ------------------------------------------------------------------------------- */

/* lab_layout_reads_rows -- see layout.h. */
bool
lab_layout_reads_rows (const lab_layout_t *l)
{
   return l->kind == LAB_LAYOUT_ROWS;
}

/* lab_layout_doc_holds_many_rows -- see layout.h. */
bool
lab_layout_doc_holds_many_rows (const lab_layout_t *l)
{
   return l->kind != LAB_LAYOUT_ROWS;
}

/* lab_layout_one_doc_per_master -- see layout.h. */
bool
lab_layout_one_doc_per_master (const lab_layout_t *l)
{
   return l->kind == LAB_LAYOUT_FOLDED;
}

/* lab_layout_bucketed -- see layout.h. */
bool
lab_layout_bucketed (const lab_layout_t *l)
{
   return l->kind == LAB_LAYOUT_BUCKETS;
}

/* lab_layout_key_contiguous -- see layout.h: a fold keeps a master's rows in its documents; sorted and
 * clustered rows were written in key order; natural and copy rows sit where they arrived. */
bool
lab_layout_key_contiguous (const lab_layout_t *l)
{
   return l->kind != LAB_LAYOUT_ROWS || l->shape == LAB_LAYOUT_SORTED || l->shape == LAB_LAYOUT_CLUSTERED;
}

/* lab_layout_read_by_id_range -- see layout.h: only rows need it (a folded document is found by its key). */
bool
lab_layout_read_by_id_range (const lab_layout_t *l)
{
   return l->kind == LAB_LAYOUT_ROWS && l->clustered;
}

/* ---- JSON ---------------------------------------------------------------------------------------- */

/* lab_layout_append -- see layout.h. */
void
lab_layout_append (bson_t *doc, const char *field, const lab_layout_t *l)
{
   bson_t d, arr;
   char k[16], hoist[sizeof l->hoist], *save = NULL, *f;
   const char *ks;
   uint32_t i = 0;

   BSON_APPEND_DOCUMENT_BEGIN (doc, field, &d);
   BSON_APPEND_UTF8 (&d, "name", l->name);
   BSON_APPEND_UTF8 (&d, "collection", l->collection);
   BSON_APPEND_UTF8 (&d, "kind", lab_layout_kind_name (l->kind));
   BSON_APPEND_UTF8 (&d, "shape", lab_layout_shape_name (l->shape));
   BSON_APPEND_UTF8 (&d, "key", l->key);
   BSON_APPEND_UTF8 (&d, "array_field", l->array_field);
   BSON_APPEND_ARRAY_BEGIN (&d, "hoist", &arr);
   bson_strncpy (hoist, l->hoist, sizeof hoist);
   for (f = strtok_r (hoist, ",", &save); f; f = strtok_r (NULL, ",", &save)) {
      bson_uint32_to_string (i++, &ks, k, sizeof k);
      BSON_APPEND_UTF8 (&arr, ks, f);
   }
   bson_append_array_end (&d, &arr);
   BSON_APPEND_INT32 (&d, "bucket_rows", l->bucket_rows);
   BSON_APPEND_UTF8 (&d, "bucket_by", l->bucket_by);
   BSON_APPEND_UTF8 (&d, "block_compressor", l->block_compressor);
   BSON_APPEND_BOOL (&d, "clustered", l->clustered);
   bson_append_document_end (doc, &d);
}

/* bad -- fail naming the descriptor's field and what it should be. */
static bool
bad (bson_error_t *error, const char *field, const char *want)
{
   lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_BAD_REPLY, "layout descriptor: \"%s\" %s", field,
                  want);
   return false;
}

/* get_str -- copy string `field` of `doc` into out (absent: left as is); false when it is not a string or
 * does not fit. */
static bool
get_str (const bson_t *doc, const char *field, char *out, size_t len, bson_error_t *error)
{
   bson_iter_t it;
   uint32_t n;
   const char *s;

   if (!bson_iter_init_find (&it, doc, field)) {
      return true;
   }
   if (!BSON_ITER_HOLDS_UTF8 (&it)) {
      return bad (error, field, "is not a string");
   }
   s = bson_iter_utf8 (&it, &n);
   if (n >= len) {
      return bad (error, field, "is too long");
   }
   memcpy (out, s, n + 1);
   return true;
}

/* get_hoist -- the array of field names `field` of `doc` joined by commas into l->hoist. */
static bool
get_hoist (const bson_t *doc, const char *field, lab_layout_t *l, bson_error_t *error)
{
   bson_iter_t it, arr;
   size_t used = 0;

   if (!bson_iter_init_find (&it, doc, field)) {
      return true;
   }
   if (!BSON_ITER_HOLDS_ARRAY (&it) || !bson_iter_recurse (&it, &arr)) {
      return bad (error, field, "is not an array of field names");
   }
   l->hoist[0] = '\0';
   while (bson_iter_next (&arr)) {
      uint32_t n;
      const char *s;
      if (!BSON_ITER_HOLDS_UTF8 (&arr)) {
         return bad (error, field, "is not an array of field names");
      }
      s = bson_iter_utf8 (&arr, &n);
      if (used + n + 2 > sizeof l->hoist) {
         return bad (error, field, "names too many fields");
      }
      if (used) {
         l->hoist[used++] = ',';
      }
      memcpy (l->hoist + used, s, n + 1);
      used += n;
   }
   return true;
}

/* get_names -- kind and shape of `doc` (strings naming an enum value; an absent shape follows the kind). */
static bool
get_names (const bson_t *doc, lab_layout_t *l, bson_error_t *error)
{
   char kind[16] = "", shape[16] = "";

   if (!get_str (doc, "kind", kind, sizeof kind, error) ||
       !get_str (doc, "shape", shape, sizeof shape, error)) {
      return false;
   }
   if (!lab_layout_kind_parse (kind, &l->kind)) {
      return bad (error, "kind", "is not rows, folded or buckets");
   }
   l->shape = l->kind == LAB_LAYOUT_ROWS ? LAB_LAYOUT_NATURAL : LAB_LAYOUT_FOLD;
   if (shape[0] && !lab_layout_shape_parse (shape, &l->shape)) {
      return bad (error, "shape", "is not natural, copy, sorted, clustered or folded");
   }
   return true;
}

/* lab_layout_from_bson -- see layout.h. */
bool
lab_layout_from_bson (const bson_t *doc, lab_layout_t *l, bson_error_t *error)
{
   bson_iter_t it;

   memset (l, 0, sizeof *l);
   if (!get_str (doc, "name", l->name, sizeof l->name, error) ||
       !get_str (doc, "collection", l->collection, sizeof l->collection, error) ||
       !get_names (doc, l, error) || !get_str (doc, "key", l->key, sizeof l->key, error) ||
       !get_str (doc, "array_field", l->array_field, sizeof l->array_field, error) ||
       !get_hoist (doc, "hoist", l, error) ||
       !get_str (doc, "bucket_by", l->bucket_by, sizeof l->bucket_by, error) ||
       !get_str (doc, "block_compressor", l->block_compressor, sizeof l->block_compressor, error)) {
      return false;
   }
   if (!l->name[0]) {
      return bad (error, "name", "is missing");
   }
   if (bson_iter_init_find (&it, doc, "bucket_rows")) {
      if (!BSON_ITER_HOLDS_NUMBER (&it) || bson_iter_as_int64 (&it) < 0 ||
          bson_iter_as_int64 (&it) > INT32_MAX) {
         return bad (error, "bucket_rows", "is not a count");
      }
      l->bucket_rows = (int32_t)bson_iter_as_int64 (&it);
   }
   if (bson_iter_init_find (&it, doc, "clustered")) {
      if (!BSON_ITER_HOLDS_BOOL (&it)) {
         return bad (error, "clustered", "is not a boolean");
      }
      l->clustered = bson_iter_bool (&it);
   }
   l->recorded = true;
   return true;
}

/* lab_layout_from_fold -- see layout.h: the record's own descriptor when it has one (a fold-details of this
 * version), else the settings every record has had (an older fold's record). */
bool
lab_layout_from_fold (const bson_t *params, const char *name, const char *collection, lab_layout_t *l,
                      bson_error_t *error)
{
   char shape[16] = "", bc[32] = "";
   bson_iter_t it;

   if (bson_iter_init_find (&it, params, "descriptor") && BSON_ITER_HOLDS_DOCUMENT (&it)) {
      uint32_t len;
      const uint8_t *data;
      bson_t d;
      bson_iter_document (&it, &len, &data);
      if (!bson_init_static (&d, data, len) || !lab_layout_from_bson (&d, l, error)) {
         return false;
      }
   } else {
      lab_layout_init (l, name, collection, "folded");
      if (!get_str (params, "key", l->key, sizeof l->key, error) ||
          !get_str (params, "array_field", l->array_field, sizeof l->array_field, error) ||
          !get_hoist (params, "hoist", l, error) || !get_str (params, "shape", shape, sizeof shape, error) ||
          !get_str (params, "bucket_by", l->bucket_by, sizeof l->bucket_by, error) ||
          !get_str (params, "block_compressor", bc, sizeof bc, error)) {
         return false;
      }
      if (bson_iter_init_find (&it, params, "bucket_rows") && BSON_ITER_HOLDS_NUMBER (&it)) {
         l->bucket_rows = (int32_t)bson_iter_as_int64 (&it);
      }
      if (bson_iter_init_find (&it, params, "copy_only") && bson_iter_as_bool (&it)) {
         bson_strncpy (shape, "sorted", sizeof shape); /* --copy-only: the rows unchanged, in key order */
      }
      if (shape[0] && strcmp (shape, "folded") != 0 && !lab_layout_shape_parse (shape, &l->shape)) {
         return bad (error, "shape", "is not folded, sorted, clustered or copy");
      }
      l->kind = l->shape != LAB_LAYOUT_FOLD             ? LAB_LAYOUT_ROWS
                : l->bucket_rows > 0 || l->bucket_by[0] ? LAB_LAYOUT_BUCKETS
                                                        : LAB_LAYOUT_FOLDED;
      l->clustered = l->shape == LAB_LAYOUT_CLUSTERED;
      if (l->shape == LAB_LAYOUT_COPY) {
         l->key[0] = '\0'; /* a copy is keyed by _id for its own --verify: it names no master key */
      }
      if (l->kind == LAB_LAYOUT_ROWS) {
         l->array_field[0] = '\0';
      }
      if (strcmp (bc, "server default") != 0) {
         bson_strncpy (l->block_compressor, bc, sizeof l->block_compressor);
      }
      l->recorded = true;
   }
   /* the role is the comparison's name for it (without one: what the fold made), the collection where it
    * is now (a renamed collection) */
   if (name || !l->name[0]) {
      bson_strncpy (l->name,
                    name                             ? name
                    : l->kind != LAB_LAYOUT_ROWS     ? lab_layout_kind_name (l->kind)
                    : l->shape == LAB_LAYOUT_NATURAL ? "detail"
                                                     : lab_layout_shape_name (l->shape),
                    sizeof l->name);
   }
   if (collection) {
      bson_strncpy (l->collection, collection, sizeof l->collection);
   }
   return true;
}
