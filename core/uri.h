/*
 * uri.h -- layoutlab URIs as text: `mongodb://...`, `mongodb+srv://...` or `wiredtiger:DIR` (parsing one
 * into its backend is the store's: lab_store_uri_parse in store/store.h).
 *
 * The default is $LAYOUTLAB_URI, else `wiredtiger:./layoutlab-data`. Every URI printed anywhere goes
 * through lab_uri_redact() first: credentials never reach a terminal, a log or a results file.
 */
#ifndef LAB_URI_H
#define LAB_URI_H

#include <bson/bson.h>
#include <stdbool.h>

#define LAB_URI_DEFAULT "wiredtiger:./layoutlab-data"

/* lab_uri_default -- the URI to use when --uri is not given (static string or getenv result). */
const char *lab_uri_default (void);

/* lab_uri_redact -- a newly allocated copy of `s` with any password (and user) between "://" and the last
 * '@' of the authority replaced by "***"; also masks `password=` style query options. Caller bson_free()s. */
char *lab_uri_redact (const char *s);

#endif
