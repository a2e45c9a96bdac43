// `warpdrill grade`: every lesson's checks, written as JUnit XML (for CI
// systems and graders) and JSON, one entry per lesson.
#include <fmt/core.h>

#include <fstream>

#include "commands.h"

namespace warpdrill::runner {
namespace {

std::string xml_escape(const std::string& text) {
    std::string escaped;
    for (char c : text) {
        switch (c) {
            case '&': escaped += "&amp;"; break;
            case '<': escaped += "&lt;"; break;
            case '>': escaped += "&gt;"; break;
            case '"': escaped += "&quot;"; break;
            default:
                if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') escaped += c;
        }
    }
    return escaped;
}

}  // namespace

std::string json_escape(const std::string& text) {
    std::string escaped;
    for (char c : text) {
        switch (c) {
            case '"': escaped += "\\\""; break;
            case '\\': escaped += "\\\\"; break;
            case '\n': escaped += "\\n"; break;
            case '\t': escaped += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20)
                    escaped += fmt::format("\\u{:04x}", static_cast<int>(c));
                else
                    escaped += c;
        }
    }
    return escaped;
}

int run_grade(App& app, const std::string& out_dir) {
    struct Graded {
        const Lesson* lesson;
        CheckResult result;
    };
    std::vector<Graded> graded;
    int failures = 0;
    double total_seconds = 0;
    for (const Lesson& lesson : app.course.lessons) {
        fmt::print("lesson {:>2} {:<40} ", lesson.number, lesson.title);
        std::fflush(stdout);
        CheckResult result = app.check(lesson);
        fmt::print("{} ({:.1f} s)\n", to_string(result.outcome), result.seconds);
        failures += result.outcome != Outcome::passed;
        total_seconds += result.seconds;
        graded.push_back({&lesson, std::move(result)});
    }

    const fs::path dir = fs::absolute(out_dir);
    fs::create_directories(dir);
    std::ofstream xml(dir / "grade.xml");
    xml << fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
        "<testsuite name=\"warpdrill\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n"
        "<properties><property name=\"backend\" value=\"{}\"/></properties>\n",
        graded.size(), failures, total_seconds, app.course.backend);
    std::ofstream json(dir / "grade.json");
    json << fmt::format("{{\n  \"backend\": \"{}\",\n  \"lessons\": [\n", app.course.backend);
    for (std::size_t i = 0; i < graded.size(); ++i) {
        const auto& [lesson, result] = graded[i];
        xml << fmt::format("<testcase classname=\"warpdrill.lessons\" name=\"{}\" time=\"{:.3f}\">",
                           lesson->name, result.seconds);
        if (result.outcome != Outcome::passed) {
            xml << fmt::format("<failure type=\"{}\" message=\"{}\">{}</failure>", to_string(result.outcome),
                               xml_escape(to_string(result.outcome)), xml_escape(result.message));
        }
        xml << "</testcase>\n";
        json << fmt::format(
            "    {{\"lesson\": {}, \"name\": \"{}\", \"status\": \"{}\", \"seconds\": {:.3f}, "
            "\"backend\": \"{}\", \"message\": \"{}\"}}{}\n",
            lesson->number, lesson->name, to_string(result.outcome), result.seconds, app.course.backend,
            json_escape(result.outcome == Outcome::passed ? "" : result.message),
            i + 1 < graded.size() ? "," : "");
    }
    xml << "</testsuite>\n</testsuites>\n";
    json << "  ]\n}\n";
    fmt::print("\n{} of {} lessons pass. Wrote {} and {}\n", graded.size() - failures, graded.size(),
               (dir / "grade.xml").string(), (dir / "grade.json").string());
    return failures == 0 ? 0 : 1;
}

}  // namespace warpdrill::runner
