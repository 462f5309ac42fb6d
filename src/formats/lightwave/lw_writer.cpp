#include "formats/lightwave/lw_writer.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numbers>
#include <stdexcept>

namespace animdex::lightwave {

namespace {

const char* magic(const LwFile& file) { return file.kind == FileKind::motion ? "LWMO" : "LWEN"; }

std::string shortest(double value) {
  if (value == 0.0) return "0";  // also turns -0 into 0, as LightWave writes it
  return fmt::format("{}", value);
}

bool is_rotation(const LwFile& file, int channel) {
  return file.kind == FileKind::motion && channel >= 3 && channel <= 5;
}

}  // namespace

std::optional<std::string> validate_for_writing(const LwFile& file) {
  if (file.channels.empty()) return "a file needs at least one channel";
  for (const auto& channel : file.channels)
    if (channel.keys.empty()) return fmt::format("channel {} has no keys", channel.index);
  if (file.version == 3) return std::nullopt;
  if (file.version != 1) return fmt::format("version {} cannot be written (1 or 3)", file.version);
  const auto& reference = file.channels.front().keys;
  for (const auto& channel : file.channels) {
    if (channel.keys.size() != reference.size())
      return fmt::format("channel {} has {} keys, channel 0 {}: v1 keys every channel together", channel.index,
                         channel.keys.size(), reference.size());
    for (std::size_t k = 0; k < reference.size(); ++k) {
      if (channel.keys[k].time != reference[k].time) return "v1 needs every channel keyed at the same frames";
      if (channel.keys[k].shape != kTcb && channel.keys[k].shape != kLinear)
        return fmt::format("channel {} key {} has shape {}; v1 has only TCB and linear keys", channel.index, k,
                           channel.keys[k].shape);
    }
  }
  for (std::size_t k = 0; k < reference.size(); ++k) {
    if (reference[k].time != std::floor(reference[k].time)) return "v1 key times must be whole frames";
    if (k > 0 && reference[k].time <= reference[k - 1].time) return "v1 frames must increase strictly";
  }
  return std::nullopt;
}

std::string write_lw(const LwFile& file) {
  if (auto problem = validate_for_writing(file)) throw std::invalid_argument(*problem);
  std::string out = fmt::format("{}\n{}\n", magic(file), file.version);
  if (file.version == 1) {
    const auto& reference = file.channels.front().keys;
    out += fmt::format("{}\n{}\n", file.channels.size(), reference.size());
    for (std::size_t k = 0; k < reference.size(); ++k) {
      for (std::size_t c = 0; c < file.channels.size(); ++c)
        out += (c ? " " : "") + shortest(file.channels[c].keys[k].value);
      const Key& key = reference[k];
      const int linear = key.linear_flag.value_or(key.shape == kLinear ? 1 : 0);
      out += fmt::format("\n{} {} {} {} {}\n", static_cast<long long>(key.time), linear, shortest(key.params[0]),
                         shortest(key.params[1]), shortest(key.params[2]));
    }
    return out;
  }
  out += fmt::format("\nNumChannels {}\n", file.channels.size());
  for (std::size_t c = 0; c < file.channels.size(); ++c) {
    const auto& channel = file.channels[c];
    out += fmt::format("Channel {}\n{{ Envelope\n  {}\n", c, channel.keys.size());
    for (const auto& key : channel.keys) {
      out += fmt::format("  Key {} {} {}", shortest(key.value), shortest(key.time), key.shape);
      for (double parameter : key.params) out += " " + shortest(parameter);
      out += '\n';
    }
    out += fmt::format("  Behaviors {} {}\n}}\n", channel.pre_behavior, channel.post_behavior);
  }
  return out;
}

std::optional<LwFile> convert_version(const LwFile& file, int version, double fps, std::string* why_not) {
  LwFile converted = file;
  converted.version = version;
  converted.warnings.clear();
  if (version == file.version) return converted;
  const double degrees_per_radian = 180.0 / std::numbers::pi;
  for (auto& channel : converted.channels) {
    const bool rotation = is_rotation(file, channel.index);
    for (auto& key : channel.keys) {
      if (version == 3) {
        key.time /= fps;
        if (rotation) key.value /= degrees_per_radian;
        key.linear_flag.reset();
      } else {
        key.time = std::round(key.time * fps * 1e9) / 1e9;
        if (rotation) key.value *= degrees_per_radian;
        key.linear_flag = key.shape == kLinear ? 1 : 0;
        for (int i = 3; i < 6; ++i) key.params[i] = 0.0;
      }
    }
    if (version == 1) channel.pre_behavior = channel.post_behavior = kConstant;
  }
  if (auto problem = validate_for_writing(converted)) {
    if (why_not) *why_not = *problem;
    return std::nullopt;
  }
  return converted;
}

std::vector<AxisMapping> default_kuper_mapping(const KuperFile& kuper) {
  std::vector<AxisMapping> mapping;
  for (std::size_t i = 0; i < kuper.axes.size() && i < 9; ++i) {
    const auto& axis = kuper.axes[i];
    const bool flipped = axis == "VNS" || axis == "VTilt" || axis == "VRoll";
    mapping.push_back({axis, static_cast<int>(i), flipped ? -1.0 : 1.0});
  }
  return mapping;
}

LwFile kuper_to_motion(const KuperFile& kuper, const std::vector<AxisMapping>& mapping) {
  struct Source {
    std::size_t axis;
    double scale;
  };
  std::vector<std::optional<Source>> by_channel(9);
  for (const auto& entry : mapping) {
    const auto found = std::find(kuper.axes.begin(), kuper.axes.end(), entry.axis);
    if (found == kuper.axes.end()) throw std::invalid_argument("the Kuper file has no axis named " + entry.axis);
    if (entry.channel < 0 || entry.channel > 8)
      throw std::invalid_argument(fmt::format("channel {} is outside 0..8", entry.channel));
    by_channel[static_cast<std::size_t>(entry.channel)] =
        Source{static_cast<std::size_t>(found - kuper.axes.begin()), entry.scale};
  }
  LwFile motion;
  motion.kind = FileKind::motion;
  motion.version = 1;
  for (int c = 0; c < 9; ++c) {
    Channel channel;
    channel.index = c;
    const double rest = c >= 6 ? 1.0 : 0.0;
    Key key;
    key.linear_flag = 0;
    key.time = 0;
    key.value = rest;
    channel.keys.push_back(key);
    for (std::size_t f = 0; f < kuper.frames.size(); ++f) {
      key.time = static_cast<double>(f + 1);
      const auto& source = by_channel[static_cast<std::size_t>(c)];
      key.value = source ? kuper.frames[f][source->axis] * source->scale : rest;
      if (key.value == 0.0) key.value = 0.0;  // no negative zero from a flipped 0
      channel.keys.push_back(key);
    }
    motion.channels.push_back(std::move(channel));
  }
  return motion;
}

}  // namespace animdex::lightwave
