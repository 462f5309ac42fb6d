#pragma once
// The curves of animations as one self-contained HTML page (`animdex plot`, and the docs' pages per
// character): per animation a section, per bone or node a small chart with its channels over time,
// keys marked, bones named where the reference knows them. A pure function: curves and names in,
// HTML text out. Each line is decimated (curve_decimation.h), so a page of 200 curves stays small
// however many samples they hold.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/curves.h"

namespace animdex::reports {

// A node's name by (node kind, node number): ("bone", 3) -> "hip". An IK helper or an NSBCA node
// is not a bone of the game's skeleton, so its kind keeps it from taking a bone's name.
using NodeNames = std::map<std::pair<std::string, std::int64_t>, std::string>;

struct CurveSection {
  std::string anchor;   // HTML id of the section
  std::string heading;  // "slot 144: 5B"
  std::string note;     // a sentence under the heading (may be empty)
  std::string player;   // this animation's address in its 3D player (player_page.h), empty when it has none
  AnimationCurves curves;
  NodeNames node_names;
  // The lines join the keys as the database stores them (no samples): times are in the format's
  // own unit, so the axis says "as stored" instead of seconds and frames.
  bool stored_keys = false;
};

struct CurvePageOptions {
  std::size_t samples_per_line = 150;  // at most this many samples per polyline, besides the keys
  // A section larger than this (bytes; 0: no limit) is drawn again with less detail, and says so:
  // lines of at most 50 samples besides the keys, and keys closer than 3 px sharing a dot; then, if
  // still too large (thousands of curves with a key on every frame), lines of 24 points, keys
  // included, and no dots.
  std::size_t section_budget = 0;
};

// One section: its heading, a note, and a grid of charts (one per node, in node order).
std::string curve_section_html(const CurveSection& section, const CurvePageOptions& options = {});

// A whole page: the title, `intro` under it, a link to each section, and the sections.
std::string curve_page(const std::string& title, const std::string& intro, const std::vector<CurveSection>& sections,
                       const CurvePageOptions& options = {});

// "slot 144: 0x0090 (5B)": the animation's position, the format's name for it and, when known,
// `name` (a purpose or motion name); `fallback` (a file name) when it has neither slot nor name.
std::string animation_heading(const AnimationCurves& curves, const std::optional<std::string>& name,
                              const std::string& fallback);

// The chart title of a node: "bone 3 (hip)", "IK helper 70", "node 2", or "channels" for a file's
// own channels (LightWave).
std::string node_title(const ChannelCurve& channel, const NodeNames& names);

}  // namespace animdex::reports
