# What a check program's exit status says to CMake and ctest, beside its
# record (common/include/warpdrill/check_record.h, where the number lives):
# every test case was skipped on this machine, and none failed. Included by
# cmake/Lessons.cmake (ctest's SKIP_RETURN_CODE) and ExpectCheckFailure.cmake.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/../common/include/warpdrill/check_record.h skipped_exit_line
     REGEX "kSkippedExitCode = [0-9]+;")
string(REGEX MATCH "[0-9]+" WARPDRILL_SKIPPED_EXIT_CODE "${skipped_exit_line}")
# ExpectCheckFailure.cmake cannot choose its own exit status (CMake 3.25):
# for a skipped lesson it prints this line, which ctest reads as skipped.
set(WARPDRILL_SKIPPED_LINE "warpdrill: every check was skipped on this machine")
