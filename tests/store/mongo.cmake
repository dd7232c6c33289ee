# The store interface through store/store.h, the same program on both backends: the embedded WiredTiger
# store in a temporary directory (label embedded) and the MongoDB test server of the fixture, or
# $LAYOUTLAB_TEST_URI (label server). Plus the bad-input cases, and the store benchmark program (not a test).
lab_test(NAME test_store_embedded SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_store.c LABELS embedded
         ENV LAB_STORE_BACKEND=wiredtiger)
lab_test(NAME test_store_server SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_store.c SERVER
         ENV LAB_STORE_BACKEND=mongodb)
# Compound and multikey indexes (lab_store_index_spec_t) on both backends; embedded, the index tables read
# through WiredTiger too.
lab_test(NAME test_store_index_embedded SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_store_index.c LABELS embedded
         ENV LAB_STORE_BACKEND=wiredtiger)
lab_test(NAME test_store_index_server SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_store_index.c SERVER
         ENV LAB_STORE_BACKEND=mongodb)
# Bad input on both backends; needs no server (the unreachable case uses port 1).
lab_test(NAME test_store_bad_input SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_bad_input.c LABELS embedded)

# scripts/bench-store.sh drives this; a plain program, not a test.
add_executable(bench_store ${CMAKE_CURRENT_LIST_DIR}/bench_store.c)
target_link_libraries(bench_store PRIVATE labstore)
# lab_store_create_clustered on a server (issue 25): refused by FerretDB and servers before 5.3, created on
# a 5.3+ mongod.
lab_test(NAME test_store_clustered_server SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_store_clustered_server.c SERVER)
# What a key field holds (store/keyinfo.c): its BSON types from the index's ends, counted when they differ;
# a field no document has, with the fields seen; on both backends.
lab_test(NAME test_key_types_embedded SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_key_types.c LABELS embedded
         ENV LAB_STORE_BACKEND=wiredtiger)
lab_test(NAME test_key_types_server SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_key_types.c SERVER
         ENV LAB_STORE_BACKEND=mongodb)
# The drop guard's question goes through the caller's callback (store/mark.h); billgen on a terminal (a
# pty from script(1)) asks it, "n" leaves the collection, "y" replaces it.
lab_test(NAME test_mark_guard_server SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_mark_guard.c SERVER)
add_dependencies(test_mark_guard_server test-mongo-cmd)
if(TARGET billgen)
  add_dependencies(test_mark_guard_server billgen)
endif()
