/*
 * cmp.c -- layout-report's access to the runs[] of a results file (counts, the median run, whether both
 * layouts matched the same keys and returned the same rows), Markdown escaping, the one table-driven
 * helper that appends a formatted number (lab_cmp_md_number) and the production point's options. The metrics,
 * medians, ratios, winners and number formatting are core/results.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "compare/cmp.h"
#include "core/error.h"
#include "core/cli.h"
#include "core/opts.h"
#include "core/suggest.h"

/* runs_iter -- an iterator positioned before runs[0]. */
static bool
runs_iter (const lab_cmp_results_t *r, bson_iter_t *runs)
{
   bson_iter_t it;

   return bson_iter_init_find (&it, &r->doc, LAB_RESULTS_KEY_RUNS) && BSON_ITER_HOLDS_ARRAY (&it) &&
          bson_iter_recurse (&it, runs);
}

/* lab_cmp_runs_n -- see cmp.h. */
int
lab_cmp_runs_n (const lab_cmp_results_t *r)
{
   bson_iter_t runs;
   int n = 0;

   if (runs_iter (r, &runs)) {
      while (bson_iter_next (&runs)) {
         n++;
      }
   }
   return n;
}

/* lab_cmp_run_get -- see cmp.h. */
bool
lab_cmp_run_get (const lab_cmp_results_t *r, int i, bson_t *run)
{
   bson_iter_t runs;
   const uint8_t *data;
   uint32_t len;
   int k = 0;

   if (!runs_iter (r, &runs)) {
      return false;
   }
   while (bson_iter_next (&runs)) {
      if (k++ == i) {
         if (!BSON_ITER_HOLDS_DOCUMENT (&runs)) {
            return false;
         }
         bson_iter_document (&runs, &len, &data);
         return bson_init_static (run, data, len);
      }
   }
   return false;
}

/* run_is -- true when the run entry's layout is `layout`. */
static bool
run_is (const bson_t *run, const char *layout)
{
   const char *l = lab_results_get_string (run, LAB_RESULTS_KEY_LAYOUT);

   return l && strcmp (l, layout) == 0;
}

/* lab_cmp_run_count -- see cmp.h. */
int
lab_cmp_run_count (const lab_cmp_results_t *r, const char *layout)
{
   int i, n = lab_cmp_runs_n (r), c = 0;
   bson_t run;

   for (i = 0; i < n; i++) {
      if (lab_cmp_run_get (r, i, &run) && run_is (&run, layout)) {
         c++;
      }
   }
   return c;
}

/* lab_cmp_median_run -- see cmp.h. */
int
lab_cmp_median_run (const lab_cmp_results_t *r, const char *layout)
{
   int i, n = lab_cmp_runs_n (r), c = 0, j, k;
   int *idx = bson_malloc0 (sizeof (int) * (size_t)(n + 1));
   double *el = bson_malloc0 (sizeof (double) * (size_t)(n + 1));
   bson_t run;
   int best;

   for (i = 0; i < n; i++) {
      double v = 0;
      if (lab_cmp_run_get (r, i, &run) && run_is (&run, layout)) {
         lab_results_get_number (&run, "elapsed_s", &v);
         /* insertion sort by elapsed, stable on file order */
         for (j = c; j > 0 && el[j - 1] > v; j--) {
            el[j] = el[j - 1];
            idx[j] = idx[j - 1];
         }
         el[j] = v;
         idx[j] = i;
         c++;
      }
   }
   k = (c - 1) / 2;
   best = c ? idx[k] : -1;
   bson_free (idx);
   bson_free (el);
   return best;
}

/* run_layout -- the index in *ls of run entry `run`'s layout, or -1. */
static int
run_layout (const bson_t *run, const lab_results_layouts_t *ls)
{
   const char *name = lab_results_get_string (run, LAB_RESULTS_KEY_LAYOUT);

   return name ? lab_results_layout_find (ls, name) : -1;
}

/* lab_cmp_match_of -- see cmp.h. */
void
lab_cmp_match_of (const lab_cmp_results_t *r, lab_cmp_match_t *m)
{
   int i, j, n = lab_cmp_runs_n (r);
   double keys;
   bson_t a, b;
   lab_results_layouts_t ls;
   size_t k;

   memset (m, 0, sizeof *m);
   lab_results_layouts (&r->doc, &ls);
   m->n = ls.n;
   m->reference = ls.reference;
   for (k = 0; k < ls.n; k++) {
      m->names[k] = ls.l[k].name;
      m->first_differ_rows[k] = -1;
   }
   m->keys = lab_results_get_number (&r->doc, "dataset.keys", &keys) ? (int64_t)llround (keys) : -1;
   for (i = 0; i < n; i++) {
      int64_t v, run, rows[LAB_RESULTS_MAX_LAYOUTS];
      bool paired = false, differ = false;
      int l;

      if (!lab_cmp_run_get (r, i, &a) || (l = run_layout (&a, &ls)) < 0) {
         continue;
      }
      if (m->keys < 0 && lab_results_get_int (&a, "keys", &v)) {
         m->keys = v;
      }
      if (lab_results_get_int (&a, "keys_unmatched", &v)) {
         if (!m->has_unmatched[l] || v < m->unmatched_min[l]) {
            m->unmatched_min[l] = v;
         }
         if (!m->has_unmatched[l] || v > m->unmatched_max[l]) {
            m->unmatched_max[l] = v;
         }
         m->has_unmatched[l] = true;
      }
      /* pair each reference entry with every other layout's entry of the same run number */
      if ((size_t)l != ls.reference || !lab_results_get_int (&a, "run", &run) ||
          !lab_results_get_int (&a, "rows", &rows[l])) {
         continue;
      }
      for (k = 0; k < ls.n; k++) {
         if (k != (size_t)l) {
            rows[k] = -1;
         }
      }
      for (j = 0; j < n; j++) {
         int64_t rb, rw;
         int lb;
         if (lab_cmp_run_get (r, j, &b) && (lb = run_layout (&b, &ls)) >= 0 && lb != l && rows[lb] < 0 &&
             lab_results_get_int (&b, "run", &rb) && rb == run && lab_results_get_int (&b, "rows", &rw)) {
            rows[lb] = rw;
            paired = true;
            differ = differ || rw != rows[l];
         }
      }
      if (!paired) {
         continue;
      }
      m->row_pairs++;
      if (differ && m->rows_differ++ == 0) {
         m->first_differ_run = (int)run;
         for (k = 0; k < ls.n; k++) {
            m->first_differ_rows[k] = rows[k];
         }
      }
   }
}

/* lab_cmp_match_partial -- see cmp.h. */
bool
lab_cmp_match_partial (const lab_cmp_match_t *m)
{
   size_t l;

   for (l = 0; l < m->n; l++) {
      if (m->has_unmatched[l] && m->unmatched_max[l] > 0) {
         return true;
      }
   }
   return false;
}

/* lab_cmp_match_json_append -- see cmp.h. */
void
lab_cmp_match_json_append (const lab_cmp_match_t *m, bson_t *out)
{
   bson_t md, un;
   size_t l;

   BSON_APPEND_DOCUMENT_BEGIN (out, "match", &md);
   if (m->keys >= 0) {
      BSON_APPEND_INT64 (&md, "keys", m->keys);
   }
   BSON_APPEND_DOCUMENT_BEGIN (&md, "keys_unmatched", &un);
   for (l = 0; l < m->n; l++) {
      if (m->has_unmatched[l]) {
         BSON_APPEND_INT64 (&un, m->names[l], m->unmatched_max[l]);
      }
   }
   bson_append_document_end (&md, &un);
   BSON_APPEND_INT32 (&md, "row_pairs", m->row_pairs);
   BSON_APPEND_INT32 (&md, "rows_differ_runs", m->rows_differ);
   bson_append_document_end (out, &md);
}

/* lab_cmp_md_text -- see cmp.h. */
void
lab_cmp_md_text (bson_string_t *o, const char *s)
{
   char *e = lab_cmp_md_escape (s);

   bson_string_append (o, e);
   bson_free (e);
}

/* lab_cmp_md_number -- see cmp.h. The catalogue's units go to lab_results_format; the report's own forms each
 * have their formatter here. */
void
lab_cmp_md_number (bson_string_t *o, lab_cmp_form_t form, double v)
{
   static char *(*const formatter[]) (double) = {
      [LAB_CMP_FACTOR] = lab_results_format_factor,
      [LAB_CMP_RATIO_PCT] = lab_results_format_ratio,
      [LAB_CMP_BINARY] = lab_results_format_binary,
   };
   char *s = formatter[form] ? formatter[form](v) : lab_results_format ((lab_unit_t)form, v);

   bson_string_append (o, s);
   bson_free (s);
}

/* lab_cmp_md_stat -- see cmp.h. */
void
lab_cmp_md_stat (bson_string_t *o, lab_unit_t unit, const lab_stat_t *s, bool range)
{
   char *t = lab_results_format_stat (unit, s, range);

   bson_string_append (o, t);
   bson_free (t);
}

/* lab_cmp_md_engine_disk -- see cmp.h. */
void
lab_cmp_md_engine_disk (bson_string_t *o, const lab_sweep_point_t *p, const char *layout)
{
   char *e = lab_cmp_md_escape (layout);

   lab_results_app_engine_disk (o, p, e);
   bson_free (e);
}

/* lab_cmp_md_escape -- see cmp.h. */
char *
lab_cmp_md_escape (const char *s)
{
   bson_string_t *out;
   const char *p;

   if (!s) {
      return bson_strdup ("n/a");
   }
   out = bson_string_new (NULL);
   for (p = s; *p; p++) {
      unsigned char c = (unsigned char)*p;
      /* an underscore inside a word (bill_detail, r_await, x86_64) can neither open nor close emphasis
       * (CommonMark: "_" flanked by alphanumerics on both sides is literal): left as it is, so the
       * report also reads plainly in a terminal */
      bool intraword = c == '_' && p > s && isalnum ((unsigned char)p[-1]) && isalnum ((unsigned char)p[1]);
      if (c == '\n' || c == '\r' || c == '\t' || c < 0x20) {
         bson_string_append_c (out, ' ');
      } else if (!intraword && strchr ("\\`*_{}[]<>#!|~&", c)) {
         bson_string_append_c (out, '\\');
         bson_string_append_c (out, (char)c);
      } else {
         bson_string_append_c (out, (char)c);
      }
   }
   return bson_string_free (out, false);
}

/* lab_cmp_production_parse -- see cmp.h. */
bool
lab_cmp_production_parse (const char *ratio, const char *cache, const char *data, lab_cmp_production_t *out,
                          bson_error_t *error)
{
   uint64_t cache_bytes, data_bytes;
   char *end = NULL;

   memset (out, 0, sizeof *out);
   if (ratio && (cache || data)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "give either --production-cache-ratio or --production-cache with --production-data, "
                     "not both");
      return false;
   }
   if (!cache != !data) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISSING,
                     "%s needs %s too: the production ratio is the engine cache ÷ the detail layout's data "
                     "and indexes on disk (or give --production-cache-ratio R)",
                     cache ? "--production-cache" : "--production-data",
                     cache ? "--production-data" : "--production-cache");
      return false;
   }
   if (ratio) {
      errno = 0;
      out->ratio = strtod (ratio, &end);
      if (end == ratio || *end != '\0' || errno != 0 || !(out->ratio > 0) || !isfinite (out->ratio)) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                        "--production-cache-ratio: '%s' is not a ratio above 0 (e.g. 0.25: the cache holds a "
                        "quarter of the detail data and indexes)",
                        ratio);
         out->ratio = 0;
         return false;
      }
   } else if (cache) {
      if (!lab_parse_size (cache, "--production-cache", &cache_bytes, error) ||
          !lab_parse_size (data, "--production-data", &data_bytes, error)) {
         return false;
      }
      if (cache_bytes == 0 || data_bytes == 0) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE, "%s: the size must be above 0",
                        cache_bytes == 0 ? "--production-cache" : "--production-data");
         return false;
      }
      out->cache_bytes = (double)cache_bytes;
      out->data_bytes = (double)data_bytes;
      out->ratio = out->cache_bytes / out->data_bytes;
   }
   return true;
}

/* lab_cmp_md_suggest -- see cmp.h. */
void
lab_cmp_md_suggest (bson_string_t *o, const lab_cmp_results_t *r, const char *tool, const char *args)
{
   const char *uri = r ? lab_results_get_string (&r->doc, "backend.uri") : NULL;
   char *cmd = lab_suggest_command (tool, uri ? uri : "URI",
                                    r ? lab_results_get_string (&r->doc, "backend.db") : NULL, args);

   bson_string_append (o, "`");
   bson_string_append (o, cmd);
   bson_string_append (o, "`");
   bson_free (cmd);
}

/* coll_of -- layout i's collection, else its name. */
static const char *
coll_of (const lab_results_layouts_t *ls, size_t i)
{
   return ls->l[i].collection ? ls->l[i].collection : ls->l[i].name;
}

/* lab_cmp_md_suggest_verify -- see cmp.h. */
void
lab_cmp_md_suggest_verify (bson_string_t *o, const lab_cmp_results_t *r)
{
   lab_results_layouts_t ls;
   bson_string_t *args = bson_string_new ("--src ");
   size_t i, cand;

   lab_results_layouts (&r->doc, &ls);
   /* the layout named folded, else the first folded one, else the first that is not the reference */
   cand = ls.n;
   for (i = 0; i < ls.n && cand == ls.n; i++) {
      cand = i != ls.reference && strcmp (ls.l[i].name, LAB_RESULTS_FOLDED) == 0 ? i : ls.n;
   }
   for (i = 0; i < ls.n && cand == ls.n; i++) {
      cand = i != ls.reference && lab_layout_one_doc_per_master (&ls.l[i].desc) ? i : ls.n;
   }
   for (i = 0; i < ls.n && cand == ls.n; i++) {
      cand = i != ls.reference ? i : ls.n;
   }
   lab_cli_shell_quote (args, coll_of (&ls, ls.reference));
   if (cand < ls.n) {
      bson_string_append (args, " --dst ");
      lab_cli_shell_quote (args, coll_of (&ls, cand));
   }
   bson_string_append (args, " --verify");
   lab_cmp_md_suggest (o, r, "fold-details", args->str);
   bson_string_free (args, true);
}

/* lab_cmp_md_suggest_scan -- see cmp.h. */
void
lab_cmp_md_suggest_scan (bson_string_t *o, const lab_cmp_results_t *r, const char *args)
{
   lab_results_layouts_t ls;
   bson_string_t *a = bson_string_new (NULL);
   size_t i;

   lab_results_layouts (&r->doc, &ls);
   if (ls.n == 2 && strcmp (ls.l[ls.reference].name, LAB_RESULTS_DETAIL) == 0 &&
       strcmp (ls.l[1 - ls.reference].name, LAB_RESULTS_FOLDED) == 0) {
      bson_string_append (a, "--detail ");
      lab_cli_shell_quote (a, coll_of (&ls, ls.reference));
      bson_string_append (a, " --folded ");
      lab_cli_shell_quote (a, coll_of (&ls, 1 - ls.reference));
   } else {
      for (i = 0; i < ls.n; i++) {
         char *one = bson_strdup_printf ("%s=%s:%s", ls.l[i].name, coll_of (&ls, i),
                                         ls.l[i].kind ? ls.l[i].kind : LAB_RESULTS_KIND_ROWS);
         bson_string_append (a, i ? " --layout " : "--layout ");
         lab_cli_shell_quote (a, one);
         bson_free (one);
      }
   }
   bson_string_append (a, " ");
   bson_string_append (a, args);
   lab_cmp_md_suggest (o, r, "scancmp", a->str);
   bson_string_free (a, true);
}
