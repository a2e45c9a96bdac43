#include "check_record.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "warpdrill/check_record.h"

namespace warpdrill::runner {
namespace {

namespace key = warpdrill::check_record;
using nlohmann::json;

CaseRecord case_of(const json& line) {
    CaseRecord record;
    record.name = line.at(key::kName).get<std::string>();
    record.lesson = line.at(key::kLesson).get<int>();
    record.passed = line.at(key::kPassed).get<bool>();
    record.failures = line.at(key::kFailures).get<std::vector<std::string>>();
    record.warnings = line.at(key::kWarnings).get<std::vector<std::string>>();
    record.skipped = line.at(key::kSkipped).get<std::string>();
    return record;
}

void read_line(const json& line, CheckRecord& record) {
    const std::string event = line.at(key::kEvent).get<std::string>();
    if (event == key::kCaseEvent) {
        record.cases.push_back(case_of(line));
    } else if (event == key::kNoMatchEvent) {
        record.matched_nothing = true;
    } else if (event == key::kEndEvent) {
        record.finished = true;
        record.backend = line.at(key::kBackend).get<std::string>();
        record.failed_cases = line.at(key::kCases).at(key::kFailed).get<int>();
    } else {
        throw std::runtime_error("an unknown event");
    }
}

// Paragraphs, one an entry, each ending in one line break.
std::string paragraphs(const std::vector<std::string>& entries) {
    std::string text;
    for (const std::string& entry : entries) {
        if (entry.empty()) continue;
        if (!text.empty()) text += "\n";
        text += entry;
        if (!entry.ends_with('\n')) text += "\n";
    }
    return text;
}

}  // namespace

const CaseRecord* CheckRecord::first_failed() const {
    for (const CaseRecord& record : cases)
        if (!record.passed) return &record;
    return nullptr;
}

std::string CheckRecord::warnings() const {
    std::vector<std::string> all;
    for (const CaseRecord& record : cases) all.insert(all.end(), record.warnings.begin(), record.warnings.end());
    return paragraphs(all);
}

std::string CheckRecord::skip_reasons() const {
    std::vector<std::string> all;
    for (const CaseRecord& record : cases) all.push_back(record.skipped);
    return paragraphs(all);
}

CheckRecord read_check_record(const std::filesystem::path& path) {
    CheckRecord record;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        try {
            read_line(json::parse(line), record);
        } catch (const std::exception&) {
            // A line cut short by a crash, or one that is not the reporter's: what follows is not trusted.
            record.damage = line.substr(0, 200);
            record.finished = false;
            break;
        }
    }
    return record;
}

}  // namespace warpdrill::runner
