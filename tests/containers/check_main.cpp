// The main() of scripts/container-check.sh's stand-alone container test binary.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
