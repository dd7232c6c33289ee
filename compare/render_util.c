/*
 * render_util.c -- what every part of the Markdown report shares (render_private.h): the layouts' headings
 * and collections, the tool and backend names, how cold the runs were, a cache point and ratio in words.
 */
#include <strings.h>
#include <time.h>

#include "compare/render_private.h"

/* lab_cmp_classic_pair -- see render_private.h. */
bool
lab_cmp_classic_pair (const lab_results_layouts_t *ls)
{
   return ls->n == 2 && ls->reference == 0 && strcmp (ls->l[0].name, LAB_RESULTS_DETAIL) == 0 &&
          strcmp (ls->l[1].name, LAB_RESULTS_FOLDED) == 0;
}

/* lab_cmp_layout_heading -- see render_private.h. */
const char *
lab_cmp_layout_heading (const lab_results_layouts_t *ls, size_t i)
{
   return lab_cmp_classic_pair (ls) && i == 0 ? "one doc per row (detail)" : ls->l[i].name;
}

/* md_name_version -- "name version", either part left out when absent, "n/a" when both are; a version
 * that repeats the name and carries a build date (WiredTiger's own string, which older results files
 * hold: "WiredTiger 3.2.1: (August 27, 2019)") is shown as its number. */
static void
md_name_version (bson_string_t *o, const char *n, const char *v)
{
   char *tidy = NULL;

   if (n && v && strncasecmp (v, n, strlen (n)) == 0 && v[strlen (n)] == ' ') {
      const char *num = v + strlen (n) + 1;
      tidy = bson_strndup (num, strcspn (num, ":"));
      v = tidy;
   }
   if (!n && !v) {
      bson_string_append (o, "n/a");
      return;
   }
   if (n) {
      lab_cmp_md_text (o, n);
   }
   if (n && v) {
      bson_string_append (o, " ");
   }
   if (v) {
      lab_cmp_md_text (o, v);
   }
   bson_free (tidy);
}

/* lab_cmp_md_backend -- see render_private.h. */
void
lab_cmp_md_backend (bson_string_t *o, const bson_t *doc)
{
   md_name_version (o, lab_results_get_string (doc, "backend.name"),
                    lab_results_get_string (doc, "backend.version"));
}

/* lab_cmp_md_tool -- see render_private.h. */
void
lab_cmp_md_tool (bson_string_t *o, const bson_t *doc)
{
   md_name_version (o, lab_results_get_string (doc, "tool"),
                    lab_results_header (doc, LAB_RESULTS_KEY_VERSION));
}

/* lab_cmp_collection_name -- see render_private.h. */
const char *
lab_cmp_collection_name (const lab_cmp_results_t *r, const char *layout)
{
   char path[64];
   const char *s = NULL;
   lab_results_layouts_t ls;
   int l;

   lab_results_layouts (&r->doc, &ls);
   if ((l = lab_results_layout_find (&ls, layout)) >= 0) {
      s = ls.l[l].collection;
   }
   if (!s) {
      snprintf (path, sizeof path, "dataset.%s.collection", layout);
      s = lab_results_get_string (&r->doc, path);
   }
   if (!s) {
      snprintf (path, sizeof path, "config.%s", layout);
      s = lab_results_get_string (&r->doc, path);
   }
   return s;
}

/* lab_cmp_gather_cold -- see render_private.h. */
lab_cmp_cold_facts_t
lab_cmp_gather_cold (const lab_cmp_results_t *r)
{
   lab_cmp_cold_facts_t c = { 0 };
   int i, n = lab_cmp_runs_n (r);
   bson_t run;
   bool b;
   double v;

   for (i = 0; i < n; i++) {
      if (!lab_cmp_run_get (r, i, &run)) {
         continue;
      }
      c.runs++;
      if (lab_results_get_bool (&run, "cold.requested", &b) && b &&
          lab_results_get_bool (&run, "cold.started_cold", &b) && !b) {
         if (c.not_cold++ == 0) {
            c.not_cold_why = lab_results_get_string (&run, "cold.reason");
         }
      }
      if (lab_results_get_bool (&run, "cold.caches_dropped", &b)) {
         c.drop_known++;
         c.dropped += b;
      }
      if (lab_results_get_bool (&run, "cold.engine_restarted", &b)) {
         c.engine_restarted += b;
      }
      if (lab_results_get_bool (&run, "cold.server_restarted", &b)) {
         c.server_restarted += b;
      }
      if (lab_results_get_number (&run, "cold.resident_pct_before", &v)) {
         if (!c.resident_known || v > c.resident_max_pct) {
            c.resident_max_pct = v;
         }
         c.resident_known = true;
      }
   }
   return c;
}

/* lab_cmp_md_all_runs -- see render_private.h. */
void
lab_cmp_md_all_runs (bson_string_t *o, int n, bool start)
{
   if (n == 1) {
      bson_string_append (o, start ? "The one run" : "the one run");
   } else if (n == 2) {
      bson_string_append (o, start ? "Both runs" : "both runs");
   } else {
      bson_string_append_printf (o, "%s %d runs", start ? "All" : "all", n);
   }
}

/* lab_cmp_md_ratio -- see render_private.h. */
void
lab_cmp_md_ratio (bson_string_t *o, double ratio)
{
   if (ratio < 1.0 && ratio >= 0.995) {
      /* "1.00" would put a cache that rereads on the wrong side of 1 */
      bson_string_append_printf (o, "%.4g", floor (ratio * 1000.0) / 1000.0);
   } else {
      bson_string_append_printf (o, ratio >= 0.095 ? "%.2f" : "%.2g", ratio);
   }
}

/* lab_cmp_md_point -- see render_private.h. */
void
lab_cmp_md_point (bson_string_t *o, const lab_sweep_point_t *p)
{
   lab_cmp_md_number (o, LAB_CMP_BINARY, p->cache_size_bytes);
   bson_string_append (o, ", ratio ");
   lab_cmp_md_ratio (o, p->cache_ratio);
}

/* lab_cmp_md_cache_over_note -- see render_private.h. */
void
lab_cmp_md_cache_over_note (bson_string_t *o, double pct)
{
   bson_string_append_printf (o,
                              "An engine cache used at %.0f%% of its maximum is not a measuring error: "
                              "WiredTiger's cache size is the level its eviction works to keep memory "
                              "under, not a hard cap, and the pages being read in and those the workers' "
                              "cursors hold cannot be evicted meanwhile, so a cache this small runs over "
                              "it.",
                              pct);
}

/* lab_cmp_md_production_given -- see render_private.h. */
void
lab_cmp_md_production_given (bson_string_t *o, const lab_cmp_production_t *prod)
{
   lab_cmp_md_ratio (o, prod->ratio);
   if (prod->cache_bytes > 0 && prod->data_bytes > 0) {
      bson_string_append (o, " = ");
      lab_cmp_md_number (o, LAB_CMP_BINARY, prod->cache_bytes);
      bson_string_append (o, " of cache ÷ ");
      lab_cmp_md_number (o, LAB_CMP_BINARY, prod->data_bytes);
      bson_string_append (o, " of detail data and indexes");
   }
}

/* lab_cmp_run_counts -- see render_private.h. */
bool
lab_cmp_run_counts (const lab_cmp_results_t *r, const lab_results_layouts_t *ls, int *counts, int *n1)
{
   size_t i;
   bool same = true;

   for (i = 0; i < ls->n; i++) {
      counts[i] = lab_cmp_run_count (r, ls->l[i].name);
      same = same && counts[i] == counts[0];
   }
   *n1 = counts[0];
   return same;
}

/* lab_cmp_md_code -- see render_private.h. */
void
lab_cmp_md_code (bson_string_t *o, const char *s)
{
   if (s && *s && !strpbrk (s, "`|\n\r")) {
      bson_string_append_printf (o, "`%s`", s);
   } else {
      lab_cmp_md_text (o, s);
   }
}

/* lab_cmp_md_known -- see render_private.h. */
void
lab_cmp_md_known (bson_string_t *o, lab_cmp_form_t form, double v)
{
   if (v < 0) {
      bson_string_append (o, "n/a");
   } else {
      lab_cmp_md_number (o, form, v);
   }
}

/* md_scalar -- one scalar value in prose; false for a document, an array or another type. */
static bool
md_scalar (bson_string_t *o, const bson_iter_t *it)
{
   if (BSON_ITER_HOLDS_UTF8 (it)) {
      lab_cmp_md_text (o, bson_iter_utf8 (it, NULL));
   } else if (BSON_ITER_HOLDS_BOOL (it)) {
      bson_string_append (o, bson_iter_bool (it) ? "yes" : "no");
   } else if (BSON_ITER_HOLDS_INT32 (it) || BSON_ITER_HOLDS_INT64 (it)) {
      lab_cmp_md_number (o, LAB_CMP_COUNT, (double)bson_iter_as_int64 (it));
   } else if (BSON_ITER_HOLDS_DOUBLE (it)) {
      bson_string_append_printf (o, "%.15g", bson_iter_double (it));
   } else if (BSON_ITER_HOLDS_DATE_TIME (it)) {
      char when[40];
      time_t t = (time_t)(bson_iter_date_time (it) / 1000);
      struct tm tm;
      gmtime_r (&t, &tm);
      strftime (when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
      bson_string_append (o, when);
   } else {
      return false;
   }
   return true;
}

/* lab_cmp_md_value -- see render_private.h. */
void
lab_cmp_md_value (bson_string_t *o, const bson_iter_t *it)
{
   bson_iter_t a;
   uint32_t n = 0, k = 0;

   if (md_scalar (o, it)) {
      return;
   }
   if (BSON_ITER_HOLDS_ARRAY (it) && bson_iter_recurse (it, &a)) {
      bson_iter_t c = a;
      while (bson_iter_next (&c)) {
         n++;
      }
      if (n == 0) {
         bson_string_append (o, "none");
         return;
      }
      bson_string_append (o, "(");
      while (bson_iter_next (&a)) {
         /* up to 8 items in full; more as the first, an ellipsis and the last, with the count */
         if (n > 8 && k == 1) {
            bson_string_append_printf (o, ", ... %u values ...", n);
         }
         if (n <= 8 || k == 0 || k == n - 1) {
            bson_string_append (o, k ? ", " : "");
            if (!md_scalar (o, &a)) {
               bson_string_append (o, "(a document)");
            }
         }
         k++;
      }
      bson_string_append (o, ")");
      return;
   }
   bson_string_append (o, BSON_ITER_HOLDS_DOCUMENT (it) ? "(a document)" : "(a value of another type)");
}
