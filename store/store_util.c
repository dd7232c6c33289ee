/*
 * store_util.c -- what the store interface (store.c) and its backends share: block compressor names, the
 * insert results' errors, value arrays, the write budget under a server's message limit, and what a
 * server process is called, the names and shell commands of index key patterns, the checks of collection
 * names and index specs. Calls nothing of store*.c or the backends, so all of them call down to it.
 */
#include "store_impl.h"

#include "core/error.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* lab_store_block_compressor_check -- see store.h. */
bool
lab_store_block_compressor_check (const char *name, bson_error_t *error)
{
   const char *const names[] = { "none", "snappy", "zlib", "zstd" };
   size_t i;

   for (i = 0; name && i < sizeof names / sizeof names[0]; i++) {
      if (strcmp (name, names[i]) == 0) {
         return true;
      }
   }
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                  "block compressor '%s' is not one of none, snappy, zlib, zstd", name ? name : "");
   return false;
}

const char *
lab_store_block_compressor (const lab_store_t *store)
{
   if (store->block_compressor) {
      return store->block_compressor;
   }
   return store->uri.backend == LAB_BACKEND_WT ? "snappy" : NULL;
}

/* lab_store_insert_result_add_error -- grow the error array by one. */
void
lab_store_insert_result_add_error (lab_store_insert_result_t *r, size_t index, uint32_t domain, uint32_t code,
                                   const char *fmt, ...)
{
   lab_store_write_error_t *e;
   va_list ap;

   r->errors = bson_realloc (r->errors, (r->nerrors + 1) * sizeof *r->errors);
   e = &r->errors[r->nerrors++];
   e->index = index;
   e->domain = domain;
   e->code = code;
   va_start (ap, fmt);
   bson_vsnprintf (e->message, sizeof e->message, fmt, ap);
   va_end (ap);
}

void
lab_store_insert_result_cleanup (lab_store_insert_result_t *result)
{
   if (result) {
      bson_free (result->errors);
      memset (result, 0, sizeof *result);
   }
}

void
lab_store_values_free (bson_value_t *values, int n)
{
   int i;

   if (!values) {
      return;
   }
   for (i = 0; i < n; i++) {
      bson_value_destroy (&values[i]);
   }
   bson_free (values);
}

bool
lab_store_server_comm_trusted (const char *comm)
{
   if (!comm) {
      return false;
   }
   /* the test server is built as ferretdb-test-server-<hash> (scripts/mongo-test-server.sh); the kernel
    * keeps TASK_COMM_LEN - 1 = 15 bytes of a command name: "ferretdb-test-s" */
   return strcmp (comm, "mongod") == 0 || strncmp (comm, "ferretdb-test-s", 15) == 0;
}

bool
lab_store_pid_comm (int64_t pid, char *buf, size_t len)
{
   char path[64];
   size_t n;
   FILE *f;

   if (pid <= 0 || len == 0) {
      return false;
   }
   bson_snprintf (path, sizeof path, "/proc/%" PRId64 "/comm", pid);
   if (!(f = fopen (path, "r"))) {
      return false;
   }
   n = fread (buf, 1, len - 1, f);
   fclose (f);
   buf[n] = '\0';
   while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r')) {
      buf[--n] = '\0';
   }
   return n > 0;
}

int64_t
lab_store_write_budget_bytes (int64_t max_message_bytes)
{
   if (max_message_bytes <= 2 * LAB_MESSAGE_SLACK_BYTES) {
      max_message_bytes = LAB_MESSAGE_MAX_BYTES;
   }
   return max_message_bytes - LAB_MESSAGE_SLACK_BYTES;
}

/* lab_store_index_spec_name -- mongod's default name: each field followed by "_1", joined by "_". */
void
lab_store_index_spec_name (const lab_store_index_spec_t *spec, char *buf, size_t len)
{
   size_t used = 0;
   int i;

   if (len == 0) {
      return;
   }
   buf[0] = '\0';
   for (i = 0; i < spec->n && i < LAB_STORE_INDEX_MAX_FIELDS; i++) {
      int w = bson_snprintf (buf + used, len - used, "%s%s_1", i ? "_" : "", spec->fields[i]);
      if (w < 0 || (size_t)w >= len - used) {
         return; /* truncated: bson_snprintf terminated it */
      }
      used += (size_t)w;
   }
}

/* lab_store_index_spec_shell -- db.<coll>.createIndex({ f: 1, ... }); dotted or unusual names quoted. */
char *
lab_store_index_spec_shell (const char *coll, const lab_store_index_spec_t *spec)
{
   bson_string_t *s = bson_string_new (NULL);
   int i;

   bson_string_append_printf (s, "db.%s.createIndex({ ", coll);
   for (i = 0; i < spec->n && i < LAB_STORE_INDEX_MAX_FIELDS; i++) {
      const char *f = spec->fields[i];
      bool plain =
         f && *f &&
         strspn (f, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$") == strlen (f);
      bson_string_append_printf (s, plain ? "%s%s: 1" : "%s\"%s\": 1", i ? ", " : "", f ? f : "");
   }
   bson_string_append (s, " })");
   return bson_string_free (s, false);
}

/* lab_store_index_spec_from_desc -- see store.h: every key ascending (1), at most
 * LAB_STORE_INDEX_MAX_FIELDS of them, and no field besides name and key that would change what the index
 * holds or does. */
bool
lab_store_index_spec_from_desc (const bson_t *desc, lab_store_index_spec_t *spec, char *why, size_t whylen)
{
   bson_iter_t it, key;
   int n = 0;

   memset (spec, 0, sizeof *spec);
   why[0] = '\0';
   if (!bson_iter_init (&it, desc)) {
      bson_snprintf (why, whylen, "an unreadable description");
      return false;
   }
   while (bson_iter_next (&it)) {
      const char *f = bson_iter_key (&it);
      if (strcmp (f, "name") != 0 && strcmp (f, "key") != 0 && strcmp (f, "v") != 0 &&
          strcmp (f, "ns") != 0) {
         bson_snprintf (why, whylen, "option '%s'", f);
         return false;
      }
   }
   if (!bson_iter_init_find (&it, desc, "key") || !BSON_ITER_HOLDS_DOCUMENT (&it) ||
       !bson_iter_recurse (&it, &key)) {
      bson_snprintf (why, whylen, "no key pattern");
      return false;
   }
   while (bson_iter_next (&key)) {
      const char *f = bson_iter_key (&key);
      if (BSON_ITER_HOLDS_UTF8 (&key)) {
         bson_snprintf (why, whylen, "key '%s: %s'", f, bson_iter_utf8 (&key, NULL));
         return false;
      }
      if (!BSON_ITER_HOLDS_NUMBER (&key) || bson_iter_as_double (&key) != 1) {
         bson_snprintf (why, whylen, "%s key '%s: %g'",
                        BSON_ITER_HOLDS_NUMBER (&key) && bson_iter_as_double (&key) < 0 ? "descending" : "a",
                        f, BSON_ITER_HOLDS_NUMBER (&key) ? bson_iter_as_double (&key) : 0.0);
         return false;
      }
      if (n < LAB_STORE_INDEX_MAX_FIELDS) {
         spec->fields[n] = f;
      }
      n++;
   }
   if (n == 0 || n > LAB_STORE_INDEX_MAX_FIELDS) {
      bson_snprintf (why, whylen, "%d fields (at most %d)", n, LAB_STORE_INDEX_MAX_FIELDS);
      memset (spec, 0, sizeof *spec);
      return false;
   }
   spec->n = n;
   return true;
}

/* lab_store_coll_check -- see store_impl.h: collection names must be non-empty, without '$' or NUL-like
 * surprises. */
bool
lab_store_coll_check (const char *coll, bson_error_t *error)
{
   if (!coll || !*coll) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME, "collection name is empty");
      return false;
   }
   if (strchr (coll, '$') || strlen (coll) > 200) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "invalid collection name '%s' (no '$', at most 200 bytes)", coll);
      return false;
   }
   return true;
}

/* lab_store_index_spec_check -- see store_impl.h: 1..LAB_STORE_INDEX_MAX_FIELDS fields, each non-empty, not
 * starting with '$', none twice. */
bool
lab_store_index_spec_check (const lab_store_index_spec_t *spec, bson_error_t *error)
{
   int i, j;

   if (!spec || spec->n < 1 || spec->n > LAB_STORE_INDEX_MAX_FIELDS) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                     "an index key pattern needs 1 to %d fields (got %d)", LAB_STORE_INDEX_MAX_FIELDS,
                     spec ? spec->n : 0);
      return false;
   }
   for (i = 0; i < spec->n; i++) {
      const char *f = spec->fields[i];
      if (!f || !*f || *f == '$' || f[strlen (f) - 1] == '.' || *f == '.' || strstr (f, "..")) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                        "index key pattern field %d ('%s') is not a field path", i + 1, f ? f : "(null)");
         return false;
      }
      for (j = 0; j < i; j++) {
         if (strcmp (spec->fields[j], f) == 0) {
            lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_NAME,
                           "index key pattern names '%s' twice", f);
            return false;
         }
      }
   }
   return true;
}
