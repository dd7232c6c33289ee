/*
 * billgen_main.c -- the `billgen` tool: parses options, calls the billgen library (generate, import,
 * export), prints a summary and maps errors to exit codes (0 ok, 1 failure, 2 usage).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"
#include "core/store.h"
#include "datasets/billgen.h"
#include "datasets/csvtype.h"
#include "datasets/stream.h"

static const char *USAGE_MAIN =
   "Usage: billgen COMMAND [options]\n"
   "\n"
   "Realistic hospital bill-detail data for layoutlab: one document per bill line, with the bill's master\n"
   "fields repeated in every line.\n"
   "\n"
   "Commands:\n"
   "  generate   deterministic synthetic bill details into a collection\n"
   "  import     CSV (plain, zstd-compressed or stdin) into a collection\n"
   "  export     a collection as CSV with a typed header (optionally zstd-compressed)\n"
   "\n"
   "Run `billgen COMMAND --help` for a command's options and examples.\n"
   "\n"
   "Examples:\n"
   "  billgen generate --bills 427003 --drop            # the original experiment's size, embedded store\n"
   "  billgen generate --uri mongodb://localhost --bills 10000 --seed 7 --drop\n"
   "  billgen import --headerline --columns-have-types --drop datasets/sample/bills-300.csv.zst\n"
   "  billgen export --src bill_detail -o bills.csv.zst\n\n";

static const char *USAGE_GENERATE =
   "Usage: billgen generate [options]\n"
   "\n"
   "Generate synthetic bill details, deterministically: the same --seed and options give the same\n"
   "documents in the same order on every backend. Each row (~380 bytes of BSON) holds the bill's master\n"
   "fields (bill_id int64, patient_id, patient_name, age int32, hospital, dept, admit_date, insurance --\n"
   "Chinese names, as in the original collection) and its own fields (line_no int32, item_code, item_name,\n"
   "spec, unit, qty/unit_price/amount doubles, charge_time date). _id is an ObjectId stamped with the\n"
   "simulated insertion time and sequence, as mongod would assign it. The index on --key is built after\n"
   "the data.\n"
   "\n"
   "Options:\n"
   "  --dst COLL           collection to fill (default bill_detail)\n"
   "  --bills N            bills to generate (default 1000)\n"
   "  --mean-rows X        mean rows per bill (default 130; the original collection had 129.6)\n"
   "  --dist D             rows-per-bill distribution: lognormal (default; sigma 1.0, mu fitted so the mean\n"
   "                       after rounding and --max-rows is X), zipf (P(k) ~ k^-s, s fitted), uniform\n"
   "                       (1 .. 2X-1), fixed (X rows; a fractional X alternates floor/ceil)\n"
   "  --max-rows N         cap on rows per bill (default 10000; oversize bills are exempt)\n"
   "  --seed S             random seed, decimal or 0x-hex (default 1)\n"
   "  --order O            interleaved (default): rows in charge-time order across all open bills, so one\n"
   "                       bill's rows are scattered as in a live system; clustered: each bill's rows\n"
   "                       together (the same rows; only _id differs)\n"
   "  --open-bills N       bills open at once in interleaved order, approximately (default 1000)\n"
   "  --oversize K         add K bills whose folded form is over 16 MiB (row count computed from the\n"
   "                       smallest possible folded row, so even a fully hoisted fold exceeds 17 MiB)\n"
   "  --key FIELD          name of the bill id field, and the index built on it (default bill_id)\n"
   "  --start DATE         first admission, RFC 3339 (default 2023-01-01T00:00:00Z)\n"
   "  --batch-docs N       documents per insert batch (default 1000)\n"
   "  --drop               replace an existing collection (without it, a non-empty one is an error)\n"
   "\n"
   "Examples:\n"
   "  billgen generate --bills 10000 --drop --json gen.json\n"
   "  billgen generate --bills 500 --oversize 2 --dst bill_big --drop\n"
   "  billgen generate --bills 2000 --order clustered --dst bill_clustered --drop\n"
   "  billgen generate --uri mongodb://db1:27017/lab --bills 427003 --seed 42 --drop\n\n";

static const char *USAGE_IMPORT =
   "Usage: billgen import [options] FILE...\n"
   "\n"
   "Import CSV into a collection, streaming: FILE may be plain CSV, zstd-compressed CSV (recognised by\n"
   "its magic bytes, whatever its name) or - for stdin. RFC 4180 quoting (fields with commas, \"\" for a\n"
   "quote, newlines inside quotes), LF or CRLF line ends and a UTF-8 byte-order mark are handled. Rows go\n"
   "to the store in batches of about 1000 documents, never over the server's message size.\n"
   "\n"
   "Options:\n"
   "  --dst COLL              collection to fill (default bill_detail)\n"
   "  --headerline            the first line of each file names the fields (every file the same)\n"
   "  --fields a,b,...        the field names, when the files have no header line\n"
   "  --columns-have-types    names are typed as mongoimport writes them: name.type(), type one of auto,\n"
   "                          string, int32, int64, double, boolean, date (RFC 3339), decimal, objectid;\n"
   "                          without it every field is auto (int32/int64, else double, else string)\n"
   "  --parse-grace G         what a bad row does: stop (default; the import fails and its collection is\n"
   "                          dropped), skip-row (the row is left out), skip-field (the bad field is left\n"
   "                          out, the row imported; rows with the wrong field count are still skipped)\n"
   "  --reject FILE           write every refused row there, each as one line\n"
   "                            FILE:LINE:COL: reason\n"
   "                          followed by the row exactly as it was in the input (it may span lines);\n"
   "                          skip-field rows appear with \"field left out (skip-field): ...\"\n"
   "  --key FIELD             index this field after the load (default bill_id, when it is a column)\n"
   "  --no-index              build no index\n"
   "  --drop                  replace an existing collection\n"
   "  --append                add to an existing non-empty collection (it is then kept on failure)\n"
   "  --parse-only            read, parse and convert every row but write nothing: the import's ceiling\n"
   "  --batch-docs N          documents per insert batch (default 1000)\n"
   "\n"
   "Empty fields: an empty unquoted field leaves the field out of the document; \"\" is an empty string.\n"
   "Errors name FILE:LINE:COL (COL counts bytes). Invalid UTF-8 and rows with the wrong number of fields\n"
   "are refused; so are documents the store refuses (a duplicate _id, over 16 MiB), at FILE:LINE:1.\n"
   "\n"
   "Examples:\n"
   "  billgen import --headerline --columns-have-types --drop bills.csv.zst\n"
   "  zstd -dc bills.csv.zst | billgen import --headerline --columns-have-types --drop -\n"
   "  billgen import --fields bill_id,item,qty --parse-grace skip-row --reject bad.txt --drop part1.csv "
   "part2.csv\n"
   "  billgen import --headerline --columns-have-types --parse-only --json ceiling.json bills.csv.zst\n\n";

static const char *USAGE_EXPORT =
   "Usage: billgen export [options]\n"
   "\n"
   "Write a collection, in _id order, as CSV whose header carries the types (name.type(), e.g.\n"
   "bill_id.int64(),admit_date.date(),qty.double()), so that `billgen import --headerline\n"
   "--columns-have-types` reproduces the same values with the same types. The columns are the top-level\n"
   "fields of the first --sample documents in first-seen order; a missing field is written as an empty\n"
   "unquoted cell (left out again on import). Documents with arrays, sub-documents, nulls or a field of a\n"
   "second type are refused, naming the document's _id and the field. A file output is written under a\n"
   "temporary name and renamed at the end: a failed export leaves no partial file.\n"
   "\n"
   "Options:\n"
   "  --src COLL           collection to export (default bill_detail)\n"
   "  -o, --out FILE       output file, - for stdout (default -); a name ending in .zst is compressed\n"
   "  --zstd-level N       compress with zstd at level N (1..19; default 3 for .zst names, 0 = plain)\n"
   "  --sample N           documents read to fix the columns (default 1000)\n"
   "\n"
   "Examples:\n"
   "  billgen export --src bill_detail -o bills.csv.zst\n"
   "  billgen export --src bill_detail --zstd-level 19 -o datasets/sample/bills-300.csv.zst\n"
   "  billgen export --src bill_detail | head\n\n";

/* usage_error -- print a usage error and return the usage exit code. */
static int
usage_error (const bson_error_t *error, const char *cmd)
{
   lab_log_error ("%s", error->message);
   fprintf (stderr, "Try 'billgen %s--help'.\n", cmd ? cmd : "");
   return LAB_EXIT_USAGE;
}

/* open_store -- the store named by the common options. */
static lab_store_t *
open_store (const lab_cli_common_t *c, bson_error_t *error)
{
   lab_store_opts_t so = { .db = c->db, .cache_size_bytes = c->cache_size_bytes, .create = true };
   return lab_store_open (c->uri, &so, error);
}

/* write_json -- the summary, when --json was given. */
static bool
write_json (const lab_cli_common_t *c, const bson_t *doc, bson_error_t *error)
{
   if (!c->json_path) {
      return true;
   }
   return lab_json_write (doc, c->json_path, error);
}

/* parse_common_prefix -- common options or -1/0; shared loop head of every command. */
static int
take_common (lab_cli_common_t *c, int argc, char **argv, int *i, bson_error_t *error)
{
   return lab_cli_common_take (c, argc, argv, i, error);
}

/* int_opt -- parse an integer option value into *out. */
static bool
int_opt (const char *v, const char *what, int64_t min, int64_t max, int64_t *out, bson_error_t *error)
{
   return lab_parse_int (v, what, min, max, out, error);
}

static int
cmd_generate (int argc, char **argv)
{
   lab_cli_common_t c;
   lab_generate_opts_t o;
   lab_generate_stats_t st;
   bson_error_t error;
   lab_store_t *store = NULL;
   const char *v;
   int r, rc = LAB_EXIT_FAILURE;
   int64_t n;

   lab_cli_common_init (&c);
   memset (&o, 0, sizeof o);
   lab_gen_params_init (&o.gen);
   o.coll = "bill_detail";

   for (int i = 2; i < argc; i++) {
      if ((r = take_common (&c, argc, argv, &i, &error)) != 0) {
         if (r < 0) {
            return usage_error (&error, "generate ");
         }
         continue;
      }
#define VALUE(name) ((r = lab_cli_value (argc, argv, &i, name, &v, &error)) != 0)
      if (VALUE ("--dst")) {
         if (r < 0) {
            return usage_error (&error, "generate ");
         }
         o.coll = v;
      } else if (VALUE ("--bills")) {
         if (r < 0 || !int_opt (v, "--bills", 0, INT64_C (1) << 40, &o.gen.bills, &error)) {
            return usage_error (&error, "generate ");
         }
      } else if (VALUE ("--mean-rows")) {
         char *end;
         if (r < 0) {
            return usage_error (&error, "generate ");
         }
         o.gen.mean_rows = strtod (v, &end);
         if (!*v || *end || !(o.gen.mean_rows >= 1.0)) {
            lab_error_set (&error, LAB_ERROR_USAGE, 0, "--mean-rows: '%s' is not a number >= 1", v);
            return usage_error (&error, "generate ");
         }
      } else if (VALUE ("--dist")) {
         if (r < 0) {
            return usage_error (&error, "generate ");
         }
         if (!lab_gen_dist_parse (v, &o.gen.dist)) {
            lab_error_set (&error, LAB_ERROR_USAGE, 0,
                           "--dist: '%s' is not one of lognormal, zipf, uniform, fixed", v);
            return usage_error (&error, "generate ");
         }
      } else if (VALUE ("--max-rows")) {
         if (r < 0 || !int_opt (v, "--max-rows", 1, LAB_GEN_MAX_ROWS_LIMIT, &o.gen.max_rows, &error)) {
            return usage_error (&error, "generate ");
         }
      } else if (VALUE ("--seed")) {
         if (r < 0 || !lab_gen_seed_parse (v, &o.gen.seed, &error)) {
            return usage_error (&error, "generate ");
         }
      } else if (VALUE ("--order")) {
         if (r < 0) {
            return usage_error (&error, "generate ");
         }
         if (!lab_gen_order_parse (v, &o.gen.order)) {
            lab_error_set (&error, LAB_ERROR_USAGE, 0, "--order: '%s' is not one of interleaved, clustered",
                           v);
            return usage_error (&error, "generate ");
         }
      } else if (VALUE ("--open-bills")) {
         if (r < 0 || !int_opt (v, "--open-bills", 1, INT64_C (1) << 30, &o.gen.open_bills, &error)) {
            return usage_error (&error, "generate ");
         }
      } else if (VALUE ("--oversize")) {
         if (r < 0 || !int_opt (v, "--oversize", 0, 100000, &o.gen.oversize, &error)) {
            return usage_error (&error, "generate ");
         }
      } else if (VALUE ("--key")) {
         if (r < 0) {
            return usage_error (&error, "generate ");
         }
         o.gen.key = v;
      } else if (VALUE ("--start")) {
         if (r < 0) {
            return usage_error (&error, "generate ");
         }
         if (!lab_csv_parse_date (v, strlen (v), &o.gen.start_ms) || o.gen.start_ms < 0) {
            lab_error_set (&error, LAB_ERROR_USAGE, 0, "--start: '%s' is not an RFC 3339 date after 1970", v);
            return usage_error (&error, "generate ");
         }
      } else if (VALUE ("--batch-docs")) {
         if (r < 0 || !int_opt (v, "--batch-docs", 1, 100000, &n, &error)) {
            return usage_error (&error, "generate ");
         }
         o.batch_docs = (size_t)n;
      } else if (!strcmp (argv[i], "--drop")) {
         o.drop = true;
      } else {
         lab_error_set (&error, LAB_ERROR_USAGE, 0, "unknown option or argument '%s'", argv[i]);
         return usage_error (&error, "generate ");
      }
#undef VALUE
   }
   if (c.help) {
      fputs (USAGE_GENERATE, stdout);
      fputs (lab_cli_common_help (), stdout);
      return LAB_EXIT_OK;
   }
   if (c.version) {
      printf ("billgen %s\n", LAB_VERSION);
      return LAB_EXIT_OK;
   }
   lab_log_set (&c);
   o.progress = c.progress;

   /* parameter errors are usage errors: check them before touching the store */
   lab_gen_t *probe = lab_gen_new (&o.gen, &error);
   if (!probe) {
      return usage_error (&error, "generate ");
   }
   lab_gen_destroy (probe);

   store = open_store (&c, &error);
   if (!store) {
      lab_log_error ("%s", error.message);
      return lab_error_exit_code (&error);
   }
   if (!lab_billgen_generate (store, &o, &st, &error)) {
      lab_log_error ("%s", error.message);
      rc = lab_error_exit_code (&error);
      goto done;
   }
   char b1[32];
   lab_log_info ("generated %" PRId64 " rows of %" PRId64 " bills (%" PRId64
                 " oversize) into '%s' in %.2f s: %.0f "
                 "rows/s, %s of BSON (%.0f B/row)",
                 st.rows, st.bills, st.oversize_bills, o.coll, st.seconds,
                 st.insert_seconds > 0 ? (double)st.rows / st.insert_seconds : 0.0,
                 lab_format_bytes ((uint64_t)st.bson_bytes, b1, sizeof b1),
                 st.rows ? (double)st.bson_bytes / (double)st.rows : 0.0);
   {
      bson_t j = BSON_INITIALIZER;
      BSON_APPEND_UTF8 (&j, "command", "generate");
      BSON_APPEND_UTF8 (&j, "tool_version", LAB_VERSION);
      BSON_APPEND_UTF8 (&j, "uri", lab_store_uri_redacted (store));
      BSON_APPEND_UTF8 (&j, "collection", o.coll);
      BSON_APPEND_INT64 (&j, "rows", st.rows);
      BSON_APPEND_INT64 (&j, "bills", st.bills);
      BSON_APPEND_INT64 (&j, "oversize_bills", st.oversize_bills);
      BSON_APPEND_INT64 (&j, "oversize_rows_per_bill", st.oversize_rows_per_bill);
      BSON_APPEND_INT64 (&j, "bytes", st.bson_bytes);
      BSON_APPEND_DOUBLE (&j, "avg_row_bytes", st.rows ? (double)st.bson_bytes / (double)st.rows : 0.0);
      BSON_APPEND_DOUBLE (&j, "seconds", st.seconds);
      BSON_APPEND_DOUBLE (&j, "insert_seconds", st.insert_seconds);
      BSON_APPEND_DOUBLE (&j, "rows_per_s",
                          st.insert_seconds > 0 ? (double)st.rows / st.insert_seconds : 0.0);
      BSON_APPEND_INT64 (&j, "rejects", 0);
      BSON_APPEND_INT64 (&j, "open_bills_peak", st.open_bills_peak);
      bson_t p;
      BSON_APPEND_DOCUMENT_BEGIN (&j, "params", &p);
      char seed[32];
      bson_snprintf (seed, sizeof seed, "%" PRIu64, o.gen.seed);
      BSON_APPEND_UTF8 (&p, "seed", seed);
      BSON_APPEND_DOUBLE (&p, "mean_rows", o.gen.mean_rows);
      BSON_APPEND_UTF8 (&p, "dist", lab_gen_dist_name (o.gen.dist));
      BSON_APPEND_INT64 (&p, "max_rows", o.gen.max_rows);
      BSON_APPEND_UTF8 (&p, "order", lab_gen_order_name (o.gen.order));
      BSON_APPEND_INT64 (&p, "open_bills", o.gen.open_bills);
      BSON_APPEND_UTF8 (&p, "key", o.gen.key);
      bson_append_document_end (&j, &p);
      bool ok = write_json (&c, &j, &error);
      bson_destroy (&j);
      if (!ok) {
         lab_log_error ("%s", error.message);
         goto done;
      }
   }
   rc = LAB_EXIT_OK;

done:
   lab_store_close (store);
   return rc;
}

static int
cmd_import (int argc, char **argv)
{
   lab_cli_common_t c;
   lab_import_opts_t o;
   lab_import_stats_t st;
   bson_error_t error;
   lab_store_t *store = NULL;
   const char *v;
   int r, rc = LAB_EXIT_FAILURE;
   int64_t n;
   const char **files = bson_malloc0 ((size_t)argc * sizeof *files);
   size_t nfiles = 0;

   lab_cli_common_init (&c);
   memset (&o, 0, sizeof o);
   o.coll = "bill_detail";
   o.key = "bill_id";

   for (int i = 2; i < argc; i++) {
      if (argv[i][0] != '-' || !strcmp (argv[i], "-")) {
         files[nfiles++] = argv[i];
         continue;
      }
      if ((r = take_common (&c, argc, argv, &i, &error)) != 0) {
         if (r < 0) {
            goto usage;
         }
         continue;
      }
#define VALUE(name) ((r = lab_cli_value (argc, argv, &i, name, &v, &error)) != 0)
      if (VALUE ("--dst")) {
         if (r < 0) {
            goto usage;
         }
         o.coll = v;
      } else if (VALUE ("--key")) {
         if (r < 0) {
            goto usage;
         }
         o.key = v;
         o.key_given = true;
      } else if (VALUE ("--fields")) {
         if (r < 0) {
            goto usage;
         }
         o.fields = v;
      } else if (VALUE ("--parse-grace")) {
         if (r < 0) {
            goto usage;
         }
         if (!lab_grace_parse (v, &o.grace)) {
            lab_error_set (&error, LAB_ERROR_USAGE, 0,
                           "--parse-grace: '%s' is not one of stop, skip-row, skip-field", v);
            goto usage;
         }
      } else if (VALUE ("--reject")) {
         if (r < 0) {
            goto usage;
         }
         o.reject_path = v;
      } else if (VALUE ("--batch-docs")) {
         if (r < 0 || !int_opt (v, "--batch-docs", 1, 100000, &n, &error)) {
            goto usage;
         }
         o.batch_docs = (size_t)n;
      } else if (!strcmp (argv[i], "--headerline")) {
         o.headerline = true;
      } else if (!strcmp (argv[i], "--columns-have-types")) {
         o.typed = true;
      } else if (!strcmp (argv[i], "--no-index")) {
         o.no_index = true;
      } else if (!strcmp (argv[i], "--drop")) {
         o.drop = true;
      } else if (!strcmp (argv[i], "--append")) {
         o.append = true;
      } else if (!strcmp (argv[i], "--parse-only")) {
         o.parse_only = true;
      } else if (!strcmp (argv[i], "--")) {
         for (i++; i < argc; i++) {
            files[nfiles++] = argv[i];
         }
      } else {
         lab_error_set (&error, LAB_ERROR_USAGE, 0, "unknown option '%s'", argv[i]);
         goto usage;
      }
#undef VALUE
   }
   if (c.help) {
      fputs (USAGE_IMPORT, stdout);
      fputs (lab_cli_common_help (), stdout);
      rc = LAB_EXIT_OK;
      goto done;
   }
   if (c.version) {
      printf ("billgen %s\n", LAB_VERSION);
      rc = LAB_EXIT_OK;
      goto done;
   }
   if (o.headerline && o.fields) {
      lab_error_set (&error, LAB_ERROR_USAGE, 0, "--headerline and --fields exclude each other");
      goto usage;
   }
   if (!o.headerline && !o.fields) {
      lab_error_set (&error, LAB_ERROR_USAGE, 0,
                     "say where the field names come from: --headerline or --fields");
      goto usage;
   }
   if (o.drop && o.append) {
      lab_error_set (&error, LAB_ERROR_USAGE, 0, "--drop and --append exclude each other");
      goto usage;
   }
   if (nfiles == 0) {
      lab_error_set (&error, LAB_ERROR_USAGE, 0, "no input: name one or more CSV files, or - for stdin");
      goto usage;
   }
   if (o.reject_path && strcmp (o.reject_path, "-") == 0) {
      lab_error_set (&error, LAB_ERROR_USAGE, 0, "--reject needs a file name");
      goto usage;
   }
   o.files = files;
   o.nfiles = nfiles;
   o.progress = c.progress;
   lab_log_set (&c);

   /* what can be checked without the store is checked first: a bad --fields or a missing input never
    * creates a store or a collection */
   if (o.fields) {
      lab_csv_header_t h = { 0 };
      bool hok = lab_csv_header_from_list (&h, o.fields, o.typed, &error);
      lab_csv_header_cleanup (&h);
      if (!hok) {
         goto usage;
      }
   }
   for (size_t k = 0; k < nfiles; k++) {
      if (strcmp (files[k], "-") != 0) {
         lab_input_t *in = lab_input_open (files[k], &error);
         if (!in) {
            lab_log_error ("%s", error.message);
            rc = lab_error_exit_code (&error);
            goto done;
         }
         lab_input_close (in);
      }
   }

   if (!o.parse_only) {
      store = open_store (&c, &error);
      if (!store) {
         lab_log_error ("%s", error.message);
         rc = lab_error_exit_code (&error);
         goto done;
      }
   }
   bool ok = lab_billgen_import (store, &o, &st, &error);
   if (!ok) {
      lab_log_error ("%s", error.message);
      if (st.dropped_partial) {
         lab_log_error ("collection '%s' dropped: nothing of this import is kept (%" PRId64
                        " rows read, %" PRId64 " refused)",
                        o.coll, st.rows_read, st.rejects);
      } else if (!o.parse_only && o.append) {
         lab_log_error ("collection '%s' keeps the rows written before the failure (--append)", o.coll);
      }
      rc = lab_error_exit_code (&error);
   }
   if (ok) {
      char b1[32];
      char *where = o.parse_only ? bson_strdup ("") : bson_strdup_printf (" into '%s'", o.coll);
      lab_log_info ("%s %" PRId64 " of %" PRId64 " rows%s in %.2f s (%.0f rows/s, %s of CSV); %" PRId64
                    " refused, %" PRId64 " fields left out%s",
                    o.parse_only ? "parsed" : "imported", st.rows_inserted, st.rows_read, where, st.seconds,
                    st.seconds > 0 ? (double)st.rows_inserted / st.seconds : 0.0,
                    lab_format_bytes (st.csv_bytes, b1, sizeof b1), st.rejects, st.fields_skipped,
                    (st.rejects || st.fields_skipped) && o.reject_path ? " (see the --reject file)" : "");
      bson_free (where);
   }
   {
      bson_t j = BSON_INITIALIZER;
      BSON_APPEND_UTF8 (&j, "command", o.parse_only ? "import-parse-only" : "import");
      BSON_APPEND_UTF8 (&j, "tool_version", LAB_VERSION);
      BSON_APPEND_BOOL (&j, "ok", ok);
      if (!ok) {
         BSON_APPEND_UTF8 (&j, "error", error.message);
      }
      if (store) {
         BSON_APPEND_UTF8 (&j, "uri", lab_store_uri_redacted (store));
      }
      BSON_APPEND_UTF8 (&j, "collection", o.coll);
      BSON_APPEND_INT64 (&j, "files", st.files);
      BSON_APPEND_INT64 (&j, "rows", st.rows_inserted);
      BSON_APPEND_INT64 (&j, "rows_read", st.rows_read);
      BSON_APPEND_INT64 (&j, "bills", st.bills);
      BSON_APPEND_INT64 (&j, "bytes", (int64_t)st.bson_bytes);
      BSON_APPEND_INT64 (&j, "csv_bytes", (int64_t)st.csv_bytes);
      BSON_APPEND_INT64 (&j, "file_bytes", (int64_t)st.file_bytes);
      BSON_APPEND_DOUBLE (&j, "seconds", st.seconds);
      BSON_APPEND_DOUBLE (&j, "rows_per_s", st.seconds > 0 ? (double)st.rows_inserted / st.seconds : 0.0);
      BSON_APPEND_DOUBLE (&j, "load_seconds", st.load_seconds);
      BSON_APPEND_DOUBLE (&j, "load_rows_per_s",
                          st.load_seconds > 0 ? (double)st.rows_inserted / st.load_seconds : 0.0);
      BSON_APPEND_INT64 (&j, "rejects", st.rejects);
      BSON_APPEND_INT64 (&j, "fields_skipped", st.fields_skipped);
      BSON_APPEND_UTF8 (&j, "parse_grace", lab_grace_name (o.grace));
      BSON_APPEND_BOOL (&j, "dropped_partial", st.dropped_partial);
      bson_error_t jerr;
      bool jok = write_json (&c, &j, &jerr);
      bson_destroy (&j);
      if (!jok) {
         lab_log_error ("%s", jerr.message);
         if (ok) {
            rc = LAB_EXIT_FAILURE;
            goto done;
         }
      }
   }
   if (ok) {
      rc = LAB_EXIT_OK;
   }
   goto done;

usage:
   rc = usage_error (&error, "import ");
done:
   lab_store_close (store);
   bson_free (files);
   return rc;
}

static int
cmd_export (int argc, char **argv)
{
   lab_cli_common_t c;
   lab_export_opts_t o;
   lab_export_stats_t st;
   bson_error_t error;
   lab_store_t *store = NULL;
   const char *v;
   int r, rc = LAB_EXIT_FAILURE;
   int64_t n;
   bool level_given = false;

   lab_cli_common_init (&c);
   memset (&o, 0, sizeof o);
   o.coll = "bill_detail";
   o.out = "-";
   o.sample = 1000;

   for (int i = 2; i < argc; i++) {
      if ((r = take_common (&c, argc, argv, &i, &error)) != 0) {
         if (r < 0) {
            return usage_error (&error, "export ");
         }
         continue;
      }
#define VALUE(name) ((r = lab_cli_value (argc, argv, &i, name, &v, &error)) != 0)
      if (VALUE ("--src")) {
         if (r < 0) {
            return usage_error (&error, "export ");
         }
         o.coll = v;
      } else if (VALUE ("-o") || VALUE ("--out")) {
         if (r < 0) {
            return usage_error (&error, "export ");
         }
         o.out = v;
      } else if (VALUE ("--zstd-level")) {
         if (r < 0 || !int_opt (v, "--zstd-level", 0, 19, &n, &error)) {
            return usage_error (&error, "export ");
         }
         o.zstd_level = (int)n;
         level_given = true;
      } else if (VALUE ("--sample")) {
         if (r < 0 || !int_opt (v, "--sample", 1, 100000000, &o.sample, &error)) {
            return usage_error (&error, "export ");
         }
      } else {
         lab_error_set (&error, LAB_ERROR_USAGE, 0, "unknown option or argument '%s'", argv[i]);
         return usage_error (&error, "export ");
      }
#undef VALUE
   }
   if (c.help) {
      fputs (USAGE_EXPORT, stdout);
      fputs (lab_cli_common_help (), stdout);
      return LAB_EXIT_OK;
   }
   if (c.version) {
      printf ("billgen %s\n", LAB_VERSION);
      return LAB_EXIT_OK;
   }
   if (!level_given && lab_path_has_suffix (o.out, ".zst")) {
      o.zstd_level = 3;
   }
   if (c.json_path && !strcmp (c.json_path, "-") && !strcmp (o.out, "-")) {
      lab_error_set (&error, LAB_ERROR_USAGE, 0,
                     "--json - and the CSV cannot both go to stdout: give -o FILE");
      return usage_error (&error, "export ");
   }
   o.progress = c.progress;
   lab_log_set (&c);

   store = open_store (&c, &error);
   if (!store) {
      lab_log_error ("%s", error.message);
      return lab_error_exit_code (&error);
   }
   if (!lab_billgen_export (store, &o, &st, &error)) {
      lab_log_error ("%s", error.message);
      rc = lab_error_exit_code (&error);
      goto done;
   }
   {
      char b1[32], b2[32];
      lab_log_info ("exported %" PRId64 " rows of '%s' (%" PRId64
                    " columns) in %.2f s: %s of CSV, %s written%s",
                    st.rows, o.coll, st.columns, st.seconds, lab_format_bytes (st.csv_bytes, b1, sizeof b1),
                    lab_format_bytes (st.file_bytes, b2, sizeof b2), o.zstd_level > 0 ? " (zstd)" : "");
      bson_t j = BSON_INITIALIZER;
      BSON_APPEND_UTF8 (&j, "command", "export");
      BSON_APPEND_UTF8 (&j, "tool_version", LAB_VERSION);
      BSON_APPEND_UTF8 (&j, "uri", lab_store_uri_redacted (store));
      BSON_APPEND_UTF8 (&j, "collection", o.coll);
      BSON_APPEND_UTF8 (&j, "out", o.out);
      BSON_APPEND_INT64 (&j, "rows", st.rows);
      BSON_APPEND_INT64 (&j, "columns", st.columns);
      BSON_APPEND_INT64 (&j, "bytes", (int64_t)st.csv_bytes);
      BSON_APPEND_INT64 (&j, "file_bytes", (int64_t)st.file_bytes);
      BSON_APPEND_INT32 (&j, "zstd_level", o.zstd_level);
      BSON_APPEND_DOUBLE (&j, "seconds", st.seconds);
      BSON_APPEND_INT64 (&j, "rejects", 0);
      bool ok = write_json (&c, &j, &error);
      bson_destroy (&j);
      if (!ok) {
         lab_log_error ("%s", error.message);
         goto done;
      }
   }
   rc = LAB_EXIT_OK;

done:
   lab_store_close (store);
   return rc;
}

int
main (int argc, char **argv)
{
   lab_log_set_tool ("billgen");
   lab_log_sink_set (lab_log_sink_stderr, NULL);
   if (argc < 2) {
      fputs (USAGE_MAIN, stderr);
      return LAB_EXIT_USAGE;
   }
   const char *cmd = argv[1];
   if (!strcmp (cmd, "generate")) {
      return cmd_generate (argc, argv);
   }
   if (!strcmp (cmd, "import")) {
      return cmd_import (argc, argv);
   }
   if (!strcmp (cmd, "export")) {
      return cmd_export (argc, argv);
   }
   if (!strcmp (cmd, "-h") || !strcmp (cmd, "--help") || !strcmp (cmd, "help")) {
      fputs (USAGE_MAIN, stdout);
      fputs (lab_cli_common_help (), stdout);
      return LAB_EXIT_OK;
   }
   if (!strcmp (cmd, "--version")) {
      printf ("billgen %s\n", LAB_VERSION);
      return LAB_EXIT_OK;
   }
   fprintf (stderr, "billgen: error: unknown command '%s' (generate, import or export)\n", cmd);
   fprintf (stderr, "Try 'billgen --help'.\n");
   return LAB_EXIT_USAGE;
}
