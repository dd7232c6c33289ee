/*
 * serverfacts_product.c -- which product answers a server's commands: mongod, mongos, FerretDB or another
 * MongoDB-compatible server. Figures measured on anything but mongod (or a mongos over mongods) say nothing
 * about mongod's storage engine, so the results file records the product and the report says so.
 */
#include "serverfacts.h"

#include "store.h"

#include <string.h>

/* hex40 -- `s` is 40 hexadecimal digits (a git commit, as mongod's gitVersion is). */
static bool
hex40 (const char *s)
{
   size_t i;

   for (i = 0; s[i]; i++) {
      if (!strchr ("0123456789abcdefABCDEF", s[i])) {
         return false;
      }
   }
   return i == 40;
}

/* lab_store_facts_product -- see serverfacts.h. */
const char *
lab_store_facts_product (const bson_t *hello, const bson_t *build_info)
{
   bson_iter_t it;

   if (build_info && bson_iter_init_find (&it, build_info, "ferretdbVersion")) {
      return LAB_STORE_PRODUCT_FERRETDB;
   }
   if (hello && bson_iter_init_find (&it, hello, "msg") && BSON_ITER_HOLDS_UTF8 (&it) &&
       strcmp (bson_iter_utf8 (&it, NULL), "isdbgrid") == 0) {
      return LAB_STORE_PRODUCT_MONGOS;
   }
   if (build_info && bson_iter_init_find (&it, build_info, "storageEngines") && BSON_ITER_HOLDS_ARRAY (&it)) {
      return LAB_STORE_PRODUCT_MONGOD;
   }
   if (build_info && bson_iter_init_find (&it, build_info, "gitVersion") && BSON_ITER_HOLDS_UTF8 (&it) &&
       hex40 (bson_iter_utf8 (&it, NULL))) {
      return LAB_STORE_PRODUCT_MONGOD;
   }
   return LAB_STORE_PRODUCT_UNKNOWN;
}
