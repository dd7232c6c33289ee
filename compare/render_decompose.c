/*
 * render_decompose.c -- "The speedup taken apart": when a results file holds the rows in their
 * arrival order (a rows layout written by billgen or any other writer), the same rows in key order (a rows
 * layout fold-details wrote with --shape sorted or clustered: its provenance says so) and a folded layout,
 * the load speedup of folding splits exactly into two factors, per cache point: natural -> key order is
 * what locality alone gives (the documents unchanged, only where they sit), key order -> folded what fewer,
 * larger documents give (fewer index entries, fetches and per-document work). The read requests, bytes
 * read and CPU of the three say which of the two each factor comes from. Without a key-ordered rows layout
 * the section is a note saying how to measure one.
 */
#include "compare/render_private.h"
#include "core/cli.h"

/* The three layouts the split needs (-1: none in the file). */
typedef struct {
   int natural; /* rows in arrival order */
   int keyed;   /* rows in key order */
   int folded;  /* one document per master */
   int also;    /* a second rows layout in key order (e.g. clustered beside sorted) */
   const char *keyed_shape, *also_shape;
} roles_t;

/* roles_of -- from the layouts' descriptors (core/layout.h; an older file's: its kinds, its provenance,
 * layouts[].order "key"): the first rows layout in arrival order, the first in key order, the first folded
 * one. The shape named is fold-details --shape's, or "key" for rows a writer that did not say how put in
 * key order. */
static roles_t
roles_of (const lab_results_layouts_t *ls)
{
   roles_t ro = { -1, -1, -1, -1, NULL, NULL };
   const char *shape;
   size_t l;

   for (l = 0; l < ls->n; l++) {
      const lab_layout_t *d = &ls->l[l].desc;
      if (lab_layout_one_doc_per_master (d) && ro.folded < 0) {
         ro.folded = (int)l;
      }
      if (!lab_layout_reads_rows (d)) {
         continue;
      }
      shape = !lab_layout_key_contiguous (d) ? NULL : d->recorded ? lab_layout_shape_name (d->shape) : "key";
      if (shape && ro.keyed < 0) {
         ro.keyed = (int)l;
         ro.keyed_shape = shape;
      } else if (shape && ro.also < 0) {
         ro.also = (int)l;
         ro.also_shape = shape;
      } else if (!shape && ro.natural < 0) {
         ro.natural = (int)l;
      }
   }
   return ro;
}

/* median_of -- the median of metric `name` for `layout` in `doc` (a results document or a sweep point);
 * false when no run has it. */
static bool
median_of (const bson_t *doc, const char *layout, const char *name, double *v)
{
   const lab_metric_t *m = lab_results_metric_find (name);
   lab_stat_t s;

   if (!m) {
      return false;
   }
   s = lab_results_metric_stat (doc, layout, m);
   *v = s.median;
   return s.present;
}

/* md_three -- "a / b / c" of metric `name` (form of its unit) for the three layouts; "n/a" when any lacks
 * it.
 */
static void
md_three (bson_string_t *o, const bson_t *doc, const char *const names[3], const char *name)
{
   const lab_metric_t *m = lab_results_metric_find (name);
   double v[3];
   int k;

   for (k = 0; k < 3; k++) {
      if (!m || !median_of (doc, names[k], name, &v[k])) {
         bson_string_append (o, "n/a");
         return;
      }
   }
   for (k = 0; k < 3; k++) {
      if (k) {
         bson_string_append (o, " / ");
      }
      lab_cmp_md_number (o, LAB_CMP_UNIT (m->unit), v[k]);
   }
}

/* md_change -- how metric `name` changed from layout a to layout b: "9.80x fewer read requests", "1.20x
 * more CPU", "the same CPU"; nothing (false) when either lacks it or a figure is 0. */
static bool
md_change (bson_string_t *o, const bson_t *doc, const char *a, const char *b, const char *name,
           const char *what, const char *less, const char *more)
{
   double va, vb, f;

   if (!median_of (doc, a, name, &va) || !median_of (doc, b, name, &vb) || va <= 0 || vb <= 0) {
      return false;
   }
   f = va / vb;
   if (f >= 0.995 && f <= 1.005) {
      bson_string_append_printf (o, "the same %s", what);
      return true;
   }
   lab_cmp_md_number (o, LAB_CMP_FACTOR, f >= 1 ? f : 1 / f);
   bson_string_append_printf (o, " %s %s", f >= 1 ? less : more, what);
   return true;
}

/* md_why -- what changed from layout a to b: read requests, bytes read, CPU ("n/a" when none known). */
static void
md_why (bson_string_t *o, const bson_t *doc, const char *a, const char *b)
{
   size_t before = o->len;

   if (md_change (o, doc, a, b, "read_requests", "read requests", "fewer", "more")) {
      bson_string_append (o, ", ");
   }
   if (md_change (o, doc, a, b, "read_bytes", "bytes read", "fewer", "more")) {
      bson_string_append (o, ", ");
   }
   if (md_change (o, doc, a, b, "cpu_process_s", "CPU", "less", "more")) {
      bson_string_append (o, ", ");
   }
   if (o->len == before) {
      bson_string_append (o, "no read or CPU figures");
   } else {
      bson_string_truncate (o, o->len - 2);
   }
}

/* md_pages -- the three layouts' pages per master (scan/measure/locality.c) at point p: "118 / 1.70 / 1.60";
 * "n/a" when a layout's locality was not measured (or `p` is NULL). */
static void
md_pages (bson_string_t *o, const lab_sweep_point_t *p, const char *const names[3])
{
   double v[3];
   size_t k, l;

   for (k = 0; k < 3; k++) {
      for (l = 0; p && l < p->n && strcmp (p->names[l], names[k]) != 0; l++) {
      }
      if (!p || l == p->n || !p->locality[l].present) {
         bson_string_append (o, "n/a");
         return;
      }
      v[k] = p->locality[l].pages_per_master_mean;
   }
   bson_string_append_printf (o, "%.3g / %.3g / %.3g", v[0], v[1], v[2]);
}

/* md_step -- "a → b": one step of the speedup, from layout a to layout b (names escaped). */
static void
md_step (bson_string_t *o, const char *a, const char *b)
{
   lab_cmp_md_text (o, a);
   bson_string_append (o, " → ");
   lab_cmp_md_text (o, b);
}

/* md_also -- into `says`, what the second key-ordered rows layout `also` (e.g. a clustered collection)
 * keeps of the whole speedup with the rows unfolded: "Unfolded, clustered (fold-details --shape clustered)
 * keeps 30.2x of it (detail → clustered)." Nothing when its load time is missing. */
static void
md_also (bson_string_t *says, const bson_t *doc, const char *natural, const char *also, const char *shape,
         double natural_s)
{
   double e;

   if (!also || !median_of (doc, also, "elapsed_s", &e) || e <= 0) {
      return;
   }
   bson_string_append (says, " Unfolded, ");
   lab_cmp_md_text (says, also);
   if (strcmp (shape, "key") != 0) {
      bson_string_append_printf (says, " (fold-details --shape %s)", shape);
   }
   bson_string_append (says, " keeps ");
   lab_cmp_md_number (says, LAB_CMP_FACTOR, natural_s / e);
   bson_string_append (says, " of it (");
   md_step (says, natural, also);
   bson_string_append (says, ").");
}

/* md_point -- one point's line of the table and, into `says`, its sentence; false when a load time is
 * missing (the point is left out). */
static bool
md_point (bson_string_t *o, bson_string_t *says, const bson_t *doc, const lab_sweep_point_t *p,
          const char *const names[3], const roles_t *ro, const lab_results_layouts_t *ls)
{
   double e[3];
   int k;

   for (k = 0; k < 3; k++) {
      if (!median_of (doc, names[k], "elapsed_s", &e[k]) || e[k] <= 0) {
         return false;
      }
   }
   bson_string_append (o, "| ");
   if (p && p->cache_size_bytes > 0) {
      lab_cmp_md_point (o, p);
   } else {
      bson_string_append (o, "this run");
   }
   bson_string_append (o, " | ");
   lab_cmp_md_number (o, LAB_CMP_FACTOR, e[0] / e[2]);
   bson_string_append (o, " | ");
   lab_cmp_md_number (o, LAB_CMP_FACTOR, e[0] / e[1]);
   bson_string_append (o, " | ");
   lab_cmp_md_number (o, LAB_CMP_FACTOR, e[1] / e[2]);
   bson_string_append (o, " | ");
   md_three (o, doc, names, "read_requests");
   bson_string_append (o, " | ");
   md_three (o, doc, names, "read_bytes");
   bson_string_append (o, " | ");
   md_three (o, doc, names, "cpu_process_s");
   bson_string_append (o, " | ");
   md_pages (o, p, names);
   bson_string_append (o, " |\n");

   bson_string_append (says, "- ");
   if (p && p->cache_size_bytes > 0) {
      bson_string_append (says, "At ");
      lab_cmp_md_point (says, p);
      bson_string_append (says, ": of");
   } else {
      bson_string_append (says, "Of");
   }
   bson_string_append (says, " the ");
   lab_cmp_md_number (says, LAB_CMP_FACTOR, e[0] / e[2]);
   bson_string_append (says, ", locality gives ");
   lab_cmp_md_number (says, LAB_CMP_FACTOR, e[0] / e[1]);
   bson_string_append (says, " and fewer, larger documents ");
   lab_cmp_md_number (says, LAB_CMP_FACTOR, e[1] / e[2]);
   bson_string_append (says, ". ");
   md_step (says, names[0], names[1]);
   bson_string_append (says, ": ");
   md_why (says, doc, names[0], names[1]);
   bson_string_append (says, "; ");
   md_step (says, names[1], names[2]);
   bson_string_append (says, ": ");
   md_why (says, doc, names[1], names[2]);
   bson_string_append (says, ".");
   if (ro->also >= 0) {
      md_also (says, doc, names[0], ls->l[ro->also].name, ro->also_shape, e[0]);
   }
   bson_string_append (says, "\n");
   return true;
}

/* lab_cmp_render_decompose -- see render_private.h. */
void
lab_cmp_render_decompose (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_sweep_t *sw)
{
   lab_results_layouts_t ls;
   roles_t ro;
   const char *names[3];
   bson_string_t *says;
   lab_sweep_point_t top;
   size_t i, shown = 0;

   bool predicted = false;

   if (lab_results_get_bool (&r->doc, "predicted", &predicted) && predicted) {
      return; /* a prediction loads nothing: there is no measured speedup to take apart */
   }
   lab_results_layouts (&r->doc, &ls);
   ro = roles_of (&ls);
   if (ro.natural < 0 || ro.folded < 0) {
      return; /* nothing to take apart: no folding measured against rows in arrival order */
   }
   bson_string_append (o, "## The speedup taken apart\n\n");
   if (ro.keyed < 0) {
      bson_string_append (o, "Not measured: no layout holds the rows in key order, so the load speedup of ");
      lab_cmp_md_text (o, ls.l[ro.folded].name);
      bson_string_append (o, " over ");
      lab_cmp_md_text (o, ls.l[ro.natural].name);
      bson_string_append (o,
                          " cannot be split into what locality gives (a master's rows side by side) and what "
                          "fewer, larger documents give. To measure it: ");
      {
         bson_string_t *args = bson_string_new ("--shape sorted --src ");
         lab_cli_shell_quote (args, ls.l[ro.natural].collection ? ls.l[ro.natural].collection
                                                                : ls.l[ro.natural].name);
         bson_string_append (args, " --dst detail_sorted");
         lab_cmp_md_suggest (o, r, "fold-details", args->str);
         bson_string_free (args, true);
      }
      bson_string_append (o, ", then add `--layout sorted=detail_sorted:rows` to scancmp.\n\n");
      return;
   }
   names[0] = ls.l[ro.natural].name;
   names[1] = ls.l[ro.keyed].name;
   names[2] = ls.l[ro.folded].name;
   bson_string_append (o,
                       "Folding changes two things at once: where a master's rows sit and how many documents "
                       "hold them. ");
   lab_cmp_md_text (o, names[1]);
   bson_string_append (o, " holds ");
   lab_cmp_md_text (o, names[0]);
   if (strcmp (ro.keyed_shape, "key") == 0) {
      bson_string_append (o, "'s rows unchanged, one document each, in key order, so ");
   } else {
      bson_string_append_printf (
         o,
         "'s rows unchanged, one document each, in key order (fold-details --shape %s), "
         "so ",
         ro.keyed_shape);
   }
   md_step (o, names[0], names[1]);
   bson_string_append (o,
                       " is what locality alone gives, without changing the application's documents, and ");
   md_step (o, names[1], names[2]);
   bson_string_append (o,
                       " what fewer, larger documents give; the two factors multiply to the whole speedup. "
                       "Load times are medians; the last three columns are ");
   lab_cmp_md_text (o, names[0]);
   bson_string_append (o, " / ");
   lab_cmp_md_text (o, names[1]);
   bson_string_append (o, " / ");
   lab_cmp_md_text (o, names[2]);
   bson_string_append (o, ".\n\n| cache | ");
   md_step (o, names[0], names[2]);
   bson_string_append (o, " | locality (");
   md_step (o, names[0], names[1]);
   bson_string_append (o, ") | fewer documents (");
   md_step (o, names[1], names[2]);
   bson_string_append (
      o, ") | disk read requests | disk bytes read | CPU of the store's process | pages per master |\n"
         "|---|---:|---:|---:|---:|---:|---:|---:|\n");
   says = bson_string_new (NULL);
   if (sw && sw->n > 0) {
      for (i = 0; i < sw->n; i++) {
         shown += md_point (o, says, &sw->p[i].doc, &sw->p[i], names, &ro, &ls) ? 1 : 0;
      }
   } else {
      lab_results_top_point (&r->doc, &top); /* filled in place: it holds a view of itself */
      shown += md_point (o, says, &r->doc, &top, names, &ro, &ls) ? 1 : 0;
   }
   if (shown == 0) {
      bson_string_append (o, "| (no point has all three load times) | | | | | | | |\n");
   }
   bson_string_append (o, "\n");
   bson_string_append (o, says->str);
   if (says->len) {
      bson_string_append (o, "\n");
   }
   bson_string_free (says, true);
}
