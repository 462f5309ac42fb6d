#include "model/validate.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <string_view>
#include <utility>

namespace animdex::model {

namespace {

bool finite(const std::optional<double>& value) { return !value || std::isfinite(*value); }

// Every byte outside printable ASCII (0x20-0x7E): names must print as they are.
const std::string kNotPrintable = [] {
  std::string bytes;
  for (int c = 0; c < 256; ++c)
    if (c < 0x20 || c > 0x7E) bytes += static_cast<char>(c);
  return bytes;
}();

// Printable ASCII, at most 64 characters. A bone's track names its channels with the letters T, R,
// S in that order, each at most once, or with an axis name (KH2 `Rx`); a track without a bone is
// a named channel (LightWave `heading`, a Kuper axis, which may be any name).
std::optional<std::string> check_channels(std::string_view channels, bool of_a_bone) {
  if (channels.size() > 64) return fmt::format("channel name of {} characters (at most 64)", channels.size());
  for (const char c : channels)
    if (c < 0x20 || c > 0x7E) return "channel name with a character outside printable ASCII";
  if (!of_a_bone || channels.find_first_not_of("TRS") != std::string_view::npos) return std::nullopt;
  std::size_t previous = 0;
  for (const char c : channels) {
    const std::size_t rank = std::string_view("TRS").find(c) + 1;
    if (rank <= previous) return fmt::format("channel letters '{}' not in the order T, R, S without repeats", channels);
    previous = rank;
  }
  return std::nullopt;
}

std::optional<std::string> check_keys(const BoneTrack& track) {
  const KeyColumns& keys = track.keys;
  if (keys.size() > kMaxTrackKeys) return fmt::format("{} keys (at most {})", keys.size(), kMaxTrackKeys);
  // One entry per key in every column the track carries: KeyColumns holds them so.
  const auto times = keys.time();
  for (std::size_t k = 0; k < times.size(); ++k) {
    if (!std::isfinite(times[k])) return fmt::format("key {}: time is not a finite number", k);
    if (k > 0 && times[k] < times[k - 1])
      return fmt::format("key {}: time {} before the previous key's {} (keys are in time order)", k, times[k],
                         times[k - 1]);
  }
  for (std::size_t v = 0; v < 4; ++v) {
    const auto column = keys.value(v);
    for (std::size_t k = 0; k < column.size(); ++k)
      if (!std::isfinite(column[k])) return fmt::format("key {}: a value is not a finite number", k);
  }
  for (std::size_t p = 0; p < track.splines.parameter_count(); ++p) {
    const auto column = track.splines.parameter(p);
    for (std::size_t k = 0; k < column.size(); ++k)
      if (!std::isfinite(column[k])) return fmt::format("spline {}: a parameter is not a finite number", k);
  }
  return std::nullopt;
}

std::optional<std::string> check_track(const BoneTrack& track) {
  if (!std::isfinite(track.total_time)) return "total time is not a finite number";
  if (track.bone_id && *track.bone_id < 0) return fmt::format("bone id {} is negative", *track.bone_id);
  if (!track.splines.empty() && track.splines.size() != track.keys.size())
    return fmt::format("{} splines for {} keys (empty or one per key)", track.splines.size(), track.keys.size());
  if (auto problem = check_channels(track.channels, track.bone_id.has_value())) return problem;
  if (track.node_name.size() > 64 || track.node_name.find_first_of(kNotPrintable) != std::string::npos)
    return "node name longer than 64 characters or outside printable ASCII";
  return check_keys(track);
}

std::optional<std::string> check_row(const FormatRow& row, std::size_t animation_count) {
  if (row.table.empty() || row.columns.empty()) return "a row without a table or columns";
  if (row.animation && *row.animation >= animation_count)
    return fmt::format("describes animation {} of {}", *row.animation, animation_count);
  for (const auto& [column, value] : row.columns) {
    if (column.empty()) return "a column without a name";
    if (const auto* ref = std::get_if<AnimationRef>(&value); ref && ref->animation >= animation_count)
      return fmt::format("{}: points at animation {} of {}", column, ref->animation, animation_count);
    if (const auto* real = std::get_if<double>(&value); real && !std::isfinite(*real))
      return fmt::format("{}: not a finite number", column);
    if (const auto* exact = std::get_if<ExactNumber>(&value); exact && !std::isfinite(exact->value))
      return fmt::format("{}: not a finite number", column);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> validate(const AnimationFile& file) {
  for (std::size_t a = 0; a < file.animations.size(); ++a) {
    const Animation& animation = file.animations[a];
    if (!finite(animation.play_speed) || !finite(animation.end_time))
      return fmt::format("animation {}: a header number is not finite", a);
    for (std::size_t t = 0; t < animation.tracks.size(); ++t)
      if (auto problem = check_track(animation.tracks[t]))
        return fmt::format("animation {} track {}: {}", a, t, *problem);
  }
  for (std::size_t r = 0; r < file.format_rows.size(); ++r)
    if (auto problem = check_row(file.format_rows[r], file.animations.size()))
      return fmt::format("{} row {}: {}", file.format_rows[r].table, r, *problem);
  return std::nullopt;
}

}  // namespace animdex::model
