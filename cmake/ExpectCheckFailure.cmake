# Runs a lesson's checks as shipped and passes when they fail the way a
# learner should see them fail: Catch2 ran, reported failed checks, and the
# program neither crashed nor passed.
execute_process(COMMAND ${CHECK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# A lesson this GPU cannot run passes without checking; ctest reports it skipped.
if(rc EQUAL 0 AND out MATCHES "SKIPPED on this GPU: lesson [0-9]+ needs [^\n]*")
  message(STATUS "${CMAKE_MATCH_0}")
  return()
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "the lesson's checks pass as shipped: they cannot be the learner's work\n${out}")
endif()
if(NOT rc MATCHES "^[0-9]+$")
  message(FATAL_ERROR "the lesson's checks crashed (${rc}) instead of failing:\n${out}\n${err}")
endif()
if(NOT out MATCHES "test cases: [0-9]+ \\| ([0-9]+ passed \\| )?[0-9]+ failed")
  message(FATAL_ERROR "no Catch2 summary of failed checks:\n${out}\n${err}")
endif()
message(STATUS "fails as shipped, as it should (exit ${rc})")
