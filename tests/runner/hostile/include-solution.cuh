// Hostile submission for lesson 1 (CPU backend only, see README.md): the
// reference's solution, included as the compiler builds the checks. The test
// fills in @SOLUTION@.
#pragma once

#include "@SOLUTION@"
