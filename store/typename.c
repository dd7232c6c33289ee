/*
 * typename.c -- MongoDB's names of BSON types as the tools print them (store.h): a leaf every other file
 * of the store may call, the server's replies and the key checks alike.
 */
#include "store/store.h"

/* lab_store_type_name -- see store.h. */
const char *
lab_store_type_name (bson_type_t t)
{
   switch (t) {
   case BSON_TYPE_DOUBLE:
      return "double";
   case BSON_TYPE_UTF8:
      return "string";
   case BSON_TYPE_DOCUMENT:
      return "document";
   case BSON_TYPE_ARRAY:
      return "array";
   case BSON_TYPE_BINARY:
      return "binData";
   case BSON_TYPE_UNDEFINED:
      return "undefined";
   case BSON_TYPE_OID:
      return "objectId";
   case BSON_TYPE_BOOL:
      return "bool";
   case BSON_TYPE_DATE_TIME:
      return "date";
   case BSON_TYPE_NULL:
      return "null";
   case BSON_TYPE_REGEX:
      return "regex";
   case BSON_TYPE_SYMBOL:
      return "symbol";
   case BSON_TYPE_INT32:
      return "int32";
   case BSON_TYPE_TIMESTAMP:
      return "timestamp";
   case BSON_TYPE_INT64:
      return "int64";
   case BSON_TYPE_DECIMAL128:
      return "decimal";
   case BSON_TYPE_MINKEY:
      return "minKey";
   case BSON_TYPE_MAXKEY:
      return "maxKey";
   default:
      return "other";
   }
}
