#pragma once
// A test source of any size: `bytes` at its start, zeros after, and a count of the bytes read, so a
// test can list a "5 GiB" image or check that a listing reads only its tables.
#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "containers/byte_source.h"
#include "core/parse_error.h"

namespace animdex::test {

class SparseSource final : public ByteSource {
 public:
  SparseSource(std::vector<std::byte> bytes, std::uint64_t size) : bytes_(std::move(bytes)), size_(size) {}
  explicit SparseSource(std::vector<std::byte> bytes) : bytes_(std::move(bytes)), size_(bytes_.size()) {}

  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, std::span<std::byte> out) const override {
    if (!contains(offset, out.size())) fail_at(offset, "a range inside the test source");
    bytes_read += out.size();
    std::fill(out.begin(), out.end(), std::byte{0});
    if (offset < bytes_.size()) {
      const std::size_t count = std::min<std::size_t>(out.size(), bytes_.size() - static_cast<std::size_t>(offset));
      std::memcpy(out.data(), bytes_.data() + offset, count);
    }
  }

  mutable std::uint64_t bytes_read = 0;

 private:
  std::vector<std::byte> bytes_;
  std::uint64_t size_;
};

}  // namespace animdex::test
