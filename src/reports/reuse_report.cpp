#include "reports/reuse_report.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include "core/number_text.h"
#include "formats/registry.h"
#include "reports/html.h"

namespace animdex::reports {

namespace {

std::optional<std::string> text_or_null(const SQLite::Column& column) {
  return column.isNull() ? std::nullopt : std::optional<std::string>(column.getString());
}
std::optional<std::int64_t> integer_or_null(const SQLite::Column& column) {
  return column.isNull() ? std::nullopt : std::optional<std::int64_t>(column.getInt64());
}

void bind_dump(SQLite::Statement& statement, const std::optional<std::string>& dump) {
  if (dump) statement.bind(":dump", *dump);
  else statement.bind(":dump");
}

bool member_order(const ReuseMember& a, const ReuseMember& b) {
  if (std::tie(a.owner, a.path) != std::tie(b.owner, b.path)) return std::tie(a.owner, a.path) < std::tie(b.owner, b.path);
  return natural_less(a.animation_key, b.animation_key);
}

using StatesByAnimation = std::map<std::int64_t, std::vector<std::int64_t>>;

// A member from columns owner, path, animation_key, motion_id, name, content_hash, animation_id
// starting at `first`, with its KH2 states.
ReuseMember member_from(SQLite::Statement& row, int first, const StatesByAnimation& states) {
  ReuseMember member{row.getColumn(first).getString(),     row.getColumn(first + 1).getString(),
                     row.getColumn(first + 2).getString(), integer_or_null(row.getColumn(first + 3)),
                     text_or_null(row.getColumn(first + 4)), row.getColumn(first + 5).getString(),
                     row.getColumn(first + 6).getInt64(),  {}};
  if (const auto found = states.find(member.animation_id); found != states.end()) member.states = found->second;
  return member;
}

constexpr const char* kMemberColumns = "owner, path, animation_key, motion_id, name, content_hash, animation_id";

// Members of the animations with the given content hash in a dump.
std::vector<ReuseMember> members_with(SQLite::Database& db, const StatesByAnimation& states, const std::string& dump,
                                      const std::string& column, const std::string& hash) {
  SQLite::Statement query(db, fmt::format("SELECT {} FROM animation_catalog WHERE dump = ? AND {} = ?", kMemberColumns,
                                          column));
  query.bind(1, dump);
  query.bind(2, hash);
  std::vector<ReuseMember> members;
  while (query.executeStep()) members.push_back(member_from(query, 0, states));
  std::sort(members.begin(), members.end(), member_order);
  return members;
}

// Every stored value of an animation's keys in order (NaN for a missing value), or empty when
// keyframes were not stored.
std::vector<double> key_values(SQLite::Database& db, std::int64_t animation_id) {
  SQLite::Statement query(db, "SELECT k.time, k.x, k.y, k.z, k.w FROM bone_tracks t JOIN keyframes k ON k.track_id = t.id "
                              "WHERE t.animation_id = ? ORDER BY t.track_index, k.key_index");
  query.bind(1, animation_id);
  std::vector<double> values;
  while (query.executeStep())
    for (int c = 0; c < 5; ++c)
      values.push_back(query.getColumn(c).isNull() ? std::numeric_limits<double>::quiet_NaN()
                                                   : query.getColumn(c).getDouble());
  return values;
}

// The sum of the values that are numbers (NaN marks a value the key does not have).
double finite_sum(const std::vector<double>& values) {
  double sum = 0;
  for (const double value : values)
    if (!std::isnan(value)) sum += value;
  return sum;
}

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double largest = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i])) {
      if (std::isnan(a[i]) != std::isnan(b[i])) return std::numeric_limits<double>::infinity();
      continue;
    }
    largest = std::max(largest, std::abs(a[i] - b[i]));
  }
  return largest;
}

std::vector<std::string> member_labels(const std::vector<ReuseMember>& members) {
  std::vector<std::string> labels;
  for (const auto& member : members) labels.push_back(member_label(member));
  return labels;
}

// Members in JSON: one object each, the fields apart rather than joined into a label.
ListCell members_list(const std::vector<ReuseMember>& members) {
  ListCell list;
  list.items = member_labels(members);
  for (const auto& member : members) {
    nlohmann::ordered_json object{{"owner", member.owner}, {"path", member.path}, {"animation", member.animation_key}};
    object["name"] = member.name ? nlohmann::ordered_json(*member.name) : nullptr;
    if (!member.states.empty()) {
      auto states = nlohmann::ordered_json::array();
      for (const auto state : member.states) {
        const auto name = slot_state_name(state);
        states.push_back(name ? nlohmann::ordered_json(std::string(*name)) : nlohmann::ordered_json(state));
      }
      object["states"] = states;
    }
    list.json.push_back(std::move(object));
  }
  return list;
}

std::vector<std::string> owners_of(const std::vector<ReuseMember>& members) {
  std::set<std::string> owners;
  for (const auto& member : members) owners.insert(member.owner);
  return {owners.begin(), owners.end()};
}

std::string joined(const std::vector<std::string>& items, const std::string& separator) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

std::int64_t owner_count(const std::vector<ReuseMember>& members) {
  std::set<std::string> owners;
  for (const auto& member : members) owners.insert(member.owner);
  return static_cast<std::int64_t>(owners.size());
}

std::vector<std::string> keys_of(const std::vector<ReuseMember>& members) {
  std::set<std::string, decltype(&natural_less)> keys(&natural_less);
  for (const auto& member : members) keys.insert(member.animation_key);
  return {keys.begin(), keys.end()};
}

std::optional<std::string> first_name(const std::vector<ReuseMember>& members) {
  std::set<std::string> names;
  for (const auto& member : members)
    if (member.name) names.insert(*member.name);
  if (names.empty()) return std::nullopt;
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : " / ") + name;
  return text;
}

std::vector<ReuseGroup> identical_groups(SQLite::Database& db, const StatesByAnimation& states,
                                         const ReuseOptions& options) {
  SQLite::Statement query(db, "SELECT dump, content_hash, track_count, key_count FROM reuse_groups "
                              "WHERE (:dump IS NULL OR dump = :dump) ORDER BY dump, content_hash");
  bind_dump(query, options.dump);
  std::vector<ReuseGroup> groups;
  while (query.executeStep()) {
    ReuseGroup group;
    group.dump = query.getColumn(0).getString();
    group.content_hash = query.getColumn(1).getString();
    group.track_count = query.getColumn(2).getInt64();
    group.key_count = query.getColumn(3).getInt64();
    groups.push_back(std::move(group));
  }
  for (auto& group : groups) group.members = members_with(db, states, group.dump, "content_hash", group.content_hash);
  // Most widely shared first; ties by the first member, so the order is stable.
  std::stable_sort(groups.begin(), groups.end(), [](const ReuseGroup& a, const ReuseGroup& b) {
    if (a.dump != b.dump) return a.dump < b.dump;
    if (owner_count(a.members) != owner_count(b.members)) return owner_count(a.members) > owner_count(b.members);
    return member_order(a.members.front(), b.members.front());
  });
  return groups;
}

std::vector<TrackReuse> reused_tracks(SQLite::Database& db, const StatesByAnimation& states,
                                      const ReuseOptions& options) {
  SQLite::Statement query(db, "SELECT dump, content_hash, bone_id, bone_name, channels, key_count FROM track_reuse "
                              "WHERE (:dump IS NULL OR dump = :dump) AND key_count >= :keys "
                              "ORDER BY dump, owner_count DESC, animation_count DESC, bone_id, content_hash");
  bind_dump(query, options.dump);
  query.bind(":keys", options.min_track_keys);
  std::vector<TrackReuse> tracks;
  while (query.executeStep())
    tracks.push_back({query.getColumn(0).getString(), query.getColumn(1).getString(), query.getColumn(4).getString(),
                      integer_or_null(query.getColumn(2)), text_or_null(query.getColumn(3)),
                      query.getColumn(5).getInt64(), {}});
  // Every holder of every reused track in one pass over bone_tracks (track hashes are not
  // indexed: a lookup per track would read the table once per track).
  std::map<std::pair<std::string, std::string>, std::vector<ReuseMember>> holders_of;
  for (const auto& track : tracks) holders_of[{track.dump, track.content_hash}];
  SQLite::Statement holders(db, "SELECT DISTINCT c.dump, t.content_hash, c.owner, c.path, c.animation_key, "
                                "c.motion_id, c.name, c.content_hash, c.animation_id FROM bone_tracks t "
                                "JOIN animation_catalog c ON c.animation_id = t.animation_id "
                                "WHERE (:dump IS NULL OR c.dump = :dump) AND t.content_hash IN "
                                "(SELECT content_hash FROM track_reuse WHERE (:dump IS NULL OR dump = :dump))");
  bind_dump(holders, options.dump);
  while (!holders_of.empty() && holders.executeStep()) {
    const auto found = holders_of.find({holders.getColumn(0).getString(), holders.getColumn(1).getString()});
    if (found == holders_of.end()) continue;  // a track under the key-count threshold
    found->second.push_back(member_from(holders, 2, states));
  }
  for (auto& track : tracks) {
    track.members = std::move(holders_of[{track.dump, track.content_hash}]);
    std::sort(track.members.begin(), track.members.end(), member_order);
  }
  return tracks;
}

// One representative animation per distinct content of a shape (same bones and key times).
struct Candidate {
  std::string dump, shape, content;
  std::int64_t animation_id;
};

std::vector<Candidate> near_candidates(SQLite::Database& db, const ReuseOptions& options) {
  // Same structure, different content; only dumps whose values were stored can be compared.
  SQLite::Statement query(
      db, "SELECT dump, shape_hash, content_hash, MIN(animation_id) FROM animation_catalog "
          "WHERE (:dump IS NULL OR dump = :dump) AND shape_hash IS NOT NULL AND key_count > 0 AND dump IN "
          "(SELECT label FROM dumps WHERE keyframe_storage <> 'none') AND (dump, shape_hash) IN "
          "(SELECT dump, shape_hash FROM animation_catalog GROUP BY dump, shape_hash "
          " HAVING COUNT(DISTINCT content_hash) >= 2) GROUP BY dump, shape_hash, content_hash "
          "ORDER BY dump, shape_hash, content_hash");
  bind_dump(query, options.dump);
  std::vector<Candidate> candidates;
  while (query.executeStep())
    candidates.push_back({query.getColumn(0).getString(), query.getColumn(1).getString(),
                          query.getColumn(2).getString(), query.getColumn(3).getInt64()});
  return candidates;
}

// Clusters of the contents of one shape whose values all lie within the tolerance (union-find over
// the pairs), each with the largest difference inside it; `cut_short` when the comparison cap was hit.
struct Clusters {
  std::map<std::size_t, std::vector<std::size_t>> members;  // root -> indexes into the shape's contents
  std::vector<double> largest;                              // by root
  bool cut_short = false;
};

Clusters cluster_contents(const std::vector<std::vector<double>>& values, double tolerance) {
  std::vector<std::size_t> parent(values.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  Clusters clusters;
  clusters.largest.assign(values.size(), 0.0);
  // Two contents within the tolerance on every value have sums within tolerance x values: so
  // sorted by sum, each is compared only with the window after it. Exact, and n log n unless
  // many sums coincide; a group that would still need more than kMaxComparisons is cut short
  // (and the report says so) rather than left to run for hours.
  constexpr std::size_t kMaxComparisons = 4'000'000;
  std::vector<std::pair<double, std::size_t>> by_sum;
  for (std::size_t i = 0; i < values.size(); ++i) by_sum.emplace_back(finite_sum(values[i]), i);
  std::sort(by_sum.begin(), by_sum.end());
  std::size_t comparisons = 0;
  for (std::size_t x = 0; x < by_sum.size() && !clusters.cut_short; ++x) {
    const double window = tolerance * static_cast<double>(values[by_sum[x].second].size());
    for (std::size_t y = x + 1; y < by_sum.size() && by_sum[y].first - by_sum[x].first <= window; ++y) {
      if (++comparisons > kMaxComparisons) {
        clusters.cut_short = true;
        break;
      }
      const std::size_t i = by_sum[x].second, j = by_sum[y].second;
      const double difference = largest_difference(values[i], values[j]);
      if (difference > tolerance) continue;
      const std::size_t a = find(i), b = find(j);
      parent[b] = a;
      clusters.largest[a] = std::max({clusters.largest[a], clusters.largest[b], difference});
    }
  }
  for (std::size_t i = 0; i < values.size(); ++i) clusters.members[find(i)].push_back(i);
  return clusters;
}

void near_identical_groups(SQLite::Database& db, const StatesByAnimation& states, const ReuseOptions& options,
                           ReuseReport& report) {
  SQLite::Statement storage(db, "SELECT label FROM dumps WHERE keyframe_storage = 'none' AND "
                                "(:dump IS NULL OR label = :dump) ORDER BY label");
  bind_dump(storage, options.dump);
  while (storage.executeStep()) report.dumps_without_keyframes.push_back(storage.getColumn(0).getString());
  const auto all = near_candidates(db, options);
  for (std::size_t begin = 0; begin < all.size();) {
    std::size_t end = begin;
    while (end < all.size() && all[end].dump == all[begin].dump && all[end].shape == all[begin].shape) ++end;
    std::vector<std::vector<double>> values;
    for (std::size_t i = begin; i < end; ++i) values.push_back(key_values(db, all[i].animation_id));
    const auto clusters = cluster_contents(values, options.tolerance);
    if (clusters.cut_short) report.near_identical_cut_short.push_back(all[begin].shape);
    for (const auto& [root, indexes] : clusters.members) {
      if (indexes.size() < 2) continue;
      ReuseGroup group;
      group.dump = all[begin].dump;
      group.content_hash = all[begin].shape;
      for (const auto i : indexes) {
        group.largest_difference = std::max(group.largest_difference, clusters.largest[i]);
        for (auto& member : members_with(db, states, group.dump, "content_hash", all[begin + i].content))
          group.members.push_back(std::move(member));
      }
      std::sort(group.members.begin(), group.members.end(), member_order);
      report.near_identical.push_back(std::move(group));
    }
    begin = end;
  }
  std::stable_sort(report.near_identical.begin(), report.near_identical.end(),
                   [](const ReuseGroup& a, const ReuseGroup& b) {
                     if (a.dump != b.dump) return a.dump < b.dump;
                     return member_order(a.members.front(), b.members.front());
                   });
}

// The Throw in hak, kak and sas: "v1 320 Throw" on the chart, the owners in the bar's tooltip.
BarChart reuse_chart(const std::vector<ReuseGroup>& groups, std::size_t bars) {
  BarChart chart{"reuse-chart", "Most widely shared animations (owners per group)", "owners", {}, {}, {}};
  for (const auto& group : groups) {
    if (chart.labels.size() >= bars) break;
    const auto name = first_name(group.members);
    // An NSBCA's keys are its names: said once.
    const bool keys_are_names = std::all_of(group.members.begin(), group.members.end(),
                                            [](const ReuseMember& member) { return member.name == member.animation_key; });
    const std::string label = group.dump + " " + (keys_are_names ? *name : joined(keys_of(group.members), ", ") +
                                                                              (name ? " " + *name : ""));
    chart.labels.push_back(label);
    chart.tooltips.push_back(label + ": " + joined(owners_of(group.members), ", "));
    chart.values.push_back(static_cast<double>(owner_count(group.members)));
  }
  return chart;
}

Section identical_section(const std::vector<ReuseGroup>& groups, const ReuseOptions& options, bool with_chart) {
  Section section{"identical", "Identical animations in several files",
                  "Same decoded content (content_hash), wherever it sits: grouped, most widely shared first. "
                  "Members are paths relative to the dump's root.",
                  {{"dump", "group", "animation_ids", "name", "owners", "owner_count", "animation_count", "tracks",
                    "keys", "content_hash", "members"},
                   {}},
                  "",
                  {}};
  std::int64_t number = 0;
  std::string last_dump;
  for (const auto& group : groups) {
    if (group.dump != last_dump) number = 0, last_dump = group.dump;
    section.add_row({group.dump, ++number, Cell(), to_cell(first_name(group.members)), Cell(),
                     owner_count(group.members), static_cast<std::int64_t>(group.members.size()), group.track_count,
                     group.key_count, group.content_hash, Cell()},
                    {{"animation_ids", list_of(keys_of(group.members))},
                     {"owners", list_of(owners_of(group.members))},
                     {"members", members_list(group.members)}});
  }
  if (with_chart && !groups.empty()) section.chart = svg_bar_chart(reuse_chart(groups, options.chart_groups));
  return section;
}

Section tracks_section(const std::vector<TrackReuse>& tracks, const ReuseOptions& options) {
  Section section{"tracks", "Bone tracks reused inside different animations",
                  fmt::format("The same track content (bone, channels, keys and values) in animations that otherwise "
                              "differ; tracks with fewer than {} keys are left out.",
                              options.min_track_keys),
                  {{"dump", "bone_id", "bone_name", "channels", "keys", "owners", "animation_count", "content_hash",
                    "used_in"},
                   {}},
                  "",
                  {}};
  for (const auto& track : tracks)
    section.add_row({track.dump, to_cell(track.bone_id), to_cell(track.bone_name), track.channels, track.key_count,
                     Cell(), static_cast<std::int64_t>(track.members.size()), track.content_hash, Cell()},
                    {{"owners", list_of(owners_of(track.members))}, {"used_in", members_list(track.members)}});
  return section;
}

std::string near_note(const ReuseReport& report, const ReuseOptions& options) {
  std::string note = fmt::format(
      "Same bones, channels and key times, every value within {} of each other, but not identical.",
      number_text(options.tolerance));
  for (const auto& dump : report.dumps_without_keyframes)
    note += " Dump '" + dump + "' was indexed with --keyframes none: its values cannot be compared.";
  if (!report.near_identical_cut_short.empty())
    note += fmt::format(" The search was cut short in {} group(s) of the same shape with too many near sums "
                        "to compare (first: shape {}); some near-identical pairs there may be missing.",
                        report.near_identical_cut_short.size(), report.near_identical_cut_short.front());
  return note;
}

Section near_section(const ReuseReport& report, const ReuseOptions& options) {
  Section section{"near", "Near-identical animations", near_note(report, options),
                  {{"dump", "group", "animation_ids", "name", "owners", "animation_count", "largest_difference",
                    "members"},
                   {}},
                  "",
                  {}};
  std::int64_t number = 0;
  std::string last_dump;
  for (const auto& group : report.near_identical) {
    if (group.dump != last_dump) number = 0, last_dump = group.dump;
    // A computed difference: shown as the precision rule shows computed values, not as 17 digits.
    section.add_row({group.dump, ++number, Cell(), to_cell(first_name(group.members)), Cell(),
                     static_cast<std::int64_t>(group.members.size()), as_computed(group.largest_difference),
                     Cell()},
                    {{"animation_ids", list_of(keys_of(group.members))},
                     {"owners", list_of(owners_of(group.members))},
                     {"members", members_list(group.members)}});
  }
  return section;
}

}  // namespace

std::string member_label(const ReuseMember& member) {
  std::string label = member.path + " " + member.animation_key;
  // An NSBCA or LightWave animation's key is its name: not said twice.
  const auto name = name_with_states(member.name == member.animation_key ? std::nullopt : member.name, member.states);
  if (name) label += " " + *name;
  return label;
}

ReuseReport build_reuse_report(SQLite::Database& db, const ReuseOptions& options) {
  const auto states = slot_states_by_animation(db);
  ReuseReport report;
  report.identical = identical_groups(db, states, options);
  report.tracks = reused_tracks(db, states, options);
  near_identical_groups(db, states, options, report);
  return report;
}

std::vector<Section> reuse_sections(const ReuseReport& report, const ReuseOptions& options, bool with_chart) {
  return {identical_section(report.identical, options, with_chart), tracks_section(report.tracks, options),
          near_section(report, options)};
}

}  // namespace animdex::reports
