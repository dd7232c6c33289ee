/*
 * billgen_cli.h -- what the `billgen` tool's files share (private to the tool, not the library): the
 * helpers every command uses (billgen_cli.c) and the commands that look after a database rather than
 * fill it (billgen_admin.c: collections, clean).
 */
#ifndef LAB_BILLGEN_CLI_H
#define LAB_BILLGEN_CLI_H

#include <bson/bson.h>
#include <stdbool.h>

#include "core/cli.h"
#include "store/store.h"

/* The block compressor of the collections a command creates (--block-compressor, --zstd-level). */
typedef struct {
   const char *name; /* NULL: the backend's default */
   int32_t zstd_level;
} lab_gen_compress_opts_t;

/* lab_gen_cli_usage_error -- log a usage error with the command's help hint; the usage exit code. */
int lab_gen_cli_usage_error (const bson_error_t *error, const char *cmd);
/* lab_gen_cli_help -- --help / --version of a command: true (and prints) when one was given. */
bool lab_gen_cli_help (const lab_cli_common_t *c, const char *usage);
/* lab_gen_cli_open_store -- the store named by the common options, `tool` ("billgen generate") and the
 * command line acting on it (billgen_cli.c says more). */
lab_store_t *lab_gen_cli_open_store (const lab_cli_run_t *cli, const char *tool, const lab_cli_common_t *c,
                                     const lab_gen_compress_opts_t *z, bool create, bool unlogged,
                                     bson_error_t *error);
/* lab_gen_cli_summary_begin -- the --json summary's common header and the fields every command shares. */
void lab_gen_cli_summary_begin (bson_t *j, const lab_cli_run_t *cli, int rc, const bson_error_t *error,
                                const char *cmd, const lab_store_t *store, const char *coll);
/* lab_gen_cli_write_summary -- finish `j` to --json (destroyed); a write failure turns success into 1. */
int lab_gen_cli_write_summary (const lab_cli_common_t *c, bson_t *j, int rc);

/* lab_gen_cli_collections -- `billgen collections`: the collections and the indexes layoutlab built. */
int lab_gen_cli_collections (const lab_cli_run_t *cli, int argc, char **argv);
/* lab_gen_cli_clean -- `billgen clean`: remove what layoutlab created, after listing it and asking. */
int lab_gen_cli_clean (const lab_cli_run_t *cli, int argc, char **argv);

#endif
