#include "containers/narc/narc_writer.h"

#include <numeric>
#include <stdexcept>

#include "containers/nitro_fnt.h"
#include "core/byte_writer.h"

namespace animdex::narc {

namespace {

constexpr std::byte kPad{0xFF};

std::size_t padded_to_4(std::size_t size) { return (size + 3) / 4 * 4; }

void pad_to_4(std::vector<std::byte>& bytes) { bytes.resize(padded_to_4(bytes.size()), kPad); }

std::uint32_t checked_u32(std::size_t value) {
  if (value > UINT32_MAX) throw std::length_error("a NARC holds at most 4 GiB");
  return static_cast<std::uint32_t>(value);
}

}  // namespace

std::vector<std::byte> build_narc(const std::vector<NarcMember>& members, bool named) {
  if (members.size() > UINT16_MAX) throw std::length_error("a NARC holds at most 65535 members");
  std::vector<std::size_t> order(members.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<std::byte> fnt = nitro_fnt::nameless_fnt();
  if (named) {
    std::vector<std::string> paths;
    for (const auto& member : members) paths.push_back(member.name);
    auto layout = nitro_fnt::build_fnt(paths, 0);
    fnt = std::move(layout.table);
    order = std::move(layout.file_order);
  }
  pad_to_4(fnt);

  // GMIF data: each member 4-aligned, the gap (and the tail) 0xFF as the real archives have it.
  std::vector<std::byte> data;
  ByteWriter btaf;
  btaf.append(std::as_bytes(std::span("BTAF", 4)));
  btaf.u32(checked_u32(12 + 8 * members.size()), LE);
  btaf.u16(static_cast<std::uint16_t>(members.size()), LE);
  btaf.u16(0, LE);
  for (std::size_t index : order) {
    const auto& bytes = members[index].bytes;
    btaf.u32(checked_u32(data.size()), LE);
    btaf.u32(checked_u32(data.size() + bytes.size()), LE);
    data.insert(data.end(), bytes.begin(), bytes.end());
    pad_to_4(data);
  }

  ByteWriter out;
  out.append(std::as_bytes(std::span("NARC", 4)));
  out.u16(0xFFFE, LE);  // bytes FE FF
  out.u16(0x0100, LE);
  out.u32(0, LE);  // file size, patched below
  out.u16(0x10, LE);
  out.u16(3, LE);
  out.append(btaf.bytes());
  out.append(std::as_bytes(std::span("BTNF", 4)));
  out.u32(checked_u32(8 + fnt.size()), LE);
  out.append(fnt);
  out.append(std::as_bytes(std::span("GMIF", 4)));
  out.u32(checked_u32(8 + data.size()), LE);
  out.append(data);
  out.patch_u32(8, checked_u32(out.size()), LE);
  return out.take();
}

}  // namespace animdex::narc
