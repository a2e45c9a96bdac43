// `warpdrill handout DIR`: the course for learners. What the instructor keeps
// back is listed once, below; the README loses its instructors' parts (those
// marked "<!-- not in the handout -->") and gains how to start; the copy gets
// a GitHub Classroom workflow and a git history of its own.
#include "handout.h"

#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "commands.h"
#include "process.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// What stays with the instructor: the solutions and the points, the
// project's own tests, CI and the scripts that run them or measure the
// solutions (scripts/ncu-table.sh), the templates of `warpdrill new` (a solved
// kernel among them), the fake class of scripts/fake-class.sh; and what builds
// and runs make, where git does not say what to copy.
const std::vector<fs::path> kKeptBack = {
    "solutions", "grading.toml", "CONTRIBUTING.md", "tests", "cpu-cuda/tests", ".ci", ".github", "scripts/gpu-check.sh",
    "scripts/fresh-machine.sh", "scripts/ncu-table.sh", "scripts/fake-class.sh", "runner/templates", "build",
    "grade", "grades", ".progress", ".deps", ".git", "book/_build", "book/_generated"};

const std::string kNotInHandout = "<!-- not in the handout -->";

bool kept_back(const fs::path& relative) {
    for (fs::path part = relative; !part.empty(); part = part.parent_path())
        if (std::ranges::find(kKeptBack, part) != kKeptBack.end()) return true;
    return std::ranges::find(relative, fs::path("__pycache__")) != relative.end();
}

// The course's files, relative to its root: in a git checkout, those git
// tracks or would (never what it ignores: builds, grades, a learner's
// reports lying in the instructor's copy); elsewhere every file.
std::vector<fs::path> course_files(const fs::path& root) {
    std::vector<fs::path> files;
    const ProcessResult git = run_process(
        {"git", "-C", root.string(), "ls-files", "-z", "--cached", "--others", "--exclude-standard"},
        std::chrono::seconds(60));
    if (git.exit_code == 0) {
        std::istringstream names(git.output);
        for (std::string name; std::getline(names, name, '\0');) files.emplace_back(name);
        return files;
    }
    for (const auto& entry : fs::recursive_directory_iterator(root))
        if (!entry.is_directory()) files.push_back(entry.path().lexically_relative(root));
    return files;
}

void copy_course(const fs::path& root, const fs::path& dest) {
    for (const fs::path& relative : course_files(root)) {
        const fs::path source = root / relative;
        if (kept_back(relative) || !fs::exists(fs::symlink_status(source))) continue;  // kept back, or deleted
        fs::create_directories((dest / relative).parent_path());
        fs::copy(source, dest / relative, fs::copy_options::copy_symlinks);
    }
}

int heading_level(const std::string& line) {
    const auto hashes = line.find_first_not_of('#');
    return hashes != std::string::npos && hashes > 0 && line[hashes] == ' ' ? static_cast<int>(hashes) : 0;
}

// The course README for learners: a line marked kNotInHandout goes, and a
// marked heading takes its section with it; after the title, how to start.
std::string learner_readme(const std::string& readme) {
    std::istringstream in(readme);
    std::string out;
    int dropping_below = 0;  // the level of the heading whose section is dropped; 0: none
    bool title_seen = false;
    for (std::string line; std::getline(in, line);) {
        const int level = heading_level(line);
        if (dropping_below > 0 && level > 0 && level <= dropping_below) dropping_below = 0;
        if (dropping_below > 0) continue;
        if (line.ends_with(kNotInHandout)) {
            if (level > 0) dropping_below = level;
            continue;
        }
        out += line + "\n";
        if (!title_seen && level == 1) {
            title_seen = true;
            out += "\n"
                   "**This is your copy of the course.** Start it with `./warpdrill` in this directory: it\n"
                   "installs what is missing (after asking), builds the course and opens the first\n"
                   "lesson. Edit the files it names until the checks pass; `./warpdrill hint N` helps one\n"
                   "step at a time. Every `git push` is graded (`.github/workflows/classroom.yml`).\n";
        }
    }
    return out;
}

void write_file(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::trunc) << text;
}

// A YAML double-quoted string: a lesson's title may hold ": " or "#".
std::string yaml_quoted(const std::string& text) {
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' || c == '\\' ? std::string{'\\', c} : std::string{c};
    return quoted + "\"";
}

// A GitHub Actions step id for a test: "lesson-03-kernel".
std::string step_id(const Lesson& lesson, Part part) {
    return fmt::format("lesson-{:02}-{}", lesson.number, to_string(part));
}

}  // namespace

std::string classroom_workflow(const Course& course, const Points& points) {
    std::string steps;
    std::string results;
    std::string runners;
    for (const Lesson& lesson : course.lessons) {
        for (Part part : parts_of(lesson)) {
            const std::string id = step_id(lesson, part);
            std::string upper = id;
            for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            steps += fmt::format(
                "      - name: {}\n"
                "        id: {}\n"
                "        uses: classroom-resources/autograding-command-grader@v1\n"
                "        with:\n"
                "          test-name: lesson {} {}\n"
                "          command: grep -qxF {}/{} grade/passed.txt\n"
                "          timeout: 1\n"
                "          max-score: {}\n",
                yaml_quoted(fmt::format("lesson {} ({}), {}", lesson.number, lesson.title, to_string(part))), id,
                lesson.number, to_string(part), lesson.name,
                to_string(part), points.of(lesson, part));
            results += fmt::format("          {}_RESULTS: \"${{{{steps.{}.outputs.result}}}}\"\n", upper, id);
            runners += (runners.empty() ? "" : ",") + id;
        }
    }
    return fmt::format(
        "# GitHub Classroom autograding, made by `warpdrill handout`. On every push:\n"
        "# install the Debian/Ubuntu packages the course needs (packages/debian.txt),\n"
        "# grade every lesson on the CPU backend (./warpdrill grade: grade/grade.xml is\n"
        "# the JUnit report, kept as the run's artifact), and give GitHub Classroom one\n"
        "# score per test from grade/passed.txt. The instructor's own grading, on\n"
        "# checks a learner cannot edit: warpdrill grade-all --reference.\n"
        "name: Autograding Tests\n"
        "'on': [push, repository_dispatch, workflow_dispatch]\n"
        "permissions:\n"
        "  checks: write\n"
        "  actions: read\n"
        "  contents: read\n"
        "jobs:\n"
        "  run-autograding-tests:\n"
        "    runs-on: ubuntu-24.04\n"
        "    if: github.actor != 'github-classroom[bot]'\n"
        "    steps:\n"
        "      - name: Checkout code\n"
        "        uses: actions/checkout@v4\n"
        "      - name: Install the packages of packages/debian.txt\n"
        "        run: |\n"
        "          sudo apt-get update\n"
        "          sudo apt-get install -y --no-install-recommends $(bash -c 'course_root=.; source scripts/setup.sh; packages_in course')\n"
        "      - name: Grade every lesson on the CPU backend\n"
        "        continue-on-error: true\n"
        "        run: |\n"
        "          ./warpdrill --backend cpu grade --out grade\n"
        "      - name: Keep the JUnit report\n"
        "        if: always()\n"
        "        uses: actions/upload-artifact@v4\n"
        "        with:\n"
        "          name: grade\n"
        "          path: grade/\n"
        "{}"
        "      - name: Autograding Reporter\n"
        "        uses: classroom-resources/autograding-grading-reporter@v1\n"
        "        env:\n"
        "{}"
        "        with:\n"
        "          runners: {}\n",
        steps, results, runners);
}

void make_handout(const Course& course, const Points& points, const fs::path& dest) {
    if (fs::exists(dest))
        throw std::runtime_error(messages::text("handout.exists", {{"dir", dest.string()}}));
    copy_course(course.root, dest);
    // The lessons as handed out, never as the instructor may have solved them in this checkout.
    for (const Lesson& lesson : course.lessons) {
        for (const fs::path& file : lesson.edit_files) {
            if (const auto original = starting_version(course, file)) write_file(dest / course.relative(file), *original);
        }
    }
    std::ifstream readme(course.root / "README.md");
    write_file(dest / "README.md", learner_readme({std::istreambuf_iterator<char>(readme), {}}));
    write_file(dest / ".github" / "workflows" / "classroom.yml", classroom_workflow(course, points));
}

int run_handout(const CourseSettings& settings, const std::string& dest) {
    const Course course = load_course(settings.root, settings.build_dir, WARPDRILL_ACTIVE_BACKEND, "");
    const Points points = Points::of_course(course);
    make_handout(course, points, dest);
    const std::vector<std::vector<std::string>> git_steps = {
        {"git", "-C", dest, "init", "-q"},
        {"git", "-C", dest, "add", "-A"},
        {"git", "-C", dest, "-c", "user.name=warpdrill", "-c", "user.email=warpdrill@localhost", "commit", "-q",
         "-m", "The course, as handed out"}};
    for (const auto& step : git_steps) {
        const ProcessResult git = run_process(step, std::chrono::seconds(120));
        if (git.exit_code != 0)
            throw std::runtime_error(
                messages::text("handout.git_failed", {{"dir", dest}, {"output", git.output}}));
    }
    fmt::print("{}\n", messages::text("handout.done", {{"dir", dest}}));
    return 0;
}

}  // namespace warpdrill::runner
