#pragma once
// Writes a small GNT4-like dump with the project's own .mot writer: the embedded default
// that `animdex demo` indexes and queries. Deterministic: same options, same bytes.
#include <filesystem>
#include <string>
#include <vector>

#include "output/output_folder.h"

namespace animdex {

// The GNT4 character list the sample takes its characters from, in order: the most it can write
// (each has a real folder code, name and internal ID in the reference tables).
inline constexpr int kSampleCharacterLimit = 41;

struct SampleDumpOptions {
  int character_count = 12;          // taken in order from the GNT4 character list (at most kSampleCharacterLimit)
  bool include_problem_files = true; // a truncated and a corrupt .mot, and .mot files that are not GNT
  bool include_kh2 = false;          // KH2 motion sets (Player with dummies, Default with a nested set) and an ANB
  bool include_nsbca = false;        // an NSBCA with two animations (steps 1 and 2; const, animated, base nodes)
                                     // and its model (NSBMD: node names, the handle's bind pose)
};

struct SampleDumpSummary {
  std::vector<std::string> characters;  // character codes written
  std::vector<std::string> files;       // paths written, relative to the root
};

// Writes the sample into `out` (the caller checks the folder and calls out.finish()).
SampleDumpSummary write_sample_dump(OutputFolder& out, const SampleDumpOptions& options);
// The same into `root`, a folder the caller owns (tests, the demo): files the sample writes are
// replaced whoever wrote them.
SampleDumpSummary write_sample_dump(const std::filesystem::path& root, const SampleDumpOptions& options);

// True when `root` is missing, empty, or holds only files that write_sample_dump(root, options)
// writes (an earlier run with the same options): a folder `sample` may write into without --force.
bool is_sample_folder(const std::filesystem::path& root, const SampleDumpOptions& options);

// The characters whose sample animations animate bone 118 (0x76): those with the universal
// throw (which moves bones 118-120) plus those with long hair (bones 0x6F-0x76).
std::vector<std::string> sample_bone_118_characters(int character_count);

}  // namespace animdex
