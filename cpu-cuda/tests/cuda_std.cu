// libcu++'s standard headers (<cuda/std/type_traits>, <cuda/std/utility>, <cuda/std/bit>...): what CUDA
// code uses of each, at compile time, and a kernel that uses array, pair, tuple, span, the bit functions,
// the numeric algorithms and <cuda/std/cmath> in device code. The file uses only libcu++'s public API: it
// compiles with nvcc against libcu++ too. libcu++ 3.0 has no <cuda/std/algorithm>, so no min, max or clamp.
#include <bit>
#include <cmath>
#include <vector>

#include <cuda/std/array>
#include <cuda/std/bit>
#include <cuda/std/cfloat>
#include <cuda/std/climits>
#include <cuda/std/cmath>
#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/cstdlib>
#include <cuda/std/numeric>
#include <cuda/std/optional>
#include <cuda/std/span>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>
#include <cuda/std/variant>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::check_cuda;
using warpdrill::DeviceBuffer;

namespace {

namespace cs = cuda::std;

// <cuda/std/type_traits>, as a kernel's templates use it.
enum class Op : cs::uint8_t { sum, max };
template <class T, class = cs::enable_if_t<cs::is_arithmetic_v<T>>>
constexpr T twice(T x) {
    return x + x;
}
template <class T, class = void>
struct has_value_type : cs::false_type {};
template <class T>
struct has_value_type<T, cs::void_t<typename T::value_type>> : cs::true_type {};
constexpr bool at_compile_time() { return cs::is_constant_evaluated(); }
static_assert(cs::is_same_v<cs::remove_cvref_t<const float&>, float> &&
              cs::is_same_v<cs::add_const_t<int>, const int>);
static_assert(cs::is_same_v<cs::common_type_t<int, long, unsigned char>, long>);
static_assert(cs::is_same_v<cs::conditional_t<sizeof(int) == 4, int, long>, int>);
static_assert(cs::is_same_v<cs::decay_t<const int[4]>, const int*> &&
              cs::is_same_v<cs::make_unsigned_t<int>, unsigned>);
static_assert(cs::is_same_v<cs::underlying_type_t<Op>, cs::uint8_t> && cs::is_enum_v<Op>);
static_assert(cs::is_same_v<cs::invoke_result_t<decltype(&twice<float>), float>, float> &&
              twice(2.0f) == 4.0f);
static_assert(cs::integral_constant<int, 32>::value == 32 && cs::true_type{} && !cs::false_type::value);
static_assert(cs::is_integral_v<char> && cs::is_floating_point_v<double> && cs::is_signed_v<int> &&
              cs::is_unsigned_v<unsigned>);
static_assert(cs::is_trivially_copyable_v<cs::array<int, 2>> && has_value_type<cs::array<int, 2>>::value &&
              !has_value_type<int>::value && at_compile_time());

// <cuda/std/cstdint>, <cuda/std/cstddef>, <cuda/std/climits> and <cuda/std/cfloat>.
static_assert(sizeof(cs::int64_t) == 8 && sizeof(cs::uint32_t) == 4 &&
              sizeof(cs::uintptr_t) == sizeof(void*));
static_assert(INT32_MAX == 2147483647 && CHAR_BIT == 8 && INT_MIN < 0 && FLT_MANT_DIG == 24);
static_assert(cs::is_same_v<cs::size_t, decltype(sizeof(int))> && cs::is_signed_v<cs::ptrdiff_t>);
static_assert(cs::is_null_pointer_v<cs::nullptr_t> && alignof(cs::max_align_t) >= alignof(double));
static_assert(cs::to_integer<int>(cs::byte{0x0f} | cs::byte{0xf0}) == 0xff);

// <cuda/std/utility> and <cuda/std/tuple>.
constexpr int swapped() {
    int a = 1, b = 2;
    cs::swap(a, b);
    return cs::exchange(a, 5) * 10 + b;
}
constexpr cs::pair<int, float> p = cs::make_pair(3, 0.5f);
using Triple = cs::tuple<int, float, char>;
constexpr Triple t{1, 2.5f, 'c'};
static_assert(p.first == 3 && cs::get<1>(p) == 0.5f && swapped() == 21);
static_assert(cs::make_index_sequence<4>::size() == 4 &&
              cs::is_same_v<cs::index_sequence_for<int, float>, cs::index_sequence<0, 1>>);
static_assert(cs::cmp_less(-1, 0u) && !cs::in_range<cs::uint8_t>(300));
static_assert(cs::is_same_v<decltype(cs::as_const(cs::declval<int&>())), const int&> &&
              cs::is_same_v<cs::unwrap_ref_decay_t<const int&>, int>);
static_assert(cs::tuple_size_v<Triple> == 3 && cs::get<2>(t) == 'c' &&
              cs::is_same_v<cs::tuple_element_t<1, Triple>, float>);
static_assert(cs::apply([](int i, float f, char) { return i + f; }, t) == 3.5f);

// <cuda/std/array>, <cuda/std/span> and <cuda/std/numeric>.
constexpr cs::array<int, 4> a{1, 2, 3, 4};
static_assert(a.size() == 4 && a[2] == 3 && a.back() == 4 && cs::to_array({1, 2, 3}).size() == 3);
static_assert(cs::span<const int>(a).size() == 4 && cs::span<const int>(a)[1] == 2 &&
              cs::span<const int, 4>::extent == 4 && cs::span<int>::extent == cs::dynamic_extent);
static_assert(cs::accumulate(a.begin(), a.end(), 0) == 10 && cs::gcd(12, 18) == 6 && cs::lcm(4, 6) == 12 &&
              cs::midpoint(2, 8) == 5);

// <cuda/std/bit>.
static_assert(cs::popcount(0xf0f0u) == 8 && cs::countl_zero(1u) == 31 && cs::countr_zero(8u) == 3);
static_assert(cs::has_single_bit(64u) && cs::bit_ceil(5u) == 8u && cs::bit_floor(5u) == 4u &&
              cs::bit_width(5u) == 3);
static_assert(cs::rotl(0x80000001u, 1) == 3u && cs::rotr(3u, 1) == 0x80000001u);
static_assert(cs::bit_cast<cs::uint32_t>(1.0f) == 0x3f800000u && cs::endian::native == cs::endian::little);

// <cuda/std/cmath>, <cuda/std/optional> and <cuda/std/variant>.
static_assert(cs::is_same_v<decltype(cs::sqrt(2.0f)), float> &&
              cs::is_same_v<decltype(cs::floor(2.0)), double>);
constexpr cs::optional<int> found{7}, none = cs::nullopt;
constexpr cs::variant<int, float> v{2.5f};
static_assert(found.has_value() && *found == 7 && !none && none.value_or(-1) == -1);
static_assert(cs::holds_alternative<float>(v) && cs::get<1>(v) == 2.5f && v.index() == 1);

// One thread's uses in device code, each writing one slot.
__global__ void use_cuda_std(const float* in, const unsigned* words, float* floats, int* ints) {
    cs::array<float, 4> values{};
    for (int i = 0; i < 4; ++i) values[i] = in[i];
    const cs::span<const float> all(values);
    const auto [first, rest] = cs::pair{all.front(), all.subspan(1)};
    const cs::tuple<float, int> t{cs::hypot(values[0], values[1]), static_cast<int>(rest.size())};
    cs::array<float, 4> scanned{};
    cs::inclusive_scan(all.begin(), all.end(), scanned.begin());
    floats[0] = cs::get<0>(t);
    floats[1] = cs::sqrt(all.back());
    floats[2] = cs::fma(first, 2.0f, 1.0f);
    floats[3] = cs::floor(values[2]);
    floats[4] = cs::fabs(values[2]);
    floats[5] = cs::reduce(values.begin(), values.end());
    floats[6] = scanned[2];
    ints[0] = cs::get<1>(t);
    ints[1] = cs::isnan(cs::nanf("")) + 2 * cs::isinf(cs::exp2(200.0f)) + 4 * cs::isfinite(first);
    ints[2] = cs::popcount(words[0]);
    ints[3] = cs::countl_zero(words[1]);
    ints[4] = cs::bit_width(words[1]);
    ints[5] = static_cast<int>(cs::bit_ceil(words[1]));
    ints[6] = static_cast<int>(cs::rotl(words[0], 4));
    const cs::div_t d = cs::div(17, 5);
    ints[7] = d.quot * 10 + d.rem + cs::abs(-100);
}

// libcu++'s fmin and fmax where C leaves a choice: two zeros of either sign,
// two NaNs with their own bits, and a mixed pair (an int and a float, as two
// doubles). Each result as bits.
__global__ void cuda_std_min_max(const float* zeros_and_nans, unsigned long long* bits) {
    const float plus = zeros_and_nans[0], minus = zeros_and_nans[1], nan1 = zeros_and_nans[2],
                nan2 = zeros_and_nans[3];
    bits[0] = cs::bit_cast<unsigned>(cs::fmin(plus, minus));
    bits[1] = cs::bit_cast<unsigned>(cs::fmaxf(minus, plus));
    bits[2] = cs::bit_cast<unsigned>(cs::fminf(nan1, nan2));
    bits[3] = cs::bit_cast<unsigned long long>(cs::fmax(static_cast<double>(minus), 0.0));
    bits[4] = cs::bit_cast<unsigned long long>(cs::fmin(1, plus - 0.5f));
}

}  // namespace

TEST_CASE("libcu++'s fmin and fmax in device code give a GPU's zero and NaN", "[cuda_std]") {
    // +0, -0 and two NaNs with payloads of their own.
    const std::vector<float> zeros_and_nans{0.0f, -0.0f, std::bit_cast<float>(0x7fc00001u),
                                            std::bit_cast<float>(0xffc00002u)};
    DeviceBuffer<float> in(zeros_and_nans);
    DeviceBuffer<unsigned long long> bits(5);
    warpdrill::poison(bits);
    cuda_std_min_max<<<1, 1>>>(in.data(), bits.data());
    check_cuda(cudaGetLastError());
    // min.f32 and max.f32 (results/float-min-max-probe-h200.txt): -0 below +0, two NaNs the canonical one.
    CHECK(bits.download() ==
          std::vector<unsigned long long>{0x80000000u, 0x00000000u, 0x7fffffffu, 0, 0xbfe0000000000000u});
}

TEST_CASE("libcu++'s array, pair, tuple, span, bit, numeric and cmath in device code", "[cuda_std]") {
    const std::vector<float> in{3.0f, 4.0f, -2.5f, 16.0f};
    const std::vector<unsigned> words{0xf0u, 5u};
    DeviceBuffer<float> device_in(in);
    DeviceBuffer<unsigned> device_words(words);
    DeviceBuffer<float> floats(7);
    DeviceBuffer<int> ints(8);
    warpdrill::poison(floats, ints);
    use_cuda_std<<<1, 1>>>(device_in.data(), device_words.data(), floats.data(), ints.data());
    check_cuda(cudaGetLastError());
    check_cuda(cudaDeviceSynchronize());
    const std::vector<float> got = floats.download();
    CHECK(std::fabs(got[0] - 5.0f) <= 1e-6f);  // hypot(3, 4): CUDA's hypotf may be an ulp off
    CHECK(got[1] == 4.0f);                     // sqrt(16)
    CHECK(got[2] == 7.0f);                     // fma(3, 2, 1)
    CHECK(got[3] == -3.0f);                    // floor(-2.5)
    CHECK(got[4] == 2.5f);                     // fabs(-2.5)
    CHECK(got[5] == 20.5f);                    // reduce: 3 + 4 - 2.5 + 16, exact in any order
    CHECK(got[6] == 4.5f);                     // inclusive_scan's third: 3 + 4 - 2.5
    CHECK(ints.download() == std::vector<int>{3, 7, 4, 29, 3, 8, 0xf00, 132});
}
