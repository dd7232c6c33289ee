/*
 * scan_testdata.h -- builds both layouts for scancmp's tests and bench directly through the store
 * interface: a detail collection whose rows are interleaved over all bills (each bill's rows scattered
 * over the collection, as billgen's `--order interleaved` does) and a folded collection
 * {bill_id, row_count, details: [...]}, both indexed on bill_id; and from the folded one a buckets
 * collection (a master's rows over several documents) or a copy, for comparisons of more layouts.
 */
#ifndef LAB_SCAN_TESTDATA_H
#define LAB_SCAN_TESTDATA_H

#include "store/store.h"

/* scan_testdata_build -- `bills` bills of 1..2*mean_rows-1 rows (deterministic); *rows_out gets the
 * number of detail rows. Existing collections of those names are dropped first. */
bool scan_testdata_build (lab_store_t *store, const char *detail, const char *folded, int bills,
                          int mean_rows, int64_t *rows_out, bson_error_t *error);

/* scan_testdata_rebucket -- `to` (dropped first) from the folded collection `from`: each master's
 * details in documents {bill_id, bucket, row_count, details} of at most bucket_rows rows, in order
 * (bucket_rows >= the largest master: a copy of the folded layout), indexed on bill_id; *docs_out (may
 * be NULL) gets the number of documents written. The buckets layout until fold-details --bucket-rows
 * makes it. */
bool scan_testdata_rebucket (lab_store_t *store, const char *from, const char *to, int bucket_rows,
                             int64_t *docs_out, bson_error_t *error);

#endif
