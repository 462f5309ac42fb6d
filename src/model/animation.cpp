#include "model/animation.h"

namespace animdex::model {

void KeyColumns::reserve(std::size_t key_count) {
  time.reserve(key_count);  // only the column every track has; a parser reserves the others it fills
}

void KeyColumns::push_back(const Key& key) {
  time.push_back(key.time);
  if (key.frame) frame.push_back(*key.frame);
  if (key.x) x.push_back(*key.x);
  if (key.y) y.push_back(*key.y);
  if (key.z) z.push_back(*key.z);
  if (key.w) w.push_back(*key.w);
}

Key KeyColumns::operator[](std::size_t index) const {
  const auto value_at = [index](const std::vector<double>& column) -> std::optional<double> {
    if (index < column.size()) return column[index];
    return std::nullopt;
  };
  Key key;
  key.time = time[index];
  if (index < frame.size()) key.frame = frame[index];
  key.x = value_at(x);
  key.y = value_at(y);
  key.z = value_at(z);
  key.w = value_at(w);
  return key;
}

}  // namespace animdex::model
