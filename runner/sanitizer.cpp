#include "sanitizer.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "process.h"

namespace warpdrill::runner {
namespace {

// compute-sanitizer prefixes every line of its own with "========= ".
std::vector<std::string> report_lines(const std::string& report) {
    std::vector<std::string> lines;
    std::istringstream in(report);
    for (std::string line; std::getline(in, line);) {
        if (!line.starts_with("=========")) continue;
        const std::size_t text = line.find_first_not_of("= ");
        lines.push_back(text == std::string::npos ? "" : line.substr(text));
    }
    return lines;
}

// "at f(float *)+0xd0 in reduce.cuh:13" -> "reduce.cuh:13"; without line
// information (code built without -lineinfo) "at f(float *)+0xd0" -> "f".
std::string place_of(const std::string& line) {
    const std::size_t in = line.rfind(" in ");
    if (in != std::string::npos) return line.substr(in + 4);
    static const std::regex function(R"(at (?:\S+ )*?([A-Za-z_][\w:<>, ]*?)\()");
    std::smatch match;
    if (std::regex_search(line, match, function)) return match[1].str() + " (no line: built without -lineinfo)";
    return "an unknown place (build with -lineinfo)";
}

std::vector<std::string> read_memcheck(const std::vector<std::string>& lines) {
    static const std::regex invalid(R"(Invalid (__\w+__) (read|write) of size (\d+) bytes)");
    static const std::regex thread(R"(by thread (\(\d+,\d+,\d+\)) in block (\(\d+,\d+,\d+\)))");
    std::vector<std::string> findings;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch access;
        if (!std::regex_search(lines[i], access, invalid)) continue;
        const std::string space = access[1] == "__shared__" ? "shared memory" : access[1] == "__global__" ? "global memory" : "local memory";
        std::string text = "out-of-bounds " + access[2].str() + " of " + access[3].str() + " bytes to " + space;
        std::smatch who;
        if (i + 2 < lines.size() && std::regex_search(lines[i + 2], who, thread)) {
            text += " by thread " + who[1].str() + " of block " + who[2].str();
        }
        if (i + 1 < lines.size()) text += " at " + place_of(lines[i + 1]);
        findings.push_back(text);
    }
    return findings;
}

std::vector<std::string> read_racecheck(const std::vector<std::string>& lines) {
    static const std::regex first(R"(Race reported between (Read|Write) access (at .*))");
    static const std::regex other(R"(^and (Read|Write) access (at .*?)(?: \[(\d+) hazards\])?$)");
    std::vector<std::string> findings;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch race;
        if (!std::regex_search(lines[i], race, first)) continue;
        std::smatch partner;
        if (i + 1 >= lines.size() || !std::regex_search(lines[i + 1], partner, other)) continue;
        std::string text = "race on shared memory: a " + std::string(race[1] == "Read" ? "read" : "write") +
                           " at " + place_of(race[2].str()) + " and a " + (partner[1] == "Read" ? "read" : "write") +
                           " at " + place_of(partner[2].str()) + " that no barrier orders";
        if (partner[3].matched) text += " (" + partner[3].str() + " times)";
        // Each launch of the kernel reports the same race again: say it once.
        if (std::ranges::find(findings, text) == findings.end()) findings.push_back(text);
    }
    return findings;
}

std::vector<std::string> read_synccheck(const std::vector<std::string>& lines) {
    std::vector<std::string> findings;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find("Barrier error") == std::string::npos && lines[i].find("Invalid arguments") == std::string::npos) {
            continue;
        }
        std::string text = "a barrier misused: " + lines[i];
        if (i + 1 < lines.size() && lines[i + 1].starts_with("at ")) text += " at " + place_of(lines[i + 1]);
        findings.push_back(text);
    }
    return findings;
}

std::string find_compute_sanitizer() {
    for (const char* candidate : {"/usr/local/cuda/bin/compute-sanitizer", "/usr/bin/compute-sanitizer"}) {
        if (std::filesystem::exists(candidate)) return candidate;
    }
    if (const char* path = std::getenv("PATH")) {
        std::istringstream dirs(path);
        for (std::string dir; std::getline(dirs, dir, ':');) {
            const std::filesystem::path candidate = std::filesystem::path(dir) / "compute-sanitizer";
            if (std::filesystem::exists(candidate)) return candidate.string();
        }
    }
    return "";
}

}  // namespace

std::vector<std::string> read_sanitizer_report(const std::string& tool, const std::string& report) {
    const std::vector<std::string> lines = report_lines(report);
    if (tool == "memcheck") return read_memcheck(lines);
    if (tool == "racecheck") return read_racecheck(lines);
    if (tool == "synccheck") return read_synccheck(lines);
    return {};
}

std::vector<std::string> explain_with_sanitizer(const std::filesystem::path& check_program,
                                                std::chrono::seconds limit_per_tool) {
    const std::string sanitizer = find_compute_sanitizer();
    if (sanitizer.empty()) return {};
    std::vector<std::string> findings;
    for (const char* tool : {"memcheck", "racecheck", "synccheck"}) {
        const ProcessResult run = run_process(
            {sanitizer, "--tool", tool, "--print-limit", "4", check_program.string()}, limit_per_tool);
        for (std::string& finding : read_sanitizer_report(tool, run.output)) {
            findings.push_back("compute-sanitizer " + std::string(tool) + ": " + std::move(finding));
        }
        if (!findings.empty()) break;  // the first tool that finds something says enough
    }
    return findings;
}

}  // namespace warpdrill::runner
