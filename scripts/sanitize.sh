#!/usr/bin/env bash
# Builds the whole test suite with AddressSanitizer + UndefinedBehaviorSanitizer (gcc) and runs it;
# any sanitizer report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="$flags" >/dev/null
cmake --build build-asan -j2 >/dev/null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The two whole-session output checks (README, float32 noise on the real corpus) compare text the
# release suite already compares; under ASan they would run a Debug binary some 400 times, minutes of
# CI for no memory check the session suite does not already make.
ctest --test-dir build-asan --output-on-failure -j2 -E "readme_examples_match_the_binary|outputs_on_real_corpus_have_no_float32_noise"
