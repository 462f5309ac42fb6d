#pragma once
// What the GameCube and CISO tests share: a small fixture disc, its FST's places, listing bytes,
// sources that pretend to be large (zeros past a small image) or count the bytes read, and what
// the real-disc tests need (a file read by range, the note's GNT4 numbers).
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "containers/byte_source.h"
#include "containers/gcm/gcm_container.h"
#include "containers/gcm/gcm_writer.h"
#include "core/parse_error.h"
#include "support/corrupt_input.h"

namespace animdex::test {

inline Bytes pattern_bytes(std::size_t size, unsigned seed) {
  Bytes bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::byte>((i * 31 + seed * 7 + (i >> 8)) & 0xFF);
  return bytes;
}

// Entries in FST order: 0 root, 1 a.bin, 2 dir/, 3 dir/b.bin, 4 dir/sub/, 5 dir/sub/c.bin, 6 z.bin.
inline std::vector<gcm::GcmFile> fixture_files() {
  return {{"z.bin", pattern_bytes(5, 1)},
          {"dir/sub/c.bin", pattern_bytes(100, 2)},
          {"a.bin", pattern_bytes(64, 3)},
          {"dir/b.bin", pattern_bytes(33, 4)}};
}
inline Bytes fixture_disc() { return gcm::build_gcm(fixture_files()); }

inline std::size_t fst_offset(const Bytes& disc) { return static_cast<std::size_t>(get(disc, gcm::kFstOffsetField, 4, BE)); }
inline std::size_t fst_size(const Bytes& disc) { return static_cast<std::size_t>(get(disc, gcm::kFstSizeField, 4, BE)); }
inline std::size_t entry_offset(const Bytes& disc, std::size_t index) { return fst_offset(disc) + 12 * index; }
inline std::size_t entry_count(const Bytes& disc) { return static_cast<std::size_t>(get(disc, fst_offset(disc) + 8, 4, BE)); }
// Where entry `index`'s name is, in the image.
inline std::size_t name_offset(const Bytes& disc, std::size_t index) {
  return fst_offset(disc) + 12 * entry_count(disc) + (get(disc, entry_offset(disc, index), 4, BE) & 0xFFFFFF);
}

inline Result<MemberList> list_disc(const ByteSource& disc, const ContainerLimits& limits = {}) {
  return gcm::list_gcm(ContainerInput{disc, disc, "test.iso"}, limits);
}
inline Result<MemberList> list_disc(const Bytes& disc, const ContainerLimits& limits = {}) {
  const MemorySource source{std::span<const std::byte>(disc)};
  return list_disc(source, limits);
}

// `image`'s bytes, then zeros up to `size`: a large disc without its bytes in memory.
class PaddedSource final : public ByteSource {
 public:
  PaddedSource(Bytes image, std::uint64_t size) : image_(std::move(image)), size_(size) {}
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, std::span<std::byte> out) const override {
    if (!contains(offset, out.size())) fail_at(offset, "a range inside the padded source");
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = offset + i < image_.size() ? image_[static_cast<std::size_t>(offset + i)] : std::byte{0};
  }

 private:
  Bytes image_;
  std::uint64_t size_;
};

// Passes reads through and counts their bytes.
class CountingSource final : public ByteSource {
 public:
  explicit CountingSource(const ByteSource& inner) : inner_(inner) {}
  std::uint64_t size() const override { return inner_.size(); }
  void read(std::uint64_t offset, std::span<std::byte> out) const override {
    bytes_read += out.size();
    inner_.read(offset, out);
  }
  mutable std::uint64_t bytes_read = 0;

 private:
  const ByteSource& inner_;
};

// A file read by range (a real disc is 1.4 GB: never read whole).
class StreamSource final : public ByteSource {
 public:
  explicit StreamSource(const std::filesystem::path& path)
      : in_(path, std::ios::binary), size_(std::filesystem::file_size(path)) {}
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, std::span<std::byte> out) const override {
    if (!contains(offset, out.size())) fail_at(offset, "a range inside the file");
    const std::lock_guard lock(mutex_);
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()));
    if (!in_) fail_at(offset, "a readable range");
  }

 private:
  mutable std::ifstream in_;
  mutable std::mutex mutex_;
  std::uint64_t size_;
};

inline std::vector<std::filesystem::path> files_with_extensions(const std::filesystem::path& root,
                                                               std::initializer_list<std::string_view> extensions) {
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    auto extension = entry.path().extension().string();
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string_view wanted : extensions)
      if (extension == wanted) found.push_back(entry.path());
  }
  return found;
}

// A real disc lists; GNT4 (G4NJDA) also matches the note's FST numbers (0x33E7 bytes, 563
// entries) and holds fpack/chr/nar1000.fpk.
inline void check_real_disc(const ByteSource& disc) {
  const auto listed = list_disc(disc);
  INFO((listed.ok() ? std::string() : listed.error().message()));
  REQUIRE(listed.ok());
  const auto boot = disc.read_vector(0, gcm::kBootSize);
  if (std::string(reinterpret_cast<const char*>(boot.data()), 6) != "G4NJDA") return;
  CHECK(get(boot, gcm::kFstSizeField, 4, BE) == 0x33E7);
  const auto root = disc.read_vector(get(boot, gcm::kFstOffsetField, 4, BE), 12);
  CHECK(get(root, 8, 4, BE) == 563);
  bool has_naruto = false;
  for (const auto& member : listed.value().members) has_naruto |= member.path == "fpack/chr/nar1000.fpk";
  CHECK(has_naruto);
}

inline Bytes member_bytes(const ByteSource& source, const Member& member) { return source.read_vector(member.offset, member.size); }

}  // namespace animdex::test
