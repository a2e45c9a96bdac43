// <cub/cub.cuh> on the CPU backend: the subset of CUB that warpdrill's CPU
// backend provides, written for the backend from CUB's documented API (not
// CUB's code): cub::WarpReduce, cub::BlockReduce and cub::DeviceReduce's Sum,
// Min, Max and Reduce, with the operators CUB's headers bring in CUDA 13
// (cuda::std::plus and its kin, cuda::minimum, cuda::maximum) and
// cuda::std::numeric_limits. The rest of CUB is not here: a program that
// uses it does not compile, and the compiler names what is missing.
#pragma once

#include "cub/block/block_reduce.cuh"
#include "cub/device/device_reduce.cuh"
#include "cub/warp/warp_reduce.cuh"
