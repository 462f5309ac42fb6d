#include "containers/fpk/fpk_writer.h"

#include <stdexcept>

#include "containers/fpk/fpk_container.h"
#include "containers/fpk/prs.h"
#include "core/byte_writer.h"

namespace animdex::fpk {

namespace {

constexpr std::uint64_t kAlignment = 16;   // GNTool's FPKFile pads each blob to 16 bytes
constexpr std::uint32_t kHeaderWord2 = 0x10;  // GNTool writes the header size here

struct Blob {
  std::string name;
  std::vector<std::byte> stored;
  std::uint64_t size = 0;
};

std::uint64_t padded(std::uint64_t length) { return (length + kAlignment - 1) / kAlignment * kAlignment; }

std::uint32_t field(std::uint64_t value, const char* what) {
  if (value > 0x7FFFFFFF) throw std::length_error(std::string("FPK ") + what + " does not fit 31 bits");
  return static_cast<std::uint32_t>(value);
}

Blob make_blob(const FpkInput& input) {
  Blob blob{stored_fpk_name(input.path), {}, input.bytes.size()};
  if (input.compress) blob.stored = prs_compress(input.bytes);
  if (!input.compress || blob.stored.size() == input.bytes.size()) blob.stored = input.bytes;
  return blob;
}

}  // namespace

std::string stored_fpk_name(std::string_view path) {
  if (path.size() < kNameSize) return std::string(path);
  return std::string(path.substr(path.size() - kTruncatedNameLength));
}

std::vector<std::byte> write_fpk(const std::vector<FpkInput>& entries) {
  std::vector<Blob> blobs;
  blobs.reserve(entries.size());
  for (const auto& entry : entries) blobs.push_back(make_blob(entry));

  std::uint64_t total = kHeaderSize + kEntrySize * entries.size();  // already a multiple of 16
  std::vector<std::uint64_t> offsets;
  for (const auto& blob : blobs) {
    offsets.push_back(total);
    total += padded(blob.stored.size());
  }
  ByteWriter out;
  for (const std::uint32_t word : {0u, field(blobs.size(), "entry count"), kHeaderWord2, field(total, "size")})
    out.u32(word, BE);
  for (std::size_t i = 0; i < blobs.size(); ++i) {
    const auto& name = blobs[i].name;
    out.append({reinterpret_cast<const std::byte*>(name.data()), name.size()});
    out.zeros(kNameSize - name.size());
    out.u32(0, BE);
    out.u32(field(offsets[i], "offset"), BE);
    out.u32(field(blobs[i].stored.size(), "stored size"), BE);
    out.u32(field(blobs[i].size, "member size"), BE);
  }
  for (const auto& blob : blobs) {
    out.append(blob.stored);
    out.zeros(static_cast<std::size_t>(padded(blob.stored.size()) - blob.stored.size()));
  }
  return out.take();
}

}  // namespace animdex::fpk
