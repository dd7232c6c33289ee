/*
 * fold.c -- the pure fold logic (see fold.h): rows in key order in, array documents out, sized exactly
 * while they are built; unfolding, row digests, deterministic ids and the hoist sampler.
 */
#include "fold.h"

#include "core/error.h"
#include "core/keyenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
/* xxhash inlined: the verify hashes every field of every row, a few dozen bytes at a time, where a call
 * into the shared library costs as much as the hash */
#define XXH_INLINE_ALL
#include <xxhash.h>

/* Sizes of the fixed top-level fields: type byte + name + NUL + int32. */
#define ROW_COUNT_ELEM_BYTES (1 + sizeof LAB_FOLD_ROW_COUNT + 4)
#define PART_ELEM_BYTES (1 + sizeof LAB_FOLD_PART + 4)
#define PARTS_ELEM_BYTES (1 + sizeof LAB_FOLD_PARTS + 4)
#define BUCKET_START_ELEM_BYTES (1 + sizeof LAB_FOLD_BUCKET_START + 8)

#define MS_PER_HOUR INT64_C (3600000)
#define MS_PER_DAY INT64_C (86400000)

/* Where one of the tracked fields (slot 0: the key, slot 1+h: hoist[h]) sits in a buffered row. */
typedef struct {
   uint32_t off; /* offset of the element in the row */
   uint32_t len; /* element bytes (type, name, value); 0: absent */
   bool dup;     /* the row holds the name more than once: never removed from it */
} slot_t;

/* A row's place in the master's documents: its time window (0 without --bucket-by) and its index. */
typedef struct {
   int64_t win_ms;
   size_t r;
} ord_t;

struct lab_fold {
   lab_fold_opts_t opts;
   char *key;
   char *array_field;
   char *bucket_field;
   char **hoist;
   size_t nslots; /* 1 + nhoist */
   lab_fold_emit_cb_t emit;
   lab_fold_reject_cb_t reject;
   void *ctx;
   lab_fold_stats_t stats;

   /* the current master: raw rows back to back, their offsets, their tracked slots */
   uint8_t *buf;
   size_t buf_len;
   size_t buf_cap;
   size_t *row_off;
   size_t nrows;
   size_t rows_cap;
   slot_t *slots; /* nrows * nslots */
   size_t slots_cap;

   /* per-master scratch */
   bool *hoisted; /* nslots: removed from rows whose bytes equal the first row's */
   uint8_t *elem; /* one element document being assembled */
   size_t elem_cap;
   bson_t **docs;
   size_t ndocs;
   size_t docs_cap;
   size_t docs_bytes;
   ord_t *ord; /* nrows: the order rows go into documents */
   size_t ord_cap;
};

/* grow -- ensure *cap >= need elements of `size` bytes in *p. */
static void
grow (void **p, size_t *cap, size_t need, size_t size)
{
   size_t c = *cap ? *cap : 16;

   if (need <= *cap) {
      return;
   }
   while (c < need) {
      c *= 2;
   }
   *p = bson_realloc (*p, c * size);
   *cap = c;
}

/* row_id_text -- the row's `_id` as relaxed JSON for messages (caller bson_free()s). */
static char *
row_id_text (const bson_t *row)
{
   bson_iter_t it;
   bson_t tmp = BSON_INITIALIZER;
   char *json;

   if (!bson_iter_init_find (&it, row, "_id")) {
      bson_destroy (&tmp);
      return bson_strdup ("(no _id)");
   }
   bson_append_iter (&tmp, "_id", 3, &it);
   json = bson_as_relaxed_extended_json (&tmp, NULL);
   bson_destroy (&tmp);
   return json;
}

static bool
name_reserved (const char *name, const char *array_field)
{
   return strcmp (name, "_id") == 0 || strcmp (name, LAB_FOLD_ROW_COUNT) == 0 ||
          strcmp (name, LAB_FOLD_PART) == 0 || strcmp (name, LAB_FOLD_PARTS) == 0 ||
          strcmp (name, LAB_FOLD_BUCKET_START) == 0 || strcmp (name, array_field) == 0;
}

static bool
name_plain (const char *name)
{
   return name && name[0] && name[0] != '$' && !strchr (name, '.');
}

/* lab_fold_opts_check -- names are plain top-level fields, none reserved, no duplicates; a sane cap. */
bool
lab_fold_opts_check (const lab_fold_opts_t *o, bson_error_t *error)
{
   size_t i, j;

   if (!name_plain (o->key)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "key field '%s' must be a top-level field name (no '.', no '$')", o->key ? o->key : "");
      return false;
   }
   if (!name_plain (o->array_field)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "array field '%s' must be a top-level field name (no '.', no '$')",
                     o->array_field ? o->array_field : "");
      return false;
   }
   if (name_reserved (o->key, o->array_field)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "key field '%s' cannot be _id, row_count, part, parts, bucket_start or the array field",
                     o->key);
      return false;
   }
   if (strcmp (o->array_field, "_id") == 0 || strcmp (o->array_field, LAB_FOLD_ROW_COUNT) == 0 ||
       strcmp (o->array_field, LAB_FOLD_PART) == 0 || strcmp (o->array_field, LAB_FOLD_PARTS) == 0 ||
       strcmp (o->array_field, LAB_FOLD_BUCKET_START) == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "array field '%s' is a name the folded document uses itself", o->array_field);
      return false;
   }
   for (i = 0; i < o->nhoist; i++) {
      if (!name_plain (o->hoist[i])) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "hoisted field '%s' must be a top-level field name", o->hoist[i] ? o->hoist[i] : "");
         return false;
      }
      if (strcmp (o->hoist[i], o->key) == 0 || name_reserved (o->hoist[i], o->array_field)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "field '%s' cannot be hoisted: the key is always at top level, and _id, row_count, "
                        "part, parts, bucket_start and the array field are the folded document's own",
                        o->hoist[i]);
         return false;
      }
      for (j = 0; j < i; j++) {
         if (strcmp (o->hoist[i], o->hoist[j]) == 0) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                           "hoisted field '%s' is listed twice", o->hoist[i]);
            return false;
         }
      }
   }
   if (o->bucket_rows < 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "bucket rows %d must be 1 or more (0: no limit)", o->bucket_rows);
      return false;
   }
   if (o->bucket_field) {
      if (!name_plain (o->bucket_field)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "bucket field '%s' must be a top-level field name (no '.', no '$')", o->bucket_field);
         return false;
      }
      if (name_reserved (o->bucket_field, o->array_field)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "bucket field '%s' is a name the folded document uses itself", o->bucket_field);
         return false;
      }
      if (o->bucket_unit < LAB_BUCKET_HOUR || o->bucket_unit > LAB_BUCKET_MONTH) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "bucket field '%s' needs a unit: hour, day, week or month", o->bucket_field);
         return false;
      }
   }
   if (o->max_doc_bytes < 1024 || o->max_doc_bytes > INT32_MAX) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "max document size %lld is out of range [1 KiB, 2 GiB)", (long long)o->max_doc_bytes);
      return false;
   }
   return true;
}

/* ---- buckets ------------------------------------------------------------------------------------ */

static const char *const bucket_unit_names[] = { "none", "hour", "day", "week", "month" };

/* lab_bucket_unit_name -- the unit as --bucket-by spells it. */
const char *
lab_bucket_unit_name (lab_bucket_unit_t unit)
{
   return unit >= LAB_BUCKET_NONE && unit <= LAB_BUCKET_MONTH ? bucket_unit_names[unit] : "?";
}

/* lab_bucket_spec_parse -- "FIELD:UNIT". */
bool
lab_bucket_spec_parse (const char *spec, char **field, lab_bucket_unit_t *unit, bson_error_t *error)
{
   const char *colon = spec ? strrchr (spec, ':') : NULL;
   int u;

   *field = NULL;
   *unit = LAB_BUCKET_NONE;
   if (!colon || colon == spec) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--bucket-by '%s' must be FIELD:UNIT (UNIT hour, day, week or month), e.g. "
                     "charge_time:day",
                     spec ? spec : "");
      return false;
   }
   for (u = LAB_BUCKET_HOUR; u <= LAB_BUCKET_MONTH; u++) {
      if (strcmp (colon + 1, bucket_unit_names[u]) == 0) {
         *unit = (lab_bucket_unit_t)u;
      }
   }
   if (*unit == LAB_BUCKET_NONE) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--bucket-by '%s': unknown unit '%s' (use hour, day, week or month)", spec, colon + 1);
      return false;
   }
   *field = bson_strndup (spec, (size_t)(colon - spec));
   return true;
}

/* floor_div -- a / b rounded towards minus infinity (b > 0). */
static int64_t
floor_div (int64_t a, int64_t b)
{
   int64_t q = a / b;

   return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* days_from_civil -- days since 1970-01-01 of the proleptic Gregorian date y-m-d (H. Hinnant). */
static int64_t
days_from_civil (int64_t y, int64_t m, int64_t d)
{
   int64_t era, yoe, doy, doe;

   y -= m <= 2;
   era = floor_div (y, 400);
   yoe = y - era * 400;
   doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
   doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
   return era * 146097 + doe - 719468;
}

/* civil_from_days -- the year and month of day z since 1970-01-01 (H. Hinnant). */
static void
civil_from_days (int64_t z, int64_t *y, int64_t *m)
{
   int64_t era, doe, yoe, doy, mp;

   z += 719468;
   era = floor_div (z, 146097);
   doe = z - era * 146097;
   yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
   doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
   mp = (5 * doy + 2) / 153;
   *m = mp + (mp < 10 ? 3 : -9);
   *y = yoe + era * 400 + (*m <= 2);
}

/* add_sat -- a + b, saturated at INT64_MAX (the window after the last representable one). */
static int64_t
add_sat (int64_t a, int64_t b)
{
   int64_t r;

   return __builtin_add_overflow (a, b, &r) ? INT64_MAX : r;
}

/* lab_bucket_window -- see fold.h. */
int64_t
lab_bucket_window (int64_t ms, lab_bucket_unit_t unit, int64_t *end_ms)
{
   int64_t start, end, y, m;
   const int64_t monday = -3 * MS_PER_DAY; /* 1969-12-29, the Monday before the epoch (a Thursday) */

   switch (unit) {
   case LAB_BUCKET_HOUR:
      start = floor_div (ms, MS_PER_HOUR) * MS_PER_HOUR;
      end = add_sat (start, MS_PER_HOUR);
      break;
   case LAB_BUCKET_DAY:
      start = floor_div (ms, MS_PER_DAY) * MS_PER_DAY;
      end = add_sat (start, MS_PER_DAY);
      break;
   case LAB_BUCKET_WEEK:
      /* (ms - monday) may overflow only below the representable weeks: clamp there */
      start = ms < INT64_MIN - monday ? INT64_MIN
                                      : floor_div (ms - monday, 7 * MS_PER_DAY) * 7 * MS_PER_DAY + monday;
      end = add_sat (start, 7 * MS_PER_DAY);
      break;
   case LAB_BUCKET_MONTH:
      civil_from_days (floor_div (ms, MS_PER_DAY), &y, &m);
      start = days_from_civil (y, m, 1) * MS_PER_DAY;
      end = m == 12 ? days_from_civil (y + 1, 1, 1) * MS_PER_DAY : days_from_civil (y, m + 1, 1) * MS_PER_DAY;
      break;
   default:
      start = INT64_MIN;
      end = INT64_MAX;
      break;
   }
   if (end_ms) {
      *end_ms = end;
   }
   return start;
}

/* lab_fold_new -- copy the options and set up empty buffers. */
lab_fold_t *
lab_fold_new (const lab_fold_opts_t *opts, lab_fold_emit_cb_t emit, lab_fold_reject_cb_t reject, void *ctx,
              bson_error_t *error)
{
   lab_fold_t *f;
   size_t i;

   if (!lab_fold_opts_check (opts, error)) {
      return NULL;
   }
   if (opts->on_oversize == LAB_FOLD_OVERSIZE_REJECT && !reject) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "on-oversize reject needs a reject destination");
      return NULL;
   }
   f = bson_malloc0 (sizeof *f);
   f->opts = *opts;
   f->key = bson_strdup (opts->key);
   f->array_field = bson_strdup (opts->array_field);
   f->hoist = bson_malloc0 ((opts->nhoist + 1) * sizeof (char *));
   for (i = 0; i < opts->nhoist; i++) {
      f->hoist[i] = bson_strdup (opts->hoist[i]);
   }
   f->opts.key = f->key;
   f->opts.array_field = f->array_field;
   if (opts->bucket_field) {
      f->bucket_field = bson_strdup (opts->bucket_field);
      f->opts.bucket_field = f->bucket_field;
   }
   f->opts.hoist = (const char *const *)f->hoist;
   f->nslots = 1 + opts->nhoist;
   f->hoisted = bson_malloc0 (f->nslots * sizeof (bool));
   f->emit = emit;
   f->reject = reject;
   f->ctx = ctx;
   return f;
}

const lab_fold_stats_t *
lab_fold_stats (const lab_fold_t *f)
{
   return &f->stats;
}

/* lab_fold_buffered_bytes -- buffered rows plus documents built for the current master. */
size_t
lab_fold_buffered_bytes (const lab_fold_t *f)
{
   return f->buf_len + f->docs_bytes;
}

/* clear_docs -- drop documents not handed over (after an error). */
static void
clear_docs (lab_fold_t *f)
{
   size_t i;

   for (i = 0; i < f->ndocs; i++) {
      bson_destroy (f->docs[i]);
   }
   f->ndocs = 0;
   f->docs_bytes = 0;
}

/* lab_fold_destroy -- free everything, including a master never finished. */
void
lab_fold_destroy (lab_fold_t *f)
{
   if (!f) {
      return;
   }
   clear_docs (f);
   bson_free (f->docs);
   bson_free (f->buf);
   bson_free (f->row_off);
   bson_free (f->slots);
   bson_free (f->hoisted);
   bson_free (f->elem);
   bson_strfreev (f->hoist);
   bson_free (f->key);
   bson_free (f->array_field);
   bson_free (f->bucket_field);
   bson_free (f->ord);
   bson_free (f);
}

/* row_at -- a static view of buffered row i. */
static void
row_at (const lab_fold_t *f, size_t i, bson_t *row)
{
   const uint8_t *p = f->buf + f->row_off[i];
   uint32_t len;

   memcpy (&len, p, 4);
   len = BSON_UINT32_FROM_LE (len);
   BSON_ASSERT (bson_init_static (row, p, len));
}

/* master_key -- the current master's key value (points into the buffer). */
static void
master_key (const lab_fold_t *f, bson_value_t *key)
{
   bson_t row;
   bson_iter_t it;

   row_at (f, 0, &row);
   BSON_ASSERT (bson_iter_init (&it, &row));
   BSON_ASSERT (f->slots[0].len > 0);
   /* slot 0 is the first occurrence of the key */
   bson_iter_init_from_data_at_offset (&it, bson_get_data (&row), row.len, f->slots[0].off,
                                       (uint32_t)strlen (f->key));
   *key = *bson_iter_value (&it);
}

/* lab_fold_key_id -- see fold.h. */
char *
lab_fold_key_id (const bson_value_t *key, bson_error_t *error)
{
   double d;
   char hex[25];
   size_t i;

   switch (key->value_type) {
   case BSON_TYPE_INT32:
      return bson_strdup_printf ("n:%d", key->value.v_int32);
   case BSON_TYPE_INT64:
      return bson_strdup_printf ("n:%lld", (long long)key->value.v_int64);
   case BSON_TYPE_DOUBLE:
      d = key->value.v_double;
      if (isnan (d)) {
         return bson_strdup ("n:nan");
      }
      if (d == floor (d) && fabs (d) < 9.2e18) {
         return bson_strdup_printf ("n:%lld", (long long)d);
      }
      return bson_strdup_printf ("n:%.17g", d);
   case BSON_TYPE_UTF8:
      if (memchr (key->value.v_utf8.str, '\0', key->value.v_utf8.len)) {
         /* an embedded NUL: spell the bytes in hex so the id stays a plain string */
         char *out = bson_malloc (3 + 2 * (size_t)key->value.v_utf8.len);
         memcpy (out, "x:", 2);
         for (i = 0; i < key->value.v_utf8.len; i++) {
            snprintf (out + 2 + 2 * i, 3, "%02x", (unsigned char)key->value.v_utf8.str[i]);
         }
         out[2 + 2 * key->value.v_utf8.len] = '\0';
         return out;
      }
      return bson_strdup_printf ("s:%s", key->value.v_utf8.str);
   case BSON_TYPE_OID:
      bson_oid_to_string (&key->value.v_oid, hex);
      return bson_strdup_printf ("o:%s", hex);
   case BSON_TYPE_DATE_TIME:
      return bson_strdup_printf ("d:%lld", (long long)key->value.v_datetime);
   case BSON_TYPE_BOOL:
      return bson_strdup (key->value.v_bool ? "b:true" : "b:false");
   case BSON_TYPE_NULL:
      return bson_strdup ("null");
   case BSON_TYPE_MINKEY:
      return bson_strdup ("minkey");
   case BSON_TYPE_MAXKEY:
      return bson_strdup ("maxkey");
   default:
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "key values of BSON type 0x%02x are not supported (use string, int32, int64, double, "
                     "ObjectId, date or bool keys)",
                     (unsigned)key->value_type);
      return NULL;
   }
}

/* lab_fold_doc_id -- "<key id>#<part>". */
char *
lab_fold_doc_id (const bson_value_t *key, int32_t part, bson_error_t *error)
{
   char *kid = lab_fold_key_id (key, error);
   char *id;

   if (!kid) {
      return NULL;
   }
   id = bson_strdup_printf ("%s#%d", kid, part);
   bson_free (kid);
   return id;
}

/* digits -- length of the decimal form of i (array index keys). */
static size_t
digits (size_t i)
{
   size_t n = 1;

   while (i >= 10) {
      i /= 10;
      n++;
   }
   return n;
}

/* header_bytes -- a folded document's size with an empty array, for part `part`. */
static size_t
header_bytes (const lab_fold_t *f, size_t kid_len, int32_t part, size_t hoisted_bytes)
{
   size_t id_len = kid_len + 1 + digits ((size_t)part);

   return 4                        /* document length */
          + 1 + 4 + 4 + id_len + 1 /* _id: type, "_id\0", string length, bytes, NUL */
          + hoisted_bytes          /* key and hoisted elements, copied from the first row */
          + ROW_COUNT_ELEM_BYTES + PART_ELEM_BYTES + PARTS_ELEM_BYTES +
          (f->bucket_field ? BUCKET_START_ELEM_BYTES : 0) + 1 + strlen (f->array_field) + 1 + 4 +
          1    /* array: type, name, NUL, length, terminator */
          + 1; /* document terminator */
}

/* removed -- true when slot s of row r is left out of the row's element. */
static bool
removed (const lab_fold_t *f, size_t r, size_t s)
{
   const slot_t *sl = &f->slots[r * f->nslots + s];
   const slot_t *ref = &f->slots[s];

   if (!f->hoisted[s] || sl->dup || sl->len == 0 || sl->len != ref->len) {
      return false;
   }
   if (r == 0) {
      return true;
   }
   return memcmp (f->buf + f->row_off[r] + sl->off, f->buf + f->row_off[0] + ref->off, sl->len) == 0;
}

/* elem_bytes -- the size of row r's element document. */
static size_t
elem_bytes (const lab_fold_t *f, size_t r)
{
   bson_t row;
   size_t n, s;

   row_at (f, r, &row);
   n = row.len;
   for (s = 0; s < f->nslots; s++) {
      if (removed (f, r, s)) {
         n -= f->slots[r * f->nslots + s].len;
      }
   }
   return n;
}

typedef struct {
   uint32_t off;
   uint32_t len;
} range_t;

static int
range_cmp (const void *a, const void *b)
{
   const range_t *x = a, *y = b;

   return x->off < y->off ? -1 : x->off > y->off;
}

/* build_elem -- assemble row r's element document into f->elem (returns its length). */
static size_t
build_elem (lab_fold_t *f, size_t r)
{
   bson_t row;
   range_t cut[64];
   range_t *cuts = cut;
   size_t ncut = 0, s, pos, out, len;
   uint32_t le;
   const uint8_t *p;

   row_at (f, r, &row);
   p = bson_get_data (&row);
   if (f->nslots > 64) {
      cuts = bson_malloc (f->nslots * sizeof *cuts);
   }
   for (s = 0; s < f->nslots; s++) {
      if (removed (f, r, s)) {
         cuts[ncut].off = f->slots[r * f->nslots + s].off;
         cuts[ncut].len = f->slots[r * f->nslots + s].len;
         ncut++;
      }
   }
   qsort (cuts, ncut, sizeof *cuts, range_cmp);
   grow ((void **)&f->elem, &f->elem_cap, row.len, 1);
   out = 4;
   pos = 4;
   for (s = 0; s < ncut; s++) {
      memcpy (f->elem + out, p + pos, cuts[s].off - pos);
      out += cuts[s].off - pos;
      pos = cuts[s].off + cuts[s].len;
   }
   memcpy (f->elem + out, p + pos, row.len - pos); /* includes the terminator */
   out += row.len - pos;
   len = out;
   le = BSON_UINT32_TO_LE ((uint32_t)len);
   memcpy (f->elem, &le, 4);
   if (cuts != cut) {
      bson_free (cuts);
   }
   return len;
}

/* start_doc -- a new part: _id, key, hoisted fields, counters (filled later), the bucket's window start
 * (--bucket-by), array begun. */
static bool
start_doc (lab_fold_t *f, const bson_value_t *key, int32_t part, int64_t win_ms, bson_t **doc, bson_t *arr,
           bson_error_t *error)
{
   char *id = lab_fold_doc_id (key, part, error);
   bson_t first;
   bson_iter_t it;
   size_t s;
   const slot_t *sl;

   if (!id) {
      return false;
   }
   *doc = bson_new ();
   BSON_APPEND_UTF8 (*doc, "_id", id);
   bson_free (id);
   row_at (f, 0, &first);
   for (s = 0; s < f->nslots; s++) {
      if (!f->hoisted[s]) {
         continue;
      }
      sl = &f->slots[s];
      bson_iter_init_from_data_at_offset (&it, bson_get_data (&first), first.len, sl->off,
                                          (uint32_t)strlen (s == 0 ? f->key : f->hoist[s - 1]));
      bson_append_iter (*doc, NULL, 0, &it);
   }
   BSON_APPEND_INT32 (*doc, LAB_FOLD_ROW_COUNT, 0);
   BSON_APPEND_INT32 (*doc, LAB_FOLD_PART, part);
   BSON_APPEND_INT32 (*doc, LAB_FOLD_PARTS, 0);
   if (f->bucket_field) {
      BSON_APPEND_DATE_TIME (*doc, LAB_FOLD_BUCKET_START, win_ms);
   }
   bson_append_array_begin (*doc, f->array_field, -1, arr);
   return true;
}

/* set_int32 -- overwrite an int32 field of a finished document in place. */
static void
set_int32 (bson_t *doc, const char *name, int32_t v)
{
   bson_iter_t it;

   BSON_ASSERT (bson_iter_init_find (&it, doc, name));
   bson_iter_overwrite_int32 (&it, v);
}

/* end_doc -- close the array, fill row_count, check the size against the computed one. */
static bool
end_doc (lab_fold_t *f, bson_t *doc, bson_t *arr, int32_t nrows, size_t expect, bson_error_t *error)
{
   bson_append_array_end (doc, arr);
   set_int32 (doc, LAB_FOLD_ROW_COUNT, nrows);
   if (doc->len != expect) {
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                     "internal error: folded document is %u bytes, computed %zu", doc->len, expect);
      bson_destroy (doc);
      return false;
   }
   grow ((void **)&f->docs, &f->docs_cap, f->ndocs + 1, sizeof (bson_t *));
   f->docs[f->ndocs++] = doc;
   f->docs_bytes += doc->len;
   if ((int64_t)doc->len > f->stats.largest_doc_bytes) {
      f->stats.largest_doc_bytes = doc->len;
   }
   return true;
}

/* reject_master -- hand the master's original rows to the reject callback. */
static bool
reject_master (lab_fold_t *f, const bson_value_t *key, const char *reason, bson_error_t *error)
{
   bson_t **rows = bson_malloc (f->nrows * sizeof (bson_t *));
   bson_t view;
   size_t i;
   bool ok;

   /* heap copies: bson_t wants a 128-byte alignment an array of them would not give */
   for (i = 0; i < f->nrows; i++) {
      row_at (f, i, &view);
      rows[i] = bson_copy (&view);
   }
   ok = f->reject (f->ctx, key, (const bson_t *const *)rows, f->nrows, reason, error);
   for (i = 0; i < f->nrows; i++) {
      bson_destroy (rows[i]);
   }
   bson_free (rows);
   f->stats.masters_rejected++;
   f->stats.rows_rejected += (int64_t)f->nrows;
   return ok;
}

/* bucketed -- documents are bucketed (by rows or by time). */
static bool
bucketed (const lab_fold_t *f)
{
   return f->opts.bucket_rows > 0 || f->bucket_field;
}

/* bucket_break -- row position i (in f->ord) starts a new document although the current one, holding
 * in_part > 0 rows, has room: --bucket-rows is reached or the time window changes. */
static bool
bucket_break (const lab_fold_t *f, size_t i, int32_t in_part)
{
   if (f->opts.bucket_rows > 0 && in_part >= f->opts.bucket_rows) {
      return true;
   }
   return f->bucket_field && i > 0 && f->ord[i].win_ms != f->ord[i - 1].win_ms;
}

static int
ord_cmp (const void *a, const void *b)
{
   const ord_t *x = a, *y = b;

   if (x->win_ms != y->win_ms) {
      return x->win_ms < y->win_ms ? -1 : 1;
   }
   return x->r < y->r ? -1 : x->r > y->r;
}

/* order_rows -- f->ord: the rows in input order, or (--bucket-by) stably sorted by their time window.
 * A row without the bucket field or with a value that is not a date stops the fold, naming the row. */
static bool
order_rows (lab_fold_t *f, const bson_value_t *key, bson_error_t *error)
{
   bson_t row;
   bson_iter_t it;
   size_t r;
   char *rt, *kt;

   grow ((void **)&f->ord, &f->ord_cap, f->nrows, sizeof (ord_t));
   for (r = 0; r < f->nrows; r++) {
      f->ord[r].r = r;
      f->ord[r].win_ms = 0;
      if (!f->bucket_field) {
         continue;
      }
      row_at (f, r, &row);
      if (!bson_iter_init_find (&it, &row, f->bucket_field) || !BSON_ITER_HOLDS_DATE_TIME (&it)) {
         bool present = bson_iter_init_find (&it, &row, f->bucket_field);
         rt = row_id_text (&row);
         kt = lab_value_to_text (key);
         if (present) {
            lab_error_set (
               error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
               "row %s of master %s=%s: bucket field '%s' holds BSON type 0x%02x, not a date; "
               "--bucket-by needs a date in every row (bucket by rows with --bucket-rows instead)",
               rt, f->key, kt, f->bucket_field, (unsigned)bson_iter_type (&it));
         } else {
            lab_error_set (
               error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
               "row %s of master %s=%s has no bucket field '%s': --bucket-by needs a date in every "
               "row (bucket by rows with --bucket-rows instead)",
               rt, f->key, kt, f->bucket_field);
         }
         bson_free (rt);
         bson_free (kt);
         return false;
      }
      f->ord[r].win_ms = lab_bucket_window (bson_iter_date_time (&it), f->opts.bucket_unit, NULL);
   }
   if (f->bucket_field) {
      qsort (f->ord, f->nrows, sizeof (ord_t), ord_cmp);
   }
   return true;
}

/* finish_master -- decide what is hoisted, build the documents (split at the cap, and at each bucket's
 * end), emit them. */
static bool
finish_master (lab_fold_t *f, bson_error_t *error)
{
   bson_value_t key;
   char *kid = NULL, *ktext = NULL, *rtext = NULL, *reason = NULL;
   size_t kid_len, hoisted_bytes = 0, total, r, s, ebytes, size, i, nbig = 0;
   size_t max = (size_t)f->opts.max_doc_bytes;
   bson_t *doc = NULL;
   bson_t arr;
   bson_t row;
   int32_t part = 0, in_part = 0;
   bool ok = false;
   const char *idx;
   char idxbuf[16];
   size_t elen;
   bson_t elem;

   if (f->nrows == 0) {
      return true;
   }
   master_key (f, &key);
   kid = lab_fold_key_id (&key, error);
   if (!kid) {
      goto done;
   }
   kid_len = strlen (kid);

   /* slot 0 (the key) is always at top level; a hoist field only when every row has it */
   for (s = 0; s < f->nslots; s++) {
      f->hoisted[s] = f->slots[s].len > 0;
      for (r = 0; s > 0 && f->hoisted[s] && r < f->nrows; r++) {
         if (f->slots[r * f->nslots + s].len == 0 || f->slots[r * f->nslots + s].dup) {
            f->hoisted[s] = false;
         }
      }
      if (f->hoisted[s]) {
         hoisted_bytes += f->slots[s].len;
      }
   }

   /* the order rows go into documents: by time window (--bucket-by), else as they came */
   if (!order_rows (f, &key, error)) {
      goto done;
   }

   /* the size of each bucket (the whole master without buckets) decides split / reject / fail */
   if (f->opts.on_oversize != LAB_FOLD_OVERSIZE_SPLIT) {
      size_t gsize = 0, grows = 0;

      total = 0;
      for (i = 0; i <= f->nrows; i++) {
         if (i == f->nrows || (grows > 0 && bucket_break (f, i, (int32_t)grows))) {
            if (gsize > total) {
               total = gsize;
               nbig = grows;
            }
            grows = 0;
            if (i == f->nrows) {
               break;
            }
         }
         if (grows == 0) {
            gsize = header_bytes (f, kid_len, 0, hoisted_bytes);
         }
         gsize += 1 + digits (grows) + 1 + elem_bytes (f, f->ord[i].r);
         grows++;
      }
      if (total > max) {
         ktext = lab_value_to_text (&key);
         if (bucketed (f)) {
            reason = bson_strdup_printf (
               "a bucket of master %s=%s folds to %zu bytes, over the %zu-byte document cap (%zu rows)",
               f->key, ktext, total, max, nbig);
         } else {
            reason = bson_strdup_printf (
               "master %s=%s folds to %zu bytes, over the %zu-byte document cap (%zu rows)", f->key, ktext,
               total, max, f->nrows);
         }
         if (f->opts.on_oversize == LAB_FOLD_OVERSIZE_REJECT) {
            ok = reject_master (f, &key, reason, error);
         } else {
            lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_DOC_TOO_LARGE,
                           "%s; use --on-oversize split or reject", reason);
         }
         goto done;
      }
   }

   size = header_bytes (f, kid_len, 0, hoisted_bytes);
   if (!start_doc (f, &key, 0, f->ord[0].win_ms, &doc, &arr, error)) {
      goto done;
   }
   for (i = 0; i < f->nrows; i++) {
      r = f->ord[i].r;
      ebytes = elem_bytes (f, r);
      if (in_part > 0 &&
          (bucket_break (f, i, in_part) || size + 1 + digits ((size_t)in_part) + 1 + ebytes > max)) {
         /* the part is full, or its bucket ends: close it and start the next one */
         if (!end_doc (f, doc, &arr, in_part, size, error)) {
            doc = NULL;
            goto done;
         }
         part++;
         in_part = 0;
         size = header_bytes (f, kid_len, part, hoisted_bytes);
         if (!start_doc (f, &key, part, f->ord[i].win_ms, &doc, &arr, error)) {
            doc = NULL;
            goto done;
         }
      }
      if (size + 1 + digits ((size_t)in_part) + 1 + ebytes > max) {
         /* alone in a part and still over the cap (checked after the split too: the row that did not
          * fit the full part must fit an empty one) */
         row_at (f, r, &row);
         ktext = lab_value_to_text (&key);
         rtext = row_id_text (&row);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_DOC_TOO_LARGE,
                        "row %s of master %s=%s is %zu bytes: even alone in a folded document it exceeds "
                        "the %zu-byte cap",
                        rtext, f->key, ktext, (size_t)row.len, max);
         bson_destroy (doc);
         doc = NULL;
         goto done;
      }
      bson_uint32_to_string ((uint32_t)in_part, &idx, idxbuf, sizeof idxbuf);
      elen = build_elem (f, r);
      BSON_ASSERT (elen == ebytes);
      BSON_ASSERT (bson_init_static (&elem, f->elem, elen));
      bson_append_document (&arr, idx, -1, &elem);
      size += 1 + digits ((size_t)in_part) + 1 + ebytes;
      in_part++;
   }
   if (!end_doc (f, doc, &arr, in_part, size, error)) {
      doc = NULL;
      goto done;
   }
   doc = NULL;
   for (i = 0; i < f->ndocs; i++) {
      set_int32 (f->docs[i], LAB_FOLD_PARTS, (int32_t)f->ndocs);
   }
   f->stats.docs_out += (int64_t)f->ndocs;
   if (f->ndocs > 1) {
      f->stats.masters_split++;
   }
   {
      size_t n = f->ndocs;
      f->ndocs = 0; /* the callback owns them now */
      f->docs_bytes = 0;
      ok = f->emit (f->ctx, &key, f->docs, n, (int64_t)f->nrows, error);
   }

done:
   clear_docs (f);
   f->stats.masters++;
   f->nrows = 0;
   f->buf_len = 0;
   bson_free (kid);
   bson_free (ktext);
   bson_free (rtext);
   bson_free (reason);
   return ok;
}

/* lab_fold_row_key -- see fold.h. */
bool
lab_fold_row_key (const char *key, const bson_t *row, bson_value_t *kv, bson_error_t *error)
{
   bson_iter_t it;
   char *t;

   if (!bson_iter_init_find (&it, row, key)) {
      t = row_id_text (row);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "row %s has no key field '%s': every row needs one to be folded", t, key);
      bson_free (t);
      return false;
   }
   /* a shallow copy: the iterator's value does not outlive this call, the row's bytes do */
   *kv = *bson_iter_value (&it);
   if (!lab_store_key_type_supported (kv->value_type) || kv->value_type == BSON_TYPE_NULL) {
      t = row_id_text (row);
      lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_KEY_TYPE,
                     "row %s: key field '%s' holds a value of BSON type 0x%02x, which cannot be a fold key "
                     "(use string, int32, int64, double, ObjectId, date or bool)",
                     t, key, (unsigned)kv->value_type);
      bson_free (t);
      return false;
   }
   return true;
}

/* lab_fold_push_row -- buffer the row; a new key finishes the previous master first. */
bool
lab_fold_push_row (lab_fold_t *f, const bson_t *row, bson_error_t *error)
{
   bson_iter_t it;
   bson_value_t cur, key;
   const bson_value_t *kv = &key;
   const char *name;
   slot_t *sl;
   size_t s;
   int cmp;
   char *t1, *t2, *t3;

   if (!lab_fold_row_key (f->key, row, &key, error)) {
      return false;
   }
   if (f->nrows > 0) {
      master_key (f, &cur);
      cmp = lab_store_value_compare (kv, &cur);
      if (cmp < 0) {
         t1 = row_id_text (row);
         t2 = lab_value_to_text (kv);
         t3 = lab_value_to_text (&cur);
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_GENERIC,
                        "rows are not in key order: row %s has %s=%s after %s", t1, f->key, t2, t3);
         bson_free (t1);
         bson_free (t2);
         bson_free (t3);
         return false;
      }
      if (cmp > 0 && !finish_master (f, error)) {
         return false;
      }
   }

   /* buffer the row and note where the key and the hoist fields are */
   grow ((void **)&f->buf, &f->buf_cap, f->buf_len + row->len, 1);
   grow ((void **)&f->row_off, &f->rows_cap, f->nrows + 1, sizeof (size_t));
   grow ((void **)&f->slots, &f->slots_cap, (f->nrows + 1) * f->nslots, sizeof (slot_t));
   memcpy (f->buf + f->buf_len, bson_get_data (row), row->len);
   f->row_off[f->nrows] = f->buf_len;
   f->buf_len += row->len;
   sl = &f->slots[f->nrows * f->nslots];
   memset (sl, 0, f->nslots * sizeof (slot_t));
   BSON_ASSERT (bson_iter_init (&it, row));
   while (bson_iter_next (&it)) {
      name = bson_iter_key (&it);
      for (s = 0; s < f->nslots; s++) {
         if (strcmp (name, s == 0 ? f->key : f->hoist[s - 1]) == 0) {
            if (sl[s].len) {
               sl[s].dup = true;
            } else {
               sl[s].off = it.off;
               sl[s].len = it.next_off - it.off;
            }
            break;
         }
      }
   }
   f->nrows++;
   f->stats.rows_in++;
   return true;
}

/* lab_fold_finish -- the last master. */
bool
lab_fold_finish (lab_fold_t *f, bson_error_t *error)
{
   return finish_master (f, error);
}

/* ---- unfolding ---------------------------------------------------------------------------------- */

typedef struct hoisted_s hoisted_t;
static hoisted_t *hoisted_fields (const bson_t *doc, const range_t *hs, size_t nh);
static lab_hash_t unfold_hash (const uint8_t *edata, uint32_t elen, const hoisted_t *hf, size_t nh);

/* unfold -- lab_fold_unfold, or with `acc` lab_fold_unfold_hash (each row hashed, never built). */
static bool
unfold (const bson_t *doc, const char *key, const char *array_field, lab_fold_row_cb_t cb, void *ctx,
        lab_hash_t *acc, lab_fold_doc_info_t *info, bson_error_t *error)
{
   bson_iter_t it, ait, eit, hit;
   range_t hoisted[64]; /* offset and key length of each hoisted field in doc */
   range_t *hs = hoisted;
   size_t nh = 0, hcap = 64, i;
   bool have_key = false, have_arr = false, have_rc = false, have_part = false, have_parts = false;
   lab_fold_doc_info_t di;
   int32_t n = 0;
   bson_t elem;
   const uint8_t *data;
   uint32_t len;
   char *idt = NULL;
   bool ok = false;
   hoisted_t *hf = NULL; /* the hoisted fields, prepared for hashing (acc) */
   const char *name;

   memset (&di, 0, sizeof di);
   BSON_ASSERT (bson_iter_init (&it, doc));
   while (bson_iter_next (&it)) {
      name = bson_iter_key (&it);
      if (strcmp (name, "_id") == 0) {
         continue;
      } else if (strcmp (name, LAB_FOLD_ROW_COUNT) == 0 && BSON_ITER_HOLDS_INT32 (&it)) {
         di.row_count = bson_iter_int32 (&it);
         have_rc = true;
      } else if (strcmp (name, LAB_FOLD_PART) == 0 && BSON_ITER_HOLDS_INT32 (&it)) {
         di.part = bson_iter_int32 (&it);
         have_part = true;
      } else if (strcmp (name, LAB_FOLD_PARTS) == 0 && BSON_ITER_HOLDS_INT32 (&it)) {
         di.parts = bson_iter_int32 (&it);
         have_parts = true;
      } else if (strcmp (name, LAB_FOLD_BUCKET_START) == 0 && BSON_ITER_HOLDS_DATE_TIME (&it)) {
         di.has_bucket_start = true;
         di.bucket_start_ms = bson_iter_date_time (&it);
      } else if (strcmp (name, array_field) == 0 && BSON_ITER_HOLDS_ARRAY (&it)) {
         ait = it;
         have_arr = true;
      } else {
         if (strcmp (name, key) == 0) {
            di.key = *bson_iter_value (&it);
            have_key = true;
         }
         if (nh == hcap) {
            hcap *= 2;
            if (hs == hoisted) {
               hs = bson_malloc (hcap * sizeof *hs);
               memcpy (hs, hoisted, sizeof hoisted);
            } else {
               hs = bson_realloc (hs, hcap * sizeof *hs);
            }
         }
         hs[nh].off = it.off;
         hs[nh].len = bson_iter_key_len (&it);
         nh++;
      }
   }
   if (!have_key || !have_arr || !have_rc || !have_part || !have_parts || di.parts < 1 || di.part < 0 ||
       di.part >= di.parts) {
      idt = row_id_text (doc);
      lab_error_set (
         error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_NOT_FOLDED,
         "document %s is not a folded document: it needs '%s', an array '%s', and int32 row_count, "
         "part and parts with 0 <= part < parts",
         idt, key, array_field);
      goto done;
   }
   bson_iter_array (&ait, &len, &data);
   if (!bson_iter_init_from_data (&eit, data, len)) {
      idt = row_id_text (doc);
      lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_CORRUPT, "document %s: array '%s' is corrupt",
                     idt, array_field);
      goto done;
   }
   while (bson_iter_next (&eit)) {
      bson_t row;
      const uint8_t *edata;
      uint32_t elen;

      if (!BSON_ITER_HOLDS_DOCUMENT (&eit)) {
         idt = row_id_text (doc);
         lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_CORRUPT,
                        "document %s: element %s of '%s' is not a document", idt, bson_iter_key (&eit),
                        array_field);
         goto done;
      }
      bson_iter_document (&eit, &elen, &edata);
      if (acc) {
         if (!hf) {
            hf = hoisted_fields (doc, hs, nh);
         }
         lab_hash_add (acc, unfold_hash (edata, elen, hf, nh));
         n++;
         continue;
      }
      BSON_ASSERT (bson_init_static (&elem, edata, elen));
      bson_copy_to (&elem, &row);
      for (i = 0; i < nh; i++) {
         bson_iter_init_from_data_at_offset (&hit, bson_get_data (doc), doc->len, hs[i].off, hs[i].len);
         if (!bson_has_field (&elem, bson_iter_key (&hit))) {
            bson_append_iter (&row, NULL, 0, &hit);
         }
      }
      ok = cb ? cb (ctx, &row, error) : true;
      bson_destroy (&row);
      if (!ok) {
         goto done;
      }
      n++;
   }
   if (n != di.row_count) {
      idt = row_id_text (doc);
      lab_error_set (error, LAB_ERROR_VERIFY, LAB_VERIFY_ERR_ROW_COUNT,
                     "document %s: row_count says %d but '%s' holds %d rows", idt, di.row_count, array_field,
                     n);
      ok = false;
      goto done;
   }
   if (info) {
      *info = di;
   }
   ok = true;
done:
   bson_free (hf);
   if (hs != hoisted) {
      bson_free (hs);
   }
   bson_free (idt);
   return ok;
}

/* lab_fold_unfold -- see fold.h. */
bool
lab_fold_unfold (const bson_t *doc, const char *key, const char *array_field, lab_fold_row_cb_t cb, void *ctx,
                 lab_fold_doc_info_t *info, bson_error_t *error)
{
   return unfold (doc, key, array_field, cb, ctx, NULL, info, error);
}

/* lab_fold_unfold_hash -- see fold.h. */
bool
lab_fold_unfold_hash (const bson_t *doc, const char *key, const char *array_field, lab_hash_t *acc,
                      lab_fold_doc_info_t *info, bson_error_t *error)
{
   return unfold (doc, key, array_field, NULL, NULL, acc, info, error);
}

/* ---- row hashes --------------------------------------------------------------------------------- */

/* A row's hash is the digest of the set of its fields. Each field alone: F = XXH3-128 of its element's
 * bytes (type byte, name, NUL, value) as they lie in the row -- no copy, no sort; a document or array value
 * enters through its own digest, the same way down. The F of every field are summed (each half mod 2^64),
 * so the fields' order does not matter, and the sum is mixed by a seeded XXH3-128 into the digest, so that
 * a row's digest cannot be rebuilt from other rows' fields: a value moved from one row to another changes
 * both rows, where a plain sum over every field of every row would not see it. An array is a document
 * whose names are the positions: its order matters. The type byte is hashed, so an int32 3 is not a
 * double 3.0. A verify hashes every row on both sides: this is its inner loop. */

#define DIGEST_SEED 0x6c61796f75746c61ull  /* "layoutla" */
#define CORRUPT_SEED 0x636f727275707421ull /* "corrupt!": bytes that do not walk as BSON */

/* sum_add -- acc += XXH3-128 of p[0..n). */
static inline void
sum_add (lab_hash_t *acc, const void *p, size_t n)
{
   XXH128_hash_t h = XXH3_128bits (p, n);

   acc->lo += h.low64;
   acc->hi += h.high64;
}

/* digest_of -- the mix of a sum of fields. */
static inline lab_hash_t
digest_of (lab_hash_t sum)
{
   uint64_t b[2] = { sum.lo, sum.hi };
   XXH128_hash_t h = XXH3_128bits_withSeed (b, sizeof b, DIGEST_SEED);
   lab_hash_t r = { h.low64, h.high64 };

   return r;
}

/* One element of a document: offsets into its bytes (type byte, name, value, the next element). */
typedef struct {
   uint32_t off, key, val, next;
   uint8_t type;
} elem_t;

/* cstring_end -- the offset just past the NUL of the string at p[o..end), or 0 when it has none. */
static inline uint32_t
cstring_end (const uint8_t *p, uint32_t o, uint32_t end)
{
   const uint8_t *z = o < end ? memchr (p + o, 0, end - o) : NULL;

   return z ? (uint32_t)(z - p) + 1 : 0;
}

/* le32 -- a little-endian int32 at p[o]. */
static inline int32_t
le32 (const uint8_t *p, uint32_t o)
{
   uint32_t v;

   memcpy (&v, p + o, 4);
   return (int32_t)BSON_UINT32_FROM_LE (v);
}

/* elem_next -- the element at e->next of the document p[0..len) into *e: 1, 0 at the document's end, -1
 * when the bytes are not BSON there (every length checked against the document's: the rows come from a
 * store that only checked their length prefix). libbson's iterator does this with more checks than a
 * hash needs (UTF-8, ...): this is the inner loop of a verify. */
static int
elem_next (const uint8_t *p, uint32_t len, elem_t *e)
{
   uint32_t o = e->next, end = len - 1, v, n;
   int32_t l;

   if (o >= end) {
      return o == end && p[end] == 0 ? 0 : -1;
   }
   e->off = o;
   e->type = p[o];
   e->key = o + 1;
   if (!(v = cstring_end (p, o + 1, end))) {
      return -1;
   }
   e->val = v;
   switch (e->type) {
   case BSON_TYPE_DOUBLE:
   case BSON_TYPE_DATE_TIME:
   case BSON_TYPE_TIMESTAMP:
   case BSON_TYPE_INT64:
      n = 8;
      break;
   case BSON_TYPE_INT32:
      n = 4;
      break;
   case BSON_TYPE_OID:
      n = 12;
      break;
   case BSON_TYPE_BOOL:
      n = 1;
      break;
   case BSON_TYPE_DECIMAL128:
      n = 16;
      break;
   case BSON_TYPE_UNDEFINED:
   case BSON_TYPE_NULL:
   case BSON_TYPE_MAXKEY:
   case BSON_TYPE_MINKEY:
      n = 0;
      break;
   case BSON_TYPE_UTF8:
   case BSON_TYPE_CODE:
   case BSON_TYPE_SYMBOL:
   case BSON_TYPE_DBPOINTER:
      if (v + 4 > end || (l = le32 (p, v)) < 1) {
         return -1;
      }
      n = 4 + (uint32_t)l + (e->type == BSON_TYPE_DBPOINTER ? 12 : 0);
      break;
   case BSON_TYPE_DOCUMENT:
   case BSON_TYPE_ARRAY:
   case BSON_TYPE_CODEWSCOPE:
      if (v + 4 > end || (l = le32 (p, v)) < 5) {
         return -1;
      }
      n = (uint32_t)l;
      break;
   case BSON_TYPE_BINARY:
      if (v + 4 > end || (l = le32 (p, v)) < 0) {
         return -1;
      }
      n = 5 + (uint32_t)l;
      break;
   case BSON_TYPE_REGEX:
      if (!(n = cstring_end (p, v, end)) || !(n = cstring_end (p, n, end))) {
         return -1;
      }
      n -= v;
      break;
   default:
      return -1;
   }
   if (n > end - v) {
      return -1;
   }
   e->next = v + n;
   return 1;
}

static lab_hash_t doc_digest (const uint8_t *raw, uint32_t len);

/* field_hash -- F of element e of raw: its bytes, or for a document or array its type, name and NUL
 * seeding the hash of its digest. */
static inline lab_hash_t
field_hash (const uint8_t *raw, const elem_t *e)
{
   lab_hash_t r = { 0, 0 };

   if (e->type == BSON_TYPE_DOCUMENT || e->type == BSON_TYPE_ARRAY) {
      lab_hash_t sub = doc_digest (raw + e->val, e->next - e->val);
      uint64_t b[2] = { sub.lo, sub.hi };
      XXH128_hash_t h = XXH3_128bits_withSeed (b, sizeof b, XXH3_64bits (raw + e->off, e->val - e->off));

      r.lo = h.low64;
      r.hi = h.high64;
   } else {
      sum_add (&r, raw + e->off, e->next - e->off);
   }
   return r;
}

/* corrupt_digest -- bytes that do not walk as BSON: hashed whole, never silently dropped. */
static lab_hash_t
corrupt_digest (const uint8_t *raw, uint32_t len)
{
   XXH128_hash_t h = XXH3_128bits_withSeed (raw, len, CORRUPT_SEED);
   lab_hash_t r = { h.low64, h.high64 };

   return digest_of (r);
}

/* doc_digest -- the digest of the document raw[0..len) (a row, or a value inside one). */
static lab_hash_t
doc_digest (const uint8_t *raw, uint32_t len)
{
   lab_hash_t sum = { 0, 0 };
   elem_t e = { .next = 4 };
   int rc;

   if (len < 5 || (uint32_t)le32 (raw, 0) != len) {
      return corrupt_digest (raw, len);
   }
   while ((rc = elem_next (raw, len, &e)) == 1) {
      lab_hash_add (&sum, field_hash (raw, &e));
   }
   return rc == 0 ? digest_of (sum) : corrupt_digest (raw, len);
}

/* lab_row_hash -- the digest of the row's fields. */
lab_hash_t
lab_row_hash (const bson_t *row)
{
   return doc_digest (bson_get_data (row), row->len);
}

/* One hoisted field of a folded document, ready for hashing: its name and its F. */
struct hoisted_s {
   const char *key;
   uint32_t klen;
   lab_hash_t f;
};

/* hoisted_fields -- each hoisted field of doc (hs[0..nh)) with its F, computed once per document. */
static hoisted_t *
hoisted_fields (const bson_t *doc, const range_t *hs, size_t nh)
{
   hoisted_t *hf = bson_malloc0 ((nh ? nh : 1) * sizeof *hf);
   const uint8_t *raw = bson_get_data (doc);

   for (size_t i = 0; i < nh; i++) {
      elem_t e = { .next = hs[i].off };
      /* the document was walked by libbson already: its elements walk */
      BSON_ASSERT (elem_next (raw, doc->len, &e) == 1);
      hf[i].key = (const char *)raw + hs[i].off + 1;
      hf[i].klen = hs[i].len;
      hf[i].f = field_hash (raw, &e);
   }
   return hf;
}

/* unfold_hash -- lab_row_hash of the row lab_fold_unfold would build from element `elem` of a document
 * and the document's hoisted fields hf[0..nh) (those the element lacks join its own), without building
 * it: the element's fields' sum, plus every hoisted field's F but those whose name the element has. */
static lab_hash_t
unfold_hash (const uint8_t *edata, uint32_t elen, const hoisted_t *hf, size_t nh)
{
   lab_hash_t sum = { 0, 0 };
   uint64_t seen = 0; /* bit i: the element has hoisted field i (the first 64; past them, looked up) */
   uint64_t lens = 0; /* bit n % 64: a hoisted name is n bytes long */
   elem_t e = { .next = 4 };
   bson_iter_t e2;
   size_t i;
   int rc;

   if (elen < 5 || (uint32_t)le32 (edata, 0) != elen) {
      return corrupt_digest (edata, elen); /* as lab_row_hash would hash it */
   }
   for (i = 0; i < nh && i < 64; i++) {
      lens |= 1ull << (hf[i].klen & 63);
   }
   while ((rc = elem_next (edata, elen, &e)) == 1) {
      /* the name ends where the value starts (its NUL between them) */
      uint32_t klen = e.val - e.key - 1;

      lab_hash_add (&sum, field_hash (edata, &e));
      if (!(lens >> (klen & 63) & 1)) {
         continue; /* no hoisted name is this long */
      }
      for (i = 0; i < nh && i < 64; i++) {
         if (hf[i].klen == klen && memcmp (hf[i].key, edata + e.key, klen) == 0) {
            seen |= 1ull << i;
            break;
         }
      }
   }
   if (rc != 0) {
      return corrupt_digest (edata, elen);
   }
   for (i = 0; i < nh; i++) {
      bool has = i < 64 ? ((seen >> i) & 1) != 0
                        : bson_iter_init_from_data (&e2, edata, elen) &&
                             bson_iter_find_w_len (&e2, hf[i].key, (int)hf[i].klen);
      if (!has) {
         lab_hash_add (&sum, hf[i].f);
      }
   }
   return digest_of (sum);
}

void
lab_hash_add (lab_hash_t *acc, lab_hash_t h)
{
   acc->lo += h.lo;
   acc->hi += h.hi;
}

/* ---- hoist sampler ------------------------------------------------------------------------------ */

typedef struct {
   char *name;
   bool alive;
} cand_t;

struct lab_hoist_sampler {
   char *key;
   char *array_field;
   int64_t max_masters;
   int64_t masters;
   bool multi_seen; /* some master had two rows or more */
   bool started;
   bool full;
   cand_t *cands;
   size_t ncands;
   bson_t *first; /* first row of the current master */
   size_t cur_rows;
};

lab_hoist_sampler_t *
lab_hoist_sampler_new (const char *key, const char *array_field, int64_t max_masters)
{
   lab_hoist_sampler_t *s = bson_malloc0 (sizeof *s);

   s->key = bson_strdup (key);
   s->array_field = bson_strdup (array_field);
   s->max_masters = max_masters > 0 ? max_masters : 1;
   return s;
}

/* lab_hoist_sampler_push -- candidates die when a row lacks them or a master disagrees on them. */
bool
lab_hoist_sampler_push (lab_hoist_sampler_t *s, const bson_t *row)
{
   bson_iter_t it, fi, ki;
   size_t i;
   const char *name;
   bool new_master;

   if (s->full) {
      return false;
   }
   if (!bson_iter_init_find (&ki, row, s->key)) {
      return true;
   }
   if (!s->started) {
      BSON_ASSERT (bson_iter_init (&it, row));
      while (bson_iter_next (&it)) {
         name = bson_iter_key (&it);
         if (!name_plain (name) || strcmp (name, s->key) == 0 || name_reserved (name, s->array_field)) {
            continue;
         }
         s->cands = bson_realloc (s->cands, (s->ncands + 1) * sizeof *s->cands);
         s->cands[s->ncands].name = bson_strdup (name);
         s->cands[s->ncands].alive = true;
         s->ncands++;
      }
      s->started = true;
   }
   new_master = true;
   if (s->first) {
      BSON_ASSERT (bson_iter_init_find (&fi, s->first, s->key));
      new_master = lab_store_value_compare (bson_iter_value (&ki), bson_iter_value (&fi)) != 0;
   }
   if (new_master) {
      if (s->masters == s->max_masters) {
         s->full = true;
         return false;
      }
      s->masters++;
      bson_destroy (s->first);
      s->first = bson_copy (row);
      s->cur_rows = 0;
   }
   s->cur_rows++;
   if (s->cur_rows == 2) {
      s->multi_seen = true;
   }
   for (i = 0; i < s->ncands; i++) {
      if (!s->cands[i].alive) {
         continue;
      }
      if (!bson_iter_init_find (&it, row, s->cands[i].name)) {
         s->cands[i].alive = false;
         continue;
      }
      if (!new_master) {
         BSON_ASSERT (bson_iter_init_find (&fi, s->first, s->cands[i].name));
         if (it.next_off - it.off != fi.next_off - fi.off ||
             memcmp (it.raw + it.off, fi.raw + fi.off, it.next_off - it.off) != 0) {
            s->cands[i].alive = false;
         }
      }
   }
   return true;
}

void
lab_hoist_sampler_result (lab_hoist_sampler_t *s, char ***fields, size_t *nfields, int64_t *nmasters)
{
   size_t i, n = 0;

   *fields = bson_malloc0 ((s->ncands + 1) * sizeof (char *));
   for (i = 0; s->multi_seen && i < s->ncands; i++) {
      if (s->cands[i].alive) {
         (*fields)[n++] = bson_strdup (s->cands[i].name);
      }
   }
   if (nfields) {
      *nfields = n;
   }
   if (nmasters) {
      *nmasters = s->masters;
   }
}

void
lab_hoist_sampler_destroy (lab_hoist_sampler_t *s)
{
   size_t i;

   if (!s) {
      return;
   }
   for (i = 0; i < s->ncands; i++) {
      bson_free (s->cands[i].name);
   }
   bson_free (s->cands);
   bson_destroy (s->first);
   bson_free (s->key);
   bson_free (s->array_field);
   bson_free (s);
}
