# One executable of checks per lesson and per solution. A lesson directory
# holds the learner's kernel files at its top and the given code in check/:
#   lessons/NN-name/{reduce.cuh, shuffle.cuh, ...}   the learner edits these
#   lessons/NN-name/check/{launch.cu, check.cpp}     host code and checks
#   solutions/NN-name/                               the same kernel files, solved
# lesson-NN builds check/ against lessons/NN-name, solution-NN against
# solutions/NN-name (skipped when solutions/ is not handed out).
#
# A lesson's checks (check/*.cpp) compile once, into lesson-NN-checks, which
# every program of that lesson links: the lesson's, the solution's, the
# tests' learner mistakes, and pristine grading builds (cmake/Grading.cmake).
# The checks see common/ only; they reach the kernels through check/launch.cu.

include(${CMAKE_CURRENT_LIST_DIR}/CheckRecord.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/Manifest.cmake)

function(warpdrill_lesson_checks lesson_dir)
  get_filename_component(name ${lesson_dir} NAME)
  string(SUBSTRING ${name} 0 2 number)
  file(GLOB checks ${lesson_dir}/check/*.cpp)
  add_library(lesson-${number}-checks OBJECT ${checks})
  target_link_libraries(lesson-${number}-checks PUBLIC warpdrill::course)
endfunction()

# The checks of lessons/<lesson_dir>/check/ built against the kernel files in
# kernel_dir: the lesson's, the solution's, a learner's mistake (tests/) or a
# learner's submission (grading). The given launch code is compiled once, as
# ${target}-launch, for the checks and for the profile driver below.
function(warpdrill_lesson_target target lesson_dir kernel_dir)
  get_filename_component(name ${lesson_dir} NAME)
  string(SUBSTRING ${name} 0 2 number)
  add_library(${target}-launch OBJECT)
  warpdrill_kernel_sources(${target}-launch ${lesson_dir}/check/launch.cu)
  warpdrill_precompiled_runtime(${target}-launch)
  # The kernel directory comes first, so "reduce.cuh" is the learner's or the solution's.
  target_include_directories(${target}-launch PRIVATE ${kernel_dir})
  target_link_libraries(${target}-launch PRIVATE warpdrill::host)

  add_executable(${target} $<TARGET_OBJECTS:${target}-launch>)
  target_link_libraries(${target} PRIVATE lesson-${number}-checks warpdrill::course)
endfunction()

# profile-${target}, `warpdrill profile`'s driver: lesson `number`'s launch
# code at a fixed size, run as the manifest's `workload` says (a section of
# common/src/course/profile_lesson.cu), built only when asked for. A lesson
# without a workload has no driver.
function(warpdrill_profile_target target number workload)
  if(workload STREQUAL "")
    return()
  endif()
  add_executable(profile-${target} $<TARGET_OBJECTS:${target}-launch>)
  warpdrill_kernel_sources(profile-${target} ${PROJECT_SOURCE_DIR}/common/src/course/profile_lesson.cu)
  string(TOUPPER ${workload} workload_macro)
  target_compile_definitions(profile-${target} PRIVATE WARPDRILL_LESSON=${number}
                             WARPDRILL_WORKLOAD_${workload_macro}=1)
  target_link_libraries(profile-${target} PRIVATE warpdrill::host)
  if(TARGET warpdrill::profile_record)  # the CPU backend's drivers write their counts
    target_link_libraries(profile-${target} PRIVATE warpdrill::profile_record)
  endif()
  set_target_properties(profile-${target} PROPERTIES EXCLUDE_FROM_ALL TRUE)
endfunction()

function(warpdrill_add_all_lessons)
  file(GLOB lesson_dirs LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/lessons/[0-9][0-9]-*)
  list(SORT lesson_dirs)
  set(all_lessons "")
  set(kit "")
  set(kit_programs "")
  if(TARGET cudacc)
    list(APPEND kit_programs cudacc)  # the grading builds compile the learner's .cu files with it
  endif()
  warpdrill_read_manifest()
  foreach(lesson_dir IN LISTS lesson_dirs)
    get_filename_component(name ${lesson_dir} NAME)
    if(NOT name IN_LIST WARPDRILL_MANIFEST_FOLDERS)
      message(FATAL_ERROR "lessons/${name} has no [[lesson]] in lessons/lessons.toml (folder = \"${name}\")")
    endif()
    set(workload "${WARPDRILL_MANIFEST_${name}_workload}")
    string(SUBSTRING ${name} 0 2 number)
    math(EXPR lesson_number "${number}")  # "01" -> 1
    warpdrill_lesson_checks(${lesson_dir})
    list(APPEND kit lesson-${number}-checks)
    warpdrill_lesson_target(lesson-${number} ${lesson_dir} ${lesson_dir})
    warpdrill_profile_target(lesson-${number} ${lesson_number} "${workload}")
    list(APPEND kit_programs lesson-${number})
    list(APPEND all_lessons ${name})

    set(solution_dir ${PROJECT_SOURCE_DIR}/solutions/${name})
    if(IS_DIRECTORY ${solution_dir})
      warpdrill_lesson_target(solution-${number} ${lesson_dir} ${solution_dir})
      warpdrill_profile_target(solution-${number} ${lesson_number} "${workload}")
      add_test(NAME solution.${number} COMMAND solution-${number})
      # A lesson this GPU cannot run (lesson 12 needs clusters) says so and is skipped.
      set_tests_properties(solution.${number} PROPERTIES LABELS "solution" TIMEOUT 300
        SKIP_RETURN_CODE ${WARPDRILL_SKIPPED_EXIT_CODE})
      # The course's integrity: as shipped, each lesson compiles and its checks fail, readably.
      # "As shipped" is git's HEAD, not the learner's working files: where those differ
      # (a learner who solved the lesson runs ./warpdrill test), the test builds
      # shipped-NN from HEAD's kernel files, written into shipped/NAME, and checks that.
      set(shipped_dir ${CMAKE_BINARY_DIR}/shipped/${name})
      file(GLOB lesson_kernels ${lesson_dir}/*.cuh)
      file(COPY ${lesson_kernels} DESTINATION ${shipped_dir})
      warpdrill_lesson_target(shipped-${number} ${lesson_dir} ${shipped_dir})
      set_target_properties(shipped-${number} shipped-${number}-launch PROPERTIES EXCLUDE_FROM_ALL TRUE)
      add_test(NAME lesson.${number}.fails-as-shipped
        COMMAND ${CMAKE_COMMAND} -DCHECK=$<TARGET_FILE:lesson-${number}> -DLESSON=${lesson_number}
                -DLESSON_DIR=${lesson_dir} -DSHIPPED_DIR=${shipped_dir} -DSHIPPED_TARGET=shipped-${number}
                -DSHIPPED_CHECK=$<TARGET_FILE:shipped-${number}> -DBUILD_DIR=${CMAKE_BINARY_DIR}
                -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -P ${PROJECT_SOURCE_DIR}/cmake/ExpectCheckFailure.cmake)
      # One build of the course's build directory at a time.
      set_tests_properties(lesson.${number}.fails-as-shipped PROPERTIES LABELS "integrity" TIMEOUT 300
        SKIP_REGULAR_EXPRESSION "${WARPDRILL_SKIPPED_LINE}" RESOURCE_LOCK course-build)
    endif()
  endforeach()
  set(WARPDRILL_LESSONS ${all_lessons} CACHE INTERNAL "the course's lessons, in order")

  # The grading kit: the common libraries (cmake/Libraries.cmake) and every
  # lesson's checks, built once here and linked by each pristine grading
  # build (cmake/Grading.cmake) with one learner's kernel files; and each
  # lesson as shipped, which runs for every learner whose kernel files are
  # still the lesson's own.
  add_custom_target(grading-kit)
  add_dependencies(grading-kit ${kit} ${kit_programs} ${WARPDRILL_LIBRARY_TARGETS})
  export(TARGETS ${kit} FILE ${PROJECT_BINARY_DIR}/warpdrill-grading-kit.cmake)
endfunction()
