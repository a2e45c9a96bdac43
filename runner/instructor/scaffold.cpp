// `warpdrill new NN-name`: a new lesson from runner/templates/new-lesson/,
// whose README says what it holds. Every file of the template below its top
// is copied with @NAME@, @NN@, @N@, @TITLE@, @HEADING@ and @SYMBOL@ replaced,
// the lesson joins the course's manifest and the chapter the book's table of contents.
#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <stdexcept>

#include "commands.h"
#include "process.h"
#include "text.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

using Words = std::vector<std::pair<std::string, std::string>>;

std::string replaced(std::string text, const Words& words) {
    for (const auto& [word, value] : words)
        for (std::size_t at = 0; (at = text.find(word, at)) != std::string::npos; at += value.size())
            text.replace(at, word.size(), value);
    return text;
}

Words words_for(const std::string& name) {
    const int number = std::stoi(name.substr(0, 2));
    std::string title = name.substr(3);
    std::string symbol = title;
    std::ranges::replace(title, '-', ' ');
    std::ranges::replace(symbol, '-', '_');
    std::string heading = title;
    heading[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(heading[0])));
    return {{"@NAME@", name},   {"@NN@", name.substr(0, 2)}, {"@N@", std::to_string(number)},
            {"@TITLE@", title}, {"@HEADING@", heading},      {"@SYMBOL@", symbol}};
}

// Puts "lessons/NN-name" after the last lesson of book/index.md's table of contents.
bool add_to_book(const fs::path& index, const std::string& name) {
    std::vector<std::string> lines = lines_of(read_text(index));
    const auto last = std::find_if(lines.rbegin(), lines.rend(),
                                   [](const std::string& line) { return line.starts_with("lessons/"); });
    if (last == lines.rend()) return false;
    lines.insert(last.base(), "lessons/" + name);
    std::ofstream out(index, std::ios::trunc);
    for (const std::string& line : lines) out << line << "\n";
    return true;
}

// Adds the lesson to the course's manifest, lessons/lessons.toml. The
// template's kernel writes a sum per block, which the profile runs in passes.
void add_to_manifest(const fs::path& manifest, const std::string& name) {
    std::ofstream(manifest, std::ios::app) << "\n[[lesson]]\nfolder = \"" << name
                                            << "\"\nworkload = \"sum_in_passes\"\n";
}

}  // namespace

int run_new(const CourseSettings& settings, const std::string& name) {
    static const std::regex lesson_name(R"(\d\d-[a-z][a-z0-9]*(-[a-z0-9]+)*)");
    if (!std::regex_match(name, lesson_name))
        throw std::runtime_error(messages::text("scaffold.bad_name", {{"name", name}}));
    const Course course = load_course(settings.root, settings.build_dir, WARPDRILL_ACTIVE_BACKEND, "");
    if (const Lesson* taken = course.find(std::stoi(name.substr(0, 2))))
        throw std::runtime_error(
            messages::text("scaffold.taken", {{"number", name.substr(0, 2)}, {"lesson", taken->name}}));
    const fs::path templates = course.root / "runner" / "templates" / "new-lesson";
    if (!fs::is_directory(templates)) throw std::runtime_error(messages::text("scaffold.no_templates"));

    const Words words = words_for(name);
    std::vector<fs::path> made;
    for (const auto& entry : fs::recursive_directory_iterator(templates)) {
        const fs::path relative = entry.path().lexically_relative(templates);
        if (!entry.is_regular_file() || relative.parent_path().empty()) continue;  // the template's own README
        const fs::path file = course.root / replaced(relative.string(), words);
        if (fs::exists(file))
            throw std::runtime_error(
                messages::text("scaffold.exists", {{"file", course.relative(file).string()}}));
        std::ifstream in(entry.path());
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        fs::create_directories(file.parent_path());
        std::ofstream(file) << replaced(text, words);
        made.push_back(course.relative(file));
    }
    std::ranges::sort(made);
    fmt::print("{}\n", messages::text("scaffold.done", {{"lesson", name}}));
    for (const fs::path& file : made) fmt::print("  {}\n", file.string());
    add_to_manifest(course.root / "lessons" / "lessons.toml", name);
    if (!add_to_book(course.root / "book" / "index.md", name))
        fmt::print("{}\n", messages::text("scaffold.no_toc", {{"lesson", name}}));
    // Configure the build again, so that it has the lesson's targets (lesson-NN, solution-NN).
    if (fs::exists(settings.build_dir / "CMakeCache.txt") &&
        run_process({"cmake", settings.build_dir.string()}, std::chrono::seconds(600)).exit_code != 0)
        fmt::print("{}\n", messages::text("scaffold.configure_failed", {{"dir", settings.build_dir.string()}}));
    fmt::print("{}\n", messages::text("scaffold.next", {{"number", std::stoi(name.substr(0, 2))}}));
    return 0;
}

}  // namespace warpdrill::runner
