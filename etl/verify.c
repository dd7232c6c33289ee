/*
 * verify.c -- the merge-join verification of a folded collection against its source (see verify.h).
 */
#include "verify.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/keyenc.h"
#include "core/opts.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One side's stream, with one document of lookahead: the cursor's own document, valid until the next
 * lab_cursor_next, which is only called once it has been consumed (reader_take) -- no copy per row. */
typedef struct {
   lab_cursor_t *cur;
   const bson_t *pending;
   bool eof;
} reader_t;

/* One master's figures on one side. */
typedef struct {
   bool have;
   bson_value_t key;
   bool key_missing; /* source rows without the key field */
   int64_t rows;
   lab_hash_t hash;
   /* destination only */
   int64_t docs;
   int32_t parts;
   int64_t part_sum;
   bool parts_bad;
} group_t;

static bool
reader_fill (reader_t *rd, bson_error_t *error)
{
   const bson_t *doc;
   int rc;

   if (rd->pending || rd->eof) {
      return true;
   }
   rc = lab_cursor_next (rd->cur, &doc, error);
   if (rc < 0) {
      return false;
   }
   if (rc == 0) {
      rd->eof = true;
   } else {
      rd->pending = doc;
   }
   return true;
}

/* reader_take -- the pending document is consumed. */
static void
reader_take (reader_t *rd)
{
   rd->pending = NULL;
}

static void
group_reset (group_t *g)
{
   if (g->have) {
      bson_value_destroy (&g->key);
   }
   memset (g, 0, sizeof *g);
}

/* key_of -- the key value of doc (null when missing). */
static bool
key_of (const bson_t *doc, const char *key, bson_value_t *v)
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

/* src_group -- the next master of the source: rows and summed row hashes. */
static bool
src_group (reader_t *rd, const char *key, group_t *g, lab_progress_t *p, bson_error_t *error)
{
   bson_value_t v;

   group_reset (g);
   if (!reader_fill (rd, error)) {
      return false;
   }
   if (!rd->pending) {
      return true;
   }
   g->key_missing = !key_of (rd->pending, key, &v);
   bson_value_copy (&v, &g->key);
   g->have = true;
   for (;;) {
      lab_hash_add (&g->hash, lab_row_hash (rd->pending));
      g->rows++;
      lab_progress_add (p, 1, rd->pending->len);
      reader_take (rd);
      if (!reader_fill (rd, error)) {
         return false;
      }
      if (!rd->pending) {
         return true;
      }
      key_of (rd->pending, key, &v);
      if (lab_value_compare (&v, &g->key) != 0) {
         return true;
      }
   }
}

/* dst_group -- the next master of the destination: unfolded rows, parts, sizes. */
static bool
dst_group (reader_t *rd, const lab_verify_opts_t *o, int64_t max, group_t *g, lab_verify_result_t *res,
           bson_error_t *error)
{
   bson_value_t v;
   lab_fold_doc_info_t info;
   bson_iter_t it;
   char *idt, *kt;

   group_reset (g);
   if (!reader_fill (rd, error)) {
      return false;
   }
   if (!rd->pending) {
      return true;
   }
   key_of (rd->pending, o->key, &v);
   bson_value_copy (&v, &g->key);
   g->have = true;
   for (;;) {
      if (!lab_fold_unfold_hash (rd->pending, o->key, o->array_field, &g->hash, &info, error)) {
         lab_error_prefix (error, "'%s'", o->dst);
         return false;
      }
      g->rows += info.row_count;
      res->dst_docs++;
      if ((int64_t)rd->pending->len > res->largest_doc_bytes) {
         res->largest_doc_bytes = rd->pending->len;
      }
      if ((int64_t)rd->pending->len > max) {
         res->oversize_docs++;
         if (!res->first_difference[0]) {
            idt = bson_iter_init_find (&it, rd->pending, "_id") ? lab_value_to_text (bson_iter_value (&it))
                                                                : bson_strdup ("?");
            kt = lab_value_to_text (&g->key);
            bson_snprintf (res->first_difference, sizeof res->first_difference,
                           "master %s=%s: document _id %s is %u bytes, over the %lld-byte cap", o->key, kt,
                           idt, rd->pending->len, (long long)max);
            bson_free (idt);
            bson_free (kt);
         }
      }
      if (g->docs == 0) {
         g->parts = info.parts;
      } else if (info.parts != g->parts) {
         g->parts_bad = true;
      }
      g->part_sum += info.part;
      g->docs++;
      reader_take (rd);
      if (!reader_fill (rd, error)) {
         return false;
      }
      if (!rd->pending) {
         break;
      }
      key_of (rd->pending, o->key, &v);
      if (lab_value_compare (&v, &g->key) != 0) {
         break;
      }
   }
   /* parts 0..parts-1 each once: right count and right sum (parts are checked < parts by unfold) */
   if (g->docs != g->parts || g->part_sum != (int64_t)g->parts * (g->parts - 1) / 2) {
      g->parts_bad = true;
   }
   return true;
}

static int
strp_cmp (const void *a, const void *b)
{
   return strcmp (*(char *const *)a, *(char *const *)b);
}

/* skipped -- the master was rejected by this run (expected absent). */
static bool
skipped (const lab_verify_opts_t *o, const bson_value_t *key)
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

/* differ -- count a differing master; the first one is described. */
static void differ (lab_verify_result_t *res, const char *keyname, const bson_value_t *key, const char *fmt,
                    ...) BSON_GNUC_PRINTF (4, 5);

static void
differ (lab_verify_result_t *res, const char *keyname, const bson_value_t *key, const char *fmt, ...)
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

/* account_src_only -- a source master with no destination documents: a difference unless skipped. */
static void
account_src_only (const lab_verify_opts_t *o, const group_t *gs, lab_verify_result_t *res)
{
   res->src_masters++;
   res->src_rows += gs->rows;
   lab_hash_add (&res->src_hash, gs->hash);
   if (gs->key_missing) {
      differ (res, o->key, &gs->key, "%lld source rows have no '%s' field and cannot be in the destination",
              (long long)gs->rows, o->key);
   } else if (skipped (o, &gs->key)) {
      res->skipped_masters++;
   } else {
      differ (res, o->key, &gs->key, "%lld source rows, missing from the destination", (long long)gs->rows);
   }
}

/* account_dst_only -- destination documents of a master the source does not have. */
static void
account_dst_only (const lab_verify_opts_t *o, const group_t *gd, lab_verify_result_t *res)
{
   res->dst_masters++;
   res->dst_rows += gd->rows;
   lab_hash_add (&res->dst_hash, gd->hash);
   differ (res, o->key, &gd->key, "%lld rows in the destination, none in the source", (long long)gd->rows);
}

/* account_both -- a master on both sides: same rows, same contents, parts numbered once each. */
static void
account_both (const lab_verify_opts_t *o, const group_t *gs, const group_t *gd, lab_verify_result_t *res)
{
   res->src_masters++;
   res->dst_masters++;
   res->src_rows += gs->rows;
   res->dst_rows += gd->rows;
   lab_hash_add (&res->src_hash, gs->hash);
   lab_hash_add (&res->dst_hash, gd->hash);
   if (gs->rows != gd->rows) {
      differ (res, o->key, &gs->key, "%lld rows in the source, %lld in the destination", (long long)gs->rows,
              (long long)gd->rows);
   } else if (gs->hash.lo != gd->hash.lo || gs->hash.hi != gd->hash.hi) {
      differ (res, o->key, &gs->key,
              "same %lld rows counted but their contents differ (checksum %016llx%016llx in the source, "
              "%016llx%016llx in the destination)",
              (long long)gs->rows, (unsigned long long)gs->hash.hi, (unsigned long long)gs->hash.lo,
              (unsigned long long)gd->hash.hi, (unsigned long long)gd->hash.lo);
   } else if (gd->parts_bad) {
      differ (res, o->key, &gs->key, "its %lld destination documents do not number parts 0..%d once each",
              (long long)gd->docs, gd->parts - 1);
   }
}

/* verify_check -- both collections exist; the document cap in force (*max). */
static bool
verify_check (lab_store_t *store, lab_session_t *sess, const lab_verify_opts_t *o, int64_t *max,
              bson_error_t *error)
{
   const char *names[2] = { o->src, o->dst };
   lab_server_info_t info;
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
   *max = o->max_doc_bytes > 0 ? o->max_doc_bytes : info.max_bson_bytes;
   return true;
}

/* verify_open -- both sides sorted by the key. */
static bool
verify_open (lab_session_t *sess, const lab_verify_opts_t *o, reader_t *src, reader_t *dst,
             bson_error_t *error)
{
   lab_sorted_opts_t so = { 0 };

   so.batch_docs = o->batch_docs;
   src->cur = lab_store_sorted_open (sess, o->src, o->key, &so, error);
   if (!src->cur) {
      lab_error_prefix (error, "--verify: reading '%s' sorted by '%s'", o->src, o->key);
      return false;
   }
   dst->cur = lab_store_sorted_open (sess, o->dst, o->key, &so, error);
   if (!dst->cur) {
      lab_error_prefix (error, "--verify: reading '%s' sorted by '%s'", o->dst, o->key);
      return false;
   }
   return true;
}

/* lab_verify -- see verify.h: a merge join of the two sorted streams, one master at a time. Already in
 * lockstep: each turn consumes the master with the smaller key (or both when equal), so the two cursors
 * advance together, each served by its key index with no blocking sort (store.h); test_fold_cli runs it
 * with a cursor batch of a few documents so that getMores interleave on both sides. */
bool
lab_verify (lab_store_t *store, const lab_verify_opts_t *o, lab_verify_result_t *res, bson_error_t *error)
{
   lab_session_t *sess = NULL;
   reader_t src = { 0 }, dst = { 0 };
   group_t gs = { 0 }, gd = { 0 };
   lab_progress_t *p = NULL;
   bool ok = false;
   int64_t max, src_count = 0;
   uint64_t t0 = lab_now_ns ();
   int cmp;

   memset (res, 0, sizeof *res);
   sess = lab_session_open (store, error);
   if (!sess || !verify_check (store, sess, o, &max, error)) {
      goto done;
   }
   /* the progress total from the metadata: no scan before the join */
   if (lab_progress_enabled (o->progress) && !lab_store_count_estimated (sess, o->src, &src_count, error)) {
      goto done;
   }
   if (!verify_open (sess, o, &src, &dst, error)) {
      goto done;
   }
   p = lab_progress_new (o->progress, "verifying", "rows", (uint64_t)src_count);
   if (!src_group (&src, o->key, &gs, p, error) || !dst_group (&dst, o, max, &gd, res, error)) {
      goto done;
   }
   while (gs.have || gd.have) {
      cmp = !gs.have ? 1 : !gd.have ? -1 : lab_value_compare (&gs.key, &gd.key);
      if (cmp < 0) {
         account_src_only (o, &gs, res);
      } else if (cmp > 0) {
         account_dst_only (o, &gd, res);
      } else {
         account_both (o, &gs, &gd, res);
      }
      if (cmp <= 0 && !src_group (&src, o->key, &gs, p, error)) {
         goto done;
      }
      if (cmp >= 0 && !dst_group (&dst, o, max, &gd, res, error)) {
         goto done;
      }
   }
   res->equal = res->differing_masters == 0 && res->oversize_docs == 0;
   ok = true;
done:
   lab_progress_done (p);
   res->elapsed_s = (double)(lab_now_ns () - t0) / 1e9;
   group_reset (&gs);
   group_reset (&gd);
   lab_cursor_close (src.cur);
   lab_cursor_close (dst.cur);
   lab_session_close (sess);
   return ok;
}
