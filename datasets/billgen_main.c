/*
 * billgen_main.c -- the `billgen` tool: parses options, calls the billgen library (generate, import,
 * export), prints a summary and maps errors to exit codes (0 ok, 1 failure, 2 usage). The commands that
 * look after a database (collections, clean) are in billgen_admin.c, what all share in billgen_cli.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/error.h"
#include "store/mark.h"
#include "core/opts.h"
#include "store/store.h"
#include "datasets/billgen.h"
#include "datasets/csvtype.h"
#include "datasets/stream.h"
#include "datasets/billgen_cli.h"

static const char *USAGE_MAIN =
   "Usage: billgen COMMAND [options]\n"
   "\n"
   "Realistic hospital bill-detail data for layoutlab: one document per bill line, with the bill's master\n"
   "fields repeated in every line.\n"
   "\n"
   "Commands:\n"
   "  generate     deterministic synthetic bill details into a collection\n"
   "  import       CSV (plain, zstd-compressed or stdin) into a collection\n"
   "  export       a collection as CSV with a typed header (optionally zstd-compressed)\n"
   "  collections  the database's collections, which of them layoutlab wrote, and the indexes it built\n"
   "  clean        remove what layoutlab created (its collections, indexes and records), after asking\n"
   "\n"
   "Run `billgen COMMAND --help` for a command's options and examples.\n"
   "\n"
   "Examples:\n"
   "  billgen generate --bills 427003 --drop            # the original experiment's size, embedded store\n"
   "  billgen generate --uri mongodb://localhost --bills 10000 --seed 7 --drop\n"
   "  billgen import --headerline --columns-have-types --drop datasets/sample/bills-300.csv.zst\n"
   "  billgen export --src bill_detail -o bills.csv.zst\n"
   "  billgen clean --uri mongodb://localhost/hospital --dry-run   # what layoutlab left there\n\n";

static const char *USAGE_GENERATE =
   "Usage: billgen generate [options]\n"
   "\n"
   "Generate synthetic bill details, deterministically (the same --seed and options give the same\n"
   "documents in the same order on every backend): per row (~380 bytes of BSON) the bill's master fields\n"
   "(bill_id int64, patient_id, patient_name, age, hospital, dept, admit_date, insurance) and its own\n"
   "(line_no, item_code, item_name, spec, unit, qty, unit_price, amount, charge_time); _id an ObjectId as\n"
   "mongod assigns it. The --key index is built after the data. The embedded store writes unjournaled\n"
   "until the checkpoint that ends the run, as mongod on a replica set member (the same layout on disk;\n"
   "an interrupted run leaves the last checkpoint's rows: run it again with --drop).\n"
   "\n"
   "Options:\n"
   "  --dst COLL           collection to fill (default bill_detail): fold-details reads it as --src,\n"
   "                       scancmp as --detail. The output is a collection: -o/--out is refused\n"
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
   "  --parallel N         workers generating and inserting (default: the core count); worker k takes\n"
   "                       every N-th batch of rows, placed where one worker would put it, so the\n"
   "                       collection (documents, _ids, RecordIds) is the same for every N\n"
   "  --drop               replace an existing collection (without it, a non-empty one is an error). On a\n"
   "                       MongoDB server, a collection layoutlab did not write (no marker in the\n"
   "                       database's _layoutlab) is shown and dropped only after \"y\" on a terminal,\n"
   "                       or with --yes; otherwise nothing is dropped (exit 2)\n"
   "  --yes                drop such a collection without asking\n"
   "  --block-compressor C block compressor of the collection: none, snappy (mongod's default), zlib, zstd.\n"
   "                       Embedded: the table's block_compressor (zstd is layoutlab's own compressor);\n"
   "                       MongoDB: create with storageEngine.wiredTiger.configString; the summary says\n"
   "                       whether the server kept it (FerretDB ignores it: said on stderr and in --json)\n"
   "  --zstd-level N       embedded: zstd compression level, 1..19 (default 6, mongod's)\n"
   "  --preset seed        the original experiment's collection: exactly 427,003 masters and 55,357,286\n"
   "                       rows (lognormal row counts rescaled so that they sum exactly), keyed by a\n"
   "                       string patient ID, ETL_Patient_IDStr (\"ZY202300000001\"), the master fields\n"
   "                       repeated in every row, interleaved order; it sets --bills, --mean-rows, --dist\n"
   "                       and --key itself\n"
   "  --scale F            with --preset: the same shape scaled, masters and rows both multiplied by F\n"
   "                       and rounded (0.1: 42,700 masters and 5,535,729 rows)\n"
   "\n"
   "Examples:\n"
   "  billgen generate --bills 10000 --drop --json gen.json\n"
   "  billgen generate --bills 500 --oversize 2 --dst bill_big --drop\n"
   "  billgen generate --bills 2000 --order clustered --dst bill_clustered --drop\n"
   "  billgen generate --preset seed --scale 0.01 --drop    # 4,270 masters, 553,573 rows\n"
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
   "  --dst COLL              collection to fill (default bill_detail): fold-details reads it as --src,\n"
   "                          scancmp as --detail. The output is a collection: -o/--out is refused\n"
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
   "  --key FIELD             the master key, indexed after the load (default bill_id): a header (or\n"
   "                          --fields) without it is refused before the collection is touched\n"
   "  --no-index              build no key index (and accept a header without the key)\n"
   "  --drop                  replace an existing collection (on a server, one layoutlab did not write\n"
   "                          needs \"y\" on a terminal or --yes, as billgen generate --drop)\n"
   "  --yes                   drop such a collection without asking\n"
   "  --block-compressor C    block compressor of the collection (as billgen generate)\n"
   "  --zstd-level N          embedded: zstd compression level (default 6)\n"
   "  --append                add to an existing non-empty collection (it is then kept on failure)\n"
   "  --parse-only            read, parse and convert every row but write nothing: the import's ceiling\n"
   "  --batch-docs N          documents per insert batch (default 1000)\n"
   "  --parallel N            writers (default 1): writer k sends every N-th batch, placed where one\n"
   "                          writer would put it (on the embedded store the rows keep the file's\n"
   "                          order; a server orders batches as they arrive). Not with --append\n"
   "\n"
   "mongoimport's spellings are accepted where they mean the same: --collection/-c (--dst), -d (--db),\n"
   "--numInsertionWorkers/-j (--parallel), --columnsHaveTypes, --type csv, --file FILE (an input).\n"
   "\n"
   "Empty fields: an empty unquoted field leaves the field out of the document; \"\" is an empty string.\n"
   "Errors name FILE:LINE:COL (COL counts bytes). Invalid UTF-8 and rows with the wrong number of fields\n"
   "are refused; so are documents the store refuses (a duplicate _id, over 16 MiB), at FILE:LINE:1.\n"
   "A killed import (SIGKILL) cannot drop what it wrote: the collection keeps the input's first\n"
   "rows in whole batches, perhaps without its key index. Run the import again with --drop.\n"
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
   "  --src COLL           collection to export (default bill_detail; any collection of flat documents:\n"
   "                       what billgen generate or import wrote as --dst, fold-details reads as --src)\n"
   "  -o, --out FILE       output file, - for stdout (default -); a name ending in .zst is compressed;\n"
   "                       --output is the same option\n"
   "  --zstd-level N       compress with zstd at level N (1..19; default 3 for .zst names, 0 = plain)\n"
   "  --sample N           documents read to fix the columns (default 1000)\n"
   "\n"
   "Examples:\n"
   "  billgen export --src bill_detail -o bills.csv.zst\n"
   "  billgen export --src bill_detail --zstd-level 19 -o datasets/sample/bills-300.csv.zst\n"
   "  billgen export --src bill_detail | head\n\n";

/* compress_check -- a known compressor name (usage error otherwise). */
static bool
compress_check (const lab_gen_compress_opts_t *z, bson_error_t *error)
{
   return !z->name || lab_store_block_compressor_check (z->name, error);
}

/* summary_compressor -- what the collection was created with, and how the backend applied it. */
static void
summary_compressor (bson_t *j, const lab_store_t *store)
{
   const char *name = store ? lab_store_block_compressor (store) : NULL;

   BSON_APPEND_UTF8 (j, "block_compressor", name ? name : "server default");
   BSON_APPEND_UTF8 (j, "block_compressor_note", store ? lab_store_compressor_note (store) : "");
}

/* parse_seed -- --seed: decimal or 0x-hex. */
static bool
parse_seed (const char *v, void *field, const char *name, bson_error_t *error)
{
   (void)name;
   return lab_gen_seed_parse (v, field, error);
}

/* parse_start -- --start: an RFC 3339 date after 1970, as ms since the epoch. */
static bool
parse_start (const char *v, void *field, const char *name, bson_error_t *error)
{
   int64_t *ms = field;

   if (!lab_gen_csv_parse_date (v, strlen (v), ms) || *ms < 0) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "%s: '%s' is not an RFC 3339 date after 1970", name, v);
      return false;
   }
   return true;
}

static const char *const dist_names[] = { "lognormal", "zipf", "uniform", "fixed",
                                          NULL };                                    /* lab_gen_dist_t */
static const char *const order_names[] = { "interleaved", "clustered", NULL };       /* lab_gen_order_t */
static const char *const grace_names[] = { "stop", "skip-row", "skip-field", NULL }; /* lab_gen_grace_t */
static const char *const csv_only[] = { "csv", NULL }; /* import --type (mongoimport's; tsv/json: no) */

/* What -o/--out says on a command whose output is a collection. */
#define OUT_IS_A_COLLECTION                                                                                  \
   "this command writes a collection, not a file: name it with --dst COLL (a summary file: --json FILE)"

/* The options a preset sets itself: giving one of them with --preset is a usage error. */
static const char *const preset_fixes[] = { "--bills", "--mean-rows", "--dist", "--oversize", "--key", NULL };
#define N_PRESET_FIXES 5

/* mark_seen -- point the `seen` flag of each option named in `names` at seen[i] (the i-th name). */
static void
mark_seen (lab_cli_opt_t *opts, const char *const *names, bool *seen)
{
   for (size_t i = 0; names[i]; i++) {
      for (lab_cli_opt_t *op = opts; op->name; op++) {
         if (strcmp (op->name, names[i]) == 0) {
            op->seen = &seen[i];
         }
      }
   }
}

/* apply_preset -- --preset NAME [--scale F] into the generator's parameters; --scale alone, or a preset
 * with an option it fixes, is a usage error. No preset: nothing to do. */
static bool
apply_preset (lab_gen_params_t *gen, const char *preset, double scale, bool scale_seen, const bool *seen,
              bson_error_t *error)
{
   if (!preset) {
      if (scale_seen) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_MISUSE,
                        "--scale scales a preset: add --preset seed");
         return false;
      }
      return true;
   }
   for (size_t i = 0; i < N_PRESET_FIXES; i++) {
      if (seen[i]) {
         lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                        "--preset %s sets %s itself: leave %s out (or drop --preset)", preset,
                        preset_fixes[i], preset_fixes[i]);
         return false;
      }
   }
   return lab_gen_preset_apply (gen, preset, scale, error);
}

/* append_generate_params -- the generator's settings: the --json summary's params and, with the
 * compressor `z` (NULL: left out), the collection's marker (store/mark.h). */
static void
append_generate_params (bson_t *p, const lab_gen_generate_opts_t *o, const char *preset, double scale,
                        const lab_gen_compress_opts_t *z)
{
   char seed[32];

   bson_snprintf (seed, sizeof seed, "%" PRIu64, o->gen.seed);
   BSON_APPEND_UTF8 (p, "seed", seed);
   BSON_APPEND_DOUBLE (p, "mean_rows", o->gen.mean_rows);
   BSON_APPEND_UTF8 (p, "dist", lab_gen_dist_name (o->gen.dist));
   BSON_APPEND_INT64 (p, "max_rows", o->gen.max_rows);
   BSON_APPEND_UTF8 (p, "order", lab_gen_order_name (o->gen.order));
   BSON_APPEND_INT64 (p, "open_bills", o->gen.open_bills);
   BSON_APPEND_UTF8 (p, "key", o->gen.key);
   BSON_APPEND_UTF8 (p, "key_type", o->gen.key_type == LAB_GEN_KEY_STRING ? "string" : "int64");
   if (preset) {
      BSON_APPEND_UTF8 (p, "preset", preset);
      BSON_APPEND_DOUBLE (p, "scale", scale);
      BSON_APPEND_INT64 (p, "total_rows", o->gen.total_rows);
   }
   if (z) {
      BSON_APPEND_INT64 (p, "bills", o->gen.bills);
      BSON_APPEND_INT64 (p, "oversize", o->gen.oversize);
      BSON_APPEND_INT64 (p, "start_ms", o->gen.start_ms);
      BSON_APPEND_UTF8 (p, "block_compressor", z->name ? z->name : "default");
   }
}

static int
cmd_generate (const lab_cli_run_t *cli, int argc, char **argv)
{
   const char *preset = NULL;
   double scale = 1.0;
   bool seen[N_PRESET_FIXES] = { false }, scale_seen = false, yes = false;
   lab_cli_common_t c;
   lab_gen_generate_opts_t o;
   bson_t mark, mp;
   lab_gen_generate_stats_t st;
   bson_error_t error = { 0 };
   int parallel = 1;
   lab_store_t *store = NULL;
   int rc = LAB_EXIT_FAILURE;
   lab_gen_compress_opts_t z = { 0 };
   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_STRING ("--dst", 0, &o.coll),
      LAB_CLI_OPT_STRING ("--block-compressor", 0, &z.name),
      LAB_CLI_OPT_INT ("--zstd-level", 0, &z.zstd_level, 1, 19),
      LAB_CLI_OPT_INT ("--bills", 0, &o.gen.bills, 0, INT64_C (1) << 40),
      LAB_CLI_OPT_DOUBLE ("--mean-rows", 0, &o.gen.mean_rows),
      LAB_CLI_OPT_ENUM ("--dist", 0, &o.gen.dist, dist_names),
      LAB_CLI_OPT_INT ("--max-rows", 0, &o.gen.max_rows, 1, LAB_GEN_MAX_ROWS_LIMIT),
      LAB_CLI_OPT_CUSTOM ("--seed", 0, &o.gen.seed, parse_seed),
      LAB_CLI_OPT_ENUM ("--order", 0, &o.gen.order, order_names),
      LAB_CLI_OPT_INT ("--open-bills", 0, &o.gen.open_bills, 1, INT64_C (1) << 30),
      LAB_CLI_OPT_INT ("--oversize", 0, &o.gen.oversize, 0, 100000),
      LAB_CLI_OPT_STRING ("--key", 0, &o.gen.key),
      LAB_CLI_OPT_CUSTOM ("--start", 0, &o.gen.start_ms, parse_start),
      LAB_CLI_OPT_INT ("--batch-docs", 0, &o.batch_docs, 1, 100000),
      LAB_CLI_OPT_INT ("--parallel", 0, &parallel, 1, LAB_GEN_MAX_PARALLEL),
      LAB_CLI_OPT_FLAG ("--drop", 0, &o.drop),
      LAB_CLI_OPT_FLAG ("--yes", 0, &yes),
      LAB_CLI_OPT_STRING ("--preset", 0, &preset),
      LAB_CLI_OPT_DOUBLE ("--scale", 0, &scale),
      LAB_CLI_OPT_REFUSED ("--out", 'o', OUT_IS_A_COLLECTION),
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts, .common = &c };

   lab_cli_common_init (&c);
   memset (&o, 0, sizeof o);
   memset (&st, 0, sizeof st);
   lab_gen_params_init (&o.gen);
   {
      long ncpu = sysconf (_SC_NPROCESSORS_ONLN);
      parallel = ncpu < 1 ? 1 : ncpu > LAB_GEN_MAX_PARALLEL ? LAB_GEN_MAX_PARALLEL : (int)ncpu;
   }
   o.coll = "bill_detail";
   mark_seen (opts, preset_fixes, seen);
   mark_seen (opts, (const char *const[]){ "--scale", NULL }, &scale_seen);
   /* parameter errors are usage errors: checked before the store is touched */
   if (!lab_cli_parse (&spec, argc, argv, 2, &error) ||
       (!c.help && !c.version && !apply_preset (&o.gen, preset, scale, scale_seen, seen, &error)) ||
       (!c.help && !c.version &&
        (!lab_gen_generate_opts_check (&o, &error) || !compress_check (&z, &error))) ||
       !lab_cli_output_check (c.json_path, "--json", &error)) {
      return lab_gen_cli_usage_error (&error, "generate");
   }
   if (lab_gen_cli_help (&c, USAGE_GENERATE)) {
      return LAB_EXIT_OK;
   }
   lab_log_set (&c);
   o.progress = c.progress;
   o.parallel = parallel;
   lab_store_mark_begin (&mark, "billgen generate", cli->argc, cli->argv);
   BSON_APPEND_DOCUMENT_BEGIN (&mark, "params", &mp);
   append_generate_params (&mp, &o, preset, scale, &z);
   bson_append_document_end (&mark, &mp);
   o.provenance = &mark;

   store = lab_gen_cli_open_store (cli, "billgen generate", &c, &z, true, true, &error);
   if (store && o.drop &&
       !lab_store_mark_drop_guard (store, o.coll, yes, "--drop",
                                   lab_cli_can_ask () ? lab_cli_confirm_tty : NULL, NULL, &error)) {
      lab_log_error ("%s", error.message);
      rc = LAB_EXIT_USAGE;
   } else if (store && lab_gen_generate (store, &o, &st, &error)) {
      char b1[32];
      lab_log_info ("generated %" PRId64 " rows of %" PRId64 " bills (%" PRId64
                    " oversize) into '%s' in %.2f s: %.0f "
                    "rows/s, %s of BSON (%.0f B/row)",
                    st.rows, st.bills, st.oversize_bills, o.coll, st.seconds,
                    st.insert_seconds > 0 ? (double)st.rows / st.insert_seconds : 0.0,
                    lab_format_bytes ((uint64_t)st.bson_bytes, b1, sizeof b1),
                    st.rows ? (double)st.bson_bytes / (double)st.rows : 0.0);
      rc = LAB_EXIT_OK;
   } else {
      lab_log_error ("%s", error.message);
      rc = lab_error_exit_code (&error);
   }
   if (c.json_path) {
      bson_t j, p;
      lab_gen_cli_summary_begin (&j, cli, rc, &error, "generate", store, o.coll);
      BSON_APPEND_INT64 (&j, "rows", st.rows);
      BSON_APPEND_INT64 (&j, "bills", st.bills);
      BSON_APPEND_INT64 (&j, "oversize_bills", st.oversize_bills);
      BSON_APPEND_INT64 (&j, "oversize_rows_per_bill", st.oversize_rows_per_bill);
      BSON_APPEND_INT64 (&j, "bytes", st.bson_bytes);
      BSON_APPEND_DOUBLE (&j, "avg_row_bytes", st.rows ? (double)st.bson_bytes / (double)st.rows : 0.0);
      BSON_APPEND_DOUBLE (&j, "run_elapsed_s", st.seconds);
      BSON_APPEND_DOUBLE (&j, "insert_elapsed_s", st.insert_seconds);
      BSON_APPEND_DOUBLE (&j, "index_elapsed_s", st.index_seconds);
      BSON_APPEND_DOUBLE (&j, "flush_elapsed_s", st.flush_seconds);
      BSON_APPEND_DOUBLE (&j, "run_cpu_s", st.cpu_seconds);
      BSON_APPEND_DOUBLE (&j, "rows_per_s",
                          st.insert_seconds > 0 ? (double)st.rows / st.insert_seconds : 0.0);
      BSON_APPEND_INT64 (&j, "rejects", 0);
      BSON_APPEND_INT64 (&j, "open_bills_peak", st.open_bills_peak);
      summary_compressor (&j, store);
      BSON_APPEND_INT32 (&j, "workers", o.parallel);
      BSON_APPEND_DOCUMENT_BEGIN (&j, "params", &p);
      append_generate_params (&p, &o, preset, scale, NULL);
      bson_append_document_end (&j, &p);
      rc = lab_gen_cli_write_summary (&c, &j, rc);
   }
   lab_store_close (store);
   bson_destroy (&mark);
   return rc;
}

/* import_mark_params -- the import's settings in the destination's marker ("params": files, fields,
 * headerline, types, parse grace, key, block compressor). */
static void
import_mark_params (bson_t *mark, const lab_gen_import_opts_t *o, const lab_gen_compress_opts_t *z)
{
   bson_t mp, fa;
   char idx[16];
   const char *k;

   BSON_APPEND_DOCUMENT_BEGIN (mark, "params", &mp);
   BSON_APPEND_ARRAY_BEGIN (&mp, "files", &fa);
   for (size_t i = 0; i < o->nfiles; i++) {
      bson_uint32_to_string ((uint32_t)i, &k, idx, sizeof idx);
      BSON_APPEND_UTF8 (&fa, k, o->files[i]);
   }
   bson_append_array_end (&mp, &fa);
   BSON_APPEND_UTF8 (&mp, "fields", o->fields ? o->fields : "");
   BSON_APPEND_BOOL (&mp, "headerline", o->headerline);
   BSON_APPEND_BOOL (&mp, "columns_have_types", o->typed);
   BSON_APPEND_UTF8 (&mp, "parse_grace", lab_gen_grace_name (o->grace));
   BSON_APPEND_UTF8 (&mp, "key", o->no_index ? "" : o->key);
   BSON_APPEND_UTF8 (&mp, "block_compressor", z->name ? z->name : "default");
   bson_append_document_end (mark, &mp);
}

/* import_report -- the import's outcome in the log: the error and what became of the collection, or the
 * rows imported; returns the exit code. */
static int
import_report (const lab_gen_import_opts_t *o, const lab_gen_import_stats_t *st, bool ok,
               const bson_error_t *error)
{
   if (!ok) {
      lab_log_error ("%s", error->message);
      if (st->dropped_partial) {
         lab_log_error ("collection '%s' dropped: nothing of this import is kept (%" PRId64
                        " rows read, %" PRId64 " refused)",
                        o->coll, st->rows_read, st->rejects);
      } else if (!o->parse_only && o->append) {
         lab_log_error ("collection '%s' keeps the rows written before the failure (--append)", o->coll);
      }
      return lab_error_exit_code (error);
   }
   char b1[32];
   char *where = o->parse_only ? bson_strdup ("") : bson_strdup_printf (" into '%s'", o->coll);
   lab_log_info ("%s %" PRId64 " of %" PRId64 " rows%s in %.2f s (%.0f rows/s, %s of CSV); %" PRId64
                 " refused, %" PRId64 " fields left out%s",
                 o->parse_only ? "parsed" : "imported", st->rows_inserted, st->rows_read, where, st->seconds,
                 st->seconds > 0 ? (double)st->rows_inserted / st->seconds : 0.0,
                 lab_format_bytes (st->csv_bytes, b1, sizeof b1), st->rejects, st->fields_skipped,
                 (st->rejects || st->fields_skipped) && o->reject_path ? " (see the --reject file)" : "");
   bson_free (where);
   return LAB_EXIT_OK;
}

/* import_summary_append -- the import's figures for the JSON summary (docs/json-summary.md). */
static void
import_summary_append (bson_t *j, const lab_gen_import_opts_t *o, const lab_gen_import_stats_t *st)
{
   BSON_APPEND_INT64 (j, "files", st->files);
   BSON_APPEND_INT64 (j, "rows", st->rows_inserted);
   BSON_APPEND_INT64 (j, "rows_read", st->rows_read);
   BSON_APPEND_INT64 (j, "bills", st->bills);
   BSON_APPEND_INT64 (j, "bytes", (int64_t)st->bson_bytes);
   BSON_APPEND_INT64 (j, "csv_bytes", (int64_t)st->csv_bytes);
   BSON_APPEND_INT64 (j, "file_bytes", (int64_t)st->file_bytes);
   BSON_APPEND_DOUBLE (j, "run_elapsed_s", st->seconds);
   BSON_APPEND_DOUBLE (j, "rows_per_s", st->seconds > 0 ? (double)st->rows_inserted / st->seconds : 0.0);
   BSON_APPEND_DOUBLE (j, "load_elapsed_s", st->load_seconds);
   BSON_APPEND_DOUBLE (j, "load_rows_per_s",
                       st->load_seconds > 0 ? (double)st->rows_inserted / st->load_seconds : 0.0);
   BSON_APPEND_INT64 (j, "rejects", st->rejects);
   BSON_APPEND_INT64 (j, "fields_skipped", st->fields_skipped);
   BSON_APPEND_UTF8 (j, "parse_grace", lab_gen_grace_name (o->grace));
   BSON_APPEND_BOOL (j, "dropped_partial", st->dropped_partial);
   BSON_APPEND_INT32 (j, "workers", o->parallel > 1 ? o->parallel : 1);
}

static int
cmd_import (const lab_cli_run_t *cli, int argc, char **argv)
{
   lab_cli_common_t c;
   lab_gen_import_opts_t o;
   lab_gen_import_stats_t st;
   bson_error_t error = { 0 };
   lab_store_t *store = NULL;
   lab_gen_import_t *imp = NULL;
   lab_cli_list_t files = { 0 };
   int rc = LAB_EXIT_FAILURE, type = 0;
   bool ok, yes = false;
   lab_gen_compress_opts_t z = { 0 };
   bson_t mark = BSON_INITIALIZER;
   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_STRING ("--dst", 0, &o.coll),
      LAB_CLI_OPT_STRING ("--block-compressor", 0, &z.name),
      LAB_CLI_OPT_INT ("--zstd-level", 0, &z.zstd_level, 1, 19),
      LAB_CLI_OPT_FLAG ("--headerline", 0, &o.headerline),
      LAB_CLI_OPT_STRING ("--fields", 0, &o.fields),
      LAB_CLI_OPT_FLAG ("--columns-have-types", 0, &o.typed),
      LAB_CLI_OPT_ENUM ("--parse-grace", 0, &o.grace, grace_names),
      LAB_CLI_OPT_STRING ("--reject", 0, &o.reject_path),
      { .name = "--key", .kind = LAB_CLI_STRING, .field = &o.key, .seen = &o.key_given },
      LAB_CLI_OPT_FLAG ("--no-index", 0, &o.no_index),
      LAB_CLI_OPT_FLAG ("--drop", 0, &o.drop),
      LAB_CLI_OPT_FLAG ("--yes", 0, &yes),
      LAB_CLI_OPT_FLAG ("--append", 0, &o.append),
      LAB_CLI_OPT_FLAG ("--parse-only", 0, &o.parse_only),
      LAB_CLI_OPT_INT ("--batch-docs", 0, &o.batch_docs, 1, 100000),
      LAB_CLI_OPT_INT ("--parallel", 0, &o.parallel, 1, LAB_GEN_MAX_PARALLEL),
      LAB_CLI_OPT_REFUSED ("--out", 'o', OUT_IS_A_COLLECTION),
      /* mongoimport's spellings of the same things (DESIGN.md, notes/peers.md) */
      LAB_CLI_OPT_ALIAS ("--collection", 'c', "--dst"),
      LAB_CLI_OPT_ALIAS ("-d", 0, "--db"),
      LAB_CLI_OPT_ALIAS ("--numInsertionWorkers", 'j', "--parallel"),
      LAB_CLI_OPT_ALIAS ("--columnsHaveTypes", 0, "--columns-have-types"),
      LAB_CLI_OPT_ENUM ("--type", 0, &type, csv_only),
      LAB_CLI_OPT_LIST ("--file", 0, &files),
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts, .common = &c, .positionals = &files };

   lab_cli_common_init (&c);
   memset (&o, 0, sizeof o);
   memset (&st, 0, sizeof st);
   o.coll = "bill_detail";
   o.key = "bill_id";
   if (!lab_cli_parse (&spec, argc, argv, 2, &error) || !compress_check (&z, &error) ||
       !lab_cli_output_check (c.json_path, "--json", &error) ||
       !lab_cli_output_check (o.reject_path, "--reject", &error)) {
      rc = lab_gen_cli_usage_error (&error, "import");
      goto done;
   }
   if (lab_gen_cli_help (&c, USAGE_IMPORT)) {
      rc = LAB_EXIT_OK;
      goto done;
   }
   o.files = files.v;
   o.nfiles = files.n;
   o.progress = c.progress;
   lab_log_set (&c);
   bson_destroy (&mark);
   lab_store_mark_begin (&mark, "billgen import", cli->argc, cli->argv);
   import_mark_params (&mark, &o, &z);
   o.provenance = &mark;

   /* the options are checked and every input opened (once) before the store: a bad --fields or a
    * missing input never creates a store or a collection */
   imp = lab_gen_import_new (&o, &error);
   if (!imp && error.domain == LAB_ERROR_USAGE) {
      rc = lab_gen_cli_usage_error (&error, "import");
      goto done;
   }
   if (imp && !o.parse_only) {
      store = lab_gen_cli_open_store (cli, "billgen import", &c, &z, true, false, &error);
   }
   if (store && o.drop &&
       !lab_store_mark_drop_guard (store, o.coll, yes, "--drop",
                                   lab_cli_can_ask () ? lab_cli_confirm_tty : NULL, NULL, &error)) {
      rc = lab_gen_cli_usage_error (&error, "import");
      goto done;
   }
   ok = imp && (o.parse_only || store) && lab_gen_import_run (imp, store, &st, &error);
   rc = import_report (&o, &st, ok, &error);
   if (c.json_path) {
      bson_t j;
      lab_gen_cli_summary_begin (&j, cli, rc, &error, o.parse_only ? "import-parse-only" : "import", store,
                                 o.coll);
      import_summary_append (&j, &o, &st);
      if (!o.parse_only) {
         summary_compressor (&j, store);
      }
      rc = lab_gen_cli_write_summary (&c, &j, rc);
   }

done:
   lab_gen_import_destroy (imp);
   lab_store_close (store);
   lab_cli_list_free (&files);
   bson_destroy (&mark);
   return rc;
}

static int
cmd_export (const lab_cli_run_t *cli, int argc, char **argv)
{
   lab_cli_common_t c;
   lab_gen_export_opts_t o;
   lab_gen_export_stats_t st;
   bson_error_t error = { 0 };
   lab_store_t *store = NULL;
   int rc = LAB_EXIT_FAILURE;
   bool level_given = false;
   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_STRING ("--src", 0, &o.coll),
      LAB_CLI_OPT_STRING ("--out", 'o', &o.out),
      LAB_CLI_OPT_ALIAS ("--output", 0, "--out"),
      { .name = "--zstd-level",
        .kind = LAB_CLI_INT,
        .field = &o.zstd_level,
        .size = sizeof o.zstd_level,
        .min = 0,
        .max = 19,
        .seen = &level_given },
      LAB_CLI_OPT_INT ("--sample", 0, &o.sample, 1, 100000000),
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts, .common = &c };

   lab_cli_common_init (&c);
   memset (&o, 0, sizeof o);
   memset (&st, 0, sizeof st);
   o.coll = "bill_detail";
   o.out = "-";
   o.sample = 1000;
   if (!lab_cli_parse (&spec, argc, argv, 2, &error) || !lab_cli_output_check (o.out, "-o", &error) ||
       !lab_cli_output_check (c.json_path, "--json", &error)) {
      return lab_gen_cli_usage_error (&error, "export");
   }
   if (lab_gen_cli_help (&c, USAGE_EXPORT)) {
      return LAB_EXIT_OK;
   }
   if (!level_given && lab_gen_path_has_suffix (o.out, ".zst")) {
      o.zstd_level = 3;
   }
   if (c.json_path && !strcmp (c.json_path, "-") && !strcmp (o.out, "-")) {
      lab_error_set (&error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--json - and the CSV cannot both go to stdout: give -o FILE");
      return lab_gen_cli_usage_error (&error, "export");
   }
   o.progress = c.progress;
   lab_log_set (&c);

   store = lab_gen_cli_open_store (cli, "billgen export", &c, &(lab_gen_compress_opts_t){ 0 }, false, false,
                                   &error); /* export creates no collection */
   if (store && lab_gen_export (store, &o, &st, &error)) {
      char b1[32], b2[32];
      lab_log_info ("exported %" PRId64 " rows of '%s' (%" PRId64
                    " columns) in %.2f s: %s of CSV, %s written%s",
                    st.rows, o.coll, st.columns, st.seconds, lab_format_bytes (st.csv_bytes, b1, sizeof b1),
                    lab_format_bytes (st.file_bytes, b2, sizeof b2), o.zstd_level > 0 ? " (zstd)" : "");
      rc = LAB_EXIT_OK;
   } else {
      lab_log_error ("%s", error.message);
      rc = lab_error_exit_code (&error);
   }
   if (c.json_path) {
      bson_t j;
      lab_gen_cli_summary_begin (&j, cli, rc, &error, "export", store, o.coll);
      BSON_APPEND_UTF8 (&j, "out", o.out);
      BSON_APPEND_INT64 (&j, "rows", st.rows);
      BSON_APPEND_INT64 (&j, "columns", st.columns);
      BSON_APPEND_INT64 (&j, "bytes", (int64_t)st.csv_bytes);
      BSON_APPEND_INT64 (&j, "file_bytes", (int64_t)st.file_bytes);
      BSON_APPEND_INT32 (&j, "zstd_level", o.zstd_level);
      BSON_APPEND_DOUBLE (&j, "run_elapsed_s", st.seconds);
      BSON_APPEND_INT64 (&j, "rejects", 0);
      rc = lab_gen_cli_write_summary (&c, &j, rc);
   }
   lab_store_close (store);
   return rc;
}

int
main (int argc, char **argv)
{
   lab_cli_run_t cli;

   lab_cli_run_start (&cli, "billgen", argc, argv);
   lab_log_set_tool ("billgen");
   lab_log_sink_set (lab_log_sink_stderr, NULL);
   if (argc < 2) {
      fputs (USAGE_MAIN, stderr);
      return LAB_EXIT_USAGE;
   }
   const char *cmd = argv[1];
   if (!strcmp (cmd, "generate")) {
      return cmd_generate (&cli, argc, argv);
   }
   if (!strcmp (cmd, "import")) {
      return cmd_import (&cli, argc, argv);
   }
   if (!strcmp (cmd, "export")) {
      return cmd_export (&cli, argc, argv);
   }
   if (!strcmp (cmd, "collections")) {
      return lab_gen_cli_collections (&cli, argc, argv);
   }
   if (!strcmp (cmd, "clean")) {
      return lab_gen_cli_clean (&cli, argc, argv);
   }
   if (!strcmp (cmd, "-h") || !strcmp (cmd, "--help") || !strcmp (cmd, "help") ||
       !strcmp (cmd, "--help-all")) {
      fputs (USAGE_MAIN, stdout);
      fputs (strcmp (cmd, "--help-all") ? lab_cli_common_help_short () : lab_cli_common_help (), stdout);
      return LAB_EXIT_OK;
   }
   if (!strcmp (cmd, "--version")) {
      printf ("billgen %s\n", LAB_VERSION);
      return LAB_EXIT_OK;
   }
   fprintf (stderr, "billgen: error: unknown command '%s' (generate, import, export, collections or clean)\n",
            cmd);
   fprintf (stderr, "Try 'billgen --help'.\n");
   return LAB_EXIT_USAGE;
}
