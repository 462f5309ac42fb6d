#include "formats/kh2/kh2_model.h"

#include <cmath>
#include <fmt/format.h>

#include "core/rotation.h"

namespace animdex::kh2 {

namespace {

// KH2 interpolation -> the key_splines shape codes shared with LightWave (stepped, linear, Hermite).
int spline_shape(Interpolation interpolation) {
  switch (interpolation) {
    case Interpolation::constant: return 4;
    case Interpolation::linear: return 3;
    case Interpolation::hermite: return 1;
    default: return -1;
  }
}

// A curve key's words in its track's columns: a time and a value (KeyColumns), a shape and two
// tangents (SplineColumns).
constexpr std::size_t kColumnBytesPerCurveKey = 5 * 8;

model::BoneTrack curve_track(const InterpolatedMotion& body, const FCurve& curve, bool inverse,
                             const std::shared_ptr<model::ColumnArena>& arena) {
  model::BoneTrack track;
  // IK helpers follow the bones in the joint table, so an inverse curve's joint is bone_count + index.
  track.bone_id = inverse ? std::int64_t{body.bone_count} + curve.joint : std::int64_t{curve.joint};
  track.flags = curve.packed;
  track.track_flags = inverse ? 1 : 0;
  track.channels = channel_name(curve.channel());
  track.value_encoding = "kh2_fcurve";
  // Sized once, filled in place: a time and a value per key, and its span's shape and tangents,
  // every word written below (tangents 0 where the span is not Hermite), so nothing is zeroed first.
  const std::size_t key_count = curve.key_count;
  track.keys = model::KeyColumns(key_count, model::KeyColumns::kX, arena, model::ColumnFill::by_caller);
  track.splines = model::SplineColumns(key_count, 2, false, arena, model::ColumnFill::by_caller);
  const auto times = track.keys.time();
  const auto values = track.keys.x();
  const auto shapes = track.splines.shape();
  const auto in_tangents = track.splines.parameter(0);
  const auto out_tangents = track.splines.parameter(1);
  for (std::size_t k = 0; k < key_count; ++k) {
    const auto& key = body.keys[static_cast<std::size_t>(curve.first_key) + k];
    times[k] = body.key_times[key.time_index];
    values[k] = body.values[static_cast<std::size_t>(key.value_index)];
    shapes[k] = spline_shape(key.interpolation);
    const bool hermite = key.interpolation == Interpolation::hermite;
    in_tangents[k] = hermite ? body.tangents[static_cast<std::size_t>(key.in_tangent_index)] : 0.0;
    out_tangents[k] = hermite ? body.tangents[static_cast<std::size_t>(key.out_tangent_index)] : 0.0;
  }
  if (key_count > 0) track.total_time = times.back();
  return track;
}

// The motion's header facts that only KH2 has, as a `kh2_motions` row (kh2_tables.sql).
model::FormatRow motion_row(const Motion& motion, std::size_t animation_index) {
  const FrameRange& range = motion.raw ? motion.raw->range : motion.interpolated->range;
  const std::optional<std::int64_t> total_bones =
      motion.raw ? std::nullopt : std::optional<std::int64_t>(motion.interpolated->total_bone_count);
  return {"kh2_motions",
          animation_index,
          {{"kind", std::string(motion.raw ? "raw" : "interpolated")},
           {"bone_count", model::number(motion.raw ? motion.raw->bone_count : motion.interpolated->bone_count)},
           {"total_bone_count", model::number(total_bones)},
           {"fps", model::number(range.fps)},
           {"frame_start", model::number(range.frame_start)},
           {"frame_end", model::number(range.frame_end)},
           {"frame_return", model::number(range.frame_return)}}};
}

model::FormatRow slot_row(const Slot& slot) {
  using model::number;
  return {"mset_slots",
          std::nullopt,
          {{"parent_slot", number(slot.parent_slot)},
           {"slot", number(slot.slot)},
           {"set_type", slot.set_type ? number(static_cast<int>(*slot.set_type)) : model::RowValue()},
           {"motion_id", number(slot.motion_id)},
           {"state", number(slot.state)},
           {"motion_name", slot.motion_id ? model::RowValue(model::MotionNameOf{*slot.motion_id}) : model::RowValue()},
           {"entry_name", slot.entry.name},
           {"entry_type", number(slot.entry.type)},
           {"entry_type_name", std::string(entry_type_name(slot.entry.type))},
           {"is_dummy", number(slot.is_dummy ? 1 : 0)},
           {"size", number(slot.entry.size)},
           {"data_offset", number(slot.data_offset)},
           {"duplicate_of", number(slot.duplicate_of)},
           {"duplicate_flag", number(slot.entry.duplicate_flag)},
           {"animation_id", slot.motion_index ? model::RowValue(model::AnimationRef{*slot.motion_index})
                                              : model::RowValue()}}};
}

model::FormatRow resolution_row(const Resolution& resolution) {
  using model::number;
  return {"mset_resolution",
          std::nullopt,
          {{"parent_slot", number(resolution.parent_slot)},
           {"motion_id", number(resolution.motion_id)},
           {"state", number(resolution.state)},
           {"resolved_slot", number(resolution.resolved_slot)}}};
}

}  // namespace

Decomposed decompose(const std::array<float, 16>& m) {
  Decomposed out;
  out.translation = {m[12], m[13], m[14]};
  std::array<std::array<double, 3>, 3> basis{};
  for (int row = 0; row < 3; ++row) {
    double length = 0;
    for (int col = 0; col < 3; ++col) length += double(m[row * 4 + col]) * m[row * 4 + col];
    out.scale[row] = std::sqrt(length);
    for (int col = 0; col < 3; ++col)
      basis[row][col] = out.scale[row] > 0 ? m[row * 4 + col] / out.scale[row] : (row == col ? 1.0 : 0.0);
  }
  const double det = basis[0][0] * (basis[1][1] * basis[2][2] - basis[1][2] * basis[2][1]) -
                     basis[0][1] * (basis[1][0] * basis[2][2] - basis[1][2] * basis[2][0]) +
                     basis[0][2] * (basis[1][0] * basis[2][1] - basis[1][1] * basis[2][0]);
  if (det < 0) {
    out.scale[0] = -out.scale[0];
    for (double& v : basis[0]) v = -v;
  }
  Matrix3 rows{};
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) rows[static_cast<std::size_t>(row * 3 + col)] = basis[row][col];
  out.rotation = quaternion_from_rows(rows);
  return out;
}

model::Animation motion_to_animation(const Motion& motion, const std::shared_ptr<model::ColumnArena>& arena) {
  model::Animation animation;
  if (motion.raw) {
    const auto& raw = *motion.raw;
    animation.frame_count = raw.frame_count;
    animation.end_time = raw.range.frame_end;
    // One track per bone and T/R/S, one key per stored frame (frame-major matrices). Without
    // stored frames nothing is animated, and a bone count alone must not create tracks (a hostile
    // header could name 2^31 bones without one byte of matrices).
    for (std::int32_t bone = 0; raw.total_frame_count > 0 && bone < raw.bone_count; ++bone) {
      std::array<model::BoneTrack, 3> tracks;
      const char* channels[] = {"T", "R", "S"};
      const std::uint32_t kind_flags[] = {0x01, 0x08, 0x02};  // GNT's TRANSLATE / ROTATE / SCALE bits
      for (std::size_t t = 0; t < 3; ++t) {
        tracks[t].bone_id = bone;
        tracks[t].channels = channels[t];
        tracks[t].track_flags = kind_flags[t];
        tracks[t].value_encoding = "f32x16_matrix";
      }
      for (std::int32_t frame = 0; frame < raw.total_frame_count; ++frame) {
        const auto parts = decompose(raw.matrices[static_cast<std::size_t>(frame) * raw.bone_count + bone]);
        model::Key key;
        key.time = frame;
        key.frame = frame;
        key.x = parts.translation[0], key.y = parts.translation[1], key.z = parts.translation[2];
        tracks[0].keys.push_back(key);
        // Rotation and scale are derived from float32 matrices, so they are kept at float32 precision,
        // all the source holds: stored compactly and printed as the file's numbers are. A scale past
        // float32's range (a row of two 3e38 entries; fuzzer finding) stays a double, not infinity.
        const auto f32 = [](double value) {
          const auto narrowed = static_cast<float>(value);
          return std::isfinite(narrowed) ? static_cast<double>(narrowed) : value;
        };
        key.x = f32(parts.rotation[0]), key.y = f32(parts.rotation[1]), key.z = f32(parts.rotation[2]);
        key.w = f32(parts.rotation[3]);
        tracks[1].keys.push_back(key);
        key.x = f32(parts.scale[0]), key.y = f32(parts.scale[1]), key.z = f32(parts.scale[2]), key.w.reset();
        tracks[2].keys.push_back(key);
      }
      for (auto& track : tracks) {
        if (!track.keys.empty()) track.total_time = track.keys.back().time;
        animation.tracks.push_back(std::move(track));
      }
    }
    return animation;
  }
  const auto& body = *motion.interpolated;
  animation.frame_count = body.frame_count;
  animation.end_time = body.range.frame_end;
  animation.tracks.reserve(body.forward_curves.size() + body.inverse_curves.size());
  for (const auto& curve : body.forward_curves) animation.tracks.push_back(curve_track(body, curve, false, arena));
  for (const auto& curve : body.inverse_curves) animation.tracks.push_back(curve_track(body, curve, true, arena));
  return animation;
}

model::AnimationFile to_model(const Motion& motion) {
  model::AnimationFile file;
  file.properties.push_back({"motion_kind", motion.raw ? "raw" : "interpolated"});
  file.properties.push_back({"subtype", std::to_string(motion.subtype)});
  file.animations.push_back(motion_to_animation(motion, model::make_column_arena()));
  file.format_rows.push_back(motion_row(motion, 0));
  file.warnings = motion.warnings;
  return file;
}

model::AnimationFile to_model(const KH2File& kh2) {
  model::AnimationFile file;
  std::int64_t dummies = 0, nested = 0;
  for (const auto& slot : kh2.slots) {
    dummies += slot.is_dummy;
    nested += slot.parent_slot.has_value();
  }
  if (kh2.set_type) {
    static constexpr const char* kSetNames[] = {"Default", "Player", "Raw"};
    file.properties.push_back({"set_type", fmt::format("{} ({})", static_cast<int>(*kh2.set_type),
                                                       kSetNames[static_cast<int>(*kh2.set_type)])});
  }
  file.properties.push_back({"slot_count", std::to_string(kh2.slots.size() - static_cast<std::size_t>(nested))});
  file.properties.push_back({"nested_slot_count", std::to_string(nested)});
  file.properties.push_back({"dummy_slot_count", std::to_string(dummies)});
  file.properties.push_back({"motion_count", std::to_string(kh2.motions.size())});

  // Every curve's columns from one arena for the file: a motion set has thousands of small curves.
  // Its first chunk holds them all (a time, a value, a shape and two tangents a key; the parse
  // charged each key before it got here), so the arena asks the heap once, not once a growth.
  std::size_t curve_keys = 0;
  for (const auto& motion : kh2.motions) {
    if (!motion.motion.interpolated) continue;
    const auto& body = *motion.motion.interpolated;
    for (const auto* curves : {&body.forward_curves, &body.inverse_curves})
      for (const auto& curve : *curves) curve_keys += curve.key_count;
  }
  const auto arena = model::make_column_arena(curve_keys * kColumnBytesPerCurveKey);
  for (const auto& motion : kh2.motions) {
    model::Animation animation = motion_to_animation(motion.motion, arena);
    animation.slot = motion.slot;
    animation.motion_id = motion.motion_id;
    // Names come from the motion-name table by motion ID; outside motion sets, the entry's tag.
    if (!motion.motion_id && kh2.motions.size() > 1) animation.name = motion.entry_name;
    file.format_rows.push_back(motion_row(motion.motion, file.animations.size()));
    file.animations.push_back(std::move(animation));
  }
  for (const auto& slot : kh2.slots) file.format_rows.push_back(slot_row(slot));
  for (const auto& resolution : kh2.resolutions) file.format_rows.push_back(resolution_row(resolution));
  file.warnings = kh2.warnings;
  return file;
}

}  // namespace animdex::kh2
