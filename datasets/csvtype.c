/*
 * csvtype.c -- typed CSV columns: header cells, field conversion and value formatting (see csvtype.h).
 */
#include "datasets/csvtype.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"

static const char *const TYPE_NAMES[] = {
   "auto", "string", "int32", "int64", "double", "boolean", "date", "decimal", "objectid",
};
#define N_TYPES (sizeof TYPE_NAMES / sizeof TYPE_NAMES[0])

const char *
lab_gen_csv_type_name (lab_gen_csv_type_t t)
{
   return (unsigned)t < N_TYPES ? TYPE_NAMES[t] : "?";
}

bool
lab_gen_csv_type_parse (const char *s, size_t len, lab_gen_csv_type_t *out)
{
   for (size_t i = 0; i < N_TYPES; i++) {
      if (strlen (TYPE_NAMES[i]) == len && memcmp (TYPE_NAMES[i], s, len) == 0) {
         *out = (lab_gen_csv_type_t)i;
         return true;
      }
   }
   return false;
}

bool
lab_gen_utf8_check (const char *str, size_t len, size_t *bad_off)
{
   const unsigned char *s = (const unsigned char *)str;
   size_t i = 0;

   while (i < len) {
      unsigned char c = s[i];
      if (c < 0x80) {
         if (c == 0) {
            goto bad;
         }
         i++;
         continue;
      }
      size_t n;
      uint32_t cp;
      if (c >= 0xC2 && c <= 0xDF) {
         n = 2;
         cp = c & 0x1F;
      } else if (c >= 0xE0 && c <= 0xEF) {
         n = 3;
         cp = c & 0x0F;
      } else if (c >= 0xF0 && c <= 0xF4) {
         n = 4;
         cp = c & 0x07;
      } else {
         goto bad;
      }
      if (i + n > len) {
         goto bad;
      }
      for (size_t k = 1; k < n; k++) {
         if ((s[i + k] & 0xC0) != 0x80) {
            goto bad;
         }
         cp = (cp << 6) | (s[i + k] & 0x3F);
      }
      if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
          (cp >= 0xD800 && cp <= 0xDFFF)) {
         goto bad;
      }
      i += n;
   }
   return true;

bad:
   if (bad_off) {
      *bad_off = i;
   }
   return false;
}

/* name_check -- a usable top-level field name. */
static bool
name_check (const char *name, size_t len, size_t cell, bool typed, bson_error_t *error)
{
   size_t bad;
   if (len == 0) {
      lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER, "header field %zu: empty field name",
                     cell);
      return false;
   }
   if (!lab_gen_utf8_check (name, len, &bad)) {
      lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER,
                     "header field %zu: invalid UTF-8 or NUL byte at byte %zu of the name", cell, bad + 1);
      return false;
   }
   if (name[0] == '$') {
      lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER,
                     "header field %zu: field name '%.*s' starts with '$'", cell, (int)len, name);
      return false;
   }
   if (memchr (name, '.', len)) {
      lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER,
                     "header field %zu: field name '%.*s' contains '.'; nested fields are not supported%s",
                     cell, (int)len, name,
                     typed ? "" : " (if the header carries types as name.type(), add --columns-have-types)");
      return false;
   }
   return true;
}

bool
lab_gen_csv_header_add (lab_gen_csv_header_t *h, const char *cell, size_t len, bool typed,
                        bson_error_t *error)
{
   size_t idx = h->n + 1;
   size_t name_len = len;
   lab_gen_csv_type_t type = LAB_CSV_AUTO;

   if (typed) {
      /* name.type() -- the type is after the last '.' */
      const char *dot = NULL;
      for (size_t i = len; i > 0; i--) {
         if (cell[i - 1] == '.') {
            dot = cell + i - 1;
            break;
         }
      }
      if (!dot) {
         lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER,
                        "header field %zu: '%.*s' has no type; with --columns-have-types every field is "
                        "name.type(), e.g. qty.double()",
                        idx, (int)len, cell);
         return false;
      }
      const char *t = dot + 1;
      size_t tlen = len - (size_t)(t - cell);
      const char *paren = memchr (t, '(', tlen);
      if (!paren || tlen < 2 || t[tlen - 1] != ')') {
         lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER,
                        "header field %zu: '%.*s': the type must be written as type(), e.g. %.*s()", idx,
                        (int)len, cell, (int)(paren ? (size_t)(paren - t) : tlen), t);
         return false;
      }
      size_t base = (size_t)(paren - t);
      if (!lab_gen_csv_type_parse (t, base, &type)) {
         lab_error_set (
            error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER,
            "header field %zu: unknown type '%.*s' (known: auto, string, int32, int64, double, boolean, "
            "date, decimal, objectid)",
            idx, (int)base, t);
         return false;
      }
      if (paren + 1 != t + tlen - 1) {
         lab_error_set (
            error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER,
            "header field %zu: '%.*s': arguments are not supported (%s() takes none; dates are RFC 3339)",
            idx, (int)len, cell, lab_gen_csv_type_name (type));
         return false;
      }
      name_len = (size_t)(dot - cell);
   }
   if (!name_check (cell, name_len, idx, typed, error)) {
      return false;
   }
   for (size_t i = 0; i < h->n; i++) {
      if (strlen (h->cols[i].name) == name_len && memcmp (h->cols[i].name, cell, name_len) == 0) {
         lab_error_set (error, LAB_ERROR_CSV, LAB_CSV_ERR_BAD_HEADER,
                        "header field %zu: duplicate field name '%.*s' (also field %zu)", idx, (int)name_len,
                        cell, i + 1);
         return false;
      }
   }
   h->cols = bson_realloc (h->cols, (h->n + 1) * sizeof *h->cols);
   /* the cell is not NUL-terminated: copy exactly name_len bytes */
   h->cols[h->n].name = bson_malloc (name_len + 1);
   memcpy (h->cols[h->n].name, cell, name_len);
   h->cols[h->n].name[name_len] = '\0';
   h->cols[h->n].type = type;
   h->n++;
   return true;
}

bool
lab_gen_csv_header_from_list (lab_gen_csv_header_t *h, const char *list, bool typed, bson_error_t *error)
{
   const char *p = list;
   for (;;) {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t)(comma - p) : strlen (p);
      if (!lab_gen_csv_header_add (h, p, len, typed, error)) {
         lab_error_prefix (error, "--fields");
         return false;
      }
      if (!comma) {
         break;
      }
      p = comma + 1;
   }
   return true;
}

ssize_t
lab_gen_csv_header_find (const lab_gen_csv_header_t *h, const char *name)
{
   for (size_t i = 0; i < h->n; i++) {
      if (strcmp (h->cols[i].name, name) == 0) {
         return (ssize_t)i;
      }
   }
   return -1;
}

bool
lab_gen_csv_header_equal (const lab_gen_csv_header_t *a, const lab_gen_csv_header_t *b)
{
   if (a->n != b->n) {
      return false;
   }
   for (size_t i = 0; i < a->n; i++) {
      if (a->cols[i].type != b->cols[i].type || strcmp (a->cols[i].name, b->cols[i].name) != 0) {
         return false;
      }
   }
   return true;
}

void
lab_gen_csv_header_cleanup (lab_gen_csv_header_t *h)
{
   for (size_t i = 0; i < h->n; i++) {
      bson_free (h->cols[i].name);
   }
   bson_free (h->cols);
   h->cols = NULL;
   h->n = 0;
}

/* ---- dates ------------------------------------------------------------------------------------- */

/* days_from_civil -- days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm). */
static int64_t
days_from_civil (int64_t y, unsigned m, unsigned d)
{
   y -= m <= 2;
   int64_t era = (y >= 0 ? y : y - 399) / 400;
   unsigned yoe = (unsigned)(y - era * 400);
   unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
   unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
   return era * 146097 + (int64_t)doe - 719468;
}

/* civil_from_days -- the inverse of days_from_civil. */
static void
civil_from_days (int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
   z += 719468;
   int64_t era = (z >= 0 ? z : z - 146096) / 146097;
   unsigned doe = (unsigned)(z - era * 146097);
   unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
   unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
   unsigned mp = (5 * doy + 2) / 153;
   *d = doy - (153 * mp + 2) / 5 + 1;
   *m = mp < 10 ? mp + 3 : mp - 9;
   *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

/* digits -- parse exactly n ASCII digits at s. */
static bool
digits (const char *s, size_t n, int *out)
{
   int v = 0;
   for (size_t i = 0; i < n; i++) {
      if (s[i] < '0' || s[i] > '9') {
         return false;
      }
      v = v * 10 + (s[i] - '0');
   }
   *out = v;
   return true;
}

bool
lab_gen_csv_parse_date (const char *s, size_t len, int64_t *ms)
{
   int y, mo, d, h = 0, mi = 0, sec = 0, frac_ms = 0, off_min = 0;
   size_t i;
   static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

   if (len < 10 || !digits (s, 4, &y) || s[4] != '-' || !digits (s + 5, 2, &mo) || s[7] != '-' ||
       !digits (s + 8, 2, &d)) {
      return false;
   }
   if (mo < 1 || mo > 12) {
      return false;
   }
   bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
   if (d < 1 || d > mdays[mo - 1] + (mo == 2 && leap)) {
      return false;
   }
   i = 10;
   if (i < len) {
      if (!(s[i] == 'T' || s[i] == 't' || s[i] == ' ')) {
         return false;
      }
      i++;
      if (len < i + 8 || !digits (s + i, 2, &h) || s[i + 2] != ':' || !digits (s + i + 3, 2, &mi) ||
          s[i + 5] != ':' || !digits (s + i + 6, 2, &sec)) {
         return false;
      }
      if (h > 23 || mi > 59 || sec > 60) {
         return false;
      }
      i += 8;
      if (i < len && s[i] == '.') {
         i++;
         size_t start = i;
         int scale = 100;
         while (i < len && s[i] >= '0' && s[i] <= '9') {
            frac_ms += (s[i] - '0') * scale;
            scale /= 10;
            i++;
         }
         if (i == start) {
            return false;
         }
      }
      if (i >= len) {
         return false; /* RFC 3339 requires the offset */
      }
      if (s[i] == 'Z' || s[i] == 'z') {
         i++;
      } else if (s[i] == '+' || s[i] == '-') {
         int oh, om;
         if (len < i + 6 || !digits (s + i + 1, 2, &oh) || s[i + 3] != ':' || !digits (s + i + 4, 2, &om) ||
             oh > 23 || om > 59) {
            return false;
         }
         off_min = (oh * 60 + om) * (s[i] == '-' ? -1 : 1);
         i += 6;
      } else {
         return false;
      }
      if (i != len) {
         return false;
      }
   }
   int64_t days = days_from_civil (y, (unsigned)mo, (unsigned)d);
   *ms = ((days * 86400 + h * 3600 + mi * 60 + sec) - (int64_t)off_min * 60) * 1000 + frac_ms;
   return true;
}

bool
lab_gen_csv_format_date (int64_t ms, char *buf, size_t len)
{
   int64_t secs = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
   int64_t rem_ms = ms - secs * 1000;
   int64_t days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
   int64_t sod = secs - days * 86400;
   int64_t y;
   unsigned m, d;

   civil_from_days (days, &y, &m, &d);
   if (y < 0 || y > 9999) {
      return false;
   }
   if (rem_ms) {
      bson_snprintf (buf, len, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", (int)y, m, d, (int)(sod / 3600),
                     (int)(sod / 60 % 60), (int)(sod % 60), (int)rem_ms);
   } else {
      bson_snprintf (buf, len, "%04d-%02u-%02uT%02d:%02d:%02dZ", (int)y, m, d, (int)(sod / 3600),
                     (int)(sod / 60 % 60), (int)(sod % 60));
   }
   return true;
}

/* ---- conversion -------------------------------------------------------------------------------- */

/* parse_int64 -- a decimal integer filling the whole text (optional sign, no spaces). */
static bool
parse_int64 (const char *s, size_t len, int64_t *out)
{
   char buf[32];
   char *end;

   if (len == 0 || len >= sizeof buf) {
      return false;
   }
   size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
   if (i == len) {
      return false;
   }
   for (size_t k = i; k < len; k++) {
      if (s[k] < '0' || s[k] > '9') {
         return false;
      }
   }
   memcpy (buf, s, len);
   buf[len] = '\0';
   errno = 0;
   long long v = strtoll (buf, &end, 10);
   if (errno || *end) {
      return false;
   }
   *out = (int64_t)v;
   return true;
}

/* parse_double -- strtod over the whole text (no leading space); `plain` admits only decimal syntax
 * (digits, sign, '.', exponent), which auto uses so that words like "Nan" stay strings. */
static bool
parse_double (const char *s, size_t len, bool plain, double *out)
{
   char sbuf[64];
   char *buf = sbuf;
   char *end;
   bool ok = false;

   if (len == 0 || s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '\r' || s[0] == '\f' ||
       s[0] == '\v') {
      return false;
   }
   if (plain) {
      bool digit = false;
      for (size_t k = 0; k < len; k++) {
         char c = s[k];
         if (c >= '0' && c <= '9') {
            digit = true;
         } else if (!(c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E')) {
            return false;
         }
      }
      if (!digit) {
         return false;
      }
   }
   if (len >= sizeof sbuf) {
      buf = bson_malloc (len + 1);
   }
   memcpy (buf, s, len);
   buf[len] = '\0';
   errno = 0;
   double v = strtod (buf, &end);
   /* ERANGE on underflow still gives the nearest value; on overflow it gives inf, which we refuse. */
   if (*end == '\0' && end != buf && !(errno == ERANGE && isinf (v))) {
      *out = v;
      ok = true;
   }
   if (buf != sbuf) {
      bson_free (buf);
   }
   return ok;
}

/* parse_bool -- Go's strconv.ParseBool, which mongoimport uses. */
static bool
parse_bool (const char *s, size_t len, bool *out)
{
   static const char *const t[] = { "1", "t", "T", "TRUE", "true", "True" };
   static const char *const f[] = { "0", "f", "F", "FALSE", "false", "False" };
   for (size_t i = 0; i < 6; i++) {
      if (strlen (t[i]) == len && memcmp (t[i], s, len) == 0) {
         *out = true;
         return true;
      }
      if (strlen (f[i]) == len && memcmp (f[i], s, len) == 0) {
         *out = false;
         return true;
      }
   }
   return false;
}

/* excerpt -- a short, printable excerpt of a bad value for messages (control bytes shown as '?',
 * cut after 40 bytes at a character boundary). */
static void
excerpt (const char *s, size_t len, char *out, size_t out_len)
{
   size_t n = 0;
   size_t limit = len > 40 ? 40 : len;
   if (limit + 4 > out_len) {
      limit = out_len - 4;
   }
   if (limit < len) {
      while (limit > 0 && ((unsigned char)s[limit] & 0xC0) == 0x80) {
         limit--; /* do not cut a UTF-8 sequence */
      }
   }
   for (size_t i = 0; i < limit; i++) {
      unsigned char c = (unsigned char)s[i];
      out[n++] = (c < 0x20 || c == 0x7F) ? '?' : (char)c;
   }
   if (limit < len) {
      out[n++] = '.';
      out[n++] = '.';
      out[n++] = '.';
   }
   out[n] = '\0';
}

bool
lab_gen_csv_convert (const lab_gen_csv_column_t *col, const char *data, size_t len, bson_t *doc,
                     bool *appended, char *why, size_t why_len, size_t *bad_off)
{
   char ex[64];
   int64_t i64;
   double dbl;
   bool b;
   size_t bad = 0;
   const char *name = col->name;

   *appended = false;
   *bad_off = 0;
   if (!data) {
      return true; /* empty unquoted field: left out */
   }
   if (len == 0 && col->type != LAB_CSV_STRING && col->type != LAB_CSV_AUTO) {
      bson_snprintf (why, why_len,
                     "empty quoted value (\"\") is not a valid %s (leave the field empty, unquoted, "
                     "to omit it)",
                     lab_gen_csv_type_name (col->type));
      return false;
   }
   switch (col->type) {
   case LAB_CSV_AUTO:
      if (len > 0 && parse_int64 (data, len, &i64)) {
         if (i64 >= INT32_MIN && i64 <= INT32_MAX) {
            bson_append_int32 (doc, name, -1, (int32_t)i64);
         } else {
            bson_append_int64 (doc, name, -1, i64);
         }
         break;
      }
      if (len > 0 && parse_double (data, len, true, &dbl)) {
         bson_append_double (doc, name, -1, dbl);
         break;
      }
      /* a string */
      /* fall through */
   case LAB_CSV_STRING:
      if (!lab_gen_utf8_check (data, len, &bad)) {
         *bad_off = bad;
         bson_snprintf (why, why_len, "invalid UTF-8 or NUL byte (0x%02x) in a %s value",
                        (unsigned char)data[bad], lab_gen_csv_type_name (col->type));
         return false;
      }
      bson_append_utf8 (doc, name, -1, data, (int)len);
      break;
   case LAB_CSV_INT32:
      if (!parse_int64 (data, len, &i64) || i64 < INT32_MIN || i64 > INT32_MAX) {
         goto bad_value;
      }
      bson_append_int32 (doc, name, -1, (int32_t)i64);
      break;
   case LAB_CSV_INT64:
      if (!parse_int64 (data, len, &i64)) {
         goto bad_value;
      }
      bson_append_int64 (doc, name, -1, i64);
      break;
   case LAB_CSV_DOUBLE:
      if (!parse_double (data, len, false, &dbl)) {
         /* strtod does not know the spellings export writes for infinities */
         if (len == 8 && memcmp (data, "Infinity", 8) == 0) {
            dbl = INFINITY;
         } else if (len == 9 && memcmp (data, "-Infinity", 9) == 0) {
            dbl = -INFINITY;
         } else {
            goto bad_value;
         }
      }
      bson_append_double (doc, name, -1, dbl);
      break;
   case LAB_CSV_BOOLEAN:
      if (!parse_bool (data, len, &b)) {
         goto bad_value;
      }
      bson_append_bool (doc, name, -1, b);
      break;
   case LAB_CSV_DATE:
      if (!lab_gen_csv_parse_date (data, len, &i64)) {
         bson_snprintf (why, why_len,
                        "'%s' is not an RFC 3339 date (e.g. 2024-03-05T08:15:00Z or 2024-03-05)",
                        (excerpt (data, len, ex, sizeof ex), ex));
         return false;
      }
      bson_append_date_time (doc, name, -1, i64);
      break;
   case LAB_CSV_DECIMAL: {
      bson_decimal128_t dec;
      if (!bson_decimal128_from_string_w_len (data, (int)len, &dec)) {
         goto bad_value;
      }
      bson_append_decimal128 (doc, name, -1, &dec);
      break;
   }
   case LAB_CSV_OBJECTID: {
      bson_oid_t oid;
      if (len != 24 || !bson_oid_is_valid (data, len)) {
         goto bad_value;
      }
      bson_oid_init_from_string (&oid, data);
      bson_append_oid (doc, name, -1, &oid);
      break;
   }
   }
   *appended = true;
   return true;

bad_value:
   excerpt (data, len, ex, sizeof ex);
   bson_snprintf (why, why_len, "'%s' is not a valid %s", ex, lab_gen_csv_type_name (col->type));
   return false;
}

/* ---- export formatting ------------------------------------------------------------------------- */

bool
lab_gen_csv_type_of (bson_type_t t, lab_gen_csv_type_t *out)
{
   switch (t) {
   case BSON_TYPE_UTF8:
      *out = LAB_CSV_STRING;
      return true;
   case BSON_TYPE_INT32:
      *out = LAB_CSV_INT32;
      return true;
   case BSON_TYPE_INT64:
      *out = LAB_CSV_INT64;
      return true;
   case BSON_TYPE_DOUBLE:
      *out = LAB_CSV_DOUBLE;
      return true;
   case BSON_TYPE_BOOL:
      *out = LAB_CSV_BOOLEAN;
      return true;
   case BSON_TYPE_DATE_TIME:
      *out = LAB_CSV_DATE;
      return true;
   case BSON_TYPE_DECIMAL128:
      *out = LAB_CSV_DECIMAL;
      return true;
   case BSON_TYPE_OID:
      *out = LAB_CSV_OBJECTID;
      return true;
   default:
      return false;
   }
}

bool
lab_gen_csv_format_value (const bson_iter_t *it, lab_gen_csv_type_t t, lab_buf_t *out, char *why,
                          size_t why_len)
{
   char buf[64];
   bson_type_t bt = bson_iter_type (it);
   lab_gen_csv_type_t vt;
   int n = 0;

   if (!lab_gen_csv_type_of (bt, &vt) || vt != t) {
      bson_snprintf (why, why_len, "a value of BSON type 0x%02x in a %s column", (unsigned)bt,
                     lab_gen_csv_type_name (t));
      return false;
   }
   switch (t) {
   case LAB_CSV_STRING: {
      uint32_t len;
      size_t bad;
      const char *s = bson_iter_utf8 (it, &len);
      if (!lab_gen_utf8_check (s, len, &bad)) {
         bson_snprintf (why, why_len, "string with invalid UTF-8 or a NUL byte at byte %zu", bad + 1);
         return false;
      }
      lab_buf_append (out, s, len);
      return true;
   }
   case LAB_CSV_INT32:
      n = bson_snprintf (buf, sizeof buf, "%" PRId32, bson_iter_int32 (it));
      break;
   case LAB_CSV_INT64:
      n = bson_snprintf (buf, sizeof buf, "%" PRId64, bson_iter_int64 (it));
      break;
   case LAB_CSV_DOUBLE: {
      double v = bson_iter_double (it);
      if (isnan (v)) {
         n = bson_snprintf (buf, sizeof buf, "NaN");
      } else if (isinf (v)) {
         n = bson_snprintf (buf, sizeof buf, "%s", v > 0 ? "Infinity" : "-Infinity");
      } else {
         n = snprintf (buf, sizeof buf, "%.15g", v);
         if (strtod (buf, NULL) != v) {
            n = snprintf (buf, sizeof buf, "%.17g", v);
         }
      }
      break;
   }
   case LAB_CSV_BOOLEAN:
      n = bson_snprintf (buf, sizeof buf, "%s", bson_iter_bool (it) ? "true" : "false");
      break;
   case LAB_CSV_DATE:
      if (!lab_gen_csv_format_date (bson_iter_date_time (it), buf, sizeof buf)) {
         bson_snprintf (why, why_len, "date %" PRId64 " ms is outside years 0..9999",
                        bson_iter_date_time (it));
         return false;
      }
      n = (int)strlen (buf);
      break;
   case LAB_CSV_DECIMAL: {
      bson_decimal128_t dec;
      char dbuf[BSON_DECIMAL128_STRING];
      bson_iter_decimal128 (it, &dec);
      bson_decimal128_to_string (&dec, dbuf);
      lab_buf_append (out, dbuf, strlen (dbuf));
      return true;
   }
   case LAB_CSV_OBJECTID:
      bson_oid_to_string (bson_iter_oid (it), buf);
      n = 24;
      break;
   case LAB_CSV_AUTO:
      bson_snprintf (why, why_len, "auto is not an export type");
      return false;
   }
   lab_buf_append (out, buf, (size_t)n);
   return true;
}
