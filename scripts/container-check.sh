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
         src/core/parse_budget.cpp src/core/content_hash.cpp src/containers/byte_source.cpp
         src/containers/member_paths.cpp)
for name in "${names[@]}"; do
  for f in src/containers/"$name"/*.cpp tests/containers/"$name"/*.cpp; do
    [[ -e "$f" && "$(basename "$f")" != fuzz_* ]] && sources+=("$f")
  done
done
objects=()
# kh2_idx embeds a table the build makes from its name list (CMakeLists.txt: animdex_kh2_name_table).
names_list=src/containers/kh2_idx/kh2_idx_names.txt
name_table="$out/generated/kh2_idx_names.table"
name_tool=src/containers/kh2_idx/tools/kh2_name_table.cpp
(
  flock 9
  if [[ " ${names[*]} " == *" kh2_idx "* ]] &&
     [[ ! -e "$name_table" || "$names_list" -nt "$name_table" || "$name_tool" -nt "$name_table" ]]; then
    mkdir -p "$out/generated"
    g++ -std=c++20 -O1 -Isrc -o "$out/kh2_name_table" "$name_tool" src/containers/kh2_idx/kh2_hash.cpp -lfmt
    "$out/kh2_name_table" "$names_list" "$name_table"
  fi
  for f in "${sources[@]}" tests/containers/check_main.cpp; do
    o="$out/$(echo "$f" | tr / _).o"
    if [[ ! -e "$o" || "$f" -nt "$o" || -n "$(find src/containers src/core -name '*.h' -newer "$o" | head -1)" ||
          ( -e "$name_table" && "$name_table" -nt "$o" ) ]]; then
      g++ -std=c++20 -O1 -g -Wall -Wextra -Wpedantic -Isrc -I. -Itests -DANIMDEX_SOURCE_DIR="\"$PWD\"" \
          -DANIMDEX_BINARY_DIR="\"$PWD/$out\"" -c "$f" -o "$o"
    fi
  done
  g++ -o "$out/check" "$out"/*.o -lfmt -lxxhash
) 9>/tmp/animdex-build.lock
"$out/check" "$@"
