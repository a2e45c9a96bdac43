// CUDA graphs (warpdrill/cpu/graphs.h): nodes made one by one, executable
// graphs, and their launches as stream work.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <span>

#include "capture.h"
#include "copies.h"
#include "graph_nodes.h"
#include "program.h"
#include "state.h"
#include "warpdrill/messages.h"

// Here gridDim and blockDim are cudaKernelNodeParams' members, not the built-in variables.
#undef gridDim
#undef blockDim

struct CUgraphExec_st {
    struct Node {
        cudaGraphNode_t source;  // the graph's node it was made from, which names it in updates
        warpdrill::cpu::detail::GraphPiece piece;
    };
    std::vector<Node> nodes;                             // each after the nodes it runs after
    warpdrill::cpu::detail::WorkSerial last_launch = 0;  // a graph's launches run one after another
};

namespace warpdrill::cpu::detail {

cudaGraphNodeType node_type(WorkKind kind) {
    switch (kind) {
        case WorkKind::kernel: return cudaGraphNodeTypeKernel;
        case WorkKind::copy: return cudaGraphNodeTypeMemcpy;
        case WorkKind::memset: return cudaGraphNodeTypeMemset;
        case WorkKind::host_function: return cudaGraphNodeTypeHost;
        case WorkKind::nothing: break;
    }
    return cudaGraphNodeTypeEmpty;
}

cudaGraphNode_t add_node(cudaGraph_t graph, cudaGraphNodeType type, std::function<void()> work,
                         std::vector<cudaGraphNode_t> dependencies) {
    auto node = std::make_unique<CUgraphNode_st>();
    node->graph = graph;
    node->type = type;
    node->dependencies = std::move(dependencies);
    node->work = std::move(work);
    graph->nodes.push_back(std::move(node));
    return graph->nodes.back().get();
}

namespace {

WorkKind work_kind(cudaGraphNodeType type) {
    switch (type) {
        case cudaGraphNodeTypeKernel: return WorkKind::kernel;
        case cudaGraphNodeTypeMemcpy: return WorkKind::copy;
        case cudaGraphNodeTypeMemset: return WorkKind::memset;
        case cudaGraphNodeTypeHost: return WorkKind::host_function;
        default: return WorkKind::nothing;
    }
}

// A node's parts before it joins a graph.
struct NodeParts {
    std::function<void()> work;
    cudaKernelNodeParams kernel{};
    std::shared_ptr<const KernelArguments> arguments;
};

// A kernel node's launch, with its own copy of the arguments. CUDA refuses a
// launch shape it would refuse at a launch, here with cudaErrorInvalidValue
// (results/graphs-h200.txt).
cudaError_t kernel_parts(const HostCall& call, const cudaKernelNodeParams* params, NodeParts& parts) {
    if (!params) return record(cudaErrorInvalidValue);
    if (!params->func) return record(cudaErrorInvalidDeviceFunction);
    const KernelSignature* signature = signature_of(params->func);
    if (!signature)
        return refuse(call, cudaErrorInvalidDeviceFunction, messages::text("backend.api.untyped_kernel"));
    if (params->extra)
        return refuse(call, cudaErrorNotSupported, messages::text("backend.graph.kernel_extra"));
    const std::size_t count = signature->parameter_bytes.size();
    if (count > 0 && !params->kernelParams) return record(cudaErrorInvalidValue);
    auto arguments = std::make_shared<KernelArguments>();
    for (std::size_t i = 0; i < count; ++i) {
        const auto* bytes = static_cast<const std::byte*>(params->kernelParams[i]);
        arguments->values.emplace_back(bytes, bytes + signature->parameter_bytes[i]);
    }
    for (std::vector<std::byte>& value : arguments->values) arguments->pointers.push_back(value.data());
    GridLaunch launch = signature->bind(params->func, arguments->pointers.data(), params->gridDim,
                                        params->blockDim, params->sharedMemBytes);
    if (check_shape(launch) != cudaSuccess) return record(cudaErrorInvalidValue);
    parts.work = grid_work(std::move(launch));
    parts.kernel = *params;
    parts.kernel.kernelParams = arguments->pointers.data();
    parts.arguments = std::move(arguments);
    return cudaSuccess;
}

cudaError_t memset_parts(const HostCall& call, const cudaMemsetParams* params, NodeParts& parts) {
    if (!params) return record(cudaErrorInvalidValue);
    const cudaMemsetParams p = *params;
    const bool element_size_allowed = p.elementSize == 1 || p.elementSize == 2 || p.elementSize == 4;
    const std::size_t row_bytes = p.width * p.elementSize;
    if (!element_size_allowed || p.width == 0 || p.height == 0 || (p.height > 1 && p.pitch < row_bytes)) {
        return record(cudaErrorInvalidValue);
    }
    std::vector<Row> rows;
    for (std::size_t y = 0; y < p.height; ++y) {
        auto* dst = static_cast<std::byte*>(p.dst) + y * p.pitch;
        if (const cudaError_t error = check_memset(call, dst, row_bytes); error != cudaSuccess) return error;
        rows.push_back({dst, nullptr});
    }
    parts.work = [p, rows, row_bytes, call] {
        for (const Row& row : rows) {
            note_copy(row.dst, nullptr, row_bytes, call);
            for (std::size_t e = 0; e < p.width; ++e)
                std::memcpy(row.dst + e * p.elementSize, &p.value, p.elementSize);
        }
    };
    return cudaSuccess;
}

// A copy node of linear memory. The bytes of pageable host memory are read
// when the node runs (each launch of the graph), not when it is made.
cudaError_t memcpy_parts(const HostCall& call, const cudaMemcpy3DParms* params, NodeParts& parts) {
    if (!params) return record(cudaErrorInvalidValue);
    const cudaMemcpy3DParms p = *params;
    if (p.srcArray || p.dstArray)
        return refuse(call, cudaErrorNotSupported, messages::text("backend.graph.cuda_array"));
    const std::size_t width = p.extent.width;
    if (!is_memcpy_kind(p.kind) || width == 0 || p.extent.height == 0 || p.extent.depth == 0 ||
        p.srcPos.x + width > p.srcPtr.pitch || p.dstPos.x + width > p.dstPtr.pitch) {
        return record(cudaErrorInvalidValue);
    }
    const auto row_of = [](const cudaPitchedPtr& ptr, const cudaPos& pos, std::size_t y, std::size_t z) {
        return static_cast<std::byte*>(ptr.ptr) + ((pos.z + z) * ptr.ysize + pos.y + y) * ptr.pitch + pos.x;
    };
    std::vector<Row> rows;
    for (std::size_t z = 0; z < p.extent.depth; ++z) {
        for (std::size_t y = 0; y < p.extent.height; ++y) {
            Row row{row_of(p.dstPtr, p.dstPos, y, z), row_of(p.srcPtr, p.srcPos, y, z)};
            if (const cudaError_t error = check_copy(call, row.dst, row.src, width, p.kind);
                error != cudaSuccess) {
                return error;
            }
            rows.push_back(row);
        }
    }
    parts.work = [rows, width, call] {
        for (const Row& row : rows) {
            note_copy_made(row.dst, row.src, width, call);
            check_copy_source(row.dst, row.src, width, call);
            std::memmove(row.dst, row.src, width);
        }
    };
    return cudaSuccess;
}

cudaError_t host_parts(const cudaHostNodeParams* params, NodeParts& parts) {
    if (!params || !params->fn) return record(cudaErrorInvalidValue);
    const cudaHostNodeParams p = *params;
    parts.work = host_function_work(reinterpret_cast<const void*>(p.fn), [p] { p.fn(p.userData); });
    return cudaSuccess;
}

// Whether `dependencies` are nodes of `graph`, none named twice (CUDA refuses
// others with cudaErrorInvalidValue).
bool dependencies_allowed(cudaGraph_t graph, const cudaGraphNode_t* dependencies, std::size_t count) {
    if (count > 0 && !dependencies) return false;
    const std::span<const cudaGraphNode_t> named(dependencies, count);
    for (std::size_t i = 0; i < count; ++i) {
        if (!named[i] || named[i]->graph != graph) return false;
        if (std::find(named.begin(), named.begin() + i, named[i]) != named.begin() + i) return false;
    }
    return true;
}

cudaError_t add_parts(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                      std::size_t count, cudaGraphNodeType type, NodeParts parts) {
    cudaGraphNode_t added = add_node(graph, type, std::move(parts.work),
                                     std::vector<cudaGraphNode_t>(dependencies, dependencies + count));
    added->kernel = parts.kernel;
    added->arguments = std::move(parts.arguments);
    *node = added;
    return cudaSuccess;
}

// Adds a node whose parts `make` makes, after the checks every node's call makes.
template <class Make>
cudaError_t add_node_made(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                          std::size_t count, cudaGraphNodeType type, Make make) {
    if (!node || !graph || !dependencies_allowed(graph, dependencies, count))
        return record(cudaErrorInvalidValue);
    NodeParts parts;
    if (const cudaError_t error = make(parts); error != cudaSuccess) return error;
    return add_parts(node, graph, dependencies, count, type, std::move(parts));
}

// The graph's nodes in an order where each comes after those it depends on,
// as an executable graph; false where the dependencies make a cycle.
bool instantiate(cudaGraph_t graph, CUgraphExec_st& exec) {
    std::vector<cudaGraphNode_t> placed;
    std::vector<cudaGraphNode_t> waiting;
    for (const auto& node : graph->nodes) waiting.push_back(node.get());
    const auto index_of = [&](cudaGraphNode_t node) {
        return static_cast<std::size_t>(std::ranges::find(placed, node) - placed.begin());
    };
    while (!waiting.empty()) {
        const auto ready = std::ranges::find_if(waiting, [&](cudaGraphNode_t node) {
            return std::ranges::all_of(node->dependencies,
                                       [&](cudaGraphNode_t d) { return index_of(d) < placed.size(); });
        });
        if (ready == waiting.end()) return false;
        const cudaGraphNode_t node = *ready;
        GraphPiece piece{work_kind(node->type), node->work, {}};
        for (const cudaGraphNode_t dependency : node->dependencies)
            piece.after.push_back(index_of(dependency));
        exec.nodes.push_back({node, std::move(piece)});
        placed.push_back(node);
        waiting.erase(ready);
    }
    return true;
}

CUgraphExec_st::Node* exec_node(cudaGraphExec_t exec, cudaGraphNode_t node, cudaGraphNodeType type) {
    if (!exec || !node) return nullptr;
    const auto found = std::ranges::find(exec->nodes, node, &CUgraphExec_st::Node::source);
    return found != exec->nodes.end() && found->piece.kind == work_kind(type) ? &*found : nullptr;
}

// Sets an executable graph's node of `type` from parts that `make` makes.
template <class Make>
cudaError_t set_exec_node(cudaGraphExec_t exec, cudaGraphNode_t node, cudaGraphNodeType type, Make make) {
    CUgraphExec_st::Node* found = exec_node(exec, node, type);
    if (!found) return record(cudaErrorInvalidValue);
    NodeParts parts;
    if (const cudaError_t error = make(parts); error != cudaSuccess) return error;
    found->piece.work = std::move(parts.work);
    return cudaSuccess;
}

}  // namespace
}  // namespace warpdrill::cpu::detail

using namespace warpdrill::cpu::detail;

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned flags) {
    if (!graph || flags != 0) return record(cudaErrorInvalidValue);
    *graph = new CUgraph_st;
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    if (!graph) return record(cudaErrorInvalidValue);
    delete graph;
    return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original) {
    if (!clone || !original) return record(cudaErrorInvalidValue);
    auto* copy = new CUgraph_st;
    std::map<cudaGraphNode_t, cudaGraphNode_t> copy_of;
    for (const auto& node : original->nodes) {
        cudaGraphNode_t added = add_node(copy, node->type, node->work, {});
        added->kernel = node->kernel;
        added->arguments = node->arguments;
        copy_of[node.get()] = added;
    }
    for (const auto& node : original->nodes) {  // a node may depend on one added after it
        for (const cudaGraphNode_t dependency : node->dependencies) {
            copy_of[node.get()]->dependencies.push_back(copy_of[dependency]);
        }
    }
    *clone = copy;
    return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, std::size_t count,
                                   const cudaKernelNodeParams* params) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaGraphAddKernelNode");
    return add_node_made(node, graph, dependencies, count, cudaGraphNodeTypeKernel,
                         [&](NodeParts& parts) { return kernel_parts(call, params, parts); });
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, std::size_t count,
                                   const cudaMemcpy3DParms* params) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaGraphAddMemcpyNode");
    return add_node_made(node, graph, dependencies, count, cudaGraphNodeTypeMemcpy,
                         [&](NodeParts& parts) { return memcpy_parts(call, params, parts); });
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph,
                                     const cudaGraphNode_t* dependencies, std::size_t count, void* dst,
                                     const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaGraphAddMemcpyNode1D");
    cudaMemcpy3DParms params{};
    params.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), bytes, bytes, 1);
    params.dstPtr = make_cudaPitchedPtr(dst, bytes, bytes, 1);
    params.extent = make_cudaExtent(bytes, 1, 1);
    params.kind = kind;
    return add_node_made(node, graph, dependencies, count, cudaGraphNodeTypeMemcpy,
                         [&](NodeParts& parts) { return memcpy_parts(call, &params, parts); });
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, std::size_t count,
                                   const cudaMemsetParams* params) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaGraphAddMemsetNode");
    return add_node_made(node, graph, dependencies, count, cudaGraphNodeTypeMemset,
                         [&](NodeParts& parts) { return memset_parts(call, params, parts); });
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                 const cudaGraphNode_t* dependencies, std::size_t count,
                                 const cudaHostNodeParams* params) {
    return add_node_made(node, graph, dependencies, count, cudaGraphNodeTypeHost,
                         [&](NodeParts& parts) { return host_parts(params, parts); });
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                  const cudaGraphNode_t* dependencies, std::size_t count) {
    return add_node_made(node, graph, dependencies, count, cudaGraphNodeTypeEmpty, [](NodeParts& parts) {
        parts.work = [] {};
        return cudaSuccess;
    });
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, const cudaGraphEdgeData*, std::size_t count) {
    if (!graph || (count > 0 && (!from || !to))) return record(cudaErrorInvalidValue);
    for (std::size_t i = 0; i < count; ++i) {
        if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph || from[i] == to[i] ||
            std::ranges::find(to[i]->dependencies, from[i]) != to[i]->dependencies.end()) {
            return record(cudaErrorInvalidValue);
        }
    }
    for (std::size_t i = 0; i < count; ++i) to[i]->dependencies.push_back(from[i]);
    return cudaSuccess;
}

namespace {
// Gives the nodes for which `chosen` holds, in the order they were added:
// their number where `nodes` is null, else at most *count of them.
template <class Chosen>
cudaError_t list_nodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count, Chosen chosen) {
    if (!graph || !count) return record(cudaErrorInvalidValue);
    std::size_t found = 0;
    for (const auto& node : graph->nodes) {
        if (!chosen(*node)) continue;
        if (nodes && found < *count) nodes[found] = node.get();
        ++found;
    }
    if (!nodes || found < *count) *count = found;
    return cudaSuccess;
}
}  // namespace

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count) {
    return list_nodes(graph, nodes, count, [](const CUgraphNode_st&) { return true; });
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count) {
    return list_nodes(graph, nodes, count,
                      [](const CUgraphNode_st& node) { return node.dependencies.empty(); });
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                              cudaGraphEdgeData* edge_data, std::size_t* count) {
    if (!graph || !count || (!from != !to)) return record(cudaErrorInvalidValue);
    std::size_t found = 0;
    for (const auto& node : graph->nodes) {
        for (const cudaGraphNode_t dependency : node->dependencies) {
            if (from && found < *count) {
                from[found] = dependency;
                to[found] = node.get();
                if (edge_data) edge_data[found] = {};
            }
            ++found;
        }
    }
    if (!from || found < *count) *count = found;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
    if (!node || !type) return record(cudaErrorInvalidValue);
    *type = node->type;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* params) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaGraphKernelNodeGetParams");
    if (!node || !params || node->type != cudaGraphNodeTypeKernel) return record(cudaErrorInvalidValue);
    if (!node->arguments) {
        return refuse(call, cudaErrorNotSupported,
                      warpdrill::messages::text("backend.graph.captured_kernel_params"));
    }
    *params = node->kernel;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* params) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaGraphKernelNodeSetParams");
    if (!node || node->type != cudaGraphNodeTypeKernel) return record(cudaErrorInvalidValue);
    NodeParts parts;
    if (const cudaError_t error = kernel_parts(call, params, parts); error != cudaSuccess) return error;
    node->work = std::move(parts.work);
    node->kernel = parts.kernel;
    node->arguments = std::move(parts.arguments);
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
    if (!exec || !graph) return record(cudaErrorInvalidValue);
    auto made = std::make_unique<CUgraphExec_st>();
    if (!instantiate(graph, *made)) return record(cudaErrorInvalidValue);
    *exec = made.release();
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                          unsigned long long flags) {
    return cudaGraphInstantiate(exec, graph, flags);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaGraphLaunch");
    if (!exec) return record(cudaErrorInvalidValue);
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    if (const cudaError_t error = check_queue(stream, call); error != cudaSuccess) return error;
    std::vector<GraphPiece> pieces;
    for (const CUgraphExec_st::Node& node : exec->nodes) pieces.push_back(node.piece);
    const WorkSerial last = enqueue_graph(stream, pieces, exec->last_launch);
    if (last) exec->last_launch = last;
    return cudaSuccess;
}

// The backend has nothing to upload: a graph's work stays where it is.
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream) {
    if (!exec) return record(cudaErrorInvalidValue);
    return check_stream(stream) == cudaSuccess ? cudaSuccess : record(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
    if (!exec) return record(cudaErrorInvalidValue);
    delete exec;
    return cudaSuccess;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* params) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaGraphExecKernelNodeSetParams");
    return set_exec_node(exec, node, cudaGraphNodeTypeKernel,
                         [&](NodeParts& parts) { return kernel_parts(call, params, parts); });
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaMemsetParams* params) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaGraphExecMemsetNodeSetParams");
    return set_exec_node(exec, node, cudaGraphNodeTypeMemset,
                         [&](NodeParts& parts) { return memset_parts(call, params, parts); });
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaMemcpy3DParms* params) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaGraphExecMemcpyNodeSetParams");
    return set_exec_node(exec, node, cudaGraphNodeTypeMemcpy,
                         [&](NodeParts& parts) { return memcpy_parts(call, params, parts); });
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                           const cudaHostNodeParams* params) {
    return set_exec_node(exec, node, cudaGraphNodeTypeHost,
                         [&](NodeParts& parts) { return host_parts(params, parts); });
}

// The graph's work replaces the executable graph's where both have the same
// nodes, of the same types, in the same dependencies; else nothing changes
// (cudaErrorGraphExecUpdateFailure, with why in `result`).
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                cudaGraphExecUpdateResultInfo* result) {
    if (!exec || !graph || !result) return record(cudaErrorInvalidValue);
    *result = {cudaGraphExecUpdateSuccess, nullptr, nullptr};
    CUgraphExec_st updated;
    if (!instantiate(graph, updated) || updated.nodes.size() != exec->nodes.size()) {
        result->result = cudaGraphExecUpdateErrorTopologyChanged;
        return record(cudaErrorGraphExecUpdateFailure);
    }
    for (std::size_t i = 0; i < updated.nodes.size(); ++i) {
        const CUgraphExec_st::Node& now = updated.nodes[i];
        const CUgraphExec_st::Node& before = exec->nodes[i];
        if (now.piece.after != before.piece.after) {
            *result = {cudaGraphExecUpdateErrorTopologyChanged, now.source, nullptr};
            return record(cudaErrorGraphExecUpdateFailure);
        }
        if (now.piece.kind != before.piece.kind) {
            *result = {cudaGraphExecUpdateErrorNodeTypeChanged, now.source, nullptr};
            return record(cudaErrorGraphExecUpdateFailure);
        }
    }
    for (std::size_t i = 0; i < updated.nodes.size(); ++i)
        exec->nodes[i].piece.work = updated.nodes[i].piece.work;
    return cudaSuccess;
}
