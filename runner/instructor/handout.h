// The course as learners get it (`warpdrill handout`).
#pragma once

#include <filesystem>

#include "course.h"
#include "grading.h"

namespace warpdrill::runner {

// Copies the course into `dest` (which must not exist) without what stays
// with the instructor (solutions, points, the project's own tests and CI),
// with a README for learners and a GitHub Classroom workflow
// (.github/workflows/classroom.yml) that grades every push with these points.
void make_handout(const Course& course, const Points& points, const std::filesystem::path& dest);

// The classroom workflow's text: install the packages, grade on the CPU
// backend, keep the JUnit report, one Classroom test per graded test.
std::string classroom_workflow(const Course& course, const Points& points);

}  // namespace warpdrill::runner
