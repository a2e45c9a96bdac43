// A grade's reports: JUnit XML (GitHub Classroom, CI systems), Gradescope's
// results.json, our own grade.json with everything, and passed.txt.
// tests/grading/ holds the schemas they are tested against.
#include <fmt/core.h>
#include <toml++/toml.h>

#include <fstream>

#include "grading.h"
#include "text.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// Bytes that are not UTF-8 (a learner's file may hold any) become '?'; the
// reports are UTF-8 text.
std::string valid_utf8(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const std::size_t length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xe ? 3 : (byte >> 3) == 0x1e ? 4 : 0;
        bool whole = length > 0 && i + length <= text.size();
        for (std::size_t k = 1; whole && k < length; ++k) whole = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
        if (whole) {
            out.append(text, i, length);
            i += length;
        } else {
            out += '?';
            ++i;
        }
    }
    return out;
}

std::string xml_escape(const std::string& text) {
    std::string escaped;
    for (char c : valid_utf8(text)) {
        switch (c) {
            case '&': escaped += "&amp;"; break;
            case '<': escaped += "&lt;"; break;
            case '>': escaped += "&gt;"; break;
            case '"': escaped += "&quot;"; break;
            default:
                // XML 1.0 has no other control characters.
                if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') escaped += c;
        }
    }
    return escaped;
}

// "lesson 3 (sequential addressing), kernel"
std::string display_name(const GradedTest& test) {
    return fmt::format("lesson {} ({}), {}", test.lesson, test.lesson_title, to_string(test.part));
}

// What a grade was graded against and on, in a sentence or two.
std::string provenance(const Grade& grade) {
    if (grade.reference.empty())
        return messages::text(
            "report.own_checks",
            {{"backend", grade.backend}, {"seed", grade.base_seed}, {"sandbox", grade.sandbox}});
    return messages::text("report.against", {{"reference", grade.reference},
                                             {"backend", grade.backend},
                                             {"seed", grade.base_seed},
                                             {"sandbox", grade.sandbox}});
}

// Everything about the submission as a whole that is not a test.
std::string submission_notes(const Grade& grade) {
    std::string text;
    for (const std::string& note : grade.notes)
        text += messages::text("report.note", {{"note", note}}) + "\n";
    if (!grade.changed_files.empty()) {
        text += messages::text("report.changed_files") + "\n";
        for (const std::string& change : grade.changed_files) text += "  " + change + "\n";
    }
    return text;
}

// A test's text for a reader: its verdict, why, and how to run it again.
std::string test_output(const GradedTest& test) {
    std::string text = to_string(test.verdict);
    const auto end = test.message.find_last_not_of(" \n");
    if (end != std::string::npos) text += "\n\n" + test.message.substr(0, end + 1);
    if (!test.replay.empty()) text += "\n\n" + messages::text("report.replay", {{"command", test.replay}});
    return valid_utf8(text);
}

void write_junit(const Grade& grade, const fs::path& file) {
    int failures = 0;
    int errors = 0;
    int skipped = 0;
    double seconds = 0;
    for (const GradedTest& test : grade.tests) {
        failures += test.verdict == Verdict::fail;
        skipped += test.verdict == Verdict::skipped;
        errors += test.verdict != Verdict::fail && test.verdict != Verdict::pass && test.verdict != Verdict::skipped;
        seconds += test.seconds;
    }
    std::ofstream xml(file);
    const std::string counts = fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\"", grade.tests.size(), failures, errors);
    xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << fmt::format("<testsuites name=\"warpdrill\" {} time=\"{:.3f}\">\n", counts, seconds)
        << fmt::format("  <testsuite name=\"warpdrill\" {} skipped=\"{}\" time=\"{:.3f}\" timestamp=\"{}\">\n", counts,
                       skipped, seconds, utc_time("%Y-%m-%dT%H:%M:%S"))
        << "    <properties>\n";
    const std::vector<std::pair<std::string, std::string>> properties = {
        {"learner", grade.learner},
        {"backend", grade.backend},
        {"reference", grade.reference},
        {"sandbox", grade.sandbox},
        {"base_seed", std::to_string(grade.base_seed)},
        {"points", fmt::format("{:g}", grade.points())},
        {"max_points", fmt::format("{:g}", grade.max_points())}};
    for (const auto& [name, value] : properties)
        xml << fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", name, xml_escape(value));
    xml << "    </properties>\n";
    for (const GradedTest& test : grade.tests) {
        xml << fmt::format("    <testcase classname=\"warpdrill.{}\" name=\"{}\" time=\"{:.3f}\"", test.lesson_name,
                           to_string(test.part), test.seconds);
        if (test.verdict == Verdict::pass) {
            xml << "/>\n";
            continue;
        }
        if (test.verdict == Verdict::skipped) {
            xml << fmt::format(">\n      <skipped message=\"{}\"/>\n    </testcase>\n", xml_escape(test.message));
            continue;
        }
        // JUnit's failure is a check that failed; error, anything that kept the checks from judging.
        const char* element = test.verdict == Verdict::fail ? "failure" : "error";
        xml << fmt::format(">\n      <{} type=\"{}\" message=\"{}\">{}</{}>\n    </testcase>\n", element,
                           to_string(test.verdict), xml_escape(headline(test)), xml_escape(test_output(test)), element);
    }
    xml << fmt::format("    <system-out>{}</system-out>\n", xml_escape(provenance(grade) + "\n" + submission_notes(grade)))
        << "  </testsuite>\n</testsuites>\n";
}

void write_json_file(const toml::table& table, const fs::path& file) {
    std::ofstream out(file);
    // Seconds and points to a few digits, not to the last bit.
    out << toml::json_formatter{table, toml::json_formatter::default_flags | toml::format_flags::relaxed_float_precision}
        << "\n";
}

// Gradescope's results.json: https://gradescope-autograders.readthedocs.io/en/latest/specs/
void write_gradescope(const Grade& grade, const fs::path& file) {
    toml::array tests;
    for (const GradedTest& test : grade.tests) {
        toml::table entry{{"name", display_name(test)},
                          {"number", fmt::format("{}.{}", test.lesson, test.part == Part::kernel ? 1 : 2)},
                          {"score", test.points},
                          {"max_score", test.max_points},
                          {"output", test_output(test)},
                          {"tags", toml::array{test.lesson_name, to_string(test.part)}}};
        // A skipped test (0 of 0 points) neither passed nor failed: Gradescope shows it without a status.
        if (test.verdict != Verdict::skipped) entry.insert("status", test.verdict == Verdict::pass ? "passed" : "failed");
        tests.push_back(std::move(entry));
    }
    // What the submission's code ran in, where Gradescope keeps what it does not read itself.
    const toml::table results{{"execution_time", static_cast<std::int64_t>(grade.seconds + 0.5)},
                              {"output", valid_utf8(provenance(grade) + "\n" + submission_notes(grade))},
                              {"extra_data", toml::table{{"sandbox", grade.sandbox}}},
                              {"tests", std::move(tests)}};
    write_json_file(results, file);
}

toml::array string_array(const std::vector<std::string>& strings) {
    toml::array array;
    for (const std::string& text : strings) array.push_back(valid_utf8(text));
    return array;
}

void write_json(const Grade& grade, const fs::path& file) {
    toml::array tests;
    for (const GradedTest& test : grade.tests) {
        tests.push_back(toml::table{{"id", test.id()},
                                    {"lesson", static_cast<std::int64_t>(test.lesson)},
                                    {"lesson_name", test.lesson_name},
                                    {"title", test.lesson_title},
                                    {"part", to_string(test.part)},
                                    {"status", to_string(test.verdict)},
                                    {"points", test.points},
                                    {"max_points", test.max_points},
                                    {"seconds", test.seconds},
                                    {"first_line", valid_utf8(headline(test))},
                                    {"message", valid_utf8(test.message)},
                                    {"replay", test.replay}});
    }
    const toml::table json{{"learner", grade.learner},
                           {"backend", grade.backend},
                           {"reference", grade.reference},
                           {"sandbox", grade.sandbox},
                           // A string: JSON readers keep integers exact only to 2^53.
                           {"base_seed", std::to_string(grade.base_seed)},
                           {"points", grade.points()},
                           {"max_points", grade.max_points()},
                           {"seconds", grade.seconds},
                           {"changed_files", string_array(grade.changed_files)},
                           {"notes", string_array(grade.notes)},
                           {"tests", std::move(tests)}};
    write_json_file(json, file);
}

}  // namespace

void write_reports(const Grade& grade, const fs::path& dir) {
    fs::create_directories(dir);
    write_junit(grade, dir / "grade.xml");
    write_gradescope(grade, dir / "results.json");
    write_json(grade, dir / "grade.json");
    std::ofstream passed(dir / "passed.txt");
    for (const GradedTest& test : grade.tests)
        if (test.verdict == Verdict::pass) passed << test.id() << "\n";
}

}  // namespace warpdrill::runner
