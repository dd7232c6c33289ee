/* store_wt.c -- placeholder being written now (replaced in the foundation work). */
#include "store_impl.h"
#include "keyenc.h"
#include "error.h"
static bool
ph_open (lab_store_t *s, bson_error_t *e)
{
   lab_error_set (e, LAB_ERROR_STORE, LAB_STORE_ERR_NOT_SUPPORTED, "embedded backend not built yet");
   return false;
}
const lab_store_ops_t lab_store_wt_ops = {.name = "wiredtiger", .open = ph_open};
