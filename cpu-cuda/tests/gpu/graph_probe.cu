// What a GPU's runtime answers to CUDA graphs and stream capture: each line
// prints a call's result and, where it matters, the capture's status after
// it. The last case faults the GPU's context on purpose (an illegal address
// in a graph's kernel), so it comes last. results/graphs-h200.txt keeps what
// an H200 printed; cpu-cuda/tests/graphs.cu holds both backends to it.
//   nvcc -std=c++17 -arch=sm_90 -lineinfo -o graph_probe cpu-cuda/tests/gpu/graph_probe.cu && ./graph_probe
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void add_one(int* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += 1;
}
__global__ void set_to(int* data, int value) { data[threadIdx.x] = value; }
__global__ void write_at(int* data, int at) { data[at] = 7; }

static void host_note(void* p) { ++*static_cast<int*>(p); }

#define SHOW(call) show(#call, (call))
static void show(const char* what, cudaError_t e) {
    std::printf("%-90s -> %d %s\n", what, (int)e, cudaGetErrorName(e));
}
static void status(const char* what, cudaStream_t s) {
    cudaStreamCaptureStatus st;
    cudaError_t e = cudaStreamIsCapturing(s, &st);
    std::printf("   status %-40s -> %d (rc %d)\n", what, (int)st, (int)e);
}
static void clear() {
    cudaError_t e = cudaGetLastError();
    std::printf("   last error now %d %s\n", (int)e, cudaGetErrorName(e));
}

// Tries `call` during a global capture of s, then ends it.
template <class F>
static void during_capture(const char* name, cudaStreamCaptureMode mode, F call) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    int* d;
    cudaMalloc(&d, 64 * sizeof(int));
    std::printf("== %s (mode %d)\n", name, (int)mode);
    SHOW(cudaStreamBeginCapture(s, mode));
    add_one<<<1, 32, 0, s>>>(d, 32);
    call(s, d);
    status("after", s);
    cudaGraph_t g = nullptr;
    show("cudaStreamEndCapture", cudaStreamEndCapture(s, &g));
    std::printf("   graph %s\n", g ? "made" : "null");
    if (g) cudaGraphDestroy(g);
    clear();
    cudaDeviceSynchronize();
    clear();
    cudaFree(d);
    cudaStreamDestroy(s);
}

int main() {
    int* d;
    cudaMalloc(&d, 64 * sizeof(int));
    int h[64];

    std::printf("== basic capture: memset, kernel, memcpy, host function; launched twice\n");
    {
        cudaStream_t s;
        cudaStreamCreate(&s);
        int counter = 0;
        status("before", s);
        SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        status("capturing", s);
        SHOW(cudaMemsetAsync(d, 0, 64 * sizeof(int), s));
        add_one<<<2, 32, 0, s>>>(d, 64);
        SHOW(cudaGetLastError());
        SHOW(cudaMemcpyAsync(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost, s));
        SHOW(cudaLaunchHostFunc(s, host_note, &counter));
        cudaGraph_t g;
        SHOW(cudaStreamEndCapture(s, &g));
        status("after end", s);
        size_t n = 0;
        SHOW(cudaGraphGetNodes(g, nullptr, &n));
        std::printf("   nodes %zu\n", n);
        size_t roots = 0;
        SHOW(cudaGraphGetRootNodes(g, nullptr, &roots));
        std::printf("   roots %zu\n", roots);
        cudaGraphNode_t nodes[8];
        n = 8;
        cudaGraphGetNodes(g, nodes, &n);
        for (size_t i = 0; i < n; ++i) {
            cudaGraphNodeType t;
            cudaGraphNodeGetType(nodes[i], &t);
            std::printf("   node %zu type %d\n", i, (int)t);
        }
        size_t edges = 0;
        SHOW(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
        std::printf("   edges %zu\n", edges);
        cudaGraphExec_t x;
        SHOW(cudaGraphInstantiate(&x, g, 0));
        h[0] = -5;
        SHOW(cudaGraphLaunch(x, s));
        SHOW(cudaGraphLaunch(x, s));
        SHOW(cudaStreamSynchronize(s));
        std::printf("   h[0] %d h[63] %d counter %d\n", h[0], h[63], counter);
        SHOW(cudaGraphDestroy(g));
        SHOW(cudaGraphLaunch(x, s));
        SHOW(cudaStreamSynchronize(s));
        std::printf("   after graph destroyed: counter %d\n", counter);
        SHOW(cudaGraphExecDestroy(x));
        cudaStreamDestroy(s);
    }

    std::printf("== fork and join through events, as simpleCudaGraphs\n");
    {
        cudaStream_t s1, s2;
        cudaStreamCreate(&s1);
        cudaStreamCreate(&s2);
        cudaEvent_t fork, join;
        cudaEventCreate(&fork);
        cudaEventCreate(&join);
        SHOW(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
        SHOW(cudaEventRecord(fork, s1));
        SHOW(cudaStreamWaitEvent(s2, fork, 0));
        status("s2 joined", s2);
        SHOW(cudaMemsetAsync(d, 0, 32 * sizeof(int), s2));
        SHOW(cudaEventRecord(join, s2));
        SHOW(cudaEventQuery(join));
        SHOW(cudaEventSynchronize(join));
        status("s1 after query", s1);
        SHOW(cudaStreamWaitEvent(s1, join, 0));
        cudaGraph_t g = nullptr;
        SHOW(cudaStreamEndCapture(s1, &g));
        status("s2 after end", s2);
        std::printf("   graph %s\n", g ? "made" : "null");
        if (g) cudaGraphDestroy(g);
        clear();

        std::printf("== fork not joined\n");
        SHOW(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
        SHOW(cudaEventRecord(fork, s1));
        SHOW(cudaStreamWaitEvent(s2, fork, 0));
        SHOW(cudaMemsetAsync(d, 0, 32 * sizeof(int), s2));
        g = nullptr;
        SHOW(cudaStreamEndCapture(s1, &g));
        std::printf("   graph %s\n", g ? "made" : "null");
        status("s2 after", s2);
        clear();
        std::printf("== end capture on the joined stream, not the origin\n");
        SHOW(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
        SHOW(cudaEventRecord(fork, s1));
        SHOW(cudaStreamWaitEvent(s2, fork, 0));
        g = nullptr;
        SHOW(cudaStreamEndCapture(s2, &g));
        status("s1", s1);
        SHOW(cudaStreamEndCapture(s1, &g));
        std::printf("   graph %s\n", g ? "made" : "null");
        if (g) cudaGraphDestroy(g);
        clear();
        std::printf("== event recorded in a capture, waited on outside\n");
        SHOW(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
        SHOW(cudaEventRecord(fork, s1));
        cudaStream_t s3;
        cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking);
        SHOW(cudaStreamEndCapture(s1, &g));
        SHOW(cudaStreamWaitEvent(s3, fork, 0));
        SHOW(cudaEventQuery(fork));
        SHOW(cudaEventSynchronize(fork));
        clear();
        if (g) cudaGraphDestroy(g);
        std::printf("== event recorded before a capture, waited on inside it\n");
        SHOW(cudaEventRecord(join, s3));
        SHOW(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
        SHOW(cudaStreamWaitEvent(s1, join, 0));
        SHOW(cudaStreamEndCapture(s1, &g));
        clear();
        if (g) cudaGraphDestroy(g);
    }

    std::printf("== begin and end out of place\n");
    {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        cudaGraph_t g = nullptr;
        SHOW(cudaStreamEndCapture(s, &g));
        clear();
        SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        SHOW(cudaStreamEndCapture(s, &g));
        std::printf("   graph %s (nothing captured)\n", g ? "made" : "null");
        size_t n = 99;
        if (g) {
            cudaGraphGetNodes(g, nullptr, &n);
            std::printf("   nodes %zu\n", n);
            cudaGraphExec_t x;
            SHOW(cudaGraphInstantiate(&x, g, 0));
            SHOW(cudaGraphLaunch(x, s));
            SHOW(cudaStreamSynchronize(s));
            cudaGraphExecDestroy(x);
            cudaGraphDestroy(g);
        }
        clear();
        SHOW(cudaStreamBeginCapture(nullptr, cudaStreamCaptureModeGlobal));
        clear();
        SHOW(cudaStreamEndCapture(s, nullptr));
        clear();
        cudaStreamDestroy(s);
    }

    during_capture("cudaMalloc", cudaStreamCaptureModeGlobal, [](cudaStream_t, int*) {
        void* p = nullptr;
        SHOW(cudaMalloc(&p, 256));
        std::printf("   pointer %s\n", p ? "set" : "null");
        if (p) cudaFree(p);
    });
    during_capture("cudaMalloc, relaxed", cudaStreamCaptureModeRelaxed, [](cudaStream_t, int*) {
        void* p = nullptr;
        SHOW(cudaMalloc(&p, 256));
        if (p) SHOW(cudaFree(p));
    });
    during_capture("cudaMalloc, thread local", cudaStreamCaptureModeThreadLocal, [](cudaStream_t, int*) {
        void* p = nullptr;
        SHOW(cudaMalloc(&p, 256));
        if (p) SHOW(cudaFree(p));
    });
    during_capture("cudaFree", cudaStreamCaptureModeGlobal, [](cudaStream_t, int*) {
        void* p = nullptr;
        SHOW(cudaFree(p));
    });
    during_capture("cudaMemcpy, synchronous", cudaStreamCaptureModeGlobal, [](cudaStream_t, int* d) {
        int h[4];
        SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    });
    during_capture("cudaMemcpy, relaxed", cudaStreamCaptureModeRelaxed, [](cudaStream_t, int* d) {
        int h[4];
        SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    });
    during_capture("cudaMemset, synchronous", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t, int* d) { SHOW(cudaMemset(d, 0, 16)); });
    during_capture("cudaStreamSynchronize of the capturing stream", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t s, int*) { SHOW(cudaStreamSynchronize(s)); });
    during_capture("cudaStreamQuery of the capturing stream", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t s, int*) { SHOW(cudaStreamQuery(s)); });
    during_capture("cudaDeviceSynchronize", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t, int*) { SHOW(cudaDeviceSynchronize()); });
    during_capture("cudaDeviceSynchronize, relaxed", cudaStreamCaptureModeRelaxed,
                   [](cudaStream_t, int*) { SHOW(cudaDeviceSynchronize()); });
    during_capture("a kernel on the legacy stream", cudaStreamCaptureModeGlobal, [](cudaStream_t, int* d) {
        add_one<<<1, 32>>>(d, 32);
        SHOW(cudaGetLastError());
    });
    during_capture("cudaMemsetAsync on the legacy stream", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t, int* d) { SHOW(cudaMemsetAsync(d, 0, 16, nullptr)); });
    during_capture("a kernel on another, uncaptured stream", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t, int* d) {
                       cudaStream_t other;
                       cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
                       add_one<<<1, 32, 0, other>>>(d, 32);
                       SHOW(cudaGetLastError());
                       SHOW(cudaStreamSynchronize(other));
                       cudaStreamDestroy(other);
                   });
    during_capture("cudaEventRecord then cudaEventSynchronize", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t s, int*) {
                       cudaEvent_t e;
                       cudaEventCreate(&e);
                       SHOW(cudaEventRecord(e, s));
                       SHOW(cudaEventSynchronize(e));
                   });
    during_capture("cudaEventElapsedTime of two captured events", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t s, int*) {
                       cudaEvent_t a, b;
                       cudaEventCreate(&a);
                       cudaEventCreate(&b);
                       SHOW(cudaEventRecord(a, s));
                       SHOW(cudaEventRecord(b, s));
                       float ms = 0;
                       SHOW(cudaEventElapsedTime(&ms, a, b));
                   });
    during_capture("cudaStreamDestroy of the capturing stream", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t s, int*) { std::printf("   (not tried)\n"); });
    during_capture("a synchronous copy in a host function? (queued only)", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t s, int*) { SHOW(cudaStreamGetPriority(s, nullptr)); });
    during_capture("cudaMallocAsync on the capturing stream", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t s, int*) {
                       void* p = nullptr;
                       SHOW(cudaMallocAsync(&p, 256, s));
                       if (p) SHOW(cudaFreeAsync(p, s));
                   });
    during_capture("cudaGetLastError and cudaGetDeviceProperties", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t, int*) {
                       SHOW(cudaGetLastError());
                       cudaDeviceProp p;
                       SHOW(cudaGetDeviceProperties(&p, 0));
                       int v;
                       SHOW(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
                   });
    during_capture("cudaMemcpyAsync host to device from pageable memory", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t s, int* d) {
                       static int pageable[4] = {1, 2, 3, 4};
                       SHOW(cudaMemcpyAsync(d, pageable, sizeof pageable, cudaMemcpyHostToDevice, s));
                   });
    during_capture("a bad launch (2048 threads a block)", cudaStreamCaptureModeGlobal,
                   [](cudaStream_t s, int* d) {
                       add_one<<<1, 2048, 0, s>>>(d, 32);
                       SHOW(cudaGetLastError());
                   });

    std::printf("== manual graph: kernel node's arguments copied when added\n");
    {
        cudaGraph_t g;
        SHOW(cudaGraphCreate(&g, 0));
        int value = 11;
        void* args[] = {&d, &value};
        cudaKernelNodeParams p{};
        p.func = (void*)set_to;
        p.gridDim = dim3(1);
        p.blockDim = dim3(32);
        p.kernelParams = args;
        cudaGraphNode_t k;
        SHOW(cudaGraphAddKernelNode(&k, g, nullptr, 0, &p));
        value = 22;
        cudaMemcpy3DParms c{};
        c.srcPtr = make_cudaPitchedPtr(d, 32 * sizeof(int), 32, 1);
        c.dstPtr = make_cudaPitchedPtr(h, 32 * sizeof(int), 32, 1);
        c.extent = make_cudaExtent(32 * sizeof(int), 1, 1);
        c.kind = cudaMemcpyDeviceToHost;
        cudaGraphNode_t m;
        SHOW(cudaGraphAddMemcpyNode(&m, g, &k, 1, &c));
        cudaGraphExec_t x;
        SHOW(cudaGraphInstantiate(&x, g, 0));
        SHOW(cudaGraphLaunch(x, 0));
        SHOW(cudaDeviceSynchronize());
        std::printf("   h[0] %d (11: copied when added)\n", h[0]);
        cudaKernelNodeParams q = p;
        int v2 = 33;
        void* args2[] = {&d, &v2};
        q.kernelParams = args2;
        SHOW(cudaGraphExecKernelNodeSetParams(x, k, &q));
        SHOW(cudaGraphLaunch(x, 0));
        SHOW(cudaDeviceSynchronize());
        std::printf("   h[0] %d (33)\n", h[0]);
        cudaKernelNodeParams back{};
        SHOW(cudaGraphKernelNodeGetParams(k, &back));
        std::printf("   node's own params: value %d, func same %d, args pointer same %d\n",
                    *(int*)back.kernelParams[1], back.func == (void*)set_to, back.kernelParams == args);
        cudaGraph_t clone;
        SHOW(cudaGraphClone(&clone, g));
        cudaGraphExec_t cx;
        SHOW(cudaGraphInstantiate(&cx, clone, 0));
        SHOW(cudaGraphLaunch(cx, 0));
        SHOW(cudaDeviceSynchronize());
        std::printf("   clone: h[0] %d (11)\n", h[0]);
        // exec update from the clone with new params
        int v3 = 44;
        void* args3[] = {&d, &v3};
        cudaKernelNodeParams r = p;
        r.kernelParams = args3;
        cudaGraphNode_t cn[4];
        size_t nn = 4;
        cudaGraphGetNodes(clone, cn, &nn);
        for (size_t i = 0; i < nn; ++i) {
            cudaGraphNodeType t;
            cudaGraphNodeGetType(cn[i], &t);
            if (t == cudaGraphNodeTypeKernel) SHOW(cudaGraphKernelNodeSetParams(cn[i], &r));
        }
        cudaGraphExecUpdateResultInfo info{};
        SHOW(cudaGraphExecUpdate(x, clone, &info));
        std::printf("   update result %d\n", (int)info.result);
        SHOW(cudaGraphLaunch(x, 0));
        SHOW(cudaDeviceSynchronize());
        std::printf("   after update: h[0] %d (44)\n", h[0]);
        // an update that changes the topology
        cudaGraph_t other;
        cudaGraphCreate(&other, 0);
        cudaGraphNode_t e;
        cudaGraphAddEmptyNode(&e, other, nullptr, 0);
        SHOW(cudaGraphExecUpdate(x, other, &info));
        std::printf("   topology change: result %d\n", (int)info.result);
        clear();
        // the 5-argument form that CUDA 11 had
        cudaGraphExec_t x5;
        SHOW(cudaGraphInstantiate(&x5, g, nullptr, nullptr, 0));
        cudaGraphExecDestroy(x5);
        cudaGraphExecDestroy(x);
        cudaGraphExecDestroy(cx);
        cudaGraphDestroy(g);
        cudaGraphDestroy(clone);
        cudaGraphDestroy(other);
    }

    std::printf("== manual graph: errors\n");
    {
        cudaGraph_t g;
        cudaGraphCreate(&g, 0);
        cudaKernelNodeParams p{};
        cudaGraphNode_t k;
        SHOW(cudaGraphAddKernelNode(&k, g, nullptr, 0, &p));
        clear();
        int value = 1;
        void* args[] = {&d, &value};
        p.func = (void*)set_to;
        p.gridDim = dim3(1);
        p.blockDim = dim3(2048);
        p.kernelParams = args;
        SHOW(cudaGraphAddKernelNode(&k, g, nullptr, 0, &p));
        clear();
        p.blockDim = dim3(0);
        SHOW(cudaGraphAddKernelNode(&k, g, nullptr, 0, &p));
        clear();
        p.blockDim = dim3(32);
        p.sharedMemBytes = 1 << 20;
        SHOW(cudaGraphAddKernelNode(&k, g, nullptr, 0, &p));
        clear();
        p.sharedMemBytes = 0;
        SHOW(cudaGraphAddKernelNode(&k, g, nullptr, 0, &p));
        cudaGraphNode_t bogus = k;
        cudaGraph_t g2;
        cudaGraphCreate(&g2, 0);
        cudaGraphNode_t k2;
        SHOW(cudaGraphAddKernelNode(&k2, g2, &bogus, 1, &p));
        clear();
        cudaMemsetParams ms{};
        ms.dst = d;
        ms.value = 0x01020304;
        ms.elementSize = 3;
        ms.width = 4;
        ms.height = 1;
        cudaGraphNode_t mn;
        SHOW(cudaGraphAddMemsetNode(&mn, g, nullptr, 0, &ms));
        clear();
        ms.elementSize = 4;
        SHOW(cudaGraphAddMemsetNode(&mn, g, &k, 1, &ms));
        ms.dst = h;
        SHOW(cudaGraphAddMemsetNode(&mn, g, nullptr, 0, &ms));
        clear();
        ms.dst = d;
        ms.height = 2;
        ms.pitch = 8;
        SHOW(cudaGraphAddMemsetNode(&mn, g, nullptr, 0, &ms));
        clear();
        SHOW(cudaGraphAddDependencies(g, &k, &k, nullptr, 1));
        clear();
        cudaGraphExec_t x;
        SHOW(cudaGraphInstantiate(&x, g, 0));
        SHOW(cudaGraphLaunch(x, 0));
        SHOW(cudaDeviceSynchronize());
        SHOW(cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost));
        std::printf("   memset words: %08x %08x %08x %08x %08x\n", h[0], h[1], h[2], h[3], h[4]);
        SHOW(cudaGraphLaunch(nullptr, 0));
        clear();
        // a kernel node's fault: illegal address
        cudaGraph_t g3;
        cudaGraphCreate(&g3, 0);
        int far = 1 << 28;
        void* fargs[] = {&d, &far};
        cudaKernelNodeParams fp{};
        fp.func = (void*)write_at;
        fp.gridDim = dim3(1);
        fp.blockDim = dim3(1);
        fp.kernelParams = fargs;
        cudaGraphNode_t fk;
        SHOW(cudaGraphAddKernelNode(&fk, g3, nullptr, 0, &fp));
        cudaGraphExec_t fx;
        SHOW(cudaGraphInstantiate(&fx, g3, 0));
        SHOW(cudaGraphLaunch(fx, 0));
        SHOW(cudaDeviceSynchronize());
        clear();
    }
    return 0;
}
