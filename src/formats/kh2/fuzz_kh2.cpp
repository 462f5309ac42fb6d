// Fuzzes the KH2 readers (motion set, ANB, plain BAR, bare Motion), the mapping to the common model
// and the Motion writer: any input must parse or fail cleanly with an offset inside the input;
// a parsed Motion must write, re-parse, and write the same bytes again; and evaluating it (every
// joint at a few key times, a raw motion's frames) must give NaN only for bind-pose channels and
// each curve's last key's value at that key's time (post modes 0 and 1).
#include <cstddef>
#include <cstdint>
#include <span>

#include <cmath>

#include "formats/kh2/kh2_evaluate.h"
#include "formats/kh2/kh2_model.h"
#include "formats/kh2/kh2_motion_set.h"
#include "formats/kh2/kh2_motion_writer.h"
#include "model/validate.h"

using namespace animdex;
using namespace animdex::kh2;

namespace {

void check_error(const ParseError& error, std::size_t size) {
  if (error.expected.empty() || error.offset > size) __builtin_trap();
}

void check_evaluation(const Motion& motion) {
  if (motion.raw) {
    for (const float key_time : {-1.0F, 0.0F, 1e9F}) {
      const auto frame = animdex::kh2::raw_frame_at(*motion.raw, key_time);
      if (motion.raw->total_frame_count > 0 && (frame < 0 || frame >= motion.raw->total_frame_count)) __builtin_trap();
    }
    return;
  }
  const auto& body = *motion.interpolated;
  const float last_time = body.key_times.empty() ? 0.0F : body.key_times.back();
  for (const float key_time : {-10.0F, 0.0F, 0.5F * last_time, last_time + 10.0F})
    for (const auto& joint : animdex::kh2::evaluate_joints(body, key_time))
      for (std::size_t c = 0; c < 9; ++c) {  // NaN means the bind pose, and only that (curves never make one)
        const auto source = joint.sources[c];
        if (std::isnan(joint.values[c]) != (source == animdex::kh2::ChannelSource::bind_pose) &&
            source != animdex::kh2::ChannelSource::helper_record)
          __builtin_trap();
      }
  for (const auto& curve : body.forward_curves) {
    if (curve.key_count < 2) continue;
    const auto& last = body.keys[static_cast<std::size_t>(curve.first_key) + curve.key_count - 1];
    const auto& before = body.keys[static_cast<std::size_t>(curve.first_key) + curve.key_count - 2];
    const float time = body.key_times[last.time_index];
    if (body.key_times[before.time_index] >= time || curve.post_cycle() >= 2) continue;
    if (animdex::kh2::evaluate_curve(body, curve, time) != body.values[static_cast<std::uint16_t>(last.value_index)])
      __builtin_trap();
  }
}

void round_trip(const Motion& motion) {
  const auto written = write_motion(motion);
  auto reparsed = parse_motion(written);
  if (!reparsed.ok()) __builtin_trap();
  if (write_motion(reparsed.value()) != written) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  for (auto parse : {&parse_motion_set, &parse_anb, &parse_plain_bar}) {
    auto parsed = parse(bytes);
    if (!parsed.ok()) {
      check_error(parsed.error(), size);
      continue;
    }
    const auto model = to_model(parsed.value());
    if (animdex::model::validate(model)) __builtin_trap();  // the model keeps its rules
    if (model.animations.size() != parsed.value().motions.size()) __builtin_trap();
    for (const auto& motion : parsed.value().motions) {
      round_trip(motion.motion);
      check_evaluation(motion.motion);
    }
  }
  auto motion = parse_motion(bytes);
  if (!motion.ok()) {
    check_error(motion.error(), size);
    return 0;
  }
  if (animdex::model::validate(to_model(motion.value()))) __builtin_trap();
  round_trip(motion.value());
  check_evaluation(motion.value());
  return 0;
}
