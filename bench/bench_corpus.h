#pragma once
// Writes a GNT4-sized benchmark corpus (never committed), every format written by the project's
// writers: `characters` folders chr/<code>/ with a 0000.mot of `animations_per_character`
// animations (20-45 bones, 3-15 keys each, 16-bit coordinates) and a 0001.mot with the idle, as
// GNT4 dumps have; `motion_sets` KH2 Player motion sets (kh2/obj/P_EXnnn.mset, 160 slots, most of
// them dummies, real motions with hundreds of curves); `nsbca_files` NSBCA files (nds/data/, 10
// animations of 24 nodes each).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace animdex::bench {

struct CorpusSpec {
  int characters = 41;
  int animations_per_character = 250;
  int motion_sets = 6;
  int nsbca_files = 12;
  std::uint32_t seed = 1;
};

struct CorpusSummary {
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  std::uint64_t animations = 0;
  std::uint64_t keys = 0;
};

// The shape of a dumped GNT4 disc: 2,400 small .mot files (a 0000.mot of 4 animations and a
// 0001.mot per character folder), about 28 MB, where per-file costs outweigh per-key ones.
CorpusSpec small_files_spec();

CorpusSummary write_corpus(const std::filesystem::path& root, const CorpusSpec& spec);

// One KH2 motion set of `slots` slots, as the corpus's are (60% dummies) with one real motion in
// twelve raw: the bench's KH2 DVD image (game_images.h).
std::vector<std::byte> motion_set(std::uint64_t seed, int slots, CorpusSummary& summary);

}  // namespace animdex::bench
