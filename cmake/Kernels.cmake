# `kernels`: every target of the default build that has CUDA sources (.cu),
# and the lessons' workloads (common/src/workloads/), which only the
# profile and the benchmark build, and nothing else. The gpu-compile preset builds it: nvcc checks every
# lesson's, solution's, benchmark's and test's kernels for sm_80 and sm_90,
# and the host programs (the warpdrill command, the checks), which the CPU
# build compiles with the same compiler, are not compiled twice.

function(_warpdrill_targets_under dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    _warpdrill_targets_under(${subdir} more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(warpdrill_add_kernels_target)
  _warpdrill_targets_under(${PROJECT_SOURCE_DIR} targets)
  add_custom_target(kernels)
  foreach(target IN LISTS targets)
    get_target_property(excluded ${target} EXCLUDE_FROM_ALL)
    get_target_property(sources ${target} SOURCES)
    # The workloads are built only when asked for, but nvcc checks them too.
    if(target MATCHES "^warpdrill-workload-")
      set(excluded FALSE)
    endif()
    if(excluded OR NOT sources)
      continue()
    endif()
    list(FILTER sources INCLUDE REGEX "\\.cu$")
    if(sources)
      add_dependencies(kernels ${target})
    endif()
  endforeach()
endfunction()
