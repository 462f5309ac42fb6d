#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (ASan + UBSan), seeds each corpus from the
# project's own writer (the sample dump), the regression inputs in tests/regression/ and, when
# present, ../shared/corpus/real/, then runs every target for FUZZ_SECONDS (default 10; containers
# FUZZ_CONTAINER_SECONDS, default 5; a longer local run finds more), FUZZ_JOBS (default 2) targets at a time.
# Fails on any crash, leak, timeout or sanitizer report; a finding is written to
# build-fuzz/findings/<target>/ -- copy it into tests/regression/<format>/ so the tests replay it.
# Usage: scripts/fuzz.sh [ANIMDEX_BINARY]   (default build/animdex, used to write the sample dump)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-10}
animdex=${1:-build/animdex}
out=build-fuzz

CC=clang-14 CXX=clang++-14 cmake -S . -B "$out" -DANIMDEX_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$out" -j2 >/dev/null

seeds="$out/seeds"
rm -rf "$seeds" && mkdir -p "$seeds/sample"
"$animdex" sample "$seeds/sample" --characters 3 --kh2 --nsbca --images "$seeds/images" 2>/dev/null
# Container targets seed from the sample images and their members (the real NARCs come below).
mkdir -p "$seeds/members"
for image in "$seeds"/images/*; do
  while IFS=$'\t' read -r member _; do
    [[ -z "$member" ]] && continue
    "$animdex" extract "$image" "$member" --out "$seeds/members/$(echo "$image-$member" | tr '/.' '__')" 2>/dev/null || true
  done < <("$animdex" ls "$image" --recursive --format csv 2>/dev/null | tail -n +2 | cut -d, -f1 | sed 's/$/\t/')
done
# Format targets also seed from the members of the real archives that some format detects (DS
# models and animations are only there): the ids come from `animdex ls`, so no list of formats here.
mkdir -p "$seeds/real-members"
if [[ -d ../shared/corpus/real/containers ]]; then
  while IFS= read -r -d '' archive; do
    while IFS= read -r member; do
      "$animdex" extract "$archive" "$member" --out "$seeds/real-members/$(echo "$archive-$member" | tr '/.' '__')" 2>/dev/null || true
    done < <("$animdex" ls "$archive" --format csv 2>/dev/null | tail -n +2 | awk -F, '$2 != "unknown" && $2 != "" {print $1}')
  done < <(find ../shared/corpus/real/containers -type f -print0)
fi
container_seconds=${FUZZ_CONTAINER_SECONDS:-5}
status=0
jobs_at_once=${FUZZ_JOBS:-2}
targets=()
# Detection over every format gets every format's dictionary as well as its own.
cat fuzz/fuzz_detect_parse.dict src/formats/*/fuzz_*.dict > "$out/fuzz_detect_parse.dict"
# Every target fuzz/CMakeLists.txt built (one per listed format folder's fuzz_*.cpp, and
# fuzz_detect_parse and fuzz_key_blob), each with the dictionary beside its source.
for source in src/formats/*/fuzz_*.cpp src/containers/*/fuzz_*.cpp fuzz/fuzz_detect_parse.cpp fuzz/fuzz_key_blob.cpp \
              fuzz/fuzz_container_walk.cpp; do
  target=$(basename "$source" .cpp)
  [[ -x "$out/fuzz/$target" ]] || continue  # a folder not in ANIMDEX_FORMATS / ANIMDEX_CONTAINERS is not built
  dictionary="${source%.cpp}.dict"
  [[ "$target" == fuzz_detect_parse ]] && dictionary="$out/fuzz_detect_parse.dict"
  dictionary_option=()
  [[ -f "$dictionary" ]] && dictionary_option=(-dict="$dictionary")
  target_seconds=$seconds
  if [[ "$source" == src/containers/* || "$target" == fuzz_container_walk ]]; then
    target_seconds=$container_seconds
  fi
  corpus="$out/corpus/$target"
  findings="$out/findings/$target"
  mkdir -p "$corpus" "$findings"
  i=0
  while IFS= read -r -d '' file; do cp "$file" "$corpus/seed-sample-$((i++))"; done < <(find "$seeds/sample" -type f -print0)
  if [[ -d tests/regression ]]; then
    while IFS= read -r -d '' file; do cp "$file" "$corpus/regression-$((i++))"; done < <(find tests/regression -type f -print0)
  fi
  if [[ "$target" == fuzz_key_blob ]]; then  # real key blobs: the sample dump's, as the indexer stores them
    rm -f "$out/seed-keys.db"
    "$animdex" index "$seeds/sample" --db "$out/seed-keys.db" --quiet >/dev/null 2>&1 || true  # exit 3: the sample's broken files
    sqlite3 "$out/seed-keys.db" "SELECT writefile('$corpus/blob-' || id, keys) FROM bone_tracks WHERE keys IS NOT NULL LIMIT 400" >/dev/null
  fi
  if [[ -d ../shared/corpus/real ]]; then
    while IFS= read -r -d '' file; do cp "$file" "$corpus/real-$((i++))"; done < <(find ../shared/corpus/real -type f ! -name '*.md' -size -300k -print0)
  fi
  if [[ "$source" == src/containers/* || "$target" == fuzz_container_walk ]]; then
    while IFS= read -r -d '' file; do cp "$file" "$corpus/seed-image-$((i++))"; done < <(find "$seeds/images" "$seeds/members" -type f -size -1024k -print0)
  fi
  if [[ "$source" == src/formats/* ]]; then
    while IFS= read -r -d '' file; do cp "$file" "$corpus/member-$((i++))"; done < <(find "$seeds/real-members" -type f -size -300k -print0)
  fi
  echo "fuzz: $target for ${target_seconds}s from $(ls "$corpus" | wc -l) seeds"
  # libFuzzer uses one core, so two targets run side by side on the CI's two cores.
  while (( $(jobs -rp | wc -l) >= jobs_at_once )); do wait -n || true; done
  ( rc=0; "$out/fuzz/$target" "$corpus" "${dictionary_option[@]}" -max_total_time="$target_seconds" \
      -timeout=10 -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$findings/" -print_final_stats=1 \
      >"$out/$target.log" 2>&1 || rc=$?; echo "$rc" >"$out/$target.status" ) &
  targets+=("$target")
done
wait
for target in "${targets[@]}"; do
  if [[ "$(cat "$out/$target.status")" != 0 ]]; then
    echo "fuzz: $target FAILED; findings in $out/findings/$target, log $out/$target.log"
    tail -40 "$out/$target.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$target.log" | sed "s/^/fuzz: $target /"
  fi
done
exit $status
