// The warpdrill program's commands, one function each; each returns the
// program's exit code.
#pragma once

#include <string>

#include "app.h"

namespace warpdrill::runner {

// status.cpp: where the learner stands.
int run_list(App& app);
int run_setup(App& app);

// lesson.cpp: one lesson at a time.
int run_check(App& app, int number);
int run_hint(App& app, int number);

// files.cpp: the learner's files.
int run_reset(App& app, int number);
int run_solution(App& app, int number);
// Keeps the starting version of every learner file, for `reset` outside git.
void save_pristine_copies(const Course& course);

int run_watch(App& app, const Lesson* start);        // watch.cpp
int run_bench(App& app, int number, bool solution);  // bench.cpp
int run_grade(App& app, const std::string& out_dir); // grade.cpp
int run_test(App& app);                              // test.cpp

}  // namespace warpdrill::runner
