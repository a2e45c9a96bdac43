// `warpdrill profile N`: what the hardware does with lesson N's kernel, counted
// on the CPU backend as Nsight Compute counts on a GPU, with a modelled time
// on a named GPU, and ncu's own numbers beside them: measured on this
// machine's GPU where it has one, else the solutions' from results/.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "app.h"
#include "gpu_model.h"

namespace warpdrill::runner {

// After a lesson's first pass (`warpdrill check`), on the CPU backend:
// profiles the learner's kernel and prints one line, the counters that moved
// most since the nearest earlier lesson that passed and computes the same.
void print_what_moved_on_first_pass(App& app, const Lesson& lesson);

}  // namespace warpdrill::runner
