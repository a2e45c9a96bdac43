// Catch2 2.x (Debian 12) is one header, whose implementation is compiled
// where CATCH_CONFIG_RUNNER is defined: here, alone, without optimisation or
// debug information (common/CMakeLists.txt). Compiled with the rest of the
// check programs' main it took most of a minute, and no check runs faster
// for it. Catch2 3.x is a compiled library of its own and needs no such file.
#define CATCH_CONFIG_RUNNER  // the implementation, without a main(): catch_main.cpp has ours
#define CATCH_CONFIG_DEFAULT_REPORTER "warpdrill"
#include <catch2/catch.hpp>

int run_catch_session(int argc, char* argv[]) {
    Catch::Session session;  // its default reporter is ours (above)
    if (const int error = session.applyCommandLine(argc, argv)) return error;
    return session.run();
}
