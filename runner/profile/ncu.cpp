#include "ncu.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <fstream>

#include "process.h"
#include "text.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// ncu's CSV (a row per launch and metric) as {kernel, metric -> value} for
// each launch in order. ncu's own "==PROF==" lines do not have its columns.
std::vector<std::pair<std::string, std::map<std::string, double>>> read_ncu_csv(const fs::path& file) {
    std::vector<std::pair<std::string, std::map<std::string, double>>> launches;
    std::ifstream in(file);
    std::vector<std::string> columns;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> fields = split_csv(line);
        if (columns.empty()) {
            if (std::ranges::find(fields, "Metric Name") != fields.end()) columns = std::move(fields);
            continue;
        }
        if (fields.size() != columns.size()) continue;
        std::map<std::string, std::string> field;
        for (std::size_t c = 0; c < columns.size(); ++c) field[columns[c]] = fields[c];
        const std::optional<double> id = cell_value(field["ID"]);
        if (!id || *id < 0) continue;
        const auto launch = static_cast<std::size_t>(*id);
        if (launches.size() <= launch) launches.resize(launch + 1);
        std::string value = field["Metric Value"];
        std::erase(value, ',');
        launches[launch].first = field["Kernel Name"];
        if (const auto number = cell_value(value)) launches[launch].second[field["Metric Name"]] = *number;
    }
    return launches;
}

// "NVIDIA H100 80GB HBM3", or nothing where nvidia-smi cannot say.
std::string gpu_name() {
    const ProcessResult smi = run_process(
        {"nvidia-smi", "--query-gpu=name", "--format=csv,noheader", "--id=0"}, std::chrono::seconds(30));
    if (smi.exit_code != 0) return "";
    std::string name = smi.output.substr(0, smi.output.find('\n'));
    return name;
}

std::string joined(const std::vector<std::string>& words, const std::string& separator) {
    std::string text;
    for (const std::string& word : words) text += (text.empty() ? "" : separator) + word;
    return text;
}

}  // namespace

const std::map<std::string, double>* NcuTable::launch(int lesson, int number) const {
    const auto found = metrics.find({lesson, number});
    return found == metrics.end() ? nullptr : &found->second;
}

std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.push_back(field);
            field.clear();
        } else {
            field += c;
        }
    }
    fields.push_back(field);
    return fields;
}

std::optional<double> cell_value(const std::string& text) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    return error == std::errc{} && stop == end && !text.empty() ? std::optional(value) : std::nullopt;
}

std::optional<NcuTable> read_ncu_table(const fs::path& file) {
    std::ifstream in(file);
    if (!in) return std::nullopt;
    NcuTable table;
    const auto header = [](const std::string& line, const char* name) {
        const std::string prefix = std::string("# ") + name + ": ";
        return line.starts_with(prefix) ? std::optional(line.substr(prefix.size())) : std::nullopt;
    };
    std::vector<std::string> columns;  // lesson,launch,kernel, then one per metric
    for (std::string line; std::getline(in, line);) {
        if (const auto device = header(line, "device")) table.device = *device;
        if (const auto date = header(line, "date")) table.date = *date;
        if (const auto command = header(line, "command")) table.command = *command;
        if (line.empty() || line.starts_with("#")) continue;
        std::vector<std::string> fields = split_csv(line);
        if (columns.empty()) {
            columns = std::move(fields);
            continue;
        }
        const std::optional<double> lesson = fields.size() >= 3 ? cell_value(fields[0]) : std::nullopt;
        const std::optional<double> launch = fields.size() >= 3 ? cell_value(fields[1]) : std::nullopt;
        if (!lesson || !launch) continue;
        const std::pair key{static_cast<int>(*lesson), static_cast<int>(*launch)};
        table.kernels[key] = fields[2];
        for (std::size_t c = 3; c < fields.size() && c < columns.size(); ++c) {
            if (const auto number = cell_value(fields[c])) table.metrics[key][columns[c]] = *number;
        }
    }
    table.source = messages::text("profile.ncu.source_table",
                                  {{"device", table.device}, {"date", table.date}, {"command", table.command}});
    return table;
}

NcuRun run_ncu(const NcuRequest& request) {
    fs::remove(request.log);
    // --clock-control none: the GPU runs at its own clocks, as the course's
    // other measurements do (ncu would otherwise lock them to base).
    std::vector<std::string> argv = {"ncu",
                                     "--csv",
                                     "--print-units",
                                     "base",
                                     "--print-kernel-base",
                                     "function",
                                     "--clock-control",
                                     "none",
                                     "--metrics",
                                     joined(request.metrics, ","),
                                     "--log-file",
                                     request.log.string()};
    argv.insert(argv.end(), request.program.begin(), request.program.end());
    const ProcessResult run = run_process(argv, request.time_limit);
    const auto problem = [](std::string why) {
        return NcuRun{.table = std::nullopt, .problem = std::move(why)};
    };
    if (run.exit_code == 127)
        return problem(messages::text("profile.ncu.not_found"));
    if (run.output.find("ERR_NVGPUCTRPERM") != std::string::npos)
        return problem(messages::text("profile.ncu.no_permission"));
    const auto launches = read_ncu_csv(request.log);
    if (run.exit_code != 0 || run.timed_out || launches.empty())
        return problem(messages::text("profile.ncu.failed", {{"lesson", request.lesson}}) + "\n" + run.output);
    NcuTable table;
    table.device = gpu_name();
    table.date = utc_time("%Y-%m-%d");
    table.command = messages::text("profile.ncu.command", {{"program", joined(request.program, " ")}});
    table.source = table.device.empty()
                       ? messages::text("profile.ncu.source_now", {{"what", request.what}, {"command", table.command}})
                       : messages::text("profile.ncu.source_now_on", {{"what", request.what},
                                                                      {"device", table.device},
                                                                      {"command", table.command}});
    for (std::size_t l = 0; l < launches.size(); ++l) {
        const std::pair key{request.lesson, static_cast<int>(l) + 1};
        table.kernels[key] = launches[l].first;
        table.metrics[key] = launches[l].second;
    }
    return {.table = std::move(table), .problem = ""};
}

}  // namespace warpdrill::runner
