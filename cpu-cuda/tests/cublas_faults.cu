// What the CPU backend says of a cuBLAS call whose operands are wrong, as
// compute-sanitizer says it of cuBLAS's kernels on a GPU (an H200's reports:
// results/cublas-h200.txt): past a buffer's end, outside device memory, in a
// freed buffer, and reading bytes nothing wrote.
#include <cublasLt.h>
#include <cublas_v2.h>

#include <string>
#include <vector>

#include "fault_of.h"
#include "handles.h"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::check_cuda;
using warpdrill::DeviceBuffer;
using warpdrill::testing::CublasHandle;
using warpdrill::testing::expect_says;
using warpdrill::testing::fault_of;

namespace {

constexpr int kN = 64;
const float kOne = 1.0f, kZero = 0.0f;

DeviceBuffer<float> ones() {
    return DeviceBuffer<float>{std::span<const float>(std::vector<float>(kN * kN, 1.0f))};
}

}  // namespace

TEST_CASE("a GEMM whose leading dimension carries A past its buffer is named, with the buffer", "[cublas]") {
    CublasHandle cublas;
    DeviceBuffer<float> a = ones(), b = ones(), c(kN * kN);
    const std::string message = fault_of([&] {
        cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &kOne, a.data(), 2 * kN, b.data(), kN,
                    &kZero, c.data(), kN);
        check_cuda(cudaDeviceSynchronize());
    });
    expect_says(message, {"cublasSgemm at ", "cublas_faults.cu:",
                          "A, a 64 x 64 matrix of 4-byte elements with "
                          "leading dimension 128",
                          "byte 32511 of a buffer of 16384 bytes", "past the buffer's end"});
}

TEST_CASE("a level-1 reduction of more elements than the vector holds is named", "[cublas]") {
    CublasHandle cublas;
    DeviceBuffer<float> x = ones();
    float result = 0;
    const std::string message = fault_of([&] { cublasSasum(cublas, kN * kN + 100, x.data(), 1, &result); });
    expect_says(message,
                {"cublasSasum at ", "x, 4196 elements of 4 bytes, 1 apart", "past the buffer's end"});
}

TEST_CASE("a host array given to cuBLAS as a matrix, and a freed buffer, are named", "[cublas]") {
    CublasHandle cublas;
    DeviceBuffer<float> b = ones(), c(kN * kN);
    std::vector<float> host(kN * kN, 1.0f);
    std::string message = fault_of([&] {
        cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &kOne, host.data(), kN, b.data(), kN,
                    &kZero, c.data(), kN);
    });
    expect_says(message, {"cublasSgemm at ", "A points to no cudaMalloc'd buffer", "illegal address"});

    float* freed = nullptr;
    check_cuda(cudaMalloc(&freed, kN * kN * sizeof(float)));
    check_cuda(cudaMemset(freed, 0, kN * kN * sizeof(float)));
    check_cuda(cudaFree(freed));
    message = fault_of([&] {
        cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &kOne, freed, kN, b.data(), kN, &kZero,
                    c.data(), kN);
    });
    expect_says(message, {"A points to byte 0 of a buffer of 16384 bytes that cudaFree has released"});
}

TEST_CASE("a GEMM that reads a C nothing wrote is named where beta is not 0, and not where it is",
          "[cublas]") {
    CublasHandle cublas;
    DeviceBuffer<float> a = ones(), b = ones(), c(kN * kN);
    CHECK(fault_of([&] {
              cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &kOne, a.data(), kN, b.data(), kN,
                          &kZero, c.data(), kN);
          }).empty());
    DeviceBuffer<float> fresh(kN * kN);
    const std::string message = fault_of([&] {
        cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &kOne, a.data(), kN, b.data(), kN, &kOne,
                    fresh.data(), kN);
    });
    expect_says(message, {"cublasSgemm at ", "reads C, a 64 x 64 matrix", "byte 0 of a buffer of 16384 bytes",
                          "has never been written", "initcheck"});
}

TEST_CASE("a GEMM of types cuBLAS has and the backend lacks returns CUBLAS_STATUS_NOT_SUPPORTED and says so",
          "[cublas]") {
    CublasHandle cublas;
    DeviceBuffer<signed char> a(kN * kN), b(kN * kN);
    DeviceBuffer<int> c(kN * kN);
    const int one = 1, zero = 0;
    warpdrill::cpu::take_warnings();
    CHECK(cublasGemmEx(cublas, CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &one, a.data(), CUDA_R_8I, kN, b.data(),
                       CUDA_R_8I, kN, &zero, c.data(), CUDA_R_32I, kN, CUBLAS_COMPUTE_32I,
                       CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_NOT_SUPPORTED);
    const std::vector<std::string> warnings = warpdrill::cpu::take_warnings();
    REQUIRE(warnings.size() == 1);
    expect_says(warnings[0], {"cublasGemmEx at ", "cudaDataType 3, 3, 10", "CUBLAS_STATUS_NOT_SUPPORTED"});
}
