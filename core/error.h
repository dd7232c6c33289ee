/*
 * error.h -- layoutlab's error domains and helpers on top of bson_error_t.
 *
 * Every fallible function in layoutlab is `bool f(..., bson_error_t *error)`: mongoc and libbson errors
 * pass through untouched; foreign errors (WiredTiger, zstd, libcsv, errno) are translated where they
 * enter, with context (file, line, collection, key) added by the caller through lab_error_prefix().
 */
#ifndef LAB_ERROR_H
#define LAB_ERROR_H

#include <bson/bson.h>
#include <stdarg.h>
#include <stdbool.h>

/* Our domains start far above mongoc's (1..20) and libbson's (1..3). */
typedef enum {
   LAB_ERROR_USAGE = 19800, /* bad option or argument: exit code 2 */
   LAB_ERROR_IO,            /* errno-based failures: code = errno */
   LAB_ERROR_CSV,           /* CSV parsing and typing */
   LAB_ERROR_WT,            /* WiredTiger: code = WT return value (negated errno or WT_*) */
   LAB_ERROR_ZSTD,          /* zstd frames */
   LAB_ERROR_STORE,         /* store-level conditions, codes below */
   LAB_ERROR_VERIFY,        /* verification found a difference: exit code 3 */
   LAB_ERROR_SCAN,          /* cold procedure, sampling */
} lab_error_domain_t;

/* Codes in LAB_ERROR_STORE (other domains use errno / library codes). */
typedef enum {
   LAB_STORE_ERR_GENERIC = 1,
   LAB_STORE_ERR_NO_COLLECTION,  /* collection does not exist */
   LAB_STORE_ERR_EXISTS,         /* collection exists (and is not empty) */
   LAB_STORE_ERR_DOC_TOO_LARGE,  /* document over the max BSON size */
   LAB_STORE_ERR_NO_INDEX,       /* no index on the field */
   LAB_STORE_ERR_KEY_TYPE,       /* key value of an unsupported type */
   LAB_STORE_ERR_DUPLICATE_KEY,  /* duplicate _id */
   LAB_STORE_ERR_UNREACHABLE,    /* server does not answer */
   LAB_STORE_ERR_BAD_URI,        /* URI cannot be parsed */
   LAB_STORE_ERR_NOT_SUPPORTED,  /* operation not available on this backend */
   LAB_STORE_ERR_PERMISSION,     /* not writable / not permitted */
   LAB_STORE_ERR_BAD_REPLY,      /* a server reply has a field of an unexpected type (serverfacts.h) */
} lab_store_err_t;

/* Process exit codes (DESIGN.md). */
#define LAB_EXIT_OK 0
#define LAB_EXIT_FAILURE 1
#define LAB_EXIT_USAGE 2
#define LAB_EXIT_DIFFERENT 3

/* lab_error_set -- fill *error (may be NULL) with domain, code and a printf-style message. */
void lab_error_set (bson_error_t *error, uint32_t domain, uint32_t code, const char *fmt, ...)
   BSON_GNUC_PRINTF (4, 5);

/* lab_error_set_errno -- LAB_ERROR_IO with code = err and "<context>: strerror(err)". */
void lab_error_set_errno (bson_error_t *error, int err, const char *fmt, ...) BSON_GNUC_PRINTF (3, 4);

/* lab_error_prefix -- prepend "<context>: " to error->message (truncating safely); domain/code kept. */
void lab_error_prefix (bson_error_t *error, const char *fmt, ...) BSON_GNUC_PRINTF (2, 3);

/* lab_error_clear -- reset to "no error" (domain 0, code 0, empty message). */
void lab_error_clear (bson_error_t *error);

/* lab_error_is -- true when error has this domain and code. */
bool lab_error_is (const bson_error_t *error, uint32_t domain, uint32_t code);

/* lab_error_exit_code -- the process exit code for an error: usage 2, verify 3, anything else 1. */
int lab_error_exit_code (const bson_error_t *error);

/* lab_value_to_text -- a value as relaxed extended JSON (`123`, `"B1"`, `{ "$oid" : "..." }`), for
 * messages naming a key or an _id. Caller bson_free()s. */
char *lab_value_to_text (const bson_value_t *v);

/* lab_value_text -- the same into buf (truncated to len); returns buf. */
const char *lab_value_text (const bson_value_t *v, char *buf, size_t len);

#endif
