/*
 * scancmp.c -- the `scancmp` tool: parse options, open the store, run the comparison (scan/run.c),
 * print the table on stdout and write the results file. Nothing else lives here.
 */
#include "scan/scan.h"

#include "core/cli.h"
#include "core/error.h"
#include "core/opts.h"
#include "core/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
   "Usage: scancmp [--detail COLL] [--folded COLL] [--key FIELD] [--cold] [--parallel N] [--runs N]\n"
   "               [--order alternate|detail-first|folded-first] [--keys-limit N | --keys-file FILE]\n"
   "               [--restart-cmd CMD] [--drop-caches auto|yes|no] [--dbpath DIR] [--device NAME]\n"
   "               [--interval DURATION] [--calibrate] [--out run.json] [common options]\n"
   "\n"
   "Loads every master's rows from both layouts -- one document per row (--detail) and one folded document\n"
   "per master (--folded) -- side by side, optionally cold, with N parallel workers each taking a contiguous\n"
   "segment of the sorted keys, and measures the data's disk (/proc/diskstats), server memory, engine\n"
   "cache and per-key latency. Prints the comparison table on stdout; --out keeps every figure for\n"
   "layout-report.\n"
   "\n"
   "Collections and keys:\n"
   "  --detail COLL          one-document-per-row collection (default bill_detail)\n"
   "  --folded COLL          folded collection (default detail_coll)\n"
   "  --key FIELD            master key field, indexed in both (default bill_id)\n"
   "  --array-field FIELD    the rows' array in folded documents (default details), to count rows\n"
   "  --keys-file FILE       keys to load, one per line (JSON value such as 42, \"A-1\", {\"$oid\": \"...\"};\n"
   "                         other text is taken as a string); default: every key of --folded's index\n"
   "  --keys-limit N         load N keys spread evenly over the whole sorted key range\n"
   "  --create-index         build a missing key index before measuring (instead of failing)\n"
   "\n"
   "The runs:\n"
   "  --cold                 make each layout cold before loading it: embedded store closed, files flushed\n"
   "                         out of the page cache, page cache dropped, reopened; server: --restart-cmd,\n"
   "                         page cache dropped when the server is local, wait for ping\n"
   "  --drop-caches MODE     auto (drop when permitted, record when not), yes (fail when not permitted), no\n"
   "  --restart-cmd CMD      shell command that restarts the server (run with the client pool closed)\n"
   "  --restart-timeout DUR  longest the restart command may take (default 120s)\n"
   "  --ready-timeout DUR    longest wait for the server to answer ping afterwards (default 60s)\n"
   "  --parallel N           workers (default 4), each with its own session and key segment\n"
   "  --runs N               repetitions (default 1); the table shows medians\n"
   "  --order ORDER          alternate (default: swap which layout goes first each run), detail-first,\n"
   "                         folded-first\n"
   "  --direct-io            embedded store: data files read with O_DIRECT (WiredTiger direct_io=[data]), so\n"
   "                         every engine cache miss is a disk read, as on a server whose RAM is far smaller\n"
   "                         than its data; without it a machine with spare RAM serves re-reads from the\n"
   "                         page cache. mongod does not use O_DIRECT: the results record the choice\n"
   "\n"
   "Measurements:\n"
   "  --dbpath DIR           server's data directory when it runs on this machine: its disk is sampled,\n"
   "                         its files' residency recorded, --calibrate runs there\n"
   "  --device NAME          disk to sample (e.g. vda); default: the disk holding the data directory\n"
   "  --interval DUR         sampling period (default 1s)\n"
   "  --calibrate            first measure the disk's sequential MB/s and random 4 KiB reads/s (--parallel\n"
   "                         readers) with O_DIRECT on a temporary file in the data directory (removed after)\n"
   "  --calibrate-size SIZE  size of that file (default 1GiB)\n"
   "  --calibrate-time DUR   duration of the random-read test (default 3s)\n"
   "  --out FILE|-           results file (JSON, docs/results-schema.md); --json FILE writes the same;\n"
   "                         with -, the JSON is stdout and the table goes to stderr\n"
   "\n"
   "%s"
   "\n"
   "Examples:\n"
   "  # cold comparison on the embedded store, 4 workers, 3 runs, results for layout-report\n"
   "  scancmp --uri wiredtiger:./data --cold --runs 3 --out run.json\n"
   "\n"
   "  # a local mongod: restart it between layouts, sample its disk, 1000 bills only\n"
   "  scancmp --uri mongodb://localhost/bills --cold --restart-cmd 'systemctl restart mongod' \\\n"
   "          --dbpath /var/lib/mongodb --keys-limit 1000 --out run.json\n"
   "\n"
   "  # how close does the folded layout come to the disk's limits?\n"
   "  scancmp --uri wiredtiger:./data --cold --calibrate --calibrate-size 256MiB\n"
   "\n"
   "Test hook: LAYOUTLAB_DROP_CACHES_PATH replaces /proc/sys/vm/drop_caches (to test the not-permitted path).\n";

/* log_cb -- library messages to the shared logger. */
static void
log_cb (void *ctx, bool debug, const char *msg)
{
   if (debug) {
      lab_log_debug ("%s", msg);
   } else {
      lab_log_info ("%s", msg);
   }
}

/* parse_args -- fill the options; returns false with a usage error. */
static bool
parse_args (int argc, char **argv, lab_cli_common_t *c, lab_scan_opts_t *o, const char **out, bson_error_t *error)
{
   int i;

   for (i = 1; i < argc; i++) {
      const char *v = NULL;
      int r;
      int64_t n;
      uint64_t u;

      if ((r = lab_cli_common_take (c, argc, argv, &i, error)) != 0) {
         if (r < 0) {
            return false;
         }
         continue;
      }
#define VALUE(name) ((r = lab_cli_value (argc, argv, &i, name, &v, error)) != 0)
#define CHECK()     \
   if (r < 0) {     \
      return false; \
   }
      if (VALUE ("--detail")) {
         CHECK ();
         o->detail = v;
      } else if (VALUE ("--folded")) {
         CHECK ();
         o->folded = v;
      } else if (VALUE ("--key")) {
         CHECK ();
         o->key = v;
      } else if (VALUE ("--array-field")) {
         CHECK ();
         o->array_field = v;
      } else if (VALUE ("--keys-file")) {
         CHECK ();
         o->keys_file = v;
      } else if (VALUE ("--keys-limit")) {
         CHECK ();
         if (!lab_parse_int (v, "--keys-limit", 1, INT64_MAX, &o->keys_limit, error)) {
            return false;
         }
      } else if (VALUE ("--parallel")) {
         CHECK ();
         if (!lab_parse_int (v, "--parallel", 1, 1024, &n, error)) {
            return false;
         }
         o->parallel = (int) n;
      } else if (VALUE ("--runs")) {
         CHECK ();
         if (!lab_parse_int (v, "--runs", 1, 1000, &n, error)) {
            return false;
         }
         o->runs = (int) n;
      } else if (VALUE ("--order")) {
         CHECK ();
         if (!lab_scan_order_parse (v, &o->order)) {
            lab_error_set (error, LAB_ERROR_USAGE, 1, "--order: '%s' is not one of alternate, detail-first, folded-first",
                           v);
            return false;
         }
      } else if (VALUE ("--restart-cmd")) {
         CHECK ();
         o->restart_cmd = v;
      } else if (VALUE ("--restart-timeout")) {
         CHECK ();
         if (!lab_parse_duration_ns (v, "--restart-timeout", &u, error)) {
            return false;
         }
         o->restart_timeout_ms = (int32_t) (u / 1000000ull > INT32_MAX ? INT32_MAX : u / 1000000ull);
      } else if (VALUE ("--ready-timeout")) {
         CHECK ();
         if (!lab_parse_duration_ns (v, "--ready-timeout", &u, error)) {
            return false;
         }
         o->ready_timeout_ms = (int32_t) (u / 1000000ull > INT32_MAX ? INT32_MAX : u / 1000000ull);
      } else if (VALUE ("--drop-caches")) {
         CHECK ();
         if (!lab_drop_mode_parse (v, &o->drop_caches)) {
            lab_error_set (error, LAB_ERROR_USAGE, 1, "--drop-caches: '%s' is not one of auto, yes, no", v);
            return false;
         }
      } else if (VALUE ("--dbpath")) {
         CHECK ();
         o->dbpath = v;
      } else if (VALUE ("--device")) {
         CHECK ();
         o->device = v;
      } else if (VALUE ("--interval")) {
         CHECK ();
         if (!lab_parse_duration_ns (v, "--interval", &o->interval_ns, error)) {
            return false;
         }
         if (o->interval_ns < 10000000ull) {
            lab_error_set (error, LAB_ERROR_USAGE, 1, "--interval %s is below 10ms", v);
            return false;
         }
      } else if (VALUE ("--calibrate-size")) {
         CHECK ();
         if (!lab_parse_size (v, "--calibrate-size", &o->calibrate_bytes, error)) {
            return false;
         }
         if (o->calibrate_bytes < (1u << 20)) {
            lab_error_set (error, LAB_ERROR_USAGE, 1, "--calibrate-size %s is below 1MiB", v);
            return false;
         }
      } else if (VALUE ("--calibrate-time")) {
         CHECK ();
         if (!lab_parse_duration_ns (v, "--calibrate-time", &o->calibrate_rand_ns, error)) {
            return false;
         }
      } else if (VALUE ("--out")) {
         CHECK ();
         *out = v;
      } else if (!strcmp (argv[i], "--cold")) {
         o->cold = true;
      } else if (!strcmp (argv[i], "--calibrate")) {
         o->calibrate = true;
      } else if (!strcmp (argv[i], "--direct-io")) {
         o->direct_io = true;
      } else if (!strcmp (argv[i], "--create-index")) {
         o->create_index = true;
      } else {
         lab_error_set (error, LAB_ERROR_USAGE, 1, "unknown option or argument '%s' (see scancmp --help)", argv[i]);
         return false;
      }
#undef VALUE
#undef CHECK
   }
   if (o->keys_file && o->keys_limit) {
      /* allowed: the limit spreads over the file's keys */
   }
   return true;
}

/* main -- options, store, lab_scan_run, results file, table; errors to exit codes. */
int
main (int argc, char **argv)
{
   lab_cli_common_t c;
   lab_scan_opts_t o;
   lab_store_opts_t so = {0};
   lab_store_t *store = NULL;
   const char *out = NULL;
   bson_error_t error;
   bson_t results = BSON_INITIALIZER;
   char *table = NULL;
   int rc = LAB_EXIT_OK;

   lab_log_set_tool ("scancmp");
   lab_log_sink_set (lab_log_sink_stderr, NULL);

   lab_log_sink_set (lab_log_sink_stderr, NULL);
   lab_cli_common_init (&c);
   lab_scan_opts_init (&o);
   if (!parse_args (argc, argv, &c, &o, &out, &error)) {
      lab_log_error ("%s", error.message);
      rc = lab_error_exit_code (&error);
      goto done;
   }
   if (c.help) {
      printf (usage, lab_cli_common_help ());
      goto done;
   }
   if (c.version) {
      printf ("scancmp %s\n", LAB_VERSION);
      goto done;
   }
   lab_log_set (&c);
   o.progress = c.progress;
   o.cache_size_bytes = c.cache_size_bytes;
   o.log = log_cb;

   so.db = c.db;
   so.cache_size_bytes = c.cache_size_bytes;
   so.direct_io = o.direct_io;
   so.create = false;
   if (o.direct_io && strncmp (c.uri, "wiredtiger:", 11) != 0) {
      lab_log_error ("--direct-io applies to the embedded store (wiredtiger:DIR) only");
      rc = LAB_EXIT_USAGE;
      goto done;
   }
   store = lab_store_open (c.uri, &so, &error);
   if (!store) {
      char *shown = lab_uri_redact (c.uri);
      lab_log_error ("cannot open %s: %s", shown, error.message);
      bson_free (shown);
      rc = lab_error_exit_code (&error);
      goto done;
   }
   if (!lab_scan_run (store, &o, &results, &error)) {
      lab_log_error ("%s", error.message);
      rc = lab_error_exit_code (&error);
      goto done;
   }
   if (out && !lab_json_write (&results, out, &error)) {
      lab_log_error ("writing --out %s: %s", out, error.message);
      rc = LAB_EXIT_FAILURE;
      goto done;
   }
   if (c.json_path && !lab_json_write (&results, c.json_path, &error)) {
      lab_log_error ("writing --json %s: %s", c.json_path, error.message);
      rc = LAB_EXIT_FAILURE;
      goto done;
   }
   table = lab_scan_table_render (&results);
   /* JSON on stdout (--out - or --json -) keeps stdout machine-readable: the table goes to stderr */
   if ((out && !strcmp (out, "-")) || (c.json_path && !strcmp (c.json_path, "-"))) {
      if (!c.quiet) {
         fputs (table, stderr);
      }
   } else {
      fputs (table, stdout);
   }
   if (out && strcmp (out, "-") != 0) {
      lab_log_info ("results written to %s", out);
   }
done:
   bson_free (table);
   bson_destroy (&results);
   lab_store_close (store);
   return rc;
}
