/*
 * import.c -- `billgen import`: a streaming pipeline from CSV inputs to a collection.
 *
 *   input (file | zstd | stdin) -> record splitter + libcsv (csvin.c) -> typed conversion (csvtype.c)
 *   -> batches of ~1000 documents capped in bytes (loader.c, writer thread) -> lab_store_insert_many
 *
 * Refusals (malformed record, wrong field count, bad value, invalid UTF-8, a document the store refuses)
 * follow --parse-grace and are written to the reject file as "FILE:LINE:COL: reason" + the verbatim row.
 */
#include "datasets/billgen.h"

#include <string.h>
#include <sys/stat.h>

#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"
#include "datasets/csvin.h"
#include "datasets/csvtype.h"
#include "datasets/loader.h"
#include "datasets/stream.h"

static const char *const GRACE_NAMES[] = { "stop", "skip-row", "skip-field" };

bool
lab_gen_grace_parse (const char *s, lab_gen_grace_t *out)
{
   for (int i = 0; i < 3; i++) {
      if (strcmp (s, GRACE_NAMES[i]) == 0) {
         *out = (lab_gen_grace_t)i;
         return true;
      }
   }
   return false;
}

const char *
lab_gen_grace_name (lab_gen_grace_t g)
{
   return (unsigned)g < 3 ? GRACE_NAMES[g] : "?";
}

/* ---- a set of 64-bit hashes (distinct key values) ---------------------------------------------- */

typedef struct {
   uint64_t *slot; /* 0 = empty (hash 0 is remapped to 1) */
   size_t cap, len;
} hset_t;

static bool
hset_add (hset_t *h, uint64_t v)
{
   if (v == 0) {
      v = 1;
   }
   if ((h->len + 1) * 2 > h->cap) {
      size_t ncap = h->cap ? h->cap * 2 : 1024;
      uint64_t *ns = bson_malloc0 (ncap * sizeof *ns);
      for (size_t i = 0; i < h->cap; i++) {
         if (h->slot[i]) {
            size_t j = (size_t)(h->slot[i] * 0x9E3779B97F4A7C15ull >> 20) & (ncap - 1);
            while (ns[j]) {
               j = (j + 1) & (ncap - 1);
            }
            ns[j] = h->slot[i];
         }
      }
      bson_free (h->slot);
      h->slot = ns;
      h->cap = ncap;
   }
   size_t j = (size_t)(v * 0x9E3779B97F4A7C15ull >> 20) & (h->cap - 1);
   while (h->slot[j]) {
      if (h->slot[j] == v) {
         return false;
      }
      j = (j + 1) & (h->cap - 1);
   }
   h->slot[j] = v;
   h->len++;
   return true;
}

/* fnv1a -- 64-bit FNV-1a of a byte string. */
static uint64_t
fnv1a (const uint8_t *p, size_t n, uint64_t h)
{
   for (size_t i = 0; i < n; i++) {
      h = (h ^ p[i]) * 0x100000001B3ull;
   }
   return h;
}

/* value_hash -- hash of a key value: its type and its bytes. */
static uint64_t
value_hash (const bson_value_t *v)
{
   uint8_t t = (uint8_t)v->value_type;
   uint64_t h = fnv1a (&t, 1, 0xCBF29CE484222325ull);
   switch (v->value_type) {
   case BSON_TYPE_UTF8:
      return fnv1a ((const uint8_t *)v->value.v_utf8.str, v->value.v_utf8.len, h);
   case BSON_TYPE_INT32:
      return fnv1a ((const uint8_t *)&v->value.v_int32, sizeof v->value.v_int32, h);
   case BSON_TYPE_INT64:
      return fnv1a ((const uint8_t *)&v->value.v_int64, sizeof v->value.v_int64, h);
   case BSON_TYPE_DOUBLE:
      return fnv1a ((const uint8_t *)&v->value.v_double, sizeof v->value.v_double, h);
   case BSON_TYPE_DATE_TIME:
      return fnv1a ((const uint8_t *)&v->value.v_datetime, sizeof v->value.v_datetime, h);
   case BSON_TYPE_OID:
      return fnv1a (v->value.v_oid.bytes, 12, h);
   case BSON_TYPE_BOOL:
      return fnv1a ((const uint8_t *)&v->value.v_bool, sizeof v->value.v_bool, h);
   case BSON_TYPE_DECIMAL128:
      return fnv1a ((const uint8_t *)&v->value.v_decimal128, sizeof v->value.v_decimal128, h);
   default:
      return h;
   }
}

/* ---- the import -------------------------------------------------------------------------------- */

typedef struct {
   const lab_gen_import_opts_t *o;
   lab_gen_import_stats_t *st;
   lab_store_t *store;         /* NULL with parse_only */
   lab_store_session_t *sess;  /* opened by start_loading */
   bool owned;                 /* this run created (or dropped and recreated) the collection */
   bool started;               /* start_loading ran: the destination is prepared and the writers run */
   lab_gen_loader_t **loaders; /* one per writer (o->parallel) */
   int nloaders;
   int64_t chunk;            /* rows per batch: writer k takes batches k, k + N, ... */
   int64_t accepted;         /* documents handed to the writers so far: the next one's position */
   lab_gen_loader_t *loader; /* the writer of the current batch */
   lab_gen_output_t *reject;
   lab_progress_t *prog;
   lab_gen_csv_header_t header;
   bool have_header;
   lab_gen_input_t *in;
   const char *file; /* current input's display name (owned by the input) */
   ssize_t key_col;
   hset_t keys;
   bson_t scratch;    /* parse-only target */
   uint64_t last_csv; /* csv_bytes already shown by the progress line */
   int64_t pending_rows;
   lab_buf_t line;
} import_t;

/* write_reject -- one reject entry: "FILE:LINE:COL: reason\n" then the row as it was. */
static bool
write_reject (import_t *im, const char *file, int64_t line, int64_t col, const char *reason, const char *raw,
              size_t raw_len, bson_error_t *error)
{
   if (!im->reject) {
      return true;
   }
   lab_buf_reset (&im->line);
   char head[512];
   int n = bson_snprintf (head, sizeof head, "%s:%" PRId64 ":%" PRId64 ": ", file, line, col);
   lab_buf_append (&im->line, head, (size_t)n);
   lab_buf_append (&im->line, reason, strlen (reason));
   lab_buf_append (&im->line, "\n", 1);
   if (raw) {
      lab_buf_append (&im->line, raw, raw_len);
      if (raw_len == 0 || (raw[raw_len - 1] != '\n' && raw[raw_len - 1] != '\r')) {
         lab_buf_append (&im->line, "\n", 1);
      }
   }
   if (!lab_gen_output_write (im->reject, im->line.data, im->line.len, error)) {
      lab_error_prefix (error, "reject file");
      return false;
   }
   return true;
}

/* refuse -- a row is not imported: count it, write it to the reject file, and fail under grace stop. */
static bool
refuse (import_t *im, const lab_gen_csv_record_t *rec, size_t raw_off, const char *reason,
        bson_error_t *error)
{
   int64_t line, col;
   lab_gen_csv_locate (rec, raw_off, &line, &col);
   im->st->rejects++;
   if (!write_reject (im, rec->file, line, col, reason, rec->raw, rec->raw_len, error)) {
      return false;
   }
   if (im->o->grace == LAB_GRACE_STOP) {
      lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_ROW,
                     "%s:%" PRId64 ":%" PRId64 ": %s (--parse-grace stop)", rec->file, line, col, reason);
      return false;
   }
   if (im->st->rejects <= 5) {
      lab_log_info ("%s:%" PRId64 ":%" PRId64 ": row skipped: %s", rec->file, line, col, reason);
   } else {
      lab_log_debug ("%s:%" PRId64 ":%" PRId64 ": row skipped: %s", rec->file, line, col, reason);
   }
   return true;
}

/* take_header -- the first record of a file as the header (and check it against the first file's). */
static bool
take_header (import_t *im, const lab_gen_csv_record_t *rec, bson_error_t *error)
{
   lab_gen_csv_header_t h = { 0 };
   int64_t line, col;

   if (rec->parse_error) {
      lab_gen_csv_locate (rec, rec->error_off, &line, &col);
      lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER,
                     "%s:%" PRId64 ":%" PRId64 ": header line: %s", rec->file, line, col, rec->parse_error);
      return false;
   }
   for (size_t i = 0; i < rec->nfields; i++) {
      const lab_gen_csv_field_t *f = &rec->fields[i];
      if (!lab_gen_csv_header_add (&h, f->data ? f->data : "", f->data ? f->len : 0, im->o->typed, error)) {
         lab_gen_csv_locate (rec, lab_gen_csv_field_raw_offset (rec, i, 0), &line, &col);
         lab_error_prefix (error, "%s:%" PRId64 ":%" PRId64, rec->file, line, col);
         lab_gen_csv_header_cleanup (&h);
         return false;
      }
   }
   if (!im->have_header) {
      im->header = h;
      im->have_header = true;
      return true;
   }
   if (!lab_gen_csv_header_equal (&im->header, &h)) {
      lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_HEADER_MISMATCH,
                     "%s:%" PRId64
                     ": header differs from the first file's (%zu fields here, %zu there): every file "
                     "must have the same columns in the same order",
                     rec->file, rec->line, h.n, im->header.n);
      lab_gen_csv_header_cleanup (&h);
      return false;
   }
   lab_gen_csv_header_cleanup (&h);
   return true;
}

static bool on_store_reject (const lab_gen_loader_reject_t *r, void *ctx, bson_error_t *error);

/* key_missing -- the error of a header (or --fields) without the key field: refused before anything in
 * the store changes, since the fold and the scan group and load by it. */
static void
key_missing (const lab_gen_import_opts_t *o, const char *where, bson_error_t *error)
{
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                  "%s has no field '%s' (%s): fold-details and scancmp read the masters by that key; name "
                  "the key column with --key FIELD, or import without a key index with --no-index",
                  where, o->key, o->key_given ? "--key" : "the master key, --key's default");
}

/* start_loading -- prepare the destination (drop with --drop, create) and start the writers: once the
 * header is known to hold the key, before the first row is written (or at the end of an input of no
 * rows). Parse-only: nothing. */
static bool
start_loading (import_t *im, bson_error_t *error)
{
   const lab_gen_import_opts_t *o = im->o;
   lab_store_server_info_t info;

   if (im->started || o->parse_only) {
      im->started = true;
      return true;
   }
   im->started = true;
   if (!lab_store_server_info (im->store, &info, error)) {
      return false;
   }
   im->sess = lab_store_session_open (im->store, error);
   if (!im->sess) {
      return false;
   }
   if (!lab_gen_prepare_dst (im->sess, o->coll, o->drop, o->append, true, o->provenance, &im->owned, error)) {
      return false;
   }
   lab_gen_loader_opts_t lo = {
      .batch_docs = o->batch_docs ? o->batch_docs : 1000,
      .batch_bytes = (uint64_t)lab_store_write_budget_bytes (info.max_message_bytes),
      .keep_raw = o->reject_path != NULL,
      .positioned = o->parallel > 1,
   };
   im->chunk = (int64_t)lo.batch_docs;
   im->loaders = bson_malloc0 ((size_t)(o->parallel > 1 ? o->parallel : 1) * sizeof *im->loaders);
   for (int k = 0; k < (o->parallel > 1 ? o->parallel : 1); k++) {
      im->loaders[k] = lab_gen_loader_new (im->store, o->coll, &lo, on_store_reject, im, error);
      if (!im->loaders[k]) {
         return false;
      }
      im->nloaders++;
   }
   im->loader = im->loaders[0];
   return true;
}

/* next_writer -- the writer of the next document (document `accepted` of the collection): with several,
 * writer (accepted / chunk) % N, moved to that position at the start of each batch. */
static bool
next_writer (import_t *im, bson_error_t *error)
{
   if (im->nloaders <= 1) {
      return true;
   }
   im->loader = im->loaders[(im->accepted / im->chunk) % im->nloaders];
   /* a row refused after this may seek again to the same place: nothing is pending then */
   return im->accepted % im->chunk != 0 || lab_gen_loader_seek (im->loader, im->accepted, error);
}

/* on_record -- one CSV record: header, or a row to convert and load. */
static bool
on_record (const lab_gen_csv_record_t *rec, void *ctx, bson_error_t *error)
{
   import_t *im = ctx;
   const lab_gen_import_opts_t *o = im->o;
   char why[384];
   char reason[512];

   im->st->csv_bytes += rec->raw_len;
   if (o->headerline && rec->number == 1) {
      if (!take_header (im, rec, error)) {
         return false;
      }
      if (im->key_col < 0 && o->key) {
         im->key_col = lab_gen_csv_header_find (&im->header, o->key);
         if (im->key_col < 0 && !o->no_index) {
            char *where = bson_strdup_printf ("%s: the header", rec->file);
            key_missing (o, where, error);
            bson_free (where);
            return false;
         }
      }
      return true;
   }
   if (!im->started && !start_loading (im, error)) {
      return false;
   }

   im->st->rows_read++;
   if (++im->pending_rows == 1024) {
      lab_progress_add (im->prog, (uint64_t)im->pending_rows, im->st->csv_bytes - im->last_csv);
      im->last_csv = im->st->csv_bytes;
      im->pending_rows = 0;
   }
   if (rec->parse_error) {
      return refuse (im, rec, rec->error_off, rec->parse_error, error);
   }
   if (rec->nfields != im->header.n) {
      bson_snprintf (reason, sizeof reason, "row has %zu field%s, the header has %zu", rec->nfields,
                     rec->nfields == 1 ? "" : "s", im->header.n);
      size_t off;
      if (rec->nfields > im->header.n) {
         off = lab_gen_csv_field_raw_offset (rec, im->header.n, 0); /* the first extra field */
      } else {
         off = rec->raw_len; /* end of the row, before its terminator */
         while (off > 0 && (rec->raw[off - 1] == '\n' || rec->raw[off - 1] == '\r')) {
            off--;
         }
      }
      return refuse (im, rec, off, reason, error);
   }

   bson_t *doc;
   if (im->loader) {
      if (!next_writer (im, error)) {
         return false;
      }
      doc = lab_gen_loader_doc (im->loader);
   } else {
      bson_reinit (&im->scratch);
      doc = &im->scratch;
   }
   for (size_t i = 0; i < rec->nfields; i++) {
      const lab_gen_csv_field_t *f = &rec->fields[i];
      bool appended;
      size_t bad_off;
      if (lab_gen_csv_convert (&im->header.cols[i], f->data, f->len, doc, &appended, why, sizeof why,
                               &bad_off)) {
         continue;
      }
      size_t raw_off = lab_gen_csv_field_raw_offset (rec, i, bad_off);
      bson_snprintf (reason, sizeof reason, "field %zu '%s': %s", i + 1, im->header.cols[i].name, why);
      if (o->grace == LAB_GRACE_SKIP_FIELD) {
         int64_t line, col;
         lab_gen_csv_locate (rec, raw_off, &line, &col);
         im->st->fields_skipped++;
         char left[560];
         bson_snprintf (left, sizeof left, "field left out (skip-field): %s", reason);
         if (!write_reject (im, rec->file, line, col, left, rec->raw, rec->raw_len, error)) {
            return false;
         }
         if (im->st->fields_skipped <= 5) {
            lab_log_info ("%s:%" PRId64 ":%" PRId64 ": %s", rec->file, line, col, left);
         }
         continue;
      }
      return refuse (im, rec, raw_off, reason, error);
   }

   if (im->key_col >= 0) {
      bson_iter_t it;
      if (bson_iter_init_find (&it, doc, im->header.cols[im->key_col].name)) {
         hset_add (&im->keys, value_hash (bson_iter_value (&it)));
      }
   }

   im->st->bson_bytes += doc->len;
   if (im->loader) {
      if (!lab_gen_loader_add (im->loader, im->file, rec->line, rec->raw, rec->raw_len, error)) {
         return false;
      }
      im->accepted++;
   } else {
      im->st->rows_inserted++;
   }
   return true;
}

/* on_store_reject -- a document the store refused (e.g. over 16 MiB, duplicate _id). */
static bool
on_store_reject (const lab_gen_loader_reject_t *r, void *ctx, bson_error_t *error)
{
   import_t *im = ctx;
   char reason[400];
   bson_snprintf (reason, sizeof reason, "refused by the store: %s", r->message);
   im->st->rejects++;
   if (!write_reject (im, r->src ? r->src : "?", r->tag, 1, reason, r->raw, r->raw_len, error)) {
      return false;
   }
   if (im->o->grace == LAB_GRACE_STOP) {
      lab_error_set (error, r->domain, r->code, "%s:%" PRId64 ":1: %s (--parse-grace stop)",
                     r->src ? r->src : "?", r->tag, reason);
      return false;
   }
   lab_log_info ("%s:%" PRId64 ":1: row skipped: %s", r->src ? r->src : "?", r->tag, reason);
   return true;
}

/* reopenable -- a regular file, which can be opened again for reading (stdin and FIFOs cannot). */
static bool
reopenable (const char *path)
{
   struct stat sb;

   return strcmp (path, "-") != 0 && stat (path, &sb) == 0 && S_ISREG (sb.st_mode);
}

/* lab_import -- checked options, the --fields header and every input checked (stdin and FIFOs open). */
struct lab_import {
   const lab_gen_import_opts_t *o;
   lab_gen_input_t **inputs; /* per o->files[i]: stdin and FIFOs open since lab_gen_import_new, else NULL */
   lab_gen_csv_header_t fields; /* from --fields (when not --headerline) */
   bool used;
};

/* lab_gen_import_new -- see billgen.h. */
lab_gen_import_t *
lab_gen_import_new (const lab_gen_import_opts_t *o, bson_error_t *error)
{
   lab_gen_import_t *imp = bson_malloc0 (sizeof *imp);
   bool have_stdin = false;

   imp->o = o;
   if (o->headerline && o->fields) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--headerline and --fields exclude each other");
      goto fail;
   }
   if (!o->headerline && !o->fields) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "say where the field names come from: --headerline or --fields");
      goto fail;
   }
   if (o->drop && o->append) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--drop and --append exclude each other");
      goto fail;
   }
   if (o->append && o->parallel > 1) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--append adds after the rows already there, one batch after the other: use it "
                     "without --parallel (or --parallel 1)");
      goto fail;
   }
   if (o->nfiles == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "no input: name one or more CSV files (or - for stdin)");
      goto fail;
   }
   if (o->reject_path && strcmp (o->reject_path, "-") == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--reject needs a file name");
      goto fail;
   }
   if (o->fields && !lab_gen_csv_header_from_list (&imp->fields, o->fields, o->typed, error)) {
      error->domain = LAB_ERROR_USAGE; /* the header is the --fields value: a usage error (exit 2) */
      error->code = LAB_USAGE_ERR_BAD_VALUE;
      goto fail;
   }
   if (o->fields && o->key && !o->no_index && lab_gen_csv_header_find (&imp->fields, o->key) < 0) {
      key_missing (o, "--fields", error);
      goto fail;
   }
   /* open every input now: a missing file fails before anything is written. stdin and FIFOs stay open
    * (they cannot be opened twice, and the stream sniffed for the zstd magic must be the one parsed);
    * regular files are closed again and reopened in turn */
   imp->inputs = bson_malloc0 (o->nfiles * sizeof *imp->inputs);
   for (size_t i = 0; i < o->nfiles; i++) {
      if (strcmp (o->files[i], "-") == 0) {
         if (have_stdin) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                           "stdin (-) can be read only once");
            goto fail;
         }
         have_stdin = true;
      }
      imp->inputs[i] = lab_gen_input_open (o->files[i], error);
      if (!imp->inputs[i]) {
         goto fail;
      }
      if (reopenable (o->files[i])) {
         /* checked now; opened again when its turn comes, so thousands of inputs never hold thousands
          * of descriptors at once */
         lab_gen_input_close (imp->inputs[i]);
         imp->inputs[i] = NULL;
      }
   }
   return imp;

fail:
   lab_gen_import_destroy (imp);
   return NULL;
}

/* lab_gen_import_destroy -- see billgen.h. */
void
lab_gen_import_destroy (lab_gen_import_t *imp)
{
   if (!imp) {
      return;
   }
   for (size_t i = 0; imp->inputs && i < imp->o->nfiles; i++) {
      lab_gen_input_close (imp->inputs[i]);
   }
   bson_free (imp->inputs);
   lab_gen_csv_header_cleanup (&imp->fields);
   bson_free (imp);
}

/* lab_gen_import -- see billgen.h. */
bool
lab_gen_import (lab_store_t *store, const lab_gen_import_opts_t *o, lab_gen_import_stats_t *st,
                bson_error_t *error)
{
   lab_gen_import_t *imp = lab_gen_import_new (o, error);
   bool ok;

   if (!imp) {
      memset (st, 0, sizeof *st);
      st->bills = -1;
      return false;
   }
   ok = lab_gen_import_run (imp, store, st, error);
   lab_gen_import_destroy (imp);
   return ok;
}

/* finish_loading -- every writer finished (each frees itself; the first error kept), then the index on the
 * key (not on a collection layoutlab did not write) and a flush: the import's rows are in. */
static bool
finish_loading (import_t *im, lab_store_t *store, uint64_t t0, bson_error_t *error)
{
   bool finished = true;
   im->loader = NULL;
   for (int k = 0; k < im->nloaders; k++) {
      int64_t n = 0;
      bson_error_t kerr;
      lab_gen_loader_t *l = im->loaders[k];
      im->loaders[k] = NULL;
      if (!lab_gen_loader_finish (l, &n, finished ? error : &kerr)) {
         finished = false;
      }
      im->st->rows_inserted += n;
   }
   if (!finished) {
      return false;
   }
   im->st->load_seconds = (double)(lab_now_ns () - t0) / 1e9;
   bool index = im->key_col >= 0 && !im->o->no_index;
   if (index && !im->owned) {
      /* --append to a collection layoutlab did not write: the rows the user asked for, no index */
      bson_t *mark = NULL;
      bool has = false;
      if (!lab_store_mark_get (im->sess, im->o->coll, &mark, NULL, error) ||
          !lab_store_has_index (im->sess, im->o->coll, im->o->key, &has, error)) {
         return false;
      }
      if (!mark && !has) {
         lab_log_info ("not building the index on '%s' of '%s': layoutlab did not write that collection "
                       "(build it yourself: db.%s.createIndex({%s: 1}))",
                       im->o->key, im->o->coll, im->o->coll, im->o->key);
         index = false;
      }
      bson_destroy (mark);
   }
   if (index) {
      if (!lab_store_create_index (im->sess, im->o->coll, im->o->key, error)) {
         lab_error_prefix (error, "collection '%s': cannot index '%s'", im->o->coll, im->o->key);
         return false;
      }
   }
   return lab_store_flush (store, error);
}

/* lab_gen_import_run -- see billgen.h. */
bool
lab_gen_import_run (lab_gen_import_t *imp, lab_store_t *store, lab_gen_import_stats_t *st,
                    bson_error_t *error)
{
   const lab_gen_import_opts_t *o = imp->o;
   import_t im;
   bool ok = false;
   uint64_t t0 = lab_now_ns ();
   char **names = NULL; /* the inputs' display names: the loader reports refusals with them later */
   bson_error_t rej_err;

   memset (st, 0, sizeof *st);
   memset (&im, 0, sizeof im);
   im.o = o;
   im.st = st;
   im.store = store;
   im.key_col = -1;
   bson_init (&im.scratch);
   lab_buf_init (&im.line);
   st->bills = -1;

   if (imp->used) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISUSE,
                     "an import runs once: its inputs are read");
      goto done;
   }
   imp->used = true;
   names = bson_malloc0 ((o->nfiles + 1) * sizeof *names);
   for (size_t i = 0; i < o->nfiles; i++) {
      names[i] = bson_strdup (imp->inputs[i] ? lab_gen_input_name (imp->inputs[i]) : o->files[i]);
   }
   if (!o->headerline) {
      /* the --fields header, checked by lab_gen_import_new */
      im.header = imp->fields;
      memset (&imp->fields, 0, sizeof imp->fields);
      im.have_header = true;
      if (o->key) {
         im.key_col = lab_gen_csv_header_find (&im.header, o->key);
      }
   }
   if (o->reject_path) {
      im.reject = lab_gen_output_open (o->reject_path, 0, error);
      if (!im.reject) {
         lab_error_prefix (error, "--reject");
         goto done;
      }
   }

   /* the destination is prepared by start_loading, once the header has shown the key */
   im.prog = lab_progress_new (o->progress, o->parse_only ? "parsing" : "importing", "rows", 0);
   for (size_t i = 0; i < o->nfiles; i++) {
      lab_gen_input_t *in = imp->inputs[i] ? imp->inputs[i] : lab_gen_input_open (o->files[i], error);
      imp->inputs[i] = NULL;
      if (!in) {
         goto done;
      }
      im.in = in;
      im.file = names[i];
      bool r = lab_gen_csv_read (in, 0, on_record, &im, NULL, error);
      st->file_bytes += lab_gen_input_raw_bytes (in);
      lab_progress_add (im.prog, (uint64_t)im.pending_rows, st->csv_bytes - im.last_csv);
      im.last_csv = st->csv_bytes;
      im.pending_rows = 0;
      if (!r) {
         goto done;
      }
      if (o->headerline && !im.have_header) {
         lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_NO_HEADER,
                        "%s: empty input: no header line (--headerline)", im.file);
         goto done;
      }
      lab_gen_input_close (in);
      im.in = NULL;
      st->files++;
   }

   /* an input of no rows: the (empty) collection all the same */
   if (!im.started && !start_loading (&im, error)) {
      goto done;
   }
   if (im.nloaders > 0 && !finish_loading (&im, store, t0, error)) {
      goto done;
   }
   if (im.key_col >= 0) {
      st->bills = (int64_t)im.keys.len;
   }
   if (st->load_seconds == 0) {
      st->load_seconds = (double)(lab_now_ns () - t0) / 1e9; /* parse-only */
   }
   ok = true;

done:
   lab_progress_done (im.prog);
   for (int k = 0; k < im.nloaders; k++) {
      if (im.loaders[k]) {
         lab_gen_loader_abort (im.loaders[k]);
      }
   }
   bson_free (im.loaders);
   if (im.in) {
      lab_gen_input_close (im.in);
   }
   if (!ok && im.owned && im.sess) {
      bson_error_t e2;
      if (lab_store_drop (im.sess, o->coll, &e2)) {
         st->dropped_partial = true;
      }
   }
   if (im.reject) {
      /* kept on failure too: it records what was refused, including the row that stopped the import */
      if (!lab_gen_output_commit (im.reject, &rej_err) && ok) {
         *error = rej_err;
         ok = false;
      }
   }
   lab_store_session_close (im.sess);
   if (names) {
      bson_strfreev (names);
   }
   lab_gen_csv_header_cleanup (&im.header);
   bson_free (im.keys.slot);
   bson_destroy (&im.scratch);
   lab_buf_destroy (&im.line);
   st->seconds = (double)(lab_now_ns () - t0) / 1e9;
   return ok;
}
