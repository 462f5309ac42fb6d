#include "formats/nitro/bca0_parser.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/byte_reader.h"
#include "core/parse_budget.h"
#include "formats/nitro/nitro_file.h"
#include "model/animation.h"

namespace animdex::nsbca {

namespace {

// What a checked range holds, for its error: a fixed text, or "<owner> <number> <part><suffix>"
// (node 3 Tx array), formatted only when an error or warning is reported. Formatting every node's and
// channel's name up front was a fifth of an NSBCA parse.
struct RangeName {
  RangeName(const char* fixed) : part(fixed) {}  // NOLINT: a text converts implicitly, as a string did
  RangeName(const char* owner_name, std::size_t owner_number, const char* part_name, const char* suffix_text = "")
      : owner(owner_name), number(owner_number), part(part_name), suffix(suffix_text) {}
  std::string text() const {
    return owner ? fmt::format("{} {} {}{}", owner, number, part, suffix) : std::string(part);
  }

  const char* owner = nullptr;
  std::size_t number = 0;
  const char* part;
  const char* suffix = "";
};

struct Reader {
  const ByteReader& in;
  std::uint64_t block_end;  // absolute
  NsbcaFile& file;
  std::uint64_t sample_budget = 0;
  mutable std::uint64_t samples_read = 0;

  void require_in_block(std::uint64_t start, std::uint64_t length, std::uint64_t field_at,
                        const RangeName& what) const {
    if (start > block_end || length > block_end - start)
      nitro::fail_outside(start, length, block_end, field_at, what.text(), "JNT0 block");
  }
};

// Reads one J.AC at absolute `jac`; `extent_end` is where the next one (or the block) starts.
class AnimationReader {
 public:
  AnimationReader(const Reader& reader, std::uint64_t jac, std::uint64_t extent_end, JointAnimation& out)
      : r_(reader), in_(reader.in), jac_(jac), extent_end_(extent_end), out_(out) {}

  void read() {
    r_.require_in_block(jac_, 0x14, jac_, "J.AC header");
    if (in_.u8(jac_) != 'J' || in_.u8(jac_ + 1) != 0 || in_.u8(jac_ + 2) != 'A' || in_.u8(jac_ + 3) != 'C')
      fail_at(jac_, "J.AC magic 4A 00 41 43", fmt::format("{:08X}", in_.u32(jac_, BE)));
    out_.frame_count = in_.u16(jac_ + 4, LE);
    const std::uint16_t node_count = in_.u16(jac_ + 6, LE);
    out_.flags = in_.u32(jac_ + 8, LE);
    rot3_offset_ = in_.u32(jac_ + 0x0C, LE);
    rot5_offset_ = in_.u32(jac_ + 0x10, LE);
    if (out_.frame_count < 1) fail_at(jac_ + 4, "frame count >= 1", "0");
    if (node_count < 1) fail_at(jac_ + 6, "node count >= 1", "0");
    r_.require_in_block(jac_ + 0x14, 2ull * node_count, jac_ + 6, "tag offset table");
    if (rot5_offset_ < rot3_offset_)
      fail_at(jac_ + 0x10, fmt::format("Rot5 table offset at or after the Rot3 table {:#x}", rot3_offset_),
              fmt::format("{:#x}", rot5_offset_));
    r_.require_in_block(jac_ + rot3_offset_, rot5_offset_ - rot3_offset_, jac_ + 0x0C, "Rot3 table");
    // Pass 1: tags and records; arrays are read once the rotation tables' lengths are known.
    for (std::uint16_t node = 0; node < node_count; ++node) {
      const std::uint64_t tag_at = jac_ + in_.u16(jac_ + 0x14 + 2ull * node, LE);
      r_.require_in_block(tag_at, 4, jac_ + 0x14 + 2ull * node, RangeName("node", node, "tag"));
      out_.nodes.push_back(read_node(tag_at, node));
    }
    read_rotation_tables();
    for (std::size_t node = 0; node < out_.nodes.size(); ++node) read_arrays(out_.nodes[node], node);
  }

 private:
  NodeAnimation read_node(std::uint64_t at, std::uint16_t index) {
    NodeAnimation node;
    node.tag = in_.u32(at, LE);
    if (node.tag & kTagReservedBits)
      r_.file.warnings.push_back(fmt::format("{}: node {} tag {:#010x} has bits 14-23 set", out_.name, index, node.tag));
    std::uint64_t cursor = at + 4;
    if (node.tag & kTagIdentity) return node;  // nothing else follows (nsbca.md)
    const auto next = [&](std::uint64_t length) {
      r_.require_in_block(cursor, length, at, RangeName("node", index, "records"));
      const std::uint64_t here = cursor;
      cursor += length;
      return here;
    };
    // An animated channel's record: the track info word, then its array's offset (read later).
    const auto read_animated = [&](TrackInfo& info, std::uint32_t& offset) {
      const std::uint64_t field = next(8);
      info = {in_.u32(field, LE)};
      offset = in_.u32(field + 4, LE);
      array_fields_.push_back(field);
    };
    const auto read_axes = [&](std::array<AxisChannel, 3>& axes, std::uint32_t identity_bit, std::uint32_t base_bit,
                               std::uint32_t const_bit, bool is_scale) {
      for (int axis = 0; axis < 3; ++axis) {
        auto& channel = axes[static_cast<std::size_t>(axis)];
        if (node.tag & identity_bit) channel.source = Source::identity;
        else if (node.tag & base_bit) channel.source = Source::base;
        else if (node.tag & (const_bit << axis)) {
          channel.source = Source::constant;
          const std::uint64_t field = next(is_scale ? 8 : 4);
          channel.constant = in_.i32(field, LE);
          if (is_scale) channel.constant_inverse = in_.i32(field + 4, LE);
        } else {
          channel.source = Source::animated;
          read_animated(channel.info, channel.offset);
        }
      }
    };
    read_axes(node.translation, kTagIdentityT, kTagBaseT, kTagConstTx, false);
    auto& rotation = node.rotation;
    if (node.tag & kTagIdentityR) rotation.source = Source::identity;
    else if (node.tag & kTagBaseR) rotation.source = Source::base;
    else if (node.tag & kTagConstR) {
      rotation.source = Source::constant;
      const std::uint64_t field = next(4);
      rotation.constant_word = in_.u32(field, LE);
      constant_rotation_fields_.push_back(field);
      if (rotation.constant_word >> 16)
        r_.file.warnings.push_back(fmt::format("{}: node {} constant rotation word {:#010x} has upper bits set",
                                               out_.name, index, rotation.constant_word));
    } else {
      rotation.source = Source::animated;
      read_animated(rotation.info, rotation.offset);
    }
    read_axes(node.scale, kTagIdentityS, kTagBaseS, kTagConstSx, true);
    return node;
  }

  void read_rotation_tables() {
    const std::uint64_t rot3_count = (rot5_offset_ - rot3_offset_) / 6;
    for (std::uint64_t i = 0; i < rot3_count; ++i) {
      const std::uint64_t at = jac_ + rot3_offset_ + 6 * i;
      out_.rot3.push_back({in_.u16(at, LE), in_.i16(at + 2, LE), in_.i16(at + 4, LE)});
    }
    // The Rot5 length is not stored: it runs to the first value array after it (or the J.AC's end).
    std::uint64_t rot5_end = extent_end_ - jac_;
    for (const auto field : array_fields_) {
      const std::uint32_t offset = in_.u32(field + 4, LE);
      if (offset >= rot5_offset_) rot5_end = std::min<std::uint64_t>(rot5_end, offset);
    }
    const std::uint64_t rot5_count = rot5_end > rot5_offset_ ? (rot5_end - rot5_offset_) / 10 : 0;
    r_.require_in_block(jac_ + rot5_offset_, rot5_count * 10, jac_ + 0x10, "Rot5 table");
    for (std::uint64_t i = 0; i < rot5_count; ++i) {
      const std::uint64_t at = jac_ + rot5_offset_ + 10 * i;
      Rot5Entry entry;
      for (std::size_t k = 0; k < 5; ++k) entry.d[k] = in_.u16(at + 2 * k, LE);
      out_.rot5.push_back(entry);
    }
    for (const auto field : constant_rotation_fields_) check_rotation_index(in_.u16(field, LE), field);
  }

  void check_rotation_index(std::uint16_t index, std::uint64_t at) const {
    if (index & 0x8000) {
      const std::size_t entry = index & 0x7FFF;
      if (entry >= out_.rot3.size())
        fail_at(at, fmt::format("Rot3 index < the table's {} entries", out_.rot3.size()), std::to_string(entry));
      const int pivot = out_.rot3[entry].info & 0x0F;
      if (pivot > 8)
        fail_at(jac_ + rot3_offset_ + 6 * entry, fmt::format("Rot3 entry {} pivot position 0..8", entry),
                std::to_string(pivot));
    } else if (index >= out_.rot5.size()) {
      fail_at(at, fmt::format("Rot5 index < the table's {} entries", out_.rot5.size()), std::to_string(index));
    }
  }

  // Channel `channel` (0-2 T x-z, 3 R, 4-6 S x-z) of node `node`: checks its track info word and
  // returns its sample array's absolute start and sample count.
  std::pair<std::uint64_t, std::size_t> array_of(const TrackInfo& info, std::uint32_t offset, std::uint64_t element,
                                                 std::uint64_t field, std::size_t node, int channel) const {
    static constexpr const char* kChannels[] = {"Tx", "Ty", "Tz", "R", "Sx", "Sy", "Sz"};
    const RangeName what("node", node, kChannels[channel]);
    if (info.step_code() == 3) fail_at(field, what.text() + ": step 1, 2 or 4 (info bits 30-31 = 0..2)", "3");
    const std::size_t count = sample_count(out_.frame_count, info.step());
    if (info.step() > 1) {
      const std::uint32_t expected = nitro::regular_last_interp(out_.frame_count, info.step());
      if (info.last_interp() != expected)
        r_.file.warnings.push_back(fmt::format("{}: {} LAST_INTERP {} (expected {} for step {})", out_.name,
                                               what.text(), info.last_interp(), expected, info.step()));
    }
    r_.require_in_block(jac_ + offset, count * element, field + 4, RangeName("node", node, kChannels[channel], " array"));
    // Arrays may be shared, but tracks pointing many times at the same data only multiply memory
    // (resource bound; real files share about 1 array in 4).
    r_.samples_read += count;
    // Each sample is held decoded and becomes (part of) a model key.
    charge_parse_memory(count, 4 + model::kBytesPerKey, field + 4, "decoded samples");
    if (r_.samples_read > r_.sample_budget)
      fail_at(field + 4, fmt::format("at most {} samples in all (8 per byte of the file)", r_.sample_budget),
              "arrays shared by too many tracks");
    return {jac_ + offset, count};
  }

  void read_arrays(NodeAnimation& node, std::size_t index) {
    std::size_t& field_index = next_field_;
    for (int axis = 0; axis < 3; ++axis) {
      auto& channel = node.translation[static_cast<std::size_t>(axis)];
      if (channel.source != Source::animated) continue;
      const std::uint64_t field = array_fields_[field_index++];
      const std::uint64_t element = channel.info.fx16() ? 2 : 4;
      const auto [start, count] = array_of(channel.info, channel.offset, element, field, index, axis);
      channel.samples.reserve(count);
      for (std::size_t s = 0; s < count; ++s)
        channel.samples.push_back(channel.info.fx16() ? in_.i16(start + 2 * s, LE) : in_.i32(start + 4 * s, LE));
    }
    if (node.rotation.source == Source::animated) {
      const std::uint64_t field = array_fields_[field_index++];
      const auto [start, count] =
          array_of(node.rotation.info, node.rotation.offset, 2, field, index, 3);
      node.rotation.indices.reserve(count);
      for (std::size_t s = 0; s < count; ++s) {
        node.rotation.indices.push_back(in_.u16(start + 2 * s, LE));
        check_rotation_index(node.rotation.indices.back(), start + 2 * s);
      }
    }
    for (int axis = 0; axis < 3; ++axis) {
      auto& channel = node.scale[static_cast<std::size_t>(axis)];
      if (channel.source != Source::animated) continue;
      const std::uint64_t field = array_fields_[field_index++];
      const std::uint64_t element = channel.info.fx16() ? 4 : 8;
      const auto [start, count] = array_of(channel.info, channel.offset, element, field, index, 4 + axis);
      channel.samples.reserve(count);
      channel.inverses.reserve(count);
      for (std::size_t s = 0; s < count; ++s) {
        const std::uint64_t at = start + element * s;
        channel.samples.push_back(channel.info.fx16() ? in_.i16(at, LE) : in_.i32(at, LE));
        channel.inverses.push_back(channel.info.fx16() ? in_.i16(at + 2, LE) : in_.i32(at + 4, LE));
      }
    }
  }

  const Reader& r_;
  const ByteReader& in_;
  std::uint64_t jac_, extent_end_;
  JointAnimation& out_;
  std::uint32_t rot3_offset_ = 0, rot5_offset_ = 0;
  std::vector<std::uint64_t> array_fields_;             // absolute positions of (info, offset) pairs
  std::vector<std::uint64_t> constant_rotation_fields_;  // absolute positions of constant rotation words
  std::size_t next_field_ = 0;                           // next entry of array_fields_ to read
};

}  // namespace

Result<NsbcaFile> parse_nsbca(std::span<const std::byte> bytes) {
  return catch_parse_failure<NsbcaFile>([&] {
    const ByteReader in(bytes);
    NsbcaFile file;
    const auto header = nitro::read_file_header(in, {"BCA0", "JNT0", 1, true}, file.warnings);
    file.version = header.version;
    const nitro::Block jnt0 = header.first;
    const Reader reader{in, jnt0.end, file, 8 * static_cast<std::uint64_t>(bytes.size())};
    const auto entries = nitro::read_bca0_dictionary(in, jnt0);
    std::vector<std::uint64_t> starts;
    for (std::size_t e = 0; e < entries.size(); ++e) {
      // Checked here so the error names the dictionary field, not an offset outside the file.
      starts.push_back(jnt0.start + in.u32(entries[e].data, LE));
      reader.require_in_block(starts.back(), 0x14, entries[e].data, RangeName("animation", e, "J.AC header"));
    }
    std::vector<std::uint64_t> sorted = starts;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t e = 0; e < entries.size(); ++e) {
      JointAnimation animation;
      animation.name = entries[e].name;
      const auto next = std::upper_bound(sorted.begin(), sorted.end(), starts[e]);
      const std::uint64_t extent_end = next == sorted.end() ? reader.block_end : *next;
      AnimationReader(reader, starts[e], extent_end, animation).read();
      file.animations.push_back(std::move(animation));
    }
    return file;
  });
}

}  // namespace animdex::nsbca
