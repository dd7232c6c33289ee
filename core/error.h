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

/* Our domains start far above mongoc's (1..20) and libbson's (1..3). Each domain with codes of its own
 * has a named enum below; IO and WT carry a foreign code instead. Codes start at 1: code 0 is what an
 * unset bson_error_t holds. Tests check the domain and code (lab_error_is), not only the message. */
typedef enum {
   LAB_ERROR_USAGE = 19800, /* bad option or argument, codes lab_usage_err_t: exit code 2 */
   LAB_ERROR_IO,            /* errno-based failures: code = errno (lab_error_set_errno) */
   LAB_ERROR_CSV,           /* CSV parsing, typing and writing, codes lab_csv_err_t */
   LAB_ERROR_WT,            /* WiredTiger: code = WT return value (negated errno or WT_*) (lab_wt_fail) */
   LAB_ERROR_ZSTD,          /* zstd frames, codes lab_zstd_err_t */
   LAB_ERROR_STORE,         /* store-level conditions, codes lab_store_err_t */
   LAB_ERROR_VERIFY,        /* verification found a difference, codes lab_verify_err_t: exit code 3 */
   LAB_ERROR_SCAN,          /* cold procedure, device and sampling, codes lab_scan_err_t */
} lab_error_domain_t;

/* Codes in LAB_ERROR_STORE. */
typedef enum {
   LAB_STORE_ERR_GENERIC = 1,
   LAB_STORE_ERR_NO_COLLECTION, /* collection does not exist */
   LAB_STORE_ERR_EXISTS,        /* collection exists (and is not empty) */
   LAB_STORE_ERR_DOC_TOO_LARGE, /* document over the max BSON size */
   LAB_STORE_ERR_NO_INDEX,      /* no index on the field */
   LAB_STORE_ERR_KEY_TYPE,      /* key value of an unsupported type */
   LAB_STORE_ERR_DUPLICATE_KEY, /* duplicate _id */
   LAB_STORE_ERR_UNREACHABLE,   /* server does not answer */
   LAB_STORE_ERR_BAD_URI,       /* URI cannot be parsed */
   LAB_STORE_ERR_NOT_SUPPORTED, /* operation not available on this backend */
   LAB_STORE_ERR_PERMISSION,    /* not writable / not permitted */
   LAB_STORE_ERR_BAD_REPLY,     /* a server reply has a field of an unexpected type (serverfacts.h) */
} lab_store_err_t;

/* Codes in LAB_ERROR_USAGE: what was wrong with the command line (or with the arguments a library entry
 * point was given, which the mains take from it). All of them exit with code 2. */
typedef enum {
   /* an option no table knows ("unknown option '-q' (try --help)") */
   LAB_USAGE_ERR_UNKNOWN_OPTION = 1,
   /* an option that takes a value was given none ("option --x needs a value") */
   LAB_USAGE_ERR_MISSING_VALUE,
   /* an argument nobody takes: a positional the command has no room for, or a value given to a flag
    * (--flag=x) */
   LAB_USAGE_ERR_UNEXPECTED_ARGUMENT,
   /* a value that does not parse, is out of range (possibly a range another option sets), or is not one
    * of the choices */
   LAB_USAGE_ERR_BAD_VALUE,
   /* a collection or field name that is empty, malformed or reserved */
   LAB_USAGE_ERR_BAD_NAME,
   /* a required option, argument or input is absent */
   LAB_USAGE_ERR_MISSING,
   /* options that exclude each other, or an option that contradicts the backend, the server, the data or
    * the machine */
   LAB_USAGE_ERR_CONFLICT,
   /* a library object used out of order (an import run a second time) */
   LAB_USAGE_ERR_MISUSE,
} lab_usage_err_t;

/* Codes in LAB_ERROR_CSV (datasets/: csvin.c reads records, csvtype.c types headers and values, import.c
 * and export.c move rows). */
typedef enum {
   /* a header field is not allowed (empty, '$', '.', bad UTF-8, no/unknown type, duplicate name), or the
    * header line does not parse as CSV */
   LAB_CSV_ERR_BAD_HEADER = 1,
   /* --headerline on an input that is empty */
   LAB_CSV_ERR_NO_HEADER,
   /* a later file's header differs from the first file's */
   LAB_CSV_ERR_HEADER_MISMATCH,
   /* a row refused under --parse-grace stop: malformed, wrong number of fields, or a value that does not
    * parse as its column's type */
   LAB_CSV_ERR_BAD_ROW,
   /* the input cannot be cut into records: one longer than the limit (usually an opening quote without
    * its closing one), or not exactly one row */
   LAB_CSV_ERR_BAD_RECORD,
   /* export: a field of a BSON type CSV cannot carry */
   LAB_CSV_ERR_UNSUPPORTED_TYPE,
   /* export: a field's type differs from its column's in the typed header */
   LAB_CSV_ERR_TYPE_CHANGED,
   /* export: a field not in the header sampled from the first documents */
   LAB_CSV_ERR_UNKNOWN_FIELD,
   /* export: a value that cannot be written as its column's type */
   LAB_CSV_ERR_BAD_VALUE,
} lab_csv_err_t;

/* Codes in LAB_ERROR_ZSTD (datasets/stream.c). */
typedef enum {
   /* the input ends inside a frame (an incomplete download or copy) */
   LAB_ZSTD_ERR_TRUNCATED = 1,
   /* the decoder refused the data (damaged bytes, bad checksum, trailing garbage) */
   LAB_ZSTD_ERR_CORRUPT,
   /* a zstd call failed for a reason other than the data: no memory for a context, a refused compression
    * level, compression itself failing */
   LAB_ZSTD_ERR_LIBRARY,
} lab_zstd_err_t;

/* Codes in LAB_ERROR_SCAN (scan/). RESTART_TIMEOUT and RESTART_FAILED keep the values 2 and 3 cold.c used. */
typedef enum {
   /* which disk holds the data cannot be told: no mount contains the path, or its device is not a block
    * device (device.c); name one with --device */
   LAB_SCAN_ERR_NO_DEVICE = 1,
   /* --restart-cmd did not finish within --restart-timeout and was killed (cold.c) */
   LAB_SCAN_ERR_RESTART_TIMEOUT,
   /* --restart-cmd exited non-zero or was killed by a signal (cold.c) */
   LAB_SCAN_ERR_RESTART_FAILED,
   /* the device has no line in /proc/diskstats (diskstats.c), or the server's getDiagnosticData lists no
    * disk (topology.c) */
   LAB_SCAN_ERR_NOT_IN_DISKSTATS,
   /* a /proc/diskstats line has too few fields (diskstats.c) */
   LAB_SCAN_ERR_BAD_DISKSTATS,
   /* no key to load: the collection holds no value of the key field (run.c) */
   LAB_SCAN_ERR_NO_KEYS,
   /* the sampler thread could not be started (sampler.c) */
   LAB_SCAN_ERR_THREAD,
   /* the cluster cannot be measured as it is: a mongos listing no shard or more than are supported, a
    * shard with no host to connect to (topology.c); --shard-uri names one */
   LAB_SCAN_ERR_TOPOLOGY,
   /* locality cannot be measured: no leaf page count and no average document size, or no sampled master
    * has a row (locality.c); the sweep records the reason and goes on without it */
   LAB_SCAN_ERR_LOCALITY,
   /* a comparison of nothing: none of the keys to load matched a document in a layout's collection
    * (run.c, match.c); the message names how many keys, which collection(s) and the key field, with a
    * hint when the keys' type differs from the field's */
   LAB_SCAN_ERR_NO_MATCH,
} lab_scan_err_t;

/* Codes in LAB_ERROR_VERIFY: a destination that is not what the fold should have written (etl/fold.c). All
 * of them exit with code 3. */
typedef enum {
   /* a document lacks the folded shape: the key, the rows array, int32 row_count, part and parts with 0
    * <= part < parts */
   LAB_VERIFY_ERR_NOT_FOLDED = 1,
   /* the rows array does not parse, or holds an element that is not a document */
   LAB_VERIFY_ERR_CORRUPT,
   /* row_count disagrees with the number of rows in the array */
   LAB_VERIFY_ERR_ROW_COUNT,
   /* scancmp's workloads: two layouts returned different rows or totals for the same query */
   LAB_VERIFY_ERR_RESULTS_DIFFER,
} lab_verify_err_t;

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

/* lab_error_prefix_nospace -- prepend "no space left on device writing to <dir> (<N> MiB free; free space
 * there and run again)" to error->message (free space from statvfs; "free space unknown" when statvfs
 * fails); domain/code kept. For the places where a full disk surfaces, so the user sees where and how
 * much. */
void lab_error_prefix_nospace (bson_error_t *error, const char *dir);

/* lab_error_is_nospace -- the error reports a full disk: errno ENOSPC (LAB_ERROR_IO, or LAB_ERROR_WT with
 * WiredTiger's ENOSPC), or a message lab_error_prefix_nospace decorated (a WiredTiger panic after a
 * failed write). */
bool lab_error_is_nospace (const bson_error_t *error);

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
