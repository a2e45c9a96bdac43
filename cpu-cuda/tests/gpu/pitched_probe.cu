// What a GPU's runtime does with pitched memory: the pitch cudaMallocPitch
// chooses for each width, and what cudaMemcpy2D, cudaMemcpy2DAsync,
// cudaMemset2D and cudaMemset2DAsync take and refuse (a width past a pitch,
// an empty rectangle, rows past the allocation, a kind that does not match
// the pointers, a null pointer), and which bytes each one writes.
// Each case runs in a process of its own, so that one that breaks the
// context leaves the others as they were.
// results/pitched-probe-h200.txt keeps what an H200 printed.
//   nvcc -std=c++20 -arch=sm_90 -o pitched_probe cpu-cuda/tests/gpu/pitched_probe.cu && ./pitched_probe
#include <cstdio>
#include <cstring>
#include <vector>

#include "in_a_process.h"

constexpr std::size_t kWidth = 100;  // bytes a row
constexpr std::size_t kRows = 4;

// The rectangle's bytes: 1, 8, 15, ... row by row; the padding keeps 0xab.
struct Pitched {
    unsigned char* device = nullptr;
    std::size_t pitch = 0;
    Pitched() {
        cudaMallocPitch(reinterpret_cast<void**>(&device), &pitch, kWidth, kRows);
        cudaMemset(device, 0xab, pitch * kRows);
    }
    // "rows written", "untouched", "padding written" or "other bytes": what a
    // copy of `source` (kWidth bytes a row, `rows` rows) or a memset left.
    const char* what_arrived(const std::vector<unsigned char>& source, std::size_t rows) const {
        std::vector<unsigned char> bytes(pitch * kRows);
        if (cudaMemcpy(bytes.data(), device, bytes.size(), cudaMemcpyDeviceToHost) != cudaSuccess)
            return "unreadable";
        bool all_poison = true, rows_match = true, padding_poison = true;
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            const std::size_t row = i / pitch, column = i % pitch;
            all_poison &= bytes[i] == 0xab;
            if (column >= kWidth || row >= rows) {
                padding_poison &= bytes[i] == 0xab;
            } else {
                rows_match &= bytes[i] == source[row * kWidth + column];
            }
        }
        if (all_poison) return "untouched";
        if (rows_match && padding_poison) return "rows written";
        if (rows_match) return "padding written";
        return "other bytes";
    }
};

std::vector<unsigned char> host_rows() {
    std::vector<unsigned char> bytes(kWidth * kRows);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(1 + 7 * i);
    return bytes;
}

void report(const char* what, cudaError_t returned, const char* arrived) {
    const cudaError_t synchronized = cudaDeviceSynchronize();
    std::printf("%-58s returns %-28s sync %-14s last %-28s %s\n", what, cudaGetErrorName(returned),
                cudaGetErrorName(synchronized), cudaGetErrorName(cudaGetLastError()), arrived);
}

void pitch_case(std::size_t width, std::size_t height) {
    void* p = reinterpret_cast<void*>(1);
    std::size_t pitch = 12345;
    const cudaError_t returned = cudaMallocPitch(&p, &pitch, width, height);
    std::printf("cudaMallocPitch width %5zu height %zu returns %-24s pointer %s pitch %zu\n", width, height,
                cudaGetErrorName(returned),
                p == nullptr ? "null" : (p == reinterpret_cast<void*>(1) ? "unset" : "set"), pitch);
}

// A host-to-device copy of host_rows() into a pitched buffer, with the
// arguments `change` alters.
struct CopyArguments {
    std::size_t dpitch, spitch, width, height;
    cudaMemcpyKind kind;
    bool null_destination;
};

template <class Change>
void copy_case(const char* what, bool async, Change change) {
    Pitched buffer;
    const std::vector<unsigned char> source = host_rows();
    CopyArguments a{buffer.pitch, kWidth, kWidth, kRows, cudaMemcpyHostToDevice, false};
    change(a, buffer.pitch);
    void* dst = a.null_destination ? nullptr : buffer.device;
    const cudaError_t returned =
        async ? cudaMemcpy2DAsync(dst, a.dpitch, source.data(), a.spitch, a.width, a.height, a.kind, nullptr)
              : cudaMemcpy2D(dst, a.dpitch, source.data(), a.spitch, a.width, a.height, a.kind);
    char line[96];
    std::snprintf(line, sizeof line, "%s %s", async ? "cudaMemcpy2DAsync" : "cudaMemcpy2D", what);
    report(line, returned, buffer.what_arrived(source, a.height));
}

struct SetArguments {
    std::size_t pitch, width, height;
};

template <class Change>
void memset_case(const char* what, bool async, Change change) {
    Pitched buffer;
    SetArguments a{buffer.pitch, kWidth, kRows};
    change(a, buffer.pitch);
    const cudaError_t returned =
        async ? cudaMemset2DAsync(buffer.device, a.pitch, 0x5c, a.width, a.height, nullptr)
              : cudaMemset2D(buffer.device, a.pitch, 0x5c, a.width, a.height);
    char line[96];
    std::snprintf(line, sizeof line, "%s %s", async ? "cudaMemset2DAsync" : "cudaMemset2D", what);
    report(line, returned, buffer.what_arrived(std::vector<unsigned char>(kWidth * kRows, 0x5c), a.height));
}

// A pitched copy from device to host and between two pitched buffers.
void round_trip_case() {
    Pitched a, b;
    const std::vector<unsigned char> source = host_rows();
    cudaMemcpy2D(a.device, a.pitch, source.data(), kWidth, kWidth, kRows, cudaMemcpyHostToDevice);
    const cudaError_t copied =
        cudaMemcpy2D(b.device, b.pitch, a.device, a.pitch, kWidth, kRows, cudaMemcpyDeviceToDevice);
    report("cudaMemcpy2D DeviceToDevice, pitched to pitched", copied, b.what_arrived(source, kRows));
    std::vector<unsigned char> back(kWidth * kRows, 0);
    const cudaError_t returned =
        cudaMemcpy2D(back.data(), kWidth, b.device, b.pitch, kWidth, kRows, cudaMemcpyDeviceToHost);
    report("cudaMemcpy2D DeviceToHost, pitched to packed", returned,
           back == source ? "rows written" : "other bytes");
    void* pageable = std::malloc(kWidth * kRows);
    report("cudaMemset2D on pageable host memory", cudaMemset2D(pageable, kWidth, 0, kWidth, kRows), "-");
}

int main() {
    in_a_process("device", [] {
        cudaDeviceProp p{};
        cudaGetDeviceProperties(&p, 0);
        int alignment = 0, max_pitch = 0;
        cudaDeviceGetAttribute(&alignment, cudaDevAttrTexturePitchAlignment, 0);
        cudaDeviceGetAttribute(&max_pitch, cudaDevAttrMaxPitch, 0);
        std::printf("%s: texturePitchAlignment %d (prop %zu), memPitch %zu (attribute %d)\n", p.name,
                    alignment, p.texturePitchAlignment, p.memPitch, max_pitch);
    });
    const std::size_t shapes[][2] = {{1, 1},    {100, 3},  {512, 3}, {513, 3}, {1000, 7},
                                     {4096, 2}, {5000, 2}, {0, 3},   {100, 0}, {0, 0}};
    for (const auto& shape : shapes) in_a_process("cudaMallocPitch", [&] { pitch_case(shape[0], shape[1]); });
    in_a_process("cudaMallocPitch null pitch", [] {
        void* p = nullptr;
        std::printf("cudaMallocPitch with a null pitch returns %s\n",
                    cudaGetErrorName(cudaMallocPitch(&p, nullptr, 100, 3)));
    });
    for (bool async : {false, true}) {
        const auto copy = [async](const char* what, auto change) {
            in_a_process(what, [&] { copy_case(what, async, change); });
        };
        copy("HostToDevice, as allocated", [](CopyArguments&, std::size_t) {});
        copy("width past dpitch",
             [](CopyArguments& a, std::size_t pitch) { a.width = pitch + 1, a.spitch = pitch + 1; });
        copy("width past spitch", [](CopyArguments& a, std::size_t) { a.spitch = kWidth - 1; });
        copy("height 0", [](CopyArguments& a, std::size_t) { a.height = 0; });
        copy("width 0", [](CopyArguments& a, std::size_t) { a.width = 0; });
        copy("width 0, dpitch 0", [](CopyArguments& a, std::size_t) { a.width = 0, a.dpitch = 0; });
        copy("height 1, dpitch 0", [](CopyArguments& a, std::size_t) { a.height = 1, a.dpitch = 0; });
        copy("height 1, spitch 0", [](CopyArguments& a, std::size_t) { a.height = 1, a.spitch = 0; });
        copy("height 1, dpitch = width",
             [](CopyArguments& a, std::size_t) { a.height = 1, a.dpitch = kWidth; });
        copy("one row past the allocation", [](CopyArguments& a, std::size_t) { a.height = kRows + 1; });
        copy("dpitch past the maximum pitch",
             [](CopyArguments& a, std::size_t) { a.dpitch = std::size_t{1} << 40; });
        copy("kind DeviceToHost", [](CopyArguments& a, std::size_t) { a.kind = cudaMemcpyDeviceToHost; });
        copy("kind Default", [](CopyArguments& a, std::size_t) { a.kind = cudaMemcpyDefault; });
        copy("kind 7", [](CopyArguments& a, std::size_t) { a.kind = cudaMemcpyKind(7); });
        copy("null destination", [](CopyArguments& a, std::size_t) { a.null_destination = true; });

        const auto set = [async](const char* what, auto change) {
            in_a_process(what, [&] { memset_case(what, async, change); });
        };
        set("as allocated", [](SetArguments&, std::size_t) {});
        set("width past pitch", [](SetArguments& a, std::size_t pitch) { a.width = pitch + 1; });
        set("height 0", [](SetArguments& a, std::size_t) { a.height = 0; });
        set("height 1, width past pitch",
            [](SetArguments& a, std::size_t pitch) { a.height = 1, a.width = pitch + 1; });
        set("width 0", [](SetArguments& a, std::size_t) { a.width = 0; });
        set("one row past the allocation", [](SetArguments& a, std::size_t) { a.height = kRows + 1; });
        set("pitch past the maximum pitch",
            [](SetArguments& a, std::size_t) { a.pitch = std::size_t{1} << 40; });
    }
    in_a_process("round trip", round_trip_case);
    return 0;
}
