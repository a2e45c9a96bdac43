#include "warpdrill/course/ring.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "warpdrill/host.h"

namespace warpdrill::course {
namespace {

std::int64_t round_up_to_4(std::int64_t floats) { return (floats + 3) / 4 * 4; }
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Runs `body` with GPU `gpu` current, then makes GPU 0 current again.
template <class Body>
void on_gpu(int gpu, Body body) {
    check_cuda(cudaSetDevice(gpu));
    body();
    check_cuda(cudaSetDevice(0));
}

}  // namespace

std::int64_t Ring::chunk_floats() const { return round_up_to_4(ceil_div(floats, gpus)); }

Span Ring::chunk(int c) const {
    const std::int64_t begin = std::min(floats, c * chunk_floats());
    return {begin, std::min(floats, begin + chunk_floats())};
}

Span Ring::slice(int c, int k) const {
    const Span whole = chunk(c);
    const std::int64_t slice_floats = round_up_to_4(ceil_div(whole.size(), slices));
    const std::int64_t begin = std::min(whole.end, whole.begin + k * slice_floats);
    return {begin, std::min(whole.end, begin + slice_floats)};
}

RingBuffers::RingBuffers(int gpus, std::int64_t floats, int slices) {
    if (gpus < 1 || gpus > kMaxRingGpus || slices < 1 || slices > kMaxSlices || floats < 0) {
        throw std::invalid_argument("RingBuffers: " + std::to_string(gpus) + " GPUs, " + std::to_string(slices) +
                                    " slices, " + std::to_string(floats) + " floats");
    }
    ring_.gpus = gpus;
    ring_.floats = floats;
    ring_.slices = slices;
    // Never 0 bytes, so that every pointer is a buffer's.
    const std::size_t data_bytes = std::max<std::size_t>(static_cast<std::size_t>(floats) * sizeof(float), 16);
    const std::size_t inbox_bytes =
        std::max<std::size_t>(static_cast<std::size_t>((gpus - 1) * ring_.chunk_floats()) * sizeof(float), 16);
    for (int g = 0; g < gpus; ++g) {
        on_gpu(g, [&] {
            check_cuda(cudaMalloc(&ring_.data[g], data_bytes));
            check_cuda(cudaMalloc(&ring_.inbox[g], inbox_bytes));
            check_cuda(cudaMemset(ring_.inbox[g], 0xff, inbox_bytes));
            check_cuda(cudaStreamCreateWithFlags(&ring_.copies[g], cudaStreamNonBlocking));
            check_cuda(cudaStreamCreateWithFlags(&ring_.adds[g], cudaStreamNonBlocking));
            for (int k = 0; k < slices; ++k) {
                check_cuda(cudaEventCreateWithFlags(&ring_.arrived[g][k], cudaEventDisableTiming));
                check_cuda(cudaEventCreateWithFlags(&ring_.ready[g][k], cudaEventDisableTiming));
            }
        });
    }
}

RingBuffers::~RingBuffers() {
    for (int g = 0; g < ring_.gpus; ++g) {
        cudaSetDevice(g);
        cudaDeviceSynchronize();
        for (int k = 0; k < ring_.slices; ++k) {
            cudaEventDestroy(ring_.arrived[g][k]);
            cudaEventDestroy(ring_.ready[g][k]);
        }
        cudaStreamDestroy(ring_.copies[g]);
        cudaStreamDestroy(ring_.adds[g]);
        cudaFree(ring_.data[g]);
        cudaFree(ring_.inbox[g]);
    }
    cudaSetDevice(0);
}

void RingBuffers::upload(int gpu, std::span<const float> values) {
    if (values.empty()) return;
    check_cuda(cudaMemcpy(ring_.data[gpu], values.data(), values.size_bytes(), cudaMemcpyHostToDevice));
}

std::vector<float> RingBuffers::download(int gpu) const {
    std::vector<float> values(static_cast<std::size_t>(ring_.floats));
    if (!values.empty()) {
        check_cuda(cudaMemcpy(values.data(), ring_.data[gpu], values.size() * sizeof(float), cudaMemcpyDeviceToHost));
    }
    return values;
}

void RingBuffers::fill_inboxes(const std::function<float(int gpu, int step)>& value) {
    for (int g = 0; g < ring_.gpus; ++g) {
        for (int step = 0; step + 1 < ring_.gpus; ++step) {
            const std::vector<float> filled(static_cast<std::size_t>(ring_.chunk_floats()), value(g, step));
            if (filled.empty()) continue;
            check_cuda(cudaMemcpy(ring_.inbox_of_step(g, step), filled.data(), filled.size() * sizeof(float),
                                  cudaMemcpyHostToDevice));
        }
    }
}

void RingBuffers::synchronize() const {
    for (int g = 0; g < ring_.gpus; ++g) on_gpu(g, [] { check_cuda(cudaDeviceSynchronize()); });
}

}  // namespace warpdrill::course
