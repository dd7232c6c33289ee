/*
 * wl_mix_stream.c -- the user's mix, its pure parts (wl_mix.h): the --mix value, the counts per type, the
 * interleaved stream drawn from the seed.
 */
#include "scan/hash.h"
#include "scan/wl_mix.h"

#include "core/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MIX_MAX_WEIGHT 1000000

/* mix_bad -- a usage error about one part of the --mix value. */
static bool
mix_bad (bson_error_t *error, const char *part, const char *why)
{
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "--mix: '%s': %s", part, why);
   return false;
}

/* parse_part -- one TYPE=WEIGHT of the value into weight[]. */
static bool
parse_part (const char *tok, int64_t *weight, bson_error_t *error)
{
   const char *eq = strchr (tok, '=');
   char name[64], *end = NULL;
   long long v;
   int k;

   if (!eq || eq == tok || (size_t)(eq - tok) >= sizeof name) {
      return mix_bad (error, tok, "give TYPE=WEIGHT, e.g. load=5,row=60,range=5,append=25,update=5");
   }
   memcpy (name, tok, (size_t)(eq - tok));
   name[eq - tok] = '\0';
   if (strcmp (name, "aggregate") == 0) {
      return mix_bad (error, tok,
                      "one aggregate is a scan of the whole collection; measure it alone with --workload "
                      "aggregate");
   }
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      if ((LAB_MIX_TYPES & (1u << k)) && strcmp (name, lab_scan_wl_name ((lab_scan_wl_kind_t)k)) == 0) {
         break;
      }
   }
   if (k == LAB_WL_NKINDS) {
      return mix_bad (error, tok, "unknown type (give load, row, range, append, update)");
   }
   if (weight[k] >= 0) {
      return mix_bad (error, tok, "type given twice");
   }
   errno = 0;
   v = strtoll (eq + 1, &end, 10);
   if (!eq[1] || *end || errno || v < 0 || v > MIX_MAX_WEIGHT || eq[1] == '-' || eq[1] == '+') {
      return mix_bad (error, tok, "the weight must be a whole number from 0 to 1000000");
   }
   weight[k] = v;
   return true;
}

/* lab_scan_mix_parse -- see wl_mix.h. */
bool
lab_scan_mix_parse (const char *s, int64_t *weight, bson_error_t *error)
{
   char *copy = bson_strdup (s), *save = NULL, *tok;
   int64_t w[LAB_WL_NKINDS], sum = 0;
   bool ok = true;
   int k;

   for (k = 0; k < LAB_WL_NKINDS; k++) {
      w[k] = -1; /* not given */
   }
   for (tok = strtok_r (copy, ",", &save); tok && ok; tok = strtok_r (NULL, ",", &save)) {
      ok = parse_part (tok, w, error);
   }
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      w[k] = w[k] < 0 ? 0 : w[k];
      sum += w[k];
   }
   if (ok && sum == 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--mix: '%s': no weight above 0 (give e.g. load=5,row=60,range=5,append=25,update=5)",
                     s);
      ok = false;
   }
   bson_free (copy);
   if (ok) {
      memcpy (weight, w, sizeof w);
   }
   return ok;
}

/* lab_scan_mix_parse_opt -- see wl_mix.h. */
bool
lab_scan_mix_parse_opt (const char *value, void *field, const char *name, bson_error_t *error)
{
   (void)name;
   return lab_scan_mix_parse (value, field, error);
}

/* lab_scan_mix_on -- see wl_mix.h. */
bool
lab_scan_mix_on (const lab_scan_opts_t *o)
{
   int k;

   for (k = 0; k < LAB_WL_NKINDS; k++) {
      if (o->wl.mix_weight[k] > 0) {
         return true;
      }
   }
   return false;
}

/* lab_scan_mix_spec_text -- see wl_mix.h. */
void
lab_scan_mix_spec_text (const int64_t *weight, char *buf, size_t len)
{
   size_t at = 0;
   int k;

   buf[0] = '\0';
   for (k = 0; k < LAB_WL_NKINDS && at < len; k++) {
      if (weight[k] > 0) {
         at += (size_t)bson_snprintf (buf + at, len - at, "%s%s=%lld", at ? "," : "",
                                      lab_scan_wl_name ((lab_scan_wl_kind_t)k), (long long)weight[k]);
      }
   }
}

/* lab_scan_mix_counts -- see wl_mix.h (largest remainders; weights <= 1e6 and n <= 1e9 keep n w in 64
 * bits). */
void
lab_scan_mix_counts (const int64_t *weight, int64_t n, int64_t *count)
{
   int64_t sum = 0, given = 0, rem[LAB_WL_NKINDS];
   int k;

   for (k = 0; k < LAB_WL_NKINDS; k++) {
      sum += weight[k];
   }
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      count[k] = sum > 0 ? n * weight[k] / sum : 0;
      rem[k] = sum > 0 ? n * weight[k] % sum : 0;
      given += count[k];
   }
   while (sum > 0 && given < n) {
      int best = -1;
      for (k = 0; k < LAB_WL_NKINDS; k++) {
         if (weight[k] > 0 && rem[k] >= 0 && (best < 0 || rem[k] > rem[best])) {
            best = k;
         }
      }
      count[best]++;
      rem[best] = -1; /* one extra each at most */
      given++;
   }
}

/* lab_scan_mix_stream_make -- see wl_mix.h. */
void
lab_scan_mix_stream_make (const int64_t *weight, int64_t n, uint64_t seed, lab_scan_mix_stream_t *s)
{
   uint64_t rng = seed ^ 0x6d69787374726dull; /* "mixstrm" */
   int64_t i, at = 0, seen[LAB_WL_NKINDS] = { 0 };
   int k;

   memset (s, 0, sizeof *s);
   s->n = n;
   s->type = bson_malloc0 ((size_t)n + 1);
   s->index = bson_malloc0 (((size_t)n + 1) * sizeof *s->index);
   lab_scan_mix_counts (weight, n, s->count);
   for (k = 0; k < LAB_WL_NKINDS; k++) {
      for (i = 0; i < s->count[k]; i++) {
         s->type[at++] = (uint8_t)k;
      }
   }
   for (i = n - 1; i > 0; i--) {
      int64_t j = (int64_t)(lab_scan_rand64 (&rng) % (uint64_t)(i + 1));
      uint8_t t = s->type[i];
      s->type[i] = s->type[j];
      s->type[j] = t;
   }
   for (i = 0; i < n; i++) {
      s->index[i] = seen[s->type[i]]++;
   }
}

/* lab_scan_mix_stream_cleanup -- see wl_mix.h. */
void
lab_scan_mix_stream_cleanup (lab_scan_mix_stream_t *s)
{
   bson_free (s->type);
   bson_free (s->index);
   memset (s, 0, sizeof *s);
}
