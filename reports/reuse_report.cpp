#include "reports/reuse_report.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <numeric>
#include <set>

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

// Members of the animations with the given content hash in a dump.
std::vector<ReuseMember> members_with(SQLite::Database& db, const std::string& dump, const std::string& column,
                                      const std::string& hash) {
  SQLite::Statement query(db, "SELECT owner, path, animation_key, motion_id, name, content_hash FROM animation_catalog "
                              "WHERE dump = ? AND " + column + " = ?");
  query.bind(1, dump);
  query.bind(2, hash);
  std::vector<ReuseMember> members;
  while (query.executeStep())
    members.push_back({query.getColumn(0).getString(), query.getColumn(1).getString(), query.getColumn(2).getString(),
                       integer_or_null(query.getColumn(3)), text_or_null(query.getColumn(4)),
                       query.getColumn(5).getString()});
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

std::string members_text(const std::vector<ReuseMember>& members) {
  std::string text;
  for (const auto& member : members) {
    if (!text.empty()) text += "; ";
    // "owner file key": the file tells two files of one character apart (e.g. 0000.mot and 0001.mot).
    const auto slash = member.path.rfind('/');
    const std::string file = slash == std::string::npos ? member.path : member.path.substr(slash + 1);
    text += member.owner == member.path ? member.path : member.owner + " " + file;
    text += " " + member.animation_key;
    if (member.name) text += " (" + *member.name + ")";
  }
  return text;
}

std::string owners_text(const std::vector<ReuseMember>& members) {
  std::set<std::string> owners;
  for (const auto& member : members) owners.insert(member.owner);
  std::string text;
  for (const auto& owner : owners) text += (text.empty() ? "" : ", ") + owner;
  return text;
}

std::int64_t owner_count(const std::vector<ReuseMember>& members) {
  std::set<std::string> owners;
  for (const auto& member : members) owners.insert(member.owner);
  return static_cast<std::int64_t>(owners.size());
}

std::string keys_text(const std::vector<ReuseMember>& members) {
  std::set<std::string, decltype(&natural_less)> keys(&natural_less);
  for (const auto& member : members) keys.insert(member.animation_key);
  std::string text;
  for (const auto& key : keys) text += (text.empty() ? "" : ", ") + key;
  return text;
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

}  // namespace

ReuseReport build_reuse_report(SQLite::Database& db, const ReuseOptions& options) {
  ReuseReport report;
  {
    SQLite::Statement groups(db, "SELECT dump, content_hash, track_count, key_count FROM reuse_groups "
                                 "WHERE (:dump IS NULL OR dump = :dump) ORDER BY dump, content_hash");
    bind_dump(groups, options.dump);
    while (groups.executeStep()) {
      ReuseGroup group;
      group.dump = groups.getColumn(0).getString();
      group.content_hash = groups.getColumn(1).getString();
      group.track_count = groups.getColumn(2).getInt64();
      group.key_count = groups.getColumn(3).getInt64();
      report.identical.push_back(std::move(group));
    }
    for (auto& group : report.identical) group.members = members_with(db, group.dump, "content_hash", group.content_hash);
    // Most widely shared first; ties by the first member, so the order is stable.
    std::stable_sort(report.identical.begin(), report.identical.end(), [](const ReuseGroup& a, const ReuseGroup& b) {
      if (a.dump != b.dump) return a.dump < b.dump;
      if (owner_count(a.members) != owner_count(b.members)) return owner_count(a.members) > owner_count(b.members);
      return member_order(a.members.front(), b.members.front());
    });
  }
  {
    SQLite::Statement tracks(db, "SELECT dump, content_hash, bone_id, bone_name, channels, key_count FROM track_reuse "
                                 "WHERE (:dump IS NULL OR dump = :dump) AND key_count >= :keys "
                                 "ORDER BY dump, owner_count DESC, animation_count DESC, bone_id, content_hash");
    bind_dump(tracks, options.dump);
    tracks.bind(":keys", options.min_track_keys);
    while (tracks.executeStep())
      report.tracks.push_back({tracks.getColumn(0).getString(), tracks.getColumn(1).getString(),
                               tracks.getColumn(4).getString(), integer_or_null(tracks.getColumn(2)),
                               text_or_null(tracks.getColumn(3)), tracks.getColumn(5).getInt64(), {}});
    // Every holder of every reused track in one pass over bone_tracks (track hashes are not
    // indexed: a lookup per track would read the table once per track).
    std::map<std::pair<std::string, std::string>, std::vector<ReuseMember>> holders_of;
    for (const auto& track : report.tracks) holders_of[{track.dump, track.content_hash}];
    SQLite::Statement holders(db, "SELECT DISTINCT c.dump, t.content_hash, c.owner, c.path, c.animation_key, "
                                  "c.motion_id, c.name, c.content_hash FROM bone_tracks t JOIN animation_catalog c ON "
                                  "c.animation_id = t.animation_id WHERE (:dump IS NULL OR c.dump = :dump) AND "
                                  "t.content_hash IN (SELECT content_hash FROM track_reuse "
                                  "WHERE (:dump IS NULL OR dump = :dump))");
    bind_dump(holders, options.dump);
    while (!holders_of.empty() && holders.executeStep()) {
      const auto found = holders_of.find({holders.getColumn(0).getString(), holders.getColumn(1).getString()});
      if (found == holders_of.end()) continue;  // a track under the key-count threshold
      found->second.push_back({holders.getColumn(2).getString(), holders.getColumn(3).getString(),
                               holders.getColumn(4).getString(), integer_or_null(holders.getColumn(5)),
                               text_or_null(holders.getColumn(6)), holders.getColumn(7).getString()});
    }
    for (auto& track : report.tracks) {
      track.members = std::move(holders_of[{track.dump, track.content_hash}]);
      std::sort(track.members.begin(), track.members.end(), member_order);
    }
  }
  {
    SQLite::Statement storage(db, "SELECT label FROM dumps WHERE keyframe_storage = 'none' AND "
                                  "(:dump IS NULL OR label = :dump) ORDER BY label");
    bind_dump(storage, options.dump);
    while (storage.executeStep()) report.dumps_without_keyframes.push_back(storage.getColumn(0).getString());
    // Candidates: same structure, different content. One representative animation per content.
    SQLite::Statement candidates(
        db, "SELECT dump, shape_hash, content_hash, MIN(animation_id) FROM animation_catalog "
            "WHERE (:dump IS NULL OR dump = :dump) AND shape_hash IS NOT NULL AND key_count > 0 AND dump IN "
            "(SELECT label FROM dumps WHERE keyframe_storage <> 'none') AND (dump, shape_hash) IN "
            "(SELECT dump, shape_hash FROM animation_catalog GROUP BY dump, shape_hash "
            " HAVING COUNT(DISTINCT content_hash) >= 2) GROUP BY dump, shape_hash, content_hash "
            "ORDER BY dump, shape_hash, content_hash");
    bind_dump(candidates, options.dump);
    struct Candidate {
      std::string dump, shape, content;
      std::int64_t animation_id;
    };
    std::vector<Candidate> all;
    while (candidates.executeStep())
      all.push_back({candidates.getColumn(0).getString(), candidates.getColumn(1).getString(),
                     candidates.getColumn(2).getString(), candidates.getColumn(3).getInt64()});
    for (std::size_t begin = 0; begin < all.size();) {
      std::size_t end = begin;
      while (end < all.size() && all[end].dump == all[begin].dump && all[end].shape == all[begin].shape) ++end;
      // Cluster the contents of one shape: two are near-identical when no value differs by more
      // than the tolerance (union-find over the pairs).
      std::vector<std::vector<double>> values;
      for (std::size_t i = begin; i < end; ++i) values.push_back(key_values(db, all[i].animation_id));
      std::vector<std::size_t> parent(end - begin);
      std::iota(parent.begin(), parent.end(), 0);
      const auto find = [&](std::size_t i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
      };
      std::vector<double> largest(end - begin, 0.0);
      // Two contents within the tolerance on every value have sums within tolerance x values: so
      // sorted by sum, each is compared only with the window after it. Exact, and n log n unless
      // many sums coincide; a group that would still need more than kMaxComparisons is cut short
      // (and the report says so) rather than left to run for hours.
      constexpr std::size_t kMaxComparisons = 4'000'000;
      std::vector<std::pair<double, std::size_t>> by_sum;
      for (std::size_t i = 0; i < values.size(); ++i) by_sum.emplace_back(finite_sum(values[i]), i);
      std::sort(by_sum.begin(), by_sum.end());
      std::size_t comparisons = 0;
      for (std::size_t x = 0; x < by_sum.size() && comparisons <= kMaxComparisons; ++x) {
        const double window = options.tolerance * static_cast<double>(values[by_sum[x].second].size());
        for (std::size_t y = x + 1; y < by_sum.size() && by_sum[y].first - by_sum[x].first <= window; ++y) {
          if (++comparisons > kMaxComparisons) {
            report.near_identical_cut_short.push_back(all[begin].shape);
            break;
          }
          const std::size_t i = by_sum[x].second, j = by_sum[y].second;
          const double difference = largest_difference(values[i], values[j]);
          if (difference <= options.tolerance) {
            const std::size_t a = find(i), b = find(j);
            parent[b] = a;
            largest[a] = std::max({largest[a], largest[b], difference});
          }
        }
      }
      std::map<std::size_t, std::vector<std::size_t>> clusters;
      for (std::size_t i = 0; i < values.size(); ++i) clusters[find(i)].push_back(i);
      for (const auto& [root, indexes] : clusters) {
        if (indexes.size() < 2) continue;
        ReuseGroup group;
        group.dump = all[begin].dump;
        group.content_hash = all[begin].shape;
        double cluster_largest = 0;
        for (const auto i : indexes) {
          cluster_largest = std::max(cluster_largest, largest[i]);
          for (auto& member : members_with(db, group.dump, "content_hash", all[begin + i].content))
            group.members.push_back(std::move(member));
        }
        group.largest_difference = std::max(cluster_largest, largest[root]);
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
  return report;
}

std::vector<Section> reuse_sections(const ReuseReport& report, const ReuseOptions& options, bool with_chart) {
  Section identical{"identical", "Identical animations in several files",
                    "Same decoded content (content_hash), wherever it sits: grouped, most widely shared first.",
                    {{"dump", "group", "animation_ids", "name", "owners", "owner_count", "animation_count", "tracks",
                      "keys", "content_hash", "members"},
                     {}},
                    ""};
  std::int64_t number = 0;
  std::string last_dump;
  for (const auto& group : report.identical) {
    if (group.dump != last_dump) number = 0, last_dump = group.dump;
    identical.table.rows.push_back({group.dump, ++number, keys_text(group.members), to_cell(first_name(group.members)),
                                    owners_text(group.members), owner_count(group.members),
                                    static_cast<std::int64_t>(group.members.size()), group.track_count, group.key_count,
                                    group.content_hash, members_text(group.members)});
  }
  if (with_chart && !report.identical.empty()) {
    std::vector<std::string> labels;
    std::vector<double> values;
    for (const auto& group : report.identical) {
      if (labels.size() >= options.chart_groups) break;
      const auto name = first_name(group.members);
      labels.push_back(fmt::format("{} {}{}", group.dump, keys_text(group.members).substr(0, 24),
                                   name ? " " + name->substr(0, 24) : ""));
      values.push_back(static_cast<double>(owner_count(group.members)));
    }
    identical.chart = svg_bar_chart("reuse-chart", "Most widely shared animations (owners per group)", labels, values,
                                    "owners");
  }
  Section tracks{"tracks", "Bone tracks reused inside different animations",
                 fmt::format("The same track content (bone, channels, keys and values) in animations that otherwise "
                             "differ; tracks with fewer than {} keys are left out.",
                             options.min_track_keys),
                 {{"dump", "bone_id", "bone_name", "channels", "keys", "owners", "animation_count", "content_hash",
                   "used_in"},
                  {}},
                 ""};
  for (const auto& track : report.tracks)
    tracks.table.rows.push_back({track.dump, to_cell(track.bone_id), to_cell(track.bone_name), track.channels,
                                 track.key_count, owners_text(track.members),
                                 static_cast<std::int64_t>(track.members.size()), track.content_hash,
                                 members_text(track.members)});
  std::string near_note = fmt::format(
      "Same bones, channels and key times, every value within {} of each other, but not identical.",
      options.tolerance);
  for (const auto& dump : report.dumps_without_keyframes)
    near_note += " Dump '" + dump + "' was indexed with --keyframes none: its values cannot be compared.";
  if (!report.near_identical_cut_short.empty())
    near_note += fmt::format(" The search was cut short in {} group(s) of the same shape with too many near sums "
                             "to compare (first: shape {}); some near-identical pairs there may be missing.",
                             report.near_identical_cut_short.size(), report.near_identical_cut_short.front());
  Section near{"near", "Near-identical animations", near_note,
               {{"dump", "group", "animation_ids", "name", "owners", "animation_count", "largest_difference", "members"},
                {}},
               ""};
  number = 0;
  last_dump.clear();
  for (const auto& group : report.near_identical) {
    if (group.dump != last_dump) number = 0, last_dump = group.dump;
    near.table.rows.push_back({group.dump, ++number, keys_text(group.members), to_cell(first_name(group.members)),
                               owners_text(group.members), static_cast<std::int64_t>(group.members.size()),
                               group.largest_difference, members_text(group.members)});
  }
  return {identical, tracks, near};
}

}  // namespace animdex::reports
