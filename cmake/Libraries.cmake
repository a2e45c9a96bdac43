# The common libraries every check program links: warpdrill::messages,
# ::backend, ::host, ::workload, ::catch and ::course, and on the CPU backend
# ::profile_record and cudacc, the front end that compiles .cu files.
# A build makes them from messages/, cpu-cuda/ and common/, and names them
# in warpdrill-libraries.cmake for builds that take them instead:
#  - a pristine grading build takes its kit's (cmake/Grading.cmake);
#  - a course build configured with WARPDRILL_LIBRARIES_FROM takes those of
#    that build directory, which must be of these same sources: the runner's
#    tests build scratch copies of the course this way, and would otherwise
#    compile the libraries again in each. It builds the lessons alone.
set(WARPDRILL_LIBRARIES_FROM "" CACHE PATH
    "Take the common libraries from this build directory of the same sources (tests' scratch courses)")

# Their names after warpdrill_ (a library of the CPU backend alone is absent on the GPU's).
set(WARPDRILL_LIBRARY_NAMES messages backend host workload catch course profile_record)

# Makes the libraries here, or takes them (WARPDRILL_LIBRARIES_FROM);
# WARPDRILL_LIBRARY_TARGETS names those made here (none when taken).
macro(warpdrill_add_libraries)
  set(WARPDRILL_LIBRARY_TARGETS "")
  if(WARPDRILL_LIBRARIES_FROM)
    warpdrill_import_libraries(${WARPDRILL_LIBRARIES_FROM})
    # Said again here, for a build that takes this one's.
    file(WRITE ${PROJECT_BINARY_DIR}/warpdrill-libraries.cmake
         "include(\"${WARPDRILL_LIBRARIES_FROM}/warpdrill-libraries.cmake\")\n")
  else()
    add_subdirectory(messages)
    if(WARPDRILL_ACTIVE_BACKEND STREQUAL "cpu")
      add_subdirectory(cpu-cuda)
    endif()
    add_subdirectory(common)
    foreach(library IN LISTS WARPDRILL_LIBRARY_NAMES)
      if(TARGET warpdrill_${library})
        list(APPEND WARPDRILL_LIBRARY_TARGETS warpdrill_${library})
      endif()
    endforeach()
    export(TARGETS ${WARPDRILL_LIBRARY_TARGETS} FILE ${PROJECT_BINARY_DIR}/warpdrill-library-targets.cmake)
    file(WRITE ${PROJECT_BINARY_DIR}/warpdrill-libraries.cmake
         "include(\"${PROJECT_BINARY_DIR}/warpdrill-library-targets.cmake\")\n"
         "set(WARPDRILL_CUDACC \"${PROJECT_BINARY_DIR}/cpu-cuda/cudacc\")\n")
  endif()
endmacro()

# The libraries as the build in `build_dir` made them, under their usual
# names. Its backend must be this build's.
macro(warpdrill_import_libraries build_dir)
  load_cache(${build_dir} READ_WITH_PREFIX libraries_ WARPDRILL_ACTIVE_BACKEND)
  if(NOT libraries_WARPDRILL_ACTIVE_BACKEND STREQUAL WARPDRILL_ACTIVE_BACKEND)
    message(FATAL_ERROR "the libraries in ${build_dir} are for the backend "
      "'${libraries_WARPDRILL_ACTIVE_BACKEND}', this build for '${WARPDRILL_ACTIVE_BACKEND}'")
  endif()
  find_package(Catch2 REQUIRED)
  find_package(nlohmann_json 3.10 REQUIRED)  # warpdrill_catch links it
  include(${build_dir}/warpdrill-libraries.cmake)  # sets WARPDRILL_CUDACC too
  foreach(library IN LISTS WARPDRILL_LIBRARY_NAMES)
    if(TARGET warpdrill_${library})
      add_library(warpdrill::${library} ALIAS warpdrill_${library})
    endif()
  endforeach()
endmacro()
