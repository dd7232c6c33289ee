/*
 * loader.h -- batched inserts on a writer thread: the producer (generator or CSV parser) fills documents
 * into a batch of about `batch_docs` documents capped at `batch_bytes`, and a writer thread with its own
 * store session sends full batches through lab_store_insert_many while the producer fills the next one.
 *
 * Per-document refusals (a document over 16 MiB, a duplicate _id) come back to the producer thread,
 * through the reject callback, with the tag, source name and (when keep_raw) the source text the
 * producer attached to the document. A batch that fails as a whole stops the loader: the next
 * lab_gen_loader_add or lab_gen_loader_finish returns that error.
 */
#ifndef LAB_LOADER_H
#define LAB_LOADER_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

typedef struct {
   size_t batch_docs;    /* documents per batch (default 1000) */
   uint64_t batch_bytes; /* BSON bytes per batch, at most (default: the server's message size - 1 MiB) */
   bool keep_raw;        /* keep each document's source text for the reject callback */
   bool positioned;      /* place documents at natural-order positions (lab_store_insert_many_at): the
                          * first at 0, each next one after the previous, or where lab_gen_loader_seek says */
} lab_gen_loader_opts_t;

typedef struct {
   const char *src; /* source name given to lab_gen_loader_add (e.g. the file) */
   int64_t tag;     /* tag given to lab_gen_loader_add (e.g. the line) */
   const char *raw; /* source text when keep_raw, else NULL */
   size_t raw_len;
   uint32_t domain; /* error domain and code from the store */
   uint32_t code;
   const char *message;
} lab_gen_loader_reject_t;

/* lab_gen_loader_reject_cb_t -- a refused document; return false with *error to stop (the loader then fails).
 */
typedef bool (*lab_gen_loader_reject_cb_t) (const lab_gen_loader_reject_t *r, void *ctx, bson_error_t *error);

typedef struct lab_loader lab_gen_loader_t;

/* lab_gen_loader_new -- start the writer thread (it opens its own session on `store`). The collection must
 * exist. `cb` may be NULL: any refusal is then an error. */
lab_gen_loader_t *lab_gen_loader_new (lab_store_t *store, const char *coll, const lab_gen_loader_opts_t *opts,
                                      lab_gen_loader_reject_cb_t cb, void *ctx, bson_error_t *error);

/* lab_gen_loader_doc -- the (empty) document to fill next; valid until lab_gen_loader_add. */
bson_t *lab_gen_loader_doc (lab_gen_loader_t *l);

/* lab_gen_loader_add -- commit the document filled in lab_gen_loader_doc(), with `src`/`tag` (and `raw`,
 * copied when keep_raw) for error reports. `src` must stay valid until lab_gen_loader_finish. */
bool lab_gen_loader_add (lab_gen_loader_t *l, const char *src, int64_t tag, const char *raw, size_t raw_len,
                         bson_error_t *error);

/* lab_gen_loader_seek -- (positioned loaders) the next document goes at natural-order position `pos`: the
 * batch being filled is sent first (a batch holds consecutive positions). */
bool lab_gen_loader_seek (lab_gen_loader_t *l, int64_t pos, bson_error_t *error);

/* lab_gen_loader_finish -- send the last batch, wait for the writer, report the remaining refusals; *inserted
 * gets the documents written. Frees the loader whatever the outcome. */
bool lab_gen_loader_finish (lab_gen_loader_t *l, int64_t *inserted, bson_error_t *error);

/* lab_gen_loader_abort -- stop the writer after its current batch and free (no further documents written). */
void lab_gen_loader_abort (lab_gen_loader_t *l);

/* lab_gen_loader_inserted -- documents written so far (batches already reported back). */
int64_t lab_gen_loader_inserted (const lab_gen_loader_t *l);

#endif
