#include "formats/lightwave/lw_model.h"

#include <algorithm>
#include <cmath>

namespace animdex::lightwave {

model::AnimationFile to_model(const LwFile& file) {
  model::AnimationFile out;
  std::size_t key_total = 0;
  for (const auto& channel : file.channels) key_total += channel.keys.size();
  out.properties = {{"magic", file.kind == FileKind::motion ? "LWMO" : "LWEN"},
                    {"version", std::to_string(file.version)},
                    {"channel_count", std::to_string(file.channels.size())},
                    {"key_count", std::to_string(key_total)},
                    {"time_unit", file.version == 1 ? "frames" : "seconds"},
                    {"angle_unit", file.version == 1 ? "degrees" : "radians"}};
  out.warnings = file.warnings;
  model::Animation animation;
  double first = 0.0, last = 0.0;
  bool any = false;
  for (const auto& channel : file.channels) {
    model::BoneTrack track;
    track.channels = channel_name(file.kind, channel.index);
    track.value_encoding = "ascii";
    track.behaviors = model::CurveBehaviors{channel.pre_behavior, channel.post_behavior};
    for (const auto& key : channel.keys) {
      model::Key model_key;
      model_key.time = key.time;
      if (file.version == 1) model_key.frame = static_cast<std::int64_t>(key.time);
      model_key.x = key.value;
      track.keys.push_back(model_key);
      track.splines.push_back(model::KeySpline{key.shape, key.linear_flag, key.params});
      first = any ? std::min(first, key.time) : key.time;
      last = any ? std::max(last, key.time) : key.time;
      any = true;
    }
    track.total_time = channel.keys.empty() ? 0.0 : channel.keys.back().time;
    animation.tracks.push_back(std::move(track));
  }
  animation.end_time = last;
  if (file.version == 1) animation.frame_count = static_cast<std::int64_t>(last - first) + 1;
  out.animations.push_back(std::move(animation));
  return out;
}

model::AnimationFile to_model(const KuperFile& kuper) {
  model::AnimationFile out;
  out.properties = {{"axes", std::to_string(kuper.axes.size())}, {"frames", std::to_string(kuper.frames.size())}};
  model::Animation animation;
  animation.end_time = static_cast<double>(kuper.frames.size() - 1);
  animation.frame_count = static_cast<std::int64_t>(kuper.frames.size());
  for (std::size_t a = 0; a < kuper.axes.size(); ++a) {
    model::BoneTrack track;
    track.channels = kuper.axes[a];
    track.value_encoding = "ascii";
    track.total_time = animation.end_time.value_or(0.0);
    for (std::size_t f = 0; f < kuper.frames.size(); ++f) {
      model::Key key;
      key.time = static_cast<double>(f);
      key.frame = static_cast<std::int64_t>(f);
      key.x = kuper.frames[f][a];
      track.keys.push_back(key);
    }
    animation.tracks.push_back(std::move(track));
  }
  out.animations.push_back(std::move(animation));
  return out;
}

}  // namespace animdex::lightwave
