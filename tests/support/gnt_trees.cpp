// Twelve generated GNT characters and the problem files (see gnt_trees.h), written with the
// project's .mot writer: moved here from tests/indexer/index_end_to_end_test.cpp so that its C++ test
// and the SQL fixture `gnt-twelve` (tests/sql) index the same tree.
#include "support/gnt_trees.h"

#include "formats/gnt_mot/gnt_mot_builder.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "support/gnt_builders.h"
#include "support/test_support.h"

namespace animdex::test {

using namespace animdex::gnt_mot;

const std::vector<std::string> kGntTwelveCharacters = {"sas", "hak", "kak", "loc", "iru", "zab",
                                                       "sak", "nar", "ino", "gar", "nej", "hin"};

namespace {

BoneSpec rotation(std::uint16_t bone, std::vector<std::int64_t> frames, float base) {
  return rotation_track(bone, std::move(frames), base, CoordinateEncoding::bf16, std::byte{0xCD});
}

GntAnimation animation(std::uint32_t id, std::int64_t frames, const std::vector<BoneSpec>& bones) {
  return gnt_animation(id, frames, bones);
}

// The universal throw: the same content everywhere it appears.
GntAnimation universal_throw() {
  return animation(0x140, 40, {rotation(0, {0, 20, 40}, 0.5F), rotation(1, {0, 40}, 1.0F),
                               rotation(118, {0, 10, 40}, 2.0F), rotation(119, {0, 40}, 2.0F),
                               rotation(120, {0, 40}, 2.0F)});
}

std::vector<GntAnimation> animations_for(std::size_t index, const std::string& code) {
  const float personal = 0.5F + static_cast<float>(index);  // exactly representable in bf16 for index < 12
  std::vector<BoneSpec> body;
  for (std::uint16_t bone = 0; bone < 6; ++bone) body.push_back(rotation(bone, {0, 15, 30}, personal));
  std::vector<GntAnimation> list;
  auto idle_bones = body;
  if (code == "ino") idle_bones.push_back(rotation(118, {0, 30}, 1.5F));  // hair left 3
  list.push_back(animation(0x0000, 30, idle_bones));
  list.push_back(animation(0x0001, 24, body));
  if (code == "sas" || code == "kak" || code == "nar" || code == "gar") list.push_back(universal_throw());
  if (code == "sak") list.push_back(animation(0x0090, 20, {rotation(119, {0, 20}, 1.0F)}));  // 119 but not 118
  if (code == "nar") list.push_back(animation(0x01B0, 60, body));
  if (code == "gar") {
    auto more = body;
    more.push_back(rotation(0x15, {0, 30, 60}, 3.0F));
    list.push_back(animation(0x01B0, 60, more));
  }
  return list;
}

}  // namespace

std::filesystem::path write_gnt_twelve(const std::filesystem::path& root) {
  for (std::size_t i = 0; i < kGntTwelveCharacters.size(); ++i) {
    const auto& code = kGntTwelveCharacters[i];
    MotFile battle;
    battle.slot_count = 0x200;
    battle.animations = animations_for(i, code);
    write_bytes(root / "files/chr" / code / "0000.mot", write_mot(battle));
    MotFile select;
    select.slot_count = 1;
    select.animations = {battle.animations.front()};
    write_bytes(root / "files/chr" / code / "0001.mot", write_mot(select));
  }
  // Problem files.
  MotFile small;
  small.slot_count = 4;
  small.animations = animations_for(0, "x");
  small.animations.resize(2);
  auto truncated = write_mot(small);
  truncated.resize(truncated.size() - 16);
  write_bytes(root / "files/chr/bad/0000.mot", truncated);
  auto bad_flags = write_mot(small);
  const std::size_t first_gnta = align16(0x10 + 4 * 4);
  bad_flags[first_gnta + 0x10] = std::byte{0x02};
  bad_flags[first_gnta + 0x11] = std::byte{0x00};  // flags1 0x0200: no encoding bit
  write_bytes(root / "files/chr/zab/0002.mot", bad_flags);
  write_text(root / "files/tools/loader.mot", "S00F000068656C6C6F202020202000003C\nS9030000FC\n");
  write_text(root / "files/lw/camera.mot", "LWMO\n1\n9\n1\n0 0 0 0 0 0 1 1 1\n0 0 0 0 0\n");
  write_bytes(root / "files/chr/ank/0000.mot", bytes_of("\x02\x84\x10\x98\x24\x01\x84\x21"));
  return root;
}


}  // namespace animdex::test
