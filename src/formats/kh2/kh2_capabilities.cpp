#include "formats/kh2/kh2_capabilities.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/listing.h"
#include "core/nearest_names.h"
#include "formats/curve_sampling.h"
#include "formats/kh2/kh2_evaluate.h"

namespace animdex::kh2 {

namespace {

constexpr const char* kChannels[] = {"S.x", "S.y", "S.z", "R.x", "R.y", "R.z", "T.x", "T.y", "T.z"};

struct Chosen {
  const SlotMotion* motion = nullptr;
  std::string slot;  // "N", "P/M", or empty for a file of one motion outside a set
};

std::string slot_text(const std::optional<std::int64_t>& parent, const std::optional<std::int64_t>& slot) {
  if (!slot) return {};
  return parent ? fmt::format("{}/{}", *parent, *slot) : std::to_string(*slot);
}

std::string slots_listed(const KH2File& file) {
  Listing listed;
  for (const auto& motion : file.motions) listed.add(slot_text(motion.parent_slot, motion.slot));
  return listed.text("motions");
}

// Asked for a number that is a slot inside a nested set (what the `animations` query lists as
// `slot`), or for the slot that holds a nested set: how to ask for what is there.
std::string nested_hint(const KH2File& file, const std::string& asked) {
  Listing nested, inside;
  std::optional<std::int64_t> parent;
  for (const auto& slot : file.slots) {
    if (!slot.parent_slot || !slot.motion_index || *slot.motion_index >= file.motions.size()) continue;
    if (std::to_string(slot.slot) == asked) {
      nested.add(slot_text(slot.parent_slot, slot.slot));
      parent = slot.parent_slot;
    }
    if (std::to_string(*slot.parent_slot) == asked) inside.add(slot_text(slot.parent_slot, slot.slot));
  }
  std::string hint;
  if (nested.size() == 1)
    hint += fmt::format("; the nested set in slot {} has a slot {} with a motion: --slot {}", *parent, asked,
                        nested.text("slots"));
  else if (nested.size() > 1)
    hint += fmt::format("; nested sets have a slot {} with a motion: --slot {}", asked, nested.text("slots"));
  if (inside.size() > 0)
    hint += fmt::format("; slot {} holds a nested motion set, whose motions are: --slot {}", asked,
                        inside.text("motions"));
  return hint;
}

Answer<Chosen> choose_slot(const KH2File& file, const std::string& asked) {
  for (const auto& slot : file.slots) {
    if (slot_text(slot.parent_slot, slot.slot) != asked) continue;
    if (slot.motion_index && *slot.motion_index < file.motions.size())
      return Chosen{&file.motions[*slot.motion_index], asked};
    return usage_error(fmt::format("slot {} holds no motion ({}){}; slots with motions: {}", asked,
                                   slot.is_dummy ? "a dummy" : "no Motion data", nested_hint(file, asked),
                                   slots_listed(file)));
  }
  return usage_error(fmt::format("no slot {}{}; slots with motions: {}", asked, nested_hint(file, asked),
                                 slots_listed(file)));
}

std::string slots_of(const std::vector<const SlotMotion*>& motions) {
  std::vector<std::string> slots;
  slots.reserve(motions.size());
  for (const auto* motion : motions) slots.push_back(slot_text(motion->parent_slot, motion->slot));
  return listing_text(slots, "slots");
}

// --slot (with --anim, the two must name one motion), else --anim (the entry's tag, which must name
// one), else the file's only motion: a pose of the first of several would be a silent choice.
Answer<Chosen> choose(const KH2File& file, const std::string& slot, const std::string& animation) {
  if (file.motions.empty()) return usage_error("the file holds no motion");
  if (!slot.empty()) {
    auto chosen = choose_slot(file, slot);
    const auto* found = std::get_if<Chosen>(&chosen);
    if (found && !animation.empty() && found->motion->entry_name != animation)
      return usage_error(fmt::format("slot {} holds '{}', not '{}': give --slot or --anim, or two that agree", slot,
                                     found->motion->entry_name, animation));
    return chosen;
  }
  std::vector<const SlotMotion*> named;
  for (const auto& motion : file.motions)
    if (animation.empty() || motion.entry_name == animation) named.push_back(&motion);
  if (named.empty()) {
    std::vector<std::string> tags;
    for (const auto& motion : file.motions)
      if (std::find(tags.begin(), tags.end(), motion.entry_name) == tags.end()) tags.push_back(motion.entry_name);
    return usage_error(fmt::format("no motion tagged '{}'{}; choose one with --slot ({})", animation,
                                   nearest_hint(animation, tags), slots_listed(file)));
  }
  if (named.size() > 1 && !animation.empty())
    return usage_error(fmt::format("{} motions are tagged '{}', in slots {}: choose one with --slot", named.size(),
                                   animation, slots_of(named)));
  if (named.size() > 1)
    return usage_error(fmt::format("the file holds {} motions: choose one with --slot N or --anim TAG (slots {})",
                                   named.size(), slots_of(named)));
  return Chosen{named.front(), slot_text(named.front()->parent_slot, named.front()->slot)};
}

std::vector<double> triple(const std::array<double, 9>& values, std::size_t from) {
  return {values[from], values[from + 1], values[from + 2]};
}

std::vector<std::string> sources(const std::array<ChannelSource, 9>& from, std::size_t first) {
  return {source_name(from[first]), source_name(from[first + 1]), source_name(from[first + 2])};
}

void add_joint_rows(const InterpolatedMotion& body, float key_time, Pose& pose) {
  const auto joints = evaluate_joints(body, key_time);
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const auto& joint = joints[j];
    pose.rows.push_back({static_cast<std::int64_t>(j), std::monostate{}, std::string(joint.is_helper ? "ik_helper" : "bone"),
                         triple(joint.values, 6), triple(joint.values, 3), triple(joint.values, 0),
                         sources(joint.sources, 6), sources(joint.sources, 3), sources(joint.sources, 0),
                         joint.changed_later});
  }
}

void add_raw_rows(const RawMotion& raw, float key_time, Pose& pose) {
  const auto frame = raw_frame_at(raw, key_time);
  pose.about.emplace_back("stored_frame", frame);
  if (raw.total_frame_count <= 0) return;
  const std::vector<std::string> from(3, source_name(ChannelSource::matrix));
  for (std::int32_t bone = 0; bone < raw.bone_count; ++bone) {
    const auto& matrix = raw.matrices[static_cast<std::size_t>(frame) * raw.bone_count + bone];
    const auto parts = decompose_euler(matrix);
    pose.rows.push_back({std::int64_t{bone}, std::monostate{}, std::string("bone"), triple(parts, 6), triple(parts, 3),
                         triple(parts, 0), from, from, from, std::string(),
                         std::vector<double>(matrix.begin(), matrix.end())});
  }
}

}  // namespace

float fps_of(const Motion& motion) { return motion.raw ? motion.raw->range.fps : motion.interpolated->range.fps; }

Answer<Pose> pose_motion(const Motion& motion, const std::string& slot, const std::string& name,
                         const PoseRequest& request) {
  const float fps = fps_of(motion);
  const double seconds = request.seconds ? *request.seconds : *request.frame / request.fps.value_or(fps);
  const float key_time = key_time_of_seconds(seconds);
  Pose pose;
  pose.values = Precision::float32;
  pose.about = {{"slot", slot.empty() ? PoseValue() : PoseValue(slot)},
                {"animation", name.empty() ? PoseValue() : PoseValue(name)},
                {"kind", std::string(motion.raw ? "raw" : "interpolated")},
                {"time", static_cast<double>(key_time) / 60.0},
                {"key_time", static_cast<double>(key_time)},
                {"frame", static_cast<double>(key_time) * fps / 60.0},
                {"fps", static_cast<double>(fps)}};
  pose.rows_name = "nodes";
  pose.columns = {"node", "name", "kind", "T", "R", "S", "from_T", "from_R", "from_S", "changed_later"};
  pose.vector_sizes = {0, 0, 0, 3, 3, 3, 3, 3, 3, 0};
  const FrameRange& range = motion.raw ? motion.raw->range : motion.interpolated->range;
  const double frame = static_cast<double>(key_time) * fps / 60.0;
  if (frame < range.frame_start || frame > range.frame_end)
    pose.notes.push_back(fmt::format(
        "frame {} is {} the motion's frames {} to {}: {}", number_text(as_computed(frame)),
        frame < range.frame_start ? "before" : "after", number_text(range.frame_start), number_text(range.frame_end),
        motion.raw ? "a raw motion holds its nearest stored frame there"
                   : "each curve's pre/post mode gives the values there (0 hold the end key, 1 extend along its "
                     "tangent, 2 repeat, 3 zero; bits 4-7 of bone_tracks.flags)"));
  if (motion.raw) {
    pose.columns.push_back("M");
    pose.vector_sizes.push_back(16);
    add_raw_rows(*motion.raw, key_time, pose);
  } else {
    add_joint_rows(*motion.interpolated, key_time, pose);
  }
  return pose;
}

namespace {

Answer<AnimationCurves> interpolated_curves(const InterpolatedMotion& body, AnimationCurves curves, double rate) {
  const auto samples = sample_times(curves.start_seconds, curves.end_seconds, rate);
  if (!samples) return too_many_samples(curves.start_seconds, curves.end_seconds, rate);
  if (auto refused = check_animation_samples(samples->size(), body.forward_curves.size() + body.inverse_curves.size(), rate))
    return *refused;
  const auto bones = static_cast<std::size_t>(std::max<std::int16_t>(body.bone_count, 0));
  const auto add = [&](const FCurve& curve, bool inverse) {
    if (curve.channel() > 8 || curve.key_count == 0) return;
    ChannelCurve channel;
    channel.node = static_cast<std::int64_t>((inverse ? bones : 0) + static_cast<std::size_t>(std::max<std::int16_t>(curve.joint, 0)));
    channel.node_kind = inverse ? "ik_helper" : "bone";
    channel.channel = kChannels[curve.channel()];
    for (std::size_t k = 0; k < curve.key_count; ++k) {
      const auto& key = body.keys[static_cast<std::size_t>(curve.first_key) + k];
      channel.key_times.push_back(body.key_times[key.time_index] / 60.0);
      channel.key_values.push_back(body.values[static_cast<std::uint16_t>(key.value_index)]);
    }
    channel.sample_times = *samples;
    for (const double seconds : *samples)
      channel.sample_values.push_back(evaluate_curve(body, curve, key_time_of_seconds(seconds)));
    curves.channels.push_back(std::move(channel));
  };
  for (const auto& curve : body.forward_curves) add(curve, false);
  for (const auto& curve : body.inverse_curves) add(curve, true);
  return curves;
}

// A raw motion's stored frames as keys, one channel per bone and decomposed component; samples
// hold each stored frame until the next (the game's interpolation between them is unknown).
Answer<AnimationCurves> raw_curves(const RawMotion& raw, AnimationCurves curves, double rate) {
  const double fps = raw.range.fps;
  curves.start_seconds = 0;
  curves.end_seconds = std::max(raw.total_frame_count - 1, 0) / fps;
  const auto samples = sample_times(curves.start_seconds, curves.end_seconds, rate);
  if (!samples) return too_many_samples(curves.start_seconds, curves.end_seconds, rate);
  if (raw.total_frame_count <= 0) return curves;
  if (auto refused = check_animation_samples(samples->size(), 9 * static_cast<std::size_t>(std::max(raw.bone_count, 0)), rate))
    return *refused;
  std::vector<std::array<double, 9>> parts(raw.matrices.size());
  for (std::size_t m = 0; m < raw.matrices.size(); ++m) parts[m] = decompose_euler(raw.matrices[m]);
  static constexpr std::size_t kOrder[] = {6, 7, 8, 3, 4, 5, 0, 1, 2};  // T, R, S
  for (std::int32_t bone = 0; bone < raw.bone_count; ++bone)
    for (const std::size_t c : kOrder) {
      ChannelCurve channel;
      channel.node = bone;
      channel.node_kind = "bone";
      channel.channel = kChannels[c];
      const auto at = [&](std::int64_t frame) { return parts[static_cast<std::size_t>(frame) * raw.bone_count + bone][c]; };
      for (std::int32_t frame = 0; frame < raw.total_frame_count; ++frame) {
        channel.key_times.push_back(frame / fps);
        channel.key_values.push_back(at(frame));
      }
      channel.sample_times = *samples;
      for (const double seconds : *samples) channel.sample_values.push_back(at(raw_frame_at(raw, key_time_of_seconds(seconds))));
      curves.channels.push_back(std::move(channel));
    }
  return curves;
}

}  // namespace

Answer<AnimationCurves> motion_curves(const Motion& motion, const std::string& slot, const std::string& name,
                                      double rate) {
  AnimationCurves curves;
  curves.values = Precision::float32;
  curves.rotations = RotationChannels::euler_xyz;
  curves.animation = name.empty() ? slot : name;
  curves.slot = slot;
  curves.frames_per_second = fps_of(motion);
  if (motion.raw) return raw_curves(*motion.raw, std::move(curves), rate);
  const auto& range = motion.interpolated->range;
  curves.start_seconds = range.frame_start / range.fps;
  curves.end_seconds = std::max(range.frame_end, range.frame_start) / range.fps;
  return interpolated_curves(*motion.interpolated, std::move(curves), rate);
}

Answer<std::vector<const SlotMotion*>> chosen_motions(const KH2File& file, const std::string& slot,
                                                     const std::string& animation) {
  std::vector<const SlotMotion*> motions;
  if (slot.empty() && animation.empty()) {
    for (const auto& motion : file.motions) motions.push_back(&motion);
    return motions;
  }
  const auto chosen = choose(file, slot, animation);
  if (const auto* error = std::get_if<CapabilityError>(&chosen)) return *error;
  motions.push_back(std::get<Chosen>(chosen).motion);
  return motions;
}

std::string slot_of(const SlotMotion& motion) { return slot_text(motion.parent_slot, motion.slot); }

Answer<Pose> pose_of(Result<KH2File> parsed, const PoseRequest& request) {
  if (!parsed) return file_error(parsed.error());
  const auto chosen = choose(parsed.value(), request.slot, request.animation);
  if (const auto* error = std::get_if<CapabilityError>(&chosen)) return *error;
  const auto& [motion, slot] = std::get<Chosen>(chosen);
  return pose_motion(motion->motion, slot, motion->entry_name, request);
}

Answer<std::vector<AnimationCurves>> curves_of(Result<KH2File> parsed, const CurveRequest& request) {
  if (!parsed) return file_error(parsed.error());
  const auto chosen = chosen_motions(parsed.value(), request.slot, request.animation);
  if (const auto* error = std::get_if<CapabilityError>(&chosen)) return *error;
  std::vector<AnimationCurves> all;
  for (const auto* motion : std::get<std::vector<const SlotMotion*>>(chosen)) {
    auto curves = motion_curves(motion->motion, slot_text(motion->parent_slot, motion->slot), motion->entry_name,
                                request.samples_per_second);
    if (auto* error = std::get_if<CapabilityError>(&curves)) return *error;
    std::get<AnimationCurves>(curves).motion_id = motion->motion_id;
    deliver(request, all, std::get<AnimationCurves>(std::move(curves)));
  }
  return all;
}

Answer<Pose> pose_bare(std::span<const std::byte> bytes, const PoseRequest& request) {
  auto parsed = parse_motion(bytes);
  if (!parsed) return file_error(parsed.error());
  if (!request.slot.empty() || !request.animation.empty())
    return usage_error("a bare Motion file holds one motion: leave out --slot and --anim");
  return pose_motion(parsed.value(), "", "", request);
}

Answer<std::vector<AnimationCurves>> curves_bare(std::span<const std::byte> bytes, const CurveRequest& request) {
  auto parsed = parse_motion(bytes);
  if (!parsed) return file_error(parsed.error());
  if (!request.slot.empty() || !request.animation.empty())
    return usage_error("a bare Motion file holds one motion: leave out --slot and --anim");
  auto curves = motion_curves(parsed.value(), "", "", request.samples_per_second);
  if (auto* error = std::get_if<CapabilityError>(&curves)) return *error;
  std::vector<AnimationCurves> all;
  deliver(request, all, std::get<AnimationCurves>(std::move(curves)));
  return all;
}

}  // namespace animdex::kh2
