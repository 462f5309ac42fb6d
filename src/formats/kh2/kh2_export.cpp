#include "formats/kh2/kh2_export.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "formats/export_sampling.h"
#include "formats/kh2/kh2_capabilities.h"
#include "formats/kh2/kh2_evaluate.h"
#include "formats/kh2/kh2_mdlx.h"

namespace animdex::kh2 {

namespace {

std::string stem_in_capitals(std::string_view file_name) {
  const auto slash = file_name.find_last_of('/');
  if (slash != std::string_view::npos) file_name.remove_prefix(slash + 1);
  const auto dot = file_name.find_last_of('.');
  std::string stem(file_name.substr(0, dot == std::string_view::npos ? file_name.size() : dot));
  std::transform(stem.begin(), stem.end(), stem.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return stem;
}

Quaternion euler_xyz(const Vector3& radians) {
  return multiply(axis_rotation(2, radians[2]), multiply(axis_rotation(1, radians[1]), axis_rotation(0, radians[0])));
}

std::size_t bone_count_of(const Motion& motion) {
  const auto count = motion.raw ? motion.raw->bone_count : motion.interpolated->bone_count;
  return count > 0 ? static_cast<std::size_t>(count) : 0;
}

ExportEntry entry_of(const Motion& motion, std::size_t index, std::string name, const ExportRequest& request) {
  ExportEntry entry;
  entry.index = index;
  entry.name = std::move(name);
  entry.joints = bone_count_of(motion);
  entry.skeleton_names = skeleton_names_of(request.file_name);
  const float fps = fps_of(motion);
  if (entry.joints == 0) entry.refusal = fmt::format("motion '{}' animates no bone", entry.name);
  else if (!(fps > 0) || !std::isfinite(fps)) entry.refusal = fmt::format("motion '{}' has no frame rate (FPS {})", entry.name, fps);
  else if (motion.raw && motion.raw->total_frame_count <= 0) entry.refusal = fmt::format("motion '{}' has 0 frames", entry.name);
  return entry;
}

// One joint's local transform from the 9 channels (S, R as Euler, T), a NaN channel from the bind.
Transform joint_transform(const JointPose& pose, const model::Joint& bind) {
  const Vector3 euler = bind.bind_euler_xyz.value_or(Vector3{0, 0, 0});
  Vector3 angles;
  Transform local;
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const auto pick = [&](std::size_t channel, double fallback) {
      const double value = pose.values[channel];
      return std::isnan(value) ? fallback : value;
    };
    local.scale[axis] = pick(axis, bind.bind.scale[axis]);
    angles[axis] = pick(3 + axis, euler[axis]);
    local.translation[axis] = pick(6 + axis, bind.bind.translation[axis]);
  }
  local.rotation = euler_xyz(angles);
  return local;
}

void sample_interpolated(const InterpolatedMotion& body, const std::vector<double>& times,
                         const model::Skeleton& skeleton, model::SampledAnimation& sampled) {
  std::size_t later = 0;
  for (const double time : times) {
    const auto joints = evaluate_joints(body, key_time_of_seconds(time));
    std::vector<Transform> locals;
    locals.reserve(skeleton.joints.size());
    for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
      locals.push_back(joint_transform(joints.at(j), skeleton.joints[j]));
      if (!joints[j].changed_later.empty()) ++later;
    }
    sampled.frames.push_back(std::move(locals));
  }
  const auto helpers = static_cast<std::size_t>(std::max(body.total_bone_count - body.bone_count, 0));
  if (helpers > 0) sampled.notes.push_back("the motions' IK helpers are not bones of the model: left out");
  if (later > 0)
    sampled.notes.push_back("joints the game's IK, constraints or expressions change after the curves are as the curves leave them");
}

Matrix4 stored_matrix(const RawMotion& raw, std::int64_t frame, std::size_t bone) {
  // System.Numerics row-major row-vector storage is the column-vector matrix column-major.
  const auto& stored = raw.matrices[static_cast<std::size_t>(frame) * static_cast<std::size_t>(raw.bone_count) + bone];
  Matrix4 m;
  std::copy(stored.begin(), stored.end(), m.begin());
  return m;
}

std::optional<CapabilityError> sample_raw(const RawMotion& raw, const std::vector<double>& times,
                                          const model::Skeleton& skeleton, model::SampledAnimation& sampled) {
  for (const double time : times) {
    const auto frame = raw_frame_at(raw, key_time_of_seconds(time));
    std::vector<Transform> locals;
    locals.reserve(skeleton.joints.size());
    for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
      const auto world = stored_matrix(raw, frame, j);
      const auto parent = skeleton.joints[j].parent;
      Matrix4 local = world;
      if (parent >= 0) {
        const auto parent_world = stored_matrix(raw, frame, static_cast<std::size_t>(parent));
        if (!invertible(parent_world))
          return file_error(ParseError{
              raw.anim_matrix_offset + (static_cast<std::uint64_t>(frame) * static_cast<std::uint64_t>(raw.bone_count) +
                                        static_cast<std::uint64_t>(parent)) * 64,
              fmt::format("an invertible matrix for bone {} (the parent of bone {}) at raw frame {}", parent, j, frame),
              "a singular matrix"});
        local = multiply(inverse_affine(parent_world), world);
      }
      locals.push_back(decompose_affine(local));
    }
    sampled.frames.push_back(std::move(locals));
  }
  sampled.notes.push_back("raw motion: locals decomposed from model-space matrices (shear, if any, is lost)");
  return std::nullopt;
}

Answer<model::SampledAnimation> sample_motion(const Motion& motion, const ExportRequest& request,
                                              const ExportEntry& entry, const model::Skeleton& skeleton) {
  if (skeleton.joints.size() != entry.joints)
    return usage_error(fmt::format("motion '{}' animates {} bones; the model has {}", entry.name, entry.joints,
                                   skeleton.joints.size()));
  const double fps = fps_of(motion);
  double first = 0, last = 0;
  if (motion.raw) {
    last = std::max(motion.raw->total_frame_count - 1, 0) / fps;
  } else {
    const auto& range = motion.interpolated->range;
    first = range.frame_start / fps;
    last = std::max(range.frame_end, range.frame_start) / fps;
  }
  auto times = export_times(request, first, last, fps);
  if (const auto* error = std::get_if<CapabilityError>(&times)) return *error;
  const auto& seconds = std::get<std::vector<double>>(times);
  const double rate = request.rate.value_or(fps);
  if (auto refused = check_export_size(seconds.size(), skeleton.joints.size(), rate)) return *refused;
  auto sampled = model::sampled_animation(entry.name, rate, seconds.front());
  if (motion.raw) {
    if (auto error = sample_raw(*motion.raw, seconds, skeleton, sampled)) return *error;
  } else {
    sample_interpolated(*motion.interpolated, seconds, skeleton, sampled);
  }
  return sampled;
}

}  // namespace

std::vector<std::string> skeleton_names_of(std::string_view file_name) {
  const auto stem = stem_in_capitals(file_name);
  const auto first = stem.find('_');
  const auto second = first == std::string::npos ? std::string::npos : stem.find('_', first + 1);
  if (second == std::string::npos) return {stem};
  return {stem, stem.substr(0, second)};
}

Answer<std::vector<model::Skeleton>> mdlx_skeletons(std::span<const std::byte> bytes, const SkeletonRequest& request) {
  const auto parsed = parse_mdlx_skeleton(bytes);
  if (!parsed) return file_error(parsed.error());
  std::vector<model::Skeleton> skeletons;
  if (parsed.value().bones.empty()) return skeletons;  // a map or shadow model: no skeleton
  model::Skeleton skeleton{stem_in_capitals(request.file_name), {}};
  for (const auto& bone : parsed.value().bones) {
    model::Joint joint;
    joint.parent = bone.parent;
    const Vector3 euler{bone.rotation[0], bone.rotation[1], bone.rotation[2]};
    joint.bind = {{bone.translation[0], bone.translation[1], bone.translation[2]}, euler_xyz(euler),
                  {bone.scale[0], bone.scale[1], bone.scale[2]}};
    joint.bind_euler_xyz = euler;
    skeleton.joints.push_back(std::move(joint));
  }
  skeletons.push_back(std::move(skeleton));
  return skeletons;
}

Answer<std::vector<ExportEntry>> exportable_of(Result<KH2File> parsed, const ExportRequest& request) {
  if (!parsed) return file_error(parsed.error());
  const auto& file = parsed.value();
  const auto chosen = chosen_motions(file, request.slot, request.animation);
  if (const auto* error = std::get_if<CapabilityError>(&chosen)) return *error;
  std::vector<ExportEntry> entries;
  for (const auto* motion : std::get<std::vector<const SlotMotion*>>(chosen)) {
    const auto slot = slot_of(*motion);
    auto name = slot.empty() || motion->entry_name.empty() ? slot + motion->entry_name
                                                           : fmt::format("{} {}", slot, motion->entry_name);
    entries.push_back(entry_of(motion->motion, static_cast<std::size_t>(motion - file.motions.data()), std::move(name),
                               request));
    entries.back().motion_id = motion->motion_id;
    entries.back().slot = slot;
  }
  return entries;
}

Answer<model::SampledAnimation> sample_of(Result<KH2File> parsed, const ExportRequest& request,
                                          const ExportEntry& entry, const model::Skeleton& skeleton) {
  if (!parsed) return file_error(parsed.error());
  return sample_motion(parsed.value().motions.at(entry.index).motion, request, entry, skeleton);
}

Answer<std::vector<ExportEntry>> exportable_bare(std::span<const std::byte> bytes, const ExportRequest& request) {
  const auto parsed = parse_motion(bytes);
  if (!parsed) return file_error(parsed.error());
  if (!request.slot.empty() || !request.animation.empty())
    return usage_error("a bare Motion file holds one motion: leave out --slot and --anim");
  return std::vector<ExportEntry>{entry_of(parsed.value(), 0, stem_in_capitals(request.file_name), request)};
}

Answer<model::SampledAnimation> sample_bare(std::span<const std::byte> bytes, const ExportRequest& request,
                                            const ExportEntry& entry, const model::Skeleton& skeleton) {
  const auto parsed = parse_motion(bytes);
  if (!parsed) return file_error(parsed.error());
  return sample_motion(parsed.value(), request, entry, skeleton);
}

}  // namespace animdex::kh2
