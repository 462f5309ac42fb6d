#include "model/animation.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace animdex::model {

KeyColumns::KeyColumns(std::size_t key_count, unsigned columns)
    : key_count_(key_count), capacity_(key_count), columns_(key_count > 0 ? columns & (kFrame | kXYZW) : 0) {
  reals_.assign(real_columns() * key_count, 0.0);
  if (has(kFrame)) frames_.assign(key_count, 0);
}

KeyColumns::KeyColumns(KeyColumns&& other) noexcept
    : key_count_(std::exchange(other.key_count_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      columns_(std::exchange(other.columns_, 0)),
      reals_(std::move(other.reals_)),
      frames_(std::move(other.frames_)) {
  other.reals_.clear();
  other.frames_.clear();
}

KeyColumns& KeyColumns::operator=(KeyColumns&& other) noexcept {
  if (this == &other) return *this;
  key_count_ = std::exchange(other.key_count_, 0);
  capacity_ = std::exchange(other.capacity_, 0);
  columns_ = std::exchange(other.columns_, 0);
  reals_ = std::move(other.reals_);
  frames_ = std::move(other.frames_);
  other.reals_.clear();
  other.frames_.clear();
  return *this;
}

void KeyColumns::grow(std::size_t capacity) {
  const std::size_t slots = real_columns();
  std::vector<double> reals(slots * capacity);
  for (std::size_t slot = 0; slot < slots; ++slot)
    for (std::size_t k = 0; k < key_count_; ++k) reals[slot * capacity + k] = reals_[slot * capacity_ + k];
  reals_ = std::move(reals);
  capacity_ = capacity;
  if (has(kFrame)) frames_.reserve(capacity);
}

void KeyColumns::reserve(std::size_t key_count) {
  if (key_count > capacity_) grow(key_count);
}

unsigned KeyColumns::columns_of(const Key& key) noexcept {
  return (key.frame ? kFrame : 0) | (key.x ? kX : 0) | (key.y ? kY : 0) | (key.z ? kZ : 0) | (key.w ? kW : 0);
}

void KeyColumns::push_back(const Key& key) {
  const unsigned carried = columns_of(key);
  if (key_count_ == 0 && carried != columns_) {  // the first key decides (keeping any reserved room)
    const std::size_t room = capacity_;
    *this = KeyColumns();
    columns_ = carried;
    grow(room);
  }
  if (carried != columns_) throw std::invalid_argument("a key carries other columns than the track's first key");
  if (key_count_ == capacity_) grow(capacity_ == 0 ? 4 : 2 * capacity_);
  reals_[key_count_] = key.time;
  if (key.frame) frames_.push_back(*key.frame);
  const std::optional<double>* values[] = {&key.x, &key.y, &key.z, &key.w};
  for (std::size_t v = 0; v < 4; ++v)
    if (*values[v]) reals_[slot_of_value(v) * capacity_ + key_count_] = **values[v];
  ++key_count_;
}

Key KeyColumns::operator[](std::size_t index) const {
  Key key;
  key.time = time()[index];
  if (has(kFrame)) key.frame = frames_[index];
  std::optional<double>* values[] = {&key.x, &key.y, &key.z, &key.w};
  for (std::size_t v = 0; v < 4; ++v)
    if (has(kX << v)) *values[v] = value(v)[index];
  return key;
}

bool KeyColumns::operator==(const KeyColumns& other) const {
  // Column by column, as spans: a track without keys carries nothing, whatever it was sized with.
  if (key_count_ != other.key_count_) return false;
  const auto same = [](auto a, auto b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); };
  if (!same(time(), other.time()) || !same(frame(), other.frame())) return false;
  for (std::size_t v = 0; v < 4; ++v)
    if (!same(value(v), other.value(v))) return false;
  return true;
}

}  // namespace animdex::model
