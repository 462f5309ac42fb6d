#include "reports/dump_files.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <sstream>

namespace animdex::reports {

DumpRoots dump_roots(SQLite::Database& db, const std::string& label) {
  SQLite::Statement query(db, "SELECT root, root_container IS NOT NULL FROM dumps WHERE label = ?");
  query.bind(1, label);
  DumpRoots roots;
  if (!query.executeStep()) return roots;
  std::istringstream lines(query.getColumn(0).getString());  // several roots: one a line
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) roots.folders.emplace_back(line);
  roots.single_image = query.getColumn(1).getInt() != 0;
  return roots;
}

std::filesystem::path file_on_disk(const DumpRoots& roots, const std::string& path) {
  if (roots.folders.empty()) return {};
  if (roots.folders.size() == 1)
    return roots.single_image ? roots.folders.front().parent_path() / path : roots.folders.front() / path;
  const auto slash = path.find('/');
  std::string prefix = path.substr(0, slash);
  const std::string rest = slash == std::string::npos ? "" : path.substr(slash + 1);
  std::size_t occurrence = 1;  // `dump~2`: the second root named `dump`
  const auto tilde = prefix.rfind('~');
  if (tilde != std::string::npos && tilde + 1 < prefix.size() &&
      std::all_of(prefix.begin() + static_cast<std::ptrdiff_t>(tilde) + 1, prefix.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    occurrence = std::stoul(prefix.substr(tilde + 1));
    prefix.resize(tilde);
  }
  for (const auto& root : roots.folders)
    if (root.filename() == prefix && --occurrence == 0) return rest.empty() ? root : root / rest;
  return {};
}

std::optional<std::string> linked_model(SQLite::Database& db, std::int64_t file_id) {
  SQLite::Statement query(db, "SELECT m.path FROM animations a JOIN (SELECT animation_id, model_file_id FROM "
                              "nitro_model_links UNION ALL SELECT animation_id, model_file_id FROM kh2_model_links) l "
                              "ON l.animation_id = a.id JOIN files m ON m.id = l.model_file_id WHERE a.file_id = ? "
                              "GROUP BY m.path ORDER BY COUNT(*) DESC, m.path LIMIT 1");
  query.bind(1, file_id);
  if (!query.executeStep()) return std::nullopt;
  return query.getColumn(0).getString();
}

}  // namespace animdex::reports
