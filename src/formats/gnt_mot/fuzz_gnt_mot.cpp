// Fuzzes the GNT .mot parser, the model mapping and the writer: any input must parse or
// fail cleanly; the index's direct decode must agree with it (same error, or the same keys);
// whatever parses must write, and the written file must parse and rewrite to the same bytes; and
// its evaluation gives finite values, each key's own value at its time when the key is the last there.
#include <cstddef>
#include <cstdint>
#include <span>

#include <cmath>

#include "formats/gnt_mot/gnt_mot_evaluate.h"
#include "formats/gnt_mot/gnt_mot_model.h"
#include "formats/gnt_mot/gnt_mot_parser.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "db/key_blob.h"
#include "model/validate.h"

using namespace animdex::gnt_mot;

namespace {

template <typename Vector>
void require_finite(const Vector& vector) {
  if (!vector) return;
  for (const double value : *vector)
    if (!std::isfinite(value)) __builtin_trap();
}

void check_evaluation(const GntAnimation& animation) {
  for (const double seconds : {-1.0, 0.0, 0.5 * animation.end_time, static_cast<double>(animation.end_time) + 1.0})
    for (const auto& bone : evaluate(animation, seconds)) {
      require_finite(bone.translate);
      require_finite(bone.rotate);
      require_finite(bone.scale);
    }
  for (const auto& track : animation.bones) {
    if (track.coordinate_words.empty() || track.key_times.empty()) continue;
    const auto x = component_values(track, 0);
    const std::size_t last = track.key_times.size() - 1;
    if (interpolate(track.key_times, x, track.key_times[last]) != x[last]) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  auto parsed = parse_mot(bytes);
  auto direct = parse_mot_model(bytes);
  if (parsed.ok() != direct.ok()) __builtin_trap();
  if (!parsed.ok()) {
    if (parsed.error().expected.empty()) __builtin_trap();  // every error says what was expected
    if (parsed.error().message() != direct.error().message() || parsed.error().offset != direct.error().offset)
      __builtin_trap();
    return 0;
  }
  const auto mapped = to_model(parsed.value());
  const auto& model = direct.value();
  if (animdex::model::validate(mapped) || animdex::model::validate(model)) __builtin_trap();  // the rules hold
  if (mapped.animations.size() != model.animations.size()) __builtin_trap();
  for (std::size_t p = 0; p < mapped.properties.size(); ++p)
    if (p >= model.properties.size() || mapped.properties[p].value != model.properties[p].value) __builtin_trap();
  for (std::size_t a = 0; a < mapped.animations.size(); ++a) {
    const auto& one = mapped.animations[a];
    const auto& two = model.animations[a];
    if (one.slot != two.slot || one.play_speed != two.play_speed || one.end_time != two.end_time ||
        one.frame_count != two.frame_count || one.tracks.size() != two.tracks.size())
      __builtin_trap();
    for (std::size_t t = 0; t < one.tracks.size(); ++t) {
      const auto& x = one.tracks[t];
      const auto& y = two.tracks[t];
      if (x.bone_id != y.bone_id || x.flags != y.flags || x.track_flags != y.track_flags || x.channels != y.channels ||
          x.value_encoding != y.value_encoding || x.total_time != y.total_time || !animdex::model::identical(x.keys, y.keys))
        __builtin_trap();
    }
  }
  for (const auto& animation : parsed.value().animations) check_evaluation(animation);
  if (validate_for_writing(parsed.value())) __builtin_trap();  // a parsed file is always writable
  const auto rewritten = write_mot(parsed.value());
  auto again = parse_mot(rewritten);
  if (!again.ok()) __builtin_trap();
  if (write_mot(again.value()) != rewritten) __builtin_trap();
  return 0;
}
