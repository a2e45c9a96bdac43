// The CPU backend's warnings (backend.h: take_warnings). Internal.
#pragma once

#include <string>

namespace warpdrill::cpu::detail {

// Records `message`, unless a warning with the same `key` (its kind and
// source line) was recorded before.
void warn(const std::string& key, const std::string& message);

}  // namespace warpdrill::cpu::detail
