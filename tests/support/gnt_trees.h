#pragma once
// A generated GNT dump shared by the index tests and the SQL fixtures.
#include <filesystem>
#include <string>
#include <vector>

namespace animdex::test {

// The twelve characters of the generated dump, in order (character i's personal base is i + 0.5).
extern const std::vector<std::string> kGntTwelveCharacters;

// Writes at `root` a dump of twelve characters (files/chr/CODE/0000.mot and 0001.mot: idle, walk,
// the universal throw 0x140 for sas, kak, nar and gar, 0x90 on bone 119 for sak, 0x1B0 for nar and
// gar; ino's idle animates bone 118) plus problem files: a truncated .mot (bad), a .mot with bad
// flags (zab/0002.mot), an S-record loader and a non-GNT .mot (unknown), a LightWave motion.
// 29 files: 25 ok, 2 errors, 2 unknown. Returns `root`.
std::filesystem::path write_gnt_twelve(const std::filesystem::path& root);

}  // namespace animdex::test
