#include "grading.h"

#include <fmt/core.h>
#include <toml++/toml.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <stdexcept>

#include "checker.h"
#include "text.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {

const char* to_string(Part part) { return part == Part::kernel ? "kernel" : "shuffle"; }

const char* to_string(Verdict verdict) {
    switch (verdict) {
        case Verdict::pass: return "pass";
        case Verdict::fail: return "fail";
        case Verdict::build_error: return "build error";
        case Verdict::time_out: return "time-out";
        case Verdict::crash: return "crash";
        case Verdict::missing: return "missing";
        case Verdict::skipped: return "skipped";
    }
    return "?";
}

std::string GradedTest::id() const { return lesson_name + "/" + to_string(part); }

double Grade::points() const {
    double sum = 0;
    for (const GradedTest& test : tests) sum += test.points;
    return sum;
}

double Grade::max_points() const {
    double sum = 0;
    for (const GradedTest& test : tests) sum += test.max_points;
    return sum;
}

bool Grade::all_passed() const {
    return std::ranges::all_of(tests, [](const GradedTest& test) {
        return test.verdict == Verdict::pass || test.verdict == Verdict::skipped;
    });
}

namespace {

std::optional<Part> part_named(std::string_view name) {
    if (name == "kernel") return Part::kernel;
    if (name == "shuffle") return Part::shuffle;
    return std::nullopt;
}

// Reads `kernel = ...` and `shuffle = ...` of one table into `points`; any other key is an error.
void read_part_points(const toml::table& table, const std::string& where, const std::set<std::string>& others,
                      std::map<Part, double>& points) {
    for (const auto& [key, value] : table) {
        const std::string name(key.str());
        if (others.contains(name)) continue;
        const std::optional<Part> part = part_named(name);
        if (!part)
            throw std::runtime_error(
                messages::text("grading.points.unknown_key", {{"where", where}, {"key", name}}));
        const std::optional<double> number = value.value<double>();
        if (!number || *number < 0)
            throw std::runtime_error(
                messages::text("grading.points.not_points", {{"where", where}, {"key", name}}));
        points[*part] = *number;
    }
}

}  // namespace

Points Points::read(const fs::path& file, const Course& course) {
    Points points;
    toml::table table;
    try {
        table = toml::parse_file(file.string());
    } catch (const toml::parse_error& error) {
        throw std::runtime_error(messages::text("grading.points.not_toml",
                                                {{"file", file.string()}, {"error", error.description()}}));
    }
    read_part_points(table, file.string(), {"lessons"}, points.default_);
    if (const toml::node* lessons = table.get("lessons")) {
        if (!lessons->is_table())
            throw std::runtime_error(
                messages::text("grading.points.lessons_not_table", {{"file", file.string()}}));
        for (const auto& [key, value] : *lessons->as_table()) {
            const std::string name(key.str());
            if (std::ranges::find(course.lessons, name, &Lesson::name) == course.lessons.end())
                throw std::runtime_error(
                    messages::text("grading.points.no_lesson", {{"file", file.string()}, {"lesson", name}}));
            if (!value.is_table())
                throw std::runtime_error(messages::text("grading.points.lesson_not_table",
                                                        {{"file", file.string()}, {"lesson", name}}));
            read_part_points(*value.as_table(), file.string() + ", lessons." + name, {}, points.lessons_[name]);
        }
    }
    return points;
}

Points Points::of_course(const Course& course) {
    const fs::path file = course.root / "grading.toml";
    return fs::exists(file) ? read(file, course) : Points{};
}

double Points::of(const Lesson& lesson, Part part) const {
    if (const auto own = lessons_.find(lesson.name); own != lessons_.end()) {
        if (const auto points = own->second.find(part); points != own->second.end()) return points->second;
    }
    return default_.at(part);
}

std::vector<Part> parts_of(const Lesson& lesson) {
    std::vector<Part> parts{Part::kernel};
    for (const auto& entry : fs::directory_iterator(lesson.dir / "check")) {
        if (entry.path().extension() != ".cpp") continue;
        std::ifstream file(entry.path());
        const std::string text{std::istreambuf_iterator<char>(file), {}};
        if (text.find("[shuffle]") != std::string::npos) {
            parts.push_back(Part::shuffle);
            break;
        }
    }
    return parts;
}

std::string directory_name(const fs::path& dir) {
    fs::path normal = fs::absolute(dir).lexically_normal();
    if (!normal.has_filename()) normal = normal.parent_path();
    return normal.filename().string();
}

std::uint64_t fresh_base_seed() {
    std::random_device device;
    return (std::uint64_t{device()} << 32) ^ device();
}

std::vector<const Lesson*> selected_lessons(const Course& course, const GradeOptions& options) {
    std::vector<const Lesson*> lessons;
    for (const Lesson& lesson : course.lessons) {
        if (options.lessons.empty() || std::ranges::find(options.lessons, lesson.number) != options.lessons.end())
            lessons.push_back(&lesson);
    }
    return lessons;
}

namespace {

using Clock = std::chrono::steady_clock;

// A test's message at most: enough for a compiler's first errors or a failed check's tables.
constexpr std::size_t kMaxMessageBytes = 16 * 1024;
constexpr std::size_t kMaxHeadlineBytes = 300;  // a line of the roster

Verdict verdict_of(Outcome outcome) {
    switch (outcome) {
        case Outcome::passed: return Verdict::pass;
        case Outcome::failed: return Verdict::fail;
        case Outcome::compile_error: return Verdict::build_error;
        case Outcome::crashed: return Verdict::crash;
        case Outcome::timed_out: return Verdict::time_out;
    }
    return Verdict::fail;
}

// The seconds a step may take: its own limit, or what is left of the submission's time.
std::chrono::seconds limit_for(std::chrono::seconds own, const GradeOptions& options) {
    if (!options.deadline) return own;
    const auto left = std::chrono::duration_cast<std::chrono::seconds>(*options.deadline - Clock::now());
    return std::min(own, left);
}

std::string out_of_time(const GradeOptions& options) {
    return messages::text("grading.out_of_time", {{"seconds", options.time_limit.count()}});
}

// The check cases of one test, in declaration order: the order fixes which
// seed each check draws from the base seed.
std::vector<std::string> filter_of(Part part) {
    return {part == Part::shuffle ? "[shuffle]" : "~[shuffle]", "--order", "decl"};
}

// Runs one test of a built lesson and says what became of it. Its record
// goes to `record_dir`, a folder the submission's code may write.
void run_test(const Course& course, const Lesson& lesson, const GradeOptions& options, const Sandbox* sandbox,
              const fs::path& record_dir, GradedTest& test) {
    const std::chrono::seconds limit = limit_for(options.time_limit, options);
    if (limit.count() <= 0) {
        test.verdict = Verdict::time_out;
        test.message = out_of_time(options);
        return;
    }
    const std::vector<std::string> filter = filter_of(test.part);
    const std::string seed = std::to_string(options.base_seed);
    CheckOptions check_options{limit};
    check_options.sandbox = sandbox;
    check_options.record_dir = record_dir;
    const CheckResult result =
        run_checks(course, lesson, check_options, filter, {"WARPDRILL_BASE_SEED=" + seed, "WARPDRILL_SEED="});
    test.seconds = result.seconds;
    test.verdict = verdict_of(result.outcome);
    test.message = result.outcome == Outcome::passed ? "" : result.message;
    test.headline = result.outcome == Outcome::passed ? "" : result.headline;
    if (result.outcome == Outcome::passed && !result.skipped.empty()) {
        test.verdict = Verdict::skipped;
        test.message = result.skipped;
    }
    if (result.matched_nothing) {
        test.verdict = Verdict::fail;
        test.message = messages::text("grading.no_check_matched", {{"filter", filter[0]}});
    }
}

}  // namespace

std::vector<GradedTest> grade_lessons(const Course& course, const std::vector<LessonToGrade>& plan,
                                      const GradeOptions& options, const Sandbox* sandbox) {
    std::vector<GradedTest> tests;
    for (const LessonToGrade& item : plan) {
        const Lesson& lesson = *item.lesson;
        std::vector<GradedTest> lesson_tests;
        for (Part part : item.parts) {
            GradedTest test;
            test.lesson = lesson.number;
            test.lesson_name = lesson.name;
            test.lesson_title = lesson.title;
            test.part = part;
            test.max_points = options.points.of(lesson, part);
            lesson_tests.push_back(test);
        }
        // Where the lesson's check program is, or is built.
        const Course& built_in = item.built_in ? *item.built_in : course;
        const Lesson& built_lesson = item.built_in ? *item.built_in->find(lesson.number) : lesson;
        std::optional<CheckResult> not_built;
        if (item.missing.empty() && !item.built_in) {
            const std::chrono::seconds limit = limit_for(std::chrono::seconds(900), options);
            if (limit.count() > 0) not_built = build_checks(course, lesson, limit, sandbox);
        }
        for (GradedTest& test : lesson_tests) {
            if (!item.missing.empty()) {
                test.verdict = Verdict::missing;
                test.message = item.missing;
            } else if (not_built) {
                test.verdict = verdict_of(not_built->outcome);
                test.message = not_built->message;
                test.headline = not_built->headline;
            } else {
                run_test(built_in, built_lesson, options, sandbox, course.build_dir, test);
            }
            test.message = printable(test.message, kMaxMessageBytes);
            test.headline = printable(test.headline, kMaxHeadlineBytes);
            if (!options.replay.empty()) test.replay = fmt::format("{} --lesson {}", options.replay, lesson.number);
            if (test.verdict == Verdict::skipped) test.max_points = 0;
            if (test.verdict == Verdict::pass) test.points = test.max_points;
            if (options.on_graded) options.on_graded(test);
            tests.push_back(test);
        }
    }
    return tests;
}

std::string headline(const GradedTest& test) {
    const std::vector<std::string> lines = nonblank_lines(test.message);
    if (lines.empty()) return "";
    const auto first_with = [&](const std::string& text) -> std::optional<std::string> {
        const auto it = std::ranges::find_if(lines, [&](const std::string& line) {
            return line.find(text) != std::string::npos;
        });
        return it == lines.end() ? std::nullopt : std::optional<std::string>(*it);
    };
    if (!test.headline.empty()) return test.headline;
    // The compiler's first error; else the runner's own words, which come first or last.
    switch (test.verdict) {
        case Verdict::build_error: return first_with("error").value_or(lines.front());
        case Verdict::time_out:
        case Verdict::crash: return lines.back();
        default: return lines.front();
    }
}

namespace {

// Where the terminal escape sequence that starts at text[at] (ESC) ends: its last byte.
std::size_t escape_end(std::string_view text, std::size_t at) {
    if (at + 1 >= text.size()) return at;
    const char kind = text[at + 1];
    if (kind == '[') {  // CSI: parameter and intermediate bytes, then a final byte
        std::size_t i = at + 2;
        while (i < text.size() && text[i] >= 0x20 && text[i] <= 0x3f) ++i;
        return i < text.size() && text[i] >= 0x40 && text[i] <= 0x7e ? i : i - 1;
    }
    if (std::string_view("]PX^_").find(kind) != std::string_view::npos) {  // a string, to BEL or ESC backslash
        for (std::size_t i = at + 2; i < text.size(); ++i) {
            if (text[i] == '\a') return i;
            if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '\\') return i + 1;
        }
        return text.size() - 1;
    }
    return at + 1;  // ESC and one byte
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_bytes) {
    std::string out;
    std::size_t i = 0;
    for (; i < text.size() && out.size() < max_bytes; ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const bool c1_control = byte == 0xc2 && i + 1 < text.size() &&  // U+0080 to U+009F in UTF-8
                                static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                                static_cast<unsigned char>(text[i + 1]) <= 0x9f;
        if (byte == 0x1b)
            i = escape_end(text, i);
        else if (c1_control)
            ++i;
        else if (byte >= 0x20 ? byte != 0x7f : byte == '\n' || byte == '\t')
            out += text[i];
    }
    if (i < text.size()) out += "\n" + messages::text("grading.cut", {{"bytes", max_bytes}});
    return out;
}

}  // namespace warpdrill::runner
