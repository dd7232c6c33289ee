/*
 * fold_details.c -- the fold-details tool: parse options, run the fold (fold_run.h) and/or the verification
 * (verify.h), print the summary, map errors to exit codes. No fold logic lives here.
 */
#include "core/cli.h"
#include "core/error.h"
#include "store/mark.h"
#include "core/opts.h"
#include "core/suggest.h"
#include "store/store.h"
#include "retry.h"
#include "fold_run.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static const char *usage_text =
   "Usage: fold-details --src COLL --dst COLL [options]\n"
   "\n"
   "Fold the detail rows of each master (rows sharing a --key value) into one document per master that\n"
   "holds them as an array, losing nothing: the key and the hoisted fields at top level, a row count, the\n"
   "rows (with their own _id) in --array-field. Masters over the document cap are split into parts,\n"
   "rejected to a file, or stop the run, never dropped. --verify proves the result holds exactly the\n"
   "source's rows.\n"
   "\n"
   "Folded document: {_id: \"<key id>#<part>\", <key>, <hoisted...>, row_count, part, parts, details: "
   "[...]}\n"
   "  _id is deterministic (\"n:123#0\", \"s:B0001#0\", \"o:<hex>#0\", \"d:<ms>#0\"), so reruns are "
   "idempotent;\n"
   "  every part of a master is found with {<key>: value}. The destination gets an index on the key.\n"
   "\n"
   "Options:\n"
   "  --src COLL              source collection (detail rows)                       (required)\n"
   "                          what billgen wrote (its --dst) and scancmp calls --detail\n"
   "  --dst COLL              destination collection (folded documents)             (required)\n"
   "                          scancmp's --folded (or --layout NAME=COLL:folded). The output is a\n"
   "                          collection: -o/--out is refused\n"
   "  --key FIELD             master key field (default bill_id): string, int32, int64, double, ObjectId,\n"
   "                          date or bool values, of one type (see --allow-mixed-key-types); a field none\n"
   "                          of the source's first rows has is refused naming the fields they have (exit "
   "2)\n"
   "  --hoist auto|none|F,..  fields moved to top level (default auto: fields constant within every master\n"
   "                          of a sample); a row whose value differs keeps it in its element\n"
   "  --hoist-sample N        masters sampled by --hoist auto (default 200)\n"
   "  --array-field NAME      array field (default details)\n"
   "  --max-doc-bytes SIZE    document cap (default: the server's maxBsonObjectSize, 16MiB)\n"
   "  --on-oversize MODE      split (default): continue the master in further documents (part/parts);\n"
   "                          reject: write its rows to --reject and go on; fail: stop with an error\n"
   "  --bucket-rows N         the bucket pattern: at most N rows per document; a master continues in\n"
   "                          further documents (part/parts) exactly as an oversize split does\n"
   "  --bucket-by FIELD:UNIT  one document per master and time window (UNIT hour, day, week (ISO, from\n"
   "                          Monday), month; UTC) of the date FIELD, windows in ascending order, each with\n"
   "                          bucket_start: <date>; a row without FIELD or whose FIELD is not a date stops\n"
   "                          the run naming its _id. Combines with --bucket-rows and the cap; --verify\n"
   "                          checks both limits and that every row lies in its document's window\n"
   "  --reject FILE           JSON lines {key, reason, row} for rejected masters\n"
   "  --shape SHAPE           what --dst holds: folded (default: the documents above); sorted: the rows\n"
   "                          unchanged, one document each (same _id, same fields), written in (key,\n"
   "                          original order) so that a master's rows sit together: the same rows with\n"
   "                          only their place changed (locality without folding; scancmp's --layout\n"
   "                          NAME=COLL:rows). Resume, --verify (same rows per master), --plan and\n"
   "                          --parallel work as for folding (--parallel N writes N key ranges at once:\n"
   "                          each in key order, their batches side by side); --hoist, --array-field and\n"
   "                          the buckets do not apply. clustered: a clustered collection (records in\n"
   "                          _id order) of the rows with _id {<key>: K, id: <original _id>}, written in\n"
   "                          the source's arrival order (one range): the B-tree keeps a master's rows\n"
   "                          together. Embedded store and MongoDB 5.3+; FerretDB and older servers are\n"
   "                          refused, naming why. --verify, --resume (from the first row, rows already\n"
   "                          there counted as written) and --plan work. copy: a marked copy to measure\n"
   "                          writes on (scancmp's append/update workloads and a --mix with writes only\n"
   "                          run on collections layoutlab wrote): every document as it is (same _id,\n"
   "                          same fields), written in the source's natural order (the copy is as\n"
   "                          scattered as the original), then the source's indexes built on it; an index\n"
   "                          the store cannot build (descending, text, unique, over 4 fields, ...) is\n"
   "                          named in a warning and in the marker. The source is only read: no index\n"
   "                          needed on it (--create-index, --key, --hoist and --parallel do not apply;\n"
   "                          a clustered source is refused). --verify (each document by its _id),\n"
   "                          --resume (as clustered) and --plan work\n"
   "  --block-compressor C    block compressor of the destination: none, snappy (mongod's default), zlib,\n"
   "                          zstd. Embedded: the table's block_compressor (zstd: layoutlab's own);\n"
   "                          MongoDB: create with storageEngine.wiredTiger.configString; the summary says\n"
   "                          whether the server kept it (FerretDB ignores it: said on stderr and in "
   "--json)\n"
   "  --zstd-level N          embedded: zstd compression level, 1..19 (default 6, mongod's)\n"
   "  --batch-docs N          documents per write batch (default 1000)\n"
   "  --batch-bytes SIZE      bytes per write batch (default 16MiB, kept below the server's message size)\n"
   "  --parallel N            N workers on N key ranges, each with its own cursor and writer (default 1)\n"
   "  --drop-dst              replace an existing destination. On a MongoDB server, a destination\n"
   "                          layoutlab did not write (no marker in the database's _layoutlab collection)\n"
   "                          is shown (name, documents, size) and dropped only after \"y\" on a terminal,\n"
   "                          or with --yes; otherwise the run stops (exit 2) and nothing is dropped\n"
   "  --yes                   drop such a destination without asking\n"
   "  --resume                continue an interrupted run (same settings); the checkpoint is kept in\n"
   "                          <dst>.fold_state in the destination database. Masters rejected after the\n"
   "                          last checkpoint may appear twice in the --reject file.\n"
   "  --verify[=METHOD]       after folding, prove dst holds exactly src's rows: per master the row count\n"
   "                          and an order-independent sum of each row's digest (XXH3 of its typed\n"
   "                          fields, in any order), plus parts, cap and buckets; exit 3 naming the first\n"
   "                          differing master. METHOD multiset (default): both collections read in\n"
   "                          natural order (collection scans, no index: each page read once), at once by\n"
   "                          max(2, --parallel) threads, each master's rows summed in a map; ordered:\n"
   "                          both read sorted by the key in step (index walks, a merge join holding a\n"
   "                          few batches). On an existing, finished destination (no --drop-dst/--resume)\n"
   "                          it only verifies. Masters this run rejected are expected absent; a later\n"
   "                          --verify alone reports them as missing (they are in the --reject file).\n"
   "  --verify-memory SIZE    multiset: bound on its maps (default 1GiB; about 200 bytes plus the key per\n"
   "                          master and thread); more masters are verified in passes, each a share of\n"
   "                          them by a hash of the key and a read of both collections\n"
   "  --copy-only             benchmark ceiling: the same sorted read, rows written unchanged (no folding)\n"
   "  --create-index          build the source's {<key>: 1} index when it is missing and log how long it "
   "took;\n"
   "                          without it a missing index stops the run before anything is written (every\n"
   "                          read walks that index: no server-side sort of the collection)\n"
   "  --allow-writes COLL     --create-index builds an index only on a collection a layoutlab tool wrote\n"
   "                          (its _layoutlab record); on any other (your own source) it is refused before\n"
   "                          anything is built unless named here (repeatable or comma-separated). Every\n"
   "                          index a tool builds is recorded in _layoutlab (billgen collections lists it)\n"
   "  --plan                  print what the run would send (each range's read command with its hint, sort,\n"
   "                          batch size and allowDiskUse, the ranges and their estimated documents, the\n"
   "                          writes' batch sizes and write concern, the temporary space, resume or fresh)\n"
   "                          and how the server itself would run each read: its explain (queryPlanner) of\n"
   "                          the exact command, read back (index walk, or a sort of N documents in memory\n"
   "                          or spilled to disk); exit 0 without writing anything; with --json the plan,\n"
   "                          with the server's own explain replies, is in the summary.\n"
   "                          It refuses what the run would refuse (a non-empty destination without\n"
   "                          --drop-dst/--resume); with --drop-dst/--resume it shows what they would do\n"
   "  --allow-blocking-sort   start even when the server's plan of the read sorts more than 1,000,000\n"
   "                          documents before the first one (a multikey or hidden key index, FerretDB);\n"
   "                          without it such a fold stops before reading anything (exit 2)\n"
   "  --allow-mixed-key-types fold a key holding several BSON types (int 7 and string \"7\": MongoDB's two\n"
   "                          values, so two masters); without it the plan reads the key index's two ends\n"
   "                          (the rows counted per type only when they differ) and such a fold stops\n"
   "                          before writing anything (exit 2) naming the types and their rows. int32,\n"
   "                          int64 and double are one type here (7, 7L and 7.0 are one master)\n"
   "  --retries N             a range failing with a transient error (network, server selection, failover,\n"
   "                          lost cursor) restarts from its checkpoint after 1 s, 2 s, 4 s... (at most 16 "
   "s\n"
   "                          each), up to N times (default 5; 0: fail at once); then the run fails and\n"
   "                          names the --resume command to run. --verify does the same (ordered: from the\n"
   "                          last verified key; multiset: the pass from its start), then names the command\n"
   "                          that verifies again\n"
   "  --cursor-batch N        documents per cursor batch of the sorted reads, fold and --verify (default:\n"
   "                          from the average document size, far below the 48 MB reply limit)\n"
   "  --fetch-ahead N         embedded store: the fold's read takes N key-index entries at a time (at most\n"
   "                          64 MiB of rows) and fetches their rows in RecordId order, then folds them in\n"
   "                          key order: the same rows in the same order, fewer tree descents when a\n"
   "                          master's rows are scattered (default 262144; 0: each row fetched as its\n"
   "                          entry is read, as mongod's FETCH does)\n"
   "\n"
   "Examples:\n"
   "  # fold the embedded store's bill_detail into detail_coll and check the result\n"
   "  fold-details --uri wiredtiger:./data --src bill_detail --dst detail_coll --verify\n"
   "\n"
   "  # on a server, four workers, keep only two fields at top level, oversize masters to a file\n"
   "  fold-details --uri mongodb://db1:27017/hospital --src bill_detail --dst detail_coll \\\n"
   "      --hoist patient_id,bill_date --parallel 4 --on-oversize reject --reject big-bills.jsonl\n"
   "\n"
   "  # the run was killed: continue where it stopped, then verify\n"
   "  fold-details --src bill_detail --dst detail_coll --parallel 4 --resume --verify\n"
   "\n"
   "  # verify a finished fold only, JSON summary on stdout\n"
   "  fold-details --src bill_detail --dst detail_coll --verify --json -\n"
   "\n"
   "  # the same by the key-ordered merge join, and by the multiset in at most 256 MiB of maps\n"
   "  fold-details --src bill_detail --dst detail_coll --verify=ordered\n"
   "  fold-details --src bill_detail --dst detail_coll --verify --verify-memory 256MiB\n"
   "\n"
   "  # buckets of at most 100 rows, and one document per bill and day of charge_time\n"
   "  fold-details --src bill_detail --dst detail_b100 --bucket-rows 100 --verify\n"
   "  fold-details --src bill_detail --dst detail_day --bucket-by charge_time:day --verify\n"
   "\n"
   "  # an existing destination is refused unless replaced\n"
   "  fold-details --src bill_detail --dst detail_coll --drop-dst --key order_id --array-field items\n";

/* The short help: what --help prints; the whole reference above is --help-all and docs/help/. */
static const char usage_short_text[] =
   "Usage: fold-details --src COLL --dst COLL [options]\n"
   "\n"
   "Folds the detail rows of each master (rows sharing a --key value) into one document per master that\n"
   "holds them as an array, losing nothing: the key and the fields shared by all its rows at top level,\n"
   "the rows in --array-field. Masters over the 16 MiB document cap are split into parts, rejected to a\n"
   "file, or stop the run, never dropped. --verify proves the result holds exactly the source's rows.\n"
   "\n"
   "Main options:\n"
   "  --src COLL              source collection (detail rows)                       (required)\n"
   "  --dst COLL              destination collection                                (required)\n"
   "  --key FIELD             master key field (default bill_id)\n"
   "  --hoist auto|none|F,..  fields moved to top level (default auto: constant within every master)\n"
   "  --array-field NAME      the rows' array (default details)\n"
   "  --on-oversize MODE      split (default), reject (with --reject FILE) or fail\n"
   "  --shape SHAPE           folded (default), sorted, clustered or copy: the cheaper candidates\n"
   "  --bucket-rows N         at most N rows per document (the bucket pattern)\n"
   "  --block-compressor C    none, snappy (mongod's default), zlib, zstd\n"
   "  --parallel N            workers on N key ranges (default 1)\n"
   "  --drop-dst              replace an existing destination (asked first when layoutlab did not write it)\n"
   "  --resume                continue an interrupted run with the same settings\n"
   "  --verify[=METHOD]       after folding, prove dst holds exactly src's rows (exit 3 when not)\n"
   "  --plan                  print what the run would send, and send nothing\n"
   "%s"
   "\n"
   "Examples:\n"
   "  # fold the embedded store's bill_detail into detail_coll and check the result\n"
   "  fold-details --src bill_detail --dst detail_coll --verify\n"
   "\n"
   "  # the cheaper change: the same rows as a clustered collection, in key order\n"
   "  fold-details --src bill_detail --dst detail_clu --shape clustered --verify\n"
   "\n"
   "  # a MongoDB server through mongos, 4 workers, oversized masters rejected to a file\n"
   "  fold-details --uri mongodb://mongos.example/bills --src bill_detail --dst detail_coll \\\n"
   "               --parallel 4 --on-oversize reject --reject rejects.jsonl --verify\n"
   "\n"
   "Every option, the folded document's form and the verify methods: fold-details --help-all\n"
   "(also docs/help/fold-details.txt).\n";

/* usage -- the short help, or with `all` the whole reference (its common options between the tool's
 * options and the examples). */
static void
usage (FILE *out, bool all)
{
   const char *ex = strstr (usage_text, "Examples:\n");

   if (!all) {
      fprintf (out, usage_short_text, lab_cli_common_help_short ());
      return;
   }
   fwrite (usage_text, 1, (size_t)(ex - usage_text), out);
   fputs (lab_cli_common_help (), out);
   fputs ("\n", out);
   fputs (ex, out);
}

typedef struct {
   lab_cli_common_t common;
   lab_fold_run_opts_t run;
   bool verify;
   bool yes; /* --yes: drop a destination layoutlab did not write without asking */
   lab_fold_verify_method_t verify_method;
   uint64_t verify_memory_bytes; /* 0: LAB_VERIFY_MEMORY_DEFAULT */
   const char *block_compressor; /* NULL: the backend's default */
   int32_t zstd_level;
   lab_cli_list_t allow; /* --allow-writes as given, while parsing; then run.allow_writes (owned) */
} options_t;

static const char *const oversize_names[] = { "split", "reject", "fail", NULL }; /* lab_fold_oversize_t */
static const char *const verify_names[] = { "multiset", "ordered", NULL }; /* lab_fold_verify_method_t */

/* --key's default, told apart from a --key the user gave by its address (--shape copy takes no key). */
static const char default_key[] = "bill_id";

/* The smallest --verify-memory: a map of a few thousand masters per thread. */
#define VERIFY_MEMORY_MIN_BYTES (1024 * 1024)

/* parse_args -- fill *o; LAB_ERROR_USAGE on anything wrong (the run's own checks: lab_fold_run_opts_check).
 */
static bool
parse_args (int argc, char **argv, options_t *o, bson_error_t *error)
{
   lab_fold_run_opts_t *r = &o->run;
   lab_cli_opt_t opts[] = {
      LAB_CLI_OPT_STRING ("--src", 0, &r->target.src),
      LAB_CLI_OPT_STRING ("--dst", 0, &r->target.dst),
      LAB_CLI_OPT_STRING ("--key", 0, &r->target.key),
      LAB_CLI_OPT_STRING ("--hoist", 0, &r->hoist_spec),
      LAB_CLI_OPT_INT ("--hoist-sample", 0, &r->hoist_sample_masters, 1, INT64_C (100000000)),
      LAB_CLI_OPT_STRING ("--array-field", 0, &r->target.array_field),
      LAB_CLI_OPT_SIZE ("--max-doc-bytes", 0,
                        &r->target.max_doc_bytes), /* an int64 field: the check bounds it */
      LAB_CLI_OPT_ENUM ("--on-oversize", 0, &r->on_oversize, oversize_names),
      LAB_CLI_OPT_STRING ("--reject", 0, &r->reject_path),
      LAB_CLI_OPT_ENUM ("--shape", 0, &r->target.shape, lab_fold_shape_names),
      LAB_CLI_OPT_INT ("--bucket-rows", 0, &r->target.bucket_rows, 1, INT32_MAX),
      LAB_CLI_OPT_STRING ("--block-compressor", 0, &o->block_compressor),
      LAB_CLI_OPT_INT ("--zstd-level", 0, &o->zstd_level, 1, 19),
      LAB_CLI_OPT_STRING ("--bucket-by", 0, &r->target.bucket_by),
      LAB_CLI_OPT_INT ("--batch-docs", 0, &r->batch_docs, 1, 100000),
      LAB_CLI_OPT_SIZE ("--batch-bytes", 0, &r->batch_bytes),
      LAB_CLI_OPT_INT ("--parallel", 0, &r->parallel, 1, LAB_FOLD_MAX_PARALLEL),
      LAB_CLI_OPT_FLAG ("--drop-dst", 0, &r->drop_dst),
      LAB_CLI_OPT_FLAG ("--resume", 0, &r->resume),
      LAB_CLI_OPT_FLAG_ENUM ("--verify", 0, &o->verify, &o->verify_method, verify_names),
      LAB_CLI_OPT_SIZE ("--verify-memory", 0, &o->verify_memory_bytes),
      LAB_CLI_OPT_FLAG ("--copy-only", 0, &r->copy_only),
      LAB_CLI_OPT_FLAG ("--create-index", 0, &r->create_index),
      LAB_CLI_OPT_LIST ("--allow-writes", 0, &o->allow),
      LAB_CLI_OPT_FLAG ("--plan", 0, &r->plan_only),
      LAB_CLI_OPT_FLAG ("--allow-blocking-sort", 0, &r->allow_blocking_sort),
      LAB_CLI_OPT_FLAG ("--allow-mixed-key-types", 0, &r->allow_mixed_key_types),
      LAB_CLI_OPT_FLAG ("--yes", 0, &o->yes),
      LAB_CLI_OPT_INT ("--retries", 0, &r->retries, 0, 100),
      LAB_CLI_OPT_INT ("--cursor-batch", 0, &r->cursor_batch_docs, 1, 1000000),
      LAB_CLI_OPT_INT ("--fetch-ahead", 0, &r->fetch_ahead_rows, 0, 16777216),
      LAB_CLI_OPT_REFUSED ("--out", 'o',
                           "fold-details writes a collection, not a file: name it with --dst COLL (a summary "
                           "file: --json FILE)"),
      LAB_CLI_OPT_END,
   };
   lab_cli_spec_t spec = { .opts = opts, .common = &o->common };
   const char *v;

   memset (o, 0, sizeof *o);
   lab_cli_common_init (&o->common);
   r->target.key = default_key;
   r->target.array_field = "details";
   r->hoist_spec = "auto";
   r->parallel = 1;
   r->on_oversize = LAB_FOLD_OVERSIZE_SPLIT;
   r->retries = LAB_RETRY_DEFAULT_TRIES;
   r->fetch_ahead_rows = LAB_FOLD_FETCH_AHEAD_ROWS;
   bool parsed = lab_cli_parse (&spec, argc, argv, 1, error);
   char **names = NULL;

   /* the names now, so that every return after this one frees only them (main: bson_strfreev) */
   parsed = parsed && lab_parse_names (o->allow.v, o->allow.n, "--allow-writes", &names, error);
   lab_cli_list_free (&o->allow);
   r->allow_writes = (const char *const *)names;
   if (!parsed) {
      return false;
   }
   if (o->common.help || o->common.version) {
      return true;
   }
   if (r->target.shape == LAB_FOLD_SHAPE_COPY && r->target.key == default_key) {
      r->target.key = "_id"; /* each document its own master (lab_fold_run_copy_opts_check refuses another) */
   }
   if (o->verify_memory_bytes && (!o->verify || o->verify_method != LAB_VERIFY_MULTISET)) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--verify-memory bounds the maps of --verify's multiset method: add --verify (or drop "
                     "--verify-memory: --verify=ordered holds a few batches, whatever the size)");
      return false;
   }
   if (o->verify_memory_bytes && o->verify_memory_bytes < VERIFY_MEMORY_MIN_BYTES) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_BAD_VALUE,
                     "--verify-memory %llu bytes is too small: give at least 1MiB",
                     (unsigned long long)o->verify_memory_bytes);
      return false;
   }
   if (o->verify && r->copy_only) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--verify checks a fold; a --copy-only destination is not one");
      return false;
   }
   if (o->block_compressor && !lab_store_block_compressor_check (o->block_compressor, error)) {
      return false;
   }
   if (o->verify && r->plan_only) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "--plan describes a fold without running it; --verify needs the fold: drop one of them");
      return false;
   }
   r->progress = o->common.progress;
   v = getenv ("LAYOUTLAB_FOLD_KILL_AFTER_BATCHES"); /* test hook: see fold_run.h */
   if (v && *v &&
       !lab_parse_int (v, "LAYOUTLAB_FOLD_KILL_AFTER_BATCHES", 0, INT64_MAX, &r->kill_after_batches, error)) {
      return false;
   }
   v = getenv ("LAYOUTLAB_FOLD_KILL_AFTER_DROP"); /* test hook: see fold_run.h */
   r->kill_after_drop = v && *v && strcmp (v, "0") != 0;
   v = getenv ("LAYOUTLAB_TEST_BLOCKING_SORT_DOCS"); /* test hook: the refusal's limit on a small server */
   if (v && *v &&
       !lab_parse_int (v, "LAYOUTLAB_TEST_BLOCKING_SORT_DOCS", 1, INT64_MAX, &r->blocking_sort_max_docs,
                       error)) {
      return false;
   }
   /* every output file is checked before anything is read or written */
   if (!lab_cli_output_check (o->common.json_path, "--json", error) ||
       !lab_cli_output_check (r->reject_path, "--reject", error)) {
      return false;
   }
   /* checked before the store is opened: a usage error never creates one */
   return lab_fold_run_opts_check (r, error);
}

static void
append_hash (bson_t *d, const char *name, lab_fold_hash_t h)
{
   char hex[40];

   bson_snprintf (hex, sizeof hex, "%016llx%016llx", (unsigned long long)h.hi, (unsigned long long)h.lo);
   BSON_APPEND_UTF8 (d, name, hex);
}

/* What the printed command is to do with this invocation's --drop-dst and --resume. */
typedef enum {
   RERUN_RESUME,     /* continue the stopped fold: --drop-dst dropped, --resume kept or added */
   RERUN_VERIFY,     /* the fold is complete: both dropped (the same command then only verifies) */
   RERUN_START_OVER, /* --resume cannot continue what it found: --resume dropped, --drop-dst kept or added */
} rerun_t;

/* rerun_command -- this invocation as the command that recovers (caller bson_free()s), built by
 * core/suggest.h around the store it ran on (--uri redacted and --db, given or not), --drop-dst and
 * --resume as `how` says. */
static char *
rerun_command (int argc, char **argv, const lab_store_t *store, rerun_t how)
{
   bson_string_t *cmd = bson_string_new (NULL);
   const char *keep = how == RERUN_RESUME ? "--resume" : how == RERUN_START_OVER ? "--drop-dst" : NULL;
   char **rest = bson_malloc0 (sizeof (char *) * (size_t)(argc + 1));
   bool has_keep = false;
   int i, n = 0;

   for (i = 1; i < argc; i++) {
      if ((strcmp (argv[i], "--drop-dst") == 0 || strcmp (argv[i], "--resume") == 0) &&
          !(keep && strcmp (argv[i], keep) == 0)) {
         continue;
      }
      if (keep && strcmp (argv[i], keep) == 0) {
         has_keep = true;
      }
      rest[n++] = argv[i];
   }
   if (keep && !has_keep) {
      rest[n++] = (char *)keep;
   }
   lab_suggest_begin (cmd, "fold-details", lab_store_uri_redacted (store), lab_store_db (store));
   lab_suggest_argv (cmd, n, rest, 0);
   bson_free (rest);
   return bson_string_free (cmd, false);
}

/* The options that set each lab_fold_setting_t, for the messages. */
static const char *const setting_option[LAB_FOLD_NSETTINGS] = {
   "--src", "--key", "--array-field", "--bucket-rows", "--bucket-by", "--max-doc-bytes", "--shape",
};

/* settings_refused -- --verify alone on a finished destination checks it against this command's settings:
 * when the checkpoint says it was folded with others (v->differ), that verify would report every master
 * they change as different, which reads as corruption. Refused instead (usage), naming the settings
 * ("--bucket-rows: none there, 50 here") and the command that folds it again. */
static void
settings_refused (const options_t *o, const lab_fold_run_verify_only_t *v, int argc, char **argv,
                  const lab_store_t *store, bson_error_t *error)
{
   bson_string_t *d = bson_string_new (NULL);
   char *cmd, *msg;
   size_t k;

   for (k = 0; k < v->ndiffer; k++) {
      bson_string_append_printf (d, "%s%s: %s there, %s here", d->len ? "; " : "",
                                 setting_option[v->differ[k].setting],
                                 v->differ[k].there[0] ? v->differ[k].there : "none",
                                 v->differ[k].here[0] ? v->differ[k].here : "none");
   }
   cmd = rerun_command (argc, argv, store, RERUN_START_OVER);
   msg = bson_strdup_printf ("'%s' was folded with other settings than this command's (%s): this command "
                             "would only verify it, and every master those settings change would count as a "
                             "difference. To fold it again with these settings (replacing it): %s",
                             o->run.target.dst, d->str, cmd);
   if (strlen (msg) >= sizeof error->message) {
      /* too long for one message: what was found on its own line first, the command in the error */
      lab_log_error ("'%s' was folded with other settings than this command's (%s): this command would only "
                     "verify it, and every master those settings change would count as a difference",
                     o->run.target.dst, d->str);
      bson_free (msg);
      msg = bson_strdup_printf ("to fold '%s' again with these settings (replacing it): %s",
                                o->run.target.dst, cmd);
   }
   lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT, "%s", msg);
   bson_free (msg);
   bson_free (cmd);
   bson_string_free (d, true);
}

/* verify_only -- --verify without --drop-dst or --resume: the driver decides (lab_fold_run_verify_only)
 * whether the destination is only verified (*fold false); its refusals become this command's messages. */
static bool
verify_only (options_t *o, lab_store_t *store, lab_fold_run_verify_only_t *v, int argc, char **argv,
             bool *fold, bson_error_t *error)
{
   if (!lab_fold_run_verify_only (store, &o->run, v, error)) {
      return false;
   }
   if (v->interrupted) {
      lab_error_set (error, LAB_ERROR_USAGE, LAB_USAGE_ERR_CONFLICT,
                     "'%s' holds an interrupted fold (its checkpoint says incomplete): continue it with "
                     "--resume before verifying",
                     o->run.target.dst);
      return false;
   }
   if (v->ndiffer > 0) {
      settings_refused (o, v, argc, argv, store, error);
      return false;
   }
   *fold = !v->only;
   return true;
}

/* fold_failed -- a fold that stopped: its error ends on the command that recovers (after a transient error
 * or a full disk the same command with --resume; after a refused --resume the one that starts over). */
static void
fold_failed (const lab_fold_run_result_t *fr, lab_store_t *store, int argc, char **argv, bson_error_t *error)
{
   if (fr->gave_up_transient) {
      char *rc = rerun_command (argc, argv, store, RERUN_RESUME);
      lab_log_error ("%s", error->message);
      lab_error_set (error, error->domain, error->code,
                     "the fold stopped on a transient error after %lld retr%s; once the server answers, "
                     "continue it from its checkpoints with: %s",
                     (long long)fr->retries, fr->retries == 1 ? "y" : "ies", rc);
      bson_free (rc);
   } else if (fr->resume_refused) {
      /* the library names the state it found and ends on the remedy; add the exact command */
      char *rc = rerun_command (argc, argv, store, RERUN_START_OVER);
      char *msg = bson_strdup_printf ("%s: %s", error->message, rc);
      if (strlen (msg) < sizeof error->message) {
         lab_error_set (error, error->domain, error->code, "%s", msg);
      } else { /* too long for one message: the state found on its own line first */
         lab_log_error ("%s", error->message);
         lab_error_set (error, error->domain, error->code,
                        "--resume refused (see above); start over with: %s", rc);
      }
      bson_free (msg);
      bson_free (rc);
   } else if (lab_error_is_nospace (error)) {
      char *rc = rerun_command (argc, argv, store, RERUN_RESUME);
      const char *home = lab_store_home (store);
      lab_log_error ("%s", error->message);
      lab_error_set (error, error->domain, error->code,
                     "the fold stopped: no space left on device in %s (the source is untouched); free "
                     "space there, then continue the fold from its checkpoints with: %s",
                     home ? home : "the destination's disk", rc);
      bson_free (rc);
   }
}

/* append_fold_summary -- the fold's figures for the JSON summary (docs/json-summary.md). */
static void
append_fold_summary (bson_t *summary, const options_t *o, const lab_fold_run_result_t *fr)
{
   bson_t arr;
   char idx[16];
   const char *ks;
   size_t k;

   BSON_APPEND_ARRAY_BEGIN (summary, "hoisted", &arr);
   for (k = 0; fr->hoisted && fr->hoisted[k]; k++) {
      bson_uint32_to_string ((uint32_t)k, &ks, idx, sizeof idx);
      BSON_APPEND_UTF8 (&arr, ks, fr->hoisted[k]);
   }
   bson_append_array_end (summary, &arr);
   BSON_APPEND_INT32 (summary, "parallel", o->run.parallel);
   BSON_APPEND_INT32 (summary, "ranges", fr->ranges);
   BSON_APPEND_BOOL (summary, "resumed", fr->resumed);
   BSON_APPEND_INT64 (summary, "max_doc_bytes", fr->max_doc_bytes);
   BSON_APPEND_INT32 (summary, "bucket_rows", o->run.target.bucket_rows);
   BSON_APPEND_UTF8 (summary, "bucket_by", o->run.target.bucket_by ? o->run.target.bucket_by : "");
   BSON_APPEND_INT64 (summary, "batch_bytes", fr->batch_bytes);
   BSON_APPEND_INT64 (summary, "rows_in", fr->rows_in);
   BSON_APPEND_INT64 (summary, "docs_out", fr->docs_out);
   BSON_APPEND_INT64 (summary, "masters", fr->masters);
   BSON_APPEND_INT64 (summary, "masters_split", fr->masters_split);
   BSON_APPEND_INT64 (summary, "masters_rejected", fr->masters_rejected);
   BSON_APPEND_INT64 (summary, "rows_rejected", fr->rows_rejected);
   BSON_APPEND_INT64 (summary, "largest_doc_bytes", fr->largest_doc_bytes);
   if (fr->key_types) {
      bson_concat (summary, fr->key_types); /* "key_types": the allowed mixed types, counted */
   }
   BSON_APPEND_INT64 (summary, "write_errors", fr->write_errors);
   BSON_APPEND_INT64 (summary, "batches", fr->batches);
   BSON_APPEND_INT64 (summary, "peak_buffer_bytes", fr->peak_buffer_bytes);
   BSON_APPEND_DOUBLE (summary, "fold_elapsed_s", fr->elapsed_s);
   BSON_APPEND_INT64 (summary, "retries", fr->retries);
   if (fr->index_build_s >= 0) {
      BSON_APPEND_DOUBLE (summary, "index_build_s", fr->index_build_s);
   }
   BSON_APPEND_DOUBLE (summary, "rows_per_s", fr->elapsed_s > 0 ? (double)fr->rows_in / fr->elapsed_s : 0.0);
}

/* mark_verified -- the destination's marker (when layoutlab wrote it) records this verification: ok,
 * method, rows, masters, checksum, at (docs/results-schema.md, provenance). */
static void
mark_verified (lab_store_t *store, const char *dst, const lab_fold_verify_result_t *vr)
{
   lab_store_session_t *sess;
   bson_error_t err;
   bson_t v = BSON_INITIALIZER;
   char now[40];
   bool set = false;

   BSON_APPEND_BOOL (&v, "ok", vr->equal);
   BSON_APPEND_UTF8 (&v, "method", lab_fold_verify_method_name (vr->method));
   BSON_APPEND_INT64 (&v, "rows", vr->src_rows);
   BSON_APPEND_INT64 (&v, "masters", vr->src_masters);
   append_hash (&v, "checksum", vr->src_hash);
   /* the largest document the verification read in dst: the report sets it against the 16 MiB cap */
   BSON_APPEND_INT64 (&v, "largest_doc_bytes", vr->largest_doc_bytes);
   lab_store_mark_now (now, sizeof now);
   BSON_APPEND_UTF8 (&v, "at", now);
   sess = lab_store_session_open (store, &err);
   if (!sess || !lab_store_mark_set (sess, dst, "verify", &v, &set, &err)) {
      lab_log_error ("the verification could not be recorded in '%s': %s", LAB_MARK_COLL, err.message);
   } else if (!set) {
      lab_log_debug ("'%s' has no layoutlab marker: the verification is not recorded there", dst);
   }
   lab_store_session_close (sess);
   bson_destroy (&v);
}

/* append_verify_summary -- the verification's figures for the JSON summary. */
static void
append_verify_summary (bson_t *summary, const lab_fold_verify_result_t *vr, uint64_t memory_bytes)
{
   bson_t v;

   BSON_APPEND_DOCUMENT_BEGIN (summary, "verify", &v);
   BSON_APPEND_UTF8 (&v, "method", lab_fold_verify_method_name (vr->method));
   BSON_APPEND_BOOL (&v, "equal", vr->equal);
   BSON_APPEND_INT64 (&v, "src_rows", vr->src_rows);
   BSON_APPEND_INT64 (&v, "dst_rows", vr->dst_rows);
   BSON_APPEND_INT64 (&v, "src_masters", vr->src_masters);
   BSON_APPEND_INT64 (&v, "dst_masters", vr->dst_masters);
   BSON_APPEND_INT64 (&v, "dst_docs", vr->dst_docs);
   BSON_APPEND_INT64 (&v, "differing_masters", vr->differing_masters);
   BSON_APPEND_INT64 (&v, "skipped_masters", vr->skipped_masters);
   BSON_APPEND_INT64 (&v, "oversize_docs", vr->oversize_docs);
   BSON_APPEND_INT64 (&v, "largest_doc_bytes", vr->largest_doc_bytes);
   append_hash (&v, "src_checksum", vr->src_hash);
   append_hash (&v, "dst_checksum", vr->dst_hash);
   BSON_APPEND_UTF8 (&v, "first_difference", vr->first_difference);
   BSON_APPEND_DOUBLE (&v, "elapsed_s", vr->elapsed_s);
   BSON_APPEND_INT64 (&v, "retries", vr->retries);
   if (vr->method == LAB_VERIFY_MULTISET) {
      BSON_APPEND_INT32 (&v, "passes", vr->passes);
      BSON_APPEND_INT32 (&v, "workers", vr->workers);
      BSON_APPEND_INT64 (&v, "map_bytes", vr->map_bytes);
      BSON_APPEND_INT64 (&v, "memory_bytes", (int64_t)memory_bytes);
   }
   bson_append_document_end (summary, &v);
}

/* run_verify -- the verification of the fold (or of the finished destination alone), with the fold's
 * settings and the masters it rejected left out; the human line on stdout, the marker updated. */
static bool
run_verify (const options_t *o, lab_store_t *store, const lab_fold_run_result_t *fr, bool fold, bool human,
            int argc, char **argv, lab_fold_verify_result_t *vr, bson_error_t *error)
{
   lab_fold_verify_opts_t vo;
   size_t nskip;
   char method_text[96];

   memset (&vo, 0, sizeof vo);
   vo.method = o->verify_method;
   vo.memory_bytes = o->verify_memory_bytes;
   vo.workers = o->run.parallel > 2 ? o->run.parallel : 2;
   vo.target = o->run.target; /* what was folded, as the fold (or its checkpoint) has it */
   vo.batch_docs = o->run.cursor_batch_docs;
   vo.progress = o->common.progress;
   vo.retries = o->run.retries;
   vo.retry_first_delay_ms = o->run.retry_first_delay_ms;
   for (nskip = 0; fr->rejected_key_ids && fr->rejected_key_ids[nskip]; nskip++) {
   }
   vo.skip_key_ids = (const char *const *)fr->rejected_key_ids;
   vo.nskip = nskip;
   if (!lab_fold_verify (store, &vo, vr, error)) {
      if (vr->gave_up_transient) {
         char *rc = rerun_command (argc, argv, store, RERUN_VERIFY);
         lab_log_error ("%s", error->message);
         lab_error_set (error, error->domain, error->code,
                        "--verify stopped on a transient error after %lld retr%s%s; once the server "
                        "answers, verify again with: %s",
                        (long long)vr->retries, vr->retries == 1 ? "y" : "ies",
                        fold ? " (the fold itself completed)" : "", rc);
         bson_free (rc);
      }
      return false;
   }
   mark_verified (store, o->run.target.dst, vr);
   if (vr->method == LAB_VERIFY_MULTISET) {
      bson_snprintf (method_text, sizeof method_text, "multiset, %d pass%s, %d threads, %.1f s", vr->passes,
                     vr->passes == 1 ? "" : "es", vr->workers, vr->elapsed_s);
   } else {
      bson_snprintf (method_text, sizeof method_text, "ordered, %.1f s", vr->elapsed_s);
   }
   if (human) {
      printf ("verify: %s: %lld source rows in %lld masters, %lld destination rows in %lld documents%s; %s\n",
              vr->equal ? "equal" : "DIFFERENT", (long long)vr->src_rows, (long long)vr->src_masters,
              (long long)vr->dst_rows, (long long)vr->dst_docs,
              vr->skipped_masters ? " (rejected masters excluded)" : "", method_text);
   }
   if (!vr->equal) {
      lab_log_error ("verify: %lld differing master(s), %lld document(s) over the cap; first: %s",
                     (long long)vr->differing_masters, (long long)vr->oversize_docs, vr->first_difference);
   }
   return true;
}

/* What main did, for the summary. */
typedef struct {
   bool fold;     /* a fold was to run (false: verify only) */
   bool folded;   /* lab_fold_run ran (its counters are in fr, also after a failure) */
   bool verified; /* the verification completed (vr) */
   bool journal;  /* the fold completed with its tables unjournaled (defer_journal): journal them last */
   lab_fold_run_result_t fr;
   lab_fold_verify_result_t vr;
} outcome_t;

/* write_summary -- --json: the common header (docs/json-summary.md), then the fold's and the
 * verification's figures; returns the exit code (a summary that cannot be written fails the run). */
static int
write_summary (const options_t *o, const lab_cli_run_t *cli, lab_store_t *store, const outcome_t *w, int code,
               bson_error_t *error)
{
   bson_t summary;

   lab_cli_summary_init (&summary, cli, code,
                         code != LAB_EXIT_OK && code != LAB_EXIT_DIFFERENT ? error : NULL);
   if (store) {
      BSON_APPEND_UTF8 (&summary, "uri", lab_store_uri_redacted (store));
      BSON_APPEND_UTF8 (&summary, "db", lab_store_db (store));
   }
   BSON_APPEND_UTF8 (&summary, "src", o->run.target.src);
   BSON_APPEND_UTF8 (&summary, "dst", o->run.target.dst);
   BSON_APPEND_UTF8 (&summary, "key", o->run.target.key);
   BSON_APPEND_UTF8 (&summary, "array_field", o->run.target.array_field);
   BSON_APPEND_UTF8 (&summary, "shape", lab_fold_shape_name (o->run.target.shape));
   BSON_APPEND_UTF8 (&summary, "mode",
                     !w->fold           ? "verify"
                     : o->run.plan_only ? "plan"
                     : o->run.copy_only ? "copy"
                                        : "fold");
   if (w->fr.plan) {
      BSON_APPEND_DOCUMENT (&summary, "plan", w->fr.plan);
   } else if (w->folded) {
      append_fold_summary (&summary, o, &w->fr);
   }
   if (store && w->fold && !o->run.plan_only) {
      const char *bc = lab_store_block_compressor (store);
      BSON_APPEND_UTF8 (&summary, "block_compressor", bc ? bc : "server default");
      BSON_APPEND_UTF8 (&summary, "block_compressor_note", lab_store_compressor_note (store));
   }
   if (!w->folded) {
      BSON_APPEND_INT32 (&summary, "bucket_rows", o->run.target.bucket_rows);
      BSON_APPEND_UTF8 (&summary, "bucket_by", o->run.target.bucket_by ? o->run.target.bucket_by : "");
   }
   if (w->verified) {
      append_verify_summary (&summary, &w->vr,
                             o->verify_memory_bytes ? o->verify_memory_bytes : LAB_VERIFY_MEMORY_DEFAULT);
   }
   {
      /* the whole process: fold buffers, write batches, and the embedded engine's cache */
      struct rusage ru;
      if (getrusage (RUSAGE_SELF, &ru) == 0) {
         BSON_APPEND_INT64 (&summary, "peak_rss_bytes", (int64_t)ru.ru_maxrss * 1024);
      }
   }
   if (!lab_json_write (&summary, o->common.json_path, error)) {
      lab_log_error ("%s", error->message);
      if (code == LAB_EXIT_OK) {
         code = LAB_EXIT_FAILURE;
      }
   }
   bson_destroy (&summary);
   return code;
}

/* main -- options, store, the driver's decision (fold, or verify only), fold, verify, summary; errors to
 * exit codes. */
int
main (int argc, char **argv)
{
   options_t o;
   bson_error_t error;
   lab_store_t *store = NULL;
   lab_store_opts_t sopts = { 0 };
   lab_fold_run_verify_only_t vonly;
   outcome_t w;
   bool human;
   int code = LAB_EXIT_FAILURE;
   lab_cli_run_t cli;
   bson_t provenance;
   double rps;

   memset (&w, 0, sizeof w);
   w.fold = true;
   lab_cli_run_start (&cli, "fold-details", argc, argv);
   lab_log_set_tool ("fold-details");
   lab_log_sink_set (lab_log_sink_stderr, NULL);
   if (!parse_args (argc, argv, &o, &error)) {
      bson_strfreev ((char **)o.run.allow_writes);
      return lab_cli_usage_exit (&error);
   }
   if (o.common.help || o.common.version) {
      if (o.common.help) {
         usage (stdout, o.common.help_all);
      } else {
         printf ("fold-details %s\n", LAB_VERSION);
      }
      bson_strfreev ((char **)o.run.allow_writes);
      return LAB_EXIT_OK;
   }
   lab_log_set (&o.common);
   lab_store_mark_begin (&provenance, "fold-details", argc, argv);
   o.run.provenance = &provenance;
   /* the human summary goes to stdout unless the JSON summary does */
   human = !o.common.quiet && !(o.common.json_path && strcmp (o.common.json_path, "-") == 0);
   sopts.db = o.common.db;
   sopts.cache_size_bytes = o.common.cache_size_bytes;
   sopts.progress = o.common.progress;
   sopts.create = !o.run.plan_only; /* --plan creates nothing, not even an embedded store's home */
   sopts.block_compressor = o.block_compressor;
   sopts.zstd_level = o.zstd_level;
   /* the fold's tables unjournaled until its last checkpoint (fold_run.c, journal_tables) */
   sopts.unlogged = !o.run.plan_only;
   sopts.connect_timeout_ms = o.common.server_timeout_ms;
   sopts.tool = "fold-details";
   sopts.argc = argc;
   sopts.argv = argv;
   sopts.allow_writes = o.run.allow_writes;
   store = lab_store_open (o.common.uri, &sopts, &error);
   if (!store) {
      goto fail;
   }

   /* --verify alone on a finished destination */
   if (o.verify && !o.run.drop_dst && !o.run.resume &&
       !verify_only (&o, store, &vonly, argc, argv, &w.fold, &error)) {
      goto fail;
   }
   /* a fresh fold drops what is at the destination (and its checkpoint collection): on a server, only
    * what layoutlab wrote, unless the user says so (--yes, or y on a terminal) */
   if (w.fold && !o.run.resume && !o.run.plan_only) {
      char *sc = lab_fold_run_state_coll (o.run.target.dst);
      lab_store_mark_confirm_fn ask = lab_cli_can_ask () ? lab_cli_confirm_tty : NULL;
      bool guarded =
         (!o.run.drop_dst ||
          lab_store_mark_drop_guard (store, o.run.target.dst, o.yes, "--drop-dst", ask, NULL, &error)) &&
         lab_store_mark_drop_guard (store, sc, o.yes, "a fresh fold (it replaces its checkpoint collection)",
                                    ask, NULL, &error);
      bson_free (sc);
      if (!guarded) {
         goto fail;
      }
   }
   if (w.fold) {
      w.folded = true; /* the summary keeps the counters of a failed run too (write_errors, ...) */
      /* the tables journaled after the verification, which reads the destination still in the cache */
      o.run.defer_journal = o.verify;
      if (!lab_fold_run (store, &o.run, &w.fr, &error)) {
         fold_failed (&w.fr, store, argc, argv, &error);
         goto fail;
      }
      w.journal = o.run.defer_journal && !o.run.plan_only;
      if (o.run.plan_only) {
         if (human) {
            lab_fold_run_plan_print (w.fr.plan, stdout);
         }
         code = LAB_EXIT_OK;
         goto summary;
      }
      rps = w.fr.elapsed_s > 0 ? (double)w.fr.rows_in / w.fr.elapsed_s : 0;
      if (human) {
         printf (
            "%s %lld rows into %lld documents: %lld masters, %lld split, %lld rejected (%lld rows); largest "
            "document %lld bytes; %.2f s, %.0f rows/s%s\n",
            o.run.copy_only || lab_fold_shape_rows (o.run.target.shape) ? "copied" : "folded",
            (long long)w.fr.rows_in, (long long)w.fr.docs_out, (long long)w.fr.masters,
            (long long)w.fr.masters_split, (long long)w.fr.masters_rejected, (long long)w.fr.rows_rejected,
            (long long)w.fr.largest_doc_bytes, w.fr.elapsed_s, rps,
            w.fr.resumed ? " (resumed run: this run's part only)" : "");
      }
   }
   if (o.verify) {
      if (!run_verify (&o, store, &w.fr, w.fold, human, argc, argv, &w.vr, &error)) {
         goto fail;
      }
      w.verified = true;
   }
   code = w.vr.equal || !w.verified ? LAB_EXIT_OK : LAB_EXIT_DIFFERENT;
   goto summary;

fail:
   lab_log_error ("%s", error.message);
   code = lab_error_exit_code (&error);

summary:
   if (w.journal && !lab_fold_run_journal (store, &o.run, &error)) {
      lab_log_error ("%s", error.message);
      code = code == LAB_EXIT_OK ? lab_error_exit_code (&error) : code;
   }
   if (o.common.json_path) {
      code = write_summary (&o, &cli, store, &w, code, &error);
   }
   lab_fold_run_result_cleanup (&w.fr);
   lab_store_close (store);
   bson_destroy (&provenance);
   bson_strfreev ((char **)o.run.allow_writes);
   return code;
}
