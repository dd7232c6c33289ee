/*
 * billgen.h -- the three operations behind the `billgen` tool, as a library: generate synthetic bill
 * details into a collection, import CSV (plain, zstd or stdin) into a collection, export a collection to
 * typed CSV. The main (billgen_main.c) only parses options, calls these, prints and maps exit codes.
 */
#ifndef LAB_BILLGEN_H
#define LAB_BILLGEN_H

#include <bson/bson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/progress.h"
#include "store/store.h"
#include "datasets/gen.h"

/* The most writers billgen runs (generate and import --parallel, and the default of one per CPU): one
 * bound for the option tables and the default. */
#define LAB_GEN_MAX_PARALLEL 64

/* ---- generate ---------------------------------------------------------------------------------- */

typedef struct {
   lab_gen_params_t gen;
   const char *coll;  /* --dst */
   bool drop;         /* --drop: replace an existing collection */
   size_t batch_docs; /* 0: 1000; also the rows of one worker's chunk */
   int parallel;      /* --parallel: workers generating and writing (0: 1) */
   lab_progress_mode_t progress;
   const bson_t *provenance; /* the collection's marker fields (store/mark.h), written before its first
                              * document; NULL: none */
} lab_gen_generate_opts_t;

typedef struct {
   int64_t rows;
   int64_t bills;
   int64_t oversize_bills;
   int64_t oversize_rows_per_bill;
   int64_t bson_bytes;
   int64_t open_bills_peak;
   double seconds;        /* whole run, index build included */
   double insert_seconds; /* generation + inserts only */
   double index_seconds;  /* the key index's build, after the inserts */
   double flush_seconds;  /* the final checkpoint (embedded) after the index */
   double cpu_seconds;    /* user + system CPU of the whole process (every thread) over `seconds`: not the
                           * store open, whose one-off cost (WiredTiger's clock calibration) is no row's */
   int workers;           /* workers that ran */
} lab_gen_generate_stats_t;

/* lab_gen_generate_opts_check -- the generator's parameters (lab_gen_new's checks), without a store. */
bool lab_gen_generate_opts_check (const lab_gen_generate_opts_t *o, bson_error_t *error);

/* lab_gen_generate -- generate into o->coll with o->parallel workers and create the index on the key
 * field. Row i of the generator's sequence goes at natural-order position i (lab_store_insert_many_at),
 * so the collection (documents, _ids and, on the embedded store, RecordIds) is the same for any number
 * of workers. An existing
 * non-empty collection without o->drop fails with LAB_STORE_ERR_EXISTS; on any failure the collection is
 * dropped again (nothing half-written is left). */
bool lab_gen_generate (lab_store_t *store, const lab_gen_generate_opts_t *o, lab_gen_generate_stats_t *st,
                       bson_error_t *error);

/* ---- import ------------------------------------------------------------------------------------ */

typedef enum { LAB_GRACE_STOP = 0, LAB_GRACE_SKIP_ROW, LAB_GRACE_SKIP_FIELD } lab_gen_grace_t;

/* lab_gen_grace_parse -- "stop" | "skip-row" | "skip-field". */
bool lab_gen_grace_parse (const char *s, lab_gen_grace_t *out);
const char *lab_gen_grace_name (lab_gen_grace_t g);

typedef struct {
   const char *coll;        /* --dst */
   const char *key;         /* --key (default bill_id): the header must have it, unless no_index */
   bool key_given;          /* --key was given (messages say so) */
   bool no_index;           /* --no-index: no key index, and a header without the key is fine */
   const char *fields;      /* --fields list (NULL: --headerline) */
   bool headerline;         /* first record of each file is the header */
   bool typed;              /* --columns-have-types */
   lab_gen_grace_t grace;   /* --parse-grace */
   const char *reject_path; /* --reject FILE */
   bool drop;               /* --drop: replace an existing collection */
   bool append;             /* --append: add to an existing collection (kept on failure) */
   bool parse_only;         /* --parse-only: read, parse and convert, write nothing (the ceiling) */
   size_t batch_docs;       /* 0: 1000 */
   int parallel;            /* writers (0, 1: one): writer k sends every N-th batch to its place */
   const char *const *files;
   size_t nfiles;
   lab_progress_mode_t progress;
   const bson_t *provenance; /* the collection's marker fields (store/mark.h), written before its first
                              * document when this import creates or replaces it (not --append to one
                              * that holds documents); NULL: none */
} lab_gen_import_opts_t;

typedef struct {
   int64_t files;
   int64_t rows_read;      /* data records seen (headers excluded) */
   int64_t rows_inserted;  /* documents written (parse-only: documents built) */
   int64_t rejects;        /* rows not imported */
   int64_t fields_skipped; /* fields left out under skip-field */
   int64_t bills;          /* distinct key values seen in imported rows (-1: no key column) */
   uint64_t csv_bytes;     /* CSV bytes after decompression */
   uint64_t file_bytes;    /* bytes read from the inputs */
   uint64_t bson_bytes;    /* BSON bytes of the documents */
   double seconds;         /* whole import, index build and flush included */
   double load_seconds;    /* until the last batch was written (no index build, no flush) */
   bool dropped_partial;   /* a failure dropped what had been written */
} lab_gen_import_stats_t;

/* lab_gen_import_t -- an import whose options are checked and whose inputs are open: each file is opened
 * once (its zstd magic sniffed there) and parsed from that same stream, so a FIFO or stdin works like a
 * file, and a missing input fails before a store or collection is touched. */
typedef struct lab_import lab_gen_import_t;

/* lab_gen_import_new -- check `o` (LAB_ERROR_USAGE: the header source, --drop with --append, --append with
 * --parallel above 1, no input, --reject -, a bad --fields list or one without the key) and open every
 * input. `o` must outlive the import. */
lab_gen_import_t *lab_gen_import_new (const lab_gen_import_opts_t *o, bson_error_t *error);

/* lab_gen_import_run -- import into o->coll (store may be NULL with parse_only); see lab_gen_import. Once
 * per import. */
bool lab_gen_import_run (lab_gen_import_t *imp, lab_store_t *store, lab_gen_import_stats_t *st,
                         bson_error_t *error);

/* lab_gen_import_destroy -- close the inputs; NULL is fine. */
void lab_gen_import_destroy (lab_gen_import_t *imp);

/* lab_gen_import -- lab_gen_import_new + lab_gen_import_run: import o->files into o->coll (store may be NULL
 * with parse_only). The destination is prepared (dropped with o->drop, created) only once the header has
 * been read and holds the key (o->key, unless o->no_index): a CSV without the key column is refused
 * before anything in the store changes. Refused rows go to o->reject_path as "FILE:LINE:COL: reason"
 * lines each followed by the verbatim row. With grace stop the first refusal fails the import (error
 * names FILE:LINE:COL); the collection is then dropped unless o->append (st->dropped_partial tells).
 * With o->parallel N > 1, N writers each send every N-th batch of o->batch_docs rows to its place in
 * the collection's natural order (lab_store_insert_many_at): on the embedded store the rows land where
 * one writer would put them; a server orders them as they arrive. */
bool lab_gen_import (lab_store_t *store, const lab_gen_import_opts_t *o, lab_gen_import_stats_t *st,
                     bson_error_t *error);

/* ---- export ------------------------------------------------------------------------------------ */

typedef struct {
   const char *coll; /* --src */
   const char *out;  /* -o FILE ("-": stdout) */
   int zstd_level;   /* 0: plain; > 0 compress (default 3 when the name ends in .zst) */
   int64_t sample;   /* documents read to fix the header (default 1000) */
   lab_progress_mode_t progress;
} lab_gen_export_opts_t;

typedef struct {
   int64_t rows;
   int64_t columns;
   uint64_t csv_bytes;  /* CSV bytes before compression */
   uint64_t file_bytes; /* bytes written */
   double seconds;
} lab_gen_export_stats_t;

/* lab_gen_export -- write o->coll, in _id order, as CSV with a typed header (`name.type()`): the
 * union of the top-level fields of the first o->sample documents, in first-seen order. A later document
 * with another field or type, or a value CSV cannot carry (array, sub-document, null, ...), fails the
 * export naming its _id and field; a file output is then removed (never left partial). */
bool lab_gen_export (lab_store_t *store, const lab_gen_export_opts_t *o, lab_gen_export_stats_t *st,
                     bson_error_t *error);

/* lab_gen_prepare_dst -- shared by generate and import: make `coll` ready to receive documents
 * (drop it first with `drop`; an existing non-empty one is LAB_STORE_ERR_EXISTS unless `append`, the
 * message suggesting --append when `allow_append`). *owned: this run may drop it again on failure; an
 * owned collection gets the marker `provenance` (NULL: none) before its first document. */
bool lab_gen_prepare_dst (lab_store_session_t *sess, const char *coll, bool drop, bool append,
                          bool allow_append, const bson_t *provenance, bool *owned, bson_error_t *error);

#endif
