// Catch2 2.x (Debian 12) and 3.x spell their headers differently.
#pragma once

#if defined(WARPDRILL_CATCH2_V2)
#include <catch2/catch.hpp>
#else
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#endif
