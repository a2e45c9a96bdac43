// Grading, for instructors: each lesson's checks as tests worth points, run
// on inputs drawn from one fresh base seed, and the reports graders read.
// A lesson is graded as up to two tests: its kernel (the check cases not
// tagged [shuffle]) and its shuffle exercise (those tagged [shuffle]).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "course.h"
#include "sandbox.h"

namespace warpdrill::runner {

enum class Part { kernel, shuffle };
const char* to_string(Part part);

// What became of a test, in the roster's words. skipped: this machine cannot
// run the test's checks (lesson 12 on a GPU without clusters); it counts for
// no points either way.
enum class Verdict { pass, fail, build_error, time_out, crash, missing, skipped };
// "pass", "fail", "build error", "time-out", "crash", "missing", "skipped"
const char* to_string(Verdict verdict);

struct GradedTest {
    int lesson = 0;
    std::string lesson_name;  // "03-sequential-addressing"
    std::string lesson_title;
    Part part = Part::kernel;
    Verdict verdict = Verdict::missing;
    double points = 0;
    double max_points = 0;
    double seconds = 0;
    std::string message;  // why it did not pass ("" when it did)
    std::string headline;  // the cause in one line, when the runner made one
    std::string replay;   // the command that grades it again on the same inputs

    std::string id() const;  // "03-sequential-addressing/kernel"
};

struct Grade {
    std::string learner;
    std::string backend;
    std::string reference;  // what it was graded against; "" for the course's own checks
    std::string sandbox;    // what its code ran in: "bubblewrap 0.8.0", "none (--no-sandbox)"
    std::uint64_t base_seed = 0;
    std::vector<GradedTest> tests;
    std::vector<std::string> changed_files;  // "changed: common/src/host/data.cpp", "added: ..."
    std::vector<std::string> notes;          // about the submission as a whole
    double seconds = 0;

    double points() const;
    double max_points() const;
    bool all_passed() const;
};

// Points for each lesson's tests, from the instructor's grading.toml:
//   kernel = 8                     # every lesson's kernel test
//   shuffle = 2                    # every lesson's shuffle test
//   [lessons.09-reduce-scale]      # one lesson's own
//   kernel = 10
// Without a file every test is worth 1 point.
class Points {
  public:
    Points() = default;
    // Reads the file; an unknown key, a lesson the course does not have or a
    // value that is not a non-negative number is an error naming the file.
    static Points read(const std::filesystem::path& file, const Course& course);
    // The course's own grading.toml when it has one, else a point a test.
    static Points of_course(const Course& course);
    double of(const Lesson& lesson, Part part) const;

  private:
    std::map<Part, double> default_{{Part::kernel, 1.0}, {Part::shuffle, 1.0}};
    std::map<std::string, std::map<Part, double>> lessons_;
};

// The tests a lesson has: its kernel, and its shuffle exercise when one of its
// checks is tagged [shuffle].
std::vector<Part> parts_of(const Lesson& lesson);

struct GradeOptions {
    std::chrono::seconds time_limit{120};  // for each run of a lesson's checks
    // When the whole submission's grading must end: what has not run by then is a time-out.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    std::uint64_t base_seed = 0;
    std::vector<int> lessons;  // only these; empty: every lesson
    Points points;
    // The command that grades again with the same inputs ("warpdrill grade
    // ... --seed S"); each test's replay adds "--lesson N".
    std::string replay;
    std::function<void(const GradedTest&)> on_graded;  // called after each test, when set
    // grade_submission builds and runs the submission's code in a sandbox
    // with these limits; none: --no-sandbox.
    std::optional<SandboxLimits> sandbox;
};

// The name of a directory, as a learner's: "alice" for "subs/alice/" or "subs/alice/.".
std::string directory_name(const std::filesystem::path& dir);

// A seed nobody has seen: from the system's random device.
std::uint64_t fresh_base_seed();

// One lesson to grade: its tests, or why it cannot be graded.
struct LessonToGrade {
    const Lesson* lesson = nullptr;
    std::vector<Part> parts;
    std::string missing;  // "lessons/03-.../reduce.cuh is not in the submission"; "" when it is there
    // A course whose build already holds this lesson's check program, built
    // from the same kernel files (the reference's own, for a lesson as handed
    // out): it runs instead of a build of its own. nullptr: build it.
    const Course* built_in = nullptr;
};

// Builds each lesson's check program in the course's build directory (target
// lesson-NN), unless it is built already elsewhere (LessonToGrade::built_in),
// and runs each of its tests on inputs from options.base_seed; both in
// `sandbox` when given. A test's message is cut to a length and stripped of
// control characters: it holds the submission's output.
std::vector<GradedTest> grade_lessons(const Course& course, const std::vector<LessonToGrade>& plan,
                                      const GradeOptions& options, const Sandbox* sandbox = nullptr);

// The lessons a grade covers: every lesson, or those of options.lessons.
std::vector<const Lesson*> selected_lessons(const Course& course, const GradeOptions& options);

// The reference a submission is graded against: an instructor's copy of the
// course, and its build directory with the grading kit built (the common
// libraries and every lesson's checks: cmake/Lessons.cmake).
struct Reference {
    std::filesystem::path root;
    std::filesystem::path kit;
    std::string backend;  // of the kit: "cpu" or "gpu"
    std::string label;    // for reports: the directory, or "REF (commit 0123abcd)"
    // The course as it was handed out (warpdrill handout), to tell what else
    // a learner changed; made by the caller.
    std::filesystem::path handout;
};

// `spec` is a directory, or a git commit, tag or branch of `repository` (the
// instructor's: the course this warpdrill was built from, never the learner's),
// extracted under work/. The kit is built in `kit` when given, else under
// work/. Throws with the reason when it cannot. A build directory of the
// reference that is at hand (the course's own, when the reference is the
// course) serves as the kit when `kit` is not given.
Reference prepare_reference(const std::string& spec, const std::filesystem::path& repository,
                            const std::filesystem::path& work, const std::optional<std::filesystem::path>& kit,
                            const std::string& backend, const std::filesystem::path& build_at_hand = {});

// Grades one learner's checkout against the reference: the learner's kernel
// files (those each reference lesson's README says to edit) and nothing else
// from it, built in `work` with the kit. Lists what else the learner changed.
Grade grade_submission(const std::filesystem::path& submission, const Reference& reference,
                       const std::filesystem::path& work, const GradeOptions& options);

// The reports: grade.xml (JUnit), results.json (Gradescope), grade.json (all
// of it) and passed.txt (the ids of the tests that pass, one a line, for
// GitHub Classroom's command grader), in `dir`.
void write_reports(const Grade& grade, const std::filesystem::path& dir);

// The line a failure is known by: the sandbox's limit that stopped it, else
// its first line, or the compiler's first error.
std::string headline(const GradedTest& test);

// Text a submission wrote, as reports and the terminal may show it: without
// terminal escape sequences or control characters other than newline and
// tab, and at most `max_bytes` long.
std::string printable(std::string_view text, std::size_t max_bytes);

}  // namespace warpdrill::runner
