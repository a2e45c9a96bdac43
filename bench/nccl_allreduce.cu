// The given NCCL program of lesson 13: the all-reduce that lesson 13's ring
// does by hand, through NCCL. Every GPU of the machine holds M floats; after
// one ncclAllReduce per GPU, each holds the element-wise sum, checked here.
//   nccl_allreduce [M]        (default 2^24 floats)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "nccl_allreduce.h"
#include "warpdrill/host.h"

using warpdrill::check_cuda;

int main(int argc, char** argv) {
    const std::size_t floats = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t{1} << 24;
    try {
        int gpus = 0;
        check_cuda(cudaGetDeviceCount(&gpus));
        std::vector<float*> data(static_cast<std::size_t>(gpus));
        std::vector<cudaStream_t> streams(static_cast<std::size_t>(gpus));
        // GPU g's element i is (i % 8) + g: whole numbers, so the sum is exact.
        std::vector<float> values(floats);
        for (int g = 0; g < gpus; ++g) {
            check_cuda(cudaSetDevice(g));
            check_cuda(cudaMalloc(&data[g], floats * sizeof(float)));
            check_cuda(cudaStreamCreateWithFlags(&streams[g], cudaStreamNonBlocking));
            for (std::size_t i = 0; i < floats; ++i) values[i] = static_cast<float>(i % 8 + g);
            check_cuda(cudaMemcpy(data[g], values.data(), floats * sizeof(float), cudaMemcpyHostToDevice));
        }
        const warpdrill::bench::NcclComms comms(gpus);
        const auto start = std::chrono::steady_clock::now();
        comms.all_reduce(data.data(), floats, streams.data());
        for (int g = 0; g < gpus; ++g) check_cuda(cudaStreamSynchronize(streams[g]));
        const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;

        std::size_t wrong = 0;
        for (int g = 0; g < gpus; ++g) {
            check_cuda(cudaMemcpy(values.data(), data[g], floats * sizeof(float), cudaMemcpyDeviceToHost));
            for (std::size_t i = 0; i < floats; ++i) {
                wrong += values[i] != static_cast<float>(gpus * (i % 8) + gpus * (gpus - 1) / 2);
            }
            check_cuda(cudaFree(data[g]));
            check_cuda(cudaStreamDestroy(streams[g]));
        }
        std::printf("ncclAllReduce (NCCL %s) of %zu floats on %d GPUs: %s, %.0f us from the first call to the "
                    "last GPU's end (the first call sets up its connections)\n",
                    warpdrill::bench::nccl_version().c_str(), floats, gpus,
                    wrong == 0 ? "every GPU holds the sum" : "WRONG SUMS", took.count());
        return wrong == 0 ? 0 : 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "nccl_allreduce: %s\n", error.what());
        return 2;
    }
}
