// `animdex pose FILE.nsbca --anim NAME --frame F`: every node's local T, R (3x3, DS row-major
// layout) and S at an integer frame; null where the channel comes from the model's bind pose.
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/commands.h"
#include "cli/errors.h"
#include "formats/nsbca/nsbca_decode.h"
#include "formats/nsbca/nsbca_parser.h"

namespace animdex {

namespace {

template <std::size_t N>
nlohmann::ordered_json numbers(const std::optional<std::array<double, N>>& values) {
  if (!values) return nullptr;
  auto array = nlohmann::ordered_json::array();
  for (double value : *values) array.push_back(value);
  return array;
}

template <std::size_t N>
Cell numbers_cell(const std::optional<std::array<double, N>>& values) {
  if (!values) return Cell();
  std::string text;
  for (double value : *values) text += (text.empty() ? "" : " ") + fmt::format("{:.6g}", value);
  return text;
}

}  // namespace

int run_nsbca_pose(const PoseOptions& options, std::span<const std::byte> bytes, std::ostream& out) {
  auto parsed = nsbca::parse_nsbca(bytes);
  if (!parsed) {
    return fail(kExitFileErrors, fmt::format("{}: {}", options.file.string(), parsed.error().message()));
  }
  const auto& file = parsed.value();
  const nsbca::JointAnimation* animation = nullptr;
  std::string names;
  for (const auto& candidate : file.animations) {
    names += (names.empty() ? "" : ", ") + candidate.name;
    if (options.animation.empty() ? animation == nullptr : candidate.name == options.animation) animation = &candidate;
  }
  if (!animation) {
    return fail(kExitUsage,
                fmt::format("{}: no animation named '{}'; it has: {}", options.file.string(), options.animation, names));
  }
  if (!options.frame || *options.frame != std::floor(*options.frame)) {
    return fail(kExitUsage, fmt::format("NSBCA poses are sampled at integer frames: give --frame F (0..{})",
                                        animation->frame_count - 1));
  }
  const double requested = *options.frame;
  if (requested < 0 || requested >= animation->frame_count) {
    return fail(kExitUsage, fmt::format("frame {} is outside 0..{} of '{}'", requested, animation->frame_count - 1,
                                        animation->name));
  }
  const int frame = static_cast<int>(requested);
  if (options.format == OutputFormat::json) {
    nlohmann::ordered_json json;
    json["file"] = options.file.string();
    json["animation"] = animation->name;
    json["frame"] = frame;
    json["frame_count"] = animation->frame_count;
    auto& nodes = json["nodes"] = nlohmann::ordered_json::array();
    for (std::size_t index = 0; index < animation->nodes.size(); ++index) {
      const auto pose = nsbca::evaluate_node(*animation, animation->nodes[index], frame);
      nodes.push_back({{"node", index}, {"node_id", animation->nodes[index].node_id()}, {"T", numbers(pose.translation)},
                       {"R", numbers(pose.rotation)}, {"S", numbers(pose.scale)}});
    }
    out << json.dump(2) << '\n';
    return kExitOk;
  }
  ResultTable table{{"node", "node_id", "T", "R", "S"}, {}};
  for (std::size_t index = 0; index < animation->nodes.size(); ++index) {
    const auto pose = nsbca::evaluate_node(*animation, animation->nodes[index], frame);
    table.rows.push_back({static_cast<std::int64_t>(index), std::int64_t{animation->nodes[index].node_id()},
                          numbers_cell(pose.translation), numbers_cell(pose.rotation), numbers_cell(pose.scale)});
  }
  write_table(out, table, options.format);
  return kExitOk;
}

}  // namespace animdex
