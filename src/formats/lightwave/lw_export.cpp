#include "formats/lightwave/lw_export.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "formats/export_sampling.h"
#include "formats/lightwave/lw_evaluate.h"
#include "formats/lightwave/lw_parser.h"

namespace animdex::lightwave {

namespace {

constexpr double kLightWaveFps = 30.0;  // the scene rate v1 frames count in without --fps, and v3's sample rate

// Channel values at native `time`: x y z heading pitch bank sx sy sz, those the file leaves out at
// rest (0, or 1 for scale).
std::array<double, 9> channel_values(const LwFile& file, double time) {
  std::array<double, 9> values{0, 0, 0, 0, 0, 0, 1, 1, 1};
  for (const auto& channel : file.channels)
    if (channel.index >= 0 && channel.index < 9 && !channel.keys.empty())
      values[static_cast<std::size_t>(channel.index)] = evaluate(channel, time);
  return values;
}

Transform right_handed(const std::array<double, 9>& v, double to_radians) {
  const double heading = v[3] * to_radians, pitch = v[4] * to_radians, bank = v[5] * to_radians;
  Transform t;
  t.translation = {v[0], v[1], -v[2]};
  // R = Ry(h) Rx(p) Rz(b) in LightWave's frame; mirrored in Z: Ry(-h) Rx(-p) Rz(b).
  t.rotation = multiply(axis_rotation(1, -heading), multiply(axis_rotation(0, -pitch), axis_rotation(2, bank)));
  t.scale = {v[6], v[7], v[8]};
  return t;
}

}  // namespace

Answer<std::vector<ExportEntry>> lw_exportable(std::span<const std::byte> bytes, const ExportRequest& request) {
  const auto parsed = parse_lw(bytes);
  if (!parsed) return file_error(parsed.error());
  if (!request.slot.empty() || !request.animation.empty())
    return usage_error("a LightWave motion holds one animation: leave out --slot and --anim");
  model::Joint node;
  node.name = request.file_name;
  ExportEntry entry;
  entry.name = request.file_name;
  entry.joints = 1;
  entry.own_skeleton = model::Skeleton{request.file_name, {std::move(node)}};
  if (parsed.value().channels.empty()) entry.refusal = "the motion has no channel";
  return std::vector<ExportEntry>{std::move(entry)};
}

Answer<model::SampledAnimation> lw_sample(std::span<const std::byte> bytes, const ExportRequest& request,
                                          const ExportEntry& entry, const model::Skeleton&) {
  const auto parsed = parse_lw(bytes);
  if (!parsed) return file_error(parsed.error());
  const auto& file = parsed.value();
  const double file_fps = request.file_fps.value_or(kLightWaveFps);
  const double to_seconds = file.version == 1 ? 1.0 / file_fps : 1.0;
  double first = INFINITY, last = -INFINITY;
  for (const auto& channel : file.channels) {
    if (channel.keys.empty()) continue;
    first = std::min(first, channel.keys.front().time * to_seconds);
    last = std::max(last, channel.keys.back().time * to_seconds);
  }
  const double own_rate = file.version == 1 ? file_fps : kLightWaveFps;
  auto times = export_times(request, first, last, own_rate);
  if (const auto* error = std::get_if<CapabilityError>(&times)) return *error;
  const auto& seconds = std::get<std::vector<double>>(times);
  if (auto refused = check_export_size(seconds.size(), 1, request.rate.value_or(own_rate))) return *refused;
  const double to_radians = file.version == 1 ? std::numbers::pi / 180 : 1.0;
  auto sampled = model::sampled_animation(entry.name, request.rate.value_or(own_rate), seconds.front());
  for (const double time : seconds)
    sampled.frames.push_back({right_handed(channel_values(file, time / to_seconds), to_radians)});
  return sampled;
}

}  // namespace animdex::lightwave
