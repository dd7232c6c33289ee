# The key encoding (unit) and the embedded WiredTiger store (embedded).
lab_test(NAME test_keyenc SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_keyenc.c LABELS unit)
lab_test(NAME test_store_wt SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_store_wt.c LABELS embedded)
# A sorted stream fetching its records ahead in RecordId order gives the one-at-a-time stream exactly.
lab_test(NAME test_wt_fetch SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_wt_fetch.c LABELS embedded)
# The external merge sort of the embedded store's index builds (unit: plain files, no engine).
lab_test(NAME test_wt_sort SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_wt_sort.c LABELS unit)
# An index's keys kept while a load inserts: the build takes them and gives the index a read gives.
lab_test(NAME test_wt_collect SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_wt_collect.c LABELS embedded)
# Not a test (timings vary): the store's overhead over raw WiredTiger cursors, see the file's header.
add_executable(bench_store_wt ${CMAKE_CURRENT_LIST_DIR}/bench_store_wt.c)
target_link_libraries(bench_store_wt PRIVATE labstore)
# The block compressors of the embedded store (none, snappy, zlib, our zstd): round trips across a reopen,
# a zstd store without the zstd compressor, a damaged zstd block, zstd levels.
lab_test(NAME test_wt_compress SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_wt_compress.c LABELS embedded)
if(TARGET billgen)
  add_dependencies(test_wt_compress billgen)
endif()
# The record update of the embedded store against mongod's updateRecord (issue 24): modify or whole record.
lab_test(NAME test_wt_modify SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_wt_modify.c LABELS embedded)
# Clustered collections on the embedded store (issue 25): the KeyString RecordId, the key_format=u record
# table without an _id index table, _id order and _id prefix ranges, refusals.
lab_test(NAME test_wt_clustered SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_wt_clustered.c LABELS embedded)
# Secondary indexes of a clustered collection: entries ending in the string RecordId, bulk build, kept by
# inserts, deletes and upserts, multikey, across a reopen.
lab_test(NAME test_wt_clustered_index SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_wt_clustered_index.c LABELS embedded)
# An update's index entries are the difference of the old and new keys (plain and clustered), valued with
# mongod's TypeBits; each collection's own logging setting picks modify or the whole record.
lab_test(NAME test_wt_ixdiff SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_wt_ixdiff.c LABELS embedded)
