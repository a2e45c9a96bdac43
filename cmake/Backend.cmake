# Resolves WARPDRILL_BACKEND to cpu or gpu, enables CUDA for gpu, and provides
# warpdrill_kernel_sources(): the same .cu files compile with nvcc (gpu) or as
# C++ with the CPU backend (cpu). WARPDRILL_BACKEND_CASE says why, as the
# case of the catalog's setup.backend_reason messages (messages/setup.toml),
# with WARPDRILL_GPU_NAME and WARPDRILL_NVCC_VERSION to fill it in:
# ./warpdrill says it in the learner's language on the first run, `warpdrill
# list` always.

# The name of this machine's first NVIDIA GPU ("NVIDIA H100 80GB HBM3"), or "" when none is visible.
function(_warpdrill_gpu_name out)
  set(${out} "" PARENT_SCOPE)
  find_program(_nvidia_smi nvidia-smi)
  if(_nvidia_smi)
    execute_process(COMMAND ${_nvidia_smi} -L RESULT_VARIABLE rc OUTPUT_VARIABLE gpus ERROR_QUIET)
    if(rc EQUAL 0 AND gpus MATCHES "GPU 0: ([^\n(]*[^\n( ])")
      set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
    endif()
  endif()
endfunction()

# The nvcc CMake would use (CMAKE_CUDA_COMPILER, CUDACXX, PATH,
# /usr/local/cuda/bin): its version in `out` ("nvcc 13.0") and its path in
# `path_out`, or "" for both when there is none that runs.
function(_warpdrill_nvcc out path_out)
  set(${out} "" PARENT_SCOPE)
  set(${path_out} "" PARENT_SCOPE)
  if(CMAKE_CUDA_COMPILER)
    set(nvcc ${CMAKE_CUDA_COMPILER})
  elseif(DEFINED ENV{CUDACXX})
    set(nvcc $ENV{CUDACXX})
  else()
    find_program(WARPDRILL_NVCC nvcc PATHS /usr/local/cuda/bin)
    set(nvcc ${WARPDRILL_NVCC})
  endif()
  if(nvcc)
    execute_process(COMMAND ${nvcc} --version RESULT_VARIABLE rc OUTPUT_VARIABLE version ERROR_QUIET)
    if(rc EQUAL 0 AND version MATCHES "release ([0-9]+\\.[0-9]+)")
      set(${out} "nvcc ${CMAKE_MATCH_1}" PARENT_SCOPE)
      set(${path_out} "${nvcc}" PARENT_SCOPE)
    endif()
  endif()
endfunction()

# The English of the catalog's setup.backend_reason message for this case,
# filled in, for CMake's own log (messages/setup.toml keeps each message in a
# form this regular expression reads: see its header).
function(_warpdrill_english_reason out)
  file(READ ${PROJECT_SOURCE_DIR}/messages/setup.toml catalog)
  string(REGEX MATCH "\n\\[setup\\.backend_reason\\.${WARPDRILL_BACKEND_CASE}\\]\n(#[^\n]*\n)*en = \"([^\"]*)\""
    found "${catalog}")
  string(REPLACE "{gpu}" "${WARPDRILL_GPU_NAME}" reason "${CMAKE_MATCH_2}")
  string(REPLACE "{nvcc}" "${WARPDRILL_NVCC_VERSION}" reason "${reason}")
  set(${out} "${reason}" PARENT_SCOPE)
endfunction()

include(CheckLanguage)
_warpdrill_gpu_name(_gpu)
_warpdrill_nvcc(_nvcc _nvcc_path)
if(WARPDRILL_BACKEND STREQUAL "auto")
  set(_resolved cpu)
  if(_gpu)
    check_language(CUDA)
    if(CMAKE_CUDA_COMPILER)
      set(_resolved gpu)
    endif()
  endif()
  if(_resolved STREQUAL "gpu")
    set(_case auto_gpu)
  elseif(_gpu)
    set(_case auto_gpu_without_nvcc)
  elseif(_nvcc)
    set(_case auto_nvcc_without_gpu)
  else()
    set(_case auto_no_nvcc)
  endif()
elseif(WARPDRILL_BACKEND STREQUAL "cpu")
  set(_resolved cpu)
  set(_case chosen_cpu)
elseif(WARPDRILL_BACKEND STREQUAL "gpu")
  set(_resolved gpu)
  if(NOT _nvcc)
    message(FATAL_ERROR "the GPU backend needs nvcc, the CUDA toolkit's compiler: none found on PATH, in /usr/local/cuda/bin or as CUDACXX")
  elseif(_gpu)
    set(_case chosen_gpu)
  else()
    set(_case chosen_gpu_without_gpu)
  endif()
else()
  message(FATAL_ERROR "WARPDRILL_BACKEND must be auto, gpu or cpu (got '${WARPDRILL_BACKEND}')")
endif()
set(WARPDRILL_ACTIVE_BACKEND ${_resolved} CACHE INTERNAL "the backend in use")
set(WARPDRILL_BACKEND_CASE ${_case} CACHE INTERNAL "why that backend: a setup.backend_reason message's case")
set(WARPDRILL_GPU_NAME "${_gpu}" CACHE INTERNAL "the GPU's name, or empty")
set(WARPDRILL_NVCC_VERSION "${_nvcc}" CACHE INTERNAL "nvcc's version (\"nvcc 13.0\"), or empty")
# nvcc where there is one, on either backend: on the CPU backend `warpdrill
# check` compiles the learner's kernels with it too.
set(WARPDRILL_NVCC_PATH "${_nvcc_path}" CACHE INTERNAL "nvcc, or empty")
_warpdrill_english_reason(_reason)
message(STATUS "warpdrill backend: ${_reason}")

if(WARPDRILL_ACTIVE_BACKEND STREQUAL "gpu")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
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
  # Line information in the kernels (no change to the code): compute-sanitizer
  # and Nsight Compute name the learner's source line.
  add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>")
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
else()
  find_package(Boost 1.71 REQUIRED COMPONENTS context)
  # A learner's check is linked again after every save: lld links lesson 1's
  # in 0.13 s where ld takes 0.41 (results/README.md, "The learner's loop").
  # Without lld (packages/debian.txt) the build links with ld, as before.
  find_program(WARPDRILL_LLD ld.lld)
  if(WARPDRILL_LLD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_link_options("$<$<LINK_LANGUAGE:CXX>:-fuse-ld=lld>")
  endif()
endif()

# Messages, diagnostics and std::source_location name files relative to the
# repository, as a learner sees them.
add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-ffile-prefix-map=${PROJECT_SOURCE_DIR}/=>")

# On the CPU backend with GCC, kernel sources call the backend before every
# memory access and on every index past a fixed-size array (cpu-cuda/src/
# access.h): GCC's sanitizer instrumentation, with the backend as its runtime.
# -fno-tree-sra keeps a float4 or a Pack one 16-byte access, as nvcc makes it,
# where GCC would split it into four 4-byte ones (the profile counts accesses).
# OFF only to measure what the checks cost (scripts/checking-cost.py): without
# them a race or an out-of-bounds access goes unnamed and `warpdrill profile`
# counts nothing.
option(WARPDRILL_CHECK_ACCESSES "CPU backend: see every memory access of a kernel" ON)
set(WARPDRILL_KERNEL_INSTRUMENTATION "")
if(WARPDRILL_ACTIVE_BACKEND STREQUAL "cpu" AND WARPDRILL_CHECK_ACCESSES)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # Line tables and inlined frames only (-g1, after -gdwarf-4, which would set full debug
    # information again), as nvcc's -lineinfo gives the GPU build: what the diagnostics name,
    # without the locals' debug information, which made each save's build 0.1-0.3 s slower
    # (results/README.md, "Line tables only in the kernels"). DWARF 4: binutils 2.40's addr2line misnames
    # headers reached through "../" in DWARF 5 line tables.
    set(WARPDRILL_KERNEL_INSTRUMENTATION -gdwarf-4 -g1 -fsanitize=thread -fsanitize=bounds -fno-tree-sra
      --param=tsan-instrument-func-entry-exit=0 --param=tsan-distinguish-volatile=1)
    # GCC warns that ThreadSanitizer's runtime ignores fences (-Wtsan, GCC 12 and later); the
    # backend is the runtime here, and __tsan_atomic_thread_fence is how it sees __threadfence().
    include(CheckCXXCompilerFlag)
    check_cxx_compiler_flag(-Wtsan WARPDRILL_HAS_WTSAN)
    if(WARPDRILL_HAS_WTSAN)
      list(APPEND WARPDRILL_KERNEL_INSTRUMENTATION -Wno-tsan)
    endif()
  else()
    message(STATUS "warpdrill: ${CMAKE_CXX_COMPILER_ID} is not GCC: races and out-of-bounds accesses will not be named")
  endif()
endif()

# What a kernel source (.cu) is compiled with on the CPU backend: the checks
# above, variable-length arrays as errors (nvcc rejects them in device code;
# GCC would take `float sums[warpSize]` as one), and no C++20 deprecation
# warning for `v[tid] += ...` on a volatile array, which nvcc (C++17) gives
# no word on and the classic warp-synchronous reductions are written with.
set(WARPDRILL_KERNEL_FLAGS ${WARPDRILL_KERNEL_INSTRUMENTATION} -Werror=vla -Wno-volatile)
# cudacc, the CPU backend's front end (cpu-cuda/front): nvcc's syntax
# (<<<>>>, extern __shared__, __device__ variables) becomes C++. Built by
# cpu-cuda/; a grading build takes its kit's (cmake/Grading.cmake).
set(WARPDRILL_CUDACC ${PROJECT_BINARY_DIR}/cpu-cuda/cudacc)

# Adds kernel sources (.cu) to a target: CUDA for nvcc, or C++ through
# cudacc for the CPU backend.
function(warpdrill_kernel_sources target)
  target_sources(${target} PRIVATE ${ARGN})
  if(WARPDRILL_ACTIVE_BACKEND STREQUAL "cpu")
    set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target}
      PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "-xc++;${WARPDRILL_KERNEL_FLAGS}")
    set_property(TARGET ${target} PROPERTY CXX_COMPILER_LAUNCHER ${WARPDRILL_CUDACC} --launcher)
    if(TARGET cudacc)
      add_dependencies(${target} cudacc)
    endif()
  endif()
endfunction()

# A target whose kernel file a learner saves again and again: cudacc keeps
# cuda_runtime.h precompiled for it (cpu-cuda/front/cudacc.cpp, --pch), one
# for the whole build, which the lessons' and solutions' checks share. Making
# it takes some seconds, once, which a build that compiles each lesson once
# (grading, the runner's tests' scratch courses) would not win back: the
# presets turn it on, for the course and the test build.
option(WARPDRILL_PRECOMPILED_RUNTIME "CPU backend: keep cuda_runtime.h precompiled for the lessons' checks" OFF)
function(warpdrill_precompiled_runtime target)
  if(WARPDRILL_PRECOMPILED_RUNTIME AND WARPDRILL_ACTIVE_BACKEND STREQUAL "cpu" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set_property(TARGET ${target} PROPERTY CXX_COMPILER_LAUNCHER
      ${WARPDRILL_CUDACC} --launcher --pch ${PROJECT_BINARY_DIR}/cudacc-pch)
  endif()
endfunction()
