/*
 * verify_common.c -- what both methods of --verify share (verify_private.h): one master's figures, the
 * checks of a destination document, and the accounting of a master into the result.
 */
#include "verify_private.h"

#include "core/error.h"
#include "store/keyenc.h"
#include "core/log.h"
#include "retry.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void
lab_fold_verify_group_reset (group_t *g)
{
   if (g->have) {
      bson_value_destroy (&g->key);
   }
   memset (g, 0, sizeof *g);
}

/* lab_fold_verify_key_of -- the key value of doc (null when missing). */
bool
lab_fold_verify_key_of (const bson_t *doc, const char *key, bson_value_t *v)
{
   bson_iter_t it;

   if (bson_iter_init_find (&it, doc, key)) {
      *v = *bson_iter_value (&it);
      return true;
   }
   memset (v, 0, sizeof *v);
   v->value_type = BSON_TYPE_NULL;
   return false;
}

/* dst_row -- one rebuilt row of a bucket-by document: hashed, counted, its date checked against the
 * document's window. */
static bool
dst_row (void *ctx, const bson_t *row, bson_error_t *error)
{
   group_t *g = ctx;
   bson_iter_t it;
   int64_t ms;

   lab_fold_hash_add (&g->hash, lab_fold_row_hash (row));
   g->rows++;
   if (g->bucket_field && !g->bucket_bad[0]) {
      if (!bson_iter_init_find (&it, row, g->bucket_field) || !BSON_ITER_HOLDS_DATE_TIME (&it)) {
         bson_snprintf (g->bucket_bad, sizeof g->bucket_bad,
                        "document _id %s holds a row without a date '%s' (row %lld of the master)", g->doc_id,
                        g->bucket_field, (long long)g->rows);
      } else if ((ms = bson_iter_date_time (&it)) < g->win_lo_ms || ms >= g->win_hi_ms) {
         bson_snprintf (
            g->bucket_bad, sizeof g->bucket_bad,
            "document _id %s holds a row whose '%s' (%lld ms) lies outside its bucket [%lld, %lld)",
            g->doc_id, g->bucket_field, (long long)ms, (long long)g->win_lo_ms, (long long)g->win_hi_ms);
      }
   }
   return true;
}

/* bucket_doc_check -- before unfolding: the document's bucket_start is a date that starts a window. */
static void
bucket_doc_check (group_t *g, const bson_t *doc, lab_fold_bucket_unit_t unit)
{
   bson_iter_t it;
   int64_t start;

   if (!bson_iter_init_find (&it, doc, LAB_FOLD_BUCKET_START) || !BSON_ITER_HOLDS_DATE_TIME (&it)) {
      if (!g->bucket_bad[0]) {
         bson_snprintf (g->bucket_bad, sizeof g->bucket_bad,
                        "document _id %s has no date '%s' (a --bucket-by fold gives every document one)",
                        g->doc_id, LAB_FOLD_BUCKET_START);
      }
      g->win_lo_ms = INT64_MIN;
      g->win_hi_ms = INT64_MAX;
      return;
   }
   start = bson_iter_date_time (&it);
   g->win_lo_ms = lab_fold_bucket_window (start, unit, &g->win_hi_ms);
   if (g->win_lo_ms != start && !g->bucket_bad[0]) {
      bson_snprintf (g->bucket_bad, sizeof g->bucket_bad,
                     "document _id %s: %s %lld ms does not start a %s window", g->doc_id,
                     LAB_FOLD_BUCKET_START, (long long)start, lab_fold_bucket_unit_name (unit));
   }
}

/* doc_size -- a destination document's size into its group: the largest, and the first over the cap
 * named (`what`: "row" in a rows-shaped destination, else "document"). */
static void
doc_size (const lab_fold_verify_opts_t *o, int64_t max, group_t *g, const bson_t *doc, const char *what)
{
   bson_iter_t it;
   char *idt, *kt;

   if ((int64_t)doc->len > g->largest) {
      g->largest = doc->len;
   }
   if ((int64_t)doc->len <= max) {
      return;
   }
   g->oversize++;
   if (!g->oversize_first[0]) {
      idt = bson_iter_init_find (&it, doc, "_id") ? lab_value_to_text (bson_iter_value (&it))
                                                  : bson_strdup ("?");
      kt = lab_value_to_text (&g->key);
      bson_snprintf (g->oversize_first, sizeof g->oversize_first,
                     "master %s=%s: %s _id %s is %u bytes, over the %lld-byte cap", o->target.key, kt, what,
                     idt, doc->len, (long long)max);
      bson_free (idt);
      bson_free (kt);
   }
}

/* dst_row_doc -- a rows-shaped destination (--shape sorted, clustered): the document is one row, hashed
 * whole as the source's rows are (a clustered one with its original _id back: a row whose _id is not a
 * clustered one is hashed as it is and so differs), and counted with parts 0 (lab_fold_verify_dst_finish
 * checks no parts then). */
static bool
dst_row_doc (const lab_fold_verify_opts_t *o, int64_t max, group_t *g, const bson_t *doc)
{
   bson_t orig;

   if (o->target.shape == LAB_FOLD_SHAPE_CLUSTERED && lab_store_clustered_row_orig (doc, &orig)) {
      /* --shape clustered: the row as the source holds it, its original _id back from _id.id */
      lab_fold_hash_add (&g->hash, lab_fold_row_hash (&orig));
      bson_destroy (&orig);
   } else {
      lab_fold_hash_add (&g->hash, lab_fold_row_hash (doc));
   }
   g->rows++;
   g->docs++;
   g->parts = 0;
   doc_size (o, max, g, doc, "row");
   return true;
}

/* lab_fold_verify_dst_doc -- one destination document into its master's group: unfolded rows, parts, sizes,
 * buckets (into the group only: the result takes them when the master is accounted). */
bool
lab_fold_verify_dst_doc (const lab_fold_verify_opts_t *o, const char *bucket_field,
                         lab_fold_bucket_unit_t unit, int64_t max, group_t *g, const bson_t *doc,
                         bson_error_t *error)
{
   lab_fold_doc_info_t info;
   bson_iter_t it;
   char *idt;
   bool unfolded;

   if (lab_fold_shape_rows (o->target.shape)) {
      return dst_row_doc (o, max, g, doc);
   }
   idt = NULL; /* the _id as text only where a bucket message may need it */
   if (bucket_field || o->target.bucket_rows > 0) {
      idt = bson_iter_init_find (&it, doc, "_id") ? lab_value_to_text (bson_iter_value (&it))
                                                  : bson_strdup ("?");
   }
   g->doc_id = idt;
   g->bucket_field = bucket_field;
   if (bucket_field) {
      bucket_doc_check (g, doc, unit);
   }
   if (bucket_field) {
      /* every row's date is checked against the window: the rows are rebuilt */
      unfolded = lab_fold_unfold (doc, o->target.key, o->target.array_field, dst_row, g, &info, error);
   } else {
      /* hashed in place, no row built (what dst_row would add, row by row) */
      unfolded = lab_fold_unfold_hash (doc, o->target.key, o->target.array_field, &g->hash, &info, error);
      g->rows += unfolded ? info.row_count : 0;
   }
   if (unfolded && o->target.bucket_rows > 0 && info.row_count > o->target.bucket_rows && !g->bucket_bad[0]) {
      bson_snprintf (g->bucket_bad, sizeof g->bucket_bad,
                     "document _id %s holds %d rows, over --bucket-rows %d", idt, info.row_count,
                     o->target.bucket_rows);
   }
   g->doc_id = NULL;
   g->bucket_field = NULL;
   bson_free (idt);
   if (!unfolded) {
      lab_error_prefix (error, "'%s'", o->target.dst);
      return false;
   }
   doc_size (o, max, g, doc, "document");
   if (g->docs == 0) {
      g->parts = info.parts;
   } else if (info.parts != g->parts) {
      g->parts_bad = true;
   }
   g->part_mix += lab_fold_verify_part_mix (info.part);
   g->docs++;
   return true;
}

/* lab_fold_verify_part_mix -- a 64-bit mix of a part number (splitmix64's finalizer): sums of these over a
 * master's documents tell "parts 0..n-1, each once" from every other multiset of n part numbers (up to a
 * 2^-64 chance), where their plain sum would not (1+1+1 = 0+1+2). */
uint64_t
lab_fold_verify_part_mix (int32_t part)
{
   uint64_t z = (uint64_t)(uint32_t)part + 0x9E3779B97F4A7C15ull;

   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
   return z ^ (z >> 31);
}

/* lab_fold_verify_parts_ok -- `docs` documents whose parts all say `parts` and whose part numbers mix to
 * `part_mix` are parts 0..parts-1, each once (parts are checked < parts by unfold). */
bool
lab_fold_verify_parts_ok (int64_t docs, int32_t parts, uint64_t part_mix)
{
   uint64_t want = 0;
   int32_t i;

   if (docs != parts) {
      return false;
   }
   for (i = 0; i < parts; i++) {
      want += lab_fold_verify_part_mix (i);
   }
   return want == part_mix;
}

/* lab_fold_verify_dst_finish -- a destination master read to its end: parts 0..parts-1 each once. */
void
lab_fold_verify_dst_finish (group_t *g)
{
   if (g->parts == 0 && g->part_mix == 0) {
      return; /* rows (dst_row_doc): one document per row, no parts; a folded document has parts >= 1 */
   }
   if (!lab_fold_verify_parts_ok (g->docs, g->parts, g->part_mix)) {
      g->parts_bad = true;
   }
}

static int
strp_cmp (const void *a, const void *b)
{
   return strcmp (*(char *const *)a, *(char *const *)b);
}

/* lab_fold_verify_skipped -- the master was rejected by this run (expected absent). */
bool
lab_fold_verify_skipped (const lab_fold_verify_opts_t *o, const bson_value_t *key)
{
   bson_error_t e;
   char *kid;
   bool found;

   if (!o->nskip) {
      return false;
   }
   kid = lab_fold_key_id (key, &e);
   if (!kid) {
      return false;
   }
   found = bsearch (&kid, o->skip_key_ids, o->nskip, sizeof (char *), strp_cmp) != NULL;
   bson_free (kid);
   return found;
}

/* lab_fold_verify_differ -- count a differing master; the first one is described. */
void
lab_fold_verify_differ (lab_fold_verify_result_t *res, const char *keyname, const bson_value_t *key,
                        const char *fmt, ...)
{
   va_list ap;
   char what[512];
   char *kt;

   res->differing_masters++;
   if (res->first_difference[0]) {
      return;
   }
   va_start (ap, fmt);
   bson_vsnprintf (what, sizeof what, fmt, ap);
   va_end (ap);
   kt = lab_value_to_text (key);
   bson_snprintf (res->first_difference, sizeof res->first_difference, "master %s=%s: %s", keyname, kt, what);
   bson_free (kt);
}

/* lab_fold_verify_account_src_only -- a source master with no destination documents: a difference unless
 * skipped.
 */
void
lab_fold_verify_account_src_only (const lab_fold_verify_opts_t *o, const group_t *gs,
                                  lab_fold_verify_result_t *res)
{
   res->src_masters++;
   res->src_rows += gs->rows;
   lab_fold_hash_add (&res->src_hash, gs->hash);
   if (gs->key_missing) {
      lab_fold_verify_differ (res, o->target.key, &gs->key,
                              "%lld source rows have no '%s' field and cannot be in the destination",
                              (long long)gs->rows, o->target.key);
   } else if (lab_fold_verify_skipped (o, &gs->key)) {
      res->skipped_masters++;
   } else {
      lab_fold_verify_differ (res, o->target.key, &gs->key, "%lld source rows, missing from the destination",
                              (long long)gs->rows);
   }
}

/* account_dst_docs -- a destination master's documents: count, largest, over the cap. */
static void
account_dst_docs (const group_t *gd, lab_fold_verify_result_t *res)
{
   res->dst_docs += gd->docs;
   if (gd->largest > res->largest_doc_bytes) {
      res->largest_doc_bytes = gd->largest;
   }
   res->oversize_docs += gd->oversize;
   if (gd->oversize && !res->first_difference[0]) {
      bson_strncpy (res->first_difference, gd->oversize_first, sizeof res->first_difference);
   }
}

/* lab_fold_verify_account_dst_only -- destination documents of a master the source does not have. */
void
lab_fold_verify_account_dst_only (const lab_fold_verify_opts_t *o, const group_t *gd,
                                  lab_fold_verify_result_t *res)
{
   account_dst_docs (gd, res);
   res->dst_masters++;
   res->dst_rows += gd->rows;
   lab_fold_hash_add (&res->dst_hash, gd->hash);
   lab_fold_verify_differ (res, o->target.key, &gd->key, "%lld rows in the destination, none in the source",
                           (long long)gd->rows);
}

/* lab_fold_verify_account_both -- a master on both sides: same rows, same contents, parts numbered once each.
 */
void
lab_fold_verify_account_both (const lab_fold_verify_opts_t *o, const group_t *gs, const group_t *gd,
                              lab_fold_verify_result_t *res)
{
   account_dst_docs (gd, res);
   res->src_masters++;
   res->dst_masters++;
   res->src_rows += gs->rows;
   res->dst_rows += gd->rows;
   lab_fold_hash_add (&res->src_hash, gs->hash);
   lab_fold_hash_add (&res->dst_hash, gd->hash);
   if (gs->rows != gd->rows) {
      lab_fold_verify_differ (res, o->target.key, &gs->key,
                              "%lld rows in the source, %lld in the destination", (long long)gs->rows,
                              (long long)gd->rows);
   } else if (gs->hash.lo != gd->hash.lo || gs->hash.hi != gd->hash.hi) {
      lab_fold_verify_differ (
         res, o->target.key, &gs->key,
         "same %lld rows counted but their contents differ (checksum %016llx%016llx in the source, "
         "%016llx%016llx in the destination)",
         (long long)gs->rows, (unsigned long long)gs->hash.hi, (unsigned long long)gs->hash.lo,
         (unsigned long long)gd->hash.hi, (unsigned long long)gd->hash.lo);
   } else if (gd->parts_bad) {
      lab_fold_verify_differ (res, o->target.key, &gs->key,
                              "its %lld destination documents do not number parts 0..%d once each",
                              (long long)gd->docs, gd->parts - 1);
   } else if (gd->bucket_bad[0]) {
      lab_fold_verify_differ (res, o->target.key, &gs->key, "%s", gd->bucket_bad);
   }
}

/* lab_fold_verify_check -- both collections exist; the document cap in force (*max). */
bool
lab_fold_verify_check (lab_store_t *store, lab_store_session_t *sess, const lab_fold_verify_opts_t *o,
                       int64_t *max, bson_error_t *error)
{
   const char *names[2] = { o->target.src, o->target.dst };
   lab_store_server_info_t info;
   bool exists;
   int i;

   for (i = 0; i < 2; i++) {
      if (!lab_store_exists (sess, names[i], &exists, error)) {
         return false;
      }
      if (!exists) {
         lab_error_set (error, LAB_ERROR_STORE, LAB_STORE_ERR_NO_COLLECTION,
                        "--verify: collection '%s' does not exist in %s (database '%s')", names[i],
                        lab_store_uri_redacted (store), lab_store_db (store));
         return false;
      }
   }
   if (!lab_store_server_info (store, &info, error)) {
      return false;
   }
   *max = o->target.max_doc_bytes > 0 ? o->target.max_doc_bytes : info.max_bson_bytes;
   return true;
}

/* lab_fold_verify_retry_wait -- see verify_private.h. */
bool
lab_fold_verify_retry_wait (const lab_fold_verify_opts_t *o, int done, const char *where,
                            const bson_error_t *error, lab_fold_verify_result_t *res)
{
   int64_t first = o->retry_first_delay_ms > 0 ? o->retry_first_delay_ms : LAB_RETRY_FIRST_DELAY_MS;
   int64_t delay, slept;

   if (done >= o->retries || !lab_store_error_transient (error)) {
      res->gave_up_transient = lab_store_error_transient (error);
      if (done > 0 && res->gave_up_transient) {
         lab_log_error ("verify: still failing after %d retries: %s", done, error->message);
      }
      return false;
   }
   delay = lab_fold_retry_delay_ms (done + 1, first, LAB_RETRY_MAX_DELAY_MS);
   lab_log_info ("retry: verify failed with a transient error (domain %u, code %u): %s; try %d of %d in "
                 "%.1f s, %s",
                 error->domain, error->code, error->message, done + 1, o->retries, (double)delay / 1000.0,
                 where);
   for (slept = 0; slept < delay; slept += 100) {
      usleep ((useconds_t)(delay - slept < 100 ? delay - slept : 100) * 1000);
   }
   return true;
}
