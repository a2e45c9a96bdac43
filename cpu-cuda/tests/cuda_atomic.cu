// libcu++'s atomics and integer helpers (<cuda/atomic>, <cuda/std/atomic>,
// <cuda/cmath>): a one-launch sum whose last block is found by a ticket of
// cuda::atomic_ref, ordered three ways the memory model allows; each
// operation's values against the host's; and ceil_div, round_up and
// round_down. The file uses only libcu++'s and CUDA's public API: it
// compiles with nvcc against libcu++ too, where it holds the GPU to the same
// results. On the CPU backend, the two tickets that do not order the blocks'
// partial sums are named as races.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <vector>

#include <cuda/atomic>
#include <cuda/cmath>
#include <cuda/std/atomic>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/testing.h"
#if WARPDRILL_BACKEND_CPU
#include "fault_of.h"
#endif

using warpdrill::check_cuda;
using warpdrill::DeviceBuffer;

namespace {

constexpr int kThreads = 256;

// How the sum's blocks take their ticket once their partial sum is written.
enum class Ticket {
    acq_rel,              // cuda::atomic_ref, device scope, memory_order_acq_rel
    fence_then_relaxed,   // cuda::atomic_thread_fence(release, device), then a relaxed fetch_add
    standard_seq_cst,     // cuda::std::atomic_ref (system scope), the default order
    relaxed,              // a relaxed fetch_add alone: nothing releases the partial sum
    block_scope_acq_rel,  // acq_rel, but at block scope: it orders nothing between blocks
};

__device__ unsigned take_ticket(unsigned& tickets, Ticket ticket) {
    switch (ticket) {
        case Ticket::acq_rel:
            return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(tickets).fetch_add(
                1, cuda::memory_order_acq_rel);
        case Ticket::fence_then_relaxed:
            cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
            return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(tickets).fetch_add(
                1, cuda::memory_order_relaxed);
        case Ticket::standard_seq_cst: return cuda::std::atomic_ref<unsigned>(tickets)++;
        case Ticket::relaxed:
            return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(tickets).fetch_add(
                1, cuda::memory_order_relaxed);
        case Ticket::block_scope_acq_rel:
            return cuda::atomic_ref<unsigned, cuda::thread_scope_block>(tickets).fetch_add(
                1, cuda::memory_order_acq_rel);
    }
    return 0;
}

// Each block sums its items in shared memory and writes its partial sum;
// the block that takes the last ticket adds the partial sums and sets the
// ticket back to 0 for the next launch.
__global__ void sum_with_ticket(const int* in, int n, int* partial, unsigned* tickets, Ticket ticket,
                                int* total) {
    __shared__ int sums[kThreads];
    __shared__ bool last;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    sums[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sums[0];
        last = take_ticket(*tickets, ticket) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int sum = 0;
        for (unsigned block = 0; block < gridDim.x; ++block) sum += partial[block];
        *total = sum;
        cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*tickets).store(0, cuda::memory_order_relaxed);
    }
}

// Runs sum_with_ticket twice (the second launch finds the ticket set back) and returns its total.
int sum_by_ticket(const std::vector<int>& items, Ticket ticket) {
    const int n = static_cast<int>(items.size());
    const int blocks = cuda::ceil_div(n, kThreads);
    DeviceBuffer<int> in(items);
    DeviceBuffer<int> partial(blocks);
    DeviceBuffer<unsigned> tickets(1);
    DeviceBuffer<int> total(1);
    check_cuda(cudaMemset(tickets.data(), 0, sizeof(unsigned)));
    for (int launch = 0; launch < 2; ++launch) {
        total.poison();
        sum_with_ticket<<<blocks, kThreads>>>(in.data(), n, partial.data(), tickets.data(), ticket,
                                              total.data());
        check_cuda(cudaDeviceSynchronize());
    }
    return total.download()[0];
}

// Each operation's results, one slot each, written by the threads of a grid.
struct Results {
    int sum;              // fetch_add of 1 by every thread
    int countdown;        // fetch_sub of 1 from the thread count
    unsigned bits_set;    // fetch_or of each thread's bit (of 32)
    unsigned bits_left;   // fetch_and clearing each thread's bit, from all set
    unsigned parity;      // fetch_xor of each thread's bit: set where an odd number of threads flipped it
    int smallest;         // fetch_min of each item (cuda::atomic_ref)
    int largest;          // fetch_max of each item, through a block's shared maximum
    float float_sum;      // fetch_add of 0.5f
    float float_largest;  // fetch_max of each item as a float
    unsigned long long wide_sum;  // += of 2^33 by every thread
    int slots_taken;              // a pointer's fetch_add: where each thread's slot lies
    int exchanges;          // exchange of a thread's id into one word: how many came back as earlier ids
    double double_largest;  // compare_exchange_weak loop of each item as a double
};

__device__ cuda::atomic<int, cuda::thread_scope_device> device_smallest;

__global__ void reset_device_smallest() { device_smallest.store(INT_MAX, cuda::memory_order_relaxed); }

// Every thread applies each operation once, with its item `items[i]`.
__global__ void apply_operations(const int* items, Results* results, int** cursor, int* slots, int* slot_of) {
    __shared__ int block_largest;
    using device_ref = cuda::atomic_ref<int, cuda::thread_scope_device>;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const int item = items[i];
    const unsigned bit = 1u << (i % 32);
    if (threadIdx.x == 0) block_largest = INT_MIN;
    __syncthreads();

    device_ref(results->sum).fetch_add(1);
    device_ref(results->countdown).fetch_sub(1, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(results->bits_set) |= bit;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(results->bits_left).fetch_and(~bit);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(results->parity) ^= bit;
    device_ref(results->smallest).fetch_min(item);
    device_smallest.fetch_min(item, cuda::memory_order_relaxed);
    cuda::atomic_ref<int, cuda::thread_scope_block>(block_largest).fetch_max(item);
    cuda::atomic_ref<float, cuda::thread_scope_device>(results->float_sum) += 0.5f;
    cuda::atomic_ref<float, cuda::thread_scope_device>(results->float_largest)
        .fetch_max(static_cast<float>(item));
    cuda::std::atomic_ref<unsigned long long>(results->wide_sum) += 1ull << 33;

    int* const slot = cuda::atomic_ref<int*, cuda::thread_scope_device>(*cursor).fetch_add(1);
    slot_of[i] = static_cast<int>(slot - slots);
    *slot = static_cast<int>(i);

    cuda::std::atomic_ref<int> last_id(results->exchanges);
    (void)last_id.exchange(static_cast<int>(i));

    cuda::atomic_ref<double, cuda::thread_scope_device> largest(results->double_largest);
    double seen = largest.load(cuda::memory_order_relaxed);
    while (seen < item && !largest.compare_exchange_weak(seen, static_cast<double>(item))) {
    }
    __syncthreads();
    if (threadIdx.x == 0) device_ref(results->largest).fetch_max(block_largest, cuda::memory_order_relaxed);
}

}  // namespace

TEST_CASE("a ticket of cuda::atomic_ref finds a one-launch sum's last block", "[cuda_atomic]") {
    const std::uint64_t seed = warpdrill::fresh_seed();
    INFO(warpdrill::describe_seed(seed));
    for (const Ticket ticket : {Ticket::acq_rel, Ticket::fence_then_relaxed, Ticket::standard_seq_cst}) {
        for (const int n : {1, 255, 1000, 65537}) {
            const std::vector<int> items = warpdrill::random_ints(n, seed, -100, 100);
            INFO("ticket " << static_cast<int>(ticket) << ", n = " << n);
            CHECK(sum_by_ticket(items, ticket) == std::accumulate(items.begin(), items.end(), 0));
        }
    }
}

TEST_CASE("cuda::atomic and cuda::atomic_ref give each operation's value", "[cuda_atomic]") {
    const int blocks = 8, threads = blocks * kThreads;
    const std::uint64_t seed = warpdrill::fresh_seed();
    INFO(warpdrill::describe_seed(seed));
    const std::vector<int> items = warpdrill::random_ints(threads, seed, -1000, 1000);
    const Results start{0, threads, 0u, ~0u, 0u, INT_MAX, INT_MIN, 0.0f, -1e30f, 0ull, 0, -1, -1e300};
    DeviceBuffer<int> device_items(items);
    DeviceBuffer<Results> results(1);
    check_cuda(cudaMemcpy(results.data(), &start, sizeof start, cudaMemcpyHostToDevice));
    // A slot per thread, handed out by a pointer's fetch_add.
    DeviceBuffer<int> slots(threads);
    DeviceBuffer<int*> cursor(1);
    int* const first_slot = slots.data();
    check_cuda(cudaMemcpy(cursor.data(), &first_slot, sizeof first_slot, cudaMemcpyHostToDevice));
    DeviceBuffer<int> slot_of(threads);
    reset_device_smallest<<<1, 1>>>();
    apply_operations<<<blocks, kThreads>>>(device_items.data(), results.data(), cursor.data(), slots.data(),
                                           slot_of.data());
    check_cuda(cudaDeviceSynchronize());
    Results got{};
    check_cuda(cudaMemcpy(&got, results.data(), sizeof got, cudaMemcpyDeviceToHost));
    int device_smallest_value = 0;
    check_cuda(cudaMemcpyFromSymbol(&device_smallest_value, device_smallest, sizeof(int)));

    const int smallest = *std::min_element(items.begin(), items.end());
    const int largest = *std::max_element(items.begin(), items.end());
    CHECK(got.sum == threads);
    CHECK(got.countdown == 0);
    CHECK(got.bits_set == ~0u);
    CHECK(got.bits_left == 0u);
    CHECK(got.parity == 0u);  // every bit flipped threads / 32 times, an even number
    CHECK(got.smallest == smallest);
    CHECK(device_smallest_value == smallest);
    CHECK(got.largest == largest);
    CHECK(got.float_sum == 0.5f * threads);  // exact: halves add exactly up to 2^24
    CHECK(got.float_largest == static_cast<float>(largest));
    CHECK(got.wide_sum == (1ull << 33) * threads);
    CHECK(got.double_largest == static_cast<double>(largest));
    CHECK((got.exchanges >= 0 && got.exchanges < threads));
    // Every slot handed out once, to the thread whose id it holds.
    const std::vector<int> slot_index = slot_of.download(), in_slots = slots.download();
    std::vector<int> sorted = slot_index;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> each(threads);
    std::iota(each.begin(), each.end(), 0);
    CHECK(sorted == each);
    for (int thread = 0; thread < threads; ++thread) CHECK(in_slots[slot_index[thread]] == thread);
}

TEST_CASE("cuda::ceil_div, round_up and round_down", "[cuda_atomic]") {
    static_assert(cuda::ceil_div(0, 256) == 0 && cuda::ceil_div(1, 256) == 1 &&
                  cuda::ceil_div(256, 256) == 1 && cuda::ceil_div(257, 256) == 2);
    static_assert(cuda::ceil_div(UINT_MAX, 2u) == 1u << 31);  // no overflow of a + b - 1
    static_assert(cuda::round_up(1000, 256) == 1024 && cuda::round_up(1024, 256) == 1024);
    static_assert(cuda::round_down(1000, 256) == 768 && cuda::round_down(255, 256) == 0);
    std::size_t n = (std::size_t{1} << 33) + 1;  // mixed types: the common type holds the result
    CHECK(cuda::ceil_div(n, 1024) == (std::size_t{1} << 23) + 1);
    CHECK(cuda::round_up(n, 1024u) == (std::size_t{1} << 33) + 1024);
}

#if WARPDRILL_BACKEND_CPU
TEST_CASE("a ticket that releases nothing between blocks is named as a race", "[cuda_atomic]") {
    using warpdrill::testing::expect_says;
    using warpdrill::testing::fault_of;
    const std::vector<int> items(4 * kThreads, 1);
    for (const Ticket ticket : {Ticket::relaxed, Ticket::block_scope_acq_rel}) {
        INFO("ticket " << static_cast<int>(ticket));
        expect_says(
            fault_of([&] { sum_by_ticket(items, ticket); }),
            {"race on partial[", "made no __threadfence() after writing it", "nor a device-scope release"});
    }
}
#endif
