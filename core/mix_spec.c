/*
 * mix_spec.c -- the workloads' names and the one grammar of a mix spec and a workload list (mix_spec.h).
 */
#include "core/mix_spec.h"

#include "core/error.h"

#include <stdlib.h>
#include <string.h>

#define SPEC_EXAMPLE "load=5,row=60,range=5,append=25,update=5"
#define SPEC_TYPES "load, row, range, append, update"

static const char *const kind_names[LAB_MIX_SPEC_NKINDS] = { "load",      "row",    "range",
                                                             "aggregate", "append", "update" };

/* lab_mix_spec_name -- see mix_spec.h. */
const char *
lab_mix_spec_name (int k)
{
   return k >= 0 && k < LAB_MIX_SPEC_NKINDS ? kind_names[k] : "?";
}

/* lab_mix_spec_kind_of -- see mix_spec.h. */
int
lab_mix_spec_kind_of (const char *s, size_t len)
{
   int k;

   for (k = 0; k < LAB_MIX_SPEC_NKINDS; k++) {
      if (strlen (kind_names[k]) == len && strncmp (s, kind_names[k], len) == 0) {
         return k;
      }
   }
   return -1;
}

/* item_bad -- a usage error about item `pos` (1-based, `len` bytes at `item`) of `spec` given to `opt`. */
static bool
item_bad (bson_error_t *error, const char *opt, const char *spec, int pos, const char *item, size_t len,
          const char *why)
{
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "%s '%s': item %d '%.*s': %s", opt, spec,
                  pos, (int)len, item, why);
   return false;
}

/* weight_parse -- the len bytes at s as a weight: digits, an optional '.' and digits, at most
 * LAB_MIX_SPEC_MAX_WEIGHT. */
static bool
weight_parse (const char *s, size_t len, double *w)
{
   char num[64];
   size_t i = 0, digits = 0;

   if (len == 0 || len >= sizeof num) {
      return false;
   }
   while (i < len && s[i] >= '0' && s[i] <= '9') {
      i++;
   }
   if (i == 0) {
      return false;
   }
   if (i < len && s[i] == '.') {
      for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
         digits++;
      }
      if (digits == 0) {
         return false;
      }
   }
   if (i != len) {
      return false;
   }
   memcpy (num, s, len);
   num[len] = '\0';
   *w = strtod (num, NULL);
   return *w <= LAB_MIX_SPEC_MAX_WEIGHT;
}

/* item_parse -- item `pos` of spec (len bytes at p) into weight[], refusing what mix_spec.h says. */
static bool
item_parse (const char *opt, const char *spec, int pos, const char *p, size_t n, double *weight, bool *seen,
            bson_error_t *error)
{
   const char *eq = memchr (p, '=', n);
   char why[160];
   double w;
   int k;

   if (n == 0) {
      return item_bad (error, opt, spec, pos, p, n, "empty (a comma too many?)");
   }
   if (!eq || eq == p) {
      return item_bad (error, opt, spec, pos, p, n, "not TYPE=WEIGHT (e.g. " SPEC_EXAMPLE ")");
   }
   k = lab_mix_spec_kind_of (p, (size_t)(eq - p));
   if (k == LAB_MIX_SPEC_AGGREGATE) {
      return item_bad (error, opt, spec, pos, p, n,
                       "one aggregate is a scan of the whole collection; measure it alone with --workload "
                       "aggregate");
   }
   if (k < 0) {
      bson_snprintf (why, sizeof why, "unknown type '%.*s' (types: " SPEC_TYPES ")", (int)(eq - p), p);
      return item_bad (error, opt, spec, pos, p, n, why);
   }
   if (seen[k]) {
      bson_snprintf (why, sizeof why, "'%s' is given twice", kind_names[k]);
      return item_bad (error, opt, spec, pos, p, n, why);
   }
   if (!weight_parse (eq + 1, n - (size_t)(eq - p) - 1, &w)) {
      bson_snprintf (why, sizeof why, "the weight of %s must be a number from 0 to 1000000 (e.g. 5 or 0.5)",
                     kind_names[k]);
      return item_bad (error, opt, spec, pos, p, n, why);
   }
   seen[k] = true;
   weight[k] = w;
   return true;
}

/* lab_mix_spec_parse -- see mix_spec.h. */
bool
lab_mix_spec_parse (const char *opt, const char *spec, double weight[LAB_MIX_SPEC_NKINDS],
                    bson_error_t *error)
{
   double w[LAB_MIX_SPEC_NKINDS] = { 0 }, sum = 0;
   bool seen[LAB_MIX_SPEC_NKINDS] = { false };
   const char *p = spec ? spec : "";
   int pos = 1, k;

   if (!*p) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s '': empty spec; give the proportions of the op types, e.g. " SPEC_EXAMPLE, opt);
      return false;
   }
   for (;; pos++) {
      size_t n = strcspn (p, ",");
      if (!item_parse (opt, spec, pos, p, n, w, seen, error)) {
         return false;
      }
      if (!p[n]) {
         break;
      }
      p += n + 1;
   }
   for (k = 0; k < LAB_MIX_SPEC_NKINDS; k++) {
      sum += w[k];
   }
   if (!(sum > 0)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s '%s': every weight is 0; give at least one type a weight above 0 (e.g. " SPEC_EXAMPLE
                     ")",
                     opt, spec);
      return false;
   }
   memcpy (weight, w, sizeof w);
   return true;
}

/* lab_mix_spec_text -- see mix_spec.h. */
void
lab_mix_spec_text (const double weight[LAB_MIX_SPEC_NKINDS], char *buf, size_t len)
{
   size_t at = 0;
   int k;

   buf[0] = '\0';
   for (k = 0; k < LAB_MIX_SPEC_NKINDS && at < len; k++) {
      char num[32];
      int prec;

      if (!(weight[k] > 0)) {
         continue;
      }
      /* the fewest decimals that read back as the same double (weights are at most 1e6): 0.1 stays "0.1",
       * 1000000 stays whole, as the grammar writes them (no exponent) */
      for (prec = 0; prec < 17; prec++) {
         bson_snprintf (num, sizeof num, "%.*f", prec, weight[k]);
         if (strtod (num, NULL) == weight[k]) {
            break;
         }
      }
      at += (size_t)bson_snprintf (buf + at, len - at, "%s%s=%s", at ? "," : "", kind_names[k], num);
   }
}

/* lab_mix_spec_list_parse -- see mix_spec.h. */
bool
lab_mix_spec_list_parse (const char *opt, const char *s, unsigned *set, bson_error_t *error)
{
   const char *p = s ? s : "";
   unsigned out = 0;
   int pos = 1, k;

   if (!*p) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s: empty (give e.g. load,row,range,aggregate)", opt);
      return false;
   }
   for (;; pos++) {
      size_t n = strcspn (p, ",");
      unsigned bit = 0;

      if (n == 3 && strncmp (p, "all", 3) == 0) {
         bit = LAB_MIX_SPEC_READS;
      } else if ((k = lab_mix_spec_kind_of (p, n)) >= 0) {
         bit = 1u << k;
      }
      if (n == 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "%s '%s': item %d is empty (give e.g. load,row,range,aggregate)", opt, s, pos);
         return false;
      }
      if (!bit) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "%s '%s': item %d: unknown workload '%.*s' (give a comma-separated subset of "
                        "load,row,range,aggregate,append,update, or all)",
                        opt, s, pos, (int)n, p);
         return false;
      }
      if (out & bit) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "%s '%s': item %d: '%.*s' given twice", opt, s, pos, (int)n, p);
         return false;
      }
      out |= bit;
      if (!p[n]) {
         break;
      }
      p += n + 1;
   }
   *set = out;
   return true;
}
