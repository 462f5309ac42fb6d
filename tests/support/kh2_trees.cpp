#include "support/kh2_trees.h"

#include "formats/kh2/kh2_bar.h"
#include "formats/kh2/kh2_builder.h"
#include "formats/kh2/kh2_mdlx_writer.h"
#include "support/test_support.h"

namespace animdex::test {

std::vector<std::byte> kh2_set_of(std::int16_t bones, std::int16_t curve_bone) {
  return kh2::write_bar(
      {{kh2::kTypeAnb, 0, "A000", kh2::build_anb(kh2::build_interpolated_motion(bones, {curve_bone})), -1}});
}

void write_kh2_link_tree(const std::filesystem::path& root) {
  write_bytes(root / "obj/P_EX100.mset", kh2_set_of(32));
  write_bytes(root / "obj/P_EX100.mdlx", kh2::write_mdlx(kh2::chain_skeleton(32)));
  write_bytes(root / "obj/M_EX350_MEMO.mset", kh2_set_of(24));
  write_bytes(root / "obj/M_EX350.mdlx", kh2::write_mdlx(kh2::chain_skeleton(24)));
  write_bytes(root / "gameplay/W_EX010_R.mset", kh2_set_of(12));
  write_bytes(root / "mods/a/W_EX010.mdlx", kh2::write_mdlx(kh2::chain_skeleton(12)));
  write_bytes(root / "mods/b/W_EX010.mdlx", kh2::write_mdlx(kh2::chain_skeleton(12)));
  write_bytes(root / "gameplay/F_TT010.mset", kh2_set_of(8));
  write_bytes(root / "mods/c/F_TT010.mdlx", kh2::write_mdlx(kh2::chain_skeleton(8, 0.1F)));
  write_bytes(root / "mods/d/F_TT010.mdlx", kh2::write_mdlx(kh2::chain_skeleton(8, 0.2F)));
  write_bytes(root / "obj/B_EX200.mset", kh2_set_of(16));
  write_bytes(root / "obj/B_EX200.mdlx", kh2::write_mdlx(kh2::chain_skeleton(17)));
}

}  // namespace animdex::test
