/*
 * wt_index_entry.c -- an index entry of the embedded store's in-memory catalog: its key pattern set and
 * freed, and mongod's default name for it. Below the catalog (wt_catalog.c) and the collector of a load's
 * index keys (wt_collect.c), which both keep entries.
 */
#include "wt_private.h"

#include <string.h>

/* lab_wt_index_unset -- free an index entry's strings. */
void
lab_wt_index_unset (wt_index_t *ix)
{
   int i;

   for (i = 0; i < ix->nfields; i++) {
      bson_free (ix->fields[i]);
   }
   bson_free (ix->ident);
   bson_free (ix->uri);
   memset (ix, 0, sizeof *ix);
}

/* lab_wt_index_set_spec -- fill an index entry of key pattern fields[0..n) (strings copied). */
void
lab_wt_index_set_spec (wt_index_t *ix, const char *const *fields, int n, bool multikey, const char *ident)
{
   int i;

   memset (ix, 0, sizeof *ix);
   for (i = 0; i < n && i < LAB_STORE_INDEX_MAX_FIELDS; i++) {
      ix->fields[i] = bson_strdup (fields[i]);
   }
   ix->nfields = i;
   ix->field = ix->fields[0];
   ix->multikey = multikey;
   ix->ident = bson_strdup (ident);
   ix->uri = bson_strdup_printf ("table:%s", ident);
}

/* lab_wt_index_set -- fill a single-field index entry (strings copied). */
void
lab_wt_index_set (wt_index_t *ix, const char *field, const char *ident)
{
   lab_wt_index_set_spec (ix, &field, 1, false, ident);
}

/* lab_wt_index_name -- mongod's default name of the index's key pattern. */
void
lab_wt_index_name (const wt_index_t *ix, char *buf, size_t len)
{
   lab_store_index_spec_t spec = { { NULL }, ix->nfields };
   int i;

   for (i = 0; i < ix->nfields; i++) {
      spec.fields[i] = ix->fields[i];
   }
   lab_store_index_spec_name (&spec, buf, len);
}
