/*
 * buf.h -- a growable byte buffer: the one the key encoding, the embedded store and the CSV layer share.
 */
#ifndef LAB_BUF_H
#define LAB_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
   uint8_t *data;
   size_t len;
   size_t cap;
} lab_buf_t;

/* lab_buf_init -- an empty buffer (no allocation until the first append). */
void lab_buf_init (lab_buf_t *b);
/* lab_buf_append -- append n bytes, growing geometrically. */
void lab_buf_append (lab_buf_t *b, const void *p, size_t n);
/* lab_buf_reset -- forget the contents, keep the memory. */
void lab_buf_reset (lab_buf_t *b);
/* lab_buf_destroy -- free the memory; the buffer is empty and reusable afterwards. */
void lab_buf_destroy (lab_buf_t *b);

#endif
