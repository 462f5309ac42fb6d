#include "containers/gcm/gcm_writer.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "containers/gcm/gcm_container.h"
#include "core/byte_writer.h"

namespace animdex::gcm {

namespace {

constexpr std::size_t kFileAlignment = 32;

std::size_t align_up(std::size_t value, std::size_t alignment) { return (value + alignment - 1) / alignment * alignment; }

struct Node {
  std::string name;
  const GcmFile* file = nullptr;  // null for a directory
  std::vector<Node> children;
};

Node& child_named(Node& parent, std::string_view name, bool directory, const std::string& path) {
  for (Node& child : parent.children) {
    if (child.name != name) continue;
    if (!directory || child.file != nullptr) throw std::invalid_argument("build_gcm: path given twice or as file and directory: " + path);
    return child;
  }
  parent.children.push_back(Node{std::string(name), nullptr, {}});
  return parent.children.back();
}

void insert(Node& root, const GcmFile& file) {
  Node* directory = &root;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = file.path.find('/', start);
    const std::string_view name = std::string_view(file.path).substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (name.empty()) throw std::invalid_argument("build_gcm: empty path component in '" + file.path + "'");
    if (slash == std::string::npos) {
      child_named(*directory, name, false, file.path).file = &file;
      return;
    }
    directory = &child_named(*directory, name, true, file.path);
    start = slash + 1;
  }
}

std::string ascii_upper(std::string text) {
  for (char& c : text)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return text;
}

// Dolphin's DirectoryBlob sorts each directory by upper-cased name, then by the name itself.
void sort_tree(Node& directory) {
  std::sort(directory.children.begin(), directory.children.end(), [](const Node& one, const Node& two) {
    const std::string one_upper = ascii_upper(one.name), two_upper = ascii_upper(two.name);
    return one_upper == two_upper ? one.name < two.name : one_upper < two_upper;
  });
  for (Node& child : directory.children)
    if (child.file == nullptr) sort_tree(child);
}

std::uint32_t descendant_count(const Node& directory) {
  std::uint32_t count = 0;
  for (const Node& child : directory.children) count += 1 + (child.file ? 0 : descendant_count(child));
  return count;
}

// Writes the FST entries depth-first, the names in the same order, and each file's data offset.
class FstBuilder {
 public:
  FstBuilder(std::uint32_t entry_count, std::size_t data_start) : data_offset_(data_start) {
    entries_.u32(1u << 24, BE);  // the root: a directory, name offset 0, parent 0, end = entry count
    entries_.u32(0, BE);
    entries_.u32(entry_count, BE);
  }

  void write_directory(const Node& directory, std::uint32_t index) {
    for (const Node& child : directory.children) {
      const std::uint32_t child_index = next_index_++;
      const auto name_offset = static_cast<std::uint32_t>(names_.size());
      entries_.u32((child.file ? 0u : 1u) << 24 | name_offset, BE);
      names_.append(std::as_bytes(std::span(child.name.data(), child.name.size())));
      names_.u8(0);
      if (child.file) {
        placed_.push_back({child.file, data_offset_});
        entries_.u32(static_cast<std::uint32_t>(data_offset_), BE);
        entries_.u32(static_cast<std::uint32_t>(child.file->bytes.size()), BE);
        data_offset_ = align_up(data_offset_ + child.file->bytes.size(), kFileAlignment);
      } else {
        entries_.u32(index, BE);
        entries_.u32(child_index + descendant_count(child) + 1, BE);
        write_directory(child, child_index);
      }
    }
  }

  std::vector<std::byte> fst() {
    // An FST must end with a NUL (Dolphin); a disc without files still gets an empty name.
    if (names_.size() == 0) names_.u8(0);
    std::vector<std::byte> bytes = entries_.take();
    bytes.insert(bytes.end(), names_.bytes().begin(), names_.bytes().end());
    return bytes;
  }

  struct Placed {
    const GcmFile* file;
    std::size_t offset;
  };
  const std::vector<Placed>& placed() const { return placed_; }
  std::size_t data_end() const { return data_offset_; }

 private:
  ByteWriter entries_, names_;
  std::uint32_t next_index_ = 1;
  std::size_t data_offset_;
  std::vector<Placed> placed_;
};

std::size_t name_table_size(const Node& directory) {
  std::size_t size = 0;
  for (const Node& child : directory.children) size += child.name.size() + 1 + (child.file ? 0 : name_table_size(child));
  return size;
}

void write_boot(std::vector<std::byte>& image, std::string_view game_id, std::string_view title, std::size_t fst_size) {
  if (game_id.size() > kGameIdSize) throw std::invalid_argument("build_gcm: game id longer than 6 bytes");
  if (title.size() >= kTitleSize) throw std::invalid_argument("build_gcm: title of 0x3E0 bytes or more");
  std::memcpy(image.data() + kGameIdOffset, game_id.data(), game_id.size());
  std::memcpy(image.data() + kTitleOffset, title.data(), title.size());
  const auto put_u32 = [&](std::uint64_t at, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) image[at + i] = static_cast<std::byte>(value >> (24 - 8 * i));
  };
  put_u32(kMagicOffset, kGameCubeMagic);
  put_u32(kDolOffsetField, 0);
  put_u32(kFstOffsetField, static_cast<std::uint32_t>(kBuiltFstOffset));
  put_u32(kFstSizeField, static_cast<std::uint32_t>(fst_size));
  put_u32(kFstMaxSizeField, static_cast<std::uint32_t>(fst_size));
}

}  // namespace

std::vector<std::byte> build_gcm(const std::vector<GcmFile>& files, std::string_view game_id, std::string_view title) {
  Node root;
  for (const GcmFile& file : files) insert(root, file);
  sort_tree(root);
  const std::uint32_t entry_count = descendant_count(root) + 1;
  const std::size_t fst_size = kFstEntrySize * entry_count + std::max<std::size_t>(name_table_size(root), 1);
  FstBuilder builder(entry_count, align_up(kBuiltFstOffset + fst_size, kFileAlignment));
  builder.write_directory(root, 0);
  const std::vector<std::byte> fst = builder.fst();
  std::vector<std::byte> image(std::max(builder.data_end(), kBuiltFstOffset + fst.size()));
  write_boot(image, game_id, title, fst.size());
  std::copy(fst.begin(), fst.end(), image.begin() + kBuiltFstOffset);
  for (const auto& placed : builder.placed())
    std::copy(placed.file->bytes.begin(), placed.file->bytes.end(), image.begin() + static_cast<std::ptrdiff_t>(placed.offset));
  return image;
}

}  // namespace animdex::gcm
