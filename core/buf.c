/*
 * buf.c -- the growable byte buffer (buf.h).
 */
#include "buf.h"

#include <bson/bson.h>
#include <string.h>

void
lab_buf_init (lab_buf_t *b)
{
   b->data = NULL;
   b->len = 0;
   b->cap = 0;
}

void
lab_buf_append (lab_buf_t *b, const void *p, size_t n)
{
   if (b->len + n > b->cap) {
      size_t cap = b->cap ? b->cap : 64;
      while (cap < b->len + n) {
         cap *= 2;
      }
      b->data = bson_realloc (b->data, cap);
      b->cap = cap;
   }
   if (n) {
      memcpy (b->data + b->len, p, n);
   }
   b->len += n;
}

void
lab_buf_reset (lab_buf_t *b)
{
   b->len = 0;
}

void
lab_buf_destroy (lab_buf_t *b)
{
   bson_free (b->data);
   lab_buf_init (b);
}
