// Catch2 2.x's main(), with console output wide enough that a check's
// message reads as written.
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_CONSOLE_WIDTH 120
#include <catch2/catch.hpp>
