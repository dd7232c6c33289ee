/*
 * mix_explain.c -- why the user's mix measured as one stream differs from its estimate from the separate
 * workloads: per layout, the op types whose time in the stream exceeds (or falls short of) what they cost
 * alone, each with its cost per op both ways, and the bytes the stream read against the estimate's. The
 * estimate prices every type as measured alone from its own start; in one stream the types share the
 * cache, the disk and the CPU, so a type that costs more per op there was slowed by the others. Said on
 * page one when the two name different winners or one is far off, and in full under the estimate's table.
 */
#include "compare/render_private.h"

#include <math.h>

/* How far off (the estimate's elapsed over the measured, minus 1) page one explains without a winner
 * change: the estimate's own documented error on the demo data is within this for the layouts whose
 * cache state the separate runs share. */
#define MIX_EXPLAIN_FAR 0.25
/* The types named per layout: the largest contributions to the difference, at most this many. */
#define MIX_EXPLAIN_TYPES 3

/* One layout's difference: the op time of each type in the stream and estimated (LAB_CMP_WL_UNKNOWN
 * when either is unknown), and their sums over the known types. */
typedef struct {
   double diff[LAB_CMP_MIX_TYPES];
   double measured_s, estimated_s;
   bool known;
} explain_t;

/* explain_of -- the per-type differences of measured layout `ml` against estimated layout `el`. */
static explain_t
explain_of (const lab_cmp_mix_layout_t *ml, const lab_cmp_mix_layout_t *el)
{
   explain_t x = { { 0 }, 0, 0, false };
   int t;

   for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
      const lab_cmp_mix_op_t *a = &ml->by_type[t], *b = &el->by_type[t];

      x.diff[t] = LAB_CMP_WL_UNKNOWN;
      if (a->ops <= 0 || b->ops <= 0 || a->time_s < 0 || b->time_s < 0) {
         continue;
      }
      x.diff[t] = a->time_s - b->time_s;
      x.measured_s += a->time_s;
      x.estimated_s += b->time_s;
      x.known = true;
   }
   return x;
}

/* md_per_op -- "6.60 ms per op in the stream against 0.224 ms alone (29.5x)" for type t. */
static void
md_per_op (bson_string_t *o, const lab_cmp_mix_op_t *a, const lab_cmp_mix_op_t *b)
{
   double pa = 1e3 * a->time_s / a->ops, pb = 1e3 * b->time_s / b->ops;

   lab_cmp_md_number (o, LAB_CMP_MS, pa);
   bson_string_append (o, " per op in the stream against ");
   lab_cmp_md_number (o, LAB_CMP_MS, pb);
   bson_string_append (o, " alone");
   if (pa > 0 && pb > 0) {
      bson_string_append (o, ", ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, pa >= pb ? pa / pb : pb / pa);
      bson_string_append (o, pa >= pb ? " as much" : " less");
   }
}

/* md_types -- the types that made the difference, largest first: full, "append (+15.9 s: 6.60 ms per op in
 * the stream against 0.224 ms alone, 29.5x as much)"; brief, "append 29.5x per op". */
static void
md_types (bson_string_t *o, const lab_cmp_mix_layout_t *ml, const lab_cmp_mix_layout_t *el,
          const explain_t *x, bool brief)
{
   bool used[LAB_CMP_MIX_TYPES] = { false };
   double total = x->measured_s - x->estimated_s;
   int n, t, best;

   for (n = 0; n < MIX_EXPLAIN_TYPES; n++) {
      best = -1;
      for (t = 0; t < LAB_CMP_MIX_TYPES; t++) {
         /* the types moving the total its way, largest first; one under a tenth of the total is noise */
         if (!used[t] && x->diff[t] != LAB_CMP_WL_UNKNOWN && x->diff[t] * total > 0 &&
             fabs (x->diff[t]) >= 0.1 * fabs (total) &&
             (best < 0 || fabs (x->diff[t]) > fabs (x->diff[best]))) {
            best = t;
         }
      }
      if (best < 0) {
         break;
      }
      used[best] = true;
      bson_string_append (o, n == 0  ? (brief       ? " ("
                                        : total > 0 ? "; most of the difference: "
                                                    : "; most of the saving: ")
                             : brief ? ", "
                                     : "; ");
      bson_string_append (o, lab_cmp_mix_type_names[best]);
      if (brief) {
         const lab_cmp_mix_op_t *a = &ml->by_type[best], *b = &el->by_type[best];

         bson_string_append (o, " ");
         lab_cmp_md_number (o, LAB_CMP_FACTOR, (a->time_s / a->ops) / (b->time_s / b->ops));
         bson_string_append (o, n == 0 ? " per op" : "");
         continue;
      }
      bson_string_append (o, " (");
      bson_string_append (o, x->diff[best] > 0 ? "+" : "-");
      lab_cmp_md_number (o, LAB_CMP_SECONDS, fabs (x->diff[best]));
      bson_string_append (o, ": ");
      md_per_op (o, &ml->by_type[best], &el->by_type[best]);
      bson_string_append (o, ")");
   }
   if (brief && n > 0) {
      bson_string_append (o, ")");
   }
}

/* md_layout -- one layout's account: brief, "detail's ops took 3.50x their estimated time (append 29.5x per
 * op, load 2.11x)"; full, its ops' time both ways, the types that made the difference and the bytes read
 * both ways. */
static void
md_layout (bson_string_t *o, const lab_cmp_mix_layout_t *ml, const lab_cmp_mix_layout_t *el,
           const explain_t *x, bool brief)
{
   lab_cmp_md_text (o, ml->layout);
   if (brief) {
      bson_string_append (o, "'s ops took ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, x->estimated_s > 0 ? x->measured_s / x->estimated_s : 0);
      bson_string_append (o, " their estimated time");
      md_types (o, ml, el, x, true);
      return;
   }
   bson_string_append (o, "'s operations took ");
   lab_cmp_md_number (o, LAB_CMP_SECONDS, x->measured_s);
   bson_string_append (o, " in all in the stream against ");
   lab_cmp_md_number (o, LAB_CMP_SECONDS, x->estimated_s);
   bson_string_append (o, " estimated");
   md_types (o, ml, el, x, false);
   if (ml->disk_read_bytes > 0 && el->disk_read_bytes > 0) {
      bson_string_append (o, "; it read ");
      lab_cmp_md_number (o, LAB_CMP_FACTOR, ml->disk_read_bytes / el->disk_read_bytes);
      bson_string_append (o, " the bytes the separate runs did (");
      lab_cmp_md_number (o, LAB_CMP_BYTES, ml->disk_read_bytes);
      bson_string_append (o, " against ");
      lab_cmp_md_number (o, LAB_CMP_BYTES, el->disk_read_bytes);
      bson_string_append (o, ")");
   }
}

/* far_off -- whether the estimate of layout i is off by more than MIX_EXPLAIN_FAR. */
static bool
far_off (const lab_cmp_mix_t *m, const lab_cmp_mix_t *e, size_t i)
{
   int k = lab_cmp_mix_layout_find (e, m->layouts[i].layout);

   return k >= 0 && m->layouts[i].elapsed_s > 0 && e->layouts[k].elapsed_s >= 0 &&
          fabs (e->layouts[k].elapsed_s / m->layouts[i].elapsed_s - 1.0) > MIX_EXPLAIN_FAR;
}

/* lab_cmp_mix_explain_needed -- see render_private.h. */
bool
lab_cmp_mix_explain_needed (const lab_cmp_mix_t *m, const lab_cmp_mix_t *e)
{
   size_t i;

   if (!m || !e || !m->present || !e->present || m->estimated || !e->estimated || m->n_layouts == 0 ||
       e->n_layouts == 0) {
      return false;
   }
   if (m->winner < m->n_layouts && e->winner < e->n_layouts && !m->tie &&
       strcmp (m->layouts[m->winner].layout, e->layouts[e->winner].layout) != 0) {
      return true;
   }
   for (i = 0; i < m->n_layouts; i++) {
      if (far_off (m, e, i)) {
         return true;
      }
   }
   return false;
}

/* lab_cmp_mix_explain -- see render_private.h. */
void
lab_cmp_mix_explain (bson_string_t *o, const lab_cmp_mix_t *m, const lab_cmp_mix_t *e, bool brief)
{
   size_t i, n = 0;
   bool differ;

   if (!lab_cmp_mix_explain_needed (m, e)) {
      return;
   }
   differ = m->winner < m->n_layouts && e->winner < e->n_layouts && !m->tie &&
            strcmp (m->layouts[m->winner].layout, e->layouts[e->winner].layout) != 0;
   if (differ) {
      bson_string_append (o, "The estimate from the separate runs named ");
      lab_cmp_md_text (o, e->layouts[e->winner].layout);
      bson_string_append (o, ", the stream ");
      lab_cmp_md_text (o, m->layouts[m->winner].layout);
      bson_string_append (o, brief ? ": " : ".");
   } else {
      bson_string_append (o, brief ? "The stream differs from the estimate from the separate runs: "
                                   : "Where the estimate from the separate runs went wrong:");
   }
   if (!brief) {
      bson_string_append (o, "\n\n");
   }
   for (i = 0; i < m->n_layouts; i++) {
      int k = lab_cmp_mix_layout_find (e, m->layouts[i].layout);
      explain_t x;

      /* page one: the two winners, else the layouts far off; the section: every layout */
      if (k < 0 || (brief && (differ ? i != m->winner &&
                                          strcmp (m->layouts[i].layout, e->layouts[e->winner].layout) != 0
                                     : !far_off (m, e, i)))) {
         continue;
      }
      x = explain_of (&m->layouts[i], &e->layouts[k]);
      if (!x.known) {
         continue;
      }
      bson_string_append (o, brief ? (n ? ", " : "in the stream ") : "- ");
      md_layout (o, &m->layouts[i], &e->layouts[k], &x, brief);
      bson_string_append (o, brief ? "" : ".\n");
      n++;
   }
   if (n == 0) {
      bson_string_append (o, brief ? "the files do not record each type's time both ways."
                                   : "the files do not record each type's time both ways.\n\n");
      return;
   }
   bson_string_append (o, brief ? ": there the types share the engine cache, the disk and the CPU." : "\n");
   if (!brief) {
      bson_string_append (o, "Each type alone started from its own state; in the stream the types share the "
                             "engine cache, the disk and the CPU, so a type costing more per op there was "
                             "slowed by the others (pages the reads evicted, the writes' journal and "
                             "checkpoints): the measured stream is the one to trust.\n\n");
   }
}
