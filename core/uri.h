/*
 * uri.h -- layoutlab URIs: `mongodb://...`, `mongodb+srv://...` or `wiredtiger:DIR`.
 *
 * The default is $LAYOUTLAB_URI, else `wiredtiger:./layoutlab-data`. Every URI printed anywhere goes
 * through lab_uri_redact() first: credentials never reach a terminal, a log or a results file.
 */
#ifndef LAB_URI_H
#define LAB_URI_H

#include <bson/bson.h>
#include <stdbool.h>

#define LAB_URI_DEFAULT "wiredtiger:./layoutlab-data"
#define LAB_DB_DEFAULT "layoutlab"

typedef enum { LAB_BACKEND_WT = 1, LAB_BACKEND_MONGO = 2 } lab_store_backend_t;

typedef struct {
   lab_store_backend_t backend;
   char *uri;     /* the full URI as given (may hold credentials: never print it) */
   char *wt_home; /* LAB_BACKEND_WT: the directory after "wiredtiger:" */
   char *uri_db;  /* LAB_BACKEND_MONGO: database named in the URI path, or NULL */
} lab_store_uri_t;

/* lab_uri_default -- the URI to use when --uri is not given (static string or getenv result). */
const char *lab_uri_default (void);

/* lab_store_uri_parse -- parse `s` into *out (caller frees with lab_store_uri_cleanup). Unknown schemes, an
 * empty wiredtiger directory and a MongoDB URI libmongoc refuses give LAB_STORE_ERR_BAD_URI. */
bool lab_store_uri_parse (const char *s, lab_store_uri_t *out, bson_error_t *error);

/* lab_store_uri_cleanup -- free what lab_store_uri_parse allocated. */
void lab_store_uri_cleanup (lab_store_uri_t *u);

/* lab_uri_redact -- a newly allocated copy of `s` with any password (and user) between "://" and the last
 * '@' of the authority replaced by "***"; also masks `password=` style query options. Caller bson_free()s. */
char *lab_uri_redact (const char *s);

/* lab_store_uri_db -- the database to use: `opt_db` if set, else the URI's, else "layoutlab". */
const char *lab_store_uri_db (const lab_store_uri_t *u, const char *opt_db);

#endif
