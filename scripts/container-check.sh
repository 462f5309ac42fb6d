#!/usr/bin/env bash
# Builds and runs one or more container folders' unit tests on their own, without the full build:
# their sources, the pure core they use and tests/containers/<name>/*.cpp, into build-check/<names>.
# Holds /tmp/animdex-build.lock while compiling, so it never runs beside another build.
# Usage: scripts/container-check.sh NAME [NAME ...] [-- CATCH_ARGS]
set -euo pipefail
cd "$(dirname "$0")/.."
names=(); while [[ $# -gt 0 && "$1" != "--" ]]; do names+=("$1"); shift; done
[[ "${1:-}" == "--" ]] && shift
out=build-check/$(IFS=_; echo "${names[*]}")
mkdir -p "$out"
sources=(src/core/byte_reader.cpp src/core/byte_writer.cpp src/core/parse_error.cpp src/core/parse_deadline.cpp
         src/core/parse_budget.cpp src/containers/byte_source.cpp src/containers/member_paths.cpp)
for name in "${names[@]}"; do
  for f in src/containers/"$name"/*.cpp tests/containers/"$name"/*.cpp; do
    [[ -e "$f" && "$(basename "$f")" != fuzz_* ]] && sources+=("$f")
  done
done
objects=()
(
  flock 9
  for f in "${sources[@]}" tests/containers/check_main.cpp; do
    o="$out/$(echo "$f" | tr / _).o"
    if [[ ! -e "$o" || "$f" -nt "$o" || -n "$(find src/containers src/core -name '*.h' -newer "$o" | head -1)" ]]; then
      g++ -std=c++20 -O1 -g -Wall -Wextra -Wpedantic -Isrc -I. -Itests -DANIMDEX_SOURCE_DIR="\"$PWD\"" -c "$f" -o "$o"
    fi
  done
  g++ -o "$out/check" "$out"/*.o -lfmt -lxxhash
) 9>/tmp/animdex-build.lock
"$out/check" "$@"
