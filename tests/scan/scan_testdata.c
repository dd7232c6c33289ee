/*
 * scan_testdata.c -- see scan_testdata.h.
 */
#include "tests/scan/scan_testdata.h"

#include "core/error.h"

#include <stdio.h>
#include <string.h>

/* next_rand -- xorshift64, deterministic. */
static uint64_t
next_rand (uint64_t *x)
{
   *x ^= *x << 13;
   *x ^= *x >> 7;
   *x ^= *x << 17;
   return *x;
}

/* append_row_fields -- the fields of one row (without bill_id), ~200 bytes of BSON that snappy cannot
 * shrink much: its _id (an ObjectId of bill and line) first, then values drawn from (bill, line) alone, so
 * the detail row and its folded element hold the same row (scancmp's digests compare the layouts' rows
 * by content). */
static void
append_row_fields (bson_t *d, int bill, int line)
{
   uint64_t seed =
      88172645463325252ull ^ (((uint64_t)(uint32_t)bill << 32 | (uint32_t)line) * 0x9e3779b97f4a7c15ull);
   uint64_t *rng = &seed;
   uint8_t idb[12] = { 't', 'd', 'a', 't' };
   bson_oid_t oid;
   char note[65];
   int i;

   memcpy (idb + 4, &bill, 4);
   memcpy (idb + 8, &line, 4);
   bson_oid_init_from_data (&oid, idb);
   BSON_APPEND_OID (d, "_id", &oid);

   for (i = 0; i < 64; i++) {
      note[i] = "0123456789abcdef"[next_rand (rng) & 15];
   }
   note[64] = '\0';
   BSON_APPEND_INT32 (d, "line", line);
   {
      char code[24];
      snprintf (code, sizeof code, "ITEM-%05d", (int)(next_rand (rng) % 20000));
      BSON_APPEND_UTF8 (d, "item_code", code);
   }
   BSON_APPEND_DOUBLE (d, "qty", (double)(next_rand (rng) % 100) / 4.0);
   BSON_APPEND_DOUBLE (d, "price", (double)(next_rand (rng) % 100000) / 100.0);
   BSON_APPEND_DATE_TIME (d, "ts", 1700000000000ll + (int64_t)bill * 60000 + line);
   BSON_APPEND_UTF8 (d, "note", note);
}

/* flush_batch -- insert and free a batch; any per-document error fails. */
static bool
flush_batch (lab_store_session_t *sess, const char *coll, bson_t **docs, size_t *n, bson_error_t *error)
{
   lab_store_insert_result_t r = { 0 };
   bool ok = lab_store_insert_many (sess, coll, (const bson_t *const *)docs, *n, &r, error);
   size_t i;

   if (ok && r.nerrors) {
      lab_error_set (error, LAB_ERROR_STORE, 1, "insert into %s: %s", coll, r.errors[0].message);
      ok = false;
   }
   lab_store_insert_result_cleanup (&r);
   for (i = 0; i < *n; i++) {
      bson_destroy (docs[i]);
   }
   *n = 0;
   return ok;
}

/* scan_testdata_build -- see scan_testdata.h. */
bool
scan_testdata_build (lab_store_t *store, const char *detail, const char *folded, int bills, int mean_rows,
                     int64_t *rows_out, bson_error_t *error)
{
   lab_store_session_t *sess = lab_store_session_open (store, error);
   int *rows = NULL;
   int maxrows = 0, b, line;
   bson_t *batch[512];
   size_t n = 0;
   uint64_t rng = 88172645463325252ull;
   int64_t total = 0;
   bool ok = false;

   if (!sess) {
      return false;
   }
   if (!lab_store_drop (sess, detail, error) || !lab_store_drop (sess, folded, error) ||
       !lab_store_create (sess, detail, error) || !lab_store_create (sess, folded, error)) {
      goto done;
   }
   rows = bson_malloc0 ((size_t)bills * sizeof *rows);
   for (b = 0; b < bills; b++) {
      rows[b] = 1 + (int)(next_rand (&rng) % (uint64_t)(2 * mean_rows - 1));
      if (rows[b] > maxrows) {
         maxrows = rows[b];
      }
   }
   /* detail: interleaved, line j of every open bill before line j+1 of any */
   for (line = 0; line < maxrows; line++) {
      for (b = 0; b < bills; b++) {
         bson_t *d;
         if (line >= rows[b]) {
            continue;
         }
         d = bson_new ();
         BSON_APPEND_INT32 (d, "bill_id", 1000 + b);
         append_row_fields (d, b, line);
         batch[n++] = d;
         total++;
         if (n == sizeof batch / sizeof batch[0] && !flush_batch (sess, detail, batch, &n, error)) {
            goto done;
         }
      }
   }
   if (n && !flush_batch (sess, detail, batch, &n, error)) {
      goto done;
   }
   /* folded: one document per bill */
   rng = 88172645463325252ull;
   for (b = 0; b < bills; b++) {
      bson_t *d = bson_new ();
      bson_t arr, row;
      char idx[16];
      const char *ik;

      BSON_APPEND_INT32 (d, "bill_id", 1000 + b);
      BSON_APPEND_INT32 (d, "row_count", rows[b]);
      BSON_APPEND_ARRAY_BEGIN (d, "details", &arr);
      for (line = 0; line < rows[b]; line++) {
         bson_uint32_to_string ((uint32_t)line, &ik, idx, sizeof idx);
         bson_append_document_begin (&arr, ik, -1, &row);
         append_row_fields (&row, b, line);
         bson_append_document_end (&arr, &row);
      }
      bson_append_array_end (d, &arr);
      batch[n++] = d;
      if (n == 64 && !flush_batch (sess, folded, batch, &n, error)) {
         goto done;
      }
   }
   if (n && !flush_batch (sess, folded, batch, &n, error)) {
      goto done;
   }
   if (!lab_store_create_index (sess, detail, "bill_id", error) ||
       !lab_store_create_index (sess, folded, "bill_id", error)) {
      goto done;
   }
   lab_store_session_close (sess);
   sess = NULL;
   if (!lab_store_flush (store, error)) {
      goto done;
   }
   *rows_out = total;
   ok = true;
done:
   for (size_t i = 0; i < n; i++) {
      bson_destroy (batch[i]);
   }
   if (sess) {
      lab_store_session_close (sess);
   }
   bson_free (rows);
   return ok;
}

typedef struct {
   lab_store_session_t *sess;
   const char *to;
   int bucket_rows;
   int64_t docs;
   bool ok;
   bson_error_t *error;
} rebucket_t;

/* rebucket_doc -- split one folded document's details into buckets and insert them. */
static bool
rebucket_doc (const bson_t *doc, void *ctx)
{
   rebucket_t *rb = ctx;
   bson_iter_t id, it, rows;
   bson_t *batch[64];
   size_t n = 0;
   int bucket = 0;

   if (!bson_iter_init_find (&id, doc, "bill_id") || !bson_iter_init_find (&it, doc, "details") ||
       !BSON_ITER_HOLDS_ARRAY (&it) || !bson_iter_recurse (&it, &rows)) {
      lab_error_set (rb->error, LAB_ERROR_STORE, 1, "a folded document without bill_id or details");
      return rb->ok = false;
   }
   for (bool more = bson_iter_next (&rows); more;) {
      bson_t *d = bson_new (), arr;
      int k = 0;

      bson_append_iter (d, "bill_id", -1, &id);
      BSON_APPEND_INT32 (d, "part", bucket++); /* the fold's own field (core/rowhash.h): not a row field */
      BSON_APPEND_ARRAY_BEGIN (d, "details", &arr);
      for (; more && k < rb->bucket_rows; more = bson_iter_next (&rows), k++) {
         char idx[16];
         const char *ik;
         bson_uint32_to_string ((uint32_t)k, &ik, idx, sizeof idx);
         bson_append_iter (&arr, ik, -1, &rows);
      }
      bson_append_array_end (d, &arr);
      BSON_APPEND_INT32 (d, "row_count", k);
      batch[n++] = d;
      if (n == sizeof batch / sizeof batch[0] && !flush_batch (rb->sess, rb->to, batch, &n, rb->error)) {
         return rb->ok = false;
      }
      rb->docs++;
   }
   if (n && !flush_batch (rb->sess, rb->to, batch, &n, rb->error)) {
      return rb->ok = false;
   }
   return true;
}

/* scan_testdata_rebucket -- see scan_testdata.h. */
bool
scan_testdata_rebucket (lab_store_t *store, const char *from, const char *to, int bucket_rows,
                        int64_t *docs_out, bson_error_t *error)
{
   lab_store_session_t *sess = lab_store_session_open (store, error), *wsess = NULL;
   rebucket_t rb = { 0 };
   bson_value_t *keys = NULL;
   int64_t nkeys = 0, k;
   bool ok = false;

   if (!sess) {
      return false;
   }
   wsess = lab_store_session_open (store, error);
   if (!wsess || !lab_store_drop (wsess, to, error) || !lab_store_create (wsess, to, error) ||
       !lab_store_distinct_keys (sess, from, "bill_id", &keys, &nkeys, error)) {
      goto done;
   }
   rb = (rebucket_t){ wsess, to, bucket_rows < 1 ? 1 : bucket_rows, 0, true, error };
   for (k = 0; k < nkeys; k++) {
      if (!lab_store_find_eq (sess, from, "bill_id", &keys[k], rebucket_doc, &rb, NULL, error) || !rb.ok) {
         goto done;
      }
   }
   if (!lab_store_create_index (wsess, to, "bill_id", error)) {
      goto done;
   }
   lab_store_session_close (wsess);
   wsess = NULL;
   if (!lab_store_flush (store, error)) {
      goto done;
   }
   if (docs_out) {
      *docs_out = rb.docs;
   }
   ok = true;
done:
   if (keys) {
      lab_store_values_free (keys, (int)nkeys);
   }
   if (wsess) {
      lab_store_session_close (wsess);
   }
   lab_store_session_close (sess);
   return ok;
}
