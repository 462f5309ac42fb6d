#include "formats/kh2/kh2_builder.h"

#include "formats/kh2/kh2_bar.h"
#include "formats/kh2/kh2_motion_writer.h"

namespace animdex::kh2 {

Motion build_interpolated_motion(std::int16_t bone_count, const std::vector<std::int16_t>& curve_bones, int channel) {
  Motion motion;
  motion.kind = MotionKind::interpolated;
  InterpolatedMotion body;
  body.bone_count = bone_count;
  body.total_bone_count = static_cast<std::int16_t>(bone_count + 1);
  body.frame_count = 20;
  body.range = {0, 10, 30, 0};
  body.key_times = {0.0f, 10.0f};
  body.key_time_count = 2;
  body.tangents = {0.25f, -0.25f};
  for (const auto bone : curve_bones) {
    const auto first = static_cast<std::int16_t>(body.keys.size());
    const auto value = static_cast<std::int16_t>(body.values.size());
    body.values.push_back(static_cast<float>(bone));
    body.values.push_back(static_cast<float>(bone) + 0.5f);
    body.keys.push_back({Interpolation::linear, 0, value, 0, 0});
    body.keys.push_back({Interpolation::hermite, 1, static_cast<std::int16_t>(value + 1), 0, 1});
    body.forward_curves.push_back({bone, static_cast<std::uint8_t>(channel), 2, first});
  }
  body.initial_poses = {{0, 6, 1.5f}};
  motion.interpolated = body;
  return motion;
}

std::vector<std::byte> build_anb(const Motion& motion) { return write_anb(write_motion(motion)); }

std::vector<std::byte> build_motion_set(const std::string& pattern, int set_type) {
  std::vector<BarWriteEntry> entries;
  for (std::size_t slot = 0; slot < pattern.size(); ++slot) {
    if (pattern[slot] == 'D') {
      entries.push_back({kTypeAnb, 1, "DUMM", {}, -1});
      continue;
    }
    const auto bone = static_cast<std::int16_t>(slot % 30);
    entries.push_back(
        {kTypeAnb, 0, "A" + std::to_string(slot % 1000), build_anb(build_interpolated_motion(32, {bone})), -1});
  }
  return write_bar(entries, set_type);
}

}  // namespace animdex::kh2
