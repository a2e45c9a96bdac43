// The learner's progress: which lessons pass, how many hints were shown, the
// best bandwidth measured on a GPU or modelled by `warpdrill profile`. Stored
// as TOML, written atomically (a temporary file renamed over the old one); a
// damaged file is set aside and the progress rebuilt from the checks.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace warpdrill::runner {

struct LessonProgress {
    bool passed = false;
    bool tried = false;
    int hints_shown = 0;
    std::optional<double> best_gbps;
    std::optional<double> modelled_gbps;  // of the learner's last profiled kernel, on an H100 (model)
};

class Progress {
  public:
    explicit Progress(std::filesystem::path file) : file_(std::move(file)) {}

    // False when the file existed but could not be read: it has been moved
    // aside (the message says where) and the caller should rebuild.
    bool load(std::string& message);
    void save() const;

    LessonProgress& of(const std::string& lesson) { return lessons_[lesson]; }
    const LessonProgress* find(const std::string& lesson) const;
    void clear() { lessons_.clear(); }

  private:
    std::filesystem::path file_;
    std::map<std::string, LessonProgress> lessons_;
};

}  // namespace warpdrill::runner
