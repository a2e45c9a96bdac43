// NVTX on the CPU backend: the annotations a program makes for a profiler
// (ranges, marks, names), which do nothing here, as they do on a GPU when no
// tool is attached: a push or pop answers NVTX_NO_PUSH_POP_TRACKING, a range
// started answers 0, a domain or string registered is null (what NVTX 3
// answers without a tool; results/nvtx-h200.txt). Nsight's tools are not
// here: warpdrill profile counts a lesson's kernels itself. Not here: NVTX's
// resources, counters, payloads and the C++ API (nvtx3.hpp).
#pragma once

#include <cstdint>
#include <cwchar>

#define NVTX_VERSION 3
#define NVTX_NO_PUSH_POP_TRACKING (static_cast<int>(-2))

using nvtxRangeId_t = std::uint64_t;
using nvtxDomainHandle_t = struct nvtxDomainRegistration_st*;
using nvtxStringHandle_t = struct nvtxStringRegistration_st*;

enum nvtxColorType_t { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 };
enum nvtxMessageType_t {
    NVTX_MESSAGE_UNKNOWN = 0,
    NVTX_MESSAGE_TYPE_ASCII = 1,
    NVTX_MESSAGE_TYPE_UNICODE = 2,
    NVTX_MESSAGE_TYPE_REGISTERED = 3,
};
enum nvtxPayloadType_t {
    NVTX_PAYLOAD_UNKNOWN = 0,
    NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
    NVTX_PAYLOAD_TYPE_INT64 = 2,
    NVTX_PAYLOAD_TYPE_DOUBLE = 3,
    NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
    NVTX_PAYLOAD_TYPE_INT32 = 5,
    NVTX_PAYLOAD_TYPE_FLOAT = 6,
};

union nvtxMessageValue_t {
    const char* ascii;
    const wchar_t* unicode;
    nvtxStringHandle_t registered;
};

// NVTX 3's event attributes, every field in its order.
struct nvtxEventAttributes_v2 {
    std::uint16_t version;
    std::uint16_t size;
    std::uint32_t category;
    std::int32_t colorType;
    std::uint32_t color;
    std::int32_t payloadType;
    std::int32_t reserved0;
    union payload_t {
        std::uint64_t ullValue;
        std::int64_t llValue;
        double dValue;
        std::uint32_t uiValue;
        std::int32_t iValue;
        float fValue;
    } payload;
    std::int32_t messageType;
    nvtxMessageValue_t message;
};
using nvtxEventAttributes_t = nvtxEventAttributes_v2;
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE (static_cast<std::uint16_t>(sizeof(nvtxEventAttributes_t)))

inline void nvtxInitialize(const void*) {}

inline void nvtxMarkEx(const nvtxEventAttributes_t*) {}
inline void nvtxMarkA(const char*) {}
inline void nvtxMarkW(const wchar_t*) {}
inline nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t*) { return 0; }
inline nvtxRangeId_t nvtxRangeStartA(const char*) { return 0; }
inline nvtxRangeId_t nvtxRangeStartW(const wchar_t*) { return 0; }
inline void nvtxRangeEnd(nvtxRangeId_t) {}
inline int nvtxRangePushEx(const nvtxEventAttributes_t*) { return NVTX_NO_PUSH_POP_TRACKING; }
inline int nvtxRangePushA(const char*) { return NVTX_NO_PUSH_POP_TRACKING; }
inline int nvtxRangePushW(const wchar_t*) { return NVTX_NO_PUSH_POP_TRACKING; }
inline int nvtxRangePop() { return NVTX_NO_PUSH_POP_TRACKING; }
inline void nvtxNameCategoryA(std::uint32_t, const char*) {}
inline void nvtxNameCategoryW(std::uint32_t, const wchar_t*) {}
inline void nvtxNameOsThreadA(std::uint32_t, const char*) {}
inline void nvtxNameOsThreadW(std::uint32_t, const wchar_t*) {}

inline nvtxDomainHandle_t nvtxDomainCreateA(const char*) { return nullptr; }
inline nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t*) { return nullptr; }
inline void nvtxDomainDestroy(nvtxDomainHandle_t) {}
inline void nvtxDomainMarkEx(nvtxDomainHandle_t, const nvtxEventAttributes_t*) {}
inline nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t, const nvtxEventAttributes_t*) { return 0; }
inline void nvtxDomainRangeEnd(nvtxDomainHandle_t, nvtxRangeId_t) {}
inline int nvtxDomainRangePushEx(nvtxDomainHandle_t, const nvtxEventAttributes_t*) {
    return NVTX_NO_PUSH_POP_TRACKING;
}
inline int nvtxDomainRangePop(nvtxDomainHandle_t) { return NVTX_NO_PUSH_POP_TRACKING; }
inline void nvtxDomainNameCategoryA(nvtxDomainHandle_t, std::uint32_t, const char*) {}
inline void nvtxDomainNameCategoryW(nvtxDomainHandle_t, std::uint32_t, const wchar_t*) {}
inline nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t, const char*) { return nullptr; }
inline nvtxStringHandle_t nvtxDomainRegisterStringW(nvtxDomainHandle_t, const wchar_t*) { return nullptr; }

// The names without A or W are the ASCII ones, as NVTX defines them without UNICODE.
#define nvtxMark nvtxMarkA
#define nvtxRangeStart nvtxRangeStartA
#define nvtxRangePush nvtxRangePushA
#define nvtxNameCategory nvtxNameCategoryA
#define nvtxNameOsThread nvtxNameOsThreadA
#define nvtxDomainCreate nvtxDomainCreateA
#define nvtxDomainRegisterString nvtxDomainRegisterStringA
#define nvtxDomainNameCategory nvtxDomainNameCategoryA
