# Runs a lesson's checks and passes when they fail the way a learner should
# see them fail: Catch2 ran and reported failed checks, the program neither
# crashed nor passed, and every failure reads cleanly: no test-framework
# boilerplate, no recipe ("Hint: ...") in the failure text, no number broken
# across lines, and a line on how to ask for a hint.
#   cmake -DCHECK=program -DLESSON=N [-DSEED=s] [-DFILTER=tags] [-DEXPECT=text;text...]
#         [-DLESSON_DIR=... -DSHIPPED_DIR=... -DSHIPPED_TARGET=... -DSHIPPED_CHECK=... -DBUILD_DIR=...
#          -DSOURCE_DIR=...] -P ExpectCheckFailure.cmake
# SEED replays that input (WARPDRILL_SEED); EXPECT lists texts the output must contain.
# With LESSON_DIR and the rest, the lesson is checked as git's HEAD has it: where
# the working kernel files differ (a learner solved it), HEAD's are written into
# SHIPPED_DIR and SHIPPED_TARGET is built and run instead of CHECK.
if(DEFINED SEED)
  set(ENV{WARPDRILL_SEED} ${SEED})
endif()
if(DEFINED LESSON_DIR)
  file(GLOB kernels RELATIVE ${LESSON_DIR} ${LESSON_DIR}/*.cuh)
  file(RELATIVE_PATH lesson_path ${SOURCE_DIR} ${LESSON_DIR})
  set(differs FALSE)
  foreach(kernel IN LISTS kernels)
    execute_process(COMMAND git -C ${SOURCE_DIR} show HEAD:${lesson_path}/${kernel}
                    RESULT_VARIABLE git_rc OUTPUT_VARIABLE shipped ERROR_QUIET)
    if(NOT git_rc EQUAL 0)
      break()  # not a git checkout, or a file git does not know: the working files are the shipped ones
    endif()
    file(READ ${LESSON_DIR}/${kernel} working)
    if(NOT working STREQUAL shipped)
      set(differs TRUE)
    endif()
    file(WRITE ${SHIPPED_DIR}/${kernel}.new "${shipped}")
  endforeach()
  if(differs)
    foreach(kernel IN LISTS kernels)
      # Copied only when changed, so that the shipped build is redone only then.
      file(COPY_FILE ${SHIPPED_DIR}/${kernel}.new ${SHIPPED_DIR}/${kernel} ONLY_IF_DIFFERENT)
    endforeach()
    execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${SHIPPED_TARGET}
                    RESULT_VARIABLE build_rc OUTPUT_VARIABLE build_out ERROR_VARIABLE build_out)
    if(NOT build_rc EQUAL 0)
      message(FATAL_ERROR "the lesson as git's HEAD has it does not build:\n${build_out}")
    endif()
    message(STATUS "your kernel files differ from git's HEAD: the lesson is checked as HEAD has it")
    set(CHECK ${SHIPPED_CHECK})
  endif()
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
