// Every real KH2 motion through the evaluator: the note's checks (kh2-mset.md "Two published players
// disagree; the game decides").
#include <catch2/catch.hpp>
#include <filesystem>

#include "formats/kh2/kh2_evaluate.h"
#include "formats/kh2/kh2_format.h"
#include "formats/kh2/kh2_motion_set.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::kh2;

namespace {

// Every motion a real file's slots hold (a motion shared by several slots once per slot, as the
// note counts them), by how its bytes are recognised.
std::vector<Motion> motions_in(const std::filesystem::path& path) {
  const auto bytes = test::read_bytes(path);
  std::vector<Motion> motions;
  if (const auto kind = classify_bar(bytes, bytes.size())) {
    auto parsed = *kind == BarKind::motion_set ? parse_motion_set(bytes)
                  : *kind == BarKind::anb      ? parse_anb(bytes)
                                               : parse_plain_bar(bytes);
    REQUIRE(parsed.ok());
    const auto& file = parsed.value();
    for (const auto& slot : file.slots)
      if (slot.motion_index) motions.push_back(file.motions[*slot.motion_index].motion);
    if (file.slots.empty() || *kind == BarKind::anb)
      for (const auto& motion : file.motions) motions.push_back(motion.motion);
  } else if (path.extension() == ".motion") {
    auto parsed = parse_motion(bytes);
    REQUIRE(parsed.ok());
    motions.push_back(std::move(parsed).value());
  }
  return motions;
}

}  // namespace

TEST_CASE("real KH2 motions: every key at its own time returns its value", "[kh2][evaluate][real]") {
  const auto shared = test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared/corpus/real not found: skipping the real KH2 files");
  std::size_t references = 0, motions = 0, off = 0, exception = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(*shared / "corpus/real/kh2-mset")) {
    if (!entry.is_regular_file()) continue;
    const bool tool_made = entry.path().filename() == "test-0000.anb";
    for (const auto& motion : motions_in(entry.path())) {
      if (!motion.interpolated) continue;
      ++motions;
      const auto& body = *motion.interpolated;
      for (const auto* curves : {&body.forward_curves, &body.inverse_curves})
        for (const auto& curve : *curves)
          for (std::size_t k = 0; k < curve.key_count; ++k) {
            const auto& key = body.keys[static_cast<std::size_t>(curve.first_key) + k];
            const double value = evaluate_curve(body, curve, body.key_times[key.time_index]);
            const bool same = value == body.values[static_cast<std::uint16_t>(key.value_index)];
            ++references;
            if (!same && tool_made) ++exception;
            else if (!same) ++off;
          }
    }
  }
  CHECK(motions == 421);  // of the 426 motions slots hold, 5 are raw
  CHECK(references == 350'671);
  CHECK(off == 0);
  CHECK(exception == 1);  // test-0000.anb: its two keys share key time 0
}

TEST_CASE("interpolated.motion: bone 0 rotate.x at key time 16 is the game's 0.428581", "[kh2][evaluate][real]") {
  const auto shared = test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared/corpus/real not found: skipping interpolated.motion");
  const auto path = *shared / "corpus/real/kh2-mset/OpenKH__OpenKh/OpenKh.Tests/kh2/res/interpolated.motion";
  const auto motion = parse_motion(test::read_bytes(path));
  REQUIRE(motion.ok());
  const auto joints = evaluate_joints(*motion.value().interpolated, 16.0F);
  CHECK(joints[0].values[3] == Approx(0.428581).margin(1e-6));  // the engine rule would give 0.435544
  CHECK(joints[0].sources[3] == ChannelSource::curve);
  CHECK(joints[11].changed_later == "ik");  // leg bones 11-13: Joint flags, IK from helpers 236, 237
}
