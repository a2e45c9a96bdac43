// The instructors' commands on the command line: grade, grade-all, handout,
// new and verify (commands.h has what they do). main.cpp makes one of these
// and runs it before anything the learners' commands need.
#pragma once

#include <CLI/CLI.hpp>

#include "commands.h"

namespace warpdrill::runner {

class InstructorCommands {
  public:
    explicit InstructorCommands(CLI::App& cli);  // adds the subcommands and their options
    bool chosen() const;                          // one of them is on the command line
    int run(const CourseSettings& settings) const;

  private:
    CLI::App* grade_ = nullptr;
    CLI::App* grade_all_ = nullptr;
    CLI::App* handout_ = nullptr;
    CLI::App* new_ = nullptr;
    CLI::App* verify_ = nullptr;
    GradeRequest grade_request_;
    GradeRequest grade_all_request_;
    std::string submissions_;
    std::string destination_;
    std::string lesson_name_;
    std::vector<int> verify_lessons_;
};

}  // namespace warpdrill::runner
