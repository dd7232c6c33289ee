/*
 * mark.h -- what the tools share around the provenance marker (store.h, LAB_MARK_COLL): the common
 * fields of a marker, the guard every --drop / --drop-dst of a server collection goes through, and the
 * list of a database's collections layoutlab did not write (scripts/demo.sh refuses such a database).
 *
 * The marker document (docs/results-schema.md, "dataset.<layout>.provenance"; store.h adds _id,
 * layoutlab: 1 and uuid):
 *   {tool: "billgen generate" | "billgen import" | "fold-details", version, written_at (UTC ISO-8601),
 *    command_line: [argv, URIs redacted, as the --json summary's], source (fold-details: the source
 *    collection), params: {the tool's settings}, verify: {ok, method, rows, masters, checksum, at},
 *    writes: [{tool: "scancmp", workload: "append" | "update" | "mix", rows_appended, rows_updated, at,
 *              command_line, failed (only when true)}]: the writes made to the collection after it was
 *    written, oldest first (lab_store_mark_write_add)}
 *
 * These are command-line helpers: the guard talks to the user (stderr, and a y/N question on a terminal).
 */
#ifndef LAB_MARK_H
#define LAB_MARK_H

#include <bson/bson.h>
#include <stdbool.h>

#include "store.h"

/* lab_store_mark_begin -- init `doc` with tool, version (LAB_VERSION), written_at (now, UTC, ms) and
 * command_line (argv[0..argc), each argument as lab_cli_arg_redacted shows it). The caller appends
 * source and params, then hands it to lab_store_mark_put. */
void lab_store_mark_begin (bson_t *doc, const char *tool, int argc, char **argv);

/* lab_store_mark_now -- the time now as UTC ISO-8601 with ms ("2026-12-02T04:33:21.677Z") into buf. */
void lab_store_mark_now (char *buf, size_t len);

/* lab_store_mark_write_add -- when `coll` is layoutlab's: `entry` appended to its marker's "writes" array
 * (made when absent), every other field kept as it is (verify too: the writes came after it); *added (may
 * be NULL) says whether it was: a collection without a marker records nothing. */
bool lab_store_mark_write_add (lab_store_session_t *sess, const char *coll, const bson_t *entry, bool *added,
                               bson_error_t *error);

/* lab_store_mark_drop_guard -- before `opt` (--drop, --drop-dst) drops `coll` on `store`: nothing to ask when
 * the store is embedded (all of it is layoutlab's), the collection does not exist, or layoutlab wrote it
 * (its marker, store.h). Otherwise the collection is someone else's: its name, documents and size go to
 * stderr, and it is dropped only with the user's word: `yes` (--yes), or "y" to the question on a terminal
 * (stdin and stderr both terminals). Without either: LAB_ERROR_USAGE (exit 2) saying nothing was dropped
 * and naming --yes. */
bool lab_store_mark_drop_guard (lab_store_t *store, const char *coll, bool yes, const char *opt,
                                bson_error_t *error);

/* lab_store_mark_foreign -- the collections of the store's database that layoutlab did not write (sorted,
 * NULL-terminated, caller bson_strfreev()s; LAB_MARK_COLL itself is never listed). */
bool lab_store_mark_foreign (lab_store_t *store, char ***names, bson_error_t *error);

#endif
