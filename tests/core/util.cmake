# Unit tests of core utilities: errors, URIs and redaction, size/duration parsing, JSON output.
lab_test(NAME test_core_util SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_util.c LABELS unit)
lab_test(NAME test_workers SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_workers.c LABELS unit)
# The row digest (core/rowhash.c) pinned to golden values: results files of earlier runs carry them.
lab_test(NAME test_rowhash SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_rowhash.c LABELS unit)
# Not a test (timings vary): the row digest's CPU per row on real rows, for comparing two versions.
add_executable(bench_rowhash ${CMAKE_CURRENT_LIST_DIR}/bench_rowhash.c)
target_link_libraries(bench_rowhash PRIVATE labstore)
