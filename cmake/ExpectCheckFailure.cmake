# Runs a lesson's checks and passes when they fail the way a learner should
# see them fail: every check ran and some failed (the check program's record
# of its run says so), the program neither crashed nor passed, and every failure reads cleanly: no test-framework
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
# The verdict comes from the check program's record of its run
# (common/include/warpdrill/check_record.h); its output is read only for how it reads.
string(RANDOM LENGTH 12 tag)
set(record "${CMAKE_CURRENT_BINARY_DIR}/check-record-${tag}.jsonl")
set(ENV{WARPDRILL_RESULT_FILE} "${record}")
execute_process(COMMAND ${CHECK} ${FILTER} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(content "")
if(EXISTS "${record}")
  file(READ "${record}" content)
  file(REMOVE "${record}")
endif()
set(finished FALSE)
set(failed_cases 0)
set(skipped "")
# One JSON object a line, taken line by line: a CMake list would split them at ';' and join them at '['.
while(NOT content STREQUAL "")
  string(FIND "${content}" "\n" at)
  if(at EQUAL -1)
    set(line "${content}")
    set(content "")
  else()
    string(SUBSTRING "${content}" 0 ${at} line)
    math(EXPR at "${at} + 1")
    string(SUBSTRING "${content}" ${at} -1 content)
  endif()
  string(JSON event ERROR_VARIABLE bad GET "${line}" event)
  if(bad)
    continue()
  elseif(event STREQUAL "end")
    set(finished TRUE)
    string(JSON failed_cases GET "${line}" cases failed)
  elseif(event STREQUAL "case")
    string(JSON reason GET "${line}" skipped)
    if(reason)
      set(skipped "${reason}")
    endif()
  endif()
endwhile()
# A lesson this GPU cannot run passes without checking; ctest reports it skipped.
include(${CMAKE_CURRENT_LIST_DIR}/CheckRecord.cmake)
if(rc EQUAL WARPDRILL_SKIPPED_EXIT_CODE AND finished AND failed_cases EQUAL 0)
  message(STATUS "${WARPDRILL_SKIPPED_LINE}: ${skipped}")
  return()
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "the lesson's checks pass as shipped: they cannot be the learner's work\n${out}")
endif()
if(NOT rc MATCHES "^[0-9]+$")
  message(FATAL_ERROR "the lesson's checks crashed (${rc}) instead of failing:\n${out}\n${err}")
endif()
if(NOT finished OR failed_cases EQUAL 0)
  message(FATAL_ERROR "the checks did not finish with failed checks (their record says so):\n${out}\n${err}")
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
