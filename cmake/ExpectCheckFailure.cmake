# Runs a lesson's checks and passes when they fail the way a learner should
# see them fail: Catch2 ran and reported failed checks, the program neither
# crashed nor passed, and every failure reads cleanly: no test-framework
# boilerplate, no recipe ("Hint: ...") in the failure text, no number broken
# across lines, and a line on how to ask for a hint.
#   cmake -DCHECK=program -DLESSON=N [-DSEED=s] [-DFILTER=tags] [-DEXPECT=text;text...]
#         -P ExpectCheckFailure.cmake
# SEED replays that input (WARPDRILL_SEED); EXPECT lists texts the output must contain.
if(DEFINED SEED)
  set(ENV{WARPDRILL_SEED} ${SEED})
endif()
execute_process(COMMAND ${CHECK} ${FILTER} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
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
# Catch2 pads the counts to line up with the assertions' line below.
if(NOT out MATCHES "test cases: +[0-9]+ \\| +([0-9]+ passed \\| +)?[0-9]+ failed")
  message(FATAL_ERROR "no Catch2 summary of failed checks:\n${out}\n${err}")
endif()

function(_forbid pattern why)
  string(REGEX MATCH "${pattern}" found "${out}")
  if(found)
    message(FATAL_ERROR "${why}: '${found}' in\n${out}")
  endif()
endfunction()
_forbid("due to unexpected exception|explicitly with message|Unknown expression after the reported line"
        "test-framework boilerplate")
_forbid("Hint:" "a recipe in the failure text: it belongs in hints.md")
_forbid("[0-9][.]?\n[ ]*[0-9]" "a number broken across lines")

foreach(text IN LISTS EXPECT ITEMS "For a hint: warpdrill hint ${LESSON}\n")
  string(FIND "${out}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected '${text}' in\n${out}")
  endif()
endforeach()
message(STATUS "fails as it should, and reads cleanly (exit ${rc})")
