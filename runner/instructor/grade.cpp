// `warpdrill grade` and `warpdrill grade-all`. grade checks one course: its
// own checks (a learner's copy, GitHub Classroom), or, with --reference, only
// its kernel files against the instructor's checks. grade-all does the
// latter for every checkout in a directory, several at once, and writes a
// roster and the failures most learners share.
#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <stdexcept>
#include <thread>

#include "commands.h"
#include "grading.h"
#include "handout.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t base_seed_of(const GradeRequest& request) {
    if (request.seed.empty()) return fresh_base_seed();
    try {
        std::size_t used = 0;
        const std::uint64_t seed = std::stoull(request.seed, &used);
        if (used == request.seed.size()) return seed;
    } catch (const std::exception&) {
    }
    throw std::runtime_error(messages::text("grade.bad_seed", {{"seed", request.seed}}));
}

GradeOptions options_of(const CourseSettings& settings, const GradeRequest& request, const Course& course) {
    GradeOptions options;
    options.time_limit = settings.time_limit;
    options.base_seed = base_seed_of(request);
    options.lessons = request.lessons;
    options.points = request.points_file.empty() ? Points::of_course(course) : Points::read(request.points_file, course);
    for (int number : request.lessons)
        if (!course.find(number))
            throw std::runtime_error(messages::text("grade.no_lesson", {{"lesson", number}}));
    if (!request.reference.empty() && !request.no_sandbox) options.sandbox = request.sandbox_limits;
    return options;
}

// What the submissions' code runs in, for the reports: a sandbox, once one
// was made here ("bubblewrap 0.8.0"), or nothing with --no-sandbox. Throws
// saying what is missing when no sandbox can be made.
std::string sandbox_of(const GradeRequest& request) {
    return request.no_sandbox ? "none (--no-sandbox)" : Sandbox::check_available(request.sandbox_limits);
}

// The reference, its kit and the course as handed out, made under `work`.
Reference reference_for(const CourseSettings& settings, const GradeRequest& request, const fs::path& work) {
    std::optional<fs::path> kit;
    if (!request.reference_build.empty()) kit = request.reference_build;
    // A git ref is the instructor's: of the course this program was built from.
    return prepare_reference(request.reference, WARPDRILL_SOURCE_DIR, work, kit, WARPDRILL_ACTIVE_BACKEND,
                             settings.build_dir);
}

// Gives the owner (the grader) every right on `dir` and the folders in it,
// links not followed: a submission may have left a folder it made unreadable.
void give_owner_rights(const fs::path& dir) {
    std::error_code ignored;
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add, ignored);
    for (const fs::directory_entry& entry : fs::directory_iterator(dir, ignored))
        if (!entry.is_symlink(ignored) && entry.is_directory(ignored)) give_owner_rights(entry.path());
}

// Removes a submission's working copy once it is graded; what cannot be
// removed is named, and grading goes on.
void remove_working_copy(const fs::path& dir) {
    std::error_code error;
    fs::remove_all(dir, error);
    if (!error) return;
    give_owner_rights(dir);
    fs::remove_all(dir, error);
    if (error)
        fmt::print(stderr, "{}\n",
                   messages::text("grade_all.not_removed", {{"dir", dir.string()}, {"error", error.message()}}));
}

// A word of a shell command line, quoted when it needs to be.
std::string shell_word(const std::string& word) {
    if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                "/._-+=:@,") == std::string::npos)
        return word;
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

// The command that grades a submission again on the same inputs (each test adds --lesson N).
std::string replay_command(const GradeRequest& request, const fs::path& submission, std::uint64_t base_seed) {
    std::string command = "warpdrill grade";
    if (!request.reference.empty()) {
        const bool directory = fs::is_directory(request.reference);
        command += " --root " + shell_word(fs::absolute(submission).lexically_normal().string()) + " --reference " +
                   shell_word(directory ? fs::absolute(request.reference).lexically_normal().string() : request.reference);
    }
    if (!request.points_file.empty()) command += " --points " + shell_word(fs::absolute(request.points_file).string());
    return command + " --seed " + std::to_string(base_seed);
}

void make_handout_baseline(Reference& reference, const Course& course, const Points& points, const fs::path& work) {
    reference.handout = work / "handout";
    fs::remove_all(reference.handout);
    make_handout(course, points, reference.handout);
}

void print_test(const GradedTest& test) {
    fmt::print("{}\n", messages::text("grade.test", {{"lesson", fmt::format("{:>2}", test.lesson)},
                                                   {"part", fmt::format("{:<8}", to_string(test.part))},
                                                   {"verdict", fmt::format("{:<12}", to_string(test.verdict))},
                                                   {"seconds", fmt::format("{:>5.1f}", test.seconds)},
                                                   {"headline", test.verdict == Verdict::pass ? "" : headline(test).substr(0, 100)}}));
    std::fflush(stdout);
}

}  // namespace

int run_grade(const CourseSettings& settings, const GradeRequest& request) {
    const auto start = Clock::now();
    Grade grade;
    if (request.reference.empty()) {
        // The course's own checks, in its own build directory.
        const Course course = load_course(settings.root, settings.build_dir, WARPDRILL_ACTIVE_BACKEND, "");
        GradeOptions options = options_of(settings, request, course);
        options.on_graded = print_test;
        options.replay = replay_command(request, settings.root, options.base_seed);
        std::vector<LessonToGrade> plan;
        for (const Lesson* lesson : selected_lessons(course, options)) plan.push_back({lesson, parts_of(*lesson), ""});
        grade.learner = directory_name(settings.root);
        grade.backend = course.backend;
        grade.sandbox = "none (the course's own checks)";
        grade.base_seed = options.base_seed;
        fmt::print("{}\n", messages::text("grade.own_checks", {{"seed", options.base_seed}}));
        grade.tests = grade_lessons(course, plan, options);
    } else {
        const std::string sandbox = sandbox_of(request);
        const fs::path work = settings.build_dir / "grading";
        Reference reference = reference_for(settings, request, work);
        const Course course = load_course(reference.root, reference.kit, reference.backend, "");
        GradeOptions options = options_of(settings, request, course);
        options.on_graded = print_test;
        options.replay = replay_command(request, settings.root, options.base_seed);
        options.deadline = Clock::now() + std::chrono::seconds(request.submission_limit);
        make_handout_baseline(reference, course, options.points, work);
        fmt::print("{}\n", messages::text("grade.against", {{"submission", settings.root.string()},
                                                          {"reference", reference.label},
                                                          {"seed", options.base_seed},
                                                          {"sandbox", sandbox}}));
        grade = grade_submission(fs::absolute(settings.root), reference, work / "submission", options);
        grade.sandbox = sandbox;
        for (const std::string& note : grade.notes) fmt::print("{}\n", messages::text("grade.note", {{"note", note}}));
        if (!grade.changed_files.empty()) {
            fmt::print("{}\n", messages::text("grade.changed_files", {{"count", grade.changed_files.size()}}));
        }
    }
    grade.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    write_reports(grade, request.out);
    const auto passed = std::ranges::count(grade.tests, Verdict::pass, &GradedTest::verdict);
    fmt::print("\n{}\n", messages::text("grade.total", {{"passed", passed},
                                                      {"tests", grade.tests.size()},
                                                      {"points", fmt::format("{:g}", grade.points())},
                                                      {"max_points", fmt::format("{:g}", grade.max_points())},
                                                      {"out", request.out}}));
    return grade.all_passed() ? 0 : 1;
}

namespace {

// A roster cell: the worst of a lesson's tests.
Verdict lesson_verdict(const Grade& grade, const std::string& lesson) {
    // A lesson whose checks all were skipped is "skipped"; one test skipped beside a pass, "pass".
    constexpr Verdict kWorstFirst[] = {Verdict::missing, Verdict::build_error, Verdict::time_out, Verdict::crash,
                                       Verdict::fail,    Verdict::pass,        Verdict::skipped};
    for (Verdict verdict : kWorstFirst) {
        for (const GradedTest& test : grade.tests)
            if (test.lesson_name == lesson && test.verdict == verdict) return verdict;
    }
    return Verdict::pass;
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
    return quoted + "\"";
}

// Why a row is not plain passes and failures: each lesson that did not
// build, ran out of time, crashed or is missing, with its first line; notes.
std::string row_notes(const Grade& grade, const Course& course) {
    std::vector<std::string> notes = grade.notes;
    for (const Lesson& lesson : course.lessons) {
        const Verdict verdict = lesson_verdict(grade, lesson.name);
        if (verdict == Verdict::pass || verdict == Verdict::fail) continue;  // also when not graded
        const auto test = std::ranges::find_if(grade.tests, [&](const GradedTest& test) {
            return test.lesson_name == lesson.name && test.verdict == verdict;
        });
        notes.push_back(fmt::format("{} {}: {}", lesson.name.substr(0, 2), to_string(verdict), headline(*test)));
    }
    if (!grade.changed_files.empty())
        notes.push_back(messages::text("grade_all.changed_files", {{"count", grade.changed_files.size()}}));
    std::string joined;
    for (const std::string& note : notes) joined += (joined.empty() ? "" : "; ") + note;
    return joined;
}

// The lessons that were graded (all, unless --lesson chose some).
std::vector<const Lesson*> graded_lessons(const std::vector<Grade>& grades, const Course& course) {
    std::vector<const Lesson*> graded;
    for (const Lesson& lesson : course.lessons) {
        const auto has_tests = [&](const Grade& grade) {
            return std::ranges::find(grade.tests, lesson.name, &GradedTest::lesson_name) != grade.tests.end();
        };
        if (std::ranges::any_of(grades, has_tests)) graded.push_back(&lesson);
    }
    return graded;
}

void write_roster(const std::vector<Grade>& grades, const Course& course, const fs::path& file) {
    const std::vector<const Lesson*> lessons = graded_lessons(grades, course);
    std::ofstream csv(file);
    csv << "learner";
    for (const Lesson* lesson : lessons) csv << "," << lesson->name;
    csv << ",points,max_points,notes\n";
    for (const Grade& grade : grades) {
        csv << csv_field(grade.learner);
        for (const Lesson* lesson_graded : lessons) {
            const Lesson& lesson = *lesson_graded;
            const bool graded = std::ranges::find(grade.tests, lesson.name, &GradedTest::lesson_name) != grade.tests.end();
            csv << "," << (graded ? to_string(lesson_verdict(grade, lesson.name)) : "");
        }
        csv << fmt::format(",{:g},{:g},", grade.points(), grade.max_points()) << csv_field(row_notes(grade, course))
            << "\n";
    }
}

// A failure's first line with its numbers as '#', so that the same mistake
// made on other elements or sizes counts as one.
std::string without_numbers(const std::string& line) {
    static const std::regex number(R"(-?\b\d+(\.\d+)?([eE][-+]?\d+)?\b)");
    return std::regex_replace(line, number, "#");
}

void write_summary(const std::vector<Grade>& grades, const Course& course, const std::string& header,
                   const fs::path& file) {
    std::ofstream out(file);
    out << header << "\n\n" << messages::text("summary.lessons_passed", {{"count", grades.size()}}) << "\n";
    for (const Lesson* lesson : graded_lessons(grades, course)) {
        const auto passed = std::ranges::count_if(grades, [&](const Grade& grade) {
            return std::ranges::find(grade.tests, lesson->name, &GradedTest::lesson_name) != grade.tests.end() &&
                   lesson_verdict(grade, lesson->name) == Verdict::pass;
        });
        out << fmt::format("  {:<32} {:>4}\n", lesson->name, passed);
    }
    // How many learners share each failure (a learner counts once per failure).
    std::map<std::string, std::set<std::string>> learners_of;
    for (const Grade& grade : grades) {
        for (const GradedTest& test : grade.tests) {
            if (test.verdict == Verdict::pass || test.verdict == Verdict::skipped) continue;
            const std::string key = messages::text("summary.failure", {{"lesson", test.lesson},
                                                                       {"part", to_string(test.part)},
                                                                       {"verdict", to_string(test.verdict)},
                                                                       {"headline", without_numbers(headline(test))}});
            learners_of[key].insert(grade.learner);
        }
    }
    std::vector<std::pair<std::size_t, std::string>> shared;
    for (const auto& [failure, learners] : learners_of) shared.emplace_back(learners.size(), failure);
    std::ranges::sort(shared, std::greater{});
    out << "\n" << messages::text("summary.shared_failures") << "\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(shared.size(), 20); ++i)
        out << fmt::format("  {:>4}  {}\n", shared[i].first, shared[i].second.substr(0, 200));
    if (shared.empty()) out << "  " << messages::text("summary.none") << "\n";
}

// A grade for a submission whose grading itself failed: every test an error, with the reason.
Grade ungraded(const std::string& learner, const Course& course, const GradeOptions& options,
               const std::string& reason) {
    Grade grade;
    grade.learner = learner;
    grade.base_seed = options.base_seed;
    grade.notes.push_back(
        messages::text("grade_all.stopped_note", {{"reason", reason.substr(0, reason.find('\n'))}}));
    for (const Lesson* lesson : selected_lessons(course, options)) {
        for (Part part : parts_of(*lesson)) {
            GradedTest test;
            test.lesson = lesson->number;
            test.lesson_name = lesson->name;
            test.lesson_title = lesson->title;
            test.part = part;
            test.verdict = Verdict::build_error;
            test.max_points = options.points.of(*lesson, part);
            test.message = messages::text("grade_all.stopped_message", {{"reason", reason}});
            grade.tests.push_back(test);
        }
    }
    return grade;
}

std::vector<fs::path> submissions_in(const fs::path& dir) {
    if (!fs::is_directory(dir))
        throw std::runtime_error(messages::text("grade_all.not_a_directory", {{"dir", dir.string()}}));
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.is_directory() && !entry.path().filename().string().starts_with(".")) found.push_back(entry.path());
    }
    std::ranges::sort(found);
    return found;
}

}  // namespace

int run_grade_all(const CourseSettings& settings, const std::string& submissions_dir, const GradeRequest& request) {
    const auto start = Clock::now();
    const std::vector<fs::path> submissions = submissions_in(submissions_dir);
    const std::string sandbox = sandbox_of(request);
    const fs::path out = fs::absolute(request.out);
    const fs::path work = out / ".work";
    Reference reference = reference_for(settings, request, work);
    const Course course = load_course(reference.root, reference.kit, reference.backend, "");
    GradeOptions options = options_of(settings, request, course);
    make_handout_baseline(reference, course, options.points, work);

    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned jobs = request.jobs > 0 ? static_cast<unsigned>(request.jobs) : cores;
    // Each check program spreads blocks over worker threads: share the cores among the jobs.
    setenv("WARPDRILL_CPU_WORKERS", std::to_string(std::max(1u, cores / jobs)).c_str(), 0);
    const double preparing = std::chrono::duration<double>(Clock::now() - start).count();
    fmt::print("{}\n", messages::text("grade_all.start", {{"seconds", fmt::format("{:.0f}", preparing)},
                                                        {"count", submissions.size()},
                                                        {"reference", reference.label},
                                                        {"jobs", jobs},
                                                        {"seed", options.base_seed},
                                                        {"sandbox", sandbox}}));
    std::fflush(stdout);

    std::vector<Grade> grades(submissions.size());
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::mutex print;
    const auto grade_next = [&] {
        for (std::size_t i; (i = next++) < submissions.size();) {
            const std::string learner = submissions[i].filename().string();
            const auto begun = Clock::now();
            GradeOptions own = options;
            own.deadline = begun + std::chrono::seconds(request.submission_limit);
            own.replay = replay_command(request, submissions[i], options.base_seed);
            try {
                grades[i] = grade_submission(fs::absolute(submissions[i]), reference, work / learner, own);
            } catch (const std::exception& error) {
                grades[i] = ungraded(learner, course, own, error.what());
            }
            grades[i].sandbox = sandbox;
            grades[i].seconds = std::chrono::duration<double>(Clock::now() - begun).count();
            write_reports(grades[i], out / learner);
            if (!request.keep_builds) remove_working_copy(work / learner);
            const std::lock_guard lock(print);
            const Grade& graded = grades[i];
            fmt::print("{}\n", messages::text("grade_all.graded",
                                              {{"done", ++done},
                                               {"count", submissions.size()},
                                               {"learner", learner},
                                               {"passed", std::ranges::count(graded.tests, Verdict::pass, &GradedTest::verdict)},
                                               {"tests", graded.tests.size()},
                                               {"points", fmt::format("{:g}", graded.points())},
                                               {"max_points", fmt::format("{:g}", graded.max_points())},
                                               {"seconds", fmt::format("{:.0f}", graded.seconds)}}));
            std::fflush(stdout);
        }
    };
    std::vector<std::thread> workers;
    for (unsigned j = 0; j < std::min<std::size_t>(jobs, submissions.size()); ++j) workers.emplace_back(grade_next);
    for (std::thread& worker : workers) worker.join();

    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const std::string header = messages::text("grade_all.header", {{"count", submissions.size()},
                                                                   {"reference", reference.label},
                                                                   {"backend", reference.backend},
                                                                   {"seed", options.base_seed},
                                                                   {"sandbox", sandbox},
                                                                   {"seconds", fmt::format("{:.0f}", seconds)},
                                                                   {"jobs", jobs},
                                                                   {"check_limit", settings.time_limit.count()},
                                                                   {"submission_limit", request.submission_limit}});
    write_roster(grades, course, out / "roster.csv");
    write_summary(grades, course, header, out / "summary.txt");
    fmt::print("\n{}\n{}\n", header, messages::text("grade_all.reports", {{"roster", (out / "roster.csv").string()},
                                                                           {"summary", (out / "summary.txt").string()},
                                                                           {"out", out.string()}}));
    return 0;
}

}  // namespace warpdrill::runner
