/*
 * mark.h -- what the tools share around the provenance marker (store.h, LAB_MARK_COLL): the common
 * fields of a marker, the guard every --drop / --drop-dst of a server collection goes through, and the
 * list of a database's collections layoutlab did not write (scripts/demo.sh refuses such a database).
 *
 * The marker document (docs/results-schema.md, "dataset.<layout>.provenance"; store.h adds _id,
 * layoutlab: 1 and uuid):
 *   {tool: "billgen generate" | "billgen import" | "fold-details", version, written_at (UTC ISO-8601),
 *    command_line: [argv, URIs redacted, as the --json summary's], source (fold-details: the source
 *    collection), params: {the tool's settings}, verify: {ok, method, rows, masters, checksum, at}}
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

/* lab_store_mark_drop_guard -- before `opt` (--drop, --drop-dst) drops `coll` on `store`: nothing to ask when
 * the store is embedded (all of it is layoutlab's), the collection does not exist, or layoutlab wrote it
 * (its marker, store.h). Otherwise the collection is someone else's: its name, documents and size go to
 * stderr, and it is dropped only with the user's word: `yes` (--yes), or "y" to the question on a terminal
 * (stdin and stderr both terminals). Without either: LAB_ERROR_USAGE (exit 2) saying nothing was dropped
 * and naming --yes. */
bool lab_store_mark_drop_guard (lab_store_t *store, const char *coll, bool yes, const char *opt,
                                bson_error_t *error);

/* lab_store_mark_write_guard -- before `what` ("--workload append", "--create-index") writes to or builds an
 * index on `coll`: true when the collection does not exist, layoutlab wrote it (its marker), or `allow`
 * (NULL-terminated, --allow-writes; may be NULL) names it (*allowed set, may be NULL; logged). Otherwise
 * LAB_ERROR_USAGE (exit 2) naming the collection, its documents and size, saying that nothing was sent,
 * and the two ways on: a marked copy to measure (fold-details --shape copy, with the store's --uri and
 * --db) or --allow-writes COLL. On both backends: a blanket --yes is no answer here. */
bool lab_store_mark_write_guard (lab_store_t *store, lab_store_session_t *sess, const char *coll,
                                 const char *const *allow, const char *what, bool *allowed,
                                 bson_error_t *error);

/* lab_store_mark_foreign -- the collections of the store's database that layoutlab did not write (sorted,
 * NULL-terminated, caller bson_strfreev()s; LAB_MARK_COLL itself is never listed). */
bool lab_store_mark_foreign (lab_store_t *store, char ***names, bson_error_t *error);

#endif
