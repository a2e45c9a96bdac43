// Pristine grading: a learner's kernel files, and nothing else of theirs,
// built against the reference course's checks and common libraries.
#include <fmt/core.h>
#include <toml++/toml.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>

#include "build.h"
#include "commands.h"
#include "grading.h"
#include "process.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// Whether the reference's kernel file is the lesson as handed out (git's HEAD):
// only then is the reference's own build of the lesson the lesson as shipped
// (an instructor may have solved it in this checkout). Asked once a file.
bool is_shipped(const Course& course, const fs::path& file) {
    static std::map<fs::path, bool> known;
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    const auto found = known.find(file);
    if (found != known.end()) return found->second;
    const std::optional<std::string> shipped = starting_version(course, file);
    return known[file] = !shipped || *shipped == read_text(file);
}

using Clock = std::chrono::steady_clock;

// A value of a CMake build directory's cache ("" when it has none).
std::string cache_value(const fs::path& build_dir, const std::string& key) {
    std::ifstream cache(build_dir / "CMakeCache.txt");
    for (std::string line; std::getline(cache, line);) {
        if (line.rfind(key + ":", 0) != 0) continue;
        const auto equals = line.find('=');
        if (equals != std::string::npos) return line.substr(equals + 1);
    }
    return "";
}

bool same_directory(const fs::path& a, const fs::path& b) {
    std::error_code error;
    return fs::equivalent(a, b, error);
}

// The last lines of a failed command's output, for an error message.
std::string tail_of(const std::string& output) {
    const auto at = output.size() > 1500 ? output.size() - 1500 : 0;
    return output.substr(at);
}

// `step` says what was being done: one of grading.step.*, or the command.
void throw_if_failed(const ProcessResult& result, const std::string& step) {
    if (result.exit_code == 0 && !result.timed_out) return;
    const std::string output = tail_of(result.output);
    throw std::runtime_error(
        result.timed_out ? messages::text("grading.step_timed_out", {{"step", step}, {"output", output}})
                         : messages::text("grading.step_failed", {{"step", step}, {"output", output}}));
}

void run_or_throw(const std::vector<std::string>& argv, std::chrono::seconds limit, const std::string& step) {
    throw_if_failed(run_process(argv, limit), step);
}

// A commit of `repository`, as a directory of its own under work/.
fs::path extract_commit(const std::string& spec, const fs::path& repository, const fs::path& work, std::string& label) {
    const std::string git_dir = repository.string();
    const ProcessResult commit = run_process(
        {"git", "-C", git_dir, "rev-parse", "--verify", "--quiet", spec + "^{commit}"}, std::chrono::seconds(30));
    if (commit.exit_code != 0)
        throw std::runtime_error(
            messages::text("grading.bad_reference", {{"spec", spec}, {"repository", git_dir}}));
    const std::string sha = commit.output.substr(0, 40);
    label = spec + " (commit " + sha.substr(0, 12) + ")";
    const fs::path dir = work / ("reference-" + sha.substr(0, 12));
    if (fs::is_directory(dir / "lessons")) return dir;
    fs::create_directories(dir);
    const fs::path archive = work / ("reference-" + sha.substr(0, 12) + ".tar");
    run_or_throw({"git", "-C", git_dir, "archive", "--format=tar", "-o", archive.string(), sha}, std::chrono::seconds(300),
                 "git archive " + spec);
    run_or_throw({"tar", "-xf", archive.string(), "-C", dir.string()}, std::chrono::seconds(300),
                 messages::text("grading.step.unpack", {{"spec", spec}}));
    fs::remove(archive);
    return dir;
}

}  // namespace

Reference prepare_reference(const std::string& spec, const fs::path& repository, const fs::path& work,
                            const std::optional<fs::path>& kit, const std::string& backend,
                            const fs::path& build_at_hand) {
    fs::create_directories(work);
    Reference reference;
    if (fs::is_directory(spec)) {
        reference.root = fs::canonical(spec);
        reference.label = reference.root.string();
    } else {
        reference.root = extract_commit(spec, repository, work, reference.label);
    }
    if (!fs::is_directory(reference.root / "lessons"))
        throw std::runtime_error(
            messages::text("grading.reference_not_course", {{"reference", reference.label}}));

    // The kit: the build directory given, the course's own when it is the
    // reference's, else one of its own under work/ (made again when it was
    // made for another reference).
    const bool at_hand = !kit && same_directory(cache_value(build_at_hand, "CMAKE_HOME_DIRECTORY"), reference.root);
    reference.kit = kit ? fs::absolute(*kit)
                    : at_hand ? fs::absolute(build_at_hand)
                              : work / (reference.root.filename().string() + "-build");
    const std::string made_for = cache_value(reference.kit, "CMAKE_HOME_DIRECTORY");
    if (!made_for.empty() && !same_directory(made_for, reference.root)) {
        if (kit)
            throw std::runtime_error(
                messages::text("grading.kit_mismatch", {{"dir", reference.kit.string()},
                                                        {"made_for", made_for},
                                                        {"reference", reference.root.string()}}));
        fs::remove_all(reference.kit);
    }
    if (!fs::exists(reference.kit / "CMakeCache.txt")) {
        fmt::print("{}\n",
                   messages::text("grading.configuring_reference", {{"dir", reference.kit.string()}}));
        run_or_throw({"cmake", "-S", reference.root.string(), "-B", reference.kit.string(), "-G", "Ninja",
                      "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DWARPDRILL_BACKEND=" + backend,
                      "-DWARPDRILL_BUILD_TESTS=OFF"},
                     std::chrono::seconds(600), messages::text("grading.step.configure_reference"));
    }
    fmt::print("{}\n", messages::text("grading.building_kit"));
    std::fflush(stdout);
    throw_if_failed(build_target(reference.kit, "grading-kit", std::chrono::seconds(3600)),
                    messages::text("grading.step.build_kit"));
    reference.backend = cache_value(reference.kit, "WARPDRILL_ACTIVE_BACKEND");
    return reference;
}

namespace {

// Whether `file`, its links followed, is inside `dir`. A kernel file that is a
// link to the reference's solution, or to any other file of the grader's, is not.
bool is_inside(const fs::path& file, const fs::path& dir) {
    std::error_code file_error;
    std::error_code dir_error;
    const fs::path real = fs::canonical(file, file_error);
    const fs::path real_dir = fs::canonical(dir, dir_error);
    if (file_error || dir_error) return false;
    return std::mismatch(real_dir.begin(), real_dir.end(), real.begin(), real.end()).first == real_dir.end();
}

// Directories of a checkout that are not the learner's work: git's, build
// directories (any with a CMakeCache.txt), warpdrill's own state, editors'.
bool skipped_directory(const fs::path& dir) {
    const std::string name = dir.filename().string();
    if (name == "__pycache__" || fs::exists(dir / "CMakeCache.txt")) return true;
    return name.starts_with(".") && name != ".github" && name != ".devcontainer";
}

// The top-level directories warpdrill writes to: builds and grade reports.
bool output_directory(const fs::path& dir) {
    const std::string name = dir.filename().string();
    return name == "build" || name == "grade";
}

// Every file of the submission that differs from the handout (the course as
// learners got it) and is not one of the kernel files: what the learner
// changed that grading ignores. At most 50, then a count.
std::vector<std::string> ignored_changes(const fs::path& submission, const fs::path& handout,
                                         const std::set<fs::path>& kernel_files) {
    std::vector<std::string> changes;
    int more = 0;
    if (!fs::is_directory(submission)) return changes;
    for (auto it = fs::recursive_directory_iterator(submission); it != fs::recursive_directory_iterator(); ++it) {
        if (it->is_directory() && (skipped_directory(it->path()) || (it.depth() == 0 && output_directory(it->path())))) {
            it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file()) continue;
        const fs::path relative = it->path().lexically_relative(submission);
        if (kernel_files.contains(relative)) continue;
        const fs::path original = handout / relative;
        std::string change;
        const std::string name = printable(relative.string(), 300);  // any name a learner gave a file
        if (!fs::exists(original))
            change = "added: " + name;
        else if (read_text(original) != read_text(it->path()))
            change = "changed: " + name;
        if (change.empty()) continue;
        if (changes.size() < 50)
            changes.push_back(change);
        else
            ++more;
    }
    std::ranges::sort(changes);
    if (more > 0) changes.push_back(fmt::format("... and {} more", more));
    return changes;
}

// A note when the learner's progress file cannot be read: grading never reads it.
std::optional<std::string> progress_note(const fs::path& submission) {
    const fs::path file = submission / ".progress" / "progress.toml";
    if (!fs::exists(file)) return std::nullopt;
    try {
        (void)toml::parse_file(file.string());
        return std::nullopt;
    } catch (const std::exception&) {
        return messages::text("grading.progress_damaged");
    }
}

// Configures the submission's build: the reference's source, the kit's
// libraries and checks, the staged kernel files.
void configure(const Reference& reference, const Course& staged) {
    std::vector<std::string> argv{"cmake", "-S", reference.root.string(), "-B", staged.build_dir.string(), "-G",
                                  "Ninja", "-DWARPDRILL_BACKEND=" + reference.backend,
                                  "-DWARPDRILL_GRADING_KIT=" + reference.kit.string(),
                                  "-DWARPDRILL_KERNELS_DIR=" + staged.root.string()};
    for (const char* key : {"CMAKE_BUILD_TYPE", "CMAKE_CXX_COMPILER", "CMAKE_CUDA_COMPILER", "CMAKE_CUDA_ARCHITECTURES"}) {
        const std::string value = cache_value(reference.kit, key);
        if (!value.empty()) argv.push_back("-D" + std::string(key) + "=" + value);
    }
    run_or_throw(argv, std::chrono::seconds(300), messages::text("grading.step.configure_build"));
}

// What a submission's build and checks see: its staged kernel files and its
// build, which they may write; of the reference, what cmake/Grading.cmake
// builds with (its CMake files, headers and lessons' checks) and of its kit,
// the libraries, each lesson's compiled checks and the lessons as handed out
// that run for it. Never the reference's solutions/, nor the kit's builds of them.
SandboxView sandbox_view(const Reference& reference, const Course& staged, const std::vector<LessonToGrade>& plan) {
    SandboxView view;
    for (const char* part : {"CMakeLists.txt", "cmake", "messages", "common", "cpu-cuda"})
        view.read_only.push_back(reference.root / part);
    for (const char* part : {"CMakeCache.txt", "warpdrill-grading-kit.cmake", "warpdrill-libraries.cmake"})
        view.read_only.push_back(reference.kit / part);
    // The common libraries: the kit's own, or those it took from another build (cmake/Libraries.cmake).
    const std::string taken_from = cache_value(reference.kit, "WARPDRILL_LIBRARIES_FROM");
    const fs::path libraries = taken_from.empty() ? reference.kit : fs::path(taken_from);
    for (const char* part : {"warpdrill-libraries.cmake", "warpdrill-library-targets.cmake", "messages", "common", "cpu-cuda"})
        view.read_only.push_back(libraries / part);
    for (const LessonToGrade& item : plan) {
        const Lesson& lesson = *item.lesson;
        view.read_only.push_back(reference.root / "lessons" / lesson.name / "check");
        // Where CMake keeps the objects of the lesson's checks (cmake/Lessons.cmake's lesson-NN-checks).
        view.read_only.push_back(reference.kit / "CMakeFiles" / (staged.target(lesson) + "-checks.dir"));
        if (item.built_in) view.read_only.push_back(item.built_in->build_dir / item.built_in->target(lesson));
    }
    view.writable = {staged.root, staged.build_dir};
    view.working_dir = staged.build_dir;
    return view;
}

}  // namespace

Grade grade_submission(const fs::path& submission, const Reference& reference, const fs::path& work,
                       const GradeOptions& options) {
    const auto start = Clock::now();
    Grade grade;
    grade.learner = directory_name(submission);
    grade.backend = reference.backend;
    grade.reference = reference.label;
    grade.base_seed = options.base_seed;
    const Course course = load_course(reference.root, reference.kit, reference.backend, "");

    // Each lesson as the build sees it: its kernel files copied from the
    // submission to work/kernels/lessons/NN-name/, its checks the reference's.
    Course staged{work / "kernels", work / "build", reference.backend, "", {}};
    fs::remove_all(staged.root);
    if (!fs::is_directory(submission / "lessons"))
        grade.notes.push_back(messages::text("grading.not_a_checkout"));
    std::vector<std::string> missing;
    std::vector<bool> as_handed_out;
    std::set<fs::path> kernel_files;  // every lesson's, graded or not: none of them is a change to list
    for (const Lesson& lesson : course.lessons)
        for (const fs::path& file : lesson.edit_files) kernel_files.insert(course.relative(file));
    for (const Lesson* lesson : selected_lessons(course, options)) {
        Lesson copy = *lesson;
        copy.dir = staged.root / course.relative(lesson->dir);
        copy.edit_files.clear();
        std::string absent;
        bool untouched = true;
        for (const fs::path& file : lesson->edit_files) {
            const fs::path relative = course.relative(file);
            if (!fs::is_regular_file(submission / relative)) {
                absent += messages::text("grading.not_submitted", {{"path", relative.string()}}) + "\n";
                continue;
            }
            if (!is_inside(submission / relative, submission)) {
                absent += messages::text("grading.link_outside", {{"path", relative.string()}}) + "\n";
                continue;
            }
            untouched = untouched && read_text(submission / relative) == read_text(file) && is_shipped(course, file);
            fs::create_directories(copy.dir);
            fs::copy_file(submission / relative, copy.dir / file.filename());
            copy.edit_files.push_back(copy.dir / file.filename());
        }
        if (!absent.empty()) fs::remove_all(copy.dir);  // not built: the build would use nothing of the learner's
        staged.lessons.push_back(std::move(copy));
        missing.push_back(absent);
        as_handed_out.push_back(absent.empty() && untouched);
    }

    // A lesson as handed out runs the reference's own build of it: the same
    // files make the same program, and until a course ends many of its
    // learners' lessons are as handed out.
    std::vector<LessonToGrade> plan;
    for (std::size_t i = 0; i < staged.lessons.size(); ++i) {
        const Lesson& reference_lesson = *course.find(staged.lessons[i].number);
        plan.push_back({&staged.lessons[i], parts_of(reference_lesson), missing[i], as_handed_out[i] ? &course : nullptr});
    }
    const bool builds = std::ranges::any_of(plan, [](const LessonToGrade& item) {
        return item.missing.empty() && !item.built_in;
    });
    if (builds) configure(reference, staged);
    std::optional<Sandbox> sandbox;
    if (options.sandbox) {
        fs::create_directories(staged.root);
        fs::create_directories(staged.build_dir);
        sandbox.emplace(sandbox_view(reference, staged, plan), *options.sandbox);
    }
    grade.tests = grade_lessons(staged, plan, options, sandbox ? &*sandbox : nullptr);
    for (GradedTest& test : grade.tests)
        if (test.verdict == Verdict::missing && !fs::is_directory(submission / "lessons" / test.lesson_name))
            test.message =
                messages::text("grading.not_submitted", {{"path", "lessons/" + test.lesson_name + "/"}});

    grade.changed_files = ignored_changes(submission, reference.handout, kernel_files);
    if (const auto note = progress_note(submission)) grade.notes.push_back(*note);
    grade.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return grade;
}

}  // namespace warpdrill::runner
