// The course as the runner sees it: the lessons on disk, in order, with the
// files a learner edits, their hints, and where their checks are built.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpdrill::runner {

namespace fs = std::filesystem;

struct Lesson {
    int number = 0;
    std::string name;                  // "03-sequential-addressing"
    std::string title;                 // "sequential addressing", from its README
    fs::path dir;                      // lessons/03-.../
    std::vector<fs::path> edit_files;  // the learner's kernel files
    std::vector<std::string> hints;    // from hints.md, in order
    std::string workload;              // how the profile runs it (lessons/lessons.toml); "" for none
    bool has_solution = false;
};

struct Course {
    fs::path root;
    fs::path build_dir;
    std::string backend;         // "cpu" or "gpu"
    std::string backend_reason;  // "no nvcc: CPU backend", from the configure step
    std::vector<Lesson> lessons;

    const Lesson* find(int number) const;
    std::string target(const Lesson& lesson) const;  // "lesson-03"
    fs::path relative(const fs::path& path) const;   // for messages
};

Course load_course(const fs::path& root, const fs::path& build_dir, const std::string& backend,
                   const std::string& backend_reason);
// Why the build has its backend, in the chosen language: the case that
// cmake/Backend.cmake recorded ("auto_gpu"), with the GPU's name and nvcc's
// version ("nvcc 13.0") where the case names them.
std::string backend_reason(std::string_view backend_case, std::string_view gpu, std::string_view nvcc);
std::vector<std::string> read_hints(const fs::path& hints_file);
std::string read_title(const fs::path& readme);  // from the README's first line
std::string read_text(const fs::path& file);     // the whole file; "" when it cannot be read

}  // namespace warpdrill::runner
