// A CUDA graph's insides: its nodes, each with the work it does every time
// the graph runs and the nodes it runs after. Internal to the backend.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "streams.h"

namespace warpdrill::cpu::detail {

// A kernel node's own copy of its arguments, and pointers to them as
// cudaKernelNodeParams::kernelParams holds them.
struct KernelArguments {
    std::vector<std::vector<std::byte>> values;
    std::vector<void*> pointers;
};

}  // namespace warpdrill::cpu::detail

struct CUgraphNode_st {
    CUgraph_st* graph = nullptr;
    cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
    std::vector<CUgraphNode_st*> dependencies;
    std::function<void()> work;  // what the node does each time its graph runs
    // A kernel node made by cudaGraphAddKernelNode: its parameters as given,
    // kernelParams pointing into `arguments`.
    cudaKernelNodeParams kernel{};
    std::shared_ptr<const warpdrill::cpu::detail::KernelArguments> arguments;
};

struct CUgraph_st {
    std::vector<std::unique_ptr<CUgraphNode_st>> nodes;  // in the order they were added
};

namespace warpdrill::cpu::detail {

cudaGraphNodeType node_type(WorkKind kind);
// A kernel launch's shape as CUDA checks it, and the work that runs the
// launch on the current GPU (launch.cpp).
cudaError_t check_shape(const GridLaunch& launch);
std::function<void()> grid_work(GridLaunch launch);
cudaGraphNode_t add_node(cudaGraph_t graph, cudaGraphNodeType type, std::function<void()> work,
                         std::vector<cudaGraphNode_t> dependencies);

}  // namespace warpdrill::cpu::detail
