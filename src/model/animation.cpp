#include "model/animation.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <utility>

namespace animdex::model {

bool float32_values(std::string_view value_encoding) {
  // GNT's two coordinate encodings (bf16 is a float32 cut short), KH2's curves and raw matrices,
  // and NSBCA rotations: quaternions computed from the fixed-point matrix, kept as float32s.
  return value_encoding == "f32x4" || value_encoding == "bf16x4" || value_encoding == "kh2_fcurve" ||
         value_encoding == "f32x16_matrix" || value_encoding == "rotation_index";
}

KeyColumns::KeyColumns(std::size_t key_count, unsigned columns, const std::shared_ptr<ColumnArena>& arena,
                       ColumnFill fill)
    : key_count_(key_count), columns_(key_count > 0 ? columns & (kFrame | kXYZW) : 0) {
  if (key_count > 0) storage_ = WordColumns(word_columns(), key_count, arena, fill);
}

KeyColumns::KeyColumns(KeyColumns&& other) noexcept
    : key_count_(std::exchange(other.key_count_, 0)),
      columns_(std::exchange(other.columns_, 0)),
      storage_(std::move(other.storage_)) {}

KeyColumns& KeyColumns::operator=(KeyColumns&& other) noexcept {
  key_count_ = std::exchange(other.key_count_, 0);
  columns_ = std::exchange(other.columns_, 0);
  storage_ = std::move(other.storage_);
  return *this;
}

void KeyColumns::grow(std::size_t capacity) { storage_ = storage_.resized(word_columns(), capacity, key_count_); }

void KeyColumns::reserve(std::size_t key_count) {
  if (key_count > storage_.capacity()) grow(key_count);
}

unsigned KeyColumns::columns_of(const Key& key) noexcept {
  return (key.frame ? kFrame : 0) | (key.x ? kX : 0) | (key.y ? kY : 0) | (key.z ? kZ : 0) | (key.w ? kW : 0);
}

void KeyColumns::push_back(const Key& key) {
  const unsigned carried = columns_of(key);
  if (key_count_ == 0 && carried != columns_) {  // the first key decides (keeping any reserved room)
    const std::size_t room = storage_.capacity();
    *this = KeyColumns();
    columns_ = carried;
    grow(room);
  }
  if (carried != columns_) throw std::invalid_argument("a key carries other columns than the track's first key");
  const std::size_t capacity = storage_.capacity();
  if (key_count_ == capacity) grow(capacity == 0 ? 4 : 2 * capacity);
  storage_.reals(0)[key_count_] = key.time;
  if (key.frame) frames()[key_count_] = *key.frame;
  const std::optional<double>* values[] = {&key.x, &key.y, &key.z, &key.w};
  for (std::size_t v = 0; v < 4; ++v)
    if (*values[v]) storage_.reals(slot_of_value(v))[key_count_] = **values[v];
  ++key_count_;
}

Key KeyColumns::operator[](std::size_t index) const {
  Key key;
  key.time = time()[index];
  if (has(kFrame)) key.frame = frames()[index];
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

SplineColumns::SplineColumns(std::size_t key_count, std::size_t parameter_count, bool linear_flags,
                             const std::shared_ptr<ColumnArena>& arena, ColumnFill fill)
    : key_count_(key_count),
      parameter_count_(std::min(parameter_count, kMaxParameters)),
      linear_flags_(linear_flags),
      storage_(word_columns(), key_count, arena, fill) {}

SplineColumns::SplineColumns(SplineColumns&& other) noexcept
    : key_count_(std::exchange(other.key_count_, 0)),
      parameter_count_(std::exchange(other.parameter_count_, 0)),
      linear_flags_(std::exchange(other.linear_flags_, false)),
      storage_(std::move(other.storage_)) {}

SplineColumns& SplineColumns::operator=(SplineColumns&& other) noexcept {
  key_count_ = std::exchange(other.key_count_, 0);
  parameter_count_ = std::exchange(other.parameter_count_, 0);
  linear_flags_ = std::exchange(other.linear_flags_, false);
  storage_ = std::move(other.storage_);
  return *this;
}

void SplineColumns::push_back(const KeySpline& spline) {
  const bool flags = key_count_ == 0 ? spline.linear_flag.has_value() : linear_flags_;
  if (spline.linear_flag.has_value() != flags)
    throw std::invalid_argument("a spline carries a linear flag where the track's first does not, or not where it does");
  // Widened to the last parameter that is not +0.0, by its bits: a -0.0 is kept as the file has it.
  std::size_t parameters = parameter_count_;
  for (std::size_t p = parameters; p < kMaxParameters; ++p)
    if (std::bit_cast<std::uint64_t>(spline.params[p]) != 0) parameters = p + 1;
  // New parameter columns go after the others, so the kept keys stay where they are. Nothing
  // changes before the allocation: a bad_alloc leaves the track as it was.
  const std::size_t columns = (flags ? 2 : 1) + parameters;
  const std::size_t capacity = storage_.capacity();
  const std::size_t room = key_count_ < capacity ? capacity : (capacity == 0 ? 4 : 2 * capacity);
  if (columns != storage_.column_count() || room != capacity) storage_ = storage_.resized(columns, room, key_count_);
  linear_flags_ = flags;
  parameter_count_ = parameters;
  storage_.integers(0)[key_count_] = spline.shape;
  if (linear_flags_) storage_.integers(1)[key_count_] = *spline.linear_flag;
  for (std::size_t p = 0; p < parameter_count_; ++p) storage_.reals(first_parameter() + p)[key_count_] = spline.params[p];
  ++key_count_;
}

KeySpline SplineColumns::operator[](std::size_t index) const {
  KeySpline spline;
  spline.shape = static_cast<int>(shape()[index]);
  if (linear_flags_) spline.linear_flag = static_cast<int>(linear_flag()[index]);
  for (std::size_t p = 0; p < parameter_count_; ++p) spline.params[p] = parameter(p)[index];
  return spline;
}

bool SplineColumns::operator==(const SplineColumns& other) const {
  if (key_count_ != other.key_count_) return false;
  for (std::size_t k = 0; k < key_count_; ++k) {
    const KeySpline a = (*this)[k], b = other[k];
    if (a.shape != b.shape || a.linear_flag != b.linear_flag || a.params != b.params) return false;
  }
  return true;
}

}  // namespace animdex::model
