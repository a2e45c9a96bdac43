// NCCL's all-reduce, as production code calls it: one process drives every
// GPU, ncclCommInitAll makes one communicator per GPU in one call, and one
// ncclAllReduce per GPU, grouped, queues the sum on each GPU's stream and
// returns before it has run, as lesson 13's ring_allreduce does. NCCL picks
// the algorithm (ring or tree), the protocol (LL, LL128, Simple) and the
// number of channels itself; NVLink SHARP (NVLS, the reduction done inside an
// NVSwitch) is kept off, so that the comparison is between rings over links.
#pragma once

#include <nccl.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpdrill/cuda.h"

namespace warpdrill::bench {

inline void check_nccl(ncclResult_t result, const char* call) {
    if (result != ncclSuccess) throw std::runtime_error(std::string(call) + ": " + ncclGetErrorString(result));
}

// "2.28.3"
inline std::string nccl_version() {
    int code = 0;
    check_nccl(ncclGetVersion(&code), "ncclGetVersion");
    return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." + std::to_string(code % 100);
}

// One communicator on each of GPUs 0 to gpus - 1.
class NcclComms {
  public:
    explicit NcclComms(int gpus) : comms_(static_cast<std::size_t>(gpus)) {
        if (const char* nvls = std::getenv("NCCL_NVLS_ENABLE"); !nvls || std::string(nvls) != "0") {
            std::printf("NCCL_NVLS_ENABLE=0 set for this process: rings over links, no reduction in the switch\n");
            setenv("NCCL_NVLS_ENABLE", "0", 1);
        }
        check_nccl(ncclCommInitAll(comms_.data(), gpus, nullptr), "ncclCommInitAll");
    }
    ~NcclComms() {
        for (ncclComm_t comm : comms_) ncclCommDestroy(comm);
    }
    NcclComms(const NcclComms&) = delete;
    NcclComms& operator=(const NcclComms&) = delete;

    // Queues data[g][0, count) = the sum over every GPU's data[g][0, count),
    // in place, on streams[g] (a stream of GPU g).
    void all_reduce(float* const* data, std::size_t count, const cudaStream_t* streams) const {
        check_nccl(ncclGroupStart(), "ncclGroupStart");
        for (std::size_t g = 0; g < comms_.size(); ++g) {
            check_nccl(ncclAllReduce(data[g], data[g], count, ncclFloat, ncclSum, comms_[g], streams[g]),
                       "ncclAllReduce");
        }
        check_nccl(ncclGroupEnd(), "ncclGroupEnd");
    }

  private:
    std::vector<ncclComm_t> comms_;
};

}  // namespace warpdrill::bench
