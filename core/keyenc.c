/* keyenc.c -- placeholder being written now (replaced in the foundation work). */
#include "store_impl.h"
#include "keyenc.h"
#include "error.h"
