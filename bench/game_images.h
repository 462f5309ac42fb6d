#pragma once
// Whole-game images for the bench (issue 40), built by the project's own writers and never
// committed: what a user indexes when they point animdex at a disc instead of a dumped tree.
#include <cstdint>
#include <filesystem>
#include <string>

#include "bench_corpus.h"

namespace animdex::bench {

struct GameImage {
  std::uint64_t image_bytes = 0;      // the image's size on the disc as a reader sees it (holes included)
  std::uint64_t animation_bytes = 0;  // its animation files' bytes before compression: the throughput's measure
  std::uint64_t compressed_bytes = 0; // the same files as the image stores them
  std::uint64_t files = 0;            // animation files (members) in it
  CorpusSummary content;              // animations and keys written
};

// A GameCube image of GNT4's shape: `characters` folders of the bench corpus's GNT files (a battle
// .mot of `animations_per_character` animations and the select .mot), each character's in a
// PRS-compressed FPK, on a GCM of a full disc's 1,459,978,240 bytes (the tail a hole). `scratch`
// takes the dumped tree it is built from.
GameImage write_gnt4_image(const std::filesystem::path& image, const std::filesystem::path& scratch,
                           const CorpusSpec& spec);

// An ISO9660 DVD of KH2's shape: KH2.IDX + KH2.IMG holding `motion_sets` motion sets under the
// real obj/*.mset names (the first `motion_sets` of the 1,223 in KH2's name list), each
// KH2-compressed. Sizes follow the real sets' spread (corpus/real/kh2-mset: Player sets 0.8-2.6 MB,
// the others 2-260 KB): a P_ set has 80-200 slots, any other 1-23 (log-uniform), 60% of them dummies.
// The set named `changed_set` (e.g. "obj/P_EX100.mset", Sora's; empty for none) gets other contents
// of the same slot count: the image a modder has after editing one set, for the re-index figure.
GameImage write_kh2_dvd(const std::filesystem::path& image, int motion_sets, std::uint32_t seed,
                        const std::string& changed_set = "");

}  // namespace animdex::bench
