/*
 * csvin.c -- streaming CSV records with positions (see csvin.h).
 *
 * Why a record splitter in front of libcsv: libcsv's callbacks carry no positions, and a reject file
 * needs each refused row verbatim. The splitter finds record boundaries with the same quoting rules
 * libcsv applies in strict mode (a quote opens quoting only at the start of a field; "" inside quotes is
 * a literal quote), then each record is handed to libcsv alone, so libcsv's stop offset on a strict-mode
 * error is a byte offset within the record.
 */
#include "datasets/csvin.h"

#include <csv.h>
#include <string.h>

#include "core/error.h"

#define CSV_OPTS (CSV_STRICT | CSV_STRICT_FINI | CSV_EMPTY_IS_NULL)
#define DEFAULT_MAX_RECORD (256u << 20)
#define CHUNK (1u << 20)

typedef enum { S_FIELD_START, S_UNQUOTED, S_QUOTED, S_QUOTE_IN_QUOTED } split_state_t;

typedef struct {
   /* fields of the record being parsed, copied out of libcsv's reused buffer */
   char *arena;
   size_t arena_len, arena_cap;
   size_t *off; /* offset in arena, or SIZE_MAX for NULL */
   size_t *len;
   size_t nfields, cap;
   int rows;
   lab_gen_csv_field_t *fields;
   size_t fields_cap;
} parse_ctx_t;

/* no_space -- fields are not trimmed: libcsv's default trims spaces and tabs. */
static int
no_space (unsigned char c)
{
   (void)c;
   return 0;
}

static void
parser_init (struct csv_parser *p)
{
   csv_init (p, CSV_OPTS);
   csv_set_space_func (p, no_space);
}

/* on_field -- libcsv field callback: copy the field (libcsv reuses its buffer). */
static void
on_field (void *s, size_t len, void *data)
{
   parse_ctx_t *c = data;
   if (c->nfields == c->cap) {
      c->cap = c->cap ? c->cap * 2 : 32;
      c->off = bson_realloc (c->off, c->cap * sizeof *c->off);
      c->len = bson_realloc (c->len, c->cap * sizeof *c->len);
   }
   if (!s) {
      c->off[c->nfields] = SIZE_MAX;
      c->len[c->nfields] = 0;
   } else {
      if (c->arena_len + len + 1 > c->arena_cap) {
         while (c->arena_len + len + 1 > c->arena_cap) {
            c->arena_cap = c->arena_cap ? c->arena_cap * 2 : 4096;
         }
         c->arena = bson_realloc (c->arena, c->arena_cap);
      }
      memcpy (c->arena + c->arena_len, s, len);
      c->off[c->nfields] = c->arena_len;
      c->len[c->nfields] = len;
      c->arena_len += len;
      c->arena[c->arena_len++] = '\0';
   }
   c->nfields++;
}

/* on_row -- libcsv end-of-row callback. */
static void
on_row (int term, void *data)
{
   (void)term;
   ((parse_ctx_t *)data)->rows++;
}

/* split -- find the end of the record starting at p: returns true with *rec_len (terminator included)
 * and *breaks (line breaks inside, the terminator's included); false when more input is needed. At end of
 * input a non-empty remainder is a record without terminator. */
static bool
split (const char *p, size_t n, bool eof, size_t *rec_len, int64_t *breaks, bool *terminated)
{
   split_state_t st = S_FIELD_START;
   int64_t br = 0;
   bool prev_cr = false;

   for (size_t i = 0; i < n; i++) {
      char c = p[i];
      if (st == S_QUOTE_IN_QUOTED) {
         if (c == '"') {
            st = S_QUOTED;
            prev_cr = false;
            continue;
         }
         st = S_UNQUOTED; /* quoting closed; this character is read as outside quotes */
      }
      if (st == S_QUOTED) {
         if (c == '"') {
            st = S_QUOTE_IN_QUOTED;
         } else if (c == '\r') {
            br++;
         } else if (c == '\n' && !prev_cr) {
            br++;
         }
         prev_cr = c == '\r';
         continue;
      }
      if (c == '\r' || c == '\n') {
         size_t end = i + 1;
         br++;
         if (c == '\r') {
            if (i + 1 < n) {
               if (p[i + 1] == '\n') {
                  end++;
               }
            } else if (!eof) {
               return false; /* a LF may follow */
            }
         }
         *rec_len = end;
         *breaks = br;
         *terminated = true;
         return true;
      }
      prev_cr = false;
      if (c == ',') {
         st = S_FIELD_START;
      } else if (st == S_FIELD_START) {
         st = c == '"' ? S_QUOTED : S_UNQUOTED;
      }
   }
   if (eof && n > 0) {
      *rec_len = n;
      *breaks = br;
      *terminated = false; /* the input ends inside this record (perhaps inside quotes) */
      return true;
   }
   return false;
}

/* field_start -- raw offset where field `field` starts (raw_len when there are fewer fields). */
static size_t
field_start (const char *raw, size_t raw_len, size_t field)
{
   split_state_t st = S_FIELD_START;
   size_t k = 0;
   if (field == 0) {
      return 0;
   }
   for (size_t i = 0; i < raw_len; i++) {
      char c = raw[i];
      if (st == S_QUOTE_IN_QUOTED) {
         if (c == '"') {
            st = S_QUOTED;
            continue;
         }
         st = S_UNQUOTED;
      }
      if (st == S_QUOTED) {
         if (c == '"') {
            st = S_QUOTE_IN_QUOTED;
         }
         continue;
      }
      if (c == ',') {
         if (++k == field) {
            return i + 1;
         }
         st = S_FIELD_START;
      } else if (c == '\r' || c == '\n') {
         return i;
      } else if (st == S_FIELD_START) {
         st = c == '"' ? S_QUOTED : S_UNQUOTED;
      }
   }
   return raw_len;
}

size_t
lab_gen_csv_field_raw_offset (const lab_gen_csv_record_t *rec, size_t field, size_t off)
{
   size_t start = field_start (rec->raw, rec->raw_len, field);
   if (start >= rec->raw_len || rec->raw[start] != '"') {
      return BSON_MIN (start + off, rec->raw_len);
   }
   size_t pos = start + 1;
   while (off > 0 && pos < rec->raw_len) {
      if (rec->raw[pos] == '"' && pos + 1 < rec->raw_len && rec->raw[pos + 1] == '"') {
         pos += 2;
      } else {
         pos++;
      }
      off--;
   }
   return pos;
}

void
lab_gen_csv_locate (const lab_gen_csv_record_t *rec, size_t raw_off, int64_t *line, int64_t *col)
{
   int64_t l = rec->line;
   size_t line_start = 0;
   if (raw_off > rec->raw_len) {
      raw_off = rec->raw_len;
   }
   for (size_t i = 0; i < raw_off; i++) {
      char c = rec->raw[i];
      if (c == '\r' || (c == '\n' && !(i > 0 && rec->raw[i - 1] == '\r'))) {
         l++;
         line_start = i + 1;
      } else if (c == '\n') {
         line_start = i + 1; /* the LF of a CRLF */
      }
   }
   *line = l;
   *col = (int64_t)(raw_off - line_start) + 1;
}

/* deliver -- parse one record with libcsv and hand it to the callback. */
static bool
deliver (struct csv_parser *p, parse_ctx_t *c, lab_gen_csv_record_t *rec, bool terminated,
         lab_gen_csv_record_cb_t cb, void *ctx, bson_error_t *error)
{
   c->arena_len = 0;
   c->nfields = 0;
   c->rows = 0;
   rec->parse_error = NULL;
   rec->error_off = 0;

   size_t got = csv_parse (p, rec->raw, rec->raw_len, on_field, on_row, c);
   if (got < rec->raw_len) {
      rec->error_off = got;
      rec->parse_error = rec->raw[got] == '"'
                            ? "a quote inside an unquoted field (quote the whole field and "
                              "double the quote: \"a\"\"b\")"
                            : "unexpected character after a closing quote (expected a comma "
                              "or the end of the line)";
      csv_free (p);
      parser_init (p);
   } else if (!terminated) {
      if (csv_fini (p, on_field, on_row, c) != 0) {
         rec->parse_error = "unterminated quoted field: the input ends inside quotes";
         rec->error_off = field_start (rec->raw, rec->raw_len, c->nfields);
         csv_free (p);
         parser_init (p);
      }
   }
   if (!rec->parse_error && c->rows == 0) {
      return true; /* nothing but a terminator */
   }
   if (!rec->parse_error && c->rows != 1) {
      lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_RECORD,
                     "%s:%" PRId64 ": internal error: record holds %d rows", rec->file, rec->line, c->rows);
      return false;
   }
   if (c->fields_cap < c->nfields) {
      c->fields_cap = c->nfields;
      c->fields = bson_realloc (c->fields, c->fields_cap * sizeof *c->fields);
   }
   for (size_t i = 0; i < c->nfields; i++) {
      c->fields[i].data = c->off[i] == SIZE_MAX ? NULL : c->arena + c->off[i];
      c->fields[i].len = c->len[i];
   }
   rec->nfields = rec->parse_error ? 0 : c->nfields;
   rec->fields = c->fields;
   rec->number++;
   return cb (rec, ctx, error);
}

bool
lab_gen_csv_read (lab_gen_input_t *in, size_t max_record_bytes, lab_gen_csv_record_cb_t cb, void *ctx,
                  int64_t *lines, bson_error_t *error)
{
   struct csv_parser p;
   parse_ctx_t c;
   lab_gen_csv_record_t rec;
   size_t cap = CHUNK, start = 0, end = 0;
   char *buf = bson_malloc (cap);
   bool eof = false, first = true, ok = false, open_tail = false;
   int64_t line = 1;

   if (max_record_bytes == 0) {
      max_record_bytes = DEFAULT_MAX_RECORD;
   }
   memset (&c, 0, sizeof c);
   memset (&rec, 0, sizeof rec);
   rec.file = lab_gen_input_name (in);
   parser_init (&p);

   for (;;) {
      /* fill: keep the partial record, read more */
      if (start > 0) {
         memmove (buf, buf + start, end - start);
         end -= start;
         start = 0;
      }
      if (end == cap) {
         if (cap >= max_record_bytes) {
            lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_RECORD,
                           "%s:%" PRId64
                           ": record is longer than %zu bytes (an opening quote without its closing "
                           "quote?)",
                           rec.file, line, max_record_bytes);
            goto done;
         }
         cap = BSON_MIN (cap * 2, max_record_bytes);
         buf = bson_realloc (buf, cap);
      }
      ssize_t n = lab_gen_input_read (in, buf + end, cap - end, error);
      if (n < 0) {
         goto done;
      }
      if (n == 0) {
         eof = true;
      }
      end += (size_t)n;
      if (first) {
         if (end < 3 && !eof) {
            continue;
         }
         first = false;
         if (end >= 3 && memcmp (buf, "\xEF\xBB\xBF", 3) == 0) {
            start = 3;
         }
      }
      /* cut records */
      for (;;) {
         size_t rec_len;
         int64_t breaks;
         bool terminated;
         if (start == end || !split (buf + start, end - start, eof, &rec_len, &breaks, &terminated)) {
            break;
         }
         rec.line = line;
         rec.raw = buf + start;
         rec.raw_len = rec_len;
         bool blank =
            (rec_len == 1 && terminated) || (rec_len == 2 && buf[start] == '\r' && buf[start + 1] == '\n');
         if (!blank && !deliver (&p, &c, &rec, terminated, cb, ctx, error)) {
            goto done;
         }
         line += breaks;
         start += rec_len;
         open_tail = !terminated;
      }
      if (eof) {
         break;
      }
   }
   ok = true;

done:
   if (lines) {
      *lines = line - 1 + (open_tail ? 1 : 0);
   }
   csv_free (&p);
   bson_free (c.arena);
   bson_free (c.off);
   bson_free (c.len);
   bson_free (c.fields);
   bson_free (buf);
   return ok;
}
