#include "formats/lightwave/lw_capabilities.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

#include "formats/curve_sampling.h"
#include "formats/lightwave/lw_evaluate.h"
#include "formats/lightwave/lw_parser.h"
#include "formats/lightwave/lw_writer.h"

namespace animdex::lightwave {

namespace {

constexpr double kDefaultFps = 30.0;  // LightWave's default scene rate; v1 keys are frames

std::optional<CapabilityError> unknown_version(const ConvertRequest& request) {
  if (!request.version || *request.version == 1 || *request.version == 3) return std::nullopt;
  return usage_error(fmt::format("--version {}: LightWave files are written as version 1 or 3", *request.version));
}

// The file's own time unit: frames for v1 (at `fps`), seconds for v3.
// Version 1 keys are at frames: a time that is a whole frame but for the rounding of seconds * fps
// (0.1 * 30 is 3.0000000000000004) is that frame, so that it finds the key there.
double native_time(const LwFile& file, double seconds, double fps) {
  if (file.version != 1) return seconds;
  const double frame = seconds * fps, whole = std::round(frame);
  return std::fabs(frame - whole) <= 1e-9 * std::max(1.0, std::fabs(frame)) ? whole : frame;
}

// A value as pose and bake show it (pose.values = exact): at a key's own time that key's value as
// its text gave it, every digit; between keys a computed value, at most 9 significant digits.
double shown_value(const Channel& channel, double time) {
  const double value = evaluate(channel, time);
  const auto& keys = channel.keys;
  const auto at = std::lower_bound(keys.begin(), keys.end(), time, [](const Key& key, double t) { return key.time < t; });
  return at != keys.end() && at->time == time ? value : as_computed(value);
}

std::string summary(const LwFile& file) {
  return fmt::format("{} version {}, {} channels, {} keys each", file.kind == FileKind::motion ? "LWMO" : "LWEN",
                     file.version, file.channels.size(), file.channels.front().keys.size());
}

Answer<Converted> written(const LwFile& file) { return Converted{write_lw(file), summary(file)}; }

// NAME=CHANNEL[:SCALE]; the channel an integer, the scale a finite number.
std::optional<AxisMapping> parse_mapping(const std::string& spec) {
  const auto equals = spec.find('=');
  if (equals == std::string::npos || equals == 0) return std::nullopt;
  const auto colon = spec.find(':', equals);
  const std::string channel_text = spec.substr(equals + 1, colon == std::string::npos ? std::string::npos : colon - equals - 1);
  AxisMapping mapping{spec.substr(0, equals), 0, 1.0};
  const auto [channel_end, channel_error] =
      std::from_chars(channel_text.data(), channel_text.data() + channel_text.size(), mapping.channel);
  if (channel_error != std::errc() || channel_end != channel_text.data() + channel_text.size()) return std::nullopt;
  if (colon != std::string::npos) {
    const char* begin = spec.c_str() + colon + 1;
    const char* end = spec.c_str() + spec.size();
    const auto [scale_end, scale_error] = std::from_chars(begin, end, mapping.scale);
    if (scale_error != std::errc() || scale_end != end || !std::isfinite(mapping.scale)) return std::nullopt;
  }
  return mapping;
}

}  // namespace

Answer<Pose> pose_curves(std::span<const std::byte> bytes, const PoseRequest& request) {
  auto parsed = parse_lw(bytes);
  if (!parsed) return file_error(parsed.error());
  const auto& file = parsed.value();
  if (!request.seconds && !request.frame) return usage_error("pose needs --time SECONDS or --frame F");
  const double fps = request.fps.value_or(kDefaultFps);
  const double seconds = request.seconds ? *request.seconds : *request.frame / fps;
  // A frame of a version 1 file is its own time unit: no trip through seconds.
  const double time = request.frame && file.version == 1 ? *request.frame : native_time(file, seconds, fps);
  Pose pose;
  pose.values = Precision::exact;  // the decimal text as read
  pose.about = {{"time", seconds},
                {"frame", seconds * fps},
                {"fps", fps}};
  pose.rows_name = "channels";
  pose.columns = {"channel", "index", "value"};
  double first = INFINITY, last = -INFINITY;
  for (const auto& channel : file.channels) {
    pose.rows.push_back({channel_name(file.kind, channel.index), std::int64_t{channel.index}, shown_value(channel, time)});
    first = std::min(first, channel.keys.front().time);
    last = std::max(last, channel.keys.back().time);
  }
  if (time < first || time > last)
    pose.notes.push_back(fmt::format("{} {} is {} the keys ({} to {}): each envelope's {} behaviour gives the value there "
                                     "(table track_behaviors)",
                                     file.version == 1 ? "frame" : "time", number_text(as_computed(time)),
                                     time < first ? "before" : "after", number_text(first), number_text(last),
                                     time < first ? "pre" : "post"));
  return pose;
}

Answer<std::vector<AnimationCurves>> curves_lw(std::span<const std::byte> bytes, const CurveRequest& request) {
  auto parsed = parse_lw(bytes);
  if (!parsed) return file_error(parsed.error());
  const auto& file = parsed.value();
  const double fps = request.fps.value_or(kDefaultFps);
  // Native times back to seconds, then one sample every 1/rate s from the first key to the last.
  const double to_seconds = file.version == 1 ? 1.0 / fps : 1.0;
  double first = INFINITY, last = -INFINITY;
  for (const auto& channel : file.channels) {
    first = std::min(first, channel.keys.front().time * to_seconds);
    last = std::max(last, channel.keys.back().time * to_seconds);
  }
  const auto samples = sample_times(first, last, request.samples_per_second);
  if (!samples) return too_many_samples(first, last, request.samples_per_second);
  if (auto refused = check_animation_samples(samples->size(), file.channels.size(), request.samples_per_second))
    return *refused;
  AnimationCurves curves;
  curves.values = Precision::exact;  // the decimal text as read
  curves.start_seconds = first;
  curves.end_seconds = last;
  curves.frames_per_second = fps;
  for (const auto& channel : file.channels) {
    ChannelCurve curve;
    curve.channel = channel_name(file.kind, channel.index);
    for (const auto& key : channel.keys) {
      curve.key_times.push_back(key.time * to_seconds);
      curve.key_values.push_back(key.value);
    }
    curve.sample_times = *samples;
    for (const double seconds : *samples) curve.sample_values.push_back(shown_value(channel, native_time(file, seconds, fps)));
    curves.channels.push_back(std::move(curve));
  }
  std::vector<AnimationCurves> all;
  deliver(request, all, std::move(curves));
  return all;
}

Answer<Converted> convert_curves(std::span<const std::byte> bytes, const ConvertRequest& request) {
  auto parsed = parse_lw(bytes);
  if (!parsed) return file_error(parsed.error());
  const auto& file = parsed.value();
  if (auto error = unknown_version(request)) return *error;
  const int version = request.version.value_or(file.version == 1 ? 3 : 1);
  std::string why;
  auto other = convert_version(file, version, request.fps, &why);
  if (!other) return usage_error(fmt::format("cannot be written as version {}: {}", version, why));
  return written(*other);
}

Answer<Converted> convert_kuper(std::span<const std::byte> bytes, const ConvertRequest& request) {
  auto kuper = parse_kuper(bytes);
  if (!kuper) return file_error(kuper.error());
  if (auto error = unknown_version(request)) return *error;
  auto mapping = default_kuper_mapping(kuper.value());
  for (const auto& spec : request.mappings) {
    const auto parsed = parse_mapping(spec);
    if (!parsed) return usage_error(fmt::format("--axis {}: expected NAME=CHANNEL or NAME=CHANNEL:SCALE", spec));
    std::erase_if(mapping, [&](const AxisMapping& m) { return m.axis == parsed->axis || m.channel == parsed->channel; });
    mapping.push_back(*parsed);
  }
  LwFile motion;
  try {
    motion = kuper_to_motion(kuper.value(), mapping);
  } catch (const std::invalid_argument& error) {
    return usage_error(error.what());
  }
  if (request.version.value_or(1) == 3) {
    std::string why;
    auto v3 = convert_version(motion, 3, request.fps, &why);
    if (!v3) return usage_error(why);
    motion = *v3;
  }
  return written(motion);
}

}  // namespace animdex::lightwave
