# The key encoding (unit) and the embedded WiredTiger store (embedded).
lab_test(NAME test_keyenc SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_keyenc.c LABELS unit)
lab_test(NAME test_store_wt SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_store_wt.c LABELS embedded)
