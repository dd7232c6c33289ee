/*
 * verify.c -- the merge-join verification of a folded collection against its source (see verify.h).
 */
#include "verify.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/keyenc.h"
#include "core/log.h"
#include "core/opts.h"
#include "retry.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What survives a failed try: the last fully verified key (every master <= it is accounted on both
 * sides, none after it). The result changes only when a master is accounted, so it needs no rollback:
 * what a failed try read past the last key (a group read ahead, a group cut short) is read again. */
typedef struct {
   bson_value_t last;
   bool have_last;
   int64_t taken;     /* documents taken from both streams over every try (the fault hook's count) */
   lab_progress_t *p; /* created by the first try that reads */
} state_t;

/* One side's stream, with one document of lookahead: the cursor's own document, valid until the next
 * lab_cursor_next, which is only called once it has been consumed (reader_take) -- no copy per row. */
typedef struct {
   lab_cursor_t *cur;
   const bson_t *pending;
   bool eof;
   bool dst;
   const lab_verify_opts_t *o;
   const char *key;
   const bson_value_t *after; /* a retry: skip documents whose key is <= this; NULL once past it */
   state_t *st;
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
   int64_t largest;          /* its largest document */
   int64_t oversize;         /* its documents over the cap */
   char oversize_first[256]; /* the first of them, described */
   /* destination only, buckets: the current document's window and the first bucket problem */
   const char *bucket_field;
   int64_t win_lo_ms;
   int64_t win_hi_ms;
   const char *doc_id; /* the current document's _id as text, for messages */
   char bucket_bad[400];
} group_t;

static bool key_of (const bson_t *doc, const char *key, bson_value_t *v);

/* reader_fill -- take the next document into rd->pending unless one is there or the stream ended;
 * on a retry the documents up to the last verified key are skipped. */
static bool
reader_fill (reader_t *rd, bson_error_t *error)
{
   const bson_t *doc;
   bson_value_t v;
   int rc;

   while (!rd->pending && !rd->eof) {
      rd->st->taken++;
      if (rd->o->fault && !rd->o->fault (rd->o->fault_ctx, rd->dst, rd->st->taken, error)) {
         return false;
      }
      rc = lab_cursor_next (rd->cur, &doc, error);
      if (rc < 0) {
         return false;
      }
      if (rc == 0) {
         rd->eof = true;
         break;
      }
      if (rd->after) {
         key_of (doc, rd->key, &v);
         if (lab_value_compare (&v, rd->after) <= 0) {
            continue; /* verified before the retry */
         }
         rd->after = NULL; /* the stream is sorted: nothing further is <= it */
      }
      rd->pending = doc;
   }
   return true;
}

/* reader_take -- the pending document is consumed (the next reader_fill may move the cursor). */
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

/* dst_row -- one rebuilt row of a bucket-by document: hashed, counted, its date checked against the
 * document's window. */
static bool
dst_row (void *ctx, const bson_t *row, bson_error_t *error)
{
   group_t *g = ctx;
   bson_iter_t it;
   int64_t ms;

   lab_hash_add (&g->hash, lab_row_hash (row));
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
bucket_doc_check (group_t *g, const bson_t *doc, lab_bucket_unit_t unit)
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
   g->win_lo_ms = lab_bucket_window (start, unit, &g->win_hi_ms);
   if (g->win_lo_ms != start && !g->bucket_bad[0]) {
      bson_snprintf (g->bucket_bad, sizeof g->bucket_bad,
                     "document _id %s: %s %lld ms does not start a %s window", g->doc_id,
                     LAB_FOLD_BUCKET_START, (long long)start, lab_bucket_unit_name (unit));
   }
}

/* dst_group -- the next master of the destination: unfolded rows, parts, sizes, buckets (into the group
 * only: the result takes them when the master is accounted). */
static bool
dst_group (reader_t *rd, const lab_verify_opts_t *o, const char *bucket_field, lab_bucket_unit_t unit,
           int64_t max, group_t *g, bson_error_t *error)
{
   bson_value_t v;
   lab_fold_doc_info_t info;
   bson_iter_t it;
   char *idt, *kt;
   bool unfolded;

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
      idt = NULL; /* the _id as text only where a bucket message may need it */
      if (bucket_field || o->bucket_rows > 0) {
         idt = bson_iter_init_find (&it, rd->pending, "_id") ? lab_value_to_text (bson_iter_value (&it))
                                                             : bson_strdup ("?");
      }
      g->doc_id = idt;
      g->bucket_field = bucket_field;
      if (bucket_field) {
         bucket_doc_check (g, rd->pending, unit);
      }
      if (bucket_field) {
         /* every row's date is checked against the window: the rows are rebuilt */
         unfolded = lab_fold_unfold (rd->pending, o->key, o->array_field, dst_row, g, &info, error);
      } else {
         /* hashed in place, no row built (what dst_row would add, row by row) */
         unfolded = lab_fold_unfold_hash (rd->pending, o->key, o->array_field, &g->hash, &info, error);
         g->rows += unfolded ? info.row_count : 0;
      }
      if (unfolded && o->bucket_rows > 0 && info.row_count > o->bucket_rows && !g->bucket_bad[0]) {
         bson_snprintf (g->bucket_bad, sizeof g->bucket_bad,
                        "document _id %s holds %d rows, over --bucket-rows %d", idt, info.row_count,
                        o->bucket_rows);
      }
      g->doc_id = NULL;
      g->bucket_field = NULL;
      bson_free (idt);
      if (!unfolded) {
         lab_error_prefix (error, "'%s'", o->dst);
         return false;
      }
      if ((int64_t)rd->pending->len > g->largest) {
         g->largest = rd->pending->len;
      }
      if ((int64_t)rd->pending->len > max) {
         g->oversize++;
         if (!g->oversize_first[0]) {
            idt = bson_iter_init_find (&it, rd->pending, "_id") ? lab_value_to_text (bson_iter_value (&it))
                                                                : bson_strdup ("?");
            kt = lab_value_to_text (&g->key);
            bson_snprintf (g->oversize_first, sizeof g->oversize_first,
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

/* account_dst_docs -- a destination master's documents: count, largest, over the cap. */
static void
account_dst_docs (const group_t *gd, lab_verify_result_t *res)
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

/* account_dst_only -- destination documents of a master the source does not have. */
static void
account_dst_only (const lab_verify_opts_t *o, const group_t *gd, lab_verify_result_t *res)
{
   account_dst_docs (gd, res);
   res->dst_masters++;
   res->dst_rows += gd->rows;
   lab_hash_add (&res->dst_hash, gd->hash);
   differ (res, o->key, &gd->key, "%lld rows in the destination, none in the source", (long long)gd->rows);
}

/* account_both -- a master on both sides: same rows, same contents, parts numbered once each. */
static void
account_both (const lab_verify_opts_t *o, const group_t *gs, const group_t *gd, lab_verify_result_t *res)
{
   account_dst_docs (gd, res);
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
   } else if (gd->bucket_bad[0]) {
      differ (res, o->key, &gs->key, "%s", gd->bucket_bad);
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

/* verify_open -- both sides sorted by the key; on a retry from the last verified key L: key >= L (no
 * bound when L is null: {$gte: null} matches only null), the readers skipping keys <= L. */
static bool
verify_open (lab_session_t *sess, const lab_verify_opts_t *o, state_t *st, reader_t *src, reader_t *dst,
             bson_error_t *error)
{
   lab_sorted_opts_t so = { 0 };
   bool bound =
      st->have_last && st->last.value_type != BSON_TYPE_NULL && st->last.value_type != BSON_TYPE_UNDEFINED;

   so.batch_docs = o->batch_docs;
   so.lo = bound ? &st->last : NULL;
   src->o = dst->o = o;
   src->key = dst->key = o->key;
   src->st = dst->st = st;
   src->after = dst->after = st->have_last ? &st->last : NULL;
   dst->dst = true;
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

/* checkpoint -- the master with key `key` is accounted on both sides: remember it. */
static void
checkpoint (state_t *st, const bson_value_t *key)
{
   if (st->have_last) {
      bson_value_destroy (&st->last);
   }
   bson_value_copy (key, &st->last);
   st->have_last = true;
}

/* verify_try -- one try of the merge join, from the start or from the last verified key. Already in
 * lockstep: each turn consumes the master with the smaller key (or both when equal), so the two cursors
 * advance together, each served by its key index with no blocking sort (store.h); test_fold_cli runs it
 * with a cursor batch of a few documents so that getMores interleave on both sides. */
static bool
verify_try (lab_store_t *store, const lab_verify_opts_t *o, state_t *st, lab_verify_result_t *res,
            bson_error_t *error)
{
   lab_session_t *sess = NULL;
   reader_t src = { 0 }, dst = { 0 };
   group_t gs = { 0 }, gd = { 0 };
   bool ok = false;
   int64_t max, src_count = 0;
   int cmp;
   char *bfield = NULL;
   lab_bucket_unit_t bunit = LAB_BUCKET_NONE;

   if (o->bucket_by && !lab_bucket_spec_parse (o->bucket_by, &bfield, &bunit, error)) {
      goto done;
   }
   sess = lab_session_open (store, error);
   if (!sess || !verify_check (store, sess, o, &max, error)) {
      goto done;
   }
   if (!st->p) {
      /* the progress total from the metadata: no scan before the join */
      if (lab_progress_enabled (o->progress) &&
          !lab_store_count_estimated (sess, o->src, &src_count, error)) {
         goto done;
      }
      st->p = lab_progress_new (o->progress, "verifying", "rows", (uint64_t)src_count);
   }
   if (!verify_open (sess, o, st, &src, &dst, error)) {
      goto done;
   }
   if (!src_group (&src, o->key, &gs, st->p, error) || !dst_group (&dst, o, bfield, bunit, max, &gd, error)) {
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
      checkpoint (st, cmp <= 0 ? &gs.key : &gd.key);
      if (cmp <= 0 && !src_group (&src, o->key, &gs, st->p, error)) {
         goto done;
      }
      if (cmp >= 0 && !dst_group (&dst, o, bfield, bunit, max, &gd, error)) {
         goto done;
      }
   }
   ok = true;
done:
   group_reset (&gs);
   group_reset (&gd);
   lab_cursor_close (src.cur);
   lab_cursor_close (dst.cur);
   lab_session_close (sess);
   bson_free (bfield);
   return ok;
}

/* lab_verify -- see verify.h: tries of the merge join, each after a transient error resuming from the
 * last verified key, each logged. */
bool
lab_verify (lab_store_t *store, const lab_verify_opts_t *o, lab_verify_result_t *res, bson_error_t *error)
{
   state_t st = { 0 };
   int64_t first = o->retry_first_delay_ms > 0 ? o->retry_first_delay_ms : LAB_RETRY_FIRST_DELAY_MS;
   int64_t delay, slept;
   uint64_t t0 = lab_now_ns ();
   bool ok = false;
   char *from;
   int attempt;

   memset (res, 0, sizeof *res);
   for (attempt = 0;; attempt++) {
      if (verify_try (store, o, &st, res, error)) {
         if (attempt > 0) {
            lab_log_info ("--verify: finished after %d retr%s", attempt, attempt == 1 ? "y" : "ies");
         }
         ok = true;
         break;
      }
      if (attempt >= o->retries || !lab_retry_transient (error)) {
         res->gave_up_transient = lab_retry_transient (error);
         if (attempt > 0 && res->gave_up_transient) {
            lab_log_error ("--verify: still failing after %d retries: %s", attempt, error->message);
         }
         break;
      }
      delay = lab_retry_delay_ms (attempt + 1, first, LAB_RETRY_MAX_DELAY_MS);
      from = st.have_last ? lab_value_to_text (&st.last) : NULL;
      lab_log_info (
         "retry: --verify failed with a transient error (domain %u, code %u): %s; try %d of %d "
         "in %.1f s, %s%s",
         error->domain, error->code, error->message, attempt + 1, o->retries, (double)delay / 1000.0,
         from ? "past the last verified key " : "from the start (no master verified yet)", from ? from : "");
      bson_free (from);
      for (slept = 0; slept < delay; slept += 100) {
         usleep ((useconds_t)(delay - slept < 100 ? delay - slept : 100) * 1000);
      }
      res->retries++;
   }
   if (ok) {
      res->equal = res->differing_masters == 0 && res->oversize_docs == 0;
   }
   lab_progress_done (st.p);
   if (st.have_last) {
      bson_value_destroy (&st.last);
   }
   res->elapsed_s = (double)(lab_now_ns () - t0) / 1e9;
   return ok;
}
