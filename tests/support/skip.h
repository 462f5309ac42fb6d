#pragma once
// Skipping a test that needs ../shared, for tests with and without SQLite alike.
#include <catch2/catch.hpp>

// Ends the test case with `message` as a warning when `found` (a std::optional) is empty: tests
// read ../shared in place and skip, saying what they skip, where it is absent.
#define ANIMDEX_SKIP_UNLESS(found, message) \
  do {                                      \
    if (!(found)) {                         \
      WARN(message);                        \
      return;                               \
    }                                       \
  } while (false)
