/*
 * decode.c -- what a client pays for each returned document (scan.h, --decode): walked field by field as
 * a driver's cursor hands fields to an application, or turned into a tree of heap objects as the mongo
 * shell or an ORM does (one allocation per value, strings copied, arrays and documents as child lists),
 * then freed. Timed inside the workers, so the load's latency and elapsed time include it.
 */
#include "scan/scan.h"

#include <stdlib.h>
#include <string.h>

static const char *const decode_names[] = { "none", "fields", "objects", NULL };

/* lab_scan_decode_names -- see scan.h. */
const char *const *
lab_scan_decode_names (void)
{
   return decode_names;
}

/* One decoded value: a node of the tree "objects" builds. */
typedef struct node {
   char *key;
   bson_type_t type;
   union {
      double d;
      int64_t i;
      char *s;
      struct node *child; /* documents and arrays: the first child */
   } v;
   struct node *next;
} node_t;

/* walk -- every field of `it`'s level and below; returns a checksum the compiler cannot drop. */
static uint64_t
walk (bson_iter_t *it)
{
   uint64_t sum = 0;
   bson_iter_t child;

   while (bson_iter_next (it)) {
      sum += (uint64_t)bson_iter_key_len (it) + (uint64_t)bson_iter_type (it);
      if ((BSON_ITER_HOLDS_DOCUMENT (it) || BSON_ITER_HOLDS_ARRAY (it)) && bson_iter_recurse (it, &child)) {
         sum += walk (&child);
      } else if (BSON_ITER_HOLDS_UTF8 (it)) {
         uint32_t len;
         const char *s = bson_iter_utf8 (it, &len);
         sum += len ? (uint8_t)s[0] : 0;
      } else if (BSON_ITER_HOLDS_DOUBLE (it)) {
         sum += (uint64_t)bson_iter_double (it);
      }
   }
   return sum;
}

/* build -- the tree of `it`'s level (first node returned). */
static node_t *
build (bson_iter_t *it)
{
   node_t *first = NULL, **tail = &first;
   bson_iter_t child;

   while (bson_iter_next (it)) {
      node_t *n = bson_malloc0 (sizeof *n);
      n->key = bson_strdup (bson_iter_key (it));
      n->type = bson_iter_type (it);
      if ((BSON_ITER_HOLDS_DOCUMENT (it) || BSON_ITER_HOLDS_ARRAY (it)) && bson_iter_recurse (it, &child)) {
         n->v.child = build (&child);
      } else if (BSON_ITER_HOLDS_UTF8 (it)) {
         n->v.s = bson_strdup (bson_iter_utf8 (it, NULL));
      } else if (BSON_ITER_HOLDS_DOUBLE (it)) {
         n->v.d = bson_iter_double (it);
      } else if (BSON_ITER_HOLDS_INT32 (it) || BSON_ITER_HOLDS_INT64 (it) || BSON_ITER_HOLDS_DATE_TIME (it)) {
         n->v.i = BSON_ITER_HOLDS_DATE_TIME (it) ? bson_iter_date_time (it) : bson_iter_as_int64 (it);
      }
      *tail = n;
      tail = &n->next;
   }
   return first;
}

/* destroy -- free a tree; returns the nodes freed. */
static uint64_t
destroy (node_t *n)
{
   uint64_t count = 0;

   while (n) {
      node_t *next = n->next;
      if (n->type == BSON_TYPE_DOCUMENT || n->type == BSON_TYPE_ARRAY) {
         count += destroy (n->v.child);
      } else if (n->type == BSON_TYPE_UTF8) {
         bson_free (n->v.s);
      }
      bson_free (n->key);
      bson_free (n);
      count++;
      n = next;
   }
   return count;
}

/* lab_scan_decode -- see scan.h. */
uint64_t
lab_scan_decode (const bson_t *doc, lab_scan_decode_t mode)
{
   bson_iter_t it;

   if (mode == LAB_DECODE_NONE || !bson_iter_init (&it, doc)) {
      return 0;
   }
   if (mode == LAB_DECODE_FIELDS) {
      return walk (&it);
   }
   return destroy (build (&it));
}
