#include "course.h"

#include <toml++/toml.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "warpdrill/messages.h"

namespace warpdrill::runner {

const Lesson* Course::find(int number) const {
    const auto it = std::ranges::find(lessons, number, &Lesson::number);
    return it == lessons.end() ? nullptr : &*it;
}

std::string Course::target(const Lesson& lesson) const { return "lesson-" + lesson.name.substr(0, 2); }

fs::path Course::relative(const fs::path& path) const { return path.lexically_relative(root); }

// "# Lesson 3: sequential addressing" -> "sequential addressing"
std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string read_title(const fs::path& readme) {
    std::ifstream file(readme);
    std::string line;
    std::getline(file, line);
    const auto colon = line.find(": ");
    return colon == std::string::npos ? line : line.substr(colon + 2);
}

// Each "## Hint" heading starts the next hint.
std::vector<std::string> read_hints(const fs::path& hints_file) {
    std::ifstream file(hints_file);
    std::vector<std::string> hints;
    for (std::string line; std::getline(file, line);) {
        if (line.rfind("## ", 0) == 0) {
            hints.emplace_back();
        } else if (!hints.empty() && !line.empty()) {
            hints.back() += (hints.back().empty() ? "" : "\n") + line;
        }
    }
    return hints;
}

namespace {

// Each lesson's workload, by folder, from the course's manifest
// (lessons/lessons.toml); none for a course without one.
std::map<std::string, std::string> read_workloads(const fs::path& manifest) {
    std::map<std::string, std::string> workloads;
    if (!fs::exists(manifest)) return workloads;
    try {
        const toml::table table = toml::parse_file(manifest.string());
        if (const toml::array* lessons = table["lesson"].as_array()) {
            for (const toml::node& lesson : *lessons) {
                const toml::table* entry = lesson.as_table();
                if (!entry) continue;
                if (const auto folder = (*entry)["folder"].value<std::string>())
                    workloads[*folder] = (*entry)["workload"].value_or(std::string());
            }
        }
    } catch (const toml::parse_error& error) {
        throw std::runtime_error(messages::text(
            "course.bad_manifest", {{"file", manifest.string()}, {"problem", std::string(error.description())}}));
    }
    return workloads;
}

}  // namespace

Course load_course(const fs::path& root, const fs::path& build_dir, const std::string& backend,
                   const std::string& backend_reason) {
    Course course{root, build_dir, backend, backend_reason, {}};
    const fs::path lessons_dir = root / "lessons";
    if (!fs::is_directory(lessons_dir))
        throw std::runtime_error(messages::text("course.no_lessons", {{"root", root.string()}}));
    const std::map<std::string, std::string> workloads = read_workloads(lessons_dir / "lessons.toml");
    static const std::regex lesson_name(R"((\d\d)-[a-z0-9-]+)");
    for (const auto& entry : fs::directory_iterator(lessons_dir)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_directory() || !std::regex_match(name, lesson_name)) continue;
        Lesson lesson;
        lesson.number = std::stoi(name.substr(0, 2));
        lesson.name = name;
        lesson.dir = entry.path();
        lesson.title = read_title(entry.path() / "README.md");
        lesson.hints = read_hints(entry.path() / "hints.md");
        lesson.has_solution = fs::is_directory(root / "solutions" / name);
        if (const auto workload = workloads.find(name); workload != workloads.end()) lesson.workload = workload->second;
        for (const auto& file : fs::directory_iterator(entry.path())) {
            if (file.path().extension() == ".cuh") lesson.edit_files.push_back(file.path());
        }
        std::ranges::sort(lesson.edit_files);
        course.lessons.push_back(std::move(lesson));
    }
    std::ranges::sort(course.lessons, {}, &Lesson::number);
    return course;
}

std::string backend_reason(std::string_view backend_case, std::string_view gpu, std::string_view nvcc) {
    return messages::text_of_case("setup.backend_reason." + std::string(backend_case),
                                  {{"gpu", gpu}, {"nvcc", nvcc}});
}

}  // namespace warpdrill::runner
