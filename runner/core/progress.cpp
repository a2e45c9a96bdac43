#include "progress.h"

#include <chrono>
#include <fstream>
#include <stdexcept>
#include <toml++/toml.h>
#include <unistd.h>

#include "warpdrill/messages.h"

namespace warpdrill::runner {

namespace fs = std::filesystem;

bool Progress::load(std::string& message) {
    lessons_.clear();
    if (!fs::exists(file_)) return true;
    try {
        const toml::table table = toml::parse_file(file_.string());
        if (table["version"].value_or(0) != 1) throw std::runtime_error(messages::text("progress.problem.version"));
        const toml::table* lessons = table["lessons"].as_table();
        if (!lessons) throw std::runtime_error(messages::text("progress.problem.no_lessons"));
        for (const auto& [name, value] : *lessons) {
            const toml::table* entry = value.as_table();
            if (!entry)
                throw std::runtime_error(messages::text("progress.problem.not_a_table", {{"lesson", name.str()}}));
            LessonProgress& lesson = lessons_[std::string(name.str())];
            lesson.passed = (*entry)["passed"].value_or(false);
            lesson.tried = (*entry)["tried"].value_or(lesson.passed);
            lesson.hints_shown = static_cast<int>((*entry)["hints_shown"].value_or(std::int64_t{0}));
            if (auto gbps = (*entry)["best_gbps"].value<double>()) lesson.best_gbps = *gbps;
            if (auto gbps = (*entry)["modelled_gbps"].value<double>()) lesson.modelled_gbps = *gbps;
        }
        return true;
    } catch (const std::exception& error) {
        lessons_.clear();
        fs::path aside = file_;
        aside += ".damaged";
        std::error_code ignored;
        fs::rename(file_, aside, ignored);
        message = messages::text("progress.damaged",
                                 {{"file", file_.string()}, {"error", error.what()}, {"aside", aside.string()}});
        return false;
    }
}

const LessonProgress* Progress::find(const std::string& lesson) const {
    const auto it = lessons_.find(lesson);
    return it == lessons_.end() ? nullptr : &it->second;
}

void Progress::save() const {
    toml::table lessons;
    for (const auto& [name, lesson] : lessons_) {
        toml::table entry{
            {"passed", lesson.passed}, {"tried", lesson.tried}, {"hints_shown", lesson.hints_shown}};
        if (lesson.best_gbps) entry.insert("best_gbps", *lesson.best_gbps);
        if (lesson.modelled_gbps) entry.insert("modelled_gbps", *lesson.modelled_gbps);
        lessons.insert(name, std::move(entry));
    }
    const toml::table table{{"version", 1}, {"lessons", std::move(lessons)}};

    fs::create_directories(file_.parent_path());
    fs::path temporary = file_;
    temporary += ".tmp." + std::to_string(getpid());
    {
        std::ofstream out(temporary);
        out << "# warpdrill progress; if this file is damaged, warpdrill rebuilds it from the checks\n"
            << table << "\n";
        out.flush();
        if (!out) throw std::runtime_error(messages::text("progress.not_written", {{"file", temporary.string()}}));
    }
    fs::rename(temporary, file_);  // atomic: readers see the old file or the new one, never half of one
}

}  // namespace warpdrill::runner
