#include "sanitizer.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <regex>
#include <sstream>

#include "process.h"
#include "warpdrill/messages.h"

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
    if (std::regex_search(line, match, function)) {
        return messages::text("sanitizer.place.no_line", {{"function", match[1].str()}});
    }
    return messages::text("sanitizer.place.unknown");
}

// " by thread (63,0,0) of block (0,0,0)" from the report's "by thread ... in block ..." line, or "".
std::string thread_of(const std::string& line) {
    static const std::regex thread(R"(by thread (\(\d+,\d+,\d+\)) in block (\(\d+,\d+,\d+\)))");
    std::smatch who;
    if (!std::regex_search(line, who, thread)) return "";
    return messages::text("sanitizer.by_thread", {{"thread", who[1].str()}, {"block", who[2].str()}});
}

// The report's line `i`, or "" past its end.
const std::string& line_at(const std::vector<std::string>& lines, std::size_t i) {
    static const std::string none;
    return i < lines.size() ? lines[i] : none;
}

// The first "Host Frame: main in prog.cu:7 [...]" after line `from` that names a file of the program's.
std::string host_place(const std::vector<std::string>& lines, std::size_t from) {
    static const std::regex frame(R"(Host Frame: \S+ in ([^\s\[]+:\d+))");
    for (std::size_t i = from + 1; i < lines.size() && !lines[i].empty(); ++i) {
        std::smatch match;
        if (std::regex_search(lines[i], match, frame)) return match[1].str();
    }
    return "";
}

// The place of a device access: its "at" line, or where that is a header (CUDA's
// atomicAdd), the first "Device Frame" below it in the program's own files.
std::string device_place(const std::vector<std::string>& lines, std::size_t at) {
    const std::string own = place_of(lines[at]);  // "file:line"
    if (own.find(".h:") == std::string::npos && own.find(".hpp:") == std::string::npos) return own;
    for (std::size_t i = at + 1; i < lines.size() && !lines[i].empty(); ++i) {
        if (lines[i].starts_with("Device Frame:")) {
            return messages::text("sanitizer.place.through", {{"place", place_of(lines[i])}, {"header", own}});
        }
    }
    return own;
}

// Every thread of a launch reports the same access again: the first names it.
// `say(thread)` words the access made by `thread`; said by no thread, it is
// the same for every thread that made it.
void add_once_per_line(std::vector<std::string>& findings, std::vector<std::string>& accesses,
                       const std::function<std::string(const std::string&)>& say, const std::string& thread) {
    std::string access = say("");
    if (std::ranges::find(accesses, access) != accesses.end()) return;
    accesses.push_back(std::move(access));
    findings.push_back(say(thread));
}

std::vector<std::string> read_memcheck(const std::vector<std::string>& lines) {
    static const std::regex invalid(R"(Invalid (__\w+__) (read|write) of size (\d+) bytes)");
    static const std::regex api(R"(Program hit (\w+) \(error (\d+)\) due to .* on CUDA API call to (\w+)\.)");
    static const std::regex leak(R"(Leaked (\d+) bytes at)");
    std::vector<std::string> findings;
    std::vector<std::string> accesses;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch match;
        if (std::regex_search(lines[i], match, invalid)) {
            const std::string space = messages::text(match[1] == "__shared__"   ? "sanitizer.space.shared"
                                                     : match[1] == "__global__" ? "sanitizer.space.global"
                                                                                : "sanitizer.space.local");
            const std::string access =
                messages::text(match[2] == "read" ? "sanitizer.access.read" : "sanitizer.access.write");
            const char* message = line_at(lines, i + 3).ends_with("is misaligned") ? "sanitizer.memcheck.misaligned"
                                                                                   : "sanitizer.memcheck.out_of_bounds";
            const std::string bytes = match[3].str();
            const std::string place = place_of(line_at(lines, i + 1));
            const auto say = [&](const std::string& thread) {
                return messages::text(message, {{"access", access},
                                                {"bytes", bytes},
                                                {"space", space},
                                                {"thread", thread},
                                                {"place", place}});
            };
            add_once_per_line(findings, accesses, say, thread_of(line_at(lines, i + 2)));
        } else if (std::regex_search(lines[i], match, api)) {
            // Errors from 700 on are a kernel's fault, met again by every later call: the access said it.
            if (std::stoi(match[2].str()) >= 700) continue;
            const std::string where = host_place(lines, i);
            findings.push_back(
                where.empty()
                    ? messages::text("sanitizer.memcheck.api", {{"call", match[3].str()}, {"error", match[1].str()}})
                    : messages::text("sanitizer.memcheck.api_at",
                                     {{"call", match[3].str()}, {"where", where}, {"error", match[1].str()}}));
        } else if (std::regex_search(lines[i], match, leak)) {
            const std::string where = host_place(lines, i);
            findings.push_back(where.empty()
                                   ? messages::text("sanitizer.memcheck.leak", {{"bytes", match[1].str()}})
                                   : messages::text("sanitizer.memcheck.leak_at",
                                                    {{"bytes", match[1].str()}, {"where", where}}));
        }
    }
    return findings;
}

std::vector<std::string> read_initcheck(const std::vector<std::string>& lines) {
    static const std::regex uninitialized(R"(Uninitialized (__\w+__) memory read of size (\d+) bytes)");
    std::vector<std::string> findings;
    std::vector<std::string> accesses;
    for (std::size_t i = 0; i + 2 < lines.size(); ++i) {
        std::smatch match;
        if (!std::regex_search(lines[i], match, uninitialized)) continue;
        const std::string bytes = match[2].str();
        const std::string place = device_place(lines, i + 1);
        const auto say = [&](const std::string& thread) {
            return messages::text("sanitizer.initcheck.read", {{"bytes", bytes}, {"thread", thread}, {"place", place}});
        };
        add_once_per_line(findings, accesses, say, thread_of(lines[i + 2]));
    }
    return findings;
}

// One race as racecheck reports it in each launch that has it, with that launch's count of hazards.
struct Race {
    std::string words;
    long long hazards = 0;
    int launches = 0;
};

std::string race_text(const Race& race) {
    if (race.hazards == 0) return race.words;
    if (race.launches == 1) return race.words + messages::text("sanitizer.racecheck.times", {{"count", race.hazards}});
    return race.words + messages::text("sanitizer.racecheck.times_in_launches",
                                       {{"count", race.hazards}, {"launches", race.launches}});
}

std::vector<std::string> read_racecheck(const std::vector<std::string>& lines) {
    static const std::regex first(R"(Race reported between (Read|Write) access (at .*))");
    static const std::regex other(R"(^and (Read|Write) access (at .*?)(?: \[(\d+) hazards\])?$)");
    std::vector<Race> races;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch race;
        if (!std::regex_search(lines[i], race, first)) continue;
        std::smatch partner;
        if (i + 1 >= lines.size() || !std::regex_search(lines[i + 1], partner, other)) continue;
        const auto access = [](const std::ssub_match& kind) {
            return messages::text(kind == "Read" ? "sanitizer.access.read" : "sanitizer.access.write");
        };
        const std::string words = messages::text("sanitizer.racecheck.race", {{"first", access(race[1])},
                                                                               {"first_place", place_of(race[2].str())},
                                                                               {"second", access(partner[1])},
                                                                               {"second_place", place_of(partner[2].str())}});
        // Each launch of the kernel reports the same race again: say it once, with the hazards of all.
        auto found = std::ranges::find(races, words, &Race::words);
        if (found == races.end()) found = races.insert(races.end(), Race{words});
        if (partner[3].matched) found->hazards += std::stoll(partner[3].str());
        ++found->launches;
    }
    std::vector<std::string> findings;
    for (const Race& race : races) findings.push_back(race_text(race));
    return findings;
}

std::vector<std::string> read_synccheck(const std::vector<std::string>& lines) {
    std::vector<std::string> findings;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find("Barrier error") == std::string::npos && lines[i].find("Invalid arguments") == std::string::npos) {
            continue;
        }
        const bool placed = line_at(lines, i + 1).starts_with("at ");
        findings.push_back(placed ? messages::text("sanitizer.synccheck.barrier_at",
                                                   {{"report", lines[i]}, {"place", place_of(lines[i + 1])}})
                                  : messages::text("sanitizer.synccheck.barrier", {{"report", lines[i]}}));
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
    if (tool == "initcheck") return read_initcheck(lines);
    return {};
}

std::vector<std::string> explain_with_sanitizer(const std::filesystem::path& check_program,
                                                std::chrono::seconds limit_per_tool) {
    const std::string sanitizer = find_compute_sanitizer();
    if (sanitizer.empty()) return {};
    std::vector<std::string> findings;
    for (const char* tool : {"memcheck", "initcheck", "racecheck", "synccheck"}) {
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
