// clock64() and clock() in a kernel: the SM's cycle counter, which the
// backend keeps as the time since the program began in cycles of the
// imitated GPU's clock (device.h).
#include <chrono>
#include <ctime>

#include "device.h"
#include "scheduler.h"

namespace {
const auto program_start = std::chrono::steady_clock::now();
}  // namespace

long long clock64() {
    const auto elapsed = std::chrono::steady_clock::now() - program_start;
    const long long nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count();
    return nanoseconds * (warpdrill::cpu::detail::kClockKhz / 1000) / 1000;  // no overflow for 53 days
}

namespace warpdrill::cpu::detail {
clock_t program_clock() {
    if (!running_block()) return std::clock();
    return static_cast<clock_t>(static_cast<unsigned>(clock64()));
}
}  // namespace warpdrill::cpu::detail
