# Resolves WARPDRILL_BACKEND to cpu or gpu, enables CUDA for gpu, and provides
# warpdrill_kernel_sources(): the same .cu files compile with nvcc (gpu) or as
# C++ with the CPU backend (cpu).

function(_warpdrill_gpu_present out)
  set(${out} OFF PARENT_SCOPE)
  find_program(_nvidia_smi nvidia-smi)
  if(_nvidia_smi)
    execute_process(COMMAND ${_nvidia_smi} -L RESULT_VARIABLE rc OUTPUT_VARIABLE gpus ERROR_QUIET)
    if(rc EQUAL 0 AND gpus MATCHES "GPU")
      set(${out} ON PARENT_SCOPE)
    endif()
  endif()
endfunction()

include(CheckLanguage)
if(WARPDRILL_BACKEND STREQUAL "auto")
  _warpdrill_gpu_present(_gpu)
  set(_resolved cpu)
  if(_gpu)
    check_language(CUDA)
    if(CMAKE_CUDA_COMPILER)
      set(_resolved gpu)
    endif()
  endif()
elseif(WARPDRILL_BACKEND MATCHES "^(cpu|gpu)$")
  set(_resolved ${WARPDRILL_BACKEND})
else()
  message(FATAL_ERROR "WARPDRILL_BACKEND must be auto, gpu or cpu (got '${WARPDRILL_BACKEND}')")
endif()
set(WARPDRILL_ACTIVE_BACKEND ${_resolved} CACHE INTERNAL "the backend in use")
message(STATUS "warpdrill backend: ${WARPDRILL_ACTIVE_BACKEND} (asked for ${WARPDRILL_BACKEND})")

if(WARPDRILL_ACTIVE_BACKEND STREQUAL "gpu")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    _warpdrill_gpu_present(_gpu)
    if(_gpu)
      set(CMAKE_CUDA_ARCHITECTURES native)
    else()
      set(CMAKE_CUDA_ARCHITECTURES 80 90)  # compile-only builds, as in CI
    endif()
  endif()
  enable_language(CUDA)
  # CMake 3.25 does not know that nvcc 12 and later speak C++20: tell it.
  if(NOT "cuda_std_20" IN_LIST CMAKE_CUDA_COMPILE_FEATURES)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
else()
  find_package(Boost 1.71 REQUIRED COMPONENTS context)
endif()

# Messages, diagnostics and std::source_location name files relative to the
# repository, as a learner sees them.
add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-ffile-prefix-map=${PROJECT_SOURCE_DIR}/=>")

# On the CPU backend with GCC, kernel sources call the backend before every
# memory access and on every index past a fixed-size array (common/src/cpu/
# access.h): GCC's sanitizer instrumentation, with the backend as its runtime.
# -fno-tree-sra keeps a float4 or a Pack one 16-byte access, as nvcc makes it,
# where GCC would split it into four 4-byte ones (the profile counts accesses).
set(WARPDRILL_KERNEL_INSTRUMENTATION "")
if(WARPDRILL_ACTIVE_BACKEND STREQUAL "cpu")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(WARPDRILL_KERNEL_INSTRUMENTATION -fsanitize=thread -fsanitize=bounds -fno-tree-sra
      --param=tsan-instrument-func-entry-exit=0 --param=tsan-distinguish-volatile=1)
  else()
    message(STATUS "warpdrill: ${CMAKE_CXX_COMPILER_ID} is not GCC: races and out-of-bounds accesses will not be named")
  endif()
endif()

# Adds kernel sources (.cu) to a target: CUDA for nvcc, or C++ for the CPU backend.
function(warpdrill_kernel_sources target)
  target_sources(${target} PRIVATE ${ARGN})
  if(WARPDRILL_ACTIVE_BACKEND STREQUAL "cpu")
    set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target}
      PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "-xc++;${WARPDRILL_KERNEL_INSTRUMENTATION}")
  endif()
endfunction()
