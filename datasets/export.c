/*
 * export.c -- `billgen export`: a collection, in _id order, as CSV with a typed header, so that
 * `billgen import --headerline --columns-have-types` reproduces the same values with the same types.
 */
#include "datasets/billgen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/keyenc.h"
#include "core/opts.h"
#include "datasets/csvtype.h"
#include "datasets/stream.h"

/* A bson_iter_t slot: libbson aligns the bson_iter_t typedef to 128 bytes without padding its size, so a
 * plain array of them is misaligned; wrapping it in a struct pads each element. */
typedef struct {
   bson_iter_t it;
} iter_slot_t;

typedef struct {
   lab_gen_csv_header_t h;
   iter_slot_t *vals; /* per column: the value in the current document */
   bool *present;
   lab_buf_t line;
   lab_buf_t cell;
} exporter_t;

/* id_text -- the document's _id as short text, for messages. */
static void
id_text (const bson_t *doc, char *buf, size_t len)
{
   bson_iter_t it;
   if (!bson_iter_init_find (&it, doc, "_id")) {
      bson_snprintf (buf, len, "(no _id)");
      return;
   }
   bson_t tmp = BSON_INITIALIZER;
   bson_append_value (&tmp, "_id", 3, bson_iter_value (&it));
   char *j = bson_as_relaxed_extended_json (&tmp, NULL);
   bson_snprintf (buf, len, "%s", j ? j : "?");
   bson_free (j);
   bson_destroy (&tmp);
}

/* learn -- add the fields of a sampled document to the header. */
static bool
learn (exporter_t *x, const char *coll, const bson_t *doc, bson_error_t *error)
{
   bson_iter_t it;
   char idb[128];

   bson_iter_init (&it, doc);
   while (bson_iter_next (&it)) {
      const char *key = bson_iter_key (&it);
      lab_gen_csv_type_t t;
      if (!lab_gen_csv_type_of (bson_iter_type (&it), &t)) {
         id_text (doc, idb, sizeof idb);
         lab_error_set (
            error, LAB_ERROR_CSV, LAB_CSV_ERR_UNSUPPORTED_TYPE,
            "collection '%s', document %s: field '%s' has BSON type 0x%02x, which CSV cannot carry "
            "(export writes flat documents of string, int32, int64, double, boolean, date, decimal and "
            "objectId values)",
            coll, idb, key, (unsigned)bson_iter_type (&it));
         return false;
      }
      ssize_t c = lab_gen_csv_header_find (&x->h, key);
      if (c < 0) {
         if (!lab_gen_csv_header_add (&x->h, key, strlen (key), false, error)) {
            id_text (doc, idb, sizeof idb);
            lab_error_prefix (error, "collection '%s', document %s", coll, idb);
            return false;
         }
         x->h.cols[x->h.n - 1].type = t;
      } else if (x->h.cols[c].type != t) {
         id_text (doc, idb, sizeof idb);
         lab_error_set (
            error, LAB_ERROR_CSV, LAB_CSV_ERR_TYPE_CHANGED,
            "collection '%s', document %s: field '%s' is %s here but %s in earlier documents; a typed "
            "CSV column holds one type",
            coll, idb, key, lab_gen_csv_type_name (t), lab_gen_csv_type_name (x->h.cols[c].type));
         return false;
      }
   }
   return true;
}

/* put_cell -- append one CSV cell, quoted when it must be (strings: empty, or holding , " CR LF). */
static void
put_cell (lab_buf_t *line, const char *s, size_t len, bool is_string)
{
   bool quote = is_string && len == 0;
   for (size_t i = 0; i < len && !quote; i++) {
      char c = s[i];
      quote = c == ',' || c == '"' || c == '\n' || c == '\r';
   }
   if (!quote) {
      lab_buf_append (line, s, len);
      return;
   }
   lab_buf_append (line, "\"", 1);
   const char *p = s, *end = s + len;
   while (p < end) {
      const char *q = memchr (p, '"', (size_t)(end - p));
      if (!q) {
         lab_buf_append (line, p, (size_t)(end - p));
         break;
      }
      lab_buf_append (line, p, (size_t)(q - p) + 1);
      lab_buf_append (line, "\"", 1);
      p = q + 1;
   }
   lab_buf_append (line, "\"", 1);
}

/* write_header -- "name.type(),..." */
static void
write_header (exporter_t *x)
{
   lab_buf_reset (&x->line);
   for (size_t i = 0; i < x->h.n; i++) {
      char *cell =
         bson_strdup_printf ("%s.%s()", x->h.cols[i].name, lab_gen_csv_type_name (x->h.cols[i].type));
      if (i) {
         lab_buf_append (&x->line, ",", 1);
      }
      put_cell (&x->line, cell, strlen (cell), false);
      bson_free (cell);
   }
   lab_buf_append (&x->line, "\n", 1);
}

/* write_doc -- one document as a CSV line into x->line. */
static bool
write_doc (exporter_t *x, const char *coll, const bson_t *doc, bson_error_t *error)
{
   bson_iter_t it;
   char idb[128];
   char why[256];
   size_t expect = 0;

   memset (x->present, 0, x->h.n * sizeof *x->present);
   bson_iter_init (&it, doc);
   while (bson_iter_next (&it)) {
      const char *key = bson_iter_key (&it);
      size_t c;
      /* documents usually list their fields in header order: try the next column first */
      if (expect < x->h.n && strcmp (x->h.cols[expect].name, key) == 0) {
         c = expect;
      } else {
         ssize_t f = lab_gen_csv_header_find (&x->h, key);
         if (f < 0) {
            id_text (doc, idb, sizeof idb);
            lab_error_set (
               error, LAB_ERROR_CSV, LAB_CSV_ERR_UNKNOWN_FIELD,
               "collection '%s', document %s: field '%s' did not occur in the first documents sampled "
               "for the header (raise --sample)",
               coll, idb, key);
            return false;
         }
         c = (size_t)f;
      }
      lab_gen_csv_type_t t;
      if (!lab_gen_csv_type_of (bson_iter_type (&it), &t) || t != x->h.cols[c].type) {
         id_text (doc, idb, sizeof idb);
         if (lab_gen_csv_type_of (bson_iter_type (&it), &t)) {
            lab_error_set (
               error, LAB_ERROR_CSV, LAB_CSV_ERR_TYPE_CHANGED,
               "collection '%s', document %s: field '%s' is %s here but %s in the header (fixed from "
               "the first documents; a typed CSV column holds one type)",
               coll, idb, key, lab_gen_csv_type_name (t), lab_gen_csv_type_name (x->h.cols[c].type));
         } else {
            lab_error_set (
               error, LAB_ERROR_CSV, LAB_CSV_ERR_UNSUPPORTED_TYPE,
               "collection '%s', document %s: field '%s' has BSON type 0x%02x, which CSV cannot carry "
               "(export writes flat documents of string, int32, int64, double, boolean, date, decimal "
               "and objectId values)",
               coll, idb, key, (unsigned)bson_iter_type (&it));
         }
         return false;
      }
      x->vals[c].it = it;
      x->present[c] = true;
      expect = c + 1;
   }
   lab_buf_reset (&x->line);
   for (size_t c = 0; c < x->h.n; c++) {
      if (c) {
         lab_buf_append (&x->line, ",", 1);
      }
      if (!x->present[c]) {
         continue; /* empty unquoted: the field is absent */
      }
      lab_buf_reset (&x->cell);
      if (!lab_gen_csv_format_value (&x->vals[c].it, x->h.cols[c].type, &x->cell, why, sizeof why)) {
         id_text (doc, idb, sizeof idb);
         lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_VALUE,
                        "collection '%s', document %s: field '%s': %s", coll, idb, x->h.cols[c].name, why);
         return false;
      }
      put_cell (&x->line, (const char *)x->cell.data, x->cell.len, x->h.cols[c].type == LAB_CSV_STRING);
   }
   lab_buf_append (&x->line, "\n", 1);
   return true;
}

/* learn_sample -- read up to `want` documents of the cursor into sample (*more false when the collection
 * ended there), learning the header's columns from them in first-seen order; an empty collection has no
 * header and is refused. */
static bool
learn_sample (exporter_t *x, lab_store_cursor_t *cur, const char *coll, int64_t want, bson_t **sample,
              int64_t *nsample, bool *more, bson_error_t *error)
{
   while (*nsample < want) {
      const bson_t *doc;
      int r = lab_store_cursor_next (cur, &doc, error);
      if (r < 0) {
         lab_error_prefix (error, "collection '%s'", coll);
         return false;
      }
      if (r == 0) {
         *more = false;
         break;
      }
      if (!learn (x, coll, doc, error)) {
         return false;
      }
      sample[(*nsample)++] = bson_copy (doc);
   }
   if (x->h.n == 0) {
      lab_error_set (
         error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
         "collection '%s' is empty: nothing to export (a CSV needs at least one document for its header)",
         coll);
      return false;
   }
   /* iter_slot_t is 128-byte aligned: so must its array be */
   if (posix_memalign ((void **)&x->vals, 128, x->h.n * sizeof *x->vals) != 0) {
      lab_error_set (error, LAB_ERROR_IO, ENOMEM, "out of memory for %zu columns", x->h.n);
      return false;
   }
   x->present = bson_malloc0 (x->h.n * sizeof *x->present);
   return true;
}

/* lab_gen_export -- see billgen.h. */
bool
lab_gen_export (lab_store_t *store, const lab_gen_export_opts_t *o, lab_gen_export_stats_t *st,
                bson_error_t *error)
{
   exporter_t x;
   lab_store_session_t *sess = NULL;
   lab_store_cursor_t *cur = NULL;
   lab_gen_output_t *out = NULL;
   lab_progress_t *prog = NULL;
   bson_t **sample = NULL;
   int64_t nsample = 0, total = 0;
   bool ok = false, exists = false, more = true; /* more: the stream has not ended in the sample */
   uint64_t t0 = lab_now_ns ();
   int64_t pending = 0;
   uint64_t pending_bytes = 0;

   memset (st, 0, sizeof *st);
   memset (&x, 0, sizeof x);
   lab_buf_init (&x.line);
   lab_buf_init (&x.cell);

   sess = lab_store_session_open (store, error);
   if (!sess) {
      goto done;
   }
   if (!lab_store_exists (sess, o->coll, &exists, error)) {
      goto done;
   }
   if (!exists) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                     "collection '%s' does not exist in %s", o->coll, lab_store_uri_redacted (store));
      goto done;
   }
   {
      bson_error_t cerr;
      if (!lab_store_count (sess, o->coll, &total, &cerr)) {
         total = 0; /* only the progress bar uses it */
      }
   }
   cur = lab_store_sorted_open (sess, o->coll, "_id", NULL, error);
   if (!cur) {
      lab_error_prefix (error, "collection '%s'", o->coll);
      goto done;
   }

   /* the header: fields of the first documents, in first-seen order */
   int64_t want = o->sample > 0 ? o->sample : 1000;
   sample = bson_malloc0 ((size_t)want * sizeof *sample);
   if (!learn_sample (&x, cur, o->coll, want, sample, &nsample, &more, error)) {
      goto done;
   }
   st->columns = (int64_t)x.h.n;

   out = lab_gen_output_open (o->out, o->zstd_level, error);
   if (!out) {
      goto done;
   }
   prog = lab_progress_new (o->progress, "exporting", "rows", total > 0 ? (uint64_t)total : 0);
   write_header (&x);
   st->csv_bytes += x.line.len;
   if (!lab_gen_output_write (out, x.line.data, x.line.len, error)) {
      goto done;
   }
   for (int64_t i = 0;; i++) {
      const bson_t *doc;
      if (i < nsample) {
         doc = sample[i];
      } else if (!more) {
         break; /* the sample read the whole collection */
      } else {
         int r = lab_store_cursor_next (cur, &doc, error);
         if (r < 0) {
            lab_error_prefix (error, "collection '%s'", o->coll);
            goto done;
         }
         if (r == 0) {
            break;
         }
      }
      if (!write_doc (&x, o->coll, doc, error)) {
         goto done;
      }
      st->rows++;
      st->csv_bytes += x.line.len;
      if (!lab_gen_output_write (out, x.line.data, x.line.len, error)) {
         goto done;
      }
      pending++;
      pending_bytes += x.line.len;
      if (pending == 4096) {
         lab_progress_add (prog, (uint64_t)pending, pending_bytes);
         pending = 0;
         pending_bytes = 0;
      }
   }
   lab_progress_add (prog, (uint64_t)pending, pending_bytes);
   st->file_bytes = lab_gen_output_bytes (out);
   {
      lab_gen_output_t *o2 = out;
      out = NULL;
      if (!lab_gen_output_commit (o2, error)) {
         goto done;
      }
   }
   ok = true;

done:
   lab_progress_done (prog);
   lab_gen_output_abort (out);
   lab_store_cursor_close (cur);
   lab_store_session_close (sess);
   for (int64_t i = 0; i < nsample; i++) {
      bson_destroy (sample[i]);
   }
   bson_free (sample);
   free (x.vals);
   bson_free (x.present);
   lab_gen_csv_header_cleanup (&x.h);
   lab_buf_destroy (&x.line);
   lab_buf_destroy (&x.cell);
   st->seconds = (double)(lab_now_ns () - t0) / 1e9;
   return ok;
}
