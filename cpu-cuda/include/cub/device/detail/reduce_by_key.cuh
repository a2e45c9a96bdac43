// The steps behind cub::DeviceReduce::ReduceByKey on the CPU backend.
// Internal: programs include <cub/device/device_reduce.cuh> or <cub/cub.cuh>.
//
// A run is a stretch of consecutive equal keys. One inclusive scan over
// the items, each taken as {1 if it starts a run else 0, its value}, with
// an operator that adds the first parts and restarts the reduction of the
// values at each run's start, gives each item the number of runs so far and
// the reduction of its run up to it. A run's first item then writes its key,
// its last item the run's aggregate, and the input's last item the number
// of runs. The scan keeps the items' order, so the operator need not be
// commutative.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "cub/device/detail/scan.cuh"
#include "cub/util_type.cuh"

namespace cub {
namespace detail {

// Whether item i starts a run: the first, or one whose key differs from the
// key before it (as CUB compares keys, with ==).
template <class KeysIt>
__device__ bool starts_run(KeysIt keys, std::int64_t i) {
    return i == 0 || !(keys[i] == keys[i - 1]);
}

// What the scan combines: {the runs so far, the reduction of the values of
// the current run so far}.
template <class Accum>
using RunsSoFar = KeyValuePair<std::int64_t, Accum>;

// Adds the runs; the values combine only within a run (where b starts
// none). Associative when `op` is.
template <class Op>
struct WithinRuns {
    Op op;
    template <class Accum>
    RunsSoFar<Accum> operator()(const RunsSoFar<Accum>& a, const RunsSoFar<Accum>& b) const {
        return RunsSoFar<Accum>(a.key + b.key,
                                b.key > 0 ? b.value : static_cast<Accum>(op(a.value, b.value)));
    }
};

// Thread i writes what item i knows: a run's first item its key, a run's
// last item its aggregate, the last item the number of runs; with no items,
// thread 0 writes 0 runs.
template <class KeysIt, class Accum, class UniqueOut, class AggregatesOut, class NumRunsOut>
__global__ void write_runs(KeysIt keys, const RunsSoFar<Accum>* scanned, std::int64_t n, UniqueOut unique_out,
                           AggregatesOut aggregates_out, NumRunsOut num_runs_out) {
    const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (n == 0 && i == 0) *num_runs_out = 0;
    if (i >= n) return;
    const std::int64_t run = scanned[i].key - 1;
    if (starts_run(keys, i)) *(unique_out + run) = keys[i];
    if (i + 1 < n && !starts_run(keys, i + 1)) return;  // not its run's last item
    *(aggregates_out + run) = scanned[i].value;
    if (i == n - 1) *num_runs_out = scanned[i].key;
}

// CUB's protocol: with no temporary storage, only say how much it takes:
// room for the scanned items, then the scan's own.
template <class Accum, class KeysIt, class UniqueOut, class ValuesIt, class AggregatesOut, class NumRunsOut,
          class Op>
cudaError_t reduce_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeysIt d_keys_in,
                          UniqueOut d_unique_out, ValuesIt d_values_in, AggregatesOut d_aggregates_out,
                          NumRunsOut d_num_runs_out, Op op, std::int64_t n, cudaStream_t stream) {
    using Scanned = RunsSoFar<Accum>;
    // Item i read as {1 if it starts a run else 0, its value}.
    const ReadAt items{[=](std::int64_t i) {
        return Scanned(starts_run(d_keys_in, i) ? 1 : 0, static_cast<Accum>(d_values_in[i]));
    }};
    const WithinRuns<Op> within_runs{op};
    const std::size_t scanned_bytes =
        (static_cast<std::size_t>(n) * sizeof(Scanned) + 15) / 16 * 16;  // the scan's storage starts aligned
    std::size_t scan_bytes = 0;
    Scanned* const no_output = nullptr;
    scan<false, Scanned>(nullptr, scan_bytes, items, no_output, n, within_runs, std::nullopt, stream);
    if (d_temp_storage == nullptr) {
        temp_storage_bytes = scanned_bytes + scan_bytes;
        return cudaSuccess;
    }
    if (temp_storage_bytes < scanned_bytes + scan_bytes) return cudaErrorInvalidValue;
    Scanned* const scanned = static_cast<Scanned*>(d_temp_storage);
    void* const scan_storage = static_cast<char*>(d_temp_storage) + scanned_bytes;
    if (const cudaError_t error = scan<false, Scanned>(scan_storage, scan_bytes, items, scanned, n,
                                                       within_runs, std::nullopt, stream);
        error != cudaSuccess) {
        return error;
    }
    const auto blocks =
        static_cast<unsigned>(std::max<std::int64_t>((n + kReduceThreads - 1) / kReduceThreads, 1));
    write_runs<<<blocks, kReduceThreads, 0, stream>>>(d_keys_in, scanned, n, d_unique_out, d_aggregates_out,
                                                      d_num_runs_out);
    return cudaPeekAtLastError();
}

}  // namespace detail
}  // namespace cub
