#include "reports/stored_curves.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <limits>

namespace animdex::reports {

namespace {

// One track's keys, a channel per component that any key has (x, y, z, w in that order).
std::vector<ChannelCurve> track_channels(SQLite::Statement& keys, const std::string& channels, double& start,
                                         double& end) {
  std::array<ChannelCurve, 4> components;
  while (keys.executeStep()) {
    const double time = keys.getColumn(0).getDouble();
    start = std::min(start, time);
    end = std::max(end, time);
    for (std::size_t c = 0; c < components.size(); ++c) {
      const auto column = keys.getColumn(static_cast<int>(c) + 1);
      if (column.isNull()) continue;
      components[c].key_times.push_back(time);
      components[c].key_values.push_back(column.getDouble());
    }
  }
  const auto present = std::count_if(components.begin(), components.end(),
                                     [](const ChannelCurve& channel) { return !channel.key_times.empty(); });
  std::vector<ChannelCurve> out;
  for (std::size_t c = 0; c < components.size(); ++c) {
    if (components[c].key_times.empty()) continue;
    components[c].channel = present == 1 ? channels : fmt::format("{}.{}", channels, "xyzw"[c]);
    out.push_back(std::move(components[c]));
  }
  return out;
}

}  // namespace

AnimationCurves stored_curves(SQLite::Database& db, std::int64_t animation_id, const std::string& slot) {
  SQLite::Statement tracks(db, "SELECT id, bone_id, channels FROM bone_tracks WHERE animation_id = ? ORDER BY track_index");
  tracks.bind(1, animation_id);
  SQLite::Statement keys(db, "SELECT time, x, y, z, w FROM keyframes WHERE track_id = ? ORDER BY key_index");
  AnimationCurves curves;
  curves.slot = slot;
  double start = std::numeric_limits<double>::infinity(), end = -start;
  while (tracks.executeStep()) {
    keys.reset();
    keys.bind(1, tracks.getColumn(0).getInt64());
    for (auto& channel : track_channels(keys, tracks.getColumn(2).getString(), start, end)) {
      if (!tracks.getColumn(1).isNull()) {
        channel.node = tracks.getColumn(1).getInt64();
        channel.node_kind = "bone";
      }
      curves.channels.push_back(std::move(channel));
    }
  }
  curves.start_seconds = start <= end ? start : 0;
  curves.end_seconds = start <= end ? end : 0;
  return curves;
}

}  // namespace animdex::reports
