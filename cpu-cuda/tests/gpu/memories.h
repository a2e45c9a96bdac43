// The four kinds of memory a pointer may point into, as the probes name
// them, and a buffer of each.
#pragma once

#include <cstddef>
#include <cstdlib>

enum Memory { kPageable, kPinned, kDevice, kManaged };
constexpr const char* kMemoryNames[] = {"pageable", "pinned", "device", "managed"};

// `bytes` of `memory`, never freed: each probe's case runs in a process of its own.
inline void* allocate(Memory memory, std::size_t bytes) {
    void* p = nullptr;
    switch (memory) {
        case kPageable: p = std::malloc(bytes); break;
        case kPinned: cudaMallocHost(&p, bytes); break;
        case kDevice: cudaMalloc(&p, bytes); break;
        case kManaged: cudaMallocManaged(&p, bytes); break;
    }
    return p;
}
