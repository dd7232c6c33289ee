/*
 * keys.c -- the masters to load: --keys-file parsing, sorting in MongoDB order, --keys-limit spreading
 * over the whole range, and the split into one contiguous segment per worker (as the original
 * experiment's four shell scripts each took a quarter of the bills) or, --load-order random, a seeded
 * shuffle dealt round-robin (as an application opens bills in no order of their keys).
 */
#include "scan/hash.h"
#include "scan/scan.h"

#include "core/error.h"
#include "store/keyenc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* lab_scan_keys_spread -- index i of the kept keys is round(i * (n-1) / (limit-1)). */
void
lab_scan_keys_spread (bson_value_t *keys, int64_t *n, int64_t limit)
{
   int64_t total = *n;
   int64_t i, w = 0, next_src = 0;

   if (limit <= 0 || limit >= total) {
      return;
   }
   for (i = 0; i < limit; i++) {
      int64_t src = limit == 1 ? 0 : (int64_t)((double)i * (double)(total - 1) / (double)(limit - 1) + 0.5);
      int64_t j;

      for (j = next_src; j < src; j++) {
         bson_value_destroy (&keys[j]);
      }
      keys[w++] = keys[src];
      next_src = src + 1;
   }
   for (i = next_src; i < total; i++) {
      bson_value_destroy (&keys[i]);
   }
   *n = limit;
}

/* lab_scan_keys_segment -- starts[i] = i * n / parallel. */
void
lab_scan_keys_segment (int64_t n, int parallel, int64_t *starts)
{
   int i;
   for (i = 0; i <= parallel; i++) {
      starts[i] = (int64_t)((__int128)n * i / parallel);
   }
}

/* lab_scan_load_order_names -- see scan.h. */
const char *const *
lab_scan_load_order_names (void)
{
   static const char *const names[] = { "key", "random", "both", NULL }; /* lab_scan_load_order_t */
   return names;
}

/* lab_scan_keys_shuffle -- Fisher-Yates from the end; the seed mixed so that seeds 0 and 1 differ widely. */
void
lab_scan_keys_shuffle (int64_t n, uint64_t seed, int64_t *perm)
{
   uint64_t rng = seed ^ 0x6b65796f72646572ull; /* "keyorder": not the workloads' stream of the same seed */
   int64_t i;

   for (i = 0; i < n; i++) {
      perm[i] = i;
   }
   for (i = n - 1; i > 0; i--) {
      int64_t j = (int64_t)(lab_scan_rand64 (&rng) % (uint64_t)(i + 1)), t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
   }
}

/* lab_scan_keys_share -- see scan.h. */
void
lab_scan_keys_share (lab_scan_load_order_t order, int64_t n, int parallel, int worker, int64_t *first,
                     int64_t *end, int64_t *stride)
{
   if (order == LAB_LOAD_ORDER_RANDOM) {
      *first = worker < n ? worker : n;
      *end = n;
      *stride = parallel;
      return;
   }
   *first = (int64_t)((__int128)n * worker / parallel);
   *end = (int64_t)((__int128)n * (worker + 1) / parallel);
   *stride = 1;
}

/* cmp_values -- qsort adaptor for lab_store_value_compare. */
static int
cmp_values (const void *a, const void *b)
{
   return lab_store_value_compare ((const bson_value_t *)a, (const bson_value_t *)b);
}

/* lab_scan_keys_sort_unique -- qsort by MongoDB order, then drop equal neighbours. */
void
lab_scan_keys_sort_unique (bson_value_t *keys, int64_t *n)
{
   int64_t i, w = 0;

   if (*n <= 1) {
      return;
   }
   qsort (keys, (size_t)*n, sizeof *keys, cmp_values);
   for (i = 0; i < *n; i++) {
      if (w > 0 && lab_store_value_compare (&keys[w - 1], &keys[i]) == 0) {
         bson_value_destroy (&keys[i]);
         continue;
      }
      keys[w++] = keys[i];
   }
   *n = w;
}

/* lab_scan_keys_parse_line -- parse as {"k": <line>} with libbson's JSON reader; bare text otherwise. */
bool
lab_scan_keys_parse_line (const char *line, bson_value_t *out, bool *skip, bson_error_t *error)
{
   size_t len = strlen (line);
   char *json;
   bson_t doc;
   bson_error_t jerr;
   bson_iter_t it;
   bool ok = false;

   *skip = false;
   while (len > 0 &&
          (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t')) {
      len--;
   }
   while (len > 0 && (*line == ' ' || *line == '\t')) {
      line++;
      len--;
   }
   if (len == 0) {
      *skip = true;
      return true;
   }
   json = bson_strdup_printf ("{\"k\": %.*s}", (int)len, line);
   if (bson_init_from_json (&doc, json, -1, &jerr)) {
      if (bson_iter_init_find (&it, &doc, "k")) {
         const bson_value_t *v = bson_iter_value (&it);
         if (v->value_type == BSON_TYPE_INT64 && v->value.v_int64 >= INT32_MIN &&
             v->value.v_int64 <= INT32_MAX) {
            out->value_type = BSON_TYPE_INT32;
            out->value.v_int32 = (int32_t)v->value.v_int64;
            ok = true;
         } else if (lab_store_key_type_supported (v->value_type)) {
            bson_value_copy (v, out);
            ok = true;
         } else {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                           "key %.*s has a type an index key cannot hold", (int)len, line);
         }
      }
      bson_destroy (&doc);
   } else {
      /* Not JSON: the line is the key, as text. */
      out->value_type = BSON_TYPE_UTF8;
      out->value.v_utf8.str = bson_strndup (line, len);
      out->value.v_utf8.len = (uint32_t)len;
      ok = true;
   }
   bson_free (json);
   return ok;
}

/* lab_scan_keys_read_file -- one key per line, sorted and deduplicated. */
bool
lab_scan_keys_read_file (const char *path, bson_value_t **keys, int64_t *n, bson_error_t *error)
{
   FILE *f = fopen (path, "r");
   char *line = NULL;
   size_t cap = 0;
   bson_value_t *arr = NULL;
   int64_t count = 0, alloc = 0;
   int64_t lineno = 0;
   bool ok = false;

   *keys = NULL;
   *n = 0;
   if (!f) {
      lab_error_set_errno (error, errno, "--keys-file %s", path);
      return false;
   }
   while (getline (&line, &cap, f) > 0) {
      bson_value_t v;
      bool skip;

      lineno++;
      if (!lab_scan_keys_parse_line (line, &v, &skip, error)) {
         lab_error_prefix (error, "--keys-file %s, line %" PRId64, path, lineno);
         goto done;
      }
      if (skip) {
         continue;
      }
      if (count == alloc) {
         alloc = alloc ? alloc * 2 : 1024;
         arr = bson_realloc (arr, (size_t)alloc * sizeof *arr);
      }
      arr[count++] = v;
   }
   if (ferror (f)) {
      lab_error_set_errno (error, errno, "reading --keys-file %s", path);
      goto done;
   }
   if (count == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--keys-file %s holds no key (one key per line)", path);
      goto done;
   }
   lab_scan_keys_sort_unique (arr, &count);
   *keys = arr;
   *n = count;
   arr = NULL;
   ok = true;
done:
   if (arr) {
      lab_store_values_free (arr, (int)count);
   }
   free (line);
   fclose (f);
   return ok;
}
