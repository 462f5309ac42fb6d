#include "core/nearest_names.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"

namespace animdex {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::vector<std::string> nearest_names(std::string_view word, const std::vector<std::string>& names, std::size_t limit) {
  std::vector<std::string> best;
  std::size_t best_distance = std::min<std::size_t>(2, std::max<std::size_t>(1, word.size() / 2));
  for (const auto& name : names) {
    // Names far longer or shorter than the word cannot be within the distance: skip the table.
    if (name.empty() || name.size() > word.size() + best_distance || name.size() + best_distance < word.size()) continue;
    const auto distance = edit_distance(word, name);
    if (distance > best_distance) continue;
    if (distance < best_distance) best.clear();
    best_distance = distance;
    if (std::find(best.begin(), best.end(), name) == best.end()) best.push_back(name);
  }
  if (best.empty() && !word.empty()) {
    const auto prefix = lowercase_ascii(word);
    for (const auto& name : names)
      if (name.size() > word.size() && lowercase_ascii(name).starts_with(prefix) &&
          std::find(best.begin(), best.end(), name) == best.end())
        best.push_back(name);
  }
  if (best.size() > limit) best.resize(limit);
  return best;
}

std::string nearest_hint(std::string_view word, const std::vector<std::string>& names) {
  const auto near = nearest_names(word, names);
  std::string text;
  for (std::size_t i = 0; i < near.size(); ++i) text += (i == 0 ? "; nearest: " : ", ") + near[i];
  return text;
}

}  // namespace animdex
