#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "warpdrill/host.h"
#include "warpdrill/messages.h"
#include "warpdrill/testing.h"

namespace warpdrill {

namespace {
std::string where_text(const std::source_location& where) {
    return std::string(where.file_name()) + ":" + std::to_string(where.line());
}

const char* backend_message() { return cpu_backend ? "checks.backend_name.cpu" : "checks.backend_name.gpu"; }
}  // namespace

std::string number_text(double value) {
    if (std::isnan(value)) return "NaN";  // the sign of a NaN means nothing to a reader
    char text[64];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

std::string stream_text(double value, int precision) {
    std::ostringstream text;
    text.precision(precision);
    text << value;
    return text.str();
}

std::string describe_seed(std::uint64_t seed) { return messages::text("checks.seed", {{"seed", seed}}); }

std::string counted(std::uint64_t count, const char* one, const char* many) {
    return messages::text(count == 1 ? one : many, {{"count", count}});
}

std::string describe_order_dependence(const std::string& difference) {
    return messages::text("checks.order_dependence", {{"difference", difference}});
}

void check_cuda(cudaError_t result, const std::source_location& where) {
    if (result == cudaSuccess) return;
    throw CudaError(result, where_text(where) + ": " + cudaGetErrorName(result) + " (" +
                                cudaGetErrorString(result) + ")");
}

void check_launch(const std::source_location& where) {
    check_cuda(cudaGetLastError(), where);
    check_cuda(cudaDeviceSynchronize(), where);
}

int multiprocessor_count() {
    int device = 0;
    check_cuda(cudaGetDevice(&device));
    int count = 0;
    check_cuda(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
}

const char* backend_id() { return cpu_backend ? "cpu" : "gpu"; }

std::string describe_backend() {
    return messages::text("checks.backend", {{"backend", messages::text(backend_message())}});
}

std::vector<std::string> backend_warnings() {
#if defined(WARPDRILL_BACKEND_CPU)
    return cpu::take_warnings();
#else
    return {};
#endif
}

namespace {
std::string skip_reason;  // the reporter runs on the main thread, as do the checks
}  // namespace

void note_skip(const std::string& reason) { skip_reason = reason; }

std::string take_skip_reason() { return std::exchange(skip_reason, {}); }

std::optional<LaunchStats> last_launch_stats() {
#if defined(WARPDRILL_BACKEND_CPU)
    return cpu::last_launch_stats();
#else
    return std::nullopt;
#endif
}

std::optional<std::uint64_t> host_waits() {
#if defined(WARPDRILL_BACKEND_CPU)
    return cpu::host_waits();
#else
    return std::nullopt;
#endif
}

std::optional<Mismatch> first_mismatch(std::span<const float> got, std::span<const double> want,
                                       std::span<const double> tolerance) {
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (static_cast<double>(got[i]) == want[i]) continue;     // exact, infinities included
        if (std::isnan(want[i]) && std::isnan(got[i])) continue;  // NaN in, NaN out
        const double error = std::fabs(static_cast<double>(got[i]) - want[i]);
        if (!(error <= tolerance[i])) return Mismatch{i, got[i], want[i], tolerance[i]};
    }
    return std::nullopt;
}

std::optional<Mismatch> first_mismatch(std::span<const int> got, std::span<const int> want) {
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (got[i] != want[i])
            return Mismatch{i, static_cast<double>(got[i]), static_cast<double>(want[i]), 0.0};
    }
    return std::nullopt;
}

std::optional<Mismatch> reduce_scale_mismatch(std::span<const float> x, std::span<const float> y, int rows,
                                              int cols) {
    const auto width = static_cast<std::size_t>(cols);
    std::vector<double> want(width), tolerance(width);
    for (std::size_t row = 0; row < static_cast<std::size_t>(rows); ++row) {
        const std::span<const float> x_row = x.subspan(row * width, width);
        double abs_max = 0.0;
        for (float value : x_row) abs_max = std::fmax(abs_max, std::fabs(value));
        const double scale = abs_max > 0.0 ? 1.0 / abs_max : 0.0;
        for (std::size_t c = 0; c < width; ++c) {
            want[c] = x_row[c] * scale;
            tolerance[c] = 2.5 * FLT_EPSILON * std::fabs(want[c]) + 1e-30;
        }
        if (auto mismatch = first_mismatch(y.subspan(row * width, width), want, tolerance)) {
            mismatch->index += row * width;
            return mismatch;
        }
    }
    return std::nullopt;
}

std::string describe(const Mismatch& mismatch, const std::string& name) {
    if (mismatch.tolerance > 0 && std::isfinite(mismatch.got)) {
        return messages::text("checks.mismatch.off_by",
                              {{"array", name},
                               {"index", mismatch.index},
                               {"got", number_text(mismatch.got)},
                               {"want", number_text(mismatch.want)},
                               {"difference", number_text(std::fabs(mismatch.got - mismatch.want))},
                               {"tolerance", number_text(mismatch.tolerance)}});
    }
    return messages::text("checks.mismatch.value", {{"array", name},
                                                    {"index", mismatch.index},
                                                    {"got", number_text(mismatch.got)},
                                                    {"want", number_text(mismatch.want)}});
}

std::string likely_cause(const Mismatch& mismatch) {
    const float got = static_cast<float>(mismatch.got);
    if (std::bit_cast<std::uint32_t>(got) == 0xffffffffu) return messages::text("checks.cause.poison");
    if (std::isnan(got)) return messages::text("checks.cause.nan");
    return "";
}

std::string likely_cause_line(const std::string& cause) {
    return cause.empty() ? "" : "\n" + messages::text("checks.likely_cause", {{"cause", cause}});
}

}  // namespace warpdrill
