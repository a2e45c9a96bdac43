// Pitched memory as an H200 answered it (cpu-cuda/tests/gpu/pitched_probe.cu,
// results/pitched-probe-h200.txt): the pitch cudaMallocPitch chooses, the
// rows cudaMemcpy2D and cudaMemset2D write (and the padding they leave),
// and what each refuses, with nothing written. This file compiles with nvcc
// too: on a GPU it holds CUDA to the same answers.
#include <algorithm>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::check_cuda;

namespace {

constexpr std::size_t kWidth = 100;  // bytes a row
constexpr std::size_t kRows = 4;
constexpr unsigned char kPadding = 0xab;

// A pitched buffer of kRows rows of kWidth bytes, every byte kPadding at first.
class Pitched {
  public:
    Pitched() {
        check_cuda(cudaMallocPitch(&data_, &pitch_, kWidth, kRows));
        check_cuda(cudaMemset(data_, kPadding, pitch_ * kRows));
    }
    Pitched(const Pitched&) = delete;
    Pitched& operator=(const Pitched&) = delete;
    ~Pitched() { cudaFree(data_); }
    void* data() const { return data_; }
    std::size_t pitch() const { return pitch_; }
    // Every byte, padding included, row after row.
    std::vector<unsigned char> bytes() const {
        std::vector<unsigned char> all(pitch_ * kRows);
        check_cuda(cudaMemcpy(all.data(), data_, all.size(), cudaMemcpyDeviceToHost));
        return all;
    }

  private:
    void* data_ = nullptr;
    std::size_t pitch_ = 0;
};

// kRows packed rows of kWidth bytes: 1, 8, 15, ...
std::vector<unsigned char> packed_rows() {
    std::vector<unsigned char> rows(kWidth * kRows);
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<unsigned char>(1 + 7 * i);
    return rows;
}

// What a pitched buffer should hold: `packed`'s first `rows` rows, and kPadding elsewhere.
std::vector<unsigned char> expected_bytes(const std::vector<unsigned char>& packed, std::size_t pitch,
                                          std::size_t rows) {
    std::vector<unsigned char> bytes(pitch * kRows, kPadding);
    for (std::size_t y = 0; y < rows; ++y) {
        for (std::size_t x = 0; x < kWidth; ++x) bytes[y * pitch + x] = packed[y * kWidth + x];
    }
    return bytes;
}

// The error the call returned is the one cudaGetLastError() reports, once.
void check_refused(cudaError_t returned, cudaError_t expected) {
    CHECK(returned == expected);
    CHECK(cudaGetLastError() == expected);
    CHECK(cudaGetLastError() == cudaSuccess);
}

}  // namespace

TEST_CASE("cudaMallocPitch rounds the width up to 512 bytes; an empty rectangle allocates nothing",
          "[pitched]") {
    const std::size_t widths[][2] = {{1, 512}, {100, 512}, {512, 512}, {513, 1024}, {5000, 5120}};
    for (const auto& [width, want] : widths) {
        void* p = nullptr;
        std::size_t pitch = 0;
        check_cuda(cudaMallocPitch(&p, &pitch, width, 3));
        CHECK(p != nullptr);
        CHECK(pitch == want);
        check_cuda(cudaFree(p));
    }
    for (const auto& [width, height] : {std::pair<std::size_t, std::size_t>{0, 3}, {100, 0}}) {
        void* p = &p;
        std::size_t pitch = 1;
        check_cuda(cudaMallocPitch(&p, &pitch, width, height));
        CHECK(p == nullptr);
        CHECK(pitch == 0);
    }
    void* p = nullptr;
    check_refused(cudaMallocPitch(&p, nullptr, 100, 3), cudaErrorInvalidValue);
}

TEST_CASE("cudaMemcpy2D and cudaMemset2D write the rows and leave the padding", "[pitched]") {
    const std::vector<unsigned char> packed = packed_rows();
    Pitched a, b;
    check_cuda(
        cudaMemcpy2D(a.data(), a.pitch(), packed.data(), kWidth, kWidth, kRows, cudaMemcpyHostToDevice));
    CHECK(a.bytes() == expected_bytes(packed, a.pitch(), kRows));

    cudaStream_t stream;
    check_cuda(cudaStreamCreate(&stream));
    check_cuda(cudaMemcpy2DAsync(b.data(), b.pitch(), a.data(), a.pitch(), kWidth, kRows, cudaMemcpyDefault,
                                 stream));
    check_cuda(cudaStreamSynchronize(stream));
    CHECK(b.bytes() == expected_bytes(packed, b.pitch(), kRows));

    std::vector<unsigned char> back(kWidth * kRows, 0);
    check_cuda(cudaMemcpy2D(back.data(), kWidth, b.data(), b.pitch(), kWidth, kRows, cudaMemcpyDeviceToHost));
    CHECK(back == packed);

    // One row needs no pitch: the H200 copies it whatever the pitch says.
    Pitched c;
    check_cuda(cudaMemcpy2D(c.data(), 0, packed.data(), kWidth, kWidth, 1, cudaMemcpyHostToDevice));
    CHECK(c.bytes() == expected_bytes(packed, c.pitch(), 1));

    check_cuda(cudaMemset2DAsync(a.data(), a.pitch(), 0x5c, kWidth, kRows, stream));
    check_cuda(cudaStreamSynchronize(stream));
    CHECK(a.bytes() == expected_bytes(std::vector<unsigned char>(kWidth * kRows, 0x5c), a.pitch(), kRows));
    check_cuda(cudaMemset2D(b.data(), b.pitch(), 0x11, kWidth, 2));  // rows 2 and 3 keep the copy
    std::vector<unsigned char> want = expected_bytes(packed, b.pitch(), kRows);
    for (std::size_t y = 0; y < 2; ++y) std::fill_n(want.begin() + y * b.pitch(), kWidth, 0x11);
    CHECK(b.bytes() == want);
    check_cuda(cudaStreamDestroy(stream));
}

TEST_CASE("cudaMemcpy2D and cudaMemset2D refuse as the H200 does, and write nothing", "[pitched]") {
    const std::vector<unsigned char> packed = packed_rows();
    Pitched buffer;
    const std::vector<unsigned char> untouched = buffer.bytes();
    const auto copy = [&](std::size_t dpitch, std::size_t spitch, std::size_t width, std::size_t height,
                          cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
        return cudaMemcpy2D(buffer.data(), dpitch, packed.data(), spitch, width, height, kind);
    };
    const std::size_t pitch = buffer.pitch();

    SECTION("a row longer than either pitch: cudaErrorInvalidPitchValue") {
        check_refused(copy(pitch, pitch + 1, pitch + 1, kRows), cudaErrorInvalidPitchValue);
        check_refused(copy(pitch, kWidth - 1, kWidth, kRows), cudaErrorInvalidPitchValue);
        check_refused(cudaMemcpy2DAsync(buffer.data(), pitch, packed.data(), kWidth - 1, kWidth, kRows,
                                        cudaMemcpyHostToDevice),
                      cudaErrorInvalidPitchValue);
    }
    SECTION("rows past the allocation, a kind that calls host memory device memory: cudaErrorInvalidValue") {
        check_refused(copy(pitch, kWidth, kWidth, kRows + 1), cudaErrorInvalidValue);
        check_refused(copy(pitch, kWidth, kWidth, kRows, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
        check_refused(
            cudaMemcpy2D(nullptr, pitch, packed.data(), kWidth, kWidth, kRows, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
    }
    SECTION("a kind that is none of cudaMemcpyKind's: cudaErrorInvalidMemcpyDirection") {
        check_refused(copy(pitch, kWidth, kWidth, kRows, cudaMemcpyKind(7)), cudaErrorInvalidMemcpyDirection);
    }
    SECTION("an empty rectangle: nothing to do") {
        check_cuda(copy(pitch, kWidth, kWidth, 0));
        check_cuda(copy(0, kWidth, 0, kRows));
    }
    SECTION("cudaMemset2D: a row past its pitch or the allocation, pageable memory: cudaErrorInvalidValue") {
        check_refused(cudaMemset2D(buffer.data(), pitch, 0, pitch + 1, kRows), cudaErrorInvalidValue);
        check_refused(cudaMemset2DAsync(buffer.data(), pitch, 0, kWidth, kRows + 1), cudaErrorInvalidValue);
        std::vector<unsigned char> pageable(kWidth * kRows);
        check_refused(cudaMemset2D(pageable.data(), kWidth, 0, kWidth, kRows), cudaErrorInvalidValue);
        check_cuda(cudaMemset2D(buffer.data(), pitch, 0, kWidth, 0));
    }
    CHECK(buffer.bytes() == untouched);
}
