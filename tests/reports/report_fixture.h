#pragma once
// Two versions of a small generated GNT dump, for the report tests:
// v1: sas, hak, kak and loc. The Throw (0x140) is identical in sas, hak and kak. A hand-sign track
//     (bone 20) sits in sas 5B (0x90) and kak 5A (0xA0), which otherwise differ. hak's and kak's
//     Walk (0x01) have the same bones and key times, with values 0.0005 apart.
// v2: sas 5B changed (bone 1 value +1.5, bone 2 gains a key, bone 3 -- "hip" in GNT4's reference --
//     value +3.234375); hak gains Jump Land (0x31);
//     kak loses 5A; loc/0000.mot removed; nar/0000.mot added.
#include <filesystem>

namespace animdex::test {

void write_report_dump(const std::filesystem::path& root, int version);

}  // namespace animdex::test
