// The CPU backend's warnings (backend.h: take_warnings). Internal.
#pragma once

#include <functional>
#include <string>

namespace warpdrill::cpu::detail {

// Records the warning `message()` makes, unless one with the same `key` (its
// kind and place) was recorded before: a warning a loop meets a million
// times costs its text (source lines looked up) once.
void warn(const std::string& key, const std::function<std::string()>& message);

}  // namespace warpdrill::cpu::detail
