// Thrust's reductions and the algorithms around them, as the CPU backend's
// subset has them (cpu-cuda/include/thrust/device_vector.h lists it), each
// against a reference computed on the host: on a device_vector's iterators
// and on raw device pointers with thrust::device (the device), on a
// host_vector's iterators and with thrust::host (the host), with and without
// a policy. Items are small whole numbers, so that every sum is exact in any
// order and extremes repeat; one test holds random floats to a tolerance
// instead. The file uses only Thrust's and CUDA's public API: it compiles
// with nvcc against Thrust itself too, where it holds Thrust to the same
// results.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <new>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/inner_product.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/system_error.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include "affine_maps.cuh"
#include "scan_reference.h"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"
#include "warpdrill/testing.h"
#if defined(WARPDRILL_BACKEND_CPU)
#include "fault_of.h"
#endif

using warpdrill::check_cuda;
using warpdrill::describe_seed;
using warpdrill::fresh_seed;

namespace {

constexpr int kSizes[] = {0, 1, 1000, (1 << 20) + 3};

// Items from -50 to 50: in any range of a few hundred, the extremes repeat.
std::vector<int> items_with_ties(std::size_t n, std::uint64_t seed) {
    return warpdrill::random_ints(n, seed, -50, 50);
}

// A user's functors, as Thrust's documentation writes them.
struct Square {
    __host__ __device__ long long operator()(int x) const { return static_cast<long long>(x) * x; }
};
struct IsNegative {
    __host__ __device__ bool operator()(int x) const { return x < 0; }
};
struct MagnitudeLess {
    __host__ __device__ bool operator()(int a, int b) const { return (a < 0 ? -a : a) < (b < 0 ? -b : b); }
};

long long host_sum(const std::vector<int>& items) { return std::accumulate(items.begin(), items.end(), 0LL); }

// The first place of the item that no other comes before in `before`'s order.
template <class Before>
std::ptrdiff_t first_smallest(const std::vector<int>& items, Before before) {
    return std::min_element(items.begin(), items.end(), before) - items.begin();
}

}  // namespace

TEST_CASE("thrust::reduce sums ints in every form, on the device and on the host", "[thrust]") {
    for (const int n : kSizes) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<int> items = items_with_ties(n, seed);
        const int sum = static_cast<int>(host_sum(items));
        const int largest = n == 0 ? INT_MIN : *std::max_element(items.begin(), items.end());
        const thrust::host_vector<int> host(items.begin(), items.end());
        const thrust::device_vector<int> device = host;
        const int* raw = thrust::raw_pointer_cast(device.data());

        CHECK(thrust::reduce(device.begin(), device.end()) == sum);
        CHECK(thrust::reduce(device.begin(), device.end(), 7) == sum + 7);
        CHECK(thrust::reduce(device.begin(), device.end(), INT_MIN, thrust::maximum<int>()) == largest);
        CHECK(thrust::reduce(thrust::device, raw, raw + n) == sum);
        CHECK(thrust::reduce(thrust::device, raw, raw + n, 7, thrust::plus<int>()) == sum + 7);
        CHECK(thrust::reduce(thrust::cuda::par, device.begin(), device.end(), 0) == sum);
        CHECK(thrust::reduce(host.begin(), host.end()) == sum);
        CHECK(thrust::reduce(host.begin(), host.end(), 7) == sum + 7);
        CHECK(thrust::reduce(thrust::host, host.data(), host.data() + n, INT_MIN, thrust::maximum<int>()) ==
              largest);
        CHECK(thrust::reduce(items.data(), items.data() + n) == sum);  // raw host pointers: the host

        cudaStream_t stream = nullptr;
        check_cuda(cudaStreamCreate(&stream));
        CHECK(thrust::reduce(thrust::cuda::par.on(stream), device.begin(), device.end(), 7) == sum + 7);
        check_cuda(cudaStreamDestroy(stream));
    }
}

TEST_CASE("thrust::reduce of floats: whole numbers exactly, random ones within a tolerance", "[thrust]") {
    const int n = (1 << 20) + 3;
    const std::uint64_t seed = fresh_seed();
    INFO(describe_seed(seed));
    const std::vector<float> whole = warpdrill::random_small_integers(n, seed);
    const thrust::device_vector<float> device_whole(whole);
    CHECK(thrust::reduce(device_whole.begin(), device_whole.end()) == warpdrill::reference_sum(whole));
    CHECK(thrust::reduce(device_whole.begin(), device_whole.end(), 0.5f) ==
          warpdrill::reference_sum(whole) + 0.5);

    const std::vector<float> random = warpdrill::random_floats(n, seed);
    const thrust::device_vector<float> device_random(random);
    const float got = thrust::reduce(device_random.begin(), device_random.end(), 0.0f);
    // Any order of adding: a thread may add a few thousand items in a row.
    const double tolerance = warpdrill::sum_tolerance(n, warpdrill::reference_sum_abs(random), 4096);
    CHECK(std::abs(got - warpdrill::reference_sum(random)) <= tolerance);
}

TEST_CASE("thrust::transform_reduce and thrust::inner_product, with a user's functor and Thrust's",
          "[thrust]") {
    for (const int n : kSizes) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<int> a = items_with_ties(n, seed), b = items_with_ties(n, seed + 1);
        long long squares = 7, dot = 7;
        int largest_product = INT_MIN;
        for (int i = 0; i < n; ++i) {
            squares += Square{}(a[i]);
            dot += static_cast<long long>(a[i]) * b[i];
            largest_product = std::max(largest_product, a[i] * b[i]);
        }
        const thrust::device_vector<int> da(a), db(b);
        const thrust::host_vector<int> ha(a), hb(b);

        CHECK(thrust::transform_reduce(da.begin(), da.end(), Square(), 7LL, thrust::plus<long long>()) ==
              squares);
        CHECK(thrust::transform_reduce(thrust::device, thrust::raw_pointer_cast(da.data()),
                                       thrust::raw_pointer_cast(da.data()) + n, Square(), 7LL,
                                       thrust::plus<long long>()) == squares);
        CHECK(thrust::transform_reduce(ha.begin(), ha.end(), Square(), 7LL, thrust::plus<long long>()) ==
              squares);
        CHECK(thrust::inner_product(da.begin(), da.end(), db.begin(), 7LL) == dot);
        CHECK(thrust::inner_product(thrust::cuda::par, da.begin(), da.end(), db.begin(), 7LL) == dot);
        CHECK(thrust::inner_product(ha.begin(), ha.end(), hb.begin(), 7LL) == dot);
        CHECK(thrust::inner_product(da.begin(), da.end(), db.begin(), INT_MIN, thrust::maximum<int>(),
                                    thrust::multiplies<int>()) == largest_product);
        CHECK(thrust::inner_product(thrust::host, ha.begin(), ha.end(), hb.begin(), INT_MIN,
                                    thrust::maximum<int>(), thrust::multiplies<int>()) == largest_product);
    }
}

TEST_CASE("thrust::transform, fill, sequence and copy, between the host and the device", "[thrust]") {
    for (const int n : kSizes) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<int> a = items_with_ties(n, seed), b = items_with_ties(n, seed + 1);
        std::vector<int> negated(n), differences(n), doubled(n), filled(n, 9), from_zero(n), counted(n),
            stepped(n);
        for (int i = 0; i < n; ++i) {
            from_zero[i] = i;
            negated[i] = -a[i];
            differences[i] = a[i] - b[i];
            doubled[i] = 2 * a[i];
            counted[i] = 5 + i;
            stepped[i] = 5 + 3 * i;
        }
        const thrust::device_vector<int> da(a), db(b);
        thrust::device_vector<int> out(n, -1);

        thrust::transform(da.begin(), da.end(), out.begin(), thrust::negate<int>());
        CHECK(thrust::host_vector<int>(out) == negated);
        thrust::transform(thrust::device, da.begin(), da.end(), db.begin(), out.begin(),
                          thrust::minus<int>());
        CHECK(thrust::host_vector<int>(out) == differences);
        thrust::fill(out.begin(), out.end(), 9);
        CHECK(thrust::host_vector<int>(out) == filled);
        thrust::sequence(out.begin(), out.end());
        CHECK(thrust::host_vector<int>(out) == from_zero);
        thrust::sequence(thrust::device, out.begin(), out.end(), 5);
        CHECK(thrust::host_vector<int>(out) == counted);
        thrust::sequence(out.begin(), out.end(), 5, 3);
        CHECK(thrust::host_vector<int>(out) == stepped);

        // Copies: device to device, host to device, device to host, and a
        // sequence computed where it is read into device memory.
        thrust::copy(da.begin(), da.end(), out.begin());
        CHECK(thrust::host_vector<int>(out) == a);
        thrust::copy(b.begin(), b.end(), out.begin());
        CHECK(thrust::host_vector<int>(out) == b);
        std::vector<int> back(n, -1);
        CHECK(thrust::copy(da.begin(), da.end(), back.begin()) == back.end());
        CHECK(back == a);
        thrust::copy(thrust::make_counting_iterator(5), thrust::make_counting_iterator(5 + n), out.begin());
        CHECK(thrust::host_vector<int>(out) == counted);

        // On the host: a host_vector's iterators, and a lambda.
        thrust::host_vector<int> host(n, -1);
        thrust::transform(a.begin(), a.end(), host.begin(), [](int x) { return 2 * x; });
        CHECK(host == doubled);
        thrust::transform(thrust::host, a.begin(), a.end(), b.begin(), host.begin(), thrust::minus<int>());
        CHECK(host == differences);
        thrust::sequence(host.begin(), host.end(), 5, 3);
        CHECK(host == stepped);
        thrust::fill(thrust::host, host.begin(), host.end(), 9);
        CHECK(host == filled);
    }
}

TEST_CASE("thrust::sequence from 0, on the device and on the host", "[thrust]") {
    thrust::device_vector<float> device(5, -1.0f);
    thrust::sequence(device.begin(), device.end());
    CHECK(thrust::host_vector<float>(device) == std::vector<float>{0, 1, 2, 3, 4});
    thrust::host_vector<float> host(5, -1.0f);
    thrust::sequence(thrust::host, host.begin(), host.end());
    CHECK(host == std::vector<float>{0, 1, 2, 3, 4});
}

TEST_CASE("thrust::count and thrust::count_if", "[thrust]") {
    for (const int n : kSizes) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<int> items = items_with_ties(n, seed);
        const auto sevens = std::count(items.begin(), items.end(), 7);
        const auto negatives = std::count_if(items.begin(), items.end(), IsNegative());
        const thrust::device_vector<int> device(items);
        const thrust::host_vector<int> host(items);
        CHECK(thrust::count(device.begin(), device.end(), 7) == sevens);
        CHECK(thrust::count(thrust::device, thrust::raw_pointer_cast(device.data()),
                            thrust::raw_pointer_cast(device.data()) + n, 7) == sevens);
        CHECK(thrust::count(host.begin(), host.end(), 7) == sevens);
        CHECK(thrust::count_if(device.begin(), device.end(), IsNegative()) == negatives);
        CHECK(thrust::count_if(thrust::cuda::par, device.begin(), device.end(), IsNegative()) == negatives);
        CHECK(thrust::count_if(host.begin(), host.end(), [](int x) { return x < 0; }) == negatives);
    }
}

TEST_CASE("thrust::min_element, max_element and minmax_element find the first extremum", "[thrust]") {
    for (const int n : kSizes) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<int> items = items_with_ties(n, seed);
        const thrust::device_vector<int> device(items);
        const thrust::host_vector<int> host(items);
        const int* raw = thrust::raw_pointer_cast(device.data());
        if (n == 0) {
            CHECK(thrust::min_element(device.begin(), device.end()) == device.end());
            CHECK(thrust::max_element(thrust::device, raw, raw) == raw);
            CHECK(thrust::minmax_element(device.begin(), device.end()).second == device.end());
            CHECK(thrust::min_element(host.begin(), host.end()) == host.end());
            continue;
        }
        const std::ptrdiff_t min = first_smallest(items, std::less<int>());
        const std::ptrdiff_t max = first_smallest(items, std::greater<int>());
        // The first of the smallest magnitudes, and the first of the largest: ties of x and -x.
        const std::ptrdiff_t min_magnitude = first_smallest(items, MagnitudeLess());
        const std::ptrdiff_t max_magnitude =
            first_smallest(items, [](int a, int b) { return MagnitudeLess()(b, a); });

        CHECK(thrust::min_element(device.begin(), device.end()) - device.begin() == min);
        CHECK(thrust::max_element(device.begin(), device.end()) - device.begin() == max);
        CHECK(*thrust::max_element(device.begin(), device.end()) == items[max]);
        CHECK(thrust::min_element(thrust::device, raw, raw + n) - raw == min);
        CHECK(thrust::max_element(thrust::cuda::par, raw, raw + n) - raw == max);
        CHECK(thrust::min_element(device.begin(), device.end(), MagnitudeLess()) - device.begin() ==
              min_magnitude);
        CHECK(thrust::max_element(device.begin(), device.end(), MagnitudeLess()) - device.begin() ==
              max_magnitude);
        const auto both = thrust::minmax_element(device.begin(), device.end());
        CHECK(both.first - device.begin() == min);
        CHECK(both.second - device.begin() == max);
        const auto both_magnitudes = thrust::minmax_element(thrust::device, raw, raw + n, MagnitudeLess());
        CHECK(both_magnitudes.first - raw == min_magnitude);
        CHECK(both_magnitudes.second - raw == max_magnitude);

        CHECK(thrust::min_element(host.begin(), host.end()) - host.begin() == min);
        CHECK(thrust::max_element(thrust::host, host.begin(), host.end(), MagnitudeLess()) - host.begin() ==
              max_magnitude);
        const auto host_both = thrust::minmax_element(host.begin(), host.end());
        CHECK(host_both.first - host.begin() == min);
        CHECK(host_both.second - host.begin() == max);  // the first largest, not std::minmax_element's last
    }
}

TEST_CASE("thrust::inclusive_scan and exclusive_scan of ints, in and out of place", "[thrust]") {
    for (const int n : kSizes) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<int> items = items_with_ties(n, seed);
        std::vector<int> inclusive(n), exclusive(n), exclusive_from_4(n), running_max(n);
        std::inclusive_scan(items.begin(), items.end(), inclusive.begin());
        std::exclusive_scan(items.begin(), items.end(), exclusive.begin(), 0);
        std::exclusive_scan(items.begin(), items.end(), exclusive_from_4.begin(), 4);
        std::inclusive_scan(items.begin(), items.end(), running_max.begin(),
                            [](int a, int b) { return std::max(a, b); });
        const thrust::device_vector<int> device(items);
        thrust::device_vector<int> out(n, -1);

        CHECK(thrust::inclusive_scan(device.begin(), device.end(), out.begin()) == out.end());
        CHECK(thrust::host_vector<int>(out) == inclusive);
        thrust::inclusive_scan(thrust::device, device.begin(), device.end(), out.begin(),
                               thrust::maximum<int>());
        CHECK(thrust::host_vector<int>(out) == running_max);
        thrust::exclusive_scan(device.begin(), device.end(), out.begin());
        CHECK(thrust::host_vector<int>(out) == exclusive);
        thrust::exclusive_scan(thrust::cuda::par, device.begin(), device.end(), out.begin(), 4);
        CHECK(thrust::host_vector<int>(out) == exclusive_from_4);
        thrust::exclusive_scan(device.begin(), device.end(), out.begin(), 4, thrust::plus<int>());
        CHECK(thrust::host_vector<int>(out) == exclusive_from_4);

        thrust::device_vector<int> in_place(items);
        int* raw = thrust::raw_pointer_cast(in_place.data());
        thrust::inclusive_scan(thrust::device, raw, raw + n, raw);
        CHECK(thrust::host_vector<int>(in_place) == inclusive);
        in_place = items;
        thrust::exclusive_scan(in_place.begin(), in_place.end(), in_place.begin());
        CHECK(thrust::host_vector<int>(in_place) == exclusive);

        thrust::host_vector<int> host(items);
        thrust::inclusive_scan(host.begin(), host.end(), host.begin());
        CHECK(host == inclusive);
        host = items;
        thrust::exclusive_scan(thrust::host, host.begin(), host.end(), host.begin(), 4);
        CHECK(host == exclusive_from_4);
    }
}

TEST_CASE("thrust's scans keep the items' order: a non-commutative operator, with and without an init",
          "[thrust]") {
    const Affine init{3, 5};
    for (const int n : {1, 300, 70000}) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<Affine> maps = random_maps(n, seed);
        const std::vector<Affine> inclusive = host_inclusive_scan(maps, ThenApply{});
        std::vector<Affine> from_init;
        for (const Affine& map : maps)
            from_init.push_back(ThenApply{}(from_init.empty() ? init : from_init.back(), map));
        std::vector<Affine> exclusive{init};
        exclusive.insert(exclusive.end(), from_init.begin(), from_init.end() - 1);

        const thrust::device_vector<Affine> device(maps);
        thrust::device_vector<Affine> out(n);
        thrust::inclusive_scan(device.begin(), device.end(), out.begin(), ThenApply{});
        CHECK(thrust::host_vector<Affine>(out) == inclusive);
        thrust::inclusive_scan(device.begin(), device.end(), out.begin(), init, ThenApply{});
        CHECK(thrust::host_vector<Affine>(out) == from_init);
        thrust::exclusive_scan(thrust::device, device.begin(), device.end(), out.begin(), init, ThenApply{});
        CHECK(thrust::host_vector<Affine>(out) == exclusive);

        thrust::host_vector<Affine> host(n);
        thrust::inclusive_scan(maps.begin(), maps.end(), host.begin(), ThenApply{});
        CHECK(host == inclusive);
        thrust::exclusive_scan(thrust::host, maps.begin(), maps.end(), host.begin(), init, ThenApply{});
        CHECK(host == exclusive);
    }
}

TEST_CASE("counting, constant and transform iterators, read where the algorithm runs", "[thrust]") {
    for (const int n : kSizes) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const long long count = n;
        CHECK(thrust::reduce(thrust::make_counting_iterator(0LL), thrust::make_counting_iterator(count)) ==
              count * (count - 1) / 2);
        CHECK(thrust::reduce(thrust::host, thrust::make_counting_iterator(0LL),
                             thrust::make_counting_iterator(count)) == count * (count - 1) / 2);
        CHECK(thrust::reduce(thrust::make_constant_iterator(3), thrust::make_constant_iterator(3) + n) ==
              3 * n);

        const std::vector<int> items = items_with_ties(n, seed);
        long long squares = 0;
        std::vector<long long> squared(n);
        for (int i = 0; i < n; ++i) squares += squared[i] = Square{}(items[i]);
        const thrust::device_vector<int> device(items);
        const auto first = thrust::make_transform_iterator(device.begin(), Square());
        CHECK(thrust::reduce(first, first + n) == squares);
        CHECK(thrust::reduce(thrust::device, first, first + n, 0LL, thrust::plus<long long>()) == squares);
        std::vector<long long> back(n, -1);
        thrust::copy(first, first + n, back.begin());  // computed on the device, copied to the host
        CHECK(back == squared);
        const auto host_first = thrust::make_transform_iterator(items.begin(), Square());
        CHECK(thrust::reduce(host_first, host_first + n) == squares);
    }
}

TEST_CASE("thrust::reduce_by_key: Thrust's documented example, runs across blocks, and no items",
          "[thrust]") {
    const std::vector<int> keys = {1, 3, 3, 3, 2, 2, 1}, values = {9, 8, 7, 6, 5, 4, 3};
    const thrust::device_vector<int> device_keys(keys), device_values(values);
    thrust::device_vector<int> keys_out(7, -1), sums_out(7, -1);
    const auto ends = thrust::reduce_by_key(device_keys.begin(), device_keys.end(), device_values.begin(),
                                            keys_out.begin(), sums_out.begin());
    CHECK(ends.first - keys_out.begin() == 4);
    CHECK(ends.second - sums_out.begin() == 4);
    CHECK(thrust::host_vector<int>(keys_out) == std::vector<int>{1, 3, 2, 1, -1, -1, -1});
    CHECK(thrust::host_vector<int>(sums_out) == std::vector<int>{9, 21, 9, 3, -1, -1, -1});

    thrust::host_vector<int> host_keys(7, -1), host_sums(7, -1);
    const auto host_ends =
        thrust::reduce_by_key(keys.begin(), keys.end(), values.begin(), host_keys.begin(), host_sums.begin());
    CHECK(host_ends.first - host_keys.begin() == 4);
    CHECK(host_keys == std::vector<int>{1, 3, 2, 1, -1, -1, -1});
    CHECK(host_sums == std::vector<int>{9, 21, 9, 3, -1, -1, -1});

    const int n = 70000;
    const std::uint64_t seed = fresh_seed();
    INFO(describe_seed(seed));
    const std::vector<int> lengths = warpdrill::random_ints(n, seed, 1, 600);
    std::vector<int> run_keys, want_keys, want_sums;
    const std::vector<int> run_values = items_with_ties(n, seed);
    for (int run = 0; static_cast<int>(run_keys.size()) < n; ++run) {
        const int length = std::min(lengths[run], n - static_cast<int>(run_keys.size()));
        want_keys.push_back(run % 7);
        want_sums.push_back(0);
        for (int i = 0; i < length; ++i) {
            want_sums.back() += run_values[run_keys.size()];
            run_keys.push_back(run % 7);
        }
    }
    const thrust::device_vector<int> d_keys(run_keys), d_values(run_values);
    thrust::device_vector<int> d_keys_out(n), d_sums_out(n);
    const auto run_ends = thrust::reduce_by_key(thrust::device, d_keys.begin(), d_keys.end(),
                                                d_values.begin(), d_keys_out.begin(), d_sums_out.begin());
    const auto runs = run_ends.first - d_keys_out.begin();
    REQUIRE(runs == static_cast<std::ptrdiff_t>(want_keys.size()));
    CHECK(std::vector<int>(d_keys_out.begin(), d_keys_out.begin() + runs) == want_keys);
    CHECK(std::vector<int>(d_sums_out.begin(), d_sums_out.begin() + runs) == want_sums);

    const thrust::device_vector<int> none;
    thrust::device_vector<int> none_out;
    const auto no_runs =
        thrust::reduce_by_key(none.begin(), none.end(), none.begin(), none_out.begin(), none_out.begin());
    CHECK(no_runs.first == none_out.begin());
}

namespace {

__global__ void double_each(int* items, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) items[i] *= 2;
}

}  // namespace

TEST_CASE("thrust::device_vector: made, assigned, resized and read as Thrust's", "[thrust]") {
    // Made with a size: value-initialised on the device.
    const thrust::device_vector<int> zeros(5);
    CHECK(thrust::host_vector<int>(zeros) == std::vector<int>(5, 0));
    thrust::device_vector<float> halves(3, 2.5f);
    CHECK(thrust::host_vector<float>(halves) == std::vector<float>{2.5f, 2.5f, 2.5f});
    const thrust::device_vector<int> empty;
    CHECK(empty.empty());
    CHECK(empty.size() == 0);
    CHECK(empty.begin() == empty.end());

    const std::vector<int> items = {4, 1, 3};
    thrust::device_vector<int> device(items);
    CHECK(device.size() == 3);
    CHECK(device[0] == 4);
    CHECK(device.front() == 4);
    CHECK(device.back() == 3);
    device[1] = 7;
    device[2] += 10;
    CHECK(thrust::host_vector<int>(device) == std::vector<int>{4, 7, 13});

    // Copies are deep; assignment from the host copies to the device.
    thrust::device_vector<int> copy = device;
    copy[0] = -1;
    CHECK(device[0] == 4);
    const thrust::host_vector<int> host = copy;
    CHECK(host == std::vector<int>{-1, 7, 13});
    thrust::device_vector<int> assigned;
    assigned = host;
    CHECK(thrust::host_vector<int>(assigned) == std::vector<int>{-1, 7, 13});
    assigned = items;
    CHECK(thrust::host_vector<int>(assigned) == items);
    assigned = device;
    CHECK(thrust::host_vector<int>(assigned) == std::vector<int>{4, 7, 13});
    // Items of another type: converted on the host, on the way in and on the way out.
    const thrust::device_vector<double> widened(items);
    CHECK(thrust::host_vector<double>(widened) == std::vector<double>{4, 1, 3});
    const thrust::host_vector<long long> widened_back(device);
    CHECK(widened_back == std::vector<long long>{4, 7, 13});
    thrust::device_vector<int> from_range(host.begin() + 1, host.end());
    CHECK(thrust::host_vector<int>(from_range) == std::vector<int>{7, 13});
    thrust::device_vector<int> from_list = {1, 2, 3, 4};
    CHECK(thrust::reduce(from_list.begin(), from_list.end()) == 10);
    thrust::host_vector<int> host_again;
    host_again = from_list;
    CHECK(host_again == std::vector<int>{1, 2, 3, 4});

    // Resized: the kept items stay, the new ones take the value given, or 0.
    device.resize(5, 9);
    CHECK(thrust::host_vector<int>(device) == std::vector<int>{4, 7, 13, 9, 9});
    device.resize(6);
    CHECK(device.back() == 0);
    device.resize(2);
    CHECK(thrust::host_vector<int>(device) == std::vector<int>{4, 7});
    device.clear();
    CHECK(device.empty());

    // Its memory in a program's own kernel, and a cudaMalloc'd buffer in Thrust's algorithms.
    thrust::device_vector<int> counted(1000);
    thrust::sequence(counted.begin(), counted.end());
    double_each<<<4, 256>>>(thrust::raw_pointer_cast(counted.data()), 1000);
    check_cuda(cudaDeviceSynchronize());
    CHECK(thrust::reduce(counted.begin(), counted.end()) == 999 * 1000);
    CHECK(counted[999] == 1998);
    int* raw = nullptr;
    check_cuda(cudaMalloc(&raw, 100 * sizeof(int)));
    const thrust::device_ptr<int> first = thrust::device_pointer_cast(raw);
    thrust::fill(first, first + 100, 3);
    CHECK(thrust::reduce(first, first + 100) == 300);
    CHECK(thrust::raw_pointer_cast(first + 100) == raw + 100);
    check_cuda(cudaFree(raw));
    const thrust::device_ptr<long long> allocated = thrust::device_malloc<long long>(10);
    thrust::sequence(allocated, allocated + 10);
    CHECK(allocated[9] == 9);
    thrust::device_free(allocated);
}

TEST_CASE("a failed allocation throws std::bad_alloc; thrust::system_error carries the CUDA error",
          "[thrust]") {
    CHECK_THROWS_AS(thrust::device_vector<char>(std::size_t{1} << 52), std::bad_alloc);
    // The failed allocation is over: the next algorithm runs.
    const thrust::device_vector<int> after(10, 1);
    CHECK(thrust::reduce(after.begin(), after.end()) == 10);

    const thrust::system_error error(cudaErrorInvalidValue, thrust::cuda_category(), "what I was doing");
    CHECK(error.code().value() == cudaErrorInvalidValue);
    CHECK(std::string(error.what()).find("what I was doing") != std::string::npos);
}

// On the CPU backend only: a user's functor runs as device code, whose
// accesses the backend checks as compute-sanitizer does on a GPU.
#if defined(WARPDRILL_BACKEND_CPU)
using warpdrill::testing::expect_says;
using warpdrill::testing::fault_of;

namespace {

// A mistake: item i reads its neighbour, and the last has none.
struct NextItem {
    const int* items;
    __host__ __device__ int operator()(int i) const { return items[i + 1]; }
};

}  // namespace

TEST_CASE(
    "a functor that reads past a device_vector is named, in thrust::transform and thrust::transform_reduce",
    "[thrust]") {
    const thrust::device_vector<int> items(1000, 1);
    thrust::device_vector<int> out(1000);
    const NextItem next{thrust::raw_pointer_cast(items.data())};
    std::string message = fault_of([&] {
        thrust::transform(thrust::make_counting_iterator(0), thrust::make_counting_iterator(1000),
                          out.begin(), next);
    });
    expect_says(message, {"out-of-bounds read of 4 bytes", "cpu-cuda/tests/thrust.cu:"});
    message = fault_of([&] {
        thrust::transform_reduce(thrust::make_counting_iterator(0), thrust::make_counting_iterator(1000),
                                 next, 0, thrust::plus<int>());
    });
    expect_says(message, {"out-of-bounds read of 4 bytes", "cpu-cuda/tests/thrust.cu:"});
}
#endif
