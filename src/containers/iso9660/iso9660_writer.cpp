#include "containers/iso9660/iso9660_writer.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "core/text.h"
#include "containers/iso9660/iso9660_container.h"

namespace animdex::iso9660 {

namespace {

constexpr std::size_t kMaxComponent = 200;  // + ";1" and the 33-byte record head stay under 255
constexpr std::uint8_t kDate[7] = {125, 1, 1, 0, 0, 0, 0};  // 2025-01-01 00:00:00 GMT, recording date
constexpr std::string_view kVolumeDate = "2025010100000000";

struct DirNode;

// One entry of a directory, as its record names it.
struct Child {
  std::string identifier;  // "SUB" or "FILE.BIN;1"
  DirNode* directory = nullptr;
  const IsoFile* file = nullptr;
  std::uint32_t extent = 0;
};

struct DirNode {
  std::string identifier;  // "" for the root
  DirNode* parent = nullptr;
  int level = 1;
  std::vector<std::unique_ptr<DirNode>> owned;
  std::vector<Child> children;
  std::set<std::string> lowered_names;  // readers compare names case-insensitively
  std::map<std::string, DirNode*, std::less<>> subdirectories;
  std::uint16_t number = 0;             // in the path tables, from 1
  std::uint32_t extent = 0, length = 0;
};

void check_component(std::string_view component, const std::string& path) {
  if (component.empty()) throw std::invalid_argument("empty path component in \"" + path + "\"");
  if (component.size() > kMaxComponent) throw std::invalid_argument("name too long in \"" + path + "\"");
  if (component.back() == '.' || component.find(';') != std::string_view::npos ||
      component.find('\0') != std::string_view::npos)
    throw std::invalid_argument("unrecordable name in \"" + path + "\"");
}

void claim_name(DirNode& directory, std::string_view name, const std::string& path) {
  if (!directory.lowered_names.insert(lowercase_ascii(name)).second)
    throw std::invalid_argument("\"" + path + "\" repeats a name of its directory");
}

DirNode& subdirectory(DirNode& parent, std::string_view name, const std::string& path) {
  if (const auto found = parent.subdirectories.find(name); found != parent.subdirectories.end()) return *found->second;
  claim_name(parent, name, path);
  auto node = std::make_unique<DirNode>();
  node->identifier = std::string(name);
  node->parent = &parent;
  node->level = parent.level + 1;
  if (node->level > kMaxDirectoryDepth) throw std::invalid_argument("\"" + path + "\" is nested past level 8");
  parent.children.push_back({node->identifier, node.get(), nullptr, 0});
  parent.subdirectories.emplace(node->identifier, node.get());
  parent.owned.push_back(std::move(node));
  return *parent.owned.back();
}

// "NAME.;1" for a name without '.', as ISO9660 level 1 records it; readers strip both back.
std::string file_identifier(std::string_view name) {
  return std::string(name) + (name.find('.') == std::string_view::npos ? ".;1" : ";1");
}

void add_file(DirNode& root, const IsoFile& file) {
  if (file.bytes.size() > 0xFFFFFFFFULL) throw std::length_error("\"" + file.path + "\" is 4 GiB or more");
  DirNode* directory = &root;
  std::string_view rest = file.path;
  for (auto slash = rest.find('/'); slash != std::string_view::npos; slash = rest.find('/')) {
    check_component(rest.substr(0, slash), file.path);
    directory = &subdirectory(*directory, rest.substr(0, slash), file.path);
    rest.remove_prefix(slash + 1);
  }
  check_component(rest, file.path);
  claim_name(*directory, rest, file.path);
  directory->children.push_back({file_identifier(rest), nullptr, &file, 0});
}

// Path-table order (ECMA-119 6.9.1): by level, then parent number, then name; a breadth-first walk
// over children sorted by identifier gives exactly that.
std::vector<DirNode*> number_directories(DirNode& root) {
  std::vector<DirNode*> order;
  std::deque<DirNode*> queue{&root};
  while (!queue.empty()) {
    DirNode* directory = queue.front();
    queue.pop_front();
    std::sort(directory->children.begin(), directory->children.end(),
              [](const Child& a, const Child& b) { return a.identifier < b.identifier; });
    order.push_back(directory);
    directory->number = static_cast<std::uint16_t>(order.size());
    for (auto& child : directory->children)
      if (child.directory) queue.push_back(child.directory);
  }
  if (order.size() > 0xFFFF) throw std::length_error("more directories than a path table numbers");
  return order;
}

std::uint64_t record_length(std::size_t identifier_length) {
  return kMinRecordSize + identifier_length + (identifier_length % 2 == 0 ? 1 : 0);
}

// Bytes of a directory's records packed into sectors (a record never crosses one, section 5).
std::uint64_t directory_length(const DirNode& directory) {
  std::uint64_t sectors = 1, used = 0;
  auto place = [&](std::uint64_t length) {
    if (used + length > kSectorSize) {
      ++sectors;
      used = 0;
    }
    used += length;
  };
  place(record_length(1));
  place(record_length(1));
  for (const auto& child : directory.children) place(record_length(child.identifier.size()));
  return sectors * kSectorSize;
}

std::uint64_t path_table_size(const std::vector<DirNode*>& order) {
  std::uint64_t size = 0;
  for (const DirNode* directory : order) {
    const std::size_t length = std::max<std::size_t>(1, directory->identifier.size());
    size += 8 + length + length % 2;
  }
  return size;
}

std::uint64_t sectors_for(std::uint64_t bytes) { return (bytes + kSectorSize - 1) / kSectorSize; }

class ImageWriter {
 public:
  explicit ImageWriter(std::uint64_t sectors) {
    if (sectors > 0xFFFFFFFFULL) throw std::length_error("an ISO9660 image holds at most 2^32 blocks");
    image_.resize(static_cast<std::size_t>(sectors * kSectorSize));
  }
  std::vector<std::byte> take() { return std::move(image_); }

  void u8(std::uint64_t at, std::uint8_t value) { image_.at(static_cast<std::size_t>(at)) = std::byte{value}; }
  void le(std::uint64_t at, std::uint64_t value, int size) {
    for (int i = 0; i < size; ++i) u8(at + static_cast<std::uint64_t>(i), static_cast<std::uint8_t>(value >> (8 * i)));
  }
  void be(std::uint64_t at, std::uint64_t value, int size) {
    for (int i = 0; i < size; ++i) u8(at + static_cast<std::uint64_t>(i), static_cast<std::uint8_t>(value >> (8 * (size - 1 - i))));
  }
  void both(std::uint64_t at, std::uint64_t value, int size) {  // section 5: little-endian, then big-endian
    le(at, value, size);
    be(at + static_cast<std::uint64_t>(size), value, size);
  }
  void text(std::uint64_t at, std::string_view value, std::size_t field, char pad = ' ') {
    for (std::size_t i = 0; i < field; ++i) u8(at + i, static_cast<std::uint8_t>(i < value.size() ? value[i] : pad));
  }
  void bytes(std::uint64_t at, std::span<const std::byte> data) {
    if (!data.empty()) std::memcpy(image_.data() + at, data.data(), data.size());
  }

  // One directory record (section 5) at `at`; returns its length.
  std::uint64_t record(std::uint64_t at, std::uint32_t extent, std::uint32_t length, bool directory,
                       std::string_view identifier) {
    const std::uint64_t size = record_length(identifier.size());
    u8(at, static_cast<std::uint8_t>(size));
    both(at + 2, extent, 4);
    both(at + 10, length, 4);
    for (int i = 0; i < 7; ++i) u8(at + 18 + static_cast<std::uint64_t>(i), kDate[i]);
    u8(at + 25, directory ? 0x02 : 0x00);
    both(at + 28, 1, 2);
    u8(at + 32, static_cast<std::uint8_t>(identifier.size()));
    text(at + 33, identifier, identifier.size());
    return size;
  }

 private:
  std::vector<std::byte> image_;
};

void write_directory(ImageWriter& out, const DirNode& directory) {
  const std::uint64_t start = static_cast<std::uint64_t>(directory.extent) * kSectorSize;
  std::uint64_t at = start;
  auto place = [&](std::uint32_t extent, std::uint32_t length, bool is_directory, std::string_view identifier) {
    const std::uint64_t used = (at - start) % kSectorSize;
    if (used + record_length(identifier.size()) > kSectorSize) at += kSectorSize - used;
    at += out.record(at, extent, length, is_directory, identifier);
  };
  const DirNode& parent = directory.parent ? *directory.parent : directory;
  place(directory.extent, directory.length, true, std::string_view("\0", 1));
  place(parent.extent, parent.length, true, std::string_view("\1", 1));
  for (const auto& child : directory.children) {
    if (child.directory) place(child.directory->extent, child.directory->length, true, child.identifier);
    else place(child.extent, static_cast<std::uint32_t>(child.file->bytes.size()), false, child.identifier);
  }
}

void write_path_table(ImageWriter& out, std::uint64_t at, const std::vector<DirNode*>& order, bool big_endian) {
  for (const DirNode* directory : order) {
    const std::string identifier = directory->identifier.empty() ? std::string(1, '\0') : directory->identifier;
    const std::uint16_t parent = directory->parent ? directory->parent->number : 1;
    out.u8(at, static_cast<std::uint8_t>(identifier.size()));
    if (big_endian) {
      out.be(at + 2, directory->extent, 4);
      out.be(at + 6, parent, 2);
    } else {
      out.le(at + 2, directory->extent, 4);
      out.le(at + 6, parent, 2);
    }
    out.text(at + 8, identifier, identifier.size());
    at += 8 + identifier.size() + identifier.size() % 2;
  }
}

struct Layout {
  std::uint64_t path_table_size = 0, l_table = 0, m_table = 0, sectors = 0;
};

// Assigns every extent: tables from sector 18, then the directories, then the files.
Layout lay_out(const std::vector<DirNode*>& order) {
  Layout layout;
  layout.path_table_size = path_table_size(order);
  layout.l_table = kFirstDescriptorSector + 2;
  layout.m_table = layout.l_table + sectors_for(layout.path_table_size);
  std::uint64_t next = layout.m_table + sectors_for(layout.path_table_size);
  for (DirNode* directory : order) {
    directory->length = static_cast<std::uint32_t>(directory_length(*directory));
    directory->extent = static_cast<std::uint32_t>(next);
    next += directory->length / kSectorSize;
  }
  for (DirNode* directory : order)
    for (auto& child : directory->children)
      if (child.file) {
        child.extent = static_cast<std::uint32_t>(std::min<std::uint64_t>(next, 0xFFFFFFFFULL));
        next += sectors_for(child.file->bytes.size());
      }
  layout.sectors = next;
  return layout;
}

void write_descriptors(ImageWriter& out, const Layout& layout, const DirNode& root, std::string_view volume_id) {
  const std::uint64_t pvd = kFirstDescriptorOffset;
  out.u8(pvd, kPrimary);
  out.text(pvd + 1, "CD001", 5);
  out.u8(pvd + 6, 1);
  out.text(pvd + 8, "", 32);  // system identifier
  out.text(pvd + 40, volume_id, 32);
  out.both(pvd + 0x50, layout.sectors, 4);
  out.both(pvd + 0x78, 1, 2);  // volume set size
  out.both(pvd + 0x7C, 1, 2);  // volume sequence number
  out.both(pvd + 0x80, kSectorSize, 2);
  out.both(pvd + 0x84, layout.path_table_size, 4);
  out.le(pvd + 0x8C, layout.l_table, 4);
  out.be(pvd + 0x94, layout.m_table, 4);
  out.record(pvd + kRootRecordOffset, root.extent, root.length, true, std::string_view("\0", 1));
  for (std::uint64_t field : {190u, 318u, 446u, 574u}) out.text(pvd + field, "", 128);  // set, publisher, preparer, application
  for (std::uint64_t field : {702u, 739u, 776u}) out.text(pvd + field, "", 37);         // copyright, abstract, bibliography
  for (std::uint64_t field : {813u, 830u}) out.text(pvd + field, kVolumeDate, 16);       // creation, modification
  for (std::uint64_t field : {847u, 864u}) out.text(pvd + field, "", 16, '0');           // expiration, effective: none
  out.u8(pvd + 881, 1);  // file structure version
  const std::uint64_t terminator = pvd + kSectorSize;
  out.u8(terminator, kTerminator);
  out.text(terminator + 1, "CD001", 5);
  out.u8(terminator + 6, 1);
}

}  // namespace

std::vector<std::byte> build_iso9660(const std::vector<IsoFile>& files, std::string_view volume_id) {
  if (volume_id.size() > 32) throw std::invalid_argument("a volume identifier has at most 32 bytes");
  DirNode root;
  for (const auto& file : files) add_file(root, file);
  const std::vector<DirNode*> order = number_directories(root);
  const Layout layout = lay_out(order);
  ImageWriter out(layout.sectors);
  write_descriptors(out, layout, root, volume_id);
  write_path_table(out, layout.l_table * kSectorSize, order, false);
  write_path_table(out, layout.m_table * kSectorSize, order, true);
  for (const DirNode* directory : order) {
    write_directory(out, *directory);
    for (const auto& child : directory->children)
      if (child.file) out.bytes(static_cast<std::uint64_t>(child.extent) * kSectorSize, child.file->bytes);
  }
  return out.take();
}

}  // namespace animdex::iso9660
