/*
 * gen_params.c -- the generator's parameters (defaults, parsing, names), the string key and the presets
 * (see gen.h). It knows nothing of the generator's state: gen.c uses it, never the other way.
 */
#include "datasets/gen.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* ---- parameters -------------------------------------------------------------------------------- */

void
lab_gen_params_init (lab_gen_params_t *p)
{
   memset (p, 0, sizeof *p);
   p->seed = 1;
   p->bills = 1000;
   p->mean_rows = 130.0;
   p->dist = LAB_GEN_LOGNORMAL;
   p->max_rows = 10000;
   p->order = LAB_GEN_INTERLEAVED;
   p->oversize = 0;
   p->key = "bill_id";
   p->open_bills = 1000;
   p->start_ms = 1672531200000ll; /* 2023-01-01T00:00:00Z */
}

static const char *const DIST_NAMES[] = { "lognormal", "zipf", "uniform", "fixed" };
static const char *const ORDER_NAMES[] = { "interleaved", "clustered" };

bool
lab_gen_dist_parse (const char *s, lab_gen_dist_t *out)
{
   for (size_t i = 0; i < (sizeof DIST_NAMES / sizeof DIST_NAMES[0]); i++) {
      if (strcmp (s, DIST_NAMES[i]) == 0) {
         *out = (lab_gen_dist_t)i;
         return true;
      }
   }
   return false;
}

bool
lab_gen_order_parse (const char *s, lab_gen_order_t *out)
{
   for (size_t i = 0; i < (sizeof ORDER_NAMES / sizeof ORDER_NAMES[0]); i++) {
      if (strcmp (s, ORDER_NAMES[i]) == 0) {
         *out = (lab_gen_order_t)i;
         return true;
      }
   }
   return false;
}

const char *
lab_gen_dist_name (lab_gen_dist_t d)
{
   return (unsigned)d < (sizeof DIST_NAMES / sizeof DIST_NAMES[0]) ? DIST_NAMES[d] : "?";
}

const char *
lab_gen_order_name (lab_gen_order_t o)
{
   return (unsigned)o < (sizeof ORDER_NAMES / sizeof ORDER_NAMES[0]) ? ORDER_NAMES[o] : "?";
}

bool
lab_gen_seed_parse (const char *s, uint64_t *out, bson_error_t *error)
{
   char *end = NULL;
   int base = 10;
   const char *digits = s;

   if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      base = 16;
      digits = s + 2;
   }
   if (!*digits || *digits == '-' || *digits == '+' || *digits == ' ') {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--seed: '%s' is not a number (decimal or 0x-hex, 0..2^64-1)", s);
      return false;
   }
   errno = 0;
   unsigned long long v = strtoull (digits, &end, base);
   if (errno || *end) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--seed: '%s' is not a number (decimal or 0x-hex, 0..2^64-1)", s);
      return false;
   }
   *out = (uint64_t)v;
   return true;
}

/* ---- presets ----------------------------------------------------------------------------------- */

void
lab_gen_key_string (int64_t bill_id, char *buf, size_t len)
{
   bson_snprintf (buf, len, "ZY%012" PRId64, bill_id);
}

bool
lab_gen_preset_apply (lab_gen_params_t *p, const char *name, double scale, bson_error_t *error)
{
   if (strcmp (name, "seed") != 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--preset: '%s' is not a preset (known: seed)", name);
      return false;
   }
   if (!(scale > 0.0) || scale > 100.0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--scale %g must be above 0 and at most 100 (1 is the original's size)", scale);
      return false;
   }
   int64_t masters = llround ((double)LAB_GEN_SEED_MASTERS * scale);
   int64_t rows = llround ((double)LAB_GEN_SEED_ROWS * scale);
   if (masters < 1 || rows <= masters) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--scale %g leaves %" PRId64 " masters and %" PRId64
                     " rows: at least one master and more rows than masters are needed (use a scale of at "
                     "least 0.00001)",
                     scale, masters, rows);
      return false;
   }
   p->bills = masters;
   p->total_rows = rows;
   p->mean_rows = (double)rows / (double)masters;
   p->dist = LAB_GEN_LOGNORMAL;
   p->oversize = 0;
   p->key = LAB_GEN_SEED_KEY;
   p->key_type = LAB_GEN_KEY_STRING;
   return true;
}
