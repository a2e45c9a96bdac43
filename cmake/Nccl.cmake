# Finds NCCL for the GPU backend, for lesson 13's NCCL program and benchmark:
# nccl.h and libnccl from NCCL_ROOT (a variable or the environment), from a
# system package (Debian: libnccl-dev), or from the nvidia-nccl Python wheel
# (pip install nvidia-nccl-cu12 or -cu13), whose include/ and lib/ lie in
# site-packages/nvidia/nccl. Nothing is downloaded. Sets WARPDRILL_NCCL_FOUND,
# the imported target warpdrill::nccl, and WARPDRILL_NCCL_WHY: where NCCL was
# found, or why it was not.

# site-packages/nvidia/nccl of the python3 on PATH, or "".
function(_warpdrill_nccl_wheel out)
  set(${out} "" PARENT_SCOPE)
  find_program(_python3 python3)
  if(_python3)
    execute_process(
      COMMAND ${_python3} -c "import nvidia.nccl; print(list(nvidia.nccl.__path__)[0])"
      RESULT_VARIABLE rc OUTPUT_VARIABLE dir ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND IS_DIRECTORY "${dir}")
      set(${out} "${dir}" PARENT_SCOPE)
    endif()
  endif()
endfunction()

set(WARPDRILL_NCCL_FOUND FALSE)
if(NOT WARPDRILL_ACTIVE_BACKEND STREQUAL "gpu")
  set(WARPDRILL_NCCL_WHY "the CPU backend runs no NCCL (NCCL is never imitated)")
  return()
endif()

if(NOT DEFINED NCCL_ROOT AND DEFINED ENV{NCCL_ROOT})
  set(NCCL_ROOT $ENV{NCCL_ROOT})
endif()
_warpdrill_nccl_wheel(_nccl_wheel)
set(_nccl_hints ${NCCL_ROOT} ${_nccl_wheel} ${CUDAToolkit_LIBRARY_ROOT})
find_path(WARPDRILL_NCCL_INCLUDE_DIR nccl.h HINTS ${_nccl_hints} PATH_SUFFIXES include)
# The wheel has only libnccl.so.2, no libnccl.so.
find_library(WARPDRILL_NCCL_LIBRARY NAMES nccl libnccl.so.2 NAMES_PER_DIR HINTS ${_nccl_hints} PATH_SUFFIXES lib lib64)

if(WARPDRILL_NCCL_INCLUDE_DIR AND WARPDRILL_NCCL_LIBRARY)
  set(WARPDRILL_NCCL_FOUND TRUE)
  set(WARPDRILL_NCCL_WHY "NCCL: ${WARPDRILL_NCCL_LIBRARY}")
  add_library(warpdrill_nccl UNKNOWN IMPORTED)
  set_target_properties(warpdrill_nccl PROPERTIES IMPORTED_LOCATION ${WARPDRILL_NCCL_LIBRARY}
                        INTERFACE_INCLUDE_DIRECTORIES ${WARPDRILL_NCCL_INCLUDE_DIR})
  add_library(warpdrill::nccl ALIAS warpdrill_nccl)
else()
  set(WARPDRILL_NCCL_WHY "no NCCL found: set NCCL_ROOT, install libnccl-dev, or pip install the nvidia-nccl wheel for your CUDA")
endif()
