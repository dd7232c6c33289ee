/*
 * billgen_cli.c -- what every `billgen` command shares (billgen_cli.h): the usage error and --help, the
 * store named by the common options, the --json summary's header. Called by billgen_main.c and
 * billgen_admin.c, calling neither.
 */
#include <stdio.h>

#include "core/cli.h"
#include "core/error.h"
#include "core/log.h"
#include "datasets/billgen_cli.h"

/* lab_gen_cli_usage_error -- log a usage error with the command's help hint; the usage exit code. */
int
lab_gen_cli_usage_error (const bson_error_t *error, const char *cmd)
{
   lab_log_error ("%s", error->message);
   fprintf (stderr, "Try 'billgen %s --help'.\n", cmd);
   return LAB_EXIT_USAGE;
}

/* lab_gen_cli_help -- --help / --version of a command: true (and prints) when one was given. */
bool
lab_gen_cli_help (const lab_cli_common_t *c, const char *usage)
{
   if (c->help) {
      fputs (usage, stdout);
      fputs (c->help_all ? lab_cli_common_help () : lab_cli_common_help_short (), stdout);
      return true;
   }
   if (c->version) {
      printf ("billgen %s\n", LAB_VERSION);
      return true;
   }
   return false;
}

/* lab_gen_cli_open_store -- the store named by the common options, creating collections with `z`'s
 * compressor; create: an embedded home that does not exist yet is made (generate, import), else it is an
 * error (export: reading must not leave an empty store); unlogged: the collections it creates are not
 * journaled (generate: durable at its closing checkpoint). */
lab_store_t *
lab_gen_cli_open_store (const lab_cli_run_t *cli, const char *tool, const lab_cli_common_t *c,
                        const lab_gen_compress_opts_t *z, bool create, bool unlogged, bson_error_t *error)
{
   lab_store_opts_t so = { .db = c->db,
                           .cache_size_bytes = c->cache_size_bytes,
                           .create = create,
                           .progress = c->progress,
                           .unlogged = unlogged };

   so.block_compressor = z->name;
   so.zstd_level = z->zstd_level;
   so.connect_timeout_ms = c->server_timeout_ms;
   so.tool = tool; /* the indexes a command builds are recorded with it and its command line */
   so.argc = cli->argc;
   so.argv = cli->argv;
   return lab_store_open (c->uri, &so, error);
}

/* lab_gen_cli_write_summary -- finish `j` (the header was started by lab_gen_cli_summary_begin) to --json; a
 * write failure turns success into a runtime failure. */
int
lab_gen_cli_write_summary (const lab_cli_common_t *c, bson_t *j, int rc)
{
   bson_error_t jerr;

   if (!lab_json_write (j, c->json_path, &jerr)) {
      lab_log_error ("%s", jerr.message);
      if (rc == LAB_EXIT_OK) {
         rc = LAB_EXIT_FAILURE;
      }
   }
   bson_destroy (j);
   return rc;
}

/* lab_gen_cli_summary_begin -- the common header, then the fields every billgen command shares. */
void
lab_gen_cli_summary_begin (bson_t *j, const lab_cli_run_t *cli, int rc, const bson_error_t *error,
                           const char *cmd, const lab_store_t *store, const char *coll)
{
   lab_cli_summary_init (j, cli, rc, rc == LAB_EXIT_OK ? NULL : error);
   BSON_APPEND_UTF8 (j, "subcommand", cmd);
   if (store) {
      BSON_APPEND_UTF8 (j, "uri", lab_store_uri_redacted (store));
   }
   BSON_APPEND_UTF8 (j, "collection", coll);
}
