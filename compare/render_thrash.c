/*
 * render_thrash.c -- whether the writes ran in an engine cache smaller than a layout's indexes (a cache that
 * thrashes: every insert evicts index pages the next one needs), and the note that says so under the
 * ledger; the recommendation marks each write factor measured so.
 */
#include "compare/render_private.h"

/* lab_cmp_writes_thrash -- see render_private.h. */
bool
lab_cmp_writes_thrash (const lab_cmp_results_t *r, const char *layout, double *cache, double *indexes)
{
   char path[256];

   snprintf (path, sizeof path, LAB_RESULTS_KEY_DATASET ".%s.index_size_bytes", layout);
   return lab_results_get_number (&r->doc, "config.cache_size_bytes", cache) && *cache > 0 &&
          lab_results_get_number (&r->doc, path, indexes) && *indexes > *cache;
}

/* lab_cmp_render_thrash_note -- see render_private.h. */
void
lab_cmp_render_thrash_note (bson_string_t *o, const lab_cmp_results_t *r, const lab_cmp_workloads_t *wl)
{
   lab_results_layouts_t ls;
   double cache = 0, ix;
   size_t i, l, k = 0, n = 0;
   bool writes = false;

   for (i = 0; i < wl->n; i++) {
      writes = writes || lab_cmp_wl_is_write (wl->w[i].workload);
   }
   lab_results_layouts (&r->doc, &ls);
   for (l = 0; writes && l < ls.n; l++) {
      n += lab_cmp_writes_thrash (r, ls.l[l].name, &cache, &ix);
   }
   for (l = 0; writes && l < ls.n; l++) {
      if (!lab_cmp_writes_thrash (r, ls.l[l].name, &cache, &ix)) {
         continue;
      }
      if (k++ == 0) {
         bson_string_append (o, "**The writes ran in a cache that thrashes**: the engine cache of ");
         lab_cmp_md_number (o, LAB_CMP_BINARY, cache);
         bson_string_append (o, " is smaller than the indexes of ");
      } else {
         bson_string_append (o, k == n ? " and " : ", ");
      }
      lab_cmp_md_text (o, ls.l[l].name);
      bson_string_append (o, " (");
      lab_cmp_md_number (o, LAB_CMP_BYTES, ix);
      bson_string_append (o, ")");
   }
   if (k > 0) {
      bson_string_append (o, ": every write evicts index pages the next one needs again, so the append and "
                             "update factors say how the layouts behave under that pressure, not at a cache "
                             "that holds the indexes.\n\n");
   }
}
