// What the backend's diagnostic tests share: run a launch that should fault,
// and look for words in the message.
#pragma once

#include <chrono>
#include <string>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"

namespace warpdrill::testing {

// Runs `body` and returns the KernelFault's message, or "" if none.
template <class Body>
std::string fault_of(Body body) {
    const auto start = std::chrono::steady_clock::now();
    std::string message;
    try {
        body();
    } catch (const cpu::KernelFault& fault) {
        message = fault.what();
    }
    // A diagnostic must end the run promptly, never hang.
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    return message;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace warpdrill::testing
