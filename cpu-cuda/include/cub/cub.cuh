// <cub/cub.cuh> on the CPU backend: the subset of CUB that warpdrill's CPU
// backend provides, written for the backend from CUB's documented API (not
// CUB's code): cub::WarpReduce, cub::WarpScan, cub::BlockReduce,
// cub::BlockScan, cub::BlockLoad and cub::BlockStore (with the free functions
// LoadDirect* and StoreDirect*), cub::ThreadReduce, cub::DeviceReduce's Sum,
// Min, Max, Reduce, TransformReduce, ArgMin, ArgMax and ReduceByKey,
// cub::DeviceSegmentedReduce's six reductions, cub::DeviceScan's
// InclusiveSum, ExclusiveSum, InclusiveScan, InclusiveScanInit and
// ExclusiveScan, cub::KeyValuePair with cub::ArgMin and cub::ArgMax,
// cub::ArgIndexInputIterator, cub::CachingDeviceAllocator and CubDebug /
// CubDebugExit, with the operators CUB's headers bring in CUDA 13
// (cuda::std::plus and its kin, cuda::minimum, cuda::maximum) and
// cuda::std::numeric_limits. The rest of CUB is not here: a program that
// uses it does not compile, and the compiler names what is missing.
#pragma once

#include "cub/block/block_load.cuh"
#include "cub/block/block_reduce.cuh"
#include "cub/block/block_scan.cuh"
#include "cub/block/block_store.cuh"
#include "cub/device/device_reduce.cuh"
#include "cub/device/device_scan.cuh"
#include "cub/device/device_segmented_reduce.cuh"
#include "cub/iterator/arg_index_input_iterator.cuh"
#include "cub/thread/thread_operators.cuh"
#include "cub/thread/thread_reduce.cuh"
#include "cub/util_allocator.cuh"
#include "cub/util_debug.cuh"
#include "cub/util_type.cuh"
#include "cub/warp/warp_reduce.cuh"
#include "cub/warp/warp_scan.cuh"
