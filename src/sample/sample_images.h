#pragma once
// Disc images and archives built from a sample dump by the project's own container writers: what
// `animdex sample --images` writes and `animdex demo` indexes beside the loose dump, and what the
// container tests compare with the loose files.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "output/output_folder.h"

namespace animdex {

struct SampleImagesSummary {
  std::vector<std::string> files;  // images written, relative to the output folder
};

// From a dump written by write_sample_dump at `dump` (with --kh2 and --nsbca for every image):
//   gnt4.iso   GameCube image: each character's files/chr/<code>/*.mot in fpack/chr/<code>1000.fpk,
//              PRS-compressed and stored as the game stores them (`hr/<code>/0000.mot`); the dump's
//              other files raw on the disc under their own paths;
//   gnt4.ciso  the same image as a CISO;
//   nitro.nds  a ROM with data/door.narc (a nameless NARC: the NSBCA plain, LZ10 and LZ11) and
//              data/named.narc (a named NARC holding anim/door.nsbca);
//   kh2.iso    an ISO9660 image holding KH2.IDX + KH2.IMG: the sample motion sets under real KH2 names
//              (obj/P_EX100.mset compressed, obj/M_EX010.mset raw, an ANB) and one unnamed entry.
// Into `out`, checked by the caller, who calls out.finish().
SampleImagesSummary write_sample_images(const std::filesystem::path& dump, OutputFolder& out);
// The same into a folder the caller owns (tests, the demo): the images' names are replaced.
SampleImagesSummary write_sample_images(const std::filesystem::path& dump, const std::filesystem::path& out);

// gnt4.iso's bytes alone, from any tree with GNT4's layout under `dump`/files (the bench's game image).
std::vector<std::byte> gnt4_disc_image(const std::filesystem::path& dump);

}  // namespace animdex
