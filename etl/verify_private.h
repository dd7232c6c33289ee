/*
 * verify_private.h -- what the two methods of --verify share (verify.h): the ordered merge join
 * (verify.c) and the natural-order multiset comparison (verify_multiset.c). Private to etl/verify*.c.
 */
#ifndef LAB_ETL_VERIFY_PRIVATE_H
#define LAB_ETL_VERIFY_PRIVATE_H

#include "verify.h"

/* group_t -- one master's figures on one side. */
typedef struct {
   bool have;
   bson_value_t key;
   bool key_missing; /* source rows without the key field */
   int64_t rows;
   lab_fold_hash_t hash;
   /* destination only */
   int64_t docs;
   int32_t parts;
   uint64_t part_mix; /* sum of lab_fold_verify_part_mix of its documents' parts */
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

/* lab_fold_verify_group_reset -- free the group's key (when it owns one) and clear it. */
void lab_fold_verify_group_reset (group_t *g);

/* lab_fold_verify_key_of -- the key value of doc (pointing into it); null and false when missing. */
bool lab_fold_verify_key_of (const bson_t *doc, const char *key, bson_value_t *v);

/* lab_fold_verify_dst_doc -- one destination document into its master's group `g` (g->key names the master in
 * messages): its rows unfolded and hashed, its part, its size against the cap `max`, its buckets
 * (bucket_field/unit of --bucket-by, NULL/NONE otherwise). False with LAB_ERROR_VERIFY naming its _id when
 * its shape is wrong (lab_fold_unfold). */
bool lab_fold_verify_dst_doc (const lab_fold_verify_opts_t *o, const char *bucket_field,
                              lab_fold_bucket_unit_t unit, int64_t max, group_t *g, const bson_t *doc,
                              bson_error_t *error);

/* lab_fold_verify_part_mix -- the 64-bit mix of a part number whose sums check "each part once". */
uint64_t lab_fold_verify_part_mix (int32_t part);

/* lab_fold_verify_parts_ok -- docs, parts and their part mix say: parts 0..parts-1, each once. */
bool lab_fold_verify_parts_ok (int64_t docs, int32_t parts, uint64_t part_mix);

/* lab_fold_verify_dst_finish -- a destination master read to its end: sets parts_bad unless its parts are
 * 0..parts-1, each once. */
void lab_fold_verify_dst_finish (group_t *g);

/* lab_fold_verify_skipped -- the master with this key was rejected by this run (expected absent). */
bool lab_fold_verify_skipped (const lab_fold_verify_opts_t *o, const bson_value_t *key);

/* lab_fold_verify_differ -- count a differing master; the first one counted is described in the result. */
void lab_fold_verify_differ (lab_fold_verify_result_t *res, const char *keyname, const bson_value_t *key,
                             const char *fmt, ...) BSON_GNUC_PRINTF (4, 5);

/* The accounting of one master into the result: only in the source (a difference unless rejected by
 * this run), only in the destination (a difference), or on both sides (rows, checksum, parts, buckets). */
void lab_fold_verify_account_src_only (const lab_fold_verify_opts_t *o, const group_t *gs,
                                       lab_fold_verify_result_t *res);
void lab_fold_verify_account_dst_only (const lab_fold_verify_opts_t *o, const group_t *gd,
                                       lab_fold_verify_result_t *res);
void lab_fold_verify_account_both (const lab_fold_verify_opts_t *o, const group_t *gs, const group_t *gd,
                                   lab_fold_verify_result_t *res);

/* lab_fold_verify_check -- both collections exist (NO_COLLECTION naming the missing one); *max gets the
 * document cap in force (the option's, else the server's maximum document size). */
bool lab_fold_verify_check (lab_store_t *store, lab_store_session_t *sess, const lab_fold_verify_opts_t *o,
                            int64_t *max, bson_error_t *error);

/* lab_fold_verify_retry_wait -- a try failed with *error after `done` retries: when it is transient and
 * retries are left, log the retry (`where` says from where it starts again) and wait its back-off (1 s,
 * 2 s, 4 s, ... at most 16 s): true, try again. Else false: res->gave_up_transient says whether the error
 * was transient (then logged as the last of the retries). */
bool lab_fold_verify_retry_wait (const lab_fold_verify_opts_t *o, int done, const char *where,
                                 const bson_error_t *error, lab_fold_verify_result_t *res);

/* lab_fold_verify_ordered -- the merge join of both collections read in key order (verify.c). */
bool lab_fold_verify_ordered (lab_store_t *store, const lab_fold_verify_opts_t *o,
                              lab_fold_verify_result_t *res, bson_error_t *error);

/* lab_fold_verify_multiset -- the natural-order scans and per-master multiset hashes (verify_multiset.c). */
bool lab_fold_verify_multiset (lab_store_t *store, const lab_fold_verify_opts_t *o,
                               lab_fold_verify_result_t *res, bson_error_t *error);

#endif
